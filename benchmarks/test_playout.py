"""Random full hands: ``random_hand(rules, seed)`` deals and plays a whole hand at random."""

from __future__ import annotations

from typing import Any

import cassino
from _bench import Impl, measure

HANDS = {"reference": 40, "core": 2000}


def test_random_hands(benchmark: Any, impl: Impl) -> None:
    rules = cassino.rules("cassino_standard")
    n = HANDS[impl.name]

    def run() -> int:
        return sum(impl.random_hand(rules, seed)[1] for seed in range(n))

    plies = measure(benchmark, impl, "playout.random_hand", run, units=n, unit="hand")
    assert plies == 48 * n  # every card of a standard hand is played
    assert impl.random_hand(rules, 1) == REFERENCE_HAND_1


REFERENCE_HAND_1 = cassino._reference.random_hand(cassino.rules("cassino_standard"), 1)
