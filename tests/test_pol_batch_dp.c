/* test_pol_batch_dp.c — the backward-run dynamic program (1) and the
 * limits (2), (3): a hand-worked run, T* and B* by hand, infeasible and
 * zero-cost batches, and small random batches against brute force over
 * every combination (exactly for integer data, and on the same grid for
 * real data). */
#include "bl_test.h"
#include "eng_error.h"
#include "slots/pol_batch_dp.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Two jobs; (g, w): job 1 (5, 3), (8, 1); job 2 (4, 2), (6, 1).
 * Limit 3: (1st, *) weighs 5 or 4: out; (8,1)+(4,2) = 12 (w 3),
 * (8,1)+(6,1) = 14 (w 2): min 12 = ranks (1, 0); max 14 = (1, 1).
 * Limit 5: (5,3)+(4,2) = 9 is the min. Limit 1: nothing fits. */
static void test_run_by_hand(void)
{
    pol_dp dp;
    pol_dp_init(&dp);
    size_t off[] = {0, 2, 4};
    double g[] = {5, 8, 4, 6};
    int64_t w[] = {3, 1, 2, 1};
    int32_t ch[2];
    double best;
    bool ok;
    CU_ASSERT_EQUAL(pol_dp_run(&dp, 2, off, g, w, 3, false, ch, &best, &ok), 0);
    CU_ASSERT(ok && best == 12 && ch[0] == 1 && ch[1] == 0);
    CU_ASSERT_EQUAL(pol_dp_run(&dp, 2, off, g, w, 3, true, ch, &best, &ok), 0);
    CU_ASSERT(ok && best == 14 && ch[0] == 1 && ch[1] == 1);
    CU_ASSERT_EQUAL(pol_dp_run(&dp, 2, off, g, w, 5, false, ch, &best, &ok), 0);
    CU_ASSERT(ok && best == 9 && ch[0] == 0 && ch[1] == 0);
    CU_ASSERT_EQUAL(pol_dp_run(&dp, 2, off, g, w, 1, false, ch, &best, &ok), 0);
    CU_ASSERT(!ok);
    CU_ASSERT_EQUAL(pol_dp_run(&dp, 2, off, g, w, -1, false, ch, &best, &ok), ENG_INVAL);
    /* no job: f_1 = f_{n+1} = 0 */
    CU_ASSERT_EQUAL(pol_dp_run(&dp, 0, off, g, w, 4, false, ch, &best, &ok), 0);
    CU_ASSERT(ok && best == 0);
    pol_dp_fini(&dp);
}

/* Rows are computed only where the forward read can go. Jobs (g, w):
 * J1 (4, 2), (7, 1); J2 (3, 3), (9, 1); J3 (2, 2), (5, 0); limit 4.
 * Within 4: (a, b, b) w 3 g 18; (b, a, b) w 4 g 15; (b, b, a) w 4 g 18;
 * (b, b, b) w 2 g 21 -> min 15 = ranks (1, 0, 1), max 21 = (1, 1, 1).
 * Reachable limits: row 1 {4}, row 2 [2, 3], row 3 [0, 2], row 4 [0, 2].
 * The tables are first filled by a run whose values are all -100 or
 * below, so that a read of a cell outside those ranges would win the
 * minimum. */
static void test_run_reads_only_reachable_cells(void)
{
    pol_dp dp;
    pol_dp_init(&dp);
    size_t off[] = {0, 2, 4, 6};
    double g[] = {4, 7, 3, 9, 2, 5}, junk[] = {-100, -200, -100, -300, -100, -100};
    int64_t w[] = {2, 1, 3, 1, 2, 0}, wj[] = {0, 0, 0, 0, 0, 0};
    int32_t ch[3];
    double best;
    bool ok;
    CU_ASSERT_EQUAL(pol_dp_run(&dp, 3, off, junk, wj, 4, false, ch, &best, &ok), 0);
    CU_ASSERT(ok && best == -600);
    CU_ASSERT_EQUAL(pol_dp_run(&dp, 3, off, g, w, 4, false, ch, &best, &ok), 0);
    CU_ASSERT(ok && best == 15 && ch[0] == 1 && ch[1] == 0 && ch[2] == 1);
    CU_ASSERT_EQUAL(pol_dp_run(&dp, 3, off, junk, wj, 4, true, ch, &best, &ok), 0);
    CU_ASSERT_EQUAL(pol_dp_run(&dp, 3, off, g, w, 4, true, ch, &best, &ok), 0);
    CU_ASSERT(ok && best == 21 && ch[0] == 1 && ch[1] == 1 && ch[2] == 1);
    pol_dp_fini(&dp);
}

