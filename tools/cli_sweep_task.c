/* cli_sweep_task.c — `batchlab sweep task ...`: one run of a sweep (one
 * task line): its input built, task.json written, `batchlab run` run in
 * this process through bl_cmd_run (see cli_sweep.c).
 */
#include "cli_sweep.h"

#include "cli.h"
#include "cli_args.h"
#include "cli_standin.h"

#include "eng_json.h"
#include "eng_run.h"
#include "eng_scale.h"
#include "eng_util.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* sweep task                                                          */

static const bl_opt task_opts[] = {
    {"out", 0, BL_VALUE, "RUN", "the run's output folder (required)"},
    {"platform", 0, BL_VALUE, "FILE", "SimGrid platform XML (required)"},
    {"workload", 0, BL_VALUE, "FILE", "SWF log"},
    {"workload-name", 0, BL_VALUE, "NAME", "the workload's name in the grid (for task.json)"},
    {"standin", 0, BL_VALUE, "MACHINE", "draw a stand-in (forhlr2) with the run's seed instead"},
    {"jobs", 0, BL_VALUE, "N", "jobs of the stand-in"},
    {"load", 0, BL_VALUE, "U", "rescale arrivals to a computed load U (needs --machine)"},
    {"machine", 0, BL_VALUE, "PxC", "nodes x cores per node for the load computation"},
    {"policy", 0, BL_VALUE, "SPEC", "policy NAME[:key=value...] (required)"},
    {"seed", 0, BL_VALUE, "S", "the run's seed: run --seed and the stand-in's (required)"},
    {"outputs", 0, BL_VALUE, "LIST", "run --outputs, must hold summary (default summary)"},
    {"run-arg", 0, BL_MULTI, "ARG", "one more argument for batchlab run (repeatable)"},
    {"keep-input", 0, BL_FLAG, NULL, "keep RUN/input.swf after the run"},
    {"verbose", 'v', BL_FLAG, NULL, "show the run's printout"},
};

/* RUN/task.json: the grid's names of the run (read back by `sweep merge`),
 * every value a string. */
static int write_task_json(const char *path, const char *name, const char *workload,
                           const char *load, const char *variant, const char *seed, eng_diag *d)
{
    bool ok = true;
    json_t *root = json_object();
    eng_json_set(root, "run", eng_json_str(name), &ok);
    eng_json_set(root, "workload", eng_json_str(workload), &ok);
    eng_json_set(root, "load", eng_json_str(load), &ok);
    eng_json_set(root, "policy", eng_json_strn(variant, strcspn(variant, ":")), &ok);
    eng_json_set(root, "variant", eng_json_str(variant), &ok);
    eng_json_set(root, "seed", eng_json_str(seed), &ok);
    int rc = ok ? eng_json_write(path, root, d) : eng_diag_set(d, ENG_NOMEM, "out of memory");
    json_decref(root);
    return rc;
}

/* Builds RUN/input.swf: the stand-in or the log, rescaled to the load. */
static int task_input(const char *in_path, const char *standin, unsigned long long jobs,
                      unsigned long long seed, double load, long long nodes, long long cores,
                      bool lenient, const char *out_path, eng_diag *d)
{
    eng_workload *w = NULL;
    int rc;
    if (standin) {
        rc = bl_standin_forhlr2((size_t)jobs, (unsigned long)seed, &w, d);
    } else {
        eng_swf_read_opts ro = {.lenient = lenient};
        rc = eng_swf_read(in_path, &ro, &w, d);
    }
    if (rc == ENG_OK && load > 0.0) {
        double factor = 1.0;
        rc = eng_scale_to_load(w, nodes, cores, load, &factor, d);
        if (rc != ENG_OK) {
            eng_diag_prefix(d, "%s: ", standin ? "stand-in" : in_path);
        } else {
            char note[256], num[2][32];
            snprintf(note, sizeof note,
                     "scale: inter-arrival times multiplied by %s for a computed load of %s on "
                     "%lld nodes of %lld cores (Baranov & Lyakhovets 2022)",
                     eng_fmt_double(num[0], sizeof num[0], factor),
                     eng_fmt_double(num[1], sizeof num[1], load), nodes, cores);
            rc = eng_workload_set_header(w, "Note", note);
        }
    }
    if (rc == ENG_OK)
        rc = eng_swf_write(out_path, w, NULL, d);
    eng_workload_destroy(w);
    return rc;
}

