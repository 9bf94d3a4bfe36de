/* pol_win_knapsack.c — KnapsackP, the multiplicative 0-1 knapsack with a
 * cardinality constraint; see pol_win_knapsack.h (Toporkov & Yemelyanov
 * 2020; Toporkov, Yemelyanov & Grigorenko 2021 §3.3).
 *
 * Why each reduction of pol_win_knapsack keeps the optimum:
 *   SHORTCUT   MaxP maximizes the product over all n-subsets; if it is
 *              affordable nothing affordable can beat it.
 *   FILTER     with S the cost of the n - 1 cheapest resources other than
 *              j, every feasible selection holding j costs >= c_j + S; for
 *              j outside the n cheapest, S is the cost of the n - 1
 *              cheapest overall.
 *   DOMINANCE  resources sorted by (cost asc, p desc, index asc); if n
 *              earlier ones have p >= p_j, a selection holding j misses at
 *              least one of them (it holds at most n - 1 others), and
 *              swapping j for it costs no more and loses no availability.
 *              The swap moves to an earlier resource, so chains of swaps
 *              end, and dropped resources may serve as dominators.
 *   p = 0      a resource with p = 0 zeroes any selection; if some
 *              affordable selection avoids all of them the table finds it,
 *              otherwise every affordable selection is worth 0 and MinC
 *              (affordable iff anything is) is as good as any.
 *   BOUNDS     states that cannot be reached (fewer resources seen than v,
 *              cost below the v cheapest) or cannot be completed (fewer
 *              resources left than n - v) never influence f_m(C, n); the
 *              backward pass applies the same bounds before reading a
 *              decision byte.
 */
#include "alloc/pol_win_knapsack.h"

#include "alloc/pol_win_greedy.h"
#include "eng_error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct item {
    double p, lp;
    int64_t c;
    int32_t idx;
} item;

static int cmp_item(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->c != y->c)
        return x->c < y->c ? -1 : 1;
    if (x->p != y->p)
        return x->p > y->p ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* The resources in (cost asc, p desc, index asc) order (lp left for the
 * survivors of the reductions). Integer costs in a
 * narrow range (the usual case: a few price classes, or a branch and bound
 * calling this thousands of times) are bucketed by cost in O(m + range),
 * each bucket then sorted by insertion; otherwise qsort. Workspace slot 7. */
static int sort_items(const pol_win_problem *pr, pol_win_ws *ws, item *it)
{
    size_t m = pr->m;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t j = 0; j < m; j++) {
        if (pr->cost[j] < lo)
            lo = pr->cost[j];
        if (pr->cost[j] > hi)
            hi = pr->cost[j];
    }
    uint64_t range = (uint64_t)(hi - lo) + 1;
    if (range > 4 * (uint64_t)m + 64) {
        for (size_t j = 0; j < m; j++)
            it[j] = (item){pr->p[j], 0, pr->cost[j], (int32_t)j};
        qsort(it, m, sizeof *it, cmp_item);
        return ENG_OK;
    }
    size_t R = (size_t)range;
    size_t *base = pol_win_ws_get(ws, 7, 2 * (R + 1) * sizeof *base), *next = base + R + 1;
    if (!base)
        return ENG_NOMEM;
    memset(base, 0, (R + 1) * sizeof *base);
    for (size_t j = 0; j < m; j++)
        base[pr->cost[j] - lo + 1]++;
    for (size_t b = 0; b < R; b++)
        base[b + 1] += base[b];
    memcpy(next, base, (R + 1) * sizeof *base);
    for (size_t j = 0; j < m; j++) {
        size_t b = (size_t)(pr->cost[j] - lo), pos = next[b]++;
        item x = {pr->p[j], 0, pr->cost[j], (int32_t)j};
        /* insertion within the bucket (filled in index order): by p desc */
        size_t first = base[b];
        while (pos > first && it[pos - 1].p < x.p) {
            it[pos] = it[pos - 1];
            pos--;
        }
        it[pos] = x;
    }
    return ENG_OK;
}

static void empty(pol_win_result *res)
{
    res->n_sel = 0;
    res->feasible = false;
    res->p = 0;
    res->cost = 0;
}

/* Min-heap of at most n doubles: the n largest values seen. */
static void heap_offer(double *h, int32_t *size, int32_t cap, double x)
{
    if (*size < cap) {
        int32_t i = (*size)++;
        while (i > 0 && h[(i - 1) / 2] > x) {
            h[i] = h[(i - 1) / 2];
            i = (i - 1) / 2;
        }
        h[i] = x;
        return;
    }
    if (x <= h[0])
        return;
    int32_t i = 0;
    for (;;) {
        int32_t l = 2 * i + 1, r = l + 1, s = i;
        double v = x;
        if (l < cap && h[l] < v)
            s = l, v = h[l];
        if (r < cap && h[r] < v)
            s = r;
        if (s == i)
            break;
        h[i] = h[s];
        i = s;
    }
    h[i] = x;
}

