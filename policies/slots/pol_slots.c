/* pol_slots.c — the ordered slot list and slot subtraction (see
 * pol_slots.h): a pool of nodes and their handles in order, in blocks.
 * Invariants: the blocks border[0 .. nb) hold every slot once, each block
 * 1 .. POL_SLOT_BLOCK of them, in strictly increasing (start_s, seq) order
 * across the blocks (a slot's start never changes in place, and every seq
 * is distinct); the node of a slot in the list has next 0 and blk its
 * block; every summary bounds its block's slots, exactly unless stale;
 * max_abs bounds the magnitude of every start and end.
 */
#include "pol_slots.h"

#include "eng_error.h"
#include "eng_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define B POL_SLOT_BLOCK

/* Does handle a come before the key (start, seq)? */
static bool before(const pol_slot_list *l, int32_t a, double start, uint64_t seq)
{
    const pol_slot_node *x = &l->node[a];
    return x->slot.start_s < start || (x->slot.start_s == start && x->seq < seq);
}

/* Does handle a come before the key (start, seq), or is it that key? */
static bool before_eq(const pol_slot_list *l, int32_t a, double start, uint64_t seq)
{
    const pol_slot_node *x = &l->node[a];
    return x->slot.start_s < start || (x->slot.start_s == start && x->seq <= seq);
}

/* Room for need slots. node and tmp share one capacity, and each grows
 * from it alike. */
static int grow(pol_slot_list *l, size_t need)
{
    size_t cap_node = l->cap, cap_tmp = l->cap;
    if (eng_grow(&l->node, &cap_node, need, sizeof *l->node) ||
        eng_grow(&l->tmp, &cap_tmp, need, sizeof *l->tmp))
        return ENG_NOMEM;
    l->cap = cap_node;
    return ENG_OK;
}

/* Room for k more blocks than are in use; the three arrays share one
 * capacity likewise. */
static int grow_blocks(pol_slot_list *l, size_t k)
{
    size_t need = l->nb + k, cap_blk = l->cap_blk, cap_border = l->cap_blk, cap_free = l->cap_blk;
    if (eng_grow(&l->blk, &cap_blk, need, sizeof *l->blk) ||
        eng_grow(&l->border, &cap_border, need, sizeof *l->border) ||
        eng_grow(&l->blk_free, &cap_free, need, sizeof *l->blk_free))
        return ENG_NOMEM;
    l->cap_blk = cap_blk;
    return ENG_OK;
}

int pol_slots_init(pol_slot_list *l, unsigned long seed)
{
    (void)seed;
    memset(l, 0, sizeof *l);
    if (grow(l, 64) || grow_blocks(l, 8)) {
        pol_slots_fini(l);
        return ENG_NOMEM;
    }
    pol_slots_clear(l);
    return ENG_OK;
}

void pol_slots_fini(pol_slot_list *l)
{
    free(l->node);
    free(l->tmp);
    free(l->blk);
    free(l->border);
    free(l->blk_free);
    memset(l, 0, sizeof *l);
}

void pol_slots_clear(pol_slot_list *l)
{
    l->used = 1;
    l->n = 0;
    l->free_head = 0;
    l->n_free = 0;
    l->next_seq = 0;
    l->used_blk = 0;
    l->nb = 0;
    l->n_blk_free = 0;
    l->max_abs = 0;
}

int pol_slots_copy(pol_slot_list *dst, const pol_slot_list *src)
{
    if (grow(dst, src->used) || grow_blocks(dst, src->used_blk))
        return ENG_NOMEM;
    memcpy(dst->node, src->node, src->used * sizeof *dst->node);
    memcpy(dst->blk, src->blk, src->used_blk * sizeof *dst->blk);
    memcpy(dst->border, src->border, src->nb * sizeof *dst->border);
    memcpy(dst->blk_free, src->blk_free, src->n_blk_free * sizeof *dst->blk_free);
    dst->used = src->used;
    dst->n = src->n;
    dst->free_head = src->free_head;
    dst->n_free = src->n_free;
    dst->next_seq = src->next_seq;
    dst->used_blk = src->used_blk;
    dst->nb = src->nb;
    dst->n_blk_free = src->n_blk_free;
    dst->max_abs = src->max_abs;
    return ENG_OK;
}

