/* pol_predict.c — see pol_predict.h. */
#include "pol_predict.h"

#include "eng_error.h"
#include "eng_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Added to the original prediction at the k-th correction (Tsafrir, Etsion
 * & Feitelson 2007); past the last one, the request. */
static const double correction_s[] = {60,    300,   900,   1800,   3600,  7200,
                                      18000, 36000, 72000, 180000, 360000};
#define N_CORRECTIONS (sizeof correction_s / sizeof correction_s[0])

int pol_predict_init(pol_predictor *p, const pol_setup *setup, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->next_expiry_s = INFINITY;
    p->reported = pol_opt_given(setup, "predictor");
    p->kind = pol_opt_choice(setup, "predictor") == 1 ? POL_PRED_USER2 : POL_PRED_REQUESTED;
    p->n_jobs = setup->n_jobs;
    size_t n = p->n_jobs ? p->n_jobs : 1;
    p->first_s = malloc(n * sizeof *p->first_s);
    p->n_corr = calloc(n, sizeof *p->n_corr);
    if (!p->first_s || !p->n_corr) {
        pol_predict_fini(p);
        snprintf(err, errlen, "out of memory");
        return ENG_NOMEM;
    }
    for (size_t i = 0; i < n; i++)
        p->first_s[i] = NAN;
    return ENG_OK;
}

void pol_predict_fini(pol_predictor *p)
{
    free(p->first_s);
    free(p->n_corr);
    free(p->users);
    free(p->qjobs);
    free(p->rjobs);
    free(p->qptr);
    free(p->rptr);
    memset(p, 0, sizeof *p);
}

/* Position of user in the sorted table (where it would go if absent). */
static size_t user_pos(const pol_predictor *p, int64_t user)
{
    size_t lo = 0, hi = p->n_users;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (p->users[mid].user < user)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static pol_pred_user *user_find(const pol_predictor *p, int64_t user)
{
    size_t k = user_pos(p, user);
    return k < p->n_users && p->users[k].user == user ? &p->users[k] : NULL;
}

int pol_predict_submit(pol_predictor *p, const pol_job *job)
{
    double pred = job->estimate_s;
    if (p->kind == POL_PRED_USER2 && job->user >= 0) {
        const pol_pred_user *u = user_find(p, job->user);
        if (u && u->n_ended >= 2) {
            double mean = (u->last_s + u->prev_s) / 2;
            if (mean < 1)
                mean = 1;
            if (mean < pred)
                pred = mean;
        }
    }
    p->first_s[job->idx] = pred;
    p->n_corr[job->idx] = 0;
    return ENG_OK;
}

/* The current prediction of a job given its corrections so far. */
static double current(const pol_predictor *p, const pol_job *job)
{
    double first = p->first_s[job->idx];
    if (isnan(first))
        return job->estimate_s; /* not seen at submission: plan with the request */
    int32_t k = p->n_corr[job->idx];
    if (k == 0)
        return first;
    if ((size_t)k > N_CORRECTIONS)
        return job->estimate_s;
    double t = first + correction_s[k - 1];
    return t < job->estimate_s ? t : job->estimate_s;
}

double pol_predict_of(const pol_predictor *p, const pol_job *job)
{
    return p->kind == POL_PRED_REQUESTED ? job->estimate_s : current(p, job);
}

int pol_predict_finish(pol_predictor *p, const pol_job *job, double now)
{
    double ran = now - job->start_s;
    if (job->start_s < 0 || ran < 0)
        return ENG_OK;
    double first = p->first_s[job->idx];
    if (isnan(first))
        first = job->estimate_s;
    if (ran > 0) {
        p->sum_ratio += first / ran;
        p->n_ratio++;
        if (ran > first)
            p->n_under++;
    }
    size_t k = user_pos(p, job->user);
    if (k == p->n_users || p->users[k].user != job->user) {
        if (eng_grow(&p->users, &p->cap_users, p->n_users + 1, sizeof *p->users))
            return ENG_NOMEM;
        memmove(p->users + k + 1, p->users + k, (p->n_users - k) * sizeof *p->users);
        p->users[k] = (pol_pred_user){.user = job->user};
        p->n_users++;
    }
    pol_pred_user *u = &p->users[k];
    u->prev_s = u->last_s;
    u->last_s = ran;
    u->n_ended++;
    return ENG_OK;
}

static int by_end(const void *a, const void *b)
{
    const pol_job *x = *(const pol_job *const *)a, *y = *(const pol_job *const *)b;
    if (x->expected_end_s != y->expected_end_s)
        return x->expected_end_s < y->expected_end_s ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

int pol_predict_view(pol_predictor *p, const pol_view *v, pol_view *pv, bool *corrected)
{
    *pv = *v;
    if (corrected)
        *corrected = false;
    p->next_expiry_s = INFINITY;
    if (p->kind == POL_PRED_REQUESTED)
        return ENG_OK;
    size_t cq = p->cap_q, cq2 = p->cap_q, cr = p->cap_r, cr2 = p->cap_r;
    if (eng_grow(&p->qjobs, &cq, v->n_queue, sizeof *p->qjobs) ||
        eng_grow(&p->qptr, &cq2, v->n_queue, sizeof *p->qptr))
        return ENG_NOMEM;
    p->cap_q = cq < cq2 ? cq : cq2;
    if (eng_grow(&p->rjobs, &cr, v->n_running, sizeof *p->rjobs) ||
        eng_grow(&p->rptr, &cr2, v->n_running, sizeof *p->rptr))
        return ENG_NOMEM;
    p->cap_r = cr < cr2 ? cr : cr2;
    for (size_t i = 0; i < v->n_queue; i++) {
        p->qjobs[i] = *v->queue[i];
        p->qjobs[i].estimate_s = current(p, v->queue[i]);
        p->qptr[i] = &p->qjobs[i];
    }
    for (size_t i = 0; i < v->n_running; i++) {
        const pol_job *j = v->running[i];
        double pred = current(p, j);
        while (j->start_s + pred <= v->now_s && pred < j->estimate_s &&
               !isnan(p->first_s[j->idx])) {
            p->n_corr[j->idx]++;
            p->n_corrections++;
            pred = current(p, j);
            if (corrected)
                *corrected = true;
        }
        p->rjobs[i] = *j;
        p->rjobs[i].estimate_s = pred;
        p->rjobs[i].expected_end_s = j->start_s + pred;
        p->rptr[i] = &p->rjobs[i];
        if (pred < j->estimate_s && j->start_s + pred < p->next_expiry_s)
            p->next_expiry_s = j->start_s + pred;
    }
    if (v->n_running > 1)
        qsort(p->rptr, v->n_running, sizeof *p->rptr, by_end);
    pv->queue = p->qptr;
    pv->running = p->rptr;
    return ENG_OK;
}

void pol_predict_report(const pol_predictor *p, char *buf, size_t len)
{
    size_t used = strlen(buf);
    if (used >= len || !p->reported)
        return;
    const char *name = p->kind == POL_PRED_REQUESTED ? "requested" : "user2";
    if (p->n_ratio == 0) {
        snprintf(buf + used, len - used, "%spredictor=%s pred_jobs=0", used ? " " : "", name);
        return;
    }
    snprintf(buf + used, len - used,
             "%spredictor=%s pred_jobs=%llu pred_ratio_mean=%.4g pred_under=%.4g "
             "pred_corrections=%llu",
             used ? " " : "", name, (unsigned long long)p->n_ratio,
             p->sum_ratio / (double)p->n_ratio, (double)p->n_under / (double)p->n_ratio,
             (unsigned long long)p->n_corrections);
}
