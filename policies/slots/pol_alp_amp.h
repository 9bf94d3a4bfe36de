/* pol_alp_amp.h — window search on an ordered slot list: ALP (Algorithm
 * based on Local Price of slots) and AMP (Algorithm based on Maximal job
 * Price), and the multi-variant search of alternatives for a batch of jobs
 * (Toporkov, Yemelyanov, Toporkova & Bobchenkov 2011, Sections 2 and 3).
 *
 * A resource request asks for N concurrent slots on lines of performance at
 * least P_min, for a time span t that holds at performance P_ref. All slots
 * of a window start together (at the window's start); a slot of
 * performance p runs the job's task for
 *
 *     run(p) = t * P_ref / p                                      (2°b)
 *
 * so a faster line needs a shorter slot and the window has a rough right
 * edge. The paper prints condition 2°b as L(s_k) >= t*P(s_k)/P, which
 * would ask a faster node for a *longer* slot; its own text ("depending on
 * the actual performance of the slot's resource", the uneven right edge,
 * the job's time set by its task "using the slowest CPU") needs the
 * inverse: the time a task needs scales with P_ref / P(s_k), P_ref the
 * performance at which t holds. Section 3's request ("N slots providing
 * performance at least P ... for time span t") makes t the span at P, so
 * P_ref = P and the intended condition is L(s_k) >= t*P/P(s_k) — the
 * printed one with numerator and denominator swapped. Section 5's
 * JobGenerator draws a "length (representing the complexity)", i.e. the
 * work, whose time on performance p is t/p: P_ref = 1 (this reading
 * reproduces the paper's figures; tools/cli_study_slots.c offers both).
 * Step 4°'s expiration test, printed as
 * L'(s_k) < (t - (T_last - T(s_k))) P(s_k)/P, becomes: slot k stays
 * usable by a window starting at T_last only while
 * T_last + run(P(s_k)) <= end(s_k). Both tests are written as
 * `start + run <= end`, the same expression the subtraction uses, so a
 * window never overruns a slot by rounding.
 *
 * In the simulator the engine guarantees only that a job ends by
 * start + estimate on every host (it holds all hosts until its slowest
 * ends, and kills at the requested wall time): there a request is `rigid`,
 * every slot is held for t, and run() only feeds the time criterion.
 *
 * ALP (steps 1°-6°): scan the slots in start order; a slot suits if
 * (a) p >= P_min, (b) it can hold its task from its own start, (c) its
 * price <= C. A suiting slot joins the window, whose start becomes the
 * slot's start (3°); window slots that can no longer hold their task from
 * that start expire (4°); the first time the window holds N slots it is
 * the answer (5°, 6°).
 * AMP: the same scan without (c); whenever the window holds >= N slots,
 * the N cheapest (by price * hold) form the answer if their total cost is
 * within the budget S = C * t * N (steps 2°-3°); the others go back to
 * the list. Both answers are the earliest-starting window the rule admits.
 *
 * The scan walks the list's blocks (pol_slots.h) and passes over a block
 * whose summary shows that none of its slots passes 2°a-2°c (for ALP) or
 * 2°a-2°b (for AMP): such slots change nothing in the scan, so the window
 * found is the same (the proof is at none_suits in pol_alp_amp.c).
 *
 * Cost: each slot enters and leaves the window once; a step costs O(W)
 * for the expiration scan (run only once the window's first expiry is
 * reached) and for AMP the sorted insertion by cost and the sum of the N
 * cheapest, W the window's size (< N for ALP; for AMP at
 * most the number of slots that contain one instant, i.e. at most the
 * number of lines when a line's slots are disjoint). A search is O(m * W):
 * linear in the number of slots m.
 *
 * Multi-variant search (Section 2): passes over the batch in priority
 * order, each job searching one more alternative on the list left by all
 * earlier alternatives (which are cut out of it), until a pass finds none
 * for any job. A job that found nothing once finds nothing later (the list
 * only loses time), so it is skipped. Nor is a job searched whose request
 * asks at least as much as one that already failed in this search (ALP:
 * no fewer slots, no shorter t, no lower performance floor, no higher
 * price limit; AMP: the same t, no fewer slots, no larger budget): it
 * would fail too, so the alternatives are those of the plain passes.
 * Nor does a search read again the start of the list that one of the
 * last 8 searches of the batch that found a window read for a request it
 * asks at least as much as (the same request does): it starts at that
 * search's last resume point (a slot at whose visit its window emptied)
 * before every window cut out since, with an empty window, and finds the
 * same window (the proof is at resume_point in pol_alp_amp.c).
 * Alternatives never intersect in processor time.
 */
#ifndef POL_ALP_AMP_H
#define POL_ALP_AMP_H

