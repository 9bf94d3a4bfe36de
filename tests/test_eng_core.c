/* test_eng_core.c — the scheduling core's semantics: speeds and the
 * slowest host, kills, host choice, core allocation, pools, zero-length
 * jobs, wake-ups, the time series, and the checker catching bad policies. */
#include "bl_scenarios.h"
#include "bl_test.h"
#include "eng_core.h"
#include "eng_policy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* fast (2 Gf), slow1, slow2 (1 Gf), 2 cores each, ref 1 Gf; given in
 * scrambled order: the core must see fast, slow1, slow2. */
static eng_platform *mixed_platform(void)
{
    eng_host_desc d[] = {
        {.name = "slow2", .speed_flops = 1e9, .sg_cores = 2},
        {.name = "fast", .speed_flops = 2e9, .sg_cores = 2},
        {.name = "slow1", .speed_flops = 1e9, .sg_cores = 2},
    };
    eng_platform *p = NULL;
    eng_diag diag;
    eng_diag_clear(&diag);
    CU_ASSERT_EQUAL(eng_platform_build("mixed", d, 3, "1Gf", &p, &diag), 0);
    return p;
}

/* J1 (4 procs = 2 nodes) gets fast + slow1 (first fit in name order): 50 s
 * on fast, 100 s on slow1, so it ends at 100. J2 (1 node) runs on slow2:
 * 100 s. J3 (1 node) starts at 100 on fast: 30 s of log time in 15 s. */
static void test_speed_and_slowest_host(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 100, 200, 4, 0}, {2, 0, 100, 200, 2, 0}, {3, 1, 30, 200, 2, 0}};
    bl_sched s;
    bl_core_run("fcfs", jobs, 3, mixed_platform(), NULL, &s);
    static const bl_expect e[] = {{1, 0, 100}, {2, 0, 100}, {3, 100, 115}};
    bl_check(&s, e, 3, "speeds");
    const eng_job_result *r = eng_core_results(s.core);
    const int32_t *hosts = eng_core_alloc_hosts(s.core);
    CU_ASSERT_EQUAL(r[0].n_hosts, 2);
    CU_ASSERT_EQUAL(hosts[r[0].hosts_off], 0);     /* fast */
    CU_ASSERT_EQUAL(hosts[r[0].hosts_off + 1], 1); /* slow1 */
    CU_ASSERT_STRING_EQUAL(s.p->hosts[0].name, "fast");
    CU_ASSERT_STRING_EQUAL(s.p->hosts[2].name, "slow2");
    CU_ASSERT_EQUAL(hosts[r[1].hosts_off], 2);
    bl_sched_fini(&s);
}

/* A job that fits its request on the fast host but not on a slow one is
 * killed only on the slow one. J1 takes fast (run 100 -> 50 s <= 60);
 * J2 runs on slow1 and is killed at 60. */
static void test_kill_depends_on_host(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 100, 60, 2, 0}, {2, 0, 100, 60, 2, 0}};
    bl_sched s;
    bl_core_run("fcfs", jobs, 2, mixed_platform(), NULL, &s);
    static const bl_expect e[] = {{1, 0, 50}, {2, 0, 60}};
    bl_check(&s, e, 2, "kill");
    CU_ASSERT_EQUAL(bl_state(&s, 1), ENG_JOB_DONE);
    CU_ASSERT_EQUAL(bl_state(&s, 2), ENG_JOB_KILLED);
    bl_sched_fini(&s);
}

/* Extend: the estimate covers the run on the pool's slowest host
 * (100 s at 1 Gf), so no job outlives its estimate; no kill. */
static void test_extend_covers_slowest_host(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 100, 60, 2, 0}};
    bl_sched s;
    bl_opts o = {.walltime = ENG_WALLTIME_EXTEND};
    bl_core_run("fcfs", jobs, 1, mixed_platform(), &o, &s);
    CU_ASSERT_DOUBLE_EQUAL(s.prep.jobs[0].estimate_s, 100, 0);
    CU_ASSERT(isinf(s.prep.jobs[0].kill_s));
    CU_ASSERT_EQUAL(bl_state(&s, 1), ENG_JOB_DONE);
    CU_ASSERT_EQUAL(s.prep.n_extended, 1);
    bl_sched_fini(&s);
}

/* Core allocation packs by cores, first fit: J1 (3 cores) = fast:2 +
 * slow1:1, J2 (3) = slow1:1 + slow2:2, J3 (1) waits until J1 ends. */
