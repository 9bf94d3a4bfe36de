/* cli_runopts.h — the run configuration of `run` and `compare`, declared
 * once, so that nothing is copied field by field between the parser, the
 * checks, --help and the manifest: one row per option, in the style of
 * eng_error.h's ENG_ERRORS(X). A row gives
 *
 *   X(field, name, short, type, choices, default, check, expected, metavar,
 *     manifest, grid, help)
 *
 *   field     the member of bl_run_config it sets (its C type follows from
 *             the type: PATH const char *, FLAG bool, CHOICE int (index in
 *             choices), U64 unsigned long long, DOUBLE double, OUTPUTS
 *             unsigned ENG_OUT_* bits);
 *   name      the long option, "--" + name; short: its letter or 0;
 *   choices   CHOICE: "a|b|c", the accepted values (others NULL);
 *   default   the value when the option is absent, as typed (NULL: none);
 *   check     U64/DOUBLE: a condition on the parsed value v (1: none);
 *   expected  the message when check fails: "--NAME: expected EXPECTED,
 *             got 'VALUE'";
 *   manifest  M_STR(key), M_BOOL(key) or M_INT(key): the key under
 *             summary.json's "manifest" that records it and that key's
 *             JSON type, or M_NONE (inputs, outputs, printing). The
 *             manifest's settings are generated from this column
 *             (bl_run_manifest): an option with a key of its own needs
 *             nothing else; several options feed one label ("failures",
 *             "initialization"), composed where they are read (cli_run.c).
 *             The table drives the test that each key is there with its
 *             type;
 *   grid      BL_GRID_SETS when a sweep's grid sets the option itself (a
 *             grid's run_args may not), BL_GRID_FREE otherwise;
 *   help      the --help line.
 *
 * Parsing, --help, the value checks, the manifest's settings and the
 * sweep's run_args check all come from the table. Rules between options
 * (required ones, pairs that exclude each other), the files an option
 * names (read once) and the labels several options share are in
 * cli_run.c (bl_run_parse, bl_run_inputs_options).
 *
 * Adding an option: one row here, then the line where it takes effect
 * (fill_spec in cli_run.c hands the configuration to the engine); the
 * README's option list. CONTRIBUTING.md says so.
 */
#ifndef BL_CLI_RUNOPTS_H
#define BL_CLI_RUNOPTS_H

#include "cli_args.h"

#include "eng_output.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BL_GRID_SETS 1
#define BL_GRID_FREE 0

/* The manifest column: key and JSON type, as two initializer values. */
#define M_STR(key) key, "string"
#define M_BOOL(key) key, "boolean"
#define M_INT(key) key, "integer"
#define M_NONE NULL, NULL

