/* test_bench_sweep.c — bench/sweep, the entry point of sweeps: a tiny grid
 * (the 16-job fixture on kth-sp2.xml; a 60-job ForHLR II stand-in) expanded,
 * run under GNU parallel, merged; run again (nothing left to run, the same
 * CSV; the job log appended to); its Slurm route; a bad grid; the same sweep
 * twice giving the same results; a sweep stopped by SIGINT, SIGTERM or
 * SIGHUP exiting 128 + N with nothing left running. Skipped (77) where GNU
 * parallel is not installed. */
#define _DEFAULT_SOURCE /* kill, nanosleep */
#include "bl_proc.h"
#include "bl_test.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char merge_head[] = "run,workload,load,policy,variant,seed,jobs_input,";

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++)
        n += *s == '\n';
    return n;
}

/* Runs bench/sweep with the built batchlab; returns its exit status. */
static int sweep(char **out, const char *fmt, const char *a, const char *b, const char *c)
{
    char args[2048], cmd[3072];
    snprintf(args, sizeof args, fmt, a, b, c);
    snprintf(cmd, sizeof cmd, "BATCHLAB='%s' '%s' %s", bl_exe(), bl_src("bench/sweep"), args);
    return bl_system(cmd, out);
}

static void test_end_to_end(void)
{
    const char *dir = bl_tmpdir();
    char text[1024], path[900];
    snprintf(text, sizeof text,
             "platform = %s\nworkload.small = %s\nloads = 0.7, log\npolicies = fcfs, easy\n"
             "seeds = 1..2\noutputs = summary,jobs\n",
             bl_src("platforms/kth-sp2.xml"), bl_src("traces/fixtures/small.swf"));
    const char *grid = bl_write_tmp("grid.txt", text);
    char *out = NULL;
    int st = sweep(&out, "-j 2 '%s' '%s/sw'%s", grid, dir, "");
    CU_ASSERT_EQUAL(st, 0);
    CU_ASSERT_TRUE(bl_contains(out, "8 runs = 1 workload x 2 loads x 2 policy variants x 2 seeds"));
    CU_ASSERT_TRUE(bl_contains(out, "results.csv: 8 runs"));
    if (st != 0)
        printf("\n%s\n", out ? out : "");
    free(out);
    snprintf(path, sizeof path, "%s/sw/results.csv", dir);
    char *got = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_EQUAL(count_lines(got), 9);
    CU_ASSERT_TRUE(strncmp(got, merge_head, strlen(merge_head)) == 0);
    /* 16 jobs in, 13 simulated on kth-sp2 (3 dropped), at both loads. */
    CU_ASSERT_TRUE(bl_contains(got, "\nruns/small/load-0.7/easy/seed-1,small,0.7,easy,easy,1,"
                                    "16,13,3,"));
    CU_ASSERT_TRUE(bl_contains(got, "\nruns/small/load-log/fcfs/seed-2,small,log,fcfs,fcfs,2,"
                                    "16,13,3,"));
    snprintf(path, sizeof path, "%s/sw/runs/small/load-log/fcfs/seed-2/jobs.csv", dir);
    CU_ASSERT_EQUAL(access(path, R_OK), 0);
    snprintf(path, sizeof path, "%s/sw/tasks.txt", dir);
    char *tasks = bl_slurp(path, NULL);
    CU_ASSERT_EQUAL(count_lines(tasks), 8);
    free(tasks);

    /* Resumable: nothing left to run, the same CSV (same summaries). */
    out = NULL;
    CU_ASSERT_EQUAL(sweep(&out, "-j 2 '%s' '%s/sw'%s", grid, dir, ""), 0);
    CU_ASSERT_TRUE(bl_contains(out, "0 of 8 runs to do"));
    free(out);
    snprintf(path, sizeof path, "%s/sw/results.csv", dir);
    char *again = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(again && strcmp(got, again) == 0);
    free(again);

    /* One run lost: only that one runs again. */
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "rm '%s/sw/runs/small/load-0.7/fcfs/seed-2/summary.json'", dir);
    CU_ASSERT_EQUAL(bl_system(cmd, NULL), 0);
    out = NULL;
    CU_ASSERT_EQUAL(sweep(&out, "-j 2 '%s' '%s/sw'%s", grid, dir, ""), 0);
    CU_ASSERT_TRUE(bl_contains(out, "1 of 8 runs to do"));
    free(out);
    again = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(again && count_lines(again) == 9);
    free(again);
    free(got);
    /* The job log keeps every invocation's runs: appended, not overwritten
     * (one header, the 8 runs of the first, the 1 of the third). */
    snprintf(path, sizeof path, "%s/sw/joblog.txt", dir);
    char *joblog = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(joblog);
    CU_ASSERT_EQUAL(count_lines(joblog), 10);
    CU_ASSERT_TRUE(strncmp(joblog, "Seq\tHost\t", 9) == 0);
    CU_ASSERT_PTR_NULL(strstr(joblog + 1, "\nSeq\t"));
    free(joblog);

    /* The Slurm route writes the job array and runs nothing. */
    out = NULL;
    CU_ASSERT_EQUAL(sweep(&out, "--slurm '%s' '%s/sl' -- --time 00:05:00%s", grid, dir, ""), 0);
    CU_ASSERT_TRUE(bl_contains(out, "sbatch"));
    free(out);
    snprintf(path, sizeof path, "%s/sl/sweep.sbatch", dir);
    char *s = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(s && bl_contains(s, "#SBATCH --array=1-8\n"));
    CU_ASSERT_TRUE(s && bl_contains(s, "#SBATCH --time=00:05:00\n"));
    CU_ASSERT_TRUE(s && bl_contains(s, "sed -n \"${i}p\""));
    free(s);
    snprintf(path, sizeof path, "%s/sl/runs", dir);
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);

    /* A bad grid: exit 1 with the grid's message. */
    const char *bad = bl_write_tmp("bad-grid.txt", "platform = /no/such.xml\n");
    out = NULL;
    CU_ASSERT_EQUAL(sweep(&out, "'%s' '%s/bad'%s", bad, dir, ""), 1);
    CU_ASSERT_TRUE(bl_contains(out, "bad-grid.txt:1: platform: expected a readable platform"));
    free(out);
    /* Usage errors exit 2. */
    out = NULL;
    CU_ASSERT_EQUAL(sweep(&out, "'%s'%s%s", grid, "", ""), 2);
    CU_ASSERT_TRUE(bl_contains(out, "usage: bench/sweep"));
    free(out);
    CU_ASSERT_EQUAL(sweep(NULL, "-j x '%s' '%s'%s", grid, dir, ""), 2);
}