/* Job 1: (t, c) = (10, 50), (20, 20), (30, 10); job 2: (5, 40), (15, 8).
 * (2), floor term by term: T* = [10/3] + [20/3] + [30/3] + [5/2] + [15/2]
 * = 3 + 6 + 10 + 2 + 7 = 28. Combinations (T, C): (15, 90) (25, 58) (25, 60) (35, 28) (35, 50)
 * (45, 18). (3): within 28, the largest cost is 90 -> B* = 90. min T under
 * 90: 15 (cost 90). min C under T* = 28: 58 (T 25: ranks 0 and 1). */
static void test_limits_by_hand(void)
{
    pol_dp dp;
    pol_dp_init(&dp);
    size_t off[] = {0, 3, 5};
    double t[] = {10, 20, 30, 5, 15}, c[] = {50, 20, 10, 40, 8};
    pol_dp_batch b = {.n_jobs = 2, .off = off, .time = t, .cost = c};
    CU_ASSERT_DOUBLE_EQUAL(pol_dp_time_limit(&b, 1, POL_DP_TLIMIT_TERMS), 28, 0);
    pol_dp_grid grid = {.time_quantum = 1, .max_cells = 100000};
    int32_t ch[2];
    pol_dp_result r;
    CU_ASSERT_EQUAL(pol_dp_min_time(&dp, &b, &grid, ch, &r), 0);
    CU_ASSERT(r.feasible);
    CU_ASSERT_DOUBLE_EQUAL(r.b_limit, 90, 0);
    CU_ASSERT_DOUBLE_EQUAL(r.time, 15, 0);
    CU_ASSERT_DOUBLE_EQUAL(r.cost, 90, 0);
    CU_ASSERT(ch[0] == 0 && ch[1] == 0);
    CU_ASSERT_EQUAL(pol_dp_min_cost(&dp, &b, &grid, ch, &r), 0);
    CU_ASSERT(r.feasible);
    CU_ASSERT_DOUBLE_EQUAL(r.cost, 58, 0);
    CU_ASSERT_DOUBLE_EQUAL(r.time, 25, 0);
    CU_ASSERT(ch[0] == 0 && ch[1] == 1);
    /* one job whose three alternatives all take 10: T* = 3 * [10/3] = 9 < 10 */
    size_t off1[] = {0, 3};
    double t1[] = {10, 10, 10}, c1[] = {1, 2, 3};
    pol_dp_batch b1 = {.n_jobs = 1, .off = off1, .time = t1, .cost = c1};
    CU_ASSERT_EQUAL(pol_dp_min_cost(&dp, &b1, &grid, ch, &r), 0);
    CU_ASSERT(!r.feasible);
    CU_ASSERT_DOUBLE_EQUAL(r.t_limit, 9, 0);
    CU_ASSERT_EQUAL(pol_dp_min_time(&dp, &b1, &grid, ch, &r), 0);
    CU_ASSERT(!r.feasible);
    /* flooring the job's mean instead: T* = [30 / 3] = 10, the cheapest */
    grid.rule = POL_DP_TLIMIT_MEANS;
    CU_ASSERT_EQUAL(pol_dp_min_cost(&dp, &b1, &grid, ch, &r), 0);
    CU_ASSERT(r.feasible && r.t_limit == 10 && r.cost == 1 && ch[0] == 0);
    grid.rule = POL_DP_TLIMIT_TERMS;
    /* a job without alternatives */
    size_t off0[] = {0, 2, 2};
    pol_dp_batch b0 = {.n_jobs = 2, .off = off0, .time = t, .cost = c};
    CU_ASSERT_EQUAL(pol_dp_min_time(&dp, &b0, &grid, ch, &r), 0);
    CU_ASSERT(!r.feasible);
    /* every cost 0: B* = 0 admits every choice; the fastest is taken */
    double cz[] = {0, 0, 0, 0, 0};
    pol_dp_batch bz = {.n_jobs = 2, .off = off, .time = t, .cost = cz};
    CU_ASSERT_EQUAL(pol_dp_min_time(&dp, &bz, &grid, ch, &r), 0);
    CU_ASSERT(r.feasible && r.time == 15 && r.b_limit == 0);
    grid.max_cells = 0;
    CU_ASSERT_EQUAL(pol_dp_min_time(&dp, &b, &grid, ch, &r), ENG_INVAL);
    pol_dp_fini(&dp);
}

/* Brute force over every combination: extremum of g with sum(w) <= lim. */
static bool brute(size_t n, const size_t *off, const double *g, const double *z, double lim,
                  bool maximize, double *best, int32_t *ch)
{
    size_t total = 1;
    for (size_t i = 0; i < n; i++)
        total *= off[i + 1] - off[i];
    bool any = false;
    int32_t cur[8];
    for (size_t code = 0; code < total; code++) {
        size_t x = code;
        double sg = 0, sz = 0;
        for (size_t i = 0; i < n; i++) {
            size_t l = off[i + 1] - off[i];
            cur[i] = (int32_t)(x % l);
            x /= l;
            sg += g[off[i] + (size_t)cur[i]];
            sz += z[off[i] + (size_t)cur[i]];
        }
        if (sz > lim)
            continue;
        if (!any || (maximize ? sg > *best : sg < *best)) {
            *best = sg;
            memcpy(ch, cur, n * sizeof *ch);
            any = true;
        }
    }
    return any;
}

