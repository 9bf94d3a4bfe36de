/* pol_conservative.c — conservative backfilling.
 *
 * Mu'alem & Feitelson 2001 (after Lifka 1995). Every waiting job holds a reservation
 * in an availability profile (pol_profile); a job may start early only if
 * that delays no reservation.
 *
 * - Submission: the job is placed at the earliest time its units are free
 *   for its whole estimate, with every existing reservation left in place,
 *   and promised that start time.
 * - Early end (a job ends before its expected end): the unused tail of its
 *   reservation is released and the queue is compressed in place: in queue
 *   order, each waiting job's reservation is removed and the job re-placed
 *   at its earliest slot while all other reservations stay in the profile.
 *   The new start is never later than the old one (the old slot is still
 *   free); re-placing all jobs from scratch instead could push a later job
 *   past its guarantee (a known pitfall of implementations that rebuild the
 *   schedule). Running jobs never move.
 * - Every call starts the jobs whose reservation is due, in queue order, and
 *   asks to be woken at the next reservation time.
 *
 * Guarantee (checked by the engine): no job starts later than the
 * reservation it received at submission.
 *
 * predictor=user2 (pol_predict.h, Tsafrir, Etsion & Feitelson 2007): the
 * profile is planned with predicted run times, the only change being the
 * predicted view the policy reads. When a running job outlives its
 * prediction, its longer prediction no longer matches the profile, which
 * is then rebuilt and every waiting job placed again in queue order (the
 * step a host failure takes). Nothing is promised then.
 *
 * Cost: placement O(P), P the profile's breakpoints (at most about twice
 * the running plus waiting jobs; 86-131 on average on the saturated log of
 * bench/HISTORY.md "Replay performance", whose queue averages 554 jobs).
 * Compression after an early end visits every reserved job in queue order
 * (a packed array, cons_rec, kept in idx order: the queue's order without
 * user feedback; with feedback, whose queue follows the simulated submits,
 * the logged submit order, which changes only which job moves first: each
 * move is to an earlier start, so every promise still holds, as the
 * conformance rounds with feedback check) and moves job j (units u, planned duration d,
 * reserved at r) iff, with its reservation released, it would start
 * earlier: iff (a) the first fit of its shape (u, d) starts before r, or
 * (b) u units are free just before r (then it can slide back into the free
 * stretch before r, overlapping its own slot). (b) is a galloping search
 * from the segment of the last job that asked it, O(log P) at most, and
 * asked only of a job whose reservation start lay in a span
 * where units came back since it was last asked (mark_released: the
 * reserved jobs are also kept by start, cons_byr, and the marks reach the
 * span's first reservation by a galloping search; elsewhere the profile
 * only lost units, so the answer still holds). (a) reads a scan kept per
 * shape (cons_fit), which resumes where it stopped and survives moves and
 * early ends: reservations only take units away, and where units come back
 * (a move gives back only what its new slot does not cover) a shape's scan
 * goes back only if the shape gains there (its width was not free before
 * and is now) and the run of its width free around that place is long
 * enough for it, and then no further than that run's start
 * (rewind_fits). Scans no compression has read for a while are dropped.
 * Only a job that moves touches the profile, O(P), in one pass
 * (pol_profile_move). Measured on the
 * 100 000-job saturated log: 50 million visits, 11.8 million of them
 * asking (b), 4.0 million resumed scans, 3.9 million moves. Same schedule
 * as the plain algorithm (release, re-place, reserve), byte for byte. Due
 * reservations are the head of the by-start list (cons_byr); the plain
 * compression and islands take them from a heap, O(log) per reservation
 * change.
 *
 * The planned duration of a job is read in one place, planned_s().
 *
 * Idle shutdown (pol_view.boot_delay_max_s = D): a job given hosts at t
 * starts by t + D, so every waiting job is planned for D + its estimate
 * and promised t + D; a running job gives back what it holds from its
 * expected end, which the engine counts from its start after the boots, so
 * the profile never holds less than the jobs use. With D = 0 (no idle
 * shutdown) the plan is unchanged to the bit. predictor=user2 refuses a
 * D > 0 (its corrected ends would not match the profile's).
 *
 * Islands (eng_policy.h; whole-node allocation): one profile per island.
 * A job that fits in an island is reserved in the island where its slot
 * starts earliest (ties: the lowest island); a larger one at the earliest
 * time at which the islands together hold it for its whole estimate,
 * taking from each island in turn as many nodes as stay free there all
 * along. Each reservation keeps its units per island, and a due job is
 * started on free hosts of exactly those islands (pol_out_start_on), so
 * the profiles always match what the engine holds, island by island.
 * After an early end every waiting job, in queue order, is taken out and
 * placed again at its earliest slot, which is never later than its old one
 * (still free). The indexed compression above is left out here: O(islands x P) per
 * placement (O(B x islands x P) for a job larger than every island, B the
 * profiles' breakpoints) and O(queue x islands x P) per early end. Under
 * --alloc core, where a start can share hosts, a reservation cannot name
 * its cores in advance: conservative then refuses islands (run it with
 * --islands ignore). A job that fits in one island could still start on
 * named hosts of its island (the engine takes their free cores in turn,
 * all within it), but a job larger than every island is reserved a number
 * of cores in each island, and the engine takes every free core of each
 * named host but the last: an island gives it more cores than reserved
 * unless the free cores of the hosts named there add up to exactly that
 * number, and the surplus is what a later reservation in that island
 * counts on. Nor does taking each island's cores free at the start (what
 * the greedy take gives) keep the profiles exact: reservations due at the
 * same instant and not yet started hold cores the engine still shows free.
 * Without a way to name a number of cores per host, the refusal stays.
 */
#include "eng_policy.h"
#include "pol_predict.h"
#include "pol_profile.h"

#include "eng_error.h"
#include "eng_heap.h"
#include "eng_util.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A waiting job that holds a reservation, as compression reads it. The
 * reserved jobs are kept in idx (= queue) order in one packed array, so that
 * the pass over the queue at each early end reads memory in sequence. */
typedef struct cons_rec {
    double res_s;  /* reservation start; NAN once the job has started */
    double plan_s; /* planned duration (planned_s) */
    int32_t units;
    int32_t idx;
    uint16_t fit;   /* where its shape's scan was last found in fit[] */
    uint32_t stamp; /* fit[fit].stamp then (CONS_NO_STAMP: not looked up) */
} cons_rec;

/* How far the first-fit scan of one shape (units, planned duration) has
 * gone: no fit of the shape starts before scan.start in the profile as it
 * is now. Reservations only take units away, so a scan stays valid through
 * them; where units are given back (an early end, a move), the scans of the
 * shapes that could use them go back to where such a fit could start
 * (rewind_fits). So scans survive from one compression to the next. */
typedef struct cons_fit {
    int32_t units;
    bool taken;
    uint32_t stamp; /* new at each taking, 0 when not taken: a job's record
                     * holding the same stamp is of this shape (one compare
                     * per visit instead of three) */
    double dur_s;
    pol_profile_cursor scan;
    uint64_t seen;    /* profile version scan.i was computed at */
    uint64_t rewound; /* the last rewind_fits call that looked at it */
    uint64_t used;    /* the last compression that read it */
} cons_fit;

/* A waiting job with a reservation, in the order of reservation starts
 * (then idx): where units come back on (a, b], the jobs reserved in
 * (a, b] are found by a binary search (mark_released). */
typedef struct cons_byr {
    double res_s;
    int32_t idx;
    int32_t units;
} cons_byr;

