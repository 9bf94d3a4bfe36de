/* eng_lublin.c — the Lublin–Feitelson workload model (Lublin & Feitelson
 * 2003); see eng_lublin.h for the model, the choices made where the
 * reference generator is silent, and the output mapping.
 *
 * Invariant: every job pushed has 1 <= nodes <= P, run time in
 * [1, floor(e^max_log_runtime)], and submit times that never decrease.
 */
#include "eng_lublin.h"
#include "eng_util.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Parameters                                                          */

void eng_lublin_class_reference(int which, eng_lublin_class *c)
{
    /* The constants of lublin99.c. */
    static const eng_lublin_class ref[ENG_LUBLIN_N_CLASSES] = {
        [ENG_LUBLIN_INTERACTIVE] = {.serial_prob = 0.1541,
                                    .pow2_prob = 0.625,
                                    .u_low = 1.0,
                                    .u_med = 3.0,
                                    .u_hi = 5.5,
                                    .u_prob = 0.705,
                                    .a1 = 3.8351,
                                    .b1 = 0.6605,
                                    .a2 = 7.073,
                                    .b2 = 0.6856,
                                    .pa = -0.0118,
                                    .pb = 0.9156,
                                    .aarr = 6.5510,
                                    .barr = 0.6621,
                                    .arar = 0.9797,
                                    .anum = 8.9186,
                                    .bnum = 3.6680},
        [ENG_LUBLIN_BATCH] = {.serial_prob = 0.2927,
                              .pow2_prob = 0.6686,
                              .u_low = 1.2,
                              .u_med = 5.0,
                              .u_hi = 7.0,
                              .u_prob = 0.875,
                              .a1 = 6.57,
                              .b1 = 0.823,
                              .a2 = 639.1,
                              .b2 = 0.0156,
                              .pa = -0.003,
                              .pb = 0.6986,
                              .aarr = 6.0415,
                              .barr = 0.8531,
                              .arar = 1.0519,
                              .anum = 6.1271,
                              .bnum = 5.2740},
        [ENG_LUBLIN_WHOLE] = {.serial_prob = 0.244,
                              .pow2_prob = 0.576,
                              .u_low = 0.8,
                              .u_med = 4.5,
                              .u_hi = 7.0,
                              .u_prob = 0.86,
                              .a1 = 4.2,
                              .b1 = 0.94,
                              .a2 = 312.0,
                              .b2 = 0.03,
                              .pa = -0.0054,
                              .pb = 0.78,
                              .aarr = 10.2303,
                              .barr = 0.4871,
                              .arar = 1.0225,
                              .anum = 8.1737,
                              .bnum = 3.9631},
    };
    if (which < 0 || which >= ENG_LUBLIN_N_CLASSES)
        which = ENG_LUBLIN_WHOLE;
    *c = ref[which];
}

void eng_lublin_fit_machine(eng_lublin_class *c, int which, int64_t nodes)
{
    double hi = log2((double)(nodes < 1 ? 1 : nodes));
    double offset = 2.5;
    if (which == ENG_LUBLIN_INTERACTIVE)
        hi -= 1.5;
    else if (which == ENG_LUBLIN_BATCH)
        offset = 2.0;
    double lo = c->u_low;
    double med = hi - offset;
    if (med < lo)
        med = hi - 1.5; /* upper end of [UHi - 3.5, UHi - 1.5] */
    if (hi < lo)
        lo = hi;
    if (med < lo)
        med = lo;
    c->u_low = lo;
    c->u_med = med;
    c->u_hi = hi;
}

void eng_lublin_opts_init(eng_lublin_opts *o, int64_t nodes)
{
    memset(o, 0, sizeof *o);
    o->nodes = nodes;
    o->max_log_runtime_s = 12.0;
    o->max_log_gap_s = 13.0;
    for (int k = 0; k < ENG_LUBLIN_N_CLASSES; k++) {
        eng_lublin_class_reference(k, &o->cls[k]);
        eng_lublin_fit_machine(&o->cls[k], k, nodes);
    }
    o->est.model = ENG_EST_EXACT;
}

