/* cli_plot_impl.h — what the files of `batchlab plot` share behind
 * cli_plot.h: the two figures the command draws (cli_plot_run.c,
 * cli_plot_loads.c) and the gnuplot helpers both use (cli_plot_gp.c).
 */
#ifndef BL_CLI_PLOT_IMPL_H
#define BL_CLI_PLOT_IMPL_H

#include "cli_args.h"

#include <stdio.h>

/* `batchlab plot RUN_DIR` with the parsed options (cli_plot_run.c). */
int bl_plot_run(const char *run, const bl_args *a);

/* `batchlab plot --loads RESULTS.csv` with the parsed options
 * (cli_plot_loads.c). */
int bl_plot_loads(const char *csv, const bl_args *a);

/* ---- cli_plot_gp.c ---- */

/* Runs gnuplot on script; 0, or 1 after a message ("gnuplot not found",
 * or its exit status). */
int bl_plot_render(const char *script);

/* Writes the terminal lines of one format: png (pngcairo, else png) or pdf
 * (pdfcairo), w_px x h_px (a PDF at 100 pixels an inch), into out. The
 * caller closes the pdf block with "}". */
void bl_plot_terminal(FILE *f, const char *fmt, int w_px, int h_px, const char *out);

/* Writes s as a gnuplot string: in double quotes, '"' and '\' escaped. */
void bl_plot_gp_str(FILE *f, const char *s);

#endif