#define CONS_FITS 1024 /* power of two; a saturated queue holds 20-60 shapes */
#define CONS_PROBES 8
#define CONS_KEEP_FITS 16  /* compressions a scan is kept without being read */
#define CONS_PRUNE_EVERY 4 /* compressions between prunings (dropped within 16 + 3) */
#define CONS_RUN_STEPS 8   /* how far rewind_fits looks for the ends of a run */
#define CONS_NO_STAMP UINT32_MAX
#define CONS_NARROW 64 /* widths whose first wider shape is kept (wider[]) */

typedef struct cons_state {
    pol_profile prof;
    double *res; /* reservation start per job; NAN when not waiting/placed */
    size_t n_jobs;
    int32_t *pending; /* submitted, not yet placed (queue order) */
    size_t n_pending, cap_pending;
    bool resv_added; /* the reservations' windows are in the profile */
    bool compress;
    eng_heap due_heap; /* (reservation start, job), stale entries skipped */
    size_t n_live;     /* jobs with a reservation */
    const pol_job **due;
    size_t cap_due;
    cons_rec *rec; /* the reserved jobs, idx order; started ones are NAN */
    size_t n_rec, cap_rec, n_dead;
    cons_fit fit[CONS_FITS];       /* open addressing by shape */
    uint16_t live[CONS_FITS];      /* the taken slots, by units then duration */
    int32_t live_units[CONS_FITS]; /* their units, for rewind_fits's search */
    uint16_t live_next[CONS_FITS]; /* the first of them wider than each (live_groups) */
    uint16_t wider[CONS_NARROW];   /* the first of them wider than w, for w < CONS_NARROW */
    size_t n_fits;
    uint32_t stamp;   /* the last stamp given to a slot */
    uint64_t version; /* changes of the profile */
    uint64_t rewinds; /* calls of rewind_fits */
    uint64_t passes;  /* compressions */
    bool plain;       /* compress=plain: the reference compression */
    bool indexed;     /* the indexed compression (neither plain nor islands) */
    /* Indexed compression: the reserved jobs by start, and per job whether
     * units may have come back just before its reservation since it was
     * last found unable to use them (0: its units are known not to be
     * free just before its reservation). */
    cons_byr *byr; /* = byr_mem + byr_off: started jobs leave from the head */
    size_t n_byr, cap_byr, byr_off;
    size_t byr_hint;   /* where the last move found its entry */
    cons_byr *byr_mem; /* cap_byr entries */
    uint8_t *dirty;
    pol_predictor pred; /* run times to plan with */
    /* Islands (n_isl > 0): a profile per island and, per job, the units
     * its reservation (then its run) holds in each island. */
    int32_t n_isl;
    int32_t *isl_units;
    int32_t largest;
    pol_profile *ip;
    int32_t *row;   /* n_jobs x n_isl */
    uint32_t *used; /* per host: the call that named it last */
    uint32_t call;
    size_t n_hosts;
    int32_t *named;
    size_t cap_named;
    double *cand;
    size_t cap_cand;
    int32_t *oldrow; /* n_isl: a reservation's row before it is placed again */
    int32_t **ipm;   /* per island: prefix maximum of its profile's free units */
    size_t *cap_ipm;
    bool ipm_dirty;
    double boot_s; /* pol_view.boot_delay_max_s, constant over a run */
} cons_state;

/* The duration a waiting job is planned with: read here and nowhere else
 * (under predictor=user2 the view's estimate is the prediction). A running
 * job's planned end is its start plus the same duration (the engine's
 * expected_end_s without a predictor), read in cons_on_finish and
 * cons_on_capacity. */
static double planned_s(const cons_state *s, const pol_job *j)
{
    return s->boot_s + j->estimate_s;
}

static bool heap_top_valid(const cons_state *s)
{
    const eng_heap_ev *e = &s->due_heap.v[0];
    return s->res[e->id] == e->t;
}

/* The indexed compression reads due reservations from its by-start list
 * (cons_byr) instead: no heap there. */
static int heap_push(cons_state *s, double t, int32_t job)
{
    if (s->indexed)
        return ENG_OK;
    return eng_heap_push(&s->due_heap, (eng_heap_ev){.t = t, .id = job});
}

static void cons_fini(void *state);

/* ---- islands ----------------------------------------------------------- */

static int isl_init(cons_state *s, const pol_setup *setup, char *err, size_t errlen)
{
    /* no POL_FLAG_ISLANDS_CORES: the engine runs it with islands under
     * node allocation only */
    assert(setup->alloc == POL_ALLOC_NODE);
    s->n_isl = setup->n_islands;
    s->n_hosts = setup->n_hosts;
    s->isl_units = malloc((size_t)s->n_isl * sizeof *s->isl_units);
    s->ip = calloc((size_t)s->n_isl, sizeof *s->ip);
    s->row = calloc((s->n_jobs ? s->n_jobs : 1) * (size_t)s->n_isl, sizeof *s->row);
    s->used = calloc(s->n_hosts ? s->n_hosts : 1, sizeof *s->used);
    s->ipm = calloc((size_t)s->n_isl, sizeof *s->ipm);
    s->cap_ipm = calloc((size_t)s->n_isl, sizeof *s->cap_ipm);
    s->ipm_dirty = true;
    s->oldrow = malloc((size_t)s->n_isl * sizeof *s->oldrow);
    bool ok = s->isl_units && s->ip && s->row && s->used && s->ipm && s->cap_ipm && s->oldrow;
    for (int32_t k = 0; ok && k < s->n_isl; k++) {
        s->isl_units[k] = setup->island_units[k];
        if (s->isl_units[k] > s->largest)
            s->largest = s->isl_units[k];
        ok = pol_profile_init(&s->ip[k], s->isl_units[k], 0) == ENG_OK;
    }
    if (!ok) {
        cons_fini(s);
        snprintf(err, errlen, "out of memory");
        return ENG_NOMEM;
    }
    return ENG_OK;
}

static int32_t *row_of(cons_state *s, int32_t idx)
{
    return s->row + (size_t)idx * (size_t)s->n_isl;
}

/* Adds sign x the job's units per island on [a, b) to the profiles. */
static int isl_add(cons_state *s, int32_t idx, double a, double b, int sign)
{
    const int32_t *r = row_of(s, idx);
    s->ipm_dirty = true;
    for (int32_t k = 0; k < s->n_isl; k++)
        if (r[k]) {
            int rc = pol_profile_add(&s->ip[k], a, b, sign * r[k]);
            if (rc)
                return rc;
        }
    return ENG_OK;
}

/* The fewest units free in profile p over [a, b). */
static int32_t min_free(const pol_profile *p, double a, double b)
{
    size_t lo = 0, hi = p->n;
    while (hi - lo > 1) { /* the segment holding a */
        size_t mid = (lo + hi) / 2;
        if (p->t[mid] <= a)
            lo = mid;
        else
            hi = mid;
    }
    int32_t m = p->free[lo];
    for (size_t i = lo + 1; i < p->n && p->t[i] < b; i++)
        if (p->free[i] < m)
            m = p->free[i];
    return m;
}

/* The earliest slot of a job larger than every island: at now or at a
 * breakpoint of some island's profile, where the islands' nodes free all
 * along add up to its units; taken from the islands in turn. Fills its
 * row; INFINITY when no such time is known (hosts down). */
