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

def _shuffle_list(list items not None, state) -> int:
    """Shuffle ``items`` in place as ``cassino._rng`` draws a Fisher-Yates shuffle from an
    ``Rng`` of state ``state`` (the last item swapped first); return the ``Rng``'s new state.
    ``View.sample_world`` deals the unseen cards so in the core."""
    cdef Rng64 r
    cdef Py_ssize_t i, j
    if isinstance(state, bool) or not isinstance(state, int) or not 0 <= state < 2 ** 64:
        raise ValueError(f"an RNG state is an integer from 0 to 2**64 - 1, not {state!r}")
    r.state = <uint64_t>state
    for i in range(len(items) - 1, 0, -1):
        j = <Py_ssize_t>rng_below(&r, <uint64_t>(i + 1))
        items[i], items[j] = items[j], items[i]
    return r.state
