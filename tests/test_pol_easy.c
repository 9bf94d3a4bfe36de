/* test_pol_easy.c — EASY backfilling: hand-computed schedules for the
 * known pitfalls of backfilling (tests/bl_scenarios.h), and the policy
 * alone on hand-made views. */
#include "bl_scenarios.h"
#include "bl_sched.h"
#include "bl_test.h"
#include "pol_registry.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

static void run4(const bl_jobspec *jobs, size_t n, const bl_expect *exp, size_t n_exp,
                 const char *what, eng_walltime wt)
{
    bl_sched s;
    bl_opts o = {.walltime = wt};
    bl_core_run("easy", jobs, n, bl_uniform_platform(4, 1), &o, &s);
    bl_check(&s, exp, n_exp, what);
    bl_sched_fini(&s);
}

/* S1: at t=2, J3 ends at 2+8 = 10 = shadow: backfilled ("<=", pitfall 4). */
static void test_shadow_boundary(void)
{
    static const bl_expect e[] = {{1, 0, 10}, {2, 10, 15}, {3, 2, 10}};
    run4(S1, N_OF(S1), e, N_OF(e), "S1", ENG_WALLTIME_KILL);
}

/* S1b: 2+9 = 11 > 10 and J3's 2 hosts exceed the 0 extra hosts: no
 * backfill; J2 runs 10-15, then J3 15-23. */
static void test_shadow_boundary_exceeded(void)
{
    static const bl_expect e[] = {{1, 0, 10}, {2, 10, 15}, {3, 15, 23}};
    run4(S1b, N_OF(S1b), e, N_OF(e), "S1b", ENG_WALLTIME_KILL);
}

/* S2: at t=2 J3 takes the one extra host (ends 152 > shadow 100), so extra
 * drops to 0 and J4 must wait (pitfall 3). J1 ends 100: J2 (3 hosts)
 * 100-110; J4 110-260; J3 2-152. Had J4 also started at 2, J2 would have
 * waited until 152. */
static void test_extra_hosts_decrement(void)
{
    static const bl_expect e[] = {{1, 0, 100}, {2, 100, 110}, {3, 2, 152}, {4, 110, 260}};
    run4(S2, N_OF(S2), e, N_OF(e), "S2", ENG_WALLTIME_KILL);
}

/* S3: J1 ends at 10 instead of 100; the next pass starts J2 and J3
 * (pitfall 2: ends come from the real run time). */
static void test_early_finish(void)
{
    static const bl_expect e[] = {{1, 0, 10}, {2, 10, 30}, {3, 10, 30}};
    run4(S3, N_OF(S3), e, N_OF(e), "S3", ENG_WALLTIME_KILL);
}

/* S5 kill: J1 is killed at its requested 30 s; J2 30-40. Extend: J1 is
 * planned and run for 50 s; J2 50-60. */
static void test_walltime_kill_and_extend(void)
{
    static const bl_expect kill[] = {{1, 0, 30}, {2, 30, 40}};
    run4(S5, N_OF(S5), kill, N_OF(kill), "S5 kill", ENG_WALLTIME_KILL);
    static const bl_expect ext[] = {{1, 0, 50}, {2, 50, 60}};
    run4(S5, N_OF(S5), ext, N_OF(ext), "S5 extend", ENG_WALLTIME_EXTEND);
    bl_sched s;
    bl_core_run("easy", S5, N_OF(S5), bl_uniform_platform(4, 1), NULL, &s);
    CU_ASSERT_EQUAL(bl_state(&s, 1), ENG_JOB_KILLED);
    CU_ASSERT_EQUAL(bl_state(&s, 2), ENG_JOB_DONE);
    bl_sched_fini(&s);
}

/* S7: all events at 10 are applied before the pass (pitfall 5). */
static void test_same_instant(void)
{
    static const bl_expect e[] = {{1, 0, 10}, {2, 10, 15}, {3, 15, 20}};
    run4(S7, N_OF(S7), e, N_OF(e), "S7", ENG_WALLTIME_KILL);
}

