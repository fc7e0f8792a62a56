"""The seeded random number generator shared, bit for bit, by the core and the reference.

splitmix64 with Lemire's unbiased bounded integers. Every game and playout owns one.

>>> rng = Rng(1)
>>> [rng.below(52) for _ in range(5)]
[29, 38, 50, 23, 23]
"""

from __future__ import annotations

__all__ = ["Rng", "deck_chance", "shuffled_deck"]

_M64 = (1 << 64) - 1


class Rng:
    """splitmix64 generator."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _M64

    def next_u64(self) -> int:
        """Next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _M64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` for ``n >= 1`` (Lemire's method below ``2**64``,
        as the core draws; above, rejection from whole 64-bit words, high word first).

        >>> r = Rng(5); x = r.below(10**30); 0 <= x < 10**30
        True
        """
        if n > 1 << 64:
            bits = (n - 1).bit_length()
            while True:
                x = 0
                for _ in range((bits + 63) // 64):
                    x = x << 64 | self.next_u64()
                x >>= -bits % 64
                if x < n:
                    return x
        m = self.next_u64() * n
        low = m & _M64
        if low < n:
            t = ((1 << 64) - n) % n
            while low < t:
                m = self.next_u64() * n
                low = m & _M64
        return m >> 64


def shuffled_deck(rng: Rng, size: int = 52) -> list[int]:
    """A Fisher-Yates shuffle of ``range(size)``."""
    deck = list(range(size))
    for i in range(size - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deck_chance(deck: list[int]) -> int:
    """The first state of a hand's chance RNG (opt_esun's random penalty card, AMB-75): the
    64-bit FNV-1a hash of the dealt deck's card ids, as the core's ``init_hand``.

    >>> deck_chance([0, 1]) == deck_chance([0, 1]) != deck_chance([1, 0])
    True
    """
    h = 0xCBF29CE484222325
    for c in deck:
        h = ((h ^ c) * 0x100000001B3) & _M64
    return h
