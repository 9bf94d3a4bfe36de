/* bl_sched.h — scenario helpers: small workloads written as tables, run
 * through the scheduling core without SimGrid (bl_core_run) or through the
 * whole SimGrid engine in a child process (bl_sim_run), with the start and
 * end of each job looked up by its SWF number. */
#ifndef BL_SCHED_H
#define BL_SCHED_H

#include "eng_core.h"
#include "eng_platform.h"
#include "eng_prep.h"
#include "eng_run.h"
#include "eng_swf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One job of a scenario: SWF number, submit, run time, requested time
 * (-1: none), processors, queue (0 by default). */
typedef struct bl_jobspec {
    int64_t id;
    double submit, run, req;
    int procs;
    int64_t queue;
} bl_jobspec;

/* A workload holding these jobs (fields 5 and 8 = procs, status 1). */
eng_workload *bl_make_workload(const bl_jobspec *jobs, size_t n);

/* A platform of n identical hosts named h1..hn (speed 1 Gf). */
eng_platform *bl_uniform_platform(int n_hosts, int cores);

/* Three hosts of 2 cores, ref 1 Gf: fast (2 Gf), slow1, slow2 (1 Gf), given
 * in scrambled order: the core must see fast, slow1, slow2. */
eng_platform *bl_mixed_platform(void);

/* Identical hosts (speed 1 Gf) in n_islands islands named "a", "b", ...:
 * island a holds hosts a1..a<sizes[0]>, and so on. */
eng_platform *bl_island_platform(const int *sizes, int n_islands, int cores);

/* A policy's schedule() that counts units only: it starts, in queue order,
 * every waiting job that fits in the free units, and leaves the hosts to
 * the engine (tests of the engine's checks and refusals). */
int bl_counting_schedule(void *state, const pol_view *v, pol_out *out);

typedef struct bl_opts {
    pol_alloc alloc;
    eng_walltime walltime;
    const pol_kv *options;
    size_t n_options;
    const eng_init_time *init_times; /* per-type initialization (queue = type) */
    size_t n_init_times;
    eng_failures failures;
    const int64_t *users;        /* SWF user (field 12) of each job, in table order; NULL: -1 */
    const int64_t *groups;       /* SWF group (field 13) likewise */
    bool ignore_islands;         /* --islands ignore */
    const pol_type *policy_type; /* a test's own policy instead of the name */
    bool init_unplanned;         /* --init-planned no */
    bool energy_plugin;          /* bl_sim_run: eng_sim_opts.energy_plugin */
    eng_power_save power_save;   /* idle shutdown (--suspend-time and the rest) */
    double power_cap_w;          /* --power-cap (0: none) */
    eng_feedback_mode feedback;  /* --feedback */
    const int64_t *prev_jobs;    /* SWF field 17 of each job, in table order; NULL: -1 */
    const double *think_s;       /* SWF field 18 likewise */
    const double *waits;         /* SWF field 3 (logged wait) likewise */
    const double *mem_kb;        /* SWF field 10 (memory per processor, KB) likewise */
    const eng_resvs *resv;       /* --reservations, read (eng_resvs_read) */
} bl_opts;

/* A finished run through the core alone. */
typedef struct bl_sched {
    eng_workload *w;
    eng_platform *p;
    eng_prepared prep;
    eng_core *core;
    int rc;
    eng_diag diag;
} bl_sched;

/* Runs the jobs on p (taken over) under policy with the checker on. */
int bl_core_run(const char *policy, const bl_jobspec *jobs, size_t n, eng_platform *p,
                const bl_opts *opts, bl_sched *out);
void bl_sched_fini(bl_sched *s);

/* Start, end and state of job id (-1 / -1 / -1 when absent). */
double bl_start(const bl_sched *s, int64_t id);
double bl_end(const bl_sched *s, int64_t id);
int bl_state(const bl_sched *s, int64_t id);

/* Runs the jobs on a platform file through SimGrid (forked child). */
int bl_sim_run(const char *policy, const bl_jobspec *jobs, size_t n, const char *platform_path,
               const bl_opts *opts, eng_run_report *rep, eng_diag *d);
double bl_rep_start(const eng_run_report *r, int64_t id);
double bl_rep_end(const eng_run_report *r, int64_t id);
int bl_rep_state(const eng_run_report *r, int64_t id);

/* Expected schedule rows for table-driven checks. */
typedef struct bl_expect {
    int64_t id;
    double start, end;
} bl_expect;

/* CU_ASSERTs every row against s; returns the number of mismatches and
 * prints them. */
int bl_check(const bl_sched *s, const bl_expect *rows, size_t n, const char *what);
int bl_check_rep(const eng_run_report *r, const bl_expect *rows, size_t n, const char *what);

/* A policy alone on a hand-made view with a maintenance window over
 * [150, 400) on 4 free hosts: of J1 (2 units, 300 s) and J2 (1 unit,
 * 100 s), J2 starts and J1 is promised 400 (the window's end). For the
 * policies that plan around reservations (POL_FLAG_RESERVATIONS). */
void bl_check_view_reservation(const char *policy);

#endif
