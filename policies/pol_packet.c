/* pol_packet.c — Packet: bundling same-type jobs so that their
 * initialization is paid once (Baranov & Lyakhovets 2022, the job-bundling
 * study, which ran its policies inside the Alea simulator).
 *
 * Jobs of one type (--type-field, SWF field 15 by default) share an
 * initialization procedure. The policy keeps one FIFO queue per type and,
 * whenever hosts are free, forms a packet from the head of the queue with
 * the largest weight: the packet's hosts are initialized once (by its first
 * member), then its members run one after another on all of those hosts
 * (the engine's pol_out_start_packet: later members skip the
 * initialization; a member runs moldably, its processing scaled by its
 * units over the packet's, the study's linear-scalability assumption). Every
 * member stays a job of its own in the outputs, with its packet in a
 * column.
 *
 * The paper leaves two rules open; ours, with their reasons:
 *
 * Queue weight. w_t = size_weight * n_t / n + age_weight * a_t / a_max,
 *   n_t the type's waiting jobs and n all waiting jobs, a_t the waiting
 *   time of the type's oldest job and a_max the largest such time. Both
 *   terms lie in [0, 1], so the two options weigh "many jobs to bundle"
 *   (more initialization saved) against "someone has waited long"
 *   (fairness) directly; defaults 1 and 1. Ties: older head, then smaller
 *   type.
 *
 * Node count and members. A packet that runs its members on all k of its
 *   hosts saves (sum of the members' nodes - k) initializations' worth of
 *   node time; the fewer the hosts, the more it saves, but the longer later
 *   members wait inside it. So: members are taken from the head of the
 *   type's queue while the packet's planned processing
 *       P = sum over members of (estimate - initialization) * nodes / k
 *   stays within `horizon` seconds (the first member always joins), with
 *       k = max(the widest member's nodes, ceil(node-seconds / horizon)),
 *   never more hosts than the members would hold side by side (so no job
 *   gets more node time than it asked for) nor than are free. No member runs on fewer nodes than it
 *   asked for, and a packet is never planned longer than the horizon
 *   unless its first member alone is. horizon defaults to 3600 s;
 *   max_members (0: no limit) caps packets further.
 *
 * Each call forms packets while hosts are free and some job fits: after
 *   each packet the queues are weighed again (its queue shrank) and the
 *   next packet comes from the heaviest queue that can form one.
 *
 * Modes (mode=): `easy` (default) gives the first waiting head that does
 *   not fit an EASY-style reservation (Lifka 1995; Mu'alem & Feitelson
 *   2001), held by that job until it starts: its shadow time is when the
 *   running packets' planned ends free enough hosts, and is promised
 *   (pol_out_promise, so --check holds the policy to it); packets of other
 *   jobs are formed only if they end by then or use hosts the reservation
 *   does not need. `greedy` tries the queues in weight order and forms
 *   every packet that fits, which can starve wide jobs of small queues.
 *
 * Ablations: max_members=1 (no bundling: only the per-type queues, their
 *   weights and the reservation); scaling=none (a packet takes only jobs of
 *   its first member's width and runs each on that many hosts: no speed-up
 *   from spreading a member over the packet's hosts).
 *
 * variant=paper: the algorithm as the paper ran it inside Alea, whose
 *   policies answer selectJob() with one job at a time ("the SelectJob
 *   method, without parameters, is used to choose a job from the queue for
 *   execution", our translation); the packet is handed to Alea as one job.
 *   The paper does not say what happens when the packet of the heaviest
 *   queue does not fit the free nodes. Its choices, one set for every
 *   workload and share:
 *   - each queue's packet starts with its head, then takes that queue's
 *     jobs in order (a job that cannot join closes the packet);
 *   - select=backfill (the default): the packets of the queues' heads, in
 *     weight order, are scheduled as EASY schedules jobs (Alea's Backfill,
 *     the paper's baseline, running over packets): the first head packet
 *     that does not fit holds a promised reservation until it starts, and
 *     the packets of later queues start only if they end by its shadow
 *     time or use hosts it does not need. Chosen over the two other
 *     readings, kept as options, because it matches the paper best over
 *     all six workloads (bench/HISTORY.md, "Job bundling": thresholds
 *     within 2 points on 4 of 6 workloads, Tables 2-3 mean waits within
 *     30 % at 13 of 36 points, against 1/6 and 8/36 for block and 0/6 and
 *     4/36 for pass): select=block, nothing starts until the top packet
 *     fits (no reservation, no backfilling; it waits 3-8x the paper's
 *     Packet on the mod workloads, where the paper's Packet keeps 93-99 %
 *     utilization, so the paper's cannot have blocked); select=pass, the
 *     heaviest queue whose head packet fits starts (no reservation: wide
 *     heads wait behind narrow packets, and the queue stays 6-12x the
 *     paper's on mod);
 *   - weights, node count and horizon as above;
 *   - "the first job carries the packet's characteristics (node count and
 *     processing time); the other jobs of the packet become pseudo-jobs of
 *     1 processor and 1 second ... not counted in the output metrics"
 *     (translated): the summary's pseudo_job_accounting block
 *     (eng_metrics.h) gives the waits over packets and unbundled jobs
 *     only, and the queue length with each job in the queue until its
 *     packet starts.
 *
 * Islands (eng_policy.h, --islands strict; every variant and mode). The
 *   paper's machine has none; ours follow the engine's rule that a job
 *   that fits in one island runs within one (README, "Islands"), counted
 *   in hosts since a packet takes its hosts whole:
 *   - a packet whose first member fits in the largest island stays within
 *     one island: its members are chosen against the most hosts any one
 *     island has free (so no member's packet spans islands), and its k
 *     hosts are those of the island pol_island_pick() chooses for k (best
 *     fit, as the engine places a job), lowest names first;
 *   - a packet whose first member is larger than every island spans them
 *     as the engine does (pol_island_take): island by island in order,
 *     each island's free hosts lowest names first;
 *   - "fits now" for a queue's head (the reservation, select=) is the same
 *     test, so a head can be blocked by islands while enough hosts are free
 *     overall;
 *   - the reservation's shadow time is the first planned packet end at
 *     which pol_island_pick() can place the reserved job, and its extra
 *     hosts are counted as pol_shadow_isl counts them (the most free beyond
 *     its need in an island that can host it then; all free beyond it for a
 *     job larger than every island), so a later packet that outlives the
 *     shadow time leaves the reserved job an island, wherever it goes, and
 *     the promise holds under --check.
 *   Without islands (none defined, or --islands ignore) nothing changes.
 *
 * Costs per call: per packet formed, O(t) to weigh the t waiting types
 * and O(t^2) to order them (t is small: 8 in the study), at most 256 queue
 * entries looked at per queue tried, O(p^2) for the shadow time over p
 * running packets (with islands, plus one pass over their hosts, and
 * O(islands x free hosts) to take a packet's hosts); members are popped
 * from FIFO queues. Out of memory
 * anywhere is reported as ENG_NOMEM, never as "nothing fits".
 */
