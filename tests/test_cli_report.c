/* test_cli_report.c — `batchlab report` (tools/cli_report.c) on the
 * hand-made compare folder of bl_report_fixture.h and on a real compare
 * of the 16-job fixture: the tables' cells hold summary.json's and
 * paired.json's values, every string is escaped (a '<' in a policy option
 * and in a policy's folder name), what is absent says "not recorded", the
 * page refers to nothing outside itself and is the same bytes twice,
 * nothing is printed, and bad input names its file and leaves no page.
 * The page in a real browser: test_cli_report_browser.c. */
#include "bl_report_fixture.h"
#include "bl_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool have_gnuplot(void)
{
    return bl_system("command -v gnuplot", NULL) == 0;
}

static size_t count(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = s; p && (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static void test_usage(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "report"), 2);
    CU_ASSERT_TRUE(bl_contains(out, "expected at least one DIR"));
    free(out);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "report --help"), 0);
    CU_ASSERT_TRUE(bl_contains(out, "self-contained HTML"));
    free(out);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "report %s --bogus", bl_tmpdir()), 2);
    free(out);
}

static void test_compare_page(void)
{
    if (!have_gnuplot()) {
        printf("\n  gnuplot not installed: the page's figures not checked ");
        return;
    }
    const char *dir = bl_report_fixture();
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "report %s", dir), 0);
    CU_ASSERT_TRUE(out && out[0] == '\0'); /* prints nothing */
    if (out && out[0])
        printf("\n%s\n", out);
    free(out);
    char page[900];
    snprintf(page, sizeof page, "%s/report.html", dir);
    char *h = bl_slurp(page, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    CU_ASSERT_TRUE(bl_contains(h, "<!DOCTYPE html>"));
    /* The headline: the recorder's values, thousands grouped. */
    CU_ASSERT_TRUE(bl_contains(h, "<tr><th>easy</th><td class=\"n\">4</td><td class=\"n\">27.5"
                                  "</td><td class=\"n\">5</td><td class=\"n\">100</td>"
                                  "<td class=\"n\">1.75</td><td class=\"n\">0.5</td>"
                                  "<td class=\"n\">123&#8201;456</td>"));
    /* Escaped: the folder name fcfs&<x> and the option a<b & 'c'. */
    CU_ASSERT_TRUE(bl_contains(h, "<tr><th>fcfs&amp;&lt;x&gt;</th>"));
    CU_ASSERT_TRUE(bl_contains(h, "a&lt;b &amp; &#39;c&#39;"));
    CU_ASSERT_FALSE(strstr(h, "a<b") || strstr(h, "fcfs&<x>") || strstr(h, "&<x>"));
    /* The paired table, the breakdown's cell, the manifest's hash. */
    CU_ASSERT_TRUE(bl_contains(h, "<td>easy</td><td>fcfs&amp;&lt;x&gt;</td><td class=\"n\">4"
                                  "</td><td class=\"n\">27.5</td>"));
    CU_ASSERT_TRUE(bl_contains(h, "<tr class=\"k\"><th rowspan=\"2\">2-3</th><td>easy</td>"
                                  "<td class=\"n\">2</td><td class=\"n\">52.5</td>"));
    CU_ASSERT_TRUE(bl_contains(h, "<th rowspan=\"2\">&lt;10min</th>"));
    CU_ASSERT_TRUE(bl_contains(h, "<td>fcfs&amp;&lt;x&gt;</td><td colspan=\"6\" class=\"na\">"
                                  "not recorded</td>"));
    CU_ASSERT_TRUE(bl_contains(h, "<tr><th>inputs.workload.sha256</th><td class=\"h\">00ff"));
    CU_ASSERT_FALSE(strstr(h, "wall_time_s") != NULL);
    /* What fcfs's summary lacks. */
    CU_ASSERT_TRUE(bl_contains(h, "not recorded"));
    CU_ASSERT_TRUE(bl_contains(h, "<td class=\"n\">n/a</td>")); /* queue_length_mean null */
    /* Every table and figure. */
    static const char *const ids[] = {"id=\"d1-headline\"",     "id=\"d1-summary-table\"",
                                      "id=\"d1-paired-table\"", "id=\"d1-fairness-table\"",
                                      "id=\"d1-bd-size\"",      "id=\"d1-bd-runtime\"",
                                      "id=\"d1-manifest-0\"",   "id=\"d1-manifest-1\"",
                                      "id=\"d1-fig-cdf-wait\"", "id=\"d1-fig-compare\""};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        CU_ASSERT_TRUE(bl_contains(h, ids[i]));
    CU_ASSERT_EQUAL(count(h, "<svg"), 5);
    CU_ASSERT_EQUAL(count(h, "<?xml"), 0);
    CU_ASSERT_TRUE(bl_contains(h, "id='f4-gpPt1'"));
    /* Self-contained: no script, no link, no fetched file. */
    CU_ASSERT_FALSE(strstr(h, "<script") || strstr(h, "<link") || strstr(h, "src=") ||
                    strstr(h, "url(") || strstr(h, "@import") || strstr(h, "https:"));
    /* The same bytes again, and no temporary path. */
    const char *o = bl_tmpdir();
    CU_ASSERT_EQUAL(bl_run(NULL, "report %s -o %s/again.html", dir, o), 0);
    char again[900];
    snprintf(again, sizeof again, "%s/again.html", o);
    char *h2 = bl_slurp(again, NULL);
    CU_ASSERT_TRUE(h2 && strcmp(h, h2) == 0);
    CU_ASSERT_FALSE(strstr(h, "batchlab-report.") != NULL);
    free(h2);
    free(h);
}

