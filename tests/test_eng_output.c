/* test_eng_output.c — the output files of a run: content of every file on
 * a hand-computed schedule, the same bytes twice, atomic writing. Runs go
 * through SimGrid in child processes. */
#include "bl_scenarios.h"
#include "bl_test.h"
#include "eng_output.h"
#include "eng_run.h"
#include "pol_registry.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* S1 plus a job too large for the 4 hosts, under EASY. */
static const bl_jobspec JOBS[] = {
    {1, 0, 10, 10, 2, 0},
    {2, 1, 5, 5, 4, 0},
    {3, 2, 8, 8, 2, 0},
    {4, 3, 1, 1, 9, 0},
};

/* The run's settings as the command line gives them (any keys). */
static const eng_setting SETTINGS[] = {
    {.key = "walltime", .kind = ENG_SETTING_STRING, .string = "kill"},
    {.key = "lenient", .kind = ENG_SETTING_BOOL, .boolean = true},
    {.key = "seed", .kind = ENG_SETTING_INT, .integer = 9007199254740993LL},
};

static int run_to(const char *dir, eng_diag *d)
{
    eng_workload *w = bl_make_workload(JOBS, N_OF(JOBS));
    eng_run_spec spec = {
        .platform_path = bl_src("platforms/test/tiny-4.xml"),
        .workload = w,
        .out_dir = dir,
        .sim = {.core = {.policy = pol_find("easy"), .check = true}},
        .manifest = {.command = "batchlab run (test)",
                     .policy = "easy",
                     .settings = SETTINGS,
                     .n_settings = N_OF(SETTINGS)},
    };
    eng_run_report rep;
    int rc = eng_run_isolated(&spec, &rep, d);
    if (rc == 0)
        eng_run_report_fini(&rep);
    eng_workload_destroy(w);
    return rc;
}

static char *file(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return bl_slurp(path, NULL);
}

static void test_contents(void)
{
    const char *dir = bl_tmpdir();
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(run_to(dir, &d), 0);
    char *jobs = file(dir, "jobs.csv");
    CU_ASSERT_PTR_NOT_NULL_FATAL(jobs);
    CU_ASSERT_STRING_EQUAL(
        jobs,
        "job_id,workload_name,profile,submission_time,requested_number_of_resources,"
        "requested_time,success,final_state,starting_time,execution_time,finish_time,"
        "waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,metadata,"
        "bounded_slowdown,procs,queue,pool,user,estimate_s,estimate_source,type,init_s,cost,"
        "packet,requeues\n"
        "1,scenario,swf,0,2,10,1,COMPLETED_SUCCESSFULLY,0,10,10,0,10,1,0-1,-1,,1,2,0,0,-1,10,"
        "requested_time,0,0,0,-1,0\n"
        "2,scenario,swf,1,4,5,1,COMPLETED_SUCCESSFULLY,10,5,15,9,14,2.8,0-3,-1,,1.4,4,0,0,-1,5,"
        "requested_time,0,0,0,-1,0\n"
        "3,scenario,swf,2,2,8,1,COMPLETED_SUCCESSFULLY,2,8,10,0,8,1,2-3,-1,,1,2,0,0,-1,8,"
        "requested_time,0,0,0,-1,0\n");
    char *dropped = file(dir, "dropped.csv");
    CU_ASSERT_STRING_EQUAL(dropped, "job_id,line,reason,explanation\n"
                                    "4,4,too-large,needs more resources than its pool has\n");
    char *ts = file(dir, "timeseries.csv");
    CU_ASSERT_STRING_EQUAL(ts, "time_s,queued_jobs,running_jobs,busy_nodes,busy_cores,"
                               "utilization,down_hosts\n"
                               "0,0,1,2,2,0.5,0\n"
                               "1,1,1,2,2,0.5,0\n"
                               "2,1,2,4,4,1,0\n"
                               "10,0,1,4,4,1,0\n"
                               "15,0,0,0,0,0,0\n");
    char *sum = file(dir, "summary.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
    CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\"simulated\": 3,"));
    CU_ASSERT_PTR_NOT_NULL(
        strstr(sum, "\"too-large\": 1,\n      \"no-submit\": 0,\n      \"duplicate-id\": 0\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\"wait_mean_s\": 3,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\"bounded_slowdown_mean\": 1.1333333333333333,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\"queue_length_mean\": 0.6,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\"simgrid_version\": \"3.32"));
    CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\"sha256\": \""));
    CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\"wall_time_s\": "));
    CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\"policy_wall_time_s\": "));
    CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\"policy_report\": \"\","));
    /* the settings, in their order and with their types, after the report */
    CU_ASSERT_PTR_NOT_NULL(strstr(sum,
                                  "\"policy_report\": \"\",\n    \"walltime\": \"kill\",\n"
                                  "    \"lenient\": true,\n    \"seed\": 9007199254740993,\n"));
    /* node allocation: no core layout (the host indices need none) */
    CU_ASSERT_PTR_NULL(strstr(sum, "host_cores"));
    /* a workload without UnixStartTime: no clock in the manifest */
    CU_ASSERT_PTR_NULL(strstr(sum, "unix_start_time"));
    CU_ASSERT_PTR_NULL(strstr(sum, "time_zone_string"));
    /* schedule.swf's note says what the engine ran: the options it was given */
    char *sched = file(dir, "schedule.swf");
    CU_ASSERT(bl_contains(sched, "policy easy, walltime kill, alloc node, processors from "
                                 "field 5 (else 8)"));
    free(sched);
    /* schedule.swf reads back with the simulated times */
    char path[1024];
    snprintf(path, sizeof path, "%s/schedule.swf", dir);
    eng_workload *w = NULL;
    CU_ASSERT_EQUAL_FATAL(eng_swf_read(path, NULL, &w, &d), 0);
    CU_ASSERT_EQUAL_FATAL(w->n_jobs, 3);
    CU_ASSERT_EQUAL(w->jobs[1].id, 2);
    CU_ASSERT_DOUBLE_EQUAL(w->jobs[1].wait_s, 9, 0);
    CU_ASSERT_DOUBLE_EQUAL(w->jobs[1].runtime_s, 5, 0);
    CU_ASSERT_EQUAL(w->jobs[1].procs_alloc, 4);
    CU_ASSERT_EQUAL(w->jobs[1].status, 1);
    CU_ASSERT_EQUAL(w->hdr.max_jobs, 3);
    eng_workload_destroy(w);
    /* no temporary file is left */
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "ls %s | grep -c tmp", dir);
    char *out = NULL;
    bl_system(cmd, &out);
    CU_ASSERT_STRING_EQUAL(out, "0\n");
    free(out);
    free(jobs);
    free(dropped);
    free(ts);
    free(sum);
}

