/* test_study_sa.c — `batchlab-study sa` (bench/studies/study_sa.c): one
 * run's printout and JSON (the keys the benchmark reads), reproducibility, the paper's numbers
 * beside ours, usage errors, and a cuda request where none is usable. */
#include "bl_test.h"
#include "cli_policy_spec.h"
#include "gpu_sa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_run_and_json(void)
{
    const char *dir = bl_tmpdir();
    char *out = NULL;
    int rc = bl_run_study(&out,
                          "sa --model 1 --machines 64 --iterations 100 --backend cpu "
                          "--json %s/a.json",
                          dir);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT(bl_contains(out, "load model #1, 64 machines: 256 jobs, 1024 files"));
    CU_ASSERT(bl_contains(out, "Cmax [time units]"));
    CU_ASSERT(bl_contains(out, "3460")); /* the paper's Table 3 */
    CU_ASSERT(bl_contains(out, "backend cpu"));
    free(out);
    char path[1024];
    snprintf(path, sizeof path, "%s/a.json", dir);
    char *json = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    static const char *keys[] = {
        "\"cmax\": ",
        "\"flowtime\": ",
        "\"e1\": ",
        "\"e2\": ",
        "\"iterations\": 100",
        "\"seconds\": ",
        "\"backend\": \"cpu\"",
        "\"evaluations_per_s\": ",
        "\"parallel\": \"chains\"",
        "\"acceptance\": \"metropolis\"",
        "\"cmax_lower_bound\": ",
        "\"cmax_over_bound\": ",
        "\"transfer_volume\": ",
        "\"cpu_seconds\": ",
        "\"paper\": {\n    \"cpu_seconds\": 5,\n    \"gpu_seconds\": 60,\n    \"cmax\": 3460"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        CU_ASSERT(bl_contains(json, keys[k]));
    /* the same command gives the same schedule */
    rc = bl_run_study(&out,
                      "sa --model 1 --machines 64 --iterations 100 --backend cpu "
                      "--json %s/b.json",
                      dir);
    CU_ASSERT_EQUAL(rc, 0);
    free(out);
    snprintf(path, sizeof path, "%s/b.json", dir);
    char *json2 = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json2);
    const char *c1 = strstr(json, "\"cmax\""), *c2 = strstr(json2, "\"cmax\"");
    CU_ASSERT(c1 && c2 && strncmp(c1, c2, 120) == 0);
    free(json2);
    /* machine by machine: the same schedule; the paper's acceptance: named */
    rc = bl_run_study(&out,
                      "sa --model 1 --machines 64 --iterations 100 --backend cpu "
                      "--parallel machines --json %s/c.json",
                      dir);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT(bl_contains(out, "parallel machines"));
    free(out);
    snprintf(path, sizeof path, "%s/c.json", dir);
    json2 = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json2);
    CU_ASSERT(bl_contains(json2, "\"parallel\": \"machines\""));
    c2 = strstr(json2, "\"cmax\"");
    CU_ASSERT(c1 && c2 && strncmp(c1, c2, 120) == 0);
    free(json2);
    rc = bl_run_study(&out,
                      "sa --model 1 --machines 64 --iterations 100 --backend cpu "
                      "--acceptance paper --json %s/d.json",
                      dir);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT(bl_contains(out, "acceptance paper"));
    free(out);
    snprintf(path, sizeof path, "%s/d.json", dir);
    json2 = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json2);
    CU_ASSERT(bl_contains(json2, "\"acceptance\": \"paper\""));
    free(json2);
    free(json);
}

static void test_e2_and_stop(void)
{
    char *out = NULL;
    int rc = bl_run_study(&out, "sa --model 2 --machines 64 --stop-e1 --energy e2 "
                                "--transfer-cost 10 --backend cpu");
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT(bl_contains(out, "E1 rule"));
    CU_ASSERT(bl_contains(out, "142046.33")); /* Table 9, 64 machines, 10 % */
    CU_ASSERT(bl_contains(out, "1388"));      /* Table 7, iterations on the CPU */
    free(out);
}

static void test_usage(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run_study(&out, "sa --machines 64"), 2);
    CU_ASSERT(bl_contains(out, "--model and --machines are required"));
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "sa --model 3 --machines 64"), 2);
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "sa --model 1 --machines 64 --backend gpu"), 2);
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "sa --model 1 --machines 64 --energy e3"), 2);
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "sa --model 1 --machines 64 --parallel blocks"), 2);
    CU_ASSERT(bl_contains(out, "parallel"));
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "sa --model 1 --machines 64 --acceptance always"), 2);
    CU_ASSERT(bl_contains(out, "acceptance"));
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "sa --help"), 0);
    CU_ASSERT(bl_contains(out, "Skrinarova & Povinsky 2019"));
    free(out);
    char why[256];
    if (!gpu_sa_cuda_available(why, sizeof why) && !getenv(BL_SA_BACKEND_ENV)) {
        CU_ASSERT_EQUAL(bl_run_study(&out, "sa --model 1 --machines 8 --backend cuda"), 1);
        CU_ASSERT(bl_contains(out, "not available"));
        free(out);
    }
}

int bl_suite_study_sa(void)
{
    CU_pSuite s = CU_add_suite("study_sa", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "a run, its JSON, reproducible", test_run_and_json);
    CU_add_test(s, "E2 with transfer costs and the E1 rule", test_e2_and_stop);
    CU_add_test(s, "usage errors", test_usage);
    return 0;
}
