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

/* ---- with reservations ------------------------------------------------ */

void pol_hold_plan_fini(pol_hold_plan *pl)
{
    free(pl->free);
    free(pl->take);
    free(pl->off);
    free(pl->win);
    free(pl->at);
    free(pl->cand);
    *pl = (pol_hold_plan){0};
}

int pol_hold_plan_begin(const pol_view *v, pol_hold_plan *pl)
{
    size_t n = v->n_hosts, n_win = 0;
    for (size_t r = 0; r < v->n_resv; r++)
        n_win += (size_t)v->resv[r].n_pos;
    if (eng_grow(&pl->free, &pl->cap_free, n ? n : 1, sizeof *pl->free) ||
        eng_grow(&pl->at, &pl->cap_at, n ? n : 1, sizeof *pl->at) ||
        eng_grow(&pl->off, &pl->cap_off, n + 1, sizeof *pl->off) ||
        eng_grow(&pl->win, &pl->cap_win, n_win ? n_win : 1, sizeof *pl->win))
        return ENG_NOMEM;
    pl->n_take = 0;
    memset(pl->off, 0, (n + 1) * sizeof *pl->off);
    for (size_t r = 0; r < v->n_resv; r++)
        for (int32_t k = 0; k < v->resv[r].n_pos; k++)
            pl->off[v->resv[r].pos[k] + 1]++;
    for (size_t h = 0; h < n; h++) {
        pl->off[h + 1] += pl->off[h];
        pl->free[h] = v->hosts[h].free_cores;
        pl->at[h] = (int32_t)pl->off[h]; /* fill cursor */
    }
    for (size_t r = 0; r < v->n_resv; r++)
        for (int32_t k = 0; k < v->resv[r].n_pos; k++)
            pl->win[pl->at[v->resv[r].pos[k]]++] = (struct pol_hold_win){
                .start_s = v->resv[r].start_s, .end_s = v->resv[r].end_s};
    return ENG_OK;
}

/* Whether a window holds the host at pos over [a, b). */
static bool held(const pol_hold_plan *pl, size_t pos, double a, double b)
{
    for (size_t w = pl->off[pos]; w < pl->off[pos + 1]; w++)
        if (pl->win[w].start_s < b && pl->win[w].end_s > a)
            return true;
    return false;
}

/* The units `cores` free cores of host h count for. */
static int32_t units_of(const pol_view *v, size_t h, int32_t cores)
{
    return v->alloc == POL_ALLOC_NODE ? cores == v->hosts[h].cores : cores;
}

int32_t pol_hold_free_now(const pol_view *v, const pol_hold_plan *pl, double dur)
{
    int32_t n = 0;
    for (size_t h = 0; h < v->n_hosts; h++)
        if (pl->free[h] > 0 && !held(pl, h, v->now_s, v->now_s + dur))
            n += units_of(v, h, pl->free[h]);
    return n;
}

int pol_hold_take(const pol_view *v, pol_hold_plan *pl, const pol_job *job)
{
    int32_t need = job->units;
    double end = v->now_s + job->estimate_s;
    for (size_t h = 0; h < v->n_hosts && need > 0; h++) {
        if (pl->free[h] == 0 || units_of(v, h, pl->free[h]) == 0 || held(pl, h, v->now_s, end))
            continue;
        int32_t cores = v->alloc == POL_ALLOC_NODE ? pl->free[h]
                        : pl->free[h] < need       ? pl->free[h]
                                                   : need;
        need -= units_of(v, h, cores);
        if (eng_grow(&pl->take, &pl->cap_take, pl->n_take + 1, sizeof *pl->take))
            return ENG_NOMEM;
        pl->take[pl->n_take++] = (struct pol_hold_take){
            .pos = (int32_t)h, .cores = cores, .end_s = end};
        pl->free[h] -= cores;
    }
    return ENG_OK;
}

void pol_hold_undo(pol_hold_plan *pl, size_t mark)
{
    while (pl->n_take > mark) {
        const struct pol_hold_take *t = &pl->take[--pl->n_take];
        pl->free[t->pos] += t->cores;
    }
}

int32_t pol_hold_units_at(const pol_view *v, pol_hold_plan *pl, double t, double dur)
{
    for (size_t h = 0; h < v->n_hosts; h++)
        pl->at[h] = pl->free[h];
    for (size_t r = 0; r < v->n_running; r++) {
        const pol_job *j = v->running[r];
        if (j->expected_end_s > t)
            break; /* the running set is by expected end */
        for (int32_t k = 0; k < j->n_alloc; k++)
            pl->at[v->alloc_pos[j->alloc_off + (size_t)k]] +=
                v->alloc_cores[j->alloc_off + (size_t)k];
    }
    for (size_t k = 0; k < pl->n_take; k++)
        if (pl->take[k].end_s <= t)
            pl->at[pl->take[k].pos] += pl->take[k].cores;
    int32_t n = 0;
    for (size_t h = 0; h < v->n_hosts; h++)
        if (pl->at[h] > 0 && !held(pl, h, t, t + dur))
            n += units_of(v, h, pl->at[h]);
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int pol_hold_shadow(const pol_view *v, pol_hold_plan *pl, int32_t need, double dur, double *shadow)
{
    size_t n = 1 + v->n_running + pl->n_take + v->n_resv, k = 0;
    if (eng_grow(&pl->cand, &pl->cap_cand, n, sizeof *pl->cand))
        return ENG_NOMEM;
    pl->cand[k++] = v->now_s;
    for (size_t r = 0; r < v->n_running; r++)
        pl->cand[k++] = fmax(v->now_s, v->running[r]->expected_end_s);
    for (size_t t = 0; t < pl->n_take; t++)
        pl->cand[k++] = pl->take[t].end_s;
    for (size_t r = 0; r < v->n_resv; r++)
        pl->cand[k++] = fmax(v->now_s, v->resv[r].end_s);
    qsort(pl->cand, k, sizeof *pl->cand, cmp_double);
    *shadow = INFINITY;
    for (size_t i = 0; i < k; i++) {
        if (i > 0 && pl->cand[i] == pl->cand[i - 1])
            continue;
        if (pol_hold_units_at(v, pl, pl->cand[i], dur) >= need) {
            *shadow = pl->cand[i];
            break;
        }
    }
    return ENG_OK;
}

int pol_start_head_hold(const pol_view *v, pol_out *out, pol_hold_plan *pl, size_t *head,
                        double *shadow, bool promise)
{
    int rc = pol_hold_plan_begin(v, pl);
    size_t i = 0;
    for (; rc == ENG_OK && i < v->n_queue; i++) {
        const pol_job *j = v->queue[i];
        if (pol_hold_free_now(v, pl, j->estimate_s) < j->units)
            break;
        rc = pol_hold_take(v, pl, j);
        pol_out_start(out, j);
    }
    *head = i;
    *shadow = INFINITY;
    if (rc || i == v->n_queue)
        return rc;
    const pol_job *h = v->queue[i];
    rc = pol_hold_shadow(v, pl, h->units, h->estimate_s, shadow);
    if (rc == ENG_OK && promise && isfinite(*shadow))
        pol_out_promise(out, h, *shadow);
    return rc;
}
