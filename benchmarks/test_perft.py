"""Perft from a fixed deal, leaf nodes per second, beside python-chess measured in the same
run (``pip install 'cassino[bench]'``; skipped without it). python-chess counts its leaves
with ``legal_moves.count()``, as cassino's perft counts its last ply without pushing."""

from __future__ import annotations

from typing import Any

import pytest

import cassino
from _bench import EXTRA, FIGURES, Impl, measure
from cassino.bench import chess_perft

DEPTH = 5
POSITION = cassino.new_hand("cassino_standard", seed=7).to_position()


def test_perft(benchmark: Any, impl: Impl) -> None:
    state = impl.State.from_position(POSITION)
    depth = DEPTH if impl.name == "core" else 3
    nodes = state.perft(depth)

    def run() -> int:
        return int(state.perft(depth))

    assert measure(benchmark, impl, "perft", run, units=nodes, unit="node") == nodes
    assert nodes == cassino._reference.State.from_position(POSITION).perft(depth)


def test_chess_perft(benchmark: Any) -> None:
    pytest.importorskip("chess")
    got: list[int] = []

    def run() -> None:
        result = chess_perft(4)
        assert result is not None
        got.append(result[0])

    benchmark.pedantic(run, rounds=3, warmup_rounds=0)
    assert got[0] == 197_281  # perft(4) of the initial chess position
    meta = getattr(benchmark, "stats", None)
    if meta is None:
        return
    chess_nps = got[0] / meta.stats.min
    benchmark.extra_info["nodes_per_second"] = round(chess_nps)
    EXTRA["perft python-chess"] = (chess_nps, f"{chess_nps:,.0f} nodes/s (depth 4)")
    core = FIGURES.get(("perft", "core"))
    if core is not None:
        ratio = 1 / core.per_unit / chess_nps
        EXTRA["perft core/python-chess"] = (ratio, f"{ratio:,.0f}x")
