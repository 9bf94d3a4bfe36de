/* pol_win_brute.h — BruteForce: every n-subset of the m resources, the
 * exact optimum of the window problem (2) of pol_win.h and of the group
 * criterion (3) of pol_win_group.h (Toporkov, Yemelyanov & Tselishchev 2023
 * §3.1, used there up to N = 21 to check the other algorithms).
 *
 * Depth-first over index-ordered subsets; a branch stops only when its cost
 * already exceeds the budget (no bound on availability, so every affordable
 * subset is visited). Among equal optima the first subset in lexicographic
 * index order wins. Time O(C(m, n)) subsets, memory O(m + G).
 */
#ifndef POL_WIN_BRUTE_H
#define POL_WIN_BRUTE_H

#include "alloc/pol_win.h"
#include "alloc/pol_win_group.h"

/* Criterion (2). res->sel holds pr->n slots; n_sel = 0 when nothing fits.
 * *visited (may be NULL) counts the complete subsets evaluated. Returns 0 or
 * ENG_NOMEM. ws is not used (kept for a uniform signature). */
int pol_win_brute(const pol_win_problem *pr, pol_win_ws *ws, pol_win_result *res,
                  uint64_t *visited);

/* Criterion (3): groups multiply once. Same conventions. */
int pol_win_brute_group(const pol_wg_problem *pr, pol_win_ws *ws, pol_win_result *res,
                        uint64_t *visited);

#endif
