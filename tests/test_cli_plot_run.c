/* test_cli_plot_run.c — `batchlab plot RUN_DIR` (tools/cli_plot_run.c):
 * the times --from/--to accept (known answers, dates in a zone), the
 * colours of the Gantt chart (stable, hand-computed), the Gantt and series
 * data and the script of hand-written runs (outages, a long run's window
 * and means, marks, core allocation's axis, time units), and bad input
 * naming file and line. */
#include "bl_test.h"

#include "cli_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Times of --from/--to, known answers. UnixStartTime 1464739965 is
 * 2016-06-01 00:12:45 UTC. */
static void test_parse_time(void)
{
    double t = -1;
    /* seconds and durations */
    static const struct {
        const char *text;
        double s;
    } dur[] = {{"5400", 5400}, {"90s", 90},    {"30m", 1800},    {"36h", 129600}, {"2d", 172800},
               {"1w", 604800}, {"1.5h", 5400}, {"-2d", -172800}, {"0", 0},        {"1e3", 1000}};
    for (size_t i = 0; i < sizeof dur / sizeof dur[0]; i++) {
        CU_ASSERT_EQUAL(bl_plot_parse_time(dur[i].text, -1, NULL, &t), BL_TIME_OK);
        CU_ASSERT_DOUBLE_EQUAL(t, dur[i].s, 0);
    }
    static const char *const bad[] = {"",
                                      "h",
                                      "5x",
                                      "5 h",
                                      "1h2",
                                      "inf",
                                      "nan",
                                      " 5",
                                      "2016-02-30",
                                      "2016-13-01",
                                      "2016-06-01T24:00",
                                      "2016-6-1",
                                      "2016-06-01T03",
                                      "2016-06-01T03:00:0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_EQUAL(bl_plot_parse_time(bad[i], 1464739965, NULL, &t), BL_TIME_BAD);
        if (bl_plot_parse_time(bad[i], 1464739965, NULL, &t) != BL_TIME_BAD)
            printf("\n  '%s' read as a time\n", bad[i]);
    }
    /* A date without the log's start. */
    CU_ASSERT_EQUAL(bl_plot_parse_time("2016-06-01", -1, NULL, &t), BL_TIME_NO_START);
    /* UTC (no zone): the start itself is 0, midnight 765 s before it. */
    CU_ASSERT_EQUAL(bl_plot_parse_time("2016-06-01T00:12:45", 1464739965, NULL, &t), BL_TIME_OK);
    CU_ASSERT_DOUBLE_EQUAL(t, 0, 0);
    CU_ASSERT_EQUAL(bl_plot_parse_time("2016-06-01", 1464739965, "", &t), BL_TIME_OK);
    CU_ASSERT_DOUBLE_EQUAL(t, -765, 0);
    /* A POSIX rule needs no database: CET-1 is UTC+1, so 01:12:45 is the
     * start. */
    CU_ASSERT_EQUAL(bl_plot_parse_time("2016-06-01 01:12:45", 1464739965, "CET-1", &t), BL_TIME_OK);
    CU_ASSERT_DOUBLE_EQUAL(t, 0, 0);
    CU_ASSERT_EQUAL(bl_plot_parse_time("2016-06-01", 1464739965, "Mars/Olympus_Mons", &t),
                    BL_TIME_BAD_ZONE);
    /* TZ is as it was. */
    const char *tz = getenv("TZ");
    CU_ASSERT_TRUE(tz == NULL || strcmp(tz, "UTC0") != 0);
    if (access("/usr/share/zoneinfo/Europe/Berlin", R_OK) != 0 && !getenv("TZDIR")) {
        bl_skip_case("no time zone database (/usr/share/zoneinfo): Europe/Berlin not checked");
        return;
    }
    /* Europe/Berlin in summer (CEST, UTC+2): 03:00 is 01:00 UTC, 2835 s
     * after the start; in winter (CET, UTC+1): 2016-12-01 00:00 is
     * 2016-11-30 23:00 UTC = 1480546800, 15806835 s after it. */
    CU_ASSERT_EQUAL(bl_plot_parse_time("2016-06-01T03:00", 1464739965, "Europe/Berlin", &t),
                    BL_TIME_OK);
    CU_ASSERT_DOUBLE_EQUAL(t, 2835, 0);
    CU_ASSERT_EQUAL(bl_plot_parse_time("2016-12-01", 1464739965, "Europe/Berlin", &t), BL_TIME_OK);
    CU_ASSERT_DOUBLE_EQUAL(t, 15806835, 0);
}

