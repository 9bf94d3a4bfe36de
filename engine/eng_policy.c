/* eng_policy.c — the engine's side of the policy boundary (eng_policy.h):
 * the decision buffer a policy fills (pol_out_*), the options (the check
 * of the key=value pairs against a policy's declared options, the one
 * parser of their values, the typed getters init reads them with, their
 * description for `batchlab policies`) and the queue lookup
 * (pol_queue_find).
 *
 * It knows no policy by name: the table of policies is the registry
 * (policies/pol_registry.c), which only the command line and the tests
 * link. The engine calls this file, never anything in policies/.
 */
#include "eng_policy.h"

#include "eng_error.h"
#include "eng_util.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- options ------------------------------------------------------------
 *
 * The one parser of option values. Each type's text is parsed here, into
 * the value the getters hand to init; pol_check_options runs the same
 * parse before init, so a getter never meets a value it cannot read. */

const pol_option *pol_option_find(const pol_option *table, const char *key)
{
    for (const pol_option *o = table; o && o->key; o++)
        if (strcmp(o->key, key) == 0)
            return o;
    return NULL;
}

bool pol_parse_int(const char *v, int64_t *out)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (end == v || *end || errno)
        return false;
    *out = (int64_t)x;
    return true;
}

/* A finite number, the whole text. */
static bool read_real(const char *v, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end || !isfinite(x))
        return false;
    *out = x;
    return true;
}

/* Up to max non-negative integers separated by ':' into f[]; how many, or
 * -1. */
static int read_fields(const char *s, long f[], int max)
{
    int n = 0;
    for (;;) {
        if (n == max || *s < '0' || *s > '9')
            return -1;
        char *end;
        errno = 0;
        f[n++] = strtol(s, &end, 10);
        if (errno)
            return -1;
        if (*end == '\0')
            return n;
        if (*end != ':')
            return -1;
        s = end + 1;
    }
}

/* Slurm's time formats (slurm.conf(5)): "MIN", "MIN:SEC", "H:MIN:SEC",
 * "D-H", "D-H:MIN", "D-H:MIN:SEC". Seconds, or -1. */
static double slurm_time_s(const char *s)
{
    long f[3];
    const char *dash = strchr(s, '-');
    if (dash) {
        char *end;
        errno = 0;
        if (*s < '0' || *s > '9')
            return -1;
        long days = strtol(s, &end, 10);
        if (errno || end != dash)
            return -1;
        int n = read_fields(dash + 1, f, 3);
        if (n < 0)
            return -1;
        double h = (double)f[0], m = n > 1 ? (double)f[1] : 0, sec = n > 2 ? (double)f[2] : 0;
        return (double)days * 86400 + h * 3600 + m * 60 + sec;
    }
    int n = read_fields(s, f, 3);
    if (n == 1)
        return (double)f[0] * 60;
    if (n == 2)
        return (double)f[0] * 60 + (double)f[1];
    if (n == 3)
        return (double)f[0] * 3600 + (double)f[1] * 60 + (double)f[2];
    return -1;
}

static bool in_range(const pol_option *o, double x)
{
    return (o->open_lo ? x > o->lo : x >= o->lo) && (o->open_hi ? x < o->hi : x <= o->hi);
}

static int choice_index(const pol_option *o, const char *w, size_t len)
{
    for (int i = 0; o->choices && o->choices[i]; i++)
        if (strlen(o->choices[i]) == len && strncmp(o->choices[i], w, len) == 0)
            return i;
    return -1;
}

/* One pair "A:B" at *p, B within [min, max]; advances *p past it and its
 * ','. False when malformed (a ',' must be followed by another pair). */
static bool read_pair(const pol_option *o, const char **p, pol_opt_pair *out)
{
    char *end;
    errno = 0;
    long long a = strtoll(*p, &end, 10);
    if (end == *p || *end != ':' || errno)
        return false;
    const char *q = end + 1;
    long long b = strtoll(q, &end, 10);
    if (end == q || errno || b < o->min || b > o->max || (*end && *end != ','))
        return false;
    *out = (pol_opt_pair){.a = a, .b = b};
    *p = *end ? end + 1 : end;
    return !(*end && !**p);
}

/* A parsed value: what the getters return. */
typedef struct opt_value {
    int64_t i;   /* INT, CHOICE, BOOL; WORDS: the set */
    double r;    /* REAL, DURATION */
    size_t n;    /* PAIRS: how many */
    int missing; /* WORDS: a ',' ends the list */
} opt_value;

