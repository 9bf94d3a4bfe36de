/* test_eng_breakdown.c — breakdown and fairness known answers on a hand
 * schedule through the core (FCFS, 4 hosts of 1 core):
 *
 *   job submit run req procs queue user part.  start end  wait  bsld
 *   J1    0    100 200   4     0     1    3      0    100    0   1
 *   J2    0    700 800   2     1     1   -1    100    800  100   800/700
 *   J3    0     50  30   1     1     2   -1    100    130  100   130/30 (killed)
 *   J4   10   4000 5000  1     0    -1   -1    100   4100   90   4090/4000
 *
 * J1 holds every host until 100; then J2, J3 and J4 (2 + 1 + 1 hosts)
 * start together. */
#include "bl_scenarios.h"
#include "bl_sched.h"
#include "bl_test.h"
#include "eng_breakdown.h"
#include "eng_json.h"

#include <math.h>
#include <string.h>

static const bl_jobspec jobs[] = {
    {1, 0, 100, 200, 4, 0},
    {2, 0, 700, 800, 2, 1},
    {3, 0, 50, 30, 1, 1},
    {4, 10, 4000, 5000, 1, 0},
};
static const int64_t users[] = {1, 1, 2, -1};

#define B2 (800.0 / 700)
#define B3 (130.0 / 30)
#define B4 (4090.0 / 4000)

static void run(bl_sched *s, eng_summary *m, eng_breakdowns *b)
{
    bl_opts o = {.users = users};
    bl_core_run("fcfs", jobs, N_OF(jobs), bl_uniform_platform(4, 1), &o, s);
    CU_ASSERT_EQUAL_FATAL(s->rc, 0);
    for (size_t i = 0; i < s->prep.n_jobs; i++)
        s->prep.jobs[i].partition = s->prep.jobs[i].id == 1 ? 3 : -1;
    size_t n_ts;
    const eng_ts_row *ts = eng_core_timeseries(s->core, &n_ts);
    CU_ASSERT_EQUAL_FATAL(eng_metrics_compute(&s->prep, eng_core_results(s->core), ts, n_ts, 4, m),
                          0);
    CU_ASSERT_EQUAL_FATAL(eng_breakdown_compute(&s->prep, eng_core_results(s->core), s->p, m, b),
                          0);
}

