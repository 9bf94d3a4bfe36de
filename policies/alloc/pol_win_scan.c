/* pol_win_scan.c — full, bounded and starting-points time scans; see
 * pol_win_scan.h (Toporkov, Yemelyanov & Grigorenko 2021 §3.5). */
#include "alloc/pol_win_scan.h"

#include "eng_error.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Objective values remembered per t, so that no t is evaluated twice. */
typedef struct memo {
    pol_win_scan_fn fn;
    void *ctx;
    int64_t lo, hi;
    double *v;
    unsigned char *seen;
    pol_win_scan_result *res;
} memo;

static void res_init(pol_win_scan_result *res, int64_t lo)
{
    *res = (pol_win_scan_result){.t_best = lo - 1, .best = -INFINITY};
}

static void offer(pol_win_scan_result *res, int64_t t, double v)
{
    if (v > res->best || (v == res->best && t < res->t_best)) {
        res->best = v;
        res->t_best = t;
    }
}

static int eval(memo *m, int64_t t, double *out)
{
    size_t i = (size_t)(t - m->lo);
    if (!m->seen[i]) {
        int rc = m->fn(m->ctx, t, &m->v[i]);
        if (rc)
            return rc;
        m->seen[i] = 1;
        m->res->evals++;
        offer(m->res, t, m->v[i]);
    }
    *out = m->v[i];
    return ENG_OK;
}

int pol_win_scan_full(pol_win_scan_fn fn, void *ctx, int64_t lo, int64_t hi, double *values,
                      pol_win_scan_result *res)
{
    res_init(res, lo);
    for (int64_t t = lo; t <= hi; t++) {
        double v;
        int rc = fn(ctx, t, &v);
        if (rc)
            return rc;
        res->evals++;
        offer(res, t, v);
        if (values)
            values[t - lo] = v;
    }
    return ENG_OK;
}

typedef struct ub_pt {
    double u;
    int64_t t;
} ub_pt;

static int cmp_ub(const void *a, const void *b)
{
    const ub_pt *x = a, *y = b;
    if (x->u != y->u)
        return x->u > y->u ? -1 : 1;
    return (x->t > y->t) - (x->t < y->t);
}

