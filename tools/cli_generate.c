/* cli_generate.c — `batchlab generate` (synthetic workloads: the
 * Lublin–Feitelson model, Lublin & Feitelson 2003, and the modified
 * generator of Baranov & Lyakhovets 2022) and `batchlab scale` (computed
 * load, load and span rescaling, job types; Baranov & Lyakhovets 2022).
 *
 * Exit status: 0 success; 1 a file could not be read or written (the
 * engine's message); 2 usage error ("batchlab generate: ..."). Outputs are
 * written atomically through eng_swf_write. Nothing here draws a random
 * number itself: the engine modules do, from generators seeded by --seed.
 */
#include "cli.h"
#include "cli_args.h"

#include "eng_gen_modified.h"
#include "eng_lublin.h"
#include "eng_run.h"
#include "eng_scale.h"
#include "eng_swf.h"
#include "eng_util.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEED_MAX 4294967295ULL /* gsl_rng_mt19937 takes 32-bit seeds */

/* ------------------------------------------------------------------ */
/* Option tables                                                       */

static const bl_opt lublin_opts[] = {
    {"nodes", 0, BL_VALUE, "P", "machine size in nodes, the largest job (required)"},
    {"jobs", 0, BL_VALUE, "N", "number of jobs, at least 1 (required)"},
    {"seed", 0, BL_VALUE, "S", "generator seed, 0..4294967295 (required)"},
    {"typeless", 0, BL_FLAG, NULL, "one stream, whole-sample parameters (default: typed)"},
    {"start-hour", 0, BL_VALUE, "H", "local hour of day at time 0, 0..23 (default 0)"},
    {"estimates", 0, BL_VALUE, "MODEL", "requested times: exact (default), f-model, walltimes"},
    {"f", 0, BL_VALUE, "F", "f-model: request = ceil(run time x U[1, F+1))"},
    {"walltimes", 0, BL_VALUE, "LIST", "walltimes in s for --estimates walltimes (see above)"},
    {"whole-seconds", 0, BL_FLAG, NULL, "truncate the clock every gap, as lublin99.c"},
    {"param", 0, BL_MULTI, "CLASS.NAME=V", "override a model parameter (repeatable)"},
    {"output", 'o', BL_VALUE, "FILE.swf", "output SWF file, .gz compresses (required)"},
};

static const bl_opt modified_opts[] = {
    {"nodes", 0, BL_VALUE, "P", "machine size in nodes, the largest job (required)"},
    {"jobs", 0, BL_VALUE, "N", "number of jobs, at least 1 (required)"},
    {"seed", 0, BL_VALUE, "S", "generator seed, 0..4294967295 (required)"},
    {"lambda", 0, BL_VALUE, "L", "Poisson arrival rate, jobs/s (default 0.0142)"},
    {"types", 0, BL_VALUE, "K", "job types uniform in 1..K, field 15 (default 8)"},
    {"estimates", 0, BL_VALUE, "MODEL", "requested times: exact (default), f-model, walltimes"},
    {"f", 0, BL_VALUE, "F", "f-model: request = ceil(run time x U[1, F+1))"},
    {"walltimes", 0, BL_VALUE, "LIST", "walltimes in s for --estimates walltimes (see above)"},
    {"output", 'o', BL_VALUE, "FILE.swf", "output SWF file, .gz compresses (required)"},
};

static const bl_opt scale_opts[] = {
    {"workload", 0, BL_VALUE, "IN", "input SWF log, .swf or .swf.gz (required)"},
    {"platform", 0, BL_VALUE, "FILE",
     "take P and C from a SimGrid platform (all its hosts; "
     "its pools must agree on cores per node)"},
    {"nodes", 0, BL_VALUE, "P", "machine size in nodes (required with --load)"},
    {"cores-per-node", 0, BL_VALUE, "C", "a job of p processors takes ceil(p/C) nodes (default 1)"},
    {"load", 0, BL_VALUE, "U", "rescale inter-arrival times to a computed load U"},
    {"span", 0, BL_VALUE, "SECONDS", "rescale so the last job arrives SECONDS after the first"},
    {"types", 0, BL_VALUE, "K", "write a job type uniform in 1..K into field 15"},
    {"seed", 0, BL_VALUE, "S", "generator seed for --types, 0..4294967295"},
    {"output", 'o', BL_VALUE, "OUT.swf", "output SWF file, .gz compresses (required)"},
};

