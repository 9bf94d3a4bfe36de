/* eng_run.h — one complete run (simulate, measure, write the outputs) in a
 * child process.
 *
 * SimGrid holds one engine per process and stops the process when a
 * platform file does not parse, so every simulation runs in a forked child.
 * The parent reads the workload once (the children share it), forwards the
 * child's progress, collects SimGrid's own messages from its stderr (shown
 * cleaned up when the child fails: "Parse error at p.xml:7: ..."), and
 * receives a report through a temporary file: the summary and, per
 * simulated job, its number, start, end, state and hosts. `batchlab compare`
 * runs one child per policy; tests run one per scenario.
 */
#ifndef ENG_RUN_H
#define ENG_RUN_H

#include "eng_breakdown.h"
#include "eng_metrics.h"
#include "eng_output.h"
#include "eng_sim.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct eng_run_spec {
    const char *platform_path;
    const eng_workload *workload; /* read by the parent */
    eng_sim_opts sim;
    const char *out_dir;   /* NULL: no files */
    eng_manifest manifest; /* filled by the caller except wall time and hashes */
    bool summary_only;     /* the report without its per-job arrays (n_jobs 0): the
                        * parent then allocates nothing once the child has
                        * written the outputs */
} eng_run_spec;

typedef struct eng_run_report {
    eng_summary summary;
    eng_bd_brief breakdown;   /* the breakdowns' digest (eng_breakdown.h) */
    double wall_s;            /* simulation wall time in the child */
    double policy_wall_s;     /* of which in the policy's calls */
    char policy_report[1024]; /* pol_type.report's text, or "" */
    size_t n_jobs;            /* simulated jobs (prepared order) */
    int64_t *job_id;
    double *submit_s;
    double *start_s;
    double *end_s;
    int32_t *state;
    int32_t *n_hosts;
    int32_t *n_runs;  /* per job: its hosts as runs (eng_host_run) */
    size_t *runs_off; /*   at runs[runs_off[i]], in allocation order */
    eng_host_run *runs;
    size_t n_runs_total;
    size_t n_platform_hosts;
    size_t peak_rss_kb;      /* the child's peak resident memory (isolated runs) */
    double simgrid_energy_j; /* sim.energy_plugin: SimGrid's total; NAN otherwise */
} eng_run_report;

/* Runs spec in a child and fills *rep (caller's storage). Errors: the
 * child's diagnostic (bad platform, policy, invariant...) or ENG_CHILD with
 * SimGrid's messages. */
int eng_run_isolated(const eng_run_spec *spec, eng_run_report *rep, eng_diag *d);

void eng_run_report_fini(eng_run_report *rep);

/* Loads a platform with SimGrid in a child process and hands it back, for
 * commands that need the platform but do not simulate (info, scale). The
 * errors are those of eng_run_isolated. */
int eng_run_load_platform(const char *path, eng_platform **out, eng_diag *d);

/* Signals. The command line's handlers of SIGINT, SIGTERM and SIGHUP call
 * eng_run_forward_signal(sig): it passes sig on to the simulation child
 * running now and returns true, or returns false when none runs (the
 * caller then stops on its own). Async-signal-safe. The child removes its
 * temporary output files and dies of the signal; eng_run_isolated() then
 * returns its usual error for a killed child, and eng_run_stopped_by()
 * gives the first signal forwarded (0 if none). A child started after a
 * signal was forwarded receives it at once. Each child also gets SIGTERM
 * from the kernel when its parent dies (Linux PR_SET_PDEATHSIG), ignores
 * SIGXFSZ (so the file-size limit fails a write with EFBIG instead of
 * killing it), and holds stop signals back while it renames its outputs
 * into place (eng_output.h). */
bool eng_run_forward_signal(int sig);
int eng_run_stopped_by(void);

/* The memory limits set on this process, as " (address-space limit 390.6
 * MiB, ulimit -v 400000; cgroup memory.max 2048.0 MiB)", or "" when there
 * is none; written into buf, which is returned. For out-of-memory
 * messages, which name them. A child's ENG_NOMEM and SimGrid's own
 * allocation failures ("Failed to allocate stack", std::bad_alloc) come
 * back from eng_run_isolated() as ENG_NOMEM with these limits. */
const char *eng_run_memory_limits(char *buf, size_t len);

/* Index of job number id in the report, or -1. Linear. */
long eng_run_report_find(const eng_run_report *rep, int64_t id);

#endif
