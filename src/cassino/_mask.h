/* The card-mask types of the Cython core (docs/architecture.md §2, §9.1).
 *
 * cas_mask_t: 64-bit masks of the 52 card ids, for cassino.State.
 * cas128_mask_t: 128-bit masks of the 104 ids of Mulle's double deck (the second copy of
 * card c is c + 52), for the wide copy of the core that scripts/gen_wide.py writes into
 * core/_wide.pxi (cassino._core._WideState, a subclass of State).
 */
#ifndef CASSINO_MASK_H
#define CASSINO_MASK_H

#include <stdint.h>
#include <string.h>

typedef uint64_t cas_mask_t;
#define CAS_NCARDS 52
#define CAS_MAX_BUILDS 26     /* every build holds two cards or more: 52 / 2 */
static inline int cas_ctz(unsigned long long x) { return __builtin_ctzll(x); }
static inline int cas_popcount(unsigned long long x) { return __builtin_popcountll(x); }
/* the two 64-bit halves of a mask (the high one is 0 here) */
static inline uint64_t cas_lo(cas_mask_t x) { return (uint64_t)x; }
static inline uint64_t cas_hi(cas_mask_t x) { (void)x; return 0; }
/* the highest set bit of a nonzero mask */
static inline int cas_top(cas_mask_t x) { return 63 - __builtin_clzll(x); }

/* 64-bit words of either width's code (families of subsets, value sets) */
static inline int cas_ctz64(uint64_t x) { return __builtin_ctzll(x); }
static inline int cas_popcount64(uint64_t x) { return __builtin_popcountll(x); }

/* bit s of the result set when bytes[s] == v (le: bytes[s] <= v, unsigned), for s < 16 *
 * chunks (chunks 1 to 4; SSE2 on x86-64: one compare a chunk) */
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
static inline uint64_t cas_cmp_bytes(const uint8_t *bytes, int chunks, uint8_t v, int le) {
    uint64_t r = 0;
#if defined(__SSE2__)
    __m128i t = _mm_set1_epi8((char)v);
    for (int k = 0; k < chunks; k++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(bytes + 16 * k));
        __m128i hit = _mm_cmpeq_epi8(le ? _mm_min_epu8(x, t) : t, x);
        r |= (uint64_t)(uint16_t)_mm_movemask_epi8(hit) << (16 * k);
    }
#else
    for (int s = 0; s < 16 * chunks; s++)
        r |= (uint64_t)(le ? bytes[s] <= v : bytes[s] == v) << s;
#endif
    return r;
}
static inline uint64_t cas_eq_bytes(const uint8_t *bytes, int chunks, uint8_t v) {
    return cas_cmp_bytes(bytes, chunks, v, 0);
}
static inline uint64_t cas_le_bytes(const uint8_t *bytes, int chunks, uint8_t v) {
    return cas_cmp_bytes(bytes, chunks, v, 1);
}

/* The totals of the subsets of cards 0..i, from those of cards 0..i-1 in b[0 .. 2^i): b[2^i + s]
 * = b[s] + add. Bytes that do not overflow, eight at a time in a 64-bit word; the first
 * three cards add to the bytes of the first word whose subsets hold them (bytes past 2^(i+1)
 * of that word then hold totals of no subset, which the callers mask out). */
static inline void cas_bytes_double(uint8_t *b, int i, uint8_t add) {
    static const uint64_t first[3] = {
        0x0100010001000100ULL, 0x0101000001010000ULL, 0x0101010100000000ULL};
    uint64_t x;
    if (i < 3) {
        memcpy(&x, b, 8);
        x += first[i] * add;
        memcpy(b, &x, 8);
        return;
    }
    uint64_t k = 0x0101010101010101ULL * add;
    int half = 1 << i;
    for (int j = 0; j < half; j += 8) {
        memcpy(&x, b + j, 8);
        x += k;
        memcpy(b + half + j, &x, 8);
    }
}

/* The unions of disjoint groups of a one-word family x of groups (x without the empty set):
 * acc = {empty}, then acc |= (acc & disjoint(g)) << g for each group g; disj[g * stride]: the
 * subsets disjoint from g. The first CAS_CLOSE_FIXED groups without a branch on their number
 * (a mispredicted loop exit costs more than the work), the rest in a loop. */
#define CAS_CLOSE_FIXED 2
static inline uint64_t cas_fam_close1(uint64_t x, const uint64_t *disj, int stride) {
    uint64_t acc = 1, live;
    int a, k;
    for (k = 0; k < CAS_CLOSE_FIXED; k++) {
        live = (uint64_t)0 - (uint64_t)(x != 0);
        a = __builtin_ctzll(x | (1ULL << 63));
        acc |= ((acc & disj[a * stride]) << a) & live;
        x &= x - 1;
    }
    while (x) {
        a = __builtin_ctzll(x);
        x &= x - 1;
        acc |= (acc & disj[a * stride]) << a;
    }
    return acc;
}

/* Families of subsets of up to 10 loose cards: w 64-bit words, subset s at bit s % 64 of word
 * s / 64. Join the group g = 64 * gh + gl: acc |= (acc & disjoint(g)) << g. A subset s =
 * 64 * sh + sl disjoint from g has sh & gh == 0 and sl & gl == 0 (dl: the low parts disjoint
 * from gl), and s + g is word sh | gh, bit sl + gl < 64; those words are never sources. */
static inline void cas_fam_join(uint64_t *acc, int gh, int gl, uint64_t dl, int w) {
    for (int k = 0; k < w; k = ((k | gh) + 1) & ~gh)
        acc[k | gh] |= (acc[k] & dl) << gl;
}

/* the position of the k-th set bit of x (k < popcount(x)), a byte at a time */
static inline int cas_select64(uint64_t x, int k) {
    int pos = 0, c;
    while ((c = __builtin_popcountll(x & 0xFF)) <= k) {
        k -= c;
        x >>= 8;
        pos += 8;
    }
    while (k--)
        x &= x - 1;
    return pos + __builtin_ctzll(x);
}

typedef unsigned __int128 cas128_mask_t;
#define CAS128_NCARDS 112    /* 104 and the jokers (ids 104-109), a multiple of 4 */
#define CAS128_MAX_BUILDS 56  /* 112 / 2 */
/* branchless (a conditional move): which half holds the lowest bit is data, and a branch on
 * it is mispredicted about as often as the two copies of a card are mixed in a mask */
static inline int cas128_ctz(cas128_mask_t x) {
    uint64_t lo = (uint64_t)x;
    int z = lo == 0;
    uint64_t w = z ? (uint64_t)(x >> 64) : lo;
    return __builtin_ctzll(w) + (z << 6);
}
static inline int cas128_popcount(cas128_mask_t x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}
static inline uint64_t cas128_lo(cas128_mask_t x) { return (uint64_t)x; }
static inline uint64_t cas128_hi(cas128_mask_t x) { return (uint64_t)(x >> 64); }
static inline int cas128_top(cas128_mask_t x) {
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)x);
}

#endif