static const char lublin_synopsis[] =
    "--nodes P --jobs N --seed S [--typeless] [--start-hour H]\n"
    "        [--estimates exact|f-model|walltimes] [--f F] [--walltimes LIST] [--whole-seconds]\n"
    "        [--param CLASS.NAME=V ...] -o FILE.swf";

static const char lublin_description[] =
    "Generates a synthetic workload from the Lublin-Feitelson model of rigid jobs (Lublin &\n"
    "Feitelson 2003; the reference generator lublin99.c): job sizes from a two-stage uniform on\n"
    "log2(size) with serial and power-of-two jobs, run times from a hyper-gamma whose mixing\n"
    "depends on the size, arrivals from a gamma with a daily cycle of 48 half-hour buckets.\n"
    "Typed mode (the default) merges an interactive and a batch stream and writes the class\n"
    "(0 interactive, 1 batch) into field 15; --typeless uses one stream and writes -1.\n"
    "\n"
    "Size parameters are fitted to the machine (UHi = log2 P, UMed relative to UHi); a\n"
    "power-of-two size above P is clamped to P. Submit times are seconds from time 0 (the\n"
    "start hour), kept in double precision and rounded to whole seconds when written;\n"
    "--whole-seconds truncates the clock after every gap as lublin99.c does, which lets the\n"
    "written times drift from the daily cycle (about 0.5 s per job).\n"
    "\n"
    "Requested times (field 9): exact = the run time (default); f-model = ceil(run time x\n"
    "U[1, F+1)) (Mu'alem & Feitelson 2001), needs --f; walltimes = the run time rounded up\n"
    "to the next value of --walltimes (default " ENG_WALLTIMES_DEFAULT "),\n"
    "longer jobs request their run time.\n"
    "\n"
    "--param CLASS.NAME=V overrides one parameter after fitting, e.g. batch.UMed=6.5; CLASS\n"
    "is batch, interactive or whole, NAME as in lublin99.c (SerialProb, Pow2Prob, ULow,\n"
    "UMed, UHi, UProb, a1, b1, a2, b2, pa, pb, AARR, BARR, ARAR, ANUM, BNUM).\n"
    "\n"
    "The header records the model, every parameter, the seed (gsl_rng_mt19937) and the\n"
    "generator version; the same command writes the same bytes.";

static const char modified_synopsis[] =
    "--nodes P --jobs N --seed S [--lambda L] [--types K]\n"
    "        [--estimates exact|f-model|walltimes] [--f F] [--walltimes LIST] -o FILE.swf";

static const char modified_description[] =
    "Generates a workload with the modified generator of the job-bundling study (Baranov &\n"
    "Lyakhovets 2022): Poisson arrivals of rate L, ln(run time) ~ Gamma(shape 4.2, scale 0.94)\n"
    "redrawn outside [5, 8] (run times 148..2980 s), sizes from the Lublin-Feitelson typeless\n"
    "size model fitted to the machine (clamped to P), and a job type uniform in 1..K in\n"
    "field 15. Submit times are rounded to whole seconds. Requested times as for lublin:\n"
    "exact (default), f-model (needs --f) or walltimes (default list\n" ENG_WALLTIMES_DEFAULT ").";

static const char scale_synopsis[] =
    "--workload IN (--platform FILE | --nodes P [--cores-per-node C])\n"
    "        (--load U | --span SECONDS)"
    "        [--types K --seed S] -o OUT.swf";

static const char scale_description[] =
    "Rescales the submit times of any SWF log (generated or real) and optionally assigns job\n"
    "types. The computed load is U = sum(e_i * P_i) / (D * P) (Baranov & Lyakhovets 2022):\n"
    "e_i the run time, P_i the job's nodes (processors rounded up to whole nodes), D the time\n"
    "from the first to the last arrival, P the machine's nodes. --load multiplies every\n"
    "inter-arrival time by U_now / U so that the load is U; --span multiplies them so that\n"
    "the last job arrives SECONDS after the first (the study compressed its logs to 100 hours,\n"
    "--span 360000). Submit times are written in whole seconds, each rounded from its exact\n"
    "scaled time (the span to the nearest second first), so the load is the target within\n"
    "U / (2 D), D the new span in seconds; the first arrival stays where it is, to the second.";

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

