/* test_eng_scale.c — computed load, load and span rescaling, job types
 * (engine/eng_scale.c; Baranov & Lyakhovets 2022) and `batchlab scale`.
 *
 * Known answers on hand-computed workloads; rescaled submit times are whole
 * seconds, rescaled loads within U / (2 D') of the target (D' the rescaled
 * span in seconds), spans exact;
 * type uniformity is a chi-square test below its 0.001 quantile.
 */
#define _POSIX_C_SOURCE 200809L
#include "bl_test.h"
#include "eng_gen_modified.h"
#include "eng_lublin.h"
#include "eng_scale.h"
#include "eng_swf.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static eng_job job(double submit, double runtime, int64_t alloc, int64_t req)
{
    eng_job j = eng_job_unknown();
    j.submit_s = submit;
    j.runtime_s = runtime;
    j.procs_alloc = alloc;
    j.procs_req = req;
    j.status = 1;
    return j;
}

/* Three jobs: work 100·4 + 200·2 + 10·3 = 830 processor-seconds over
 * D = 100 s. */
static eng_workload *three_jobs(void)
{
    eng_workload *w = eng_workload_create("three");
    eng_job a = job(0, 100, 4, 4), b = job(50, 200, -1, 2), c = job(100, 10, 3, 8);
    a.id = 1;
    b.id = 2;
    c.id = 3;
    eng_workload_push(w, &a);
    eng_workload_push(w, &b);
    eng_workload_push(w, &c);
    return w;
}

/* True when every known submit time of w is a whole number of seconds. */
static bool whole_seconds(const eng_workload *w)
{
    for (size_t i = 0; i < w->n_jobs; i++)
        if (w->jobs[i].submit_s >= 0 && w->jobs[i].submit_s != floor(w->jobs[i].submit_s))
            return false;
    return true;
}

static eng_workload *modified(size_t n, unsigned long seed)
{
    eng_gen_modified_opts o;
    eng_gen_modified_init(&o, 500);
    o.n_jobs = n;
    o.seed = seed;
    eng_workload *w = NULL;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_gen_modified_generate(&o, NULL, &w, &d), ENG_OK);
    return w;
}

static void test_job_nodes(void)
{
    eng_job j = job(0, 10, 5, 7);
    CU_ASSERT_EQUAL(eng_scale_job_nodes(&j, 1), 5);
    CU_ASSERT_EQUAL(eng_scale_job_nodes(&j, 2), 3);
    CU_ASSERT_EQUAL(eng_scale_job_nodes(&j, 5), 1);
    CU_ASSERT_EQUAL(eng_scale_job_nodes(&j, 48), 1);
    j.procs_alloc = -1; /* falls back to the request */
    CU_ASSERT_EQUAL(eng_scale_job_nodes(&j, 1), 7);
    CU_ASSERT_EQUAL(eng_scale_job_nodes(&j, 4), 2);
    j.procs_req = -1;
    CU_ASSERT_EQUAL(eng_scale_job_nodes(&j, 1), -1);
    j.procs_alloc = 0;
    CU_ASSERT_EQUAL(eng_scale_job_nodes(&j, 1), -1);
}

