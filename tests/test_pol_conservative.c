/* test_pol_conservative.c — conservative backfilling: hand-computed
 * schedules, in-place compression, guarantees. */
#include "bl_scenarios.h"
#include "bl_sched.h"
#include "bl_test.h"
#include "eng_error.h"
#include "eng_policy.h"
#include "pol_registry.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static void run4(const bl_jobspec *jobs, size_t n, const bl_expect *exp, size_t n_exp,
                 const char *what)
{
    bl_sched s;
    bl_core_run("conservative", jobs, n, bl_uniform_platform(4, 1), NULL, &s);
    bl_check(&s, exp, n_exp, what);
    bl_sched_fini(&s);
}

/* S1: J2 reserved at 10 (all hosts), J3 at t=2 fits [2, 10) on the two
 * free hosts: starts at once. */
static void test_backfill_into_hole(void)
{
    static const bl_expect e[] = {{1, 0, 10}, {2, 10, 15}, {3, 2, 10}};
    run4(S1, N_OF(S1), e, N_OF(e), "S1");
}

/* S1b: J3's window [2, 11) collides with J2's [10, 15): reserved at 15. */
static void test_no_room_before_reservation(void)
{
    static const bl_expect e[] = {{1, 0, 10}, {2, 10, 15}, {3, 15, 23}};
    run4(S1b, N_OF(S1b), e, N_OF(e), "S1b");
}

/* S2: J2 reserved [100, 110) on 3 hosts; J3 [2, 202) fits beside it (1 host
 * left); J4 cannot (only one host is free during [100, 110)) and gets
 * [110, 310), starting at 110. */
static void test_reservations_respected(void)
{
    static const bl_expect e[] = {{1, 0, 100}, {2, 100, 110}, {3, 2, 152}, {4, 110, 260}};
    run4(S2, N_OF(S2), e, N_OF(e), "S2");
}

/* S3: J2 and J3 are reserved at 100 (J1's expected end); J1 ends at 10,
 * the tail [10, 100) is released and compression moves both to 10
 * (pitfall 8: without the release nothing would move). */
static void test_early_finish_compresses(void)
{
    static const bl_expect e[] = {{1, 0, 10}, {2, 10, 30}, {3, 10, 30}};
    run4(S3, N_OF(S3), e, N_OF(e), "S3");
}

/* S7. */
static void test_same_instant(void)
{
    static const bl_expect e[] = {{1, 0, 10}, {2, 10, 15}, {3, 15, 20}};
    run4(S7, N_OF(S7), e, N_OF(e), "S7");
}

/* S9: at submission J3 gets [100, 110) and J4 [50, 80). J1 ends at 10:
 * compression in queue order re-places J3 first, with J4 still at
 * [50, 80): its earliest 4-host window is [80, 90) (J2 runs to 50);
 * then J4 moves to [10, 40). Running J2 stays put (pitfall 9). One pass
 * only, as in Mu'alem & Feitelson: J3 keeps 80 although [50, 80) frees up
 * when J4 leaves it. */
static void test_in_place_compression(void)
{
    static const bl_expect e[] = {{1, 0, 10}, {2, 0, 50}, {3, 80, 90}, {4, 10, 40}};
    run4(S9, N_OF(S9), e, N_OF(e), "S9");
}

/* Pitfall 7: re-placing from scratch in queue order would let an earlier
 * job take a hole and push a later one past its guarantee. Here J4's
 * guarantee (10) must hold although J3, re-placed first, could have used
 * [10, 20). The checker holds every job to its first reservation. */
static void test_guarantees_hold(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 5, 100, 4, 0}, /* all hosts, ends early at 5 */
        {2, 1, 10, 10, 2, 0}, /* reserved [100, 110) */
        {3, 2, 10, 10, 4, 0}, /* reserved [110, 120) */
        {4, 3, 10, 10, 2, 0}, /* reserved [100, 110) beside J2 */
    };
    /* At 5: J2 -> 5, J3 -> earliest 4 hosts with J4 still at [100,110):
     * [15, 25)... J3 is re-placed before J4 moves, J4 then -> 5. */
    static const bl_expect e[] = {{1, 0, 5}, {2, 5, 15}, {3, 15, 25}, {4, 5, 15}};
    run4(jobs, N_OF(jobs), e, N_OF(e), "guarantees");
}

/* Walltime kill: a killed job ends at its requested time, which is its
 * expected end: no compression needed, the reservation behind it holds. */
