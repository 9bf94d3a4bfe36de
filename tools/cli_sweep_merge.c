/* cli_sweep_merge.c — `batchlab sweep merge DIR -o CSV`: every
 * summary.json under DIR, one CSV row each, and the same rows as JSON
 * beside the CSV (see cli_sweep.c), with the paired comparison of the
 * variants that share a configuration and a seed (cli_sweep_paired.c).
 */
#include "cli_sweep.h"

#include "cli_args.h"
#include "cli_csv.h"
#include "cli_json.h"

#include "eng_json.h"
#include "eng_paired.h"
#include "eng_util.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------------ */
/* sweep merge                                                         */

/* The columns after the run's coordinates: name and summary.json key
 * (log_agreement's, from summary.json when the log has waits; the batchlab
 * commit that ran it, from the manifest). The wall-time columns come last:
 * they are the only ones that differ between two runs of the same task. */
static const struct {
    const char *column, *key;
} merge_cols[] = {
    {"jobs_input", "jobs.input"},
    {"jobs_simulated", "jobs.simulated"},
    {"jobs_dropped", "jobs.dropped"},
    {"completed", "jobs.by_final_state.COMPLETED_SUCCESSFULLY"},
    {"killed_at_walltime", "jobs.by_final_state.COMPLETED_WALLTIME_REACHED"},
    {"failed", "jobs.by_final_state.COMPLETED_FAILED"},
    {"requeues", "jobs.requeued_after_failure"},
    {"wait_mean_s", "metrics.wait_mean_s"},
    {"wait_median_s", "metrics.wait_median_s"},
    {"wait_p95_s", "metrics.wait_p95_s"},
    {"wait_max_s", "metrics.wait_max_s"},
    {"response_mean_s", "metrics.response_mean_s"},
    {"slowdown_mean", "metrics.slowdown_mean"},
    {"bounded_slowdown_mean", "metrics.bounded_slowdown_mean"},
    {"utilization", "metrics.utilization"},
    {"makespan_s", "metrics.makespan_s"},
    {"queue_length_mean", "metrics.queue_length_mean"},
    {"queue_length_max", "metrics.queue_length_max"},
    {"cost", "metrics.cost"},
    {"failures_wasted_node_s", "metrics.failures_wasted_node_s"},
    {"initialization_share", "metrics.initialization_share"},
    {"log_jobs", "log_agreement.jobs"},
    {"log_cancelled_excluded", "log_agreement.cancelled_excluded"},
    {"log_wait_mean_log", "log_agreement.wait_mean_log"},
    {"log_wait_mean_sim", "log_agreement.wait_mean_sim"},
    {"log_wait_mae_s", "log_agreement.wait_mae_s"},
    {"log_wait_spearman", "log_agreement.wait_spearman"},
    {"hosts", "platform.hosts"},
    {"workload_sha256", "manifest.inputs.workload.sha256"},
    {"git_commit", "manifest.git_commit"},
    {"policy_wall_time_s", "manifest.policy_wall_time_s"},
    {"wall_time_s", "manifest.wall_time_s"},
};

/* The run's coordinates, before merge_cols. */
static const char *const coord_cols[] = {"run", "workload", "load", "policy", "variant", "seed"};

#define N_COORDS BL_N_OPTS(coord_cols)
#define N_CELLS (N_COORDS + BL_N_OPTS(merge_cols))

/* One cell of a row: text (len bytes; NULL when missing or null) and
 * whether JSON holds it as a string. Borrowed from the flattened files. */
typedef struct cell {
    const char *text;
    size_t len;
    bool is_string;
} cell;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every folder under dir (itself included) that holds summary.json, as
 * paths relative to dir ("" for dir itself). */
