/* cli_plot_compare.c — `batchlab plot --compare DIR`: the figures of a
 * `compare` folder, one curve or bar per policy (cli_plot.c is the
 * command; `batchlab report` draws the same figures through
 * bl_plot_compare_figs).
 *
 * A compare folder holds one run folder per policy (DIR/POLICY with its
 * summary.json and jobs.csv, as `compare --out` writes them) and, when the
 * comparison was paired, DIR/paired.json. The figures:
 *
 *   cdf-wait     the distribution of the jobs' waits, one step curve per
 *                policy, on a log axis (waits below 1 s drawn at 1 s)
 *   cdf-bsld     the same for the bounded slowdown (tau 10 s, the column
 *                bounded_slowdown of jobs.csv), on a log axis
 *   class-size   mean wait per job-size class, one bar per policy
 *   class-runtime mean wait per run-time class, one bar per policy
 *   compare      mean and median wait per policy, mean bounded slowdown
 *                per policy, and, with paired.json, each pair's mean wait
 *                difference with its paired confidence interval as the bar
 *
 * The distributions are data: they come from each run's jobs.csv (its
 * rows with a wait, i.e. the jobs that started). Every other number is a
 * metric and is read from what the recorder wrote (summary.json's
 * "metrics" and "breakdowns", paired.json), never recomputed here
 * (DESIGN.md: "Breakdowns come from the recorder"). A run whose summary
 * has no "breakdowns" (older runs) has no bars in the class figures;
 * where no run has them, the figure's frame says "not recorded".
 *
 * Output (DIR/plot, or -o): cdf-wait.dat and cdf-bsld.dat (per policy a
 * block "value fraction", the fraction of the jobs with at most that
 * value, starting at "min 0"), class-size.dat and class-runtime.dat (a
 * row per class, a column per policy, "?" where absent), means.dat,
 * paired.dat, compare.gp, and each figure as PNG, SVG and (where pdfcairo
 * exists) PDF. Same inputs, same bytes, SVG included (gnuplot's SVG
 * terminal writes no date or path).
 */
#include "cli_plot.h"

#include "cli_csv.h"
#include "cli_plot_impl.h"
#include "eng_util.h"

#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

void bl_compare_runs_fini(bl_compare_runs *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->labels[i]);
        free(r->dirs[i]);
    }
    free(r->labels);
    free(r->dirs);
    free(r->paired);
    *r = (bl_compare_runs){0};
}

int bl_compare_runs_read(const char *dir, bl_compare_runs *r)
{
    *r = (bl_compare_runs){0};
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "batchlab: %s: cannot read the folder\n", dir);
        return 1;
    }
    size_t cap = 0;
    bool oom = false;
    for (struct dirent *e; (e = readdir(d)) && !oom;) {
        if (e->d_name[0] == '.')
            continue;
        char *sub = eng_asprintf("%s/%s", dir, e->d_name);
        char *sum = sub ? eng_asprintf("%s/summary.json", sub) : NULL;
        if (sum && is_file(sum)) {
            if (eng_grow(&r->labels, &cap, r->n + 1, sizeof *r->labels) != ENG_OK) {
                oom = true;
            } else {
                r->labels[r->n] = eng_strdup(e->d_name);
                r->n++;
            }
        }
        oom = oom || !sub || !sum;
        free(sub);
        free(sum);
    }
    closedir(d);
    if (!oom && r->n)
        qsort(r->labels, r->n, sizeof *r->labels, cmp_str);
    r->dirs = r->n ? calloc(r->n, sizeof *r->dirs) : NULL;
    for (size_t i = 0; i < r->n && !oom; i++)
        oom = !r->labels[i] || !(r->dirs[i] = eng_asprintf("%s/%s", dir, r->labels[i]));
    char *paired = eng_asprintf("%s/paired.json", dir);
    if (paired && is_file(paired))
        r->paired = paired;
    else
        free(paired);
    if (oom || (r->n && !r->dirs)) {
        fprintf(stderr, "batchlab: out of memory\n");
        bl_compare_runs_fini(r);
        return 1;
    }
    if (r->n == 0) {
        fprintf(stderr,
                "batchlab: %s: no run folder in it (a subfolder with summary.json, as compare "
                "--out writes them)\n",
                dir);
        return 1;
    }
    return 0;
}

