/* test_eng_check.c — the checks (engine/eng_check.c): deliberately wrong
 * policies caught (a job started twice, units not free, a broken promise,
 * the HEAD_GREEDY and ORDERED flags), a start no island can host, a job
 * started across islands, which broken promises an overrun excuses
 * under --init-planned no, and a host holding more job memory than it has. */
#include "bl_scenarios.h"
#include "bl_test.h"
#include "eng_core.h"
#include "eng_policy.h"
#include "pol_registry.h"

#include <stdlib.h>
#include <string.h>

/* ---- deliberately wrong policies: the checker must catch each ---------- */

static int twice_schedule(void *st, const pol_view *v, pol_out *out)
{
    (void)st;
    if (v->n_queue) {
        pol_out_start(out, v->queue[0]);
        pol_out_start(out, v->queue[0]);
    }
    return 0;
}

static int greedy_all_schedule(void *st, const pol_view *v, pol_out *out)
{
    (void)st;
    for (size_t i = 0; i < v->n_queue; i++)
        pol_out_start(out, v->queue[i]);
    return 0;
}

static int liar_schedule(void *st, const pol_view *v, pol_out *out)
{
    (void)st;
    /* promises everyone "now" but starts only what fits, in order */
    int32_t free_units = v->free_units;
    for (size_t i = 0; i < v->n_queue; i++) {
        pol_out_promise(out, v->queue[i], v->now_s);
        if (v->queue[i]->units <= free_units) {
            pol_out_start(out, v->queue[i]);
            free_units -= v->queue[i]->units;
        }
    }
    return 0;
}

static int lazy_schedule(void *st, const pol_view *v, pol_out *out)
{
    (void)st;
    (void)v;
    (void)out;
    return 0; /* never starts anything: breaks HEAD_GREEDY */
}

static int jumper_schedule(void *st, const pol_view *v, pol_out *out)
{
    (void)st;
    if (v->n_queue >= 2 && v->queue[1]->units <= v->free_units)
        pol_out_start(out, v->queue[1]); /* skips the head: breaks ORDERED */
    else if (v->n_queue && v->queue[0]->units <= v->free_units)
        pol_out_start(out, v->queue[0]);
    return 0;
}

static void expect_failure(const pol_type *t, int code, const char *fragment)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 10, 10, 3, 0}, {2, 0, 10, 10, 2, 0}, {3, 1, 10, 10, 1, 0}};
    eng_platform *p = bl_uniform_platform(4, 1);
    eng_workload *w = bl_make_workload(jobs, 3);
    eng_prepared prep;
    eng_diag d;
    eng_diag_clear(&d);
    eng_prep_opts po = {0};
    CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &po, &prep, &d), 0);
    eng_core_opts co = {.policy = t, .check = true};
    eng_core *c = NULL;
    CU_ASSERT_EQUAL_FATAL(eng_core_create(p, &prep, &co, &c, &d), 0);
    int rc = eng_core_run(c, &d);
    CU_ASSERT_EQUAL(rc, code);
    if (!strstr(d.msg, fragment))
        printf("\n  %s: message '%s' lacks '%s'", t->name, d.msg, fragment);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, fragment));
    eng_core_destroy(c);
    eng_prepared_fini(&prep);
    eng_workload_destroy(w);
    eng_platform_destroy(p);
}

static void test_checker_catches_bad_policies(void)
{
    const pol_type twice = {.name = "twice", .schedule = twice_schedule};
    const pol_type greedy = {.name = "greedy", .schedule = greedy_all_schedule};
    const pol_type liar = {.name = "liar", .schedule = liar_schedule};
    const pol_type lazy = {
        .name = "lazy", .flags = POL_FLAG_HEAD_GREEDY, .schedule = lazy_schedule};
    const pol_type jumper = {
        .name = "jumper", .flags = POL_FLAG_ORDERED, .schedule = jumper_schedule};
    expect_failure(&twice, ENG_POLICY, "not waiting");
    expect_failure(&greedy, ENG_POLICY, "units with only");
    expect_failure(&liar, ENG_INVARIANT, "later than it promised");
    expect_failure(&lazy, ENG_INVARIANT, "left job 1 waiting at the head");
    expect_failure(&jumper, ENG_INVARIANT, "ahead of earlier waiting jobs");
}

/* ---- islands ---------------------------------------------------------- */

/* Islands a (a1..a4, hosts 0-3) and b (b1, b2, hosts 4-5), whole nodes. */
static const int ISL_A4_B2[] = {4, 2};

/* The engine never starts a job no island can host: J1 takes a1-a3, and J2
 * (3 nodes) finds 3 free (a4, b1, b2) but no island with 3. Before islands
 * a start beyond the free units was refused the same way ("units with
 * only"). */
