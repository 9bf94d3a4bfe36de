/* cli_run.c — one replay from the command line (cli_run.h): the run
 * configuration's rules and files, the one entry point bl_run_one that
 * `run`, `compare` and `sweep task` call, stop signals, the printout of
 * `run`, and the `run` command itself.
 *
 * Stop signals: the first SIGINT, SIGTERM or SIGHUP is passed on to the
 * simulation child running now (eng_run_forward_signal), which removes its
 * temporary files and dies; the command then says so and exits 128 + N.
 * With no child running, or at a second signal, the process removes its
 * own temporary files and exits 128 + N at once (a child still alive then
 * gets SIGTERM from the kernel as its parent dies).
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "cli_run.h"

#include "cli.h"

#include "eng_error.h"
#include "eng_output.h"
#include "eng_sha256.h"
#include "eng_util.h"
#include "pol_registry.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the configuration's rules and files ------------------------------- */

/* The table's rows parse and check every value (bl_run_config_parse); the
 * rules between options and the files they name are here. */
int bl_run_parse(const char *cmd, const bl_args *a, bl_run_config *cfg, bl_run_inputs *in)
{
    memset(in, 0, sizeof *in);
    in->cmd = cmd;
    if (!bl_args_value(a, "platform", NULL) || !bl_args_value(a, "workload", NULL)) {
        fprintf(stderr,
                "batchlab %s: --platform and --workload are required (see batchlab %s "
                "--help)\n",
                cmd, cmd);
        return 2;
    }
    if (bl_run_config_parse(cmd, a, cfg))
        return 2;
    return bl_run_inputs_options(cmd, cfg, in);
}

