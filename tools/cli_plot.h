/* cli_plot.h — figures drawn by gnuplot from batchlab's output files:
 * `batchlab plot RUN_DIR` (a Gantt chart of the run, queue length and
 * utilization over time) and `batchlab plot --loads RESULTS.csv` (metrics
 * against load for every policy, with confidence intervals over seeds). The
 * command writes the data and a gnuplot script, then runs gnuplot; the
 * figures are never drawn by hand.
 */
#ifndef BL_CLI_PLOT_H
#define BL_CLI_PLOT_H

#include <stddef.h>
#include <stdint.h>

/* Mean and the half-width of the two-sided Student-t confidence interval
 * of the mean at `level` (e.g. 0.95) of n values: t_{(1+level)/2, n-1} s /
 * sqrt(n), s the sample standard deviation. Half-width 0 when n < 2. */
void bl_plot_mean_ci(const double *v, size_t n, double level, double *mean, double *half);

/* The colour of a job (or packet) in the Gantt chart, 0xRRGGBB: hues spaced
 * by the golden ratio, so neighbouring ids differ; the same id always gets
 * the same colour. */
uint32_t bl_plot_color(int64_t id);

/* `batchlab plot ...` (registered in cli_main.c). */
int bl_cmd_plot(int argc, char **argv);

#endif
