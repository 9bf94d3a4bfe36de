/* eng_breakdown.c — see eng_breakdown.h. The measured jobs are sorted by
 * wait once (gsl_sort_index); each breakdown then ranks its keys and
 * distributes the jobs by rank in that order (a counting sort), so that
 * each row's waits come out sorted: O(n log n) in all, O(n) per breakdown
 * but for the sort of its distinct keys. */
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

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
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
 * the measured, in ascending order of their waits); w and x are scratch
 * for n values. */
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

/* Scratch shared by the breakdowns, n entries each: the measured jobs in
 * ascending order of their waits, then per job its key and its key's
 * rank. */
typedef struct scratch {
    size_t *by_wait;
    keyed *items;
    int64_t *key;
    size_t *rank;
    double *w, *x;
} scratch;

/* The distinct keys of key[0..n) in ascending order into *out (u of
 * them) and each job's rank among them, through a hash table of the keys
 * (open addressing, linear probing): O(n + u log u). */
static int rank_keys(const int64_t *key, size_t n, size_t *rank, int64_t **out, size_t *u)
{
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    int64_t *slot_key = malloc(cap * sizeof *slot_key);
    size_t *slot_id = malloc(cap * sizeof *slot_id); /* first-seen id + 1, 0 empty */
    int64_t *seen = malloc((n ? n : 1) * sizeof *seen);
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!slot_key || !slot_id || !seen || !order) {
        free(slot_key);
        free(slot_id);
        free(seen);
        free(order);
        return ENG_NOMEM;
    }
    memset(slot_id, 0, cap * sizeof *slot_id);
    size_t m = 0;
    for (size_t j = 0; j < n; j++) {
        uint64_t h = (uint64_t)key[j] * 0x9E3779B97F4A7C15ull;
        size_t at = (size_t)(h >> 20) & (cap - 1);
        while (slot_id[at] && slot_key[at] != key[j])
            at = (at + 1) & (cap - 1);
        if (!slot_id[at]) {
            slot_key[at] = key[j];
            slot_id[at] = ++m;
            seen[m - 1] = key[j];
        }
        rank[j] = slot_id[at] - 1; /* first-seen id for now */
    }
    /* first-seen ids to ranks: sort the distinct keys, then look each up */
    int64_t *sorted = malloc((m ? m : 1) * sizeof *sorted);
    if (!sorted) {
        free(slot_key);
        free(slot_id);
        free(seen);
        free(order);
        return ENG_NOMEM;
    }
    memcpy(sorted, seen, m * sizeof *sorted);
    qsort(sorted, m, sizeof *sorted, cmp_i64);
    for (size_t r = 0; r < m; r++) {
        uint64_t h = (uint64_t)sorted[r] * 0x9E3779B97F4A7C15ull;
        size_t at = (size_t)(h >> 20) & (cap - 1);
        while (slot_key[at] != sorted[r])
            at = (at + 1) & (cap - 1);
        order[slot_id[at] - 1] = r;
    }
    for (size_t j = 0; j < n; j++)
        rank[j] = order[rank[j]];
    free(slot_key);
    free(slot_id);
    free(seen);
    free(order);
    *out = sorted;
    *u = m;
    return ENG_OK;
}

/* One breakdown: its rows into b. Pools and run-time classes list every
 * key (0..n_fixed), sizes the classes that hold a job, the others the keys
 * that occur. Each job's key gets a rank (a class is its own rank; other
 * keys through rank_keys); a counting sort by rank of the jobs taken in
 * order of their waits leaves each row's jobs together with their waits
 * sorted. O(n) but for rank_keys. */
static int breakdown_one(eng_bd_kind kind, const eng_prepared *prep, const eng_job_result *results,
                         const eng_platform *p, const measured *ms, scratch *sc, eng_breakdowns *b)
{
    size_t n = ms->n;
    bool classes = kind == ENG_BD_POOL || kind == ENG_BD_SIZE || kind == ENG_BD_RUNTIME;
    size_t n_classes = kind == ENG_BD_POOL   ? p->n_pools
                       : kind == ENG_BD_SIZE ? ENG_BD_SIZE_CLASSES
                                             : ENG_BD_RUNTIME_CLASSES;
    for (size_t j = 0; j < n; j++)
        sc->key[j] = key_of(kind, prep, results, ms->job[j]);
    int64_t *distinct = NULL;
    size_t u = 0;
    if (classes) {
        u = n_classes;
        for (size_t j = 0; j < n; j++)
            sc->rank[j] = (size_t)sc->key[j];
    } else if (rank_keys(sc->key, n, sc->rank, &distinct, &u) != ENG_OK) {
        return ENG_NOMEM;
    }
    size_t *start = calloc(u + 1, sizeof *start);
    eng_bd_row *rows = calloc(u ? u : 1, sizeof *rows);
    if (!start || !rows) {
        free(start);
        free(rows);
        free(distinct);
        return ENG_NOMEM;
    }
    for (size_t j = 0; j < n; j++)
        start[sc->rank[j] + 1]++;
    for (size_t r = 0; r < u; r++)
        start[r + 1] += start[r];
    for (size_t t = 0; t < n; t++) {
        size_t j = sc->by_wait[t];
        sc->items[start[sc->rank[j]]++] = (keyed){sc->key[j], j};
    }
    /* start[r] is now the end of rank r's jobs */
    size_t n_rows = 0;
    for (size_t r = 0; r < u; r++) {
        size_t lo = r ? start[r - 1] : 0, cnt = start[r] - lo;
        if (kind == ENG_BD_SIZE && cnt == 0)
            continue;
        eng_bd_row *row = &rows[n_rows++];
        name_row(row, kind, classes ? (int64_t)r : distinct[r], p);
        fill_row(row, ms, sc->items + lo, cnt, sc->w, sc->x);
    }
    free(start);
    free(distinct);
    b->rows[kind] = rows;
    b->n_rows[kind] = n_rows;
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
    scratch sc = {malloc(m1 * sizeof *sc.by_wait), malloc(m1 * sizeof *sc.items),
                  malloc(m1 * sizeof *sc.key),     malloc(m1 * sizeof *sc.rank),
                  malloc(m1 * sizeof *sc.w),       malloc(m1 * sizeof *sc.x)};
    int rc = ms.wait && ms.bsld && ms.killed && ms.job && sc.by_wait && sc.items && sc.key &&
                     sc.rank && sc.w && sc.x
                 ? ENG_OK
                 : ENG_NOMEM;
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
    /* the measured jobs by wait, once for all breakdowns */
    if (rc == ENG_OK)
        gsl_sort_index(sc.by_wait, ms.wait, 1, ms.n);
    for (int k = 0; k < ENG_BD_COUNT && rc == ENG_OK; k++)
        rc = breakdown_one((eng_bd_kind)k, prep, results, p, &ms, &sc, b);
    if (rc == ENG_OK)
        rc = pool_utilization(prep, results, p, s, &ms, b->rows[ENG_BD_POOL]);
    if (rc == ENG_OK)
        rc = fairness(b, &b->fairness);
    free(ms.wait);
    free(ms.bsld);
    free(ms.killed);
    free(ms.job);
    free(sc.by_wait);
    free(sc.items);
    free(sc.key);
    free(sc.rank);
    free(sc.w);
    free(sc.x);
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
