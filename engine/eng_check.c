/* eng_check.c — the rules the core holds every policy to (eng_core.h,
 * "Checks"). Always: a start names a job queued in this pool and already
 * submitted; its units are free and, with islands, an island can host it
 * (pol_island_pick) or its named hosts lie in one; a packet member starts
 * in an open packet of its type, on the packet's hosts, at the instant the
 * previous member ended. With --check (opts.check, and in every test): the
 * ORDERED and HEAD_GREEDY flags, the first promise made for each job
 * (excused under --init-planned no only by a job that overran its plan in
 * the promise's window), and after every policy call an audit of the
 * pool: every host's free cores, the free-host map, the free units per
 * island and in all, the running set's order and used + free + down =
 * total units, with islands every start's hosts within one island, and
 * with host memory no host holding more of its jobs' memory than it has;
 * with reservations, at each end, no run on a host during its windows.
 *
 * Invariant: the checks read the core's state and change nothing the
 * schedule depends on (the packets' table is allocated at the first
 * packet start, and the overruns are kept for the promises); a violation is
 * ENG_POLICY (a decision the rules refuse) or ENG_INVARIANT (a broken
 * guarantee) with the time, the job and the rule. The audit is
 * O(hosts x (1 + islands) + running) per call, run only with --check.
 *
 * Calls no other file of the core (eng_core_impl.h).
 */
#include "eng_core_impl.h"

#include "eng_util.h"

#include <math.h>
#include <stdlib.h>

/* ---- reservations ------------------------------------------------------ */

int eng_check_held(eng_core *c, int32_t idx, eng_diag *d)
{
    const eng_job_result *r = &c->res[idx];
    for (int32_t u = 0; u < r->n_runs; u++) {
        const eng_host_run *run = &c->runs[r->runs_off + (size_t)u];
        for (int32_t k = 0; k < run->n; k++) {
            const eng_hold *w = host_held(c, run->host + k, r->start_s, r->end_s);
            if (w)
                return eng_diag_set(d, ENG_INVARIANT,
                                    "t=%.17g: policy %s ran job %lld on host %s over [%.17g, "
                                    "%.17g), which reservation %s holds over [%.17g, %.17g)",
                                    c->now, policy_name(c), (long long)c->pj[idx].id,
                                    c->plat->hosts[run->host + k].name, r->start_s, r->end_s,
                                    c->opts.resv->v[w->resv].name, w->start_s, w->end_s);
        }
    }
    return ENG_OK;
}

/* With reservations: the units free now on hosts of pool ps that no
 * window holds over job j's run from now. */
static int64_t free_unheld(const eng_core *c, const pool_state *ps, const pol_job *j)
{
    int64_t n = 0;
    for (int32_t pos = 0; pos < ps->n_hosts; pos++)
        if (host_has_capacity(ps, c->prep->alloc, pos) &&
            !host_held(c, ps->hosts[pos].index, c->now, c->now + j->estimate_s))
            n += c->prep->alloc == POL_ALLOC_NODE ? 1 : ps->hosts[pos].free_cores;
    return n;
}

/* ---- a start ---------------------------------------------------------- */

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
            return ENG_OK; /* eng_alloc_job() reports hosts outside the pool */
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
int eng_check_note_end(eng_core *c, pool_state *ps, int32_t idx)
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
 * earliest (eng_check_note_end). O(log overruns). */
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

int eng_check_start(eng_core *c, pool_state *ps, const pol_start *st, eng_diag *d)
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
    const eng_resv *w = c->lim ? eng_limit_now(c) : NULL;
    if (!eng_limit_admits(w, j))
        return eng_diag_set(d, ENG_INVARIANT,
                            "t=%.17g: policy %s started job %lld (estimate %.17g s) in limit "
                            "window %s of %s:%ld, which admits at most %.17g s",
                            c->now, policy_name(c), (long long)j->id, j->estimate_s, w->name,
                            c->opts.resv->path, w->line, w->max_time_s);
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
    if (c->promise_s && !c->fail && !c->lim &&
        (!c->psave || (c->policy->flags & POL_FLAG_BOOT_PLANS)) && c->now > c->promise_s[idx] &&
        c->now - c->promise_s[idx] > 1e-9 * fmax(1.0, fabs(c->now)) && !overrun_excuses(c, ps, idx))
        return eng_diag_set(d, ENG_INVARIANT,
                            "t=%.17g: policy %s started job %lld later than it promised (%.17g)",
                            c->now, policy_name(c), (long long)j->id, c->promise_s[idx]);
    if (st->packet >= 0) {
        int rc = check_packet_start(c, ps, j, st, d);
        if (rc)
            return rc;
    }
    return ENG_OK;
}

