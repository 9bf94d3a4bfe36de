/* test_pol_fcfs.c — FCFS: hand-computed schedules; no job ever overtakes
 * an earlier one. */
#include "bl_scenarios.h"
#include "bl_test.h"
#include "pol_registry.h"

static void run4(const bl_jobspec *jobs, size_t n, const bl_expect *exp, size_t n_exp,
                 const char *what)
{
    bl_sched s;
    bl_core_run("fcfs", jobs, n, bl_uniform_platform(4, 1), NULL, &s);
    bl_check(&s, exp, n_exp, what);
    bl_sched_fini(&s);
}

/* S1: J3 could fit at t=2 but must wait behind J2 (10-15): 15-23. */
static void test_no_backfill(void)
{
    static const bl_expect e[] = {{1, 0, 10}, {2, 10, 15}, {3, 15, 23}};
    run4(S1, N_OF(S1), e, N_OF(e), "S1");
}

/* S2: at 100 J1 ends: J2 (3 hosts) and J3 (the last host) start in queue
 * order; J4 waits for J2: 110-260. */
static void test_order_kept(void)
{
    static const bl_expect e[] = {{1, 0, 100}, {2, 100, 110}, {3, 100, 250}, {4, 110, 260}};
    run4(S2, N_OF(S2), e, N_OF(e), "S2");
}

/* S3: the early end at 10 starts J2 and J3. */
static void test_early_finish(void)
{
    static const bl_expect e[] = {{1, 0, 10}, {2, 10, 30}, {3, 10, 30}};
    run4(S3, N_OF(S3), e, N_OF(e), "S3");
}

/* S7: same instant. */
static void test_same_instant(void)
{
    static const bl_expect e[] = {{1, 0, 10}, {2, 10, 15}, {3, 15, 20}};
    run4(S7, N_OF(S7), e, N_OF(e), "S7");
}

/* S9: J3 waits for J2 (50-60), J4 behind it 60-90. */
static void test_head_blocks(void)
{
    static const bl_expect e[] = {{1, 0, 10}, {2, 0, 50}, {3, 50, 60}, {4, 60, 90}};
    run4(S9, N_OF(S9), e, N_OF(e), "S9");
}

/* The policy alone: starts the fitting prefix, promises the head its
 * shadow time counting the jobs it just started. */
static void test_view_decisions(void)
{
    const pol_type *t = pol_find("fcfs");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    pol_job jobs[3] = {
        {.idx = 0, .id = 1, .estimate_s = 30, .units = 2, .start_s = -1},
        {.idx = 1, .id = 2, .estimate_s = 10, .units = 4, .start_s = -1},
        {.idx = 2, .id = 3, .estimate_s = 1, .units = 1, .start_s = -1},
    };
    const pol_job *queue[] = {&jobs[0], &jobs[1], &jobs[2]};
    pol_view v = {.now_s = 7, .total_units = 4, .free_units = 4, .queue = queue, .n_queue = 3};
    char state[256] = {0};
    pol_out out;
    pol_out_init(&out);
    CU_ASSERT_EQUAL(t->schedule(state, &v, &out), 0);
    CU_ASSERT_EQUAL_FATAL(out.n_starts, 1); /* J3 fits too, but is behind J2 */
    CU_ASSERT_EQUAL(out.starts[0].job_idx, 0);
    CU_ASSERT_EQUAL_FATAL(out.n_promises, 1);
    CU_ASSERT_EQUAL(out.promises[0].job_idx, 1);
    /* J1 starts now and holds 2 of the 4 units until 7 + 30 = 37; then all
     * 4 are free, so the head is promised 37. */
    CU_ASSERT_DOUBLE_EQUAL(out.promises[0].start_by_s, 37, 0);
    pol_out_fini(&out);
    if (t->fini)
        t->fini(state);
}

/* S11 under FCFS with islands: J2 waits for an island with 3 free nodes
 * (a, at J1's end at 10), and everyone waits behind it; at 10 J3 best fits
 * a4 (a: 1 free), J4 and J5 take b1 and b2. With --islands ignore J2
 * starts at 1 on a4, b1, b2. */
static void test_islands(void)
{
    bl_sched s;
    bl_core_run("fcfs", S11, N_OF(S11), bl_island_platform(S11_ISLANDS, 2, 1), NULL, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect e[] = {{1, 0, 10}, {2, 10, 15}, {3, 10, 14}, {4, 10, 30}, {5, 10, 30}};
    bl_check(&s, e, N_OF(e), "S11 fcfs, islands");
    bl_sched_fini(&s);

    bl_opts o = {.ignore_islands = true};
    bl_core_run("fcfs", S11, N_OF(S11), bl_island_platform(S11_ISLANDS, 2, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect ei[] = {{1, 0, 10}, {2, 1, 6}, {3, 6, 10}, {4, 6, 26}, {5, 6, 26}};
    bl_check(&s, ei, N_OF(ei), "S11 fcfs, islands ignored");
    bl_sched_fini(&s);
}

int bl_suite_pol_fcfs(void)
{
    CU_pSuite s = CU_add_suite("pol_fcfs", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "S1 no backfilling", test_no_backfill);
    CU_add_test(s, "S2 queue order kept", test_order_kept);
    CU_add_test(s, "S3 early finish", test_early_finish);
    CU_add_test(s, "S7 same-instant end and start", test_same_instant);
    CU_add_test(s, "S9 a blocked head blocks everyone", test_head_blocks);
    CU_add_test(s, "decisions on a hand-made view", test_view_decisions);
    CU_add_test(s, "S11 islands: a blocked head", test_islands);
    return 0;
}
