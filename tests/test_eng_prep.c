/* test_eng_prep.c — processor field, units, drop reasons, estimates,
 * queue limits. */
#include "bl_sched.h"
#include "bl_test.h"
#include "eng_metrics.h"
#include "eng_prep.h"
#include "pol_registry.h"

#include <stdlib.h>
#include <string.h>

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

/* A job of unknown submit time (which the reader sorts last) is dropped as
 * no-submit, before any other reason applies. */
static void test_unknown_submit_dropped(void)
{
    eng_workload *w = eng_workload_create("nosubmit");
    eng_job j = eng_job_unknown();
    j.id = 1, j.submit_s = 0, j.runtime_s = 10, j.procs_alloc = 1, j.time_req_s = 20;
    eng_workload_push(w, &j);
    j.id = 2, j.submit_s = -1, j.runtime_s = -1; /* no submit and no run time */
    eng_workload_push(w, &j);
    eng_platform *p = bl_uniform_platform(2, 1);
    eng_prepared prep;
    eng_diag d;
    eng_diag_clear(&d);
    eng_prep_opts o = {.procs_field = ENG_PROCS_ALLOC};
    CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &o, &prep, &d), 0);
    CU_ASSERT_EQUAL(prep.n_jobs, 1);
    CU_ASSERT_EQUAL(prep.n_dropped_total, 1);
    CU_ASSERT_EQUAL(prep.n_dropped[ENG_DROP_NO_SUBMIT], 1);
    CU_ASSERT_EQUAL(prep.n_dropped[ENG_DROP_NO_RUNTIME], 0);
    CU_ASSERT_EQUAL(prep.drop[1], ENG_DROP_NO_SUBMIT);
    CU_ASSERT_STRING_EQUAL(eng_drop_key(ENG_DROP_NO_SUBMIT), "no-submit");
    eng_prepared_fini(&prep);
    eng_platform_destroy(p);
    eng_workload_destroy(w);
}

/* A job number that an earlier line already carries is dropped as
 * duplicate-id, before any other reason: the first line (smallest line
 * number, whatever its submit time) keeps the number. Jobs in the reader's
 * order (submit time, then line; unknown submits last):
 *   [0] 8 submit 0, line 4  -> duplicate-id (line 2 holds job 8)
 *   [1] 8 submit 10, line 2 -> kept
 *   [2] 9 submit 20, line 3 -> kept
 *   [3] 8 submit 30, line 5, no run time -> duplicate-id, not no-runtime
 *   [4] 1 submit -1, line 1 -> no-submit (the first job 1)
 *   [5] 1 submit -1, line 6 -> duplicate-id
 * Generated workloads (every line 0) keep the earlier job of the array. */
static void test_duplicate_id_dropped(void)
{
    static const struct {
        int64_t id, line;
        double submit_s, runtime_s;
    } rows[] = {{8, 4, 0, 10},  {8, 2, 10, 10}, {9, 3, 20, 10},
                {8, 5, 30, -1}, {1, 1, -1, 10}, {1, 6, -1, 10}};
    eng_workload *w = eng_workload_create("dups");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        eng_job j = eng_job_unknown();
        j.id = rows[i].id, j.line = rows[i].line, j.submit_s = rows[i].submit_s;
        j.runtime_s = rows[i].runtime_s, j.procs_alloc = 1, j.time_req_s = 20;
        eng_workload_push(w, &j);
    }
    eng_platform *p = bl_uniform_platform(2, 1);
    eng_prepared prep;
    eng_diag d;
    eng_diag_clear(&d);
    eng_prep_opts o = eng_prep_defaults();
    CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &o, &prep, &d), 0);
    CU_ASSERT_STRING_EQUAL(eng_drop_key(ENG_DROP_DUPLICATE_ID), "duplicate-id");
    CU_ASSERT_EQUAL(prep.n_jobs, 2);
    CU_ASSERT_EQUAL(prep.n_dropped_total, 4);
    CU_ASSERT_EQUAL(prep.n_dropped[ENG_DROP_DUPLICATE_ID], 3);
    CU_ASSERT_EQUAL(prep.n_dropped[ENG_DROP_NO_SUBMIT], 1);
    CU_ASSERT_EQUAL(prep.n_dropped[ENG_DROP_NO_RUNTIME], 0);
    static const int8_t want[] = {
        ENG_DROP_DUPLICATE_ID, -1, -1, ENG_DROP_DUPLICATE_ID, ENG_DROP_NO_SUBMIT,
        ENG_DROP_DUPLICATE_ID};
    for (size_t i = 0; i < sizeof want; i++)
        CU_ASSERT_EQUAL(prep.drop[i], want[i]);
    CU_ASSERT_EQUAL(prep.jobs[0].id, 8);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[0].submit_s, 10, 0);
    CU_ASSERT_EQUAL(prep.jobs[1].id, 9);
    eng_prepared_fini(&prep);
    eng_workload_destroy(w);

    w = eng_workload_create("generated");
    eng_job j = eng_job_unknown();
    j.submit_s = 0, j.runtime_s = 10, j.procs_alloc = 1, j.time_req_s = 20;
    j.id = 5;
    eng_workload_push(w, &j);
    j.id = 4;
    eng_workload_push(w, &j);
    j.id = 5, j.submit_s = 3;
    eng_workload_push(w, &j);
    CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &o, &prep, &d), 0);
    CU_ASSERT_EQUAL(prep.n_jobs, 2);
    CU_ASSERT_EQUAL(prep.drop[0], -1);
    CU_ASSERT_EQUAL(prep.drop[1], -1);
    CU_ASSERT_EQUAL(prep.drop[2], ENG_DROP_DUPLICATE_ID);
    eng_prepared_fini(&prep);
    eng_platform_destroy(p);
    eng_workload_destroy(w);
}

