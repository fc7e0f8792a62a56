"""The built-in players: games of greedy against random with the players in the core
(``Game.play_hand``) and in Python (``core_players=False``), one process, same games.

Issue target: the README's first command (2,000 standard games, two workers, start-up
included) in 1.5 s or less; here the ratio of the two, measured in one run.
"""

from __future__ import annotations

import time
from typing import Any

from _bench import EXTRA
from cassino.simulate import simulate

CORE_GAMES = 200
PYTHON_GAMES = 20


def test_core_players_against_python_players(benchmark: Any) -> None:
    rates: dict[bool, float] = {}

    def run() -> None:
        for core_players, n in ((True, CORE_GAMES), (False, PYTHON_GAMES)):
            t0 = time.perf_counter()
            simulate(players=("greedy", "random"), games=n, seed=5, workers=1,
                     core_players=core_players)
            rate = n / (time.perf_counter() - t0)
            rates[core_players] = max(rates.get(core_players, 0.0), rate)

    benchmark.pedantic(run, rounds=2, warmup_rounds=0)
    # the same games either way
    a = simulate(players=("greedy", "random"), games=PYTHON_GAMES, seed=5, workers=1)
    b = simulate(players=("greedy", "random"), games=PYTHON_GAMES, seed=5, workers=1,
                 core_players=False)
    assert a.to_json() == b.to_json()
    ratio = rates[True] / rates[False]
    benchmark.extra_info["core_games_per_second"] = round(rates[True], 1)
    benchmark.extra_info["python_games_per_second"] = round(rates[False], 1)
    benchmark.extra_info["ratio"] = round(ratio, 1)
    EXTRA["greedy vs random games, core players / Python players"] = (
        ratio,
        f"{ratio:.0f}x ({rates[True]:.0f} / {rates[False]:.1f} games/s, one process)",
    )
