/* test_gpu_sa_chain.c — one annealing chain's own rules (gpu/gpu_sa_chain.c,
 * through gpu_sa_chain.h) and the packed layout's check
 * (gpu/gpu_sa_layout.h): the acceptance test and the two step-6 rules on
 * scripted energies, with the integer probability at delta = T worked out
 * by hand; the magic word's bytes and gsa_blob_ok. The decoders and whole
 * chains are tested through the CPU reference (test_gpu_sa_cpu.c). */
#include "bl_test.h"

#include "gpu_sa_chain.h"

#include <stdint.h>
#include <string.h>

/* Step 5 and 6 on a scripted sequence of candidate energies, from a
 * current and best energy of 100. Metropolis keeps the best apart; the
 * paper's rule makes every accepted candidate the best. */
static void test_acceptance_scripted(void)
{
    /* step 5: not worse always; worse never at T = 0; at delta = T the
     * probability is floor(2^32 / e) = 1580030168 / 2^32 */
    CU_ASSERT_EQUAL(gsa_accept_decide(0, 0, 0xFFFFFFFFu), 1);
    CU_ASSERT_EQUAL(gsa_accept_decide(-5, 0, 0xFFFFFFFFu), 1);
    CU_ASSERT_EQUAL(gsa_accept_decide(1, 0, 0), 0);
    CU_ASSERT_EQUAL(gsa_accept_decide(1000, 1000, 1580030167u), 1);
    CU_ASSERT_EQUAL(gsa_accept_decide(1000, 1000, 1580030168u), 0);
    /* step 6: candidate energy, accepted?, then current, best, kept? */
    static const int64_t seq[][2] = {{90, 1}, {95, 1}, {120, 0}, {85, 1}, {99, 1}, {80, 0}};
    static const int64_t metro[][3] = {{90, 90, 1}, {95, 90, 0}, {95, 90, 0},
                                       {85, 85, 1}, {99, 85, 0}, {99, 85, 0}};
    static const int64_t paper[][3] = {{90, 90, 1}, {95, 95, 1}, {95, 95, 0},
                                       {85, 85, 1}, {99, 99, 1}, {99, 99, 0}};
    for (int mode = 0; mode < 2; mode++) {
        int64_t cur = 100, best = 100;
        for (int k = 0; k < 6; k++) {
            const int64_t(*want)[3] = mode ? paper : metro;
            int kept = gsa_acceptance(mode ? GSA_ACCEPT_PAPER : GSA_ACCEPT_METROPOLIS, seq[k][0],
                                      (int)seq[k][1], &cur, &best);
            CU_ASSERT_EQUAL(cur, want[k][0]);
            CU_ASSERT_EQUAL(best, want[k][1]);
            CU_ASSERT_EQUAL(kept, want[k][2]);
        }
    }
}

/* The first word of a packed problem spells "BALSA" in memory (on a
 * little-endian machine), and gsa_blob_ok accepts a block only with that
 * magic and the size it records. */
static void test_blob_magic(void)
{
    union {
        gsa_header h;
        unsigned char bytes[sizeof(gsa_header) + 8];
    } b;
    memset(&b, 0, sizeof b);
    b.h.magic = GSA_MAGIC;
    b.h.bytes = (int64_t)sizeof b;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    CU_ASSERT_EQUAL(memcmp(b.bytes, "BALSA\0\0\0", 8), 0);
#endif
    CU_ASSERT_TRUE(gsa_blob_ok(b.bytes, sizeof b));
    CU_ASSERT_FALSE(gsa_blob_ok(b.bytes, sizeof b - 8)); /* not the recorded size */
    CU_ASSERT_FALSE(gsa_blob_ok(b.bytes, 8));            /* shorter than a header */
    CU_ASSERT_FALSE(gsa_blob_ok(NULL, sizeof b));
    b.bytes[3] ^= 1; /* "BALRA" */
    CU_ASSERT_FALSE(gsa_blob_ok(b.bytes, sizeof b));
}

int bl_suite_gpu_sa_chain(void)
{
    CU_pSuite s = CU_add_suite("gpu_sa_chain", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "acceptance: scripted energies", test_acceptance_scripted);
    CU_add_test(s, "packed problem: magic and size", test_blob_magic);
    return 0;
}