static void test_load_known_answers(void)
{
    eng_workload *w = three_jobs();
    eng_load l;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_scale_load(w, 10, 1, &l, &d), ENG_OK);
    CU_ASSERT_DOUBLE_EQUAL(l.work_node_s, 830.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(l.span_s, 100.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(l.load, 0.83, 1e-15);
    CU_ASSERT_EQUAL(l.n_counted, 3);
    CU_ASSERT_EQUAL(l.n_skipped, 0);
    /* two cores per node: nodes 2, 1, 2 -> 200 + 200 + 20 = 420 */
    CU_ASSERT_EQUAL(eng_scale_load(w, 10, 2, &l, &d), ENG_OK);
    CU_ASSERT_DOUBLE_EQUAL(l.load, 0.42, 1e-15);
    /* an unknown run time and an unknown size are skipped, a zero run time
     * adds nothing, an unknown submit time does not count for D */
    eng_job u1 = job(20, -1, 4, 4), u2 = job(30, 50, -1, -1), z = job(40, 0, 8, 8),
            early = job(-1, 10, 1, 1);
    eng_workload_push(w, &u1);
    eng_workload_push(w, &u2);
    eng_workload_push(w, &z);
    eng_workload_push(w, &early);
    CU_ASSERT_EQUAL(eng_scale_load(w, 10, 1, &l, &d), ENG_OK);
    CU_ASSERT_EQUAL(l.n_counted, 5);
    CU_ASSERT_EQUAL(l.n_skipped, 2);
    CU_ASSERT_DOUBLE_EQUAL(l.work_node_s, 840.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(l.first_submit_s, 0.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(l.last_submit_s, 100.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(l.load, 0.84, 1e-15);
    /* D is measured from the first arrival: shifting the log changes nothing */
    for (size_t i = 0; i < w->n_jobs; i++)
        if (w->jobs[i].submit_s >= 0)
            w->jobs[i].submit_s += 1e6;
    CU_ASSERT_EQUAL(eng_scale_load(w, 10, 1, &l, &d), ENG_OK);
    CU_ASSERT_DOUBLE_EQUAL(l.load, 0.84, 1e-15);
    /* bad machines */
    CU_ASSERT_EQUAL(eng_scale_load(w, 0, 1, &l, &d), ENG_RANGE);
    CU_ASSERT_EQUAL(eng_scale_load(w, 10, 0, &l, &d), ENG_RANGE);
    eng_workload_destroy(w);
}

static void test_to_load(void)
{
    eng_workload *w = modified(5000, 301);
    eng_workload *orig = modified(5000, 301);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(orig);
    eng_load before, now, after;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_scale_load(w, 500, 1, &before, &d), ENG_OK);
    const double targets[] = {0.85, 0.9, 0.95, 0.3, 1.7};
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
        double c = 0.0;
        eng_scale_load(w, 500, 1, &now, &d);
        CU_ASSERT_EQUAL(eng_scale_to_load(w, 500, 1, targets[t], &c, &d), ENG_OK);
        CU_ASSERT_EQUAL(eng_scale_load(w, 500, 1, &after, &d), ENG_OK);
        /* the span is the exact one rounded to whole seconds, the factor
         * the one that gives it, the load within U / (2 D') of the target */
        double exact = before.work_node_s / (targets[t] * 500);
        CU_ASSERT_EQUAL(after.span_s, round(exact));
        CU_ASSERT_DOUBLE_EQUAL(c, after.span_s / now.span_s, 1e-12 * c);
        CU_ASSERT(fabs(after.load - targets[t]) <= targets[t] / (2 * after.span_s));
        CU_ASSERT(whole_seconds(w));
        CU_ASSERT_EQUAL(after.first_submit_s, round(before.first_submit_s));
        CU_ASSERT_EQUAL(after.work_node_s, before.work_node_s);
    }
    eng_workload_destroy(w);

    /* one rescaling: t' = t0 + c·(t − t0) for every job, order and every
     * other field kept */
    w = modified(5000, 301);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    double c = 0.0;
    CU_ASSERT_EQUAL(eng_scale_to_load(w, 500, 2, 0.9, &c, &d), ENG_OK);
    CU_ASSERT_EQUAL(eng_scale_load(w, 500, 2, &after, &d), ENG_OK);
    CU_ASSERT(fabs(after.load - 0.9) <= 0.9 / (2 * after.span_s));
    CU_ASSERT(whole_seconds(w));
    double t0 = orig->jobs[0].submit_s;
    size_t bad = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        const eng_job *a = &w->jobs[i], *b = &orig->jobs[i];
        bad += a->id != b->id || a->runtime_s != b->runtime_s || a->procs_alloc != b->procs_alloc ||
               a->queue != b->queue || a->time_req_s != b->time_req_s;
        bad += i && a->submit_s < w->jobs[i - 1].submit_s;
        /* each time within half a second of its exact scaled time: the
         * rounding errors do not add up along the log */
        double want = round(t0) + c * (b->submit_s - t0);
        bad += fabs(a->submit_s - want) > 0.5 + 1e-9 * want;
    }
    CU_ASSERT_EQUAL(bad, 0);

    /* the scaled times survive the SWF writer and reader bit for bit, so
     * the file's load is the target too */
    char path[768];
    snprintf(path, sizeof path, "%s/scaled.swf", bl_tmpdir());
    CU_ASSERT_EQUAL(eng_swf_write(path, w, NULL, &d), ENG_OK);
    eng_workload *r = NULL;
    CU_ASSERT_EQUAL(eng_swf_read(path, NULL, &r, &d), ENG_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    eng_load lr;
    CU_ASSERT_EQUAL(eng_scale_load(r, 500, 2, &lr, &d), ENG_OK);
    CU_ASSERT_EQUAL(lr.load, after.load);
    eng_workload_destroy(r);
    eng_workload_destroy(w);
    eng_workload_destroy(orig);
}

/* Scaled submit times are whole seconds, rounded from the exact scaled
 * times rather than gap by gap, so the load stays within U / (2 D') of the
 * target. Hand-computed: jobs at 1000.4, 1070.4, 1100.4 (D = 100 s) with
 * work 100·4 + 200·2 + 10·3 = 830 node-seconds on 10 nodes (U = 0.83).
 * Target 0.7: the exact span is 830 / 7 = 118.57 s, rounded to D' = 119 s;
 * the first arrival goes to round(1000.4) = 1000, the last to 1000 + 119 =
 * 1119, the middle one to 1000 + round(70 · 119 / 100 = 83.3) = 1083. The
 * load is then 830 / (119 · 10) = 0.697479..., 0.0025 from the target and
 * within 0.7 / (2 · 119) = 0.0029 of it. */
static void test_whole_seconds(void)
{
    eng_workload *w = eng_workload_create("three");
    eng_job a = job(1000.4, 100, 4, 4), b = job(1070.4, 200, -1, 2), c = job(1100.4, 10, 3, 8);
    eng_job unknown = job(-1, -1, 1, 1); /* no submit time, no work */
    eng_workload_push(w, &a);
    eng_workload_push(w, &b);
    eng_workload_push(w, &c);
    eng_workload_push(w, &unknown);
    eng_diag d;
    eng_diag_clear(&d);
    double factor = 0.0;
    CU_ASSERT_EQUAL_FATAL(eng_scale_to_load(w, 10, 1, 0.7, &factor, &d), ENG_OK);
    CU_ASSERT_EQUAL(w->jobs[0].submit_s, 1000.0);
    CU_ASSERT_EQUAL(w->jobs[1].submit_s, 1083.0);
    CU_ASSERT_EQUAL(w->jobs[2].submit_s, 1119.0);
    CU_ASSERT_EQUAL(w->jobs[3].submit_s, -1.0);  /* never moved */
    CU_ASSERT_DOUBLE_EQUAL(factor, 1.19, 1e-12); /* D' / D */
    eng_load l;
    CU_ASSERT_EQUAL(eng_scale_load(w, 10, 1, &l, &d), ENG_OK);
    CU_ASSERT_DOUBLE_EQUAL(l.load, 830.0 / 1190.0, 1e-15);
    CU_ASSERT(fabs(l.load - 0.7) <= 0.7 / (2 * 119.0));

    /* A span: rounded to whole seconds too (100.4 -> 100); the middle
     * arrival goes to 1000 + round(83 · 100 / 119 = 69.7) = 1070. */
    CU_ASSERT_EQUAL_FATAL(eng_scale_to_span(w, 100.4, &factor, &d), ENG_OK);
    CU_ASSERT_EQUAL(w->jobs[0].submit_s, 1000.0);
    CU_ASSERT_EQUAL(w->jobs[1].submit_s, 1070.0);
    CU_ASSERT_EQUAL(w->jobs[2].submit_s, 1100.0);
    CU_ASSERT_DOUBLE_EQUAL(factor, 100.0 / 119.0, 1e-15);

    /* A load so high that the arrivals would fit in less than half a
     * second: no whole-second span meets it. */
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_scale_to_load(w, 10, 1, 500.0, NULL, &d), ENG_RANGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "whole seconds"));
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_scale_to_span(w, 0.4, NULL, &d), ENG_RANGE);
    CU_ASSERT_EQUAL(w->jobs[2].submit_s, 1100.0); /* nothing moved */
    eng_workload_destroy(w);
}

