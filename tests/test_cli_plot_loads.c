/* test_cli_plot_loads.c — `batchlab plot --loads` (tools/cli_plot_loads.c):
 * the median and its bar over seeds (known answers, GSL's percentiles),
 * and the metrics-against-load table, data and script of hand-written
 * results.csv files (intervals, axes, floors). */
#include "bl_test.h"

#include "cli_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes text to dir/name; false when it cannot. */
static bool put_file(const char *dir, const char *name, const char *text)
{
    char path[900];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fputs(text, f);
    return fclose(f) == 0;
}

/* The text of path from the line holding `from` up to and including the
 * first `to` after it; a new string, NULL when either is absent. */
static char *section(const char *path, const char *from, const char *to)
{
    char *g = bl_slurp(path, NULL);
    const char *a = g ? strstr(g, from) : NULL;
    const char *b = a ? strstr(a, to) : NULL;
    char *r = b ? strndup(a, (size_t)(b - a) + strlen(to)) : NULL;
    free(g);
    return r;
}

static void test_median_interval(void)
{
    double med, lo, hi;
    /* Fewer than 5 values: the bar is their range, min to max. {0, 430,
     * 861} (three seeds of a median wait): median 430, bar 0 to 861; the
     * central 90 % interpolated between them (GSL's index f * (n - 1)) was
     * 0 + 0.1 * 430 = 43 to 430 + 0.9 * 431 = 817.9, a range no seed had. */
    double s3[] = {861, 0, 430};
    CU_ASSERT_FALSE(bl_plot_median_interval(s3, 3, 0.9, &med, &lo, &hi)); /* min to max */
    CU_ASSERT_DOUBLE_EQUAL(med, 430.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(lo, 0.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(hi, 861.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(s3[0], 0.0, 0); /* sorted in place */
    /* {3, 1, 2}: median 2, bar 1 to 3 at any level. */
    double a[] = {3, 1, 2};
    bl_plot_median_interval(a, 3, 0.5, &med, &lo, &hi);
    CU_ASSERT_DOUBLE_EQUAL(med, 2.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(lo, 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(hi, 3.0, 0);
    /* {0, 0, 0, 100}, four values: median 0, bar 0 to 100. */
    double b[] = {0, 100, 0, 0};
    bl_plot_median_interval(b, 4, 0.5, &med, &lo, &hi);
    CU_ASSERT_DOUBLE_EQUAL(med, 0.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(lo, 0.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(hi, 100.0, 0);
    /* Five values: the central share. {1, 2, 3, 4, 5} at 0.9: indices
     * 0.05 * 4 = 0.2 and 0.95 * 4 = 3.8, so 1.2 and 4.8. */
    double f5[] = {5, 4, 3, 2, 1};
    CU_ASSERT_TRUE(bl_plot_median_interval(f5, 5, 0.9, &med, &lo, &hi)); /* central share */
    CU_ASSERT_DOUBLE_EQUAL(med, 3.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(lo, 1.2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(hi, 4.8, 1e-12);
    /* Even count: the median is the mean of the middle two. */
    double c[] = {2, 4, 4, 4, 5, 5, 7, 9};
    bl_plot_median_interval(c, 8, 0.9, &med, &lo, &hi);
    CU_ASSERT_DOUBLE_EQUAL(med, 4.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(lo, 2.0 + 0.35 * 2.0, 1e-12); /* index 0.35 */
    CU_ASSERT_DOUBLE_EQUAL(hi, 7.0 + 0.65 * 2.0, 1e-12); /* index 6.65 */
    /* One value: all three equal it; none: NaN. */
    double e[] = {4};
    bl_plot_median_interval(e, 1, 0.9, &med, &lo, &hi);
    CU_ASSERT_DOUBLE_EQUAL(med, 4.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(lo, 4.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(hi, 4.0, 0);
    bl_plot_median_interval(e, 0, 0.9, &med, &lo, &hi);
    CU_ASSERT_TRUE(isnan(med) && isnan(lo) && isnan(hi));
}

/* Reads "workload,variant,metric,load,n,median,low,high,mean" for one
 * metric. */
static bool loads_row(const char *csv, const char *prefix, int *n, double *median, double *lo,
                      double *hi, double *mean)
{
    const char *p = strstr(csv, prefix);
    return p && sscanf(p + strlen(prefix), "%d,%lf,%lf,%lf,%lf", n, median, lo, hi, mean) == 5;
}

static void test_loads(void)
{
    const char *dir = bl_tmpdir();
    char csv[700], path[800];
    snprintf(csv, sizeof csv, "%s/results.csv", dir);
    FILE *f = fopen(csv, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    /* Columns in another order than the merge's, and one more: the plot
     * finds them by name. */
    fputs("run,variant,load,workload,seed,wait_mean_s,wait_median_s,bounded_slowdown_mean,"
          "utilization,queue_length_mean\n"
          "a,easy,0.5,w,1,1,0,2,0.5,1\n"
          "b,easy,0.5,w,2,2,0,2,0.5,1\n"
          "c,easy,0.5,w,3,9,0,2,0.5,1\n"
          "d,easy,0.9,w,1,10,4,3,0.8,\n"
          "e,\"fcfs\",0.5,w,1,5,1,3,0.5,2\n"
          "f,easy,log,w,1,99,9,9,0.9,9\n",
          f);
    fclose(f);
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot --loads %s --no-render", csv), 0);
    CU_ASSERT_TRUE(bl_contains(out, "1 workload x 2 policies x 2 loads (1 row at load 'log' not "
                                    "drawn)"));
    free(out);
    snprintf(path, sizeof path, "%s/loads.csv", dir);
    char *t = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_TRUE(strncmp(t, "workload,variant,metric,load,n,median,low,high,mean\n", 52) == 0);
    int n = 0;
    double med = 0, lo = 0, hi = 0, mean = 0;
    /* {1, 2, 9}, three seeds: median 2, bar 1 to 9 (min to max; the 5th
     * and 95th percentiles interpolated would be 1.1 and 8.3); mean 4. */
    CU_ASSERT_TRUE(loads_row(t, "w,easy,wait_mean_s,0.5,", &n, &med, &lo, &hi, &mean));
    CU_ASSERT_EQUAL(n, 3);
    CU_ASSERT_DOUBLE_EQUAL(med, 2.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(lo, 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(hi, 9.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(mean, 4.0, 1e-12);
    /* One seed: no interval. */
    CU_ASSERT_TRUE(loads_row(t, "w,easy,wait_mean_s,0.9,", &n, &med, &lo, &hi, &mean));
    CU_ASSERT_EQUAL(n, 1);
    CU_ASSERT_DOUBLE_EQUAL(med, 10.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(lo, 10.0, 0);
    CU_ASSERT_TRUE(loads_row(t, "w,fcfs,queue_length_mean,0.5,", &n, &med, &lo, &hi, &mean));
    CU_ASSERT_DOUBLE_EQUAL(med, 2.0, 0);
    /* An empty cell (a value the summary lacked) is left out, not zero. */
    CU_ASSERT_PTR_NULL(strstr(t, "w,easy,queue_length_mean,0.9,"));
    CU_ASSERT_TRUE(bl_contains(t, "w,easy,utilization,0.5,3,0.5,0.5,0.5,0.5\n"));
    /* A median wait of 0 stays 0 in the table. */
    CU_ASSERT_TRUE(bl_contains(t, "w,easy,wait_median_s,0.5,3,0,0,0,0\n"));
    free(t);
    /* The .dat: loads 0.5 and 0.9, two variants half a step of 0.02 * 0.4
     * on either side: +-0.004 (easy first, at -); on the log axis 0 is
     * drawn at 1. Each seed's value follows the summary block. */
    snprintf(path, sizeof path, "%s/loads-w-wait_mean_s.dat", dir);
    t = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(t && bl_contains(t, "# easy\n0.496 2 1 9 3 4\n0.896 10 10 10 1 10\n"));
    CU_ASSERT_TRUE(t && bl_contains(t, "# easy: each seed\n0.496 1\n0.496 2\n0.496 9\n"
                                       "0.896 10\n"));
    CU_ASSERT_TRUE(t && bl_contains(t, "# fcfs\n0.504 5 5 5 1 5\n"));
    free(t);
    snprintf(path, sizeof path, "%s/loads-w-wait_median_s.dat", dir);
    t = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(t && bl_contains(t, "# easy\n0.496 1 1 1 3 0\n"));
    free(t);
    snprintf(path, sizeof path, "%s/loads.gp", dir);
    t = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(t && bl_contains(t, "with yerrorlines lc 1 dt 1 pt 7"));
    CU_ASSERT_TRUE(t && bl_contains(t, "with yerrorlines lc 2 dt 2 pt 5"));
    CU_ASSERT_TRUE(t && bl_contains(t, "index 1 using 1:2 with points lc 1 pt 6"));
    CU_ASSERT_TRUE(t && bl_contains(t, "set logscale y"));
    CU_ASSERT_TRUE(t && bl_contains(t, "loads-w-bounded_slowdown_mean.pdf"));
    /* Every point has fewer than 5 seeds: the figures say the bars are
     * min to max. */
    CU_ASSERT_TRUE(t && bl_contains(t, "set title \"w: mean wait (s)\\nbars: min to max of the "
                                       "seeds' values (fewer than 5 seeds)\"\n"));
    CU_ASSERT_TRUE(t && bl_contains(t, "set multiplot layout 2,3 title \"w\\nbars: min to max "
                                       "of the seeds' values (fewer than 5 seeds)\"\n"));
    CU_ASSERT_TRUE(t && !strstr(t, "bars: central"));
    free(t);
    /* Queue lengths from 1 to 2: a linear axis. */
    snprintf(path, sizeof path, "%s/loads.gp", dir);
    t = section(path, "set title \"w: mean queue length (jobs)", "plot ");
    CU_ASSERT_TRUE(t && bl_contains(t, "unset logscale y\n"));
    free(t);

    /* Errors. */
    const char *bad = bl_write_tmp("bad.csv", "workload,load,variant,wait_mean_s\nw,0.5,easy,1\n");
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot --loads %s --no-render", bad), 1);
    CU_ASSERT_TRUE(bl_contains(out, "bad.csv:1: expected the columns workload, load, variant"));
    free(out);
    bad = bl_write_tmp("bad2.csv", "workload,load,variant,wait_mean_s,wait_median_s,"
                                   "bounded_slowdown_mean,utilization,queue_length_mean\n"
                                   "w,0.5,easy,1,1,1,1,1\nw,high,easy,1,1,1,1,1\n");
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot --loads %s --no-render", bad), 1);
    CU_ASSERT_TRUE(bl_contains(out, "bad2.csv:3: load: expected a positive number or 'log', got "
                                    "'high'"));
    free(out);
    bad = bl_write_tmp("bad3.csv", "workload,load,variant,wait_mean_s,wait_median_s,"
                                   "bounded_slowdown_mean,utilization,queue_length_mean\n"
                                   "w,0.5,easy,1,x,1,1,1\n");
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot --loads %s --no-render", bad), 1);
    CU_ASSERT_TRUE(bl_contains(out, "bad3.csv:2: wait_median_s: expected a number, got 'x'"));
    free(out);
    CU_ASSERT_EQUAL(bl_run(NULL, "plot --loads %s --level 1.5", csv), 2);
}

/* The axes of the sweep's figures follow the data: a median below the log
 * axis' floor says so in its panel's label, the queue length goes on a log
 * axis when its values span more than a factor 100, every axis writes its
 * ticks in one format, and the bars say what they are when some points
 * have fewer than 5 seeds. One variant, so no shift along the load axis. */
static void test_loads_axes(void)
{
    const char *dir = bl_tmpdir();
    char csv[700], path[800];
    snprintf(csv, sizeof csv, "%s/results.csv", dir);
    CU_ASSERT_FATAL(put_file(dir, "results.csv",
                             "workload,load,variant,wait_mean_s,wait_median_s,"
                             "bounded_slowdown_mean,utilization,queue_length_mean\n"
                             "w,0.5,easy,0,0,2,0.5,0\n"
                             "w,0.5,easy,20,0,2,0.5,0\n"
                             "w,0.5,easy,30,0,2,0.5,0\n"
                             "w,0.5,easy,40,0,2,0.5,0\n"
                             "w,0.5,easy,50,0,2,0.5,0.5\n"
                             "w,0.9,easy,60,5,3,0.8,80\n"
                             "w,0.9,easy,70,6,3,0.8,90\n"
                             "w,0.9,easy,80,7,3,0.8,100\n"));
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot --loads %s --no-render", csv), 0);
    free(out);
    /* Queue lengths 0.5 to 100 (positive): a factor 200, a log axis. Its
     * floor is the decade below the smallest positive value, 0.1, where
     * the zeros are drawn. At load 0.5, {0, 0, 0, 0, 0.5}: median 0, 5th
     * percentile 0 (index 0.2), 95th 0.8 x 0.5 = 0.4 (index 3.8), mean
     * 0.1; at 0.9, three seeds: 90, 80 to 100, mean 90. */
    snprintf(path, sizeof path, "%s/loads.csv", dir);
    char *t = bl_slurp(path, NULL);
    int n = 0;
    double med = -1, lo = -1, hi = -1, mean = -1;
    CU_ASSERT_TRUE(t && loads_row(t, "w,easy,queue_length_mean,0.5,", &n, &med, &lo, &hi, &mean));
    CU_ASSERT_EQUAL(n, 5);
    CU_ASSERT_DOUBLE_EQUAL(med, 0.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(lo, 0.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(hi, 0.4, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(mean, 0.1, 1e-12);
    free(t);
    snprintf(path, sizeof path, "%s/loads-w-queue_length_mean.dat", dir);
    t = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(t && bl_contains(t, "# easy\n0.5 0.1 0.1 0.39999999999999991 5 0.1\n"
                                       "0.9 90 80 100 3 90\n"));
    CU_ASSERT_TRUE(t && bl_contains(t, "# easy: each seed\n0.5 0.1\n0.5 0.1\n"));
    free(t);
    snprintf(path, sizeof path, "%s/loads.gp", dir);
    t = section(path, "set title \"w: mean queue length (jobs)", "plot ");
    CU_ASSERT_TRUE(t && bl_contains(t, "set ylabel \"mean queue length (jobs), log scale; median 0 "
                                       "drawn at 0.1\"\n"));
    CU_ASSERT_TRUE(t && bl_contains(t, "\nset logscale y\n"));
    free(t);
    /* Median waits of 0 at load 0.5, drawn at 1: the label says so, in
     * the figure and in the overview's panel. */
    t = section(path, "set title \"w: median wait (s)", "plot ");
    CU_ASSERT_TRUE(t && bl_contains(t, "set ylabel \"median wait (s), log scale; median 0 drawn "
                                       "at 1\"\n"));
    free(t);
    t = section(path, "set multiplot", "unset multiplot");
    CU_ASSERT_TRUE(t && bl_contains(t, "set ylabel \"s, log scale; median 0 drawn at 1\"\n"));
    CU_ASSERT_TRUE(t && bl_contains(t, "set ylabel \"jobs, log scale; median 0 drawn at 0.1\"\n"));
    free(t);
    /* Mean waits: a seed's 0 is drawn at 1, every median is above it. */
    t = section(path, "set title \"w: mean wait (s)", "plot ");
    CU_ASSERT_TRUE(t && bl_contains(t, "set ylabel \"mean wait (s), log scale; values below 1 "
                                       "drawn at 1\"\n"));
    free(t);
    /* Slowdowns of 2 and 3: nothing below the floor, nothing said. */
    t = section(path, "set title \"w: mean bounded slowdown", "plot ");
    CU_ASSERT_TRUE(t && bl_contains(t, "set ylabel \"mean bounded slowdown (tau = 10 s), log "
                                       "scale\"\n"));
    free(t);
    /* One tick format on every axis of every panel: plain decimals (no
     * 1e+06 beside 100000). */
    t = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(t && !strstr(t, "\"%g\""));
    CU_ASSERT_TRUE(t && bl_contains(t, "set format x \"%.10g\"\nset format y \"%.10g\"\n"));
    /* 5 seeds at one load, 3 at the other: the bars are both. */
    CU_ASSERT_TRUE(t && bl_contains(t, "\\nbars: central 90 % of the seeds' values, min to max "
                                       "where fewer than 5 seeds\"\n"));
    free(t);
}

int bl_suite_cli_plot_loads(void)
{
    CU_pSuite s = CU_add_suite("cli_plot_loads", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "median and percentile interval: known answers", test_median_interval);
    CU_add_test(s, "metrics against load with intervals", test_loads);
    CU_add_test(s, "metrics against load: axes, floors and bars from the data", test_loads_axes);
    return 0;
}
