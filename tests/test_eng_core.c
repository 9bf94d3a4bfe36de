/* test_eng_core.c — the event core (engine/eng_core.c): speeds and the
 * slowest host, kills, pools, zero-length jobs, wake-ups, the time series,
 * unknown options, eng_core_finish, the refusal of a policy that does not
 * plan with islands, and --init-planned no (overdue jobs in the view, the
 * refusal of policies that keep plans). Host choice is tested in
 * test_eng_alloc.c, failures in test_eng_fail.c, the checks in
 * test_eng_check.c. */
#include "bl_scenarios.h"
#include "bl_test.h"
#include "eng_core.h"
#include "eng_policy.h"
#include "eng_run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* J1 (4 procs = 2 nodes) gets fast + slow1 (first fit in name order): 50 s
 * on fast, 100 s on slow1, so it ends at 100. J2 (1 node) runs on slow2:
 * 100 s. J3 (1 node) starts at 100 on fast: 30 s of log time in 15 s. */
static void test_speed_and_slowest_host(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 100, 200, 4, 0}, {2, 0, 100, 200, 2, 0}, {3, 1, 30, 200, 2, 0}};
    bl_sched s;
    bl_core_run("fcfs", jobs, 3, bl_mixed_platform(), NULL, &s);
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
    bl_core_run("fcfs", jobs, 2, bl_mixed_platform(), NULL, &s);
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
    bl_core_run("fcfs", jobs, 1, bl_mixed_platform(), &o, &s);
    CU_ASSERT_DOUBLE_EQUAL(s.prep.jobs[0].estimate_s, 100, 0);
    CU_ASSERT(isinf(s.prep.jobs[0].kill_s));
    CU_ASSERT_EQUAL(bl_state(&s, 1), ENG_JOB_DONE);
    CU_ASSERT_EQUAL(s.prep.n_extended, 1);
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

/* ---- islands ---------------------------------------------------------- */

/* Islands a (a1..a4, hosts 0-3) and b (b1, b2, hosts 4-5), whole nodes. */
static const int ISL_A4_B2[] = {4, 2};

/* Capabilities the engine checks before init: a policy without
 * POL_FLAG_CORES is refused under core allocation; one with islands but
 * without POL_FLAG_ISLANDS_CORES is refused on islands under core
 * allocation (not under node allocation, not with --islands ignore). */
static void test_capabilities_refused(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 10, 10, 1, 0}, {2, 0, 10, 10, 2, 0}};
    const pol_type nodes = {
        .name = "nodes", .flags = POL_FLAG_ISLANDS, .schedule = bl_counting_schedule};
    bl_sched s;
    bl_opts o = {.policy_type = &nodes, .alloc = POL_ALLOC_CORE, .ignore_islands = true};
    bl_core_run("nodes", jobs, N_OF(jobs), bl_island_platform(ISL_A4_B2, 2, 2), &o, &s);
    CU_ASSERT_EQUAL(s.rc, ENG_USAGE);
    CU_ASSERT_STRING_EQUAL(s.diag.msg, "policy nodes allocates whole hosts only: run it with "
                                       "--alloc node (`batchlab policies` names the policies "
                                       "that allocate cores)");
    bl_sched_fini(&s);
    const pol_type whole = {.name = "whole",
                            .flags = POL_FLAG_ISLANDS | POL_FLAG_CORES,
                            .schedule = bl_counting_schedule};
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
                           .schedule = bl_counting_schedule};
    o = (bl_opts){.policy_type = &both, .alloc = POL_ALLOC_CORE};
    bl_core_run("both", jobs, N_OF(jobs), bl_island_platform(ISL_A4_B2, 2, 2), &o, &s);
    CU_ASSERT_EQUAL(s.rc, 0);
    bl_sched_fini(&s);
}

/* A policy that does not plan with islands is refused up front (J1 and
 * J2 need 3 nodes each, on islands of 4 and 2); ignoring islands it runs. */
static void test_island_refusal(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 10, 10, 3, 0}, {2, 0, 10, 10, 3, 0}};
    const pol_type unaware = {.name = "unaware", .schedule = bl_counting_schedule};
    bl_sched s;
    bl_opts o = {.policy_type = &unaware};
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

/* pol_out_reject and pol_out_kill, by a hand policy on 4 hosts: J1 and
 * J2 (1 host each) at 0, J3 at 5. At 0 it starts J1 and rejects J2, and
 * asks to be woken at 3; at 3 it kills J1; later jobs start in queue
 * order. Known answers: J1 [0, 3] STOPPED (it would run 10), J2 REJECTED
 * at 0, never started, J3 [5, 10]. judge_mode picks a broken decision
 * instead: reject a running job, kill a waiting one, kill a job started
 * by the same call. */