static void test_run_and_sweep(void)
{
    if (!have_gnuplot())
        return;
    /* A run folder alone: its page beside it, titled by its policy. */
    const char *dir = bl_report_fixture();
    char run[900], page[1000];
    snprintf(run, sizeof run, "%s/easy", dir);
    CU_ASSERT_EQUAL(bl_run(NULL, "report %s", run), 0);
    snprintf(page, sizeof page, "%s/report.html", run);
    char *h = bl_slurp(page, NULL);
    CU_ASSERT_TRUE(h && bl_contains(h, "easy — a run"));
    CU_ASSERT_TRUE(h && bl_contains(h, "not recorded (no paired.json)"));
    free(h);
    /* A merged sweep: results.csv's cells. */
    const char *sw = bl_tmpdir();
    snprintf(page, sizeof page, "%s/results.csv", sw);
    bl_put_file(page, "workload,load,variant,wait_mean_s\nw<1>,0.5,easy,12.25\n");
    CU_ASSERT_EQUAL(bl_run(NULL, "report %s", sw), 0);
    snprintf(page, sizeof page, "%s/report.html", sw);
    h = bl_slurp(page, NULL);
    CU_ASSERT_TRUE(h && bl_contains(h, "<td>w&lt;1&gt;</td><td class=\"n\">0.5</td><td>easy"
                                       "</td><td class=\"n\">12.25</td>"));
    free(h);
}

static void test_bad_input(void)
{
    const char *dir = bl_report_fixture();
    char p[900];
    snprintf(p, sizeof p, "%s/paired.json", dir);
    bl_put_file(p, "{\"pairs\": [}\n");
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "report %s", dir), 1);
    CU_ASSERT_TRUE(bl_contains(out, "paired.json:1:"));
    free(out);
    snprintf(p, sizeof p, "%s/report.html", dir);
    CU_ASSERT_NOT_EQUAL(access(p, F_OK), 0);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "report %s/nothing", dir), 1);
    CU_ASSERT_TRUE(bl_contains(out, "nothing: not a folder"));
    free(out);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "report %s", bl_tmpdir()), 1);
    CU_ASSERT_TRUE(bl_contains(out, "no run folder in it"));
    free(out);
}

/* compare on the 16-job fixture, then its page. */
static void test_end_to_end(void)
{
    if (!have_gnuplot())
        return;
    const char *dir = bl_tmpdir();
    CU_ASSERT_EQUAL_FATAL(bl_run(NULL,
                                 "compare --platform %s --workload %s --policies fcfs,easy -q "
                                 "--out %s/cmp",
                                 bl_src("platforms/kth-sp2.xml"),
                                 bl_src("traces/fixtures/small.swf"), dir),
                          0);
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "report %s/cmp -o %s/r.html", dir, dir), 0);
    free(out);
    char page[900];
    snprintf(page, sizeof page, "%s/r.html", dir);
    char *h = bl_slurp(page, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    CU_ASSERT_EQUAL(count(h, "<svg"), 5);
    CU_ASSERT_TRUE(bl_contains(h,
                               "<tr><th>inputs.workload.sha256</th><td class=\"h\">"
                               "bdf7a0af6d409f791789f03dbe1ce2e753b1732cfccfba54a1513f3ea620cd90"));
    /* fcfs's mean wait on this log: 2423.85 s (test_cli_main.c's compare). */
    CU_ASSERT_TRUE(bl_contains(h, "<tr><th>fcfs</th><td class=\"n\">13</td><td class=\"n\">"
                                  "2423.85</td>"));
    free(h);
}

int bl_suite_cli_report(void)
{
    CU_pSuite s = CU_add_suite("cli_report", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "usage", test_usage);
    CU_add_test(s, "a compare folder's page: values, escaping, offline, the same bytes",
                test_compare_page);
    CU_add_test(s, "a run folder's page and a sweep's", test_run_and_sweep);
    CU_add_test(s, "bad input names its file, leaves no page", test_bad_input);
    CU_add_test(s, "compare on a fixture log, then its page", test_end_to_end);
    return 0;
}