/* Parses v as o's type; pairs, when not NULL, receives up to cap of them.
 * False when v is not a value of o. */
static bool parse_value(const pol_option *o, const char *v, opt_value *out, pol_opt_pair *pairs,
                        size_t cap)
{
    memset(out, 0, sizeof *out);
    switch (o->type) {
    case POL_OPT_INT:
        return pol_parse_int(v, &out->i) && out->i >= o->min && out->i <= o->max;
    case POL_OPT_REAL:
        return read_real(v, &out->r) && in_range(o, out->r);
    case POL_OPT_DURATION:
        out->r = slurm_time_s(v);
        return out->r >= 0 && in_range(o, out->r);
    case POL_OPT_CHOICE:
        out->i = choice_index(o, v, strlen(v));
        return out->i >= 0;
    case POL_OPT_BOOL:
        out->i = strcmp(v, "yes") == 0;
        return out->i || strcmp(v, "no") == 0;
    case POL_OPT_STRING:
        return true;
    case POL_OPT_WORDS:
        for (const char *p = v; *p;) {
            size_t len = strcspn(p, ",");
            int k = choice_index(o, p, len);
            if (k < 0)
                return false;
            out->i |= (int64_t)1 << k;
            p += len;
            if (*p == ',' && !*++p) {
                out->missing = 1;
                return false;
            }
        }
        return true;
    case POL_OPT_PAIRS:
        for (const char *p = v; *p;) {
            pol_opt_pair pr;
            if (!read_pair(o, &p, &pr))
                return false;
            if (pairs && out->n < cap)
                pairs[out->n] = pr;
            out->n++;
        }
        return true;
    }
    return false;
}

