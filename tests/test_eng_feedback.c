/* test_eng_feedback.c — user feedback (engine/eng_feedback.c and the
 * submissions of eng_core.c): a chain through SWF fields 17 and 18 with
 * think times, the queue in submit order when a job is submitted after
 * later-indexed ones, sessions inferred on a hand-made log (the 20-minute
 * threshold exactly and one second over, the last job to end rather than
 * the last submitted), missing predecessors, a cycle refused, and a job
 * killed at its requested time releasing its dependant. Each schedule is
 * computed by hand next to it. */
#include "bl_sched.h"
#include "bl_test.h"
#include "eng_feedback.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static double submit_of(const bl_sched *s, int64_t id)
{
    for (size_t i = 0; i < s->prep.n_jobs; i++)
        if (s->prep.jobs[i].id == id)
            return eng_core_results(s->core)[i].submit_s;
    return -1;
}

static int64_t pred_of(const bl_sched *s, int64_t id)
{
    for (size_t i = 0; i < s->prep.n_jobs; i++)
        if (s->prep.jobs[i].id == id)
            return s->prep.pred[i] < 0 ? -1 : s->prep.jobs[s->prep.pred[i]].id;
    return -2;
}

/* One host, fcfs. Field 17/18: B after A + 30, C after B + 5, E after D +
 * 0; D has none.
 *   A: 0..100.  D: logged 70, waits for A: 100..110.
 *   E: logged 1000, submitted at D's end 110: 110..120 (before its logged
 *      submit: the dependency alone fixes it).
 *   B: 100 + 30 = 130: 130..140.  C: 140 + 5 = 145: 145..165.
 * Without feedback: A 0..100, B 100..110, C 110..130, D 130..140,
 * E 1000..1010. */
static void test_swf_chain(void)
{
    const bl_jobspec jobs[] = {
        {1, 0, 100, -1, 1, 0}, {2, 50, 10, -1, 1, 0},   {3, 60, 20, -1, 1, 0},
        {4, 70, 10, -1, 1, 0}, {5, 1000, 10, -1, 1, 0},
    };
    const int64_t prev[] = {-1, 1, 2, -1, 4};
    const double think[] = {-1, 30, 5, -1, 0};
    bl_opts o = {.feedback = ENG_FEEDBACK_SWF, .prev_jobs = prev, .think_s = think};
    bl_sched s;
    CU_ASSERT_EQUAL_FATAL(bl_core_run("fcfs", jobs, 5, bl_uniform_platform(1, 1), &o, &s), 0);
    const bl_expect want[] = {
        {1, 0, 100}, {4, 100, 110}, {5, 110, 120}, {2, 130, 140}, {3, 145, 165}};
    bl_check(&s, want, 5, "swf chain");
    CU_ASSERT_EQUAL(submit_of(&s, 2), 130);
    CU_ASSERT_EQUAL(submit_of(&s, 3), 145);
    CU_ASSERT_EQUAL(submit_of(&s, 4), 70);
    CU_ASSERT_EQUAL(submit_of(&s, 5), 110);
    CU_ASSERT_EQUAL(s.prep.n_fb_deps, 3);
    CU_ASSERT_EQUAL(s.prep.n_fb_missing, 0);
    bl_sched_fini(&s);

    o.feedback = ENG_FEEDBACK_NONE;
    CU_ASSERT_EQUAL_FATAL(bl_core_run("fcfs", jobs, 5, bl_uniform_platform(1, 1), &o, &s), 0);
    const bl_expect none[] = {
        {1, 0, 100}, {2, 100, 110}, {3, 110, 130}, {4, 130, 140}, {5, 1000, 1010}};
    bl_check(&s, none, 5, "swf chain, feedback none");
    CU_ASSERT_PTR_NULL(s.prep.pred);
    bl_sched_fini(&s);
}

/* The queue follows the simulated submits: B (idx 1) is submitted at 130,
 * after D (idx 3, logged 120), so D runs first although its index is
 * higher. One host: A 0..100, X (waiting since 20) 100..300, D 300..310,
 * B 310..320, under fcfs, easy and conservative with the checker on. */
