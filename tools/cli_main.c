/* cli_main.c — the batchlab command line: run, compare, info, policies.
 *
 * Exit status: 0 success; 1 bad input or a failed run (the message names
 * the file and line; out of memory names the memory limits; a failed write
 * names the file and the reason); 2 usage error; 3 a scheduling invariant
 * was violated (a bug in a policy or the engine, reported with the time and
 * job); 128 + N stopped by signal N (SIGINT, SIGTERM, SIGHUP).
 *
 * Stop signals: the first SIGINT, SIGTERM or SIGHUP is passed on to the
 * simulation child running now (eng_run_forward_signal), which removes its
 * temporary files and dies; the command then says so and exits 128 + N.
 * With no child running, or at a second signal, the process removes its
 * own temporary files and exits 128 + N at once (a child still alive then
 * gets SIGTERM from the kernel as its parent dies).
 */
#include "cli.h"
#include "cli_args.h"

#include "eng_error.h"
#include "eng_ftrace.h"
#include "eng_run.h"
#include "eng_scale.h"
#include "eng_sha256.h"
#include "eng_swf.h"
#include "eng_util.h"
#include "pol_policy.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef BATCHLAB_VERSION
#define BATCHLAB_VERSION "0.0.0"
#endif
#include "bl_commit.h" /* BATCHLAB_GIT_COMMIT, generated at build time */

int bl_cmd_generate(int argc, char **argv);
int bl_cmd_scale(int argc, char **argv);
int bl_cmd_standin(int argc, char **argv);
int bl_cmd_sweep(int argc, char **argv);
int bl_cmd_plot(int argc, char **argv);
int bl_cmd_fit(int argc, char **argv);

/* ---- policy specs: "easy" or "easy:backfill_order=sjf" ----------------- */

typedef struct policy_spec {
    const char *label; /* as typed, borrowed */
    const pol_type *type;
    pol_kv *kv; /* keys and values owned */
    size_t n_kv;
} policy_spec;

static void policy_spec_fini(policy_spec *p)
{
    for (size_t i = 0; i < p->n_kv; i++) {
        free((char *)p->kv[i].key);
        free((char *)p->kv[i].value);
    }
    free(p->kv);
    memset(p, 0, sizeof *p);
}

static int add_kv(const char *cmd, const char *what, const char *text, size_t len,
                  policy_spec *p)
{
    const char *eq = memchr(text, '=', len);
    if (!eq || eq == text) {
        fprintf(stderr, "batchlab %s: %s '%.*s': expected key=value\n", cmd, what, (int)len,
                text);
        return 2;
    }
    char *key = eng_strndup(text, (size_t)(eq - text));
    char *value = eng_strndup(eq + 1, len - (size_t)(eq - text) - 1);
    if (!key || !value) {
        free(key);
        free(value);
        fprintf(stderr, "batchlab %s: out of memory\n", cmd);
        return 1;
    }
    p->kv[p->n_kv++] = (pol_kv){.key = key, .value = value};
    return 0;
}

/* Option values out of range are a usage error before the run starts:
 * only an ENG_INVAL that the options cause counts (when init refuses the
 * stand-in pool without options too, or memory runs out, the run itself
 * decides). Returns 1 with the message in err. */
static int option_values_bad(const policy_spec *p, char *err, size_t errlen)
{
    char msg[400];
    if (p->n_kv == 0 || pol_try_options(p->type, p->kv, p->n_kv, msg, sizeof msg) != ENG_INVAL)
        return 0;
    char other[400];
    if (pol_try_options(p->type, NULL, 0, other, sizeof other) != ENG_OK)
        return 0;
    snprintf(err, errlen, "policy %s: %s", p->type->name,
             msg[0] ? msg : "an option value is out of range");
    return 1;
}

/* Parses spec plus --policy-opt pairs; prints the problem and returns 2
 * (1 when memory runs out). */
static int policy_spec_parse(const char *cmd, const char *spec, const char *const *extra,
                             size_t n_extra, policy_spec *out)
{
    memset(out, 0, sizeof *out);
    out->label = spec;
    size_t max_kv = n_extra + 1;
    for (const char *p = spec; *p; p++)
        max_kv += *p == ':';
    out->kv = calloc(max_kv, sizeof *out->kv);
    if (!out->kv) {
        fprintf(stderr, "batchlab %s: out of memory\n", cmd);
        return 1;
    }
    size_t name_len = strcspn(spec, ":");
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(name_len < 63 ? name_len : 63), spec);
    out->type = pol_find(name);
    if (!out->type) {
        fprintf(stderr, "batchlab %s: unknown policy '%s' (valid: %s)\n", cmd, name,
                pol_names());
        policy_spec_fini(out);
        return 2;
    }
    for (const char *p = spec + name_len; *p == ':';) {
        const char *start = p + 1;
        size_t len = strcspn(start, ":");
        int rc = add_kv(cmd, "policy option", start, len, out);
        if (rc) {
            policy_spec_fini(out);
            return rc;
        }
        p = start + len;
    }
    for (size_t i = 0; i < n_extra; i++) {
        int rc = add_kv(cmd, "--policy-opt", extra[i], strlen(extra[i]), out);
        if (rc) {
            policy_spec_fini(out);
            return rc;
        }
    }
    char err[512];
    if (pol_check_options(out->type, out->kv, out->n_kv, err, sizeof err) ||
        option_values_bad(out, err, sizeof err)) {
        fprintf(stderr, "batchlab %s: %s\n", cmd, err);
        policy_spec_fini(out);
        return 2;
    }
    return 0;
}

/* ---- options shared by run and compare ------------------------------- */

