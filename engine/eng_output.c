/* eng_output.c — see eng_output.h. */
#include "eng_output.h"
#include "eng_coreidx.h"
#include "eng_json.h"

#include "eng_util.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
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
    case ENG_JOB_STOPPED:
        return "COMPLETED_KILLED";
    case ENG_JOB_REJECTED:
        return "REJECTED";
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

/* The bytes of fprintf's "%lld", without its cost (the row loops below
 * write millions of integers). */
static void put_int(FILE *f, long long v)
{
    char buf[24];
    fputs(eng_fmt_int(buf, sizeof buf, v), f);
}

/* ",v0,v1,..." */
static void put_ints(FILE *f, const long long *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        fputc(',', f);
        put_int(f, v[i]);
    }
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
        put_int(f, idx[i]);
        if (j > i) {
            fputc('-', f);
            put_int(f, idx[j]);
        }
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
        put_int(f, (long long)sp->first);
        if (sp->n > 1) {
            fputc('-', f);
            put_int(f, (long long)(sp->first + sp->n - 1));
        }
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
        put_int(f, (long long)j->id);
        fputc(',', f);
        fputs(name, f);
        fputs(",swf,", f);
        put_num(f, j->submit_s);
        put_ints(f, (const long long[]){j->units}, 1);
        fputc(',', f);
        put_num(f, j->estimate_s);
        put_ints(f, (const long long[]){x->state == ENG_JOB_DONE}, 1);
        fputc(',', f);
        fputs(eng_final_state_name(x->state), f);
        fputc(',', f);
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
        if (r->platform->has_power) { /* the energy of its runs (eng_energy.c) */
            fputc(',', f);
            put_num(f, x->energy_j);
            fputs(",,", f);
        } else {
            fputs(",-1,,", f);
        }
        double b = turn / fmax(exec, ENG_BSLD_TAU_S);
        put_num(f, b > 1 ? b : 1);
        put_ints(f, (const long long[]){j->procs, (long long)j->queue, j->pool, (long long)j->user},
                 4);
        fputc(',', f);
        put_num(f, j->estimate_s);
        fputs(j->est_from_runtime ? ",run_time," : ",requested_time,", f);
        put_int(f, (long long)j->type);
        fputc(',', f);
        put_num(f, x->init_s);
        fputc(',', f);
        put_num(f, eng_job_cost(r->platform, x, runs));
        put_ints(f,
                 (const long long[]){x->packet >= 0 ? (long long)r->prep.jobs[x->packet].id : -1LL,
                                     x->requeues},
                 2);
        fputc('\n', f);
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
    pol_alloc alloc = eng_core_alloc_mode(r->core);
    size_t n_e;
    const eng_energy_row *er = eng_core_energy_rows(r->core, &n_e);
    int32_t n_hosts = (int32_t)r->platform->n_hosts;
    fputs("time_s,queued_jobs,running_jobs,busy_nodes,busy_cores,utilization,down_hosts", f);
    fputs(er ? ",power_w,hosts_busy,hosts_idle,hosts_off,hosts_booting,hosts_shutting_down\n"
             : "\n",
          f);
    for (size_t k = 0; k < n; k++) {
        put_num(f, ts[k].t_s);
        put_ints(f,
                 (const long long[]){ts[k].queued, ts[k].running, ts[k].busy_nodes,
                                     (long long)ts[k].busy_cores},
                 4);
        fputc(',', f);
        put_num(f,
                total_units ? (double)eng_ts_busy_units(&ts[k], alloc) / (double)total_units : 0);
        put_ints(f, (const long long[]){ts[k].down_hosts}, 1);
        if (er && k < n_e) {
            const eng_energy_row *e = &er[k];
            fputc(',', f);
            put_num(f, e->power_w);
            put_ints(f,
                     (const long long[]){e->busy,
                                         n_hosts - e->busy - ts[k].down_hosts - e->off -
                                             e->booting - e->shutting_down,
                                         e->off, e->booting, e->shutting_down},
                     5);
        }
        fputc('\n', f);
        if (ferror(f))
            break;
    }
    return ferror(f) ? ENG_IO : ENG_OK;
}