/* A failing run: exit 1, the other runs finished and merged. */
static void test_failed_run(void)
{
    const char *dir = bl_tmpdir();
    char text[1024], path[900];
    /* Two workloads; the second one's log disappears after expansion. */
    snprintf(text, sizeof text,
             "platform = %s\nworkload.small = %s\npolicies = fcfs\nseeds = 1\n"
             "workload.bad = %s\n",
             bl_src("platforms/kth-sp2.xml"), bl_src("traces/fixtures/small.swf"),
             bl_src("traces/fixtures/unsorted.swf"));
    const char *grid = bl_write_tmp("grid.txt", text);
    /* Break the second workload after expansion: the task line names it. */
    char *out = NULL;
    CU_ASSERT_EQUAL(sweep(&out, "--expand-only '%s' '%s/sw'%s", grid, dir, ""), 0);
    free(out);
    char cmd[2048];
    snprintf(path, sizeof path, "%s/sw/tasks.txt", dir);
    snprintf(cmd, sizeof cmd, "sed -i 's|%s|/no/such.swf|' '%s'",
             bl_src("traces/fixtures/unsorted.swf"), path);
    CU_ASSERT_EQUAL_FATAL(bl_system(cmd, NULL), 0);
    out = NULL;
    CU_ASSERT_EQUAL(sweep(&out, "--no-expand '%s' '%s/sw'%s", grid, dir, ""), 1);
    CU_ASSERT_TRUE(bl_contains(out, "/no/such.swf: cannot open"));
    CU_ASSERT_TRUE(bl_contains(out, "1 of 2 runs failed"));
    CU_ASSERT_TRUE(bl_contains(out, "results.csv: 1 run"));
    CU_ASSERT_PTR_NULL(strstr(out, "results.csv: 1 runs")); /* the count agrees */
    free(out);
}

