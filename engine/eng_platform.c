/* eng_platform.c — host ordering, batchlab properties and pools.
 * Pure C: the SimGrid side (eng_sim.c) only extracts descriptions. */
#include "eng_platform.h"

#include "eng_util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Cores per host, as SimGrid or the cores property give them: enough for
 * any machine, small enough that pool totals fit the 32-bit unit counts. */
#define MAX_CORES (1 << 24)

static const eng_host_desc *sort_base;

static int desc_order(const void *a, const void *b)
{
    const size_t *x = a, *y = b;
    return eng_name_cmp(sort_base[*x].name, sort_base[*y].name);
}

/* One unit a quantity may be written in, and what it multiplies by. */
typedef struct unit_factor {
    const char *unit;
    double factor;
} unit_factor;

/* A positive finite number, optional spaces, then one of units' names
 * (the whole rest of the text): false otherwise. */
static bool parse_with_unit(const char *text, const unit_factor *units, size_t n_units, double *out)
{
    if (!text)
        return false;
    errno = 0;
    char *end;
    double v = strtod(text, &end);
    if (end == text || errno || !isfinite(v) || v <= 0)
        return false;
    while (*end == ' ')
        end++;
    for (size_t i = 0; i < n_units; i++)
        if (strcmp(end, units[i].unit) == 0) {
            *out = v * units[i].factor;
            return isfinite(*out);
        }
    return false;
}

bool eng_parse_speed(const char *text, double *flops)
{
    static const unit_factor units[] = {
        {"", 1},         {"f", 1},        {"kf", 1e3},     {"Mf", 1e6},     {"Gf", 1e9},
        {"Tf", 1e12},    {"Pf", 1e15},    {"Ef", 1e18},    {"Kf", 1e3},     {"flops", 1},
        {"kflops", 1e3}, {"Mflops", 1e6}, {"Gflops", 1e9}, {"Tflops", 1e12}};
    return parse_with_unit(text, units, sizeof units / sizeof units[0], flops);
}

bool eng_parse_memory(const char *text, double *bytes)
{
    static const unit_factor units[] = {{"", 1},
                                        {"B", 1},
                                        {"KiB", 1024.0},
                                        {"MiB", 1024.0 * 1024},
                                        {"GiB", 1024.0 * 1024 * 1024},
                                        {"TiB", 1024.0 * 1024 * 1024 * 1024},
                                        {"kB", 1e3},
                                        {"MB", 1e6},
                                        {"GB", 1e9},
                                        {"TB", 1e12}};
    return parse_with_unit(text, units, sizeof units / sizeof units[0], bytes);
}

static bool parse_pos_int(const char *s, int64_t max, int64_t *out)
{
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    while (*end == ' ')
        end++;
    if (end == s || *end || errno || v <= 0 || v > max)
        return false;
    *out = v;
    return true;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Parses "1, 3,2" into a sorted, duplicate-free list. */
static int parse_queues(const char *path, const char *host, const char *prop, const char *text,
                        int64_t **out, size_t *n, eng_diag *d)
{
    size_t cap = 0, len = 0;
    int64_t *q = NULL;
    const char *s = text;
    for (;;) {
        while (*s == ' ')
            s++;
        errno = 0;
        char *end;
        long long v = strtoll(s, &end, 10);
        const char *after = end;
        while (*after == ' ')
            after++;
        if (end == s || errno || v < 0 || (*after && *after != ',')) {
            free(q);
            return eng_diag_set(d, ENG_PLATFORM,
                                "%s: host %s: property %s: expected comma-separated "
                                "%s numbers (>= 0), got '%s'",
                                path, host, prop, strcmp(prop, "queues") ? "partition" : "queue",
                                text);
        }
        if (eng_grow(&q, &cap, len + 1, sizeof *q)) {
            free(q);
            return eng_diag_set(d, ENG_NOMEM, "%s: out of memory", path);
        }
        q[len++] = v;
        if (!*after)
            break;
        s = after + 1;
    }
    qsort(q, len, sizeof *q, cmp_i64);
    size_t u = 0;
    for (size_t i = 0; i < len; i++)
        if (u == 0 || q[u - 1] != q[i])
            q[u++] = q[i];
    *out = q;
    *n = u;
    return ENG_OK;
}

/* An island name: 1 to 63 letters, digits, '-', '_' or '.'. */
static bool island_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 63)
        return false;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '-' || ch == '_' || ch == '.'))
            return false;
    }
    return true;
}

