/* test_pol_packet.c — Packet: hand-computed bundling scenarios
 * (initialization paid once per packet, members in order on the packet's
 * hosts, the node-count rule), the engine's packet checks, and a sanity
 * check against EASY when there is nothing to save. */
#include "bl_sched.h"
#include "bl_test.h"
#include "eng_metrics.h"
#include "pol_registry.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

/* Type 1 initializes in 10 s, type 2 in 20 s (the queue field is the
 * type). */
static const eng_init_time INIT[] = {{.type = 1, .seconds = 10}, {.type = 2, .seconds = 20}};

static long find(const bl_sched *s, int64_t id)
{
    for (size_t i = 0; i < s->prep.n_jobs; i++)
        if (s->prep.jobs[i].id == id)
            return (long)i;
    return -1;
}

/* P1 on 4 hosts, all at t=0: J1 (type 1, 2 nodes, 100 s), J2 (type 1, 1
 * node, 50 s), J3 (type 2, 1 node, 40 s). Type 1 weighs most (2 of 3 jobs).
 * Its packet takes J1 and J2 on k = max(2, ceil(250/3600)) = 2 hosts:
 * J1 pays the 10 s initialization and runs 100 s (2/2 of its work per
 * host): 0-110; J2 follows on the same 2 hosts without initialization, its
 * 50 s on 1 node spread over 2: 110-135. Type 2's packet is J3 alone on 1
 * of the 2 hosts left: 20 + 40, 0-60. */
static void test_one_initialization_per_packet(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 100, 100, 2, 1}, {2, 0, 50, 50, 1, 1}, {3, 0, 40, 40, 1, 2}};
    bl_opts o = {.init_times = INIT, .n_init_times = 2};
    bl_sched s;
    bl_core_run("packet", jobs, 3, bl_uniform_platform(4, 1), &o, &s);
    static const bl_expect e[] = {{1, 0, 110}, {2, 110, 135}, {3, 0, 60}};
    bl_check(&s, e, 3, "P1");
    const eng_job_result *r = eng_core_results(s.core);
    const int32_t *hosts = eng_core_alloc_hosts(s.core);
    long j1 = find(&s, 1), j2 = find(&s, 2), j3 = find(&s, 3);
    CU_ASSERT_DOUBLE_EQUAL(r[j1].init_s, 10, 0);
    CU_ASSERT_DOUBLE_EQUAL(r[j2].init_s, 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(r[j3].init_s, 20, 0);
    CU_ASSERT_EQUAL(r[j1].packet, j1);
    CU_ASSERT_EQUAL(r[j2].packet, j1);
    CU_ASSERT_EQUAL(r[j3].packet, j3);
    /* J2 runs on J1's two hosts */
    CU_ASSERT_EQUAL_FATAL(r[j2].n_hosts, 2);
    CU_ASSERT_EQUAL(hosts[r[j2].hosts_off], hosts[r[j1].hosts_off]);
    CU_ASSERT_EQUAL(hosts[r[j2].hosts_off + 1], hosts[r[j1].hosts_off + 1]);
    CU_ASSERT_EQUAL(r[j2].units, 2);
    /* EASY on the same input pays every initialization: J2 0-60 */
    bl_sched e2;
    bl_core_run("easy", jobs, 3, bl_uniform_platform(4, 1), &o, &e2);
    static const bl_expect ee[] = {{1, 0, 110}, {2, 0, 60}, {3, 0, 60}};
    bl_check(&e2, ee, 3, "P1 easy");
    bl_sched_fini(&e2);
    bl_sched_fini(&s);
}

/* P2: three 1-node type-1 jobs of 80 s and a horizon of 100 s. Members
 * join while the packet's processing (node-seconds / k) stays within 100:
 * J1 alone on 1 host (80); with J2, 160 node-s need 2 hosts (80); with J3,
 * 240 need 3 (80). The packet runs J1, J2, J3 in order on 3 hosts, each
 * spread over them (80/3 s), J1 paying the 5 s initialization. */