static void test_core_allocation(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 20, 50, 3, 0}, {2, 0, 20, 50, 3, 0}, {3, 0, 10, 50, 1, 0}};
    bl_sched s;
    bl_opts o = {.alloc = POL_ALLOC_CORE};
    bl_core_run("fcfs", jobs, 3, mixed_platform(), &o, &s);
    /* J1 on fast (10 s) and slow1 (20 s): ends 20; J2 on slow1 and slow2:
     * ends 20; J3 at 20 on fast: 5 s. */
    static const bl_expect e[] = {{1, 0, 20}, {2, 0, 20}, {3, 20, 25}};
    bl_check(&s, e, 3, "core alloc");
    const eng_job_result *r = eng_core_results(s.core);
    const int32_t *hosts = eng_core_alloc_hosts(s.core);
    const int32_t *cores = eng_core_alloc_cores(s.core);
    CU_ASSERT_EQUAL(r[0].n_hosts, 2);
    CU_ASSERT_EQUAL(hosts[r[0].hosts_off], 0);
    CU_ASSERT_EQUAL(cores[r[0].hosts_off], 2);
    CU_ASSERT_EQUAL(hosts[r[0].hosts_off + 1], 1);
    CU_ASSERT_EQUAL(cores[r[0].hosts_off + 1], 1);
    CU_ASSERT_EQUAL(r[1].n_hosts, 2);
    CU_ASSERT_EQUAL(cores[r[1].hosts_off], 1);
    CU_ASSERT_EQUAL(cores[r[1].hosts_off + 1], 2);
    bl_sched_fini(&s);
}

/* Two pools (queue 1: 4 hosts of 2 cores; queue 2: 1 host of 4 cores) are
 * scheduled independently; queue 3 has no host; 5 procs in queue 2 need 2
 * nodes of 4 cores: too large. */
static void test_pools(void)
{
    eng_host_desc d[] = {
        {.name = "c1", .speed_flops = 1e9, .sg_cores = 2, .queues = "1"},
        {.name = "c2", .speed_flops = 1e9, .sg_cores = 2, .queues = "1"},
        {.name = "c3", .speed_flops = 1e9, .sg_cores = 2, .queues = "1"},
        {.name = "c4", .speed_flops = 1e9, .sg_cores = 2, .queues = "1"},
        {.name = "v1", .speed_flops = 1e9, .sg_cores = 4, .queues = "2"},
    };
    eng_platform *p = NULL;
    eng_diag diag;
    eng_diag_clear(&diag);
    CU_ASSERT_EQUAL_FATAL(eng_platform_build("two", d, 5, NULL, &p, &diag), 0);
    CU_ASSERT_EQUAL(p->n_pools, 2);
    static const bl_jobspec jobs[] = {
        {1, 0, 10, 10, 8, 1}, /* all of queue 1 */
        {2, 0, 10, 10, 4, 2}, /* all of queue 2 */
        {3, 1, 10, 10, 2, 1}, /* waits for queue 1 */
        {4, 1, 10, 10, 1, 2}, /* waits for queue 2 */
        {5, 1, 10, 10, 1, 3}, /* no host serves queue 3 */
        {6, 1, 10, 10, 5, 2}, /* 2 nodes of 4 cores: too large */
    };
    bl_sched s;
    bl_core_run("easy", jobs, N_OF(jobs), p, NULL, &s);
    static const bl_expect e[] = {{1, 0, 10}, {2, 0, 10}, {3, 10, 20}, {4, 10, 20}};
    bl_check(&s, e, N_OF(e), "pools");
    CU_ASSERT_EQUAL(s.prep.n_dropped[ENG_DROP_NO_POOL], 1);
    CU_ASSERT_EQUAL(s.prep.n_dropped[ENG_DROP_TOO_LARGE], 1);
    CU_ASSERT_EQUAL(s.prep.jobs[0].units, 4); /* 8 procs / 2 cores per node */
    bl_sched_fini(&s);
}

/* Zero-length jobs start and end at the same instant and free their hosts
 * for jobs of that instant; estimates under 1 s are planned as 1 s. */
static void test_zero_length_jobs(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 0, 0, 4, 0}, {2, 0, 0, -1, 4, 0}, {3, 0, 5, 5, 4, 0}};
    bl_sched s;
    bl_core_run("conservative", jobs, 3, bl_uniform_platform(4, 1), NULL, &s);
    /* Conservative reserves J1 [0,1), J2 [1,2), J3 [2,7): estimates under
     * 1 s are planned as 1 s. J1 starts and ends at 0, ending early: the
     * released [0,1) lets J2 move to 0 (J3 only to 1, behind J2's new
     * window); J2 also ends at 0, and J3 moves to 0. Three steps at t=0. */
    static const bl_expect e[] = {{1, 0, 0}, {2, 0, 0}, {3, 0, 5}};
    bl_check(&s, e, 3, "zero conservative");
    CU_ASSERT_DOUBLE_EQUAL(s.prep.jobs[0].estimate_s, 1, 0);
    CU_ASSERT(s.prep.jobs[1].est_from_runtime);
    CU_ASSERT_EQUAL(eng_core_steps(s.core), 4); /* three at 0, one at 5 */
    bl_sched_fini(&s);
    /* FCFS: all three at 0, one after another at the same instant. */
    bl_core_run("fcfs", jobs, 3, bl_uniform_platform(4, 1), NULL, &s);
    static const bl_expect f[] = {{1, 0, 0}, {2, 0, 0}, {3, 0, 5}};
    bl_check(&s, f, 3, "zero fcfs");
    bl_sched_fini(&s);
}

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

