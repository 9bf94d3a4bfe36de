/* test_eng_prep.c — processor field, units, drop reasons, estimates. */
#include "bl_sched.h"
#include "bl_test.h"
#include "eng_prep.h"

#include <math.h>

static eng_workload *workload(void)
{
    eng_workload *w = eng_workload_create("prep");
    eng_job j = eng_job_unknown();
    /* 1: alloc 3, req 8 */
    j.id = 1, j.submit_s = 0, j.runtime_s = 100, j.procs_alloc = 3, j.procs_req = 8,
    j.time_req_s = 200;
    eng_workload_push(w, &j);
    /* 2: only requested processors */
    j.id = 2, j.procs_alloc = -1, j.procs_req = 5, j.time_req_s = 50; /* overrun */
    eng_workload_push(w, &j);
    /* 3: no processors at all */
    j.id = 3, j.procs_alloc = 0, j.procs_req = -1;
    eng_workload_push(w, &j);
    /* 4: run time unknown */
    j.id = 4, j.procs_alloc = 2, j.runtime_s = -1;
    eng_workload_push(w, &j);
    /* 5: too large: 17 procs on 4 nodes of 4 cores */
    j.id = 5, j.procs_alloc = 17, j.runtime_s = 10, j.time_req_s = -1;
    eng_workload_push(w, &j);
    /* 6: no requested time */
    j.id = 6, j.procs_alloc = 16, j.runtime_s = 0.4, j.time_req_s = 0;
    eng_workload_push(w, &j);
    return w;
}

static void test_alloc_field_and_drops(void)
{
    eng_workload *w = workload();
    eng_platform *p = bl_uniform_platform(4, 4);
    eng_prepared prep;
    eng_diag d;
    eng_diag_clear(&d);
    eng_prep_opts o = {.procs_field = ENG_PROCS_ALLOC};
    CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &o, &prep, &d), 0);
    CU_ASSERT_EQUAL(prep.n_src, 6);
    CU_ASSERT_EQUAL(prep.n_jobs, 3);
    CU_ASSERT_EQUAL(prep.n_dropped[ENG_DROP_NO_PROCS], 1);
    CU_ASSERT_EQUAL(prep.n_dropped[ENG_DROP_NO_RUNTIME], 1);
    CU_ASSERT_EQUAL(prep.n_dropped[ENG_DROP_TOO_LARGE], 1);
    CU_ASSERT_EQUAL(prep.n_dropped_total, 3);
    CU_ASSERT_EQUAL(prep.drop[0], -1);
    CU_ASSERT_EQUAL(prep.drop[2], ENG_DROP_NO_PROCS);
    CU_ASSERT_EQUAL(prep.drop[3], ENG_DROP_NO_RUNTIME);
    CU_ASSERT_EQUAL(prep.drop[4], ENG_DROP_TOO_LARGE);
    /* job 1: field 5 = 3 procs -> 1 node of 4 cores */
    CU_ASSERT_EQUAL(prep.jobs[0].procs, 3);
    CU_ASSERT_EQUAL(prep.jobs[0].units, 1);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[0].estimate_s, 200, 0);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[0].kill_s, 200, 0);
    /* job 2: falls back to field 8 = 5 -> 2 nodes; runs past its request */
    CU_ASSERT_EQUAL(prep.jobs[1].procs, 5);
    CU_ASSERT_EQUAL(prep.jobs[1].units, 2);
    CU_ASSERT_EQUAL(prep.n_overrun, 1);
    /* job 6: no request: estimate from the run time, at least 1 s, no kill */
    CU_ASSERT_TRUE(prep.jobs[2].est_from_runtime);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[2].estimate_s, 1, 0);
    CU_ASSERT(isinf(prep.jobs[2].kill_s));
    CU_ASSERT_EQUAL(prep.n_est_from_runtime, 1);
    CU_ASSERT_STRING_EQUAL(eng_drop_key(ENG_DROP_TOO_LARGE), "too-large");
    CU_ASSERT_STRING_EQUAL(eng_drop_text(ENG_DROP_NO_RUNTIME), "run time unknown (field 4 is -1)");
    eng_prepared_fini(&prep);
    eng_platform_destroy(p);
    eng_workload_destroy(w);
}

static void test_req_field_core_alloc_extend(void)
{
    eng_workload *w = workload();
    eng_platform *p = bl_uniform_platform(4, 4);
    eng_prepared prep;
    eng_diag d;
    eng_diag_clear(&d);
    eng_prep_opts o = {.procs_field = ENG_PROCS_REQ, .alloc = POL_ALLOC_CORE,
                       .walltime = ENG_WALLTIME_EXTEND};
    CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &o, &prep, &d), 0);
    /* job 1: field 8 = 8 cores; job 5: 17 cores > 16: too large */
    CU_ASSERT_EQUAL(prep.jobs[0].procs, 8);
    CU_ASSERT_EQUAL(prep.jobs[0].units, 8);
    CU_ASSERT(isinf(prep.jobs[0].kill_s));
    /* job 2: extend raises 50 to its 100 s run time */
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[1].estimate_s, 100, 0);
    CU_ASSERT_EQUAL(prep.n_extended, 1);
    CU_ASSERT_EQUAL(prep.n_dropped[ENG_DROP_TOO_LARGE], 1);
    eng_prepared_fini(&prep);
    eng_platform_destroy(p);
    eng_workload_destroy(w);
}

int bl_suite_eng_prep(void)
{
    CU_pSuite s = CU_add_suite("eng_prep", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "field 5 first, units, drops, estimates", test_alloc_field_and_drops);
    CU_add_test(s, "field 8 first, core allocation, extend", test_req_field_core_alloc_extend);
    return 0;
}
