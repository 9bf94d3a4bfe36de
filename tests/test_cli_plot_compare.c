/* test_cli_plot_compare.c — `batchlab plot --compare DIR`
 * (tools/cli_plot_compare.c) on the hand-made compare folder of
 * bl_report_fixture.h: the CDF's points of 4 jobs, the class bars and the
 * means read from summary.json (absent breakdowns as missing bars), the
 * pairs of paired.json, the figures drawn (PNG, SVG, the same bytes twice)
 * and the errors that name their file. */
#include "bl_report_fixture.h"
#include "bl_test.h"
#include "cli_plot_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *cdf_text(const double *v, size_t n)
{
    char *s = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&s, &len);
    bl_plot_cdf_write(f, v, n);
    fclose(f);
    return s;
}

/* Waits 0, 5, 5, 100: F(0) = 1/4, F(5) = 3/4, F(100) = 1, from "0 0". */
static void test_cdf_points(void)
{
    double v[] = {0, 5, 5, 100};
    char *s = cdf_text(v, 4);
    CU_ASSERT_STRING_EQUAL(s, "0 0\n0 0.25\n5 0.75\n100 1\n");
    free(s);
    double one[] = {7};
    s = cdf_text(one, 1);
    CU_ASSERT_STRING_EQUAL(s, "7 0\n7 1\n");
    free(s);
}

static char *read_out(const char *dir, const char *name)
{
    char p[1200];
    if (snprintf(p, sizeof p, "%s/%s", dir, name) >= (int)sizeof p)
        return NULL;
    return bl_slurp(p, NULL);
}

static void test_data(void)
{
    const char *dir = bl_report_fixture();
    char *out = NULL;
    int st = bl_run(&out, "plot --compare %s --no-render", dir);
    CU_ASSERT_EQUAL(st, 0);
    CU_ASSERT_TRUE(bl_contains(out, "2 policies, paired.json"));
    free(out);
    char plot[900];
    snprintf(plot, sizeof plot, "%s/plot", dir);
    /* Policies in name order: easy, then "fcfs&<x>". */
    char *s = read_out(plot, "cdf-wait.dat");
    CU_ASSERT_TRUE(s && bl_contains(s, "# policy 0: value, share of its 4 jobs at or below it\n"
                                       "0 0\n0 0.25\n5 0.75\n100 1\n"));
    CU_ASSERT_TRUE(s && bl_contains(s, "\n\n\n# policy 1: value, share of its 4 jobs at or "
                                       "below it\n0 0\n0 0.25\n10 0.75\n200 1\n"));
    free(s);
    s = read_out(plot, "cdf-bsld.dat");
    CU_ASSERT_TRUE(s && bl_contains(s, "1 0\n1 0.25\n1.5 0.75\n3 1\n"));
    free(s);
    /* The bars are the recorder's values; the run without breakdowns has
     * none ("?"). */
    s = read_out(plot, "class-size.dat");
    CU_ASSERT_TRUE(s && bl_contains(s, "\n0 2.5 ?\n1 52.5 ?\n"));
    free(s);
    s = read_out(plot, "class-runtime.dat");
    CU_ASSERT_TRUE(s && bl_contains(s, "\n0 27.5 ?\n"));
    free(s);
    s = read_out(plot, "means.dat");
    CU_ASSERT_TRUE(s && bl_contains(s, "\n0 27.5 5 1.75\n1 55 10 2.5\n"));
    free(s);
    s = read_out(plot, "paired.dat");
    CU_ASSERT_TRUE(s && bl_contains(s, "\n0 27.5 2.5 60\n"));
    free(s);
    s = read_out(plot, "compare.gp");
    CU_ASSERT_TRUE(s && bl_contains(s, "xtics (\"<10min\" 0)"));
    CU_ASSERT_TRUE(s && bl_contains(s, "title \"fcfs&<x>\""));
    CU_ASSERT_TRUE(s && bl_contains(s, "\"fcfs&<x>\".\"\\nvs \".\"easy\" 0"));
    free(s);
}

static bool have_gnuplot(void)
{
    return bl_system("command -v gnuplot", NULL) == 0;
}

static void test_render(void)
{
    if (!have_gnuplot()) {
        printf("\n  gnuplot not installed: rendering not checked ");
        return;
    }
    const char *dir = bl_report_fixture();
    const char *o1 = bl_tmpdir(), *o2 = bl_tmpdir();
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot --compare %s -o %s", dir, o1), 0);
    free(out);
    CU_ASSERT_EQUAL(bl_run(NULL, "plot --compare %s -o %s", dir, o2), 0);
    static const char *const figs[] = {"cdf-wait", "cdf-bsld", "class-size", "class-runtime",
                                       "compare"};
    for (size_t i = 0; i < 5; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s.png", figs[i]);
        char *png = read_out(o1, name);
        CU_ASSERT_TRUE(png && memcmp(png, "\x89PNG", 4) == 0);
        free(png);
        snprintf(name, sizeof name, "%s.svg", figs[i]);
        char *a = read_out(o1, name), *b = read_out(o2, name);
        CU_ASSERT_TRUE(a && bl_contains(a, "<svg"));
        /* Deterministic: the same bytes, and no path of the output in it. */
        CU_ASSERT_TRUE(a && b && strcmp(a, b) == 0);
        CU_ASSERT_TRUE(a && !strstr(a, o1));
        free(a);
        free(b);
    }
    char *svg = read_out(o1, "cdf-wait.svg");
    CU_ASSERT_TRUE(svg && bl_contains(svg, "fcfs&amp;&lt;x>"));
    free(svg);
    svg = read_out(o1, "class-size.svg");
    CU_ASSERT_TRUE(svg && bl_contains(svg, "2-3"));
    free(svg);
}

static void test_errors(void)
{
    char *out = NULL;
    const char *empty = bl_tmpdir();
    CU_ASSERT_EQUAL(bl_run(&out, "plot --compare %s", empty), 1);
    CU_ASSERT_TRUE(bl_contains(out, "no run folder in it"));
    free(out);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot %s --compare %s", empty, empty), 2);
    free(out);
    const char *dir = bl_report_fixture();
    char p[900];
    snprintf(p, sizeof p, "%s/easy/summary.json", dir);
    bl_put_file(p, "{\"metrics\": {\"wait_mean_s\": 1,}}\n");
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot --compare %s --no-render", dir), 1);
    CU_ASSERT_TRUE(bl_contains(out, "easy/summary.json:1:"));
    free(out);
    dir = bl_report_fixture();
    snprintf(p, sizeof p, "%s/easy/jobs.csv", dir);
    bl_put_file(p, "job_id,wait\n1,2\n");
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot --compare %s --no-render", dir), 1);
    CU_ASSERT_TRUE(bl_contains(out, "easy/jobs.csv:1: expected the columns waiting_time"));
    free(out);
}

int bl_suite_cli_plot_compare(void)
{
    CU_pSuite s = CU_add_suite("cli_plot_compare", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "the CDF's points of hand-made jobs", test_cdf_points);
    CU_add_test(s, "data from jobs.csv, summary.json and paired.json", test_data);
    CU_add_test(s, "PNG and SVG, the same bytes twice", test_render);
    CU_add_test(s, "errors name the folder or the file", test_errors);
    return 0;
}