#define SIM_OPTIONS                                                                                \
    {"platform", 'p', BL_VALUE, "FILE", "SimGrid platform XML (required)"},                        \
        {"workload", 'w', BL_VALUE, "FILE", "SWF log, plain or .gz (required)"},                   \
        {"out", 'o', BL_VALUE, "DIR",                                                              \
         "write jobs.csv, dropped.csv, schedule.swf, summary.json, timeseries.csv"},               \
        {"walltime", 0, BL_VALUE, "kill|extend",                                                   \
         "kill jobs at their requested time (default), or plan and run with max(requested, "      \
         "actual)"},                                                                               \
        {"alloc", 0, BL_VALUE, "node|core",                                                        \
         "whole nodes per job (default), or pack jobs by cores"},                                  \
        {"islands", 0, BL_VALUE, "strict|ignore",                                                  \
         "where hosts name islands, a job that fits in one runs within one (strict, default)"},   \
        {"procs", 0, BL_VALUE, "alloc|req",                                                        \
         "processor count from field 5, else 8 (alloc, default), or field 8, else 5 (req)"},       \
        {"lenient", 0, BL_FLAG, NULL, "skip and count malformed SWF lines instead of stopping"},  \
        {"check", 0, BL_FLAG, NULL, "run the invariant checker after every scheduling call"},     \
        {"seed", 0, BL_VALUE, "N", "seed of policies that draw random numbers (default 1)"},      \
        {"type-field", 0, BL_VALUE, "queue|partition|app",                                         \
         "SWF field holding the job type: 15 (default), 16 or 14"},                                \
        {"init-share", 0, BL_VALUE, "X",                                                           \
         "per-type initialization times giving this share of total run time (0 <= X < 1)"},       \
        {"init-times", 0, BL_VALUE, "FILE",                                                        \
         "per-type initialization times from 'TYPE SECONDS' lines ('*' for the others)"},         \
        {"failures", 0, BL_VALUE, "none|model",                                                    \
         "host failures drawn from the hosts' occupation_probability (default none)"},            \
        {"failure-epoch", 0, BL_VALUE, "SECONDS",                                                  \
         "with --failures model: a host is down for whole epochs of this length (3600)"},         \
        {"failure-trace", 0, BL_VALUE, "FILE",                                                     \
         "host failures replayed from 'HOST DOWN_AT UP_AT' lines instead of drawn"},              \
        {"on-failure", 0, BL_VALUE, "kill|requeue",                                                \
         "a job whose host fails is killed (default) or queued again from scratch"},              \
        {"max-requeues", 0, BL_VALUE, "N",                                                         \
         "with --on-failure requeue: kill a job at its failure after N requeues (5)"},            \
        {"outputs", 0, BL_VALUE, "LIST",                                                           \
         "with --out: which files, among jobs, dropped, schedule, summary, timeseries (all)"},     \
        {"quiet", 'q', BL_FLAG, NULL, "no progress on stderr"}

typedef struct sim_args {
    const char *platform, *workload, *out;
    int walltime, alloc, procs, type_field, islands;
    bool lenient, check, quiet;
    unsigned long long seed;
    double init_share; /* NAN: none */
    const char *init_times_path;
    eng_init_time *init_times;
    size_t n_init_times;
    char init_label[600];
    unsigned outputs;
    int failures, on_failure;
    unsigned long long max_requeues;
    double failure_epoch;
    const char *failure_trace_path;
    eng_ftrace failure_trace;
    char failure_label[700];
} sim_args;

static void sim_args_fini(sim_args *s)
{
    free(s->init_times);
    s->init_times = NULL;
    eng_ftrace_fini(&s->failure_trace);
}

static const char *const walltime_names[] = {"kill", "extend"};
static const char *const alloc_names[] = {"node", "core"};
static const char *const islands_names[] = {"strict", "ignore"};
static const char *const procs_names[] = {"alloc", "req"};
static const char *const type_names[] = {"queue", "partition", "app"};

static int sim_args_parse(const char *cmd, const bl_args *a, sim_args *s)
{
    memset(s, 0, sizeof *s);
    s->platform = bl_args_value(a, "platform", NULL);
    s->workload = bl_args_value(a, "workload", NULL);
    s->out = bl_args_value(a, "out", NULL);
    if (!s->platform || !s->workload) {
        fprintf(stderr, "batchlab %s: --platform and --workload are required (see batchlab %s "
                        "--help)\n",
                cmd, cmd);
        return 2;
    }
    if (bl_args_choice(cmd, "walltime", bl_args_value(a, "walltime", "kill"), "kill|extend",
                       &s->walltime) ||
        bl_args_choice(cmd, "alloc", bl_args_value(a, "alloc", "node"), "node|core",
                       &s->alloc) ||
        bl_args_choice(cmd, "islands", bl_args_value(a, "islands", "strict"), "strict|ignore",
                       &s->islands) ||
        bl_args_choice(cmd, "procs", bl_args_value(a, "procs", "alloc"), "alloc|req",
                       &s->procs) ||
        bl_args_choice(cmd, "type-field", bl_args_value(a, "type-field", "queue"),
                       "queue|partition|app", &s->type_field) ||
        bl_args_u64(cmd, "seed", bl_args_value(a, "seed", "1"), &s->seed))
        return 2;
    s->init_share = NAN;
    snprintf(s->init_label, sizeof s->init_label, "none");
    const char *share = bl_args_value(a, "init-share", NULL);
    s->init_times_path = bl_args_value(a, "init-times", NULL);
    if (share && s->init_times_path) {
        fprintf(stderr, "batchlab %s: give --init-share or --init-times, not both\n", cmd);
        return 2;
    }
    if (share) {
        if (bl_args_double(cmd, "init-share", share, &s->init_share))
            return 2;
        if (!(s->init_share >= 0 && s->init_share < 1)) {
            fprintf(stderr, "batchlab %s: --init-share: expected a value in [0, 1), got '%s'\n",
                    cmd, share);
            return 2;
        }
        snprintf(s->init_label, sizeof s->init_label, "share %s", share);
    }
    if (s->init_times_path) {
        eng_diag d;
        eng_diag_clear(&d);
        if (eng_prep_read_init_times(s->init_times_path, &s->init_times, &s->n_init_times, &d)) {
            fprintf(stderr, "batchlab %s: %s\n", cmd, d.msg);
            return 1;
        }
        snprintf(s->init_label, sizeof s->init_label, "table %s", s->init_times_path);
    }
    if (bl_args_choice(cmd, "failures", bl_args_value(a, "failures", "none"), "none|model",
                       &s->failures) ||
        bl_args_choice(cmd, "on-failure", bl_args_value(a, "on-failure", "kill"), "kill|requeue",
                       &s->on_failure) ||
        bl_args_double(cmd, "failure-epoch", bl_args_value(a, "failure-epoch", "3600"),
                       &s->failure_epoch) ||
        bl_args_u64(cmd, "max-requeues", bl_args_value(a, "max-requeues", "5"), &s->max_requeues))
        return 2;
    if (s->max_requeues > 1000000) {
        fprintf(stderr, "batchlab %s: --max-requeues: expected at most 1000000\n", cmd);
        return 2;
    }
    char on_failure[64];
    snprintf(on_failure, sizeof on_failure, "%s", "kill");
    if (s->on_failure)
        snprintf(on_failure, sizeof on_failure, "requeue up to %llu times", s->max_requeues);
    if (!(s->failure_epoch > 0)) {
        fprintf(stderr, "batchlab %s: --failure-epoch: expected a positive duration\n", cmd);
        return 2;
    }
    snprintf(s->failure_label, sizeof s->failure_label, "none");
    if (s->failures)
        snprintf(s->failure_label, sizeof s->failure_label, "model, epoch %g s, %s",
                 s->failure_epoch, on_failure);
    s->failure_trace_path = bl_args_value(a, "failure-trace", NULL);
    if (s->failure_trace_path) {
        if (s->failures) {
            fprintf(stderr, "batchlab %s: give --failures model or --failure-trace, not both\n",
                    cmd);
            return 2;
        }
        eng_diag d;
        eng_diag_clear(&d);
        if (eng_ftrace_read(s->failure_trace_path, &s->failure_trace, &d)) {
            fprintf(stderr, "batchlab %s: %s\n", cmd, d.msg);
            return 1;
        }
        char sha[65] = "";
        eng_sha256_file(s->failure_trace_path, sha, NULL);
        snprintf(s->failure_label, sizeof s->failure_label, "trace %s (sha256 %s, %zu outages), %s",
                 s->failure_trace_path, sha, s->failure_trace.n, on_failure);
    }
    const char *outputs = bl_args_value(a, "outputs", NULL);
    if (outputs && !eng_output_parse(outputs, &s->outputs)) {
        fprintf(stderr, "batchlab %s: --outputs: expected names among jobs, dropped, schedule, "
                        "summary, timeseries, all, got '%s'\n",
                cmd, outputs);
        return 2;
    }
    s->lenient = bl_args_flag(a, "lenient");
    s->check = bl_args_flag(a, "check");
    s->quiet = bl_args_flag(a, "quiet");
    return 0;
}