static void test_walltime(void)
{
    static const bl_expect e[] = {{1, 0, 30}, {2, 30, 40}};
    run4(S5, N_OF(S5), e, N_OF(e), "S5");
}

/* A longer queue under the checker, with many early ends. */
static void test_many_early_ends(void)
{
    bl_jobspec jobs[40];
    for (int i = 0; i < 40; i++)
        jobs[i] = (bl_jobspec){i + 1, i, 5 + (i * 7) % 23, 40, 1 + i % 4, 0};
    bl_sched s;
    bl_core_run("conservative", jobs, 40, bl_uniform_platform(4, 1), NULL, &s);
    CU_ASSERT_EQUAL(s.rc, 0);
    for (int i = 0; i < 40; i++)
        CU_ASSERT(bl_end(&s, i + 1) > 0);
    bl_sched_fini(&s);
}

/* The indexed compression (default) and the plain one start every job of
 * jobs at the same time on n_hosts identical hosts. */
static void same_starts_as_plain(const bl_jobspec *jobs, int n, int n_hosts, unsigned seed)
{
    static const pol_kv plain[] = {{"compress", "plain"}};
    bl_sched a, b;
    bl_core_run("conservative", jobs, (size_t)n, bl_uniform_platform(n_hosts, 1), NULL, &a);
    bl_opts o = {.options = plain, .n_options = 1};
    bl_core_run("conservative", jobs, (size_t)n, bl_uniform_platform(n_hosts, 1), &o, &b);
    CU_ASSERT_EQUAL(a.rc, 0);
    CU_ASSERT_EQUAL(b.rc, 0);
    int differ = 0;
    for (int i = 0; i < n; i++)
        differ += bl_start(&a, i + 1) != bl_start(&b, i + 1);
    if (differ)
        printf("\nseed %u: %d of %d starts differ\n", seed, differ, n);
    CU_ASSERT_EQUAL(differ, 0);
    bl_sched_fini(&a);
    bl_sched_fini(&b);
}

/* A random queue of n jobs: requested times from classes, run times up to
 * them (many early ends), one job in wide_one_in of any width up to hosts
 * and the others of 1 to narrow, submitted 0 to max_gap - 1 s apart;
 * xorshift from x. */
typedef struct queue_law {
    const double *classes;
    uint64_t n_classes;
    int hosts;
    uint64_t wide_one_in;
    int narrow;
    uint64_t max_gap;
} queue_law;

static void random_queue(bl_jobspec *jobs, int n, uint64_t x, const queue_law *q)
{
    double submit = 0;
    for (int i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double req = q->classes[x % q->n_classes];
        double run = 1 + (double)((x >> 8) % (uint64_t)req);
        int procs = (x >> 20) % q->wide_one_in == 0 ? 1 + (int)((x >> 24) % (uint64_t)q->hosts)
                                                    : 1 + (int)((x >> 24) % (uint64_t)q->narrow);
        submit += (double)((x >> 32) % q->max_gap);
        jobs[i] = (bl_jobspec){i + 1, submit, run, req, procs, 0};
    }
}

/* The indexed compression (default) against the plain one, which releases,
 * re-places and reserves every waiting job: the same start for every job on
 * random queues with many early ends, few shapes (requested times from four
 * classes) and widths from 1 to all hosts, so that jobs move through both
 * tests (a fit of their shape earlier, or free units just before their
 * reservation) and through scans kept across compressions. */
static void test_indexed_equals_plain(void)
{
    enum { N = 400, HOSTS = 16 };
    static const double classes[] = {60, 300, 900, 3600};
    static const queue_law q = {classes, 4, HOSTS, 3, 3, 40};
    for (unsigned seed = 1; seed <= 6; seed++) {
        bl_jobspec jobs[N];
        random_queue(jobs, N, seed * 0x9E3779B97F4A7C15ull, &q);
        same_starts_as_plain(jobs, N, HOSTS, seed);
    }
}

/* The same with many durations per width (eight requested-time classes,
 * widths 1 and 2 mostly): the scans of a width are kept by duration, and a
 * segment whose run of a width free is too short for one of them passes
 * over the longer ones (rewind_fits), so a wrong order or a pass that
 * runs into the next width moves a job the plain compression does not
 * (or misses one it does). */
