/* eng_core_impl.h — internal to the engine: the scheduling core's state,
 * shared by the files that implement eng_core.h. Nothing outside
 * eng_core.c, eng_alloc.c, eng_fail.c, eng_power_save.c, eng_check.c and
 * eng_energy.c includes it; the
 * public contract stays in eng_core.h.
 *
 * The files, in layers (each calls only the files below it; the layers
 * test of tools/check-layers fails on a cycle):
 *
 *     eng_core.c    the event core: creation, the step (ends, failures
 *                   applied, submissions, one policy call per pool), the
 *                   decisions applied, the results read back
 *        |
 *        +--> eng_alloc.c  hosts and cores taken and freed, first-fit and
 *        |                 island placement, the view's per-host arrays,
 *        |                 the allocation read back
 *        +--> eng_fail.c   host failures: drawn or traced outages, hosts
 *        |                 going down and up, the run a failure cuts, the
 *        |                 waste counted, a failed job requeued
 *        +--> eng_power_save.c  idle shutdown: hosts switched off after
 *        |                 SuspendTime, booted for the jobs given them, the
 *        |                 starts after the boots, the rates
 *        +--> eng_check.c  the checks decisions are held to: always (a
 *                          start's job, units, islands, packet) and with
 *                          --check (flags, promises, the pool's audit)
 *
 *     eng_energy.c  below them all: each host's state (busy, idle, down,
 *                   off, booting, shutting down) changed through the
 *                   functions that eng_alloc.c (cores taken and freed),
 *                   eng_fail.c (down, up) and eng_power_save.c (switches,
 *                   starts after boots) call, the power it draws and
 *                   the energy integrated at each step of eng_core.c
 *
 * eng_alloc.c, eng_fail.c, eng_power_save.c and eng_check.c call none of
 * each other (under idle shutdown eng_alloc.c leaves the busy state to
 * eng_power_save.c, which knows when the job starts): what
 * two of them need is a static inline function below or eng_energy.c,
 * which calls no file of the core.
 *
 * Who writes what: the hosts' free cores, the free-host maps, the free
 * units and the busy counts change in eng_alloc.c (a start, an end) and
 * in eng_fail.c (a host down or up); the runs and the view's per-host
 * arrays in eng_alloc.c; the failures, their changes and the waste in
 * eng_fail.c; the promises and the overruns in eng_check.c; everything
 * else (queues, running sets, results, time series) in eng_core.c. The
 * reservations' windows (holds, each pool's resv) are made at creation
 * and only read after: eng_alloc.c places around them, eng_check.c
 * verifies the runs against them.
 *
 * Data layout: every simulated job has a pol_job (what policies see) and an
 * eng_job_result (what outputs report), both indexed by the prepared job
 * index. Each pool keeps its waiting queue ((simulated submit, idx) order:
 * idx order without feedback), its running jobs
 * ordered by (expected end, idx), a pol_host array mirroring its hosts'
 * free cores, and a bitmap of hosts with free capacity for first-fit host
 * choice. Ends are kept in a binary heap ordered by (end, idx).
 */
#ifndef ENG_CORE_IMPL_H
#define ENG_CORE_IMPL_H

#include "eng_core.h"
#include "eng_heap.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Idle shutdown's state (eng_power_save.c). */
typedef struct psave_state psave_state;

/* A switch begun under idle shutdown, kept with --check for eng_check.c. */
typedef struct eng_psave_switch {
    double t_s;
    int32_t host;
    bool on;             /* a boot; else a switch-off */
    double idle_since_s; /* a switch-off: since when the host was idle */
    bool excluded;       /* the host is in --suspend-exc-nodes */
} eng_psave_switch;

/* A host's failures (eng_fail.c). */
typedef struct host_fail host_fail;

/* Hosts of one power model and core count (eng_energy.c): the watts per
 * core and per state, and how many cores and hosts are in each state now.
 * The platform's power is a sum over these classes of counts x watts, so
 * it is recomputed exactly at each step and never drifts. */
typedef struct power_class {
    double all_per_core_w, eps_per_core_w, idle_w, off_w, sleep_w, on_w, shut_w;
    int32_t cores;
    int64_t busy_cores, free_cores;             /* of its busy hosts */
    int64_t idle, down, off, booting, shutting; /* hosts */
} power_class;

