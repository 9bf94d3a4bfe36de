/* pol_win_knapsack.h — KnapsackP: the exact dynamic program for the window
 * problem of pol_win.h (Toporkov & Yemelyanov 2020; Toporkov, Yemelyanov &
 * Grigorenko 2021 §3.3, recurrence (3); Toporkov, Yemelyanov & Tselishchev
 * 2023 (5)):
 *     f_j(c, v) = max{ f_{j-1}(c, v), f_{j-1}(c - c_j, v - 1) * p_j },
 * the best availability of v resources among the first j with cost <= c;
 * the optimum is f_m(C, n) and the selection comes from backward induction.
 *
 * Two implementations:
 *   pol_win_knapsack_ref  the recurrence as written: products, the whole
 *                         table f_j for every j kept, backward induction by
 *                         comparing f_j with f_{j-1}. Time and memory
 *                         O(m n C) doubles. The reference for tests and
 *                         measurements.
 *   pol_win_knapsack      the same optimum, faster:
 *     - log-probabilities: sums instead of products (no underflow for wide
 *       windows; a resource with p = 0 never enters the table — when no
 *       selection of positive p fits, every feasible one is worth 0 and
 *       MinC's is returned);
 *     - SHORTCUT: MaxP's selection is optimal whenever it is affordable
 *       (no table at all; always the case without a budget);
 *     - FILTER: a resource that does not fit the budget together with the
 *       n - 1 cheapest others cannot be in any feasible selection;
 *     - DOMINANCE: a resource with n others at least as cheap and at least
 *       as available (earlier in (cost, -p, index) order) can be swapped
 *       for one of them in any selection without loss, so it is dropped;
 *     - BOUNDS: the budget is capped at the cost of the n dearest kept
 *       resources; state (v, c) after resource k is computed only when v
 *       resources can be among the first k + 1 and n - v among the rest,
 *       and c is at least the cheapest cost of v resources;
 *     - the table keeps one decision byte per (j, v, c) and a rolling
 *       (n + 1) x (C + 1) row of values.
 *   Time O(m' n C') with m' <= m kept resources and C' <= C, memory
 *   O(m' n C') bytes. Exactness of each step is argued in the .c file;
 *   tests compare both with BruteForce on random instances.
 *
 * Ties are broken deterministically (a resource is taken only when it
 * strictly improves the state), but the optimum value, not the selection,
 * is what the tests compare.
 */
#ifndef POL_WIN_KNAPSACK_H
#define POL_WIN_KNAPSACK_H

#include "alloc/pol_win.h"

enum {
    POL_WIN_KS_SHORTCUT = 1u << 0,
    POL_WIN_KS_FILTER = 1u << 1,
    POL_WIN_KS_DOMINANCE = 1u << 2,
    POL_WIN_KS_BOUNDS = 1u << 3,
    POL_WIN_KS_ALL = 0xfu,
};

/* What one call did (for measurements). */
typedef struct pol_win_ks_stats {
    size_t items;   /* resources that entered the table */
    int64_t budget; /* budget used by the table (units) */
    uint64_t cells; /* (j, v, c) states computed */
    bool shortcut;  /* answered by MaxP without a table */
} pol_win_ks_stats;

/* Largest decision table pol_win_knapsack / _ref accept (bytes / cells);
 * above it they return ENG_RANGE: use a coarser cost unit. */
#define POL_WIN_KS_MAX_TABLE ((uint64_t)1 << 30)

/* Optimized KnapsackP. flags: POL_WIN_KS_* (POL_WIN_KS_ALL normally).
 * res->sel holds pr->n slots; on return n_sel = n with the optimal
 * selection, or 0 when no selection of n fits the budget. st may be NULL.
 * Returns 0, ENG_NOMEM, or ENG_RANGE (table too large). Workspace slots
 * 0, 1 (via MaxP/MinC) and 2..7. */
int pol_win_knapsack(const pol_win_problem *pr, unsigned flags, pol_win_ws *ws, pol_win_result *res,
                     pol_win_ks_stats *st);

/* The recurrence as written (see above). Without a budget C is the total
 * cost of the n dearest resources. Same results and codes. Workspace
 * slots 2..3. */
int pol_win_knapsack_ref(const pol_win_problem *pr, pol_win_ws *ws, pol_win_result *res);

#endif
