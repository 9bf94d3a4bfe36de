/* cli_plot.c — `batchlab plot`: gnuplot figures of a run and of a sweep.
 *
 *   batchlab plot RUN_DIR [-o DIR] [--color job|packet] [--from S] [--to S] [--all]
 *                 [--no-render]
 *   batchlab plot --loads RESULTS.csv [-o DIR] [--level L] [--no-render]
 *
 * A run (RUN_DIR holds jobs.csv and/or timeseries.csv, as `batchlab run
 * --out` writes them): DIR (default RUN_DIR/plot) receives gantt.dat (one
 * rectangle per job and run of consecutive hosts: time on x, host index in
 * name order on y, a colour per job, or per packet with --color packet so
 * that a packet's members share one), series.dat (queue length and
 * utilization after each event instant, drawn as steps: a value holds until
 * the next instant) and plot.gp, then gnuplot draws gantt.png/.pdf and
 * timeseries.png/.pdf. Times are the run's clock (the log's submit times,
 * as in jobs.csv), shown in seconds, hours or days, whichever keeps the axis
 * readable (a drawn span up to 2 h, up to 14 days, longer); --from/--to
 * (seconds) cut a window out of a long run, and say so when it holds no
 * job. A run longer than 14 days drawn whole is a smear, so by default its
 * Gantt chart shows the first 7 days and its series are aggregated: hourly
 * means of the step functions over a span up to 60 days, daily means
 * beyond (every instant up to 2 days); --all draws everything. Jobs killed
 * at their requested time (a red x) and jobs cut by a host failure (a
 * black triangle) are marked at their end (marks.dat), with their count in
 * the key. The title names the policy, the workload and the platform (from
 * summary.json). Jobs that never started are not drawn. The script names
 * its files by absolute path.
 *
 * A sweep (RESULTS.csv from `batchlab sweep merge`): for every workload and
 * each of wait_mean_s, wait_median_s, bounded_slowdown_mean, utilization and
 * queue_length_mean, against the load level for every policy variant: each
 * seed's value as an open point, and a line through the median over seeds
 * with the central --level share (default 0.9: 5th to 95th percentile) of
 * the seeds' values as its bar. Percentiles of the values themselves, not a
 * Student-t interval of the mean: a handful of seeds of a skewed metric gave
 * intervals below zero. Waits and slowdowns are drawn on a log axis (values
 * below 1 at 1). Each policy has its own colour, dash and point type, and
 * its points are shifted slightly along the load axis, so that two policies
 * with equal values (EASY and conservative often) both stay visible. Rows
 * whose load is "log" (not rescaled) have no place on a load axis and are
 * counted, not drawn. DIR (default: the CSV's folder) receives loads.csv
 * (every point: n, median, low, high, mean), one .dat per workload and
 * metric, loads.gp, and loads-WORKLOAD-METRIC.png/.pdf plus an overview
 * loads-WORKLOAD.png/.pdf.
 *
 * Terminals: pngcairo (else png) and pdfcairo when gnuplot has it; the
 * script checks GPVAL_TERMINALS itself. --no-render writes data and script
 * only. Same inputs, same bytes of data and script.
 *
 * Exit status: 0 success; 1 bad input (the file and line) or gnuplot
 * missing or failing (the script stays, to run by hand); 2 usage error.
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "cli_plot.h"

#include "cli_args.h"
#include "cli_json.h"
#include "eng_util.h"

#include <errno.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define N_OPTS(t) (sizeof(t) / sizeof((t)[0]))

/* ------------------------------------------------------------------ */
/* Numbers                                                             */

uint32_t bl_plot_color(int64_t id)
{
    double h = fmod((double)(id < 0 ? -id : id) * 0.6180339887498949, 1.0) * 6.0;
    double s = 0.55, v = 0.92;
    int k = (int)h;
    double f = h - k, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    double r, g, b;
    switch (k % 6) {
    case 0:
        r = v, g = t, b = p;
        break;
    case 1:
        r = q, g = v, b = p;
        break;
    case 2:
        r = p, g = v, b = t;
        break;
    case 3:
        r = p, g = q, b = v;
        break;
    case 4:
        r = t, g = p, b = v;
        break;
    default:
        r = v, g = p, b = q;
        break;
    }
    return ((uint32_t)lround(r * 255) << 16) | ((uint32_t)lround(g * 255) << 8) |
           (uint32_t)lround(b * 255);
}

/* ------------------------------------------------------------------ */
/* CSV lines                                                           */

/* Splits a CSV line in place (RFC 4180 quotes); returns the field count,
 * or -1 on an unterminated quote. */
static long csv_split(char *line, char **fields, size_t max)
{
    size_t n = 0;
    char *p = line;
    for (;;) {
        if (n == max)
            return (long)n + 1; /* too many: the caller reports it */
        char *out = p;
        fields[n++] = p;
        if (*p == '"') {
            char *r = p + 1;
            for (;;) {
                if (!*r)
                    return -1;
                if (*r == '"' && r[1] == '"') {
                    *out++ = '"';
                    r += 2;
                } else if (*r == '"') {
                    r++;
                    break;
                } else {
                    *out++ = *r++;
                }
            }
            p = r;
            *out = '\0';
            if (*p == ',') {
                p++;
                continue;
            }
            return (long)n;
        }
        char *comma = strchr(p, ',');
        if (!comma)
            return (long)n;
        *comma = '\0';
        p = comma + 1;
    }
}

static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
}

static int column(char **head, long n, const char *name)
{
    for (long i = 0; i < n; i++)
        if (strcmp(head[i], name) == 0)
            return (int)i;
    return -1;
}

static bool parse_num(const char *s, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(x))
        return false;
    *out = x;
    return true;
}

#define MAX_FIELDS 128

/* ------------------------------------------------------------------ */
/* Rendering                                                           */

static bool have_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Runs gnuplot on script; 0, or 1 after a message. */
static int render(const char *script)
{
    char *argv[] = {"gnuplot", (char *)script, NULL};
    pid_t pid;
    int err = posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ);
    if (err != 0) {
        fprintf(stderr,
                "batchlab plot: gnuplot not found (install gnuplot-nox); the data and "
                "%s are written: run gnuplot %s\n",
                script, script);
        return 1;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "batchlab plot: gnuplot %s failed (exit %d)\n", script,
                WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return 1;
    }
    return 0;
}

/* Writes the terminal lines of one format: png (pngcairo, else png) or pdf
 * (pdfcairo). The caller closes the pdf block with "}". */
static void gp_terminal(FILE *f, const char *fmt, int w_px, int h_px, const char *out)
{
    if (strcmp(fmt, "png") == 0) {
        fprintf(f,
                "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
                "    set terminal pngcairo size %d,%d noenhanced font \",10\"\n"
                "} else {\n"
                "    set terminal png size %d,%d noenhanced\n"
                "}\n"
                "set output \"%s\"\n",
                w_px, h_px, w_px, h_px, out);
    } else {
        fprintf(f,
                "set terminal pdfcairo size %.1fin,%.1fin noenhanced font \",9\"\n"
                "set output \"%s\"\n",
                w_px / 100.0, h_px / 100.0, out);
    }
}

/* gnuplot strings are written in double quotes: escape what they need. */
static void gp_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* ------------------------------------------------------------------ */
/* A run                                                               */

/* How a job ended, for the marks on the Gantt chart. */
enum { END_OK = 0, END_KILLED = 1, END_FAILED = 2 };

typedef struct gantt_row {
    double start_s, end_s;
    int64_t lo, hi; /* host indices, inclusive */
    int64_t color_id;
    int end;    /* END_*: killed at its requested time, cut by a host failure */
    bool first; /* the job's first host interval (marks are drawn once) */
} gantt_row;

