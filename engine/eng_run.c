/* eng_run.c — see eng_run.h. */
#define _DEFAULT_SOURCE /* wait4 */
#include "eng_run.h"

#include "eng_sha256.h"
#include "eng_util.h"

#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

void eng_run_report_fini(eng_run_report *rep)
{
    if (!rep)
        return;
    free(rep->job_id);
    free(rep->submit_s);
    free(rep->start_s);
    free(rep->end_s);
    free(rep->state);
    free(rep->n_hosts);
    free(rep->n_runs);
    free(rep->runs_off);
    free(rep->runs);
    memset(rep, 0, sizeof *rep);
}

long eng_run_report_find(const eng_run_report *rep, int64_t id)
{
    for (size_t i = 0; i < rep->n_jobs; i++)
        if (rep->job_id[i] == id)
            return (long)i;
    return -1;
}

static int alloc_report(eng_run_report *rep, size_t n, size_t n_runs)
{
    size_t n1 = n ? n : 1, h1 = n_runs ? n_runs : 1;
    rep->n_jobs = n;
    rep->n_runs_total = n_runs;
    rep->job_id = malloc(n1 * sizeof *rep->job_id);
    rep->submit_s = malloc(n1 * sizeof *rep->submit_s);
    rep->start_s = malloc(n1 * sizeof *rep->start_s);
    rep->end_s = malloc(n1 * sizeof *rep->end_s);
    rep->state = malloc(n1 * sizeof *rep->state);
    rep->n_hosts = malloc(n1 * sizeof *rep->n_hosts);
    rep->n_runs = malloc(n1 * sizeof *rep->n_runs);
    rep->runs_off = malloc(n1 * sizeof *rep->runs_off);
    rep->runs = malloc(h1 * sizeof *rep->runs);
    if (!rep->job_id || !rep->submit_s || !rep->start_s || !rep->end_s || !rep->state ||
        !rep->n_hosts || !rep->n_runs || !rep->runs_off || !rep->runs) {
        eng_run_report_fini(rep);
        return ENG_NOMEM;
    }
    return ENG_OK;
}

static int fill_report(const eng_sim_result *r, const eng_summary *s, const eng_breakdowns *bd,
                       bool summary_only, eng_run_report *rep)
{
    const eng_job_result *res = eng_core_results(r->core);
    const eng_host_run *runs = eng_core_alloc_runs(r->core);
    size_t n = summary_only ? 0 : r->prep.n_jobs, total = 0;
    for (size_t i = 0; i < n; i++)
        total += (size_t)res[i].n_runs;
    if (!summary_only && alloc_report(rep, n, total))
        return ENG_NOMEM;
    memcpy(&rep->summary, s, sizeof rep->summary);
    eng_breakdown_brief(bd, &rep->breakdown);
    rep->wall_s = r->wall_s;
    rep->policy_wall_s = eng_core_policy_wall_s(r->core);
    eng_core_policy_report(r->core, rep->policy_report, sizeof rep->policy_report);
    rep->n_platform_hosts = r->platform->n_hosts;
    rep->simgrid_energy_j = r->simgrid_energy_j;
    size_t off = 0;
    for (size_t i = 0; i < n; i++) {
        rep->job_id[i] = r->prep.jobs[i].id;
        rep->submit_s[i] = r->prep.jobs[i].submit_s;
        rep->start_s[i] = res[i].start_s;
        rep->end_s[i] = res[i].end_s;
        rep->state[i] = res[i].state;
        rep->n_hosts[i] = res[i].n_hosts;
        rep->n_runs[i] = res[i].n_runs;
        rep->runs_off[i] = off;
        memcpy(rep->runs + off, runs + res[i].runs_off, (size_t)res[i].n_runs * sizeof *rep->runs);
        off += (size_t)res[i].n_runs;
    }
    return ENG_OK;
}

/* ---- signals -------------------------------------------------------------
 *
 * The parent: eng_run_forward_signal() (called from the command line's
 * handlers) passes SIGINT, SIGTERM and SIGHUP on to the child alive now;
 * the parent then reads the child's end and waits for it as usual. The
 * child: asks the kernel for SIGTERM when its parent dies (a parent killed
 * with SIGKILL cannot forward anything), removes its temporary output files
 * when a stop signal arrives, and dies of that signal. SIGXFSZ is ignored in
 * the child so that the file-size limit (ulimit -f) fails the write with
 * EFBIG, which the writers report, instead of killing the child silently. */

