/* test_eng_wstats.c — the statistics of a log before its replay
 * (eng_wstats.h) on a hand-made log whose every number is derived below,
 * and the computed load of a prepared workload. */
#include "bl_test.h"
#include "eng_wstats.h"

#include <math.h>
#include <stdlib.h>

/* Six jobs, header MaxProcs 8. Processors (field 5, else 8): 1, 6 (from
 * field 8), 4, none, 16, 3. Run times: 100, 300, unknown, 50, 20, 10.
 * Requested: 200, 250, 100, none, 20, none. Status: 1, 0, 5, -1, 1, 1.
 *  processors: 5 with a count, 1 without; serial 1 (J1); powers of two 3
 *    (1, 4, 16); median of {1, 3, 4, 6, 16} = 4; max 16; larger than
 *    MaxProcs: J5 (16 > 8);
 *  run time: 5 known, median of {10, 20, 50, 100, 300} = 50, max 300;
 *  requested: 4 give one; J2 ran past it (300 > 250; J5 ran exactly 20);
 *    run/request for jobs with both: 0.5, 1.2, 1 -> median 1;
 *  status: 3 completed, 1 failed, 1 cancelled, 1 unknown. */
static void test_known_log(void)
{
    const char *path = bl_write_tmp("wstats.swf",
                                    "; Version: 2.2\n"
                                    "; MaxProcs: 8\n"
                                    "1 0 -1 100 1 -1 -1 1 200 -1 1 1 1 -1 1 -1 -1 -1\n"
                                    "2 10 -1 300 -1 -1 -1 6 250 -1 0 1 1 -1 1 -1 -1 -1\n"
                                    "3 20 -1 -1 4 -1 -1 4 100 -1 5 1 1 -1 1 -1 -1 -1\n"
                                    "4 30 -1 50 -1 -1 -1 -1 -1 -1 -1 1 1 -1 1 -1 -1 -1\n"
                                    "5 40 -1 20 16 -1 -1 16 20 -1 1 1 1 -1 1 -1 -1 -1\n"
                                    "6 50 -1 10 3 -1 -1 3 -1 -1 1 1 1 -1 1 -1 -1 -1\n");
    eng_workload *w = NULL;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_swf_read(path, NULL, &w, &d), 0);
    eng_wstats s;
    CU_ASSERT_EQUAL_FATAL(eng_wstats_compute(w, &s), 0);
    CU_ASSERT_EQUAL(s.n_jobs, 6);
    CU_ASSERT_DOUBLE_EQUAL(s.first_submit_s, 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(s.last_submit_s, 50, 0);
    CU_ASSERT_EQUAL(s.n_with_procs, 5);
    CU_ASSERT_EQUAL(s.n_no_procs, 1);
    CU_ASSERT_EQUAL(s.n_serial, 1);
    CU_ASSERT_EQUAL(s.n_pow2, 3);
    CU_ASSERT_DOUBLE_EQUAL(s.procs_median, 4, 0);
    CU_ASSERT_DOUBLE_EQUAL(s.procs_max, 16, 0);
    CU_ASSERT_EQUAL(s.n_larger_than_header, 1);
    CU_ASSERT_EQUAL(s.n_with_runtime, 5);
    CU_ASSERT_EQUAL(s.n_no_runtime, 1);
    CU_ASSERT_DOUBLE_EQUAL(s.runtime_median_s, 50, 0);
    CU_ASSERT_DOUBLE_EQUAL(s.runtime_max_s, 300, 0);
    CU_ASSERT_EQUAL(s.n_with_request, 4);
    CU_ASSERT_EQUAL(s.n_over_request, 1);
    CU_ASSERT_DOUBLE_EQUAL(s.accuracy_median, 1, 1e-12);
    CU_ASSERT_EQUAL(s.n_completed, 3);
    CU_ASSERT_EQUAL(s.n_failed, 1);
    CU_ASSERT_EQUAL(s.n_cancelled, 1);
    CU_ASSERT_EQUAL(s.n_status_unknown, 1);
    CU_ASSERT_EQUAL(s.n_status_other, 0);
    eng_workload_destroy(w);
}

/* An even count takes the mean of the two middle values; an empty log has
 * no median. */
