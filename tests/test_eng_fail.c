/* test_eng_fail.c — host failures (engine/eng_fail.c): a failure kills
 * or requeues the jobs on its host, the requeue limit, outages at the
 * start and at a job's end and merged, trace errors, drawn failures
 * (epochs, seeds), and a failure through SimGrid. */
#include "bl_sched.h"
#include "bl_test.h"
#include "eng_core.h"

#include <math.h>
#include <string.h>

/* Four 1-core hosts h1..h4; h1 is down from 50 to 80 (a trace). J1 (2
 * nodes) and J2 (2 nodes) start at 0 on h1+h2 and h3+h4; J3 (4 nodes)
 * arrives at 60. Killed: J1 ends at 50 (FAILED), J2 at 100, and J3 starts
 * when h1 is up and J2 has ended: 100..110. Requeued: J1 is back in the
 * queue at 50, ahead of J3; h2 alone is free until h1 comes up at 80, so
 * J1 runs 80..180 and J3 180..190. Either way 2 nodes x 50 s are wasted. */
static const bl_jobspec FAIL_JOBS[] = {
    {1, 0, 100, 200, 2, 0}, {2, 0, 100, 200, 2, 0}, {3, 60, 10, 20, 4, 0}};
static const eng_fail_span H1_50_80[] = {{.host = "h1", .start_s = 50, .end_s = 80, .line = 1}};

