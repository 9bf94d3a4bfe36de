/* pol_slots.c — the ordered slot list and slot subtraction (see
 * pol_slots.h). A skip list (Pugh 1990): level k links every slot of level
 * > k in (start_s, seq) order; handle 0 is the head, whose links start
 * every level. Invariant: following next[h][0] from the head visits every
 * slot once, in non-decreasing (start_s, seq) order (a slot's start
 * never changes in place).
 */
#include "pol_slots.h"

#include "eng_error.h"

#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

#define L POL_SLOTS_MAX_LEVEL

static int32_t *links(const pol_slot_list *l, int32_t h)
{
    return l->node[h].next;
}

/* Does handle a come before the key (start, seq)? */
static bool before(const pol_slot_list *l, int32_t a, double start, uint64_t seq)
{
    const pol_slot_node *x = &l->node[a];
    return x->slot.start_s < start || (x->slot.start_s == start && x->seq < seq);
}

static int grow(pol_slot_list *l, size_t need)
{
    if (need <= l->cap)
        return ENG_OK;
    size_t cap = l->cap ? l->cap : 64;
    while (cap < need)
        cap *= 2;
    pol_slot_node *node = realloc(l->node, cap * sizeof *node);
    if (!node)
        return ENG_NOMEM;
    l->node = node;
    l->cap = cap;
    return ENG_OK;
}

int pol_slots_init(pol_slot_list *l, unsigned long seed)
{
    memset(l, 0, sizeof *l);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r)
        return ENG_NOMEM;
    gsl_rng_set(r, seed);
    l->rng = r;
    if (grow(l, 64)) {
        pol_slots_fini(l);
        return ENG_NOMEM;
    }
    pol_slots_clear(l);
    return ENG_OK;
}

void pol_slots_fini(pol_slot_list *l)
{
    if (l->rng)
        gsl_rng_free(l->rng);
    free(l->node);
    memset(l, 0, sizeof *l);
}

void pol_slots_clear(pol_slot_list *l)
{
    memset(links(l, 0), 0, L * sizeof(int32_t));
    memset(l->tail, 0, sizeof l->tail);
    l->hint = 0;
    l->node[0].level = L;
    l->used = 1;
    l->n = 0;
    l->free_head = 0;
    l->top = 1;
    l->next_seq = 0;
}

int pol_slots_copy(pol_slot_list *dst, const pol_slot_list *src)
{
    if (grow(dst, src->used))
        return ENG_NOMEM;
    memcpy(dst->node, src->node, src->used * sizeof *dst->node);
    dst->used = src->used;
    dst->n = src->n;
    dst->free_head = src->free_head;
    dst->top = src->top;
    memcpy(dst->tail, src->tail, sizeof dst->tail);
    dst->hint = src->hint;
    memcpy(dst->hint_update, src->hint_update, sizeof dst->hint_update);
    dst->next_seq = src->next_seq;
    gsl_rng_memcpy(dst->rng, src->rng);
    return ENG_OK;
}

/* A level in 1..L with P(level > k) = 2^-k. */
static int draw_level(pol_slot_list *l)
{
    unsigned long bits = gsl_rng_get(l->rng); /* 32 random bits */
    int lv = 1;
    while (lv < L && (bits & 1u)) {
        lv++;
        bits >>= 1;
    }
    return lv;
}

/* The last handle before (start, seq) on every level. */
static void find_update(const pol_slot_list *l, double start, uint64_t seq, int32_t *update)
{
    int32_t x = 0;
    for (int k = l->top - 1; k >= 0; k--) {
        int32_t nx;
        while ((nx = links(l, x)[k]) != 0 && before(l, nx, start, seq))
            x = nx;
        update[k] = x;
    }
}

/* As find_update, starting each level from the finger when it is further
 * on: fingers are the predecessors of a key before (start, seq), e.g. of
 * a slot just unlinked, so the search costs O(log distance). */
static void find_update_from(const pol_slot_list *l, double start, uint64_t seq,
                             const int32_t *finger, int32_t *update)
{
    int32_t x = 0;
    for (int k = l->top - 1; k >= 0; k--) {
        int32_t f = finger[k];
        if (f != 0 && (x == 0 || before(l, x, l->node[f].slot.start_s, l->node[f].seq)))
            x = f;
        int32_t nx;
        while ((nx = links(l, x)[k]) != 0 && before(l, nx, start, seq))
            x = nx;
        update[k] = x;
    }
}

static int insert_at(pol_slot_list *l, const pol_slot *s, int32_t *handle, const int32_t *finger);

int pol_slots_insert(pol_slot_list *l, const pol_slot *s, int32_t *handle)
{
    return insert_at(l, s, handle, NULL);
}