/* S9: t=1 J3 blocked (shadow 100, J1's expected end); t=10 J1 ends: shadow
 * becomes 50 (J2) and J4 (10+30 = 40 <= 50) backfills 10-40; J3 at 50. */
static void test_recomputed_shadow(void)
{
    static const bl_expect e[] = {{1, 0, 10}, {2, 0, 50}, {3, 50, 60}, {4, 10, 40}};
    run4(S9, N_OF(S9), e, N_OF(e), "S9", ENG_WALLTIME_KILL);
}

/* S10: the 5-host job is dropped (too large) and J2 runs at once (pitfall
 * 6). */
static void test_oversized_dropped(void)
{
    static const bl_expect e[] = {{2, 1, 11}};
    bl_sched s;
    bl_core_run("easy", S10, N_OF(S10), bl_uniform_platform(4, 1), NULL, &s);
    bl_check(&s, e, N_OF(e), "S10");
    CU_ASSERT_EQUAL(s.prep.n_dropped[ENG_DROP_TOO_LARGE], 1);
    CU_ASSERT_EQUAL(s.prep.n_jobs, 1);
    bl_sched_fini(&s);
}

/* Planning uses estimates, never run times (pitfall 1): J3 would end by
 * the shadow time if its real 5 s counted, but its estimate is 50 s. */
static void test_plans_with_estimates(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 10, 10, 2, 0},
        {2, 1, 5, 5, 4, 0},
        {3, 2, 5, 50, 2, 0},
    };
    static const bl_expect e[] = {{1, 0, 10}, {2, 10, 15}, {3, 15, 20}};
    run4(jobs, N_OF(jobs), e, N_OF(e), "estimates", ENG_WALLTIME_KILL);
}

/* Ties: equal expected ends and equal submits break on the job order
 * (pitfall 12); the same input gives the same schedule twice. */
static void test_deterministic_ties(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 10, 10, 2, 0}, {2, 0, 10, 10, 2, 0}, {3, 0, 10, 10, 2, 0},
        {4, 0, 10, 10, 2, 0}, {5, 0, 3, 5, 1, 0},
    };
    static const bl_expect e[] = {{1, 0, 10}, {2, 0, 10}, {3, 10, 20}, {4, 10, 20}, {5, 20, 23}};
    run4(jobs, N_OF(jobs), e, N_OF(e), "ties", ENG_WALLTIME_KILL);
}

/* SJF backfill order: two candidates fit, only one host is free; with
 * backfill_order=sjf the shorter one (J4) goes first. */
static void test_sjf_order(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 100, 100, 3, 0},
        {2, 1, 10, 10, 4, 0},
        {3, 2, 50, 50, 1, 0},
        {4, 2, 20, 20, 1, 0},
    };
    /* queue order: J3 backfills at 2 (2+50 <= 100) and takes the last host */
    static const bl_expect fifo[] = {{3, 2, 52}, {4, 52, 72}};
    bl_sched s;
    bl_core_run("easy", jobs, N_OF(jobs), bl_uniform_platform(4, 1), NULL, &s);
    bl_check(&s, fifo, N_OF(fifo), "queue order");
    bl_sched_fini(&s);
    static const pol_kv sjf[] = {{"backfill_order", "sjf"}};
    bl_opts o = {.options = sjf, .n_options = 1};
    static const bl_expect e[] = {{4, 2, 22}, {3, 22, 72}};
    bl_core_run("easy", jobs, N_OF(jobs), bl_uniform_platform(4, 1), &o, &s);
    bl_check(&s, e, N_OF(e), "sjf order");
    bl_sched_fini(&s);
    static const pol_kv bad[] = {{"backfill_order", "longest"}};
    o.options = bad;
    bl_core_run("easy", jobs, N_OF(jobs), bl_uniform_platform(4, 1), &o, &s);
    CU_ASSERT_EQUAL(s.rc, -4);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "expected queue or sjf"));
    bl_sched_fini(&s);
}

