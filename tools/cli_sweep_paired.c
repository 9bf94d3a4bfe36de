/* cli_sweep_paired.c — the paired comparison of a sweep's merge: within
 * one configuration (workload and load), each variant against the
 * baseline variant, seed by seed on the same jobs (eng_paired.h), and the
 * mean of the per-seed mean wait differences with a t interval across
 * seeds. Reads each run's task.json (its coordinates; runs without one
 * are not paired) and jobs.csv (job_id, waiting_time, final_state; runs
 * without one are not paired either). The baseline is --baseline VARIANT,
 * else the variant of the configuration's first run in the order of
 * DIR/tasks.txt (which `sweep expand` writes in the grid's order of the
 * policies: the first policy given), runs it does not list after them in
 * the byte order of their folders.
 */
#include "cli_sweep.h"

#include "cli_csv.h"
#include "cli_json.h"

#include "eng_json.h"
#include "eng_paired.h"
#include "eng_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One run's coordinates (heap strings). */
typedef struct prun {
    const char *rel;
    size_t rank; /* its line in tasks.txt, else after them all */
    char *workload, *load, *variant, *seed;
} prun;

static int cmp_rank(const void *x, const void *y)
{
    const prun *a = x, *b = y;
    return (a->rank > b->rank) - (a->rank < b->rank);
}

/* Ranks each run by its line in dir/tasks.txt (a task's --out folder
 * ending in /REL); the others keep their order after the listed ones. */
static void rank_runs(const char *dir, prun *runs, size_t m)
{
    char *path = eng_asprintf("%s/tasks.txt", dir);
    char **lines = NULL;
    size_t n = 0;
    eng_diag d;
    if (!path || !bl_sweep_file_exists(path) || bl_sweep_read_lines(path, &lines, &n, &d))
        n = 0;
    for (size_t i = 0; i < m; i++)
        runs[i].rank = n + i;
    for (size_t k = 0; k < n; k++) {
        char *out = bl_task_out_dir(lines[k]);
        size_t len = out ? strlen(out) : 0;
        for (size_t i = 0; i < m && out; i++) {
            size_t rl = strlen(runs[i].rel);
            if (len > rl && out[len - rl - 1] == '/' && strcmp(out + len - rl, runs[i].rel) == 0)
                runs[i].rank = k;
        }
        free(out);
        free(lines[k]);
    }
    free(lines);
    free(path);
    /* ranks are distinct: a sort by them alone is deterministic */
    qsort(runs, m, sizeof *runs, cmp_rank);
}

static void prun_fini(prun *r)
{
    free(r->workload);
    free(r->load);
    free(r->variant);
    free(r->seed);
}