static const char *const class_names[ENG_LUBLIN_N_CLASSES] = {
    [ENG_LUBLIN_INTERACTIVE] = "interactive",
    [ENG_LUBLIN_BATCH] = "batch",
    [ENG_LUBLIN_WHOLE] = "whole",
};

#define PARAM(name, field)                                                                         \
    {                                                                                              \
        name, offsetof(eng_lublin_class, field)                                                    \
    }
static const struct {
    const char *name;
    size_t offset;
} params[] = {
    PARAM("SerialProb", serial_prob),
    PARAM("Pow2Prob", pow2_prob),
    PARAM("ULow", u_low),
    PARAM("UMed", u_med),
    PARAM("UHi", u_hi),
    PARAM("UProb", u_prob),
    PARAM("a1", a1),
    PARAM("b1", b1),
    PARAM("a2", a2),
    PARAM("b2", b2),
    PARAM("pa", pa),
    PARAM("pb", pb),
    PARAM("AARR", aarr),
    PARAM("BARR", barr),
    PARAM("ARAR", arar),
    PARAM("ANUM", anum),
    PARAM("BNUM", bnum),
};
#undef PARAM
#define N_PARAMS (sizeof params / sizeof params[0])

static double *param_ptr(eng_lublin_class *c, size_t k)
{
    return (double *)(void *)((char *)c + params[k].offset);
}

static double param_get(const eng_lublin_class *c, size_t k)
{
    return *(const double *)(const void *)((const char *)c + params[k].offset);
}

int eng_lublin_set_param(eng_lublin_opts *o, const char *name, double value, eng_diag *d)
{
    const char *dot = strchr(name, '.');
    if (dot) {
        size_t len = (size_t)(dot - name);
        for (int k = 0; k < ENG_LUBLIN_N_CLASSES; k++) {
            if (strlen(class_names[k]) != len || strncmp(class_names[k], name, len) != 0)
                continue;
            for (size_t p = 0; p < N_PARAMS; p++) {
                if (strcmp(params[p].name, dot + 1) == 0) {
                    *param_ptr(&o->cls[k], p) = value;
                    return ENG_OK;
                }
            }
        }
    }
    return eng_diag_set(d, ENG_INVAL,
                        "unknown Lublin-Feitelson parameter '%s' (expected CLASS.NAME, CLASS one "
                        "of batch, interactive, whole; NAME one of SerialProb, Pow2Prob, ULow, "
                        "UMed, UHi, UProb, a1, b1, a2, b2, pa, pb, AARR, BARR, ARAR, ANUM, BNUM)",
                        name);
}

/* ------------------------------------------------------------------ */
/* Model pieces                                                        */

void eng_lublin_weights(const eng_lublin_class *c, double w[ENG_LUBLIN_BUCKETS])
{
    /* Bucket (i − 1) mod 48 gets the Gamma(ANUM, BNUM) mass of
     * [i − 0.5, i + 0.5] for i = 11..58, measured in buckets, as
     * lublin99.c's code does (its comments speak of hours, which would put
     * the daily peak near 04:00). */
    double sum = 0.0;
    for (int i = ENG_LUBLIN_CYCLIC_DAY_START; i < ENG_LUBLIN_CYCLIC_DAY_START + ENG_LUBLIN_BUCKETS;
         i++) {
        int k = (i - 1) % ENG_LUBLIN_BUCKETS;
        w[k] = gsl_cdf_gamma_P(i + 0.5, c->anum, c->bnum) -
               gsl_cdf_gamma_P(i - 0.5, c->anum, c->bnum);
        sum += w[k];
    }
    double mean = sum / ENG_LUBLIN_BUCKETS;
    for (int k = 0; k < ENG_LUBLIN_BUCKETS; k++)
        w[k] /= mean;
}

/* round(x) = floor(x + 0.5), as the reference's (unsigned)(x + 0.5). */
static double round_half_up(double x)
{
    return floor(x + 0.5);
}

