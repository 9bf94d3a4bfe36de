/* cli.h — the batchlab command line (run, compare, info, ...): the entry
 * point and the commands, shared by the files of tools/. Each command takes
 * its own argument vector (argv[0] the command's name) and returns the
 * exit status. */
#ifndef BL_CLI_H
#define BL_CLI_H

#include <stddef.h>

/* Runs the command line; returns the process exit status:
 * 0 success, 1 bad input or failed run, 2 usage error, 3 invariant violation. */
int bl_cli_main(int argc, char **argv);

/* The commands, one file each (cli_main.c dispatches to them; none calls
 * another: what several share is in its own file, e.g. cli_run.h). */
int bl_cmd_run(int argc, char **argv);      /* cli_run.c */
int bl_cmd_compare(int argc, char **argv);  /* cli_compare.c */
int bl_cmd_info(int argc, char **argv);     /* cli_info.c */
int bl_cmd_policies(int argc, char **argv); /* cli_policies.c */
int bl_cmd_generate(int argc, char **argv); /* cli_generate.c */
int bl_cmd_scale(int argc, char **argv);    /* cli_generate.c */
int bl_cmd_standin(int argc, char **argv);  /* cli_standin.c */
int bl_cmd_sweep(int argc, char **argv);    /* cli_sweep.c */
int bl_cmd_plot(int argc, char **argv);     /* cli_plot.c */
int bl_cmd_fit(int argc, char **argv);      /* cli_fit.c */
int bl_cmd_report(int argc, char **argv);   /* cli_report.c */
int bl_cmd_platform(int argc, char **argv); /* cli_platform.c */

/* A computed load (eng_scale_load) as the commands print it (cli_generate.c): "%.4f", or
 * "undefined (arrivals span 0 s)" where the log defines none (one job, or
 * every job arriving at one instant: D = 0 makes U = work / (D x P) NAN).
 * Writes into buf (40 bytes suffice) and returns it. */
const char *bl_fmt_load(char *buf, size_t len, double load);

#endif