#include "eng_policy.h"

#include "eng_error.h"
#include "eng_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct type_queue {
    int64_t type;
    int32_t *jobs; /* FIFO of the type's waiting jobs; those already in a
                    * packet are skipped (s->assigned) and dropped at the head */
    size_t head, n, cap;
    size_t live;   /* jobs in it not yet in a packet */
    double weight; /* this call's */
} type_queue;

typedef struct packet {
    int32_t first;    /* the first member's idx: the packet's name */
    int32_t *members; /* in order */
    size_t n_members, next;
    int32_t *hosts; /* positions in view->hosts */
    int32_t n_hosts;
    int32_t units; /* units its hosts hold */
    bool running;  /* a member runs now */
    double planned_end_s;
} packet;

typedef enum { MODE_EASY, MODE_GREEDY } packet_mode;

/* variant=paper: what happens when the top queue's packet cannot start */
typedef enum { SELECT_BLOCK, SELECT_PASS, SELECT_BACKFILL } packet_select;

typedef struct packet_state {
    double size_weight, age_weight, horizon_s;
    size_t max_members;
    packet_mode mode;
    bool paper;           /* variant=paper: Alea's one-job-at-a-time reading */
    packet_select select; /* variant=paper: when the top packet cannot start */
    bool scaling;         /* scaling=linear: members spread over the packet */
    int32_t reserved;     /* mode=easy, select=backfill: the job holding the
                           * reservation, or -1 */
    type_queue *types;    /* sorted by type */
    size_t n_types, cap_types;
    packet *packets; /* active packets */
    size_t n_packets, cap_packets;
    int32_t *job_packet; /* per job: index of its active packet, or -1 */
    uint8_t *assigned;   /* per job: put in a packet */
    uint8_t *in_queue;   /* per job: in its type queue's array (head..n) */
    int32_t *pick;       /* scratch: members being chosen */
    size_t cap_pick;
    size_t n_jobs;
    uint8_t *busy; /* per pool host, this call: held or taken */
    size_t n_hosts;
    size_t *order; /* scratch: types by weight */
    size_t cap_order;
    int32_t *free_pos; /* scratch */
    size_t cap_free;
    int32_t min_cores; /* this call's smallest host */
    double *ends;      /* scratch: planned packet ends, ascending */
    int32_t *end_pkt;  /* scratch: the packet of each of ends */
    size_t cap_ends, cap_end_pkt;
    /* with islands (pol_setup.n_islands > 0; else n_isl == 0), in hosts: */
    int32_t n_isl;
    int32_t *isl_hosts;  /* per island: its hosts */
    int32_t largest_isl; /* hosts of the largest island */
    int32_t *isl_free;   /* per island, this call: free hosts (in free_pos) */
    int32_t *isl_cur;    /* scratch of the shadow walk */
} packet_state;

