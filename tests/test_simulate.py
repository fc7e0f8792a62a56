"""``cassino.simulate``: seeds, seats, determinism across workers, records and summaries."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import cassino
from cassino.errors import RulesError, UnknownSystemError
from cassino.moves import Move
from cassino.players import PLAYERS, PlayerError, View
from cassino.scoring import CATEGORIES
from cassino.simulate import (
    GameRecord,
    SimulationError,
    derive_seed,
    display_names,
    game_plan,
    run_chunk,
    simulate,
    summarize,
    wilson_interval,
)

REFERENCE = cassino.IMPLEMENTATION == "reference"
GAMES = 6 if REFERENCE else 24  # the reference plays a game in about 0.1 s


@pytest.fixture(scope="module")
def serial() -> Any:
    return simulate(games=GAMES, seed=11, workers=1)


# -- seeds and seats -----------------------------------------------------------------------
def test_derived_seeds_are_fixed_distinct_and_63_bit() -> None:
    assert derive_seed(1, 0, 0) == derive_seed(1, 0, 0)
    seeds = {derive_seed(s, i, k) for s in (0, 1, 2) for i in range(50) for k in range(3)}
    assert len(seeds) == 450
    assert all(0 <= x < 1 << 63 for x in seeds)
    assert derive_seed(-1, 3) == derive_seed((1 << 64) - 1, 3)  # seeds are taken mod 2**64


def test_game_plan_rotates_seats_and_pairs_duplicate_deals() -> None:
    assert [game_plan(5, i, 2)[2] for i in range(4)] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    assert [game_plan(5, i, 3)[2] for i in range(3)] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    plain = [game_plan(5, i, 2)[0] for i in range(4)]
    assert len(set(plain)) == 4
    dup = [game_plan(5, i, 2, duplicate=True)[0] for i in range(4)]
    assert dup[0] == dup[1] != dup[2] == dup[3]
    # player seeds differ between players and between the games of a pair
    a, b = game_plan(5, 0, 2, True)[1], game_plan(5, 1, 2, True)[1]
    assert len({*a, *b}) == 4


# -- determinism ---------------------------------------------------------------------------
def test_records_do_not_depend_on_workers_or_chunks(serial: Any) -> None:
    pooled = simulate(games=GAMES, seed=11, workers=2, chunk_size=5)
    assert pooled.games == serial.games
    assert pooled.summary == serial.summary
    assert pooled.to_json() == serial.to_json()
    with ThreadPoolExecutor(3) as ex:
        threaded = simulate(games=GAMES, seed=11, executor=ex, chunk_size=1)
    assert threaded.games == serial.games


def test_global_random_state_has_no_effect(serial: Any) -> None:
    import random

    random.seed(12345)
    assert simulate(games=2, seed=11, workers=1).games == serial.games[:2]


def test_another_seed_gives_other_games(serial: Any) -> None:
    other = simulate(games=2, seed=12, workers=1)
    assert [g.seed for g in other.games] != [g.seed for g in serial.games[:2]]


def test_run_chunk_takes_and_returns_plain_data(serial: Any) -> None:
    task = {
        "system": "cassino_standard",
        "options": {},
        "players": ["random", "random"],
        "seed": 11,
        "duplicate": False,
        "start": 1,
        "stop": 3,
    }
    out = run_chunk(json.loads(json.dumps(task)))
    assert json.loads(json.dumps(out)) == out
    assert [GameRecord.from_dict(d) for d in out] == list(serial.games[1:3])


# -- records -------------------------------------------------------------------------------
def test_game_records_are_consistent(serial: Any) -> None:
    r = cassino.rules("cassino_standard")
    assert [g.index for g in serial.games] == list(range(GAMES))
    for g in serial.games:
        assert g.seats == game_plan(11, g.index, 2)[2]
        assert (g.seed, g.player_seeds) == game_plan(11, g.index, 2)[:2]
        assert g.winner in (0, 1)
        assert g.scores[g.winner] >= r.target
        assert g.hands >= 2 and g.moves == 48 * g.hands  # every card of every hand is played
        for k in range(2):
            assert set(g.points[k]) == set(CATEGORIES)
            assert sum(g.points[k].values()) == g.scores[k]
            assert g.points[k]["sweeps"] == 0 == g.sweeps[k]  # sweeps are off by default
        assert sum(g.points[0][c] + g.points[1][c] for c in ("big_cassino", "ace_spades")) == (
            g.hands * 3
        )
        assert GameRecord.from_dict(g.to_dict()) == g


def test_a_record_replays_as_a_game(serial: Any) -> None:
    # the deal seed alone reproduces the cards: replaying the moves of random players with
    # the same seeds gives the same result
    g = serial.games[0]
    game = cassino.Game("cassino_standard", seed=g.seed)
    players = {
        seat: cassino.players.make_player("random", g.player_seeds[k]) for k, seat in enumerate(g.seats)
    }
    while not game.is_over:
        seat = game.state.to_move
        moves = game.legal_moves()
        game.push(players[seat].choose(View.of(game.state, seat, game.scores), moves))
    assert [game.scores[s] for s in g.seats] == list(g.scores)
    assert g.seats.index(game.winner) == g.winner


def test_sweeps_are_counted_when_the_rules_count_them() -> None:
    result = simulate(games=4 if REFERENCE else 40, seed=3, workers=1, options={"sweeps": True})
    assert result.options == {"sweeps": True}
    for g in result.games:
        for k in range(2):
            assert g.points[k]["sweeps"] == g.sweeps[k]
    assert result.summary.mean_sweeps == tuple(
        sum(g.sweeps[k] for g in result.games) / len(result.games) for k in range(2)
    )


def test_duplicate_games_share_the_deal_with_seats_swapped() -> None:
    result = simulate(games=4, seed=5, workers=1, duplicate=True)
    assert result.duplicate
    g = result.games
    assert g[0].seed == g[1].seed != g[2].seed == g[3].seed
    assert [x.seats for x in g] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    # the same deal: the first hand's cards are the same, seat by seat
    decks = [cassino.Game("cassino_standard", seed=x.seed).log[2]["deck"] for x in g]
    assert decks[0] == decks[1] and decks[2] == decks[3]
    with pytest.raises(SimulationError, match="multiple of 2"):
        simulate(games=3, duplicate=True, workers=1)


def test_three_players_of_the_002_preset() -> None:
    result = simulate("cassino_standard_002", ("random",) * 3, games=3, seed=1, workers=1)
    assert result.options["players"] == 3
    assert [g.seats for g in result.games] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert sum(result.summary.wins) + result.summary.draws == 3


# -- summary -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("wins", "n", "lo", "hi"),
    [(0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0), (5, 10, 0.2366, 0.7634), (50, 100, 0.4038, 0.5962),
     (1, 1, 0.2065, 1.0), (180, 200, 0.8506, 0.9343)],
)
def test_wilson_interval(wins: int, n: int, lo: float, hi: float) -> None:
    a, b = wilson_interval(wins, n)
    assert (round(a, 4), round(b, 4)) == (lo, hi)


def test_wilson_interval_of_no_games() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_summary_matches_the_records(serial: Any) -> None:
    s = serial.summary
    games = serial.games
    assert s.players == ("random", "random") and s.games == GAMES
    assert sum(s.wins) + s.draws == GAMES and s.draws == 0
    assert s.wins == tuple(sum(g.winner == k for g in games) for k in range(2))
    assert s.win_rate == tuple(w / GAMES for w in s.wins)
    assert s.ci95 == tuple(wilson_interval(w, GAMES) for w in s.wins)
    assert s.mean_hands == sum(g.hands for g in games) / GAMES
    assert s.mean_moves == sum(g.moves for g in games) / GAMES
    for k in range(2):
        assert s.mean_score[k] == pytest.approx(sum(s.mean_points[k].values()))
        assert s.mean_points[k]["cards"] == sum(g.points[k]["cards"] for g in games) / GAMES


def test_summarize_counts_draws() -> None:
    rec = GameRecord(0, 1, (2, 3), (0, 1), None, (5, 5), 1000, 48000,
                     (dict.fromkeys(CATEGORIES, 0),) * 2, (0, 0))
    s = summarize(["a", "b"], [rec])
    assert (s.wins, s.draws, s.win_rate) == ((0, 0), 1, (0.0, 0.0))


def test_json_structure(serial: Any) -> None:
    data = json.loads(serial.to_json())
    assert set(data) == {"summary", "games"}
    summary = data["summary"]
    for key in ("players", "games", "wins", "win_rate", "ci95", "draws", "mean_score",
                "mean_points", "mean_sweeps", "mean_hands", "mean_moves", "system", "seed"):
        assert key in summary
    assert summary["players"] == ["random", "random"] and summary["games"] == GAMES
    assert len(summary["ci95"]) == 2 and all(len(c) == 2 for c in summary["ci95"])
    assert len(data["games"]) == GAMES
    assert set(data["games"][0]) == {
        "index", "seed", "player_seeds", "seats", "winner", "scores", "hands", "moves",
        "points", "sweeps", "winners", "first",
    }
    for g in data["games"]:
        assert g["winners"] == ([] if g["winner"] is None else [g["winner"]])
    for key in ("score_sd", "seat_wins", "first_wins", "first_win_rate", "first_ci95", "score_counts"):
        assert key in summary
    assert list(data) == ["games", "summary"]   # the games first: the CLI streams them


def test_csv_rows(serial: Any) -> None:
    rows = list(csv.reader(io.StringIO(serial.to_csv())))
    header, body = rows[0], rows[1:]
    assert header[:6] == ["index", "seed", "winner", "hands", "moves", "first"]
    assert "p0_player" in header and "p1_points_ace_diamonds" in header
    assert len(set(header)) == len(header), "duplicate column names"
    assert len(body) == GAMES and all(len(r) == len(header) for r in body)
    for row, g in zip(body, serial.games, strict=True):
        rec = dict(zip(header, row, strict=True))
        assert int(rec["index"]) == g.index and int(rec["winner"]) == g.winner
        assert int(rec["p1_score"]) == g.scores[1] and int(rec["p0_seat"]) == g.seats[0]
        assert int(rec["p0_points_cards"]) == g.points[0]["cards"]
        assert int(rec["first"]) == g.first
    # csv.DictReader keeps every column: the sweeps made and the points they scored
    records = list(csv.DictReader(io.StringIO(serial.to_csv())))
    for rec, g in zip(records, serial.games, strict=True):
        assert len(rec) == len(header)
        assert int(rec["p0_sweeps"]) == g.sweeps[0]
        assert int(rec["p0_points_sweeps"]) == g.points[0]["sweeps"]


def test_display_names() -> None:
    assert display_names(["greedy", "random"]) == ["greedy", "random"]
    assert display_names(["random", "random"]) == ["random#0", "random#1"]


def test_progress_is_reported_in_order() -> None:
    calls: list[tuple[int, int]] = []
    simulate(games=5, seed=1, workers=1, chunk_size=2, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(0, 5), (2, 5), (4, 5), (5, 5)]
    calls.clear()
    with ThreadPoolExecutor(2) as ex:
        simulate(games=4, seed=1, executor=ex, chunk_size=1, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]


# -- bad input -----------------------------------------------------------------------------
class _Cheater:
    name = "cheater"

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        return Move.parse("KS")  # seldom legal


@pytest.mark.parametrize(
    ("kwargs", "error", "pattern"),
    [
        ({"system": "nope"}, UnknownSystemError, "unknown system 'nope'"),
        ({"options": {"colour": "red"}}, RulesError, "unknown option 'colour'"),
        ({"options": {"obligation": "v9"}}, RulesError, "obligation must be one of"),
        ({"players": ("random", "nobody")}, PlayerError, "unknown player 'nobody'"),
        ({"players": ("random",)}, SimulationError, "played by 2 players, not 1"),
        ({"players": ("random",) * 3}, SimulationError, "played by 2 players, not 3"),
        ({"players": "random"}, SimulationError, "not one string"),
        ({"players": ()}, SimulationError, "no players"),
        ({"players": ("random",) * 3, "options": {"players": 2}}, SimulationError, "players=2"),
        ({"games": 0}, SimulationError, "games must be at least 1"),
        ({"games": -5}, SimulationError, "games must be at least 1"),
        ({"games": 2.5}, SimulationError, "games must be an integer"),
        ({"workers": 0}, SimulationError, "workers must be at least 1"),
        ({"seed": "x"}, SimulationError, "seed must be an integer"),
        ({"chunk_size": 0}, SimulationError, "chunk_size must be at least 1"),
    ],
)
def test_bad_arguments(kwargs: dict[str, Any], error: type[Exception], pattern: str) -> None:
    with pytest.raises(error, match=pattern):
        simulate(**{"games": 2, "workers": 1, **kwargs})


def test_an_illegal_move_names_the_player(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PLAYERS, "cheater", _Cheater)
    with pytest.raises(PlayerError, match="player 'cheater' chose"):
        simulate(players=("random", "cheater"), games=2, seed=1, workers=1)


def test_a_player_error_in_a_worker_process_reaches_the_caller() -> None:
    # module:Class players are imported in the worker; this one fails there on its first move
    with pytest.raises(PlayerError, match="'cheater'"):
        simulate(players=("random", f"{__name__}:_Cheater"), games=4, seed=1, workers=2, chunk_size=1)


# -- greedy --------------------------------------------------------------------------------
def test_greedy_beats_random() -> None:
    pytest.importorskip("cassino.greedy")
    games = 20 if REFERENCE else 200
    result = simulate(players=("greedy", "random"), games=games, seed=1, workers=2)
    s = result.summary
    assert s.ci95[0][0] > 0.6, s
    assert s.wins[0] > 3 * s.wins[1]
    assert s.mean_score[0] > s.mean_score[1] + 5


# -- streaming: bounded work in flight, online totals (issue 23) ------------------------------
class _CountingExecutor(ThreadPoolExecutor):
    """A thread pool that records the most tasks submitted and not yet finished."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.outstanding = 0
        self.most = 0
        self.submitted = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        self.outstanding += 1
        self.submitted += 1
        self.most = max(self.most, self.outstanding)
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(lambda _: self._finished())
        return future

    def _finished(self) -> None:
        self.outstanding -= 1