/* From the log: partial-execution lines of one job (status 2, then 3) are
 * merged by the reader into one job, which keeps its number; a true repeat
 * of a number is dropped, strict or lenient alike. Job 3's parts (lines 2
 * and 4) become one job of run time 40 + 60 = 100; line 5 repeats job 2. */
static void test_duplicate_id_from_log(void)
{
    const char *path = bl_write_tmp("dups.swf", "; Preemption: Yes\n"
                                                "3 0 -1 40 1 -1 -1 1 200 -1 2 1 1 -1 1 -1 -1 -1\n"
                                                "2 5 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n"
                                                "3 0 -1 60 1 -1 -1 1 200 -1 3 1 1 -1 1 -1 -1 -1\n"
                                                "2 9 -1 30 1 -1 -1 1 40 -1 1 1 1 -1 1 -1 -1 -1\n");
    eng_platform *p = bl_uniform_platform(2, 1);
    for (int lenient = 0; lenient < 2; lenient++) {
        eng_workload *w = NULL;
        eng_diag d;
        eng_diag_clear(&d);
        eng_swf_read_opts ro = {.lenient = lenient};
        CU_ASSERT_EQUAL_FATAL(eng_swf_read(path, &ro, &w, &d), 0);
        CU_ASSERT_EQUAL(w->n_jobs, 3);
        CU_ASSERT_EQUAL(w->n_part_lines, 2);
        CU_ASSERT_EQUAL(w->n_dup_ids, 1);
        eng_prepared prep;
        eng_prep_opts o = eng_prep_defaults();
        CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &o, &prep, &d), 0);
        CU_ASSERT_EQUAL(prep.n_jobs, 2);
        CU_ASSERT_EQUAL(prep.n_dropped_total, 1);
        CU_ASSERT_EQUAL(prep.n_dropped[ENG_DROP_DUPLICATE_ID], 1);
        CU_ASSERT_EQUAL(prep.jobs[0].id, 3);
        CU_ASSERT_DOUBLE_EQUAL(prep.jobs[0].run_s, 100, 0);
        CU_ASSERT_EQUAL(prep.jobs[1].id, 2);
        CU_ASSERT_DOUBLE_EQUAL(prep.jobs[1].run_s, 10, 0);
        CU_ASSERT_EQUAL(w->jobs[2].line, 5);
        CU_ASSERT_EQUAL(prep.drop[2], ENG_DROP_DUPLICATE_ID);
        eng_prepared_fini(&prep);
        eng_workload_destroy(w);
    }
    eng_platform_destroy(p);
}