static const pol_option packet_options[] = {
    {.key = "variant",
     .type = POL_OPT_CHOICE,
     .choices = POL_CHOICES("default", "paper"),
     .help =
         "packets from every queue with a reservation (default), or the paper's reading in Alea (each queue's packet starts with its head; see select)"},
    {.key = "mode",
     .type = POL_OPT_CHOICE,
     .choices = POL_CHOICES("easy", "greedy"),
     .help =
         "a promised reservation for the first blocked head (easy), or none (greedy); variant=paper takes select= instead"},
    {.key = "select",
     .type = POL_OPT_CHOICE,
     .choices = POL_CHOICES("backfill", "block", "pass"),
     .absent = "backfill, with variant=paper only",
     .help =
         "variant=paper only: when the top queue's head packet cannot start, it holds a promised reservation and later packets backfill (backfill), nothing starts until it does (block), or the next queue is tried (pass)"},
    {.key = "scaling",
     .type = POL_OPT_CHOICE,
     .choices = POL_CHOICES("linear", "none"),
     .help =
         "members spread over the packet's hosts (linear), or packets of equal-width members on their own node count (none)"},
    {.key = "horizon",
     .type = POL_OPT_REAL,
     .lo = 1,
     .hi = INFINITY,
     .def_real = 3600,
     .unit = "seconds",
     .help = "planned processing a packet may reach"},
    {.key = "max_members",
     .type = POL_OPT_INT,
     .min = 0,
     .max = INT32_MAX,
     .help = "largest packet, in jobs; 0 for no limit"},
    {.key = "size_weight",
     .type = POL_OPT_REAL,
     .lo = 0,
     .hi = INFINITY,
     .def_real = 1,
     .help = "weight of a queue's share of the waiting jobs"},
    {.key = "age_weight",
     .type = POL_OPT_REAL,
     .lo = 0,
     .hi = INFINITY,
     .def_real = 1,
     .help = "weight of the relative wait of a queue's oldest job"},
    {0},
};

static void packet_release(packet_state *s)
{
    free(s->job_packet);
    free(s->assigned);
    free(s->in_queue);
    free(s->busy);
    free(s->isl_hosts);
    free(s->isl_free);
    free(s->isl_cur);
    s->job_packet = NULL;
    s->assigned = NULL;
    s->in_queue = NULL;
    s->busy = NULL;
    s->isl_hosts = s->isl_free = s->isl_cur = NULL;
}

static int packet_init(void *state, const pol_setup *setup, char *err, size_t errlen)
{
    packet_state *s = state;
    /* Packets hold whole hosts and size jobs in hosts of the pool's core
     * count; on hosts of unequal sizes a job's count of hosts can exceed
     * the pool (never starting) or an island it fits by cores. */
    for (size_t h = 1; setup->alloc == POL_ALLOC_CORE && h < setup->n_hosts; h++)
        if (setup->hosts[h].cores != setup->hosts[0].cores) {
            snprintf(err, errlen,
                     "packet sizes jobs in whole hosts: under --alloc core the hosts of a "
                     "pool need one core count (%s has %d, %s has %d); use --alloc node",
                     setup->hosts[0].name, setup->hosts[0].cores, setup->hosts[h].name,
                     setup->hosts[h].cores);
            return ENG_USAGE;
        }
    s->paper = pol_opt_choice(setup, "variant") == 1;
    s->scaling = pol_opt_choice(setup, "scaling") == 0;
    s->reserved = -1;
    s->mode = pol_opt_choice(setup, "mode") == 1 ? MODE_GREEDY : MODE_EASY;
    s->horizon_s = pol_opt_real(setup, "horizon");
    s->max_members = (size_t)pol_opt_int(setup, "max_members");
    s->size_weight = pol_opt_real(setup, "size_weight");
    s->age_weight = pol_opt_real(setup, "age_weight");
    bool select = pol_opt_given(setup, "select");
    if (select && !s->paper) {
        snprintf(err, errlen, "option select: only for variant=paper");
        return ENG_INVAL;
    }
    static const packet_select selects[] = {SELECT_BACKFILL, SELECT_BLOCK, SELECT_PASS};
    s->select = select ? selects[pol_opt_choice(setup, "select")] : SELECT_BACKFILL;
    if (s->paper && pol_opt_given(setup, "mode")) {
        snprintf(err, errlen,
                 "option mode: variant=paper has no mode (select= says what happens when "
                 "the top queue's packet cannot start)");
        return ENG_INVAL;
    }
    s->n_jobs = setup->n_jobs;
    s->n_hosts = setup->n_hosts;
    s->job_packet = malloc((s->n_jobs ? s->n_jobs : 1) * sizeof *s->job_packet);
    s->assigned = calloc(s->n_jobs ? s->n_jobs : 1, 1);
    s->in_queue = calloc(s->n_jobs ? s->n_jobs : 1, 1);
    s->busy = calloc(s->n_hosts ? s->n_hosts : 1, 1);
    s->n_isl = setup->n_islands;
    if (s->n_isl > 0) {
        s->isl_hosts = calloc((size_t)s->n_isl, sizeof *s->isl_hosts);
        s->isl_free = calloc((size_t)s->n_isl, sizeof *s->isl_free);
        s->isl_cur = calloc((size_t)s->n_isl, sizeof *s->isl_cur);
    }
    if (!s->job_packet || !s->busy || !s->assigned || !s->in_queue ||
        (s->n_isl > 0 && (!s->isl_hosts || !s->isl_free || !s->isl_cur))) {
        packet_release(s); /* the engine calls fini only after a successful init */
        snprintf(err, errlen, "out of memory");
        return ENG_NOMEM;
    }
    for (size_t i = 0; i < s->n_jobs; i++)
        s->job_packet[i] = -1;
    for (size_t h = 0; h < s->n_hosts && s->n_isl > 0; h++) {
        int32_t k = setup->hosts[h].island;
        if (k < 0 || k >= s->n_isl) {
            packet_release(s);
            snprintf(err, errlen, "host %s has no island of the pool's %d", setup->hosts[h].name,
                     (int)s->n_isl);
            return ENG_INVARIANT;
        }
        if (++s->isl_hosts[k] > s->largest_isl)
            s->largest_isl = s->isl_hosts[k];
    }
    return ENG_OK;
}

