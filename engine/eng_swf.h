/* eng_swf.h — workloads in the Standard Workload Format (SWF 2.2): the job
 * model, the reader (.swf and .swf.gz through zlib) and the writer.
 *
 * Format: Feitelson et al., the Parallel Workloads Archive's SWF definition
 * (Chapin et al. 1999; Feitelson, Tsafrir & Krakov 2014). Field numbers
 * below are the definition's (1-based).
 *
 * Reader contract
 * - Any line whose first non-blank character is ';' is a comment, wherever it
 *   is. "; Key: value" comments form the header; a comment line without a
 *   key that follows a keyed line continues that key's value (multi-line
 *   Note, Information...). Numeric keys (MaxNodes, MaxProcs, MaxJobs,
 *   MaxRecords, UnixStartTime, MaxRuntime, MaxQueues, MaxPartitions) take the
 *   leading integer of their value; free text where a number is expected
 *   leaves the field at -1 and is kept verbatim in the key/value list.
 * - Blank lines are skipped; CR before LF is ignored.
 * - A data line has exactly 18 numeric fields. Time fields (2, 3, 4, 6, 9,
 *   18) and memory fields (7, 10) may be decimals; the others must be
 *   integers. Every field is >= 0 or exactly -1 (unknown); the job number
 *   is >= 0; status (11) is -1..5. A token that is not a number, or an out
 *   of range value in a field the replay uses (1, 2, 4, 5, 8, 9, 14, 15,
 *   16), is malformed: the read stops with "FILE:LINE: what was expected"
 *   (ENG_PARSE), or, with opts->lenient, the line is skipped and counted.
 *   An out-of-range number in a field the replay does not use (3, 6, 7, 10,
 *   11, 12, 13, 17, 18 — e.g. exit codes stored as status) is read as -1
 *   and counted per field in n_ignored[]; callers report the counts once.
 * - A submit time of -1 (unknown) is kept: such jobs sort after all others
 *   in file order, are not counted as reordered, and eng_prep drops them
 *   with the reason no-submit.
 * - Partial-execution lines (status 2, 3, 4): with "Preemption: Double" they
 *   are skipped (the job's summary line is kept); otherwise the parts of one
 *   job number are merged into one job (submit time and sizes of the first
 *   part, run times summed, status 1 if the last part has status 3, else 0).
 *   Either way they are counted in n_part_lines.
 * - A job number repeated after that merge is kept on every line and
 *   counted once in n_dup_ids; eng_prep drops all but its first line as
 *   duplicate-id.
 * - Jobs are sorted stably by submit time (ties keep file order); the number
 *   of jobs that appeared after a later-submitted job is n_reordered (jobs
 *   of unknown submit time do not count).
 * - Nothing is dropped for being unsimulatable here: that is eng_prep's job,
 *   which knows the platform.
 */
#ifndef ENG_SWF_H
#define ENG_SWF_H

#include "eng_error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One job: the 18 SWF fields, -1 where unknown. */
typedef struct eng_job {
    int64_t id;          /*  1 job number */
    double submit_s;     /*  2 submit time, seconds from the log's start */
    double wait_s;       /*  3 wait time in the log */
    double runtime_s;    /*  4 run time (wall clock) */
    int64_t procs_alloc; /*  5 allocated processors */
    double cpu_avg_s;    /*  6 average CPU time used */
    double mem_used_kb;  /*  7 used memory per processor, KB */
    int64_t procs_req;   /*  8 requested processors */
    double time_req_s;   /*  9 requested time (the user's estimate) */
    double mem_req_kb;   /* 10 requested memory per processor, KB */
    int32_t status;      /* 11 1 completed, 0 failed, 5 cancelled, 2-4 parts */
    int64_t user;        /* 12 */
    int64_t group;       /* 13 */
    int64_t app;         /* 14 executable (application) number */
    int64_t queue;       /* 15 */
    int64_t partition;   /* 16 */
    int64_t prev_job;    /* 17 preceding job number */
    double think_s;      /* 18 think time from the preceding job */
    int64_t line;        /* line in the source file (0 when generated) */
} eng_job;

/* Whether the replay ignores field (1..18): its out-of-range values are
 * read as -1 and counted rather than rejected. */
bool eng_swf_field_lax(int field);

/* The 18 fields of a job with every field unknown (-1), id and line 0. */
eng_job eng_job_unknown(void);

/* One "; Key: value" header entry, continuation lines joined with '\n'. */
typedef struct eng_swf_kv {
    char *key;
    char *value;
} eng_swf_kv;

typedef struct eng_swf_header {
    eng_swf_kv *kv; /* every keyed comment, in file order */
    size_t n_kv;
    /* Parsed values of well-known keys (-1 or NULL when absent). The strings
     * point into kv[] (borrowed, valid while the workload lives). */
    int64_t max_jobs, max_records, max_nodes, max_procs, unix_start_time, max_runtime;
    int64_t max_queues, max_partitions;
    const char *version, *computer, *installation, *preemption, *time_zone_string;
    const char *queues_text, *partitions_text; /* "Queues:" and "Partitions:" */
} eng_swf_header;