json_t *bl_json_load(const char *path)
{
    json_error_t err;
    json_t *j = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
    if (!j)
        fprintf(stderr, "batchlab: %s:%d:%d: %s\n", path, err.line, err.column, err.text);
    else if (!json_is_object(j)) {
        fprintf(stderr, "batchlab: %s: expected a JSON object\n", path);
        json_decref(j);
        j = NULL;
    }
    return j;
}

double bl_json_real(const json_t *obj, const char *key)
{
    const json_t *v = json_is_object(obj) ? json_object_get(obj, key) : NULL;
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* ---- the runs' data ---- */

typedef struct cmp_run {
    double *wait, *bsld; /* sorted */
    size_t n;
    json_t *summary;
} cmp_run;

/* The waits and bounded slowdowns of path's rows (jobs.csv) that have a
 * wait; sorted. 0, or 1 after a message naming the file and line. */
static int read_jobs(const char *path, cmp_run *r)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "batchlab: %s: cannot read\n", path);
        return 1;
    }
    char *line = NULL;
    size_t cap = 0, alloc = 0;
    char *fields[BL_CSV_MAX_FIELDS];
    int c_w = -1, c_b = -1, rc = 0;
    for (long no = 1; getline(&line, &cap, f) > 0 && rc == 0; no++) {
        bl_csv_chomp(line);
        long nf = bl_csv_split(line, fields, BL_CSV_MAX_FIELDS);
        if (nf < 0 || nf > BL_CSV_MAX_FIELDS) {
            fprintf(stderr, "batchlab: %s:%ld: not a CSV line\n", path, no);
            rc = 1;
        } else if (no == 1) {
            c_w = bl_csv_column(fields, nf, "waiting_time");
            c_b = bl_csv_column(fields, nf, "bounded_slowdown");
            if (c_w < 0 || c_b < 0) {
                fprintf(stderr,
                        "batchlab: %s:1: expected the columns waiting_time and "
                        "bounded_slowdown (a batchlab jobs.csv)\n",
                        path);
                rc = 1;
            }
        } else if (nf <= (c_w > c_b ? c_w : c_b)) {
            fprintf(stderr, "batchlab: %s:%ld: expected %d fields, found %ld\n", path, no,
                    (c_w > c_b ? c_w : c_b) + 1, nf);
            rc = 1;
        } else {
            double w, b;
            if (!bl_csv_num(fields[c_w], &w) || w < 0)
                continue; /* never started: no wait */
            if (!bl_csv_num(fields[c_b], &b)) {
                fprintf(stderr, "batchlab: %s:%ld: bounded_slowdown: expected a number, got '%s'\n",
                        path, no, fields[c_b]);
                rc = 1;
            } else if (eng_grow(&r->wait, &alloc, r->n + 1, sizeof *r->wait) != ENG_OK ||
                       !(r->bsld = realloc(r->bsld, alloc * sizeof *r->bsld))) {
                fprintf(stderr, "batchlab: out of memory\n");
                rc = 1;
            } else {
                r->wait[r->n] = w;
                r->bsld[r->n++] = b;
            }
        }
    }
    if (rc == 0 && c_w < 0) {
        fprintf(stderr, "batchlab: %s: empty (expected a header line)\n", path);
        rc = 1;
    }
    free(line);
    fclose(f);
    if (r->n) {
        qsort(r->wait, r->n, sizeof *r->wait, cmp_double);
        qsort(r->bsld, r->n, sizeof *r->bsld, cmp_double);
    }
    return rc;
}

/* ---- data files ---- */

/* The empirical CDF of the sorted values v[0..n) as "value fraction"
 * lines: "min 0", then at each distinct value the share of values <= it. */