static void free_packet(packet *p)
{
    free(p->members);
    free(p->hosts);
}

static void packet_fini(void *state)
{
    packet_state *s = state;
    for (size_t i = 0; i < s->n_types; i++)
        free(s->types[i].jobs);
    for (size_t i = 0; i < s->n_packets; i++)
        free_packet(&s->packets[i]);
    free(s->types);
    free(s->packets);
    free(s->job_packet);
    free(s->assigned);
    free(s->in_queue);
    free(s->pick);
    free(s->busy);
    free(s->order);
    free(s->free_pos);
    free(s->ends);
    free(s->end_pkt);
    free(s->isl_hosts);
    free(s->isl_free);
    free(s->isl_cur);
}

/* The queue of a type, created in sorted position when new. */
static type_queue *queue_of(packet_state *s, int64_t type)
{
    size_t lo = 0, hi = s->n_types;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->types[mid].type < type)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < s->n_types && s->types[lo].type == type)
        return &s->types[lo];
    if (eng_grow(&s->types, &s->cap_types, s->n_types + 1, sizeof *s->types))
        return NULL;
    memmove(s->types + lo + 1, s->types + lo, (s->n_types - lo) * sizeof *s->types);
    s->types[lo] = (type_queue){.type = type};
    s->n_types++;
    return &s->types[lo];
}

/* Puts job idx back in its type's queue, in submit (idx) order: new jobs
 * go to the end; a job requeued after a host failure, or left over from a
 * packet that lost a host, goes back to its place. */
static int enqueue(packet_state *s, int64_t type, int32_t idx)
{
    type_queue *q = queue_of(s, type);
    if (!q)
        return ENG_NOMEM;
    if (s->in_queue[idx]) { /* still in the array, passed over: take it back */
        if (s->assigned[idx]) {
            s->assigned[idx] = 0;
            q->live++;
        }
        return ENG_OK;
    }
    if (q->head > 0 && q->head == q->n) /* empty: reuse from the start */
        q->head = q->n = 0;
    if (eng_grow(&q->jobs, &q->cap, q->n + 1, sizeof *q->jobs))
        return ENG_NOMEM;
    size_t at = q->n;
    while (at > q->head && q->jobs[at - 1] > idx)
        at--;
    if (at == q->head && q->head > 0) { /* room before the head */
        q->jobs[--q->head] = idx;
    } else {
        memmove(q->jobs + at + 1, q->jobs + at, (q->n - at) * sizeof *q->jobs);
        q->jobs[at] = idx;
        q->n++;
    }
    s->assigned[idx] = 0;
    s->in_queue[idx] = 1;
    q->live++;
    return ENG_OK;
}

static int packet_on_submit(void *state, const pol_view *v, const pol_job *job)
{
    (void)v;
    return enqueue(state, job->type, job->idx);
}

/* Can packet p go on: are all its hosts up and free? (With host failures,
 * one may have failed under the member that has just ended.) */
static bool packet_hosts_ok(const packet *pk, const pol_view *v)
{
    for (int32_t k = 0; k < pk->n_hosts; k++) {
        const pol_host *h = &v->hosts[pk->hosts[k]];
        if (!h->up || h->free_cores != h->cores)
            return false;
    }
    return true;
}

/* Gives the members that have not started back to their queue. */
static int dissolve(packet_state *s, const pol_view *v, packet *pk)
{
    for (size_t i = pk->next; i < pk->n_members; i++) {
        const pol_job *j = pol_queue_find(v, pk->members[i]);
        if (!j)
            return ENG_INVARIANT;
        int rc = enqueue(s, j->type, j->idx);
        if (rc)
            return rc;
    }
    pk->next = pk->n_members;
    return ENG_OK;
}

static int packet_on_finish(void *state, const pol_view *v, const pol_job *job)
{
    (void)v;
    packet_state *s = state;
    int32_t p = s->job_packet[job->idx];
    if (p >= 0)
        s->packets[p].running = false;
    s->job_packet[job->idx] = -1;
    return ENG_OK;
}

/* Nodes a job asks for, in hosts (core allocation: of the smallest host). */
static int32_t job_nodes(const pol_view *v, const pol_job *j, int32_t min_cores)
{
    return v->alloc == POL_ALLOC_NODE ? j->units : (j->units + min_cores - 1) / min_cores;
}

static double processing(const pol_job *j)
{
    double e = j->estimate_s - j->init_s;
    return e > 0 ? e : 0;
}

/* Planned processing of members[0..m) on k hosts. */
static double span_on(const pol_view *v, const int32_t *members, size_t m, int32_t k,
                      int32_t min_cores)
{
    double total = 0;
    for (size_t i = 0; i < m; i++) {
        const pol_job *j = pol_queue_find(v, members[i]);
        total += processing(j) * job_nodes(v, j, min_cores) / k;
    }
    return total;
}

/* Starts the next member of packet p (the previous one has just ended). */
static int continue_packet(packet_state *s, const pol_view *v, pol_out *out, size_t p)
{
    packet *pk = &s->packets[p];
    const pol_job *j = pol_queue_find(v, pk->members[pk->next]);
    if (!j)
        return ENG_INVARIANT;
    pol_out_start_packet(out, j, pk->first, pk->hosts, (size_t)pk->n_hosts);
    /* what is left of the packet, planned from now */
    pk->planned_end_s = v->now_s + (pk->next == 0 ? j->init_s : 0) +
                        span_on(v, pk->members + pk->next, pk->n_members - pk->next, pk->n_hosts,
                                s->min_cores);
    pk->next++;
    pk->running = true;
    s->job_packet[j->idx] = (int32_t)p;
    for (int32_t k = 0; k < pk->n_hosts; k++)
        s->busy[pk->hosts[k]] = 1;
    return ENG_OK;
}