static void test_order_and_node_count(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 80, 80, 1, 1}, {2, 0, 80, 80, 1, 1}, {3, 0, 80, 80, 1, 1}};
    static const eng_init_time init[] = {{.type = 1, .seconds = 5}};
    static const pol_kv opt[] = {{"horizon", "100"}};
    bl_opts o = {.init_times = init, .n_init_times = 1, .options = opt, .n_options = 1};
    bl_sched s;
    bl_core_run("packet", jobs, 3, bl_uniform_platform(4, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    double third = 80 * (1.0 / 3);
    double e1 = 5 + third, e2 = e1 + third, e3 = e2 + third;
    bl_expect e[] = {{1, 0, e1}, {2, e1, e2}, {3, e2, e3}};
    bl_check(&s, e, 3, "P2");
    CU_ASSERT_EQUAL(eng_core_results(s.core)[find(&s, 3)].n_hosts, 3);
    /* the fourth host stayed free: the time series never shows 4 busy */
    size_t n;
    const eng_ts_row *ts = eng_core_timeseries(s.core, &n);
    for (size_t i = 0; i < n; i++)
        CU_ASSERT(ts[i].busy_nodes <= 3);
    bl_sched_fini(&s);
}

/* P3 (rounding): type 1 initializes in 0.1 s; J1 and J2, one node, run
 * 64 s and request 64 s (killed at the request). With a 100 s horizon they
 * form one packet on 2 hosts: J1 0.1 + 32 = 32.1, J2 32.1-64.1. Neither
 * reaches its requested time. The kill limit rebuilt as
 * ((64 + 0.1) - 0.1) / 2 = 31.999999999999996 once marked J2 killed at
 * its scaled run of exactly 32. */
static void test_member_at_its_request_is_not_killed(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 64, 64, 1, 1}, {2, 0, 64, 64, 1, 1}};
    static const eng_init_time init[] = {{.type = 1, .seconds = 0.1}};
    static const pol_kv opt[] = {{"horizon", "100"}};
    bl_opts o = {.init_times = init,
                 .n_init_times = 1,
                 .options = opt,
                 .n_options = 1,
                 .walltime = ENG_WALLTIME_KILL};
    bl_sched s;
    bl_core_run("packet", jobs, 2, bl_uniform_platform(4, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    CU_ASSERT_EQUAL(eng_core_results(s.core)[find(&s, 2)].packet, find(&s, 1));
    CU_ASSERT_EQUAL(eng_core_results(s.core)[find(&s, 2)].n_hosts, 2);
    CU_ASSERT_EQUAL(bl_state(&s, 1), ENG_JOB_DONE);
    CU_ASSERT_EQUAL(bl_state(&s, 2), ENG_JOB_DONE);
    CU_ASSERT_DOUBLE_EQUAL(bl_end(&s, 2), 64.1, 1e-9);
    bl_sched_fini(&s);
    /* a member that does run past its request is still killed there:
     * J2 runs 80 s of its 64 s request, scaled 32 s from 32.1 */
    static const bl_jobspec over[] = {{1, 0, 64, 64, 1, 1}, {2, 0, 80, 64, 1, 1}};
    bl_core_run("packet", over, 2, bl_uniform_platform(4, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    CU_ASSERT_EQUAL(bl_state(&s, 2), ENG_JOB_KILLED);
    CU_ASSERT_DOUBLE_EQUAL(bl_end(&s, 2), 64.1, 1e-9);
    bl_sched_fini(&s);
}

/* P4 (no idle hosts): four hosts, four one-node type-1 jobs of 7 200 s at
 * t = 0, no initialization. Each is longer than the 3 600 s horizon, so
 * each is a packet of its own; all four start at once, as under EASY. */
static void test_keeps_forming_packets_while_hosts_are_free(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 7200, 7200, 1, 1},
                                      {2, 0, 7200, 7200, 1, 1},
                                      {3, 0, 7200, 7200, 1, 1},
                                      {4, 0, 7200, 7200, 1, 1}};
    static const bl_expect e[] = {{1, 0, 7200}, {2, 0, 7200}, {3, 0, 7200}, {4, 0, 7200}};
    static const char *const variants[] = {"default", "paper"};
    for (int k = 0; k < 2; k++) {
        pol_kv opt[] = {{"variant", variants[k]}};
        bl_opts o = {.options = opt, .n_options = 1};
        bl_sched s;
        bl_core_run("packet", jobs, 4, bl_uniform_platform(4, 1), &o, &s);
        CU_ASSERT_EQUAL_FATAL(s.rc, 0);
        bl_check(&s, e, 4, variants[k]);
        bl_sched_fini(&s);
    }
}

/* The promises a wrapped Packet made (P5). */
static pol_promise promised[8];
static size_t n_promised;

static int spy_schedule(void *st, const pol_view *v, pol_out *out)
{
    int rc = pol_find("packet")->schedule(st, v, out);
    for (size_t i = 0; i < out->n_promises && n_promised < 8; i++)
        promised[n_promised++] = out->promises[i];
    return rc;
}

/* P5 (reservation, mode=easy): 4 hosts; type 1 initializes in 10 s, the
 * others in 0 s. J1 (type 1, 3 nodes, 100 s) at 0: 0-110, 1 host left. At
 * 1, J2 (type 2, 2 nodes, 100 s) does not fit: it is reserved the hosts
 * J1's packet frees at its planned end, 110 (1 + 3 free then, 2 needed,
 * extra 2), and promised 110. J3 (type 3, 1 node, 500 s), also at 1, runs
 * past 110 but on 1 of the 2 extra hosts: 1-501. J4 (type 3, 1 node, 50 s)
 * at 2 finds no free host. At 110 the reserved J2 starts first (110-210),
 * then J4 on the host left (110-160). Every promise is J2's, by 110. */
static void test_reservation_is_promised(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 100, 100, 3, 1},
                                      {2, 1, 100, 100, 2, 2},
                                      {3, 1, 500, 500, 1, 3},
                                      {4, 2, 50, 50, 1, 3}};
    static const eng_init_time init[] = {
        {.type = 1, .seconds = 10}, {.type = 2, .seconds = 0}, {.type = 3, .seconds = 0}};
    pol_type spy = *pol_find("packet");
    spy.schedule = spy_schedule;
    n_promised = 0;
    bl_opts o = {.init_times = init, .n_init_times = 3};
    eng_platform *p = bl_uniform_platform(4, 1);
    eng_workload *w = bl_make_workload(jobs, 4);
    eng_prepared prep;
    eng_diag d;
    eng_diag_clear(&d);
    eng_prep_opts po = {.init_times = o.init_times, .n_init_times = o.n_init_times};
    CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &po, &prep, &d), 0);
    eng_core_opts co = {.policy = &spy, .check = true};
    eng_core *c = NULL;
    CU_ASSERT_EQUAL_FATAL(eng_core_create(p, &prep, &co, &c, &d), 0);
    CU_ASSERT_EQUAL_FATAL(eng_core_run(c, &d), 0);
    const eng_job_result *r = eng_core_results(c);
    CU_ASSERT_DOUBLE_EQUAL(r[0].start_s, 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(r[1].start_s, 110, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(r[2].start_s, 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(r[3].start_s, 110, 1e-9);
    CU_ASSERT_FATAL(n_promised >= 1);
    CU_ASSERT_EQUAL(promised[0].job_idx, 1);
    CU_ASSERT_DOUBLE_EQUAL(promised[0].start_by_s, 110, 1e-9);
    for (size_t i = 0; i < n_promised; i++)
        CU_ASSERT(promised[i].job_idx == 1 && promised[i].start_by_s <= 110 + 1e-9);
    eng_core_destroy(c);
    eng_prepared_fini(&prep);
    eng_workload_destroy(w);
    eng_platform_destroy(p);
}

/* P6 (variant=paper): 4 hosts; type 1 initializes in 10 s, type 2 in
 * 20 s. J1 (type 1, 3 nodes, 100 s) at 0: 0-110. At 1, J2 (type 2, 2
 * nodes, 100 s) and J3 (type 2, 1 node, 10 s). The paper's reading starts
 * a queue's packet with its head: J2 heads type 2's queue and does not fit
 * (it holds the reservation), so J3 waits with it whatever the reading
 * (select=); at 110 they form one packet, J2 first, on k = 2 hosts:
 * J2 110 + 20 + 100 = 230, J3 (10 s on 1 node over 2) 230-235. The default
 * reading passes J2: J3 alone 1 + 20 + 10 = 1-31, J2 110-230.
 * Pseudo-job accounting (paper): J3 is a pseudo-job; the counted waits are
 * J1 0 and J2 109 (mean 54.5); J2 and J3 wait in the queue 1-110 each, over
 * the makespan 0-235: mean queue 218 / 235. */
static void test_paper_variant(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 100, 100, 3, 1}, {2, 1, 100, 100, 2, 2}, {3, 1, 10, 10, 1, 2}};
    static const pol_kv paper[] = {{"variant", "paper"}};
    bl_opts o = {.init_times = INIT, .n_init_times = 2, .options = paper, .n_options = 1};
    bl_sched s;
    bl_core_run("packet", jobs, 3, bl_uniform_platform(4, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect e[] = {{1, 0, 110}, {2, 110, 230}, {3, 230, 235}};
    bl_check(&s, e, 3, "P6 paper");
    const eng_job_result *r = eng_core_results(s.core);
    CU_ASSERT_EQUAL(r[find(&s, 3)].packet, find(&s, 2));
    CU_ASSERT_DOUBLE_EQUAL(r[find(&s, 3)].init_s, 0, 0);
    size_t n_ts;
    const eng_ts_row *ts = eng_core_timeseries(s.core, &n_ts);
    eng_summary m;
    eng_metrics_compute(&s.prep, r, ts, n_ts, 4, &m);
    CU_ASSERT_EQUAL(m.n_packets, 1);
    CU_ASSERT_EQUAL(m.n_pseudo, 1);
    CU_ASSERT_DOUBLE_EQUAL(m.pk_wait_mean_s, 54.5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(m.pk_wait_median_s, 54.5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(m.pk_queue_mean, 218.0 / 235, 1e-9);
    /* every job counted as usual: (0 + 109 + 229) / 3 */
    CU_ASSERT_DOUBLE_EQUAL(m.wait_mean_s, 338.0 / 3, 1e-9);
    bl_sched_fini(&s);

    bl_opts od = {.init_times = INIT, .n_init_times = 2};
    bl_core_run("packet", jobs, 3, bl_uniform_platform(4, 1), &od, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect ed[] = {{1, 0, 110}, {2, 110, 230}, {3, 1, 31}};
    bl_check(&s, ed, 3, "P6 default");
    eng_metrics_compute(&s.prep, eng_core_results(s.core), NULL, 0, 4, &m);
    CU_ASSERT_EQUAL(m.n_pseudo, 0); /* packets of one job: nothing to leave out */
    bl_sched_fini(&s);
}

/* P8 (variant=paper, select=): 4 hosts; type 1 initializes in 10 s, type 2
 * in 20 s. J1 (type 1, 3 nodes, 100 s) at 0: 0-110, 1 host left. At 1, J2
 * (type 2, 4 nodes, 100 s), J3 (type 2, 1 node, 10 s) and J4 (type 1, 1
 * node, r s). Type 2 weighs 2/3, type 1 1/3 (no age yet): type 2's head
 * packet, J2 first, is the top one and does not fit. When J2 starts, J3
 * joins its packet on J2's 4 hosts: J2 + 20 + 100, J3 10 s on 1 node over
 * 4: 2.5 s.
 * - select=block: nothing starts until J2 does. At 110 the weights are
 *   2/3 + 1 and 1/3 + 1: J2 110-230, J3 230-232.5; J4 then from 232.5.
 * - select=backfill (the default): J2 holds a reservation for 110 (J1's
 *   planned end) with no host to spare; J4 starts now only if it ends by
 *   then: r = 50 ends at 1 + 10 + 50 = 61 and starts at 1; r = 200 would
 *   end at 211 and waits as under block. J2 110-230 either way.
 * - select=pass: the next queue's packet starts whatever its end: J4 at 1
 *   (r = 200: 1-211, and J2 waits for 4 hosts: 211-331, J3 331-333.5).
 * Pseudo-job accounting: J3 is a pseudo-job; the counted waits are those
 * of J1 (0), J2 and J4. */
static void test_paper_select(void)
{
    static const struct {
        double r;           /* J4's run time */
        const char *select; /* NULL: the default */
        bl_expect e[4];
        double pk_wait;
    } cases[] = {
        {200, "block", {{1, 0, 110}, {2, 110, 230}, {3, 230, 232.5}, {4, 232.5, 442.5}}, 340.5 / 3},
        {200,
         "backfill",
         {{1, 0, 110}, {2, 110, 230}, {3, 230, 232.5}, {4, 232.5, 442.5}},
         340.5 / 3},
        {200, "pass", {{1, 0, 110}, {2, 211, 331}, {3, 331, 333.5}, {4, 1, 211}}, 210.0 / 3},
        {50, "block", {{1, 0, 110}, {2, 110, 230}, {3, 230, 232.5}, {4, 232.5, 292.5}}, 340.5 / 3},
        {50, "backfill", {{1, 0, 110}, {2, 110, 230}, {3, 230, 232.5}, {4, 1, 61}}, 109.0 / 3},
        {50, NULL, {{1, 0, 110}, {2, 110, 230}, {3, 230, 232.5}, {4, 1, 61}}, 109.0 / 3},
        {50, "pass", {{1, 0, 110}, {2, 110, 230}, {3, 230, 232.5}, {4, 1, 61}}, 109.0 / 3},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const bl_jobspec jobs[] = {{1, 0, 100, 100, 3, 1},
                                   {2, 1, 100, 100, 4, 2},
                                   {3, 1, 10, 10, 1, 2},
                                   {4, 1, cases[c].r, cases[c].r, 1, 1}};
        pol_kv opt[] = {{"variant", "paper"}, {"select", cases[c].select}};
        bl_opts o = {.init_times = INIT,
                     .n_init_times = 2,
                     .options = opt,
                     .n_options = cases[c].select ? 2 : 1};
        bl_sched s;
        bl_core_run("packet", jobs, 4, bl_uniform_platform(4, 1), &o, &s);
        CU_ASSERT_EQUAL_FATAL(s.rc, 0);
        bl_check(&s, cases[c].e, 4, cases[c].select ? cases[c].select : "default select");
        const eng_job_result *r = eng_core_results(s.core);
        CU_ASSERT_EQUAL(r[find(&s, 3)].packet, find(&s, 2));
        eng_summary m;
        eng_metrics_compute(&s.prep, r, NULL, 0, 4, &m);
        CU_ASSERT_EQUAL(m.n_pseudo, 1);
        CU_ASSERT_DOUBLE_EQUAL(m.pk_wait_mean_s, cases[c].pk_wait, 1e-9);
        bl_sched_fini(&s);
    }
}

/* The backfill reading promises its reservation: P8's J2, by 110. */
static void test_paper_backfill_promises(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 100, 100, 3, 1},
                                      {2, 1, 100, 100, 4, 2},
                                      {3, 1, 10, 10, 1, 2},
                                      {4, 1, 200, 200, 1, 1}};
    static const pol_kv opt[] = {{"variant", "paper"}, {"select", "backfill"}};
    pol_type spy = *pol_find("packet");
    spy.schedule = spy_schedule;
    n_promised = 0;
    eng_platform *p = bl_uniform_platform(4, 1);
    eng_workload *w = bl_make_workload(jobs, 4);
    eng_prepared prep;
    eng_diag d;
    eng_diag_clear(&d);
    eng_prep_opts po = {.init_times = INIT, .n_init_times = 2};
    CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &po, &prep, &d), 0);
    eng_core_opts co = {.policy = &spy, .options = opt, .n_options = 2, .check = true};
    eng_core *c = NULL;
    CU_ASSERT_EQUAL_FATAL(eng_core_create(p, &prep, &co, &c, &d), 0);
    CU_ASSERT_EQUAL_FATAL(eng_core_run(c, &d), 0);
    CU_ASSERT_DOUBLE_EQUAL(eng_core_results(c)[1].start_s, 110, 1e-9);
    CU_ASSERT_FATAL(n_promised >= 1);
    for (size_t i = 0; i < n_promised; i++)
        CU_ASSERT(promised[i].job_idx == 1 && fabs(promised[i].start_by_s - 110) < 1e-9);
    eng_core_destroy(c);
    eng_prepared_fini(&prep);
    eng_workload_destroy(w);
    eng_platform_destroy(p);
}

/* P7 (scaling=none, max_members=1): 4 hosts, type 1 initializes in 10 s;
 * J1 (1 node, 100 s), J2 (2 nodes, 100 s), J3 (1 node, 100 s) at 0.
 * Linear scaling puts all three on k = 2 hosts: J1 10 + 50 = 0-60, J2
 * 60-160, J3 160-210. scaling=none bundles only equal widths on their own
 * node count: J1 and J3 on 1 host (0-110, 110-210), J2 alone on 2 (0-110).
 * max_members=1: every job alone pays the initialization: all 0-110. */
static void test_ablations(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 100, 100, 1, 1}, {2, 0, 100, 100, 2, 1}, {3, 0, 100, 100, 1, 1}};
    static const eng_init_time init[] = {{.type = 1, .seconds = 10}};
    static const pol_kv none[] = {{"scaling", "none"}}, one[] = {{"max_members", "1"}};
    struct {
        const pol_kv *opt;
        size_t n_opt;
        bl_expect e[3];
        int32_t hosts3;
    } cases[] = {
        {NULL, 0, {{1, 0, 60}, {2, 60, 160}, {3, 160, 210}}, 2},
        {none, 1, {{1, 0, 110}, {2, 0, 110}, {3, 110, 210}}, 1},
        {one, 1, {{1, 0, 110}, {2, 0, 110}, {3, 0, 110}}, 1},
    };
    for (size_t c = 0; c < 3; c++) {
        bl_opts o = {.init_times = init,
                     .n_init_times = 1,
                     .options = cases[c].opt,
                     .n_options = cases[c].n_opt};
        bl_sched s;
        bl_core_run("packet", jobs, 3, bl_uniform_platform(4, 1), &o, &s);
        CU_ASSERT_EQUAL_FATAL(s.rc, 0);
        bl_check(&s, cases[c].e, 3, "P7");
        CU_ASSERT_EQUAL(eng_core_results(s.core)[find(&s, 3)].n_hosts, cases[c].hosts3);
        bl_sched_fini(&s);
    }
}

