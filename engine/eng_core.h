/* eng_core.h — the scheduling core: queues, running sets, host allocation,
 * policy calls and the invariant checker, as a pure state machine.
 *
 * The core decides; a driver moves time. The shipped driver is SimGrid's
 * (eng_sim.c): it sleeps or waits on SimGrid executions until the core's
 * next event time, then lets the core apply that instant. Tests of policies
 * and the conformance suite can also drive the core directly (eng_core_run),
 * which is the same code without executions; eng_sim's tests check that
 * both give the same schedule.
 *
 * One step at time t:
 *   1. jobs ending at t leave (hosts freed; policy on_finish), in (t, idx)
 *      order;
 *   2. jobs submitted at t join their pool's queue (policy on_submit), in
 *      idx order. Without feedback a job is submitted at its submit_s.
 *      With feedback (prep->pred, eng_feedback.h) the workload is an event
 *      source: a job without a predecessor is due at its submit_s, one with
 *      a predecessor at that job's end (done, killed, failed and not
 *      requeued, stopped or rejected; its dependants are released in step
 *      1 or when the rejection is applied) plus its think time, and due
 *      submissions come out of a heap in (time, idx) order. A job's
 *      pol_job.submit_s is then its simulated submit, set when it is
 *      submitted, and the queues are ordered by (submit_s, idx), which is
 *      idx order without feedback (eng_policy.h, pol_view.queue);
 *   3. each pool with an event or a due wake-up calls its policy's
 *      schedule() once and the core applies the decisions.
 * So all events of one instant are applied before a policy is asked, and a
 * job ending at t frees its hosts for a job starting at t.
 *
 * A started job runs on each of its hosts for
 *     init_s + run_s * ref_speed / host_speed,
 * capped at kill_s (then it ends KILLED); it ends when its slowest host
 * does. Its expected end (what policies plan with) is start + estimate_s.
 * With --init-planned no (prep->init_unplanned) the estimate leaves the
 * initialization out, so a job may run past that end: the running sets
 * stay ordered by planned end, the view shows an overdue job as ending
 * now, and only policies with POL_FLAG_REPLANS run (others: ENG_USAGE at
 * creation; eng_policy.h).
 *
 * Checks always made (a violation is ENG_POLICY): a decision names a job
 * queued in this pool, not started before; enough free units, and with
 * islands an island that can host it (pol_island_pick), or named hosts in
 * one island; named hosts belong to the pool and are free. Checks made
 * with opts.check (and in every test): ORDERED and HEAD_GREEDY policy
 * flags (with islands, "fits" as pol_island_pick says), every job starts
 * no later than the first promise its policy made for it (with
 * --init-planned no, unless a job of the pool ran past its planned end
 * between the promise and its date; pol_promise in eng_policy.h), and a full
 * audit of the pool's free capacity (per island too) after every call,
 * and, with islands, of every start's hosts: a job whose units (a packet
 * member: its packet's) fit in one island holds hosts of one island. A
 * violation is ENG_INVARIANT with
 * the time, job and rule.
 *
 * Cost per step: O(events + decisions * log(queue)) plus the policy's own;
 * host choice is a bitmap scan, O(hosts / 64 + hosts taken).
 *
 * Implemented in four files (eng_core_impl.h, internal, holds their shared
 * state and says who calls whom): eng_core.c the events and the policy
 * calls, eng_alloc.c the host choice, eng_fail.c the host failures,
 * eng_check.c the checks.
 */
#ifndef ENG_CORE_H
#define ENG_CORE_H

#include "eng_error.h"
#include "eng_platform.h"
#include "eng_prep.h"
#include "eng_policy.h"
#include "eng_resv.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum eng_job_state {
    ENG_JOB_PENDING = 0, /* not submitted yet */
    ENG_JOB_QUEUED,
    ENG_JOB_RUNNING,
    ENG_JOB_DONE,     /* ran to its end */
    ENG_JOB_KILLED,   /* reached its kill limit (requested time) */
    ENG_JOB_FAILED,   /* killed when one of its hosts failed */
    ENG_JOB_REJECTED, /* rejected by its policy before it started (pol_out_reject) */
    ENG_JOB_STOPPED,  /* killed by its policy while it ran (pol_out_kill) */
} eng_job_state;

/* Host failures, drawn from the platform's availability model
 * (engine/eng_avail.h) or replayed from a trace. Drawn: each host with an
 * occupation_probability p > 0 is down for a whole epoch with probability
 * p, independently from epoch to epoch and from host to host (consecutive
 * down epochs merge); the draws come from one GSL generator per host,
 * seeded from `seed` and the host's index, so they do not depend on the
 * schedule. A down host takes no job; the jobs running on it when it goes
 * down are killed (state ENG_JOB_FAILED) or, with requeue, put back in the
 * queue in their place by submit order (they keep their priority), to
 * start again from scratch (their policy sees them submitted again). While failures are on, the checker does not hold policies to
 * their promises: a failure may delay any reservation. */
