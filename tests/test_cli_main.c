/* test_cli_main.c — the batchlab command as users call it: exit codes,
 * messages that name the file and line, and each command's output. */
#include "bl_proc.h"
#include "bl_test.h"
#include "pol_registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Runs "batchlab ARGS" in the source folder; returns the exit status and
 * leaves the output in *out (heap). */
static int bl(const char *args, char **out)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s", BL_SOURCE_DIR, bl_exe(), args);
    return bl_system(cmd, out);
}

/* Asserts the exit status and a fragment of the output. */
static void expect(const char *args, int status, const char *fragment)
{
    char *out = NULL;
    int st = bl(args, &out);
    CU_ASSERT_EQUAL(st, status);
    bool has = out && strstr(out, fragment);
    if (st != status || !has)
        printf("\n  batchlab %s -> %d:\n%s", args, st, out ? out : "");
    CU_ASSERT_TRUE(has);
    free(out);
}

#define RUN "run --platform platforms/test/tiny-4.xml "

static void test_help_and_usage(void)
{
    expect("--help", 0, "commands:");
    expect("", 2, "usage: batchlab COMMAND");
    expect("frobnicate", 2, "unknown command 'frobnicate'");
    expect("--version", 0, "batchlab ");
    expect("run --help", 0, "--walltime kill|extend");
    expect("compare --help", 0, "--policies LIST");
    expect("info --help", 0, "--workload FILE");
    expect("policies", 0, "conservative");
    expect("policies", 0, "option backfill_order");
}

static void test_usage_errors(void)
{
    expect("run --workload traces/fixtures/small.swf --policy easy", 2,
           "--platform and --workload are required");
    expect(RUN "--workload traces/fixtures/small.swf", 2, "--policy is required");
    expect(RUN "--workload traces/fixtures/small.swf --policy sjf", 2,
           "unknown policy 'sjf' (valid: alp, amp, batsim, conservative");
    expect(RUN "--workload traces/fixtures/small.swf --policy easy --policy-opt depth=2", 2,
           "unknown option 'depth' for policy easy (accepted: backfill_order predictor)");
    expect(RUN "--workload traces/fixtures/small.swf --policy easy --policy-opt depth", 2,
           "expected key=value");
    expect(RUN "--workload traces/fixtures/small.swf --policy easy --walltime never", 2,
           "--walltime: expected kill or extend, got 'never'");
    expect(RUN "--workload traces/fixtures/small.swf --policy easy --alloc socket", 2,
           "--alloc: expected node or core, got 'socket'");
    expect(RUN "--workload traces/fixtures/small.swf --policy easy --seed -3", 2,
           "--seed: expected a non-negative integer");
    expect(RUN "--workload traces/fixtures/small.swf --policy easy --bogus", 2,
           "unknown option '--bogus'");
    /* option values out of range are usage errors too, before the run */
    expect(RUN "--workload traces/fixtures/small.swf --policy packet:max_members=1e30", 2,
           "policy packet: option max_members: expected a non-negative integer (at most "
           "2147483647), got '1e30'");
    expect(RUN "--workload traces/fixtures/small.swf --policy packet --policy-opt horizon=inf", 2,
           "option horizon: expected a number >= 1, got 'inf'");
    expect(RUN "--workload traces/fixtures/small.swf --policy easy:backfill_order=lifo", 2,
           "option backfill_order: expected queue or sjf, got 'lifo'");
    /* every subcommand refuses what it does not know; no empty names */
    expect("policies --bogus", 2, "unknown option '--bogus'");
    expect("policies extra", 2, "unknown policy 'extra' (valid: alp, amp, batsim, conservative");
    expect("policies easy slurm", 2, "unexpected argument 'slurm'");
    expect("--version x", 2, "--version: unexpected argument 'x'");
    expect("compare --platform platforms/kth-sp2.xml --workload traces/fixtures/small.swf "
           "--policies easy,,fcfs",
           2, "got an empty name in 'easy,,fcfs'");
    expect("compare --platform platforms/kth-sp2.xml --workload traces/fixtures/small.swf "
           "--policies easy,",
           2, "got an empty name in 'easy,'");
}

/* A run where every job is dropped has no metrics to show: n/a, not 0. */
static void test_all_dropped(void)
{
    const char *w = bl_write_tmp("alldrop.swf", "1 0 0 -1 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
                                                "2 5 0 -1 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n");
    char args[1200];
    snprintf(args, sizeof args, RUN "--workload %s --policy easy", w);
    expect(args, 0, "wait, slowdown     n/a: no job was simulated (every job was dropped)");
    char *out = NULL;
    bl_run(&out, "%s", args);
    CU_ASSERT_PTR_NULL(out ? strstr(out, "slowdown           mean") : "");
    free(out);
}

static void test_bad_input(void)
{
    expect(RUN "--workload /no/such.swf --policy easy", 1, "/no/such.swf: cannot open");
    expect("run --platform /no/such.xml --workload traces/fixtures/small.swf --policy easy", 1,
           "/no/such.xml: cannot open platform file: No such file or directory");
    const char *bad = bl_write_tmp("bad.swf", "; Version: 2.2\n"
                                              "1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n"
                                              "2 5 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1\n"
                                              "3 9 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n");
    char args[1024], want[900];
    snprintf(args, sizeof args, RUN "--workload %s --policy easy", bad);
    snprintf(want, sizeof want, "%s:3: expected 18 fields, found 17", bad);
    expect(args, 1, want);
    snprintf(args, sizeof args, RUN "--workload %s --policy easy --lenient", bad);
    expect(args, 0, "skipped 1 malformed line (--lenient)");
    expect(args, 0, "2 read, 2 simulated");
    const char *junk = bl_write_tmp("junk.xml", "\x7f"
                                                "ELF garbage\n");
    snprintf(args, sizeof args,
             "run --platform %s --workload traces/fixtures/small.swf --policy easy", junk);
    expect(args, 1, "SimGrid stopped: ");
}

