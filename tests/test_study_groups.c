/* test_study_groups.c — `batchlab-study groups`
 * (bench/studies/study_groups.c): the printout with the paper's statements, the JSON keys issue 7 asks for, KnapsackGroup equal
 * to BruteForce in every scenario, the approximations never above it,
 * --help and usage errors, and windows worth exactly 1 when every group is. */
#include "bl_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_run_and_json(void)
{
    const char *dir = bl_tmpdir();
    char json[512];
    snprintf(json, sizeof json, "%s/gr.json", dir);
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run_study(&out,
                                 "groups --scenarios 3 --large-scenarios 2 --budgets "
                                 "60,160 --seed 4 --json '%s'",
                                 json),
                    0);
    CU_ASSERT(bl_contains(out, "Fig. 4-5"));
    CU_ASSERT(bl_contains(out, "about 5000 and about 8 s"));
    free(out);
    char *j = bl_slurp(json, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    const char *small = strstr(j, "\"small\": {\n    \"scenarios\"");
    const char *large = strstr(j, "\"large\": {\n    \"scenarios\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(small);
    CU_ASSERT_PTR_NOT_NULL_FATAL(large);
    const char *keys[] = {"n",      "bruteforce",  "knapsack_group",
                          "greedy", "greedy_plus", "knapsack_single"};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        char *a = bl_json_array(small, keys[k]);
        CU_ASSERT_PTR_NOT_NULL(a);
        free(a);
    }
    /* KnapsackGroup is exact, so its means equal BruteForce's to the bit */
    char *bf = bl_json_array(small, "bruteforce"), *kg = bl_json_array(small, "knapsack_group");
    CU_ASSERT(bf && kg && strcmp(bf, kg) == 0);
    free(bf);
    free(kg);
    char *em = bl_json_array(small, "exact_matches");
    CU_ASSERT(em && strspn(em, "3, ") == strlen(em)); /* 3 of 3 at every n */
    free(em);
    const char *bud = strstr(j, "\"budget\": {\n    \"scenarios\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(bud);
    em = bl_json_array(bud, "exact_matches");
    CU_ASSERT(em && strspn(em, "3, ") == strlen(em));
    free(em);
    const char *lkeys[] = {"budget",      "knapsack_group",  "greedy",
                           "greedy_plus", "knapsack_single", "tree_size"};
    for (size_t k = 0; k < sizeof lkeys / sizeof *lkeys; k++) {
        char *a = bl_json_array(large, lkeys[k]);
        CU_ASSERT_PTR_NOT_NULL(a);
        free(a);
    }
    CU_ASSERT(bl_contains(large, "\"bruteforce\": null"));
    CU_ASSERT(bl_contains(large, "\"seconds\": {\n      \"knapsack_group\": ["));
    char *b = bl_json_array(large, "budget");
    CU_ASSERT(b && strcmp(b, "60, 160") == 0);
    free(b);
    /* the approximations never above the exact optimum */
    char *lk = bl_json_array(large, "knapsack_group"), *lg = bl_json_array(large, "greedy"),
         *ls = bl_json_array(large, "knapsack_single");
    CU_ASSERT_PTR_NOT_NULL_FATAL(lk);
    CU_ASSERT_PTR_NOT_NULL_FATAL(lg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ls);
    char *e1, *e2, *e3;
    double k0 = strtod(lk, &e1), g0 = strtod(lg, &e2), s0 = strtod(ls, &e3);
    CU_ASSERT(k0 >= g0 && k0 >= s0 && k0 > 0);
    free(lk);
    free(lg);
    free(ls);
    CU_ASSERT(bl_contains(j, "\"group_load\": 0.05,\n    \"event_share\": 0.3,"));
    CU_ASSERT(bl_contains(j, "\"minc\": \"paper\""));
    const char *ckeys[] = {"greedy_equal_group", "greedy_above_single", "greedy_below_single"};
    for (size_t k = 0; k < sizeof ckeys / sizeof *ckeys; k++) {
        char *a = bl_json_array(large, ckeys[k]);
        CU_ASSERT_PTR_NOT_NULL(a);
        free(a);
    }
    free(j);
}

/* No static load and no events: every group is available with
 * probability 1, so every algorithm's window is worth exactly 1 at every
 * budget that admits 20 resources (the cheapest 20 of 200 cost about 30). */
static void test_all_available(void)
{
    const char *dir = bl_tmpdir();
    char json[512];
    snprintf(json, sizeof json, "%s/gr1.json", dir);
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run_study(&out,
                                 "groups --skip-small --large-scenarios 1 --budgets 60,220 "
                                 "--group-load 0 --event-share 0 --json '%s'",
                                 json),
                    0);
    free(out);
    char *j = bl_slurp(json, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    const char *large = strstr(j, "\"large\": {\n    \"scenarios\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(large);
    const char *keys[] = {"knapsack_group", "greedy", "greedy_plus", "knapsack_single"};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        char *a = bl_json_array(large, keys[k]);
        CU_ASSERT(a && strcmp(a, "1, 1") == 0);
        free(a);
    }
    /* so Greedy equals KnapsackGroup, and is neither above nor below
     * KnapsackSingle, in the one scenario at each budget */
    const char *ckeys[] = {"greedy_equal_group", "greedy_above_single", "greedy_below_single"};
    const char *want[] = {"1, 1", "0, 0", "0, 0"};
    for (size_t k = 0; k < 3; k++) {
        char *a = bl_json_array(large, ckeys[k]);
        CU_ASSERT(a && strcmp(a, want[k]) == 0);
        free(a);
    }
    free(j);
}

/* The value of "key": {"median": ..., "p95": ...} (field "median" or
 * "p95") in the large series of a study's JSON; NAN when absent. */
static double cost_stat(const char *json, const char *key, const char *field)
{
    const char *large = strstr(json, "\"large\": {\n    \"scenarios\"");
    char k[64];
    snprintf(k, sizeof k, "\"%s\": {", key);
    const char *o = large ? strstr(large, k) : NULL;
    snprintf(k, sizeof k, "\"%s\": ", field);
    const char *f = o ? strstr(o, k) : NULL;
    return f ? strtod(f + strlen(k), NULL) : NAN;
}

/* One run's JSON (N = 200 only) with the extra options; NULL on failure. */
static char *run_large(const char *tag, const char *opts)
{
    char json[512];
    snprintf(json, sizeof json, "%s/%s.json", bl_tmpdir(), tag);
    char *out = NULL;
    int rc = bl_run_study(&out, "groups --skip-small %s --json '%s'", opts, json);
    free(out);
    return rc == 0 ? bl_slurp(json, NULL) : NULL;
}

/* The price laws (--cost-law), by hand: */
static void test_cost_laws(void)
{
    /* calibrated: every price on 1.25..15.5, so 20 resources cost at least
     * 25 (no window at C = 24: all worth 0) and at most 310 (every choice
     * fits C = 310) */
    char *j = run_large("law1", "--cost-law calibrated --large-scenarios 3 --budgets 24,310");
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    const char *large = strstr(j, "\"large\": {\n    \"scenarios\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(large);
    char *a = bl_json_array(large, "feasible");
    CU_ASSERT(a && strcmp(a, "0, 3") == 0);
    free(a);
    a = bl_json_array(large, "knapsack_group");
    CU_ASSERT(a && strncmp(a, "0, ", 3) == 0);
    free(a);
    CU_ASSERT(bl_contains(j, "\"cost_law\": \"calibrated\""));
    CU_ASSERT(bl_contains(j, "\"cost_max\": 15.5,\n      \"cost_min\": 1.25,\n      "
                             "\"cost_step\": 0.25"));
    double c = cost_stat(j, "cost_cheapest", "median"), m = cost_stat(j, "cost_maxp", "p95");
    CU_ASSERT(c >= 25 && c <= m && m <= 310);
    CU_ASSERT(c * 4 == floor(c * 4)); /* a sum of quarters */
    free(j);

    /* every group always available and no static part: all resources tie
     * on reliability, so under avail the prices rise with the index and
     * MaxP's choice (the first 20 by index) is the 20 cheapest; under
     * uniform the first 20 are a random draw, dearer */
    const char *flat = "--group-load 0 --event-share 0 --large-scenarios 3 --budgets 220";
    j = run_large("law2", flat);
    char *k = NULL;
    char opts[256];
    snprintf(opts, sizeof opts, "%s --cost-law avail", flat);
    k = run_large("law3", opts);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_EQUAL(cost_stat(k, "cost_maxp", "median"), cost_stat(k, "cost_cheapest", "median"));
    CU_ASSERT_EQUAL(cost_stat(k, "cost_maxp", "p95"), cost_stat(k, "cost_cheapest", "p95"));
    CU_ASSERT(cost_stat(j, "cost_maxp", "median") > cost_stat(j, "cost_cheapest", "median"));
    /* the same prices handed out otherwise: the cheapest 20 cost the same */
    CU_ASSERT_EQUAL(cost_stat(j, "cost_cheapest", "median"),
                    cost_stat(k, "cost_cheapest", "median"));
    free(j);
    free(k);

    /* calibrated-avail: prices on 1.5..11, so 20 cost at least 30 and at
     * most 220 */
    j = run_large("law6", "--cost-law calibrated-avail --large-scenarios 3 --budgets 29,220");
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    large = strstr(j, "\"large\": {\n    \"scenarios\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(large);
    a = bl_json_array(large, "feasible");
    CU_ASSERT(a && strcmp(a, "0, 3") == 0);
    free(a);
    c = cost_stat(j, "cost_cheapest", "p95");
    m = cost_stat(j, "cost_maxp", "median");
    CU_ASSERT(c >= 30 && c <= 220 && m >= 30 && m <= 220);
    free(j);

    /* perf: prices 1.22 U[0.75, 1.25] 1.7^U[1, 3] on the grid of 0.25,
     * so every price lies on 1.5..7.5 (1.56 and 7.49 rounded): 20 cost at
     * least 30 (no window at C = 29) and at most 150 (every choice fits
     * C = 150, so KnapsackGroup takes MaxP's 20, the most available) */
    j = run_large("law7", "--cost-law perf --large-scenarios 3 --budgets 29,150");
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    large = strstr(j, "\"large\": {\n    \"scenarios\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(large);
    a = bl_json_array(large, "feasible");
    CU_ASSERT(a && strcmp(a, "0, 3") == 0);
    free(a);
    CU_ASSERT(bl_contains(j, "\"cost_law\": \"perf\""));
    CU_ASSERT(bl_contains(j, "\"cost_max\": 7.5,\n      \"cost_min\": 1.5,\n      "
                             "\"cost_step\": 0.25"));
    c = cost_stat(j, "cost_cheapest", "median");
    m = cost_stat(j, "cost_maxp", "p95");
    CU_ASSERT(c >= 30 && c <= m && m <= 150);
    CU_ASSERT(c * 4 == floor(c * 4)); /* a sum of quarters */
    free(j);

    /* with the paper's availability law, the correlation's sign: MaxP's
     * most available resources cost more under avail than under uniform,
     * from the same drawn prices */
    j = run_large("law4", "--large-scenarios 9 --budgets 220");
    k = run_large("law5", "--large-scenarios 9 --budgets 220 --cost-law avail");
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_EQUAL(cost_stat(j, "cost_cheapest", "median"),
                    cost_stat(k, "cost_cheapest", "median"));
    CU_ASSERT(cost_stat(k, "cost_maxp", "median") > cost_stat(j, "cost_maxp", "median"));
    free(j);
    free(k);
}

static void test_usage(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run_study(&out, "groups --help"), 0);
    CU_ASSERT(bl_contains(out, "usage: batchlab-study groups"));
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "groups --skip-small --skip-large"), 2);
    CU_ASSERT(bl_contains(out, "nothing to do"));
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "groups --budgets 40,x"), 2);
    CU_ASSERT(bl_contains(out, "--budgets"));
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "groups --scenarios 0"), 2);
    free(out);
    /* the environment choices are in the help, with the paper's words */
    CU_ASSERT_EQUAL(bl_run_study(&out, "groups --help"), 0);
    CU_ASSERT(bl_contains(out, "almost impossible just to allocate any 20"));
    CU_ASSERT(bl_contains(out, "--group-costs W"));
    CU_ASSERT(bl_contains(out, "P_o^global = |N(0, X)|, X = 0.05"));
    CU_ASSERT(bl_contains(out, "--cost-law LAW"));
    CU_ASSERT(bl_contains(out, "Upper bound C > 200 allows to select almost any"));
    CU_ASSERT(bl_contains(out, "nodes have different usage costs"));
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "groups --group-costs -1"), 2);
    CU_ASSERT(bl_contains(out, "--group-costs"));
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "groups --group-costs 101"), 2);
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "groups --event-share 1.5"), 2);
    CU_ASSERT(bl_contains(out, "--event-share: expected 0..1"));
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "groups --cost-law cheap"), 2);
    CU_ASSERT(bl_contains(out, "--cost-law: expected uniform, calibrated"));
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "groups --cost-law avail --group-costs 2"), 2);
    CU_ASSERT(bl_contains(out, "--group-costs takes the uniform law only"));
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "groups --minc cheapest"), 2);
    CU_ASSERT(bl_contains(out, "--minc: expected paper or tiebreak"));
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "groups --event-share x"), 2);
    CU_ASSERT(bl_contains(out, "--event-share"));
    free(out);
    /* costs by group: a valid run that says so */
    CU_ASSERT_EQUAL(bl_run_study(&out, "groups --skip-large --scenarios 2 --group-costs 1"), 0);
    CU_ASSERT(bl_contains(out, "costs by group: the group's base +- 1"));
    CU_ASSERT(bl_contains(out, "50/50") || bl_contains(out, "2/2"));
    free(out);
}

int bl_suite_study_groups(void)
{
    CU_pSuite s = CU_add_suite("study_groups", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "printout and JSON", test_run_and_json);
    CU_add_test(s, "--help and usage errors", test_usage);
    CU_add_test(s, "groups always available: every window worth 1", test_all_available);
    CU_add_test(s, "price laws: ranges, ties and the correlation's sign", test_cost_laws);
    return 0;
}
