/* test_pol_win.c — what the window algorithms share
 * (policies/alloc/pol_win.c): the canonical value of a selection, the
 * integer cost discretization and the workspace. */
#include "alloc/pol_win.h"
#include "bl_test.h"

#include <math.h>

/* The value does not depend on the order of the selection, bit for bit. */
static void test_canonical_prob(void)
{
    const double p[] = {0.91, 0.37, 0.73, 0.55, 0.999};
    const int32_t a[] = {0, 1, 2, 3, 4}, b[] = {4, 2, 0, 3, 1}, c[] = {3, 1, 4, 0, 2};
    double s[5];
    double va = pol_win_prob(p, a, 5, s);
    CU_ASSERT_EQUAL(va, pol_win_prob(p, b, 5, s));
    CU_ASSERT_EQUAL(va, pol_win_prob(p, c, 5, s));
    CU_ASSERT_DOUBLE_EQUAL(va, 0.91 * 0.37 * 0.73 * 0.55 * 0.999, 1e-15);
    CU_ASSERT_EQUAL(pol_win_prob(p, a, 0, s), 1.0);
    /* finish: sorts, costs, feasibility */
    const int64_t cost[] = {3, 1, 4, 1, 5};
    pol_win_problem pr = {.m = 5, .p = p, .cost = cost, .n = 3, .budget = 8};
    int32_t sel[3] = {4, 0, 1};
    pol_win_result r = {.n_sel = 3, .sel = sel};
    pol_win_finish(&pr, &r, s);
    CU_ASSERT(sel[0] == 0 && sel[1] == 1 && sel[2] == 4);
    CU_ASSERT_EQUAL(r.cost, 9);
    CU_ASSERT_FALSE(r.feasible);
    pr.budget = POL_WIN_NO_BUDGET;
    pol_win_finish(&pr, &r, s);
    CU_ASSERT_TRUE(r.feasible);
}

/* Costs round up, the budget down; values on the grid map exactly. */
static void test_discretize(void)
{
    const double cost[] = {200, 400.0000000001, 399.9, 0, 1e-12};
    int64_t ic[5], ib;
    pol_win_discretize(cost, 5, 1200, 200, ic, &ib);
    CU_ASSERT_EQUAL(ic[0], 1);
    CU_ASSERT_EQUAL(ic[1], 2); /* within the tolerance of the grid */
    CU_ASSERT_EQUAL(ic[2], 2);
    CU_ASSERT_EQUAL(ic[3], 0);
    CU_ASSERT_EQUAL(ic[4], 0);
    CU_ASSERT_EQUAL(ib, 6);
    pol_win_discretize(cost, 5, 1199.5, 200, ic, &ib);
    CU_ASSERT_EQUAL(ib, 5);
    pol_win_discretize(cost, 5, INFINITY, 200, ic, &ib);
    CU_ASSERT_EQUAL(ib, POL_WIN_NO_BUDGET);
    pol_win_discretize(cost, 5, -3, 1, ic, &ib);
    CU_ASSERT(ib < 0);
    /* soundness: a selection within the integer budget is within the real one */
    const double c2[] = {1.3, 2.7, 0.2};
    pol_win_discretize(c2, 3, 4.25, 0.5, ic, &ib);
    CU_ASSERT(ic[0] == 3 && ic[1] == 6 && ic[2] == 1 && ib == 8);
    CU_ASSERT(0.5 * (double)(ic[0] + ic[2]) >= c2[0] + c2[2]);
}

static void test_workspace(void)
{
    pol_win_ws ws;
    pol_win_ws_init(&ws);
    char *a = pol_win_ws_get(&ws, 3, 10);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    a[9] = 1;
    char *b = pol_win_ws_get(&ws, 3, 5);
    CU_ASSERT_PTR_EQUAL(a, b); /* no shrink, no move */
    char *c = pol_win_ws_get(&ws, 3, 100000);
    CU_ASSERT_PTR_NOT_NULL(c);
    CU_ASSERT(ws.cap[3] >= 100000);
    pol_win_ws_fini(&ws);
    pol_win_ws_fini(NULL);
}

int bl_suite_pol_win(void)
{
    CU_pSuite s = CU_add_suite("pol_win", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "canonical value of a selection", test_canonical_prob);
    CU_add_test(s, "integer cost discretization", test_discretize);
    CU_add_test(s, "workspace", test_workspace);
    return 0;
}
