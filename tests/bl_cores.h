/* bl_cores.h — an independent check of the core indices a run names under
 * core allocation (engine/eng_coreidx.h), for the tests and the fuzz
 * target: read back from jobs.csv or taken from eng_coreidx, each job's
 * cores are checked against its time span, its count and the engine's own
 * record of where it ran. Plain C, no CUnit: the fuzz target links it too.
 *
 * The rules (every violation is reported with the job and the core):
 *  - every index lies in [0, total cores of the platform);
 *  - a job that ran names exactly `want` cores, one that never ran none;
 *  - no core is held by two jobs at once: two jobs of positive length
 *    sharing a core have disjoint [start, end) spans, and a job of zero
 *    length at t shares no core with a job running across t (start < t <
 *    end); a job ending at t and one starting at t may share cores;
 *  - (differential, when runs are given) on each host the job names as
 *    many cores as the engine's allocation gave it there. */
#ifndef BL_CORES_H
#define BL_CORES_H

#include "eng_core.h"
#include "eng_coreidx.h"
#include "eng_platform.h"

#include <stddef.h>
#include <stdint.h>

/* One job's named cores. */
typedef struct bl_core_use {
    int64_t id;
    double start_s, end_s; /* start -1: never ran */
    int64_t want;          /* the cores it should hold */
    const eng_core_span *spans;
    int32_t n_spans;
} bl_core_use;

/* Checks the rules above on n jobs. With res and runs (indexed like
 * jobs), also the per-host counts. 0 when all hold; otherwise -1 and the
 * first violation in why. */
int bl_cores_check(const bl_core_use *jobs, size_t n, const eng_platform *p,
                   const eng_job_result *res, const eng_host_run *runs, char *why, size_t why_len);

/* Jobs as jobs.csv gives them (Batsim's columns job_id,
 * requested_number_of_resources, starting_time, finish_time,
 * allocated_resources, in any position), want = the requested count; a
 * packet's member (our column packet, when present) runs on all its
 * packet's hosts and wants the cores its packet's first member names
 * (if that is at least its request).
 * Owns its storage: free with bl_cores_csv_fini. -1 (message in why) when
 * the text is not such a file. */
typedef struct bl_cores_csv {
    bl_core_use *jobs;
    size_t n_jobs;
    eng_core_span *spans;
    size_t n_spans;
} bl_cores_csv;

int bl_cores_csv_parse(const char *text, bl_cores_csv *out, char *why, size_t why_len);
void bl_cores_csv_fini(bl_cores_csv *c);

#endif
