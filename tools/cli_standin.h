/* cli_standin.h — stand-ins for real logs that cannot be shipped: synthetic
 * workloads shaped like a machine's log, documented as stand-ins in their
 * SWF header. `batchlab standin forhlr2` writes one; the sweep builds them
 * per seed.
 */
#ifndef BL_CLI_STANDIN_H
#define BL_CLI_STANDIN_H

#include "eng_error.h"
#include "eng_swf.h"

#include <stddef.h>

/* ForHLR II (platforms/forhlr2.xml, queue 1): 1152 nodes of 20 cores. */
#define BL_FORHLR2_NODES 1152
#define BL_FORHLR2_CORES_PER_NODE 20
#define BL_FORHLR2_QUEUE 1

/* The ForHLR II stand-in: n_jobs jobs of the Lublin-Feitelson batch class
 * (Lublin & Feitelson 2003) fitted to 1152 nodes, each job whole nodes of 20
 * cores (fields 5 and 8 = 20 x nodes), queue 1 (field 15), requested times
 * rounded up to the usual walltimes, numbered 1..n_jobs; arrivals as the
 * model draws them (rescale with eng_scale_to_load). Same seed, same jobs.
 * On success *out is a new workload the caller destroys; ENG_RANGE when
 * n_jobs is 0, ENG_NOMEM. */
int bl_standin_forhlr2(size_t n_jobs, unsigned long seed, eng_workload **out, eng_diag *d);

/* `batchlab standin MACHINE ...` (registered in cli_main.c). */
int bl_cmd_standin(int argc, char **argv);

#endif
