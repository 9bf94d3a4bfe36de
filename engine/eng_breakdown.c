/* eng_breakdown.c — see eng_breakdown.h. Each breakdown sorts the measured
 * jobs by (key, job order) and walks the runs of equal keys: O(n log n). */
#include "eng_breakdown.h"
#include "eng_json.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const double eng_bd_runtime_bounds_s[ENG_BD_RUNTIME_CLASSES - 1] = {600, 3600, 36000};

static const char *const runtime_keys[ENG_BD_RUNTIME_CLASSES] = {"<10min", "10min-1h", "1h-10h",
                                                                 ">10h"};

/* The measured jobs, in prepared order: their wait, bounded slowdown,
 * kill, and the job they are. */
typedef struct measured {
    double *wait, *bsld;
    bool *killed;
    size_t *job;
    size_t n;
} measured;

typedef struct keyed {
    int64_t key;
    size_t j; /* index among the measured */
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key != y->key)
        return (x->key > y->key) - (x->key < y->key);
    return (x->j > y->j) - (x->j < y->j);
}

static bool is_measured(const eng_job_result *r)
{
    return r->state == ENG_JOB_DONE || r->state == ENG_JOB_KILLED || r->state == ENG_JOB_STOPPED;
}

/* The class k of u units: 2^k <= u < 2^(k+1) (u < 1 counts as 1). */
static int64_t size_class(int32_t units)
{
    int64_t k = 0;
    for (uint32_t u = units > 1 ? (uint32_t)units : 1; u > 1 && k < ENG_BD_SIZE_CLASSES - 1;
         u >>= 1)
        k++;
    return k;
}

static int64_t runtime_class(double run_s)
{
    int64_t k = 0;
    while (k < ENG_BD_RUNTIME_CLASSES - 1 && run_s >= eng_bd_runtime_bounds_s[k])
        k++;
    return k;
}

/* The statistics of one row from its n jobs at idx[0..n) (indices among
 * the measured); w and x are scratch for n values. */
static void fill_row(eng_bd_row *row, const measured *ms, const keyed *idx, size_t n, double *w,
                     double *x)
{
    row->jobs = n;
    row->killed = 0;
    row->wait_mean_s = row->wait_median_s = row->wait_p95_s = row->bsld_mean = NAN;
    if (n == 0)
        return;
    for (size_t k = 0; k < n; k++) {
        w[k] = ms->wait[idx[k].j];
        x[k] = ms->bsld[idx[k].j];
        row->killed += ms->killed[idx[k].j];
    }
    row->wait_mean_s = gsl_stats_mean(w, 1, n);
    row->bsld_mean = gsl_stats_mean(x, 1, n);
    gsl_sort(w, 1, n);
    row->wait_median_s = gsl_stats_median_from_sorted_data(w, 1, n);
    size_t rank = (size_t)ceil(0.95 * (double)n); /* nearest rank, as the global p95 */
    row->wait_p95_s = w[(rank < 1 ? 1 : rank) - 1];
}

/* The key of measured job j for breakdown kind. */
static int64_t key_of(eng_bd_kind kind, const eng_prepared *prep, const eng_job_result *results,
                      size_t i)
{
    const eng_sim_job *sj = &prep->jobs[i];
    switch (kind) {
    case ENG_BD_USER:
        return sj->user;
    case ENG_BD_QUEUE:
        return sj->queue;
    case ENG_BD_PARTITION:
        return sj->partition;
    case ENG_BD_POOL:
        return sj->pool;
    case ENG_BD_SIZE:
        return size_class(sj->units);
    default:
        return runtime_class(results[i].end_s - results[i].start_s);
    }
}

