/* eng_power.h — a host's power model, read from the power properties of a
 * SimGrid platform in SimGrid's own terms (the host energy plugin of
 * SimGrid 3.32, src/plugins/host_energy.cpp; its model: Heinrich, Cornebize,
 * Degomme, Legrand, Carpen-Amarie, Hunold, Orgerie, Quinson 2017, "Predicting
 * the energy consumption of MPI applications at scale using a single node",
 * IEEE Cluster), or in the form Batsim's energy platforms use (Dutot,
 * Mercier, Poquet, Richard 2016, "Batsim: a realistic language-independent
 * resources and jobs management systems simulator", JSSPP).
 *
 * Properties, read from the host itself as SimGrid's plugin reads them (a
 * <cluster>'s <prop> is every host's; a <zone>'s is not):
 *   SimGrid's form
 *     wattage_per_state  per pstate "Idle:Epsilon:AllCores" (or
 *                        "Idle:AllCores", Epsilon = Idle) watts, pstates
 *                        separated by commas, as many as the host's speeds
 *     wattage_off        watts while switched off (default 0)
 *     switch_off_s, switch_off_w, switch_on_s, switch_on_w (batchlab's own)
 *                        how long switching off and on takes and the watts
 *                        drawn meanwhile (default 0; SimGrid switches
 *                        instantly)
 *   Batsim's form (its platforms load unchanged)
 *     watt_per_state, watt_off  the same lists under SimGrid's former names
 *     sleep_pstates      "S:OFF:ON" triplets, comma-separated: pstate S is a
 *                        sleep state, OFF and ON virtual pstates in which
 *                        switching off and on executes one flop, so that
 *                        switching takes 1 / speed(OFF or ON) seconds at the
 *                        watts SimGrid gives one busy core in that pstate;
 *                        the host sleeps at S's Idle watts. batchlab uses the
 *                        first triplet.
 * A host mixing the two forms (say wattage_per_state and sleep_pstates) is
 * an error, as are negative watts or durations, a list that does not parse,
 * a count of entries other than the host's pstates, and a current pstate
 * that is a sleep or virtual one.
 *
 * The model, at the host's current pstate (SimGrid's `pstate` attribute):
 *   nothing runs       Idle
 *   k of c cores busy  Epsilon + k / c x (AllCores - Epsilon), k > 0
 *   down or off        wattage_off
 * where c is the host's cores as the scheduler counts them (the cores
 * property, by default SimGrid's core count). Under node allocation a busy
 * host has all its cores busy. The power is constant between two events:
 * energy is exact integration, no sampling.
 */
#ifndef ENG_POWER_H
#define ENG_POWER_H

#include "eng_error.h"

#include <stdbool.h>
#include <stdint.h>

/* The property values of one host (borrowed; NULL when absent). */
typedef struct eng_power_props {
    const char *wattage_per_state, *wattage_off;
    const char *switch_off_s, *switch_off_w, *switch_on_s, *switch_on_w;
    const char *watt_per_state, *watt_off, *sleep_pstates;
} eng_power_props;

/* A host's power model at its current pstate; all watts and seconds >= 0. */
typedef struct eng_power {
    bool on;            /* the host has power values */
    double idle_w;      /* nothing runs */
    double epsilon_w;   /* something runs, at load 0 */
    double all_cores_w; /* every core busy */
    double off_w;       /* down after a failure, or switched off by SimGrid */
    double sleep_w;     /* switched off by the scheduler (later: idle shutdown) */
    double switch_off_s, switch_off_w;
    double switch_on_s, switch_on_w;
} eng_power;

/* Does the host carry any power property? */
bool eng_power_props_any(const eng_power_props *p);

/* Reads props for host `host` of platform file `path`, whose current
 * pstate is `pstate` of n_pstates (speeds in pstate_speeds, flop/s; NULL
 * with n_pstates <= 1 means one pstate). *out->on is false when the host
 * has no power property. ENG_PLATFORM with "PATH: host H: property P: ...". */
int eng_power_read(const char *path, const char *host, const eng_power_props *props, int32_t pstate,
                   int32_t n_pstates, const double *pstate_speeds, int32_t sg_cores, eng_power *out,
                   eng_diag *d);

/* The watts of an up host with busy of its cores cores taken. */
static inline double eng_power_watts(const eng_power *p, int32_t busy, int32_t cores)
{
    if (busy <= 0)
        return p->idle_w;
    return p->epsilon_w + (double)busy / (double)cores * (p->all_cores_w - p->epsilon_w);
}

#endif