/* Numbers the islands of pool pi from its hosts' names (isl[k]: host k's
 * island property or NULL), in order of their first host. */
static int build_islands(eng_platform *p, size_t pi, const char *const *isl, eng_diag *d)
{
    eng_pool *pool = &p->pools[pi];
    const char *first_named = NULL, *first_unnamed = NULL;
    for (size_t i = 0; i < pool->n_hosts; i++) {
        int32_t k = pool->hosts[i];
        if (isl[k] && !first_named)
            first_named = p->hosts[k].name;
        if (!isl[k] && !first_unnamed)
            first_unnamed = p->hosts[k].name;
    }
    for (size_t i = 0; i < pool->n_hosts; i++)
        p->hosts[pool->hosts[i]].island = -1;
    if (!first_named)
        return ENG_OK;
    if (first_unnamed)
        return eng_diag_set(d, ENG_PLATFORM,
                            "%s: host %s: property island: expected an island name, as host %s "
                            "of the same pool (%s) has; give every host of a pool its island "
                            "or none",
                            p->path, first_unnamed, first_named, pool->label);
    pool->island_names = calloc(pool->n_hosts, sizeof *pool->island_names);
    pool->island_hosts = calloc(pool->n_hosts, sizeof *pool->island_hosts);
    pool->island_cores = calloc(pool->n_hosts, sizeof *pool->island_cores);
    if (!pool->island_names || !pool->island_hosts || !pool->island_cores)
        return eng_diag_set(d, ENG_NOMEM, "%s: out of memory", p->path);
    for (size_t i = 0; i < pool->n_hosts; i++) {
        int32_t k = pool->hosts[i];
        int32_t x = 0;
        while (x < pool->n_islands && strcmp(pool->island_names[x], isl[k]) != 0)
            x++;
        if (x == pool->n_islands) {
            pool->island_names[x] = eng_strdup(isl[k]);
            if (!pool->island_names[x])
                return eng_diag_set(d, ENG_NOMEM, "%s: out of memory", p->path);
            pool->n_islands++;
        }
        p->hosts[k].island = x;
        pool->island_hosts[x]++;
        pool->island_cores[x] += p->hosts[k].cores;
    }
    return ENG_OK;
}

bool eng_platform_has_islands(const eng_platform *p)
{
    for (size_t i = 0; i < p->n_pools; i++)
        if (p->pools[i].n_islands > 1)
            return true;
    return false;
}

static bool same_queues(const int64_t *a, size_t na, const int64_t *b, size_t nb)
{
    return na == nb && (na == 0 || memcmp(a, b, na * sizeof *a) == 0);
}

void eng_platform_destroy(eng_platform *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n_hosts; i++)
        free(p->hosts[i].name);
    for (size_t i = 0; i < p->n_pools; i++) {
        free(p->pools[i].label);
        free(p->pools[i].queues);
        free(p->pools[i].hosts);
        for (int32_t k = 0; k < p->pools[i].n_islands; k++)
            free(p->pools[i].island_names[k]);
        free(p->pools[i].island_names);
        free(p->pools[i].island_hosts);
        free(p->pools[i].island_cores);
    }
    free(p->hosts);
    free(p->pools);
    free(p->limits);
    free(p->limits_text);
    free(p->path);
    free(p);
}