/* A policy that starts each job 5 s after it arrives, using wake-ups only:
 * the core must call it at those times although no job event happens. */
typedef struct {
    int calls;
} delay_state;

static int delay_schedule(void *st, const pol_view *v, pol_out *out)
{
    ((delay_state *)st)->calls++;
    int32_t free_units = v->free_units;
    for (size_t i = 0; i < v->n_queue; i++) {
        const pol_job *j = v->queue[i];
        if (v->now_s >= j->submit_s + 5 && j->units <= free_units) {
            pol_out_start(out, j);
            free_units -= j->units;
        } else if (v->now_s < j->submit_s + 5) {
            pol_out_wakeup(out, j->submit_s + 5);
        }
    }
    return 0;
}

/* Two jobs, arriving at 0 and 2 with 10 s of work each, on 4 one-core
 * hosts, run to the end under a delay policy (checker on). */
typedef struct delay_run {
    eng_platform *p;
    eng_workload *w;
    eng_prepared prep;
    eng_core *c;
} delay_run;

static void delay_run_start(delay_run *x, const pol_type *policy)
{
    static const bl_jobspec jobs[] = {{1, 0, 10, 10, 1, 0}, {2, 2, 10, 10, 1, 0}};
    x->p = bl_uniform_platform(4, 1);
    x->w = bl_make_workload(jobs, 2);
    eng_diag d;
    eng_diag_clear(&d);
    eng_prep_opts po = {0};
    eng_prep(x->w, x->p, &po, &x->prep, &d);
    eng_core_opts co = {.policy = policy, .check = true};
    x->c = NULL;
    CU_ASSERT_EQUAL_FATAL(eng_core_create(x->p, &x->prep, &co, &x->c, &d), 0);
    CU_ASSERT_EQUAL(eng_core_run(x->c, &d), 0);
}

static void delay_run_end(delay_run *x)
{
    eng_core_destroy(x->c);
    eng_prepared_fini(&x->prep);
    eng_workload_destroy(x->w);
    eng_platform_destroy(x->p);
}

static void test_wakeups(void)
{
    const pol_type delay = {
        .name = "delay", .state_size = sizeof(delay_state), .schedule = delay_schedule};
    delay_run x;
    delay_run_start(&x, &delay);
    eng_core *c = x.c;
    const eng_job_result *r = eng_core_results(c);
    CU_ASSERT_DOUBLE_EQUAL(r[0].start_s, 5, 0);
    CU_ASSERT_DOUBLE_EQUAL(r[1].start_s, 7, 0);
    size_t n_ts;
    const eng_ts_row *ts = eng_core_timeseries(c, &n_ts);
    /* instants: 0, 2, 5, 7, 15, 17 */
    CU_ASSERT_EQUAL(n_ts, 6);
    if (n_ts == 6) {
        CU_ASSERT_DOUBLE_EQUAL(ts[2].t_s, 5, 0);
        CU_ASSERT_EQUAL(ts[2].queued, 1);
        CU_ASSERT_EQUAL(ts[2].running, 1);
        CU_ASSERT_EQUAL(ts[2].busy_nodes, 1);
        CU_ASSERT_EQUAL(ts[3].running, 2);
        CU_ASSERT_EQUAL(ts[5].running, 0);
        CU_ASSERT_EQUAL(ts[5].busy_nodes, 0);
        CU_ASSERT_EQUAL(ts[5].busy_cores, 0);
    }
    delay_run_end(&x);
}

/* eng_core_finish: the delay policy with a report and a fini that count;
 * after the run is finished the report reads the same, fini has run once
 * (and not again at destroy), and the results and the time series are
 * those of the run. */
static int finish_fini_calls;

static void delay_fini(void *st)
{
    (void)st;
    finish_fini_calls++;
}

static void delay_report(void *st, char *buf, size_t len)
{
    snprintf(buf, len, "%d calls of a reporting policy", ((delay_state *)st)->calls);
}

