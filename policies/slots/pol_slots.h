/* pol_slots.h — an ordered list of free time-slots and slot subtraction,
 * the data structure of the ALP/AMP window search (Toporkov, Yemelyanov,
 * Toporkova & Bobchenkov 2011, Section 2 and Fig. 1).
 *
 * A slot is a free interval [start_s, end_s) of one resource line (a node,
 * or one core of a node) with that line's performance and price per unit
 * of time. The list is kept sorted by (start_s, insertion number): slots
 * with equal starts stay in the order they were inserted, so the order is
 * deterministic.
 *
 * Slot subtraction (Fig. 1 (b)): cutting [from, to) out of slot K leaves
 * K1 = [K.start, from) and K2 = [to, K.end). K1 has K's start, so it keeps
 * K's place: K is shortened in place, O(1). K2 is inserted at its own
 * place. A piece of zero length is not kept (K is removed, or K2 is not
 * inserted). Nothing is ever re-sorted.
 *
 * Representation: a pool of nodes addressed by handles (int32_t >= 1; 0
 * is "none"; handles of removed slots are recycled, the last removed
 * first), and one array of the handles in list order. A slot's place is
 * found by binary search on (start_s, seq) and taken by moving the
 * handles after it. The lists of the ALP/AMP cycles hold a few
 * hundred slots, whose handles fit in a few cache lines: a move of them
 * costs less than the pointer chase of a balanced or randomized tree, and
 * a search scans the array without following links.
 *
 * Costs (m slots): insert, remove O(log m) comparisons and O(m) moves of
 * 4-byte handles (O(1) for a slot that goes after every other, so a list
 * built in start order costs O(m)); shorten, get, first, nth O(1); next
 * O(log m);
 * cut as insert plus remove; the n cuts of a window together O(m + n log
 * m) (pol_slots_cut_all); copy O(m).
 */
#ifndef POL_SLOTS_H
#define POL_SLOTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One free interval of one resource line. */
typedef struct pol_slot {
    double start_s; /* first free instant */
    double end_s;   /* end of the free interval (exclusive), > start_s */
    double perf;    /* performance of the line (relative, or flop/s), > 0 */
    double price;   /* price per unit of time of the line, >= 0 */
    int32_t line;   /* the caller's resource line; any value */
} pol_slot;

/* A node of the list (private to pol_slots.c; here so that iteration
 * inlines). */
typedef struct pol_slot_node {
    pol_slot slot;
    uint64_t seq; /* insertion number: the tie-break key */
    int32_t next; /* in the free list, the next free handle (0 while in the list) */
} pol_slot_node;

typedef struct pol_slot_list {
    struct pol_slot_node *node; /* per handle (index 0 unused) */
    size_t cap;                 /* handles allocated */
    size_t used;                /* handles ever handed out + 1 */
    int32_t *order;             /* the n slots' handles in (start_s, seq) order */
    size_t cap_order;
    size_t n;          /* slots in the list */
    int32_t free_head; /* recycled handles, linked through next */
    size_t n_free;     /* handles in that list */
    uint64_t next_seq;
    int32_t *tmp; /* scratch of pol_slots_cut_all, cap_order handles */
} pol_slot_list;

/* One cut of pol_slots_cut_all: [from, to) out of the slot handle. */
typedef struct pol_slot_cut {
    int32_t handle;
    double to;
} pol_slot_cut;

/* An empty list. The list draws no random numbers: seed is not used (it
 * seeded the levels of an earlier representation). 0 or ENG_NOMEM. */
int pol_slots_init(pol_slot_list *l, unsigned long seed);
void pol_slots_fini(pol_slot_list *l);

/* Empties the list (keeps the memory). */
void pol_slots_clear(pol_slot_list *l);

/* Makes dst a copy of src (same order, same handles). dst must have been
 * initialised. 0 or ENG_NOMEM. O(m). */
int pol_slots_copy(pol_slot_list *dst, const pol_slot_list *src);

/* Inserts a slot after every slot with a start <= s->start_s; its handle
 * in *handle (may be NULL). A slot with end_s <= start_s is not inserted
 * (*handle = 0). 0 or ENG_NOMEM. */
int pol_slots_insert(pol_slot_list *l, const pol_slot *s, int32_t *handle);

/* Removes the slot h. */
void pol_slots_remove(pol_slot_list *l, int32_t h);

/* The first slot (earliest start), the one after h; 0 at the end. */
static inline int32_t pol_slots_first(const pol_slot_list *l)
{
    return l->n ? l->order[0] : 0;
}

/* O(log m), a binary search for h's place: scans use pol_slots_nth. */
int32_t pol_slots_next(const pol_slot_list *l, int32_t h);

/* The handle of the i-th slot in order, i < pol_slots_count(l). */
static inline int32_t pol_slots_nth(const pol_slot_list *l, size_t i)
{
    return l->order[i];
}

/* The slot behind handle h (borrowed until h is removed). */
static inline const pol_slot *pol_slots_get(const pol_slot_list *l, int32_t h)
{
    return &l->node[h].slot;
}

/* Number of slots. */
static inline size_t pol_slots_count(const pol_slot_list *l)
{
    return l->n;
}

/* Subtracts [from, to) from slot h (Fig. 1 (b)): K1 = [start, from)
 * stays in h's place (h is removed when K1 is empty), K2 = [to, end) is
 * inserted (its handle in *k2, 0 when empty; k2 may be NULL). The interval
 * is clipped to the slot; an interval that misses it changes nothing.
 * 0 or ENG_NOMEM (the list is then unchanged). */
int pol_slots_cut(pol_slot_list *l, int32_t h, double from, double to, int32_t *k2);

/* Subtracts [from, cuts[k].to) from slot cuts[k].handle for k = 0..n-1
 * (distinct slots): the list is then the one n calls of pol_slots_cut in
 * that order would leave (the same slots in the same order, ties
 * included; the handles of the new K2 pieces may differ). The removed
 * slots start in [from, the last removed start]: only that stretch is
 * read, and the slots after it move down as one block; each K2 piece
 * then goes in at a binary search (none for a piece that goes right
 * before the one placed last, as a rigid window's pieces do) and one move
 * of the slots after it. 0 or ENG_NOMEM (the list is then unchanged).
 * O(m + n log m). */
int pol_slots_cut_all(pol_slot_list *l, double from, const pol_slot_cut *cuts, size_t n);

/* Checks the order; true when consistent (for tests). */
bool pol_slots_valid(const pol_slot_list *l);

#endif