/* ---- summaries ---- */

/* Recomputes b's summary from its slots (exact). O(B). */
static void summary_redo(const pol_slot_list *l, pol_slot_block *b)
{
    b->sum = pol_slot_sum_empty();
    b->stale = false;
    for (int32_t k = 0; k < b->n; k++)
        pol_slot_sum_add(&b->sum, &l->node[b->h[k]].slot);
}

void pol_slots_settle_all(pol_slot_list *l)
{
    for (size_t i = 0; i < l->nb; i++)
        summary_redo(l, &l->blk[l->border[i]]);
}

/* Slot s leaves block b or is shortened: b's longest length or largest
 * work may fall only if s holds one of them (computed as
 * pol_slot_sum_add computes them), and then the summary becomes stale.
 * Its fastest performance and cheapest price stay bounds. */
static void leaving(pol_slot_block *b, const pol_slot *s)
{
    double len = s->end_s - s->start_s;
    if (len >= b->sum.max_len || len * s->perf >= b->sum.max_work)
        b->stale = true;
}

/* ---- blocks ---- */

/* The index in border of the block that holds, or would hold, the key
 * (start, seq): the last block whose first key is <= it (0 if none).
 * O(log nb). */
static size_t block_index(const pol_slot_list *l, double start, uint64_t seq)
{
    size_t lo = 1, hi = l->nb; /* answer in [lo - 1, hi) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (before_eq(l, l->blk[l->border[mid]].h[0], start, seq))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - 1;
}

/* The number of handles of block b before the key (start, seq). */
static int32_t place_in(const pol_slot_list *l, const pol_slot_block *b, double start, uint64_t seq)
{
    int32_t lo = 0, hi = b->n;
    if (hi > 0 && before(l, b->h[hi - 1], start, seq))
        return hi;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (before(l, b->h[mid], start, seq))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A block number for a new block (room made by grow_blocks), put at
 * index at of border; its summary is empty and exact. */
static int32_t new_block(pol_slot_list *l, size_t at)
{
    int32_t b = l->n_blk_free ? l->blk_free[--l->n_blk_free] : (int32_t)l->used_blk++;
    memmove(l->border + at + 1, l->border + at, (l->nb - at) * sizeof *l->border);
    l->border[at] = b;
    l->nb++;
    l->blk[b].n = 0;
    l->blk[b].sum = pol_slot_sum_empty();
    l->blk[b].stale = false;
    return b;
}

/* Frees the block at index at of border (its slots gone or moved). */
static void free_block(pol_slot_list *l, size_t at)
{
    int32_t b = l->border[at];
    l->blk[b].n = 0;
    l->blk_free[l->n_blk_free++] = b;
    memmove(l->border + at, l->border + at + 1, (l->nb - at - 1) * sizeof *l->border);
    l->nb--;
}

/* Moves the handles h[from .. n) of block number src to the end of block
 * number dst. */
static void move_tail(pol_slot_list *l, int32_t src, int32_t from, int32_t dst)
{
    pol_slot_block *s = &l->blk[src], *d = &l->blk[dst];
    for (int32_t k = from; k < s->n; k++) {
        d->h[d->n++] = s->h[k];
        l->node[s->h[k]].blk = dst;
    }
    s->n = from;
}

/* A place: index bi of border, p handles of that block before it. */
typedef struct place {
    size_t bi;
    int32_t p;
} place;

/* Puts handle h (slot and seq set) into block number b, which has room,
 * with p of its handles before it; folds it into the summary. Inline: it
 * is also the append of every slot of a list built in start order
 * (pol_slots_insert), where a call cost alp 1.2 % of its instructions on
 * the first 15 000 jobs of SDSC-SP2. */
static inline void put_in_block(pol_slot_list *l, int32_t b, int32_t p, int32_t h)
{
    pol_slot_block *bk = &l->blk[b];
    if (p < bk->n)
        memmove(bk->h + p + 1, bk->h + p, (size_t)(bk->n - p) * sizeof *bk->h);
    bk->h[p] = h;
    bk->n++;
    l->node[h].blk = b;
    l->node[h].next = 0;
    pol_slot_sum_add(&bk->sum, &l->node[h].slot);
    l->n++;
}

/* Puts handle h (slot and seq set) at place (bi, p). A full block is split
 * in halves (each keeps the whole block's summary, a bound: stale), except
 * at the list's end, where a new block starts, so that a list built in
 * start order fills its blocks. One block of room must have been made
 * (grow_blocks). */
static void link_into(pol_slot_list *l, int32_t h, size_t bi, int32_t p)
{
    int32_t b = l->border[bi];
    if (l->blk[b].n == B) {
        if (bi + 1 == l->nb && p == B) {
            b = new_block(l, ++bi);
            p = 0;
        } else {
            int32_t c = new_block(l, bi + 1);
            move_tail(l, b, B / 2, c);
            l->blk[b].stale = true;
            l->blk[c].sum = l->blk[b].sum;
            l->blk[c].stale = true;
            if (p > B / 2) {
                b = c;
                bi++;
                p -= B / 2;
            }
        }
    }
    put_in_block(l, b, p, h);
}

/* The place where the key of h goes in a list that is not empty (after
 * every slot: no search). */
static place locate(pol_slot_list *l, int32_t h)
{
    const pol_slot_node *x = &l->node[h];
    size_t bi = l->nb - 1;
    const pol_slot_block *last = &l->blk[l->border[bi]];
    if (before(l, last->h[last->n - 1], x->slot.start_s, x->seq))
        return (place){bi, last->n};
    bi = block_index(l, x->slot.start_s, x->seq);
    return (place){bi, place_in(l, &l->blk[l->border[bi]], x->slot.start_s, x->seq)};
}

/* The place where the key of h goes; an empty list gets its first block
 * (room made by grow_blocks). */
static place place_of(pol_slot_list *l, int32_t h)
{
    if (l->nb == 0) {
        new_block(l, 0);
        return (place){0, 0};
    }
    return locate(l, h);
}

/* The slot at place q (0: none, q is the list's end). */
static int32_t at_place(const pol_slot_list *l, place q)
{
    const pol_slot_block *bk = &l->blk[l->border[q.bi]];
    if (q.p < bk->n)
        return bk->h[q.p];
    return q.bi + 1 < l->nb ? l->blk[l->border[q.bi + 1]].h[0] : 0;
}

/* Puts the k handles hs (in key order, all going at place q: none after
 * the slot there) at q, with one move of the block's tail. When they do
 * not fit, the block keeps the slots before q (filled up to half a block)
 * and the run, then the block's old tail, fill new blocks after it, each
 * to half a block, so that later runs fit. Room for 3k + 1 blocks must
 * have been made. */
static void link_run(pol_slot_list *l, place q, const int32_t *hs, size_t k)
{
    int32_t b = l->border[q.bi];
    pol_slot_block *bk = &l->blk[b];
    if ((size_t)(B - bk->n) >= k) {
        memmove(bk->h + q.p + k, bk->h + q.p, (size_t)(bk->n - q.p) * sizeof *bk->h);
        for (size_t i = 0; i < k; i++) {
            bk->h[q.p + (int32_t)i] = hs[i];
            l->node[hs[i]].blk = b;
            l->node[hs[i]].next = 0;
            pol_slot_sum_add(&bk->sum, &l->node[hs[i]].slot);
        }
        bk->n += (int32_t)k;
        l->n += k;
        return;
    }
    int32_t tail[B];
    int32_t n_tail = bk->n - q.p;
    memcpy(tail, bk->h + q.p, (size_t)n_tail * sizeof *tail);
    for (int32_t i = 0; i < n_tail; i++)
        leaving(bk, &l->node[tail[i]].slot);
    bk->n = q.p;
    size_t total = k + (size_t)n_tail, bi = q.bi;
    int32_t fill = q.p > B / 2 ? q.p : B / 2;
    for (size_t i = 0; i < total; i++) {
        int32_t h = i < k ? hs[i] : tail[i - k];
        if (l->blk[b].n >= fill) {
            b = new_block(l, ++bi);
            fill = B / 2;
        }
        pol_slot_block *c = &l->blk[b];
        c->h[c->n++] = h;
        l->node[h].blk = b;
        l->node[h].next = 0;
        pol_slot_sum_add(&c->sum, &l->node[h].slot);
    }
    l->n += k;
}

/* Merges the block at index at + 1 of border into the one at at when
 * both fit in half a block. */
static void merge_next(pol_slot_list *l, size_t at)
{
    if (at + 1 >= l->nb)
        return;
    int32_t a = l->border[at], c = l->border[at + 1];
    if (l->blk[a].n + l->blk[c].n > B / 2)
        return;
    pol_slot_sum *u = &l->blk[a].sum;
    const pol_slot_sum *v = &l->blk[c].sum;
    u->max_len = fmax(u->max_len, v->max_len);
    u->max_work = fmax(u->max_work, v->max_work);
    u->max_perf = fmax(u->max_perf, v->max_perf);
    u->min_price = fmin(u->min_price, v->min_price);
    l->blk[a].stale = l->blk[a].stale || l->blk[c].stale;
    move_tail(l, c, 0, a);
    free_block(l, at + 1);
}

/* After handles left the blocks at border indices [lo, hi]: frees the
 * emptied ones and merges neighbours that fit in half a block. */
static void tidy(pol_slot_list *l, size_t lo, size_t hi)
{
    size_t i = lo;
    for (size_t k = lo; k <= hi && i < l->nb; k++) {
        if (l->blk[l->border[i]].n == 0) {
            free_block(l, i);
            continue;
        }
        i++;
    }
    /* i: the first index past the tidied stretch; merge from one before
     * it down to one before lo */
    size_t first = lo > 0 ? lo - 1 : 0;
    for (size_t k = i; k-- > first;)
        merge_next(l, k);
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

/* The index in border of h's block. O(log nb). */
static size_t index_of(const pol_slot_list *l, int32_t h)
{
    return block_index(l, l->node[h].slot.start_s, l->node[h].seq);
}

/* Takes h out of its block and recycles its handle; tidies the block. */
static void unlink_slot(pol_slot_list *l, int32_t h)
{
    size_t bi = index_of(l, h);
    pol_slot_block *b = &l->blk[l->border[bi]];
    int32_t p = place_in(l, b, l->node[h].slot.start_s, l->node[h].seq);
    memmove(b->h + p, b->h + p + 1, (size_t)(b->n - p - 1) * sizeof *b->h);
    b->n--;
    leaving(b, &l->node[h].slot);
    l->n--;
    recycle(l, h);
    tidy(l, bi, bi);
}

void pol_slots_place(const pol_slot_list *l, int32_t h, size_t *block, int32_t *at)
{
    size_t bi = index_of(l, h);
    *block = bi;
    *at = place_in(l, &l->blk[l->border[bi]], l->node[h].slot.start_s, l->node[h].seq);
}

int32_t pol_slots_next(const pol_slot_list *l, int32_t h)
{
    const pol_slot_node *x = &l->node[h];
    const pol_slot_block *b = &l->blk[x->blk];
    int32_t p = place_in(l, b, x->slot.start_s, x->seq);
    if (p + 1 < b->n)
        return b->h[p + 1];
    size_t bi = block_index(l, x->slot.start_s, x->seq);
    return bi + 1 < l->nb ? l->blk[l->border[bi + 1]].h[0] : 0;
}

int32_t pol_slots_nth(const pol_slot_list *l, size_t i)
{
    for (size_t k = 0; k < l->nb; k++) {
        const pol_slot_block *b = &l->blk[l->border[k]];
        if (i < (size_t)b->n)
            return b->h[i];
        i -= (size_t)b->n;
    }
    return 0;
}

int pol_slots_insert(pol_slot_list *l, const pol_slot *s, int32_t *handle)
{
    if (handle)
        *handle = 0;
    if (!(s->end_s > s->start_s))
        return ENG_OK;
    if (grow_blocks(l, 1))
        return ENG_NOMEM;
    if (!l->free_head && (l->used >= (size_t)INT32_MAX || grow(l, l->used + 1)))
        return ENG_NOMEM;
    int32_t h = take_handle(l);
    l->node[h].slot = *s;
    l->node[h].seq = l->next_seq++;
    double a = fabs(s->start_s) > fabs(s->end_s) ? fabs(s->start_s) : fabs(s->end_s);
    if (a > l->max_abs)
        l->max_abs = a;
    if (handle)
        *handle = h;
    /* after every slot, in a last block with room (a list built in start
     * order): appended in place, the summary folded */
    pol_slot_block *last = l->nb ? &l->blk[l->border[l->nb - 1]] : NULL;
    if (last && last->n < B && before(l, last->h[last->n - 1], s->start_s, l->node[h].seq)) {
        put_in_block(l, l->border[l->nb - 1], last->n, h);
        return ENG_OK;
    }
    place q = place_of(l, h);
    link_into(l, h, q.bi, q.p);
    return ENG_OK;
}

void pol_slots_remove(pol_slot_list *l, int32_t h)
{
    unlink_slot(l, h);
}

/* Shortens slot h in place to end at end_s (K1): its block's summary
 * becomes a bound. */
static void shorten(pol_slot_list *l, int32_t h, double end_s)
{
    leaving(&l->blk[l->node[h].blk], &l->node[h].slot);
    l->node[h].slot.end_s = end_s;
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
        shorten(l, h, from); /* K1: same start, same place */
        return ENG_OK;
    }
    if (!(to < s.end_s)) {
        unlink_slot(l, h);
        return ENG_OK;
    }
    /* K1 empty, K2 not: K leaves and K2 takes its recycled handle, and
     * the block it may need is made first, so no allocation can fail
     * after the list changed */
    if (grow_blocks(l, 1))
        return ENG_NOMEM;
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

/* Removes the slots marked DEAD, which start in [from, dead_max]: reads
 * only the blocks of that stretch, each compacted in place. */
static void drop_dead(pol_slot_list *l, double from, double dead_max)
{
    size_t lo = block_index(l, from, 0), bi = lo;
    int32_t p = place_in(l, &l->blk[l->border[bi]], from, 0);
    bool more = true;
    for (; bi < l->nb && more; bi++, p = 0) {
        pol_slot_block *b = &l->blk[l->border[bi]];
        int32_t w = p, k = p;
        for (; k < b->n; k++) {
            int32_t x = b->h[k];
            if (l->node[x].slot.start_s > dead_max) {
                more = false;
                break;
            }
            if (l->node[x].next == DEAD) {
                leaving(b, &l->node[x].slot);
                recycle(l, x);
            } else {
                b->h[w++] = x;
            }
        }
        if (w < k) {
            memmove(b->h + w, b->h + k, (size_t)(b->n - k) * sizeof *b->h);
            l->n -= (size_t)(k - w);
            b->n -= k - w;
        }
    }
    tidy(l, lo, bi - 1);
}

int pol_slots_cut_all(pol_slot_list *l, double from, const pol_slot_cut *cuts, size_t n)
{
    /* room for n new handles and blocks first, so that nothing fails once
     * the list changes; removed handles are recycled only at the end */
    size_t fresh = l->n_free < n ? l->n_free : n;
    if (l->used + (n - fresh) >= (size_t)INT32_MAX || grow(l, l->used + (n - fresh)) ||
        grow_blocks(l, 3 * n + 1))
        return ENG_NOMEM;
    int32_t *add = l->tmp; /* the K2 pieces, in seq order */
    size_t n_add = 0, n_dead = 0;
    bool one_start = true;
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
            one_start = one_start && (n_add == 0 || to == l->node[add[0]].slot.start_s);
            add[n_add++] = k2;
        }
        if (from > s.start_s) {
            shorten(l, h, from); /* K1: same start, same place */
        } else {
            l->node[h].next = DEAD;
            n_dead++;
            dead_max = s.start_s > dead_max ? s.start_s : dead_max;
        }
    }
    if (n_add == 0 && n_dead == 0)
        return ENG_OK;
    if (n_dead > 0)
        drop_dead(l, from, dead_max);
    /* K2 pieces that share their start (a rigid window's) are in key
     * order already (their seqs ascend), and go at one place: a slot
     * after the first of them has a later key, and its start cannot be
     * theirs (every seq of theirs is newer than every other slot's), so
     * all of them go before it */
    if (one_start && n_add > 0) {
        place q = place_of(l, add[0]);
        link_run(l, q, add, n_add);
        return ENG_OK;
    }
    sort_by_key(l, add, n_add);
    /* the K2 pieces in runs that go at one place */
    for (size_t b = 0, e; b < n_add; b = e) {
        place q = place_of(l, add[b]);
        int32_t next = at_place(l, q);
        for (e = b + 1; e < n_add; e++) {
            const pol_slot_node *x = &l->node[add[e]];
            if (next && before(l, next, x->slot.start_s, x->seq))
                break;
        }
        link_run(l, q, add + b, e - b);
    }
    return ENG_OK;
}

/* Is u a bound of v, with the length and work exact unless stale? */
static bool bounds(const pol_slot_sum *u, const pol_slot_sum *v, bool stale)
{
    if (!stale && (u->max_len != v->max_len || u->max_work != v->max_work))
        return false;
    return u->max_len >= v->max_len && u->max_work >= v->max_work && u->max_perf >= v->max_perf &&
           u->min_price <= v->min_price;
}

bool pol_slots_valid(const pol_slot_list *l)
{
    int32_t prev = 0;
    size_t n = 0;
    for (size_t i = 0; i < l->nb; i++) {
        int32_t bn = l->border[i];
        if (bn < 0 || (size_t)bn >= l->used_blk)
            return false;
        const pol_slot_block *b = &l->blk[bn];
        if (b->n < 1 || b->n > B)
            return false;
        pol_slot_sum exact = pol_slot_sum_empty();
        for (int32_t k = 0; k < b->n; k++) {
            int32_t x = b->h[k];
            if (x <= 0 || (size_t)x >= l->used || l->node[x].next != 0 || l->node[x].blk != bn)
                return false;
            const pol_slot *s = &l->node[x].slot;
            if (prev && !before(l, prev, s->start_s, l->node[x].seq))
                return false;
            if (!(s->end_s > s->start_s) || fabs(s->start_s) > l->max_abs ||
                fabs(s->end_s) > l->max_abs)
                return false;
            pol_slot_sum_add(&exact, s);
            prev = x;
            n++;
        }
        if (!bounds(&b->sum, &exact, b->stale))
            return false;
    }
    if (n != l->n || l->nb + l->n_blk_free != l->used_blk)
        return false;
    size_t n_free = 0;
    for (int32_t f = l->free_head; f && n_free <= l->used; f = l->node[f].next)
        n_free++;
    return n_free == l->n_free && l->n + l->n_free + 1 == l->used;
}
