/* eng_policy.h — the policy boundary: what a scheduling policy sees and
 * what it may answer.
 *
 * A policy is pure C. It makes no SimGrid call and owns no engine object; it
 * sees the world only through a read-only pol_view (the current time, the
 * waiting queue in submit order, the running jobs ordered by expected end,
 * the free capacity and the hosts' static attributes) and answers with
 * decisions written into a pol_out: start job J now (on hosts the engine
 * picks, or on hosts the policy names), promise that J will start by time
 * T, wake me up at time T, and (for an external scheduler's answers)
 * reject waiting job J or kill running job J. The engine applies and
 * checks every decision (an impossible one stops the run with ENG_POLICY
 * and a message), then
 * calls the policy again after the next event. All events of one instant are
 * applied before schedule() is called once for that instant.
 *
 * One policy instance serves one pool: the hosts that serve a set of SWF
 * queues (ForHLR II has two, the compute nodes and the visualisation nodes;
 * most platforms have one). A policy therefore never has to think about
 * queue routing.
 *
 * Capacity is counted in units: whole hosts under node allocation (a job
 * needs ceil(procs / cores per node) of them) or cores under core
 * allocation. Any `units` free units can host any job needing that many,
 * whatever the hosts, so FCFS and the backfilling family plan on counts and
 * let the engine pick hosts (lowest names first).
 *
 * Islands (--islands strict, the default, on a pool whose hosts name two
 * islands or more; see eng_platform.h): a job needing at most the largest
 * island's units must run within one island; a larger one may span them.
 * Then "fits now" means "pol_island_pick() finds a place", not "units <=
 * free_units". The view gives the islands' capacities and free units, and
 * each host its island; the engine places a start the policy leaves to it
 * exactly as pol_island_pick() says, so a policy can follow its own starts
 * with pol_island_take(). A policy that does so carries POL_FLAG_ISLANDS;
 * the engine refuses to run one that does not on a pool with islands
 * (ENG_USAGE, unless --islands ignore). With n_islands == 0 nothing changes.
 *
 * Times are simulated seconds (double). Planning uses estimate_s, never the
 * real run time, which policies cannot see. The engine guarantees that a
 * job never runs longer than its estimate (it is killed at its requested
 * time, or the estimate is extended to cover its run; see --walltime), so a
 * running job's expected_end_s is an upper bound of its end.
 *
 * The one exception: --init-planned no (eng_prep.h), where estimate_s is
 * the request without the type's initialization, which the job still runs
 * first, and the view's init_s is 0 (a policy plans every job as if it had
 * none). A running job may then outlive its estimate by up to its
 * initialization. The engine shows it as ending now: before every hook and
 * every schedule() call a running job's expected_end_s is max(start_s +
 * its planned length, now_s), an estimate that may still prove short.
 * Only policies that plan from the view afresh at every call, and so cope
 * with that, carry POL_FLAG_REPLANS; the engine refuses the others in this
 * mode (ENG_USAGE). Promises may break there because a job overran (see
 * pol_promise).
 *
 * Registry: every policy is one `const pol_type` in its own file, listed in
 * policies/pol_registry.c (pol_registry.h); `--policy NAME` looks it up;
 * options arrive as key=value pairs, checked by the engine against the
 * policy's declared options and read typed in init() (see "options"). The
 * GSL's rng/multimin families are the model for this type/state split.
 * What a policy supports (core allocation, islands, --init-planned no) is
 * declared in its flags, which the engine checks before init.
 *
 * Layering. The engine owns this header and its implementation
 * (eng_policy.c: the decision buffer; the options' check, parsing and
 * typed getters; the lookups): the engine includes and calls nothing in
 * policies/, and policies depend downward on it, as libuv's core owns the
 * interface its backends implement. The names keep the pol_ prefix because
 * they are the interface policies are written against. Only the command
 * line and the tests link the registry, the table of every policy.
 */
#ifndef ENG_POLICY_H
#define ENG_POLICY_H