static void test_req_field_core_alloc_extend(void)
{
    eng_workload *w = workload();
    eng_platform *p = bl_uniform_platform(4, 4);
    eng_prepared prep;
    eng_diag d;
    eng_diag_clear(&d);
    eng_prep_opts o = {
        .procs_field = ENG_PROCS_REQ, .alloc = POL_ALLOC_CORE, .walltime = ENG_WALLTIME_EXTEND};
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

/* Memory (SWF field 10, KB per processor) against 4 hosts of 4 cores and
 * 8 GiB (2 GiB a core, 8388608 KB a host, 2097152 KB a core):
 *   job 1: 4 procs x 1 GiB (1048576 KB): within the share, 4 cores, 1 node;
 *   job 2: 2 procs x 3 GiB (3145728 KB): 6 GiB = 3 cores' share: core
 *          allocation 3 units; node allocation floor(8/3) = 2 a host,
 *          1 node;
 *   job 3: 4 procs x 3 GiB: core ceil(12/2) = 6 units; node 2 a host,
 *          2 nodes;
 *   job 4: 1 proc x 9 GiB: more than a host: dropped as memory;
 *   job 5: 16 procs x 3 GiB: core 24 units > 16, node 8 nodes > 4 while
 *          the processors alone fit (16 cores, 4 nodes): dropped as memory;
 *   job 6: field 10 -1 and field 7 (used memory) 9 GiB: field 7 is not a
 *          request: 4 cores, 1 node. */
static void test_memory(void)
{
    const double kb_gib = 1024.0 * 1024;
    eng_workload *w = eng_workload_create("mem");
    eng_job j = eng_job_unknown();
    j.submit_s = 0, j.runtime_s = 100, j.time_req_s = 200;
    const struct {
        int procs;
        double req_gib, used_gib;
    } rows[] = {{4, 1, -1}, {2, 3, -1}, {4, 3, -1}, {1, 9, -1}, {16, 3, -1}, {4, -1, 9}};
    for (int i = 0; i < 6; i++) {
        j.id = i + 1, j.procs_alloc = j.procs_req = rows[i].procs;
        j.mem_req_kb = rows[i].req_gib > 0 ? rows[i].req_gib * kb_gib : -1;
        j.mem_used_kb = rows[i].used_gib > 0 ? rows[i].used_gib * kb_gib : -1;
        eng_workload_push(w, &j);
    }
    eng_host_desc hd[4];
    const char *names[] = {"h1", "h2", "h3", "h4"};
    for (int i = 0; i < 4; i++)
        hd[i] = (eng_host_desc){
            .name = names[i], .speed_flops = 1e9, .sg_cores = 4, .memory = "8GiB"};
    eng_platform *p;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_platform_build("mem.xml", hd, 4, NULL, &p, &d), 0);
    const int32_t want_core[] = {4, 3, 6, 4}, want_node[] = {1, 1, 2, 1};
    for (int a = 0; a < 2; a++) {
        eng_prep_opts o = {.alloc = a ? POL_ALLOC_NODE : POL_ALLOC_CORE};
        eng_prepared prep;
        CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &o, &prep, &d), 0);
        CU_ASSERT_TRUE(prep.memory);
        CU_ASSERT_EQUAL_FATAL(prep.n_jobs, 4);
        CU_ASSERT_EQUAL(prep.n_dropped[ENG_DROP_MEMORY], 2);
        CU_ASSERT_EQUAL(prep.n_dropped_total, 2);
        CU_ASSERT_EQUAL(prep.drop[3], ENG_DROP_MEMORY);
        CU_ASSERT_EQUAL(prep.drop[4], ENG_DROP_MEMORY);
        CU_ASSERT_EQUAL(prep.n_mem_raised, a ? 1 : 2);
        for (int k = 0; k < 4; k++)
            CU_ASSERT_EQUAL(prep.jobs[k].units, a ? want_node[k] : want_core[k]);
        eng_prepared_fini(&prep);
    }
    CU_ASSERT_STRING_EQUAL(eng_drop_key(ENG_DROP_MEMORY), "memory");
    eng_platform_destroy(p);
    /* the same jobs on a platform without memory: nothing changes */
    p = bl_uniform_platform(4, 4);
    eng_prep_opts o = {.alloc = POL_ALLOC_CORE};
    eng_prepared prep;
    CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &o, &prep, &d), 0);
    CU_ASSERT_FALSE(prep.memory);
    CU_ASSERT_EQUAL(prep.n_jobs, 6);
    CU_ASSERT_EQUAL(prep.jobs[2].units, 4);
    CU_ASSERT_EQUAL(prep.n_mem_raised, 0);
    eng_prepared_fini(&prep);
    eng_platform_destroy(p);
    eng_workload_destroy(w);
}

