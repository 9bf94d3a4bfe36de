/* eng_standin.h — stand-ins for real logs that cannot be shipped:
 * synthetic workloads shaped like a machine's log, documented as stand-ins
 * in their SWF header (eng_standin.c). `batchlab standin forhlr2` writes
 * one; a sweep draws one per seed.
 */
#ifndef ENG_STANDIN_H
#define ENG_STANDIN_H

#include "eng_error.h"
#include "eng_swf.h"

#include <stddef.h>

/* ForHLR II (platforms/forhlr2.xml, queue 1): 1152 nodes of 20 cores. */
#define ENG_FORHLR2_NODES 1152
#define ENG_FORHLR2_CORES_PER_NODE 20
#define ENG_FORHLR2_QUEUE 1

/* The ForHLR II stand-in: n_jobs jobs of the Lublin-Feitelson batch class
 * (Lublin & Feitelson 2003) fitted to 1152 nodes, each job whole nodes of 20
 * cores (fields 5 and 8 = 20 x nodes), queue 1 (field 15), requested times
 * rounded up to the usual walltimes, numbered 1..n_jobs. Arrivals as the
 * model draws them when load is 0; with load > 0 the inter-arrival times
 * are rescaled to that computed load on 1152 x 20 cores (eng_scale_to_load)
 * and a "scale: " note says by how much. Same seed, same jobs. On success
 * *out is a new workload the caller destroys; otherwise *out is NULL and
 * the error is ENG_RANGE (n_jobs 0, or a load the arrivals cannot reach),
 * ENG_NOMEM. */
int eng_standin_forhlr2(size_t n_jobs, unsigned long seed, double load, eng_workload **out,
                        eng_diag *d);

#endif
