/* pol_win_scan.h — the time scan of Toporkov, Yemelyanov & Grigorenko 2021
 * §3.5: a job may start at any integer time t of the scheduling interval
 * [lo, hi], the best window at each t has availability P*(t) (KnapsackP or
 * GreedyJnt on the resources' availability over [t, t + T]), and the scan
 * looks for max_t P*(t). The objective is a callback, so the scans are
 * tested on functions with known maxima.
 *
 *   pol_win_scan_full     every t (the paper's full scan): hi - lo + 1
 *                         evaluations.
 *   pol_win_scan_bounded  the same maximum with fewer evaluations: given an
 *                         upper bound ub(t) >= P*(t) that is cheap (for the
 *                         window problem: MaxP, the best availability any
 *                         budget buys), evaluate ub everywhere, then P* in
 *                         decreasing order of ub until the next ub does not
 *                         exceed the best value found. Exact.
 *   pol_win_scan_starts   the paper's starting-points search: k starting
 *                         points placed uniformly, at random, or half and
 *                         half (mixed); at each, the neighbours t - 1 and t
 *                         + 1 give the direction of increase; the search
 *                         moves by steps of delta while the value does not
 *                         decrease (it stops at the first decrease, at the
 *                         next starting point, or at the interval's end);
 *                         then, where delta > 1, the bracket around the best
 *                         point is refined by halving the step down to 1
 *                         (our addition: the paper only says the maximum
 *                         lies in the last bracket). Approximate: it can
 *                         stop on a local maximum or step over a narrow
 *                         peak.
 * Every scan returns the largest value found and the earliest t reaching
 * it, and counts distinct evaluations (each t is evaluated at most once).
 * Memory O(hi - lo) for the visited marks.
 */
#ifndef POL_WIN_SCAN_H
#define POL_WIN_SCAN_H

#include <gsl/gsl_rng.h>
#include <stdint.h>

/* The objective (or bound) at t: writes *value, returns 0 or a negative
 * ENG_ code that stops the scan. */
typedef int (*pol_win_scan_fn)(void *ctx, int64_t t, double *value);

typedef enum pol_win_starts {
    POL_WIN_STARTS_UNIFORM = 0,
    POL_WIN_STARTS_RANDOM = 1,
    POL_WIN_STARTS_MIXED = 2,
} pol_win_starts;

typedef struct pol_win_scan_result {
    int64_t t_best;    /* earliest t with the best value (lo - 1 if none) */
    double best;       /* -INFINITY if nothing was evaluated */
    uint64_t evals;    /* evaluations of the objective */
    uint64_t ub_evals; /* evaluations of the bound (bounded scan) */
} pol_win_scan_result;

/* Every t in [lo, hi] (hi >= lo). values, when not NULL, receives the
 * hi - lo + 1 values. */
int pol_win_scan_full(pol_win_scan_fn fn, void *ctx, int64_t lo, int64_t hi, double *values,
                      pol_win_scan_result *res);

/* Exact maximum with the bound ub (ub(t) >= fn(t) for every t). */
int pol_win_scan_bounded(pol_win_scan_fn fn, pol_win_scan_fn ub, void *ctx, int64_t lo, int64_t hi,
                         pol_win_scan_result *res);

/* Starting-points search: k >= 1 points, step delta >= 1; rng is used for
 * random and mixed placement (may be NULL for uniform). */
int pol_win_scan_starts(pol_win_scan_fn fn, void *ctx, int64_t lo, int64_t hi, int32_t k,
                        pol_win_starts mode, int64_t delta, gsl_rng *rng, pol_win_scan_result *res);

#endif