static void test_island_blocked_start(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 10, 10, 3, 0}, {2, 0, 10, 10, 3, 0}};
    const pol_type counting = {
        .name = "counting", .flags = POL_FLAG_ISLANDS, .schedule = bl_counting_schedule};
    bl_sched s;
    bl_opts o = {.policy_type = &counting};
    bl_core_run("counting", jobs, N_OF(jobs), bl_island_platform(ISL_A4_B2, 2, 1), &o, &s);
    CU_ASSERT_EQUAL(s.rc, ENG_POLICY);
    CU_ASSERT_STRING_EQUAL(s.diag.msg, "t=0: policy counting started job 2 needing 3 units, "
                                       "which no island can host now (most free: 2 of island "
                                       "b's 2)");
    bl_sched_fini(&s);
}

/* A policy that starts each waiting job, when the pool is idle, as a
 * packet of its own on the hosts at positions *state (a1 and then a2 or
 * b1 of islands a1-a4, b1-b2): packets name their hosts, which the start
 * checks leave to the checker's audit. */
static int straddle_schedule(void *st, const pol_view *v, pol_out *out)
{
    const int32_t *hosts = st;
    if (v->n_queue > 0 && v->n_running == 0)
        pol_out_start_packet(out, v->queue[0], v->queue[0]->idx, hosts, 2);
    return 0;
}

static int straddle_init(void *st, const pol_setup *setup, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    int32_t *hosts = st;
    hosts[0] = 0;
    hosts[1] = (int32_t)pol_opt_int(setup, "second");
    return 0;
}

/* The checker audits where each started job runs: a job of 2 nodes (fits
 * in either island) started across islands, on a1 and b1, is a violation;
 * on a1 and a2 it runs clean (0-10, then 10-20). */
static void test_island_audit(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 10, 10, 2, 0}, {2, 0, 10, 10, 2, 0}};
    static const pol_option opts[] = {{.key = "second",
                                       .type = POL_OPT_INT,
                                       .min = 0,
                                       .max = 5,
                                       .def_int = 1,
                                       .help = "position of the second host"},
                                      {0}};
    const pol_type straddle = {.name = "straddle",
                               .flags = POL_FLAG_ISLANDS,
                               .state_size = 2 * sizeof(int32_t),
                               .options = opts,
                               .init = straddle_init,
                               .schedule = straddle_schedule};
    static const pol_kv across[] = {{"second", "4"}}, within[] = {{"second", "1"}};
    bl_sched s;
    bl_opts o = {.policy_type = &straddle, .options = across, .n_options = 1};
    bl_core_run("straddle", jobs, N_OF(jobs), bl_island_platform(ISL_A4_B2, 2, 1), &o, &s);
    CU_ASSERT_EQUAL(s.rc, ENG_INVARIANT);
    CU_ASSERT_STRING_EQUAL(s.diag.msg, "t=0: policy straddle started job 1, whose 2 units fit in "
                                       "one island, across islands: on hosts a1 (island a) and "
                                       "b1 (island b)");
    bl_sched_fini(&s);
    o.options = within;
    bl_core_run("straddle", jobs, N_OF(jobs), bl_island_platform(ISL_A4_B2, 2, 1), &o, &s);
    CU_ASSERT_EQUAL(s.rc, 0);
    static const bl_expect e[] = {{1, 0, 10}, {2, 10, 20}};
    bl_check(&s, e, N_OF(e), "within island a");
    bl_sched_fini(&s);
}

/* ---- --init-planned no: promises excused by overruns ----------------- */

/* A policy that starts jobs in queue order while they fit and promises the
 * blocked head the first running job's shown end minus promiser_lie_s. */
static double promiser_lie_s;

static int promiser_schedule(void *st, const pol_view *v, pol_out *out)
{
    (void)st;
    int32_t free_units = v->free_units;
    for (size_t i = 0; i < v->n_queue; i++) {
        if (v->queue[i]->units > free_units) {
            if (v->n_running)
                pol_out_promise(out, v->queue[i], v->running[0]->expected_end_s - promiser_lie_s);
            break;
        }
        pol_out_start(out, v->queue[i]);
        free_units -= v->queue[i]->units;
    }
    return 0;
}

/* Runs jobs on n hosts under the promiser with the checker on. */
static int promiser_run(const bl_jobspec *jobs, size_t n, int hosts, double lie, bool unplanned,
                        double *j2_start)
{
    static const eng_init_time init[] = {{.type = 1, .seconds = 20}, {.any = true, .seconds = 0}};
    const pol_type t = {
        .name = "promiser", .flags = POL_FLAG_REPLANS, .schedule = promiser_schedule};
    bl_opts o = {
        .init_times = init, .n_init_times = 2, .init_unplanned = unplanned, .policy_type = &t};
    promiser_lie_s = lie;
    bl_sched s;
    bl_core_run("promiser", jobs, n, bl_uniform_platform(hosts, 1), &o, &s);
    int rc = s.rc;
    if (rc == ENG_INVARIANT)
        CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "later than it promised"));
    if (j2_start)
        *j2_start = rc ? -1 : bl_start(&s, 2);
    bl_sched_fini(&s);
    return rc;
}