static void test_run_and_outputs(void)
{
    const char *dir = bl_tmpdir();
    char args[1024];
    snprintf(args, sizeof args,
             "run --platform platforms/kth-sp2.xml --workload traces/fixtures/small.swf "
             "--policy easy:backfill_order=sjf --out %s/o --check -q",
             dir);
    expect(args, 0, "batchlab run: easy:backfill_order=sjf on platforms/kth-sp2.xml (100 hosts");
    char path[900];
    static const char *const names[] = {"jobs.csv", "dropped.csv", "schedule.swf", "summary.json",
                                        "timeseries.csv"};
    for (size_t i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "%s/o/%s", dir, names[i]);
        CU_ASSERT_EQUAL(access(path, R_OK), 0);
    }
    snprintf(path, sizeof path, "%s/o/summary.json", dir);
    char *sum = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL(
        sum && strstr(sum, "\"policy_options\": {\n      \"backfill_order\": \"sjf\"\n    }"));
    CU_ASSERT_PTR_NOT_NULL(sum && strstr(sum, "\"check\": true"));
    free(sum);
    /* only the files asked for */
    snprintf(args, sizeof args,
             "run --platform platforms/kth-sp2.xml --workload traces/fixtures/small.swf "
             "--policy fcfs --out %s/only --outputs summary,timeseries -q",
             dir);
    expect(args, 0, "only/{summary.json,timeseries.csv}");
    snprintf(path, sizeof path, "%s/only/jobs.csv", dir);
    CU_ASSERT_EQUAL(access(path, F_OK), -1);
    snprintf(path, sizeof path, "%s/only/summary.json", dir);
    CU_ASSERT_EQUAL(access(path, R_OK), 0);
    expect("run --platform platforms/kth-sp2.xml --workload traces/fixtures/small.swf "
           "--policy fcfs --out /tmp/x --outputs everything",
           2, "--outputs: expected names among");
    /* an output folder under a file: error, nothing written */
    snprintf(args, sizeof args,
             "run --platform platforms/kth-sp2.xml --workload traces/fixtures/small.swf "
             "--policy easy --out %s/o/jobs.csv/x",
             dir);
    expect(args, 1, "cannot create directory");
}

/* Job numbers are unique in jobs.csv (evalys and Batsim's tools key on
 * them): a repeated one is dropped as duplicate-id, its first line kept.
 * The fuzz finding reads, with --lenient, job 8 on lines 24 and 28 (line
 * 26, a cut copy, is skipped), job 15 without run time and job 0 without
 * submit time; jobs.csv gets 2, 8, 21 and 14 once each. Without
 * --lenient a repeat is dropped the same way. */
static void test_duplicate_ids(void)
{
    const char *dir = bl_tmpdir();
    char args[1400], path[1000];
    snprintf(args, sizeof args,
             "run --platform platforms/kth-sp2.xml --workload "
             "tests/fuzz/regressions/swf/crash-7f3015bbc557704381d56ecc00c90dae1c973013 "
             "--lenient --policy fcfs --out %s/dup -q",
             dir);
    expect(args, 0, "dropped            3 (1 no-runtime, 1 no-submit, 1 duplicate-id)");
    snprintf(path, sizeof path, "%s/dup/jobs.csv", dir);
    char *jobs = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(jobs);
    static const char *const ids[] = {"\n2,", "\n8,", "\n21,", "\n14,"};
    size_t rows = 0;
    for (const char *p = strchr(jobs, '\n'); p && p[1]; p = strchr(p + 1, '\n'))
        rows++;
    CU_ASSERT_EQUAL(rows, 4);
    for (size_t i = 0; i < 4; i++) {
        const char *at = strstr(jobs, ids[i]);
        CU_ASSERT_TRUE(at && !strstr(at + 1, ids[i]));
    }
    free(jobs);
    snprintf(path, sizeof path, "%s/dup/dropped.csv", dir);
    char *dropped = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(bl_contains(dropped ? dropped : "",
                               "job_id,line,reason,explanation\n"
                               "8,28,duplicate-id,job number already used by an earlier line "
                               "(field 1)\n"
                               "15,22,no-runtime,run time unknown (field 4 is -1)\n"
                               "0,27,no-submit,submit time unknown (field 2 is -1)\n"));
    free(dropped);
    const char *w = bl_write_tmp("dup.swf", "1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
                                            "1 5 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n");
    snprintf(args, sizeof args, RUN "--workload %s --policy easy", w);
    expect(args, 0, "dropped            1 (1 duplicate-id)");
}

/* BATCHLAB_SA_BACKEND is read by the command line only and passed down as
 * the backend option of the policy that has one: the manifest records it,
 * a bad value is a usage error naming the variable, and a policy without
 * the option ignores it. */
static void test_sa_backend_env(void)
{
    const char *dir = bl_tmpdir();
    const char *saved = getenv("BATCHLAB_SA_BACKEND");
    char *keep = saved ? strdup(saved) : NULL;
    char args[1024], path[900];
    setenv("BATCHLAB_SA_BACKEND", "cpu", 1);
    snprintf(args, sizeof args,
             "run --platform platforms/kth-sp2.xml --workload traces/fixtures/small.swf "
             "--policy sa:backend=cuda:iterations=50 --out %s/sa_env -q",
             dir);
    expect(args, 0, "");
    snprintf(path, sizeof path, "%s/sa_env/summary.json", dir);
    char *sum = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL(sum && strstr(sum, "\"backend\": \"cpu\""));
    CU_ASSERT_PTR_NOT_NULL(sum && strstr(sum, "backend=cpu refinements="));
    free(sum);
    setenv("BATCHLAB_SA_BACKEND", "quantum", 1);
    expect("run --platform platforms/kth-sp2.xml --workload traces/fixtures/small.swf "
           "--policy sa -q",
           2, "BATCHLAB_SA_BACKEND 'quantum': expected auto, cpu or cuda");
    expect("run --platform platforms/kth-sp2.xml --workload traces/fixtures/small.swf "
           "--policy easy -q",
           0, "");
    if (keep)
        setenv("BATCHLAB_SA_BACKEND", keep, 1);
    else
        unsetenv("BATCHLAB_SA_BACKEND");
    free(keep);
}

