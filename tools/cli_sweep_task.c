/* cli_sweep_task.c — `batchlab sweep task ...`: one run of a sweep (one
 * task line): its input built, task.json written, and the run made in this
 * process through the entry point of every run, bl_run_one (cli_run.h;
 * see cli_sweep.c).
 */
#include "cli_sweep.h"

#include "cli_args.h"
#include "cli_run.h"
#include "cli_runopts.h"

#include "eng_json.h"
#include "eng_run.h"
#include "eng_scale.h"
#include "eng_standin.h"
#include "eng_util.h"

#include <stdio.h>
#include <stdlib.h>
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
        rc = eng_standin_forhlr2((size_t)jobs, (unsigned long)seed, 0.0, &w, d);
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
                     "%lld node%s of %lld core%s (Baranov & Lyakhovets 2022)",
                     eng_fmt_double(num[0], sizeof num[0], factor),
                     eng_fmt_double(num[1], sizeof num[1], load), nodes,
                     bl_s((unsigned long long)nodes), cores, bl_s((unsigned long long)cores));
            rc = eng_workload_set_header(w, "Note", note);
        }
    }
    if (rc == ENG_OK)
        rc = eng_swf_write(out_path, w, NULL, d);
    eng_workload_destroy(w);
    return rc;
}

/* The options of one `sweep task`, checked. */
typedef struct task_req {
    const char *out, *platform, *workload, *standin, *load_s, *policy, *seed_s, *outputs, *wname;
    const bl_arg *extra; /* --run-arg values, in order */
    unsigned long long seed, jobs;
    long long nodes, cores;
    double load;
    bool built; /* RUN/input.swf is made: a stand-in or a load */
} task_req;

/* The options and the rules between them. 0, or 2 after the message. */
static int task_parse(const bl_args *a, task_req *t)
{
    memset(t, 0, sizeof *t);
    t->out = bl_args_value(a, "out", NULL);
    t->platform = bl_args_value(a, "platform", NULL);
    t->workload = bl_args_value(a, "workload", NULL);
    t->standin = bl_args_value(a, "standin", NULL);
    t->load_s = bl_args_value(a, "load", NULL);
    t->policy = bl_args_value(a, "policy", NULL);
    t->seed_s = bl_args_value(a, "seed", NULL);
    t->outputs = bl_args_value(a, "outputs", "summary");
    t->wname = bl_args_value(a, "workload-name", NULL);
    t->extra = bl_args_get(a, "run-arg");
    t->built = t->standin || t->load_s;
    const char *jobs_s = bl_args_value(a, "jobs", NULL);
    const char *machine = bl_args_value(a, "machine", NULL);
    if (!t->out || !t->platform || !t->policy || !t->seed_s || (!t->workload == !t->standin)) {
        fprintf(stderr, "batchlab sweep task: expected --out, --platform, --policy, --seed and "
                        "one of --workload or --standin (see batchlab sweep task --help)\n");
        return 2;
    }
    if (bl_args_u64("sweep task", "seed", t->seed_s, &t->seed))
        return 2;
    if (t->standin && (strcmp(t->standin, "forhlr2") != 0 || !jobs_s ||
                       bl_args_u64("sweep task", "jobs", jobs_s, &t->jobs) || t->jobs < 1)) {
        fprintf(stderr, "batchlab sweep task: --standin: expected forhlr2 with --jobs N\n");
        return 2;
    }
    if (t->load_s) {
        char extra_c;
        if (bl_args_double("sweep task", "load", t->load_s, &t->load))
            return 2;
        if (!(t->load > 0.0) || !machine ||
            sscanf(machine, "%lldx%lld%c", &t->nodes, &t->cores, &extra_c) != 2 || t->nodes < 1 ||
            t->cores < 1) {
            fprintf(stderr, "batchlab sweep task: --load: expected a positive load with "
                            "--machine NODESxCORES\n");
            return 2;
        }
    }
    unsigned mask = 0;
    if (!eng_output_parse(t->outputs, &mask) || !(mask & ENG_OUT_SUMMARY)) {
        fprintf(stderr,
                "batchlab sweep task: --outputs: expected a list that holds summary, "
                "got '%s'\n",
                t->outputs);
        return 2;
    }
    return 0;
}

/* RUN made, RUN/input.swf built when asked, RUN/task.json written. 0, or
 * 1 after the message (an input built here is removed again). */