int64_t eng_lublin_draw_nodes(const eng_lublin_class *c, int64_t nodes, gsl_rng *r)
{
    double u = gsl_rng_uniform_pos(r);
    if (u <= c->serial_prob)
        return 1;
    double v = gsl_rng_uniform_pos(r);
    double lo = c->u_med, hi = c->u_hi;
    if (v <= c->u_prob) {
        lo = c->u_low;
        hi = c->u_med;
    }
    double x = lo + gsl_rng_uniform_pos(r) * (hi - lo);
    if (u <= c->serial_prob + c->pow2_prob)
        x = round_half_up(x);
    double n = round_half_up(exp2(x));
    if (n > (double)nodes) /* only a power-of-two job can get here: clamp */
        return nodes;
    return n < 1.0 ? 1 : (int64_t)n;
}

double eng_lublin_mix_prob(const eng_lublin_class *c, int64_t n)
{
    double p = c->pa * (double)n + c->pb;
    return p < 0.0 ? 0.0 : p > 1.0 ? 1.0 : p;
}

double eng_lublin_draw_log_runtime(const eng_lublin_class *c, int64_t n, double max_log, gsl_rng *r,
                                   int *component)
{
    double p = eng_lublin_mix_prob(c, n);
    for (;;) {
        double g;
        int comp;
        if (gsl_rng_uniform_pos(r) <= p) {
            g = gsl_ran_gamma(r, c->a1, c->b1);
            comp = 1;
        } else {
            g = gsl_ran_gamma(r, c->a2, c->b2);
            comp = 2;
        }
        if (g <= max_log) {
            if (component)
                *component = comp;
            return g;
        }
    }
}

double eng_lublin_runtime_s(double log_runtime)
{
    double t = floor(exp(log_runtime));
    return t < 1.0 ? 1.0 : t;
}

double eng_estimate_s(const eng_estimates *e, double runtime_s, gsl_rng *r)
{
    switch (e->model) {
    case ENG_EST_FMODEL:
        return ceil(runtime_s * (1.0 + e->f * gsl_rng_uniform(r)));
    case ENG_EST_WALLTIMES:
        for (size_t i = 0; i < e->n_walltimes; i++)
            if (e->walltimes_s[i] >= runtime_s)
                return e->walltimes_s[i];
        return runtime_s;
    case ENG_EST_EXACT:
    default:
        return runtime_s;
    }
}

int eng_estimates_parse_walltimes(eng_estimates *e, const char *list, eng_diag *d)
{
    size_t n = 0;
    const char *p = list;
    if (!p || !*p)
        return eng_diag_set(d, ENG_INVAL, "walltime list: expected comma-separated seconds");
    for (;;) {
        char *end;
        double v = strtod(p, &end);
        if (end == p || !isfinite(v) || v <= 0.0 || (*end && *end != ','))
            return eng_diag_set(d, ENG_INVAL,
                                "walltime list '%s': expected positive seconds separated by "
                                "commas",
                                list);
        if (n == ENG_EST_MAX_WALLTIMES)
            return eng_diag_set(d, ENG_INVAL, "walltime list '%s': more than %d values", list,
                                ENG_EST_MAX_WALLTIMES);
        if (n > 0 && v <= e->walltimes_s[n - 1])
            return eng_diag_set(d, ENG_INVAL, "walltime list '%s': values must ascend strictly",
                                list);
        e->walltimes_s[n++] = v;
        if (!*end)
            break;
        p = end + 1;
    }
    e->n_walltimes = n;
    return ENG_OK;
}

const char *eng_estimates_describe(const eng_estimates *e, char *buf, size_t len)
{
    char num[32];
    switch (e->model) {
    case ENG_EST_FMODEL:
        snprintf(buf, len,
                 "f-model, f=%s (requested time = ceil(run time x U[1, f+1)); "
                 "Mu'alem & Feitelson 2001)",
                 eng_fmt_double(num, sizeof num, e->f));
        break;
    case ENG_EST_WALLTIMES: {
        size_t k = (size_t)snprintf(buf, len, "walltimes (run time rounded up to ");
        for (size_t i = 0; i < e->n_walltimes && k < len; i++)
            k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? "," : "",
                                  eng_fmt_double(num, sizeof num, e->walltimes_s[i]));
        if (k < len)
            snprintf(buf + k, len - k, " s; longer jobs request their run time)");
        break;
    }
    case ENG_EST_EXACT:
    default:
        snprintf(buf, len, "exact (requested time = run time)");
        break;
    }
    return buf;
}

