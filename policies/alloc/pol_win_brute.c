/* pol_win_brute.c — BruteForce over all affordable n-subsets; see
 * pol_win_brute.h (Toporkov, Yemelyanov & Tselishchev 2023 §3.1). */
#include "alloc/pol_win_brute.h"

#include "eng_error.h"

#include <stdlib.h>
#include <string.h>

/* The search state shared by both criteria. */
typedef struct brute {
    size_t m;
    int32_t n;
    int64_t budget;
    const int64_t *cost;
    const double *p;      /* criterion (2): per resource */
    const int32_t *group; /* criterion (3): per resource, else NULL */
    const double *group_p;
    int32_t *use; /* (3): chosen members per group */
    int32_t *cur, *best;
    double best_fast;  /* best value as multiplied along the search */
    double best_canon; /* its canonical value */
    double *scratch;
    const pol_win_problem *p2;
    const pol_wg_problem *p3;
    uint64_t visited;
    bool found;
} brute;

static double canonical(brute *b)
{
    if (b->group)
        return pol_wg_prob(b->p3, b->cur, (size_t)b->n, b->scratch);
    return pol_win_prob(b->p, b->cur, (size_t)b->n, b->scratch);
}

/* Chooses resource depth.. from index `from` on, with `cost` spent and the
 * running product v. */
static void dfs(brute *b, int32_t depth, size_t from, int64_t cost, double v)
{
    if (depth == b->n) {
        b->visited++;
        /* the running product is within a few ulps of the canonical one:
         * compare canonically when it might be an improvement */
        if (b->found && v < b->best_fast * (1 - 1e-12))
            return;
        double c = canonical(b);
        if (!b->found || c > b->best_canon) {
            b->found = true;
            b->best_canon = c;
            b->best_fast = v > c ? v : c;
            memcpy(b->best, b->cur, (size_t)b->n * sizeof *b->best);
        }
        return;
    }
    size_t last = b->m - (size_t)(b->n - depth); /* leave room for the rest */
    for (size_t j = from; j <= last; j++) {
        int64_t c = cost + b->cost[j];
        if (b->budget != POL_WIN_NO_BUDGET && c > b->budget)
            continue;
        b->cur[depth] = (int32_t)j;
        if (b->group) {
            int32_t g = b->group[j];
            double f = b->use[g]++ ? 1.0 : b->group_p[g];
            dfs(b, depth + 1, j + 1, c, v * f);
            b->use[g]--;
        } else {
            dfs(b, depth + 1, j + 1, c, v * b->p[j]);
        }
    }
}

static int run(brute *b, pol_win_result *res, uint64_t *visited, size_t n_groups)
{
    res->n_sel = 0;
    res->feasible = false;
    res->p = 0;
    res->cost = 0;
    if (b->n < 1 || (size_t)b->n > b->m || b->budget < 0) {
        if (visited)
            *visited = 0;
        return ENG_OK;
    }
    b->cur = malloc((size_t)b->n * sizeof *b->cur);
    b->best = malloc((size_t)b->n * sizeof *b->best);
    b->scratch = malloc((size_t)b->n * sizeof *b->scratch);
    b->use = n_groups ? calloc(n_groups, sizeof *b->use) : NULL;
    int rc = ENG_OK;
    if (!b->cur || !b->best || !b->scratch || (n_groups && !b->use)) {
        rc = ENG_NOMEM;
        goto out;
    }
    dfs(b, 0, 0, 0, 1.0);
    if (b->found) {
        memcpy(res->sel, b->best, (size_t)b->n * sizeof *res->sel);
        res->n_sel = b->n;
    }
out:
    if (visited)
        *visited = b->visited;
    if (rc == ENG_OK && b->found) {
        if (b->group)
            pol_wg_finish(b->p3, res, b->scratch);
        else
            pol_win_finish(b->p2, res, b->scratch);
    }
    free(b->cur);
    free(b->best);
    free(b->scratch);
    free(b->use);
    return rc;
}

int pol_win_brute(const pol_win_problem *pr, pol_win_ws *ws, pol_win_result *res, uint64_t *visited)
{
    (void)ws;
    brute b = {
        .m = pr->m, .n = pr->n, .budget = pr->budget, .cost = pr->cost, .p = pr->p, .p2 = pr};
    return run(&b, res, visited, 0);
}

int pol_win_brute_group(const pol_wg_problem *pr, pol_win_ws *ws, pol_win_result *res,
                        uint64_t *visited)
{
    (void)ws;
    for (size_t j = 0; j < pr->m; j++)
        if (pr->group[j] < 0 || (size_t)pr->group[j] >= pr->n_groups)
            return ENG_INVAL;
    brute b = {.m = pr->m,
               .n = pr->n,
               .budget = pr->budget,
               .cost = pr->cost,
               .group = pr->group,
               .group_p = pr->group_p,
               .p3 = pr};
    return run(&b, res, visited, pr->n_groups);
}