static void test_finish(void)
{
    const pol_type delay = {.name = "delay",
                            .state_size = sizeof(delay_state),
                            .schedule = delay_schedule,
                            .fini = delay_fini,
                            .report = delay_report};
    finish_fini_calls = 0;
    delay_run x;
    delay_run_start(&x, &delay);
    eng_core *c = x.c;
    char before[64], after[64], cut[8];
    eng_core_policy_report(c, before, sizeof before);
    eng_core_finish(c);
    CU_ASSERT_EQUAL(finish_fini_calls, 1);
    eng_core_finish(c); /* a second call does nothing */
    CU_ASSERT_EQUAL(finish_fini_calls, 1);
    eng_core_policy_report(c, after, sizeof after);
    CU_ASSERT_STRING_EQUAL(after, before);
    eng_core_policy_report(c, cut, sizeof cut); /* cut, terminated */
    CU_ASSERT_STRING_EQUAL(cut, "6 calls");
    CU_ASSERT_STRING_EQUAL(before, "6 calls of a reporting policy");
    const eng_job_result *r = eng_core_results(c);
    CU_ASSERT_DOUBLE_EQUAL(r[0].start_s, 5, 0);
    CU_ASSERT_DOUBLE_EQUAL(r[1].end_s, 17, 0);
    size_t n_ts;
    const eng_ts_row *ts = eng_core_timeseries(c, &n_ts);
    CU_ASSERT_EQUAL(n_ts, 6);
    if (n_ts == 6)
        CU_ASSERT_EQUAL(ts[3].running, 2);
    CU_ASSERT_EQUAL(eng_core_jobs_left(c), 0);
    delay_run_end(&x);
    CU_ASSERT_EQUAL(finish_fini_calls, 1);
}

/* A sample's units are its busy hosts under node allocation, its busy
 * cores under core allocation. */
static void test_ts_busy_units(void)
{
    eng_ts_row row = {.t_s = 1, .busy_nodes = 3, .busy_cores = 20};
    CU_ASSERT_EQUAL(eng_ts_busy_units(&row, POL_ALLOC_NODE), 3);
    CU_ASSERT_EQUAL(eng_ts_busy_units(&row, POL_ALLOC_CORE), 20);
    CU_ASSERT_EQUAL(sizeof row, 32);
}

/* The view shows where running jobs run: positions in view->hosts and the
 * cores they take, consistent with each host's free cores. */
typedef struct where_counts {
    int checks, bad;
} where_counts;

static where_counts where_seen;

static int where_schedule(void *st, const pol_view *v, pol_out *out)
{
    (void)st;
    where_counts *w = &where_seen;
    int32_t used[16] = {0};
    for (size_t r = 0; r < v->n_running; r++) {
        const pol_job *j = v->running[r];
        int32_t cores = 0;
        for (int32_t k = 0; k < j->n_alloc; k++) {
            int32_t pos = v->alloc_pos[j->alloc_off + (size_t)k];
            if (pos < 0 || (size_t)pos >= v->n_hosts)
                w->bad++;
            else
                used[pos] += v->alloc_cores[j->alloc_off + (size_t)k];
            cores += v->alloc_cores[j->alloc_off + (size_t)k];
        }
        w->bad += cores != j->procs; /* core allocation: exactly its processors */
        w->checks++;
    }
    for (size_t h = 0; h < v->n_hosts; h++)
        w->bad += used[h] != v->hosts[h].cores - v->hosts[h].free_cores;
    int32_t free_units = v->free_units;
    for (size_t i = 0; i < v->n_queue && v->queue[i]->units <= free_units; i++) {
        pol_out_start(out, v->queue[i]);
        free_units -= v->queue[i]->units;
    }
    return 0;
}

static void test_view_shows_hosts(void)
{
    const pol_type where = {.name = "where", .flags = POL_FLAG_CORES, .schedule = where_schedule};
    static const bl_jobspec jobs[] = {
        {1, 0, 10, 10, 3, 0}, {2, 1, 10, 10, 2, 0}, {3, 2, 10, 10, 4, 0}, {4, 3, 5, 5, 1, 0}};
    eng_platform *p = mixed_platform();
    eng_workload *w = bl_make_workload(jobs, 4);
    eng_prepared prep;
    eng_diag d;
    eng_diag_clear(&d);
    eng_prep_opts po = {.alloc = POL_ALLOC_CORE};
    CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &po, &prep, &d), 0);
    eng_core_opts co = {.policy = &where, .check = true};
    eng_core *c = NULL;
    CU_ASSERT_EQUAL_FATAL(eng_core_create(p, &prep, &co, &c, &d), 0);
    CU_ASSERT_EQUAL(eng_core_run(c, &d), 0);
    CU_ASSERT(where_seen.checks >= 4);
    CU_ASSERT_EQUAL(where_seen.bad, 0);
    eng_core_destroy(c);
    eng_prepared_fini(&prep);
    eng_workload_destroy(w);
    eng_platform_destroy(p);
}

/* Options are validated before anything runs. */
static void test_unknown_option(void)
{
    static const pol_kv opts[] = {{"depth", "2"}};
    bl_opts o = {.options = opts, .n_options = 1};
    bl_sched s;
    bl_core_run("conservative", S1, N_OF(S1), bl_uniform_platform(4, 1), &o, &s);
    CU_ASSERT_EQUAL(s.rc, ENG_INVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "unknown option 'depth' for policy conservative"));
    bl_sched_fini(&s);
}

