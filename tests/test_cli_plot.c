/* test_cli_plot.c — the `batchlab plot` command (tools/cli_plot.c): its
 * usage (a run folder or --loads, not both), and PNG/PDF files drawn by
 * gnuplot from a real run and a hand-made sweep table (that case prints a
 * note and checks nothing more where gnuplot is not installed). A run's
 * figures are tested in test_cli_plot_run.c, a sweep's in
 * test_cli_plot_loads.c. */
#include "bl_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_usage(void)
{
    const char *empty = bl_tmpdir();
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot"), 2);
    CU_ASSERT_TRUE(bl_contains(out, "expected RUN_DIR, --loads RESULTS.csv or --compare DIR"));
    free(out);
    CU_ASSERT_EQUAL(bl_run(NULL, "plot %s --loads x.csv", empty), 2);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot --help"), 0);
    CU_ASSERT_TRUE(bl_contains(out, "--loads"));
    free(out);
}

static bool have_gnuplot(void)
{
    return bl_system("command -v gnuplot", NULL) == 0;
}

static bool is_png(const char *path)
{
    size_t n = 0;
    char *s = bl_slurp(path, &n);
    bool ok = s && n > 8 && memcmp(s, "\x89PNG\r\n\x1a\n", 8) == 0;
    free(s);
    if (!ok)
        printf("\n%s: not a PNG file\n", path);
    return ok;
}

static bool is_pdf(const char *path)
{
    size_t n = 0;
    char *s = bl_slurp(path, &n);
    bool ok = s && n > 5 && memcmp(s, "%PDF-", 5) == 0;
    free(s);
    return ok;
}

static void test_render(void)
{
    if (!have_gnuplot()) {
        printf("\n  gnuplot not installed: rendering not checked ");
        return;
    }
    /* A real run: the 16-job fixture on kth-sp2.xml. */
    const char *dir = bl_tmpdir();
    char path[800];
    char *out = NULL;
    int st = bl_run(&out, "run --platform %s --workload %s --policy easy -q --out %s/run",
                    bl_src("platforms/kth-sp2.xml"), bl_src("traces/fixtures/small.swf"), dir);
    CU_ASSERT_EQUAL_FATAL(st, 0);
    free(out);
    out = NULL;
    st = bl_run(&out, "plot %s/run", dir);
    CU_ASSERT_EQUAL(st, 0);
    if (st)
        printf("\n%s\n", out ? out : "");
    free(out);
    snprintf(path, sizeof path, "%s/run/plot/gantt.png", dir);
    CU_ASSERT_TRUE(is_png(path));
    snprintf(path, sizeof path, "%s/run/plot/timeseries.png", dir);
    CU_ASSERT_TRUE(is_png(path));
    bool pdfcairo = bl_system("gnuplot -e 'set terminal' 2>&1 | grep -q pdfcairo", NULL) == 0;
    if (pdfcairo) {
        snprintf(path, sizeof path, "%s/run/plot/gantt.pdf", dir);
        CU_ASSERT_TRUE(is_pdf(path));
    }
    /* The hand-made sweep table drawn. */
    const char *csv = bl_write_tmp("results.csv",
                                   "workload,load,variant,wait_mean_s,wait_median_s,"
                                   "bounded_slowdown_mean,utilization,queue_length_mean\n"
                                   "w,0.5,easy,1,1,1,0.5,1\nw,0.5,easy,2,1,1,0.5,1\n"
                                   "w,0.7,easy,3,1,2,0.7,2\nw,0.7,easy,5,1,2,0.7,2\n");
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot --loads %s -o %s/lf", csv, dir), 0);
    free(out);
    snprintf(path, sizeof path, "%s/lf/loads-w.png", dir);
    CU_ASSERT_TRUE(is_png(path));
    snprintf(path, sizeof path, "%s/lf/loads-w-queue_length_mean.png", dir);
    CU_ASSERT_TRUE(is_png(path));
    if (pdfcairo) {
        snprintf(path, sizeof path, "%s/lf/loads-w-utilization.pdf", dir);
        CU_ASSERT_TRUE(is_pdf(path));
    }
}

int bl_suite_cli_plot(void)
{
    CU_pSuite s = CU_add_suite("cli_plot", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "a run folder or --loads, and --help", test_usage);
    CU_add_test(s, "gnuplot draws PNG and PDF", test_render);
    return 0;
}