/* summary.json's "jobs": the counts of the input and of the outcomes. */
static json_t *summary_jobs(const eng_summary *s, bool *ok)
{
    json_t *o = json_object(), *drop = json_object(), *fin = json_object();
    eng_json_set(o, "input", json_integer((json_int_t)s->n_input), ok);
    eng_json_set(o, "malformed_lines_skipped", json_integer((json_int_t)s->n_malformed), ok);
    eng_json_set(o, "simulated", json_integer((json_int_t)s->n_simulated), ok);
    eng_json_set(o, "dropped", json_integer((json_int_t)s->n_dropped_total), ok);
    for (int k = 0; k < ENG_DROP_COUNT; k++)
        if ((k != ENG_DROP_OVER_LIMIT ||
             s->n_dropped[k]) &&                 /* only where queue limits dropped some */
            (k != ENG_DROP_MEMORY || s->memory)) /* only when the platform gives memory */
            eng_json_set(drop, eng_drop_key(k), json_integer((json_int_t)s->n_dropped[k]), ok);
    eng_json_set(o, "dropped_by_reason", drop, ok);
    eng_json_set(fin, "COMPLETED_SUCCESSFULLY", json_integer((json_int_t)s->n_completed), ok);
    eng_json_set(fin, "COMPLETED_WALLTIME_REACHED", json_integer((json_int_t)s->n_killed), ok);
    eng_json_set(fin, "COMPLETED_FAILED", json_integer((json_int_t)s->n_failed), ok);
    if (s->n_stopped) /* only the policies that kill or reject (Batsim's) */
        eng_json_set(fin, "COMPLETED_KILLED", json_integer((json_int_t)s->n_stopped), ok);
    if (s->n_rejected)
        eng_json_set(fin, "REJECTED", json_integer((json_int_t)s->n_rejected), ok);
    eng_json_set(o, "by_final_state", fin, ok);
    eng_json_set(o, "estimate_from_run_time", json_integer((json_int_t)s->n_est_from_runtime), ok);
    eng_json_set(o, "estimate_extended_to_run_time", json_integer((json_int_t)s->n_extended), ok);
    eng_json_set(o, "run_time_over_request", json_integer((json_int_t)s->n_overrun), ok);
    if (s->n_queue_time) /* queue_limits: jobs without a request given their queue's time */
        eng_json_set(o, "request_from_queue_limit", json_integer((json_int_t)s->n_queue_time), ok);
    eng_json_set(o, "requeued_after_failure", json_integer((json_int_t)s->n_requeues), ok);
    if (s->memory) /* host memory: the jobs it gave more units (eng_prep.h) */
        eng_json_set(o, "memory_units_raised", json_integer((json_int_t)s->n_mem_raised), ok);
    if (s->feedback != ENG_FEEDBACK_NONE) { /* --feedback: the dependencies it found */
        eng_json_set(o, "feedback_after_predecessor", json_integer((json_int_t)s->n_fb_deps), ok);
        eng_json_set(o, "feedback_predecessor_missing", json_integer((json_int_t)s->n_fb_missing),
                     ok);
    }
    return o;
}

