/* cli_plot_loads.c — `batchlab plot --loads RESULTS.csv`: a sweep's
 * metrics against load for every policy (cli_plot.c is the command).
 *
 * A sweep (RESULTS.csv from `batchlab sweep merge`): for every workload and
 * each of wait_mean_s, wait_median_s, bounded_slowdown_mean, utilization and
 * queue_length_mean, against the load level for every policy variant: each
 * seed's value as an open point, and a line through the median over seeds
 * with the central --level share (default 0.9: 5th to 95th percentile) of
 * the seeds' values as its bar. Percentiles of the values themselves, not a
 * Student-t interval of the mean: a handful of seeds of a skewed metric gave
 * intervals below zero. Below 5 seeds a point's bar is the seeds' min to
 * max: percentiles interpolated between 3 values are a range no seed had;
 * the titles say which bars a figure has. Waits and slowdowns are drawn on
 * a log axis (values below 1 at 1), the queue length too when its positive
 * values span more than a factor 100 (values below the decade under the
 * smallest at that decade); a panel with values below its floor says so in
 * its label. Every tick label is a plain decimal (TICK_FORMAT). Each
 * policy has its own colour, dash and point type, and its points are
 * shifted slightly along the load axis, so that two policies with equal
 * values (EASY and conservative often) both stay visible. Rows
 * whose load is "log" (not rescaled) have no place on a load axis and are
 * counted, not drawn. DIR (default: the CSV's folder) receives loads.csv
 * (every point: n, median, low, high, mean), one .dat per workload and
 * metric, loads.gp, and loads-WORKLOAD-METRIC.png/.pdf plus an overview
 * loads-WORKLOAD.png/.pdf.
 */
#include "cli_plot.h"

#include "cli_csv.h"
#include "cli_plot_impl.h"
#include "eng_util.h"

#include <errno.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const load_metrics[] = {"wait_mean_s", "wait_median_s", "bounded_slowdown_mean",
                                           "utilization", "queue_length_mean"};
static const char *const load_titles[] = {"mean wait (s)", "median wait (s)",
                                          "mean bounded slowdown (tau = 10 s)", "utilization",
                                          "mean queue length (jobs)"};
/* Waits and slowdowns span orders of magnitude between policies and loads:
 * they are always drawn on a log axis, values below 1 at 1 (a median wait
 * of 0 s would otherwise vanish). The queue length goes on a log axis when
 * its values span decades (QUEUE_LOG_SPAN); utilization never does. */
static const bool load_log[] = {true, true, true, false, false};
static const char *const load_units[] = {"s", "s", "", "busy share", "jobs"};
#define N_METRICS (sizeof load_metrics / sizeof load_metrics[0])
#define M_QUEUE 4
#define M_UTIL 3
#define LOG_FLOOR 1.0
#define QUEUE_LOG_SPAN 100.0
/* Every tick label of every panel, x and y, in one format: plain decimals
 * up to 10 digits ("%g" wrote 1e+06 beside 100000). */
#define TICK_FORMAT "%.10g"

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