static void test_to_span(void)
{
    /* the study's compression: a Lublin-Feitelson log of 5000 jobs on 500
     * nodes, last job 100 hours after the first */
    eng_lublin_opts o;
    eng_lublin_opts_init(&o, 500);
    o.n_jobs = 5000;
    o.seed = 302;
    eng_workload *w = NULL;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_lublin_generate(&o, NULL, &w, &d), ENG_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    eng_load before, after;
    eng_scale_load(w, 500, 1, &before, &d);
    double c = 0.0;
    CU_ASSERT_EQUAL(eng_scale_to_span(w, 360000.0, &c, &d), ENG_OK);
    eng_scale_load(w, 500, 1, &after, &d);
    CU_ASSERT_EQUAL(after.last_submit_s - after.first_submit_s, 360000.0);
    CU_ASSERT_EQUAL(after.first_submit_s, round(before.first_submit_s));
    CU_ASSERT(whole_seconds(w));
    CU_ASSERT_DOUBLE_EQUAL(c, 360000.0 / before.span_s, 1e-15 * c);
    /* 5000 typed L-F jobs span about a month (164 jobs/day at the model's
     * long-run rates), so the factor is about 1/7.5 as in the study */
    CU_ASSERT(c > 1.0 / 15.0 && c < 1.0 / 4.0);
    CU_ASSERT_DOUBLE_EQUAL(after.load, before.load / c, 1e-12 * after.load);
    size_t bad = 0;
    for (size_t i = 1; i < w->n_jobs; i++)
        bad += w->jobs[i].submit_s < w->jobs[i - 1].submit_s;
    CU_ASSERT_EQUAL(bad, 0);
    /* then to a load: U within U / (2 D'), the span follows */
    CU_ASSERT_EQUAL(eng_scale_to_load(w, 500, 1, 0.9, &c, &d), ENG_OK);
    eng_scale_load(w, 500, 1, &after, &d);
    CU_ASSERT(fabs(after.load - 0.9) <= 0.9 / (2 * after.span_s));
    CU_ASSERT(whole_seconds(w));
    eng_workload_destroy(w);
}

