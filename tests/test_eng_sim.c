/* test_eng_sim.c — the SimGrid driver: platforms loaded by SimGrid's own
 * loader (host order, properties, pools), and schedules identical to the
 * pure core's on hand-computed scenarios and random workloads. Every
 * SimGrid run is in a child process (one SimGrid engine per process). */
#include "bl_scenarios.h"
#include "bl_test.h"
#include "eng_sim.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define DOCTYPE "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"

/* What a child tells about a platform it loaded. */
typedef struct plat_facts {
    int rc;
    char msg[1024];
    size_t n_hosts, n_pools;
    size_t pool_hosts[4];
    int pool_cores[4];
    long long pool_queue[4];
    double ref_speed;
    char first[32], last[32];
    double price_first, price_last, speed_first, speed_last;
} plat_facts;

static plat_facts load_in_child(const char *path)
{
    plat_facts f;
    memset(&f, 0, sizeof f);
    int fd[2];
    if (pipe(fd) != 0) {
        f.rc = -99;
        return f;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        eng_platform *p = NULL;
        eng_diag d;
        eng_diag_clear(&d);
        f.rc = eng_sim_load_platform(path, &p, &d);
        snprintf(f.msg, sizeof f.msg, "%s", d.msg);
        if (p) {
            f.n_hosts = p->n_hosts;
            f.n_pools = p->n_pools;
            for (size_t i = 0; i < p->n_pools && i < 4; i++) {
                f.pool_hosts[i] = p->pools[i].n_hosts;
                f.pool_cores[i] = p->pools[i].cores_per_node;
                f.pool_queue[i] = p->pools[i].n_queues ? p->pools[i].queues[0] : -1;
            }
            f.ref_speed = p->ref_speed_flops;
            snprintf(f.first, sizeof f.first, "%s", p->hosts[0].name);
            snprintf(f.last, sizeof f.last, "%s", p->hosts[p->n_hosts - 1].name);
            f.price_first = p->hosts[0].price_per_s;
            f.price_last = p->hosts[p->n_hosts - 1].price_per_s;
            f.speed_first = p->hosts[0].speed_flops;
            f.speed_last = p->hosts[p->n_hosts - 1].speed_flops;
            eng_platform_destroy(p);
        }
        ssize_t w = write(fd[1], &f, sizeof f);
        _exit(w == (ssize_t)sizeof f ? 0 : 1);
    }
    close(fd[1]);
    ssize_t got = read(fd[0], &f, sizeof f);
    close(fd[0]);
    int st;
    waitpid(pid, &st, 0);
    if (got != (ssize_t)sizeof f)
        f.rc = -98;
    return f;
}

static void test_forhlr2(void)
{
    plat_facts f = load_in_child(bl_src("platforms/forhlr2.xml"));
    CU_ASSERT_EQUAL_FATAL(f.rc, 0);
    CU_ASSERT_EQUAL(f.n_hosts, 1173);
    CU_ASSERT_EQUAL_FATAL(f.n_pools, 2);
    CU_ASSERT_EQUAL(f.pool_hosts[0], 1152);
    CU_ASSERT_EQUAL(f.pool_cores[0], 20);
    CU_ASSERT_EQUAL(f.pool_queue[0], 1);
    CU_ASSERT_EQUAL(f.pool_hosts[1], 21);
    CU_ASSERT_EQUAL(f.pool_cores[1], 48);
    CU_ASSERT_EQUAL(f.pool_queue[1], 2);
    CU_ASSERT_DOUBLE_EQUAL(f.ref_speed, 41.6e9, 1);
    CU_ASSERT_STRING_EQUAL(f.first, "fh2-a-1");
    CU_ASSERT_STRING_EQUAL(f.last, "fh2-vis-21");
}

