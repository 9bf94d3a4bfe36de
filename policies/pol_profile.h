/* pol_profile.h — an availability profile: free units as a step function of
 * time, from "now" to infinity. Used by conservative backfilling
 * (Mu'alem & Feitelson 2001) and by any policy that plans reservations.
 *
 * Representation: breakpoints t[0] < t[1] < ... < t[n-1] and free[i], the
 * units free on [t[i], t[i+1]) (the last value holds to infinity). Adjacent
 * equal values are merged, so n stays at most twice the number of live
 * reservations plus one.
 *
 * Costs: free_at O(log n); add O(n) (binary search, then a memmove and the
 * covered segments); move O(n), one pass and one memmove where two adds
 * would take four splits and their merges; earliest O(n) — the scan restarts after the segment
 * that blocked it, so each segment is looked at a bounded number of times.
 */
#ifndef POL_PROFILE_H
#define POL_PROFILE_H

#include <stddef.h>
#include <stdint.h>

typedef struct pol_profile {
    double *t;
    int32_t *free;
    size_t n, cap;
    int32_t total;
    double *tmp_t; /* pol_profile_move's new segments */
    int32_t *tmp_free;
    size_t tmp_cap;
    size_t edit_i; /* the first segment the last pol_profile_move rewrote
                    * (a hint for pol_profile_cursor_near: the two spans
                    * lie in the segments from there on) */
    size_t back_i; /* after pol_profile_move(from, to, dur): the segment
                    * holding max(from, to + dur), where the units given
                    * back start for a move to an earlier time; SIZE_MAX
                    * when not known (the move failed, went through two
                    * adds, or merged every segment up to there into the
                    * one before) */
} pol_profile;

/* All `total` units free from `origin` on. 0 or ENG_NOMEM. */
int pol_profile_init(pol_profile *p, int32_t total, double origin);
void pol_profile_fini(pol_profile *p);

/* Forgets everything before now (the segment holding now starts at now). */
void pol_profile_advance(pol_profile *p, double now);

/* Units free at time x (x before t[0] reads t[0]). */
int32_t pol_profile_free_at(const pol_profile *p, double x);

/* Units free just before x: on the last segment starting before x (t[0]'s
 * value if x <= t[0]). O(log n). */
int32_t pol_profile_free_before(const pol_profile *p, double x);

/* pol_profile_free_before(p, x), its segment found from segment *hint as
 * pol_profile_cursor_near does; *hint becomes the segment holding x (the
 * hint for a next x nearby). O(log d), d the segments between. */
int32_t pol_profile_free_before_near(const pol_profile *p, double x, size_t *hint);

/* Adds delta units (negative: reserve, positive: release) on [start, end).
 * Returns 0, ENG_NOMEM, or ENG_INVARIANT if a value would leave [0, total]
 * (the profile is then unchanged). */
int pol_profile_add(pol_profile *p, double start, double end, int32_t delta);

/* Moves `units` reserved on [from, from + dur) to [to, to + dur) (to >=
 * t[0], dur > 0): the profile pol_profile_add(from, from + dur, units) then
 * pol_profile_add(to, to + dur, -units) would give, built in one pass over
 * the segments the two spans cover and one shift of those after them.
 * Returns 0, ENG_NOMEM, or ENG_INVARIANT if a value would leave
 * [0, total] (the profile is then unchanged). */
int pol_profile_move(pol_profile *p, double from, double to, double dur, int32_t units);

/* Earliest t >= from such that `units` are free on all of [t, t + dur).
 * INFINITY if units > total. dur must be > 0. */
double pol_profile_earliest(const pol_profile *p, double from, double dur, int32_t units);

/* pol_profile_earliest in steps: a cursor keeps where the scan stands, so
 * that asking again with a later limit continues instead of restarting.
 * Valid while the profile is unchanged. */
typedef struct pol_profile_cursor {
    size_t i;     /* segment the candidate window starts in */
    double start; /* candidate start */
} pol_profile_cursor;

/* A cursor for scans from t[0] (the profile's now). */
pol_profile_cursor pol_profile_cursor_start(const pol_profile *p);

/* A cursor for scans from `start` (>= t[0]): the caller knows that no fit
 * of the shape it asks for starts before `start`. */
pol_profile_cursor pol_profile_cursor_at(const pol_profile *p, double start);

/* pol_profile_cursor_at(p, start), found by a galloping search outward
 * from segment `hint` (any value; clamped to the profile) instead of a
 * search of the whole profile: O(log d), d the segments between hint and
 * the answer. For a cursor computed before the profile changed, its own
 * segment is the hint: the edits of a compression are mostly a few
 * segments apart (bench/HISTORY.md "Replay performance"). */
pol_profile_cursor pol_profile_cursor_near(const pol_profile *p, double start, size_t hint);

/* Moves the scan on until it finds a fit for units x dur, or its candidate
 * start reaches until. Returns the fit's start (as pol_profile_earliest
 * would, possibly >= until) or INFINITY if none is known to start before
 * until yet. */
double pol_profile_earliest_resume(const pol_profile *p, pol_profile_cursor *c, double dur,
                                   int32_t units, double until);

/* The least and the most units free at any time of [a, b) (a < b), from
 * t[0] on; both 0 if [a, b) ends before t[0]. O(log n + the segments of
 * [a, b)). */
void pol_profile_minmax_over(const pol_profile *p, double a, double b, int32_t *least,
                             int32_t *most);

/* The start of the last stretch before `before` with at least `units`
 * free all along: the end of the last segment before it with fewer free
 * (t[0] if none; `before` itself if the segment just before it has fewer).
 * O(log n + the segments of the stretch). Conservative backfilling asks it
 * to place a job reserved at `before` again with its own reservation given
 * back: a window of its length starting in [before - length, before)
 * overlaps that reservation, so it fits iff the stretch holds its start. */
double pol_profile_free_since(const pol_profile *p, double before, int32_t units);

/* pol_profile_free_since(p, before, units), the segment holding `before`
 * found from segment `hint` as pol_profile_cursor_near does: O(1) with the
 * hint pol_profile_free_before_near just left for the same time, O(log d)
 * otherwise, then the segments of the stretch. */
double pol_profile_free_since_near(const pol_profile *p, double before, int32_t units, size_t hint);

/* The run of segments with at least `units` free around segment i (whose
 * free[i] >= units): *from its start, *to its end (INFINITY if it never
 * ends). Each walk passes at most `steps` segments; one cut short gives
 * *from = -INFINITY (the start is not known) or *to = INFINITY.
 * O(steps). */
void pol_profile_run(const pol_profile *p, size_t i, int32_t units, size_t steps, double *from,
                     double *to);

/* The candidate start times of a job planned across the n profiles p[]
 * (islands): `now`, then every breakpoint of any of them in (now, until),
 * sorted ascending (a time shared by several profiles appears once per
 * profile). Into *cand, grown as needed (capacity *cap); *n_cand their
 * count. 0 or ENG_NOMEM. O(B log B), B the profiles' breakpoints. */
int pol_profile_breaks(const pol_profile *p, int32_t n, double now, double until, double **cand,
                       size_t *cap, size_t *n_cand);

#endif
