/* test_faults.c — what a real run meets, end to end with the built
 * batchlab: a write that fails (the file-size limit: EFBIG), stop signals
 * (SIGTERM, SIGINT, SIGHUP, a second SIGINT, a parent killed outright,
 * compare and a sweep task stopped halfway), and a memory limit. Each case
 * asserts the exit status, the message, that no process is left, and what
 * is left on disk (nothing new; previous outputs untouched). The full-disk
 * case needs a tmpfs, hence root: tests/test_faults_tmpfs.c.
 */
#define _DEFAULT_SOURCE   /* prctl */
#define _XOPEN_SOURCE 700 /* posix_openpt, grantpt, unlockpt, ptsname */

#include "bl_proc.h"
#include "bl_test.h"
#include "eng_util.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char big_swf[700];   /* 100 000 Lublin-Feitelson jobs: seconds to replay */
static char mid_swf[700];   /* 20 000 of them: runs that must end, even under ASan */
static char small_swf[700]; /* 400 jobs: jobs.csv of some 60 KB */

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

static void reap_orphans(void)
{
    while (waitpid(-1, NULL, WNOHANG) > 0)
        ;
}

/* Waits up to timeout_s for pid to have a child; returns it or 0. */
static pid_t wait_child(pid_t pid, pid_t not_this, double timeout_s)
{
    double end = bl_now_s() + timeout_s;
    while (bl_now_s() < end) {
        pid_t c = bl_proc_child(pid);
        if (c > 0 && c != not_this)
            return c;
        sleep_s(0.01);
    }
    return 0;
}

/* Waits up to timeout_s for pid to be gone (orphans are re-parented to this
 * process, a subreaper, and reaped here). */
static bool gone(pid_t pid, double timeout_s)
{
    double end = bl_now_s() + timeout_s;
    while (bl_now_s() < end) {
        reap_orphans();
        if (!bl_proc_alive(pid))
            return true;
        sleep_s(0.02);
    }
    return false;
}

static pid_t start(const char *const *argv, const char *log, long long fsize)
{
    bl_proc_opts o = {.log = log, .fsize_bytes = fsize};
    return bl_proc_start(argv, &o);
}

static void show(const char *what, int st, const char *log)
{
    char *text = bl_slurp(log, NULL);
    printf("\n  %s: wait status %d: %s", what, st, text ? text : "(no output)");
    free(text);
}

static bool log_has(const char *log, const char *needle)
{
    char *text = bl_slurp(log, NULL);
    bool ok = bl_contains(text, needle);
    free(text);
    return ok;
}

/* ---- write errors --------------------------------------------------------- */

/* A folder holding the outputs of a finished run, and their content. */
static void previous_outputs(const char *out, char *saved[5])
{
    const char *argv[] = {bl_exe(),     "run",     "--platform", "platforms/test/tiny-4.xml",
                          "--workload", small_swf, "--policy",   "fcfs",
                          "--out",      out,       "-q",         NULL};
    CU_ASSERT_FATAL(bl_proc_wait(start(argv, NULL, 0), 300) == 0);
    static const char *const names[5] = {"jobs.csv", "dropped.csv", "schedule.swf", "summary.json",
                                         "timeseries.csv"};
    for (int i = 0; i < 5; i++) {
        char path[1100];
        snprintf(path, sizeof path, "%s/%s", out, names[i]);
        saved[i] = bl_slurp(path, NULL);
        CU_ASSERT_PTR_NOT_NULL(saved[i]);
    }
}

static void assert_untouched(const char *out, char *saved[5])
{
    static const char *const names[5] = {"jobs.csv", "dropped.csv", "schedule.swf", "summary.json",
                                         "timeseries.csv"};
    char left[512];
    CU_ASSERT_EQUAL(bl_dir_entries(out, left, sizeof left), 5);
    for (int i = 0; i < 5; i++) {
        char path[1100];
        snprintf(path, sizeof path, "%s/%s", out, names[i]);
        char *now = bl_slurp(path, NULL);
        CU_ASSERT(now && saved[i] && strcmp(now, saved[i]) == 0);
        free(now);
        free(saved[i]);
    }
}