static void test_errors(void)
{
    eng_diag d;
    eng_workload *w = eng_workload_create("one");
    eng_job a = job(5, 100, 4, 4);
    eng_workload_push(w, &a);
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_scale_to_load(w, 10, 1, 0.5, NULL, &d), ENG_RANGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "same time"));
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_scale_to_span(w, 100, NULL, &d), ENG_RANGE);
    eng_load l;
    CU_ASSERT_EQUAL(eng_scale_load(w, 10, 1, &l, &d), ENG_OK);
    CU_ASSERT(isnan(l.load));
    eng_job b = job(10, 0, 4, 4);
    w->jobs[0].runtime_s = 0;
    eng_workload_push(w, &b);
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_scale_to_load(w, 10, 1, 0.5, NULL, &d), ENG_RANGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "no work"));
    w->jobs[0].runtime_s = 100;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_scale_to_load(w, 10, 1, 0.0, NULL, &d), ENG_RANGE);
    CU_ASSERT_EQUAL(eng_scale_to_load(w, 10, 1, -1.0, NULL, &d), ENG_RANGE);
    CU_ASSERT_EQUAL(eng_scale_to_load(w, 10, 1, NAN, NULL, &d), ENG_RANGE);
    CU_ASSERT_EQUAL(eng_scale_to_span(w, 0.0, NULL, &d), ENG_RANGE);
    CU_ASSERT_EQUAL(eng_scale_to_load(w, 0, 1, 0.5, NULL, &d), ENG_RANGE);
    /* nothing moved by the failed calls */
    CU_ASSERT_EQUAL(w->jobs[0].submit_s, 5.0);
    CU_ASSERT_EQUAL(w->jobs[1].submit_s, 10.0);
    eng_workload_destroy(w);
}

