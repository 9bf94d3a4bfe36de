/* pol_win.c — see pol_win.h. */
#include "alloc/pol_win.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

double pol_win_prob(const double *p, const int32_t *sel, size_t n, double *scratch)
{
    for (size_t k = 0; k < n; k++)
        scratch[k] = p[sel[k]];
    if (n <= 32) {
        for (size_t i = 1; i < n; i++) {
            double x = scratch[i];
            size_t j = i;
            while (j > 0 && scratch[j - 1] < x) {
                scratch[j] = scratch[j - 1];
                j--;
            }
            scratch[j] = x;
        }
    } else {
        qsort(scratch, n, sizeof *scratch, cmp_double_desc);
    }
    double v = 1.0;
    for (size_t k = 0; k < n; k++)
        v *= scratch[k];
    return v;
}

void pol_win_finish(const pol_win_problem *pr, pol_win_result *res, double *scratch)
{
    size_t n = (size_t)res->n_sel;
    if (n <= 32) {
        for (size_t i = 1; i < n; i++) {
            int32_t x = res->sel[i];
            size_t j = i;
            while (j > 0 && res->sel[j - 1] > x) {
                res->sel[j] = res->sel[j - 1];
                j--;
            }
            res->sel[j] = x;
        }
    } else {
        qsort(res->sel, n, sizeof *res->sel, cmp_i32);
    }
    int64_t c = 0;
    for (size_t k = 0; k < n; k++)
        c += pr->cost[res->sel[k]];
    res->cost = c;
    res->feasible = n > 0 && (pr->budget == POL_WIN_NO_BUDGET || c <= pr->budget);
    res->p = n ? pol_win_prob(pr->p, res->sel, n, scratch) : 0.0;
}

void pol_win_discretize(const double *cost, size_t m, double budget, double unit, int64_t *icost,
                        int64_t *ibudget)
{
    for (size_t j = 0; j < m; j++) {
        double q = cost[j] / unit;
        icost[j] = (int64_t)ceil(q - 1e-9 * (q > 1 ? q : 1));
        if (icost[j] < 0)
            icost[j] = 0;
    }
    if (isinf(budget)) {
        *ibudget = POL_WIN_NO_BUDGET;
    } else {
        double q = budget / unit;
        *ibudget = (int64_t)floor(q + 1e-9 * (q > 1 ? q : 1));
        if (*ibudget < 0)
            *ibudget = -1;
    }
}

void pol_win_ws_init(pol_win_ws *ws)
{
    memset(ws, 0, sizeof *ws);
}

void pol_win_ws_fini(pol_win_ws *ws)
{
    if (!ws)
        return;
    for (int k = 0; k < 8; k++)
        free(ws->buf[k]);
    memset(ws, 0, sizeof *ws);
}

void *pol_win_ws_get(pol_win_ws *ws, int slot, size_t bytes)
{
    if (bytes == 0)
        bytes = 1;
    if (ws->cap[slot] < bytes) {
        size_t cap = ws->cap[slot] ? ws->cap[slot] : 64;
        while (cap < bytes)
            cap *= 2;
        void *b = realloc(ws->buf[slot], cap);
        if (!b)
            return NULL;
        ws->buf[slot] = b;
        ws->cap[slot] = cap;
    }
    return ws->buf[slot];
}
