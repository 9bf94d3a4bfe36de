/* pol_easy.c — EASY (aggressive) backfilling.
 *
 * Lifka 1995 (the Argonne EASY scheduler); Skovira, Chan, Zhou & Lifka
 * 1996; the formulation of Mu'alem & Feitelson 2001: only the first
 * waiting job holds a reservation, and a later job may start now if it
 * cannot delay that one, judged by the running jobs' expected ends.
 *
 * Each call:
 *   1. start jobs from the head of the queue while they fit (FCFS part);
 *   2. the first job that does not fit (the head) gets a reservation at its
 *      shadow time: the earliest expected end at which enough units are
 *      free (pol_shadow, counting the jobs started in step 1); the extra
 *      units are those free at the shadow time beyond the head's need;
 *   3. every later job J (in queue order, or shortest estimate first with
 *      backfill_order=sjf, the SJBF variant of Tsafrir, Etsion & Feitelson
 *      2007) starts now if it fits in the free units and either ends by the
 *      shadow time (now + estimate <= shadow: finishing exactly at the
 *      shadow time is allowed) or uses no more than the extra units; a job
 *      that outlives the shadow time consumes extra units.
 * The scan stops as soon as no unit is free.
 *
 * predictor=user2 (pol_predict.h) plans steps 2 and 3 with predicted run
 * times instead of requests: EASY++ of Tsafrir, Etsion & Feitelson 2007
 * is `predictor=user2 backfill_order=sjf`. A running job that outlives its
 * prediction gets a larger one, and the policy asks to be woken at the next
 * predicted end so that the plan is redone then, as in the paper.
 *
 * Islands (eng_policy.h): "fits" is "pol_island_pick() places it" all
 * along, the shadow time is the first expected end at which an island can
 * host the head (pol_shadow_isl), and the extra units are what a later job
 * may hold past it wherever the engine places it: the most free beyond the
 * head's need in any island that can host the head. Safe, not tight: a
 * long job placed in another island than the head's would not have needed
 * them.
 *
 * Guarantee (checked by the engine): the head starts no later than the
 * shadow time it was promised when it first became the blocked head, since
 * running jobs never outlive their estimates and backfilled jobs either
 * end by the shadow time or use units the head does not need. Under
 * user2 running jobs may outlive their predictions, so nothing is
 * promised.
 * Flags: HEAD_GREEDY (the head never waits while it fits).
 *
 * Cost per call: O(started + running + scanned queue); with sjf an extra
 * O(q log q) sort of the candidates.
 */
#include "eng_policy.h"
#include "pol_predict.h"
#include "pol_shadow.h"

#include "eng_error.h"
#include "eng_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct easy_state {
    bool sjf;
    const pol_job **started;
    size_t cap_started;
    const pol_job **cand;
    size_t cap_cand;
    pol_predictor pred;
    pol_isl_plan isl;   /* with islands */
    pol_hold_plan hold; /* with reservations */
} easy_state;

static const pol_option easy_options[] = {
    {.key = "backfill_order",
     .type = POL_OPT_CHOICE,
     .choices = POL_CHOICES("queue", "sjf"),
     .help =
         "order in which later jobs are tried (sjf = shortest estimate first, Tsafrir et al. 2007)"},
    POL_PREDICT_OPTION,
    {0},
};

static int easy_init(void *state, const pol_setup *setup, char *err, size_t errlen)
{
    easy_state *s = state;
    s->sjf = pol_opt_choice(setup, "backfill_order") == 1;
    return pol_predict_init(&s->pred, setup, err, errlen);
}

static void easy_fini(void *state)
{
    easy_state *s = state;
    free(s->started);
    free(s->cand);
    pol_predict_fini(&s->pred);
    pol_isl_plan_fini(&s->isl);
    pol_hold_plan_fini(&s->hold);
}

static int easy_on_submit(void *state, const pol_view *v, const pol_job *job)
{
    (void)v;
    easy_state *s = state;
    return pol_predict_submit(&s->pred, job);
}

static int easy_on_finish(void *state, const pol_view *v, const pol_job *job)
{
    easy_state *s = state;
    return pol_predict_finish(&s->pred, job, v->now_s);
}

static void easy_report(void *state, char *buf, size_t len)
{
    easy_state *s = state;
    pol_predict_report(&s->pred, buf, len);
}

/* EASY with reservations (pol_shadow.h): the head's shadow time on the
 * hosts, and a later job backfills when it fits now on hosts no window
 * holds over its run and ends by the shadow time or, placed, still leaves
 * the head its units there. */