const char *bl_fmt_load(char *buf, size_t len, double load)
{
    if (isfinite(load))
        snprintf(buf, len, "%.4f", load);
    else
        snprintf(buf, len, "undefined (arrivals span 0 s)");
    return buf;
}

static int need(const bl_args *a, const char *name)
{
    if (bl_args_get(a, name)->set)
        return 0;
    fprintf(stderr, "batchlab generate: --%s is required (see batchlab generate --help)\n", name);
    return 2;
}

/* The --estimates, --f and --walltimes options into e. */
static int estimates_opts(const bl_args *a, eng_estimates *e)
{
    const char *model = bl_args_value(a, "estimates", "exact");
    int idx = 0;
    if (bl_args_choice("generate", "estimates", model, "exact|f-model|walltimes", &idx) != 0)
        return 2;
    e->model = idx == 1 ? ENG_EST_FMODEL : idx == 2 ? ENG_EST_WALLTIMES : ENG_EST_EXACT;
    const char *f = bl_args_value(a, "f", NULL);
    const char *list = bl_args_value(a, "walltimes", NULL);
    if (e->model == ENG_EST_FMODEL) {
        if (!f) {
            fprintf(stderr, "batchlab generate: --estimates f-model needs --f F\n");
            return 2;
        }
        if (bl_args_double("generate", "f", f, &e->f) != 0)
            return 2;
        if (e->f < 0.0) {
            fprintf(stderr, "batchlab generate: --f: expected a number >= 0, got '%s'\n", f);
            return 2;
        }
    } else if (f) {
        fprintf(stderr, "batchlab generate: --f applies to --estimates f-model only\n");
        return 2;
    }
    if (e->model == ENG_EST_WALLTIMES) {
        eng_diag d;
        eng_diag_clear(&d);
        if (eng_estimates_parse_walltimes(e, list ? list : ENG_WALLTIMES_DEFAULT, &d) != ENG_OK) {
            fprintf(stderr, "batchlab generate: --walltimes: %s\n", d.msg);
            return 2;
        }
    } else if (list) {
        fprintf(stderr, "batchlab generate: --walltimes applies to --estimates walltimes only\n");
        return 2;
    }
    return 0;
}

/* The options every model shares: nodes, jobs, seed, output. */
static int common_opts(const bl_args *a, int64_t *nodes, size_t *jobs, unsigned long *seed)
{
    unsigned long long n = 0, j = 0, s = 0;
    if (need(a, "nodes") || need(a, "jobs") || need(a, "seed") || need(a, "output"))
        return 2;
    if (bl_args_int("generate", a, "nodes", 1, INT32_MAX, &n) ||
        bl_args_int("generate", a, "jobs", 1, 1ULL << 40, &j) ||
        bl_args_int("generate", a, "seed", 0, SEED_MAX, &s))
        return 2;
    *nodes = (int64_t)n;
    *jobs = (size_t)j;
    *seed = (unsigned long)s;
    return 0;
}

static int write_out(const char *cmd, const char *path, const eng_workload *w)
{
    eng_diag d;
    eng_diag_clear(&d);
    if (eng_swf_write(path, w, NULL, &d) != ENG_OK) {
        fprintf(stderr, "batchlab %s: %s\n", cmd, d.msg);
        return 1;
    }
    return 0;
}

/* "OUT: N jobs, arrivals over D s, computed load U on P nodes" */
static void summary(const char *path, const eng_workload *w, int64_t nodes)
{
    eng_load l;
    if (eng_scale_load(w, nodes, 1, &l, NULL) != ENG_OK)
        return;
    char load[40];
    printf("%s: %zu job%s, arrivals over %.0f s, computed load %s on %lld node%s\n", path,
           w->n_jobs, bl_s(w->n_jobs), l.span_s, bl_fmt_load(load, sizeof load, l.load),
           (long long)nodes, bl_s((unsigned long long)nodes));
}