/* Sets row's key, number and bounds for kind's key k. */
static void name_row(eng_bd_row *row, eng_bd_kind kind, int64_t k, const eng_platform *p)
{
    row->num = k;
    row->lo = row->hi = NAN;
    row->utilization = NAN;
    if (kind == ENG_BD_POOL) {
        snprintf(row->key, sizeof row->key, "%s", p->pools[k].label);
    } else if (kind == ENG_BD_SIZE) {
        row->lo = ldexp(1, (int)k);
        row->hi = k == ENG_BD_SIZE_CLASSES - 1 ? INT32_MAX : ldexp(1, (int)k + 1) - 1;
        if (row->lo == row->hi)
            snprintf(row->key, sizeof row->key, "%.0f", row->lo);
        else
            snprintf(row->key, sizeof row->key, "%.0f-%.0f", row->lo, row->hi);
    } else if (kind == ENG_BD_RUNTIME) {
        snprintf(row->key, sizeof row->key, "%s", runtime_keys[k]);
        row->lo = k == 0 ? 0 : eng_bd_runtime_bounds_s[k - 1];
        row->hi = k == ENG_BD_RUNTIME_CLASSES - 1 ? INFINITY : eng_bd_runtime_bounds_s[k];
    } else {
        snprintf(row->key, sizeof row->key, "%" PRId64, k);
    }
}

/* One breakdown: its rows into b. Pools and run-time classes list every
 * key (0..n_fixed), the others the keys that occur. items, w, x scratch. */
static int breakdown_one(eng_bd_kind kind, const eng_prepared *prep, const eng_job_result *results,
                         const eng_platform *p, const measured *ms, keyed *items, double *w,
                         double *x, eng_breakdowns *b)
{
    size_t n = ms->n;
    for (size_t j = 0; j < n; j++)
        items[j] = (keyed){key_of(kind, prep, results, ms->job[j]), j};
    qsort(items, n, sizeof *items, cmp_keyed);
    size_t n_fixed = kind == ENG_BD_POOL      ? p->n_pools
                     : kind == ENG_BD_RUNTIME ? ENG_BD_RUNTIME_CLASSES
                                              : 0;
    size_t n_keys = 0;
    for (size_t j = 0; j < n; j++)
        n_keys += j == 0 || items[j].key != items[j - 1].key;
    size_t cap = n_fixed ? n_fixed : n_keys;
    eng_bd_row *rows = calloc(cap ? cap : 1, sizeof *rows);
    if (!rows)
        return ENG_NOMEM;
    if (n_fixed)
        for (size_t k = 0; k < n_fixed; k++) {
            name_row(&rows[k], kind, (int64_t)k, p);
            fill_row(&rows[k], ms, items, 0, w, x);
        }
    size_t r = 0;
    for (size_t j = 0; j < n;) {
        size_t e = j;
        while (e < n && items[e].key == items[j].key)
            e++;
        eng_bd_row *row = n_fixed ? &rows[items[j].key] : &rows[r++];
        if (!n_fixed)
            name_row(row, kind, items[j].key, p);
        fill_row(row, ms, items + j, e - j, w, x);
        j = e;
    }
    b->rows[kind] = rows;
    b->n_rows[kind] = cap;
    return ENG_OK;
}

/* Each pool's measured unit-seconds over its units x the window. */
static int pool_utilization(const eng_prepared *prep, const eng_job_result *results,
                            const eng_platform *p, const eng_summary *s, const measured *ms,
                            eng_bd_row *rows)
{
    long double *busy = calloc(p->n_pools ? p->n_pools : 1, sizeof *busy);
    if (!busy)
        return ENG_NOMEM;
    for (size_t j = 0; j < ms->n; j++) {
        size_t i = ms->job[j];
        busy[prep->jobs[i].pool] += (long double)results[i].units *
                                    (results[i].end_s - results[i].start_s);
    }
    for (size_t k = 0; k < p->n_pools; k++) {
        double units = prep->alloc == POL_ALLOC_CORE ? (double)p->pools[k].total_cores
                                                     : (double)p->pools[k].n_hosts;
        rows[k].utilization = s->makespan_s > 0 && units > 0
                                  ? (double)(busy[k] / ((long double)units * s->makespan_s))
                                  : 0;
    }
    free(busy);
    return ENG_OK;
}

double eng_jain_index(const double *x, size_t n)
{
    long double sum = 0, sq = 0;
    for (size_t i = 0; i < n; i++) {
        sum += x[i];
        sq += (long double)x[i] * x[i];
    }
    if (n == 0 || sq == 0)
        return NAN;
    return (double)(sum * sum / ((long double)n * sq));
}

