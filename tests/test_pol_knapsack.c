/* test_pol_knapsack.c — the knapsack policy (policies/pol_knapsack.c):
 * hand-computed host choices on small platforms whose occupation
 * probabilities and prices make the answer obvious, each algorithm and
 * budget, core allocation, options, the same start times as EASY
 * (host choice never changes EASY's schedule on uniform hosts), and the
 * choice within an island. */
#include "bl_sched.h"
#include "bl_test.h"
#include "eng_policy.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Four single-core hosts (1 Gf):
 *   host  occupation  p     price
 *   h1    0.3         0.7   1
 *   h2    0           1.0   4
 *   h3    0.1         0.9   1
 *   h4    0.05        0.95  2
 * A 2-host job of 10 s costs 10 p per host-second on host of price p. */
static eng_platform *p4(void)
{
    const eng_host_desc d[] = {
        {.name = "h1", .speed_flops = 1e9, .sg_cores = 1, .price_per_s = "1", .occupation = "0.3"},
        {.name = "h2", .speed_flops = 1e9, .sg_cores = 1, .price_per_s = "4", .occupation = "0"},
        {.name = "h3", .speed_flops = 1e9, .sg_cores = 1, .price_per_s = "1", .occupation = "0.1"},
        {.name = "h4", .speed_flops = 1e9, .sg_cores = 1, .price_per_s = "2", .occupation = "0.05"},
    };
    eng_platform *p = NULL;
    eng_diag diag;
    eng_diag_clear(&diag);
    CU_ASSERT_EQUAL(eng_platform_build("p4", d, 4, "1Gf", &p, &diag), 0);
    return p;
}

/* Host set of job id as a bit mask of platform host indices (h1 = bit 0). */
static unsigned hosts_of(const bl_sched *s, int64_t id)
{
    if (!s->core)
        return 0;
    for (size_t i = 0; i < s->prep.n_jobs; i++) {
        if (s->prep.jobs[i].id != id)
            continue;
        const eng_job_result *r = &eng_core_results(s->core)[i];
        const int32_t *h = eng_core_alloc_hosts(s->core);
        unsigned mask = 0;
        for (int32_t k = 0; k < r->n_hosts; k++)
            mask |= 1u << h[r->hosts_off + k];
        return mask;
    }
    return 0;
}

#define H(i) (1u << ((i)-1))

/* Runs the 2-host job with the given options; returns its host mask. */
static unsigned pick(const char *algorithm, const char *budget)
{
    static const bl_jobspec jobs[] = {{1, 0, 10, 10, 2, 0}};
    pol_kv kv[2];
    size_t n = 0;
    if (algorithm)
        kv[n++] = (pol_kv){"algorithm", algorithm};
    if (budget)
        kv[n++] = (pol_kv){"budget", budget};
    bl_opts o = {.options = kv, .n_options = n};
    bl_sched s;
    bl_core_run("knapsack", jobs, 1, p4(), &o, &s);
    CU_ASSERT_EQUAL(s.rc, 0);
    if (s.rc)
        printf("\n  %s %s: %s", algorithm ? algorithm : "-", budget ? budget : "-", s.diag.msg);
    unsigned m = hosts_of(&s, 1);
    bl_sched_fini(&s);
    return m;
}

/* Without a budget every availability rule takes h2 and h4 (1.0 x 0.95). */
static void test_no_budget(void)
{
    CU_ASSERT_EQUAL(pick(NULL, NULL), H(2) | H(4));
    CU_ASSERT_EQUAL(pick("knapsack", NULL), H(2) | H(4));
    CU_ASSERT_EQUAL(pick("greedyjnt", NULL), H(2) | H(4));
    CU_ASSERT_EQUAL(pick("maxp", NULL), H(2) | H(4));
    CU_ASSERT_EQUAL(pick("group", NULL), H(2) | H(4));
    /* MinC: the two of price 1 (h1, h3); MaxP/C: p / cost, h3 0.09 and h1
     * 0.07 per unit ahead of h4 0.0475 and h2 0.025 */
    CU_ASSERT_EQUAL(pick("minc", NULL), H(1) | H(3));
    CU_ASSERT_EQUAL(pick("maxpc", NULL), H(1) | H(3));
}

