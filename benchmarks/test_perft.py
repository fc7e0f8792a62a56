"""Perft from a fixed position: leaf nodes per second."""

from __future__ import annotations

from typing import Any

import cassino
from _bench import Impl, measure

DEPTH = 5
POSITION = cassino.new_hand("cassino_standard", seed=7).to_position()


def test_perft(benchmark: Any, impl: Impl) -> None:
    state = impl.State.from_position(POSITION)
    nodes = state.perft(DEPTH)

    def run() -> int:
        return int(state.perft(DEPTH))

    assert measure(benchmark, impl, f"perft.depth{DEPTH}", run, units=nodes, unit="node") == nodes
    assert nodes == cassino._reference.State.from_position(POSITION).perft(DEPTH)
