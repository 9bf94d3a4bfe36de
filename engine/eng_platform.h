/* eng_platform.h — the platform as the scheduler sees it: hosts in name
 * order with their speed, cores, price and queue membership, grouped into
 * pools; built from a SimGrid platform file (eng_sim.c reads it with
 * SimGrid's own loader) or, in tests, from descriptions in memory.
 *
 * batchlab properties (all optional; <prop id="..." value="..."/>):
 *   on a host, or on any zone/cluster around it (the innermost wins):
 *     cores        processors per host as the log counts them (default: the
 *                  host's SimGrid core count). Under --alloc core it may not
 *                  exceed the SimGrid core count.
 *     price_per_s  price of one host-second (default 0)
 *     queues       comma-separated SWF queue numbers (field 15) the host
 *                  serves, e.g. "1" or "0,1,2"
 *     partitions   comma-separated SWF partition numbers (field 16) the
 *                  host serves, in place of queues: a platform routes jobs
 *                  by one field, so hosts name queues or partitions, never
 *                  both kinds (a platform error)
 *     occupation_probability  probability in [0, 1) that the host is taken
 *                  by events outside the simulated jobs at any moment (the
 *                  "global load" of the availability studies); default 0
 *     island       name of the island (a part of the interconnect, e.g. one
 *                  InfiniBand fabric) the host belongs to: 1 to 63 letters,
 *                  digits, '-', '_' or '.'. Within a pool, either every
 *                  host names its island or none does. With --islands
 *                  strict (the default) a job that fits in one island of
 *                  its pool runs within one; a larger job may span islands.
 *     memory       the host's memory: a number with a unit, B, KiB, MiB,
 *                  GiB, TiB (powers of 1024) or kB, MB, GB, TB (powers of
 *                  1000), e.g. "256GiB"; a bare number is bytes. Hosts
 *                  without it have no memory limit. With it, jobs are held
 *                  to SWF field 10 (eng_prep.h, "Memory").
 *   on a host itself (SimGrid's power properties; eng_power.h):
 *     wattage_per_state, wattage_off, switch_off_s, switch_off_w,
 *                  switch_on_s, switch_on_w; or Batsim's watt_per_state,
 *                  watt_off, sleep_pstates. Either every host has power
 *                  values or none has (has_power).
 *   on the platform's root zone:
 *     ref_speed    speed (flop/s per core, SimGrid units accepted: "2.6Gf")
 *                  at which the log's run times were measured; default: the
 *                  speed of the first host in name order.
 *     queue_limits per-queue limits, as a partition's MaxTime and MaxNodes
 *                  in Slurm: entries "QUEUE:KEY=VALUE,KEY=VALUE" separated
 *                  by spaces, KEY max_runtime_s (seconds > 0: the longest
 *                  requested time a job of the queue may ask) or max_nodes
 *                  (the most nodes it may use), each queue once, e.g.
 *                  "1:max_runtime_s=3600,max_nodes=8 3:max_nodes=64". A job
 *                  over its queue's limits is dropped (eng_prep.h: Slurm's
 *                  EnforcePartLimits rejects it at submission), and a job
 *                  with no requested time is given its queue's
 *                  max_runtime_s, as Slurm gives a job without a time limit
 *                  its partition's. Queues not listed have no limit.
 *
 * Pools: hosts with the same `queues` (or `partitions`) value form one pool;
 * hosts without it form the catch-all pool. A job goes to the pool that
 * lists its queue (its partition, with `partitions`), else
 * to the catch-all pool, else it is dropped ("no-pool"). A queue number
 * listed by two different pools is a platform error. Each pool is scheduled
 * by its own policy instance.
 *
 * Islands are numbered per pool in the order of their first host (name
 * order); a pool whose hosts name no island has none (n_islands 0).
 *
 * Host order is natural name order (eng_name_cmp: "n2" before "n10"), never
 * SimGrid's listing order, so every index below is deterministic.
 */
#ifndef ENG_PLATFORM_H
#define ENG_PLATFORM_H

#include "eng_error.h"
#include "eng_power.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A host as a loader describes it (strings borrowed for the call). */
typedef struct eng_host_desc {
    const char *name;
    double speed_flops; /* per core, > 0 */
    int32_t sg_cores;   /* SimGrid's core count, >= 1 */
    const char *cores;  /* property values or NULL */
    const char *price_per_s;
    const char *queues;
    const char *partitions;
    const char *occupation;
    const char *island;
    const char *memory;
    eng_power_props power;       /* power properties (eng_power.h) */
    int32_t pstate;              /* SimGrid's current pstate, of n_pstates */
    int32_t n_pstates;           /* 0: one */
    const double *pstate_speeds; /* n_pstates speeds (flop/s per core), borrowed */
    const eng_power *parsed;     /* a model already read (restore), else NULL */
} eng_host_desc;