/* The checker under --init-planned no (eng_policy.h, pol_promise): a broken
 * promise is excused only by a job that ran past its planned end at some
 * time between the promise and its date. One host unless said; J1 has 20 s
 * of initialization (type 1): planned [0, 100], runs [0, 120].
 *   a) J2 (t = 1) is promised 100 and starts at 120: excused (J1 overran
 *      from 100 to 120, after the promise). Planned, it is promised 120:
 *      kept.
 *   b) promised 95 (5 s less): J1's overrun began after 95, so it excuses
 *      nothing: caught, in both modes.
 *   c) J2 (t = 200) runs [200, 210]; J3 (t = 201) is promised 205: J1's
 *      overrun ended before the promise: caught.
 *   d) 2 hosts, J1 and J2 (type 0, 110 s, no initialization) at 0, J3 at
 *      1 promised 100 (J1's planned end, the first shown) starts at 110
 *      when J2 ends, while J1 still runs past its plan: excused. Planned,
 *      J3 is promised 110 (J2's end, now the first): kept. */
static void test_init_unplanned_promises(void)
{
    static const bl_jobspec a[] = {{1, 0, 100, 100, 1, 1}, {2, 1, 10, 10, 1, 0}};
    double start = 0;
    CU_ASSERT_EQUAL(promiser_run(a, 2, 1, 0, true, &start), 0);
    CU_ASSERT_DOUBLE_EQUAL(start, 120, 0);
    CU_ASSERT_EQUAL(promiser_run(a, 2, 1, 0, false, &start), 0);
    CU_ASSERT_DOUBLE_EQUAL(start, 120, 0);
    CU_ASSERT_EQUAL(promiser_run(a, 2, 1, 5, true, NULL), ENG_INVARIANT);
    CU_ASSERT_EQUAL(promiser_run(a, 2, 1, 5, false, NULL), ENG_INVARIANT);
    static const bl_jobspec c[] = {
        {1, 0, 100, 100, 1, 1}, {2, 200, 10, 10, 1, 0}, {3, 201, 10, 10, 1, 0}};
    CU_ASSERT_EQUAL(promiser_run(c, 3, 1, 0, true, NULL), 0);
    CU_ASSERT_EQUAL(promiser_run(c, 3, 1, 5, true, NULL), ENG_INVARIANT);
    static const bl_jobspec dd[] = {
        {1, 0, 100, 100, 1, 1}, {2, 0, 110, 110, 1, 0}, {3, 1, 10, 10, 1, 0}};
    CU_ASSERT_EQUAL(promiser_run(dd, 3, 2, 0, true, NULL), 0);
    CU_ASSERT_EQUAL(promiser_run(dd, 3, 2, 0, false, NULL), 0);
}

/* The memory audit: on one host of 4 cores and 8 GiB, two jobs of 2
 * processors x 3 GiB need 3 cores each (eng_prep); given 2 units each, as
 * a wrong prep would, both start at 0 and the host holds 12 GiB: the
 * checker stops the run at 0. */
static void test_memory_audit(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 10, 10, 2, 0}, {2, 0, 10, 10, 2, 0}};
    eng_host_desc hd = {.name = "h1", .speed_flops = 1e9, .sg_cores = 4, .memory = "8GiB"};
    eng_platform *p;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_platform_build("mem.xml", &hd, 1, NULL, &p, &d), 0);
    eng_workload *w = bl_make_workload(jobs, 2);
    for (size_t i = 0; i < 2; i++)
        w->jobs[i].mem_req_kb = 3.0 * 1024 * 1024;
    eng_prepared prep;
    eng_prep_opts po = {.alloc = POL_ALLOC_CORE};
    CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &po, &prep, &d), 0);
    CU_ASSERT_EQUAL_FATAL(prep.jobs[0].units, 3);
    prep.jobs[0].units = prep.jobs[1].units = 2;
    eng_core_opts co = {.policy = pol_find("fcfs"), .check = true};
    eng_core *c = NULL;
    CU_ASSERT_EQUAL_FATAL(eng_core_create(p, &prep, &co, &c, &d), 0);
    CU_ASSERT_EQUAL(eng_core_run(c, &d), ENG_INVARIANT);
    CU_ASSERT_STRING_EQUAL(d.msg, "t=0: host h1 holds 12884901888 bytes of its jobs' memory, more "
                                  "than its 8589934592");
    eng_core_destroy(c);
    eng_prepared_fini(&prep);
    eng_workload_destroy(w);
    eng_platform_destroy(p);
}

int bl_suite_eng_check(void)
{
    CU_pSuite s = CU_add_suite("eng_check", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "checker catches bad policies", test_checker_catches_bad_policies);
    CU_add_test(s, "checker: a host holding more job memory than it has", test_memory_audit);
    CU_add_test(s, "islands: a start no island can host", test_island_blocked_start);
    CU_add_test(s, "checker: a job that fits in one island started across islands",
                test_island_audit);
    CU_add_test(s, "init not planned: which broken promises are excused",
                test_init_unplanned_promises);
    return 0;
}
