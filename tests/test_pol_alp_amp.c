/* test_pol_alp_amp.c — ALP and AMP on hand-made slot lists whose answers
 * are worked out in the comments (one where AMP takes an expensive slot
 * that ALP must refuse, as in the paper's Section 4; the rough right edge
 * and step 4°'s expiration on heterogeneous slots), the multi-variant
 * search of a batch by hand, random lists against a brute-force
 * earliest window, and the blocks passed over: on random lists of many
 * blocks, edited by the windows found, every search finds the window
 * that reading every block finds; a batch's searches resumed at an
 * earlier search's point, by hand and on random batches against searches
 * from the list's start. */
#include "bl_test.h"
#include "eng_error.h"
#include "slots/pol_alp_amp.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void fill(pol_slot_list *l, const pol_slot *s, size_t n)
{
    pol_slots_clear(l);
    for (size_t i = 0; i < n; i++)
        CU_ASSERT_EQUAL(pol_slots_insert(l, &s[i], NULL), 0);
}

static bool has_line(const pol_window *w, int32_t line)
{
    for (size_t k = 0; k < w->n; k++)
        if (w->piece[k].line == line)
            return true;
    return false;
}

/* Uniform lines (perf 1), N = 3, t = 30, C = 10 (S = C t N = 900):
 *   line 1 [0, 100) price 2;  line 6 [0, 100) price 12;
 *   line 2 [10, 100) price 3; line 3 [50, 200) price 5.
 * ALP refuses line 6 (12 > 10): {1} at 0, {1, 2} at 10, {1, 2, 3} at 50
 * -> window at 50, cost (2 + 3 + 5) * 30 = 300.
 * AMP: at 10 the window holds {1: 60, 2: 90, 6: 360}; the three cheapest
 * cost 510 <= 900 -> window at 10 using the expensive line 6.
 * With C = 4 (S = 360): ALP also refuses line 3 (5 > 4) and finds nothing;
 * AMP refuses 510 at 10, then at 50 takes {1, 2, 3} = 300 <= 360 and
 * returns line 6 to the list. */