/* The same run twice: identical bytes, except the run's wall time. */
/* The number of indices in a Batsim interval set ("0-2 5" is 4). */
static long count_indices(const char *set)
{
    long n = 0;
    while (*set) {
        char *end;
        long a = strtol(set, &end, 10), b = a;
        if (*end == '-')
            b = strtol(end + 1, &end, 10);
        n += b - a + 1;
        set = end;
        while (*set == ' ')
            set++;
    }
    return n;
}

/* Under --alloc core, allocated_resources names cores (host base + core,
 * hosts in name order) and counts what requested_number_of_resources
 * counts. Hosts: fast (cores 0-1), slow1 (2-3), slow2 (4-5). EASY:
 *  J1 (3 cores, t 0-100): fast 0-1 and slow1 2          -> 0-2
 *  J2 (2, t 0-50): slow1 3, slow2 4                     -> 3-4
 *  J3 (1, t 1-31): slow2 5                              -> 5
 *  J4 (4, t 100-180): J1 gone, J6 holds 3-4: 0, 1, 2, 5 -> 0-2 5
 *  J5 (1, t 31-51): J3 gone                             -> 5
 *  J6 (2, t 50-110): J2 gone                            -> 3-4
 *  J7 (6, t 180-190): everything                        -> 0-5
 *  J8 (1, t 51-91): J5 gone                             -> 5 */
