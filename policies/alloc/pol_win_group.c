/* pol_win_group.c — KnapsackGroup, Greedy, Greedy+ and KnapsackSingle; see
 * pol_win_group.h (Toporkov, Yemelyanov & Tselishchev 2023 §2.4, §3.1).
 *
 * Storage: candidates live in an arena (key, creation number, validity,
 * offsets of their group states and, for valid ones, their selection); the
 * max-heap H holds arena indices. Group states are one byte per group
 * (open, plus, minus). Members of each group are kept sorted by (cost,
 * index), so "the cheapest member" is the first.
 */
#include "alloc/pol_win_group.h"

#include "alloc/pol_win_greedy.h"
#include "alloc/pol_win_knapsack.h"
#include "eng_avail.h"
#include "eng_error.h"
#include "eng_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { OPEN = 0, PLUS = 1, MINUS = 2 };

/* Open candidates' upper estimates are raised by this relative margin
 * (and capped at 1). */
#define KEY_MARGIN 1e-12

double pol_wg_prob(const pol_wg_problem *pr, const int32_t *sel, size_t n, double *scratch)
{
    return eng_avail_group_window(pr->group, pr->group_p, sel, n, scratch);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

void pol_wg_finish(const pol_wg_problem *pr, pol_win_result *res, double *scratch)
{
    size_t n = (size_t)res->n_sel;
    qsort(res->sel, n, sizeof *res->sel, cmp_i32);
    int64_t c = 0;
    for (size_t k = 0; k < n; k++)
        c += pr->cost[res->sel[k]];
    res->cost = c;
    res->feasible = n > 0 && (pr->budget == POL_WIN_NO_BUDGET || c <= pr->budget);
    res->p = n ? pol_wg_prob(pr, res->sel, n, scratch) : 0.0;
}

typedef struct node {
    double key;
    uint64_t seq;
    size_t st_off;  /* n_groups state bytes */
    size_t sel_off; /* valid: n resources */
    bool valid;
} node;

typedef struct bb {
    const pol_wg_problem *pr;
    pol_win_ws *ws;
    bool literal;
    unsigned greedy_flags; /* pol_win_greedy_flags() of the Greedy relaxations */
    size_t G;
    int32_t *gstart, *gmem; /* members of group g: gmem[gstart[g] .. gstart[g+1]) */
    double *root_p;         /* (P_a^G)^(1/k) */
    node *nodes;
    size_t n_nodes, cap_nodes;
    unsigned char *states;
    size_t n_states, cap_states;
    int32_t *sels;
    size_t n_sels, cap_sels;
    size_t *heap;
    size_t n_heap, cap_heap;
    /* one relaxation */
    double *sp, *scratch;
    int64_t *sc;
    int32_t *smap, *ssel, *win, *cnt;
    unsigned char *tmp_state;
    double incumbent;
    bool have_incumbent;
    pol_wg_stats st;
} bb;

static bool heap_before(const bb *b, size_t x, size_t y)
{
    const node *a = &b->nodes[x], *c = &b->nodes[y];
    if (a->key != c->key)
        return a->key > c->key;
    if (a->valid != c->valid)
        return a->valid;
    return a->seq < c->seq;
}

static int heap_push(bb *b, size_t id)
{
    if (eng_grow(&b->heap, &b->cap_heap, b->n_heap + 1, sizeof *b->heap))
        return ENG_NOMEM;
    size_t i = b->n_heap++;
    while (i > 0 && heap_before(b, id, b->heap[(i - 1) / 2])) {
        b->heap[i] = b->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    b->heap[i] = id;
    if (b->n_heap > b->st.heap_max)
        b->st.heap_max = b->n_heap;
    return ENG_OK;
}

static size_t heap_pop(bb *b)
{
    size_t top = b->heap[0], last = b->heap[--b->n_heap], i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, s = i;
        size_t sv = last;
        if (l < b->n_heap && heap_before(b, b->heap[l], sv))
            s = l, sv = b->heap[l];
        if (r < b->n_heap && heap_before(b, b->heap[r], sv))
            s = r;
        if (s == i)
            break;
        b->heap[i] = b->heap[s];
        i = s;
    }
    if (b->n_heap)
        b->heap[i] = last;
    return top;
}

/* Creates a candidate with the given states (and selection when valid)
 * and pushes it into H. */
static int push_node(bb *b, const unsigned char *state, double key, bool valid, const int32_t *sel)
{
    size_t G = b->G, n = (size_t)b->pr->n;
    if (eng_grow(&b->nodes, &b->cap_nodes, b->n_nodes + 1, sizeof *b->nodes) ||
        eng_grow(&b->states, &b->cap_states, b->n_states + G, 1) ||
        (valid && eng_grow(&b->sels, &b->cap_sels, b->n_sels + n, sizeof *b->sels)))
        return ENG_NOMEM;
    node *x = &b->nodes[b->n_nodes];
    *x = (node){.key = key, .seq = b->n_nodes, .st_off = b->n_states, .valid = valid};
    memcpy(b->states + b->n_states, state, G);
    b->n_states += G;
    if (valid) {
        x->sel_off = b->n_sels;
        memcpy(b->sels + b->n_sels, sel, n * sizeof *sel);
        b->n_sels += n;
    }
    b->st.tree_size++;
    return heap_push(b, b->n_nodes++);
}

typedef enum { INFEASIBLE, SOLVED } eval_rc;

/* Solves the relaxation of a candidate with group states `state`: fills
 * b->win (n resources), *v2 (relaxed value), *v3 (true value (3)), *valid
 * and *split (the group to branch on when not valid). */
static int evaluate(bb *b, const unsigned char *state, pol_wg_algo algo, eval_rc *out, double *v2,
                    double *v3, bool *valid, int32_t *split)
{
    const pol_wg_problem *pr = b->pr;
    int32_t n = pr->n, nf = 0;
    int64_t fcost = 0;
    size_t ms = 0;
    double *vals = b->scratch; /* factors of the relaxed value */
    size_t nv = 0;
    *out = INFEASIBLE;
    b->st.evaluated++;
    for (size_t g = 0; g < b->G; g++) {
        int32_t s = b->gstart[g], e = b->gstart[g + 1];
        if (s == e)
            continue;
        if (state[g] == PLUS) {
            if (nf == n)
                return ENG_OK; /* more groups forced than resources wanted */
            b->win[nf++] = b->gmem[s];
            fcost += pr->cost[b->gmem[s]];
            vals[nv++] = pr->group_p[g];
            for (int32_t k = s + 1; k < e; k++) {
                b->sp[ms] = 1.0;
                b->sc[ms] = pr->cost[b->gmem[k]];
                b->smap[ms++] = b->gmem[k];
            }
        } else if (state[g] == OPEN) {
            for (int32_t k = s; k < e; k++) {
                b->sp[ms] = b->root_p[g];
                b->sc[ms] = pr->cost[b->gmem[k]];
                b->smap[ms++] = b->gmem[k];
            }
        }
    }
    if (pr->budget != POL_WIN_NO_BUDGET && fcost > pr->budget)
        return ENG_OK;
    int32_t rest = n - nf;
    if (rest > 0) {
        if (ms < (size_t)rest)
            return ENG_OK;
        pol_win_problem sub = {
            .m = ms,
            .p = b->sp,
            .cost = b->sc,
            .n = rest,
            .budget = pr->budget == POL_WIN_NO_BUDGET ? POL_WIN_NO_BUDGET : pr->budget - fcost,
        };
        pol_win_result r = {.sel = b->ssel};
        int rc = algo == POL_WG_KNAPSACK
                     ? pol_win_knapsack(&sub, POL_WIN_KS_ALL, b->ws, &r, NULL)
                     : pol_win_greedy_flags(&sub, POL_WIN_GREEDYJNT, b->greedy_flags, b->ws, &r);
        if (rc)
            return rc;
        if (r.n_sel == 0)
            return ENG_OK;
        for (int32_t k = 0; k < rest; k++) {
            b->win[nf + k] = b->smap[b->ssel[k]];
            vals[nv++] = b->sp[b->ssel[k]];
        }
    }
    /* relaxed value: factors in decreasing order */
    for (size_t i = 1; i < nv; i++) {
        double x = vals[i];
        size_t j = i;
        while (j > 0 && vals[j - 1] < x) {
            vals[j] = vals[j - 1];
            j--;
        }
        vals[j] = x;
    }
    double v = 1.0;
    for (size_t i = 0; i < nv; i++)
        v *= vals[i];
    *v2 = v;
    *v3 = pol_wg_prob(pr, b->win, (size_t)n, b->scratch);
    /* open groups touched, and how many of their members were chosen */
    int32_t best_g = -1;
    double best_slack = 0;
    bool all_complete = true, any_open = false;
    for (int32_t k = 0; k < n; k++) {
        int32_t g = pr->group[b->win[k]];
        if (state[g] == OPEN)
            b->cnt[g]++;
    }
    for (int32_t k = 0; k < n; k++) {
        int32_t g = pr->group[b->win[k]];
        if (state[g] != OPEN || b->cnt[g] == 0)
            continue;
        any_open = true;
        if (b->cnt[g] < b->gstart[g + 1] - b->gstart[g])
            all_complete = false;
        /* how much the relaxation overrates this group: P^(j/k) / P */
        int32_t kg = b->gstart[g + 1] - b->gstart[g];
        double slack = (double)(kg - b->cnt[g]) / kg * -log(pr->group_p[g]);
        if (best_g < 0 || slack > best_slack || (slack == best_slack && g < best_g))
            best_g = g, best_slack = slack;
    }
    for (int32_t k = 0; k < n; k++)
        b->cnt[pr->group[b->win[k]]] = 0;
    *valid = !any_open || (!b->literal && all_complete);
    *split = best_g;
    *out = SOLVED;
    return ENG_OK;
}

/* One branch and bound from the root states `root`; the optimum found is
 * left in best_sel / *best_v (*found false when nothing fits) and the
 * final candidate's index in *final. */
static int search(bb *b, const unsigned char *root, pol_wg_algo algo, int32_t *best_sel,
                  double *best_v, bool *found, size_t *final)
{
    size_t G = b->G, n = (size_t)b->pr->n;
    int rc;
    b->n_heap = 0;
    /* the paper's root key is -infinity (it is alone in H); a root searched
     * below a known incumbent (Greedy+) must still be explored first */
    if ((rc = push_node(b, root, b->have_incumbent ? INFINITY : -INFINITY, false, NULL)))
        return rc;
    if (b->have_incumbent && !b->literal && (rc = push_node(b, root, b->incumbent, true, best_sel)))
        return rc;
    *found = false;
    while (b->n_heap) {
        size_t id = heap_pop(b);
        if (b->nodes[id].valid) {
            memcpy(best_sel, b->sels + b->nodes[id].sel_off, n * sizeof *best_sel);
            *best_v = b->nodes[id].key;
            *found = true;
            *final = id;
            return ENG_OK;
        }
        memcpy(b->tmp_state, b->states + b->nodes[id].st_off, G);
        eval_rc er;
        double v2, v3;
        bool valid;
        int32_t g;
        if ((rc = evaluate(b, b->tmp_state, algo, &er, &v2, &v3, &valid, &g)))
            return rc;
        if (er == INFEASIBLE)
            continue;
        if (b->literal) {
            if (valid) {
                if ((rc = push_node(b, b->tmp_state, v3, true, b->win)))
                    return rc;
                continue;
            }
        } else {
            if (!b->have_incumbent || v3 > b->incumbent) {
                b->incumbent = v3;
                b->have_incumbent = true;
                if ((rc = push_node(b, b->tmp_state, v3, true, b->win)))
                    return rc;
            }
            if (valid)
                continue;
        }
        /* no window is worth more than 1: capping keeps them bounds, and
         * lets an incumbent of 1 close the search (every group certain) */
        double key = fmin(v2 * (1 + KEY_MARGIN), 1.0);
        if (!b->literal && key <= b->incumbent)
            continue;
        b->tmp_state[g] = PLUS;
        if ((rc = push_node(b, b->tmp_state, key, false, NULL)))
            return rc;
        b->tmp_state[g] = MINUS;
        if ((rc = push_node(b, b->tmp_state, key, false, NULL)))
            return rc;
    }
    return ENG_OK;
}

static int cmp_member(const void *a, const void *b, const int64_t *cost)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    if (cost[x] != cost[y])
        return cost[x] < cost[y] ? -1 : 1;
    return (x > y) - (x < y);
}

