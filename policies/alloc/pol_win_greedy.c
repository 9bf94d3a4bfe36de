/* pol_win_greedy.c — MaxP, MinC, MaxP/C and GreedyJnt; see
 * pol_win_greedy.h (Toporkov, Yemelyanov & Grigorenko 2021 §3.4). */
#include "alloc/pol_win_greedy.h"

#include "eng_error.h"

#include <math.h>

/* A ranking key: k1 descending, then k2 ascending, then index ascending. */
typedef struct key {
    double k1, k2;
    int32_t idx;
} key;

static bool better(const key *a, const key *b)
{
    if (a->k1 != b->k1)
        return a->k1 > b->k1;
    if (a->k2 != b->k2)
        return a->k2 < b->k2;
    return a->idx < b->idx;
}

static key make_key(const pol_win_problem *pr, pol_win_rule rule, unsigned flags, int32_t j)
{
    double p = pr->p[j], c = (double)pr->cost[j];
    switch (rule) {
    case POL_WIN_MINC:
        return (key){-c, (flags & POL_WIN_MINC_PLAIN) ? 0.0 : -p, j};
    case POL_WIN_MAXPC:
        if (c <= 0)
            return (key){INFINITY, -p, j};
        return (key){p / c, c, j};
    default:
        return (key){p, c, j};
    }
}

/* The n best of the m keys into top[0..n), best first. */
static void select_top(const pol_win_problem *pr, pol_win_rule rule, unsigned flags, key *top,
                       int32_t n)
{
    int32_t k = 0;
    for (size_t j = 0; j < pr->m; j++) {
        key x = make_key(pr, rule, flags, (int32_t)j);
        if (k == n && !better(&x, &top[n - 1]))
            continue;
        int32_t pos = k < n ? k++ : n - 1;
        while (pos > 0 && better(&x, &top[pos - 1])) {
            top[pos] = top[pos - 1];
            pos--;
        }
        top[pos] = x;
    }
}

static int apply_rule(const pol_win_problem *pr, pol_win_rule rule, unsigned flags, pol_win_ws *ws,
                      pol_win_result *res)
{
    int32_t n = pr->n;
    key *top = pol_win_ws_get(ws, 0, (size_t)n * sizeof *top);
    double *scratch = pol_win_ws_get(ws, 1, (size_t)n * sizeof *scratch);
    if (!top || !scratch)
        return ENG_NOMEM;
    select_top(pr, rule, flags, top, n);
    for (int32_t k = 0; k < n; k++)
        res->sel[k] = top[k].idx;
    res->n_sel = n;
    pol_win_finish(pr, res, scratch);
    return ENG_OK;
}

const char *pol_win_rule_name(pol_win_rule rule)
{
    static const char *const names[] = {"maxp", "minc", "maxpc", "greedyjnt"};
    return (unsigned)rule < 4 ? names[rule] : "?";
}

int pol_win_greedy(const pol_win_problem *pr, pol_win_rule rule, pol_win_ws *ws,
                   pol_win_result *res)
{
    return pol_win_greedy_flags(pr, rule, 0, ws, res);
}

int pol_win_greedy_flags(const pol_win_problem *pr, pol_win_rule rule, unsigned flags,
                         pol_win_ws *ws, pol_win_result *res)
{
    res->n_sel = 0;
    res->feasible = false;
    res->p = 0;
    res->cost = 0;
    if (pr->n < 1 || (size_t)pr->n > pr->m)
        return ENG_OK;
    int rc;
    if (rule != POL_WIN_GREEDYJNT) {
        if ((rc = apply_rule(pr, rule, flags, ws, res)) != ENG_OK)
            return rc;
        if (rule == POL_WIN_MINC && !res->feasible)
            res->n_sel = 0, res->p = 0, res->cost = 0;
        return ENG_OK;
    }
    static const pol_win_rule stages[] = {POL_WIN_MAXP, POL_WIN_MAXPC, POL_WIN_MINC};
    for (int s = 0; s < 3; s++) {
        if ((rc = apply_rule(pr, stages[s], flags, ws, res)) != ENG_OK)
            return rc;
        if (res->feasible)
            return ENG_OK;
    }
    res->n_sel = 0;
    res->p = 0;
    res->cost = 0;
    return ENG_OK;
}
