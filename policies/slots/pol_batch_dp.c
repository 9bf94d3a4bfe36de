/* pol_batch_dp.c — the backward-run dynamic program (1) and the problems
 * built on the limits (2) and (3) (Toporkov, Yemelyanov, Toporkova &
 * Bobchenkov 2011); see pol_batch_dp.h for the discretization. Table
 * layout: f[i][Z] for i = 0..n (row n is f_{n+1} ≡ 0), arg[i][Z] the first
 * alternative attaining f[i][Z] (-1: none fits).
 */
#include "pol_batch_dp.h"

#include "eng_error.h"
#include "eng_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CELLS_CAP (INT64_MAX / 4)

void pol_dp_init(pol_dp *dp)
{
    memset(dp, 0, sizeof *dp);
}

void pol_dp_fini(pol_dp *dp)
{
    free(dp->f);
    free(dp->arg);
    free(dp->w);
    free(dp->range);
    memset(dp, 0, sizeof *dp);
}

int64_t pol_dp_cells(double z, double q)
{
    if (!(z > 0))
        return 0;
    double c = nearbyint(z / q);
    return c >= (double)CELLS_CAP ? CELLS_CAP : (int64_t)c;
}

int pol_dp_run(pol_dp *dp, size_t n_jobs, const size_t *off, const double *g, const int64_t *w,
               int64_t cells, bool maximize, int32_t *choice, double *best, bool *feasible)
{
    *feasible = false;
    if (cells < 0 || (uint64_t)cells >= SIZE_MAX / 16 / (n_jobs + 1))
        return ENG_INVAL;
    for (size_t a = 0; a < off[n_jobs]; a++)
        if (w[a] < 0)
            return ENG_INVAL;
    size_t width = (size_t)cells + 1;
    if (eng_grow(&dp->f, &dp->cap_f, (n_jobs + 1) * width, sizeof *dp->f) ||
        eng_grow(&dp->arg, &dp->cap_arg, (n_jobs ? n_jobs : 1) * width, sizeof *dp->arg))
        return ENG_NOMEM;
    double none = maximize ? -INFINITY : INFINITY;
    /* The forward read visits f_i only at Z_i = Z* - the weights of the
     * choices of jobs before i, so row i is computed only on
     * [lo[i], hi[i]]: Z* less the largest and the smallest weights of the
     * jobs before i (clipped to the grid). A cell of row i reads row i + 1
     * at Z - w, inside row i + 1's range; cells outside are never read. */
    if (eng_grow(&dp->range, &dp->cap_range, 2 * (n_jobs + 1), sizeof *dp->range))
        return ENG_NOMEM;
    size_t *lo = dp->range, *hi = dp->range + n_jobs + 1;
    lo[0] = hi[0] = (size_t)cells;
    for (size_t i = 0; i < n_jobs; i++) {
        int64_t wmin = INT64_MAX, wmax = 0;
        for (size_t a = off[i]; a < off[i + 1]; a++) {
            wmin = w[a] < wmin ? w[a] : wmin;
            wmax = w[a] > wmax ? w[a] : wmax;
        }
        lo[i + 1] = (uint64_t)wmax >= lo[i] ? 0 : lo[i] - (size_t)wmax;
        hi[i + 1] = off[i + 1] == off[i] || (uint64_t)wmin > hi[i] ? hi[i] : hi[i] - (size_t)wmin;
    }
    double *last = dp->f + n_jobs * width;
    for (size_t z = lo[n_jobs]; z <= hi[n_jobs]; z++)
        last[z] = 0; /* f_{n+1} ≡ 0 */
    for (size_t i = n_jobs; i-- > 0;) {
        double *fi = dp->f + i * width;
        const double *fn = fi + width;
        int32_t *ai = dp->arg + i * width;
        for (size_t z = lo[i]; z <= hi[i]; z++) {
            fi[z] = none;
            ai[z] = -1;
        }
        /* alternatives in order, strict improvement: the first attaining
         * alternative is kept; an infeasible f_{i+1} (+-inf) never wins */
        for (size_t a = off[i]; a < off[i + 1]; a++) {
            if ((uint64_t)w[a] >= width)
                continue;
            size_t wa = (size_t)w[a];
            double ga = g[a];
            int32_t rank = (int32_t)(a - off[i]);
            const double *src = fn - wa;
            size_t z0 = wa > lo[i] ? wa : lo[i], z1 = hi[i] + 1;
            if (maximize) {
                for (size_t z = z0; z < z1; z++) {
                    double cand = ga + src[z];
                    if (cand > fi[z]) {
                        fi[z] = cand;
                        ai[z] = rank;
                    }
                }
            } else {
                for (size_t z = z0; z < z1; z++) {
                    double cand = ga + src[z];
                    if (cand < fi[z]) {
                        fi[z] = cand;
                        ai[z] = rank;
                    }
                }
            }
        }
    }
    *best = dp->f[cells];
    if (n_jobs > 0 && dp->arg[(size_t)cells] < 0)
        return ENG_OK;
    size_t z = (size_t)cells;
    for (size_t i = 0; i < n_jobs; i++) {
        int32_t a = dp->arg[i * width + z];
        if (a < 0)
            return ENG_INVARIANT; /* f_i(Z_i) finite implies a choice */
        choice[i] = a;
        z -= (size_t)w[off[i] + (size_t)a];
    }
    *feasible = true;
    return ENG_OK;
}

