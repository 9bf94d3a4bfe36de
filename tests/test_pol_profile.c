/* test_pol_profile.c — the availability profile: known answers for
 * reserve/release/merge, earliest slots and the refusal of over-booking. */
#include "bl_test.h"
#include "eng_error.h"
#include "pol_profile.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

static void expect(const pol_profile *p, const double *t, const int32_t *f, size_t n)
{
    CU_ASSERT_EQUAL_FATAL(p->n, n);
    for (size_t i = 0; i < n; i++) {
        CU_ASSERT_DOUBLE_EQUAL(p->t[i], t[i], 0);
        CU_ASSERT_EQUAL(p->free[i], f[i]);
    }
}

static void test_reserve_release_merge(void)
{
    pol_profile p;
    CU_ASSERT_EQUAL_FATAL(pol_profile_init(&p, 10, 0), 0);
    CU_ASSERT_EQUAL(pol_profile_add(&p, 5, 15, -4), 0);
    expect(&p, (double[]){0, 5, 15}, (int32_t[]){10, 6, 10}, 3);
    CU_ASSERT_EQUAL(pol_profile_add(&p, 10, 20, -6), 0);
    expect(&p, (double[]){0, 5, 10, 15, 20}, (int32_t[]){10, 6, 0, 4, 10}, 5);
    CU_ASSERT_EQUAL(pol_profile_free_at(&p, 12), 0);
    CU_ASSERT_EQUAL(pol_profile_free_at(&p, 15), 4);
    CU_ASSERT_EQUAL(pol_profile_free_at(&p, 1e9), 10);
    /* over-booking is refused and leaves the profile unchanged */
    CU_ASSERT_EQUAL(pol_profile_add(&p, 0, 12, -7), ENG_INVARIANT);
    expect(&p, (double[]){0, 5, 10, 15, 20}, (int32_t[]){10, 6, 0, 4, 10}, 5);
    CU_ASSERT_EQUAL(pol_profile_add(&p, 0, 30, 1), ENG_INVARIANT);
    /* releasing merges equal neighbours back */
    CU_ASSERT_EQUAL(pol_profile_add(&p, 10, 20, 6), 0);
    expect(&p, (double[]){0, 5, 15}, (int32_t[]){10, 6, 10}, 3);
    CU_ASSERT_EQUAL(pol_profile_add(&p, 5, 15, 4), 0);
    expect(&p, (double[]){0}, (int32_t[]){10}, 1);
    /* an infinite end */
    CU_ASSERT_EQUAL(pol_profile_add(&p, 3, INFINITY, -2), 0);
    expect(&p, (double[]){0, 3}, (int32_t[]){10, 8}, 2);
    pol_profile_fini(&p);
}

static void test_earliest(void)
{
    pol_profile p;
    pol_profile_init(&p, 4, 0);
    pol_profile_add(&p, 0, 10, -2);  /* 2 free on [0,10) */
    pol_profile_add(&p, 10, 15, -4); /* 0 free on [10,15) */
    pol_profile_add(&p, 20, 30, -3); /* 1 free on [20,30) */
    /* 2 units for 8 s from 2: [2,10) fits exactly */
    CU_ASSERT_DOUBLE_EQUAL(pol_profile_earliest(&p, 2, 8, 2), 2, 0);
    /* 2 units for 9 s from 2: blocked at 10, next start 15, [15,24) hits
     * the 1-free segment at 20: next start 30 */
    CU_ASSERT_DOUBLE_EQUAL(pol_profile_earliest(&p, 2, 9, 2), 30, 0);
    /* 1 unit for 5 s from 9: blocked at 10, [15,20) fits */
    CU_ASSERT_DOUBLE_EQUAL(pol_profile_earliest(&p, 9, 5, 1), 15, 0);
    /* 4 units: for 1 s in the gap [15,20); for 6 s only from 30 */
    CU_ASSERT_DOUBLE_EQUAL(pol_profile_earliest(&p, 0, 1, 4), 15, 0);
    CU_ASSERT_DOUBLE_EQUAL(pol_profile_earliest(&p, 0, 6, 4), 30, 0);
    /* more than the total: never */
    CU_ASSERT(isinf(pol_profile_earliest(&p, 0, 1, 5)));
    pol_profile_fini(&p);
}