static int isl_earliest_span(cons_state *s, const pol_view *v, const pol_job *j, double *at)
{
    size_t n;
    if (pol_profile_breaks(s->ip, s->n_isl, v->now_s, INFINITY, &s->cand, &s->cap_cand, &n))
        return ENG_NOMEM;
    int32_t *r = row_of(s, j->idx);
    *at = INFINITY;
    for (size_t c = 0; c < n; c++) {
        if (c > 0 && s->cand[c] == s->cand[c - 1])
            continue;
        double t = s->cand[c];
        int64_t sum = 0;
        for (int32_t k = 0; k < s->n_isl; k++)
            sum += min_free(&s->ip[k], t, t + planned_s(s, j));
        if (sum < j->units)
            continue;
        int32_t left = j->units;
        for (int32_t k = 0; k < s->n_isl; k++) {
            int32_t m = min_free(&s->ip[k], t, t + planned_s(s, j));
            r[k] = m < left ? m : left;
            left -= r[k];
        }
        *at = t;
        return ENG_OK;
    }
    return ENG_OK;
}

/* Reserves job j at its earliest slot from now (*at INFINITY: none known,
 * nothing reserved). */
static int isl_place(cons_state *s, const pol_view *v, const pol_job *j, double *at)
{
    int32_t *r = row_of(s, j->idx);
    for (int32_t k = 0; k < s->n_isl; k++)
        r[k] = 0;
    *at = INFINITY;
    if (j->units <= s->largest) {
        int32_t best = -1;
        for (int32_t k = 0; k < s->n_isl; k++) {
            if (s->isl_units[k] < j->units)
                continue;
            double t = pol_profile_earliest(&s->ip[k], v->now_s, planned_s(s, j), j->units);
            if (t < *at) {
                *at = t;
                best = k;
            }
        }
        if (best < 0 || !isfinite(*at)) {
            *at = INFINITY;
            return ENG_OK;
        }
        r[best] = j->units;
    } else {
        int rc = isl_earliest_span(s, v, j, at);
        if (rc || !isfinite(*at))
            return rc;
    }
    return isl_add(s, j->idx, *at, *at + planned_s(s, j), -1);
}

static int isl_rebuild_prefmax(cons_state *s)
{
    for (int32_t k = 0; k < s->n_isl; k++) {
        const pol_profile *p = &s->ip[k];
        if (eng_grow(&s->ipm[k], &s->cap_ipm[k], p->n, sizeof *s->ipm[k]))
            return ENG_NOMEM;
        int32_t m = 0;
        for (size_t i = 0; i < p->n; i++) {
            if (p->free[i] > m)
                m = p->free[i];
            s->ipm[k][i] = m;
        }
    }
    s->ipm_dirty = false;
    return ENG_OK;
}

/* Could job j, reserved at old, start earlier? Only if before old some
 * island that can hold it has its units free (or, for a job larger than
 * every island, the islands' most free before old add up to its units):
 * its own reservation does not reach before old, so taking it out changes
 * nothing there. A necessary condition, O(islands log P). */
static bool isl_may_move(const cons_state *s, const pol_job *j, double old)
{
    int64_t sum = 0;
    for (int32_t k = 0; k < s->n_isl; k++) {
        const pol_profile *p = &s->ip[k];
        size_t lo = 0, hi = p->n;
        while (lo < hi) { /* segments starting before old */
            size_t mid = (lo + hi) / 2;
            if (p->t[mid] < old)
                lo = mid + 1;
            else
                hi = mid;
        }
        int32_t m = lo ? s->ipm[k][lo - 1] : 0;
        if (j->units <= s->largest && s->isl_units[k] >= j->units && m >= j->units)
            return true;
        sum += m;
    }
    return j->units > s->largest && sum >= j->units;
}

/* After an early end: every waiting job that may move, in queue order,
 * taken out and placed again at its earliest slot (never later: its old
 * slot is free). */
static int isl_compress(cons_state *s, const pol_view *v)
{
    for (size_t q = 0; q < v->n_queue; q++) {
        const pol_job *j = v->queue[q];
        double old = s->res[j->idx];
        if (isnan(old) || old <= v->now_s)
            continue;
        if (s->ipm_dirty && isl_rebuild_prefmax(s))
            return ENG_NOMEM;
        if (!isl_may_move(s, j, old))
            continue;
        memcpy(s->oldrow, row_of(s, j->idx), (size_t)s->n_isl * sizeof *s->oldrow);
        int rc = isl_add(s, j->idx, old, old + planned_s(s, j), +1);
        double t;
        if (rc == ENG_OK)
            rc = isl_place(s, v, j, &t);
        if (rc)
            return rc;
        if (!(t <= old))
            return ENG_INVARIANT; /* the old slot was free: cannot happen */
        if (t == old &&
            memcmp(s->oldrow, row_of(s, j->idx), (size_t)s->n_isl * sizeof *s->oldrow) == 0)
            s->ipm_dirty = false; /* taken out and put back: the same profile */
        if (t < old) {
            s->res[j->idx] = t;
            rc = heap_push(s, t, j->idx);
            if (rc)
                return rc;
        }
    }
    return ENG_OK;
}

/* Hosts went down or came back: the profiles rebuilt from the running
 * jobs' hosts and the hosts that are down, then every reserved job placed
 * again in queue order (see cons_on_capacity). */
static int isl_rebuild(cons_state *s, const pol_view *v)
{
    int rc = ENG_OK;
    for (int32_t k = 0; k < s->n_isl && rc == ENG_OK; k++) {
        pol_profile_fini(&s->ip[k]);
        rc = pol_profile_init(&s->ip[k], s->isl_units[k], v->now_s);
    }
    for (size_t h = 0; h < v->n_hosts && rc == ENG_OK; h++)
        if (!v->hosts[h].up)
            rc = pol_profile_add(&s->ip[v->hosts[h].island], v->now_s, INFINITY, -1);
    for (size_t r = 0; r < v->n_running && rc == ENG_OK; r++) {
        const pol_job *j = v->running[r];
        int32_t *row = row_of(s, j->idx);
        for (int32_t k = 0; k < s->n_isl; k++)
            row[k] = 0;
        pol_island_held(v, j, row);
        rc = isl_add(s, j->idx, v->now_s, j->expected_end_s, -1);
    }
    return rc;
}

/* Starts due job j on free hosts of the islands its reservation holds. */
static int isl_start(cons_state *s, const pol_view *v, pol_out *out, const pol_job *j)
{
    if (eng_grow(&s->named, &s->cap_named, (size_t)j->units, sizeof *s->named))
        return ENG_NOMEM;
    const int32_t *r = row_of(s, j->idx);
    size_t n = 0;
    for (int32_t k = 0; k < s->n_isl; k++) {
        int32_t want = r[k];
        for (size_t h = 0; h < v->n_hosts && want > 0; h++) {
            const pol_host *ph = &v->hosts[h];
            if (ph->island != k || !ph->up || ph->free_cores != ph->cores || s->used[h] == s->call)
                continue;
            s->used[h] = s->call;
            s->named[n++] = (int32_t)h;
            want--;
        }
        if (want > 0)
            return ENG_INVARIANT; /* the profile promised these nodes */
    }
    pol_out_start_on(out, j, s->named, n);
    return ENG_OK;
}

/* Position of job idx's live record in rec (n_rec if none). A job queued
 * again after a host failure may also have a started record before it.
 * O(log n_rec). */
static size_t rec_find(const cons_state *s, int32_t idx)
{
    size_t lo = 0, hi = s->n_rec;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->rec[mid].idx < idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    while (lo < s->n_rec && s->rec[lo].idx == idx && isnan(s->rec[lo].res_s))
        lo++;
    return lo < s->n_rec && s->rec[lo].idx == idx ? lo : s->n_rec;
}

static void rec_compact(cons_state *s)
{
    size_t w = 0;
    for (size_t r = 0; r < s->n_rec; r++)
        if (!isnan(s->rec[r].res_s))
            s->rec[w++] = s->rec[r];
    s->n_rec = w;
    s->n_dead = 0;
}

