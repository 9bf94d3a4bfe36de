/* test_eng_power_save.c — idle shutdown (engine/eng_power_save.c):
 * hand-computed schedules and energies of hosts switched off after
 * SuspendTime and booted on demand, a boot delay that moves a
 * conservative reservation (its promise including the boot, held by the
 * checker), SuspendExcNodes, the suspend and resume rates, and the bad
 * values. Every run has the checker on (bl_core_run). */
#include "bl_sched.h"
#include "bl_test.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define NEAR(a, b) CU_ASSERT_DOUBLE_EQUAL((a), (b), 1e-9 * fmax(1.0, fabs((double)(b))))

/* n hosts h1..hn of one core, 100 W idle, 120 W at load 0+, 200 W busy,
 * 10 W off; with `switching`, 5 s at 50 W to switch off and 20 s at 150 W
 * to switch on (else the options' times, at 0 W). */
static eng_platform *power_platform(int n, bool switching)
{
    eng_host_desc d[8];
    char names[8][16]; /* "h" and any int: -Wformat-truncation in the Debug build */
    for (int i = 0; i < n; i++) {
        snprintf(names[i], sizeof names[i], "h%d", i + 1);
        d[i] = (eng_host_desc){.name = names[i],
                               .speed_flops = 1e9,
                               .sg_cores = 1,
                               .power = {.wattage_per_state = "100:120:200",
                                         .wattage_off = "10",
                                         .switch_off_s = switching ? "5" : NULL,
                                         .switch_off_w = switching ? "50" : NULL,
                                         .switch_on_s = switching ? "20" : NULL,
                                         .switch_on_w = switching ? "150" : NULL}};
    }
    eng_platform *p = NULL;
    eng_diag diag;
    eng_diag_clear(&diag);
    CU_ASSERT_EQUAL(eng_platform_build("power", d, (size_t)n, NULL, &p, &diag), 0);
    return p;
}

static double job_energy(const bl_sched *s, int64_t id)
{
    for (size_t i = 0; i < s->prep.n_jobs; i++)
        if (s->prep.jobs[i].id == id)
            return eng_core_results(s->core)[i].energy_j;
    return -1;
}

/* The energy row at time t, or NULL. */
static const eng_energy_row *row_at(const bl_sched *s, double t)
{
    size_t n, m;
    const eng_energy_row *e = eng_core_energy_rows(s->core, &n);
    const eng_ts_row *ts = eng_core_timeseries(s->core, &m);
    for (size_t k = 0; k < n && k < m; k++)
        if (ts[k].t_s == t)
            return &e[k];
    return NULL;
}

/* One host through every state, --suspend-time 100. Job 1 runs 0-100,
 * job 2 is submitted at 300 and runs 50 s:
 *   0-100    busy        200 W x 100  = 20 000 J (job 1)
 *   100-200  idle        100 W x 100  = 10 000 J
 *   200-205  shutting    50 W x 5     =    250 J  (idle SuspendTime)
 *   205-300  off         10 W x 95    =    950 J
 *   300-320  booting     150 W x 20   =  3 000 J  (job 2 given the host)
 *   320-370  busy        200 W x 50   = 10 000 J (job 2, starts at 320)
 * total 44 200 J: jobs 30 000, idle 10 000, off 950, switching 3 250; one
 * switch-off and one switch-on. */
static void test_every_state(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 100, -1, 1, 0}, {2, 300, 50, -1, 1, 0}};
    bl_opts o = {.power_save = {.enabled = true, .suspend_time_s = 100}};
    bl_sched s;
    CU_ASSERT_EQUAL_FATAL(bl_core_run("easy", jobs, 2, power_platform(1, true), &o, &s), 0);
    NEAR(bl_start(&s, 2), 320);
    NEAR(bl_end(&s, 2), 370);
    eng_energy_totals t;
    CU_ASSERT_TRUE_FATAL(eng_core_energy(s.core, &t));
    NEAR(t.total_j, 44200);
    NEAR(t.jobs_j, 30000);
    NEAR(t.idle_j, 10000);
    NEAR(t.off_j, 950);
    NEAR(t.switching_j, 3250);
    CU_ASSERT_EQUAL(t.switch_offs, 1);
    CU_ASSERT_EQUAL(t.switch_ons, 1);
    NEAR(job_energy(&s, 1), 20000);
    NEAR(job_energy(&s, 2), 10000);
    const eng_energy_row *r;
    CU_ASSERT_TRUE((r = row_at(&s, 200)) && r->shutting_down == 1 && r->busy == 0);
    CU_ASSERT_TRUE((r = row_at(&s, 205)) && r->off == 1);
    CU_ASSERT_TRUE((r = row_at(&s, 300)) && r->booting == 1 && r->busy == 0);
    CU_ASSERT_TRUE((r = row_at(&s, 320)) && r->busy == 1 && r->booting == 0);
    CU_ASSERT_TRUE((r = row_at(&s, 370)) && r->busy == 0 && r->off == 0);
    bl_sched_fini(&s);
}