/* Under a file-size limit of 16 KB, each output file that outgrows it ends
 * the run at once with its name and "File too large"; the previous outputs
 * stay as they were and no temporary file is left. schedule.swf alone is
 * the case that used to spin for ever (its buffered writer retried). */
static void test_file_size_limit(void)
{
    static const char *const outputs[] = {"all", "schedule"};
    static const char *const culprit[] = {"jobs.csv", "schedule.swf"};
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++) {
        const char *dir = bl_tmpdir();
        char out[700], log[700], expect[800];
        snprintf(out, sizeof out, "%s/out", dir);
        snprintf(log, sizeof log, "%s/log", dir);
        char *saved[5];
        previous_outputs(out, saved);
        const char *argv[] = {bl_exe(),     "run",     "--platform", "platforms/test/tiny-4.xml",
                              "--workload", small_swf, "--policy",   "easy",
                              "--out",      out,       "--outputs",  outputs[i],
                              "-q",         NULL};
        int st = bl_proc_wait(start(argv, log, 16384), 120);
        snprintf(expect, sizeof expect, "batchlab run: %s/%s: cannot write: File too large", out,
                 culprit[i]);
        CU_ASSERT(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 1);
        if (!(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 1))
            show(outputs[i], st, log);
        CU_ASSERT(log_has(log, expect));
        assert_untouched(out, saved);
    }
}

/* ---- signals -------------------------------------------------------------- */

static const char *run_argv[16];

static const char *const *big_run_of(const char *swf, const char *policy, const char *out)
{
    const char *argv[] = {bl_exe(),     "run", "--platform", "platforms/kth-sp2.xml",
                          "--workload", swf,   "--policy",   policy,
                          "--out",      out,   "-q",         NULL};
    memcpy(run_argv, argv, sizeof argv);
    return run_argv;
}

/* alp: the slowest policy on this log (about 6 s here, against about 1 s
 * for conservative since a job became one SimGrid execution), so that a
 * run is still going when the tests signal or time it out. */
static const char *const *big_run(const char *out)
{
    return big_run_of(big_swf, "alp", out);
}

/* Starts a long run, waits for its simulation child, sends sig (twice when
 * asked), and checks: exit 128 + sig, the message, no process, no file. */
static void stop_run(int sig, bool twice)
{
    const char *dir = bl_tmpdir();
    char out[700], log[700];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    pid_t pid = start(big_run(out), log, 0);
    CU_ASSERT_FATAL(pid > 0);
    pid_t child = wait_child(pid, 0, 60);
    CU_ASSERT(child > 0);
    sleep_s(0.2);
    kill(pid, sig);
    if (twice)
        kill(pid, sig);
    int st = bl_proc_wait(pid, 60);
    bool ok = st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 128 + sig;
    CU_ASSERT(ok);
    if (!ok)
        show(strsignal(sig), st, log);
    if (!twice) /* a second signal ends the parent before it can say anything */
        CU_ASSERT(log_has(log, "batchlab run: stopped by "));
    CU_ASSERT(child <= 0 || gone(child, 30));
    char left[512];
    CU_ASSERT_EQUAL(bl_dir_entries(out, left, sizeof left), 0);
    if (left[0])
        printf("\n  left in %s: %s", out, left);
}

static void test_sigterm(void)
{
    stop_run(SIGTERM, false);
}

static void test_sigint(void)
{
    stop_run(SIGINT, false);
}

static void test_sighup(void)
{
    stop_run(SIGHUP, false);
}

static void test_second_sigint(void)
{
    stop_run(SIGINT, true);
}

/* Ctrl-C in a terminal: SIGINT reaches the whole process group, the
 * simulation child directly as well as batchlab. SimGrid's own SIGINT
 * handler once answered in the child ("Process called exit when leaving",
 * "It is currently forbidden to create more than one instance of
 * kernel::EngineImpl", in 3 of 4 tries); now the stop says one line. Five
 * tries, each a replay stopped a few tenths of a second in. */