void eng_estimates_args(const eng_estimates *e, FILE *f)
{
    char num[32];
    switch (e->model) {
    case ENG_EST_FMODEL:
        fprintf(f, " --estimates f-model --f %s", eng_fmt_double(num, sizeof num, e->f));
        break;
    case ENG_EST_WALLTIMES:
        fputs(" --estimates walltimes --walltimes ", f);
        for (size_t i = 0; i < e->n_walltimes; i++)
            fprintf(f, "%s%s", i ? "," : "", eng_fmt_double(num, sizeof num, e->walltimes_s[i]));
        break;
    default:
        fputs(" --estimates exact", f);
        break;
    }
}

int eng_synthetic_header(eng_workload *w, int64_t nodes, int64_t max_runtime_s)
{
    char num[32];
    int rc = eng_workload_set_header(w, "Computer", "synthetic");
    if (rc == ENG_OK)
        rc = eng_workload_set_header(w, "Installation", "synthetic");
    snprintf(num, sizeof num, "%lld", (long long)nodes);
    if (rc == ENG_OK)
        rc = eng_workload_set_header(w, "MaxNodes", num);
    if (rc == ENG_OK)
        rc = eng_workload_set_header(w, "MaxProcs", num);
    if (rc == ENG_OK && max_runtime_s >= 0) {
        snprintf(num, sizeof num, "%lld", (long long)max_runtime_s);
        rc = eng_workload_set_header(w, "MaxRuntime", num);
    }
    if (rc == ENG_OK)
        rc = eng_workload_set_header(w, "Preemption", "No");
    return rc;
}

/* ------------------------------------------------------------------ */
/* Checks                                                              */

static int check_class(const eng_lublin_class *c, const char *cname, eng_diag *d)
{
    struct {
        const char *name;
        double v;
    } prob[] = {{"SerialProb", c->serial_prob}, {"Pow2Prob", c->pow2_prob}, {"UProb", c->u_prob}};
    for (size_t i = 0; i < sizeof prob / sizeof prob[0]; i++)
        if (!(prob[i].v >= 0.0 && prob[i].v <= 1.0))
            return eng_diag_set(d, ENG_RANGE, "%s.%s = %g: expected a probability in [0, 1]", cname,
                                prob[i].name, prob[i].v);
    if (c->serial_prob + c->pow2_prob > 1.0 + 1e-12)
        return eng_diag_set(d, ENG_RANGE, "%s: SerialProb + Pow2Prob = %g exceeds 1", cname,
                            c->serial_prob + c->pow2_prob);
    struct {
        const char *name;
        double v;
    } pos[] = {{"a1", c->a1},     {"b1", c->b1},     {"a2", c->a2},
               {"b2", c->b2},     {"AARR", c->aarr}, {"BARR", c->barr},
               {"ARAR", c->arar}, {"ANUM", c->anum}, {"BNUM", c->bnum}};
    for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++)
        if (!(pos[i].v > 0.0 && isfinite(pos[i].v)))
            return eng_diag_set(d, ENG_RANGE, "%s.%s = %g: expected a positive number", cname,
                                pos[i].name, pos[i].v);
    if (!isfinite(c->pa) || !isfinite(c->pb))
        return eng_diag_set(d, ENG_RANGE, "%s: pa and pb must be finite", cname);
    if (!(c->u_low <= c->u_med && c->u_med <= c->u_hi) || !isfinite(c->u_low) || !isfinite(c->u_hi))
        return eng_diag_set(d, ENG_RANGE, "%s: expected ULow <= UMed <= UHi, got %g, %g, %g", cname,
                            c->u_low, c->u_med, c->u_hi);
    double w[ENG_LUBLIN_BUCKETS];
    eng_lublin_weights(c, w);
    for (int k = 0; k < ENG_LUBLIN_BUCKETS; k++)
        if (!(w[k] > 0.0 && isfinite(w[k])))
            return eng_diag_set(d, ENG_RANGE,
                                "%s: ANUM = %g, BNUM = %g leave daily-cycle bucket %d without "
                                "weight",
                                cname, c->anum, c->bnum, k);
    return ENG_OK;
}

