/* eng_swf.c — the SWF reader and writer; the contract is eng_swf.h.
 *
 * Format: the Parallel Workloads Archive's Standard Workload Format 2.2
 * (Chapin et al. 1999; Feitelson, Tsafrir & Krakov 2014).
 *
 * Reading is one pass over the bytes. zlib's gzread() decompresses .gz
 * content and passes plain files through unchanged; we split its output into
 * lines ourselves (so a line may be of any length and a NUL byte is seen),
 * cut each data line into its 18 fields in place and convert them without
 * allocating: a job costs its slot in the job array and nothing else.
 *
 * Header keys may appear anywhere in the file, so everything that depends on
 * them (the parsed header values, the Preemption policy for partial lines)
 * is decided after the last line. Then three linear passes over the jobs:
 * partial-execution lines (skipped, or merged through a hash map keyed by job
 * number), duplicate job numbers (another hash map), and the count of
 * out-of-order submits followed, only when there are some, by a sort on
 * (submit time, source line). Source lines are unique, so that order is
 * total and equals what a stable sort by submit time gives.
 * Time O(n log n) at worst, O(n) for a sorted file; temporary memory O(n).
 *
 * Invariant kept on success: w->jobs holds n_jobs jobs in (submit_s, line)
 * order, those of unknown submit time (-1) after all others in line order,
 * every field valid per the header comment of eng_swf.h, and
 * cap_jobs == n_jobs (the array is trimmed to size).
 */
#define _POSIX_C_SOURCE 200809L /* fileno, dup */
#include "eng_swf.h"

#include "eng_util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* ------------------------------------------------------------------ */
/* Fields                                                              */

enum { FIELD_INT, FIELD_NUM };

/* `lax`: a field the replay does not use. A number out of its range there
 * is read as -1 (unknown) and counted in n_ignored[], not fatal: archive
 * logs store exit codes in the status field, or negative think times, and
 * the replay should not refuse a whole log for them. */
static const struct {
    const char *name;
    int kind; /* FIELD_INT: integers only; FIELD_NUM: decimals allowed */
    bool lax;
} swf_fields[19] = {
    [1] = {"job number", FIELD_INT, false},
    [2] = {"submit time", FIELD_NUM, false},
    [3] = {"wait time", FIELD_NUM, true},
    [4] = {"run time", FIELD_NUM, false},
    [5] = {"allocated processors", FIELD_INT, false},
    [6] = {"average CPU time", FIELD_NUM, true},
    [7] = {"used memory", FIELD_NUM, true},
    [8] = {"requested processors", FIELD_INT, false},
    [9] = {"requested time", FIELD_NUM, false},
    [10] = {"requested memory", FIELD_NUM, true},
    [11] = {"status", FIELD_INT, true},
    [12] = {"user", FIELD_INT, true},
    [13] = {"group", FIELD_INT, true},
    [14] = {"executable", FIELD_INT, false},
    [15] = {"queue", FIELD_INT, false},
    [16] = {"partition", FIELD_INT, false},
    [17] = {"preceding job", FIELD_INT, true},
    [18] = {"think time", FIELD_NUM, true},
};

bool eng_swf_field_lax(int field)
{
    return field >= 1 && field <= 18 && swf_fields[field].lax;
}

const char *eng_swf_field_name(int field)
{
    return field >= 1 && field <= 18 ? swf_fields[field].name : "unknown field";
}

eng_job eng_job_unknown(void)
{
    return (eng_job){
        .id = 0,
        .submit_s = -1,
        .wait_s = -1,
        .runtime_s = -1,
        .procs_alloc = -1,
        .cpu_avg_s = -1,
        .mem_used_kb = -1,
        .procs_req = -1,
        .time_req_s = -1,
        .mem_req_kb = -1,
        .status = -1,
        .user = -1,
        .group = -1,
        .app = -1,
        .queue = -1,
        .partition = -1,
        .prev_job = -1,
        .think_s = -1,
        .line = 0,
    };
}

/* ------------------------------------------------------------------ */
/* Header                                                              */

#define HDR_NUM(member) offsetof(eng_swf_header, member), true
#define HDR_STR(member) offsetof(eng_swf_header, member), false

/* The keys with a parsed field. Keys are case-sensitive, as in the spec. */
static const struct {
    const char *key;
    size_t offset;
    bool numeric;
} hdr_keys[] = {
    {"MaxJobs", HDR_NUM(max_jobs)},
    {"MaxRecords", HDR_NUM(max_records)},
    {"MaxNodes", HDR_NUM(max_nodes)},
    {"MaxProcs", HDR_NUM(max_procs)},
    {"UnixStartTime", HDR_NUM(unix_start_time)},
    {"MaxRuntime", HDR_NUM(max_runtime)},
    {"MaxQueues", HDR_NUM(max_queues)},
    {"MaxPartitions", HDR_NUM(max_partitions)},
    {"Version", HDR_STR(version)},
    {"Computer", HDR_STR(computer)},
    {"Installation", HDR_STR(installation)},
    {"Preemption", HDR_STR(preemption)},
    {"TimeZoneString", HDR_STR(time_zone_string)},
    {"Queues", HDR_STR(queues_text)},
    {"Partitions", HDR_STR(partitions_text)},
};
#define N_HDR_KEYS (sizeof hdr_keys / sizeof hdr_keys[0])

/* The leading integer of a header value ("1173 (1152 + 21)" gives 1173);
 * -1 when the value does not start with one. */