static int make_label(eng_pool *pool, bool by_partition)
{
    const char *what = by_partition ? "partition" : "queue";
    if (pool->n_queues == 0) {
        pool->label = eng_strdup(by_partition ? "all partitions" : "all queues");
        return pool->label ? ENG_OK : ENG_NOMEM;
    }
    size_t cap = 16 + 21 * pool->n_queues;
    pool->label = malloc(cap);
    if (!pool->label)
        return ENG_NOMEM;
    size_t len = (size_t)snprintf(pool->label, cap, "%s%s ", what, pool->n_queues > 1 ? "s" : "");
    for (size_t i = 0; i < pool->n_queues; i++)
        len += (size_t)snprintf(pool->label + len, cap - len, "%s%lld", i ? "," : "",
                                (long long)pool->queues[i]);
    return ENG_OK;
}

/* One host's description checked and copied into e: name, speed, cores,
 * price, occupation probability and power model; its island name is checked here and
 * kept by the caller. e->name is set first, so that the platform frees
 * it whatever fails after. */
static int read_host(const char *path, const eng_host_desc *h, eng_host *e, eng_diag *d)
{
    e->name = eng_strdup(h->name);
    if (!e->name)
        return eng_diag_set(d, ENG_NOMEM, "%s: out of memory", path);
    if (!(h->speed_flops > 0) || !isfinite(h->speed_flops))
        return eng_diag_set(d, ENG_PLATFORM, "%s: host %s: expected a positive speed", path,
                            h->name);
    e->speed_flops = h->speed_flops;
    if (h->sg_cores > MAX_CORES)
        return eng_diag_set(d, ENG_PLATFORM, "%s: host %s: %d cores is more than %d", path, h->name,
                            h->sg_cores, MAX_CORES);
    e->sg_cores = h->sg_cores > 0 ? h->sg_cores : 1;
    e->cores = e->sg_cores;
    if (h->cores) {
        int64_t c;
        if (!parse_pos_int(h->cores, MAX_CORES, &c))
            return eng_diag_set(d, ENG_PLATFORM,
                                "%s: host %s: property cores: expected a positive integer, "
                                "got '%s'",
                                path, h->name, h->cores);
        e->cores = (int32_t)c;
    }
    if (h->price_per_s) {
        errno = 0;
        char *end;
        double v = strtod(h->price_per_s, &end);
        if (end == h->price_per_s || *end || errno || !isfinite(v) || v < 0)
            return eng_diag_set(d, ENG_PLATFORM,
                                "%s: host %s: property price_per_s: expected a number >= 0, "
                                "got '%s'",
                                path, h->name, h->price_per_s);
        e->price_per_s = v;
    }
    if (h->occupation) {
        errno = 0;
        char *end;
        double v = strtod(h->occupation, &end);
        if (end == h->occupation || *end || errno || !(v >= 0 && v < 1))
            return eng_diag_set(d, ENG_PLATFORM,
                                "%s: host %s: property occupation_probability: expected a "
                                "number in [0, 1), got '%s'",
                                path, h->name, h->occupation);
        e->occupation_prob = v;
    }
    if (h->memory && !eng_parse_memory(h->memory, &e->memory_b))
        return eng_diag_set(d, ENG_PLATFORM,
                            "%s: host %s: property memory: expected a size > 0 such as "
                            "'256GiB' (B, KiB, MiB, GiB, TiB, kB, MB, GB, TB; a bare "
                            "number is bytes), got '%s'",
                            path, h->name, h->memory);
    if (h->parsed) {
        e->power = *h->parsed;
    } else {
        int rc = eng_power_read(path, h->name, &h->power, h->pstate, h->n_pstates, h->pstate_speeds,
                                e->sg_cores, &e->power, d);
        if (rc)
            return rc;
    }
    if (h->island && !island_name_ok(h->island))
        return eng_diag_set(d, ENG_PLATFORM,
                            "%s: host %s: property island: expected a name of 1 to 63 "
                            "letters, digits, '-', '_' or '.', got '%s'",
                            path, h->name, h->island);
    return ENG_OK;
}

