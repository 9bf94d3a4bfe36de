/* bl_cores.c — see bl_cores.h. */
#include "bl_cores.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct hold {
    int64_t core;
    double start_s, end_s;
    size_t job;
} hold;

/* By core, then start; at one start a job of zero length first, so that
 * the jobs before it on its core all started strictly earlier. */
static int cmp_hold(const void *a, const void *b)
{
    const hold *x = a, *y = b;
    if (x->core != y->core)
        return x->core < y->core ? -1 : 1;
    if (x->start_s != y->start_s)
        return x->start_s < y->start_s ? -1 : 1;
    bool zx = x->end_s <= x->start_s, zy = y->end_s <= y->start_s;
    if (zx != zy)
        return zx ? -1 : 1;
    return (x->job > y->job) - (x->job < y->job);
}

static int fail(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return -1;
}

/* Counts and bounds; returns the number of cores named, or -1. */
static int64_t check_counts(const bl_core_use *jobs, size_t n, int64_t total, char *why, size_t len)
{
    int64_t all = 0;
    for (size_t i = 0; i < n; i++) {
        const bl_core_use *j = &jobs[i];
        int64_t named = 0;
        for (int32_t s = 0; s < j->n_spans; s++) {
            const eng_core_span *sp = &j->spans[s];
            if (sp->n <= 0 || sp->first < 0 || sp->first + sp->n > total)
                return fail(why, len, "job %lld: cores %lld.. outside the platform's %lld",
                            (long long)j->id, (long long)sp->first, (long long)total);
            named += sp->n;
        }
        int64_t want = j->start_s < 0 ? 0 : j->want;
        if (named != want)
            return fail(why, len, "job %lld names %lld cores, expected %lld", (long long)j->id,
                        (long long)named, (long long)want);
        all += named;
    }
    return all;
}

static int check_overlaps(const bl_core_use *jobs, size_t n, int64_t all, char *why, size_t len)
{
    hold *h = malloc(((size_t)all + 1) * sizeof *h);
    if (!h)
        return fail(why, len, "out of memory");
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (int32_t s = 0; s < jobs[i].n_spans; s++)
            for (int32_t c = 0; c < jobs[i].spans[s].n; c++)
                h[k++] = (hold){.core = jobs[i].spans[s].first + c,
                                .start_s = jobs[i].start_s,
                                .end_s = jobs[i].end_s,
                                .job = i};
    qsort(h, k, sizeof *h, cmp_hold);
    int rc = 0;
    size_t last = 0; /* the job of positive length ending latest so far on this core */
    bool any = false;
    for (size_t e = 0; e < k && !rc; e++) {
        if (e == 0 || h[e].core != h[e - 1].core)
            any = false;
        if (any && h[last].end_s > h[e].start_s &&
            (h[e].end_s > h[e].start_s || h[last].start_s < h[e].start_s))
            rc = fail(why, len, "core %lld held by jobs %lld and %lld at once",
                      (long long)h[e].core, (long long)jobs[h[last].job].id,
                      (long long)jobs[h[e].job].id);
        if (h[e].end_s > h[e].start_s && (!any || h[e].end_s > h[last].end_s)) {
            last = e;
            any = true;
        }
    }
    free(h);
    return rc;
}

