/* bare_replay.c — the floor of bench/replay-perf.sh: a SimGrid replay of a
 * log's own schedule with no scheduler (eng_sim_replay_log): the same jobs
 * on the same platform, started at their logged times, one actor per job
 * that sleeps as long as its slowest host takes.
 *
 *   bare_replay PLATFORM WORKLOAD
 *
 * Prints one line: jobs, hosts of all jobs, jobs delayed because the log
 * does not fit the platform, wall seconds of the simulation, wall seconds
 * of the whole process, peak resident memory in KB, CPU seconds (user +
 * system) of the whole process. */
#include "eng_sim.h"
#include "eng_swf.h"

#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: bare_replay PLATFORM WORKLOAD\n");
        return 2;
    }
    double t0 = now();
    eng_diag d;
    eng_diag_clear(&d);
    eng_workload *w = NULL;
    if (eng_swf_read(argv[2], NULL, &w, &d)) {
        fprintf(stderr, "bare_replay: %s\n", d.msg);
        return 1;
    }
    eng_prep_opts opts = {
        .procs_field = ENG_PROCS_ALLOC, .walltime = ENG_WALLTIME_KILL, .alloc = POL_ALLOC_NODE};
    eng_replay_stats st;
    if (eng_sim_replay_log(argv[1], w, &opts, &st, &d)) {
        fprintf(stderr, "bare_replay: %s\n", d.msg);
        eng_workload_destroy(w);
        return 1;
    }
    double total = now() - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("jobs %zu hosts %zu delayed %zu sim_wall_s %.3f process_wall_s %.3f "
           "peak_rss_kb %ld cpu_s %.3f\n",
           st.n_jobs, st.n_host_runs, st.n_delayed, st.wall_s, total, ru.ru_maxrss,
           (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
               ru.ru_stime.tv_usec * 1e-6);
    eng_workload_destroy(w);
    return 0;
}
