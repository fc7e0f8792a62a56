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

typedef unsigned __int128 cas128_mask_t;
#define CAS128_NCARDS 104
#define CAS128_MAX_BUILDS 52  /* 104 / 2 */
static inline int cas128_ctz(cas128_mask_t x) {
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
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