static void test_compare_and_info(void)
{
    expect("compare --platform platforms/kth-sp2.xml --workload traces/fixtures/small.swf -q", 0,
           "mean bounded slowdown");
    expect("compare --platform platforms/kth-sp2.xml --workload traces/fixtures/small.swf -q "
           "--policies easy,easy:backfill_order=sjf",
           0, "easy:backfill_order=sjf");
    expect("compare --platform platforms/kth-sp2.xml --workload traces/fixtures/small.swf -q "
           "--policies easy,nope",
           2, "unknown policy 'nope'");
    const char *dir = bl_tmpdir();
    char args[1024], path[900];
    snprintf(args, sizeof args,
             "compare --platform platforms/kth-sp2.xml --workload traces/fixtures/small.swf -q "
             "--policies fcfs,easy:backfill_order=sjf --out %s",
             dir);
    expect(args, 0, "fcfs");
    snprintf(path, sizeof path, "%s/easy+backfill_order=sjf/jobs.csv", dir);
    CU_ASSERT_EQUAL(access(path, R_OK), 0);
    snprintf(path, sizeof path, "%s/fcfs/summary.json", dir);
    CU_ASSERT_EQUAL(access(path, R_OK), 0);
    expect("info --workload traces/fixtures/small.swf", 0, "jobs               16");
    expect("info --workload traces/fixtures/small.swf", 0, "requested time");
    expect("info", 2, "--workload is required");
}

/* compare runs each policy spec once: a spec given twice (the same options
 * in any order) is a usage error, and so are two specs whose output
 * folders would have the same name; distinct specs keep distinct folders. */
static void test_compare_distinct_specs(void)
{
    const char *dir = bl_tmpdir();
    char args[4000], path[1200], out[900];
    const char *head = "compare --platform platforms/kth-sp2.xml --workload "
                       "traces/fixtures/small.swf -q";
    snprintf(out, sizeof out, "%s/twice", dir);
    snprintf(args, sizeof args, "%s --policies easy,easy --out %s", head, out);
    expect(args, 2,
           "batchlab compare: --policies: 'easy' is given twice (policy easy with the same "
           "options); give each policy spec once");
    CU_ASSERT_NOT_EQUAL(access(out, F_OK), 0); /* nothing written */
    snprintf(args, sizeof args, "%s --policies easy,easy", head);
    expect(args, 2, "'easy' is given twice");
    snprintf(args, sizeof args,
             "%s --policies fcfs,easy:backfill_order=sjf:predictor=user2,"
             "easy:predictor=user2:backfill_order=sjf --out %s",
             head, out);
    expect(args, 2,
           "'easy:backfill_order=sjf:predictor=user2' and "
           "'easy:predictor=user2:backfill_order=sjf' are the same (policy easy with the same "
           "options)");
    CU_ASSERT_NOT_EQUAL(access(out, F_OK), 0);
    /* two distinct specs whose folder names collide (' ' and '/' become '_') */
    char a[800], b[800];
    snprintf(a, sizeof a, "%s/x y", dir);
    snprintf(b, sizeof b, "%s/x_y", dir);
    FILE *f = fopen(a, "w"), *g = fopen(b, "w");
    CU_ASSERT_FATAL(f && g);
    fputs("1 1\n", f);
    fputs("1 1\n", g);
    fclose(f);
    fclose(g);
    snprintf(args, sizeof args, "%s --policies 'slurm:shares=%s,slurm:shares=%s' --out %s", head, a,
             b, out);
    expect(args, 2, "would both write their outputs into the folder");
    CU_ASSERT_NOT_EQUAL(access(out, F_OK), 0);
    /* without --out they are two columns, and run */
    snprintf(args, sizeof args, "%s --policies 'slurm:shares=%s,slurm:shares=%s'", head, a, b);
    expect(args, 0, "mean bounded slowdown");
    /* distinct specs, distinct folders */
    snprintf(args, sizeof args, "%s --policies easy,easy:backfill_order=sjf --out %s", head, out);
    expect(args, 0, "easy:backfill_order=sjf");
    snprintf(path, sizeof path, "%s/easy/summary.json", out);
    CU_ASSERT_EQUAL(access(path, R_OK), 0);
    snprintf(path, sizeof path, "%s/easy+backfill_order=sjf/summary.json", out);
    CU_ASSERT_EQUAL(access(path, R_OK), 0);
}

static void test_machines_and_initialization(void)
{
    expect("info --workload traces/fixtures/small.swf --platform platforms/kth-sp2.xml", 0,
           "on platforms/kth-sp2.xml (100 hosts, 1 pool): 13 jobs simulated; dropped 3");
    expect("info --workload traces/fixtures/small.swf --platform platforms/kth-sp2.xml", 0,
           "computed load ");
    expect("info --workload traces/fixtures/small.swf --nodes 64", 0, "on 64 nodes of 1 core");
    expect("info --workload traces/fixtures/small.swf --nodes 64 --platform platforms/kth-sp2.xml",
           2, "not both");
    const char *dir = bl_tmpdir();
    char args[1024];
    snprintf(args, sizeof args,
             "scale --workload traces/fixtures/small.swf --platform platforms/kth-sp2.xml "
             "--load 0.5 -o %s/s.swf",
             dir);
    expect(args, 0, "computed load 0.5000");
    snprintf(args, sizeof args,
             "scale --workload traces/fixtures/small.swf --platform platforms/forhlr2.xml "
             "--load 0.5 -o %s/s.swf",
             dir);
    expect(args, 1, "its pools differ in cores per node");
    expect(RUN "--workload traces/fixtures/small.swf --policy easy --init-share 0.1", 0,
           "initialization     share 0.1: share 0.1000 of run time");
    expect(RUN "--workload traces/fixtures/small.swf --policy easy --init-share 1.5", 2,
           "--init-share: expected a value in [0, 1)");
    const char *table = bl_write_tmp("types.txt", "* 60\n");
    snprintf(args, sizeof args,
             RUN "--workload traces/fixtures/small.swf --policy fcfs "
                 "--init-times %s --type-field app",
             table);
    expect(args, 0, "initialization     table");
    snprintf(args, sizeof args,
             RUN "--workload traces/fixtures/small.swf --policy fcfs "
                 "--init-times %s --init-share 0.1",
             table);
    expect(args, 2, "not both");
    expect(RUN "--workload traces/fixtures/small.swf --policy fcfs --init-times /no/t.txt", 1,
           "/no/t.txt: cannot open");
    /* --init-planned no: the label says so; a bad value and a policy that
     * keeps plans across calls are usage errors, and nothing is written */
    expect(RUN "--workload traces/fixtures/small.swf --policy easy --init-share 0.1 "
               "--init-planned no",
           0, "initialization     share 0.1, not planned: share 0.1000 of run time");
    expect(RUN "--workload traces/fixtures/small.swf --policy easy --init-planned maybe", 2,
           "--init-planned: expected yes or no, got 'maybe'");
    snprintf(args, sizeof args,
             RUN "--workload traces/fixtures/small.swf --policy conservative --init-share 0.1 "
                 "--init-planned no -q --out %s/refused",
             dir);
    expect(args, 2,
           "policy conservative keeps plans across scheduling calls that a job outliving its "
           "estimate would break");
    snprintf(args, sizeof args, "%s/refused", dir);
    CU_ASSERT_NOT_EQUAL(access(args, F_OK), 0);
    expect("policies", 0,
           "easy           EASY backfilling: a reservation for the queue head, later jobs "
           "backfill\n               (Lifka 1995; Mu'alem & Feitelson 2001)\n"
           "                 plans with islands (--islands strict)\n"
           "                 re-plans at every call (runs with --init-planned no)\n");
}