static void test_indexed_equals_plain_durations(void)
{
    enum { N = 400, HOSTS = 8 };
    static const double classes[] = {60, 120, 300, 600, 900, 1800, 3600, 7200};
    static const queue_law q = {classes, 8, HOSTS, 5, 2, 60};
    for (unsigned seed = 1; seed <= 4; seed++) {
        bl_jobspec jobs[N];
        random_queue(jobs, N, seed * 0xA24BAED4963EE407ull, &q);
        same_starts_as_plain(jobs, N, HOSTS, seed);
    }
}

/* The home slot of shape (units, dur) in the table of scans: the hash of
 * fit_slot in policies/pol_conservative.c (1 024 slots), mirrored here so
 * that the next test can pick shapes that share one home. */
static size_t scan_home(int32_t units, double dur)
{
    uint64_t bits;
    memcpy(&bits, &dur, sizeof bits);
    uint64_t h = ((uint64_t)units * 0x9E3779B97F4A7C15ull ^ bits) * 0xBF58476D1CE4E5B9ull;
    return (size_t)(h >> 40) % 1024;
}

/* The indexed compression against the plain one when the scans crowd one
 * neighbourhood of their table: twelve shapes with the same home slot, more
 * than the eight probes hold, so looking up a shape keeps evicting
 * another's scan (the evicted shape's jobs must look theirs up anew and
 * start a new scan, with a new stamp). */
static void test_indexed_equals_plain_evicting(void)
{
    enum { N = 300, HOSTS = 8, SHAPES = 12 };
    int32_t units[SHAPES];
    double req[SHAPES];
    size_t n_shapes = 0, home = scan_home(1, 600);
    for (int d = 600; d < 2000000 && n_shapes < SHAPES; d++)
        for (int32_t u = 1; u <= 3 && n_shapes < SHAPES; u++)
            if (scan_home(u, d) == home) {
                units[n_shapes] = u;
                req[n_shapes++] = d;
            }
    CU_ASSERT_EQUAL_FATAL(n_shapes, SHAPES);
    for (unsigned seed = 1; seed <= 3; seed++) {
        bl_jobspec jobs[N];
        uint64_t x = seed * 0xD1B54A32D192ED03ull;
        double submit = 0;
        for (int i = 0; i < N; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            size_t k = x % SHAPES;
            double run = 1 + (double)((x >> 8) % (uint64_t)req[k]);
            submit += (double)((x >> 32) % 200);
            jobs[i] = (bl_jobspec){i + 1, submit, run, req[k], units[k], 0};
        }
        same_starts_as_plain(jobs, N, HOSTS, seed);
    }
}

/* An option value that is neither indexed nor plain is refused. */
static void test_bad_option(void)
{
    static const pol_kv bad[] = {{"compress", "fast"}};
    static const bl_jobspec one[] = {{1, 0, 10, 10, 1, 0}};
    bl_opts o = {.options = bad, .n_options = 1};
    bl_sched s;
    bl_core_run("conservative", one, 1, bl_uniform_platform(4, 1), &o, &s);
    CU_ASSERT_EQUAL(s.rc, ENG_INVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "expected indexed or plain"));
    bl_sched_fini(&s);
}

/* S11 under conservative backfilling with islands (each job reserved at
 * submission in the island where its slot starts earliest; ties: the
 * lowest island):
 *   0  J1 (3 nodes) fits island a only: a at 0.
 *   1  J2 (3 nodes): island a has 1 node free until 10: reserved there at
 *      10 (island b has 2 nodes only).
 *   2  J3 (1 node, 4 s): a and b both at 2; a (a4).
 *   3  J4 and J5 (1 node, 20 s): island a only from 6 (a4 ends then), b at
 *      once: b1 and b2.
 *  10  J2 starts on a1-a3 as reserved.
 * With --islands ignore (one block of 6 nodes) J2 starts at 1 and holds
 * the rest back to 6. */
