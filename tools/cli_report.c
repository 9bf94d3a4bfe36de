/* cli_report.c — `batchlab report DIR... [-o FILE]`: one self-contained
 * HTML page of results, for a reader who has a browser and nothing else.
 *
 * DIR is a run folder (summary.json, jobs.csv), a `compare` folder (a run
 * folder per policy, paired.json when paired) or a merged sweep (a folder
 * with results.csv from `sweep merge`). Per DIR the page holds: the
 * summary table (every scalar of summary.json's "jobs", "metrics",
 * "log_agreement" and "energy", a column per policy), the fairness across
 * users and the breakdowns (by size, run-time class, user, queue,
 * partition and pool), the paired comparisons of paired.json, the figures
 * of `plot --compare` (cli_plot_compare.c) as SVG inlined in the page,
 * and the manifest of every run (inputs with their SHA-256, options,
 * commit). A sweep's page holds its results table. What the recorder did
 * not write (an older run without "breakdowns") is shown as "not
 * recorded"; nothing is recomputed here (DESIGN.md: "Breakdowns come from
 * the recorder").
 *
 * The page works offline: no external URL, script or font; its style is
 * in the page. Every string from the inputs is HTML-escaped. It is the
 * same bytes for the same inputs: it holds no date and no path of the
 * figures' temporary folder, the manifest's wall times (the one field that
 * differs between two runs of the same command) are left out, and
 * gnuplot's SVG has neither. The ids of each inlined SVG get a prefix of
 * their own, so that two figures' definitions do not clash.
 *
 * Exit status: 0 (prints nothing: the page is the output); 1 bad input,
 * with a message naming the file, or gnuplot failing; 2 usage error.
 */
#include "cli.h"

#include "cli_args.h"
#include "cli_csv.h"
#include "cli_plot_impl.h"
#include "eng_util.h"

#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const bl_opt report_opts[] = {
    {"output", 'o', BL_VALUE, "FILE", "the page (default DIR/report.html, the first DIR's)"},
};

/* ---- HTML ---- */

static void esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        case '\'':
            fputs("&#39;", f);
            break;
        default:
            fputc(*s, f);
        }
    }
}

/* An integral value with its thousands grouped by a thin space. */
static void put_grouped(FILE *f, double v)
{
    char b[40];
    int n = snprintf(b, sizeof b, "%.0f", fabs(v));
    if (v < 0)
        fputc('-', f);
    for (int i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0)
            fputs("&#8201;", f);
        fputc(b[i], f);
    }
}

/* A number as a reader wants it: an integer in full, else 6 significant
 * digits (from 10 000 on, the integer part), thousands grouped. */
static void put_num(FILE *f, double v)
{
    if (!isfinite(v))
        fputs("n/a", f);
    else if (v == floor(v) && fabs(v) < 1e15)
        put_grouped(f, v);
    else if (fabs(v) >= 1e4 && fabs(v) < 1e15)
        put_grouped(f, round(v)); /* 6 digits or more: the integer part */
    else
        fprintf(f, "%.6g", v);
}

/* A JSON scalar as a table cell's text. */
static void put_value(FILE *f, const json_t *v)
{
    if (!v)
        fputs("<span class=\"na\">not recorded</span>", f);
    else if (json_is_number(v))
        put_num(f, json_number_value(v));
    else if (json_is_string(v))
        esc(f, json_string_value(v));
    else if (json_is_true(v))
        fputs("true", f);
    else if (json_is_false(v))
        fputs("false", f);
    else if (json_is_null(v))
        fputs("n/a", f);
    else {
        char *t = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
        esc(f, t);
        free(t);
    }
}

static void cell(FILE *f, const json_t *v)
{
    fprintf(f, "<td%s>", json_is_number(v) || json_is_null(v) ? " class=\"n\"" : "");
    put_value(f, v);
    fputs("</td>", f);
}

/* ---- one folder ---- */

typedef struct rep_dir {
    const char *dir;
    bl_compare_runs runs;
    json_t **sum; /* per run */
    json_t *paired;
    bool sweep;
    int id; /* its number in the page, for anchors */
} rep_dir;