/* ---- host failures ---------------------------------------------------- */

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

/* ---- islands ---------------------------------------------------------- */

/* Islands a (a1..a4, hosts 0-3) and b (b1, b2, hosts 4-5), whole nodes. */
static const int ISL_A4_B2[] = {4, 2};

static void expect_hosts(const bl_sched *s, int64_t id, const int32_t *want, int32_t n)
{
    const eng_job_result *r = eng_core_results(s->core);
    const int32_t *hosts = eng_core_alloc_hosts(s->core);
    long i = -1;
    for (size_t k = 0; k < s->prep.n_jobs; k++)
        if (s->prep.jobs[k].id == id)
            i = (long)k;
    CU_ASSERT_FATAL(i >= 0);
    CU_ASSERT_EQUAL(r[i].n_hosts, n);
    for (int32_t k = 0; k < n && k < r[i].n_hosts; k++)
        CU_ASSERT_EQUAL(hosts[r[i].hosts_off + (size_t)k], want[k]);
}

/* FCFS on islands of 4 and 2 nodes:
 *   J1 (1 node) goes where the fewest free nodes suffice: island b (2
 *      free, against 4), b1;
 *   J2 (3 nodes) fits island a only: a1-a3;
 *   J3 (2 nodes) finds 2 nodes free (a4, b2) but in two islands: it waits
 *      for the ends at 10, then takes b1-b2 (b: 2 free, a: 4);
 *   J4 (5 nodes) is larger than every island: at 20 it spans, island a
 *      first (a1-a4), then b1.
 * With --islands ignore the pool is one block: J1 a1, J2 a2-a4, J3 b1-b2
 * at 0, and J4 at 10. */
