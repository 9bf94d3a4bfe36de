/* pol_predict.h — run-time prediction for backfilling: the `predictor`
 * option of easy, conservative and slurm.
 *
 * predictor=requested (the default) plans with the user's requested time,
 * as the view gives it (estimate_s). predictor=user2 is the prediction of
 * Tsafrir, Etsion & Feitelson 2007 ("Backfilling using system-generated
 * predictions rather than user runtime estimates", IEEE TPDS 18(6)):
 *
 *   - at submission, a job is predicted to run the mean of the run times of
 *     its user's last two jobs that have ended (SWF field 12; ended jobs in
 *     end order, killed ones with the time they ran), capped by its request;
 *     while the user has fewer than two ended jobs, or is unknown (-1 in
 *     the log: a generated workload has no users), the prediction is the
 *     request. A prediction is never below 1 s (planning needs a positive
 *     length) unless the request is;
 *   - a running job that outlives its prediction gets a larger one. Our
 *     reading of the paper's correction: the k-th time the job is still
 *     running at its predicted end, the prediction becomes the original
 *     prediction plus the k-th of 1 min, 5 min, 15 min, 30 min, 1 h, 2 h,
 *     5 h, 10 h, 20 h, 50 h, 100 h, capped by the request; after the last
 *     one, the request (the same table is in the pyss simulator of
 *     Tsafrir's group);
 *   - jobs are still killed at their requested time by the engine: the
 *     prediction only changes plans.
 *
 * A policy asks for a predicted view: the same view whose queued jobs carry
 * their prediction in estimate_s and whose running jobs carry start +
 * prediction in expected_end_s (sorted again by that end), corrections
 * applied up to now. With predictor=requested the view is the engine's own,
 * untouched, at no cost. Because a running job may outlive its prediction,
 * a plan built on predictions cannot be promised: policies make no
 * pol_out_promise() under user2.
 *
 * Accuracy (reported in the policy report, hence summary.json's
 * policy_report): over the jobs that ended, the mean of (prediction at
 * submission) / (time it ran), for jobs that ran > 0 s, and the share of
 * them that ran longer than that prediction (underpredicted); with
 * requested, the same numbers for the requests. The report says nothing
 * when the option was not given, so runs without it keep their outputs.
 *
 * Cost: a predicted view copies the queue and the running jobs, O(q + r log
 * r) per call; submission and end O(log users).
 */
#ifndef POL_PREDICT_H
#define POL_PREDICT_H

#include "eng_policy.h"

typedef enum pol_pred_kind { POL_PRED_REQUESTED = 0, POL_PRED_USER2 = 1 } pol_pred_kind;

typedef struct pol_pred_user {
    int64_t user;
    double last_s, prev_s; /* run times of its last two ended jobs */
    int32_t n_ended;
} pol_pred_user;

typedef struct pol_predictor {
    pol_pred_kind kind;
    bool reported; /* the option was given: the report tells the accuracy */
    size_t n_jobs;
    double *first_s;      /* prediction at submission, per job idx */
    int32_t *n_corr;      /* corrections applied to the running job */
    pol_pred_user *users; /* sorted by user */
    size_t n_users, cap_users;
    /* accuracy */
    double sum_ratio;
    uint64_t n_ratio, n_under, n_corrections;
    /* the predicted view's storage */
    pol_job *qjobs, *rjobs;
    const pol_job **qptr, **rptr;
    size_t cap_q, cap_r;
    double next_expiry_s; /* earliest predicted end below its request */
} pol_predictor;

/* The option row every policy with a predictor lists. */
#define POL_PREDICT_OPTION                                                                         \
    {                                                                                              \
        .key = "predictor", .type = POL_OPT_CHOICE, .choices = POL_CHOICES("requested", "user2"),  \
        .help = "run time to plan with (user2 = mean of the user's last two run times, Tsafrir, "  \
                "Etsion & Feitelson 2007)"                                                         \
    }

/* Reads option `predictor` (POL_PREDICT_OPTION, checked by the engine)
 * and allocates per-job arrays. 0, ENG_INVAL with
 * a message, or ENG_NOMEM. fini is safe after a failed init. */
int pol_predict_init(pol_predictor *p, const pol_setup *setup, char *err, size_t errlen);
void pol_predict_fini(pol_predictor *p);

/* True under user2: plans may be broken by a job outliving its prediction,
 * so the policy must not promise. */
static inline bool pol_predict_active(const pol_predictor *p)
{
    return p->kind != POL_PRED_REQUESTED;
}

/* The job entered the queue: its prediction is fixed from its user's
 * history. 0 or ENG_NOMEM. */
int pol_predict_submit(pol_predictor *p, const pol_job *job);

/* The job ended at now (job->start_s tells when it started): its user's
 * history and the accuracy counters learn its run time. 0 or ENG_NOMEM. */
int pol_predict_finish(pol_predictor *p, const pol_job *job, double now);

/* The prediction a queued job is planned with (its request under
 * requested). */
double pol_predict_of(const pol_predictor *p, const pol_job *job);

/* Fills *pv: v itself under requested; else a copy whose queued jobs have
 * estimate_s = their prediction and whose running jobs have estimate_s =
 * their (corrected) prediction and expected_end_s = start + it, in
 * (expected end, idx) order. *corrected tells whether a running job's
 * prediction grew in this call (may be NULL). Valid until the next call.
 * 0 or ENG_NOMEM. */
int pol_predict_view(pol_predictor *p, const pol_view *v, pol_view *pv, bool *corrected);

/* After pol_predict_view: the earliest predicted end of a running job that
 * may still be corrected (INFINITY if none); a policy asks to be woken
 * then, as the paper's simulator reschedules at an underprediction. */
static inline double pol_predict_next_expiry(const pol_predictor *p)
{
    return p->next_expiry_s;
}

/* "predictor=user2 pred_jobs=812 pred_ratio_mean=1.9 pred_under=0.23
 * pred_corrections=75" (appended to buf, which holds a string). */
void pol_predict_report(const pol_predictor *p, char *buf, size_t len);

#endif
