/* test_pol_sa.c — the `sa` policy: hand-computed plans (derivations next to
 * the expectations), the energy option changing a decision, host choice,
 * option validation, and random workloads under the invariant checker in
 * every engine configuration with non-default options. */
#include "bl_scenarios.h"
#include "bl_test.h"
#include "eng_error.h"
#include "gpu_sa.h"
#include "eng_policy.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void run4(const bl_jobspec *jobs, size_t n, const pol_kv *o, size_t n_o,
                 const bl_expect *exp, size_t n_exp, const char *what)
{
    bl_sched s;
    bl_opts opts = {
        .alloc = POL_ALLOC_NODE, .walltime = ENG_WALLTIME_KILL, .options = o, .n_options = n_o};
    int rc = bl_core_run("sa", jobs, n, bl_uniform_platform(4, 1), &opts, &s);
    if (rc)
        printf("\n  %s: %s", what, s.diag.msg);
    CU_ASSERT_EQUAL(rc, 0);
    bl_check(&s, exp, n_exp, what);
    bl_sched_fini(&s);
}

/* S1 at t=2 (J1 holds 2 hosts until 10, i.e. 8 s from now; J2 waited 1 s):
 *   order J2, J3: J2 [8, 13) on 4 hosts; J3 fits [0, 8) but not [8, 13):
 *     [13, 21). Cmax 21, F = (13 + 1) + 21 = 35, E1 = 2 x 21 + 35 = 77;
 *   order J3, J2: J3 [0, 8), J2 [8, 13): Cmax 13, F = 8 + (13 + 1) = 22,
 *     E1 = 26 + 22 = 48.
 * J3 starts at 2 (ends 10), J2 at 10 when both end. */
static void test_plan_s1(void)
{
    static const bl_expect e[] = {{1, 0, 10}, {2, 10, 15}, {3, 2, 10}};
    run4(S1, N_OF(S1), NULL, 0, e, N_OF(e), "S1");
}

/* J1 holds all 4 hosts [0, 10). J2 (all 4, 100 s) and J3 (1 host, 10 s)
 * arrive at 1. At 10 (both waited 9 s):
 *   order J2, J3: J2 [0, 100), J3 [100, 110): Cmax 110,
 *     F = 109 + 119 = 228, E1 = 2 x 110 + 228 = 448;
 *   order J3, J2: J3 [0, 10), J2 [10, 110): Cmax 110, F = 19 + 119 = 138,
 *     E1 = 358.
 * sa runs J3 first (10-20), then J2 (20-120); conservative backfilling and
 * FCFS run J2 at 10. With energy=e2, a1=1, a2=0 only Cmax counts: both
 * orders tie and the queue order (chain 0's start, kept unless strictly
 * beaten) wins, as in conservative backfilling. */
static const bl_jobspec reorder[] = {
    {1, 0, 10, 10, 4, 0},
    {2, 1, 100, 100, 4, 0},
    {3, 1, 10, 10, 1, 0},
};

static void test_plan_reorders(void)
{
    static const bl_expect e[] = {{1, 0, 10}, {2, 20, 120}, {3, 10, 20}};
    run4(reorder, N_OF(reorder), NULL, 0, e, N_OF(e), "reorder e1");
    static const pol_kv cpu[] = {{"backend", "cpu"}, {"chains", "3"}, {"iterations", "10"}};
    run4(reorder, N_OF(reorder), cpu, N_OF(cpu), e, N_OF(e), "reorder e1 cpu");
    static const bl_expect e2[] = {{1, 0, 10}, {2, 10, 110}, {3, 110, 120}};
    static const pol_kv cmax_only[] = {{"energy", "e2"}, {"a1", "1"}, {"a2", "0"}};
    run4(reorder, N_OF(reorder), cmax_only, N_OF(cmax_only), e2, N_OF(e2), "reorder cmax only");
    /* window=1: only the queue head is planned — FCFS */
    static const pol_kv head[] = {{"window", "1"}};
    run4(reorder, N_OF(reorder), head, N_OF(head), e2, N_OF(e2), "window 1");
}

