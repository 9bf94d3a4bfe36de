/* pol_shadow.c — see pol_shadow.h. */
#include "pol_shadow.h"

#include "eng_error.h"
#include "eng_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int pol_cmp_estimate(const void *a, const void *b)
{
    const pol_job *x = *(const pol_job *const *)a, *y = *(const pol_job *const *)b;
    if (x->estimate_s != y->estimate_s)
        return x->estimate_s < y->estimate_s ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

int pol_shadow(const pol_view *v, const pol_job **started, size_t n_started, int32_t free_units,
               int32_t need, double *shadow, int32_t *extra)
{
    if (n_started > 1)
        qsort(started, n_started, sizeof *started, pol_cmp_estimate);
    int64_t acc = free_units;
    size_t r = 0, s = 0;
    double t = v->now_s;
    bool found = acc >= need;
    /* Merge the two end-ordered sequences; once enough units are found,
     * keep adding the ends that fall at the same time. */
    while (r < v->n_running || s < n_started) {
        double tr = r < v->n_running ? v->running[r]->expected_end_s : INFINITY;
        double ts = s < n_started ? v->now_s + (v->boot_delay_max_s + started[s]->estimate_s)
                                  : INFINITY;
        double next = tr <= ts ? tr : ts;
        if (next < v->now_s)
            next = v->now_s; /* overdue estimate: it may end any moment */
        if (found && next > t)
            break;
        if (tr <= ts)
            acc += v->running[r++]->units;
        else
            acc += started[s++]->units;
        if (!found && acc >= need) {
            found = true;
            t = next;
        }
    }
    if (!found) {
        *shadow = INFINITY;
        *extra = 0;
        return -1;
    }
    *shadow = t;
    *extra = (int32_t)(acc - need);
    return 0;
}

int pol_start_head(const pol_view *v, pol_out *out, const pol_job ***started, size_t *cap,
                   size_t *head, int32_t *free_units, double *shadow, int32_t *extra, bool promise)
{
    if (v->n_islands > 0) {
        pol_isl_plan pl = {0};
        int rc = pol_start_head_isl(v, out, &pl, head, free_units, shadow, extra, promise);
        pol_isl_plan_fini(&pl);
        return rc;
    }
    int32_t free_now = v->free_units;
    size_t i = 0;
    for (; i < v->n_queue && v->queue[i]->units <= free_now; i++) {
        pol_out_start(out, v->queue[i]);
        free_now -= v->queue[i]->units;
    }
    *head = i;
    *free_units = free_now;
    *shadow = INFINITY;
    *extra = 0;
    if (i == v->n_queue)
        return ENG_OK;
    if (eng_grow(started, cap, i, sizeof **started))
        return ENG_NOMEM;
    for (size_t k = 0; k < i; k++)
        (*started)[k] = v->queue[k];
    if (pol_shadow(v, *started, i, free_now, v->queue[i]->units, shadow, extra) == 0 && promise)
        pol_out_promise(out, v->queue[i], *shadow + v->boot_delay_max_s);
    return ENG_OK;
}

/* ---- islands ---------------------------------------------------------- */

void pol_isl_plan_fini(pol_isl_plan *pl)
{
    free(pl->free);
    free(pl->taken);
    free(pl->started);
    free(pl->rows);
    free(pl->ev);
    *pl = (pol_isl_plan){0};
}

int pol_isl_plan_start(const pol_view *v, pol_isl_plan *pl, const pol_job *job)
{
    size_t n = (size_t)v->n_islands;
    if (eng_grow(&pl->started, &pl->cap_started, pl->n_started + 1, sizeof *pl->started) ||
        eng_grow(&pl->taken, &pl->cap_taken, (pl->n_started + 1) * n, sizeof *pl->taken))
        return ENG_NOMEM;
    int32_t pick = pol_island_pick(v->n_islands, v->island_units, pl->free, job->units);
    int32_t *row = pl->taken + pl->n_started * n;
    for (size_t k = 0; k < n; k++)
        row[k] = pl->free[k];
    pol_island_take(v->n_islands, pl->free, pick, job->units);
    for (size_t k = 0; k < n; k++)
        row[k] -= pl->free[k];
    pl->started[pl->n_started++] = job;
    return ENG_OK;
}

int pol_start_head_isl(const pol_view *v, pol_out *out, pol_isl_plan *pl, size_t *head,
                       int32_t *free_units, double *shadow, int32_t *extra, bool promise)
{
    size_t n = (size_t)v->n_islands;
    pl->n_started = 0;
    if (eng_grow(&pl->free, &pl->cap_free, n ? n : 1, sizeof *pl->free))
        return ENG_NOMEM;
    for (size_t k = 0; k < n; k++)
        pl->free[k] = v->island_free[k];
    int32_t free_now = v->free_units;
    size_t i = 0;
    for (; i < v->n_queue; i++) {
        const pol_job *j = v->queue[i];
        if (j->units > free_now ||
            pol_island_pick(v->n_islands, v->island_units, pl->free, j->units) == POL_ISLAND_NONE)
            break;
        if (pol_isl_plan_start(v, pl, j))
            return ENG_NOMEM;
        pol_out_start(out, j);
        free_now -= j->units;
    }
    *head = i;
    *free_units = free_now;
    *shadow = INFINITY;
    *extra = 0;
    if (i == v->n_queue)
        return ENG_OK;
    int rc = pol_shadow_isl(v, pl, v->queue[i]->units, shadow, extra);
    if (rc == ENG_NOMEM)
        return rc;
    if (rc == 0 && promise)
        pol_out_promise(out, v->queue[i], *shadow + v->boot_delay_max_s);
    return ENG_OK;
}

static int cmp_ev(const void *a, const void *b)
{
    const struct pol_isl_ev *x = a, *y = b;
    return (x->t > y->t) - (x->t < y->t);
}

/* Can `need` be placed with these free units per island? */
static bool isl_fits(const pol_view *v, const int32_t *free_u, int32_t need)
{
    return pol_island_pick(v->n_islands, v->island_units, free_u, need) != POL_ISLAND_NONE;
}

int pol_shadow_isl(const pol_view *v, pol_isl_plan *pl, int32_t need, double *shadow,
                   int32_t *extra)
{
    size_t n = (size_t)v->n_islands, n_ev = v->n_running + pl->n_started;
    /* rows: one per running job, then the running free counts */
    if (eng_grow(&pl->rows, &pl->cap_rows, (v->n_running + 1) * n, sizeof *pl->rows) ||
        eng_grow(&pl->ev, &pl->cap_ev, n_ev ? n_ev : 1, sizeof *pl->ev))
        return ENG_NOMEM;
    int32_t *cur = pl->rows + v->n_running * n;
    memset(pl->rows, 0, v->n_running * n * sizeof *pl->rows);
    for (size_t r = 0; r < v->n_running; r++) {
        const pol_job *j = v->running[r];
        pol_island_held(v, j, pl->rows + r * n);
        double t = j->expected_end_s < v->now_s ? v->now_s : j->expected_end_s;
        pl->ev[r] = (struct pol_isl_ev){.t = t, .row = pl->rows + r * n};
    }
    for (size_t k = 0; k < pl->n_started; k++)
        pl->ev[v->n_running + k] = (struct pol_isl_ev){
            .t = v->now_s + (v->boot_delay_max_s + pl->started[k]->estimate_s),
            .row = pl->taken + k * n};
    /* the same ends in the same order, however the queue was scanned */
    qsort(pl->ev, n_ev, sizeof *pl->ev, cmp_ev);
    for (size_t k = 0; k < n; k++)
        cur[k] = pl->free[k];
    double t = v->now_s;
    bool found = isl_fits(v, cur, need);
    for (size_t e = 0; e < n_ev; e++) {
        if (found && pl->ev[e].t > t)
            break;
        for (size_t k = 0; k < n; k++)
            cur[k] += pl->ev[e].row[k];
        if (!found && isl_fits(v, cur, need)) {
            found = true;
            t = pl->ev[e].t;
        }
    }
    if (!found) {
        *shadow = INFINITY;
        *extra = 0;
        return 1;
    }
    *shadow = t;
    int32_t largest = 0;
    int64_t total = 0;
    for (size_t k = 0; k < n; k++) {
        if (v->island_units[k] > largest)
            largest = v->island_units[k];
        total += cur[k];
    }
    int64_t ex = 0;
    if (need <= largest) {
        for (size_t k = 0; k < n; k++)
            if (cur[k] >= need && cur[k] - need > ex)
                ex = cur[k] - need;
    } else {
        ex = total - need;
    }
    *extra = (int32_t)ex;
    return 0;
}