/* ------------------------------------------------------------------ */
/* generate                                                            */

static int generate_lublin(int argc, char **argv)
{
    bl_args a;
    int rc = bl_args_parse("generate", lublin_opts, BL_N_OPTS(lublin_opts), argc, argv, 2, &a);
    if (rc != 0)
        return rc;
    if (a.help) {
        bl_args_usage("generate lublin", lublin_synopsis, lublin_description, lublin_opts,
                      BL_N_OPTS(lublin_opts));
        bl_args_fini(&a);
        return 0;
    }
    eng_lublin_opts o;
    int64_t nodes = 0;
    size_t jobs = 0;
    unsigned long seed = 0;
    unsigned long long hour = 0;
    eng_workload *w = NULL;
    eng_diag d;
    eng_diag_clear(&d);
    rc = common_opts(&a, &nodes, &jobs, &seed);
    if (rc == 0)
        rc = bl_args_int("generate", &a, "start-hour", 0, 23, &hour);
    if (rc != 0)
        goto done;
    eng_lublin_opts_init(&o, nodes);
    o.n_jobs = jobs;
    o.seed = seed;
    o.typeless = bl_args_flag(&a, "typeless");
    o.whole_seconds = bl_args_flag(&a, "whole-seconds");
    o.start_hour = (int)hour;
    if ((rc = estimates_opts(&a, &o.est)) != 0)
        goto done;
    const bl_arg *params = bl_args_get(&a, "param");
    for (size_t i = 0; i < params->n_values; i++) {
        const char *kv = params->values[i];
        const char *eq = strchr(kv, '=');
        char name[64];
        double v;
        if (!eq || (size_t)(eq - kv) >= sizeof name) {
            fprintf(stderr, "batchlab generate: --param: expected CLASS.NAME=VALUE, got '%s'\n",
                    kv);
            rc = 2;
            goto done;
        }
        memcpy(name, kv, (size_t)(eq - kv));
        name[eq - kv] = '\0';
        if (bl_args_double("generate", "param", eq + 1, &v) != 0) {
            rc = 2;
            goto done;
        }
        if (eng_lublin_set_param(&o, name, v, &d) != ENG_OK) {
            fprintf(stderr, "batchlab generate: --param: %s\n", d.msg);
            rc = 2;
            goto done;
        }
    }
    if (eng_lublin_check(&o, &d) != ENG_OK) {
        fprintf(stderr, "batchlab generate: %s\n", d.msg);
        rc = 2;
        goto done;
    }
    if (eng_lublin_generate(&o, NULL, &w, &d) != ENG_OK) {
        fprintf(stderr, "batchlab generate: %s\n", d.msg);
        rc = 1;
        goto done;
    }
    const char *out = bl_args_value(&a, "output", NULL);
    rc = write_out("generate", out, w);
    if (rc == 0)
        summary(out, w, nodes);
done:
    eng_workload_destroy(w);
    bl_args_fini(&a);
    return rc;
}

static int generate_modified(int argc, char **argv)
{
    bl_args a;
    int rc = bl_args_parse("generate", modified_opts, BL_N_OPTS(modified_opts), argc, argv, 2, &a);
    if (rc != 0)
        return rc;
    if (a.help) {
        bl_args_usage("generate modified", modified_synopsis, modified_description, modified_opts,
                      BL_N_OPTS(modified_opts));
        bl_args_fini(&a);
        return 0;
    }
    eng_gen_modified_opts o;
    int64_t nodes = 0;
    size_t jobs = 0;
    unsigned long seed = 0;
    unsigned long long types = 8;
    eng_workload *w = NULL;
    eng_diag d;
    eng_diag_clear(&d);
    rc = common_opts(&a, &nodes, &jobs, &seed);
    if (rc == 0)
        rc = bl_args_int("generate", &a, "types", 1, UINT32_MAX, &types);
    if (rc != 0)
        goto done;
    eng_gen_modified_init(&o, nodes);
    o.n_jobs = jobs;
    o.seed = seed;
    o.types = (unsigned)types;
    const char *lambda = bl_args_value(&a, "lambda", NULL);
    if (lambda) {
        if (bl_args_double("generate", "lambda", lambda, &o.lambda_per_s) != 0) {
            rc = 2;
            goto done;
        }
        if (!(o.lambda_per_s > 0.0)) {
            fprintf(stderr, "batchlab generate: --lambda: expected a positive rate, got '%s'\n",
                    lambda);
            rc = 2;
            goto done;
        }
    }
    if ((rc = estimates_opts(&a, &o.est)) != 0)
        goto done;
    if (eng_gen_modified_check(&o, &d) != ENG_OK) {
        fprintf(stderr, "batchlab generate: %s\n", d.msg);
        rc = 2;
        goto done;
    }
    if (eng_gen_modified_generate(&o, NULL, &w, &d) != ENG_OK) {
        fprintf(stderr, "batchlab generate: %s\n", d.msg);
        rc = 1;
        goto done;
    }
    const char *out = bl_args_value(&a, "output", NULL);
    rc = write_out("generate", out, w);
    if (rc == 0)
        summary(out, w, nodes);
done:
    eng_workload_destroy(w);
    bl_args_fini(&a);
    return rc;
}