/* The same sweep twice gives the same results but for the wall times;
 * seeds draw different stand-ins. */
static void test_deterministic(void)
{
    char text[1024], cmd[3072];
    snprintf(text, sizeof text,
             "platform = %s\nworkload.si = standin forhlr2 jobs=60\nloads = 0.8\n"
             "policies = easy, conservative\nseeds = 3, 4\n",
             bl_src("platforms/forhlr2.xml"));
    const char *grid = bl_write_tmp("grid.txt", text);
    const char *d1 = bl_tmpdir(), *d2 = bl_tmpdir();
    CU_ASSERT_EQUAL_FATAL(sweep(NULL, "-j 2 '%s' '%s/sw'%s", grid, d1, ""), 0);
    CU_ASSERT_EQUAL_FATAL(sweep(NULL, "-j 2 '%s' '%s/sw'%s", grid, d2, ""), 0);
    /* Columns 1-36: everything but policy_wall_time_s and wall_time_s. */
    snprintf(cmd, sizeof cmd,
             "cut -d, -f1-36 '%s/sw/results.csv' > '%s/a.csv' && "
             "cut -d, -f1-36 '%s/sw/results.csv' > '%s/b.csv' && cmp '%s/a.csv' '%s/b.csv'",
             d1, d1, d2, d1, d1, d1);
    CU_ASSERT_EQUAL(bl_system(cmd, NULL), 0);
    char *a = NULL;
    snprintf(cmd, sizeof cmd, "%s/a.csv", d1);
    a = bl_slurp(cmd, NULL);
    CU_ASSERT_EQUAL(count_lines(a), 5);
    free(a);
    /* Column 35 is the workload's SHA-256: one per seed. */
    snprintf(cmd, sizeof cmd, "sed 1d '%s/sw/results.csv' | cut -d, -f35 | sort -u | wc -l", d1);
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_system(cmd, &out), 0);
    CU_ASSERT_TRUE(out && strcmp(out, "2\n") == 0);
    free(out);
}

/* True while some process's command line holds needle (this test's
 * folder names the sweep's processes). */
static bool process_with(const char *needle)
{
    char cmd[1200], *out = NULL;
    snprintf(cmd, sizeof cmd,
             "for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' 2>/dev/null < $f; echo; done | "
             "grep -F -- '%s' | grep -v grep",
             needle);
    bool found = bl_system(cmd, &out) == 0 && out && out[0];
    if (found)
        printf("\n  still running: %s", out);
    free(out);
    return found;
}

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

/* A sweep stopped by a signal exits as batchlab does, 128 + N: SIGINT to
 * the whole process group (Ctrl-C at a terminal) gives 130, SIGTERM to the
 * script alone (kill, a batch system) 143, SIGHUP 129. Either way GNU
 * parallel and the runs stop (nothing is left running), the stopped run
 * stays pending, and the message says how to resume. */
