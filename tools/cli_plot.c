/* cli_plot.c — `batchlab plot`: gnuplot figures of a run and of a sweep.
 *
 *   batchlab plot RUN_DIR [-o DIR] [--color job|packet] [--from T] [--to T] [--all]
 *                 [--time-axis auto|seconds|hours|days|dates] [--no-render]
 *   batchlab plot --loads RESULTS.csv [-o DIR] [--level L] [--no-render]
 *   batchlab plot --compare DIR [-o DIR] [--no-render]
 *
 * The command: its options, and the choice between a run's figures
 * (cli_plot_run.c) and a sweep's (cli_plot_loads.c). What both share,
 * running gnuplot and writing its terminals and strings, is in
 * cli_plot_gp.c (cli_plot_impl.h); both read their CSV files with
 * cli_csv.h.
 *
 * Terminals: pngcairo (else png) and pdfcairo when gnuplot has it; the
 * script checks GPVAL_TERMINALS itself. --no-render writes data and script
 * only. Same inputs, same bytes of data and script.
 *
 * Exit status: 0 success; 1 bad input (the file and line) or gnuplot
 * missing or failing (the script stays, to run by hand); 2 usage error.
 */
#include "cli_plot.h"

#include "cli_args.h"
#include "cli_plot_impl.h"

#include <stdio.h>

static const bl_opt plot_opts[] = {
    {"output", 'o', BL_VALUE, "DIR", "folder of the figures (default RUN_DIR/plot, or the CSV's)"},
    {"color", 0, BL_VALUE, "job|packet", "Gantt colours per job (default) or per packet"},
    {"from", 0, BL_VALUE, "T",
     "draw from this time on the run's clock (as in jobs.csv): seconds, a duration (90s, 30m, "
     "36h, 2d, 1w) or a date in the log's time zone (2024-03-01, 2024-03-01T12:00)"},
    {"to", 0, BL_VALUE, "T", "draw up to this time (as --from)"},
    {"time-axis", 0, BL_VALUE, "auto|seconds|hours|days|dates",
     "the time axis' unit (default auto: by the span drawn), or dates in the log's time zone"},
    {"all", 0, BL_FLAG, NULL, "draw the whole run even when it is long (see below)"},
    {"loads", 0, BL_VALUE, "CSV", "draw a sweep's metrics against load (batchlab sweep merge)"},
    {"compare", 0, BL_VALUE, "DIR",
     "draw a compare folder's policies side by side: CDFs of wait and bounded slowdown, mean "
     "wait by size and run-time class, the means and paired.json's intervals"},
    {"level", 0, BL_VALUE, "L",
     "share of the seeds' values within the bars (default 0.9; below 5 seeds: min to max)"},
    {"no-render", 0, BL_FLAG, NULL, "write data and gnuplot script only"},
};

int bl_cmd_plot(int argc, char **argv)
{
    const char *run = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
    bl_args a;
    int rc = bl_args_parse("plot", plot_opts, BL_N_OPTS(plot_opts), argc, argv, run ? 2 : 1, &a);
    if (rc)
        return rc;
    if (a.help) {
        bl_args_usage("plot",
                      "RUN_DIR [options]  |  --loads RESULTS.csv [options]  |  --compare DIR",
                      "Draws figures with gnuplot (PNG, and PDF where pdfcairo exists).\n"
                      "RUN_DIR: a Gantt chart of the run (hosts x time, or cores x time with\n"
                      "the hosts marked under --alloc core; a colour per job or packet) from\n"
                      "jobs.csv, and queue length and utilization over time from\n"
                      "timeseries.csv (and power and host states over time where it has\n"
                      "them), into RUN_DIR/plot. --loads: a sweep's mean and median\n"
                      "wait, bounded slowdown, utilization and queue length against load for\n"
                      "every policy: each seed as a point, the median over seeds with the\n"
                      "central share of the seeds' values (--level) as its bar, or their min\n"
                      "to max where a point has fewer than 5 seeds. --compare: a compare\n"
                      "folder's CDFs of wait and bounded slowdown (from jobs.csv), mean wait\n"
                      "by size and run-time class (summary.json's breakdowns) and the means\n"
                      "with paired.json's intervals, into DIR/plot (PNG, SVG, PDF).",
                      plot_opts, BL_N_OPTS(plot_opts));
        bl_args_fini(&a);
        return 0;
    }
    const char *loads = bl_args_value(&a, "loads", NULL);
    const char *cmp = bl_args_value(&a, "compare", NULL);
    if ((run != NULL) + (loads != NULL) + (cmp != NULL) != 1) {
        fprintf(stderr, "batchlab plot: expected RUN_DIR, --loads RESULTS.csv or --compare DIR "
                        "(see batchlab plot --help)\n");
        bl_args_fini(&a);
        return 2;
    }
    rc = run ? bl_plot_run(run, &a) : loads ? bl_plot_loads(loads, &a) : bl_plot_compare(cmp, &a);
    bl_args_fini(&a);
    return rc;
}
