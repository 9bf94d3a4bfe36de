/* batchlab.c — the thin executable: everything lives in the library
 * (tools/cli_main.c) so tests run exactly the shipped code. */
#include "cli.h"

int main(int argc, char **argv)
{
    return bl_cli_main(argc, argv);
}