/* Prints a failure (out of memory with the memory limits) and returns its
 * exit status: 3 for a violated invariant, 2 for options that do not go
 * together on this input (a policy that does not plan with islands on a
 * platform that has them), else 1. */
static int report_failure(const char *cmd, const eng_diag *d)
{
    char limits[512] = "";
    if (d->code == ENG_NOMEM && !strstr(d->msg, "ulimit -") && !strstr(d->msg, "memory.max"))
        eng_run_memory_limits(limits, sizeof limits);
    fprintf(stderr, "batchlab %s: %s%s\n", cmd, d->msg, limits);
    return d->code == ENG_INVARIANT ? 3 : d->code == ENG_USAGE ? 2 : 1;
}


/* ---- stop signals (see the top of this file) ---------------------------- */

static volatile sig_atomic_t stops_seen;

static void on_stop(int sig)
{
    if (stops_seen++ == 0 && eng_run_forward_signal(sig))
        return; /* the child stops; the command reports it */
    eng_afile_unlink_all();
    _exit(128 + sig);
}

static void install_stop_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop; /* no SA_RESTART: waits see EINTR */
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaddset(&sa.sa_mask, SIGHUP);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

/* After a child was stopped by signal sig: the message and 128 + sig. */
static int stopped(const char *cmd, const char *label, int sig, bool finished, const char *out)
{
    fprintf(stderr, "batchlab %s: %s%sstopped by %s (signal %d)", cmd, label ? label : "",
            label ? ": " : "", strsignal(sig), sig);
    if (finished)
        fprintf(stderr, " after the run finished%s%s\n",
                out ? "; its outputs are complete in " : "", out ? out : "");
    else
        fprintf(stderr, "; the run did not finish%s%s\n", out ? " and wrote nothing to " : "",
                out ? out : "");
    return 128 + sig;
}

static int read_workload(const char *cmd, const char *path, bool lenient, eng_workload **w)
{
    eng_diag d;
    eng_diag_clear(&d);
    eng_swf_read_opts o = {.lenient = lenient};
    if (eng_swf_read(path, &o, w, &d))
        return report_failure(cmd, &d);
    if ((*w)->n_malformed)
        fprintf(stderr, "batchlab %s: skipped %zu malformed lines (--lenient); the first: %s\n",
                cmd, (*w)->n_malformed, (*w)->first_malformed);
    if ((*w)->n_reordered)
        fprintf(stderr, "batchlab %s: %s: %zu jobs were out of submit order; replayed in "
                        "submit order\n",
                cmd, path, (*w)->n_reordered);
    for (int f = 1; f <= 18; f++)
        if ((*w)->n_ignored[f])
            fprintf(stderr, "batchlab %s: warning: %s: %zu values of field %d (%s) outside "
                            "the SWF range were read as -1 (unknown); the replay does not "
                            "use this field\n",
                    cmd, path, (*w)->n_ignored[f], f, eng_swf_field_name(f));
    return 0;
}

/* A replay needs at least one job. */
static int check_has_jobs(const char *cmd, const char *path, const eng_workload *w)
{
    if (w->n_jobs > 0)
        return 0;
    fprintf(stderr, "batchlab %s: %s: expected SWF job lines, found none%s\n", cmd, path,
            w->n_malformed ? " that could be read" : "");
    return 1;
}

static int check_readable(const char *cmd, const char *what, const char *path)
{
    if (access(path, R_OK) == 0)
        return 0;
    fprintf(stderr, "batchlab %s: %s: cannot open %s file: %s\n", cmd, path, what,
            strerror(errno));
    return 1;
}

static char *join_command(int argc, char **argv)
{
    size_t len = 16;
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) * 2 + 3;
    char *s = malloc(len), *p = s;
    if (!s)
        return NULL;
    p += sprintf(p, "batchlab");
    for (int i = 0; i < argc; i++) {
        bool quote = strpbrk(argv[i], " \t'\"$") != NULL || !argv[i][0];
        *p++ = ' ';
        if (quote)
            *p++ = '\'';
        for (const char *c = argv[i]; *c; c++) {
            if (*c == '\'' && quote) {
                p += sprintf(p, "'\\''");
                continue;
            }
            *p++ = *c;
        }
        if (quote)
            *p++ = '\'';
    }
    *p = '\0';
    return s;
}

static void fill_spec(eng_run_spec *spec, const sim_args *s, const eng_workload *w,
                      const policy_spec *ps, const char *command, const char *out_dir)
{
    memset(spec, 0, sizeof *spec);
    spec->platform_path = s->platform;
    spec->workload = w;
    spec->out_dir = out_dir;
    spec->sim.prep = (eng_prep_opts){
        .procs_field = (eng_procs_field)s->procs,
        .walltime = (eng_walltime)s->walltime,
        .alloc = (pol_alloc)s->alloc,
        .type_field = (eng_type_field)s->type_field,
        .init_share = s->init_share,
        .init_times = s->init_times,
        .n_init_times = s->n_init_times,
    };
    spec->sim.core = (eng_core_opts){
        .alloc = (pol_alloc)s->alloc,
        .ignore_islands = s->islands == 1,
        .policy = ps->type,
        .options = ps->kv,
        .n_options = ps->n_kv,
        .seed = s->seed,
        .check = s->check,
        .failures = {.enabled = s->failures == 1 || s->failure_trace_path,
                     .epoch_s = s->failure_epoch,
                     .seed = s->seed,
                     .requeue = s->on_failure == 1,
                     .max_requeues = (int32_t)s->max_requeues,
                     .trace = s->failure_trace.spans,
                     .n_trace = s->failure_trace.n,
                     .trace_path = s->failure_trace_path},
    };
    spec->sim.progress = !s->quiet && isatty(STDERR_FILENO);
    spec->manifest = (eng_manifest){
        .command = command,
        .policy = ps->label,
        .options = ps->kv,
        .n_options = ps->n_kv,
        .workload_path = s->workload,
        .platform_path = s->platform,
        .seed = s->seed,
        .walltime = walltime_names[s->walltime],
        .alloc = alloc_names[s->alloc],
        .islands = islands_names[s->islands],
        .procs_field = procs_names[s->procs],
        .type_field = type_names[s->type_field],
        .init = s->init_label,
        .failures = s->failure_label,
        .lenient = s->lenient,
        .check = s->check,
        .outputs = s->outputs,
    };
}