/* The host holding core c: the last host whose first core is <= c. */
static size_t host_of(const int64_t *base, size_t n_hosts, int64_t c)
{
    size_t lo = 0, hi = n_hosts;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (base[mid] <= c)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static int check_hosts(const bl_core_use *jobs, size_t n, const eng_platform *p,
                       const eng_job_result *res, const eng_host_run *runs, char *why, size_t len)
{
    int64_t *base = malloc((p->n_hosts + 1) * sizeof *base);
    int64_t *named = calloc(p->n_hosts + 1, sizeof *named);
    int64_t *given = calloc(p->n_hosts + 1, sizeof *given);
    int rc = base && named && given ? 0 : fail(why, len, "out of memory");
    if (!rc) {
        base[0] = 0;
        for (size_t h = 0; h < p->n_hosts; h++)
            base[h + 1] = base[h] + p->hosts[h].cores;
    }
    for (size_t i = 0; i < n && !rc; i++) {
        if (jobs[i].start_s < 0)
            continue;
        for (int32_t s = 0; s < jobs[i].n_spans; s++)
            for (int32_t c = 0; c < jobs[i].spans[s].n; c++)
                named[host_of(base, p->n_hosts, jobs[i].spans[s].first + c)]++;
        for (int32_t u = 0; u < res[i].n_runs; u++) {
            const eng_host_run *run = &runs[res[i].runs_off + (size_t)u];
            for (int32_t k = 0; k < run->n; k++)
                given[run->host + k] += run->cores;
        }
        for (size_t h = 0; h < p->n_hosts; h++) {
            if (named[h] != given[h] && !rc)
                rc = fail(why, len, "job %lld: host %s: %lld cores named, %lld allocated",
                          (long long)jobs[i].id, p->hosts[h].name, (long long)named[h],
                          (long long)given[h]);
            named[h] = given[h] = 0;
        }
    }
    free(base);
    free(named);
    free(given);
    return rc;
}

int bl_cores_check(const bl_core_use *jobs, size_t n, const eng_platform *p,
                   const eng_job_result *res, const eng_host_run *runs, char *why, size_t why_len)
{
    int64_t all = check_counts(jobs, n, p->total_cores, why, why_len);
    if (all < 0)
        return -1;
    if (check_overlaps(jobs, n, all, why, why_len))
        return -1;
    if (res && runs && check_hosts(jobs, n, p, res, runs, why, why_len))
        return -1;
    return 0;
}

/* The index of name in the comma-separated header line, or -1. */
static int column(const char *header, const char *name)
{
    size_t want = strlen(name);
    int k = 0;
    for (const char *c = header;; k++) {
        const char *end = c + strcspn(c, ",\n");
        if ((size_t)(end - c) == want && strncmp(c, name, want) == 0)
            return k;
        if (*end != ',')
            return -1;
        c = end + 1;
    }
}

/* Field k of a row (up to the comma or the line's end) into buf. */
static void field(const char *row, int k, char *buf, size_t len)
{
    const char *c = row;
    for (int i = 0; i < k && *c && *c != '\n'; i++) {
        c += strcspn(c, ",\n");
        if (*c == ',')
            c++;
    }
    size_t n = strcspn(c, ",\n");
    if (n >= len)
        n = len - 1;
    memcpy(buf, c, n);
    buf[n] = '\0';
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 64;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, c * size);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* "0-3 7" into spans; -1 on a malformed set. */
static int parse_set(const char *s, bl_cores_csv *c, size_t *cap)
{
    while (*s) {
        char *end;
        long long a = strtoll(s, &end, 10), b = a;
        if (end == s)
            return -1;
        if (*end == '-') {
            s = end + 1;
            b = strtoll(s, &end, 10);
            if (end == s || b < a)
                return -1;
        }
        if (*end && *end != ' ')
            return -1;
        if (grow((void **)&c->spans, cap, c->n_spans + 1, sizeof *c->spans))
            return -1;
        c->spans[c->n_spans++] = (eng_core_span){.first = a, .n = (int32_t)(b - a + 1)};
        s = *end ? end + 1 : end;
    }
    return 0;
}

static int64_t named(const bl_core_use *j)
{
    int64_t n = 0;
    for (int32_t s = 0; s < j->n_spans; s++)
        n += j->spans[s].n;
    return n;
}

/* A packet's member runs on all of its packet's hosts: it should name the
 * cores its packet's first member names (at least its own request), not
 * its own request. */
typedef struct id_row {
    int64_t id;
    size_t row;
} id_row;

static int cmp_id(const void *a, const void *b)
{
    const id_row *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

static void packet_wants(bl_cores_csv *c, const int64_t *packet)
{
    id_row *ix = malloc((c->n_jobs + 1) * sizeof *ix);
    if (!ix)
        return; /* the counts then stay the requests: a check that fails loudly */
    for (size_t i = 0; i < c->n_jobs; i++)
        ix[i] = (id_row){.id = c->jobs[i].id, .row = i};
    qsort(ix, c->n_jobs, sizeof *ix, cmp_id);
    for (size_t i = 0; i < c->n_jobs; i++) {
        if (packet[i] < 0 || c->jobs[i].start_s < 0)
            continue;
        id_row key = {.id = packet[i]};
        const id_row *first = bsearch(&key, ix, c->n_jobs, sizeof *ix, cmp_id);
        int64_t held = first ? named(&c->jobs[first->row]) : 0;
        if (held >= c->jobs[i].want)
            c->jobs[i].want = held;
    }
    free(ix);
}

int bl_cores_csv_parse(const char *text, bl_cores_csv *out, char *why, size_t why_len)
{
    memset(out, 0, sizeof *out);
    int col[5];
    static const char *const names[] = {"job_id", "requested_number_of_resources", "starting_time",
                                        "finish_time", "allocated_resources"};
    for (int k = 0; k < 5; k++)
        if ((col[k] = column(text, names[k])) < 0)
            return fail(why, why_len, "jobs.csv: no column %s", names[k]);
    int col_packet = column(text, "packet"); /* ours, optional */
    size_t cap_jobs = 0, cap_spans = 0, cap_packet = 0;
    size_t *first = NULL, cap_first = 0;
    int64_t *packet = NULL;
    const char *row = strchr(text, '\n');
    int rc = 0;
    for (; row && row[1] && !rc; row = strchr(row + 1, '\n')) {
        row++;
        char buf[4096];
        if (grow((void **)&out->jobs, &cap_jobs, out->n_jobs + 1, sizeof *out->jobs) ||
            grow((void **)&first, &cap_first, out->n_jobs + 1, sizeof *first)) {
            rc = -1;
            break;
        }
        bl_core_use *j = &out->jobs[out->n_jobs];
        field(row, col[0], buf, sizeof buf);
        j->id = strtoll(buf, NULL, 10);
        field(row, col[1], buf, sizeof buf);
        j->want = strtoll(buf, NULL, 10);
        field(row, col[2], buf, sizeof buf);
        j->start_s = strtod(buf, NULL);
        field(row, col[3], buf, sizeof buf);
        j->end_s = strtod(buf, NULL);
        if (col_packet >= 0) {
            if (grow((void **)&packet, &cap_packet, out->n_jobs + 1, sizeof *packet)) {
                rc = -1;
                break;
            }
            field(row, col_packet, buf, sizeof buf);
            packet[out->n_jobs] = buf[0] ? strtoll(buf, NULL, 10) : -1;
        }
        field(row, col[4], buf, sizeof buf);
        first[out->n_jobs] = out->n_spans;
        if (parse_set(buf, out, &cap_spans))
            rc = fail(why, why_len, "jobs.csv: job %lld: allocated_resources not a set",
                      (long long)j->id);
        j->n_spans = (int32_t)(out->n_spans - first[out->n_jobs]);
        out->n_jobs++;
    }
    /* the spans moved as they grew: point at them now */
    for (size_t i = 0; i < out->n_jobs; i++)
        out->jobs[i].spans = out->spans + first[i];
    free(first);
    if (rc == 0 && col_packet >= 0)
        packet_wants(out, packet);
    free(packet);
    if (rc)
        bl_cores_csv_fini(out);
    return rc;
}

void bl_cores_csv_fini(bl_cores_csv *c)
{
    free(c->jobs);
    free(c->spans);
    memset(c, 0, sizeof *c);
}