static bool same(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

/* r's coordinates from DIR/REL/task.json; false when it has none or no
 * jobs.csv. */
static bool read_coords(const char *dir, const char *rel, prun *r)
{
    memset(r, 0, sizeof *r);
    r->rel = rel;
    char *tp = eng_asprintf("%s/%s/task.json", dir, rel);
    char *jp = eng_asprintf("%s/%s/jobs.csv", dir, rel);
    bool ok = tp && jp && bl_sweep_file_exists(tp) && bl_sweep_file_exists(jp);
    bl_json_flat t;
    eng_diag d;
    if (ok && bl_json_flat_read(tp, &t, &d) == ENG_OK) {
        const char *w = bl_json_flat_get(&t, "workload"), *l = bl_json_flat_get(&t, "load");
        const char *v = bl_json_flat_get(&t, "variant"), *s = bl_json_flat_get(&t, "seed");
        if (w && l && v && s) {
            r->workload = eng_strdup(w);
            r->load = eng_strdup(l);
            r->variant = eng_strdup(v);
            r->seed = eng_strdup(s);
        }
        bl_json_flat_fini(&t);
        ok = r->workload && r->load && r->variant && r->seed;
    } else {
        ok = false;
    }
    if (!ok)
        prun_fini(r);
    free(tp);
    free(jp);
    return ok;
}

/* A run's jobs from its jobs.csv: numbers and waits (NAN unless the job
 * was measured: completed, killed at its requested time or by its
 * policy). */
typedef struct pjobs {
    int64_t *id;
    double *wait;
    size_t n, cap;
} pjobs;

static int read_jobs(const char *dir, const char *rel, pjobs *j, eng_diag *d)
{
    memset(j, 0, sizeof *j);
    char *path = eng_asprintf("%s/%s/jobs.csv", dir, rel);
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f) {
        int rc = path ? eng_diag_set(d, ENG_IO, "%s: cannot open", path)
                      : eng_diag_set(d, ENG_NOMEM, "out of memory");
        free(path);
        return rc;
    }
    char *line = NULL, *fields[BL_CSV_MAX_FIELDS];
    size_t len = 0, cap_w = 0;
    int c_id = -1, c_wait = -1, c_state = -1, rc = ENG_OK;
    for (long no = 1; rc == ENG_OK && getline(&line, &len, f) > 0; no++) {
        bl_csv_chomp(line);
        long nf = bl_csv_split(line, fields, BL_CSV_MAX_FIELDS);
        if (no == 1) {
            c_id = bl_csv_column(fields, nf, "job_id");
            c_wait = bl_csv_column(fields, nf, "waiting_time");
            c_state = bl_csv_column(fields, nf, "final_state");
            if (c_id < 0 || c_wait < 0 || c_state < 0)
                rc = eng_diag_set(d, ENG_PARSE,
                                  "%s:1: expected the columns job_id, waiting_time and "
                                  "final_state",
                                  path);
            continue;
        }
        double id, w;
        if (nf <= c_id || nf <= c_wait || nf <= c_state || !bl_csv_num(fields[c_id], &id)) {
            rc = eng_diag_set(d, ENG_PARSE, "%s:%ld: expected a job's row", path, no);
            break;
        }
        const char *st = fields[c_state];
        bool measured = strcmp(st, "COMPLETED_SUCCESSFULLY") == 0 ||
                        strcmp(st, "COMPLETED_WALLTIME_REACHED") == 0 ||
                        strcmp(st, "COMPLETED_KILLED") == 0;
        if (!measured || !bl_csv_num(fields[c_wait], &w))
            w = NAN;
        if (eng_grow(&j->id, &j->cap, j->n + 1, sizeof *j->id) != ENG_OK ||
            eng_grow(&j->wait, &cap_w, j->n + 1, sizeof *j->wait) != ENG_OK) {
            rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
            break;
        }
        j->id[j->n] = (int64_t)id;
        j->wait[j->n++] = w;
    }
    free(line);
    fclose(f);
    free(path);
    return rc;
}

static void pjobs_fini(pjobs *j)
{
    free(j->id);
    free(j->wait);
}

/* The per-seed comparison of runs a and b, as an object of per_seed;
 * *mean its mean difference. */
static int pair_seed(const char *dir, const prun *a, const prun *b, const eng_paired_opts *o,
                     json_t *per_seed, double *mean, double *better, double *worse, eng_diag *d)
{
    pjobs ja, jb;
    int rc = read_jobs(dir, a->rel, &ja, d);
    if (rc == ENG_OK && (rc = read_jobs(dir, b->rel, &jb, d)) != ENG_OK)
        pjobs_fini(&ja);
    if (rc != ENG_OK)
        return rc;
    eng_paired p;
    eng_paired_run ra = {ja.id, ja.wait, ja.n}, rb = {jb.id, jb.wait, jb.n};
    rc = eng_paired_compare(&ra, &rb, o, &p);
    pjobs_fini(&ja);
    pjobs_fini(&jb);
    if (rc != ENG_OK)
        return eng_diag_set(d, rc, "out of memory");
    bool ok = true;
    json_t *s = json_object();
    eng_json_set(s, "seed", eng_json_str(a->seed), &ok);
    eng_json_set(s, "jobs", json_integer((json_int_t)p.jobs), &ok);
    eng_json_set(s, "left_out", json_integer((json_int_t)(p.left_out_a + p.left_out_b)), &ok);
    eng_json_set(s, "wait_diff_mean_s", eng_json_num(p.diff_mean_s), &ok);
    eng_json_set(s, "wait_diff_median_s", eng_json_num(p.diff_median_s), &ok);
    eng_json_set(s, "better_share", eng_json_num(p.better_share), &ok);
    eng_json_set(s, "worse_share", eng_json_num(p.worse_share), &ok);
    eng_json_push(per_seed, s, &ok);
    *mean = p.diff_mean_s;
    *better = p.better_share;
    *worse = p.worse_share;
    return ok ? ENG_OK : eng_diag_set(d, ENG_NOMEM, "out of memory");
}

/* Variant v against baseline base in the configuration of run c: one
 * element of "paired" (nothing when no seed has both). */
