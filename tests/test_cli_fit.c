/* test_cli_fit.c — `batchlab fit` (tools/cli_fit.c): the printout and the
 * JSON of a hand-made log (values worked out in test_eng_fit.c), bad input
 * (no usable job, unreadable log) exits 1 and leaves no file, usage errors
 * exit 2; the JSON feeds `batchlab-study availability --job-model`, which refuses a
 * file that is not a fit. The archive's KTH-SP2 log is fitted when present. */
#include "bl_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char small_log[] = "1 0 0 1 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n"
                                "2 5 0 10 2 -1 -1 2 10 -1 1 1 1 -1 -1 -1 -1 -1\n"
                                "3 9 0 100 4 -1 -1 4 100 -1 1 1 1 -1 -1 -1 -1 -1\n"
                                "4 12 0 1000 8 -1 -1 8 1000 -1 1 1 1 -1 -1 -1 -1 -1\n";

static void test_fit(void)
{
    const char *log = bl_write_tmp("four.swf", small_log);
    char json[512], *out = NULL;
    snprintf(json, sizeof json, "%s/four.json", bl_tmpdir());
    CU_ASSERT_EQUAL(bl_run(&out, "fit --workload '%s' --json '%s'", log, json), 0);
    CU_ASSERT(bl_contains(out, "4 used"));
    CU_ASSERT(bl_contains(out, "mu 3.4539  sigma 2.5744"));
    CU_ASSERT(bl_contains(out, "KS 0.1726"));
    free(out);
    char *j = bl_slurp(json, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT(bl_contains(j, "\"format\": \"batchlab-fit 1\""));
    CU_ASSERT(bl_contains(j, "\"run_time\""));
    CU_ASSERT(bl_contains(j, "\"size\""));
    CU_ASSERT(bl_contains(j, "\"ks\": 0.1726"));
    /* sizes 1, 2, 4, 8: the lognormal's mu is the mean of ln x, 1.5 ln 2 */
    CU_ASSERT(bl_contains(j, "\"size\": {\n    \"n\": 4,\n    \"lognormal\": {\n      \"mu\": "
                             "1.0397207708399179,\n"));
    CU_ASSERT(bl_contains(j, "\"jobs\": 4,\n  \"used\": 4,\n  \"no_positive_run_time\": 0,\n"));
    free(j);
    /* the study takes the lengths' log-deviation from it */
    CU_ASSERT_EQUAL(bl_run_study(&out,
                                 "availability --scenarios 2 --timescan-scenarios 0 --job-loads "
                                 "0.5 --starts 1 --job-model '%s'",
                                 json),
                    0);
    CU_ASSERT(bl_contains(out, "log-deviation 2.574 from"));
    free(out);
}

static void test_bad_input(void)
{
    const char *dir = bl_tmpdir();
    char json[512], *out = NULL;
    snprintf(json, sizeof json, "%s/none.json", dir);
    const char *zero = bl_write_tmp("zero.swf", "1 0 0 0 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n"
                                                "2 3 0 -1 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n");
    CU_ASSERT_EQUAL(bl_run(&out, "fit --workload '%s' --json '%s'", zero, json), 1);
    CU_ASSERT(bl_contains(out, "zero.swf"));
    CU_ASSERT(bl_contains(out, "positive run time"));
    CU_ASSERT(access(json, F_OK) != 0);
    free(out);
    /* a negative run time other than -1 (unknown) is malformed SWF */
    const char *neg = bl_write_tmp("neg.swf", "1 0 0 -5 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n");
    CU_ASSERT_EQUAL(bl_run(&out, "fit --workload '%s' --json '%s'", neg, json), 1);
    CU_ASSERT(bl_contains(out, "neg.swf:1: field 4 (run time)"));
    CU_ASSERT(access(json, F_OK) != 0);
    free(out);
    const char *empty = bl_write_tmp("empty.swf", "; only a header\n");
    CU_ASSERT_EQUAL(bl_run(&out, "fit --workload '%s' --json '%s'", empty, json), 1);
    CU_ASSERT(bl_contains(out, "got 0 of 0"));
    CU_ASSERT(access(json, F_OK) != 0);
    free(out);
    CU_ASSERT_EQUAL(bl_run(&out, "fit --workload '%s/missing.swf'", dir), 1);
    free(out);
    CU_ASSERT_EQUAL(bl_run(&out, "fit"), 2);
    CU_ASSERT(bl_contains(out, "--workload LOG is required"));
    free(out);
    CU_ASSERT_EQUAL(bl_run(&out, "fit --workload x --colour red"), 2);
    free(out);
    CU_ASSERT_EQUAL(bl_run(&out, "fit --help"), 0);
    CU_ASSERT(bl_contains(out, "hyper-gamma"));
    free(out);
    /* a fit file that is not ours */
    const char *other = bl_write_tmp("other.json", "{\"study\": \"availability\"}\n");
    CU_ASSERT_EQUAL(bl_run_study(&out, "availability --scenarios 1 --job-model '%s'", other), 1);
    CU_ASSERT(bl_contains(out, "other.json"));
    CU_ASSERT(bl_contains(out, "batchlab-fit 1"));
    free(out);
}

static void test_kth(void)
{
    const char *log = bl_trace("KTH-SP2-1996-2.1-cln.swf");
    if (!log)
        return; /* the archive logs are optional; test_traces reports their absence */
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "fit --workload '%s'", log), 0);
    CU_ASSERT(bl_contains(out, "28467 used"));
    CU_ASSERT(bl_contains(out, "hyper-gamma of ln x"));
    free(out);
}

int bl_suite_cli_fit(void)
{
    CU_pSuite s = CU_add_suite("cli_fit", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "fit of a four-job log, its JSON, --job-model", test_fit);
    CU_add_test(s, "bad input and usage errors", test_bad_input);
    CU_add_test(s, "the archive's KTH-SP2 log", test_kth);
    return 0;
}
