/* pol_alp_amp.c — ALP and AMP window search and the multi-variant batch
 * search (Toporkov, Yemelyanov, Toporkova & Bobchenkov 2011); see
 * pol_alp_amp.h for the conditions, the corrected scaling of 2°b and the
 * costs. Invariant of a scan: the window holds exactly the suiting slots
 * seen so far that can still hold their task from the current window start
 * (AMP: sorted by (cost, arrival); ALP: in arrival order).
 */
#include "pol_alp_amp.h"

#include "eng_error.h"
#include "eng_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A window candidate: what the scan needs; the rest of its piece is read
 * from the list once the window is complete (answer()). A join writes
 * these 32 bytes instead of the 80 of a whole piece. */
typedef struct pol_slot_cand {
    int32_t handle;
    double hold;
    double end_s; /* the slot's end */
    double cost;  /* price * hold: AMP's order */
} pol_slot_cand;

/* A resume point: a suiting slot at whose visit the window was empty
 * after step 4° (the slots the search had let join before it all expired
 * there), and its key in list order. */
typedef struct pol_slot_mark {
    int32_t handle;
    int32_t at;   /* its place when found (block in list order, place in */
    size_t block; /* it): still its place unless an edit moved it */
    uint64_t seq;
    double start_s;
} pol_slot_mark;

/* A search of a batch that found a window: its request (an index in the
 * batch) and its resume points mark[off .. off + n), in list order, those
 * before every window cut out of the list since it ran. */
typedef struct pol_slot_rec {
    size_t req;
    size_t off, n;
} pol_slot_rec;

/* Relative slack of AMP's budget test, so that a window ALP accepts (every
 * price <= C) is never refused by AMP for a rounding of its sum. */
#define BUDGET_SLACK 1e-12

void pol_slot_search_init(pol_slot_search *ss)
{
    memset(ss, 0, sizeof *ss);
}

void pol_slot_search_fini(pol_slot_search *ss)
{
    free(ss->win);
    free(ss->out);
    free(ss->mark);
    free(ss->rec);
    memset(ss, 0, sizeof *ss);
}

double pol_slot_run(const pol_slot_req *r, double perf)
{
    double run = r->t * r->perf_ref / perf;
    return r->rigid && run > r->t ? r->t : run;
}

double pol_slot_hold(const pol_slot_req *r, double perf)
{
    return r->rigid ? r->t : r->t * r->perf_ref / perf;
}

static bool req_ok(const pol_slot_req *r)
{
    return r->n >= 1 && r->t > 0 && isfinite(r->t) && r->perf_ref > 0 && isfinite(r->perf_ref);
}

static double budget_of(const pol_slot_req *r)
{
    return r->budget > 0 ? r->budget : r->price_max * r->t * (double)r->n;
}

/* The answer: the window's first n candidates starting at start, their
 * pieces completed from the list l they were found on; ss->first, the
 * piece first in list order (in_order: the first candidate). */
static int answer(pol_slot_search *ss, const pol_slot_list *l, const pol_slot_req *r,
                  const pol_slot_cand *c, size_t n, bool in_order, double start, pol_window *w)
{
    if (eng_grow(&ss->out, &ss->cap_out, n, sizeof *ss->out))
        return ENG_NOMEM;
    double time = 0, cost = 0;
    int32_t first = c[0].handle; /* ALP's window is in list order */
    for (size_t k = 0; k < n; k++) {
        const pol_slot *s = pol_slots_get(l, c[k].handle);
        if (!in_order && (s->start_s < pol_slots_get(l, first)->start_s ||
                          (s->start_s == pol_slots_get(l, first)->start_s &&
                           pol_slots_seq(l, c[k].handle) < pol_slots_seq(l, first))))
            first = c[k].handle;
        pol_piece *p = &ss->out[k];
        *p = (pol_piece){.handle = c[k].handle,
                         .line = s->line,
                         .perf = s->perf,
                         .price = s->price,
                         .hold = c[k].hold,
                         .run = pol_slot_run(r, s->perf)};
        if (p->run > time)
            time = p->run;
        cost += p->price * p->hold;
    }
    *w = (pol_window){.start_s = start, .time = time, .cost = cost, .n = n, .piece = ss->out};
    ss->first = first;
    return ENG_OK;
}

/* Relative margin of none_suits' length tests: far above the rounding
 * of the slot's own tests (a few ulps of the times involved). */