/* Memory keeps two jobs apart under core allocation: one host of 4 cores
 * and 8 GiB; jobs 1 and 2 (submitted at 0, 100 s, 2 processors of 3 GiB
 * each) need 6 GiB, 3 cores' share, so each holds 3 cores and they run one
 * after the other: 1 on [0, 100), 2 on [100, 200). Without the memory
 * property both take 2 cores and run on [0, 100). */
static void test_memory_apart(void)
{
    const bl_jobspec jobs[] = {{1, 0, 100, 100, 2, 0}, {2, 0, 100, 100, 2, 0}};
    const double mem_kb[] = {3.0 * 1024 * 1024, 3.0 * 1024 * 1024};
    bl_opts o = {.alloc = POL_ALLOC_CORE, .mem_kb = mem_kb};
    for (int with = 0; with < 2; with++) {
        eng_host_desc hd = {
            .name = "h1", .speed_flops = 1e9, .sg_cores = 4, .memory = with ? "8GiB" : NULL};
        eng_platform *p;
        eng_diag d;
        eng_diag_clear(&d);
        CU_ASSERT_EQUAL_FATAL(eng_platform_build("mem.xml", &hd, 1, NULL, &p, &d), 0);
        for (int k = 0; k < 2; k++) {
            bl_sched s;
            CU_ASSERT_EQUAL_FATAL(bl_core_run(k ? "easy" : "fcfs", jobs, 2, p, &o, &s), 0);
            CU_ASSERT_DOUBLE_EQUAL(bl_start(&s, 1), 0, 0);
            CU_ASSERT_DOUBLE_EQUAL(bl_start(&s, 2), with ? 100 : 0, 0);
            s.p = NULL; /* the platform is used again */
            bl_sched_fini(&s);
        }
        eng_platform_destroy(p);
    }
}

/* Initialization from a share: S_t = X/(1-X) * mean run time of type t.
 * Types (field 15): 1 -> runs 100, 300 (mean 200); 2 -> run 50. X = 0.2:
 * S_1 = 0.25 * 200 = 50, S_2 = 12.5; total init 50+50+12.5 = 112.5 over
 * 112.5 + 450 = 562.5: exactly 0.2. Estimates and kill limits grow by S. */

/* Queue limits on 4 nodes of 4 cores, queue 1 max_nodes=2 and
 * max_runtime_s=100, queue 2 without limits:
 *  J1 queue 1, 8 procs = 2 nodes, request 100: kept (at both limits);
 *  J2 queue 1, 9 procs = 3 nodes: over max_nodes, dropped;
 *  J3 queue 1, request 101 > 100: dropped;
 *  J4 queue 1, no request, runs 150: given the queue's 100 s, killed at
 *     100 in kill mode, counted as an overrun and in n_queue_time;
 *  J5 queue 2, 16 procs, request 500: kept (no limits).
 * Under core allocation the nodes still count whole nodes: J2's 9 procs
 * are 3 nodes there too. */
