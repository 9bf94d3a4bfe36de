/* test_pol_slotsched.c — the `alp` and `amp` batch policies through the
 * scheduling core with the invariant checker on: hand-computed schedules
 * (AMP pairing a cheap and an expensive host that ALP must refuse, the
 * faster host chosen by the time criterion, reservations kept between
 * cycles, the cycle period and the batch trigger, core allocation with
 * named hosts) and option validation. */
#include "bl_sched.h"
#include "bl_test.h"
#include "eng_core.h"
#include "eng_error.h"
#include "pol_registry.h"

#include <stdlib.h>
#include <string.h>

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* n single-core hosts h1..hn with the given speeds (Gf) and prices. */
static eng_platform *platform(size_t n, const char *const *speeds_gf, const char *const *prices,
                              int cores)
{
    eng_host_desc d[8];
    char names[8][24];
    for (size_t i = 0; i < n; i++) {
        snprintf(names[i], sizeof names[i], "h%zu", i + 1);
        d[i] = (eng_host_desc){.name = names[i],
                               .speed_flops = 1e9 * atof(speeds_gf[i]),
                               .sg_cores = cores,
                               .price_per_s = prices[i]};
    }
    eng_platform *p = NULL;
    eng_diag diag;
    eng_diag_clear(&diag);
    CU_ASSERT_EQUAL(eng_platform_build("test", d, n, "1Gf", &p, &diag), 0);
    return p;
}

/* The platform indices of job id's hosts as a bit mask (bit 0 = h1). */
static unsigned hosts_of(const bl_sched *s, int64_t id)
{
    for (size_t i = 0; i < s->prep.n_jobs; i++)
        if (s->prep.jobs[i].id == id) {
            const eng_job_result *r = &eng_core_results(s->core)[i];
            const int32_t *h = eng_core_alloc_hosts(s->core) + r->hosts_off;
            unsigned m = 0;
            for (int32_t k = 0; k < r->n_hosts; k++)
                m |= 1u << h[k];
            return m;
        }
    return 0;
}

static int run(const char *policy, const bl_jobspec *jobs, size_t n, eng_platform *p,
               const pol_kv *kv, size_t n_kv, pol_alloc alloc, bl_sched *s)
{
    bl_opts o = {.alloc = alloc, .options = kv, .n_options = n_kv};
    int rc = bl_core_run(policy, jobs, n, p, &o, s);
    if (rc)
        printf("\n  %s: %s\n", policy, s->diag.msg);
    return rc;
}

/* h1..h3 speed 1, price 1; h4 speed 2, price 3; price_limit 2. J1 and J2
 * each ask 2 hosts for 100 s at t = 0.
 * ALP refuses h4 (3 > 2). Pass 1: J1 at 0 on h1, h2; J2 takes h3 at 0 but
 * needs a second line: h1 at 100 (h3 still fits, 100 + 100 <= horizon
 * 200) -> J2 at 100 on h3, h1 (a reservation). At 100 J1 ends at its
 * expected end: nothing the plan did not foresee, so the reservation
 * starts as planned. J1 0-100, J2 100-200 on h1, h3; h4 never used.
 * AMP (budget 2 x 100 x 2 = 400): J1 at 0 on h1, h2 (cost 200); J2 at 0
 * on h3 + h4 (100 + 300 = 400 <= 400). Pass 2: both again at 100.
 * The head J1 is promised 0, so only its window at 0 is offered. J2: at 0
 * (time 100: h3 runs 100, h4 50; cost 4 x 100) or at 100 (time 200).
 * T* (means) = 100 + 150 = 250, B* = 200 + 400 = 600 (J2 at 100 exceeds
 * T*), min time: J2 at 0. Both run 0-100; J2 on h3 and h4. */
