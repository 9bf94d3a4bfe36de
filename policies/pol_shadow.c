/* pol_shadow.c — see pol_shadow.h. */
#include "pol_shadow.h"

#include "eng_error.h"
#include "eng_util.h"

#include <math.h>
#include <stdlib.h>

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
        double ts = s < n_started ? v->now_s + started[s]->estimate_s : INFINITY;
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
                   size_t *head, int32_t *free_units, double *shadow, int32_t *extra,
                   bool promise)
{
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
        pol_out_promise(out, v->queue[i], *shadow);
    return ENG_OK;
}
