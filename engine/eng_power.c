/* eng_power.c — the power properties of a host read into its model
 * (eng_power.h). Pure C: eng_sim.c extracts the property strings and the
 * pstates' speeds from SimGrid, eng_platform.c calls this per host. */
#include "eng_power.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One pstate's watts. */
typedef struct pstate_w {
    double idle, epsilon, all;
} pstate_w;

bool eng_power_props_any(const eng_power_props *p)
{
    return p->wattage_per_state || p->wattage_off || p->switch_off_s || p->switch_off_w ||
           p->switch_on_s || p->switch_on_w || p->watt_per_state || p->watt_off || p->sleep_pstates;
}

/* A number >= 0 from s up to end (spaces around allowed). */
static bool parse_nonneg(const char *s, const char *end, double *out)
{
    while (s < end && *s == ' ')
        s++;
    while (end > s && end[-1] == ' ')
        end--;
    if (s == end || end - s > 63)
        return false;
    char buf[64];
    memcpy(buf, s, (size_t)(end - s));
    buf[end - s] = '\0';
    errno = 0;
    char *stop;
    double v = strtod(buf, &stop);
    if (stop == buf || *stop || errno || !isfinite(v) || v < 0)
        return false;
    *out = v;
    return true;
}

/* "Idle:Epsilon:AllCores" or "Idle:AllCores" from s to end. */
static bool parse_entry(const char *s, const char *end, pstate_w *w)
{
    double v[3];
    int n = 0;
    for (const char *p = s;; n++) {
        const char *colon = memchr(p, ':', (size_t)(end - p));
        const char *stop = colon ? colon : end;
        if (n == 3 || !parse_nonneg(p, stop, &v[n]))
            return false;
        if (!colon) {
            n++;
            break;
        }
        p = colon + 1;
    }
    if (n == 2)
        *w = (pstate_w){v[0], v[0], v[1]};
    else if (n == 3)
        *w = (pstate_w){v[0], v[1], v[2]};
    else
        return false;
    return true;
}

/* The list of text into w (n entries expected); false if it does not parse
 * or counts another number of entries. */
static bool parse_list(const char *text, int32_t n, pstate_w *w)
{
    int32_t k = 0;
    for (const char *p = text;; k++) {
        const char *comma = strchr(p, ',');
        const char *stop = comma ? comma : p + strlen(p);
        if (k >= n || !parse_entry(p, stop, &w[k]))
            return false;
        if (!comma)
            break;
        p = comma + 1;
    }
    return k + 1 == n;
}

static int bad(eng_diag *d, const char *path, const char *host, const char *prop,
               const char *expected, const char *got)
{
    return eng_diag_set(d, ENG_PLATFORM, "%s: host %s: property %s: expected %s, got '%s'", path,
                        host, prop, expected, got);
}

/* A non-negative number property (watts or seconds) into *out, if given. */
static int read_num(const char *path, const char *host, const char *prop, const char *text,
                    const char *what, double *out, eng_diag *d)
{
    if (!text)
        return ENG_OK;
    if (!parse_nonneg(text, text + strlen(text), out))
        return bad(d, path, host, prop, what, text);
    return ENG_OK;
}

/* Batsim's sleep_pstates: the first "S:OFF:ON" triplet (each triplet is
 * checked) into s, off, on. */
static int read_sleep(const char *path, const char *host, const char *text, int32_t pstate,
                      int32_t n_pstates, int32_t trip[3], eng_diag *d)
{
    static const char expected[] = "comma-separated 'S:OFF:ON' triplets of pstate numbers "
                                   "(sleep, switching off, switching on), none of them the "
                                   "host's current pstate";
    int k = 0;
    for (const char *p = text;; k++) {
        int32_t v[3];
        for (int i = 0; i < 3; i++) {
            errno = 0;
            char *stop;
            long x = strtol(p, &stop, 10);
            while (*stop == ' ')
                stop++;
            bool last = i == 2;
            if (stop == p || errno || x < 0 || x >= n_pstates || x == pstate ||
                (!last && *stop != ':') || (last && *stop && *stop != ','))
                return bad(d, path, host, "sleep_pstates", expected, text);
            v[i] = (int32_t)x;
            p = stop + (*stop ? 1 : 0);
        }
        if (k == 0)
            memcpy(trip, v, sizeof v);
        if (!*p && p[-1] != ',')
            break;
        if (!*p)
            return bad(d, path, host, "sleep_pstates", expected, text);
    }
    return ENG_OK;
}