void bl_plot_cdf_write(FILE *f, const double *v, size_t n)
{
    char a[32], b[32];
    if (n == 0) {
        fprintf(f, "1 0\n"); /* an empty block would end the index */
        return;
    }
    fprintf(f, "%s 0\n", eng_fmt_double(a, sizeof a, v[0]));
    for (size_t i = 0; i < n; i++)
        if (i + 1 == n || v[i + 1] != v[i])
            fprintf(f, "%s %s\n", eng_fmt_double(a, sizeof a, v[i]),
                    eng_fmt_double(b, sizeof b, (double)(i + 1) / (double)n));
}

static void put_num(FILE *f, double v)
{
    char b[32];
    fprintf(f, " %s", isfinite(v) ? eng_fmt_double(b, sizeof b, v) : "?");
}

/* The class rows of breakdowns[kind] across the runs: keys in first-seen
 * order (the recorder's order). Returns the count; keys borrowed from the
 * summaries. */
static size_t class_keys(const cmp_run *runs, size_t n, const char *kind, const char **keys,
                         size_t max, bool *any)
{
    size_t nk = 0;
    *any = false;
    for (size_t i = 0; i < n; i++) {
        json_t *arr = json_object_get(json_object_get(runs[i].summary, "breakdowns"), kind);
        if (!json_is_array(arr))
            continue;
        *any = true;
        size_t k;
        json_t *row;
        json_array_foreach(arr, k, row)
        {
            const char *key = json_string_value(json_object_get(row, "key"));
            bool seen = !key;
            for (size_t j = 0; j < nk && !seen; j++)
                seen = strcmp(keys[j], key) == 0;
            if (!seen && nk < max)
                keys[nk++] = key;
        }
    }
    return nk;
}

static double class_value(const cmp_run *r, const char *kind, const char *key)
{
    json_t *arr = json_object_get(json_object_get(r->summary, "breakdowns"), kind);
    size_t k;
    json_t *row;
    json_array_foreach(arr, k, row)
    {
        const char *rk = json_string_value(json_object_get(row, "key"));
        if (rk && strcmp(rk, key) == 0)
            return bl_json_real(row, "wait_mean_s");
    }
    return NAN;
}

#define MAX_CLASSES 64
#define MAX_PAIRS 64

typedef struct cmp_fig {
    const bl_compare_runs *in;
    cmp_run *runs;
    const char *out;
    const char *size_keys[MAX_CLASSES], *rt_keys[MAX_CLASSES];
    size_t n_size, n_rt;
    bool has_size, has_rt;
    json_t *paired;
    size_t n_pairs;
} cmp_fig;

static int write_file(const char *dir, const char *name, void (*fill)(FILE *, const cmp_fig *),
                      const cmp_fig *c)
{
    eng_diag d;
    eng_diag_clear(&d);
    char *path = eng_asprintf("%s/%s", dir, name);
    eng_afile a;
    int rc = 0;
    if (!path || eng_afile_open(&a, path, &d) != ENG_OK) {
        fprintf(stderr, "batchlab: %s\n", path ? d.msg : "out of memory");
        rc = 1;
    } else {
        fill(a.f, c);
        if (eng_afile_commit(&a, &d) != ENG_OK) {
            fprintf(stderr, "batchlab: %s\n", d.msg);
            rc = 1;
        }
    }
    free(path);
    return rc;
}

static void fill_cdf(FILE *f, const cmp_fig *c, bool bsld)
{
    for (size_t i = 0; i < c->in->n; i++) {
        fprintf(f, "%s# policy %zu: value, share of its %zu jobs at or below it\n", i ? "\n\n" : "",
                i, c->runs[i].n);
        bl_plot_cdf_write(f, bsld ? c->runs[i].bsld : c->runs[i].wait, c->runs[i].n);
    }
}

static void fill_cdf_wait(FILE *f, const cmp_fig *c)
{
    fill_cdf(f, c, false);
}

static void fill_cdf_bsld(FILE *f, const cmp_fig *c)
{
    fill_cdf(f, c, true);
}

