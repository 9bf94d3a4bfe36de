/* eng_metrics.c — see eng_metrics.h. O(n log n) for the wait quantiles. */
#include "eng_metrics.h"

#include <gsl/gsl_statistics_double.h>

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank quantile of a sorted array (q in [0, 1]). */
static double quantile(const double *v, size_t n, double q)
{
    if (n == 0)
        return 0;
    size_t rank = (size_t)ceil(q * (double)n);
    if (rank < 1)
        rank = 1;
    return v[rank - 1];
}

/* Is job i the earliest-starting later member of its packet? Members
 * start one after another, so only one has no other member (but the
 * first) ending at its start. */
static bool second_member(const eng_job_result *results, size_t i)
{
    const eng_job_result *r = &results[i];
    return results[r->packet].end_s == r->start_s;
}

/* The pseudo-job reading of packets (see eng_summary); waits is scratch
 * for n jobs. Needs s->makespan_s. */
static void packet_accounting(const eng_prepared *prep, const eng_job_result *results,
                              double *waits, eng_summary *s)
{
    size_t m = 0;
    long double sum_wait = 0, queued_s = 0;
    for (size_t i = 0; i < prep->n_jobs; i++) {
        const eng_job_result *r = &results[i];
        if (r->state != ENG_JOB_DONE && r->state != ENG_JOB_KILLED && r->state != ENG_JOB_STOPPED)
            continue;
        double submit = prep->jobs[i].submit_s;
        bool pseudo = r->packet >= 0 && (size_t)r->packet != i;
        double packet_start = pseudo ? results[r->packet].start_s : r->start_s;
        queued_s += packet_start - submit;
        if (pseudo) {
            /* the packet's second member counts it */
            s->n_packets += second_member(results, i);
            s->n_pseudo++;
            continue;
        }
        waits[m++] = r->start_s - submit;
        sum_wait += r->start_s - submit;
    }
    if (s->n_pseudo == 0 || m == 0)
        return;
    qsort(waits, m, sizeof *waits, cmp_double);
    s->pk_wait_mean_s = (double)(sum_wait / m);
    s->pk_wait_median_s = m % 2 ? waits[m / 2] : (waits[m / 2 - 1] + waits[m / 2]) / 2;
    s->pk_queue_mean = s->makespan_s > 0 ? (double)(queued_s / s->makespan_s) : 0;
}

int eng_metrics_compute(const eng_prepared *prep, const eng_job_result *results,
                        const eng_ts_row *ts, size_t n_ts, int64_t total_units, eng_summary *s)
{
    memset(s, 0, sizeof *s);
    s->n_input = prep->n_src;
    memcpy(s->n_dropped, prep->n_dropped, sizeof s->n_dropped);
    s->n_dropped_total = prep->n_dropped_total;
    s->n_est_from_runtime = prep->n_est_from_runtime;
    s->n_extended = prep->n_extended;
    s->memory = prep->memory;
    s->n_mem_raised = prep->n_mem_raised;
    s->feedback = (int32_t)prep->feedback;
    s->n_fb_deps = prep->n_fb_deps;
    s->n_fb_missing = prep->n_fb_missing;
    s->n_overrun = prep->n_overrun;
    s->n_queue_time = prep->n_queue_time;
    s->total_units = total_units;

    size_t n = prep->n_jobs;
    double *waits = malloc((n ? n : 1) * sizeof *waits);
    if (!waits)
        return -1;
    long double sum_wait = 0, sum_resp = 0, sum_sld = 0, sum_bsld = 0, busy = 0;
    long double sum_init = 0, sum_run = 0;
    double t0 = INFINITY, t1 = -INFINITY;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const eng_job_result *r = &results[i];
        if (r->state != ENG_JOB_DONE && r->state != ENG_JOB_KILLED && r->state != ENG_JOB_STOPPED)
            continue;
        const eng_sim_job *j = &prep->jobs[i];
        double wait = r->start_s - j->submit_s;
        double run = r->end_s - r->start_s;
        double resp = r->end_s - j->submit_s;
        waits[m++] = wait;
        sum_wait += wait;
        sum_resp += resp;
        if (run > 0) {
            sum_sld += resp / run;
            s->n_slowdown++;
        }
        double b = resp / fmax(run, ENG_BSLD_TAU_S);
        sum_bsld += b > 1 ? b : 1;
        busy += (long double)r->units * run;
        sum_init += r->init_s < run ? r->init_s : run;
        sum_run += run;
        if (j->submit_s < t0)
            t0 = j->submit_s;
        if (r->end_s > t1)
            t1 = r->end_s;
        if (r->state == ENG_JOB_KILLED)
            s->n_killed++;
        else if (r->state == ENG_JOB_STOPPED)
            s->n_stopped++;
        else
            s->n_completed++;
    }
    s->n_simulated = m;
    for (size_t i = 0; i < n; i++)
        s->n_rejected += results[i].state == ENG_JOB_REJECTED;
    s->n_types = prep->n_types;
    s->init_share_target = prep->init_share;
    s->init_total_s = (double)sum_init;
    s->init_share = sum_run > 0 ? (double)(sum_init / sum_run) : 0;
    if (m > 0) {
        qsort(waits, m, sizeof *waits, cmp_double);
        s->wait_mean_s = (double)(sum_wait / m);
        s->wait_median_s = m % 2 ? waits[m / 2] : (waits[m / 2 - 1] + waits[m / 2]) / 2;
        s->wait_p95_s = quantile(waits, m, 0.95);
        s->wait_max_s = waits[m - 1];
        s->response_mean_s = (double)(sum_resp / m);
        s->slowdown_mean = s->n_slowdown ? (double)(sum_sld / s->n_slowdown) : 0;
        s->bsld_mean = (double)(sum_bsld / m);
        s->t0_s = t0;
        s->t1_s = t1;
        s->makespan_s = t1 - t0;
        if (s->makespan_s > 0 && total_units > 0)
            s->utilization = (double)(busy / ((long double)total_units * s->makespan_s));
    }
    if (m > 0)
        packet_accounting(prep, results, waits, s);
    free(waits);

    /* Queue length: piecewise constant, row i holding on [t_i, t_{i+1}). */
    if (m > 0 && s->makespan_s > 0) {
        long double area = 0;
        double qmax = 0;
        for (size_t k = 0; k < n_ts; k++) {
            double a = fmax(ts[k].t_s, t0);
            double b = k + 1 < n_ts ? fmin(ts[k + 1].t_s, t1) : t1;
            if (ts[k].t_s <= t1 && ts[k].queued > qmax)
                qmax = ts[k].queued;
            if (b > a)
                area += (long double)ts[k].queued * (b - a);
        }
        s->queue_mean = (double)(area / s->makespan_s);
        s->queue_max = qmax;
    }
    return 0;
}