static int by_weight_state_cmp(const packet_state *s, const pol_view *v, size_t a, size_t b)
{
    const type_queue *x = &s->types[a], *y = &s->types[b];
    if (x->weight != y->weight)
        return x->weight > y->weight ? -1 : 1;
    double sx = pol_queue_find(v, x->jobs[x->head])->submit_s;
    double sy = pol_queue_find(v, y->jobs[y->head])->submit_s;
    if (sx != sy)
        return sx < sy ? -1 : 1;
    return (x->type > y->type) - (x->type < y->type);
}

/* Insertion sort of the (few) waiting types by weight. */
static void order_types(packet_state *s, const pol_view *v, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        size_t t = s->order[i], k = i;
        while (k > 0 && by_weight_state_cmp(s, v, t, s->order[k - 1]) < 0) {
            s->order[k] = s->order[k - 1];
            k--;
        }
        s->order[k] = t;
    }
}

/* Drops the jobs already in packets from the head of q. */
static void trim(packet_state *s, type_queue *q)
{
    while (q->head < q->n && s->assigned[q->jobs[q->head]])
        s->in_queue[q->jobs[q->head++]] = 0;
}

/* Hosts a packet whose first member needs `nodes` hosts may take now, of
 * the n_free free ones: all of them, or with islands, for a member that
 * fits in one island, the most any one island has free (its packet stays
 * within one island: a member that fits in one runs within one, as the
 * engine places jobs). */
static int32_t avail_for(const packet_state *s, int32_t nodes, size_t n_free)
{
    if (s->n_isl == 0 || nodes > s->largest_isl)
        return (int32_t)n_free;
    int32_t most = 0;
    for (int32_t k = 0; k < s->n_isl; k++)
        if (s->isl_free[k] > most)
            most = s->isl_free[k];
    return most;
}

/* A packet being chosen: its members are s->pick[0..m). */
typedef struct pick {
    size_t m;
    int32_t avail; /* hosts it may take: avail_for() its first member */
    int32_t widest, k;
    int64_t total_nodes;
    double node_s, init;
} pick;

enum { JOINED, PASSED, CLOSED };

/* Offers job j to packet c, with `n_free` free hosts and the reservation
 * (shadow, extra). JOINED: it is a member now; PASSED: it cannot be one,
 * try the next job; CLOSED: the packet takes no more. */
static int offer(packet_state *s, const pol_view *v, const pol_job *j, int32_t n_free,
                 double shadow, int32_t extra, pick *c)
{
    if (s->max_members && c->m == s->max_members)
        return CLOSED;
    int32_t nodes = job_nodes(v, j, s->min_cores);
    if (c->m == 0)
        c->avail = avail_for(s, nodes, (size_t)n_free);
    int32_t avail = c->avail;
    /* The paper's reading takes the queue's jobs in order: one that cannot
     * join closes the packet. */
    int pass = s->paper ? CLOSED : PASSED;
    if (nodes > avail)
        return pass;
    if (!s->scaling && c->m > 0 && nodes != c->widest)
        return pass;
    int32_t w = nodes > c->widest ? nodes : c->widest;
    double ns = c->node_s + processing(j) * nodes;
    int64_t total = c->total_nodes + nodes;
    int64_t kk = w;
    if (s->scaling) {
        /* enough hosts to keep the packet within the horizon, but never
         * more than the members would hold side by side, nor than free */
        double need = ceil(ns / s->horizon_s);
        kk = need > w ? (int64_t)fmin(need, (double)total) : w;
        if (kk > avail)
            kk = avail;
    }
    double span = ns / (double)kk;
    if (c->m > 0 && span > s->horizon_s)
        return CLOSED;
    double first_init = c->m == 0 ? j->init_s : c->init;
    if (isfinite(shadow) && v->now_s + first_init + span > shadow && kk > extra)
        return c->m == 0 ? PASSED : CLOSED; /* the first: it cannot start a packet now */
    s->pick[c->m++] = j->idx;
    c->widest = w;
    c->total_nodes = total;
    c->node_s = ns;
    c->init = first_init;
    c->k = (int32_t)kk;
    return JOINED;
}

/* Chooses the members of a packet from queue q (into s->pick; *m_out of
 * them) and its host count, with `avail` free hosts. `first` (>= 0) is
 * offered before the queue and must join, or no packet is formed. Jobs are
 * then taken in queue order; in the default reading one that cannot join
 * (wider than the free hosts, or ending past the reservation) is passed
 * over and keeps its place, so a blocked head does not hold back the rest
 * of its type. With a reservation (shadow < INFINITY), the packet must end
 * by the shadow time or use at most `extra` hosts. At most SCAN queue
 * entries are looked at. Returns 0 or ENG_NOMEM. */
#define SCAN 256

