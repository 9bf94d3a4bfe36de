/* test_pol_win_knapsack.c — KnapsackP (policies/alloc/pol_win_knapsack.c):
 * hand-made optima, and the optimized and reference dynamic programs
 * against BruteForce on many random small instances, with every
 * combination of the reductions (the optimum must be equal, exactly). */
#include "alloc/pol_win_brute.h"
#include "alloc/pol_win_greedy.h"
#include "alloc/pol_win_knapsack.h"
#include "bl_test.h"
#include "eng_error.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The greedy suite's instance: with budget 12 the optimum {0, 3} (0.8415)
 * beats GreedyJnt's {1, 3} (0.765). */
static void test_hand_made(void)
{
    const double p[] = {0.99, 0.9, 0.1, 0.85};
    const int64_t c[] = {10, 3, 1, 2};
    int32_t sel[2];
    pol_win_ws ws;
    pol_win_ws_init(&ws);
    pol_win_problem pr = {.m = 4, .p = p, .cost = c, .n = 2, .budget = 12};
    pol_win_result r = {.sel = sel};
    pol_win_ks_stats st;
    CU_ASSERT_EQUAL(pol_win_knapsack(&pr, POL_WIN_KS_ALL, &ws, &r, &st), 0);
    CU_ASSERT(r.n_sel == 2 && sel[0] == 0 && sel[1] == 3 && r.feasible && r.cost == 12);
    CU_ASSERT_DOUBLE_EQUAL(r.p, 0.99 * 0.85, 1e-15);
    CU_ASSERT_FALSE(st.shortcut);
    CU_ASSERT_EQUAL(pol_win_knapsack_ref(&pr, &ws, &r), 0);
    CU_ASSERT(r.n_sel == 2 && sel[0] == 0 && sel[1] == 3);
    /* budget 13: MaxP is affordable, answered without a table */
    pr.budget = 13;
    CU_ASSERT_EQUAL(pol_win_knapsack(&pr, POL_WIN_KS_ALL, &ws, &r, &st), 0);
    CU_ASSERT(st.shortcut && sel[0] == 0 && sel[1] == 1);
    /* budget 11: {1, 3} (5, 0.765) beats {0, 2} (11, 0.099) */
    pr.budget = 11;
    pol_win_knapsack(&pr, POL_WIN_KS_ALL, &ws, &r, &st);
    CU_ASSERT(sel[0] == 1 && sel[1] == 3);
    /* budget 2: nothing fits */
    pr.budget = 2;
    CU_ASSERT_EQUAL(pol_win_knapsack(&pr, POL_WIN_KS_ALL, &ws, &r, &st), 0);
    CU_ASSERT_EQUAL(r.n_sel, 0);
    CU_ASSERT_EQUAL(pol_win_knapsack_ref(&pr, &ws, &r), 0);
    CU_ASSERT_EQUAL(r.n_sel, 0);
    /* every affordable selection holds p = 0: worth 0, still returned */
    const double pz[] = {0.0, 0.9, 0.0, 0.8};
    const int64_t cz[] = {1, 5, 1, 5};
    pol_win_problem z = {.m = 4, .p = pz, .cost = cz, .n = 2, .budget = 6};
    CU_ASSERT_EQUAL(pol_win_knapsack(&z, POL_WIN_KS_ALL, &ws, &r, NULL), 0);
    CU_ASSERT(r.n_sel == 2 && r.feasible && r.p == 0 && r.cost <= 6);
    CU_ASSERT_EQUAL(pol_win_knapsack_ref(&z, &ws, &r), 0);
    CU_ASSERT(r.n_sel == 2 && r.feasible && r.p == 0);
    /* a table too large is refused, not attempted */
    const double pb[] = {0.5, 0.6, 0.7};
    const int64_t cb[] = {1, 2, 3000000000LL};
    pol_win_problem big = {.m = 3, .p = pb, .cost = cb, .n = 2, .budget = 3000000001LL};
    CU_ASSERT_EQUAL(pol_win_knapsack(&big, POL_WIN_KS_SHORTCUT, &ws, &r, NULL), ENG_RANGE);
    CU_ASSERT_EQUAL(pol_win_knapsack_ref(&big, &ws, &r), ENG_RANGE);
    pol_win_ws_fini(&ws);
}

/* A random instance: m resources, p uniform with some exact 0s and 1s,
 * costs 0..10, a budget from below the cheapest selection to above the
 * dearest, or none. */
