/* pol_batch_dp.h — choosing one alternative per job of a batch: the
 * backward-run dynamic program (1) of Toporkov, Yemelyanov, Toporkova &
 * Bobchenkov 2011 (Section 2; the backward run of Taha 1982), with the
 * limits (2) and (3) of the same section.
 *
 * Job i (i = 1..n) has alternatives s with a time t_i(s) and a cost
 * c_i(s). With g the criterion and z the constrained quantity,
 *
 *   f_i(Z) = extr_{s : z_i(s) <= Z} { g_i(s) + f_{i+1}(Z - z_i(s)) },
 *   f_{n+1} ≡ 0,                                                     (1)
 *
 * computed backwards from i = n to 1 over every Z in 0..Z*, then read
 * forwards: Z_1 = Z*, s_i = the first alternative that attains f_i(Z_i),
 * Z_{i+1} = Z_i - z_i(s_i). No alternative fits: f = +inf (min) or -inf
 * (max) — the paper's f_i(C_i) = inf for C_i = 0, since every alternative
 * costs something.
 *
 * The two problems of Section 5:
 *  - min T = sum t_i under the budget B*, where B* is (3): the largest
 *    total cost sum c_i of a choice whose total time is within T* (the
 *    owners' greatest income under T*);
 *  - min C = sum c_i under the time limit T*.
 * T* is (2): T* = sum_i sum_s [t_i(s) / l_i], l_i job i's number of
 * alternatives, [x] the largest integer <= x, as printed: the floor is
 * taken term by term, so T* lies below the sum of the jobs' mean times by
 * up to l_i - 1 time units per job (the paper's times are whole units).
 * A program under this T* can be infeasible even when every job has an
 * alternative (e.g. one job whose three alternatives all take 10: T* = 9);
 * the reading that floors each job's mean instead, sum_i [sum_s t_i(s) /
 * l_i] (POL_DP_TLIMIT_MEANS), is never below the sum of the jobs' fastest
 * alternatives on the grid, so that it always admits a choice.
 *
 * Discretization. The constrained quantity is counted in whole cells of a
 * quantum q: an alternative weighs round(z / q) cells (nearest integer).
 * Times use q = the caller's time quantum (1 time unit in the paper's
 * setting), raised to a multiple of itself when T* would need more than
 * max_cells cells; (2) is evaluated on the cells, so with whole times and
 * q = 1 it is exactly the paper's. Costs use q = B* / max_cells, and the
 * budget is the cells of the choice that defined B* (so that this choice
 * stays admissible and the time problem is feasible whenever (3) is).
 * The program is exact on its grid; a choice's real total may exceed the
 * real limit by at most n q / 2. The criterion g is never rounded. An
 * alternative of cost 0 weighs 0 cells; a budget of 0 (every cost 0)
 * admits every choice.
 *
 * Costs: O(cells * sum_i l_i) time, O(n * cells) memory per run; the time
 * problem runs (1) twice (for B*, then for T), the cost problem once. Row
 * i is computed only on the limits the forward read can reach, Z* less
 * the smallest to the largest total weight of the jobs before it: the
 * first rows are short, the later ones often the whole grid.
 */
#ifndef POL_BATCH_DP_H
#define POL_BATCH_DP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Scratch tables; reusable. */
typedef struct pol_dp {
    double *f;
    size_t cap_f;
    int32_t *arg;
    size_t cap_arg;
    int64_t *w;
    size_t cap_w;
    size_t *range; /* per row, the cells the forward read can visit */
    size_t cap_range;
} pol_dp;

void pol_dp_init(pol_dp *dp);
void pol_dp_fini(pol_dp *dp);

/* The cells z weighs on a grid of quantum q: 0 for z <= 0, else the
 * nearest integer to z / q (saturating at INT64_MAX / 4; q > 0). */
int64_t pol_dp_cells(double z, double q);

/* One run of (1). Job i's alternatives are off[i] .. off[i+1]-1 of g and
 * w (integer weights >= 0); the limit is `cells`. choice[i] receives the
 * chosen alternative's rank within job i (0 .. l_i - 1), best the extremum
 * f_1(cells); *feasible is false when no choice fits (choice untouched).
 * Returns 0, ENG_INVAL (cells < 0 or a negative weight) or ENG_NOMEM. */
int pol_dp_run(pol_dp *dp, size_t n_jobs, const size_t *off, const double *g, const int64_t *w,
               int64_t cells, bool maximize, int32_t *choice, double *best, bool *feasible);

/* A batch's alternatives, grouped by job (CSR). */
typedef struct pol_dp_batch {
    size_t n_jobs;
    const size_t *off;  /* n_jobs + 1 offsets */
    const double *time; /* t_i(s) >= 0 */
    const double *cost; /* c_i(s) >= 0 */
} pol_dp_batch;

/* How (2) rounds: term by term as printed, or each job's mean. */
typedef enum pol_dp_tlimit {
    POL_DP_TLIMIT_TERMS = 0, /* sum_i sum_s [t_i(s) / l_i] (the paper's formula) */
    POL_DP_TLIMIT_MEANS = 1, /* sum_i [sum_s t_i(s) / l_i] */
} pol_dp_tlimit;

/* Discretization settings. */
typedef struct pol_dp_grid {
    double time_quantum; /* > 0: the smallest time cell */
    int64_t max_cells;   /* > 0: the most cells a limit may have */
    pol_dp_tlimit rule;  /* rounding of (2) */
} pol_dp_grid;

typedef struct pol_dp_result {
    bool feasible;
    double time;    /* sum of the chosen t_i */
    double cost;    /* sum of the chosen c_i */
    double t_limit; /* T* from (2) */
    double b_limit; /* B* from (3) (min-time problem), else 0 */
} pol_dp_result;

/* T* of (2) under rule with times counted in whole cells of q (q = 1
 * and whole times: exactly the paper's), in time units. A job without
 * alternatives adds 0. */
double pol_dp_time_limit(const pol_dp_batch *b, double q, pol_dp_tlimit rule);

/* min sum t_i under B* (3), T* (2). choice[i]: rank within job i.
 * A job without alternatives makes the problem infeasible. 0, ENG_INVAL,
 * ENG_NOMEM. */
int pol_dp_min_time(pol_dp *dp, const pol_dp_batch *b, const pol_dp_grid *grid, int32_t *choice,
                    pol_dp_result *res);

/* min sum c_i under T* (2). Same conventions. */
int pol_dp_min_cost(pol_dp *dp, const pol_dp_batch *b, const pol_dp_grid *grid, int32_t *choice,
                    pol_dp_result *res);

#endif
