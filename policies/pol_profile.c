/* pol_profile.c — see pol_profile.h. */
#include "pol_profile.h"

#include "eng_error.h"
#include "eng_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int pol_profile_init(pol_profile *p, int32_t total, double origin)
{
    memset(p, 0, sizeof *p);
    p->cap = 16;
    p->t = malloc(p->cap * sizeof *p->t);
    p->free = malloc(p->cap * sizeof *p->free);
    if (!p->t || !p->free) {
        pol_profile_fini(p);
        return ENG_NOMEM;
    }
    p->t[0] = origin;
    p->free[0] = total;
    p->n = 1;
    p->total = total;
    return ENG_OK;
}

void pol_profile_fini(pol_profile *p)
{
    free(p->t);
    free(p->free);
    free(p->tmp_t);
    free(p->tmp_free);
    memset(p, 0, sizeof *p);
}

/* Index of the segment holding x: the last i with t[i] <= x (0 if none).
 * Branch-free (the answer lies in [base, base + len) throughout): the
 * searches of a compression land at unpredictable places, where a
 * branching search pays a misprediction at every other step. */
static size_t seg(const pol_profile *p, double x)
{
    const double *base = p->t;
    size_t len = p->n;
    while (len > 1) {
        size_t half = len / 2;
        base = base[half] <= x ? base + half : base;
        len -= half;
    }
    return (size_t)(base - p->t);
}

/* seg(p, x) found from a guess: a galloping search outward from segment
 * hint, then a binary search in the last step's range. O(log d), d the
 * segments between hint and the answer. */