static void test_amp_pairs_cheap_and_expensive(void)
{
    static const char *const speeds[] = {"1", "1", "1", "2"};
    static const char *const prices[] = {"1", "1", "1", "3"};
    static const bl_jobspec jobs[] = {{1, 0, 100, 100, 2, 0}, {2, 0, 100, 100, 2, 0}};
    static const pol_kv kv[] = {{"price_limit", "2"}};
    bl_sched s;
    CU_ASSERT_EQUAL(run("alp", jobs, 2, platform(4, speeds, prices, 1), kv, 1, POL_ALLOC_NODE, &s),
                    0);
    static const bl_expect alp[] = {{1, 0, 100}, {2, 100, 200}};
    bl_check(&s, alp, N_OF(alp), "alp");
    CU_ASSERT_EQUAL(hosts_of(&s, 1), 0x3u);
    CU_ASSERT_EQUAL(hosts_of(&s, 2), 0x5u);
    bl_sched_fini(&s);
    CU_ASSERT_EQUAL(run("amp", jobs, 2, platform(4, speeds, prices, 1), kv, 1, POL_ALLOC_NODE, &s),
                    0);
    static const bl_expect amp[] = {{1, 0, 100}, {2, 0, 100}};
    bl_check(&s, amp, N_OF(amp), "amp");
    CU_ASSERT_EQUAL(hosts_of(&s, 1), 0x3u);
    CU_ASSERT_EQUAL(hosts_of(&s, 2), 0xCu);
    bl_sched_fini(&s);
}

/* h1 speed 1, h2 speed 2, same price. One job, 1 host, 100 s. Its
 * alternatives at 0 are h1 (first in the list; completion 100) and h2
 * (completion 50, the rough right edge); T* = 75 admits only h2, B* = its
 * cost, and the program takes h2: the job runs 0-50 there. Same for
 * criterion=cost (T* = 75 admits only h2). */
static void test_faster_host_by_time_criterion(void)
{
    static const char *const speeds[] = {"1", "2"};
    static const char *const prices[] = {"1", "1"};
    static const bl_jobspec jobs[] = {{1, 0, 100, 100, 1, 0}};
    static const bl_expect e[] = {{1, 0, 50}};
    static const pol_kv cost[] = {{"criterion", "cost"}};
    const char *const pol[] = {"alp", "amp"};
    for (int k = 0; k < 4; k++) {
        bl_sched s;
        CU_ASSERT_EQUAL(run(pol[k % 2], jobs, 1, platform(2, speeds, prices, 1), cost, k / 2,
                            POL_ALLOC_NODE, &s),
                        0);
        bl_check(&s, e, 1, pol[k % 2]);
        CU_ASSERT_EQUAL(hosts_of(&s, 1), 0x2u);
        bl_sched_fini(&s);
    }
}

/* Two uniform hosts. J1 (2 hosts, asks 100, runs 60); J2, J3 (1 host, 50
 * s) at 0. Cycle at 0: J1 at 0; J2 and J3 at 100 (pass 1), and at 150
 * (pass 2); every cost is 0 (no prices), so B* = 0 admits all and the
 * fastest choice is J2, J3 at 100: reservations. J1 ends at 60:
 *   period 0: a cycle at 60 starts J2 and J3 there;
 *   period 1000: no cycle before 1000; the reservations start at 100. */
static void test_reservations_between_cycles(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 60, 100, 2, 0}, {2, 0, 50, 50, 1, 0}, {3, 0, 50, 50, 1, 0}};
    static const bl_expect p0[] = {{1, 0, 60}, {2, 60, 110}, {3, 60, 110}};
    static const bl_expect p1000[] = {{1, 0, 60}, {2, 100, 150}, {3, 100, 150}};
    static const pol_kv kv[] = {{"period", "1000"}};
    const char *const pol[] = {"alp", "amp"};
    for (int k = 0; k < 2; k++) {
        bl_sched s;
        CU_ASSERT_EQUAL(
            run(pol[k], jobs, 3, bl_uniform_platform(2, 1), NULL, 0, POL_ALLOC_NODE, &s), 0);
        bl_check(&s, p0, N_OF(p0), "period 0");
        bl_sched_fini(&s);
        CU_ASSERT_EQUAL(run(pol[k], jobs, 3, bl_uniform_platform(2, 1), kv, 1, POL_ALLOC_NODE, &s),
                        0);
        bl_check(&s, p1000, N_OF(p1000), "period 1000");
        bl_sched_fini(&s);
    }
}

