/* test_pol_shadow.c — shadow time and extra units (EASY's reservation). */
#include "bl_test.h"
#include "pol_shadow.h"

#include <math.h>

static void test_known_answers(void)
{
    /* 10 units; running: A 3 units until 50, B 2 until 50, C 4 until 80.
     * 1 free now. */
    pol_job a = {.idx = 0, .units = 3, .expected_end_s = 50};
    pol_job b = {.idx = 1, .units = 2, .expected_end_s = 50};
    pol_job c = {.idx = 2, .units = 4, .expected_end_s = 80};
    const pol_job *running[] = {&a, &b, &c};
    pol_view v = {
        .now_s = 10, .total_units = 10, .free_units = 1, .running = running, .n_running = 3};
    double shadow;
    int32_t extra;
    /* need 3: at 50 A alone would do (1+3 = 4), but B ends then too: extra
     * counts both, 1+3+2-3 = 3, whatever the order of A and B */
    CU_ASSERT_EQUAL(pol_shadow(&v, NULL, 0, 1, 3, &shadow, &extra), 0);
    CU_ASSERT_DOUBLE_EQUAL(shadow, 50, 0);
    CU_ASSERT_EQUAL(extra, 3);
    /* need 8: only at 80 (1+3+2+4 = 10), extra 2 */
    CU_ASSERT_EQUAL(pol_shadow(&v, NULL, 0, 1, 8, &shadow, &extra), 0);
    CU_ASSERT_DOUBLE_EQUAL(shadow, 80, 0);
    CU_ASSERT_EQUAL(extra, 2);
    /* jobs started in this call count with now + estimate: D (1 unit, 20 s)
     * ends at 30, before A and B */
    pol_job d = {.idx = 3, .units = 1, .estimate_s = 20};
    const pol_job *started[] = {&d};
    CU_ASSERT_EQUAL(pol_shadow(&v, started, 1, 0, 1, &shadow, &extra), 0);
    CU_ASSERT_DOUBLE_EQUAL(shadow, 30, 0);
    CU_ASSERT_EQUAL(extra, 0);
    /* an overdue expected end is clamped to now (pitfall 10) */
    a.expected_end_s = 5;
    CU_ASSERT_EQUAL(pol_shadow(&v, NULL, 0, 1, 4, &shadow, &extra), 0);
    CU_ASSERT_DOUBLE_EQUAL(shadow, 10, 0);
    /* never enough */
    CU_ASSERT_EQUAL(pol_shadow(&v, NULL, 0, 1, 11, &shadow, &extra), -1);
    CU_ASSERT(isinf(shadow));
}

int bl_suite_pol_shadow(void)
{
    CU_pSuite s = CU_add_suite("pol_shadow", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "shadow time and extra units", test_known_answers);
    return 0;
}