/* summary.json's "metrics" (eng_metrics.h); non-finite values are null. */
static json_t *summary_metrics(const eng_summary *s, bool *ok)
{
    json_t *o = json_object();
    eng_json_set(o, "wait_mean_s", eng_json_num(s->wait_mean_s), ok);
    eng_json_set(o, "wait_median_s", eng_json_num(s->wait_median_s), ok);
    eng_json_set(o, "wait_p95_s", eng_json_num(s->wait_p95_s), ok);
    eng_json_set(o, "wait_max_s", eng_json_num(s->wait_max_s), ok);
    eng_json_set(o, "response_mean_s", eng_json_num(s->response_mean_s), ok);
    eng_json_set(o, "slowdown_mean", eng_json_num(s->slowdown_mean), ok);
    eng_json_set(o, "slowdown_jobs", eng_json_num((double)s->n_slowdown), ok);
    eng_json_set(o, "bounded_slowdown_mean", eng_json_num(s->bsld_mean), ok);
    eng_json_set(o, "bounded_slowdown_tau_s", eng_json_num(ENG_BSLD_TAU_S), ok);
    eng_json_set(o, "utilization", eng_json_num(s->utilization), ok);
    eng_json_set(o, "makespan_s", eng_json_num(s->makespan_s), ok);
    eng_json_set(o, "window_start_s", eng_json_num(s->t0_s), ok);
    eng_json_set(o, "window_end_s", eng_json_num(s->t1_s), ok);
    eng_json_set(o, "queue_length_mean", eng_json_num(s->queue_mean), ok);
    eng_json_set(o, "queue_length_max", eng_json_num(s->queue_max), ok);
    eng_json_set(o, "cost", eng_json_num(s->cost), ok);
    eng_json_set(o, "failures_wasted_node_s", eng_json_num(s->wasted_node_s), ok);
    eng_json_set(o, "initialization_total_s", eng_json_num(s->init_total_s), ok);
    eng_json_set(o, "initialization_share", eng_json_num(s->init_share), ok);
    eng_json_set(o, "initialization_share_target", eng_json_num(s->init_share_target), ok);
    if (s->n_pseudo > 0) { /* runs that formed packets of several jobs */
        json_t *pk = json_object();
        eng_json_set(pk, "packets", eng_json_num((double)s->n_packets), ok);
        eng_json_set(pk, "pseudo_jobs", eng_json_num((double)s->n_pseudo), ok);
        eng_json_set(pk, "wait_mean_s", eng_json_num(s->pk_wait_mean_s), ok);
        eng_json_set(pk, "wait_median_s", eng_json_num(s->pk_wait_median_s), ok);
        eng_json_set(pk, "queue_length_mean", eng_json_num(s->pk_queue_mean), ok);
        eng_json_set(o, "pseudo_job_accounting", pk, ok);
    }
    return o;
}

/* summary.json's "energy" (platforms with power values; eng_metrics.h). */
static json_t *summary_energy(const eng_energy_summary *e, bool *ok)
{
    json_t *o = json_object();
    eng_json_set(o, "total_j", eng_json_num(e->total_j), ok);
    eng_json_set(o, "jobs_j", eng_json_num(e->jobs_j), ok);
    eng_json_set(o, "idle_j", eng_json_num(e->idle_j), ok);
    eng_json_set(o, "off_j", eng_json_num(e->off_j), ok);
    eng_json_set(o, "switching_j", eng_json_num(e->switching_j), ok);
    eng_json_set(o, "switch_ons", json_integer((json_int_t)e->switch_ons), ok);
    eng_json_set(o, "switch_offs", json_integer((json_int_t)e->switch_offs), ok);
    eng_json_set(o, "mean_power_w", eng_json_num(e->mean_power_w), ok);
    eng_json_set(o, "peak_power_w", eng_json_num(e->peak_power_w), ok);
    eng_json_set(o, "window_start_s", eng_json_num(e->window_start_s), ok);
    eng_json_set(o, "window_end_s", eng_json_num(e->window_end_s), ok);
    return o;
}

