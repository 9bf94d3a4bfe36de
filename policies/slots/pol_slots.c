/* pol_slots.c — the ordered slot list and slot subtraction (see
 * pol_slots.h): a pool of nodes and the array of their handles in order.
 * Invariants: order[0 .. n) holds every slot once, in strictly increasing
 * (start_s, seq) order (a slot's start never changes in place, and every
 * seq is distinct); the node of a slot in the list has next 0.
 */
#include "pol_slots.h"

#include "eng_error.h"

#include <stdlib.h>
#include <string.h>

/* Does handle a come before the key (start, seq)? */
static bool before(const pol_slot_list *l, int32_t a, double start, uint64_t seq)
{
    const pol_slot_node *x = &l->node[a];
    return x->slot.start_s < start || (x->slot.start_s == start && x->seq < seq);
}

static int grow(pol_slot_list *l, size_t need)
{
    if (need > l->cap) {
        size_t cap = l->cap ? l->cap : 64;
        while (cap < need)
            cap *= 2;
        pol_slot_node *node = realloc(l->node, cap * sizeof *node);
        if (!node)
            return ENG_NOMEM;
        l->node = node;
        l->cap = cap;
    }
    /* the order array holds at most one handle per node but the head */
    if (need > l->cap_order) {
        size_t cap = l->cap;
        int32_t *order = realloc(l->order, cap * sizeof *order);
        if (!order)
            return ENG_NOMEM;
        l->order = order;
        int32_t *tmp = realloc(l->tmp, cap * sizeof *tmp);
        if (!tmp)
            return ENG_NOMEM;
        l->tmp = tmp;
        l->cap_order = cap;
    }
    return ENG_OK;
}

int pol_slots_init(pol_slot_list *l, unsigned long seed)
{
    (void)seed;
    memset(l, 0, sizeof *l);
    if (grow(l, 64)) {
        pol_slots_fini(l);
        return ENG_NOMEM;
    }
    pol_slots_clear(l);
    return ENG_OK;
}

void pol_slots_fini(pol_slot_list *l)
{
    free(l->node);
    free(l->order);
    free(l->tmp);
    memset(l, 0, sizeof *l);
}

void pol_slots_clear(pol_slot_list *l)
{
    l->used = 1;
    l->n = 0;
    l->free_head = 0;
    l->n_free = 0;
    l->next_seq = 0;
}

int pol_slots_copy(pol_slot_list *dst, const pol_slot_list *src)
{
    if (grow(dst, src->used))
        return ENG_NOMEM;
    memcpy(dst->node, src->node, src->used * sizeof *dst->node);
    memcpy(dst->order, src->order, src->n * sizeof *dst->order);
    dst->used = src->used;
    dst->n = src->n;
    dst->free_head = src->free_head;
    dst->n_free = src->n_free;
    dst->next_seq = src->next_seq;
    return ENG_OK;
}

/* The place of the key (start, seq) in order: the number of slots before
 * it. O(1) after the last slot, else a binary search. */
static size_t place_of(const pol_slot_list *l, double start, uint64_t seq)
{
    size_t lo = 0, hi = l->n;
    if (hi == 0 || before(l, l->order[hi - 1], start, seq))
        return hi;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (before(l, l->order[mid], start, seq))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Puts the slot of handle h (slot and seq set) at its place. */
static void link_at(pol_slot_list *l, int32_t h)
{
    const pol_slot_node *x = &l->node[h];
    size_t i = place_of(l, x->slot.start_s, x->seq);
    memmove(l->order + i + 1, l->order + i, (l->n - i) * sizeof *l->order);
    l->order[i] = h;
    l->n++;
    l->node[h].next = 0;
}

/* A handle for a new slot: a recycled one, else the next unused one (the
 * caller has made room for it). */
static int32_t take_handle(pol_slot_list *l)
{
    if (!l->free_head)
        return (int32_t)l->used++;
    int32_t h = l->free_head;
    l->free_head = l->node[h].next;
    l->n_free--;
    return h;
}

/* Puts handle h on the free list. */
static void recycle(pol_slot_list *l, int32_t h)
{
    l->node[h].next = l->free_head;
    l->free_head = h;
    l->n_free++;
}

/* Takes h out of the order and the links and recycles its handle. */
static void unlink_slot(pol_slot_list *l, int32_t h)
{
    size_t i = place_of(l, l->node[h].slot.start_s, l->node[h].seq);
    memmove(l->order + i, l->order + i + 1, (l->n - i - 1) * sizeof *l->order);
    l->n--;
    recycle(l, h);
}

int32_t pol_slots_next(const pol_slot_list *l, int32_t h)
{
    size_t i = place_of(l, l->node[h].slot.start_s, l->node[h].seq);
    return i + 1 < l->n ? l->order[i + 1] : 0;
}

int pol_slots_insert(pol_slot_list *l, const pol_slot *s, int32_t *handle)
{
    if (handle)
        *handle = 0;
    if (!(s->end_s > s->start_s))
        return ENG_OK;
    if (!l->free_head && (l->used >= (size_t)INT32_MAX || grow(l, l->used + 1)))
        return ENG_NOMEM;
    int32_t h = take_handle(l);
    l->node[h].slot = *s;
    l->node[h].seq = l->next_seq++;
    link_at(l, h);
    if (handle)
        *handle = h;
    return ENG_OK;
}

void pol_slots_remove(pol_slot_list *l, int32_t h)
{
    unlink_slot(l, h);
}

int pol_slots_cut(pol_slot_list *l, int32_t h, double from, double to, int32_t *k2)
{
    if (k2)
        *k2 = 0;
    pol_slot s = l->node[h].slot;
    if (!(from < to) || !(from < s.end_s) || !(to > s.start_s))
        return ENG_OK;
    pol_slot tail = s;
    tail.start_s = to;
    if (from > s.start_s) {
        /* K2 first, so that a failed insertion leaves the list unchanged */
        if (to < s.end_s) {
            int rc = pol_slots_insert(l, &tail, k2);
            if (rc)
                return rc;
        }
        l->node[h].slot.end_s = from; /* K1: same start, same place */
        return ENG_OK;
    }
    if (!(to < s.end_s)) {
        unlink_slot(l, h);
        return ENG_OK;
    }
    /* K1 empty, K2 not: K leaves and K2 takes its recycled handle, so no
     * allocation can fail after the list changed */
    unlink_slot(l, h);
    return pol_slots_insert(l, &tail, k2);
}

/* A mark on the node of a slot that pol_slots_cut_all removes. */
#define DEAD (-1)

/* Sorts the handles a[0..n) by (start_s, seq); they come in seq order, so
 * a run of equal starts is already sorted: insertion sort. */
static void sort_by_key(const pol_slot_list *l, int32_t *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        int32_t x = a[i];
        size_t j = i;
        while (j > 0 && !before(l, a[j - 1], l->node[x].slot.start_s, l->node[x].seq)) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = x;
    }
}

