/* cli_standin.c — `batchlab standin forhlr2`: a synthetic stand-in for the
 * ForHLR II log (KIT-FH2-2016-1), for when the real log is absent.
 *
 * What the stand-in keeps from the machine (the header of the Parallel
 * Workloads Archive log KIT-FH2-2016-1, platforms/forhlr2.xml): its size (1152 compute nodes of 20 cores), whole
 * nodes always allocated, and queue 1 (the compute pool; the 21
 * visualisation nodes get no job). What it takes from the Lublin-Feitelson
 * model (Lublin & Feitelson 2003): everything else. Choices made here, where
 * the issue is silent:
 * - Only the model's batch class: the ForHLR II log holds no interactive
 *   jobs. The generator's typeless mode runs one stream, here with the batch
 *   class's parameters (sizes, run times, arrivals and daily cycle) fitted to
 *   1152 nodes, so N jobs are N batch jobs.
 * - Sizes are drawn in nodes and written as processors: fields 5 and 8 hold
 *   20 x nodes, so a replay under whole-node allocation gives back the node
 *   count drawn.
 * - Requested times are the run time rounded up to the usual walltimes
 *   (ENG_WALLTIMES_DEFAULT): users request round walltimes, and the model
 *   has no estimates of its own.
 * - Arrivals are the model's unless --load rescales them to a computed load
 *   on 1152 nodes of 20 cores (Baranov & Lyakhovets 2022, eng_scale.h).
 * The header says, in its Computer field and its notes, that this is a
 * stand-in and not the archive's log, and its Generator line the command
 * that makes it (--load as a "scale: " note). Same seed, same bytes.
 */
#include "cli_standin.h"

#include "cli.h"
#include "cli_args.h"
#include "eng_lublin.h"
#include "eng_scale.h"
#include "eng_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int note(eng_workload *w, const char *text)
{
    return eng_workload_set_header(w, "Note", text);
}