#define SKIP_MARGIN 1e-12

/* Can no slot of block bk pass tests 2°a-2°c for r (and ALP's price)? Then
 * the scan may pass over the whole block without changing its result.
 * Proof: a slot that fails one of the tests is passed over by the scan
 * before it touches any state (the window, its start, min_lim, the
 * expiration scan all change only at a suiting slot), so a run of such
 * slots, read or not, leaves the scan where it was. The summary bounds
 * every slot of the block (pol_slots.h): if its fastest performance is
 * below P_min, every slot fails 2°a; if its cheapest price is above C,
 * every slot fails ALP's 2°c; 2°b: a slot that passes has
 * fl(start + hold) <= end, so end - start >= hold - e with e a few ulps
 * of max(|start|, |end|, hold) (the list's max_abs bounds the first
 * two); a rigid hold is t, and a non-rigid one on
 * performance p is fl(t * P_ref / p) >= t * P_ref / p * (1 - 2 ulp), so
 * (end - start) * p >= t * P_ref - (a few ulps of t * P_ref and of
 * max_abs * p). The summary's longest length (rigid) or largest
 * length x performance (non-rigid) below the need less SKIP_MARGIN of
 * those magnitudes — far more than the ulps — rules out every slot. */
static bool none_suits(const pol_slot_sum *u, double max_abs, const pol_slot_req *r, bool alp)
{
    if (!(u->max_perf >= r->perf_min) || !(u->max_perf > 0))
        return true;
    if (alp && u->min_price > r->price_max)
        return true;
    if (r->rigid)
        return u->max_len < r->t - SKIP_MARGIN * (r->t + max_abs);
    double need = r->t * r->perf_ref;
    return u->max_work < need - SKIP_MARGIN * (need + max_abs * u->max_perf);
}

/* The scan of pol_slot_find from place i0 of block b0 (0, 0: the whole
 * list) with an empty window; with marks, each resume point is appended
 * to ss->mark. */
static int scan(pol_slot_search *ss, const pol_slot_list *l, pol_slot_algo algo,
                const pol_slot_req *r, size_t b0, int32_t i0, bool marks, pol_window *w,
                bool *found)
{
    *found = false;
    if (!req_ok(r))
        return ENG_INVAL;
    size_t need = (size_t)r->n;
    double budget = budget_of(r);
    size_t nw = 0;
    /* min over the window of end - hold: no slot expires before it, so
     * the expiration scan runs only when the start nears it (the margin
     * covers the rounding of end - hold). Nor does it run again at the
     * start it last ran at: every slot it kept, and every slot that joined
     * since (each passed 2°b from its own start, this one), holds its task
     * from there, so it would drop nothing and find the same minimum. */
    double min_lim = INFINITY, scanned_at = NAN;
    bool alp = algo == POL_SLOT_ALP;
    for (size_t b = b0, nb = pol_slots_blocks(l); b < nb; b++) {
        const pol_slot_block *bk = pol_slots_block(l, b);
        if (!ss->no_pass && none_suits(&bk->sum, l->max_abs, r, alp)) {
            ss->blocks_passed++;
            continue;
        }
        ss->blocks_read++;
        /* a stale block read whole has its length and work folded anew */
        int32_t from = b == b0 ? i0 : 0;
        bool fold = bk->stale && from == 0;
        double max_len = -HUGE_VAL, max_work = -HUGE_VAL;
        for (int32_t i = from; i < bk->n; i++) {
            int32_t h = bk->h[i];
            const pol_slot *s = pol_slots_get(l, h);
            if (fold) {
                double len = s->end_s - s->start_s, work = len * s->perf;
                max_len = len > max_len ? len : max_len;
                max_work = work > max_work ? work : max_work;
            }
            if (!(s->perf >= r->perf_min) || !(s->perf > 0)) /* 2°a */
                continue;
            double hold = pol_slot_hold(r, s->perf);
            if (!(s->start_s + hold <= s->end_s)) /* 2°b */
                continue;
            if (algo == POL_SLOT_ALP && !(s->price <= r->price_max)) /* 2°c */
                continue;
            double start = s->start_s; /* 3°: the window now starts here */
            if (start != scanned_at && start >= min_lim - 1e-9 * (fabs(min_lim) + 1)) {
                size_t keep = 0; /* 4°: drop what expired */
                min_lim = INFINITY;
                scanned_at = start;
                for (size_t k = 0; k < nw; k++)
                    if (start + ss->win[k].hold <= ss->win[k].end_s) {
                        if (keep != k)
                            ss->win[keep] = ss->win[k];
                        keep++;
                        double lim = ss->win[k].end_s - ss->win[k].hold;
                        if (lim < min_lim)
                            min_lim = lim;
                    }
                nw = keep;
            }
            if (marks && nw == 0) {
                if (eng_grow(&ss->mark, &ss->cap_mark, ss->n_mark + 1, sizeof *ss->mark))
                    return ENG_NOMEM;
                ss->mark[ss->n_mark++] = (pol_slot_mark){
                    .handle = h, .at = i, .block = b, .seq = pol_slots_seq(l, h), .start_s = start};
            }
            if (s->end_s - hold < min_lim)
                min_lim = s->end_s - hold;
            if (eng_grow(&ss->win, &ss->cap_win, nw + 1, sizeof *ss->win))
                return ENG_NOMEM;
            pol_slot_cand c = {
                .handle = h, .hold = hold, .end_s = s->end_s, .cost = s->price * hold};
            bool complete;
            if (algo == POL_SLOT_ALP) {
                ss->win[nw++] = c;
                complete = nw == need; /* 5° */
            } else {
                /* AMP, 2°: the window sorted by cost (stable for equal
                 * costs); its N cheapest within the budget end the search. */
                size_t at = nw;
                while (at > 0 && ss->win[at - 1].cost > c.cost)
                    at--;
                memmove(ss->win + at + 1, ss->win + at, (nw - at) * sizeof *ss->win);
                ss->win[at] = c;
                nw++;
                complete = false;
                if (nw >= need) {
                    double sum = 0;
                    for (size_t k = 0; k < need; k++)
                        sum += ss->win[k].cost;
                    complete = sum <= budget * (1 + BUDGET_SLACK);
                }
            }
            if (complete) {
                *found = true;
                return answer(ss, l, r, ss->win, need, alp, start, w);
            }
        }
        if (fold)
            pol_slots_settle(l, b, max_len, max_work);
    }
    return ENG_OK;
}