static void stop_sweep(int sig, bool group)
{
    const char *dir = bl_tmpdir();
    char swf[700], text[1400], out[700], task[900], log[700], bl_env[800];
    snprintf(swf, sizeof swf, "%s/big.swf", dir);
    const char *gen[] = {bl_exe(), "generate", "lublin", "--nodes", "100", "--jobs",
                         "100000", "--seed",   "1",      "-o",      swf,   NULL};
    CU_ASSERT_EQUAL_FATAL(bl_proc_wait(bl_proc_start(gen, NULL), 120), 0);
    snprintf(text, sizeof text,
             "platform = %s\nworkload.big = %s\nloads = log\npolicies = conservative\n"
             "seeds = 1..2\nrun_args = --check\n",
             bl_src("platforms/kth-sp2.xml"), swf);
    const char *grid = bl_write_tmp("grid.txt", text);
    snprintf(out, sizeof out, "%s/sw", dir);
    snprintf(task, sizeof task, "%s/runs/big/load-log/conservative/seed-1/task.json", out);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(bl_env, sizeof bl_env, "BATCHLAB=%s", bl_exe());
    const char *env[] = {bl_env, NULL};
    /* setsid: the script leads its own process group, as a shell job does */
    const char *argv[] = {"/usr/bin/setsid", bl_src("bench/sweep"), "-j", "1", grid, out, NULL};
    bl_proc_opts o = {.env = env, .log = log};
    pid_t pid = bl_proc_start(argv, &o);
    CU_ASSERT_FATAL(pid > 0);
    double end = bl_now_s() + 60;
    while (access(task, F_OK) != 0 && bl_now_s() < end)
        sleep_s(0.05);
    CU_ASSERT_EQUAL_FATAL(access(task, F_OK), 0);
    sleep_s(0.5); /* the run is under way */
    kill(group ? -pid : pid, sig);
    int st = bl_proc_wait(pid, 60);
    char *msg = bl_slurp(log, NULL);
    if (!(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 128 + sig))
        printf("\n  signal %d: wait status %d: %s", sig, st, msg ? msg : "");
    CU_ASSERT(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 128 + sig);
    CU_ASSERT(msg && bl_contains(msg, "bench/sweep: stopped by SIG"));
    CU_ASSERT(msg && bl_contains(msg, "the same command runs the rest"));
    CU_ASSERT(msg && !strstr(msg, "GNU parallel stopped"));
    free(msg);
    sleep_s(0.5);
    CU_ASSERT(!process_with(out));
    /* the run under way (the first, unless it had just finished) wrote
     * nothing and stays pending; no temporary file is left */
    char cmd[1200], *text2 = NULL;
    snprintf(cmd, sizeof cmd, "'%s' sweep pending '%s/tasks.txt' | wc -l", bl_exe(), out);
    CU_ASSERT_EQUAL(bl_system(cmd, &text2), 0);
    CU_ASSERT(text2 && atoi(text2) >= 1);
    free(text2);
    text2 = NULL;
    snprintf(cmd, sizeof cmd, "find '%s/runs' -name '*.tmp.*' | wc -l", out);
    CU_ASSERT_EQUAL(bl_system(cmd, &text2), 0);
    CU_ASSERT(text2 && atoi(text2) == 0);
    free(text2);
}

static void test_ctrl_c(void)
{
    stop_sweep(SIGINT, true);
}

static void test_sigterm(void)
{
    stop_sweep(SIGTERM, false);
}

static void test_sighup(void)
{
    stop_sweep(SIGHUP, false);
}

int bl_suite_bench_sweep(void)
{
    if (bl_system("command -v parallel", NULL) != 0)
        return bl_skip("GNU parallel is not installed (Debian package parallel)");
    CU_pSuite s = CU_add_suite("bench_sweep", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "a tiny sweep end to end under GNU parallel", test_end_to_end);
    CU_add_test(s, "a failing run: exit 1, the rest merged", test_failed_run);
    CU_add_test(s, "the same sweep twice: same results", test_deterministic);
    CU_add_test(s, "Ctrl-C: exit 130, nothing left running", test_ctrl_c);
    CU_add_test(s, "SIGTERM: exit 143, nothing left running", test_sigterm);
    CU_add_test(s, "SIGHUP: exit 129, nothing left running", test_sighup);
    return 0;
}