bool bl_plot_median_interval(double *v, size_t n, double level, double *median, double *lo,
                             double *hi)
{
    if (n == 0) {
        *median = *lo = *hi = NAN;
        return false;
    }
    qsort(v, n, sizeof *v, cmp_double);
    *median = gsl_stats_median_from_sorted_data(v, 1, n);
    if (n < BL_PLOT_MIN_QUANTILE_N) {
        *lo = v[0];
        *hi = v[n - 1];
        return false;
    }
    *lo = gsl_stats_quantile_from_sorted_data(v, 1, n, (1.0 - level) / 2.0);
    *hi = gsl_stats_quantile_from_sorted_data(v, 1, n, (1.0 + level) / 2.0);
    return true;
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
    if (!bl_csv_num(fields[c_l], &r->load) || !(r->load > 0)) {
        fprintf(stderr,
                "batchlab plot: %s:%ld: load: expected a positive number or 'log', "
                "got '%s'\n",
                csv, line, fields[c_l]);
        return 1;
    }
    for (size_t m = 0; m < N_METRICS; m++) {
        if (!fields[c_m[m]][0])
            continue; /* not finite in the summary */
        if (!bl_csv_num(fields[c_m[m]], &r->v[m])) {
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
    char *buf = NULL, *fields[BL_CSV_MAX_FIELDS];
    size_t cap = 0, rcap = 0;
    long line = 0;
    int rc = 0, c[3 + N_METRICS];
    while (rc == 0 && getline(&buf, &cap, f) >= 0) {
        line++;
        bl_csv_chomp(buf);
        long nf = bl_csv_split(buf, fields, BL_CSV_MAX_FIELDS);
        if (nf < 0 || nf > BL_CSV_MAX_FIELDS) {
            fprintf(stderr, "batchlab plot: %s:%ld: expected CSV fields\n", csv, line);
            rc = 1;
        } else if (line == 1) {
            bool ok = (c[0] = bl_csv_column(fields, nf, "workload")) >= 0;
            ok = (c[1] = bl_csv_column(fields, nf, "load")) >= 0 && ok;
            ok = (c[2] = bl_csv_column(fields, nf, "variant")) >= 0 && ok;
            for (size_t m = 0; m < N_METRICS; m++)
                ok = (c[3 + m] = bl_csv_column(fields, nf, load_metrics[m])) >= 0 && ok;
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

/* The seeds' values of metric m at workload w, variant v and load index l
 * into vals: their count, and their median, bar and mean (NaN without
 * values). */
static size_t point_stats(const load_table *t, size_t w, size_t v, size_t l, size_t m, double level,
                          double *vals, double *med, double *lo, double *hi, double *mean)
{
    size_t k = 0;
    double sum = 0;
    for (size_t i = 0; i < t->n; i++)
        if (t->wi[i] == w && t->vi[i] == v && t->rows[i].load == t->loads[l] && t->rows[i].has[m])
            sum += vals[k++] = t->rows[i].v[m];
    *mean = k ? sum / (double)k : NAN;
    bl_plot_median_interval(vals, k, level, med, lo, hi);
    return k;
}

/* How one panel (a workload's metric) draws its values: on a log axis or
 * not, where values below the log axis' floor go, and what its label says
 * about them. */
typedef struct panel_axis {
    bool log;
    double floor;        /* values below it are drawn at it; -inf on a linear axis */
    bool median_below;   /* some median is below the floor */
    bool median_nonzero; /* ... and not every such median is 0 */
    bool value_below;    /* some seed's value or bar end is below the floor */
} panel_axis;

/* The axis of metric m for workload w, decided from the data: waits and
 * slowdowns on a log axis from 1; the queue length on a log axis when its
 * positive values span more than QUEUE_LOG_SPAN, from the decade below its
 * smallest positive value (so that a 0 stays apart from it). vals is
 * scratch of t->n doubles. */
static panel_axis panel_axis_of(const load_table *t, size_t w, size_t m, double level, double *vals)
{
    panel_axis ax = {.log = load_log[m], .floor = load_log[m] ? LOG_FLOOR : -INFINITY};
    if (m == M_QUEUE) {
        double lo_pos = INFINITY, hi_pos = 0;
        for (size_t i = 0; i < t->n; i++)
            if (t->wi[i] == w && t->rows[i].has[m] && t->rows[i].v[m] > 0) {
                lo_pos = fmin(lo_pos, t->rows[i].v[m]);
                hi_pos = fmax(hi_pos, t->rows[i].v[m]);
            }
        if (hi_pos > QUEUE_LOG_SPAN * lo_pos) {
            ax.log = true;
            ax.floor = pow(10.0, ceil(log10(lo_pos)) - 1);
        }
    }
    if (!ax.log)
        return ax;
    for (size_t v = 0; v < t->n_v; v++)
        for (size_t l = 0; l < t->n_l; l++) {
            double med, lo, hi, mean;
            if (!point_stats(t, w, v, l, m, level, vals, &med, &lo, &hi, &mean))
                continue;
            if (med < ax.floor) {
                ax.median_below = true;
                ax.median_nonzero = ax.median_nonzero || med != 0;
            }
            ax.value_below = ax.value_below || lo < ax.floor || vals[0] < ax.floor;
        }
    return ax;
}

/* What a log axis' label says about its floor: "; median 0 drawn at 1",
 * "; medians below 1 drawn at 1", "; values below 1 drawn at 1" or
 * nothing. */
static void floor_note(const panel_axis *ax, char *buf, size_t size)
{
    char fl[40];
    eng_fmt_double(fl, sizeof fl, ax->floor);
    if (!ax->log || (!ax->median_below && !ax->value_below))
        snprintf(buf, size, "%s", "");
    else if (ax->median_below && !ax->median_nonzero)
        snprintf(buf, size, "; median 0 drawn at %s", fl);
    else
        snprintf(buf, size, "; %s below %s drawn at %s", ax->median_below ? "medians" : "values",
                 fl, fl);
}

/* What the bars of workload w are, from the seeds per point: the central
 * level share (5 seeds or more), min to max (fewer), or both. */
static void bars_note(const load_table *t, size_t w, double level, double *vals, char *buf,
                      size_t size)
{
    size_t n_min = SIZE_MAX, n_max = 0;
    for (size_t m = 0; m < N_METRICS; m++)
        for (size_t v = 0; v < t->n_v; v++)
            for (size_t l = 0; l < t->n_l; l++) {
                double med, lo, hi, mean;
                size_t k = point_stats(t, w, v, l, m, level, vals, &med, &lo, &hi, &mean);
                if (k) {
                    n_min = k < n_min ? k : n_min;
                    n_max = k > n_max ? k : n_max;
                }
            }
    char pct[40];
    eng_fmt_double(pct, sizeof pct, level * 100);
    if (n_max <= 1)
        snprintf(buf, size, "one seed per point: no bars");
    else if (n_max < BL_PLOT_MIN_QUANTILE_N)
        snprintf(buf, size, "bars: min to max of the seeds' values (fewer than %d seeds)",
                 BL_PLOT_MIN_QUANTILE_N);
    else if (n_min >= BL_PLOT_MIN_QUANTILE_N)
        snprintf(buf, size, "bars: central %s %% of the seeds' values", pct);
    else
        snprintf(buf, size,
                 "bars: central %s %% of the seeds' values, min to max where fewer than %d seeds",
                 pct, BL_PLOT_MIN_QUANTILE_N);
}

/* One .dat file for workload w and metric m: per variant, a block of
 * "load median low high n mean" (load shifted by dodge()), then a block of
 * each seed's "load value"; the same numbers go to loads.csv. vals is
 * scratch of t->n doubles. 0 or 1 after a message. */
static int write_metric_dat(const load_table *t, size_t w, size_t m, double level, const char *path,
                            const panel_axis *ax, FILE *table, double *vals)
{
    eng_diag d;
    eng_diag_clear(&d);
    eng_afile g;
    if (eng_afile_open(&g, path, &d) != ENG_OK) {
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    double floor = ax->floor;
    char fl[40];
    eng_fmt_double(fl, sizeof fl, floor);
    fprintf(g.f,
            "# %s, %s: per policy variant, a block of 'load median low high n mean' "
            "(low-high: the central %g %% of the seeds' values, or their min to max where "
            "n < %d; load shifted by the variant's offset), then a block of each seed's "
            "'load value'%s%s%s\n",
            t->wl[w], load_metrics[m], level * 100, BL_PLOT_MIN_QUANTILE_N,
            ax->log ? "; values below " : "", ax->log ? fl : "",
            ax->log ? " are written at it (log axis)" : "");
    char num[6][40];
    for (size_t v = 0; v < t->n_v; v++) {
        fprintf(g.f, "# %s\n", t->vl[v]);
        bool any = false;
        for (size_t l = 0; l < t->n_l; l++) {
            double med, lo, hi, mean;
            size_t k = point_stats(t, w, v, l, m, level, vals, &med, &lo, &hi, &mean);
            if (k == 0)
                continue;
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

/* Writes "a\nb" as one gnuplot string: two lines (b NULL: a alone). */
static void gp_str2(FILE *f, const char *a, const char *b)
{
    if (!b) {
        bl_plot_gp_str(f, a);
        return;
    }
    char *s = eng_asprintf("%s\x01%s", a, b);
    if (!s) {
        bl_plot_gp_str(f, a);
        return;
    }
    fputc('"', f);
    for (const char *p = s; *p; p++) {
        if (*p == '\x01')
            fputs("\\n", f);
        else {
            if (*p == '"' || *p == '\\')
                fputc('\\', f);
            fputc(*p, f);
        }
    }
    fputc('"', f);
    free(s);
}

/* The gnuplot commands of one panel: metric m of workload w, on axis ax;
 * bars says what the bars are (in the title of a figure of its own; the
 * overview says it once). */
static void script_panel(FILE *f, const load_table *t, size_t w, size_t m, const char *dat,
                         const panel_axis *ax, const char *bars, bool overview)
{
    fprintf(f, "set title ");
    char *title = eng_asprintf("%s: %s", t->wl[w], load_titles[m]);
    if (overview)
        bl_plot_gp_str(f, load_titles[m]);
    else
        gp_str2(f, title ? title : load_titles[m], bars);
    free(title);
    /* The overview's panels are small: units only, the title says what. */
    char note[160];
    floor_note(ax, note, sizeof note);
    const char *what = overview ? load_units[m] : load_titles[m];
    char *ylabel = eng_asprintf("%s%s%s", what,
                                !ax->log  ? ""
                                : what[0] ? ", log scale"
                                          : "log scale",
                                note);
    fprintf(f, "\nset ylabel ");
    bl_plot_gp_str(f, ylabel ? ylabel : what);
    free(ylabel);
    fprintf(f, "\nset xlabel ");
    bl_plot_gp_str(f, overview ? "load"
                               : "load (computed, Baranov & Lyakhovets 2022; policies drawn "
                                 "side by side)");
    if (ax->log)
        fprintf(f, "\nset logscale y\nset yrange [*:*]\n");
    else
        fprintf(f, "\nunset logscale y\nset yrange [%s]\n", m == M_UTIL ? "0:1.05" : "0:*");
    fprintf(f, "plot ");
    for (size_t v = 0; v < t->n_v; v++) {
        int lc = (int)v + 1, dt = (int)(v % 5) + 1;
        fprintf(f, "%s", v ? ", \\\n     " : "");
        bl_plot_gp_str(f, dat);
        fprintf(f,
                " index %zu using 1:2:3:4 with yerrorlines lc %d dt %d pt %d ps 1.1 lw 1.5 "
                "title ",
                2 * v, lc, dt, filled_pt[v % N_PT]);
        bl_plot_gp_str(f, t->vl[v]);
        fprintf(f, ", \\\n     ");
        bl_plot_gp_str(f, dat);
        fprintf(f, " index %zu using 1:2 with points lc %d pt %d ps 0.6 notitle", 2 * v + 1, lc,
                open_pt[v % N_PT]);
    }
    fputc('\n', f);
}

/* The script's figures for workload w: one per metric and an overview, PNG
 * then PDF where pdfcairo exists. */
static void script_workload(FILE *f, const load_table *t, size_t w, const char *dir,
                            const char *wsafe, char *const *dats, const panel_axis *axes,
                            const char *bars)
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
            bl_plot_terminal(f, fmt, overview ? 1500 : 800, overview ? 900 : 550, o ? o : "loads");
            free(o);
            if (overview) {
                fprintf(f, "set multiplot layout 2,3 title ");
                gp_str2(f, t->wl[w], bars);
                fputc('\n', f);
                for (size_t mm = 0; mm < N_METRICS; mm++)
                    script_panel(f, t, w, mm, dats[mm], &axes[mm], bars, true);
                fprintf(f, "unset multiplot\n");
            } else {
                script_panel(f, t, w, m, dats[m], &axes[m], bars, false);
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
                "over seeds with a bar, the central %s share of the seeds' values (their "
                "min to max where fewer than %d), and each seed as an open point.\n"
                "# Run: gnuplot loads.gp\n",
                csv, lvl, BL_PLOT_MIN_QUANTILE_N);
        fprintf(sf.f,
                "set grid\nset key top left\nset offsets graph 0.03, graph 0.03, 0, 0\n"
                "set bars 0.5\nset format x \"%s\"\nset format y \"%s\"\n",
                TICK_FORMAT, TICK_FORMAT);
    }
    for (size_t w = 0; w < t->n_w && rc == 0; w++) {
        char *wsafe = safe_name(t->wl[w]);
        char *dats[N_METRICS] = {0};
        panel_axis axes[N_METRICS];
        char bars[128];
        bars_note(t, w, level, vals, bars, sizeof bars);
        for (size_t m = 0; m < N_METRICS && rc == 0; m++) {
            axes[m] = panel_axis_of(t, w, m, level, vals);
            dats[m] = wsafe ? eng_asprintf("%s/loads-%s-%s.dat", dir, wsafe, load_metrics[m])
                            : NULL;
            if (!dats[m]) {
                fprintf(stderr, "batchlab plot: out of memory\n");
                rc = 1;
            } else {
                rc = write_metric_dat(t, w, m, level, dats[m], &axes[m], tf.f, vals);
            }
        }
        if (rc == 0)
            script_workload(sf.f, t, w, dir, wsafe, dats, axes, bars);
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

int bl_plot_loads(const char *csv, const bl_args *a)
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
        rc = script ? bl_plot_render(script) : 1;
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
