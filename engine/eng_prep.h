/* eng_prep.h — from a workload and a platform to the jobs the engine will
 * simulate: which processor field, how many units, which pool, what the
 * policy plans with and when a job is killed. Pure C.
 *
 * Rules (also in README "Replay semantics"):
 * - Processors: field 5 (allocated) when > 0, else field 8 (requested); or
 *   the reverse with procs_field = ENG_PROCS_REQ.
 * - Units: under node allocation ceil(procs / cores per node of the pool),
 *   under core allocation procs.
 * - Pool: SWF queue (field 15), or partition (field 16) on a platform whose
 *   hosts name partitions, routed by eng_platform_route().
 * - Dropped, each counted under its reason and never silently:
 *   no-runtime (field 4 is -1), no-procs (fields 5 and 8 both <= 0),
 *   no-pool (no host serves its queue), too-large (more units than its
 *   pool), no-submit (field 2 is -1: the job cannot be placed in time),
 *   duplicate-id (a job number that an earlier line carries: the job of
 *   the smallest source line keeps it, or at equal lines the earlier job of
 *   the array; checked before the other reasons), over-queue-limit (the
 *   platform's queue_limits give the job's queue a max_nodes below the
 *   job's nodes, or a max_runtime_s below its requested time: Slurm with
 *   EnforcePartLimits rejects such a job at submission; eng_platform.h).
 *   The reader has merged
 *   partial-execution lines by then, so only true repeats are dropped, and
 *   job numbers are unique among the simulated jobs.
 * - Estimate (what policies plan with) and kill limit:
 *   kill mode, requested time (field 9) > 0: estimate = kill = requested.
 *   extend mode: estimate = max(requested, run time on the pool's slowest
 *   host), never killed. No requested time (-1 or 0), either mode: estimate =
 *   run time on the pool's slowest host (counted as "estimate from run
 *   time"), never killed. So no job ever runs past its estimate (except
 *   by its initialization when that is not planned, below), which keeps
 *   EASY's and conservative's guarantees true on heterogeneous hosts.
 *   Estimates under one second are planned as one second: a profile cannot
 *   reserve a zero-length window.
 * - Queue limits: a job without a requested time whose queue has a
 *   max_runtime_s is given that time as its request (Slurm gives a job
 *   without a time limit its partition's MaxTime), so it is planned with it
 *   and, in kill mode, killed at it (n_queue_time counts them).
 * - Memory (only when the platform gives host memory, eng_platform.h):
 *   SWF field 10, the requested memory per processor in KB (1 KB = 1024
 *   bytes), against the memory of the job's pool, planned with its
 *   smallest host (mem_min_b) or its smallest memory per core
 *   (mem_per_core_min_b), so that the job fits wherever in its pool it
 *   goes. Field 7 (used memory) is not a request and is never read; a job
 *   with field 10 at -1 or 0 asks for no memory. As Slurm does when a
 *   job's memory per CPU exceeds MaxMemPerCPU (slurm.conf), a job whose
 *   processors need more memory than their share takes more of them:
 *   under core allocation units = max(procs, ceil(procs x mem / memory per
 *   core)), so memory bounds how many jobs share a host (the cores a job
 *   holds always carry the memory it uses); under node allocation each
 *   host runs at most min(cores, floor(host memory / mem)) of its
 *   processors, units = ceil(procs / that). Dropped as "memory": one
 *   processor needs more than the pool's smallest host has, or the units
 *   memory asks for exceed the pool while the processors alone fit.
 * - Job type: SWF field 15 (queue) by default, as in the job-bundling study
 *   (Baranov & Lyakhovets 2022), or field 16 (partition) or 14 (executable).
 *   On a platform whose pools are routed by queue, types and queues are then
 *   the same field: choose another type field there.
 * - Initialization (a job runs its type's initialization, then its
 *   processing, on all its hosts): none by default; per type from a table
 *   (eng_prep_read_init_times), or from a target share X: type t gets
 *     S_t = X / (1 - X) * mean run time of the type's jobs,
 *   so that total initialization / total (initialization + processing) = X
 *   for the workload, and for each type alone. Initialization is wall-clock
 *   time, not scaled by host speed, and adds to the requested time: the
 *   estimate and the kill limit both grow by S_t.
 * - Initialization not planned (init_unplanned, --init-planned no): the kill
 *   limit still grows by S_t (no job is killed because of its
 *   initialization) and the job still runs S_t + its processing, but the
 *   estimate is the request alone, as when a simulator adds S_t to the run
 *   time inside itself and its scheduler plans with the log's requested
 *   time (the reading of Baranov & Lyakhovets 2022 measured in
 *   bench/HISTORY.md, "Job bundling"). Jobs then outlive their estimates by
 *   up to S_t: the engine shows an overdue job to policies as ending now
 *   and runs only the policies that re-plan at every call
 *   (POL_FLAG_REPLANS, eng_policy.h).
 */
#ifndef ENG_PREP_H
#define ENG_PREP_H

#include "eng_error.h"
#include "eng_platform.h"
#include "eng_swf.h"
#include "eng_policy.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum eng_procs_field { ENG_PROCS_ALLOC = 0, ENG_PROCS_REQ = 1 } eng_procs_field;
typedef enum eng_walltime { ENG_WALLTIME_KILL = 0, ENG_WALLTIME_EXTEND = 1 } eng_walltime;