/* Appends to buf (len bytes, NUL-terminated) as snprintf would. */
static void add(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strnlen(buf, len);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

/* "a", "a or b", "a, b or c" (sep "or"), or joined by '|' (sep NULL). */
static void add_words(char *buf, size_t len, const char *const *w, const char *last)
{
    for (size_t i = 0; w && w[i]; i++) {
        const char *sep = i == 0 ? "" : !last ? "|" : w[i + 1] ? ", " : last;
        add(buf, len, "%s%s", sep, w[i]);
    }
}

static const char *num(char *b, double x)
{
    return eng_fmt_double(b, 32, x);
}

/* A real range in words: "a positive number", "a number >= 1", "a number
 * in [0, 1000]", "a number". */
static void add_real_range(char *buf, size_t len, const pol_option *o, const char *what)
{
    char a[32], b[32];
    bool has_lo = isfinite(o->lo), has_hi = isfinite(o->hi);
    if (has_lo && has_hi)
        add(buf, len, "%s in %c%s, %s%c", what, o->open_lo ? '(' : '[', num(a, o->lo),
            num(b, o->hi), o->open_hi ? ')' : ']');
    else if (has_lo && o->lo == 0 && o->open_lo)
        add(buf, len, "a positive %s", what + 2); /* "a number" -> "a positive number" */
    else if (has_lo)
        add(buf, len, "%s %s %s", what, o->open_lo ? ">" : ">=", num(a, o->lo));
    else if (has_hi)
        add(buf, len, "%s %s %s", what, o->open_hi ? "<" : "<=", num(b, o->hi));
    else
        add(buf, len, "%s", what);
}

#define SLURM_FORMATS "MIN, MIN:SEC, H:MIN:SEC, D-H, D-H:MIN or D-H:MIN:SEC"

/* What a value of o must be, for messages: "an integer in 1..1024",
 * "queue or sjf", "a non-zero Slurm time (MIN, ...)". */
static void expected(const pol_option *o, char *buf, size_t len)
{
    buf[0] = '\0';
    switch (o->type) {
    case POL_OPT_INT:
        if (o->min == 0 && o->max == INT64_MAX)
            add(buf, len, "a non-negative integer");
        else if (o->min == 0)
            add(buf, len, "a non-negative integer (at most %" PRId64 ")", o->max);
        else if (o->min == INT64_MIN && o->max == INT64_MAX)
            add(buf, len, "an integer");
        else if (o->max == INT64_MAX)
            add(buf, len, "an integer >= %" PRId64, o->min);
        else
            add(buf, len, "an integer in %" PRId64 "..%" PRId64, o->min, o->max);
        break;
    case POL_OPT_REAL:
        add_real_range(buf, len, o, "a number");
        break;
    case POL_OPT_DURATION:
        if (o->lo == 0 && o->open_lo && !isfinite(o->hi))
            add(buf, len, "a non-zero ");
        else if (!(o->lo == 0 && !isfinite(o->hi))) {
            add_real_range(buf, len, o, "a time in seconds");
            add(buf, len, " as a ");
        }
        add(buf, len, "%sSlurm time (" SLURM_FORMATS ")", buf[0] ? "" : "a ");
        break;
    case POL_OPT_CHOICE:
        add_words(buf, len, o->choices, " or ");
        break;
    case POL_OPT_BOOL:
        add(buf, len, "yes or no");
        break;
    case POL_OPT_STRING:
        add(buf, len, "%s", o->metavar ? o->metavar : "a text");
        break;
    case POL_OPT_WORDS:
        add(buf, len, "a comma-separated list of ");
        add_words(buf, len, o->choices, ", ");
        break;
    case POL_OPT_PAIRS: {
        const char *mv = o->metavar ? o->metavar : "A:B";
        const char *second = strchr(mv, ':') ? strchr(mv, ':') + 1 : "B";
        add(buf, len, "%s[,%s...] with integers, ", mv, mv);
        if (o->max == INT64_MAX)
            add(buf, len, "%s >= %" PRId64, second, o->min);
        else
            add(buf, len, "%s in %" PRId64 "..%" PRId64, second, o->min, o->max);
        break;
    }
    }
}

/* Slurm's shortest form of a time: "7-0", "5" (minutes), "1:30". */
static void add_slurm_time(char *buf, size_t len, double s)
{
    char b[32];
    if (s != floor(s) || s > 9e15)
        add(buf, len, "%s", num(b, s / 60)); /* minutes with a fraction: never declared */
    else if (s >= 86400 && fmod(s, 86400) == 0)
        add(buf, len, "%.0f-0", s / 86400);
    else if (fmod(s, 60) == 0)
        add(buf, len, "%.0f", s / 60);
    else
        add(buf, len, "%.0f:%.0f", floor(s / 60), fmod(s, 60));
}

void pol_option_describe(const pol_option *o, char *values, size_t values_len, char *def,
                         size_t def_len)
{
    values[0] = def[0] = '\0';
    switch (o->type) {
    case POL_OPT_INT:
    case POL_OPT_REAL:
    case POL_OPT_DURATION:
    case POL_OPT_STRING:
    case POL_OPT_WORDS:
    case POL_OPT_PAIRS:
        expected(o, values, values_len);
        break;
    case POL_OPT_CHOICE:
        add_words(values, values_len, o->choices, NULL);
        break;
    case POL_OPT_BOOL:
        add(values, values_len, "yes|no");
        break;
    }
    if (o->unit)
        add(values, values_len, " (%s)", o->unit);
    char b[32];
    if (o->absent) {
        add(def, def_len, "(%s)", o->absent);
        return;
    }
    switch (o->type) {
    case POL_OPT_INT:
        add(def, def_len, "%" PRId64, o->def_int);
        break;
    case POL_OPT_REAL:
        add(def, def_len, "%s", num(b, o->def_real));
        break;
    case POL_OPT_DURATION:
        add_slurm_time(def, def_len, o->def_real);
        break;
    case POL_OPT_CHOICE:
        add(def, def_len, "%s", o->choices ? o->choices[o->def_int] : "?");
        break;
    case POL_OPT_BOOL:
        add(def, def_len, "%s", o->def_int ? "yes" : "no");
        break;
    case POL_OPT_STRING:
    case POL_OPT_PAIRS:
        add(def, def_len, "(none)");
        break;
    case POL_OPT_WORDS:
        if (!o->def_int)
            add(def, def_len, "(none)");
        for (int i = 0, first = 1; o->choices && o->choices[i]; i++)
            if (o->def_int >> i & 1) {
                add(def, def_len, "%s%s", first ? "" : ",", o->choices[i]);
                first = 0;
            }
        break;
    }
}

static void append_accepted(const pol_type *type, char *buf, size_t len)
{
    size_t used = strlen(buf);
    if (!type->options || !type->options[0].key) {
        snprintf(buf + used, len - used, " (it accepts none)");
        return;
    }
    used += (size_t)snprintf(buf + used, len - used, " (accepted:");
    for (const pol_option *o = type->options; o->key && used < len; o++)
        used += (size_t)snprintf(buf + used, len - used, " %s", o->key);
    if (used < len)
        snprintf(buf + used, len - used, ")");
}

int pol_check_declarations(const pol_type *type, char *err, size_t errlen)
{
    for (const pol_option *o = type->options; o && o->key; o++) {
        size_t words = 0;
        while (o->choices && o->choices[words])
            words++;
        bool by_words = o->type == POL_OPT_CHOICE || o->type == POL_OPT_WORDS;
        const char *why = NULL;
        if (!o->key[0])
            why = "has an empty key";
        else if (pol_option_find(type->options, o->key) != o)
            why = "is declared twice";
        else if (!o->help || !o->help[0])
            why = "has no help text";
        else if (o->type < POL_OPT_INT || o->type > POL_OPT_PAIRS)
            why = "has no type of pol_opt_type";
        else if (by_words && (words == 0 || words > 63))
            why = "needs 1 to 63 words (choices)";
        else if (!by_words && o->choices)
            why = "has words (choices) but is not a choice or a list of words";
        else if (o->type == POL_OPT_CHOICE && (o->def_int < 0 || (size_t)o->def_int >= words))
            why = "has a default that is not one of its words";
        else if (o->min > o->max || o->lo > o->hi)
            why = "has a range out of order";
        if (why) {
            snprintf(err, errlen, "policy %s: option %s %s", type->name, o->key, why);
            return ENG_POLICY;
        }
    }
    return ENG_OK;
}

int pol_check_options(const pol_type *type, const pol_kv *options, size_t n, char *err,
                      size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        const pol_option *o = pol_option_find(type->options, options[i].key);
        if (!o) {
            snprintf(err, errlen, "unknown option '%s' for policy %s", options[i].key, type->name);
            append_accepted(type, err, errlen);
            return ENG_INVAL;
        }
        for (size_t j = 0; j < i; j++)
            if (strcmp(options[j].key, options[i].key) == 0) {
                snprintf(err, errlen, "option '%s' given twice for policy %s", options[i].key,
                         type->name);
                return ENG_INVAL;
            }
        opt_value v;
        if (!parse_value(o, options[i].value, &v, NULL, 0)) {
            char what[320];
            expected(o, what, sizeof what);
            bool list = o->type == POL_OPT_WORDS || o->type == POL_OPT_PAIRS;
            snprintf(err, errlen, "policy %s: option %s: expected %s%s got '%s'%s", type->name,
                     o->key, what, list ? ";" : ",", options[i].value,
                     v.missing ? " (a word is missing after ',')" : "");
            return ENG_INVAL;
        }
    }
    return ENG_OK;
}