static void test_colors(void)
{
    /* Hue = frac(id x 0.618034) x 360 degrees, saturation 0.55, value 0.92
     * (HSV to RGB by hand): id 0 hue 0 -> (235, 106, 106); id 1 hue 222.5
     * -> (106, 143, 235); id 2 hue 85.0 -> (181, 235, 106). */
    CU_ASSERT_EQUAL(bl_plot_color(0), 0xEB6A6A);
    CU_ASSERT_EQUAL(bl_plot_color(1), 0x6A8FEB);
    CU_ASSERT_EQUAL(bl_plot_color(2), 0xB5EB6A);
    /* Stable: the same id always gets the same colour. */
    for (int64_t id = 0; id < 1000; id += 37)
        CU_ASSERT_EQUAL(bl_plot_color(id), bl_plot_color(id));
    CU_ASSERT_EQUAL(bl_plot_color(123456789), bl_plot_color(123456789));
    /* Neighbouring ids differ clearly (more than 60 in some channel). */
    size_t close = 0;
    for (int64_t id = 1; id < 2000; id++) {
        uint32_t x = bl_plot_color(id), y = bl_plot_color(id - 1);
        int dr = abs((int)(x >> 16) - (int)(y >> 16));
        int dg = abs((int)((x >> 8) & 255) - (int)((y >> 8) & 255));
        int db = abs((int)(x & 255) - (int)(y & 255));
        close += dr <= 60 && dg <= 60 && db <= 60;
    }
    CU_ASSERT_EQUAL(close, 0);
}

/* A run folder written by hand: three jobs (one never started), a short
 * time series. */