static void test_core_indices(void)
{
    const char *swf = bl_write_tmp("core.swf", "; Version: 2.2\n"
                                               "1 0 -1 100 3 -1 -1 3 100 -1 1 1 1 -1 1 -1 -1 -1\n"
                                               "2 0 -1 50 2 -1 -1 2 50 -1 1 1 1 -1 1 -1 -1 -1\n"
                                               "3 1 -1 30 1 -1 -1 1 30 -1 1 1 1 -1 1 -1 -1 -1\n"
                                               "4 2 -1 80 4 -1 -1 4 80 -1 1 1 1 -1 1 -1 -1 -1\n"
                                               "5 3 -1 20 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n"
                                               "6 4 -1 60 2 -1 -1 2 60 -1 1 1 1 -1 1 -1 -1 -1\n"
                                               "7 5 -1 10 6 -1 -1 6 10 -1 1 1 1 -1 1 -1 -1 -1\n"
                                               "8 6 -1 40 1 -1 -1 1 40 -1 1 1 1 -1 1 -1 -1 -1\n");
    const char *dir = bl_tmpdir();
    char *out = NULL;
    int st = bl_run(&out,
                    "run --platform '%s' --workload '%s' --alloc core --policy easy --check -q "
                    "--out '%s/core'",
                    bl_src("platforms/test/mixed-speed.xml"), swf, dir);
    CU_ASSERT_EQUAL(st, 0);
    free(out);
    char sub[900];
    snprintf(sub, sizeof sub, "%s/core", dir);
    char *jobs = file(sub, "jobs.csv");
    CU_ASSERT_PTR_NOT_NULL_FATAL(jobs);
    static const char *const want[] = {"1 3 0-2", "2 2 3-4", "3 1 5",   "4 4 0-2 5",
                                       "5 1 5",   "6 2 3-4", "7 6 0-5", "8 1 5"};
    size_t row = 0;
    char *save = NULL;
    strtok_r(jobs, "\n", &save); /* the header */
    for (char *line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *col[16] = {0};
        size_t n = 0;
        for (char *p = line; n < 16; p++) {
            col[n++] = p;
            p = strchr(p, ',');
            if (!p)
                break;
            *p = '\0';
        }
        CU_ASSERT_FATAL(n == 16);
        char got[256];
        snprintf(got, sizeof got, "%s %s %s", col[0], col[4], col[14]);
        CU_ASSERT_FATAL(row < N_OF(want));
        if (strcmp(got, want[row]) != 0)
            printf("\n  row %zu: '%s', expected '%s'\n", row, got, want[row]);
        CU_ASSERT_STRING_EQUAL(got, want[row]);
        CU_ASSERT_EQUAL(count_indices(col[14]), strtol(col[4], NULL, 10));
        row++;
    }
    CU_ASSERT_EQUAL(row, N_OF(want));
    free(jobs);
    /* summary.json gives the layout the indices count along: 3 hosts of 2
     * cores in name order. */
    char *sum = file(sub, "summary.json");
    CU_ASSERT_TRUE(sum && bl_contains(sum, "\"host_cores\": [\n      {\n        \"hosts\": 3,\n"
                                           "        \"cores\": 2\n      }\n    ],\n"));
    free(sum);
}

/* The log's clock reaches the manifest: small.swf's header has
 * UnixStartTime 1464739965 and TimeZoneString Europe/Berlin, which the
 * workload's input entry carries (what `batchlab plot` reads dates by). */
static void test_manifest_clock(void)
{
    const char *dir = bl_tmpdir();
    char *out = NULL;
    int st = bl_run(&out,
                    "run --platform '%s' --workload '%s' --policy fcfs -q --outputs summary "
                    "--out '%s/clock'",
                    bl_src("platforms/kth-sp2.xml"), bl_src("traces/fixtures/small.swf"), dir);
    CU_ASSERT_EQUAL_FATAL(st, 0);
    free(out);
    char sub[900];
    snprintf(sub, sizeof sub, "%s/clock", dir);
    char *sum = file(sub, "summary.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
    const char *wl = strstr(sum, "\"workload\": {");
    CU_ASSERT_PTR_NOT_NULL_FATAL(wl);
    const char *end = strchr(wl, '}');
    CU_ASSERT_TRUE(end && bl_contains(wl, "\"unix_start_time\": 1464739965,\n") &&
                   strstr(wl, "\"unix_start_time\"") < end);
    CU_ASSERT_TRUE(end && bl_contains(wl, "\"time_zone_string\": \"Europe/Berlin\"\n") &&
                   strstr(wl, "\"time_zone_string\"") < end);
    free(sum);
}

static void test_same_bytes(void)
{
    const char *a = bl_tmpdir(), *b = bl_tmpdir();
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(run_to(a, &d), 0);
    CU_ASSERT_EQUAL_FATAL(run_to(b, &d), 0);
    static const char *const names[] = {"jobs.csv", "dropped.csv", "schedule.swf",
                                        "timeseries.csv"};
    for (size_t i = 0; i < 4; i++) {
        char *x = file(a, names[i]), *y = file(b, names[i]);
        CU_ASSERT_PTR_NOT_NULL(x);
        CU_ASSERT(x && y && strcmp(x, y) == 0);
        free(x);
        free(y);
    }
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "diff <(grep -v wall_time_s %s/summary.json) "
             "<(grep -v wall_time_s %s/summary.json) && echo same",
             a, b);
    char full[2200];
    snprintf(full, sizeof full, "bash -c '%s'", cmd);
    char *out = NULL;
    bl_system(full, &out);
    CU_ASSERT_STRING_EQUAL(out, "same\n");
    free(out);
}

