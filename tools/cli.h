/* cli.h — the batchlab command line (run, compare, info, ...). */
#ifndef BL_CLI_H
#define BL_CLI_H

/* Runs the command line; returns the process exit status:
 * 0 success, 1 bad input or failed run, 2 usage error, 3 invariant violation. */
int bl_cli_main(int argc, char **argv);

#endif