static int task_prepare(const task_req *t, const char *input, const char *task_json)
{
    eng_diag d;
    eng_diag_clear(&d);
    if (eng_mkdir_p(t->out, &d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep task: %s\n", d.msg);
        return 1;
    }
    bool lenient = false;
    for (size_t i = 0; i < t->extra->n_values; i++)
        lenient = lenient || strcmp(t->extra->values[i], "--lenient") == 0;
    if (t->built && task_input(t->workload, t->standin, t->jobs, t->seed, t->load, t->nodes,
                               t->cores, lenient, input, &d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep task: %s: %s\n", t->out, d.msg);
        return 1;
    }
    /* The run's name for task.json: the folder below "runs/" when there is
     * one, else the folder as given. */
    const char *runs = strstr(t->out, "/runs/");
    const char *name = runs ? runs + 6 : t->out;
    char load_txt[32];
    bl_sweep_load_text(load_txt, sizeof load_txt, t->load);
    const char *wname = t->wname ? t->wname : eng_basename(t->workload ? t->workload : "-");
    if (write_task_json(task_json, name, wname, load_txt, t->policy, t->seed_s, &d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep task: %s\n", d.msg);
        if (t->built)
            unlink(input);
        return 1;
    }
    return 0;
}

/* The run configuration of a task: the grid's run_args, parsed by the
 * caller as `run` parses its options (bl_run_opts), then the options the
 * grid sets, each given its value as typed (bl_run_config_set: parsed and
 * checked by the table's row). *command is the line the manifest records,
 * the equivalent `batchlab run` command: the grid's options named by the
 * table (bl_run_grid_words), the policy, the run_args. 0, or the exit
 * status after the message. */
static int task_config(const task_req *t, const char *input, const bl_args *a, bl_run_config *cfg,
                       char **command)
{
    const char *vals[BL_RUN_N] = {0};
    vals[BL_RUN_ID_platform] = t->platform;
    vals[BL_RUN_ID_workload] = t->built ? input : t->workload;
    vals[BL_RUN_ID_out] = t->out;
    vals[BL_RUN_ID_seed] = t->seed_s;
    vals[BL_RUN_ID_outputs] = t->outputs;
    vals[BL_RUN_ID_quiet] = ""; /* a flag: given */
    int rc = bl_run_config_parse("run", a, cfg) ? 2 : 0;
    for (int id = 0; id < BL_RUN_N && rc == 0; id++)
        if (vals[id])
            rc = bl_run_config_set("run", cfg, id, vals[id]);
    if (rc)
        return rc;
    const char **words = calloc(2 * BL_RUN_N + 3 + t->extra->n_values, sizeof *words);
    size_t n = 0;
    if (words) {
        words[n++] = "run";
        n += bl_run_grid_words(vals, words + n);
        words[n++] = "--policy";
        words[n++] = t->policy;
        for (size_t i = 0; i < t->extra->n_values; i++)
            words[n++] = t->extra->values[i];
        *command = bl_command_line((int)n, words);
        free(words);
    }
    if (!words || !*command) {
        fprintf(stderr, "batchlab sweep task: out of memory\n");
        return 1;
    }
    return 0;
}

/* The run of the task, through the entry point every run takes
 * (bl_run_one): its messages read "batchlab run: ...", as the command
 * line's; its printout only with --verbose (a sweep keeps summary.json).
 * Returns the run's exit status. */
static int task_run(const task_req *t, const char *input, bool verbose)
{
    bl_run_config cfg;
    bl_run_inputs in = {0};
    bl_policy_spec ps = {0};
    char *command = NULL;
    bl_args a;
    int rc = bl_args_parse("run", bl_run_opts, bl_run_n_opts, (int)t->extra->n_values,
                           (char **)t->extra->values, 0, &a);
    if (rc == 0)
        rc = task_config(t, input, &a, &cfg, &command);
    if (rc == 0)
        rc = bl_run_inputs_options("run", &cfg, &in);
    in.command = command;
    const bl_arg *popt = rc == 0 ? bl_args_get(&a, "policy-opt") : NULL;
    if (rc == 0)
        rc = bl_policy_spec_parse("run", bl_args_value(&a, "policy", t->policy), popt->values,
                                  popt->n_values, &ps);
    if (rc == 0)
        rc = bl_run_inputs_workload(&cfg, &in);
    eng_run_report rep;
    if (rc == 0)
        rc = bl_run_one(&cfg, &in, &ps, cfg.out, false, false, &rep);
    if (rc == 0) {
        if (verbose)
            bl_run_print(&cfg, &in, &ps, cfg.out, &rep);
        eng_run_report_fini(&rep);
    }
    bl_policy_spec_fini(&ps);
    bl_run_inputs_fini(&in);
    bl_args_fini(&a);
    if (rc > 128)
        fprintf(stderr,
                "batchlab sweep task: %s: the run was stopped (exit %d); it stays "
                "pending\n",
                t->out, rc);
    else if (rc != 0)
        fprintf(stderr, "batchlab sweep task: %s: the run failed (exit %d)\n", t->out, rc);
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
    task_req t;
    rc = task_parse(&a, &t);
    char *summary = NULL, *input = NULL, *task_json = NULL;
    if (rc == 0) {
        summary = eng_asprintf("%s/summary.json", t.out);
        input = eng_asprintf("%s/input.swf", t.out);
        task_json = eng_asprintf("%s/task.json", t.out);
        if (!summary || !input || !task_json) {
            fprintf(stderr, "batchlab sweep task: out of memory\n");
            rc = 1;
        }
    }
    /* a finished run (summary.json there) is skipped: resumption */
    if (rc == 0 && !bl_sweep_file_exists(summary)) {
        rc = task_prepare(&t, input, task_json);
        if (rc == 0) {
            rc = task_run(&t, input, bl_args_flag(&a, "verbose"));
            if (t.built && !bl_args_flag(&a, "keep-input"))
                unlink(input);
        }
    }
    free(summary);
    free(input);
    free(task_json);
    bl_args_fini(&a);
    return rc;
}
