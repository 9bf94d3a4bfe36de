/* eng_alloc.c — hosts and cores taken and freed (eng_core.h): the host
 * choice of a start (the hosts a policy named, a packet's hosts, or first
 * fit in name order, within the island pol_island_pick() chooses and
 * island by island for a job larger than every island), the allocations
 * kept as runs of consecutive hosts (eng_host_run), the view's per-host
 * arrays of the running jobs (pol_view.alloc_pos, alloc_cores), and the
 * allocations read back host by host.
 *
 * Invariant: for every host of a pool that is up, free_cores = cores minus
 * the cores the running jobs hold there (a down host has none free), the free-host map's bit is set exactly when
 * the host has capacity for the allocation mode (a whole free host under
 * node allocation, a free core under core allocation), and the pool's
 * free units and each island's are the sums over their hosts; the core's
 * busy hosts and cores count the same. eng_check.c audits it with --check.
 * Host choice is a bitmap scan: O(hosts / 64 + hosts taken).
 *
 * Calls no other file of the core (eng_core_impl.h) but eng_energy.c,
 * which records each host's cores taken and freed and bills a job's.
 */
#include "eng_core_impl.h"

#include "eng_util.h"

#include <stdlib.h>
#include <string.h>

/* Next set bit at or after i, or -1. */
static int32_t bit_next(const uint64_t *map, size_t n_words, int32_t i)
{
    size_t w = (size_t)i >> 6;
    if (w >= n_words)
        return -1;
    uint64_t word = map[w] & (~UINT64_C(0) << (i & 63));
    while (!word) {
        if (++w >= n_words)
            return -1;
        word = map[w];
    }
    return (int32_t)(w * 64 + (size_t)__builtin_ctzll(word));
}

static int by_alloc_off(const void *a, const void *b)
{
    const pol_job *x = *(const pol_job *const *)a, *y = *(const pol_job *const *)b;
    return (x->alloc_off > y->alloc_off) - (x->alloc_off < y->alloc_off);
}

/* Makes room for `more` entries in the view's per-host arrays: moves the
 * running jobs' slices down over the ended ones' and, unless that leaves
 * half the arrays free, doubles them. Amortized O(1) per entry. */
static int reserve_live(eng_core *c, size_t more)
{
    if (c->n_live + more <= c->cap_live)
        return ENG_OK;
    size_t n_run = 0;
    for (size_t i = 0; i < c->n_pools; i++)
        n_run += c->pools[i].n_running;
    const pol_job **all = malloc((n_run ? n_run : 1) * sizeof *all);
    if (!all)
        return ENG_NOMEM;
    size_t k = 0;
    for (size_t i = 0; i < c->n_pools; i++)
        for (size_t r = 0; r < c->pools[i].n_running; r++)
            all[k++] = c->pools[i].running[r];
    qsort(all, n_run, sizeof *all, by_alloc_off); /* each move goes down */
    size_t to = 0;
    for (size_t a = 0; a < n_run; a++) {
        pol_job *j = &c->pj[all[a]->idx];
        size_t len = (size_t)j->n_alloc;
        memmove(c->live_pos + to, c->live_pos + j->alloc_off, len * sizeof *c->live_pos);
        memmove(c->live_cores + to, c->live_cores + j->alloc_off, len * sizeof *c->live_cores);
        j->alloc_off = to;
        to += len;
    }
    free(all);
    c->n_live = to;
    if (2 * (c->n_live + more) <= c->cap_live)
        return ENG_OK;
    size_t cap = c->cap_live;
    if (eng_grow(&c->live_pos, &cap, 2 * (c->n_live + more), sizeof *c->live_pos))
        return ENG_NOMEM;
    int32_t *nc = realloc(c->live_cores, cap * sizeof *nc);
    if (!nc)
        return ENG_NOMEM;
    c->live_cores = nc;
    c->cap_live = cap;
    return ENG_OK;
}