/* An output folder that cannot be created: an error naming it, and no
 * partial files anywhere. */
static void test_unwritable(void)
{
    const char *base = bl_tmpdir();
    char blocker[800], dir[900];
    snprintf(blocker, sizeof blocker, "%s/file", base);
    FILE *f = fopen(blocker, "w");
    fputs("x", f);
    fclose(f);
    snprintf(dir, sizeof dir, "%s/out", blocker);
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(run_to(dir, &d), ENG_IO);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "cannot create directory"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, blocker));
    CU_ASSERT_EQUAL(access(dir, F_OK), -1);
    CU_ASSERT_STRING_EQUAL(eng_final_state_name(ENG_JOB_KILLED), "COMPLETED_WALLTIME_REACHED");
}

/* A job the log says was cancelled before it started (J2: status 5, run
 * time 0, logged wait 500) is replayed as a zero-length job on its
 * requested processors (field 8, field 5 being -1) and left out of
 * log_agreement, which counts it apart. On kth-sp2's 100 nodes every job
 * starts at its submit time: compared J1 (logged 10) and J3 (logged 20),
 * mean 15 logged, 0 simulated, mean difference 15; no rank correlation
 * (the simulated waits are all 0). */
static void test_cancelled_in_summary(void)
{
    const char *swf = bl_write_tmp("cancelled.swf",
                                   "; Version: 2.2\n"
                                   "1 0 10 100 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n"
                                   "2 5 500 0 -1 -1 -1 8 100 -1 5 1 1 -1 1 -1 -1 -1\n"
                                   "3 10 20 50 2 -1 -1 2 100 -1 1 1 1 -1 1 -1 -1 -1\n");
    const char *dir = bl_tmpdir();
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out,
                           "run --platform '%s' --workload '%s' --policy fcfs -q --out '%s/c'",
                           bl_src("platforms/kth-sp2.xml"), swf, dir),
                    0);
    CU_ASSERT(bl_contains(out, "log agreement      2 jobs with a logged wait"));
    CU_ASSERT(bl_contains(out, "1 job cancelled before it started left out"));
    free(out);
    char sub[900];
    snprintf(sub, sizeof sub, "%s/c", dir);
    char *sum = file(sub, "summary.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
    CU_ASSERT(bl_contains(sum, "\"log_agreement\": {\n"
                               "    \"jobs\": 2,\n"
                               "    \"cancelled_excluded\": 1,\n"
                               "    \"wait_mean_log\": 15,\n"
                               "    \"wait_mean_sim\": 0,\n"
                               "    \"wait_mae_s\": 15,\n"
                               "    \"wait_spearman\": null\n"));
    free(sum);
    /* the replay itself keeps it: a zero-length job on 8 nodes */
    char *jobs = file(sub, "jobs.csv");
    CU_ASSERT_PTR_NOT_NULL_FATAL(jobs);
    CU_ASSERT(bl_contains(jobs, "\n2,cancelled,swf,5,8,100,1,COMPLETED_SUCCESSFULLY,5,0,5,0,0,"));
    free(jobs);
}

int bl_suite_eng_output(void)
{
    CU_pSuite s = CU_add_suite("eng_output", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "every file's content on S1", test_contents);
    CU_add_test(s, "core indices under core allocation", test_core_indices);
    CU_add_test(s, "the log's clock in the manifest", test_manifest_clock);
    CU_add_test(s, "same run, same bytes", test_same_bytes);
    CU_add_test(s, "unwritable output folder", test_unwritable);
    CU_add_test(s, "log agreement leaves cancelled jobs out", test_cancelled_in_summary);
    return 0;
}