static void test_random_against_brute_force(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2011);
    pol_dp dp;
    pol_dp_init(&dp);
    pol_dp_grid grid = {.time_quantum = 1, .max_cells = 1 << 14};
    int mismatch = 0, checked = 0, grid_mismatch = 0, infeasible_both = 0;
    for (int round = 0; round < 400; round++) {
        size_t n = 1 + gsl_rng_uniform_int(r, 5);
        size_t off[8];
        double t[64], c[64];
        off[0] = 0;
        for (size_t i = 0; i < n; i++)
            off[i + 1] = off[i] + 1 + gsl_rng_uniform_int(r, 5);
        bool real = round % 2;
        for (size_t a = 0; a < off[n]; a++) {
            t[a] = real ? 1 + 99 * gsl_rng_uniform(r) : (double)(1 + gsl_rng_uniform_int(r, 60));
            c[a] = real ? 300 * gsl_rng_uniform(r) : (double)gsl_rng_uniform_int(r, 200);
        }
        pol_dp_batch b = {.n_jobs = n, .off = off, .time = t, .cost = c};
        grid.rule = round % 4 < 2 ? POL_DP_TLIMIT_TERMS : POL_DP_TLIMIT_MEANS;
        double tstar = pol_dp_time_limit(&b, 1, grid.rule);
        int32_t ch[8], bch[8];
        pol_dp_result res;
        /* min cost under T*: exact for integer times (q = 1); on real
         * times the grid weighs round(t), so compare with round(t) */
        double tw[64];
        for (size_t a = 0; a < off[n]; a++)
            tw[a] = nearbyint(t[a]);
        CU_ASSERT_EQUAL(pol_dp_min_cost(&dp, &b, &grid, ch, &res), 0);
        double bc;
        bool bok = brute(n, off, c, tw, tstar, false, &bc, bch);
        if (bok != res.feasible || (bok && fabs(bc - res.cost) > 1e-9))
            mismatch++;
        if (!bok && !res.feasible)
            infeasible_both++;
        if (grid.rule == POL_DP_TLIMIT_MEANS && !res.feasible)
            mismatch++; /* the means always admit the fastest choice */
        checked++;
        /* min time under B* (3) */
        CU_ASSERT_EQUAL(pol_dp_min_time(&dp, &b, &grid, ch, &res), 0);
        double bstar = 0;
        bok = brute(n, off, c, tw, tstar, true, &bstar, bch);
        if (bok != res.feasible) {
            mismatch++;
            continue;
        }
        if (!bok)
            continue;
        if (fabs(bstar - res.b_limit) > 1e-9)
            mismatch++;
        /* the answer is the best on the cost grid (B* / 2^14 a cell),
         * which admits the choice that defined B* and overshoots B* by
         * at most n / 2 quanta */
        double q = bstar > 0 ? bstar / (double)grid.max_cells : 1;
        double cw[64], lim = 0, bt;
        for (size_t a = 0; a < off[n]; a++)
            cw[a] = (double)pol_dp_cells(c[a], q);
        for (size_t i = 0; i < n; i++)
            lim += (double)pol_dp_cells(c[off[i] + (size_t)bch[i]], q);
        brute(n, off, t, cw, lim, false, &bt, bch);
        if (fabs(bt - res.time) > 1e-9)
            grid_mismatch++;
        if (res.cost > bstar + (double)n * q / 2 + 1e-9)
            grid_mismatch++;
        /* and never slower than the real optimum under a budget n quanta
         * below B* (which the grid admits) */
        if (brute(n, off, t, c, bstar - (double)n * q, false, &bt, bch) && res.time > bt + 1e-9)
            grid_mismatch++;
        (void)real;
    }
    CU_ASSERT_EQUAL(mismatch, 0);
    CU_ASSERT_EQUAL(grid_mismatch, 0);
    CU_ASSERT(checked == 400);
    CU_ASSERT(infeasible_both < 200); /* most random batches are feasible */
    pol_dp_fini(&dp);
    gsl_rng_free(r);
}

int bl_suite_pol_batch_dp(void)
{
    CU_pSuite s = CU_add_suite("pol_batch_dp", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "rows only where the forward read goes", test_run_reads_only_reachable_cells);
    CU_add_test(s, "backward run by hand", test_run_by_hand);
    CU_add_test(s, "limits (2) and (3) by hand; infeasible and free batches", test_limits_by_hand);
    CU_add_test(s, "random batches against brute force", test_random_against_brute_force);
    return 0;
}