/* Records job j reserved at t. Jobs are placed in queue order but for a
 * job queued again after a host failure, which goes to its idx's place. */
static int rec_insert(cons_state *s, const pol_job *j, double t)
{
    if (s->n_dead > 64 && s->n_dead > s->n_rec / 2)
        rec_compact(s);
    if (eng_grow(&s->rec, &s->cap_rec, s->n_rec + 1, sizeof *s->rec))
        return ENG_NOMEM;
    size_t at = s->n_rec;
    while (at > 0 && s->rec[at - 1].idx > j->idx)
        at--;
    memmove(s->rec + at + 1, s->rec + at, (s->n_rec - at) * sizeof *s->rec);
    s->rec[at] = (cons_rec){.res_s = t,
                            .plan_s = planned_s(s, j),
                            .units = j->units,
                            .idx = j->idx,
                            .stamp = CONS_NO_STAMP};
    s->n_rec++;
    return ENG_OK;
}

static void rec_drop(cons_state *s, int32_t idx)
{
    size_t r = rec_find(s, idx);
    if (r < s->n_rec) {
        s->rec[r].res_s = NAN;
        s->n_dead++;
    }
}

/* Job idx's reservation is due: it joins s->due (n_due of them, due_units
 * their units) and leaves the reserved set. 0, ENG_NOMEM or
 * ENG_INVARIANT (not in the queue). */
static int take_due(cons_state *s, const pol_view *v, int32_t idx, size_t *n_due,
                    int32_t *due_units)
{
    if (eng_grow(&s->due, &s->cap_due, *n_due + 1, sizeof *s->due))
        return ENG_NOMEM;
    const pol_job *j = pol_queue_find(v, idx);
    if (!j)
        return ENG_INVARIANT;
    s->due[(*n_due)++] = j;
    *due_units += j->units;
    s->res[idx] = NAN;
    rec_drop(s, idx);
    s->n_live--;
    return ENG_OK;
}

/* ---- the reserved jobs by start (indexed compression) ------------------ */

/* The first position in byr[k, end) at or after (r, idx) (end if none).
 * O(log n), branch-free (the answer lies in [base, base + len]). */
static size_t byr_lower_in(const cons_state *s, size_t k, size_t end, double r, int32_t idx)
{
    if (k >= end)
        return k; /* byr may not be allocated yet */
    const cons_byr *base = s->byr + k;
    size_t len = end - k;
    while (len > 0) {
        size_t half = len / 2;
        const cons_byr *b = &base[half];
        bool before = (b->res_s < r) | ((b->res_s == r) & (b->idx < idx));
        base = before ? b + 1 : base;
        len = before ? len - half - 1 : half;
    }
    return (size_t)(base - s->byr);
}

static size_t byr_lower(const cons_state *s, double r, int32_t idx)
{
    return byr_lower_in(s, 0, s->n_byr, r, idx);
}

/* byr_lower(s, r, idx), found by a galloping search outward from position
 * hint (any value; clamped): O(log d), d the positions between. The moves
 * of one compression come in queue order, whose reservations mostly grow
 * later, so each move's entry lies near the last one's; a search of the
 * whole list read cache lines far apart (a quarter of the visit loop's
 * samples on the saturated log of bench/HISTORY.md). */
static size_t byr_lower_near(const cons_state *s, size_t hint, double r, int32_t idx)
{
    size_t n = s->n_byr, step = 1;
    if (hint > n)
        hint = n;
#define BYR_BEFORE(k) (s->byr[k].res_s < r || (s->byr[k].res_s == r && s->byr[k].idx < idx))
    if (hint > 0 && !BYR_BEFORE(hint - 1)) { /* the answer is at most hint - 1 */
        while (step < hint && !BYR_BEFORE(hint - 1 - step))
            step *= 2;
        /* positions from hint - step on (0 if step >= hint) are not before */
        size_t lo = step < hint ? hint - step : 0;
        return byr_lower_in(s, lo, hint - 1, r, idx);
    }
    /* positions before hint are before (r, idx): the answer is at least hint */
    while (hint + step - 1 < n && BYR_BEFORE(hint + step - 1))
        step *= 2;
#undef BYR_BEFORE
    size_t end = hint + step - 1 < n ? hint + step - 1 : n;
    return byr_lower_in(s, hint + step / 2, end, r, idx);
}

/* The first position from k on whose reservation starts after a: a
 * galloping search, O(log d) for d positions skipped. A move's marks start
 * next to its own entry at old and skip the entries up to back, which the
 * walk of mark_from used to step through (79 million of its 106 million
 * steps on the saturated log of bench/HISTORY.md). */
static size_t byr_after(const cons_state *s, size_t k, double a)
{
    if (k >= s->n_byr || s->byr[k].res_s > a)
        return k;
    size_t step = 1;
    while (k + step < s->n_byr && s->byr[k + step].res_s <= a)
        step *= 2;
    size_t end = k + step < s->n_byr ? k + step + 1 : s->n_byr;
    return byr_lower_in(s, k, end, a, INT32_MAX);
}

/* Job j is reserved at t, its earliest slot: its units are not free just
 * before t (else it would fit earlier), so it starts clean. */
static int byr_insert(cons_state *s, const pol_job *j, double t)
{
    if (s->byr_off + s->n_byr == s->cap_byr) { /* no room after the tail */
        if (s->byr_off > 0)
            memmove(s->byr_mem, s->byr, s->n_byr * sizeof *s->byr);
        s->byr_off = 0;
        s->byr = s->byr_mem;
        /* at least twice the entries: the head then drops that many
         * before the next shift of them all */
        if (eng_grow(&s->byr_mem, &s->cap_byr, 2 * (s->n_byr + 1), sizeof *s->byr_mem))
            return ENG_NOMEM;
        s->byr = s->byr_mem;
    }
    size_t at = byr_lower(s, t, j->idx);
    memmove(s->byr + at + 1, s->byr + at, (s->n_byr - at) * sizeof *s->byr);
    s->byr[at] = (cons_byr){.res_s = t, .idx = j->idx, .units = j->units};
    s->n_byr++;
    s->dirty[j->idx] = 0;
    return ENG_OK;
}

/* The jobs reserved at or before now have just started: a prefix, which
 * the head passes (its entries were shifted down each time, 2.7 % of the
 * policy's instructions on the saturated log of bench/HISTORY.md). */
static void byr_drop_due(cons_state *s, double now)
{
    size_t k = 0;
    while (k < s->n_byr && s->byr[k].res_s <= now)
        k++;
    if (k == 0)
        return; /* byr may not be allocated yet */
    s->byr += k;
    s->byr_off += k;
    s->n_byr -= k;
}

/* Units came back on [a, b): the jobs reserved at r in (a, b], from
 * position k of byr on, whose units are now free just before r are marked
 * (i: the profile's segment holding a).
 * The others keep their answer: before r the profile has only lost units
 * since, or it would have come back here. O(the jobs looked at + the
 * profile's segments on [a, b]), after one binary search. */
static void mark_from(cons_state *s, size_t k, double a, double b, size_t i)
{
    /* In locals: a store to dirty (bytes) could change any of them for the
     * compiler, which would load them again after each mark. */
    const double *t = s->prof.t;
    const int32_t *free = s->prof.free;
    size_t n = s->prof.n, n_byr = s->n_byr;
    const cons_byr *byr = s->byr;
    uint8_t *dirty = s->dirty;
    for (k = byr_after(s, k, a); k < n_byr && byr[k].res_s <= b; k++) {
        double r = byr[k].res_s;
        while (i + 1 < n && t[i + 1] < r)
            i++; /* the last segment starting before r */
        if (free[i] >= byr[k].units)
            dirty[byr[k].idx] = 1;
    }
}

