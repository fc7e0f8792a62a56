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


COMPOUND_POSITIONS = 6
COMPOUND_SYSTEMS = ("african_cassino_2p", "african_cassino_partnership", "italian_house_cassino")


def test_ismcts_compound_kept_turns(benchmark: Any) -> None:
    """ISMCTS (its compound default, 100 iterations) in the compound systems, whose search is
    Python's: the nodes keeping their turns and greedy scores by the hands of the mover's
    team against listing and judging anew, the same moves and visits. Positions every fifth
    turn of greedy games (African 2p's second deal among them)."""
    import cassino
    from cassino.greedy import GreedyPlayer
    from cassino.ismcts import ISMCTSPlayer
    from cassino.players import View

    views: dict[str, list[Any]] = {}
    for sid in COMPOUND_SYSTEMS:
        st = cassino.new_hand(sid, seed=1)
        greedy = GreedyPlayer(1)
        got = views[sid] = []
        k = 0
        while not st.is_over and len(got) < COMPOUND_POSITIONS:
            view = View.of(st, st.to_move)
            moves = st.legal_moves() if st.insist else st.turns_one_order()
            if k % 5 == 0 and len(moves) > 1:
                got.append((view, moves))
            st.push(greedy.choose(view, moves))
            k += 1
    ms: dict[tuple[str, bool], float] = {}
    chosen: dict[tuple[str, bool], list[Any]] = {}

    def run() -> None:
        for sid in COMPOUND_SYSTEMS:
            for keep in (True, False):
                bot = ISMCTSPlayer(seed=1)
                bot._keep = keep
                t0 = time.perf_counter()
                chosen[sid, keep] = [(bot.choose(v, m), bot.last_visits) for v, m in views[sid]]
                per = (time.perf_counter() - t0) / len(views[sid]) * 1e3
                ms[sid, keep] = min(ms.get((sid, keep), per), per)

    benchmark.pedantic(run, rounds=2, warmup_rounds=0)
    for sid in COMPOUND_SYSTEMS:
        assert chosen[sid, True] == chosen[sid, False]
        ratio = ms[sid, False] / ms[sid, True]
        benchmark.extra_info[f"{sid}_ms_per_move"] = round(ms[sid, True], 1)
        benchmark.extra_info[f"{sid}_anew_ms_per_move"] = round(ms[sid, False], 1)
        EXTRA[f"ismcts in {sid}, listing anew / kept turns"] = (
            ratio,
            f"{ratio:.2f}x ({ms[sid, True]:.0f} / {ms[sid, False]:.0f} ms a move, the same moves)",
        )


COMPOUND_GAMES = 6
ALL_COMPOUND = ("african_cassino_2p", "african_cassino_3p", "african_cassino_partnership",
                "italian_house_cassino")


def test_compound_core_greedy_against_python_greedy(benchmark: Any, monkeypatch: Any) -> None:
    """Games of greedy against random in the compound systems: ``CompoundState.play_hand``
    (the greedy player's turn scores in the core, ``_TurnGen.greedy_turn_scores``, and a
    random seat's draw from one listing; one move made of the chosen turn) against the
    Python players scoring in Python (``core_players=False``, ``GreedyPlayer._core_turns``
    off), the same games. A partnership's greedy seat whose partner has a claim (AMB-64)
    is the Python player's, with the core's scores of its world."""
    from cassino.greedy import GreedyPlayer
    from cassino.rules import rules

    rates: dict[tuple[str, bool], float] = {}
    records: dict[tuple[str, bool], Any] = {}

    def players(sid: str) -> tuple[str, ...]:
        return tuple(("greedy", "random")[s % 2] for s in range(rules(sid).players))

    def run() -> None:
        for sid in ALL_COMPOUND:
            for fast in (True, False):
                monkeypatch.setattr(GreedyPlayer, "_core_turns", fast)
                t0 = time.perf_counter()
                got = simulate(sid, players(sid), games=COMPOUND_GAMES, seed=5, workers=1,
                               core_players=fast)
                rate = COMPOUND_GAMES / (time.perf_counter() - t0)
                rates[sid, fast] = max(rates.get((sid, fast), 0.0), rate)
                records[sid, fast] = got.to_json()
        monkeypatch.setattr(GreedyPlayer, "_core_turns", True)

    benchmark.pedantic(run, rounds=2, warmup_rounds=0)
    for sid in ALL_COMPOUND:
        assert records[sid, True] == records[sid, False]
        ratio = rates[sid, True] / rates[sid, False]
        benchmark.extra_info[f"{sid}_core_games_per_second"] = round(rates[sid, True], 1)
        benchmark.extra_info[f"{sid}_python_games_per_second"] = round(rates[sid, False], 1)
        EXTRA[f"greedy vs random games in {sid}, play_hand / Python players"] = (
            ratio,
            f"{ratio:.1f}x ({rates[sid, True]:.1f} / {rates[sid, False]:.1f} games/s, "
            "one process, the same games)",
        )