#define BL_RUN_OPTIONS(X)                                                                           \
    X(platform, "platform", 'p', PATH, NULL, NULL, 1, "", "FILE", M_NONE, BL_GRID_SETS,             \
      "SimGrid platform XML (required)")                                                            \
    X(workload, "workload", 'w', PATH, NULL, NULL, 1, "", "FILE", M_NONE, BL_GRID_SETS,             \
      "SWF log, plain or .gz (required)")                                                           \
    X(out, "out", 'o', PATH, NULL, NULL, 1, "", "DIR", M_NONE, BL_GRID_SETS,                        \
      "write jobs.csv, dropped.csv, schedule.swf, summary.json, timeseries.csv")                    \
    X(walltime, "walltime", 0, CHOICE, "kill|extend", "kill", 1, "", "kill|extend",                 \
      M_STR("walltime"), BL_GRID_FREE,                                                              \
      "kill jobs at their requested time (default), or plan and run with max(requested, "           \
      "actual)")                                                                                    \
    X(alloc, "alloc", 0, CHOICE, "node|core", "node", 1, "", "node|core", M_STR("alloc"),           \
      BL_GRID_FREE, "whole nodes per job (default), or pack jobs by cores")                         \
    X(islands, "islands", 0, CHOICE, "strict|ignore", "strict", 1, "", "strict|ignore",             \
      M_STR("islands"), BL_GRID_FREE,                                                               \
      "where hosts name islands, a job that fits in one runs within one (strict, default)")         \
    X(procs, "procs", 0, CHOICE, "alloc|req", "alloc", 1, "", "alloc|req", M_STR("procs_field"),    \
      BL_GRID_FREE,                                                                                 \
      "processor count from field 5, else 8 (alloc, default), or field 8, else 5 (req)")            \
    X(lenient, "lenient", 0, FLAG, NULL, NULL, 1, "", NULL, M_BOOL("lenient"), BL_GRID_FREE,        \
      "skip and count malformed SWF lines instead of stopping")                                     \
    X(check, "check", 0, FLAG, NULL, NULL, 1, "", NULL, M_BOOL("check"), BL_GRID_FREE,              \
      "run the invariant checker after every scheduling call")                                      \
    X(seed, "seed", 0, U64, NULL, "1", v <= INT64_MAX, "at most 9223372036854775807", "N",          \
      M_INT("seed"), BL_GRID_SETS, "seed of policies that draw random numbers (default 1)")         \
    X(type_field, "type-field", 0, CHOICE, "queue|partition|app", "queue", 1, "",                   \
      "queue|partition|app", M_STR("type_field"), BL_GRID_FREE,                                     \
      "SWF field holding the job type: 15 (default), 16 or 14")                                     \
    X(init_share, "init-share", 0, DOUBLE, NULL, NULL, v >= 0 && v < 1, "a value in [0, 1)", "X",   \
      M_STR("initialization"), BL_GRID_FREE,                                                        \
      "per-type initialization times giving this share of total run time (0 <= X < 1)")             \
    X(init_times, "init-times", 0, PATH, NULL, NULL, 1, "", "FILE", M_STR("initialization"),        \
      BL_GRID_FREE,                                                                                 \
      "per-type initialization times from 'TYPE SECONDS' lines ('*' for the others)")               \
    X(init_planned, "init-planned", 0, CHOICE, "yes|no", "yes", 1, "", "yes|no",                    \
      M_STR("initialization"), BL_GRID_FREE,                                                        \
      "policies plan with the initialization (yes, default), or with the request alone while "      \
      "jobs still run it (no)")                                                                     \
    X(failures, "failures", 0, CHOICE, "none|model", "none", 1, "", "none|model",                   \
      M_STR("failures"), BL_GRID_FREE,                                                              \
      "host failures drawn from the hosts' occupation_probability (default none)")                  \
    X(failure_epoch, "failure-epoch", 0, DOUBLE, NULL, "3600", v > 0, "a positive duration",        \
      "SECONDS", M_STR("failures"), BL_GRID_FREE,                                                   \
      "with --failures model: a host is down for whole epochs of this length (3600)")               \
    X(failure_trace, "failure-trace", 0, PATH, NULL, NULL, 1, "", "FILE", M_STR("failures"),        \
      BL_GRID_FREE, "host failures replayed from 'HOST DOWN_AT UP_AT' lines instead of drawn")      \
    X(on_failure, "on-failure", 0, CHOICE, "kill|requeue", "kill", 1, "", "kill|requeue",           \
      M_STR("failures"), BL_GRID_FREE,                                                              \
      "a job whose host fails is killed (default) or queued again from scratch")                    \
    X(max_requeues, "max-requeues", 0, U64, NULL, "5", v <= 1000000, "at most 1000000", "N",        \
      M_STR("failures"), BL_GRID_FREE,                                                              \
      "with --on-failure requeue: kill a job at its failure after N requeues (5)")                  \
    X(suspend_time, "suspend-time", 0, DOUBLE, NULL, NULL, v >= 0 && v <= 1e12,                     \
      "a duration in [0, 1e12] seconds", "SECONDS", M_NONE, BL_GRID_FREE,                           \
      "idle shutdown: switch a host off after this long idle (Slurm's SuspendTime; default never)") \
    X(suspend_timeout, "suspend-timeout", 0, DOUBLE, NULL, "30", v >= 0 && v <= 1e9,                \
      "a duration in [0, 1e9] seconds", "SECONDS", M_NONE, BL_GRID_FREE,                            \
      "with --suspend-time: shutdown time of hosts whose platform gives no switch_off_s (30)")      \
    X(resume_timeout, "resume-timeout", 0, DOUBLE, NULL, "60", v >= 0 && v <= 1e9,                  \
      "a duration in [0, 1e9] seconds", "SECONDS", M_NONE, BL_GRID_FREE,                            \
      "with --suspend-time: boot time of hosts whose platform gives no switch_on_s (60)")           \
    X(suspend_rate, "suspend-rate", 0, U64, NULL, "0", v <= 1000000, "at most 1000000", "N",        \
      M_NONE, BL_GRID_FREE, "with --suspend-time: switch-offs begun per minute (0: no limit)")      \
    X(resume_rate, "resume-rate", 0, U64, NULL, "0", v <= 1000000, "at most 1000000", "N", M_NONE,  \
      BL_GRID_FREE, "with --suspend-time: boots begun per minute (0: no limit)")                    \
    X(suspend_exc_nodes, "suspend-exc-nodes", 0, PATH, NULL, NULL, 1, "", "HOSTLIST", M_NONE,       \
      BL_GRID_FREE, "with --suspend-time: hosts never switched off, as n[1-4,7],login")             \
    X(power_cap, "power-cap", 0, DOUBLE, NULL, NULL, v > 0 && v <= 1e15, "watts in (0, 1e15]",      \
      "WATTS", M_NONE, BL_GRID_FREE,                                                                \
      "start a job only if the modelled power stays within WATTS (needs power values)")             \
    X(feedback, "feedback", 0, CHOICE, "none|swf|sessions", "none", 1, "", "none|swf|sessions",     \
      M_STR("feedback"), BL_GRID_FREE,                                                              \
      "user feedback: submit a job its think time after its predecessor's simulated end, from "     \
      "SWF fields 17-18 (swf) or inferred sessions (sessions); default none")                       \
    X(reservations, "reservations", 0, PATH, NULL, NULL, 1, "", "FILE", M_STR("reservations"),      \
      BL_GRID_FREE,                                                                                 \
      "hosts held for windows, from Slurm-style 'ReservationName=... StartTime=... EndTime=... "    \
      "Nodes=...' lines; Flags=DAILY|WEEKDAY|... repeat them, MaxTime= limits what may start")      \
    X(scheduler_socket, "scheduler-socket", 0, PATH, NULL, NULL, 1, "", "ENDPOINT", M_NONE,         \
      BL_GRID_FREE,                                                                                 \
      "with --policy batsim: where the scheduler listens (default tcp://localhost:28000)")          \
    X(scheduler_cmd, "scheduler-cmd", 0, PATH, NULL, NULL, 1, "", "COMMAND", M_NONE, BL_GRID_FREE,  \
      "with --policy batsim: start the scheduler with /bin/sh -c COMMAND, stop it with the run")    \
    X(scheduler_timeout, "scheduler-timeout", 0, DOUBLE, NULL, NULL, v > 0 && v <= 1e6,             \
      "a number of seconds in (0, 1e6]", "SECONDS", M_NONE, BL_GRID_FREE,                           \
      "with --policy batsim: the longest wait for one reply of the scheduler (default 60)")         \
    X(outputs, "outputs", 0, OUTPUTS, NULL, NULL, 1, "", "LIST", M_NONE, BL_GRID_SETS,              \
      "with --out: which files, among jobs, dropped, schedule, summary, timeseries (all)")          \
    X(quiet, "quiet", 'q', FLAG, NULL, NULL, 1, "", NULL, M_NONE, BL_GRID_SETS,                     \
      "no progress on stderr")