/* (2) in cells of q. */
static int64_t limit_cells(const pol_dp_batch *b, double q, pol_dp_tlimit rule)
{
    int64_t total = 0;
    for (size_t i = 0; i < b->n_jobs; i++) {
        int64_t l = (int64_t)(b->off[i + 1] - b->off[i]), sum = 0;
        for (size_t a = b->off[i]; a < b->off[i + 1]; a++) {
            int64_t c = pol_dp_cells(b->time[a], q);
            if (rule == POL_DP_TLIMIT_TERMS)
                total += c / l;
            else
                sum += c;
        }
        if (rule == POL_DP_TLIMIT_MEANS && l > 0)
            total += sum / l;
    }
    return total;
}

double pol_dp_time_limit(const pol_dp_batch *b, double q, pol_dp_tlimit rule)
{
    return (double)limit_cells(b, q, rule) * q;
}

static bool every_job_has_one(const pol_dp_batch *b)
{
    for (size_t i = 0; i < b->n_jobs; i++)
        if (b->off[i + 1] == b->off[i])
            return false;
    return true;
}

static int weights(pol_dp *dp, const pol_dp_batch *b, const double *z, double q)
{
    size_t n = b->off[b->n_jobs];
    if (eng_grow(&dp->w, &dp->cap_w, n ? n : 1, sizeof *dp->w))
        return ENG_NOMEM;
    for (size_t a = 0; a < n; a++)
        dp->w[a] = pol_dp_cells(z[a], q);
    return ENG_OK;
}

static void totals(const pol_dp_batch *b, const int32_t *choice, pol_dp_result *res)
{
    res->time = res->cost = 0;
    for (size_t i = 0; i < b->n_jobs; i++) {
        size_t a = b->off[i] + (size_t)choice[i];
        res->time += b->time[a];
        res->cost += b->cost[a];
    }
}

/* T* on its grid: the quantum (a multiple of the time quantum) and the
 * number of cells. */
static void time_grid(const pol_dp_batch *b, const pol_dp_grid *grid, double *q, int64_t *cells)
{
    *q = grid->time_quantum;
    *cells = limit_cells(b, *q, grid->rule);
    if (*cells > grid->max_cells) {
        *q *= ceil((double)*cells / (double)grid->max_cells);
        *cells = limit_cells(b, *q, grid->rule);
    }
}

static bool grid_ok(const pol_dp_grid *grid)
{
    return grid->time_quantum > 0 && grid->max_cells > 0;
}

/* Every job has exactly one alternative: (2) is then the sum of their
 * cells under either rule, (3) their total cost, and the choice is forced
 * (the programs would find it; this spares the tables). */
static bool forced(const pol_dp_batch *b, int32_t *choice, pol_dp_result *res,
                   const pol_dp_grid *grid)
{
    for (size_t i = 0; i < b->n_jobs; i++)
        if (b->off[i + 1] - b->off[i] != 1)
            return false;
    for (size_t i = 0; i < b->n_jobs; i++)
        choice[i] = 0;
    double q;
    int64_t cells;
    time_grid(b, grid, &q, &cells);
    res->t_limit = (double)cells * q;
    res->feasible = true;
    totals(b, choice, res);
    return true;
}

int pol_dp_min_time(pol_dp *dp, const pol_dp_batch *b, const pol_dp_grid *grid, int32_t *choice,
                    pol_dp_result *res)
{
    memset(res, 0, sizeof *res);
    if (!grid_ok(grid))
        return ENG_INVAL;
    if (!every_job_has_one(b))
        return ENG_OK;
    if (forced(b, choice, res, grid)) {
        res->b_limit = res->cost;
        return ENG_OK;
    }
    double qt;
    int64_t tcells;
    time_grid(b, grid, &qt, &tcells);
    res->t_limit = (double)tcells * qt;
    int rc = weights(dp, b, b->time, qt);
    if (rc)
        return rc;
    /* (3): the largest income within T*. */
    bool feasible;
    double bstar;
    rc = pol_dp_run(dp, b->n_jobs, b->off, b->cost, dp->w, tcells, true, choice, &bstar, &feasible);
    if (rc || !feasible)
        return rc;
    res->b_limit = bstar;
    double qc = bstar > 0 ? bstar / (double)grid->max_cells : 1.0;
    int64_t ccells = 0;
    for (size_t i = 0; i < b->n_jobs; i++)
        ccells += pol_dp_cells(b->cost[b->off[i] + (size_t)choice[i]], qc);
    rc = weights(dp, b, b->cost, qc);
    if (rc)
        return rc;
    double best;
    rc = pol_dp_run(dp, b->n_jobs, b->off, b->time, dp->w, ccells, false, choice, &best, &feasible);
    if (rc)
        return rc;
    if (!feasible)
        return ENG_INVARIANT; /* the choice of (3) is admissible */
    res->feasible = true;
    totals(b, choice, res);
    return ENG_OK;
}

int pol_dp_min_cost(pol_dp *dp, const pol_dp_batch *b, const pol_dp_grid *grid, int32_t *choice,
                    pol_dp_result *res)
{
    memset(res, 0, sizeof *res);
    if (!grid_ok(grid))
        return ENG_INVAL;
    if (!every_job_has_one(b))
        return ENG_OK;
    if (forced(b, choice, res, grid))
        return ENG_OK;
    double qt;
    int64_t tcells;
    time_grid(b, grid, &qt, &tcells);
    res->t_limit = (double)tcells * qt;
    int rc = weights(dp, b, b->time, qt);
    if (rc)
        return rc;
    bool feasible;
    double best;
    rc = pol_dp_run(dp, b->n_jobs, b->off, b->cost, dp->w, tcells, false, choice, &best, &feasible);
    if (rc || !feasible)
        return rc;
    res->feasible = true;
    totals(b, choice, res);
    return ENG_OK;
}
