/* eng_core.c — the event core of the scheduling core (eng_core.h for the
 * contract, eng_core_impl.h for the state and the files): creation and
 * destruction, the step (ends, host changes, submissions, one policy call
 * per pool with something new), each decision applied (a start's run time
 * on each host, its end, the running sets) and the results read back.
 * Host choice is eng_alloc.c's, failures eng_fail.c's, the checks
 * eng_check.c's; this file calls them and they never call it.
 *
 * Invariant: time only moves forward, and every event of an instant (ends
 * in (t, idx) order, host changes, submissions in (time, idx) order) is applied
 * before a policy is asked; the running sets stay ordered by (planned end,
 * idx), the queues by (submit, idx) (idx alone without user feedback), and
 * the counters (queued, running, jobs left)
 * match them after each step.
 */
#include "eng_core_impl.h"

#include "eng_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- small helpers ---------------------------------------------------- */

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

/* The waiting jobs the limit window of now admits, in queue order, into
 * ps->shown. The checker holds no promises under limit windows: a job a
 * window shows again may come before a job promised a start. */
static size_t shown_queue(pool_state *ps, const eng_resv *w)
{
    size_t n = 0;
    for (size_t i = 0; i < ps->n_queue; i++)
        if (eng_limit_admits(w, ps->queue[i]))
            ps->shown[n++] = ps->queue[i];
    return n;
}

/* The view of pool ps now, for a hook or a schedule() call. */
static pol_view make_view(eng_core *c, pool_state *ps)
{
    show_overdue(c, ps);
    const eng_resv *w = c->lim ? eng_limit_now(c) : NULL;
    size_t n_queue = w ? shown_queue(ps, w) : ps->n_queue;
    if (c->psave)
        eng_psave_view(c, ps);
    while (ps->resv_first < ps->n_resv && ps->resv[ps->resv_first].end_s <= c->now)
        ps->resv_first++;
    return (pol_view){
        .now_s = c->now,
        .alloc = c->prep->alloc,
        .total_units = ps->total_units - ps->capped_units,
        .free_units = ps->free_units,
        .queue = w ? ps->shown : ps->queue,
        .n_queue = n_queue,
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
        .boot_delay_max_s = eng_psave_delay_max(c),
        .feedback = c->prep->pred != NULL,
        .resv = ps->resv ? ps->resv + ps->resv_first : NULL,
        .n_resv = ps->n_resv - ps->resv_first,
        .has_energy = c->energy != NULL,
        .energy_j = eng_energy_total_j(c),
    };
}

/* ---- policy timing ---------------------------------------------------- */

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- user feedback: submissions as events ----------------------------- */

/* The dependants of every job as one array by predecessor (a counting
 * sort, so each job's come in idx order), and the submissions known at the
 * start: the jobs without a predecessor, at their logged submit. O(n log
 * n). ENG_OK or ENG_NOMEM. */
static int feedback_init(eng_core *c)
{
    const int32_t *pred = c->prep->pred;
    c->dep_off = calloc(c->n + 1, sizeof *c->dep_off);
    c->dep = malloc((c->n ? c->n : 1) * sizeof *c->dep);
    if (!c->dep_off || !c->dep)
        return ENG_NOMEM;
    for (size_t i = 0; i < c->n; i++)
        if (pred[i] >= 0)
            c->dep_off[pred[i] + 1]++;
    for (size_t i = 0; i < c->n; i++)
        c->dep_off[i + 1] += c->dep_off[i];
    int32_t *fill = malloc((c->n ? c->n : 1) * sizeof *fill);
    if (!fill)
        return ENG_NOMEM;
    memcpy(fill, c->dep_off, c->n * sizeof *fill);
    int rc = ENG_OK;
    for (size_t i = 0; i < c->n && rc == ENG_OK; i++) {
        if (pred[i] >= 0)
            c->dep[fill[pred[i]]++] = (int32_t)i;
        else
            rc = eng_heap_push(&c->subs,
                               (eng_heap_ev){.t = c->prep->jobs[i].submit_s, .id = (int32_t)i});
    }
    free(fill);
    return rc;
}