/* The declaration of key, which must be of type t, and its value given,
 * or NULL when absent. */
static const pol_option *declared(const pol_setup *setup, const char *key, pol_opt_type t,
                                  const char **given)
{
    const pol_option *o = pol_option_find(setup->declared, key);
    assert(o && o->type == t); /* a policy reads only what it declared, as declared */
    (void)t;
    *given = NULL;
    for (size_t i = 0; i < setup->n_options; i++)
        if (strcmp(setup->options[i].key, key) == 0)
            *given = setup->options[i].value;
    return o;
}

/* The value of key: parsed when given (checked before init), else the
 * declared default. */
static opt_value value_of(const pol_setup *setup, const char *key, pol_opt_type t)
{
    const char *v;
    const pol_option *o = declared(setup, key, t, &v);
    opt_value x = {.i = o ? o->def_int : 0, .r = o ? o->def_real : 0};
    if (o && v) {
        bool ok = parse_value(o, v, &x, NULL, 0);
        assert(ok); /* pol_check_options accepted it */
        (void)ok;
    }
    return x;
}

bool pol_opt_given(const pol_setup *setup, const char *key)
{
    for (size_t i = 0; i < setup->n_options; i++)
        if (strcmp(setup->options[i].key, key) == 0)
            return true;
    return false;
}

int64_t pol_opt_int(const pol_setup *setup, const char *key)
{
    return value_of(setup, key, POL_OPT_INT).i;
}

double pol_opt_real(const pol_setup *setup, const char *key)
{
    const pol_option *o = pol_option_find(setup->declared, key);
    return value_of(setup, key, o && o->type == POL_OPT_DURATION ? POL_OPT_DURATION : POL_OPT_REAL)
        .r;
}