static void test_types(void)
{
    eng_workload *w = modified(80000, 303);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_scale_assign_types(w, 5, r, &d), ENG_OK);
    size_t counts[6] = {0}, bad = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        bad += w->jobs[i].queue < 1 || w->jobs[i].queue > 5;
        if (w->jobs[i].queue >= 1 && w->jobs[i].queue <= 5)
            counts[w->jobs[i].queue]++;
    }
    CU_ASSERT_EQUAL(bad, 0);
    /* chi-square, 4 degrees of freedom, below the 0.001 quantile (18.47) */
    double chi = 0.0, e = (double)w->n_jobs / 5.0;
    for (int k = 1; k <= 5; k++)
        chi += ((double)counts[k] - e) * ((double)counts[k] - e) / e;
    CU_ASSERT(chi <= gsl_cdf_chisq_Qinv(1e-3, 4));
    /* same seed, same types */
    int64_t *first = malloc(w->n_jobs * sizeof *first);
    for (size_t i = 0; i < w->n_jobs; i++)
        first[i] = w->jobs[i].queue;
    gsl_rng_set(r, 7);
    eng_scale_assign_types(w, 5, r, &d);
    size_t same = 0;
    for (size_t i = 0; i < w->n_jobs; i++)
        same += first[i] == w->jobs[i].queue;
    CU_ASSERT_EQUAL(same, w->n_jobs);
    /* another seed, other types: agreement about 1/5 */
    gsl_rng_set(r, 8);
    eng_scale_assign_types(w, 5, r, &d);
    same = 0;
    for (size_t i = 0; i < w->n_jobs; i++)
        same += first[i] == w->jobs[i].queue;
    CU_ASSERT(same < w->n_jobs / 3);
    /* K = 1: all type 1; K = 0: an error */
    CU_ASSERT_EQUAL(eng_scale_assign_types(w, 1, r, &d), ENG_OK);
    bad = 0;
    for (size_t i = 0; i < w->n_jobs; i++)
        bad += w->jobs[i].queue != 1;
    CU_ASSERT_EQUAL(bad, 0);
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_scale_assign_types(w, 0, r, &d), ENG_RANGE);
    free(first);
    gsl_rng_free(r);
    eng_workload_destroy(w);
}

/* ------------------------------------------------------------------ */
/* Command line                                                        */

static eng_workload *read_back(const char *path)
{
    eng_workload *w = NULL;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_swf_read(path, NULL, &w, &d), ENG_OK);
    return w;
}

