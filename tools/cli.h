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

/* The commands (cli_main.c dispatches; `sweep task` runs bl_cmd_run in
 * its own process instead of calling back into bl_cli_main). */
int bl_cmd_run(int argc, char **argv);      /* cli_main.c */
int bl_cmd_generate(int argc, char **argv); /* cli_generate.c */
int bl_cmd_scale(int argc, char **argv);    /* cli_generate.c */
int bl_cmd_standin(int argc, char **argv);  /* cli_standin.c */
int bl_cmd_sweep(int argc, char **argv);    /* cli_sweep.c */
int bl_cmd_plot(int argc, char **argv);     /* cli_plot.c */
int bl_cmd_fit(int argc, char **argv);      /* cli_fit.c */

/* The environment variable that chooses where simulated annealing runs
 * (auto|cpu|cuda) over the `backend` option of a policy that has one
 * (`sa`) and over `study sa --backend`. Only the command line reads it;
 * gpu/ and the policies get its value passed down as that option. */
#define BL_SA_BACKEND_ENV "BATCHLAB_SA_BACKEND"

/* Reads BL_SA_BACKEND_ENV. Returns 0 with *value NULL when it is unset or
 * empty, or with its value when it is auto, cpu or cuda; otherwise prints
 * "batchlab CMD: BATCHLAB_SA_BACKEND 'x': expected auto, cpu or cuda" and
 * returns 2 (a usage error). */
int bl_sa_backend_env(const char *cmd, const char **value);

/* The folder name of a policy spec (NAME or NAME:key=value:...), the one
 * rule by which `compare --out` and a sweep's task folders name a policy:
 * ':' becomes '+', '/' and ' ' become '_' ("easy+backfill_order=sjf";
 * "slurm+shares=data_shares.txt" for slurm:shares=data/shares.txt). Two
 * specs may thus share a name; `compare` refuses such a pair. Heap string,
 * NULL when out of memory. */
char *bl_policy_folder(const char *spec);

/* A computed load (eng_scale_load) as the commands print it: "%.4f", or
 * "undefined (arrivals span 0 s)" where the log defines none (one job, or
 * every job arriving at one instant: D = 0 makes U = work / (D x P) NAN).
 * Writes into buf (40 bytes suffice) and returns it. */
const char *bl_fmt_load(char *buf, size_t len, double load);

#endif
