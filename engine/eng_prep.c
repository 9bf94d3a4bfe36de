/* eng_prep.c — see eng_prep.h for the rules. O(jobs). */
#include "eng_prep.h"

#include "eng_feedback.h"

#include "eng_util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *eng_drop_key(int reason)
{
    switch (reason) {
#define ENG_DROP_KEY(name, key, text)                                                              \
    case ENG_DROP_##name:                                                                          \
        return key;
        ENG_DROP_REASONS(ENG_DROP_KEY)
#undef ENG_DROP_KEY
    }
    return "unknown";
}

const char *eng_drop_text(int reason)
{
    switch (reason) {
#define ENG_DROP_TEXT(name, key, text)                                                             \
    case ENG_DROP_##name:                                                                          \
        return text;
        ENG_DROP_REASONS(ENG_DROP_TEXT)
#undef ENG_DROP_TEXT
    }
    return "unknown";
}

void eng_prepared_fini(eng_prepared *prep)
{
    if (!prep)
        return;
    free(prep->jobs);
    free(prep->drop);
    free(prep->pred);
    free(prep->think_s);
    memset(prep, 0, sizeof *prep);
}

eng_prep_opts eng_prep_defaults(void)
{
    return (eng_prep_opts){.procs_field = ENG_PROCS_ALLOC,
                           .walltime = ENG_WALLTIME_KILL,
                           .alloc = POL_ALLOC_NODE,
                           .type_field = ENG_TYPE_QUEUE,
                           .init_share = NAN};
}

static int64_t job_type(const eng_job *j, eng_type_field f)
{
    return f == ENG_TYPE_PARTITION ? j->partition : f == ENG_TYPE_APP ? j->app : j->queue;
}

