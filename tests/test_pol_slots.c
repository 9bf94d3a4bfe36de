/* test_pol_slots.c — the ordered slot list: order and ties, every case of
 * slot subtraction (middle, at the start, at the end, whole, clipped,
 * missed, zero length), copies, handle reuse, and random operations
 * against a plain sorted array; the i-th slot (pol_slots_nth) is always
 * the one the links reach i-th; a window's cuts made together, by hand
 * and against the same cuts one by one; the blocks by hand (a full block
 * split, a new block at the end, an emptied block freed, two small
 * neighbours merged) with their summaries after each edit; every
 * slot's place (pol_slots_place) is where the blocks hold it. */
#include "bl_test.h"
#include "eng_error.h"
#include "slots/pol_slots.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Is every slot's place (pol_slots_place) where the blocks hold it? */
static bool places_ok(const pol_slot_list *l)
{
    for (size_t b = 0; b < pol_slots_blocks(l); b++)
        for (int32_t i = 0; i < pol_slots_block(l, b)->n; i++) {
            size_t pb;
            int32_t pi;
            pol_slots_place(l, pol_slots_block(l, b)->h[i], &pb, &pi);
            if (pb != b || pi != i)
                return false;
        }
    return true;
}

/* The list as (start, end, line) rows. */
static void expect(const pol_slot_list *l, const double (*rows)[3], size_t n)
{
    CU_ASSERT(pol_slots_valid(l));
    CU_ASSERT_EQUAL_FATAL(pol_slots_count(l), n);
    size_t k = 0;
    for (int32_t h = pol_slots_first(l); h; h = pol_slots_next(l, h), k++) {
        const pol_slot *s = pol_slots_get(l, h);
        CU_ASSERT_EQUAL(pol_slots_nth(l, k), h); /* the order array and the links agree */
        CU_ASSERT_DOUBLE_EQUAL(s->start_s, rows[k][0], 0);
        CU_ASSERT_DOUBLE_EQUAL(s->end_s, rows[k][1], 0);
        CU_ASSERT_EQUAL(s->line, (int32_t)rows[k][2]);
    }
    CU_ASSERT(places_ok(l));
    CU_ASSERT_EQUAL(k, n);
}

static void test_order_and_ties(void)
{
    pol_slot_list l;
    CU_ASSERT_EQUAL_FATAL(pol_slots_init(&l, 1), 0);
    int32_t h;
    CU_ASSERT_EQUAL(pol_slots_insert(&l, &(pol_slot){30, 40, 1, 1, 1}, &h), 0);
    CU_ASSERT(h > 0);
    pol_slots_insert(&l, &(pol_slot){10, 20, 1, 1, 2}, NULL);
    pol_slots_insert(&l, &(pol_slot){30, 35, 1, 1, 3}, NULL); /* tie: after line 1 */
    pol_slots_insert(&l, &(pol_slot){0, 50, 1, 1, 4}, NULL);
    pol_slots_insert(&l, &(pol_slot){30, 90, 1, 1, 5}, NULL); /* tie: last of the 30s */
    /* zero and negative lengths are not kept */
    CU_ASSERT_EQUAL(pol_slots_insert(&l, &(pol_slot){5, 5, 1, 1, 6}, &h), 0);
    CU_ASSERT_EQUAL(h, 0);
    pol_slots_insert(&l, &(pol_slot){8, 7, 1, 1, 7}, NULL);
    static const double rows[][3] = {
        {0, 50, 4}, {10, 20, 2}, {30, 40, 1}, {30, 35, 3}, {30, 90, 5}};
    expect(&l, rows, N_OF(rows));
    pol_slots_clear(&l);
    CU_ASSERT_EQUAL(pol_slots_count(&l), 0);
    CU_ASSERT_EQUAL(pol_slots_first(&l), 0);
    pol_slots_fini(&l);
}