int pol_win_knapsack(const pol_win_problem *pr, unsigned flags, pol_win_ws *ws, pol_win_result *res,
                     pol_win_ks_stats *st)
{
    pol_win_ks_stats dummy;
    if (!st)
        st = &dummy;
    memset(st, 0, sizeof *st);
    empty(res);
    int32_t n = pr->n;
    size_t m = pr->m;
    if (n < 1 || (size_t)n > m || pr->budget < 0)
        return ENG_OK;
    int rc;
    bool no_budget = pr->budget == POL_WIN_NO_BUDGET;
    if ((flags & POL_WIN_KS_SHORTCUT) || no_budget) {
        if ((rc = pol_win_greedy(pr, POL_WIN_MAXP, ws, res)) != ENG_OK)
            return rc;
        if (res->feasible) {
            st->shortcut = true;
            return ENG_OK;
        }
        empty(res);
    }

    item *it = pol_win_ws_get(ws, 2, m * sizeof *it);
    double *heap = pol_win_ws_get(ws, 5, ((size_t)n + 1) * (sizeof(double) + sizeof(int64_t)));
    if (!it || !heap)
        return ENG_NOMEM;
    int64_t *minsum = (int64_t *)(heap + n);
    if ((rc = sort_items(pr, ws, it)) != ENG_OK)
        return rc;
    int64_t s_nm1 = 0, s_n = 0;
    for (int32_t k = 0; k < n; k++) {
        s_n += it[k].c;
        if (k < n - 1)
            s_nm1 += it[k].c;
    }
    if (!no_budget && s_n > pr->budget)
        return ENG_OK; /* not even the n cheapest fit */

    /* Filter and dominance in one sweep; keep positive-p survivors in
     * (cost, -p, index) order. */
    size_t kept = 0;
    int32_t hsize = 0;
    for (size_t q = 0; q < m; q++) {
        item x = it[q];
        bool drop = false;
        if ((flags & POL_WIN_KS_FILTER) && !no_budget && q >= (size_t)n && x.c > pr->budget - s_nm1)
            drop = true;
        if (!drop && (flags & POL_WIN_KS_DOMINANCE) && hsize == n && heap[0] >= x.p)
            drop = true;
        if (flags & POL_WIN_KS_DOMINANCE)
            heap_offer(heap, &hsize, n, x.p);
        if (!drop && x.p > 0) {
            x.lp = log(x.p);
            it[kept++] = x;
        }
    }
    st->items = kept;

    int64_t C;
    if (no_budget) {
        C = 0;
        for (size_t q = kept > (size_t)n ? kept - (size_t)n : 0; q < kept; q++)
            C += it[q].c;
    } else {
        C = pr->budget;
        if (flags & POL_WIN_KS_BOUNDS) {
            int64_t dear = 0;
            for (size_t q = kept > (size_t)n ? kept - (size_t)n : 0; q < kept; q++)
                dear += it[q].c;
            if (dear < C)
                C = dear;
        }
    }
    minsum[0] = 0;
    for (int32_t v = 1; v <= n; v++)
        minsum[v] = minsum[v - 1] + ((size_t)v <= kept ? it[v - 1].c : 0);
    bool positive = kept >= (size_t)n && minsum[n] <= C;
    if (!positive) {
        /* every affordable selection holds a p = 0 resource: worth 0 */
        if ((rc = pol_win_greedy(pr, POL_WIN_MINC, ws, res)) != ENG_OK)
            return rc;
        return ENG_OK;
    }
    st->budget = C;
    size_t W = (size_t)C + 1;
    if ((uint64_t)kept * (uint64_t)n * (uint64_t)W > POL_WIN_KS_MAX_TABLE)
        return ENG_RANGE;
    double *f = pol_win_ws_get(ws, 3, ((size_t)n + 1) * W * sizeof *f);
    unsigned char *take = pol_win_ws_get(ws, 4, kept * (size_t)n * W);
    double *scratch = pol_win_ws_get(ws, 6, (size_t)n * sizeof *scratch);
    if (!f || !take || !scratch)
        return ENG_NOMEM;
    for (size_t c = 0; c < W; c++)
        f[c] = 0.0;
    for (size_t c = W; c < ((size_t)n + 1) * W; c++)
        f[c] = -INFINITY;

    bool bounds = flags & POL_WIN_KS_BOUNDS;
    uint64_t cells = 0;
    for (size_t k = 0; k < kept; k++) {
        size_t cj = (size_t)it[k].c;
        double lp = it[k].lp;
        int32_t vhi = (size_t)n < k + 1 ? n : (int32_t)(k + 1);
        int32_t vlo = 1;
        if (bounds) {
            int64_t need = (int64_t)n - (int64_t)(kept - 1 - k);
            if (need > vlo)
                vlo = (int32_t)need;
        }
        for (int32_t v = vhi; v >= vlo; v--) {
            double *fv = f + (size_t)v * W, *fp = f + (size_t)(v - 1) * W;
            unsigned char *tk = take + (k * (size_t)n + (size_t)(v - 1)) * W;
            size_t lo = cj + (bounds ? (size_t)minsum[v - 1] : 0);
            for (size_t c = W - 1; c + 1 > lo; c--) {
                double cand = fp[c - cj] + lp;
                unsigned char t = cand > fv[c];
                tk[c] = t;
                if (t)
                    fv[c] = cand;
            }
            if (W > lo)
                cells += W - lo;
        }
    }
    st->cells = cells;
    if (f[(size_t)n * W + (size_t)C] == -INFINITY) {
        if ((rc = pol_win_greedy(pr, POL_WIN_MINC, ws, res)) != ENG_OK)
            return rc;
        return ENG_OK;
    }
    /* backward induction */
    int32_t v = n;
    size_t c = (size_t)C;
    int32_t ns = 0;
    for (size_t k = kept; k-- > 0 && v > 0;) {
        size_t cj = (size_t)it[k].c;
        int32_t vhi = (size_t)n < k + 1 ? n : (int32_t)(k + 1);
        int32_t vlo = 1;
        if (bounds) {
            int64_t need = (int64_t)n - (int64_t)(kept - 1 - k);
            if (need > vlo)
                vlo = (int32_t)need;
        }
        size_t lo = cj + (bounds ? (size_t)minsum[v - 1] : 0);
        if (v > vhi || v < vlo || c < lo)
            continue;
        if (take[(k * (size_t)n + (size_t)(v - 1)) * W + c]) {
            res->sel[ns++] = it[k].idx;
            c -= cj;
            v--;
        }
    }
    if (v != 0)
        return ENG_INVARIANT; /* cannot happen: the table said n fit */
    res->n_sel = n;
    pol_win_finish(pr, res, scratch);
    return ENG_OK;
}