/* One outage of a failure trace (eng_ftrace_read reads them from a file). */
typedef struct eng_fail_span {
    const char *host; /* a platform host's name */
    double start_s, end_s;
    long line; /* where it was read, for messages (0: unknown) */
} eng_fail_span;

typedef struct eng_failures {
    bool enabled;
    double epoch_s; /* > 0 */
    uint64_t seed;
    bool requeue;
    /* With requeue: a job whose runs failed this many times is killed at
     * its next failure (Slurm's MaxBatchRequeue; 0 means never requeue).
     * Without a limit a long, wide job on unreliable hosts may never
     * complete and the simulation never end. */
    int32_t max_requeues;
    /* A failure trace, replayed instead of the model when trace_path (its
     * name in messages) is not NULL: outages in any order, overlapping
     * ones of a host merged; only the hosts named fail. */
    const eng_fail_span *trace;
    size_t n_trace;
    const char *trace_path;
} eng_failures;

/* Idle shutdown (eng_power_save.c), Slurm's power saving in its terms
 * (slurm.conf: SuspendTime, SuspendTimeout, ResumeTimeout, SuspendRate,
 * ResumeRate, SuspendExcNodes). A host idle for suspend_time_s is switched
 * off: it shuts down for its platform's switch_off_s (suspend_timeout_s
 * when the platform gives none or 0), then is off; a job given it boots
 * it, for the platform's switch_on_s (else resume_timeout_s), and starts
 * when the last of its hosts is up. Rates are switch-offs and boots begun
 * per minute of simulated time (minutes [60k, 60k + 60) from time 0);
 * 0 is no limit. exc_nodes names the hosts never switched off, in
 * Slurm's hostlist form: names separated by commas, each maybe with one
 * bracketed list of numbers and ranges, zero-padded as written
 * ("n[01-04,7],login"); an unknown name is ENG_INVAL. Node allocation
 * only, and not with failures yet (ENG_USAGE otherwise). */
typedef struct eng_power_save {
    bool enabled;
    double suspend_time_s;             /* >= 0 */
    double suspend_timeout_s;          /* >= 0 */
    double resume_timeout_s;           /* >= 0 */
    int32_t suspend_rate, resume_rate; /* per minute, 0: no limit */
    const char *exc_nodes;             /* NULL: none; borrowed for create() */
} eng_power_save;

/* The allocation (node or core) is the prepared workload's
 * (eng_prepared.alloc), whose units count in it: it is not an option of
 * its own. */
typedef struct eng_core_opts {
    const pol_type *policy;
    const pol_kv *options; /* --policy-opt pairs, borrowed for create() */
    size_t n_options;
    uint64_t seed;
    bool check;
    eng_failures failures;
    /* --islands ignore: every pool is one block even where its hosts name
     * islands. Otherwise (strict) a pool with two islands or more places a
     * job that fits in one island within one (pol_island_pick), and the
     * policy must carry POL_FLAG_ISLANDS (else ENG_USAGE at create). */
    bool ignore_islands;
    eng_power_save power_save;
    /* --power-cap: the platform's modelled power never exceeds this many
     * watts (0: no cap). Needs power values, one pool, no islands, no
     * failures and no idle shutdown (ENG_USAGE otherwise). The engine turns
     * it into units: with P0 the power of every host idle and u the most
     * one unit (a host, or a core) can add when it is taken, at most
     * floor((cap - P0) / u) units run at once; the pool shows policies that
     * many units in all (pol_view.total_units, free_units), so that every
     * policy plans within the cap, and a start beyond them is refused as
     * any start beyond the free units is. A job wider than that is
     * ENG_USAGE. The checker verifies the power at every step. */
    double power_cap_w;
    /* --reservations (eng_resv.h): windows in which their hosts run no
     * job, resolved on the platform at create (ENG_INVAL for an unknown
     * host or overlapping windows, with the file and line); NULL or none:
     * off. Policies see them (pol_view.resv) and must carry
     * POL_FLAG_RESERVATIONS; the engine places each start on hosts no
     * window holds over [now, now + estimate) and refuses one that cannot
     * be (ENG_POLICY); with check, every job's run is verified against the
     * windows of its hosts at its end (ENG_INVARIANT), and its first promise
     * is held. Not with failures, idle shutdown, a power cap,
     * --init-planned no or islands (ENG_USAGE). The core wakes each pool at
     * the end of each of its windows, when hosts become usable again.
     * Borrowed for the core's life. */
    const eng_resvs *resv;
} eng_core_opts;

