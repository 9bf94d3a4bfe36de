/* eng_sim.h — the SimGrid driver: loads a platform with SimGrid's own XML
 * loader, then runs the scheduling core with SimGrid's clock and
 * executions.
 *
 * How jobs map onto SimGrid (measured, see engine/eng_sim.c's header and
 * bench/HISTORY.md): one driver actor owns the clock; it waits on SimGrid
 * (sleep or the completion of executions) until the core's next event, lets
 * the core apply that instant, and hands each started job to an executor
 * actor taken from a pool. The executor runs ONE execution for the job, on
 * its slowest allocated host (flops = that host's duration x its speed),
 * so the job ends in SimGrid when its slowest host would finish, and the
 * cost per job does not depend on its width. Executors are reused, so
 * actors are created only up to the peak number of running jobs.
 *
 * SimGrid keeps one engine per process: eng_sim_run() may be called once
 * per process. eng_run.h runs it in a child process when more are needed.
 */
#ifndef ENG_SIM_H
#define ENG_SIM_H

#include "eng_core.h"
#include "eng_error.h"
#include "eng_platform.h"
#include "eng_prep.h"
#include "eng_swf.h"

#include <stdbool.h>

/* Loads PATH with SimGrid (simgrid_init must not have been called) and
 * builds the batchlab view of it. */
int eng_sim_load_platform(const char *path, eng_platform **out, eng_diag *d);

typedef struct eng_sim_opts {
    eng_prep_opts prep;
    eng_core_opts core;
    bool progress; /* simulated time and jobs done on stderr, every second */
    /* The cross-check of the energy accounting (eng_energy.c): SimGrid's
     * host energy plugin on, and every job run as one execution per core
     * it takes on each of its hosts, all lasting the job, so that SimGrid
     * loads each host as the power model does (a platform whose cores
     * property equals SimGrid's core count). The result then holds the sum
     * of sg_host_get_consumed_energy over the hosts. Needs power values;
     * slower (an execution per core). */
    bool energy_plugin;
} eng_sim_opts;

/* Everything a run produced; release with eng_sim_result_fini. */
typedef struct eng_sim_result {
    eng_platform *platform;
    eng_prepared prep;
    eng_core *core;
    double sim_end_s;        /* SimGrid's clock at the end */
    double wall_s;           /* wall-clock seconds of the simulation */
    double simgrid_energy_j; /* energy_plugin: SimGrid's total; NAN otherwise */
} eng_sim_result;

/* Loads the platform, prepares the workload and simulates it. */
int eng_sim_run(const char *platform_path, const eng_workload *w, const eng_sim_opts *opts,
                eng_sim_result *out, eng_diag *d);

void eng_sim_result_fini(eng_sim_result *r);

/* What eng_sim_replay_log measured. */
typedef struct eng_replay_stats {
    size_t n_jobs;
    size_t n_host_runs; /* hosts of all jobs (one actor per job sleeps) */
    size_t n_delayed;   /* jobs that waited for hosts (the log does not fit) */
    double wall_s;
    double sim_end_s;
} eng_replay_stats;

/* The bare baseline of bench/, the floor a simulation is measured
 * against: replays the log's own schedule (each job starts at submit +
 * logged wait, in that order) with no scheduling policy, as one SimGrid
 * actor per job, created at its start on its slowest host and sleeping as
 * long as that host takes: first free hosts of its pool, whole nodes,
 * durations and kills as in a simulation. Where the log's schedule does
 * not fit the platform, a job waits for enough hosts to be free rather
 * than share them (n_delayed counts those jobs). Once per process, like
 * eng_sim_run. */
int eng_sim_replay_log(const char *platform_path, const eng_workload *w, const eng_prep_opts *opts,
                       eng_replay_stats *st, eng_diag *d);

/* "3.32.0" */
const char *eng_sim_simgrid_version(void);

#endif
