/* test_eng_energy.c — host states and their energy (engine/eng_energy.c):
 * hand-computed energies of small schedules through the core (one host
 * idle, busy, idle; two jobs sharing one host's cores; node allocation on
 * two hosts; a host down after a failure), the outputs that carry them,
 * and the cross-check against SimGrid's own energy plugin on platforms
 * where SimGrid runs an execution per taken core. */
#include "bl_sched.h"
#include "bl_test.h"
#include "eng_metrics.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* n hosts h1..hn of `cores` cores, each with wattage_per_state w[i] and
 * wattage_off off. */
static eng_platform *power_platform(int n, int cores, const char *const *w, const char *off)
{
    eng_host_desc d[8];
    char names[8][16]; /* "h" and any int: -Wformat-truncation in the Debug build */
    for (int i = 0; i < n; i++) {
        snprintf(names[i], sizeof names[i], "h%d", i + 1);
        d[i] = (eng_host_desc){.name = names[i],
                               .speed_flops = 1e9,
                               .sg_cores = cores,
                               .power = {.wattage_per_state = w[i], .wattage_off = off}};
    }
    eng_platform *p = NULL;
    eng_diag diag;
    eng_diag_clear(&diag);
    CU_ASSERT_EQUAL(eng_platform_build("power", d, (size_t)n, NULL, &p, &diag), 0);
    return p;
}

/* The core's energy and the sum of its jobs'. */
static eng_energy_totals totals(const bl_sched *s, double *jobs_sum)
{
    eng_energy_totals t;
    memset(&t, 0, sizeof t);
    CU_ASSERT_TRUE(eng_core_energy(s->core, &t));
    const eng_job_result *r = eng_core_results(s->core);
    *jobs_sum = 0;
    for (size_t i = 0; i < s->prep.n_jobs; i++)
        *jobs_sum += r[i].energy_j;
    return t;
}

static double job_energy(const bl_sched *s, int64_t id)
{
    for (size_t i = 0; i < s->prep.n_jobs; i++)
        if (s->prep.jobs[i].id == id)
            return eng_core_results(s->core)[i].energy_j;
    return -1;
}

#define NEAR(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-9 * fmax(1.0, fabs((double)(b))))

/* One host of 4 cores, 100 W idle, 120 W at load 0+, 200 W loaded. Job 1
 * (4 procs, one node) runs 10-30, job 2 49-50; the window is [0, 50]:
 *   idle 0-10 1000 J, busy 10-30 4000 J, idle 30-49 1900 J, busy 49-50 200 J
 *   total 7100, jobs 4200 (4000 + 200), idle 2900, peak 200 W. */
static void test_idle_busy_idle(void)
{
    static const char *const w[] = {"100:120:200"};
    static const bl_jobspec jobs[] = {{1, 10, 20, -1, 4, 0}, {2, 49, 1, -1, 4, 0}};
    bl_sched s;
    CU_ASSERT_EQUAL_FATAL(bl_core_run("fcfs", jobs, 2, power_platform(1, 4, w, NULL), NULL, &s), 0);
    double sum;
    eng_energy_totals t = totals(&s, &sum);
    NEAR(t.start_s, 0);
    NEAR(t.end_s, 50);
    NEAR(t.total_j, 7100);
    NEAR(t.jobs_j, 4200);
    NEAR(sum, 4200);
    NEAR(t.idle_j, 2900);
    NEAR(t.off_j, 0);
    NEAR(t.switching_j, 0);
    NEAR(t.peak_w, 200);
    NEAR(job_energy(&s, 1), 4000);
    NEAR(job_energy(&s, 2), 200);
    size_t n;
    const eng_energy_row *row = eng_core_energy_rows(s.core, &n);
    CU_ASSERT_EQUAL(n, 4); /* 10, 30, 49, 50 */
    if (n == 4) {
        NEAR(row[0].power_w, 200);
        NEAR(row[1].power_w, 100);
        NEAR(row[2].power_w, 200);
        NEAR(row[3].power_w, 100);
    }
    bl_sched_fini(&s);
}

/* Core allocation, one host of 4 cores (100 / 120 / 200 W): job A holds
 * 1 core over 0-100, job B 2 cores over 20-60. The host draws
 *   0-20 k=1: 120 + 80/4 = 140 W; 20-60 k=3: 180 W; 60-100 k=1: 140 W
 *   total 2800 + 7200 + 5600 = 15600 J.
 * Each taken core is billed 200/4 = 50 W: A 50 x 100 = 5000 J, B 2 x 50 x
 * 40 = 4000 J; each free core of the busy host 120/4 = 30 W counts as
 * idle: 3 x 30 x 20 + 1 x 30 x 40 + 3 x 30 x 40 = 6600 J. 9000 + 6600 =
 * 15600. */