static size_t seg_near(const pol_profile *p, double x, size_t hint)
{
    const double *t = p->t;
    size_t n = p->n, lo, hi, step = 1;
    if (hint >= n)
        hint = n - 1;
    if (t[hint] <= x) { /* the answer is in [hint, n): t[lo] <= x < t[hi] */
        lo = hint;
        while (lo + step < n && t[lo + step] <= x) {
            lo += step;
            step *= 2;
        }
        hi = lo + step < n ? lo + step : n;
    } else { /* the answer is below hint (0 if every t[i] > x) */
        hi = hint;
        while (hi >= step && t[hi - step] > x) {
            hi -= step;
            step *= 2;
        }
        lo = hi >= step ? hi - step : 0;
    }
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (t[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

void pol_profile_advance(pol_profile *p, double now)
{
    if (now <= p->t[0])
        return;
    size_t i = seg(p, now);
    if (i > 0) {
        memmove(p->t, p->t + i, (p->n - i) * sizeof *p->t);
        memmove(p->free, p->free + i, (p->n - i) * sizeof *p->free);
        p->n -= i;
    }
    p->t[0] = now;
}

int32_t pol_profile_free_at(const pol_profile *p, double x)
{
    return p->free[seg(p, x)];
}

int32_t pol_profile_free_before(const pol_profile *p, double x)
{
    /* Branch-free search for the number of breakpoints before x. */
    const double *base = p->t;
    size_t len = p->n;
    while (len > 1) {
        size_t half = len / 2;
        base = base[half - 1] < x ? base + half : base;
        len -= half;
    }
    size_t before = (size_t)(base - p->t) + (base[0] < x);
    return p->free[before ? before - 1 : 0];
}

int32_t pol_profile_free_before_near(const pol_profile *p, double x, size_t *hint)
{
    size_t i = seg_near(p, x, *hint);
    *hint = i;
    return p->free[i > 0 && p->t[i] == x ? i - 1 : i];
}

/* Makes x a breakpoint (x >= t[0]); returns its index, or -1 on OOM. */
static ptrdiff_t split(pol_profile *p, double x)
{
    size_t i = seg(p, x);
    if (p->t[i] == x)
        return (ptrdiff_t)i;
    if (p->n == p->cap) {
        size_t cap_t = p->cap, cap_f = p->cap;
        if (eng_grow(&p->t, &cap_t, p->n + 1, sizeof *p->t) ||
            eng_grow(&p->free, &cap_f, p->n + 1, sizeof *p->free))
            return -1;
        p->cap = cap_t < cap_f ? cap_t : cap_f;
    }
    memmove(p->t + i + 2, p->t + i + 1, (p->n - i - 1) * sizeof *p->t);
    memmove(p->free + i + 2, p->free + i + 1, (p->n - i - 1) * sizeof *p->free);
    p->t[i + 1] = x;
    p->free[i + 1] = p->free[i];
    p->n++;
    return (ptrdiff_t)(i + 1);
}

/* Removes breakpoint i if its value equals its predecessor's. */
static void merge_at(pol_profile *p, size_t i)
{
    if (i == 0 || i >= p->n || p->free[i] != p->free[i - 1])
        return;
    memmove(p->t + i, p->t + i + 1, (p->n - i - 1) * sizeof *p->t);
    memmove(p->free + i, p->free + i + 1, (p->n - i - 1) * sizeof *p->free);
    p->n--;
}

int pol_profile_add(pol_profile *p, double start, double end, int32_t delta)
{
    if (start < p->t[0])
        start = p->t[0];
    if (!(end > start) || delta == 0)
        return ENG_OK;
    /* Check first so that a refused change leaves the profile as it was. */
    for (size_t k = seg(p, start); k < p->n && p->t[k] < end; k++) {
        int64_t v = (int64_t)p->free[k] + delta;
        if (v < 0 || v > p->total)
            return ENG_INVARIANT;
    }
    ptrdiff_t a = split(p, start);
    if (a < 0)
        return ENG_NOMEM;
    ptrdiff_t b = isfinite(end) ? split(p, end) : (ptrdiff_t)p->n;
    if (b < 0)
        return ENG_NOMEM;
    for (ptrdiff_t k = a; k < b; k++)
        p->free[k] += delta;
    merge_at(p, (size_t)b);
    merge_at(p, (size_t)a);
    return ENG_OK;
}

int pol_profile_move(pol_profile *p, double from, double to, double dur, int32_t units)
{
    double from_end = from + dur, to_end = to + dur;
    p->back_i = SIZE_MAX;
    if (to < p->t[0] || from < p->t[0] || !(dur > 0) || !isfinite(from_end) || !isfinite(to_end)) {
        int rc = pol_profile_add(p, from, from_end, units);
        return rc ? rc : pol_profile_add(p, to, to_end, -units);
    }
    /* The change steps at four ends, in time order: the earlier span's
     * start and end (s0, e0), the later one's (s1, e1), as
     * {s0, min(s1, e0), max(s1, e0), e1}, whether the spans overlap or
     * not. For a move to an earlier time (the new span first) it steps by
     * -units, +units, +units, -units; for a later one the signs turn. */
    bool earlier = to < from;
    double s0 = earlier ? to : from, e0 = earlier ? to_end : from_end;
    double s1 = earlier ? from : to, e1 = earlier ? from_end : to_end;
    double c[4] = {s0, s1 < e0 ? s1 : e0, s1 < e0 ? e0 : s1, e1};
    int32_t sgn = earlier ? units : -units;
    const int32_t dd[4] = {-sgn, sgn, sgn, -sgn};
    /* Consecutive moves of a compression are mostly a few segments apart
     * (bench/HISTORY.md "Replay performance"): the search starts from the
     * last one's first segment. */
    size_t i0 = seg_near(p, c[0], p->edit_i);
    /* room for the new segments: at most the old ones from i0 on and the
     * four ends */
    if (p->n - i0 + 4 > p->tmp_cap) {
        size_t cap_t = p->tmp_cap, cap_f = p->tmp_cap;
        if (eng_grow(&p->tmp_t, &cap_t, p->n - i0 + 4, sizeof *p->tmp_t) ||
            eng_grow(&p->tmp_free, &cap_f, p->n - i0 + 4, sizeof *p->tmp_free))
            return ENG_NOMEM;
        p->tmp_cap = cap_t < cap_f ? cap_t : cap_f;
    }
    /* The new segments from t[i0] on, in one merge of the old breakpoints
     * with the four ends: at each point, its old value plus the change
     * there (constant between consecutive ends). A point whose value
     * continues the one before it is left out. Past c[3] the change is 0
     * and the old breakpoints stay as they are (each differs from the one
     * before it): the pass stops there, at segment a - 1, the one holding
     * c[3]. */
    const double *t = p->t;
    const int32_t *fr = p->free;
    size_t n = p->n, a = i0, m = 0; /* a: the next old breakpoint */
    int32_t last = i0 > 0 ? fr[i0 - 1] : INT32_MIN, change = 0;
    for (int k = 0; k < 4;) {
        double x = c[k];
        for (; a < n && t[a] < x; a++) {
            int32_t v = fr[a] + change;
            if (v < 0 || v > p->total)
                return ENG_INVARIANT;
            if (v != last) {
                p->tmp_t[m] = t[a];
                p->tmp_free[m++] = v;
                last = v;
            }
        }
        /* the old value at x; t[i0] <= c[0] is taken by the loop above
         * or here at the first end, so a - 1 >= i0 */
        int32_t v = a < n && t[a] == x ? fr[a++] : fr[a - 1];
        for (; k < 4 && c[k] == x; k++)
            change += dd[k];
        v += change;
        if (v < 0 || v > p->total)
            return ENG_INVARIANT;
        if (v != last) {
            p->tmp_t[m] = x;
            p->tmp_free[m++] = v;
            last = v;
        }
    }
    size_t i1 = a - 1;
    /* Splice: segments i0..i1 become the m new ones. */
    size_t n_new = p->n - (i1 - i0 + 1) + m;
    if (n_new > p->cap) {
        size_t cap_t = p->cap, cap_f = p->cap;
        if (eng_grow(&p->t, &cap_t, n_new, sizeof *p->t) ||
            eng_grow(&p->free, &cap_f, n_new, sizeof *p->free))
            return ENG_NOMEM;
        p->cap = cap_t < cap_f ? cap_t : cap_f;
    }
    if (i0 + m != i1 + 1) { /* else the segments after stay where they are (half the moves) */
        memmove(p->t + i0 + m, p->t + i1 + 1, (p->n - i1 - 1) * sizeof *p->t);
        memmove(p->free + i0 + m, p->free + i1 + 1, (p->n - i1 - 1) * sizeof *p->free);
    }
    memcpy(p->t + i0, p->tmp_t, m * sizeof *p->t);
    memcpy(p->free + i0, p->tmp_free, m * sizeof *p->free);
    p->n = n_new;
    p->edit_i = i0;
    /* max(from, to_end) lies in [c[0], c[3]]: its segment is mostly among
     * the rewritten ones, a few from their end (not known here if every
     * rewritten segment up to it merged into the one before them) */
    double back = from > to_end ? from : to_end;
    size_t j = m;
    while (j > 0 && p->tmp_t[j - 1] > back)
        j--;
    if (j > 0)
        p->back_i = i0 + j - 1;
    return ENG_OK;
}

double pol_profile_earliest(const pol_profile *p, double from, double dur, int32_t units)
{
    if (units > p->total)
        return INFINITY;
    if (from < p->t[0])
        from = p->t[0];
    size_t i = seg(p, from);
    double start = from;
    for (;;) {
        size_t k = i;
        while (k < p->n && p->t[k] < start + dur && p->free[k] >= units)
            k++;
        if (k == p->n || p->t[k] >= start + dur)
            return start;
        /* Segment k blocks: no window can contain it; restart after it. */
        if (k + 1 >= p->n)
            return INFINITY; /* the last segment is short forever */
        i = k + 1;
        start = p->t[i];
    }
}

/* pol_profile_free_since with i = seg(p, before), before > t[0]. */
static double free_since_from(const pol_profile *p, double before, int32_t units, size_t i)
{
    if (p->t[i] == before)
        i--; /* the segment ending at before */
    for (;; i--) {
        if (p->free[i] < units)
            return i + 1 < p->n && p->t[i + 1] < before ? p->t[i + 1] : before;
        if (i == 0)
            return p->t[0];
    }
}

double pol_profile_free_since(const pol_profile *p, double before, int32_t units)
{
    if (before <= p->t[0])
        return before;
    return free_since_from(p, before, units, seg(p, before));
}

double pol_profile_free_since_near(const pol_profile *p, double before, int32_t units, size_t hint)
{
    if (before <= p->t[0])
        return before;
    return free_since_from(p, before, units, seg_near(p, before, hint));
}

void pol_profile_minmax_over(const pol_profile *p, double a, double b, int32_t *least,
                             int32_t *most)
{
    int32_t lo = INT32_MAX, hi = 0;
    for (size_t k = seg(p, a); k < p->n && p->t[k] < b; k++) {
        if (p->free[k] < lo)
            lo = p->free[k];
        if (p->free[k] > hi)
            hi = p->free[k];
    }
    *least = lo == INT32_MAX ? 0 : lo;
    *most = hi;
}

void pol_profile_run(const pol_profile *p, size_t i, int32_t units, size_t steps, double *from,
                     double *to)
{
    size_t k = i;
    while (k > 0 && p->free[k - 1] >= units && i - k < steps)
        k--;
    *from = k > 0 && p->free[k - 1] >= units ? -INFINITY : p->t[k];
    k = i + 1;
    while (k < p->n && p->free[k] >= units && k - i <= steps)
        k++;
    *to = k < p->n && p->free[k] < units ? p->t[k] : INFINITY;
}

pol_profile_cursor pol_profile_cursor_start(const pol_profile *p)
{
    return (pol_profile_cursor){.i = 0, .start = p->t[0]};
}

pol_profile_cursor pol_profile_cursor_at(const pol_profile *p, double start)
{
    if (start < p->t[0])
        start = p->t[0];
    return (pol_profile_cursor){.i = isfinite(start) ? seg(p, start) : p->n, .start = start};
}

pol_profile_cursor pol_profile_cursor_near(const pol_profile *p, double start, size_t hint)
{
    if (start < p->t[0])
        start = p->t[0];
    return (pol_profile_cursor){.i = isfinite(start) ? seg_near(p, start, hint) : p->n,
                                .start = start};
}

double pol_profile_earliest_resume(const pol_profile *p, pol_profile_cursor *c, double dur,
                                   int32_t units, double until)
{
    if (units > p->total)
        return INFINITY;
    while (c->start < until) {
        size_t k = c->i;
        while (k < p->n && p->t[k] < c->start + dur && p->free[k] >= units)
            k++;
        if (k == p->n || p->t[k] >= c->start + dur)
            return c->start;
        if (k + 1 >= p->n) { /* the last segment is short forever */
            c->start = INFINITY;
            return INFINITY;
        }
        c->i = k + 1;
        c->start = p->t[c->i];
    }
    return INFINITY;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int pol_profile_breaks(const pol_profile *p, int32_t n, double now, double until, double **cand,
                       size_t *cap, size_t *n_cand)
{
    size_t m = 1;
    for (int32_t k = 0; k < n; k++)
        m += p[k].n;
    if (eng_grow(cand, cap, m, sizeof **cand))
        return ENG_NOMEM;
    double *c = *cand;
    m = 0;
    c[m++] = now;
    for (int32_t k = 0; k < n; k++)
        for (size_t i = 0; i < p[k].n; i++)
            if (p[k].t[i] > now && p[k].t[i] < until)
                c[m++] = p[k].t[i];
    qsort(c, m, sizeof *c, cmp_double);
    *n_cand = m;
    return ENG_OK;
}
