/* test_pol_predict.c — run-time prediction (Tsafrir, Etsion & Feitelson
 * 2007): one user's sequence of predictions, the correction of a job that
 * outlives its prediction, the accuracy report, and schedules of easy and
 * conservative that plan with predictions. */
#include "bl_scenarios.h"
#include "bl_test.h"
#include "pol_predict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The option as a policy declares it, for the setups made here. */
static const pol_option predict_options[] = {POL_PREDICT_OPTION, {0}};

static pol_job job(int32_t idx, int64_t user, double req)
{
    return (pol_job){.idx = idx,
                     .id = idx + 1,
                     .user = user,
                     .estimate_s = req,
                     .units = 1,
                     .start_s = -1,
                     .expected_end_s = -1};
}

static void finish(pol_predictor *p, pol_job *j, double start, double ran)
{
    j->start_s = start;
    CU_ASSERT_EQUAL(pol_predict_finish(p, j, start + ran), 0);
}

/* User 7, requests of 1000 s: no history -> the request; one ended job ->
 * still the request; then the mean of the last two (100, 300 -> 200),
 * capped by a smaller request (150); after a 500 s run, (300 + 500) / 2 =
 * 400. Another user's job changes nothing for user 7. */
static void test_sequence_for_one_user(void)
{
    pol_kv o[] = {{"predictor", "user2"}};
    pol_setup setup = {.n_jobs = 8, .options = o, .n_options = 1, .declared = predict_options};
    pol_predictor p;
    char err[128];
    CU_ASSERT_EQUAL_FATAL(pol_predict_init(&p, &setup, err, sizeof err), 0);
    CU_ASSERT_TRUE(pol_predict_active(&p));
    pol_job j[8] = {job(0, 7, 1000), job(1, 7, 1000), job(2, 7, 1000), job(3, 7, 150),
                    job(4, 8, 1000), job(5, 7, 1000), job(6, 7, 1000), job(7, 7, 1000)};
    pol_predict_submit(&p, &j[0]);
    CU_ASSERT_DOUBLE_EQUAL(pol_predict_of(&p, &j[0]), 1000, 0);
    finish(&p, &j[0], 0, 100);
    pol_predict_submit(&p, &j[1]);
    CU_ASSERT_DOUBLE_EQUAL(pol_predict_of(&p, &j[1]), 1000, 0);
    finish(&p, &j[1], 100, 300);
    pol_predict_submit(&p, &j[2]);
    pol_predict_submit(&p, &j[3]);
    CU_ASSERT_DOUBLE_EQUAL(pol_predict_of(&p, &j[2]), 200, 0);
    CU_ASSERT_DOUBLE_EQUAL(pol_predict_of(&p, &j[3]), 150, 0);
    finish(&p, &j[2], 400, 500);
    pol_predict_submit(&p, &j[4]); /* user 8: no history */
    finish(&p, &j[4], 900, 1);
    pol_predict_submit(&p, &j[5]);
    CU_ASSERT_DOUBLE_EQUAL(pol_predict_of(&p, &j[4]), 1000, 0);
    CU_ASSERT_DOUBLE_EQUAL(pol_predict_of(&p, &j[5]), 400, 0);

    /* Accuracy over the 4 ended jobs (prediction at submission / run):
     * 1000/100, 1000/300, 200/500 (under), 1000/1: mean 253.43, 1/4 under. */
    char rep[256] = "";
    pol_predict_report(&p, rep, sizeof rep);
    CU_ASSERT_TRUE(bl_contains(rep, "predictor=user2 pred_jobs=4 pred_ratio_mean=253.4 "
                                    "pred_under=0.25 pred_corrections=0"));
    pol_predict_fini(&p);
}

/* J5 (prediction 400, request 100 000) starts at 1000 and J6 (prediction
 * 400 too, request 500) with it. Still running at its predicted end, a job
 * is predicted its first prediction plus 1 min, then 5 min, 15 min, 30
 * min, 1 h, 2 h...: at 1400 J5 -> 460; at 1460 -> 700; at 5000 the ends
 * 1700, 2300 (+15 min), 3200 (+30 min) and 5000 (+1 h) have passed: 400 +
 * 2 h = 7600. J6 stops at its request: 460, then 500. */