static void test_core_sharing(void)
{
    static const char *const w[] = {"100:120:200"};
    static const bl_jobspec jobs[] = {{1, 0, 100, -1, 1, 0}, {2, 20, 40, -1, 2, 0}};
    bl_opts o = {.alloc = POL_ALLOC_CORE};
    bl_sched s;
    CU_ASSERT_EQUAL_FATAL(bl_core_run("fcfs", jobs, 2, power_platform(1, 4, w, NULL), &o, &s), 0);
    double sum;
    eng_energy_totals t = totals(&s, &sum);
    NEAR(t.total_j, 15600);
    NEAR(job_energy(&s, 1), 5000);
    NEAR(job_energy(&s, 2), 4000);
    NEAR(sum, 9000);
    NEAR(t.jobs_j, 9000);
    NEAR(t.idle_j, 6600);
    NEAR(t.peak_w, 180);
    bl_sched_fini(&s);
}

/* Node allocation on two hosts of 2 cores: h1 100 / 120 / 200 W, h2
 * "50:150" (Epsilon = Idle = 50 W). Job A (4 procs: both hosts) runs 0-10,
 * job B (2 procs: one host, h1 first fit) waits for it and runs 10-40:
 *   0-10 200 + 150 = 350 W: 3500 J, all A's
 *   10-40 h1 200 W (B: 6000 J) + h2 idle 50 W (1500 J)
 *   total 11000, jobs 9500, idle 1500, mean 275 W, peak 350 W. */
static void test_node_two_hosts(void)
{
    static const char *const w[] = {"100:120:200", "50:150"};
    static const bl_jobspec jobs[] = {{1, 0, 10, -1, 4, 0}, {2, 0, 30, -1, 2, 0}};
    bl_sched s;
    CU_ASSERT_EQUAL_FATAL(bl_core_run("easy", jobs, 2, power_platform(2, 2, w, NULL), NULL, &s), 0);
    double sum;
    eng_energy_totals t = totals(&s, &sum);
    NEAR(t.total_j, 11000);
    NEAR(job_energy(&s, 1), 3500);
    NEAR(job_energy(&s, 2), 6000);
    NEAR(t.jobs_j, 9500);
    NEAR(sum, 9500);
    NEAR(t.idle_j, 1500);
    NEAR(t.peak_w, 350);
    NEAR(t.end_s, 40);
    bl_sched_fini(&s);
}

/* A host down after a failure draws wattage_off, counted as off. One host
 * of 1 core (100 / 100 / 200 W, 10 W off), down over 10-20; jobs 0-5 and
 * 25-30: busy 1000 + idle 500 + off 100 + idle 500 + busy 1000 = 3100 J. */
static void test_down_is_off(void)
{
    static const char *const w[] = {"100:100:200"};
    static const bl_jobspec jobs[] = {{1, 0, 5, -1, 1, 0}, {2, 25, 5, -1, 1, 0}};
    static const eng_fail_span down[] = {{.host = "h1", .start_s = 10, .end_s = 20}};
    bl_opts o = {.failures = {.enabled = true, .trace = down, .n_trace = 1, .trace_path = "t"}};
    bl_sched s;
    CU_ASSERT_EQUAL_FATAL(bl_core_run("fcfs", jobs, 2, power_platform(1, 1, w, "10"), &o, &s), 0);
    double sum;
    eng_energy_totals t = totals(&s, &sum);
    NEAR(t.total_j, 3100);
    NEAR(t.jobs_j, 2000);
    NEAR(sum, 2000);
    NEAR(t.idle_j, 1000);
    NEAR(t.off_j, 100);
    bl_sched_fini(&s);
}

/* Without power values nothing is recorded and jobs cost nothing. */
static void test_no_power(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 5, -1, 1, 0}};
    bl_sched s;
    CU_ASSERT_EQUAL_FATAL(bl_core_run("fcfs", jobs, 1, bl_uniform_platform(2, 1), NULL, &s), 0);
    eng_energy_totals t;
    CU_ASSERT_FALSE(eng_core_energy(s.core, &t));
    size_t n = 1;
    CU_ASSERT_PTR_NULL(eng_core_energy_rows(s.core, &n));
    CU_ASSERT_EQUAL(n, 0);
    CU_ASSERT_EQUAL(job_energy(&s, 1), 0);
    bl_sched_fini(&s);
}