/* ---- with --check under idle shutdown ---------------------------------- */

int eng_check_boot_start(eng_core *c, const pol_job *j, double start_s, double rate_wait_s,
                         eng_diag *d)
{
    if (!c->promise_s || !(c->policy->flags & POL_FLAG_BOOT_PLANS))
        return ENG_OK;
    double by = c->promise_s[j->idx];
    if (start_s > by && start_s - by > 1e-9 * fmax(1.0, fabs(start_s)))
        return eng_diag_set(d, ENG_INVARIANT,
                            "t=%.17g: policy %s gave job %lld hosts that boot until %.17g, later "
                            "than it promised (%.17g; %.17g s of the wait for the resume rate)",
                            c->now, policy_name(c), (long long)j->id, start_s, by, rate_wait_s);
    return ENG_OK;
}

/* The switches begun in minute m, counted from the log (kept sorted by
 * time); the log holds only the switches since the last check, so the
 * counts carry the minute over. */
int eng_check_power(eng_core *c, eng_diag *d)
{
    const eng_power_save *o = &c->opts.power_save;
    for (size_t i = 0; i < c->n_pslog; i++) {
        const eng_psave_switch *w = &c->pslog[i];
        const char *name = c->plat->hosts[w->host].name;
        if (!w->on) {
            if (w->excluded)
                return eng_diag_set(d, ENG_INVARIANT,
                                    "t=%.17g: host %s switched off, but it is in "
                                    "--suspend-exc-nodes",
                                    w->t_s, name);
            if (w->t_s < w->idle_since_s + o->suspend_time_s) /* the engine's sum */
                return eng_diag_set(d, ENG_INVARIANT,
                                    "t=%.17g: host %s switched off after %.17g s idle, less than "
                                    "--suspend-time %.17g",
                                    w->t_s, name, w->t_s - w->idle_since_s, o->suspend_time_s);
        }
        int32_t rate = w->on ? o->resume_rate : o->suspend_rate;
        double m = floor(w->t_s / 60.0);
        int32_t *used = w->on ? &c->chk_ons : &c->chk_offs;
        double *minute = w->on ? &c->chk_on_minute : &c->chk_off_minute;
        if (m != *minute) {
            *minute = m;
            *used = 0;
        }
        if (rate > 0 && ++*used > rate)
            return eng_diag_set(d, ENG_INVARIANT,
                                "t=%.17g: host %s: %s number %d of the minute, over --%s-rate %d",
                                w->t_s, name, w->on ? "boot" : "switch-off", *used,
                                w->on ? "resume" : "suspend", rate);
    }
    c->n_pslog = 0;
    for (size_t p = 0; p < c->n_pools; p++) {
        const pool_state *ps = &c->pools[p];
        for (size_t r = 0; r < ps->n_running; r++) {
            const pol_job *j = ps->running[r];
            const eng_job_result *res = &c->res[j->idx];
            if (res->start_s > c->now)
                continue;
            for (int32_t u = 0; u < res->n_runs; u++) {
                const eng_host_run *run = &c->runs[res->runs_off + (size_t)u];
                for (int32_t k = 0; k < run->n; k++)
                    if (c->hstate[run->host + k] != ENG_HOST_BUSY)
                        return eng_diag_set(d, ENG_INVARIANT,
                                            "t=%.17g: job %lld runs on host %s, which is not up "
                                            "and busy (state %d)",
                                            c->now, (long long)j->id,
                                            c->plat->hosts[run->host + k].name,
                                            c->hstate[run->host + k]);
            }
        }
    }
    return ENG_OK;
}

int eng_check_cap(eng_core *c, eng_diag *d)
{
    double w = eng_energy_power_now(c);
    if (w > c->opts.power_cap_w * (1 + 1e-12))
        return eng_diag_set(d, ENG_INVARIANT,
                            "t=%.17g: the modelled power %.17g W exceeds --power-cap %g W", c->now,
                            w, c->opts.power_cap_w);
    return ENG_OK;
}