/* The islands of the hosts of job id's run (positions in a..b order of
 * bl_island_platform): a bit per island, 1 for a, 2 for b. */
static unsigned islands_of(const bl_sched *s, int64_t id)
{
    const eng_job_result *r = eng_core_results(s->core);
    const int32_t *hosts = eng_core_alloc_hosts(s->core);
    long i = find(s, id);
    unsigned mask = 0;
    for (int32_t h = 0; i >= 0 && h < r[i].n_hosts; h++)
        mask |= 1u << s->p->hosts[hosts[r[i].hosts_off + (size_t)h]].island;
    return mask;
}

/* The first host of job id's run, by name. */
static const char *first_host(const bl_sched *s, int64_t id)
{
    const eng_job_result *r = eng_core_results(s->core);
    long i = find(s, id);
    if (i < 0 || r[i].n_hosts == 0)
        return "";
    return s->p->hosts[eng_core_alloc_hosts(s->core)[r[i].hosts_off]].name;
}

/* I1 (islands a: a1-a3, b: b1-b2, whole nodes; as
 * platforms/test/islands-3-2.xml): four 1-node type-1 jobs of 100 s at 0,
 * horizon 100, type 1 initializes in 10 s. Without islands they form one
 * packet on k = ceil(400 / 100) = 4 hosts a1, a2, a3, b1 (25 s each:
 * J1 0-35, J2 35-60, J3 60-85, J4 85-110). With islands a packet of
 * 1-node members stays in one island, at most 3 hosts (a's): with J4,
 * 400 node-s on 3 hosts plan 133 s > 100, so the packet closes at J3:
 * J1, J2, J3 on a1-a3 (100/3 s each after the 10 s initialization). J4
 * forms the next packet, alone: 1 host, best fit in b (2 free): b1,
 * 0-110. */