static int find_runs(const char *root, const char *rel, char ***out, size_t *n, size_t *cap,
                     eng_diag *d)
{
    char *path = *rel ? eng_asprintf("%s/%s", root, rel) : eng_strdup(root);
    if (!path)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    DIR *dir = opendir(path);
    if (!dir) {
        int rc = eng_diag_set(d, ENG_IO, "%s: cannot open the folder: %s", path, strerror(errno));
        free(path);
        return rc;
    }
    int rc = ENG_OK;
    struct dirent *e;
    while (rc == ENG_OK && (e = readdir(dir))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *child = eng_asprintf("%s/%s", path, e->d_name);
        struct stat st;
        if (!child) {
            rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
        } else if (stat(child, &st) == 0 && S_ISDIR(st.st_mode)) {
            char *crel = *rel ? eng_asprintf("%s/%s", rel, e->d_name) : eng_strdup(e->d_name);
            rc = crel ? find_runs(root, crel, out, n, cap, d)
                      : eng_diag_set(d, ENG_NOMEM, "out of memory");
            free(crel);
        } else if (strcmp(e->d_name, "summary.json") == 0) {
            if (eng_grow(out, cap, *n + 1, sizeof **out) != ENG_OK ||
                !((*out)[*n] = eng_strdup(rel)))
                rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
            else
                (*n)++;
        }
        free(child);
    }
    closedir(dir);
    free(path);
    return rc;
}

/* The cell of key in j: a value of the summary (null is missing). */
static cell flat_cell(const bl_json_flat *j, const char *key)
{
    for (size_t i = 0; i < j->n; i++)
        if (strcmp(j->keys[i], key) == 0) {
            if (!j->is_string[i] && strcmp(j->values[i], "null") == 0)
                break;
            return (cell){j->values[i], j->lens[i], j->is_string[i]};
        }
    return (cell){NULL, 0, false};
}

/* A coordinate: always a string (task.json's values are strings; a load
 * may be "log"). */
static cell str_cell(const char *s)
{
    return (cell){s, s ? strlen(s) : 0, true};
}

/* As CSV: empty when missing, or when a string holds U+0000 (never a
 * string cut short). */
static void csv_cell(FILE *f, cell c)
{
    if (c.text && strlen(c.text) == c.len)
        bl_csv_cell(f, c.text);
}

/* As JSON: null when missing, the string, true/false, or the number as
 * batchlab writes it (eng_json_num: integers without a fraction, other
 * reals in their shortest exact form, which the flattened text is). */
static json_t *json_cell(cell c)
{
    if (!c.text)
        return json_null();
    if (c.is_string)
        return eng_json_strn(c.text, c.len);
    if (strcmp(c.text, "true") == 0)
        return json_true();
    if (strcmp(c.text, "false") == 0)
        return json_false();
    if (!strpbrk(c.text, ".eE")) {
        errno = 0;
        long long v = strtoll(c.text, NULL, 10);
        if (errno == 0)
            return json_integer((json_int_t)v);
    }
    return eng_json_num(strtod(c.text, NULL));
}

/* The row of one run: its coordinates from task.json (without one, the
 * workload's file name, policy, options and seed of the manifest), then
 * merge_cols from the summary. variant is the caller's buffer. */
static void run_cells(const char *rel, const bl_json_flat *s, const bl_json_flat *t, bool has_task,
                      char *variant, size_t len, cell *row)
{
    const char *policy = bl_json_flat_get(s, "manifest.policy");
    /* Without task.json: the variant from the manifest's policy and
     * options, in file order. */
    snprintf(variant, len, "%s", policy ? policy : "");
    for (size_t i = 0; i < s->n; i++)
        if (strncmp(s->keys[i], "manifest.policy_options.", 24) == 0) {
            size_t used = strlen(variant);
            snprintf(variant + used, len - used, ":%s=%s", s->keys[i] + 24, s->values[i]);
        }
    const char *wpath = bl_json_flat_get(s, "manifest.inputs.workload.path");
    row[0] = str_cell(*rel ? rel : ".");
    if (has_task) {
        for (size_t c = 1; c < N_COORDS; c++)
            row[c] = str_cell(bl_json_flat_get(t, coord_cols[c]));
    } else {
        row[1] = str_cell(wpath ? eng_basename(wpath) : "");
        row[2] = str_cell("");
        row[3] = str_cell(policy);
        row[4] = str_cell(variant);
        row[5] = str_cell(bl_json_flat_get(s, "manifest.seed"));
    }
    for (size_t c = 0; c < BL_N_OPTS(merge_cols); c++)
        row[N_COORDS + c] = flat_cell(s, merge_cols[c].key);
}