def test_tasks_in_flight_are_bounded(serial: Any) -> None:
    from cassino.simulate import IN_FLIGHT

    with _CountingExecutor(2) as ex:   # one slot: at most IN_FLIGHT tasks out at a time
        result = simulate(games=GAMES, seed=11, executor=ex, chunk_size=1, workers=1)
    assert result.games == serial.games
    assert ex.submitted == GAMES and ex.most <= IN_FLIGHT < GAMES


def test_on_game_streams_every_game_in_order_and_keep_games_false_keeps_none(serial: Any) -> None:
    seen: list[GameRecord] = []
    with ThreadPoolExecutor(3) as ex:   # chunks finish out of order: delivered in order
        result = simulate(games=GAMES, seed=11, executor=ex, chunk_size=2, keep_games=False,
                          on_game=seen.append)
    assert result.games == () and tuple(seen) == serial.games
    assert result.summary == serial.summary


def test_summary_totals_online(serial: Any) -> None:
    from cassino.simulate import Tally

    s = serial.summary
    games = serial.games
    assert summarize(s.players, reversed(games)) == s   # integer totals: order-free
    tally = Tally(s.players)
    for g in games:
        tally.add(g)
    assert tally.summary() == s
    # the seat split and the first mover
    assert sum(s.seat_wins) == sum(s.wins)
    assert s.seat_wins == tuple(
        sum(1 for g in games for w in g.winners if g.seats[w] == seat) for seat in range(2)
    )
    assert all(g.first in (0, 1) for g in games)
    assert s.first_wins == sum(1 for g in games if g.first in g.winners)
    assert s.first_win_rate == s.first_wins / GAMES
    assert s.first_ci95 == wilson_interval(s.first_wins, GAMES)
    # the score distribution and its spread
    for k in range(2):
        scores = [g.scores[k] for g in games]
        assert s.score_counts[k] == {v: scores.count(v) for v in sorted(set(scores))}
        mean = sum(scores) / GAMES
        sd = (sum((x - mean) ** 2 for x in scores) / GAMES) ** 0.5
        assert abs(s.score_sd[k] - sd) < 1e-9