/* S3 (early end): J1 asks 100 s, ends at 10; J2 and J3 (2 hosts, 20 s)
 * both start at 10: the plan at 10 puts both at 0. */
static void test_plan_early_end(void)
{
    static const bl_expect e[] = {{1, 0, 10}, {2, 10, 30}, {3, 10, 30}};
    run4(S3, N_OF(S3), NULL, 0, e, N_OF(e), "S3");
}

/* hosts=fastest: on n1 (1 Gf) and n2 (2 Gf, reference 1 Gf), a one-host
 * job of 10 s runs on n2 in 5 s; the engine's choice (n1) takes 10 s. */
static void test_fastest_hosts(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 10, 10, 1, 0}};
    for (int fastest = 0; fastest < 2; fastest++) {
        eng_host_desc d[2] = {{.name = "n1", .speed_flops = 1e9, .sg_cores = 1},
                              {.name = "n2", .speed_flops = 2e9, .sg_cores = 1}};
        eng_platform *p = NULL;
        eng_diag diag;
        eng_diag_clear(&diag);
        CU_ASSERT_EQUAL_FATAL(eng_platform_build("two", d, 2, "1Gf", &p, &diag), 0);
        static const pol_kv o[] = {{"hosts", "fastest"}};
        bl_opts opts = {.alloc = POL_ALLOC_NODE,
                        .walltime = ENG_WALLTIME_KILL,
                        .options = fastest ? o : NULL,
                        .n_options = fastest ? 1 : 0};
        bl_sched s;
        CU_ASSERT_EQUAL(bl_core_run("sa", jobs, 1, p, &opts, &s), 0);
        CU_ASSERT_DOUBLE_EQUAL(bl_end(&s, 1), fastest ? 5 : 10, 1e-9);
        const eng_job_result *r = eng_core_results(s.core);
        CU_ASSERT_EQUAL(r[0].n_hosts, 1);
        CU_ASSERT_EQUAL(eng_core_alloc_hosts(s.core)[r[0].hosts_off], fastest ? 1 : 0);
        bl_sched_fini(&s);
    }
}

static void expect_bad(const pol_kv *o, const char *needle)
{
    bl_sched s;
    bl_opts opts = {
        .alloc = POL_ALLOC_NODE, .walltime = ENG_WALLTIME_KILL, .options = o, .n_options = 1};
    int rc = bl_core_run("sa", S1, N_OF(S1), bl_uniform_platform(4, 1), &opts, &s);
    CU_ASSERT_NOT_EQUAL(rc, 0);
    CU_ASSERT(bl_contains(s.diag.msg, needle));
    bl_sched_fini(&s);
}

/* Islands a1-a3 (a) and b1, b2 (b), whole nodes, default options. At 0
 * J1 (1 node, 100 s), J2 (1 node, 50 s) and J3 (1 node, 200 s) all start
 * (the plan has room): J1 best fits b (b1), J2 b (b2), J3 a (a1). J4 (3
 * nodes, 10 s) arrives at 10: 2 free, it waits. At 50 J2 ends and J5 (1
 * node, 10 s) arrives: 3 units free (a2, a3, b2), so on counts J4 fits.
 * The plan: J4 waited 40, J5 0; order J4, J5: J4 [0, 10), J5 [10, 20),
 * F = 50 + 20; order J5, J4: J5 [0, 10), J4 [10, 20), F = 10 + 60: a tie
 * at E1 = n Cmax + F = 2 x 20 + 70 = 110, so the queue order stays: J4
 * now, J5 at +10. No island has 3 free: J4 is left, nothing starts, the policy wakes
 * at 60, and so on every 10 s (the same tie). At 100 J1 ends (a2, a3, b1,
 * b2 free): the plan starts both now; J4 still fits no island, J5 goes to
 * a (best fit tie, lower island): a2, 100-110. At 200 J3 ends and J4 gets
 * a1-a3: 200-210, later than every plan said. Ignoring islands: J1-J3 on
 * a1-a3, and at 50 J4 takes a2, b1, b2 (50-60), J5 then 60-70. */
