/* cli_plot_run.c — `batchlab plot RUN_DIR`: a run's Gantt chart and its
 * queue length and utilization over time (cli_plot.c is the command).
 *
 * A run (RUN_DIR holds jobs.csv and/or timeseries.csv, as `batchlab run
 * --out` writes them): DIR (default RUN_DIR/plot) receives gantt.dat (one
 * rectangle per job and run of consecutive hosts: time on x, host index in
 * name order on y, a colour per job, or per packet with --color packet so
 * that a packet's members share one; under --alloc core, which the
 * manifest of summary.json records, allocated_resources counts cores
 * (eng_coreidx.h), so y counts cores and the hosts are marked: a thin line
 * between hosts and each host's index as a tick, from summary.json's
 * platform.host_cores), series.dat (queue length and
 * utilization after each event instant, drawn as steps: a value holds until
 * the next instant) and plot.gp, then gnuplot draws gantt.png/.pdf and
 * timeseries.png/.pdf; when timeseries.csv has power values (power_w and
 * the host-state counts), power.dat and power.png/.pdf too
 * (cli_plot_power.c). Times are the run's clock (the log's submit times,
 * as in jobs.csv), shown in seconds, hours or days, whichever keeps the axis
 * readable (a drawn span up to 2 h, up to 14 days, longer), or the one
 * --time-axis names; --from/--to cut a window out of a long run, and say
 * so when it holds no job. They take seconds, a duration (90s, 30m, 36h,
 * 2d, 1w) or a calendar date (2024-03-01, 2024-03-01T12:00) in the log's
 * time zone: summary.json's manifest records the log's UnixStartTime and
 * TimeZoneString, from which job times count, and the C library converts
 * with the TZ database (zone_convert), so that daylight saving is as it was
 * on that date. --time-axis dates labels the axis with local dates and
 * times at round steps; its data files are those of the automatic unit.
 * Without a recorded UnixStartTime a date is a usage error. A run longer
 * than 14 days drawn whole is a smear, so by default its Gantt chart
 * shows the first 7 days and its series are aggregated: hourly
 * means of the step functions over a span up to 60 days, daily means
 * beyond (every instant up to 2 days); --all draws everything. Jobs killed
 * at their requested time (a red x) and jobs cut by a host failure (a
 * black triangle) are marked at their end (marks.dat), with their count in
 * the key. The title names the policy, the workload and the platform (from
 * summary.json). Jobs that never started are not drawn. The script names
 * its files by absolute path.
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "cli_plot.h"

#include "cli_csv.h"
#include "cli_json.h"
#include "cli_plot_impl.h"
#include "eng_util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* ------------------------------------------------------------------ */
/* Colours                                                             */

uint32_t bl_plot_color(int64_t id)
{
    double h = fmod((double)(id < 0 ? -id : id) * 0.6180339887498949, 1.0) * 6.0;
    double s = 0.55, v = 0.92;
    int k = (int)h;
    double f = h - k, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    double r, g, b;
    switch (k % 6) {
    case 0:
        r = v, g = t, b = p;
        break;
    case 1:
        r = q, g = v, b = p;
        break;
    case 2:
        r = p, g = v, b = t;
        break;
    case 3:
        r = p, g = q, b = v;
        break;
    case 4:
        r = t, g = p, b = v;
        break;
    default:
        r = v, g = p, b = q;
        break;
    }
    return ((uint32_t)lround(r * 255) << 16) | ((uint32_t)lround(g * 255) << 8) |
           (uint32_t)lround(b * 255);
}

/* ------------------------------------------------------------------ */
/* Times on a run's clock                                              */

/* Local wall-clock time <-> Unix time in the zone tz, a TZ database name
 * such as "Europe/Berlin" or a POSIX TZ rule ("" or NULL: UTC). The C
 * library's mktime and localtime_r apply the TZ database's rules for the
 * date in question (offsets and daylight saving as they were that year),
 * which a fixed offset cannot; they read the zone from the TZ variable,
 * so this function alone sets it, for the call, and restores it after.
 * to_unix: *tm -> *t (tm_isdst -1: whether daylight saving is in force is
 * the library's choice, also for an hour that occurs twice; *tm comes back
 * normalized, a time in the spring gap moved past it); else *t -> *tm.
 * 0, or -1 when the time is out of range or memory runs out. */
static int zone_convert(const char *tz, bool to_unix, struct tm *tm, time_t *t)
{
    const char *old = getenv("TZ");
    char *saved = old ? eng_strdup(old) : NULL;
    if ((old && !saved) || setenv("TZ", tz && *tz ? tz : "UTC0", 1) != 0) {
        free(saved);
        return -1;
    }
    tzset();
    int rc = 0;
    if (to_unix) {
        tm->tm_isdst = -1;
        errno = 0;
        *t = mktime(tm);
        rc = *t == (time_t)-1 && errno ? -1 : 0;
    } else {
        rc = localtime_r(t, tm) ? 0 : -1;
    }
    if (saved)
        setenv("TZ", saved, 1);
    else
        unsetenv("TZ");
    tzset();
    free(saved);
    return rc;
}

/* Whether the C library knows zone tz: a file of the TZ database (under
 * $TZDIR, else /usr/share/zoneinfo), or a POSIX TZ rule ("UTC0",
 * "CET-1CEST,M3.5.0,M10.5.0/3"). An unknown name would silently read as
 * UTC. */
static bool zone_known(const char *tz)
{
    if (!tz || !*tz)
        return true;
    size_t alpha = strspn(tz, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
    if (alpha >= 3 &&
        (tz[alpha] == '+' || tz[alpha] == '-' || (tz[alpha] >= '0' && tz[alpha] <= '9')))
        return true;
    if (tz[0] == '/' || strstr(tz, ".."))
        return false;
    const char *dir = getenv("TZDIR");
    char *path = eng_asprintf("%s/%s", dir && *dir ? dir : "/usr/share/zoneinfo", tz);
    struct stat st;
    bool ok = path && stat(path, &st) == 0 && S_ISREG(st.st_mode);
    free(path);
    return ok;
}

/* n decimal digits at s into *v; false if any is not a digit. */
static bool digits(const char *s, int n, int *v)
{
    *v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        *v = *v * 10 + (s[i] - '0');
    }
    return true;
}

static int days_in_month(int year, int month)
{
    static const int d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : d[month - 1];
}

/* A calendar date "YYYY-MM-DD", "YYYY-MM-DDTHH:MM" or "YYYY-MM-DDTHH:MM:SS"
 * (a space for the T too) into *tm; false if text is not one. */
static bool parse_date(const char *s, struct tm *tm)
{
    int y, mo, d, h = 0, mi = 0, se = 0;
    size_t n = strlen(s);
    if (n < 10 || !digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &mo) || s[7] != '-' ||
        !digits(s + 8, 2, &d))
        return false;
    if (n > 10) {
        if ((s[10] != 'T' && s[10] != ' ') || n < 16 || !digits(s + 11, 2, &h) || s[13] != ':' ||
            !digits(s + 14, 2, &mi))
            return false;
        if (n > 16 && (n != 19 || s[16] != ':' || !digits(s + 17, 2, &se)))
            return false;
    }
    if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 ||
        se > 59)
        return false;
    *tm = (struct tm){.tm_year = y - 1900,
                      .tm_mon = mo - 1,
                      .tm_mday = d,
                      .tm_hour = h,
                      .tm_min = mi,
                      .tm_sec = se};
    return true;
}

