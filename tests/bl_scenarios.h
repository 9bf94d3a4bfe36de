/* bl_scenarios.h — hand-computed scenarios for the known pitfalls of
 * backfilling implementations: the shadow-time boundary (S1), extra hosts
 * used up by a backfilled job (S2), an early finish and the released tail
 * of its reservation (S3), the walltime kill (S5), the events of one
 * instant applied before a pass (S7), compression leaving running jobs in
 * place (S9), a job larger than the machine (S10), islands (S11); on 4
 * single-core hosts unless noted.
 * Each policy's suite checks its own expected schedule for each; the
 * derivations are written next to the expectations. Rows: {id, submit, run,
 * requested, procs}. */
#ifndef BL_SCENARIOS_H
#define BL_SCENARIOS_H

#include "bl_sched.h"

/* S1 — the shadow-time boundary. J1 holds 2 hosts until 10; J2 needs all 4
 * (shadow 10, no extra host); J3 (2 hosts, 8 s from t=2) ends exactly at
 * the shadow time. */
static const bl_jobspec S1[] = {
    {1, 0, 10, 10, 2, 0},
    {2, 1, 5, 5, 4, 0},
    {3, 2, 8, 8, 2, 0},
};

/* S1b — as S1 but J3 asks for 9 s: one second past the shadow time. */
static const bl_jobspec S1b[] = {
    {1, 0, 10, 10, 2, 0},
    {2, 1, 5, 5, 4, 0},
    {3, 2, 8, 9, 2, 0},
};

/* S2 — extra hosts are used up. J1 holds 2 hosts until 100; J2 needs 3
 * (shadow 100, one extra host); J3 and J4 (1 host, 200 s requested, 150
 * run) arrive together: only one of them may take the extra host. */
static const bl_jobspec S2[] = {
    {1, 0, 100, 100, 2, 0},
    {2, 1, 10, 10, 3, 0},
    {3, 2, 150, 200, 1, 0},
    {4, 2, 150, 200, 1, 0},
};

/* S3 — early finish. J1 asks for 100 s on all hosts but ends at 10; J2 and
 * J3 wait for it. */
static const bl_jobspec S3[] = {
    {1, 0, 10, 100, 4, 0},
    {2, 1, 20, 20, 2, 0},
    {3, 2, 20, 20, 2, 0},
};

/* S5 — walltime. J1 runs 50 s but asked for 30; J2 needs every host. */
static const bl_jobspec S5[] = {
    {1, 0, 50, 30, 2, 0},
    {2, 5, 10, 10, 4, 0},
};

/* S7 — same instant: J1 ends at 10 when J2 and J3 arrive; J2 starts at 10
 * on the hosts J1 frees, J3 (submitted at the same time, later number)
 * after it. */
static const bl_jobspec S7[] = {
    {1, 0, 10, 10, 4, 0},
    {2, 10, 5, 5, 4, 0},
    {3, 10, 5, 5, 4, 0},
};

/* S9 — compression with running jobs. J1 (2 hosts, asks 100, runs 10) and
 * J2 (2 hosts, 50 s) start at 0; J3 needs 4 hosts; J4 needs 2 for 30 s.
 * J1's early end lets queued jobs move; running J2 must not. */
static const bl_jobspec S9[] = {
    {1, 0, 10, 100, 2, 0},
    {2, 0, 50, 50, 2, 0},
    {3, 1, 10, 10, 4, 0},
    {4, 2, 30, 30, 2, 0},
};

/* S10 — a job larger than the machine is dropped at submission and does
 * not block the queue. */
static const bl_jobspec S10[] = {
    {1, 0, 10, 10, 5, 0},
    {2, 1, 10, 10, 1, 0},
};

/* S11 — islands a (a1..a4) and b (b1, b2), whole nodes. J1 takes 3 nodes
 * of a. J2 needs 3: at 1 three nodes are free (a4, b1, b2) but no island
 * has three, so it waits for J1's end at 10 (its shadow time; the extra
 * units then: island a's 4 free beyond 3 = 1). J3 (1 node, 4 s) and the
 * long J4 and J5 (1 node, 20 s) may backfill. */
static const int S11_ISLANDS[] = {4, 2};
static const bl_jobspec S11[] = {
    {1, 0, 10, 10, 3, 0}, {2, 1, 5, 5, 3, 0},   {3, 2, 4, 4, 1, 0},
    {4, 3, 20, 20, 1, 0}, {5, 3, 20, 20, 1, 0},
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

#endif
