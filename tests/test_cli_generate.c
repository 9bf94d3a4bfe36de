/* test_cli_generate.c — `batchlab generate` and `batchlab scale` as users
 * call them (tools/cli_generate.c): counts that make no workload are usage
 * errors that write nothing, and a load that a log does not define is
 * said to be undefined rather than printed as nan. The models themselves
 * are tested in test_eng_lublin.c and test_eng_gen_modified.c. */
#include "bl_test.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Runs batchlab ARGS; checks the exit status and that the output holds
 * fragment (and no "load nan"). */
static void expect(int status, const char *fragment, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void expect(int status, const char *fragment, const char *fmt, ...)
{
    char args[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    char *out = NULL;
    int st = bl_run(&out, "%s", args);
    CU_ASSERT_EQUAL(st, status);
    if (st != status)
        printf("\n  batchlab %s -> %d:\n%s", args, st, out ? out : "");
    CU_ASSERT(bl_contains(out, fragment));
    CU_ASSERT_PTR_NULL(out ? strstr(out, "load nan") : NULL);
    free(out);
}

/* --jobs 0 made an SWF with no job lines ("computed load nan") that run
 * then refused: a usage error now, in both models, with nothing written. */
static void test_no_jobs(void)
{
    const char *dir = bl_tmpdir();
    char path[800];
    snprintf(path, sizeof path, "%s/zero.swf", dir);
    expect(2, "batchlab generate: --jobs: expected 1..1099511627776, got '0'",
           "generate lublin --nodes 4 --jobs 0 --seed 1 -o '%s'", path);
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
    expect(2, "batchlab generate: --jobs: expected 1..1099511627776, got '0'",
           "generate modified --nodes 4 --jobs 0 --seed 1 -o '%s'", path);
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
    /* the other counts of the same kind */
    expect(2, "batchlab generate: --jobs: expected a non-negative integer, got '-3'",
           "generate lublin --nodes 4 --jobs -3 --seed 1 -o '%s'", path);
    expect(2, "batchlab generate: --nodes: expected 1..2147483647, got '0'",
           "generate modified --nodes 0 --jobs 3 --seed 1 -o '%s'", path);
    expect(2, "batchlab generate: --types: expected 1..4294967295, got '0'",
           "generate modified --nodes 4 --jobs 3 --seed 1 --types 0 -o '%s'", path);
    expect(2, "batchlab generate: --lambda: expected a positive rate, got '0'",
           "generate modified --nodes 4 --jobs 3 --seed 1 --lambda 0 -o '%s'", path);
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
}

/* One job has no arrival span, so its computed load is undefined: said so,
 * by generate, info --nodes and scale, never "nan". */
static void test_one_job_load_undefined(void)
{
    const char *dir = bl_tmpdir();
    char path[800];
    snprintf(path, sizeof path, "%s/one.swf", dir);
    expect(0, "one.swf: 1 job, arrivals over 0 s, computed load undefined (arrivals span 0 s)",
           "generate lublin --nodes 4 --jobs 1 --seed 1 -o '%s'", path);
    expect(0, "computed load      undefined (arrivals span 0 s) on 4 nodes of 1 core",
           "info --workload '%s' --nodes 4", path);
    expect(0, "computed load undefined (arrivals span 0 s) on 4 nodes of 1 core",
           "scale --workload '%s' --nodes 4 --types 2 --seed 1 -o '%s/typed.swf'", path, dir);
}

int bl_suite_cli_generate(void)
{
    CU_pSuite s = CU_add_suite("cli_generate", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "no jobs: a usage error, nothing written", test_no_jobs);
    CU_add_test(s, "one job: the computed load is undefined, not nan", test_one_job_load_undefined);
    return 0;
}