double eng_job_cost(const eng_platform *p, const eng_job_result *r, const eng_host_run *runs)
{
    if (r->state != ENG_JOB_DONE && r->state != ENG_JOB_KILLED && r->state != ENG_JOB_STOPPED)
        return 0;
    double held = r->end_s - r->start_s, cost = 0;
    for (int32_t u = 0; u < r->n_runs; u++) {
        const eng_host_run *run = &runs[r->runs_off + (size_t)u];
        for (int32_t k = 0; k < run->n; k++) {
            const eng_host *h = &p->hosts[run->host + k];
            cost += h->price_per_s * held * run->cores / h->cores;
        }
    }
    return cost;
}

void eng_metrics_cost(const eng_platform *p, const eng_job_result *results, size_t n,
                      const eng_host_run *runs, eng_summary *s)
{
    long double total = 0;
    for (size_t i = 0; i < n; i++)
        total += eng_job_cost(p, &results[i], runs);
    s->cost = (double)total;
}

void eng_metrics_failures(const eng_prepared *prep, const eng_job_result *results,
                          double wasted_node_s, double wasted_unit_s, eng_summary *s)
{
    s->wasted_node_s = wasted_node_s;
    s->n_failed = s->n_requeues = 0;
    for (size_t i = 0; i < prep->n_jobs; i++) {
        s->n_failed += results[i].state == ENG_JOB_FAILED;
        s->n_requeues += (size_t)results[i].requeues;
    }
    s->n_simulated = s->n_completed + s->n_killed + s->n_stopped + s->n_failed;
    if (s->makespan_s > 0 && s->total_units > 0)
        s->utilization += wasted_unit_s / ((double)s->total_units * s->makespan_s);
}

int eng_metrics_log_agreement(const eng_workload *w, const eng_prepared *prep,
                              const eng_job_result *results, eng_summary *s)
{
    eng_log_agreement *la = &s->log;
    *la = (eng_log_agreement){
        .wait_mean_log_s = NAN, .wait_mean_sim_s = NAN, .wait_mae_s = NAN, .wait_spearman = NAN};
    size_t n = prep->n_jobs;
    /* logged waits, then simulated waits, then gsl_stats_spearman's 2n */
    double *v = malloc((n ? 4 * n : 1) * sizeof *v);
    if (!v)
        return ENG_NOMEM;
    double *log_w = v, *sim_w = v + n, *work = v + 2 * n;
    size_t m = 0;
    long double sum_log = 0, sum_sim = 0, sum_abs = 0;
    for (size_t i = 0; i < n; i++) {
        const eng_job_result *r = &results[i];
        if (r->state != ENG_JOB_DONE && r->state != ENG_JOB_KILLED && r->state != ENG_JOB_STOPPED)
            continue;
        const eng_job *j = &w->jobs[prep->jobs[i].src];
        double logged = j->wait_s;
        if (!(logged >= 0))
            continue;
        if (j->status == 5 && j->runtime_s == 0) {
            la->cancelled_excluded++; /* cancelled before it started */
            continue;
        }
        double sim = r->start_s - prep->jobs[i].submit_s;
        log_w[m] = logged;
        sim_w[m] = sim;
        sum_log += logged;
        sum_sim += sim;
        sum_abs += fabsl((long double)sim - logged);
        m++;
    }
    la->jobs = m;
    if (m > 0) {
        la->wait_mean_log_s = (double)(sum_log / m);
        la->wait_mean_sim_s = (double)(sum_sim / m);
        la->wait_mae_s = (double)(sum_abs / m);
    }
    if (m >= 2) {
        double rho = gsl_stats_spearman(log_w, 1, sim_w, 1, m, work);
        la->wait_spearman = isfinite(rho) ? rho : NAN;
    }
    free(v);
    return ENG_OK;
}

void eng_metrics_energy(const eng_core *c, const eng_job_result *results, size_t n, eng_summary *s)
{
    eng_energy_totals t;
    memset(&s->energy, 0, sizeof s->energy);
    if (!eng_core_energy(c, &t))
        return;
    long double jobs = 0;
    for (size_t i = 0; i < n; i++)
        jobs += results[i].energy_j;
    double span = t.end_s - t.start_s;
    s->energy = (eng_energy_summary){
        .on = true,
        .total_j = t.total_j,
        .jobs_j = (double)jobs,
        .idle_j = t.idle_j,
        .off_j = t.off_j,
        .switching_j = t.switching_j,
        .switch_ons = t.switch_ons,
        .switch_offs = t.switch_offs,
        .mean_power_w = span > 0 ? t.total_j / span : t.peak_w,
        .peak_power_w = t.peak_w,
        .window_start_s = t.start_s,
        .window_end_s = t.end_s,
    };
}
