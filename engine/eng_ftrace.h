/* eng_ftrace.h — failure traces: host outages read from a text file, to be
 * replayed by the core (eng_failures.trace) instead of drawing failures
 * from the availability model.
 *
 * The format, one outage per line (the file may be gzip-compressed):
 *
 *     # host  down_at_s  up_at_s
 *     n17     3600       7200
 *     n2      5000.5     5400
 *
 * Host names are the platform's; times are seconds from the start of the
 * simulation (the workload's time origin), down_at >= 0 and up_at greater.
 * '#' starts a comment; blank lines are skipped. The outages may come in
 * any order and may overlap (a host's overlapping outages merge). Logs of
 * the Failure Trace Archive or a centre's node-state history convert to
 * this with one awk line. Names are checked against the platform when the
 * simulation starts. */
#ifndef ENG_FTRACE_H
#define ENG_FTRACE_H

#include "eng_core.h"
#include "eng_error.h"

#include <stddef.h>

typedef struct eng_ftrace {
    eng_fail_span *spans;
    size_t n;
    char **names; /* owned host names, one per span */
} eng_ftrace;

/* Reads path into out. Errors (ENG_IO, ENG_PARSE, ENG_NOMEM) name the file
 * and line; out is then empty. An empty trace (no outage) is valid. */
int eng_ftrace_read(const char *path, eng_ftrace *out, eng_diag *d);

void eng_ftrace_fini(eng_ftrace *t);

#endif
