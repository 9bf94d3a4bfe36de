/* pol_fcfs.c — First-Come-First-Served without backfilling.
 *
 * At each call, start queued jobs in submit order while the head fits in
 * the free units; stop at the first job that does not fit. A later job never
 * overtakes an earlier one (skipping a blocked head would be "first fit", a
 * different policy that can starve wide jobs). See
 * ../shared/reference/backfill.md §2; Feitelson, Rudolph, Schwiegelshohn,
 * Sevcik & Wong 1997 for the taxonomy.
 *
 * Invariants (checked by the engine): jobs start in queue order
 * (POL_FLAG_ORDERED) and the head never waits while it fits
 * (POL_FLAG_HEAD_GREEDY). The blocked head is promised its shadow time:
 * with no backfilling nothing can take the units it is waiting for.
 *
 * Cost: O(started + running) per call; the only state is a scratch array.
 */
#include "pol_policy.h"
#include "pol_shadow.h"

#include "eng_error.h"
#include "eng_util.h"

#include <stdlib.h>

typedef struct fcfs_state {
    const pol_job **started;
    size_t cap;
} fcfs_state;

static void fcfs_fini(void *state)
{
    fcfs_state *s = state;
    free(s->started);
}

static int fcfs_schedule(void *state, const pol_view *v, pol_out *out)
{
    fcfs_state *s = state;
    int32_t free_units = v->free_units;
    size_t i = 0;
    for (; i < v->n_queue && v->queue[i]->units <= free_units; i++) {
        pol_out_start(out, v->queue[i]);
        free_units -= v->queue[i]->units;
    }
    if (i == v->n_queue)
        return ENG_OK;
    if (eng_grow(&s->started, &s->cap, i, sizeof *s->started))
        return ENG_NOMEM;
    for (size_t k = 0; k < i; k++)
        s->started[k] = v->queue[k];
    double shadow;
    int32_t extra;
    if (pol_shadow(v, s->started, i, free_units, v->queue[i]->units, &shadow, &extra) == 0)
        pol_out_promise(out, v->queue[i], shadow);
    return ENG_OK;
}

const pol_type pol_fcfs = {
    .name = "fcfs",
    .summary = "first come, first served; no backfilling",
    .citation = "Feitelson, Rudolph, Schwiegelshohn, Sevcik & Wong 1997",
    .flags = POL_FLAG_ORDERED | POL_FLAG_HEAD_GREEDY,
    .state_size = sizeof(fcfs_state),
    .options = NULL,
    .fini = fcfs_fini,
    .schedule = fcfs_schedule,
};
