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
#include "cli_runopts.h"

#include "eng_error.h"
#include "eng_ftrace.h"
#include "eng_lublin.h"
#include "eng_run.h"
#include "eng_scale.h"
#include "eng_sha256.h"
#include "eng_swf.h"
#include "eng_util.h"
#include "eng_wstats.h"
#include "pol_registry.h"

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

static int add_kv(const char *cmd, const char *what, const char *text, size_t len, policy_spec *p)
{
    const char *eq = memchr(text, '=', len);
    if (!eq || eq == text) {
        fprintf(stderr, "batchlab %s: %s '%.*s': expected key=value\n", cmd, what, (int)len, text);
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

int bl_sa_backend_env(const char *cmd, const char **value)
{
    const char *env = getenv(BL_SA_BACKEND_ENV);
    *value = NULL;
    if (!env || !*env)
        return 0;
    if (strcmp(env, "auto") != 0 && strcmp(env, "cpu") != 0 && strcmp(env, "cuda") != 0) {
        fprintf(stderr, "batchlab %s: " BL_SA_BACKEND_ENV " '%s': expected auto, cpu or cuda\n",
                cmd, env);
        return 2;
    }
    *value = env;
    return 0;
}

/* BL_SA_BACKEND_ENV, when set, gives the `backend` option of a policy that
 * declares one (replacing a value from the command line): the environment
 * is read here and passed down, never inside gpu/ or the policies. The
 * manifest then records the backend asked for. Returns 0, 2 (bad value)
 * or 1 (out of memory); p->kv has room for one more pair. */
static int backend_from_env(const char *cmd, policy_spec *p)
{
    bool has = false;
    for (const pol_option *o = p->type->options; o && o->key; o++)
        has = has || strcmp(o->key, "backend") == 0;
    if (!has)
        return 0;
    const char *env = NULL;
    int rc = bl_sa_backend_env(cmd, &env);
    if (rc || !env)
        return rc;
    char *value = strdup(env);
    if (!value) {
        fprintf(stderr, "batchlab %s: out of memory\n", cmd);
        return 1;
    }
    for (size_t i = 0; i < p->n_kv; i++)
        if (strcmp(p->kv[i].key, "backend") == 0) {
            free((char *)p->kv[i].value);
            p->kv[i].value = value;
            return 0;
        }
    char *key = strdup("backend");
    if (!key) {
        free(value);
        fprintf(stderr, "batchlab %s: out of memory\n", cmd);
        return 1;
    }
    p->kv[p->n_kv++] = (pol_kv){.key = key, .value = value};
    return 0;
}

/* Parses spec plus --policy-opt pairs; prints the problem and returns 2
 * (1 when memory runs out). */
static int policy_spec_parse(const char *cmd, const char *spec, const char *const *extra,
                             size_t n_extra, policy_spec *out)
{
    memset(out, 0, sizeof *out);
    out->label = spec;
    size_t max_kv = n_extra + 2; /* + the backend from the environment */
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
        fprintf(stderr, "batchlab %s: unknown policy '%s' (valid: %s)\n", cmd, name, pol_names());
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
    int rc = backend_from_env(cmd, out);
    if (rc) {
        policy_spec_fini(out);
        return rc;
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

/* The run configuration (cli_runopts.h: one row per option) and what is
 * derived from it once: the files its options name, read, and the labels
 * the manifest records. */
typedef struct sim_args {
    bl_run_config c;
    eng_init_time *init_times; /* --init-times, read */
    size_t n_init_times;
    char init_label[600];
    eng_ftrace failure_trace; /* --failure-trace, read */
    char failure_label[700];
} sim_args;

static void sim_args_fini(sim_args *s)
{
    free(s->init_times);
    s->init_times = NULL;
    eng_ftrace_fini(&s->failure_trace);
}


/* The table's rows parse and check every value (bl_run_config_parse); the
 * rules between options and the files they name are here. */
static int sim_args_parse(const char *cmd, const bl_args *a, sim_args *s)
{
    memset(s, 0, sizeof *s);
    if (!bl_args_value(a, "platform", NULL) || !bl_args_value(a, "workload", NULL)) {
        fprintf(stderr,
                "batchlab %s: --platform and --workload are required (see batchlab %s "
                "--help)\n",
                cmd, cmd);
        return 2;
    }
    bl_run_config *c = &s->c;
    if (bl_run_config_parse(cmd, a, c))
        return 2;
    snprintf(s->init_label, sizeof s->init_label, "none");
    if (c->init_share_set && c->init_times) {
        fprintf(stderr, "batchlab %s: give --init-share or --init-times, not both\n", cmd);
        return 2;
    }
    if (c->init_share_set)
        snprintf(s->init_label, sizeof s->init_label, "share %s",
                 bl_args_value(a, "init-share", ""));
    if (c->init_times) {
        eng_diag d;
        eng_diag_clear(&d);
        if (eng_prep_read_init_times(c->init_times, &s->init_times, &s->n_init_times, &d)) {
            fprintf(stderr, "batchlab %s: %s\n", cmd, d.msg);
            return 1;
        }
        snprintf(s->init_label, sizeof s->init_label, "table %s", c->init_times);
    }
    if (strcmp(bl_run_choice_name("init-planned", c->init_planned), "no") == 0) {
        size_t len = strlen(s->init_label);
        snprintf(s->init_label + len, sizeof s->init_label - len, ", not planned");
    }
    char on_failure[64];
    snprintf(on_failure, sizeof on_failure, "%s", "kill");
    if (c->on_failure)
        snprintf(on_failure, sizeof on_failure, "requeue up to %llu time%s", c->max_requeues,
                 bl_s(c->max_requeues));
    snprintf(s->failure_label, sizeof s->failure_label, "none");
    if (c->failures)
        snprintf(s->failure_label, sizeof s->failure_label, "model, epoch %g s, %s",
                 c->failure_epoch, on_failure);
    if (c->failure_trace) {
        if (c->failures) {
            fprintf(stderr, "batchlab %s: give --failures model or --failure-trace, not both\n",
                    cmd);
            return 2;
        }
        eng_diag d;
        eng_diag_clear(&d);
        if (eng_ftrace_read(c->failure_trace, &s->failure_trace, &d)) {
            fprintf(stderr, "batchlab %s: %s\n", cmd, d.msg);
            return 1;
        }
        char sha[65] = "";
        eng_sha256_file(c->failure_trace, sha, NULL);
        snprintf(s->failure_label, sizeof s->failure_label,
                 "trace %s (sha256 %s, %zu outage%s), %s", c->failure_trace, sha,
                 s->failure_trace.n, bl_s(s->failure_trace.n), on_failure);
    }
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
    /* On a terminal the progress line and the ^C echo hold the cursor's
     * line: the message starts on that line cleared. */
    if (isatty(STDERR_FILENO))
        fputs("\r\033[K", stderr);
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
        fprintf(stderr, "batchlab %s: skipped %zu malformed line%s (--lenient); the first: %s\n",
                cmd, (*w)->n_malformed, bl_s((*w)->n_malformed), (*w)->first_malformed);
    if ((*w)->n_reordered)
        fprintf(stderr,
                "batchlab %s: %s: %zu job%s %s out of submit order; replayed in "
                "submit order\n",
                cmd, path, (*w)->n_reordered, bl_s((*w)->n_reordered),
                (*w)->n_reordered == 1 ? "was" : "were");
    for (int f = 1; f <= 18; f++)
        if ((*w)->n_ignored[f])
            fprintf(stderr,
                    "batchlab %s: warning: %s: %zu value%s of field %d (%s) outside "
                    "the SWF range %s read as -1 (unknown); the replay does not "
                    "use this field\n",
                    cmd, path, (*w)->n_ignored[f], bl_s((*w)->n_ignored[f]), f,
                    eng_swf_field_name(f), (*w)->n_ignored[f] == 1 ? "was" : "were");
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
    eng_diag d;
    eng_diag_clear(&d);
    char expected[64];
    snprintf(expected, sizeof expected, "a %s file", what);
    if (eng_check_not_dir(path, expected, &d) != ENG_OK) {
        fprintf(stderr, "batchlab %s: %s\n", cmd, d.msg);
        return 1;
    }
    if (access(path, R_OK) == 0)
        return 0;
    fprintf(stderr, "batchlab %s: %s: cannot open %s file: %s\n", cmd, path, what, strerror(errno));
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

/* Hands the configuration to the engine: the one place where each option
 * takes effect. Choice options arrive as indices into their row's list, so
 * each index is mapped to its engine value by name here, not by order. */
static void fill_spec(eng_run_spec *spec, const sim_args *s, const eng_workload *w,
                      const policy_spec *ps, const char *command, const char *out_dir)
{
    const bl_run_config *c = &s->c;
    const char *walltime = bl_run_choice_name("walltime", c->walltime);
    const char *alloc = bl_run_choice_name("alloc", c->alloc);
    const char *procs = bl_run_choice_name("procs", c->procs);
    const char *type_field = bl_run_choice_name("type-field", c->type_field);
    const char *on_failure = bl_run_choice_name("on-failure", c->on_failure);
    memset(spec, 0, sizeof *spec);
    spec->platform_path = c->platform;
    spec->workload = w;
    spec->out_dir = out_dir;
    spec->sim.prep = (eng_prep_opts){
        .procs_field = strcmp(procs, "req") == 0 ? ENG_PROCS_REQ : ENG_PROCS_ALLOC,
        .walltime = strcmp(walltime, "extend") == 0 ? ENG_WALLTIME_EXTEND : ENG_WALLTIME_KILL,
        .alloc = strcmp(alloc, "core") == 0 ? POL_ALLOC_CORE : POL_ALLOC_NODE,
        .type_field = strcmp(type_field, "partition") == 0 ? ENG_TYPE_PARTITION
                      : strcmp(type_field, "app") == 0     ? ENG_TYPE_APP
                                                           : ENG_TYPE_QUEUE,
        .init_share = c->init_share,
        .init_times = s->init_times,
        .n_init_times = s->n_init_times,
        .init_unplanned = strcmp(bl_run_choice_name("init-planned", c->init_planned), "no") == 0,
    };
    spec->sim.core = (eng_core_opts){
        .policy = ps->type,
        .options = ps->kv,
        .n_options = ps->n_kv,
        .seed = c->seed,
        .check = c->check,
        .ignore_islands = strcmp(bl_run_choice_name("islands", c->islands), "ignore") == 0,
        .failures = {.enabled = c->failures == 1 || c->failure_trace,
                     .epoch_s = c->failure_epoch,
                     .seed = c->seed,
                     .requeue = strcmp(on_failure, "requeue") == 0,
                     .max_requeues = (int32_t)c->max_requeues,
                     .trace = s->failure_trace.spans,
                     .n_trace = s->failure_trace.n,
                     .trace_path = c->failure_trace},
    };
    spec->sim.progress = !c->quiet && isatty(STDERR_FILENO);
    spec->manifest = (eng_manifest){
        .command = command,
        .policy = ps->label,
        .options = ps->kv,
        .n_options = ps->n_kv,
        .workload_path = c->workload,
        .platform_path = c->platform,
        .seed = c->seed,
        .walltime = walltime,
        .alloc = alloc,
        .islands = bl_run_choice_name("islands", c->islands),
        .procs_field = procs,
        .type_field = type_field,
        .init = s->init_label,
        .failures = s->failure_label,
        .lenient = c->lenient,
        .check = c->check,
        .outputs = c->outputs,
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
    printf("batchlab run: %s on %s (%zu host%s, %s allocation), walltime %s\n", ps->label,
           spec->platform_path, r->n_platform_hosts, bl_s(r->n_platform_hosts),
           spec->manifest.alloc, spec->manifest.walltime);
    printf("  workload           %s\n", spec->manifest.workload_path);
    printf("  jobs               %zu read, %zu simulated: %zu completed, %zu killed at their "
           "requested time",
           s->n_input, s->n_simulated, s->n_completed, s->n_killed);
    if (spec->sim.core.failures.enabled)
        printf(", %zu cut by a host failure", s->n_failed);
    printf("\n");
    print_drops(stdout, s, "  dropped            ");
    if (s->n_est_from_runtime)
        printf("  estimates          %zu job%s had no requested time: planned with %s run "
               "time\n",
               s->n_est_from_runtime, bl_s(s->n_est_from_runtime),
               s->n_est_from_runtime == 1 ? "its" : "their");
    if (s->n_extended)
        printf("  estimates          %zu request%s raised to the run time (--walltime extend)\n",
               s->n_extended, bl_s(s->n_extended));
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
        printf("  log agreement      %zu job%s with a logged wait: mean wait %s s logged, %s s "
               "simulated; mean |difference| %s s; Spearman %s\n",
               s->log.jobs, bl_s(s->log.jobs), fmt_grouped(a, sizeof a, s->log.wait_mean_log_s, 1),
               fmt_grouped(b, sizeof b, s->log.wait_mean_sim_s, 1),
               fmt_grouped(c, sizeof c, s->log.wait_mae_s, 1), rho);
        if (s->log.cancelled_excluded > 0)
            printf("                     %zu job%s cancelled before %s started left out\n",
                   s->log.cancelled_excluded, s->log.cancelled_excluded == 1 ? "" : "s",
                   s->log.cancelled_excluded == 1 ? "it" : "they");
    }
    if (spec->sim.core.failures.enabled)
        printf("  host failures      %s: %zu job%s failed, %zu requeued, %s node-seconds wasted\n",
               spec->manifest.failures, s->n_failed, bl_s(s->n_failed), s->n_requeues,
               fmt_grouped(a, sizeof a, s->wasted_node_s, 0));
    if (s->cost > 0)
        printf("  cost               %s (price per host-second x time held)\n",
               fmt_grouped(a, sizeof a, s->cost, 2));
    if (s->init_total_s > 0)
        printf("  initialization     %s: share %.4f of run time, %s s in total, %zu job type%s\n",
               spec->manifest.init, s->init_share, fmt_grouped(a, sizeof a, s->init_total_s, 0),
               s->n_types, bl_s(s->n_types));
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
        } files[] = {{ENG_OUT_JOBS, "jobs.csv"},
                     {ENG_OUT_DROPPED, "dropped.csv"},
                     {ENG_OUT_SCHEDULE, "schedule.swf"},
                     {ENG_OUT_SUMMARY, "summary.json"},
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
    BL_RUN_OPTS{"policy", 'P', BL_VALUE, "NAME",
                "scheduling policy, optionally NAME:key=value:... "
                "(see batchlab policies)"},
    {"policy-opt", 0, BL_MULTI, "KEY=VALUE", "option passed to the policy (repeatable)"},
};

int bl_cmd_run(int argc, char **argv)
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
        rc = check_readable("run", "platform", s.c.platform);
    if (rc == 0)
        rc = read_workload("run", s.c.workload, s.c.lenient, &w);
    if (rc == 0)
        rc = check_has_jobs("run", s.c.workload, w);
    if (rc == 0 && !(command = join_command(argc, argv))) {
        fprintf(stderr, "batchlab run: out of memory\n");
        rc = 1;
    }
    if (rc == 0) {
        eng_run_spec spec;
        fill_spec(&spec, &s, w, &ps, command, s.c.out);
        spec.summary_only = true;
        eng_run_report rep;
        eng_diag d;
        eng_diag_clear(&d);
        int failed = eng_run_isolated(&spec, &rep, &d);
        if (eng_run_stopped_by()) {
            rc = stopped("run", NULL, eng_run_stopped_by(), !failed, s.c.out);
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
    BL_RUN_OPTS{"policies", 'P', BL_VALUE, "LIST",
                "comma-separated policies, each NAME or NAME:key=value:... (default fcfs,easy,"
                "conservative)"},
};

char *bl_policy_folder(const char *spec)
{
    char *name = eng_strdup(spec);
    if (name)
        for (char *p = name; *p; p++)
            if (*p == ':' || *p == '/' || *p == ' ')
                *p = *p == ':' ? '+' : '_';
    return name;
}

/* One output folder per policy: OUT/ and the spec's folder name. */
static char *policy_dir(const char *out, const char *label)
{
    char *name = bl_policy_folder(label);
    char *dir = name ? eng_asprintf("%s/%s", out, name) : NULL;
    free(name);
    return dir;
}

/* The same policy with the same options, in whatever order they were
 * given (a key appears at most once: pol_check_options). */
static bool same_spec(const policy_spec *a, const policy_spec *b)
{
    if (a->type != b->type || a->n_kv != b->n_kv)
        return false;
    for (size_t i = 0; i < a->n_kv; i++) {
        bool found = false;
        for (size_t j = 0; j < b->n_kv && !found; j++)
            found = strcmp(a->kv[i].key, b->kv[j].key) == 0 &&
                    strcmp(a->kv[i].value, b->kv[j].value) == 0;
        if (!found)
            return false;
    }
    return true;
}

/* Each policy spec runs once: one given twice would only repeat a column
 * (and with --out overwrite its own folder), and two distinct specs may
 * not share a folder name (bl_policy_folder maps ' ' and '/' to '_'). 0, or 2
 * after the message. O(n^2) in the specs, which are few. */
static int check_distinct_specs(const char *const *labels, const policy_spec *specs, size_t n,
                                const char *out)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++) {
            if (same_spec(&specs[i], &specs[j])) {
                if (strcmp(labels[i], labels[j]) == 0)
                    fprintf(stderr,
                            "batchlab compare: --policies: '%s' is given twice (policy %s with "
                            "the same options); give each policy spec once\n",
                            labels[i], specs[i].type->name);
                else
                    fprintf(stderr,
                            "batchlab compare: --policies: '%s' and '%s' are the same (policy "
                            "%s with the same options); give each policy spec once\n",
                            labels[j], labels[i], specs[i].type->name);
                return 2;
            }
            if (!out)
                continue;
            char *a = policy_dir(out, labels[i]), *b = policy_dir(out, labels[j]);
            bool clash = a && b && strcmp(a, b) == 0;
            if (clash)
                fprintf(stderr,
                        "batchlab compare: --policies: '%s' and '%s' would both write their "
                        "outputs into the folder %s (' ' and '/' in a spec become '_', ':' "
                        "becomes '+'); write them with two compare commands\n",
                        labels[j], labels[i], a);
            free(a);
            free(b);
            if (clash)
                return 2;
        }
    return 0;
}

static void print_compare(const char *const *labels, const eng_run_report *r, size_t n,
                          const sim_args *s)
{
    printf("batchlab compare: %s on %s (%zu host%s, %s allocation), walltime %s\n", s->c.workload,
           s->c.platform, r[0].n_platform_hosts, bl_s(r[0].n_platform_hosts),
           bl_run_choice_name("alloc", s->c.alloc), bl_run_choice_name("walltime", s->c.walltime));
    printf("  %zu job%s read, %zu simulated; ", r[0].summary.n_input, bl_s(r[0].summary.n_input),
           r[0].summary.n_simulated);
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
                (failure_row && !s->c.failures && !s->c.failure_trace) ||
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
            fprintf(stderr,
                    "batchlab compare: --policies: expected policy names separated by "
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
        if (rc == 0)
            rc = check_distinct_specs((const char *const *)labels, specs, n, s.c.out);
    }
    if (rc == 0)
        rc = check_readable("compare", "platform", s.c.platform);
    if (rc == 0)
        rc = read_workload("compare", s.c.workload, s.c.lenient, &w);
    if (rc == 0)
        rc = check_has_jobs("compare", s.c.workload, w);
    if (rc == 0 && !(command = join_command(argc, argv))) {
        fprintf(stderr, "batchlab compare: out of memory\n");
        rc = 1;
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        char *dir = s.c.out ? policy_dir(s.c.out, labels[i]) : NULL;
        if (s.c.out && !dir) {
            fprintf(stderr, "batchlab compare: out of memory\n");
            rc = 1;
            break;
        }
        eng_run_spec spec;
        fill_spec(&spec, &s, w, &specs[i], command, dir);
        spec.sim.progress = !s.c.quiet && isatty(STDERR_FILENO); /* within each policy */
        spec.summary_only = true;
        if (!s.c.quiet && isatty(STDERR_FILENO))
            fprintf(stderr, "batchlab compare: running %s (%zu of %zu)...\n", labels[i], i + 1, n);
        eng_diag d;
        eng_diag_clear(&d);
        int failed = eng_run_isolated(&spec, &reps[i], &d);
        if (eng_run_stopped_by()) {
            rc = stopped("compare", labels[i], eng_run_stopped_by(), !failed, dir);
            if (i > 0 && s.c.out)
                fprintf(stderr,
                        "batchlab compare: the %zu polic%s before %s finished; %s in %s %s "
                        "complete\n",
                        i, i == 1 ? "y" : "ies", labels[i], i == 1 ? "its folder" : "their folders",
                        s.c.out, i == 1 ? "is" : "are");
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
    {"platform", 'p', BL_VALUE, "FILE",
     "also: the jobs a replay on this platform drops, and the "
     "computed load on all its hosts"},
    {"nodes", 0, BL_VALUE, "P", "also: the computed load on P nodes"},
    {"cores-per-node", 0, BL_VALUE, "C",
     "with --nodes: a job of p processors takes ceil(p/C) "
     "nodes (default 1)"},
    {"lenient", 0, BL_FLAG, NULL, "skip and count malformed SWF lines instead of stopping"},
};

/* info's machine: --platform FILE, or --nodes P [--cores-per-node C].
 * 0, or 2 after the message. */
static int info_machine(const bl_args *a, bool *have_nodes, unsigned long long *nodes,
                        unsigned long long *cpn)
{
    *have_nodes = bl_args_get(a, "nodes")->set;
    *nodes = 0;
    *cpn = 1;
    if (*have_nodes &&
        (bl_args_u64("info", "nodes", bl_args_value(a, "nodes", ""), nodes) ||
         bl_args_u64("info", "cores-per-node", bl_args_value(a, "cores-per-node", "1"), cpn)))
        return 2;
    if (*have_nodes && bl_args_value(a, "platform", NULL)) {
        fprintf(stderr, "batchlab info: give --platform or --nodes, not both\n");
        return 2;
    }
    if (*have_nodes && (*nodes < 1 || *cpn < 1)) {
        fprintf(stderr, "batchlab info: --nodes and --cores-per-node must be at least 1\n");
        return 2;
    }
    return 0;
}

/* The log's header and its counts of lines and jobs. A generated log
 * names its generator and options (ENG_GENERATOR_KEY) where its machine
 * would only say "synthetic, synthetic"; what `scale` (or a stand-in's or
 * a sweep task's load) did to it is in its "scale: " notes. */
static void info_header(const char *path, const eng_workload *w)
{
    const eng_swf_header *h = &w->hdr;
    printf("%s\n", path);
    bool generated = false;
    for (size_t i = 0; i < h->n_kv; i++)
        if (strcmp(h->kv[i].key, ENG_GENERATOR_KEY) == 0) {
            printf("  generator          %s\n", h->kv[i].value);
            generated = true;
        }
    bool synthetic = h->computer && h->installation && strcmp(h->computer, "synthetic") == 0 &&
                     strcmp(h->installation, "synthetic") == 0;
    if ((h->computer || h->installation) && !(generated && synthetic))
        printf("  machine            %s%s%s\n", h->computer ? h->computer : "",
               h->computer && h->installation ? ", " : "", h->installation ? h->installation : "");
    for (size_t i = 0; i < h->n_kv; i++)
        if (strcmp(h->kv[i].key, "Note") == 0 && strncmp(h->kv[i].value, "scale: ", 7) == 0)
            printf("  scale              %s\n", h->kv[i].value + 7);
    if (h->max_nodes >= 0 || h->max_procs >= 0)
        printf("  header size        MaxNodes %lld, MaxProcs %lld\n", (long long)h->max_nodes,
               (long long)h->max_procs);
    if (h->unix_start_time >= 0)
        printf("  log start          UnixStartTime %lld%s%s\n", (long long)h->unix_start_time,
               h->time_zone_string ? ", " : "", h->time_zone_string ? h->time_zone_string : "");
    printf("  jobs               %zu (%zu data line%s; %zu malformed skipped, %zu out of submit "
           "order, %zu partial-execution line%s, %zu repeated job number%s)\n",
           w->n_jobs, w->n_data_lines, bl_s(w->n_data_lines), w->n_malformed, w->n_reordered,
           w->n_part_lines, bl_s(w->n_part_lines), w->n_dup_ids, bl_s(w->n_dup_ids));
}

/* The jobs' statistics (eng_wstats). */
static void info_stats(const eng_wstats *ws, const eng_swf_header *h)
{
    printf("  submits            %.0f .. %.0f s (%.1f days)\n", ws->first_submit_s,
           ws->last_submit_s, (ws->last_submit_s - ws->first_submit_s) / 86400.0);
    if (ws->n_with_procs)
        printf("  processors         median %g, max %g; serial %.1f%%, power of two %.1f%% "
               "(field 5, else 8)\n",
               ws->procs_median, ws->procs_max,
               100.0 * (double)ws->n_serial / (double)ws->n_with_procs,
               100.0 * (double)ws->n_pow2 / (double)ws->n_with_procs);
    if (ws->n_with_runtime)
        printf("  run time (s)       median %g, max %g; unknown in %zu job%s\n",
               ws->runtime_median_s, ws->runtime_max_s, ws->n_no_runtime, bl_s(ws->n_no_runtime));
    printf("  requested time     given for %zu job%s; run/request median %.3f; %zu job%s ran "
           "past it\n",
           ws->n_with_request, bl_s(ws->n_with_request), ws->accuracy_median, ws->n_over_request,
           bl_s(ws->n_over_request));
    printf("  status             %zu completed, %zu failed, %zu cancelled, %zu unknown (-1)\n",
           ws->n_completed, ws->n_failed, ws->n_cancelled, ws->n_status_unknown);
    printf("  dropped by any replay  %zu without run time, %zu without processor count\n",
           ws->n_no_runtime, ws->n_no_procs);
    if (h->max_procs > 0)
        printf("  larger than MaxProcs %zu\n", ws->n_larger_than_header);
}

/* With --platform: the jobs a replay there (default options) simulates
 * and drops, and the computed load over its hosts. 0, or 1 after the
 * message. */
static int info_on_platform(const eng_workload *w, const eng_platform *plat, const char *platform)
{
    eng_prepared prep;
    eng_prep_opts po = eng_prep_defaults();
    eng_diag d;
    eng_diag_clear(&d);
    if (eng_prep(w, plat, &po, &prep, &d)) {
        fprintf(stderr, "batchlab info: %s\n", d.msg);
        return 1;
    }
    eng_summary s = {0};
    memcpy(s.n_dropped, prep.n_dropped, sizeof s.n_dropped);
    s.n_dropped_total = prep.n_dropped_total;
    printf("  on %s (%zu host%s, %zu pool%s): %zu job%s simulated; ", platform, plat->n_hosts,
           bl_s(plat->n_hosts), plat->n_pools, bl_s(plat->n_pools), prep.n_jobs, bl_s(prep.n_jobs));
    print_drops(stdout, &s, "dropped ");
    double load = eng_wstats_prepared_load(&prep, plat->n_hosts);
    if (!isnan(load))
        printf("  computed load      %.4f on its %zu host%s (whole nodes per job)\n", load,
               plat->n_hosts, bl_s(plat->n_hosts));
    eng_prepared_fini(&prep);
    return 0;
}

static int cmd_info(int argc, char **argv)
{
    bl_args a;
    int rc = bl_args_parse("info", info_opts, sizeof info_opts / sizeof info_opts[0], argc, argv, 1,
                           &a);
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
    const char *platform = bl_args_value(&a, "platform", NULL);
    unsigned long long nodes = 0, cpn = 1;
    bool have_nodes = false;
    if (!path) {
        fprintf(stderr, "batchlab info: --workload is required\n");
        rc = 2;
    } else {
        rc = info_machine(&a, &have_nodes, &nodes, &cpn);
    }
    eng_workload *w = NULL;
    if (rc == 0)
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
    info_header(path, w);
    eng_wstats ws;
    if (w->n_jobs == 0) {
        rc = 0;
    } else if (eng_wstats_compute(w, &ws) != ENG_OK) {
        fprintf(stderr, "batchlab info: out of memory\n");
        rc = 1;
    } else {
        info_stats(&ws, &w->hdr);
        if (have_nodes) {
            eng_load load;
            eng_scale_load(w, (int64_t)nodes, (int64_t)cpn, &load, NULL);
            char text[40];
            printf("  computed load      %s on %llu node%s of %llu core%s (%zu job%s counted)\n",
                   bl_fmt_load(text, sizeof text, load.load), nodes, bl_s(nodes), cpn, bl_s(cpn),
                   load.n_counted, bl_s(load.n_counted));
        }
        if (plat)
            rc = info_on_platform(w, plat, platform);
    }
    eng_platform_destroy(plat);
    eng_workload_destroy(w);
    return rc;
}

/* ---- policies ----------------------------------------------------------- */

/* A policy's name, summary, citation and flags. */
static void policy_head(const pol_type *t)
{
    printf("%-14s %s\n%-14s (%s)\n", t->name, t->summary, "", t->citation);
    if (t->flags & POL_FLAG_ISLANDS)
        printf("%-14s   plans with islands (--islands strict)\n", "");
    if (t->flags & POL_FLAG_REPLANS)
        printf("%-14s   re-plans at every call (runs with --init-planned no)\n", "");
}

/* `policies NAME`: the head, then each option with what it accepts, its
 * default and what it does, as declared next to its key (pol_option). */
static void policy_detail(const pol_type *t)
{
    policy_head(t);
    if (!t->options || !t->options[0].key) {
        printf("\noptions: none\n");
        return;
    }
    printf("\noptions (--policy %s:KEY=VALUE:... or --policy-opt KEY=VALUE; values, default):\n",
           t->name);
    for (const pol_option *o = t->options; o->key; o++)
        printf("  %-16s %s; default %s\n  %-16s %s\n", o->key, o->values, o->def, "", o->help);
}

static int cmd_policies(int argc, char **argv)
{
    /* an optional NAME first, then options */
    const char *name = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
    bl_args a;
    int rc = bl_args_parse("policies", NULL, 0, argc, argv, name ? 2 : 1, &a);
    if (rc)
        return rc;
    bool help = a.help;
    bl_args_fini(&a);
    if (help) {
        printf("usage: batchlab policies [NAME]\n\nLists the registered policies, their "
               "citations and options; with NAME, that policy's\noptions with their values "
               "and defaults.\n");
        return 0;
    }
    if (name) {
        const pol_type *t = pol_find(name);
        if (!t) {
            fprintf(stderr, "batchlab policies: unknown policy '%s' (valid: %s)\n", name,
                    pol_names());
            return 2;
        }
        policy_detail(t);
        return 0;
    }
    size_t n;
    const pol_type *const *list = pol_list(&n);
    for (size_t i = 0; i < n; i++) {
        policy_head(list[i]);
        for (const pol_option *o = list[i]->options; o && o->key; o++)
            printf("%-14s   option %s (%s; default %s): %s\n", "", o->key, o->values, o->def,
                   o->help);
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
    {"run", bl_cmd_run, "replay a workload on a platform under one policy"},
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
    fprintf(f,
            "usage: batchlab COMMAND [options]   (batchlab COMMAND --help for details)\n\n"
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
