/* eng_output.c — see eng_output.h. */
#include "eng_output.h"
#include "eng_coreidx.h"

#include "eng_util.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef BATCHLAB_VERSION
#define BATCHLAB_VERSION "0.0.0"
#endif
#include "bl_commit.h" /* BATCHLAB_GIT_COMMIT, generated at build time */

const char *eng_final_state_name(int state)
{
    switch (state) {
    case ENG_JOB_DONE:
        return "COMPLETED_SUCCESSFULLY";
    case ENG_JOB_KILLED:
        return "COMPLETED_WALLTIME_REACHED";
    case ENG_JOB_FAILED:
        return "COMPLETED_FAILED";
    case ENG_JOB_QUEUED:
    case ENG_JOB_PENDING:
        return "NOT_SUBMITTED";
    default:
        return "RUNNING";
    }
}

static void put_num(FILE *f, double v)
{
    char buf[40];
    fputs(eng_fmt_double(buf, sizeof buf, v), f);
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p == '\t')
            fputs("\\t", f);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static void json_num(FILE *f, double v)
{
    if (!isfinite(v))
        fputs("null", f);
    else
        put_num(f, v);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Batsim's interval set: sorted host indices as "0-3 7 9-10". */
static void put_intervals(FILE *f, int32_t *idx, size_t n)
{
    qsort(idx, n, sizeof *idx, cmp_i32);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && idx[j + 1] == idx[j] + 1)
            j++;
        if (i)
            fputc(' ', f);
        if (j > i)
            fprintf(f, "%d-%d", idx[i], idx[j]);
        else
            fprintf(f, "%d", idx[i]);
        i = j + 1;
    }
}

/* The workload's name as Batsim's workload_name: the file name without
 * ".swf" / ".swf.gz". */
static void workload_name(const char *path, char *buf, size_t len)
{
    snprintf(buf, len, "%s", eng_basename(path ? path : "workload"));
    static const char *const exts[] = {".swf.gz", ".swf", ".gz"};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
        if (eng_ends_with(buf, exts[i])) {
            buf[strlen(buf) - strlen(exts[i])] = '\0';
            break;
        }
}

/* Batsim's interval set of a job's core indices (eng_coreidx.h: ascending,
 * merged spans). */
static void put_spans(FILE *f, const eng_coreidx *x, size_t job)
{
    for (int32_t s = 0; s < x->count[job]; s++) {
        const eng_core_span *sp = &x->spans[x->off[job] + (size_t)s];
        if (s)
            fputc(' ', f);
        if (sp->n > 1)
            fprintf(f, "%lld-%lld", (long long)sp->first, (long long)(sp->first + sp->n - 1));
        else
            fprintf(f, "%lld", (long long)sp->first);
    }
}

/* allocated_resources counts what requested_number_of_resources counts:
 * host indices under node allocation, core indices (eng_coreidx.h) under
 * core allocation. */
