/* cli_sweep_merge.c — `batchlab sweep merge DIR -o CSV`: every
 * summary.json under DIR, one CSV row each (see cli_sweep.c).
 */
#include "cli_sweep.h"

#include "cli_args.h"
#include "cli_json.h"

#include "eng_util.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------------ */
/* sweep merge                                                         */

/* The CSV columns after the run's coordinates: name and summary.json key.
 * The wall-time columns come last: they are the only ones that differ
 * between two runs of the same task. */
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
    {"hosts", "platform.hosts"},
    {"workload_sha256", "manifest.inputs.workload.sha256"},
    {"policy_wall_time_s", "manifest.policy_wall_time_s"},
    {"wall_time_s", "manifest.wall_time_s"},
};

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

/* A number of the summary as CSV: "null" (not finite) becomes empty. */
static const char *num_cell(const char *v)
{
    return v && strcmp(v, "null") != 0 ? v : "";
}

static int merge_one(FILE *f, const char *root, const char *rel, eng_diag *d)
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
        const char *policy = bl_json_flat_get(&s, "manifest.policy");
        /* Without task.json: the variant from the manifest's policy and
         * options, in file order. */
        char variant[1024];
        snprintf(variant, sizeof variant, "%s", policy ? policy : "");
        for (size_t i = 0; i < s.n; i++)
            if (strncmp(s.keys[i], "manifest.policy_options.", 24) == 0) {
                size_t used = strlen(variant);
                snprintf(variant + used, sizeof variant - used, ":%s=%s", s.keys[i] + 24,
                         s.values[i]);
            }
        const char *seed = bl_json_flat_get(&s, "manifest.seed");
        const char *wpath = bl_json_flat_get(&s, "manifest.inputs.workload.path");
        bl_csv_cell(f, *rel ? rel : ".");
        fputc(',', f);
        bl_csv_cell(f, has_task ? bl_json_flat_get(&t, "workload")
                       : wpath  ? eng_basename(wpath)
                                : "");
        fputc(',', f);
        bl_csv_cell(f, has_task ? bl_json_flat_get(&t, "load") : "");
        fputc(',', f);
        bl_csv_cell(f, has_task ? bl_json_flat_get(&t, "policy") : policy);
        fputc(',', f);
        bl_csv_cell(f, has_task ? bl_json_flat_get(&t, "variant") : variant);
        fputc(',', f);
        bl_csv_cell(f, has_task ? bl_json_flat_get(&t, "seed") : seed);
        for (size_t c = 0; c < BL_N_OPTS(merge_cols); c++) {
            fputc(',', f);
            bl_csv_cell(f, num_cell(bl_json_flat_get(&s, merge_cols[c].key)));
        }
        fputc('\n', f);
        if (ferror(f))
            rc = eng_diag_set(d, ENG_IO, "cannot write the CSV");
    }
    bl_json_flat_fini(&s);
    bl_json_flat_fini(&t);
    free(sp);
    free(tp);
    return rc;
}

int bl_sweep_merge(int argc, char **argv)
{
    static const bl_opt merge_opts[] = {
        {"output", 'o', BL_VALUE, "CSV", "CSV file to write (required)"},
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
        printf("\n(empty where a summary lacks the value). Written atomically.\n");
        bl_args_fini(&a);
        return 0;
    }
    const char *csv = bl_args_value(&a, "output", NULL);
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
    eng_afile f = {0};
    if (rc == ENG_OK) {
        qsort(runs, n, sizeof *runs, cmp_str);
        rc = eng_afile_open(&f, csv, &d);
    }
    if (rc == ENG_OK) {
        fputs("run,workload,load,policy,variant,seed", f.f);
        for (size_t c = 0; c < BL_N_OPTS(merge_cols); c++)
            fprintf(f.f, ",%s", merge_cols[c].column);
        fputc('\n', f.f);
        for (size_t i = 0; i < n && rc == ENG_OK; i++)
            rc = merge_one(f.f, dir, runs[i], &d);
        if (rc == ENG_OK)
            rc = eng_afile_commit(&f, &d);
        else
            eng_afile_abort(&f);
    }
    if (rc == ENG_OK)
        printf("%s: %zu run%s\n", csv, n, bl_s(n));
    else
        fprintf(stderr, "batchlab sweep merge: %s\n", d.msg);
    for (size_t i = 0; i < n; i++)
        free(runs[i]);
    free(runs);
    bl_args_fini(&a);
    return rc == ENG_OK ? 0 : 1;
}
