/* test_pol_win_greedy.c — MaxP, MinC, MaxP/C and GreedyJnt
 * (policies/alloc/pol_win_greedy.c) on hand-made cases, including budgets
 * nothing fits. */
#include "alloc/pol_win_greedy.h"
#include "bl_test.h"

#include <math.h>

/* Four resources, n = 2:
 *   j   p     cost  p/c
 *   0   0.99  10    0.099
 *   1   0.9    3    0.3
 *   2   0.1    1    0.1
 *   3   0.85   2    0.425
 * MaxP = {0, 1} (cost 13, 0.891); MaxP/C = {1, 3} (cost 5, 0.765);
 * MinC = {2, 3} (cost 3, 0.085). */
static const double P4[] = {0.99, 0.9, 0.1, 0.85};
static const int64_t C4[] = {10, 3, 1, 2};

static pol_win_result run(pol_win_rule rule, int64_t budget, int32_t *sel)
{
    pol_win_problem pr = {.m = 4, .p = P4, .cost = C4, .n = 2, .budget = budget};
    pol_win_ws ws;
    pol_win_ws_init(&ws);
    pol_win_result r = {.sel = sel};
    CU_ASSERT_EQUAL(pol_win_greedy(&pr, rule, &ws, &r), 0);
    pol_win_ws_fini(&ws);
    return r;
}

static bool is_sel(const pol_win_result *r, int32_t a, int32_t b)
{
    return r->n_sel == 2 && r->sel[0] == a && r->sel[1] == b;
}

static void test_single_rules(void)
{
    int32_t sel[2];
    pol_win_result r = run(POL_WIN_MAXP, POL_WIN_NO_BUDGET, sel);
    CU_ASSERT(is_sel(&r, 0, 1) && r.feasible && r.cost == 13);
    CU_ASSERT_DOUBLE_EQUAL(r.p, 0.891, 1e-15);
    /* MaxP ignores the budget and says its choice is infeasible */
    r = run(POL_WIN_MAXP, 12, sel);
    CU_ASSERT(is_sel(&r, 0, 1) && !r.feasible);
    r = run(POL_WIN_MAXPC, 4, sel);
    CU_ASSERT(is_sel(&r, 1, 3) && !r.feasible && r.cost == 5);
    CU_ASSERT_DOUBLE_EQUAL(r.p, 0.765, 1e-15);
    r = run(POL_WIN_MINC, 3, sel);
    CU_ASSERT(is_sel(&r, 2, 3) && r.feasible && r.cost == 3);
    CU_ASSERT_DOUBLE_EQUAL(r.p, 0.085, 1e-15);
    /* MinC returns nothing when even the cheapest exceed the budget */
    r = run(POL_WIN_MINC, 2, sel);
    CU_ASSERT_EQUAL(r.n_sel, 0);
    CU_ASSERT_FALSE(r.feasible);
    CU_ASSERT_EQUAL(r.p, 0);
    CU_ASSERT_STRING_EQUAL(pol_win_rule_name(POL_WIN_GREEDYJNT), "greedyjnt");
    CU_ASSERT_STRING_EQUAL(pol_win_rule_name(POL_WIN_MAXPC), "maxpc");
}

/* GreedyJnt falls from MaxP to MaxP/C to MinC to nothing as the budget
 * shrinks. */
static void test_greedyjnt_stages(void)
{
    int32_t sel[2];
    pol_win_result r = run(POL_WIN_GREEDYJNT, 13, sel);
    CU_ASSERT(is_sel(&r, 0, 1) && r.feasible);
    r = run(POL_WIN_GREEDYJNT, 12, sel); /* the optimum here is {0, 3}: 0.8415 */
    CU_ASSERT(is_sel(&r, 1, 3) && r.feasible);
    r = run(POL_WIN_GREEDYJNT, 5, sel);
    CU_ASSERT(is_sel(&r, 1, 3) && r.feasible);
    r = run(POL_WIN_GREEDYJNT, 4, sel);
    CU_ASSERT(is_sel(&r, 2, 3) && r.feasible);
    r = run(POL_WIN_GREEDYJNT, 3, sel);
    CU_ASSERT(is_sel(&r, 2, 3) && r.feasible);
    r = run(POL_WIN_GREEDYJNT, 2, sel);
    CU_ASSERT_EQUAL(r.n_sel, 0);
    CU_ASSERT_FALSE(r.feasible);
    r = run(POL_WIN_GREEDYJNT, POL_WIN_NO_BUDGET, sel);
    CU_ASSERT(is_sel(&r, 0, 1) && r.feasible);
}