/* Two hosts without power values (the states and delays apply, no
 * energy), --suspend-time 50, --suspend-timeout 10, --resume-timeout 30:
 * boot_delay_max_s D = 40. Job A (1 node) runs 0-100 on h1; h2, idle from
 * 0, shuts down at 50 and is off at 60. Job B (2 nodes, submitted at 70)
 * gets a reservation when A is planned to end, 0 + D + 100 = 140, and the
 * promise 140 + D = 180. A ends at 100: B is given h1 (on) and h2 (off),
 * which boots 100-130; B starts at 130, 30 s after the 100 it would start
 * at without idle shutdown, within its promise (the checker's). */
static void test_boot_moves_reservation(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 100, -1, 1, 0}, {2, 70, 20, -1, 2, 0}};
    bl_opts o = {.power_save = {.enabled = true,
                                .suspend_time_s = 50,
                                .suspend_timeout_s = 10,
                                .resume_timeout_s = 30}};
    bl_sched s;
    CU_ASSERT_EQUAL_FATAL(bl_core_run("conservative", jobs, 2, bl_uniform_platform(2, 1), &o, &s),
                          0);
    NEAR(bl_start(&s, 1), 0);
    NEAR(bl_start(&s, 2), 130);
    NEAR(bl_end(&s, 2), 150);
    eng_energy_totals t;
    CU_ASSERT_FALSE(eng_core_energy(s.core, &t));
    bl_sched_fini(&s);
    bl_opts off = {0};
    CU_ASSERT_EQUAL_FATAL(bl_core_run("conservative", jobs, 2, bl_uniform_platform(2, 1), &off, &s),
                          0);
    NEAR(bl_start(&s, 2), 100);
    bl_sched_fini(&s);
}

/* Three hosts, h1 and h2 excluded (h[1-2]), --suspend-time 10: only h3 is
 * switched off (at 10, off at 15) by the time job 1 (1 node, at 100)
 * takes h1, which is on: it starts at once. */
static void test_excluded(void)
{
    static const bl_jobspec jobs[] = {{1, 100, 10, -1, 1, 0}};
    bl_opts o = {.power_save = {.enabled = true, .suspend_time_s = 10, .exc_nodes = "h[1-2]"}};
    bl_sched s;
    CU_ASSERT_EQUAL_FATAL(bl_core_run("fcfs", jobs, 1, power_platform(3, true), &o, &s), 0);
    NEAR(bl_start(&s, 1), 100);
    eng_energy_totals t;
    CU_ASSERT_TRUE_FATAL(eng_core_energy(s.core, &t));
    CU_ASSERT_EQUAL(t.switch_offs, 1);
    CU_ASSERT_EQUAL(t.switch_ons, 0);
    const eng_energy_row *r = row_at(&s, 100);
    CU_ASSERT_TRUE(r && r->off == 1 && r->busy == 1);
    bl_sched_fini(&s);
}

/* Four hosts, --suspend-time 0 with --suspend-rate 2 and --resume-rate 2,
 * switch times from the options (10 s off, 30 s on). At 0 h1 and h2 shut
 * down (off at 10), h3 and h4 wait for the next minute: 60 (off at 70).
 * Job 1 (4 nodes) at 200 boots h1 and h2 in minute [180, 240), h3 and h4
 * at 240 in the next: up at 270, when it starts. */
static void test_rates(void)
{
    static const bl_jobspec jobs[] = {{1, 200, 10, -1, 4, 0}};
    bl_opts o = {.power_save = {.enabled = true,
                                .suspend_time_s = 0,
                                .suspend_timeout_s = 10,
                                .resume_timeout_s = 30,
                                .suspend_rate = 2,
                                .resume_rate = 2}};
    bl_sched s;
    CU_ASSERT_EQUAL_FATAL(bl_core_run("easy", jobs, 1, power_platform(4, false), &o, &s), 0);
    NEAR(bl_start(&s, 1), 270);
    NEAR(bl_end(&s, 1), 280);
    const eng_energy_row *r;
    CU_ASSERT_TRUE((r = row_at(&s, 0)) && r->shutting_down == 2 && r->off == 0);
    CU_ASSERT_TRUE((r = row_at(&s, 10)) && r->off == 2);
    CU_ASSERT_TRUE((r = row_at(&s, 60)) && r->shutting_down == 2 && r->off == 2);
    CU_ASSERT_TRUE((r = row_at(&s, 200)) && r->booting == 2 && r->off == 2);
    CU_ASSERT_TRUE((r = row_at(&s, 240)) && r->booting == 2 && r->off == 0);
    CU_ASSERT_TRUE((r = row_at(&s, 270)) && r->busy == 4);
    eng_energy_totals t;
    CU_ASSERT_TRUE_FATAL(eng_core_energy(s.core, &t));
    CU_ASSERT_EQUAL(t.switch_offs, 4);
    CU_ASSERT_EQUAL(t.switch_ons, 4);
    bl_sched_fini(&s);
}

