/* test_study_availability.c — `batchlab-study availability`
 * (bench/studies/study_availability.c): the printout with the paper's
 * numbers, the JSON keys issue 7 asks for, Knapsack never below GreedyJnt,
 * the exact scans exact, determinism of the values, --help and usage
 * errors, a folder given for a file. */
#include "bl_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse(const char *text, double *v, int max)
{
    int n = 0;
    const char *s = text;
    while (s && *s && n < max) {
        char *end;
        v[n++] = strtod(s, &end);
        s = *end == ',' ? end + 1 : NULL;
    }
    return n;
}

static void test_run_and_json(void)
{
    const char *dir = bl_tmpdir();
    char json[512], json2[512];
    snprintf(json, sizeof json, "%s/av.json", dir);
    snprintf(json2, sizeof json2, "%s/av2.json", dir);
    const char *args = "availability --scenarios 4 --timescan-scenarios 3 --job-loads "
                       "0,0.3,0.6 --starts 1,5,20 --seed 3";
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run_study(&out, "%s --json '%s'", args, json), 0);
    CU_ASSERT(bl_contains(out, "0.96 vs 0.87"));
    CU_ASSERT(bl_contains(out, "Table 1"));
    CU_ASSERT(bl_contains(out, "0.953, 143"));
    CU_ASSERT(bl_contains(out, "0.8, 65"));
    free(out);
    char *j = bl_slurp(json, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    const char *keys[] = {"\"job_load\"",        "\"knapsack\"", "\"greedyjnt\"", "\"timescan\"",
                          "\"starting_points\"", "\"accuracy\"", "\"speedup\""};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
        CU_ASSERT(bl_contains(j, keys[k]));
    char *ks = bl_json_array(j, "knapsack"), *gr = bl_json_array(j, "greedyjnt"),
         *jl = bl_json_array(j, "job_load");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ks);
    CU_ASSERT_PTR_NOT_NULL_FATAL(gr);
    double k[8], g[8], l[8];
    CU_ASSERT_EQUAL(parse(ks, k, 8), 3);
    CU_ASSERT_EQUAL(parse(gr, g, 8), 3);
    CU_ASSERT_EQUAL(parse(jl, l, 8), 3);
    CU_ASSERT_DOUBLE_EQUAL(l[1], 0.3, 1e-12);
    for (int i = 0; i < 3; i++) {
        CU_ASSERT(k[i] >= g[i]); /* the exact optimum at every t */
        CU_ASSERT(k[i] >= 0 && k[i] <= 1);
    }
    CU_ASSERT(k[0] > 0.8); /* job load 0: 6 good nodes of 64 */
    /* accuracies are shares of the full scan; the bounded scan is exact */
    const char *p = j;
    int entries = 0;
    while ((p = strstr(p, "\"accuracy\": ")) != NULL) {
        p += strlen("\"accuracy\": ");
        if (strncmp(p, "null", 4) != 0)
            CU_ASSERT(atof(p) <= 1 + 1e-12);
        entries++;
    }
    CU_ASSERT_EQUAL(entries, 3 * 3 + 1); /* 3 placements x 3 counts, GreedyJnt */
    CU_ASSERT(bl_contains(j, "\"exact_share\": 1"));
    /* the same seed gives the same values (times differ) */
    CU_ASSERT_EQUAL(bl_run_study(NULL, "%s --json '%s'", args, json2), 0);
    char *j2 = bl_slurp(json2, NULL);
    char *ks2 = j2 ? bl_json_array(j2, "knapsack") : NULL;
    CU_ASSERT(ks2 && strcmp(ks, ks2) == 0);
    free(ks);
    free(ks2);
    free(gr);
    free(jl);
    free(j);
    free(j2);
}

static void test_usage(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run_study(&out, "availability --help"), 0);
    CU_ASSERT(bl_contains(out, "usage: batchlab-study availability"));
    CU_ASSERT(bl_contains(out, "--budget-factor"));
    /* the environment choices, with the paper's words */
    CU_ASSERT(bl_contains(out, "remained\n                unloaded"));
    CU_ASSERT(bl_contains(out, "--load-concentration K"));
    CU_ASSERT(bl_contains(out, "--job-model FILE"));
    CU_ASSERT(bl_contains(out, "MinC does not perform any availability optimization"));
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "availability --load-concentration -1"), 2);
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "availability --minc cheapest"), 2);
    CU_ASSERT(bl_contains(out, "--minc: expected paper or tiebreak"));
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "availability --job-model /nonexistent/fit.json"), 1);
    CU_ASSERT(bl_contains(out, "/nonexistent/fit.json"));
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "availability --job-loads 0,2"), 2);
    CU_ASSERT(bl_contains(out, "--job-loads"));
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "availability --window 65"), 2);
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "availability --scenarios x"), 2);
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "availability --colour red"), 2);
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "--help"), 0);
    CU_ASSERT(bl_contains(out, "availability"));
    free(out);
    /* a folder where a file is expected */
    const char *dir = bl_tmpdir();
    CU_ASSERT_EQUAL(bl_run_study(&out, "availability --job-model %s", dir), 1);
    char want[600];
    snprintf(want, sizeof want, "%s: is a directory", dir);
    CU_ASSERT(bl_contains(out, want));
    free(out);
}

int bl_suite_study_availability(void)
{
    CU_pSuite s = CU_add_suite("study_availability", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "printout and JSON", test_run_and_json);
    CU_add_test(s, "--help and usage errors", test_usage);
    return 0;
}