static int push_alloc(eng_core *c, int32_t host, int32_t cores)
{
    eng_host_run *last = c->n_runs > c->run_start ? &c->runs[c->n_runs - 1] : NULL;
    if (last && last->host + last->n == host && last->cores == cores) {
        last->n++;
    } else {
        if (eng_grow(&c->runs, &c->cap_runs, c->n_runs + 1, sizeof *c->runs))
            return ENG_NOMEM;
        c->runs[c->n_runs++] = (eng_host_run){.host = host, .n = 1, .cores = cores};
    }
    c->n_alloc++;
    /* reserved by eng_alloc_job() */
    c->live_pos[c->n_live] = c->pool_pos[host];
    c->live_cores[c->n_live] = cores;
    c->n_live++;
    return ENG_OK;
}

static int take_host(eng_core *c, pool_state *ps, int32_t pos, int32_t cores)
{
    pol_host *h = &ps->hosts[pos];
    if (h->free_cores == h->cores)
        c->busy_nodes++;
    int32_t busy = h->cores - h->free_cores;
    if (!c->psave) /* idle shutdown: eng_psave_claim turns it busy at the start */
        eng_host_cores(c, h->index, busy, busy + cores);
    h->free_cores -= cores;
    c->busy_cores += cores;
    island_add(c, ps, pos, cores, -1);
    if (!host_has_capacity(ps, c->prep->alloc, pos))
        bit_set(ps->freemap, pos, false);
    return push_alloc(c, h->index, cores);
}

/* With reservations: the window that holds the host at pos over the run
 * of job j started now, [now, now + estimate), or NULL. */
static const eng_hold *held_for(const eng_core *c, const pool_state *ps, int32_t pos,
                                const pol_job *j)
{
    return host_held(c, ps->hosts[pos].index, c->now, c->now + j->estimate_s);
}

/* The next host with free capacity after position `after` in island isl
 * (-1: any island) that no window holds for job j (reservations), or -1. */
static int32_t next_free(const eng_core *c, const pool_state *ps, int32_t after, int32_t isl,
                         const pol_job *j)
{
    int32_t pos = bit_next(ps->freemap, ps->n_words, after + 1);
    while (pos >= 0 && ((isl >= 0 && ps->hosts[pos].island != isl) || held_for(c, ps, pos, j)))
        pos = bit_next(ps->freemap, ps->n_words, pos + 1);
    return pos;
}

/* The next host for an engine-placed start in island *isl (-1: any), or
 * when spanning (span) in the islands after it in turn, as
 * pol_island_take() counts. */
static int32_t next_placed(const eng_core *c, const pool_state *ps, int32_t after, int32_t *isl,
                           bool span, const pol_job *j)
{
    int32_t pos = next_free(c, ps, after, *isl, j);
    while (pos < 0 && span && *isl + 1 < ps->n_islands)
        pos = next_free(c, ps, -1, ++*isl, j);
    return pos;
}

/* With reservations, before a start is allocated: the units it needs are
 * free on hosts no window holds over its run, and no host it names is
 * held. ENG_POLICY with the job, and the host and reservation named. */
static int check_held(eng_core *c, pool_state *ps, const pol_job *j, const int32_t *named,
                      int32_t n_named, eng_diag *d)
{
    for (int32_t k = 0; named && k < n_named; k++) {
        const eng_hold *w = named[k] >= 0 && named[k] < ps->n_hosts ? held_for(c, ps, named[k], j)
                                                                    : NULL;
        if (w)
            return eng_diag_set(d, ENG_POLICY,
                                "t=%.17g: policy %s started job %lld (until %.17g) on host %s, "
                                "which reservation %s holds over [%.17g, %.17g)",
                                c->now, policy_name(c), (long long)j->id, c->now + j->estimate_s,
                                ps->hosts[named[k]].name, c->opts.resv->v[w->resv].name, w->start_s,
                                w->end_s);
    }
    if (named)
        return ENG_OK;
    int64_t free_units = 0;
    for (int32_t pos = -1; (pos = next_free(c, ps, pos, -1, j)) >= 0;)
        free_units += c->prep->alloc == POL_ALLOC_NODE ? 1 : ps->hosts[pos].free_cores;
    if (free_units < j->units)
        return eng_diag_set(d, ENG_POLICY,
                            "t=%.17g: policy %s started job %lld needing %d units until %.17g, "
                            "with only %lld free on hosts no reservation holds by then",
                            c->now, policy_name(c), (long long)j->id, j->units,
                            c->now + j->estimate_s, (long long)free_units);
    return ENG_OK;
}