static int judge_mode;

static int judge_schedule(void *state, const pol_view *v, pol_out *out)
{
    (void)state;
    const pol_job *j1 = NULL;
    for (size_t i = 0; i < v->n_running; i++)
        if (v->running[i]->id == 1)
            j1 = v->running[i];
    if (v->now_s == 0) {
        pol_out_start(out, v->queue[0]);
        if (judge_mode == 1)
            pol_out_reject(out, v->queue[0]); /* started by this call */
        else if (judge_mode == 2)
            pol_out_kill(out, v->queue[1]); /* waiting */
        else if (judge_mode == 3)
            pol_out_kill(out, v->queue[0]); /* started by this call */
        else
            pol_out_reject(out, v->queue[1]);
        pol_out_wakeup(out, 3);
        return 0;
    }
    if (v->now_s == 3 && j1) {
        pol_out_kill(out, j1);
        return 0;
    }
    int32_t free_units = v->free_units;
    for (size_t i = 0; i < v->n_queue && v->queue[i]->units <= free_units; i++) {
        pol_out_start(out, v->queue[i]);
        free_units -= v->queue[i]->units;
    }
    return 0;
}

static void test_reject_kill(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 10, 20, 1, 0}, {2, 0, 10, 20, 1, 0}, {3, 5, 5, 10, 1, 0}};
    const pol_type judge = {.name = "judge", .schedule = judge_schedule};
    bl_opts o = {.policy_type = &judge};
    bl_sched s;
    judge_mode = 0;
    bl_core_run("judge", jobs, 3, bl_uniform_platform(4, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect e[] = {{1, 0, 3}, {2, 0, 0}, {3, 5, 10}};
    bl_check(&s, e, 3, "reject and kill");
    CU_ASSERT_EQUAL(bl_state(&s, 1), ENG_JOB_STOPPED);
    CU_ASSERT_EQUAL(bl_state(&s, 2), ENG_JOB_REJECTED);
    CU_ASSERT_EQUAL(bl_state(&s, 3), ENG_JOB_DONE);
    bl_sched_fini(&s);

    /* the same through SimGrid: J1's execution is cut at 3 */
    eng_run_report rep;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(
        bl_sim_run("judge", jobs, 3, bl_src("platforms/test/tiny-4.xml"), &o, &rep, &d), 0);
    bl_check_rep(&rep, e, 3, "reject and kill, SimGrid");
    CU_ASSERT_EQUAL(rep.summary.n_stopped, 1);
    CU_ASSERT_EQUAL(rep.summary.n_rejected, 1);
    CU_ASSERT_EQUAL(rep.summary.n_completed, 1);
    eng_run_report_fini(&rep);

    static const char *const refused[] = {
        "", "policy judge rejected job 1, which is not waiting in its pool",
        "policy judge killed job 2, which is not running in its pool since an earlier call",
        "policy judge killed job 1, which is not running in its pool since an earlier call"};
    for (judge_mode = 1; judge_mode <= 3; judge_mode++) {
        bl_core_run("judge", jobs, 3, bl_uniform_platform(4, 1), &o, &s);
        CU_ASSERT_EQUAL(s.rc, ENG_POLICY);
        CU_ASSERT(bl_contains(s.diag.msg, refused[judge_mode]));
        bl_sched_fini(&s);
    }
    judge_mode = 0;
}

int bl_suite_eng_core(void)
{
    CU_pSuite s = CU_add_suite("eng_core", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "speed scaling, slowest host, name order", test_speed_and_slowest_host);
    CU_add_test(s, "kill depends on the host's speed", test_kill_depends_on_host);
    CU_add_test(s, "extend covers the slowest host", test_extend_covers_slowest_host);
    CU_add_test(s, "pools are independent; no-pool and too-large drops", test_pools);
    CU_add_test(s, "zero-length jobs", test_zero_length_jobs);
    CU_add_test(s, "wake-ups and the time series", test_wakeups);
    CU_add_test(s, "unknown policy option", test_unknown_option);
    CU_add_test(s, "init not planned: EASY backfills a job that overruns",
                test_init_unplanned_easy);
    CU_add_test(s, "init not planned: overdue jobs shown ending now; refusal",
                test_init_unplanned_view);
    CU_add_test(s, "finish: the report kept, the run's state freed once", test_finish);
    CU_add_test(s, "a policy rejects a waiting job and kills a running one", test_reject_kill);
    CU_add_test(s, "time series: busy units from the allocation mode", test_ts_busy_units);
    CU_add_test(s, "islands: a policy that does not plan with them is refused",
                test_island_refusal);
    CU_add_test(s, "capabilities: core allocation, islands under it", test_capabilities_refused);
    return 0;
}