static void test_islands_start_later(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 100, 100, 1, 0},
                                      {2, 0, 50, 50, 1, 0},
                                      {3, 0, 200, 200, 1, 0},
                                      {4, 10, 10, 10, 3, 0},
                                      {5, 50, 10, 10, 1, 0}};
    static const int sizes[] = {3, 2};
    static const bl_expect strict[] = {
        {1, 0, 100}, {2, 0, 50}, {3, 0, 200}, {4, 200, 210}, {5, 100, 110}};
    static const bl_expect ignore[] = {
        {1, 0, 100}, {2, 0, 50}, {3, 0, 200}, {4, 50, 60}, {5, 60, 70}};
    for (int k = 0; k < 2; k++) {
        bl_sched s;
        bl_opts opts = {.alloc = POL_ALLOC_NODE, .ignore_islands = k == 1};
        int rc = bl_core_run("sa", jobs, N_OF(jobs), bl_island_platform(sizes, 2, 1), &opts, &s);
        if (rc)
            printf("\n  islands: %s", s.diag.msg);
        CU_ASSERT_EQUAL(rc, 0);
        bl_check(&s, k == 0 ? strict : ignore, N_OF(strict), k == 0 ? "strict" : "ignore");
        if (k == 0) {
            const eng_job_result *res = eng_core_results(s.core);
            const int32_t *h = eng_core_alloc_hosts(s.core);
            /* J4 (index 3) on a1-a3, J5 (index 4) on a2 */
            CU_ASSERT_EQUAL(res[3].n_hosts, 3);
            for (int32_t i = 0; i < res[3].n_hosts; i++)
                CU_ASSERT(h[res[3].hosts_off + (size_t)i] <= 2);
            CU_ASSERT_EQUAL(res[4].n_hosts, 1);
            CU_ASSERT_EQUAL(h[res[4].hosts_off], 1);
        }
        bl_sched_fini(&s);
    }
}

static void test_options(void)
{
    static const pol_kv w0[] = {{"window", "0"}}, w2[] = {{"window", "2x"}},
                        it[] = {{"iterations", "-1"}}, en[] = {{"energy", "e3"}},
                        a1[] = {{"a1", "abc"}}, st[] = {{"stop", "never"}},
                        be[] = {{"backend", "gpu"}}, ho[] = {{"hosts", "random"}},
                        ch[] = {{"chains", "0"}}, unk[] = {{"temperature", "1"}},
                        ac[] = {{"acceptance", "always"}}, pm[] = {{"parallel", "machines"}},
                        px[] = {{"parallel", "blocks"}};
    expect_bad(w0, "option window: expected an integer in 1..1024");
    expect_bad(w2, "window");
    expect_bad(it, "iterations");
    expect_bad(en, "expected e1 or e2");
    expect_bad(a1, "a1");
    expect_bad(st, "stop");
    expect_bad(be, "expected auto, cpu or cuda");
    expect_bad(ho, "hosts");
    expect_bad(ch, "chains");
    expect_bad(unk, "unknown option 'temperature'");
    expect_bad(ac, "expected metropolis or paper");
    expect_bad(pm, "no per-machine job lists");
    expect_bad(px, "expected chains or machines");
    char why[256];
    if (!gpu_sa_cuda_available(why, sizeof why)) {
        static const pol_kv cuda[] = {{"backend", "cuda"}};
        expect_bad(cuda, "not available");
    }
}

/* Random workloads (as in the conformance suite) with non-default options,
 * node and core allocation, kill and extend, uniform and heterogeneous
 * speeds: the checker stays silent and every job runs. */