static int write_jobs_csv(FILE *f, const eng_workload *w, const eng_sim_result *r, eng_diag *d)
{
    const eng_job_result *res = eng_core_results(r->core);
    const eng_host_run *runs = eng_core_alloc_runs(r->core);
    eng_coreidx cores;
    memset(&cores, 0, sizeof cores);
    bool by_core = eng_core_alloc_mode(r->core) == POL_ALLOC_CORE;
    if (by_core) {
        int rc = eng_coreidx_build(r->platform, res, r->prep.n_jobs, runs, &cores, d);
        if (rc)
            return rc;
    }
    char name[256];
    workload_name(w->path, name, sizeof name);
    fputs("job_id,workload_name,profile,submission_time,requested_number_of_resources,"
          "requested_time,success,final_state,starting_time,execution_time,finish_time,"
          "waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,metadata,"
          "bounded_slowdown,procs,queue,pool,user,estimate_s,estimate_source,type,init_s,cost,"
          "packet,requeues\n",
          f);
    int32_t *scratch = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < r->prep.n_jobs; i++) {
        const eng_sim_job *j = &r->prep.jobs[i];
        const eng_job_result *x = &res[i];
        double exec = x->end_s - x->start_s;
        double wait = x->start_s - j->submit_s;
        double turn = x->end_s - j->submit_s;
        fprintf(f, "%lld,%s,swf,", (long long)j->id, name);
        put_num(f, j->submit_s);
        fprintf(f, ",%d,", j->units);
        put_num(f, j->estimate_s);
        fprintf(f, ",%d,%s,", x->state == ENG_JOB_DONE, eng_final_state_name(x->state));
        put_num(f, x->start_s);
        fputc(',', f);
        put_num(f, exec);
        fputc(',', f);
        put_num(f, x->end_s);
        fputc(',', f);
        put_num(f, wait);
        fputc(',', f);
        put_num(f, turn);
        fputc(',', f);
        if (exec > 0)
            put_num(f, turn / exec);
        fputc(',', f);
        if (by_core) {
            put_spans(f, &cores, i);
        } else {
            if (eng_grow(&scratch, &cap, (size_t)x->n_hosts, sizeof *scratch)) {
                free(scratch);
                return eng_diag_set(d, ENG_NOMEM, "out of memory");
            }
            size_t n_h = 0;
            for (int32_t u = 0; u < x->n_runs && x->n_hosts > 0; u++) {
                const eng_host_run *run = &runs[x->runs_off + (size_t)u];
                for (int32_t k = 0; k < run->n; k++)
                    scratch[n_h++] = run->host + k;
            }
            put_intervals(f, scratch, n_h);
        }
        fputs(",-1,,", f);
        double b = turn / fmax(exec, ENG_BSLD_TAU_S);
        put_num(f, b > 1 ? b : 1);
        fprintf(f, ",%d,%lld,%d,%lld,", j->procs, (long long)j->queue, j->pool, (long long)j->user);
        put_num(f, j->estimate_s);
        fprintf(f, j->est_from_runtime ? ",run_time,%lld," : ",requested_time,%lld,",
                (long long)j->type);
        put_num(f, x->init_s);
        fputc(',', f);
        put_num(f, eng_job_cost(r->platform, x, runs));
        fprintf(f, ",%lld,%d\n", x->packet >= 0 ? (long long)r->prep.jobs[x->packet].id : -1LL,
                x->requeues);
        if (ferror(f))
            break; /* a full disk: stop at once, errno holds the cause */
    }
    free(scratch);
    eng_coreidx_fini(&cores);
    return ferror(f) ? ENG_IO : ENG_OK;
}

static int write_dropped_csv(FILE *f, const eng_workload *w, const eng_sim_result *r)
{
    fputs("job_id,line,reason,explanation\n", f);
    for (size_t i = 0; i < r->prep.n_src; i++) {
        int reason = r->prep.drop[i];
        if (reason < 0)
            continue;
        fprintf(f, "%lld,%lld,%s,%s\n", (long long)w->jobs[i].id, (long long)w->jobs[i].line,
                eng_drop_key(reason), eng_drop_text(reason));
        if (ferror(f))
            break;
    }
    return ferror(f) ? ENG_IO : ENG_OK;
}

static int write_timeseries_csv(FILE *f, const eng_sim_result *r, int64_t total_units)
{
    size_t n;
    const eng_ts_row *ts = eng_core_timeseries(r->core, &n);
    fputs("time_s,queued_jobs,running_jobs,busy_nodes,busy_cores,utilization,down_hosts\n", f);
    for (size_t k = 0; k < n; k++) {
        put_num(f, ts[k].t_s);
        fprintf(f, ",%d,%d,%d,%lld,", ts[k].queued, ts[k].running, ts[k].busy_nodes,
                (long long)ts[k].busy_cores);
        put_num(f, total_units ? (double)ts[k].busy_units / (double)total_units : 0);
        fprintf(f, ",%d\n", ts[k].down_hosts);
        if (ferror(f))
            break;
    }
    return ferror(f) ? ENG_IO : ENG_OK;
}

static void json_kv_num(FILE *f, const char *indent, const char *key, double v, bool last)
{
    fprintf(f, "%s\"%s\": ", indent, key);
    json_num(f, v);
    fputs(last ? "\n" : ",\n", f);
}

static void json_kv_str(FILE *f, const char *indent, const char *key, const char *v, bool last)
{
    fprintf(f, "%s\"%s\": ", indent, key);
    json_str(f, v);
    fputs(last ? "\n" : ",\n", f);
}

