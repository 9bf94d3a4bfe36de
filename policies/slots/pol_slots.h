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
 * first), and the handles in list order kept in blocks of at most
 * POL_SLOT_BLOCK (an unrolled list: blocks with room to spare, an array of
 * block numbers in order). An insertion or removal moves handles within
 * one block: a full block is split in two halves (at the list's end a new
 * block starts instead, so that a list built in start order fills its
 * blocks), an emptied one is freed, two neighbours that fit in half a
 * block are merged. The slots after an edit stay in their blocks, so what
 * a block knows about its slots survives edits elsewhere (an array of
 * all the handles shifts every later slot at each edit).
 *
 * Each block keeps a summary of its slots (pol_slot_sum): the longest
 * length, the largest length x performance, the fastest performance and
 * the cheapest price; the list keeps a bound on the magnitude of every
 * start and end (for rounding margins). A summary is always a bound —
 * never shorter, less work, slower or dearer than a slot of its block. An
 * insertion folds the new slot in; the length and work are exact unless
 * the block is marked stale, which happens when a slot that holds one of
 * them leaves or is shortened in place (K1), or when a block is split
 * (each half keeps the whole block's summary); a merge takes the larger
 * of the two. The performance and price are exact when the list is built
 * and may only loosen until it is cleared (a list lives one scheduling
 * cycle). No edit reads a block to repair its summary: a search that
 * reads a stale block whole folds its length and work as it reads and
 * settles them (pol_slots_settle), so only blocks read anyway pay for it.
 * A search may therefore pass over a block whose summary rules out every
 * slot (pol_alp_amp.c).
 *
 * Block size (B = 32): the instructions of alp on the first 15 000 jobs of
 * SDSC-SP2 (callgrind) were 5.12 G with B = 16, 4.99 G with 32 and 64,
 * 5.10 G with 128; with the K2 runs of pol_slots_cut_all, 4.749 G with 32
 * and 4.757 G with 64 (bench/HISTORY.md).
 *
 * Costs (m slots, B = POL_SLOT_BLOCK, m / B blocks at least): insert,
 * remove O(log m + B) (O(1) moves for a slot after every other); shorten,
 * get, first O(1); next O(log B) (at a block's end, O(log (m / B))); nth
 * O(m / B); cut as insert plus remove; the n cuts of a window together
 * O(n (log m + B)) plus the stretch of slots sharing the window's start
 * (pol_slots_cut_all); copy O(m).
 */
#ifndef POL_SLOTS_H
#define POL_SLOTS_H

#include <stdbool.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>

/* One free interval of one resource line. */
typedef struct pol_slot {
    double start_s; /* first free instant */
    double end_s;   /* end of the free interval (exclusive), > start_s */
    double perf;    /* performance of the line (relative, or flop/s), > 0 */
    double price;   /* price per unit of time of the line, >= 0 */
    int32_t line;   /* the caller's resource line; any value */
} pol_slot;

/* Slots per block at most (see the costs above). */
#ifndef POL_SLOT_BLOCK
#define POL_SLOT_BLOCK 32
#endif

/* A node of the list (private to pol_slots.c; here so that iteration
 * inlines). */
typedef struct pol_slot_node {
    pol_slot slot;
    uint64_t seq; /* insertion number: the tie-break key */
    int32_t next; /* in the free list, the next free handle (0 while in the list) */
    int32_t blk;  /* the block that holds it, while in the list */
} pol_slot_node;

/* What a block knows of its slots: a bound on each (see above). */
typedef struct pol_slot_sum {
    double max_len;   /* max end_s - start_s */
    double max_work;  /* max (end_s - start_s) * perf */
    double max_perf;  /* max perf */
    double min_price; /* min price */
} pol_slot_sum;

/* A block of the list: up to POL_SLOT_BLOCK handles in order, and the
 * summary of their slots (a bound; exact unless stale). */
typedef struct pol_slot_block {
    int32_t n;  /* handles in h (>= 1 while the block is in use) */
    bool stale; /* sum is a bound only */
    pol_slot_sum sum;
    int32_t h[POL_SLOT_BLOCK];
} pol_slot_block;

typedef struct pol_slot_list {
    struct pol_slot_node *node; /* per handle (index 0 unused) */
    size_t cap;                 /* handles allocated */
    size_t used;                /* handles ever handed out + 1 */
    size_t n;                   /* slots in the list */
    int32_t free_head;          /* recycled handles, linked through next */
    size_t n_free;              /* handles in that list */
    uint64_t next_seq;
    pol_slot_block *blk; /* per block number */
    size_t cap_blk;      /* blocks allocated */
    size_t used_blk;     /* block numbers ever handed out */
    int32_t *border;     /* the nb blocks in use, in list order */
    size_t nb;
    int32_t *blk_free; /* recycled block numbers (a stack) */
    size_t n_blk_free;
    double max_abs; /* >= |start_s|, |end_s| of every slot since the last clear */
    int32_t *tmp;   /* scratch of pol_slots_cut_all, cap handles */
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
    return l->n ? l->blk[l->border[0]].h[0] : 0;
}

/* O(log B), a binary search for h's place in its block. */
int32_t pol_slots_next(const pol_slot_list *l, int32_t h);

/* The handle of the i-th slot in order, i < pol_slots_count(l). O(m / B):
 * scans walk the blocks (pol_slots_block). */
int32_t pol_slots_nth(const pol_slot_list *l, size_t i);

/* The blocks in list order: block i < pol_slots_blocks(l) holds the
 * handles h[0 .. n) (borrowed until the list changes). */
static inline size_t pol_slots_blocks(const pol_slot_list *l)
{
    return l->nb;
}

static inline const pol_slot_block *pol_slots_block(const pol_slot_list *l, size_t i)
{
    return &l->blk[l->border[i]];
}

/* An empty summary, and s folded into one. */
static inline pol_slot_sum pol_slot_sum_empty(void)
{
    return (pol_slot_sum){
        .max_len = -HUGE_VAL, .max_work = -HUGE_VAL, .max_perf = -HUGE_VAL, .min_price = HUGE_VAL};
}

static inline void pol_slot_sum_add(pol_slot_sum *u, const pol_slot *s)
{
    double len = s->end_s - s->start_s, work = len * s->perf;
    u->max_len = len > u->max_len ? len : u->max_len;
    u->max_work = work > u->max_work ? work : u->max_work;
    u->max_perf = s->perf > u->max_perf ? s->perf : u->max_perf;
    u->min_price = s->price < u->min_price ? s->price : u->min_price;
}

/* Block i's longest length and largest work, folded by a reader of all
 * its slots (as pol_slot_sum_add folds them; its fastest performance and
 * cheapest price stay as they are, bounds): replaces them and clears
 * stale. The slots are unchanged, so the list stays the same list: a
 * search may do this on a list it was given to read. */
static inline void pol_slots_settle(const pol_slot_list *l, size_t i, double max_len,
                                    double max_work)
{
    pol_slot_block *b = &l->blk[l->border[i]];
    b->sum.max_len = max_len;
    b->sum.max_work = max_work;
    b->stale = false;
}

/* Recomputes every block's summary, all four bounds exact (tests). O(m). */
void pol_slots_settle_all(pol_slot_list *l);

/* The place of the slot h in the list: the index of its block in list
 * order (pol_slots_block) and its place in that block. O(log m). */
void pol_slots_place(const pol_slot_list *l, int32_t h, size_t *block, int32_t *at);

/* The insertion number of the slot h: with its start, its key in list
 * order (start_s, seq); neither changes while the slot is in the list. */
static inline uint64_t pol_slots_seq(const pol_slot_list *l, int32_t h)
{
    return l->node[h].seq;
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
 * slots start in [from, the last removed start]: only the blocks of that
 * stretch are read, each compacted in place; the K2 pieces go in by runs
 * that share one place (a rigid window's pieces share their start), each
 * run with one search and one move within its block (a run that does not
 * fit fills new blocks to half). 0 or ENG_NOMEM (the list is then
 * unchanged). O(n (log m + B)) plus the stretch. */
int pol_slots_cut_all(pol_slot_list *l, double from, const pol_slot_cut *cuts, size_t n);

/* Checks the order, the blocks (none empty or over POL_SLOT_BLOCK, each
 * node's block) and the summaries (each a bound, exact unless stale);
 * true when consistent (for tests). */
bool pol_slots_valid(const pol_slot_list *l);

#endif
