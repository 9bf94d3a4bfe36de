/* test_cli_standin.c — `batchlab standin forhlr2` (tools/cli_standin.c):
 * the same seed writes the same bytes and another seed other jobs, the
 * header and the Generator line info prints; --load reaches the computed
 * load; the file replays on platforms/forhlr2.xml without a dropped job;
 * usage errors. The model itself is test_eng_standin.c. */
#include "bl_test.h"

#include "eng_scale.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_command_bytes(void)
{
    const char *dir = bl_tmpdir();
    char a[600], b[600], c[600];
    snprintf(a, sizeof a, "%s/a.swf", dir);
    snprintf(b, sizeof b, "%s/b.swf", dir);
    snprintf(c, sizeof c, "%s/c.swf", dir);
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "standin forhlr2 --jobs 300 --seed 11 -o %s", a), 0);
    CU_ASSERT_TRUE(bl_contains(out, "ForHLR II stand-in, 300 jobs"));
    free(out);
    CU_ASSERT_EQUAL(bl_run(NULL, "standin forhlr2 --jobs 300 --seed 11 -o %s", b), 0);
    CU_ASSERT_EQUAL(bl_run(NULL, "standin forhlr2 --jobs 300 --seed 12 -o %s", c), 0);
    size_t la = 0, lb = 0, lc = 0;
    char *sa = bl_slurp(a, &la), *sb = bl_slurp(b, &lb), *sc = bl_slurp(c, &lc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sa);
    CU_ASSERT_TRUE(sb && la == lb && memcmp(sa, sb, la) == 0);   /* same seed, same bytes */
    CU_ASSERT_TRUE(sc && (la != lc || memcmp(sa, sc, la) != 0)); /* another seed */
    CU_ASSERT_TRUE(bl_contains(sa, "; Computer: ForHLR II stand-in (synthetic; not the "
                                   "KIT-FH2-2016-1 log)"));
    CU_ASSERT_TRUE(bl_contains(sa, "; MaxNodes: 1152\n"));
    /* the command that makes it, which info prints */
    CU_ASSERT_TRUE(bl_contains(sa,
                               "\n; Generator: standin forhlr2 (Lublin & Feitelson 2003, "
                               "batch class on 1152 nodes of 20 cores) --jobs 300 --seed 11\n"));
    CU_ASSERT_EQUAL(bl_run(&out, "info --workload %s", a), 0);
    CU_ASSERT_TRUE(bl_contains(out, "\n  generator          standin forhlr2 (Lublin & Feitelson "
                                    "2003, batch class on 1152 nodes of 20 cores) --jobs 300 "
                                    "--seed 11\n"));
    free(out);
    /* 300 job lines. */
    size_t jobs = 0;
    for (char *p = sa; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
        jobs += *p != ';' && *p != '\n';
    CU_ASSERT_EQUAL(jobs, 300);
    free(sa);
    free(sb);
    free(sc);

    /* --load: the computed load on 1152 x 20 reaches the target, within
     * U / (2 D) as whole-second submit times allow (eng_scale.h). */
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "standin forhlr2 --jobs 300 --seed 11 --load 0.7 -o %s", b), 0);
    CU_ASSERT_TRUE(bl_contains(out, "computed load 0.7000 on 1152 nodes of 20 cores"));
    free(out);
    eng_workload *w = NULL;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_swf_read(b, NULL, &w, &d), ENG_OK);
    eng_load l;
    CU_ASSERT_EQUAL(eng_scale_load(w, 1152, 20, &l, &d), ENG_OK);
    CU_ASSERT(fabs(l.load - 0.7) <= 0.7 / (2 * l.span_s));
    CU_ASSERT_EQUAL(l.span_s, floor(l.span_s));
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "computed load of 0.7"));
    eng_workload_destroy(w);

    /* It replays on the ForHLR II platform: nothing dropped. */
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out,
                           "run --platform %s --workload %s --policy easy --check "
                           "--out %s/run -q",
                           bl_src("platforms/forhlr2.xml"), b, dir),
                    0);
    free(out);
    snprintf(c, sizeof c, "%s/run/summary.json", dir);
    char *sum = bl_slurp(c, NULL);
    CU_ASSERT_TRUE(sum && bl_contains(sum, "\"simulated\": 300"));
    CU_ASSERT_TRUE(sum && bl_contains(sum, "\"dropped\": 0"));
    free(sum);
}

static void test_usage(void)
{
    const char *dir = bl_tmpdir();
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "standin --help"), 0);
    CU_ASSERT_TRUE(bl_contains(out, "forhlr2 --jobs N --seed S"));
    free(out);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "standin bluegene --jobs 3 --seed 1 -o %s/x.swf", dir), 2);
    CU_ASSERT_TRUE(bl_contains(out, "expected a machine, forhlr2, got 'bluegene'"));
    free(out);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "standin forhlr2 --seed 1 -o %s/x.swf", dir), 2);
    CU_ASSERT_TRUE(bl_contains(out, "--jobs, --seed and -o are required"));
    free(out);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "standin forhlr2 --jobs 0 --seed 1 -o %s/x.swf", dir), 2);
    CU_ASSERT_TRUE(bl_contains(out, "--jobs: expected 1..100000000, got '0'"));
    free(out);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "standin forhlr2 --jobs 5 --seed 1 --load -1 -o %s/x.swf", dir),
                    2);
    free(out);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "standin forhlr2 --jobs 5 --seed 1 -o /no/such/dir/x.swf"), 1);
    free(out);
    char path[600];
    snprintf(path, sizeof path, "%s/x.swf", dir);
    CU_ASSERT_PTR_NULL(bl_slurp(path, NULL));
}

int bl_suite_cli_standin(void)
{
    CU_pSuite s = CU_add_suite("cli_standin", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "the command: same seed same bytes, --load, replay", test_command_bytes);
    CU_add_test(s, "usage and errors", test_usage);
    return 0;
}
