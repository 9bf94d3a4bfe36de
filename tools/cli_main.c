/* cli_main.c — work in progress. */
#include "cli.h"
#include <stdio.h>
int bl_cli_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "batchlab: not yet\n");
    return 2;
}
