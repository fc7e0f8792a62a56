# Decks: the RNG (splitmix64, Lemire) and the shuffle, bit for bit as cassino._rng.
# The reference side: cassino/reference/decks.py and cassino/_rng.py.
# Included by _core.pyx, in the order it lists.

# ---------------------------------------------------------------------------------------
# RNG: splitmix64 and Lemire's bounded integers, bit for bit as cassino._rng
# ---------------------------------------------------------------------------------------

cdef struct Rng64:
    uint64_t state

cdef inline uint64_t rng_next(Rng64* r) noexcept nogil:
    r.state += <uint64_t>0x9E3779B97F4A7C15ULL
    cdef uint64_t z = r.state
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)

cdef inline uint64_t rng_below(Rng64* r, uint64_t n) noexcept nogil:
    cdef unsigned long long low
    cdef uint64_t hi = cas_mulhi(rng_next(r), n, &low)
    cdef uint64_t t
    if low < n:
        t = (<uint64_t>0 - n) % n
        while low < t:
            hi = cas_mulhi(rng_next(r), n, &low)
    return hi

cdef void shuffle_deck(Rng64* r, uint8_t* deck, int size) noexcept nogil:
    cdef int i, j
    cdef uint8_t t
    for i in range(size):
        deck[i] = <uint8_t>i
    for i in range(size - 1, 0, -1):
        j = <int>rng_below(r, <uint64_t>(i + 1))
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
