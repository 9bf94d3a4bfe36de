/* cli_fit.c — `batchlab fit --workload LOG [--json FILE]`: the job model of
 * a real log. Toporkov, Yemelyanov & Grigorenko 2021 (§3.1) fit lognormal
 * job lengths and sizes to the ForHLR II log (Kolmogorov–Smirnov 0.14);
 * beside the lognormal we fit the gamma, and the Lublin & Feitelson 2003
 * hyper-gamma of ln(run time). Every fit is maximum likelihood
 * (engine/eng_fit.c), each with its KS statistic against the log. The JSON
 * file ("format": "batchlab-fit 1") is what `batchlab-study availability
 * --job-model` reads (bench/studies). Bad input (no usable job, unreadable log) exits 1
 * and leaves no file; usage errors exit 2.
 */
#include "cli.h"
#include "cli_args.h"

#include "eng_fit.h"
#include "eng_json.h"
#include "eng_swf.h"
#include "eng_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CMD "fit"

static const bl_opt opts[] = {
    {"workload", 0, BL_VALUE, "LOG", "the SWF log (plain or gzip)"},
    {"json", 0, BL_VALUE, "FILE",
     "write the fits as JSON (for batchlab-study availability --job-model)"},
};

static const char synopsis[] = "--workload LOG [--json FILE]";

static const char description[] =
    "Fits the jobs of an SWF log by maximum likelihood: run time (field 4, seconds) and size\n"
    "(allocated processors, field 5, or requested, field 8): a lognormal (Toporkov, Yemelyanov\n"
    "& Grigorenko 2021 model job lengths and sizes so), a gamma, and for the run time the\n"
    "hyper-gamma of ln(run time) of Lublin & Feitelson 2003 (fitted by EM over the jobs\n"
    "longer than 1 s). Prints each fit with its Kolmogorov-Smirnov statistic against the log.\n"
    "Jobs without a positive run time or size are skipped and counted; a log with fewer than\n"
    "two usable jobs is an error (exit 1, no file written).";

static void print_fit(const char *name, const eng_fit_quantity *q, const char *unit)
{
    printf("%s (%zu jobs)\n", name, q->n);
    printf("  lognormal    mu %.4f  sigma %.4f  (median %.4g %s)   KS %.4f\n", q->lognormal.mu,
           q->lognormal.sigma, exp(q->lognormal.mu), unit, q->ks_lognormal);
    printf("  gamma        shape %.4f  scale %.4g %s   KS %.4f\n", q->gamma.shape, q->gamma.scale,
           unit, q->ks_gamma);
    if (q->has_hgamma)
        printf("  hyper-gamma of ln x (%zu job%s with x > 1): p %.4f  Gamma(%.4f, %.4f) + "
               "Gamma(%.4f, %.4f)   KS %.4f\n",
               q->n_hgamma, bl_s(q->n_hgamma), q->hgamma.p, q->hgamma.g1.shape, q->hgamma.g1.scale,
               q->hgamma.g2.shape, q->hgamma.g2.scale, q->ks_hgamma);
}

/* One fitted quantity: n, the lognormal, the gamma and (run time only) the
 * hyper-gamma of ln x, each with its KS statistic. */
static json_t *fit_json(const eng_fit_quantity *q, bool *ok)
{
    json_t *o = json_object(), *ln = json_object(), *g = json_object();
    eng_json_set(o, "n", json_integer((json_int_t)q->n), ok);
    eng_json_set(ln, "mu", eng_json_num(q->lognormal.mu), ok);
    eng_json_set(ln, "sigma", eng_json_num(q->lognormal.sigma), ok);
    eng_json_set(ln, "ks", eng_json_num(q->ks_lognormal), ok);
    eng_json_set(o, "lognormal", ln, ok);
    eng_json_set(g, "shape", eng_json_num(q->gamma.shape), ok);
    eng_json_set(g, "scale", eng_json_num(q->gamma.scale), ok);
    eng_json_set(g, "ks", eng_json_num(q->ks_gamma), ok);
    eng_json_set(o, "gamma", g, ok);
    if (q->has_hgamma) {
        json_t *h = json_object();
        eng_json_set(h, "n", json_integer((json_int_t)q->n_hgamma), ok);
        eng_json_set(h, "p", eng_json_num(q->hgamma.p), ok);
        eng_json_set(h, "shape1", eng_json_num(q->hgamma.g1.shape), ok);
        eng_json_set(h, "scale1", eng_json_num(q->hgamma.g1.scale), ok);
        eng_json_set(h, "shape2", eng_json_num(q->hgamma.g2.shape), ok);
        eng_json_set(h, "scale2", eng_json_num(q->hgamma.g2.scale), ok);
        eng_json_set(h, "ks", eng_json_num(q->ks_hgamma), ok);
        eng_json_set(o, "hyper_gamma_of_log", h, ok);
    }
    return o;
}