static int check_estimates(const eng_estimates *e, eng_diag *d)
{
    if (e->model == ENG_EST_FMODEL && !(e->f >= 0.0 && isfinite(e->f)))
        return eng_diag_set(d, ENG_RANGE, "f-model: f = %g, expected a number >= 0", e->f);
    if (e->model == ENG_EST_WALLTIMES) {
        if (e->n_walltimes == 0 || e->n_walltimes > ENG_EST_MAX_WALLTIMES)
            return eng_diag_set(d, ENG_INVAL, "walltimes: the list is empty");
        for (size_t i = 0; i < e->n_walltimes; i++)
            if (!(e->walltimes_s[i] > 0.0) || (i && e->walltimes_s[i] <= e->walltimes_s[i - 1]))
                return eng_diag_set(d, ENG_INVAL,
                                    "walltimes: expected positive, strictly ascending values");
    }
    if (e->model != ENG_EST_EXACT && e->model != ENG_EST_FMODEL && e->model != ENG_EST_WALLTIMES)
        return eng_diag_set(d, ENG_INVAL, "unknown estimate model %d", (int)e->model);
    return ENG_OK;
}

int eng_lublin_check(const eng_lublin_opts *o, eng_diag *d)
{
    if (o->nodes < 1)
        return eng_diag_set(d, ENG_RANGE, "machine size %lld: expected at least 1 node",
                            (long long)o->nodes);
    if (o->start_hour < 0 || o->start_hour > 23)
        return eng_diag_set(d, ENG_RANGE, "start hour %d: expected 0..23", o->start_hour);
    if (!(o->max_log_runtime_s > 0.0 && o->max_log_runtime_s < 700.0))
        return eng_diag_set(d, ENG_RANGE, "TOO_MUCH_TIME = %g: expected (0, 700)",
                            o->max_log_runtime_s);
    if (!(o->max_log_gap_s > 0.0 && o->max_log_gap_s < 700.0))
        return eng_diag_set(d, ENG_RANGE, "TOO_MUCH_ARRIVE_TIME = %g: expected (0, 700)",
                            o->max_log_gap_s);
    for (int k = 0; k < ENG_LUBLIN_N_CLASSES; k++) {
        if (o->typeless != (k == ENG_LUBLIN_WHOLE))
            continue;
        int rc = check_class(&o->cls[k], class_names[k], d);
        if (rc != ENG_OK)
            return rc;
    }
    return check_estimates(&o->est, d);
}

/* ------------------------------------------------------------------ */
/* Arrivals                                                            */

typedef struct lf_stream {
    const eng_lublin_class *c;
    double w[ENG_LUBLIN_BUCKETS];
    int bucket;    /* current half-hour bucket */
    double points; /* part of the current bucket already used, in points */
    double rem;    /* the same as a fraction of the bucket */
    double clock;  /* absolute time of the class's next arrival, s */
} lf_stream;

static void stream_init(lf_stream *s, const eng_lublin_class *c, int start_hour)
{
    s->c = c;
    eng_lublin_weights(c, s->w);
    s->bucket = start_hour * ENG_LUBLIN_BUCKETS / 24;
    s->points = 0.0;
    s->rem = 0.0;
    s->clock = 0.0;
}

static void stream_next(lf_stream *s, const eng_lublin_opts *o, gsl_rng *r)
{
    double g;
    do
        g = gsl_ran_gamma(r, s->c->aarr * s->c->arar, s->c->barr);
    while (g > o->max_log_gap_s);
    s->points += exp(g) / ENG_LUBLIN_BUCKET_S;
    double adv = 0.0;
    int b = s->bucket;
    while (s->points > s->w[b]) {
        s->points -= s->w[b];
        b = (b + 1) % ENG_LUBLIN_BUCKETS;
        adv += ENG_LUBLIN_BUCKET_S;
    }
    double rem = s->points / s->w[b];
    adv += ENG_LUBLIN_BUCKET_S * (rem - s->rem);
    s->rem = rem;
    s->bucket = b;
    if (o->whole_seconds)
        s->clock = floor(s->clock + adv); /* lublin99.c: unsigned long += double */
    else
        s->clock += adv;
}