static int64_t leading_int(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    const char *p = s;
    if (*p == '+' || *p == '-')
        p++;
    if (*p < '0' || *p > '9')
        return -1;
    errno = 0;
    long long v = strtoll(s, NULL, 10);
    return errno == ERANGE ? -1 : (int64_t)v;
}

/* Recomputes the parsed fields from kv[]: each from its key's first
 * occurrence. */
static void hdr_refresh(eng_swf_header *h)
{
    bool seen[N_HDR_KEYS] = {false};
    for (size_t k = 0; k < N_HDR_KEYS; k++) {
        char *field = (char *)h + hdr_keys[k].offset;
        if (hdr_keys[k].numeric)
            *(int64_t *)(void *)field = -1;
        else
            *(const char **)(void *)field = NULL;
    }
    for (size_t i = 0; i < h->n_kv; i++) {
        for (size_t k = 0; k < N_HDR_KEYS; k++) {
            if (seen[k] || strcmp(h->kv[i].key, hdr_keys[k].key) != 0)
                continue;
            seen[k] = true;
            char *field = (char *)h + hdr_keys[k].offset;
            if (hdr_keys[k].numeric)
                *(int64_t *)(void *)field = leading_int(h->kv[i].value);
            else
                *(const char **)(void *)field = h->kv[i].value;
            break;
        }
    }
}

static int hdr_push(eng_swf_header *h, const char *key, size_t key_len, const char *value,
                    size_t value_len)
{
    size_t cap = h->n_kv; /* kv[] is grown one slot at a time: headers are short */
    eng_swf_kv *kv = realloc(h->kv, (cap + 1) * sizeof *kv);
    if (!kv)
        return ENG_NOMEM;
    h->kv = kv;
    char *k = eng_strndup(key, key_len);
    char *v = eng_strndup(value, value_len);
    if (!k || !v) {
        free(k);
        free(v);
        return ENG_NOMEM;
    }
    kv[h->n_kv++] = (eng_swf_kv){.key = k, .value = v};
    return ENG_OK;
}

static void hdr_fini(eng_swf_header *h)
{
    for (size_t i = 0; i < h->n_kv; i++) {
        free(h->kv[i].key);
        free(h->kv[i].value);
    }
    free(h->kv);
    h->kv = NULL;
    h->n_kv = 0;
}

/* ------------------------------------------------------------------ */
/* Workload                                                            */

eng_workload *eng_workload_create(const char *label)
{
    eng_workload *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->path = eng_strdup(label ? label : "");
    if (!w->path) {
        free(w);
        return NULL;
    }
    hdr_refresh(&w->hdr);
    return w;
}

int eng_workload_push(eng_workload *w, const eng_job *job)
{
    if (eng_grow(&w->jobs, &w->cap_jobs, w->n_jobs + 1, sizeof *w->jobs) != ENG_OK)
        return ENG_NOMEM;
    w->jobs[w->n_jobs++] = *job;
    return ENG_OK;
}

int eng_workload_set_header(eng_workload *w, const char *key, const char *value)
{
    if (!key || !value)
        return ENG_INVAL;
    int rc = hdr_push(&w->hdr, key, strlen(key), value, strlen(value));
    for (size_t k = 0; k < N_HDR_KEYS; k++)
        if (strcmp(key, hdr_keys[k].key) == 0) { /* other keys change nothing */
            hdr_refresh(&w->hdr);
            break;
        }
    return rc;
}

void eng_workload_destroy(eng_workload *w)
{
    if (!w)
        return;
    hdr_fini(&w->hdr);
    free(w->jobs);
    free(w->path);
    free(w);
}

/* ------------------------------------------------------------------ */
/* Reader: lines                                                       */

typedef struct swf_reader {
    const char *path;
    bool lenient;
    eng_workload *w;
    eng_diag *d;
    int64_t line;    /* current line, 1-based */
    long cont;       /* kv index that a keyless comment continues, or -1 */
    size_t cont_cap; /* allocated size of kv[cont].value */
} swf_reader;

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* A token as shown in a message: printable ASCII as is, other bytes as
 * \xNN, long tokens cut with "...". */
static const char *show(char *buf, size_t len, const char *s)
{
    size_t n = 0;
    for (; *s && n + 8 < len; s++) {
        unsigned char c = (unsigned char)*s;
        if (n >= 48) {
            memcpy(buf + n, "...", 3);
            n += 3;
            break;
        }
        if (c >= 0x20 && c < 0x7f && c != '\'')
            buf[n++] = (char)c;
        else
            n += (size_t)snprintf(buf + n, len - n, "\\x%02x", c);
    }
    buf[n] = '\0';
    return buf;
}

/* A malformed line: fails the read (ENG_PARSE) or, when lenient, counts it
 * and returns ENG_OK so that the caller skips the line. */