/* The bad-input catalogue: each case exits non-zero with a message naming
 * the file (and line, where there is one) and leaves no output behind. */
static void test_bad_input_catalogue(void)
{
    const char *dir = bl_tmpdir();
    struct {
        const char *name, *content, *message;
        int status;
    } swf[] = {
        {"empty.swf", "", "empty.swf: expected SWF job lines, found none", 1},
        {"comments.swf", "; Version: 2.2\n; MaxProcs: 4\n", "comments.swf: expected SWF job lines",
         1},
        {"junk.swf",
         "\x7f"
         "ELF\x02\x01\x01\x00\x00\x00",
         "junk.swf:1:", 1},
        {"missing.swf", "1 0 -1 10 2 -1 -1 2 20 -1 1\n",
         "missing.swf:1: expected 18 fields, found 11", 1},
        {"text.swf", "1 0 -1 ten 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n",
         "text.swf:1: field 4 (run time): expected a number, got 'ten'", 1},
        {"negative.swf", "1 0 -1 10 -2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n",
         "negative.swf:1: field 5 (allocated processors): expected a value >= 0 or -1", 1},
        {"huge.swf", "1 0 -1 10 99999999999 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n",
         "huge.swf:1: field 5", 1},
        {"crlf.swf", "1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\r\n", "1 read, 1 simulated", 0},
        {"unsorted.swf",
         "1 50 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n2 5 -1 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n",
         "unsorted.swf: 1 job was out of submit order", 0},
        {"large.swf",
         "1 0 -1 10 64 -1 -1 64 20 -1 1 1 1 -1 1 -1 -1 -1\n2 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n",
         "dropped            1 (1 too-large)", 0},
    };
    for (size_t i = 0; i < sizeof swf / sizeof swf[0]; i++) {
        const char *path = bl_write_tmp(swf[i].name, swf[i].content);
        char args[2048], out[900];
        snprintf(out, sizeof out, "%s/out-%zu", dir, i);
        snprintf(args, sizeof args, RUN "--workload %s --policy easy -q --out %s", path, out);
        expect(args, swf[i].status, swf[i].message);
        if (swf[i].status)
            CU_ASSERT_EQUAL(access(out, F_OK), -1);
    }
    /* a truncated gzip */
    char gz[900], args[2048], out[900];
    snprintf(gz, sizeof gz, "%s/cut.swf.gz", dir);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd '%s' && gzip -c traces/fixtures/small.swf | head -c 300 > '%s'",
             BL_SOURCE_DIR, gz);
    CU_ASSERT_EQUAL(bl_system(cmd, NULL), 0);
    snprintf(out, sizeof out, "%s/out-gz", dir);
    snprintf(args, sizeof args, RUN "--workload %s --policy easy -q --out %s", gz, out);
    expect(args, 1, "cut.swf.gz");
    CU_ASSERT_EQUAL(access(out, F_OK), -1);
    /* an empty platform file */
    const char *empty = bl_write_tmp("empty.xml", "");
    snprintf(out, sizeof out, "%s/out-xml", dir);
    snprintf(args, sizeof args,
             "run --platform %s --workload traces/fixtures/small.swf --policy easy -q --out %s",
             empty, out);
    expect(args, 1, "empty.xml");
    CU_ASSERT_EQUAL(access(out, F_OK), -1);
}

/* Idle shutdown and the power cap: the options reach the run; bad values,
 * a companion option without --suspend-time, a cap without power values
 * and the combinations not supported yet (idle shutdown with failures;
 * the cap with idle shutdown, failures or two pools) are usage errors
 * (exit 2) naming them. */
static void test_idle_shutdown(void)
{
    expect(RUN "--workload traces/fixtures/small.swf --policy conservative -q --check "
               "--suspend-time 60 --resume-timeout 90 --suspend-exc-nodes n[1-2]",
           0, "jobs ");
    expect(RUN "--workload traces/fixtures/small.swf --policy easy --suspend-time 60 "
               "--resume-timeout -5",
           2, "--resume-timeout: expected a duration in [0, 1e9] seconds, got '-5'");
    expect(RUN "--workload traces/fixtures/small.swf --policy easy --suspend-time -1", 2,
           "--suspend-time: expected a duration in [0, 1e12] seconds, got '-1'");
    expect(RUN "--workload traces/fixtures/small.swf --policy easy --suspend-rate 3", 2,
           "--suspend-rate needs --suspend-time");
    expect(RUN "--workload traces/fixtures/small.swf --policy easy --suspend-time 60 "
               "--suspend-exc-nodes n[3-5]",
           2, "--suspend-exc-nodes 'n[3-5]': host 'n5' is not in platform");
    expect(RUN "--workload traces/fixtures/small.swf --policy easy --suspend-time 60 --alloc core",
           2, "idle shutdown runs under --alloc node only");
    expect(RUN "--workload traces/fixtures/small.swf --policy easy --power-cap 1000", 2,
           "--power-cap needs power values in the platform");
    expect(RUN "--workload traces/fixtures/small.swf --policy easy --power-cap 0", 2,
           "--power-cap: expected watts in (0, 1e15], got '0'");

    /* the combinations not supported yet: refused before any output */
    const char *trace = bl_write_tmp("down-idle.txt", "# host down up\nn1 100 2000\n");
    char args[2048];
    snprintf(args, sizeof args,
             RUN "--workload traces/fixtures/small.swf --policy easy --suspend-time 60 "
                 "--failure-trace %s",
             trace);
    expect(args, 2,
           "idle shutdown (--suspend-time) and host failures (--failures, --failure-trace) do not "
           "combine yet");
    expect("run --platform platforms/test/power-3x4.xml --workload traces/fixtures/small.swf "
           "--policy easy --power-cap 1000 --suspend-time 60",
           2, "--power-cap needs no idle shutdown (--suspend-time does not combine with it yet)");
    snprintf(args, sizeof args,
             "run --platform platforms/test/power-3x4.xml --workload traces/fixtures/small.swf "
             "--policy easy --power-cap 1000 --failure-trace %s",
             trace);
    expect(args, 2,
           "--power-cap needs no host failures (--failures, --failure-trace do not combine with "
           "it yet)");
    const char *pools = bl_write_tmp(
        "power-pools.xml",
        "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">\n"
        "<zone id=\"a\" routing=\"Full\"><prop id=\"queues\" value=\"1\"/>\n"
        "<host id=\"a1\" speed=\"1Gf\"><prop id=\"wattage_per_state\" value=\"90:100:150\"/>"
        "<prop id=\"wattage_off\" value=\"10\"/></host></zone>\n"
        "<zone id=\"b\" routing=\"Full\"><prop id=\"queues\" value=\"2\"/>\n"
        "<host id=\"b1\" speed=\"1Gf\"><prop id=\"wattage_per_state\" value=\"90:100:150\"/>"
        "<prop id=\"wattage_off\" value=\"10\"/></host></zone>\n"
        "</zone></platform>\n");
    snprintf(
        args, sizeof args,
        "run --platform %s --workload traces/fixtures/small.swf --policy easy --power-cap 1000",
        pools);
    expect(args, 2,
           "--power-cap needs a platform of one pool (two or more pools do not combine with it "
           "yet)");
}