static void test_cli(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "scale --help"), 0);
    CU_ASSERT(bl_contains(out, "usage: batchlab scale"));
    CU_ASSERT(bl_contains(out, "--cores-per-node"));
    CU_ASSERT(bl_contains(out, "--span"));
    free(out);

    /* input: a modified-generator log written by the library */
    const char *dir = bl_tmpdir();
    char in[768], o1[768], o2[768], o3[768];
    snprintf(in, sizeof in, "%s/in.swf", dir);
    snprintf(o1, sizeof o1, "%s/load.swf", dir);
    snprintf(o2, sizeof o2, "%s/span.swf", dir);
    snprintf(o3, sizeof o3, "%s/types.swf.gz", dir);
    eng_workload *w = modified(3000, 304);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_swf_write(in, w, NULL, &d), ENG_OK);

    CU_ASSERT_EQUAL(bl_run(&out,
                           "scale --workload '%s' --nodes 250 --cores-per-node 2 --load 0.9 "
                           "-o '%s'",
                           in, o1),
                    0);
    CU_ASSERT(bl_contains(out, "computed load 0.9000"));
    free(out);
    eng_workload *s = read_back(o1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    eng_load l;
    eng_scale_load(s, 250, 2, &l, &d);
    CU_ASSERT(fabs(l.load - 0.9) <= 0.9 / (2 * l.span_s));
    CU_ASSERT(whole_seconds(s));
    CU_ASSERT_EQUAL(s->n_jobs, w->n_jobs);
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(s, "computed load of 0.9 on 250 nodes of 2 cores"));
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(s, "submit times rounded to whole seconds, D = "));
    eng_workload_destroy(s);
    /* `info` on the scaled log prints the target */
    CU_ASSERT_EQUAL(bl_run(&out, "info --workload '%s' --nodes 250 --cores-per-node 2", o1), 0);
    CU_ASSERT(bl_contains(out, "computed load      0.9000 on 250 nodes of 2 cores"));
    free(out);
    /* the SWF text holds whole seconds: field 2 has no decimal point */
    char *text = bl_slurp(o1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    size_t fractional = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        long id;
        char submit[64];
        if (line[0] != ';' && sscanf(line, "%ld %63s", &id, submit) == 2)
            fractional += strchr(submit, '.') != NULL || strchr(submit, 'e') != NULL;
    }
    CU_ASSERT_EQUAL(fractional, 0);
    free(text);
    s = read_back(o1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(s, "Baranov & Lyakhovets 2022"));
    eng_workload_destroy(s);

    CU_ASSERT_EQUAL(bl_run(&out, "scale --workload '%s' --span 360000 -o '%s'", in, o2), 0);
    free(out);
    s = read_back(o2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    eng_scale_load(s, 1, 1, &l, &d);
    CU_ASSERT_EQUAL(l.span_s, 360000.0);
    CU_ASSERT_EQUAL(l.first_submit_s, round(w->jobs[0].submit_s));
    CU_ASSERT(whole_seconds(s));
    eng_workload_destroy(s);

    /* types only, gzip output, twice: same bytes */
    for (int k = 0; k < 2; k++) {
        char ok[768];
        snprintf(ok, sizeof ok, "%s/t%d.swf", dir, k);
        CU_ASSERT_EQUAL(bl_run(&out, "scale --workload '%s' --types 3 --seed 11 -o '%s'", in, ok),
                        0);
        free(out);
    }
    char t0p[768], t1p[768];
    snprintf(t0p, sizeof t0p, "%s/t0.swf", dir);
    snprintf(t1p, sizeof t1p, "%s/t1.swf", dir);
    size_t n0 = 0, n1 = 0;
    char *t0 = bl_slurp(t0p, &n0), *t1 = bl_slurp(t1p, &n1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t1);
    CU_ASSERT(n0 == n1 && memcmp(t0, t1, n0) == 0);
    free(t0);
    free(t1);
    CU_ASSERT_EQUAL(bl_run(&out,
                           "scale --workload '%s' --nodes 500 --load 0.8 --types 3 --seed 11 "
                           "-o '%s'",
                           in, o3),
                    0);
    free(out);
    s = read_back(o3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    size_t bad = 0;
    for (size_t i = 0; i < s->n_jobs; i++)
        bad += s->jobs[i].queue < 1 || s->jobs[i].queue > 3;
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(s, "type uniform in 1..3, seed 11"));
    eng_scale_load(s, 500, 1, &l, &d);
    CU_ASSERT(fabs(l.load - 0.8) <= 0.8 / (2 * l.span_s));
    eng_workload_destroy(s);

    const struct {
        const char *args;
        const char *msg;
    } usage[] = {
        {"scale --nodes 4 --load 0.5 -o x.swf", "batchlab scale: --workload is required"},
        {"scale --workload IN --load 0.5 -o x.swf", "batchlab scale: --load needs the machine"},
        {"scale --workload IN --nodes 4 --load 0.5 --span 9 -o x.swf",
         "batchlab scale: --load and --span exclude each other"},
        {"scale --workload IN --nodes 4 -o x.swf", "batchlab scale: expected --load"},
        {"scale --workload IN --types 4 -o x.swf", "batchlab scale: --types needs --seed"},
        {"scale --workload IN --nodes 4 --load 0 -o x.swf", "batchlab scale: --load"},
        {"scale --workload IN --span -5 -o x.swf", "batchlab scale: --span"},
        {"scale --workload IN --span 9", "batchlab scale: -o/--output is required"},
        {"scale --workload IN --load 0.5 --platform p.xml --nodes 4 -o x.swf",
         "batchlab scale: --platform replaces --nodes and --cores-per-node"},
    };
    for (size_t i = 0; i < sizeof usage / sizeof usage[0]; i++) {
        char args[512];
        snprintf(args, sizeof args, "%s", usage[i].args);
        char *p = strstr(args, "IN");
        char line[1600];
        if (p) {
            *p = '\0';
            snprintf(line, sizeof line, "%s'%s'%s", args, in, p + 2);
        } else {
            snprintf(line, sizeof line, "%s", args);
        }
        CU_ASSERT_EQUAL(bl_run(&out, "%s", line), 2);
        CU_ASSERT(bl_contains(out, usage[i].msg));
        free(out);
    }
    /* input problems exit 1 with the reader's message */
    CU_ASSERT_EQUAL(bl_run(&out, "scale --workload '%s/none.swf' --span 9 -o '%s/x.swf'", dir, dir),
                    1);
    CU_ASSERT(bl_contains(out, "batchlab scale: "));
    CU_ASSERT(bl_contains(out, "none.swf"));
    free(out);
    const char *one = bl_write_tmp("one.swf", "1 0 -1 10 1 -1 -1 1 10 -1 1 -1 -1 -1 -1 -1 -1 -1\n");
    CU_ASSERT_EQUAL(bl_run(&out, "scale --workload '%s' --span 9 -o '%s/x.swf'", one, dir), 1);
    CU_ASSERT(bl_contains(out, "same time"));
    free(out);
    /* a load that no whole-second span gives: exit 1, nothing written */
    CU_ASSERT_EQUAL(
        bl_run(&out, "scale --workload '%s' --nodes 1 --load 1e12 -o '%s/high.swf'", in, dir), 1);
    CU_ASSERT(bl_contains(out, "whole seconds"));
    free(out);
    char high[800];
    snprintf(high, sizeof high, "%s/high.swf", dir);
    CU_ASSERT_NOT_EQUAL(access(high, F_OK), 0);
    eng_workload_destroy(w);
}

int bl_suite_eng_scale(void)
{
    CU_pSuite s = CU_add_suite("eng_scale", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "job nodes", test_job_nodes);
    CU_add_test(s, "computed load (known answers)", test_load_known_answers);
    CU_add_test(s, "rescale to a load", test_to_load);
    CU_add_test(s, "rescaled submit times are whole seconds", test_whole_seconds);
    CU_add_test(s, "rescale to a span", test_to_span);
    CU_add_test(s, "errors", test_errors);
    CU_add_test(s, "job types", test_types);
    CU_add_test(s, "cli: scale", test_cli);
    return 0;
}