#include "pol_slots.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum pol_slot_algo { POL_SLOT_ALP = 0, POL_SLOT_AMP = 1 } pol_slot_algo;

/* A job's resource request. */
typedef struct pol_slot_req {
    int32_t n;        /* N: concurrent slots (>= 1) */
    double t;         /* time span at performance perf_ref (> 0) */
    double perf_ref;  /* performance at which t holds (> 0) */
    double perf_min;  /* P: condition 2°a, perf >= perf_min */
    double price_max; /* C: ALP's price per unit time per slot (2°c) */
    double budget;    /* AMP's S; <= 0 means C * t * N */
    bool rigid;       /* hold every slot for t whatever its performance */
} pol_slot_req;

/* One slot of a window: the piece cut out of a list slot. */
typedef struct pol_piece {
    int32_t handle; /* the list slot it comes from (valid until the list changes) */
    int32_t line;
    double perf, price;
    double hold; /* held on [window start, window start + hold) */
    double run;  /* the task's run time on this line */
} pol_piece;

/* A window (an alternative). */
typedef struct pol_window {
    double start_s;
    double time; /* t_i(s_i): the longest run, i.e. the slowest line's */
    double cost; /* c_i(s_i): sum of price * hold over the pieces */
    size_t n;    /* pieces, = the request's N */
    pol_piece *piece;
} pol_window;

struct pol_slot_cand;
struct pol_slot_mark;
struct pol_slot_rec;

/* Scratch space for searches; reusable. */
typedef struct pol_slot_search {
    struct pol_slot_cand *win; /* the current window's candidates */
    size_t cap_win;
    pol_piece *out; /* the answer's pieces */
    size_t cap_out;
    int32_t first;              /* the handle of the answer's piece first in list order */
    struct pol_slot_mark *mark; /* a batch search's resume points, */
    size_t n_mark, cap_mark;
    struct pol_slot_rec *rec; /* and the searches that left them */
    size_t n_rec, cap_rec;
    uint64_t searched;      /* searches run by pol_slot_batch_search, */
    uint64_t skipped;       /* and those it skipped as dominated, */
    uint64_t resumed;       /* and those it resumed at a resume point (counts only) */
    uint64_t blocks_read;   /* blocks of the list pol_slot_find read, */
    uint64_t blocks_passed; /* and those it passed over (counts only) */
    bool no_pass;           /* read every block (tests, ablation): same windows */
    bool no_resume;         /* every batch search from the list's start (tests,
                               ablation): same alternatives */
} pol_slot_search;

void pol_slot_search_init(pol_slot_search *ss);
void pol_slot_search_fini(pol_slot_search *ss);

/* The run time of a request's task on a line of performance perf, and
 * the time that line is held (run, or t when rigid; capped at t when
 * rigid, since the engine never runs a job past t). */
double pol_slot_run(const pol_slot_req *r, double perf);
double pol_slot_hold(const pol_slot_req *r, double perf);

/* Searches the earliest window for r with ALP or AMP. *found tells
 * whether one exists; w->piece points into ss (valid until the next
 * search). Returns 0, ENG_INVAL (bad request) or ENG_NOMEM. O(m * W). */
int pol_slot_find(pol_slot_search *ss, const pol_slot_list *l, pol_slot_algo algo,
                  const pol_slot_req *r, pol_window *w, bool *found);

/* Cuts a window found on l out of l (Fig. 1 (b)), all its pieces in one
 * pass (pol_slots_cut_all). 0 or ENG_NOMEM. O(m + N log m). */
int pol_slot_take(pol_slot_list *l, const pol_window *w);

/* Alternatives found for a batch, in the order found. */
typedef struct pol_alt {
    int32_t job; /* index in the batch */
    double start_s, time, cost;
    size_t off, n; /* pieces in pol_alt_set.piece[off .. off + n) */
} pol_alt;

typedef struct pol_alt_set {
    pol_alt *alt;
    size_t n_alt, cap_alt;
    pol_piece *piece; /* handle fields are stale once the list has changed */
    size_t n_piece, cap_piece;
    size_t *per_job; /* alternatives of each batch job */
    size_t n_jobs, cap_jobs;
} pol_alt_set;

void pol_alt_set_init(pol_alt_set *s);
void pol_alt_set_fini(pol_alt_set *s);

/* The multi-variant search: fills out (cleared first) with the
 * alternatives of jobs 0..n_jobs-1 (priority order) and cuts them all out
 * of l. max_per_job > 0 caps each job's alternatives (0: no cap). Returns
 * 0, ENG_INVAL or ENG_NOMEM. O(passes * n_jobs * m * W). */
int pol_slot_batch_search(pol_slot_search *ss, pol_slot_list *l, pol_slot_algo algo,
                          const pol_slot_req *reqs, size_t n_jobs, size_t max_per_job,
                          pol_alt_set *out);

#endif
