/* test_study_slots.c — `batchlab-study slots` (bench/studies/study_slots.c):
 * the table and the JSON (shape, determinism, AMP finding more and faster alternatives than
 * ALP), the CSV rows, --help and usage errors. */
#include "bl_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number after `key` inside the object that follows `section`. */
static double json_after(const char *json, const char *section, const char *key)
{
    const char *p = strstr(json, section);
    if (!p)
        return -1;
    p = strstr(p, key);
    if (!p)
        return -1;
    p += strlen(key);
    while (*p == '"' || *p == ':' || *p == ' ')
        p++;
    return atof(p);
}

static void test_table_and_json(void)
{
    const char *dir = bl_tmpdir();
    char json[512], json2[512], csv[512];
    snprintf(json, sizeof json, "%s/slots.json", dir);
    snprintf(json2, sizeof json2, "%s/slots2.json", dir);
    snprintf(csv, sizeof csv, "%s/slots.csv", dir);
    char *out = NULL;
    int rc = bl_run_study(&out, "slots --cycles 300 --seed 5 --json '%s' --csv '%s'", json, csv);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT(bl_contains(out, "paper ALP"));
    CU_ASSERT(bl_contains(out, "59.85"));
    CU_ASSERT(bl_contains(out, "313.09"));
    CU_ASSERT(bl_contains(out, "alternatives per job"));
    free(out);
    char *j = bl_slurp(json, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT(bl_contains(j, "\"time_min\""));
    CU_ASSERT(bl_contains(j, "\"cost_min\""));
    CU_ASSERT(bl_contains(j, "\"cycles_kept\""));
    double kept = json_after(j, "\"time_min\"", "\"cycles_kept\"");
    CU_ASSERT(kept > 0 && kept <= 300);
    double alp_alt = json_after(j, "\"time_min\"", "\"alternatives_per_job\"");
    const char *amp = strstr(strstr(j, "\"time_min\""), "\"amp\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(amp);
    double amp_alt = json_after(amp, "\"amp\"", "\"alternatives_per_job\"");
    double alp_time = json_after(j, "\"time_min\"", "\"time\"");
    double amp_time = json_after(amp, "\"amp\"", "\"time\"");
    /* AMP admits every window ALP admits: more alternatives, faster batches */
    CU_ASSERT(amp_alt > alp_alt && alp_alt > 0);
    CU_ASSERT(amp_time < alp_time && amp_time > 0);
    /* the same seed writes the same bytes */
    CU_ASSERT_EQUAL(bl_run_study(NULL, "slots --cycles 300 --seed 5 --json '%s'", json2), 0);
    char *j2 = bl_slurp(json2, NULL);
    CU_ASSERT(j2 && strcmp(j, j2) == 0);
    free(j2);
    free(j);
    char *c = bl_slurp(csv, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT(bl_contains(c, "cycle,jobs,alp_alternatives"));
    size_t lines = 0;
    for (const char *p = c; *p; p++)
        lines += *p == '\n';
    CU_ASSERT_EQUAL(lines, 301);
    free(c);
}

static void test_readings_and_errors(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run_study(&out, "slots --cycles 50 --length-ref required --t-limit terms "
                                       "--price-factor 1.25 --perf integer"),
                    0);
    CU_ASSERT(bl_contains(out, "t holds at performance P"));
    CU_ASSERT(bl_contains(out, "C = 1.25 * 1.7^P"));
    CU_ASSERT(bl_contains(out, "term by term"));
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "slots --help"), 0);
    CU_ASSERT(bl_contains(out, "usage: batchlab-study slots"));
    CU_ASSERT(bl_contains(out, "--price-factor"));
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "slots --length-ref fast"), 2);
    CU_ASSERT(bl_contains(out, "--length-ref"));
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "slots --price-factor 0"), 2);
    CU_ASSERT(bl_contains(out, "expected a number > 0"));
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "slots --cycles 0"), 2);
    free(out);
    CU_ASSERT_EQUAL(bl_run_study(&out, "slots --json /nonexistent/dir/x.json --cycles 5"), 1);
    free(out);
}

int bl_suite_study_slots(void)
{
    CU_pSuite s = CU_add_suite("study_slots", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "table, JSON and CSV", test_table_and_json);
    CU_add_test(s, "readings, --help and errors", test_readings_and_errors);
    return 0;
}
