/* study_main.c — the program `batchlab-study NAME [options]`: dispatches to
 * the study NAME (study.h), or lists the studies. A stop signal (SIGINT,
 * SIGTERM, SIGHUP) removes the output files being written and exits
 * 128 + N, as the command line does.
 */
#include "study.h"

#include "cli_args.h"

#include "eng_util.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
} studies[] = {
#define STUDY(name) {#name, study_##name, study_##name##_summary},
#include "study_table.h"
#undef STUDY
    {NULL, NULL, NULL},
};

static void on_stop(int sig)
{
    eng_afile_unlink_all();
    _exit(128 + sig);
}

static void install_stop_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

int main(int argc, char **argv)
{
    install_stop_handlers();
    bl_args_set_program("batchlab-study");
    const char *name = argc > 1 ? argv[1] : NULL;
    if (!name || strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        FILE *f = name ? stdout : stderr;
        fprintf(f, "usage: batchlab-study NAME [options]   (batchlab-study NAME --help)\n\n"
                   "Reproductions of the papers' standalone experiments:\n");
        for (size_t i = 0; studies[i].name; i++)
            fprintf(f, "  %-14s %s\n", studies[i].name, studies[i].summary);
        return name ? 0 : 2;
    }
    for (size_t i = 0; studies[i].name; i++)
        if (strcmp(name, studies[i].name) == 0)
            return studies[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "batchlab-study: unknown study '%s' (valid:", name);
    for (size_t i = 0; studies[i].name; i++)
        fprintf(stderr, " %s", studies[i].name);
    fprintf(stderr, ")\n");
    return 2;
}