static void fill_class(FILE *f, const cmp_fig *c, const char *kind, const char *const *keys,
                       size_t nk)
{
    fprintf(f, "# class index, then the mean wait (s) of each policy in the class\n");
    for (size_t k = 0; k < nk; k++) {
        fprintf(f, "%zu", k);
        for (size_t i = 0; i < c->in->n; i++)
            put_num(f, class_value(&c->runs[i], kind, keys[k]));
        fputc('\n', f);
    }
    if (nk == 0)
        fprintf(f, "0 ?\n");
}

static void fill_class_size(FILE *f, const cmp_fig *c)
{
    fill_class(f, c, "size", c->size_keys, c->n_size);
}

static void fill_class_rt(FILE *f, const cmp_fig *c)
{
    fill_class(f, c, "runtime", c->rt_keys, c->n_rt);
}

static void fill_means(FILE *f, const cmp_fig *c)
{
    fprintf(f, "# policy index, mean wait (s), median wait (s), mean bounded slowdown\n");
    for (size_t i = 0; i < c->in->n; i++) {
        json_t *m = json_object_get(c->runs[i].summary, "metrics");
        fprintf(f, "%zu", i);
        put_num(f, bl_json_real(m, "wait_mean_s"));
        put_num(f, bl_json_real(m, "wait_median_s"));
        put_num(f, bl_json_real(m, "bounded_slowdown_mean"));
        fputc('\n', f);
    }
}

static void fill_paired(FILE *f, const cmp_fig *c)
{
    fprintf(f, "# pair index, mean wait difference (s), CI low, CI high (paired.json)\n");
    json_t *pairs = json_object_get(c->paired, "pairs");
    for (size_t i = 0; i < c->n_pairs; i++) {
        json_t *p = json_array_get(pairs, i);
        fprintf(f, "%zu", i);
        put_num(f, bl_json_real(p, "wait_diff_mean_s"));
        put_num(f, bl_json_real(p, "ci_lo_s"));
        put_num(f, bl_json_real(p, "ci_hi_s"));
        fputc('\n', f);
    }
    if (c->n_pairs == 0)
        fprintf(f, "0 ? ? ?\n");
}

/* ---- the script ---- */

/* Colours per policy, the same in every figure (Okabe & Ito's palette,
 * readable by colour-blind readers and in grey). */
static const char *const pol_color[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                        "#e69f00", "#56b4e9", "#000000", "#f0e442"};
#define N_COLOR (sizeof pol_color / sizeof pol_color[0])

/* On a log y axis spanning less than two decades, the decades alone are
 * one or two labels: label 2 and 5 times each decade too, up to top. */
static void log_ytics(FILE *f, double top)
{
    if (!(top < 100))
        return;
    fprintf(f, "set ytics add (\"2\" 2, \"5\" 5, \"20\" 20, \"50\" 50)\n");
}

/* The largest value of metrics.key across the runs (at least 1). */
static double max_metric(const cmp_fig *c, const char *key)
{
    double m = 1;
    for (size_t i = 0; i < c->in->n; i++) {
        double v = bl_json_real(json_object_get(c->runs[i].summary, "metrics"), key);
        if (isfinite(v) && v > m)
            m = v;
    }
    return m;
}

static double max_class(const cmp_fig *c, const char *kind, const char *const *keys, size_t nk)
{
    double m = 1;
    for (size_t i = 0; i < c->in->n; i++)
        for (size_t k = 0; k < nk; k++) {
            double v = class_value(&c->runs[i], kind, keys[k]);
            if (isfinite(v) && v > m)
                m = v;
        }
    return m;
}

static void script_xtics(FILE *f, const char *const *names, size_t n)
{
    fprintf(f, "set xtics (");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s", i ? ", " : "");
        bl_plot_gp_str(f, names[i]);
        fprintf(f, " %zu", i);
    }
    fprintf(f, ")\n");
}

/* A wait's log axis in units a reader counts in. */
#define WAIT_TICS                                                                                  \
    "set xtics (\"1 s\" 1, \"10 s\" 10, \"1 min\" 60, \"10 min\" 600, \"1 h\" 3600, "              \
    "\"10 h\" 36000, \"1 d\" 86400, \"10 d\" 864000, \"100 d\" 8640000)\n"