static int end_kind(const char *final_state)
{
    if (strcmp(final_state, "COMPLETED_WALLTIME_REACHED") == 0)
        return END_KILLED;
    if (strcmp(final_state, "COMPLETED_FAILED") == 0)
        return END_FAILED;
    return END_OK;
}

/* The columns of jobs.csv that the Gantt chart reads (-1: absent). */
typedef struct job_cols {
    int id, sub, start, end, alloc, packet, state;
} job_cols;

/* The header line: the columns found, or 1 after the message. */
static int job_columns(char **fields, long nf, const char *path, bool by_packet, job_cols *c)
{
    c->id = column(fields, nf, "job_id");
    c->sub = column(fields, nf, "submission_time");
    c->start = column(fields, nf, "starting_time");
    c->end = column(fields, nf, "finish_time");
    c->alloc = column(fields, nf, "allocated_resources");
    c->packet = column(fields, nf, "packet");
    c->state = column(fields, nf, "final_state");
    if (c->id < 0 || c->start < 0 || c->end < 0 || c->alloc < 0 || c->sub < 0 ||
        (by_packet && c->packet < 0)) {
        fprintf(stderr,
                "batchlab plot: %s:1: expected the columns job_id, submission_time, "
                "starting_time, finish_time, allocated_resources%s\n",
                path, by_packet ? " and packet" : "");
        return 1;
    }
    return 0;
}

/* One row of the chart per interval of allocated_resources ("0-3 7
 * 9-10"), each a copy of proto (the first marked first). 0, or 1 after
 * the message. */
static int add_intervals(const char *alloc, const gantt_row *proto, const char *path, long line,
                         gantt_row **rows, size_t *n, size_t *rcap, int64_t *max_host)
{
    bool first = true;
    for (const char *p = alloc; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        char *end_p;
        long long lo = strtoll(p, &end_p, 10), hi = lo;
        if (end_p == p || lo < 0) {
            fprintf(stderr,
                    "batchlab plot: %s:%ld: allocated_resources: expected host "
                    "intervals like '0-3 7', got '%s'\n",
                    path, line, alloc);
            return 1;
        }
        p = end_p;
        if (*p == '-') {
            hi = strtoll(p + 1, &end_p, 10);
            if (end_p == p + 1 || hi < lo) {
                fprintf(stderr,
                        "batchlab plot: %s:%ld: allocated_resources: expected "
                        "LO-HI with LO <= HI, got '%s'\n",
                        path, line, alloc);
                return 1;
            }
            p = end_p;
        }
        if (*p && *p != ' ') {
            fprintf(stderr,
                    "batchlab plot: %s:%ld: allocated_resources: expected host "
                    "intervals like '0-3 7', got '%s'\n",
                    path, line, alloc);
            return 1;
        }
        if (eng_grow(rows, rcap, *n + 1, sizeof **rows) != ENG_OK) {
            fprintf(stderr, "batchlab plot: out of memory\n");
            return 1;
        }
        gantt_row r = *proto;
        r.lo = lo;
        r.hi = hi;
        r.first = first;
        (*rows)[(*n)++] = r;
        first = false;
        *max_host = hi > *max_host ? hi : *max_host;
    }
    return 0;
}

static int read_jobs(const char *path, bool by_packet, gantt_row **rows, size_t *n,
                     int64_t *max_host, double *t_min, double *t_max)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "batchlab plot: %s: cannot open: %s\n", path, strerror(errno));
        return 1;
    }
    char *buf = NULL, *fields[MAX_FIELDS];
    size_t cap = 0, rcap = 0;
    int rc = 0;
    job_cols c = {-1, -1, -1, -1, -1, -1, -1};
    long line = 0, nf;
    while (rc == 0 && getline(&buf, &cap, f) >= 0) {
        line++;
        chomp(buf);
        nf = csv_split(buf, fields, MAX_FIELDS);
        if (nf < 0 || nf > MAX_FIELDS) {
            fprintf(stderr, "batchlab plot: %s:%ld: expected CSV fields%s\n", path, line,
                    nf < 0 ? ", found an unterminated quote" : " (at most 128)");
            rc = 1;
            break;
        }
        if (line == 1) {
            rc = job_columns(fields, nf, path, by_packet, &c);
            continue;
        }
        int need = c.id > c.start ? c.id : c.start;
        need = need > c.end ? need : c.end;
        need = need > c.alloc ? need : c.alloc;
        need = need > c.packet ? need : c.packet;
        need = need > c.sub ? need : c.sub;
        need = need > c.state ? need : c.state;
        double id, start, end, sub, packet = -1;
        if (nf <= need || !parse_num(fields[c.id], &id) || !parse_num(fields[c.start], &start) ||
            !parse_num(fields[c.end], &end) || !parse_num(fields[c.sub], &sub) ||
            (c.packet >= 0 && !parse_num(fields[c.packet], &packet))) {
            fprintf(stderr,
                    "batchlab plot: %s:%ld: expected numbers in job_id, "
                    "submission_time, starting_time, finish_time%s\n",
                    path, line, c.packet >= 0 ? " and packet" : "");
            rc = 1;
            break;
        }
        *t_min = sub < *t_min ? sub : *t_min;
        *t_max = end > *t_max ? end : *t_max;
        if (start < 0 || end < start)
            continue; /* never started */
        gantt_row proto = {.start_s = start,
                           .end_s = end,
                           .color_id = by_packet && packet >= 0 ? (int64_t)packet : (int64_t)id,
                           .end = c.state >= 0 ? end_kind(fields[c.state]) : END_OK};
        rc = add_intervals(fields[c.alloc], &proto, path, line, rows, n, &rcap, max_host);
    }
    free(buf);
    fclose(f);
    return rc;
}

/* One point of timeseries.csv: the values from time t_s to the next one. */
typedef struct series_pt {
    double t_s, queued, util;
    double down; /* hosts down (host outages); 0 where the file has no down_hosts */
} series_pt;

/* Reads timeseries.csv into pts; 0 or 1 after a message. */
static int read_series(const char *in, series_pt **pts, size_t *n)
{
    FILE *f = fopen(in, "r");
    if (!f) {
        fprintf(stderr, "batchlab plot: %s: cannot open: %s\n", in, strerror(errno));
        return 1;
    }
    char *buf = NULL, *fields[MAX_FIELDS];
    size_t cap = 0, pcap = 0;
    long line = 0;
    int rc = 0, c_t = -1, c_q = -1, c_u = -1, c_d = -1;
    while (rc == 0 && getline(&buf, &cap, f) >= 0) {
        line++;
        chomp(buf);
        long nf = csv_split(buf, fields, MAX_FIELDS);
        if (line == 1) {
            c_t = column(fields, nf, "time_s");
            c_q = column(fields, nf, "queued_jobs");
            c_u = column(fields, nf, "utilization");
            c_d = column(fields, nf, "down_hosts"); /* optional: older files lack it */
            if (c_t < 0 || c_q < 0 || c_u < 0) {
                fprintf(stderr,
                        "batchlab plot: %s:1: expected the columns time_s, "
                        "queued_jobs, utilization\n",
                        in);
                rc = 1;
            }
            continue;
        }
        series_pt p = {.down = 0};
        int need = c_t > c_q ? (c_t > c_u ? c_t : c_u) : (c_q > c_u ? c_q : c_u);
        if (c_d > need)
            need = c_d;
        if (nf <= need || !parse_num(fields[c_t], &p.t_s) || !parse_num(fields[c_q], &p.queued) ||
            !parse_num(fields[c_u], &p.util) || (c_d >= 0 && !parse_num(fields[c_d], &p.down))) {
            fprintf(stderr,
                    "batchlab plot: %s:%ld: expected numbers in time_s, queued_jobs, "
                    "utilization (and down_hosts)\n",
                    in, line);
            rc = 1;
        } else if (eng_grow(pts, &pcap, *n + 1, sizeof **pts) != ENG_OK) {
            fprintf(stderr, "batchlab plot: out of memory\n");
            rc = 1;
        } else {
            (*pts)[(*n)++] = p;
        }
    }
    free(buf);
    fclose(f);
    return rc;
}

