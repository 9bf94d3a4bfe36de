/* eng_metrics.h — summary metrics of a simulated schedule.
 *
 * Definitions as the backfilling literature uses them (Mu'alem & Feitelson
 * 2001; Feitelson, Rudolph, Schwiegelshohn, Sevcik & Wong 1997 for the
 * bounded slowdown):
 *   wait      w = start - submit
 *   response  R = end - submit
 *   run       r = end - start (after any walltime kill)
 *   slowdown  R / r, averaged over jobs with r > 0 only (n_slowdown)
 *   bounded slowdown  max(1, R / max(r, tau)), tau = 10 s, over all jobs
 *   utilization  sum(units * r) / (total units * (t1 - t0)), where t0 is
 *             the first submit and t1 the last end of the simulated jobs
 *   queue length  time-weighted mean and maximum of the number of waiting
 *             jobs over [t0, t1] (an integral, not a mean of samples)
 *   cost      sum over jobs and their hosts of price_per_s x the time the
 *             job holds the host x the share of the host's cores it holds
 *             (hosts are held from the job's start to its end)
 *   initialization share  total initialization / total run time
 *             (initialization + processing), as the job-bundling study
 *             defines it (Baranov & Lyakhovets 2022)
 * Only jobs that ran to their end (completed or killed at their requested
 * time) are measured; jobs cut by a host failure are counted apart (their
 * node time, and that of requeued attempts, counts as busy in the
 * utilization and as wasted); dropped jobs are counted by reason.
 * Sums are accumulated in long double in a fixed order, so the same
 * schedule always gives the same bits.
 */
#ifndef ENG_METRICS_H
#define ENG_METRICS_H

#include "eng_core.h"
#include "eng_prep.h"
#include "eng_swf.h"

#include <stddef.h>
#include <stdint.h>

#define ENG_BSLD_TAU_S 10.0

/* Agreement of the simulated schedule with the log's own (SWF field 3, the
 * wait the job had on the real machine). Measured over the jobs both have:
 * the jobs that ran to their end in the replay (completed or killed at
 * their requested time: the jobs of the wait metrics) whose logged wait is
 * >= 0 (-1 is SWF's "unknown"), but for the jobs the log says were
 * cancelled before they started (status 5 with run time 0). Those are
 * replayed like any job (zero-length: they wait for their processors and
 * end the instant they start), but their logged "wait" is the time until
 * the user cancelled them, not a wait for processors (in one archive log of
 * 312 826 jobs, 14 730 such jobs with a mean logged wait of 23 895 s), so
 * they are left out and counted in cancelled_excluded. A cancelled job with
 * a run time > 0 started before its cancellation and is compared. Dropped
 * jobs, jobs cut by a host failure and jobs without a logged wait are left
 * out (and not counted in cancelled_excluded).
 *   cancelled_excluded  jobs left out as cancelled before they started
 *   wait_mean_log_s  mean logged wait of those jobs
 *   wait_mean_sim_s  mean simulated wait (start - submit) of the same jobs
 *   wait_mae_s       mean of |simulated wait - logged wait|
 *   wait_spearman    Spearman's rank correlation of the two waits
 *                    (gsl_stats_spearman: ties get their mean rank); NAN
 *                    (null in summary.json) for fewer than 2 jobs or when
 *                    either side is constant
 * The means are NAN when no job is compared. jobs == 0 and
 * cancelled_excluded == 0 mean the log has no wait time for any simulated
 * job (a generated workload, or a log whose field 3 is -1 throughout): the
 * run then reports no agreement. */
typedef struct eng_log_agreement {
    size_t jobs;
    size_t cancelled_excluded;
    double wait_mean_log_s;
    double wait_mean_sim_s;
    double wait_mae_s;
    double wait_spearman;
} eng_log_agreement;

/* Energy (platforms with power values; eng_energy.c has the model and the
 * attribution rule): joules over [window_start_s, window_end_s], from time
 * 0 to the last event. jobs_j is the sum of the jobs' consumed_energy;
 * jobs_j + idle_j + off_j + switching_j = total_j up to rounding. Mean
 * power is total_j over the window; peak power the largest instant's. */