int eng_output_summary_json(FILE *f, const eng_workload *w, const eng_sim_result *r,
                            const eng_summary *s, const eng_manifest *m)
{
    const char *I2 = "    ", *I3 = "      ";
    fputs("{\n  \"jobs\": {\n", f);
    json_kv_num(f, I2, "input", (double)s->n_input, false);
    json_kv_num(f, I2, "malformed_lines_skipped", (double)s->n_malformed, false);
    json_kv_num(f, I2, "simulated", (double)s->n_simulated, false);
    json_kv_num(f, I2, "dropped", (double)s->n_dropped_total, false);
    fprintf(f, "%s\"dropped_by_reason\": {\n", I2);
    for (int k = 0; k < ENG_DROP_COUNT; k++)
        json_kv_num(f, I3, eng_drop_key(k), (double)s->n_dropped[k], k == ENG_DROP_COUNT - 1);
    fprintf(f, "%s},\n", I2);
    fprintf(f, "%s\"by_final_state\": {\n", I2);
    json_kv_num(f, I3, "COMPLETED_SUCCESSFULLY", (double)s->n_completed, false);
    json_kv_num(f, I3, "COMPLETED_WALLTIME_REACHED", (double)s->n_killed, false);
    json_kv_num(f, I3, "COMPLETED_FAILED", (double)s->n_failed, true);
    fprintf(f, "%s},\n", I2);
    json_kv_num(f, I2, "estimate_from_run_time", (double)s->n_est_from_runtime, false);
    json_kv_num(f, I2, "estimate_extended_to_run_time", (double)s->n_extended, false);
    json_kv_num(f, I2, "run_time_over_request", (double)s->n_overrun, false);
    json_kv_num(f, I2, "requeued_after_failure", (double)s->n_requeues, true);
    fputs("  },\n  \"metrics\": {\n", f);
    json_kv_num(f, I2, "wait_mean_s", s->wait_mean_s, false);
    json_kv_num(f, I2, "wait_median_s", s->wait_median_s, false);
    json_kv_num(f, I2, "wait_p95_s", s->wait_p95_s, false);
    json_kv_num(f, I2, "wait_max_s", s->wait_max_s, false);
    json_kv_num(f, I2, "response_mean_s", s->response_mean_s, false);
    json_kv_num(f, I2, "slowdown_mean", s->slowdown_mean, false);
    json_kv_num(f, I2, "slowdown_jobs", (double)s->n_slowdown, false);
    json_kv_num(f, I2, "bounded_slowdown_mean", s->bsld_mean, false);
    json_kv_num(f, I2, "bounded_slowdown_tau_s", ENG_BSLD_TAU_S, false);
    json_kv_num(f, I2, "utilization", s->utilization, false);
    json_kv_num(f, I2, "makespan_s", s->makespan_s, false);
    json_kv_num(f, I2, "window_start_s", s->t0_s, false);
    json_kv_num(f, I2, "window_end_s", s->t1_s, false);
    json_kv_num(f, I2, "queue_length_mean", s->queue_mean, false);
    json_kv_num(f, I2, "queue_length_max", s->queue_max, false);
    json_kv_num(f, I2, "cost", s->cost, false);
    json_kv_num(f, I2, "failures_wasted_node_s", s->wasted_node_s, false);
    json_kv_num(f, I2, "initialization_total_s", s->init_total_s, false);
    json_kv_num(f, I2, "initialization_share", s->init_share, false);
    json_kv_num(f, I2, "initialization_share_target", s->init_share_target, s->n_pseudo == 0);
    if (s->n_pseudo > 0) { /* runs that formed packets of several jobs */
        fprintf(f, "%s\"pseudo_job_accounting\": {\n", I2);
        json_kv_num(f, I3, "packets", (double)s->n_packets, false);
        json_kv_num(f, I3, "pseudo_jobs", (double)s->n_pseudo, false);
        json_kv_num(f, I3, "wait_mean_s", s->pk_wait_mean_s, false);
        json_kv_num(f, I3, "wait_median_s", s->pk_wait_median_s, false);
        json_kv_num(f, I3, "queue_length_mean", s->pk_queue_mean, true);
        fprintf(f, "%s}\n", I2);
    }
    if (s->log.jobs > 0) { /* the log has wait times (SWF field 3) */
        fputs("  },\n  \"log_agreement\": {\n", f);
        json_kv_num(f, I2, "jobs", (double)s->log.jobs, false);
        json_kv_num(f, I2, "wait_mean_log", s->log.wait_mean_log_s, false);
        json_kv_num(f, I2, "wait_mean_sim", s->log.wait_mean_sim_s, false);
        json_kv_num(f, I2, "wait_mae_s", s->log.wait_mae_s, false);
        json_kv_num(f, I2, "wait_spearman", s->log.wait_spearman, true);
    }
    fputs("  },\n  \"platform\": {\n", f);
    const eng_platform *p = r->platform;
    json_kv_str(f, I2, "path", m->platform_path, false);
    json_kv_num(f, I2, "hosts", (double)p->n_hosts, false);
    json_kv_num(f, I2, "cores", (double)p->total_cores, false);
    json_kv_num(f, I2, "units", (double)s->total_units, false);
    json_kv_num(f, I2, "ref_speed_flops", p->ref_speed_flops, false);
    fprintf(f, "%s\"pools\": [\n", I2);
    for (size_t i = 0; i < p->n_pools; i++) {
        const eng_pool *pl = &p->pools[i];
        fprintf(f, "%s{\"label\": ", I3);
        json_str(f, pl->label);
        fprintf(f, ", \"hosts\": %zu, \"cores\": %lld, \"cores_per_node\": %d", pl->n_hosts,
                (long long)pl->total_cores, pl->cores_per_node);
        if (pl->n_islands > 0) { /* named by their hosts' island property */
            fputs(", \"islands\": [", f);
            for (int32_t k = 0; k < pl->n_islands; k++) {
                fprintf(f, "%s{\"name\": ", k ? ", " : "");
                json_str(f, pl->island_names[k]);
                fprintf(f, ", \"hosts\": %d}", pl->island_hosts[k]);
            }
            fputs("]", f);
        }
        fprintf(f, "}%s\n", i + 1 < p->n_pools ? "," : "");
    }
    fprintf(f, "%s]\n", I2);
    fputs("  },\n  \"manifest\": {\n", f);
    json_kv_str(f, I2, "batchlab_version", BATCHLAB_VERSION, false);
    json_kv_str(f, I2, "git_commit", BATCHLAB_GIT_COMMIT, false);
    json_kv_str(f, I2, "simgrid_version", eng_sim_simgrid_version(), false);
    json_kv_str(f, I2, "command", m->command, false);
    json_kv_str(f, I2, "policy", m->policy, false);
    fprintf(f, "%s\"policy_options\": {", I2);
    for (size_t i = 0; i < m->n_options; i++) {
        fputs(i ? ", " : "", f);
        json_str(f, m->options[i].key);
        fputs(": ", f);
        json_str(f, m->options[i].value);
    }
    fputs("},\n", f);
    char report[1024];
    eng_core_policy_report(r->core, report, sizeof report);
    json_kv_str(f, I2, "policy_report", report, false);
    json_kv_str(f, I2, "walltime", m->walltime, false);
    json_kv_str(f, I2, "alloc", m->alloc, false);
    json_kv_str(f, I2, "islands", m->islands ? m->islands : "strict", false);
    json_kv_str(f, I2, "procs_field", m->procs_field, false);
    json_kv_str(f, I2, "type_field", m->type_field ? m->type_field : "queue", false);
    json_kv_str(f, I2, "initialization", m->init ? m->init : "none", false);
    json_kv_str(f, I2, "failures", m->failures ? m->failures : "none", false);
    fprintf(f, "%s\"lenient\": %s,\n", I2, m->lenient ? "true" : "false");
    fprintf(f, "%s\"check\": %s,\n", I2, m->check ? "true" : "false");
    fprintf(f, "%s\"seed\": %llu,\n", I2, (unsigned long long)m->seed); /* an integer, exact */
    fprintf(f, "%s\"inputs\": {\n", I2);
    fprintf(f, "%s\"workload\": {\"path\": ", I3);
    json_str(f, m->workload_path ? m->workload_path : w->path);
    fputs(", \"sha256\": ", f);
    json_str(f, m->workload_sha256);
    fputs("},\n", f);
    fprintf(f, "%s\"platform\": {\"path\": ", I3);
    json_str(f, m->platform_path);
    fputs(", \"sha256\": ", f);
    json_str(f, m->platform_sha256);
    fprintf(f, "}\n%s},\n", I2);
    json_kv_num(f, I2, "policy_wall_time_s", eng_core_policy_wall_s(r->core), false);
    json_kv_num(f, I2, "wall_time_s", m->wall_time_s, true);
    fputs("  }\n}\n", f);
    return ferror(f) ? ENG_IO : ENG_OK;
}