static void test_amp_uses_expensive_slot(void)
{
    static const pol_slot s[] = {
        {0, 100, 1, 2, 1}, {0, 100, 1, 12, 6}, {10, 100, 1, 3, 2}, {50, 200, 1, 5, 3}};
    pol_slot_list l;
    pol_slots_init(&l, 1);
    fill(&l, s, 4);
    pol_slot_search ss;
    pol_slot_search_init(&ss);
    pol_slot_req r = {.n = 3, .t = 30, .perf_ref = 1, .perf_min = 1, .price_max = 10};
    pol_window w;
    bool found;
    CU_ASSERT_EQUAL(pol_slot_find(&ss, &l, POL_SLOT_ALP, &r, &w, &found), 0);
    CU_ASSERT_FATAL(found);
    CU_ASSERT_DOUBLE_EQUAL(w.start_s, 50, 0);
    CU_ASSERT_DOUBLE_EQUAL(w.cost, 300, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(w.time, 30, 0);
    CU_ASSERT(has_line(&w, 1) && has_line(&w, 2) && has_line(&w, 3) && !has_line(&w, 6));

    CU_ASSERT_EQUAL(pol_slot_find(&ss, &l, POL_SLOT_AMP, &r, &w, &found), 0);
    CU_ASSERT_FATAL(found);
    CU_ASSERT_DOUBLE_EQUAL(w.start_s, 10, 0);
    CU_ASSERT_DOUBLE_EQUAL(w.cost, 510, 1e-9);
    CU_ASSERT(has_line(&w, 1) && has_line(&w, 2) && has_line(&w, 6));

    r.price_max = 4;
    CU_ASSERT_EQUAL(pol_slot_find(&ss, &l, POL_SLOT_ALP, &r, &w, &found), 0);
    CU_ASSERT(!found);
    CU_ASSERT_EQUAL(pol_slot_find(&ss, &l, POL_SLOT_AMP, &r, &w, &found), 0);
    CU_ASSERT_FATAL(found);
    CU_ASSERT_DOUBLE_EQUAL(w.start_s, 50, 0);
    CU_ASSERT_DOUBLE_EQUAL(w.cost, 300, 1e-9);
    CU_ASSERT(!has_line(&w, 6));
    /* an explicit budget overrides C t N */
    r.budget = 509;
    CU_ASSERT_EQUAL(pol_slot_find(&ss, &l, POL_SLOT_AMP, &r, &w, &found), 0);
    CU_ASSERT(found && w.start_s == 50);
    r.budget = 510;
    CU_ASSERT_EQUAL(pol_slot_find(&ss, &l, POL_SLOT_AMP, &r, &w, &found), 0);
    CU_ASSERT(found && w.start_s == 10);
    pol_slot_search_fini(&ss);
    pol_slots_fini(&l);
}

/* Heterogeneous lines, N = 2, t = 60 at P = 1 (run = 60 / perf):
 *   line 1 perf 2 [0, 40) price 4: needs 30, fits from 0 (30 <= 40);
 *   line 2 perf 0.5 [0, 500): refused by 2°a (0.5 < 1);
 *   line 3 perf 1 [5, 100) price 1: needs 60; at 5 line 1 still fits
 *   (5 + 30 <= 40) -> window at 5: line 1 held [5, 35), line 3 [5, 65);
 *   time 60 (the slower line), cost 4 * 30 + 1 * 60 = 180.
 * The printed 2°b (t P(s)/P = 120 on line 1) would have refused line 1.
 * Then, with line 3 starting at 15 instead: at 15 line 1 expires
 * (15 + 30 > 40, step 4°) and the window is {3}; line 4 perf 3 [20, 60)
 * (needs 20) joins at 20 -> window at 20, time 60. */
static void test_rough_right_edge(void)
{
    pol_slot s[] = {{0, 40, 2, 4, 1}, {0, 500, 0.5, 0, 2}, {5, 100, 1, 1, 3}, {20, 60, 3, 1, 4}};
    pol_slot_list l;
    pol_slots_init(&l, 2);
    fill(&l, s, 4);
    pol_slot_search ss;
    pol_slot_search_init(&ss);
    pol_slot_req r = {.n = 2, .t = 60, .perf_ref = 1, .perf_min = 1, .price_max = 100};
    pol_window w;
    bool found;
    for (int algo = 0; algo < 2; algo++) {
        fill(&l, s, 4);
        CU_ASSERT_EQUAL(pol_slot_find(&ss, &l, (pol_slot_algo)algo, &r, &w, &found), 0);
        CU_ASSERT_FATAL(found);
        CU_ASSERT_DOUBLE_EQUAL(w.start_s, 5, 0);
        CU_ASSERT_DOUBLE_EQUAL(w.time, 60, 0);
        CU_ASSERT_DOUBLE_EQUAL(w.cost, 180, 1e-9);
        for (size_t k = 0; k < w.n; k++)
            CU_ASSERT_DOUBLE_EQUAL(w.piece[k].hold, w.piece[k].line == 1 ? 30 : 60, 0);
        /* the cut: line 1 leaves [0, 5) and [35, 40); line 3 [65, 100) */
        CU_ASSERT_EQUAL(pol_slot_take(&l, &w), 0);
        static const double left[][3] = {
            {0, 5, 1}, {0, 500, 2}, {20, 60, 4}, {35, 40, 1}, {65, 100, 3}};
        size_t k = 0;
        for (int32_t h = pol_slots_first(&l); h; h = pol_slots_next(&l, h), k++) {
            const pol_slot *x = pol_slots_get(&l, h);
            CU_ASSERT_DOUBLE_EQUAL(x->start_s, left[k][0], 0);
            CU_ASSERT_DOUBLE_EQUAL(x->end_s, left[k][1], 0);
            CU_ASSERT_EQUAL(x->line, (int32_t)left[k][2]);
        }
        CU_ASSERT_EQUAL(k, 5);
    }
    s[2].start_s = 15;
    for (int algo = 0; algo < 2; algo++) {
        fill(&l, s, 4);
        CU_ASSERT_EQUAL(pol_slot_find(&ss, &l, (pol_slot_algo)algo, &r, &w, &found), 0);
        CU_ASSERT_FATAL(found);
        CU_ASSERT_DOUBLE_EQUAL(w.start_s, 20, 0);
        CU_ASSERT(has_line(&w, 3) && has_line(&w, 4));
        CU_ASSERT_DOUBLE_EQUAL(w.time, 60, 0);
    }
    /* rigid (the simulator): every slot held for t, run capped at t */
    r.rigid = true;
    fill(&l, s, 4);
    CU_ASSERT_EQUAL(pol_slot_find(&ss, &l, POL_SLOT_ALP, &r, &w, &found), 0);
    CU_ASSERT(!found); /* line 1 and line 4 are too short for 60 */
    CU_ASSERT_DOUBLE_EQUAL(pol_slot_run(&r, 3), 20, 0);
    CU_ASSERT_DOUBLE_EQUAL(pol_slot_run(&r, 0.5), 60, 0);
    CU_ASSERT_DOUBLE_EQUAL(pol_slot_hold(&r, 3), 60, 0);
    /* a bad request */
    r.n = 0;
    CU_ASSERT_EQUAL(pol_slot_find(&ss, &l, POL_SLOT_ALP, &r, &w, &found), ENG_INVAL);
    pol_slot_search_fini(&ss);
    pol_slots_fini(&l);
}

/* Three lines [0, 100), price 1; job A: N = 2, t = 40; job B: N = 1,
 * t = 50. Pass 1: A at 0 on lines 1, 2 (left [40, 100)); B at 0 on line 3
 * (left [50, 100)). Pass 2: A at 40 on lines 1, 2 (left [80, 100)); B at
 * 50 on line 3 (nothing left). Pass 3: nothing fits. */
static void test_batch_by_hand(void)
{
    static const pol_slot s[] = {{0, 100, 1, 1, 1}, {0, 100, 1, 1, 2}, {0, 100, 1, 1, 3}};
    pol_slot_list l;
    pol_slots_init(&l, 3);
    fill(&l, s, 3);
    pol_slot_search ss;
    pol_slot_search_init(&ss);
    pol_alt_set set;
    pol_alt_set_init(&set);
    pol_slot_req r[2] = {{.n = 2, .t = 40, .perf_ref = 1, .price_max = 1},
                         {.n = 1, .t = 50, .perf_ref = 1, .price_max = 1}};
    CU_ASSERT_EQUAL(pol_slot_batch_search(&ss, &l, POL_SLOT_ALP, r, 2, 0, &set), 0);
    CU_ASSERT_EQUAL_FATAL(set.n_alt, 4);
    static const double want[][2] = {{0, 0}, {1, 0}, {0, 40}, {1, 50}};
    for (size_t a = 0; a < 4; a++) {
        CU_ASSERT_EQUAL(set.alt[a].job, (int32_t)want[a][0]);
        CU_ASSERT_DOUBLE_EQUAL(set.alt[a].start_s, want[a][1], 0);
    }
    CU_ASSERT_EQUAL(set.per_job[0], 2);
    CU_ASSERT_EQUAL(set.per_job[1], 2);
    CU_ASSERT_EQUAL(set.piece[set.alt[2].off].line, 1);
    CU_ASSERT_EQUAL(set.piece[set.alt[2].off + 1].line, 2);
    CU_ASSERT_EQUAL(pol_slots_count(&l), 2);
    /* a cap of one alternative per job stops after pass 1 */
    fill(&l, s, 3);
    CU_ASSERT_EQUAL(pol_slot_batch_search(&ss, &l, POL_SLOT_AMP, r, 2, 1, &set), 0);
    CU_ASSERT_EQUAL(set.n_alt, 2);
    pol_alt_set_fini(&set);
    pol_slot_search_fini(&ss);
    pol_slots_fini(&l);
}

/* Brute force: the earliest start T (a slot start) at which N slots that
 * suit (2°a, 2°b from T, and for ALP 2°c) are free, for AMP with the N
 * cheapest within the budget. */
static double brute_earliest(const pol_slot *s, size_t m, const pol_slot_req *r, bool amp)
{
    double best = INFINITY;
    double *cost = malloc(m * sizeof *cost);
    for (size_t i = 0; i < m; i++) {
        double T = s[i].start_s;
        if (T >= best)
            continue;
        size_t n = 0;
        for (size_t k = 0; k < m; k++) {
            double hold = pol_slot_hold(r, s[k].perf);
            if (s[k].perf >= r->perf_min && s[k].start_s <= T && T + hold <= s[k].end_s &&
                (amp || s[k].price <= r->price_max))
                cost[n++] = s[k].price * hold;
        }
        if (n < (size_t)r->n)
            continue;
        if (amp) {
            for (size_t a = 1; a < n; a++) /* insertion sort */
                for (size_t b = a; b > 0 && cost[b - 1] > cost[b]; b--) {
                    double x = cost[b];
                    cost[b] = cost[b - 1];
                    cost[b - 1] = x;
                }
            double sum = 0;
            for (size_t k = 0; k < (size_t)r->n; k++)
                sum += cost[k];
            if (sum > r->price_max * r->t * r->n * (1 + 1e-12))
                continue;
        }
        best = T;
    }
    free(cost);
    return best;
}

static void random_list(gsl_rng *g, pol_slot *s, size_t m)
{
    double t = 0;
    for (size_t i = 0; i < m; i++) {
        if (i > 0 && gsl_rng_uniform(g) >= 0.4)
            t += 10 * gsl_rng_uniform(g);
        double perf = 1 + 2 * gsl_rng_uniform(g);
        s[i] = (pol_slot){.start_s = t,
                          .end_s = t + 50 + 250 * gsl_rng_uniform(g),
                          .perf = perf,
                          .price = (0.75 + 0.5 * gsl_rng_uniform(g)) * pow(1.7, perf),
                          .line = (int32_t)i};
    }
}

/* m slots on heterogeneous lines (lines 0 .. lines - 1, in turn) with
 * runs of short slots (1 to 1 + short_span s, every third half block),
 * so that whole blocks can be passed; the others long_min to long_min +
 * long_span s; starts 0 to max_gap s apart, half of them shared. */
static void runs_list(gsl_rng *g, pol_slot *s, size_t m, double max_gap, double short_span,
                      double long_min, double long_span, size_t lines)
{
    double t0 = 0;
    for (size_t i = 0; i < m; i++) {
        if (gsl_rng_uniform(g) < 0.5)
            t0 += max_gap * gsl_rng_uniform(g);
        double len = (i / (POL_SLOT_BLOCK / 2)) % 3 == 1
                         ? 1 + short_span * gsl_rng_uniform(g)
                         : long_min + long_span * gsl_rng_uniform(g);
        double perf = 1 + (double)gsl_rng_uniform_int(g, 3);
        s[i] = (pol_slot){.start_s = t0,
                          .end_s = t0 + len,
                          .perf = perf,
                          .price = perf * (0.8 + 0.4 * gsl_rng_uniform(g)),
                          .line = (int32_t)(i % lines)};
    }
}

static void test_random_earliest_and_disjoint(void)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 99);
    pol_slot_list l;
    pol_slots_init(&l, 4);
    pol_slot_search ss;
    pol_slot_search_init(&ss);
    pol_alt_set set;
    pol_alt_set_init(&set);
    enum { M = 60 };
    pol_slot s[M];
    int wrong = 0, amp_later = 0, overlap = 0, bad_piece = 0;
    for (int round = 0; round < 300; round++) {
        random_list(g, s, M);
        pol_slot_req r = {.n = 1 + (int32_t)gsl_rng_uniform_int(g, 6),
                          .t = 50 + 100 * gsl_rng_uniform(g)};
        r.perf_min = 1 + gsl_rng_uniform(g);
        r.perf_ref = round % 2 ? r.perf_min : 1;
        r.price_max = (0.8 + 0.6 * gsl_rng_uniform(g)) * pow(1.7, r.perf_min);
        double found_at[2] = {INFINITY, INFINITY};
        for (int algo = 0; algo < 2; algo++) {
            fill(&l, s, M);
            pol_window w;
            bool found;
            CU_ASSERT_EQUAL(pol_slot_find(&ss, &l, (pol_slot_algo)algo, &r, &w, &found), 0);
            double want = brute_earliest(s, M, &r, algo == 1);
            if (found)
                found_at[algo] = w.start_s;
            if (found_at[algo] != want)
                wrong++;
            if (!found)
                continue;
            /* every piece inside its slot, conditions met */
            double sum = 0;
            for (size_t k = 0; k < w.n; k++) {
                const pol_piece *p = &w.piece[k];
                const pol_slot *o = &s[p->line];
                sum += p->price * p->hold;
                if (o->start_s > w.start_s || w.start_s + p->hold > o->end_s ||
                    p->perf < r.perf_min || (algo == 0 && p->price > r.price_max))
                    bad_piece++;
            }
            if (fabs(sum - w.cost) > 1e-9 * sum ||
                (algo == 1 && sum > r.price_max * r.t * r.n * (1 + 1e-12)))
                bad_piece++;
        }
        if (found_at[1] > found_at[0]) /* an ALP window is an AMP window */
            amp_later++;
        /* the batch: alternatives never share a line at the same time */
        pol_slot_req reqs[4];
        for (int j = 0; j < 4; j++) {
            reqs[j] = r;
            reqs[j].n = 1 + (int32_t)gsl_rng_uniform_int(g, 4);
            reqs[j].t = 50 + 100 * gsl_rng_uniform(g);
        }
        fill(&l, s, M);
        CU_ASSERT_EQUAL(
            pol_slot_batch_search(&ss, &l, (pol_slot_algo)(round % 2), reqs, 4, 0, &set), 0);
        for (size_t a = 0; a < set.n_alt; a++)
            for (size_t b = a + 1; b < set.n_alt; b++)
                for (size_t x = 0; x < set.alt[a].n; x++)
                    for (size_t y = 0; y < set.alt[b].n; y++) {
                        const pol_piece *p = &set.piece[set.alt[a].off + x];
                        const pol_piece *q = &set.piece[set.alt[b].off + y];
                        if (p->line == q->line &&
                            set.alt[a].start_s < set.alt[b].start_s + q->hold &&
                            set.alt[b].start_s < set.alt[a].start_s + p->hold)
                            overlap++;
                    }
        CU_ASSERT(pol_slots_valid(&l));
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(amp_later, 0);
    CU_ASSERT_EQUAL(overlap, 0);
    CU_ASSERT_EQUAL(bad_piece, 0);
    pol_alt_set_fini(&set);
    pol_slot_search_fini(&ss);
    pol_slots_fini(&l);
    gsl_rng_free(g);
}

