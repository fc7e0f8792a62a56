"""The compound systems (African Cassino, the Italian house variant; docs/architecture.md §9.4):
counting every turn of mid-hand positions, and whole random hands. The reference searches the
turns in Python; the core's State of these systems (``CompoundState``) counts and picks them
in C (core/compound.pxi) and makes the same random hands.
"""

from __future__ import annotations

from typing import Any

import pytest

from _bench import Impl, measure
from cassino import Rng, _reference, rules
from cassino.position import Position

SYSTEMS = ("african_cassino_3p", "african_cassino_2p", "african_cassino_partnership",
           "italian_house_cassino")


def compound_positions(system: str, count: int = 12, seed: int = 3) -> list[Position]:
    """Positions of random reference play where a turn is to be made."""
    r = rules(system)
    rng = Rng(seed)
    out: list[Position] = []
    while len(out) < count:
        s = _reference.State.deal(r, rng.below(r.players), rng.next_u64() >> 1)
        while not s.is_over and len(out) < count:
            s._push_random(rng)
            if not s.is_over and not s.insist:
                out.append(s.to_position())
    return out


@pytest.mark.parametrize("system", SYSTEMS)
def test_compound_count_moves(benchmark: Any, impl: Impl, system: str) -> None:
    positions = compound_positions(system)

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        return ([impl.State.from_position(p) for p in positions],), {}

    def run(states: list[Any]) -> int:
        return sum(s.count_moves() for s in states)

    total = measure(benchmark, impl, f"{system}.count_moves", run, units=len(positions),
                    unit="position", setup=setup)
    if total is not None:
        assert total == sum(_reference.State.from_position(p).count_moves() for p in positions)


@pytest.mark.parametrize("system", SYSTEMS)
def test_compound_random_hand(benchmark: Any, impl: Impl, system: str) -> None:
    r = rules(system)
    hands = 2 if impl.name == "reference" else 20

    def run() -> list[Any]:
        return [impl.random_hand(r, seed) for seed in range(hands)]

    got = measure(benchmark, impl, f"{system}.random_hand", run, units=hands, unit="hand")
    assert got[0] == _reference.random_hand(r, 0)