static void test_random_checked(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 8);
    static const pol_kv opts_a[] = {
        {"window", "16"}, {"chains", "2"}, {"stop", "e1"}, {"hosts", "fastest"}};
    static const pol_kv opts_b[] = {{"energy", "e2"},      {"a1", "0.2"},   {"a2", "0.8"},
                                    {"iterations", "16"},  {"window", "3"}, {"acceptance", "paper"},
                                    {"parallel", "chains"}};
    for (int round = 0; round < 16; round++) {
        bool hetero = round % 2;
        pol_alloc alloc = (round / 2) % 2 ? POL_ALLOC_CORE : POL_ALLOC_NODE;
        eng_walltime wt = (round / 4) % 2 ? ENG_WALLTIME_EXTEND : ENG_WALLTIME_KILL;
        int cores = 1 + round % 3;
        enum { N = 8 };
        eng_host_desc d[N];
        char names[N][8];
        for (int i = 0; i < N; i++) {
            snprintf(names[i], sizeof names[i], "n%d", i + 1);
            d[i] = (eng_host_desc){.name = names[i],
                                   .speed_flops = hetero ? 1e9 * (1 + i % 3) : 1e9,
                                   .sg_cores = cores};
        }
        eng_platform *p = NULL;
        eng_diag diag;
        eng_diag_clear(&diag);
        CU_ASSERT_EQUAL_FATAL(eng_platform_build("random", d, N, "1Gf", &p, &diag), 0);
        size_t n = 150;
        bl_jobspec jobs[150];
        double t = 0;
        for (size_t i = 0; i < n; i++) {
            t += gsl_rng_uniform(r) < 0.3 ? 0 : floor(gsl_ran_exponential(r, 40));
            int procs = 1 + (int)gsl_rng_uniform_int(r, (unsigned long)(N * cores));
            double run = floor(exp(gsl_rng_uniform(r) * log(3000)));
            double req = gsl_rng_uniform(r) < 0.05 ? floor(run * 0.7)
                                                   : ceil(run * (1 + 4 * gsl_rng_uniform(r)));
            jobs[i] = (bl_jobspec){(int64_t)i + 1, t, run, req, procs, 0};
        }
        const pol_kv *o = round / 8 ? opts_b : opts_a;
        bl_opts opts = {.alloc = alloc,
                        .walltime = wt,
                        .options = o,
                        .n_options = round / 8 ? N_OF(opts_b) : N_OF(opts_a)};
        bl_sched s;
        int rc = bl_core_run("sa", jobs, n, p, &opts, &s);
        if (rc)
            printf("\n  round %d: %s", round, s.diag.msg);
        CU_ASSERT_EQUAL(rc, 0);
        if (rc == 0)
            CU_ASSERT_EQUAL(eng_core_jobs_left(s.core), 0);
        bl_sched_fini(&s);
    }
    gsl_rng_free(r);
}

/* The same seed gives the same schedule; the backend does not matter
 * (with 128 chains auto resolves to cuda where a device exists). */
