"""The compound systems (African Cassino, the Italian house variant; docs/architecture.md §9.4):
counting every turn of mid-hand positions, and whole random hands. The reference searches the
turns in Python; the core's State of these systems (``CompoundState``) counts and picks them
in C (core/compound.pxi) and makes the same random hands.
"""

from __future__ import annotations

from typing import Any

import pytest

from _bench import CORE, REFERENCE, Impl, measure
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


def _first_turns(positions: list[Position]) -> list[str]:
    """The notation of a turn of each position with a free step when there is one (the
    core's listing when built)."""
    out = []
    for p in positions:
        s = (CORE or REFERENCE).State.from_position(p)
        moves = s.legal_moves() if s.count_moves() <= 5000 else [s.move_at(0)]
        out.append(str(next((m for m in moves if ";" in str(m)), moves[0])))
    return out


@pytest.mark.parametrize("system", SYSTEMS)
def test_compound_read_turn(benchmark: Any, impl: Impl, system: str) -> None:
    """``parse_move`` of a turn on a state that has listed nothing: the steps written
    walked, then the turn's least step sequence found among the states that may end at
    its table (the core's step builder and ``least_turn``; the reference's in Python)."""
    positions = compound_positions(system, count=6)
    texts = _first_turns(positions)

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        return ([impl.State.from_position(p) for p in positions],), {}

    def run(states: list[Any]) -> list[str]:
        return [str(s.parse_move(t)) for s, t in zip(states, texts, strict=True)]

    got = measure(benchmark, impl, f"{system}.parse_move", run, units=len(positions),
                  unit="turn", setup=setup)
    if got is not None:
        assert got == texts


@pytest.mark.parametrize("system", SYSTEMS)
def test_compound_legal_steps(benchmark: Any, impl: Impl, system: str) -> None:
    """``legal_steps`` of a turn's first step (each step checked: some legal turn
    continues it)."""
    positions = compound_positions(system, count=6)

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        return ([impl.State.from_position(p) for p in positions],), {}

    def run(states: list[Any]) -> int:
        return sum(len(s.legal_steps()) for s in states)

    total = measure(benchmark, impl, f"{system}.legal_steps", run, units=len(positions),
                    unit="position", setup=setup)
    if total is not None:
        assert total == sum(len(REFERENCE.State.from_position(p).legal_steps())
                            for p in positions)


@pytest.mark.parametrize("system", SYSTEMS)
def test_compound_push_pop(benchmark: Any, impl: Impl, system: str) -> None:
    """``push`` of a listed turn and ``pop``: the State takes over the table the turn leaves
    (the core's end table and flow, ``CompoundState._push_end``, against the reference's
    Python: docs/architecture.md §9.4)."""
    positions = compound_positions(system, count=24)
    texts = _first_turns(positions)

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        states = [impl.State.from_position(p) for p in positions]
        moves = [s.parse_move(t) for s, t in zip(states, texts, strict=True)]
        return (states, moves), {}

    def run(states: list[Any], moves: list[Any]) -> None:
        for s, m in zip(states, moves, strict=True):
            s.push(m)
            s.pop()

    measure(benchmark, impl, f"{system}.push_pop", run, units=len(positions), unit="turn",
            setup=setup)
    for p, t in zip(positions, texts, strict=True):       # (the same tables as the reference's)
        got, ref = impl.State.from_position(p), REFERENCE.State.from_position(p)
        got.push(got.parse_move(t))
        ref.push(ref.parse_move(t))
        assert got.to_position() == ref.to_position()


# a 3-player position with 12 loose cards and a hand of 14: 3,380,750 turns
BIG = ("african_cassino_3p{players=3} 0 0 2S,2H,2D,3D,3C,5D,7D,8C,9H,9D,10H,JS,JC,QD/"
       "AS,2C,3H,4D,5S,5C,6C,9S,10S,10D,QS,QH,KC/AD,AC,4S,4C,7S,7H,7C,8S,8D,9C,10C,QC,KS "
       "AH,3S,4H,5H,6S,6H,6D,8H,JH,JD,KH,KD -/-/- - - - 0,0,0")


def test_compound_big_position_steps(benchmark: Any) -> None:
    """The core's step builder on the hard position: read a two-step turn and list the
    first steps (the reference's search took 35 s and 540 MB for either)."""
    if CORE is None:
        pytest.skip("cassino._core is not built")
    p = Position.from_text(BIG)

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (CORE.State.from_position(p),), {}

    def run(s: Any) -> int:
        s.parse_move("+4H,5H=9; 9Hx4H,5H")
        return len(s.legal_steps())

    assert measure(benchmark, CORE, "african_cassino_3p.big_steps", run, units=1,
                   unit="position", setup=setup) == 1836