static int choose_members(packet_state *s, const pol_view *v, type_queue *q, int32_t first,
                          int32_t avail, double shadow, int32_t extra, size_t *m_out,
                          int32_t *k_out)
{
    *m_out = 0;
    *k_out = 0;
    if (eng_grow(&s->pick, &s->cap_pick, SCAN + 1, sizeof *s->pick))
        return ENG_NOMEM;
    pick c = {0};
    if (first >= 0) {
        const pol_job *j = pol_queue_find(v, first);
        if (!j)
            return ENG_INVARIANT;
        if (offer(s, v, j, avail, shadow, extra, &c) != JOINED)
            return ENG_OK;
    }
    for (size_t i = q->head, seen = 0; i < q->n && seen < SCAN; i++) {
        int32_t idx = q->jobs[i];
        if (s->assigned[idx] || idx == first)
            continue;
        seen++;
        const pol_job *j = pol_queue_find(v, idx);
        if (!j)
            return ENG_INVARIANT;
        if (offer(s, v, j, avail, shadow, extra, &c) == CLOSED)
            break;
    }
    *m_out = c.m;
    *k_out = c.k;
    return ENG_OK;
}

/* The running packets by planned end (insertion, stable): s->ends[i] and
 * s->end_pkt[i], the packet's index; *n their count. O(p^2) for p
 * packets (one per host at most). */
static int order_by_end(packet_state *s, size_t *n)
{
    if (eng_grow(&s->ends, &s->cap_ends, s->n_packets + 1, sizeof *s->ends) ||
        eng_grow(&s->end_pkt, &s->cap_end_pkt, s->n_packets + 1, sizeof *s->end_pkt))
        return ENG_NOMEM;
    *n = 0;
    for (size_t p = 0; p < s->n_packets; p++) {
        double e = s->packets[p].planned_end_s;
        size_t k = (*n)++;
        while (k > 0 && s->ends[k - 1] > e) {
            s->ends[k] = s->ends[k - 1];
            s->end_pkt[k] = s->end_pkt[k - 1];
            k--;
        }
        s->ends[k] = e;
        s->end_pkt[k] = (int32_t)p;
    }
    return ENG_OK;
}

/* When will `need` hosts be free, counting the running packets' planned
 * ends? Returns the shadow time and the hosts free then beyond need. */
static int shadow_of(packet_state *s, const pol_view *v, int32_t free_hosts, int32_t need,
                     double *shadow, int32_t *extra)
{
    size_t n;
    if (order_by_end(s, &n))
        return ENG_NOMEM;
    int64_t acc = free_hosts;
    double t = v->now_s;
    size_t i = 0;
    while (acc < need && i < n) {
        t = s->ends[i] > v->now_s ? s->ends[i] : v->now_s;
        acc += s->packets[s->end_pkt[i++]].n_hosts;
    }
    while (i < n && s->ends[i] <= t)
        acc += s->packets[s->end_pkt[i++]].n_hosts;
    *extra = (int32_t)(acc - need);
    *shadow = acc >= need ? t : INFINITY;
    return ENG_OK;
}

/* shadow_of with islands: `need` hosts are free when pol_island_pick()
 * places them (in hosts per island): some island has them free, or, for a
 * job larger than every island, the islands together. The extra hosts are
 * those a later packet may hold past the shadow time wherever it goes, as
 * pol_shadow_isl counts them: for a job that fits in one island, the most
 * free beyond `need` in an island that can host it then; for a larger
 * one, all free beyond it. O(p^2 + packets' hosts + p n_islands). */
static int shadow_isl(packet_state *s, const pol_view *v, int32_t need, double *shadow,
                      int32_t *extra)
{
    size_t n;
    if (order_by_end(s, &n))
        return ENG_NOMEM;
    int32_t *cur = s->isl_cur;
    memcpy(cur, s->isl_free, (size_t)s->n_isl * sizeof *cur);
    double t = v->now_s;
    bool found = pol_island_pick(s->n_isl, s->isl_hosts, cur, need) != POL_ISLAND_NONE;
    for (size_t i = 0; i < n; i++) {
        double e = s->ends[i] > v->now_s ? s->ends[i] : v->now_s;
        if (found && e > t)
            break;
        const packet *pk = &s->packets[s->end_pkt[i]];
        for (int32_t h = 0; h < pk->n_hosts; h++)
            cur[v->hosts[pk->hosts[h]].island]++;
        if (!found && pol_island_pick(s->n_isl, s->isl_hosts, cur, need) != POL_ISLAND_NONE) {
            found = true;
            t = e;
        }
    }
    *shadow = found ? t : INFINITY;
    *extra = 0;
    if (!found)
        return ENG_OK;
    int64_t ex = 0, total = 0;
    for (int32_t k = 0; k < s->n_isl; k++) {
        total += cur[k];
        if (need <= s->largest_isl && cur[k] >= need && cur[k] - need > ex)
            ex = cur[k] - need;
    }
    *extra = (int32_t)(need <= s->largest_isl ? ex : total - need);
    return ENG_OK;
}

/* Takes the k hosts of a new packet from the free ones (free_pos, in name
 * order) into hosts: the lowest-named; with islands, those of the island
 * pol_island_pick() chooses for k hosts (best fit), or, for a packet
 * larger than every island, island by island as the engine spans
 * (pol_island_take), each island's lowest-named first. */
