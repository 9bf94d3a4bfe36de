/* test_faults_alloc.c — allocation failures, injected: every allocation of
 * a small run under each registered policy is made to fail in turn (k = 1,
 * 2, ... until a run makes fewer than k allocations), through the hook of
 * tests/fault/fault_alloc.c, as libuv and
 * Lua test theirs (the test runner is linked with the hook; batchlab_faulty
 * is the same for trying one k by hand). Each k must end in one of two clean ways:
 *
 *   - exit 1 with "out of memory" in the message, no crash, no sanitizer
 *     report (tools/test-sanitize runs this under ASan and UBSan, leaks
 *     included, the simulation child checking itself before it exits), and
 *     nothing in the output folder;
 *   - exit 0 with the very same jobs.csv as the run without the hook (the
 *     failure was absorbed: a shrinking realloc, say).
 *
 * The hook counts allocations per process and the simulation child counts
 * on from its parent's count at the fork, so the sweep covers the parent
 * (arguments, the workload, the report) and the child (preparation, the
 * engine, the policy, the outputs); the test checks that it reached both.
 */
#include "bl_proc.h"
#include "bl_test.h"
#include "cli.h"
#include "fault_alloc.h"
#include "pol_registry.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Five jobs on four hosts: waits, a backfill and two job types. */
static const char tiny_swf[] = "1 0 0 100 2 -1 -1 2 200 -1 1 1 1 1 1 1 -1 -1\n"
                               "2 10 0 50 1 -1 -1 1 100 -1 1 2 1 1 1 1 -1 -1\n"
                               "3 20 0 80 4 -1 -1 4 100 -1 1 1 1 1 2 1 -1 -1\n"
                               "4 30 0 30 1 -1 -1 1 60 -1 1 3 1 1 1 1 -1 -1\n"
                               "5 40 0 20 2 -1 -1 2 40 -1 1 2 1 1 2 1 -1 -1\n";

#define MAX_K 20000 /* a run of this size makes a few hundred allocations */

/* Runs "batchlab run" with the k-th allocation failing (k = 0: none) in a
 * forked copy of this process (cheaper than starting batchlab_faulty each
 * time, and the same code); returns the raw wait status. */
static int run_k(const char *policy, const char *swf, const char *out, const char *mark,
                 const char *log, long k, pid_t *started)
{
    const char *argv[] = {"batchlab",   "run", "--platform", "platforms/test/tiny-4.xml",
                          "--workload", swf,   "--policy",   policy,
                          "--out",      out,   "-q",         NULL};
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || chdir(BL_SOURCE_DIR) != 0)
            _exit(126);
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        close(fd);
        bl_fault_arm(k, mark);
        int rc = bl_cli_main(11, (char **)argv);
        bl_fault_arm(0, NULL);
        fflush(stdout);
        fflush(stderr);
#if defined(__SANITIZE_ADDRESS__)
        __lsan_do_leak_check(); /* _exit skips it; exit would run the runner's atexit */
#endif
        _exit(rc);
    }
    *started = pid;
    return pid > 0 ? bl_proc_wait(pid, 120) : -1;
}

static bool same_file(const char *a, const char *b)
{
    size_t na, nb;
    char *x = bl_slurp(a, &na), *y = bl_slurp(b, &nb);
    bool same = x && y && na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return same;
}

static void sweep_policy(const char *policy, const char *swf)
{
    const char *dir = bl_tmpdir();
    char out[1024], ref[1024], mark[1024], log[1024], path[1100], ref_jobs[1100];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(ref, sizeof ref, "%s/ref", dir);
    snprintf(mark, sizeof mark, "%s/mark", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(ref_jobs, sizeof ref_jobs, "%s/jobs.csv", ref);
    pid_t started;
    int st = run_k(policy, swf, ref, mark, log, 0, &started);
    CU_ASSERT_FATAL(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0);
    long k = 1, in_child = 0, failed = 0, absorbed = 0, bad = 0;
    for (; k <= MAX_K; k++) {
        char rm[2200];
        snprintf(rm, sizeof rm, "rm -rf '%s' '%s'", out, mark);
        if (system(rm) != 0)
            break;
        st = run_k(policy, swf, out, mark, log, k, &started);
        char *marks = bl_slurp(mark, NULL);
        if (!marks) { /* the run made fewer than k allocations */
            CU_ASSERT(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0);
            break;
        }
        char *text = bl_slurp(log, NULL);
        char names[512];
        size_t n_left = bl_dir_entries(out, names, sizeof names);
        /* a mark from a process other than the one started: the child */
        long kk, pid;
        for (const char *p = marks; sscanf(p, "%ld %ld", &kk, &pid) == 2;) {
            in_child += pid != (long)started;
            const char *nl = strchr(p, '\n');
            if (!nl)
                break;
            p = nl + 1;
        }
        bool exited = st >= 0 && WIFEXITED(st);
        int code = exited ? WEXITSTATUS(st) : -1;
        bool sanitizer = text && (strstr(text, "Sanitizer:") || strstr(text, "runtime error:"));
        bool ok;
        snprintf(path, sizeof path, "%s/jobs.csv", out);
        if (code == 1) {
            ok = !sanitizer && text && strstr(text, "out of memory") && n_left == 0;
            failed++;
        } else if (code == 0) {
            ok = !sanitizer && n_left == 5 && same_file(path, ref_jobs);
            absorbed++;
        } else {
            ok = false;
        }
        if (!ok && bad++ < 5)
            printf("\n  %s, allocation %ld failing: %s %d, left: [%s], hook: %s  output:\n%s",
                   policy, k, exited ? "exit" : "signal", exited ? code : st & 0x7f, names, marks,
                   text ? text : "");
        CU_ASSERT(ok);
        free(text);
        free(marks);
    }
    printf("\n  %s: %ld allocations failed one at a time (%ld in the simulation child): %ld "
           "clean errors, %ld absorbed",
           policy, k - 1, in_child, failed, absorbed);
    CU_ASSERT(k <= MAX_K);
    CU_ASSERT(k > 50); /* the hook is in place */
    CU_ASSERT(failed > 20);
    CU_ASSERT(in_child > 20); /* the sweep reached the simulation child */
}

static void test_every_allocation_every_policy(void)
{
    const char *swf = bl_write_tmp("tiny.swf", tiny_swf);
    CU_ASSERT_FATAL(swf != NULL);
    size_t n;
    const pol_type *const *list = pol_list(&n);
    for (size_t i = 0; i < n; i++)
        if (!(list[i]->flags & POL_FLAG_EXTERNAL)) /* runs only with its peer */
            sweep_policy(list[i]->name, swf);
}

int bl_suite_faults_alloc(void)
{
    CU_pSuite s = CU_add_suite("faults_alloc", NULL, NULL);
    if (!s || !CU_add_test(s, "every allocation of a small run failed in turn, each policy",
                           test_every_allocation_every_policy))
        return 1;
    return 0;
}
