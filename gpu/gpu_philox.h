/* gpu_philox.h — Philox4x32-10, a counter-based random generator (Salmon,
 * Moraes, Dror & Shaw 2011, "Parallel random numbers: as easy as 1, 2, 3"),
 * written from the paper's definition so that C code and CUDA code draw
 * bit-identical numbers.
 *
 * A block is a pure function of a 128-bit counter and a 64-bit key: ten
 * rounds of two 32x32->64 multiplications (multipliers 0xD2511F53 and
 * 0xCD9E8D57) and xors with the key, the key bumped by the Weyl constants
 * 0x9E3779B9 and 0xBB67AE85 between rounds. Nothing here depends on the
 * platform: only 32- and 64-bit unsigned integer arithmetic, so the host
 * compiler and nvcc compute the same words. Checked against the published
 * known-answer vectors of the Random123 distribution (tests/test_gpu_philox.c).
 *
 * Streams: a gpu_philox_stream draws the words of consecutive blocks
 * (counter word 0 and 1 hold the block number, words 2 and 3 name the
 * stream), so two streams with different names never share a block. The
 * annealing gives each chain its own stream: key = the run's seed, name =
 * (chain, purpose), which makes a chain's numbers independent of how many
 * chains run and of where they run (CPU or GPU).
 *
 * Header-only; every function is `static inline` (and `__host__ __device__`
 * under nvcc).
 */
#ifndef GPU_PHILOX_H
#define GPU_PHILOX_H

#include <stdint.h>

#if defined(__CUDACC__)
#define GPU_PHILOX_FN static inline __host__ __device__
#else
#define GPU_PHILOX_FN static inline
#endif

#define GPU_PHILOX_M0 0xD2511F53u
#define GPU_PHILOX_M1 0xCD9E8D57u
#define GPU_PHILOX_W0 0x9E3779B9u
#define GPU_PHILOX_W1 0xBB67AE85u

typedef struct gpu_philox_block {
    uint32_t v[4];
} gpu_philox_block;

/* One round: (c0, c1, c2, c3) -> (hi(M1 c2) ^ c1 ^ k0, lo(M1 c2),
 * hi(M0 c0) ^ c3 ^ k1, lo(M0 c0)). */
GPU_PHILOX_FN gpu_philox_block gpu_philox_round(gpu_philox_block c, uint32_t k0, uint32_t k1)
{
    uint64_t p0 = (uint64_t)GPU_PHILOX_M0 * c.v[0];
    uint64_t p1 = (uint64_t)GPU_PHILOX_M1 * c.v[2];
    gpu_philox_block r;
    r.v[0] = (uint32_t)(p1 >> 32) ^ c.v[1] ^ k0;
    r.v[1] = (uint32_t)p1;
    r.v[2] = (uint32_t)(p0 >> 32) ^ c.v[3] ^ k1;
    r.v[3] = (uint32_t)p0;
    return r;
}

/* Philox4x32 with `rounds` rounds (10 is the standard; 7 is also
 * published). */
GPU_PHILOX_FN gpu_philox_block gpu_philox4x32_r(int rounds, gpu_philox_block ctr, uint32_t k0,
                                                uint32_t k1)
{
    for (int i = 0; i < rounds; i++) {
        if (i > 0) {
            k0 += GPU_PHILOX_W0;
            k1 += GPU_PHILOX_W1;
        }
        ctr = gpu_philox_round(ctr, k0, k1);
    }
    return ctr;
}

GPU_PHILOX_FN gpu_philox_block gpu_philox4x32_10(gpu_philox_block ctr, uint32_t k0, uint32_t k1)
{
    return gpu_philox4x32_r(10, ctr, k0, k1);
}

/* A stream of 32-bit words: block b of stream (s0, s1) under key k is
 * philox(ctr = {b_lo, b_hi, s0, s1}, k). Caller's storage; copy it freely
 * (it is plain data). */
typedef struct gpu_philox_stream {
    uint32_t k0, k1; /* key: the seed */
    uint32_t s0, s1; /* stream name */
    uint64_t block;  /* next block to compute */
    uint32_t buf[4]; /* words of the last block */
    uint32_t avail;  /* words of buf not yet used (taken from index 4 - avail) */
} gpu_philox_stream;

GPU_PHILOX_FN void gpu_philox_stream_init(gpu_philox_stream *s, uint64_t seed, uint32_t s0,
                                          uint32_t s1)
{
    s->k0 = (uint32_t)seed;
    s->k1 = (uint32_t)(seed >> 32);
    s->s0 = s0;
    s->s1 = s1;
    s->block = 0;
    s->buf[0] = s->buf[1] = s->buf[2] = s->buf[3] = 0;
    s->avail = 0;
}

/* The next 32-bit word of the stream. */
GPU_PHILOX_FN uint32_t gpu_philox_next(gpu_philox_stream *s)
{
    if (s->avail == 0) {
        gpu_philox_block c;
        c.v[0] = (uint32_t)s->block;
        c.v[1] = (uint32_t)(s->block >> 32);
        c.v[2] = s->s0;
        c.v[3] = s->s1;
        gpu_philox_block r = gpu_philox4x32_10(c, s->k0, s->k1);
        s->buf[0] = r.v[0];
        s->buf[1] = r.v[1];
        s->buf[2] = r.v[2];
        s->buf[3] = r.v[3];
        s->block++;
        s->avail = 4;
    }
    return s->buf[4 - s->avail--];
}

/* An integer in [0, n) for n >= 1: the high word of word x n (Lemire 2019's
 * multiply-shift; its bias below n / 2^32 does not matter here, and it
 * needs no division, so host and device agree trivially). */
GPU_PHILOX_FN uint32_t gpu_philox_below(gpu_philox_stream *s, uint32_t n)
{
    return (uint32_t)(((uint64_t)gpu_philox_next(s) * n) >> 32);
}

/* A double in [0, 1) with 32 random bits (for statistics and generators;
 * the annealing itself decides with integers only). */
GPU_PHILOX_FN double gpu_philox_uniform(gpu_philox_stream *s)
{
    return gpu_philox_next(s) * (1.0 / 4294967296.0);
}

#endif
