/* test_eng_standin.c — the ForHLR II stand-in (engine/eng_standin.c): job
 * count and numbering, whole nodes of 20 cores, queue 1, requested times on
 * the walltime grid, a header that says it is a stand-in; the same seed
 * gives the same jobs and another seed other jobs; a load reaches the
 * computed load on 1152 x 20 cores, with its note. The command that writes
 * it is test_cli_standin.c. */
#include "bl_test.h"

#include "eng_scale.h"
#include "eng_standin.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_shape(void)
{
    eng_workload *w = NULL;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_standin_forhlr2(500, 7, 0, &w, &d), ENG_OK);
    CU_ASSERT_EQUAL(w->n_jobs, 500);
    size_t bad_size = 0, bad_queue = 0, bad_order = 0, bad_est = 0, bad_id = 0, wide = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        const eng_job *j = &w->jobs[i];
        bad_id += j->id != (int64_t)(i + 1);
        /* whole nodes: a multiple of 20 processors, 1..1152 nodes, 5 = 8 */
        bad_size += j->procs_alloc % ENG_FORHLR2_CORES_PER_NODE != 0 ||
                    j->procs_alloc < ENG_FORHLR2_CORES_PER_NODE ||
                    j->procs_alloc > ENG_FORHLR2_NODES * ENG_FORHLR2_CORES_PER_NODE ||
                    j->procs_req != j->procs_alloc;
        bad_queue += j->queue != ENG_FORHLR2_QUEUE;
        bad_order += i > 0 && j->submit_s < w->jobs[i - 1].submit_s;
        bad_est += !(j->time_req_s >= j->runtime_s) || !(j->runtime_s >= 0);
        wide += j->procs_alloc > ENG_FORHLR2_CORES_PER_NODE;
    }
    CU_ASSERT_EQUAL(bad_id, 0);
    CU_ASSERT_EQUAL(bad_size, 0);
    CU_ASSERT_EQUAL(bad_queue, 0);
    CU_ASSERT_EQUAL(bad_order, 0);
    CU_ASSERT_EQUAL(bad_est, 0);
    /* The model draws both serial and parallel jobs. */
    CU_ASSERT_TRUE(wide > 0 && wide < w->n_jobs);
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "stand-in for the ForHLR II log KIT-FH2-2016-1"));
    CU_ASSERT_TRUE(w->hdr.computer && strstr(w->hdr.computer, "stand-in"));
    CU_ASSERT_EQUAL(w->hdr.max_nodes, 1152);
    CU_ASSERT_EQUAL(w->hdr.max_procs, 23040);
    eng_workload_destroy(w);

    /* The same seed draws the same jobs, another seed other ones. */
    eng_workload *a = NULL, *b = NULL, *c = NULL;
    CU_ASSERT_EQUAL_FATAL(eng_standin_forhlr2(200, 3, 0, &a, &d), ENG_OK);
    CU_ASSERT_EQUAL_FATAL(eng_standin_forhlr2(200, 3, 0, &b, &d), ENG_OK);
    CU_ASSERT_EQUAL_FATAL(eng_standin_forhlr2(200, 4, 0, &c, &d), ENG_OK);
    CU_ASSERT_EQUAL(memcmp(a->jobs, b->jobs, 200 * sizeof *a->jobs), 0);
    size_t differ = 0;
    for (size_t i = 0; i < 200; i++)
        differ += a->jobs[i].submit_s != c->jobs[i].submit_s ||
                  a->jobs[i].runtime_s != c->jobs[i].runtime_s;
    CU_ASSERT_TRUE(differ > 150);
    eng_workload_destroy(a);
    eng_workload_destroy(b);
    eng_workload_destroy(c);

    CU_ASSERT_EQUAL(eng_standin_forhlr2(0, 1, 0, &w, &d), ENG_RANGE);
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT_TRUE(bl_contains(d.msg, "at least one job"));
}

/* A load: the arrivals rescaled to the computed load on 1152 x 20 cores,
 * within U / (2 D) as whole-second submit times allow (eng_scale.h), the
 * jobs otherwise those drawn, and a note saying by how much. */
static void test_load(void)
{
    eng_workload *drawn = NULL, *w = NULL;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_standin_forhlr2(300, 11, 0, &drawn, &d), ENG_OK);
    CU_ASSERT_EQUAL_FATAL(eng_standin_forhlr2(300, 11, 0.7, &w, &d), ENG_OK);
    eng_load l;
    CU_ASSERT_EQUAL(eng_scale_load(w, 1152, 20, &l, &d), ENG_OK);
    CU_ASSERT(fabs(l.load - 0.7) <= 0.7 / (2 * l.span_s));
    CU_ASSERT_EQUAL(w->n_jobs, drawn->n_jobs);
    size_t same = 0;
    for (size_t i = 0; i < w->n_jobs; i++)
        same += w->jobs[i].runtime_s == drawn->jobs[i].runtime_s &&
                w->jobs[i].procs_alloc == drawn->jobs[i].procs_alloc;
    CU_ASSERT_EQUAL(same, w->n_jobs);
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "scale: inter-arrival times multiplied by "));
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "for a computed load of 0.7 on 1152 nodes of 20 cores"));
    CU_ASSERT_PTR_NULL(bl_find_note(drawn, "scale: "));
    eng_workload_destroy(drawn);
    eng_workload_destroy(w);
}

int bl_suite_eng_standin(void)
{
    CU_pSuite s = CU_add_suite("eng_standin", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "shape: count, whole nodes of 20 cores, queue 1", test_shape);
    CU_add_test(s, "a load: arrivals rescaled, with a note", test_load);
    return 0;
}
