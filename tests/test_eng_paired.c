/* test_eng_paired.c — the paired comparison: matching by job number, the
 * differences' statistics by hand, the bootstrap interval (stable bits
 * for a seed, zero width for equal differences), the t interval across
 * seeds, paired.json from `batchlab compare`. */
#include "bl_scenarios.h"
#include "bl_test.h"
#include "eng_json.h"
#include "eng_paired.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const eng_paired_opts opts = {
    .tolerance_s = 60, .level = 0.95, .resamples = 10000, .seed = 1};

/* A: jobs 1..5, job 4 not measured. B: 5, 3, 2, 1 and 6 (absent from A).
 * Paired in A's order: 1: 200 - 0, 2: 0 - 100, 3: 50 - 50, 5: 100 - 10,
 * so d = 200, -100, 0, 90: mean 47.5, median (0 + 90) / 2 = 45; beyond 60
 * s: better 1 (-100), worse 2 (200, 90); left out: job 4 of A, job 6 of
 * B. */
static void test_known_answers(void)
{
    static const int64_t ida[] = {1, 2, 3, 4, 5}, idb[] = {5, 3, 2, 1, 6};
    static const double wa[] = {0, 100, 50, NAN, 10}, wb[] = {100, 50, 0, 200, 7};
    eng_paired_run a = {ida, wa, 5}, b = {idb, wb, 5};
    eng_paired p;
    CU_ASSERT_EQUAL_FATAL(eng_paired_compare(&a, &b, &opts, &p), 0);
    CU_ASSERT_EQUAL(p.jobs, 4);
    CU_ASSERT_EQUAL(p.left_out_a, 1);
    CU_ASSERT_EQUAL(p.left_out_b, 1);
    CU_ASSERT_DOUBLE_EQUAL(p.diff_mean_s, 47.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(p.diff_median_s, 45, 0);
    CU_ASSERT_DOUBLE_EQUAL(p.better_share, 0.25, 0);
    CU_ASSERT_DOUBLE_EQUAL(p.worse_share, 0.5, 0);
    /* resample means lie between the smallest and the largest difference */
    CU_ASSERT(p.ci_lo_s >= -100 && p.ci_lo_s <= p.diff_mean_s);
    CU_ASSERT(p.ci_hi_s <= 200 && p.ci_hi_s >= p.diff_mean_s);
    /* the tolerance decides: at 100 s only 200 is worse, -100 is not better */
    eng_paired_opts o = opts;
    o.tolerance_s = 100;
    CU_ASSERT_EQUAL_FATAL(eng_paired_compare(&a, &b, &o, &p), 0);
    CU_ASSERT_DOUBLE_EQUAL(p.better_share, 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(p.worse_share, 0.25, 0);
    /* B against itself: every difference 0 */
    CU_ASSERT_EQUAL_FATAL(eng_paired_compare(&b, &b, &opts, &p), 0);
    CU_ASSERT_EQUAL(p.jobs, 5);
    CU_ASSERT_DOUBLE_EQUAL(p.ci_lo_s, 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(p.ci_hi_s, 0, 0);
}

static void test_nothing_paired(void)
{
    static const int64_t ida[] = {1, 2}, idb[] = {3};
    static const double wa[] = {0, 1}, wb[] = {5};
    eng_paired_run a = {ida, wa, 2}, b = {idb, wb, 1};
    eng_paired p;
    CU_ASSERT_EQUAL_FATAL(eng_paired_compare(&a, &b, &opts, &p), 0);
    CU_ASSERT_EQUAL(p.jobs, 0);
    CU_ASSERT_EQUAL(p.left_out_a, 2);
    CU_ASSERT_EQUAL(p.left_out_b, 1);
    CU_ASSERT(isnan(p.diff_mean_s) && isnan(p.ci_lo_s) && isnan(p.ci_hi_s));
}

/* With a seed the interval's bits are stable (GSL's mt19937 is one
 * defined stream): the values below were computed once and are checked to
 * the bit; another seed draws other resamples. Equal differences give a
 * zero-width interval at their value. */
static void test_bootstrap(void)
{
    static const double d[] = {200, -100, 0, 90, 35, -20, 7, 12};
    double lo, hi, lo2, hi2;
    CU_ASSERT_EQUAL_FATAL(eng_paired_bootstrap(d, N_OF(d), &opts, &lo, &hi), 0);
    CU_ASSERT_EQUAL_FATAL(eng_paired_bootstrap(d, N_OF(d), &opts, &lo2, &hi2), 0);
    CU_ASSERT(memcmp(&lo, &lo2, sizeof lo) == 0 && memcmp(&hi, &hi2, sizeof hi) == 0);
    CU_ASSERT_DOUBLE_EQUAL(lo, -25.378124999999972, 0);
    CU_ASSERT_DOUBLE_EQUAL(hi, 87.503124999999955, 0);
    eng_paired_opts o = opts;
    o.seed = 2;
    CU_ASSERT_EQUAL_FATAL(eng_paired_bootstrap(d, N_OF(d), &o, &lo2, &hi2), 0);
    CU_ASSERT(lo2 != lo || hi2 != hi);
    static const double same[] = {5, 5, 5, 5, 5, 5, 5};
    CU_ASSERT_EQUAL_FATAL(eng_paired_bootstrap(same, N_OF(same), &opts, &lo, &hi), 0);
    CU_ASSERT_DOUBLE_EQUAL(lo, 5, 0);
    CU_ASSERT_DOUBLE_EQUAL(hi, 5, 0);
    /* one difference: every resample is it */
    CU_ASSERT_EQUAL_FATAL(eng_paired_bootstrap(d, 1, &opts, &lo, &hi), 0);
    CU_ASSERT_DOUBLE_EQUAL(lo, 200, 0);
    CU_ASSERT_DOUBLE_EQUAL(hi, 200, 0);
}

/* x = 1, 2, 3: mean 2, s = 1, t(0.975, 2) = 4.302652729749464 (tables:
 * 4.303), half width 4.302652729749464 / sqrt(3). */
static void test_across_seeds(void)
{
    eng_paired_seeds s;
    eng_paired_across((double[]){1, 2, 3}, 3, 0.95, &s);
    CU_ASSERT_EQUAL(s.seeds, 3);
    CU_ASSERT_DOUBLE_EQUAL(s.mean_s, 2, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(s.sd_s, 1, 1e-15);
    double half = 4.302652729749464 / sqrt(3);
    CU_ASSERT_DOUBLE_EQUAL(s.ci_lo_s, 2 - half, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s.ci_hi_s, 2 + half, 1e-9);
    eng_paired_across((double[]){4}, 1, 0.95, &s);
    CU_ASSERT_DOUBLE_EQUAL(s.mean_s, 4, 0);
    CU_ASSERT(isnan(s.ci_lo_s) && isnan(s.ci_hi_s));
    eng_paired_across((double[]){3, 3, 3, 3}, 4, 0.95, &s);
    CU_ASSERT_DOUBLE_EQUAL(s.ci_lo_s, 3, 0);
    CU_ASSERT_DOUBLE_EQUAL(s.ci_hi_s, 3, 0);
}

/* compare --out writes paired.json with the schema's keys; the same
 * command gives the same bytes; with every job paired, the mean
 * difference is the difference of the two mean waits. */
static void test_compare_json(void)
{
    const char *d1 = bl_tmpdir(), *d2 = bl_tmpdir();
    const char *dirs[2] = {d1, d2};
    char *out = NULL;
    for (int k = 0; k < 2; k++) {
        CU_ASSERT_EQUAL(bl_run(&out,
                               "compare --platform %s --workload %s -q --policies easy,fcfs "
                               "--tolerance 30 --seed 7 --out %s",
                               bl_src("platforms/kth-sp2.xml"), bl_src("traces/fixtures/small.swf"),
                               dirs[k]),
                        0);
        CU_ASSERT(bl_contains(out, "paired waits against easy"));
        CU_ASSERT(bl_contains(out, "more than 30 s"));
        free(out);
    }
    char p1[1024], p2[1024];
    snprintf(p1, sizeof p1, "%s/paired.json", d1);
    snprintf(p2, sizeof p2, "%s/paired.json", d2);
    char *t1 = bl_slurp(p1, NULL), *t2 = bl_slurp(p2, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t2);
    CU_ASSERT_STRING_EQUAL(t1, t2);
    json_t *root = json_loads(t1, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(root, "baseline")), "easy");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(root, "tolerance_s")), 30);
    CU_ASSERT_DOUBLE_EQUAL(json_real_value(json_object_get(root, "level")), 0.95, 0);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(root, "resamples")), 10000);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(root, "seed")), 7);
    json_t *pairs = json_object_get(root, "pairs");
    CU_ASSERT_EQUAL_FATAL(json_array_size(pairs), 1);
    json_t *p = json_array_get(pairs, 0);
    static const char *const keys[] = {"a",
                                       "b",
                                       "jobs",
                                       "wait_diff_mean_s",
                                       "wait_diff_median_s",
                                       "better_share",
                                       "worse_share",
                                       "ci_lo_s",
                                       "ci_hi_s"};
    CU_ASSERT_EQUAL(json_object_size(p), N_OF(keys));
    for (size_t k = 0; k < N_OF(keys); k++)
        CU_ASSERT_PTR_NOT_NULL(json_object_get(p, keys[k]));
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(p, "b")), "fcfs");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(p, "jobs")), 13);
    double diff = json_number_value(json_object_get(p, "wait_diff_mean_s"));
    double means[2];
    static const char *const pol[2] = {"easy", "fcfs"};
    for (int k = 0; k < 2; k++) {
        char sp[1024];
        snprintf(sp, sizeof sp, "%s/%s/summary.json", d1, pol[k]);
        json_t *s = json_load_file(sp, 0, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(s);
        means[k] = json_number_value(json_object_get(json_object_get(s, "metrics"), "wait_mean_s"));
        json_decref(s);
    }
    CU_ASSERT_DOUBLE_EQUAL(diff, means[1] - means[0], 1e-9);
    json_decref(root);
    free(t1);
    free(t2);
    /* one policy: no pairing, no file */
    const char *d3 = bl_tmpdir();
    CU_ASSERT_EQUAL(bl_run(&out, "compare --platform %s --workload %s -q --policies easy --out %s",
                           bl_src("platforms/kth-sp2.xml"), bl_src("traces/fixtures/small.swf"),
                           d3),
                    0);
    CU_ASSERT(!strstr(out ? out : "", "paired waits"));
    free(out);
    CU_ASSERT_EQUAL(bl_run(&out,
                           "compare --platform %s --workload %s -q --policies easy,fcfs "
                           "--tolerance -1",
                           bl_src("platforms/kth-sp2.xml"), bl_src("traces/fixtures/small.swf")),
                    2);
    CU_ASSERT(bl_contains(out, "--tolerance"));
    free(out);
}

int bl_suite_eng_paired(void)
{
    CU_pSuite s = CU_add_suite("eng_paired", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "known answers: matching, mean, median, shares", test_known_answers);
    CU_add_test(s, "no job paired", test_nothing_paired);
    CU_add_test(s, "bootstrap: stable bits, zero width", test_bootstrap);
    CU_add_test(s, "t interval across seeds", test_across_seeds);
    CU_add_test(s, "compare writes paired.json", test_compare_json);
    return 0;
}