/* series.dat: "time queued utilization down" in the axis unit div, over
 * [lo, hi] (down: hosts down).
 * bin_s 0: every event instant (drawn as steps); otherwise the time-weighted
 * mean of each bin of bin_s seconds (aligned on multiples of bin_s) over the
 * part of it the series covers. 0 or 1 after a message. */
static int write_series(const char *out, const char *in, const series_pt *p, size_t n, double lo,
                        double hi, double bin_s, double div)
{
    eng_diag d;
    eng_diag_clear(&d);
    eng_afile a;
    if (eng_afile_open(&a, out, &d) != ENG_OK) {
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    char num[4][40];
    if (bin_s > 0)
        fprintf(a.f,
                "# bin_start queued_jobs utilization down_hosts: time-weighted means over bins "
                "of %s s (from %s)\n",
                eng_fmt_double(num[0], sizeof num[0], bin_s), in);
    else
        fprintf(a.f, "# time queued_jobs utilization down_hosts (from %s)\n", in);
    size_t drawn = 0;
    if (bin_s <= 0) {
        for (size_t i = 0; i < n; i++) {
            if (p[i].t_s < lo || p[i].t_s > hi)
                continue;
            fprintf(a.f, "%s %s %s %s\n", eng_fmt_double(num[0], sizeof num[0], p[i].t_s / div),
                    eng_fmt_double(num[1], sizeof num[1], p[i].queued),
                    eng_fmt_double(num[2], sizeof num[2], p[i].util),
                    eng_fmt_double(num[3], sizeof num[3], p[i].down));
            drawn++;
        }
    } else if (n > 1) {
        double first = fmax(lo, p[0].t_s), last = fmin(hi, p[n - 1].t_s);
        size_t i = 0;
        for (double b = floor(first / bin_s) * bin_s; b < last; b += bin_s) {
            double b0 = fmax(b, first), b1 = fmin(b + bin_s, last), q = 0, u = 0, dn = 0;
            while (i + 1 < n && p[i + 1].t_s <= b0)
                i++;
            for (size_t k = i; k + 1 < n && p[k].t_s < b1; k++) {
                double s0 = fmax(p[k].t_s, b0), s1 = fmin(p[k + 1].t_s, b1);
                if (s1 > s0) {
                    q += p[k].queued * (s1 - s0);
                    u += p[k].util * (s1 - s0);
                    dn += p[k].down * (s1 - s0);
                }
            }
            if (b1 > b0)
                fprintf(a.f, "%s %s %s %s\n", eng_fmt_double(num[0], sizeof num[0], b / div),
                        eng_fmt_double(num[1], sizeof num[1], q / (b1 - b0)),
                        eng_fmt_double(num[2], sizeof num[2], u / (b1 - b0)),
                        eng_fmt_double(num[3], sizeof num[3], dn / (b1 - b0)));
            drawn++;
        }
    }
    if (drawn == 0) /* gnuplot refuses an empty file */
        fprintf(a.f, "nan nan nan nan\n");
    if (eng_afile_commit(&a, &d) != ENG_OK) {
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    return 0;
}

static const bl_opt plot_opts[] = {
    {"output", 'o', BL_VALUE, "DIR", "folder of the figures (default RUN_DIR/plot, or the CSV's)"},
    {"color", 0, BL_VALUE, "job|packet", "Gantt colours per job (default) or per packet"},
    {"from", 0, BL_VALUE, "S", "draw from this time (s, the run's clock as in jobs.csv)"},
    {"to", 0, BL_VALUE, "S", "draw up to this time (s)"},
    {"all", 0, BL_FLAG, NULL, "draw the whole run even when it is long (see below)"},
    {"loads", 0, BL_VALUE, "CSV", "draw a sweep's metrics against load (batchlab sweep merge)"},
    {"level", 0, BL_VALUE, "L", "share of the seeds' values within the bars (default 0.9)"},
    {"no-render", 0, BL_FLAG, NULL, "write data and gnuplot script only"},
};

/* A Gantt chart of a long run is a smear: by default it shows this much of
 * it; the series are aggregated instead. */
#define GANTT_WINDOW_S (7 * 86400.0)
#define LONG_RUN_S (14 * 86400.0)

/* What a run's figures say about it, from summary.json when there is one. */
typedef struct run_meta {
    int64_t hosts;
    char title[512];
} run_meta;

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Title "POLICY on WORKLOAD (PLATFORM)" and the platform's host count from
 * summary.json; the run's folder name when it is absent. */
static void read_run_meta(const char *sum, const char *run, int64_t max_host, run_meta *m)
{
    m->hosts = max_host + 1;
    snprintf(m->title, sizeof m->title, "%s", run);
    bl_json_flat js;
    eng_diag d;
    eng_diag_clear(&d);
    if (!have_file(sum) || bl_json_flat_read(sum, &js, &d) != ENG_OK)
        return;
    const char *h = bl_json_flat_get(&js, "platform.hosts");
    double hv;
    if (h && parse_num(h, &hv) && hv > (double)m->hosts)
        m->hosts = (int64_t)hv;
    const char *pol = bl_json_flat_get(&js, "manifest.policy");
    const char *wl = bl_json_flat_get(&js, "manifest.inputs.workload.path");
    const char *pf = bl_json_flat_get(&js, "platform.path");
    if (pol && wl)
        snprintf(m->title, sizeof m->title, "%s on %s%s%s%s", pol, base_name(wl), pf ? " (" : "",
                 pf ? base_name(pf) : "", pf ? ")" : "");
    bl_json_flat_fini(&js);
}

/* gantt.dat (one rectangle per job and run of consecutive hosts, in the
 * window [lo, hi]) and marks.dat (block 0: jobs killed at their requested
 * time, block 1: jobs cut by a host failure, each a point at its end on its
 * first host interval). *drawn counts the jobs in the window, marks[] the
 * two kinds. 0 or 1 after a message. */
static int write_gantt(const char *gantt, const char *marks, const char *jobs,
                       const gantt_row *rows, size_t n, double lo, double hi, double div,
                       const char *unit, size_t *drawn, size_t mark_n[2])
{
    eng_diag d;
    eng_diag_clear(&d);
    eng_afile g, k;
    if (eng_afile_open(&g, gantt, &d) != ENG_OK) {
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    if (eng_afile_open(&k, marks, &d) != ENG_OK) {
        eng_afile_abort(&g);
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    fprintf(g.f,
            "# x y xlow xhigh ylow yhigh rgb: one job on hosts ylow..yhigh-1 from "
            "xlow to xhigh (%s), from %s\n",
            unit, jobs);
    *drawn = 0;
    mark_n[0] = mark_n[1] = 0;
    char num[4][40];
    for (size_t i = 0; i < n; i++) {
        const gantt_row *r = &rows[i];
        if (r->end_s < lo || r->start_s > hi)
            continue;
        double x0 = r->start_s / div, x1 = r->end_s / div;
        fprintf(
            g.f, "%s %s %s %s %lld %lld %u\n", eng_fmt_double(num[0], sizeof num[0], (x0 + x1) / 2),
            eng_fmt_double(num[1], sizeof num[1], (double)(r->lo + r->hi + 1) / 2),
            eng_fmt_double(num[2], sizeof num[2], x0), eng_fmt_double(num[3], sizeof num[3], x1),
            (long long)r->lo, (long long)r->hi + 1, bl_plot_color(r->color_id));
        *drawn += r->first;
    }
    if (*drawn == 0) /* gnuplot refuses an empty file */
        fprintf(g.f, "0 0 0 0 0 0 16777215\n");
    fprintf(k.f,
            "# x y: block 0 jobs killed at their requested time, block 1 jobs cut by a "
            "host failure (%s)\n",
            unit);
    for (int kind = END_KILLED; kind <= END_FAILED; kind++) {
        for (size_t i = 0; i < n; i++) {
            const gantt_row *r = &rows[i];
            if (r->end != kind || !r->first || r->end_s < lo || r->end_s > hi)
                continue;
            fprintf(k.f, "%s %s\n", eng_fmt_double(num[0], sizeof num[0], r->end_s / div),
                    eng_fmt_double(num[1], sizeof num[1], (double)(r->lo + r->hi + 1) / 2));
            mark_n[kind - 1]++;
        }
        if (mark_n[kind - 1] == 0)
            fprintf(k.f, "nan nan\n");
        fprintf(k.f, "\n\n");
    }
    if (eng_afile_commit(&g, &d) != ENG_OK) {
        eng_afile_abort(&k);
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    if (eng_afile_commit(&k, &d) != ENG_OK) {
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    return 0;
}

/* What the script draws. */
typedef struct run_fig {
    const char *dir, *gantt, *marks, *series, *title;
    bool has_jobs, has_ts;
    int64_t hosts;
    const char *color;             /* "job" or "packet" */
    double g_lo, g_hi, s_lo, s_hi; /* x ranges of the Gantt chart and the series, in units */
    const char *unit;
    double bin_s; /* 0: every instant; else the bin of the series' means */
    size_t mark_n[2];
    bool outages; /* some host is down at some time of the series */
} run_fig;

static void script_xrange(FILE *f, double lo, double hi)
{
    char num[2][40];
    fprintf(f, "set xrange [%s:%s]\n", eng_fmt_double(num[0], sizeof num[0], lo),
            eng_fmt_double(num[1], sizeof num[1], hi > lo ? hi : lo + 1));
}

static void script_gantt(FILE *f, const run_fig *r, const char *fmt)
{
    char *o = eng_asprintf("%s/gantt.%s", r->dir, fmt);
    gp_terminal(f, fmt, 1200, 700, o ? o : "gantt");
    free(o);
    script_xrange(f, r->g_lo, r->g_hi);
    fprintf(f, "set title ");
    gp_str(f, r->title);
    fprintf(f, "\nset ylabel \"host (index in name order)\"\n");
    fprintf(f, "set yrange [0:%lld]\n", (long long)(r->hosts > 0 ? r->hosts : 1));
    fprintf(f, "set key outside top center horizontal\n");
    fprintf(f, "plot ");
    gp_str(f, r->gantt);
    fprintf(f, " using 1:2:3:4:5:6:7 with boxxyerror fill solid 0.85 noborder "
               "lc rgb variable notitle");
    static const char *const what[2] = {"killed at the requested time", "cut by a host failure"};
    static const char *const style[2] = {"pt 2 ps 1.2 lw 2 lc rgb \"#b00000\"",
                                         "pt 8 ps 1.2 lw 2 lc rgb \"black\""};
    for (int k = 0; k < 2; k++) {
        if (!r->mark_n[k])
            continue;
        fprintf(f, ", \\\n     ");
        gp_str(f, r->marks);
        fprintf(f, " index %d using 1:2 with points %s title \"%zu job%s %s\"", k, style[k],
                r->mark_n[k], r->mark_n[k] == 1 ? "" : "s", what[k]);
    }
    fprintf(f, "\nset yrange [*:*]\nunset key\n");
}

static void script_series(FILE *f, const run_fig *r, const char *fmt)
{
    char *o = eng_asprintf("%s/timeseries.%s", r->dir, fmt);
    gp_terminal(f, fmt, 1200, r->outages ? 950 : 700, o ? o : "timeseries");
    free(o);
    script_xrange(f, r->s_lo, r->s_hi);
    const char *how = r->bin_s >= 86400 ? ", daily means" : r->bin_s > 0 ? ", hourly means" : "";
    fprintf(f, "set multiplot layout %d,1 title ", r->outages ? 3 : 2);
    gp_str(f, r->title);
    fprintf(f,
            "\nset title \"queue length (waiting jobs%s)\"\nset ylabel \"jobs\"\n"
            "set yrange [0:*]\n",
            how);
    fprintf(f, "plot ");
    gp_str(f, r->series);
    fprintf(f, " using 1:2 with steps lw 1.5 notitle\n");
    fprintf(f, "set title \"utilization%s\"\nset ylabel \"busy share\"\nset yrange [0:1.05]\n",
            how);
    fprintf(f, "plot ");
    gp_str(f, r->series);
    fprintf(f, " using 1:3 with steps lw 1.5 notitle\n");
    if (r->outages) { /* host outages: how many hosts are down over time */
        fprintf(f,
                "set title \"host outages (hosts down%s)\"\nset ylabel \"hosts\"\n"
                "set yrange [0:*]\n",
                how);
        fprintf(f, "plot ");
        gp_str(f, r->series);
        fprintf(f, " using 1:4 with fillsteps fs solid 0.35 lc rgb \"#c0392b\" notitle\n");
    }
    fprintf(f, "unset multiplot\nset yrange [*:*]\n");
}

/* plot.gp: the Gantt chart and the series, PNG then PDF. 0 or 1. */
static int write_run_script(const char *script, const char *run, const run_fig *r)
{
    eng_diag d;
    eng_diag_clear(&d);
    eng_afile s;
    if (eng_afile_open(&s, script, &d) != ENG_OK) {
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    FILE *f = s.f;
    fprintf(f,
            "# batchlab plot %s: Gantt chart (hosts x time, colour per %s) and queue "
            "length and utilization over time.\n# Run: gnuplot %s\n",
            run, r->color, script);
    fprintf(f, "set xlabel \"time (%s, the run's clock)\"\nset grid\n", r->unit);
    for (int k = 0; k < 2; k++) {
        const char *fmt = k == 0 ? "png" : "pdf";
        if (k == 1)
            fprintf(f, "if (strstrt(GPVAL_TERMINALS, \"pdfcairo\") > 0) {\n");
        if (r->has_jobs)
            script_gantt(f, r, fmt);
        if (r->has_ts)
            script_series(f, r, fmt);
        if (k == 1)
            fprintf(f, "}\n");
    }
    fprintf(f, "set output\n");
    if (ferror(f)) {
        eng_afile_abort(&s);
        fprintf(stderr, "batchlab plot: %s: cannot write\n", script);
        return 1;
    }
    if (eng_afile_commit(&s, &d) != ENG_OK) {
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    return 0;
}

/* plot RUN's options: the colouring and the window. 0, or 2 after the
 * message. */
static int run_opts_parse(const bl_args *a, int *color_idx, double *from, double *to, bool *all)
{
    const char *color = bl_args_value(a, "color", "job");
    const char *from_s = bl_args_value(a, "from", NULL), *to_s = bl_args_value(a, "to", NULL);
    *color_idx = 0;
    if (bl_args_choice("plot", "color", color, "job|packet", color_idx))
        return 2;
    *from = -INFINITY;
    *to = INFINITY;
    if ((from_s && bl_args_double("plot", "from", from_s, from)) ||
        (to_s && bl_args_double("plot", "to", to_s, to)))
        return 2;
    if (!(*from < *to)) {
        fprintf(stderr, "batchlab plot: expected --from below --to\n");
        return 2;
    }
    *all = bl_args_flag(a, "all");
    if (*all && (isfinite(*from) || isfinite(*to))) {
        fprintf(stderr, "batchlab plot: --all draws the whole run: expected no --from/--to "
                        "with it\n");
        return 2;
    }
    return 0;
}

/* The files plot RUN reads (in the run's folder) and writes (in the plot
 * folder, made here). */
typedef struct run_files {
    char *run, *jobs, *ts, *sum, *dir, *gantt, *marks, *series, *script;
} run_files;

static void run_files_fini(run_files *f)
{
    free(f->run);
    free(f->jobs);
    free(f->ts);
    free(f->sum);
    free(f->dir);
    free(f->gantt);
    free(f->marks);
    free(f->series);
    free(f->script);
}

/* The paths, absolute; the plot folder (out_opt, else RUN/plot) created.
 * 0, or 1 after the message. */
static int run_files_init(run_files *f, const char *run, const char *out_opt)
{
    memset(f, 0, sizeof *f);
    f->run = realpath(run, NULL);
    if (!f->run) {
        fprintf(stderr, "batchlab plot: %s: cannot open the run's folder: %s\n", run,
                strerror(errno));
        return 1;
    }
    f->jobs = eng_asprintf("%s/jobs.csv", f->run);
    f->ts = eng_asprintf("%s/timeseries.csv", f->run);
    f->sum = eng_asprintf("%s/summary.json", f->run);
    f->dir = out_opt ? eng_strdup(out_opt) : eng_asprintf("%s/plot", f->run);
    if (!f->jobs || !f->ts || !f->sum || !f->dir) {
        fprintf(stderr, "batchlab plot: out of memory\n");
        return 1;
    }
    if (!have_file(f->jobs) && !have_file(f->ts)) {
        fprintf(stderr,
                "batchlab plot: %s: expected jobs.csv or timeseries.csv in it (batchlab "
                "run --out DIR writes both; --outputs must list jobs or timeseries)\n",
                f->run);
        return 1;
    }
    eng_diag d;
    eng_diag_clear(&d);
    if (eng_mkdir_p(f->dir, &d) != ENG_OK) {
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    char *dir_abs = realpath(f->dir, NULL);
    if (dir_abs) {
        free(f->dir);
        f->dir = dir_abs;
    }
    f->gantt = eng_asprintf("%s/gantt.dat", f->dir);
    f->marks = eng_asprintf("%s/marks.dat", f->dir);
    f->series = eng_asprintf("%s/series.dat", f->dir);
    f->script = eng_asprintf("%s/plot.gp", f->dir);
    if (!f->gantt || !f->marks || !f->series || !f->script) {
        fprintf(stderr, "batchlab plot: out of memory\n");
        return 1;
    }
    return 0;
}

/* What plot RUN draws, in seconds: the Gantt chart's window [g_lo, g_hi]
 * and the series' [s_lo, s_hi]; div, the seconds of the axes' unit. */
typedef struct run_window {
    double g_lo, g_hi, s_lo, s_hi, div;
    bool cut; /* a long run's Gantt chart cut to its first week */
} run_window;

/* The windows: --from/--to for both figures; a long run without them
 * shows its first week in the Gantt chart and aggregates the series
 * (hourly or daily means, fig->bin_s); the unit (fig->unit) follows the
 * span. fig's ranges are set in that unit. */
static run_window choose_windows(run_fig *fig, double from, double to, bool all, double t_min,
                                 double t_max)
{
    run_window w;
    bool windowed = isfinite(from) || isfinite(to);
    w.g_lo = isfinite(from) ? from : t_min;
    w.g_hi = isfinite(to) ? to : t_max;
    w.s_lo = w.g_lo;
    w.s_hi = w.g_hi;
    w.cut = !windowed && !all && fig->has_jobs && t_max - t_min > LONG_RUN_S;
    if (w.cut)
        w.g_hi = t_min + GANTT_WINDOW_S;
    double s_span = w.s_hi - w.s_lo;
    fig->bin_s = all || s_span <= 2 * 86400 ? 0 : s_span <= 60 * 86400 ? 3600 : 86400;
    double span = fmax(w.g_hi - w.g_lo, s_span);
    fig->unit = span <= 7200 ? "s" : span <= LONG_RUN_S ? "h" : "days";
    w.div = fig->unit[0] == 's' ? 1 : fig->unit[0] == 'h' ? 3600 : 86400;
    fig->g_lo = w.g_lo / w.div;
    fig->g_hi = w.g_hi / w.div;
    fig->s_lo = w.s_lo / w.div;
    fig->s_hi = w.s_hi / w.div;
    return w;
}

static int plot_run(const char *run, const bl_args *a)
{
    int color_idx;
    double from, to;
    bool all;
    if (run_opts_parse(a, &color_idx, &from, &to, &all))
        return 2;
    run_files f;
    gantt_row *rows = NULL;
    series_pt *pts = NULL;
    size_t n = 0, n_pts = 0;
    int rc = 1;
    if (run_files_init(&f, run, bl_args_value(a, "output", NULL)))
        goto done;
    bool has_jobs = have_file(f.jobs), has_ts = have_file(f.ts);
    int64_t max_host = -1;
    double t_min = INFINITY, t_max = -INFINITY;
    if (has_jobs && read_jobs(f.jobs, color_idx == 1, &rows, &n, &max_host, &t_min, &t_max))
        goto done;
    if (has_ts && read_series(f.ts, &pts, &n_pts))
        goto done;
    for (size_t i = 0; i < n_pts; i++) {
        t_min = fmin(t_min, pts[i].t_s);
        t_max = fmax(t_max, pts[i].t_s);
    }
    if (!isfinite(t_min))
        t_min = t_max = 0;
    run_meta meta;
    read_run_meta(f.sum, f.run, max_host, &meta);
    run_fig fig = {.dir = f.dir,
                   .gantt = f.gantt,
                   .marks = f.marks,
                   .series = f.series,
                   .title = meta.title,
                   .has_jobs = has_jobs,
                   .has_ts = has_ts,
                   .hosts = meta.hosts,
                   .color = color_idx ? "packet" : "job"};
    run_window w = choose_windows(&fig, from, to, all, t_min, t_max);
    for (size_t i = 0; i < n_pts && !fig.outages; i++)
        fig.outages = pts[i].down > 0 && pts[i].t_s <= w.s_hi &&
                      (i + 1 == n_pts || pts[i + 1].t_s > w.s_lo);
    if (has_jobs) {
        size_t drawn = 0;
        if (write_gantt(f.gantt, f.marks, f.jobs, rows, n, w.g_lo, w.g_hi, w.div, fig.unit, &drawn,
                        fig.mark_n))
            goto done;
        if (drawn == 0 && (isfinite(from) || isfinite(to))) {
            char num[4][40];
            fprintf(stderr,
                    "batchlab plot: %s: no job runs between %s and %s s (the run spans "
                    "%s to %s s)\n",
                    f.run,
                    isfinite(from) ? eng_fmt_double(num[0], sizeof num[0], from) : "the start",
                    isfinite(to) ? eng_fmt_double(num[1], sizeof num[1], to) : "the end",
                    eng_fmt_double(num[2], sizeof num[2], t_min),
                    eng_fmt_double(num[3], sizeof num[3], t_max));
            goto done;
        }
    }
    if (has_ts && write_series(f.series, f.ts, pts, n_pts, w.s_lo, w.s_hi, fig.bin_s, w.div))
        goto done;
    if (write_run_script(f.script, f.run, &fig))
        goto done;
    rc = bl_args_flag(a, "no-render") ? 0 : render(f.script);
    if (rc == 0) {
        printf("%s: %s%s%s\n", f.dir, has_jobs ? "gantt" : "", has_jobs && has_ts ? " and " : "",
               has_ts ? "timeseries" : "");
        if (w.cut)
            printf("the run spans %.0f days: the Gantt chart shows its first 7 (--from/--to "
                   "choose the window, --all draws everything); the series are %s means\n",
                   (t_max - t_min) / 86400, fig.bin_s >= 86400 ? "daily" : "hourly");
    }
done:
    run_files_fini(&f);
    free(rows);
    free(pts);
    return rc;
}

/* ------------------------------------------------------------------ */
/* A sweep: metrics against load                                       */

static const char *const load_metrics[] = {"wait_mean_s", "wait_median_s", "bounded_slowdown_mean",
                                           "utilization", "queue_length_mean"};
static const char *const load_titles[] = {"mean wait (s)", "median wait (s)",
                                          "mean bounded slowdown (tau = 10 s)", "utilization",
                                          "mean queue length (jobs)"};
/* Waits and slowdowns span orders of magnitude between policies and loads:
 * they are drawn on a log axis, values below the floor at the floor (a
 * median wait of 0 s would otherwise vanish). */
static const bool load_log[] = {true, true, true, false, false};
static const char *const load_units[] = {"s, log scale", "s, log scale", "log scale", "busy share",
                                         "jobs"};
#define N_METRICS (sizeof load_metrics / sizeof load_metrics[0])
#define LOG_FLOOR 1.0

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct load_row {
    char *workload, *variant;
    double load;
    double v[N_METRICS];
    bool has[N_METRICS];
} load_row;

/* The rows of a sweep table, indexed by workload, variant and load. */
typedef struct load_table {
    load_row *rows;
    size_t n, n_log; /* rows with a numeric load; rows at load "log" */
    char **wl, **vl; /* workloads and variants in first-seen order */
    size_t n_w, n_v;
    size_t *wi, *vi; /* per row: its workload and variant */
    double *loads;   /* distinct loads, ascending */
    size_t n_l;
} load_table;

static void load_table_fini(load_table *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->rows[i].workload);
        free(t->rows[i].variant);
    }
    for (size_t i = 0; i < t->n_w; i++)
        free(t->wl[i]);
    for (size_t i = 0; i < t->n_v; i++)
        free(t->vl[i]);
    free(t->rows);
    free(t->wl);
    free(t->vl);
    free(t->wi);
    free(t->vi);
    free(t->loads);
}

void bl_plot_median_interval(double *v, size_t n, double level, double *median, double *lo,
                             double *hi)
{
    if (n == 0) {
        *median = *lo = *hi = NAN;
        return;
    }
    qsort(v, n, sizeof *v, cmp_double);
    *median = gsl_stats_median_from_sorted_data(v, 1, n);
    *lo = gsl_stats_quantile_from_sorted_data(v, 1, n, (1.0 - level) / 2.0);
    *hi = gsl_stats_quantile_from_sorted_data(v, 1, n, (1.0 + level) / 2.0);
}

/* Index of s in list (adding it in first-seen order). */
static size_t intern(char ***list, size_t *n, size_t *cap, const char *s, bool *oom)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*list)[i], s) == 0)
            return i;
    if (eng_grow(list, cap, *n + 1, sizeof **list) != ENG_OK || !((*list)[*n] = eng_strdup(s))) {
        *oom = true;
        return 0;
    }
    return (*n)++;
}

/* A file name part: anything but [A-Za-z0-9._-] becomes '_'. */
static char *safe_name(const char *s)
{
    char *r = eng_strdup(s);
    for (char *p = r; p && *p; p++)
        if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') && !(*p >= '0' && *p <= '9') &&
            *p != '.' && *p != '_' && *p != '-')
            *p = '_';
    return r;
}

/* One data line of the sweep table into r; 0, 1 after a message, or -1 for
 * a row at load "log" (counted, not drawn). */
static int load_row_parse(const char *csv, long line, char **fields, long nf, const int *c,
                          load_row *r)
{
    int c_w = c[0], c_l = c[1], c_v = c[2];
    const int *c_m = c + 3;
    int need = c_w > c_l ? c_w : c_l;
    need = need > c_v ? need : c_v;
    for (size_t m = 0; m < N_METRICS; m++)
        need = need > c_m[m] ? need : c_m[m];
    if (nf <= need) {
        fprintf(stderr, "batchlab plot: %s:%ld: expected %d fields, found %ld\n", csv, line,
                need + 1, nf);
        return 1;
    }
    if (strcmp(fields[c_l], "log") == 0 || !fields[c_l][0])
        return -1;
    *r = (load_row){0};
    if (!parse_num(fields[c_l], &r->load) || !(r->load > 0)) {
        fprintf(stderr,
                "batchlab plot: %s:%ld: load: expected a positive number or 'log', "
                "got '%s'\n",
                csv, line, fields[c_l]);
        return 1;
    }
    for (size_t m = 0; m < N_METRICS; m++) {
        if (!fields[c_m[m]][0])
            continue; /* not finite in the summary */
        if (!parse_num(fields[c_m[m]], &r->v[m])) {
            fprintf(stderr, "batchlab plot: %s:%ld: %s: expected a number, got '%s'\n", csv, line,
                    load_metrics[m], fields[c_m[m]]);
            return 1;
        }
        r->has[m] = true;
    }
    r->workload = eng_strdup(fields[c_w]);
    r->variant = eng_strdup(fields[c_v]);
    if (!r->workload || !r->variant) {
        free(r->workload);
        free(r->variant);
        fprintf(stderr, "batchlab plot: out of memory\n");
        return 1;
    }
    return 0;
}

/* Reads the sweep table (columns found by name) into t; 0 or 1 after a
 * message. */
static int load_table_read(const char *csv, load_table *t)
{
    *t = (load_table){0};
    eng_diag d;
    eng_diag_clear(&d);
    if (eng_check_not_dir(csv, "a CSV file of batchlab sweep merge", &d) != ENG_OK) {
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    FILE *f = fopen(csv, "r");
    if (!f) {
        fprintf(stderr, "batchlab plot: %s: cannot open: %s\n", csv, strerror(errno));
        return 1;
    }
    char *buf = NULL, *fields[MAX_FIELDS];
    size_t cap = 0, rcap = 0;
    long line = 0;
    int rc = 0, c[3 + N_METRICS];
    while (rc == 0 && getline(&buf, &cap, f) >= 0) {
        line++;
        chomp(buf);
        long nf = csv_split(buf, fields, MAX_FIELDS);
        if (nf < 0 || nf > MAX_FIELDS) {
            fprintf(stderr, "batchlab plot: %s:%ld: expected CSV fields\n", csv, line);
            rc = 1;
        } else if (line == 1) {
            bool ok = (c[0] = column(fields, nf, "workload")) >= 0;
            ok = (c[1] = column(fields, nf, "load")) >= 0 && ok;
            ok = (c[2] = column(fields, nf, "variant")) >= 0 && ok;
            for (size_t m = 0; m < N_METRICS; m++)
                ok = (c[3 + m] = column(fields, nf, load_metrics[m])) >= 0 && ok;
            if (!ok) {
                fprintf(stderr,
                        "batchlab plot: %s:1: expected the columns workload, load, "
                        "variant, wait_mean_s, wait_median_s, bounded_slowdown_mean, "
                        "utilization, queue_length_mean (batchlab sweep merge writes "
                        "them)\n",
                        csv);
                rc = 1;
            }
        } else {
            load_row r;
            int k = load_row_parse(csv, line, fields, nf, c, &r);
            if (k < 0) {
                t->n_log++;
            } else if (k > 0) {
                rc = 1;
            } else if (eng_grow(&t->rows, &rcap, t->n + 1, sizeof *t->rows) != ENG_OK) {
                free(r.workload);
                free(r.variant);
                fprintf(stderr, "batchlab plot: out of memory\n");
                rc = 1;
            } else {
                t->rows[t->n++] = r;
            }
        }
    }
    free(buf);
    fclose(f);
    if (rc == 0 && t->n == 0) {
        fprintf(stderr,
                "batchlab plot: %s: expected rows with a numeric load (%zu row%s at "
                "load 'log')\n",
                csv, t->n_log, t->n_log == 1 ? "" : "s");
        rc = 1;
    }
    return rc;
}

/* Fills the workload, variant and load indices of t. 0, or 1 (out of memory). */
static int load_table_index(load_table *t)
{
    size_t cw = 0, cv = 0;
    bool oom = false;
    t->wi = calloc(t->n, sizeof *t->wi);
    t->vi = calloc(t->n, sizeof *t->vi);
    t->loads = malloc(t->n * sizeof *t->loads);
    oom = !t->wi || !t->vi || !t->loads;
    for (size_t i = 0; i < t->n && !oom; i++) {
        t->wi[i] = intern(&t->wl, &t->n_w, &cw, t->rows[i].workload, &oom);
        t->vi[i] = intern(&t->vl, &t->n_v, &cv, t->rows[i].variant, &oom);
        t->loads[i] = t->rows[i].load;
    }
    if (oom) {
        fprintf(stderr, "batchlab plot: out of memory\n");
        return 1;
    }
    qsort(t->loads, t->n, sizeof *t->loads, cmp_double);
    for (size_t i = 0; i < t->n; i++)
        if (t->n_l == 0 || t->loads[t->n_l - 1] != t->loads[i])
            t->loads[t->n_l++] = t->loads[i];
    return 0;
}

/* Where variant v's points sit at load x: side by side around x, so that
 * policies with equal values stay distinguishable. */
static double dodge(const load_table *t, size_t v, double x)
{
    double range = t->loads[t->n_l - 1] - t->loads[0];
    double step = 0.02 * (range > 0 ? range : t->loads[0]);
    double at = x + ((double)v - (double)(t->n_v - 1) / 2.0) * step;
    return round(at * 1e9) / 1e9; /* short numbers in the .dat files */
}

/* One .dat file for workload w and metric m: per variant, a block of
 * "load median low high n mean" (load shifted by dodge()), then a block of
 * each seed's "load value"; the same numbers go to loads.csv. vals is
 * scratch of t->n doubles. 0 or 1 after a message. */
static int write_metric_dat(const load_table *t, size_t w, size_t m, double level, const char *path,
                            FILE *table, double *vals)
{
    eng_diag d;
    eng_diag_clear(&d);
    eng_afile g;
    if (eng_afile_open(&g, path, &d) != ENG_OK) {
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    double floor = load_log[m] ? LOG_FLOOR : -INFINITY;
    fprintf(g.f,
            "# %s, %s: per policy variant, a block of 'load median low high n mean' "
            "(low-high: the central %g %% of the seeds' values; load shifted by the "
            "variant's offset), then a block of each seed's 'load value'%s\n",
            t->wl[w], load_metrics[m], level * 100,
            load_log[m] ? "; values below 1 are written as 1 (log axis)" : "");
    char num[6][40];
    for (size_t v = 0; v < t->n_v; v++) {
        fprintf(g.f, "# %s\n", t->vl[v]);
        bool any = false;
        for (size_t l = 0; l < t->n_l; l++) {
            size_t k = 0;
            double sum = 0;
            for (size_t i = 0; i < t->n; i++)
                if (t->wi[i] == w && t->vi[i] == v && t->rows[i].load == t->loads[l] &&
                    t->rows[i].has[m])
                    sum += vals[k++] = t->rows[i].v[m];
            if (k == 0)
                continue;
            double med, lo, hi, mean = sum / (double)k;
            bl_plot_median_interval(vals, k, level, &med, &lo, &hi);
            eng_fmt_double(num[0], sizeof num[0], t->loads[l]);
            eng_fmt_double(num[1], sizeof num[1], med);
            eng_fmt_double(num[2], sizeof num[2], lo);
            eng_fmt_double(num[3], sizeof num[3], hi);
            eng_fmt_double(num[4], sizeof num[4], mean);
            eng_fmt_double(num[5], sizeof num[5], dodge(t, v, t->loads[l]));
            bl_csv_cell(table, t->wl[w]);
            fputc(',', table);
            bl_csv_cell(table, t->vl[v]);
            fprintf(table, ",%s,%s,%zu,%s,%s,%s,%s\n", load_metrics[m], num[0], k, num[1], num[2],
                    num[3], num[4]);
            fprintf(g.f, "%s %s %s %s %zu %s\n", num[5],
                    eng_fmt_double(num[1], sizeof num[1], fmax(med, floor)),
                    eng_fmt_double(num[2], sizeof num[2], fmax(lo, floor)),
                    eng_fmt_double(num[3], sizeof num[3], fmax(hi, floor)), k, num[4]);
            any = true;
        }
        if (!any)
            fprintf(g.f, "nan nan nan nan 0 nan\n");
        fprintf(g.f, "\n\n# %s: each seed\n", t->vl[v]);
        any = false;
        for (size_t i = 0; i < t->n; i++)
            if (t->wi[i] == w && t->vi[i] == v && t->rows[i].has[m]) {
                fprintf(g.f, "%s %s\n",
                        eng_fmt_double(num[0], sizeof num[0], dodge(t, v, t->rows[i].load)),
                        eng_fmt_double(num[1], sizeof num[1], fmax(t->rows[i].v[m], floor)));
                any = true;
            }
        if (!any)
            fprintf(g.f, "nan nan\n");
        fprintf(g.f, "\n\n");
    }
    if (eng_afile_commit(&g, &d) != ENG_OK) {
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    return 0;
}

/* Line style of variant v: colour, dash and point type all differ between
 * neighbours, so that two policies with equal values are both visible. */
static const int filled_pt[] = {7, 5, 9, 11, 13, 15};
static const int open_pt[] = {6, 4, 8, 10, 12, 14};
#define N_PT (sizeof filled_pt / sizeof filled_pt[0])

/* The gnuplot commands of one panel: metric m of workload w. */
static void script_panel(FILE *f, const load_table *t, size_t w, size_t m, const char *dat,
                         bool overview)
{
    fprintf(f, "set title ");
    char *title = eng_asprintf("%s: %s", t->wl[w], load_titles[m]);
    gp_str(f, overview ? load_titles[m] : title ? title : "");
    free(title);
    /* The overview's panels are small: units only, the title says what. */
    char *ylabel = overview ? eng_strdup(load_units[m])
                            : eng_asprintf("%s%s", load_titles[m],
                                           load_log[m] ? ", log scale (values < 1 at 1)" : "");
    fprintf(f, "\nset ylabel ");
    gp_str(f, ylabel ? ylabel : load_titles[m]);
    free(ylabel);
    fprintf(f, "\nset xlabel ");
    gp_str(f, overview ? "load"
                       : "load (computed, Baranov & Lyakhovets 2022; policies drawn "
                         "side by side)");
    if (load_log[m])
        fprintf(f, "\nset logscale y\nset yrange [*:*]\nset format y \"%%g\"\n");
    else
        fprintf(f, "\nunset logscale y\nset yrange [%s]\nset format y \"%%g\"\n",
                m == 3 ? "0:1.05" : "0:*");
    fprintf(f, "plot ");
    for (size_t v = 0; v < t->n_v; v++) {
        int lc = (int)v + 1, dt = (int)(v % 5) + 1;
        fprintf(f, "%s", v ? ", \\\n     " : "");
        gp_str(f, dat);
        fprintf(f,
                " index %zu using 1:2:3:4 with yerrorlines lc %d dt %d pt %d ps 1.1 lw 1.5 "
                "title ",
                2 * v, lc, dt, filled_pt[v % N_PT]);
        gp_str(f, t->vl[v]);
        fprintf(f, ", \\\n     ");
        gp_str(f, dat);
        fprintf(f, " index %zu using 1:2 with points lc %d pt %d ps 0.6 notitle", 2 * v + 1, lc,
                open_pt[v % N_PT]);
    }
    fputc('\n', f);
}

/* The script's figures for workload w: one per metric and an overview, PNG
 * then PDF where pdfcairo exists. */
static void script_workload(FILE *f, const load_table *t, size_t w, const char *dir,
                            const char *wsafe, char *const *dats)
{
    for (int k = 0; k < 2; k++) {
        const char *fmt = k == 0 ? "png" : "pdf";
        if (k == 1)
            fprintf(f, "if (strstrt(GPVAL_TERMINALS, \"pdfcairo\") > 0) {\n");
        for (size_t m = 0; m <= N_METRICS; m++) {
            bool overview = m == N_METRICS;
            char *o = overview
                          ? eng_asprintf("%s/loads-%s.%s", dir, wsafe, fmt)
                          : eng_asprintf("%s/loads-%s-%s.%s", dir, wsafe, load_metrics[m], fmt);
            gp_terminal(f, fmt, overview ? 1500 : 800, overview ? 900 : 550, o ? o : "loads");
            free(o);
            if (overview) {
                fprintf(f, "set multiplot layout 2,3 title ");
                gp_str(f, t->wl[w]);
                fputc('\n', f);
                for (size_t mm = 0; mm < N_METRICS; mm++)
                    script_panel(f, t, w, mm, dats[mm], true);
                fprintf(f, "unset multiplot\n");
            } else {
                script_panel(f, t, w, m, dats[m], false);
            }
        }
        if (k == 1)
            fprintf(f, "}\n");
    }
}

/* The sweep's output folder: --output, else the CSV's own folder. */
static char *loads_dir(const char *csv, const bl_args *a)
{
    const char *o = bl_args_value(a, "output", NULL);
    if (o)
        return eng_strdup(o);
    char *dir = eng_strdup(csv);
    char *slash = dir ? strrchr(dir, '/') : NULL;
    if (slash)
        *slash = '\0';
    else if (dir)
        strcpy(dir, ".");
    return dir;
}

/* Writes loads.csv, the .dat files and loads.gp into dir. 0 or 1. */
static int write_loads(const load_table *t, const char *csv, const char *dir, double level)
{
    char *script = eng_asprintf("%s/loads.gp", dir), *table = eng_asprintf("%s/loads.csv", dir);
    double *vals = malloc(t->n * sizeof *vals);
    eng_diag d;
    eng_diag_clear(&d);
    eng_afile tf = {0}, sf = {0};
    int rc = 0;
    if (!script || !table || !vals) {
        fprintf(stderr, "batchlab plot: out of memory\n");
        rc = 1;
    } else if (eng_mkdir_p(dir, &d) != ENG_OK || eng_afile_open(&tf, table, &d) != ENG_OK ||
               eng_afile_open(&sf, script, &d) != ENG_OK) {
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        rc = 1;
    }
    if (rc == 0) {
        char lvl[32];
        eng_fmt_double(lvl, sizeof lvl, level);
        fprintf(tf.f, "workload,variant,metric,load,n,median,low,high,mean\n");
        fprintf(sf.f,
                "# batchlab plot --loads %s: metrics against load; per policy the median "
                "over seeds with the central %s share of the seeds' values, and each "
                "seed as an open point.\n# Run: gnuplot loads.gp\n",
                csv, lvl);
        fprintf(sf.f, "set grid\nset key top left\nset offsets graph 0.03, graph 0.03, 0, 0\n"
                      "set bars 0.5\n");
    }
    for (size_t w = 0; w < t->n_w && rc == 0; w++) {
        char *wsafe = safe_name(t->wl[w]);
        char *dats[N_METRICS] = {0};
        for (size_t m = 0; m < N_METRICS && rc == 0; m++) {
            dats[m] = wsafe ? eng_asprintf("%s/loads-%s-%s.dat", dir, wsafe, load_metrics[m])
                            : NULL;
            if (!dats[m]) {
                fprintf(stderr, "batchlab plot: out of memory\n");
                rc = 1;
            } else {
                rc = write_metric_dat(t, w, m, level, dats[m], tf.f, vals);
            }
        }
        if (rc == 0)
            script_workload(sf.f, t, w, dir, wsafe, dats);
        for (size_t m = 0; m < N_METRICS; m++)
            free(dats[m]);
        free(wsafe);
    }
    if (rc == 0) {
        fprintf(sf.f, "set output\n");
        if (eng_afile_commit(&tf, &d) != ENG_OK || eng_afile_commit(&sf, &d) != ENG_OK) {
            fprintf(stderr, "batchlab plot: %s\n", d.msg);
            rc = 1;
        }
    } else {
        if (tf.f)
            eng_afile_abort(&tf);
        if (sf.f)
            eng_afile_abort(&sf);
    }
    free(vals);
    free(script);
    free(table);
    return rc;
}

static int plot_loads(const char *csv, const bl_args *a)
{
    double level = 0.9;
    const char *level_s = bl_args_value(a, "level", NULL);
    if (level_s &&
        (bl_args_double("plot", "level", level_s, &level) || !(level > 0) || !(level < 1))) {
        if (level <= 0 || level >= 1)
            fprintf(stderr, "batchlab plot: --level: expected a level in (0, 1), got '%s'\n",
                    level_s);
        return 2;
    }
    load_table t;
    int rc = load_table_read(csv, &t);
    if (rc == 0)
        rc = load_table_index(&t);
    char *dir = rc == 0 ? loads_dir(csv, a) : NULL;
    if (rc == 0 && !dir) {
        fprintf(stderr, "batchlab plot: out of memory\n");
        rc = 1;
    }
    if (rc == 0)
        rc = write_loads(&t, csv, dir, level);
    if (rc == 0 && !bl_args_flag(a, "no-render")) {
        char *script = eng_asprintf("%s/loads.gp", dir);
        rc = script ? render(script) : 1;
        free(script);
    }
    if (rc == 0) {
        printf("%s: %zu workload%s x %zu polic%s x %zu load%s", dir, t.n_w, t.n_w == 1 ? "" : "s",
               t.n_v, t.n_v == 1 ? "y" : "ies", t.n_l, t.n_l == 1 ? "" : "s");
        if (t.n_log)
            printf(" (%zu row%s at load 'log' not drawn)", t.n_log, t.n_log == 1 ? "" : "s");
        printf("\n");
    }
    free(dir);
    load_table_fini(&t);
    return rc;
}

int bl_cmd_plot(int argc, char **argv)
{
    const char *run = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
    bl_args a;
    int rc = bl_args_parse("plot", plot_opts, N_OPTS(plot_opts), argc, argv, run ? 2 : 1, &a);
    if (rc)
        return rc;
    if (a.help) {
        bl_args_usage("plot", "RUN_DIR [options]  |  --loads RESULTS.csv [options]",
                      "Draws figures with gnuplot (PNG, and PDF where pdfcairo exists).\n"
                      "RUN_DIR: a Gantt chart of the run (hosts x time, a colour per job or\n"
                      "packet) from jobs.csv, and queue length and utilization over time from\n"
                      "timeseries.csv, into RUN_DIR/plot. --loads: a sweep's mean and median\n"
                      "wait, bounded slowdown, utilization and queue length against load for\n"
                      "every policy: each seed as a point, the median over seeds with the\n"
                      "central share of the seeds' values (--level) as its bar.",
                      plot_opts, N_OPTS(plot_opts));
        bl_args_fini(&a);
        return 0;
    }
    const char *loads = bl_args_value(&a, "loads", NULL);
    if (!run == !loads) {
        fprintf(stderr, "batchlab plot: expected RUN_DIR or --loads RESULTS.csv (see batchlab "
                        "plot --help)\n");
        bl_args_fini(&a);
        return 2;
    }
    rc = run ? plot_run(run, &a) : plot_loads(loads, &a);
    bl_args_fini(&a);
    return rc;
}