/* ------------------------------------------------------------------ */
/* Header                                                              */

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

static int note_class(eng_workload *w, const eng_lublin_class *c, const char *cname)
{
    char line[1024];
    size_t k = (size_t)snprintf(line, sizeof line, "Lublin-Feitelson %s parameters:", cname);
    for (size_t p = 0; p < N_PARAMS && k < sizeof line; p++) {
        char num[32];
        k += (size_t)snprintf(line + k, sizeof line - k, " %s=%s", params[p].name,
                              eng_fmt_double(num, sizeof num, param_get(c, p)));
    }
    return eng_workload_set_header(w, "Note", line);
}

/* The Generator line (ENG_GENERATOR_KEY): the options that make the same
 * jobs, a parameter given as --param where it differs from the reference
 * fitted to the machine. Written through a memory stream: with every
 * parameter overridden and a long walltime list it has no fixed bound. */
static int generator_line(eng_workload *w, const eng_lublin_opts *o, bool own_rng,
                          const gsl_rng *rng)
{
    char *text = NULL, num[32];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return ENG_NOMEM;
    fprintf(f, "lublin (Lublin & Feitelson 2003) --nodes %lld --jobs %zu", (long long)o->nodes,
            o->n_jobs);
    if (own_rng)
        fprintf(f, " --seed %lu", o->seed);
    if (o->typeless)
        fputs(" --typeless", f);
    if (o->start_hour)
        fprintf(f, " --start-hour %d", o->start_hour);
    if (o->whole_seconds)
        fputs(" --whole-seconds", f);
    eng_estimates_args(&o->est, f);
    eng_lublin_opts ref;
    eng_lublin_opts_init(&ref, o->nodes);
    for (int k = 0; k < ENG_LUBLIN_N_CLASSES; k++)
        for (size_t p = 0; p < N_PARAMS && o->typeless == (k == ENG_LUBLIN_WHOLE); p++)
            if (param_get(&o->cls[k], p) != param_get(&ref.cls[k], p))
                fprintf(f, " --param %s.%s=%s", class_names[k], params[p].name,
                        eng_fmt_double(num, sizeof num, param_get(&o->cls[k], p)));
    if (!own_rng)
        fprintf(f, "; random numbers from the caller's %s generator", gsl_rng_name(rng));
    if (o->max_log_runtime_s != ref.max_log_runtime_s || o->max_log_gap_s != ref.max_log_gap_s)
        fputs("; caps set by the caller (see the caps note)", f);
    int rc = fclose(f) == 0 && text ? eng_workload_set_header(w, ENG_GENERATOR_KEY, text)
                                    : ENG_NOMEM;
    free(text);
    return rc;
}

static int write_header(eng_workload *w, const eng_lublin_opts *o, bool own_rng, const gsl_rng *rng)
{
    int64_t max_rt = (int64_t)eng_lublin_runtime_s(o->max_log_runtime_s);
    int rc = eng_synthetic_header(w, o->nodes, max_rt);
    if (rc == ENG_OK)
        rc = generator_line(w, o, own_rng, rng);
    char est[1024], num[2][32];
    if (rc == ENG_OK)
        rc = note(w,
                  "model: Lublin & Feitelson 2003 (lublin99), %s mode, %zu jobs on %lld "
                  "nodes",
                  o->typeless ? "typeless" : "typed", o->n_jobs, (long long)o->nodes);
    if (rc == ENG_OK)
        rc = note(w, "generator: batchlab eng_lublin version %d", ENG_LUBLIN_GEN_VERSION);
    if (rc == ENG_OK)
        rc = own_rng ? note(w, "seed: %lu (gsl_rng_mt19937)", o->seed)
                     : note(w, "seed: %lu (caller's %s generator)", o->seed, gsl_rng_name(rng));
    for (int k = 0; k < ENG_LUBLIN_N_CLASSES && rc == ENG_OK; k++)
        if (o->typeless == (k == ENG_LUBLIN_WHOLE))
            rc = note_class(w, &o->cls[k], class_names[k]);
    if (rc == ENG_OK)
        rc = note(w, "caps: TOO_MUCH_TIME=%s TOO_MUCH_ARRIVE_TIME=%s (ln seconds, redrawn above)",
                  eng_fmt_double(num[0], sizeof num[0], o->max_log_runtime_s),
                  eng_fmt_double(num[1], sizeof num[1], o->max_log_gap_s));
    if (rc == ENG_OK)
        rc = note(w, "clock: %s; time 0 is %02d:00 (start hour %d)",
                  o->whole_seconds ? "truncated to whole seconds after every gap, as lublin99.c"
                                   : "double precision, submit times rounded to whole seconds",
                  o->start_hour, o->start_hour);
    if (rc == ENG_OK)
        rc = note(w,
                  "sizes: clamped to %lld nodes (oversized power-of-two draws become "
                  "whole-machine jobs)",
                  (long long)o->nodes);
    if (rc == ENG_OK)
        rc = note(w, "estimates: %s", eng_estimates_describe(&o->est, est, sizeof est));
    if (rc == ENG_OK)
        rc = note(w, o->typeless ? "queue field 15: -1 (typeless mode has no class)"
                                 : "queue field 15: job class, 0 interactive, 1 batch");
    return rc;
}