static void test_properties_and_order(void)
{
    plat_facts f = load_in_child(bl_src("platforms/test/mixed-speed.xml"));
    CU_ASSERT_EQUAL_FATAL(f.rc, 0);
    CU_ASSERT_EQUAL(f.n_hosts, 3);
    CU_ASSERT_STRING_EQUAL(f.first, "fast");
    CU_ASSERT_STRING_EQUAL(f.last, "slow2");
    CU_ASSERT_DOUBLE_EQUAL(f.price_first, 3, 0);
    CU_ASSERT_DOUBLE_EQUAL(f.speed_first, 2e9, 0);
    CU_ASSERT_DOUBLE_EQUAL(f.ref_speed, 1e9, 0);
    f = load_in_child(bl_src("platforms/hetero-64.xml"));
    CU_ASSERT_EQUAL_FATAL(f.rc, 0);
    CU_ASSERT_EQUAL(f.n_hosts, 64);
    CU_ASSERT_STRING_EQUAL(f.first, "h01");
    CU_ASSERT_DOUBLE_EQUAL(f.price_last, 3.8, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(f.speed_last, 3e9, 0);
    f = load_in_child(bl_src("platforms/test/two-queues.xml"));
    CU_ASSERT_EQUAL_FATAL(f.rc, 0);
    CU_ASSERT_EQUAL(f.n_pools, 2);
    CU_ASSERT_EQUAL(f.pool_hosts[0], 4); /* c1..c4 (cluster property) */
    CU_ASSERT_EQUAL(f.pool_hosts[1], 1); /* v1 (zone property) */
    f = load_in_child("/nonexistent/platform.xml");
    CU_ASSERT_EQUAL(f.rc, ENG_IO);
    CU_ASSERT_PTR_NOT_NULL(strstr(f.msg, "/nonexistent/platform.xml: cannot open"));
}

static void test_bad_platform_message(void)
{
    const char *bad = bl_write_tmp("bad.xml", "<?xml version='1.0'?>\n"
                                              "<platform version=\"4.1\">\n"
                                              "  <zone id=\"z\" routing=\"Full\">\n"
                                              "    <host id=\"a\" speed=\"1Gf\"\n"
                                              "  </zone>\n</platform>\n");
    eng_run_report rep;
    eng_diag d;
    eng_diag_clear(&d);
    int rc = bl_sim_run("easy", S1, N_OF(S1), bad, NULL, &rep, &d);
    CU_ASSERT_EQUAL(rc, ENG_CHILD);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "SimGrid stopped: Parse error at"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "bad.xml:"));
    const char *prop = bl_write_tmp("badprop.xml",
                                    "<?xml version='1.0'?>\n" DOCTYPE "<platform version=\"4.1\">\n"
                                    "<zone id=\"z\" routing=\"Full\">\n"
                                    "<host id=\"a\" speed=\"1Gf\"><prop id=\"cores\" "
                                    "value=\"many\"/></host>\n</zone>\n</platform>\n");
    eng_diag_clear(&d);
    rc = bl_sim_run("easy", S1, N_OF(S1), prop, NULL, &rep, &d);
    CU_ASSERT_EQUAL(rc, ENG_PLATFORM);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "host a: property cores: expected a positive "
                                         "integer, got 'many'"));
    /* --alloc core cannot schedule more cores than SimGrid executes */
    const char *over = bl_write_tmp("over.xml",
                                    "<?xml version='1.0'?>\n" DOCTYPE "<platform version=\"4.1\">\n"
                                    "<zone id=\"z\" routing=\"Full\">\n"
                                    "<host id=\"a\" speed=\"1Gf\" core=\"2\"><prop id=\"cores\" "
                                    "value=\"4\"/></host>\n</zone>\n</platform>\n");
    eng_diag_clear(&d);
    bl_opts o = {.alloc = POL_ALLOC_CORE};
    rc = bl_sim_run("easy", S1, N_OF(S1), over, &o, &rep, &d);
    CU_ASSERT_EQUAL(rc, ENG_PLATFORM);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "at most its SimGrid core count (2)"));
}

