/* test_pol_batsim.c — the Batsim bridge (policies/pol_batsim.c and
 * policies/batsim/pol_batsim_peer.c) with real schedulers speaking the
 * protocol over ZeroMQ, started by --scheduler-cmd.
 *
 *   equality   tests/batsim/bl_batsim_sched.py, FCFS and EASY backfilling
 *              written as a Batsim scheduler, gives jobs.csv byte for byte
 *              equal to the built-in fcfs and easy: on the hand-computed
 *              scenarios of bl_scenarios.h (S1's J3 backfilled to end
 *              exactly at the shadow time, S2's extra host used once...)
 *              and on the first 2000 jobs of KTH-SP2 (skipped when the log
 *              is absent), also under host failures (NOTIFY machine
 *              availability, COMPLETED_FAILED);
 *   decisions  REJECT_JOB and KILL_JOB on a hand-computed case; QUERY
 *              consumed_energy answered with hand-computed joules;
 *   rules      tests/batsim/bl_batsim_bad.py breaks one rule per mode:
 *              exit 1, a message naming the reply, the event and the
 *              rule, and nothing written;
 *   deadlines  a scheduler that dies, or hangs, ends the run within the
 *              timeout; a run stopped by a signal leaves no scheduler;
 *   usage      --alloc core, islands, --scheduler-* without the bridge:
 *              exit 2.
 * Skipped where python3 cannot import zmq (Debian's python3-zmq).
 */
#include "bl_proc.h"
#include "bl_scenarios.h"
#include "bl_test.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char python[64];

static void nap_ms(long ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* A python3 that imports zmq: Debian's first (a user's own interpreter
 * may lack the module), else the one on PATH. */
static bool find_python(void)
{
    static const char *const candidates[] = {"/usr/bin/python3", "python3"};
    for (size_t i = 0; i < 2; i++) {
        char line[128];
        snprintf(line, sizeof line, "%s -c 'import zmq' >/dev/null 2>&1", candidates[i]);
        if (bl_system(line, NULL) == 0) {
            snprintf(python, sizeof python, "%s", candidates[i]);
            return true;
        }
    }
    return false;
}

/* A workload file of these jobs (fields 5 and 8 the processors). */
static const char *write_swf(const char *name, const bl_jobspec *jobs, size_t n)
{
    char text[4096];
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(text + len, sizeof text - len,
                                "%lld %g -1 %g %d -1 -1 %d %g -1 1 1 1 1 1 1 -1 -1\n",
                                (long long)jobs[i].id, jobs[i].submit, jobs[i].run, jobs[i].procs,
                                jobs[i].procs, jobs[i].req);
    return bl_write_tmp(name, text);
}

static int serial;

/* Runs the workload under the bridge with script (a file of
 * tests/batsim) and its arguments; out gets the folder, *log what was
 * printed. Returns the exit status. */
static int run_bridge(const char *platform, const char *swf, const char *script, const char *args,
                      const char *extra, char *out, size_t len, char **log)
{
    char sock[512];
    int k = serial++;
    snprintf(out, len, "%s/bridge-%d", bl_tmpdir(), k);
    snprintf(sock, sizeof sock, "ipc://%s/sched-%d.sock", bl_tmpdir(), k);
    return bl_run(log,
                  "run -q --check --platform %s --workload %s --policy batsim --out %s "
                  "--scheduler-socket %s --scheduler-cmd \"%s %s --socket %s %s\" %s",
                  platform, swf, out, sock, python, bl_src(script), sock, args, extra ? extra : "");
}