/* ---- printing --------------------------------------------------------- */

/* 1234567 -> "1,234,567"; fractional values keep `decimals` digits. */
static const char *fmt_grouped(char *buf, size_t len, double v, int decimals)
{
    char raw[64];
    snprintf(raw, sizeof raw, "%.*f", decimals, fabs(v));
    const char *dot = strchr(raw, '.');
    size_t int_len = dot ? (size_t)(dot - raw) : strlen(raw);
    char *p = buf;
    char *end = buf + len - 1;
    if (v < 0 && p < end)
        *p++ = '-';
    for (size_t i = 0; i < int_len && p < end; i++) {
        if (i && (int_len - i) % 3 == 0 && p < end)
            *p++ = ',';
        *p++ = raw[i];
    }
    for (const char *q = dot; q && *q && p < end; q++)
        *p++ = *q;
    *p = '\0';
    return buf;
}

static void print_drops(FILE *f, const eng_summary *s, const char *head)
{
    if (!s->n_dropped_total) {
        fprintf(f, "%snone\n", head);
        return;
    }
    fprintf(f, "%s%zu (", head, s->n_dropped_total);
    bool first = true;
    for (int k = 0; k < ENG_DROP_COUNT; k++)
        if (s->n_dropped[k]) {
            fprintf(f, "%s%zu %s", first ? "" : ", ", s->n_dropped[k], eng_drop_key(k));
            first = false;
        }
    fputs(")\n", f);
}

static void print_run_summary(const eng_run_spec *spec, const eng_run_report *r,
                              const policy_spec *ps)
{
    const eng_summary *s = &r->summary;
    char a[64], b[64], c[64];
    printf("batchlab run: %s on %s (%zu hosts, %s allocation), walltime %s\n", ps->label,
           spec->platform_path, r->n_platform_hosts, spec->manifest.alloc,
           spec->manifest.walltime);
    printf("  workload           %s\n", spec->manifest.workload_path);
    printf("  jobs               %zu read, %zu simulated: %zu completed, %zu killed at their "
           "requested time",
           s->n_input, s->n_simulated, s->n_completed, s->n_killed);
    if (spec->sim.core.failures.enabled)
        printf(", %zu cut by a host failure", s->n_failed);
    printf("\n");
    print_drops(stdout, s, "  dropped            ");
    if (s->n_est_from_runtime)
        printf("  estimates          %zu jobs had no requested time: planned with their run "
               "time\n",
               s->n_est_from_runtime);
    if (s->n_extended)
        printf("  estimates          %zu requests raised to the run time (--walltime extend)\n",
               s->n_extended);
    if (s->n_simulated == 0) {
        printf("  wait, slowdown     n/a: no job was simulated (every job was dropped)\n");
    } else {
        printf("  wait (s)           mean %s, median %s, p95 %s, max %s\n",
               fmt_grouped(a, sizeof a, s->wait_mean_s, 1),
               fmt_grouped(b, sizeof b, s->wait_median_s, 1),
               fmt_grouped(c, sizeof c, s->wait_p95_s, 1),
               fmt_grouped((char[64]){0}, 64, s->wait_max_s, 1));
        printf("  response (s)       mean %s\n", fmt_grouped(a, sizeof a, s->response_mean_s, 1));
        printf("  slowdown           mean %.3f; bounded (tau %g s) mean %.3f\n", s->slowdown_mean,
               ENG_BSLD_TAU_S, s->bsld_mean);
        printf("  utilization        %.4f over %s s\n", s->utilization,
               fmt_grouped(a, sizeof a, s->makespan_s, 0));
        printf("  queue length       mean %.2f, max %.0f\n", s->queue_mean, s->queue_max);
    }
    if (s->log.jobs > 0) {
        char rho[32] = "n/a";
        if (isfinite(s->log.wait_spearman))
            snprintf(rho, sizeof rho, "%.3f", s->log.wait_spearman);
        printf("  log agreement      %zu jobs with a logged wait: mean wait %s s logged, %s s "
               "simulated; mean |difference| %s s; Spearman %s\n",
               s->log.jobs, fmt_grouped(a, sizeof a, s->log.wait_mean_log_s, 1),
               fmt_grouped(b, sizeof b, s->log.wait_mean_sim_s, 1),
               fmt_grouped(c, sizeof c, s->log.wait_mae_s, 1), rho);
    }
    if (spec->sim.core.failures.enabled)
        printf("  host failures      %s: %zu jobs failed, %zu requeued, %s node-seconds wasted\n",
               spec->manifest.failures, s->n_failed, s->n_requeues,
               fmt_grouped(a, sizeof a, s->wasted_node_s, 0));
    if (s->cost > 0)
        printf("  cost               %s (price per host-second x time held)\n",
               fmt_grouped(a, sizeof a, s->cost, 2));
    if (s->init_total_s > 0)
        printf("  initialization     %s: share %.4f of run time, %s s in total, %zu job types\n",
               spec->manifest.init, s->init_share, fmt_grouped(a, sizeof a, s->init_total_s, 0),
               s->n_types);
    if (r->policy_report[0])
        printf("  policy report      %s\n", r->policy_report);
    printf("  simulation         %.3f s wall (%.3f s in the policy), %s jobs/s, peak memory "
           "%.1f MB\n",
           r->wall_s, r->policy_wall_s,
           fmt_grouped(a, sizeof a, r->wall_s > 0 ? (double)s->n_simulated / r->wall_s : 0, 0),
           (double)r->peak_rss_kb / 1024.0);
    if (spec->out_dir) {
        static const struct {
            unsigned bit;
            const char *name;
        } files[] = {{ENG_OUT_JOBS, "jobs.csv"},         {ENG_OUT_DROPPED, "dropped.csv"},
                     {ENG_OUT_SCHEDULE, "schedule.swf"}, {ENG_OUT_SUMMARY, "summary.json"},
                     {ENG_OUT_TIMESERIES, "timeseries.csv"}};
        unsigned want = spec->manifest.outputs ? spec->manifest.outputs : ENG_OUT_ALL;
        printf("  outputs            %s/{", spec->out_dir);
        bool first = true;
        for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
            if (want & files[i].bit) {
                printf("%s%s", first ? "" : ",", files[i].name);
                first = false;
            }
        printf("}\n");
    }
}