static void test_corrections(void)
{
    pol_kv o[] = {{"predictor", "user2"}};
    pol_setup setup = {.n_jobs = 8, .options = o, .n_options = 1, .declared = predict_options};
    pol_predictor p;
    char err[128];
    CU_ASSERT_EQUAL_FATAL(pol_predict_init(&p, &setup, err, sizeof err), 0);
    pol_job h[3] = {job(0, 7, 1000), job(1, 7, 1000), job(2, 7, 1000)};
    pol_predict_submit(&p, &h[0]);
    pol_predict_submit(&p, &h[1]);
    finish(&p, &h[0], 0, 300);
    finish(&p, &h[1], 0, 500);
    pol_job a = job(5, 7, 100000), b = job(6, 7, 500);
    pol_predict_submit(&p, &a);
    pol_predict_submit(&p, &b);
    a.start_s = b.start_s = 1000;
    a.expected_end_s = 101000;
    b.expected_end_s = 1500;
    const pol_job *running[] = {&b, &a};
    pol_view v = {.total_units = 2, .running = running, .n_running = 2};
    static const struct {
        double now, a_end, b_end, expiry;
        bool corrected;
    } steps[] = {
        {1399, 1400, 1400, 1400, false}, {1400, 1460, 1460, 1460, true},
        {1460, 1700, 1500, 1700, true},  {5000, 8600, 1500, 8600, true},
        {5001, 8600, 1500, 8600, false},
    };
    for (size_t k = 0; k < N_OF(steps); k++) {
        v.now_s = steps[k].now;
        pol_view pv;
        bool corrected;
        CU_ASSERT_EQUAL(pol_predict_view(&p, &v, &pv, &corrected), 0);
        CU_ASSERT_EQUAL(corrected, steps[k].corrected);
        CU_ASSERT_EQUAL_FATAL(pv.n_running, 2);
        /* sorted by predicted end, then idx: a (idx 5) before b on ties */
        const pol_job *pa = pv.running[0]->idx == 5 ? pv.running[0] : pv.running[1];
        const pol_job *pb = pv.running[0]->idx == 6 ? pv.running[0] : pv.running[1];
        CU_ASSERT_DOUBLE_EQUAL(pa->expected_end_s, steps[k].a_end, 0);
        CU_ASSERT_DOUBLE_EQUAL(pb->expected_end_s, steps[k].b_end, 0);
        CU_ASSERT(pv.running[0]->expected_end_s <= pv.running[1]->expected_end_s);
        CU_ASSERT_DOUBLE_EQUAL(pol_predict_next_expiry(&p), steps[k].expiry, 0);
    }
    char rep[256] = "";
    pol_predict_report(&p, rep, sizeof rep);
    CU_ASSERT_TRUE(bl_contains(rep, "pred_corrections=8")); /* J5 6, J6 2 */
    pol_predict_fini(&p);
}

static void test_requested_is_the_view(void)
{
    pol_setup setup = {.n_jobs = 2, .declared = predict_options};
    pol_predictor p;
    char err[128];
    CU_ASSERT_EQUAL_FATAL(pol_predict_init(&p, &setup, err, sizeof err), 0);
    CU_ASSERT_FALSE(pol_predict_active(&p));
    pol_job a = job(0, 1, 50);
    const pol_job *q[] = {&a};
    pol_view v = {.queue = q, .n_queue = 1}, pv;
    CU_ASSERT_EQUAL(pol_predict_view(&p, &v, &pv, NULL), 0);
    CU_ASSERT_PTR_EQUAL(pv.queue, v.queue);
    char rep[64] = "";
    pol_predict_report(&p, rep, sizeof rep);
    CU_ASSERT_STRING_EQUAL(rep, ""); /* option not given: outputs unchanged */
    pol_predict_fini(&p);
    /* a value it does not know: the engine's check refuses it before init */
    pol_kv bad[] = {{"predictor", "last"}};
    const pol_type t = {.name = "planner", .options = predict_options};
    CU_ASSERT_EQUAL(pol_check_options(&t, bad, 1, err, sizeof err), ENG_INVAL);
    CU_ASSERT_TRUE(bl_contains(err, "option predictor: expected requested or user2, got 'last'"));
}

/* User 1's J1 and J2 (10 s each, requests 1000 s) make its history; J3
 * (3 hosts, runs 100 s, request 1000) starts at 30 predicted 10 s. J4
 * (user 2, 4 hosts, 50 s) waits; J5 (user 2, 1 host, 20 s) comes at 32.
 *  requested: shadow 1030, J5 backfills at 32 (52 <= 1030); J4 at 130;
 *  user2: shadow 40, 52 > 40 and no extra host: J5 waits. At 40 J3
 *  outlives its prediction: 10 + 60 = 70, shadow 100, and J5 (40 + 20 <=
 *  100) starts at 40. J4 starts when J3 really ends, 130.
 * Conservative gives the same: J5 fits before J4's reservation at 1030
 * (requested); under user2 J4 is placed at 40, J5 after it, until the
 * correction at 40 re-places J4 at 100 and J5 at 40. */