static void test_island_placement(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 10, 10, 1, 0}, {2, 0, 10, 10, 3, 0}, {3, 0, 10, 10, 2, 0}, {4, 0, 10, 10, 5, 0}};
    bl_sched s;
    bl_core_run("fcfs", jobs, N_OF(jobs), bl_island_platform(ISL_A4_B2, 2, 1), NULL, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect e[] = {{1, 0, 10}, {2, 0, 10}, {3, 10, 20}, {4, 20, 30}};
    bl_check(&s, e, N_OF(e), "islands strict");
    expect_hosts(&s, 1, (const int32_t[]){4}, 1);
    expect_hosts(&s, 2, (const int32_t[]){0, 1, 2}, 3);
    expect_hosts(&s, 3, (const int32_t[]){4, 5}, 2);
    expect_hosts(&s, 4, (const int32_t[]){0, 1, 2, 3, 4}, 5);
    bl_sched_fini(&s);

    bl_opts o = {.ignore_islands = true};
    bl_core_run("fcfs", jobs, N_OF(jobs), bl_island_platform(ISL_A4_B2, 2, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect ei[] = {{1, 0, 10}, {2, 0, 10}, {3, 0, 10}, {4, 10, 20}};
    bl_check(&s, ei, N_OF(ei), "islands ignored");
    expect_hosts(&s, 1, (const int32_t[]){0}, 1);
    expect_hosts(&s, 3, (const int32_t[]){4, 5}, 2);
    bl_sched_fini(&s);
}

/* Under core allocation an island's units are its cores: islands a (2
 * hosts x 2 cores) and b (1 host x 2 cores). J1 (2 cores) best fits b;
 * J2 (3 cores) fits a only; J3 (2 cores) finds 1 core free in a and none
 * in b: it waits for J1's end at 10 and takes b1. */
static void test_island_cores(void)
{
    static const int sizes[] = {2, 1};
    static const bl_jobspec jobs[] = {
        {1, 0, 10, 10, 2, 0}, {2, 0, 20, 20, 3, 0}, {3, 0, 10, 10, 2, 0}};
    bl_sched s;
    bl_opts o = {.alloc = POL_ALLOC_CORE};
    bl_core_run("easy", jobs, N_OF(jobs), bl_island_platform(sizes, 2, 2), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect e[] = {{1, 0, 10}, {2, 0, 20}, {3, 10, 20}};
    bl_check(&s, e, N_OF(e), "islands, cores");
    expect_hosts(&s, 1, (const int32_t[]){2}, 1);
    expect_hosts(&s, 2, (const int32_t[]){0, 1}, 2);
    expect_hosts(&s, 3, (const int32_t[]){2}, 1);
    bl_sched_fini(&s);
}

/* A policy that counts units only and starts whatever fits in the count. */
static int counting_schedule(void *st, const pol_view *v, pol_out *out)
{
    (void)st;
    int32_t free_units = v->free_units;
    for (size_t i = 0; i < v->n_queue; i++)
        if (v->queue[i]->units <= free_units) {
            pol_out_start(out, v->queue[i]);
            free_units -= v->queue[i]->units;
        }
    return 0;
}

/* Capabilities the engine checks before init: a policy without
 * POL_FLAG_CORES is refused under core allocation; one with islands but
 * without POL_FLAG_ISLANDS_CORES is refused on islands under core
 * allocation (not under node allocation, not with --islands ignore). */
static void test_capabilities_refused(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 10, 10, 1, 0}, {2, 0, 10, 10, 2, 0}};
    const pol_type nodes = {
        .name = "nodes", .flags = POL_FLAG_ISLANDS, .schedule = counting_schedule};
    bl_sched s;
    bl_opts o = {.policy_type = &nodes, .alloc = POL_ALLOC_CORE, .ignore_islands = true};
    bl_core_run("nodes", jobs, N_OF(jobs), bl_island_platform(ISL_A4_B2, 2, 2), &o, &s);
    CU_ASSERT_EQUAL(s.rc, ENG_USAGE);
    CU_ASSERT_STRING_EQUAL(s.diag.msg, "policy nodes allocates whole hosts only: run it with "
                                       "--alloc node (`batchlab policies` names the policies "
                                       "that allocate cores)");
    bl_sched_fini(&s);
    const pol_type whole = {
        .name = "whole", .flags = POL_FLAG_ISLANDS | POL_FLAG_CORES, .schedule = counting_schedule};
    o = (bl_opts){.policy_type = &whole, .alloc = POL_ALLOC_CORE};
    bl_core_run("whole", jobs, N_OF(jobs), bl_island_platform(ISL_A4_B2, 2, 2), &o, &s);
    CU_ASSERT_EQUAL(s.rc, ENG_USAGE);
    CU_ASSERT_STRING_EQUAL(s.diag.msg, "policy whole plans with islands under whole-node "
                                       "allocation only; with --alloc core run it with "
                                       "--islands ignore (the hosts of pool all queues in "
                                       "islands name 2 islands)");
    bl_sched_fini(&s);
    o.ignore_islands = true; /* then it plans cores on one block */
    bl_core_run("whole", jobs, N_OF(jobs), bl_island_platform(ISL_A4_B2, 2, 2), &o, &s);
    CU_ASSERT_EQUAL(s.rc, 0);
    bl_sched_fini(&s);
    o = (bl_opts){.policy_type = &whole, .alloc = POL_ALLOC_NODE};
    bl_core_run("whole", jobs, N_OF(jobs), bl_island_platform(ISL_A4_B2, 2, 2), &o, &s);
    CU_ASSERT_EQUAL(s.rc, 0);
    bl_sched_fini(&s);
    const pol_type both = {.name = "both",
                           .flags = POL_FLAG_ISLANDS | POL_FLAG_CORES | POL_FLAG_ISLANDS_CORES,
                           .schedule = counting_schedule};
    o = (bl_opts){.policy_type = &both, .alloc = POL_ALLOC_CORE};
    bl_core_run("both", jobs, N_OF(jobs), bl_island_platform(ISL_A4_B2, 2, 2), &o, &s);
    CU_ASSERT_EQUAL(s.rc, 0);
    bl_sched_fini(&s);
}

/* The engine never starts a job no island can host: J1 takes a1-a3, and J2
 * (3 nodes) finds 3 free (a4, b1, b2) but no island with 3. Before islands
 * a start beyond the free units was refused the same way ("units with
 * only"). A policy that does not plan with islands is refused up front. */
static void test_island_blocked_start(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 10, 10, 3, 0}, {2, 0, 10, 10, 3, 0}};
    const pol_type counting = {
        .name = "counting", .flags = POL_FLAG_ISLANDS, .schedule = counting_schedule};
    bl_sched s;
    bl_opts o = {.policy_type = &counting};
    bl_core_run("counting", jobs, N_OF(jobs), bl_island_platform(ISL_A4_B2, 2, 1), &o, &s);
    CU_ASSERT_EQUAL(s.rc, ENG_POLICY);
    CU_ASSERT_STRING_EQUAL(s.diag.msg, "t=0: policy counting started job 2 needing 3 units, "
                                       "which no island can host now (most free: 2 of island "
                                       "b's 2)");
    bl_sched_fini(&s);

    const pol_type unaware = {.name = "unaware", .schedule = counting_schedule};
    o.policy_type = &unaware;
    bl_core_run("unaware", jobs, N_OF(jobs), bl_island_platform(ISL_A4_B2, 2, 1), &o, &s);
    CU_ASSERT_EQUAL(s.rc, ENG_USAGE);
    CU_ASSERT_STRING_EQUAL(s.diag.msg, "policy unaware does not plan with islands, and the "
                                       "hosts of pool all queues in islands name 2 islands: "
                                       "run it with --islands ignore (`batchlab policies` "
                                       "names the policies that do)");
    bl_sched_fini(&s);
    /* ignoring islands, the count is all there is: both start at 0 */
    o.ignore_islands = true;
    bl_core_run("unaware", jobs, N_OF(jobs), bl_island_platform(ISL_A4_B2, 2, 1), &o, &s);
    CU_ASSERT_EQUAL(s.rc, 0);
    CU_ASSERT_DOUBLE_EQUAL(bl_start(&s, 2), 0, 0);
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

