/* test_eng_island.c — island placement: the best-fit pick the engine and
 * the policies share, and what a start takes from each island. */
#include "bl_test.h"
#include "eng_policy.h"

static void test_pick(void)
{
    /* islands of 4, 2 and 3 units */
    const int32_t cap[] = {4, 2, 3};
    /* all free: 1 unit goes where the fewest free suffice (island 1, 2
     * free); 3 units to island 2 (3 free) rather than island 0 (4) */
    const int32_t all[] = {4, 2, 3};
    CU_ASSERT_EQUAL(pol_island_pick(3, cap, all, 1), 1);
    CU_ASSERT_EQUAL(pol_island_pick(3, cap, all, 2), 1);
    CU_ASSERT_EQUAL(pol_island_pick(3, cap, all, 3), 2);
    CU_ASSERT_EQUAL(pol_island_pick(3, cap, all, 4), 0);
    /* 5 units: more than any island holds, and 9 are free: spans */
    CU_ASSERT_EQUAL(pol_island_pick(3, cap, all, 5), POL_ISLAND_SPAN);
    CU_ASSERT_EQUAL(pol_island_pick(3, cap, all, 9), POL_ISLAND_SPAN);
    CU_ASSERT_EQUAL(pol_island_pick(3, cap, all, 10), POL_ISLAND_NONE);
    /* free 1, 2, 2: 5 units are free in all, yet a 3-unit job fits in no
     * island (island 0 could hold it but has only 1 free) */
    const int32_t some[] = {1, 2, 2};
    CU_ASSERT_EQUAL(pol_island_pick(3, cap, some, 3), POL_ISLAND_NONE);
    CU_ASSERT_EQUAL(pol_island_pick(3, cap, some, 5), POL_ISLAND_SPAN);
    CU_ASSERT_EQUAL(pol_island_pick(3, cap, some, 6), POL_ISLAND_NONE);
    /* ties on free units: the lowest island */
    CU_ASSERT_EQUAL(pol_island_pick(3, cap, some, 2), 1);
    CU_ASSERT_EQUAL(pol_island_pick(3, cap, some, 1), 0);
}

static void test_take(void)
{
    int32_t f[] = {4, 2, 3};
    pol_island_take(3, f, 2, 3);
    CU_ASSERT(f[0] == 4 && f[1] == 2 && f[2] == 0);
    /* spanning: islands in order, each as far as it goes: 4, then 1 */
    pol_island_take(3, f, POL_ISLAND_SPAN, 5);
    CU_ASSERT(f[0] == 0 && f[1] == 1 && f[2] == 0);
}

/* Units a running job holds per island, from its hosts in the view. */
static void test_held(void)
{
    pol_host hosts[] = {
        {.name = "a1", .cores = 4, .island = 0},
        {.name = "a2", .cores = 4, .island = 0},
        {.name = "b1", .cores = 4, .island = 1},
        {.name = "b2", .cores = 4, .island = 1},
    };
    const int32_t pos[] = {0, 2, 3}, cores[] = {4, 1, 3};
    pol_job j = {.n_alloc = 3, .alloc_off = 0};
    pol_view v = {.alloc = POL_ALLOC_NODE,
                  .hosts = hosts,
                  .n_hosts = 4,
                  .alloc_pos = pos,
                  .alloc_cores = cores,
                  .n_islands = 2};
    int32_t per[2] = {0, 0};
    pol_island_held(&v, &j, per);
    CU_ASSERT(per[0] == 1 && per[1] == 2);
    v.alloc = POL_ALLOC_CORE;
    per[0] = per[1] = 0;
    pol_island_held(&v, &j, per);
    CU_ASSERT(per[0] == 4 && per[1] == 4);
}

int bl_suite_eng_island(void)
{
    CU_pSuite s = CU_add_suite("eng_island", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "best-fit pick, spanning, none", test_pick);
    CU_add_test(s, "what a start takes", test_take);
    CU_add_test(s, "units held per island", test_held);
    return 0;
}
