/* eng_gen_modified.c — the bundling study's modified generator (Baranov &
 * Lyakhovets 2022) on top of the Lublin–Feitelson pieces; see
 * eng_gen_modified.h.
 *
 * Invariant: every job has 1 <= nodes <= P, ln(run time) drawn inside
 * [log_lo, log_hi], type in 1..K, and non-decreasing submit times.
 */
#include "eng_gen_modified.h"
#include "eng_util.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void eng_gen_modified_init(eng_gen_modified_opts *o, int64_t nodes)
{
    memset(o, 0, sizeof *o);
    o->nodes = nodes;
    o->lambda_per_s = 0.0142;
    o->shape = 4.2;
    o->scale = 0.94;
    o->log_lo = 5.0;
    o->log_hi = 8.0;
    o->types = 8;
    eng_lublin_class_reference(ENG_LUBLIN_WHOLE, &o->size);
    eng_lublin_fit_machine(&o->size, ENG_LUBLIN_WHOLE, nodes);
    o->est.model = ENG_EST_EXACT;
}

int eng_gen_modified_check(const eng_gen_modified_opts *o, eng_diag *d)
{
    if (o->nodes < 1)
        return eng_diag_set(d, ENG_RANGE, "machine size %lld: expected at least 1 node",
                            (long long)o->nodes);
    if (!(o->lambda_per_s > 0.0 && isfinite(o->lambda_per_s)))
        return eng_diag_set(d, ENG_RANGE, "lambda = %g: expected a positive rate (jobs/s)",
                            o->lambda_per_s);
    if (!(o->shape > 0.0 && o->scale > 0.0 && isfinite(o->shape) && isfinite(o->scale)))
        return eng_diag_set(d, ENG_RANGE,
                            "run-time gamma (%g, %g): expected positive shape "
                            "and scale",
                            o->shape, o->scale);
    if (!(o->log_lo >= 0.0 && o->log_lo < o->log_hi && o->log_hi < 700.0))
        return eng_diag_set(d, ENG_RANGE,
                            "run-time window [e^%g, e^%g]: expected 0 <= lo < hi < 700", o->log_lo,
                            o->log_hi);
    double mass = gsl_cdf_gamma_P(o->log_hi, o->shape, o->scale) -
                  gsl_cdf_gamma_P(o->log_lo, o->shape, o->scale);
    if (!(mass > 1e-9))
        return eng_diag_set(d, ENG_RANGE,
                            "run-time window [e^%g, e^%g] has probability %g under Gamma(%g, %g): "
                            "the rejection loop would not end",
                            o->log_lo, o->log_hi, mass, o->shape, o->scale);
    if (o->types < 1)
        return eng_diag_set(d, ENG_RANGE, "types: expected K >= 1");
    const eng_lublin_class *c = &o->size;
    if (!(c->serial_prob >= 0.0 && c->pow2_prob >= 0.0 && c->u_prob >= 0.0 && c->u_prob <= 1.0 &&
          c->serial_prob + c->pow2_prob <= 1.0 + 1e-12))
        return eng_diag_set(d, ENG_RANGE, "size model: probabilities out of range");
    if (!(c->u_low <= c->u_med && c->u_med <= c->u_hi))
        return eng_diag_set(d, ENG_RANGE, "size model: expected ULow <= UMed <= UHi");
    if (o->est.model == ENG_EST_FMODEL && !(o->est.f >= 0.0 && isfinite(o->est.f)))
        return eng_diag_set(d, ENG_RANGE, "f-model: f = %g, expected a number >= 0", o->est.f);
    if (o->est.model == ENG_EST_WALLTIMES && o->est.n_walltimes == 0)
        return eng_diag_set(d, ENG_INVAL, "walltimes: the list is empty");
    return ENG_OK;
}

double eng_gen_modified_draw_log_runtime(const eng_gen_modified_opts *o, gsl_rng *r)
{
    for (;;) {
        double g = gsl_ran_gamma(r, o->shape, o->scale);
        if (g >= o->log_lo && g <= o->log_hi)
            return g;
    }
}