/* EASY++ (Tsafrir, Etsion & Feitelson 2007): predictor=user2 with
 * backfill_order=sjf, against each ingredient alone. User 1's J1 and J2
 * (1 host, 10 s, asking 1000 s) end at 10, so user 1's next job is
 * predicted their mean, 10 s. J3 (user 2, 3 hosts, 100 s) runs from 20;
 * J4 (user 2, 4 hosts) is the blocked head from 21, shadow time 120 (user
 * 2 has no history: J3's prediction is its request), no extra host. At 22
 * one host is free and two jobs want it: J5 (user 3, 90 s, asking 90:
 * predicted 90) and J6 (user 1, runs 60 s, asking 1000: predicted 10).
 *  EASY (requests, queue order): J5 ends by 112 <= 120: J5 22-112; J6
 *  (1000 s) cannot, and after J4 (120-170) runs 170-230;
 *  EASY with sjf: by request, J5 (90) before J6 (1000): the same;
 *  EASY with user2 in queue order: J5 (predicted 90) first, the same;
 *  EASY++: by prediction J6 (10) before J5 (90): J6 22-82 (at 32 it
 *  outlives its prediction, predicted 70 more: 92 <= 120); at 82 J5
 *  (82 + 90 > 120) cannot; J4 120-170, J5 170-260. */
static void test_easy_plus_plus(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 10, 1000, 1, 0}, {2, 0, 10, 1000, 1, 0}, {3, 20, 100, 100, 3, 0},
        {4, 21, 50, 50, 4, 0},  {5, 22, 90, 90, 1, 0},  {6, 22, 60, 1000, 1, 0},
    };
    static const int64_t users[] = {1, 1, 2, 2, 3, 1};
    static const bl_expect plain[] = {{4, 120, 170}, {5, 22, 112}, {6, 170, 230}};
    static const bl_expect plus[] = {{4, 120, 170}, {5, 170, 260}, {6, 22, 82}};
    static const struct {
        const char *predictor, *order, *what;
        const bl_expect *e;
    } c[] = {{"requested", "queue", "EASY", plain},
             {"requested", "sjf", "EASY with sjf", plain},
             {"user2", "queue", "EASY with user2", plain},
             {"user2", "sjf", "EASY++", plus}};
    for (size_t k = 0; k < N_OF(c); k++) {
        pol_kv o[] = {{"predictor", c[k].predictor}, {"backfill_order", c[k].order}};
        bl_opts opts = {.options = o, .n_options = N_OF(o), .users = users};
        bl_sched s;
        CU_ASSERT_EQUAL(bl_core_run("easy", jobs, N_OF(jobs), bl_uniform_platform(4, 1), &opts, &s),
                        0);
        bl_check(&s, c[k].e, 3, c[k].what);
        bl_sched_fini(&s);
    }
}

/* The policy alone: a view with one running job and a blocked head. */
static void test_view_decisions(void)
{
    const pol_type *t = pol_find("easy");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    pol_job jobs[4] = {
        {.idx = 0, .id = 1, .estimate_s = 100, .units = 3, .start_s = 0, .expected_end_s = 100},
        {.idx = 1, .id = 2, .estimate_s = 10, .units = 2, .start_s = -1},
        {.idx = 2, .id = 3, .estimate_s = 90, .units = 1, .start_s = -1},
        {.idx = 3, .id = 4, .estimate_s = 500, .units = 1, .start_s = -1},
    };
    const pol_job *running[] = {&jobs[0]};
    const pol_job *queue[] = {&jobs[1], &jobs[2], &jobs[3]};
    pol_view v = {.now_s = 5,
                  .total_units = 4,
                  .free_units = 1,
                  .queue = queue,
                  .n_queue = 3,
                  .running = running,
                  .n_running = 1};
    _Alignas(max_align_t) char state[1024] = {0};
    CU_ASSERT_FATAL(t->state_size <= sizeof state);
    pol_setup setup = {.total_units = 4, .n_jobs = 4, .declared = t->options};
    char err[128];
    CU_ASSERT_EQUAL(t->init(state, &setup, err, sizeof err), 0);
    pol_out out;
    pol_out_init(&out);
    CU_ASSERT_EQUAL(t->schedule(state, &v, &out), 0);
    /* head J2 blocked until 100 (1 + 3 = 4 >= 2, extra 2); J3 ends at 95 <=
     * 100 and takes the free host; J4 would fit the extra but no host is
     * left. */
    CU_ASSERT_EQUAL(out.n_starts, 1);
    CU_ASSERT_EQUAL(out.starts[0].job_idx, 2);
    CU_ASSERT_EQUAL(out.starts[0].n_hosts, 0);
    CU_ASSERT_EQUAL_FATAL(out.n_promises, 1);
    CU_ASSERT_EQUAL(out.promises[0].job_idx, 1);
    CU_ASSERT_DOUBLE_EQUAL(out.promises[0].start_by_s, 100, 0);
    pol_out_fini(&out);
    t->fini(state);
}