int pol_slot_find(pol_slot_search *ss, const pol_slot_list *l, pol_slot_algo algo,
                  const pol_slot_req *r, pol_window *w, bool *found)
{
    return scan(ss, l, algo, r, 0, 0, false, w, found);
}

int pol_slot_take(pol_slot_list *l, const pol_window *w)
{
    if (w->n == 0)
        return ENG_OK;
    pol_slot_cut local[128];
    pol_slot_cut *c = w->n <= 128 ? local : malloc(w->n * sizeof *c);
    if (!c)
        return ENG_NOMEM;
    for (size_t k = 0; k < w->n; k++)
        c[k] = (pol_slot_cut){.handle = w->piece[k].handle, .to = w->start_s + w->piece[k].hold};
    int rc = pol_slots_cut_all(l, w->start_s, c, w->n);
    if (c != local)
        free(c);
    return rc;
}

void pol_alt_set_init(pol_alt_set *s)
{
    memset(s, 0, sizeof *s);
}

void pol_alt_set_fini(pol_alt_set *s)
{
    free(s->alt);
    free(s->piece);
    free(s->per_job);
    memset(s, 0, sizeof *s);
}

static int record(pol_alt_set *out, int32_t job, const pol_window *w)
{
    if (eng_grow(&out->alt, &out->cap_alt, out->n_alt + 1, sizeof *out->alt) ||
        eng_grow(&out->piece, &out->cap_piece, out->n_piece + w->n, sizeof *out->piece))
        return ENG_NOMEM;
    out->alt[out->n_alt++] = (pol_alt){.job = job,
                                       .start_s = w->start_s,
                                       .time = w->time,
                                       .cost = w->cost,
                                       .off = out->n_piece,
                                       .n = w->n};
    memcpy(out->piece + out->n_piece, w->piece, w->n * sizeof *w->piece);
    out->n_piece += w->n;
    out->per_job[job]++;
    return ENG_OK;
}

