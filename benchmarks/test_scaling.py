"""``simulate`` on one and on two worker processes: the speed-up, with identical results.

Target: two workers at least 1.8 times as fast as one. Whole runs are timed, process
start-up included (as ``cassino simulate --workers N`` pays it).
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

from _bench import EXTRA
from cassino.simulate import simulate

GAMES = 600


def test_simulate_two_workers(benchmark: Any) -> None:
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: nothing to scale over")
    times: dict[int, float] = {}
    results: dict[int, Any] = {}

    def run() -> None:
        for w in (1, 2):
            t0 = time.perf_counter()
            results[w] = simulate(games=GAMES, seed=1, workers=w, players=("random", "random"))
            times[w] = min(times.get(w, float("inf")), time.perf_counter() - t0)

    benchmark.pedantic(run, rounds=2, warmup_rounds=0)
    assert results[1].to_json() == results[2].to_json()
    speedup = times[1] / times[2]
    benchmark.extra_info["seconds_1_worker"] = round(times[1], 3)
    benchmark.extra_info["seconds_2_workers"] = round(times[2], 3)
    benchmark.extra_info["speedup"] = round(speedup, 2)
    benchmark.extra_info["target_met"] = speedup >= 1.8
    EXTRA["simulate 2 workers / 1"] = (
        speedup,
        f"{speedup:.2f}x ({GAMES} games: {times[1]:.2f} s / {times[2]:.2f} s; target >= 1.8x: "
        f"{'met' if speedup >= 1.8 else 'NOT met'})",
    )
