/* eng_paired.h — paired comparison of two schedules of the same jobs.
 *
 * Two runs A (the baseline) and B of one workload under two policies hold
 * the same jobs; each job's wait difference d = wait_B - wait_A says
 * what B did to that job, which the difference of the two mean waits
 * hides. Jobs are matched by their SWF number (job_id of jobs.csv); a job
 * is paired when both runs measured it (completed, killed at its
 * requested time or by its policy: the jobs of the wait metrics,
 * eng_metrics.h). Jobs dropped or absent in either run, rejected, or cut
 * by a host failure are left out and counted per run (a number that
 * occurs twice in b pairs with the first of its jobs).
 *
 * Of the n paired differences: their mean and median; the share of jobs
 * B serves better (d < -tolerance) and worse (d > tolerance) by more than
 * the tolerance; and a bootstrap confidence interval of the mean
 * difference (Efron & Tibshirani 1993, "An Introduction to the
 * Bootstrap", ch. 6 and 13: the percentile method): `resamples` times, n
 * differences drawn with replacement (GSL's mt19937 seeded with `seed`,
 * gsl_rng_uniform_int), their mean; the interval is the (1 - level) / 2
 * and (1 + level) / 2 quantiles of those means
 * (gsl_stats_quantile_from_sorted_data). The same differences and seed
 * give the same bits; equal differences give a zero-width interval.
 * Cost: O(resamples x n) draws.
 *
 * Across seeds (a sweep's replicates of one generated configuration): the
 * per-seed mean differences x_1..x_k give their mean and a Student t
 * interval mean +- t_{(1 + level) / 2, k - 1} x s / sqrt(k), s the sample
 * standard deviation (gsl_cdf_tdist_Pinv); NAN bounds for k < 2.
 */
#ifndef ENG_PAIRED_H
#define ENG_PAIRED_H

#include "eng_run.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ENG_PAIRED_TOLERANCE_S 60.0
#define ENG_PAIRED_LEVEL 0.95
#define ENG_PAIRED_RESAMPLES 10000

typedef struct eng_paired_opts {
    double tolerance_s; /* >= 0 */
    double level;       /* in (0, 1) */
    size_t resamples;   /* 0: no bootstrap (NAN bounds) */
    uint64_t seed;
} eng_paired_opts;

/* The jobs of one run: number and wait, NAN for a job not measured. */
typedef struct eng_paired_run {
    const int64_t *id;
    const double *wait_s;
    size_t n;
} eng_paired_run;

typedef struct eng_paired {
    size_t jobs;                   /* paired */
    size_t left_out_a, left_out_b; /* jobs of each run not paired */
    double diff_mean_s, diff_median_s;
    double better_share, worse_share; /* of the paired jobs */
    double ci_lo_s, ci_hi_s;          /* the bootstrap interval of diff_mean_s */
} eng_paired;

/* Pairs a's and b's jobs and fills *out (NAN statistics and zero shares
 * when no job pairs). Returns 0, or ENG_NOMEM. O(n log n + resamples x n). */
int eng_paired_compare(const eng_paired_run *a, const eng_paired_run *b, const eng_paired_opts *o,
                       eng_paired *out);

/* The same from two runs' reports (with their per-job arrays: a report
 * made with summary_only off). */
int eng_paired_reports(const eng_run_report *a, const eng_run_report *b, const eng_paired_opts *o,
                       eng_paired *out);

/* The bootstrap interval alone, of the mean of d[0..n) (n >= 1). */
int eng_paired_bootstrap(const double *d, size_t n, const eng_paired_opts *o, double *lo,
                         double *hi);

/* Across seeds: the mean of x[0..k) and its t interval at level. */
typedef struct eng_paired_seeds {
    size_t seeds;
    double mean_s, sd_s, ci_lo_s, ci_hi_s;
} eng_paired_seeds;

void eng_paired_across(const double *x, size_t k, double level, eng_paired_seeds *out);

/* paired.json's tree: baseline's label, the options, and one pair per
 * other run (labels[i] against the baseline, pairs[i]). NULL and *ok
 * cleared when out of memory. */
json_t *eng_paired_json(const char *baseline, const char *const *labels, const eng_paired *pairs,
                        size_t n, const eng_paired_opts *o, bool *ok);

#endif