int pol_win_group(const pol_wg_problem *pr, pol_wg_algo algo, unsigned flags, pol_win_ws *ws,
                  pol_win_result *res, pol_wg_stats *st)
{
    res->n_sel = 0;
    res->feasible = false;
    res->p = 0;
    res->cost = 0;
    if (st)
        memset(st, 0, sizeof *st);
    size_t m = pr->m, G = pr->n_groups, n = (size_t)(pr->n > 0 ? pr->n : 0);
    for (size_t j = 0; j < m; j++)
        if (pr->group[j] < 0 || (size_t)pr->group[j] >= G)
            return ENG_INVAL;
    if (pr->n < 1 || n > m || pr->budget < 0)
        return ENG_OK;
    bb b = {.pr = pr,
            .ws = ws,
            .literal = flags & POL_WG_LITERAL,
            .greedy_flags = (flags & POL_WG_MINC_PLAIN) ? POL_WIN_MINC_PLAIN : 0u,
            .G = G};
    int rc = ENG_NOMEM;
    b.gstart = calloc(G + 1, sizeof *b.gstart);
    b.gmem = malloc(m * sizeof *b.gmem);
    b.root_p = malloc(G * sizeof *b.root_p);
    b.sp = malloc(m * sizeof *b.sp);
    b.scratch = malloc((m + n) * sizeof *b.scratch);
    b.sc = malloc(m * sizeof *b.sc);
    b.smap = malloc(m * sizeof *b.smap);
    b.ssel = malloc(n * sizeof *b.ssel);
    b.win = malloc(n * sizeof *b.win);
    b.cnt = calloc(G, sizeof *b.cnt);
    b.tmp_state = calloc(G ? G : 1, 1);
    unsigned char *root = calloc(G ? G : 1, 1);
    int32_t *best = malloc(n * sizeof *best), *gbest = malloc(n * sizeof *gbest);
    if (!b.gstart || !b.gmem || !b.root_p || !b.sp || !b.scratch || !b.sc || !b.smap || !b.ssel ||
        !b.win || !b.cnt || !b.tmp_state || !root || !best || !gbest)
        goto out;
    /* members by group, each sorted by (cost, index): counting sort on the
     * group, then an insertion sort inside each (groups are small) */
    for (size_t j = 0; j < m; j++)
        b.gstart[pr->group[j] + 1]++;
    for (size_t g = 0; g < G; g++)
        b.gstart[g + 1] += b.gstart[g];
    {
        int32_t *fill = b.cnt; /* borrowed, zeroed again below */
        for (size_t j = 0; j < m; j++) {
            int32_t g = pr->group[j];
            b.gmem[b.gstart[g] + fill[g]++] = (int32_t)j;
        }
        memset(fill, 0, G * sizeof *fill);
    }
    for (size_t g = 0; g < G; g++) {
        int32_t s = b.gstart[g], e = b.gstart[g + 1];
        for (int32_t i = s + 1; i < e; i++) {
            int32_t x = b.gmem[i], k = i;
            while (k > s && cmp_member(&x, &b.gmem[k - 1], pr->cost) < 0) {
                b.gmem[k] = b.gmem[k - 1];
                k--;
            }
            b.gmem[k] = x;
        }
        int32_t k = e - s;
        b.root_p[g] = k > 0 ? pow(pr->group_p[g], 1.0 / k) : 0.0;
    }
    double v = 0;
    bool found = false;
    size_t final = 0;
    if (algo == POL_WG_KNAPSACK || algo == POL_WG_GREEDY) {
        if ((rc = search(&b, root, algo, best, &v, &found, &final)))
            goto out;
    } else {
        /* Greedy+: Greedy, then the exact search in its final subtree,
         * starting from Greedy's answer as the incumbent */
        double gv;
        bool gfound;
        if ((rc = search(&b, root, POL_WG_GREEDY, gbest, &gv, &gfound, &final)))
            goto out;
        if (gfound) {
            memcpy(root, b.states + b.nodes[final].st_off, G);
            memcpy(best, gbest, n * sizeof *best);
            b.incumbent = gv;
            b.have_incumbent = true;
            if ((rc = search(&b, root, POL_WG_KNAPSACK, best, &v, &found, &final)))
                goto out;
            if (!found || v < gv) {
                memcpy(best, gbest, n * sizeof *best);
                found = true;
            }
        }
    }
    if (found) {
        memcpy(res->sel, best, n * sizeof *best);
        res->n_sel = pr->n;
        pol_wg_finish(pr, res, b.scratch);
    }
    rc = ENG_OK;
out:
    if (st)
        *st = b.st;
    free(b.gstart);
    free(b.gmem);
    free(b.root_p);
    free(b.sp);
    free(b.scratch);
    free(b.sc);
    free(b.smap);
    free(b.ssel);
    free(b.win);
    free(b.cnt);
    free(b.tmp_state);
    free(b.nodes);
    free(b.states);
    free(b.sels);
    free(b.heap);
    free(root);
    free(best);
    free(gbest);
    return rc;
}

int pol_win_group_single(const pol_wg_problem *pr, pol_win_ws *ws, pol_win_result *res)
{
    for (size_t j = 0; j < pr->m; j++)
        if (pr->group[j] < 0 || (size_t)pr->group[j] >= pr->n_groups)
            return ENG_INVAL;
    double *p = malloc((pr->m ? pr->m : 1) * sizeof *p);
    double *scratch = malloc((pr->n > 0 ? (size_t)pr->n : 1) * sizeof *scratch);
    if (!p || !scratch) {
        free(p);
        free(scratch);
        return ENG_NOMEM;
    }
    for (size_t j = 0; j < pr->m; j++)
        p[j] = pr->group_p[pr->group[j]];
    pol_win_problem pp = {.m = pr->m, .p = p, .cost = pr->cost, .n = pr->n, .budget = pr->budget};
    int rc = pol_win_knapsack(&pp, POL_WIN_KS_ALL, ws, res, NULL);
    if (rc == ENG_OK && res->n_sel)
        pol_wg_finish(pr, res, scratch);
    free(p);
    free(scratch);
    return rc;
}