/* The platform's energy by where it goes, integrated at each step. */
typedef struct energy_acc {
    power_class *cls;
    int32_t n_cls;
    int32_t *host_cls; /* per platform host */
    long double total_j, jobs_j, idle_j, off_j, switching_j;
    double start_s, t_s; /* integrated from start_s up to t_s */
    bool started;
    double peak_w;
    int32_t n_off, n_booting, n_shutting, n_busy;
    int64_t switch_ons, switch_offs;
} energy_acc;

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
    int32_t capped_units;  /* units --power-cap withholds (never free) */
    int32_t n_islands;     /* 0: no island constraint */
    int32_t *isl_units;    /* per island: capacity and free units */
    int32_t *isl_free;
    /* Reservations (opts.resv): the windows on the pool's hosts by (end,
     * file order), their hosts' positions, and the first not yet ended. */
    pol_resv *resv;
    int32_t *resv_pos;
    size_t n_resv, resv_first;
    /* Limit windows (opts.resv->lim): the queue as shown, without the jobs
     * the window of now keeps from starting (room for the pool's jobs). */
    const pol_job **shown;
    /* --init-planned no with --check: the overruns of jobs that have ended
     * (eng_check.c, overrun_excuses) */
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
    double *run_s;     /* per job: its run time at the reference speed (pol_setup.run_s) */
    /* --init-planned no (prep->init_unplanned), else NULL: each job's
     * planned end (start + its planned length), which orders the running
     * sets, the view showing max(planned end, now); with --check, when each
     * first promise was made. */
    double *plan_end_s;
    double *promised_at_s;
    int32_t *pool_pos; /* platform host -> position in its pool */
    pool_state *pools;
    size_t n_pools;

    size_t next_submit; /* without feedback: the next job to submit, in idx order */
    /* With feedback (prep->pred): submissions due as (time, job), a job
     * pushed when its submit is known (at creation, or at its
     * predecessor's end), and each job's dependants (dep_off[i] ..
     * dep_off[i + 1] in dep). */
    eng_heap subs;
    int32_t *dep_off, *dep;
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
    int32_t *stopped; /* jobs killed by their policy in this step (pol_out_kill) */
    size_t n_stopped, cap_stopped;

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

    /* Host states (eng_energy.c): per platform host, an eng_host_state;
     * with power values the energy and its rows, parallel to ts. */
    uint8_t *hstate;
    energy_acc *energy;
    eng_energy_row *ets;
    size_t cap_ets;

    /* Host failures (opts.failures): per platform host, and the next up or
     * down change of every failing host as (time, host). */
    host_fail *fail;
    eng_heap changes;
    /* Idle shutdown (opts.power_save): its state, its changes as (time,
     * 4 x host or job + kind), and with --check the switches begun since
     * the last check. */
    psave_state *psave;
    eng_heap pchanges;
    eng_psave_switch *pslog;
    size_t n_pslog, cap_pslog;
    int32_t chk_ons, chk_offs; /* eng_check.c: switches counted in the minute */
    double chk_on_minute, chk_off_minute;
    /* Reservations (opts.resv): each platform host's windows; holds.off
     * NULL when off. */
    eng_holds holds;
    /* Limit windows (opts.resv->lim, by start, not overlapping) and the
     * first that has not ended; NULL when off. */
    const eng_resv *lim;
    size_t n_lim, lim_cur;
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

/* ---- helpers every file uses ------------------------------------------ */

/* Where a running job was planned to end: its expected_end_s, except under
 * --init-planned no, where the view may show a later one (eng_core.c,
 * show_overdue). */
static inline double planned_end(const eng_core *c, const pol_job *j)
{
    return c->plan_end_s ? c->plan_end_s[j->idx] : j->expected_end_s;
}

/* The running sets' order: (planned end, idx). */
static inline bool run_less(const eng_core *c, const pol_job *a, const pol_job *b)
{
    double x = planned_end(c, a), y = planned_end(c, b);
    return x < y || (x == y && a->idx < b->idx);
}

/* The queues' order: (submit_s, idx), submit_s the job's simulated submit.
 * Without feedback submits do not decrease along idx, so this is idx
 * order; with feedback a job may be submitted after later-indexed ones. */
static inline bool queue_less(const pol_job *a, const pol_job *b)
{
    return a->submit_s < b->submit_s || (a->submit_s == b->submit_s && a->idx < b->idx);
}

