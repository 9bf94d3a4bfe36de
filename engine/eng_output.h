/* eng_output.h — the files a run writes into its output folder:
 *
 *   jobs.csv        one row per simulated job. Batsim's columns first, in
 *                   Batsim's order (job_id ... metadata), so Batsim's
 *                   analysis tools (evalys) read it as is; then ours:
 *                   bounded_slowdown, procs, queue, pool, user,
 *                   estimate_s, estimate_source, type, init_s (paid), cost,
 *                   packet (the SWF number of its packet's first member, or
 *                   -1), requeues (host failures that sent it back).
 *                   job_id is the SWF job number; allocated_resources lists
 *                   what requested_number_of_resources counts, as Batsim
 *                   intervals ("0-3 7"): platform host indices (name order)
 *                   under node allocation, core indices (eng_coreidx.h)
 *                   under core allocation; consumed_energy is -1 (no
 *                   energy model).
 *   dropped.csv     the jobs that could not be simulated, with the reason.
 *   schedule.swf    the simulated jobs as SWF 2.2 with simulated wait (3),
 *                   run time (4), allocated processors (5) and status (11:
 *                   1 completed, 0 killed); other fields as in the input.
 *   summary.json    counts, metrics (eng_metrics.h), log_agreement (only
 *                   when the log has wait times: eng_log_agreement, keys
 *                   jobs, cancelled_excluded, wait_mean_log, wait_mean_sim,
 *                   wait_mae_s, wait_spearman), platform and manifest.
 *   timeseries.csv  after each event instant: waiting and running jobs,
 *                   busy nodes and cores, utilization of the units.
 *
 * Every file is written to a temporary name first; only when all of them
 * are complete, flushed and closed are they renamed into place (summary.json
 * last, with SIGINT, SIGTERM and SIGHUP held back meanwhile), so a failed or
 * interrupted run leaves none of them behind and the folder's previous
 * outputs as they were, and a folder holding summary.json holds a finished
 * run. The first failed write ends the run: "DIR/jobs.csv: cannot write: No
 * space left on device" (ENG_IO). Numbers are printed in their shortest exact decimal form and
 * the same run gives the same bytes, except summary.json's
 * manifest.wall_time_s. summary.json is a Jansson tree written by
 * eng_json_dumpf (eng_json.h: escaping, null for non-finite numbers,
 * layout).
 */
#ifndef ENG_OUTPUT_H
#define ENG_OUTPUT_H

#include "eng_breakdown.h"
#include "eng_metrics.h"
#include "eng_sim.h"

#include <stdbool.h>
#include <stdint.h>

/* Which files eng_output_write writes (a bit set; 0 means all). */
enum {
    ENG_OUT_JOBS = 1 << 0,
    ENG_OUT_DROPPED = 1 << 1,
    ENG_OUT_SCHEDULE = 1 << 2,
    ENG_OUT_SUMMARY = 1 << 3,
    ENG_OUT_TIMESERIES = 1 << 4,
    ENG_OUT_ALL = (1 << 5) - 1,
};

/* Parses "jobs,summary" (names: jobs, dropped, schedule, summary,
 * timeseries, all) into a bit set; false on an unknown name. */
bool eng_output_parse(const char *list, unsigned *mask);

/* One setting of the run as summary.json's manifest records it: a key and
 * a string, boolean or integer value. The command line gives them from its
 * run options' table (tools/cli_runopts.h: "walltime": "kill", "seed": 1,
 * ...); the engine writes them as given and reads none. */
typedef enum eng_setting_kind {
    ENG_SETTING_STRING,
    ENG_SETTING_BOOL,
    ENG_SETTING_INT,
} eng_setting_kind;

typedef struct eng_setting {
    const char *key; /* borrowed */
    eng_setting_kind kind;
    const char *string; /* ENG_SETTING_STRING, borrowed */
    bool boolean;       /* ENG_SETTING_BOOL */
    int64_t integer;    /* ENG_SETTING_INT: exact in the JSON */
} eng_setting;

typedef struct eng_manifest {
    const char *command; /* the command line, as typed */
    const char *policy;
    const pol_kv *options;
    size_t n_options;
    const char *workload_path;
    const char *platform_path;
    char workload_sha256[65];
    char platform_sha256[65];
    /* a policy loaded from a shared library: its path, as given, and the
     * SHA-256 of the file loaded (inputs.policy_library); NULL otherwise */
    const char *policy_library;
    const char *policy_library_sha256;
    const eng_setting *settings; /* written in this order after the policy's report */
    size_t n_settings;
    double wall_time_s;
    unsigned outputs; /* ENG_OUT_* bits; 0: all */
} eng_manifest;

/* Writes the files m->outputs selects (all five by default) into dir
 * (created if missing); summary.json holds bd's "breakdowns" and
 * "fairness" (bd NULL: neither). */
int eng_output_write(const char *dir, const eng_workload *w, const eng_sim_result *r,
                     const eng_summary *s, const eng_breakdowns *bd, const eng_manifest *m,
                     eng_diag *d);

/* Final state names as Batsim spells them. */
const char *eng_final_state_name(int state);

#endif