/* Four uniform hosts, period 50. J1 (1 host, 100 s) at 0 starts in the
 * cycle at 0; J2 (1 host, 20 s) arrives at 10 and waits for the cycle at
 * 50 (50-70). With batch=1 one waiting job outside the plan starts a cycle
 * at once: J2 10-30. With period 0 also 10-30. */
static void test_period_and_batch_trigger(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 100, 100, 1, 0}, {2, 10, 20, 20, 1, 0}};
    static const pol_kv per[] = {{"period", "50"}};
    static const pol_kv per_batch[] = {{"period", "50"}, {"batch", "1"}};
    static const bl_expect late[] = {{1, 0, 100}, {2, 50, 70}};
    static const bl_expect now[] = {{1, 0, 100}, {2, 10, 30}};
    bl_sched s;
    CU_ASSERT_EQUAL(run("amp", jobs, 2, bl_uniform_platform(4, 1), per, 1, POL_ALLOC_NODE, &s), 0);
    bl_check(&s, late, 2, "period 50");
    bl_sched_fini(&s);
    CU_ASSERT_EQUAL(
        run("amp", jobs, 2, bl_uniform_platform(4, 1), per_batch, 2, POL_ALLOC_NODE, &s), 0);
    bl_check(&s, now, 2, "period 50, batch 1");
    bl_sched_fini(&s);
    CU_ASSERT_EQUAL(run("alp", jobs, 2, bl_uniform_platform(4, 1), NULL, 0, POL_ALLOC_NODE, &s), 0);
    bl_check(&s, now, 2, "period 0");
    bl_sched_fini(&s);
}

/* Core allocation, 2 hosts x 2 cores. J1 (1 core) and J2 (3 cores), 100 s
 * at 0. Lines h1.1 h1.2 h2.1 h2.2: J1 gets h1.1, J2 h1.2, h2.1, h2.2. J1
 * names h1 (the engine takes 1 of its 2 free cores); J2 then names h1
 * (its last free core) and h2 (both): the engine's greedy take is the
 * window. Both run 0-100. */
static void test_core_allocation_named_hosts(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 100, 100, 1, 0}, {2, 0, 100, 100, 3, 0}};
    static const bl_expect e[] = {{1, 0, 100}, {2, 0, 100}};
    const char *const pol[] = {"alp", "amp"};
    for (int k = 0; k < 2; k++) {
        bl_sched s;
        CU_ASSERT_EQUAL(
            run(pol[k], jobs, 2, bl_uniform_platform(2, 2), NULL, 0, POL_ALLOC_CORE, &s), 0);
        bl_check(&s, e, 2, pol[k]);
        CU_ASSERT_EQUAL(hosts_of(&s, 1), 0x1u);
        CU_ASSERT_EQUAL(hosts_of(&s, 2), 0x3u);
        bl_sched_fini(&s);
    }
}

/* ---- islands: hosts a1..a3 (island a) and b1, b2 (island b), one core
 * each, whole nodes; platform indices 0..4 in that order. ---- */

static const int isl_sizes[] = {3, 2};

static int run_isl(const char *policy, const bl_jobspec *jobs, size_t n, bool ignore, bl_sched *s)
{
    bl_opts o = {.alloc = POL_ALLOC_NODE, .ignore_islands = ignore};
    int rc = bl_core_run(policy, jobs, n, bl_island_platform(isl_sizes, 2, 1), &o, s);
    if (rc)
        printf("\n  %s: %s\n", policy, s->diag.msg);
    return rc;
}

/* J1 (2 nodes) and J2 (3 nodes), 100 s each, at 0. Without islands the
 * list is one: J1 takes the first lines, a1 and a2, and J2 the next three,
 * a3, b1 and b2 (both islands). With islands each job searches each
 * island: J1 finds a window at 0 in a and in b, equally cheap (no
 * prices); the tie goes to b, which has fewer lines free then (2 < 3),
 * the engine's best fit; J2 then finds a1..a3 at 0 (b has only 2 lines).
 * Both run 0-100 either way. */
