/* test_faults_tmpfs.c — a full file system: --out on a 64 KB tmpfs that
 * already holds a finished run's outputs. A new run's first write that
 * finds no space ends it at once ("OUT/jobs.csv: cannot write: No space
 * left on device", exit 1), removes its temporary files and leaves the
 * previous outputs as they were; with --outputs schedule it is the SWF
 * writer that fails (it used to retry the write for ever, at 100 % CPU).
 * Mounting needs root: skipped otherwise, or where mount is refused.
 */
#include "bl_proc.h"
#include "bl_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char mnt[700], swf[700];

static int run(const char *out, const char *outputs, const char *log, const char *policy)
{
    const char *argv[] = {bl_exe(),     "run", "--platform", "platforms/test/tiny-4.xml",
                          "--workload", swf,   "--policy",   policy,
                          "--out",      out,   "--outputs",  outputs,
                          "-q",         NULL};
    bl_proc_opts o = {.log = log};
    return bl_proc_wait(bl_proc_start(argv, &o), 120); /* -1: it hung */
}

static void full_disk(const char *outputs, const char *culprit)
{
    static int n;
    char out[800], log[800], path[900], expect[1000];
    snprintf(out, sizeof out, "%s/out%d", mnt, ++n);
    snprintf(log, sizeof log, "%s/log", bl_tmpdir());
    /* a previous run of a handful of jobs fits */
    char small[800];
    snprintf(small, sizeof small, "%s/prev.swf", bl_tmpdir());
    FILE *f = fopen(small, "w");
    CU_ASSERT_FATAL(f != NULL);
    fputs("1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n", f);
    fclose(f);
    const char *argv[] = {bl_exe(),     "run", "--platform", "platforms/test/tiny-4.xml",
                          "--workload", small, "--policy",   "fcfs",
                          "--out",      out,   "-q",         NULL};
    bl_proc_opts o = {.log = log};
    CU_ASSERT_FATAL(bl_proc_wait(bl_proc_start(argv, &o), 120) == 0);
    snprintf(path, sizeof path, "%s/jobs.csv", out);
    char *before = bl_slurp(path, NULL);
    int st = run(out, outputs, log, "easy");
    CU_ASSERT(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 1);
    snprintf(expect, sizeof expect, "batchlab run: %s/%s: cannot write: No space left on device",
             out, culprit);
    char *text = bl_slurp(log, NULL);
    CU_ASSERT(bl_contains(text, expect));
    free(text);
    char left[512];
    CU_ASSERT_EQUAL(bl_dir_entries(out, left, sizeof left), 5);
    if (bl_dir_entries(out, NULL, 0) != 5)
        printf("\n  left: %s", left);
    char *after = bl_slurp(path, NULL);
    CU_ASSERT(before && after && strcmp(before, after) == 0);
    free(before);
    free(after);
    char rm[900];
    snprintf(rm, sizeof rm, "rm -rf '%s'", out); /* room for the next case */
    CU_ASSERT(system(rm) == 0);
}

static void test_jobs_csv(void)
{
    full_disk("all", "jobs.csv");
}

static void test_schedule_swf(void)
{
    full_disk("schedule", "schedule.swf");
}

static int setup(void)
{
    snprintf(swf, sizeof swf, "%s/big.swf", bl_tmpdir());
    FILE *f = fopen(swf, "w");
    if (!f)
        return 1;
    for (int i = 1; i <= 2000; i++) /* jobs.csv of some 300 KB, schedule.swf 100 KB */
        fprintf(f, "%d %d 0 %d %d -1 -1 %d 100 -1 1 %d 1 1 1 1 -1 -1\n", i, 10 * i, 30 + i % 50,
                1 + i % 4, 1 + i % 4, 1 + i % 5);
    return fclose(f) == 0 ? 0 : 1;
}

static int teardown(void)
{
    umount(mnt);
    return 0;
}

int bl_suite_faults_tmpfs(void)
{
    if (geteuid() != 0)
        return bl_skip("mounting a tmpfs needs root");
    snprintf(mnt, sizeof mnt, "%s/tmpfs", bl_tmpdir());
    if (mkdir(mnt, 0755) != 0 || mount("tmpfs", mnt, "tmpfs", 0, "size=64k") != 0)
        return bl_skip("mount -t tmpfs refused here");
    CU_pSuite s = CU_add_suite("faults_tmpfs", setup, teardown);
    if (!s || !CU_add_test(s, "a full disk while writing jobs.csv", test_jobs_csv) ||
        !CU_add_test(s, "a full disk while writing schedule.swf", test_schedule_swf)) {
        umount(mnt);
        return 1;
    }
    return 0;
}
