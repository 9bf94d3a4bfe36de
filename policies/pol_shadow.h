/* pol_shadow.h — when will enough units be free? The "shadow time" of EASY
 * backfilling (Lifka 1995; Mu'alem & Feitelson 2001) and FCFS's promise.
 *
 * Given the units free now (after this call's starts), the running jobs in
 * (expected end, idx) order, and the jobs this call has just started (they
 * end at now + estimate), walk the expected ends in time order and add each
 * job's units until `need` units are free. The shadow time is that expected
 * end (never before now). The extra units are all units free at the shadow
 * time beyond `need`, counting every job whose expected end equals the
 * shadow time, so the result does not depend on how ties are ordered.
 *
 * Cost: O(running + started log started).
 */
#ifndef POL_SHADOW_H
#define POL_SHADOW_H

#include "eng_policy.h"

/* qsort comparator of pol_job pointers: shorter estimate first, then idx. */
int pol_cmp_estimate(const void *a, const void *b);

/* started[] may be reordered (sorted by estimate). Returns 0, or -1 when
 * need exceeds what could ever be free (then *shadow is INFINITY). */
int pol_shadow(const pol_view *v, const pol_job **started, size_t n_started, int32_t free_units,
               int32_t need, double *shadow, int32_t *extra);

/* The part FCFS and EASY share: start queued jobs from the head while they
 * fit, and, if a job is left waiting, compute its shadow time and extra
 * units (counting the jobs just started) and, if promise, promise it that
 * time (a plan on predicted run times cannot promise; pol_predict.h).
 * *head is the blocked head's position in v->queue (v->n_queue when every
 * job started), *free_units what is left free, *shadow INFINITY when no job
 * waits. started/cap is the caller's scratch buffer (grown as needed).
 * With islands (v->n_islands > 0) it does what pol_start_head_isl does,
 * on a scratch plan of its own. Returns 0 or ENG_NOMEM. */
int pol_start_head(const pol_view *v, pol_out *out, const pol_job ***started, size_t *cap,
                   size_t *head, int32_t *free_units, double *shadow, int32_t *extra, bool promise);

/* ---- with islands (pol_view.n_islands > 0; see eng_policy.h) ----------
 *
 * "Enough units free" becomes "pol_island_pick() finds a place": some
 * island has `need` free, or, for a job larger than every island, the
 * islands together have. The jobs started by this call hold units in the
 * islands pol_island_take() gives them. The extra units at the shadow time
 * are those a later job may take without delaying the head wherever the
 * engine puts it: for a head that fits in one island, the most any island
 * that can host it has beyond `need` (a later job takes at most its own
 * units from that island); for a larger head, all free units beyond it.
 * With n_islands == 0 these functions give what the ones above give. */
typedef struct pol_isl_plan {
    int32_t *free;  /* per island: free after this call's starts */
    int32_t *taken; /* per job started by this call: n_islands units it holds */
    const pol_job **started;
    size_t n_started, cap_started, cap_free, cap_taken;
    int32_t *rows; /* scratch of the shadow walk */
    size_t cap_rows;
    struct pol_isl_ev {
        double t;
        const int32_t *row; /* units per island it gives back */
    } * ev;
    size_t cap_ev;
} pol_isl_plan;

void pol_isl_plan_fini(pol_isl_plan *pl);

/* pol_start_head with islands: starts queued jobs from the head while
 * pol_island_pick() places them, following them in pl (pl->free, taken,
 * started); then, if a job is left waiting, its shadow time and extra
 * units (pol_shadow_isl) and, if promise, the promise. Returns 0 or
 * ENG_NOMEM. */
int pol_start_head_isl(const pol_view *v, pol_out *out, pol_isl_plan *pl, size_t *head,
                       int32_t *free_units, double *shadow, int32_t *extra, bool promise);

/* Adds a start of job by this call to pl (pl->free updated). The caller
 * checked that pol_island_pick() places it. 0 or ENG_NOMEM. */
int pol_isl_plan_start(const pol_view *v, pol_isl_plan *pl, const pol_job *job);

/* The shadow time and extra units of a head needing `need` units, with
 * the running jobs and pl's started jobs giving their units back at their
 * expected ends. Returns 0, 1 when nothing now known frees enough (hosts
 * down; *shadow INFINITY), or ENG_NOMEM. O((running + started) (log + n_islands)). */
int pol_shadow_isl(const pol_view *v, pol_isl_plan *pl, int32_t need, double *shadow,
                   int32_t *extra);

#endif