/* Ties, zero costs, too few resources. */
static void test_edges(void)
{
    const double p[] = {0.8, 0.8, 0.8, 0.5};
    const int64_t c[] = {5, 2, 2, 0};
    int32_t sel[3];
    pol_win_ws ws;
    pol_win_ws_init(&ws);
    pol_win_problem pr = {.m = 4, .p = p, .cost = c, .n = 2, .budget = POL_WIN_NO_BUDGET};
    pol_win_result r = {.sel = sel};
    /* equal p: the cheaper, then the lower index */
    pol_win_greedy(&pr, POL_WIN_MAXP, &ws, &r);
    CU_ASSERT(r.sel[0] == 1 && r.sel[1] == 2);
    /* cost 0 ranks first for MaxP/C */
    pol_win_greedy(&pr, POL_WIN_MAXPC, &ws, &r);
    CU_ASSERT(r.sel[0] == 1 && r.sel[1] == 3);
    /* MinC: cost 0 first, then the cheaper of equal p by index */
    pol_win_greedy(&pr, POL_WIN_MINC, &ws, &r);
    CU_ASSERT(r.sel[0] == 1 && r.sel[1] == 3);
    pr.n = 5;
    for (int rule = 0; rule < 4; rule++) {
        CU_ASSERT_EQUAL(pol_win_greedy(&pr, (pol_win_rule)rule, &ws, &r), 0);
        CU_ASSERT_EQUAL(r.n_sel, 0);
    }
    pr.n = 0;
    CU_ASSERT_EQUAL(pol_win_greedy(&pr, POL_WIN_MAXP, &ws, &r), 0);
    CU_ASSERT_EQUAL(r.n_sel, 0);
    pol_win_ws_fini(&ws);
}

/* MinC with and without the tie-break on p. n = 2, budget 3:
 *   j   p     cost  p/c
 *   0   0.1   1     0.1
 *   1   0.2   1     0.2
 *   2   0.3   1     0.3
 *   3   0.99  2     0.495
 *   4   0.98  2     0.49
 * Three resources share the least cost. MinC with the tie-break takes the
 * two of higher p, {1, 2} (0.2 x 0.3 = 0.06); as the papers write it ("MinC
 * does not perform any availability optimization", POL_WIN_MINC_PLAIN) the
 * first two by index, {0, 1} (0.1 x 0.2 = 0.02). Both cost 2. MaxP and
 * MaxP/C both take {3, 4} (cost 4 > 3), so GreedyJnt ends in MinC and
 * returns the same two; the optimum, {2, 3} (0.297, cost 3), is out of
 * every greedy rule's reach. The flag changes MinC only. */
static void test_minc_tiebreak(void)
{
    const double p[] = {0.1, 0.2, 0.3, 0.99, 0.98};
    const int64_t c[] = {1, 1, 1, 2, 2};
    int32_t sel[2];
    pol_win_ws ws;
    pol_win_ws_init(&ws);
    pol_win_problem pr = {.m = 5, .p = p, .cost = c, .n = 2, .budget = 3};
    pol_win_result r = {.sel = sel};
    static const pol_win_rule rules[] = {POL_WIN_MINC, POL_WIN_GREEDYJNT};
    for (int k = 0; k < 2; k++) {
        CU_ASSERT_EQUAL(pol_win_greedy_flags(&pr, rules[k], 0, &ws, &r), 0);
        CU_ASSERT(is_sel(&r, 1, 2) && r.feasible && r.cost == 2);
        CU_ASSERT_DOUBLE_EQUAL(r.p, 0.06, 1e-15);
        CU_ASSERT_EQUAL(pol_win_greedy(&pr, rules[k], &ws, &r), 0); /* flags 0 */
        CU_ASSERT(is_sel(&r, 1, 2));
        CU_ASSERT_EQUAL(pol_win_greedy_flags(&pr, rules[k], POL_WIN_MINC_PLAIN, &ws, &r), 0);
        CU_ASSERT(is_sel(&r, 0, 1) && r.feasible && r.cost == 2);
        CU_ASSERT_DOUBLE_EQUAL(r.p, 0.02, 1e-15);
    }
    /* MaxP and MaxP/C do not read the flag */
    CU_ASSERT_EQUAL(pol_win_greedy_flags(&pr, POL_WIN_MAXP, POL_WIN_MINC_PLAIN, &ws, &r), 0);
    CU_ASSERT(is_sel(&r, 3, 4) && !r.feasible);
    CU_ASSERT_EQUAL(pol_win_greedy_flags(&pr, POL_WIN_MAXPC, POL_WIN_MINC_PLAIN, &ws, &r), 0);
    CU_ASSERT(is_sel(&r, 3, 4) && !r.feasible);
    /* a budget of 1 fits nothing, with or without the tie-break */
    pr.budget = 1;
    CU_ASSERT_EQUAL(pol_win_greedy_flags(&pr, POL_WIN_MINC, POL_WIN_MINC_PLAIN, &ws, &r), 0);
    CU_ASSERT_EQUAL(r.n_sel, 0);
    pol_win_ws_fini(&ws);
}

int bl_suite_pol_win_greedy(void)
{
    CU_pSuite s = CU_add_suite("pol_win_greedy", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "MaxP, MinC, MaxP/C", test_single_rules);
    CU_add_test(s, "GreedyJnt stages and infeasible budgets", test_greedyjnt_stages);
    CU_add_test(s, "ties, zero costs, too few resources", test_edges);
    CU_add_test(s, "MinC with and without the tie-break on p", test_minc_tiebreak);
    return 0;
}
