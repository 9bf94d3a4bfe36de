/* pol_conservative.c — conservative backfilling.
 *
 * Mu'alem & Feitelson 2001 (after Lifka 1995); restated in
 * ../shared/reference/backfill.md §4. Every waiting job holds a reservation
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
 *   past its guarantee (pitfall 7 of backfill.md). Running jobs never move.
 * - Every call starts the jobs whose reservation is due, in queue order, and
 *   asks to be woken at the next reservation time.
 *
 * Guarantee (checked by the engine): no job starts later than the
 * reservation it received at submission.
 *
 * Cost: placement O(P), P the profile's breakpoints (about twice the
 * running plus waiting jobs). Compression after an early end skips every
 * job that cannot move — one whose units are never free before its
 * reservation, a test made in O(log P) against a prefix maximum of the
 * profile — and asks of the others where they would go without touching
 * the profile: the first fit of the job's shape (units, estimate), scanned
 * once per shape and resumed from job to job until the profile changes,
 * and the stretch of free units just before the reservation (a start that
 * overlaps the job's own reservation). Only a job that does move changes
 * the profile, O(P). On the first 30 000 jobs of a saturated log (mostly serial,
 * walltime-class estimates, load 1.5 on 1 024 nodes) 84 % of the queue
 * passes the first test at every early end and 12 % moves: re-placing each
 * of those by release, scan and reserve cost 24x EASY's replay time
 * (bench/README.md "Replay performance"). Same schedule as before, byte
 * for byte. Due reservations come from a heap, O(log) per reservation
 * change.
 *
 * Islands (pol_policy.h; whole-node allocation): one profile per island.
 * A job that fits in an island is reserved in the island where its slot
 * starts earliest (ties: the lowest island); a larger one at the earliest
 * time at which the islands together hold it for its whole estimate,
 * taking from each island in turn as many nodes as stay free there all
 * along. Each reservation keeps its units per island, and a due job is
 * started on free hosts of exactly those islands (pol_out_start_on), so
 * the profiles always match what the engine holds, island by island.
 * After an early end every waiting job, in queue order, is taken out and
 * placed again at its earliest slot, which is never later than its old one
 * (still free). The shortcuts above are left out here: O(islands x P) per
 * placement (O(B x islands x P) for a job larger than every island, B the
 * profiles' breakpoints) and O(queue x islands x P) per early end. Under
 * --alloc core, where a start can share hosts, a reservation cannot name
 * its cores in advance: conservative then refuses islands (run it with
 * --islands ignore).
 */
#include "pol_policy.h"
#include "pol_profile.h"

#include "eng_error.h"
#include "eng_heap.h"
#include "eng_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cons_state {
    pol_profile prof;
    double *res; /* reservation start per job; NAN when not waiting/placed */
    size_t n_jobs;
    int32_t *pending; /* submitted, not yet placed (queue order) */
    size_t n_pending, cap_pending;
    bool compress;
    eng_heap due_heap; /* (reservation start, job), stale entries skipped */
    size_t n_live; /* jobs with a reservation */
    const pol_job **due;
    size_t cap_due;
    int32_t *prefmax; /* prefix maximum of prof.free, rebuilt when dirty */
    size_t cap_prefmax;
    bool prefmax_dirty;
    /* Within one compression: the earliest slot from now of each (units,
     * estimate) asked, while the profile has not changed (version). */
    struct first_fit {
        int32_t units;
        double dur_s;
        pol_profile_cursor scan; /* how far the scan went */
        uint64_t version;
    } fit[64];
    uint64_t version;
    /* Islands (n_isl > 0): a profile per island and, per job, the units
     * its reservation (then its run) holds in each island. */
    int32_t n_isl;
    int32_t *isl_units;
    int32_t largest;
    pol_profile *ip;
    int32_t *row; /* n_jobs x n_isl */
    uint32_t *used; /* per host: the call that named it last */
    uint32_t call;
    size_t n_hosts;
    int32_t *named;
    size_t cap_named;
    double *cand;
    size_t cap_cand;
    int32_t *oldrow; /* n_isl: a reservation's row before it is placed again */
    int32_t **ipm; /* per island: prefix maximum of its profile's free units */
    size_t *cap_ipm;
    bool ipm_dirty;
} cons_state;