static void test_queue_limits(void)
{
    eng_workload *w = eng_workload_create("limits");
    eng_job j = eng_job_unknown();
    j.submit_s = 0, j.runtime_s = 50, j.queue = 1;
    j.id = 1, j.procs_alloc = 8, j.time_req_s = 100;
    eng_workload_push(w, &j);
    j.id = 2, j.procs_alloc = 9;
    eng_workload_push(w, &j);
    j.id = 3, j.procs_alloc = 1, j.time_req_s = 101;
    eng_workload_push(w, &j);
    j.id = 4, j.time_req_s = -1, j.runtime_s = 150;
    eng_workload_push(w, &j);
    j.id = 5, j.queue = 2, j.procs_alloc = 16, j.time_req_s = 500;
    eng_workload_push(w, &j);
    eng_platform *p = bl_uniform_platform(4, 4);
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_platform_set_limits(p, "1:max_nodes=2,max_runtime_s=100", &d), 0);
    for (int alloc = 0; alloc < 2; alloc++) {
        eng_prepared prep;
        eng_prep_opts o = eng_prep_defaults();
        o.alloc = alloc ? POL_ALLOC_CORE : POL_ALLOC_NODE;
        CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &o, &prep, &d), 0);
        CU_ASSERT_EQUAL(prep.n_jobs, 3);
        CU_ASSERT_EQUAL(prep.n_dropped[ENG_DROP_OVER_LIMIT], 2);
        CU_ASSERT_EQUAL(prep.drop[1], ENG_DROP_OVER_LIMIT);
        CU_ASSERT_EQUAL(prep.drop[2], ENG_DROP_OVER_LIMIT);
        CU_ASSERT_EQUAL(prep.jobs[0].id, 1);
        CU_ASSERT_EQUAL(prep.jobs[1].id, 4);
        CU_ASSERT_DOUBLE_EQUAL(prep.jobs[1].estimate_s, 100, 0);
        CU_ASSERT_DOUBLE_EQUAL(prep.jobs[1].kill_s, 100, 0);
        CU_ASSERT_FALSE(prep.jobs[1].est_from_runtime);
        CU_ASSERT_EQUAL(prep.n_queue_time, 1);
        CU_ASSERT_EQUAL(prep.n_overrun, 1);
        CU_ASSERT_EQUAL(prep.jobs[2].id, 5);
        eng_prepared_fini(&prep);
    }
    CU_ASSERT_STRING_EQUAL(eng_drop_key(ENG_DROP_OVER_LIMIT), "over-queue-limit");
    /* Without limits nothing is dropped for them: J2 fits the 4 nodes. */
    CU_ASSERT_EQUAL(eng_platform_set_limits(p, NULL, &d), 0);
    eng_prepared prep;
    eng_prep_opts o = eng_prep_defaults();
    CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &o, &prep, &d), 0);
    CU_ASSERT_EQUAL(prep.n_jobs, 5);
    CU_ASSERT_TRUE(prep.jobs[3].est_from_runtime);
    eng_prepared_fini(&prep);
    eng_platform_destroy(p);
    eng_workload_destroy(w);
}


/* On a platform whose hosts name partitions, jobs go by field 16: h1-h2
 * serve partition 1, h3-h4 the rest. J1 (queue 1, partition 2) goes to the
 * catch-all pool, J2 (queue 2, partition 1) to partition 1's pool. */
static void test_route_by_partition(void)
{
    eng_workload *w = eng_workload_create("parts");
    eng_job j = eng_job_unknown();
    j.submit_s = 0, j.runtime_s = 10, j.procs_alloc = 1, j.time_req_s = 10;
    j.id = 1, j.queue = 1, j.partition = 2;
    eng_workload_push(w, &j);
    j.id = 2, j.queue = 2, j.partition = 1;
    eng_workload_push(w, &j);
    eng_host_desc hd[] = {
        {.name = "h1", .speed_flops = 1e9, .sg_cores = 1, .partitions = "1"},
        {.name = "h2", .speed_flops = 1e9, .sg_cores = 1, .partitions = "1"},
        {.name = "h3", .speed_flops = 1e9, .sg_cores = 1},
        {.name = "h4", .speed_flops = 1e9, .sg_cores = 1},
    };
    eng_platform *p = NULL;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_platform_build("p.xml", hd, 4, NULL, &p, &d), 0);
    eng_prepared prep;
    eng_prep_opts o = eng_prep_defaults();
    CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &o, &prep, &d), 0);
    CU_ASSERT_EQUAL_FATAL(prep.n_jobs, 2);
    CU_ASSERT_EQUAL(prep.jobs[0].pool, p->catch_all);
    CU_ASSERT_EQUAL(prep.jobs[1].pool, eng_platform_route(p, 1));
    CU_ASSERT_NOT_EQUAL(prep.jobs[0].pool, prep.jobs[1].pool);
    eng_prepared_fini(&prep);
    eng_platform_destroy(p);
    eng_workload_destroy(w);
}

static eng_workload *typed(void)
{
    eng_workload *w = eng_workload_create("typed");
    eng_job j = eng_job_unknown();
    j.procs_alloc = 1, j.status = 1;
    j.id = 1, j.submit_s = 0, j.runtime_s = 100, j.time_req_s = 150, j.queue = 1, j.app = 7;
    eng_workload_push(w, &j);
    j.id = 2, j.submit_s = 1, j.runtime_s = 300, j.time_req_s = 400, j.queue = 1, j.app = 8;
    eng_workload_push(w, &j);
    j.id = 3, j.submit_s = 2, j.runtime_s = 50, j.time_req_s = -1, j.queue = 2, j.app = 7;
    eng_workload_push(w, &j);
    return w;
}