/* Fig. 1 (b): K1 keeps K's place and handle, K2 goes to its own place. */
static void test_cut_middle(void)
{
    pol_slot_list l;
    pol_slots_init(&l, 2);
    int32_t k, k2;
    pol_slots_insert(&l, &(pol_slot){0, 100, 1, 1, 1}, &k);
    pol_slots_insert(&l, &(pol_slot){20, 60, 1, 1, 2}, NULL);
    pol_slots_insert(&l, &(pol_slot){50, 70, 1, 1, 3}, NULL);
    CU_ASSERT_EQUAL(pol_slots_cut(&l, k, 30, 55, &k2), 0);
    CU_ASSERT(k2 > 0 && k2 != k);
    CU_ASSERT_DOUBLE_EQUAL(pol_slots_get(&l, k)->end_s, 30, 0);
    CU_ASSERT_DOUBLE_EQUAL(pol_slots_get(&l, k2)->start_s, 55, 0);
    static const double rows[][3] = {{0, 30, 1}, {20, 60, 2}, {50, 70, 3}, {55, 100, 1}};
    expect(&l, rows, N_OF(rows));
    pol_slots_fini(&l);
}

static void test_cut_edges(void)
{
    pol_slot_list l;
    pol_slots_init(&l, 3);
    int32_t a, b, c, d, k2;
    pol_slots_insert(&l, &(pol_slot){0, 100, 1, 1, 1}, &a);
    pol_slots_insert(&l, &(pol_slot){10, 50, 1, 1, 2}, &b);
    pol_slots_insert(&l, &(pol_slot){20, 40, 1, 1, 3}, &c);
    pol_slots_insert(&l, &(pol_slot){30, 60, 1, 1, 4}, &d);
    /* at the start: K1 empty, K removed; K2 = [30, 100) after line 4's 30 */
    pol_slots_cut(&l, a, 0, 30, &k2);
    CU_ASSERT(k2 > 0);
    static const double r1[][3] = {{10, 50, 2}, {20, 40, 3}, {30, 60, 4}, {30, 100, 1}};
    expect(&l, r1, N_OF(r1));
    /* at the end: K2 empty, K shortened in place */
    pol_slots_cut(&l, b, 45, 50, &k2);
    CU_ASSERT_EQUAL(k2, 0);
    static const double r2[][3] = {{10, 45, 2}, {20, 40, 3}, {30, 60, 4}, {30, 100, 1}};
    expect(&l, r2, N_OF(r2));
    /* the whole slot */
    pol_slots_cut(&l, c, 20, 40, &k2);
    CU_ASSERT_EQUAL(k2, 0);
    static const double r3[][3] = {{10, 45, 2}, {30, 60, 4}, {30, 100, 1}};
    expect(&l, r3, N_OF(r3));
    /* clipped: [0, 40) ∩ [30, 60) = [30, 40) */
    pol_slots_cut(&l, d, 0, 40, &k2);
    static const double r4[][3] = {{10, 45, 2}, {30, 100, 1}, {40, 60, 4}};
    expect(&l, r4, N_OF(r4));
    /* missed, empty or reversed intervals change nothing */
    int32_t h2 = pol_slots_first(&l);
    pol_slots_cut(&l, h2, 45, 50, &k2);
    pol_slots_cut(&l, h2, 0, 10, &k2);
    pol_slots_cut(&l, h2, 20, 20, &k2);
    pol_slots_cut(&l, h2, 30, 20, &k2);
    CU_ASSERT_EQUAL(k2, 0);
    expect(&l, r4, N_OF(r4));
    pol_slots_fini(&l);
}

/* Removed handles are reused; copies are equal and independent. */
static void test_reuse_and_copy(void)
{
    pol_slot_list l, m;
    pol_slots_init(&l, 4);
    pol_slots_init(&m, 5);
    int32_t a, b;
    pol_slots_insert(&l, &(pol_slot){0, 10, 1, 1, 1}, &a);
    pol_slots_insert(&l, &(pol_slot){5, 10, 1, 1, 2}, NULL);
    pol_slots_remove(&l, a);
    pol_slots_insert(&l, &(pol_slot){7, 9, 1, 1, 3}, &b);
    CU_ASSERT_EQUAL(a, b);
    CU_ASSERT_EQUAL(pol_slots_copy(&m, &l), 0);
    static const double rows[][3] = {{5, 10, 2}, {7, 9, 3}};
    expect(&m, rows, N_OF(rows));
    pol_slots_cut(&m, pol_slots_first(&m), 5, 10, NULL);
    expect(&l, rows, N_OF(rows));
    static const double rm[][3] = {{7, 9, 3}};
    expect(&m, rm, N_OF(rm));
    pol_slots_fini(&l);
    pol_slots_fini(&m);
}