static void check_row(const eng_bd_row *r, const char *key, size_t jobs, double mean, double median,
                      double p95, double bsld, size_t killed)
{
    CU_ASSERT_STRING_EQUAL(r->key, key);
    CU_ASSERT_EQUAL(r->jobs, jobs);
    CU_ASSERT_DOUBLE_EQUAL(r->wait_mean_s, mean, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(r->wait_median_s, median, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(r->wait_p95_s, p95, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(r->bsld_mean, bsld, 1e-12);
    CU_ASSERT_EQUAL(r->killed, killed);
}

static void test_rows(void)
{
    bl_sched s;
    eng_summary m;
    eng_breakdowns b;
    run(&s, &m, &b);
    CU_ASSERT_DOUBLE_EQUAL(bl_start(&s, 4), 100, 0);
    CU_ASSERT_EQUAL(bl_state(&s, 3), ENG_JOB_KILLED);
    /* users, by number: -1 {J4}, 1 {J1, J2}, 2 {J3}; p95 of 2 waits is the 2nd */
    CU_ASSERT_EQUAL_FATAL(b.n_rows[ENG_BD_USER], 3);
    check_row(&b.rows[ENG_BD_USER][0], "-1", 1, 90, 90, 90, B4, 0);
    check_row(&b.rows[ENG_BD_USER][1], "1", 2, 50, 50, 100, (1 + B2) / 2, 0);
    check_row(&b.rows[ENG_BD_USER][2], "2", 1, 100, 100, 100, B3, 1);
    /* queues 0 {J1, J4}, 1 {J2, J3} */
    CU_ASSERT_EQUAL_FATAL(b.n_rows[ENG_BD_QUEUE], 2);
    check_row(&b.rows[ENG_BD_QUEUE][0], "0", 2, 45, 45, 90, (1 + B4) / 2, 0);
    check_row(&b.rows[ENG_BD_QUEUE][1], "1", 2, 100, 100, 100, (B2 + B3) / 2, 1);
    /* partitions -1 {J2, J3, J4}: waits 90, 100, 100; 3 {J1} */
    CU_ASSERT_EQUAL_FATAL(b.n_rows[ENG_BD_PARTITION], 2);
    check_row(&b.rows[ENG_BD_PARTITION][0], "-1", 3, 290.0 / 3, 100, 100, (B2 + B3 + B4) / 3, 1);
    check_row(&b.rows[ENG_BD_PARTITION][1], "3", 1, 0, 0, 0, 1, 0);
    /* sizes: 1 {J3, J4}, 2-3 {J2}, 4-7 {J1} */
    CU_ASSERT_EQUAL_FATAL(b.n_rows[ENG_BD_SIZE], 3);
    check_row(&b.rows[ENG_BD_SIZE][0], "1", 2, 95, 95, 100, (B3 + B4) / 2, 1);
    check_row(&b.rows[ENG_BD_SIZE][1], "2-3", 1, 100, 100, 100, B2, 0);
    check_row(&b.rows[ENG_BD_SIZE][2], "4-7", 1, 0, 0, 0, 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(b.rows[ENG_BD_SIZE][1].lo, 2, 0);
    CU_ASSERT_DOUBLE_EQUAL(b.rows[ENG_BD_SIZE][1].hi, 3, 0);
    /* run times (end - start): J1 100 and J3 30 (killed) under 10 min, J2
     * 700, J4 4000; none over 10 h */
    CU_ASSERT_EQUAL_FATAL(b.n_rows[ENG_BD_RUNTIME], 4);
    check_row(&b.rows[ENG_BD_RUNTIME][0], "<10min", 2, 50, 50, 100, (1 + B3) / 2, 1);
    check_row(&b.rows[ENG_BD_RUNTIME][1], "10min-1h", 1, 100, 100, 100, B2, 0);
    check_row(&b.rows[ENG_BD_RUNTIME][2], "1h-10h", 1, 90, 90, 90, B4, 0);
    CU_ASSERT_STRING_EQUAL(b.rows[ENG_BD_RUNTIME][3].key, ">10h");
    CU_ASSERT_EQUAL(b.rows[ENG_BD_RUNTIME][3].jobs, 0);
    CU_ASSERT(isnan(b.rows[ENG_BD_RUNTIME][3].wait_mean_s));
    CU_ASSERT(isinf(b.rows[ENG_BD_RUNTIME][3].hi));
    CU_ASSERT_DOUBLE_EQUAL(b.rows[ENG_BD_RUNTIME][3].lo, 36000, 0);
    /* one pool: busy 4x100 + 2x700 + 1x30 + 1x4000 = 5830 over 4 x 4100 */
    CU_ASSERT_EQUAL_FATAL(b.n_rows[ENG_BD_POOL], 1);
    check_row(&b.rows[ENG_BD_POOL][0], s.p->pools[0].label, 4, 72.5, 95, 100,
              (1 + B2 + B3 + B4) / 4, 1);
    CU_ASSERT_DOUBLE_EQUAL(b.rows[ENG_BD_POOL][0].utilization, 5830.0 / 16400, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(b.rows[ENG_BD_POOL][0].utilization, m.utilization, 1e-12);
    /* a row of every job agrees with the global metrics */
    CU_ASSERT_DOUBLE_EQUAL(b.rows[ENG_BD_POOL][0].wait_mean_s, m.wait_mean_s, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(b.rows[ENG_BD_POOL][0].wait_median_s, m.wait_median_s, 0);
    CU_ASSERT_DOUBLE_EQUAL(b.rows[ENG_BD_POOL][0].wait_p95_s, m.wait_p95_s, 0);
    CU_ASSERT_DOUBLE_EQUAL(b.rows[ENG_BD_POOL][0].bsld_mean, m.bsld_mean, 1e-12);
    eng_breakdown_fini(&b);
    bl_sched_fini(&s);
}

/* Users 1 (x = (1 + 8/7) / 2 = 15/14) and 2 (x = 13/3); user -1 is left
 * out. With x1 = 45/42, x2 = 182/42: cv = |x1 - x2| / (x1 + x2) = 137/227,
 * Jain = 227^2 / (2 (45^2 + 182^2)) = 51529/70298. */
static void test_fairness(void)
{
    bl_sched s;
    eng_summary m;
    eng_breakdowns b;
    run(&s, &m, &b);
    const eng_fairness *f = &b.fairness;
    CU_ASSERT_EQUAL(f->users, 2);
    CU_ASSERT_DOUBLE_EQUAL(f->bsld_user_mean_min, 15.0 / 14, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(f->bsld_user_mean_max, 13.0 / 3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(f->bsld_user_mean_cv, 137.0 / 227, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(f->jain_index, 51529.0 / 70298, 1e-12);
    /* the digest: users by mean wait, largest first */
    eng_bd_brief br;
    eng_breakdown_brief(&b, &br);
    CU_ASSERT_EQUAL(br.n_users, 3);
    CU_ASSERT_EQUAL_FATAL(br.n_top_users, 3);
    CU_ASSERT_STRING_EQUAL(br.top_users[0].key, "2");
    CU_ASSERT_STRING_EQUAL(br.top_users[1].key, "-1");
    CU_ASSERT_STRING_EQUAL(br.top_users[2].key, "1");
    CU_ASSERT_EQUAL(br.n_size, 3);
    CU_ASSERT_STRING_EQUAL(br.runtime[1].key, "10min-1h");
    eng_breakdown_fini(&b);
    bl_sched_fini(&s);
}

static void test_jain(void)
{
    CU_ASSERT_DOUBLE_EQUAL(eng_jain_index((double[]){2, 2, 2, 2}, 4), 1, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(eng_jain_index((double[]){1, 0, 0, 0}, 4), 0.25, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(eng_jain_index((double[]){1, 2, 3}, 3), 36.0 / 42, 1e-15);
    CU_ASSERT(isnan(eng_jain_index(NULL, 0)));
}

/* The JSON as summary.json holds it, the same bytes twice. */
static void test_json(void)
{
    bl_sched s;
    eng_summary m;
    eng_breakdowns b;
    run(&s, &m, &b);
    bool ok = true;
    json_t *o = eng_breakdown_json(&b, &ok), *f = eng_fairness_json(&b.fairness, &ok);
    CU_ASSERT_FATAL(ok);
    char *t1 = json_dumps(o, ENG_JSON_FLAGS), *t2 = json_dumps(o, ENG_JSON_FLAGS);
    CU_ASSERT_STRING_EQUAL(t1, t2);
    free(t1);
    free(t2);
    json_t *rt = json_object_get(json_object_get(o, "bounds"), "runtime_s");
    CU_ASSERT_EQUAL(json_array_size(rt), 3);
    CU_ASSERT_EQUAL(json_integer_value(json_array_get(rt, 1)), 3600);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(o, "bounds"), "bsld_tau_s")),
                    10);
    json_t *last = json_array_get(json_object_get(o, "runtime"), 3);
    CU_ASSERT(json_is_null(json_object_get(last, "hi_s")));
    CU_ASSERT(json_is_null(json_object_get(last, "wait_mean_s")));
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(last, "jobs")), 0);
    json_t *u = json_array_get(json_object_get(o, "user"), 0);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(u, "key")), "-1");
    static const char *const keys[] = {"key",        "jobs",      "wait_mean_s", "wait_median_s",
                                       "wait_p95_s", "bsld_mean", "killed"};
    CU_ASSERT_EQUAL(json_object_size(u), N_OF(keys));
    for (size_t k = 0; k < N_OF(keys); k++)
        CU_ASSERT_PTR_NOT_NULL(json_object_get(u, keys[k]));
    json_t *size = json_array_get(json_object_get(o, "size"), 2);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(size, "lo")), 4);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(size, "hi")), 7);
    CU_ASSERT_PTR_NOT_NULL(
        json_object_get(json_array_get(json_object_get(o, "pool"), 0), "utilization"));
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(f, "users")), 2);
    CU_ASSERT_PTR_NOT_NULL(json_object_get(f, "jain_index"));
    json_decref(o);
    json_decref(f);
    eng_breakdown_fini(&b);
    bl_sched_fini(&s);
}