static void test_queue_in_submit_order(void)
{
    const bl_jobspec jobs[] = {
        {1, 0, 100, -1, 1, 0},
        {2, 10, 10, -1, 1, 0},
        {3, 20, 200, -1, 1, 0},
        {4, 120, 10, -1, 1, 0},
    };
    const int64_t prev[] = {-1, 1, -1, -1};
    const double think[] = {-1, 30, -1, -1};
    const char *policies[] = {"fcfs", "easy", "conservative"};
    for (int k = 0; k < 3; k++) {
        bl_opts o = {.feedback = ENG_FEEDBACK_SWF, .prev_jobs = prev, .think_s = think};
        bl_sched s;
        CU_ASSERT_EQUAL_FATAL(bl_core_run(policies[k], jobs, 4, bl_uniform_platform(1, 1), &o, &s),
                              0);
        const bl_expect want[] = {{1, 0, 100}, {3, 100, 300}, {4, 300, 310}, {2, 310, 320}};
        bl_check(&s, want, 4, policies[k]);
        bl_sched_fini(&s);
    }
}

/* Sessions on ten hosts (no job waits in the replay). Logged (submit,
 * wait, run) and user:
 *   1 u1 (0, 400, 100): logged end 500.
 *   4 u2 (50, 0, 10): end 60.
 *   5 u2 (70, 5, 10): u2's last end before 70 is 60: think 10, after 4.
 *   7 u3 (0, 0, 10): end 10.  8 u3 (5, 0, 1000): end 1005.
 *   9 u3 (100, 0, 5): the last job of u3 to end before 100 is 7 (8, the
 *      last submitted, still runs): think 90, after 7.
 *   2 u1 (1700, 0, 10): 1700 - 500 = 1200, exactly the threshold: after 1.
 *   3 u1 (2911, 0, 10): 2911 - 1710 = 1201, one second over: a new session.
 * Replay: 1 runs 0..100, so 2 is submitted at 100 + 1200 = 1300; 5 at
 * 60 + 10 = 70; 9 at 10 + 90 = 100; 3 keeps 2911. */
static void test_sessions(void)
{
    const bl_jobspec jobs[] = {
        {1, 0, 100, -1, 1, 0},   {7, 0, 10, -1, 1, 0},    {8, 5, 1000, -1, 1, 0},
        {4, 50, 10, -1, 1, 0},   {5, 70, 10, -1, 1, 0},   {9, 100, 5, -1, 1, 0},
        {2, 1700, 10, -1, 1, 0}, {3, 2911, 10, -1, 1, 0},
    };
    const int64_t users[] = {1, 3, 3, 2, 2, 3, 1, 1};
    const double waits[] = {400, 0, 0, 0, 5, 0, 0, 0};
    bl_opts o = {.feedback = ENG_FEEDBACK_SESSIONS, .users = users, .waits = waits};
    bl_sched s;
    CU_ASSERT_EQUAL_FATAL(bl_core_run("fcfs", jobs, 8, bl_uniform_platform(10, 1), &o, &s), 0);
    CU_ASSERT_EQUAL(pred_of(&s, 1), -1);
    CU_ASSERT_EQUAL(pred_of(&s, 2), 1);
    CU_ASSERT_EQUAL(pred_of(&s, 3), -1);
    CU_ASSERT_EQUAL(pred_of(&s, 4), -1);
    CU_ASSERT_EQUAL(pred_of(&s, 5), 4);
    CU_ASSERT_EQUAL(pred_of(&s, 7), -1);
    CU_ASSERT_EQUAL(pred_of(&s, 8), -1);
    CU_ASSERT_EQUAL(pred_of(&s, 9), 7);
    CU_ASSERT_EQUAL(s.prep.n_fb_deps, 3);
    CU_ASSERT_EQUAL(submit_of(&s, 2), 1300);
    CU_ASSERT_EQUAL(submit_of(&s, 3), 2911);
    CU_ASSERT_EQUAL(submit_of(&s, 5), 70);
    CU_ASSERT_EQUAL(submit_of(&s, 9), 100);
    const bl_expect want[] = {{1, 0, 100}, {2, 1300, 1310}, {3, 2911, 2921},
                              {5, 70, 80}, {9, 100, 105},   {8, 5, 1005}};
    bl_check(&s, want, 6, "sessions");
    bl_sched_fini(&s);
}