#include "eng_error.h" /* the hooks' result codes */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A job as a policy sees it. Owned by the engine; valid for the whole run. */
typedef struct pol_job {
    int32_t idx;       /* engine index, 0..n-1 in (submit time, file order) */
    int64_t id;        /* SWF job number */
    double submit_s;   /* submit time */
    double estimate_s; /* duration to plan with (>= 0) */
    int32_t units;     /* units needed (>= 1, <= the pool's total) */
    int32_t procs;     /* processors the log gives */
    int64_t queue;     /* SWF queue, partition, user, group, executable */
    int64_t partition;
    int64_t user;
    int64_t group;
    int64_t app;
    int64_t type;          /* job type (see --type-field) */
    double init_s;         /* its type's initialization time (0: none, or not planned) */
    double start_s;        /* while running: start time (under idle shutdown,
                            * when it was given its hosts: it runs once they
                            * are up, by start_s + boot_delay_max_s); else -1 */
    double expected_end_s; /* while running: start_s + estimate_s (under idle
                            * shutdown: see pol_view.boot_delay_max_s; never before
                            * now_s); else -1 */
    size_t alloc_off;      /* while running: its hosts are view->alloc_pos[alloc_off ..] */
    int32_t n_alloc;       /*   (n_alloc of them; cores taken in view->alloc_cores) */
} pol_job;

/* A host of the pool: static attributes plus its current free cores. */
typedef struct pol_host {
    const char *name;
    int32_t index;          /* host index in the platform (name order) */
    double speed_flops;     /* per core */
    int32_t cores;          /* cores as the scheduler counts them */
    int32_t free_cores;     /* cores not allocated now */
    double price_per_s;     /* 0 when the platform gives no price */
    double occupation_prob; /* platform property occupation_probability (0: none) */
    bool up;                /* false while the host is down (failures on): free_cores is 0 */
    /* When a job given this host now could begin on it: at or before now_s
     * (-INFINITY) while it is on; with idle shutdown (eng_core.h,
     * eng_power_save) now_s + its boot time while it is off, the end of its
     * shutdown plus its boot time while it shuts down, the end of its boot
     * while it boots for a job (then free_cores is 0); INFINITY while it is
     * down (failures). One field for every reason a host is not usable. */
    double usable_at_s;
    int32_t island; /* its island, 0..n_islands-1; -1 when the view has none */
} pol_host;

typedef enum pol_alloc { POL_ALLOC_NODE = 0, POL_ALLOC_CORE = 1 } pol_alloc;

/* A reservation's window on the pool (--reservations, engine/eng_resv.h):
 * its hosts run no job in [start_s, end_s), and a job may start on one of
 * them before the window only if it ends by start_s (start + estimate_s,
 * which no job outlives). The engine places a start's units first fit in
 * host order on free hosts no window holds over [now_s, now_s +
 * estimate_s), and refuses a start that has too few of them or names one
 * held (ENG_POLICY). */
typedef struct pol_resv {
    double start_s, end_s;
    const int32_t *pos; /* its hosts: positions in pol_view.hosts, ascending */
    int32_t n_pos;
    int32_t units; /* what they count for (hosts, or their cores under core allocation) */
} pol_resv;