static void test_deterministic(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 3);
    enum { N = 120 };
    bl_jobspec jobs[N];
    double t = 0;
    for (size_t i = 0; i < N; i++) {
        t += floor(gsl_ran_exponential(r, 30));
        double run = 1 + floor(gsl_rng_uniform(r) * 500);
        jobs[i] = (bl_jobspec){
            (int64_t)i + 1, t, run, run * 2, 1 + (int)gsl_rng_uniform_int(r, 4), 0};
    }
    gsl_rng_free(r);
    static const pol_kv a[] = {
        {"backend", "cpu"}, {"chains", "128"}, {"window", "8"}, {"iterations", "16"}};
    static const pol_kv b[] = {
        {"backend", "auto"}, {"chains", "128"}, {"window", "8"}, {"iterations", "16"}};
    bl_sched x, y;
    bl_opts oa = {
        .alloc = POL_ALLOC_NODE, .walltime = ENG_WALLTIME_KILL, .options = a, .n_options = N_OF(a)};
    bl_opts ob = oa;
    ob.options = b;
    CU_ASSERT_EQUAL_FATAL(bl_core_run("sa", jobs, N, bl_uniform_platform(4, 1), &oa, &x), 0);
    CU_ASSERT_EQUAL_FATAL(bl_core_run("sa", jobs, N, bl_uniform_platform(4, 1), &ob, &y), 0);
    int diff = 0;
    for (size_t i = 0; i < N; i++)
        diff += bl_start(&x, (int64_t)i + 1) != bl_start(&y, (int64_t)i + 1);
    CU_ASSERT_EQUAL(diff, 0);
    /* the manifest's report: the backend used and as many refinements */
    char rx[256], ry[256];
    eng_core_policy_report(x.core, rx, sizeof rx);
    eng_core_policy_report(y.core, ry, sizeof ry);
    CU_ASSERT(strncmp(rx, "backend=cpu refinements=", 24) == 0);
    CU_ASSERT(atoi(rx + 24) > 0);
    CU_ASSERT_STRING_EQUAL(strchr(rx, ' '), strchr(ry, ' '));
    CU_ASSERT(eng_core_policy_wall_s(x.core) > 0);
    bl_sched_fini(&x);
    bl_sched_fini(&y);
}

/* Two pools: one report per pool, named by its label. Pool "queue 1" gets
 * J1 alone (one refinement); pool "queue 2" gets nothing to plan. */
static void test_report_per_pool(void)
{
    eng_host_desc d[] = {
        {.name = "a1", .speed_flops = 1e9, .sg_cores = 1, .queues = "1"},
        {.name = "b1", .speed_flops = 1e9, .sg_cores = 1, .queues = "2"},
    };
    eng_platform *p = NULL;
    eng_diag diag;
    eng_diag_clear(&diag);
    CU_ASSERT_EQUAL_FATAL(eng_platform_build("two", d, 2, NULL, &p, &diag), 0);
    static const bl_jobspec jobs[] = {{1, 0, 10, 20, 1, 1}};
    static const pol_kv o[] = {{"backend", "cpu"}};
    bl_opts opts = {.options = o, .n_options = 1};
    bl_sched s;
    CU_ASSERT_EQUAL_FATAL(bl_core_run("sa", jobs, 1, p, &opts, &s), 0);
    char r[256];
    eng_core_policy_report(s.core, r, sizeof r);
    CU_ASSERT_STRING_EQUAL(r, "queue 1: backend=cpu refinements=1; queue 2: backend=cpu "
                              "refinements=0");
    char small[20];
    eng_core_policy_report(s.core, small, sizeof small); /* cut, terminated */
    CU_ASSERT_EQUAL(strlen(small), sizeof small - 1);
    bl_sched_fini(&s);
    /* a policy without a report gives "" */
    bl_core_run("easy", jobs, 1, bl_uniform_platform(2, 1), NULL, &s);
    r[0] = 'x';
    eng_core_policy_report(s.core, r, sizeof r);
    CU_ASSERT_STRING_EQUAL(r, "");
    bl_sched_fini(&s);
}

int bl_suite_pol_sa(void)
{
    CU_pSuite s = CU_add_suite("pol_sa", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "S1: the plan backfills J3", test_plan_s1);
    CU_add_test(s, "a short job overtakes a wide one (E1); E2 on Cmax alone does not",
                test_plan_reorders);
    CU_add_test(s, "S3: early end", test_plan_early_end);
    CU_add_test(s, "hosts=fastest", test_fastest_hosts);
    CU_add_test(s, "islands: a planned start no island can host waits", test_islands_start_later);
    CU_add_test(s, "options validated", test_options);
    CU_add_test(s, "the policy report, per pool", test_report_per_pool);
    CU_add_test(s, "random workloads under the checker", test_random_checked);
    CU_add_test(s, "deterministic across backends", test_deterministic);
    return 0;
}