/* Bad values stop the run at creation with a message naming them. */
static void expect_refused(const eng_power_save *ps, pol_alloc alloc, int rc, const char *fragment)
{
    static const bl_jobspec jobs[] = {{1, 0, 10, -1, 1, 0}};
    bl_opts o = {.alloc = alloc, .power_save = *ps};
    bl_sched s;
    int got = bl_core_run("easy", jobs, 1, bl_uniform_platform(3, 2), &o, &s);
    CU_ASSERT_EQUAL(got, rc);
    if (got != rc)
        printf("\n  %s: rc %d, wanted %d\n", fragment, got, rc);
    bool has = strstr(s.diag.msg, fragment) != NULL;
    if (!has)
        printf("\n  got '%s', wanted '%s'\n", s.diag.msg, fragment);
    CU_ASSERT_TRUE(has);
    bl_sched_fini(&s);
}

static void test_bad_values(void)
{
    eng_power_save p = {.enabled = true, .suspend_time_s = 10, .suspend_timeout_s = -1};
    expect_refused(&p, POL_ALLOC_NODE, ENG_USAGE, "times must be >= 0 s");
    p = (eng_power_save){.enabled = true, .suspend_time_s = 10, .exc_nodes = "h1,h9"};
    expect_refused(&p, POL_ALLOC_NODE, ENG_USAGE, "host 'h9' is not in platform");
    p.exc_nodes = "h[2-4]";
    expect_refused(&p, POL_ALLOC_NODE, ENG_USAGE, "host 'h4' is not in platform");
    p.exc_nodes = "h[3-1]";
    expect_refused(&p, POL_ALLOC_NODE, ENG_USAGE, "expected a range a-b with a <= b");
    p.exc_nodes = "h1,,h2";
    expect_refused(&p, POL_ALLOC_NODE, ENG_USAGE, "an empty host name");
    p.exc_nodes = NULL;
    expect_refused(&p, POL_ALLOC_CORE, ENG_USAGE, "--alloc node only");
}

/* A job given a host at the instant it begins to shut down starts when
 * the shutdown and the boot are over, (t + off) + on, while the view
 * promises its end by t + ((off + on) + estimate): with off 6.1 s, on
 * 151.52 s and t = 867 the first sum, plus the estimate 100, rounds
 * 2.3e-13 s past the second. Job 1 (817 s) leaves h1 idle at 817; at
 * SuspendTime 50 it shuts down at 867, when job 2 (100 s, its request)
 * arrives and is given it. Conservative reserves job 3 at job 2's
 * expected end and starts it there: job 2 must have ended by then, so the
 * engine ends a job within its estimate no later than the view's bound
 * (conservative stopped with "scheduling invariant violated" before). */
static void test_end_within_bound(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 817, 817, 1, 0}, {2, 867, 100, 100, 1, 0}, {3, 868, 10, 10, 1, 0}};
    bl_opts o = {.power_save = {.enabled = true,
                                .suspend_time_s = 50,
                                .suspend_timeout_s = 6.1,
                                .resume_timeout_s = 151.52}};
    bl_sched s;
    CU_ASSERT_EQUAL_FATAL(bl_core_run("conservative", jobs, 3, bl_uniform_platform(1, 1), &o, &s),
                          0);
    double bound = 867 + ((6.1 + 151.52) + 100);
    NEAR(bl_start(&s, 2), 867 + 6.1 + 151.52);
    CU_ASSERT_TRUE(bl_end(&s, 2) <= bound);
    CU_ASSERT_TRUE(bl_start(&s, 3) >= bl_end(&s, 2));
    NEAR(bl_start(&s, 3), bound);
    bl_sched_fini(&s);
}

int bl_suite_eng_power_save(void)
{
    CU_pSuite s = CU_add_suite("eng_power_save", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "one host through every state, its energy", test_every_state);
    CU_add_test(s, "a boot moves a conservative reservation", test_boot_moves_reservation);
    CU_add_test(s, "SuspendExcNodes hosts stay on", test_excluded);
    CU_add_test(s, "suspend and resume rates", test_rates);
    CU_add_test(s, "bad values refused with a message", test_bad_values);
    CU_add_test(s, "a job ends within its view's bound", test_end_within_bound);
    return 0;
}