static const char *hand_run(void)
{
    const char *dir = bl_tmpdir();
    char path[700];
    snprintf(path, sizeof path, "%s/jobs.csv", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return NULL;
    fputs("job_id,submission_time,starting_time,finish_time,allocated_resources,packet\n"
          "1,0,0,10,0-1,-1\n"
          "2,2,5,20,2,1\n"
          "3,4,-1,-1,,-1\n",
          f);
    fclose(f);
    snprintf(path, sizeof path, "%s/timeseries.csv", dir);
    f = fopen(path, "w");
    if (!f)
        return NULL;
    fputs("time_s,queued_jobs,running_jobs,utilization\n0,1,1,0.5\n5,1,2,0.75\n10,0,1,0.25\n", f);
    fclose(f);
    return dir;
}

/* Host outages: timeseries.csv's down_hosts becomes series.dat's fourth
 * column and a third panel, drawn only when a host is down in the window. */
static void test_run_outages(void)
{
    const char *dir = bl_tmpdir();
    char path[800];
    snprintf(path, sizeof path, "%s/timeseries.csv", dir);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("time_s,queued_jobs,running_jobs,busy_nodes,busy_cores,utilization,down_hosts\n"
          "0,1,1,1,1,0.5,0\n5,1,2,2,2,0.75,2\n10,0,1,1,1,0.25,0\n",
          f);
    fclose(f);
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot %s --no-render", dir), 0);
    free(out);
    snprintf(path, sizeof path, "%s/plot/series.dat", dir);
    char *g = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    const char *body = strchr(g, '\n');
    CU_ASSERT_TRUE(body && strcmp(body + 1, "0 1 0.5 0\n5 1 0.75 2\n10 0 0.25 0\n") == 0);
    free(g);
    snprintf(path, sizeof path, "%s/plot/plot.gp", dir);
    g = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(g && bl_contains(g, "set multiplot layout 3,1"));
    CU_ASSERT_TRUE(g && bl_contains(g, "host outages (hosts down)"));
    CU_ASSERT_TRUE(g && bl_contains(g, "using 1:4 with fillsteps"));
    free(g);
    /* a window after the outage: no panel */
    CU_ASSERT_EQUAL(bl_run(&out, "plot %s --no-render --from 10 --to 20", dir), 0);
    free(out);
    g = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(g && bl_contains(g, "set multiplot layout 2,1"));
    free(g);
}

static void test_run_data(void)
{
    const char *dir = hand_run();
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    char *out = NULL, path[800];
    CU_ASSERT_EQUAL(bl_run(&out, "plot %s --no-render", dir), 0);
    CU_ASSERT_TRUE(bl_contains(out, "/plot: gantt and timeseries"));
    free(out);
    /* x y xlow xhigh ylow yhigh rgb, in seconds (the span is 20 s): job 1
     * on hosts 0-1 from 0 to 10, job 2 on host 2 from 5 to 20; job 3 never
     * started. 0x6A8FEB = 6983659, 0xB5EB6A = 11922282. */
    snprintf(path, sizeof path, "%s/plot/gantt.dat", dir);
    char *g = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    const char *body = strchr(g, '\n');
    CU_ASSERT_TRUE(body && strcmp(body + 1, "5 1 0 10 0 2 6983659\n"
                                            "12.5 2.5 5 20 2 3 11922282\n") == 0);
    if (body && strcmp(body + 1, "5 1 0 10 0 2 6983659\n12.5 2.5 5 20 2 3 11922282\n") != 0)
        printf("\ngantt.dat:\n%s\n", g);
    free(g);
    snprintf(path, sizeof path, "%s/plot/series.dat", dir);
    g = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    body = strchr(g, '\n');
    /* a file without down_hosts: no host down, no outage panel */
    CU_ASSERT_TRUE(body && strcmp(body + 1, "0 1 0.5 0\n5 1 0.75 0\n10 0 0.25 0\n") == 0);
    free(g);
    snprintf(path, sizeof path, "%s/plot/plot.gp", dir);
    g = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(g && bl_contains(g, "set xlabel \"time (s, the run's clock)\""));
    CU_ASSERT_TRUE(g && bl_contains(g, "set yrange [0:3]"));
    CU_ASSERT_TRUE(g && bl_contains(g, "with boxxyerror"));
    CU_ASSERT_TRUE(g && bl_contains(g, "set multiplot layout 2,1"));
    CU_ASSERT_TRUE(g && !bl_contains(g, "host outages"));
    free(g);

    /* Colour per packet: job 2 is in packet 1, so both share job 1's. */
    CU_ASSERT_EQUAL(bl_run(NULL, "plot %s --no-render --color packet -o %s/pk", dir, dir), 0);
    snprintf(path, sizeof path, "%s/pk/gantt.dat", dir);
    g = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(g && bl_contains(g, "\n12.5 2.5 5 20 2 3 6983659\n"));
    free(g);
    /* A window: --from 12 leaves job 2 only, in the same units. */
    CU_ASSERT_EQUAL(bl_run(NULL, "plot %s --no-render --from 12 -o %s/win", dir, dir), 0);
    snprintf(path, sizeof path, "%s/win/gantt.dat", dir);
    g = bl_slurp(path, NULL);
    body = g ? strchr(g, '\n') : NULL;
    CU_ASSERT_TRUE(body && strcmp(body + 1, "12.5 2.5 5 20 2 3 11922282\n") == 0);
    free(g);
    /* The series in a window: the values that hold at its start (set at
     * 0: queue 1, utilization 0.5) and at its end (set at 5) are drawn
     * from edge to edge, not only from the first instant inside it. */
    CU_ASSERT_EQUAL(bl_run(NULL, "plot %s --no-render --from 2 --to 7 -o %s/win2", dir, dir), 0);
    snprintf(path, sizeof path, "%s/win2/series.dat", dir);
    g = bl_slurp(path, NULL);
    body = g ? strchr(g, '\n') : NULL;
    CU_ASSERT_TRUE(body && strcmp(body + 1, "2 1 0.5 0\n5 1 0.75 0\n7 1 0.75 0\n") == 0);
    if (body && strcmp(body + 1, "2 1 0.5 0\n5 1 0.75 0\n7 1 0.75 0\n") != 0)
        printf("\nseries.dat:\n%s\n", g);
    free(g);
    /* Same input, same bytes of data and script. */
    CU_ASSERT_EQUAL(bl_run(NULL, "plot %s --no-render -o %s/again", dir, dir), 0);
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cmp '%s/plot/gantt.dat' '%s/again/gantt.dat' && "
             "cmp '%s/plot/series.dat' '%s/again/series.dat' && "
             "sed 's|%s/again|X|g' '%s/again/plot.gp' > '%s/a.gp' && "
             "sed 's|%s/plot|X|g' '%s/plot/plot.gp' > '%s/b.gp' && cmp '%s/a.gp' '%s/b.gp'",
             dir, dir, dir, dir, dir, dir, dir, dir, dir, dir, dir, dir);
    CU_ASSERT_EQUAL(bl_system(cmd, NULL), 0);
}

/* Killed and failure-cut jobs are marked at their end; a long run shows its
 * first week in the Gantt chart and hourly means in the series; the title
 * comes from summary.json; a window with no job says so. */