#define ENG_DROP_REASONS(X)                                                                        \
    X(NO_RUNTIME, "no-runtime", "run time unknown (field 4 is -1)")                                \
    X(NO_PROCS, "no-procs", "no processor count (fields 5 and 8)")                                 \
    X(NO_POOL, "no-pool", "no host serves the job's queue")                                        \
    X(TOO_LARGE, "too-large", "needs more resources than its pool has")                            \
    X(NO_SUBMIT, "no-submit", "submit time unknown (field 2 is -1)")                               \
    X(DUPLICATE_ID, "duplicate-id", "job number already used by an earlier line (field 1)")        \
    X(OVER_LIMIT, "over-queue-limit",                                                              \
      "asks more nodes or time than its queue allows (platform property queue_limits)")            \
    X(MEMORY, "memory", "needs more memory than the hosts of its pool have (field 10)")

typedef enum eng_drop {
#define ENG_DROP_ENUM(name, key, text) ENG_DROP_##name,
    ENG_DROP_REASONS(ENG_DROP_ENUM)
#undef ENG_DROP_ENUM
        ENG_DROP_COUNT
} eng_drop;

const char *eng_drop_key(int reason);  /* "too-large" */
const char *eng_drop_text(int reason); /* "needs more resources than its pool has" */

typedef enum eng_type_field {
    ENG_TYPE_QUEUE = 0,     /* field 15 */
    ENG_TYPE_PARTITION = 1, /* field 16 */
    ENG_TYPE_APP = 2,       /* field 14 */
} eng_type_field;

/* One line of an initialization table: a type's initialization time. */
typedef struct eng_init_time {
    int64_t type;
    bool any; /* the "*" line: every type not listed */
    double seconds;
} eng_init_time;

/* User feedback (eng_feedback.h has the rules). */
typedef enum eng_feedback_mode {
    ENG_FEEDBACK_NONE = 0,
    ENG_FEEDBACK_SWF = 1,      /* SWF fields 17 and 18 */
    ENG_FEEDBACK_SESSIONS = 2, /* inferred from users and logged ends */
} eng_feedback_mode;

typedef struct eng_prep_opts {
    eng_procs_field procs_field;
    eng_walltime walltime;
    pol_alloc alloc;
    eng_type_field type_field;
    double init_share;               /* target initialization share in [0, 1); NAN: none */
    const eng_init_time *init_times; /* or an explicit table (n > 0) */
    size_t n_init_times;
    bool init_unplanned; /* estimates exclude the initialization (see above) */
    eng_feedback_mode feedback;
} eng_prep_opts;

/* Default options: field 5, kill, node allocation, type = queue, no
 * initialization. */
eng_prep_opts eng_prep_defaults(void);

/* Reads "TYPE SECONDS" lines ('#' comments, "*" for every other type) from
 * path. Errors name the file and line. The caller frees *out. */
int eng_prep_read_init_times(const char *path, eng_init_time **out, size_t *n, eng_diag *d);

/* A job the engine simulates. */
typedef struct eng_sim_job {
    int32_t src; /* index in the workload's job array */
    int64_t id;  /* SWF job number */
    double submit_s;
    double run_s;      /* run time at the reference speed */
    double estimate_s; /* planning duration, >= 1 (init_s included unless init_unplanned) */
    double kill_s;     /* killed when it has run this long; INFINITY: never */
    double init_s;     /* initialization paid before processing */
    int32_t procs;
    int32_t units;
    int32_t pool;
    double mem_per_proc_b; /* with host memory: SWF field 10 in bytes; else 0 */
    bool est_from_runtime;
    int64_t queue, partition, user, group, app; /* copied from the log */
    int64_t type;                               /* from the type field */
} eng_sim_job;

typedef struct eng_prepared {
    pol_alloc alloc;             /* what the units count (options' alloc): the core's allocation */
    eng_walltime walltime;       /* the options' walltime mode */
    eng_procs_field procs_field; /* the options' processor field */
    eng_sim_job *jobs;           /* in workload order: (submit, file order) */
    size_t n_jobs;
    int8_t *drop; /* per workload job: -1 kept, else eng_drop */
    size_t n_src;
    size_t n_dropped[ENG_DROP_COUNT];
    size_t n_dropped_total;
    size_t n_est_from_runtime; /* no requested time */
    size_t n_extended;         /* extend mode: estimate raised to the run time */
    size_t n_overrun;          /* run time exceeds requested time (killed in kill mode) */
    size_t n_queue_time;       /* no requested time: given the queue's max_runtime_s */
    bool memory;               /* the platform gives host memory (eng_platform.h) */
    size_t n_mem_raised;       /* memory: jobs given more units than their processors */
    double init_share;         /* the target share, NAN if none */
    bool init_unplanned;       /* the options' init_unplanned: estimates exclude init_s */
    size_t n_types;            /* distinct job types among simulated jobs */
    /* User feedback (eng_feedback.h): per job the simulated job it is
     * submitted after (-1: none, it keeps submit_s) and its think time;
     * both NULL with feedback none. submit_s stays the logged submit, the
     * order of jobs and their indices too. */
    eng_feedback_mode feedback;
    int32_t *pred;
    double *think_s;
    size_t n_fb_deps;    /* jobs with a predecessor */
    size_t n_fb_missing; /* jobs whose predecessor is not simulated */
} eng_prepared;

/* Fills *out (caller's storage; release with eng_prepared_fini). */
int eng_prep(const eng_workload *w, const eng_platform *p, const eng_prep_opts *opts,
             eng_prepared *out, eng_diag *d);

void eng_prepared_fini(eng_prepared *prep);

#endif