int pol_win_knapsack_ref(const pol_win_problem *pr, pol_win_ws *ws, pol_win_result *res)
{
    empty(res);
    int32_t n = pr->n;
    size_t m = pr->m;
    if (n < 1 || (size_t)n > m || pr->budget < 0)
        return ENG_OK;
    int64_t C = pr->budget;
    if (C == POL_WIN_NO_BUDGET) {
        /* the n dearest: every selection fits */
        int64_t *cs = pol_win_ws_get(ws, 3, m * sizeof *cs);
        if (!cs)
            return ENG_NOMEM;
        memcpy(cs, pr->cost, m * sizeof *cs);
        C = 0;
        for (int32_t k = 0; k < n; k++) {
            size_t best = (size_t)k;
            for (size_t j = (size_t)k + 1; j < m; j++)
                if (cs[j] > cs[best])
                    best = j;
            int64_t t = cs[k];
            cs[k] = cs[best];
            cs[best] = t;
            C += cs[k];
        }
    }
    size_t W = (size_t)C + 1, V = (size_t)n + 1;
    uint64_t cells = (uint64_t)(m + 1) * V * W;
    if (cells * sizeof(double) > POL_WIN_KS_MAX_TABLE)
        return ENG_RANGE;
    double *f = pol_win_ws_get(ws, 2, (size_t)cells * sizeof *f);
    double *scratch = pol_win_ws_get(ws, 3, (size_t)n * sizeof *scratch);
    if (!f || !scratch)
        return ENG_NOMEM;
#define F(j, v, c) f[((size_t)(j)*V + (size_t)(v)) * W + (size_t)(c)]
    /* -1 marks "no selection of v resources with cost <= c" */
    for (size_t v = 0; v < V; v++)
        for (size_t c = 0; c < W; c++)
            F(0, v, c) = v == 0 ? 1.0 : -1.0;
    for (size_t j = 1; j <= m; j++) {
        size_t cj = (size_t)pr->cost[j - 1];
        double pj = pr->p[j - 1];
        for (size_t v = 0; v < V; v++)
            for (size_t c = 0; c < W; c++) {
                double best = F(j - 1, v, c);
                if (v >= 1 && c >= cj && F(j - 1, v - 1, c - cj) >= 0) {
                    double cand = F(j - 1, v - 1, c - cj) * pj;
                    if (cand > best)
                        best = cand;
                }
                F(j, v, c) = best;
            }
    }
    if (F(m, n, C) < 0)
        return ENG_OK;
    size_t v = (size_t)n, c = (size_t)C;
    int32_t ns = 0;
    for (size_t j = m; j >= 1 && v > 0; j--)
        if (F(j, v, c) != F(j - 1, v, c)) {
            res->sel[ns++] = (int32_t)(j - 1);
            c -= (size_t)pr->cost[j - 1];
            v--;
        }
#undef F
    res->n_sel = ns;
    pol_win_finish(pr, res, scratch);
    return ENG_OK;
}