/* Host failures from a trace: n1 fails from 100 s under job 2 (2 nodes
 * from 47 s); killed, or requeued; a bad trace stops the run before any
 * output. */
static void test_failures(void)
{
    const char *dir = bl_tmpdir();
    const char *trace = bl_write_tmp("down.txt", "# host down up\nn1 100 2000\n");
    char args[2048], out[900];
    snprintf(args, sizeof args,
             RUN "--workload traces/fixtures/small.swf --policy easy -q "
                 "--failure-trace %s",
             trace);
    expect(args, 0, "1 cut by a host failure");
    expect(args, 0, "1 outage), kill");
    expect(args, 0, "1 job failed, 0 requeued, 106 node-seconds wasted");
    snprintf(args, sizeof args,
             RUN "--workload traces/fixtures/small.swf --policy easy -q "
                 "--failure-trace %s --on-failure requeue",
             trace);
    expect(args, 0, "requeue up to 5 times: 0 jobs failed, 1 requeued");
    expect(RUN "--workload traces/fixtures/small.swf --policy easy --failures sometimes", 2,
           "--failures: expected none or model, got 'sometimes'");
    expect(RUN "--workload traces/fixtures/small.swf --policy easy --failure-epoch 0", 2,
           "--failure-epoch: expected a positive duration");
    snprintf(args, sizeof args,
             RUN "--workload traces/fixtures/small.swf --policy easy "
                 "--failures model --failure-trace %s",
             trace);
    expect(args, 2, "give --failures model or --failure-trace, not both");
    const char *bad = bl_write_tmp("bad-down.txt", "n1 100 2000\nn2 50\n");
    snprintf(out, sizeof out, "%s/out-ftrace", dir);
    snprintf(args, sizeof args,
             RUN "--workload traces/fixtures/small.swf --policy easy -q "
                 "--failure-trace %s --out %s",
             bad, out);
    expect(args, 1, "bad-down.txt:2: expected 'HOST DOWN_AT UP_AT'");
    CU_ASSERT_EQUAL(access(out, F_OK), -1);
    const char *alien = bl_write_tmp("alien-down.txt", "n1 100 2000\n\nn7 5 10\n");
    snprintf(args, sizeof args,
             RUN "--workload traces/fixtures/small.swf --policy easy -q "
                 "--failure-trace %s --out %s",
             alien, out);
    expect(args, 1, "alien-down.txt:3: host 'n7' is not in platform platforms/test/tiny-4.xml");
    CU_ASSERT_EQUAL(access(out, F_OK), -1);
    /* the model on a platform with unreliable hosts: same seed, same bytes */
    expect("run --platform platforms/hetero-64-avail.xml --workload traces/fixtures/small.swf "
           "--policy easy -q --failures model --failure-epoch 600",
           0, "host failures      model, epoch 600 s, kill:");
}

/* Islands: the platform's island property read through SimGrid's loader
 * (on a zone and on hosts), placement within one island, --islands, sa,
 * alp and amp under strict, alp's refusal under core allocation, a
 * malformed property. */