static int pair_variant(const char *dir, const prun *runs, size_t n, const prun *c,
                        const char *base, const char *v, const eng_paired_opts *o, json_t *out,
                        eng_diag *d)
{
    double *x = malloc((n ? n : 1) * sizeof *x);
    if (!x)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    json_t *per_seed = json_array();
    long double better = 0, worse = 0;
    size_t k = 0;
    int rc = ENG_OK;
    for (size_t i = 0; i < n && rc == ENG_OK; i++) {
        const prun *a = &runs[i];
        if (!same(a->workload, c->workload) || !same(a->load, c->load) || !same(a->variant, base))
            continue;
        for (size_t j = 0; j < n && rc == ENG_OK; j++) {
            const prun *b = &runs[j];
            if (!same(b->workload, c->workload) || !same(b->load, c->load) ||
                !same(b->variant, v) || !same(b->seed, a->seed))
                continue;
            double bt = 0, wr = 0;
            rc = pair_seed(dir, a, b, o, per_seed, &x[k], &bt, &wr, d);
            if (rc == ENG_OK && !isnan(x[k])) {
                better += bt;
                worse += wr;
                k++;
            }
            break;
        }
    }
    bool ok = true;
    if (rc == ENG_OK && json_array_size(per_seed) > 0) {
        eng_paired_seeds s;
        eng_paired_across(x, k, o->level, &s);
        json_t *e = json_object();
        eng_json_set(e, "workload", eng_json_str(c->workload), &ok);
        eng_json_set(e, "load", eng_json_str(c->load), &ok);
        eng_json_set(e, "a", eng_json_str(base), &ok);
        eng_json_set(e, "b", eng_json_str(v), &ok);
        eng_json_set(e, "tolerance_s", eng_json_num(o->tolerance_s), &ok);
        eng_json_set(e, "level", eng_json_num(o->level), &ok);
        eng_json_set(e, "seeds", json_integer((json_int_t)s.seeds), &ok);
        eng_json_set(e, "wait_diff_mean_s", eng_json_num(s.mean_s), &ok);
        eng_json_set(e, "wait_diff_sd_s", eng_json_num(s.sd_s), &ok);
        eng_json_set(e, "ci_lo_s", eng_json_num(s.ci_lo_s), &ok);
        eng_json_set(e, "ci_hi_s", eng_json_num(s.ci_hi_s), &ok);
        eng_json_set(e, "better_share_mean", eng_json_num(k ? (double)(better / k) : NAN), &ok);
        eng_json_set(e, "worse_share_mean", eng_json_num(k ? (double)(worse / k) : NAN), &ok);
        eng_json_set(e, "per_seed", per_seed, &ok);
        eng_json_push(out, e, &ok);
    } else {
        json_decref(per_seed);
    }
    free(x);
    if (rc == ENG_OK && !ok)
        rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
    return rc;
}

int bl_sweep_paired(const char *dir, char *const *rels, size_t n, const char *baseline,
                    double tolerance_s, json_t **out, eng_diag *d)
{
    *out = NULL;
    prun *runs = calloc(n ? n : 1, sizeof *runs);
    json_t *arr = json_array();
    if (!runs || !arr) {
        free(runs);
        json_decref(arr);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        m += read_coords(dir, rels[i], &runs[m]);
    rank_runs(dir, runs, m);
    eng_paired_opts o = {.tolerance_s = tolerance_s, .level = ENG_PAIRED_LEVEL};
    int rc = ENG_OK;
    /* each configuration once, at its first run */
    for (size_t i = 0; i < m && rc == ENG_OK; i++) {
        bool first = true;
        for (size_t k = 0; k < i && first; k++)
            first = !(same(runs[k].workload, runs[i].workload) && same(runs[k].load, runs[i].load));
        if (!first)
            continue;
        const char *base = baseline ? baseline : runs[i].variant;
        /* each other variant once, in the order of their first runs */
        for (size_t j = i; j < m && rc == ENG_OK; j++) {
            const prun *r = &runs[j];
            if (!same(r->workload, runs[i].workload) || !same(r->load, runs[i].load) ||
                same(r->variant, base))
                continue;
            bool seen = false;
            for (size_t k = i; k < j && !seen; k++)
                seen = same(runs[k].workload, r->workload) && same(runs[k].load, r->load) &&
                       same(runs[k].variant, r->variant);
            if (!seen)
                rc = pair_variant(dir, runs, m, &runs[i], base, r->variant, &o, arr, d);
        }
    }
    for (size_t i = 0; i < m; i++)
        prun_fini(&runs[i]);
    free(runs);
    if (rc != ENG_OK) {
        json_decref(arr);
        return rc;
    }
    *out = arr;
    return ENG_OK;
}