static int fairness(const eng_breakdowns *b, eng_fairness *f)
{
    const eng_bd_row *rows = b->rows[ENG_BD_USER];
    size_t n = b->n_rows[ENG_BD_USER];
    *f = (eng_fairness){.users = 0,
                        .bsld_user_mean_min = NAN,
                        .bsld_user_mean_max = NAN,
                        .bsld_user_mean_cv = NAN,
                        .jain_index = NAN};
    double *x = malloc((n ? n : 1) * sizeof *x);
    if (!x)
        return ENG_NOMEM;
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
        if (rows[k].num >= 0 && rows[k].jobs > 0)
            x[m++] = rows[k].bsld_mean;
    f->users = m;
    if (m > 0) {
        gsl_stats_minmax(&f->bsld_user_mean_min, &f->bsld_user_mean_max, x, 1, m);
        double mean = gsl_stats_mean(x, 1, m);
        double sd = sqrt(gsl_stats_variance_with_fixed_mean(x, 1, m, mean));
        f->bsld_user_mean_cv = mean > 0 ? sd / mean : NAN;
        f->jain_index = eng_jain_index(x, m);
    }
    free(x);
    return ENG_OK;
}

int eng_breakdown_compute(const eng_prepared *prep, const eng_job_result *results,
                          const eng_platform *p, const eng_summary *s, eng_breakdowns *b)
{
    memset(b, 0, sizeof *b);
    size_t n = prep->n_jobs, m1 = n ? n : 1;
    measured ms = {malloc(m1 * sizeof *ms.wait), malloc(m1 * sizeof *ms.bsld),
                   malloc(m1 * sizeof *ms.killed), malloc(m1 * sizeof *ms.job), 0};
    keyed *items = malloc(m1 * sizeof *items);
    double *w = malloc(m1 * sizeof *w), *x = malloc(m1 * sizeof *x);
    int rc = ms.wait && ms.bsld && ms.killed && ms.job && items && w && x ? ENG_OK : ENG_NOMEM;
    for (size_t i = 0; i < n && rc == ENG_OK; i++) {
        const eng_job_result *r = &results[i];
        if (!is_measured(r))
            continue;
        double submit = prep->jobs[i].submit_s, run = r->end_s - r->start_s;
        double bsld = (r->end_s - submit) / fmax(run, ENG_BSLD_TAU_S);
        ms.wait[ms.n] = r->start_s - submit;
        ms.bsld[ms.n] = bsld > 1 ? bsld : 1;
        ms.killed[ms.n] = r->state != ENG_JOB_DONE;
        ms.job[ms.n++] = i;
    }
    for (int k = 0; k < ENG_BD_COUNT && rc == ENG_OK; k++)
        rc = breakdown_one((eng_bd_kind)k, prep, results, p, &ms, items, w, x, b);
    if (rc == ENG_OK)
        rc = pool_utilization(prep, results, p, s, &ms, b->rows[ENG_BD_POOL]);
    if (rc == ENG_OK)
        rc = fairness(b, &b->fairness);
    free(ms.wait);
    free(ms.bsld);
    free(ms.killed);
    free(ms.job);
    free(items);
    free(w);
    free(x);
    if (rc != ENG_OK)
        eng_breakdown_fini(b);
    return rc;
}

void eng_breakdown_fini(eng_breakdowns *b)
{
    if (!b)
        return;
    for (int k = 0; k < ENG_BD_COUNT; k++)
        free(b->rows[k]);
    memset(b, 0, sizeof *b);
}

/* Larger mean wait first; ties by the smaller user number. */
static int cmp_top(const void *a, const void *b)
{
    const eng_bd_row *x = a, *y = b;
    if (x->wait_mean_s != y->wait_mean_s)
        return x->wait_mean_s < y->wait_mean_s ? 1 : -1;
    return (x->num > y->num) - (x->num < y->num);
}