int bl_run_inputs_options(const char *cmd, const bl_run_config *cfg, bl_run_inputs *in)
{
    memset(in, 0, sizeof *in);
    in->cmd = cmd;
    snprintf(in->init_label, sizeof in->init_label, "none");
    const char *needs_suspend = cfg->suspend_timeout_set     ? "suspend-timeout"
                                : cfg->resume_timeout_set    ? "resume-timeout"
                                : cfg->suspend_rate_set      ? "suspend-rate"
                                : cfg->resume_rate_set       ? "resume-rate"
                                : cfg->suspend_exc_nodes_set ? "suspend-exc-nodes"
                                                             : NULL;
    if (needs_suspend && !cfg->suspend_time_set) {
        fprintf(stderr,
                "batchlab %s: --%s needs --suspend-time (idle shutdown is off without it)\n", cmd,
                needs_suspend);
        return 2;
    }
    if (cfg->init_share_set && cfg->init_times) {
        fprintf(stderr, "batchlab %s: give --init-share or --init-times, not both\n", cmd);
        return 2;
    }
    if (cfg->init_share_set)
        snprintf(in->init_label, sizeof in->init_label, "share %s",
                 cfg->init_share_arg ? cfg->init_share_arg : "");
    if (cfg->init_times) {
        eng_diag d;
        eng_diag_clear(&d);
        if (eng_prep_read_init_times(cfg->init_times, &in->init_times, &in->n_init_times, &d)) {
            fprintf(stderr, "batchlab %s: %s\n", cmd, d.msg);
            return 1;
        }
        snprintf(in->init_label, sizeof in->init_label, "table %s", cfg->init_times);
    }
    if (strcmp(bl_run_choice_name("init-planned", cfg->init_planned), "no") == 0) {
        size_t len = strlen(in->init_label);
        snprintf(in->init_label + len, sizeof in->init_label - len, ", not planned");
    }
    char on_failure[64];
    snprintf(on_failure, sizeof on_failure, "%s", "kill");
    if (cfg->on_failure)
        snprintf(on_failure, sizeof on_failure, "requeue up to %llu time%s", cfg->max_requeues,
                 bl_s(cfg->max_requeues));
    snprintf(in->failure_label, sizeof in->failure_label, "none");
    if (cfg->failures)
        snprintf(in->failure_label, sizeof in->failure_label, "model, epoch %g s, %s",
                 cfg->failure_epoch, on_failure);
    if (cfg->failure_trace) {
        if (cfg->failures) {
            fprintf(stderr, "batchlab %s: give --failures model or --failure-trace, not both\n",
                    cmd);
            return 2;
        }
        eng_diag d;
        eng_diag_clear(&d);
        if (eng_ftrace_read(cfg->failure_trace, &in->failure_trace, &d)) {
            fprintf(stderr, "batchlab %s: %s\n", cmd, d.msg);
            return 1;
        }
        char sha[65] = "";
        eng_sha256_file(cfg->failure_trace, sha, NULL);
        snprintf(in->failure_label, sizeof in->failure_label,
                 "trace %s (sha256 %s, %zu outage%s), %s", cfg->failure_trace, sha,
                 in->failure_trace.n, bl_s(in->failure_trace.n), on_failure);
    }
    snprintf(in->resv_label, sizeof in->resv_label, "none");
    if (cfg->reservations) {
        eng_diag d;
        eng_diag_clear(&d);
        if (eng_resvs_read(cfg->reservations, &in->resv, &d)) {
            fprintf(stderr, "batchlab %s: %s\n", cmd, d.msg);
            return 1;
        }
        char sha[65] = "";
        eng_sha256_file(cfg->reservations, sha, NULL);
        char more[96] = "";
        if (in->resv.n_lim)
            snprintf(more, sizeof more, ", %zu limit window%s", in->resv.n_lim,
                     bl_s(in->resv.n_lim));
        if (in->resv.n_repeat) {
            size_t len = strlen(more);
            snprintf(more + len, sizeof more - len, ", %zu repeating", in->resv.n_repeat);
        }
        snprintf(in->resv_label, sizeof in->resv_label, "%s (sha256 %s, %zu reservation%s%s)",
                 cfg->reservations, sha, in->resv.n, bl_s(in->resv.n), more);
    }
    const bl_run_label labels[] = {{"initialization", in->init_label},
                                   {"failures", in->failure_label},
                                   {"reservations", in->resv_label}};
    in->n_settings = bl_run_manifest(cfg, labels, BL_N_OPTS(labels), in->settings);
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

/* ---- stop signals (see the top of this file) --------------------------- */

static volatile sig_atomic_t stops_seen;

static void on_stop(int sig)
{
    if (stops_seen++ == 0 && eng_run_forward_signal(sig))
        return; /* the child stops; the command reports it */
    eng_afile_unlink_all();
    _exit(128 + sig);
}

void bl_run_install_stop_handlers(void)
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

/* ---- reading the inputs ------------------------------------------------- */

int bl_read_workload(const char *cmd, const char *path, bool lenient, eng_workload **w)
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

char *bl_command_line(int argc, const char *const *argv)
{
    size_t len = 16; /* "batchlab" */
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) * 4 + 3; /* ' becomes '\'' (4); a space and 2 quotes */
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

/* ---- the configuration handed to the engine ---------------------------- */

/* Hands the configuration to the engine: the one place where each option
 * takes effect. Choice options arrive as indices into their row's list, so
 * each index is mapped to its engine value by name here, not by order. The
 * manifest's settings come from the table (bl_run_manifest, computed with
 * the inputs). */
static void fill_spec(eng_run_spec *spec, const bl_run_config *c, const bl_run_inputs *in,
                      const bl_policy_spec *ps, const char *out_dir)
{
    const char *walltime = bl_run_choice_name("walltime", c->walltime);
    const char *alloc = bl_run_choice_name("alloc", c->alloc);
    const char *procs = bl_run_choice_name("procs", c->procs);
    const char *type_field = bl_run_choice_name("type-field", c->type_field);
    const char *on_failure = bl_run_choice_name("on-failure", c->on_failure);
    memset(spec, 0, sizeof *spec);
    spec->platform_path = c->platform;
    spec->workload = in->workload;
    spec->out_dir = out_dir;
    spec->sim.prep = (eng_prep_opts){
        .procs_field = strcmp(procs, "req") == 0 ? ENG_PROCS_REQ : ENG_PROCS_ALLOC,
        .walltime = strcmp(walltime, "extend") == 0 ? ENG_WALLTIME_EXTEND : ENG_WALLTIME_KILL,
        .alloc = strcmp(alloc, "core") == 0 ? POL_ALLOC_CORE : POL_ALLOC_NODE,
        .type_field = strcmp(type_field, "partition") == 0 ? ENG_TYPE_PARTITION
                      : strcmp(type_field, "app") == 0     ? ENG_TYPE_APP
                                                           : ENG_TYPE_QUEUE,
        .init_share = c->init_share,
        .init_times = in->init_times,
        .n_init_times = in->n_init_times,
        .init_unplanned = strcmp(bl_run_choice_name("init-planned", c->init_planned), "no") == 0,
        .feedback = strcmp(bl_run_choice_name("feedback", c->feedback), "swf") == 0
                        ? ENG_FEEDBACK_SWF
                    : strcmp(bl_run_choice_name("feedback", c->feedback), "sessions") == 0
                        ? ENG_FEEDBACK_SESSIONS
                        : ENG_FEEDBACK_NONE,
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
                     .trace = in->failure_trace.spans,
                     .n_trace = in->failure_trace.n,
                     .trace_path = c->failure_trace},
        .power_save = {.enabled = c->suspend_time_set,
                       .suspend_time_s = c->suspend_time,
                       .suspend_timeout_s = c->suspend_timeout,
                       .resume_timeout_s = c->resume_timeout,
                       .suspend_rate = (int32_t)c->suspend_rate,
                       .resume_rate = (int32_t)c->resume_rate,
                       .exc_nodes = c->suspend_exc_nodes},
        .power_cap_w = c->power_cap_set ? c->power_cap : 0,
        .resv = c->reservations ? &in->resv : NULL,
    };
    spec->sim.progress = !c->quiet && isatty(STDERR_FILENO);
    spec->manifest = (eng_manifest){
        .command = in->command,
        .policy = ps->label,
        .options = ps->kv,
        .n_options = ps->n_kv,
        .workload_path = c->workload,
        .platform_path = c->platform,
        .policy_library = ps->lib ? ps->lib->path : NULL,
        .policy_library_sha256 = ps->lib ? ps->lib->sha256 : NULL,
        .settings = in->settings,
        .n_settings = in->n_settings,
        .outputs = c->outputs,
    };
}