/* ---- with --check: promises, flags and the audit ---------------------- */

void eng_check_promises(eng_core *c, pool_state *ps)
{
    for (size_t i = 0; i < ps->out.n_promises; i++) {
        const pol_promise *p = &ps->out.promises[i];
        if (p->job_idx >= 0 && (size_t)p->job_idx < c->n && c->promise_s[p->job_idx] == INFINITY) {
            c->promise_s[p->job_idx] = p->start_by_s;
            if (c->promised_at_s)
                c->promised_at_s[p->job_idx] = c->now;
        }
    }
}

/* With host memory: no host of the pool holds more job memory than it has.
 * A job's processors spread evenly over its hosts under node allocation,
 * ceil(procs / units) a host, and its memory over its cores under core
 * allocation (eng_prep.h, "Memory"). Packet members (their packet's hosts)
 * are left out. O(hosts + running hosts). */
static int audit_memory(eng_core *c, pool_state *ps, eng_diag *d)
{
    double *used = calloc((size_t)ps->n_hosts ? (size_t)ps->n_hosts : 1, sizeof *used);
    if (!used)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    for (size_t r = 0; r < ps->n_running; r++) {
        const pol_job *j = ps->running[r];
        const eng_sim_job *s = &c->prep->jobs[j->idx];
        if (s->mem_per_proc_b == 0 || c->res[j->idx].packet >= 0)
            continue;
        double per_host = ceil((double)s->procs / s->units) * s->mem_per_proc_b;
        double per_core = (double)s->procs * s->mem_per_proc_b / s->units;
        for (int32_t k = 0; k < j->n_alloc; k++) {
            int32_t pos = c->live_pos[j->alloc_off + (size_t)k];
            used[pos] += c->prep->alloc == POL_ALLOC_NODE
                             ? per_host
                             : c->live_cores[j->alloc_off + (size_t)k] * per_core;
        }
    }
    int rc = ENG_OK;
    for (int32_t k = 0; k < ps->n_hosts && rc == ENG_OK; k++) {
        double mem = c->plat->hosts[ps->hosts[k].index].memory_b;
        if (mem > 0 && used[k] > mem * (1 + 1e-12))
            rc = eng_diag_set(d, ENG_INVARIANT,
                              "t=%.17g: host %s holds %.17g bytes of its jobs' memory, more than "
                              "its %.17g",
                              c->now, ps->hosts[k].name, used[k], mem);
    }
    free(used);
    return rc;
}

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
    free_units -= ps->capped_units;
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
    if (used + ps->free_units + ps->down_units + ps->capped_units != ps->total_units)
        return eng_diag_set(d, ENG_INVARIANT,
                            "t=%.17g: pool %s: %lld units used + %d free + %d down != %d total",
                            c->now, ps->pool->label, (long long)used, ps->free_units,
                            ps->down_units, ps->total_units);
    (void)free_cores;
    return c->plat->has_memory ? audit_memory(c, ps, d) : ENG_OK;
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

int eng_check_decisions(eng_core *c, pool_state *ps, const int32_t *queue_before, size_t n_before,
                        eng_diag *d)
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
    /* the head of the queue as shown (limit windows leave jobs out) */
    const pol_job *head = NULL;
    const eng_resv *w = c->lim ? eng_limit_now(c) : NULL;
    for (size_t i = 0; !head && i < ps->n_queue; i++)
        if (eng_limit_admits(w, ps->queue[i]))
            head = ps->queue[i];
    if ((c->policy->flags & POL_FLAG_HEAD_GREEDY) && head && head->units <= ps->free_units &&
        (!c->holds.off || head->units <= free_unheld(c, ps, head)) &&
        (!ps->n_islands || pol_island_pick(ps->n_islands, ps->isl_units, ps->isl_free,
                                           head->units) != POL_ISLAND_NONE))
        return eng_diag_set(d, ENG_INVARIANT,
                            "t=%.17g: policy %s left job %lld waiting at the head of the queue "
                            "although its %d units were free",
                            c->now, policy_name(c), (long long)head->id, head->units);
    return audit_pool(c, ps, d);
}