static void test_islands(void)
{
    const char *w = bl_write_tmp("isl.swf", "1 0 -1 10 2 -1 -1 2 10 -1 1 1 1 -1 1 -1 -1 -1\n"
                                            "2 0 -1 10 3 -1 -1 3 10 -1 1 1 1 -1 1 -1 -1 -1\n"
                                            "3 1 -1 10 3 -1 -1 3 10 -1 1 1 1 -1 1 -1 -1 -1\n");
    const char *dir = bl_tmpdir();
    char args[2048], path[1024];
    /* J1 (2 nodes) best fits island b, J2 (3) island a; J3 (3) waits for
     * an island with 3 free nodes: a, at 10 */
    snprintf(args, sizeof args,
             "run --platform platforms/test/islands-3-2.xml --workload %s --policy easy -q "
             "--out %s/isl",
             w, dir);
    expect(args, 0, "wait (s)           mean 3.0");
    snprintf(path, sizeof path, "%s/isl/jobs.csv", dir);
    char *jobs = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(jobs);
    CU_ASSERT_PTR_NOT_NULL(strstr(jobs, "\n1,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(jobs, ",3-4,")); /* J1 on b1-b2 */
    CU_ASSERT_PTR_NOT_NULL(strstr(jobs, ",0-2,")); /* J2, then J3, on a1-a3 */
    free(jobs);
    snprintf(path, sizeof path, "%s/isl/summary.json", dir);
    char *sum = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
    CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\"islands\": [\n"
                                       "          {\n"
                                       "            \"name\": \"a\",\n"
                                       "            \"hosts\": 3\n"
                                       "          },\n"
                                       "          {\n"
                                       "            \"name\": \"b\",\n"
                                       "            \"hosts\": 2\n"
                                       "          }\n"
                                       "        ]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\"islands\": \"strict\""));
    CU_ASSERT_PTR_NULL(strstr(sum, "log_agreement")); /* field 3 is -1 */
    free(sum);
    /* `policies` says which policies plan with islands (every registered
     * one does; the engine's refusal of one that does not is tested in
     * test_eng_core.c); sa and alp run under strict and under ignore;
     * under --alloc core alp asks for --islands ignore */
    expect("policies", 0,
           "conservative   conservative backfilling: every waiting job holds a "
           "reservation\n               (Mu'alem & Feitelson 2001)\n"
           "                 plans with islands (--islands strict)\n");
    snprintf(args, sizeof args,
             "run --platform platforms/test/islands-3-2.xml --workload %s --policy sa -q --check",
             w);
    expect(args, 0, "batchlab run: sa");
    snprintf(args, sizeof args,
             "compare --platform platforms/test/islands-3-2.xml --workload %s -q "
             "--policies easy,sa,alp,amp",
             w);
    expect(args, 0, "alp");
    snprintf(args, sizeof args,
             "run --platform platforms/test/islands-3-2.xml --workload %s --policy alp -q "
             "--alloc core",
             w);
    expect(args, 2,
           "alp plans with islands under whole-node allocation only; with --alloc core run it "
           "with --islands ignore");
    snprintf(args, sizeof args,
             "run --platform platforms/test/islands-3-2.xml --workload %s --policy sa -q "
             "--islands ignore",
             w);
    expect(args, 0, "batchlab run: sa");
    snprintf(args, sizeof args,
             "run --platform platforms/test/islands-3-2.xml --workload %s --policy easy -q "
             "--islands sideways",
             w);
    expect(args, 2, "--islands: expected strict or ignore, got 'sideways'");
    /* a malformed island property: bad input, nothing written */
    const char *bad = bl_write_tmp("bad-island.xml",
                                   "<?xml version='1.0'?>\n"
                                   "<!DOCTYPE platform SYSTEM "
                                   "\"https://simgrid.org/simgrid.dtd\">\n"
                                   "<platform version=\"4.1\">\n"
                                   "  <zone id=\"z\" routing=\"Full\">\n"
                                   "    <host id=\"n1\" speed=\"1Gf\">\n"
                                   "      <prop id=\"island\" value=\"east wing\"/>\n"
                                   "    </host>\n"
                                   "  </zone>\n"
                                   "</platform>\n");
    char msg[1024];
    snprintf(msg, sizeof msg,
             "%s: host n1: property island: expected a name of 1 to 63 letters, digits, '-', "
             "'_' or '.', got 'east wing'",
             bad);
    snprintf(args, sizeof args, "run --platform %s --workload %s --policy easy -q --out %s/bad",
             bad, w, dir);
    expect(args, 1, msg);
    snprintf(path, sizeof path, "%s/bad", dir);
    CU_ASSERT_EQUAL(access(path, F_OK), -1);
}

/* A folder given where a file is expected: every command that takes the
 * file says "DIR: is a directory" and exits 1 (never SimGrid's "input in
 * flex scanner failed"), and writes nothing. */
static void expect_dir(const char *args, int status, const char *dir)
{
    char want[800];
    snprintf(want, sizeof want, "%s: is a directory", dir);
    expect(args, status, want);
    char *out = NULL;
    bl(args, &out);
    CU_ASSERT_PTR_NULL(out ? strstr(out, "flex scanner") : NULL);
    CU_ASSERT_PTR_NULL(out ? strstr(out, "without a report") : NULL);
    free(out);
}

static void test_directory_for_a_file(void)
{
    const char *d = bl_tmpdir(), *out = bl_tmpdir();
    char args[2400], path[900];
    const char *wl = "--workload traces/fixtures/small.swf";
    /* --platform, in every command that takes one */
    snprintf(args, sizeof args, "run --platform %s %s --policy easy -q", d, wl);
    expect_dir(args, 1, d);
    snprintf(args, sizeof args, "compare --platform %s %s -q --policies fcfs,easy", d, wl);
    expect_dir(args, 1, d);
    snprintf(args, sizeof args, "info --platform %s %s", d, wl);
    expect_dir(args, 1, d);
    snprintf(args, sizeof args, "scale --platform %s %s --load 0.5 -o %s/scaled.swf", d, wl, out);
    expect_dir(args, 1, d);
    snprintf(args, sizeof args, "sweep task --out %s/task --platform %s %s --policy easy --seed 1",
             out, d, wl);
    expect_dir(args, 1, d);
    /* --workload */
    snprintf(args, sizeof args, RUN "--workload %s --policy easy -q", d);
    expect_dir(args, 1, d);
    snprintf(args, sizeof args,
             "compare --platform platforms/test/tiny-4.xml --workload %s -q --policies fcfs", d);
    expect_dir(args, 1, d);
    snprintf(args, sizeof args, "info --workload %s", d);
    expect_dir(args, 1, d);
    snprintf(args, sizeof args, "scale --workload %s --nodes 4 --load 0.5 -o %s/scaled.swf", d,
             out);
    expect_dir(args, 1, d);
    snprintf(args, sizeof args, "fit --workload %s", d);
    expect_dir(args, 1, d);
    /* the other files a run reads */
    snprintf(args, sizeof args, RUN "%s --policy easy -q --failure-trace %s", wl, d);
    expect_dir(args, 1, d);
    snprintf(args, sizeof args, RUN "%s --policy easy -q --init-times %s", wl, d);
    expect_dir(args, 1, d);
    /* an output file that is a folder */
    snprintf(args, sizeof args, "generate lublin --nodes 4 --jobs 3 --seed 1 -o %s", d);
    expect_dir(args, 1, d);
    /* the files of a sweep, a plot and a policy option (a study's:
     * test_study_availability.c) */
    snprintf(args, sizeof args, "sweep expand %s --out %s/sweep", d, out);
    expect_dir(args, 1, d);
    snprintf(path, sizeof path, "%s/grid.txt", out);
    FILE *g = fopen(path, "w");
    CU_ASSERT_FATAL(g != NULL);
    fprintf(g,
            "platform = %s\nworkload.small = %s/traces/fixtures/small.swf\npolicies = easy\n"
            "seeds = 1\n",
            d, BL_SOURCE_DIR);
    fclose(g);
    snprintf(args, sizeof args, "sweep expand %s --out %s/sweep", path, out);
    expect_dir(args, 1, d);
    snprintf(args, sizeof args, "plot --loads %s", d);
    expect_dir(args, 1, d);
    /* a policy's option values are checked before the run: a usage error */
    snprintf(args, sizeof args, RUN "%s -q --policy slurm:shares=%s", wl, d);
    expect_dir(args, 2, d);
    /* nothing written anywhere */
    CU_ASSERT_EQUAL(bl_dir_entries(d, NULL, 0), 0);
    snprintf(path, sizeof path, "%s/scaled.swf", out);
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
}