/* Three lines [0, 100), price 1, ALP. A (N = 4, t = 50) fails: 3 lines.
 * B (N = 5, t = 50) asks at least as much as A: skipped. C (N = 2, t = 60)
 * at 0 on lines 1, 2 (left [60, 100) on each). D (N = 3, t = 30): line 3
 * from 0, lines 1, 2 from 60 -> window at 60 (left: line 3 [0, 60) and
 * [90, 100), lines 1, 2 [90, 100)). E (A's N and t, price limit 0.5):
 * skipped. Pass 2: C and D are searched (neither asks as much as A) and
 * fail: only line 3 [0, 60) is long enough. AMP (budget C t N): B's
 * budget 250 exceeds A's 200, so B is searched (and fails); E (A's t, N,
 * budget 100) is skipped. */
static void test_batch_skips_dominated(void)
{
    static const pol_slot s[] = {{0, 100, 1, 1, 1}, {0, 100, 1, 1, 2}, {0, 100, 1, 1, 3}};
    pol_slot_list l;
    pol_slots_init(&l, 5);
    fill(&l, s, 3);
    pol_slot_search ss;
    pol_slot_search_init(&ss);
    pol_alt_set set;
    pol_alt_set_init(&set);
    pol_slot_req r[5] = {{.n = 4, .t = 50, .perf_ref = 1, .price_max = 1},
                         {.n = 5, .t = 50, .perf_ref = 1, .price_max = 1},
                         {.n = 2, .t = 60, .perf_ref = 1, .price_max = 1},
                         {.n = 3, .t = 30, .perf_ref = 1, .price_max = 1},
                         {.n = 4, .t = 50, .perf_ref = 1, .price_max = 0.5}};
    CU_ASSERT_EQUAL(pol_slot_batch_search(&ss, &l, POL_SLOT_ALP, r, 5, 0, &set), 0);
    CU_ASSERT_EQUAL_FATAL(set.n_alt, 2);
    CU_ASSERT_EQUAL(set.alt[0].job, 2);
    CU_ASSERT_DOUBLE_EQUAL(set.alt[0].start_s, 0, 0);
    CU_ASSERT_EQUAL(set.alt[1].job, 3);
    CU_ASSERT_DOUBLE_EQUAL(set.alt[1].start_s, 60, 0);
    /* searched: A, C, D in pass 1, C, D in pass 2; skipped: B and E */
    CU_ASSERT_EQUAL(ss.searched, 5);
    CU_ASSERT_EQUAL(ss.skipped, 2);
    fill(&l, s, 3);
    ss.searched = ss.skipped = 0;
    CU_ASSERT_EQUAL(pol_slot_batch_search(&ss, &l, POL_SLOT_AMP, r, 5, 0, &set), 0);
    CU_ASSERT_EQUAL(set.n_alt, 2);
    CU_ASSERT_EQUAL(ss.searched, 6);
    CU_ASSERT_EQUAL(ss.skipped, 1);
    pol_alt_set_fini(&set);
    pol_slot_search_fini(&ss);
    pol_slots_fini(&l);
}