/* Which form a host's properties take; mixing them is an error. */
static int check_form(const char *path, const char *host, const eng_power_props *p, eng_diag *d)
{
    const char *simgrid = p->wattage_per_state ? "wattage_per_state"
                          : p->wattage_off     ? "wattage_off"
                          : p->switch_off_s    ? "switch_off_s"
                          : p->switch_off_w    ? "switch_off_w"
                          : p->switch_on_s     ? "switch_on_s"
                          : p->switch_on_w     ? "switch_on_w"
                                               : NULL;
    const char *batsim = p->watt_per_state  ? "watt_per_state"
                         : p->watt_off      ? "watt_off"
                         : p->sleep_pstates ? "sleep_pstates"
                                            : NULL;
    if (simgrid && batsim)
        return eng_diag_set(d, ENG_PLATFORM,
                            "%s: host %s: property %s: SimGrid's power properties "
                            "(wattage_per_state, wattage_off, switch_*) and Batsim's "
                            "(watt_per_state, watt_off, sleep_pstates) are two forms of one "
                            "model; give one, not both (this host also has %s)",
                            path, host, batsim, simgrid);
    if (!p->wattage_per_state && !p->watt_per_state)
        return eng_diag_set(d, ENG_PLATFORM,
                            "%s: host %s: property %s: expected it with the host's watts per "
                            "pstate (%s), which are missing",
                            path, host, simgrid ? simgrid : batsim,
                            simgrid ? "wattage_per_state" : "watt_per_state");
    return ENG_OK;
}

int eng_power_read(const char *path, const char *host, const eng_power_props *props, int32_t pstate,
                   int32_t n_pstates, const double *pstate_speeds, int32_t sg_cores, eng_power *out,
                   eng_diag *d)
{
    memset(out, 0, sizeof *out);
    if (!eng_power_props_any(props))
        return ENG_OK;
    int rc = check_form(path, host, props, d);
    if (rc)
        return rc;
    if (n_pstates < 1 || !pstate_speeds)
        n_pstates = 1;
    if (pstate < 0 || pstate >= n_pstates)
        pstate = 0;
    bool batsim = props->watt_per_state != NULL;
    const char *list = batsim ? props->watt_per_state : props->wattage_per_state;
    const char *name = batsim ? "watt_per_state" : "wattage_per_state";
    pstate_w *w = malloc((size_t)n_pstates * sizeof *w);
    if (!w)
        return eng_diag_set(d, ENG_NOMEM, "%s: out of memory", path);
    if (!parse_list(list, n_pstates, w)) {
        char expected[200];
        snprintf(expected, sizeof expected,
                 "%d comma-separated 'Idle:Epsilon:AllCores' (or 'Idle:AllCores') entries of "
                 "watts >= 0, one per pstate",
                 n_pstates);
        free(w);
        return bad(d, path, host, name, expected, list);
    }
    out->on = true;
    out->idle_w = w[pstate].idle;
    out->epsilon_w = w[pstate].epsilon;
    out->all_cores_w = w[pstate].all;
    const char *off_name = batsim ? "watt_off" : "wattage_off";
    rc = read_num(path, host, off_name, batsim ? props->watt_off : props->wattage_off, "watts >= 0",
                  &out->off_w, d);
    out->sleep_w = out->off_w;
    if (rc == ENG_OK && batsim && props->sleep_pstates) {
        int32_t t[3] = {0, 0, 0};
        rc = read_sleep(path, host, props->sleep_pstates, pstate, n_pstates, t, d);
        for (int i = 1; rc == ENG_OK && i < 3; i++)
            if (!(pstate_speeds[t[i]] > 0))
                rc = bad(d, path, host, "sleep_pstates",
                         "virtual pstates (switching off, on) of a speed > 0",
                         props->sleep_pstates);
        if (rc == ENG_OK) {
            /* one flop on one core, as Batsim executes it */
            int32_t c = sg_cores > 0 ? sg_cores : 1;
            out->sleep_w = w[t[0]].idle;
            out->switch_off_s = 1.0 / pstate_speeds[t[1]];
            out->switch_off_w = w[t[1]].epsilon + (w[t[1]].all - w[t[1]].epsilon) / c;
            out->switch_on_s = 1.0 / pstate_speeds[t[2]];
            out->switch_on_w = w[t[2]].epsilon + (w[t[2]].all - w[t[2]].epsilon) / c;
        }
    }
    free(w);
    if (rc == ENG_OK)
        rc = read_num(path, host, "switch_off_s", props->switch_off_s, "seconds >= 0",
                      &out->switch_off_s, d);
    if (rc == ENG_OK)
        rc = read_num(path, host, "switch_off_w", props->switch_off_w, "watts >= 0",
                      &out->switch_off_w, d);
    if (rc == ENG_OK)
        rc = read_num(path, host, "switch_on_s", props->switch_on_s, "seconds >= 0",
                      &out->switch_on_s, d);
    if (rc == ENG_OK)
        rc = read_num(path, host, "switch_on_w", props->switch_on_w, "watts >= 0",
                      &out->switch_on_w, d);
    if (rc)
        memset(out, 0, sizeof *out);
    return rc;
}