/* ---- run --------------------------------------------------------------- */

static const bl_opt run_opts[] = {
    SIM_OPTIONS,
    {"policy", 'P', BL_VALUE, "NAME", "scheduling policy, optionally NAME:key=value:... "
                                      "(see batchlab policies)"},
    {"policy-opt", 0, BL_MULTI, "KEY=VALUE", "option passed to the policy (repeatable)"},
};

static int cmd_run(int argc, char **argv)
{
    bl_args a;
    int rc = bl_args_parse("run", run_opts, sizeof run_opts / sizeof run_opts[0], argc, argv, 1,
                           &a);
    if (rc)
        return rc;
    if (a.help) {
        bl_args_usage("run", "--platform FILE --workload FILE --policy NAME [options]",
                      "Replays a workload on a platform under one policy and prints a summary.",
                      run_opts, sizeof run_opts / sizeof run_opts[0]);
        bl_args_fini(&a);
        return 0;
    }
    sim_args s;
    policy_spec ps = {0};
    eng_workload *w = NULL;
    char *command = NULL;
    const char *policy = bl_args_value(&a, "policy", NULL);
    rc = sim_args_parse("run", &a, &s);
    if (rc == 0 && !policy) {
        fprintf(stderr, "batchlab run: --policy is required (valid: %s)\n", pol_names());
        rc = 2;
    }
    const bl_arg *popt = bl_args_get(&a, "policy-opt");
    if (rc == 0)
        rc = policy_spec_parse("run", policy, popt->values, popt->n_values, &ps);
    if (rc == 0)
        rc = check_readable("run", "platform", s.platform);
    if (rc == 0)
        rc = read_workload("run", s.workload, s.lenient, &w);
    if (rc == 0)
        rc = check_has_jobs("run", s.workload, w);
    if (rc == 0 && !(command = join_command(argc, argv))) {
        fprintf(stderr, "batchlab run: out of memory\n");
        rc = 1;
    }
    if (rc == 0) {
        eng_run_spec spec;
        fill_spec(&spec, &s, w, &ps, command, s.out);
        spec.summary_only = true;
        eng_run_report rep;
        eng_diag d;
        eng_diag_clear(&d);
        int failed = eng_run_isolated(&spec, &rep, &d);
        if (eng_run_stopped_by()) {
            rc = stopped("run", NULL, eng_run_stopped_by(), !failed, s.out);
            if (!failed)
                eng_run_report_fini(&rep);
        } else if (failed) {
            rc = report_failure("run", &d);
        } else {
            print_run_summary(&spec, &rep, &ps);
            eng_run_report_fini(&rep);
        }
    }
    free(command);
    eng_workload_destroy(w);
    policy_spec_fini(&ps);
    sim_args_fini(&s);
    bl_args_fini(&a);
    return rc;
}

/* ---- compare ------------------------------------------------------------ */

static const bl_opt compare_opts[] = {
    SIM_OPTIONS,
    {"policies", 'P', BL_VALUE, "LIST",
     "comma-separated policies, each NAME or NAME:key=value:... (default fcfs,easy,"
     "conservative)"},
};

/* One output folder per policy: the spec with ':' and '=' made safe. */
static char *policy_dir(const char *out, const char *label)
{
    char *dir = eng_asprintf("%s/%s", out, label);
    if (!dir)
        return NULL;
    for (char *p = dir + strlen(out) + 1; *p; p++)
        if (*p == ':' || *p == '/' || *p == ' ')
            *p = *p == ':' ? '+' : '_';
    return dir;
}

static void print_compare(const char *const *labels, const eng_run_report *r, size_t n,
                          const sim_args *s)
{
    printf("batchlab compare: %s on %s (%zu hosts, %s allocation), walltime %s\n", s->workload,
           s->platform, r[0].n_platform_hosts, alloc_names[s->alloc],
           walltime_names[s->walltime]);
    printf("  %zu jobs read, %zu simulated; ", r[0].summary.n_input, r[0].summary.n_simulated);
    print_drops(stdout, &r[0].summary, "dropped ");
    struct {
        const char *name;
        int decimals;
        size_t off;
        bool count;
    } rows[] = {
        {"killed at walltime", 0, offsetof(eng_summary, n_killed), true},
        {"mean wait (s)", 1, offsetof(eng_summary, wait_mean_s), false},
        {"median wait (s)", 1, offsetof(eng_summary, wait_median_s), false},
        {"p95 wait (s)", 1, offsetof(eng_summary, wait_p95_s), false},
        {"max wait (s)", 0, offsetof(eng_summary, wait_max_s), false},
        {"mean response (s)", 1, offsetof(eng_summary, response_mean_s), false},
        {"mean slowdown", 3, offsetof(eng_summary, slowdown_mean), false},
        {"mean bounded slowdown", 3, offsetof(eng_summary, bsld_mean), false},
        {"utilization", 4, offsetof(eng_summary, utilization), false},
        {"makespan (s)", 0, offsetof(eng_summary, makespan_s), false},
        {"mean queue length", 2, offsetof(eng_summary, queue_mean), false},
        {"max queue length", 0, offsetof(eng_summary, queue_max), false},
        {"initialization share", 4, offsetof(eng_summary, init_share), false},
        {"total cost", 2, offsetof(eng_summary, cost), false},
        {"failed jobs", 0, offsetof(eng_summary, n_failed), true},
        {"requeued after failures", 0, offsetof(eng_summary, n_requeues), true},
        {"wasted node-seconds", 0, offsetof(eng_summary, wasted_node_s), false},
        /* agreement with the log's own schedule (eng_log_agreement) */
        {"log: jobs compared", 0, offsetof(eng_summary, log.jobs), true},
        {"log: mean wait logged (s)", 1, offsetof(eng_summary, log.wait_mean_log_s), false},
        {"log: mean wait sim. (s)", 1, offsetof(eng_summary, log.wait_mean_sim_s), false},
        {"log: mean |wait diff| (s)", 1, offsetof(eng_summary, log.wait_mae_s), false},
        {"log: wait Spearman", 3, offsetof(eng_summary, log.wait_spearman), false},
    };
    bool any_init = false, any_cost = false, any_log = false;
    for (size_t i = 0; i < n; i++) {
        any_init = any_init || r[i].summary.init_total_s > 0;
        any_cost = any_cost || r[i].summary.cost > 0;
        any_log = any_log || r[i].summary.log.jobs > 0;
    }
    /* columns as wide as the widest label or value, two spaces apart */
    int width = 14;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            printf("\n%-26s", "");
            for (size_t i = 0; i < n; i++)
                printf("%*s", width, labels[i]);
            printf("\n");
        }
        for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
            bool failure_row = rows[k].off == offsetof(eng_summary, n_failed) ||
                               rows[k].off == offsetof(eng_summary, n_requeues) ||
                               rows[k].off == offsetof(eng_summary, wasted_node_s);
            if ((rows[k].off == offsetof(eng_summary, init_share) && !any_init) ||
                (rows[k].off == offsetof(eng_summary, cost) && !any_cost) ||
                (failure_row && !s->failures && !s->failure_trace_path) ||
                (rows[k].off >= offsetof(eng_summary, log) &&
                 rows[k].off < offsetof(eng_summary, log) + sizeof(eng_log_agreement) && !any_log))
                continue;
            if (pass == 1)
                printf("%-26s", rows[k].name);
            for (size_t i = 0; i < n; i++) {
                const char *base = (const char *)&r[i].summary;
                double v = rows[k].count ? (double)*(const size_t *)(base + rows[k].off)
                                         : *(const double *)(base + rows[k].off);
                char buf[64];
                if (isfinite(v))
                    fmt_grouped(buf, sizeof buf, v, rows[k].decimals);
                else
                    snprintf(buf, sizeof buf, "n/a");
                if (pass == 0 && (int)strlen(buf) + 2 > width)
                    width = (int)strlen(buf) + 2;
                if (pass == 0 && (int)strlen(labels[i]) + 2 > width)
                    width = (int)strlen(labels[i]) + 2;
                if (pass == 1)
                    printf("%*s", width, buf);
            }
            if (pass == 1)
                printf("\n");
        }
    }
    printf("%-26s", "simulation wall time (s)");
    for (size_t i = 0; i < n; i++)
        printf("%*.2f", width, r[i].wall_s);
    printf("\n%-26s", "peak memory (MB)");
    for (size_t i = 0; i < n; i++)
        printf("%*.1f", width, (double)r[i].peak_rss_kb / 1024.0);
    printf("\n");
}