static int take_hosts(packet_state *s, const pol_view *v, int32_t k, int32_t *hosts, size_t *n_free)
{
    if (s->n_isl == 0) {
        memcpy(hosts, s->free_pos, (size_t)k * sizeof *hosts);
        memmove(s->free_pos, s->free_pos + k, (*n_free - (size_t)k) * sizeof *s->free_pos);
        *n_free -= (size_t)k;
        return ENG_OK;
    }
    int32_t pick = pol_island_pick(s->n_isl, s->isl_hosts, s->isl_free, k);
    if (pick == POL_ISLAND_NONE || (pick == POL_ISLAND_SPAN) != (k > s->largest_isl))
        return ENG_INVARIANT; /* offer() sized the packet to what is free */
    int32_t got = 0;
    for (int32_t isl = pick >= 0 ? pick : 0; got < k && isl < s->n_isl; isl++) {
        size_t kept = 0;
        for (size_t i = 0; i < *n_free; i++) {
            int32_t h = s->free_pos[i];
            if (got < k && v->hosts[h].island == isl) {
                hosts[got++] = h;
                s->isl_free[isl]--;
            } else {
                s->free_pos[kept++] = h;
            }
        }
        *n_free = kept;
        if (pick >= 0)
            break;
    }
    return got == k ? ENG_OK : ENG_INVARIANT;
}

/* Opens a packet of m members from q on k of the free hosts. */
static int open_packet(packet_state *s, const pol_view *v, pol_out *out, type_queue *q, size_t m,
                       int32_t k, size_t *n_free)
/* members are s->pick[0..m) */
{
    if (eng_grow(&s->packets, &s->cap_packets, s->n_packets + 1, sizeof *s->packets))
        return ENG_NOMEM;
    packet *pk = &s->packets[s->n_packets];
    memset(pk, 0, sizeof *pk);
    pk->members = malloc(m * sizeof *pk->members);
    pk->hosts = malloc((size_t)k * sizeof *pk->hosts);
    if (!pk->members || !pk->hosts) {
        free_packet(pk);
        return ENG_NOMEM;
    }
    int rc = take_hosts(s, v, k, pk->hosts, n_free);
    if (rc) {
        free_packet(pk);
        return rc;
    }
    memcpy(pk->members, s->pick, m * sizeof *pk->members);
    for (size_t i = 0; i < m; i++) {
        s->assigned[pk->members[i]] = 1;
        if (pk->members[i] == s->reserved)
            s->reserved = -1;
    }
    q->live -= m;
    trim(s, q);
    pk->n_members = m;
    pk->first = pk->members[0];
    pk->n_hosts = k;
    for (int32_t h = 0; h < k; h++)
        pk->units += v->alloc == POL_ALLOC_NODE ? 1 : v->hosts[pk->hosts[h]].cores;
    s->n_packets++;
    return continue_packet(s, v, out, s->n_packets - 1);
}

/* Weighs the queues that have waiting jobs and orders them into
 * s->order[0..*n). */
static int weigh_queues(packet_state *s, const pol_view *v, size_t *n)
{
    size_t waiting = 0, n_order = 0;
    double max_age = 0;
    *n = 0;
    for (size_t t = 0; t < s->n_types; t++) {
        type_queue *q = &s->types[t];
        trim(s, q);
        if (q->live == 0)
            continue;
        waiting += q->live;
        const pol_job *head = pol_queue_find(v, q->jobs[q->head]);
        if (!head)
            return ENG_INVARIANT;
        double age = v->now_s - head->submit_s;
        if (age > max_age)
            max_age = age;
    }
    if (waiting == 0)
        return ENG_OK;
    if (eng_grow(&s->order, &s->cap_order, s->n_types, sizeof *s->order))
        return ENG_NOMEM;
    for (size_t t = 0; t < s->n_types; t++) {
        type_queue *q = &s->types[t];
        if (q->live == 0)
            continue;
        double age = v->now_s - pol_queue_find(v, q->jobs[q->head])->submit_s;
        q->weight = s->size_weight * (double)q->live / (double)waiting +
                    s->age_weight * (max_age > 0 ? age / max_age : 0);
        s->order[n_order++] = t;
    }
    order_types(s, v, n_order);
    *n = n_order;
    return ENG_OK;
}

/* mode=easy: the reserved job starts its packet as soon as it fits;
 * otherwise its shadow time (and the hosts free then beyond its need) is
 * computed and promised, so the checker holds the policy to it. The
 * reservation stays with its job until that job starts, whatever the
 * weights do meanwhile: packets formed later end by the shadow time or use
 * only the extra hosts, so the shadow time never moves later. */
static int reservation(packet_state *s, const pol_view *v, pol_out *out, size_t *n_free,
                       double *shadow, int32_t *extra)
{
    *shadow = INFINITY;
    *extra = 0;
    if (s->reserved < 0)
        return ENG_OK;
    const pol_job *j = pol_queue_find(v, s->reserved);
    if (!j || s->assigned[j->idx]) {
        s->reserved = -1; /* started, or left the queue */
        return ENG_OK;
    }
    int32_t need = job_nodes(v, j, s->min_cores);
    if (need <= avail_for(s, need, *n_free)) {
        type_queue *q = queue_of(s, j->type);
        size_t m;
        int32_t k;
        int rc;
        if (!q)
            return ENG_NOMEM;
        if ((rc = choose_members(s, v, q, j->idx, (int32_t)*n_free, INFINITY, 0, &m, &k)))
            return rc;
        if (m == 0)
            return ENG_INVARIANT;                       /* it fits, so it joins */
        return open_packet(s, v, out, q, m, k, n_free); /* clears s->reserved */
    }
    int rc = s->n_isl ? shadow_isl(s, v, need, shadow, extra)
                      : shadow_of(s, v, (int32_t)*n_free, need, shadow, extra);
    if (rc)
        return rc;
    if (isfinite(*shadow))
        pol_out_promise(out, j, *shadow);
    return ENG_OK;
}

