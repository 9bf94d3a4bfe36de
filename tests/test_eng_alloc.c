/* test_eng_alloc.c — host choice (engine/eng_alloc.c): first fit by
 * cores under core allocation, the view's per-host arrays of the running
 * jobs, placement within islands (best fit, spanning a job larger than
 * every island) and --islands ignore. */
#include "bl_scenarios.h"
#include "bl_test.h"
#include "eng_core.h"
#include "eng_policy.h"

/* Core allocation packs by cores, first fit: J1 (3 cores) = fast:2 +
 * slow1:1, J2 (3) = slow1:1 + slow2:2, J3 (1) waits until J1 ends. */
static void test_core_allocation(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 20, 50, 3, 0}, {2, 0, 20, 50, 3, 0}, {3, 0, 10, 50, 1, 0}};
    bl_sched s;
    bl_opts o = {.alloc = POL_ALLOC_CORE};
    bl_core_run("fcfs", jobs, 3, bl_mixed_platform(), &o, &s);
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
    eng_platform *p = bl_mixed_platform();
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

int bl_suite_eng_alloc(void)
{
    CU_pSuite s = CU_add_suite("eng_alloc", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "core allocation, first fit", test_core_allocation);
    CU_add_test(s, "the view shows running jobs' hosts", test_view_shows_hosts);
    CU_add_test(s, "islands: placement, spanning, ignore", test_island_placement);
    CU_add_test(s, "islands under core allocation", test_island_cores);
    return 0;
}
