/* test_pol_win_brute.c — BruteForce (policies/alloc/pol_win_brute.c): it
 * visits every affordable subset and finds hand-computed optima of
 * criteria (2) and (3). */
#include "alloc/pol_win_brute.h"
#include "bl_test.h"
#include "eng_error.h"

static void test_criterion2(void)
{
    const double p[] = {0.99, 0.9, 0.1, 0.85, 0.5};
    const int64_t c[] = {10, 3, 1, 2, 0};
    int32_t sel[3];
    uint64_t visited;
    pol_win_problem pr = {.m = 5, .p = p, .cost = c, .n = 2, .budget = POL_WIN_NO_BUDGET};
    pol_win_result r = {.sel = sel};
    CU_ASSERT_EQUAL(pol_win_brute(&pr, NULL, &r, &visited), 0);
    CU_ASSERT_EQUAL(visited, 10); /* C(5, 2) */
    CU_ASSERT(r.n_sel == 2 && sel[0] == 0 && sel[1] == 1);
    pr.budget = 12;
    pol_win_brute(&pr, NULL, &r, &visited);
    CU_ASSERT(sel[0] == 0 && sel[1] == 3 && r.cost == 12);
    CU_ASSERT(visited < 10);
    pr.n = 3;
    pr.budget = 3; /* {2, 3, 4}: cost 3, 0.1 * 0.85 * 0.5 */
    pol_win_brute(&pr, NULL, &r, &visited);
    CU_ASSERT(r.n_sel == 3 && sel[0] == 2 && sel[1] == 3 && sel[2] == 4);
    CU_ASSERT_DOUBLE_EQUAL(r.p, 0.0425, 1e-15);
    pr.budget = 2;
    pol_win_brute(&pr, NULL, &r, &visited);
    CU_ASSERT_EQUAL(r.n_sel, 0);
    pr.n = 6;
    CU_ASSERT_EQUAL(pol_win_brute(&pr, NULL, &r, &visited), 0);
    CU_ASSERT_EQUAL(r.n_sel, 0);
}

/* Groups: three members of a 0.9 group against three singletons of 0.95:
 * the group (0.9) beats the singletons (0.857375) for n = 3. */
static void test_criterion3(void)
{
    const int64_t c[] = {1, 1, 1, 1, 1, 1};
    const int32_t g[] = {0, 0, 0, 1, 2, 3};
    const double gp[] = {0.9, 0.95, 0.95, 0.95};
    int32_t sel[4];
    uint64_t visited;
    pol_wg_problem pr = {.m = 6,
                         .cost = c,
                         .group = g,
                         .n_groups = 4,
                         .group_p = gp,
                         .n = 3,
                         .budget = POL_WIN_NO_BUDGET};
    pol_win_result r = {.sel = sel};
    CU_ASSERT_EQUAL(pol_win_brute_group(&pr, NULL, &r, &visited), 0);
    CU_ASSERT_EQUAL(visited, 20);
    CU_ASSERT(sel[0] == 0 && sel[1] == 1 && sel[2] == 2);
    CU_ASSERT_DOUBLE_EQUAL(r.p, 0.9, 1e-15);
    /* n = 4 needs a second group: 0.9 * 0.95 */
    pr.n = 4;
    pol_win_brute_group(&pr, NULL, &r, NULL);
    CU_ASSERT_DOUBLE_EQUAL(r.p, 0.9 * 0.95, 1e-15);
    const int32_t bad[] = {0, 0, 0, 1, 2, 7};
    pr.group = bad;
    CU_ASSERT_EQUAL(pol_win_brute_group(&pr, NULL, &r, NULL), ENG_INVAL);
}

int bl_suite_pol_win_brute(void)
{
    CU_pSuite s = CU_add_suite("pol_win_brute", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "criterion (2)", test_criterion2);
    CU_add_test(s, "criterion (3) with groups", test_criterion3);
    return 0;
}