static int cmd_compare(int argc, char **argv)
{
    bl_args a;
    int rc = bl_args_parse("compare", compare_opts, sizeof compare_opts / sizeof compare_opts[0],
                           argc, argv, 1, &a);
    if (rc)
        return rc;
    if (a.help) {
        bl_args_usage("compare", "--platform FILE --workload FILE [--policies a,b,c] [options]",
                      "Replays the same workload on the same platform under several policies "
                      "and prints\nthe results side by side. With --out DIR each policy writes "
                      "its files into DIR/POLICY.",
                      compare_opts, sizeof compare_opts / sizeof compare_opts[0]);
        bl_args_fini(&a);
        return 0;
    }
    sim_args s;
    rc = sim_args_parse("compare", &a, &s);
    char *list = eng_strdup(bl_args_value(&a, "policies", "fcfs,easy,conservative"));
    size_t n = 0;
    char **labels = NULL;
    policy_spec *specs = NULL;
    eng_run_report *reps = NULL;
    eng_workload *w = NULL;
    char *command = NULL;
    if (rc == 0 && !list) {
        fprintf(stderr, "batchlab compare: out of memory\n");
        rc = 1;
    }
    if (rc == 0) {
        size_t cap = 1;
        for (char *p = list; *p; p++)
            cap += *p == ',';
        labels = calloc(cap, sizeof *labels);
        specs = calloc(cap, sizeof *specs);
        reps = calloc(cap, sizeof *reps);
        if (!labels || !specs || !reps) {
            fprintf(stderr, "batchlab compare: out of memory\n");
            rc = 1;
        }
        size_t len = strlen(list);
        if (rc == 0 && (len == 0 || list[0] == ',' || list[len - 1] == ',' || strstr(list, ",,"))) {
            fprintf(stderr, "batchlab compare: --policies: expected policy names separated by "
                            "single commas, got an empty name in '%s'\n",
                    list);
            rc = 2;
        }
        for (char *tok = strtok(list, ","); tok && rc == 0; tok = strtok(NULL, ","))
            labels[n++] = tok;
        if (n == 0 && rc == 0) {
            fprintf(stderr, "batchlab compare: --policies: expected at least one policy\n");
            rc = 2;
        }
        for (size_t i = 0; i < n && rc == 0; i++)
            rc = policy_spec_parse("compare", labels[i], NULL, 0, &specs[i]);
    }
    if (rc == 0)
        rc = check_readable("compare", "platform", s.platform);
    if (rc == 0)
        rc = read_workload("compare", s.workload, s.lenient, &w);
    if (rc == 0)
        rc = check_has_jobs("compare", s.workload, w);
    if (rc == 0 && !(command = join_command(argc, argv))) {
        fprintf(stderr, "batchlab compare: out of memory\n");
        rc = 1;
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        char *dir = s.out ? policy_dir(s.out, labels[i]) : NULL;
        if (s.out && !dir) {
            fprintf(stderr, "batchlab compare: out of memory\n");
            rc = 1;
            break;
        }
        eng_run_spec spec;
        fill_spec(&spec, &s, w, &specs[i], command, dir);
        spec.sim.progress = !s.quiet && isatty(STDERR_FILENO); /* within each policy */
        spec.summary_only = true;
        if (!s.quiet && isatty(STDERR_FILENO))
            fprintf(stderr, "batchlab compare: running %s (%zu of %zu)...\n", labels[i], i + 1,
                    n);
        eng_diag d;
        eng_diag_clear(&d);
        int failed = eng_run_isolated(&spec, &reps[i], &d);
        if (eng_run_stopped_by()) {
            rc = stopped("compare", labels[i], eng_run_stopped_by(), !failed, dir);
            if (i > 0 && s.out)
                fprintf(stderr, "batchlab compare: the %zu policies before %s finished; their "
                                "folders in %s are complete\n",
                        i, labels[i], s.out);
        } else if (failed) {
            eng_diag_prefix(&d, "%s: ", labels[i]);
            rc = report_failure("compare", &d);
        }
        free(dir);
    }
    if (rc == 0)
        print_compare((const char *const *)labels, reps, n, &s);
    for (size_t i = 0; i < n; i++) {
        eng_run_report_fini(&reps[i]);
        policy_spec_fini(&specs[i]);
    }
    free(reps);
    free(specs);
    free(labels);
    free(list);
    free(command);
    eng_workload_destroy(w);
    sim_args_fini(&s);
    bl_args_fini(&a);
    return rc;
}

/* ---- info --------------------------------------------------------------- */