/* The fate of one simulated job (indexed like eng_prepared.jobs). */
typedef struct eng_job_result {
    double submit_s;  /* when it was submitted (with feedback: as simulated); -1 until then */
    double start_s;   /* -1 until started */
    double end_s;     /* -1 until ended */
    int32_t state;    /* eng_job_state */
    bool killed;      /* reaches (or reached) its kill limit */
    bool failed;      /* one of its hosts fails before its end (failures on) */
    bool stopped;     /* its policy killed it (pol_out_kill): ends now */
    int32_t units;    /* units it holds (a packet member: all its packet's) */
    int32_t packet;   /* -1, or the index of its packet's first member */
    double init_s;    /* initialization paid (0 for later packet members) */
    int32_t requeues; /* times a host failure sent it back to the queue */
    int32_t n_hosts;
    int32_t n_runs; /* its hosts as runs: eng_core_alloc_runs() + runs_off */
    size_t runs_off;
    size_t hosts_off; /* into eng_core_alloc_hosts()/cores() */
    /* The steps (eng_core_step, counted from 1) of its start and of its
     * end, -1 until they happen: the order in which the core took and gave
     * back hosts. Times alone do not give it: one instant may take several
     * steps (a job of zero length started at t ends at t in a later step,
     * and the cores it frees go to jobs started in that step). */
    int64_t start_step;
    int64_t end_step;
    /* Joules of its runs (every run, a failed one requeued too) when the
     * platform has power values, else 0: on each host it holds, its cores
     * x the host's AllCores watts / cores, for as long as it holds them
     * (eng_energy.c has the rule and why it sums up). */
    double energy_j;
} eng_job_result;

/* Where a job runs, stored compactly: n consecutive platform hosts host,
 * host + 1, ..., host + n - 1, with `cores` cores taken on each. First-fit
 * allocation gives a job a few runs whatever its width, so the memory of
 * a replay does not grow with the width of its jobs. A job's runs list its
 * hosts in allocation order. */
typedef struct eng_host_run {
    int32_t host;
    int32_t n;
    int32_t cores;
} eng_host_run;

/* One sample of the time series, taken after each instant's step. A
 * replay keeps about two per job, so the row stays at 32 bytes: the
 * 32-bit fields pair up (no padding), and the busy units, which follow
 * from the busy hosts or cores, are not stored (eng_ts_busy_units). */
typedef struct eng_ts_row {
    double t_s;
    int32_t queued;     /* waiting jobs, all pools */
    int32_t running;    /* running jobs */
    int32_t busy_nodes; /* hosts with at least one allocated core */
    int32_t down_hosts; /* hosts down (host failures), all pools */
    int64_t busy_cores; /* allocated cores (whole hosts under node allocation) */
} eng_ts_row;

/* A sample's allocated units: a job holds whole hosts under node
 * allocation and cores under core allocation, so the units are the busy
 * hosts or the busy cores. */
static inline int64_t eng_ts_busy_units(const eng_ts_row *row, pol_alloc alloc)
{
    return alloc == POL_ALLOC_NODE ? row->busy_nodes : row->busy_cores;
}

/* What a host is doing, recorded over time by one mechanism (eng_energy.c)
 * that allocations, failures and idle shutdown all go through (a host
 * switched off is, like a failed one, not usable until it is on again). */
typedef enum eng_host_state {
    ENG_HOST_IDLE = 0,
    ENG_HOST_BUSY,          /* at least one core taken */
    ENG_HOST_DOWN,          /* failed (eng_failures) */
    ENG_HOST_OFF,           /* switched off */
    ENG_HOST_BOOTING,       /* switching on */
    ENG_HOST_SHUTTING_DOWN, /* switching off */
} eng_host_state;

/* The power side of a time-series sample, when the platform has power
 * values: parallel to eng_core_timeseries()'s rows. The watts hold from
 * the row's time to the next row's. */
typedef struct eng_energy_row {
    double power_w;
    int32_t off, booting, shutting_down; /* hosts in those states */
    int32_t busy;                        /* hosts running a job (busy_nodes less the hosts held
                   * for a job that waits for its boots) */
} eng_energy_row;

/* Energy over the window [start_s, end_s]: from time 0 (or the first
 * event, if earlier) to the last event, the span SimGrid's energy plugin
 * integrates over. Joules by where they go: jobs (the cores they hold),
 * idle (idle hosts, and the free cores of busy ones), off (down or
 * switched-off hosts), switching (booting and shutting down); the four
 * sum to total up to rounding. */