static void mark_released(cons_state *s, double a, double b)
{
    mark_from(s, byr_lower(s, a, INT32_MAX), a, b, pol_profile_cursor_at(&s->prof, a).i);
}

/* Job idx's reservation moved from old to t < old, giving units back on
 * [back, end) (back >= old): the jobs reserved after it in (back, end]
 * are marked, then its entry goes down to t (moves are mostly short: the
 * entries in between shift by one). */
static int byr_move(cons_state *s, int32_t idx, double old, double t, double back, double end,
                    size_t i)
{
    size_t from = byr_lower_near(s, s->byr_hint, old, idx);
    if (from == s->n_byr || s->byr[from].idx != idx)
        return ENG_INVARIANT;
    s->byr_hint = from;
    mark_from(s, from + 1, back, end, i);
    cons_byr b = s->byr[from];
    size_t to = from;
    while (to > 0 &&
           (s->byr[to - 1].res_s > t || (s->byr[to - 1].res_s == t && s->byr[to - 1].idx > idx))) {
        s->byr[to] = s->byr[to - 1];
        to--;
    }
    b.res_s = t;
    s->byr[to] = b;
    return ENG_OK;
}

static const pol_option cons_options[] = {
    {.key = "compress",
     .type = POL_OPT_CHOICE,
     .choices = POL_CHOICES("indexed", "plain"),
     .help =
         "how a compression finds the jobs that move (plain releases, re-places and reserves every waiting job: the same schedule at a higher cost)"},
    POL_PREDICT_OPTION,
    {0},
};

static int cons_init(void *state, const pol_setup *setup, char *err, size_t errlen)
{
    cons_state *s = state;
    s->plain = pol_opt_choice(setup, "compress") == 1;
    s->indexed = !s->plain && setup->n_islands == 0;
    s->n_jobs = setup->n_jobs;
    s->res = malloc((s->n_jobs ? s->n_jobs : 1) * sizeof *s->res);
    s->dirty = calloc(s->n_jobs ? s->n_jobs : 1, sizeof *s->dirty);
    if (!s->res || !s->dirty || pol_profile_init(&s->prof, setup->total_units, 0)) {
        free(s->res); /* the engine calls fini only after a successful init */
        free(s->dirty);
        s->res = NULL;
        s->dirty = NULL;
        snprintf(err, errlen, "out of memory");
        return ENG_NOMEM;
    }
    for (size_t i = 0; i < s->n_jobs; i++)
        s->res[i] = NAN;
    int rc = pol_predict_init(&s->pred, setup, err, errlen);
    if (rc) {
        pol_profile_fini(&s->prof);
        free(s->res);
        free(s->dirty);
        s->res = NULL;
        s->dirty = NULL;
        return rc;
    }
    if (setup->n_islands > 0)
        return isl_init(s, setup, err, errlen);
    return ENG_OK;
}

static void cons_fini(void *state)
{
    cons_state *s = state;
    for (int32_t k = 0; s->ip && k < s->n_isl; k++)
        pol_profile_fini(&s->ip[k]);
    free(s->ip);
    free(s->isl_units);
    free(s->row);
    free(s->used);
    free(s->named);
    free(s->cand);
    free(s->oldrow);
    for (int32_t k = 0; s->ipm && k < s->n_isl; k++)
        free(s->ipm[k]);
    free(s->ipm);
    free(s->cap_ipm);
    pol_profile_fini(&s->prof);
    free(s->res);
    free(s->pending);
    eng_heap_fini(&s->due_heap);
    free(s->due);
    free(s->rec);
    free(s->byr_mem);
    free(s->dirty);
    pol_predict_fini(&s->pred);
}

static int cons_on_submit(void *state, const pol_view *v, const pol_job *job)
{
    cons_state *s = state;
    s->boot_s = v->boot_delay_max_s;
    if (pol_predict_submit(&s->pred, job))
        return ENG_NOMEM;
    if (eng_grow(&s->pending, &s->cap_pending, s->n_pending + 1, sizeof *s->pending))
        return ENG_NOMEM;
    s->pending[s->n_pending++] = job->idx;
    return ENG_OK;
}

static void rewind_fits(cons_state *s, double now, double old, double dur, int32_t units, size_t i);

static int cons_on_finish(void *state, const pol_view *v, const pol_job *job)
{
    cons_state *s = state;
    double planned_end = job->start_s + (s->boot_s + pol_predict_of(&s->pred, job));
    if (!pol_predict_active(&s->pred))
        planned_end = job->expected_end_s;
    if (pol_predict_finish(&s->pred, job, v->now_s))
        return ENG_NOMEM;
    if (s->n_isl && v->now_s < planned_end) {
        for (int32_t k = 0; k < s->n_isl; k++)
            pol_profile_advance(&s->ip[k], v->now_s);
        int rc = isl_add(s, job->idx, v->now_s, planned_end, +1);
        if (rc)
            return rc;
        s->compress = true;
        return ENG_OK;
    }
    if (v->now_s < planned_end) {
        pol_profile_advance(&s->prof, v->now_s);
        int rc = pol_profile_add(&s->prof, v->now_s, planned_end, job->units);
        if (rc)
            return rc;
        s->version++;
        rewind_fits(s, v->now_s, v->now_s, planned_end - v->now_s, job->units, 0);
        if (s->indexed)
            mark_released(s, v->now_s, planned_end);
        s->compress = true;
    }
    return ENG_OK;
}

/* Places job at its earliest slot from now; returns its start, or INFINITY
 * (nothing reserved) when hosts that are down leave too few units for it
 * until further notice. */
static int place(cons_state *s, const pol_view *v, const pol_job *j, double *at)
{
    if (s->n_isl)
        return isl_place(s, v, j, at);
    double plan = planned_s(s, j);
    double t = pol_profile_earliest(&s->prof, v->now_s, plan, j->units);
    *at = t;
    if (!isfinite(t))
        return ENG_OK;
    int rc = pol_profile_add(&s->prof, t, t + plan, -j->units);
    if (rc)
        return rc;
    s->version++;
    if (s->indexed && (rc = byr_insert(s, j, t)))
        return rc;
    return rec_insert(s, j, t);
}

/* For rewind_fits, after each change of live: live_next, for each taken
 * slot in live, the position of the first one of a larger width (n_fits
 * if none), so that a width's remaining shapes are passed over at once;
 * wider[w], the position of the first one wider than w, for the narrow
 * widths. O(n_fits + CONS_NARROW). */
static void live_groups(cons_state *s)
{
    for (size_t k = s->n_fits; k-- > 0;)
        s->live_next[k] = (uint16_t)(k + 1 < s->n_fits && s->live_units[k + 1] == s->live_units[k]
                                         ? s->live_next[k + 1]
                                         : k + 1);
    size_t k = 0;
    for (int32_t w = 0; w < CONS_NARROW; w++) {
        while (k < s->n_fits && s->live_units[k] <= w)
            k++;
        s->wider[w] = (uint16_t)k;
    }
}

/* Forgets every scan (hosts went down or came back). */
static void fits_clear(cons_state *s)
{
    for (size_t k = 0; k < s->n_fits; k++) {
        s->fit[s->live[k]].taken = false;
        s->fit[s->live[k]].stamp = 0;
    }
    s->n_fits = 0;
    live_groups(s);
}