/* Every scenario, every policy: SimGrid's schedule equals the core's. */
static void compare_runs(const char *policy, const bl_jobspec *jobs, size_t n,
                         const char *platform_file, eng_platform *pure, const bl_opts *o,
                         const char *what)
{
    bl_sched s;
    bl_core_run(policy, jobs, n, pure, o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    eng_run_report rep;
    eng_diag d;
    eng_diag_clear(&d);
    int rc = bl_sim_run(policy, jobs, n, platform_file, o, &rep, &d);
    if (rc)
        printf("\n  %s %s: %s", what, policy, d.msg);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL(rep.n_jobs, s.prep.n_jobs);
    int bad = 0;
    for (size_t i = 0; i < s.prep.n_jobs; i++) {
        int64_t id = s.prep.jobs[i].id;
        if (bl_rep_start(&rep, id) != bl_start(&s, id) || bl_rep_end(&rep, id) != bl_end(&s, id) ||
            bl_rep_state(&rep, id) != bl_state(&s, id)) {
            if (bad++ < 3)
                printf("\n  %s %s job %lld: simgrid %g-%g, core %g-%g", what, policy, (long long)id,
                       bl_rep_start(&rep, id), bl_rep_end(&rep, id), bl_start(&s, id),
                       bl_end(&s, id));
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
    eng_run_report_fini(&rep);
    bl_sched_fini(&s);
}

static void test_scenarios_match_core(void)
{
    static const struct {
        const bl_jobspec *jobs;
        size_t n;
        const char *name;
    } sc[] = {{S1, N_OF(S1), "S1"}, {S1b, N_OF(S1b), "S1b"}, {S2, N_OF(S2), "S2"},
              {S3, N_OF(S3), "S3"}, {S5, N_OF(S5), "S5"},    {S7, N_OF(S7), "S7"},
              {S9, N_OF(S9), "S9"}, {S10, N_OF(S10), "S10"}};
    static const char *const policies[] = {"fcfs", "easy", "conservative"};
    for (size_t k = 0; k < 3; k++)
        for (size_t i = 0; i < sizeof sc / sizeof sc[0]; i++)
            compare_runs(policies[k], sc[i].jobs, sc[i].n, bl_src("platforms/test/tiny-4.xml"),
                         bl_uniform_platform(4, 1), NULL, sc[i].name);
}

/* The same platform as platforms/test/mixed-speed.xml, built in memory. */
static eng_platform *mixed(void)
{
    eng_host_desc d[] = {
        {.name = "slow2", .speed_flops = 1e9, .sg_cores = 2},
        {.name = "slow1", .speed_flops = 1e9, .sg_cores = 2},
        {.name = "fast", .speed_flops = 2e9, .sg_cores = 2, .price_per_s = "3"},
    };
    eng_platform *p = NULL;
    eng_diag diag;
    eng_diag_clear(&diag);
    eng_platform_build("mixed", d, 3, "1Gf", &p, &diag);
    return p;
}

static void test_random_workloads_match_core(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    static const char *const policies[] = {"fcfs", "easy", "conservative"};
    for (int round = 0; round < 4; round++) {
        size_t n = 300;
        bl_jobspec *jobs = calloc(n, sizeof *jobs);
        double t = 0;
        for (size_t i = 0; i < n; i++) {
            t += floor(gsl_ran_exponential(r, 20));
            double run = floor(gsl_ran_exponential(r, 100));
            double req = gsl_rng_uniform(r) < 0.1 ? floor(run / 2) : ceil(run * 2) + 1;
            jobs[i] = (bl_jobspec){
                (int64_t)i + 1, t, run, req, 1 + (int)gsl_rng_uniform_int(r, 6), 0};
        }
        bl_opts o = {.alloc = round % 2 ? POL_ALLOC_CORE : POL_ALLOC_NODE,
                     .walltime = round / 2 ? ENG_WALLTIME_EXTEND : ENG_WALLTIME_KILL};
        for (size_t k = 0; k < 3; k++)
            compare_runs(policies[k], jobs, n, bl_src("platforms/test/mixed-speed.xml"), mixed(),
                         &o, "random");
        free(jobs);
    }
    gsl_rng_free(r);
}

/* ---- wide jobs under one execution per job ---------------------------- */

/* Runs jobs through SimGrid on platform_file and through the pure core on
 * the same platform, checks both against the hand-computed rows and the
 * states, and returns how many hosts SimGrid's run gave job 1. */
static int32_t run_wide(const char *policy, const bl_jobspec *jobs, size_t n,
                        const char *platform_file, const bl_opts *o, const bl_expect *rows,
                        const int *states, size_t n_rows, const char *what)
{
    eng_platform *pure = NULL;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_run_load_platform(platform_file, &pure, &d), 0);
    bl_sched s;
    bl_core_run(policy, jobs, n, pure, o, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    bl_check(&s, rows, n_rows, what);
    eng_run_report rep;
    int rc = bl_sim_run(policy, jobs, n, platform_file, o, &rep, &d);
    if (rc)
        printf("\n  %s: %s", what, d.msg);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    bl_check_rep(&rep, rows, n_rows, what);
    for (size_t i = 0; i < n_rows; i++) {
        CU_ASSERT_EQUAL(bl_state(&s, rows[i].id), states[i]);
        CU_ASSERT_EQUAL(bl_rep_state(&rep, rows[i].id), states[i]);
    }
    long j1 = eng_run_report_find(&rep, 1);
    int32_t hosts = j1 < 0 ? -1 : rep.n_hosts[j1];
    eng_run_report_fini(&rep);
    bl_sched_fini(&s);
    return hosts;
}

/* mixed-speed.xml: fast (2 Gf) before slow1, slow2 (1 Gf) in name order,
 * 2 cores each, reference 1 Gf. Node allocation: J1 (6 processors, 3
 * nodes, 100 s) takes all three: 50 s on fast, 100 s on the slow ones, so
 * it ends at 100 with its slowest host, not at 50. J2 (1 node, 100 s)
 * waits for it and runs on fast (first fit): 100..150. J3 (4 processors,
 * 2 nodes, submitted at 200) gets fast and slow1: 200..300. Core
 * allocation: J1 (3 processors) takes fast's 2 cores and one of slow1's,
 * so it still ends at 100; J2 takes slow1's other core at once (0..100);
 * J3 (2 processors) fills fast: 200..250. */
static void test_wide_mixed_speeds(void)
{
    const char *plat = bl_src("platforms/test/mixed-speed.xml");
    static const int st[] = {ENG_JOB_DONE, ENG_JOB_DONE, ENG_JOB_DONE};
    static const bl_jobspec node_jobs[] = {
        {1, 0, 100, 200, 6, 0}, {2, 0, 100, 200, 1, 0}, {3, 200, 100, 200, 4, 0}};
    bl_opts node = {.alloc = POL_ALLOC_NODE};
    static const bl_expect e_node[] = {{1, 0, 100}, {2, 100, 150}, {3, 200, 300}};
    CU_ASSERT_EQUAL(run_wide("fcfs", node_jobs, 3, plat, &node, e_node, st, 3, "mixed, node"), 3);
    static const bl_jobspec core_jobs[] = {
        {1, 0, 100, 200, 3, 0}, {2, 0, 100, 200, 1, 0}, {3, 200, 100, 200, 2, 0}};
    bl_opts core = {.alloc = POL_ALLOC_CORE};
    static const bl_expect e_core[] = {{1, 0, 100}, {2, 0, 100}, {3, 200, 250}};
    CU_ASSERT_EQUAL(run_wide("fcfs", core_jobs, 3, plat, &core, e_core, st, 3, "mixed, core"), 2);
}

/* wide-64.xml: 32 hosts at the reference speed, then 32 at half of it.
 * J1 takes all 64 for 100 s of reference work: 100 s on a-*, 200 s on b-*.
 * Requested 300 s: it ends at 200. Requested 150 s: it is killed at 150 on
 * all 64 hosts, although its a-* hosts were done at 100. J2 (1 node, 10 s,
 * submitted at 1) waits for it and runs on a-1. */
static void test_wide_kill_at_requested(void)
{
    const char *plat = bl_src("platforms/test/wide-64.xml");
    bl_opts o = {0};
    static const bl_jobspec done[] = {{1, 0, 100, 300, 64, 0}, {2, 1, 10, 20, 1, 0}};
    static const bl_expect e_done[] = {{1, 0, 200}, {2, 200, 210}};
    static const int st_done[] = {ENG_JOB_DONE, ENG_JOB_DONE};
    CU_ASSERT_EQUAL(run_wide("easy", done, 2, plat, &o, e_done, st_done, 2, "wide, slowest"), 64);
    static const bl_jobspec killed[] = {{1, 0, 100, 150, 64, 0}, {2, 1, 10, 20, 1, 0}};
    static const bl_expect e_killed[] = {{1, 0, 150}, {2, 150, 160}};
    static const int st_killed[] = {ENG_JOB_KILLED, ENG_JOB_DONE};
    CU_ASSERT_EQUAL(run_wide("easy", killed, 2, plat, &o, e_killed, st_killed, 2, "wide, killed"),
                    64);
    CU_ASSERT_EQUAL(run_wide("conservative", killed, 2, plat, &o, e_killed, st_killed, 2,
                             "wide, killed, conservative"),
                    64);
}

/* wide-64.xml, b-17 down over [30, 60) (a trace). J1 (64 nodes, 100 s of
 * reference work, 200 s on its b hosts, requested 300) starts at 0 on all
 * 64. Killed: it fails at 30 with the one host, and J2 (1 node, 10 s,
 * submitted at 1) runs on a-1 at 30..40. Requeued (FCFS): J1 is back at
 * the head at 30, needs all 64 hosts, so waits for b-17 to come up at 60
 * and runs 60..260; J2 follows it at 260..270. */
static void test_wide_failure_one_host(void)
{
    const char *plat = bl_src("platforms/test/wide-64.xml");
    static const eng_fail_span b17[] = {{.host = "b-17", .start_s = 30, .end_s = 60, .line = 1}};
    static const bl_jobspec jobs[] = {{1, 0, 100, 300, 64, 0}, {2, 1, 10, 20, 1, 0}};
    bl_opts o = {.failures = {.enabled = true, .trace = b17, .n_trace = 1, .trace_path = "t"}};
    static const bl_expect e_kill[] = {{1, 0, 30}, {2, 30, 40}};
    static const int st_kill[] = {ENG_JOB_FAILED, ENG_JOB_DONE};
    CU_ASSERT_EQUAL(run_wide("fcfs", jobs, 2, plat, &o, e_kill, st_kill, 2, "wide, failure"), 64);
    o.failures.requeue = true;
    o.failures.max_requeues = 5;
    static const bl_expect e_req[] = {{1, 60, 260}, {2, 260, 270}};
    static const int st_req[] = {ENG_JOB_DONE, ENG_JOB_DONE};
    CU_ASSERT_EQUAL(run_wide("fcfs", jobs, 2, plat, &o, e_req, st_req, 2, "wide, failure, requeue"),
                    64);
}

int bl_suite_eng_sim(void)
{
    CU_pSuite s = CU_add_suite("eng_sim", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "ForHLR II platform: hosts, pools, cores", test_forhlr2);
    CU_add_test(s, "properties, zones, natural name order", test_properties_and_order);
    CU_add_test(s, "bad platforms: clear messages", test_bad_platform_message);
    CU_add_test(s, "scenarios: SimGrid schedule == core schedule", test_scenarios_match_core);
    CU_add_test(s, "random workloads, mixed speeds: SimGrid == core",
                test_random_workloads_match_core);
    CU_add_test(s, "a wide job ends with its slowest host", test_wide_mixed_speeds);
    CU_add_test(s, "a 64-host job killed at its requested time", test_wide_kill_at_requested);
    CU_add_test(s, "a failure on one host of a 64-host job: kill, requeue",
                test_wide_failure_one_host);
    return 0;
}
