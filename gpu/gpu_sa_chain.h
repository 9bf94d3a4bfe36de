/* gpu_sa_chain.h — the entry points of one annealing chain
 * (gpu_sa_chain.c) for the C files of gpu/ and the tests: the energies, the
 * reference decoders, the acceptance rule and a whole chain. Internal to
 * gpu/. The CUDA backend compiles gpu_sa_chain.c into its own translation
 * unit instead, so this header is C only.
 */
#ifndef GPU_SA_CHAIN_H
#define GPU_SA_CHAIN_H

#if defined(__CUDACC__)
#error "gpu_sa_cuda.cu compiles gpu_sa_chain.c itself; this header is for C files"
#endif

#include "gpu_sa_layout.h"

/* E1 and, when r->e2_ok, E2 of a decoding into e->e1, e->e2_fixed and the
 * run's e->energy. */
void gsa_energies(const gsa_prob *p, const gsa_run *r, gsa_eval *e);

/* Writes every file's initial mirrors into a grid workspace (once per
 * workspace; each decoding resets only the counts). */
void gsa_copies_init(const gsa_prob *p, gsa_ws *w);

/* Decodes a candidate from scratch with the reference decoder (grid: one
 * pass of Algorithm 1; queue: the profile placement), energies included:
 * start and completion times in w->cstart and w->cend. */
void gsa_decode(const gsa_prob *p, const gsa_run *r, const int32_t *order, const int32_t *mach,
                const int32_t *fperm, gsa_ws *w, gsa_eval *e);

/* The grid decoder machine by machine, in rounds until nothing changes
 * (pos: each job's place in order; a workspace laid out with
 * GSA_WS_MACHINES; the rounds in w->rounds): the same bits as gsa_decode,
 * energies not included. */
void gsa_decode_grid_machines(const gsa_prob *p, const int32_t *order, const int32_t *mach,
                              const int32_t *fperm, const int32_t *pos, gsa_ws *w, gsa_eval *e);

/* Algorithm 2, step 5: whether a candidate `delta` worse than the current
 * one is accepted at temperature temp, given a uniform 32-bit draw. */
int gsa_accept_decide(int64_t delta, int64_t temp, uint32_t draw);

/* Step 6 (mode GSA_ACCEPT_*): updates the current and best energies after
 * the decision; 1 when the candidate becomes the best schedule. */
int gsa_acceptance(int32_t mode, int64_t cand, int accepted, int64_t *cur, int64_t *best);

/* Runs chain `chain` of the run to its end in w (laid out with
 * gsa_ws_flags(r)); its summary in *out, its best candidate in w->b_*. */
void gsa_chain_run(const gsa_prob *p, const gsa_run *r, int32_t chain, gsa_ws *w,
                   gsa_chain_out *out);

#endif