/* The hosts in name order (p->hosts), each with its queue set (hq, hnq)
 * and island name (hisl, borrowed from hosts). */
static int read_hosts(eng_platform *p, const eng_host_desc *hosts, size_t n, size_t *order,
                      int64_t **hq, size_t *hnq, const char **hisl, eng_diag *d)
{
    bool by_queue = false;
    bool *seen_queues = &by_queue, *seen_parts = &p->by_partition;
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    sort_base = hosts;
    qsort(order, n, sizeof *order, desc_order);
    for (size_t k = 0; k < n; k++) {
        const eng_host_desc *h = &hosts[order[k]];
        if (k > 0 && strcmp(h->name, hosts[order[k - 1]].name) == 0)
            return eng_diag_set(d, ENG_PLATFORM, "%s: two hosts are named %s", p->path, h->name);
        p->n_hosts = k + 1;
        int rc = read_host(p->path, h, &p->hosts[k], d);
        if (rc)
            return rc;
        hisl[k] = h->island;
        if (h->queues && h->partitions)
            return eng_diag_set(d, ENG_PLATFORM,
                                "%s: host %s: properties queues and partitions: a host's pool "
                                "is chosen by one of them",
                                p->path, h->name);
        if (h->queues || h->partitions) {
            bool part = h->partitions != NULL;
            if (part ? *seen_queues : *seen_parts)
                return eng_diag_set(d, ENG_PLATFORM,
                                    "%s: host %s: property %s, where other hosts name %s: a "
                                    "platform routes jobs by one SWF field (queues: 15, "
                                    "partitions: 16)",
                                    p->path, h->name, part ? "partitions" : "queues",
                                    part ? "queues" : "partitions");
            *(part ? seen_parts : seen_queues) = true;
            rc = parse_queues(p->path, h->name, part ? "partitions" : "queues",
                              part ? h->partitions : h->queues, &hq[k], &hnq[k], d);
            if (rc)
                return rc;
        }
        p->total_cores += p->hosts[k].cores;
    }
    return ENG_OK;
}

/* Power values: on every host or on none (a host without them would draw
 * nothing, silently). */
static int check_power(eng_platform *p, eng_diag *d)
{
    const char *with = NULL, *without = NULL;
    for (size_t k = 0; k < p->n_hosts; k++) {
        if (p->hosts[k].power.on && !with)
            with = p->hosts[k].name;
        if (!p->hosts[k].power.on && !without)
            without = p->hosts[k].name;
    }
    if (with && without)
        return eng_diag_set(d, ENG_PLATFORM,
                            "%s: host %s: property wattage_per_state: expected the host's watts "
                            "per pstate, as host %s has them; give every host power values or "
                            "none",
                            p->path, without, with);
    p->has_power = with != NULL;
    return ENG_OK;
}

/* The reference speed: the platform's ref_speed property, else the speed
 * of the first host in name order. */
static int set_ref_speed(eng_platform *p, const char *ref_speed, eng_diag *d)
{
    if (!ref_speed) {
        p->ref_speed_flops = p->hosts[0].speed_flops;
        return ENG_OK;
    }
    if (!eng_parse_speed(ref_speed, &p->ref_speed_flops))
        return eng_diag_set(d, ENG_PLATFORM,
                            "%s: platform property ref_speed: expected a speed such as "
                            "'2.6Gf', got '%s'",
                            p->path, ref_speed);
    p->ref_speed_given = true;
    return ENG_OK;
}

/* A new pool for the queue set *queues (taken: *queues becomes NULL), with
 * room for n hosts; *pi is its index. */
