/* eng_scale.c — computed load, load/span rescaling and job types (Baranov &
 * Lyakhovets 2022); formulas and choices in eng_scale.h.
 *
 * Invariant: rescaling never reorders jobs, never moves a job with an
 * unknown submit time, and leaves every other submit time a whole number
 * of seconds.
 */
#include "eng_scale.h"

#include <math.h>

int64_t eng_scale_job_nodes(const eng_job *j, int64_t cores_per_node)
{
    int64_t procs = j->procs_alloc >= 1 ? j->procs_alloc : j->procs_req;
    if (procs < 1 || cores_per_node < 1)
        return -1;
    return (procs + cores_per_node - 1) / cores_per_node;
}

int eng_scale_load(const eng_workload *w, int64_t nodes, int64_t cores_per_node, eng_load *out,
                   eng_diag *d)
{
    *out = (eng_load){.first_submit_s = -1.0, .last_submit_s = -1.0, .load = NAN};
    if (nodes < 1)
        return eng_diag_set(d, ENG_RANGE, "machine size %lld: expected at least 1 node",
                            (long long)nodes);
    if (cores_per_node < 1)
        return eng_diag_set(d, ENG_RANGE, "cores per node %lld: expected at least 1",
                            (long long)cores_per_node);
    bool any = false;
    for (size_t i = 0; i < w->n_jobs; i++) {
        const eng_job *j = &w->jobs[i];
        if (j->submit_s >= 0.0) {
            if (!any || j->submit_s < out->first_submit_s)
                out->first_submit_s = j->submit_s;
            if (!any || j->submit_s > out->last_submit_s)
                out->last_submit_s = j->submit_s;
            any = true;
        }
        int64_t n = eng_scale_job_nodes(j, cores_per_node);
        if (n < 1 || j->runtime_s < 0.0) {
            out->n_skipped++;
            continue;
        }
        out->work_node_s += j->runtime_s * (double)n;
        out->n_counted++;
    }
    if (any) {
        out->span_s = out->last_submit_s - out->first_submit_s;
        if (out->span_s > 0.0)
            out->load = out->work_node_s / (out->span_s * (double)nodes);
    }
    return ENG_OK;
}

/* Every known submit time t to round(t0) + round((t − t0)·new_span/span),
 * new_span whole seconds: the first arrival to round(t0), the last to
 * exactly round(t0) + new_span, nothing outside the two. Each time is
 * rounded from its own exact scaled value (never from the rounded time
 * before it), so it lies within half a second of that value, and rounding
 * keeps the order (a product and a quotient by positive constants, and
 * round, are monotone). */
static void rescale(eng_workload *w, double t0, double span, double new_span)
{
    double first = round(t0), last = first + new_span;
    for (size_t i = 0; i < w->n_jobs; i++) {
        double *t = &w->jobs[i].submit_s;
        if (*t < 0.0)
            continue;
        double s = first + round((*t - t0) * new_span / span);
        *t = s < first ? first : s > last ? last : s;
    }
}

int eng_scale_to_load(eng_workload *w, int64_t nodes, int64_t cores_per_node, double target,
                      double *factor, eng_diag *d)
{
    if (!(target > 0.0 && isfinite(target)))
        return eng_diag_set(d, ENG_RANGE, "target load %g: expected a positive number", target);
    eng_load l;
    int rc = eng_scale_load(w, nodes, cores_per_node, &l, d);
    if (rc != ENG_OK)
        return rc;
    if (!(l.span_s > 0.0))
        return eng_diag_set(d, ENG_RANGE,
                            "cannot scale to a load: all %zu jobs arrive at the same time",
                            w->n_jobs);
    if (!(l.work_node_s > 0.0))
        return eng_diag_set(d, ENG_RANGE,
                            "cannot scale to a load: the workload has no work (no job with a "
                            "known, positive run time and size)");
    double exact = l.work_node_s / (target * (double)nodes);
    double new_span = round(exact);
    if (!(new_span >= 1.0 && isfinite(new_span)))
        return eng_diag_set(d, ENG_RANGE,
                            "cannot scale to a load of %g: every arrival would fall within %.3g s "
                            "of the first, and submit times are whole seconds (at least 1 s "
                            "from the first arrival to the last)",
                            target, exact);
    rescale(w, l.first_submit_s, l.span_s, new_span);
    if (factor)
        *factor = new_span / l.span_s;
    return ENG_OK;
}

int eng_scale_to_span(eng_workload *w, double span_s, double *factor, eng_diag *d)
{
    if (!(span_s > 0.0 && isfinite(span_s)))
        return eng_diag_set(d, ENG_RANGE, "span %g s: expected a positive number", span_s);
    if (!(round(span_s) >= 1.0))
        return eng_diag_set(d, ENG_RANGE,
                            "span %g s: expected at least 1 s (submit times are whole seconds)",
                            span_s);
    eng_load l;
    int rc = eng_scale_load(w, 1, 1, &l, d);
    if (rc != ENG_OK)
        return rc;
    if (!(l.span_s > 0.0))
        return eng_diag_set(d, ENG_RANGE,
                            "cannot scale to a span: all %zu jobs arrive at the same time",
                            w->n_jobs);
    double new_span = round(span_s);
    rescale(w, l.first_submit_s, l.span_s, new_span);
    if (factor)
        *factor = new_span / l.span_s;
    return ENG_OK;
}

int eng_scale_assign_types(eng_workload *w, unsigned long k, gsl_rng *rng, eng_diag *d)
{
    if (k < 1)
        return eng_diag_set(d, ENG_RANGE, "job types: expected K >= 1");
    if (k > gsl_rng_max(rng) - gsl_rng_min(rng))
        return eng_diag_set(d, ENG_RANGE, "job types: K = %lu is too large for %s", k,
                            gsl_rng_name(rng));
    for (size_t i = 0; i < w->n_jobs; i++)
        w->jobs[i].queue = (int64_t)gsl_rng_uniform_int(rng, k) + 1;
    return ENG_OK;
}