static int64_t choose_procs(const eng_job *j, eng_procs_field field)
{
    int64_t first = field == ENG_PROCS_ALLOC ? j->procs_alloc : j->procs_req;
    int64_t second = field == ENG_PROCS_ALLOC ? j->procs_req : j->procs_alloc;
    return first > 0 ? first : second > 0 ? second : 0;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Index of type t in the sorted array types[0..n), or -1. */
static long find_type(const int64_t *types, size_t n, int64_t t)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (types[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && types[lo] == t ? (long)lo : -1;
}

/* Initialization per type (see eng_prep.h); counts the types. */
static int assign_init(const eng_workload *w, const eng_prep_opts *opts, eng_prepared *out,
                       eng_diag *d)
{
    size_t n = out->n_jobs;
    int64_t *types = malloc((n ? n : 1) * sizeof *types);
    if (!types)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        types[i] = out->jobs[i].type;
    qsort(types, n, sizeof *types, cmp_i64);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k == 0 || types[k - 1] != types[i])
            types[k++] = types[i];
    out->n_types = k;
    double *init = calloc(k ? k : 1, sizeof *init);
    long double *sum = calloc(k ? k : 1, sizeof *sum);
    size_t *count = calloc(k ? k : 1, sizeof *count);
    int rc = ENG_OK;
    if (!init || !sum || !count) {
        rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
    } else if (opts->n_init_times) {
        for (size_t t = 0; t < k && rc == ENG_OK; t++) {
            const eng_init_time *hit = NULL, *any = NULL;
            for (size_t e = 0; e < opts->n_init_times; e++) {
                if (opts->init_times[e].any)
                    any = &opts->init_times[e];
                else if (opts->init_times[e].type == types[t])
                    hit = &opts->init_times[e];
            }
            if (!hit && !any) {
                size_t j = 0;
                while (out->jobs[j].type != types[t])
                    j++;
                rc = eng_diag_set(d, ENG_INVAL,
                                  "%s:%lld: job %lld has type %lld, which the initialization "
                                  "table does not list (add it, or a '*' line)",
                                  w->path, (long long)w->jobs[out->jobs[j].src].line,
                                  (long long)out->jobs[j].id, (long long)types[t]);
            }
            init[t] = hit ? hit->seconds : any ? any->seconds : 0;
        }
    } else if (!isnan(opts->init_share)) {
        if (!(opts->init_share >= 0 && opts->init_share < 1)) {
            rc = eng_diag_set(d, ENG_RANGE, "initialization share %g: expected a value in [0, 1)",
                              opts->init_share);
        } else {
            for (size_t i = 0; i < n; i++) {
                long t = find_type(types, k, out->jobs[i].type);
                sum[t] += out->jobs[i].run_s;
                count[t]++;
            }
            double f = opts->init_share / (1 - opts->init_share);
            for (size_t t = 0; t < k; t++)
                init[t] = count[t] ? (double)(f * sum[t] / count[t]) : 0;
        }
    }
    for (size_t i = 0; rc == ENG_OK && i < n; i++) {
        eng_sim_job *s = &out->jobs[i];
        s->init_s = init[find_type(types, k, s->type)];
        if (!opts->init_unplanned)
            s->estimate_s += s->init_s;
        if (isfinite(s->kill_s))
            s->kill_s += s->init_s;
    }
    free(types);
    free(init);
    free(sum);
    free(count);
    return rc;
}

int eng_prep_read_init_times(const char *path, eng_init_time **out, size_t *n, eng_diag *d)
{
    *out = NULL;
    *n = 0;
    if (eng_check_not_dir(path, "a file of 'TYPE SECONDS' lines", d) != ENG_OK)
        return ENG_IO;
    FILE *f = fopen(path, "r");
    if (!f)
        return eng_diag_set(d, ENG_IO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 0;
    char *line = NULL; /* getline: lines (comments included) of any length */
    size_t line_cap = 0;
    long lineno = 0;
    int rc = ENG_OK;
    while (rc == ENG_OK && getline(&line, &line_cap, f) >= 0) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char type[64], extra[8];
        double seconds;
        int got = sscanf(line, "%63s %lf %7s", type, &seconds, extra);
        if (got <= 0)
            continue;
        eng_init_time e = {.seconds = seconds};
        char *end = NULL;
        if (strcmp(type, "*") == 0) {
            e.any = true;
        } else {
            errno = 0;
            e.type = strtoll(type, &end, 10);
        }
        if (got != 2 || (!e.any && (*end || errno)) || !isfinite(seconds) || seconds < 0) {
            rc = eng_diag_set(d, ENG_PARSE,
                              "%s:%ld: expected 'TYPE SECONDS' (an integer type or '*', and "
                              "seconds >= 0)",
                              path, lineno);
            break;
        }
        for (size_t i = 0; i < *n; i++)
            if ((*out)[i].any == e.any && (e.any || (*out)[i].type == e.type))
                rc = eng_diag_set(d, ENG_PARSE, "%s:%ld: type %s is listed twice", path, lineno,
                                  type);
        if (rc == ENG_OK && eng_grow(out, &cap, *n + 1, sizeof **out))
            rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
        if (rc == ENG_OK)
            (*out)[(*n)++] = e;
    }
    if (rc == ENG_OK && ferror(f))
        rc = eng_diag_set(d, errno == ENOMEM ? ENG_NOMEM : ENG_IO, "%s:%ld: cannot read: %s", path,
                          lineno + 1, strerror(errno));
    free(line);
    fclose(f);
    if (rc == ENG_OK && *n == 0)
        rc = eng_diag_set(d, ENG_PARSE, "%s: no 'TYPE SECONDS' line", path);
    if (rc) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

/* A job number's occurrence: sorted by (id, line, index), the first of
 * each id is the line that keeps the number. */
typedef struct id_occurrence {
    int64_t id, line;
    size_t index;
} id_occurrence;

static int cmp_occurrence(const void *pa, const void *pb)
{
    const id_occurrence *a = pa, *b = pb;
    if (a->id != b->id)
        return (a->id > b->id) - (a->id < b->id);
    if (a->line != b->line)
        return (a->line > b->line) - (a->line < b->line);
    return (a->index > b->index) - (a->index < b->index);
}

/* Sets dup[i] for each job whose number an earlier line carries (or, at
 * equal lines as in generated workloads, an earlier job of the array).
 * O(n) when numbers rise in array order, the usual case; else
 * O(n log n). ENG_OK or ENG_NOMEM. */
static int mark_duplicates(const eng_workload *w, bool *dup)
{
    size_t n = w->n_jobs, rising = 1;
    while (rising < n && w->jobs[rising - 1].id < w->jobs[rising].id)
        rising++;
    if (rising >= n)
        return ENG_OK;
    id_occurrence *occ = malloc(n * sizeof *occ);
    if (!occ)
        return ENG_NOMEM;
    for (size_t i = 0; i < n; i++)
        occ[i] = (id_occurrence){.id = w->jobs[i].id, .line = w->jobs[i].line, .index = i};
    qsort(occ, n, sizeof *occ, cmp_occurrence);
    for (size_t i = 1; i < n; i++)
        if (occ[i].id == occ[i - 1].id)
            dup[occ[i].index] = true;
    free(occ);
    return ENG_OK;
}

/* Does job j (procs processors, routed to pool pl) ask more than its
 * queue's limits allow? Nodes are counted as under node allocation
 * whatever the allocation: a partition's MaxNodes counts nodes. */
static bool over_limit(const eng_platform *p, const eng_pool *pl, const eng_job *j, int64_t procs)
{
    const eng_queue_limit *lim = eng_platform_limits(p, j->queue);
    if (!lim)
        return false;
    int64_t nodes = (procs + pl->cores_per_node - 1) / pl->cores_per_node;
    return (lim->max_nodes > 0 && nodes > lim->max_nodes) ||
           (j->time_req_s > 0 && j->time_req_s > lim->max_runtime_s);
}

/* The units job j needs for its memory in pool pl (eng_prep.h, "Memory"):
 * 0 when it asks for none or the pool gives no memory, -1 when one
 * processor needs more than the pool's smallest host. */
static int64_t memory_units(const eng_job *j, const eng_pool *pl, pol_alloc alloc, int64_t procs)
{
    if (!(j->mem_req_kb > 0) || pl->mem_min_b == 0)
        return 0;
    double per_proc_b = j->mem_req_kb * 1024.0;
    if (per_proc_b > pl->mem_min_b)
        return -1;
    if (alloc == POL_ALLOC_CORE) {
        double cores = ceil((double)procs * per_proc_b / pl->mem_per_core_min_b);
        return cores > (double)INT32_MAX ? INT32_MAX : (int64_t)cores;
    }
    int64_t per_host = (int64_t)floor(pl->mem_min_b / per_proc_b);
    if (per_host > pl->cores_per_node)
        per_host = pl->cores_per_node;
    return (procs + per_host - 1) / per_host;
}

int eng_prep(const eng_workload *w, const eng_platform *p, const eng_prep_opts *opts,
             eng_prepared *out, eng_diag *d)
{
    memset(out, 0, sizeof *out);
    out->alloc = opts->alloc;
    out->walltime = opts->walltime;
    out->procs_field = opts->procs_field;
    out->memory = p->has_memory;
    out->n_src = w->n_jobs;
    out->jobs = malloc((w->n_jobs ? w->n_jobs : 1) * sizeof *out->jobs);
    out->drop = malloc(w->n_jobs ? w->n_jobs : 1);
    bool *dup = calloc(w->n_jobs ? w->n_jobs : 1, sizeof *dup);
    if (!out->jobs || !out->drop || !dup || mark_duplicates(w, dup) != ENG_OK) {
        free(dup);
        eng_prepared_fini(out);
        return eng_diag_set(d, ENG_NOMEM, "%s: out of memory", w->path);
    }
    for (size_t i = 0; i < w->n_jobs; i++) {
        const eng_job *j = &w->jobs[i];
        int reason = -1;
        int64_t procs = choose_procs(j, opts->procs_field);
        int32_t pool = -1;
        int64_t units = 0;
        if (dup[i])
            reason = ENG_DROP_DUPLICATE_ID;
        else if (j->submit_s < 0)
            reason = ENG_DROP_NO_SUBMIT;
        else if (j->runtime_s < 0)
            reason = ENG_DROP_NO_RUNTIME;
        else if (procs <= 0)
            reason = ENG_DROP_NO_PROCS;
        else if ((pool = eng_platform_route(p, p->by_partition ? j->partition : j->queue)) < 0)
            reason = ENG_DROP_NO_POOL;
        else {
            const eng_pool *pl = &p->pools[pool];
            int64_t capacity;
            if (opts->alloc == POL_ALLOC_NODE) {
                units = (procs + pl->cores_per_node - 1) / pl->cores_per_node;
                capacity = (int64_t)pl->n_hosts;
            } else {
                units = procs;
                capacity = pl->total_cores;
            }
            int64_t mem_units = memory_units(j, pl, opts->alloc, procs);
            if (units > capacity)
                reason = ENG_DROP_TOO_LARGE;
            else if (over_limit(p, pl, j, procs))
                reason = ENG_DROP_OVER_LIMIT;
            else if (mem_units < 0 || mem_units > capacity)
                reason = ENG_DROP_MEMORY;
            else if (mem_units > units) {
                units = mem_units;
                out->n_mem_raised++;
            }
        }
        out->drop[i] = (int8_t)reason;
        if (reason >= 0) {
            out->n_dropped[reason]++;
            out->n_dropped_total++;
            continue;
        }
        const eng_pool *pl = &p->pools[pool];
        /* The longest the job can run on its pool: on the slowest host. */
        double run_slowest = j->runtime_s * (p->ref_speed_flops / pl->min_speed_flops);
        eng_sim_job *s = &out->jobs[out->n_jobs++];
        *s = (eng_sim_job){
            .src = (int32_t)i,
            .id = j->id,
            .submit_s = j->submit_s,
            .run_s = j->runtime_s,
            .kill_s = INFINITY,
            .init_s = 0,
            .procs = (int32_t)procs,
            .units = (int32_t)units,
            .pool = pool,
            .queue = j->queue,
            .partition = j->partition,
            .user = j->user,
            .group = j->group,
            .app = j->app,
            .type = job_type(j, opts->type_field),
        };
        /* The request, or the queue's longest when the log gives none. */
        const eng_queue_limit *lim = eng_platform_limits(p, j->queue);
        double req = j->time_req_s;
        if (req <= 0 && lim && isfinite(lim->max_runtime_s)) {
            req = lim->max_runtime_s;
            out->n_queue_time++;
        }
        if (pl->mem_min_b > 0 && j->mem_req_kb > 0)
            s->mem_per_proc_b = j->mem_req_kb * 1024.0;
        if (req > 0 && j->runtime_s > req)
            out->n_overrun++;
        if (req <= 0) {
            s->estimate_s = run_slowest;
            s->est_from_runtime = true;
            out->n_est_from_runtime++;
        } else if (opts->walltime == ENG_WALLTIME_KILL) {
            s->estimate_s = req;
            s->kill_s = req;
        } else {
            s->estimate_s = req;
            if (run_slowest > req) {
                s->estimate_s = run_slowest;
                out->n_extended++;
            }
        }
    }
    free(dup);
    out->init_share = opts->init_share;
    out->init_unplanned = opts->init_unplanned;
    int rc = assign_init(w, opts, out, d);
    if (rc) {
        eng_prepared_fini(out);
        return rc;
    }
    for (size_t i = 0; i < out->n_jobs; i++)
        if (out->jobs[i].estimate_s < 1)
            out->jobs[i].estimate_s = 1;
    out->feedback = opts->feedback;
    rc = eng_feedback_build(w, out, d);
    if (rc)
        eng_prepared_fini(out);
    return rc;
}