/* Does the failure of request f on a list prove that request r fails on
 * that list or on any list cut out of it? For ALP when r asks at least as
 * much in every respect: no fewer slots, no shorter hold on every line
 * (the same rigidity and reference performance, t no smaller), no lower
 * performance floor, no higher price limit. Proof: a window of r on the
 * cut list at start T takes n_r slots, each inside a distinct slot of the
 * list f failed on (a slot and its K2 piece cannot both hold the same
 * instant), each of those suits f and holds f's task from T; at the visit
 * of the last of them in list order (start T' <= T) f's window would have
 * held them all, n_r >= n_f, and f would have been found. For AMP the
 * costs must be the same numbers (t equal, so every hold is), the budget
 * no larger and n no smaller: the n_f cheapest costs of f's window sum, in
 * ascending order, to at most the n_r cheapest of r's (prices >= 0, and a
 * rounded sum of non-negative terms is monotone in each of them). */
static bool dominated(pol_slot_algo algo, const pol_slot_req *f, const pol_slot_req *r)
{
    if (r->rigid != f->rigid || r->perf_ref != f->perf_ref || !(r->perf_min >= f->perf_min) ||
        r->n < f->n)
        return false;
    if (algo == POL_SLOT_ALP)
        return r->t >= f->t && r->price_max <= f->price_max;
    return r->t == f->t && budget_of(r) <= budget_of(f);
}

/* The searches whose resume points are kept: the last REC_MAX of the
 * batch that found a window (fewer points only start a search earlier).
 * Chosen by instructions (alp, the first 15 000 jobs of SDSC-SP2, before
 * the places were reused): 5.112 G with 4, 5.113 G with 8, 5.120 G with
 * 16 (the upkeep grows with them). */
#define REC_MAX 8

static bool mark_before(const pol_slot_mark *a, const pol_slot_mark *b)
{
    return a->start_s < b->start_s || (a->start_s == b->start_s && a->seq < b->seq);
}

/* Where the search for reqs[i] starts: the last resume point of the kept
 * searches of the batch whose request reqs[i] asks at least as much as
 * (dominated(); the same request does), at place (*b0, *i0); (0, 0) when
 * there is none. Returns whether there is one.
 *
 * Proof that the scan started there with an empty window finds the window
 * of the whole scan. Let f be the earlier search and R its resume point.
 * (1) The slots before R and R itself are those f read: within a batch the
 * list changes only by takes, and a take changes only the slots of the
 * window's pieces (shortened in place or removed) and inserts their K2
 * pieces after the window's start, so every slot before the least key of
 * the pieces keeps its place, its contents and its handle, and nothing is
 * inserted among them; forget_cut() keeps only the resume points before
 * that key of every take since f. (2) Whatever the order of the slots
 * around it, the scan's window after step 4° at a suiting slot of start T
 * is exactly the set of suiting slots read so far that hold their task
 * from T (the expiration scan is skipped only when none has expired, and
 * a slot that expired at a start has expired at every later one; see
 * min_lim), in arrival order for ALP and for AMP sorted by cost, ties in
 * arrival order; so the scan's result depends on that set at each suiting
 * slot only. (3) A slot before R that suits reqs[i] and holds its task
 * from a start suits f and holds f's task from there (dominated(): the
 * same lines pass 2°a and 2°c, f's hold is no longer on any line). f's
 * window was empty at R after step 4°, so no slot before R that suits f
 * holds f's task from R's start: not those f read, by (2), nor, if f
 * itself resumed, those before its own resume point (this same argument
 * for f, by induction over the searches of the batch). So no slot before
 * R holds reqs[i]'s task from R's start, or from any later start: from R
 * on, the sets of (2) are those of a scan that starts at R with an empty
 * window.
 * (4) The whole scan does not end before R: a window it completed there
 * would be a window of f before R (the argument of dominated()), and f
 * was still searching at R. Hence both scans end at the same slot with
 * the same window. The resume points a resumed scan appends are those of
 * the whole scan from R on, by (2) and (3). */
static bool resume_point(pol_slot_search *ss, const pol_slot_list *l, pol_slot_algo algo,
                         const pol_slot_req *reqs, size_t i, size_t *b0, int32_t *i0)
{
    const pol_slot_mark *best = NULL;
    for (size_t k = 0; k < ss->n_rec; k++) {
        const pol_slot_rec *q = &ss->rec[k];
        const pol_slot_mark *m = &ss->mark[q->off + q->n - 1];
        if ((!best || mark_before(best, m)) && dominated(algo, &reqs[q->req], &reqs[i]))
            best = m;
    }
    *b0 = 0;
    *i0 = 0;
    if (!best)
        return false;
    /* the place it was found at, unless an edit has moved it */
    if (best->block < pol_slots_blocks(l) && best->at < pol_slots_block(l, best->block)->n &&
        pol_slots_block(l, best->block)->h[best->at] == best->handle) {
        *b0 = best->block;
        *i0 = best->at;
    } else
        pol_slots_place(l, best->handle, b0, i0);
    return true;
}