def test_the_first_mover_is_the_player_who_moved_first() -> None:
    from cassino.game import Game
    from cassino.simulate import game_plan, play_game

    r = cassino.rules("cassino_standard")
    for i in range(4):
        g = play_game(r, ["random", "random"], 5, i)
        deal = game_plan(5, i, 2)[0]
        assert g.seats[g.first] == Game(r, seed=deal).state.to_move


def test_records_are_not_kept_when_games_are_not_kept() -> None:
    """With keep_games=False only the record being delivered is alive: the run's memory
    does not grow with the games (the old run kept every record, some 6 KB a game)."""
    import gc

    def records() -> int:
        return sum(isinstance(o, GameRecord) for o in gc.get_objects())

    live: list[int] = []
    before = records()   # (the records of other tests' fixtures)

    def count(g: GameRecord) -> None:
        if g.index % 10 == 9:
            live.append(records() - before)

    games = 20 if REFERENCE else 100
    result = simulate(games=games, seed=3, workers=1, chunk_size=5, keep_games=False, on_game=count)
    assert result.games == () and result.summary.games == games
    assert len(live) == games // 10 and max(live) <= 2, live


def test_tasks_are_made_lazily() -> None:
    from cassino.simulate import _tasks

    tasks = _tasks({"seed": 1}, 10**12, 10)
    assert next(tasks) == {"seed": 1, "start": 0, "stop": 10}
    assert next(tasks)["start"] == 10
