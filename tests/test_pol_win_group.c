/* test_pol_win_group.c — KnapsackGroup, Greedy, Greedy+ and KnapsackSingle
 * (policies/alloc/pol_win_group.c): a hand-made case where group awareness
 * matters, singleton groups reducing to KnapsackP, and KnapsackGroup
 * against BruteForce on many random small instances (the optimum must be
 * equal, exactly, in both the paper's literal form and ours). */
#include "alloc/pol_win_brute.h"
#include "alloc/pol_win_group.h"
#include "alloc/pol_win_knapsack.h"
#include "bl_test.h"
#include "eng_error.h"

#include <gsl/gsl_rng.h>
#include <stdio.h>

/* Three members of a 0.9 group, three singletons of 0.95 (all cost 1):
 * for n = 3 the group is worth 0.9, the singletons 0.857375; KnapsackSingle
 * sees 0.95 > 0.9 per resource and takes the singletons. */
static void test_group_matters(void)
{
    const int64_t c[] = {1, 1, 1, 1, 1, 1};
    const int32_t g[] = {0, 0, 0, 1, 2, 3};
    const double gp[] = {0.9, 0.95, 0.95, 0.95};
    int32_t sel[4];
    pol_win_ws ws;
    pol_win_ws_init(&ws);
    pol_wg_problem pr = {.m = 6,
                         .cost = c,
                         .group = g,
                         .n_groups = 4,
                         .group_p = gp,
                         .n = 3,
                         .budget = POL_WIN_NO_BUDGET};
    pol_win_result r = {.sel = sel};
    pol_wg_stats st;
    for (int algo = 0; algo < 3; algo++)
        for (unsigned fl = 0; fl <= POL_WG_LITERAL; fl++) {
            CU_ASSERT_EQUAL(pol_win_group(&pr, (pol_wg_algo)algo, fl, &ws, &r, &st), 0);
            CU_ASSERT(r.n_sel == 3 && sel[0] == 0 && sel[1] == 1 && sel[2] == 2);
            CU_ASSERT_DOUBLE_EQUAL(r.p, 0.9, 1e-15);
            CU_ASSERT(st.tree_size >= 1 && st.evaluated >= 1);
        }
    CU_ASSERT_EQUAL(pol_win_group_single(&pr, &ws, &r), 0);
    CU_ASSERT(sel[0] == 3 && sel[1] == 4 && sel[2] == 5);
    CU_ASSERT_DOUBLE_EQUAL(r.p, 0.95 * 0.95 * 0.95, 1e-15);
    /* a budget of 2 for n = 3 fits nothing */
    pr.budget = 2;
    CU_ASSERT_EQUAL(pol_win_group(&pr, POL_WG_KNAPSACK, 0, &ws, &r, &st), 0);
    CU_ASSERT_EQUAL(r.n_sel, 0);
    /* the group's members dearer: cost decides between (3)-equal options */
    const int64_t c2[] = {5, 5, 5, 1, 1, 1};
    pr.cost = c2;
    pr.budget = 7; /* the group costs 15: singletons it is */
    CU_ASSERT_EQUAL(pol_win_group(&pr, POL_WG_KNAPSACK, 0, &ws, &r, &st), 0);
    CU_ASSERT_DOUBLE_EQUAL(r.p, 0.857375, 1e-15);
    const int32_t bad[] = {0, 0, 0, 1, 2, 4};
    pr.group = bad;
    CU_ASSERT_EQUAL(pol_win_group(&pr, POL_WG_KNAPSACK, 0, &ws, &r, &st), ENG_INVAL);
    CU_ASSERT_EQUAL(pol_win_group_single(&pr, &ws, &r), ENG_INVAL);
    pol_win_ws_fini(&ws);
}

/* POL_WG_MINC_PLAIN reaches Greedy's relaxations. Five singleton groups
 * (so (3) is (2)), the instance of test_pol_win_greedy.c's MinC test:
 * P = 0.1, 0.2, 0.3, 0.99, 0.98, costs 1, 1, 1, 2, 2, n = 2, budget 3. At
 * the root every group is open with p = P (k = 1); GreedyJnt ends in MinC
 * (MaxP and MaxP/C both take the two dear ones, cost 4), both chosen groups
 * are chosen completely, so the root's window is valid and Greedy returns
 * it: {1, 2} = 0.06 with the tie-break, {0, 1} = 0.02 without.
 * KnapsackGroup and Greedy+ (the exact search in Greedy's final subtree,
 * here the whole tree) find {2, 3} = 0.297 either way. */