void eng_breakdown_brief(const eng_breakdowns *b, eng_bd_brief *out)
{
    memset(out, 0, sizeof *out);
    out->n_size = b->n_rows[ENG_BD_SIZE];
    memcpy(out->size, b->rows[ENG_BD_SIZE], out->n_size * sizeof *out->size);
    memcpy(out->runtime, b->rows[ENG_BD_RUNTIME], sizeof out->runtime);
    out->fairness = b->fairness;
    out->n_users = b->n_rows[ENG_BD_USER];
    /* a selection of the largest: few users to keep, many rows */
    for (size_t k = 0; k < b->n_rows[ENG_BD_USER]; k++) {
        const eng_bd_row *row = &b->rows[ENG_BD_USER][k];
        size_t n = out->n_top_users;
        if (n == ENG_BD_TOP_USERS && cmp_top(row, &out->top_users[n - 1]) >= 0)
            continue;
        size_t at = n < ENG_BD_TOP_USERS ? n : n - 1;
        while (at > 0 && cmp_top(row, &out->top_users[at - 1]) < 0) {
            out->top_users[at] = out->top_users[at - 1];
            at--;
        }
        out->top_users[at] = *row;
        if (n < ENG_BD_TOP_USERS)
            out->n_top_users++;
    }
}

static json_t *row_json(const eng_bd_row *row, eng_bd_kind kind, bool *ok)
{
    json_t *o = json_object();
    eng_json_set(o, "key", eng_json_str(row->key), ok);
    eng_json_set(o, "jobs", json_integer((json_int_t)row->jobs), ok);
    eng_json_set(o, "wait_mean_s", eng_json_num(row->wait_mean_s), ok);
    eng_json_set(o, "wait_median_s", eng_json_num(row->wait_median_s), ok);
    eng_json_set(o, "wait_p95_s", eng_json_num(row->wait_p95_s), ok);
    eng_json_set(o, "bsld_mean", eng_json_num(row->bsld_mean), ok);
    eng_json_set(o, "killed", json_integer((json_int_t)row->killed), ok);
    if (kind == ENG_BD_POOL)
        eng_json_set(o, "utilization", eng_json_num(row->utilization), ok);
    if (kind == ENG_BD_SIZE) {
        eng_json_set(o, "lo", eng_json_num(row->lo), ok);
        eng_json_set(o, "hi", eng_json_num(row->hi), ok);
    }
    if (kind == ENG_BD_RUNTIME) {
        eng_json_set(o, "lo_s", eng_json_num(row->lo), ok);
        eng_json_set(o, "hi_s", eng_json_num(row->hi), ok); /* null for the last */
    }
    return o;
}

json_t *eng_breakdown_json(const eng_breakdowns *b, bool *ok)
{
    static const char *const names[ENG_BD_COUNT] = {"user", "queue", "partition",
                                                    "pool", "size",  "runtime"};
    json_t *o = json_object(), *bounds = json_object(), *rt = json_array();
    for (int k = 0; k < ENG_BD_RUNTIME_CLASSES - 1; k++)
        eng_json_push(rt, eng_json_num(eng_bd_runtime_bounds_s[k]), ok);
    eng_json_set(bounds, "runtime_s", rt, ok);
    eng_json_set(bounds, "bsld_tau_s", eng_json_num(ENG_BSLD_TAU_S), ok);
    eng_json_set(o, "bounds", bounds, ok);
    for (int k = 0; k < ENG_BD_COUNT; k++) {
        json_t *arr = json_array();
        for (size_t r = 0; r < b->n_rows[k]; r++)
            eng_json_push(arr, row_json(&b->rows[k][r], (eng_bd_kind)k, ok), ok);
        eng_json_set(o, names[k], arr, ok);
    }
    return o;
}

json_t *eng_fairness_json(const eng_fairness *f, bool *ok)
{
    json_t *o = json_object();
    eng_json_set(o, "users", json_integer((json_int_t)f->users), ok);
    eng_json_set(o, "bsld_user_mean_min", eng_json_num(f->bsld_user_mean_min), ok);
    eng_json_set(o, "bsld_user_mean_max", eng_json_num(f->bsld_user_mean_max), ok);
    eng_json_set(o, "bsld_user_mean_cv", eng_json_num(f->bsld_user_mean_cv), ok);
    eng_json_set(o, "jain_index", eng_json_num(f->jain_index), ok);
    return o;
}