static int new_pool(eng_platform *p, int64_t **queues, size_t n_queues, size_t n, size_t *pi,
                    eng_diag *d)
{
    eng_pool *np = realloc(p->pools, (p->n_pools + 1) * sizeof *np);
    if (!np)
        return eng_diag_set(d, ENG_NOMEM, "%s: out of memory", p->path);
    p->pools = np;
    *pi = p->n_pools;
    eng_pool *pool = &p->pools[p->n_pools++];
    memset(pool, 0, sizeof *pool);
    pool->queues = *queues;
    pool->n_queues = n_queues;
    *queues = NULL;
    pool->hosts = malloc(n * sizeof *pool->hosts);
    pool->cores_per_node = INT32_MAX;
    pool->min_speed_flops = INFINITY;
    if (!pool->hosts || make_label(pool, p->by_partition))
        return eng_diag_set(d, ENG_NOMEM, "%s: out of memory", p->path);
    if (pool->n_queues == 0)
        p->catch_all = (int32_t)*pi;
    return ENG_OK;
}

/* Pools: one per distinct queue set, in order of their first host. */
static int build_pools(eng_platform *p, int64_t **hq, const size_t *hnq, eng_diag *d)
{
    size_t n = p->n_hosts;
    for (size_t k = 0; k < n; k++) {
        size_t pi = 0;
        while (pi < p->n_pools &&
               !same_queues(p->pools[pi].queues, p->pools[pi].n_queues, hq[k], hnq[k]))
            pi++;
        if (pi == p->n_pools) {
            int rc = new_pool(p, &hq[k], hnq[k], n, &pi, d);
            if (rc)
                return rc;
        }
        eng_pool *pool = &p->pools[pi];
        pool->hosts[pool->n_hosts++] = (int32_t)k;
        p->hosts[k].pool = (int32_t)pi;
        if (p->hosts[k].cores < pool->cores_per_node)
            pool->cores_per_node = p->hosts[k].cores;
        if (p->hosts[k].speed_flops < pool->min_speed_flops)
            pool->min_speed_flops = p->hosts[k].speed_flops;
        pool->total_cores += p->hosts[k].cores;
        double mem = p->hosts[k].memory_b;
        if (mem > 0) {
            p->has_memory = true;
            if (pool->mem_min_b == 0 || mem < pool->mem_min_b)
                pool->mem_min_b = mem;
            double per_core = mem / p->hosts[k].cores;
            if (pool->mem_per_core_min_b == 0 || per_core < pool->mem_per_core_min_b)
                pool->mem_per_core_min_b = per_core;
        }
    }
    return ENG_OK;
}

/* A queue may be served by one pool only. */
static int check_queue_owners(const eng_platform *p, eng_diag *d)
{
    for (size_t a = 0; a < p->n_pools; a++)
        for (size_t b = a + 1; b < p->n_pools; b++)
            for (size_t i = 0; i < p->pools[a].n_queues; i++)
                for (size_t j = 0; j < p->pools[b].n_queues; j++)
                    if (p->pools[a].queues[i] == p->pools[b].queues[j])
                        return eng_diag_set(d, ENG_PLATFORM,
                                            "%s: queue %lld is served by two different host "
                                            "sets (%s and %s); each queue must map to one pool",
                                            p->path, (long long)p->pools[a].queues[i],
                                            p->pools[a].label, p->pools[b].label);
    return ENG_OK;
}