/* Budget 2 per host-second: C = 2 x 2 x 10 = 40; costs h1 10, h2 40, h3 10,
 * h4 20. Affordable pairs: {h3, h4} 30 (0.855), {h1, h4} 30 (0.665),
 * {h1, h3} 20 (0.63). Knapsack finds {h3, h4}; GreedyJnt's MaxP {h2, h4}
 * (60) is over, so it takes MaxP/C's {h1, h3}. */
static void test_budget(void)
{
    CU_ASSERT_EQUAL(pick("knapsack", "2"), H(3) | H(4));
    CU_ASSERT_EQUAL(pick("group", "2"), H(3) | H(4));
    CU_ASSERT_EQUAL(pick("greedyjnt", "2"), H(1) | H(3));
    CU_ASSERT_EQUAL(pick("maxp", "2"), H(2) | H(4)); /* ignores the budget */
    CU_ASSERT_EQUAL(pick("minc", "2"), H(1) | H(3));
    /* budget 3: C = 60, {h2, h4} fits exactly */
    CU_ASSERT_EQUAL(pick("knapsack", "3"), H(2) | H(4));
    /* budget 2.5: C = 50: {h2, h3} 50 (0.9) beats {h3, h4} (0.855) */
    CU_ASSERT_EQUAL(pick("knapsack", "2.5"), H(2) | H(3));
    CU_ASSERT_EQUAL(pick("greedyjnt", "2.5"), H(1) | H(3));
    /* budget 0.5: C = 10 < 20, nothing fits: the cheapest hosts, h1 and h3 */
    CU_ASSERT_EQUAL(pick("knapsack", "0.5"), H(1) | H(3));
    CU_ASSERT_EQUAL(pick("greedyjnt", "0.5"), H(1) | H(3));
}

/* Jobs started in one call take hosts in queue order: job 1 (2 hosts) gets
 * h2, h4; job 2 (1 host) the best left, h3; job 3 the last, h1. */
static void test_one_call_many_starts(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 10, 10, 2, 0}, {2, 0, 10, 10, 1, 0}, {3, 0, 10, 10, 1, 0}, {4, 0, 5, 5, 1, 0}};
    bl_sched s;
    bl_core_run("knapsack", jobs, 4, p4(), NULL, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    CU_ASSERT_EQUAL(hosts_of(&s, 1), H(2) | H(4));
    CU_ASSERT_EQUAL(hosts_of(&s, 2), H(3));
    CU_ASSERT_EQUAL(hosts_of(&s, 3), H(1));
    /* job 4 waits for the first end (10) and then takes the best free host:
     * all end at 10, so h2 */
    CU_ASSERT_EQUAL(bl_start(&s, 4), 10);
    CU_ASSERT_EQUAL(hosts_of(&s, 4), H(2));
    bl_sched_fini(&s);
}

/* EASY's reservation holds: J1 takes 3 hosts until 100; J2 (4 hosts) waits
 * with shadow 100; J3 (1 host, 50 s) backfills on the one free host, h1
 * (the only one left: J1 took h2, h4, h3). */
static void test_easy_reservation(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 100, 100, 3, 0}, {2, 1, 10, 10, 4, 0}, {3, 2, 50, 50, 1, 0}, {4, 3, 50, 200, 1, 0}};
    static const bl_expect e[] = {{1, 0, 100}, {2, 100, 110}, {3, 2, 52}, {4, 110, 160}};
    bl_sched s;
    bl_core_run("knapsack", jobs, 4, p4(), NULL, &s);
    bl_check(&s, e, 4, "reservation");
    CU_ASSERT_EQUAL(hosts_of(&s, 1), H(2) | H(3) | H(4));
    CU_ASSERT_EQUAL(hosts_of(&s, 3), H(1));
    bl_sched_fini(&s);
}

/* Core allocation: two 4-core hosts, hA (P_o 0.2, price 1) and hB (P_o 0,
 * price 3); a 6-core job of 10 s. Without a budget: hB first (p = 1, all 4
 * cores), then 2 cores of hA. Budget 0.5 per core-second: C = 30, that
 * cover costs 30 + 5 = 35 > 30, so the MaxP/C ranking (p / price per
 * core: hA 3.2, hB 1.33) takes hA's 4 cores (10) and 2 of hB's (15). */
