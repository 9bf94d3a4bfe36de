/* eng_prep.c — see eng_prep.h for the rules. O(jobs). */
#include "eng_prep.h"

#include <math.h>
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
    memset(prep, 0, sizeof *prep);
}

static int64_t choose_procs(const eng_job *j, eng_procs_field field)
{
    int64_t first = field == ENG_PROCS_ALLOC ? j->procs_alloc : j->procs_req;
    int64_t second = field == ENG_PROCS_ALLOC ? j->procs_req : j->procs_alloc;
    return first > 0 ? first : second > 0 ? second : 0;
}

int eng_prep(const eng_workload *w, const eng_platform *p, const eng_prep_opts *opts,
             eng_prepared *out, eng_diag *d)
{
    memset(out, 0, sizeof *out);
    out->n_src = w->n_jobs;
    out->jobs = malloc((w->n_jobs ? w->n_jobs : 1) * sizeof *out->jobs);
    out->drop = malloc(w->n_jobs ? w->n_jobs : 1);
    if (!out->jobs || !out->drop) {
        eng_prepared_fini(out);
        return eng_diag_set(d, ENG_NOMEM, "%s: out of memory", w->path);
    }
    for (size_t i = 0; i < w->n_jobs; i++) {
        const eng_job *j = &w->jobs[i];
        int reason = -1;
        int64_t procs = choose_procs(j, opts->procs_field);
        int32_t pool = -1;
        int64_t units = 0;
        if (j->runtime_s < 0)
            reason = ENG_DROP_NO_RUNTIME;
        else if (procs <= 0)
            reason = ENG_DROP_NO_PROCS;
        else if ((pool = eng_platform_route(p, j->queue)) < 0)
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
            if (units > capacity)
                reason = ENG_DROP_TOO_LARGE;
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
        };
        if (j->time_req_s > 0 && j->runtime_s > j->time_req_s)
            out->n_overrun++;
        if (j->time_req_s <= 0) {
            s->estimate_s = run_slowest;
            s->est_from_runtime = true;
            out->n_est_from_runtime++;
        } else if (opts->walltime == ENG_WALLTIME_KILL) {
            s->estimate_s = j->time_req_s;
            s->kill_s = j->time_req_s;
        } else {
            s->estimate_s = j->time_req_s;
            if (run_slowest > j->time_req_s) {
                s->estimate_s = run_slowest;
                out->n_extended++;
            }
        }
        if (s->estimate_s < 1)
            s->estimate_s = 1;
    }
    return ENG_OK;
}
