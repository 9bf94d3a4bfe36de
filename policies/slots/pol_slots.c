/* pol_slots.c — the ordered slot list and slot subtraction (see
 * pol_slots.h): a pool of nodes and the array of their handles in order.
 * Invariants: order[0 .. n) holds every slot once, in strictly increasing
 * (start_s, seq) order (a slot's start never changes in place, and every
 * seq is distinct); node[0].next is order[0] and node[order[i]].next is
 * order[i + 1] (0 after the last).
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
        int32_t *tmp = realloc(l->tmp, 2 * cap * sizeof *tmp);
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
    l->node[0].next = 0;
    l->used = 1;
    l->n = 0;
    l->free_head = 0;
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

/* The handle before place i (0, the head, for the first). */
static int32_t pred_of(const pol_slot_list *l, size_t i)
{
    return i > 0 ? l->order[i - 1] : 0;
}

/* Puts the slot of handle h (slot and seq set) at its place. */
static void link_at(pol_slot_list *l, int32_t h)
{
    const pol_slot_node *x = &l->node[h];
    size_t i = place_of(l, x->slot.start_s, x->seq);
    memmove(l->order + i + 1, l->order + i, (l->n - i) * sizeof *l->order);
    l->order[i] = h;
    l->n++;
    int32_t p = pred_of(l, i);
    l->node[h].next = l->node[p].next;
    l->node[p].next = h;
}

/* Takes h out of the order and the links and recycles its handle. */
static void unlink_slot(pol_slot_list *l, int32_t h)
{
    size_t i = place_of(l, l->node[h].slot.start_s, l->node[h].seq);
    int32_t p = pred_of(l, i);
    l->node[p].next = l->node[h].next;
    memmove(l->order + i, l->order + i + 1, (l->n - i - 1) * sizeof *l->order);
    l->n--;
    l->node[h].next = l->free_head;
    l->free_head = h;
}

int pol_slots_insert(pol_slot_list *l, const pol_slot *s, int32_t *handle)
{
    if (handle)
        *handle = 0;
    if (!(s->end_s > s->start_s))
        return ENG_OK;
    int32_t h;
    if (l->free_head) {
        h = l->free_head;
        l->free_head = l->node[h].next;
    } else {
        if (l->used >= (size_t)INT32_MAX || grow(l, l->used + 1))
            return ENG_NOMEM;
        h = (int32_t)l->used++;
    }
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
    size_t fresh = 0;
    for (int32_t f = l->free_head; f && fresh < n; f = l->node[f].next)
        fresh++;
    if (l->used + (n - fresh) >= (size_t)INT32_MAX || grow(l, l->used + (n - fresh)))
        return ENG_NOMEM;
    int32_t *add = l->tmp + l->cap_order; /* the K2 pieces, in seq order */
    size_t n_add = 0, n_dead = 0;
    for (size_t k = 0; k < n; k++) {
        int32_t h = cuts[k].handle;
        double to = cuts[k].to;
        pol_slot s = l->node[h].slot;
        if (!(from < to) || !(from < s.end_s) || !(to > s.start_s))
            continue;
        if (to < s.end_s) {
            int32_t k2;
            if (l->free_head) {
                k2 = l->free_head;
                l->free_head = l->node[k2].next;
            } else {
                k2 = (int32_t)l->used++;
            }
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
        }
    }
    if (n_add == 0 && n_dead == 0)
        return ENG_OK;
    sort_by_key(l, add, n_add);
    /* removed slots start at or after from (K1 was empty), K2 pieces after
     * it: the slots before lo stay where they are */
    size_t lo = place_of(l, from, 0), n_keep = 0;
    int32_t *keep = l->tmp;
    for (size_t i = lo; i < l->n; i++) {
        int32_t x = l->order[i];
        if (l->node[x].next == DEAD) {
            l->node[x].next = l->free_head;
            l->free_head = x;
        } else {
            keep[n_keep++] = x;
        }
    }
    size_t a = 0, b = 0, i = lo;
    while (a < n_keep || b < n_add) {
        bool take_keep = b == n_add ||
                         (a < n_keep &&
                          before(l, keep[a], l->node[add[b]].slot.start_s, l->node[add[b]].seq));
        l->order[i++] = take_keep ? keep[a++] : add[b++];
    }
    l->n = i;
    int32_t prev = pred_of(l, lo);
    for (size_t j = lo; j < l->n; j++) {
        l->node[prev].next = l->order[j];
        prev = l->order[j];
    }
    l->node[prev].next = 0;
    return ENG_OK;
}

bool pol_slots_valid(const pol_slot_list *l)
{
    int32_t prev = 0;
    for (size_t i = 0; i < l->n; i++) {
        int32_t x = l->order[i];
        if (x <= 0 || (size_t)x >= l->used || l->node[prev].next != x)
            return false;
        if (prev && !before(l, prev, l->node[x].slot.start_s, l->node[x].seq))
            return false;
        if (!(l->node[x].slot.end_s > l->node[x].slot.start_s))
            return false;
        prev = x;
    }
    return l->node[prev].next == 0;
}
