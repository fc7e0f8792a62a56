"""Legal-move generation over the corpus: listing, counting, the index API and the batch API.

Target: ``movegen_batch`` lists every legal move of a corpus position in 200 ns or less.
"""

from __future__ import annotations

from typing import Any

import pytest

from _bench import CORE, Impl, measure
from cassino.bench import MOVEGEN_REPEAT, TIMED_ROUNDS, core_module, movegen_call
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


def test_movegen_batch(benchmark: Any, corpus: list[Position]) -> None:
    """The target figure: every move of every corpus position listed in C, GIL released:
    the very call that `cassino bench` times, as many times. The reference's figure for
    the ratio is ``movegen.num_moves`` (it has no batch API)."""
    if CORE is None:
        pytest.skip("cassino._core is not built")
    expected = sum(s.num_moves() for s in _states(CORE, corpus)) * MOVEGEN_REPEAT
    run = movegen_call(core_module(), corpus, MOVEGEN_REPEAT)
    total = measure(
        benchmark, CORE, "movegen.batch", run, units=len(corpus) * MOVEGEN_REPEAT,
        unit="position", reference_name="movegen.num_moves", target=("<=", 200e-9),
        core_rounds=TIMED_ROUNDS,
    )
    assert total == expected
