/* pol_win_greedy.h — the greedy rules for the window problem of pol_win.h
 * (Toporkov, Yemelyanov & Grigorenko 2021 §3.4; Toporkov, Yemelyanov &
 * Tselishchev 2023 §2.3, where GreedyJnt is called GreedyUnited):
 *
 *   MaxP    the n resources of highest p (ties: cheaper, then lower index);
 *           ignores the budget, so its selection may be infeasible
 *           (res->feasible tells) — it is the best availability any budget
 *           can buy, and optimal whenever it is affordable.
 *   MinC    the n cheapest (ties: higher p, then lower index), or nothing
 *           (n_sel = 0) when even they exceed the budget: the least budget
 *           any feasible selection needs. With POL_WIN_MINC_PLAIN, ties
 *           of cost go to the lower index alone, as both papers write it:
 *           "MinC does not perform any availability optimization"
 *           (2021 §3.4, 2023 §2.3).
 *   MaxP/C  the n of highest p / c (cost 0 ranks first, by p); may be
 *           infeasible.
 *   GreedyJnt  MaxP if affordable, else MaxP/C if affordable, else MinC if
 *           affordable, else nothing.
 *
 * Selection is a bounded insertion of the n best keys: O(m n) worst case,
 * O(m + n log n) typically (the paper's O(m log m) with a full sort).
 * Workspace slot 0 (keys) and slot 1 (values for pol_win_prob).
 */
#ifndef POL_WIN_GREEDY_H
#define POL_WIN_GREEDY_H

#include "alloc/pol_win.h"

typedef enum pol_win_rule {
    POL_WIN_MAXP = 0,
    POL_WIN_MINC = 1,
    POL_WIN_MAXPC = 2,
    POL_WIN_GREEDYJNT = 3,
} pol_win_rule;

/* "maxp", "minc", "maxpc", "greedyjnt". */
const char *pol_win_rule_name(pol_win_rule rule);

enum {
    /* MinC (alone or as GreedyJnt's last stage) ranks by cost alone, ties
     * by index, without the tie-break on p */
    POL_WIN_MINC_PLAIN = 1u << 0,
};

/* Applies one rule. res->sel must hold pr->n slots. n_sel = 0 when m < n
 * or (MinC, GreedyJnt) nothing is affordable. Returns 0 or ENG_NOMEM. */
int pol_win_greedy(const pol_win_problem *pr, pol_win_rule rule, pol_win_ws *ws,
                   pol_win_result *res);

/* pol_win_greedy with flags (POL_WIN_MINC_PLAIN or 0; 0 is pol_win_greedy). */
int pol_win_greedy_flags(const pol_win_problem *pr, pol_win_rule rule, unsigned flags,
                         pol_win_ws *ws, pol_win_result *res);

#endif