static void generate_overview(void)
{
    printf("usage: batchlab generate MODEL [options] -o FILE.swf\n\n"
           "Generates a synthetic workload in SWF. Models:\n"
           "  lublin     the Lublin-Feitelson model of rigid jobs (Lublin & Feitelson 2003)\n"
           "  modified   the modified generator of the job-bundling study (Baranov &\n"
           "             Lyakhovets 2022): Poisson arrivals, truncated log-gamma run times\n\n"
           "batchlab generate MODEL --help lists a model's options.\n\n");
    bl_args_usage("generate lublin", lublin_synopsis, lublin_description, lublin_opts,
                  BL_N_OPTS(lublin_opts));
    printf("\n");
    bl_args_usage("generate modified", modified_synopsis, modified_description, modified_opts,
                  BL_N_OPTS(modified_opts));
}

int bl_cmd_generate(int argc, char **argv)
{
    const char *model = argc > 1 ? argv[1] : NULL;
    if (!model) {
        fprintf(stderr, "batchlab generate: expected a model, lublin or modified (see batchlab "
                        "generate --help)\n");
        return 2;
    }
    if (strcmp(model, "--help") == 0 || strcmp(model, "-h") == 0) {
        generate_overview();
        return 0;
    }
    if (strcmp(model, "lublin") == 0)
        return generate_lublin(argc, argv);
    if (strcmp(model, "modified") == 0)
        return generate_modified(argc, argv);
    fprintf(stderr,
            "batchlab generate: unknown model '%s': expected lublin or modified (see batchlab "
            "generate --help)\n",
            model);
    return 2;
}

/* ------------------------------------------------------------------ */
/* scale                                                               */

static int scale_usage_error(const char *msg)
{
    fprintf(stderr, "batchlab scale: %s (see batchlab scale --help)\n", msg);
    return 2;
}

/* The options of one `batchlab scale`, checked. */
typedef struct scale_req {
    const char *in, *out, *load_s, *span_s, *platform;
    bool have_nodes, have_types;
    unsigned long long nodes, cpn, types, seed;
    double load, span;
} scale_req;

/* The rules between the options, then each value. 0, or 2 after the
 * message. */