/* ---- a start's hosts, an end's ---------------------------------------- */

/* eng_core_impl.h: the policy's hosts, a packet's, or first fit. */
int eng_alloc_job(eng_core *c, pool_state *ps, const pol_job *j, const pol_start *st, eng_diag *d)
{
    eng_job_result *r = &c->res[j->idx];
    r->hosts_off = c->n_alloc;
    r->runs_off = c->run_start = c->n_runs;
    int32_t need = j->units;
    const int32_t *named = st->n_hosts ? ps->out.hosts + st->hosts_off : NULL;
    size_t most = st->packet >= 0 || named ? (size_t)st->n_hosts
                  : c->prep->alloc == POL_ALLOC_NODE
                      ? (size_t)need
                      : (size_t)(need < ps->n_hosts ? need : ps->n_hosts);
    int rc = reserve_live(c, most);
    if (rc)
        return eng_diag_set(d, rc, "out of memory");
    c->pj[j->idx].alloc_off = c->n_live;
    if (c->holds.off && (rc = check_held(c, ps, j, named, st->n_hosts, d)))
        return rc;
    int32_t held = j->units;
    int32_t pick = ps->n_islands && !named && st->packet < 0
                       ? pol_island_pick(ps->n_islands, ps->isl_units, ps->isl_free, need)
                       : -1;
    bool span = pick == POL_ISLAND_SPAN && ps->n_islands;
    int32_t isl = span ? 0 : pick >= 0 ? pick : -1;
    if (st->packet >= 0) {
        /* A packet member holds its packet's hosts whole. */
        if (!named)
            return eng_diag_set(d, ENG_POLICY,
                                "t=%.17g: policy %s started packet member %lld without hosts",
                                c->now, policy_name(c), (long long)j->id);
        held = 0;
        for (int32_t k = 0; k < st->n_hosts && rc == ENG_OK; k++) {
            int32_t pos = named[k];
            if (pos < 0 || pos >= ps->n_hosts || ps->hosts[pos].free_cores != ps->hosts[pos].cores)
                return eng_diag_set(d, ENG_POLICY,
                                    "t=%.17g: policy %s started packet member %lld on host "
                                    "position %d, which is not a free host of the pool",
                                    c->now, policy_name(c), (long long)j->id, pos);
            held += c->prep->alloc == POL_ALLOC_NODE ? 1 : ps->hosts[pos].cores;
            rc = take_host(c, ps, pos, ps->hosts[pos].cores);
        }
    } else if (c->prep->alloc == POL_ALLOC_NODE) {
        if (named && st->n_hosts != need)
            return eng_diag_set(d, ENG_POLICY,
                                "t=%.17g: policy %s named %d hosts for job %lld, which needs %d",
                                c->now, policy_name(c), st->n_hosts, (long long)j->id, need);
        int32_t pos = -1;
        for (int32_t k = 0; k < need && rc == ENG_OK; k++) {
            if (named) {
                pos = named[k];
                if (pos < 0 || pos >= ps->n_hosts || !host_has_capacity(ps, POL_ALLOC_NODE, pos))
                    return eng_diag_set(d, ENG_POLICY,
                                        "t=%.17g: policy %s started job %lld on host position "
                                        "%d, which is not a free host of the pool",
                                        c->now, policy_name(c), (long long)j->id, pos);
            } else {
                pos = next_placed(c, ps, pos, &isl, span, j);
                if (pos < 0)
                    return eng_diag_set(d, ENG_POLICY, "internal: free host count mismatch");
            }
            rc = take_host(c, ps, pos, ps->hosts[pos].cores);
        }
    } else {
        int32_t k = 0, pos = -1;
        while (need > 0 && rc == ENG_OK) {
            if (named) {
                if (k >= st->n_hosts)
                    return eng_diag_set(d, ENG_POLICY,
                                        "t=%.17g: policy %s named too few free cores for job "
                                        "%lld",
                                        c->now, policy_name(c), (long long)j->id);
                pos = named[k++];
                if (pos < 0 || pos >= ps->n_hosts)
                    return eng_diag_set(d, ENG_POLICY,
                                        "t=%.17g: policy %s named host position %d for job "
                                        "%lld, outside the pool",
                                        c->now, policy_name(c), pos, (long long)j->id);
                if (ps->hosts[pos].free_cores == 0)
                    continue;
            } else {
                pos = next_placed(c, ps, pos, &isl, span, j);
                if (pos < 0)
                    return eng_diag_set(d, ENG_POLICY, "internal: free core count mismatch");
            }
            int32_t take = ps->hosts[pos].free_cores < need ? ps->hosts[pos].free_cores : need;
            need -= take;
            rc = take_host(c, ps, pos, take);
        }
    }
    if (rc)
        return eng_diag_set(d, rc, "out of memory");
    r->n_hosts = (int32_t)(c->n_alloc - r->hosts_off);
    r->n_runs = (int32_t)(c->n_runs - r->runs_off);
    r->units = held;
    ps->free_units -= held;
    return ENG_OK;
}

