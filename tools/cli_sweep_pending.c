/* cli_sweep_pending.c — `batchlab sweep pending TASKS`: the task lines
 * whose run has no summary.json yet.
 */
#include "cli_sweep.h"

#include "eng_util.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* sweep pending                                                       */

int bl_sweep_pending(int argc, char **argv)
{
    if (argc == 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
        printf("usage: batchlab sweep pending TASKS\n\n"
               "Prints the lines of a task list whose run is not finished (no summary.json in\n"
               "its --out folder), in order: the input of a resumed GNU parallel run.\n");
        return 0;
    }
    if (argc != 3 || argv[2][0] == '-') {
        fprintf(stderr, "batchlab sweep pending: expected one task list (see batchlab sweep "
                        "pending --help)\n");
        return 2;
    }
    char **lines = NULL;
    size_t n = 0;
    eng_diag d;
    eng_diag_clear(&d);
    if (bl_sweep_read_lines(argv[2], &lines, &n, &d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep pending: %s\n", d.msg);
        return 1;
    }
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        char *out = bl_task_out_dir(lines[i]);
        if (!out) {
            if (rc == 0)
                fprintf(stderr,
                        "batchlab sweep pending: %s:%zu: expected a task line with "
                        "--out DIR\n",
                        argv[2], i + 1);
            rc = 1;
            continue;
        }
        char *summary = eng_asprintf("%s/summary.json", out);
        if (summary && !bl_sweep_file_exists(summary))
            printf("%s\n", lines[i]);
        free(summary);
        free(out);
    }
    for (size_t i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
    return rc;
}