int pol_opt_choice(const pol_setup *setup, const char *key)
{
    return (int)value_of(setup, key, POL_OPT_CHOICE).i;
}

bool pol_opt_bool(const pol_setup *setup, const char *key)
{
    return value_of(setup, key, POL_OPT_BOOL).i != 0;
}

uint64_t pol_opt_words(const pol_setup *setup, const char *key)
{
    return (uint64_t)value_of(setup, key, POL_OPT_WORDS).i;
}

const char *pol_opt_str(const pol_setup *setup, const char *key)
{
    const char *v;
    declared(setup, key, POL_OPT_STRING, &v);
    return v;
}

size_t pol_opt_pairs(const pol_setup *setup, const char *key, pol_opt_pair *out, size_t cap)
{
    const char *v;
    const pol_option *o = declared(setup, key, POL_OPT_PAIRS, &v);
    opt_value x = {0};
    if (o && v) {
        bool ok = parse_value(o, v, &x, out, cap);
        assert(ok);
        (void)ok;
    }
    return x.n;
}

const pol_job *pol_queue_find(const pol_view *v, int32_t idx)
{
    size_t lo = 0, hi = v->n_queue;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (v->queue[mid]->idx < idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < v->n_queue && v->queue[lo]->idx == idx)
        return v->queue[lo];
    for (size_t i = 0; v->feedback && i < v->n_queue; i++) /* submit order, not idx */
        if (v->queue[i]->idx == idx)
            return v->queue[i];
    return NULL;
}

void pol_out_init(pol_out *out)
{
    memset(out, 0, sizeof *out);
    out->wakeup_s = INFINITY;
}

void pol_out_reset(pol_out *out)
{
    out->n_starts = out->n_hosts = out->n_promises = out->n_rejects = out->n_kills = 0;
    out->wakeup_s = INFINITY;
    out->oom = 0;
    out->err[0] = '\0';
}

void pol_out_fini(pol_out *out)
{
    free(out->starts);
    free(out->hosts);
    free(out->promises);
    free(out->rejects);
    free(out->kills);
    pol_out_init(out);
}

void pol_out_start(pol_out *out, const pol_job *job)
{
    pol_out_start_on(out, job, NULL, 0);
}

void pol_out_start_on(pol_out *out, const pol_job *job, const int32_t *hosts, size_t n)
{
    if (eng_grow(&out->starts, &out->cap_starts, out->n_starts + 1, sizeof *out->starts) ||
        eng_grow(&out->hosts, &out->cap_hosts, out->n_hosts + n, sizeof *out->hosts)) {
        out->oom = 1;
        return;
    }
    out->starts[out->n_starts++] = (pol_start){
        .job_idx = job->idx, .n_hosts = (int32_t)n, .hosts_off = out->n_hosts, .packet = -1};
    if (n)
        memcpy(out->hosts + out->n_hosts, hosts, n * sizeof *hosts);
    out->n_hosts += n;
}

void pol_out_start_packet(pol_out *out, const pol_job *job, int32_t packet, const int32_t *hosts,
                          size_t n)
{
    size_t before = out->n_starts;
    pol_out_start_on(out, job, hosts, n);
    if (out->n_starts > before)
        out->starts[before].packet = packet;
}

void pol_out_promise(pol_out *out, const pol_job *job, double start_by_s)
{
    if (eng_grow(&out->promises, &out->cap_promises, out->n_promises + 1, sizeof *out->promises)) {
        out->oom = 1;
        return;
    }
    out->promises[out->n_promises++] = (pol_promise){.job_idx = job->idx, .start_by_s = start_by_s};
}

void pol_out_wakeup(pol_out *out, double at_s)
{
    if (at_s < out->wakeup_s)
        out->wakeup_s = at_s;
}

int pol_out_error(pol_out *out, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->err, sizeof out->err, fmt, ap);
    va_end(ap);
    return code;
}

static void append_idx(pol_out *out, int32_t **v, size_t *n, size_t *cap, const pol_job *job)
{
    if (eng_grow(v, cap, *n + 1, sizeof **v)) {
        out->oom = 1;
        return;
    }
    (*v)[(*n)++] = job->idx;
}

void pol_out_reject(pol_out *out, const pol_job *job)
{
    append_idx(out, &out->rejects, &out->n_rejects, &out->cap_rejects, job);
}

void pol_out_kill(pol_out *out, const pol_job *job)
{
    append_idx(out, &out->kills, &out->n_kills, &out->cap_kills, job);
}
