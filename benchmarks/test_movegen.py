"""Legal-move generation over the corpus: listing, counting and the index API."""

from __future__ import annotations

from typing import Any

from _bench import Impl, measure
from cassino.position import Position


def _states(impl: Impl, corpus: list[Position]) -> list[Any]:
    return [impl.State.from_position(p) for p in corpus]


def test_legal_moves(benchmark: Any, impl: Impl, corpus: list[Position]) -> None:
    states = _states(impl, corpus)

    def run() -> int:
        return sum(len(s.legal_moves()) for s in states)

    total = measure(benchmark, impl, "movegen.legal_moves", run, units=len(states), unit="position")
    assert total == sum(s.count_moves() for s in states)


def test_count_moves(benchmark: Any, impl: Impl, corpus: list[Position]) -> None:
    states = _states(impl, corpus)

    def run() -> int:
        return sum(s.count_moves() for s in states)

    total = measure(benchmark, impl, "movegen.count_moves", run, units=len(states), unit="position")
    assert total > len(states)


def test_num_moves(benchmark: Any, impl: Impl, corpus: list[Position]) -> None:
    states = _states(impl, corpus)

    def run() -> int:
        return sum(s.num_moves() for s in states)

    total = measure(benchmark, impl, "movegen.num_moves", run, units=len(states), unit="position")
    assert total > len(states)