static volatile sig_atomic_t live_child; /* pid of the running child, or 0 */
static volatile sig_atomic_t forwarded;  /* the first signal passed on, or 0 */
static bool in_child;

bool eng_run_forward_signal(int sig)
{
    pid_t pid = (pid_t)live_child;
    if (!forwarded)
        forwarded = sig;
    if (pid > 0 && kill(pid, sig) == 0)
        return true;
    return false;
}

int eng_run_stopped_by(void)
{
    return (int)forwarded;
}

static void child_on_stop(int sig)
{
    eng_afile_unlink_all();
    signal(sig, SIG_DFL);
    raise(sig); /* delivered when the handler returns: the child dies of it */
}

static void stop_set(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGHUP);
}

static void child_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = child_on_stop;
    stop_set(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

/* In the child, first thing, with the stop signals still blocked. */
static void child_setup(pid_t parent)
{
    in_child = true;
    live_child = 0;
    child_signals();
    signal(SIGXFSZ, SIG_IGN);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) /* the parent died before prctl */
        raise(SIGTERM);
}

/* Runs spec in this process (the child's side of eng_run_isolated; SimGrid
 * then cannot be used again in this process). */
static int run_here(const eng_run_spec *spec, eng_run_report *rep, eng_diag *d)
{
    memset(rep, 0, sizeof *rep);
    eng_manifest m = spec->manifest;
    m.platform_path = spec->platform_path;
    m.workload_sha256[0] = m.platform_sha256[0] = '\0';
    if (m.workload_path && access(m.workload_path, R_OK) == 0)
        eng_sha256_file(m.workload_path, m.workload_sha256, NULL);
    eng_sim_result r;
    int rc = eng_sim_run(spec->platform_path, spec->workload, &spec->sim, &r, d);
    if (rc)
        return rc;
    eng_sha256_file(spec->platform_path, m.platform_sha256, NULL);
    int64_t units = 0;
    for (size_t i = 0; i < r.platform->n_pools; i++)
        units += spec->sim.prep.alloc == POL_ALLOC_NODE ? (int64_t)r.platform->pools[i].n_hosts
                                                        : r.platform->pools[i].total_cores;
    size_t n_ts;
    const eng_ts_row *ts = eng_core_timeseries(r.core, &n_ts);
    eng_summary s;
    if (eng_metrics_compute(&r.prep, eng_core_results(r.core), ts, n_ts, units, &s) ||
        eng_metrics_log_agreement(spec->workload, &r.prep, eng_core_results(r.core), &s)) {
        eng_sim_result_fini(&r);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    s.n_malformed = spec->workload->n_malformed;
    eng_metrics_cost(r.platform, eng_core_results(r.core), r.prep.n_jobs,
                     eng_core_alloc_runs(r.core), &s);
    eng_metrics_energy(r.core, eng_core_results(r.core), r.prep.n_jobs, &s);
    if (spec->sim.core.failures.enabled)
        eng_metrics_failures(&r.prep, eng_core_results(r.core), eng_core_wasted_node_s(r.core),
                             eng_core_wasted_unit_s(r.core), &s);
    m.wall_time_s = r.wall_s;
    eng_breakdowns bd;
    if (eng_breakdown_compute(&r.prep, eng_core_results(r.core), r.platform, &s, &bd)) {
        eng_sim_result_fini(&r);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    /* The report first: once the outputs are in place nothing may fail. */
    if (fill_report(&r, &s, &bd, spec->summary_only, rep))
        rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
    if (rc == ENG_OK && spec->out_dir) {
        if (in_child)
            child_signals(); /* SimGrid installs its own SIGINT handler */
        rc = eng_output_write(spec->out_dir, spec->workload, &r, &s, &bd, &m, d);
        if (rc != ENG_OK)
            eng_run_report_fini(rep);
    }
    eng_breakdown_fini(&bd);
    eng_sim_result_fini(&r);
    return rc;
}

/* ---- the child process ------------------------------------------------ */

typedef struct wire_head {
    uint32_t magic;
    int32_t rc;
    char msg[sizeof(((eng_diag *)0)->msg)];
    eng_summary summary;
    eng_bd_brief breakdown;
    double wall_s, policy_wall_s;
    char policy_report[sizeof(((eng_run_report *)0)->policy_report)];
    size_t n_jobs, n_runs_total, n_platform_hosts;
    double simgrid_energy_j;
} wire_head;

#define WIRE_MAGIC 0xBA7C4AB1u

static bool put(FILE *f, const void *p, size_t size, size_t n)
{
    return n == 0 || fwrite(p, size, n, f) == n;
}

static bool get(FILE *f, void *p, size_t size, size_t n)
{
    return n == 0 || fread(p, size, n, f) == n;
}

/* A child ends with _exit(), which skips LeakSanitizer's check at exit:
 * under AddressSanitizer the child checks itself first (a leak report then
 * fails the run, and the tests). */
static void child_exit(int status)
{
#if defined(__SANITIZE_ADDRESS__)
    __lsan_do_leak_check();
#endif
    _exit(status);
}

static void child_main(const eng_run_spec *spec, FILE *report)
{
    eng_diag d;
    eng_diag_clear(&d);
    eng_run_report rep;
    int rc = run_here(spec, &rep, &d);
    wire_head h;
    memset(&h, 0, sizeof h);
    h.magic = WIRE_MAGIC;
    h.rc = rc;
    snprintf(h.msg, sizeof h.msg, "%s", d.msg);
    if (rc == ENG_OK) {
        memcpy(&h.summary, &rep.summary, sizeof h.summary);
        h.breakdown = rep.breakdown;
        h.wall_s = rep.wall_s;
        h.policy_wall_s = rep.policy_wall_s;
        memcpy(h.policy_report, rep.policy_report, sizeof h.policy_report);
        h.n_jobs = rep.n_jobs;
        h.n_runs_total = rep.n_runs_total;
        h.n_platform_hosts = rep.n_platform_hosts;
        h.simgrid_energy_j = rep.simgrid_energy_j;
    }
    bool ok = put(report, &h, sizeof h, 1);
    if (rc == ENG_OK)
        ok = ok && put(report, rep.job_id, sizeof *rep.job_id, rep.n_jobs) &&
             put(report, rep.submit_s, sizeof *rep.submit_s, rep.n_jobs) &&
             put(report, rep.start_s, sizeof *rep.start_s, rep.n_jobs) &&
             put(report, rep.end_s, sizeof *rep.end_s, rep.n_jobs) &&
             put(report, rep.state, sizeof *rep.state, rep.n_jobs) &&
             put(report, rep.n_hosts, sizeof *rep.n_hosts, rep.n_jobs) &&
             put(report, rep.n_runs, sizeof *rep.n_runs, rep.n_jobs) &&
             put(report, rep.runs_off, sizeof *rep.runs_off, rep.n_jobs) &&
             put(report, rep.runs, sizeof *rep.runs, rep.n_runs_total);
    ok = fflush(report) == 0 && ok;
    eng_run_report_fini(&rep);
    /* No report (a full temporary folder, the file-size limit): the
     * message then goes out on stderr, which the parent shows as is. */
    if (!ok && rc != ENG_OK)
        fprintf(stderr, "batchlab: %s\n", d.msg);
    fflush(stderr);
    child_exit(ok ? 0 : 3);
}

/* SimGrid's log lines look like "[0.000000] file.cpp:95: [cat/LEVEL] text"
 * or "[0.000000] [cat/LEVEL] text". Returns the text, or NULL for lines
 * that are not SimGrid's. */
static const char *simgrid_text(const char *line)
{
    if (line[0] != '[' || !(line[1] >= '0' && line[1] <= '9'))
        return NULL;
    const char *p = strchr(line, ']');
    if (!p)
        return NULL;
    const char *tag = strstr(p, " [");
    if (tag) {
        const char *close = strstr(tag, "] ");
        const char *slash = strchr(tag, '/');
        if (close && slash && slash < close)
            return close + 2;
    }
    return p[1] == ' ' ? p + 2 : p + 1;
}

typedef struct captured {
    char *text; /* SimGrid's messages, one per line */
    size_t len, cap;
} captured;

static void capture_line(captured *c, const char *line, size_t n, bool forward)
{
    /* forwarded verbatim: our own progress and messages */
    char *copy = eng_strndup(line, n);
    if (!copy)
        return;
    size_t k = strlen(copy);
    while (k && (copy[k - 1] == '\n' || copy[k - 1] == '\r'))
        k--;
    char saved = copy[k];
    copy[k] = '\0';
    const char *sg = simgrid_text(copy);
    bool backtrace = strstr(copy, "  ->") == copy || strstr(copy, "acktrace") != NULL;
    if (sg) {
        if (strcmp(sg, "Exiting now.") != 0 && !backtrace &&
            !eng_grow(&c->text, &c->cap, c->len + strlen(sg) + 2, 1)) {
            memcpy(c->text + c->len, sg, strlen(sg));
            c->len += strlen(sg);
            c->text[c->len++] = '\n';
            c->text[c->len] = '\0';
        }
    } else if (!backtrace && forward && k > 0) {
        copy[k] = saved;
        fwrite(copy, 1, strlen(copy), stderr);
        fflush(stderr);
    }
    free(copy);
}

static void pump_stderr(int fd, captured *c)
{
    char buf[4096];
    char *line = NULL;
    size_t len = 0, cap = 0;
    ssize_t got;
    while ((got = read(fd, buf, sizeof buf)) != 0) {
        if (got < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (ssize_t i = 0; i < got; i++) {
            if (eng_grow(&line, &cap, len + 2, 1))
                break;
            line[len++] = buf[i];
            if (buf[i] == '\n' || buf[i] == '\r') {
                capture_line(c, line, len, true);
                len = 0;
            }
        }
    }
    if (len)
        capture_line(c, line, len, true);
    free(line);
}

/* A child process whose stderr the parent reads (forwarding our own lines,
 * keeping SimGrid's) and whose result arrives in a temporary file. */
typedef struct child {
    FILE *report; /* rewound, ready to read, after child_wait */
    captured cap;
    int status;
    struct rusage ru;
} child;

/* Forks; the child runs body(arg, report) and must _exit. */
static int child_run(void (*body)(const void *arg, FILE *report), const void *arg, child *c,
                     eng_diag *d)
{
    memset(c, 0, sizeof *c);
    c->report = tmpfile();
    if (!c->report)
        return eng_diag_set(d, ENG_IO, "cannot create a temporary file: %s", strerror(errno));
    int pipefd[2];
    if (pipe(pipefd) != 0) {
        fclose(c->report);
        return eng_diag_set(d, ENG_IO, "cannot create a pipe: %s", strerror(errno));
    }
    fflush(stdout);
    fflush(stderr);
    /* The stop signals wait until the child's pid is known here and the
     * child has its own handlers. */
    sigset_t stops, saved;
    stop_set(&stops);
    sigprocmask(SIG_BLOCK, &stops, &saved);
    pid_t parent = getpid();
    /* The child's peak memory counts the parent's resident heap pages it
     * inherits: give the freed ones back first (0.2-0.3 MB of the 10 MB a
     * replay costs before its first job, bench/HISTORY.md). */
    malloc_trim(0);
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        sigprocmask(SIG_SETMASK, &saved, NULL);
        close(pipefd[0]);
        close(pipefd[1]);
        fclose(c->report);
        return eng_diag_set(d, e == ENOMEM ? ENG_NOMEM : ENG_IO,
                            "cannot start the simulation process: %s", strerror(e));
    }
    if (pid == 0) {
        child_setup(parent);
        sigprocmask(SIG_SETMASK, &saved, NULL);
        close(pipefd[0]);
        dup2(pipefd[1], STDERR_FILENO);
        close(pipefd[1]);
        body(arg, c->report);
        _exit(4); /* body must not return */
    }
    live_child = pid;
    if (forwarded) /* a stop that came before this child */
        kill(pid, forwarded);
    sigprocmask(SIG_SETMASK, &saved, NULL);
    close(pipefd[1]);
    pump_stderr(pipefd[0], &c->cap);
    close(pipefd[0]);
    /* Waits without reaping first, so that the pid cannot be reused by
     * another process while a handler may still signal it. */
    siginfo_t info;
    while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR)
        ;
    live_child = 0;
    while (wait4(pid, &c->status, 0, &c->ru) < 0 && errno == EINTR)
        ;
    rewind(c->report);
    return ENG_OK;
}

/* " (limit: ...)" for the memory limits set on this process, or "". */
static void append_cgroup_limit(char *buf, size_t len)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (!f)
        return;
    char line[512], rel[512] = "";
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "0::", 3) == 0) {
            snprintf(rel, sizeof rel, "%s", line + 3);
            rel[strcspn(rel, "\n")] = '\0';
        }
    fclose(f);
    /* the tightest memory.max from this cgroup up to the root */
    unsigned long long best = 0;
    while (rel[0]) {
        char path[600], value[64];
        snprintf(path, sizeof path, "/sys/fs/cgroup%s/memory.max", rel);
        FILE *m = fopen(path, "r");
        if (m) {
            if (fgets(value, sizeof value, m) && value[0] >= '0' && value[0] <= '9') {
                unsigned long long v = strtoull(value, NULL, 10);
                if (!best || v < best)
                    best = v;
            }
            fclose(m);
        }
        char *slash = strrchr(rel, '/');
        if (!slash)
            break;
        *slash = '\0';
    }
    if (best) {
        size_t n = strlen(buf);
        snprintf(buf + n, len - n, "%scgroup memory.max %.1f MiB", n ? "; " : "",
                 (double)best / 1048576.0);
    }
}