/* Job idx has ended for good: each of its dependants is due its think time
 * from now. ENG_OK or ENG_NOMEM. */
static int release_dependants(eng_core *c, int32_t idx)
{
    if (!c->dep_off)
        return ENG_OK;
    for (int32_t k = c->dep_off[idx]; k < c->dep_off[idx + 1]; k++) {
        int32_t j = c->dep[k];
        if (eng_heap_push(&c->subs, (eng_heap_ev){.t = c->now + c->prep->think_s[j], .id = j}))
            return ENG_NOMEM;
    }
    return ENG_OK;
}

/* When the next submission is due, INFINITY when none is known. */
static double next_submit_s(const eng_core *c)
{
    if (c->prep->pred)
        return c->subs.n ? c->subs.v[0].t : INFINITY;
    return c->next_submit < c->n ? c->prep->jobs[c->next_submit].submit_s : INFINITY;
}

/* The next job due by now, removed from the events, or -1. */
static int32_t take_submission(eng_core *c)
{
    if (next_submit_s(c) > c->now)
        return -1;
    if (c->prep->pred)
        return eng_heap_pop(&c->subs).id;
    return (int32_t)c->next_submit++;
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
        free(ps->resv);
        free(ps->resv_pos);
        free(ps->shown);
        ps->resv = NULL;
        ps->resv_pos = NULL;
        ps->shown = NULL;
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
    free(c->run_s);
    free(c->plan_end_s);
    free(c->promised_at_s);
    eng_heap_fini(&c->ends);
    eng_heap_fini(&c->subs);
    free(c->dep_off);
    free(c->dep);
    c->dep_off = c->dep = NULL;
    free(c->ending);
    free(c->started);
    free(c->stopped);
    free(c->work);
    free(c->live_pos);
    free(c->live_cores);
    c->pj = NULL;
    c->promise_s = c->run_s = c->plan_end_s = c->promised_at_s = NULL;
    c->ending = c->started = c->stopped = NULL;
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
    eng_fail_destroy(c);
    eng_holds_fini(&c->holds);
    eng_psave_destroy(c);
    eng_energy_destroy(c);
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
            .usable_at_s = -INFINITY,
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
    if (c->opts.power_cap_w > 0) {
        int64_t n = eng_energy_cap_units(c, ps, c->opts.power_cap_w);
        if (n < 0)
            return eng_diag_set(d, ENG_USAGE,
                                "--power-cap %g W: below the platform's power with every host "
                                "idle",
                                c->opts.power_cap_w);
        if (n < units)
            ps->capped_units = (int32_t)(units - n);
        ps->free_units -= ps->capped_units;
    }
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
        .total_units = ps->total_units - ps->capped_units,
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
        .run_s = c->run_s,
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

/* ---- reservations ----------------------------------------------------- */

static int by_end(const void *a, const void *b)
{
    const pol_resv *x = a, *y = b;
    if (x->end_s != y->end_s)
        return x->end_s < y->end_s ? -1 : 1;
    return (x->start_s > y->start_s) - (x->start_s < y->start_s);
}

/* Pool ps's windows (pol_resv, by end) from the reservations' hosts. */
static int resv_pool(eng_core *c, pool_state *ps)
{
    const eng_resvs *r = c->opts.resv;
    size_t n_pos = 0;
    for (int32_t k = 0; k < ps->n_hosts; k++) {
        int32_t h = ps->hosts[k].index;
        n_pos += c->holds.off[h + 1] - c->holds.off[h];
    }
    ps->resv = malloc((r->n ? r->n : 1) * sizeof *ps->resv);
    ps->resv_pos = malloc((n_pos ? n_pos : 1) * sizeof *ps->resv_pos);
    if (!ps->resv || !ps->resv_pos)
        return ENG_NOMEM;
    size_t used = 0;
    for (size_t i = 0; i < r->n; i++) { /* file order, then sorted by end */
        pol_resv *v = &ps->resv[ps->n_resv];
        *v = (pol_resv){.start_s = r->v[i].start_s, .end_s = r->v[i].end_s, .pos = NULL};
        int32_t *pos = ps->resv_pos + used;
        for (int32_t k = 0; k < ps->n_hosts; k++) {
            int32_t h = ps->hosts[k].index;
            for (size_t w = c->holds.off[h]; w < c->holds.off[h + 1]; w++)
                if (c->holds.w[w].resv == (int32_t)i) {
                    pos[v->n_pos++] = k;
                    v->units += c->prep->alloc == POL_ALLOC_NODE ? 1 : ps->hosts[k].cores;
                }
        }
        if (v->n_pos) {
            v->pos = pos;
            used += (size_t)v->n_pos;
            ps->n_resv++;
        }
    }
    qsort(ps->resv, ps->n_resv, sizeof *ps->resv, by_end);
    return ENG_OK;
}

/* --reservations: what they do not combine with, each host's windows, each
 * pool's view of them. */
static int resv_init(eng_core *c, eng_diag *d)
{
    const eng_core_opts *o = &c->opts;
    bool islands = false;
    for (size_t i = 0; i < c->n_pools; i++)
        islands = islands || c->pools[i].n_islands > 1;
    const char *why = !(o->policy->flags & POL_FLAG_RESERVATIONS)
                          ? "a policy that plans around them (POL_FLAG_RESERVATIONS: fcfs, easy, "
                            "conservative, slurm)"
                      : o->failures.enabled     ? "no host failures"
                      : o->power_save.enabled   ? "no idle shutdown (--suspend-time)"
                      : o->power_cap_w > 0      ? "no power cap"
                      : c->prep->init_unplanned ? "--init-planned yes"
                      : islands                 ? "--islands ignore"
                                                : NULL;
    if (why)
        return eng_diag_set(d, ENG_USAGE, "--reservations needs %s", why);
    int rc = eng_resvs_resolve(o->resv, c->plat, &c->holds, d);
    if (rc)
        return rc;
    for (size_t i = 0; i < c->n_pools; i++)
        if (resv_pool(c, &c->pools[i]))
            return eng_diag_set(d, ENG_NOMEM, "out of memory");
    return ENG_OK;
}

/* Limit windows (--reservations MaxTime=): a policy that takes its queue
 * as shown, and room for each pool's queue as shown. */
static int lim_init(eng_core *c, eng_diag *d)
{
    if (!(c->opts.policy->flags & POL_FLAG_TIME_LIMITS))
        return eng_diag_set(d, ENG_USAGE,
                            "--reservations with MaxTime= limit windows needs a policy that "
                            "schedules from the queue as shown at each call (POL_FLAG_TIME_LIMITS: "
                            "fcfs, easy, slurm); %s plans its waiting jobs ahead",
                            policy_name(c));
    size_t *per_pool = calloc(c->n_pools, sizeof *per_pool);
    if (!per_pool)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    for (size_t i = 0; i < c->n; i++)
        per_pool[c->prep->jobs[i].pool]++;
    int rc = ENG_OK;
    for (size_t p = 0; p < c->n_pools && rc == ENG_OK; p++)
        if (!(c->pools[p].shown = malloc((per_pool[p] ? per_pool[p] : 1) * sizeof(pol_job *))))
            rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
    free(per_pool);
    c->lim = c->opts.resv->lim;
    c->n_lim = c->opts.resv->n_lim;
    return rc;
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
    c->run_s = malloc(n1 * sizeof *c->run_s);
    c->pool_pos = calloc(platform->n_hosts, sizeof *c->pool_pos);
    c->pools = calloc(platform->n_pools, sizeof *c->pools);
    if (opts->check)
        c->promise_s = malloc(n1 * sizeof *c->promise_s);
    if (prep->init_unplanned)
        c->plan_end_s = malloc(n1 * sizeof *c->plan_end_s);
    if (prep->init_unplanned && opts->check)
        c->promised_at_s = malloc(n1 * sizeof *c->promised_at_s);
    if (!c->pj || !c->res || !c->run_s || !c->pool_pos || !c->pools ||
        (opts->check && !c->promise_s) || (prep->init_unplanned && !c->plan_end_s) ||
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
        c->res[i] = (eng_job_result){.submit_s = -1,
                                     .start_s = -1,
                                     .end_s = -1,
                                     .state = ENG_JOB_PENDING,
                                     .packet = -1,
                                     .start_step = -1,
                                     .end_step = -1};
        c->run_s[i] = s->run_s;
        if (c->promise_s)
            c->promise_s[i] = INFINITY;
        if (i > 0 && s->submit_s < prep->jobs[i - 1].submit_s) {
            eng_core_destroy(c);
            return eng_diag_set(d, ENG_INVAL, "jobs are not sorted by submit time");
        }
    }
    if (eng_energy_init(c)) {
        eng_core_destroy(c);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    if (opts->power_cap_w > 0) {
        /* not yet combined: the cap's units (eng_energy_cap_units) count
         * one pool's hosts as idle or busy, not down, off or booting */
        const char *why = !platform->has_power ? "power values in the platform"
                          : platform->n_pools != 1
                              ? "a platform of one pool (two or more pools do not combine with "
                                "it yet)"
                          : opts->failures.enabled
                              ? "no host failures (--failures, --failure-trace do not combine "
                                "with it yet)"
                          : opts->power_save.enabled
                              ? "no idle shutdown (--suspend-time does not combine with it yet)"
                          : !(opts->policy->flags & POL_FLAG_POWER_CAP)
                              ? "a policy that plans within it (POL_FLAG_POWER_CAP: fcfs, easy, "
                                "conservative, slurm, knapsack, sa)"
                          : platform->pools[0].n_islands > 1 && !opts->ignore_islands
                              ? "--islands ignore"
                              : NULL;
        if (why) {
            eng_core_destroy(c);
            return eng_diag_set(d, ENG_USAGE, "--power-cap needs %s", why);
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
        rc = eng_fail_init(c, d);
        c->now = -INFINITY;
        if (rc) {
            eng_core_destroy(c);
            return rc;
        }
    }
    for (size_t i = 0; opts->power_cap_w > 0 && i < c->n; i++) {
        const pool_state *ps = &c->pools[c->prep->jobs[i].pool];
        if (c->pj[i].units > ps->total_units - ps->capped_units) {
            rc = eng_diag_set(d, ENG_USAGE,
                              "--power-cap %g W: job %lld needs %d units, at most %d run within "
                              "the cap",
                              opts->power_cap_w, (long long)c->pj[i].id, c->pj[i].units,
                              ps->total_units - ps->capped_units);
            eng_core_destroy(c);
            return rc;
        }
    }
    if (opts->resv && opts->resv->n && (rc = resv_init(c, d))) {
        eng_core_destroy(c);
        return rc;
    }
    if (opts->resv && opts->resv->n_lim && (rc = lim_init(c, d))) {
        eng_core_destroy(c);
        return rc;
    }
    if (opts->power_save.enabled && (rc = eng_psave_init(c, d))) {
        eng_core_destroy(c);
        return rc;
    }
    if (prep->pred && feedback_init(c)) {
        eng_core_destroy(c);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    *out = c;
    return ENG_OK;
}

/* ---- starting a job --------------------------------------------------- */

static int start_job(eng_core *c, pool_state *ps, const pol_start *st, eng_diag *d)
{
    int32_t idx = st->job_idx;
    int rc = eng_check_start(c, ps, st, d);
    if (rc)
        return rc;
    pol_job *j = &c->pj[idx];
    eng_job_result *r = &c->res[idx];
    rc = eng_alloc_job(c, ps, j, st, d);
    if (rc)
        return rc;

    /* Leave the queue. */
    size_t q = queue_lower_bound(c, ps, idx);
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
        double fail_t = eng_fail_first_down(c, r, c->now + longest);
        if (fail_t < c->now + longest) {
            r->failed = true;
            killed = false;
            longest = fail_t - c->now;
        }
    }
    /* Idle shutdown: it starts when the last of its hosts is up. */
    double begin = c->now, rate_wait = 0;
    if (c->psave) {
        if (eng_psave_claim(c, idx, &begin, &rate_wait))
            return eng_diag_set(d, ENG_NOMEM, "out of memory");
        if (c->opts.check && (rc = eng_check_boot_start(c, j, begin, rate_wait, d)))
            return rc;
    }
    /* the view's start is when it is given hosts; under idle shutdown its
     * planned end holds whatever the boots take: it begins by now +
     * boot_delay_max_s (eng_policy.h) */
    j->start_s = c->now;
    j->expected_end_s = c->psave ? c->now + (eng_psave_delay_max(c) + estimate) : c->now + estimate;
    if (c->plan_end_s)
        c->plan_end_s[idx] = j->expected_end_s;
    j->n_alloc = r->n_hosts;
    c->live_used += (size_t)r->n_hosts;
    r->start_s = begin;
    r->start_step = (int64_t)c->n_steps;
    r->end_s = begin + longest;
    r->state = ENG_JOB_RUNNING;
    r->killed = killed;
    if (killed)
        r->end_s = begin + kill;
    if (r->failed)
        r->end_s = begin + longest;
    /* Idle shutdown: begin <= now + boot_delay_max_s, so a run within its
     * estimate ends by expected_end_s, but begin's sums (the shutdown's
     * end, then the boot) round otherwise than now + (boot_delay_max_s +
     * estimate): an end an ulp past the view's bound let conservative
     * start a job reserved there on hosts still held. */
    if (c->psave && r->end_s > j->expected_end_s && r->end_s - begin <= estimate)
        r->end_s = j->expected_end_s;
    /* the SimGrid driver runs it from now: its executions last the wait */
    longest = r->end_s - c->now;

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

/* ---- the step --------------------------------------------------------- */

/* A job cut by a host failure goes back to its queue, to start again from
 * scratch; its policy sees it submitted again. */
static int requeue_job(eng_core *c, pool_state *ps, int32_t idx, eng_diag *d)
{
    int rc = eng_fail_requeue(c, ps, idx, d);
    if (rc)
        return rc;
    pol_job *j = &c->pj[idx];
    if (c->policy->on_submit) {
        pol_view v = make_view(c, ps);
        double t0 = mono_s();
        rc = c->policy->on_submit(ps->pstate, &v, j);
        c->policy_s += mono_s() - t0;
        if (rc)
            return eng_diag_set(d, rc, "t=%.17g: policy %s failed on the requeue of job %lld: %s",
                                c->now, policy_name(c), (long long)j->id, eng_strerror(rc));
    }
    return ENG_OK;
}

/* pol_out_reject: a job waiting in this pool leaves the queue unstarted
 * and ends now, REJECTED. */
static int reject_job(eng_core *c, pool_state *ps, int32_t idx, eng_diag *d)
{
    eng_job_result *r = idx >= 0 && (size_t)idx < c->n ? &c->res[idx] : NULL;
    size_t at = r ? queue_lower_bound(c, ps, idx) : 0;
    if (!r || r->state != ENG_JOB_QUEUED || at >= ps->n_queue || ps->queue[at]->idx != idx)
        return eng_diag_set(d, ENG_POLICY,
                            "t=%.17g: policy %s rejected job %lld, which is not waiting in its "
                            "pool",
                            c->now, policy_name(c), r ? (long long)c->pj[idx].id : (long long)idx);
    memmove(ps->queue + at, ps->queue + at + 1, (ps->n_queue - at - 1) * sizeof *ps->queue);
    ps->n_queue--;
    c->queued--;
    c->n_left--;
    r->state = ENG_JOB_REJECTED;
    r->start_s = r->end_s = c->now;
    r->start_step = r->end_step = (int64_t)c->n_steps;
    if (release_dependants(c, idx))
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    return ENG_OK;
}

/* pol_out_kill: a job running in this pool, started before this call,
 * ends now; its end event moves to now (the old one is dropped as stale
 * by eng_core_begin) and its hosts come free in the next step, at this
 * same instant. */
static int stop_job(eng_core *c, pool_state *ps, int32_t idx, eng_diag *d)
{
    eng_job_result *r = idx >= 0 && (size_t)idx < c->n ? &c->res[idx] : NULL;
    if (!r || r->state != ENG_JOB_RUNNING || r->stopped ||
        c->prep->jobs[idx].pool != (int32_t)(ps - c->pools) || r->start_step == (int64_t)c->n_steps)
        return eng_diag_set(d, ENG_POLICY,
                            "t=%.17g: policy %s killed job %lld, which is not running in its pool "
                            "since an earlier call",
                            c->now, policy_name(c), r ? (long long)c->pj[idx].id : (long long)idx);
    if (r->packet >= 0)
        return eng_diag_set(d, ENG_POLICY, "t=%.17g: policy %s killed job %lld, a packet member",
                            c->now, policy_name(c), (long long)c->pj[idx].id);
    if (eng_grow(&c->stopped, &c->cap_stopped, c->n_stopped + 1, sizeof *c->stopped) ||
        eng_heap_push(&c->ends, (eng_heap_ev){.t = c->now, .id = idx}))
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    c->stopped[c->n_stopped++] = idx;
    r->stopped = true;
    r->killed = r->failed = false;
    r->end_s = c->now;
    return ENG_OK;
}

static int call_policy(eng_core *c, pool_state *ps, eng_diag *d)
{
    pol_view v = make_view(c, ps);
    pol_out_reset(&ps->out);
    int32_t *before = NULL;
    size_t n_before = 0;
    if (c->opts.check && (c->policy->flags & POL_FLAG_ORDERED)) { /* the queue as shown */
        n_before = v.n_queue;
        before = malloc((n_before ? n_before : 1) * sizeof *before);
        if (!before)
            return eng_diag_set(d, ENG_NOMEM, "out of memory");
        for (size_t i = 0; i < n_before; i++)
            before[i] = v.queue[i]->idx;
    }
    double t0 = mono_s();
    int rc = c->policy->schedule(ps->pstate, &v, &ps->out);
    c->policy_s += mono_s() - t0;
    if (rc == ENG_OK && ps->out.oom)
        rc = ENG_NOMEM;
    if (rc) {
        free(before);
        return eng_diag_set(d, rc, "t=%.17g: policy %s failed: %s", c->now, policy_name(c),
                            ps->out.err[0] ? ps->out.err : eng_strerror(rc));
    }
    /* Promises first: a promise made in this call for a job started in the
     * same call is trivially kept. */
    if (c->promise_s)
        eng_check_promises(c, ps);
    for (size_t i = 0; i < ps->out.n_starts && rc == ENG_OK; i++)
        rc = start_job(c, ps, &ps->out.starts[i], d);
    for (size_t i = 0; i < ps->out.n_rejects && rc == ENG_OK; i++)
        rc = reject_job(c, ps, ps->out.rejects[i], d);
    for (size_t i = 0; i < ps->out.n_kills && rc == ENG_OK; i++)
        rc = stop_job(c, ps, ps->out.kills[i], d);
    if (rc == ENG_OK && c->opts.check)
        rc = eng_check_decisions(c, ps, before, n_before, d);
    free(before);
    ps->wakeup_s = ps->out.wakeup_s > c->now ? ps->out.wakeup_s : INFINITY;
    /* the end of a window: its hosts take jobs again */
    for (size_t k = ps->resv_first; k < ps->n_resv && c->n_left > 0; k++)
        if (ps->resv[k].end_s > c->now) {
            if (ps->resv[k].end_s < ps->wakeup_s)
                ps->wakeup_s = ps->resv[k].end_s;
            break;
        }
    /* the end of a limit window: the jobs it kept back may start */
    const eng_resv *w = c->lim && ps->n_queue ? eng_limit_now(c) : NULL;
    if (w && w->end_s < ps->wakeup_s)
        ps->wakeup_s = w->end_s;
    return rc;
}

bool eng_core_begin(eng_core *c, double *t, const int32_t **ending, size_t *n_ending)
{
    double next = next_submit_s(c);
    /* an end moved to an earlier time by a kill leaves its old entry */
    while (c->ends.n && (c->res[c->ends.v[0].id].state != ENG_JOB_RUNNING ||
                         c->res[c->ends.v[0].id].end_s != c->ends.v[0].t))
        eng_heap_pop(&c->ends);
    if (c->ends.n && c->ends.v[0].t < next)
        next = c->ends.v[0].t;
    for (size_t i = 0; i < c->n_pools; i++)
        if (c->pools[i].wakeup_s < next)
            next = c->pools[i].wakeup_s;
    if (c->changes.n && c->n_left > 0 && c->changes.v[0].t < next)
        next = c->changes.v[0].t;
    if (c->psave && c->n_left > 0 && eng_psave_next(c) < next)
        next = eng_psave_next(c);
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
        eng_heap_ev ev = eng_heap_pop(&c->ends);
        if (c->res[ev.id].state == ENG_JOB_RUNNING && c->res[ev.id].end_s == ev.t)
            c->ending[c->n_ending++] = ev.id;
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
        return eng_energy_sample(c);
    }
    if (eng_grow(&c->ts, &c->cap_ts, c->n_ts + 1, sizeof *c->ts))
        return ENG_NOMEM;
    c->ts[c->n_ts++] = row;
    return eng_energy_sample(c);
}

int eng_core_step(eng_core *c, eng_diag *d)
{
    if (!c->begun)
        return eng_diag_set(d, ENG_INVAL, "eng_core_step without eng_core_begin");
    c->begun = false;
    c->n_started = 0;
    c->n_stopped = 0;
    c->n_steps++;
    eng_energy_advance(c); /* the power of the last instant, up to now */
    int rc;

    /* 0. Idle shutdown: switches, boots and the starts after them, before
     * the ends (a job may end at its start). */
    if (c->psave && (rc = eng_psave_apply(c)))
        return eng_diag_set(d, rc, "t=%.17g: %s", c->now,
                            rc == ENG_INVARIANT ? "a job would start on a host not up"
                                                : "out of memory");

    /* 1. Ends. */
    for (size_t e = 0; e < c->n_ending; e++) {
        int32_t idx = c->ending[e];
        pool_state *ps = &c->pools[c->prep->jobs[idx].pool];
        pol_job *j = &c->pj[idx];
        eng_job_result *r = &c->res[idx];
        eng_alloc_release(c, ps, idx);
        if (c->psave && eng_psave_released(c, idx))
            return eng_diag_set(d, ENG_NOMEM, "out of memory");
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
        if (c->promised_at_s && (rc = eng_check_note_end(c, ps, idx)))
            return eng_diag_set(d, rc, "out of memory");
        if (c->holds.off && c->opts.check && (rc = eng_check_held(c, idx, d)))
            return rc;
        r->state = r->stopped  ? ENG_JOB_STOPPED
                   : r->killed ? ENG_JOB_KILLED
                   : r->failed ? ENG_JOB_FAILED
                               : ENG_JOB_DONE;
        bool requeue = eng_fail_ended(c, r);
        if (!requeue) {
            c->n_left--;
            if (release_dependants(c, idx))
                return eng_diag_set(d, ENG_NOMEM, "out of memory");
        }
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
    if (c->fail && (rc = eng_fail_apply(c)))
        return eng_diag_set(d, rc == ENG_INVARIANT ? rc : ENG_NOMEM, "t=%.17g: %s", c->now,
                            rc == ENG_INVARIANT ? "a host failed under a running job"
                                                : "out of memory");

    /* 2. Submissions. */
    for (int32_t idx; (idx = take_submission(c)) >= 0;) {
        pool_state *ps = &c->pools[c->prep->jobs[idx].pool];
        if (eng_grow(&ps->queue, &ps->cap_queue, ps->n_queue + 1, sizeof *ps->queue))
            return eng_diag_set(d, ENG_NOMEM, "out of memory");
        /* Due submissions come in (time, idx) order, each due at now or,
         * without feedback, at its submit_s: appending keeps the queue in
         * (submit_s, idx) order. */
        c->pj[idx].submit_s = c->prep->pred ? c->now : c->prep->jobs[idx].submit_s;
        c->res[idx].submit_s = c->pj[idx].submit_s;
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
    if (c->psave && c->opts.check && (rc = eng_check_power(c, d)))
        return rc;
    if (c->opts.power_cap_w > 0 && c->opts.check && (rc = eng_check_cap(c, d)))
        return rc;
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

size_t eng_core_stopped(const eng_core *c, const int32_t **jobs)
{
    *jobs = c->stopped;
    return c->n_stopped;
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