/* The reference: an array kept sorted by (start, insertion number). */
typedef struct ref_slot {
    double s, e;
    unsigned long seq;
    int32_t handle;
} ref_slot;

static int ref_cmp(const void *a, const void *b)
{
    const ref_slot *x = a, *y = b;
    if (x->s != y->s)
        return x->s < y->s ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static void test_random_against_array(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    pol_slot_list l;
    pol_slots_init(&l, 11);
    enum { CAP = 4000 };
    ref_slot *ref = malloc(CAP * sizeof *ref);
    size_t n = 0;
    unsigned long seq = 0;
    int bad = 0;
    for (int step = 0; step < 3000; step++) {
        double u = gsl_rng_uniform(r);
        if (n == 0 || (u < 0.4 && n < CAP - 2)) {
            double s = (double)gsl_rng_uniform_int(r, 50);
            double e = s + (double)gsl_rng_uniform_int(r, 30);
            int32_t h;
            pol_slots_insert(&l, &(pol_slot){s, e, 1, 1, 0}, &h);
            if (e > s)
                ref[n++] = (ref_slot){s, e, seq, h};
            if (e > s)
                seq++;
        } else {
            size_t k = gsl_rng_uniform_int(r, n);
            ref_slot x = ref[k];
            double from = x.s + (double)gsl_rng_uniform_int(r, 40) - 10;
            double to = from + (double)gsl_rng_uniform_int(r, 30);
            int32_t k2;
            pol_slots_cut(&l, x.handle, from, to, &k2);
            double cf = from < x.s ? x.s : from, ct = to > x.e ? x.e : to;
            if (cf < ct) {
                ref[k] = ref[--n];
                if (cf > x.s)
                    ref[n++] = (ref_slot){x.s, cf, x.seq, x.handle};
                if (ct < x.e)
                    ref[n++] = (ref_slot){ct, x.e, seq++, k2};
            }
        }
        qsort(ref, n, sizeof *ref, ref_cmp);
        if (!pol_slots_valid(&l) || pol_slots_count(&l) != n) {
            bad++;
            break;
        }
        size_t k = 0;
        for (int32_t h = pol_slots_first(&l); h; h = pol_slots_next(&l, h), k++) {
            const pol_slot *s = pol_slots_get(&l, h);
            if (h != ref[k].handle || pol_slots_nth(&l, k) != h || s->start_s != ref[k].s ||
                s->end_s != ref[k].e)
                bad++;
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
    free(ref);
    pol_slots_fini(&l);
    gsl_rng_free(r);
}

/* The blocks' sizes in order, and the summary of block i. */
static size_t sizes(const pol_slot_list *l, int32_t *n, size_t cap)
{
    size_t nb = pol_slots_blocks(l);
    for (size_t i = 0; i < nb && i < cap; i++)
        n[i] = pol_slots_block(l, i)->n;
    return nb;
}

static void expect_summary(const pol_slot_list *l, size_t i, bool stale, double len, double work,
                           double perf, double price)
{
    const pol_slot_block *b = pol_slots_block(l, i);
    CU_ASSERT_EQUAL(b->stale, stale);
    CU_ASSERT_DOUBLE_EQUAL(b->sum.max_len, len, 0);
    CU_ASSERT_DOUBLE_EQUAL(b->sum.max_work, work, 0);
    CU_ASSERT_DOUBLE_EQUAL(b->sum.max_perf, perf, 0);
    CU_ASSERT_DOUBLE_EQUAL(b->sum.min_price, price, 0);
}

/* B = POL_SLOT_BLOCK slots i = 0 .. B-1 on [i, i + 10), perf 1, price 2,
 * but slot 5 on [5, 115) with perf 3 and price 1: one full block, whose
 * summary is exact: length 110, work 330, perf 3, price 1; the list's
 * magnitude max(115, B + 9). A slot at B goes after all: a new block of
 * one (exact: 10, 10, 1, 2). A slot at 2.5 (before slots 3 .. B-1) splits
 * the full block: [0 .. 2, 2.5, 3 .. B/2 - 1] (B/2 + 1 slots, slot 5
 * among them) and [B/2 .. B-1] (B/2); both keep the whole block's
 * summary, stale, until settled: then (110, 330, 3, 1) and (10, 10, 1,
 * 2). Cutting [7, 200) out of slot 5 leaves K1 [5, 7): the first block
 * is stale with its old summary; settled, its longest length and work
 * are 10 (K1's work is 2 x 3 = 6), its perf and price still slot 5's.
 * Removing the slot at B frees its block; with the first block down to 7
 * slots, removing 7 of the second's B/2 leaves two neighbours that fit
 * in half a block: they merge (the larger of the two summaries, stale
 * since the removals); once the second block's slots are all gone and
 * the summary settled, it is that of slots 0 .. 4, K1 and the slot at
 * 2.5: (10, 10, 3, 1). */
static void test_blocks_by_hand(void)
{
    enum { B = POL_SLOT_BLOCK };
    CU_ASSERT_FATAL(B >= 16 && B % 2 == 0);
    pol_slot_list l;
    CU_ASSERT_EQUAL_FATAL(pol_slots_init(&l, 1), 0);
    int32_t h[B], h5 = 0, hb = 0, hm = 0, n[4];
    for (int i = 0; i < B; i++) {
        pol_slot s = {i, i + 10, 1, 2, i};
        if (i == 5)
            s = (pol_slot){5, 115, 3, 1, 5};
        CU_ASSERT_EQUAL(pol_slots_insert(&l, &s, &h[i]), 0);
    }
    h5 = h[5];
    CU_ASSERT(pol_slots_valid(&l));
    CU_ASSERT_EQUAL(sizes(&l, n, 4), 1);
    CU_ASSERT_EQUAL(n[0], B);
    expect_summary(&l, 0, false, 110, 330, 3, 1);
    CU_ASSERT_DOUBLE_EQUAL(l.max_abs, B + 9 > 115 ? B + 9 : 115, 0);
    /* at the end: a new block */
    CU_ASSERT_EQUAL(pol_slots_insert(&l, &(pol_slot){B, B + 10, 1, 2, B}, &hb), 0);
    CU_ASSERT(pol_slots_valid(&l));
    CU_ASSERT_EQUAL_FATAL(sizes(&l, n, 4), 2);
    CU_ASSERT(n[0] == B && n[1] == 1);
    expect_summary(&l, 1, false, 10, 10, 1, 2);
    /* in the middle of the full block: a split */
    CU_ASSERT_EQUAL(pol_slots_insert(&l, &(pol_slot){2.5, 12.5, 1, 2, -1}, &hm), 0);
    CU_ASSERT(pol_slots_valid(&l));
    CU_ASSERT_EQUAL_FATAL(sizes(&l, n, 4), 3);
    CU_ASSERT(n[0] == B / 2 + 1 && n[1] == B / 2 && n[2] == 1);
    CU_ASSERT_EQUAL(pol_slots_block(&l, 0)->h[3], hm);
    CU_ASSERT_EQUAL(pol_slots_block(&l, 1)->h[0], h[B / 2]);
    expect_summary(&l, 0, true, 110, 330, 3, 1);
    expect_summary(&l, 1, true, 110, 330, 3, 1);
    pol_slots_settle_all(&l);
    CU_ASSERT(pol_slots_valid(&l));
    expect_summary(&l, 0, false, 110, 330, 3, 1);
    expect_summary(&l, 1, false, 10, 10, 1, 2);
    CU_ASSERT_EQUAL(pol_slots_nth(&l, B / 2 + 1), h[B / 2]);
    CU_ASSERT_EQUAL(pol_slots_next(&l, h[B / 2 - 1]), h[B / 2]); /* across blocks */
    CU_ASSERT_EQUAL(pol_slots_next(&l, h[B - 1]), hb);
    CU_ASSERT_EQUAL(pol_slots_next(&l, hb), 0);
    /* K1 shortened in place: a bound until settled */
    int32_t k2;
    CU_ASSERT_EQUAL(pol_slots_cut(&l, h5, 7, 200, &k2), 0);
    CU_ASSERT_EQUAL(k2, 0);
    CU_ASSERT(pol_slots_valid(&l));
    expect_summary(&l, 0, true, 110, 330, 3, 1);
    pol_slots_settle_all(&l);
    expect_summary(&l, 0, false, 10, 10, 3, 1);
    /* an emptied block is freed */
    pol_slots_remove(&l, hb);
    CU_ASSERT(pol_slots_valid(&l));
    CU_ASSERT_EQUAL_FATAL(sizes(&l, n, 4), 2);
    /* the first block down to 7 slots (0 .. 5 and the one at 2.5): no
     * merge, 7 + B/2 > B/2 */
    for (int i = 6; i < B / 2; i++)
        pol_slots_remove(&l, h[i]);
    CU_ASSERT(pol_slots_valid(&l));
    CU_ASSERT_EQUAL_FATAL(sizes(&l, n, 4), 2);
    CU_ASSERT(n[0] == 7 && n[1] == B / 2);
    /* the second block from its end: after 7 removals both fit in half a
     * block and merge */
    for (int i = B - 1; i >= B / 2; i--) {
        pol_slots_remove(&l, h[i]);
        CU_ASSERT(pol_slots_valid(&l));
        CU_ASSERT_EQUAL(pol_slots_blocks(&l), i <= B - 7 ? 1u : 2u);
    }
    CU_ASSERT_EQUAL(sizes(&l, n, 4), 1);
    CU_ASSERT_EQUAL(n[0], 7);
    pol_slots_settle_all(&l);
    expect_summary(&l, 0, false, 10, 10, 3, 1);
    for (int i = 0; i < 6; i++)
        pol_slots_remove(&l, h[i]);
    CU_ASSERT(pol_slots_valid(&l));
    CU_ASSERT_EQUAL(pol_slots_blocks(&l), 1);
    CU_ASSERT_EQUAL(pol_slots_first(&l), hm);
    pol_slots_remove(&l, hm);
    CU_ASSERT(pol_slots_valid(&l));
    CU_ASSERT_EQUAL(pol_slots_blocks(&l), 0);
    CU_ASSERT_EQUAL(pol_slots_first(&l), 0);
    pol_slots_fini(&l);
}

/* A window of three lines from 20 to 50 (then line 3's piece to 40):
 * line 1 [0, 100) -> K1 [0, 20), K2 [50, 100); line 2 [20, 60) -> K2
 * [50, 60) only; line 3 [20, 40) -> gone. K2 pieces come after the slots
 * that start at 50 (line 4) in the order cut. */
static void test_cut_all_by_hand(void)
{
    pol_slot_list l;
    pol_slots_init(&l, 6);
    int32_t a, b, c;
    pol_slots_insert(&l, &(pol_slot){0, 100, 1, 1, 1}, &a);
    pol_slots_insert(&l, &(pol_slot){20, 60, 1, 1, 2}, &b);
    pol_slots_insert(&l, &(pol_slot){20, 40, 1, 1, 3}, &c);
    pol_slots_insert(&l, &(pol_slot){50, 70, 1, 1, 4}, NULL);
    pol_slot_cut cuts[] = {{a, 50}, {b, 50}, {c, 40}};
    CU_ASSERT_EQUAL(pol_slots_cut_all(&l, 20, cuts, 3), 0);
    static const double rows[][3] = {{0, 20, 1}, {50, 70, 4}, {50, 100, 1}, {50, 60, 2}};
    expect(&l, rows, N_OF(rows));
    /* nothing to cut: unchanged */
    CU_ASSERT_EQUAL(pol_slots_cut_all(&l, 20, cuts, 0), 0);
    expect(&l, rows, N_OF(rows));
    pol_slots_fini(&l);
}

/* Random lists and windows: pol_slots_cut_all leaves the list that the
 * cuts one by one leave. */
static void test_cut_all_as_one_by_one(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 13);
    pol_slot_list l, m;
    pol_slots_init(&l, 1);
    pol_slots_init(&m, 1);
    int bad = 0;
    for (int round = 0; round < 500; round++) {
        pol_slots_clear(&l);
        /* up to five blocks' worth, so that windows span blocks */
        size_t n = 1 + gsl_rng_uniform_int(r, round % 2 ? 60 : 5 * POL_SLOT_BLOCK);
        for (size_t i = 0; i < n; i++) {
            double st = (double)gsl_rng_uniform_int(r, 40);
            pol_slots_insert(
                &l, &(pol_slot){st, st + 1 + (double)gsl_rng_uniform_int(r, 40), 1, 1, (int32_t)i},
                NULL);
        }
        /* a few removals and cuts first, so that handles are recycled */
        for (int k = 0; k < 5 && pol_slots_count(&l) > 1; k++)
            pol_slots_remove(&l, pol_slots_nth(&l, gsl_rng_uniform_int(r, pol_slots_count(&l))));
        CU_ASSERT_EQUAL_FATAL(pol_slots_copy(&m, &l), 0);
        double from = (double)gsl_rng_uniform_int(r, 50);
        pol_slot_cut cuts[5 * POL_SLOT_BLOCK];
        size_t nc = 0;
        for (size_t i = 0; i < pol_slots_count(&l); i++)
            if (gsl_rng_uniform(r) < 0.4) {
                double to = round % 2 ? from + 15 : from + (double)gsl_rng_uniform_int(r, 30) - 5;
                cuts[nc++] = (pol_slot_cut){pol_slots_nth(&l, i), to};
            }
        /* cut in an order other than the list's */
        for (size_t i = nc; i > 1; i--) {
            size_t j = gsl_rng_uniform_int(r, i);
            pol_slot_cut x = cuts[i - 1];
            cuts[i - 1] = cuts[j];
            cuts[j] = x;
        }
        for (size_t k = 0; k < nc; k++)
            pol_slots_cut(&m, cuts[k].handle, from, cuts[k].to, NULL);
        CU_ASSERT_EQUAL(pol_slots_cut_all(&l, from, cuts, nc), 0);
        if (!pol_slots_valid(&l) || !places_ok(&l) || pol_slots_count(&l) != pol_slots_count(&m)) {
            bad++;
            continue;
        }
        for (size_t i = 0; i < pol_slots_count(&l); i++) {
            const pol_slot *x = pol_slots_get(&l, pol_slots_nth(&l, i));
            const pol_slot *y = pol_slots_get(&m, pol_slots_nth(&m, i));
            if (x->start_s != y->start_s || x->end_s != y->end_s || x->line != y->line)
                bad++;
        }
        /* later insertions sort the same way */
        pol_slot z = {from + 15, from + 30, 1, 1, -1};
        pol_slots_insert(&l, &z, NULL);
        pol_slots_insert(&m, &z, NULL);
        for (size_t i = 0; i < pol_slots_count(&l); i++)
            if (pol_slots_get(&l, pol_slots_nth(&l, i))->line !=
                pol_slots_get(&m, pol_slots_nth(&m, i))->line)
                bad++;
    }
    CU_ASSERT_EQUAL(bad, 0);
    pol_slots_fini(&l);
    pol_slots_fini(&m);
    gsl_rng_free(r);
}

int bl_suite_pol_slots(void)
{
    CU_pSuite s = CU_add_suite("pol_slots", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "order by start, ties in insertion order", test_order_and_ties);
    CU_add_test(s, "cut in the middle: K1 in place, K2 sorted in", test_cut_middle);
    CU_add_test(s, "cut at the start, at the end, whole, clipped, missed", test_cut_edges);
    CU_add_test(s, "handle reuse and copies", test_reuse_and_copy);
    CU_add_test(s, "random inserts and cuts against a sorted array", test_random_against_array);
    CU_add_test(s, "a window's cuts together, by hand", test_cut_all_by_hand);
    CU_add_test(s, "a window's cuts together as one by one", test_cut_all_as_one_by_one);
    CU_add_test(s, "blocks: split, new at the end, freed, merged; summaries", test_blocks_by_hand);
    return 0;
}