/* Writes schedule.swf's content to a->f; a failed write is reported for
 * a's path. */
static int write_schedule_swf(eng_afile *a, const eng_workload *w, const eng_sim_result *r,
                              const eng_manifest *m, eng_diag *d)
{
    eng_workload *out = eng_workload_create(w->path);
    if (!out)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    int rc = ENG_OK;
    for (size_t i = 0; i < w->hdr.n_kv && rc == ENG_OK; i++)
        rc = eng_workload_set_header(out, w->hdr.kv[i].key, w->hdr.kv[i].value);
    const eng_job_result *res = eng_core_results(r->core);
    const eng_host_run *runs = eng_core_alloc_runs(r->core);
    for (size_t i = 0; i < r->prep.n_jobs && rc == ENG_OK; i++) {
        const eng_sim_job *s = &r->prep.jobs[i];
        const eng_job_result *x = &res[i];
        eng_job j = w->jobs[s->src];
        j.wait_s = x->start_s - s->submit_s;
        j.runtime_s = x->end_s - x->start_s;
        int64_t procs = 0;
        for (int32_t u = 0; u < x->n_runs && x->n_hosts > 0; u++)
            procs += (int64_t)runs[x->runs_off + (size_t)u].n * runs[x->runs_off + (size_t)u].cores;
        j.procs_alloc = procs;
        j.status = x->state == ENG_JOB_DONE ? 1 : 0;
        rc = eng_workload_push(out, &j);
    }
    if (rc) {
        eng_workload_destroy(out);
        return eng_diag_set(d, rc, "out of memory");
    }
    char *notes[4];
    notes[0] = eng_asprintf("simulated by batchlab %s (commit %s), SimGrid %s: policy %s, "
                            "walltime %s, alloc %s, processors from field %s",
                            BATCHLAB_VERSION, BATCHLAB_GIT_COMMIT, eng_sim_simgrid_version(),
                            m->policy, m->walltime, m->alloc,
                            strcmp(m->procs_field, "req") == 0 ? "8 (else 5)" : "5 (else 8)");
    notes[1] = eng_asprintf("field 3 = simulated wait, 4 = simulated run time (after walltime "
                            "kills), 5 = allocated processors, 11 = 1 completed / 0 killed at "
                            "its requested time; job numbers are the input's");
    notes[2] = eng_asprintf("%zu input jobs were not simulated (see dropped.csv)",
                            r->prep.n_dropped_total);
    notes[3] = eng_asprintf("input workload: %s", w->path);
    eng_swf_write_opts wo = {.notes = (const char *const *)notes, .n_notes = 4};
    for (int k = 0; k < 4; k++)
        if (!notes[k])
            rc = ENG_NOMEM;
    if (rc == ENG_OK) {
        rc = eng_swf_write_stream(a->f, out, &wo);
        if (rc == ENG_IO)
            eng_afile_fail(a, 0, d);
        else if (rc != ENG_OK)
            eng_diag_set(d, rc, "out of memory");
    } else {
        eng_diag_set(d, rc, "out of memory");
    }
    for (int k = 0; k < 4; k++)
        free(notes[k]);
    eng_workload_destroy(out);
    return rc;
}