static void test_sigint_to_group(void)
{
    for (int k = 0; k < 5; k++) {
        const char *dir = bl_tmpdir();
        char out[700], log[700];
        snprintf(out, sizeof out, "%s/out", dir);
        snprintf(log, sizeof log, "%s/log", dir);
        bl_proc_opts o = {.log = log, .own_group = true};
        pid_t pid = bl_proc_start(big_run(out), &o);
        CU_ASSERT_FATAL(pid > 0);
        pid_t child = wait_child(pid, 0, 60);
        CU_ASSERT(child > 0);
        sleep_s(0.2 + 0.1 * k);
        kill(-pid, SIGINT);
        int st = bl_proc_wait(pid, 60);
        CU_ASSERT(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 130);
        char *text = bl_slurp(log, NULL);
        bool one_line = text && strncmp(text, "batchlab run: stopped by ", 25) == 0 &&
                        strchr(text, '\n') == text + strlen(text) - 1;
        if (!one_line)
            printf("\n  try %d: wait status %d: %s", k, st, text ? text : "(no output)");
        CU_ASSERT(one_line);
        free(text);
        CU_ASSERT(child <= 0 || gone(child, 30));
    }
}

/* The same in a terminal, with the progress line shown: the stop clears
 * that line ("\r\033[K") before its message, which it once followed
 * on the same line. stderr is a pseudo-terminal whose output is read
 * back. */