/* jobs.csv of the built-in policy and of the Python scheduler, equal. */
static void check_equal_with(const char *platform, const char *swf, const char *policy,
                             const char *what, const char *extra)
{
    char builtin[1024], bridge[1024], a[1100], b[1100], args[64];
    snprintf(builtin, sizeof builtin, "%s/builtin-%d", bl_tmpdir(), serial++);
    char *log = NULL;
    int rc = bl_run(&log, "run -q --check --platform %s --workload %s --policy %s --out %s %s",
                    platform, swf, policy, builtin, extra ? extra : "");
    CU_ASSERT_EQUAL(rc, 0);
    free(log);
    snprintf(args, sizeof args, "--policy %s", policy);
    rc = run_bridge(platform, swf, "tests/batsim/bl_batsim_sched.py", args, extra, bridge,
                    sizeof bridge, &log);
    if (rc)
        printf("\n  %s under %s through the protocol: exit %d: %s", what, policy, rc, log);
    CU_ASSERT_EQUAL(rc, 0);
    free(log);
    snprintf(a, sizeof a, "%s/jobs.csv", builtin);
    snprintf(b, sizeof b, "%s/jobs.csv", bridge);
    size_t la = 0, lb = 0;
    char *ta = bl_slurp(a, &la), *tb = bl_slurp(b, &lb);
    bool same = ta && tb && la == lb && memcmp(ta, tb, la) == 0;
    if (!same)
        printf("\n  %s under %s: jobs.csv differs from the built-in policy's (%s, %s)", what,
               policy, a, b);
    else
        printf("\n  %s under %s: jobs.csv equal to the built-in's (%zu bytes)", what, policy, la);
    CU_ASSERT(same);
    free(ta);
    free(tb);
}

static void check_equal(const char *platform, const char *swf, const char *policy, const char *what)
{
    check_equal_with(platform, swf, policy, what, NULL);
}

static void test_scenarios(void)
{
    static const struct {
        const char *name;
        const bl_jobspec *jobs;
        size_t n;
    } cases[] = {
        {"S1", S1, N_OF(S1)}, {"S1b", S1b, N_OF(S1b)}, {"S2", S2, N_OF(S2)}, {"S3", S3, N_OF(S3)},
        {"S5", S5, N_OF(S5)}, {"S7", S7, N_OF(S7)},    {"S9", S9, N_OF(S9)},
    };
    char platform[1024]; /* bl_src's buffers rotate */
    snprintf(platform, sizeof platform, "%s", bl_src("platforms/test/tiny-4.xml"));
    for (size_t i = 0; i < N_OF(cases); i++) {
        char name[32];
        snprintf(name, sizeof name, "%s.swf", cases[i].name);
        char swf[1024];
        snprintf(swf, sizeof swf, "%s", write_swf(name, cases[i].jobs, cases[i].n));
        check_equal(platform, swf, "fcfs", cases[i].name);
        check_equal(platform, swf, "easy", cases[i].name);
    }
}

/* S1 under EASY, by hand: J1 on hosts 0-1 at 0; J2 (4 hosts) waits for
 * the shadow time 10; J3 (2 hosts, 8 s) at 2 ends exactly then, so it is
 * backfilled at 2 on hosts 2-3, and J2 starts at 10. */
static void test_s1_by_hand(void)
{
    const char *swf = write_swf("S1-hand.swf", S1, N_OF(S1));
    char out[1024], path[1100];
    char *log = NULL;
    int rc = run_bridge(bl_src("platforms/test/tiny-4.xml"), swf, "tests/batsim/bl_batsim_sched.py",
                        "--policy easy", NULL, out, sizeof out, &log);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    free(log);
    snprintf(path, sizeof path, "%s/jobs.csv", out);
    char *csv = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
    /* job 3: started at 2, 8 s, ended 10, waited 0, on hosts 2-3; job 2 at 10 */
    const char *j2 = strstr(csv, "\n2,"), *j3 = strstr(csv, "\n3,");
    CU_ASSERT(j3 && bl_contains(j3, ",COMPLETED_SUCCESSFULLY,2,8,10,0,8,1,2-3,"));
    CU_ASSERT(j2 && bl_contains(j2, ",COMPLETED_SUCCESSFULLY,10,5,15,9,14,2.8,0-3,"));
    free(csv);
    snprintf(path, sizeof path, "%s/summary.json", out);
    char *sum = bl_slurp(path, NULL);
    CU_ASSERT(sum && bl_contains(sum, "bl_batsim_sched.py --socket"));
    free(sum);
}