static void test_even_and_empty(void)
{
    const char *path = bl_write_tmp("wstats2.swf",
                                    "1 0 -1 10 2 -1 -1 2 -1 -1 1 1 1 -1 1 -1 -1 -1\n"
                                    "2 5 -1 30 8 -1 -1 8 -1 -1 1 1 1 -1 1 -1 -1 -1\n");
    eng_workload *w = NULL;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_swf_read(path, NULL, &w, &d), 0);
    eng_wstats s;
    CU_ASSERT_EQUAL_FATAL(eng_wstats_compute(w, &s), 0);
    CU_ASSERT_DOUBLE_EQUAL(s.procs_median, 5, 0);
    CU_ASSERT_DOUBLE_EQUAL(s.runtime_median_s, 20, 0);
    CU_ASSERT(isnan(s.accuracy_median)); /* no requested time */
    CU_ASSERT_EQUAL(s.n_larger_than_header, 0);
    eng_workload_destroy(w);
    const char *empty = bl_write_tmp("wstats3.swf", "; Version: 2.2\n");
    CU_ASSERT_EQUAL_FATAL(eng_swf_read(empty, NULL, &w, &d), 0);
    CU_ASSERT_EQUAL_FATAL(eng_wstats_compute(w, &s), 0);
    CU_ASSERT_EQUAL(s.n_jobs, 0);
    CU_ASSERT(isnan(s.procs_median) && isnan(s.first_submit_s));
    eng_workload_destroy(w);
}

/* The log's span is that of the known submit times: a job of unknown submit
 * time (-1), which the reader sorts last, neither ends nor starts it. Here
 * 10 .. 30 s; with no known submit time at all, no span (NAN). */
static void test_unknown_submit_span(void)
{
    const char *path = bl_write_tmp("wstats4.swf",
                                    "1 30 -1 10 2 -1 -1 2 -1 -1 1 1 1 -1 1 -1 -1 -1\n"
                                    "2 -1 -1 10 2 -1 -1 2 -1 -1 1 1 1 -1 1 -1 -1 -1\n"
                                    "3 10 -1 10 2 -1 -1 2 -1 -1 1 1 1 -1 1 -1 -1 -1\n");
    eng_workload *w = NULL;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_swf_read(path, NULL, &w, &d), 0);
    CU_ASSERT_DOUBLE_EQUAL_FATAL(w->jobs[2].submit_s, -1, 0);
    eng_wstats s;
    CU_ASSERT_EQUAL_FATAL(eng_wstats_compute(w, &s), 0);
    CU_ASSERT_EQUAL(s.n_jobs, 3);
    CU_ASSERT_DOUBLE_EQUAL(s.first_submit_s, 10, 0);
    CU_ASSERT_DOUBLE_EQUAL(s.last_submit_s, 30, 0);
    eng_workload_destroy(w);
    const char *none = bl_write_tmp("wstats5.swf",
                                    "1 -1 -1 10 2 -1 -1 2 -1 -1 1 1 1 -1 1 -1 -1 -1\n");
    CU_ASSERT_EQUAL_FATAL(eng_swf_read(none, NULL, &w, &d), 0);
    CU_ASSERT_EQUAL_FATAL(eng_wstats_compute(w, &s), 0);
    CU_ASSERT(isnan(s.first_submit_s) && isnan(s.last_submit_s));
    eng_workload_destroy(w);
}

/* Work 10 s x 2 + 5 s x 4 = 40 unit-seconds over submits 0..10 on 4 hosts:
 * U = 40 / (10 x 4) = 1. One job, or no span, or no host: no load. */
static void test_prepared_load(void)
{
    eng_sim_job jobs[2] = {
        {.submit_s = 0, .run_s = 10, .units = 2},
        {.submit_s = 10, .run_s = 5, .units = 4},
    };
    eng_prepared p = {.jobs = jobs, .n_jobs = 2};
    CU_ASSERT_DOUBLE_EQUAL(eng_wstats_prepared_load(&p, 4), 1.0, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(eng_wstats_prepared_load(&p, 8), 0.5, 1e-15);
    CU_ASSERT(isnan(eng_wstats_prepared_load(&p, 0)));
    p.n_jobs = 1;
    CU_ASSERT(isnan(eng_wstats_prepared_load(&p, 4)));
}

int bl_suite_eng_wstats(void)
{
    CU_pSuite s = CU_add_suite("eng_wstats", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "a hand-made log", test_known_log);
    CU_add_test(s, "even count, empty log", test_even_and_empty);
    CU_add_test(s, "computed load of a prepared workload", test_prepared_load);
    CU_add_test(s, "span of known submit times only", test_unknown_submit_span);
    return 0;
}