static void test_greedy_minc_plain(void)
{
    const int64_t c[] = {1, 1, 1, 2, 2};
    const int32_t g[] = {0, 1, 2, 3, 4};
    const double gp[] = {0.1, 0.2, 0.3, 0.99, 0.98};
    int32_t sel[2];
    pol_win_ws ws;
    pol_win_ws_init(&ws);
    pol_wg_problem pr = {
        .m = 5, .cost = c, .group = g, .n_groups = 5, .group_p = gp, .n = 2, .budget = 3};
    pol_win_result r = {.sel = sel};
    CU_ASSERT_EQUAL(pol_win_group(&pr, POL_WG_GREEDY, 0, &ws, &r, NULL), 0);
    CU_ASSERT(r.n_sel == 2 && sel[0] == 1 && sel[1] == 2);
    CU_ASSERT_DOUBLE_EQUAL(r.p, 0.06, 1e-15);
    CU_ASSERT_EQUAL(pol_win_group(&pr, POL_WG_GREEDY, POL_WG_MINC_PLAIN, &ws, &r, NULL), 0);
    CU_ASSERT(r.n_sel == 2 && sel[0] == 0 && sel[1] == 1);
    CU_ASSERT_DOUBLE_EQUAL(r.p, 0.02, 1e-15);
    for (unsigned fl = 0; fl <= POL_WG_MINC_PLAIN; fl += POL_WG_MINC_PLAIN) {
        CU_ASSERT_EQUAL(pol_win_group(&pr, POL_WG_KNAPSACK, fl, &ws, &r, NULL), 0);
        CU_ASSERT(r.n_sel == 2 && sel[0] == 2 && sel[1] == 3);
        CU_ASSERT_DOUBLE_EQUAL(r.p, 0.297, 1e-15);
        CU_ASSERT_EQUAL(pol_win_group(&pr, POL_WG_GREEDY_PLUS, fl, &ws, &r, NULL), 0);
        CU_ASSERT_DOUBLE_EQUAL(r.p, 0.297, 1e-15);
    }
    pol_win_ws_fini(&ws);
}

/* Every resource its own group: (3) is (2) and KnapsackGroup is KnapsackP. */
/* Every group certain (P_a^G = 1): the first window is worth 1 and no
 * upper estimate can exceed it, so the search stops at once (before keys
 * were capped at 1, the open candidates' margin kept it splitting). */
static void test_all_certain(void)
{
    enum { M = 60, G = 30 };
    int64_t c[M];
    int32_t g[M];
    double gp[G];
    for (int j = 0; j < M; j++) {
        c[j] = 1 + j % 7;
        g[j] = j % G;
    }
    for (int k = 0; k < G; k++)
        gp[k] = 1.0;
    int32_t sel[20];
    pol_win_ws ws;
    pol_win_ws_init(&ws);
    pol_wg_problem pr = {
        .m = M, .cost = c, .group = g, .n_groups = G, .group_p = gp, .n = 20, .budget = 60};
    pol_win_result r = {.sel = sel};
    pol_wg_stats st;
    for (int algo = 0; algo < 3; algo++) {
        CU_ASSERT_EQUAL(pol_win_group(&pr, (pol_wg_algo)algo, 0, &ws, &r, &st), 0);
        CU_ASSERT(r.n_sel == 20 && r.feasible && r.p == 1.0);
        CU_ASSERT(st.tree_size <= 6); /* Greedy+ searches twice */
    }
    pol_win_ws_fini(&ws);
}

static void test_singletons(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 31);
    enum { M = 12 };
    int64_t c[M];
    int32_t g[M], s1[M], s2[M];
    double gp[M];
    pol_win_ws ws;
    pol_win_ws_init(&ws);
    for (int it = 0; it < 200; it++) {
        for (int j = 0; j < M; j++) {
            c[j] = 1 + (int64_t)gsl_rng_uniform_int(rng, 10);
            g[j] = j;
            gp[j] = 0.5 + 0.5 * gsl_rng_uniform(rng);
        }
        int32_t n = 1 + (int32_t)gsl_rng_uniform_int(rng, M);
        int64_t budget = (int64_t)gsl_rng_uniform_int(rng, 60);
        pol_wg_problem pg = {
            .m = M, .cost = c, .group = g, .n_groups = M, .group_p = gp, .n = n, .budget = budget};
        pol_win_problem pp = {.m = M, .p = gp, .cost = c, .n = n, .budget = budget};
        pol_win_result a = {.sel = s1}, b = {.sel = s2};
        pol_win_group(&pg, POL_WG_KNAPSACK, 0, &ws, &a, NULL);
        pol_win_knapsack(&pp, POL_WIN_KS_ALL, &ws, &b, NULL);
        CU_ASSERT_EQUAL(a.n_sel, b.n_sel);
        CU_ASSERT_EQUAL(a.p, b.p);
    }
    pol_win_ws_fini(&ws);
    gsl_rng_free(rng);
}