/* Seconds: a number with an optional unit s, m, h, d or w; false if text
 * is not one. */
static bool parse_duration(const char *s, double *t_s)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || errno || !isfinite(x) || isspace((unsigned char)*s))
        return false;
    static const struct {
        char unit;
        double s;
    } units[] = {{'s', 1}, {'m', 60}, {'h', 3600}, {'d', 86400}, {'w', 604800}};
    double mult = 0;
    if (!*end)
        mult = 1;
    else if (!end[1])
        for (size_t i = 0; i < BL_N_OPTS(units); i++)
            if (*end == units[i].unit)
                mult = units[i].s;
    if (mult == 0)
        return false;
    *t_s = x * mult;
    return true;
}

int bl_plot_parse_time(const char *text, int64_t unix_start, const char *tz, double *t_s)
{
    if (parse_duration(text, t_s))
        return BL_TIME_OK;
    struct tm tm;
    if (!parse_date(text, &tm))
        return BL_TIME_BAD;
    if (unix_start < 0)
        return BL_TIME_NO_START;
    if (!zone_known(tz))
        return BL_TIME_BAD_ZONE;
    time_t t;
    if (zone_convert(tz, true, &tm, &t) != 0)
        return BL_TIME_BAD;
    *t_s = (double)t - (double)unix_start;
    return BL_TIME_OK;
}

/* ------------------------------------------------------------------ */
/* A run                                                               */

static bool have_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* How a job ended, for the marks on the Gantt chart. */
enum { END_OK = 0, END_KILLED = 1, END_FAILED = 2 };

typedef struct gantt_row {
    double start_s, end_s;
    int64_t lo, hi; /* host indices, inclusive */
    int64_t color_id;
    int end;    /* END_*: killed at its requested time, cut by a host failure */
    bool first; /* the job's first host interval (marks are drawn once) */
} gantt_row;

static int end_kind(const char *final_state)
{
    if (strcmp(final_state, "COMPLETED_WALLTIME_REACHED") == 0)
        return END_KILLED;
    if (strcmp(final_state, "COMPLETED_FAILED") == 0)
        return END_FAILED;
    return END_OK;
}

/* The columns of jobs.csv that the Gantt chart reads (-1: absent). */
typedef struct job_cols {
    int id, sub, start, end, alloc, packet, state;
} job_cols;

/* The header line: the columns found, or 1 after the message. */
static int job_columns(char **fields, long nf, const char *path, bool by_packet, job_cols *c)
{
    c->id = bl_csv_column(fields, nf, "job_id");
    c->sub = bl_csv_column(fields, nf, "submission_time");
    c->start = bl_csv_column(fields, nf, "starting_time");
    c->end = bl_csv_column(fields, nf, "finish_time");
    c->alloc = bl_csv_column(fields, nf, "allocated_resources");
    c->packet = bl_csv_column(fields, nf, "packet");
    c->state = bl_csv_column(fields, nf, "final_state");
    if (c->id < 0 || c->start < 0 || c->end < 0 || c->alloc < 0 || c->sub < 0 ||
        (by_packet && c->packet < 0)) {
        fprintf(stderr,
                "batchlab plot: %s:1: expected the columns job_id, submission_time, "
                "starting_time, finish_time, allocated_resources%s\n",
                path, by_packet ? " and packet" : "");
        return 1;
    }
    return 0;
}

/* One row of the chart per interval of allocated_resources ("0-3 7
 * 9-10"), each a copy of proto (the first marked first). 0, or 1 after
 * the message. */
static int add_intervals(const char *alloc, const gantt_row *proto, const char *path, long line,
                         gantt_row **rows, size_t *n, size_t *rcap, int64_t *max_host)
{
    bool first = true;
    for (const char *p = alloc; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        char *end_p;
        long long lo = strtoll(p, &end_p, 10), hi = lo;
        if (end_p == p || lo < 0) {
            fprintf(stderr,
                    "batchlab plot: %s:%ld: allocated_resources: expected host "
                    "intervals like '0-3 7', got '%s'\n",
                    path, line, alloc);
            return 1;
        }
        p = end_p;
        if (*p == '-') {
            hi = strtoll(p + 1, &end_p, 10);
            if (end_p == p + 1 || hi < lo) {
                fprintf(stderr,
                        "batchlab plot: %s:%ld: allocated_resources: expected "
                        "LO-HI with LO <= HI, got '%s'\n",
                        path, line, alloc);
                return 1;
            }
            p = end_p;
        }
        if (*p && *p != ' ') {
            fprintf(stderr,
                    "batchlab plot: %s:%ld: allocated_resources: expected host "
                    "intervals like '0-3 7', got '%s'\n",
                    path, line, alloc);
            return 1;
        }
        if (eng_grow(rows, rcap, *n + 1, sizeof **rows) != ENG_OK) {
            fprintf(stderr, "batchlab plot: out of memory\n");
            return 1;
        }
        gantt_row r = *proto;
        r.lo = lo;
        r.hi = hi;
        r.first = first;
        (*rows)[(*n)++] = r;
        first = false;
        *max_host = hi > *max_host ? hi : *max_host;
    }
    return 0;
}

static int read_jobs(const char *path, bool by_packet, gantt_row **rows, size_t *n,
                     int64_t *max_host, double *t_min, double *t_max)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "batchlab plot: %s: cannot open: %s\n", path, strerror(errno));
        return 1;
    }
    char *buf = NULL, *fields[BL_CSV_MAX_FIELDS];
    size_t cap = 0, rcap = 0;
    int rc = 0;
    job_cols c = {-1, -1, -1, -1, -1, -1, -1};
    long line = 0, nf;
    while (rc == 0 && getline(&buf, &cap, f) >= 0) {
        line++;
        bl_csv_chomp(buf);
        nf = bl_csv_split(buf, fields, BL_CSV_MAX_FIELDS);
        if (nf < 0 || nf > BL_CSV_MAX_FIELDS) {
            fprintf(stderr, "batchlab plot: %s:%ld: expected CSV fields%s\n", path, line,
                    nf < 0 ? ", found an unterminated quote" : " (at most 128)");
            rc = 1;
            break;
        }
        if (line == 1) {
            rc = job_columns(fields, nf, path, by_packet, &c);
            continue;
        }
        int need = c.id > c.start ? c.id : c.start;
        need = need > c.end ? need : c.end;
        need = need > c.alloc ? need : c.alloc;
        need = need > c.packet ? need : c.packet;
        need = need > c.sub ? need : c.sub;
        need = need > c.state ? need : c.state;
        double id, start, end, sub, packet = -1;
        if (nf <= need || !bl_csv_num(fields[c.id], &id) || !bl_csv_num(fields[c.start], &start) ||
            !bl_csv_num(fields[c.end], &end) || !bl_csv_num(fields[c.sub], &sub) ||
            (c.packet >= 0 && !bl_csv_num(fields[c.packet], &packet))) {
            fprintf(stderr,
                    "batchlab plot: %s:%ld: expected numbers in job_id, "
                    "submission_time, starting_time, finish_time%s\n",
                    path, line, c.packet >= 0 ? " and packet" : "");
            rc = 1;
            break;
        }
        *t_min = sub < *t_min ? sub : *t_min;
        *t_max = end > *t_max ? end : *t_max;
        if (start < 0 || end < start)
            continue; /* never started */
        gantt_row proto = {.start_s = start,
                           .end_s = end,
                           .color_id = by_packet && packet >= 0 ? (int64_t)packet : (int64_t)id,
                           .end = c.state >= 0 ? end_kind(fields[c.state]) : END_OK};
        rc = add_intervals(fields[c.alloc], &proto, path, line, rows, n, &rcap, max_host);
    }
    free(buf);
    fclose(f);
    return rc;
}

