/* eng_standin.c — a synthetic stand-in for the ForHLR II log
 * (KIT-FH2-2016-1), for when the real log is absent: a workload model
 * beside the Lublin-Feitelson generator it draws from (`batchlab standin
 * forhlr2` writes one; a sweep draws one per seed).
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
 * - Arrivals are the model's unless a load is asked for: then they are
 *   rescaled to that computed load on 1152 nodes of 20 cores (Baranov &
 *   Lyakhovets 2022, eng_scale.h), and a "scale: " note says by how much.
 * The header says, in its Computer field and its notes, that this is a
 * stand-in and not the archive's log, and its Generator line the command
 * that makes it (a load as a "scale: " note). Same seed, same bytes.
 */
#include "eng_standin.h"

#include "eng_lublin.h"
#include "eng_scale.h"
#include "eng_util.h"

#include <stdio.h>
#include <string.h>

static int note(eng_workload *w, const char *text)
{
    return eng_workload_set_header(w, "Note", text);
}

/* The generator's draw, reshaped into the machine's jobs and header. */
static int draw(size_t n_jobs, unsigned long seed, eng_workload **out, eng_diag *d)
{
    *out = NULL;
    if (n_jobs == 0)
        return eng_diag_set(d, ENG_RANGE, "the stand-in needs at least one job");
    eng_lublin_opts o;
    eng_lublin_opts_init(&o, ENG_FORHLR2_NODES);
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
    snprintf(num, sizeof num, "%d", ENG_FORHLR2_NODES);
    if (rc == ENG_OK)
        rc = eng_workload_set_header(w, "MaxNodes", num);
    snprintf(num, sizeof num, "%d", ENG_FORHLR2_NODES * ENG_FORHLR2_CORES_PER_NODE);
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
        j.procs_alloc = nodes * ENG_FORHLR2_CORES_PER_NODE;
        j.procs_req = nodes * ENG_FORHLR2_CORES_PER_NODE;
        j.queue = ENG_FORHLR2_QUEUE;
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

int eng_standin_forhlr2(size_t n_jobs, unsigned long seed, double load, eng_workload **out,
                        eng_diag *d)
{
    eng_workload *w = NULL;
    int rc = draw(n_jobs, seed, &w, d);
    if (rc != ENG_OK || !(load > 0.0)) {
        *out = w;
        return rc;
    }
    double factor = 1.0;
    rc = eng_scale_to_load(w, ENG_FORHLR2_NODES, ENG_FORHLR2_CORES_PER_NODE, load, &factor, d);
    if (rc == ENG_OK) {
        char text[256], num[2][32];
        snprintf(text, sizeof text,
                 "scale: inter-arrival times multiplied by %s for a computed load of %s on 1152 "
                 "nodes of 20 cores (Baranov & Lyakhovets 2022)",
                 eng_fmt_double(num[0], sizeof num[0], factor),
                 eng_fmt_double(num[1], sizeof num[1], load));
        if (note(w, text) != ENG_OK)
            rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    if (rc != ENG_OK) {
        eng_workload_destroy(w);
        w = NULL;
    }
    *out = w;
    return rc;
}
