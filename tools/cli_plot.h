/* cli_plot.h — figures drawn by gnuplot from batchlab's output files:
 * `batchlab plot RUN_DIR` (a Gantt chart of the run, queue length and
 * utilization over time), `batchlab plot --loads RESULTS.csv` (metrics
 * against load for every policy, with confidence intervals over seeds) and
 * `batchlab plot --compare DIR` (a compare folder's policies side by side:
 * distributions, per-class bars, paired differences). The
 * command writes the data and a gnuplot script, then runs gnuplot; the
 * figures are never drawn by hand.
 */
#ifndef BL_CLI_PLOT_H
#define BL_CLI_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Fewer values than this (seeds of one point of a sweep) and the central
 * share of them would be an interpolation between a handful of values: the
 * bar is their range instead. */
#define BL_PLOT_MIN_QUANTILE_N 5

/* The median of n values and the bar around it: with n >= 5
 * (BL_PLOT_MIN_QUANTILE_N) the central `level` share of the values (e.g.
 * 0.9: the 5th and 95th percentiles, interpolated as GSL's
 * gsl_stats_quantile_from_sorted_data does), with fewer their min and max.
 * Sorts v in place. The bar lies within the values' range: never below
 * zero for metrics that are not. Returns true for the central share, false
 * for min to max; NaN for all three when n is 0. */
bool bl_plot_median_interval(double *v, size_t n, double level, double *median, double *lo,
                             double *hi);

/* The colour of a job (or packet) in the Gantt chart, 0xRRGGBB: hues spaced
 * by the golden ratio, so neighbouring ids differ; the same id always gets
 * the same colour. */
uint32_t bl_plot_color(int64_t id);

/* What bl_plot_parse_time returns. */
enum {
    BL_TIME_OK = 0,
    BL_TIME_BAD = -1,      /* neither seconds, a duration nor a date */
    BL_TIME_NO_START = -2, /* a date, but the log gives no UnixStartTime */
    BL_TIME_BAD_ZONE = -3, /* a date, but tz is not in the time zone database */
};

/* A time of `plot --from/--to` on a run's clock (seconds since the log's
 * start, as jobs.csv counts them) into *t_s: seconds ("5400"), a duration
 * with a unit ("90s", "30m", "36h", "2d", "1w", "1.5h"), or a calendar
 * date "2024-03-01", "2024-03-01T12:00" or "2024-03-01T12:00:30" read in
 * the zone tz (a TZ database name as SWF's TimeZoneString gives it; NULL
 * or "": UTC) and counted from unix_start (the log's UnixStartTime; < 0:
 * none). A wall-clock time that occurs twice (daylight saving's end) is
 * the C library's choice of the two. */
int bl_plot_parse_time(const char *text, int64_t unix_start, const char *tz, double *t_s);

/* `batchlab plot ...` (registered in cli_main.c). */
int bl_cmd_plot(int argc, char **argv);

#endif
