/* eng_coreidx.c — names the cores each job held under core allocation (see
 * eng_coreidx.h): a replay of the starts and ends in the core's step order over one
 * busy byte per platform core, each start taking the lowest free cores of
 * each of its hosts.
 */
#include "eng_coreidx.h"

#include "eng_error.h"
#include "eng_util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The core's order: by step, a step's ends before its starts (the core
 * frees the hosts of the jobs ending at a step before its policy call),
 * then job index. */
typedef struct event {
    int64_t step;
    int32_t start; /* 0 end, 1 start */
    int32_t job;
} event;

static int cmp_event(const void *a, const void *b)
{
    const event *x = a, *y = b;
    if (x->step != y->step)
        return x->step < y->step ? -1 : 1;
    if (x->start != y->start)
        return x->start - y->start;
    return (x->job > y->job) - (x->job < y->job);
}

static int cmp_span(const void *a, const void *b)
{
    const eng_core_span *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

void eng_coreidx_fini(eng_coreidx *x)
{
    free(x->spans);
    free(x->off);
    free(x->count);
    memset(x, 0, sizeof *x);
}

static bool ran(const eng_job_result *r)
{
    return r->n_runs > 0 && r->n_hosts > 0 && r->start_step >= 0;
}

/* Step 1: the first core index of every host, and the busy bytes. */
static int bases(const eng_platform *p, int64_t **base, unsigned char **busy)
{
    *base = malloc((p->n_hosts + 1) * sizeof **base);
    if (!*base)
        return ENG_NOMEM;
    (*base)[0] = 0;
    for (size_t h = 0; h < p->n_hosts; h++)
        (*base)[h + 1] = (*base)[h] + p->hosts[h].cores;
    *busy = calloc((size_t)(*base)[p->n_hosts] + 1, 1);
    return *busy ? ENG_OK : ENG_NOMEM;
}

/* Step 2: the events of every job that ran, sorted. */
static int events(const eng_job_result *res, size_t n_jobs, event **out, size_t *n)
{
    *n = 0;
    *out = malloc((2 * n_jobs + 1) * sizeof **out);
    if (!*out)
        return ENG_NOMEM;
    for (size_t i = 0; i < n_jobs; i++)
        if (ran(&res[i])) {
            (*out)[(*n)++] = (event){.step = res[i].start_step, .start = 1, .job = (int32_t)i};
            if (res[i].end_step >= 0) /* still running where a run stopped early */
                (*out)[(*n)++] = (event){.step = res[i].end_step, .start = 0, .job = (int32_t)i};
        }
    qsort(*out, *n, sizeof **out, cmp_event);
    return ENG_OK;
}

/* Step 3a: job i takes the lowest free cores of each of its hosts; its
 * spans are appended (merged where they touch), then sorted. */
static int take(const eng_platform *p, const int64_t *base, unsigned char *busy,
                const eng_job_result *r, const eng_host_run *runs, int32_t job, eng_coreidx *x,
                size_t *cap, eng_diag *d)
{
    x->off[job] = x->n_spans;
    for (int32_t u = 0; u < r->n_runs; u++) {
        const eng_host_run *run = &runs[r->runs_off + (size_t)u];
        for (int32_t k = 0; k < run->n; k++) {
            int32_t h = run->host + k;
            int32_t want = run->cores;
            for (int64_t c = base[h]; c < base[h + 1] && want > 0; c++) {
                if (busy[c])
                    continue;
                busy[c] = 1;
                want--;
                eng_core_span *last = x->n_spans > x->off[job] ? &x->spans[x->n_spans - 1] : NULL;
                if (last && last->first + last->n == c) {
                    last->n++;
                    continue;
                }
                if (eng_grow(&x->spans, cap, x->n_spans + 1, sizeof *x->spans))
                    return ENG_NOMEM;
                x->spans[x->n_spans++] = (eng_core_span){.first = c, .n = 1};
            }
            if (want > 0)
                return eng_diag_set(d, ENG_INVARIANT,
                                    "core indices: host %s holds more cores than its %d",
                                    p->hosts[h].name, p->hosts[h].cores);
        }
    }
    x->count[job] = (int32_t)(x->n_spans - x->off[job]);
    eng_core_span *own = x->spans + x->off[job];
    qsort(own, (size_t)x->count[job], sizeof *own, cmp_span);
    /* hosts taken out of name order can leave touching spans apart */
    int32_t m = 0;
    for (int32_t s = 0; s < x->count[job]; s++) {
        if (m > 0 && own[m - 1].first + own[m - 1].n == own[s].first)
            own[m - 1].n += own[s].n;
        else
            own[m++] = own[s];
    }
    x->count[job] = m;
    x->n_spans = x->off[job] + (size_t)m;
    return ENG_OK;
}

/* Step 3b: job i gives its cores back. */
static void give_back(unsigned char *busy, const eng_coreidx *x, int32_t job)
{
    for (int32_t s = 0; s < x->count[job]; s++)
        memset(busy + x->spans[x->off[job] + (size_t)s].first, 0,
               (size_t)x->spans[x->off[job] + (size_t)s].n);
}

int eng_coreidx_build(const eng_platform *p, const eng_job_result *res, size_t n_jobs,
                      const eng_host_run *runs, eng_coreidx *out, eng_diag *d)
{
    memset(out, 0, sizeof *out);
    int64_t *base = NULL;
    unsigned char *busy = NULL;
    event *ev = NULL;
    size_t n_ev = 0, cap = 0;
    out->n_jobs = n_jobs;
    out->off = calloc(n_jobs + 1, sizeof *out->off);
    out->count = calloc(n_jobs + 1, sizeof *out->count);
    int rc = out->off && out->count ? ENG_OK : ENG_NOMEM;
    if (rc == ENG_OK)
        rc = bases(p, &base, &busy);
    if (rc == ENG_OK)
        rc = events(res, n_jobs, &ev, &n_ev);
    for (size_t e = 0; e < n_ev && rc == ENG_OK; e++) {
        int32_t j = ev[e].job;
        if (ev[e].start)
            rc = take(p, base, busy, &res[j], runs, j, out, &cap, d);
        else
            give_back(busy, out, j);
    }
    if (rc == ENG_NOMEM)
        eng_diag_set(d, ENG_NOMEM, "out of memory");
    free(base);
    free(busy);
    free(ev);
    if (rc != ENG_OK)
        eng_coreidx_fini(out);
    return rc;
}