/* Before the window just found is cut out of l: forgets every resume
 * point at or after the key of its piece first in list order (ss->first,
 * the first slot the take changes), and the searches left without one. */
static void forget_cut(pol_slot_search *ss, const pol_slot_list *l)
{
    if (ss->n_rec == 0)
        return;
    pol_slot_mark cut = {.seq = pol_slots_seq(l, ss->first),
                         .start_s = pol_slots_get(l, ss->first)->start_s};
    size_t kept = 0;
    for (size_t k = 0; k < ss->n_rec; k++) {
        pol_slot_rec q = ss->rec[k];
        while (q.n > 0 && !mark_before(&ss->mark[q.off + q.n - 1], &cut))
            q.n--;
        if (q.n > 0)
            ss->rec[kept++] = q;
    }
    ss->n_rec = kept;
}

int pol_slot_batch_search(pol_slot_search *ss, pol_slot_list *l, pol_slot_algo algo,
                          const pol_slot_req *reqs, size_t n_jobs, size_t max_per_job,
                          pol_alt_set *out)
{
    out->n_alt = out->n_piece = 0;
    if (eng_grow(&out->per_job, &out->cap_jobs, n_jobs ? n_jobs : 1, sizeof *out->per_job))
        return ENG_NOMEM;
    out->n_jobs = n_jobs;
    memset(out->per_job, 0, n_jobs * sizeof *out->per_job);
    for (size_t i = 0; i < n_jobs; i++)
        if (!req_ok(&reqs[i]))
            return ENG_INVAL;
    /* active jobs: those that may still find an alternative */
    bool *active = malloc((n_jobs ? n_jobs : 1) * sizeof *active);
    size_t *failed = malloc((n_jobs ? n_jobs : 1) * sizeof *failed), n_failed = 0;
    if (!active || !failed) {
        free(active);
        free(failed);
        return ENG_NOMEM;
    }
    for (size_t i = 0; i < n_jobs; i++)
        active[i] = true;
    int rc = ENG_OK;
    bool any = true;
    ss->n_mark = ss->n_rec = 0;
    while (any && rc == ENG_OK) {
        any = false;
        for (size_t i = 0; i < n_jobs && rc == ENG_OK; i++) {
            if (!active[i])
                continue;
            pol_window w;
            bool found = false, skip = false;
            /* a request that asks more than one that failed fails too:
             * no search (the list only loses time, see dominated()) */
            for (size_t f = 0; f < n_failed && !skip; f++)
                skip = dominated(algo, &reqs[failed[f]], &reqs[i]);
            ss->skipped += skip;
            if (!skip) {
                ss->searched++;
                size_t b0 = 0, m0 = ss->n_mark;
                int32_t i0 = 0;
                if (!ss->no_resume && resume_point(ss, l, algo, reqs, i, &b0, &i0))
                    ss->resumed++;
                rc = scan(ss, l, algo, &reqs[i], b0, i0, !ss->no_resume, &w, &found);
                if (rc)
                    break;
                /* a failed search's points would serve only requests that
                 * are skipped as dominated */
                if (found && ss->n_mark > m0) {
                    if (ss->n_rec == REC_MAX) /* the oldest goes */
                        memmove(ss->rec, ss->rec + 1, --ss->n_rec * sizeof *ss->rec);
                    if (eng_grow(&ss->rec, &ss->cap_rec, ss->n_rec + 1, sizeof *ss->rec)) {
                        rc = ENG_NOMEM;
                        break;
                    }
                    ss->rec[ss->n_rec++] = (pol_slot_rec){
                        .req = i, .off = m0, .n = ss->n_mark - m0};
                } else
                    ss->n_mark = m0;
            }
            if (!found) {
                active[i] = false;
                if (!skip)
                    failed[n_failed++] = i;
                continue;
            }
            rc = record(out, (int32_t)i, &w);
            forget_cut(ss, l);
            if (rc == ENG_OK)
                rc = pol_slot_take(l, &w);
            any = true;
            if (max_per_job && out->per_job[i] >= max_per_job)
                active[i] = false;
        }
    }
    free(active);
    free(failed);
    return rc;
}