static int note(eng_workload *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int note(eng_workload *w, const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    return eng_workload_set_header(w, "Note", line);
}

/* The Generator line (ENG_GENERATOR_KEY): the options of `batchlab
 * generate modified` that make the same jobs. */
static int generator_line(eng_workload *w, const eng_gen_modified_opts *o, bool own_rng,
                          const gsl_rng *rng)
{
    char *text = NULL, num[32];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return ENG_NOMEM;
    fprintf(f, "modified (Baranov & Lyakhovets 2022) --nodes %lld --jobs %zu", (long long)o->nodes,
            o->n_jobs);
    if (own_rng)
        fprintf(f, " --seed %lu", o->seed);
    fprintf(f, " --lambda %s --types %u", eng_fmt_double(num, sizeof num, o->lambda_per_s),
            o->types);
    eng_estimates_args(&o->est, f);
    if (!own_rng)
        fprintf(f, "; random numbers from the caller's %s generator", gsl_rng_name(rng));
    eng_gen_modified_opts ref;
    eng_gen_modified_init(&ref, o->nodes);
    if (o->shape != ref.shape || o->scale != ref.scale || o->log_lo != ref.log_lo ||
        o->log_hi != ref.log_hi || memcmp(&o->size, &ref.size, sizeof o->size) != 0)
        fputs("; run-time or size parameters set by the caller (see the notes)", f);
    int rc = fclose(f) == 0 && text ? eng_workload_set_header(w, ENG_GENERATOR_KEY, text)
                                    : ENG_NOMEM;
    free(text);
    return rc;
}

static int write_header(eng_workload *w, const eng_gen_modified_opts *o, bool own_rng,
                        const gsl_rng *rng)
{
    char n[8][32], est[1024];
    int rc = eng_synthetic_header(w, o->nodes, (int64_t)eng_lublin_runtime_s(o->log_hi));
    if (rc == ENG_OK)
        rc = generator_line(w, o, own_rng, rng);
    if (rc == ENG_OK)
        rc = note(w,
                  "model: modified generator of Baranov & Lyakhovets 2022 on Lublin & "
                  "Feitelson 2003, %zu jobs on %lld nodes",
                  o->n_jobs, (long long)o->nodes);
    if (rc == ENG_OK)
        rc = note(w, "generator: batchlab eng_gen_modified version %d", ENG_GEN_MODIFIED_VERSION);
    if (rc == ENG_OK)
        rc = own_rng ? note(w, "seed: %lu (gsl_rng_mt19937)", o->seed)
                     : note(w, "seed: %lu (caller's %s generator)", o->seed, gsl_rng_name(rng));
    if (rc == ENG_OK)
        rc = note(w, "arrivals: Poisson, lambda=%s jobs/s; submit times rounded to whole seconds",
                  eng_fmt_double(n[0], sizeof n[0], o->lambda_per_s));
    if (rc == ENG_OK)
        rc = note(w,
                  "run times: ln(run time) ~ Gamma(shape=%s, scale=%s) redrawn outside "
                  "[%s, %s]; run time = floor(e^g)",
                  eng_fmt_double(n[0], sizeof n[0], o->shape),
                  eng_fmt_double(n[1], sizeof n[1], o->scale),
                  eng_fmt_double(n[2], sizeof n[2], o->log_lo),
                  eng_fmt_double(n[3], sizeof n[3], o->log_hi));
    if (rc == ENG_OK)
        rc = note(w,
                  "sizes: Lublin-Feitelson typeless size model SerialProb=%s Pow2Prob=%s "
                  "ULow=%s UMed=%s UHi=%s UProb=%s, clamped to %lld nodes",
                  eng_fmt_double(n[0], sizeof n[0], o->size.serial_prob),
                  eng_fmt_double(n[1], sizeof n[1], o->size.pow2_prob),
                  eng_fmt_double(n[2], sizeof n[2], o->size.u_low),
                  eng_fmt_double(n[3], sizeof n[3], o->size.u_med),
                  eng_fmt_double(n[4], sizeof n[4], o->size.u_hi),
                  eng_fmt_double(n[5], sizeof n[5], o->size.u_prob), (long long)o->nodes);
    if (rc == ENG_OK)
        rc = note(w, "estimates: %s", eng_estimates_describe(&o->est, est, sizeof est));
    if (rc == ENG_OK)
        rc = note(w, "queue field 15: job type, uniform in 1..%u", o->types);
    return rc;
}

int eng_gen_modified_generate(const eng_gen_modified_opts *o, gsl_rng *rng, eng_workload **out,
                              eng_diag *d)
{
    *out = NULL;
    int rc = eng_gen_modified_check(o, d);
    if (rc != ENG_OK)
        return rc;
    bool own_rng = rng == NULL;
    if (own_rng) {
        rng = gsl_rng_alloc(gsl_rng_mt19937);
        if (!rng)
            return eng_diag_set(d, ENG_NOMEM, "out of memory");
        gsl_rng_set(rng, o->seed);
    }
    gsl_rng *est_rng = gsl_rng_alloc(gsl_rng_mt19937);
    eng_workload *w = eng_workload_create("modified");
    if (!est_rng || !w) {
        rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
        goto done;
    }
    gsl_rng_set(est_rng, gsl_rng_get(rng));
    if (write_header(w, o, own_rng, rng) != ENG_OK) {
        rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
        goto done;
    }
    double clock = 0.0, mean_gap = 1.0 / o->lambda_per_s;
    for (size_t i = 0; i < o->n_jobs; i++) {
        clock += gsl_ran_exponential(rng, mean_gap);
        int64_t nodes = eng_lublin_draw_nodes(&o->size, o->nodes, rng);
        double rt = eng_lublin_runtime_s(eng_gen_modified_draw_log_runtime(o, rng));
        unsigned long type = gsl_rng_uniform_int(rng, o->types) + 1;

        eng_job j = eng_job_unknown();
        j.id = (int64_t)i + 1;
        j.submit_s = floor(clock + 0.5);
        j.runtime_s = rt;
        j.procs_alloc = nodes;
        j.procs_req = nodes;
        j.time_req_s = eng_estimate_s(&o->est, rt, est_rng);
        j.status = 1;
        j.queue = (int64_t)type;
        if (eng_workload_push(w, &j) != ENG_OK) {
            rc = eng_diag_set(d, ENG_NOMEM, "out of memory after %zu jobs", i);
            goto done;
        }
    }
    *out = w;
    w = NULL;
    rc = ENG_OK;
done:
    eng_workload_destroy(w);
    if (est_rng)
        gsl_rng_free(est_rng);
    if (own_rng)
        gsl_rng_free(rng);
    return rc;
}
