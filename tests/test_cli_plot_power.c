/* test_cli_plot_power.c — `batchlab plot RUN_DIR`'s power figure
 * (tools/cli_plot_power.c): power.dat's rows from hand-written
 * timeseries.csv files with the power columns (every instant, and a long
 * run's hourly means computed by hand), the script's figure, no figure
 * without the columns, and bad input naming file and line. */
#include "bl_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const head = "time_s,queued_jobs,utilization,power_w,hosts_busy,hosts_idle,"
                                "hosts_off,hosts_booting,hosts_shutting_down\n";

static void write_ts(const char *dir, const char *header, const char *rows)
{
    char path[700];
    snprintf(path, sizeof path, "%s/timeseries.csv", dir);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(header, f);
    fputs(rows, f);
    fclose(f);
}

/* Every instant: the rows as written, in seconds. */
static void test_power_rows(void)
{
    const char *dir = bl_tmpdir();
    write_ts(dir, head,
             "0,0,0.5,300,1,1,0,0,0\n10,1,1,400,2,0,0,0,0\n30,0,0,100,0,0,1,0,1\n"
             "40,0,0,50,0,0,2,0,0\n");
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot %s --no-render", dir), 0);
    CU_ASSERT_TRUE(out && !strstr(out, "gantt") && bl_contains(out, "and power"));
    free(out);
    char path[700], want[1600];
    snprintf(path, sizeof path, "%s/plot/power.dat", dir);
    char *g = bl_slurp(path, NULL);
    snprintf(want, sizeof want,
             "# time power_w busy idle off booting shutting_down (from %s/timeseries.csv)\n"
             "0 300 1 1 0 0 0\n10 400 2 0 0 0 0\n30 100 0 0 1 0 1\n40 50 0 0 2 0 0\n",
             dir);
    CU_ASSERT_TRUE(g && strcmp(g, want) == 0);
    if (g && strcmp(g, want) != 0)
        printf("\n  power.dat:\n%s", g);
    free(g);
    snprintf(path, sizeof path, "%s/plot/plot.gp", dir);
    g = bl_slurp(path, NULL);
    snprintf(want, sizeof want, "set output \"%s/plot/power.png\"\n", dir);
    CU_ASSERT_TRUE(g && bl_contains(g, want));
    CU_ASSERT_TRUE(g && bl_contains(g, "set title \"modelled power\"\n"));
    CU_ASSERT_TRUE(g && bl_contains(g, "using 1:($3+$4+$5+$6+$7) with fillsteps"));
    CU_ASSERT_TRUE(g && bl_contains(g, "title \"shutting down\""));
    free(g);
    /* A window: the value holding at 5 s is drawn from there, and the one
     * holding at 35 s up to it. */
    CU_ASSERT_EQUAL(bl_run(NULL, "plot %s --no-render --from 5 --to 35", dir), 0);
    snprintf(path, sizeof path, "%s/plot/power.dat", dir);
    g = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(g && bl_contains(g, ")\n5 300 1 1 0 0 0\n10 400 2 0 0 0 0\n30 100 0 0 1 0 1\n"
                                       "35 100 0 0 1 0 1\n"));
    free(g);
}

/* A run over 2 days: hourly time-weighted means. Values: 0..1800 s
 * v0 = (100 W, 2 busy), 1800..7200 s v1 = (200 W, 1 idle, 1 off), then v2
 * = (50 W, 2 off) to 200000 s. Hour 0: half v0, half v1 = 150 W, 1 busy,
 * 0.5 idle, 0.5 off; hour 1: v1; hour 2 on: v2, the last bin (hour 55)
 * ending at 200000 s. */
static void test_power_binned(void)
{
    const char *dir = bl_tmpdir();
    write_ts(dir, head,
             "0,0,1,100,2,0,0,0,0\n1800,0,0,200,0,1,1,0,0\n7200,0,0,50,0,0,2,0,0\n"
             "200000,0,0,50,0,0,2,0,0\n");
    CU_ASSERT_EQUAL(bl_run(NULL, "plot %s --no-render", dir), 0);
    char path[700];
    snprintf(path, sizeof path, "%s/plot/power.dat", dir);
    char *g = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(g && bl_contains(g, "time-weighted means over bins of 3600 s"));
    CU_ASSERT_TRUE(g && bl_contains(g, ")\n0 150 1 0.5 0.5 0 0\n1 200 0 1 1 0 0\n"
                                       "2 50 0 0 2 0 0\n3 50 0 0 2 0 0\n"));
    CU_ASSERT_TRUE(g && bl_contains(g, "\n55 50 0 0 2 0 0\n") && !strstr(g, "\n56 "));
    free(g);
    snprintf(path, sizeof path, "%s/plot/plot.gp", dir);
    g = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(g && bl_contains(g, "set title \"modelled power, hourly means\"\n"));
    free(g);
}

/* Without the columns: no power.dat, a script that names no power figure. */
static void test_power_absent(void)
{
    const char *dir = bl_tmpdir();
    write_ts(dir, "time_s,queued_jobs,utilization,down_hosts\n", "0,0,0.5,0\n10,1,1,0\n");
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot %s --no-render", dir), 0);
    CU_ASSERT_TRUE(out && !strstr(out, "power"));
    free(out);
    char path[700];
    snprintf(path, sizeof path, "%s/plot/power.dat", dir);
    CU_ASSERT_EQUAL(access(path, F_OK), -1);
    snprintf(path, sizeof path, "%s/plot/plot.gp", dir);
    char *g = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(g && !strstr(g, "power"));
    free(g);
}

static void test_power_errors(void)
{
    const char *dir = bl_tmpdir();
    write_ts(dir, head, "0,0,0.5,300,1,1,0,0,0\n10,1,1,lots,2,0,0,0,0\n");
    char *out = NULL, want[800];
    CU_ASSERT_EQUAL(bl_run(&out, "plot %s --no-render", dir), 1);
    snprintf(want, sizeof want, "%s/timeseries.csv:3: expected numbers in time_s, power_w", dir);
    CU_ASSERT_TRUE(out && bl_contains(out, want));
    free(out);
    char path[700];
    snprintf(path, sizeof path, "%s/plot", dir);
    CU_ASSERT_EQUAL(access(path, F_OK), -1); /* nothing written */
    write_ts(dir, "time_s,queued_jobs,utilization,power_w,hosts_busy\n", "0,0,0.5,300,1\n");
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot %s --no-render", dir), 1);
    snprintf(want, sizeof want, "%s/timeseries.csv:1: expected the columns time_s, power_w", dir);
    CU_ASSERT_TRUE(out && bl_contains(out, want));
    free(out);
}

int bl_suite_cli_plot_power(void)
{
    CU_pSuite s = CU_add_suite("cli_plot_power", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "power.dat: every instant, a window", test_power_rows);
    CU_add_test(s, "power.dat: a long run's hourly means, by hand", test_power_binned);
    CU_add_test(s, "no power columns: no power figure", test_power_absent);
    CU_add_test(s, "bad input names file and line", test_power_errors);
    return 0;
}