/* One run: a CSV row to f, an object to runs. */
static int merge_one(FILE *f, json_t *runs, const char *root, const char *rel, eng_diag *d)
{
    char *sp = *rel ? eng_asprintf("%s/%s/summary.json", root, rel)
                    : eng_asprintf("%s/summary.json", root);
    char *tp = *rel ? eng_asprintf("%s/%s/task.json", root, rel)
                    : eng_asprintf("%s/task.json", root);
    if (!sp || !tp) {
        free(sp);
        free(tp);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    bl_json_flat s, t;
    memset(&t, 0, sizeof t);
    int rc = bl_json_flat_read(sp, &s, d);
    bool has_task = rc == ENG_OK && bl_sweep_file_exists(tp);
    if (has_task)
        rc = bl_json_flat_read(tp, &t, d);
    if (rc == ENG_OK) {
        char variant[1024];
        cell row[N_CELLS];
        run_cells(rel, &s, &t, has_task, variant, sizeof variant, row);
        bool ok = true;
        json_t *o = json_object();
        for (size_t c = 0; c < N_CELLS; c++) {
            if (c > 0)
                fputc(',', f);
            csv_cell(f, row[c]);
            eng_json_set(o, c < N_COORDS ? coord_cols[c] : merge_cols[c - N_COORDS].column,
                         json_cell(row[c]), &ok);
        }
        fputc('\n', f);
        eng_json_push(runs, o, &ok);
        if (!ok)
            rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
        else if (ferror(f))
            rc = eng_diag_set(d, ENG_IO, "cannot write the CSV");
    }
    bl_json_flat_fini(&s);
    bl_json_flat_fini(&t);
    free(sp);
    free(tp);
    return rc;
}

/* The JSON file beside csv: its name with ".csv" replaced by ".json", or
 * ".json" added. The caller frees; NULL when out of memory. */
static char *json_path(const char *csv)
{
    size_t n = strlen(csv);
    if (eng_ends_with(csv, ".csv"))
        return eng_asprintf("%.*s.json", (int)(n - 4), csv);
    return eng_asprintf("%s.json", csv);
}

/* Writes the header and every run to the CSV and the JSON file, both
 * atomically and together: both are complete and closed before either is
 * renamed into place; on failure neither is touched. */
static int merge_write(const char *dir, char **runs, size_t n, const char *csv, const char *json,
                       const char *baseline, double tolerance_s, eng_diag *d)
{
    eng_afile f = {0}, g = {0};
    bool ok = true;
    json_t *root = json_object(), *arr = json_array();
    int rc = eng_afile_open(&f, csv, d);
    if (rc == ENG_OK)
        rc = eng_afile_open(&g, json, d);
    if (rc == ENG_OK) {
        for (size_t c = 0; c < N_CELLS; c++)
            fprintf(f.f, "%s%s", c ? "," : "",
                    c < N_COORDS ? coord_cols[c] : merge_cols[c - N_COORDS].column);
        fputc('\n', f.f);
        for (size_t i = 0; i < n && rc == ENG_OK; i++)
            rc = merge_one(f.f, arr, dir, runs[i], d);
    }
    eng_json_set(root, "runs", arr, &ok);
    json_t *paired = NULL;
    if (rc == ENG_OK)
        rc = bl_sweep_paired(dir, runs, n, baseline, tolerance_s, &paired, d);
    if (paired && json_array_size(paired) > 0)
        eng_json_set(root, "paired", paired, &ok);
    else
        json_decref(paired);
    if (rc == ENG_OK && !ok)
        rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
    if (rc == ENG_OK) {
        rc = eng_json_dumpf(root, g.f);
        if (rc == ENG_IO)
            eng_afile_fail(&g, 0, d);
        else if (rc == ENG_NOMEM)
            eng_diag_set(d, rc, "%s: out of memory", json);
    }
    if (rc == ENG_OK)
        rc = eng_afile_close(&f, d);
    if (rc == ENG_OK)
        rc = eng_afile_close(&g, d);
    if (rc == ENG_OK)
        rc = eng_afile_rename(&g, d);
    if (rc == ENG_OK)
        rc = eng_afile_rename(&f, d);
    eng_afile_abort(&f);
    eng_afile_abort(&g);
    json_decref(root);
    return rc;
}

int bl_sweep_merge(int argc, char **argv)
{
    static const bl_opt merge_opts[] = {
        {"output", 'o', BL_VALUE, "CSV", "CSV file to write (required)"},
        {"baseline", 0, BL_VALUE, "VARIANT",
         "paired comparison: the variant the others are compared with (default: each "
         "configuration's first)"},
        {"tolerance", 0, BL_VALUE, "S",
         "paired comparison: a job's wait differs when by more than S seconds (default 60)"},
    };
    const char *dir = argc > 2 && argv[2][0] != '-' ? argv[2] : NULL;
    bl_args a;
    int rc = bl_args_parse("sweep merge", merge_opts, BL_N_OPTS(merge_opts), argc, argv,
                           dir ? 3 : 2, &a);
    if (rc)
        return rc;
    if (a.help) {
        printf("usage: batchlab sweep merge DIR -o CSV\n\n"
               "Gathers every summary.json under DIR into one CSV, a row per run in the byte\n"
               "order of its folder: run,workload,load,policy,variant,seed (from the run's\n"
               "task.json; else policy, options and seed from its manifest), then");
        for (size_t c = 0; c < BL_N_OPTS(merge_cols); c++)
            printf("%s%s", c % 6 == 0 ? "\n" : " ", merge_cols[c].column);
        printf("\n(empty where a summary lacks the value; log_* from its log_agreement,\n"
               "git_commit the batchlab commit that ran it). The same rows go to a JSON file\n"
               "beside the CSV (CSV's name with .json for .csv): {\"runs\": [{column: value}]},\n"
               "numbers as numbers, null where the CSV cell is empty. Both written atomically.\n"
               "Where two variants ran the same workload, load and seed (task.json, jobs.csv),\n"
               "the JSON also holds \"paired\": each variant against the baseline, per seed\n"
               "on the same jobs and across seeds (mean of the per-seed mean wait\n"
               "differences, 95 %% t interval).\n");
        bl_args_fini(&a);
        return 0;
    }
    const char *csv = bl_args_value(&a, "output", NULL);
    const char *baseline = bl_args_value(&a, "baseline", NULL);
    const char *tol = bl_args_value(&a, "tolerance", NULL);
    double tolerance_s = ENG_PAIRED_TOLERANCE_S;
    if (tol && (bl_args_double("sweep merge", "tolerance", tol, &tolerance_s) || tolerance_s < 0)) {
        if (tolerance_s < 0)
            fprintf(stderr, "batchlab sweep merge: --tolerance: expected seconds >= 0, got '%s'\n",
                    tol);
        bl_args_fini(&a);
        return 2;
    }
    if (!dir || !csv) {
        fprintf(stderr, "batchlab sweep merge: expected DIR -o CSV (see batchlab sweep merge "
                        "--help)\n");
        bl_args_fini(&a);
        return 2;
    }
    char **runs = NULL;
    size_t n = 0, cap = 0;
    eng_diag d;
    eng_diag_clear(&d);
    rc = find_runs(dir, "", &runs, &n, &cap, &d);
    if (rc == ENG_OK && n == 0)
        rc = eng_diag_set(&d, ENG_PARSE, "%s: expected at least one summary.json below it", dir);
    char *json = NULL;
    if (rc == ENG_OK && !(json = json_path(csv)))
        rc = eng_diag_set(&d, ENG_NOMEM, "out of memory");
    if (rc == ENG_OK) {
        qsort(runs, n, sizeof *runs, cmp_str);
        rc = merge_write(dir, runs, n, csv, json, baseline, tolerance_s, &d);
    }
    if (rc == ENG_OK)
        printf("%s: %zu run%s (and %s)\n", csv, n, bl_s(n), json);
    else
        fprintf(stderr, "batchlab sweep merge: %s\n", d.msg);
    for (size_t i = 0; i < n; i++)
        free(runs[i]);
    free(runs);
    free(json);
    bl_args_fini(&a);
    return rc == ENG_OK ? 0 : 1;
}