/* ---- --init-planned no: jobs outlive their estimates ----------------- */

/* Types (SWF queue) 1 and 2 take 50 s and 100 s of initialization, the
 * others none. */
static const eng_init_time UNPLANNED_INIT[] = {
    {.type = 1, .seconds = 50}, {.type = 2, .seconds = 100}, {.any = true, .seconds = 0}};

/* EASY on 4 hosts (1 core each):
 *   J1 (1 node, type 1, run 100, request 100) runs [0, 150]: 50 s of
 *      initialization, then 100 s;
 *   J2 (4 nodes, type 0, run 10) is the blocked head from t = 1;
 *   J3 (1 node, type 2, run 90, request 90) comes at t = 2.
 * Planned (default): J1 ends by 150, the shadow time; J3 is planned 190 s,
 *   2 + 190 > 150 and no unit is extra, so it waits: J2 [150, 160], J3
 *   [160, 350].
 * Not planned: J1 is planned to end at 100, the shadow time promised to
 *   J2; J3 is planned 90 s, 2 + 90 <= 100: backfilled, it runs [2, 192]
 *   (100 s of initialization). J1 really ends at 150 (not killed: its kill
 *   limit is 150); J2 starts when J3 ends, at 192 (later than its promise
 *   of 100, excused: J1 overran from 100), and ends at 202. */
static const bl_jobspec UNPLANNED_EASY[] = {
    {1, 0, 100, 100, 1, 1}, {2, 1, 10, 10, 4, 0}, {3, 2, 90, 90, 1, 2}};

