/* eng_fit.h — maximum-likelihood fits of job run times and sizes, and the
 * Kolmogorov–Smirnov distance of each fit to its sample.
 *
 * Toporkov, Yemelyanov & Grigorenko 2021 (§3.1) model the jobs' length and
 * size by lognormals fitted to the ForHLR II log and report a
 * Kolmogorov–Smirnov statistic of 0.14; Lublin & Feitelson 2003 model the
 * natural log of the run time by a hyper-gamma (a mixture of two gammas,
 * fitted by EM). This module fits, on positive samples:
 *   lognormal    mu = mean(ln x), sigma^2 = mean((ln x - mu)^2) (the MLE,
 *                divided by n, not n - 1);
 *   gamma        shape k solving ln k - psi(k) = ln mean(x) - mean(ln x)
 *                (Newton from the Choi–Wette starting value), scale =
 *                mean(x) / k;
 *   hyper-gamma  p Gamma(k1, s1) + (1 - p) Gamma(k2, s2) by EM, each M-step
 *                a weighted gamma MLE; started from the two halves of the
 *                sorted sample, a fixed number of iterations at most, so
 *                the same sample gives the same bits.
 * The KS statistic D = sup |F_n(x) - F(x)| of a sample against a CDF is
 * computed on the sorted sample (ties handled: D is taken on both sides of
 * every jump of F_n).
 * Distributions and special functions from the GSL (gsl_cdf_*, gsl_sf_psi,
 * gsl_stats_*, gsl_sort). Cost O(n log n) for the sort, O(n) per Newton or
 * EM iteration.
 *
 * Errors: ENG_INVAL (message in d) for n < 2, a non-positive or non-finite
 * value, or a sample with no spread; ENG_NOMEM.
 */
#ifndef ENG_FIT_H
#define ENG_FIT_H

#include "eng_error.h"
#include "eng_swf.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct eng_fit_lognormal {
    double mu, sigma; /* of ln x */
} eng_fit_lognormal;

typedef struct eng_fit_gamma {
    double shape, scale;
} eng_fit_gamma;

typedef struct eng_fit_hgamma {
    double p;             /* weight of the first component */
    eng_fit_gamma g1, g2; /* g1 has the smaller mean */
    int iterations;       /* EM iterations run */
    double loglik;        /* log-likelihood at the end */
} eng_fit_hgamma;

int eng_fit_lognormal_mle(const double *x, size_t n, eng_fit_lognormal *out, eng_diag *d);
int eng_fit_gamma_mle(const double *x, size_t n, eng_fit_gamma *out, eng_diag *d);
int eng_fit_hgamma_em(const double *x, size_t n, eng_fit_hgamma *out, eng_diag *d);

/* CDFs of the fitted laws at x. */
double eng_fit_lognormal_cdf(const eng_fit_lognormal *f, double x);
double eng_fit_gamma_cdf(const eng_fit_gamma *f, double x);
double eng_fit_hgamma_cdf(const eng_fit_hgamma *f, double x);

/* KS statistic of the sample x[0..n) (any order; sorted in place) against
 * cdf(ctx, x). n >= 1. */
double eng_fit_ks(double *x, size_t n, double (*cdf)(const void *ctx, double x), const void *ctx);

/* The fits of one quantity of a log. */
typedef struct eng_fit_quantity {
    size_t n;
    eng_fit_lognormal lognormal;
    double ks_lognormal;
    eng_fit_gamma gamma;
    double ks_gamma;
    /* hyper-gamma of ln x over the values with x > 1 (ln x > 0), the
     * Lublin–Feitelson run-time model; has_hgamma false when not fitted */
    bool has_hgamma;
    size_t n_hgamma;
    eng_fit_hgamma hgamma;
    double ks_hgamma;
} eng_fit_quantity;

/* Fits of a log: run time (SWF field 4, seconds) and size (allocated
 * processors, field 5, or the requested ones, field 8, when 5 is unknown).
 * A job is used when both are positive; the others are counted. */
typedef struct eng_fit_log {
    size_t jobs, used;
    size_t bad_runtime; /* run time unknown, zero or negative */
    size_t bad_size;    /* no positive size (run time fine) */
    eng_fit_quantity runtime, size;
} eng_fit_log;

/* Fits w's jobs. ENG_INVAL when fewer than 2 jobs are usable or a quantity
 * has no spread (message names w->path), ENG_NOMEM. */
int eng_fit_workload(const eng_workload *w, eng_fit_log *out, eng_diag *d);

/* Reads the run-time lognormal of a fit file written by `batchlab fit
 * --json` (format "batchlab-fit 1"). ENG_IO when unreadable, ENG_PARSE
 * when it is not such a file or the values are out of range (sigma > 0),
 * message naming the file in d. */
int eng_fit_read_runtime_lognormal(const char *path, eng_fit_lognormal *out, eng_diag *d);

#endif