static void test_advance(void)
{
    pol_profile p;
    pol_profile_init(&p, 4, 0);
    pol_profile_add(&p, 0, 10, -2);
    pol_profile_add(&p, 20, 30, -1);
    pol_profile_advance(&p, 12);
    expect(&p, (double[]){12, 20, 30}, (int32_t[]){4, 3, 4}, 3);
    pol_profile_advance(&p, 25);
    expect(&p, (double[]){25, 30}, (int32_t[]){3, 4}, 2);
    /* adding before the origin is clipped to it */
    CU_ASSERT_EQUAL(pol_profile_add(&p, 0, 27, -1), 0);
    expect(&p, (double[]){25, 27, 30}, (int32_t[]){2, 3, 4}, 3);
    pol_profile_fini(&p);
}

/* The profile of test_earliest: 2 free on [0,10), 0 on [10,15), 4 on
 * [15,20), 1 on [20,30), 4 from 30 on (total 4). */
static void make_steps(pol_profile *p)
{
    pol_profile_init(p, 4, 0);
    pol_profile_add(p, 0, 10, -2);
    pol_profile_add(p, 10, 15, -4);
    pol_profile_add(p, 20, 30, -3);
}

static void test_earliest_resume(void)
{
    pol_profile p;
    make_steps(&p);
    /* 2 units for 11 s: [0,11) is blocked at 10, the next candidate is 15,
     * past the limit 12: nothing known before 12, the cursor waits at 15 */
    pol_profile_cursor c = pol_profile_cursor_start(&p);
    CU_ASSERT(isinf(pol_profile_earliest_resume(&p, &c, 11, 2, 12)));
    CU_ASSERT_DOUBLE_EQUAL(c.start, 15, 0);
    /* resumed with a later limit: [15,26) is blocked at 20, then 30 fits,
     * as the full scan finds */
    CU_ASSERT_DOUBLE_EQUAL(pol_profile_earliest_resume(&p, &c, 11, 2, 100), 30, 0);
    CU_ASSERT_DOUBLE_EQUAL(pol_profile_earliest(&p, 0, 11, 2), 30, 0);
    /* asked again: the same answer, the cursor stays */
    CU_ASSERT_DOUBLE_EQUAL(pol_profile_earliest_resume(&p, &c, 11, 2, 100), 30, 0);
    /* a fit found before the limit: 1 unit for 5 s at 0 */
    c = pol_profile_cursor_start(&p);
    CU_ASSERT_DOUBLE_EQUAL(pol_profile_earliest_resume(&p, &c, 5, 1, 3), 0, 0);
    /* more than the total */
    c = pol_profile_cursor_start(&p);
    CU_ASSERT(isinf(pol_profile_earliest_resume(&p, &c, 1, 5, 100)));
    pol_profile_fini(&p);
}