static int scale_parse(const bl_args *a, scale_req *q)
{
    memset(q, 0, sizeof *q);
    q->cpn = 1;
    q->in = bl_args_value(a, "workload", NULL);
    q->out = bl_args_value(a, "output", NULL);
    q->load_s = bl_args_value(a, "load", NULL);
    q->span_s = bl_args_value(a, "span", NULL);
    q->platform = bl_args_value(a, "platform", NULL);
    q->have_nodes = bl_args_get(a, "nodes")->set || q->platform;
    q->have_types = bl_args_get(a, "types")->set;
    if (!q->in)
        return scale_usage_error("--workload is required");
    if (!q->out)
        return scale_usage_error("-o/--output is required");
    if (q->load_s && q->span_s)
        return scale_usage_error("--load and --span exclude each other");
    if (!q->load_s && !q->span_s && !q->have_types)
        return scale_usage_error("expected --load U, --span SECONDS or --types K");
    if (q->load_s && !q->have_nodes)
        return scale_usage_error("--load needs the machine: --platform FILE or --nodes P");
    if (q->platform && (bl_args_get(a, "nodes")->set || bl_args_get(a, "cores-per-node")->set))
        return scale_usage_error("--platform replaces --nodes and --cores-per-node");
    if (q->have_types != bl_args_get(a, "seed")->set)
        return scale_usage_error(q->have_types ? "--types needs --seed S"
                                               : "--seed goes with --types K");
    if (bl_args_int("scale", a, "nodes", 1, INT32_MAX, &q->nodes) ||
        bl_args_int("scale", a, "cores-per-node", 1, INT32_MAX, &q->cpn) ||
        bl_args_int("scale", a, "types", 1, UINT32_MAX, &q->types) ||
        bl_args_int("scale", a, "seed", 0, SEED_MAX, &q->seed))
        return 2;
    if (q->load_s) {
        if (bl_args_double("scale", "load", q->load_s, &q->load) != 0)
            return 2;
        if (!(q->load > 0.0)) {
            fprintf(stderr, "batchlab scale: --load: expected a positive load, got '%s'\n",
                    q->load_s);
            return 2;
        }
    }
    if (q->span_s) {
        if (bl_args_double("scale", "span", q->span_s, &q->span) != 0)
            return 2;
        if (!(q->span >= 1.0)) {
            fprintf(stderr, "batchlab scale: --span: expected at least 1 second, got '%s'\n",
                    q->span_s);
            return 2;
        }
    }
    return 0;
}

/* --platform: the machine's nodes and cores per node (its pools must
 * agree on the latter). 0, or 1 after the message. */
static int scale_machine(scale_req *q, eng_diag *d)
{
    eng_platform *p = NULL;
    if (eng_run_load_platform(q->platform, &p, d) != ENG_OK) {
        fprintf(stderr, "batchlab scale: %s\n", d->msg);
        return 1;
    }
    q->nodes = p->n_hosts;
    q->cpn = (unsigned long long)p->pools[0].cores_per_node;
    bool uniform = true;
    for (size_t i = 1; i < p->n_pools; i++)
        uniform = uniform && p->pools[i].cores_per_node == p->pools[0].cores_per_node;
    eng_platform_destroy(p);
    if (!uniform) {
        fprintf(stderr,
                "batchlab scale: %s: its pools differ in cores per node; give "
                "--nodes and --cores-per-node instead\n",
                q->platform);
        return 1;
    }
    return 0;
}

/* --load or --span: the inter-arrival times stretched (*factor), and a
 * header note saying how. 0, or 1 after the message. */
static int scale_arrivals(eng_workload *w, const scale_req *q, const eng_load *before,
                          double *factor, eng_diag *d)
{
    char note[640], num[3][32];
    if (q->load_s) {
        if (eng_scale_to_load(w, (int64_t)q->nodes, (int64_t)q->cpn, q->load, factor, d) !=
            ENG_OK) {
            fprintf(stderr, "batchlab scale: %s: %s\n", q->in, d->msg);
            return 1;
        }
        eng_load after;
        eng_scale_load(w, (int64_t)q->nodes, (int64_t)q->cpn, &after, NULL);
        snprintf(note, sizeof note,
                 "scale: inter-arrival times multiplied by %s for a computed load of %s on %llu "
                 "node%s of %llu core%s (U = sum(run time x nodes) / (D x P), Baranov & "
                 "Lyakhovets 2022; it was %s); submit times rounded to whole seconds, D = %.0f "
                 "s, which gives U = %.7g (within U / (2 D) of the target)",
                 eng_fmt_double(num[0], sizeof num[0], *factor),
                 eng_fmt_double(num[1], sizeof num[1], q->load), q->nodes, bl_s(q->nodes), q->cpn,
                 bl_s(q->cpn), eng_fmt_double(num[2], sizeof num[2], before->load), after.span_s,
                 after.load);
    } else {
        if (eng_scale_to_span(w, q->span, factor, d) != ENG_OK) {
            fprintf(stderr, "batchlab scale: %s: %s\n", q->in, d->msg);
            return 1;
        }
        snprintf(note, sizeof note,
                 "scale: inter-arrival times multiplied by %s so that the last job arrives %.0f s "
                 "after the first (it was %s s); submit times rounded to whole seconds",
                 eng_fmt_double(num[0], sizeof num[0], *factor), round(q->span),
                 eng_fmt_double(num[2], sizeof num[2], before->span_s));
    }
    if (eng_workload_set_header(w, "Note", note) != ENG_OK) {
        fprintf(stderr, "batchlab scale: out of memory\n");
        return 1;
    }
    return 0;
}