static void script_cdf(FILE *f, const cmp_fig *c, const char *dat, bool wait, const char *xlabel,
                       const char *title)
{
    /* The left edge below 1: the jobs at 1 (no wait) show as a step off
     * the axis, not hidden in it. */
    fprintf(f,
            "reset\nset grid\nset key top left box opaque\nset logscale x\nset xrange [0.7:*]\n"
            "set rmargin 5\n%sset yrange [0:1]\nset ytics 0.1\n"
            "set xlabel \"%s\"\nset ylabel \"share of jobs at or below\"\nset title \"%s\"\n"
            "plot ",
            wait ? WAIT_TICS : "set format x \"%.10g\"\n", xlabel, title);
    static const int dash[] = {1, 2, 4, 5, 3};
    for (size_t i = 0; i < c->in->n; i++) {
        fprintf(f,
                "%s\"%s/%s\" index %zu using ($1 < 1 ? 1 : $1):2 with steps lw 2 lc rgb \"%s\" "
                "dt %d title ",
                i ? ", \\\n     " : "", c->out, dat, i, pol_color[i % N_COLOR], dash[i % 5]);
        bl_plot_gp_str(f, c->in->labels[i]);
    }
    fputc('\n', f);
}

static void script_class(FILE *f, const cmp_fig *c, const char *kind, const char *dat,
                         const char *const *keys, size_t nk, bool any, const char *xlabel,
                         const char *title)
{
    fprintf(
        f,
        "reset\nset grid ytics\nset key outside top center horizontal box\nset style data histogram\n"
        "set style histogram clustered gap 1\nset style fill solid 0.85 border -1\n"
        "set datafile missing \"?\"\nset logscale y\nset yrange [1:*]\n"
        "set format y \"%%.10g\"\nset xlabel \"%s\"\n"
        "set ylabel \"mean wait (s, log axis; below 1 s at 1 s)\"\nset title \"%s\"\n",
        xlabel, title);
    if (nk == 0) { /* an empty frame that says why */
        fprintf(f,
                "set label 1 \"%s\" at graph 0.5,0.5 center\n"
                "unset xtics\nunset ytics\nunset logscale y\nunset ylabel\n"
                "set xrange [0:1]\nset yrange [0:1]\nunset key\nplot NaN notitle\n",
                any ? "no job in any class" : "not recorded in summary.json");
        return;
    }
    script_xtics(f, keys, nk);
    log_ytics(f, max_class(c, kind, keys, nk));
    fprintf(f, "plot ");
    bool first = true;
    for (size_t i = 0; i < c->in->n; i++) {
        /* A run without this breakdown (an older summary) has no bars: a
         * column of "?" only would make gnuplot warn. */
        if (!json_is_array(
                json_object_get(json_object_get(c->runs[i].summary, "breakdowns"), kind)))
            continue;
        fprintf(f, "%s\"%s/%s\" using (column(%zu) < 1 ? 1 : column(%zu)) lc rgb \"%s\" title ",
                first ? "" : ", \\\n     ", c->out, dat, i + 2, i + 2, pol_color[i % N_COLOR]);
        bl_plot_gp_str(f, c->in->labels[i]);
        first = false;
    }
    fputc('\n', f);
}