static void test_init_unplanned_easy(void)
{
    bl_opts o = {.init_times = UNPLANNED_INIT, .n_init_times = N_OF(UNPLANNED_INIT)};
    bl_sched s;
    bl_core_run("easy", UNPLANNED_EASY, 3, bl_uniform_platform(4, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect planned[] = {{1, 0, 150}, {2, 150, 160}, {3, 160, 350}};
    bl_check(&s, planned, 3, "init planned");
    bl_sched_fini(&s);

    o.init_unplanned = true;
    bl_core_run("easy", UNPLANNED_EASY, 3, bl_uniform_platform(4, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect unplanned[] = {{1, 0, 150}, {2, 192, 202}, {3, 2, 192}};
    bl_check(&s, unplanned, 3, "init not planned");
    CU_ASSERT_EQUAL(bl_state(&s, 1), ENG_JOB_DONE);
    CU_ASSERT_EQUAL(bl_state(&s, 3), ENG_JOB_DONE);
    bl_sched_fini(&s);

    /* the same through SimGrid */
    eng_run_report rep;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(
        bl_sim_run("easy", UNPLANNED_EASY, 3, bl_src("platforms/test/tiny-4.xml"), &o, &rep, &d),
        0);
    bl_check_rep(&rep, unplanned, 3, "init not planned, SimGrid");
    eng_run_report_fini(&rep);
}

/* What the view shows: a probe that starts jobs in queue order while they
 * fit, asks to be woken at 120 and notes the running jobs there. */
static struct {
    int seen;              /* calls at t = 120 */
    int64_t first, second; /* running jobs there, in view order */
    double end_first, end_second;
    int overdue; /* calls where a running job was shown ending before now */
} probe;

static int probe_schedule(void *st, const pol_view *v, pol_out *out)
{
    (void)st;
    for (size_t r = 0; r < v->n_running; r++)
        if (v->running[r]->expected_end_s < v->now_s)
            probe.overdue++;
    if (v->now_s == 120 && v->n_running == 2) {
        probe.seen++;
        probe.first = v->running[0]->id;
        probe.second = v->running[1]->id;
        probe.end_first = v->running[0]->expected_end_s;
        probe.end_second = v->running[1]->expected_end_s;
    }
    int32_t free_units = v->free_units;
    for (size_t i = 0; i < v->n_queue && v->queue[i]->units <= free_units; i++) {
        pol_out_start(out, v->queue[i]);
        free_units -= v->queue[i]->units;
    }
    if (v->now_s < 120)
        pol_out_wakeup(out, 120);
    return 0;
}

/* 2 hosts: J1 (type 1) is planned [0, 100] and runs [0, 150]; J2 (type 1,
 * run 80) is planned [0, 80] and runs [0, 130]; J3 waits. At 120 both are
 * overdue and shown ending at 120, J2 first (planned end 80 < 100, though
 * J1 has the lower index); J3 starts at 130 on J2's host. A policy without
 * POL_FLAG_REPLANS is refused, with a usage error naming it. */
static void test_init_unplanned_view(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 100, 100, 1, 1}, {2, 0, 80, 80, 1, 1}, {3, 1, 10, 10, 1, 0}};
    const pol_type t = {.name = "probe", .flags = POL_FLAG_REPLANS, .schedule = probe_schedule};
    bl_opts o = {.init_times = UNPLANNED_INIT,
                 .n_init_times = N_OF(UNPLANNED_INIT),
                 .init_unplanned = true,
                 .policy_type = &t};
    memset(&probe, 0, sizeof probe);
    bl_sched s;
    bl_core_run("probe", jobs, 3, bl_uniform_platform(2, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    CU_ASSERT_EQUAL(probe.seen, 1);
    CU_ASSERT_EQUAL(probe.first, 2);
    CU_ASSERT_EQUAL(probe.second, 1);
    CU_ASSERT_DOUBLE_EQUAL(probe.end_first, 120, 0);
    CU_ASSERT_DOUBLE_EQUAL(probe.end_second, 120, 0);
    CU_ASSERT_EQUAL(probe.overdue, 0);
    static const bl_expect e[] = {{1, 0, 150}, {2, 0, 130}, {3, 130, 140}};
    bl_check(&s, e, 3, "view");
    bl_sched_fini(&s);

    const pol_type fixed = {.name = "fixed", .schedule = probe_schedule};
    o.policy_type = &fixed;
    bl_core_run("fixed", jobs, 3, bl_uniform_platform(2, 1), &o, &s);
    CU_ASSERT_EQUAL(s.rc, ENG_USAGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "policy fixed keeps plans across scheduling calls"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "--init-planned yes"));
    bl_sched_fini(&s);
    bl_core_run("conservative", jobs, 3, bl_uniform_platform(2, 1),
                &(bl_opts){.init_unplanned = true}, &s);
    CU_ASSERT_EQUAL(s.rc, ENG_USAGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "policy conservative keeps plans"));
    bl_sched_fini(&s);
    o.init_unplanned = false; /* planned: the flag is not needed */
    bl_core_run("fixed", jobs, 3, bl_uniform_platform(2, 1), &o, &s);
    CU_ASSERT_EQUAL(s.rc, 0);
    bl_sched_fini(&s);
}

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

int bl_suite_eng_core(void)
{
    CU_pSuite s = CU_add_suite("eng_core", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "speed scaling, slowest host, name order", test_speed_and_slowest_host);
    CU_add_test(s, "kill depends on the host's speed", test_kill_depends_on_host);
    CU_add_test(s, "extend covers the slowest host", test_extend_covers_slowest_host);
    CU_add_test(s, "core allocation, first fit", test_core_allocation);
    CU_add_test(s, "pools are independent; no-pool and too-large drops", test_pools);
    CU_add_test(s, "zero-length jobs", test_zero_length_jobs);
    CU_add_test(s, "checker catches bad policies", test_checker_catches_bad_policies);
    CU_add_test(s, "wake-ups and the time series", test_wakeups);
    CU_add_test(s, "unknown policy option", test_unknown_option);
    CU_add_test(s, "the view shows running jobs' hosts", test_view_shows_hosts);
    CU_add_test(s, "a host failure kills its jobs", test_failure_kills);
    CU_add_test(s, "a host failure requeues its jobs", test_failure_requeues);
    CU_add_test(s, "the requeue limit", test_failure_requeue_limit);
    CU_add_test(s, "failures: down at the start, at a job's end, merged", test_failure_edges);
    CU_add_test(s, "failure trace errors name the line", test_failure_trace_errors);
    CU_add_test(s, "drawn failures: epochs, requeue, seeds", test_failures_drawn);
    CU_add_test(s, "failures through SimGrid", test_failure_in_simgrid);
    CU_add_test(s, "init not planned: EASY backfills a job that overruns",
                test_init_unplanned_easy);
    CU_add_test(s, "init not planned: overdue jobs shown ending now; refusal",
                test_init_unplanned_view);
    CU_add_test(s, "init not planned: which broken promises are excused",
                test_init_unplanned_promises);
    CU_add_test(s, "finish: the report kept, the run's state freed once", test_finish);
    CU_add_test(s, "time series: busy units from the allocation mode", test_ts_busy_units);
    CU_add_test(s, "islands: placement, spanning, ignore", test_island_placement);
    CU_add_test(s, "capabilities: core allocation, islands under it", test_capabilities_refused);
    CU_add_test(s, "islands under core allocation", test_island_cores);
    CU_add_test(s, "islands: a start no island can host", test_island_blocked_start);
    CU_add_test(s, "checker: a job that fits in one island started across islands",
                test_island_audit);
    return 0;
}