static void test_islands_packet_within_one(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 100, 100, 1, 1},
                                      {2, 0, 100, 100, 1, 1},
                                      {3, 0, 100, 100, 1, 1},
                                      {4, 0, 100, 100, 1, 1}};
    static const eng_init_time init[] = {{.type = 1, .seconds = 10}};
    static const pol_kv opt[] = {{"horizon", "100"}};
    static const int sizes[] = {3, 2};
    bl_opts o = {.init_times = init, .n_init_times = 1, .options = opt, .n_options = 1};
    bl_sched s;
    bl_core_run("packet", jobs, 4, bl_island_platform(sizes, 2, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    double third = 100 * (1.0 / 3), e1 = 10 + third, e2 = e1 + third, e3 = e2 + third;
    bl_expect e[] = {{1, 0, e1}, {2, e1, e2}, {3, e2, e3}, {4, 0, 110}};
    bl_check(&s, e, 4, "I1 islands");
    const eng_job_result *r = eng_core_results(s.core);
    CU_ASSERT_EQUAL(r[find(&s, 3)].packet, find(&s, 1));
    CU_ASSERT_EQUAL(r[find(&s, 1)].n_hosts, 3);
    CU_ASSERT_EQUAL(islands_of(&s, 1), 1u);
    CU_ASSERT_EQUAL(islands_of(&s, 3), 1u);
    CU_ASSERT_EQUAL(r[find(&s, 4)].packet, find(&s, 4));
    CU_ASSERT_STRING_EQUAL(first_host(&s, 4), "b1");
    bl_sched_fini(&s);

    o.ignore_islands = true;
    bl_core_run("packet", jobs, 4, bl_island_platform(sizes, 2, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    static const bl_expect ei[] = {{1, 0, 35}, {2, 35, 60}, {3, 60, 85}, {4, 85, 110}};
    bl_check(&s, ei, 4, "I1 --islands ignore");
    CU_ASSERT_EQUAL(eng_core_results(s.core)[find(&s, 4)].n_hosts, 4);
    CU_ASSERT_EQUAL(islands_of(&s, 4), 3u); /* spans a and b */
    bl_sched_fini(&s);
}

/* I2 (islands a: a1-a3, b: b1-b2, whole nodes, no initialization; also
 * run through SimGrid on platforms/test/islands-3-2.xml), one type per
 * job. At 0, J1 (1 node, 100 s) best fits b (2 free against 3):
 * b1; J2 (2 nodes, 50 s) then best fits a (3 free against 1): a1-a2. At 1,
 * J3 (2 nodes, 10 s), J4 and J5 (1 node, 200 s each) arrive: two hosts
 * are free (a3, b2) but no island has two, so J3 waits. Its reservation:
 * at J2's planned end, 50, island a has 3 free (b 1): shadow time 50,
 * extra hosts 3 - 2 = 1, promised. J4 runs past 50 on the one extra host
 * (best fit for 1 node, a and b tied at 1 free: a, a3), 1-201; J5 would
 * take a second one and waits. At 50 J3 starts on a1-a2 (50-60), then J5
 * on b2 (50-250). variant=paper (select=backfill) reads the same here;
 * mode=greedy keeps no reservation: J5 1-201 on b2, and J3 still 50-60.
 * With --islands ignore J3 starts at 1 on the two free hosts. */
static void test_islands_blocked_start_keeps_reservation(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 100, 100, 1, 1},
                                      {2, 0, 50, 50, 2, 2},
                                      {3, 1, 10, 10, 2, 3},
                                      {4, 1, 200, 200, 1, 4},
                                      {5, 1, 200, 200, 1, 5}};
    static const int sizes[] = {3, 2};
    static const pol_kv paper[] = {{"variant", "paper"}}, greedy[] = {{"mode", "greedy"}};
    static const struct {
        const pol_kv *opt;
        const char *what;
        bl_expect e[5];
        bool promises;
    } cases[] = {
        {NULL, "I2 default", {{1, 0, 100}, {2, 0, 50}, {3, 50, 60}, {4, 1, 201}, {5, 50, 250}}, 1},
        {paper, "I2 paper", {{1, 0, 100}, {2, 0, 50}, {3, 50, 60}, {4, 1, 201}, {5, 50, 250}}, 1},
        {greedy, "I2 greedy", {{1, 0, 100}, {2, 0, 50}, {3, 50, 60}, {4, 1, 201}, {5, 1, 201}}, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        pol_type spy = *pol_find("packet");
        spy.schedule = spy_schedule;
        n_promised = 0;
        bl_opts o = {
            .options = cases[c].opt, .n_options = cases[c].opt ? 1 : 0, .policy_type = &spy};
        bl_sched s;
        bl_core_run("packet", jobs, 5, bl_island_platform(sizes, 2, 1), &o, &s);
        CU_ASSERT_EQUAL_FATAL(s.rc, 0);
        bl_check(&s, cases[c].e, 5, cases[c].what);
        CU_ASSERT_STRING_EQUAL(first_host(&s, 1), "b1");
        CU_ASSERT_STRING_EQUAL(first_host(&s, 2), "a1");
        CU_ASSERT_STRING_EQUAL(first_host(&s, 3), "a1");
        CU_ASSERT_EQUAL(islands_of(&s, 3), 1u);
        CU_ASSERT_STRING_EQUAL(first_host(&s, 4), "a3");
        CU_ASSERT_STRING_EQUAL(first_host(&s, 5), "b2");
        if (cases[c].promises) {
            CU_ASSERT_FATAL(n_promised >= 1);
            for (size_t i = 0; i < n_promised; i++)
                CU_ASSERT(promised[i].job_idx == find(&s, 3) &&
                          fabs(promised[i].start_by_s - 50) < 1e-9);
        } else {
            CU_ASSERT_EQUAL(n_promised, 0);
        }
        bl_sched_fini(&s);
        /* the same through SimGrid on platforms/test/islands-3-2.xml,
         * checker on */
        o.policy_type = NULL;
        eng_run_report rep;
        eng_diag d;
        eng_diag_clear(&d);
        CU_ASSERT_EQUAL_FATAL(
            bl_sim_run("packet", jobs, 5, bl_src("platforms/test/islands-3-2.xml"), &o, &rep, &d),
            0);
        bl_check_rep(&rep, cases[c].e, 5, cases[c].what);
        eng_run_report_fini(&rep);
    }
    bl_opts o = {.ignore_islands = true};
    bl_sched s;
    bl_core_run("packet", jobs, 5, bl_island_platform(sizes, 2, 1), &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    CU_ASSERT_DOUBLE_EQUAL(bl_start(&s, 3), 1, 0);
    bl_sched_fini(&s);
}

/* Options. */
/* Packets size jobs in whole hosts of the pool's core count. On hosts of
 * 2, 6, 6 and 6 cores a job of 9 cores would need 5 hosts of 2 (it once
 * waited forever, the simulation never ending with failures on): under
 * core allocation such a pool is refused with a message, as the engine's
 * other refusals are; equal hosts run. */
static void test_core_allocation_needs_equal_hosts(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 5, 10, 9, 0}};
    static const int cores[] = {2, 6, 6, 6};
    eng_host_desc d[4];
    char names[4][16];
    for (int i = 0; i < 4; i++) {
        snprintf(names[i], sizeof names[i], "n%d", i + 1);
        d[i] = (eng_host_desc){.name = names[i], .speed_flops = 1e9, .sg_cores = cores[i]};
    }
    eng_platform *p = NULL;
    eng_diag diag;
    eng_diag_clear(&diag);
    CU_ASSERT_EQUAL_FATAL(eng_platform_build("uneven", d, 4, NULL, &p, &diag), 0);
    bl_opts o = {.alloc = POL_ALLOC_CORE};
    bl_sched s;
    bl_core_run("packet", jobs, 1, p, &o, &s);
    CU_ASSERT_EQUAL(s.rc, ENG_USAGE);
    CU_ASSERT(bl_contains(s.diag.msg, "under --alloc core the hosts of a pool need one core "
                                      "count (n1 has 2, n2 has 6)"));
    bl_sched_fini(&s);
    CU_ASSERT_EQUAL(bl_core_run("packet", jobs, 1, bl_uniform_platform(2, 6), &o, &s), 0);
    CU_ASSERT_EQUAL(bl_start(&s, 1), 0);
    bl_sched_fini(&s);
}

static void test_options(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 10, 10, 1, 1}};
    static const pol_kv bad[] = {{"mode", "lazy"}};
    bl_opts o = {.options = bad, .n_options = 1};
    bl_sched s;
    bl_core_run("packet", jobs, 1, bl_uniform_platform(4, 1), &o, &s);
    CU_ASSERT_EQUAL(s.rc, ENG_INVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "option mode: expected easy or greedy"));
    bl_sched_fini(&s);
    static const pol_kv bounds[][2] = {
        {{"horizon", "0"}},
        {{"horizon", "inf"}},
        {{"horizon", "nan"}},
        {{"horizon", "1e400"}},
        {{"max_members", "1e30"}},
        {{"max_members", "-1"}},
        {{"max_members", "2.5"}},
        {{"max_members", "2147483648"}},
        {{"max_members", ""}},
        {{"variant", "alea"}},
        {{"scaling", "log"}},
        {{"variant", "paper"}, {"mode", "greedy"}},
        {{"select", "pass"}},
        {{"variant", "paper"}, {"select", "first"}},
        {{"variant", "paper"}, {"mode", "easy"}},
    };
    for (size_t i = 0; i < sizeof bounds / sizeof *bounds; i++) {
        o.options = bounds[i];
        o.n_options = bounds[i][1].key ? 2 : 1;
        bl_core_run("packet", jobs, 1, bl_uniform_platform(4, 1), &o, &s);
        CU_ASSERT_EQUAL(s.rc, ENG_INVAL);
        CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "option"));
        bl_sched_fini(&s);
    }
    static const pol_kv most[] = {{"max_members", "2147483647"}};
    o.options = most;
    o.n_options = 1;
    bl_core_run("packet", jobs, 1, bl_uniform_platform(4, 1), &o, &s);
    CU_ASSERT_EQUAL(s.rc, 0);
    bl_sched_fini(&s);
}