static void script_compare(FILE *f, const cmp_fig *c)
{
    size_t np = c->n_pairs ? 3 : 2;
    fprintf(f,
            "reset\nset multiplot layout 1,%zu title \"compare: per policy, from summary.json%s\"\n"
            "set grid ytics\nset datafile missing \"?\"\nset style fill solid 0.85 border -1\n"
            "set xrange [-0.6:%zu.6]\nset format y \"%%.10g\"\nset bmargin 4\n",
            np, c->n_pairs ? "; pairs from paired.json" : "", c->in->n - 1);
    if (c->in->n > 4)
        fprintf(f, "set xtics rotate by 30 right\n");
    script_xtics(f, (const char *const *)c->in->labels, c->in->n);
    fprintf(f,
            "set key top left box opaque\nset logscale y\nset yrange [1:*]\n"
            "set title \"wait (s; log axis, below 1 s at 1 s)\"\nset boxwidth 0.38\n%s"
            "plot \"%s/means.dat\" using ($1 - 0.2):($2 < 1 ? 1 : $2) with boxes lc rgb "
            "\"#0072b2\" title \"mean\", \\\n     \"\" using ($1 + 0.2):($3 < 1 ? 1 : $3) with "
            "boxes lc rgb \"#e69f00\" title \"median\"\n",
            max_metric(c, "wait_mean_s") < 100 && max_metric(c, "wait_median_s") < 100
                ? "set ytics add (\"2\" 2, \"5\" 5, \"20\" 20, \"50\" 50)\n"
                : "",
            c->out);
    fprintf(f, "unset ytics\nset ytics\n"); /* drops the labels added */
    log_ytics(f, max_metric(c, "bounded_slowdown_mean"));
    fprintf(
        f,
        "set boxwidth 0.6\nunset key\nset title \"mean bounded slowdown (tau 10 s; log axis)\"\n"
        "plot \"%s/means.dat\" using 1:4 with boxes lc rgb \"#009e73\" notitle\n",
        c->out);
    if (c->n_pairs) {
        json_t *pairs = json_object_get(c->paired, "pairs");
        double level = bl_json_real(c->paired, "level");
        char lv[32];
        fprintf(
            f,
            "unset logscale y\nunset ytics\nset ytics\nset xrange [-0.6:%zu.6]\nset yrange [*:*]\n"
            "set xzeroaxis lt -1\n",
            c->n_pairs - 1);
        fprintf(f, "set xtics (");
        for (size_t i = 0; i < c->n_pairs; i++) {
            json_t *p = json_array_get(pairs, i);
            const char *a = json_string_value(json_object_get(p, "a"));
            const char *b = json_string_value(json_object_get(p, "b"));
            fprintf(f, "%s", i ? ", " : "");
            bl_plot_gp_str(f, b ? b : "?");
            fprintf(f, ".\"\\nvs \".");
            bl_plot_gp_str(f, a ? a : "?");
            fprintf(f, " %zu", i);
        }
        fprintf(
            f,
            ")\nset title \"paired mean wait difference (s), %s%% CI\"\n"
            "plot \"%s/paired.dat\" using 1:2 with boxes lc rgb \"#cc79a7\" notitle, \\\n"
            "     \"\" using 1:2:3:4 with yerrorbars lc rgb \"#000000\" lw 1.5 pt 7 ps 0.5 notitle\n",
            isfinite(level) ? eng_fmt_double(lv, sizeof lv, level * 100) : "?", c->out);
    }
    fprintf(f, "unset multiplot\n");
}

static const char *const fig_names[] = {"cdf-wait", "cdf-bsld", "class-size", "class-runtime",
                                        "compare"};

static void fill_script(FILE *f, const cmp_fig *c)
{
    fprintf(f, "# batchlab plot --compare: %zu polic%s; run: gnuplot compare.gp\n", c->in->n,
            c->in->n == 1 ? "y" : "ies");
    static const char *const fmts[] = {"png", "svg", "pdf"};
    for (size_t k = 0; k < 3; k++) {
        if (k == 2)
            fprintf(f, "if (strstrt(GPVAL_TERMINALS, \"pdfcairo\") > 0) {\n");
        for (size_t g = 0; g < sizeof fig_names / sizeof fig_names[0]; g++) {
            if (!(c->in->formats & (1u << k)))
                continue;
            char *o = eng_asprintf("%s/%s.%s", c->out, fig_names[g], fmts[k]);
            bool wide = g == 4;
            bl_plot_terminal(f, fmts[k], wide ? (c->n_pairs ? 1200 : 900) : 720, wide ? 460 : 440,
                             o ? o : "compare");
            free(o);
            if (g == 0)
                script_cdf(f, c, "cdf-wait.dat", true, "wait (log axis; below 1 s drawn at 1 s)",
                           "distribution of the wait");
            else if (g == 1)
                script_cdf(f, c, "cdf-bsld.dat", false, "bounded slowdown (tau 10 s, log axis)",
                           "distribution of the bounded slowdown");
            else if (g == 2)
                script_class(f, c, "size", "class-size.dat", c->size_keys, c->n_size, c->has_size,
                             "job size (nodes or cores requested)", "mean wait by job size class");
            else if (g == 3)
                script_class(f, c, "runtime", "class-runtime.dat", c->rt_keys, c->n_rt, c->has_rt,
                             "run time", "mean wait by run-time class");
            else
                script_compare(f, c);
            fprintf(f, "unset output\n");
        }
        if (k == 2)
            fprintf(f, "}\n");
    }
}