static void rep_dir_fini(rep_dir *r)
{
    for (size_t i = 0; r->sum && i < r->runs.n; i++)
        json_decref(r->sum[i]);
    free(r->sum);
    json_decref(r->paired);
    bl_compare_runs_fini(&r->runs);
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool has_file(const char *dir, const char *name)
{
    char *p = eng_asprintf("%s/%s", dir, name);
    bool ok = p && is_file(p);
    free(p);
    return ok;
}

static const char *base_name(const char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    const char *s = path + n;
    while (s > path && s[-1] != '/')
        s--;
    return s;
}

/* Reads what the page of dir needs. 0, or 1 after a message. */
static int rep_dir_read(const char *dir, rep_dir *r)
{
    r->dir = dir;
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "batchlab report: %s: not a folder\n", dir);
        return 1;
    }
    if (has_file(dir, "summary.json")) {
        r->runs.n = 1;
        r->runs.labels = calloc(1, sizeof *r->runs.labels);
        r->runs.dirs = calloc(1, sizeof *r->runs.dirs);
        if (!r->runs.labels || !r->runs.dirs || !(r->runs.dirs[0] = eng_strdup(dir))) {
            fprintf(stderr, "batchlab report: out of memory\n");
            return 1;
        }
    } else if (has_file(dir, "results.csv")) {
        r->sweep = true;
        return 0;
    } else if (bl_compare_runs_read(dir, &r->runs)) {
        return 1;
    }
    r->sum = calloc(r->runs.n, sizeof *r->sum);
    if (!r->sum)
        return 1;
    for (size_t i = 0; i < r->runs.n; i++) {
        char *p = eng_asprintf("%s/summary.json", r->runs.dirs[i]);
        r->sum[i] = p ? bl_json_load(p) : NULL;
        free(p);
        if (!r->sum[i])
            return 1;
        if (!r->runs.labels[i]) { /* a run folder alone: its policy's name */
            json_t *pol = json_object_get(json_object_get(r->sum[i], "manifest"), "policy");
            r->runs.labels[i] = eng_strdup(json_is_string(pol) ? json_string_value(pol)
                                                               : base_name(dir));
        }
    }
    if (r->runs.paired && !(r->paired = bl_json_load(r->runs.paired)))
        return 1;
    return 0;
}

/* ---- sections ---- */

static void head_row(FILE *f, const rep_dir *r, const char *first)
{
    fprintf(f, "<thead><tr><th>");
    esc(f, first);
    fprintf(f, "</th>");
    for (size_t i = 0; i < r->runs.n; i++) {
        fprintf(f, "<th>");
        esc(f, r->runs.labels[i]);
        fprintf(f, "</th>");
    }
    fprintf(f, "</tr></thead>\n");
}

