/* eng_heap.h — a binary min-heap of (time, id) events, ties broken by id,
 * so that events of one instant come out in a deterministic order. Used for
 * job ends in the core and for due reservations in conservative
 * backfilling. Push and pop are O(log n). */
#ifndef ENG_HEAP_H
#define ENG_HEAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct eng_heap_ev {
    double t;
    int32_t id;
} eng_heap_ev;

typedef struct eng_heap {
    eng_heap_ev *v;
    size_t n, cap;
} eng_heap;

/* Adds e. ENG_OK or ENG_NOMEM (heap unchanged). */
int eng_heap_push(eng_heap *h, eng_heap_ev e);

/* Removes and returns the smallest event; the heap must not be empty. */
eng_heap_ev eng_heap_pop(eng_heap *h);

void eng_heap_fini(eng_heap *h);

#endif