static void test_run_long_and_marks(void)
{
    const char *dir = bl_tmpdir();
    char path[700];
    snprintf(path, sizeof path, "%s/jobs.csv", dir);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    /* 30 days of run: job 3 ends on day 20, outside the first week. */
    fputs("job_id,submission_time,starting_time,finish_time,allocated_resources,final_state\n"
          "1,0,0,7200,0-1,COMPLETED_WALLTIME_REACHED\n"
          "2,0,0,3600,2,COMPLETED_FAILED\n"
          "3,0,1728000,1728010,3,COMPLETED_WALLTIME_REACHED\n"
          "4,0,3600,7200,2,COMPLETED_SUCCESSFULLY\n",
          f);
    fclose(f);
    snprintf(path, sizeof path, "%s/timeseries.csv", dir);
    f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("time_s,queued_jobs,utilization\n0,2,0.5\n1800,0,1\n7200,0,0\n2592000,0,0\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/summary.json", dir);
    f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("{\"platform\": {\"path\": \"platforms/p.xml\", \"hosts\": 8},\n"
          " \"manifest\": {\"policy\": \"easy\", \"inputs\": {\"workload\": "
          "{\"path\": \"logs/w.swf\"}}}}\n",
          f);
    fclose(f);
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot %s --no-render", dir), 0);
    CU_ASSERT_TRUE(bl_contains(out, "the run spans 30 days: the Gantt chart shows its first 7"));
    CU_ASSERT_TRUE(bl_contains(out, "the series are hourly means"));
    free(out);
    /* Marks (in days): job 1 killed at 7200 s = 1/12 day on hosts 0-1 (y 1),
     * job 2 cut at 3600 s = 1/24 day on host 2 (y 2.5); job 3 is outside
     * the week. */
    snprintf(path, sizeof path, "%s/plot/marks.dat", dir);
    char *g = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(g && bl_contains(g, ")\n0.083333333333333329 1\n\n\n0.041666666666666664 2.5\n"
                                       "\n\n"));
    free(g);
    /* Hourly means: [0, 1 h): queue (2 x 1800 + 0) / 3600 = 1, utilization
     * (0.5 x 1800 + 1 x 1800) / 3600 = 0.75; [1 h, 2 h): 0 and 1; then 0. */
    snprintf(path, sizeof path, "%s/plot/series.dat", dir);
    g = bl_slurp(path, NULL);
    const char *body = g ? strchr(g, '\n') : NULL;
    CU_ASSERT_TRUE(body && strncmp(body + 1,
                                   "0 1 0.75 0\n0.041666666666666664 0 1 0\n"
                                   "0.083333333333333329 0 0 0\n",
                                   65) == 0);
    free(g);
    snprintf(path, sizeof path, "%s/plot/plot.gp", dir);
    g = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(g && bl_contains(g, "set title \"easy on w.swf (p.xml)\""));
    CU_ASSERT_TRUE(g && bl_contains(g, "title \"1 job killed at the requested time\""));
    CU_ASSERT_TRUE(g && bl_contains(g, "title \"1 job cut by a host failure\""));
    CU_ASSERT_TRUE(g && bl_contains(g, "set yrange [0:8]"));
    CU_ASSERT_TRUE(g && bl_contains(g, "hourly means"));
    free(g);
    /* --all: the whole run, every instant. */
    CU_ASSERT_EQUAL(bl_run(NULL, "plot %s --no-render --all -o %s/all", dir, dir), 0);
    snprintf(path, sizeof path, "%s/all/marks.dat", dir);
    g = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(g && bl_contains(g, "\n20.000115740740739 3.5\n")); /* 1728010 s */
    free(g);
    /* A window without a job: said, and nothing written. */
    out = NULL;
    CU_ASSERT_EQUAL(
        bl_run(&out, "plot %s --no-render --from 1800000 --to 22d -o %s/empty", dir, dir), 1);
    CU_ASSERT_TRUE(bl_contains(out, "no job runs between 1800000 and 1900800 s (the run spans 0 "
                                    "to 2592000 s)"));
    free(out);
    snprintf(path, sizeof path, "%s/empty", dir);
    CU_ASSERT_EQUAL(access(path, F_OK), -1);
    CU_ASSERT_EQUAL(bl_run(NULL, "plot %s --no-render --all --from 5", dir), 2);
}

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

/* Under --alloc core (summary.json's manifest.alloc) allocated_resources
 * counts cores: the y axis says so and the hosts are marked. The layout is
 * platforms/test/two-queues.xml's in name order: c1..c4 of 2 cores (cores
 * 0-1, 2-3, 4-5, 6-7), then v1 of 4 (8-11): lines between hosts at 2, 4,
 * 6 and 8; each host's index a tick at its middle: 1, 3, 5, 7 and 10. */