/* The engine refuses broken packets: a member on other hosts than its
 * packet's, or while the previous member still runs. */
static int bad_packet_schedule(void *st, const pol_view *v, pol_out *out)
{
    int *mode = st;
    (void)mode;
    if (v->n_queue >= 2 && v->n_running == 0 && v->free_units == v->total_units) {
        int32_t h0 = 0, h1 = 1;
        pol_out_start_packet(out, v->queue[0], v->queue[0]->idx, &h0, 1);
        /* second member at once, on another host: refused */
        pol_out_start_packet(out, v->queue[1], v->queue[0]->idx, &h1, 1);
    }
    return 0;
}

static void test_engine_checks(void)
{
    const pol_type bad = {
        .name = "badpacket", .state_size = sizeof(int), .schedule = bad_packet_schedule};
    static const bl_jobspec jobs[] = {{1, 0, 10, 10, 1, 1}, {2, 0, 10, 10, 1, 1}};
    eng_platform *p = bl_uniform_platform(4, 1);
    eng_workload *w = bl_make_workload(jobs, 2);
    eng_prepared prep;
    eng_diag d;
    eng_diag_clear(&d);
    eng_prep_opts po = {0};
    CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &po, &prep, &d), 0);
    eng_core_opts co = {.policy = &bad, .check = true};
    eng_core *c = NULL;
    CU_ASSERT_EQUAL_FATAL(eng_core_create(p, &prep, &co, &c, &d), 0);
    CU_ASSERT_EQUAL(eng_core_run(c, &d), ENG_INVARIANT);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "while its previous member still runs"));
    eng_core_destroy(c);
    eng_prepared_fini(&prep);
    eng_workload_destroy(w);
    eng_platform_destroy(p);
}

