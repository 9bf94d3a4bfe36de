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
 * Returns 0 or ENG_NOMEM. */
int pol_start_head(const pol_view *v, pol_out *out, const pol_job ***started, size_t *cap,
                   size_t *head, int32_t *free_units, double *shadow, int32_t *extra,
                   bool promise);

#endif
