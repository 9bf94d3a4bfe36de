/* eng_core.c — the scheduling core (see eng_core.h for the contract).
 *
 * Data layout: every simulated job has a pol_job (what policies see) and an
 * eng_job_result (what outputs report), both indexed by the prepared job
 * index. Each pool keeps its waiting queue (idx order), its running jobs
 * ordered by (expected end, idx), a pol_host array mirroring its hosts'
 * free cores, and a bitmap of hosts with free capacity for first-fit host
 * choice. Ends are kept in a binary heap ordered by (end, idx).
 */
#include "eng_core.h"

#include "eng_avail.h"
#include "eng_heap.h"
#include "eng_util.h"

#include <gsl/gsl_rng.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A host's failures: down spans, drawn ahead window by window (rng set) or
 * all known from a trace (drawn_until infinite). */
typedef struct host_fail {
    bool active; /* the host may fail */
    gsl_rng *rng;
    eng_avail_res model;
    eng_avail_span *spans; /* not yet passed, sorted, merged */
    size_t n, cap, next;
    double drawn_until;
    bool down;
} host_fail;

typedef struct pool_state {
    const eng_pool *pool;
    pol_host *hosts; /* pool order = name order */
    int32_t n_hosts;
    int32_t total_units;
    int32_t free_units;
    const pol_job **queue;
    size_t n_queue, cap_queue;
    const pol_job **running;
    size_t n_running, cap_running;
    uint64_t *freemap; /* bit i: pool host i has free capacity */
    size_t n_words;
    void *pstate;
    bool inited;
    pol_out out;
    bool dirty;
    double wakeup_s;
    bool capacity_changed; /* a host went down or came up at this instant */
    int32_t down_units;    /* units of its hosts that are down */
    int32_t n_islands;     /* 0: no island constraint */
    int32_t *isl_units;    /* per island: capacity and free units */
    int32_t *isl_free;
    /* --init-planned no with --check: the overruns of jobs that have ended
     * (see overrun_excuses) */
    struct overrun {
        double from_s;  /* the job's planned end */
        double until_s; /* its real end */
    } * ov;
    size_t n_ov, cap_ov;
} pool_state;

struct eng_core {
    const eng_platform *plat;
    const eng_prepared *prep;
    eng_core_opts opts;
    const pol_type *policy;
    size_t n;
    pol_job *pj;
    eng_job_result *res;
    double *promise_s; /* first promise per job (check mode), INFINITY if none */
    /* --init-planned no (prep->init_unplanned), else NULL: each job's
     * planned end (start + its planned length), which orders the running
     * sets, the view showing max(planned end, now); with --check, when each
     * first promise was made. */
    double *plan_end_s;
    double *promised_at_s;
    int32_t *pool_pos; /* platform host -> position in its pool */
    pool_state *pools;
    size_t n_pools;

    size_t next_submit;
    eng_heap ends; /* (end time, job) */

    double now;
    bool begun;
    int32_t *ending;
    size_t n_ending, cap_ending;

    int32_t *started;
    struct started_work {
        int32_t host; /* slowest allocated host */
        double dur_s; /* how long it runs */
    } * work;         /* parallel to started */
    size_t n_started, cap_started, cap_work;

    /* Allocations, kept for the outputs as runs of consecutive hosts
     * (eng_host_run): a few per job whatever its width. */
    eng_host_run *runs;
    size_t n_runs, cap_runs;
    size_t run_start; /* the first run of the allocation being made */
    size_t n_alloc;   /* hosts of all allocations: the next hosts_off */
    /* The view's per-host arrays (pol_view.alloc_pos, alloc_cores) hold
     * the running jobs only: slices appended at each start, compacted when
     * full, so they stay as small as what runs at once. */
    int32_t *live_pos, *live_cores;
    size_t n_live, cap_live, live_used;
    /* eng_core_alloc_hosts()/cores(), expanded on demand */
    int32_t *flat_hosts, *flat_cores;
    size_t n_flat;

    eng_ts_row *ts;
    size_t n_ts, cap_ts;

    /* Host failures (opts.failures): per platform host, and the next up or
     * down change of every failing host as (time, host). */
    host_fail *fail;
    eng_heap changes;
    double policy_s; /* wall-clock seconds in policy calls */
    double wasted_node_s;
    double wasted_unit_s; /* the same in units (cores under core allocation) */

    /* Packets, indexed by their first member (allocated at the first one). */
    struct packet_state {
        size_t runs_off; /* the first member's allocation */
        int32_t n_runs;
        int32_t n_hosts;
        int32_t members;
        double last_end_s; /* end of the last member, -1 while one runs */
    } * packets;

    bool finished;                    /* eng_core_finish: the run's state is freed */
    char report[ENG_CORE_REPORT_LEN]; /*   and the policy's report kept here */

    int32_t queued, running, busy_nodes;
    int32_t down_hosts; /* hosts down (failures) now */
    int64_t busy_cores;
    size_t n_left;
    size_t n_steps;
};

/* ---- small helpers ---------------------------------------------------- */

/* Where a running job was planned to end: its expected_end_s, except under
 * --init-planned no, where the view may show a later one (show_overdue). */
static double planned_end(const eng_core *c, const pol_job *j)
{
    return c->plan_end_s ? c->plan_end_s[j->idx] : j->expected_end_s;
}

/* The running sets' order: (planned end, idx). */
static bool run_less(const eng_core *c, const pol_job *a, const pol_job *b)
{
    double x = planned_end(c, a), y = planned_end(c, b);
    return x < y || (x == y && a->idx < b->idx);
}

