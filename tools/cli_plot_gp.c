/* cli_plot_gp.c — the gnuplot helpers that a run's figures (cli_plot_run.c)
 * and a sweep's (cli_plot_loads.c) share (declared in cli_plot_impl.h):
 * running gnuplot on a script, and writing its terminals and strings. They
 * call nothing of `batchlab plot` back.
 */
#include "cli_plot_impl.h"

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

extern char **environ;

int bl_plot_render(const char *script)
{
    char *argv[] = {"gnuplot", (char *)script, NULL};
    pid_t pid;
    int err = posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ);
    if (err != 0) {
        fprintf(stderr,
                "batchlab plot: gnuplot not found (install gnuplot-nox); the data and "
                "%s are written: run gnuplot %s\n",
                script, script);
        return 1;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "batchlab plot: gnuplot %s failed (exit %d)\n", script,
                WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return 1;
    }
    return 0;
}

void bl_plot_terminal(FILE *f, const char *fmt, int w_px, int h_px, const char *out)
{
    if (strcmp(fmt, "png") == 0) {
        fprintf(f,
                "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
                "    set terminal pngcairo size %d,%d noenhanced font \",10\"\n"
                "} else {\n"
                "    set terminal png size %d,%d noenhanced\n"
                "}\n"
                "set output \"%s\"\n",
                w_px, h_px, w_px, h_px, out);
    } else if (strcmp(fmt, "svg") == 0) {
        fprintf(f,
                "set terminal svg size %d,%d noenhanced font \"sans,11\" background "
                "\"white\"\n"
                "set output \"%s\"\n",
                w_px, h_px, out);
    } else {
        fprintf(f,
                "set terminal pdfcairo size %.1fin,%.1fin noenhanced font \",9\"\n"
                "set output \"%s\"\n",
                w_px / 100.0, h_px / 100.0, out);
    }
}

void bl_plot_gp_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
}