static void test_core_allocation(void)
{
    const eng_host_desc d[] = {
        {.name = "hA", .speed_flops = 1e9, .sg_cores = 4, .price_per_s = "1", .occupation = "0.2"},
        {.name = "hB", .speed_flops = 1e9, .sg_cores = 4, .price_per_s = "3", .occupation = "0"},
    };
    static const bl_jobspec jobs[] = {{1, 0, 10, 10, 6, 0}};
    for (int with_budget = 0; with_budget < 2; with_budget++) {
        eng_platform *p = NULL;
        eng_diag diag;
        eng_diag_clear(&diag);
        CU_ASSERT_EQUAL_FATAL(eng_platform_build("core", d, 2, "1Gf", &p, &diag), 0);
        pol_kv kv[] = {{"budget", "0.5"}};
        bl_opts o = {.alloc = POL_ALLOC_CORE, .options = kv, .n_options = (size_t)with_budget};
        bl_sched s;
        bl_core_run("knapsack", jobs, 1, p, &o, &s);
        CU_ASSERT_EQUAL_FATAL(s.rc, 0);
        const eng_job_result *r = &eng_core_results(s.core)[0];
        const int32_t *h = eng_core_alloc_hosts(s.core), *c = eng_core_alloc_cores(s.core);
        int cores[2] = {0, 0};
        for (int32_t k = 0; k < r->n_hosts; k++)
            cores[h[r->hosts_off + k]] += c[r->hosts_off + k];
        bool ok = with_budget ? cores[0] == 4 && cores[1] == 2 : cores[0] == 2 && cores[1] == 4;
        CU_ASSERT(ok);
        bl_sched_fini(&s);
    }
}

static void test_options(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 10, 10, 2, 0}};
    const struct {
        const char *k, *v, *msg;
    } bad[] = {
        {"algorithm", "best", "expected knapsack, greedyjnt, maxp, minc, maxpc or group"},
        {"budget", "-1", "option budget: expected a number >= 0"},
        {"budget", "cheap", "option budget"},
        {"cost_steps", "0", "option cost_steps"},
        {"speed", "1", "unknown option 'speed'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        pol_kv kv[] = {{bad[i].k, bad[i].v}};
        bl_opts o = {.options = kv, .n_options = 1};
        bl_sched s;
        bl_core_run("knapsack", jobs, 1, p4(), &o, &s);
        CU_ASSERT_EQUAL(s.rc, ENG_INVAL);
        CU_ASSERT(bl_contains(s.diag.msg, bad[i].msg));
        bl_sched_fini(&s);
    }
    /* prices without a common quantum: costs on a grid of C / cost_steps,
     * rounded up, so even a coarse grid never exceeds the budget. C = 40;
     * with 3 steps (unit 13.3) the costs become 1, 4, 1, 2 units of a
     * budget of 3, and {h3, h4} (30.0008) is still found. */
    const eng_host_desc d[] = {
        {.name = "h1",
         .speed_flops = 1e9,
         .sg_cores = 1,
         .price_per_s = "1.00005",
         .occupation = "0.3"},
        {.name = "h2",
         .speed_flops = 1e9,
         .sg_cores = 1,
         .price_per_s = "4.00003",
         .occupation = "0"},
        {.name = "h3",
         .speed_flops = 1e9,
         .sg_cores = 1,
         .price_per_s = "1.00001",
         .occupation = "0.1"},
        {.name = "h4",
         .speed_flops = 1e9,
         .sg_cores = 1,
         .price_per_s = "2.00007",
         .occupation = "0.05"},
    };
    const double price[] = {1.00005, 4.00003, 1.00001, 2.00007};
    for (int steps = 0; steps < 2; steps++) {
        eng_platform *p = NULL;
        eng_diag diag;
        eng_diag_clear(&diag);
        CU_ASSERT_EQUAL_FATAL(eng_platform_build("odd", d, 4, "1Gf", &p, &diag), 0);
        pol_kv kv[] = {{"budget", "2"}, {"cost_steps", "3"}};
        bl_opts o = {.options = kv, .n_options = 1 + (size_t)steps};
        bl_sched s;
        bl_core_run("knapsack", jobs, 1, p, &o, &s);
        CU_ASSERT_EQUAL(s.rc, 0);
        unsigned m = hosts_of(&s, 1);
        double cost = 0;
        for (int i = 0; i < 4; i++)
            if (m & (1u << i))
                cost += price[i] * 10;
        CU_ASSERT(cost <= 40);
        CU_ASSERT_EQUAL(m, H(3) | H(4));
        bl_sched_fini(&s);
    }
}