static const bl_opt info_opts[] = {
    {"workload", 'w', BL_VALUE, "FILE", "SWF log, plain or .gz (required)"},
    {"platform", 'p', BL_VALUE, "FILE", "also: the jobs a replay on this platform drops, and the "
                                        "computed load on all its hosts"},
    {"nodes", 0, BL_VALUE, "P", "also: the computed load on P nodes"},
    {"cores-per-node", 0, BL_VALUE, "C", "with --nodes: a job of p processors takes ceil(p/C) "
                                         "nodes (default 1)"},
    {"lenient", 0, BL_FLAG, NULL, "skip and count malformed SWF lines instead of stopping"},
};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int cmd_info(int argc, char **argv)
{
    bl_args a;
    int rc = bl_args_parse("info", info_opts, sizeof info_opts / sizeof info_opts[0], argc, argv,
                           1, &a);
    if (rc)
        return rc;
    if (a.help) {
        bl_args_usage("info", "--workload FILE [--platform FILE | --nodes P [--cores-per-node C]]",
                      "Describes what an SWF log holds before it is simulated: header, jobs, "
                      "time span,\nsizes, run times, estimate accuracy, status mix and the "
                      "jobs a replay would drop\nwhatever the platform. With a machine it also "
                      "gives the computed load\nU = sum(run time x nodes) / (D x P) of the "
                      "job-bundling study (Baranov & Lyakhovets\n2022), D the time from the "
                      "first to the last arrival, P the machine's nodes; with\n--platform the "
                      "drops of a replay there (default options) and U over its hosts.",
                      info_opts, sizeof info_opts / sizeof info_opts[0]);
        bl_args_fini(&a);
        return 0;
    }
    const char *path = bl_args_value(&a, "workload", NULL);
    if (!path) {
        fprintf(stderr, "batchlab info: --workload is required\n");
        bl_args_fini(&a);
        return 2;
    }
    const char *platform = bl_args_value(&a, "platform", NULL);
    unsigned long long nodes = 0, cpn = 1;
    bool have_nodes = bl_args_get(&a, "nodes")->set;
    if (have_nodes && (bl_args_u64("info", "nodes", bl_args_value(&a, "nodes", ""), &nodes) ||
                       bl_args_u64("info", "cores-per-node",
                                   bl_args_value(&a, "cores-per-node", "1"), &cpn))) {
        bl_args_fini(&a);
        return 2;
    }
    if (have_nodes && platform) {
        fprintf(stderr, "batchlab info: give --platform or --nodes, not both\n");
        bl_args_fini(&a);
        return 2;
    }
    if (have_nodes && (nodes < 1 || cpn < 1)) {
        fprintf(stderr, "batchlab info: --nodes and --cores-per-node must be at least 1\n");
        bl_args_fini(&a);
        return 2;
    }
    eng_workload *w = NULL;
    rc = read_workload("info", path, bl_args_flag(&a, "lenient"), &w);
    bl_args_fini(&a);
    if (rc)
        return rc;
    eng_platform *plat = NULL;
    if (platform) {
        eng_diag d;
        eng_diag_clear(&d);
        if (eng_run_load_platform(platform, &plat, &d)) {
            fprintf(stderr, "batchlab info: %s\n", d.msg);
            eng_workload_destroy(w);
            return 1;
        }
    }
    const eng_swf_header *h = &w->hdr;
    size_t n = w->n_jobs;
    printf("%s\n", path);
    if (h->computer || h->installation)
        printf("  machine            %s%s%s\n", h->computer ? h->computer : "",
               h->computer && h->installation ? ", " : "",
               h->installation ? h->installation : "");
    if (h->max_nodes >= 0 || h->max_procs >= 0)
        printf("  header size        MaxNodes %lld, MaxProcs %lld\n", (long long)h->max_nodes,
               (long long)h->max_procs);
    if (h->unix_start_time >= 0)
        printf("  log start          UnixStartTime %lld%s%s\n", (long long)h->unix_start_time,
               h->time_zone_string ? ", " : "", h->time_zone_string ? h->time_zone_string : "");
    printf("  jobs               %zu (%zu data lines; %zu malformed skipped, %zu out of submit "
           "order, %zu partial-execution lines, %zu repeated job numbers)\n",
           n, w->n_data_lines, w->n_malformed, w->n_reordered, w->n_part_lines, w->n_dup_ids);
    if (n == 0) {
        eng_workload_destroy(w);
        return 0;
    }
    double *v = malloc(n * sizeof *v);
    if (!v) {
        eng_workload_destroy(w);
        fprintf(stderr, "batchlab info: out of memory\n");
        return 1;
    }
    double first = w->jobs[0].submit_s, last = w->jobs[n - 1].submit_s;
    printf("  submits            %.0f .. %.0f s (%.1f days)\n", first, last,
           (last - first) / 86400.0);
    size_t k = 0, serial = 0, pow2 = 0, no_procs = 0;
    double max_procs = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t p = w->jobs[i].procs_alloc > 0 ? w->jobs[i].procs_alloc : w->jobs[i].procs_req;
        if (p <= 0) {
            no_procs++;
            continue;
        }
        v[k++] = (double)p;
        serial += p == 1;
        pow2 += (p & (p - 1)) == 0;
        if (p > max_procs)
            max_procs = (double)p;
    }
    if (k) {
        double med = median_of(v, k);
        printf("  processors         median %g, max %g; serial %.1f%%, power of two %.1f%% "
               "(field 5, else 8)\n",
               med, max_procs, 100.0 * (double)serial / (double)k, 100.0 * (double)pow2 / (double)k);
    }
    size_t no_run = 0, over = 0, with_req = 0;
    k = 0;
    double run_max = 0;
    for (size_t i = 0; i < n; i++) {
        const eng_job *j = &w->jobs[i];
        if (j->runtime_s < 0) {
            no_run++;
            continue;
        }
        v[k++] = j->runtime_s;
        if (j->runtime_s > run_max)
            run_max = j->runtime_s;
    }
    if (k)
        printf("  run time (s)       median %g, max %g; unknown in %zu jobs\n", median_of(v, k),
               run_max, no_run);
    k = 0;
    for (size_t i = 0; i < n; i++) {
        const eng_job *j = &w->jobs[i];
        if (j->time_req_s > 0) {
            with_req++;
            if (j->runtime_s > j->time_req_s)
                over++;
            if (j->runtime_s >= 0)
                v[k++] = j->runtime_s / j->time_req_s;
        }
    }
    printf("  requested time     given for %zu jobs; run/request median %.3f; %zu jobs ran past "
           "it\n",
           with_req, k ? median_of(v, k) : NAN, over);
    size_t st[8] = {0}, st_other = 0;
    for (size_t i = 0; i < n; i++) {
        int s = w->jobs[i].status;
        if (s >= -1 && s <= 5)
            st[s + 1]++;
        else
            st_other++;
    }
    printf("  status             %zu completed, %zu failed, %zu cancelled, %zu unknown (-1)\n",
           st[2], st[1], st[6], st[0]);
    printf("  dropped by any replay  %zu without run time, %zu without processor count\n",
           no_run, no_procs);
    if (h->max_procs > 0) {
        size_t larger = 0;
        for (size_t i = 0; i < n; i++) {
            int64_t p = w->jobs[i].procs_alloc > 0 ? w->jobs[i].procs_alloc : w->jobs[i].procs_req;
            larger += p > h->max_procs;
        }
        printf("  larger than MaxProcs %zu\n", larger);
    }
    free(v);
    rc = 0;
    if (have_nodes) {
        eng_load load;
        eng_scale_load(w, (int64_t)nodes, (int64_t)cpn, &load, NULL);
        printf("  computed load      %.4f on %llu nodes of %llu core%s (%zu jobs counted)\n",
               load.load, nodes, cpn, cpn == 1 ? "" : "s", load.n_counted);
    }
    if (plat) {
        eng_prepared prep;
        eng_prep_opts po = eng_prep_defaults();
        eng_diag d;
        eng_diag_clear(&d);
        if (eng_prep(w, plat, &po, &prep, &d)) {
            fprintf(stderr, "batchlab info: %s\n", d.msg);
            rc = 1;
        } else {
            eng_summary s = {0};
            memcpy(s.n_dropped, prep.n_dropped, sizeof s.n_dropped);
            s.n_dropped_total = prep.n_dropped_total;
            printf("  on %s (%zu hosts, %zu pool%s): %zu jobs simulated; ", platform,
                   plat->n_hosts, plat->n_pools, plat->n_pools == 1 ? "" : "s", prep.n_jobs);
            print_drops(stdout, &s, "dropped ");
            long double work = 0;
            double first = INFINITY, last = -INFINITY;
            for (size_t i = 0; i < prep.n_jobs; i++) {
                work += (long double)prep.jobs[i].run_s * prep.jobs[i].units;
                first = fmin(first, prep.jobs[i].submit_s);
                last = fmax(last, prep.jobs[i].submit_s);
            }
            if (prep.n_jobs && last > first)
                printf("  computed load      %.4f on its %zu hosts (whole nodes per job)\n",
                       (double)(work / ((long double)(last - first) * (double)plat->n_hosts)),
                       plat->n_hosts);
            eng_prepared_fini(&prep);
        }
        eng_platform_destroy(plat);
    }
    eng_workload_destroy(w);
    return rc;
}