/* The C type of each option type. */
#define BL_RT_PATH const char *
#define BL_RT_FLAG bool
#define BL_RT_CHOICE int
#define BL_RT_U64 unsigned long long
#define BL_RT_DOUBLE double
#define BL_RT_OUTPUTS unsigned

/* The parsed options, one field per row; `<field>_set` tells whether the
 * option was given, `<field>_arg` its value as typed (NULL when absent, and
 * for a flag). Strings are borrowed from argv. */
typedef struct bl_run_config {
#define BL_RUN_FIELD(field, name, sh, type, ch, def, check, exp, mv, man, grid, help)              \
    BL_RT_##type field;                                                                            \
    bool field##_set;                                                                              \
    const char *field##_arg;
    BL_RUN_OPTIONS(BL_RUN_FIELD)
#undef BL_RUN_FIELD
} bl_run_config;

/* The rows as bl_opt entries, for a command's option table:
 *   static const bl_opt run_opts[] = {BL_RUN_OPTS, {"policy", ...}};
 * An option without a value (FLAG) is a BL_FLAG, the others BL_VALUE. */
#define BL_RUN_OPT_KIND_PATH BL_VALUE
#define BL_RUN_OPT_KIND_FLAG BL_FLAG
#define BL_RUN_OPT_KIND_CHOICE BL_VALUE
#define BL_RUN_OPT_KIND_U64 BL_VALUE
#define BL_RUN_OPT_KIND_DOUBLE BL_VALUE
#define BL_RUN_OPT_KIND_OUTPUTS BL_VALUE
#define BL_RUN_OPT(field, name, sh, type, ch, def, check, exp, mv, man, grid, help)                \
    {name, sh, BL_RUN_OPT_KIND_##type, mv, help},
#define BL_RUN_OPTS BL_RUN_OPTIONS(BL_RUN_OPT)

/* Fills cfg from the parsed arguments, row by row: defaults, choices,
 * numbers and their checks. Returns 0, or 2 after printing "batchlab CMD:
 * --NAME: expected ..., got 'VALUE'". */
int bl_run_config_parse(const char *cmd, const bl_args *a, bl_run_config *cfg);

/* Sets the option of row id (BL_RUN_ID_<field>) to value as typed, parsed
 * and checked as on the command line (a flag: value ignored, the flag
 * given); value is borrowed. 0, or 2 after the message. */
int bl_run_config_set(const char *cmd, bl_run_config *cfg, int id, const char *value);

/* The accepted value names of a CHOICE option's index ("kill" for
 * walltime 0); NULL for an unknown option or index. */
const char *bl_run_choice_name(const char *name, int index);

/* One row's description, for the sweep and the tests. */
typedef struct bl_run_option_info {
    const char *name;
    char short_name;
    bool takes_value;
    const char *manifest;  /* NULL: not in the manifest */
    const char *json_type; /* "string", "boolean" or "integer" in the manifest */
    bool grid_sets;
} bl_run_option_info;

/* The rows in table order. */
const bl_run_option_info *bl_run_option_list(size_t *n);

/* Each row's index in the table: BL_RUN_ID_<field>. */
enum {
#define BL_RUN_ID(field, name, sh, type, ch, def, check, exp, mv, man, grid, help)                 \
    BL_RUN_ID_##field,
    BL_RUN_OPTIONS(BL_RUN_ID) BL_RUN_N
#undef BL_RUN_ID
};

/* The command-line words of the options a sweep's grid sets itself
 * (BL_GRID_SETS), in table order: "--NAME" then vals[id] for an option
 * with a value, "--NAME" alone for a flag whose vals[id] is non-NULL;
 * rows whose vals[id] is NULL are left out. The names come from the
 * table, so that `sweep task` hands `run` the options the grid checked.
 * words needs room for 2 * BL_RUN_N entries (borrowed from vals and the
 * table); returns how many were written. */
size_t bl_run_grid_words(const char *const vals[BL_RUN_N], const char **words);

/* A label: the manifest's text of a key that several rows name
 * ("initialization", "failures"), composed from those options by the code
 * that reads them (cli_run.c). */
typedef struct bl_run_label {
    const char *key;
    const char *text; /* borrowed */
} bl_run_label;

/* The manifest's settings of cfg, from the table's manifest column, into
 * out (room for BL_RUN_N): one per key, the string keys first, then the
 * booleans, then the integers (the order summary.json has always had),
 * each group in table order. A key that one row names takes that row's
 * value: a choice its name, a flag true or false, a U64 its integer,
 * another option its value as typed (else its default, else ""). A key
 * that several rows name takes the text of its label in labels (n_labels
 * of them; "" when absent). Strings are borrowed from cfg, the table and
 * labels. Returns the number of settings. */
size_t bl_run_manifest(const bl_run_config *cfg, const bl_run_label *labels, size_t n_labels,
                       eng_setting *out);

/* Checks one `--name value` (or `--name=value`, or a flag) the way the
 * parser would, for a sweep's run_args. Returns 0, or 2 with "--NAME:
 * expected ..." in msg (len bytes) for an unknown option or a bad value;
 * *consumed is 1 or 2 (the words used). */
int bl_run_option_check(const char *const *words, size_t n, size_t *consumed, char *msg,
                        size_t len);

#endif
