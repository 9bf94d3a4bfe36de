/* test_pol_win_scan.c — the time scans (policies/alloc/pol_win_scan.c) on
 * functions with known maxima: the full scan, the bounded scan (exact with
 * fewer evaluations) and the starting-points search (exact on unimodal
 * functions, approximate on others, better with more points). */
#include "alloc/pol_win_scan.h"
#include "bl_test.h"
#include "eng_error.h"

#include <gsl/gsl_rng.h>
#include <math.h>

typedef struct fn_ctx {
    int kind;
    uint64_t calls;
} fn_ctx;

/* 0: a parabola peaking at 300 (value 0);
 * 1: two tents on a flat floor: 1 at 100 (width 50), 2 at 600 (width 30);
 * 2: a wide low hill (max 1 at 200) and a narrow spike (5 at 701);
 * 3: constant 0.5. */
static double f_of(int kind, int64_t t)
{
    double x = (double)t;
    switch (kind) {
    case 0:
        return -(x - 300) * (x - 300);
    case 1: {
        double a = 1 - fabs(x - 100) / 50, b = 2 - 2 * fabs(x - 600) / 30;
        return fmax(0, fmax(a, b));
    }
    case 2: {
        double hill = 1 - fabs(x - 200) / 400;
        return t == 701 ? 5 : fmax(0, hill);
    }
    default:
        return 0.5;
    }
}

static int fn(void *vctx, int64_t t, double *v)
{
    fn_ctx *c = vctx;
    c->calls++;
    *v = f_of(c->kind, t);
    return ENG_OK;
}

/* An upper bound: the function plus a margin that is large far from 600. */
static int ub(void *vctx, int64_t t, double *v)
{
    fn_ctx *c = vctx;
    *v = f_of(c->kind, t) + fabs((double)t - 600) / 1000;
    return ENG_OK;
}

static int failing(void *vctx, int64_t t, double *v)
{
    (void)vctx;
    *v = 0;
    return t == 5 ? ENG_NOMEM : ENG_OK;
}

static void test_full(void)
{
    fn_ctx c = {1, 0};
    pol_win_scan_result r;
    double values[801];
    CU_ASSERT_EQUAL(pol_win_scan_full(fn, &c, 0, 800, values, &r), 0);
    CU_ASSERT_EQUAL(r.t_best, 600);
    CU_ASSERT_EQUAL(r.best, 2);
    CU_ASSERT_EQUAL(r.evals, 801);
    CU_ASSERT_EQUAL(values[100], 1);
    c.kind = 3; /* ties: the earliest */
    pol_win_scan_full(fn, &c, 10, 20, NULL, &r);
    CU_ASSERT_EQUAL(r.t_best, 10);
    CU_ASSERT_EQUAL(pol_win_scan_full(failing, NULL, 0, 10, NULL, &r), ENG_NOMEM);
}

static void test_bounded(void)
{
    for (int kind = 0; kind < 4; kind++) {
        fn_ctx c = {kind, 0};
        pol_win_scan_result full, b;
        pol_win_scan_full(fn, &c, 0, 800, NULL, &full);
        c.calls = 0;
        CU_ASSERT_EQUAL(pol_win_scan_bounded(fn, ub, &c, 0, 800, &b), 0);
        CU_ASSERT_EQUAL(b.best, full.best);
        CU_ASSERT_EQUAL(b.ub_evals, 801);
        CU_ASSERT_EQUAL(b.evals, c.calls);
        if (kind == 1)
            CU_ASSERT(b.evals < 100); /* only points whose bound exceeds 2 */
    }
}

