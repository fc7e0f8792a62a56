"""Hard positions: tables of many small cards, where moves run into the millions.

Target: the exact count of the 24-card table of :func:`cassino.bench.hard_position`
(16,037,492 moves) in 10 ms or less. The reference cannot count that table in minutes, so
both implementations are also timed on a 14-card table, which the reference lists.
"""

from __future__ import annotations

from typing import Any

import pytest

from _bench import CORE, Impl, measure
from cassino.bench import HARD_TABLE, hard_position
from cassino.position import Position


def small_table(ncards: int) -> Position:
    """The hard position with only the first ``ncards`` small cards on the table."""
    data = hard_position().to_dict()
    keep = list(HARD_TABLE[:ncards])
    data["piles"][1] = data["piles"][1] + [c for c in HARD_TABLE if c not in keep]
    data["table"] = keep
    return Position.from_dict(data)


def test_hard_count(benchmark: Any) -> None:
    if CORE is None:
        pytest.skip("cassino._core is not built")
    state = CORE.State.from_position(hard_position())
    n = measure(benchmark, CORE, "hard.count_24_cards", state.count_moves, units=1,
                unit="position", target=("<=", 10e-3))
    assert n == 16_037_492


def test_count_14_cards(benchmark: Any, impl: Impl) -> None:
    state = impl.State.from_position(small_table(14))
    n = measure(benchmark, impl, "hard.count_14_cards", state.count_moves, units=1,
                unit="position", reference_rounds=2, core_rounds=20)
    assert n > 10_000