typedef struct eng_host {
    char *name;
    double speed_flops;
    int32_t cores;    /* as the scheduler counts them */
    int32_t sg_cores; /* as SimGrid executes them */
    double price_per_s;
    double occupation_prob;
    int32_t pool;
    int32_t island;  /* index among its pool's islands, or -1 (none) */
    double memory_b; /* bytes; 0: no memory given (no limit) */
    eng_power power; /* power.on false when the platform has no power values */
} eng_host;

typedef struct eng_pool {
    char *label;     /* "queues 1,3" or "all queues" ("partitions 1,3"...) */
    int64_t *queues; /* routed SWF queue (or partition) numbers, ascending; none: catch-all */
    size_t n_queues;
    int32_t *hosts; /* platform host indices, ascending (name order) */
    size_t n_hosts;
    int32_t cores_per_node; /* smallest `cores` of its hosts */
    int64_t total_cores;
    double min_speed_flops;
    char **island_names;   /* n_islands names, numbered by first host */
    int32_t *island_hosts; /* hosts per island */
    int64_t *island_cores; /* cores per island */
    int32_t n_islands;     /* 0: its hosts name no island */
    /* Memory (hosts with the memory property only; 0 when none has it):
     * the smallest memory of a host, and the smallest memory per core
     * (memory / cores), which eng_prep plans every job of the pool with. */
    double mem_min_b;
    double mem_per_core_min_b;
} eng_pool;

/* One queue's limits (queue_limits above). */
typedef struct eng_queue_limit {
    int64_t queue;
    double max_runtime_s; /* INFINITY: none */
    int64_t max_nodes;    /* 0: none */
} eng_queue_limit;

typedef struct eng_platform {
    char *path;
    eng_host *hosts; /* name order */
    size_t n_hosts;
    eng_pool *pools; /* ordered by their first host */
    size_t n_pools;
    int32_t catch_all; /* pool index, or -1 */
    bool by_partition; /* pools route SWF field 16 (the hosts' partitions property) */
    double ref_speed_flops;
    bool ref_speed_given;
    int64_t total_cores;
    bool has_power;          /* every host has power values (eng_power.h) */
    eng_queue_limit *limits; /* by queue, ascending; NULL when none */
    size_t n_limits;
    char *limits_text; /* the queue_limits value as given, or NULL */
    bool has_memory;   /* some host has the memory property */
} eng_platform;

/* Builds a platform from host descriptions in any order; ref_speed is the
 * root zone's property value or NULL. Errors (ENG_PLATFORM) name the file
 * and host: "p.xml: host n3: property cores: expected a positive integer,
 * got 'x'". On success *out is new; destroy it with eng_platform_destroy. */
int eng_platform_build(const char *path, const eng_host_desc *hosts, size_t n,
                       const char *ref_speed, eng_platform **out, eng_diag *d);

void eng_platform_destroy(eng_platform *p);

/* Does any pool have two islands or more? */
bool eng_platform_has_islands(const eng_platform *p);

/* Reads the root zone's queue_limits value (NULL: none) into p. Errors
 * (ENG_PLATFORM) name the file and the entry: "p.xml: property
 * queue_limits: entry '1:max_nodes=x': expected ...". */
int eng_platform_set_limits(eng_platform *p, const char *text, eng_diag *d);

/* The limits of SWF queue q, or NULL when it has none. */
const eng_queue_limit *eng_platform_limits(const eng_platform *p, int64_t queue);

/* The pool serving SWF queue q (partition q when p->by_partition), or -1. */
int32_t eng_platform_route(const eng_platform *p, int64_t queue);

/* Writes the platform's hosts and reference speed to f (binary, for a
 * child process to hand a loaded platform to its parent); restore()
 * rebuilds an identical platform. */
int eng_platform_save(FILE *f, const eng_platform *p);
int eng_platform_restore(FILE *f, const char *path, eng_platform **out, eng_diag *d);

/* Parses a speed with SimGrid's units ("2.6Gf", "1e9", "100Mf"); returns
 * false if it is not one. */
bool eng_parse_speed(const char *text, double *flops);

/* Parses a memory size ("256GiB", "64 GB", "1e9"; units as the memory
 * property above) into bytes > 0; false if it is not one. */
bool eng_parse_memory(const char *text, double *bytes);

#endif