/* A maintenance window the head would cross: promised its end, 400, while
 * a short job backfills (bl_check_view_reservation, bl_sched.c). */
static void test_view_reservation(void)
{
    bl_check_view_reservation("easy");
}

/* S11 under EASY with islands:
 *   0  J1 on a1-a3 (island a: the only one with 3 nodes).
 *   1  J2 blocked: no island has 3 free; shadow 10 (J1's end), extra 1.
 *   2  J3 (1 node, ends 6 <= 10) backfills on a4 (a: 1 free, the best fit).
 *   3  J4 (ends 23, past the shadow) uses the extra node: on b1 (a has
 *      none free). J5 does not: no extra left.
 *   6  J3 ends: island a has 1 free, b 1; J2's shadow is still 10 with one
 *      extra node in a; J5 takes it (a and b tie: the lowest, a4).
 *  10  J1 ends: a1-a3 are free, J2 starts there as promised.
 * With --islands ignore J2 starts at 1 on a4, b1, b2 and the rest at 6. */
static void test_islands(void)
{
    bl_sched s;
    bl_core_run("easy", S11, N_OF(S11), bl_island_platform(S11_ISLANDS, 2, 1), NULL, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect e[] = {{1, 0, 10}, {2, 10, 15}, {3, 2, 6}, {4, 3, 23}, {5, 6, 26}};
    bl_check(&s, e, N_OF(e), "S11 easy, islands");
    bl_sched_fini(&s);

    bl_opts o = {.ignore_islands = true};
    bl_core_run("easy", S11, N_OF(S11), bl_island_platform(S11_ISLANDS, 2, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect ei[] = {{1, 0, 10}, {2, 1, 6}, {3, 6, 10}, {4, 6, 26}, {5, 6, 26}};
    bl_check(&s, ei, N_OF(ei), "S11 easy, islands ignored");
    bl_sched_fini(&s);
}

int bl_suite_pol_easy(void)
{
    CU_pSuite s = CU_add_suite("pol_easy", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "reservation: the head promised the window's end", test_view_reservation);
    CU_add_test(s, "S1 shadow boundary is <=", test_shadow_boundary);
    CU_add_test(s, "S1b one second past the shadow", test_shadow_boundary_exceeded);
    CU_add_test(s, "S2 extra hosts are used up", test_extra_hosts_decrement);
    CU_add_test(s, "S3 early finish", test_early_finish);
    CU_add_test(s, "S5 walltime kill and extend", test_walltime_kill_and_extend);
    CU_add_test(s, "S7 same-instant end and start", test_same_instant);
    CU_add_test(s, "S9 shadow recomputed after an early end", test_recomputed_shadow);
    CU_add_test(s, "S10 oversized job dropped", test_oversized_dropped);
    CU_add_test(s, "plans with estimates only", test_plans_with_estimates);
    CU_add_test(s, "deterministic ties", test_deterministic_ties);
    CU_add_test(s, "backfill_order=sjf", test_sjf_order);
    CU_add_test(s, "EASY++: user2 predictions in sjf order", test_easy_plus_plus);
    CU_add_test(s, "decisions on a hand-made view", test_view_decisions);
    CU_add_test(s, "S11 islands: a blocked head, backfilling", test_islands);
    return 0;
}