int eng_platform_build(const char *path, const eng_host_desc *hosts, size_t n,
                       const char *ref_speed, eng_platform **out, eng_diag *d)
{
    *out = NULL;
    if (n == 0)
        return eng_diag_set(d, ENG_PLATFORM, "%s: the platform has no host", path);
    eng_platform *p = calloc(1, sizeof *p);
    size_t *order = malloc(n * sizeof *order);
    int64_t **hq = calloc(n, sizeof *hq); /* queues per host */
    size_t *hnq = calloc(n, sizeof *hnq);
    const char **hisl = calloc(n, sizeof *hisl); /* island per host, borrowed */
    int rc = ENG_OK;
    if (p) {
        p->path = eng_strdup(path);
        p->hosts = calloc(n, sizeof *p->hosts);
        p->catch_all = -1;
    }
    if (!p || !order || !hq || !hnq || !hisl || !p->path || !p->hosts)
        rc = eng_diag_set(d, ENG_NOMEM, "%s: out of memory", path);
    if (rc == ENG_OK)
        rc = read_hosts(p, hosts, n, order, hq, hnq, hisl, d);
    if (rc == ENG_OK)
        rc = check_power(p, d);
    if (rc == ENG_OK)
        rc = set_ref_speed(p, ref_speed, d);
    if (rc == ENG_OK)
        rc = build_pools(p, hq, hnq, d);
    if (rc == ENG_OK)
        rc = check_queue_owners(p, d);
    for (size_t pi = 0; rc == ENG_OK && pi < p->n_pools; pi++)
        rc = build_islands(p, pi, hisl, d);
    free(hisl);
    if (hq)
        for (size_t k = 0; k < n; k++)
            free(hq[k]);
    free(hq);
    free(hnq);
    free(order);
    if (rc) {
        eng_platform_destroy(p);
        return rc;
    }
    *out = p;
    return ENG_OK;
}

/* ---- per-queue limits ----------------------------------------------------- */

static int limit_cmp(const void *a, const void *b)
{
    const eng_queue_limit *x = a, *y = b;
    return (x->queue > y->queue) - (x->queue < y->queue);
}

/* One "KEY=VALUE" of an entry into l; false when it is not one. */
static bool limit_field(const char *kv, size_t len, eng_queue_limit *l)
{
    char buf[96];
    if (len >= sizeof buf)
        return false;
    memcpy(buf, kv, len);
    buf[len] = '\0';
    char *eq = strchr(buf, '=');
    if (!eq)
        return false;
    *eq = '\0';
    int64_t v;
    if (strcmp(buf, "max_runtime_s") == 0 && isinf(l->max_runtime_s)) {
        char *end;
        errno = 0;
        double x = strtod(eq + 1, &end);
        if (end == eq + 1 || *end || errno || !isfinite(x) || x <= 0)
            return false;
        l->max_runtime_s = x;
        return true;
    }
    if (strcmp(buf, "max_nodes") == 0 && l->max_nodes == 0 &&
        parse_pos_int(eq + 1, INT32_MAX, &v)) {
        l->max_nodes = v;
        return true;
    }
    return false;
}

/* One "QUEUE:KEY=VALUE,..." entry of len bytes. */
static bool limit_entry(const char *e, size_t len, eng_queue_limit *l)
{
    *l = (eng_queue_limit){.max_runtime_s = INFINITY};
    const char *colon = memchr(e, ':', len), *end = e + len;
    if (!colon || colon == e)
        return false;
    for (const char *c = e; c < colon; c++)
        if (*c < '0' || *c > '9')
            return false;
    l->queue = strtoll(e, NULL, 10);
    if (colon + 1 >= end)
        return false;
    for (const char *f = colon + 1; f < end;) {
        const char *comma = memchr(f, ',', (size_t)(end - f));
        const char *fe = comma ? comma : end;
        if (!limit_field(f, (size_t)(fe - f), l))
            return false;
        f = comma ? comma + 1 : end;
        if (comma && f == end)
            return false;
    }
    return true;
}