/* One "; Queue:" or "; Partition:" header line, read as SWF 2.1 defines
 * it, "NUMBER NAME (optional details)". The details may carry the header's
 * own keys as KEY=VALUE words (case as in the header: MaxRuntime=S,
 * MaxNodes=N, MaxProcs=N); for a queue they are its limits (the longest
 * run time, the most nodes or processors a job may ask), for a partition
 * its size. Anything else in the line is free text, kept in `text`. */
typedef struct eng_swf_class {
    int64_t number;       /* -1: the line does not start with a number */
    const char *text;     /* the line (the value's first line), borrowed from the header */
    size_t text_len;      /* its length, without the continuation lines */
    char name[64];        /* the word after the number, "" when none */
    double max_runtime_s; /* MaxRuntime=S, else -1 */
    int64_t max_nodes;    /* MaxNodes=N, else -1 */
    int64_t max_procs;    /* MaxProcs=N, else -1 */
} eng_swf_class;

/* The header's entries of key ("Queue" or "Partition") in file order.
 * *out is new (the caller frees it; NULL when there are none); its text
 * is borrowed from h. ENG_OK or ENG_NOMEM. */
int eng_swf_classes(const eng_swf_header *h, const char *key, eng_swf_class **out, size_t *n);

/* The numbers in parentheses of a Max* header value, the per-partition
 * counts the SWF definition allows ("1173 (1152 + 21)" gives 1152 and
 * 21): at most max of them into parts; returns how many (0: none). */
size_t eng_swf_value_parts(const char *value, int64_t *parts, size_t max);

typedef struct eng_workload {
    char *path; /* as given to the reader, or a label for generated ones */
    eng_swf_header hdr;
    eng_job *jobs; /* sorted by (submit_s, file order); unknown submits (-1) last */
    size_t n_jobs;
    size_t cap_jobs;
    size_t n_data_lines;       /* job lines read, including skipped ones */
    size_t n_malformed;        /* skipped by --lenient */
    size_t n_reordered;        /* jobs found after a later-submitted job */
    size_t n_part_lines;       /* partial-execution lines merged or skipped */
    size_t n_dup_ids;          /* job numbers seen more than once (not parts) */
    size_t n_ignored[19];      /* per field: out-of-range values read as -1 (lax fields) */
    char first_malformed[512]; /* first skipped line's message, lenient only */
} eng_workload;

typedef struct eng_swf_read_opts {
    bool lenient; /* skip and count malformed lines instead of failing */
} eng_swf_read_opts;

/* Reads PATH (plain or gzip, detected from content). On success *out is a
 * new workload the caller destroys. On failure *out is NULL and d holds
 * "PATH:LINE: ..." (or "PATH: ..." for I/O errors, empty file is not an
 * error: it gives zero jobs). opts may be NULL (strict). */
int eng_swf_read(const char *path, const eng_swf_read_opts *opts, eng_workload **out, eng_diag *d);

/* An empty workload labelled `label` (for generators). NULL on OOM. */
eng_workload *eng_workload_create(const char *label);

/* Appends a copy of job. ENG_OK or ENG_NOMEM. */
int eng_workload_push(eng_workload *w, const eng_job *job);

/* Adds a header entry (copies both strings; refreshes the parsed values). */
int eng_workload_set_header(eng_workload *w, const char *key, const char *value);

/* Frees everything. NULL-safe. */
void eng_workload_destroy(eng_workload *w);

typedef struct eng_swf_write_opts {
    const char *const *notes; /* extra "; Note: ..." lines after the header */
    size_t n_notes;
    /* When job is set, the jobs written are n_jobs of them, job i as
     * job(arg, i, &j) fills j, instead of the workload's own: a writer
     * streams jobs it derives without building a workload of them. The
     * header is still the workload's. */
    void (*job)(void *arg, size_t i, eng_job *j);
    void *arg;
    size_t n_jobs;
} eng_swf_write_opts;

/* Writes w as SWF 2.2 to PATH atomically (gzip when PATH ends in ".gz").
 * Header: Version 2.2, then the workload's own header entries except
 * Version, MaxJobs and MaxRecords (which are rewritten to match), then the
 * notes. Jobs in array order, 18 fields, integers without a fraction and
 * decimals in their shortest exact form, so reading the file back gives the
 * same values bit for bit. */
int eng_swf_write(const char *path, const eng_workload *w, const eng_swf_write_opts *opts,
                  eng_diag *d);

/* The same to an open stream (not atomic). Returns ENG_OK or ENG_IO. */
int eng_swf_write_stream(FILE *f, const eng_workload *w, const eng_swf_write_opts *opts);

/* The field names used in messages, 1-based ("run time" for 4). */
const char *eng_swf_field_name(int field);

#endif