int pol_win_scan_bounded(pol_win_scan_fn fn, pol_win_scan_fn ub, void *ctx, int64_t lo, int64_t hi,
                         pol_win_scan_result *res)
{
    res_init(res, lo);
    if (hi < lo)
        return ENG_OK;
    size_t N = (size_t)(hi - lo + 1);
    ub_pt *pts = malloc(N * sizeof *pts);
    if (!pts)
        return ENG_NOMEM;
    int rc = ENG_OK;
    for (size_t i = 0; i < N; i++) {
        pts[i].t = lo + (int64_t)i;
        if ((rc = ub(ctx, pts[i].t, &pts[i].u)))
            goto out;
        res->ub_evals++;
    }
    qsort(pts, N, sizeof *pts, cmp_ub);
    for (size_t i = 0; i < N; i++) {
        if (res->evals && pts[i].u <= res->best)
            break; /* no later point can do better */
        double v;
        if ((rc = fn(ctx, pts[i].t, &v)))
            goto out;
        res->evals++;
        offer(res, pts[i].t, v);
    }
out:
    free(pts);
    return rc;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* k starting points in [lo, lo + N), sorted and distinct; returns how many. */
static size_t place_starts(int64_t lo, size_t N, size_t k, pol_win_starts mode, gsl_rng *rng,
                           int64_t *out, unsigned char *mark)
{
    size_t n_uni = mode == POL_WIN_STARTS_UNIFORM  ? k
                   : mode == POL_WIN_STARTS_RANDOM ? 0
                                                   : (k + 1) / 2;
    size_t n = 0;
    memset(mark, 0, N);
    for (size_t i = 0; i < n_uni; i++) {
        size_t pos = (size_t)(((double)i + 0.5) * (double)N / (double)n_uni);
        if (pos >= N)
            pos = N - 1;
        if (!mark[pos]) {
            mark[pos] = 1;
            out[n++] = lo + (int64_t)pos;
        }
    }
    size_t n_rand = k - n_uni, free_pts = N - n;
    if (n_rand > free_pts)
        n_rand = free_pts;
    if (n_rand && rng) {
        /* selection sampling over the points not taken yet (Knuth's
         * algorithm S): each remaining point is taken with probability
         * still-needed / still-available */
        size_t need = n_rand, avail = free_pts;
        for (size_t pos = 0; pos < N && need; pos++) {
            if (mark[pos])
                continue;
            if (gsl_rng_uniform(rng) * (double)avail < (double)need) {
                mark[pos] = 1;
                out[n++] = lo + (int64_t)pos;
                need--;
            }
            avail--;
        }
    }
    qsort(out, n, sizeof *out, cmp_i64);
    return n;
}

int pol_win_scan_starts(pol_win_scan_fn fn, void *ctx, int64_t lo, int64_t hi, int32_t k,
                        pol_win_starts mode, int64_t delta, gsl_rng *rng, pol_win_scan_result *res)
{
    res_init(res, lo);
    if (hi < lo || k < 1 || delta < 1)
        return hi < lo ? ENG_OK : ENG_INVAL;
    size_t N = (size_t)(hi - lo + 1), kk = (size_t)k < N ? (size_t)k : N;
    memo m = {.fn = fn, .ctx = ctx, .lo = lo, .hi = hi, .res = res};
    m.v = malloc(N * sizeof *m.v);
    m.seen = calloc(N, 1);
    int64_t *starts = malloc(kk * sizeof *starts);
    unsigned char *mark = malloc(N);
    int rc = ENG_NOMEM;
    if (!m.v || !m.seen || !starts || !mark)
        goto out;
    size_t ns = place_starts(lo, N, kk, mode, rng, starts, mark);
    rc = ENG_OK;
    for (size_t i = 0; i < ns; i++) {
        int64_t s = starts[i];
        int64_t prev_s = i ? starts[i - 1] : lo - 1, next_s = i + 1 < ns ? starts[i + 1] : hi + 1;
        double f0, fl = -INFINITY, fr = -INFINITY;
        if ((rc = eval(&m, s, &f0)) || (s > lo && (rc = eval(&m, s - 1, &fl))) ||
            (s < hi && (rc = eval(&m, s + 1, &fr))))
            goto out;
        int d;
        if (fr > f0 && fr >= fl)
            d = 1;
        else if (fl > f0)
            d = -1;
        else
            continue; /* s is a local maximum */
        int64_t b = s;
        double fb = f0;
        for (int64_t step = 1;; step++) {
            int64_t x = s + d * delta * step;
            if ((d > 0 && x >= next_s) || (d < 0 && x <= prev_s))
                break; /* the neighbouring start's own search goes on from there */
            bool edge = false;
            if (x > hi)
                x = hi, edge = true;
            if (x < lo)
                x = lo, edge = true;
            if (x == b)
                break;
            double fx;
            if ((rc = eval(&m, x, &fx)))
                goto out;
            if (fx < fb)
                break; /* the maximum lies within delta of b */
            b = x;
            fb = fx;
            if (edge)
                break;
        }
        /* refine around b with halving steps */
        for (int64_t h = delta / 2; h >= 1; h /= 2) {
            int64_t best_x = b;
            double best_f = fb;
            for (int sgn = -1; sgn <= 1; sgn += 2) {
                int64_t x = b + sgn * h;
                if (x < lo || x > hi)
                    continue;
                double fx;
                if ((rc = eval(&m, x, &fx)))
                    goto out;
                if (fx > best_f)
                    best_f = fx, best_x = x;
            }
            b = best_x;
            fb = best_f;
        }
    }
out:
    free(m.v);
    free(m.seen);
    free(starts);
    free(mark);
    return rc;
}
