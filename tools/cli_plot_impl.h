/* cli_plot_impl.h — what the files of `batchlab plot` share behind
 * cli_plot.h: the figures the command draws (cli_plot_run.c,
 * cli_plot_loads.c, cli_plot_compare.c, whose figures `batchlab report`
 * draws too; cli_plot_power.c, a run's power figure) and the gnuplot helpers they use (cli_plot_gp.c).
 */
#ifndef BL_CLI_PLOT_IMPL_H
#define BL_CLI_PLOT_IMPL_H

#include "cli_args.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* `batchlab plot RUN_DIR` with the parsed options (cli_plot_run.c). */
int bl_plot_run(const char *run, const bl_args *a);

/* `batchlab plot --loads RESULTS.csv` with the parsed options
 * (cli_plot_loads.c). */
int bl_plot_loads(const char *csv, const bl_args *a);

/* ---- cli_plot_compare.c ---- */

/* The run folders of a `compare` folder (or one run folder alone): labels
 * (the subfolders' names, sorted) and their paths; paired is DIR/paired.json
 * when it exists, else NULL. formats: which figures bl_plot_compare_figs
 * draws, a mask of 1 PNG, 2 SVG, 4 PDF (where pdfcairo exists). Owns its
 * strings; free with bl_compare_runs_fini. */
typedef struct bl_compare_runs {
    char **labels, **dirs;
    size_t n;
    char *paired;
    unsigned formats;
} bl_compare_runs;

/* The subfolders of dir that hold a summary.json, sorted by name. 0, or 1
 * after a message (dir unreadable, no run folder in it). */
int bl_compare_runs_read(const char *dir, bl_compare_runs *r);
void bl_compare_runs_fini(bl_compare_runs *r);

/* The figures of the runs in (cli_plot_compare.c's opening comment) and
 * their data and script, into the folder out (created); gnuplot run when
 * render. 0, or 1 after a message naming the file. */
int bl_plot_compare_figs(const bl_compare_runs *in, const char *out, bool render);

/* `batchlab plot --compare DIR` with the parsed options. */
int bl_plot_compare(const char *dir, const bl_args *a);

/* The empirical CDF of the n sorted values v as "value fraction" lines:
 * "v[0] 0", then each distinct value with the share of values at or
 * below it. */
void bl_plot_cdf_write(FILE *f, const double *v, size_t n);

/* A JSON object read by Jansson (duplicate keys refused); NULL after a
 * message "PATH:LINE:COLUMN: ..." or "PATH: expected a JSON object". */
json_t *bl_json_load(const char *path);

/* obj[key] as a double; NAN when obj is not an object or the value is not
 * a number (null: not measured). */
double bl_json_real(const json_t *obj, const char *key);

/* ---- step series (cli_plot_gp.c: bl_plot_steps_write) ---- */

/* One point of a step series read from timeseries.csv: the values that
 * hold from t_s to the next point (the run's series use v[0..2], the power
 * figure v[0..BL_STEP_VALUES-1]). */
enum { BL_STEP_VALUES = 6 };
typedef struct bl_step_pt {
    double t_s, v[BL_STEP_VALUES];
} bl_step_pt;

/* ---- cli_plot_power.c ---- */

/* The power figure's columns of timeseries.csv after time_s: power_w and
 * the hosts busy, idle, off, booting and shutting down. */
enum { BL_POWER_COLS = 6 };

/* Reads the power columns of timeseries.csv in into *pts (malloc'd; the
 * caller frees). A file without them (a platform without power values):
 * 0 with *n 0. 0, or 1 after a message naming the file and line. */
int bl_plot_power_read(const char *in, bl_step_pt **pts, size_t *n);

/* power.dat: "time power_w busy idle off booting shutting_down" over the
 * window [lo, hi] in the axis unit div; bin_s 0: every event instant,
 * else time-weighted means of bins of bin_s seconds (as series.dat). 0,
 * or 1 after a message. */
int bl_plot_power_write(const char *out, const char *in, const bl_step_pt *p, size_t n, double lo,
                        double hi, double bin_s, double div);

/* The plots of the power figure from dat, after its terminal and x axis:
 * power over time and the hosts by state, stacked; how: the means' note
 * ("", ", hourly means"). */
void bl_plot_power_script(FILE *f, const char *dat, const char *title, const char *how);

/* ---- cli_plot_gp.c ---- */


/* Writes the rows "time v0 .. v(k-1)" of the step series p (n points in
 * time order, k values each) over the window [lo, hi], times in the axis
 * unit div: bin_s 0: every event instant, the value that holds at the
 * window's start (end) drawn from (to) its edge; otherwise the
 * time-weighted mean of each bin of bin_s seconds (aligned on multiples
 * of bin_s) over the part of it the series covers. A row of nan when none
 * is drawn, as gnuplot refuses an empty file. series.dat and power.dat. */
void bl_plot_steps_write(FILE *f, const bl_step_pt *p, size_t n, int k, double lo, double hi,
                         double bin_s, double div);

/* Writes the file out (atomically): a header line naming the columns
 * ("time COLS (from IN)", or with bin_s > 0 "bin_start COLS: time-weighted
 * means over bins of B s (from IN)") and bl_plot_steps_write's rows. 0,
 * or 1 after a message. series.dat and power.dat. */
int bl_plot_steps_file(const char *out, const char *in, const char *cols, const bl_step_pt *p,
                       size_t n, int k, double lo, double hi, double bin_s, double div);

/* Runs gnuplot on script; 0, or 1 after a message ("gnuplot not found",
 * or its exit status). */
int bl_plot_render(const char *script);

/* Writes the terminal lines of one format: png (pngcairo, else png), svg
 * (gnuplot's svg terminal, white background, no mouse script) or pdf
 * (pdfcairo), w_px x h_px (a PDF at 100 pixels an inch), into out. The
 * caller closes the pdf block with "}". */
void bl_plot_terminal(FILE *f, const char *fmt, int w_px, int h_px, const char *out);

/* Writes s as a gnuplot string: in double quotes, '"' and '\' escaped. */
void bl_plot_gp_str(FILE *f, const char *s);

#endif