/* The series' points (bl_step_pt): v[0] queued jobs, v[1] utilization,
 * v[2] hosts down (host outages; 0 where the file has no down_hosts). */
enum { S_QUEUED, S_UTIL, S_DOWN, S_VALUES };

/* Reads timeseries.csv into pts; 0 or 1 after a message. */
static int read_series(const char *in, bl_step_pt **pts, size_t *n)
{
    FILE *f = fopen(in, "r");
    if (!f) {
        fprintf(stderr, "batchlab plot: %s: cannot open: %s\n", in, strerror(errno));
        return 1;
    }
    char *buf = NULL, *fields[BL_CSV_MAX_FIELDS];
    size_t cap = 0, pcap = 0;
    long line = 0;
    int rc = 0, c_t = -1, c_q = -1, c_u = -1, c_d = -1;
    while (rc == 0 && getline(&buf, &cap, f) >= 0) {
        line++;
        bl_csv_chomp(buf);
        long nf = bl_csv_split(buf, fields, BL_CSV_MAX_FIELDS);
        if (line == 1) {
            c_t = bl_csv_column(fields, nf, "time_s");
            c_q = bl_csv_column(fields, nf, "queued_jobs");
            c_u = bl_csv_column(fields, nf, "utilization");
            c_d = bl_csv_column(fields, nf, "down_hosts"); /* optional: older files lack it */
            if (c_t < 0 || c_q < 0 || c_u < 0) {
                fprintf(stderr,
                        "batchlab plot: %s:1: expected the columns time_s, "
                        "queued_jobs, utilization\n",
                        in);
                rc = 1;
            }
            continue;
        }
        bl_step_pt p = {.t_s = 0};
        int need = c_t > c_q ? (c_t > c_u ? c_t : c_u) : (c_q > c_u ? c_q : c_u);
        if (c_d > need)
            need = c_d;
        if (nf <= need || !bl_csv_num(fields[c_t], &p.t_s) ||
            !bl_csv_num(fields[c_q], &p.v[S_QUEUED]) || !bl_csv_num(fields[c_u], &p.v[S_UTIL]) ||
            (c_d >= 0 && !bl_csv_num(fields[c_d], &p.v[S_DOWN]))) {
            fprintf(stderr,
                    "batchlab plot: %s:%ld: expected numbers in time_s, queued_jobs, "
                    "utilization (and down_hosts)\n",
                    in, line);
            rc = 1;
        } else if (eng_grow(pts, &pcap, *n + 1, sizeof **pts) != ENG_OK) {
            fprintf(stderr, "batchlab plot: out of memory\n");
            rc = 1;
        } else {
            (*pts)[(*n)++] = p;
        }
    }
    free(buf);
    fclose(f);
    return rc;
}

/* series.dat: "time queued utilization down" in the axis unit div, over
 * [lo, hi] (down: hosts down), every event instant or bin_s means
 * (bl_plot_steps_write). 0 or 1 after a message. */
static int write_series(const char *out, const char *in, const bl_step_pt *p, size_t n, double lo,
                        double hi, double bin_s, double div)
{
    return bl_plot_steps_file(out, in, "queued_jobs utilization down_hosts", p, n, S_VALUES, lo, hi,
                              bin_s, div);
}

/* A Gantt chart of a long run is a smear: by default it shows this much of
 * it; the series are aggregated instead. */
#define GANTT_WINDOW_S (7 * 86400.0)
#define LONG_RUN_S (14 * 86400.0)

/* What a run's figures say about it, from summary.json when there is one. */
typedef struct run_meta {
    int64_t hosts; /* the Gantt chart's y extent: hosts, or cores under core allocation */
    char title[512];
    /* Under --alloc core (manifest.alloc) allocated_resources counts cores:
     * host h holds cores host_base[h] .. host_base[h + 1] - 1 (hosts in
     * name order, n_hosts + 1 entries); NULL when summary.json does not say. */
    bool by_core;
    int64_t *host_base;
    size_t n_hosts;
    /* The log's clock (manifest.inputs.workload): job times count seconds
     * from unix_start (-1: the log gives no UnixStartTime), its dates are
     * in the zone tz (a TZ database name; "": the log names none, UTC). */
    int64_t unix_start;
    char tz[128];
} run_meta;