static void test_init_share(void)
{
    eng_workload *w = typed();
    eng_platform *p = bl_uniform_platform(4, 1);
    eng_prepared prep;
    eng_diag d;
    eng_diag_clear(&d);
    eng_prep_opts o = eng_prep_defaults();
    o.init_share = 0.2;
    CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &o, &prep, &d), 0);
    CU_ASSERT_EQUAL(prep.n_types, 2);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[0].init_s, 50, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[1].init_s, 50, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[2].init_s, 12.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[0].estimate_s, 200, 1e-12); /* 150 + 50 */
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[0].kill_s, 200, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[2].estimate_s, 62.5, 1e-12); /* run time + init */
    CU_ASSERT(isinf(prep.jobs[2].kill_s));
    eng_prepared_fini(&prep);
    /* by executable (field 14): 7 -> 100, 50 (mean 75); 8 -> 300 */
    o.type_field = ENG_TYPE_APP;
    CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &o, &prep, &d), 0);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[0].init_s, 18.75, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[1].init_s, 75, 1e-12);
    eng_prepared_fini(&prep);
    o.init_share = 1;
    CU_ASSERT_EQUAL(eng_prep(w, p, &o, &prep, &d), ENG_RANGE);
    eng_platform_destroy(p);
    eng_workload_destroy(w);
}

/* The realised share of a simulated schedule equals the target when no
 * job is killed. */
static void test_init_share_realised(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 100, 200, 1, 1}, {2, 5, 300, 400, 2, 1}, {3, 7, 50, 60, 1, 2}, {4, 9, 80, 90, 4, 2}};
    eng_platform *p = bl_uniform_platform(4, 1);
    eng_workload *w = bl_make_workload(jobs, 4);
    eng_prepared prep;
    eng_diag d;
    eng_diag_clear(&d);
    eng_prep_opts o = eng_prep_defaults();
    o.init_share = 0.3;
    CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &o, &prep, &d), 0);
    eng_core_opts co = {.policy = pol_find("easy"), .check = true};
    eng_core *c = NULL;
    CU_ASSERT_EQUAL_FATAL(eng_core_create(p, &prep, &co, &c, &d), 0);
    CU_ASSERT_EQUAL_FATAL(eng_core_run(c, &d), 0);
    size_t n_ts;
    const eng_ts_row *ts = eng_core_timeseries(c, &n_ts);
    eng_summary m;
    eng_metrics_compute(&prep, eng_core_results(c), ts, n_ts, 4, &m);
    CU_ASSERT_EQUAL(m.n_killed, 0);
    CU_ASSERT_DOUBLE_EQUAL(m.init_share, 0.3, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(m.init_share_target, 0.3, 0);
    /* job 1 runs init 0.3/0.7*200 + 100 */
    CU_ASSERT_DOUBLE_EQUAL(eng_core_results(c)[0].end_s, 100 + 0.3 / 0.7 * 200, 1e-9);
    eng_core_destroy(c);
    eng_prepared_fini(&prep);
    eng_workload_destroy(w);
    eng_platform_destroy(p);
}