/* ---- the entry point --------------------------------------------------- */

int bl_run_inputs_workload(const bl_run_config *cfg, bl_run_inputs *in)
{
    int rc = check_readable(in->cmd, "platform", cfg->platform);
    if (rc == 0)
        rc = bl_read_workload(in->cmd, cfg->workload, cfg->lenient, &in->workload);
    if (rc == 0)
        rc = check_has_jobs(in->cmd, cfg->workload, in->workload);
    if (rc == 0 && (in->resv.n || in->resv.n_lim)) { /* repeats on the log's calendar */
        eng_diag d;
        eng_diag_clear(&d);
        if (eng_resvs_expand_on(&in->resv, in->workload, &d)) {
            fprintf(stderr, "batchlab %s: %s\n", in->cmd, d.msg);
            rc = 1;
        }
    }
    return rc;
}

void bl_run_inputs_fini(bl_run_inputs *in)
{
    free(in->init_times);
    in->init_times = NULL;
    eng_ftrace_fini(&in->failure_trace);
    eng_resvs_fini(&in->resv);
    eng_workload_destroy(in->workload);
    in->workload = NULL;
    free(in->command);
    in->command = NULL;
}

/* A policy whose decisions come from outside (POL_FLAG_EXTERNAL: the
 * Batsim bridge) gets the --scheduler-* options and the workload's
 * absolute path as policy options, after those of its spec, which then
 * also name them in the manifest: the command line holds the processes'
 * and the environment's settings and passes them down. *kv is malloc'd
 * (the caller frees it and, in *abs, the path); NULL when nothing is
 * added. 0, or 1 when memory runs out. */
static int external_options(const bl_run_config *c, const bl_policy_spec *ps, pol_kv **kv,
                            size_t *n, char **abs)
{
    *kv = NULL;
    *abs = NULL;
    *n = ps->n_kv;
    if (!(ps->type->flags & POL_FLAG_EXTERNAL))
        return 0;
    *kv = malloc((ps->n_kv + 4) * sizeof **kv);
    *abs = realpath(c->workload, NULL);
    if (!*kv)
        return 1;
    memcpy(*kv, ps->kv, ps->n_kv * sizeof **kv);
    const pol_kv add[] = {{"socket", c->scheduler_socket},
                          {"command", c->scheduler_cmd},
                          {"timeout", c->scheduler_timeout_arg},
                          {"workload", *abs ? *abs : c->workload}};
    for (size_t i = 0; i < sizeof add / sizeof add[0]; i++)
        if (add[i].value)
            (*kv)[(*n)++] = add[i];
    return 0;
}