/* The run's outputs: summary.json's energy, jobs.csv's consumed_energy,
 * timeseries.csv's power columns, the terminal's energy line. The
 * platform's current pstate is 1 (n1, n2: 90 / 110 / 150 W; n3: 70 / 90
 * / 130 W). One 4-proc job on n1 over 0-100 under node allocation: 150 W
 * x 100 s = 15000 J for it; idle n2 + n3 = 160 W x 100 = 16000 J. */
static void test_outputs(void)
{
    const char *swf = bl_write_tmp("energy-one.swf", "1 0 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 "
                                                     "-1\n");
    char out[512];
    snprintf(out, sizeof out, "%s/energy-out", bl_tmpdir());
    char *text = NULL;
    int st = bl_run(&text, "run --platform %s --workload %s --policy fcfs --out %s",
                    bl_src("platforms/test/power-3x4.xml"), swf, out);
    CU_ASSERT_EQUAL(st, 0);
    CU_ASSERT_TRUE(text && bl_contains(text, "energy             0.01 kWh: jobs 0.00"));
    free(text);
    char path[600];
    snprintf(path, sizeof path, "%s/summary.json", out);
    char *sum = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(sum && bl_contains(sum, "\"total_j\": 31000,"));
    CU_ASSERT_TRUE(sum && bl_contains(sum, "\"jobs_j\": 15000,"));
    CU_ASSERT_TRUE(sum && bl_contains(sum, "\"idle_j\": 16000,"));
    CU_ASSERT_TRUE(sum && bl_contains(sum, "\"switching_j\": 0,"));
    CU_ASSERT_TRUE(sum && bl_contains(sum, "\"peak_power_w\": 310,"));
    free(sum);
    snprintf(path, sizeof path, "%s/jobs.csv", out);
    char *jobs = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(jobs && bl_contains(jobs, ",0,15000,,"));
    free(jobs);
    snprintf(path, sizeof path, "%s/timeseries.csv", out);
    char *ts = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(ts && bl_contains(ts, "down_hosts,power_w,hosts_busy,hosts_idle,hosts_off,"
                                         "hosts_booting,hosts_shutting_down\n"));
    CU_ASSERT_TRUE(ts && bl_contains(ts, "\n0,0,1,1,4,0.33333333333333331,0,310,1,2,0,0,0\n"));
    CU_ASSERT_TRUE(ts && bl_contains(ts, "\n100,0,0,0,0,0,0,250,0,3,0,0,0\n"));
    free(ts);
}

/* SimGrid's energy plugin on the same schedule, with an execution per
 * taken core on each host for the job's whole run: its total must equal
 * ours. */
static void cross_check(const char *what, const bl_jobspec *jobs, size_t n, pol_alloc alloc)
{
    bl_opts o = {.alloc = alloc, .energy_plugin = true};
    eng_run_report rep;
    eng_diag d;
    eng_diag_clear(&d);
    int rc = bl_sim_run("easy", jobs, n, bl_src("platforms/test/power-3x4.xml"), &o, &rep, &d);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    const eng_energy_summary *e = &rep.summary.energy;
    CU_ASSERT_TRUE(e->on);
    double rel = fabs(e->total_j - rep.simgrid_energy_j) / fabs(rep.simgrid_energy_j);
    printf("\n  %s: ours %.17g J, SimGrid's %.17g J, relative difference %.3g\n", what, e->total_j,
           rep.simgrid_energy_j, rel);
    CU_ASSERT_TRUE(rel <= 1e-9);
    double parts = e->jobs_j + e->idle_j + e->off_j + e->switching_j;
    CU_ASSERT_TRUE(fabs(parts - e->total_j) <= 1e-12 * e->total_j);
    CU_ASSERT_TRUE(e->jobs_j > 0 && e->idle_j > 0);
    eng_run_report_fini(&rep);
}

static void test_simgrid_node(void)
{
    /* nodes = ceil(procs / 4); job 3 is killed at its request */
    static const bl_jobspec jobs[] = {
        {1, 0, 100, 200, 8, 0}, {2, 10, 50, 60, 4, 0},  {3, 20, 300, 100, 4, 0},
        {4, 30, 40, -1, 12, 0}, {5, 200, 10, 20, 1, 0}, {6, 250, 33.3, -1, 5, 0},
    };
    cross_check("node allocation", jobs, sizeof jobs / sizeof jobs[0], POL_ALLOC_NODE);
}