/* Forgets the scans that the last compression did not read: no job of
 * their shape was waiting then, and each would cost every later release a
 * look (rewind_fits). A shape that comes back starts a new scan. */
static void fits_prune(cons_state *s)
{
    size_t w = 0;
    for (size_t k = 0; k < s->n_fits; k++) {
        cons_fit *f = &s->fit[s->live[k]];
        if (f->used + CONS_KEEP_FITS > s->passes) {
            s->live_units[w] = s->live_units[k];
            s->live[w++] = s->live[k];
        } else {
            f->taken = false;
            f->stamp = 0;
        }
    }
    if (w < s->n_fits) {
        s->n_fits = w;
        live_groups(s);
    }
}

/* A stamp for a slot being taken. When the stamps run out (after 2^32 - 2
 * takings) they start again from 1: every taken slot gets a new one and
 * every record looks its shape up again, so no old stamp can match. */
static uint32_t next_stamp(cons_state *s)
{
    if (s->stamp + 1 == CONS_NO_STAMP) {
        s->stamp = 0;
        for (size_t k = 0; k < s->n_fits; k++)
            s->fit[s->live[k]].stamp = ++s->stamp;
        for (size_t r = 0; r < s->n_rec; r++)
            s->rec[r].stamp = CONS_NO_STAMP;
    }
    return ++s->stamp;
}

/* The scan of shape (units, dur): its slot, found or taken (a new scan
 * from now). A crowded neighbourhood gives its home slot to the new shape. */
static cons_fit *fit_slot(cons_state *s, int32_t units, double dur)
{
    uint64_t bits;
    memcpy(&bits, &dur, sizeof bits);
    uint64_t h = ((uint64_t)units * 0x9E3779B97F4A7C15ull ^ bits) * 0xBF58476D1CE4E5B9ull;
    size_t home = (size_t)(h >> 40) % CONS_FITS, slot = home;
    bool empty = false;
    for (int probe = 0; probe < CONS_PROBES && !empty; probe++) {
        slot = (home + (size_t)probe) % CONS_FITS;
        cons_fit *f = &s->fit[slot];
        if (f->taken && f->units == units && f->dur_s == dur)
            return f;
        empty = !f->taken;
    }
    if (!empty) { /* evict the home slot's shape */
        slot = home;
        size_t k = 0;
        while (s->live[k] != slot)
            k++;
        memmove(s->live + k, s->live + k + 1, (s->n_fits - k - 1) * sizeof *s->live);
        memmove(s->live_units + k, s->live_units + k + 1,
                (s->n_fits - k - 1) * sizeof *s->live_units);
        s->n_fits--;
    }
    size_t k = s->n_fits; /* by units, then duration (rewind_fits) */
    while (k > 0 && (s->live_units[k - 1] > units ||
                     (s->live_units[k - 1] == units && s->fit[s->live[k - 1]].dur_s > dur)))
        k--;
    memmove(s->live + k + 1, s->live + k, (s->n_fits - k) * sizeof *s->live);
    memmove(s->live_units + k + 1, s->live_units + k, (s->n_fits - k) * sizeof *s->live_units);
    s->live[k] = (uint16_t)slot;
    s->live_units[k] = units;
    s->n_fits++;
    live_groups(s);
    s->fit[slot] = (cons_fit){.units = units,
                              .taken = true,
                              .stamp = next_stamp(s),
                              .dur_s = dur,
                              .scan = pol_profile_cursor_start(&s->prof),
                              .seen = s->version};
    return &s->fit[slot];
}

/* The earliest slot from now for job e's shape in the profile as it is, or
 * INFINITY when none starts before until. The scan of each shape resumes
 * where it stopped, so the jobs of one shape visited in queue order, whose
 * reservations mostly grow later, share one pass over the profile, and the
 * next compression goes on from there. */
static double first_fit(cons_state *s, cons_rec *e, double until)
{
    cons_fit *f = &s->fit[e->fit];
    if (f->stamp != e->stamp) {
        f = fit_slot(s, e->units, e->plan_s);
        e->fit = (uint16_t)(f - s->fit);
        e->stamp = f->stamp;
    }
    f->used = s->passes;
    if (f->scan.start >= until)
        return INFINITY;       /* known: none before until */
    if (f->seen != s->version) /* breakpoints moved (mostly near); t[0] may be later */
        f->scan = pol_profile_cursor_near(&s->prof, f->scan.start, f->scan.i);
    f->seen = s->version;
    return pol_profile_earliest_resume(&s->prof, &f->scan, e->plan_s, e->units, until);
}

/* units were given back on [old, old + dur) (i: the profile's segment
 * holding old). A fit of a scanned shape that did not exist before holds
 * a time of the span where the shape's width was not free before and is
 * now: in a segment of the span with f free now, the widths in
 * (f - units, f]. Such a fit starts after that segment's start (or old)
 * less the shape's duration, and lies in the run of segments with the
 * width free around it (pol_profile_run), so it starts at or after the
 * run's start, and not at all if the run is shorter than the shape's
 * duration. Fits before that, and before where the shape's scan stood, did
 * not exist before and still do not: the scan goes back only that far.
 * The first segment that sets a shape's scan gives its earliest new start
 * (later segments and runs start later). The shapes are kept by units, so
 * each segment looks only at the widths that gain there, and within a
 * width by duration, so the first shape longer than the run ends the
 * width's look (on the saturated log of bench/HISTORY.md most shapes that
 * reach the run's test fail it: 8.4 million of 8.7 million). The first
 * shape wider than f - units is read from a table for narrow widths
 * (wider[]) and found by a binary search otherwise, and a width's look
 * ends with a jump past its remaining shapes (live_next). */
static void rewind_fits(cons_state *s, double now, double old, double dur, int32_t units, size_t i)
{
    const pol_profile *p = &s->prof;
    double end = old + dur;
    s->rewinds++;
    for (; i < p->n && (p->t[i] < end || p->t[i] <= old); i++) {
        /* The widths that gain here: free now, not free before. */
        int32_t fv = p->free[i];
        double here = p->t[i] > old ? p->t[i] : old;
        int32_t w = fv - units;
        size_t lo = 0, hi = s->n_fits;
        if (w < CONS_NARROW)
            lo = hi = w < 0 ? 0 : s->wider[w];
        while (lo < hi) { /* first shape wider than w */
            size_t mid = (lo + hi) / 2;
            if (s->live_units[mid] <= w)
                lo = mid + 1;
            else
                hi = mid;
        }
        int32_t run_u = -1; /* the width whose run around i is known */
        double from = 0, to = 0;
        for (size_t k = lo; k < s->n_fits; k++) {
            int32_t u = s->live_units[k];
            if (u > fv)
                break;
            cons_fit *f = &s->fit[s->live[k]];
            if (f->rewound == s->rewinds)
                continue; /* settled at an earlier segment of the span */
            /* No new fit starts before max(here - dur, now), nor at a
             * later segment (here only grows): if the scan stands there
             * already, nothing to do, now or later in the span. */
            double x = here - f->dur_s > now ? here - f->dur_s : now;
            if (!(x < f->scan.start))
                continue;
            if (run_u != u) { /* once per width and segment, where needed */
                pol_profile_run(p, i, u, CONS_RUN_STEPS, &from, &to);
                run_u = u;
            }
            if (to < from + f->dur_s) {
                /* The run of u free here is too short, and so for the
                 * shapes of width u after this one, which are longer:
                 * they would change nothing here. */
                k = (size_t)s->live_next[k] - 1;
                continue;
            }
            if (x < from)
                x = from;
            if (x < f->scan.start)
                f->scan.start = x;   /* scan.i is recomputed at the next use */
            f->rewound = s->rewinds; /* later segments give later starts */
        }
    }
}