static void test_against_bruteforce(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 2023);
    enum { M = 13 };
    int64_t c[M];
    int32_t g[M], sb[M], sk[M], sl[M], sg[M], sp[M], ss[M];
    double gp[M];
    pol_win_ws ws;
    pol_win_ws_init(&ws);
    int mismatches = 0, greedy_below = 0, instances = 0;
    uint64_t tree_enh = 0, tree_lit = 0;
    for (int it = 0; it < 2000; it++) {
        size_t m = 2 + gsl_rng_uniform_int(rng, M - 1);
        size_t G = 1 + gsl_rng_uniform_int(rng, m);
        int64_t total = 0;
        for (size_t j = 0; j < m; j++) {
            c[j] = 1 + (int64_t)gsl_rng_uniform_int(rng, 10);
            total += c[j];
        }
        for (size_t k = 0; k < G; k++)
            gp[k] = 0.3 + 0.7 * gsl_rng_uniform(rng);
        /* random partition, groups possibly empty */
        for (size_t j = 0; j < m; j++)
            g[j] = (int32_t)gsl_rng_uniform_int(rng, G);
        int32_t n = 1 + (int32_t)gsl_rng_uniform_int(rng, m);
        int64_t budget = gsl_rng_uniform(rng) < 0.15
                             ? POL_WIN_NO_BUDGET
                             : (int64_t)gsl_rng_uniform_int(rng, (unsigned long)total + 1);
        pol_wg_problem pr = {
            .m = m, .cost = c, .group = g, .n_groups = G, .group_p = gp, .n = n, .budget = budget};
        pol_win_result bf = {.sel = sb}, kg = {.sel = sk}, kl = {.sel = sl}, gr = {.sel = sg},
                       gpl = {.sel = sp}, si = {.sel = ss};
        pol_wg_stats st_e, st_l;
        CU_ASSERT_EQUAL_FATAL(pol_win_brute_group(&pr, &ws, &bf, NULL), 0);
        CU_ASSERT_EQUAL_FATAL(pol_win_group(&pr, POL_WG_KNAPSACK, 0, &ws, &kg, &st_e), 0);
        CU_ASSERT_EQUAL_FATAL(pol_win_group(&pr, POL_WG_KNAPSACK, POL_WG_LITERAL, &ws, &kl, &st_l),
                              0);
        CU_ASSERT_EQUAL_FATAL(pol_win_group(&pr, POL_WG_GREEDY, 0, &ws, &gr, NULL), 0);
        CU_ASSERT_EQUAL_FATAL(pol_win_group(&pr, POL_WG_GREEDY_PLUS, 0, &ws, &gpl, NULL), 0);
        CU_ASSERT_EQUAL_FATAL(pol_win_group_single(&pr, &ws, &si), 0);
        tree_enh += st_e.tree_size;
        tree_lit += st_l.tree_size;
        instances++;
        bool bad = kg.n_sel != bf.n_sel || kg.p != bf.p || kl.n_sel != bf.n_sel || kl.p != bf.p ||
                   (kg.n_sel && !kg.feasible);
        /* the approximations never beat the optimum, and find a window iff
         * one exists; Greedy+ is at least Greedy */
        bad |= gr.n_sel != bf.n_sel || gr.p > bf.p || gpl.p > bf.p || gpl.p < gr.p ||
               si.n_sel != bf.n_sel || si.p > bf.p || (gr.n_sel && !gr.feasible) ||
               (si.n_sel && !si.feasible);
        greedy_below += gr.p < bf.p;
        if (bad && mismatches++ < 5)
            printf("\n  instance %d: m=%zu G=%zu n=%d budget=%lld: brute %.17g, group %.17g, "
                   "literal %.17g, greedy %.17g, greedy+ %.17g, single %.17g",
                   it, m, G, n, (long long)budget, bf.p, kg.p, kl.p, gr.p, gpl.p, si.p);
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    CU_ASSERT(greedy_below > 0); /* the instances are not trivial */
    CU_ASSERT(tree_enh <= tree_lit);
    printf("\n  %d instances, %d mismatches, Greedy below the optimum %d times, tree %llu "
           "(literal %llu) ",
           instances, mismatches, greedy_below, (unsigned long long)tree_enh,
           (unsigned long long)tree_lit);
    pol_win_ws_fini(&ws);
    gsl_rng_free(rng);
}

int bl_suite_pol_win_group(void)
{
    CU_pSuite s = CU_add_suite("pol_win_group", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "group awareness matters", test_group_matters);
    CU_add_test(s, "singleton groups reduce to KnapsackP", test_singletons);
    CU_add_test(s, "every group certain: the search stops at once", test_all_certain);
    CU_add_test(s, "Greedy's MinC stage with and without the tie-break", test_greedy_minc_plain);
    CU_add_test(s, "KnapsackGroup equals BruteForce on random instances", test_against_bruteforce);
    return 0;
}
