/* cli_run.h — one replay from the command line: the entry point that
 * `run`, `compare` (once per policy) and a sweep's task (`sweep task`) all
 * call, and what they share around it (cli_run.c).
 *
 * A run is described by the configuration of cli_runopts.h (bl_run_config,
 * one field per run option, filled from the options table), the files its
 * options name, read once (bl_run_inputs), and a policy spec
 * (cli_policy_spec.h). bl_run_one hands them to the engine, which replays
 * in a child process (eng_run_isolated), and reports a failure or a stop
 * signal; printing the results is the caller's (bl_run_print for `run`).
 *
 *   bl_run_config cfg;      from argv (bl_run_config_parse), or words and
 *                           values (bl_run_config_words, bl_run_config_set)
 *   bl_run_inputs in;       bl_run_inputs_options, then _workload
 *   bl_run_one(&cfg, &in, &policy, out_dir, ...)   per policy
 *
 * Messages name the command: "batchlab CMD: ...", CMD being in->cmd.
 * Exit statuses as the commands return them: 0 success; 1 bad input or a
 * failed run; 2 usage error; 3 a violated invariant; 128 + N stopped by
 * signal N.
 */
#ifndef BL_CLI_RUN_H
#define BL_CLI_RUN_H

#include "cli_args.h"
#include "cli_policy_spec.h"
#include "cli_runopts.h"

#include "eng_ftrace.h"
#include "eng_prep.h"
#include "eng_resv.h"
#include "eng_run.h"
#include "eng_swf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What the runs of one command share besides the configuration: the files
 * its options name, read once, the labels the manifest records, and the
 * command line it records. Owns what it holds; free with
 * bl_run_inputs_fini. */
typedef struct bl_run_inputs {
    const char *cmd;           /* the messages' "batchlab CMD:"; borrowed */
    char *command;             /* the manifest's command line (bl_command_line) */
    eng_workload *workload;    /* --workload, read */
    eng_init_time *init_times; /* --init-times, read */
    size_t n_init_times;
    eng_ftrace failure_trace;       /* --failure-trace, read */
    char init_label[600];           /* the manifest's "initialization" */
    char failure_label[700];        /* the manifest's "failures" */
    eng_resvs resv;                 /* --reservations, read (resolved by the core) */
    char resv_label[700];           /* the manifest's "reservations" */
    eng_setting settings[BL_RUN_N]; /* the manifest's settings (bl_run_manifest) */
    size_t n_settings;
} bl_run_inputs;

/* Checks that the options --platform and --workload are given, fills cfg
 * from a (bl_run_config_parse), then bl_run_inputs_options. 0, or the exit
 * status after the message. */
int bl_run_parse(const char *cmd, const bl_args *a, bl_run_config *cfg, bl_run_inputs *in);

/* The rules between options (--init-share or --init-times; --failures
 * model or --failure-trace), the files they name read, the manifest's
 * labels and settings. in is initialised here (cmd borrowed); cfg must not
 * change afterwards (the settings borrow its strings). 0, or the exit status
 * after the message (2 usage, 1 a file that cannot be read). */
int bl_run_inputs_options(const char *cmd, const bl_run_config *cfg, bl_run_inputs *in);

/* The platform readable, the workload read (warnings printed) and holding
 * jobs. 0, or 1 after the message. */
int bl_run_inputs_workload(const bl_run_config *cfg, bl_run_inputs *in);

void bl_run_inputs_fini(bl_run_inputs *in);

/* One replay: cfg's workload (in) under policy, its outputs written into
 * out_dir (NULL: none; `compare` gives each policy its own folder), the
 * report into *rep (caller's storage; eng_run_report_fini it after a 0).
 * Progress on stderr unless cfg->quiet or stderr is not a terminal.
 * With name_policy the messages name the policy (`compare`); with_jobs
 * keeps the report's per-job arrays (a paired comparison reads them).
 * Returns 0,
 * or, after the message, 1 (failed run), 2 (options that do not go
 * together on this input), 3 (a violated invariant) or 128 + N (stopped
 * by signal N; *rep is then empty). */
int bl_run_one(const bl_run_config *cfg, const bl_run_inputs *in, const bl_policy_spec *policy,
               const char *out_dir, bool name_policy, bool with_jobs, eng_run_report *rep);

/* The options of `run`: the run options' table (cli_runopts.h), then
 * --policy SPEC and --policy-opt KEY=VALUE (repeatable). */
extern const bl_opt bl_run_opts[];
extern const size_t bl_run_n_opts;

/* The printout of `run`: the run's summary on stdout. */
void bl_run_print(const bl_run_config *cfg, const bl_run_inputs *in, const bl_policy_spec *policy,
                  const char *out_dir, const eng_run_report *r);

/* ---- shared by the commands that read logs and print results ---------- */

/* Reads the SWF log at path and prints its warnings (skipped lines under
 * --lenient, jobs out of submit order, values out of range). 0, or the
 * exit status after the message. */
int bl_read_workload(const char *cmd, const char *path, bool lenient, eng_workload **w);

/* "batchlab" and the words quoted for a shell where they need it, the
 * command line a manifest records; heap string, NULL when out of memory. */
char *bl_command_line(int argc, const char *const *argv);

/* 1234567 -> "1,234,567"; fractional values keep `decimals` digits. */
const char *bl_fmt_grouped(char *buf, size_t len, double v, int decimals);

/* head, then "none" or the count of dropped jobs by reason. */
void bl_print_drops(FILE *f, const eng_summary *s, const char *head);

/* The handlers of SIGINT, SIGTERM and SIGHUP: the first passes the signal
 * on to the simulation child running now (the run then reports it); with
 * none running, or at a second signal, the process removes its temporary
 * files and exits 128 + N at once. Installed by bl_cli_main. */
void bl_run_install_stop_handlers(void);

#endif
