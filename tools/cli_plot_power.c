/* cli_plot_power.c — `batchlab plot RUN_DIR`'s power figure (declared in
 * cli_plot_impl.h, called from cli_plot_run.c, which it calls nothing of):
 * when timeseries.csv has the columns of a platform with power values
 * (power_w and the host-state counts hosts_busy, hosts_idle, hosts_off,
 * hosts_booting, hosts_shutting_down), power.dat ("time power_w busy idle
 * off booting shutting_down", in the series' window, every event instant
 * or the time-weighted means of hourly or daily bins, as series.dat) and
 * the script's part that draws power.png/.pdf: modelled power over time,
 * and the hosts in each state as stacked steps. A file without power_w
 * draws no such figure.
 */
#include "cli_csv.h"
#include "cli_plot_impl.h"
#include "eng_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const power_col[BL_POWER_COLS] = {
    "power_w", "hosts_busy", "hosts_idle", "hosts_off", "hosts_booting", "hosts_shutting_down"};

int bl_plot_power_read(const char *in, bl_step_pt **pts, size_t *n)
{
    *pts = NULL;
    *n = 0;
    FILE *f = fopen(in, "r");
    if (!f) {
        fprintf(stderr, "batchlab plot: %s: cannot open: %s\n", in, strerror(errno));
        return 1;
    }
    char *buf = NULL, *fields[BL_CSV_MAX_FIELDS];
    size_t cap = 0, pcap = 0;
    long line = 0;
    int rc = 0, c_t = -1, c[BL_POWER_COLS];
    while (rc == 0 && getline(&buf, &cap, f) >= 0) {
        line++;
        bl_csv_chomp(buf);
        long nf = bl_csv_split(buf, fields, BL_CSV_MAX_FIELDS);
        if (line == 1) {
            c_t = bl_csv_column(fields, nf, "time_s");
            bool any = false, all = c_t >= 0;
            for (int k = 0; k < BL_POWER_COLS; k++) {
                c[k] = bl_csv_column(fields, nf, power_col[k]);
                any |= c[k] >= 0;
                all &= c[k] >= 0;
            }
            if (!any)
                break; /* no power values: no figure */
            if (!all) {
                fprintf(stderr,
                        "batchlab plot: %s:1: expected the columns time_s, power_w, "
                        "hosts_busy, hosts_idle, hosts_off, hosts_booting, "
                        "hosts_shutting_down together\n",
                        in);
                rc = 1;
            }
            continue;
        }
        int need = c_t;
        for (int k = 0; k < BL_POWER_COLS; k++)
            need = c[k] > need ? c[k] : need;
        bl_step_pt p = {.t_s = 0};
        bool ok = nf > need && bl_csv_num(fields[c_t], &p.t_s);
        for (int k = 0; ok && k < BL_POWER_COLS; k++)
            ok = bl_csv_num(fields[c[k]], &p.v[k]);
        if (!ok) {
            fprintf(stderr,
                    "batchlab plot: %s:%ld: expected numbers in time_s, power_w, hosts_busy, "
                    "hosts_idle, hosts_off, hosts_booting, hosts_shutting_down\n",
                    in, line);
            rc = 1;
        } else if (eng_grow(pts, &pcap, *n + 1, sizeof **pts) != ENG_OK) {
            fprintf(stderr, "batchlab plot: out of memory\n");
            rc = 1;
        } else {
            (*pts)[(*n)++] = p;
        }
    }
    free(buf);
    fclose(f);
    if (rc != 0) {
        free(*pts);
        *pts = NULL;
        *n = 0;
    }
    return rc;
}

int bl_plot_power_write(const char *out, const char *in, const bl_step_pt *p, size_t n, double lo,
                        double hi, double bin_s, double div)
{
    return bl_plot_steps_file(out, in, "power_w busy idle off booting shutting_down", p, n,
                              BL_POWER_COLS, lo, hi, bin_s, div);
}

void bl_plot_power_script(FILE *f, const char *dat, const char *title, const char *how)
{
    fprintf(f, "set lmargin 10\nset multiplot layout 2,1 title "); /* axes aligned */
    bl_plot_gp_str(f, title);
    fprintf(f, "\nset title \"modelled power%s\"\nset ylabel \"W\"\nset yrange [0:*]\n", how);
    fprintf(f, "plot ");
    bl_plot_gp_str(f, dat);
    fprintf(f, " using 1:2 with steps lw 1.5 lc rgb \"#c0392b\" notitle\n");
    fprintf(f,
            "set title \"hosts by state%s, stacked\"\nset ylabel \"hosts\"\n"
            "set key outside top center horizontal\n",
            how);
    /* Stacked: each state drawn as the sum of it and those below it, the
     * top first so that the lower ones cover it. */
    static const struct {
        const char *name, *rgb;
    } st[] = {{"busy", "#2e86c1"},
              {"idle", "#58d68d"},
              {"off", "#7f8c8d"},
              {"booting", "#f5b041"},
              {"shutting down", "#af7ac5"}};
    fprintf(f, "plot ");
    for (int k = 4; k >= 0; k--) {
        bl_plot_gp_str(f, dat);
        fprintf(f, " using 1:(");
        for (int j = 0; j <= k; j++)
            fprintf(f, "%s$%d", j ? "+" : "", 3 + j);
        fprintf(f,
                ") with fillsteps lc rgb \"%s\" fs solid 1.0 border lc rgb \"%s\" title "
                "\"%s\"%s",
                st[k].rgb, st[k].rgb, st[k].name, k ? ", \\\n     " : "\n");
    }
    fprintf(f, "unset multiplot\nset yrange [*:*]\nset key default\nset lmargin -1\n");
}
