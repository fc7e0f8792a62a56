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


ISMCTS_ITERATIONS = 200
ISMCTS_POSITIONS = 12


def test_ismcts_core_search_against_python_search(benchmark: Any) -> None:
    """ISMCTS choices at the start of standard hands: the search in C (``State._ismcts``)
    against the Python search it reproduces (``core=False``), the same moves."""
    import cassino
    from cassino.ismcts import ISMCTSPlayer
    from cassino.players import View

    states = [cassino.new_hand(seed=s) for s in range(ISMCTS_POSITIONS)]
    ms: dict[bool, float] = {}
    chosen: dict[bool, list[Any]] = {}

    def run() -> None:
        for core in (True, False):
            bot = ISMCTSPlayer(seed=1, iterations=ISMCTS_ITERATIONS, exact=False, core=core)
            t0 = time.perf_counter()
            got = [bot.choose(View.of(s, s.to_move), s.legal_moves()) for s in states]
            per = (time.perf_counter() - t0) / len(states) * 1e3
            ms[core] = min(ms.get(core, per), per)
            chosen[core] = got

    benchmark.pedantic(run, rounds=2, warmup_rounds=0)
    assert chosen[True] == chosen[False]
    ratio = ms[False] / ms[True]
    benchmark.extra_info["core_ms_per_move"] = round(ms[True], 2)
    benchmark.extra_info["python_ms_per_move"] = round(ms[False], 2)
    benchmark.extra_info["ratio"] = round(ratio, 1)
    EXTRA[f"ismcts ({ISMCTS_ITERATIONS} iterations) choose, Python search / C search"] = (
        ratio,
        f"{ratio:.0f}x ({ms[True]:.1f} / {ms[False]:.1f} ms a move, the same moves)",
    )