static void test_failure_kills(void)
{
    bl_opts o = {
        .failures = {.enabled = true, .trace = H1_50_80, .n_trace = 1, .trace_path = "t.txt"}};
    bl_sched s;
    bl_core_run("fcfs", FAIL_JOBS, 3, bl_uniform_platform(4, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect e[] = {{1, 0, 50}, {2, 0, 100}, {3, 100, 110}};
    bl_check(&s, e, 3, "failure kills");
    CU_ASSERT_EQUAL(bl_state(&s, 1), ENG_JOB_FAILED);
    CU_ASSERT_EQUAL(bl_state(&s, 2), ENG_JOB_DONE);
    CU_ASSERT_EQUAL(bl_state(&s, 3), ENG_JOB_DONE);
    CU_ASSERT_DOUBLE_EQUAL(eng_core_wasted_node_s(s.core), 100, 1e-9);
    CU_ASSERT_EQUAL(eng_core_results(s.core)[0].requeues, 0);
    /* the time series counts h1 down from 50 to 80: 0 before 50, 1 at 50
     * and 60, 0 again from 80 */
    size_t n_ts;
    const eng_ts_row *ts = eng_core_timeseries(s.core, &n_ts);
    int checked = 0;
    for (size_t k = 0; k < n_ts; k++) {
        int32_t want = ts[k].t_s >= 50 && ts[k].t_s < 80 ? 1 : 0;
        if (ts[k].down_hosts != want)
            printf("\n  t=%g: %d hosts down, expected %d\n", ts[k].t_s, ts[k].down_hosts, want);
        CU_ASSERT_EQUAL(ts[k].down_hosts, want);
        checked += ts[k].t_s == 50 || ts[k].t_s == 80;
    }
    CU_ASSERT_EQUAL(checked, 2); /* samples at the outage's start and end */
    bl_sched_fini(&s);
}

static void test_failure_requeues(void)
{
    bl_opts o = {.failures = {.enabled = true,
                              .requeue = true,
                              .max_requeues = 5,
                              .trace = H1_50_80,
                              .n_trace = 1,
                              .trace_path = "t.txt"}};
    bl_sched s;
    bl_core_run("fcfs", FAIL_JOBS, 3, bl_uniform_platform(4, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect e[] = {{1, 80, 180}, {2, 0, 100}, {3, 180, 190}};
    bl_check(&s, e, 3, "failure requeues");
    CU_ASSERT_EQUAL(bl_state(&s, 1), ENG_JOB_DONE);
    CU_ASSERT_EQUAL(eng_core_results(s.core)[0].requeues, 1);
    CU_ASSERT_EQUAL(eng_core_results(s.core)[1].requeues, 0);
    CU_ASSERT_DOUBLE_EQUAL(eng_core_wasted_node_s(s.core), 100, 1e-9);
    bl_sched_fini(&s);
}

/* The requeue limit: h1 fails again over [100, 120). J1, requeued at 50,
 * runs from 80 on h1+h2 and fails at 100. Limit 1: it is killed there
 * (FAILED, 1 requeue) and J3 runs when h1 is up, 120..130. Limit 2: it is
 * queued again at 100 in its place by submit order, ahead of J3, and runs
 * at once on h2+h3 (h1 is down): 100..200; J3 follows, 200..210. Limit 0
 * is the kill rule. */
static void test_failure_requeue_limit(void)
{
    static const eng_fail_span tr[] = {{"h1", 50, 80, 1}, {"h1", 100, 120, 2}};
    bl_opts o = {.failures = {.enabled = true,
                              .requeue = true,
                              .max_requeues = 1,
                              .trace = tr,
                              .n_trace = 2,
                              .trace_path = "t"}};
    bl_sched s;
    bl_core_run("fcfs", FAIL_JOBS, 3, bl_uniform_platform(4, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect e1[] = {{1, 80, 100}, {2, 0, 100}, {3, 120, 130}};
    bl_check(&s, e1, 3, "requeue limit 1");
    CU_ASSERT_EQUAL(bl_state(&s, 1), ENG_JOB_FAILED);
    CU_ASSERT_EQUAL(eng_core_results(s.core)[0].requeues, 1);
    CU_ASSERT_DOUBLE_EQUAL(eng_core_wasted_node_s(s.core), 2 * 50 + 2 * 20, 1e-9);
    bl_sched_fini(&s);

    o.failures.max_requeues = 2;
    bl_core_run("fcfs", FAIL_JOBS, 3, bl_uniform_platform(4, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect e2[] = {{1, 100, 200}, {2, 0, 100}, {3, 200, 210}};
    bl_check(&s, e2, 3, "requeue limit 2");
    CU_ASSERT_EQUAL(bl_state(&s, 1), ENG_JOB_DONE);
    CU_ASSERT_EQUAL(eng_core_results(s.core)[0].requeues, 2);
    bl_sched_fini(&s);

    o.failures.max_requeues = 0;
    bl_core_run("fcfs", FAIL_JOBS, 3, bl_uniform_platform(4, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect e0[] = {{1, 0, 50}, {2, 0, 100}, {3, 120, 130}};
    bl_check(&s, e0, 3, "requeue limit 0");
    CU_ASSERT_EQUAL(bl_state(&s, 1), ENG_JOB_FAILED);
    bl_sched_fini(&s);
}

/* Edges: h3 is down over [0, 1000), and h4 over [100, 150) and, in a
 * second overlapping line, [120, 160). J1 (4 nodes) cannot start before h3
 * is up at 1000; EASY backfills J2, J3, J4 (1 node, 100 s) at 0 on h1, h2,
 * h4. J4 ends at 100 exactly when h4 goes down: a failure at a job's end
 * does not cut it. J5 (1 node, 10 s, submitted at 110) finds h1 free:
 * 110..120, well before J1's reservation. */
static void test_failure_edges(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 10, 20, 4, 0},
                                      {2, 0, 100, 200, 1, 0},
                                      {3, 0, 100, 200, 1, 0},
                                      {4, 0, 100, 200, 1, 0},
                                      {5, 110, 10, 20, 1, 0}};
    static const eng_fail_span tr[] = {
        {"h4", 120, 160, 3}, {"h3", 0, 1000, 1}, {"h4", 100, 150, 2}};
    bl_opts o = {.failures = {.enabled = true, .trace = tr, .n_trace = 3, .trace_path = "t"}};
    bl_sched s;
    bl_core_run("easy", jobs, 5, bl_uniform_platform(4, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect e[] = {
        {1, 1000, 1010}, {2, 0, 100}, {3, 0, 100}, {4, 0, 100}, {5, 110, 120}};
    bl_check(&s, e, 5, "failure edges");
    for (int64_t id = 1; id <= 5; id++)
        CU_ASSERT_EQUAL(bl_state(&s, id), ENG_JOB_DONE);
    CU_ASSERT_DOUBLE_EQUAL(eng_core_wasted_node_s(s.core), 0, 1e-9);
    bl_sched_fini(&s);
}

static void test_failure_trace_errors(void)
{
    static const eng_fail_span bad_host[] = {{"h9", 0, 10, 7}};
    static const eng_fail_span bad_span[] = {{"h1", 20, 10, 3}};
    bl_opts o = {
        .failures = {.enabled = true, .trace = bad_host, .n_trace = 1, .trace_path = "down.txt"}};
    bl_sched s;
    bl_core_run("fcfs", FAIL_JOBS, 3, bl_uniform_platform(4, 1), &o, &s);
    CU_ASSERT_EQUAL(s.rc, ENG_INVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "down.txt:7: host 'h9' is not in platform"));
    bl_sched_fini(&s);
    o.failures.trace = bad_span;
    bl_core_run("fcfs", FAIL_JOBS, 3, bl_uniform_platform(4, 1), &o, &s);
    CU_ASSERT_EQUAL(s.rc, ENG_INVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "down.txt:3: outage 20 to 10 s"));
    bl_sched_fini(&s);
}

/* Drawn failures: 8 hosts down each epoch (100 s) with probability 0.1.
 * Failed jobs end on epoch boundaries; with requeue every job completes;
 * the same seed gives the same schedule and another seed another one. */
static eng_platform *failing_platform(void)
{
    eng_platform *p = bl_uniform_platform(8, 1);
    for (size_t h = 0; h < p->n_hosts; h++)
        p->hosts[h].occupation_prob = 0.1;
    return p;
}

static void run_drawn(bool requeue, uint64_t seed, bl_sched *s)
{
    static bl_jobspec jobs[60];
    for (int i = 0; i < 60; i++)
        jobs[i] = (bl_jobspec){i + 1, 37.0 * i, 50 + (i * 53) % 400, 500, 1 + (i * 7) % 5, 0};
    bl_opts o = {.failures = {.enabled = true,
                              .epoch_s = 100,
                              .seed = seed,
                              .requeue = requeue,
                              .max_requeues = 1000}};
    bl_core_run("easy", jobs, 60, failing_platform(), &o, s);
}

static void test_failures_drawn(void)
{
    bl_sched a, b, c;
    run_drawn(false, 1, &a);
    CU_ASSERT_EQUAL_FATAL(a.rc, 0);
    const eng_job_result *r = eng_core_results(a.core);
    int failed = 0;
    for (size_t i = 0; i < a.prep.n_jobs; i++)
        if (r[i].state == ENG_JOB_FAILED) {
            failed++;
            CU_ASSERT_DOUBLE_EQUAL(fmod(r[i].end_s, 100), 0, 1e-9);
        }
    CU_ASSERT(failed > 0); /* 60 jobs of 50-450 s at p = 0.1: some fail */
    CU_ASSERT(eng_core_wasted_node_s(a.core) > 0);

    run_drawn(true, 1, &b);
    CU_ASSERT_EQUAL_FATAL(b.rc, 0);
    const eng_job_result *rb = eng_core_results(b.core);
    int requeues = 0;
    for (size_t i = 0; i < b.prep.n_jobs; i++) {
        if (rb[i].state != ENG_JOB_DONE)
            printf("\n  job %zu state %d requeues %d", i, rb[i].state, rb[i].requeues);
        CU_ASSERT_EQUAL(rb[i].state, ENG_JOB_DONE);
        requeues += rb[i].requeues;
    }
    CU_ASSERT(requeues >= failed);

    run_drawn(false, 1, &c);
    const eng_job_result *rc = eng_core_results(c.core);
    bool same = true;
    for (size_t i = 0; i < a.prep.n_jobs; i++)
        same = same && rc[i].start_s == r[i].start_s && rc[i].end_s == r[i].end_s &&
               rc[i].state == r[i].state;
    CU_ASSERT(same);
    bl_sched_fini(&c);
    run_drawn(false, 2, &c);
    rc = eng_core_results(c.core);
    same = true;
    for (size_t i = 0; i < a.prep.n_jobs; i++)
        same = same && rc[i].start_s == r[i].start_s && rc[i].end_s == r[i].end_s;
    CU_ASSERT(!same);
    bl_sched_fini(&a);
    bl_sched_fini(&b);
    bl_sched_fini(&c);
}

/* Through SimGrid: the cut run of J1 ends at the failure there too. */
static void test_failure_in_simgrid(void)
{
    static const eng_fail_span n1[] = {{.host = "n1", .start_s = 50, .end_s = 80}};
    bl_opts o = {.failures = {.enabled = true, .trace = n1, .n_trace = 1, .trace_path = "t"}};
    eng_run_report rep;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(
        bl_sim_run("fcfs", FAIL_JOBS, 3, bl_src("platforms/test/tiny-4.xml"), &o, &rep, &d), 0);
    static const bl_expect e[] = {{1, 0, 50}, {2, 0, 100}, {3, 100, 110}};
    bl_check_rep(&rep, e, 3, "failure in SimGrid");
    CU_ASSERT_EQUAL(bl_rep_state(&rep, 1), ENG_JOB_FAILED);
    eng_run_report_fini(&rep);
}

int bl_suite_eng_fail(void)
{
    CU_pSuite s = CU_add_suite("eng_fail", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "a host failure kills its jobs", test_failure_kills);
    CU_add_test(s, "a host failure requeues its jobs", test_failure_requeues);
    CU_add_test(s, "the requeue limit", test_failure_requeue_limit);
    CU_add_test(s, "failures: down at the start, at a job's end, merged", test_failure_edges);
    CU_add_test(s, "failure trace errors name the line", test_failure_trace_errors);
    CU_add_test(s, "drawn failures: epochs, requeue, seeds", test_failures_drawn);
    CU_add_test(s, "failures through SimGrid", test_failure_in_simgrid);
    return 0;
}