/* The headline: a row per policy, the columns a paper's table has. */
static void section_headline(FILE *f, const rep_dir *r)
{
    static const struct {
        const char *obj, *key, *title;
    } cols[] = {
        {"jobs", "simulated", "jobs"},
        {"metrics", "wait_mean_s", "mean wait (s)"},
        {"metrics", "wait_median_s", "median wait (s)"},
        {"metrics", "wait_p95_s", "p95 wait (s)"},
        {"metrics", "bounded_slowdown_mean", "mean bounded slowdown"},
        {"metrics", "utilization", "utilization"},
        {"metrics", "makespan_s", "makespan (s)"},
        {"metrics", "queue_length_mean", "mean queue length"},
    };
    fprintf(f, "<table class=\"t\" id=\"d%d-headline\"><thead><tr><th>policy</th>", r->id);
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
        fprintf(f, "<th>%s</th>", cols[c].title);
    fprintf(f, "<th>killed at walltime</th></tr></thead><tbody>\n");
    for (size_t i = 0; i < r->runs.n; i++) {
        fprintf(f, "<tr><th>");
        esc(f, r->runs.labels[i]);
        fprintf(f, "</th>");
        for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
            cell(f, json_object_get(json_object_get(r->sum[i], cols[c].obj), cols[c].key));
        cell(f,
             json_object_get(json_object_get(json_object_get(r->sum[i], "jobs"), "by_final_state"),
                             "COMPLETED_WALLTIME_REACHED"));
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</tbody></table>\n");
}

/* The summary: every scalar of the given objects, a row each, a column per
 * run; keys in first-seen order. */
static void section_summary(FILE *f, const rep_dir *r)
{
    static const char *const objs[] = {"jobs", "metrics", "log_agreement", "energy"};
    fprintf(f,
            "<h3 id=\"d%d-summary\">Summary</h3>\n<p>Every value of summary.json's jobs, "
            "metrics, log_agreement and energy.</p>\n<table class=\"t\" id=\"d%d-summary-table\">",
            r->id, r->id);
    head_row(f, r, "summary.json");
    fprintf(f, "<tbody>\n");
    for (size_t o = 0; o < sizeof objs / sizeof objs[0]; o++) {
        json_t *keys = json_array();
        for (size_t i = 0; i < r->runs.n; i++) {
            const char *k;
            json_t *v;
            json_object_foreach(json_object_get(r->sum[i], objs[o]), k, v)
            {
                if (json_is_object(v) || json_is_array(v))
                    continue;
                bool seen = false;
                for (size_t j = 0; j < json_array_size(keys) && !seen; j++)
                    seen = strcmp(json_string_value(json_array_get(keys, j)), k) == 0;
                if (!seen)
                    json_array_append_new(keys, json_string(k));
            }
        }
        if (json_array_size(keys))
            fprintf(f, "<tr class=\"g\"><th colspan=\"%zu\">%s</th></tr>\n", r->runs.n + 1,
                    objs[o]);
        for (size_t j = 0; j < json_array_size(keys); j++) {
            const char *k = json_string_value(json_array_get(keys, j));
            fprintf(f, "<tr><th>");
            esc(f, k);
            fprintf(f, "</th>");
            for (size_t i = 0; i < r->runs.n; i++)
                cell(f, json_object_get(json_object_get(r->sum[i], objs[o]), k));
            fprintf(f, "</tr>\n");
        }
        json_decref(keys);
    }
    fprintf(f, "</tbody></table>\n");
}

static void section_fairness(FILE *f, const rep_dir *r)
{
    static const char *const keys[] = {"users", "bsld_user_mean_min", "bsld_user_mean_max",
                                       "bsld_user_mean_cv", "jain_index"};
    fprintf(f,
            "<h3 id=\"d%d-fairness\">Fairness across users</h3>\n"
            "<p>Over the users' mean bounded slowdowns; Jain's index is 1 when every user's is "
            "equal.</p>\n<table class=\"t\" id=\"d%d-fairness-table\">",
            r->id, r->id);
    head_row(f, r, "fairness");
    fprintf(f, "<tbody>\n");
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        fprintf(f, "<tr><th>%s</th>", keys[k]);
        for (size_t i = 0; i < r->runs.n; i++) {
            json_t *fa = json_object_get(r->sum[i], "fairness");
            cell(f, fa ? json_object_get(fa, keys[k]) : NULL);
        }
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</tbody></table>\n");
}

static const struct {
    const char *key, *title;
} bd_kinds[] = {
    {"size", "job size class (units requested)"},
    {"runtime", "run-time class"},
    {"user", "user"},
    {"queue", "queue"},
    {"partition", "partition"},
    {"pool", "pool"},
};

static const char *const bd_cols[] = {"jobs",      "wait_mean_s", "wait_median_s", "wait_p95_s",
                                      "bsld_mean", "killed",      "utilization"};

/* One breakdown: a row per key (first-seen order), per run its columns. */
static void breakdown_table(FILE *f, const rep_dir *r, size_t kind)
{
    const char *kk = bd_kinds[kind].key;
    size_t ncol = strcmp(kk, "pool") == 0 ? 7 : 6;
    json_t *keys = json_array();
    for (size_t i = 0; i < r->runs.n; i++) {
        json_t *arr = json_object_get(json_object_get(r->sum[i], "breakdowns"), kk);
        size_t x;
        json_t *row;
        json_array_foreach(arr, x, row)
        {
            const char *k = json_string_value(json_object_get(row, "key"));
            bool seen = !k;
            for (size_t j = 0; j < json_array_size(keys) && !seen; j++)
                seen = strcmp(json_string_value(json_array_get(keys, j)), k) == 0;
            if (!seen)
                json_array_append_new(keys, json_string(k));
        }
    }
    fprintf(f, "<div><h4>By ");
    esc(f, bd_kinds[kind].title);
    fprintf(f, "</h4>\n<table class=\"t\" id=\"d%d-bd-%s\"><thead><tr><th>%s</th><th>policy</th>",
            r->id, kk, kk);
    for (size_t c = 0; c < ncol; c++)
        fprintf(f, "<th>%s</th>", bd_cols[c]);
    fprintf(f, "</tr></thead><tbody>\n");
    /* A row per key and policy: the key's rows together, a rule between
     * keys. */
    for (size_t j = 0; j < json_array_size(keys); j++) {
        const char *k = json_string_value(json_array_get(keys, j));
        for (size_t i = 0; i < r->runs.n; i++) {
            fprintf(f, "<tr%s>", i == 0 ? " class=\"k\"" : "");
            if (i == 0) {
                fprintf(f, "<th rowspan=\"%zu\">", r->runs.n);
                esc(f, k);
                fprintf(f, "</th>");
            }
            fprintf(f, "<td>");
            esc(f, r->runs.labels[i]);
            fprintf(f, "</td>");
            json_t *arr = json_object_get(json_object_get(r->sum[i], "breakdowns"), kk),
                   *hit = NULL;
            size_t x;
            json_t *row;
            json_array_foreach(arr, x, row)
            {
                const char *rk = json_string_value(json_object_get(row, "key"));
                if (!hit && rk && strcmp(rk, k) == 0)
                    hit = row;
            }
            if (!hit)
                fprintf(f, "<td colspan=\"%zu\" class=\"na\">%s</td>", ncol,
                        arr ? "no row" : "not recorded");
            for (size_t c = 0; hit && c < ncol; c++)
                cell(f, json_object_get(hit, bd_cols[c]));
            fprintf(f, "</tr>\n");
        }
    }
    fprintf(f, "</tbody></table></div>\n");
    json_decref(keys);
}

static void section_breakdowns(FILE *f, const rep_dir *r)
{
    fprintf(f, "<h3 id=\"d%d-breakdowns\">Breakdowns</h3>\n", r->id);
    bool any = false;
    for (size_t i = 0; i < r->runs.n; i++)
        any = any || json_is_object(json_object_get(r->sum[i], "breakdowns"));
    if (!any) {
        fprintf(f,
                "<p class=\"na\" id=\"d%d-bd-none\">Breakdowns: not recorded (summary.json "
                "has no \"breakdowns\").</p>\n",
                r->id);
        return;
    }
    json_t *b = NULL;
    for (size_t i = 0; i < r->runs.n && !b; i++)
        b = json_object_get(json_object_get(r->sum[i], "breakdowns"), "bounds");
    if (b) {
        fprintf(f, "<p>Jobs measured as the global wait metrics; run-time class bounds (s) ");
        put_value(f, json_object_get(b, "runtime_s"));
        fprintf(f, ", bounded slowdown's tau ");
        put_value(f, json_object_get(b, "bsld_tau_s"));
        fprintf(f, " s.</p>\n");
    }
    fprintf(f, "<div class=\"bds\">\n");
    for (size_t k = 0; k < sizeof bd_kinds / sizeof bd_kinds[0]; k++)
        breakdown_table(f, r, k);
    fprintf(f, "</div>\n");
}

static void section_paired(FILE *f, const rep_dir *r)
{
    static const char *const head[] = {"baseline", "tolerance_s", "level", "resamples", "seed"};
    static const char *const cols[] = {"a",
                                       "b",
                                       "jobs",
                                       "wait_diff_mean_s",
                                       "wait_diff_median_s",
                                       "better_share",
                                       "worse_share",
                                       "ci_lo_s",
                                       "ci_hi_s"};
    fprintf(f, "<h3 id=\"d%d-paired\">Paired comparisons</h3>\n", r->id);
    if (!r->paired) {
        fprintf(f, "<p class=\"na\">Paired comparisons: not recorded (no paired.json).</p>\n");
        return;
    }
    fprintf(f, "<p>paired.json:");
    for (size_t k = 0; k < sizeof head / sizeof head[0]; k++) {
        fprintf(f, " %s ", head[k]);
        put_value(f, json_object_get(r->paired, head[k]));
        fprintf(f, "%s", k + 1 < sizeof head / sizeof head[0] ? "," : ".");
    }
    fprintf(f, "</p>\n<table class=\"t\" id=\"d%d-paired-table\"><thead><tr>", r->id);
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
        fprintf(f, "<th>%s</th>", cols[c]);
    fprintf(f, "</tr></thead><tbody>\n");
    size_t x;
    json_t *p;
    json_array_foreach(json_object_get(r->paired, "pairs"), x, p)
    {
        fprintf(f, "<tr>");
        for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
            cell(f, json_object_get(p, cols[c]));
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</tbody></table>\n");
}

/* The manifest flattened: "inputs.workload.sha256" and its value. The wall
 * times are left out (the page is the same for the same inputs). */
static void manifest_rows(FILE *f, const json_t *v, const char *prefix)
{
    const char *k;
    json_t *x;
    json_object_foreach((json_t *)v, k, x)
    {
        if (strcmp(k, "wall_time_s") == 0 || strcmp(k, "policy_wall_time_s") == 0)
            continue;
        char *name = prefix[0] ? eng_asprintf("%s.%s", prefix, k) : eng_strdup(k);
        if (json_is_object(x) && json_object_size(x)) {
            manifest_rows(f, x, name ? name : "?");
        } else {
            fprintf(f, "<tr><th>");
            esc(f, name);
            fprintf(f, "</th><td class=\"%s\">", strstr(k, "sha256") ? "h" : "v");
            if (json_is_number(x)) { /* as recorded: a seed or a Unix time is no quantity */
                char b[32];
                fputs(eng_fmt_double(b, sizeof b, json_number_value(x)), f);
            } else {
                put_value(f, x);
            }
            fprintf(f, "</td></tr>\n");
        }
        free(name);
    }
}

static void section_manifest(FILE *f, const rep_dir *r)
{
    fprintf(f,
            "<h3 id=\"d%d-manifest\">Manifest</h3>\n<p>What made each run (summary.json's "
            "\"manifest\"; its wall times are left out).</p>\n",
            r->id);
    for (size_t i = 0; i < r->runs.n; i++) {
        fprintf(f, "<h4>");
        esc(f, r->runs.labels[i]);
        fprintf(f, "</h4>\n<table class=\"t m\" id=\"d%d-manifest-%zu\"><tbody>\n", r->id, i);
        json_t *m = json_object_get(r->sum[i], "manifest");
        if (json_is_object(m))
            manifest_rows(f, m, "");
        else
            fprintf(f, "<tr><td class=\"na\">not recorded</td></tr>\n");
        fprintf(f, "</tbody></table>\n");
    }
}

/* An SVG file of gnuplot inlined: from "<svg" on, its ids prefixed with
 * "fN-". 0, or 1 after a message. */
static int inline_svg(FILE *f, const char *path, int n)
{
    size_t len = 0;
    eng_diag d;
    eng_diag_clear(&d);
    FILE *in = fopen(path, "rb");
    if (!in) {
        fprintf(stderr, "batchlab report: %s: cannot read\n", path);
        return 1;
    }
    char *s = NULL;
    size_t cap = 0;
    char buf[8192];
    for (size_t k; (k = fread(buf, 1, sizeof buf, in)) > 0;) {
        if (eng_grow(&s, &cap, len + k + 1, 1) != ENG_OK) {
            fclose(in);
            free(s);
            return 1;
        }
        memcpy(s + len, buf, k);
        len += k;
    }
    fclose(in);
    char *start = s ? strstr((s[len] = '\0', s), "<svg") : NULL;
    if (!start) {
        fprintf(stderr, "batchlab report: %s: not an SVG file\n", path);
        free(s);
        return 1;
    }
    static const char *const pats[] = {"id='", "id=\"", "href='#", "href=\"#"};
    for (char *p = start; *p;) {
        size_t hit = 0;
        for (size_t k = 0; k < 4 && !hit; k++)
            if (strncmp(p, pats[k], strlen(pats[k])) == 0)
                hit = strlen(pats[k]);
        if (hit) {
            fwrite(p, 1, hit, f);
            fprintf(f, "f%d-", n);
            p += hit;
        } else {
            fputc(*p++, f);
        }
    }
    free(s);
    return 0;
}

static const struct {
    const char *name, *caption;
} figs[] = {
    {"compare", "Mean and median wait and mean bounded slowdown per policy (summary.json); "
                "with paired.json, each pair's mean wait difference and its confidence "
                "interval."},
    {"cdf-wait", "Distribution of the wait, per policy (jobs.csv; log axis, waits below 1 s at "
                 "1 s)."},
    {"cdf-bsld", "Distribution of the bounded slowdown (tau 10 s), per policy (jobs.csv)."},
    {"class-size", "Mean wait by job size class (summary.json's breakdowns)."},
    {"class-runtime", "Mean wait by run-time class (summary.json's breakdowns)."},
};
#define N_FIGS (sizeof figs / sizeof figs[0])

/* Removes what bl_plot_compare_figs wrote into tmp, and tmp. */
static void remove_tmp(const char *tmp)
{
    static const char *const data[] = {"cdf-wait.dat",      "cdf-bsld.dat", "class-size.dat",
                                       "class-runtime.dat", "means.dat",    "paired.dat",
                                       "compare.gp"};
    for (size_t i = 0; i < sizeof data / sizeof data[0] + N_FIGS; i++) {
        char *p = i < sizeof data / sizeof data[0]
                      ? eng_asprintf("%s/%s", tmp, data[i])
                      : eng_asprintf("%s/%s.svg", tmp, figs[i - sizeof data / sizeof data[0]].name);
        if (p)
            unlink(p);
        free(p);
    }
    rmdir(tmp);
}

static int section_figures(FILE *f, rep_dir *r, int *fig_no)
{
    const char *td = getenv("TMPDIR");
    char *tmp = eng_asprintf("%s/batchlab-report.XXXXXX", td && td[0] ? td : "/tmp");
    if (!tmp || !mkdtemp(tmp)) {
        fprintf(stderr, "batchlab report: cannot create a temporary folder\n");
        free(tmp);
        return 1;
    }
    r->runs.formats = 2; /* SVG only */
    int rc = bl_plot_compare_figs(&r->runs, tmp, true);
    fprintf(f, "<h3 id=\"d%d-figures\">Figures</h3>\n<div class=\"figs\">\n", r->id);
    for (size_t g = 0; g < N_FIGS && rc == 0; g++) {
        char *p = eng_asprintf("%s/%s.svg", tmp, figs[g].name);
        fprintf(f, "<figure id=\"d%d-fig-%s\"%s>\n", r->id, figs[g].name,
                strcmp(figs[g].name, "compare") == 0 ? " class=\"wide\"" : "");
        rc = p ? inline_svg(f, p, (*fig_no)++) : 1;
        fprintf(f, "<figcaption>Figure %d. ", *fig_no);
        esc(f, figs[g].caption);
        fprintf(f, "</figcaption></figure>\n");
        free(p);
    }
    fprintf(f, "</div>\n");
    remove_tmp(tmp);
    free(tmp);
    return rc;
}

/* A merged sweep: results.csv as it is, a row per run. */
static int section_sweep(FILE *f, const rep_dir *r)
{
    char *path = eng_asprintf("%s/results.csv", r->dir);
    FILE *in = path ? fopen(path, "r") : NULL;
    if (!in) {
        fprintf(stderr, "batchlab report: %s: cannot read\n", path ? path : r->dir);
        free(path);
        return 1;
    }
    fprintf(f,
            "<h3 id=\"d%d-results\">Results</h3>\n<p>results.csv, a row per run of the sweep "
            "(its figures: batchlab plot --loads).</p>\n<div class=\"wide\"><table class=\"t\" "
            "id=\"d%d-results-table\">\n",
            r->id, r->id);
    char *line = NULL, *fields[BL_CSV_MAX_FIELDS];
    size_t cap = 0;
    int rc = 0;
    for (long no = 1; getline(&line, &cap, in) > 0 && rc == 0; no++) {
        bl_csv_chomp(line);
        long nf = bl_csv_split(line, fields, BL_CSV_MAX_FIELDS);
        if (nf < 0 || nf > BL_CSV_MAX_FIELDS) {
            fprintf(stderr, "batchlab report: %s:%ld: not a CSV line\n", path, no);
            rc = 1;
            break;
        }
        fprintf(f, "%s<tr>", no == 1 ? "<thead>" : no == 2 ? "<tbody>" : "");
        for (long i = 0; i < nf; i++) {
            double v;
            bool num = no > 1 && bl_csv_num(fields[i], &v);
            fprintf(f, "<%s%s>", no == 1 ? "th" : "td", num ? " class=\"n\"" : "");
            if (num)
                put_num(f, v);
            else
                esc(f, fields[i]);
            fprintf(f, "</%s>", no == 1 ? "th" : "td");
        }
        fprintf(f, "</tr>%s\n", no == 1 ? "</thead>" : "");
    }
    fprintf(f, "</tbody></table></div>\n");
    free(line);
    fclose(in);
    free(path);
    return rc;
}

static const char page_style[] =
    "body{font-family:sans-serif;margin:1.5em auto;max-width:78em;padding:0 1em;color:#222;"
    "line-height:1.4}\n"
    "h1{font-size:1.5em;margin-bottom:0.2em}h2{border-bottom:2px solid #0072b2;"
    "padding-bottom:0.15em;margin-top:2em}h3{margin-top:1.6em}\n"
    "table.t{border-collapse:collapse;margin:0.5em 0 1em;font-size:0.9em}\n"
    "table.t th,table.t td{border:1px solid #ccc;padding:0.2em 0.5em;vertical-align:top}\n"
    "table.t thead th{background:#e8eef5}table.t tbody th{text-align:left;font-weight:normal;"
    "background:#f6f6f6}\n"
    "tr.g th{background:#dde6ee!important;font-weight:bold!important}\n"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}td.h{font-family:monospace;"
    "font-size:0.85em;word-break:break-all}\n"
    ".na{color:#888;font-style:italic}.wide{overflow-x:auto}\n"
    "div.bds{display:flex;flex-wrap:wrap;gap:0 2.5em}tr.k>*{border-top:2px solid #999}\n"
    "div.figs{display:grid;grid-template-columns:repeat(auto-fit,minmax(34em,1fr));gap:1em}\n"
    "figure{margin:0 0 1em}figure svg{width:100%;height:auto;border:1px solid #ddd}\n"
    "figure.wide{grid-column:1/-1}figure.wide svg{max-width:56em}\n"
    "figcaption{font-size:0.9em;color:#444}nav ul{columns:2}\n";

static int write_dir(FILE *f, rep_dir *r, int *fig_no)
{
    fprintf(f, "<h2 id=\"d%d\">", r->id);
    esc(f, base_name(r->dir));
    fprintf(f, " — %s</h2>\n",
            r->sweep                                                                ? "a sweep"
            : r->runs.n == 1 && !r->runs.paired && has_file(r->dir, "summary.json") ? "a run"
                                                                                    : "compare");
    if (r->sweep)
        return section_sweep(f, r);
    fprintf(f, "<p>%zu polic%s: ", r->runs.n, r->runs.n == 1 ? "y" : "ies");
    for (size_t i = 0; i < r->runs.n; i++) {
        fprintf(f, "%s", i ? ", " : "");
        esc(f, r->runs.labels[i]);
    }
    fprintf(f, ".</p>\n");
    section_headline(f, r);
    int rc = section_figures(f, r, fig_no);
    section_paired(f, r);
    section_summary(f, r);
    section_fairness(f, r);
    section_breakdowns(f, r);
    section_manifest(f, r);
    return rc;
}

static void write_nav(FILE *f, rep_dir *dirs, size_t n)
{
    static const char *const parts[][2] = {
        {"figures", "Figures"},   {"paired", "Paired comparisons"}, {"summary", "Summary"},
        {"fairness", "Fairness"}, {"breakdowns", "Breakdowns"},     {"manifest", "Manifest"},
    };
    fprintf(f, "<nav><ul>\n");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "<li><a href=\"#d%d\">", dirs[i].id);
        esc(f, base_name(dirs[i].dir));
        fprintf(f, "</a>: ");
        if (dirs[i].sweep)
            fprintf(f, "<a href=\"#d%d-results\">Results</a>", dirs[i].id);
        for (size_t k = 0; !dirs[i].sweep && k < sizeof parts / sizeof parts[0]; k++)
            fprintf(f, "%s<a href=\"#d%d-%s\">%s</a>", k ? ", " : "", dirs[i].id, parts[k][0],
                    parts[k][1]);
        fprintf(f, "</li>\n");
    }
    fprintf(f, "</ul></nav>\n");
}