typedef struct pol_view {
    double now_s;
    pol_alloc alloc;
    int32_t total_units; /* capacity of the pool (less the units a power cap
                                  * withholds: POL_FLAG_POWER_CAP) */
    int32_t free_units;  /* free now */
    /* waiting jobs in submit order: by (submit_s, idx), submit_s when the
     * job was submitted. Without user feedback that is idx order (jobs are
     * indexed by submit); with feedback (eng_feedback.h) a job may be
     * submitted after later-indexed jobs, and the queue still follows
     * submit_s, so "the queue's order" means submit order either way and
     * never idx order by itself. A policy that keeps jobs of its own by
     * idx, or breaks ties by idx (conservative's reservations, Slurm's
     * priority ties), then follows the logged submit order there. */
    const pol_job *const *queue;
    size_t n_queue;
    /* running jobs by (expected_end_s, idx); with --init-planned no, by
     * (planned end, idx): expected_end_s = max(planned end, now_s) is a
     * non-decreasing function of the planned end, so expected_end_s is
     * still non-decreasing along the array and only the ties of the overdue
     * jobs (all shown ending now_s) follow their planned ends, not idx.
     * pol_shadow counts every job ending at the shadow time, so nothing
     * depends on the order of ties. */
    const pol_job *const *running;
    size_t n_running;
    const pol_host *hosts; /* the pool's hosts in name order */
    size_t n_hosts;
    double ref_speed_flops;      /* speed at which the log's run times hold */
    const int32_t *alloc_pos;    /* hosts of running jobs: positions in hosts[] */
    const int32_t *alloc_cores;  /* cores each of them takes */
    int32_t n_islands;           /* 0: no island constraint (the pool is one block) */
    const int32_t *island_units; /* capacity of each island, in units */
    const int32_t *island_free;  /* free units of each island now (down hosts: none) */
    /* Idle shutdown: the longest wait between giving a job free hosts and
     * its start, over the platform's hosts (shutdown plus boot time, and
     * the resume rate's longest wait), 0 without
     * idle shutdown. Hosts that are off count as free: a job given them
     * starts when they have booted (its pol_job.start_s is when it was
     * given them, the outputs' start when they are up). A host free at t may be switched off by then, so
     * a plan that gives a job hosts at t sees it start by t + this and end
     * by t + this + estimate_s; with POL_FLAG_BOOT_PLANS its promises say
     * so (the boot included) and the checker holds the job's start after
     * the boot to them. It includes the longest wait --resume-rate can
     * impose (eng_power_save.c). A running job's expected_end_s is
     * start_s + (this + its estimate), whatever its boots took, so that
     * plans made before its start still hold. */
    double boot_delay_max_s;
    /* User feedback is on: the queue's (submit_s, idx) order may differ
     * from idx order (see queue). */
    bool feedback;
    /* Reservations (pol_resv): the windows on this pool's hosts that have
     * not ended, by (end_s, file order); none without --reservations.
     * Shown only to policies with POL_FLAG_RESERVATIONS. */
    const pol_resv *resv;
    size_t n_resv;
    /* The platform has power values (eng_power.h) and energy_j is the
     * modelled energy of all its hosts from time 0 (or the first event,
     * if earlier) to now_s, in joules (summary.json's energy.total_j
     * so far); without power values has_energy is false and energy_j 0. */
    bool has_energy;
    double energy_j;
} pol_view;

/* A start decision. hosts_off/n_hosts index pol_out.hosts; n_hosts == 0
 * lets the engine pick (lowest-named free hosts). */
typedef struct pol_start {
    int32_t job_idx;
    int32_t n_hosts;
    size_t hosts_off;
    int32_t packet; /* -1, or the idx of its packet's first member */
} pol_start;

/* A promise: job_idx will start no later than start_by_s. The engine's
 * invariant checker (--check, every test) holds the policy to the first
 * promise it made for each job. With --init-planned no, a promise made at
 * t_p is excused when a job of the pool ran past its planned end at some
 * time between t_p and start_by_s (it began to overrun by start_by_s and
 * was still running after t_p): the plan the promise rested on was short,
 * not the policy wrong. Every other promise is held as always. */
typedef struct pol_promise {
    int32_t job_idx;
    double start_by_s;
} pol_promise;

/* The decisions of one schedule() call. Owned by the engine, cleared before
 * each call; fill it only through the functions below. */
typedef struct pol_out {
    pol_start *starts;
    size_t n_starts, cap_starts;
    int32_t *hosts; /* positions in view->hosts, concatenated per start */
    size_t n_hosts, cap_hosts;
    pol_promise *promises;
    size_t n_promises, cap_promises;
    int32_t *rejects; /* idx of waiting jobs to reject (pol_out_reject) */
    size_t n_rejects, cap_rejects;
    int32_t *kills; /* idx of running jobs to kill (pol_out_kill) */
    size_t n_kills, cap_kills;
    double wakeup_s; /* earliest requested wake-up, INFINITY if none */
    int oom;         /* set when an append failed; the engine reports it */
    char err[512];   /* why schedule() failed, in words (pol_out_error), or "" */
} pol_out;