/* `policies NAME` describes one policy: for every registered one it exits
 * 0 and lists each declared option with its values and its default. */
static void test_policies_name(void)
{
    size_t n;
    const pol_type *const *list = pol_list(&n);
    for (size_t i = 0; i < n; i++) {
        char args[128], *out = NULL;
        snprintf(args, sizeof args, "policies %s", list[i]->name);
        int st = bl(args, &out);
        CU_ASSERT_EQUAL(st, 0);
        bool ok = st == 0 && out && strncmp(out, list[i]->name, strlen(list[i]->name)) == 0;
        for (const pol_option *o = list[i]->options; o && o->key; o++) {
            char line[1024], values[512], def[256];
            pol_option_describe(o, values, sizeof values, def, sizeof def);
            snprintf(line, sizeof line, "\n  %-16s %s; default %s\n", o->key, values, def);
            ok = ok && strstr(out, line);
            CU_ASSERT_PTR_NOT_NULL(strstr(out, line));
        }
        if (!list[i]->options || !list[i]->options[0].key)
            ok = ok && strstr(out, "options: none");
        CU_ASSERT(ok);
        if (!ok)
            printf("\n  batchlab %s -> %d:\n%s", args, st, out ? out : "");
        free(out);
    }
    expect("policies slurm", 0, "  bf_window        a positive number (minutes); default 1440\n");
    expect("policies slurm", 0,
           "  priority_max_age a non-zero Slurm time (MIN, MIN:SEC, H:MIN:SEC, D-H, D-H:MIN or "
           "D-H:MIN:SEC); default 7-0\n");
    expect("policies sa", 0, "  window           an integer in 1..1024; default 32\n");
    expect("policies knapsack", 0, "  budget           a number >= 0; default (none: no budget)\n");
    expect("policies easy", 0,
           "  backfill_order   queue|sjf; default queue\n"
           "                   order in which later jobs are tried (sjf = shortest estimate "
           "first, Tsafrir et al. 2007)\n");
    expect("policies fcfs", 0, "options: none");
    expect("policies --help", 0, "usage: batchlab policies [NAME | PATH.so]");
}

/* Agreement with the log's own waits (field 3 of the fixture): printed by
 * run, a row block of compare. Known answers in test_eng_metrics.c. */
static void test_log_agreement(void)
{
    expect("run --platform platforms/kth-sp2.xml --workload traces/fixtures/small.swf "
           "--policy easy -q",
           0,
           "log agreement      13 jobs with a logged wait: mean wait 5,209.5 s logged, "
           "1,703.2 s simulated; mean |difference| 3,506.3 s; Spearman 0.835");
    expect("compare --platform platforms/kth-sp2.xml --workload traces/fixtures/small.swf -q", 0,
           "log: wait Spearman");
}

/* --feedback: a chain runs, a cycle of field 17 exits 1 naming the file,
 * the jobs and their lines, an unknown mode is a usage error. */
static void test_feedback(void)
{
    const char *chain = bl_write_tmp("chain.swf", "1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
                                                  "2 5 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 1 30\n"
                                                  "3 9 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 2 0\n");
    const char *cycle = bl_write_tmp("cycle.swf", "1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
                                                  "2 5 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 3 0\n"
                                                  "3 9 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 2 0\n");
    char args[1200], want[900];
    snprintf(args, sizeof args, RUN "--workload %s --policy fcfs --feedback swf", chain);
    expect(args, 0, "3 read, 3 simulated: 3 completed");
    expect(args, 0,
           "feedback           2 jobs submitted after a predecessor's end, 0 whose predecessor "
           "is not simulated (logged submit kept)");
    /* sessions: every job is submitted before the user's earlier ones end */
    snprintf(args, sizeof args, RUN "--workload %s --policy fcfs --feedback sessions", chain);
    expect(args, 0, "3 read, 3 simulated: 3 completed");
    expect(args, 0, "feedback           0 jobs submitted after a predecessor's end");
    snprintf(args, sizeof args, RUN "--workload %s --policy fcfs --feedback swf", cycle);
    snprintf(want, sizeof want,
             "%s: jobs 2 (line 2) -> 3 (line 3) -> 2 form a cycle of preceding jobs (SWF field 17)",
             cycle);
    expect(args, 1, want);
    snprintf(args, sizeof args, RUN "--workload %s --policy fcfs", cycle);
    expect(args, 0, "3 read, 3 simulated"); /* fields 17 and 18 unread without feedback */
    snprintf(args, sizeof args, RUN "--workload %s --policy fcfs --feedback yes", chain);
    expect(args, 2, "--feedback");
}

/* --reservations and info --outages from the command line: the outages
 * of a small log (test_eng_resv.c derives them) written as a reservation
 * file, replayed under --check; a bad file is bad input (exit 1, file and
 * line), a policy that does not plan around them a usage error. */
