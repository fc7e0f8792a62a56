/* The card-mask type of the Cython core (docs/architecture.md §2, §9.1).
 *
 * cassino._core is compiled without CASSINO_MASK128: 64-bit masks, the 52 card ids.
 * cassino._core128 is the same source compiled with CASSINO_MASK128 (setup.py): 128-bit
 * masks for the 104 ids of Mulle's double deck (the second copy of card c is c + 52).
 */
#ifndef CASSINO_MASK_H
#define CASSINO_MASK_H

#include <stdint.h>

#ifdef CASSINO_MASK128
typedef unsigned __int128 cas_mask_t;
#define CAS_NCARDS 104
#define CAS_MAX_BUILDS 52     /* every build holds two cards or more: 104 / 2 */
static inline int cas_ctz(cas_mask_t x) {
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}
static inline int cas_popcount(cas_mask_t x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}
#else
typedef uint64_t cas_mask_t;
#define CAS_NCARDS 52
#define CAS_MAX_BUILDS 26     /* every build holds two cards or more: 52 / 2 */
static inline int cas_ctz(unsigned long long x) { return __builtin_ctzll(x); }
static inline int cas_popcount(unsigned long long x) { return __builtin_popcountll(x); }
#endif

/* the two 64-bit halves of a mask (the high one is 0 in the 64-bit core) */
static inline uint64_t cas_lo(cas_mask_t x) { return (uint64_t)x; }
#ifdef CASSINO_MASK128
static inline uint64_t cas_hi(cas_mask_t x) { return (uint64_t)(x >> 64); }
#else
static inline uint64_t cas_hi(cas_mask_t x) { (void)x; return 0; }
#endif

/* the highest set bit of a nonzero mask */
static inline int cas_top(cas_mask_t x) {
#ifdef CASSINO_MASK128
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)x);
#else
    return 63 - __builtin_clzll(x);
#endif
}

#endif