static void test_schedules(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 10, 1000, 4, 0}, {2, 0, 10, 1000, 4, 0}, {3, 30, 100, 1000, 3, 0},
        {4, 31, 50, 50, 4, 0},  {5, 32, 20, 20, 1, 0},
    };
    static const int64_t users[] = {1, 1, 1, 2, 2};
    static const bl_expect req[] = {{3, 30, 130}, {4, 130, 180}, {5, 32, 52}};
    static const bl_expect u2[] = {{3, 30, 130}, {4, 130, 180}, {5, 40, 60}};
    static const pol_kv o_req[] = {{"predictor", "requested"}};
    static const pol_kv o_u2[] = {{"predictor", "user2"}};
    const char *policies[] = {"easy", "conservative", "slurm"};
    for (size_t k = 0; k < N_OF(policies); k++) {
        for (int pred = 0; pred < 2; pred++) {
            bl_sched s;
            /* slurm plans at bf_resolution 1 s and backfills at every call */
            pol_kv o[3] = {
                pred ? o_u2[0] : o_req[0], {"bf_resolution", "1"}, {"bf_interval", "0.001"}};
            bl_opts opts = {.options = o, .n_options = k == 2 ? 3 : 1, .users = users};
            int rc = bl_core_run(policies[k], jobs, N_OF(jobs), bl_uniform_platform(4, 1), &opts,
                                 &s);
            CU_ASSERT_EQUAL(rc, 0);
            char what[64];
            snprintf(what, sizeof what, "%s %s", policies[k], pred ? "user2" : "requested");
            if (rc)
                printf("\n  %s: %s", what, s.diag.msg);
            bl_check(&s, pred ? u2 : req, 3, what);
            char rep[512];
            eng_core_policy_report(s.core, rep, sizeof rep);
            /* J1, J2 predicted 1000 (ran 10); J3 10 (ran 100); J4 50 (50);
             * J5 20 (20): 1/5 underpredicted; the mean ratio is
             * (100 + 100 + 0.1 + 1 + 1) / 5 = 40.42 under user2; with the
             * requests (100 + 100 + 10 + 1 + 1) / 5 = 42.4, none under. */
            const char *want = pred ? "predictor=user2 pred_jobs=5 pred_ratio_mean=40.42 "
                                      "pred_under=0.2 "
                                    : "predictor=requested pred_jobs=5 pred_ratio_mean=42.4 "
                                      "pred_under=0 ";
            CU_ASSERT_TRUE(bl_contains(rep, want));
            bl_sched_fini(&s);
        }
    }
}

/* Two pools (queues 1 and 2): the report names each pool that has
 * something to tell, and is empty when the option is not given (outputs
 * of runs without it unchanged). */
static void test_report_two_pools(void)
{
    eng_host_desc d[4];
    char names[4][8];
    for (int i = 0; i < 4; i++) {
        snprintf(names[i], sizeof names[i], "n%d", i + 1);
        d[i] = (eng_host_desc){
            .name = names[i], .speed_flops = 1e9, .sg_cores = 1, .queues = i < 2 ? "1" : "2"};
    }
    static const bl_jobspec jobs[] = {{1, 0, 10, 20, 1, 1}, {2, 0, 10, 20, 1, 2}};
    for (int given = 0; given < 2; given++) {
        eng_platform *p = NULL;
        eng_diag diag;
        eng_diag_clear(&diag);
        CU_ASSERT_EQUAL_FATAL(eng_platform_build("two", d, 4, "1Gf", &p, &diag), 0);
        static const pol_kv o[] = {{"predictor", "requested"}};
        bl_opts opts = {.options = o, .n_options = given ? 1 : 0};
        bl_sched s;
        CU_ASSERT_EQUAL(bl_core_run("easy", jobs, 2, p, &opts, &s), 0);
        char rep[512];
        eng_core_policy_report(s.core, rep, sizeof rep);
        if (given)
            CU_ASSERT_TRUE(bl_contains(rep, "predictor=requested pred_jobs=1 pred_ratio_mean=2 "
                                            "pred_under=0 pred_corrections=0; "));
        if (!given)
            CU_ASSERT_STRING_EQUAL(rep, "");
        bl_sched_fini(&s);
    }
}

int bl_suite_pol_predict(void)
{
    CU_pSuite s = CU_add_suite("pol_predict", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "user2: one user's sequence of predictions", test_sequence_for_one_user);
    CU_add_test(s, "user2: a job outliving its prediction", test_corrections);
    CU_add_test(s, "requested: the engine's view, no report", test_requested_is_the_view);
    CU_add_test(s, "easy, conservative, slurm plan with predictions", test_schedules);
    CU_add_test(s, "report on two pools", test_report_two_pools);
    return 0;
}