static int malformed(swf_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int malformed(swf_reader *r, const char *fmt, ...)
{
    char what[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (!r->lenient)
        return eng_diag_set(r->d, ENG_PARSE, "%s:%lld: %s", r->path, (long long)r->line, what);
    if (r->w->n_malformed++ == 0) {
        char full[1024];
        snprintf(full, sizeof full, "%s:%lld: %s", r->path, (long long)r->line, what);
        size_t n = strnlen(full, sizeof r->w->first_malformed - 1);
        memcpy(r->w->first_malformed, full, n);
        r->w->first_malformed[n] = '\0';
    }
    return ENG_OK;
}

/* [+-]?[0-9]+ and nothing else. 0 ok, 1 not an integer, 2 beyond int64. */
static int parse_i64(const char *s, int64_t *out)
{
    bool neg = false;
    if (*s == '+' || *s == '-')
        neg = *s++ == '-';
    if (*s < '0' || *s > '9')
        return 1;
    uint64_t x = 0;
    bool over = false;
    for (; *s >= '0' && *s <= '9'; s++) {
        unsigned dig = (unsigned)(*s - '0');
        if (x > (UINT64_MAX - dig) / 10)
            over = true;
        else
            x = x * 10 + dig;
    }
    if (*s)
        return 1;
    if (over || x > (uint64_t)INT64_MAX + (neg ? 1u : 0u))
        return 2;
    *out = neg ? (int64_t)(0 - x) : (int64_t)x;
    return 0;
}

/* A plain decimal number: [+-]? (D+ [. D*] | . D+) [(e|E) [+-] D+]. This
 * rules out what strtod() would also take: hex, "nan", "inf". */
static bool is_decimal(const char *s)
{
    bool digits = false;
    if (*s == '+' || *s == '-')
        s++;
    for (; *s >= '0' && *s <= '9'; s++)
        digits = true;
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++)
            digits = true;
    if (!digits)
        return false;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (*s < '0' || *s > '9')
            return false;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    return *s == '\0';
}

/* Converts field f's token into job; ENG_OK or what malformed() says. */
static int parse_field(swf_reader *r, int f, const char *tok, eng_job *job)
{
    char shown[80];
    int64_t iv = 0;
    double dv = 0;
    int rc = parse_i64(tok, &iv);
    if (swf_fields[f].kind == FIELD_INT) {
        if (rc == 1)
            return malformed(r, "field %d (%s): expected an integer, got '%s'", f,
                             swf_fields[f].name, show(shown, sizeof shown, tok));
        if (rc == 2)
            return malformed(r, "field %d (%s): expected an integer that fits in 64 bits, got '%s'",
                             f, swf_fields[f].name, show(shown, sizeof shown, tok));
        dv = (double)iv;
    } else if (rc == 0 && iv > -(INT64_C(1) << 53) && iv < (INT64_C(1) << 53)) {
        dv = (double)iv; /* exact; the common case, and faster than strtod */
    } else {
        if (!is_decimal(tok))
            return malformed(r, "field %d (%s): expected a number, got '%s'", f, swf_fields[f].name,
                             show(shown, sizeof shown, tok));
        dv = strtod(tok, NULL);
        if (!isfinite(dv))
            return malformed(r, "field %d (%s): expected a finite number, got '%s'", f,
                             swf_fields[f].name, show(shown, sizeof shown, tok));
    }
    if (dv == 0)
        dv = 0; /* "-0" reads as +0, so that it writes back as it reads */

    bool in_range = f == 11 ? iv >= -1 && iv <= 5 : f == 1 ? dv >= 0 : dv >= 0 || dv == -1;
    if (!in_range && swf_fields[f].lax) {
        r->w->n_ignored[f]++;
        iv = -1;
        dv = -1;
    } else if (!in_range) {
        return malformed(r, "field %d (%s): expected a value >= 0%s, got '%s'", f,
                         swf_fields[f].name, f == 1 ? "" : " or -1",
                         show(shown, sizeof shown, tok));
    }
    if ((f == 5 || f == 8) && iv > INT32_MAX)
        return malformed(r, "field %d (%s): expected at most %d processors, got '%s'", f,
                         swf_fields[f].name, INT32_MAX, show(shown, sizeof shown, tok));

    switch (f) {
    case 1:
        job->id = iv;
        break;
    case 2:
        job->submit_s = dv;
        break;
    case 3:
        job->wait_s = dv;
        break;
    case 4:
        job->runtime_s = dv;
        break;
    case 5:
        job->procs_alloc = iv;
        break;
    case 6:
        job->cpu_avg_s = dv;
        break;
    case 7:
        job->mem_used_kb = dv;
        break;
    case 8:
        job->procs_req = iv;
        break;
    case 9:
        job->time_req_s = dv;
        break;
    case 10:
        job->mem_req_kb = dv;
        break;
    case 11:
        job->status = (int32_t)iv;
        break;
    case 12:
        job->user = iv;
        break;
    case 13:
        job->group = iv;
        break;
    case 14:
        job->app = iv;
        break;
    case 15:
        job->queue = iv;
        break;
    case 16:
        job->partition = iv;
        break;
    case 17:
        job->prev_job = iv;
        break;
    case 18:
        job->think_s = dv;
        break;
    }
    return ENG_OK;
}

static int data_line(swf_reader *r, char *s)
{
    char *tok[18];
    size_t n = 0;
    for (char *p = s;;) {
        while (is_blank(*p))
            p++;
        if (!*p)
            break;
        if (n < 18)
            tok[n] = p;
        n++;
        while (*p && !is_blank(*p))
            p++;
        if (*p)
            *p++ = '\0';
    }
    if (n != 18)
        return malformed(r, "expected 18 fields, found %zu", n);

    eng_job job = eng_job_unknown();
    job.line = r->line;
    size_t before = r->w->n_malformed;
    for (int f = 1; f <= 18; f++) {
        int rc = parse_field(r, f, tok[f - 1], &job);
        if (rc != ENG_OK)
            return rc;
        if (r->w->n_malformed != before)
            return ENG_OK; /* lenient: skipped */
    }
    eng_workload *w = r->w;
    if (eng_grow(&w->jobs, &w->cap_jobs, w->n_jobs + 1, sizeof *w->jobs) != ENG_OK)
        return eng_diag_set(r->d, ENG_NOMEM, "%s:%lld: out of memory", r->path, (long long)r->line);
    w->jobs[w->n_jobs++] = job;
    return ENG_OK;
}

/* The keys that SWF 2.2 defines. */
static bool is_spec_key(const char *key, size_t len)
{
    static const char *const keys[] = {
        "Version",    "Computer",       "Installation",  "Acknowledge",  "Information",
        "Conversion", "MaxJobs",        "MaxRecords",    "Preemption",   "UnixStartTime",
        "TimeZone",   "TimeZoneString", "StartTime",     "EndTime",      "MaxNodes",
        "MaxProcs",   "MaxRuntime",     "MaxMemory",     "AllowOveruse", "MaxQueues",
        "Queues",     "Queue",          "MaxPartitions", "Partitions",   "Partition",
        "Note",
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strlen(keys[i]) == len && memcmp(keys[i], key, len) == 0)
            return true;
    return false;
}

/* "Key: value" (key: a letter, then letters, digits or '_', then ':' and a
 * blank or the end; or a key of the spec and ':' directly followed by the
 * value), or a keyless comment that continues the last key. The blank
 * keeps "http://..." on a continuation line from reading as a key. */
static int comment_line(swf_reader *r, char *p)
{
    eng_swf_header *h = &r->w->hdr;
    while (is_blank(*p))
        p++;
    size_t len = strlen(p);
    while (len > 0 && is_blank(p[len - 1]))
        p[--len] = '\0';
    if (len == 0) { /* a bare ';' ends a continuation */
        r->cont = -1;
        return ENG_OK;
    }
    char *q = p;
    if ((*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z')) {
        while ((*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') ||
               *q == '_')
            q++;
        if (*q == ':' && (q[1] == '\0' || is_blank(q[1]) || is_spec_key(p, (size_t)(q - p)))) {
            char *v = q + 1;
            while (is_blank(*v))
                v++;
            size_t vlen = len - (size_t)(v - p);
            if (hdr_push(h, p, (size_t)(q - p), v, vlen) != ENG_OK)
                return eng_diag_set(r->d, ENG_NOMEM, "%s:%lld: out of memory", r->path,
                                    (long long)r->line);
            r->cont = (long)h->n_kv - 1;
            r->cont_cap = vlen + 1;
            /* A first guess of the job count spares some of the array's
             * doubling; the header is not trusted beyond 65 536 jobs (10 MB),
             * or a one-line file claiming millions of records would take
             * gigabytes. */
            if (strcmp(h->kv[r->cont].key, "MaxRecords") == 0 && r->w->n_jobs == 0) {
                int64_t n = leading_int(v);
                if (n > 0 && n <= (INT64_C(1) << 16))
                    (void)eng_grow(&r->w->jobs, &r->w->cap_jobs, (size_t)n, sizeof(eng_job));
            }
            return ENG_OK;
        }
    }
    if (r->cont < 0)
        return ENG_OK; /* a banner line that belongs to no key */
    eng_swf_kv *kv = &h->kv[r->cont];
    size_t old = strlen(kv->value);
    size_t sep = old ? 1 : 0;
    if (old + sep + len + 1 > r->cont_cap) {
        size_t cap = r->cont_cap * 2;
        if (cap < old + sep + len + 1)
            cap = old + sep + len + 1;
        char *nv = realloc(kv->value, cap);
        if (!nv)
            return eng_diag_set(r->d, ENG_NOMEM, "%s:%lld: out of memory", r->path,
                                (long long)r->line);
        kv->value = nv;
        r->cont_cap = cap;
    }
    if (sep)
        kv->value[old] = '\n';
    memcpy(kv->value + old + sep, p, len + 1);
    return ENG_OK;
}

/* One line, without its '\n'; s[len] may be overwritten. */
static int handle_line(swf_reader *r, char *s, size_t len)
{
    if (len > 0 && s[len - 1] == '\r')
        len--;
    s[len] = '\0';
    const char *nul = memchr(s, '\0', len);
    if (nul) {
        r->cont = -1;
        r->w->n_data_lines++;
        return malformed(r, "expected text, found a NUL byte in column %zu (binary data?)",
                         (size_t)(nul - s) + 1);
    }
    char *p = s;
    while (is_blank(*p))
        p++;
    if (*p == ';')
        return comment_line(r, p + 1);
    r->cont = -1;
    if (!*p)
        return ENG_OK;
    r->w->n_data_lines++;
    return data_line(r, p);
}

/* zlib's message for the stream's error, without the path it prefixes. */
static const char *gz_message(gzFile gz, const char *path, int *errnum)
{
    const char *msg = gzerror(gz, errnum);
    size_t n = strlen(path);
    if (msg && strncmp(msg, path, n) == 0 && strncmp(msg + n, ": ", 2) == 0)
        msg += n + 2;
    return msg ? msg : "unknown zlib error";
}

static int gz_failure(swf_reader *r, gzFile gz)
{
    int errnum = Z_OK;
    const char *msg = gz_message(gz, r->path, &errnum);
    if (errnum == Z_ERRNO)
        return eng_diag_set(r->d, ENG_IO, "%s: read error: %s", r->path, strerror(errno));
    if (errnum == Z_MEM_ERROR)
        return eng_diag_set(r->d, ENG_NOMEM, "%s: out of memory", r->path);
    return eng_diag_set(r->d, ENG_IO, "%s: corrupt or truncated gzip data: %s", r->path, msg);
}

/* Feeds every line of the file to handle_line(). */
static int read_lines(swf_reader *r)
{
    if (eng_check_not_dir(r->path, "an SWF log", r->d) != ENG_OK)
        return ENG_IO;
    errno = 0;
    gzFile gz = gzopen(r->path, "rb");
    if (!gz)
        return eng_diag_set(r->d, ENG_IO, "%s: cannot open: %s", r->path,
                            errno ? strerror(errno) : "out of memory");
    gzbuffer(gz, 1u << 16);

    size_t cap = (1u << 16) - 64, start = 0, end = 0; /* below allocators' mmap threshold */
    char *buf = malloc(cap + 1);                      /* +1: room for the last line's terminator */
    int rc = buf ? ENG_OK : eng_diag_set(r->d, ENG_NOMEM, "%s: out of memory", r->path);
    bool eof = false;
    while (rc == ENG_OK) {
        char *nl = memchr(buf + start, '\n', end - start);
        if (nl) {
            size_t len = (size_t)(nl - (buf + start));
            r->line++;
            rc = handle_line(r, buf + start, len);
            start += len + 1;
            continue;
        }
        if (eof) {
            if (end > start) {
                r->line++;
                rc = handle_line(r, buf + start, end - start);
            }
            break;
        }
        if (start > 0) {
            memmove(buf, buf + start, end - start);
            end -= start;
            start = 0;
        }
        if (end == cap) { /* one line fills the buffer: grow it */
            char *nb = cap < SIZE_MAX / 4 ? realloc(buf, cap * 2 + 1) : NULL;
            if (!nb) {
                rc = eng_diag_set(r->d, ENG_NOMEM, "%s:%lld: line too long", r->path,
                                  (long long)r->line + 1);
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t want = cap - end < (size_t)INT_MAX ? cap - end : (size_t)INT_MAX;
        int got = gzread(gz, buf + end, (unsigned)want);
        if (got < 0) {
            rc = gz_failure(r, gz);
            break;
        }
        if (got == 0) {
            /* gzread() reports a stream cut short as a plain end of file;
             * only gzerror() tells the two apart. */
            int errnum = Z_OK;
            gz_message(gz, r->path, &errnum);
            if (errnum != Z_OK) {
                rc = gz_failure(r, gz);
                break;
            }
            eof = true;
        }
        end += (size_t)got;
    }
    free(buf);
    int zc = gzclose_r(gz);
    if (rc == ENG_OK && zc != Z_OK) {
        if (zc == Z_ERRNO)
            rc = eng_diag_set(r->d, ENG_IO, "%s: read error: %s", r->path, strerror(errno));
        else
            rc = eng_diag_set(r->d, ENG_IO, "%s: corrupt or truncated gzip data (zlib error %d)",
                              r->path, zc);
    }
    return rc;
}

/* ------------------------------------------------------------------ */
/* Reader: whole-file passes                                           */

/* Open-addressing hash map from job number to a size_t (linear probing;
 * job numbers are >= 0, so -1 marks an empty slot). */
typedef struct id_map {
    struct id_slot {
        int64_t id;
        size_t val;
    } * slots;
    size_t mask;
} id_map;

static int map_init(id_map *m, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    m->slots = malloc(cap * sizeof *m->slots);
    if (!m->slots)
        return ENG_NOMEM;
    for (size_t i = 0; i < cap; i++)
        m->slots[i].id = -1;
    m->mask = cap - 1;
    return ENG_OK;
}

/* The value slot of id; *fresh tells whether id was just inserted. */
static size_t *map_get(id_map *m, int64_t id, bool *fresh)
{
    uint64_t x = (uint64_t)id; /* splitmix64's finalizer */
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    x ^= x >> 31;
    for (size_t i = (size_t)x & m->mask;; i = (i + 1) & m->mask) {
        if (m->slots[i].id == id) {
            *fresh = false;
            return &m->slots[i].val;
        }
        if (m->slots[i].id < 0) {
            m->slots[i].id = id;
            m->slots[i].val = 0;
            *fresh = true;
            return &m->slots[i].val;
        }
    }
}

static bool is_part(const eng_job *j)
{
    return j->status >= 2 && j->status <= 4;
}

/* Leading word of the Preemption value, case aside. */
static bool preemption_is_double(const char *v)
{
    if (!v)
        return false;
    static const char word[] = "double";
    for (size_t i = 0; i < sizeof word - 1; i++)
        if ((v[i] | 0x20) != word[i])
            return false;
    return v[sizeof word - 1] == '\0' || is_blank(v[sizeof word - 1]);
}

/* Partial-execution lines: dropped under "Preemption: Double", otherwise
 * merged into the first part of their job number. In place, O(n). */
static int fold_parts(swf_reader *r)
{
    eng_workload *w = r->w;
    size_t parts = 0;
    for (size_t i = 0; i < w->n_jobs; i++)
        parts += is_part(&w->jobs[i]);
    w->n_part_lines = parts;
    if (parts == 0)
        return ENG_OK;
    bool dbl = preemption_is_double(w->hdr.preemption);
    id_map m = {0};
    if (!dbl && map_init(&m, parts) != ENG_OK)
        return eng_diag_set(r->d, ENG_NOMEM, "%s: out of memory", r->path);
    size_t k = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        eng_job j = w->jobs[i];
        if (!is_part(&j)) {
            w->jobs[k++] = j;
            continue;
        }
        if (dbl)
            continue;
        bool fresh;
        size_t *at = map_get(&m, j.id, &fresh);
        int32_t status = j.status == 3 ? 1 : 0; /* the last part decides */
        if (fresh) {
            *at = k;
            j.status = status;
            w->jobs[k++] = j;
            continue;
        }
        eng_job *first = &w->jobs[*at];
        if (j.runtime_s >= 0)
            first->runtime_s = (first->runtime_s < 0 ? 0 : first->runtime_s) + j.runtime_s;
        first->status = status;
    }
    w->n_jobs = k;
    free(m.slots);
    return ENG_OK;
}

static int count_dup_ids(swf_reader *r)
{
    eng_workload *w = r->w;
    w->n_dup_ids = 0;
    size_t rising = 1; /* logs numbered in file order need no map */
    while (rising < w->n_jobs && w->jobs[rising - 1].id < w->jobs[rising].id)
        rising++;
    if (rising >= w->n_jobs)
        return ENG_OK;
    id_map m;
    if (map_init(&m, w->n_jobs) != ENG_OK)
        return eng_diag_set(r->d, ENG_NOMEM, "%s: out of memory", r->path);
    for (size_t i = 0; i < w->n_jobs; i++) {
        bool fresh;
        size_t *count = map_get(&m, w->jobs[i].id, &fresh);
        if (++*count == 2)
            w->n_dup_ids++;
    }
    free(m.slots);
    return ENG_OK;
}

/* Jobs of unknown submit time (-1) sort after all others, in file order:
 * they cannot be replayed (eng_prep drops them) and must not move the log's
 * start. */
static double sort_key(const eng_job *j)
{
    return j->submit_s < 0 ? INFINITY : j->submit_s;
}

static int by_submit_then_line(const void *pa, const void *pb)
{
    const eng_job *a = pa, *b = pb;
    double ka = sort_key(a), kb = sort_key(b);
    if (ka != kb)
        return ka < kb ? -1 : 1;
    return (a->line > b->line) - (a->line < b->line);
}

static void sort_jobs(eng_workload *w)
{
    double latest = -INFINITY;
    bool unknown_seen = false;
    w->n_reordered = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        if (w->jobs[i].submit_s < 0)
            unknown_seen = true;
        else if (w->jobs[i].submit_s < latest)
            w->n_reordered++;
        else
            latest = w->jobs[i].submit_s;
    }
    bool sorted = w->n_reordered == 0;
    if (sorted && unknown_seen) /* unknown submits already at the end? */
        for (size_t i = 1; i < w->n_jobs && sorted; i++)
            sorted = !(w->jobs[i - 1].submit_s < 0 && w->jobs[i].submit_s >= 0);
    if (!sorted)
        qsort(w->jobs, w->n_jobs, sizeof *w->jobs, by_submit_then_line);
}

static void trim_jobs(eng_workload *w)
{
    if (w->n_jobs == 0) {
        free(w->jobs);
        w->jobs = NULL;
        w->cap_jobs = 0;
    } else if (w->n_jobs < w->cap_jobs) {
        eng_job *j = realloc(w->jobs, w->n_jobs * sizeof *j);
        if (j) {
            w->jobs = j;
            w->cap_jobs = w->n_jobs;
        }
    }
}

int eng_swf_read(const char *path, const eng_swf_read_opts *opts, eng_workload **out, eng_diag *d)
{
    *out = NULL;
    eng_workload *w = eng_workload_create(path);
    if (!w)
        return eng_diag_set(d, ENG_NOMEM, "%s: out of memory", path);
    swf_reader r = {
        .path = path,
        .lenient = opts && opts->lenient,
        .w = w,
        .d = d,
        .line = 0,
        .cont = -1,
    };
    int rc = read_lines(&r);
    if (rc == ENG_OK) {
        hdr_refresh(&w->hdr);
        rc = fold_parts(&r);
    }
    if (rc == ENG_OK)
        rc = count_dup_ids(&r);
    if (rc != ENG_OK) {
        eng_workload_destroy(w);
        return rc;
    }
    sort_jobs(w);
    trim_jobs(w);
    *out = w;
    return ENG_OK;
}

/* ------------------------------------------------------------------ */
/* Writer                                                              */

/* Buffered output to a stdio stream or a gzip stream. */
typedef struct swf_sink {
    FILE *f;
    gzFile gz;
    bool failed;
    int err; /* errno of the first failed write */
    size_t n;
    char buf[1 << 15];
} swf_sink;

/* After a failed write the buffer is emptied all the same: what follows is
 * dropped, never retried (a full disk used to spin here for ever), and the
 * first failure's errno is kept for the message. */
static void sink_flush(swf_sink *s)
{
    if (s->n > 0 && !s->failed) {
        errno = 0;
        if (s->gz)
            s->failed = gzwrite(s->gz, s->buf, (unsigned)s->n) != (int)s->n;
        else
            s->failed = fwrite(s->buf, 1, s->n, s->f) != s->n;
        if (s->failed)
            s->err = errno ? errno : EIO;
    }
    s->n = 0;
}

static void sink_put(swf_sink *s, const char *p, size_t len)
{
    while (len > 0) {
        if (s->n == sizeof s->buf)
            sink_flush(s);
        size_t room = sizeof s->buf - s->n;
        size_t take = len < room ? len : room;
        memcpy(s->buf + s->n, p, take);
        s->n += take;
        p += take;
        len -= take;
    }
}

static void sink_str(swf_sink *s, const char *p)
{
    sink_put(s, p, strlen(p));
}

/* "; Key: value", each further line of value on its own comment line,
 * indented under the first. Empty further lines are left out: a bare ';'
 * would end the continuation when the file is read back. */
static void put_kv(swf_sink *s, const char *key, const char *value)
{
    sink_str(s, "; ");
    sink_str(s, key);
    sink_str(s, ":");
    size_t indent = strlen(key) + 3; /* under the value: "; Key: " */
    const char *line = value;
    for (bool first = true;; first = false) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        if (first) {
            if (len > 0)
                sink_str(s, " ");
            sink_put(s, line, len);
            sink_str(s, "\n");
        } else if (len > 0) {
            sink_str(s, ";");
            for (size_t i = 0; i < indent; i++)
                sink_str(s, " ");
            sink_put(s, line, len);
            sink_str(s, "\n");
        }
        if (!nl)
            break;
        line = nl + 1;
    }
}

static size_t put_i64(char *p, int64_t v)
{
    char tmp[24];
    size_t n = 0;
    uint64_t x = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[n++] = (char)('0' + x % 10);
        x /= 10;
    } while (x);
    size_t k = 0;
    if (v < 0)
        p[k++] = '-';
    while (n)
        p[k++] = tmp[--n];
    return k;
}

static size_t put_num(char *p, double v)
{
    if (v == nearbyint(v) && fabs(v) < 9.007199254740992e15)
        return put_i64(p, (int64_t)v);
    char tmp[40];
    eng_fmt_double(tmp, sizeof tmp, v);
    size_t n = strlen(tmp);
    memcpy(p, tmp, n);
    return n;
}

static void put_job(swf_sink *s, const eng_job *j)
{
    char line[18 * 40];
    size_t n = 0;
    n += put_i64(line + n, j->id);
    line[n++] = ' ';
    n += put_num(line + n, j->submit_s);
    line[n++] = ' ';
    n += put_num(line + n, j->wait_s);
    line[n++] = ' ';
    n += put_num(line + n, j->runtime_s);
    line[n++] = ' ';
    n += put_i64(line + n, j->procs_alloc);
    line[n++] = ' ';
    n += put_num(line + n, j->cpu_avg_s);
    line[n++] = ' ';
    n += put_num(line + n, j->mem_used_kb);
    line[n++] = ' ';
    n += put_i64(line + n, j->procs_req);
    line[n++] = ' ';
    n += put_num(line + n, j->time_req_s);
    line[n++] = ' ';
    n += put_num(line + n, j->mem_req_kb);
    line[n++] = ' ';
    n += put_i64(line + n, j->status);
    line[n++] = ' ';
    n += put_i64(line + n, j->user);
    line[n++] = ' ';
    n += put_i64(line + n, j->group);
    line[n++] = ' ';
    n += put_i64(line + n, j->app);
    line[n++] = ' ';
    n += put_i64(line + n, j->queue);
    line[n++] = ' ';
    n += put_i64(line + n, j->partition);
    line[n++] = ' ';
    n += put_i64(line + n, j->prev_job);
    line[n++] = ' ';
    n += put_num(line + n, j->think_s);
    line[n++] = '\n';
    sink_put(s, line, n);
}

static bool regenerated_key(const char *key)
{
    return strcmp(key, "Version") == 0 || strcmp(key, "MaxJobs") == 0 ||
           strcmp(key, "MaxRecords") == 0;
}

static void write_all(swf_sink *s, const eng_workload *w, const eng_swf_write_opts *opts)
{
    bool derived = opts && opts->job;
    size_t n_jobs = derived ? opts->n_jobs : w->n_jobs;
    char count[24];
    count[put_i64(count, (int64_t)n_jobs)] = '\0';
    put_kv(s, "Version", "2.2");
    put_kv(s, "MaxJobs", count);
    put_kv(s, "MaxRecords", count);
    for (size_t i = 0; i < w->hdr.n_kv; i++)
        if (!regenerated_key(w->hdr.kv[i].key))
            put_kv(s, w->hdr.kv[i].key, w->hdr.kv[i].value);
    if (opts)
        for (size_t i = 0; i < opts->n_notes; i++)
            put_kv(s, "Note", opts->notes[i] ? opts->notes[i] : "");
    for (size_t i = 0; i < n_jobs && !s->failed; i++) {
        if (derived) {
            eng_job j;
            opts->job(opts->arg, i, &j);
            put_job(s, &j);
        } else {
            put_job(s, &w->jobs[i]);
        }
    }
    sink_flush(s);
}

int eng_swf_write_stream(FILE *f, const eng_workload *w, const eng_swf_write_opts *opts)
{
    swf_sink *s = malloc(sizeof *s);
    if (!s)
        return ENG_NOMEM;
    s->f = f;
    s->gz = NULL;
    s->failed = false;
    s->err = 0;
    s->n = 0;
    write_all(s, w, opts);
    errno = 0;
    bool failed = s->failed || fflush(f) != 0 || ferror(f);
    int e = s->failed ? s->err : errno ? errno : EIO;
    free(s);
    errno = e; /* the cause, for the caller's message */
    return failed ? ENG_IO : ENG_OK;
}

int eng_swf_write(const char *path, const eng_workload *w, const eng_swf_write_opts *opts,
                  eng_diag *d)
{
    eng_afile a;
    int rc = eng_afile_open(&a, path, d);
    if (rc != ENG_OK)
        return rc;
    if (!eng_ends_with(path, ".gz")) {
        if (eng_swf_write_stream(a.f, w, opts) != ENG_OK) {
            int e = errno;
            eng_afile_abort(&a);
            return eng_diag_set(d, ENG_IO, "%s: cannot write: %s", path, strerror(e));
        }
        return eng_afile_commit(&a, d);
    }

    /* gzip through a duplicate of the temporary file's descriptor: gzclose
     * closes the duplicate, eng_afile_commit() the original. */
    swf_sink *s = malloc(sizeof *s);
    if (!s) {
        eng_afile_abort(&a);
        return eng_diag_set(d, ENG_NOMEM, "%s: out of memory", path);
    }
    int fd = dup(fileno(a.f));
    gzFile gz = fd >= 0 ? gzdopen(fd, "wb") : NULL;
    if (!gz) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        free(s);
        eng_afile_abort(&a);
        return eng_diag_set(d, ENG_IO, "%s: cannot write: %s", path, strerror(e));
    }
    s->f = NULL;
    s->gz = gz;
    s->failed = false;
    s->err = 0;
    s->n = 0;
    write_all(s, w, opts);
    errno = 0;
    int zc = gzclose_w(gz);
    bool failed = s->failed || zc != Z_OK;
    int e = s->failed ? s->err : errno;
    free(s);
    if (failed) {
        eng_afile_abort(&a);
        return eng_diag_set(d, ENG_IO, "%s: cannot write: %s", path,
                            e ? strerror(e) : "compression error");
    }
    return eng_afile_commit(&a, d);
}

