/* test_cli_study_groups.c — `batchlab study groups`: the printout with the
 * paper's statements, the JSON keys issue 7 asks for, KnapsackGroup equal
 * to BruteForce in every scenario, the approximations never above it,
 * --help and usage errors, and windows worth exactly 1 when every group is. */
#include "bl_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_run_and_json(void)
{
    const char *dir = bl_tmpdir();
    char json[512];
    snprintf(json, sizeof json, "%s/gr.json", dir);
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out,
                           "study groups --scenarios 3 --large-scenarios 2 --budgets "
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
    CU_ASSERT_EQUAL(bl_run(&out,
                           "study groups --skip-small --large-scenarios 1 --budgets 60,220 "
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

static void test_usage(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "study groups --help"), 0);
    CU_ASSERT(bl_contains(out, "usage: batchlab study groups"));
    free(out);
    CU_ASSERT_EQUAL(bl_run(&out, "study groups --skip-small --skip-large"), 2);
    CU_ASSERT(bl_contains(out, "nothing to do"));
    free(out);
    CU_ASSERT_EQUAL(bl_run(&out, "study groups --budgets 40,x"), 2);
    CU_ASSERT(bl_contains(out, "--budgets"));
    free(out);
    CU_ASSERT_EQUAL(bl_run(&out, "study groups --scenarios 0"), 2);
    free(out);
    /* the environment choices are in the help, with the paper's words */
    CU_ASSERT_EQUAL(bl_run(&out, "study groups --help"), 0);
    CU_ASSERT(bl_contains(out, "almost impossible just to allocate any 20"));
    CU_ASSERT(bl_contains(out, "--group-costs W"));
    CU_ASSERT(bl_contains(out, "P_o^global = |N(0, X)|, X = 0.05"));
    free(out);
    CU_ASSERT_EQUAL(bl_run(&out, "study groups --group-costs -1"), 2);
    CU_ASSERT(bl_contains(out, "--group-costs"));
    free(out);
    CU_ASSERT_EQUAL(bl_run(&out, "study groups --group-costs 101"), 2);
    free(out);
    CU_ASSERT_EQUAL(bl_run(&out, "study groups --event-share 1.5"), 2);
    CU_ASSERT(bl_contains(out, "--event-share: expected 0..1"));
    free(out);
    CU_ASSERT_EQUAL(bl_run(&out, "study groups --minc cheapest"), 2);
    CU_ASSERT(bl_contains(out, "--minc: expected paper or tiebreak"));
    free(out);
    CU_ASSERT_EQUAL(bl_run(&out, "study groups --event-share x"), 2);
    CU_ASSERT(bl_contains(out, "--event-share"));
    free(out);
    /* costs by group: a valid run that says so */
    CU_ASSERT_EQUAL(bl_run(&out, "study groups --skip-large --scenarios 2 --group-costs 1"), 0);
    CU_ASSERT(bl_contains(out, "costs by group: the group's base +- 1"));
    CU_ASSERT(bl_contains(out, "50/50") || bl_contains(out, "2/2"));
    free(out);
}

int bl_suite_cli_study_groups(void)
{
    CU_pSuite s = CU_add_suite("cli_study_groups", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "printout and JSON", test_run_and_json);
    CU_add_test(s, "--help and usage errors", test_usage);
    CU_add_test(s, "groups always available: every window worth 1", test_all_available);
    return 0;
}