int bl_cmd_report(int argc, char **argv)
{
    int n_pos = 1;
    while (n_pos < argc && argv[n_pos][0] != '-')
        n_pos++;
    char **pos = argv + 1;
    size_t np = (size_t)(n_pos - 1);
    bl_args a;
    int rc = bl_args_parse("report", report_opts, BL_N_OPTS(report_opts), argc, argv, n_pos, &a);
    if (rc)
        return rc;
    if (a.help) {
        bl_args_usage("report", "DIR... [-o FILE]",
                      "Writes one self-contained HTML page (no external file, script or font)\n"
                      "of a run folder, a compare folder (a run folder per policy, paired.json\n"
                      "when paired) or a merged sweep (results.csv): the summary table, the\n"
                      "paired comparisons, the figures of plot --compare as inline SVG, the\n"
                      "fairness and breakdowns of summary.json, and every run's manifest.\n"
                      "The same inputs give the same bytes. Prints nothing.",
                      report_opts, BL_N_OPTS(report_opts));
        bl_args_fini(&a);
        return 0;
    }
    if (np == 0) {
        fprintf(stderr, "batchlab report: expected at least one DIR (see batchlab report "
                        "--help)\n");
        bl_args_fini(&a);
        return 2;
    }
    const char *o = bl_args_value(&a, "output", NULL);
    char *out = o ? eng_strdup(o) : eng_asprintf("%s/report.html", pos[0]);
    rep_dir *dirs = calloc(np, sizeof *dirs);
    rc = out && dirs ? 0 : 1;
    for (size_t i = 0; i < np && rc == 0; i++) {
        dirs[i].id = (int)i + 1;
        rc = rep_dir_read(pos[i], &dirs[i]);
    }
    eng_diag d;
    eng_diag_clear(&d);
    eng_afile af = {0};
    if (rc == 0 && eng_afile_open(&af, out, &d) != ENG_OK) {
        fprintf(stderr, "batchlab report: %s\n", d.msg);
        rc = 1;
    }
    if (rc == 0) {
        FILE *f = af.f;
        fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                   "<title>batchlab report: ");
        for (size_t i = 0; i < np; i++) {
            fprintf(f, "%s", i ? ", " : "");
            esc(f, base_name(pos[i]));
        }
        fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>batchlab report</h1>\n",
                page_style);
        write_nav(f, dirs, np);
        int fig_no = 0;
        for (size_t i = 0; i < np && rc == 0; i++)
            rc = write_dir(f, &dirs[i], &fig_no);
        fprintf(f, "</body>\n</html>\n");
        if (rc != 0)
            eng_afile_abort(&af);
        else if (eng_afile_commit(&af, &d) != ENG_OK) {
            fprintf(stderr, "batchlab report: %s\n", d.msg);
            rc = 1;
        }
    }
    for (size_t i = 0; dirs && i < np; i++)
        rep_dir_fini(&dirs[i]);
    free(dirs);
    free(out);
    bl_args_fini(&a);
    return rc;
}