/* summary.json's "log_agreement" (the log has wait times, SWF field 3). */
static json_t *summary_log_agreement(const eng_summary *s, bool *ok)
{
    json_t *o = json_object();
    eng_json_set(o, "jobs", eng_json_num((double)s->log.jobs), ok);
    eng_json_set(o, "cancelled_excluded", eng_json_num((double)s->log.cancelled_excluded), ok);
    eng_json_set(o, "wait_mean_log", eng_json_num(s->log.wait_mean_log_s), ok);
    eng_json_set(o, "wait_mean_sim", eng_json_num(s->log.wait_mean_sim_s), ok);
    eng_json_set(o, "wait_mae_s", eng_json_num(s->log.wait_mae_s), ok);
    eng_json_set(o, "wait_spearman", eng_json_num(s->log.wait_spearman), ok);
    return o;
}

/* Under core allocation, the hosts in name order as runs of equal core
 * counts, [{"hosts": N, "cores": C}, ...]: what jobs.csv's core indices
 * count along (eng_coreidx.h), so that a reader can tell which host a core
 * index is on (batchlab plot marks the hosts with it). */
static json_t *summary_host_cores(const eng_platform *p, bool *ok)
{
    json_t *runs = json_array();
    for (size_t i = 0; i < p->n_hosts;) {
        size_t j = i;
        while (j < p->n_hosts && p->hosts[j].cores == p->hosts[i].cores)
            j++;
        json_t *r = json_object();
        eng_json_set(r, "hosts", json_integer((json_int_t)(j - i)), ok);
        eng_json_set(r, "cores", json_integer(p->hosts[i].cores), ok);
        eng_json_push(runs, r, ok);
        i = j;
    }
    return runs;
}

/* summary.json's "platform": sizes, the core layout under core allocation,
 * and each pool with its islands (named by their hosts' island property). */
static json_t *summary_platform(const eng_platform *p, const eng_summary *s, const eng_manifest *m,
                                bool by_core, bool *ok)
{
    json_t *o = json_object(), *pools = json_array();
    eng_json_set(o, "path", eng_json_str(m->platform_path), ok);
    eng_json_set(o, "hosts", json_integer((json_int_t)p->n_hosts), ok);
    eng_json_set(o, "cores", json_integer((json_int_t)p->total_cores), ok);
    eng_json_set(o, "units", json_integer((json_int_t)s->total_units), ok);
    eng_json_set(o, "ref_speed_flops", eng_json_num(p->ref_speed_flops), ok);
    if (by_core)
        eng_json_set(o, "host_cores", summary_host_cores(p, ok), ok);
    for (size_t i = 0; i < p->n_pools; i++) {
        const eng_pool *pl = &p->pools[i];
        json_t *po = json_object();
        eng_json_set(po, "label", eng_json_str(pl->label), ok);
        eng_json_set(po, "hosts", json_integer((json_int_t)pl->n_hosts), ok);
        eng_json_set(po, "cores", json_integer((json_int_t)pl->total_cores), ok);
        eng_json_set(po, "cores_per_node", json_integer(pl->cores_per_node), ok);
        if (pl->n_islands > 0) {
            json_t *isl = json_array();
            for (int32_t k = 0; k < pl->n_islands; k++) {
                json_t *io = json_object();
                eng_json_set(io, "name", eng_json_str(pl->island_names[k]), ok);
                eng_json_set(io, "hosts", json_integer(pl->island_hosts[k]), ok);
                eng_json_push(isl, io, ok);
            }
            eng_json_set(po, "islands", isl, ok);
        }
        eng_json_push(pools, po, ok);
    }
    eng_json_set(o, "pools", pools, ok);
    return o;
}

/* One input file: its path and SHA-256. */
static json_t *summary_input(const char *path, const char *sha256, bool *ok)
{
    json_t *o = json_object();
    eng_json_set(o, "path", eng_json_str(path), ok);
    eng_json_set(o, "sha256", eng_json_str(sha256), ok);
    return o;
}