static void test_init_table(void)
{
    const char *ok = bl_write_tmp("init.txt", "# type seconds\n1 30\n* 5   # others\n\n");
    eng_init_time *t = NULL;
    size_t n = 0;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_prep_read_init_times(ok, &t, &n, &d), 0);
    CU_ASSERT_EQUAL(n, 2);
    eng_workload *w = typed();
    eng_platform *p = bl_uniform_platform(4, 1);
    eng_prepared prep;
    eng_prep_opts o = eng_prep_defaults();
    o.init_times = t;
    o.n_init_times = n;
    CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &o, &prep, &d), 0);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[0].init_s, 30, 0);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[2].init_s, 5, 0);
    eng_prepared_fini(&prep);
    /* without the '*' line, type 2 is not listed: an error naming job 3 */
    o.n_init_times = 1;
    CU_ASSERT_EQUAL(eng_prep(w, p, &o, &prep, &d), ENG_INVAL);
    CU_ASSERT_STRING_EQUAL(d.msg, "typed:0: job 3 has type 2, which the initialization table "
                                  "does not list (add it, or a '*' line)");
    free(t);
    eng_platform_destroy(p);
    eng_workload_destroy(w);
    const char *bad = bl_write_tmp("bad-init.txt", "1 30\n2 -4\n");
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_prep_read_init_times(bad, &t, &n, &d), ENG_PARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "bad-init.txt:2: expected 'TYPE SECONDS'"));
    const char *dup = bl_write_tmp("dup-init.txt", "1 30\n1 4\n");
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_prep_read_init_times(dup, &t, &n, &d), ENG_PARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "dup-init.txt:2: type 1 is listed twice"));
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_prep_read_init_times("/no/init.txt", &t, &n, &d), ENG_IO);

    /* A comment of 3 000 characters is a comment: the file is valid, and an
     * error after it names its own line (4), not a piece of the comment. */
    char text[3200];
    size_t k = (size_t)snprintf(text, sizeof text, "1 30\n# ");
    memset(text + k, 'x', 3000);
    k += 3000;
    snprintf(text + k, sizeof text - k, "\n* 5\n");
    const char *longc = bl_write_tmp("long-comment.txt", text);
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_prep_read_init_times(longc, &t, &n, &d), ENG_OK);
    CU_ASSERT_EQUAL(n, 2);
    CU_ASSERT_DOUBLE_EQUAL(t[1].seconds, 5, 0);
    CU_ASSERT_TRUE(t[1].any);
    free(t);
    snprintf(text + k, sizeof text - k, "\n* 5\n2 x\n");
    longc = bl_write_tmp("long-comment-bad.txt", text);
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_prep_read_init_times(longc, &t, &n, &d), ENG_PARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "long-comment-bad.txt:4: expected 'TYPE SECONDS'"));
}

/* --init-planned no: the estimate is the request alone, the kill limit
 * still covers the initialization. typed() with "1 30" and "* 5":
 *   J1 (type 1, request 150): planned 150 + 30 = 180 by default; 150 here;
 *      killed past 180 either way;
 *   J3 (type 2, no request, run 50): planned 50 + 5 = 55 by default; 50
 *      here, never killed. */
static void test_init_unplanned(void)
{
    eng_init_time t[] = {{.type = 1, .seconds = 30}, {.any = true, .seconds = 5}};
    eng_workload *w = typed();
    eng_platform *p = bl_uniform_platform(4, 1);
    eng_prepared prep;
    eng_diag d;
    eng_diag_clear(&d);
    eng_prep_opts o = eng_prep_defaults();
    o.init_times = t;
    o.n_init_times = 2;
    CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &o, &prep, &d), 0);
    CU_ASSERT_FALSE(prep.init_unplanned);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[0].estimate_s, 180, 0);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[0].kill_s, 180, 0);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[2].estimate_s, 55, 0);
    eng_prepared_fini(&prep);
    o.init_unplanned = true;
    CU_ASSERT_EQUAL_FATAL(eng_prep(w, p, &o, &prep, &d), 0);
    CU_ASSERT_TRUE(prep.init_unplanned);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[0].init_s, 30, 0);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[0].estimate_s, 150, 0);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[0].kill_s, 180, 0);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[1].estimate_s, 400, 0);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[1].kill_s, 430, 0);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[2].init_s, 5, 0);
    CU_ASSERT_DOUBLE_EQUAL(prep.jobs[2].estimate_s, 50, 0);
    CU_ASSERT_TRUE(isinf(prep.jobs[2].kill_s));
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
    CU_add_test(s, "memory: units raised, memory drops, field 7 unused", test_memory);
    CU_add_test(s, "memory keeps two jobs apart under core allocation", test_memory_apart);
    CU_add_test(s, "field 8 first, core allocation, extend", test_req_field_core_alloc_extend);
    CU_add_test(s, "queue limits: drops and the queue's time", test_queue_limits);
    CU_add_test(s, "pools by partition (field 16)", test_route_by_partition);
    CU_add_test(s, "initialization from a share, per type", test_init_share);
    CU_add_test(s, "realised initialization share", test_init_share_realised);
    CU_add_test(s, "initialization table", test_init_table);
    CU_add_test(s, "initialization not planned: estimate and kill limit", test_init_unplanned);
    CU_add_test(s, "unknown submit time dropped as no-submit", test_unknown_submit_dropped);
    CU_add_test(s, "repeated job number dropped as duplicate-id", test_duplicate_id_dropped);
    CU_add_test(s, "parts merged, repeats dropped, from a log", test_duplicate_id_from_log);
    return 0;
}