/* Islands a (a1 p 0.7, a2 p 1.0) and b (b1 0.5, b2 0.9, b3 0.95), single
 * cores, no prices. J1 and J2 (2 hosts, 10 s) start at 0, J3 (4 hosts,
 * larger than every island) at 10.
 *  strict: J1 goes where pol_island_pick() puts it, island a (2 free
 *  against 3: best fit), on its only pair {a1, a2}; J2 to b, on its best
 *  pair {b2, b3}; J3 spans on the engine's hosts, island by island: a1, a2,
 *  then the lowest-named of b, b1 and b2.
 *  ignore: the most available hosts anywhere: J1 {a2, b3}, J2 {a1, b2}
 *  (0.9 x 0.7 against b1's 0.5), J3 {a1, a2, b2, b3}. */
static eng_platform *islands5(void)
{
    const eng_host_desc d[] = {
        {.name = "a1", .speed_flops = 1e9, .sg_cores = 1, .occupation = "0.3", .island = "a"},
        {.name = "a2", .speed_flops = 1e9, .sg_cores = 1, .occupation = "0", .island = "a"},
        {.name = "b1", .speed_flops = 1e9, .sg_cores = 1, .occupation = "0.5", .island = "b"},
        {.name = "b2", .speed_flops = 1e9, .sg_cores = 1, .occupation = "0.1", .island = "b"},
        {.name = "b3", .speed_flops = 1e9, .sg_cores = 1, .occupation = "0.05", .island = "b"},
    };
    eng_platform *p = NULL;
    eng_diag diag;
    eng_diag_clear(&diag);
    CU_ASSERT_EQUAL(eng_platform_build("isl5", d, 5, "1Gf", &p, &diag), 0);
    return p;
}

static void test_islands(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 10, 10, 2, 0}, {2, 0, 10, 10, 2, 0}, {3, 0, 10, 10, 4, 0}};
    for (int ignore = 0; ignore < 2; ignore++) {
        bl_opts o = {.ignore_islands = ignore};
        bl_sched s;
        bl_core_run("knapsack", jobs, 3, islands5(), &o, &s);
        CU_ASSERT_EQUAL_FATAL(s.rc, 0);
        CU_ASSERT_EQUAL(bl_start(&s, 3), 10);
        if (!ignore) {
            CU_ASSERT_EQUAL(hosts_of(&s, 1), H(1) | H(2));
            CU_ASSERT_EQUAL(hosts_of(&s, 2), H(4) | H(5));
            CU_ASSERT_EQUAL(hosts_of(&s, 3), H(1) | H(2) | H(3) | H(4));
        } else {
            CU_ASSERT_EQUAL(hosts_of(&s, 1), H(2) | H(5));
            CU_ASSERT_EQUAL(hosts_of(&s, 2), H(1) | H(4));
            CU_ASSERT_EQUAL(hosts_of(&s, 3), H(1) | H(2) | H(4) | H(5));
        }
        bl_sched_fini(&s);
    }
}

/* On uniform hosts the host choice cannot change when jobs start: the same
 * start times as EASY on random workloads, every algorithm. */