static void test_islands(void)
{
    bl_sched s;
    bl_core_run("conservative", S11, N_OF(S11), bl_island_platform(S11_ISLANDS, 2, 1), NULL, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect e[] = {{1, 0, 10}, {2, 10, 15}, {3, 2, 6}, {4, 3, 23}, {5, 3, 23}};
    bl_check(&s, e, N_OF(e), "S11 conservative, islands");
    bl_sched_fini(&s);

    bl_opts o = {.ignore_islands = true};
    bl_core_run("conservative", S11, N_OF(S11), bl_island_platform(S11_ISLANDS, 2, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect ei[] = {{1, 0, 10}, {2, 1, 6}, {3, 6, 10}, {4, 6, 26}, {5, 6, 26}};
    bl_check(&s, ei, N_OF(ei), "S11 conservative, islands ignored");
    bl_sched_fini(&s);
}

/* A job larger than every island, and an early end (islands a: 4 nodes,
 * b: 2):
 *   0  K1 (2 nodes, asks 10, runs 5): a1-a2 at 0.
 *      K2 (5 nodes, 10 s): at 0 the islands hold 2 + 2 free nodes all
 *      along; at 10 (K1's expected end) 4 + 2: reserved at 10, 4 nodes
 *      of a and 1 of b.
 *   1  K3 (2 nodes, 5 s): a at 1 (a3-a4; ties go to a).
 *      K4 (1 node, 30 s): a is full from 10 to 20 (K2), b keeps 1 node
 *      free all along: b1 at 1.
 *   5  K1 ends early; K2 is placed again: at 5 island a has 2 free until
 *      K3 ends, b 1; at 6 a has 4 and b 1: K2 moves to 6.
 *   6  K3 ends; K2 starts on a1-a4 and b2 (b1 runs K4). */
static void test_islands_span(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 5, 10, 2, 0}, {2, 0, 10, 10, 5, 0}, {3, 1, 5, 5, 2, 0}, {4, 1, 30, 30, 1, 0}};
    bl_sched s;
    bl_core_run("conservative", jobs, N_OF(jobs), bl_island_platform(S11_ISLANDS, 2, 1), NULL, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect e[] = {{1, 0, 5}, {2, 6, 16}, {3, 1, 6}, {4, 1, 31}};
    bl_check(&s, e, N_OF(e), "conservative, spanning job");
    const eng_job_result *r = eng_core_results(s.core);
    const int32_t *hosts = eng_core_alloc_hosts(s.core);
    /* K2 is the second job: a1-a4 (0-3) and b2 (5) */
    CU_ASSERT_EQUAL_FATAL(r[1].n_hosts, 5);
    static const int32_t want[] = {0, 1, 2, 3, 5};
    for (int k = 0; k < 5; k++)
        CU_ASSERT_EQUAL(hosts[r[1].hosts_off + (size_t)k], want[k]);
    bl_sched_fini(&s);

    /* under core allocation conservative cannot name a reservation's cores */
    bl_opts o = {.alloc = POL_ALLOC_CORE};
    bl_core_run("conservative", jobs, N_OF(jobs), bl_island_platform(S11_ISLANDS, 2, 1), &o, &s);
    CU_ASSERT_EQUAL(s.rc, ENG_USAGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "--islands ignore"));
    bl_sched_fini(&s);
}

/* A maintenance window the head would cross: promised its end, 400, while
 * a short job backfills (bl_check_view_reservation, bl_sched.c). */
static void test_view_reservation(void)
{
    bl_check_view_reservation("conservative");
}

int bl_suite_pol_conservative(void)
{
    CU_pSuite s = CU_add_suite("pol_conservative", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "reservation: the head promised the window's end", test_view_reservation);
    CU_add_test(s, "S1 backfill into a hole", test_backfill_into_hole);
    CU_add_test(s, "S1b no room before a reservation", test_no_room_before_reservation);
    CU_add_test(s, "S2 every reservation respected", test_reservations_respected);
    CU_add_test(s, "S3 early finish releases and compresses", test_early_finish_compresses);
    CU_add_test(s, "S7 same-instant end and start", test_same_instant);
    CU_add_test(s, "S9 in-place compression, running job fixed", test_in_place_compression);
    CU_add_test(s, "guarantees hold through compression", test_guarantees_hold);
    CU_add_test(s, "S5 walltime kill", test_walltime);
    CU_add_test(s, "many early ends under the checker", test_many_early_ends);
    CU_add_test(s, "indexed compression = plain compression", test_indexed_equals_plain);
    CU_add_test(s, "indexed = plain with scans evicted", test_indexed_equals_plain_evicting);
    CU_add_test(s, "indexed = plain, many durations per width",
                test_indexed_equals_plain_durations);
    CU_add_test(s, "compress option checked", test_bad_option);
    CU_add_test(s, "S11 islands: reservations per island", test_islands);
    CU_add_test(s, "islands: a job larger than every island", test_islands_span);
    return 0;
}