static void test_run_core_alloc(void)
{
    const char *dir = bl_tmpdir();
    CU_ASSERT_FATAL(put_file(dir, "jobs.csv",
                             "job_id,submission_time,starting_time,finish_time,"
                             "allocated_resources\n1,0,0,10,0-2\n2,2,2,20,8-11\n"));
    CU_ASSERT_FATAL(put_file(
        dir, "summary.json",
        "{\"platform\": {\"path\": \"platforms/test/two-queues.xml\", \"hosts\": 5, "
        "\"cores\": 12, \"units\": 12, \"host_cores\": [{\"hosts\": 4, \"cores\": 2}, "
        "{\"hosts\": 1, \"cores\": 4}]},\n \"manifest\": {\"policy\": \"easy\", \"alloc\": "
        "\"core\", \"inputs\": {\"workload\": {\"path\": \"w.swf\"}}}}\n"));
    char *out = NULL, path[900];
    CU_ASSERT_EQUAL(bl_run(&out, "plot %s --no-render", dir), 0);
    free(out);
    snprintf(path, sizeof path, "%s/plot/plot.gp", dir);
    char *g = section(path, "set output", "unset key\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    CU_ASSERT_TRUE(bl_contains(g, "set ylabel \"core (hosts marked: "));
    CU_ASSERT_FALSE(strstr(g, "set ylabel \"host") != NULL);
    CU_ASSERT_TRUE(bl_contains(g, "set yrange [0:12]\n"));
    CU_ASSERT_TRUE(bl_contains(g, "set ytics (\"0\" 1, \"1\" 3, \"2\" 5, \"3\" 7, \"4\" 10)\n"));
    for (int y = 2; y <= 8; y += 2) {
        char want[120];
        snprintf(want, sizeof want, "set arrow from graph 0, first %d to graph 1, first %d nohead",
                 y, y);
        CU_ASSERT_TRUE(bl_contains(g, want));
    }
    CU_ASSERT_FALSE(strstr(g, "first 10 to") || strstr(g, "first 12 to") ||
                    strstr(g, "first 0 to"));
    /* What the Gantt chart set is undone for the series. */
    CU_ASSERT_TRUE(bl_contains(g, "unset arrow\nset ytics autofreq\n"));
    free(g);
    snprintf(path, sizeof path, "%s/plot/gantt.dat", dir);
    g = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(g && bl_contains(g, "one job on cores ylow..yhigh-1"));
    CU_ASSERT_TRUE(g && bl_contains(g, "\n5 1.5 0 10 0 3 6983659\n11 10 2 20 8 12 11922282\n"));
    free(g);

    /* An older summary.json without host_cores: equal hosts (every pool's
     * cores = hosts x cores_per_node, one cores_per_node) are 2 cores
     * each: lines at 2, 4 and 6. */
    CU_ASSERT_FATAL(put_file(dir, "jobs.csv",
                             "job_id,submission_time,starting_time,finish_time,"
                             "allocated_resources\n1,0,0,10,0-2\n2,2,2,20,4-7\n"));
    CU_ASSERT_FATAL(put_file(
        dir, "summary.json",
        "{\"platform\": {\"hosts\": 4, \"cores\": 8, \"units\": 8, \"pools\": [{\"hosts\": 4, "
        "\"cores\": 8, \"cores_per_node\": 2}]}, \"manifest\": {\"alloc\": \"core\"}}\n"));
    CU_ASSERT_EQUAL(bl_run(NULL, "plot %s --no-render -o %s/old", dir, dir), 0);
    snprintf(path, sizeof path, "%s/old/plot.gp", dir);
    g = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(g && bl_contains(g, "set yrange [0:8]\n"));
    CU_ASSERT_TRUE(g && bl_contains(g, "first 6 to graph 1, first 6 nohead"));
    CU_ASSERT_TRUE(g && bl_contains(g, "set ytics (\"0\" 1, \"1\" 3, \"2\" 5, \"3\" 7)\n"));
    free(g);

    /* A real run under --alloc core on two-queues.xml: summary.json gives
     * the layout, the chart marks the same boundaries. */
    const char *swf = bl_write_tmp("core-plot.swf",
                                   "; Version: 2.2\n"
                                   "1 0 -1 100 3 -1 -1 3 100 -1 1 1 1 -1 1 -1 -1 -1\n"
                                   "2 5 -1 50 2 -1 -1 2 50 -1 1 1 1 -1 2 -1 -1 -1\n");
    out = NULL;
    int st = bl_run(&out,
                    "run --platform %s --workload %s --alloc core --policy easy -q --out %s/real",
                    bl_src("platforms/test/two-queues.xml"), swf, dir);
    CU_ASSERT_EQUAL(st, 0);
    if (st)
        printf("\n%s\n", out ? out : "");
    free(out);
    CU_ASSERT_EQUAL(bl_run(NULL, "plot %s/real --no-render", dir), 0);
    snprintf(path, sizeof path, "%s/real/plot/plot.gp", dir);
    g = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(g && bl_contains(g, "set yrange [0:12]\n"));
    CU_ASSERT_TRUE(g && bl_contains(g, "first 8 to graph 1, first 8 nohead"));
    CU_ASSERT_TRUE(g && bl_contains(g, "set ytics (\"0\" 1, \"1\" 3, \"2\" 5, \"3\" 7, \"4\" 10)"));
    free(g);
}