int eng_platform_set_limits(eng_platform *p, const char *text, eng_diag *d)
{
    free(p->limits);
    free(p->limits_text);
    p->limits = NULL;
    p->limits_text = NULL;
    p->n_limits = 0;
    if (!text)
        return ENG_OK;
    size_t cap = 0;
    for (const char *e = text; *e;) {
        while (*e == ' ' || *e == '\t' || *e == '\n')
            e++;
        size_t len = strcspn(e, " \t\n");
        if (!len)
            break;
        eng_queue_limit l;
        if (!limit_entry(e, len, &l))
            return eng_diag_set(
                d, ENG_PLATFORM,
                "%s: property queue_limits: entry '%.*s': expected "
                "QUEUE:KEY=VALUE[,KEY=VALUE], QUEUE a queue number (SWF field 15), "
                "KEY max_runtime_s (seconds > 0) or max_nodes (a positive integer), "
                "each once",
                p->path, (int)(len > 200 ? 200 : len), e);
        if (eng_grow(&p->limits, &cap, p->n_limits + 1, sizeof *p->limits))
            return eng_diag_set(d, ENG_NOMEM, "%s: out of memory", p->path);
        p->limits[p->n_limits++] = l;
        e += len;
    }
    qsort(p->limits, p->n_limits, sizeof *p->limits, limit_cmp);
    for (size_t i = 1; i < p->n_limits; i++)
        if (p->limits[i].queue == p->limits[i - 1].queue)
            return eng_diag_set(d, ENG_PLATFORM,
                                "%s: property queue_limits: queue %lld listed twice", p->path,
                                (long long)p->limits[i].queue);
    p->limits_text = eng_strdup(text);
    if (!p->limits_text)
        return eng_diag_set(d, ENG_NOMEM, "%s: out of memory", p->path);
    return ENG_OK;
}

const eng_queue_limit *eng_platform_limits(const eng_platform *p, int64_t queue)
{
    for (size_t i = 0; i < p->n_limits; i++)
        if (p->limits[i].queue == queue)
            return &p->limits[i];
    return NULL;
}

int32_t eng_platform_route(const eng_platform *p, int64_t queue)
{
    for (size_t i = 0; i < p->n_pools; i++)
        for (size_t j = 0; j < p->pools[i].n_queues; j++)
            if (p->pools[i].queues[j] == queue)
                return (int32_t)i;
    return p->catch_all;
}

/* ---- save / restore -------------------------------------------------- */

static bool put_str(FILE *f, const char *s)
{
    uint32_t n = s ? (uint32_t)strlen(s) + 1 : 0;
    return fwrite(&n, sizeof n, 1, f) == 1 && (n == 0 || fwrite(s, 1, n, f) == n);
}

/* Sets *ok false on a short read, and *nomem too when memory ran out. */
static char *get_str(FILE *f, bool *ok, bool *nomem)
{
    uint32_t n;
    if (fread(&n, sizeof n, 1, f) != 1 || n > (1u << 20)) {
        *ok = false;
        return NULL;
    }
    if (n == 0)
        return NULL;
    char *s = malloc(n);
    if (!s)
        *nomem = true;
    if (!s || fread(s, 1, n, f) != n || s[n - 1] != '\0') {
        free(s);
        *ok = false;
        return NULL;
    }
    return s;
}

int eng_platform_save(FILE *f, const eng_platform *p)
{
    uint64_t n = p->n_hosts;
    bool ok = fwrite(&n, sizeof n, 1, f) == 1;
    char ref[40];
    snprintf(ref, sizeof ref, "%.17g", p->ref_speed_flops);
    ok = ok && put_str(f, p->ref_speed_given ? ref : NULL);
    for (size_t i = 0; ok && i < p->n_hosts; i++) {
        const eng_host *h = &p->hosts[i];
        const eng_pool *pool = &p->pools[h->pool];
        char cores[24], price[40], occ[40], mem[40], queues[1024] = "";
        snprintf(mem, sizeof mem, "%.17g", h->memory_b);
        snprintf(occ, sizeof occ, "%.17g", h->occupation_prob);
        snprintf(cores, sizeof cores, "%d", h->cores);
        snprintf(price, sizeof price, "%.17g", h->price_per_s);
        size_t len = 0;
        for (size_t q = 0; q < pool->n_queues && len < sizeof queues; q++)
            len += (size_t)snprintf(queues + len, sizeof queues - len, "%s%lld", q ? "," : "",
                                    (long long)pool->queues[q]);
        ok = put_str(f, h->name) && fwrite(&h->speed_flops, sizeof h->speed_flops, 1, f) == 1 &&
             fwrite(&h->sg_cores, sizeof h->sg_cores, 1, f) == 1 && put_str(f, cores) &&
             put_str(f, price) && put_str(f, pool->n_queues ? queues : NULL) && put_str(f, occ) &&
             put_str(f, h->island >= 0 ? pool->island_names[h->island] : NULL) &&
             put_str(f, h->memory_b > 0 ? mem : NULL) &&
             fwrite(&h->power, sizeof h->power, 1, f) == 1;
    }
    ok = ok && put_str(f, p->limits_text) && put_str(f, p->by_partition ? "partitions" : NULL);
    return ok ? ENG_OK : ENG_IO;
}