static void test_starts_unimodal(void)
{
    fn_ctx c = {0, 0};
    pol_win_scan_result r;
    const int64_t deltas[] = {1, 2, 7, 16, 50};
    for (size_t d = 0; d < 5; d++) {
        c.calls = 0;
        CU_ASSERT_EQUAL(
            pol_win_scan_starts(fn, &c, 0, 800, 1, POL_WIN_STARTS_UNIFORM, deltas[d], NULL, &r), 0);
        CU_ASSERT_EQUAL(r.t_best, 300);
        CU_ASSERT_EQUAL(r.best, 0);
        CU_ASSERT_EQUAL(r.evals, c.calls); /* no point twice */
        if (deltas[d] > 1)
            CU_ASSERT(r.evals < 60);
    }
    /* a flat function: every start is a local maximum at once */
    c.kind = 3;
    pol_win_scan_starts(fn, &c, 0, 800, 10, POL_WIN_STARTS_UNIFORM, 5, NULL, &r);
    CU_ASSERT_EQUAL(r.best, 0.5);
    CU_ASSERT(r.evals <= 30);
    CU_ASSERT_EQUAL(pol_win_scan_starts(fn, &c, 0, 800, 0, POL_WIN_STARTS_UNIFORM, 5, NULL, &r),
                    ENG_INVAL);
}

/* Two peaks on a flat floor: one start in the floor finds nothing; more
 * starts find the higher peak; random and mixed placements are seeded. */
static void test_starts_multimodal(void)
{
    fn_ctx c = {1, 0};
    pol_win_scan_result r;
    pol_win_scan_starts(fn, &c, 0, 800, 1, POL_WIN_STARTS_UNIFORM, 5, NULL, &r);
    CU_ASSERT_EQUAL(r.best, 0); /* start at 400, flat: a local maximum */
    pol_win_scan_starts(fn, &c, 0, 800, 20, POL_WIN_STARTS_UNIFORM, 5, NULL, &r);
    CU_ASSERT_EQUAL(r.best, 2);
    CU_ASSERT_EQUAL(r.t_best, 600);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    for (int mode = POL_WIN_STARTS_RANDOM; mode <= POL_WIN_STARTS_MIXED; mode++) {
        pol_win_scan_result a, b;
        gsl_rng_set(rng, 11);
        pol_win_scan_starts(fn, &c, 0, 800, 40, (pol_win_starts)mode, 3, rng, &a);
        gsl_rng_set(rng, 11);
        pol_win_scan_starts(fn, &c, 0, 800, 40, (pol_win_starts)mode, 3, rng, &b);
        CU_ASSERT_EQUAL(a.best, b.best);
        CU_ASSERT_EQUAL(a.evals, b.evals);
        CU_ASSERT_EQUAL(a.best, 2); /* 40 points: one lands on the wider peak */
    }
    /* as many starts as points: the full scan's answer */
    pol_win_scan_starts(fn, &c, 0, 100, 500, POL_WIN_STARTS_RANDOM, 1, rng, &r);
    CU_ASSERT_EQUAL(r.best, 1);
    CU_ASSERT_EQUAL(r.evals, 101);
    /* a narrow spike is missed by a coarse search, found by the full scan */
    c.kind = 2;
    pol_win_scan_starts(fn, &c, 0, 800, 5, POL_WIN_STARTS_UNIFORM, 10, NULL, &r);
    CU_ASSERT_EQUAL(r.best, 1);
    CU_ASSERT_EQUAL(r.t_best, 200);
    pol_win_scan_full(fn, &c, 0, 800, NULL, &r);
    CU_ASSERT_EQUAL(r.best, 5);
    /* an objective's error stops the search */
    CU_ASSERT_EQUAL(
        pol_win_scan_starts(failing, NULL, 0, 10, 3, POL_WIN_STARTS_UNIFORM, 1, NULL, &r),
        ENG_NOMEM);
    gsl_rng_free(rng);
}

int bl_suite_pol_win_scan(void)
{
    CU_pSuite s = CU_add_suite("pol_win_scan", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "full scan", test_full);
    CU_add_test(s, "bounded scan equals the full scan", test_bounded);
    CU_add_test(s, "starting points on a unimodal function", test_starts_unimodal);
    CU_add_test(s, "starting points on multimodal functions", test_starts_multimodal);
    return 0;
}
