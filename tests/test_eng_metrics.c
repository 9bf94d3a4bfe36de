/* test_eng_metrics.c — metric known answers on the EASY schedule of S1
 * (4 hosts): J1 2 hosts 0-10, J2 4 hosts 10-15 (submitted 1), J3 2 hosts
 * 2-10. */
#include "bl_scenarios.h"
#include "bl_test.h"
#include "eng_metrics.h"

#include <math.h>

static void test_known_answers(void)
{
    bl_sched s;
    bl_core_run("easy", S1, N_OF(S1), bl_uniform_platform(4, 1), NULL, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    size_t n_ts;
    const eng_ts_row *ts = eng_core_timeseries(s.core, &n_ts);
    eng_summary m;
    CU_ASSERT_EQUAL(eng_metrics_compute(&s.prep, eng_core_results(s.core), ts, n_ts, 4, &m), 0);
    CU_ASSERT_EQUAL(m.n_simulated, 3);
    CU_ASSERT_EQUAL(m.n_completed, 3);
    CU_ASSERT_EQUAL(m.n_killed, 0);
    /* waits 0, 9, 0 */
    CU_ASSERT_DOUBLE_EQUAL(m.wait_mean_s, 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.wait_median_s, 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(m.wait_max_s, 9, 0);
    CU_ASSERT_DOUBLE_EQUAL(m.wait_p95_s, 9, 0); /* nearest rank: ceil(0.95*3) = 3rd */
    /* responses 10, 14, 8 */
    CU_ASSERT_DOUBLE_EQUAL(m.response_mean_s, 32.0 / 3, 1e-12);
    /* slowdowns 1, 14/5, 1 */
    CU_ASSERT_DOUBLE_EQUAL(m.slowdown_mean, (1 + 2.8 + 1) / 3, 1e-12);
    /* bounded: max(1, 10/10), 14/max(5,10), max(1, 8/10) */
    CU_ASSERT_DOUBLE_EQUAL(m.bsld_mean, (1 + 1.4 + 1) / 3, 1e-12);
    /* busy 2*10 + 4*5 + 2*8 = 56 unit-seconds over 4 units x 15 s */
    CU_ASSERT_DOUBLE_EQUAL(m.utilization, 56.0 / 60, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.makespan_s, 15, 0);
    /* one job waits during [1, 10): 9 / 15 */
    CU_ASSERT_DOUBLE_EQUAL(m.queue_mean, 0.6, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.queue_max, 1, 0);
    bl_sched_fini(&s);
}

/* Kills, zero run times (left out of the plain slowdown), even medians. */
static void test_kills_and_zero_runs(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 50, 30, 2, 0}, /* killed at 30 */
        {2, 0, 0, 5, 2, 0},   /* zero run time */
        {3, 0, 10, 10, 2, 0}, /* waits 0 (2 hosts free after J2) */
        {4, 0, 10, 10, 4, 0}, /* waits until 30 */
    };
    bl_sched s;
    bl_core_run("fcfs", jobs, 4, bl_uniform_platform(4, 1), NULL, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    size_t n_ts;
    const eng_ts_row *ts = eng_core_timeseries(s.core, &n_ts);
    eng_summary m;
    eng_metrics_compute(&s.prep, eng_core_results(s.core), ts, n_ts, 4, &m);
    CU_ASSERT_EQUAL(m.n_killed, 1);
    CU_ASSERT_EQUAL(m.n_completed, 3);
    CU_ASSERT_EQUAL(m.n_slowdown, 3);
    /* J3 starts when J2 ends at 0: waits 0, 0, 0, 30 -> median 0, mean 7.5 */
    CU_ASSERT_DOUBLE_EQUAL(m.wait_mean_s, 7.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.wait_median_s, 0, 0);
    /* busy 2*30 + 0 + 2*10 + 4*10 = 120 over 4 x 40 */
    CU_ASSERT_DOUBLE_EQUAL(m.utilization, 120.0 / 160, 1e-12);
    bl_sched_fini(&s);
}

/* Cost: price x time held x share of the host's cores. Hosts a (price 2,
 * 2 cores) and b (price 0.5, 2 cores), core allocation, first fit. */
static void test_cost(void)
{
    eng_host_desc d[] = {
        {.name = "a", .speed_flops = 1e9, .sg_cores = 2, .price_per_s = "2"},
        {.name = "b", .speed_flops = 1e9, .sg_cores = 2, .price_per_s = "0.5"},
    };
    eng_platform *p = NULL;
    eng_diag diag;
    eng_diag_clear(&diag);
    CU_ASSERT_EQUAL_FATAL(eng_platform_build("cost", d, 2, NULL, &p, &diag), 0);
    /* J1: 2 cores on a, 0-10; J2: 1 core on b, 0-20; J3: 1 core on b, 0-4 */
    static const bl_jobspec jobs[] = {
        {1, 0, 10, 10, 2, 0}, {2, 0, 20, 20, 1, 0}, {3, 0, 4, 4, 1, 0}};
    bl_opts o = {.alloc = POL_ALLOC_CORE};
    bl_sched s;
    bl_core_run("fcfs", jobs, 3, p, &o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    const eng_job_result *r = eng_core_results(s.core);
    const eng_host_run *runs = eng_core_alloc_runs(s.core);
    CU_ASSERT_DOUBLE_EQUAL(eng_job_cost(p, &r[0], runs), 2 * 10.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(eng_job_cost(p, &r[1], runs), 0.5 * 20 / 2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(eng_job_cost(p, &r[2], runs), 0.5 * 4 / 2, 1e-12);
    eng_summary m = {0};
    eng_metrics_cost(p, r, 3, runs, &m);
    CU_ASSERT_DOUBLE_EQUAL(m.cost, 20 + 5 + 1, 1e-12);
    bl_sched_fini(&s);
}

/* Sets the logged wait (SWF field 3) of job id in the run's workload. */
static void set_logged_wait(bl_sched *s, int64_t id, double wait_s)
{
    for (size_t i = 0; i < s->w->n_jobs; i++)
        if (s->w->jobs[i].id == id)
            s->w->jobs[i].wait_s = wait_s;
}

/* Agreement with the log on S1 under EASY, whose simulated waits are
 * J1 0, J2 9, J3 0. */
static void test_log_agreement(void)
{
    bl_sched s;
    bl_core_run("easy", S1, N_OF(S1), bl_uniform_platform(4, 1), NULL, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    const eng_job_result *r = eng_core_results(s.core);
    eng_summary m = {0};

    /* No logged wait (field 3 is -1 throughout): nothing to compare. */
    CU_ASSERT_EQUAL(eng_metrics_log_agreement(s.w, &s.prep, r, &m), 0);
    CU_ASSERT_EQUAL(m.log.jobs, 0);

    /* Logged 4, 1, 9. Means 14/3 logged and 3 simulated; absolute
     * differences 4, 8, 9: mean 7. Ranks: logged (2, 1, 3); simulated
     * (1.5, 3, 1.5), the tie at 0 sharing ranks 1 and 2. Centred: (0, -1, 1)
     * and (-0.5, 1, -0.5); covariance -1.5, squares 2 and 1.5, so
     * rho = -1.5 / sqrt(3) = -sqrt(3) / 2. */
    set_logged_wait(&s, 1, 4);
    set_logged_wait(&s, 2, 1);
    set_logged_wait(&s, 3, 9);
    CU_ASSERT_EQUAL(eng_metrics_log_agreement(s.w, &s.prep, r, &m), 0);
    CU_ASSERT_EQUAL(m.log.jobs, 3);
    CU_ASSERT_DOUBLE_EQUAL(m.log.wait_mean_log_s, 14.0 / 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.log.wait_mean_sim_s, 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.log.wait_mae_s, 7, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.log.wait_spearman, -sqrt(3) / 2, 1e-12);

    /* J3's wait unknown: J1 and J2 only. Logged 5, 3; simulated 0, 9:
     * means 4 and 4.5, differences 5 and 6, ranks reversed: rho = -1. */
    set_logged_wait(&s, 1, 5);
    set_logged_wait(&s, 2, 3);
    set_logged_wait(&s, 3, -1);
    CU_ASSERT_EQUAL(eng_metrics_log_agreement(s.w, &s.prep, r, &m), 0);
    CU_ASSERT_EQUAL(m.log.jobs, 2);
    CU_ASSERT_DOUBLE_EQUAL(m.log.wait_mean_log_s, 4, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.log.wait_mean_sim_s, 4.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.log.wait_mae_s, 5.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.log.wait_spearman, -1, 1e-12);

    /* Logged waits all equal: no rank correlation (NAN, null in JSON). */
    set_logged_wait(&s, 1, 7);
    set_logged_wait(&s, 2, 7);
    CU_ASSERT_EQUAL(eng_metrics_log_agreement(s.w, &s.prep, r, &m), 0);
    CU_ASSERT_EQUAL(m.log.jobs, 2);
    CU_ASSERT_DOUBLE_EQUAL(m.log.wait_mae_s, (7 + 2) / 2.0, 1e-12);
    CU_ASSERT_TRUE(isnan(m.log.wait_spearman));

    /* One job: means and difference, no correlation. */
    set_logged_wait(&s, 2, -1);
    CU_ASSERT_EQUAL(eng_metrics_log_agreement(s.w, &s.prep, r, &m), 0);
    CU_ASSERT_EQUAL(m.log.jobs, 1);
    CU_ASSERT_DOUBLE_EQUAL(m.log.wait_mae_s, 7, 1e-12);
    CU_ASSERT_TRUE(isnan(m.log.wait_spearman));
    bl_sched_fini(&s);
}

/* Jobs that never ran to their end are not compared: J1 is killed at its
 * requested time (it counts), J2 asks for more hosts than exist (dropped). */
static void test_log_agreement_job_set(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 50, 30, 2, 0}, /* killed at 30: wait 0 */
        {2, 0, 10, 10, 8, 0}, /* dropped: 8 hosts on 4 */
        {3, 5, 10, 10, 4, 0}, /* waits 25 */
    };
    bl_sched s;
    bl_core_run("fcfs", jobs, N_OF(jobs), bl_uniform_platform(4, 1), NULL, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    set_logged_wait(&s, 1, 10);
    set_logged_wait(&s, 2, 100);
    set_logged_wait(&s, 3, 5);
    eng_summary m = {0};
    CU_ASSERT_EQUAL(eng_metrics_log_agreement(s.w, &s.prep, eng_core_results(s.core), &m), 0);
    CU_ASSERT_EQUAL(m.log.jobs, 2);
    /* logged 10, 5; simulated 0, 25 */
    CU_ASSERT_DOUBLE_EQUAL(m.log.wait_mean_log_s, 7.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.log.wait_mean_sim_s, 12.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.log.wait_mae_s, 15, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.log.wait_spearman, -1, 1e-12);
    bl_sched_fini(&s);
}

/* Jobs cancelled before they started (SWF status 5, run time 0): their
 * logged "wait" is the time until the cancellation, not a wait for
 * processors, so they are left out of the comparison and counted apart.
 * FCFS on 4 hosts:
 *   J1 submit 0, run 20, 4 hosts: starts 0 (logged wait 2, simulated 0)
 *   J2 submit 5, run 0, 2 hosts, status 5: replayed as a zero-length job,
 *      starts at 20 (simulated 15; logged 100): left out, counted
 *   J3 submit 10, run 10, 2 hosts: starts 20 (logged 4, simulated 10)
 *   J5 submit 15, run 5, 4 hosts, status 5 with a run time: it started
 *      before its cancellation, so it is compared: starts 30 when J3 ends
 *      (logged 6, simulated 15)
 *   J4 submit 16, run 0, 1 host, status 5, no logged wait: left out for
 *      that, not counted as cancelled
 * Compared: J1, J3, J5. Logged 2, 4, 6: mean 4; simulated 0, 10, 15: mean
 * 25/3; differences 2, 6, 9: mean 17/3; same ranks: Spearman 1. */
static void test_log_agreement_cancelled(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 20, 20, 4, 0}, {2, 5, 0, 10, 2, 0},  {3, 10, 10, 10, 2, 0},
        {5, 15, 5, 10, 4, 0}, {4, 16, 0, 10, 1, 0},
    };
    bl_sched s;
    bl_core_run("fcfs", jobs, N_OF(jobs), bl_uniform_platform(4, 1), NULL, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    CU_ASSERT_EQUAL(bl_start(&s, 1), 0);
    CU_ASSERT_EQUAL(bl_start(&s, 2), 20);
    CU_ASSERT_EQUAL(bl_end(&s, 2), 20);
    CU_ASSERT_EQUAL(bl_start(&s, 3), 20);
    CU_ASSERT_EQUAL(bl_start(&s, 5), 30);
    set_logged_wait(&s, 1, 2);
    set_logged_wait(&s, 2, 100);
    set_logged_wait(&s, 3, 4);
    set_logged_wait(&s, 5, 6);
    set_logged_wait(&s, 4, -1);
    for (size_t i = 0; i < s.w->n_jobs; i++)
        if (s.w->jobs[i].id == 2 || s.w->jobs[i].id == 4 || s.w->jobs[i].id == 5)
            s.w->jobs[i].status = 5;
    eng_summary m = {0};
    CU_ASSERT_EQUAL(eng_metrics_log_agreement(s.w, &s.prep, eng_core_results(s.core), &m), 0);
    CU_ASSERT_EQUAL(m.log.jobs, 3);
    CU_ASSERT_EQUAL(m.log.cancelled_excluded, 1);
    CU_ASSERT_DOUBLE_EQUAL(m.log.wait_mean_log_s, 4, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.log.wait_mean_sim_s, 25.0 / 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.log.wait_mae_s, 17.0 / 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.log.wait_spearman, 1, 1e-12);
    bl_sched_fini(&s);
}

int bl_suite_eng_metrics(void)
{
    CU_pSuite s = CU_add_suite("eng_metrics", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "known answers on S1 under EASY", test_known_answers);
    CU_add_test(s, "kills and zero run times", test_kills_and_zero_runs);
    CU_add_test(s, "cost of allocations", test_cost);
    CU_add_test(s, "agreement with the log's waits", test_log_agreement);
    CU_add_test(s, "agreement: which jobs are compared", test_log_agreement_job_set);
    CU_add_test(s, "agreement: jobs cancelled before they started", test_log_agreement_cancelled);
    return 0;
}
