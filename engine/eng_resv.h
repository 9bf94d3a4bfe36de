/* eng_resv.h — reservations (--reservations FILE): hosts held for a window
 * of time, in which they run no job, with Slurm's semantics and keyword
 * names (scontrol create reservation); and the candidate outages of a log
 * (`batchlab info --outages`), written in the same format.
 *
 * The file, one reservation per line, '#' comments and blank lines
 * allowed, keywords in any order and of any case:
 *
 *     ReservationName=NAME StartTime=T EndTime=T Nodes=HOSTLIST [Flags=MAINT]
 *
 * T is seconds from the trace's start (the clock of SWF submit times),
 * decimals allowed; Duration=SECONDS may stand for EndTime. HOSTLIST is ALL
 * or host names separated by commas, each with at most one bracketed list
 * of numbers and ranges, zero-padded as written ("node[1-4,7],login1").
 * Flags=MAINT, a maintenance, holds the whole machine (Nodes is then ALL or
 * absent).
 *
 * Repeating reservations (Slurm's flags, at most one, beside MAINT, as
 * Flags=MAINT,WEEKDAY): HOURLY repeats every 3600 s; DAILY, WEEKDAY
 * (Monday to Friday), WEEKEND (Saturday and Sunday) and WEEKLY at
 * StartTime's time of day on each such day of the trace's calendar, each
 * occurrence as long as the first. The calendar: the trace's clock starts
 * at the SWF header's UnixStartTime, read in TimeZone=ZONE (a zoneinfo
 * name such as Europe/Stockholm, or UTC) where the line gives one, else
 * in the header's TimeZoneString, else UTC; a calendar repeat in a log
 * without UnixStartTime is an error. The first occurrence is StartTime
 * itself where its day qualifies, else the next day that does. Until=T
 * (seconds, our keyword: Slurm's repeat has no end) ends the repeats:
 * occurrences start at or before it; without it they start at or before
 * the workload's last submit time (the queue then drains without them).
 * Every occurrence is then a window like any other (eng_resvs_expand).
 *
 * Limit windows (MaxTime=SECONDS, our keyword): a line with MaxTime holds
 * no host; in its window a job may start only if its requested time
 * (estimate) is at most MaxTime, as the run-time limits by time of day of
 * the 1990s machines (the KTH SP2's 4 h on weekdays, 15 h on weekday
 * nights, 60 h on weekends) and a Slurm partition whose MaxTime a site
 * lowers by day. It covers the whole machine (Nodes ALL or absent, no
 * MAINT), repeats as above, and limit windows may not overlap one another.
 * A job the limit keeps from starting is not shown to the policy (it waits
 * as Slurm's jobs pending for PartitionTimeLimit do, holding no place in a
 * plan) until a window admits it; the engine refuses a start against a
 * limit (ENG_INVARIANT). Policies that take their queue as shown at each
 * call declare POL_FLAG_TIME_LIMITS (fcfs, easy, slurm).
 *
 * Maintenance windows may overlap one another, as Slurm lets a
 * maintenance reservation take hosts already reserved: eng_resvs_expand
 * merges overlapping (not merely touching) MAINT windows into their union,
 * which keeps the first one's name and line.
 *
 * Semantics (Slurm's): a held host runs no job in [start, end); a job may
 * start on it before the window only if its planned end (start + estimate,
 * which no job outlives: eng_prep.h) is at or before the window's start;
 * nothing running is killed, since no job that could overlap a window
 * starts. The core places jobs (eng_alloc.c) and the checker verifies it
 * (eng_check.c); policies see the windows in the view (pol_view.resv).
 *
 * Errors (ENG_PARSE at reading, ENG_INVAL at resolving against the
 * platform) name the file and line and what was expected: an unknown
 * keyword or flag, a missing one, an unparsable time, end <= start, an
 * unknown host, two windows that overlap on one host (occurrences of one
 * repeating reservation included), an unknown time zone.
 */
#ifndef ENG_RESV_H
#define ENG_RESV_H

#include "eng_error.h"
#include "eng_platform.h"
#include "eng_swf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum eng_resv_repeat {
    ENG_RESV_ONCE,
    ENG_RESV_HOURLY,
    ENG_RESV_DAILY,
    ENG_RESV_WEEKDAY,
    ENG_RESV_WEEKEND,
    ENG_RESV_WEEKLY,
} eng_resv_repeat;

typedef struct eng_resv {
    char *name;
    double start_s, end_s; /* 0 <= start < end */
    bool maint;            /* Flags=MAINT: the whole machine */
    char *nodes;           /* the HOSTLIST as written ("ALL" for the whole machine) */
    long line;
    eng_resv_repeat repeat; /* ENG_RESV_ONCE after eng_resvs_expand */
    double until_s;         /* Until=, or -1 */
    char *zone;             /* TimeZone=, or NULL */
    double max_time_s;      /* MaxTime=: a limit window (in v: -1) */
} eng_resv;

