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

/* ---- with reservations (pol_view.n_resv > 0; see eng_policy.h) --------
 *
 * "Enough units free" becomes host by host: a job from t to t + estimate
 * may take a host only if no window holds it over that span, so FCFS and
 * EASY plan on the pool's hosts: each host's free cores now (less this
 * call's starts, placed first fit in host order as the engine places
 * them), given back at each running job's expected end on the hosts it
 * holds. The head's shadow time is the first of now, the expected ends and
 * the windows' ends at which the hosts free then and held by no window
 * over its run give its units; a later job backfills if it fits now on
 * hosts no window holds over its own run and either ends by the shadow
 * time or leaves the head its units there (checked by placing it, and
 * undone if not). Slurm's backfill plans reservations the same way (its
 * nodes of a reservation are unavailable to a job whose end passes the
 * reservation's start). Costs: a fit O(hosts x windows per host); a
 * shadow O(C x (hosts x windows + running hosts)), C the candidate
 * times. */
typedef struct pol_hold_plan {
    int32_t *free; /* per pool host: cores free now, after this call's starts */
    struct pol_hold_take {
        int32_t pos, cores;
        double end_s;
    } * take; /* the cores this call's starts take, host by host */
    size_t n_take, cap_take, cap_free;
    size_t *off; /* per host: its windows win[off[pos] .. off[pos + 1]) */
    struct pol_hold_win {
        double start_s, end_s;
    } * win;
    size_t cap_off, cap_win;
    int32_t *at; /* scratch: cores free per host at a time */
    size_t cap_at;
    double *cand; /* scratch: candidate times */
    size_t cap_cand;
} pol_hold_plan;

void pol_hold_plan_fini(pol_hold_plan *pl);

/* Starts a call's plan from the view. 0 or ENG_NOMEM. */
int pol_hold_plan_begin(const pol_view *v, pol_hold_plan *pl);

/* The units free now, after this call's starts, on hosts no window holds
 * over [now, now + dur). */
int32_t pol_hold_free_now(const pol_view *v, const pol_hold_plan *pl, double dur);

/* Takes job's units now, first fit in host order on the hosts no window
 * holds over its run (the caller checked that they suffice). 0 or
 * ENG_NOMEM. */
int pol_hold_take(const pol_view *v, pol_hold_plan *pl, const pol_job *job);

/* Gives back every take after the first `mark` (pl->n_take before them). */
void pol_hold_undo(pol_hold_plan *pl, size_t mark);

/* The units a job running on [t, t + dur) could take at t >= now: on the
 * hosts free by then (running jobs and this call's starts ended at their
 * expected ends) that no window holds over its run. */
int32_t pol_hold_units_at(const pol_view *v, pol_hold_plan *pl, double t, double dur);

/* The earliest candidate time at which `need` units are there for a run
 * of dur (pol_hold_units_at). 0, or ENG_NOMEM. */
int pol_hold_shadow(const pol_view *v, pol_hold_plan *pl, int32_t need, double dur, double *shadow);

/* pol_start_head with reservations: starts queued jobs from the head while
 * they fit on hosts no window holds over their runs; then the blocked
 * head's shadow time (pol_hold_shadow) and, if promise, its promise.
 * Returns 0 or ENG_NOMEM. */
int pol_start_head_hold(const pol_view *v, pol_out *out, pol_hold_plan *pl, size_t *head,
                        double *shadow, bool promise);

#endif