typedef struct eng_energy_summary {
    bool on;
    double total_j, jobs_j, idle_j, off_j, switching_j;
    int64_t switch_ons, switch_offs;
    double mean_power_w, peak_power_w;
    double window_start_s, window_end_s;
} eng_energy_summary;

typedef struct eng_summary {
    size_t n_input;     /* jobs read from the workload */
    size_t n_malformed; /* lines skipped under --lenient */
    size_t n_simulated; /* jobs that ran: completed + killed + failed */
    size_t n_completed;
    size_t n_killed;
    size_t n_failed;   /* cut by a host failure (not requeued) */
    size_t n_stopped;  /* killed by their policy (pol_out_kill), counted as simulated */
    size_t n_rejected; /* rejected by their policy (pol_out_reject), never started */
    size_t n_requeues; /* failed attempts that were requeued */
    double wasted_node_s;
    size_t n_dropped[ENG_DROP_COUNT];
    size_t n_dropped_total;
    size_t n_est_from_runtime;
    size_t n_extended;
    size_t n_overrun;
    size_t n_queue_time; /* no request: given the queue's max_runtime_s (queue_limits) */
    bool memory;         /* the platform gives host memory */
    size_t n_mem_raised; /* with memory: jobs given more units than their processors */
    int32_t feedback;    /* eng_feedback_mode of the run */
    size_t n_fb_deps;    /* with feedback: jobs submitted after a predecessor */
    size_t n_fb_missing; /* with feedback: jobs whose predecessor is not simulated */
    double t0_s, t1_s, makespan_s;
    double wait_mean_s, wait_median_s, wait_p95_s, wait_max_s;
    double response_mean_s;
    double slowdown_mean;
    size_t n_slowdown;
    double bsld_mean;
    double utilization;
    double queue_mean, queue_max;
    double cost;              /* total price of the allocations */
    double init_total_s;      /* initialization paid */
    double init_share;        /* realised: init_total_s / total run time; 0 if none */
    double init_share_target; /* requested with --init-share, NAN otherwise */
    size_t n_types;
    int64_t total_units;
    /* Packets as the job-bundling study counts them (Baranov & Lyakhovets
     * 2022): a packet's later members are pseudo-jobs, left out of the wait
     * metrics; a job leaves the queue when its packet starts. Filled only
     * when some packet had more than one member (n_pseudo > 0). */
    size_t n_packets; /* packets of two or more members */
    size_t n_pseudo;  /* their members after the first */
    double pk_wait_mean_s, pk_wait_median_s, pk_queue_mean;
    eng_log_agreement log;     /* eng_metrics_log_agreement() */
    eng_energy_summary energy; /* eng_metrics_energy() */
} eng_summary;

/* Fills s from a finished schedule. results/ts as returned by the core. */
int eng_metrics_compute(const eng_prepared *prep, const eng_job_result *results,
                        const eng_ts_row *ts, size_t n_ts, int64_t total_units, eng_summary *s);

/* Fills s->log from the workload's logged waits (w->jobs[prep->jobs[i].src]
 * .wait_s) and the simulated starts. Returns 0, or ENG_NOMEM. */
int eng_metrics_log_agreement(const eng_workload *w, const eng_prepared *prep,
                              const eng_job_result *results, eng_summary *s);

/* Adds what host failures cost (failures on): wasted node-seconds, and the
 * busy unit-seconds of failed runs, to the summary's utilization. */
void eng_metrics_failures(const eng_prepared *prep, const eng_job_result *results,
                          double wasted_node_s, double wasted_unit_s, eng_summary *s);

/* Fills s->energy from the core's energy (nothing without power values):
 * its totals, with jobs_j the sum of the n results' energy_j. */
void eng_metrics_energy(const eng_core *c, const eng_job_result *results, size_t n, eng_summary *s);

/* The price of one job's allocation (0 for a job that has not run). */
double eng_job_cost(const eng_platform *p, const eng_job_result *r, const eng_host_run *runs);

/* Sets s->cost: the sum of eng_job_cost over the n results. */
void eng_metrics_cost(const eng_platform *p, const eng_job_result *results, size_t n,
                      const eng_host_run *runs, eng_summary *s);

#endif
