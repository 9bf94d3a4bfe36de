/* pol_win.h — window allocation under availability uncertainty: choose n of
 * m resources, within a budget on their total cost, so that the product of
 * their availability probabilities is largest (problem (2) of Toporkov,
 * Yemelyanov & Grigorenko 2021; (4) of Toporkov, Yemelyanov & Tselishchev
 * 2023):
 *     max prod_j x_j p_j   s.t.  sum_j x_j c_j <= C,  sum_j x_j = n,  x_j in {0, 1}.
 *
 * This header holds what every algorithm of policies/alloc/ shares: the
 * problem, the result, the canonical value of a selection, the cost
 * discretization and a scratch workspace. The algorithms:
 *   pol_win_knapsack.h  KnapsackP, the dynamic program (exact)
 *   pol_win_greedy.h    MaxP, MinC, MaxP/C, GreedyJnt (= GreedyUnited)
 *   pol_win_brute.h     BruteForce for (2) and the group criterion (3)
 *   pol_win_scan.h      time scan: full, upper-bounded, starting points
 *   pol_win_group.h     KnapsackGroup branch and bound, Greedy, Greedy+,
 *                       KnapsackSingle
 *
 * Costs are integers ("cost units"). Real prices are mapped to units by
 * pol_win_discretize(), which rounds every cost up and the budget down, so
 * a selection that fits in units also fits in real money; with a unit u the
 * optimum found is at least the real optimum for budget C - n u. Studies
 * use integral costs, where the mapping is exact.
 *
 * Cost: pol_win_prob O(n^2) for n <= 32 (insertion sort), O(n log n) above;
 * pol_win_discretize O(m).
 */
#ifndef POL_WIN_H
#define POL_WIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* No budget: any selection is affordable. */
#define POL_WIN_NO_BUDGET INT64_MAX

typedef struct pol_win_problem {
    size_t m;            /* candidate resources */
    const double *p;     /* availability of each, in [0, 1] */
    const int64_t *cost; /* cost of each in units, >= 0 */
    int32_t n;           /* resources wanted, >= 1 */
    int64_t budget;      /* total cost bound in units, or POL_WIN_NO_BUDGET */
} pol_win_problem;

/* A selection. sel is the caller's array of at least n slots. */
typedef struct pol_win_result {
    int32_t n_sel; /* n when a selection is returned, else 0 */
    bool feasible; /* its cost is within the budget */
    double p;      /* pol_win_prob of the selection (0 when none) */
    int64_t cost;  /* its total cost in units */
    int32_t *sel;  /* chosen indices, ascending */
} pol_win_result;

/* The canonical value of a selection: the product of its p values taken in
 * decreasing order, so that two selections with the same values give
 * bitwise the same number whatever their indices (the algorithms' results
 * are compared for exact equality). scratch holds n doubles. */
double pol_win_prob(const double *p, const int32_t *sel, size_t n, double *scratch);

/* Fills res from the n indices in sel (sorted in place): cost, p,
 * feasibility. */
void pol_win_finish(const pol_win_problem *pr, pol_win_result *res, double *scratch);

/* Maps real costs and a real budget to units of `unit`: icost = ceil(c/u),
 * ibudget = floor(C/u) (with a 1e-9 relative tolerance, so values already
 * on the grid map exactly); budget INFINITY maps to POL_WIN_NO_BUDGET. */
void pol_win_discretize(const double *cost, size_t m, double budget, double unit, int64_t *icost,
                        int64_t *ibudget);

/* Scratch memory the algorithms grow and reuse across calls (a time scan
 * calls them hundreds of times). Caller's storage; init before use. */
typedef struct pol_win_ws {
    void *buf[8];
    size_t cap[8];
} pol_win_ws;

void pol_win_ws_init(pol_win_ws *ws);
void pol_win_ws_fini(pol_win_ws *ws);
/* Slot k (0..7) of at least bytes bytes, or NULL when out of memory. The
 * algorithms document which slots they use. */
void *pol_win_ws_get(pol_win_ws *ws, int slot, size_t bytes);

#endif