/* --types K --seed S: job types drawn uniformly into the queue field, and
 * a header note. 0, or 1 after the message. */
static int scale_types(eng_workload *w, const scale_req *q, eng_diag *d)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng) {
        fprintf(stderr, "batchlab scale: out of memory\n");
        return 1;
    }
    gsl_rng_set(rng, (unsigned long)q->seed);
    int rc = eng_scale_assign_types(w, (unsigned long)q->types, rng, d);
    gsl_rng_free(rng);
    if (rc != ENG_OK) {
        fprintf(stderr, "batchlab scale: %s\n", d->msg);
        return 1;
    }
    char note[512];
    snprintf(note, sizeof note,
             "scale: queue field 15 holds a job type uniform in 1..%llu, seed %llu "
             "(gsl_rng_mt19937)",
             q->types, q->seed);
    if (eng_workload_set_header(w, "Note", note) != ENG_OK) {
        fprintf(stderr, "batchlab scale: out of memory\n");
        return 1;
    }
    return 0;
}

/* Reads, rescales and writes the log; prints the span and load before and
 * after. 0, or 1 after the message. */
static int scale_log(const scale_req *q, eng_diag *d)
{
    eng_workload *w = NULL;
    if (eng_swf_read(q->in, NULL, &w, d) != ENG_OK) {
        fprintf(stderr, "batchlab scale: %s\n", d->msg);
        return 1;
    }
    int64_t nodes = q->have_nodes ? (int64_t)q->nodes : 1;
    eng_load before, after;
    eng_scale_load(w, nodes, (int64_t)q->cpn, &before, NULL);
    double factor = 1.0;
    int rc = 0;
    if (q->load_s || q->span_s)
        rc = scale_arrivals(w, q, &before, &factor, d);
    if (rc == 0 && q->have_types)
        rc = scale_types(w, q, d);
    if (rc == 0 && write_out("scale", q->out, w) != 0)
        rc = 1;
    if (rc == 0) {
        eng_scale_load(w, nodes, (int64_t)q->cpn, &after, NULL);
        char load[2][40];
        printf("%s: %zu job%s, arrivals over %.0f s (was %.0f s, factor %.6g)", q->out, w->n_jobs,
               bl_s(w->n_jobs), after.span_s, before.span_s, factor);
        bl_fmt_load(load[0], sizeof load[0], after.load);
        bl_fmt_load(load[1], sizeof load[1], before.load);
        if (q->have_nodes && strcmp(load[0], load[1]) != 0)
            printf(", computed load %s (was %s)", load[0], load[1]);
        else if (q->have_nodes)
            printf(", computed load %s", load[0]); /* --types alone, or undefined both times */
        if (q->have_nodes)
            printf(" on %llu node%s of %llu core%s", q->nodes, bl_s(q->nodes), q->cpn,
                   bl_s(q->cpn));
        printf("\n");
    }
    eng_workload_destroy(w);
    return rc;
}

int bl_cmd_scale(int argc, char **argv)
{
    bl_args a;
    int rc = bl_args_parse("scale", scale_opts, BL_N_OPTS(scale_opts), argc, argv, 1, &a);
    if (rc != 0)
        return rc;
    if (a.help) {
        bl_args_usage("scale", scale_synopsis, scale_description, scale_opts,
                      BL_N_OPTS(scale_opts));
        bl_args_fini(&a);
        return 0;
    }
    eng_diag d;
    eng_diag_clear(&d);
    scale_req q;
    rc = scale_parse(&a, &q);
    if (rc == 0 && q.platform)
        rc = scale_machine(&q, &d);
    if (rc == 0)
        rc = scale_log(&q, &d);
    bl_args_fini(&a);
    return rc;
}
