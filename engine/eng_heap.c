/* eng_heap.c — see eng_heap.h. */
#include "eng_heap.h"

#include "eng_error.h"
#include "eng_util.h"

#include <stdbool.h>
#include <stdlib.h>

/* (a.t, a.id) < (b.t, b.id) */
static bool less(eng_heap_ev a, eng_heap_ev b)
{
    return a.t < b.t || (a.t == b.t && a.id < b.id);
}

int eng_heap_push(eng_heap *h, eng_heap_ev e)
{
    if (eng_grow(&h->v, &h->cap, h->n + 1, sizeof *h->v))
        return ENG_NOMEM;
    size_t i = h->n++;
    while (i > 0 && less(e, h->v[(i - 1) / 2])) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = e;
    return ENG_OK;
}

eng_heap_ev eng_heap_pop(eng_heap *h)
{
    eng_heap_ev top = h->v[0], last = h->v[--h->n];
    size_t i = 0, n = h->n;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        eng_heap_ev best = last;
        if (l < n && less(h->v[l], best)) {
            m = l;
            best = h->v[l];
        }
        if (r < n && less(h->v[r], best))
            m = r;
        if (m == i)
            break;
        h->v[i] = h->v[m];
        i = m;
    }
    if (n)
        h->v[i] = last;
    return top;
}

void eng_heap_fini(eng_heap *h)
{
    free(h->v);
    h->v = NULL;
    h->n = h->cap = 0;
}