int pol_slots_cut_all(pol_slot_list *l, double from, const pol_slot_cut *cuts, size_t n)
{
    /* room for n new handles first, so that nothing fails once the list
     * changes; removed handles are recycled only at the end */
    size_t fresh = l->n_free < n ? l->n_free : n;
    if (l->used + (n - fresh) >= (size_t)INT32_MAX || grow(l, l->used + (n - fresh)))
        return ENG_NOMEM;
    int32_t *add = l->tmp; /* the K2 pieces, in seq order */
    size_t n_add = 0, n_dead = 0;
    double dead_max = from;
    for (size_t k = 0; k < n; k++) {
        int32_t h = cuts[k].handle;
        double to = cuts[k].to;
        pol_slot s = l->node[h].slot;
        if (!(from < to) || !(from < s.end_s) || !(to > s.start_s))
            continue;
        if (to < s.end_s) {
            int32_t k2 = take_handle(l);
            l->node[k2].next = 0;
            l->node[k2].slot = s;
            l->node[k2].slot.start_s = to;
            l->node[k2].seq = l->next_seq++;
            add[n_add++] = k2;
        }
        if (from > s.start_s) {
            l->node[h].slot.end_s = from; /* K1: same start, same place */
        } else {
            l->node[h].next = DEAD;
            n_dead++;
            dead_max = s.start_s > dead_max ? s.start_s : dead_max;
        }
    }
    if (n_add == 0 && n_dead == 0)
        return ENG_OK;
    sort_by_key(l, add, n_add);
    /* Removed slots start in [from, dead_max] (K1 was empty): only that
     * stretch of the order is read for marks; what follows it moves down
     * as one block. */
    if (n_dead > 0) {
        size_t i = place_of(l, from, 0), end = place_of(l, dead_max, UINT64_MAX), w = i;
        for (; i < end; i++) {
            int32_t x = l->order[i];
            if (l->node[x].next == DEAD) {
                recycle(l, x);
            } else {
                l->order[w++] = x;
            }
        }
        memmove(l->order + w, l->order + end, (l->n - end) * sizeof *l->order);
        l->n -= end - w;
    }
    /* The K2 pieces from the last: each goes after the slots before its
     * key, found by binary search unless it goes after all that are left
     * (as the pieces of a rigid window do, once the last is placed). */
    size_t top = l->n; /* order[0 .. top) not yet moved */
    for (size_t b = n_add; b-- > 0;) {
        const pol_slot_node *x = &l->node[add[b]];
        size_t p = top;
        if (top > 0 && !before(l, l->order[top - 1], x->slot.start_s, x->seq)) {
            size_t lo = 0, hi = top;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (before(l, l->order[mid], x->slot.start_s, x->seq))
                    lo = mid + 1;
                else
                    hi = mid;
            }
            p = lo;
        }
        memmove(l->order + p + b + 1, l->order + p, (top - p) * sizeof *l->order);
        l->order[p + b] = add[b];
        top = p;
    }
    l->n += n_add;
    return ENG_OK;
}

bool pol_slots_valid(const pol_slot_list *l)
{
    int32_t prev = 0;
    for (size_t i = 0; i < l->n; i++) {
        int32_t x = l->order[i];
        if (x <= 0 || (size_t)x >= l->used || l->node[x].next != 0)
            return false;
        if (prev && !before(l, prev, l->node[x].slot.start_s, l->node[x].seq))
            return false;
        if (!(l->node[x].slot.end_s > l->node[x].slot.start_s))
            return false;
        prev = x;
    }
    size_t n_free = 0;
    for (int32_t f = l->free_head; f && n_free <= l->used; f = l->node[f].next)
        n_free++;
    return n_free == l->n_free && l->n + l->n_free + 1 == l->used;
}