/* The plain passes: every active job searched, a failure ends it. */
static void plain_batch(pol_slot_search *ss, pol_slot_list *l, pol_slot_algo algo,
                        const pol_slot_req *reqs, size_t n, pol_alt_set *out)
{
    out->n_alt = out->n_piece = 0;
    bool active[16];
    for (size_t i = 0; i < n; i++)
        active[i] = true;
    bool any = true;
    while (any) {
        any = false;
        for (size_t i = 0; i < n; i++) {
            if (!active[i])
                continue;
            pol_window w;
            bool found;
            CU_ASSERT_EQUAL(pol_slot_find(ss, l, algo, &reqs[i], &w, &found), 0);
            if (!found) {
                active[i] = false;
                continue;
            }
            CU_ASSERT_EQUAL(pol_slot_take(l, &w), 0);
            out->alt[out->n_alt++] = (pol_alt){
                .job = (int32_t)i, .start_s = w.start_s, .cost = w.cost, .n = w.n};
            any = true;
        }
    }
}

/* How many of a's alternatives differ from b's in job, start, cost or
 * size (1 when their counts differ). */
static int alts_differ(const pol_alt_set *a, const pol_alt_set *b)
{
    if (a->n_alt != b->n_alt)
        return 1;
    int differ = 0;
    for (size_t k = 0; k < a->n_alt; k++)
        if (a->alt[k].job != b->alt[k].job || a->alt[k].start_s != b->alt[k].start_s ||
            a->alt[k].cost != b->alt[k].cost || a->alt[k].n != b->alt[k].n)
            differ++;
    return differ;
}