int bl_sweep_task(int argc, char **argv)
{
    bl_args a;
    int rc = bl_args_parse("sweep task", task_opts, BL_N_OPTS(task_opts), argc, argv, 2, &a);
    if (rc)
        return rc;
    if (a.help) {
        bl_args_usage("sweep task",
                      "--out RUN --platform FILE (--workload FILE | --standin forhlr2 --jobs N)\n"
                      "        [--load U --machine PxC] --policy SPEC --seed S [--outputs LIST]\n"
                      "        [--run-arg ARG ...] [--keep-input]",
                      "One run of a sweep, as a task line calls it. Does nothing when\n"
                      "RUN/summary.json exists (the run is finished). Otherwise builds\n"
                      "RUN/input.swf when a stand-in or a load asks for it, writes\n"
                      "RUN/task.json and runs batchlab run ... --out RUN.",
                      task_opts, BL_N_OPTS(task_opts));
        bl_args_fini(&a);
        return 0;
    }
    const char *out = bl_args_value(&a, "out", NULL);
    const char *platform = bl_args_value(&a, "platform", NULL);
    const char *workload = bl_args_value(&a, "workload", NULL);
    const char *standin = bl_args_value(&a, "standin", NULL);
    const char *jobs_s = bl_args_value(&a, "jobs", NULL);
    const char *load_s = bl_args_value(&a, "load", NULL);
    const char *machine = bl_args_value(&a, "machine", NULL);
    const char *policy = bl_args_value(&a, "policy", NULL);
    const char *seed_s = bl_args_value(&a, "seed", NULL);
    const char *outputs = bl_args_value(&a, "outputs", "summary");
    const char *wname = bl_args_value(&a, "workload-name", NULL);
    const bl_arg *extra = bl_args_get(&a, "run-arg");
    unsigned long long seed = 0, jobs = 0;
    long long nodes = 0, cores = 0;
    double load = 0.0;
    unsigned mask = 0;
    char *summary = NULL, *input = NULL, *task_json = NULL, *name = NULL;
    const char **run_argv = NULL;
    rc = 2;
    if (!out || !platform || !policy || !seed_s || (!workload == !standin)) {
        fprintf(stderr, "batchlab sweep task: expected --out, --platform, --policy, --seed and "
                        "one of --workload or --standin (see batchlab sweep task --help)\n");
        goto done;
    }
    if (bl_args_u64("sweep task", "seed", seed_s, &seed))
        goto done;
    if (standin && (strcmp(standin, "forhlr2") != 0 || !jobs_s ||
                    bl_args_u64("sweep task", "jobs", jobs_s, &jobs) || jobs < 1)) {
        fprintf(stderr, "batchlab sweep task: --standin: expected forhlr2 with --jobs N\n");
        goto done;
    }
    if (load_s) {
        char extra_c;
        if (bl_args_double("sweep task", "load", load_s, &load))
            goto done;
        if (!(load > 0.0) || !machine ||
            sscanf(machine, "%lldx%lld%c", &nodes, &cores, &extra_c) != 2 || nodes < 1 ||
            cores < 1) {
            fprintf(stderr, "batchlab sweep task: --load: expected a positive load with "
                            "--machine NODESxCORES\n");
            goto done;
        }
    }
    if (!eng_output_parse(outputs, &mask) || !(mask & ENG_OUT_SUMMARY)) {
        fprintf(stderr,
                "batchlab sweep task: --outputs: expected a list that holds summary, "
                "got '%s'\n",
                outputs);
        goto done;
    }
    rc = 1;
    summary = eng_asprintf("%s/summary.json", out);
    input = eng_asprintf("%s/input.swf", out);
    task_json = eng_asprintf("%s/task.json", out);
    if (!summary || !input || !task_json) {
        fprintf(stderr, "batchlab sweep task: out of memory\n");
        goto done;
    }
    if (bl_sweep_file_exists(summary)) {
        rc = 0; /* finished: resumption skips it */
        goto done;
    }
    eng_diag d;
    eng_diag_clear(&d);
    if (eng_mkdir_p(out, &d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep task: %s\n", d.msg);
        goto done;
    }
    bool lenient = false;
    for (size_t i = 0; i < extra->n_values; i++)
        lenient = lenient || strcmp(extra->values[i], "--lenient") == 0;
    bool built = standin || load_s;
    if (built && task_input(workload, standin, jobs, seed, load, nodes, cores, lenient, input,
                            &d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep task: %s: %s\n", out, d.msg);
        goto done;
    }
    /* The run's name for task.json: the folder below "runs/" when there is
     * one, else the folder as given. */
    const char *runs = strstr(out, "/runs/");
    name = eng_strdup(runs ? runs + 6 : out);
    char load_txt[32];
    bl_sweep_load_text(load_txt, sizeof load_txt, load);
    if (!name ||
        write_task_json(task_json, name, wname ? wname : eng_basename(workload ? workload : "-"),
                        load_txt, policy, seed_s, &d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep task: %s\n", name ? d.msg : "out of memory");
        if (built)
            unlink(input);
        goto done;
    }
    size_t n = 0;
    run_argv = calloc(20 + extra->n_values, sizeof *run_argv);
    if (!run_argv) {
        fprintf(stderr, "batchlab sweep task: out of memory\n");
        goto done;
    }
    run_argv[n++] = "run";
    run_argv[n++] = "--platform";
    run_argv[n++] = platform;
    run_argv[n++] = "--workload";
    run_argv[n++] = built ? input : workload;
    run_argv[n++] = "--policy";
    run_argv[n++] = policy;
    run_argv[n++] = "--seed";
    run_argv[n++] = seed_s;
    run_argv[n++] = "--out";
    run_argv[n++] = out;
    run_argv[n++] = "--outputs";
    run_argv[n++] = outputs;
    run_argv[n++] = "-q";
    for (size_t i = 0; i < extra->n_values; i++)
        run_argv[n++] = extra->values[i];
    /* The run prints a summary on stdout; a sweep keeps summary.json
     * instead, so the printout goes to /dev/null unless --verbose. */
    bool verbose = bl_args_flag(&a, "verbose");
    int saved = -1;
    fflush(stdout);
    if (!verbose) {
        int null_fd = open("/dev/null", O_WRONLY);
        if (null_fd >= 0) {
            saved = dup(STDOUT_FILENO);
            dup2(null_fd, STDOUT_FILENO);
            close(null_fd);
        }
    }
    rc = bl_cmd_run((int)n, (char **)run_argv);
    fflush(stdout);
    if (saved >= 0) {
        dup2(saved, STDOUT_FILENO);
        close(saved);
    }
    if (built && !bl_args_flag(&a, "keep-input"))
        unlink(input);
    if (rc > 128)
        fprintf(stderr,
                "batchlab sweep task: %s: the run was stopped (exit %d); it stays "
                "pending\n",
                out, rc);
    else if (rc != 0)
        fprintf(stderr, "batchlab sweep task: %s: the run failed (exit %d)\n", out, rc);
done:
    free(run_argv);
    free(summary);
    free(input);
    free(task_json);
    free(name);
    bl_args_fini(&a);
    return rc;
}