/* ---- policies ----------------------------------------------------------- */

static int cmd_policies(int argc, char **argv)
{
    bl_args a;
    int rc = bl_args_parse("policies", NULL, 0, argc, argv, 1, &a);
    if (rc)
        return rc;
    bool help = a.help;
    bl_args_fini(&a);
    if (help) {
        printf("usage: batchlab policies\nLists the registered policies, their citations and "
               "options.\n");
        return 0;
    }
    size_t n;
    const pol_type *const *list = pol_list(&n);
    for (size_t i = 0; i < n; i++) {
        printf("%-14s %s\n%-14s (%s)\n", list[i]->name, list[i]->summary, "",
               list[i]->citation);
        if (list[i]->flags & POL_FLAG_ISLANDS)
            printf("%-14s   plans with islands (--islands strict)\n", "");
        for (const pol_option *o = list[i]->options; o && o->key; o++)
            printf("%-14s   option %s: %s\n", "", o->key, o->help);
    }
    return 0;
}

/* ---- study: paper reproductions that are not replays ----------------- */

#define BL_STUDY(name)                                                                             \
    int bl_study_##name(int argc, char **argv);                                                    \
    extern const char bl_study_##name##_summary[];
#include "bl_studies.h"
#undef BL_STUDY

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
} studies[] = {
#define BL_STUDY(name) {#name, bl_study_##name, bl_study_##name##_summary},
#include "bl_studies.h"
#undef BL_STUDY
    {NULL, NULL, NULL},
};

static int cmd_study(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : NULL;
    if (!name || strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        FILE *f = name ? stdout : stderr;
        fprintf(f, "usage: batchlab study NAME [options]   (batchlab study NAME --help)\n\n"
                   "Reproductions of the papers' standalone experiments:\n");
        for (size_t i = 0; studies[i].name; i++)
            fprintf(f, "  %-14s %s\n", studies[i].name, studies[i].summary);
        if (!studies[0].name)
            fprintf(f, "  (none yet)\n");
        return name ? 0 : 2;
    }
    for (size_t i = 0; studies[i].name; i++)
        if (strcmp(name, studies[i].name) == 0)
            return studies[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "batchlab study: unknown study '%s' (valid:", name);
    for (size_t i = 0; studies[i].name; i++)
        fprintf(stderr, " %s", studies[i].name);
    fprintf(stderr, ")\n");
    return 2;
}

/* ---- dispatch ----------------------------------------------------------- */

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
} commands[] = {
    {"run", cmd_run, "replay a workload on a platform under one policy"},
    {"compare", cmd_compare, "the same replay under several policies, side by side"},
    {"info", cmd_info, "what an SWF log holds"},
    {"policies", cmd_policies, "the registered policies and their options"},
    {"generate", bl_cmd_generate, "write a synthetic workload (lublin, modified) as SWF"},
    {"scale", bl_cmd_scale, "rescale a workload's submit times to a target load or span"},
    {"study", cmd_study, "standalone reproductions of the papers' experiments"},
    {"standin", bl_cmd_standin, "write a synthetic stand-in for a machine's log (forhlr2)"},
    {"sweep", bl_cmd_sweep, "expand a grid of runs into tasks, run one, script Slurm, merge"},
    {"plot", bl_cmd_plot, "figures of a run (Gantt chart, queue, utilization) or of a sweep"},
    {"fit", bl_cmd_fit, "fit run times and sizes of a log (lognormal, gamma, hyper-gamma, KS)"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: batchlab COMMAND [options]   (batchlab COMMAND --help for details)\n\n"
               "batchlab %s: discrete-event simulation of HPC batch scheduling on SimGrid.\n\n"
               "commands:\n",
            BATCHLAB_VERSION);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\npolicies: %s\n", pol_names());
}

int bl_cli_main(int argc, char **argv)
{
    install_stop_handlers();
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        if (argc > 2) {
            fprintf(stderr, "batchlab: --version: unexpected argument '%s'\n", argv[2]);
            return 2;
        }
        printf("batchlab %s (commit %s)\n", BATCHLAB_VERSION, BATCHLAB_GIT_COMMIT);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(cmd, commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "batchlab: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return 2;
}