/* summary.json's "manifest": what ran, on what, with which options. */
static json_t *summary_manifest(const eng_workload *w, const eng_sim_result *r,
                                const eng_manifest *m, bool *ok)
{
    json_t *o = json_object(), *opts = json_object(), *inputs = json_object();
    eng_json_set(o, "batchlab_version", eng_json_str(BATCHLAB_VERSION), ok);
    eng_json_set(o, "git_commit", eng_json_str(BATCHLAB_GIT_COMMIT), ok);
    eng_json_set(o, "simgrid_version", eng_json_str(eng_sim_simgrid_version()), ok);
    eng_json_set(o, "command", eng_json_str(m->command), ok);
    eng_json_set(o, "policy", eng_json_str(m->policy), ok);
    for (size_t i = 0; i < m->n_options; i++)
        eng_json_set(opts, m->options[i].key, eng_json_str(m->options[i].value), ok);
    eng_json_set(o, "policy_options", opts, ok);
    char report[1024];
    eng_core_policy_report(r->core, report, sizeof report);
    eng_json_set(o, "policy_report", eng_json_str(report), ok);
    for (size_t i = 0; i < m->n_settings; i++) {
        const eng_setting *st = &m->settings[i];
        json_t *v = st->kind == ENG_SETTING_BOOL  ? json_boolean(st->boolean)
                    : st->kind == ENG_SETTING_INT ? json_integer((json_int_t)st->integer)
                                                  : eng_json_str(st->string);
        eng_json_set(o, st->key, v, ok);
    }
    json_t *wl = summary_input(m->workload_path ? m->workload_path : w->path, m->workload_sha256,
                               ok);
    /* The log's clock, where its header gives it: job times count seconds
     * from UnixStartTime, and TimeZoneString names the zone of its dates
     * (what batchlab plot reads calendar dates by). Absent otherwise. */
    if (w->hdr.unix_start_time >= 0)
        eng_json_set(wl, "unix_start_time", json_integer((json_int_t)w->hdr.unix_start_time), ok);
    if (w->hdr.time_zone_string)
        eng_json_set(wl, "time_zone_string", eng_json_str(w->hdr.time_zone_string), ok);
    eng_json_set(inputs, "workload", wl, ok);
    eng_json_set(inputs, "platform", summary_input(m->platform_path, m->platform_sha256, ok), ok);
    if (m->policy_library)
        eng_json_set(inputs, "policy_library",
                     summary_input(m->policy_library, m->policy_library_sha256, ok), ok);
    eng_json_set(o, "inputs", inputs, ok);
    eng_json_set(o, "policy_wall_time_s", eng_json_num(eng_core_policy_wall_s(r->core)), ok);
    eng_json_set(o, "wall_time_s", eng_json_num(m->wall_time_s), ok);
    return o;
}

/* summary.json's content to a stream (eng_output_write's summary file). */
static int summary_json(FILE *f, const eng_workload *w, const eng_sim_result *r,
                        const eng_summary *s, const eng_breakdowns *bd, const eng_manifest *m)
{
    bool ok = true;
    json_t *root = json_object();
    eng_json_set(root, "jobs", summary_jobs(s, &ok), &ok);
    eng_json_set(root, "metrics", summary_metrics(s, &ok), &ok);
    if (s->energy.on)
        eng_json_set(root, "energy", summary_energy(&s->energy, &ok), &ok);
    if (s->log.jobs > 0 || s->log.cancelled_excluded > 0)
        eng_json_set(root, "log_agreement", summary_log_agreement(s, &ok), &ok);
    if (bd) {
        eng_json_set(root, "breakdowns", eng_breakdown_json(bd, &ok), &ok);
        eng_json_set(root, "fairness", eng_fairness_json(&bd->fairness, &ok), &ok);
    }
    eng_json_set(
        root, "platform",
        summary_platform(r->platform, s, m, eng_core_alloc_mode(r->core) == POL_ALLOC_CORE, &ok),
        &ok);
    eng_json_set(root, "manifest", summary_manifest(w, r, m, &ok), &ok);
    int rc = ok ? eng_json_dumpf(root, f) : ENG_NOMEM;
    json_decref(root);
    return rc;
}