static void test_islands_within_one(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 100, 100, 2, 0}, {2, 0, 100, 100, 3, 0}};
    static const bl_expect e[] = {{1, 0, 100}, {2, 0, 100}};
    const char *const pol[] = {"alp", "amp"};
    for (int k = 0; k < 2; k++) {
        bl_sched s;
        CU_ASSERT_EQUAL(run_isl(pol[k], jobs, 2, true, &s), 0);
        bl_check(&s, e, 2, "ignore");
        CU_ASSERT_EQUAL(hosts_of(&s, 1), 0x03u);
        CU_ASSERT_EQUAL(hosts_of(&s, 2), 0x1Cu);
        bl_sched_fini(&s);
        CU_ASSERT_EQUAL(run_isl(pol[k], jobs, 2, false, &s), 0);
        bl_check(&s, e, 2, "strict");
        CU_ASSERT_EQUAL(hosts_of(&s, 1), 0x18u);
        CU_ASSERT_EQUAL(hosts_of(&s, 2), 0x07u);
        bl_sched_fini(&s);
    }
}

/* J1 (2 nodes, 100 s) and J2 (1 node, 200 s) at 0; J3 (3 nodes, 10 s) at
 * 150. With islands: J1 goes to b (as above), J2 to a1 (a at 0, b only at
 * 100). At 150 four hosts are free (a2, a3, b1, b2), but no island has
 * three: J3's only window is a1..a3 at 200, when J2 ends (promised then,
 * started on time): 200-210. Without islands J1 takes a1, a2 and J2 a3;
 * at 150 J3 takes a1, a2, b1: 150-160. */
static void test_islands_blocked(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 100, 100, 2, 0}, {2, 0, 200, 200, 1, 0}, {3, 150, 10, 10, 3, 0}};
    static const bl_expect strict[] = {{1, 0, 100}, {2, 0, 200}, {3, 200, 210}};
    static const bl_expect ignore[] = {{1, 0, 100}, {2, 0, 200}, {3, 150, 160}};
    const char *const pol[] = {"alp", "amp"};
    for (int k = 0; k < 2; k++) {
        bl_sched s;
        CU_ASSERT_EQUAL(run_isl(pol[k], jobs, 3, false, &s), 0);
        bl_check(&s, strict, 3, "strict");
        CU_ASSERT_EQUAL(hosts_of(&s, 1), 0x18u);
        CU_ASSERT_EQUAL(hosts_of(&s, 2), 0x01u);
        CU_ASSERT_EQUAL(hosts_of(&s, 3), 0x07u);
        bl_sched_fini(&s);
        CU_ASSERT_EQUAL(run_isl(pol[k], jobs, 3, true, &s), 0);
        bl_check(&s, ignore, 3, "ignore");
        CU_ASSERT_EQUAL(hosts_of(&s, 3), 0x0Bu);
        bl_sched_fini(&s);
    }
}

/* J1 (1 node, 100 s) and J2 (4 nodes, 50 s) at 0. J1 goes to b1 (the
 * best fit of two windows at 0); J2 is larger than every island and
 * searches all islands' lines together, in (start, line) order: a1, a2,
 * a3 and b2 at 0, a window across both islands: 0-50. */
static void test_islands_wider_job_spans(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 100, 100, 1, 0}, {2, 0, 50, 50, 4, 0}};
    static const bl_expect e[] = {{1, 0, 100}, {2, 0, 50}};
    const char *const pol[] = {"alp", "amp"};
    for (int k = 0; k < 2; k++) {
        bl_sched s;
        CU_ASSERT_EQUAL(run_isl(pol[k], jobs, 2, false, &s), 0);
        bl_check(&s, e, 2, pol[k]);
        CU_ASSERT_EQUAL(hosts_of(&s, 1), 0x08u);
        CU_ASSERT_EQUAL(hosts_of(&s, 2), 0x17u);
        bl_sched_fini(&s);
    }
}

/* Through SimGrid with --check on platforms/test/islands-3-2.xml (the
 * same islands): J1 (2 nodes) and J2 (3) at 0, J3 (3) at 1, J4 (4) at 2,
 * 10 s each. J1 goes to b, J2 to a: 0-10. J3 is promised a at 10. At 10
 * J3 takes a again (b has 2 lines), 10-20; J4, wider than both islands,
 * finds b1, b2 free from 10 and a1, a2 from 20 in the merged list: 20-30.
 * Under --alloc core alp and amp refuse islands (usage error). */