/* Where job e, reserved at old, would go with its reservation released,
 * given f, the first fit of its shape if it starts before old (else
 * INFINITY), and whether its units are free just before old. A start before
 * old - plan does not overlap the job's own reservation, so the first such
 * slot is f. A start s in [old - plan, old) overlaps it: on
 * [old, s + plan) the job's own units are there, so it fits iff its units
 * are free all along [s, old), i.e. from the end of the last blocking
 * segment before old on — never, if the segment just before old blocks.
 * hint: the segment holding old where free_before (the search that told
 * it left it there). */
static double moved_start(const cons_state *s, const pol_view *v, const cons_rec *e, double f,
                          bool free_before, size_t hint)
{
    double old = e->res_s;
    double from = old - e->plan_s > v->now_s ? old - e->plan_s : v->now_s;
    if (f <= from || !free_before)
        return f < old ? f : old;
    double since = pol_profile_free_since_near(&s->prof, old, e->units, hint);
    double t = since > from ? since : from;
    if (t > old)
        t = old;
    return f < t ? f : t;
}

/* Moves job e from its reservation to t < its reservation. */
static int move(cons_state *s, const pol_view *v, cons_rec *e, double t)
{
    double old = e->res_s;
    int rc = pol_profile_move(&s->prof, old, t, e->plan_s, e->units);
    if (rc)
        return rc; /* ENG_INVARIANT: t was not free after all */
    s->version++;
    /* Units were taken on [t, old) or [t, t + plan) and given back on
     * [back, old + plan); only scans and reservations that could use what
     * came back need another look. */
    double back = t + e->plan_s > old ? t + e->plan_s : old;
    size_t i = s->prof.back_i; /* holding back */
    if (i == SIZE_MAX)
        i = pol_profile_cursor_near(&s->prof, back, s->prof.edit_i).i;
    rewind_fits(s, v->now_s, back, old + e->plan_s - back, e->units, i);
    rc = byr_move(s, e->idx, old, t, back, old + e->plan_s, i);
    if (rc)
        return rc;
    /* Its mark, cleared by the visit, stays clear (as after byr_insert):
     * its units are not free just before t > now, for t is its earliest
     * start with its reservation released, so a window starting just
     * before t would fit too if they were ([t, t + plan) does), and the
     * move changed nothing before t. mark_from sets it when units come
     * back there. At t = now it is due and not visited again. */
    e->res_s = t;
    s->res[e->idx] = t;
    return heap_push(s, t, e->idx);
}

/* One pass over the reserved jobs in queue order (skipping the started
 * ones): a job moves iff the first fit of its shape starts before its
 * reservation or its units are free just before it (moved_start); the two
 * tests cost O(1) amortized and O(log P), and most jobs fail both. */
static int compress(cons_state *s, const pol_view *v)
{
    size_t hint = 0; /* the segment of the last job asked (b): the
                      * reservations of jobs in queue order mostly grow
                      * later */
    s->passes++;
    /* The records of started jobs are skipped, and dropped only when they
     * are many: a pass that dropped them copied every record after the
     * first one (started jobs are mostly early in the queue). */
    if (s->n_dead > s->n_rec / 8)
        rec_compact(s);
    for (size_t r = 0; r < s->n_rec; r++) {
        cons_rec *e = &s->rec[r];
        double old = e->res_s;
        if (!(old > v->now_s))
            continue; /* started (NAN), or due now */
        double f = first_fit(s, e, old);
        bool free_before = false;
        if (s->dirty[e->idx]) {
            s->dirty[e->idx] = 0;
            free_before = pol_profile_free_before_near(&s->prof, old, &hint) >= e->units;
        }
        if (!free_before && !(f < old))
            continue;
        double t = moved_start(s, v, e, f, free_before, hint);
        if (t > old)
            return ENG_INVARIANT; /* the old slot was free: cannot happen */
        if (t < old) {
            int rc = move(s, v, e, t);
            if (rc)
                return rc;
        }
    }
    if (s->passes % CONS_PRUNE_EVERY == 0)
        fits_prune(s);
    return ENG_OK;
}

/* The reference: every reserved job in queue order is released, placed
 * at its earliest slot and reserved again (three O(P) passes each). */
static int compress_plain(cons_state *s, const pol_view *v)
{
    size_t w = 0;
    for (size_t r = 0; r < s->n_rec; r++) {
        if (isnan(s->rec[r].res_s))
            continue;
        s->rec[w] = s->rec[r];
        cons_rec *e = &s->rec[w++];
        double old = e->res_s;
        if (old <= v->now_s)
            continue;
        int rc = pol_profile_add(&s->prof, old, old + e->plan_s, e->units);
        if (rc)
            return rc;
        double t = pol_profile_earliest(&s->prof, v->now_s, e->plan_s, e->units);
        if (!(t <= old))
            return ENG_INVARIANT; /* the old slot was free: cannot happen */
        rc = pol_profile_add(&s->prof, t, t + e->plan_s, -e->units);
        if (rc)
            return rc;
        s->version++;
        if (t < old) {
            e->res_s = t;
            s->res[e->idx] = t;
            rc = heap_push(s, t, e->idx);
            if (rc)
                return rc;
        }
    }
    s->n_rec = w;
    s->n_dead = 0;
    return ENG_OK;
}