static void test_reservations(void)
{
    const char *log = bl_write_tmp("gap.swf",
                                   "1 0 0 100 1 -1 -1 1 100 -1 1 1 1 -1 0 -1 -1 -1\n"
                                   "2 50 5050 100 1 -1 -1 1 100 -1 1 1 1 -1 0 -1 -1 -1\n"
                                   "3 200 4900 10 1 -1 -1 1 100 -1 1 1 1 -1 0 -1 -1 -1\n"
                                   "4 6000 -1 10 1 -1 -1 1 100 -1 1 1 1 -1 0 -1 -1 -1\n");
    char args[1200], want[900];
    snprintf(args, sizeof args, "info --outages %s", log);
    expect(args, 0,
           "# 2 jobs waiting\nReservationName=outage1 StartTime=100 EndTime=5100 "
           "Nodes=ALL Flags=MAINT\n");
    expect(args, 0, "1 stretch, 5000 s in all, 2 jobs waiting in them in all; 1 job without a");
    snprintf(args, sizeof args, "info --outages %s --min-gap 6000", log);
    expect(args, 0, "0 stretches");
    snprintf(args, sizeof args, "info --outages %s --workload %s", log, log);
    expect(args, 2, "--outages takes the log itself");
    const char *resv = bl_write_tmp("outages.txt", "ReservationName=outage1 StartTime=100 "
                                                   "EndTime=5100 Nodes=ALL Flags=MAINT\n");
    /* job 2 (logged submit 50) would cross the window: it starts at 5100 */
    snprintf(args, sizeof args, RUN "--workload %s --policy easy --check --reservations %s", log,
             resv);
    expect(args, 0, "4 read, 4 simulated: 4 completed");
    snprintf(args, sizeof args, RUN "--workload %s --policy slurm --check --reservations %s", log,
             resv);
    expect(args, 0, "4 read, 4 simulated: 4 completed");
    snprintf(args, sizeof args, RUN "--workload %s --policy knapsack --reservations %s", log, resv);
    expect(args, 2, "--reservations needs a policy that plans around them");
    const char *bad = bl_write_tmp("bad.txt", "ReservationName=x StartTime=0 EndTime=10 "
                                              "Nodes=nowhere\n");
    snprintf(args, sizeof args, RUN "--workload %s --policy easy --reservations %s", log, bad);
    snprintf(want, sizeof want, "%s:1: reservation x: Nodes=nowhere: host 'nowhere' is not in",
             bad);
    expect(args, 1, want);

    /* a repeat by the calendar needs the log's UnixStartTime: this log has
     * none (bad input); with one (a Monday, 14:00:31 UTC), the weekday
     * maintenance holds [0, 60) and the limit window [0, 1000) admits jobs
     * of at most 50 s: job 1 (100 s) starts at 1000, job 2 (10 s, submitted
     * at 30) at 60: waits 1000 and 30, mean 515. The manifest counts the
     * repeating line and the limit window; conservative refuses limit
     * windows (usage). */
    const char *weekly = bl_write_tmp("weekly.txt", "ReservationName=w StartTime=0 Duration=60 "
                                                    "Flags=MAINT,WEEKDAY\n"
                                                    "ReservationName=l StartTime=0 EndTime=1000 "
                                                    "MaxTime=50\n");
    snprintf(args, sizeof args, RUN "--workload %s --policy easy --reservations %s", log, weekly);
    snprintf(want, sizeof want,
             "%s:1: reservation w repeats by the calendar, which needs the log's", weekly);
    expect(args, 1, want);
    const char *dated = bl_write_tmp("dated.swf",
                                     "; UnixStartTime: 843480031\n"
                                     "1 0 0 100 1 -1 -1 1 100 -1 1 1 1 -1 0 -1 -1 -1\n"
                                     "2 30 0 10 1 -1 -1 1 10 -1 1 1 1 -1 0 -1 -1 -1\n");
    char out[600], sum_path[700];
    snprintf(out, sizeof out, "%s/dated-out", bl_tmpdir());
    snprintf(sum_path, sizeof sum_path, "%s/summary.json", out);
    snprintf(args, sizeof args,
             RUN "--workload %s --policy easy --check --reservations %s --out %s", dated, weekly,
             out);
    expect(args, 0, "wait (s)           mean 515.0, median 515.0, p95 1,000.0, max 1,000.0");
    char *summary = bl_slurp(sum_path, NULL);
    CU_ASSERT_PTR_NOT_NULL(summary);
    CU_ASSERT_PTR_NOT_NULL(summary && strstr(summary, "(sha256 "));
    CU_ASSERT_PTR_NOT_NULL(summary &&
                           strstr(summary, "1 reservation, 1 limit window, 1 repeating)"));
    free(summary);
    snprintf(args, sizeof args, RUN "--workload %s --policy conservative --reservations %s", dated,
             weekly);
    expect(args, 2, "MaxTime= limit windows needs a policy that schedules from the queue as shown");
    /* the log against the file: both jobs ran at their submit, in the
     * maintenance [0, 60); job 1 (100 s) also over the limit window's 50 s */
    snprintf(args, sizeof args, "info --workload %s --reservations %s", dated, weekly);
    expect(args, 0,
           "of 2 jobs with a logged start, 2 ran in a maintenance window (the first: job "
           "1), 1 started in a limit window over its MaxTime (the first: job 1)");
    snprintf(args, sizeof args, "info --workload %s --reservations %s", log, weekly);
    expect(args, 1, "repeats by the calendar, which needs the log's");
}

int bl_suite_cli_main(void)
{
    CU_pSuite s = CU_add_suite("cli_main", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "help and usage", test_help_and_usage);
    CU_add_test(s, "usage errors exit 2 with a precise message", test_usage_errors);
    CU_add_test(s, "every job dropped: n/a", test_all_dropped);
    CU_add_test(s, "bad input exits 1 naming file and line", test_bad_input);
    CU_add_test(s, "run writes every output", test_run_and_outputs);
    CU_add_test(s, "repeated job numbers dropped, ids unique", test_duplicate_ids);
    CU_add_test(s, "compare and info", test_compare_and_info);
    CU_add_test(s, "reservations and info --outages", test_reservations);
    CU_add_test(s, "compare: each spec once, each folder its own", test_compare_distinct_specs);
    CU_add_test(s, "BATCHLAB_SA_BACKEND passed down as an option", test_sa_backend_env);
    CU_add_test(s, "machines for info and scale; initialization", test_machines_and_initialization);
    CU_add_test(s, "the bad-input catalogue", test_bad_input_catalogue);
    CU_add_test(s, "host failures from a trace or the model", test_failures);
    CU_add_test(s, "idle shutdown, the power cap and their errors", test_idle_shutdown);
    CU_add_test(s, "islands: placement, --islands, malformed property", test_islands);
    CU_add_test(s, "agreement with the log in run and compare", test_log_agreement);
    CU_add_test(s, "user feedback: a chain, a cycle refused", test_feedback);
    CU_add_test(s, "a folder where a file is expected", test_directory_for_a_file);
    CU_add_test(s, "policies NAME: options with values and defaults", test_policies_name);
    return 0;
}