/* Job i of schedule.swf: the input's record with the simulated wait, run
 * time, allocated processors and status. */
typedef struct schedule_src {
    const eng_workload *w;
    const eng_sim_result *r;
} schedule_src;

static void schedule_job(void *arg, size_t i, eng_job *j)
{
    const schedule_src *src = arg;
    const eng_sim_job *s = &src->r->prep.jobs[i];
    const eng_job_result *x = &eng_core_results(src->r->core)[i];
    const eng_host_run *runs = eng_core_alloc_runs(src->r->core);
    *j = src->w->jobs[s->src];
    j->wait_s = x->start_s - s->submit_s;
    j->runtime_s = x->end_s - x->start_s;
    int64_t procs = 0;
    for (int32_t u = 0; u < x->n_runs && x->n_hosts > 0; u++)
        procs += (int64_t)runs[x->runs_off + (size_t)u].n * runs[x->runs_off + (size_t)u].cores;
    j->procs_alloc = procs;
    /* SWF status: 1 completed, 5 cancelled (by the scheduler: rejected or
     * killed), 0 failed (walltime, host failure) */
    j->status = x->state == ENG_JOB_DONE                                      ? 1
                : x->state == ENG_JOB_STOPPED || x->state == ENG_JOB_REJECTED ? 5
                                                                              : 0;
}

/* Writes schedule.swf's content to a->f; a failed write is reported for
 * a's path. The jobs stream through schedule_job: a copy of the workload
 * (152 bytes per job) was the largest allocation of the outputs. */
static int write_schedule_swf(eng_afile *a, const eng_workload *w, const eng_sim_result *r,
                              const eng_manifest *m, eng_diag *d)
{
    int rc = ENG_OK;
    char *notes[4];
    notes[0] = eng_asprintf("simulated by batchlab %s (commit %s), SimGrid %s: policy %s, "
                            "walltime %s, alloc %s, processors from field %s",
                            BATCHLAB_VERSION, BATCHLAB_GIT_COMMIT, eng_sim_simgrid_version(),
                            m->policy, r->prep.walltime == ENG_WALLTIME_EXTEND ? "extend" : "kill",
                            r->prep.alloc == POL_ALLOC_CORE ? "core" : "node",
                            r->prep.procs_field == ENG_PROCS_REQ ? "8 (else 5)" : "5 (else 8)");
    notes[1] = eng_asprintf("field 3 = simulated wait, 4 = simulated run time (after walltime "
                            "kills), 5 = allocated processors, 11 = 1 completed / 0 killed at "
                            "its requested time; job numbers are the input's");
    notes[2] = eng_asprintf("%zu input jobs were not simulated (see dropped.csv)",
                            r->prep.n_dropped_total);
    notes[3] = eng_asprintf("input workload: %s", w->path);
    schedule_src src = {w, r};
    eng_swf_write_opts wo = {.notes = (const char *const *)notes,
                             .n_notes = 4,
                             .job = schedule_job,
                             .arg = &src,
                             .n_jobs = r->prep.n_jobs};
    for (int k = 0; k < 4; k++)
        if (!notes[k])
            rc = ENG_NOMEM;
    if (rc == ENG_OK) {
        rc = eng_swf_write_stream(a->f, w, &wo);
        if (rc == ENG_IO)
            eng_afile_fail(a, 0, d);
        else if (rc != ENG_OK)
            eng_diag_set(d, rc, "out of memory");
    } else {
        eng_diag_set(d, rc, "out of memory");
    }
    for (int k = 0; k < 4; k++)
        free(notes[k]);
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
                     const eng_summary *s, const eng_breakdowns *bd, const eng_manifest *m,
                     eng_diag *d)
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
        (rc = summary_json(files[SUMMARY].f, w, r, s, bd, m)) == ENG_IO)
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