void eng_alloc_release(eng_core *c, pool_state *ps, int32_t job)
{
    eng_job_result *r = &c->res[job];
    double held_s = c->now - r->start_s;
    /* idle shutdown: a job stopped before its boots ended never turned its
     * hosts busy (eng_power_save.c) */
    bool began = !c->psave || r->start_s <= c->now;
    for (int32_t u = 0; u < r->n_runs; u++) {
        const eng_host_run *run = &c->runs[r->runs_off + (size_t)u];
        for (int32_t k = 0; k < run->n; k++) {
            int32_t cores = run->cores;
            int32_t pos = c->pool_pos[run->host + k];
            pol_host *h = &ps->hosts[pos];
            int32_t busy = h->cores - h->free_cores;
            if (c->energy && began)
                r->energy_j += eng_energy_job_w(c, h->index, cores) * held_s;
            if (began)
                eng_host_cores(c, h->index, busy, busy - cores);
            h->free_cores += cores;
            c->busy_cores -= cores;
            island_add(c, ps, pos, cores, +1);
            if (h->free_cores == h->cores)
                c->busy_nodes--;
            if (host_has_capacity(ps, c->prep->alloc, pos))
                bit_set(ps->freemap, pos, true);
        }
    }
    ps->free_units += r->units;
}

/* ---- the allocations read back ---------------------------------------- */

const eng_host_run *eng_core_alloc_runs(const eng_core *c)
{
    return c->runs;
}

pol_alloc eng_core_alloc_mode(const eng_core *c)
{
    return c->prep->alloc;
}

/* Expands the runs host by host at each job's hosts_off (a job requeued
 * after a failure leaves its earlier slots unused, as they were). The
 * expansion is a cache: the const view of the core is unchanged. */
static bool expand_flat(const eng_core *c)
{
    eng_core *m = (eng_core *)c;
    if (m->flat_hosts && m->n_flat == c->n_alloc)
        return true;
    size_t n1 = c->n_alloc ? c->n_alloc : 1;
    int32_t *h = realloc(m->flat_hosts, n1 * sizeof *h);
    if (h)
        m->flat_hosts = h;
    int32_t *k = realloc(m->flat_cores, n1 * sizeof *k);
    if (k)
        m->flat_cores = k;
    if (!h || !k)
        return false;
    memset(h, 0, n1 * sizeof *h);
    memset(k, 0, n1 * sizeof *k);
    for (size_t i = 0; i < c->n; i++) {
        const eng_job_result *r = &c->res[i];
        if (r->start_s < 0 && r->end_s < 0)
            continue;
        size_t at = r->hosts_off;
        for (int32_t u = 0; u < r->n_runs; u++) {
            const eng_host_run *run = &c->runs[r->runs_off + (size_t)u];
            for (int32_t x = 0; x < run->n; x++, at++) {
                h[at] = run->host + x;
                k[at] = run->cores;
            }
        }
    }
    m->n_flat = c->n_alloc;
    return true;
}

const int32_t *eng_core_alloc_hosts(const eng_core *c)
{
    return expand_flat(c) ? c->flat_hosts : NULL;
}

const int32_t *eng_core_alloc_cores(const eng_core *c)
{
    return expand_flat(c) ? c->flat_cores : NULL;
}