/* Missing predecessors keep their logged submit: 2 names job 99, which no
 * line carries; 4 names 3, dropped for its unknown run time; 5 names 1
 * with an unknown think time (0). One host: 1 0..10, 5 at 10: 10..20,
 * 2 (logged 50) 50..60, 4 (logged 60) 60..70. */
static void test_missing(void)
{
    const bl_jobspec jobs[] = {
        {1, 0, 10, -1, 1, 0},  {2, 50, 10, -1, 1, 0},  {3, 55, -1, -1, 1, 0},
        {4, 60, 10, -1, 1, 0}, {5, 100, 10, -1, 1, 0},
    };
    const int64_t prev[] = {-1, 99, -1, 3, 1};
    const double think[] = {-1, 5, -1, 5, -1};
    bl_opts o = {.feedback = ENG_FEEDBACK_SWF, .prev_jobs = prev, .think_s = think};
    bl_sched s;
    CU_ASSERT_EQUAL_FATAL(bl_core_run("fcfs", jobs, 5, bl_uniform_platform(1, 1), &o, &s), 0);
    CU_ASSERT_EQUAL(s.prep.n_fb_missing, 2);
    CU_ASSERT_EQUAL(s.prep.n_fb_deps, 1);
    const bl_expect want[] = {{1, 0, 10}, {5, 10, 20}, {2, 50, 60}, {4, 60, 70}};
    bl_check(&s, want, 4, "missing predecessors");
    bl_sched_fini(&s);
}

/* A job killed at its requested time releases its dependant at its end:
 * 1 runs 100 s of a 50 s request, killed at 50; 2 follows it by 20 s:
 * 70..80. */
static void test_killed_releases(void)
{
    const bl_jobspec jobs[] = {{1, 0, 100, 50, 1, 0}, {2, 10, 10, -1, 1, 0}};
    const int64_t prev[] = {-1, 1};
    const double think[] = {-1, 20};
    bl_opts o = {.feedback = ENG_FEEDBACK_SWF, .prev_jobs = prev, .think_s = think};
    bl_sched s;
    CU_ASSERT_EQUAL_FATAL(bl_core_run("easy", jobs, 2, bl_uniform_platform(1, 1), &o, &s), 0);
    CU_ASSERT_EQUAL(bl_state(&s, 1), ENG_JOB_KILLED);
    const bl_expect want[] = {{1, 0, 50}, {2, 70, 80}};
    bl_check(&s, want, 2, "killed predecessor");
    bl_sched_fini(&s);
}

/* A cycle through field 17 is refused, naming the file and the jobs. */
static void test_cycle(void)
{
    const bl_jobspec jobs[] = {{1, 0, 10, -1, 1, 0}, {3, 5, 10, -1, 1, 0}, {4, 6, 10, -1, 1, 0}};
    const int64_t prev[] = {-1, 4, 3};
    const double think[] = {-1, 0, 0};
    bl_opts o = {.feedback = ENG_FEEDBACK_SWF, .prev_jobs = prev, .think_s = think};
    bl_sched s;
    CU_ASSERT_EQUAL(bl_core_run("fcfs", jobs, 3, bl_uniform_platform(1, 1), &o, &s), ENG_INVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "scenario: jobs 3 (line 2) -> 4 (line 3) -> 3 "
                                              "form a cycle of preceding jobs (SWF field 17)"));
    bl_sched_fini(&s);
    const int64_t self[] = {-1, 3, -1};
    o.prev_jobs = self;
    CU_ASSERT_EQUAL(bl_core_run("fcfs", jobs, 3, bl_uniform_platform(1, 1), &o, &s), ENG_INVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "jobs 3 (line 2) -> 3 form a cycle"));
    bl_sched_fini(&s);
}

int bl_suite_eng_feedback(void)
{
    CU_pSuite s = CU_add_suite("eng_feedback", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "a chain through fields 17 and 18", test_swf_chain);
    CU_add_test(s, "the queue in simulated submit order", test_queue_in_submit_order);
    CU_add_test(s, "sessions inferred, the threshold's edges", test_sessions);
    CU_add_test(s, "missing predecessors keep their submit", test_missing);
    CU_add_test(s, "a killed job releases its dependant", test_killed_releases);
    CU_add_test(s, "a cycle refused", test_cycle);
    return 0;
}