static void test_sigint_in_terminal(void)
{
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    CU_ASSERT_FATAL(master >= 0);
    CU_ASSERT_FATAL(grantpt(master) == 0 && unlockpt(master) == 0);
    char slave[256];
    snprintf(slave, sizeof slave, "%s", ptsname(master));
    const char *dir = bl_tmpdir();
    char out[700];
    snprintf(out, sizeof out, "%s/out", dir);
    const char *argv[] = {bl_exe(),     "run",   "--platform", "platforms/kth-sp2.xml",
                          "--workload", big_swf, "--policy",   "alp",
                          "--out",      out,     NULL};
    bl_proc_opts o = {.log = slave, .own_group = true};
    pid_t pid = bl_proc_start(argv, &o);
    CU_ASSERT_FATAL(pid > 0);
    CU_ASSERT(wait_child(pid, 0, 60) > 0);
    /* the first progress line comes after a second of simulation */
    char text[8192];
    size_t n = 0;
    fcntl(master, F_SETFL, O_NONBLOCK);
    for (double t0 = bl_now_s(); bl_now_s() - t0 < 20 && !memchr(text, '%', n);) {
        ssize_t got = read(master, text + n, sizeof text - 1 - n);
        if (got > 0)
            n += (size_t)got;
        else
            sleep_s(0.05);
    }
    kill(-pid, SIGINT);
    int st = bl_proc_wait(pid, 60);
    CU_ASSERT(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 130);
    for (double t0 = bl_now_s(); bl_now_s() - t0 < 2 && n < sizeof text - 1;) {
        ssize_t got = read(master, text + n, sizeof text - 1 - n);
        if (got > 0)
            n += (size_t)got;
        else
            break;
    }
    close(master);
    text[n] = '\0';
    const char *msg = strstr(text, "batchlab run: stopped by ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(msg);
    CU_ASSERT_PTR_NOT_NULL(memchr(text, '%', (size_t)(msg - text))); /* progress was shown */
    bool cleared = msg - text >= 4 && strncmp(msg - 4, "\r\033[K", 4) == 0;
    if (!cleared)
        printf("\n  the terminal showed: %s", text);
    CU_ASSERT(cleared);
}

/* A stop while the child writes the outputs (its temporary files are
 * there): the child removes them as it dies; nothing is left. */
static void test_stop_while_writing(void)
{
    const char *dir = bl_tmpdir();
    char out[700], log[700], names[512];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    pid_t pid = start(big_run_of(mid_swf, "fcfs", out), log, 0);
    CU_ASSERT_FATAL(pid > 0);
    double end = bl_now_s() + 900;
    bool writing = false;
    while (!writing && bl_now_s() < end && bl_proc_alive(pid)) {
        writing = bl_dir_entries(out, names, sizeof names) > 0 && strstr(names, ".tmp.");
        if (!writing)
            sleep_s(0.002);
    }
    CU_ASSERT(writing);
    kill(pid, SIGTERM);
    int st = bl_proc_wait(pid, 60);
    CU_ASSERT(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGTERM);
    CU_ASSERT_EQUAL(bl_dir_entries(out, names, sizeof names), 0);
    if (names[0])
        printf("\n  left in %s: %s", out, names);
}

/* The parent killed outright (SIGKILL cannot be forwarded): the kernel
 * stops the child (PR_SET_PDEATHSIG), which writes nothing. */
static void test_parent_killed(void)
{
    const char *dir = bl_tmpdir();
    char out[700], log[700];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    pid_t pid = start(big_run(out), log, 0);
    pid_t child = wait_child(pid, 0, 60);
    CU_ASSERT_FATAL(child > 0);
    sleep_s(0.2);
    kill(pid, SIGKILL);
    bl_proc_wait(pid, 30);
    CU_ASSERT(gone(child, 30));
    sleep_s(0.5);
    CU_ASSERT_EQUAL(bl_dir_entries(out, NULL, 0), 0);
}

/* compare stopped during its second policy: the first one's folder is
 * complete, the second one's is empty, and the command says which. */
static void test_compare_stopped(void)
{
    const char *dir = bl_tmpdir();
    char out[700], log[700], first[800], second[800];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(first, sizeof first, "%s/fcfs", out);
    snprintf(second, sizeof second, "%s/conservative", out);
    const char *argv[] = {bl_exe(),     "compare", "--platform", "platforms/kth-sp2.xml",
                          "--workload", mid_swf,   "--policies", "fcfs,conservative",
                          "--out",      out,       "-q",         "--outputs",
                          "summary",    NULL};
    pid_t pid = start(argv, log, 0);
    pid_t c1 = wait_child(pid, 0, 60);
    CU_ASSERT_FATAL(c1 > 0);
    pid_t c2 = wait_child(pid, c1, 900);
    CU_ASSERT_FATAL(c2 > 0);
    kill(pid, SIGTERM);
    int st = bl_proc_wait(pid, 60);
    CU_ASSERT(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGTERM);
    CU_ASSERT(log_has(log, "batchlab compare: conservative: stopped by "));
    CU_ASSERT(log_has(log, "batchlab compare: the 1 policy before conservative finished; its "
                           "folder in "));
    CU_ASSERT(gone(c2, 30));
    CU_ASSERT_EQUAL(bl_dir_entries(first, NULL, 0), 1); /* summary.json */
    CU_ASSERT_EQUAL(bl_dir_entries(second, NULL, 0), 0);
}

/* A sweep task stopped by a time limit (SIGTERM, as timeout, GNU parallel's
 * --timeout and Slurm send) stays pending: no summary.json, so neither the
 * resume nor the merge takes it for finished. */
static void test_sweep_task_stopped(void)
{
    const char *dir = bl_tmpdir();
    char run[700], log[700], line[2400], tasks[800];
    snprintf(run, sizeof run, "%s/runs/r1", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(line, sizeof line,
             "batchlab sweep task --out '%s' --platform platforms/kth-sp2.xml --workload '%s' "
             "--policy conservative --seed 1\n",
             run, big_swf);
    snprintf(tasks, sizeof tasks, "%s/tasks.txt", dir);
    FILE *f = fopen(tasks, "w");
    CU_ASSERT_FATAL(f != NULL);
    fputs(line, f);
    fclose(f);
    const char *argv[] = {bl_exe(),
                          "sweep",
                          "task",
                          "--out",
                          run,
                          "--platform",
                          "platforms/kth-sp2.xml",
                          "--workload",
                          big_swf,
                          "--policy",
                          "conservative",
                          "--seed",
                          "1",
                          NULL};
    pid_t pid = start(argv, log, 0);
    pid_t child = wait_child(pid, 0, 60);
    CU_ASSERT_FATAL(child > 0);
    sleep_s(0.2);
    kill(pid, SIGTERM);
    int st = bl_proc_wait(pid, 60);
    CU_ASSERT(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGTERM);
    CU_ASSERT(log_has(log, "stays pending"));
    CU_ASSERT(gone(child, 30));
    char summary[800];
    snprintf(summary, sizeof summary, "%s/summary.json", run);
    CU_ASSERT(access(summary, F_OK) != 0);
    char *pending = NULL;
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s' sweep pending '%s'", bl_exe(), tasks);
    CU_ASSERT_EQUAL(bl_system(cmd, &pending), 0);
    CU_ASSERT(pending && strstr(pending, run));
    free(pending);
    snprintf(cmd, sizeof cmd, "'%s' sweep merge '%s' -o '%s/results.csv'", bl_exe(), dir, dir);
    CU_ASSERT_EQUAL(bl_system(cmd, NULL), 1); /* nothing finished to merge */
}

/* True if some process's command line holds needle. */
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

/* bench/sweep --timeout: GNU parallel stops a run that takes too long with
 * SIGTERM; the run leaves no process and no summary.json, stays pending,
 * and the merge finds nothing finished. */
static void test_bench_sweep_timeout(void)
{
    if (bl_system("command -v parallel", NULL) != 0) {
        printf("\n  skipped: GNU parallel is not installed");
        return;
    }
    const char *dir = bl_tmpdir();
    char grid_text[1200], out[700], cmd[3000], *text = NULL;
    snprintf(grid_text, sizeof grid_text,
             "platform = %s\nworkload.big = %s\nloads = log\npolicies = alp\n"
             "seeds = 1\nrun_args = --check\n",
             bl_src("platforms/kth-sp2.xml"), big_swf);
    const char *grid = bl_write_tmp("grid.txt", grid_text);
    snprintf(out, sizeof out, "%s/sw", dir);
    snprintf(cmd, sizeof cmd, "BATCHLAB='%s' '%s' -j 1 --timeout 1 '%s' '%s'", bl_exe(),
             bl_src("bench/sweep"), grid, out);
    int st = bl_system(cmd, &text);
    CU_ASSERT_EQUAL(st, 1);
    CU_ASSERT(bl_contains(text, "1 of 1 runs failed"));
    free(text);
    sleep_s(0.5);
    CU_ASSERT(!process_with(out));
    char summary[900];
    snprintf(summary, sizeof summary, "%s/runs/big/load-log/alp/seed-1/summary.json", out);
    CU_ASSERT(access(summary, F_OK) != 0);
    snprintf(cmd, sizeof cmd, "'%s' sweep pending '%s/tasks.txt' | wc -l", bl_exe(), out);
    CU_ASSERT_EQUAL(bl_system(cmd, &text), 0);
    CU_ASSERT(text && atoi(text) == 1);
    free(text);
}

/* What a signal handler calls: every temporary file still open goes. */
static void test_unlink_all(void)
{
    const char *dir = bl_tmpdir();
    char path[700];
    snprintf(path, sizeof path, "%s/x.csv", dir);
    eng_afile a;
    CU_ASSERT_EQUAL_FATAL(eng_afile_open(&a, path, NULL), 0);
    fputs("half", a.f);
    fflush(a.f);
    CU_ASSERT_EQUAL(bl_dir_entries(dir, NULL, 0), 1);
    eng_afile_unlink_all();
    CU_ASSERT_EQUAL(bl_dir_entries(dir, NULL, 0), 0);
    eng_afile_abort(&a);
    /* committed files are no longer listed */
    CU_ASSERT_EQUAL_FATAL(eng_afile_open(&a, path, NULL), 0);
    CU_ASSERT_EQUAL(eng_afile_commit(&a, NULL), 0);
    eng_afile_unlink_all();
    CU_ASSERT_EQUAL(bl_dir_entries(dir, NULL, 0), 1);
}

/* ---- memory ---------------------------------------------------------------- */

/* Under an address-space limit too small for the replay, the run stops
 * with a message that names memory and the limit, and writes nothing.
 * (Not under AddressSanitizer, which needs terabytes of address space.) */
static void test_memory_limit(void)
{
#if defined(__SANITIZE_ADDRESS__)
    printf("\n  skipped under AddressSanitizer");
#else
    const char *dir = bl_tmpdir();
    char out[700], log[700];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    bl_proc_opts o = {.log = log, .as_bytes = 160LL << 20};
    pid_t pid = bl_proc_start(big_run(out), &o);
    int st = bl_proc_wait(pid, 300);
    bool ok = st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 1;
    CU_ASSERT(ok);
    if (!ok)
        show("ulimit -v 163840", st, log);
    CU_ASSERT(log_has(log, "out of memory"));
    CU_ASSERT(log_has(log, "address-space limit 160.0 MiB, ulimit -v 163840"));
    CU_ASSERT_EQUAL(bl_dir_entries(out, NULL, 0), 0);
#endif
}

static int setup(void)
{
    /* orphans (a child whose parent the test killed) come back here */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    const char *dir = bl_tmpdir();
    snprintf(big_swf, sizeof big_swf, "%s/big.swf", dir);
    snprintf(small_swf, sizeof small_swf, "%s/small.swf", dir);
    const char *gen[] = {bl_exe(), "generate", "lublin", "--nodes", "100",   "--jobs",
                         "100000", "--seed",   "1",      "-o",      big_swf, NULL};
    if (bl_proc_wait(start(gen, NULL, 0), 300) != 0)
        return 1;
    snprintf(mid_swf, sizeof mid_swf, "%s/mid.swf", dir);
    const char *gen_mid[] = {bl_exe(), "generate", "lublin", "--nodes", "100",   "--jobs",
                             "20000",  "--seed",   "2",      "-o",      mid_swf, NULL};
    if (bl_proc_wait(start(gen_mid, NULL, 0), 300) != 0)
        return 1;
    FILE *f = fopen(small_swf, "w");
    if (!f)
        return 1;
    for (int i = 1; i <= 400; i++)
        fprintf(f, "%d %d 0 %d %d -1 -1 %d %d -1 1 %d 1 1 1 1 -1 -1\n", i, 10 * i, 30 + i % 50,
                1 + i % 4, 1 + i % 4, 100, 1 + i % 5);
    return fclose(f) == 0 ? 0 : 1;
}

int bl_suite_faults(void)
{
    CU_pSuite s = CU_add_suite("faults", setup, NULL);
    if (!s ||
        !CU_add_test(s, "a file-size limit: named file, nothing left", test_file_size_limit) ||
        !CU_add_test(s, "SIGTERM stops the simulation, nothing left", test_sigterm) ||
        !CU_add_test(s, "SIGINT stops the simulation, nothing left", test_sigint) ||
        !CU_add_test(s, "SIGHUP stops the simulation, nothing left", test_sighup) ||
        !CU_add_test(s, "a second SIGINT exits at once", test_second_sigint) ||
        !CU_add_test(s, "Ctrl-C (SIGINT to the process group): one line", test_sigint_to_group) ||
        !CU_add_test(s, "Ctrl-C in a terminal clears the progress line", test_sigint_in_terminal) ||
        !CU_add_test(s, "SIGTERM while the outputs are written", test_stop_while_writing) ||
        !CU_add_test(s, "a parent killed outright takes its child", test_parent_killed) ||
        !CU_add_test(s, "compare stopped halfway", test_compare_stopped) ||
        !CU_add_test(s, "a stopped sweep task stays pending", test_sweep_task_stopped) ||
        !CU_add_test(s, "bench/sweep --timeout: the run stays pending", test_bench_sweep_timeout) ||
        !CU_add_test(s, "signal handlers remove temporary files", test_unlink_all) ||
        !CU_add_test(s, "a memory limit is named", test_memory_limit))
        return 1;
    return 0;
}