/* Under node allocation the Gantt chart's script is what it was before the
 * core axis existed, byte for byte (the run's folder written as X). */
static void test_run_node_unchanged(void)
{
    const char *dir = hand_run();
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    CU_ASSERT_FATAL(put_file(
        dir, "summary.json",
        "{\"platform\": {\"path\": \"p/t.xml\", \"hosts\": 4, \"cores\": 4, \"units\": 4},\n"
        " \"manifest\": {\"policy\": \"easy\", \"alloc\": \"node\", \"inputs\": {\"workload\": "
        "{\"path\": \"w.swf\", \"unix_start_time\": 1464739965, \"time_zone_string\": "
        "\"Europe/Berlin\"}}}}\n"));
    CU_ASSERT_EQUAL(bl_run(NULL, "plot %s --no-render -o %s/X", dir, dir), 0);
    char path[900];
    snprintf(path, sizeof path, "%s/X/plot.gp", dir);
    char *g = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    char *head = strstr(g, "# Run: gnuplot ");
    const char *want =
        "set xlabel \"time (s, the run's clock)\"\n"
        "set grid\n"
        "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
        "    set terminal pngcairo size 1200,700 noenhanced font \",10\"\n"
        "} else {\n"
        "    set terminal png size 1200,700 noenhanced\n"
        "}\n"
        "set output \"DIR/gantt.png\"\n"
        "set xrange [0:20]\n"
        "set title \"easy on w.swf (t.xml)\"\n"
        "set ylabel \"host (index in name order)\"\n"
        "set yrange [0:4]\n"
        "set key outside top center horizontal\n"
        "plot \"DIR/gantt.dat\" using 1:2:3:4:5:6:7 with boxxyerror fill solid 0.85 noborder "
        "lc rgb variable notitle\n"
        "set yrange [*:*]\n"
        "unset key\n";
    char *expect = NULL;
    char dirx[800];
    snprintf(dirx, sizeof dirx, "%s/X", dir);
    /* The expected text with DIR replaced by the plot folder. */
    size_t cap = strlen(want) + 4 * strlen(dirx) + 1;
    expect = malloc(cap);
    CU_ASSERT_PTR_NOT_NULL_FATAL(expect);
    char *o = expect;
    for (const char *p = want; *p;) {
        if (strncmp(p, "DIR", 3) == 0) {
            o += sprintf(o, "%s", dirx);
            p += 3;
        } else {
            *o++ = *p++;
        }
    }
    *o = '\0';
    const char *body = head ? strchr(head, '\n') : NULL;
    CU_ASSERT_TRUE(body && strncmp(body + 1, expect, strlen(expect)) == 0);
    if (body && strncmp(body + 1, expect, strlen(expect)) != 0)
        printf("\nplot.gp:\n%s\nexpected to begin with:\n%s\n", body + 1, expect);
    free(expect);
    free(g);
}

/* --from/--to take units and, where summary.json records the log's
 * UnixStartTime and TimeZoneString, calendar dates in that zone; the time
 * axis can be forced to a unit or show dates. UnixStartTime 1464739965 is
 * 2016-06-01 00:12:45 UTC, 02:12:45 in Europe/Berlin (CEST, UTC+2). */