/* The fit file ("format": "batchlab-fit 1"), written atomically. */
static int write_json(const char *path, const char *log, const eng_fit_log *fl, eng_diag *d)
{
    bool ok = true;
    json_t *root = json_object();
    eng_json_set(root, "format", eng_json_str("batchlab-fit 1"), &ok);
    eng_json_set(root, "workload", eng_json_str(log), &ok);
    eng_json_set(root, "jobs", json_integer((json_int_t)fl->jobs), &ok);
    eng_json_set(root, "used", json_integer((json_int_t)fl->used), &ok);
    eng_json_set(root, "no_positive_run_time", json_integer((json_int_t)fl->bad_runtime), &ok);
    eng_json_set(root, "no_positive_size", json_integer((json_int_t)fl->bad_size), &ok);
    eng_json_set(root, "run_time", fit_json(&fl->runtime, &ok), &ok);
    eng_json_set(root, "size", fit_json(&fl->size, &ok), &ok);
    int rc = ok ? eng_json_write(path, root, d) : eng_diag_set(d, ENG_NOMEM, "out of memory");
    json_decref(root);
    return rc;
}

int bl_cmd_fit(int argc, char **argv)
{
    bl_args a;
    int rc = bl_args_parse(CMD, opts, sizeof opts / sizeof *opts, argc, argv, 1, &a);
    if (rc)
        return rc;
    if (a.help) {
        bl_args_usage(CMD, synopsis, description, opts, sizeof opts / sizeof *opts);
        bl_args_fini(&a);
        return 0;
    }
    const char *log = bl_args_value(&a, "workload", NULL);
    const char *json = bl_args_value(&a, "json", NULL);
    if (!log) {
        fprintf(stderr, "batchlab " CMD ": --workload LOG is required (see batchlab fit --help)\n");
        bl_args_fini(&a);
        return 2;
    }
    eng_diag d;
    eng_diag_clear(&d);
    eng_workload *w = NULL;
    eng_fit_log fl;
    rc = eng_swf_read(log, NULL, &w, &d);
    if (rc == ENG_OK)
        rc = eng_fit_workload(w, &fl, &d);
    eng_workload_destroy(w);
    if (rc != ENG_OK) {
        fprintf(stderr, "batchlab " CMD ": %s\n", d.msg[0] ? d.msg : eng_strerror(rc));
        bl_args_fini(&a);
        return 1;
    }
    printf("Job model of %s: %zu jobs, %zu used (%zu without a positive run time, %zu without "
           "a positive size); maximum-likelihood fits, Kolmogorov-Smirnov statistic against "
           "the log\n",
           log, fl.jobs, fl.used, fl.bad_runtime, fl.bad_size);
    print_fit("run time", &fl.runtime, "s");
    print_fit("size", &fl.size, "processors");
    printf("(Toporkov, Yemelyanov & Grigorenko 2021: lognormal lengths and sizes on ForHLR II, "
           "KS 0.14)\n");
    rc = 0;
    if (json && write_json(json, log, &fl, &d) != ENG_OK) {
        fprintf(stderr, "batchlab " CMD ": %s\n", d.msg);
        rc = 1;
    }
    bl_args_fini(&a);
    return rc;
}
