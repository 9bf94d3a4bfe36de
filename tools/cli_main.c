/* cli_main.c — the batchlab command line's entry point: it installs the
 * stop-signal handlers (cli_run.h) and dispatches to the commands, one
 * file each (cli.h lists them); it does nothing else.
 *
 * Exit status: 0 success; 1 bad input or a failed run (the message names
 * the file and line; out of memory names the memory limits; a failed write
 * names the file and the reason); 2 usage error; 3 a scheduling invariant
 * was violated (a bug in a policy or the engine, reported with the time and
 * job); 128 + N stopped by signal N (SIGINT, SIGTERM, SIGHUP).
 */
#include "cli.h"
#include "cli_run.h"

#include "pol_registry.h"

#include <stdio.h>
#include <string.h>

#ifndef BATCHLAB_VERSION
#define BATCHLAB_VERSION "0.0.0"
#endif
#include "bl_commit.h" /* BATCHLAB_GIT_COMMIT, generated at build time */

/* ---- dispatch ----------------------------------------------------------- */

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
} commands[] = {
    {"run", bl_cmd_run, "replay a workload on a platform under one policy"},
    {"compare", bl_cmd_compare, "the same replay under several policies, side by side"},
    {"info", bl_cmd_info, "what an SWF log holds"},
    {"platform", bl_cmd_platform, "write a platform from an SWF log's header (--from-log)"},
    {"policies", bl_cmd_policies, "the registered policies and their options"},
    {"generate", bl_cmd_generate, "write a synthetic workload (lublin, modified) as SWF"},
    {"scale", bl_cmd_scale, "rescale a workload's submit times to a target load or span"},
    {"standin", bl_cmd_standin, "write a synthetic stand-in for a machine's log (forhlr2)"},
    {"sweep", bl_cmd_sweep, "expand a grid of runs into tasks, run one, script Slurm, merge"},
    {"plot", bl_cmd_plot, "figures of a run (Gantt chart, queue, utilization) or of a sweep"},
    {"report", bl_cmd_report, "one self-contained HTML page of a run, a compare or a sweep"},
    {"fit", bl_cmd_fit, "fit run times and sizes of a log (lognormal, gamma, hyper-gamma, KS)"},
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: batchlab COMMAND [options]   (batchlab COMMAND --help for details)\n\n"
            "batchlab %s: discrete-event simulation of HPC batch scheduling on SimGrid.\n\n"
            "commands:\n",
            BATCHLAB_VERSION);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\npolicies: %s\n", pol_names());
}

int bl_cli_main(int argc, char **argv)
{
    bl_run_install_stop_handlers();
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        if (argc > 2) {
            fprintf(stderr, "batchlab: --version: unexpected argument '%s'\n", argv[2]);
            return 2;
        }
        printf("batchlab %s (commit %s)\n", BATCHLAB_VERSION, BATCHLAB_GIT_COMMIT);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(cmd, commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "batchlab: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return 2;
}