/* The position of job idx in the queue, or where it belongs. */
static inline size_t queue_lower_bound(const eng_core *c, const pool_state *ps, int32_t idx)
{
    const pol_job *j = &c->pj[idx];
    size_t lo = 0, hi = ps->n_queue;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (queue_less(ps->queue[mid], j))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Sets or clears bit i of a free-host map. */
static inline void bit_set(uint64_t *map, int32_t i, bool on)
{
    if (on)
        map[i >> 6] |= UINT64_C(1) << (i & 63);
    else
        map[i >> 6] &= ~(UINT64_C(1) << (i & 63));
}

/* Whether the host at pool position pos can take a job's units: a whole
 * free host under node allocation, a free core under core allocation (the
 * free-host map's bit). */
static inline bool host_has_capacity(const pool_state *ps, pol_alloc alloc, int32_t pos)
{
    const pol_host *h = &ps->hosts[pos];
    return alloc == POL_ALLOC_NODE ? h->free_cores == h->cores : h->free_cores > 0;
}

/* Adds (sign +1) or removes (-1) what cores of the host at pos count for
 * in its island's free units: the host under node allocation, the cores
 * under core allocation. */
static inline void island_add(const eng_core *c, pool_state *ps, int32_t pos, int32_t cores,
                              int sign)
{
    if (ps->n_islands)
        ps->isl_free[ps->hosts[pos].island] += sign *
                                               (c->prep->alloc == POL_ALLOC_NODE ? 1 : cores);
}

/* The window that holds platform host h over [from, to), or NULL (none, or
 * reservations off). */
static inline const eng_hold *host_held(const eng_core *c, int32_t h, double from, double to)
{
    return c->holds.off ? eng_holds_meet(&c->holds, h, from, to) : NULL;
}

/* The limit window of now (opts.resv->lim), or NULL (no limit now); the
 * clock only moves on, so the windows ended are passed once. */
static inline const eng_resv *eng_limit_now(eng_core *c)
{
    while (c->lim_cur < c->n_lim && c->lim[c->lim_cur].end_s <= c->now)
        c->lim_cur++;
    return c->lim_cur < c->n_lim && c->lim[c->lim_cur].start_s <= c->now ? &c->lim[c->lim_cur]
                                                                         : NULL;
}

/* Whether limit window w (NULL: none now) lets j start. */
static inline bool eng_limit_admits(const eng_resv *w, const pol_job *j)
{
    return !w || j->estimate_s <= w->max_time_s;
}

static inline const char *policy_name(const eng_core *c)
{
    return c->policy->name;
}

/* ---- eng_alloc.c: hosts and cores ------------------------------------- */

/* Allocates job j in pool ps, on the policy's hosts or first fit: with
 * islands, within the island pol_island_pick() chooses (eng_check_start
 * checked that it exists), or island by island for a job larger than every
 * island. Fills the job's allocation in its eng_job_result and the view's
 * per-host arrays; ENG_POLICY for hosts a policy named wrongly, ENG_NOMEM. */
int eng_alloc_job(eng_core *c, pool_state *ps, const pol_job *j, const pol_start *st, eng_diag *d);

/* Gives back the hosts and cores of a job that ends. */
void eng_alloc_release(eng_core *c, pool_state *ps, int32_t job);

/* ---- eng_fail.c: host failures ---------------------------------------- */

/* Sets up the failures of opts.failures (the model's generators or the
 * trace's outages) and schedules every failing host's first change, with
 * c->now at 0. ENG_INVAL for a bad epoch or trace line, ENG_NOMEM. */
int eng_fail_init(eng_core *c, eng_diag *d);

/* Frees what eng_fail_init made (NULL-safe: nothing when failures are off). */
void eng_fail_destroy(eng_core *c);

/* The first time in (now, until) at which one of the hosts of job result r
 * goes down, or INFINITY: the end of a run the failure cuts. */
double eng_fail_first_down(eng_core *c, const eng_job_result *r, double until);

/* Applies every host change due at now: a host going down takes no more
 * jobs (its jobs ended at this instant already: their runs were cut at
 * the failure when they started); one coming up is free again. Marks the
 * pools touched. ENG_INVARIANT if a job still runs on a host going down,
 * ENG_NOMEM. */
int eng_fail_apply(eng_core *c);

/* A job ends now: if a failure cut its run, counts the run as wasted.
 * Returns whether it goes back to the queue (requeue on and its limit not
 * reached). */
bool eng_fail_ended(eng_core *c, const eng_job_result *r);

/* Puts job idx, cut by a failure, back in its queue in its place by submit
 * order, to start again from scratch (the caller tells the policy). */
int eng_fail_requeue(eng_core *c, pool_state *ps, int32_t idx, eng_diag *d);

/* ---- eng_power_save.c: idle shutdown ---------------------------------- */

/* Sets up idle shutdown (opts.power_save.enabled): each host idle from 0,
 * its switch times, its first suspend check. ENG_INVAL for a bad value,
 * ENG_USAGE under core allocation or with failures, ENG_NOMEM. */
int eng_psave_init(eng_core *c, eng_diag *d);

/* Frees what eng_psave_init made (NULL-safe). */
void eng_psave_destroy(eng_core *c);

/* The longest wait from giving a job hosts to its start (0 when off). */
double eng_psave_delay_max(const eng_core *c);

/* The time of the next power change, or INFINITY. */
double eng_psave_next(const eng_core *c);

/* Job idx has just been given its hosts (node allocation): boots those
 * off, books the rate, turns them busy now or schedules its start.
 * *start_s: when it starts; *rate_wait_s: the longest wait for the resume
 * rate among its boots. ENG_NOMEM. */
int eng_psave_claim(eng_core *c, int32_t idx, double *start_s, double *rate_wait_s);

/* The hosts of job idx, just released, are idle and free from now: their
 * suspend checks. ENG_NOMEM. */
int eng_psave_released(eng_core *c, int32_t idx);

/* Applies the power changes due at now, then the starts due. ENG_NOMEM,
 * ENG_INVARIANT (a job starting on a host not up). */
int eng_psave_apply(eng_core *c);

/* Refreshes usable_at_s of pool ps's hosts that are off (now + boot). */
void eng_psave_view(eng_core *c, pool_state *ps);

/* ---- eng_energy.c: host states and their energy ----------------------- */

/* Allocates the host states (all idle) and, when the platform has power
 * values, the energy accounting. ENG_NOMEM. */
int eng_energy_init(eng_core *c);

/* Frees what eng_energy_init made (NULL-safe). */
void eng_energy_destroy(eng_core *c);

/* Platform host h, up, had busy_before of its cores taken and now has
 * busy_after: busy or idle, and its power. */
void eng_host_cores(eng_core *c, int32_t h, int32_t busy_before, int32_t busy_after);

/* Platform host h goes into state s (down, or idle again after a failure;
 * later off, booting, shutting down). */
void eng_host_set(eng_core *c, int32_t h, eng_host_state s);

/* The watts billed to a job holding `cores` cores of platform host h
 * (with power values only). */
static inline double eng_energy_job_w(const eng_core *c, int32_t h, int32_t cores)
{
    const energy_acc *e = c->energy;
    return (double)cores * e->cls[e->host_cls[h]].all_per_core_w;
}

/* The platform's modelled power now (with power values only). */
double eng_energy_power_now(const eng_core *c);

/* --power-cap cap_w on pool ps: how many of its units may be taken at
 * once (eng_core.h, power_cap_w); -1 when the cap is below the power of
 * every host idle. */
int64_t eng_energy_cap_units(const eng_core *c, const pool_state *ps, double cap_w);

/* The energy integrated so far (to the start of this step: now, in a
 * step); 0 without power values. */
double eng_energy_total_j(const eng_core *c);

/* Integrates the power from the last step to now (start of a step). */
void eng_energy_advance(eng_core *c);

/* Records the energy row of the sample just taken (row n_ts - 1).
 * ENG_NOMEM. */
int eng_energy_sample(eng_core *c);

/* ---- eng_check.c: the checks ------------------------------------------ */

/* The checks always made on a start, before its allocation: the job is
 * queued in this pool and submitted, its units are free and, with islands,
 * an island can host it; with opts.check and no failures, its first
 * promise is kept (unless excused); a packet member's packet is open and on the same
 * hosts. ENG_POLICY or ENG_INVARIANT with the time, job and rule. */
int eng_check_start(eng_core *c, pool_state *ps, const pol_start *st, eng_diag *d);

/* With --check under idle shutdown, after a start decided now that begins
 * at start_s (rate_wait_s of the wait for the resume rate, for the
 * message): the start after the boots keeps the job's first promise
 * (POL_FLAG_BOOT_PLANS). */
int eng_check_boot_start(eng_core *c, const pol_job *j, double start_s, double rate_wait_s,
                         eng_diag *d);

/* With --check under idle shutdown, after each step: every switch-off
 * begun came after suspend_time_s idle on a host not excluded, the rates
 * held in every minute, and no running job that has started holds a host
 * that is not busy. Clears the log. ENG_INVARIANT with the time, host and
 * rule. */
int eng_check_power(eng_core *c, eng_diag *d);

/* With --check and --power-cap, after each step: the modelled power (which
 * changes only at steps) is within the cap. ENG_INVARIANT. */
int eng_check_cap(eng_core *c, eng_diag *d);

/* With opts.check: keeps the first promise the last call made for each job. */
void eng_check_promises(eng_core *c, pool_state *ps);

/* With opts.check, after a call's starts: the ORDERED and HEAD_GREEDY
 * flags against the queue before the call (queue_before, job indices),
 * with islands every start's hosts, and the audit of the pool's free
 * capacity and running set. */
int eng_check_decisions(eng_core *c, pool_state *ps, const int32_t *queue_before, size_t n_before,
                        eng_diag *d);

/* With --check and reservations: job idx has just ended; no window of its
 * hosts met its run [start, end). ENG_INVARIANT with the job, host and
 * reservation. */
int eng_check_held(eng_core *c, int32_t idx, eng_diag *d);

/* --init-planned no with --check: job idx of pool ps ends now; keeps its
 * overrun, if any, for the promises it excuses. ENG_NOMEM. */
int eng_check_note_end(eng_core *c, pool_state *ps, int32_t idx);

#endif