int bl_run_one(const bl_run_config *cfg, const bl_run_inputs *in, const bl_policy_spec *policy,
               const char *out_dir, bool name_policy, bool with_jobs, eng_run_report *rep)
{
    bl_policy_spec ext = *policy;
    pol_kv *kv;
    char *abs;
    if (external_options(cfg, policy, &kv, &ext.n_kv, &abs)) {
        free(abs);
        fprintf(stderr, "batchlab %s: out of memory\n", in->cmd);
        return 1;
    }
    if (kv)
        ext.kv = kv;
    eng_run_spec spec;
    fill_spec(&spec, cfg, in, &ext, out_dir);
    spec.summary_only = !with_jobs;
    const char *label = name_policy ? policy->label : NULL;
    eng_diag d;
    eng_diag_clear(&d);
    int failed = eng_run_isolated(&spec, rep, &d);
    free(kv);
    free(abs);
    if (eng_run_stopped_by()) {
        if (!failed)
            eng_run_report_fini(rep);
        int rc = stopped(in->cmd, label, eng_run_stopped_by(), !failed, out_dir);
        memset(rep, 0, sizeof *rep);
        return rc;
    }
    if (failed) {
        if (label)
            eng_diag_prefix(&d, "%s: ", label);
        return report_failure(in->cmd, &d);
    }
    return 0;
}

/* ---- printing --------------------------------------------------------- */

const char *bl_fmt_grouped(char *buf, size_t len, double v, int decimals)
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

void bl_print_drops(FILE *f, const eng_summary *s, const char *head)
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

/* The breakdowns' digest (eng_breakdown.h): jobs and mean wait per size
 * and run-time class, the fairness across users, the users of the largest
 * mean wait; summary.json holds every row. */
static void print_breakdowns(const eng_bd_brief *bd)
{
    char a[64];
    printf("  by size (units)    jobs/mean wait (s):");
    for (size_t k = 0; k < bd->n_size; k++)
        printf("%s %s %zu/%s", k ? "," : "", bd->size[k].key, bd->size[k].jobs,
               bl_fmt_grouped(a, sizeof a, bd->size[k].wait_mean_s, 1));
    printf("\n  by run time        jobs/mean wait (s):");
    for (size_t k = 0; k < ENG_BD_RUNTIME_CLASSES; k++) {
        const eng_bd_row *row = &bd->runtime[k];
        printf("%s %s %zu/%s", k ? "," : "", row->key, row->jobs,
               row->jobs ? bl_fmt_grouped(a, sizeof a, row->wait_mean_s, 1) : "-");
    }
    printf("\n");
    const eng_fairness *f = &bd->fairness;
    if (f->users > 0)
        printf("  fairness           %zu user%s: mean bounded slowdown per user %.3f to %.3f, "
               "cv %.3f, Jain's index %.3f\n",
               f->users, bl_s(f->users), f->bsld_user_mean_min, f->bsld_user_mean_max,
               f->bsld_user_mean_cv, f->jain_index);
    for (size_t k = 0; k < bd->n_top_users && bd->n_users > 1; k++)
        if (bd->top_users[k].wait_mean_s > 0)
            printf("  %-19suser %s: %zu job%s, mean wait %s s, bounded slowdown %.3f\n",
                   k ? "" : "longest waits", bd->top_users[k].key, bd->top_users[k].jobs,
                   bl_s(bd->top_users[k].jobs),
                   bl_fmt_grouped(a, sizeof a, bd->top_users[k].wait_mean_s, 1),
                   bd->top_users[k].bsld_mean);
}