/* Inserts s; the search starts from finger[] when given. */
static int insert_at(pol_slot_list *l, const pol_slot *s, int32_t *handle, const int32_t *finger)
{
    if (handle)
        *handle = 0;
    if (!(s->end_s > s->start_s))
        return ENG_OK;
    int32_t h;
    if (l->free_head) {
        h = l->free_head;
        l->free_head = links(l, h)[0];
    } else {
        if (l->used >= (size_t)INT32_MAX || grow(l, l->used + 1))
            return ENG_NOMEM;
        h = (int32_t)l->used++;
    }
    l->node[h].slot = *s;
    l->node[h].seq = l->next_seq++;
    int lv = draw_level(l);
    l->node[h].level = (uint8_t)lv;
    int32_t update[L];
    if (lv > l->top) {
        for (int k = l->top; k < lv; k++)
            links(l, 0)[k] = 0;
        l->top = lv;
    }
    int32_t last = l->tail[0], hn = l->hint, succ = hn ? links(l, hn)[0] : 0;
    if (last == 0 || !before(l, h, l->node[last].slot.start_s, l->node[last].seq)) {
        /* after every slot: the tails are the predecessors, O(1) */
        for (int k = 0; k < l->top; k++)
            update[k] = l->tail[k];
    } else if (hn && !before(l, h, l->node[hn].slot.start_s, l->node[hn].seq) &&
               (succ == 0 || before(l, h, l->node[succ].slot.start_s, l->node[succ].seq))) {
        /* right after the slot inserted last: its predecessors, O(1) */
        for (int k = 0; k < l->top; k++)
            update[k] = k < l->node[hn].level ? hn : l->hint_update[k];
    } else if (finger) {
        find_update_from(l, s->start_s, l->node[h].seq, finger, update);
    } else {
        find_update(l, s->start_s, l->node[h].seq, update);
    }
    for (int k = 0; k < lv; k++) {
        links(l, h)[k] = links(l, update[k])[k];
        links(l, update[k])[k] = h;
        if (links(l, h)[k] == 0)
            l->tail[k] = h;
    }
    for (int k = lv; k < L; k++)
        links(l, h)[k] = 0;
    l->hint = h;
    for (int k = 0; k < L; k++)
        l->hint_update[k] = k < l->top ? update[k] : 0;
    l->n++;
    if (handle)
        *handle = h;
    return ENG_OK;
}

/* Unlinks h; update[] receives its predecessors on every level. */
static void unlink_slot(pol_slot_list *l, int32_t h, int32_t *update)
{
    /* the hint stays right unless h is the hint or one of its predecessors */
    if (h == l->hint)
        l->hint = 0;
    for (int k = 0; k < l->top && l->hint; k++)
        if (l->hint_update[k] == h)
            l->hint = 0;
    find_update(l, l->node[h].slot.start_s, l->node[h].seq, update);
    for (int k = 0; k < l->node[h].level; k++)
        if (links(l, update[k])[k] == h) {
            links(l, update[k])[k] = links(l, h)[k];
            if (l->tail[k] == h)
                l->tail[k] = update[k];
        }
    while (l->top > 1 && links(l, 0)[l->top - 1] == 0)
        l->top--;
    l->n--;
    links(l, h)[0] = l->free_head;
    l->free_head = h;
}

void pol_slots_remove(pol_slot_list *l, int32_t h)
{
    int32_t update[L];
    unlink_slot(l, h, update);
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
        pol_slots_remove(l, h);
        return ENG_OK;
    }
    /* K1 empty, K2 not: make room first (K2 may need a new handle), then
     * unlink K and insert K2 from K's predecessors */
    if (!l->free_head && grow(l, l->used + 1))
        return ENG_NOMEM;
    int32_t update[L];
    unlink_slot(l, h, update);
    for (int k = l->top; k < L; k++)
        update[k] = 0;
    return insert_at(l, &tail, k2, update);
}

bool pol_slots_valid(const pol_slot_list *l)
{
    size_t count = 0;
    for (int k = 0; k < l->top; k++) {
        int32_t last = 0;
        for (int32_t x = links(l, 0)[k]; x; x = links(l, x)[k])
            last = x;
        if (l->tail[k] != last)
            return false;
    }
    for (int k = 0; k < l->top; k++) {
        int32_t prev = 0;
        for (int32_t x = links(l, 0)[k]; x; x = links(l, x)[k]) {
            if ((size_t)x >= l->used || l->node[x].level <= k)
                return false;
            if (prev && !before(l, prev, l->node[x].slot.start_s, l->node[x].seq))
                return false;
            if (k == 0) {
                if (!(l->node[x].slot.end_s > l->node[x].slot.start_s))
                    return false;
                count++;
            }
            prev = x;
        }
    }
    return count == l->n;
}