/* ------------------------------------------------------------------ */
/* Generator                                                           */

int eng_lublin_generate(const eng_lublin_opts *o, gsl_rng *rng, eng_workload **out, eng_diag *d)
{
    *out = NULL;
    int rc = eng_lublin_check(o, d);
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
    eng_workload *w = eng_workload_create("lublin");
    lf_stream *st = malloc(2 * sizeof *st);
    if (!est_rng || !w || !st) {
        rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
        goto done;
    }
    gsl_rng_set(est_rng, gsl_rng_get(rng));
    rc = write_header(w, o, own_rng, rng);
    if (rc != ENG_OK) {
        rc = eng_diag_set(d, rc, "out of memory");
        goto done;
    }

    /* As in lublin99.c, both streams pre-compute their first arrival, batch
     * first. */
    if (o->typeless) {
        stream_init(&st[0], &o->cls[ENG_LUBLIN_WHOLE], o->start_hour);
        stream_next(&st[0], o, rng);
    } else {
        stream_init(&st[ENG_LUBLIN_INTERACTIVE], &o->cls[ENG_LUBLIN_INTERACTIVE], o->start_hour);
        stream_init(&st[ENG_LUBLIN_BATCH], &o->cls[ENG_LUBLIN_BATCH], o->start_hour);
        stream_next(&st[ENG_LUBLIN_BATCH], o, rng);
        stream_next(&st[ENG_LUBLIN_INTERACTIVE], o, rng);
    }

    for (size_t i = 0; i < o->n_jobs; i++) {
        int c = 0;
        if (!o->typeless)
            c = st[ENG_LUBLIN_BATCH].clock < st[ENG_LUBLIN_INTERACTIVE].clock
                    ? ENG_LUBLIN_BATCH
                    : ENG_LUBLIN_INTERACTIVE;
        double arrival = st[c].clock;
        stream_next(&st[c], o, rng);
        const eng_lublin_class *cls = st[c].c;
        int64_t n = eng_lublin_draw_nodes(cls, o->nodes, rng);
        double g = eng_lublin_draw_log_runtime(cls, n, o->max_log_runtime_s, rng, NULL);
        double rt = eng_lublin_runtime_s(g);

        eng_job j = eng_job_unknown();
        j.id = (int64_t)i + 1;
        j.submit_s = o->whole_seconds ? arrival : round_half_up(arrival);
        j.runtime_s = rt;
        j.procs_alloc = n;
        j.procs_req = n;
        j.time_req_s = eng_estimate_s(&o->est, rt, est_rng);
        j.status = 1;
        j.queue = o->typeless ? -1 : c;
        if (eng_workload_push(w, &j) != ENG_OK) {
            rc = eng_diag_set(d, ENG_NOMEM, "out of memory after %zu jobs", i);
            goto done;
        }
    }
    *out = w;
    w = NULL;
    rc = ENG_OK;
done:
    free(st);
    eng_workload_destroy(w);
    if (est_rng)
        gsl_rng_free(est_rng);
    if (own_rng)
        gsl_rng_free(rng);
    return rc;
}