int bl_plot_compare_figs(const bl_compare_runs *in, const char *out, bool render)
{
    cmp_fig c = {.in = in, .out = out};
    c.runs = calloc(in->n, sizeof *c.runs);
    int rc = c.runs ? 0 : 1;
    for (size_t i = 0; i < in->n && rc == 0; i++) {
        char *sum = eng_asprintf("%s/summary.json", in->dirs[i]);
        char *jobs = eng_asprintf("%s/jobs.csv", in->dirs[i]);
        if (!sum || !jobs)
            rc = 1;
        else if (!(c.runs[i].summary = bl_json_load(sum)))
            rc = 1;
        else
            rc = read_jobs(jobs, &c.runs[i]);
        free(sum);
        free(jobs);
    }
    if (rc == 0 && in->paired) {
        c.paired = bl_json_load(in->paired);
        json_t *pairs = json_object_get(c.paired, "pairs");
        if (!c.paired)
            rc = 1;
        else if (!json_is_array(pairs)) {
            fprintf(stderr, "batchlab: %s: expected an array \"pairs\"\n", in->paired);
            rc = 1;
        } else {
            c.n_pairs = json_array_size(pairs);
            if (c.n_pairs > MAX_PAIRS)
                c.n_pairs = MAX_PAIRS;
        }
    }
    if (rc == 0) {
        c.n_size = class_keys(c.runs, in->n, "size", c.size_keys, MAX_CLASSES, &c.has_size);
        c.n_rt = class_keys(c.runs, in->n, "runtime", c.rt_keys, MAX_CLASSES, &c.has_rt);
        eng_diag d;
        eng_diag_clear(&d);
        if (eng_mkdir_p(out, &d) != ENG_OK) {
            fprintf(stderr, "batchlab: %s\n", d.msg);
            rc = 1;
        }
    }
    if (rc == 0)
        rc = write_file(out, "cdf-wait.dat", fill_cdf_wait, &c) ||
             write_file(out, "cdf-bsld.dat", fill_cdf_bsld, &c) ||
             write_file(out, "class-size.dat", fill_class_size, &c) ||
             write_file(out, "class-runtime.dat", fill_class_rt, &c) ||
             write_file(out, "means.dat", fill_means, &c) ||
             write_file(out, "paired.dat", fill_paired, &c) ||
             write_file(out, "compare.gp", fill_script, &c);
    if (rc == 0 && render) {
        char *script = eng_asprintf("%s/compare.gp", out);
        rc = script ? bl_plot_render(script) : 1;
        free(script);
    }
    for (size_t i = 0; c.runs && i < in->n; i++) {
        free(c.runs[i].wait);
        free(c.runs[i].bsld);
        json_decref(c.runs[i].summary);
    }
    free(c.runs);
    json_decref(c.paired);
    return rc;
}

int bl_plot_compare(const char *dir, const bl_args *a)
{
    bl_compare_runs in;
    if (bl_compare_runs_read(dir, &in))
        return 1;
    in.formats = 7;
    const char *o = bl_args_value(a, "output", NULL);
    char *out = o ? eng_strdup(o) : eng_asprintf("%s/plot", dir);
    int rc = out ? bl_plot_compare_figs(&in, out, !bl_args_flag(a, "no-render")) : 1;
    if (rc == 0)
        printf("%s: %zu polic%s%s\n", out, in.n, in.n == 1 ? "y" : "ies",
               in.paired ? ", paired.json" : "");
    free(out);
    bl_compare_runs_fini(&in);
    return rc;
}
