/* eng_resv.c — the reservation file's reader, its hosts on a platform, and
 * a log's candidate outages (eng_resv.h has the format and the rules). */
#define _DEFAULT_SOURCE /* timegm */
#include "eng_resv.h"

#include "eng_util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#define LINE_MAX_CHARS 8192

static void resv_clear(eng_resv *v)
{
    free(v->name);
    free(v->nodes);
    free(v->zone);
}

static void resv_free(eng_resv *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        resv_clear(&v[i]);
    free(v);
}

void eng_resvs_fini(eng_resvs *r)
{
    if (!r)
        return;
    resv_free(r->v, r->n);
    resv_free(r->lim, r->n_lim);
    free(r->path);
    memset(r, 0, sizeof *r);
}

/* A time in seconds: a finite decimal >= 0, the whole text. */
static bool parse_seconds(const char *s, double *v)
{
    return eng_parse_finite(s, v) && *v >= 0;
}

/* One line's keywords, as found. */
typedef struct resv_line {
    const char *name, *start, *end, *duration, *nodes, *flags, *until, *zone, *max_time;
} resv_line;

/* Splits a line into Key=Value words and files them. ENG_PARSE. */
static int split_line(const char *path, long line, char *buf, resv_line *out, eng_diag *d)
{
    static const struct {
        const char *key;
        size_t off;
    } keys[] = {
        {"ReservationName", offsetof(resv_line, name)}, {"StartTime", offsetof(resv_line, start)},
        {"EndTime", offsetof(resv_line, end)},          {"Duration", offsetof(resv_line, duration)},
        {"Nodes", offsetof(resv_line, nodes)},          {"Flags", offsetof(resv_line, flags)},
        {"Until", offsetof(resv_line, until)},          {"TimeZone", offsetof(resv_line, zone)},
        {"MaxTime", offsetof(resv_line, max_time)},
    };
    memset(out, 0, sizeof *out);
    for (char *w = strtok(buf, " \t\r\n"); w; w = strtok(NULL, " \t\r\n")) {
        char *eq = strchr(w, '=');
        if (!eq)
            return eng_diag_set(d, ENG_PARSE,
                                "%s:%ld: expected KEYWORD=VALUE (ReservationName, StartTime, "
                                "EndTime, Duration, Nodes, Flags, Until, TimeZone, MaxTime), "
                                "got '%s'",
                                path, line, w);
        *eq = 0;
        size_t k = 0;
        while (k < sizeof keys / sizeof keys[0] && strcasecmp(keys[k].key, w) != 0)
            k++;
        if (k == sizeof keys / sizeof keys[0])
            return eng_diag_set(d, ENG_PARSE,
                                "%s:%ld: unknown keyword '%s' (expected ReservationName, "
                                "StartTime, EndTime, Duration, Nodes, Flags, Until, TimeZone "
                                "or MaxTime)",
                                path, line, w);
        const char **slot = (const char **)((char *)out + keys[k].off);
        if (*slot)
            return eng_diag_set(d, ENG_PARSE, "%s:%ld: %s given twice", path, line, keys[k].key);
        if (!eq[1])
            return eng_diag_set(d, ENG_PARSE, "%s:%ld: %s: expected a value", path, line,
                                keys[k].key);
        *slot = eq + 1;
    }
    return ENG_OK;
}

/* Flags=LIST: MAINT and at most one repeat, separated by commas. */
static int parse_flags(const char *path, long line, const char *list, eng_resv *r, eng_diag *d)
{
    static const struct {
        const char *name;
        eng_resv_repeat repeat;
    } repeats[] = {{"HOURLY", ENG_RESV_HOURLY},
                   {"DAILY", ENG_RESV_DAILY},
                   {"WEEKDAY", ENG_RESV_WEEKDAY},
                   {"WEEKEND", ENG_RESV_WEEKEND},
                   {"WEEKLY", ENG_RESV_WEEKLY}};
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        bool known = n == 5 && strncasecmp(p, "MAINT", 5) == 0;
        if (known)
            r->maint = true;
        for (size_t k = 0; !known && k < sizeof repeats / sizeof repeats[0]; k++) {
            if (strlen(repeats[k].name) != n || strncasecmp(p, repeats[k].name, n) != 0)
                continue;
            if (r->repeat != ENG_RESV_ONCE)
                return eng_diag_set(d, ENG_PARSE,
                                    "%s:%ld: Flags: expected at most one of HOURLY, DAILY, "
                                    "WEEKDAY, WEEKEND and WEEKLY, got '%s'",
                                    path, line, list);
            r->repeat = repeats[k].repeat;
            known = true;
        }
        if (!known)
            return eng_diag_set(d, ENG_PARSE,
                                "%s:%ld: Flags: expected MAINT, HOURLY, DAILY, WEEKDAY, WEEKEND "
                                "or WEEKLY, separated by commas, got '%.*s'",
                                path, line, (int)n, p);
        p += n;
        if (*p == ',')
            p++;
    }
    return ENG_OK;
}

