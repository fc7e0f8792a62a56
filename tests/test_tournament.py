"""cassino tournament: the statistics against hand-computed examples, the round robin, the
player-spec parameters, and the command's JSON, CSV and plot."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import cassino
from cassino.cli import cli
from cassino.errors import SimulationError
from cassino.players import PlayerError, make_player, split_spec
from cassino.rules import implemented_systems, rules
from cassino.tournament import PairResult, bradley_terry, tournament

PURE = cassino.IMPLEMENTATION == "reference"


class DepthBot:
    """A player with a parameter: ``depth`` 0 plays the first legal move, else the last."""

    name = "depth"

    def __init__(self, seed: int = 0, depth: int = 1) -> None:
        self.depth = depth

    def choose(self, view: Any, moves: Any) -> Any:
        return moves[-1] if self.depth else moves[0]


# -- the statistics, by hand ---------------------------------------------------------------
def test_pair_statistics_by_hand() -> None:
    p = PairResult(("a", "b"), (6, 3), 1, (5.0, -1.0, 3.0, 3.0, 0.0, 2.0, -4.0, 6.0, 1.0, 5.0))
    assert p.games == 10 and p.win_rate == (0.6, 0.3)
    # Wilson 95%: 6 of 10 -> centre (0.6 + z^2/20) / (1 + z^2/10), half-width by hand
    z = 1.959963984540054
    centre = (0.6 + z * z / 20) / (1 + z * z / 10)
    half = z * math.sqrt(0.6 * 0.4 / 10 + z * z / 400) / (1 + z * z / 10)
    assert p.ci95[0] == pytest.approx((centre - half, centre + half))
    # margin: mean 20 / 10 = 2.0; squared deviations 9+9+1+1+4+0+36+16+1+9 = 86, sample
    # variance 86 / 9, half-width z * sqrt(86 / 9 / 10)
    mean, (lo, hi) = p.margin
    assert mean == 2.0
    half = z * math.sqrt(86 / 9 / 10)
    assert (lo, hi) == (round(2.0 - half, 2), round(2.0 + half, 2))
    d = p.to_dict()
    assert d["players"] == ["a", "b"] and d["games"] == 10 and d["wins"] == [6, 3]
    assert d["draws"] == 1 and d["win_rate"] == [0.6, 0.3] and len(d["ci95"]) == 2


def test_bradley_terry_by_hand() -> None:
    # two players, 3 wins to 1: strengths 3:1, 400 log10(3) Elo apart, mean 0
    r = bradley_terry(["a", "b"], {("a", "b"): 3.0, ("b", "a"): 1.0}, prior=0.0)
    assert r["a"] - r["b"] == pytest.approx(400 * math.log10(3))
    assert r["a"] + r["b"] == pytest.approx(0.0)
    # a cycle of equal results: all equal
    cyc = {("a", "b"): 2.0, ("b", "c"): 2.0, ("c", "a"): 2.0,
           ("b", "a"): 1.0, ("c", "b"): 1.0, ("a", "c"): 1.0}
    assert all(abs(v) < 1e-6 for v in bradley_terry(["a", "b", "c"], cyc, prior=0.0).values())
    # a player who never won stays finite with the prior, and last
    r = bradley_terry(["a", "b", "c"], {("a", "c"): 4.0, ("b", "c"): 4.0, ("a", "b"): 2.0,
                                        ("b", "a"): 2.0})
    assert math.isfinite(r["c"]) and r["c"] < r["a"] == pytest.approx(r["b"])


# -- player specs with parameters ------------------------------------------------------------
def test_player_specs_take_parameters() -> None:
    assert split_spec("ismcts:ms=50") == ("ismcts", {"ms": 50})
    assert split_spec("ismcts:iterations=2000:policy=greedy") == (
        "ismcts", {"iterations": 2000, "policy": "greedy"})
    assert split_spec("mybots:Bot:depth=3:x=0.5:on=false") == (
        "mybots:Bot", {"depth": 3, "x": 0.5, "on": False})
    bot = make_player("test_tournament:DepthBot:depth=0", seed=3)
    assert isinstance(bot, DepthBot) and bot.depth == 0
    for bad, match in [
        ("random:foo=1", "foo"),
        ("greedy:x=1:y", "come last"),
        ("greedy:1x=2", "parameter name"),
        ("greedy:a=1:a=2", "twice"),
        (":a=1", "names no player"),
    ]:
        with pytest.raises(PlayerError, match=match):
            make_player(bad)


# -- the round robin ---------------------------------------------------------------------------
def test_round_robin_of_three_players() -> None:
    players = ["greedy", "random", "test_tournament:DepthBot:depth=0"]
    n = 2 if PURE else 6    # the reference's greedy is slow
    t = tournament(players, games=n, seed=4, workers=1, bootstrap=40, timing_moves=5)
    assert [p.players for p in t.pairs] == [
        ("greedy", "random"), ("greedy", players[2]), ("random", players[2])]
    assert t.games == 3 * n and all(sum(p.wins) + p.draws == n for p in t.pairs)
    assert set(t.ratings) == set(players) and set(t.ms_per_move) == set(players)
    for rating, (lo, hi) in t.ratings.values():
        assert lo <= rating <= hi
    assert all(ms >= 0 for ms in t.ms_per_move.values())
    # the pair's games are simulate's: greedy's wins there are the pair's
    res = cassino.simulate(players=("greedy", "random"), games=n, seed=4, workers=1,
                           duplicate=True)
    assert t.pairs[0].wins[0] == res.summary.wins[0]
    d = t.to_dict()
    for key in ("system", "games", "players", "pairs", "ratings", "ms_per_move"):
        assert key in d
    assert d["ratings"]["greedy"]["ci95"][0] <= d["ratings"]["greedy"]["rating"]


def test_same_seed_same_result_with_any_number_of_workers() -> None:
    one = tournament(["greedy", "random"], games=8, seed=2, workers=1, bootstrap=30,
                     timing_moves=0)
    two = tournament(["greedy", "random"], games=8, seed=2, workers=2, bootstrap=30,
                     timing_moves=0)
    assert one.to_dict() == two.to_dict()


def test_odd_seats_give_each_side_the_extra_seat_half_the_time() -> None:
    t = tournament(["greedy", "random"], "cassino_three_four", games=6, seed=1, workers=1,
                   bootstrap=10, timing_moves=0, options={"players": 3})
    assert t.pairs[0].games == 6
    with pytest.raises(SimulationError, match="multiple of 6"):
        tournament(["greedy", "random"], "cassino_three_four", games=3, workers=1,
                   options={"players": 3})


def test_a_pair_plays_as_partners_in_a_partnership_game() -> None:
    """The pair's two copies of a player sit opposite as partners (the partner draw would
    put greedy with random, and the game, won by both sides, counted as a draw)."""
    from cassino.simulate import simulate

    t = tournament(["greedy", "random"], "cassino_partnership", games=8, seed=1, workers=1,
                   bootstrap=10, timing_moves=0)
    assert t.pairs[0].draws == 0 and sum(t.pairs[0].wins) == 8
    res = simulate("cassino_partnership", ["greedy", "random", "greedy", "random"], games=4,
                   seed=1, workers=1, duplicate=True, draw_partners=False)
    for g in res.games:
        assert (g.seats[0] - g.seats[2]) % 4 == 2 and set(g.winners) in ({0, 2}, {1, 3})
    drawn = simulate("cassino_partnership", ["greedy", "random", "greedy", "random"],
                     games=8, seed=1, workers=1)
    assert any((g.seats[0] - g.seats[2]) % 4 != 2 for g in drawn.games)


def test_bad_tournaments_are_refused() -> None:
    with pytest.raises(SimulationError, match="two players"):
        tournament(["greedy"])
    with pytest.raises(SimulationError, match="once"):
        tournament(["greedy", "greedy"])
    with pytest.raises(PlayerError):
        tournament(["greedy", "nobody"])


@pytest.mark.slow
def test_the_dask_engine_gives_the_local_result() -> None:
    pytest.importorskip("distributed")
    local = tournament(["greedy", "random"], games=4, seed=6, workers=1, bootstrap=20,
                       timing_moves=0)
    dask = tournament(["greedy", "random"], games=4, seed=6, workers=1, bootstrap=20,
                      timing_moves=0, engine="dask")
    assert dask.to_dict() == local.to_dict()


# -- the command ---------------------------------------------------------------------------------
def run(*args: str) -> Any:
    result = CliRunner().invoke(cli, ["tournament", *args])
    assert result.exit_code == 0, result.output
    return result


def test_cli_json() -> None:
    out = run("--players", "greedy,random", "--games", "4", "--workers", "1", "--json",
              "--bootstrap", "20", "--timing-moves", "3").stdout
    data = json.loads(out)
    assert data["system"] == "cassino_standard" and data["games"] == 4
    assert data["players"] == ["greedy", "random"]
    pair = data["pairs"][0]
    assert pair["players"] == ["greedy", "random"] and pair["games"] == 4
    assert sum(pair["wins"]) + pair["draws"] == 4 and len(pair["win_rate"]) == 2
    assert all(lo <= hi for lo, hi in pair["ci95"])
    assert set(data["ratings"]) == {"greedy", "random"}
    assert set(data["ratings"]["greedy"]) == {"rating", "ci95"}
    assert set(data["ms_per_move"]) == {"greedy", "random"}


def test_cli_csv_and_table() -> None:
    out = run("--players", "greedy,random", "--games", "2", "--workers", "1", "--csv",
              "--bootstrap", "5", "--timing-moves", "0").stdout
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0][:3] == ["player_a", "player_b", "games"] and rows[1][:3] == [
        "greedy", "random", "2"]
    table = run("--players", "greedy,random", "--games", "2", "--workers", "1",
                "--bootstrap", "5", "--timing-moves", "0").stdout
    assert "greedy vs random" in table and "ms/move" in table
    bad = CliRunner().invoke(cli, ["tournament", "--players", "greedy,random", "--json",
                                   "--csv"])
    assert bad.exit_code != 0 and "cannot be combined" in bad.output


def test_cli_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "t.png"
    run("--players", "greedy,random", "--games", "2", "--workers", "1", "--bootstrap", "5",
        "--timing-moves", "0", "--plot", str(png))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


COMPOUND = ("african_cassino_3p", "african_cassino_2p", "african_cassino_partnership",
            "italian_house_cassino")


@pytest.mark.slow
@pytest.mark.parametrize("system", [*implemented_systems(), *COMPOUND])
def test_all_four_bots_meet_on_every_system(system: str) -> None:
    # the command with a small budget: duplicate deals, every built-in player (in
    # the compound systems, whose State is the reference's: ismcts's Python search, greedy
    # judging a turn by the table it leaves, the timing's positions with their turns)
    seats = rules(system).players
    games = seats if seats % 2 == 0 else 2 * seats
    out = run("--system", system, "--players", "ismcts:iterations=3,expert,greedy,random",
              "--games", str(games), "--seed", "3", "--workers", "1", "--duplicate", "--json",
              "--bootstrap", "10", "--timing-moves", "2").stdout
    data = json.loads(out)
    assert data["system"] == system and len(data["pairs"]) == 6
    for pair in data["pairs"]:
        assert sum(pair["wins"]) + pair["draws"] == pair["games"] == games
    assert set(data["ratings"]) == set(data["ms_per_move"]) == {
        "ismcts:iterations=3", "expert", "greedy", "random"}