static void test_kth(void)
{
    const char *path = bl_trace("KTH-SP2-1996-2.1-cln.swf");
    if (!path) {
        bl_skip_case("KTH-SP2-1996-2.1-cln.swf absent from %s: not replayed", bl_traces_dir());
        return;
    }
    char line[2048];
    char slice[1024];
    snprintf(slice, sizeof slice, "%s/kth-2000.swf", bl_tmpdir());
    snprintf(line, sizeof line, "grep -v '^;' '%s' | head -n 2000 > '%s'", path, slice);
    CU_ASSERT_EQUAL_FATAL(bl_system(line, NULL), 0);
    char platform[1024];
    snprintf(platform, sizeof platform, "%s", bl_src("platforms/kth-sp2.xml"));
    check_equal(platform, slice, "fcfs", "KTH-SP2, first 2000 jobs");
    check_equal(platform, slice, "easy", "KTH-SP2, first 2000 jobs");
}

/* Host failures (--failure-trace): the scheduler sees NOTIFY
 * machine_unavailable / machine_available and JOB_COMPLETED
 * COMPLETED_FAILED, and still decides as the built-in policies do. On
 * tiny-4: n1 down [4, 12] cuts J1 at 4 (on hosts 0-1), n3 down [6, 40]
 * holds the 4-host J2 until 40 (under EASY it also cuts J3, backfilled
 * on host 2 at 2). On the KTH-SP2 slice: 60 outages drawn by a fixed
 * generator. */
static void test_failures(void)
{
    static const bl_jobspec jobs[] = {
        {1, 0, 10, 20, 2, 0}, {2, 1, 5, 10, 4, 0}, {3, 2, 8, 8, 1, 0}, {4, 3, 30, 30, 2, 0}};
    char swf[1024], trace[1024], platform[1024], extra[1100];
    snprintf(swf, sizeof swf, "%s", write_swf("fail.swf", jobs, N_OF(jobs)));
    snprintf(trace, sizeof trace, "%s", bl_write_tmp("tiny.ftrace", "n1 4 12\nn3 6 40\n"));
    snprintf(platform, sizeof platform, "%s", bl_src("platforms/test/tiny-4.xml"));
    snprintf(extra, sizeof extra, "--failure-trace %s", trace);
    check_equal_with(platform, swf, "fcfs", "hand case, host failures", extra);
    check_equal_with(platform, swf, "easy", "hand case, host failures", extra);
    const char *path = bl_trace("KTH-SP2-1996-2.1-cln.swf");
    if (!path) {
        bl_skip_case("KTH-SP2-1996-2.1-cln.swf absent from %s: not replayed", bl_traces_dir());
        return;
    }
    char text[4096];
    size_t len = 0;
    unsigned long long x = 20261201;
    for (int k = 0; k < 60; k++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        unsigned h = 1 + (unsigned)(x >> 33) % 100;
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        unsigned long t = (unsigned long)(x >> 33) % 2000000;
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        unsigned long d = 600 + (unsigned long)(x >> 33) % 49400;
        len += (size_t)snprintf(text + len, sizeof text - len, "sp2-%u %lu %lu\n", h, t, t + d);
    }
    snprintf(trace, sizeof trace, "%s", bl_write_tmp("kth.ftrace", text));
    char line[2048], slice[1024];
    snprintf(slice, sizeof slice, "%s/kth-2000-f.swf", bl_tmpdir());
    snprintf(line, sizeof line, "grep -v '^;' '%s' | head -n 2000 > '%s'", path, slice);
    CU_ASSERT_EQUAL_FATAL(bl_system(line, NULL), 0);
    snprintf(platform, sizeof platform, "%s", bl_src("platforms/kth-sp2.xml"));
    snprintf(extra, sizeof extra, "--failure-trace %s", trace);
    check_equal_with(platform, slice, "fcfs", "KTH-SP2, first 2000 jobs, 60 outages", extra);
    check_equal_with(platform, slice, "easy", "KTH-SP2, first 2000 jobs, 60 outages", extra);
}