void bl_run_print(const bl_run_config *cfg, const bl_run_inputs *in, const bl_policy_spec *ps,
                  const char *out_dir, const eng_run_report *r)
{
    eng_run_spec run_spec;
    fill_spec(&run_spec, cfg, in, ps, out_dir);
    const eng_run_spec *spec = &run_spec;
    const eng_summary *s = &r->summary;
    char a[64], b[64], c[64];
    printf("batchlab run: %s on %s (%zu host%s, %s allocation), walltime %s\n", ps->label,
           spec->platform_path, r->n_platform_hosts, bl_s(r->n_platform_hosts),
           bl_run_choice_name("alloc", cfg->alloc), bl_run_choice_name("walltime", cfg->walltime));
    printf("  workload           %s\n", spec->manifest.workload_path);
    printf("  jobs               %zu read, %zu simulated: %zu completed, %zu killed at their "
           "requested time",
           s->n_input, s->n_simulated, s->n_completed, s->n_killed);
    if (spec->sim.core.failures.enabled)
        printf(", %zu cut by a host failure", s->n_failed);
    if (s->n_stopped)
        printf(", %zu killed by the scheduler", s->n_stopped);
    if (s->n_rejected)
        printf("; %zu rejected by the scheduler", s->n_rejected);
    printf("\n");
    bl_print_drops(stdout, s, "  dropped            ");
    if (s->n_est_from_runtime)
        printf("  estimates          %zu job%s had no requested time: planned with %s run "
               "time\n",
               s->n_est_from_runtime, bl_s(s->n_est_from_runtime),
               s->n_est_from_runtime == 1 ? "its" : "their");
    if (s->n_queue_time)
        printf("  estimates          %zu job%s had no requested time: given %s queue's "
               "max_runtime_s (queue_limits)\n",
               s->n_queue_time, bl_s(s->n_queue_time), s->n_queue_time == 1 ? "its" : "their");
    if (s->n_extended)
        printf("  estimates          %zu request%s raised to the run time (--walltime extend)\n",
               s->n_extended, bl_s(s->n_extended));
    if (s->n_mem_raised)
        printf("  memory             %zu job%s given more units than processors for their "
               "memory (SWF field 10)\n",
               s->n_mem_raised, bl_s(s->n_mem_raised));
    if (s->feedback != ENG_FEEDBACK_NONE)
        printf("  feedback           %zu job%s submitted after a predecessor's end, %zu whose "
               "predecessor is not simulated (logged submit kept)\n",
               s->n_fb_deps, bl_s(s->n_fb_deps), s->n_fb_missing);
    if (s->n_simulated == 0) {
        printf("  wait, slowdown     n/a: no job was simulated (every job was dropped)\n");
    } else {
        printf("  wait (s)           mean %s, median %s, p95 %s, max %s\n",
               bl_fmt_grouped(a, sizeof a, s->wait_mean_s, 1),
               bl_fmt_grouped(b, sizeof b, s->wait_median_s, 1),
               bl_fmt_grouped(c, sizeof c, s->wait_p95_s, 1),
               bl_fmt_grouped((char[64]){0}, 64, s->wait_max_s, 1));
        printf("  response (s)       mean %s\n",
               bl_fmt_grouped(a, sizeof a, s->response_mean_s, 1));
        printf("  slowdown           mean %.3f; bounded (tau %g s) mean %.3f\n", s->slowdown_mean,
               ENG_BSLD_TAU_S, s->bsld_mean);
        printf("  utilization        %.4f over %s s\n", s->utilization,
               bl_fmt_grouped(a, sizeof a, s->makespan_s, 0));
        printf("  queue length       mean %.2f, max %.0f\n", s->queue_mean, s->queue_max);
        print_breakdowns(&r->breakdown);
    }
    if (s->log.jobs > 0) {
        char rho[32] = "n/a";
        if (isfinite(s->log.wait_spearman))
            snprintf(rho, sizeof rho, "%.3f", s->log.wait_spearman);
        printf("  log agreement      %zu job%s with a logged wait: mean wait %s s logged, %s s "
               "simulated; mean |difference| %s s; Spearman %s\n",
               s->log.jobs, bl_s(s->log.jobs),
               bl_fmt_grouped(a, sizeof a, s->log.wait_mean_log_s, 1),
               bl_fmt_grouped(b, sizeof b, s->log.wait_mean_sim_s, 1),
               bl_fmt_grouped(c, sizeof c, s->log.wait_mae_s, 1), rho);
        if (s->log.cancelled_excluded > 0)
            printf("                     %zu job%s cancelled before %s started left out\n",
                   s->log.cancelled_excluded, s->log.cancelled_excluded == 1 ? "" : "s",
                   s->log.cancelled_excluded == 1 ? "it" : "they");
    }
    if (spec->sim.core.failures.enabled)
        printf("  host failures      %s: %zu job%s failed, %zu requeued, %s node-seconds wasted\n",
               in->failure_label, s->n_failed, bl_s(s->n_failed), s->n_requeues,
               bl_fmt_grouped(a, sizeof a, s->wasted_node_s, 0));
    if (s->energy.on) {
        const eng_energy_summary *e = &s->energy;
        printf("  energy             %s kWh: jobs %s, idle %s, off %s, switching %s; power "
               "mean %s W, peak %s W\n",
               bl_fmt_grouped(a, sizeof a, e->total_j / 3.6e6, 2),
               bl_fmt_grouped(b, sizeof b, e->jobs_j / 3.6e6, 2),
               bl_fmt_grouped(c, sizeof c, e->idle_j / 3.6e6, 2),
               bl_fmt_grouped((char[64]){0}, 64, e->off_j / 3.6e6, 2),
               bl_fmt_grouped((char[64]){0}, 64, e->switching_j / 3.6e6, 2),
               bl_fmt_grouped((char[64]){0}, 64, e->mean_power_w, 1),
               bl_fmt_grouped((char[64]){0}, 64, e->peak_power_w, 1));
    }
    if (s->cost > 0)
        printf("  cost               %s (price per host-second x time held)\n",
               bl_fmt_grouped(a, sizeof a, s->cost, 2));
    if (s->init_total_s > 0)
        printf("  initialization     %s: share %.4f of run time, %s s in total, %zu job type%s\n",
               in->init_label, s->init_share, bl_fmt_grouped(a, sizeof a, s->init_total_s, 0),
               s->n_types, bl_s(s->n_types));
    if (r->policy_report[0])
        printf("  policy report      %s\n", r->policy_report);
    printf("  simulation         %.3f s wall (%.3f s in the policy), %s jobs/s, peak memory "
           "%.1f MB\n",
           r->wall_s, r->policy_wall_s,
           bl_fmt_grouped(a, sizeof a, r->wall_s > 0 ? (double)s->n_simulated / r->wall_s : 0, 0),
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

/* ---- run ---------------------------------------------------------------- */

const bl_opt bl_run_opts[] = {
    BL_RUN_OPTS{"policy", 'P', BL_VALUE, "NAME",
                "scheduling policy, optionally NAME:key=value:... "
                "(see batchlab policies); NAME may be a policy library, PATH.so"},
    {"policy-opt", 0, BL_MULTI, "KEY=VALUE", "option passed to the policy (repeatable)"},
};
const size_t bl_run_n_opts = BL_N_OPTS(bl_run_opts);

int bl_cmd_run(int argc, char **argv)
{
    bl_args a;
    int rc = bl_args_parse("run", bl_run_opts, bl_run_n_opts, argc, argv, 1, &a);
    if (rc)
        return rc;
    if (a.help) {
        bl_args_usage("run", "--platform FILE --workload FILE --policy NAME [options]",
                      "Replays a workload on a platform under one policy and prints a summary.",
                      bl_run_opts, bl_run_n_opts);
        bl_args_fini(&a);
        return 0;
    }
    bl_run_config cfg;
    bl_run_inputs in;
    bl_policy_spec ps = {0};
    const char *policy = bl_args_value(&a, "policy", NULL);
    rc = bl_run_parse("run", &a, &cfg, &in);
    if (rc == 0 && !policy) {
        fprintf(stderr, "batchlab run: --policy is required (valid: %s)\n", pol_names());
        rc = 2;
    }
    const bl_arg *popt = bl_args_get(&a, "policy-opt");
    if (rc == 0)
        rc = bl_policy_spec_parse("run", policy, popt->values, popt->n_values, &ps);
    if (rc == 0 && !(ps.type->flags & POL_FLAG_EXTERNAL) &&
        (cfg.scheduler_socket_set || cfg.scheduler_cmd_set || cfg.scheduler_timeout_set)) {
        fprintf(stderr,
                "batchlab run: --scheduler-socket, --scheduler-cmd and --scheduler-timeout go "
                "with --policy batsim, not %s\n",
                ps.type->name);
        rc = 2;
    }
    if (rc == 0)
        rc = bl_run_inputs_workload(&cfg, &in);
    if (rc == 0 && !(in.command = bl_command_line(argc, (const char *const *)argv))) {
        fprintf(stderr, "batchlab run: out of memory\n");
        rc = 1;
    }
    eng_run_report rep;
    if (rc == 0)
        rc = bl_run_one(&cfg, &in, &ps, cfg.out, false, false, &rep);
    if (rc == 0) {
        bl_run_print(&cfg, &in, &ps, cfg.out, &rep);
        eng_run_report_fini(&rep);
    }
    bl_policy_spec_fini(&ps);
    bl_run_inputs_fini(&in);
    bl_args_fini(&a);
    return rc;
}