/* Random batches whose requests often ask more than one another: the
 * batch search gives the alternatives of the plain passes, and skips. */
static void test_random_batches_as_plain(void)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 5);
    pol_slot_list l;
    pol_slots_init(&l, 6);
    pol_slot_search ss;
    pol_slot_search_init(&ss);
    pol_alt_set set, ref;
    pol_alt_set_init(&set);
    pol_alt_set_init(&ref);
    ref.alt = malloc(4096 * sizeof *ref.alt);
    enum { M = 40, J = 12 };
    pol_slot s[M];
    int differ = 0;
    for (int round = 0; round < 400; round++) {
        random_list(g, s, M);
        pol_slot_req reqs[J];
        for (int j = 0; j < J; j++) {
            static const double ts[] = {60, 90, 120};
            reqs[j] = (pol_slot_req){.n = 1 + (int32_t)gsl_rng_uniform_int(g, 8),
                                     .t = ts[gsl_rng_uniform_int(g, 3)],
                                     .perf_ref = 1,
                                     .perf_min = 1 + 0.5 * (double)gsl_rng_uniform_int(g, 3),
                                     .price_max = 3 + 2 * (double)gsl_rng_uniform_int(g, 3),
                                     .rigid = round % 2 == 0};
        }
        pol_slot_algo algo = (pol_slot_algo)(round / 2 % 2);
        fill(&l, s, M);
        CU_ASSERT_EQUAL(pol_slot_batch_search(&ss, &l, algo, reqs, J, 0, &set), 0);
        fill(&l, s, M);
        plain_batch(&ss, &l, algo, reqs, J, &ref);
        differ += alts_differ(&set, &ref);
    }
    CU_ASSERT_EQUAL(differ, 0);
    CU_ASSERT(ss.skipped > 0);
    pol_alt_set_fini(&set);
    pol_alt_set_fini(&ref);
    pol_slot_search_fini(&ss);
    pol_slots_fini(&l);
    gsl_rng_free(g);
}

