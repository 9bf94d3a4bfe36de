/* eng_fail.c — host failures (eng_core.h, eng_failures): the outages of
 * each host, drawn from its occupation probability epoch by epoch
 * (engine/eng_avail.h) or replayed from a trace; hosts going down and
 * coming back up; the run a failure cuts; the node-seconds it wastes; a
 * failed job put back in its queue.
 *
 * Invariant: a host goes down only with nothing running on it. Failures
 * are drawn independently of the schedule (one generator per host, seeded
 * from the seed and the host's index), so a job's run is cut at its
 * start: it ends at the instant its first host goes down, and the host's
 * change, applied after the ends of that instant, finds it free
 * (ENG_INVARIANT otherwise). Each failing host has at most one pending
 * change in c->changes, ordered by (time, host).
 *
 * Calls no other file of the core (eng_core_impl.h) but eng_energy.c,
 * which records each host going down and coming up.
 */
#include "eng_core_impl.h"

#include "eng_avail.h"
#include "eng_util.h"

#include <gsl/gsl_rng.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A host's failures: down spans, drawn ahead window by window (rng set) or
 * all known from a trace (drawn_until infinite). */
struct host_fail {
    bool active; /* the host may fail */
    gsl_rng *rng;
    eng_avail_res model;
    eng_avail_span *spans; /* not yet passed, sorted, merged */
    size_t n, cap, next;
    double drawn_until;
    bool down;
};

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

int eng_fail_init(eng_core *c, eng_diag *d)
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

void eng_fail_destroy(eng_core *c)
{
    if (c->fail)
        for (size_t h = 0; h < c->plat->n_hosts; h++) {
            gsl_rng_free(c->fail[h].rng);
            eng_avail_res_fini(&c->fail[h].model);
            free(c->fail[h].spans);
        }
    free(c->fail);
    eng_heap_fini(&c->changes);
}

double eng_fail_first_down(eng_core *c, const eng_job_result *r, double until)
{
    double fail_t = INFINITY;
    for (int32_t u = 0; u < r->n_runs; u++) {
        const eng_host_run *run = &c->runs[r->runs_off + (size_t)u];
        for (int32_t k = 0; k < run->n; k++) {
            double t = next_down(c, run->host + k, c->now, until);
            if (t < fail_t)
                fail_t = t;
        }
    }
    return fail_t;
}

/* Applies every host change due at now: a host going down takes no more
 * jobs (its jobs ended at this instant already: their runs were cut at
 * the failure when they started); one coming up is free again. */
int eng_fail_apply(eng_core *c)
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
            eng_host_set(c, h, ENG_HOST_DOWN);
            ph->up = false;
            island_add(c, ps, pos, ph->cores, -1);
            ph->free_cores = 0;
            bit_set(ps->freemap, pos, false);
            ps->free_units -= units;
            ps->down_units += units;
        } else {
            f->down = false;
            c->down_hosts--;
            eng_host_set(c, h, ENG_HOST_IDLE);
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

/* ---- the jobs a failure cuts ------------------------------------------ */

bool eng_fail_ended(eng_core *c, const eng_job_result *r)
{
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
    return r->failed && c->opts.failures.requeue && r->requeues < c->opts.failures.max_requeues;
}

int eng_fail_requeue(eng_core *c, pool_state *ps, int32_t idx, eng_diag *d)
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
    size_t at = queue_lower_bound(c, ps, idx);
    memmove(ps->queue + at + 1, ps->queue + at, (ps->n_queue - at) * sizeof *ps->queue);
    ps->queue[at] = j;
    ps->n_queue++;
    c->queued++;
    return ENG_OK;
}

double eng_core_wasted_node_s(const eng_core *c)
{
    return c->wasted_node_s;
}

double eng_core_wasted_unit_s(const eng_core *c)
{
    return c->wasted_unit_s;
}