int eng_platform_restore(FILE *f, const char *path, eng_platform **out, eng_diag *d)
{
    *out = NULL;
    uint64_t n;
    bool nomem = false;
    bool ok = fread(&n, sizeof n, 1, f) == 1 && n < (1u << 26);
    char *ref = ok ? get_str(f, &ok, &nomem) : NULL;
    eng_host_desc *desc = ok ? calloc(n ? n : 1, sizeof *desc) : NULL;
    eng_power *power = ok ? calloc(n ? n : 1, sizeof *power) : NULL;
    nomem = nomem || (ok && (!desc || !power));
    ok = ok && desc && power;
    for (uint64_t i = 0; ok && i < n; i++) {
        desc[i].name = get_str(f, &ok, &nomem);
        ok = ok && fread(&desc[i].speed_flops, sizeof desc[i].speed_flops, 1, f) == 1 &&
             fread(&desc[i].sg_cores, sizeof desc[i].sg_cores, 1, f) == 1;
        if (ok)
            desc[i].cores = get_str(f, &ok, &nomem);
        if (ok)
            desc[i].price_per_s = get_str(f, &ok, &nomem);
        if (ok)
            desc[i].queues = get_str(f, &ok, &nomem);
        if (ok)
            desc[i].occupation = get_str(f, &ok, &nomem);
        if (ok)
            desc[i].island = get_str(f, &ok, &nomem);
        if (ok)
            desc[i].memory = get_str(f, &ok, &nomem);
        ok = ok && fread(&power[i], sizeof power[i], 1, f) == 1;
        if (ok)
            desc[i].parsed = &power[i];
    }
    char *limits = ok ? get_str(f, &ok, &nomem) : NULL;
    char *by_part = ok ? get_str(f, &ok, &nomem) : NULL;
    for (uint64_t i = 0; ok && by_part && i < n; i++) { /* the numbers saved are partitions */
        desc[i].partitions = desc[i].queues;
        desc[i].queues = NULL;
    }
    int rc = ok      ? eng_platform_build(path, desc, (size_t)n, ref, out, d)
             : nomem ? eng_diag_set(d, ENG_NOMEM, "%s: out of memory", path)
                     : eng_diag_set(d, ENG_IO, "%s: the platform description is truncated", path);
    if (rc == ENG_OK && (rc = eng_platform_set_limits(*out, limits, d))) {
        eng_platform_destroy(*out);
        *out = NULL;
    }
    free(limits);
    free(by_part);
    for (uint64_t i = 0; desc && i < n; i++) {
        free((char *)desc[i].name);
        free((char *)desc[i].cores);
        free((char *)desc[i].price_per_s);
        free((char *)desc[i].queues);
        free((char *)desc[i].partitions);
        free((char *)desc[i].occupation);
        free((char *)desc[i].island);
        free((char *)desc[i].memory);
    }
    free(desc);
    free(power);
    free(ref);
    return rc;
}
