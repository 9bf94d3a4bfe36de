/* sjf_backfill.c — shortest-job-first backfilling, a batchlab policy built
 * outside the tree as a shared library (see README.md beside it).
 *
 * EASY backfilling (Lifka 1995, the Argonne EASY scheduler; the
 * formulation of Mu'alem & Feitelson 2001): only the first waiting job
 * holds a reservation, and a later job may start now if it cannot delay
 * that one. Shortest job first (SJF) changes one thing: the later jobs are
 * tried in order of requested time (their estimates), shortest first, ties
 * by submit order, instead of in queue order. Short jobs then fill the
 * holes before long ones that arrived earlier, which lowers mean waits and
 * slowdowns at the cost of long jobs that wait behind the head (Tsafrir,
 * Etsion & Feitelson 2007 call it SJBF).
 *
 * Each call:
 *   1. start jobs from the head of the queue while they fit (FCFS part);
 *   2. the first job that does not fit (the head) gets a reservation at its
 *      shadow time: walking the running jobs' expected ends and those of
 *      the jobs just started (now + estimate) in time order, the first end
 *      at which enough units are free; the extra units are those free then
 *      beyond the head's need, counting every job ending at that instant;
 *   3. the later jobs, by (estimate, idx), start now if they fit in the
 *      free units and either end by the shadow time or use no more than
 *      the extra units (a job that outlives the shadow time consumes them).
 *      With max_scan=N only the N shortest are tried.
 *
 * Guarantee (checked by batchlab's --check): the head starts no later than
 * the shadow time it was promised, since running jobs never outlive their
 * estimates and backfilled jobs end by the shadow time or use units the
 * head does not need. Flags: HEAD_GREEDY; REPLANS (the plan is made afresh
 * from the view at every call, and the view shows an overdue job as ending
 * now). It does not plan with islands: on a platform whose hosts name
 * islands run it with --islands ignore.
 *
 * Cost per call: O((running + started) log + q log q) for q waiting jobs.
 *
 * It uses only the policy interface (eng_policy.h, eng_error.h), as a
 * policy outside the tree must: build it with
 *   cc -shared -fPIC -O2 -Wall -Wextra $(pkg-config --cflags batchlab) \
 *      sjf_backfill.c -o sjf-backfill.so
 */
#include <eng_error.h>
#include <eng_policy.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ends {
    double t;
    int32_t units;
} ends;

typedef struct sjf_state {
    size_t max_scan; /* 0: every waiting job */
    /* scratch, sized once by the run's job count */
    ends *ev;
    const pol_job **cand;
} sjf_state;

static const pol_option sjf_options[] = {
    {.key = "max_scan",
     .type = POL_OPT_INT,
     .min = 0,
     .max = 1000000,
     .def_int = 0,
     .help = "how many of the shortest waiting jobs are tried after the head (0: all)"},
    {0},
};

static int sjf_init(void *state, const pol_setup *setup, char *err, size_t errlen)
{
    sjf_state *s = state;
    s->max_scan = (size_t)pol_opt_int(setup, "max_scan"); /* checked by the engine */
    size_t n = setup->n_jobs ? setup->n_jobs : 1;
    s->ev = malloc(n * sizeof *s->ev);
    s->cand = malloc(n * sizeof *s->cand);
    if (!s->ev || !s->cand) {
        free(s->ev);
        free(s->cand);
        s->ev = NULL;
        s->cand = NULL;
        snprintf(err, errlen, "out of memory");
        return ENG_NOMEM;
    }
    return ENG_OK;
}

static void sjf_fini(void *state)
{
    sjf_state *s = state;
    free(s->ev);
    free(s->cand);
}

static int cmp_ends(const void *a, const void *b)
{
    const ends *x = a, *y = b;
    return (x->t > y->t) - (x->t < y->t);
}

/* Shorter estimate first, then submit order: a total order, so the same
 * queue always gives the same starts. */
static int cmp_estimate(const void *a, const void *b)
{
    const pol_job *x = *(const pol_job *const *)a, *y = *(const pol_job *const *)b;
    if (x->estimate_s != y->estimate_s)
        return x->estimate_s < y->estimate_s ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Step 2: the head's shadow time and the extra units, the jobs started by
 * this call being queue[0..n_started). INFINITY and 0 when what runs can
 * never free enough (hosts down). */
static void shadow_time(sjf_state *s, const pol_view *v, size_t n_started, int32_t free_units,
                        int32_t need, double *shadow, int32_t *extra)
{
    size_t n = 0;
    for (size_t r = 0; r < v->n_running; r++)
        s->ev[n++] = (ends){v->running[r]->expected_end_s, v->running[r]->units};
    for (size_t k = 0; k < n_started; k++)
        s->ev[n++] = (ends){v->now_s + v->queue[k]->estimate_s, v->queue[k]->units};
    qsort(s->ev, n, sizeof *s->ev, cmp_ends);
    int64_t acc = free_units;
    *shadow = INFINITY;
    *extra = 0;
    for (size_t i = 0; i < n; i++) {
        double t = s->ev[i].t < v->now_s ? v->now_s : s->ev[i].t;
        if (acc >= need && t > *shadow)
            break;
        acc += s->ev[i].units;
        if (acc >= need && *shadow == INFINITY)
            *shadow = t;
    }
    if (*shadow < INFINITY)
        *extra = (int32_t)(acc - need);
}

static int sjf_schedule(void *state, const pol_view *v, pol_out *out)
{
    sjf_state *s = state;
    int32_t free_units = v->free_units;
    size_t head = 0;
    for (; head < v->n_queue && v->queue[head]->units <= free_units; head++) {
        pol_out_start(out, v->queue[head]);
        free_units -= v->queue[head]->units;
    }
    if (head == v->n_queue)
        return ENG_OK;
    double shadow;
    int32_t extra;
    shadow_time(s, v, head, free_units, v->queue[head]->units, &shadow, &extra);
    if (shadow < INFINITY)
        pol_out_promise(out, v->queue[head], shadow);
    if (free_units == 0)
        return ENG_OK;

    size_t n_cand = v->n_queue - head - 1;
    memcpy(s->cand, v->queue + head + 1, n_cand * sizeof *s->cand);
    qsort(s->cand, n_cand, sizeof *s->cand, cmp_estimate);
    if (s->max_scan && n_cand > s->max_scan)
        n_cand = s->max_scan;
    for (size_t k = 0; k < n_cand && free_units > 0; k++) {
        const pol_job *j = s->cand[k];
        if (j->units > free_units)
            continue;
        int ends_by_shadow = v->now_s + j->estimate_s <= shadow;
        if (!ends_by_shadow && j->units > extra)
            continue;
        pol_out_start(out, j);
        free_units -= j->units;
        if (!ends_by_shadow)
            extra -= j->units;
    }
    return ENG_OK;
}

static const pol_type sjf_backfill = {
    .name = "sjf-backfill",
    .summary = "EASY backfilling, later jobs tried shortest requested time first",
    .citation = "Lifka 1995; Mu'alem & Feitelson 2001; Tsafrir, Etsion & Feitelson 2007",
    .flags = POL_FLAG_HEAD_GREEDY | POL_FLAG_REPLANS | POL_FLAG_CORES,
    .state_size = sizeof(sjf_state),
    .options = sjf_options,
    .init = sjf_init,
    .fini = sjf_fini,
    .schedule = sjf_schedule,
};

POL_EXPORT(sjf_backfill);