typedef struct eng_resvs {
    char *path;
    eng_resv *v; /* in file order (occurrences of a line in time order) */
    size_t n;
    size_t n_repeat; /* lines with a repeat flag, as read */
    eng_resv *lim;   /* limit windows (MaxTime= lines): in file order; by start
                      * and not overlapping after eng_resvs_expand */
    size_t n_lim;
} eng_resvs;

/* Reads path into out (caller's storage; release with eng_resvs_fini).
 * ENG_IO, ENG_PARSE (file:line: what was expected), ENG_NOMEM; out is then
 * empty. A file without reservations is valid. */
int eng_resvs_read(const char *path, eng_resvs *out, eng_diag *d);

void eng_resvs_fini(eng_resvs *r);

/* Replaces each repeating reservation of r (holds and limit windows) by
 * its occurrences, on the calendar of header h (UnixStartTime,
 * TimeZoneString), up to each line's Until or else last_submit_s; merges
 * overlapping MAINT windows; sorts the limit windows by start and checks
 * that they do not overlap. ENG_PARSE (file:line: a calendar repeat
 * without UnixStartTime, an unknown zone, more than ENG_RESV_MAX_REPEATS
 * occurrences, overlapping limit windows) or ENG_NOMEM; r is unchanged on
 * error. */
#define ENG_RESV_MAX_REPEATS 100000
int eng_resvs_expand(eng_resvs *r, const eng_swf_header *h, double last_submit_s, eng_diag *d);

/* eng_resvs_expand on workload w's header, up to its last submit time. */
int eng_resvs_expand_on(eng_resvs *r, const eng_workload *w, eng_diag *d);

/* The windows of the reservations on each platform host: host h's are
 * w[off[h]] .. w[off[h + 1] - 1], by start (so by end too: they do not
 * overlap). */
typedef struct eng_hold {
    double start_s, end_s;
    int32_t resv; /* index in eng_resvs.v */
} eng_hold;

typedef struct eng_holds {
    size_t *off; /* n_hosts + 1 */
    eng_hold *w;
    size_t n;
} eng_holds;

/* Expands every reservation's hosts on platform p into out (caller's
 * storage; release with eng_holds_fini) and checks that no two windows
 * overlap on one host. ENG_INVAL (file:line: what was expected) or
 * ENG_NOMEM; out is then empty. */
int eng_resvs_resolve(const eng_resvs *r, const eng_platform *p, eng_holds *out, eng_diag *d);

void eng_holds_fini(eng_holds *h);

/* The window of host h that meets [from, to), or NULL. O(log windows). */
const eng_hold *eng_holds_meet(const eng_holds *h, int32_t host, double from, double to);

/* Marks in mark[] (one per platform host) the hosts of a hostlist
 * ("n[1-4,7],login"; "ALL": every host). 0, or ENG_INVAL with what is
 * wrong in why ("host 'x' is not in platform p.xml"). */
int eng_hostlist_mark(const eng_platform *p, const char *list, bool *mark, char *why,
                      size_t why_len);

/* ---- a log against a reservation file -------------------------------
 *
 * Whether the schedule a log records kept to expanded reservations r (by
 * its own start, submit + wait, and end, start + run time): the jobs that
 * ran in a maintenance window (the log gives no hosts, so holds of some
 * hosts are not checked), and those that started in a limit window over
 * its MaxTime (their requested time, field 9, else their run time). How a
 * user checks a calendar written for a log, and its clock's reading,
 * against what the machine did. Jobs without a submit, wait or run time
 * are left out. */
typedef struct eng_resv_obey {
    size_t jobs;         /* jobs with a logged start and run time */
    size_t in_maint;     /* ran in a maintenance window */
    size_t over_limit;   /* started in a limit window over its MaxTime */
    int64_t first_maint; /* the first of each in submit order (job number), or -1 */
    int64_t first_over;
    size_t n_maint; /* maintenance windows checked */
} eng_resv_obey;

/* Fills out; 0 or ENG_NOMEM. O((jobs + windows) log windows). */
int eng_resvs_obeyed(const eng_resvs *r, const eng_workload *w, eng_resv_obey *out);

/* ---- candidate outages of a log ---------------------------------------
 *
 * A stretch in which the log shows no job running while jobs were waiting
 * (submitted and not yet started, by the log's own wait, field 3): the
 * machine was most likely down or drained, since any waiting job that
 * fits an empty machine starts at once under any policy. Jobs with an
 * unknown submit, wait or run time are left out (counted). */
typedef struct eng_outage {
    double start_s, end_s;
    size_t waiting; /* jobs waiting at some moment of the stretch */
} eng_outage;

/* The stretches of at least min_gap_s seconds, in time order, into *out
 * (caller frees); *n_skipped the jobs left out. 0 or ENG_NOMEM. O(n log n). */
int eng_outages_find(const eng_workload *w, double min_gap_s, eng_outage **out, size_t *n,
                     size_t *n_skipped);

#endif
