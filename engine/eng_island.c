/* eng_island.c — island placement (see "Islands" in eng_policy.h): the
 * rule the engine places starts by and the policies plan with (it sits with
 * the interface header, below both), so that
 * both always agree on where a job goes. Pure C, O(n_islands) per call. */
#include "eng_policy.h"

int32_t pol_island_pick(int32_t n_islands, const int32_t *island_units, const int32_t *island_free,
                        int32_t units)
{
    int32_t largest = 0, best = POL_ISLAND_NONE;
    int64_t free_total = 0;
    for (int32_t k = 0; k < n_islands; k++) {
        if (island_units[k] > largest)
            largest = island_units[k];
        free_total += island_free[k];
        if (island_free[k] >= units && (best < 0 || island_free[k] < island_free[best]))
            best = k;
    }
    if (units <= largest)
        return best;
    return free_total >= units ? POL_ISLAND_SPAN : POL_ISLAND_NONE;
}

void pol_island_take(int32_t n_islands, int32_t *island_free, int32_t pick, int32_t units)
{
    if (pick >= 0) {
        island_free[pick] -= units;
        return;
    }
    for (int32_t k = 0; k < n_islands && units > 0; k++) {
        int32_t t = island_free[k] < units ? island_free[k] : units;
        island_free[k] -= t;
        units -= t;
    }
}

void pol_island_held(const pol_view *v, const pol_job *job, int32_t *per_island)
{
    for (int32_t k = 0; k < job->n_alloc; k++) {
        int32_t pos = v->alloc_pos[job->alloc_off + (size_t)k];
        int32_t isl = v->hosts[pos].island;
        if (isl >= 0)
            per_island[isl] += v->alloc == POL_ALLOC_NODE
                                   ? 1
                                   : v->alloc_cores[job->alloc_off + (size_t)k];
    }
}