/* ------------------------------------------------------------------ */
/* Queue and Partition lines                                           */

/* Reads the KEY=VALUE words of one line into c. */
static void class_details(const char *t, size_t len, eng_swf_class *c)
{
    static const char *const keys[] = {"MaxRuntime=", "MaxNodes=", "MaxProcs="};
    for (size_t i = 0; i < len; i++) {
        if (i > 0 && t[i - 1] != ' ' && t[i - 1] != '\t' && t[i - 1] != '(' && t[i - 1] != ',')
            continue;
        for (size_t k = 0; k < 3; k++) {
            size_t kl = strlen(keys[k]);
            if (i + kl >= len || strncmp(t + i, keys[k], kl) != 0)
                continue;
            char *end;
            errno = 0;
            double v = strtod(t + i + kl, &end);
            if (end == t + i + kl || errno || !(v > 0) || !isfinite(v))
                continue;
            if (k == 0)
                c->max_runtime_s = v;
            else if (v <= (double)INT32_MAX && v == floor(v))
                *(k == 1 ? &c->max_nodes : &c->max_procs) = (int64_t)v;
        }
    }
}

int eng_swf_classes(const eng_swf_header *h, const char *key, eng_swf_class **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    for (size_t i = 0; i < h->n_kv; i++) {
        if (strcmp(h->kv[i].key, key) != 0)
            continue;
        if (eng_grow(out, &cap, *n + 1, sizeof **out)) {
            free(*out);
            *out = NULL;
            *n = 0;
            return ENG_NOMEM;
        }
        eng_swf_class *c = &(*out)[(*n)++];
        const char *t = h->kv[i].value;
        while (*t == ' ' || *t == '\t')
            t++;
        size_t len = strcspn(t, "\n");
        while (len > 0 && (t[len - 1] == ' ' || t[len - 1] == '\t'))
            len--;
        *c = (eng_swf_class){.number = -1,
                             .text = t,
                             .text_len = len,
                             .max_runtime_s = -1,
                             .max_nodes = -1,
                             .max_procs = -1};
        size_t p = 0;
        while (p < len && t[p] >= '0' && t[p] <= '9')
            p++;
        if (p > 0 && p < 19 && (p == len || t[p] == ' ' || t[p] == '\t')) {
            c->number = strtoll(t, NULL, 10);
            while (p < len && (t[p] == ' ' || t[p] == '\t'))
                p++;
            size_t w = 0;
            while (p + w < len && t[p + w] != ' ' && t[p + w] != '\t' && w + 1 < sizeof c->name)
                w++;
            memcpy(c->name, t + p, w);
            c->name[w] = '\0';
        }
        class_details(t, len, c);
    }
    return ENG_OK;
}

size_t eng_swf_value_parts(const char *value, int64_t *parts, size_t max)
{
    const char *open = value ? strchr(value, '(') : NULL;
    const char *close = open ? strchr(open, ')') : NULL;
    size_t n = 0;
    for (const char *p = open; p && p < close && n < max;) {
        while (p < close && (*p < '0' || *p > '9'))
            p++;
        if (p >= close)
            break;
        char *end;
        long long v = strtoll(p, &end, 10);
        if (v > 0 && v <= INT32_MAX)
            parts[n++] = v;
        p = end;
    }
    return n;
}