/* First position in the running array not ordered before j. */
static size_t running_lower_bound(const eng_core *c, const pool_state *ps, const pol_job *j)
{
    size_t lo = 0, hi = ps->n_running;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (run_less(c, ps->running[mid], j))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static size_t queue_lower_bound(const pool_state *ps, int32_t idx)
{
    size_t lo = 0, hi = ps->n_queue;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (ps->queue[mid]->idx < idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void bit_set(uint64_t *map, int32_t i, bool on)
{
    if (on)
        map[i >> 6] |= UINT64_C(1) << (i & 63);
    else
        map[i >> 6] &= ~(UINT64_C(1) << (i & 63));
}

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

static bool host_has_capacity(const pool_state *ps, pol_alloc alloc, int32_t pos)
{
    const pol_host *h = &ps->hosts[pos];
    return alloc == POL_ALLOC_NODE ? h->free_cores == h->cores : h->free_cores > 0;
}

/* --init-planned no: a running job that outlived its planned end is shown
 * ending now (eng_policy.h). Such jobs lead the running set, which is
 * ordered by planned end, so the walk stops at the first job still within
 * its plan; max(planned end, now) does not decrease along the set, which
 * therefore stays ordered by expected_end_s for the policy (only ties at
 * now follow the planned ends). O(overdue jobs). */
static void show_overdue(eng_core *c, const pool_state *ps)
{
    if (!c->plan_end_s)
        return;
    for (size_t r = 0; r < ps->n_running; r++) {
        pol_job *j = &c->pj[ps->running[r]->idx];
        if (c->plan_end_s[j->idx] >= c->now)
            break;
        j->expected_end_s = c->now;
    }
}

/* The view of pool ps now, for a hook or a schedule() call. */
static pol_view make_view(eng_core *c, const pool_state *ps)
{
    show_overdue(c, ps);
    return (pol_view){
        .now_s = c->now,
        .alloc = c->prep->alloc,
        .total_units = ps->total_units,
        .free_units = ps->free_units,
        .queue = ps->queue,
        .n_queue = ps->n_queue,
        .running = ps->running,
        .n_running = ps->n_running,
        .hosts = ps->hosts,
        .n_hosts = (size_t)ps->n_hosts,
        .ref_speed_flops = c->plat->ref_speed_flops,
        .alloc_pos = c->live_pos,
        .alloc_cores = c->live_cores,
        .n_islands = ps->n_islands,
        .island_units = ps->isl_units,
        .island_free = ps->isl_free,
    };
}

/* Units a host counts for in its island's free units. */
static void island_add(const eng_core *c, pool_state *ps, int32_t pos, int32_t cores, int sign)
{
    if (ps->n_islands)
        ps->isl_free[ps->hosts[pos].island] += sign *
                                               (c->prep->alloc == POL_ALLOC_NODE ? 1 : cores);
}

static const char *policy_name(const eng_core *c)
{
    return c->policy->name;
}

/* ---- policy timing ---------------------------------------------------- */

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- host failures ---------------------------------------------------- */

#define FAIL_WINDOW_EPOCHS 64
#define FAIL_SEARCH_EPOCHS 100000 /* a host quiet this long has no more failures */

/* Draws host h's failures up to at least t. */
static int draw_until(eng_core *c, int32_t h, double t)
{
    host_fail *f = &c->fail[h];
    double epoch = c->opts.failures.epoch_s;
    while (f->drawn_until <= t) {
        double w0 = f->drawn_until, w1 = w0 + FAIL_WINDOW_EPOCHS * epoch;
        eng_avail_span *got = NULL;
        size_t n = 0, cap = 0;
        int rc = eng_avail_draw(&f->model, w0, w1, epoch, f->rng, &got, &n, &cap, NULL);
        if (rc) {
            free(got);
            return rc;
        }
        if (f->next > 1024) { /* forget the past */
            memmove(f->spans, f->spans + f->next, (f->n - f->next) * sizeof *f->spans);
            f->n -= f->next;
            f->next = 0;
        }
        for (size_t i = 0; i < n; i++) {
            if (f->n && f->spans[f->n - 1].end_s >= got[i].start_s) {
                if (got[i].end_s > f->spans[f->n - 1].end_s)
                    f->spans[f->n - 1].end_s = got[i].end_s; /* one outage across windows */
                continue;
            }
            if (eng_grow(&f->spans, &f->cap, f->n + 1, sizeof *f->spans)) {
                free(got);
                return ENG_NOMEM;
            }
            f->spans[f->n++] = got[i];
        }
        free(got);
        f->drawn_until = w1;
    }
    return ENG_OK;
}

/* The first time in (from, until) at which up host h goes down, or
 * INFINITY. */
static double next_down(eng_core *c, int32_t h, double from, double until)
{
    host_fail *f = &c->fail[h];
    if (!f->active || draw_until(c, h, until))
        return INFINITY;
    for (size_t i = f->next; i < f->n && f->spans[i].start_s < until; i++)
        if (f->spans[i].start_s > from)
            return f->spans[i].start_s;
    return INFINITY;
}

/* Schedules host h's next change after now (going down if up, up if down). */
static int schedule_change(eng_core *c, int32_t h)
{
    host_fail *f = &c->fail[h];
    double epoch = c->opts.failures.epoch_s;
    if (f->down)
        return eng_heap_push(&c->changes, (eng_heap_ev){.t = f->spans[f->next].end_s, .id = h});
    for (double horizon = c->now > 0 ? c->now : 0;;) {
        horizon += FAIL_WINDOW_EPOCHS * epoch;
        int rc = draw_until(c, h, horizon);
        if (rc)
            return rc;
        while (f->next < f->n && f->spans[f->next].end_s <= c->now)
            f->next++;
        if (f->next < f->n)
            return eng_heap_push(&c->changes,
                                 (eng_heap_ev){.t = f->spans[f->next].start_s, .id = h});
        if (!f->rng)
            return ENG_OK; /* the end of its trace */
        if (horizon - (c->now > 0 ? c->now : 0) > FAIL_SEARCH_EPOCHS * epoch)
            return ENG_OK; /* no more failures for this host */
    }
}

typedef struct fail_ix {
    int32_t host;
    double start_s, end_s;
} fail_ix;

static int cmp_fail_ix(const void *a, const void *b)
{
    const fail_ix *x = a, *y = b;
    if (x->host != y->host)
        return x->host < y->host ? -1 : 1;
    return x->start_s < y->start_s ? -1 : x->start_s > y->start_s ? 1 : 0;
}

/* The index of the host named name, or -1 (hosts are in name order). */
static int32_t host_by_name(const eng_platform *p, const char *name)
{
    size_t lo = 0, hi = p->n_hosts;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = eng_name_cmp(p->hosts[mid].name, name);
        if (c == 0)
            return (int32_t)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* Loads a failure trace: per host, its outages sorted and merged. */
static int load_fail_trace(eng_core *c, eng_diag *d)
{
    const eng_failures *fo = &c->opts.failures;
    const char *path = fo->trace_path;
    fail_ix *v = malloc((fo->n_trace ? fo->n_trace : 1) * sizeof *v);
    if (!v)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    for (size_t i = 0; i < fo->n_trace; i++) {
        const eng_fail_span *s = &fo->trace[i];
        v[i] = (fail_ix){.host = s->host ? host_by_name(c->plat, s->host) : -1,
                         .start_s = s->start_s,
                         .end_s = s->end_s};
        if (v[i].host < 0) {
            free(v);
            return eng_diag_set(d, ENG_INVAL, "%s:%ld: host '%s' is not in platform %s", path,
                                s->line, s->host ? s->host : "", c->plat->path);
        }
        if (!(s->start_s >= 0) || !(s->end_s > s->start_s) || !isfinite(s->end_s)) {
            free(v);
            return eng_diag_set(d, ENG_INVAL,
                                "%s:%ld: outage %g to %g s: expected 0 <= start < end", path,
                                s->line, s->start_s, s->end_s);
        }
    }
    if (fo->n_trace > 1)
        qsort(v, fo->n_trace, sizeof *v, cmp_fail_ix);
    for (size_t i = 0; i < fo->n_trace; i++) {
        host_fail *f = &c->fail[v[i].host];
        f->active = true;
        f->drawn_until = INFINITY;
        if (f->n && f->spans[f->n - 1].end_s >= v[i].start_s) {
            if (v[i].end_s > f->spans[f->n - 1].end_s)
                f->spans[f->n - 1].end_s = v[i].end_s;
            continue;
        }
        if (eng_grow(&f->spans, &f->cap, f->n + 1, sizeof *f->spans)) {
            free(v);
            return eng_diag_set(d, ENG_NOMEM, "out of memory");
        }
        f->spans[f->n++] = (eng_avail_span){.start_s = v[i].start_s, .end_s = v[i].end_s};
    }
    free(v);
    return ENG_OK;
}

static int init_failures(eng_core *c, eng_diag *d)
{
    const eng_failures *fo = &c->opts.failures;
    bool traced = fo->trace_path != NULL;
    if (!traced && (!(fo->epoch_s > 0) || !isfinite(fo->epoch_s)))
        return eng_diag_set(d, ENG_INVAL, "failure epoch %g: expected a positive duration",
                            fo->epoch_s);
    c->fail = calloc(c->plat->n_hosts, sizeof *c->fail);
    if (!c->fail)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    if (traced) {
        int rc = load_fail_trace(c, d);
        if (rc)
            return rc;
    }
    for (size_t h = 0; h < c->plat->n_hosts; h++) {
        host_fail *f = &c->fail[h];
        if (!traced) {
            double p = c->plat->hosts[h].occupation_prob;
            if (!(p > 0))
                continue;
            f->active = true;
            f->rng = gsl_rng_alloc(gsl_rng_mt19937);
            if (!f->rng)
                return eng_diag_set(d, ENG_NOMEM, "out of memory");
            /* one stream per host, independent of the schedule */
            gsl_rng_set(f->rng, (unsigned long)((fo->seed * 0x9E3779B97F4A7C15ull + h + 1) >> 32 ^
                                                (fo->seed + h * 2654435761ull)));
            eng_avail_res_init(&f->model, p);
        }
        if (!f->active)
            continue;
        int rc = schedule_change(c, (int32_t)h);
        if (rc)
            return eng_diag_set(d, rc, "out of memory");
    }
    return ENG_OK;
}

/* Applies every host change due at now: a host going down takes no more
 * jobs (its jobs ended at this instant already: their runs were cut at
 * the failure when they started); one coming up is free again. */
static int apply_changes(eng_core *c)
{
    while (c->changes.n && c->changes.v[0].t <= c->now) {
        int32_t h = eng_heap_pop(&c->changes).id;
        host_fail *f = &c->fail[h];
        pool_state *ps = &c->pools[c->plat->hosts[h].pool];
        int32_t pos = c->pool_pos[h];
        pol_host *ph = &ps->hosts[pos];
        int32_t units = c->prep->alloc == POL_ALLOC_NODE ? 1 : ph->cores;
        if (!f->down) {
            /* going down: nothing may run on it now */
            if (ph->free_cores != ph->cores)
                return ENG_INVARIANT;
            f->down = true;
            c->down_hosts++;
            ph->up = false;
            island_add(c, ps, pos, ph->cores, -1);
            ph->free_cores = 0;
            bit_set(ps->freemap, pos, false);
            ps->free_units -= units;
            ps->down_units += units;
        } else {
            f->down = false;
            c->down_hosts--;
            f->next++;
            ph->up = true;
            ph->free_cores = ph->cores;
            island_add(c, ps, pos, ph->cores, +1);
            bit_set(ps->freemap, pos, true);
            ps->free_units += units;
            ps->down_units -= units;
        }
        ps->dirty = true;
        ps->capacity_changed = true;
        int rc = schedule_change(c, h);
        if (rc)
            return rc;
    }
    return ENG_OK;
}

/* ---- create / destroy ------------------------------------------------- */

/* What only the run needs: the policy instances and the pools' state, the
 * jobs' view and the core's work lists (freed twice is harmless: every
 * pointer is left NULL). */
static void free_run_state(eng_core *c)
{
    for (size_t i = 0; c->pools && i < c->n_pools; i++) {
        pool_state *ps = &c->pools[i];
        if (ps->inited && c->policy->fini)
            c->policy->fini(ps->pstate);
        ps->inited = false;
        free(ps->pstate);
        free(ps->hosts);
        free(ps->queue);
        free(ps->running);
        free(ps->freemap);
        free(ps->isl_units);
        free(ps->isl_free);
        free(ps->ov);
        pol_out_fini(&ps->out);
        ps->pstate = NULL;
        ps->hosts = NULL;
        ps->queue = NULL;
        ps->running = NULL;
        ps->freemap = NULL;
        ps->isl_units = ps->isl_free = NULL;
        ps->ov = NULL;
    }
    free(c->pj);
    free(c->promise_s);
    free(c->plan_end_s);
    free(c->promised_at_s);
    eng_heap_fini(&c->ends);
    free(c->ending);
    free(c->started);
    free(c->work);
    free(c->live_pos);
    free(c->live_cores);
    c->pj = NULL;
    c->promise_s = c->plan_end_s = c->promised_at_s = NULL;
    c->ending = c->started = NULL;
    c->work = NULL;
    c->live_pos = c->live_cores = NULL;
}

void eng_core_destroy(eng_core *c)
{
    if (!c)
        return;
    free_run_state(c);
    free(c->pools);
    free(c->res);
    free(c->pool_pos);
    free(c->runs);
    free(c->flat_hosts);
    free(c->flat_cores);
    free(c->ts);
    free(c->packets);
    if (c->fail)
        for (size_t h = 0; h < c->plat->n_hosts; h++) {
            gsl_rng_free(c->fail[h].rng);
            eng_avail_res_fini(&c->fail[h].model);
            free(c->fail[h].spans);
        }
    free(c->fail);
    eng_heap_fini(&c->changes);
    free(c);
}

static int init_pool(eng_core *c, size_t pi, eng_diag *d)
{
    const eng_platform *p = c->plat;
    const eng_pool *pool = &p->pools[pi];
    pool_state *ps = &c->pools[pi];
    ps->pool = pool;
    ps->n_hosts = (int32_t)pool->n_hosts;
    ps->hosts = calloc(pool->n_hosts, sizeof *ps->hosts);
    ps->n_words = (pool->n_hosts + 63) / 64;
    ps->freemap = calloc(ps->n_words, sizeof *ps->freemap);
    ps->wakeup_s = INFINITY;
    pol_out_init(&ps->out);
    if (!ps->hosts || !ps->freemap)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    for (size_t k = 0; k < pool->n_hosts; k++) {
        const eng_host *h = &p->hosts[pool->hosts[k]];
        ps->hosts[k] = (pol_host){
            .name = h->name,
            .index = pool->hosts[k],
            .speed_flops = h->speed_flops,
            .cores = h->cores,
            .free_cores = h->cores,
            .price_per_s = h->price_per_s,
            .occupation_prob = h->occupation_prob,
            .up = true,
            .island = -1,
        };
        c->pool_pos[pool->hosts[k]] = (int32_t)k;
        bit_set(ps->freemap, (int32_t)k, true);
    }
    int64_t units = c->prep->alloc == POL_ALLOC_NODE ? (int64_t)pool->n_hosts : pool->total_cores;
    if (units > INT32_MAX)
        return eng_diag_set(d, ENG_PLATFORM, "%s: pool %s has more than 2^31 units", p->path,
                            pool->label);
    ps->total_units = ps->free_units = (int32_t)units;
    if (c->prep->init_unplanned && !(c->policy->flags & POL_FLAG_REPLANS))
        return eng_diag_set(d, ENG_USAGE,
                            "policy %s keeps plans across scheduling calls that a job outliving "
                            "its estimate would break, and with --init-planned no jobs outlive "
                            "their estimates by their initialization: run it with "
                            "--init-planned yes (`batchlab policies` names the policies that "
                            "re-plan at every call)",
                            policy_name(c));
    if (c->prep->alloc == POL_ALLOC_CORE && !(c->policy->flags & POL_FLAG_CORES))
        return eng_diag_set(d, ENG_USAGE,
                            "policy %s allocates whole hosts only: run it with --alloc node "
                            "(`batchlab policies` names the policies that allocate cores)",
                            policy_name(c));
    if (!c->opts.ignore_islands && pool->n_islands > 1) {
        if (!(c->policy->flags & POL_FLAG_ISLANDS))
            return eng_diag_set(d, ENG_USAGE,
                                "policy %s does not plan with islands, and the hosts of pool "
                                "%s in %s name %d islands: run it with --islands ignore "
                                "(`batchlab policies` names the policies that do)",
                                policy_name(c), pool->label, p->path, pool->n_islands);
        if (c->prep->alloc == POL_ALLOC_CORE && !(c->policy->flags & POL_FLAG_ISLANDS_CORES))
            return eng_diag_set(d, ENG_USAGE,
                                "policy %s plans with islands under whole-node allocation "
                                "only; with --alloc core run it with --islands ignore (the hosts "
                                "of pool %s in %s name %d islands)",
                                policy_name(c), pool->label, p->path, pool->n_islands);
        ps->n_islands = pool->n_islands;
        ps->isl_units = malloc((size_t)ps->n_islands * sizeof *ps->isl_units);
        ps->isl_free = malloc((size_t)ps->n_islands * sizeof *ps->isl_free);
        if (!ps->isl_units || !ps->isl_free)
            return eng_diag_set(d, ENG_NOMEM, "out of memory");
        for (int32_t k = 0; k < ps->n_islands; k++)
            ps->isl_units[k] = ps->isl_free[k] = (int32_t)(c->prep->alloc == POL_ALLOC_NODE
                                                               ? pool->island_hosts[k]
                                                               : pool->island_cores[k]);
        for (int32_t k = 0; k < ps->n_hosts; k++)
            ps->hosts[k].island = p->hosts[pool->hosts[k]].island;
    }

    ps->pstate = calloc(1, c->policy->state_size ? c->policy->state_size : 1);
    if (!ps->pstate)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    pol_setup setup = {
        .alloc = c->prep->alloc,
        .total_units = ps->total_units,
        .hosts = ps->hosts,
        .n_hosts = (size_t)ps->n_hosts,
        .ref_speed_flops = p->ref_speed_flops,
        .n_jobs = c->n,
        .seed = c->opts.seed,
        .options = c->opts.options,
        .n_options = c->opts.n_options,
        .declared = c->policy->options,
        .n_islands = ps->n_islands,
        .island_units = ps->isl_units,
    };
    if (c->policy->init) {
        char err[512] = "";
        int rc = c->policy->init(ps->pstate, &setup, err, sizeof err);
        if (rc)
            return eng_diag_set(d, rc, "policy %s: %s", policy_name(c),
                                err[0] ? err : eng_strerror(rc));
    }
    ps->inited = true;
    return ENG_OK;
}

int eng_core_create(const eng_platform *platform, const eng_prepared *prep,
                    const eng_core_opts *opts, eng_core **out, eng_diag *d)
{
    *out = NULL;
    if (!opts->policy)
        return eng_diag_set(d, ENG_INVAL, "no policy given");
    if (prep->n_jobs > INT32_MAX)
        return eng_diag_set(d, ENG_RANGE, "more than 2^31 jobs");
    char err[512];
    int rc = pol_check_options(opts->policy, opts->options, opts->n_options, err, sizeof err);
    if (rc)
        return eng_diag_set(d, rc, "%s", err);
    eng_core *c = calloc(1, sizeof *c);
    if (!c)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    c->plat = platform;
    c->prep = prep;
    c->opts = *opts;
    c->policy = opts->policy;
    c->n = prep->n_jobs;
    c->n_left = c->n;
    c->now = -INFINITY;
    size_t n1 = c->n ? c->n : 1;
    c->pj = calloc(n1, sizeof *c->pj);
    c->res = calloc(n1, sizeof *c->res);
    c->pool_pos = calloc(platform->n_hosts, sizeof *c->pool_pos);
    c->pools = calloc(platform->n_pools, sizeof *c->pools);
    if (opts->check)
        c->promise_s = malloc(n1 * sizeof *c->promise_s);
    if (prep->init_unplanned)
        c->plan_end_s = malloc(n1 * sizeof *c->plan_end_s);
    if (prep->init_unplanned && opts->check)
        c->promised_at_s = malloc(n1 * sizeof *c->promised_at_s);
    if (!c->pj || !c->res || !c->pool_pos || !c->pools || (opts->check && !c->promise_s) ||
        (prep->init_unplanned && !c->plan_end_s) ||
        (prep->init_unplanned && opts->check && !c->promised_at_s)) {
        eng_core_destroy(c);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < c->n; i++) {
        const eng_sim_job *s = &prep->jobs[i];
        c->pj[i] = (pol_job){
            .idx = (int32_t)i,
            .id = s->id,
            .submit_s = s->submit_s,
            .estimate_s = s->estimate_s,
            .units = s->units,
            .procs = s->procs,
            .queue = s->queue,
            .partition = s->partition,
            .user = s->user,
            .group = s->group,
            .app = s->app,
            .type = s->type,
            .init_s = prep->init_unplanned ? 0 : s->init_s,
            .start_s = -1,
            .expected_end_s = -1,
        };
        c->res[i] = (eng_job_result){.start_s = -1,
                                     .end_s = -1,
                                     .state = ENG_JOB_PENDING,
                                     .packet = -1,
                                     .start_step = -1,
                                     .end_step = -1};
        if (c->promise_s)
            c->promise_s[i] = INFINITY;
        if (i > 0 && s->submit_s < prep->jobs[i - 1].submit_s) {
            eng_core_destroy(c);
            return eng_diag_set(d, ENG_INVAL, "jobs are not sorted by submit time");
        }
    }
    c->n_pools = platform->n_pools;
    for (size_t pi = 0; pi < c->n_pools; pi++) {
        rc = init_pool(c, pi, d);
        if (rc) {
            eng_core_destroy(c);
            return rc;
        }
    }
    if (opts->failures.enabled) {
        c->now = 0;
        rc = init_failures(c, d);
        c->now = -INFINITY;
        if (rc) {
            eng_core_destroy(c);
            return rc;
        }
    }
    *out = c;
    return ENG_OK;
}

/* ---- allocation ------------------------------------------------------- */

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
    /* reserved by allocate() */
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
    h->free_cores -= cores;
    c->busy_cores += cores;
    island_add(c, ps, pos, cores, -1);
    if (!host_has_capacity(ps, c->prep->alloc, pos))
        bit_set(ps->freemap, pos, false);
    return push_alloc(c, h->index, cores);
}

/* The next host with free capacity after position `after` in island isl
 * (-1: any island), or -1. */
static int32_t next_free(const pool_state *ps, int32_t after, int32_t isl)
{
    int32_t pos = bit_next(ps->freemap, ps->n_words, after + 1);
    while (pos >= 0 && isl >= 0 && ps->hosts[pos].island != isl)
        pos = bit_next(ps->freemap, ps->n_words, pos + 1);
    return pos;
}

/* The next host for an engine-placed start in island *isl (-1: any), or
 * when spanning (span) in the islands after it in turn, as
 * pol_island_take() counts. */
static int32_t next_placed(const pool_state *ps, int32_t after, int32_t *isl, bool span)
{
    int32_t pos = next_free(ps, after, *isl);
    while (pos < 0 && span && *isl + 1 < ps->n_islands)
        pos = next_free(ps, -1, ++*isl);
    return pos;
}

/* Allocates job j in pool ps, on the policy's hosts or first fit: with
 * islands, within the island pol_island_pick() chooses (start_job checked
 * that it exists), or island by island for a job larger than every island. */
static int allocate(eng_core *c, pool_state *ps, const pol_job *j, const pol_start *st, eng_diag *d)
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
                pos = next_placed(ps, pos, &isl, span);
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
                pos = next_placed(ps, pos, &isl, span);
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

static void release(eng_core *c, pool_state *ps, int32_t job)
{
    const eng_job_result *r = &c->res[job];
    for (int32_t u = 0; u < r->n_runs; u++) {
        const eng_host_run *run = &c->runs[r->runs_off + (size_t)u];
        for (int32_t k = 0; k < run->n; k++) {
            int32_t cores = run->cores;
            int32_t pos = c->pool_pos[run->host + k];
            pol_host *h = &ps->hosts[pos];
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

/* ---- starting a job --------------------------------------------------- */

/* A packet's first member opens it; a later one must be of its type and
 * start, on the same hosts, at the instant the previous member ended. */
static int check_packet_start(eng_core *c, pool_state *ps, const pol_job *j, const pol_start *st,
                              eng_diag *d)
{
    int32_t p = st->packet;
    if (!c->packets && !(c->packets = calloc(c->n, sizeof *c->packets)))
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    if (p == j->idx)
        return ENG_OK;
    if (p < 0 || (size_t)p >= c->n || c->packets[p].members == 0)
        return eng_diag_set(d, ENG_POLICY,
                            "t=%.17g: policy %s added job %lld to packet %d, which was never "
                            "opened",
                            c->now, policy_name(c), (long long)j->id, p);
    const struct packet_state *pk = &c->packets[p];
    if (pk->last_end_s != c->now)
        return eng_diag_set(d, ENG_INVARIANT,
                            "t=%.17g: policy %s started job %lld in the packet of job %lld "
                            "while its previous member %s",
                            c->now, policy_name(c), (long long)j->id, (long long)c->pj[p].id,
                            pk->last_end_s < 0 ? "still runs" : "ended earlier");
    if (c->pj[p].type != j->type)
        return eng_diag_set(d, ENG_POLICY,
                            "t=%.17g: policy %s put job %lld (type %lld) in a packet of type "
                            "%lld",
                            c->now, policy_name(c), (long long)j->id, (long long)j->type,
                            (long long)c->pj[p].type);
    bool same = st->n_hosts == pk->n_hosts;
    size_t k = st->hosts_off;
    for (int32_t u = 0; same && u < pk->n_runs; u++) {
        const eng_host_run *run = &c->runs[pk->runs_off + (size_t)u];
        for (int32_t h = 0; same && h < run->n; h++)
            same = ps->out.hosts[k++] == c->pool_pos[run->host + h];
    }
    if (!same)
        return eng_diag_set(d, ENG_INVARIANT,
                            "t=%.17g: policy %s started job %lld in the packet of job %lld on "
                            "other hosts than the packet's",
                            c->now, policy_name(c), (long long)j->id, (long long)c->pj[p].id);
    return ENG_OK;
}

static int32_t largest_island(const pool_state *ps)
{
    int32_t m = 0;
    for (int32_t k = 0; k < ps->n_islands; k++)
        if (ps->isl_units[k] > m)
            m = ps->isl_units[k];
    return m;
}

/* With islands: an engine-placed start needs an island that hosts it now
 * (or, larger than every island, enough free units across them); named
 * hosts of a job that fits in one island must all be in one. */
static int check_island_start(eng_core *c, pool_state *ps, const pol_job *j, const pol_start *st,
                              eng_diag *d)
{
    if (st->n_hosts == 0) {
        if (pol_island_pick(ps->n_islands, ps->isl_units, ps->isl_free, j->units) !=
            POL_ISLAND_NONE)
            return ENG_OK;
        int32_t best = 0;
        for (int32_t k = 1; k < ps->n_islands; k++)
            if (ps->isl_free[k] > ps->isl_free[best])
                best = k;
        return eng_diag_set(d, ENG_POLICY,
                            "t=%.17g: policy %s started job %lld needing %d units, which no "
                            "island can host now (most free: %d of island %s's %d)",
                            c->now, policy_name(c), (long long)j->id, j->units, ps->isl_free[best],
                            ps->pool->island_names[best], ps->isl_units[best]);
    }
    if (j->units > largest_island(ps))
        return ENG_OK;
    const int32_t *named = ps->out.hosts + st->hosts_off;
    for (int32_t k = 1; k < st->n_hosts; k++) {
        int32_t a = named[0], b = named[k];
        if (a < 0 || a >= ps->n_hosts || b < 0 || b >= ps->n_hosts)
            return ENG_OK; /* allocate() reports hosts outside the pool */
        if (ps->hosts[a].island != ps->hosts[b].island)
            return eng_diag_set(d, ENG_POLICY,
                                "t=%.17g: policy %s started job %lld (%d units, fits in one "
                                "island) on hosts %s and %s of different islands",
                                c->now, policy_name(c), (long long)j->id, j->units,
                                ps->hosts[a].name, ps->hosts[b].name);
    }
    return ENG_OK;
}

/* --init-planned no with --check: job idx of pool ps ends now; if it ran
 * past its planned end, keep (planned end, now) for overrun_excuses. The
 * kept overruns have from_s strictly rising and until_s non-decreasing
 * (ends come in time order): one that began no earlier than a later one is
 * dropped, since any promise it excuses the later one excuses too. */
static int note_overrun(eng_core *c, pool_state *ps, int32_t idx)
{
    double from = c->plan_end_s[idx];
    if (!(c->now - from > 1e-9 * fmax(1.0, fabs(c->now))))
        return ENG_OK;
    while (ps->n_ov > 0 && ps->ov[ps->n_ov - 1].from_s >= from)
        ps->n_ov--;
    if (eng_grow(&ps->ov, &ps->cap_ov, ps->n_ov + 1, sizeof *ps->ov))
        return ENG_NOMEM;
    ps->ov[ps->n_ov++] = (struct overrun){.from_s = from, .until_s = c->now};
    return ENG_OK;
}

/* --init-planned no: is job idx's broken promise (made at t_p for start_by)
 * excused by an overrun (eng_policy.h, pol_promise)? Some job of the pool
 * ran past its planned end at a time in [t_p, start_by]: it began to
 * overrun by start_by and was running after t_p. A job still running now
 * past its plan began at the planned end of the running set's first job;
 * among the ended ones, the first kept overrun that ended after t_p began
 * earliest (note_overrun). O(log overruns). */
static bool overrun_excuses(const eng_core *c, const pool_state *ps, int32_t idx)
{
    if (!c->promised_at_s)
        return false;
    double t_p = c->promised_at_s[idx], by = c->promise_s[idx];
    if (ps->n_running > 0) {
        double first = c->plan_end_s[ps->running[0]->idx];
        if (first <= c->now && first <= by)
            return true;
    }
    size_t lo = 0, hi = ps->n_ov;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (ps->ov[mid].until_s <= t_p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < ps->n_ov && ps->ov[lo].from_s <= by;
}

static int start_job(eng_core *c, pool_state *ps, const pol_start *st, eng_diag *d)
{
    int32_t idx = st->job_idx;
    if (idx < 0 || (size_t)idx >= c->n)
        return eng_diag_set(d, ENG_POLICY, "t=%.17g: policy %s started an unknown job index %d",
                            c->now, policy_name(c), idx);
    pol_job *j = &c->pj[idx];
    eng_job_result *r = &c->res[idx];
    if (r->state != ENG_JOB_QUEUED || c->prep->jobs[idx].pool != (int32_t)(ps - c->pools))
        return eng_diag_set(d, ENG_POLICY,
                            "t=%.17g: policy %s started job %lld, which is not waiting in this "
                            "pool (state %d)",
                            c->now, policy_name(c), (long long)j->id, r->state);
    if (c->now < j->submit_s)
        return eng_diag_set(d, ENG_INVARIANT,
                            "t=%.17g: job %lld would start before its "
                            "submission at %.17g",
                            c->now, (long long)j->id, j->submit_s);
    if (st->packet < 0 && j->units > ps->free_units)
        return eng_diag_set(d, ENG_POLICY,
                            "t=%.17g: policy %s started job %lld needing %d units with only %d "
                            "free",
                            c->now, policy_name(c), (long long)j->id, j->units, ps->free_units);
    if (ps->n_islands && st->packet < 0) {
        int rc = check_island_start(c, ps, j, st, d);
        if (rc)
            return rc;
    }
    if (c->promise_s && !c->fail && c->now > c->promise_s[idx] &&
        c->now - c->promise_s[idx] > 1e-9 * fmax(1.0, fabs(c->now)) && !overrun_excuses(c, ps, idx))
        return eng_diag_set(d, ENG_INVARIANT,
                            "t=%.17g: policy %s started job %lld later than it promised (%.17g)",
                            c->now, policy_name(c), (long long)j->id, c->promise_s[idx]);
    if (st->packet >= 0) {
        int rc = check_packet_start(c, ps, j, st, d);
        if (rc)
            return rc;
    }
    int rc = allocate(c, ps, j, st, d);
    if (rc)
        return rc;

    /* Leave the queue. */
    size_t q = queue_lower_bound(ps, idx);
    memmove(ps->queue + q, ps->queue + q + 1, (ps->n_queue - q - 1) * sizeof *ps->queue);
    ps->n_queue--;
    c->queued--;

    /* Work on each host, and the end. */
    const eng_sim_job *s = &c->prep->jobs[idx];
    /* A packet member runs moldably on its packet's hosts; only the first
     * member pays the initialization. Whether a member reaches its requested
     * time is decided on its own, unscaled run (init + run * factor against
     * kill_s, the same sums as outside a packet) and only then scaled:
     * comparing the scaled run with a kill limit rebuilt from kill_s - init_s
     * let rounding mark a member whose run equals its request as killed. */
    double init = s->init_s, scale = 1, kill = s->kill_s, estimate = j->estimate_s;
    bool packed = st->packet >= 0;
    if (packed) {
        scale = (double)j->units / r->units;
        if (st->packet != idx)
            init = 0;
        kill = isfinite(s->kill_s) ? (s->kill_s - s->init_s) * scale + init : INFINITY;
        /* --init-planned no: the estimate is the request alone */
        estimate = c->prep->init_unplanned ? j->estimate_s * scale
                                           : (j->estimate_s - s->init_s) * scale + init;
        if (st->packet == idx) {
            c->packets[idx] = (struct packet_state){.runs_off = r->runs_off,
                                                    .n_runs = r->n_runs,
                                                    .n_hosts = r->n_hosts,
                                                    .members = 1,
                                                    .last_end_s = -1};
        } else {
            c->packets[st->packet].members++;
            c->packets[st->packet].last_end_s = -1;
        }
    }
    r->init_s = init;
    r->packet = st->packet;
    /* Each host runs init + run_s * scale * ref_speed / its speed, capped at
     * the kill limit; the job lasts as long as its slowest host. */
    double longest = 0;
    int32_t slowest = r->n_runs ? c->runs[r->runs_off].host : -1;
    bool killed = false;
    for (int32_t u = 0; u < r->n_runs; u++) {
        const eng_host_run *run = &c->runs[r->runs_off + (size_t)u];
        for (int32_t k = 0; k < run->n; k++) {
            const eng_host *h = &c->plat->hosts[run->host + k];
            double factor = c->plat->ref_speed_flops / h->speed_flops;
            double dur = init + s->run_s * scale * factor;
            if (packed ? s->init_s + s->run_s * factor > s->kill_s : dur > kill) {
                dur = kill;
                killed = true;
            } else if (dur > kill) {
                dur = kill; /* rounding of the scaled sums only: not a kill */
            }
            if (dur > longest) {
                longest = dur;
                slowest = run->host + k;
            }
        }
    }
    /* A host failing before the end cuts the run there (failures on). */
    r->failed = false;
    if (c->fail) {
        double fail_t = INFINITY;
        for (int32_t u = 0; u < r->n_runs; u++) {
            const eng_host_run *run = &c->runs[r->runs_off + (size_t)u];
            for (int32_t k = 0; k < run->n; k++) {
                double t = next_down(c, run->host + k, c->now, c->now + longest);
                if (t < fail_t)
                    fail_t = t;
            }
        }
        if (fail_t < c->now + longest) {
            r->failed = true;
            killed = false;
            longest = fail_t - c->now;
        }
    }
    j->start_s = c->now;
    j->expected_end_s = c->now + estimate;
    if (c->plan_end_s)
        c->plan_end_s[idx] = j->expected_end_s;
    j->n_alloc = r->n_hosts;
    c->live_used += (size_t)r->n_hosts;
    r->start_s = c->now;
    r->start_step = (int64_t)c->n_steps;
    r->end_s = c->now + longest;
    r->state = ENG_JOB_RUNNING;
    r->killed = killed;
    if (killed)
        r->end_s = c->now + kill;
    if (r->failed)
        r->end_s = c->now + longest;

    size_t at = running_lower_bound(c, ps, j);
    if (eng_grow(&ps->running, &ps->cap_running, ps->n_running + 1, sizeof *ps->running) ||
        eng_grow(&c->started, &c->cap_started, c->n_started + 1, sizeof *c->started) ||
        eng_grow(&c->work, &c->cap_work, c->n_started + 1, sizeof *c->work) ||
        eng_heap_push(&c->ends, (eng_heap_ev){.t = r->end_s, .id = idx}))
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    memmove(ps->running + at + 1, ps->running + at, (ps->n_running - at) * sizeof *ps->running);
    ps->running[at] = j;
    ps->n_running++;
    c->running++;
    c->work[c->n_started] = (struct started_work){.host = slowest, .dur_s = longest};
    c->started[c->n_started++] = idx;
    return ENG_OK;
}

/* ---- checks ----------------------------------------------------------- */

static int audit_pool(eng_core *c, pool_state *ps, eng_diag *d)
{
    int64_t free_cores = 0, free_units = 0;
    for (int32_t k = 0; k < ps->n_hosts; k++) {
        const pol_host *h = &ps->hosts[k];
        if (h->free_cores < 0 || h->free_cores > h->cores)
            return eng_diag_set(d, ENG_INVARIANT, "t=%.17g: host %s has %d of %d cores free",
                                c->now, h->name, h->free_cores, h->cores);
        bool bit = (ps->freemap[k >> 6] >> (k & 63)) & 1;
        if (bit != host_has_capacity(ps, c->prep->alloc, k))
            return eng_diag_set(d, ENG_INVARIANT, "t=%.17g: free-host map wrong for %s", c->now,
                                h->name);
        free_cores += h->free_cores;
        free_units += c->prep->alloc == POL_ALLOC_NODE ? (h->free_cores == h->cores)
                                                       : h->free_cores;
    }
    for (int32_t i = 0; i < ps->n_islands; i++) {
        int64_t f = 0;
        for (int32_t k = 0; k < ps->n_hosts; k++) {
            const pol_host *h = &ps->hosts[k];
            if (h->island == i)
                f += c->prep->alloc == POL_ALLOC_NODE ? (h->free_cores == h->cores) : h->free_cores;
        }
        if (f != ps->isl_free[i])
            return eng_diag_set(d, ENG_INVARIANT,
                                "t=%.17g: pool %s counts %d free units in island %s, its hosts "
                                "have %lld",
                                c->now, ps->pool->label, ps->isl_free[i], ps->pool->island_names[i],
                                (long long)f);
    }
    if (free_units != ps->free_units)
        return eng_diag_set(d, ENG_INVARIANT,
                            "t=%.17g: pool %s counts %d free units, its hosts have %lld", c->now,
                            ps->pool->label, ps->free_units, (long long)free_units);
    int64_t used = 0;
    for (size_t r = 0; r < ps->n_running; r++) {
        used += c->res[ps->running[r]->idx].units;
        if (r > 0 && run_less(c, ps->running[r], ps->running[r - 1]))
            return eng_diag_set(d, ENG_INVARIANT, "t=%.17g: running set out of order", c->now);
    }
    if (used + ps->free_units + ps->down_units != ps->total_units)
        return eng_diag_set(d, ENG_INVARIANT,
                            "t=%.17g: pool %s: %lld units used + %d free + %d down != %d total",
                            c->now, ps->pool->label, (long long)used, ps->free_units,
                            ps->down_units, ps->total_units);
    (void)free_cores;
    return ENG_OK;
}

/* With islands: every job this call started whose units (a packet
 * member: its packet's) fit in one island holds hosts of one island,
 * wherever they came from (named by the policy, a packet's, or placed by
 * the engine). O(hosts of this call's starts). */
static int audit_island_starts(eng_core *c, pool_state *ps, eng_diag *d)
{
    int32_t largest = largest_island(ps);
    for (size_t i = 0; i < ps->out.n_starts; i++) {
        const pol_job *j = &c->pj[ps->out.starts[i].job_idx];
        if (c->res[j->idx].units > largest || j->n_alloc < 2)
            continue;
        const pol_host *first = &ps->hosts[c->live_pos[j->alloc_off]];
        for (int32_t k = 1; k < j->n_alloc; k++) {
            const pol_host *h = &ps->hosts[c->live_pos[j->alloc_off + (size_t)k]];
            if (h->island != first->island)
                return eng_diag_set(d, ENG_INVARIANT,
                                    "t=%.17g: policy %s started job %lld, whose %d units fit in "
                                    "one island, across islands: on hosts %s (island %s) and %s "
                                    "(island %s)",
                                    c->now, policy_name(c), (long long)j->id, c->res[j->idx].units,
                                    first->name, ps->pool->island_names[first->island], h->name,
                                    ps->pool->island_names[h->island]);
        }
    }
    return ENG_OK;
}

static int check_decisions(eng_core *c, pool_state *ps, const int32_t *queue_before,
                           size_t n_before, eng_diag *d)
{
    if (ps->n_islands) {
        int rc = audit_island_starts(c, ps, d);
        if (rc)
            return rc;
    }
    const pol_out *out = &ps->out;
    if (c->policy->flags & POL_FLAG_ORDERED) {
        for (size_t i = 0; i < out->n_starts; i++)
            if (i >= n_before || out->starts[i].job_idx != queue_before[i])
                return eng_diag_set(d, ENG_INVARIANT,
                                    "t=%.17g: policy %s is FCFS-ordered but started job %lld "
                                    "ahead of earlier waiting jobs",
                                    c->now, policy_name(c),
                                    (long long)c->pj[out->starts[i].job_idx].id);
    }
    if ((c->policy->flags & POL_FLAG_HEAD_GREEDY) && ps->n_queue > 0 &&
        ps->queue[0]->units <= ps->free_units &&
        (!ps->n_islands || pol_island_pick(ps->n_islands, ps->isl_units, ps->isl_free,
                                           ps->queue[0]->units) != POL_ISLAND_NONE))
        return eng_diag_set(d, ENG_INVARIANT,
                            "t=%.17g: policy %s left job %lld waiting at the head of the queue "
                            "although its %d units were free",
                            c->now, policy_name(c), (long long)ps->queue[0]->id,
                            ps->queue[0]->units);
    return audit_pool(c, ps, d);
}

/* ---- the step --------------------------------------------------------- */

/* A job cut by a host failure goes back to its queue, to start again from
 * scratch; its policy sees it submitted again. */
static int requeue_job(eng_core *c, pool_state *ps, int32_t idx, eng_diag *d)
{
    pol_job *j = &c->pj[idx];
    eng_job_result *r = &c->res[idx];
    r->requeues++;
    r->state = ENG_JOB_QUEUED;
    r->start_s = r->end_s = -1;
    r->start_step = r->end_step = -1;
    r->failed = r->killed = false;
    r->packet = -1;
    j->start_s = j->expected_end_s = -1;
    if (eng_grow(&ps->queue, &ps->cap_queue, ps->n_queue + 1, sizeof *ps->queue))
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    size_t at = queue_lower_bound(ps, idx);
    memmove(ps->queue + at + 1, ps->queue + at, (ps->n_queue - at) * sizeof *ps->queue);
    ps->queue[at] = j;
    ps->n_queue++;
    c->queued++;
    if (c->policy->on_submit) {
        pol_view v = make_view(c, ps);
        double t0 = mono_s();
        int rc = c->policy->on_submit(ps->pstate, &v, j);
        c->policy_s += mono_s() - t0;
        if (rc)
            return eng_diag_set(d, rc, "t=%.17g: policy %s failed on the requeue of job %lld: %s",
                                c->now, policy_name(c), (long long)j->id, eng_strerror(rc));
    }
    return ENG_OK;
}

static int call_policy(eng_core *c, pool_state *ps, eng_diag *d)
{
    pol_view v = make_view(c, ps);
    pol_out_reset(&ps->out);
    int32_t *before = NULL;
    size_t n_before = 0;
    if (c->opts.check && (c->policy->flags & POL_FLAG_ORDERED)) {
        n_before = ps->n_queue;
        before = malloc((n_before ? n_before : 1) * sizeof *before);
        if (!before)
            return eng_diag_set(d, ENG_NOMEM, "out of memory");
        for (size_t i = 0; i < n_before; i++)
            before[i] = ps->queue[i]->idx;
    }
    double t0 = mono_s();
    int rc = c->policy->schedule(ps->pstate, &v, &ps->out);
    c->policy_s += mono_s() - t0;
    if (rc == ENG_OK && ps->out.oom)
        rc = ENG_NOMEM;
    if (rc) {
        free(before);
        return eng_diag_set(d, rc, "t=%.17g: policy %s failed: %s", c->now, policy_name(c),
                            eng_strerror(rc));
    }
    /* Promises first: a promise made in this call for a job started in the
     * same call is trivially kept. */
    if (c->promise_s)
        for (size_t i = 0; i < ps->out.n_promises; i++) {
            const pol_promise *p = &ps->out.promises[i];
            if (p->job_idx >= 0 && (size_t)p->job_idx < c->n &&
                c->promise_s[p->job_idx] == INFINITY) {
                c->promise_s[p->job_idx] = p->start_by_s;
                if (c->promised_at_s)
                    c->promised_at_s[p->job_idx] = c->now;
            }
        }
    for (size_t i = 0; i < ps->out.n_starts && rc == ENG_OK; i++)
        rc = start_job(c, ps, &ps->out.starts[i], d);
    if (rc == ENG_OK && c->opts.check)
        rc = check_decisions(c, ps, before, n_before, d);
    free(before);
    ps->wakeup_s = ps->out.wakeup_s > c->now ? ps->out.wakeup_s : INFINITY;
    return rc;
}

bool eng_core_begin(eng_core *c, double *t, const int32_t **ending, size_t *n_ending)
{
    double next = INFINITY;
    if (c->next_submit < c->n)
        next = c->prep->jobs[c->next_submit].submit_s;
    if (c->ends.n && c->ends.v[0].t < next)
        next = c->ends.v[0].t;
    for (size_t i = 0; i < c->n_pools; i++)
        if (c->pools[i].wakeup_s < next)
            next = c->pools[i].wakeup_s;
    if (c->changes.n && c->n_left > 0 && c->changes.v[0].t < next)
        next = c->changes.v[0].t;
    c->n_ending = 0;
    if (next == INFINITY) {
        *ending = NULL;
        *n_ending = 0;
        return false;
    }
    if (next < c->now)
        next = c->now; /* cannot happen with sorted submits; keeps time monotone */
    c->now = next;
    while (c->ends.n && c->ends.v[0].t <= next) {
        if (eng_grow(&c->ending, &c->cap_ending, c->n_ending + 1, sizeof *c->ending))
            break; /* the rest is taken by the next begin */
        c->ending[c->n_ending++] = eng_heap_pop(&c->ends).id;
    }
    c->begun = true;
    *t = next;
    *ending = c->ending;
    *n_ending = c->n_ending;
    return true;
}

static int record_sample(eng_core *c)
{
    eng_ts_row row = {
        .t_s = c->now,
        .queued = c->queued,
        .running = c->running,
        .busy_nodes = c->busy_nodes,
        .down_hosts = c->down_hosts,
        .busy_cores = c->busy_cores,
    };
    if (c->n_ts && c->ts[c->n_ts - 1].t_s == c->now) {
        c->ts[c->n_ts - 1] = row;
        return ENG_OK;
    }
    if (eng_grow(&c->ts, &c->cap_ts, c->n_ts + 1, sizeof *c->ts))
        return ENG_NOMEM;
    c->ts[c->n_ts++] = row;
    return ENG_OK;
}

int eng_core_step(eng_core *c, eng_diag *d)
{
    if (!c->begun)
        return eng_diag_set(d, ENG_INVAL, "eng_core_step without eng_core_begin");
    c->begun = false;
    c->n_started = 0;
    c->n_steps++;
    int rc;

    /* 1. Ends. */
    for (size_t e = 0; e < c->n_ending; e++) {
        int32_t idx = c->ending[e];
        pool_state *ps = &c->pools[c->prep->jobs[idx].pool];
        pol_job *j = &c->pj[idx];
        eng_job_result *r = &c->res[idx];
        release(c, ps, idx);
        r->end_step = (int64_t)c->n_steps;
        c->live_used -= (size_t)r->n_hosts;
        size_t at = running_lower_bound(c, ps, j);
        if (at >= ps->n_running || ps->running[at] != j)
            return eng_diag_set(d, ENG_INVARIANT, "internal: job %lld not in its running set",
                                (long long)j->id);
        memmove(ps->running + at, ps->running + at + 1,
                (ps->n_running - at - 1) * sizeof *ps->running);
        ps->n_running--;
        c->running--;
        if (c->promised_at_s && (rc = note_overrun(c, ps, idx)))
            return eng_diag_set(d, rc, "out of memory");
        r->state = r->killed ? ENG_JOB_KILLED : r->failed ? ENG_JOB_FAILED : ENG_JOB_DONE;
        if (r->failed)
            c->wasted_unit_s += (double)r->units * (c->now - r->start_s);
        if (r->failed)
            for (int32_t u = 0; u < r->n_runs; u++) {
                const eng_host_run *run = &c->runs[r->runs_off + (size_t)u];
                for (int32_t k = 0; k < run->n; k++) {
                    const eng_host *h = &c->plat->hosts[run->host + k];
                    c->wasted_node_s += (c->now - r->start_s) * run->cores / h->cores;
                }
            }
        bool requeue = r->failed && c->opts.failures.requeue &&
                       r->requeues < c->opts.failures.max_requeues;
        if (!requeue)
            c->n_left--;
        if (r->packet >= 0)
            c->packets[r->packet].last_end_s = c->now;
        ps->dirty = true;
        if (c->policy->on_finish) {
            pol_view v = make_view(c, ps);
            double t0 = mono_s();
            rc = c->policy->on_finish(ps->pstate, &v, j);
            c->policy_s += mono_s() - t0;
            if (rc)
                return eng_diag_set(d, rc, "t=%.17g: policy %s failed on the end of job %lld: %s",
                                    c->now, policy_name(c), (long long)j->id, eng_strerror(rc));
        }
        if (requeue) {
            rc = requeue_job(c, ps, idx, d);
            if (rc)
                return rc;
        }
    }
    c->n_ending = 0;

    /* 1b. Hosts failing or coming back now. */
    if (c->fail && (rc = apply_changes(c)))
        return eng_diag_set(d, rc == ENG_INVARIANT ? rc : ENG_NOMEM, "t=%.17g: %s", c->now,
                            rc == ENG_INVARIANT ? "a host failed under a running job"
                                                : "out of memory");

    /* 2. Submissions. */
    while (c->next_submit < c->n && c->prep->jobs[c->next_submit].submit_s <= c->now) {
        int32_t idx = (int32_t)c->next_submit++;
        pool_state *ps = &c->pools[c->prep->jobs[idx].pool];
        if (eng_grow(&ps->queue, &ps->cap_queue, ps->n_queue + 1, sizeof *ps->queue))
            return eng_diag_set(d, ENG_NOMEM, "out of memory");
        ps->queue[ps->n_queue++] = &c->pj[idx];
        c->res[idx].state = ENG_JOB_QUEUED;
        c->queued++;
        ps->dirty = true;
        if (c->policy->on_submit) {
            pol_view v = make_view(c, ps);
            double t0 = mono_s();
            rc = c->policy->on_submit(ps->pstate, &v, &c->pj[idx]);
            c->policy_s += mono_s() - t0;
            if (rc)
                return eng_diag_set(d, rc,
                                    "t=%.17g: policy %s failed on the submission of "
                                    "job %lld: %s",
                                    c->now, policy_name(c), (long long)c->pj[idx].id,
                                    eng_strerror(rc));
        }
    }

    /* 3. One policy call per pool with something new. */
    for (size_t i = 0; i < c->n_pools; i++) {
        pool_state *ps = &c->pools[i];
        if (!ps->dirty && ps->wakeup_s > c->now)
            continue;
        ps->dirty = false;
        if (ps->capacity_changed && c->policy->on_capacity) {
            pol_view v = make_view(c, ps);
            double t0 = mono_s();
            rc = c->policy->on_capacity(ps->pstate, &v);
            c->policy_s += mono_s() - t0;
            if (rc)
                return eng_diag_set(d, rc, "t=%.17g: policy %s failed on a host failure: %s",
                                    c->now, policy_name(c), eng_strerror(rc));
        }
        ps->capacity_changed = false;
        rc = call_policy(c, ps, d);
        if (rc)
            return rc;
    }
    if (record_sample(c))
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    return ENG_OK;
}

int eng_core_run(eng_core *c, eng_diag *d)
{
    double t;
    const int32_t *ending;
    size_t n;
    while (eng_core_begin(c, &t, &ending, &n)) {
        int rc = eng_core_step(c, d);
        if (rc)
            return rc;
    }
    return ENG_OK;
}

double eng_core_policy_wall_s(const eng_core *c)
{
    return c->policy_s;
}

void eng_core_policy_report(const eng_core *c, char *buf, size_t len)
{
    if (!len)
        return;
    if (c->finished) {
        snprintf(buf, len, "%s", c->report);
        return;
    }
    buf[0] = '\0';
    if (!c->policy->report)
        return;
    size_t used = 0;
    for (size_t i = 0; i < c->n_pools; i++) {
        const pool_state *ps = &c->pools[i];
        if (!ps->inited)
            continue;
        char one[512];
        one[0] = '\0';
        c->policy->report(ps->pstate, one, sizeof one);
        if (!one[0])
            continue; /* nothing to tell for this pool */
        int w = c->n_pools > 1 ? snprintf(buf + used, len - used, "%s%s: %s", used ? "; " : "",
                                          ps->pool->label, one)
                               : snprintf(buf + used, len - used, "%s", one);
        if (w < 0 || (size_t)w >= len - used) {
            buf[len - 1] = '\0';
            return;
        }
        used += (size_t)w;
    }
}

void eng_core_finish(eng_core *c)
{
    if (c->finished)
        return;
    eng_core_policy_report(c, c->report, sizeof c->report);
    free_run_state(c);
    c->finished = true;
}

double eng_core_wasted_node_s(const eng_core *c)
{
    return c->wasted_node_s;
}

double eng_core_wasted_unit_s(const eng_core *c)
{
    return c->wasted_unit_s;
}

size_t eng_core_started(const eng_core *c, const int32_t **jobs)
{
    *jobs = c->started;
    return c->n_started;
}

void eng_core_started_work(const eng_core *c, size_t i, int32_t *host, double *duration_s)
{
    *host = c->work[i].host;
    *duration_s = c->work[i].dur_s;
}

const eng_job_result *eng_core_results(const eng_core *c)
{
    return c->res;
}

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

const eng_ts_row *eng_core_timeseries(const eng_core *c, size_t *n)
{
    *n = c->n_ts;
    return c->ts;
}

size_t eng_core_jobs_left(const eng_core *c)
{
    return c->n_left;
}

size_t eng_core_steps(const eng_core *c)
{
    return c->n_steps;
}
