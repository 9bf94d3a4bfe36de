/* test_cli_generate.c — `batchlab generate` and `batchlab scale` as users
 * call them (tools/cli_generate.c): counts that make no workload are usage
 * errors that write nothing, and a load that a log does not define is
 * said to be undefined rather than printed as nan. The models themselves
 * are tested in test_eng_lublin.c and test_eng_gen_modified.c. */
#include "bl_test.h"

#include <stdarg.h>
#include <stdbool.h>
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

/* The options after "; Generator: MODEL (CITATION)" in the SWF at path,
 * into buf; false when there is no such line. */
static bool generator_options(const char *path, char *buf, size_t len)
{
    char *text = bl_slurp(path, NULL);
    const char *line = text ? strstr(text, "\n; Generator: ") : NULL;
    const char *opts = line ? strstr(line, ") --") : NULL;
    bool ok = opts && opts < strchr(line + 1, '\n');
    if (ok)
        snprintf(buf, len, "%.*s", (int)strcspn(opts + 2, "\n"), opts + 2);
    free(text);
    return ok;
}

/* Same bytes in two files. */
static bool same_file(const char *a, const char *b)
{
    size_t la = 0, lb = 0;
    char *x = bl_slurp(a, &la), *y = bl_slurp(b, &lb);
    bool same = x && y && la == lb && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return same;
}

/* A generated log names its generator and the options that made it:
 * `info` prints that line (not "machine synthetic, synthetic"), the
 * options given again make the same bytes, and `scale` keeps the line and
 * adds what it did, which `info` prints too. */
static void test_generator_recorded(void)
{
    const char *dir = bl_tmpdir();
    char a[800], b[800], c[800], opts[2048], want[1200];
    snprintf(a, sizeof a, "%s/lublin.swf", dir);
    snprintf(b, sizeof b, "%s/again.swf", dir);
    snprintf(c, sizeof c, "%s/scaled.swf", dir);
    expect(0, "lublin.swf: 5 jobs",
           "generate lublin --nodes 8 --jobs 5 --seed 3 --start-hour 8 --estimates f-model --f 1.5 "
           "--param batch.UMed=2.5 --param whole.UMed=2 -o '%s'",
           a);
    const char *line =
        "lublin (Lublin & Feitelson 2003) --nodes 8 --jobs 5 --seed 3 --start-hour 8 "
        "--estimates f-model --f 1.5 --param batch.UMed=2.5";
    char *text = bl_slurp(a, NULL);
    snprintf(want, sizeof want, "\n; Generator: %s\n", line); /* whole.* is unused when typed */
    CU_ASSERT(bl_contains(text, want));
    free(text);
    CU_ASSERT_FATAL(generator_options(a, opts, sizeof opts));
    expect(0, "again.swf: 5 jobs", "generate lublin %s -o '%s'", opts, b);
    CU_ASSERT(same_file(a, b));
    snprintf(want, sizeof want, "\n  generator          %s\n", line);
    expect(0, want, "info --workload '%s'", a);
    char *out = NULL;
    bl_run(&out, "info --workload '%s'", a);
    CU_ASSERT_PTR_NULL(out ? strstr(out, "synthetic, synthetic") : "");
    free(out);
    /* typeless, whole seconds, walltimes */
    expect(0, "lublin.swf: 4 jobs",
           "generate lublin --nodes 64 --jobs 4 --seed 9 --typeless --whole-seconds "
           "--estimates walltimes --walltimes 60,600 -o '%s'",
           a);
    text = bl_slurp(a, NULL);
    CU_ASSERT(bl_contains(text, "\n; Generator: lublin (Lublin & Feitelson 2003) --nodes 64 "
                                "--jobs 4 --seed 9 --typeless --whole-seconds --estimates "
                                "walltimes --walltimes 60,600\n"));
    free(text);
    CU_ASSERT_FATAL(generator_options(a, opts, sizeof opts));
    expect(0, "again.swf: 4 jobs", "generate lublin %s -o '%s'", opts, b);
    CU_ASSERT(same_file(a, b));
    /* the modified generator */
    expect(0, "lublin.swf: 4 jobs",
           "generate modified --nodes 16 --jobs 4 --seed 2 --lambda 0.02 --types 3 -o '%s'", a);
    text = bl_slurp(a, NULL);
    CU_ASSERT(bl_contains(text, "\n; Generator: modified (Baranov & Lyakhovets 2022) --nodes 16 "
                                "--jobs 4 --seed 2 --lambda 0.02 --types 3 --estimates exact\n"));
    free(text);
    CU_ASSERT_FATAL(generator_options(a, opts, sizeof opts));
    expect(0, "again.swf: 4 jobs", "generate modified %s -o '%s'", opts, b);
    CU_ASSERT(same_file(a, b));
    /* scale keeps the line and says what it did */
    expect(0, "scaled.swf: 4 jobs", "scale --workload '%s' --nodes 16 --load 0.5 -o '%s'", a, c);
    text = bl_slurp(c, NULL);
    CU_ASSERT(bl_contains(text, "\n; Generator: modified (Baranov & Lyakhovets 2022) --nodes 16 "
                                "--jobs 4 --seed 2 --lambda 0.02 --types 3 --estimates exact\n"));
    free(text);
    expect(0, "\n  generator          modified (Baranov & Lyakhovets 2022) --nodes 16",
           "info --workload '%s'", c);
    expect(0, "\n  scale              inter-arrival times multiplied by ", "info --workload '%s'",
           c);
    expect(0, " for a computed load of 0.5 on 16 nodes of 1 core (U = sum(run time x nodes)",
           "info --workload '%s'", c);
}

int bl_suite_cli_generate(void)
{
    CU_pSuite s = CU_add_suite("cli_generate", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "no jobs: a usage error, nothing written", test_no_jobs);
    CU_add_test(s, "one job: the computed load is undefined, not nan", test_one_job_load_undefined);
    CU_add_test(s, "the generator and its options recorded, shown by info",
                test_generator_recorded);
    return 0;
}