/* The reservation of one split line, checked. ENG_PARSE or ENG_NOMEM. */
static int make_resv(const char *path, long line, const resv_line *l, eng_resv *r, eng_diag *d)
{
    memset(r, 0, sizeof *r);
    r->line = line;
    if (!l->name)
        return eng_diag_set(d, ENG_PARSE, "%s:%ld: expected ReservationName=NAME", path, line);
    if (!l->start)
        return eng_diag_set(d, ENG_PARSE,
                            "%s:%ld: expected StartTime=SECONDS (from the trace's start)", path,
                            line);
    if (!parse_seconds(l->start, &r->start_s))
        return eng_diag_set(d, ENG_PARSE,
                            "%s:%ld: StartTime: expected seconds >= 0 from the trace's start, "
                            "got '%s'",
                            path, line, l->start);
    if (!l->end == !l->duration)
        return eng_diag_set(d, ENG_PARSE,
                            "%s:%ld: expected one of EndTime=SECONDS or "
                            "Duration=SECONDS",
                            path, line);
    double v;
    if (!parse_seconds(l->end ? l->end : l->duration, &v))
        return eng_diag_set(d, ENG_PARSE, "%s:%ld: %s: expected seconds >= 0, got '%s'", path, line,
                            l->end ? "EndTime" : "Duration", l->end ? l->end : l->duration);
    r->end_s = l->end ? v : r->start_s + v;
    if (!(r->end_s > r->start_s))
        return eng_diag_set(d, ENG_PARSE,
                            "%s:%ld: reservation %s ends at %g s, not after its start at %g s "
                            "(expected EndTime > StartTime, or Duration > 0)",
                            path, line, l->name, r->end_s, r->start_s);
    r->until_s = -1;
    r->max_time_s = -1;
    if (l->flags) {
        int rc = parse_flags(path, line, l->flags, r, d);
        if (rc)
            return rc;
    }
    if (l->until) {
        if (r->repeat == ENG_RESV_ONCE)
            return eng_diag_set(d, ENG_PARSE,
                                "%s:%ld: Until ends a repeating reservation: expected a flag "
                                "HOURLY, DAILY, WEEKDAY, WEEKEND or WEEKLY with it",
                                path, line);
        if (!parse_seconds(l->until, &r->until_s) || r->until_s < r->start_s)
            return eng_diag_set(d, ENG_PARSE,
                                "%s:%ld: Until: expected seconds from the trace's start, not "
                                "before StartTime, got '%s'",
                                path, line, l->until);
    }
    if (l->zone) {
        if (r->repeat == ENG_RESV_ONCE || r->repeat == ENG_RESV_HOURLY)
            return eng_diag_set(d, ENG_PARSE,
                                "%s:%ld: TimeZone places a calendar repeat: expected a flag "
                                "DAILY, WEEKDAY, WEEKEND or WEEKLY with it",
                                path, line);
        if (!(r->zone = eng_strdup(l->zone)))
            return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    if (l->max_time) {
        if (!parse_seconds(l->max_time, &r->max_time_s))
            return eng_diag_set(d, ENG_PARSE, "%s:%ld: MaxTime: expected seconds >= 0, got '%s'",
                                path, line, l->max_time);
        if (r->maint || (l->nodes && strcasecmp(l->nodes, "ALL") != 0))
            return eng_diag_set(d, ENG_PARSE,
                                "%s:%ld: MaxTime limits the whole machine and holds no host: "
                                "expected no MAINT and Nodes=ALL or no Nodes",
                                path, line);
    }
    if (r->maint && l->nodes && strcasecmp(l->nodes, "ALL") != 0)
        return eng_diag_set(d, ENG_PARSE,
                            "%s:%ld: Flags=MAINT holds the whole machine: expected Nodes=ALL or "
                            "no Nodes, got Nodes=%s",
                            path, line, l->nodes);
    if (!l->nodes && !r->maint && r->max_time_s < 0)
        return eng_diag_set(d, ENG_PARSE, "%s:%ld: expected Nodes=HOSTLIST (or ALL)", path, line);
    r->name = eng_strdup(l->name);
    r->nodes = eng_strdup(l->nodes ? l->nodes : "ALL");
    if (!r->name || !r->nodes)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    return ENG_OK;
}

int eng_resvs_read(const char *path, eng_resvs *out, eng_diag *d)
{
    memset(out, 0, sizeof *out);
    eng_lines in;
    int rc = eng_lines_open(&in, path,
                            "a reservation file of 'ReservationName=... StartTime=...' lines",
                            LINE_MAX_CHARS, d);
    if (rc)
        return rc;
    out->path = eng_strdup(path);
    if (!out->path)
        rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
    size_t cap = 0, cap_lim = 0;
    while (rc == ENG_OK) {
        char *buf;
        int got = eng_lines_next(&in, &buf, d);
        if (got <= 0) { /* the end (0) or an error */
            rc = got;
            break;
        }
        long line = in.line;
        char *p = buf;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            continue;
        resv_line l;
        eng_resv one;
        rc = split_line(path, line, p, &l, d);
        if (rc == ENG_OK) {
            rc = make_resv(path, line, &l, &one, d);
            bool is_lim = l.max_time != NULL;
            if (eng_grow(is_lim ? &out->lim : &out->v, is_lim ? &cap_lim : &cap,
                         (is_lim ? out->n_lim : out->n) + 1, sizeof one)) {
                resv_clear(&one);
                rc = rc ? rc : eng_diag_set(d, ENG_NOMEM, "out of memory");
            } else { /* freed by fini whatever make_resv left */
                (is_lim ? out->lim : out->v)[is_lim ? out->n_lim++ : out->n++] = one;
                out->n_repeat += one.repeat != ENG_RESV_ONCE;
            }
        }
    }
    eng_lines_close(&in);
    if (rc)
        eng_resvs_fini(out);
    return rc;
}

/* ---- repeats ---------------------------------------------------------- */

/* The calendar of the trace's clock in one zone: UTC by arithmetic, any
 * other zoneinfo name through the C library's TZ (set for the expansion
 * only, then put back). */
typedef struct calendar {
    bool utc;
    bool had_tz;
    char *old_tz;
} calendar;

static bool is_utc(const char *z)
{
    return strcasecmp(z, "UTC") == 0 || strcasecmp(z, "Etc/UTC") == 0 || strcasecmp(z, "GMT") == 0;
}

/* Whether zone names a zoneinfo file (the C library reads an unknown name
 * as UTC without a word, so it is checked here). */
static bool zone_exists(const char *z)
{
    if (!*z || z[0] == '/' || strstr(z, "..") || strlen(z) > 200)
        return false;
    const char *dir = getenv("TZDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "/usr/share/zoneinfo", z);
    return access(path, R_OK) == 0;
}

static int calendar_open(calendar *c, const char *zone)
{
    memset(c, 0, sizeof *c);
    c->utc = is_utc(zone);
    if (c->utc)
        return ENG_OK;
    const char *old = getenv("TZ");
    c->had_tz = old != NULL;
    if (old && !(c->old_tz = eng_strdup(old)))
        return ENG_NOMEM;
    if (setenv("TZ", zone, 1) != 0) {
        free(c->old_tz);
        return ENG_NOMEM;
    }
    tzset();
    return ENG_OK;
}

static void calendar_close(calendar *c)
{
    if (c->utc)
        return;
    if (c->had_tz)
        setenv("TZ", c->old_tz, 1);
    else
        unsetenv("TZ");
    tzset();
    free(c->old_tz);
}

static void calendar_split(const calendar *c, time_t t, struct tm *tm)
{
    if (c->utc)
        gmtime_r(&t, tm);
    else
        localtime_r(&t, tm);
}

static time_t calendar_join(const calendar *c, struct tm *tm)
{
    tm->tm_isdst = -1;
    return c->utc ? timegm(tm) : mktime(tm);
}

static bool day_qualifies(eng_resv_repeat rep, int wday)
{
    switch (rep) {
    case ENG_RESV_WEEKDAY:
        return wday >= 1 && wday <= 5;
    case ENG_RESV_WEEKEND:
        return wday == 0 || wday == 6;
    default:
        return true;
    }
}

/* The start of occurrence k of v (k = 0, 1, ...: each day, or each week
 * for WEEKLY, whether it qualifies or not), and whether it qualifies;
 * epoch0 is the trace's UnixStartTime. */
static double occurrence(const eng_resv *v, const calendar *c, const struct tm *first,
                         double epoch0, size_t k, bool *qualifies)
{
    if (v->repeat == ENG_RESV_HOURLY) {
        *qualifies = true;
        return v->start_s + 3600.0 * (double)k;
    }
    if (k == 0) { /* StartTime itself, even in an hour that summer time repeats */
        *qualifies = day_qualifies(v->repeat, first->tm_wday);
        return v->start_s;
    }
    struct tm tm = *first;
    tm.tm_mday += (int)(v->repeat == ENG_RESV_WEEKLY ? 7 * k : k);
    double frac = v->start_s - floor(v->start_s);
    time_t t = calendar_join(c, &tm);
    *qualifies = day_qualifies(v->repeat, tm.tm_wday);
    return (double)t - epoch0 + frac;
}

/* Appends v's occurrences to *out (n, cap). */
static int expand_one(const eng_resvs *r, const eng_resv *v, const eng_swf_header *h,
                      double last_submit_s, eng_resv **out, size_t *n, size_t *cap, eng_diag *d)
{
    const char *zone = v->zone ? v->zone : h->time_zone_string ? h->time_zone_string : "UTC";
    bool by_calendar = v->repeat != ENG_RESV_HOURLY;
    if (by_calendar && h->unix_start_time < 0)
        return eng_diag_set(d, ENG_PARSE,
                            "%s:%ld: reservation %s repeats by the calendar, which needs the "
                            "log's '; UnixStartTime:' header line (this log has none; HOURLY "
                            "needs no calendar)",
                            r->path, v->line, v->name);
    if (by_calendar && !is_utc(zone) && !zone_exists(zone))
        return eng_diag_set(d, ENG_PARSE,
                            "%s:%ld: reservation %s: time zone '%s'%s is not a zoneinfo name "
                            "(expected one such as Europe/Stockholm, or UTC)",
                            r->path, v->line, v->name, zone,
                            v->zone ? "" : " (the log's TimeZoneString)");
    double until = v->until_s >= 0 ? v->until_s : last_submit_s;
    double len = v->end_s - v->start_s, epoch0 = (double)h->unix_start_time;
    double period = v->repeat == ENG_RESV_HOURLY   ? 3600
                    : v->repeat == ENG_RESV_WEEKLY ? 7 * 86400
                                                   : 86400;
    if ((until - v->start_s) / period > ENG_RESV_MAX_REPEATS + 1.0) /* before any is made */
        return eng_diag_set(d, ENG_PARSE,
                            "%s:%ld: reservation %s repeats more than %d times before %g s "
                            "(expected an Until= that ends it sooner)",
                            r->path, v->line, v->name, ENG_RESV_MAX_REPEATS, until);
    calendar c = {.utc = true};
    if (by_calendar && calendar_open(&c, zone))
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    struct tm first = {0};
    if (by_calendar)
        calendar_split(&c, (time_t)floor(epoch0 + v->start_s), &first);
    int rc = ENG_OK;
    size_t made = 0;
    for (size_t k = 0; rc == ENG_OK; k++) {
        bool ok;
        double t = occurrence(v, &c, &first, epoch0, k, &ok);
        if (t > until)
            break;
        if (!ok || t < 0)
            continue;
        if (++made > ENG_RESV_MAX_REPEATS) {
            rc = eng_diag_set(d, ENG_PARSE,
                              "%s:%ld: reservation %s repeats more than %d times before %g s "
                              "(expected an Until= that ends it sooner)",
                              r->path, v->line, v->name, ENG_RESV_MAX_REPEATS, until);
            break;
        }
        if (eng_grow(out, cap, *n + 1, sizeof **out)) {
            rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
            break;
        }
        eng_resv *o = &(*out)[(*n)++];
        *o = (eng_resv){.name = eng_strdup(v->name),
                        .nodes = eng_strdup(v->nodes),
                        .start_s = t,
                        .end_s = t + len,
                        .maint = v->maint,
                        .line = v->line,
                        .repeat = ENG_RESV_ONCE,
                        .until_s = -1,
                        .max_time_s = v->max_time_s};
        if (!o->name || !o->nodes)
            rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    if (by_calendar)
        calendar_close(&c);
    return rc;
}

/* The occurrences of n reservations v into *out (*n_out): each repeating
 * one's, each other a copy. */
static int expand_all(const eng_resvs *r, const eng_resv *v, size_t n, const eng_swf_header *h,
                      double last_submit_s, eng_resv **out, size_t *n_out, eng_diag *d)
{
    size_t cap = 0;
    int rc = ENG_OK;
    for (size_t i = 0; rc == ENG_OK && i < n; i++) {
        if (v[i].repeat != ENG_RESV_ONCE) {
            rc = expand_one(r, &v[i], h, last_submit_s, out, n_out, &cap, d);
            continue;
        }
        if (eng_grow(out, &cap, *n_out + 1, sizeof **out))
            return eng_diag_set(d, ENG_NOMEM, "out of memory");
        eng_resv *o = &(*out)[(*n_out)++];
        *o = v[i];
        o->name = eng_strdup(v[i].name);
        o->nodes = eng_strdup(v[i].nodes);
        o->zone = NULL;
        if (!o->name || !o->nodes)
            rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    return rc;
}

static int by_start(const void *a, const void *b)
{
    const eng_resv *x = a, *y = b;
    if (x->start_s != y->start_s)
        return x->start_s < y->start_s ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

/* A MAINT window's place in v, for sorting them by start. */
typedef struct maint_pos {
    double start_s;
    long line;
    size_t pos;
} maint_pos;

static int by_maint_start(const void *a, const void *b)
{
    const maint_pos *x = a, *y = b;
    if (x->start_s != y->start_s)
        return x->start_s < y->start_s ? -1 : 1;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Overlapping MAINT windows of v become their union (the first's name and
 * line); the others keep their order. O(n log n). */
static int merge_maint(eng_resv *v, size_t *n)
{
    size_t n_m = 0;
    for (size_t i = 0; i < *n; i++)
        n_m += v[i].maint;
    if (n_m < 2)
        return ENG_OK;
    maint_pos *m = malloc(n_m * sizeof *m);
    if (!m)
        return ENG_NOMEM;
    size_t k = 0;
    for (size_t i = 0; i < *n; i++)
        if (v[i].maint)
            m[k++] = (maint_pos){.start_s = v[i].start_s, .line = v[i].line, .pos = i};
    qsort(m, n_m, sizeof *m, by_maint_start);
    size_t keep = m[0].pos;
    for (size_t i = 1; i < n_m; i++) {
        eng_resv *a = &v[keep], *b = &v[m[i].pos];
        if (b->start_s < a->end_s) {
            if (b->end_s > a->end_s)
                a->end_s = b->end_s;
            resv_clear(b);
            b->name = b->nodes = b->zone = NULL;
            b->line = -1; /* a hole, squeezed out below */
        } else
            keep = m[i].pos;
    }
    free(m);
    size_t w = 0;
    for (size_t i = 0; i < *n; i++)
        if (v[i].line >= 0)
            v[w++] = v[i];
    *n = w;
    return ENG_OK;
}

int eng_resvs_expand(eng_resvs *r, const eng_swf_header *h, double last_submit_s, eng_diag *d)
{
    eng_resvs x = {0};
    int rc = expand_all(r, r->v, r->n, h, last_submit_s, &x.v, &x.n, d);
    if (rc == ENG_OK)
        rc = expand_all(r, r->lim, r->n_lim, h, last_submit_s, &x.lim, &x.n_lim, d);
    if (rc == ENG_OK && merge_maint(x.v, &x.n))
        rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
    if (rc == ENG_OK) {
        if (x.n_lim)
            qsort(x.lim, x.n_lim, sizeof *x.lim, by_start);
        for (size_t i = 1; i < x.n_lim; i++) {
            const eng_resv *a = &x.lim[i - 1], *b = &x.lim[i];
            if (b->start_s < a->end_s) {
                if (a->line > b->line) {
                    const eng_resv *t = a;
                    a = b;
                    b = t;
                }
                rc = eng_diag_set(d, ENG_PARSE,
                                  "%s:%ld: limit window %s [%g, %g) overlaps limit window %s "
                                  "[%g, %g) of line %ld (expected MaxTime windows that do not "
                                  "overlap)",
                                  r->path, b->line, b->name, b->start_s, b->end_s, a->name,
                                  a->start_s, a->end_s, a->line);
                break;
            }
        }
    }
    if (rc) {
        eng_resvs_fini(&x);
        return rc;
    }
    x.path = r->path;
    r->path = NULL;
    eng_resvs_fini(r);
    *r = x;
    return ENG_OK;
}

int eng_resvs_expand_on(eng_resvs *r, const eng_workload *w, eng_diag *d)
{
    double last = 0;
    for (size_t i = 0; i < w->n_jobs; i++)
        if (w->jobs[i].submit_s > last)
            last = w->jobs[i].submit_s;
    return eng_resvs_expand(r, &w->hdr, last, d);
}

/* ---- a log against a reservation file --------------------------------- */

typedef struct span {
    double start_s, end_s;
} span;

static int by_span_start(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return (x->start_s > y->start_s) - (x->start_s < y->start_s);
}

/* The first of n spans (by start, not overlapping) that ends after t. */
static size_t first_ending_after(const span *v, size_t n, double t)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].end_s <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int eng_resvs_obeyed(const eng_resvs *r, const eng_workload *w, eng_resv_obey *out)
{
    *out = (eng_resv_obey){.first_maint = -1, .first_over = -1};
    span *m = malloc((r->n ? r->n : 1) * sizeof *m);
    span *lim = malloc((r->n_lim ? r->n_lim : 1) * sizeof *lim);
    if (!m || !lim) {
        free(m);
        free(lim);
        return ENG_NOMEM;
    }
    for (size_t i = 0; i < r->n_lim; i++) /* by start, not overlapping (eng_resvs_expand) */
        lim[i] = (span){r->lim[i].start_s, r->lim[i].end_s};
    for (size_t i = 0; i < r->n; i++)
        if (r->v[i].maint)
            m[out->n_maint++] = (span){r->v[i].start_s, r->v[i].end_s};
    qsort(m, out->n_maint, sizeof *m, by_span_start);
    size_t k = 0; /* merged, so that they do not overlap */
    for (size_t i = 0; i < out->n_maint; i++) {
        if (k && m[i].start_s < m[k - 1].end_s) {
            if (m[i].end_s > m[k - 1].end_s)
                m[k - 1].end_s = m[i].end_s;
        } else
            m[k++] = m[i];
    }
    for (size_t i = 0; i < w->n_jobs; i++) {
        const eng_job *j = &w->jobs[i];
        if (j->submit_s < 0 || j->wait_s < 0 || j->runtime_s < 0)
            continue;
        out->jobs++;
        double start = j->submit_s + j->wait_s, end = start + j->runtime_s;
        size_t a = first_ending_after(m, k, start);
        if (a < k && m[a].start_s < end && end > start) {
            out->in_maint++;
            if (out->first_maint < 0)
                out->first_maint = j->id;
        }
        size_t l = first_ending_after(lim, r->n_lim, start);
        double asked = j->time_req_s > 0 ? j->time_req_s : j->runtime_s;
        if (l < r->n_lim && lim[l].start_s <= start && asked > r->lim[l].max_time_s) {
            out->over_limit++;
            if (out->first_over < 0)
                out->first_over = j->id;
        }
    }
    out->n_maint = k;
    free(m);
    free(lim);
    return ENG_OK;
}

/* ---- hosts ------------------------------------------------------------ */

/* The index of the host named name (n bytes), or -1 (hosts are in name
 * order). */
static int32_t host_named(const eng_platform *p, const char *name, size_t n)
{
    char buf[256];
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, name, n);
    buf[n] = 0;
    size_t lo = 0, hi = p->n_hosts;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int k = eng_name_cmp(p->hosts[mid].name, buf);
        if (k == 0)
            return (int32_t)mid;
        if (k < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* Marks one item [it, end): "name" or "pre[a-b,c]post". */
static int mark_item(const eng_platform *p, const char *it, const char *end, bool *mark, char *why,
                     size_t why_len)
{
    int n = (int)(end - it);
    const char *lb = memchr(it, '[', (size_t)n);
    if (!lb) {
        int32_t h = host_named(p, it, (size_t)n);
        if (h < 0) {
            snprintf(why, why_len, "host '%.*s' is not in platform %s", n, it, p->path);
            return ENG_INVAL;
        }
        mark[h] = true;
        return ENG_OK;
    }
    const char *rb = memchr(lb, ']', (size_t)(end - lb));
    if (!rb) {
        snprintf(why, why_len, "expected ']' in '%.*s'", n, it);
        return ENG_INVAL;
    }
    for (const char *r = lb + 1; r < rb;) {
        char *e;
        long a = strtol(r, &e, 10), b = a;
        int width = (int)(e - r);
        if (e == r || a < 0) {
            snprintf(why, why_len, "expected a number or a range a-b in '%.*s'", n, it);
            return ENG_INVAL;
        }
        if (*e == '-') {
            const char *f = e + 1;
            b = strtol(f, &e, 10);
            if (e == f || b < a || b - a > 1000000) {
                snprintf(why, why_len, "expected a range a-b with a <= b in '%.*s'", n, it);
                return ENG_INVAL;
            }
        }
        if (e != rb && *e != ',') {
            snprintf(why, why_len, "unexpected '%c' in '%.*s'", *e, n, it);
            return ENG_INVAL;
        }
        for (long k = a; k <= b; k++) {
            char name[256];
            int len = snprintf(name, sizeof name, "%.*s%0*ld%.*s", (int)(lb - it), it, width, k,
                               (int)(end - rb - 1), rb + 1);
            int32_t h = len > 0 && (size_t)len < sizeof name ? host_named(p, name, (size_t)len)
                                                             : -1;
            if (h < 0) {
                snprintf(why, why_len, "host '%.200s' is not in platform %s", name, p->path);
                return ENG_INVAL;
            }
            mark[h] = true;
        }
        r = e == rb ? rb : e + 1;
    }
    return ENG_OK;
}

int eng_hostlist_mark(const eng_platform *p, const char *list, bool *mark, char *why,
                      size_t why_len)
{
    if (strcasecmp(list, "ALL") == 0) {
        for (size_t h = 0; h < p->n_hosts; h++)
            mark[h] = true;
        return ENG_OK;
    }
    const char *it = list;
    int depth = 0;
    for (const char *q = list;; q++) {
        if (*q == '[')
            depth++;
        else if (*q == ']')
            depth--;
        if (*q == 0 || (*q == ',' && depth == 0)) {
            if (q == it) {
                snprintf(why, why_len, "an empty host name");
                return ENG_INVAL;
            }
            int rc = mark_item(p, it, q, mark, why, why_len);
            if (rc || *q == 0)
                return rc;
            it = q + 1;
        }
    }
}

static int cmp_hold(const void *a, const void *b)
{
    const eng_hold *x = a, *y = b;
    if (x->start_s != y->start_s)
        return x->start_s < y->start_s ? -1 : 1;
    return (x->resv > y->resv) - (x->resv < y->resv);
}

void eng_holds_fini(eng_holds *h)
{
    if (!h)
        return;
    free(h->off);
    free(h->w);
    memset(h, 0, sizeof *h);
}

const eng_hold *eng_holds_meet(const eng_holds *h, int32_t host, double from, double to)
{
    size_t lo = h->off[host], hi = h->off[host + 1];
    while (lo < hi) { /* the first window ending after from */
        size_t mid = lo + (hi - lo) / 2;
        if (h->w[mid].end_s <= from)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < h->off[host + 1] && h->w[lo].start_s < to ? &h->w[lo] : NULL;
}

/* Marks reservation i's hosts in mark[] (every host for MAINT). */
static int resv_hosts(const eng_resvs *r, size_t i, const eng_platform *p, bool *mark, eng_diag *d)
{
    const eng_resv *v = &r->v[i];
    memset(mark, 0, p->n_hosts * sizeof *mark);
    char why[512];
    if (eng_hostlist_mark(p, v->maint ? "ALL" : v->nodes, mark, why, sizeof why))
        return eng_diag_set(d, ENG_INVAL, "%s:%ld: reservation %s: Nodes=%s: %s", r->path, v->line,
                            v->name, v->nodes, why);
    return ENG_OK;
}

/* Per host: its windows sorted, checked for overlaps. */
static int sort_holds(const eng_resvs *r, const eng_platform *p, eng_holds *out, eng_diag *d)
{
    for (size_t h = 0; h < p->n_hosts; h++) {
        eng_hold *w = out->w + out->off[h];
        size_t n = out->off[h + 1] - out->off[h];
        qsort(w, n, sizeof *w, cmp_hold);
        for (size_t k = 1; k < n; k++)
            if (w[k].start_s < w[k - 1].end_s) {
                const eng_resv *a = &r->v[w[k - 1].resv], *b = &r->v[w[k].resv];
                if (a->line > b->line) {
                    const eng_resv *t = a;
                    a = b;
                    b = t;
                }
                return eng_diag_set(d, ENG_INVAL,
                                    "%s:%ld: reservation %s [%g, %g) overlaps reservation %s "
                                    "[%g, %g) of line %ld on host %s (expected windows that do "
                                    "not overlap on a host)",
                                    r->path, b->line, b->name, b->start_s, b->end_s, a->name,
                                    a->start_s, a->end_s, a->line, p->hosts[h].name);
            }
    }
    return ENG_OK;
}

int eng_resvs_resolve(const eng_resvs *r, const eng_platform *p, eng_holds *out, eng_diag *d)
{
    memset(out, 0, sizeof *out);
    size_t nh = p->n_hosts;
    bool *mark = malloc((nh ? nh : 1) * sizeof *mark);
    size_t *count = calloc(nh + 1, sizeof *count);
    out->off = calloc(nh + 1, sizeof *out->off);
    int rc = mark && count && out->off ? ENG_OK : eng_diag_set(d, ENG_NOMEM, "out of memory");
    /* two passes: count each host's windows, then place them */
    for (size_t i = 0; rc == ENG_OK && i < r->n; i++) {
        rc = resv_hosts(r, i, p, mark, d);
        for (size_t h = 0; rc == ENG_OK && h < nh; h++)
            count[h] += mark[h];
    }
    for (size_t h = 0; rc == ENG_OK && h < nh; h++)
        out->off[h + 1] = out->off[h] + count[h];
    if (rc == ENG_OK) {
        out->n = out->off[nh];
        out->w = malloc((out->n ? out->n : 1) * sizeof *out->w);
        if (!out->w)
            rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    for (size_t h = 0; rc == ENG_OK && h < nh; h++)
        count[h] = out->off[h];
    for (size_t i = 0; rc == ENG_OK && i < r->n; i++) {
        rc = resv_hosts(r, i, p, mark, d);
        for (size_t h = 0; rc == ENG_OK && h < nh; h++)
            if (mark[h])
                out->w[count[h]++] = (eng_hold){
                    .start_s = r->v[i].start_s, .end_s = r->v[i].end_s, .resv = (int32_t)i};
    }
    if (rc == ENG_OK)
        rc = sort_holds(r, p, out, d);
    free(mark);
    free(count);
    if (rc)
        eng_holds_fini(out);
    return rc;
}

/* ---- outages ---------------------------------------------------------- */

typedef struct out_ev {
    double t;
    int kind; /* 0: a wait begins, 1: a wait ends, 2: a run begins, 3: a run ends */
} out_ev;

static int cmp_ev(const void *a, const void *b)
{
    const out_ev *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->kind > y->kind) - (x->kind < y->kind);
}

int eng_outages_find(const eng_workload *w, double min_gap_s, eng_outage **out, size_t *n,
                     size_t *n_skipped)
{
    *out = NULL;
    *n = 0;
    *n_skipped = 0;
    out_ev *ev = malloc((4 * w->n_jobs + 1) * sizeof *ev);
    if (!ev)
        return ENG_NOMEM;
    size_t ne = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        const eng_job *j = &w->jobs[i];
        if (j->submit_s < 0 || j->wait_s < 0 || j->runtime_s < 0) {
            (*n_skipped)++;
            continue;
        }
        double start = j->submit_s + j->wait_s, end = start + j->runtime_s;
        if (j->wait_s > 0) {
            ev[ne++] = (out_ev){j->submit_s, 0};
            ev[ne++] = (out_ev){start, 1};
        }
        if (j->runtime_s > 0) {
            ev[ne++] = (out_ev){start, 2};
            ev[ne++] = (out_ev){end, 3};
        }
    }
    qsort(ev, ne, sizeof *ev, cmp_ev);
    size_t cap = 0;
    int64_t waiting = 0, running = 0;
    bool open = false;
    eng_outage cur = {0};
    int rc = ENG_OK;
    for (size_t e = 0; e < ne && rc == ENG_OK;) {
        double t = ev[e].t;
        size_t arrivals = 0;
        for (; e < ne && ev[e].t == t; e++) {
            waiting += ev[e].kind == 0 ? 1 : ev[e].kind == 1 ? -1 : 0;
            running += ev[e].kind == 2 ? 1 : ev[e].kind == 3 ? -1 : 0;
            arrivals += ev[e].kind == 0;
        }
        bool idle = running == 0 && waiting > 0; /* on [t, the next event) */
        if (idle && !open) {
            open = true;
            cur = (eng_outage){.start_s = t, .waiting = (size_t)waiting};
        } else if (idle) {
            cur.waiting += arrivals;
        } else if (open) {
            open = false;
            cur.end_s = t;
            if (cur.end_s - cur.start_s >= min_gap_s) {
                if (eng_grow(out, &cap, *n + 1, sizeof **out))
                    rc = ENG_NOMEM;
                else
                    (*out)[(*n)++] = cur;
            }
        }
    }
    free(ev);
    if (rc) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return rc;
}