bool eng_output_parse(const char *list, unsigned *mask)
{
    static const struct {
        const char *name;
        unsigned bit;
    } names[] = {{"jobs", ENG_OUT_JOBS},
                 {"dropped", ENG_OUT_DROPPED},
                 {"schedule", ENG_OUT_SCHEDULE},
                 {"summary", ENG_OUT_SUMMARY},
                 {"timeseries", ENG_OUT_TIMESERIES},
                 {"all", ENG_OUT_ALL}};
    *mask = 0;
    for (const char *p = list;;) {
        size_t len = strcspn(p, ",");
        bool known = false;
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (strlen(names[i].name) == len && strncmp(p, names[i].name, len) == 0) {
                *mask |= names[i].bit;
                known = true;
            }
        if (!known)
            return false;
        if (!p[len])
            break;
        p += len + 1;
    }
    return *mask != 0;
}

/* Blocks SIGINT, SIGTERM and SIGHUP while the files are renamed into
 * place, so that an interruption finds either none or all of them; a
 * signal that arrives meanwhile is delivered right after. */
static void block_stops(bool block, sigset_t *saved)
{
    if (!block) {
        sigprocmask(SIG_SETMASK, saved, NULL);
        return;
    }
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigprocmask(SIG_BLOCK, &set, saved);
}

