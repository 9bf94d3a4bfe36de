/* cli_plot_gp.c — the gnuplot helpers that a run's figures (cli_plot_run.c)
 * and a sweep's (cli_plot_loads.c) share (declared in cli_plot_impl.h):
 * running gnuplot on a script, and writing its terminals and strings. They
 * call nothing of `batchlab plot` back.
 */
#include "cli_plot_impl.h"
#include "eng_util.h"

#include <errno.h>
#include <math.h>
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

static void steps_row(FILE *f, double t, const double *v, int k)
{
    char num[40];
    fputs(eng_fmt_double(num, sizeof num, t), f);
    for (int c = 0; c < k; c++)
        fprintf(f, " %s", eng_fmt_double(num, sizeof num, v[c]));
    fputc('\n', f);
}

void bl_plot_steps_write(FILE *f, const bl_step_pt *p, size_t n, int k, double lo, double hi,
                         double bin_s, double div)
{
    size_t drawn = 0;
    if (bin_s <= 0) {
        size_t before = n, last = n;
        for (size_t i = 0; i < n && p[i].t_s <= hi; i++) {
            before = p[i].t_s < lo ? i : before;
            last = i;
        }
        for (size_t i = before < n ? before : 0; i < n; i++) {
            double t = p[i].t_s;
            if (i == before && (i + 1 == n || p[i + 1].t_s > lo))
                t = lo; /* holds at the window's start */
            else if (t < lo || t > hi)
                continue;
            steps_row(f, t / div, p[i].v, k);
            drawn++;
        }
        if (last < n && last + 1 < n && p[last].t_s < hi && drawn > 0)
            steps_row(f, hi / div, p[last].v, k);
    } else if (n > 1) {
        double first = fmax(lo, p[0].t_s), last = fmin(hi, p[n - 1].t_s);
        size_t i = 0;
        for (double b = floor(first / bin_s) * bin_s; b < last; b += bin_s) {
            double b0 = fmax(b, first), b1 = fmin(b + bin_s, last), sum[BL_STEP_VALUES] = {0};
            while (i + 1 < n && p[i + 1].t_s <= b0)
                i++;
            for (size_t j = i; j + 1 < n && p[j].t_s < b1; j++) {
                double s0 = fmax(p[j].t_s, b0), s1 = fmin(p[j + 1].t_s, b1);
                for (int c = 0; s1 > s0 && c < k; c++)
                    sum[c] += p[j].v[c] * (s1 - s0);
            }
            if (b1 > b0) {
                for (int c = 0; c < k; c++)
                    sum[c] /= b1 - b0;
                steps_row(f, b / div, sum, k);
            }
            drawn++;
        }
    }
    if (drawn == 0) {
        fputs("nan", f);
        for (int c = 0; c < k; c++)
            fputs(" nan", f);
        fputc('\n', f);
    }
}

int bl_plot_steps_file(const char *out, const char *in, const char *cols, const bl_step_pt *p,
                       size_t n, int k, double lo, double hi, double bin_s, double div)
{
    eng_diag d;
    eng_diag_clear(&d);
    eng_afile a;
    if (eng_afile_open(&a, out, &d) != ENG_OK) {
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    char num[40];
    if (bin_s > 0)
        fprintf(a.f, "# bin_start %s: time-weighted means over bins of %s s (from %s)\n", cols,
                eng_fmt_double(num, sizeof num, bin_s), in);
    else
        fprintf(a.f, "# time %s (from %s)\n", cols, in);
    bl_plot_steps_write(a.f, p, n, k, lo, hi, bin_s, div);
    if (eng_afile_commit(&a, &d) != ENG_OK) {
        fprintf(stderr, "batchlab plot: %s\n", d.msg);
        return 1;
    }
    return 0;
}