/* Hosts idle from time 0 at their pstate 1: SimGrid's plugin bills a host
 * at pstate 0 until its first update, which eng_sim.c makes at time 0
 * (without it SimGrid's total exceeds ours by 2250 J here). */
static void test_simgrid_late_start(void)
{
    static const bl_jobspec a[] = {{1, 10, 100, -1, 4, 0}};
    cross_check("one job from 10 s, node allocation", a, 1, POL_ALLOC_NODE);
    static const bl_jobspec b[] = {{1, 10, 100, -1, 1, 0}};
    cross_check("one core from 10 s, core allocation", b, 1, POL_ALLOC_CORE);
}

static void test_simgrid_core(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 100, -1, 3, 0}, {2, 5, 50, -1, 6, 0},  {3, 10, 80, -1, 2, 0},
        {4, 20, 30, -1, 1, 0}, {5, 40, 60, -1, 9, 0}, {6, 41.5, 7.25, -1, 12, 0},
    };
    cross_check("core allocation", jobs, sizeof jobs / sizeof jobs[0], POL_ALLOC_CORE);
}

/* --power-cap on two hosts of one core (100 W idle, 200 W busy): with
 * every host idle the platform draws P0 = 200 W and a host taken adds
 * 100 W, so a cap of 300 W lets one job run at a time. Jobs 1 (100 s) and
 * 2 (50 s), both 1 node at 0: job 2 waits for job 1, 100-150, under
 * fcfs, easy, conservative and slurm alike; the power peaks at 300 W. A
 * cap below P0, a job wider than the cap allows and a platform without
 * power values are refused. */
static void test_power_cap(void)
{
    static const char *const w[] = {"100:120:200", "100:120:200"};
    static const bl_jobspec jobs[] = {{1, 0, 100, -1, 1, 0}, {2, 0, 50, -1, 1, 0}};
    static const char *const policies[] = {"fcfs", "easy", "conservative", "slurm"};
    bl_opts o = {.power_cap_w = 300};
    bl_sched s;
    for (int k = 0; k < 4; k++) {
        CU_ASSERT_EQUAL_FATAL(
            bl_core_run(policies[k], jobs, 2, power_platform(2, 1, w, NULL), &o, &s), 0);
        NEAR(bl_start(&s, 2), 100);
        NEAR(bl_end(&s, 2), 150);
        double sum;
        eng_energy_totals t = totals(&s, &sum);
        NEAR(t.peak_w, 300);
        bl_sched_fini(&s);
    }
    o.power_cap_w = 150;
    CU_ASSERT_EQUAL(bl_core_run("easy", jobs, 2, power_platform(2, 1, w, NULL), &o, &s), ENG_USAGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "below the platform's power with every host idle"));
    bl_sched_fini(&s);
    static const bl_jobspec wide[] = {{7, 0, 10, -1, 2, 0}};
    o.power_cap_w = 300;
    CU_ASSERT_EQUAL(bl_core_run("easy", wide, 1, power_platform(2, 1, w, NULL), &o, &s), ENG_USAGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "job 7 needs 2 units, at most 1 run within the cap"));
    bl_sched_fini(&s);
    CU_ASSERT_EQUAL(bl_core_run("easy", jobs, 2, bl_uniform_platform(2, 1), &o, &s), ENG_USAGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "--power-cap needs power values"));
    bl_sched_fini(&s);
}

int bl_suite_eng_energy(void)
{
    CU_pSuite s = CU_add_suite("eng_energy", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "one host idle, busy, idle", test_idle_busy_idle);
    CU_add_test(s, "two jobs share one host's cores", test_core_sharing);
    CU_add_test(s, "node allocation on two hosts", test_node_two_hosts);
    CU_add_test(s, "a down host draws wattage_off", test_down_is_off);
    CU_add_test(s, "no power values, no energy", test_no_power);
    CU_add_test(s, "summary, jobs.csv, timeseries, terminal", test_outputs);
    CU_add_test(s, "equal to SimGrid's energy plugin (node allocation)", test_simgrid_node);
    CU_add_test(s, "equal to SimGrid's energy plugin (core allocation)", test_simgrid_core);
    CU_add_test(s, "equal to SimGrid's plugin: idle hosts at pstate 1", test_simgrid_late_start);
    CU_add_test(s, "a power cap delays a job", test_power_cap);
    return 0;
}