static void run_meta_fini(run_meta *m)
{
    free(m->host_base);
    m->host_base = NULL;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* An integer >= lo at key of js, else -1. */
static int64_t flat_int(const bl_json_flat *js, const char *key, int64_t lo)
{
    const char *s = bl_json_flat_get(js, key);
    double v;
    if (!s || !bl_csv_num(s, &v) || v < (double)lo || v > 1e15 || v != floor(v))
        return -1;
    return (int64_t)v;
}

/* The hosts' core layout: platform.host_cores (runs of equal hosts in name
 * order, written under core allocation), else, from an older summary.json,
 * the pools when every host has the same cores (each pool's cores = hosts
 * x cores_per_node, one cores_per_node). Fills m->host_base; leaves it
 * NULL when neither says, or when memory runs out (the chart then has no
 * host marks). */
static void read_host_layout(const bl_json_flat *js, run_meta *m)
{
    int64_t run_hosts[2], run_cores[2]; /* the pools' single run */
    size_t n_runs = 0, n_hosts = 0;
    char key[96];
    for (;; n_runs++) {
        snprintf(key, sizeof key, "platform.host_cores.%zu.hosts", n_runs);
        int64_t h = flat_int(js, key, 1);
        snprintf(key, sizeof key, "platform.host_cores.%zu.cores", n_runs);
        int64_t c = flat_int(js, key, 1);
        if (h < 0 || c < 0)
            break;
        n_hosts += (size_t)h;
    }
    bool from_pools = n_runs == 0;
    if (from_pools) {
        int64_t cpn = -1, hosts = 0;
        for (size_t k = 0;; k++) {
            snprintf(key, sizeof key, "platform.pools.%zu.hosts", k);
            int64_t h = flat_int(js, key, 1);
            snprintf(key, sizeof key, "platform.pools.%zu.cores", k);
            int64_t c = flat_int(js, key, 1);
            snprintf(key, sizeof key, "platform.pools.%zu.cores_per_node", k);
            int64_t p = flat_int(js, key, 1);
            if (h < 0 || c < 0 || p < 0)
                break;
            if (c != h * p || (cpn >= 0 && p != cpn))
                return; /* hosts of several sizes: their order is unknown */
            cpn = p;
            hosts += h;
        }
        if (cpn < 0 || hosts != flat_int(js, "platform.hosts", 1))
            return;
        run_hosts[0] = hosts;
        run_cores[0] = cpn;
        n_runs = 1;
        n_hosts = (size_t)hosts;
    }
    if (n_hosts == 0 || n_hosts > 100000000)
        return;
    m->host_base = malloc((n_hosts + 1) * sizeof *m->host_base);
    if (!m->host_base)
        return;
    size_t h = 0;
    m->host_base[0] = 0;
    for (size_t r = 0; r < n_runs; r++) {
        int64_t hosts = run_hosts[0], cores = run_cores[0];
        if (!from_pools) {
            snprintf(key, sizeof key, "platform.host_cores.%zu.hosts", r);
            hosts = flat_int(js, key, 1);
            snprintf(key, sizeof key, "platform.host_cores.%zu.cores", r);
            cores = flat_int(js, key, 1);
        }
        for (int64_t k = 0; k < hosts; k++, h++)
            m->host_base[h + 1] = m->host_base[h] + cores;
    }
    m->n_hosts = n_hosts;
}

/* Title "POLICY on WORKLOAD (PLATFORM)", the platform's size and, under
 * core allocation, its core layout from summary.json; the run's folder
 * name as the title when it is absent. */
static void read_run_meta(const char *sum, const char *run, run_meta *m)
{
    memset(m, 0, sizeof *m);
    m->unix_start = -1;
    snprintf(m->title, sizeof m->title, "%s", run);
    bl_json_flat js;
    eng_diag d;
    eng_diag_clear(&d);
    if (!have_file(sum) || bl_json_flat_read(sum, &js, &d) != ENG_OK)
        return;
    const char *alloc = bl_json_flat_get(&js, "manifest.alloc");
    m->by_core = alloc && strcmp(alloc, "core") == 0;
    /* The y extent: hosts, or under core allocation the units (cores). */
    const char *h = bl_json_flat_get(&js, m->by_core ? "platform.units" : "platform.hosts");
    double hv;
    if (h && bl_csv_num(h, &hv) && hv > 0 && hv < 1e15)
        m->hosts = (int64_t)hv;
    if (m->by_core) {
        read_host_layout(&js, m);
        if (m->host_base && m->host_base[m->n_hosts] > m->hosts)
            m->hosts = m->host_base[m->n_hosts];
    }
    m->unix_start = flat_int(&js, "manifest.inputs.workload.unix_start_time", 0);
    const char *tz = bl_json_flat_get(&js, "manifest.inputs.workload.time_zone_string");
    if (tz && strlen(tz) < sizeof m->tz)
        snprintf(m->tz, sizeof m->tz, "%s", tz);
    const char *pol = bl_json_flat_get(&js, "manifest.policy");
    const char *wl = bl_json_flat_get(&js, "manifest.inputs.workload.path");
    const char *pf = bl_json_flat_get(&js, "platform.path");
    if (pol && wl)
        snprintf(m->title, sizeof m->title, "%s on %s%s%s%s", pol, base_name(wl), pf ? " (" : "",
                 pf ? base_name(pf) : "", pf ? ")" : "");
    bl_json_flat_fini(&js);
}

/* gantt.dat (one rectangle per job and run of consecutive hosts, in the
 * window [lo, hi]) and marks.dat (block 0: jobs killed at their requested
 * time, block 1: jobs cut by a host failure, each a point at its end on its
 * first host interval). *drawn counts the jobs in the window, marks[] the
 * two kinds. 0 or 1 after a message. */
static int write_gantt(const char *gantt, const char *marks, const char *jobs,
                       const gantt_row *rows, size_t n, double lo, double hi, double div,
                       const char *unit, bool by_core, size_t *drawn, size_t mark_n[2])
{
    eng_diag d;
    eng_diag_clear(&d);
    eng_afile g, k;
    if (eng_afile_open(&g, gantt, &d) != ENG_OK) {
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    if (eng_afile_open(&k, marks, &d) != ENG_OK) {
        eng_afile_abort(&g);
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    fprintf(g.f,
            "# x y xlow xhigh ylow yhigh rgb: one job on %s ylow..yhigh-1 from "
            "xlow to xhigh (%s), from %s\n",
            by_core ? "cores" : "hosts", unit, jobs);
    *drawn = 0;
    mark_n[0] = mark_n[1] = 0;
    char num[4][40];
    for (size_t i = 0; i < n; i++) {
        const gantt_row *r = &rows[i];
        if (r->end_s < lo || r->start_s > hi)
            continue;
        double x0 = r->start_s / div, x1 = r->end_s / div;
        fprintf(
            g.f, "%s %s %s %s %lld %lld %u\n", eng_fmt_double(num[0], sizeof num[0], (x0 + x1) / 2),
            eng_fmt_double(num[1], sizeof num[1], (double)(r->lo + r->hi + 1) / 2),
            eng_fmt_double(num[2], sizeof num[2], x0), eng_fmt_double(num[3], sizeof num[3], x1),
            (long long)r->lo, (long long)r->hi + 1, bl_plot_color(r->color_id));
        *drawn += r->first;
    }
    if (*drawn == 0) /* gnuplot refuses an empty file */
        fprintf(g.f, "0 0 0 0 0 0 16777215\n");
    fprintf(k.f,
            "# x y: block 0 jobs killed at their requested time, block 1 jobs cut by a "
            "host failure (%s)\n",
            unit);
    for (int kind = END_KILLED; kind <= END_FAILED; kind++) {
        for (size_t i = 0; i < n; i++) {
            const gantt_row *r = &rows[i];
            if (r->end != kind || !r->first || r->end_s < lo || r->end_s > hi)
                continue;
            fprintf(k.f, "%s %s\n", eng_fmt_double(num[0], sizeof num[0], r->end_s / div),
                    eng_fmt_double(num[1], sizeof num[1], (double)(r->lo + r->hi + 1) / 2));
            mark_n[kind - 1]++;
        }
        if (mark_n[kind - 1] == 0)
            fprintf(k.f, "nan nan\n");
        fprintf(k.f, "\n\n");
    }
    if (eng_afile_commit(&g, &d) != ENG_OK) {
        eng_afile_abort(&k);
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    if (eng_afile_commit(&k, &d) != ENG_OK) {
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    return 0;
}

/* What the script draws. */
typedef struct run_fig {
    const char *dir, *gantt, *marks, *series, *title;
    bool has_jobs, has_ts;
    int64_t hosts;
    const char *color;             /* "job" or "packet" */
    double g_lo, g_hi, s_lo, s_hi; /* x ranges of the Gantt chart and the series, in units */
    const char *unit;
    double bin_s; /* 0: every instant; else the bin of the series' means */
    size_t mark_n[2];
    bool outages;         /* some host is down at some time of the series */
    const run_meta *meta; /* by_core: the y axis counts cores, hosts marked */
    bool dates;           /* ticks labelled with the log's dates (--time-axis dates) */
    double div;           /* seconds per unit of the x axis */
    const char *power;    /* power.dat; NULL: timeseries.csv has no power values */
} run_fig;

static void script_xrange(FILE *f, double lo, double hi)
{
    char num[2][40];
    fprintf(f, "set xrange [%s:%s]\n", eng_fmt_double(num[0], sizeof num[0], lo),
            eng_fmt_double(num[1], sizeof num[1], hi > lo ? hi : lo + 1));
}

/* Days from 1970-01-01 to the civil date y-m-d (proleptic Gregorian;
 * Hinnant's days_from_civil). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* A tick step of the date axis: `n` units of minutes, days or months. */
typedef struct date_step {
    char unit; /* 'M' minutes, 'd' days, 'm' months */
    int n;
    double approx_s;
} date_step;

static const date_step date_steps[] = {
    {'M', 1, 60},        {'M', 5, 300},     {'M', 10, 600},    {'M', 15, 900},
    {'M', 30, 1800},     {'M', 60, 3600},   {'M', 120, 7200},  {'M', 180, 10800},
    {'M', 360, 21600},   {'M', 720, 43200}, {'d', 1, 86400},   {'d', 2, 172800},
    {'d', 7, 604800},    {'m', 1, 2629746}, {'m', 3, 7889238}, {'m', 6, 15778476},
    {'m', 12, 31556952},
};

#define DATE_TICKS 8 /* at most, about 130 pixels apart on the 1200-pixel chart */

/* "set xtics (...)" for the window [lo_s, hi_s] of the run's clock: ticks
 * at round local times of the log's zone (whole minutes or hours of the
 * day, midnights, Mondays for weeks, firsts of months), at most DATE_TICKS
 * of them, labelled "YYYY-MM-DD HH:MM" (steps below a day) or
 * "YYYY-MM-DD"; positions in the axis unit (div seconds). Local times
 * come from zone_convert: a day of 23 or 25 hours keeps its ticks on the
 * hour, an hour that the spring skips gets none. */
static void script_date_tics(FILE *f, const run_meta *m, double lo_s, double hi_s, double div)
{
    double span = fmax(hi_s - lo_s, 1);
    size_t k = 0;
    while (k + 1 < BL_N_OPTS(date_steps) && span / date_steps[k].approx_s > DATE_TICKS)
        k++;
    const date_step *st = &date_steps[k];
    time_t t0 = (time_t)floor((double)m->unix_start + lo_s);
    struct tm day;
    fprintf(f, "set xtics (");
    if (zone_convert(m->tz, false, &day, &t0) != 0) {
        fprintf(f, ")\n");
        return;
    }
    day.tm_hour = day.tm_min = day.tm_sec = 0;
    if (st->unit == 'm')
        day.tm_mday = 1;
    size_t n = 0;
    char num[40], label[64];
    /* Walk day by day (months: month by month) from the first one that
     * holds lo_s; a day gives the ticks of its minutes, or itself. */
    for (int guard = 0; guard < 4000 && n < 4 * DATE_TICKS; guard++) {
        struct tm base = day;
        time_t tb;
        if (zone_convert(m->tz, true, &base, &tb) != 0 || (double)tb - (double)m->unix_start > hi_s)
            break;
        int y = day.tm_year + 1900, mo = day.tm_mon + 1;
        int per_day = st->unit == 'M' ? 1440 / st->n : 1;
        bool keep = st->unit == 'M' ||
                    (st->unit == 'd' && st->n == 7
                         ? (days_from_civil(y, mo, day.tm_mday) + 3) % 7 == 0 /* Monday */
                     : st->unit == 'd' ? days_from_civil(y, mo, day.tm_mday) % st->n == 0
                                       : (day.tm_mon % st->n) == 0);
        for (int i = 0; keep && i < per_day; i++) {
            /* Local time moves from the midnight's offset by at most a
             * few hours within a day: ticks far outside the window are
             * skipped before a conversion. */
            double approx = (double)tb - (double)m->unix_start + i * st->n * 60.0;
            if (st->unit == 'M' && (approx < lo_s - 4 * 3600 || approx > hi_s + 4 * 3600))
                continue;
            struct tm tk = day;
            if (st->unit == 'M') {
                tk.tm_hour = i * st->n / 60;
                tk.tm_min = i * st->n % 60;
            }
            int want_h = tk.tm_hour, want_min = tk.tm_min;
            time_t tt;
            if (zone_convert(m->tz, true, &tk, &tt) != 0 || tk.tm_hour != want_h ||
                tk.tm_min != want_min)
                continue; /* a local time the zone skips */
            double x = (double)tt - (double)m->unix_start;
            if (x < lo_s || x > hi_s)
                continue;
            strftime(label, sizeof label, st->unit == 'M' ? "%Y-%m-%d %H:%M" : "%Y-%m-%d", &tk);
            fprintf(f, "%s", n ? ", " : "");
            bl_plot_gp_str(f, label);
            fprintf(f, " %s", eng_fmt_double(num, sizeof num, x / div));
            n++;
        }
        if (st->unit == 'm')
            day.tm_mon++;
        else
            day.tm_mday++;
        day.tm_hour = day.tm_min = day.tm_sec = 0;
        time_t tn;
        if (zone_convert(m->tz, true, &day, &tn) != 0) /* normalizes the date */
            break;
        day.tm_hour = day.tm_min = day.tm_sec = 0;
    }
    /* A window shorter than the smallest step: its two ends, to the
     * second. */
    for (int e = 0; n == 0 && e < 2; e++) {
        double x = e ? hi_s : lo_s;
        time_t te = (time_t)floor((double)m->unix_start + x);
        struct tm tk;
        if (zone_convert(m->tz, false, &tk, &te) != 0)
            break;
        strftime(label, sizeof label, "%Y-%m-%d %H:%M:%S", &tk);
        fprintf(f, "%s", e ? ", " : "");
        bl_plot_gp_str(f, label);
        fprintf(f, " %s", eng_fmt_double(num, sizeof num, x / div));
    }
    fprintf(f, ")\n");
}

/* The x range of a figure, and its date ticks with --time-axis dates. */
static void script_x(FILE *f, const run_fig *r, double lo, double hi)
{
    script_xrange(f, lo, hi);
    if (r->dates)
        script_date_tics(f, r->meta, lo * r->div, hi * r->div, r->div);
}

/* A step of 1, 2 or 5 times a power of ten, at least x. */
static int64_t nice_step(double x)
{
    int64_t p = 1;
    for (;; p *= 10) {
        if (x <= (double)p)
            return p;
        if (x <= 2.0 * (double)p)
            return 2 * p;
        if (x <= 5.0 * (double)p)
            return 5 * p;
    }
}

/* Hosts marked on a core axis: at most this many lines and labelled ticks
 * (at least 10 and 15 pixels apart on the 700-pixel chart); with more
 * hosts, a line every k-th host and a tick every j-th, k and j steps of 1,
 * 2 or 5 times a power of ten, j a multiple of k (every tick sits just
 * above a line). */
#define CORE_AXIS_LINES 60
#define CORE_AXIS_LABELS 40

/* The y axis of a Gantt chart under core allocation: allocated_resources
 * counts cores (base(h) + core, hosts in name order, eng_coreidx.h), so the
 * axis counts cores, a thin line marks each boundary between hosts and
 * each host's index is a tick at its middle (every k-th where there are
 * too many to read). Starts with the newline that ends the title line. */
static void script_core_axis(FILE *f, const run_meta *m, int64_t extent)
{
    if (!m->host_base) {
        fprintf(f, "\nset ylabel \"core (index in host name order; host boundaries not "
                   "recorded in summary.json)\"\n");
        return;
    }
    size_t n = m->n_hosts;
    int64_t k_line = n <= CORE_AXIS_LINES ? 1 : nice_step((double)n / CORE_AXIS_LINES);
    int64_t k_lab = n <= CORE_AXIS_LABELS ? 1 : nice_step((double)n / CORE_AXIS_LABELS);
    while (k_lab % k_line != 0)
        k_lab = nice_step((double)k_lab + 1);
    char lab[80], line[64];
    if (k_lab == 1)
        snprintf(lab, sizeof lab, "host index in name order at the ticks");
    else
        snprintf(lab, sizeof lab, "the index in name order of every %lldth host", (long long)k_lab);
    if (k_line == 1)
        snprintf(line, sizeof line, "lines between hosts");
    else
        snprintf(line, sizeof line, "a line every %lld hosts", (long long)k_line);
    fprintf(f, "\nset ylabel \"core (hosts marked: %s, %s)\"\n", lab, line);
    char num[40];
    fprintf(f, "set ytics (");
    for (size_t h = 0; h < n; h += (size_t)k_lab)
        fprintf(
            f, "%s\"%zu\" %s", h ? ", " : "", h,
            eng_fmt_double(num, sizeof num, (double)(m->host_base[h] + m->host_base[h + 1]) / 2));
    fprintf(f, ")\nset grid noytics\n");
    for (size_t h = (size_t)k_line; h < n; h += (size_t)k_line)
        if (m->host_base[h] < extent)
            fprintf(f,
                    "set arrow from graph 0, first %lld to graph 1, first %lld nohead front "
                    "lw 0.5 lc rgb \"#404040\"\n",
                    (long long)m->host_base[h], (long long)m->host_base[h]);
}

static void script_gantt(FILE *f, const run_fig *r, const char *fmt)
{
    char *o = eng_asprintf("%s/gantt.%s", r->dir, fmt);
    bl_plot_terminal(f, fmt, 1200, 700, o ? o : "gantt");
    free(o);
    script_x(f, r, r->g_lo, r->g_hi);
    fprintf(f, "set title ");
    bl_plot_gp_str(f, r->title);
    if (r->meta->by_core)
        script_core_axis(f, r->meta, r->hosts);
    else
        fprintf(f, "\nset ylabel \"host (index in name order)\"\n");
    fprintf(f, "set yrange [0:%lld]\n", (long long)(r->hosts > 0 ? r->hosts : 1));
    fprintf(f, "set key outside top center horizontal\n");
    fprintf(f, "plot ");
    bl_plot_gp_str(f, r->gantt);
    fprintf(f, " using 1:2:3:4:5:6:7 with boxxyerror fill solid 0.85 noborder "
               "lc rgb variable notitle");
    static const char *const what[2] = {"killed at the requested time", "cut by a host failure"};
    static const char *const style[2] = {"pt 2 ps 1.2 lw 2 lc rgb \"#b00000\"",
                                         "pt 8 ps 1.2 lw 2 lc rgb \"black\""};
    for (int k = 0; k < 2; k++) {
        if (!r->mark_n[k])
            continue;
        fprintf(f, ", \\\n     ");
        bl_plot_gp_str(f, r->marks);
        fprintf(f, " index %d using 1:2 with points %s title \"%zu job%s %s\"", k, style[k],
                r->mark_n[k], r->mark_n[k] == 1 ? "" : "s", what[k]);
    }
    fprintf(f, "\n");
    if (r->meta->by_core && r->meta->host_base)
        fprintf(f, "unset arrow\nset ytics autofreq\nset grid ytics\n");
    fprintf(f, "set yrange [*:*]\nunset key\n");
}

static void script_series(FILE *f, const run_fig *r, const char *fmt)
{
    char *o = eng_asprintf("%s/timeseries.%s", r->dir, fmt);
    bl_plot_terminal(f, fmt, 1200, r->outages ? 950 : 700, o ? o : "timeseries");
    free(o);
    script_x(f, r, r->s_lo, r->s_hi);
    const char *how = r->bin_s >= 86400 ? ", daily means" : r->bin_s > 0 ? ", hourly means" : "";
    fprintf(f, "set multiplot layout %d,1 title ", r->outages ? 3 : 2);
    bl_plot_gp_str(f, r->title);
    fprintf(f,
            "\nset title \"queue length (waiting jobs%s)\"\nset ylabel \"jobs\"\n"
            "set yrange [0:*]\n",
            how);
    fprintf(f, "plot ");
    bl_plot_gp_str(f, r->series);
    fprintf(f, " using 1:2 with steps lw 1.5 notitle\n");
    fprintf(f, "set title \"utilization%s\"\nset ylabel \"busy share\"\nset yrange [0:1.05]\n",
            how);
    fprintf(f, "plot ");
    bl_plot_gp_str(f, r->series);
    fprintf(f, " using 1:3 with steps lw 1.5 notitle\n");
    if (r->outages) { /* host outages: how many hosts are down over time */
        fprintf(f,
                "set title \"host outages (hosts down%s)\"\nset ylabel \"hosts\"\n"
                "set yrange [0:*]\n",
                how);
        fprintf(f, "plot ");
        bl_plot_gp_str(f, r->series);
        fprintf(f, " using 1:4 with fillsteps fs solid 0.35 lc rgb \"#c0392b\" notitle\n");
    }
    fprintf(f, "unset multiplot\nset yrange [*:*]\n");
}

/* power.png/.pdf (cli_plot_power.c draws the plots), the series' window. */
static void script_power(FILE *f, const run_fig *r, const char *fmt)
{
    char *o = eng_asprintf("%s/power.%s", r->dir, fmt);
    bl_plot_terminal(f, fmt, 1200, 800, o ? o : "power");
    free(o);
    script_x(f, r, r->s_lo, r->s_hi);
    bl_plot_power_script(f, r->power, r->title,
                         r->bin_s >= 86400 ? ", daily means"
                         : r->bin_s > 0    ? ", hourly means"
                                           : "");
}

/* plot.gp: the Gantt chart, the series and the power figure, PNG then PDF.
 * 0 or 1. */
static int write_run_script(const char *script, const char *run, const run_fig *r)
{
    eng_diag d;
    eng_diag_clear(&d);
    eng_afile s;
    if (eng_afile_open(&s, script, &d) != ENG_OK) {
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    FILE *f = s.f;
    fprintf(f,
            "# batchlab plot %s: Gantt chart (%s x time, colour per %s) and queue "
            "length and utilization over time.\n# Run: gnuplot %s\n",
            run, r->meta->by_core ? "cores" : "hosts", r->color, script);
    if (!r->dates)
        fprintf(f, "set xlabel \"time (%s, the run's clock)\"\nset grid\n", r->unit);
    else if (r->meta->tz[0]) {
        fprintf(f, "set xlabel ");
        char *l = eng_asprintf("date and time in %s (the log's TimeZoneString)", r->meta->tz);
        bl_plot_gp_str(f, l ? l : "date and time");
        free(l);
        fprintf(f, "\nset grid\n");
    } else {
        fprintf(f, "set xlabel \"date and time, UTC (the log gives no TimeZoneString)\"\n"
                   "set grid\n");
    }
    for (int k = 0; k < 2; k++) {
        const char *fmt = k == 0 ? "png" : "pdf";
        if (k == 1)
            fprintf(f, "if (strstrt(GPVAL_TERMINALS, \"pdfcairo\") > 0) {\n");
        if (r->has_jobs)
            script_gantt(f, r, fmt);
        if (r->has_ts)
            script_series(f, r, fmt);
        if (r->power)
            script_power(f, r, fmt);
        if (k == 1)
            fprintf(f, "}\n");
    }
    fprintf(f, "set output\n");
    if (ferror(f)) {
        eng_afile_abort(&s);
        fprintf(stderr, "batchlab plot: %s: cannot write\n", script);
        return 1;
    }
    if (eng_afile_commit(&s, &d) != ENG_OK) {
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    return 0;
}

/* The time axis: by the span drawn (seconds up to 2 h, hours up to 14
 * days, days beyond), one unit, or the log's dates. */
enum { AXIS_AUTO, AXIS_SECONDS, AXIS_HOURS, AXIS_DAYS, AXIS_DATES };

/* plot RUN's options: the colouring, the window and the time axis. */
typedef struct run_opts {
    int color_idx, axis;
    bool all;
    const char *when_s[2]; /* --from, --to as given (NULL: absent) */
    double when[2];        /* seconds on the run's clock; -inf, +inf when absent */
    bool is_date[2];       /* given as a date: known once the log's clock is */
} run_opts;

static const char *const when_name[2] = {"from", "to"};

static int check_window(const run_opts *o)
{
    if (!(o->when[0] < o->when[1])) {
        fprintf(stderr, "batchlab plot: expected --from below --to\n");
        return 2;
    }
    return 0;
}

/* The options, before any file is read: a date's syntax is checked here,
 * its value is known only with the log's clock (run_opts_dates). 0, or 2
 * after the message. */
static int run_opts_parse(const bl_args *a, run_opts *o)
{
    memset(o, 0, sizeof *o);
    const char *color = bl_args_value(a, "color", "job");
    if (bl_args_choice("plot", "color", color, "job|packet", &o->color_idx) ||
        bl_args_choice("plot", "time-axis", bl_args_value(a, "time-axis", "auto"),
                       "auto|seconds|hours|days|dates", &o->axis))
        return 2;
    o->when[0] = -INFINITY;
    o->when[1] = INFINITY;
    for (int k = 0; k < 2; k++) {
        const char *v = o->when_s[k] = bl_args_value(a, when_name[k], NULL);
        if (!v)
            continue;
        int rc = bl_plot_parse_time(v, -1, NULL, &o->when[k]);
        o->is_date[k] = rc == BL_TIME_NO_START;
        if (rc != BL_TIME_OK && rc != BL_TIME_NO_START) {
            fprintf(stderr,
                    "batchlab plot: --%s: expected seconds, a duration (90s, 30m, 36h, 2d, 1w) "
                    "or a date (2024-03-01, 2024-03-01T12:00), got '%s'\n",
                    when_name[k], v);
            return 2;
        }
    }
    if (!o->is_date[0] && !o->is_date[1] && check_window(o))
        return 2;
    o->all = bl_args_flag(a, "all");
    if (o->all && (o->when_s[0] || o->when_s[1])) {
        fprintf(stderr, "batchlab plot: --all draws the whole run: expected no --from/--to "
                        "with it\n");
        return 2;
    }
    return 0;
}

/* The dates of --from/--to and --time-axis dates, with the log's clock
 * from summary.json (sum). 0; 2 (usage) when a date is given but the log
 * has no UnixStartTime; 1 when its time zone is unknown; after the
 * message. */
static int run_opts_dates(run_opts *o, const run_meta *m, const char *sum)
{
    for (int k = -1; k < 2; k++) {
        bool need = k < 0 ? o->axis == AXIS_DATES : o->is_date[k];
        if (!need)
            continue;
        char what[160];
        if (k < 0)
            snprintf(what, sizeof what, "--time-axis dates");
        else
            snprintf(what, sizeof what, "--%s %.100s", when_name[k], o->when_s[k]);
        if (m->unix_start < 0) {
            fprintf(stderr,
                    "batchlab plot: %s: a date needs the log's UnixStartTime, and %s "
                    "records none (the log's header has none, or summary.json is absent or "
                    "older); give seconds or a duration instead\n",
                    what, sum);
            return 2;
        }
        if (!zone_known(m->tz)) {
            fprintf(stderr,
                    "batchlab plot: %s: manifest.inputs.workload.time_zone_string: expected a "
                    "time zone of the TZ database (e.g. Europe/Berlin) or a POSIX TZ rule, got "
                    "'%s' (for %s)\n",
                    sum, m->tz, what);
            return 1;
        }
        if (k >= 0 && bl_plot_parse_time(o->when_s[k], m->unix_start, m->tz, &o->when[k]) != 0) {
            fprintf(stderr, "batchlab plot: %s: expected a date the C library can convert\n", what);
            return 2;
        }
    }
    return check_window(o) ? 2 : 0;
}

/* The files plot RUN reads (in the run's folder) and writes (in the plot
 * folder, made here). */
typedef struct run_files {
    char *run, *jobs, *ts, *sum, *dir, *gantt, *marks, *series, *script;
} run_files;

static void run_files_fini(run_files *f)
{
    free(f->run);
    free(f->jobs);
    free(f->ts);
    free(f->sum);
    free(f->dir);
    free(f->gantt);
    free(f->marks);
    free(f->series);
    free(f->script);
}

/* The paths of the run's files, absolute; the plot folder's (out_opt, else
 * RUN/plot), made by run_files_mkdir. 0, or 1 after the message. */
static int run_files_init(run_files *f, const char *run, const char *out_opt)
{
    memset(f, 0, sizeof *f);
    f->run = realpath(run, NULL);
    if (!f->run) {
        fprintf(stderr, "batchlab plot: %s: cannot open the run's folder: %s\n", run,
                strerror(errno));
        return 1;
    }
    f->jobs = eng_asprintf("%s/jobs.csv", f->run);
    f->ts = eng_asprintf("%s/timeseries.csv", f->run);
    f->sum = eng_asprintf("%s/summary.json", f->run);
    f->dir = out_opt ? eng_strdup(out_opt) : eng_asprintf("%s/plot", f->run);
    if (!f->jobs || !f->ts || !f->sum || !f->dir) {
        fprintf(stderr, "batchlab plot: out of memory\n");
        return 1;
    }
    if (!have_file(f->jobs) && !have_file(f->ts)) {
        fprintf(stderr,
                "batchlab plot: %s: expected jobs.csv or timeseries.csv in it (batchlab "
                "run --out DIR writes both; --outputs must list jobs or timeseries)\n",
                f->run);
        return 1;
    }
    return 0;
}

/* Makes the plot folder and the paths in it. 0, or 1 after the message. */
static int run_files_mkdir(run_files *f)
{
    eng_diag d;
    eng_diag_clear(&d);
    if (eng_mkdir_p(f->dir, &d) != ENG_OK) {
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    char *dir_abs = realpath(f->dir, NULL);
    if (dir_abs) {
        free(f->dir);
        f->dir = dir_abs;
    }
    f->gantt = eng_asprintf("%s/gantt.dat", f->dir);
    f->marks = eng_asprintf("%s/marks.dat", f->dir);
    f->series = eng_asprintf("%s/series.dat", f->dir);
    f->script = eng_asprintf("%s/plot.gp", f->dir);
    if (!f->gantt || !f->marks || !f->series || !f->script) {
        fprintf(stderr, "batchlab plot: out of memory\n");
        return 1;
    }
    return 0;
}

/* What plot RUN draws, in seconds: the Gantt chart's window [g_lo, g_hi]
 * and the series' [s_lo, s_hi]; div, the seconds of the axes' unit. */
typedef struct run_window {
    double g_lo, g_hi, s_lo, s_hi, div;
    bool cut; /* a long run's Gantt chart cut to its first week */
} run_window;

/* The windows: --from/--to for both figures; a long run without them
 * shows its first week in the Gantt chart and aggregates the series
 * (hourly or daily means, fig->bin_s); the unit (fig->unit) follows the
 * span unless --time-axis names one. fig's ranges are set in that unit. */
static run_window choose_windows(run_fig *fig, const run_opts *o, double t_min, double t_max)
{
    double from = o->when[0], to = o->when[1];
    bool all = o->all;
    run_window w;
    bool windowed = isfinite(from) || isfinite(to);
    w.g_lo = isfinite(from) ? from : t_min;
    w.g_hi = isfinite(to) ? to : t_max;
    w.s_lo = w.g_lo;
    w.s_hi = w.g_hi;
    w.cut = !windowed && !all && fig->has_jobs && t_max - t_min > LONG_RUN_S;
    if (w.cut)
        w.g_hi = t_min + GANTT_WINDOW_S;
    double s_span = w.s_hi - w.s_lo;
    fig->bin_s = all || s_span <= 2 * 86400 ? 0 : s_span <= 60 * 86400 ? 3600 : 86400;
    double span = fmax(w.g_hi - w.g_lo, s_span);
    fig->unit = span <= 7200 ? "s" : span <= LONG_RUN_S ? "h" : "days";
    if (o->axis == AXIS_SECONDS || o->axis == AXIS_HOURS || o->axis == AXIS_DAYS)
        fig->unit = o->axis == AXIS_SECONDS ? "s" : o->axis == AXIS_HOURS ? "h" : "days";
    w.div = fig->unit[0] == 's' ? 1 : fig->unit[0] == 'h' ? 3600 : 86400;
    fig->div = w.div;
    fig->dates = o->axis == AXIS_DATES;
    fig->g_lo = w.g_lo / w.div;
    fig->g_hi = w.g_hi / w.div;
    fig->s_lo = w.s_lo / w.div;
    fig->s_hi = w.s_hi / w.div;
    return w;
}

int bl_plot_run(const char *run, const bl_args *a)
{
    run_opts o;
    if (run_opts_parse(a, &o))
        return 2;
    int color_idx = o.color_idx;
    double from = o.when[0], to = o.when[1];
    run_files f;
    gantt_row *rows = NULL;
    bl_step_pt *pts = NULL, *pw = NULL;
    char *pw_dat = NULL;
    size_t n_pw = 0;
    size_t n = 0, n_pts = 0;
    int rc = 1;
    run_meta meta = {0};
    if (run_files_init(&f, run, bl_args_value(a, "output", NULL)))
        goto done;
    read_run_meta(f.sum, f.run, &meta);
    rc = run_opts_dates(&o, &meta, f.sum);
    if (rc != 0)
        goto done;
    rc = 1;
    from = o.when[0];
    to = o.when[1];
    bool has_jobs = have_file(f.jobs), has_ts = have_file(f.ts);
    int64_t max_host = -1;
    double t_min = INFINITY, t_max = -INFINITY;
    if (has_jobs && read_jobs(f.jobs, color_idx == 1, &rows, &n, &max_host, &t_min, &t_max))
        goto done;
    if (has_ts && (read_series(f.ts, &pts, &n_pts) || bl_plot_power_read(f.ts, &pw, &n_pw)))
        goto done;
    for (size_t i = 0; i < n_pts; i++) {
        t_min = fmin(t_min, pts[i].t_s);
        t_max = fmax(t_max, pts[i].t_s);
    }
    if (!isfinite(t_min))
        t_min = t_max = 0;
    meta.hosts = meta.hosts > max_host + 1 ? meta.hosts : max_host + 1;
    run_fig fig = {.title = meta.title,
                   .has_jobs = has_jobs,
                   .has_ts = has_ts,
                   .hosts = meta.hosts,
                   .meta = &meta,
                   .color = color_idx ? "packet" : "job"};
    run_window w = choose_windows(&fig, &o, t_min, t_max);
    for (size_t i = 0; i < n_pts && !fig.outages; i++)
        fig.outages = pts[i].v[S_DOWN] > 0 && pts[i].t_s <= w.s_hi &&
                      (i + 1 == n_pts || pts[i + 1].t_s > w.s_lo);
    if (has_jobs && (isfinite(from) || isfinite(to))) {
        size_t drawn = 0;
        for (size_t i = 0; i < n; i++)
            drawn += rows[i].first && !(rows[i].end_s < w.g_lo || rows[i].start_s > w.g_hi);
        if (drawn == 0) {
            char num[4][40];
            fprintf(stderr,
                    "batchlab plot: %s: no job runs between %s and %s s (the run spans "
                    "%s to %s s)\n",
                    f.run,
                    isfinite(from) ? eng_fmt_double(num[0], sizeof num[0], from) : "the start",
                    isfinite(to) ? eng_fmt_double(num[1], sizeof num[1], to) : "the end",
                    eng_fmt_double(num[2], sizeof num[2], t_min),
                    eng_fmt_double(num[3], sizeof num[3], t_max));
            goto done;
        }
    }
    /* Nothing is written before this point. */
    if (run_files_mkdir(&f))
        goto done;
    fig.dir = f.dir;
    fig.gantt = f.gantt;
    fig.marks = f.marks;
    fig.series = f.series;
    size_t drawn;
    if (has_jobs && write_gantt(f.gantt, f.marks, f.jobs, rows, n, w.g_lo, w.g_hi, w.div, fig.unit,
                                meta.by_core, &drawn, fig.mark_n))
        goto done;
    if (has_ts && write_series(f.series, f.ts, pts, n_pts, w.s_lo, w.s_hi, fig.bin_s, w.div))
        goto done;
    if (n_pw > 0) {
        pw_dat = eng_asprintf("%s/power.dat", f.dir);
        if (!pw_dat) {
            fprintf(stderr, "batchlab plot: out of memory\n");
            goto done;
        }
        if (bl_plot_power_write(pw_dat, f.ts, pw, n_pw, w.s_lo, w.s_hi, fig.bin_s, w.div))
            goto done;
        fig.power = pw_dat;
    }
    if (write_run_script(f.script, f.run, &fig))
        goto done;
    rc = bl_args_flag(a, "no-render") ? 0 : bl_plot_render(f.script);
    if (rc == 0) {
        printf("%s: %s%s%s%s\n", f.dir, has_jobs ? "gantt" : "", has_jobs && has_ts ? " and " : "",
               has_ts ? "timeseries" : "", fig.power ? " and power" : "");
        if (w.cut)
            printf("the run spans %.0f days: the Gantt chart shows its first 7 (--from/--to "
                   "choose the window, --all draws everything); the series are %s means\n",
                   (t_max - t_min) / 86400, fig.bin_s >= 86400 ? "daily" : "hourly");
    }
done:
    run_files_fini(&f);
    run_meta_fini(&meta);
    free(rows);
    free(pts);
    free(pw);
    free(pw_dat);
    return rc;
}