typedef struct eng_energy_totals {
    double start_s, end_s;
    double total_j, jobs_j, idle_j, off_j, switching_j;
    double peak_w;
    int64_t switch_ons, switch_offs;
} eng_energy_totals;

typedef struct eng_core eng_core;

/* Creates the core and one policy instance per pool (init() validates the
 * options). platform and prep are borrowed for the core's life. */
int eng_core_create(const eng_platform *platform, const eng_prepared *prep,
                    const eng_core_opts *opts, eng_core **out, eng_diag *d);

void eng_core_destroy(eng_core *c);

/* Phase 1 of a step: moves to the next event time *t and lists the jobs
 * that end then (borrowed until the next call). Returns false when nothing
 * is left to do. */
bool eng_core_begin(eng_core *c, double *t, const int32_t **ending, size_t *n_ending);

/* Phase 2: applies every event at the time begin() returned and calls the
 * policies. On error the core stays consistent but must not be stepped
 * again. */
int eng_core_step(eng_core *c, eng_diag *d);

/* The jobs started by the last step (borrowed until the next step). */
size_t eng_core_started(const eng_core *c, const int32_t **jobs);

/* The running jobs their policy killed in the last step (pol_out_kill;
 * borrowed until the next step): they now end at this instant, and a
 * driver running their executions cuts them here. */
size_t eng_core_stopped(const eng_core *c, const int32_t **jobs);

/* What the i-th job started by the last step costs a driver: its slowest
 * allocated host (the first of equally slow ones in allocation order) and
 * how long that host runs, i.e. from its start to its end, with the kill at
 * the requested time and the cut at a host failure applied. */
void eng_core_started_work(const eng_core *c, size_t i, int32_t *host, double *duration_s);

/* Node-seconds lost to failures: units x time of every run a failure cut
 * (requeued or not). The driver needs nothing special for failures: a run
 * that a failure will cut is given its shortened duration when it starts,
 * because failures are drawn independently of the schedule. */
double eng_core_wasted_node_s(const eng_core *c);

/* Wall-clock seconds spent in the policy's hooks and decisions (the only
 * timing the core takes; not deterministic). */
double eng_core_policy_wall_s(const eng_core *c);

/* The policy's report (pol_type.report) into buf: one pool's as is,
 * several pools' as "LABEL: report; LABEL: report" (pools with an empty
 * report left out); "" when the policy has none. */
void eng_core_policy_report(const eng_core *c, char *buf, size_t len);
double eng_core_wasted_unit_s(const eng_core *c); /* the same in units */

/* Drives the core to the end without executions (steps until begin()
 * returns false). */
int eng_core_run(eng_core *c, eng_diag *d);

/* The longest policy report eng_core_finish keeps, terminator included
 * (what the report's readers ask for). */
#define ENG_CORE_REPORT_LEN 1024

/* Ends a finished run: keeps the policy's report (its first
 * ENG_CORE_REPORT_LEN - 1 characters) and frees what only the run needed
 * (the policy instances, the jobs' view, the queues), about 130 bytes per
 * job, before the metrics and the outputs allocate theirs. The results,
 * the allocations, the time series and the counters stay; begin() and
 * step() must not be called again. */
void eng_core_finish(eng_core *c);

/* Results, valid until destroy. */
const eng_job_result *eng_core_results(const eng_core *c);
/* Every allocation's runs; a job's are at its runs_off (n_runs of them). */
const eng_host_run *eng_core_alloc_runs(const eng_core *c);
/* The allocation the run used (node or core). */
pol_alloc eng_core_alloc_mode(const eng_core *c);
/* The same expanded host by host, at each job's hosts_off: platform host
 * indices and the cores taken on each. Built on the first call after a step
 * (memory proportional to all jobs' widths: for tests and small runs; the
 * outputs read the runs). NULL when out of memory. */
const int32_t *eng_core_alloc_hosts(const eng_core *c);
const int32_t *eng_core_alloc_cores(const eng_core *c);
const eng_ts_row *eng_core_timeseries(const eng_core *c, size_t *n);
/* The energy rows, parallel to the time series; NULL (n 0) when the
 * platform has no power values. */
const eng_energy_row *eng_core_energy_rows(const eng_core *c, size_t *n);
/* The energy so far; false (nothing written) without power values. */
bool eng_core_energy(const eng_core *c, eng_energy_totals *out);
size_t eng_core_jobs_left(const eng_core *c); /* not yet ended */
size_t eng_core_steps(const eng_core *c);

#endif