/* With nothing to save (no initialization), Packet must stay close to
 * EASY: every job runs, and the mean bounded slowdown is at most twice
 * EASY's, on random workloads of 4 types. */
static void test_sane_without_initialization(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11);
    for (int round = 0; round < 3; round++) {
        enum { N = 400 };
        bl_jobspec jobs[N];
        double t = 0;
        for (int i = 0; i < N; i++) {
            t += floor(gsl_ran_exponential(r, 30));
            double run = 60 + floor(gsl_ran_exponential(r, 600));
            jobs[i] = (bl_jobspec){i + 1,
                                   t,
                                   run,
                                   ceil(run * 1.5),
                                   1 + (int)gsl_rng_uniform_int(r, 8),
                                   1 + (int64_t)gsl_rng_uniform_int(r, 4)};
        }
        double bsld[2];
        const char *pol[2] = {"easy", "packet"};
        for (int k = 0; k < 2; k++) {
            bl_sched s;
            bl_core_run(pol[k], jobs, N, bl_uniform_platform(32, 1), NULL, &s);
            CU_ASSERT_EQUAL_FATAL(s.rc, 0);
            size_t n_ts;
            const eng_ts_row *ts = eng_core_timeseries(s.core, &n_ts);
            eng_summary m;
            eng_metrics_compute(&s.prep, eng_core_results(s.core), ts, n_ts, 32, &m);
            CU_ASSERT_EQUAL(m.n_simulated, N);
            bsld[k] = m.bsld_mean;
            bl_sched_fini(&s);
        }
        printf("\n  round %d: bounded slowdown easy %.2f, packet %.2f", round, bsld[0], bsld[1]);
        CU_ASSERT(bsld[1] <= 2 * bsld[0]);
    }
    gsl_rng_free(r);
}