/* Start job now on hosts the engine picks. */
void pol_out_start(pol_out *out, const pol_job *job);

/* Start job now on the given hosts (positions in view->hosts). Under node
 * allocation they must be job->units distinct free hosts; under core
 * allocation the engine takes free cores from them in the order given. */
void pol_out_start_on(pol_out *out, const pol_job *job, const int32_t *hosts, size_t n);

/* Start job now as a member of a packet: jobs of one type that share one
 * initialization (the job-bundling study, Baranov & Lyakhovets 2022). The
 * packet is named by the idx of its first member (packet == job->idx for
 * it) and runs on the n named hosts, each taken whole. The first member pays
 * the type's initialization; every later member skips it and must start on
 * exactly the same hosts at the instant the previous member ended (the
 * checker enforces both). A member runs moldably on all the packet's
 * hosts: its processing and its requested time are scaled by units / packet
 * units (the study's linear scalability), so its expected end is
 * start + (estimate_s - init_s) * units / packet units (+ init_s for the
 * first member). */
void pol_out_start_packet(pol_out *out, const pol_job *job, int32_t packet, const int32_t *hosts,
                          size_t n);

/* Promise that job starts no later than start_by_s. */
void pol_out_promise(pol_out *out, const pol_job *job, double start_by_s);

/* Ask to be called again at at_s even if no job event happens then. */
void pol_out_wakeup(pol_out *out, double at_s);

/* Reject a waiting job (Batsim's REJECT_JOB): it leaves the queue without
 * running and ends now, REJECTED in jobs.csv (success 0). The job must be
 * waiting in this pool and not started by the same call; the engine
 * stops the run otherwise (ENG_POLICY). No hook follows. */
void pol_out_reject(pol_out *out, const pol_job *job);

/* Kill a running job now (Batsim's KILL_JOB): it ends at this instant,
 * COMPLETED_KILLED in jobs.csv (success 0), and its hosts come free in a
 * step of the same instant, after which on_finish and schedule() follow as
 * for any end. The job must be running in this pool, started before this
 * call and not a packet member (ENG_POLICY otherwise). Rejections and
 * kills apply after the call's starts. */
void pol_out_kill(pol_out *out, const pol_job *job);

/* Says why the schedule() call now failing fails ("message 7 from the
 * scheduler, EXECUTE_JOB w0!12: host 3 is already allocated"), printf
 * style, and returns code, so that `return pol_out_error(out, ENG_POLICY,
 * ...)` ends the call: the engine reports the text in place of the
 * code's generic one. For a policy whose decisions come from outside the
 * process (POL_FLAG_EXTERNAL), where a bad decision is bad input. */