static int easy_schedule_hold(easy_state *s, const pol_view *v, pol_out *out)
{
    size_t i;
    double shadow;
    int rc = pol_start_head_hold(v, out, &s->hold, &i, &shadow, true);
    if (rc || i == v->n_queue)
        return rc;
    const pol_job *head = v->queue[i];
    const pol_job *const *cand = v->queue + i + 1;
    size_t n_cand = v->n_queue - i - 1;
    if (s->sjf && n_cand > 1) {
        if (eng_grow(&s->cand, &s->cap_cand, n_cand, sizeof *s->cand))
            return ENG_NOMEM;
        memcpy(s->cand, cand, n_cand * sizeof *cand);
        qsort(s->cand, n_cand, sizeof *s->cand, pol_cmp_estimate);
        cand = s->cand;
    }
    bool room = pol_hold_free_now(v, &s->hold, 0) > 0; /* anything free outside windows */
    for (size_t k = 0; k < n_cand && room; k++) {
        const pol_job *j = cand[k];
        if (pol_hold_free_now(v, &s->hold, j->estimate_s) < j->units)
            continue;
        size_t mark = s->hold.n_take;
        if ((rc = pol_hold_take(v, &s->hold, j)))
            return rc;
        if (v->now_s + j->estimate_s > shadow &&
            pol_hold_units_at(v, &s->hold, shadow, head->estimate_s) < head->units) {
            pol_hold_undo(&s->hold, mark); /* it would delay the head */
            continue;
        }
        pol_out_start(out, j);
        room = pol_hold_free_now(v, &s->hold, 0) > 0;
    }
    return ENG_OK;
}

static int easy_schedule(void *state, const pol_view *engine_view, pol_out *out)
{
    easy_state *s = state;
    if (engine_view->n_resv > 0) {
        if (pol_predict_active(&s->pred))
            return pol_out_error(out, ENG_USAGE,
                                 "a predictor does not plan around reservations yet");
        return easy_schedule_hold(s, engine_view, out);
    }
    pol_view pv;
    const pol_view *v = &pv;
    if (pol_predict_view(&s->pred, engine_view, &pv, NULL))
        return ENG_NOMEM;
    if (pol_predict_active(&s->pred))
        pol_out_wakeup(out, pol_predict_next_expiry(&s->pred));
    size_t i;
    int32_t free_units, extra;
    double shadow;
    bool isl = v->n_islands > 0, promise = !pol_predict_active(&s->pred);
    int rc = isl ? pol_start_head_isl(v, out, &s->isl, &i, &free_units, &shadow, &extra, promise)
                 : pol_start_head(v, out, &s->started, &s->cap_started, &i, &free_units, &shadow,
                                  &extra, promise);
    if (rc || i == v->n_queue)
        return rc;
    if (free_units == 0)
        return ENG_OK;

    const pol_job *const *cand = v->queue + i + 1;
    size_t n_cand = v->n_queue - i - 1;
    if (s->sjf && n_cand > 1) {
        if (eng_grow(&s->cand, &s->cap_cand, n_cand, sizeof *s->cand))
            return ENG_NOMEM;
        memcpy(s->cand, cand, n_cand * sizeof *cand);
        qsort(s->cand, n_cand, sizeof *s->cand, pol_cmp_estimate);
        cand = s->cand;
    }
    for (size_t k = 0; k < n_cand && free_units > 0; k++) {
        const pol_job *j = cand[k];
        if (j->units > free_units)
            continue;
        if (isl && pol_island_pick(v->n_islands, v->island_units, s->isl.free, j->units) ==
                       POL_ISLAND_NONE)
            continue;
        bool ends_by_shadow = v->now_s + (v->boot_delay_max_s + j->estimate_s) <= shadow;
        if (!ends_by_shadow && j->units > extra)
            continue;
        if (isl && pol_isl_plan_start(v, &s->isl, j))
            return ENG_NOMEM;
        pol_out_start(out, j);
        free_units -= j->units;
        if (!ends_by_shadow)
            extra -= j->units;
    }
    return ENG_OK;
}

const pol_type pol_easy = {
    .name = "easy",
    .summary = "EASY backfilling: a reservation for the queue head, later jobs backfill",
    .citation = "Lifka 1995; Mu'alem & Feitelson 2001",
    .flags = POL_FLAG_POWER_CAP | POL_FLAG_HEAD_GREEDY | POL_FLAG_ISLANDS | POL_FLAG_REPLANS |
             POL_FLAG_CORES | POL_FLAG_BOOT_PLANS | POL_FLAG_ISLANDS_CORES | POL_FLAG_RESERVATIONS |
             POL_FLAG_TIME_LIMITS,
    .state_size = sizeof(easy_state),
    .options = easy_options,
    .init = easy_init,
    .fini = easy_fini,
    .on_submit = easy_on_submit,
    .on_finish = easy_on_finish,
    .schedule = easy_schedule,
    .report = easy_report,
};