int bl_suite_pol_packet(void)
{
    CU_pSuite s = CU_add_suite("pol_packet", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "one initialization per packet", test_one_initialization_per_packet);
    CU_add_test(s, "members in order, node count within the horizon", test_order_and_node_count);
    CU_add_test(s, "a member run to its request is not killed",
                test_member_at_its_request_is_not_killed);
    CU_add_test(s, "packets while hosts are free and jobs fit",
                test_keeps_forming_packets_while_hosts_are_free);
    CU_add_test(s, "mode=easy promises its reservation", test_reservation_is_promised);
    CU_add_test(s, "variant=paper and its pseudo-job accounting", test_paper_variant);
    CU_add_test(s, "variant=paper: select=block|pass|backfill", test_paper_select);
    CU_add_test(s, "variant=paper, select=backfill promises its reservation",
                test_paper_backfill_promises);
    CU_add_test(s, "ablations: scaling=none, max_members=1", test_ablations);
    CU_add_test(s, "islands: a packet within one island", test_islands_packet_within_one);
    CU_add_test(s, "islands: a start blocked by islands keeps its reservation",
                test_islands_blocked_start_keeps_reservation);
    CU_add_test(s, "options", test_options);
    CU_add_test(s, "core allocation needs hosts of one size",
                test_core_allocation_needs_equal_hosts);
    CU_add_test(s, "the engine refuses broken packets", test_engine_checks);
    CU_add_test(s, "sane against EASY without initialization", test_sane_without_initialization);
    return 0;
}