int bl_standin_forhlr2(size_t n_jobs, unsigned long seed, eng_workload **out, eng_diag *d)
{
    *out = NULL;
    if (n_jobs == 0)
        return eng_diag_set(d, ENG_RANGE, "the stand-in needs at least one job");
    eng_lublin_opts o;
    eng_lublin_opts_init(&o, BL_FORHLR2_NODES);
    o.typeless = true;
    o.cls[ENG_LUBLIN_WHOLE] = o.cls[ENG_LUBLIN_BATCH]; /* fitted to the machine already */
    o.n_jobs = n_jobs;
    o.seed = seed;
    o.est.model = ENG_EST_WALLTIMES;
    int rc = eng_estimates_parse_walltimes(&o.est, ENG_WALLTIMES_DEFAULT, d);
    if (rc == ENG_OK)
        rc = eng_lublin_check(&o, d);
    eng_workload *gen = NULL;
    if (rc == ENG_OK)
        rc = eng_lublin_generate(&o, NULL, &gen, d);
    if (rc != ENG_OK)
        return rc;

    eng_workload *w = eng_workload_create("forhlr2-standin");
    if (!w) {
        eng_workload_destroy(gen);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    char num[64];
    rc = eng_workload_set_header(w, "Computer",
                                 "ForHLR II stand-in (synthetic; not the KIT-FH2-2016-1 log)");
    if (rc == ENG_OK)
        rc = eng_workload_set_header(w, "Installation", "synthetic");
    snprintf(num, sizeof num, "%d", BL_FORHLR2_NODES);
    if (rc == ENG_OK)
        rc = eng_workload_set_header(w, "MaxNodes", num);
    snprintf(num, sizeof num, "%d", BL_FORHLR2_NODES * BL_FORHLR2_CORES_PER_NODE);
    if (rc == ENG_OK)
        rc = eng_workload_set_header(w, "MaxProcs", num);
    if (rc == ENG_OK && gen->hdr.max_runtime >= 0) {
        snprintf(num, sizeof num, "%lld", (long long)gen->hdr.max_runtime);
        rc = eng_workload_set_header(w, "MaxRuntime", num);
    }
    if (rc == ENG_OK)
        rc = eng_workload_set_header(w, "Preemption", "No");
    if (rc == ENG_OK)
        rc = eng_workload_set_header(w, "MaxQueues", "1");
    if (rc == ENG_OK)
        rc = eng_workload_set_header(w, "Queues", "1: compute nodes (1152 x 20 cores)");
    char line[160];
    snprintf(line, sizeof line,
             "standin forhlr2 (Lublin & Feitelson 2003, batch class on 1152 nodes of 20 cores) "
             "--jobs %zu --seed %lu",
             n_jobs, seed);
    if (rc == ENG_OK)
        rc = eng_workload_set_header(w, ENG_GENERATOR_KEY, line);
    if (rc == ENG_OK)
        rc = note(w, "stand-in for the ForHLR II log KIT-FH2-2016-1: a synthetic workload of "
                     "the Lublin-Feitelson batch class sized to 1152 nodes of 20 cores; no job "
                     "of it comes from the real log");
    if (rc == ENG_OK)
        rc = note(w, "stand-in: typeless stream with the batch class's parameters (the log has "
                     "no interactive jobs); fields 5 and 8 = 20 x nodes (whole nodes); field 15 "
                     "= queue 1");
    for (size_t i = 0; i < gen->hdr.n_kv && rc == ENG_OK; i++) {
        const eng_swf_kv *kv = &gen->hdr.kv[i];
        if (strcmp(kv->key, "Note") == 0 && !strstr(kv->value, "field 15"))
            rc = note(w, kv->value);
    }
    for (size_t i = 0; i < gen->n_jobs && rc == ENG_OK; i++) {
        eng_job j = gen->jobs[i];
        int64_t nodes = j.procs_alloc > 0 ? j.procs_alloc : j.procs_req;
        j.procs_alloc = nodes * BL_FORHLR2_CORES_PER_NODE;
        j.procs_req = nodes * BL_FORHLR2_CORES_PER_NODE;
        j.queue = BL_FORHLR2_QUEUE;
        rc = eng_workload_push(w, &j);
    }
    eng_workload_destroy(gen);
    if (rc != ENG_OK) {
        eng_workload_destroy(w);
        return eng_diag_set(d, rc, "out of memory");
    }
    *out = w;
    return ENG_OK;
}

/* ---- the command ------------------------------------------------------ */

static const bl_opt standin_opts[] = {
    {"jobs", 0, BL_VALUE, "N", "number of jobs (required)"},
    {"seed", 0, BL_VALUE, "S", "generator seed, 0..4294967295 (required)"},
    {"load", 0, BL_VALUE, "U", "rescale arrivals to a computed load U on 1152 x 20 cores"},
    {"output", 'o', BL_VALUE, "FILE.swf", "output SWF file, .gz compresses (required)"},
};

static const char standin_description[] =
    "Writes a synthetic stand-in for a machine's log. MACHINE is forhlr2: ForHLR II at KIT\n"
    "(platforms/forhlr2.xml), whose log KIT-FH2-2016-1 users download from the Parallel\n"
    "Workloads Archive (tools/fetch-trace). The stand-in is the Lublin-Feitelson batch class\n"
    "(Lublin & Feitelson 2003) fitted to 1152 nodes; each job takes whole nodes of 20 cores\n"
    "(fields 5 and 8 = 20 x nodes) in queue 1, the compute pool; requested times are the run\n"
    "time rounded up to " ENG_WALLTIMES_DEFAULT " s.\n"
    "Its header says it is a stand-in. --load rescales the inter-arrival times to a computed\n"
    "load U = sum(run time x nodes) / (D x 1152) (Baranov & Lyakhovets 2022). The same\n"
    "command writes the same bytes.";

int bl_cmd_standin(int argc, char **argv)
{
    const size_t n_opts = sizeof standin_opts / sizeof standin_opts[0];
    const char *machine = argc > 1 ? argv[1] : NULL;
    if (machine && (strcmp(machine, "--help") == 0 || strcmp(machine, "-h") == 0)) {
        bl_args_usage("standin", "forhlr2 --jobs N --seed S [--load U] -o FILE.swf",
                      standin_description, standin_opts, n_opts);
        return 0;
    }
    if (!machine || strcmp(machine, "forhlr2") != 0) {
        fprintf(stderr,
                "batchlab standin: expected a machine, forhlr2%s%s%s (see batchlab "
                "standin --help)\n",
                machine ? ", got '" : "", machine ? machine : "", machine ? "'" : "");
        return 2;
    }
    bl_args a;
    int rc = bl_args_parse("standin", standin_opts, n_opts, argc, argv, 2, &a);
    if (rc != 0)
        return rc;
    if (a.help) {
        bl_args_usage("standin", "forhlr2 --jobs N --seed S [--load U] -o FILE.swf",
                      standin_description, standin_opts, n_opts);
        bl_args_fini(&a);
        return 0;
    }
    const char *jobs_s = bl_args_value(&a, "jobs", NULL);
    const char *seed_s = bl_args_value(&a, "seed", NULL);
    const char *load_s = bl_args_value(&a, "load", NULL);
    const char *out = bl_args_value(&a, "output", NULL);
    unsigned long long jobs = 0, seed = 0;
    double load = 0.0;
    eng_workload *w = NULL;
    rc = 2;
    if (!jobs_s || !seed_s || !out) {
        fprintf(stderr, "batchlab standin: --jobs, --seed and -o are required (see batchlab "
                        "standin --help)\n");
        goto done;
    }
    if (bl_args_int("standin", &a, "jobs", 1, 100000000ULL, &jobs) ||
        bl_args_int("standin", &a, "seed", 0, 4294967295ULL, &seed))
        goto done;
    if (load_s) {
        if (bl_args_double("standin", "load", load_s, &load))
            goto done;
        if (!(load > 0.0)) {
            fprintf(stderr, "batchlab standin: --load: expected a positive load, got '%s'\n",
                    load_s);
            goto done;
        }
    }
    rc = 1;
    eng_diag d;
    eng_diag_clear(&d);
    if (bl_standin_forhlr2((size_t)jobs, (unsigned long)seed, &w, &d) != ENG_OK) {
        fprintf(stderr, "batchlab standin: %s\n", d.msg);
        goto done;
    }
    if (load_s) {
        double factor = 1.0;
        char note_text[256], num[2][32];
        if (eng_scale_to_load(w, BL_FORHLR2_NODES, BL_FORHLR2_CORES_PER_NODE, load, &factor, &d) !=
            ENG_OK) {
            fprintf(stderr, "batchlab standin: %s\n", d.msg);
            goto done;
        }
        snprintf(note_text, sizeof note_text,
                 "scale: inter-arrival times multiplied by %s for a computed load of %s on 1152 "
                 "nodes of 20 cores (Baranov & Lyakhovets 2022)",
                 eng_fmt_double(num[0], sizeof num[0], factor),
                 eng_fmt_double(num[1], sizeof num[1], load));
        if (note(w, note_text) != ENG_OK) {
            fprintf(stderr, "batchlab standin: out of memory\n");
            goto done;
        }
    }
    if (eng_swf_write(out, w, NULL, &d) != ENG_OK) {
        fprintf(stderr, "batchlab standin: %s\n", d.msg);
        goto done;
    }
    eng_load l;
    eng_scale_load(w, BL_FORHLR2_NODES, BL_FORHLR2_CORES_PER_NODE, &l, NULL);
    char load_text[40];
    printf("%s: ForHLR II stand-in, %zu job%s, arrivals over %.0f s, computed load %s on 1152 "
           "nodes of 20 cores\n",
           out, w->n_jobs, bl_s(w->n_jobs), l.span_s,
           bl_fmt_load(load_text, sizeof load_text, l.load));
    rc = 0;
done:
    eng_workload_destroy(w);
    bl_args_fini(&a);
    return rc;
}