int pol_out_error(pol_out *out, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

void pol_out_init(pol_out *out);
void pol_out_reset(pol_out *out);
void pol_out_fini(pol_out *out);

/* One key=value option. Strings are borrowed for the call. */
typedef struct pol_kv {
    const char *key;
    const char *value;
} pol_kv;

typedef struct pol_option pol_option; /* an option's declaration, below */

/* What a policy learns once, at init. */
typedef struct pol_setup {
    pol_alloc alloc;
    int32_t total_units;
    const pol_host *hosts; /* static attributes (free_cores = cores) */
    size_t n_hosts;
    double ref_speed_flops;
    size_t n_jobs;         /* every pol_job.idx is below this */
    uint64_t seed;         /* for policies that draw random numbers (GSL) */
    const pol_kv *options; /* --policy-opt pairs, checked (pol_check_options) */
    size_t n_options;
    const pol_option *declared; /* the policy's option table, for the pol_opt_* getters */
    int32_t n_islands;          /* as in pol_view */
    const int32_t *island_units;
    /* Each job's run time at the reference speed (n_jobs entries, by idx),
     * for a bridge that describes the jobs to a scheduler outside the
     * process in a protocol that carries them (Batsim's delay profiles).
     * A policy plans with estimate_s and never reads this. */
    const double *run_s;
} pol_setup;

/* What a policy guarantees (the invariant checker verifies ORDERED and
 * HEAD_GREEDY after every call) and what it supports (the engine refuses a
 * run the policy does not declare it can serve). `batchlab policies` shows
 * them. */
enum {
    /* Starts jobs only in queue order (FCFS). */
    POL_FLAG_ORDERED = 1u << 0,
    /* Never leaves the queue head waiting while it fits in the free units. */
    POL_FLAG_HEAD_GREEDY = 1u << 1,
    /* Plans with the view's islands: starts only what pol_island_pick()
     * can place (see "Islands" above). */
    POL_FLAG_ISLANDS = 1u << 2,
    /* Copes with running jobs that outlive their estimates: plans afresh
     * at every call from the view, taking a planned end that has passed as
     * now (pol_shadow does), and keeps no plan whose breaking would be an
     * error. The engine runs only these under --init-planned no (see
     * "Times" above). */
    POL_FLAG_REPLANS = 1u << 3,
    /* Runs under core allocation (--alloc core): plans in cores, of hosts
     * of any core count. The engine refuses a policy without it there
     * (ENG_USAGE: "use --alloc node"). */
    POL_FLAG_CORES = 1u << 4,
    /* With POL_FLAG_ISLANDS and POL_FLAG_CORES: plans with islands under
     * core allocation too. Without it the engine refuses the policy on a
     * pool with islands under --alloc core (ENG_USAGE: "--islands
     * ignore"); under node allocation POL_FLAG_ISLANDS suffices. */
    POL_FLAG_ISLANDS_CORES = 1u << 5,
    /* Its decisions come from outside the process (a scheduler at the
     * other end of a socket, policies/pol_batsim.c): it runs only with
     * that peer, so the suites that run every registered policy on their
     * own leave it out, and its own suite runs it with its peer. */
    POL_FLAG_EXTERNAL = 1u << 6,
    /* Plans with pol_view.boot_delay_max_s under idle shutdown: a job
     * given hosts at t starts by t + boot_delay_max_s, its promises include
     * that, and backfilled jobs are held to end, boot included, before the
     * reservations they pass. Without it a policy still runs under idle
     * shutdown, but the checker holds it to none of its promises (as under
     * failures): a boot may delay any of them. */
    POL_FLAG_BOOT_PLANS = 1u << 7,
    /* Starts jobs within the view's total_units and free_units, which
     * --power-cap lowers to the units that may run within the cap
     * (eng_core.h, power_cap_w): it plans with them and names no more
     * hosts than they allow. The engine refuses a policy without it under
     * a cap (ENG_USAGE). */
    POL_FLAG_POWER_CAP = 1u << 8,
    /* Plans around reservations (pol_view.resv): starts no job that would
     * overlap a window on its hosts, and its promises allow for them. The
     * engine refuses a policy without it under --reservations
     * (ENG_USAGE). */
    POL_FLAG_RESERVATIONS = 1u << 9,
    /* Schedules from the queue as shown at each call, so that the engine
     * may leave out of pol_view.queue the jobs a limit window keeps from
     * starting now (--reservations MaxTime=, eng_resv.h) and show them
     * again when a window admits them: a job shown again is handled as one
     * that waited unseen (no plan or promise kept for it). The engine
     * refuses a policy without it under limit windows (ENG_USAGE). */
    POL_FLAG_TIME_LIMITS = 1u << 10,
};

/* Island placement, shared by the engine and the policies. */
enum {
    POL_ISLAND_SPAN = -1, /* larger than every island: free units island by island */
    POL_ISLAND_NONE = -2, /* cannot be placed now */
};

/* Where a start needing `units` goes, given each island's capacity and
 * free units: a job no larger than the largest island goes to the island
 * with the fewest free units that suffice (best fit; ties: the lowest
 * island), or POL_ISLAND_NONE when none has enough free; a larger job
 * spans (POL_ISLAND_SPAN) when the islands' free units add up to `units`,
 * else POL_ISLAND_NONE. O(n_islands). */
int32_t pol_island_pick(int32_t n_islands, const int32_t *island_units, const int32_t *island_free,
                        int32_t units);

/* Takes `units` from island_free as the engine does for `pick` (an island
 * from pol_island_pick, or POL_ISLAND_SPAN: islands in order, each as far
 * as its free units go). */
void pol_island_take(int32_t n_islands, int32_t *island_free, int32_t pick, int32_t units);

/* Adds the units a running job holds in each island to per_island (n_islands
 * entries), from its hosts in view->alloc_pos / alloc_cores. */
void pol_island_held(const pol_view *v, const pol_job *job, int32_t *per_island);

/* ---- options ------------------------------------------------------------
 *
 * A policy declares each option it accepts once, as a row of its type's
 * `options` table: the key, the type of its value, what the value may be
 * (a range, the words of a choice), the default and a line of help. The
 * engine owns the rest (eng_policy.c): before init it checks the pairs
 * given (--policy NAME:K=V, --policy-opt K=V) against the table — an
 * unknown key, a key given twice, a value that is malformed or out of
 * range is ENG_INVAL with a message naming the policy, the option and
 * what was expected — so that init finds every value valid and reads it
 * typed with the pol_opt_* getters below, the declared default when the
 * option is absent. No policy parses an option's text. `batchlab
 * policies` prints the table (pol_option_describe), and README.md's
 * Policies table is held to it by a test.
 *
 * The structs are plain C written with designated initializers; a field
 * the type does not use is left out (zero). They form a
 * versioned interface for policies built out of tree against the
 * installed header: POL_INTERFACE_VERSION (below) counts its changes, and
 * a library built for another version is refused. */

typedef enum pol_opt_type {
    POL_OPT_INT = 1,  /* a decimal integer in [min, max]; def_int */
    POL_OPT_REAL,     /* a finite number in the range lo..hi (open_lo, open_hi); def_real */
    POL_OPT_CHOICE,   /* one of the words of `choices`; def_int: the index of the default
                         (0, the first, when left out); read as the index */
    POL_OPT_BOOL,     /* yes or no; def_int 1 for yes, 0 (left out) for no */
    POL_OPT_STRING,   /* any text, such as a file's path, handed over as given */
    POL_OPT_DURATION, /* a time in Slurm's formats, MIN, MIN:SEC, H:MIN:SEC, D-H,
                         D-H:MIN or D-H:MIN:SEC, read in seconds; range lo..hi as
                         for REAL (seconds); def_real in seconds */
    POL_OPT_WORDS,    /* a comma-separated list of words of `choices` (at most 63;
                         may be empty, words may repeat); read as a set: bit i
                         for choices[i]; def_int the set */
    POL_OPT_PAIRS,    /* a comma-separated list of integer pairs A:B (may be empty);
                         B in [min, max]; metavar names the two ("QUEUE:FACTOR") */
} pol_opt_type;

/* The words of a choice, NULL-terminated, for pol_option.choices. */
#define POL_CHOICES(...) ((const char *const[]){__VA_ARGS__, NULL})

struct pol_option {
    const char *key;
    pol_opt_type type;
    const char *help;           /* what it does: "order in which later jobs are tried" */
    int64_t min, max;           /* INT, and the second number of PAIRS: the range */
    double lo, hi;              /* REAL, DURATION: the range (-INFINITY, INFINITY: none) */
    bool open_lo, open_hi;      /*   an end excluded: lo 0 open is "> 0" */
    const char *const *choices; /* CHOICE, WORDS: POL_CHOICES("queue", "sjf") */
    int64_t def_int;            /* the default of INT, CHOICE, BOOL, WORDS */
    double def_real;            /* the default of REAL, DURATION */
    const char *absent;         /* set when no value stands for the default: what
                                 * absence means, in words ("the pool's mean price");
                                 * ask pol_opt_given(), as the getters of an absent
                                 * option return def_int or def_real (0 when left
                                 * out), or NULL */
    const char *unit;           /* INT, REAL: the unit `batchlab policies` names ("seconds") */
    const char *metavar;        /* PAIRS: the two numbers' names, "A:B"; STRING: what
                                 * it names ("a file of 'USER SHARES' lines") */
};

/* One pair of a POL_OPT_PAIRS value. */
typedef struct pol_opt_pair {
    int64_t a, b;
} pol_opt_pair;

/* Hook results: 0, or a negative ENG_ code (eng_error.h) with a message in
 * err (errlen bytes). */
typedef struct pol_type {
    const char *name;
    const char *summary;  /* one line for `batchlab --help` */
    const char *citation; /* "Lifka 1995; Mu'alem & Feitelson 2001" */
    unsigned flags;
    size_t state_size;
    const pol_option *options; /* terminated by {0} (key NULL); NULL for none */
    int (*init)(void *state, const pol_setup *setup, char *err, size_t errlen);
    void (*fini)(void *state);
    /* job has just been appended to the queue (view already shows it). */
    int (*on_submit)(void *state, const pol_view *view, const pol_job *job);
    /* job has just ended at view->now_s (it is no longer in view->running;
     * job->start_s and expected_end_s still tell where it was). */
    int (*on_finish)(void *state, const pol_view *view, const pol_job *job);
    /* Hosts of the pool went down or came back up at view->now_s (host
     * failures; see pol_host.up); jobs killed by it have been ended
     * (on_finish) or submitted again (on_submit) already. Optional. */
    int (*on_capacity)(void *state, const pol_view *view);
    /* Decide. The view is the same as the hooks saw at this instant. */
    int (*schedule)(void *state, const pol_view *view, pol_out *out);
    /* What the policy tells the run's manifest, once at the end, as
     * space-separated key=value pairs ("backend=cpu refinements=812");
     * deterministic (no timings: the engine times policies itself). Writes
     * a NUL-terminated string of at most len bytes. Optional. */
    void (*report)(void *state, char *buf, size_t len);
} pol_type;

/* The queued job with engine index idx, or NULL. A binary search by idx,
 * O(log queue), which finds it whenever the queue is in idx order (always
 * without user feedback); with feedback (v->feedback), when that misses,
 * a scan of the queue, O(queue), since the queue's (submit_s, idx) order
 * need not be idx order and only idx is given. */
const pol_job *pol_queue_find(const pol_view *v, int32_t idx);

/* Checks options against type->options before a run (the engine calls it
 * before init): every key must be declared and appear once, and every
 * value must be of its option's type and within its range. Returns 0, or
 * ENG_INVAL with the first problem in err: "unknown option 'k' for policy
 * easy (accepted: a, b)", "option 'k' given twice for policy easy",
 * "policy easy: option backfill_order: expected queue or sjf, got 'lifo'". */
int pol_check_options(const pol_type *type, const pol_kv *options, size_t n, char *err,
                      size_t errlen);

/* Checks that type->options is a well-formed table: each row has a key
 * (none twice), a help text and a declared type; a choice or a list of
 * words has 1 to 63 words and nothing else has words; a choice's default
 * is one of its words; ranges are in order (min <= max, lo <= hi). Returns
 * 0, or ENG_POLICY with the first problem in err ("policy easy: option
 * backfill_order: its default is not one of its 2 words"). The registry's
 * tests hold every built-in policy to it; the loader of policy libraries
 * refuses a library that fails it. */
int pol_check_declarations(const pol_type *type, char *err, size_t errlen);

/* The declaration of key in a table terminated by {0}, or NULL. */
const pol_option *pol_option_find(const pol_option *table, const char *key);

/* Writes what o accepts, in words ("an integer in 1..1024", "queue|sjf",
 * "a Slurm time > 0"), and its default as a user would type it ("32",
 * "queue", "7-0"; in parentheses where no value stands for it: "(the
 * pool's mean price)"); each NUL-terminated within its len bytes. For
 * `batchlab policies` and the tests. */
void pol_option_describe(const pol_option *o, char *values, size_t values_len, char *def,
                         size_t def_len);

/* The typed values init reads. `key` must be declared in the policy's
 * table (setup->declared) with the getter's type (an assertion: our own
 * bug otherwise); the value is the one given, which pol_check_options has
 * accepted, or the declared default. */
bool pol_opt_given(const pol_setup *setup, const char *key);
int64_t pol_opt_int(const pol_setup *setup, const char *key);     /* INT */
double pol_opt_real(const pol_setup *setup, const char *key);     /* REAL, DURATION (s) */
int pol_opt_choice(const pol_setup *setup, const char *key);      /* CHOICE: the index */
bool pol_opt_bool(const pol_setup *setup, const char *key);       /* BOOL */
uint64_t pol_opt_words(const pol_setup *setup, const char *key);  /* WORDS: the set */
const char *pol_opt_str(const pol_setup *setup, const char *key); /* STRING (borrowed as
                                                                     setup->options) */
/* PAIRS: writes up to cap pairs to out (NULL when cap is 0) and returns how
 * many the value has: call with cap 0 to size the array. */
size_t pol_opt_pairs(const pol_setup *setup, const char *key, pol_opt_pair *out, size_t cap);

/* A decimal integer, the whole text (strtoll's syntax, in range): the
 * parser of INT options, for the numbers of a file an option names. */
bool pol_parse_int(const char *text, int64_t *out);

/* ---- policies in shared libraries --------------------------------------
 *
 * `--policy PATH.so[:key=value...]` (a name holding '/' or ending in .so)
 * loads a policy compiled outside the tree against this header and
 * eng_error.h, which `cmake --install` puts in PREFIX/include/batchlab
 * (`pkg-config --cflags batchlab`). The library exports two symbols,
 * which POL_EXPORT(type) defines:
 *
 *   const unsigned batchlab_policy_interface;  its POL_INTERFACE_VERSION
 *   const pol_type *const batchlab_policy;     the policy's type
 *
 * The command line (policies/pol_solib.c) refuses a library whose version
 * differs from its own, or that lacks either symbol, before any run
 * starts; the policy then runs as a built-in one does (options checked,
 * checker on with --check). The functions declared above (pol_out_*,
 * pol_island_*, pol_queue_find, pol_check_options, pol_opt_*,
 * pol_option_describe, pol_parse_int) and
 * those of eng_error.h are defined in the batchlab executable, which
 * exports them to the libraries it loads; nothing else of batchlab is
 * part of the contract.
 *
 * The version is the contract's: it goes up by one whenever pol_job,
 * pol_host, pol_view, pol_setup, pol_option, pol_type, the pol_out
 * structs or the functions above change in layout, meaning or signature,
 * since a library compiled against the old header would read the new
 * structs wrongly. (Defining it before the include builds a library for
 * another version, which the tests use to check the refusal.)
 */
/* 1: the first interface; 2: typed options (pol_option, pol_opt_*) and
 * the capability flags POL_FLAG_CORES and POL_FLAG_ISLANDS_CORES; 3:
 * pol_setup.run_s, pol_out.err and pol_out_error, POL_FLAG_EXTERNAL,
 * pol_out_reject and pol_out_kill (their arrays in pol_out); 4: idle
 * shutdown: pol_host.usable_at_s, pol_view.boot_delay_max_s,
 * POL_FLAG_BOOT_PLANS; the power cap: POL_FLAG_POWER_CAP, total_units and
 * free_units lowered to the units that run within it; 5: reservations:
 * pol_resv, pol_view.resv and n_resv, POL_FLAG_RESERVATIONS; 6: limit
 * windows: POL_FLAG_TIME_LIMITS, pol_view.queue without the jobs they keep
 * from starting. */
#ifndef POL_INTERFACE_VERSION
#define POL_INTERFACE_VERSION 6u
#endif

/* The exported symbols' names, for the loader's dlsym. */
#define POL_INTERFACE_SYMBOL "batchlab_policy_interface"
#define POL_TYPE_SYMBOL "batchlab_policy"

/* Exports type (a `const pol_type` of the library) and the version the
 * library is compiled for; once, at file scope, in one file. */
#define POL_EXPORT(type)                                                                           \
    extern const unsigned batchlab_policy_interface;                                               \
    extern const pol_type *const batchlab_policy;                                                  \
    const unsigned batchlab_policy_interface = POL_INTERFACE_VERSION;                              \
    const pol_type *const batchlab_policy = &(type)

#endif
