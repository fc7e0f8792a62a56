"""The size of a state and the cost of copying it (bots clone states to search)."""

from __future__ import annotations

import sys
from typing import Any

import cassino
from _bench import EXTRA, Impl, measure


def test_clone(benchmark: Any, impl: Impl) -> None:
    r = cassino.rules("cassino_standard")
    state = impl.State.deal(r, 0, 3)
    for _ in range(10):
        state.push(state.legal_moves()[0])
    n = 1000

    def run() -> int:
        return sum(state.clone().ply for _ in range(n))

    assert measure(benchmark, impl, "state.clone", run, units=n, unit="clone") == 10 * n
    if impl.name == "core":  # (the size of a reference state is that of many Python objects)
        from cassino import _core

        fresh = impl.State.deal(r, 0, 3)
        fresh.num_moves()
        size = sys.getsizeof(fresh)
        EXTRA["state bytes"] = (size, f"{size:,} bytes (dealt, moves listed, undo stack)")
        EXTRA["state bytes (C position)"] = (_core.CORE_BYTES, f"{_core.CORE_BYTES:,} bytes")
