/* fault_main.c — batchlab_faulty: the command line of tools/batchlab.c with
 * the allocation hook of fault_alloc.c armed from the environment, for
 * trying one failing allocation by hand:
 *
 *   BATCHLAB_FAIL_ALLOC=K    the K-th allocation of batchlab's own code fails
 *   BATCHLAB_FAIL_MARK=FILE  "K PID" is appended to FILE when it does
 */
#include "cli.h"
#include "fault_alloc.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    const char *k = getenv("BATCHLAB_FAIL_ALLOC");
    bl_fault_arm(k ? strtol(k, NULL, 10) : 0, getenv("BATCHLAB_FAIL_MARK"));
    return bl_cli_main(argc, argv);
}