/* The workload of the misbehaving scheduler: jobs 1 and 2 at 0, job 3 at
 * 5, one host each. */
static const bl_jobspec BAD_JOBS[] = {
    {1, 0, 10, 20, 1, 0},
    {2, 0, 10, 20, 1, 0},
    {3, 5, 5, 10, 1, 0},
};

/* Runs bl_batsim_bad.py in mode; checks exit 1, the words, no outputs,
 * and no scheduler left behind. */
static void expect_refused(const char *mode, const char *extra, const char *words)
{
    const char *swf = write_swf("bad.swf", BAD_JOBS, N_OF(BAD_JOBS));
    char out[1024], args[128];
    snprintf(args, sizeof args, "--mode %s", mode);
    char *log = NULL;
    double t0 = bl_now_s();
    int rc = run_bridge(bl_src("platforms/test/tiny-4.xml"), swf, "tests/batsim/bl_batsim_bad.py",
                        args, extra, out, sizeof out, &log);
    double took = bl_now_s() - t0;
    if (rc != 1 || !log || !strstr(log, words))
        printf("\n  mode %s: exit %d, expected 1 and '%s' in: %s", mode, rc, words, log ? log : "");
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT(log && strstr(log, words));
    CU_ASSERT_EQUAL(bl_dir_entries(out, NULL, 0), 0);
    CU_ASSERT(took < 20);
    char line[1200];
    snprintf(line, sizeof line,
             "pgrep -f '[b]l_batsim_bad.py --mode %s --socket ipc://%s' >/dev/null", mode,
             bl_tmpdir());
    CU_ASSERT_NOT_EQUAL(bl_system(line, NULL), 0); /* no scheduler left */
    free(log);
}

static void test_rules(void)
{
    expect_refused("two_jobs_one_host", NULL,
                   "EXECUTE_JOB): job w0!2: resource 0 is given to two jobs at this instant");
    expect_refused("busy_host", NULL, "job w0!3: resource 0 is in use by a running job");
    expect_refused("too_many", NULL,
                   "job w0!1 requested 1 resource and the allocation \"0-1\" holds 2");
    expect_refused("bad_alloc", NULL, "expected an interval set of resource ids");
    expect_refused("unknown_job", NULL, "unknown job 'w0!999'");
    expect_refused("finished_job", NULL, "job w0!1 is finished: only a waiting job");
    expect_refused("past", NULL, "is in the past: before the request's now 0");
    expect_refused("bad_json", NULL, "malformed JSON at line 1");
    expect_refused("no_events", NULL, "expected an object with \"now\" (a number) and \"events\"");
    expect_refused("answer", NULL, "an ANSWER out of protocol order");
    expect_refused("events_at_end", NULL,
                   "SIMULATION_ENDS is answered by a message without events");
    expect_refused("call_past", NULL, "in the past");
    expect_refused("kill_waiting", NULL,
                   "KILL_JOB): job w0!2 is waiting: KILL_JOB stops running jobs");
    expect_refused("reject_running", NULL,
                   "REJECT_JOB): job w0!1 is running already: only a waiting job can be rejected");
}

/* REJECT_JOB and KILL_JOB by hand (bl_batsim_bad.py --mode reject_kill,
 * which also checks the JOB_KILLED it receives: job w0!1, progress 0.3,
 * and no JOB_COMPLETED for it): job 1 runs [0, 3] on host 0 and ends
 * COMPLETED_KILLED, job 2 is REJECTED at 0, job 3 runs [5, 10]; success 0,
 * 0, 1; summary.json counts them. */