static void test_free_since(void)
{
    pol_profile p;
    make_steps(&p);
    /* 2 units before 20: [15,20) has 4, [10,15) blocks: since 15 */
    CU_ASSERT_DOUBLE_EQUAL(pol_profile_free_since(&p, 20, 2), 15, 0);
    /* before 25 (inside [20,30)): 1 unit free on [20,25), 4 on [15,20),
     * 0 on [10,15): since 15; 2 units: [20,25) blocks, since 25 */
    CU_ASSERT_DOUBLE_EQUAL(pol_profile_free_since(&p, 25, 1), 15, 0);
    CU_ASSERT_DOUBLE_EQUAL(pol_profile_free_since(&p, 25, 2), 25, 0);
    /* 2 units before 10: all of [0,10), since the origin; 3 units: none */
    CU_ASSERT_DOUBLE_EQUAL(pol_profile_free_since(&p, 10, 2), 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(pol_profile_free_since(&p, 10, 3), 10, 0);
    /* at or before the origin */
    CU_ASSERT_DOUBLE_EQUAL(pol_profile_free_since(&p, 0, 1), 0, 0);
    /* the same from hints below, at and above the segment holding the
     * time, and past the end */
    for (size_t h = 0; h < 7; h++) {
        CU_ASSERT_DOUBLE_EQUAL(pol_profile_free_since_near(&p, 20, 2, h), 15, 0);
        CU_ASSERT_DOUBLE_EQUAL(pol_profile_free_since_near(&p, 25, 1, h), 15, 0);
        CU_ASSERT_DOUBLE_EQUAL(pol_profile_free_since_near(&p, 25, 2, h), 25, 0);
        CU_ASSERT_DOUBLE_EQUAL(pol_profile_free_since_near(&p, 10, 2, h), 0, 0);
        CU_ASSERT_DOUBLE_EQUAL(pol_profile_free_since_near(&p, 10, 3, h), 10, 0);
        CU_ASSERT_DOUBLE_EQUAL(pol_profile_free_since_near(&p, 0, 1, h), 0, 0);
        CU_ASSERT_DOUBLE_EQUAL(pol_profile_free_since_near(&p, 35, 4, h), 30, 0);
    }
    pol_profile_fini(&p);
}

/* Runs of free units around a segment, and walks cut short. */
static void test_run(void)
{
    pol_profile p;
    make_steps(&p); /* 2 on [0,10), 0 on [10,15), 4 on [15,20), 1 on [20,30), 4 */
    double from, to;
    /* 1 unit around [15,20): [10,15) blocks before, free to the end */
    pol_profile_run(&p, 2, 1, 8, &from, &to);
    CU_ASSERT_DOUBLE_EQUAL(from, 15, 0);
    CU_ASSERT(isinf(to) && to > 0);
    /* 2 units: [20,30) has 1, so the run ends at 20 */
    pol_profile_run(&p, 2, 2, 8, &from, &to);
    CU_ASSERT_DOUBLE_EQUAL(from, 15, 0);
    CU_ASSERT_DOUBLE_EQUAL(to, 20, 0);
    /* around [30,inf) with 1 unit: back over [20,30) and [15,20) to 15 */
    pol_profile_run(&p, 4, 1, 8, &from, &to);
    CU_ASSERT_DOUBLE_EQUAL(from, 15, 0);
    CU_ASSERT(isinf(to) && to > 0);
    /* the first segment: the run starts at the origin */
    pol_profile_run(&p, 0, 2, 8, &from, &to);
    CU_ASSERT_DOUBLE_EQUAL(from, 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(to, 10, 0);
    /* one step back from [30,inf) reaches [20,30), and [15,20) would
     * still hold 1 unit: the start is not known */
    pol_profile_run(&p, 4, 1, 1, &from, &to);
    CU_ASSERT(isinf(from) && from < 0);
    /* no step on from [15,20): with 1 unit [20,30) would continue the run
     * (end not known), with 2 units it ends the run at 20 */
    pol_profile_run(&p, 2, 1, 0, &from, &to);
    CU_ASSERT(isinf(to) && to > 0);
    pol_profile_run(&p, 2, 2, 0, &from, &to);
    CU_ASSERT_DOUBLE_EQUAL(to, 20, 0);
    pol_profile_fini(&p);
}

/* b, moved from `from` to `to` (dur long), holds the segments of a, where
 * the same units were released and reserved by two adds, and its back_i is
 * unknown or the segment holding max(from, to + dur), as a search finds it.
 * Whether back_i was known. */
static bool check_moved(const pol_profile *a, const pol_profile *b, double from, double to,
                        double dur)
{
    CU_ASSERT_EQUAL(b->n, a->n);
    for (size_t i = 0; i < a->n && i < b->n; i++) {
        CU_ASSERT_DOUBLE_EQUAL(b->t[i], a->t[i], 0);
        CU_ASSERT_EQUAL(b->free[i], a->free[i]);
    }
    double back = from > to + dur ? from : to + dur;
    CU_ASSERT(b->back_i == SIZE_MAX || b->back_i == pol_profile_cursor_at(b, back).i);
    return b->back_i != SIZE_MAX;
}

/* pol_profile_move against the two adds it stands for, on the steps and on
 * spans apart, overlapping, touching, at the origin and past the last
 * breakpoint; a move that would overbook is refused and changes nothing
 * (where the second add would fail after the first had been applied). */
static void test_move(void)
{
    static const double cases[][2] = {{0, 12}, {15, 5},  {20, 15}, {21, 10},
                                      {30, 0}, {40, 25}, {15, 0},  {22, 17}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        double from = cases[c][0], to = cases[c][1], dur = 5;
        pol_profile a, b;
        make_steps(&a);
        make_steps(&b);
        /* a reservation of 1 unit at from, then moved to `to` */
        CU_ASSERT_EQUAL(pol_profile_add(&a, from, from + dur, -1), ENG_OK);
        CU_ASSERT_EQUAL(pol_profile_add(&b, from, from + dur, -1), ENG_OK);
        int ra = pol_profile_add(&a, from, from + dur, 1);
        if (ra == ENG_OK)
            ra = pol_profile_add(&a, to, to + dur, -1);
        size_t n_before = b.n;
        int rb = pol_profile_move(&b, from, to, dur, 1);
        CU_ASSERT_EQUAL(rb, ra);
        if (rb != ENG_OK) {
            CU_ASSERT_EQUAL(b.n, n_before);
            pol_profile_fini(&a);
            pol_profile_fini(&b);
            continue;
        }
        check_moved(&a, &b, from, to, dur);
        pol_profile_fini(&a);
        pol_profile_fini(&b);
    }
    /* By hand: 2 units on [0,10), 0 on [10,15), 4 on [15,20), 1 on [20,30),
     * 4 on. 1 unit reserved on [22,27) (0 there), moved to [16,21): 4 on
     * [15,16), 3 on [16,20), 0 on [20,21), 1 on [21,30) (the old slot given
     * back), 4 on. */
    pol_profile p;
    make_steps(&p);
    CU_ASSERT_EQUAL(pol_profile_add(&p, 22, 27, -1), ENG_OK);
    CU_ASSERT_EQUAL(pol_profile_move(&p, 22, 16, 5, 1), ENG_OK);
    static const double t[] = {0, 10, 15, 16, 20, 21, 30};
    static const int32_t f[] = {2, 0, 4, 3, 0, 1, 4};
    CU_ASSERT_EQUAL(p.n, 7);
    for (size_t i = 0; i < 7 && i < p.n; i++) {
        CU_ASSERT_DOUBLE_EQUAL(p.t[i], t[i], 0);
        CU_ASSERT_EQUAL(p.free[i], f[i]);
    }
    /* the rewrite began at the segment holding 16, [15,20) (index 2); from
     * there the old slot's end, 22, is found in [21,30) (index 5) */
    CU_ASSERT_EQUAL(p.edit_i, 2);
    CU_ASSERT_EQUAL(pol_profile_cursor_near(&p, 22, p.edit_i).i, 5);
    /* the units given back start at 22, in [21,30) */
    CU_ASSERT_EQUAL(p.back_i, 5);
    /* 1 unit into [10,15), where none is free: refused, nothing changed */
    CU_ASSERT_EQUAL(pol_profile_move(&p, 16, 11, 5, 1), ENG_INVARIANT);
    CU_ASSERT_EQUAL(p.n, 7);
    CU_ASSERT_EQUAL(p.free[3], 3);
    pol_profile_fini(&p);
}

/* A move whose old and new spans overlap over several breakpoints: from
 * the later of the two starts to the earlier of the two ends nothing
 * changes, and pol_profile_move copies those segments as they are. By hand:
 * 6 units; 1 reserved on [10,40), others taken 2 on [15,20), 1 on [20,25),
 * 3 on [25,30): 6 on [0,10), 5 on [10,15), 3 on [15,20), 4 on [20,25),
 * 2 on [25,30), 5 on [30,40), 6 on. Moved to [5,35): 5 on [5,10), the
 * middle [10,35) unchanged but for its end, 6 on [35,40). Then against
 * the two adds on random profiles with long reservations (many
 * breakpoints between the spans' inner ends). */
static void test_move_middle(void)
{
    pol_profile p;
    CU_ASSERT_EQUAL_FATAL(pol_profile_init(&p, 6, 0), ENG_OK);
    CU_ASSERT_EQUAL(pol_profile_add(&p, 10, 40, -1), ENG_OK);
    CU_ASSERT_EQUAL(pol_profile_add(&p, 15, 20, -2), ENG_OK);
    CU_ASSERT_EQUAL(pol_profile_add(&p, 20, 25, -1), ENG_OK);
    CU_ASSERT_EQUAL(pol_profile_add(&p, 25, 30, -3), ENG_OK);
    CU_ASSERT_EQUAL(pol_profile_move(&p, 10, 5, 30, 1), ENG_OK);
    expect(&p, (double[]){0, 5, 15, 20, 25, 30, 35}, (int32_t[]){6, 5, 3, 4, 2, 5, 6}, 7);
    /* and back: the middle [10,35) again copied, 6 on [5,10) merges */
    CU_ASSERT_EQUAL(pol_profile_move(&p, 5, 10, 30, 1), ENG_OK);
    expect(&p, (double[]){0, 10, 15, 20, 25, 30, 40}, (int32_t[]){6, 5, 3, 4, 2, 5, 6}, 7);
    pol_profile_fini(&p);

    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 16);
    int moved = 0, known = 0; /* moves, and those that know back_i */
    for (int round = 0; round < 200; round++) {
        pol_profile a, b;
        CU_ASSERT_EQUAL_FATAL(pol_profile_init(&a, 8, 0), ENG_OK);
        CU_ASSERT_EQUAL_FATAL(pol_profile_init(&b, 8, 0), ENG_OK);
        for (int k = 0; k < 12; k++) { /* short reservations: breakpoints */
            double s0 = (double)gsl_rng_uniform_int(r, 100),
                   d = 1 + (double)gsl_rng_uniform_int(r, 9);
            int32_t u = 1 + (int32_t)gsl_rng_uniform_int(r, 3);
            if (pol_profile_add(&a, s0, s0 + d, -u) == ENG_OK)
                CU_ASSERT_EQUAL(pol_profile_add(&b, s0, s0 + d, -u), ENG_OK);
        }
        double from = (double)gsl_rng_uniform_int(r, 60),
               dur = 10 + (double)gsl_rng_uniform_int(r, 50);
        double to = from + (double)gsl_rng_uniform_int(r, 41) - 20.0;
        int32_t units = 1 + (int32_t)gsl_rng_uniform_int(r, 2);
        if (to < 0 || pol_profile_add(&a, from, from + dur, -units) != ENG_OK) {
            pol_profile_fini(&a);
            pol_profile_fini(&b);
            continue;
        }
        CU_ASSERT_EQUAL(pol_profile_add(&b, from, from + dur, -units), ENG_OK);
        int ra = pol_profile_add(&a, from, from + dur, units);
        if (ra == ENG_OK)
            ra = pol_profile_add(&a, to, to + dur, -units);
        int rb = pol_profile_move(&b, from, to, dur, units);
        CU_ASSERT_EQUAL(rb, ra);
        if (ra == ENG_OK && rb == ENG_OK) {
            known += check_moved(&a, &b, from, to, dur);
            moved++;
        }
        pol_profile_fini(&a);
        pol_profile_fini(&b);
    }
    gsl_rng_free(r);
    CU_ASSERT(moved > 50);
    CU_ASSERT(known > moved / 2);
}

static void test_free_before_max_over(void)
{
    pol_profile p;
    make_steps(&p); /* 2 on [0,10), 0 on [10,15), 4 on [15,20), 1 on [20,30), 4 */
    /* just before a breakpoint: the segment that ends there */
    CU_ASSERT_EQUAL(pol_profile_free_before(&p, 10), 2);
    CU_ASSERT_EQUAL(pol_profile_free_before(&p, 15), 0);
    CU_ASSERT_EQUAL(pol_profile_free_before(&p, 20), 4);
    CU_ASSERT_EQUAL(pol_profile_free_before(&p, 30), 1);
    /* inside a segment: that segment; at or before the origin: t[0]'s */
    CU_ASSERT_EQUAL(pol_profile_free_before(&p, 12), 0);
    CU_ASSERT_EQUAL(pol_profile_free_before(&p, 1e9), 4);
    CU_ASSERT_EQUAL(pol_profile_free_before(&p, 0), 2);
    /* the least and the most free over [a, b) */
    int32_t lo, hi;
    pol_profile_minmax_over(&p, 10, 15, &lo, &hi);
    CU_ASSERT(lo == 0 && hi == 0);
    pol_profile_minmax_over(&p, 12, 16, &lo, &hi);
    CU_ASSERT(lo == 0 && hi == 4);
    pol_profile_minmax_over(&p, 0, 15, &lo, &hi);
    CU_ASSERT(lo == 0 && hi == 2);
    pol_profile_minmax_over(&p, 20, 25, &lo, &hi);
    CU_ASSERT(lo == 1 && hi == 1);
    pol_profile_minmax_over(&p, 15, 30.5, &lo, &hi);
    CU_ASSERT(lo == 1 && hi == 4);
    pol_profile_fini(&p);
}

static void test_cursor_at(void)
{
    pol_profile p;
    make_steps(&p);
    /* 2 units for 4 s, scanned from 12 (inside the 0-free segment): the next
     * candidate is 15, [15,19) fits */
    pol_profile_cursor c = pol_profile_cursor_at(&p, 12);
    CU_ASSERT_EQUAL(c.i, 1);
    CU_ASSERT_DOUBLE_EQUAL(pol_profile_earliest_resume(&p, &c, 4, 2, 100), 15, 0);
    /* from 16: [16,20) fits at once */
    c = pol_profile_cursor_at(&p, 16);
    CU_ASSERT_DOUBLE_EQUAL(pol_profile_earliest_resume(&p, &c, 4, 2, 100), 16, 0);
    /* from 17 for 5 s: blocked by [20,30), the next fit is 30 */
    c = pol_profile_cursor_at(&p, 17);
    CU_ASSERT_DOUBLE_EQUAL(pol_profile_earliest_resume(&p, &c, 5, 2, 100), 30, 0);
    /* before the origin reads the origin */
    c = pol_profile_cursor_at(&p, -5);
    CU_ASSERT_EQUAL(c.i, 0);
    CU_ASSERT_DOUBLE_EQUAL(c.start, 0, 0);
    pol_profile_fini(&p);
}

/* pol_profile_cursor_near, pol_profile_free_before_near and
 * pol_profile_free_since_near (the last against pol_profile_free_since):
 * by hand on
 * the steps (breakpoints 0, 10, 15, 20, 30; free 2, 0, 4, 1, 4), from
 * hints below, at and above the answer, past the end, on a breakpoint
 * itself, before the origin and at infinity; then against
 * pol_profile_cursor_at and pol_profile_free_before from every hint on
 * profiles of random reservations, at their breakpoints, between them and
 * outside. */
static void test_cursor_near(void)
{
    pol_profile p;
    make_steps(&p);
    static const struct {
        double start;
        size_t hint, i;
    } hand[] = {{12, 0, 1},   {12, 1, 1},  {12, 4, 1}, {12, 100, 1}, {30, 0, 4},
                {29.9, 4, 3}, {10, 3, 1},  {10, 0, 1}, {15, 4, 2},   {1e9, 2, 4},
                {0, 4, 0},    {9.5, 2, 0}, {20, 2, 3}, {20, 3, 3}};
    for (size_t k = 0; k < sizeof hand / sizeof *hand; k++) {
        pol_profile_cursor c = pol_profile_cursor_near(&p, hand[k].start, hand[k].hint);
        CU_ASSERT_EQUAL(c.i, hand[k].i);
        CU_ASSERT_DOUBLE_EQUAL(c.start, hand[k].start, 0);
    }
    /* free just before 20 is [15,20)'s 4 whatever the hint, before 20.5
     * [20,30)'s 1; the hint becomes the segment holding the time */
    size_t hint = 0;
    CU_ASSERT_EQUAL(pol_profile_free_before_near(&p, 20, &hint), 4);
    CU_ASSERT_EQUAL(hint, 3);
    CU_ASSERT_EQUAL(pol_profile_free_before_near(&p, 20.5, &hint), 1);
    CU_ASSERT_EQUAL(hint, 3);
    hint = 9;
    CU_ASSERT_EQUAL(pol_profile_free_before_near(&p, 0, &hint), 2);
    CU_ASSERT_EQUAL(hint, 0);
    pol_profile_cursor c = pol_profile_cursor_near(&p, -5, 3);
    CU_ASSERT_EQUAL(c.i, 0);
    CU_ASSERT_DOUBLE_EQUAL(c.start, 0, 0);
    c = pol_profile_cursor_near(&p, INFINITY, 1);
    CU_ASSERT_EQUAL(c.i, p.n);
    pol_profile_fini(&p);

    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rng);
    gsl_rng_set(rng, 7);
    for (int round = 0; round < 20; round++) {
        CU_ASSERT_EQUAL_FATAL(pol_profile_init(&p, 64, 0), 0);
        for (int r = 0; r < 5 + 10 * round; r++) { /* an over-booking add is refused */
            double a = (double)gsl_rng_uniform_int(rng, 1000);
            double d = 1 + (double)gsl_rng_uniform_int(rng, 100);
            pol_profile_add(&p, a, a + d, -(1 + (int32_t)gsl_rng_uniform_int(rng, 8)));
        }
        for (size_t k = 0; k < p.n + 2; k++) {
            double xs[] = {k < p.n ? p.t[k] : 2000, k < p.n ? p.t[k] + 0.5 : -1,
                           k < p.n ? p.t[k] - 0.5 : 1e12};
            for (size_t x = 0; x < 3; x++) {
                size_t want = pol_profile_cursor_at(&p, xs[x]).i;
                int32_t before = pol_profile_free_before(&p, xs[x]);
                double since[3];
                for (int32_t u = 0; u < 3; u++)
                    since[u] = pol_profile_free_since(&p, xs[x], 8 * u + 1);
                for (size_t h = 0; h <= p.n + 1; h++) {
                    for (int32_t u = 0; u < 3; u++)
                        CU_ASSERT_DOUBLE_EQUAL(pol_profile_free_since_near(&p, xs[x], 8 * u + 1, h),
                                               since[u], 0);
                    CU_ASSERT_EQUAL(pol_profile_cursor_near(&p, xs[x], h).i, want);
                    size_t hint = h;
                    CU_ASSERT_EQUAL(pol_profile_free_before_near(&p, xs[x], &hint), before);
                    CU_ASSERT_EQUAL(hint, want);
                }
            }
        }
        CU_ASSERT(p.n > (size_t)(round + 2)); /* the adds made steps */
        pol_profile_fini(&p);
    }
    gsl_rng_free(rng);
}