int eng_output_write(const char *dir, const eng_workload *w, const eng_sim_result *r,
                     const eng_summary *s, const eng_manifest *m, eng_diag *d)
{
    struct stat st;
    bool existed = stat(dir, &st) == 0; /* a folder made here goes again on failure */
    int rc = eng_mkdir_p(dir, d);
    if (rc)
        return rc;
    unsigned want = m->outputs ? m->outputs : ENG_OUT_ALL;
    /* Renamed in this order: summary.json last, because a sweep takes a
     * folder holding summary.json for a finished run. */
    enum { JOBS, DROPPED, SCHEDULE, TIMESERIES, SUMMARY, N_FILES };
    static const char *const names[N_FILES] = {"jobs.csv", "dropped.csv", "schedule.swf",
                                               "timeseries.csv", "summary.json"};
    static const unsigned bits[N_FILES] = {ENG_OUT_JOBS, ENG_OUT_DROPPED, ENG_OUT_SCHEDULE,
                                           ENG_OUT_TIMESERIES, ENG_OUT_SUMMARY};
    eng_afile files[N_FILES];
    memset(files, 0, sizeof files);
    for (int k = 0; k < N_FILES && rc == ENG_OK; k++) {
        if (!(want & bits[k]))
            continue;
        char *path = eng_asprintf("%s/%s", dir, names[k]);
        rc = path ? eng_afile_open(&files[k], path, d)
                  : eng_diag_set(d, ENG_NOMEM, "out of memory");
        free(path);
    }
    /* Each writer stops at its first failed write; errno then holds the
     * cause (no space, file too large, I/O error) for the message. */
    errno = 0;
    if (rc == ENG_OK && files[JOBS].f && (rc = write_jobs_csv(files[JOBS].f, w, r, d)) == ENG_IO)
        eng_afile_fail(&files[JOBS], 0, d);
    if (rc == ENG_OK && files[DROPPED].f &&
        (rc = write_dropped_csv(files[DROPPED].f, w, r)) == ENG_IO)
        eng_afile_fail(&files[DROPPED], 0, d);
    if (rc == ENG_OK && files[SCHEDULE].f)
        rc = write_schedule_swf(&files[SCHEDULE], w, r, m, d);
    if (rc == ENG_OK && files[TIMESERIES].f &&
        (rc = write_timeseries_csv(files[TIMESERIES].f, r, s->total_units)) == ENG_IO)
        eng_afile_fail(&files[TIMESERIES], 0, d);
    if (rc == ENG_OK && files[SUMMARY].f &&
        (rc = eng_output_summary_json(files[SUMMARY].f, w, r, s, m)) == ENG_IO)
        eng_afile_fail(&files[SUMMARY], 0, d);
    if (rc != ENG_OK && rc != ENG_IO)
        eng_diag_set(d, rc, "%s: cannot write the outputs: %s", dir, eng_strerror(rc));
    /* All flushed and closed before the first rename: a disk that fills up
     * on the last buffer leaves the previous outputs as they were. */
    for (int k = 0; k < N_FILES && rc == ENG_OK; k++)
        if (files[k].f)
            rc = eng_afile_close(&files[k], d);
    if (rc == ENG_OK) {
        sigset_t saved;
        block_stops(true, &saved);
        for (int k = 0; k < N_FILES; k++)
            if (files[k].tmp && rc == ENG_OK)
                rc = eng_afile_rename(&files[k], d);
        block_stops(false, &saved);
    }
    for (int k = 0; k < N_FILES; k++)
        eng_afile_abort(&files[k]);
    if (rc != ENG_OK && !existed)
        rmdir(dir);
    return rc;
}