static bool heap_top_valid(const cons_state *s)
{
    const eng_heap_ev *e = &s->due_heap.v[0];
    return s->res[e->id] == e->t;
}

static int heap_push(cons_state *s, double t, int32_t job)
{
    return eng_heap_push(&s->due_heap, (eng_heap_ev){.t = t, .id = job});
}

static void cons_fini(void *state);

/* ---- islands ----------------------------------------------------------- */

static int isl_init(cons_state *s, const pol_setup *setup, char *err, size_t errlen)
{
    if (setup->alloc != POL_ALLOC_NODE) {
        snprintf(err, errlen, "conservative plans with islands under whole-node allocation "
                              "only; with --alloc core run it with --islands ignore");
        cons_fini(s);
        return ENG_USAGE;
    }
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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The earliest slot of a job larger than every island: at now or at a
 * breakpoint of some island's profile, where the islands' nodes free all
 * along add up to its units; taken from the islands in turn. Fills its
 * row; INFINITY when no such time is known (hosts down). */
static int isl_earliest_span(cons_state *s, const pol_view *v, const pol_job *j, double *at)
{
    size_t n = 1;
    for (int32_t k = 0; k < s->n_isl; k++)
        n += s->ip[k].n;
    if (eng_grow(&s->cand, &s->cap_cand, n, sizeof *s->cand))
        return ENG_NOMEM;
    n = 0;
    s->cand[n++] = v->now_s;
    for (int32_t k = 0; k < s->n_isl; k++)
        for (size_t i = 0; i < s->ip[k].n; i++)
            if (s->ip[k].t[i] > v->now_s)
                s->cand[n++] = s->ip[k].t[i];
    qsort(s->cand, n, sizeof *s->cand, cmp_double);
    int32_t *r = row_of(s, j->idx);
    *at = INFINITY;
    for (size_t c = 0; c < n; c++) {
        if (c > 0 && s->cand[c] == s->cand[c - 1])
            continue;
        double t = s->cand[c];
        int64_t sum = 0;
        for (int32_t k = 0; k < s->n_isl; k++)
            sum += min_free(&s->ip[k], t, t + j->estimate_s);
        if (sum < j->units)
            continue;
        int32_t left = j->units;
        for (int32_t k = 0; k < s->n_isl; k++) {
            int32_t m = min_free(&s->ip[k], t, t + j->estimate_s);
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
            double t = pol_profile_earliest(&s->ip[k], v->now_s, j->estimate_s, j->units);
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
    return isl_add(s, j->idx, *at, *at + j->estimate_s, -1);
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
        int rc = isl_add(s, j->idx, old, old + j->estimate_s, +1);
        double t;
        if (rc == ENG_OK)
            rc = isl_place(s, v, j, &t);
        if (rc)
            return rc;
        if (!(t <= old))
            return ENG_INVARIANT; /* the old slot was free: cannot happen */
        if (t == old && memcmp(s->oldrow, row_of(s, j->idx),
                               (size_t)s->n_isl * sizeof *s->oldrow) == 0)
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
            if (ph->island != k || !ph->up || ph->free_cores != ph->cores ||
                s->used[h] == s->call)
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

static int cons_init(void *state, const pol_setup *setup, char *err, size_t errlen)
{
    cons_state *s = state;
    s->n_jobs = setup->n_jobs;
    s->res = malloc((s->n_jobs ? s->n_jobs : 1) * sizeof *s->res);
    if (!s->res || pol_profile_init(&s->prof, setup->total_units, 0)) {
        free(s->res); /* the engine calls fini only after a successful init */
        s->res = NULL;
        snprintf(err, errlen, "out of memory");
        return ENG_NOMEM;
    }
    for (size_t i = 0; i < s->n_jobs; i++)
        s->res[i] = NAN;
    s->prefmax_dirty = true;
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
    free(s->prefmax);
}

static int cons_on_submit(void *state, const pol_view *v, const pol_job *job)
{
    (void)v;
    cons_state *s = state;
    if (eng_grow(&s->pending, &s->cap_pending, s->n_pending + 1, sizeof *s->pending))
        return ENG_NOMEM;
    s->pending[s->n_pending++] = job->idx;
    return ENG_OK;
}

static int cons_on_finish(void *state, const pol_view *v, const pol_job *job)
{
    cons_state *s = state;
    if (s->n_isl && v->now_s < job->expected_end_s) {
        for (int32_t k = 0; k < s->n_isl; k++)
            pol_profile_advance(&s->ip[k], v->now_s);
        int rc = isl_add(s, job->idx, v->now_s, job->expected_end_s, +1);
        if (rc)
            return rc;
        s->compress = true;
        return ENG_OK;
    }
    if (!s->n_isl && v->now_s < job->expected_end_s) {
        pol_profile_advance(&s->prof, v->now_s);
        int rc = pol_profile_add(&s->prof, v->now_s, job->expected_end_s, job->units);
        if (rc)
            return rc;
        s->compress = true;
        s->prefmax_dirty = true;
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
    double t = pol_profile_earliest(&s->prof, v->now_s, j->estimate_s, j->units);
    *at = t;
    if (!isfinite(t))
        return ENG_OK;
    int rc = pol_profile_add(&s->prof, t, t + j->estimate_s, -j->units);
    if (rc)
        return rc;
    s->prefmax_dirty = true;
    *at = t;
    return ENG_OK;
}

static int rebuild_prefmax(cons_state *s)
{
    if (eng_grow(&s->prefmax, &s->cap_prefmax, s->prof.n, sizeof *s->prefmax))
        return ENG_NOMEM;
    int32_t m = 0;
    for (size_t k = 0; k < s->prof.n; k++) {
        if (s->prof.free[k] > m)
            m = s->prof.free[k];
        s->prefmax[k] = m;
    }
    s->prefmax_dirty = false;
    return ENG_OK;
}

/* Could job j start anywhere in [now, res)? Only if some segment starting
 * before res has j->units free; a reservation never covers times before
 * its own start, so the profile with j removed is the same there. */
static bool may_move(cons_state *s, const pol_job *j, double res)
{
    size_t k = 0, lo = 0, hi = s->prof.n;
    while (lo < hi) { /* last segment starting before res */
        size_t mid = (lo + hi) / 2;
        if (s->prof.t[mid] < res)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return false;
    k = lo - 1;
    return s->prefmax[k] >= j->units;
}

/* The earliest slot from now for units x dur in the profile as it is, or
 * INFINITY when none starts before until. The scan of each shape resumes
 * where it stopped until the profile changes (version), so the jobs of one
 * shape visited in queue order, whose reservations mostly grow later, share
 * one pass over the profile. */
static double first_fit(cons_state *s, int32_t units, double dur, double until)
{
    uint64_t bits;
    memcpy(&bits, &dur, sizeof bits);
    struct first_fit *f = &s->fit[((uint64_t)units * 0x9E3779B97F4A7C15ull ^ bits) % 64];
    if (f->version != s->version || f->units != units || f->dur_s != dur)
        *f = (struct first_fit){.units = units,
                                .dur_s = dur,
                                .scan = pol_profile_cursor_start(&s->prof),
                                .version = s->version};
    return pol_profile_earliest_resume(&s->prof, &f->scan, dur, units, until);
}

/* Where job j, reserved at old, would go with its reservation released.
 * A start before old - estimate does not overlap the job's own
 * reservation, so the first such slot is the profile's first fit for the
 * job's shape. A start s in [old - estimate, old) overlaps it: on
 * [old, s + estimate) the job's own units are there, so it fits iff its
 * units are free all along [s, old), i.e. from the end of the last
 * blocking segment before old on. */
static double moved_start(cons_state *s, const pol_view *v, const pol_job *j, double old)
{
    double f = first_fit(s, j->units, j->estimate_s, old);
    double from = old - j->estimate_s > v->now_s ? old - j->estimate_s : v->now_s;
    if (f <= from)
        return f;
    double since = pol_profile_free_since(&s->prof, old, j->units);
    double t = since > from ? since : from;
    if (t > old)
        t = old;
    return f < t ? f : t;
}

static int compress(cons_state *s, const pol_view *v)
{
    s->version++;
    for (size_t q = 0; q < v->n_queue; q++) {
        const pol_job *j = v->queue[q];
        double old = s->res[j->idx];
        if (isnan(old) || old <= v->now_s)
            continue;
        if (s->prefmax_dirty && rebuild_prefmax(s))
            return ENG_NOMEM;
        if (!may_move(s, j, old))
            continue;
        /* Where would it go with its reservation released? Asked without
         * touching the profile: most jobs stay, and then cost only a scan
         * up to their reservation. */
        double t = moved_start(s, v, j, old);
        if (t > old)
            return ENG_INVARIANT; /* the old slot was free: cannot happen */
        if (t < old) {
            int rc = pol_profile_add(&s->prof, old, old + j->estimate_s, j->units);
            if (rc)
                return rc;
            rc = pol_profile_add(&s->prof, t, t + j->estimate_s, -j->units);
            if (rc)
                return rc; /* ENG_INVARIANT: t was not free after all */
            s->prefmax_dirty = true;
            s->version++;
            s->res[j->idx] = t;
            rc = heap_push(s, t, j->idx);
            if (rc)
                return rc;
        }
    }
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
static int cons_on_capacity(void *state, const pol_view *v)
{
    cons_state *s = state;
    int rc = ENG_OK;
    if (s->n_isl) {
        rc = isl_rebuild(s, v);
    } else {
        pol_profile_fini(&s->prof);
        if (pol_profile_init(&s->prof, v->total_units, v->now_s))
            return ENG_NOMEM;
        int32_t down = 0;
        for (size_t h = 0; h < v->n_hosts; h++)
            if (!v->hosts[h].up)
                down += v->alloc == POL_ALLOC_NODE ? 1 : v->hosts[h].cores;
        rc = pol_profile_add(&s->prof, v->now_s, INFINITY, -down);
        for (size_t r = 0; rc == ENG_OK && r < v->n_running; r++) {
            const pol_job *j = v->running[r];
            rc = pol_profile_add(&s->prof, v->now_s, j->expected_end_s, -j->units);
        }
    }
    s->due_heap.n = 0;
    s->n_live = 0;
    s->compress = false;
    s->prefmax_dirty = true;
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

static int cons_schedule(void *state, const pol_view *v, pol_out *out)
{
    cons_state *s = state;
    int rc;
    pol_profile_advance(&s->prof, v->now_s);
    for (int32_t k = 0; k < s->n_isl; k++)
        pol_profile_advance(&s->ip[k], v->now_s);
    s->prefmax_dirty = true;
    if (s->compress) {
        s->compress = false;
        rc = s->n_isl ? isl_compress(s, v) : compress(s, v);
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
        pol_out_promise(out, j, t);
        rc = heap_push(s, t, j->idx);
        if (rc)
            return rc;
    }
    s->n_pending = kept;

    /* Start every job whose reservation is due, in queue order. */
    size_t n_due = 0;
    int32_t due_units = 0;
    while (s->due_heap.n && s->due_heap.v[0].t <= v->now_s) {
        if (heap_top_valid(s)) {
            int32_t idx = s->due_heap.v[0].id;
            if (eng_grow(&s->due, &s->cap_due, n_due + 1, sizeof *s->due))
                return ENG_NOMEM;
            const pol_job *j = pol_queue_find(v, idx);
            if (!j)
                return ENG_INVARIANT;
            s->due[n_due++] = j;
            due_units += j->units;
            s->res[idx] = NAN;
            s->n_live--;
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
        for (size_t k = 0; k < n_due; k++)
            pol_out_start(out, s->due[k]);
        /* The profile and the engine must agree on what is free now. */
        if (pol_profile_free_at(&s->prof, v->now_s) != v->free_units - due_units)
            return ENG_INVARIANT;
    }

    while (s->due_heap.n && !heap_top_valid(s))
        eng_heap_pop(&s->due_heap);
    if (s->due_heap.n > 2 * s->n_live + 64 && heap_rebuild(s, v))
        return ENG_NOMEM;
    if (s->due_heap.n)
        pol_out_wakeup(out, s->due_heap.v[0].t);
    return ENG_OK;
}

const pol_type pol_conservative = {
    .name = "conservative",
    .summary = "conservative backfilling: every waiting job holds a reservation",
    .citation = "Mu'alem & Feitelson 2001",
    .flags = POL_FLAG_ISLANDS,
    .state_size = sizeof(cons_state),
    .options = NULL,
    .init = cons_init,
    .fini = cons_fini,
    .on_submit = cons_on_submit,
    .on_finish = cons_on_finish,
    .on_capacity = cons_on_capacity,
    .schedule = cons_schedule,
};