static int by_idx(const void *a, const void *b)
{
    const pol_job *x = *(const pol_job *const *)a, *y = *(const pol_job *const *)b;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Drops stale heap entries when they outnumber the live ones. */
static int heap_rebuild(cons_state *s, const pol_view *v)
{
    s->due_heap.n = 0;
    for (size_t q = 0; q < v->n_queue; q++) {
        int32_t idx = v->queue[q]->idx;
        if (!isnan(s->res[idx]) && heap_push(s, s->res[idx], idx))
            return ENG_NOMEM;
    }
    return ENG_OK;
}

/* Hosts went down or came back (failures on): rebuild the profile from the
 * running jobs and the hosts that are down (taken until further notice),
 * then place every waiting job again in queue order. Guarantees cannot
 * survive a lost host; the checker does not hold policies to them then. */
/* Reservations (pol_view.resv): conservative plans windows that hold its
 * whole pool (Flags=MAINT, Nodes=ALL), in its profile as no unit free over
 * them, so every reservation it makes and every promise lies outside them.
 * A window on some hosts only is refused (ENG_USAGE): a count of free
 * units cannot tell which hosts a job crossing it may take. */
static int resv_add(cons_state *s, const pol_view *v, pol_out *out)
{
    for (size_t r = 0; r < v->n_resv; r++)
        if ((size_t)v->resv[r].n_pos != v->n_hosts)
            return out ? pol_out_error(out, ENG_USAGE,
                                       "conservative plans reservations that hold its whole pool "
                                       "(Flags=MAINT or Nodes=ALL); one over [%g, %g) holds %d of "
                                       "its %zu hosts: use easy or fcfs",
                                       v->resv[r].start_s, v->resv[r].end_s, v->resv[r].n_pos,
                                       v->n_hosts)
                       : ENG_USAGE;
    for (size_t r = 0; r < v->n_resv; r++) {
        int rc = pol_profile_add(&s->prof, fmax(v->resv[r].start_s, v->now_s), v->resv[r].end_s,
                                 -v->resv[r].units);
        if (rc)
            return rc;
    }
    s->resv_added = true;
    return ENG_OK;
}

/* The units windows hold now (none run a job: the profile shows them
 * taken, the engine free). */
static int32_t resv_held_now(const pol_view *v)
{
    int32_t n = 0;
    for (size_t r = 0; r < v->n_resv; r++)
        if (v->resv[r].start_s <= v->now_s && v->now_s < v->resv[r].end_s)
            n += v->resv[r].units;
    return n;
}

static int cons_rebuild(cons_state *s, const pol_view *v)
{
    pol_profile_fini(&s->prof);
    if (pol_profile_init(&s->prof, v->total_units, v->now_s))
        return ENG_NOMEM;
    int32_t down = 0;
    for (size_t h = 0; h < v->n_hosts; h++)
        if (!v->hosts[h].up)
            down += v->alloc == POL_ALLOC_NODE ? 1 : v->hosts[h].cores;
    int rc = pol_profile_add(&s->prof, v->now_s, INFINITY, -down);
    if (rc == ENG_OK && v->n_resv)
        rc = resv_add(s, v, NULL);
    for (size_t r = 0; rc == ENG_OK && r < v->n_running; r++) {
        const pol_job *j = v->running[r];
        rc = pol_profile_add(&s->prof, v->now_s, j->expected_end_s, -j->units);
    }
    if (rc == ENG_OK && s->n_isl)
        rc = isl_rebuild(s, v);
    s->due_heap.n = 0;
    s->n_live = 0;
    s->n_rec = 0;
    s->n_byr = 0;
    s->byr_off = 0;
    s->byr = s->byr_mem;
    s->n_dead = 0;
    s->compress = false;
    s->version++;
    fits_clear(s);
    for (size_t q = 0; rc == ENG_OK && q < v->n_queue; q++) {
        const pol_job *j = v->queue[q];
        if (isnan(s->res[j->idx]))
            continue; /* pending: placed by the next schedule() */
        double t;
        rc = place(s, v, j, &t);
        if (rc == ENG_OK && !isfinite(t)) { /* no room until hosts come back */
            s->res[j->idx] = NAN;
            rc = cons_on_submit(s, v, j);
            continue;
        }
        if (rc == ENG_OK) {
            s->res[j->idx] = t;
            s->n_live++;
            rc = heap_push(s, t, j->idx);
        }
    }
    return rc;
}

static int cons_on_capacity(void *state, const pol_view *engine_view)
{
    cons_state *s = state;
    s->boot_s = engine_view->boot_delay_max_s;
    pol_view v;
    if (pol_predict_view(&s->pred, engine_view, &v, NULL))
        return ENG_NOMEM;
    return cons_rebuild(s, &v);
}

static int cons_schedule(void *state, const pol_view *engine_view, pol_out *out)
{
    cons_state *s = state;
    s->boot_s = engine_view->boot_delay_max_s;
    if (s->boot_s > 0 && pol_predict_active(&s->pred))
        return pol_out_error(out, ENG_USAGE,
                             "predictor=user2 does not plan with boot delays (--suspend-time) yet");
    int rc;
    pol_view pv;
    const pol_view *v = &pv;
    bool corrected;
    if (pol_predict_view(&s->pred, engine_view, &pv, &corrected))
        return ENG_NOMEM;
    if (corrected && (rc = cons_rebuild(s, v)))
        return rc; /* a running job outlived its prediction */
    pol_profile_advance(&s->prof, v->now_s);
    for (int32_t k = 0; k < s->n_isl; k++)
        pol_profile_advance(&s->ip[k], v->now_s);
    if (v->n_resv && !s->resv_added) {
        if (pol_predict_active(&s->pred))
            return pol_out_error(out, ENG_USAGE,
                                 "a predictor does not plan around reservations yet");
        if ((rc = resv_add(s, v, out)))
            return rc;
        fits_clear(s);
    }
    s->version++;
    if (s->compress) {
        s->compress = false;
        rc = s->n_isl ? isl_compress(s, v) : s->plain ? compress_plain(s, v) : compress(s, v);
        if (rc)
            return rc;
    }
    size_t kept = 0;
    for (size_t k = 0; k < s->n_pending; k++) {
        const pol_job *j = pol_queue_find(v, s->pending[k]);
        if (!j)
            return ENG_INVARIANT;
        double t;
        rc = place(s, v, j, &t);
        if (rc)
            return rc;
        if (!isfinite(t)) { /* too wide while hosts are down: try again later */
            s->pending[kept++] = j->idx;
            continue;
        }
        s->res[j->idx] = t;
        s->n_live++;
        if (!pol_predict_active(&s->pred))
            pol_out_promise(out, j, t + s->boot_s);
        rc = heap_push(s, t, j->idx);
        if (rc)
            return rc;
    }
    s->n_pending = kept;

    /* Start every job whose reservation is due, in queue order. */
    size_t n_due = 0;
    int32_t due_units = 0;
    for (size_t k = 0; s->indexed && k < s->n_byr && s->byr[k].res_s <= v->now_s; k++) {
        rc = take_due(s, v, s->byr[k].idx, &n_due, &due_units);
        if (rc)
            return rc;
    }
    while (s->due_heap.n && s->due_heap.v[0].t <= v->now_s) {
        if (heap_top_valid(s)) {
            rc = take_due(s, v, s->due_heap.v[0].id, &n_due, &due_units);
            if (rc)
                return rc;
        }
        eng_heap_pop(&s->due_heap);
    }
    if (n_due > 1)
        qsort(s->due, n_due, sizeof *s->due, by_idx);
    if (s->n_isl) {
        s->call++;
        for (size_t k = 0; k < n_due; k++) {
            rc = isl_start(s, v, out, s->due[k]);
            if (rc)
                return rc;
        }
        /* The profiles and the engine must agree on what each island has
         * free now. */
        for (int32_t k = 0; k < s->n_isl; k++) {
            int32_t due_k = 0;
            for (size_t q = 0; q < n_due; q++)
                due_k += row_of(s, s->due[q]->idx)[k];
            if (pol_profile_free_at(&s->ip[k], v->now_s) != v->island_free[k] - due_k)
                return ENG_INVARIANT;
        }
    } else {
        if (s->indexed)
            byr_drop_due(s, v->now_s);
        for (size_t k = 0; k < n_due; k++)
            pol_out_start(out, s->due[k]);
        /* The profile and the engine must agree on what is free now. */
        if (pol_profile_free_at(&s->prof, v->now_s) + resv_held_now(v) != v->free_units - due_units)
            return ENG_INVARIANT;
    }

    while (s->due_heap.n && !heap_top_valid(s))
        eng_heap_pop(&s->due_heap);
    if (s->due_heap.n > 2 * s->n_live + 64 && heap_rebuild(s, v))
        return ENG_NOMEM;
    if (s->indexed && s->n_byr)
        pol_out_wakeup(out, s->byr[0].res_s);
    else if (s->due_heap.n)
        pol_out_wakeup(out, s->due_heap.v[0].t);
    return ENG_OK;
}

static void cons_report(void *state, char *buf, size_t len)
{
    cons_state *s = state;
    pol_predict_report(&s->pred, buf, len);
}

const pol_type pol_conservative = {
    .name = "conservative",
    .summary = "conservative backfilling: every waiting job holds a reservation",
    .citation = "Mu'alem & Feitelson 2001",
    .flags = POL_FLAG_POWER_CAP | POL_FLAG_ISLANDS | POL_FLAG_CORES | POL_FLAG_BOOT_PLANS |
             POL_FLAG_RESERVATIONS,
    .state_size = sizeof(cons_state),
    .options = cons_options,
    .init = cons_init,
    .fini = cons_fini,
    .on_submit = cons_on_submit,
    .on_finish = cons_on_finish,
    .on_capacity = cons_on_capacity,
    .schedule = cons_schedule,
    .report = cons_report,
};