static void test_reject_kill(void)
{
    const char *swf = write_swf("rk.swf", BAD_JOBS, N_OF(BAD_JOBS));
    char out[1024], path[1100];
    char *log = NULL;
    int rc = run_bridge(bl_src("platforms/test/tiny-4.xml"), swf, "tests/batsim/bl_batsim_bad.py",
                        "--mode reject_kill", NULL, out, sizeof out, &log);
    if (rc)
        printf("\n  reject_kill: exit %d: %s", rc, log);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    free(log);
    snprintf(path, sizeof path, "%s/jobs.csv", out);
    char *csv = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
    CU_ASSERT(bl_contains(csv, "\n1,rk,swf,0,1,20,0,COMPLETED_KILLED,0,3,3,0,3,1,0,"));
    CU_ASSERT(bl_contains(csv, "\n2,rk,swf,0,1,20,0,REJECTED,0,0,0,0,0,"));
    CU_ASSERT(bl_contains(csv, "\n3,rk,swf,5,1,10,1,COMPLETED_SUCCESSFULLY,5,5,10,0,5,1,0,"));
    free(csv);
    snprintf(path, sizeof path, "%s/summary.json", out);
    char *sum = bl_slurp(path, NULL);
    CU_ASSERT(sum && bl_contains(sum, "\"COMPLETED_KILLED\": 1") &&
              bl_contains(sum, "\"REJECTED\": 1"));
    free(sum);
}

/* QUERY consumed_energy (bl_batsim_bad.py --mode energy): the scheduler
 * asks in every reply and checks each ANSWER against the energy worked
 * out by hand on power-3x4.xml (its energy_at: 370 W over [0, 5], 430 W
 * over [5, 10]): 0 J at 0, 1850 J at 5, 1850 + 2150 = 4000 J at 10,
 * exiting 7 on a wrong or missing one (the run then fails). The total is
 * summary.json's too. Without power values, and for a request batchlab
 * does not answer, the QUERY stops the run. */
static void test_energy_query(void)
{
    const char *swf = write_swf("energy.swf", BAD_JOBS, N_OF(BAD_JOBS));
    char out[1024], path[1100];
    char *log = NULL;
    int rc = run_bridge(bl_src("platforms/test/power-3x4.xml"), swf,
                        "tests/batsim/bl_batsim_bad.py", "--mode energy", NULL, out, sizeof out,
                        &log);
    if (rc)
        printf("\n  energy: exit %d: %s", rc, log);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    free(log);
    snprintf(path, sizeof path, "%s/summary.json", out);
    char *sum = bl_slurp(path, NULL);
    CU_ASSERT(sum && bl_contains(sum, "\"total_j\": 4000,"));
    free(sum);
    expect_refused("energy", NULL,
                   "event 0 (QUERY): consumed_energy needs power values: the platform's hosts "
                   "have none");
    expect_refused("query_other", NULL,
                   "batchlab answers no request 'estimate_waiting_time' (only consumed_energy)");
}

static void test_deadlines(void)
{
    expect_refused("die", NULL, "the scheduler exited with status 3 before it replied");
    double t0 = bl_now_s();
    expect_refused("hang", "--scheduler-timeout 2", "sent no reply within 2 s");
    CU_ASSERT(bl_now_s() - t0 < 10);
    /* nobody listening at all */
    const char *swf = write_swf("none.swf", BAD_JOBS, N_OF(BAD_JOBS));
    char *log = NULL;
    int rc = bl_run(&log,
                    "run -q --platform %s --workload %s --policy batsim --scheduler-socket "
                    "ipc://%s/nobody.sock --scheduler-timeout 1",
                    bl_src("platforms/test/tiny-4.xml"), swf, bl_tmpdir());
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT(log && bl_contains(log, "request 1 (SIMULATION_BEGINS, t=0): the scheduler sent "
                                      "no reply within 1 s"));
    free(log);
}

/* SIGTERM to batchlab while the scheduler hangs: the run stops, and the
 * scheduler with it. */