static void test_same_schedule_as_easy(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 77);
    enum { NH = 10, NJ = 150 };
    static const char *algos[] = {"knapsack", "greedyjnt", "maxp", "minc", "maxpc", "group"};
    int diffs = 0;
    for (int round = 0; round < 3; round++) {
        bl_jobspec jobs[NJ];
        double t = 0;
        for (int i = 0; i < NJ; i++) {
            t += floor(gsl_ran_exponential(rng, 30));
            double run = 1 + floor(gsl_rng_uniform(rng) * 300);
            jobs[i] = (bl_jobspec){i + 1,
                                   t,
                                   run,
                                   ceil(run * (1 + 2 * gsl_rng_uniform(rng))),
                                   1 + (int)gsl_rng_uniform_int(rng, NH),
                                   0};
        }
        eng_host_desc d[NH];
        char names[NH][8], occ[NH][16], price[NH][16];
        for (int i = 0; i < NH; i++) {
            snprintf(names[i], sizeof names[i], "n%d", i + 1);
            snprintf(occ[i], sizeof occ[i], "%.3f", 0.2 * gsl_rng_uniform(rng));
            snprintf(price[i], sizeof price[i], "%d", 1 + (int)gsl_rng_uniform_int(rng, 5));
            d[i] = (eng_host_desc){.name = names[i],
                                   .speed_flops = 1e9,
                                   .sg_cores = 1,
                                   .price_per_s = price[i],
                                   .occupation = occ[i]};
        }
        bl_sched easy;
        eng_platform *pe = NULL;
        eng_diag diag;
        eng_diag_clear(&diag);
        eng_platform_build("r", d, NH, "1Gf", &pe, &diag);
        bl_core_run("easy", jobs, NJ, pe, NULL, &easy);
        CU_ASSERT_EQUAL_FATAL(easy.rc, 0);
        for (size_t a = 0; a < sizeof algos / sizeof *algos; a++) {
            pol_kv kv[] = {{"algorithm", algos[a]}, {"budget", "2.5"}};
            bl_opts o = {.options = kv, .n_options = 1 + (size_t)(round % 2)};
            eng_platform *pk = NULL;
            eng_platform_build("r", d, NH, "1Gf", &pk, &diag);
            bl_sched ks;
            bl_core_run("knapsack", jobs, NJ, pk, &o, &ks);
            CU_ASSERT_EQUAL_FATAL(ks.rc, 0);
            for (int i = 0; i < NJ; i++)
                diffs += bl_start(&ks, i + 1) != bl_start(&easy, i + 1);
            bl_sched_fini(&ks);
        }
        bl_sched_fini(&easy);
    }
    CU_ASSERT_EQUAL(diffs, 0);
    gsl_rng_free(rng);
}

/* With islands too the host choice cannot change when jobs start: the
 * same start times as EASY with islands (islands of 5 and 3 hosts,
 * random workloads, jobs up to 8 hosts, so some span both). */
static void test_islands_same_schedule_as_easy(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 1117);
    enum { NJ = 200 };
    static const int sizes[] = {5, 3};
    int diffs = 0;
    for (int round = 0; round < 3; round++) {
        bl_jobspec jobs[NJ];
        double t = 0;
        for (int i = 0; i < NJ; i++) {
            t += floor(gsl_ran_exponential(rng, 20));
            double run = 1 + floor(gsl_rng_uniform(rng) * 300);
            jobs[i] = (bl_jobspec){i + 1,
                                   t,
                                   run,
                                   ceil(run * (1 + 2 * gsl_rng_uniform(rng))),
                                   1 + (int)gsl_rng_uniform_int(rng, 8),
                                   0};
        }
        bl_sched easy, ks;
        bl_core_run("easy", jobs, NJ, bl_island_platform(sizes, 2, 1), NULL, &easy);
        bl_core_run("knapsack", jobs, NJ, bl_island_platform(sizes, 2, 1), NULL, &ks);
        CU_ASSERT_EQUAL_FATAL(easy.rc, 0);
        CU_ASSERT_EQUAL_FATAL(ks.rc, 0);
        for (int i = 0; i < NJ; i++)
            diffs += bl_start(&ks, i + 1) != bl_start(&easy, i + 1);
        bl_sched_fini(&ks);
        bl_sched_fini(&easy);
    }
    CU_ASSERT_EQUAL(diffs, 0);
    gsl_rng_free(rng);
}

int bl_suite_pol_knapsack(void)
{
    CU_pSuite s = CU_add_suite("pol_knapsack", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "no budget: the most available hosts", test_no_budget);
    CU_add_test(s, "budgets: knapsack vs the greedy rules", test_budget);
    CU_add_test(s, "several starts in one call", test_one_call_many_starts);
    CU_add_test(s, "EASY's reservation and backfill", test_easy_reservation);
    CU_add_test(s, "core allocation: an ordered cover", test_core_allocation);
    CU_add_test(s, "options", test_options);
    CU_add_test(s, "same start times as EASY on uniform hosts", test_same_schedule_as_easy);
    CU_add_test(s, "islands: the island EASY places a job in, spans as the engine", test_islands);
    CU_add_test(s, "islands: same start times as EASY", test_islands_same_schedule_as_easy);
    return 0;
}
