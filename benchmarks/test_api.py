"""The Python-level move loop: get the legal moves, pick one, push it.

Targets: at least 1,500,000 moves/s through the index API (``num_moves`` and
``push_index``), at least 300,000 moves/s when a :class:`Move` is built for each chosen move
(``push(move_at(i))``). The hands are dealt before the clock starts.
"""

from __future__ import annotations

from typing import Any

import pytest

import cassino
from _bench import Impl, measure
from cassino.bench import api_loop

HANDS = {"reference": 5, "core": 1000}
TARGETS = {False: 1_500_000.0, True: 300_000.0}


@pytest.mark.parametrize("objects", [False, True], ids=["index", "object"])
def test_api_loop(benchmark: Any, impl: Impl, objects: bool) -> None:
    r = cassino.rules("cassino_standard")
    n = HANDS[impl.name]

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        return ([impl.State.deal(r, i % 2, i) for i in range(n)], objects), {}

    name = f"api.{'object' if objects else 'index'}_loop"
    target = (">=", TARGETS[objects]) if impl.name == "core" else None
    played = measure(benchmark, impl, name, api_loop, units=48 * n, unit="move", setup=setup,
                     reference_rounds=2, core_rounds=5, target=target)
    assert played == 48 * n
