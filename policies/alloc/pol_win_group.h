/* pol_win_group.h — window allocation with group dependencies (Toporkov,
 * Yemelyanov & Tselishchev 2023, §2.2 and §2.4): resources are partitioned
 * into groups whose members share one availability P_a^G (the hosts of a
 * parallel job share its allocation and release), so a window is worth
 *     P_a^w = prod over the distinct groups it uses of P_a^G        (3)
 * and n resources are chosen within a budget to maximize (3).
 *
 * KnapsackGroup is the paper's branch and bound: a max-heap H of candidate
 * solutions S, each with groups that must be used (G+), must not be used
 * (G-) and are still open (G0 = the rest). The root has G+ = G- = {} and
 * key -infinity. Pop S; if S is a valid solution, it is optimal. Otherwise
 * build the resources R_s: for each G+ group its cheapest member is put in
 * the window with p = P_a^G and its other members offered with p = 1; each
 * member of a G0 group of k members is offered with p = (P_a^G)^(1/k) (the
 * k-th-root split: choosing j <= k of them is worth P^(j/k) >= P, so the
 * relaxation bounds (3) from above). Solve this instance of (2) with
 * KnapsackP (or GreedyJnt); if every chosen resource belongs to a G+ group
 * the solution is valid and goes back into H with its value; else a G0
 * group G_s holding a chosen resource splits S into S+ (G_s in G+) and S-
 * (G_s in G-), both pushed with S's value as their upper estimate.
 *
 * Choices the paper leaves open, made here: G_s is the open group the
 * relaxation overrates most — j of its k members chosen are valued P^(j/k)
 * instead of P, (k - j)/k * (-log P) too much in log terms — ties to the
 * lowest group index (on N = 200, G = 40, n = 20, C = 40 this makes the
 * tree 4-5 times smaller than branching on the group with the most chosen
 * members, the other natural reading); H orders by key, then
 * valid before open, then creation order; open candidates' keys are raised
 * by a relative 1e-12 so that rounding in the k-th roots can never prune an
 * optimal branch, and capped at 1 (no window is worth more), so that an
 * incumbent of 1 ends the search. Two exact refinements are on unless POL_WG_LITERAL:
 *   - a solution whose open groups are all chosen completely is valid too
 *     (its relaxed value is then its true value (3));
 *   - every relaxed solution is a feasible window: the best true value seen
 *     is an incumbent, pushed as a valid candidate, and children whose
 *     upper estimate does not exceed it are not created.
 * Neither changes the optimum; both shrink the tree (measured by
 * bench/groups-study.sh).
 *
 * Variants (§3.1): KnapsackGroup solves every relaxation with KnapsackP
 * (exact: the optimum equals BruteForce's); Greedy with GreedyJnt (its
 * keys are then no longer bounds: approximate; POL_WG_MINC_PLAIN takes
 * its MinC stage as the paper writes it, ties of cost by index, not by
 * p); Greedy+ runs Greedy, then
 * re-optimizes its final candidate exactly — our reading of "the final
 * solution optimization is performed again using KnapsackP": the
 * KnapsackGroup search restricted to that candidate's subtree (its G+ and
 * G- kept), which can only improve on Greedy. KnapsackSingle ignores the
 * groups: KnapsackP with every resource at its group's P_a^G, the result
 * then valued by (3).
 *
 * Cost: each candidate costs one relaxation (KnapsackP O(m n C) at most,
 * GreedyJnt O(m n)); the tree is exponential in G in the worst case and
 * small in practice (tree size reported in pol_wg_stats).
 */
#ifndef POL_WIN_GROUP_H
#define POL_WIN_GROUP_H

#include "alloc/pol_win.h"

typedef struct pol_wg_problem {
    size_t m;             /* resources */
    const int64_t *cost;  /* cost of each in units, >= 0 */
    const int32_t *group; /* group of each, 0..n_groups-1 */
    size_t n_groups;
    const double *group_p; /* P_a^G of each group, in [0, 1] */
    int32_t n;             /* resources wanted */
    int64_t budget;        /* units, or POL_WIN_NO_BUDGET */
} pol_wg_problem;

typedef enum pol_wg_algo {
    POL_WG_KNAPSACK = 0,   /* KnapsackGroup */
    POL_WG_GREEDY = 1,     /* Greedy */
    POL_WG_GREEDY_PLUS = 2 /* Greedy+ */
} pol_wg_algo;

enum {
    /* the paper's algorithm only: validity = all chosen in G+, no incumbent */
    POL_WG_LITERAL = 1u << 0,
    /* Greedy, Greedy+: GreedyJnt's MinC stage without the tie-break on p
     * (POL_WIN_MINC_PLAIN of pol_win_greedy.h); KnapsackGroup ignores it */
    POL_WG_MINC_PLAIN = 1u << 1,
};

typedef struct pol_wg_stats {
    uint64_t tree_size; /* candidates created (pushed into H), root included */
    uint64_t evaluated; /* relaxations solved */
    uint64_t heap_max;  /* largest size of H */
} pol_wg_stats;

/* Criterion (3) of a selection (group values multiplied in decreasing
 * order: equal group sets give bitwise equal values). scratch holds n
 * doubles. */
double pol_wg_prob(const pol_wg_problem *pr, const int32_t *sel, size_t n, double *scratch);

/* Fills res from the n indices in res->sel (sorted in place): cost,
 * feasibility, value (3). */
void pol_wg_finish(const pol_wg_problem *pr, pol_win_result *res, double *scratch);

/* KnapsackGroup, Greedy or Greedy+. res->sel holds pr->n slots; n_sel = 0
 * when no selection fits. st may be NULL. Returns 0, ENG_NOMEM, ENG_RANGE
 * (a relaxation's table too large: coarser cost units), ENG_INVAL (a group
 * index out of range). */
int pol_win_group(const pol_wg_problem *pr, pol_wg_algo algo, unsigned flags, pol_win_ws *ws,
                  pol_win_result *res, pol_wg_stats *st);

/* KnapsackSingle: KnapsackP ignoring the groups, valued by (3). */
int pol_win_group_single(const pol_wg_problem *pr, pol_win_ws *ws, pol_win_result *res);

#endif
