/* cli_standin.c — `batchlab standin forhlr2`: writes a synthetic stand-in
 * for the ForHLR II log (KIT-FH2-2016-1), the workload model of
 * engine/eng_standin.c, for when the real log is absent. This file holds
 * the command: its options, the file written and the line printed.
 */
#include "cli.h"
#include "cli_args.h"

#include "eng_lublin.h"
#include "eng_scale.h"
#include "eng_standin.h"

#include <stdio.h>
#include <string.h>

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
    if (eng_standin_forhlr2((size_t)jobs, (unsigned long)seed, load, &w, &d) != ENG_OK) {
        fprintf(stderr, "batchlab standin: %s\n", d.msg);
        goto done;
    }
    if (eng_swf_write(out, w, NULL, &d) != ENG_OK) {
        fprintf(stderr, "batchlab standin: %s\n", d.msg);
        goto done;
    }
    eng_load l;
    eng_scale_load(w, ENG_FORHLR2_NODES, ENG_FORHLR2_CORES_PER_NODE, &l, NULL);
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