/* Lists of several blocks (heterogeneous lines, some slots short, some
 * slow, some dear), edited by taking the windows found, searched with
 * random requests (rigid or not, ALP and AMP): passing over the blocks
 * whose summary rules out every slot finds the same window (start,
 * pieces, cost) as reading every block, and blocks are passed over. */
static void test_random_passes_as_reads(void)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 21);
    pol_slot_list l;
    pol_slots_init(&l, 1);
    pol_slot_search ss, plain;
    pol_slot_search_init(&ss);
    pol_slot_search_init(&plain);
    plain.no_pass = true;
    enum { M = 8 * POL_SLOT_BLOCK };
    pol_slot *s = malloc(M * sizeof *s);
    pol_piece *kept = malloc(M * sizeof *kept);
    int differ = 0, searches = 0;
    for (int round = 0; round < 60; round++) {
        runs_list(g, s, M, 20, 20, 50, 400, M);
        fill(&l, s, M);
        for (int q = 0; q < 40; q++) {
            pol_slot_req r = {.n = 1 + (int32_t)gsl_rng_uniform_int(g, 8),
                              .t = 30 + 150 * gsl_rng_uniform(g),
                              .perf_ref = 1 + (double)gsl_rng_uniform_int(g, 2),
                              .perf_min = 1 + (double)gsl_rng_uniform_int(g, 3),
                              .price_max = 1 + 3 * gsl_rng_uniform(g),
                              .rigid = gsl_rng_uniform(g) < 0.5};
            pol_slot_algo algo = (pol_slot_algo)gsl_rng_uniform_int(g, 2);
            pol_window w, v;
            bool found, found_plain;
            CU_ASSERT_EQUAL(pol_slot_find(&plain, &l, algo, &r, &v, &found_plain), 0);
            size_t nv = found_plain ? v.n : 0;
            memcpy(kept, v.piece, nv * sizeof *kept);
            CU_ASSERT_EQUAL(pol_slot_find(&ss, &l, algo, &r, &w, &found), 0);
            searches++;
            if (found != found_plain) {
                differ++;
                continue;
            }
            if (!found)
                continue;
            if (w.start_s != v.start_s || w.cost != v.cost || w.n != nv)
                differ++;
            for (size_t k = 0; k < w.n && k < nv; k++)
                differ += w.piece[k].handle != kept[k].handle;
            /* the list loses the window: the blocks change */
            CU_ASSERT_EQUAL(pol_slot_take(&l, &w), 0);
            CU_ASSERT(pol_slots_valid(&l));
        }
    }
    CU_ASSERT_EQUAL(differ, 0);
    CU_ASSERT(searches == 60 * 40);
    CU_ASSERT(ss.blocks_passed > 0);
    CU_ASSERT(ss.blocks_read > 0);
    CU_ASSERT_EQUAL(plain.blocks_passed, 0);
    free(s);
    free(kept);
    pol_slot_search_fini(&ss);
    pol_slot_search_fini(&plain);
    pol_slots_fini(&l);
    gsl_rng_free(g);
}