static void test_run_time_units(void)
{
    if (access("/usr/share/zoneinfo/Europe/Berlin", R_OK) != 0 && !getenv("TZDIR")) {
        bl_skip_case("no time zone database (/usr/share/zoneinfo): dates not checked");
        return;
    }
    const char *dir = bl_tmpdir();
    CU_ASSERT_FATAL(put_file(dir, "jobs.csv",
                             "job_id,submission_time,starting_time,finish_time,"
                             "allocated_resources\n1,0,0,3600,0\n2,0,1800,7200,1\n"
                             "3,0,90000,93600,2\n"));
    CU_ASSERT_FATAL(put_file(dir, "summary.json",
                             "{\"platform\": {\"hosts\": 3}, \"manifest\": {\"policy\": \"easy\", "
                             "\"alloc\": \"node\", \"inputs\": {\"workload\": {\"path\": "
                             "\"w.swf\", \"unix_start_time\": 1464739965, \"time_zone_string\": "
                             "\"Europe/Berlin\"}}}}\n"));
    static const struct {
        const char *args, *xrange;
    } cases[] = {
        /* 30 min to 1 h: 1800 to 3600 s, a span up to 2 h drawn in s */
        {"--from 30m --to 1h", "set xrange [1800:3600]\n"},
        {"--from 90s --to 120", "set xrange [90:120]\n"},
        /* a day: in hours */
        {"--from 1d --to 2d", "set xrange [24:48]\n"},
        {"--from 0 --to 1w", "set xrange [0:168]\n"},
        {"--from 1.5h --to 36h", "set xrange [1.5:36]\n"},
        /* 03:00 CEST = 01:00 UTC = start + 47 min 15 s = 2835 s */
        {"--from 2016-06-01T03:00 --to 2016-06-01T04:00", "set xrange [2835:6435]\n"},
        {"--from 2016-06-01T02:12:45 --to 2016-06-01T02:42:45", "set xrange [0:1800]\n"},
        /* midnight of June 2 in Berlin = June 1, 22:00 UTC = start +
         * 21 h 47 min 15 s = 78435 s = 21.7875 h; a day later 45.7875 h */
        {"--from 2016-06-02 --to 2016-06-03", "set xrange [21.7875:45.7875]\n"},
        /* the unit forced: 93600 s is 26 h, 1.083 days */
        {"--time-axis seconds", "set xrange [0:93600]\n"},
        {"--time-axis days", "set xrange [0:1.0833333333333333]\n"},
    };
    char path[900];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = NULL;
        int st = bl_run(&out, "plot %s --no-render -o %s/c%zu %s", dir, dir, i, cases[i].args);
        CU_ASSERT_EQUAL(st, 0);
        if (st)
            printf("\n  %s: %s\n", cases[i].args, out ? out : "");
        free(out);
        snprintf(path, sizeof path, "%s/c%zu/plot.gp", dir, i);
        char *g = bl_slurp(path, NULL);
        CU_ASSERT_TRUE(g && bl_contains(g, cases[i].xrange));
        free(g);
    }
    snprintf(path, sizeof path, "%s/c8/plot.gp", dir);
    char *g = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(g && bl_contains(g, "set xlabel \"time (s, the run's clock)\"\n"));
    free(g);
    snprintf(path, sizeof path, "%s/c9/plot.gp", dir);
    g = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(g && bl_contains(g, "set xlabel \"time (days, the run's clock)\"\n"));
    free(g);

    /* Dates on the axis: 03:00 to 09:00 in Berlin, 6 h, drawn in hours
     * (2835 s = 0.7875 h); a tick each local hour, labelled with the date
     * and time. */
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out,
                           "plot %s --no-render -o %s/dates --time-axis dates --from "
                           "2016-06-01T03:00 --to 2016-06-01T09:00",
                           dir, dir),
                    0);
    free(out);
    snprintf(path, sizeof path, "%s/dates/plot.gp", dir);
    g = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(g && bl_contains(g, "set xlabel \"date and time in Europe/Berlin (the log's "
                                       "TimeZoneString)\"\n"));
    CU_ASSERT_TRUE(g && bl_contains(g, "set xtics (\"2016-06-01 03:00\" 0.7875, \"2016-06-01 "
                                       "04:00\" 1.7875, \"2016-06-01 05:00\" 2.7875, "));
    CU_ASSERT_TRUE(g && bl_contains(g, "\"2016-06-01 09:00\" 6.7875)\n"));
    /* the data as in hours: the same file as without dates */
    free(g);

    /* Bad values: usage errors naming the option and what was expected;
     * nothing written. */
    static const char *const bad[] = {"--from 5x",         "--to 2016-13-01", "--from 1h2",
                                      "--from 2016-02-30", "--to h",          "--from ''",
                                      "--time-axis weeks"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        out = NULL;
        CU_ASSERT_EQUAL(bl_run(&out, "plot %s --no-render -o %s/bad %s", dir, dir, bad[i]), 2);
        CU_ASSERT_TRUE(out && strstr(out, i == 6 ? "--time-axis: expected" : "expected"));
        free(out);
    }
    out = NULL;
    bl_run(&out, "plot %s --no-render -o %s/bad --from 5x", dir, dir);
    CU_ASSERT_TRUE(bl_contains(out, "--from: expected seconds, a duration (90s, 30m, 36h, 2d, 1w) "
                                    "or a date (2024-03-01, 2024-03-01T12:00), got '5x'"));
    free(out);
    snprintf(path, sizeof path, "%s/bad", dir);
    CU_ASSERT_EQUAL(access(path, F_OK), -1);

    /* A date needs the log's UnixStartTime: a usage error that says so. */
    const char *nostart = hand_run();
    CU_ASSERT_PTR_NOT_NULL_FATAL(nostart);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot %s --no-render --to 2016-06-01", nostart), 2);
    CU_ASSERT_TRUE(bl_contains(out, "--to 2016-06-01: a date needs the log's UnixStartTime"));
    free(out);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot %s --no-render --time-axis dates", nostart), 2);
    CU_ASSERT_TRUE(bl_contains(out, "--time-axis dates: a date needs the log's UnixStartTime"));
    free(out);
    snprintf(path, sizeof path, "%s/plot", nostart);
    CU_ASSERT_EQUAL(access(path, F_OK), -1);

    /* A real run of small.swf (UnixStartTime 1464739965, Europe/Berlin):
     * its manifest carries the clock, plot reads the dates. */
    out = NULL;
    int st = bl_run(&out,
                    "run --platform %s --workload %s --policy easy -q --outputs "
                    "jobs,summary --out %s/real",
                    bl_src("platforms/kth-sp2.xml"), bl_src("traces/fixtures/small.swf"), dir);
    CU_ASSERT_EQUAL(st, 0);
    free(out);
    CU_ASSERT_EQUAL(bl_run(NULL,
                           "plot %s/real --no-render --from 2016-06-01T03:00 --to "
                           "2016-06-01T04:00",
                           dir),
                    0);
    snprintf(path, sizeof path, "%s/real/plot/plot.gp", dir);
    g = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(g && bl_contains(g, "set xrange [2835:6435]\n"));
    free(g);
}

