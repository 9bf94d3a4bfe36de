/* cli_sweep.c — `batchlab sweep`: experiments at scale without a home-made
 * scheduler. A sweep is a grid file expanded into a task list, one shell
 * line per run; GNU parallel runs the lines on a workstation, a Slurm job
 * array runs the same lines on a cluster, and the merge reads the results
 * back from the files. Nothing here moves work between machines.
 *
 *   batchlab sweep expand GRID --out DIR [-o TASKS] [--batchlab EXE]
 *   batchlab sweep task --out RUN --platform FILE (--workload FILE | --standin forhlr2
 *                       --jobs N) [--load U --machine PxC] --policy SPEC --seed S ...
 *   batchlab sweep pending TASKS
 *   batchlab sweep slurm TASKS -o SCRIPT [--time T] [--mem M] [--partition P] ...
 *   batchlab sweep merge DIR -o CSV
 *
 * Grid file (choices made here; the issue leaves the format open): one
 * "key = value, value, ..." per line, '#' starts a comment, blank lines are
 * ignored, relative paths are relative to the grid file's folder.
 *
 *   platform         = ../platforms/forhlr2.xml           (required)
 *   workload.NAME    = ../traces/KIT-FH2-2016-1.swf.gz    (a log; one line per workload)
 *   workload.NAME    = standin forhlr2 jobs=10000         (a stand-in drawn per seed)
 *   loads            = 0.5, 0.7, 0.9, log                 (target loads; log = as logged)
 *   machine          = 1152x20                            (nodes x cores for the load;
 *                                                          default: the stand-in's machine
 *                                                          or the platform's hosts)
 *   policies         = fcfs, easy, conservative           (required)
 *   POLICY.KEY       = v1, v2                             (option values of one policy)
 *   seeds            = 1..3, 7                            (default 1)
 *   outputs          = summary,timeseries                 (default summary; must hold summary)
 *   run_args         = --walltime extend --check          (extra `batchlab run` options)
 *   keep_inputs      = no                                 (keep each run's input.swf)
 *
 * A policy's variants are the product of its options' values (keys in file
 * order); a policy without options has one variant. Runs are named
 * WORKLOAD/load-L/VARIANT/seed-S (L the load's shortest decimal or "log",
 * VARIANT the policy spec with ':' as '+', like `batchlab compare`'s
 * folders), expanded in that order, seed fastest, and write DIR/runs/NAME.
 *
 * Seeds: a stand-in is drawn with the run's seed, so seeds give independent
 * workloads and the confidence intervals of bench/compare-loads mean
 * something; on a log, the seed only reaches `run --seed` (seeded policies
 * and drawn failures), so deterministic policies give equal results.
 *
 * A task line is an ordinary shell command calling `batchlab sweep task`
 * with every parameter spelled out, so it runs by hand, under GNU parallel
 * (`parallel < TASKS`) and from a Slurm array (`sed -n Np TASKS | bash`).
 * The task is finished when RUN/summary.json exists (the engine writes its
 * outputs atomically); a finished task exits 0 at once, which makes every
 * runner resumable. Otherwise it builds RUN/input.swf (the stand-in and/or
 * the load rescaling, through the engine's stand-in and eng_scale), writes
 * RUN/task.json (the grid coordinates, for the merge), makes the run in
 * this process through the entry point `run` takes (bl_run_one, cli_run.h:
 * the run_args and the grid's options in one configuration, --out RUN
 * --outputs LIST -q; the summary printed only with --verbose, errors on
 * stderr as `run` words them) and removes input.swf unless asked to keep
 * it: the task line rebuilds it bit for bit.
 *
 * Slurm: the script is one job array; element i runs lines (i-1)K+1 .. iK
 * of the task list, K = ceil(N / max array size) (Slurm's MaxArraySize is
 * 1001 by default, so 1000 elements unless told otherwise), and refuses to
 * run when the task list's SHA-256 is no longer the one it was written for
 * (checked with coreutils' sha256sum on the cluster): a changed seed or
 * option on as many lines must not be filed under the old names.
 *
 * Merge: every summary.json under DIR, in byte order of its path, one CSV
 * row each: the run's folder, its grid coordinates from task.json (or, for
 * folders written by run/compare, the policy and seed of the manifest), and
 * a fixed list of metrics, log-agreement fields and the batchlab commit
 * (empty where a summary lacks one); the same rows go to a JSON file beside
 * the CSV. Same files, same bytes, except the wall-time columns.
 *
 * Files: this one only dispatches to one file per subcommand
 * (cli_sweep_expand.c, _task.c, _pending.c, _slurm.c, _merge.c);
 * cli_sweep_grid.c reads and expands the grid, and cli_sweep_util.c holds
 * what the subcommands share (task lines split and quoted, files and
 * paths, a load's name), calling none of them back. The JSON reader the
 * merge and `plot` use is cli_json.c.
 *
 * Exit status: 0 success; 1 bad input or a failed run ("FILE:LINE: ...");
 * 2 usage error.
 */
#include "cli_sweep.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Dispatch                                                            */

static void sweep_usage(FILE *f)
{
    fprintf(f,
            "usage: batchlab sweep expand GRID --out DIR [-o TASKS]   grid -> task list\n"
            "       batchlab sweep task --out RUN ...                 one run (a task line)\n"
            "       batchlab sweep pending TASKS                      unfinished task lines\n"
            "       batchlab sweep slurm TASKS -o SCRIPT [options]    Slurm job array\n"
            "       batchlab sweep merge DIR -o CSV                   summary.json files -> CSV\n"
            "\n"
            "A sweep runs a grid of replays (workloads x loads x policies x options x seeds):\n"
            "expand writes one shell line per run; GNU parallel (bench/sweep) or a Slurm job\n"
            "array runs them; finished runs (summary.json present) are skipped; merge gathers\n"
            "the results. batchlab sweep SUBCOMMAND --help for details.\n");
}

int bl_cmd_sweep(int argc, char **argv)
{
    const char *sub = argc > 1 ? argv[1] : NULL;
    if (!sub) {
        sweep_usage(stderr);
        return 2;
    }
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0) {
        sweep_usage(stdout);
        return 0;
    }
    if (strcmp(sub, "expand") == 0)
        return bl_sweep_expand(argc, argv);
    if (strcmp(sub, "task") == 0)
        return bl_sweep_task(argc, argv);
    if (strcmp(sub, "pending") == 0)
        return bl_sweep_pending(argc, argv);
    if (strcmp(sub, "slurm") == 0)
        return bl_sweep_slurm(argc, argv);
    if (strcmp(sub, "merge") == 0)
        return bl_sweep_merge(argc, argv);
    fprintf(stderr,
            "batchlab sweep: unknown subcommand '%s': expected expand, task, pending, "
            "slurm or merge\n",
            sub);
    return 2;
}