/* Resuming by hand. ALP, perf 1, price 1; A and B ask N = 2, t = 10:
 *   line 1 [0, 15), line 2 [8, 30), line 3 [9, 40).
 * A (pass 1): line 1 joins an empty window (a resume point); at 8 it has
 * expired (18 > 15), so line 2 joins an empty window (a resume point);
 * line 3 completes the window at 9 on lines 2, 3. Its cut starts at line
 * 2's slot, so only the point at line 1 stays. B resumes there: line 1
 * joins; line 2 is [8, 9) now; the K2 pieces [19, 30) (line 2, an empty
 * window again: line 1 expired) and [19, 40) (line 3) -> window at 19.
 * Pass 2: A resumes at line 1 too and fails (line 2 [29, 30) is too
 * short, line 3 [29, 40) alone); B is skipped (it asks what A failed
 * with). Searched 3, skipped 1, resumed 2 (B in pass 1, A in pass 2). */
static void test_batch_resumes_by_hand(void)
{
    static const pol_slot s[] = {{0, 15, 1, 1, 1}, {8, 30, 1, 1, 2}, {9, 40, 1, 1, 3}};
    pol_slot_list l;
    pol_slots_init(&l, 5);
    pol_slot_search ss;
    pol_slot_search_init(&ss);
    pol_alt_set set;
    pol_alt_set_init(&set);
    pol_slot_req r[2] = {{.n = 2, .t = 10, .perf_ref = 1, .price_max = 1},
                         {.n = 2, .t = 10, .perf_ref = 1, .price_max = 1}};
    for (int resume = 1; resume >= 0; resume--) {
        fill(&l, s, 3);
        ss.no_resume = !resume;
        ss.searched = ss.skipped = ss.resumed = 0;
        CU_ASSERT_EQUAL(pol_slot_batch_search(&ss, &l, POL_SLOT_ALP, r, 2, 0, &set), 0);
        CU_ASSERT_EQUAL_FATAL(set.n_alt, 2);
        CU_ASSERT_EQUAL(set.alt[0].job, 0);
        CU_ASSERT_DOUBLE_EQUAL(set.alt[0].start_s, 9, 0);
        CU_ASSERT_EQUAL(set.alt[1].job, 1);
        CU_ASSERT_DOUBLE_EQUAL(set.alt[1].start_s, 19, 0);
        for (size_t a = 0; a < 2; a++) {
            CU_ASSERT_EQUAL(set.piece[set.alt[a].off].line, 2);
            CU_ASSERT_EQUAL(set.piece[set.alt[a].off + 1].line, 3);
        }
        CU_ASSERT_EQUAL(ss.searched, 3);
        CU_ASSERT_EQUAL(ss.skipped, 1);
        CU_ASSERT_EQUAL(ss.resumed, resume ? 2 : 0);
    }
    pol_alt_set_fini(&set);
    pol_slot_search_fini(&ss);
    pol_slots_fini(&l);
}

/* Random lists of eight blocks or more (heterogeneous lines; runs of
 * short slots), batches whose requests repeat or ask more than one
 * another (rigid or not, ALP and AMP, with and without a cap on the
 * alternatives per job): the batch search that resumes gives the
 * alternatives, pieces and list of the one that starts every search at
 * the list's start, and it resumes. */
