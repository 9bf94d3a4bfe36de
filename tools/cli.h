/* cli.h — the batchlab command line (run, compare, info, ...). */
#ifndef BL_CLI_H
#define BL_CLI_H

/* Runs the command line; returns the process exit status:
 * 0 success, 1 bad input or failed run, 2 usage error, 3 invariant violation. */
int bl_cli_main(int argc, char **argv);

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

#endif