/* No job measured: every breakdown but the fixed ones is empty, the
 * fairness has no user. */
static void test_nothing_measured(void)
{
    static const bl_jobspec big[] = {{1, 0, 10, 20, 8, 0}};
    bl_sched s;
    bl_core_run("fcfs", big, 1, bl_uniform_platform(4, 1), NULL, &s);
    CU_ASSERT_EQUAL_FATAL(s.rc, 0);
    eng_summary m;
    CU_ASSERT_EQUAL(eng_metrics_compute(&s.prep, eng_core_results(s.core), NULL, 0, 4, &m), 0);
    eng_breakdowns b;
    CU_ASSERT_EQUAL_FATAL(eng_breakdown_compute(&s.prep, eng_core_results(s.core), s.p, &m, &b), 0);
    CU_ASSERT_EQUAL(b.n_rows[ENG_BD_USER], 0);
    CU_ASSERT_EQUAL(b.n_rows[ENG_BD_SIZE], 0);
    CU_ASSERT_EQUAL(b.n_rows[ENG_BD_RUNTIME], 4);
    CU_ASSERT_EQUAL(b.n_rows[ENG_BD_POOL], 1);
    CU_ASSERT_EQUAL(b.fairness.users, 0);
    CU_ASSERT(isnan(b.fairness.jain_index));
    eng_breakdown_fini(&b);
    bl_sched_fini(&s);
}

int bl_suite_eng_breakdown(void)
{
    CU_pSuite s = CU_add_suite("eng_breakdown", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "rows per user, queue, partition, size, run time, pool", test_rows);
    CU_add_test(s, "fairness across users and the digest", test_fairness);
    CU_add_test(s, "Jain's index", test_jain);
    CU_add_test(s, "the JSON", test_json);
    CU_add_test(s, "no job measured", test_nothing_measured);
    return 0;
}
