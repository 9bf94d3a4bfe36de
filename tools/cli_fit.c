/* cli_fit.c — `batchlab fit --workload LOG [--json FILE]`: the job model of
 * a real log. Toporkov, Yemelyanov & Grigorenko 2021 (§3.1) fit lognormal
 * job lengths and sizes to the ForHLR II log (Kolmogorov–Smirnov 0.14);
 * beside the lognormal we fit the gamma, and the Lublin & Feitelson 2003
 * hyper-gamma of ln(run time). Every fit is maximum likelihood
 * (engine/eng_fit.c), each with its KS statistic against the log. The JSON
 * file ("format": "batchlab-fit 1") is what `batchlab study availability
 * --job-model` reads. Bad input (no usable job, unreadable log) exits 1
 * and leaves no file; usage errors exit 2.
 */
#include "cli.h"
#include "cli_args.h"

#include "eng_fit.h"
#include "eng_swf.h"
#include "eng_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CMD "fit"

static const bl_opt opts[] = {
    {"workload", 0, BL_VALUE, "LOG", "the SWF log (plain or gzip)"},
    {"json", 0, BL_VALUE, "FILE", "write the fits as JSON (for study availability --job-model)"},
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
        printf("  hyper-gamma of ln x (%zu jobs with x > 1): p %.4f  Gamma(%.4f, %.4f) + "
               "Gamma(%.4f, %.4f)   KS %.4f\n",
               q->n_hgamma, q->hgamma.p, q->hgamma.g1.shape, q->hgamma.g1.scale, q->hgamma.g2.shape,
               q->hgamma.g2.scale, q->ks_hgamma);
}

static void json_num(FILE *f, double v)
{
    char buf[32];
    fputs(isfinite(v) ? eng_fmt_double(buf, sizeof buf, v) : "null", f);
}

static void json_quantity(FILE *f, const char *key, const eng_fit_quantity *q, bool last)
{
    fprintf(f, "  \"%s\": {\"n\": %zu,\n    \"lognormal\": {\"mu\": ", key, q->n);
    json_num(f, q->lognormal.mu);
    fputs(", \"sigma\": ", f);
    json_num(f, q->lognormal.sigma);
    fputs(", \"ks\": ", f);
    json_num(f, q->ks_lognormal);
    fputs("},\n    \"gamma\": {\"shape\": ", f);
    json_num(f, q->gamma.shape);
    fputs(", \"scale\": ", f);
    json_num(f, q->gamma.scale);
    fputs(", \"ks\": ", f);
    json_num(f, q->ks_gamma);
    fputc('}', f);
    if (q->has_hgamma) {
        fprintf(f, ",\n    \"hyper_gamma_of_log\": {\"n\": %zu, \"p\": ", q->n_hgamma);
        json_num(f, q->hgamma.p);
        fputs(", \"shape1\": ", f);
        json_num(f, q->hgamma.g1.shape);
        fputs(", \"scale1\": ", f);
        json_num(f, q->hgamma.g1.scale);
        fputs(", \"shape2\": ", f);
        json_num(f, q->hgamma.g2.shape);
        fputs(", \"scale2\": ", f);
        json_num(f, q->hgamma.g2.scale);
        fputs(", \"ks\": ", f);
        json_num(f, q->ks_hgamma);
        fputc('}', f);
    }
    fprintf(f, "}%s\n", last ? "" : ",");
}

static void write_json(FILE *f, const char *log, const eng_fit_log *fl)
{
    fputs("{\n  \"format\": \"batchlab-fit 1\",\n  \"workload\": \"", f);
    for (const char *p = log; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', f);
        if ((unsigned char)*p >= 0x20)
            fputc(*p, f);
    }
    fprintf(f,
            "\",\n  \"jobs\": %zu, \"used\": %zu, \"no_positive_run_time\": %zu, "
            "\"no_positive_size\": %zu,\n",
            fl->jobs, fl->used, fl->bad_runtime, fl->bad_size);
    json_quantity(f, "run_time", &fl->runtime, false);
    json_quantity(f, "size", &fl->size, true);
    fputs("}\n", f);
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
    if (json) {
        eng_afile af;
        if (eng_afile_open(&af, json, &d) != 0) {
            fprintf(stderr, "batchlab " CMD ": %s\n", d.msg);
            rc = 1;
        } else {
            write_json(af.f, log, &fl);
            if (eng_afile_commit(&af, &d) != 0) {
                fprintf(stderr, "batchlab " CMD ": %s\n", d.msg);
                rc = 1;
            }
        }
    }
    bl_args_fini(&a);
    return rc;
}