static void test_signal(void)
{
    const char *swf = write_swf("sig.swf", BAD_JOBS, N_OF(BAD_JOBS));
    char sock[512], cmd[1024], out[512];
    snprintf(sock, sizeof sock, "ipc://%s/sig.sock", bl_tmpdir());
    snprintf(out, sizeof out, "%s/sig-out", bl_tmpdir());
    snprintf(cmd, sizeof cmd, "%s %s --mode hang --socket %s", python,
             bl_src("tests/batsim/bl_batsim_bad.py"), sock);
    const char *argv[] = {bl_exe(),
                          "run",
                          "-q",
                          "--platform",
                          bl_src("platforms/test/tiny-4.xml"),
                          "--workload",
                          swf,
                          "--policy",
                          "batsim",
                          "--out",
                          out,
                          "--scheduler-socket",
                          sock,
                          "--scheduler-cmd",
                          cmd,
                          "--scheduler-timeout",
                          "60",
                          NULL};
    bl_proc_opts o = {0};
    pid_t pid = bl_proc_start(argv, &o);
    CU_ASSERT_FATAL(pid > 0);
    char probe[1200];
    snprintf(probe, sizeof probe,
             "pgrep -f '[b]l_batsim_bad.py --mode hang --socket %s' >/dev/null", sock);
    bool seen = false;
    for (int i = 0; i < 100 && !seen; i++) {
        seen = bl_system(probe, NULL) == 0;
        if (!seen)
            nap_ms(100);
    }
    CU_ASSERT(seen);
    nap_ms(500); /* it has received its first job and hangs */
    kill(pid, SIGTERM);
    int st = bl_proc_wait(pid, 20);
    CU_ASSERT(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGTERM);
    bool gone = false;
    for (int i = 0; i < 30 && !gone; i++) {
        gone = bl_system(probe, NULL) != 0;
        if (!gone)
            nap_ms(100);
    }
    CU_ASSERT(gone);
    CU_ASSERT_EQUAL(bl_dir_entries(out, NULL, 0), 0);
}

static void test_usage(void)
{
    const char *swf = write_swf("usage.swf", BAD_JOBS, N_OF(BAD_JOBS));
    char *log = NULL;
    int rc = bl_run(&log, "run -q --platform %s --workload %s --policy batsim --alloc core",
                    bl_src("platforms/test/tiny-4.xml"), swf);
    CU_ASSERT_EQUAL(rc, 2);
    CU_ASSERT(
        log &&
        bl_contains(log, "policy batsim allocates whole hosts only: run it with --alloc node"));
    free(log);
    rc = bl_run(&log, "run -q --platform %s --workload %s --policy batsim",
                bl_src("platforms/test/islands-3-2.xml"), swf);
    CU_ASSERT_EQUAL(rc, 2);
    CU_ASSERT(log && bl_contains(log, "--islands ignore"));
    free(log);
    rc = bl_run(&log, "run -q --platform %s --workload %s --policy easy --scheduler-socket x",
                bl_src("platforms/test/tiny-4.xml"), swf);
    CU_ASSERT_EQUAL(rc, 2);
    CU_ASSERT(log && bl_contains(log, "go with --policy batsim, not easy"));
    free(log);
    rc = bl_run(&log, "run -q --platform %s --workload %s --policy batsim --scheduler-timeout 0",
                bl_src("platforms/test/tiny-4.xml"), swf);
    CU_ASSERT_EQUAL(rc, 2);
    free(log);
}

int bl_suite_pol_batsim(void)
{
    if (!find_python())
        return bl_skip("no python3 with the zmq module (Debian: python3-zmq)");
    CU_pSuite s = CU_add_suite("pol_batsim", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "S1 under EASY through the protocol, by hand", test_s1_by_hand);
    CU_add_test(s, "scenarios: jobs.csv equal to fcfs and easy", test_scenarios);
    CU_add_test(s, "KTH-SP2 first 2000 jobs: jobs.csv equal to fcfs and easy", test_kth);
    CU_add_test(s, "host failures: NOTIFY machine availability, jobs.csv equal", test_failures);
    CU_add_test(s, "a reply breaking a rule stops the run", test_rules);
    CU_add_test(s, "REJECT_JOB and KILL_JOB: known answers", test_reject_kill);
    CU_add_test(s, "QUERY consumed_energy: known answers, refusals", test_energy_query);
    CU_add_test(s, "a scheduler that dies or hangs", test_deadlines);
    CU_add_test(s, "a signal stops the run and the scheduler", test_signal);
    CU_add_test(s, "options that do not go with the bridge", test_usage);
    return 0;
}