static void random_instance(gsl_rng *rng, size_t m, double *p, int64_t *c, int32_t *n,
                            int64_t *budget)
{
    int64_t total = 0;
    for (size_t j = 0; j < m; j++) {
        double u = gsl_rng_uniform(rng);
        p[j] = u < 0.05 ? 0.0 : u < 0.1 ? 1.0 : gsl_rng_uniform(rng);
        c[j] = (int64_t)gsl_rng_uniform_int(rng, 11);
        total += c[j];
    }
    *n = 1 + (int32_t)gsl_rng_uniform_int(rng, m);
    *budget = gsl_rng_uniform(rng) < 0.1
                  ? POL_WIN_NO_BUDGET
                  : (int64_t)gsl_rng_uniform_int(rng, (unsigned long)total + 3) - 1;
}

static void test_against_bruteforce(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 424242);
    pol_win_ws ws;
    pol_win_ws_init(&ws);
    enum { M = 14 };
    double p[M];
    int64_t c[M];
    int32_t s1[M], s2[M], s3[M];
    int mismatches = 0, instances = 0, tables = 0;
    for (int it = 0; it < 3000; it++) {
        size_t m = 1 + gsl_rng_uniform_int(rng, M);
        int32_t n;
        int64_t budget;
        random_instance(rng, m, p, c, &n, &budget);
        pol_win_problem pr = {.m = m, .p = p, .cost = c, .n = n, .budget = budget};
        pol_win_result bf = {.sel = s1}, ks = {.sel = s2}, ref = {.sel = s3};
        CU_ASSERT_EQUAL_FATAL(pol_win_brute(&pr, &ws, &bf, NULL), 0);
        CU_ASSERT_EQUAL_FATAL(pol_win_knapsack_ref(&pr, &ws, &ref), 0);
        bool bad = ref.n_sel != bf.n_sel || ref.p != bf.p;
        /* every subset of the reductions gives the same optimum */
        for (unsigned flags = 0; flags <= POL_WIN_KS_ALL; flags++) {
            pol_win_ks_stats st;
            CU_ASSERT_EQUAL_FATAL(pol_win_knapsack(&pr, flags, &ws, &ks, &st), 0);
            tables += !st.shortcut && st.cells > 0;
            if (ks.n_sel != bf.n_sel || ks.p != bf.p || (ks.n_sel && !ks.feasible))
                bad = true;
        }
        instances++;
        if (bad && mismatches++ < 5) {
            printf("\n  instance %d: m=%zu n=%d budget=%lld: brute %d %.17g, knapsack %d %.17g, "
                   "ref %d %.17g",
                   it, m, n, (long long)budget, bf.n_sel, bf.p, ks.n_sel, ks.p, ref.n_sel, ref.p);
        }
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    CU_ASSERT(tables > 1000); /* the tables were really exercised */
    printf("\n  %d instances, %d mismatches ", instances, mismatches);
    pol_win_ws_fini(&ws);
    gsl_rng_free(rng);
}

/* The reductions shrink the table: dominance leaves few resources when n
 * is small. */
static void test_reductions_shrink(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 9);
    enum { M = 64 };
    double p[M];
    int64_t c[M];
    for (int j = 0; j < M; j++) {
        p[j] = 1 - fabs(0.05 * gsl_rng_uniform(rng));
        c[j] = 1 + (int64_t)gsl_rng_uniform_int(rng, 10);
    }
    int32_t s1[6], s2[6];
    pol_win_ws ws;
    pol_win_ws_init(&ws);
    pol_win_problem pr = {.m = M, .p = p, .cost = c, .n = 6, .budget = 20};
    pol_win_result a = {.sel = s1}, b = {.sel = s2};
    pol_win_ks_stats all, none;
    pol_win_knapsack(&pr, POL_WIN_KS_ALL, &ws, &a, &all);
    pol_win_knapsack(&pr, 0, &ws, &b, &none);
    CU_ASSERT_EQUAL(a.p, b.p);
    CU_ASSERT(all.items < (size_t)M / 2);
    CU_ASSERT(all.cells * 4 < none.cells);
    pol_win_ws_fini(&ws);
    gsl_rng_free(rng);
}

int bl_suite_pol_win_knapsack(void)
{
    CU_pSuite s = CU_add_suite("pol_win_knapsack", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "hand-made optima and edge cases", test_hand_made);
    CU_add_test(s, "DP equals BruteForce on random instances", test_against_bruteforce);
    CU_add_test(s, "reductions shrink the table", test_reductions_shrink);
    return 0;
}