static void test_islands_simgrid_check(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 10, 10, 2, 0}, {2, 0, 10, 10, 3, 0}, {3, 1, 10, 10, 3, 0}, {4, 2, 10, 10, 4, 0}};
    static const bl_expect e[] = {{1, 0, 10}, {2, 0, 10}, {3, 10, 20}, {4, 20, 30}};
    const char *const pol[] = {"alp", "amp"};
    for (int k = 0; k < 2; k++) {
        eng_run_report rep;
        eng_diag d;
        eng_diag_clear(&d);
        bl_opts o = {.alloc = POL_ALLOC_NODE};
        int rc = bl_sim_run(pol[k], jobs, N_OF(jobs), bl_src("platforms/test/islands-3-2.xml"), &o,
                            &rep, &d);
        CU_ASSERT_EQUAL(rc, 0);
        if (rc) {
            printf("\n  %s: %s\n", pol[k], d.msg);
            continue;
        }
        bl_check_rep(&rep, e, N_OF(e), pol[k]);
        eng_run_report_fini(&rep);
        bl_sched s;
        bl_opts core = {.alloc = POL_ALLOC_CORE};
        CU_ASSERT_EQUAL(
            bl_core_run(pol[k], jobs, N_OF(jobs), bl_island_platform(isl_sizes, 2, 2), &core, &s),
            ENG_USAGE);
        CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "--islands ignore"));
        bl_sched_fini(&s);
    }
}

static void test_options(void)
{
    static const bl_jobspec jobs[] = {{1, 0, 10, 10, 1, 0}};
    static const struct {
        pol_kv kv;
        const char *msg;
    } bad[] = {
        {{"criterion", "speed"}, "expected time or cost"},
        {{"horizon", "0.5"}, "option horizon"},
        {{"batch", "2.5"}, "option batch: expected an integer in 1..100000"},
        {{"period", "-1"}, "option period"},
        {{"price_limit", "cheap"}, "option price_limit"},
    };
    for (size_t i = 0; i < N_OF(bad); i++) {
        bl_sched s;
        bl_opts o = {.options = &bad[i].kv, .n_options = 1};
        bl_core_run("amp", jobs, 1, bl_uniform_platform(2, 1), &o, &s);
        CU_ASSERT_EQUAL(s.rc, -4);
        CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, bad[i].msg));
        bl_sched_fini(&s);
    }
    const pol_type *t = pol_find("alp");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    char err[256];
    const pol_kv ok[] = {{"period", "60"},       {"batch", "4"},        {"horizon", "3"},
                         {"price_limit", "1.5"}, {"alternatives", "0"}, {"criterion", "cost"},
                         {"dp_cells", "100"}};
    CU_ASSERT_EQUAL(pol_check_options(t, ok, N_OF(ok), err, sizeof err), 0);
}

int bl_suite_pol_slotsched(void)
{
    CU_pSuite s = CU_add_suite("pol_slotsched", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "AMP pairs a cheap and an expensive host, ALP cannot",
                test_amp_pairs_cheap_and_expensive);
    CU_add_test(s, "the time criterion picks the faster host", test_faster_host_by_time_criterion);
    CU_add_test(s, "reservations kept between cycles", test_reservations_between_cycles);
    CU_add_test(s, "cycle period and batch trigger", test_period_and_batch_trigger);
    CU_add_test(s, "core allocation: named hosts", test_core_allocation_named_hosts);
    CU_add_test(s, "islands: a job placed within one island", test_islands_within_one);
    CU_add_test(s, "islands: a job blocked by islands, enough hosts free", test_islands_blocked);
    CU_add_test(s, "islands: a job wider than every island spans them",
                test_islands_wider_job_spans);
    CU_add_test(s, "islands: through SimGrid, checker on; core allocation refused",
                test_islands_simgrid_check);
    CU_add_test(s, "options", test_options);
    return 0;
}
