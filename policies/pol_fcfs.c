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
#include "eng_policy.h"
#include "pol_shadow.h"

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
    size_t head;
    int32_t free_units, extra;
    double shadow;
    return pol_start_head(v, out, &s->started, &s->cap, &head, &free_units, &shadow, &extra, true);
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
