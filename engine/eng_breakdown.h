/* eng_breakdown.h — the summary's figures broken down by who ran and what
 * ran: per user (SWF field 12), queue (15), partition (16), pool, job-size
 * class and run-time class, with the fairness of the schedule across
 * users. Computed once from the recorded jobs (DESIGN.md: "Breakdowns
 * come from the recorder"); summary.json holds them ("breakdowns",
 * "fairness") and batchlab report renders what it holds.
 *
 * The jobs measured are those of the global wait metrics (eng_metrics.h):
 * the simulated jobs that ran to their end, completed, killed at their
 * requested time or killed by their policy. Dropped and rejected jobs are
 * in no row; a job cut by a host failure (and not requeued) is in no row
 * either, as it is in none of the global wait metrics (its node time
 * counts in the global utilization, not in a pool's). A requeued job is
 * measured by its last attempt, as globally.
 *
 * A row: the jobs of one key; their mean, median (the mean of the middle
 * two for an even count) and 95th percentile (nearest rank, as
 * metrics.wait_p95_s) of the wait start - submit; their mean bounded
 * slowdown max(1, (end - submit) / max(end - start, tau)), tau =
 * ENG_BSLD_TAU_S = 10 s, as metrics.bounded_slowdown_mean; and how many
 * were killed (at their requested time or by their policy). Means, median
 * and sorting come from GSL (gsl_stats_mean, gsl_stats_median_from_sorted
 * _data, gsl_sort); GSL's quantile interpolates, so the nearest-rank p95
 * is read off the sorted waits here, to agree with the global one.
 *
 * Classes:
 *   size      requested units (nodes under node allocation, cores under
 *             core allocation) in powers of two: class k holds
 *             [2^k, 2^(k+1) - 1] ("1", "2-3", "4-7", ...), only classes
 *             that hold a job are listed
 *   runtime   the job's actual run time end - start as simulated (after a
 *             walltime kill, on its hosts' speed; the run time of the
 *             bounded slowdown): [0, 600), [600, 3600), [3600, 36000),
 *             [36000, inf) seconds, "<10min", "10min-1h", "1h-10h",
 *             ">10h", all four listed, an empty one with jobs 0 and null
 *             statistics
 *   user, queue, partition  one row per value in the measured jobs,
 *             sorted numerically; -1 (unknown) is the key "-1"
 *   pool      one row per pool of the platform in its order, the key its
 *             label; utilization = the pool's measured jobs' units x run
 *             time / (the pool's units x the global window t1 - t0 of
 *             metrics.makespan_s)
 *
 * Fairness (Jain, Chiu & Hawe 1984): over the users with a known number
 * (>= 0) and at least one measured job, x_u = the user's mean bounded
 * slowdown; min, max, coefficient of variation (population standard
 * deviation / mean) and Jain's index (sum x)^2 / (n sum x^2), which is 1
 * when every user's x is equal and 1/n when one user has all of it.
 * No user: users 0 and every value NAN (null).
 *
 * Cost: one sort of the measured jobs by wait, then O(n) per breakdown
 * (a hash of its keys, a sort of the distinct ones, a counting sort of the
 * jobs by key): with their JSON, 2.5 % of the instructions of a replay of
 * the archive logs under EASY (bench/breakdowns-perf.sh).
 */
#ifndef ENG_BREAKDOWN_H
#define ENG_BREAKDOWN_H

#include "eng_metrics.h"
#include "eng_platform.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ENG_BD_RUNTIME_CLASSES 4
#define ENG_BD_SIZE_CLASSES 32 /* 2^31 units and more fall in the last */
#define ENG_BD_TOP_USERS 5

/* The run-time classes' bounds in seconds: lo <= end - start < hi. */
extern const double eng_bd_runtime_bounds_s[ENG_BD_RUNTIME_CLASSES - 1];

typedef struct eng_bd_row {
    char key[48];
    int64_t num;   /* the key's number (user, queue, partition, class) */
    size_t jobs;   /* measured jobs */
    size_t killed; /* of which killed at their requested time or by their policy */
    double wait_mean_s, wait_median_s, wait_p95_s; /* NAN for no job */
    double bsld_mean;
    double lo, hi;      /* size: units; runtime: seconds (hi INFINITY for the last) */
    double utilization; /* pools only */
} eng_bd_row;

typedef struct eng_fairness {
    size_t users;
    double bsld_user_mean_min, bsld_user_mean_max, bsld_user_mean_cv, jain_index;
} eng_fairness;

typedef enum {
    ENG_BD_USER,
    ENG_BD_QUEUE,
    ENG_BD_PARTITION,
    ENG_BD_POOL,
    ENG_BD_SIZE,
    ENG_BD_RUNTIME,
    ENG_BD_COUNT
} eng_bd_kind;

typedef struct eng_breakdowns {
    eng_bd_row *rows[ENG_BD_COUNT]; /* owned */
    size_t n_rows[ENG_BD_COUNT];
    eng_fairness fairness;
} eng_breakdowns;

/* A fixed-size digest for the terminal summary (it crosses from the run's
 * child process by value): the size and run-time classes, the fairness,
 * and the users of the largest mean wait (ties: the smaller number). */
typedef struct eng_bd_brief {
    eng_bd_row size[ENG_BD_SIZE_CLASSES];
    size_t n_size;
    eng_bd_row runtime[ENG_BD_RUNTIME_CLASSES];
    eng_bd_row top_users[ENG_BD_TOP_USERS];
    size_t n_top_users;
    size_t n_users; /* rows of the user breakdown, -1 included */
    eng_fairness fairness;
} eng_bd_brief;

/* Fills *b (caller's storage; eng_breakdown_fini frees it) from a finished
 * schedule: prep and results as the core returns them, p the platform (its
 * pools), s the summary of eng_metrics_compute (its window). Returns 0, or
 * ENG_NOMEM (nothing to free). */
int eng_breakdown_compute(const eng_prepared *prep, const eng_job_result *results,
                          const eng_platform *p, const eng_summary *s, eng_breakdowns *b);

void eng_breakdown_fini(eng_breakdowns *b);

/* Fills *out from b. */
void eng_breakdown_brief(const eng_breakdowns *b, eng_bd_brief *out);

/* summary.json's "breakdowns" and "fairness" objects (new references; NULL
 * and *ok cleared when out of memory). */
json_t *eng_breakdown_json(const eng_breakdowns *b, bool *ok);
json_t *eng_fairness_json(const eng_fairness *f, bool *ok);

/* Jain's index (sum x)^2 / (n sum x^2) of n values; NAN for n = 0 or a sum
 * of squares of 0. */
double eng_jain_index(const double *x, size_t n);

#endif
