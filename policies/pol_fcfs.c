/* pol_fcfs.c — First-Come-First-Served without backfilling.
 *
 * At each call, start queued jobs in submit order while the head fits in
 * the free units; stop at the first job that does not fit. A later job never
 * overtakes an earlier one (skipping a blocked head would be "first fit", a
 * different policy that can starve wide jobs). Feitelson, Rudolph,
 * Schwiegelshohn, Sevcik & Wong 1997 for the taxonomy.
 *
 * Invariants (checked by the engine): jobs start in queue order
 * (POL_FLAG_ORDERED) and the head never waits while it fits
 * (POL_FLAG_HEAD_GREEDY). The blocked head is promised its shadow time:
 * with no backfilling nothing can take the units it is waiting for.
 * With islands (eng_policy.h) the head fits when pol_island_pick() places
 * it, and its shadow time is the first expected end at which an island
 * can host it (pol_start_head_isl).
 *
 * Cost: O(started + running) per call; the only state is a scratch array.
 */
#include "eng_policy.h"
#include "pol_shadow.h"

#include <stdlib.h>

typedef struct fcfs_state {
    const pol_job **started;
    size_t cap;
    pol_isl_plan isl;   /* with islands */
    pol_hold_plan hold; /* with reservations */
} fcfs_state;

static void fcfs_fini(void *state)
{
    fcfs_state *s = state;
    free(s->started);
    pol_isl_plan_fini(&s->isl);
    pol_hold_plan_fini(&s->hold);
}

static int fcfs_schedule(void *state, const pol_view *v, pol_out *out)
{
    fcfs_state *s = state;
    size_t head;
    int32_t free_units, extra;
    double shadow;
    if (v->n_resv > 0)
        return pol_start_head_hold(v, out, &s->hold, &head, &shadow, true);
    if (v->n_islands > 0)
        return pol_start_head_isl(v, out, &s->isl, &head, &free_units, &shadow, &extra, true);
    return pol_start_head(v, out, &s->started, &s->cap, &head, &free_units, &shadow, &extra, true);
}

const pol_type pol_fcfs = {
    .name = "fcfs",
    .summary = "first come, first served; no backfilling",
    .citation = "Feitelson, Rudolph, Schwiegelshohn, Sevcik & Wong 1997",
    .flags = POL_FLAG_POWER_CAP | POL_FLAG_ORDERED | POL_FLAG_HEAD_GREEDY | POL_FLAG_ISLANDS |
             POL_FLAG_REPLANS | POL_FLAG_BOOT_PLANS | POL_FLAG_CORES | POL_FLAG_ISLANDS_CORES |
             POL_FLAG_RESERVATIONS | POL_FLAG_TIME_LIMITS,
    .state_size = sizeof(fcfs_state),
    .options = NULL,
    .fini = fcfs_fini,
    .schedule = fcfs_schedule,
};