static void test_random_batches_resume_as_fresh(void)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 33);
    pol_slot_list l, fresh_l;
    pol_slots_init(&l, 1);
    pol_slots_init(&fresh_l, 1);
    pol_slot_search ss, fresh;
    pol_slot_search_init(&ss);
    pol_slot_search_init(&fresh);
    fresh.no_resume = true;
    pol_alt_set set, ref;
    pol_alt_set_init(&set);
    pol_alt_set_init(&ref);
    enum { M = 8 * POL_SLOT_BLOCK, J = 12 };
    pol_slot *s = malloc(M * sizeof *s);
    int differ = 0;
    for (int round = 0; round < 80; round++) {
        runs_list(g, s, M, 10, 30, 40, 300, 64);
        pol_slot_req reqs[J];
        bool rigid = round % 2 == 0;
        for (int j = 0; j < J; j++) {
            if (j > 0 && gsl_rng_uniform(g) < 0.3) {
                reqs[j] = reqs[gsl_rng_uniform_int(g, (unsigned long)j)];
                continue;
            }
            static const double ts[] = {30, 60, 90};
            reqs[j] = (pol_slot_req){.n = 1 + (int32_t)gsl_rng_uniform_int(g, 6),
                                     .t = ts[gsl_rng_uniform_int(g, 3)],
                                     .perf_ref = 1,
                                     .perf_min = 1 + (double)gsl_rng_uniform_int(g, 2),
                                     .price_max = 2 + (double)gsl_rng_uniform_int(g, 3),
                                     .rigid = rigid};
        }
        pol_slot_algo algo = (pol_slot_algo)(round / 2 % 2);
        size_t cap = round % 3 == 0 ? 2 : 0;
        fill(&l, s, M);
        fill(&fresh_l, s, M);
        CU_ASSERT_EQUAL(pol_slot_batch_search(&ss, &l, algo, reqs, J, cap, &set), 0);
        CU_ASSERT_EQUAL(pol_slot_batch_search(&fresh, &fresh_l, algo, reqs, J, cap, &ref), 0);
        CU_ASSERT(pol_slots_valid(&l));
        differ += alts_differ(&set, &ref);
        if (set.n_alt != ref.n_alt || set.n_piece != ref.n_piece) {
            differ++;
            continue;
        }
        for (size_t k = 0; k < set.n_piece; k++)
            if (set.piece[k].line != ref.piece[k].line || set.piece[k].hold != ref.piece[k].hold)
                differ++;
        /* the lists left are the same slots in the same order */
        if (pol_slots_count(&l) != pol_slots_count(&fresh_l))
            differ++;
        else
            for (size_t i = 0; i < pol_slots_count(&l); i++) {
                const pol_slot *a = pol_slots_get(&l, pol_slots_nth(&l, i));
                const pol_slot *b = pol_slots_get(&fresh_l, pol_slots_nth(&fresh_l, i));
                if (a->start_s != b->start_s || a->end_s != b->end_s || a->line != b->line)
                    differ++;
            }
    }
    CU_ASSERT_EQUAL(differ, 0);
    CU_ASSERT(ss.resumed > ss.searched / 10);
    CU_ASSERT_EQUAL(fresh.resumed, 0);
    CU_ASSERT_EQUAL(ss.searched, fresh.searched);
    free(s);
    pol_alt_set_fini(&set);
    pol_alt_set_fini(&ref);
    pol_slot_search_fini(&ss);
    pol_slot_search_fini(&fresh);
    pol_slots_fini(&l);
    pol_slots_fini(&fresh_l);
    gsl_rng_free(g);
}

int bl_suite_pol_alp_amp(void)
{
    CU_pSuite s = CU_add_suite("pol_alp_amp", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "AMP takes an expensive slot ALP must refuse", test_amp_uses_expensive_slot);
    CU_add_test(s, "blocks passed over: the window of reading every block",
                test_random_passes_as_reads);
    CU_add_test(s, "heterogeneous lines: rough right edge, expiration", test_rough_right_edge);
    CU_add_test(s, "multi-variant batch search by hand", test_batch_by_hand);
    CU_add_test(s, "random lists: earliest window, disjoint alternatives",
                test_random_earliest_and_disjoint);
    CU_add_test(s, "batch search skips requests that ask more than a failed one",
                test_batch_skips_dominated);
    CU_add_test(s, "random batches: the alternatives of the plain passes",
                test_random_batches_as_plain);
    CU_add_test(s, "batch search resumes at an earlier search's point, by hand",
                test_batch_resumes_by_hand);
    CU_add_test(s, "random batches: resumed searches as searches from the start",
                test_random_batches_resume_as_fresh);
    return 0;
}