static void test_run_errors(void)
{
    const char *dir = bl_tmpdir();
    char path[700], want[800];
    snprintf(path, sizeof path, "%s/jobs.csv", dir);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("job_id,submission_time,starting_time,finish_time,allocated_resources\n"
          "1,0,0,10,0-1\n2,2,five,20,2\n",
          f);
    fclose(f);
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot %s --no-render", dir), 1);
    snprintf(want, sizeof want, "%s:3: expected numbers in job_id, submission_time", path);
    CU_ASSERT_TRUE(bl_contains(out, want));
    free(out);
    f = fopen(path, "w");
    fputs("job_id,starting_time\n1,0\n", f);
    fclose(f);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot %s --no-render", dir), 1);
    snprintf(want, sizeof want, "%s:1: expected the columns job_id, submission_time", path);
    CU_ASSERT_TRUE(bl_contains(out, want));
    free(out);
    f = fopen(path, "w");
    fputs("job_id,submission_time,starting_time,finish_time,allocated_resources\n"
          "1,0,0,10,3-1\n",
          f);
    fclose(f);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot %s --no-render", dir), 1);
    CU_ASSERT_TRUE(bl_contains(out, ":2: allocated_resources: expected LO-HI with LO <= HI"));
    free(out);
    const char *empty = bl_tmpdir();
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot %s", empty), 1);
    CU_ASSERT_TRUE(bl_contains(out, "expected jobs.csv or timeseries.csv in it"));
    free(out);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "plot /no/such/run"), 1);
    CU_ASSERT_TRUE(bl_contains(out, "/no/such/run: cannot open the run's folder"));
    free(out);
    CU_ASSERT_EQUAL(bl_run(NULL, "plot %s --color rainbow", empty), 2);
    CU_ASSERT_EQUAL(bl_run(NULL, "plot %s --from 10 --to 5", empty), 2);
}

int bl_suite_cli_plot_run(void)
{
    CU_pSuite s = CU_add_suite("cli_plot_run", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "--from/--to times: units and dates, known answers", test_parse_time);
    CU_add_test(s, "Gantt colours: hand-computed and stable", test_colors);
    CU_add_test(s, "a run's Gantt and series data", test_run_data);
    CU_add_test(s, "host outages in the series", test_run_outages);
    CU_add_test(s, "a long run: a week of Gantt, hourly means, marks, title",
                test_run_long_and_marks);
    CU_add_test(s, "core allocation: a core axis with the hosts marked", test_run_core_alloc);
    CU_add_test(s, "node allocation: the Gantt chart's script unchanged", test_run_node_unchanged);
    CU_add_test(s, "a run: --from/--to with units and dates, --time-axis", test_run_time_units);
    CU_add_test(s, "a run: bad input names file and line", test_run_errors);
    return 0;
}