/* Two islands: a (4 units) busy 2 in [10, 20): breakpoints 0, 10, 20;
 * b (2 units) busy 1 in [10, 30): 0, 10, 30. From now = 5: 5, then every
 * later breakpoint of either, sorted, 10 once per island: 5, 10, 10, 20,
 * 30; with until = 25 the 30 is left out. */
static void test_breaks(void)
{
    pol_profile p[2];
    CU_ASSERT_EQUAL_FATAL(pol_profile_init(&p[0], 4, 0), 0);
    CU_ASSERT_EQUAL_FATAL(pol_profile_init(&p[1], 2, 0), 0);
    CU_ASSERT_EQUAL(pol_profile_add(&p[0], 10, 20, -2), 0);
    CU_ASSERT_EQUAL(pol_profile_add(&p[1], 10, 30, -1), 0);
    double *cand = NULL;
    size_t cap = 0, n = 0;
    CU_ASSERT_EQUAL_FATAL(pol_profile_breaks(p, 2, 5, INFINITY, &cand, &cap, &n), 0);
    double all[] = {5, 10, 10, 20, 30};
    CU_ASSERT_EQUAL_FATAL(n, 5);
    for (size_t i = 0; i < n; i++)
        CU_ASSERT_DOUBLE_EQUAL(cand[i], all[i], 0);
    CU_ASSERT_EQUAL_FATAL(pol_profile_breaks(p, 2, 5, 25, &cand, &cap, &n), 0);
    CU_ASSERT_EQUAL_FATAL(n, 4);
    for (size_t i = 0; i < n; i++)
        CU_ASSERT_DOUBLE_EQUAL(cand[i], all[i], 0);
    /* no profile: now alone */
    CU_ASSERT_EQUAL_FATAL(pol_profile_breaks(p, 0, 7, INFINITY, &cand, &cap, &n), 0);
    CU_ASSERT_EQUAL(n, 1);
    CU_ASSERT_DOUBLE_EQUAL(cand[0], 7, 0);
    free(cand);
    pol_profile_fini(&p[0]);
    pol_profile_fini(&p[1]);
}

int bl_suite_pol_profile(void)
{
    CU_pSuite s = CU_add_suite("pol_profile", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "reserve, release, merge, refuse", test_reserve_release_merge);
    CU_add_test(s, "earliest slots", test_earliest);
    CU_add_test(s, "advance forgets the past", test_advance);
    CU_add_test(s, "earliest slots in steps (cursor)", test_earliest_resume);
    CU_add_test(s, "free stretch before a time", test_free_since);
    CU_add_test(s, "runs of free units around a segment", test_run);
    CU_add_test(s, "a reservation moved in one pass", test_move);
    CU_add_test(s, "a move over many breakpoints (the middle copied)", test_move_middle);
    CU_add_test(s, "free just before a time, least and most free over a span",
                test_free_before_max_over);
    CU_add_test(s, "scans from a given time (cursor_at)", test_cursor_at);
    CU_add_test(s, "segments found from a hint (cursor_near, free_before_near, free_since_near)",
                test_cursor_near);
    CU_add_test(s, "candidate starts across islands (breaks)", test_breaks);
    return 0;
}