static int packet_schedule(void *state, const pol_view *v, pol_out *out)
{
    packet_state *s = state;
    int rc = ENG_OK; /* mode=greedy and select=block may form no packet */
    int32_t min_cores = INT32_MAX;
    for (size_t h = 0; h < v->n_hosts; h++)
        if (v->hosts[h].cores < min_cores)
            min_cores = v->hosts[h].cores;
    s->min_cores = min_cores;
    memset(s->busy, 0, s->n_hosts);

    /* 1. Running packets whose member has just ended go on (or end);
     *    their hosts stay theirs. */
    for (size_t p = 0; p < s->n_packets;) {
        packet *pk = &s->packets[p];
        if (!pk->running && pk->next < pk->n_members) {
            rc = packet_hosts_ok(pk, v) ? continue_packet(s, v, out, p) : dissolve(s, v, pk);
            if (rc)
                return rc;
        }
        if (!pk->running && pk->next == pk->n_members) {
            free_packet(pk);
            s->packets[p] = s->packets[--s->n_packets];
            /* the moved packet's running member points to its new index */
            if (p < s->n_packets) {
                packet *moved = &s->packets[p];
                if (moved->running)
                    s->job_packet[moved->members[moved->next - 1]] = (int32_t)p;
            }
            continue;
        }
        for (int32_t k = 0; k < pk->n_hosts; k++)
            s->busy[pk->hosts[k]] = 1;
        p++;
    }

    /* 2. Free hosts, lowest names first. */
    if (eng_grow(&s->free_pos, &s->cap_free, v->n_hosts + 1, sizeof *s->free_pos))
        return ENG_NOMEM;
    size_t n_free = 0;
    for (size_t h = 0; h < v->n_hosts; h++)
        if (!s->busy[h] && v->hosts[h].free_cores == v->hosts[h].cores)
            s->free_pos[n_free++] = (int32_t)h;
    if (s->n_isl > 0) {
        memset(s->isl_free, 0, (size_t)s->n_isl * sizeof *s->isl_free);
        for (size_t i = 0; i < n_free; i++)
            s->isl_free[v->hosts[s->free_pos[i]].island]++;
    }

    /* 3. Packets while hosts are free and jobs fit: each round weighs the
     *    queues afresh (the last packet shrank its queue) and forms one
     *    packet. */
    double shadow = INFINITY;
    int32_t extra = 0;
    bool easy = s->paper ? s->select == SELECT_BACKFILL : s->mode == MODE_EASY;
    if (easy && (rc = reservation(s, v, out, &n_free, &shadow, &extra)))
        return rc;
    for (;;) {
        size_t n_order;
        if (n_free == 0 || (rc = weigh_queues(s, v, &n_order)) || n_order == 0)
            break;
        bool formed = false;
        for (size_t i = 0; i < n_order && !formed; i++) {
            type_queue *q = &s->types[s->order[i]];
            const pol_job *head = pol_queue_find(v, q->jobs[q->head]);
            if (!head)
                return ENG_INVARIANT;
            int32_t head_nodes = job_nodes(v, head, min_cores);
            bool head_fits = head_nodes <= avail_for(s, head_nodes, n_free);
            if (easy && s->reserved < 0 && !head_fits) {
                s->reserved = head->idx; /* held until it starts */
                if ((rc = reservation(s, v, out, &n_free, &shadow, &extra)))
                    return rc;
            }
            if (s->paper && !head_fits) {
                if (s->select == SELECT_BLOCK)
                    break; /* the top queue's packet waits; nothing passes it */
                continue;  /* its packet starts with its head: the next queue */
            }
            size_t m;
            int32_t k;
            rc = choose_members(s, v, q, s->paper ? head->idx : -1, (int32_t)n_free, shadow, extra,
                                &m, &k);
            if (rc)
                return rc;
            if (m == 0) {
                if (s->paper && s->select == SELECT_BLOCK)
                    break;
                continue;
            }
            if (isfinite(shadow)) {
                const pol_job *first = pol_queue_find(v, s->pick[0]);
                double end = v->now_s + first->init_s + span_on(v, s->pick, m, k, min_cores);
                if (end > shadow)
                    extra -= k;
            }
            if ((rc = open_packet(s, v, out, q, m, k, &n_free)))
                return rc;
            formed = true;
        }
        if (!formed)
            break;
    }
    if (rc)
        return rc;
    return out->oom ? ENG_NOMEM : ENG_OK;
}

const pol_type pol_packet = {
    .name = "packet",
    .summary = "bundles same-type jobs into packets that pay the initialization once",
    .citation = "Baranov & Lyakhovets 2022",
    .flags = POL_FLAG_ISLANDS | POL_FLAG_REPLANS | POL_FLAG_CORES | POL_FLAG_ISLANDS_CORES,
    .state_size = sizeof(packet_state),
    .options = packet_options,
    .init = packet_init,
    .fini = packet_fini,
    .on_submit = packet_on_submit,
    .on_finish = packet_on_finish,
    .schedule = packet_schedule,
};