const char *eng_run_memory_limits(char *buf, size_t len)
{
    char inner[400] = "";
    static const struct {
        int res;
        const char *name, *ulimit;
    } lims[] = {{RLIMIT_AS, "address-space", "ulimit -v"}, {RLIMIT_DATA, "data", "ulimit -d"}};
    for (size_t i = 0; i < sizeof lims / sizeof lims[0]; i++) {
        struct rlimit rl;
        if (getrlimit(lims[i].res, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
            continue;
        size_t n = strlen(inner);
        snprintf(inner + n, sizeof inner - n, "%s%s limit %.1f MiB, %s %llu", n ? "; " : "",
                 lims[i].name, (double)rl.rlim_cur / 1048576.0, lims[i].ulimit,
                 (unsigned long long)rl.rlim_cur / 1024);
    }
    append_cgroup_limit(inner, sizeof inner);
    if (inner[0])
        snprintf(buf, len, " (%s)", inner);
    else if (len)
        buf[0] = '\0';
    return buf;
}

/* True if SimGrid's last words say that memory ran out. */
static bool simgrid_out_of_memory(const char *text)
{
    static const char *const signs[] = {"Failed to allocate stack", "bad_alloc",
                                        "Cannot allocate memory", "out of memory", "Out of memory"};
    for (size_t i = 0; i < sizeof signs / sizeof signs[0]; i++)
        if (strstr(text, signs[i]))
            return true;
    return false;
}

/* The message for a child that left no report. */
static int child_failure(const child *c, const char *platform_path, eng_diag *d)
{
    char limits[512];
    if (c->cap.len) {
        size_t n = c->cap.len;
        while (n && c->cap.text[n - 1] == '\n')
            n--;
        if (simgrid_out_of_memory(c->cap.text))
            return eng_diag_set(d, ENG_NOMEM, "out of memory%s: SimGrid stopped: %.*s",
                                eng_run_memory_limits(limits, sizeof limits), (int)n, c->cap.text);
        return eng_diag_set(d, ENG_CHILD, "%s: SimGrid stopped: %.*s", platform_path, (int)n,
                            c->cap.text);
    }
    if (WIFSIGNALED(c->status) && WTERMSIG(c->status) == SIGKILL &&
        eng_run_memory_limits(limits, sizeof limits)[0])
        return eng_diag_set(d, ENG_CHILD,
                            "the simulation process was killed by signal %d (%s); "
                            "the kernel does this when memory runs out%s",
                            SIGKILL, strsignal(SIGKILL), limits);
    if (WIFSIGNALED(c->status))
        return eng_diag_set(d, ENG_CHILD, "the simulation process was killed by signal %d (%s)",
                            WTERMSIG(c->status), strsignal(WTERMSIG(c->status)));
    if (WIFEXITED(c->status) && WEXITSTATUS(c->status) == 3)
        return eng_diag_set(d, ENG_CHILD,
                            "the simulation process could not write its report "
                            "to the temporary folder (full, or over the "
                            "file-size limit)");
    return eng_diag_set(d, ENG_CHILD,
                        "the simulation process exited with status %d without "
                        "a report",
                        WEXITSTATUS(c->status));
}

static void child_done(child *c, int rc)
{
    /* On success SimGrid's warnings, if any, are worth seeing too. */
    if (rc == ENG_OK && c->cap.len)
        fprintf(stderr, "batchlab: SimGrid: %s", c->cap.text);
    free(c->cap.text);
    fclose(c->report);
}

static void run_body(const void *arg, FILE *report)
{
    child_main(arg, report);
}

int eng_run_isolated(const eng_run_spec *spec, eng_run_report *rep, eng_diag *d)
{
    memset(rep, 0, sizeof *rep);
    child c;
    int rc = child_run(run_body, spec, &c, d);
    if (rc)
        return rc;
    wire_head h;
    if (!get(c.report, &h, sizeof h, 1) || h.magic != WIRE_MAGIC) {
        rc = child_failure(&c, spec->platform_path, d);
    } else if (h.rc == ENG_NOMEM) {
        char limits[512];
        rc = eng_diag_set(d, h.rc, "%s%s", h.msg, eng_run_memory_limits(limits, sizeof limits));
    } else if (h.rc != ENG_OK) {
        rc = eng_diag_set(d, h.rc, "%s", h.msg);
    } else if (!spec->summary_only && alloc_report(rep, h.n_jobs, h.n_runs_total)) {
        char limits[512];
        rc = eng_diag_set(d, ENG_NOMEM, "out of memory%s",
                          eng_run_memory_limits(limits, sizeof limits));
    } else {
        rep->summary = h.summary;
        rep->breakdown = h.breakdown;
        rep->wall_s = h.wall_s;
        rep->policy_wall_s = h.policy_wall_s;
        memcpy(rep->policy_report, h.policy_report, sizeof rep->policy_report);
        rep->policy_report[sizeof rep->policy_report - 1] = '\0';
        rep->n_platform_hosts = h.n_platform_hosts;
        rep->simgrid_energy_j = h.simgrid_energy_j;
        rep->peak_rss_kb = (size_t)c.ru.ru_maxrss;
        FILE *f = c.report;
        bool ok = get(f, rep->job_id, sizeof *rep->job_id, h.n_jobs) &&
                  get(f, rep->submit_s, sizeof *rep->submit_s, h.n_jobs) &&
                  get(f, rep->start_s, sizeof *rep->start_s, h.n_jobs) &&
                  get(f, rep->end_s, sizeof *rep->end_s, h.n_jobs) &&
                  get(f, rep->state, sizeof *rep->state, h.n_jobs) &&
                  get(f, rep->n_hosts, sizeof *rep->n_hosts, h.n_jobs) &&
                  get(f, rep->n_runs, sizeof *rep->n_runs, h.n_jobs) &&
                  get(f, rep->runs_off, sizeof *rep->runs_off, h.n_jobs) &&
                  get(f, rep->runs, sizeof *rep->runs, h.n_runs_total);
        if (!ok) {
            eng_run_report_fini(rep);
            rc = eng_diag_set(d, ENG_CHILD, "the simulation's report is truncated");
        }
    }
    child_done(&c, rc);
    return rc;
}

/* ---- a platform loaded in a child ---------------------------------------- */

static void platform_body(const void *arg, FILE *report)
{
    const char *path = arg;
    eng_diag d;
    eng_diag_clear(&d);
    eng_platform *p = NULL;
    int rc = eng_sim_load_platform(path, &p, &d);
    wire_head h;
    memset(&h, 0, sizeof h);
    h.magic = WIRE_MAGIC;
    h.rc = rc;
    snprintf(h.msg, sizeof h.msg, "%s", d.msg);
    bool ok = put(report, &h, sizeof h, 1);
    if (rc == ENG_OK)
        ok = ok && eng_platform_save(report, p) == ENG_OK;
    ok = fflush(report) == 0 && ok;
    eng_platform_destroy(p);
    fflush(stderr);
    child_exit(ok ? 0 : 3);
}

int eng_run_load_platform(const char *path, eng_platform **out, eng_diag *d)
{
    *out = NULL;
    if (eng_check_not_dir(path, "a platform file", d) != ENG_OK)
        return ENG_IO;
    if (access(path, R_OK) != 0)
        return eng_diag_set(d, ENG_IO, "%s: cannot open platform file: %s", path, strerror(errno));
    child c;
    int rc = child_run(platform_body, path, &c, d);
    if (rc)
        return rc;
    wire_head h;
    if (!get(c.report, &h, sizeof h, 1) || h.magic != WIRE_MAGIC)
        rc = child_failure(&c, path, d);
    else if (h.rc != ENG_OK)
        rc = eng_diag_set(d, h.rc, "%s", h.msg);
    else
        rc = eng_platform_restore(c.report, path, out, d);
    child_done(&c, rc);
    return rc;
}
