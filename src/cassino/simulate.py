"""Many seeded games between players, run in parallel and reproducible bit for bit.

Game ``i`` of a run draws every seed it uses from ``(seed, i)`` alone (:func:`game_plan`),
so the records are the same whatever the number of workers, the chunking or the executor.

Seats. Player ``k`` of the list sits in seat ``(k + i) % n`` in game ``i`` (``n`` players):
seats rotate game by game, so every player deals first and leads first equally often. With
``duplicate=True`` the ``n`` games ``g*n .. g*n + n-1`` share one deal seed (the same
first dealer and the same cards, seat by seat) and differ only by that rotation, so luck of
the deal cancels within each group.

Partnerships. In a partnership system player ``k`` takes place ``(k + i) % n`` before the
partner draw of :class:`~cassino.game.Game`, which then seats the places
(:meth:`~cassino.game.Game.seat_of`); ``seats[k]`` of a record is the seat after the draw. A
partnership's win counts for both partners (``winners``).

Every finished hand is checked for card conservation (:func:`check_conservation`).

>>> result = simulate(players=("random", "random"), games=4, seed=1, workers=1)
>>> result.summary.games, sum(result.summary.wins) + result.summary.draws
(4, 4)
>>> [r.seats for r in result.games]
[(0, 1), (1, 0), (0, 1), (1, 0)]
>>> simulate(players=("random", "random"), games=4, seed=1, workers=1).games == result.games
True
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, Protocol

from ._rng import Rng
from .distributed import ENGINES, connect, distributed_chunk_size
from .errors import SimulationError
from .game import Game, player_moves
from .players import Player, RandomPlayer, View, choose_move, make_player
from .rules import Rules, rules
from .scoring import CATEGORIES

__all__ = [
    "ENGINES",
    "LOCAL_CHUNK",
    "MAX_HANDS",
    "RETRIES",
    "STALL_TIMEOUT",
    "GameRecord",
    "SimulationError",
    "SimulationResult",
    "Summary",
    "Tally",
    "check_conservation",
    "csv_header",
    "csv_row",
    "derive_seed",
    "display_names",
    "game_plan",
    "local_chunk_size",
    "play_game",
    "plot_result",
    "run_chunk",
    "simulate",
    "summarize",
    "wilson_interval",
]

MAX_HANDS = 1000
"""A game still undecided after this many hands is stopped and counted as a draw."""

LOCAL_CHUNK = 10
"""The most games of one task of the local process pool by default (:func:`local_chunk_size`)."""

Z95 = 1.959963984540054
_M64 = (1 << 64) - 1

ProgressFn = Callable[[int, int], None]
GameFn = Callable[["GameRecord"], None]
EventFn = Callable[[str], None]

STALL_TIMEOUT = 300.0
"""Seconds a Ray or Dask run waits with no worker in its cluster before it fails."""

RETRIES = 3
"""Times a task lost with its worker (a Ray worker or node that died, a Dask result gone
with its worker) is run again."""

POLL_SECONDS = 1.0
"""How often a Ray or Dask run asks its cluster which workers it has."""

IN_FLIGHT = 4
"""Tasks kept in flight per worker (or cluster slot): the run submits more as they finish,
so its memory does not grow with the number of games."""

class ClusterWatch(Protocol):
    """What a run needs to know of the cluster it runs on (:mod:`cassino.distributed`)."""

    @property
    def engine(self) -> str:
        """``"ray"`` or ``"dask"``: the prefix of the run's event lines."""
        ...

    @property
    def where(self) -> str:
        """The cluster, for messages: ``"the Dask scheduler at tcp://10.0.0.1:8786"``."""
        ...

    def workers(self) -> dict[str, int]:
        """The live workers (Dask) or nodes (Ray) that take tasks, each with its number of
        task slots; raises when the cluster cannot be reached."""
        ...

    def lost(self, exc: BaseException) -> bool:
        """Whether a task failed because its worker was lost (then it is run again)."""
        ...


# -- seeds and seats -----------------------------------------------------------------------
def derive_seed(seed: int, *path: int) -> int:
    """A 63-bit seed mixed by splitmix64 from ``seed`` and the integers of ``path``.

    >>> derive_seed(1, 0, 0) == derive_seed(1, 0, 0) != derive_seed(1, 1, 0)
    True
    """
    h = Rng(seed & _M64).next_u64()
    for p in path:
        h = Rng(h ^ (p & _M64)).next_u64()
    return h >> 1


def game_plan(
    seed: int, index: int, players: int, duplicate: bool = False
) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """``(deal_seed, player_seeds, seats)`` of game ``index``: ``seats[k]`` is player k's seat.

    The deal seed comes from ``(seed, index)``, or from ``(seed, index // players)`` with
    ``duplicate``; player ``k`` is seeded from ``(seed, index, k + 1)``.

    >>> game_plan(1, 3, 2)[2]
    (1, 0)
    >>> game_plan(1, 2, 2, True)[0] == game_plan(1, 3, 2, True)[0]
    True
    """
    deal = derive_seed(seed, index // players if duplicate else index, 0)
    pseeds = tuple(derive_seed(seed, index, k + 1) for k in range(players))
    seats = tuple((k + index) % players for k in range(players))
    return deal, pseeds, seats


# -- records -------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameRecord:
    """One game of a simulation, indexed by player (not by seat).

    ``seed`` is the game's deal seed and ``player_seeds[k]`` player k's seed; ``seats[k]``
    is player k's seat; ``winner`` is a player index (None for a draw, see
    :data:`MAX_HANDS`) and ``winners`` every player of the winning team (both partners in a
    partnership game); ``scores`` are the final game scores; ``moves`` counts every move
    of the game; ``points[k]`` sums player k's points per scoring category over the hands
    and ``sweeps[k]`` counts the sweeps player k made (always 0 unless the rules count
    sweeps); ``first`` is the player who made the game's first move (None in records
    written before it was kept).
    """

    index: int
    seed: int
    player_seeds: tuple[int, ...]
    seats: tuple[int, ...]
    winner: int | None
    scores: tuple[int, ...]
    hands: int
    moves: int
    points: tuple[dict[str, int], ...]
    sweeps: tuple[int, ...]
    winners: tuple[int, ...] = ()
    first: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {
            "index": self.index,
            "seed": self.seed,
            "player_seeds": list(self.player_seeds),
            "seats": list(self.seats),
            "winner": self.winner,
            "scores": list(self.scores),
            "hands": self.hands,
            "moves": self.moves,
            "points": [dict(p) for p in self.points],
            "sweeps": list(self.sweeps),
            "winners": list(self.winners),
            "first": self.first,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        """The record of :meth:`to_dict` data."""
        return cls(
            index=data["index"],
            seed=data["seed"],
            player_seeds=tuple(data["player_seeds"]),
            seats=tuple(data["seats"]),
            winner=data["winner"],
            scores=tuple(data["scores"]),
            hands=data["hands"],
            moves=data["moves"],
            points=tuple(dict(p) for p in data["points"]),
            sweeps=tuple(data["sweeps"]),
            winners=tuple(
                data.get("winners", [] if data["winner"] is None else [data["winner"]])
            ),
            first=data.get("first"),
        )


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% with the default ``z``).

    >>> [round(x, 4) for x in wilson_interval(5, 10)]
    [0.2366, 0.7634]
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    # exact at the ends (the formula rounds to 1.7e-18 and 0.9999999999999999 there)
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


@dataclass(frozen=True)
class Summary:
    """Totals of a simulation, per player in the order given.

    ``win_rate`` and ``ci95`` (Wilson) count draws as non-wins; ``mean_score`` is the
    final game score and ``score_sd`` its standard deviation, ``mean_points`` the points
    per category and ``mean_sweeps`` the sweeps, all per game; ``mean_hands`` and
    ``mean_moves`` measure game length; ``score_counts[k]`` maps each final score of
    player k to its number of games (the score distribution).

    The seat split: ``seat_wins[s]`` counts the games won by whoever sat in seat ``s``,
    and ``first_wins`` those won by the player who made the first move of the game (its
    rate and Wilson interval in ``first_win_rate`` and ``first_ci95``): the first-player
    advantage, which the seat rotation spreads evenly over the players.
    """

    players: tuple[str, ...]
    games: int
    wins: tuple[int, ...]
    draws: int
    win_rate: tuple[float, ...]
    ci95: tuple[tuple[float, float], ...]
    mean_score: tuple[float, ...]
    mean_points: tuple[dict[str, float], ...]
    mean_sweeps: tuple[float, ...]
    mean_hands: float
    mean_moves: float
    score_sd: tuple[float, ...] = ()
    seat_wins: tuple[int, ...] = ()
    first_wins: int = 0
    first_win_rate: float = 0.0
    first_ci95: tuple[float, float] = (0.0, 1.0)
    score_counts: tuple[dict[int, int], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {
            "players": list(self.players),
            "games": self.games,
            "wins": list(self.wins),
            "draws": self.draws,
            "win_rate": list(self.win_rate),
            "ci95": [list(c) for c in self.ci95],
            "mean_score": list(self.mean_score),
            "score_sd": list(self.score_sd),
            "mean_points": [dict(p) for p in self.mean_points],
            "mean_sweeps": list(self.mean_sweeps),
            "mean_hands": self.mean_hands,
            "mean_moves": self.mean_moves,
            "seat_wins": list(self.seat_wins),
            "first_wins": self.first_wins,
            "first_win_rate": self.first_win_rate,
            "first_ci95": list(self.first_ci95),
            "score_counts": [{str(k): v for k, v in sorted(c.items())} for c in self.score_counts],
        }


class Tally:
    """Online totals of game records: counts, sums and sums of squares, all that a
    :class:`Summary` needs, in memory that does not grow with the number of games.

    The totals are integers, so the summary does not depend on the order of :meth:`add`.

    >>> t = Tally(("a", "b"))
    >>> t.add(GameRecord(0, 1, (2, 3), (0, 1), 0, (21, 9), 2, 40,
    ...                  ({"cards": 3}, {"cards": 0}), (0, 0), (0,), first=1))
    >>> s = t.summary()
    >>> s.wins, s.seat_wins, s.first_wins, s.mean_score
    ((1, 0), (1, 0), 0, (21.0, 9.0))
    """

    def __init__(self, players: Sequence[str]) -> None:
        k = len(players)
        self.players = tuple(players)
        self.games = 0
        self.draws = 0
        self.wins = [0] * k
        self.seat_wins = [0] * k
        self.first_wins = 0
        self.first_known = 0
        self.score = [0] * k
        self.score_sq = [0] * k
        self.score_counts: list[dict[int, int]] = [{} for _ in range(k)]
        self.sweeps = [0] * k
        self.points = [dict.fromkeys(CATEGORIES, 0) for _ in range(k)]
        self.hands = 0
        self.moves = 0

    def add(self, r: GameRecord) -> None:
        """Count one game."""
        self.games += 1
        won = r.winners or (() if r.winner is None else (r.winner,))
        if not won:
            self.draws += 1
        # both partners win a partnership game; every leader a shared win (California)
        for w in won:
            self.wins[w] += 1
            self.seat_wins[r.seats[w]] += 1
        if r.first is not None:
            self.first_known += 1
            self.first_wins += r.first in won
        for p in range(len(self.players)):
            self.score[p] += r.scores[p]
            self.score_sq[p] += r.scores[p] * r.scores[p]
            self.score_counts[p][r.scores[p]] = self.score_counts[p].get(r.scores[p], 0) + 1
            self.sweeps[p] += r.sweeps[p]
            for cat, pts in r.points[p].items():
                self.points[p][cat] += pts
        self.hands += r.hands
        self.moves += r.moves

    def summary(self) -> Summary:
        """The :class:`Summary` of the games added so far."""
        n = self.games
        div = max(n, 1)

        def sd(total: int, sq: int) -> float:
            return math.sqrt(max(0.0, sq / div - (total / div) ** 2)) if n else 0.0

        return Summary(
            players=self.players,
            games=n,
            wins=tuple(self.wins),
            draws=self.draws,
            win_rate=tuple(w / div for w in self.wins),
            ci95=tuple(wilson_interval(w, n) for w in self.wins),
            mean_score=tuple(s / div for s in self.score),
            mean_points=tuple({c: v / div for c, v in p.items()} for p in self.points),
            mean_sweeps=tuple(s / div for s in self.sweeps),
            mean_hands=self.hands / div,
            mean_moves=self.moves / div,
            score_sd=tuple(sd(t, q) for t, q in zip(self.score, self.score_sq, strict=True)),
            seat_wins=tuple(self.seat_wins),
            first_wins=self.first_wins,
            first_win_rate=self.first_wins / max(self.first_known, 1),
            first_ci95=wilson_interval(self.first_wins, self.first_known),
            score_counts=tuple(dict(sorted(c.items())) for c in self.score_counts),
        )


def summarize(players: Sequence[str], records: Iterable[GameRecord]) -> Summary:
    """The :class:`Summary` of ``records`` (a :class:`Tally` of them)."""
    tally = Tally(players)
    for r in records:
        tally.add(r)
    return tally.summary()


@dataclass(frozen=True)
class SimulationResult:
    """The games of a simulation (in index order) and their :class:`Summary`.

    ``games`` is empty when :func:`simulate` was told not to keep them
    (``keep_games=False``); the summary always counts every game.
    """

    system: str
    options: dict[str, Any]
    seed: int
    duplicate: bool
    players: tuple[str, ...]
    games: tuple[GameRecord, ...]
    summary: Summary

    def head(self) -> dict[str, Any]:
        """The run's parameters, the first keys of the JSON summary."""
        return {
            "system": self.system,
            "options": dict(self.options),
            "seed": self.seed,
            "duplicate": self.duplicate,
        }

    def to_dict(self) -> dict[str, Any]:
        """``{"games": [...], "summary": {...}}``: the ``cassino simulate --json`` object
        (the games first, so that the command can stream them as they finish)."""
        return {
            "games": [g.to_dict() for g in self.games],
            "summary": {**self.head(), **self.summary.to_dict()},
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as one line of JSON."""
        return json.dumps(self.to_dict())

    def csv_header(self) -> list[str]:
        """Column names of :meth:`csv_rows` (:func:`csv_header`)."""
        return csv_header(len(self.players))

    def csv_rows(self) -> list[list[Any]]:
        """One row per game (:func:`csv_row`)."""
        return [csv_row(g, self.players) for g in self.games]

    def to_csv(self) -> str:
        """The header and :meth:`csv_rows` as CSV text."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.csv_header())
        writer.writerows(self.csv_rows())
        return out.getvalue()


def csv_header(nplayers: int) -> list[str]:
    """Column names of :func:`csv_row` (``p0_...`` for player 0, and so on): unique, so
    that ``csv.DictReader`` keeps every column (``pK_sweeps`` counts the sweeps made,
    ``pK_points_sweeps`` the points they scored).

    >>> csv_header(2)[:7]
    ['index', 'seed', 'winner', 'hands', 'moves', 'first', 'p0_player']
    """
    cols = ["index", "seed", "winner", "hands", "moves", "first"]
    for k in range(nplayers):
        cols += [f"p{k}_{f}" for f in ("player", "seat", "seed", "score", "sweeps")]
        cols += [f"p{k}_points_{c}" for c in CATEGORIES]
    return cols


def csv_row(g: GameRecord, players: Sequence[str]) -> list[Any]:
    """The CSV row of one game (an empty winner is a draw)."""
    row: list[Any] = [g.index, g.seed, "" if g.winner is None else g.winner, g.hands, g.moves,
                      "" if g.first is None else g.first]
    for k, name in enumerate(players):
        row += [name, g.seats[k], g.player_seeds[k], g.scores[k], g.sweeps[k]]
        row += [g.points[k][c] for c in CATEGORIES]
    return row


# -- playing -------------------------------------------------------------------------------
def check_conservation(pos: Any, index: int = 0) -> None:
    """Raise :class:`SimulationError` unless a finished hand's piles and discard hold every
    card of the system's deck exactly once (52 cards, 49 for five players). A Callabra hand
    ended by clearing the table leaves the unplayed cards in the hands and the stock."""
    r = pos.rules
    cards = [c for pile in pos.piles for c in pile] + list(pos.discard)
    cleared = r.two_card_capture and bool(pos.sweep_order)
    if cleared:
        cards += [c for h in pos.hands for c in range(r.num_ids) if h >> c & 1] + list(pos.stock)
    mask = 0
    for c in cards:
        mask |= 1 << c
    held = any(pos.hands) and not cleared
    if len(cards) != r.deck_size or mask != r.deck_mask or held or pos.table_mask:
        raise SimulationError(
            f"game {index}: card conservation broken at the end of a hand: "
            f"{len(cards)} cards in piles and discard, {r.deck_size} in the deck"
        )


def play_game(
    r: Rules,
    players: Sequence[str],
    seed: int,
    index: int,
    duplicate: bool = False,
    core_players: bool = True,
    draw_partners: bool = True,
) -> GameRecord:
    """Play game ``index`` of a simulation of ``players`` (specs) under rules ``r``.

    When every player is a built-in ``random`` or ``greedy`` and ``core_players`` is true,
    each hand is played in C by :meth:`Game.play_hand` (the same moves, so the same
    record); ``core_players=False`` asks the Python players move by move. In a partnership
    game the partner draw seats the places; ``draw_partners=False`` seats each at its own
    place instead (places 0 and 2 partners against 1 and 3: a tournament's pair plays as
    partners)."""
    n = r.players
    deal, pseeds, places = game_plan(seed, index, n, duplicate)
    game = Game(r, seed=deal, seating=None if draw_partners else list(range(n)))
    # player k takes place places[k] at the table; in a partnership game the partner draw
    # then seats each place (Game.seating), otherwise the place is the seat
    seats = tuple(game.seat_of(p) for p in places)
    by_seat: list[Player] = [None] * n  # type: ignore[list-item]
    for k, spec in enumerate(players):
        by_seat[seats[k]] = make_player(spec, pseeds[k])
    team_sweeps = [0] * r.num_teams
    moves = 0
    first = seats.index(game.state.to_move)
    builtin = _builtin_policies(by_seat) if core_players else None
    while builtin is not None and not game._instant and not game.is_over and (
        game.hands_played < MAX_HANDS
    ):
        # random and greedy only: each hand is played in C (Game.play_hand), the same
        # moves as the players below would choose
        hand = game.state
        rngs: list[Rng] = [p._rng for p in by_seat]  # type: ignore[attr-defined]
        played, states = game.play_hand(builtin, [g.state for g in rngs], log=False)
        for g, st in zip(rngs, states, strict=True):
            g.state = st
        moves += played
        pos = hand.to_position()
        check_conservation(pos, index)
        for t, s in enumerate(pos.sweeps):
            team_sweeps[t] += s
    while not game.is_over and game.hands_played < MAX_HANDS:
        hand = game.state
        seat = hand.to_move
        view = View.of(hand, seat, game.scores)
        game.push(choose_move(by_seat[seat], view, player_moves(hand, by_seat[seat])))
        moves += 1
        if hand.is_over:
            pos = hand.to_position()
            check_conservation(pos, index)
            for t, s in enumerate(pos.sweeps):
                team_sweeps[t] += s
    team_points = [dict.fromkeys(CATEGORIES, 0) for _ in range(r.num_teams)]
    for hs in game.hand_scores:
        for t in range(r.num_teams):
            for cat, pts in hs.categories(t).items():
                team_points[t][cat] += pts
    teams = [r.team_of(s) for s in seats]
    winner = None if game.winner is None else teams.index(game.winner)
    winners = tuple(k for k, t in enumerate(teams) if t in game.winners)
    scores = game.scores
    return GameRecord(
        index=index,
        seed=deal,
        player_seeds=pseeds,
        seats=seats,
        winner=winner,
        winners=winners,
        scores=tuple(scores[t] for t in teams),
        hands=game.hands_played,
        moves=moves,
        points=tuple(dict(team_points[t]) for t in teams),
        sweeps=tuple(team_sweeps[t] for t in teams),
        first=first,
    )


def _builtin_policies(players: Sequence[Player]) -> list[str] | None:
    """The built-in policy of each seat's player when every one is exactly a
    :class:`RandomPlayer` or a :class:`~cassino.greedy.GreedyPlayer` (a subclass may
    choose otherwise), else None."""
    from .greedy import GreedyPlayer

    out = []
    for p in players:
        if type(p) is RandomPlayer:
            out.append("random")
        elif type(p) is GreedyPlayer:
            out.append("greedy")
        else:
            return None
    return out


def run_chunk(task: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Play games ``task["start"]`` to ``task["stop"] - 1``; plain data in and out.

    ``task`` holds ``system``, ``options`` (a dict of plain values), ``players`` (specs),
    ``seed``, ``duplicate``, ``start`` and ``stop``. Top-level and picklable, so that any
    executor can run it; returns one :meth:`GameRecord.to_dict` per game.
    """
    r = rules(task["system"], **task["options"])
    players = list(task["players"])
    return [
        play_game(
            r, players, task["seed"], i, task["duplicate"], task.get("core_players", True),
            task.get("draw_partners", True),
        ).to_dict()
        for i in range(task["start"], task["stop"])
    ]


def _rules_for(system: str | Rules, count: int, options: Mapping[str, Any]) -> Rules:
    r = system.replace(**options) if isinstance(system, Rules) else rules(system, **options)
    if count != r.players:
        if "players" in options:
            raise SimulationError(
                f"{count} players are given, but the option players={r.players} says otherwise"
            )
        lo, hi = r.player_range
        if not lo <= count <= hi:
            span = str(lo) if lo == hi else f"{lo} to {hi}"
            raise SimulationError(f"{r.system} is played by {span} players, not {count}")
        r = r.replace(players=count)
    return r


def _check_int(name: str, value: Any, low: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise SimulationError(f"{name} must be an integer, not {value!r}")
    if low is not None and value < low:
        raise SimulationError(f"{name} must be at least {low}, not {value}")
    return value


def simulate(
    system: str | Rules = "cassino_standard",
    players: Sequence[str] = ("random", "random"),
    games: int = 100,
    seed: int = 0,
    workers: int | None = None,
    options: Mapping[str, Any] | None = None,
    duplicate: bool = False,
    executor: Executor | None = None,
    progress: ProgressFn | None = None,
    chunk_size: int | None = None,
    engine: str = "local",
    address: str | None = None,
    scheduler: str | None = None,
    keep_games: bool = True,
    on_game: GameFn | None = None,
    stall_timeout: float | None = STALL_TIMEOUT,
    on_event: EventFn | None = None,
    core_players: bool = True,
    draw_partners: bool = True,
) -> SimulationResult:
    """Play ``games`` games of ``system`` between ``players`` (specs for
    :func:`~cassino.players.make_player`, one per seat) and summarize them.

    ``workers`` processes (default ``os.cpu_count()``) run chunks of ``chunk_size`` games
    through :func:`run_chunk`; ``workers=1`` plays in this process. Any
    :class:`concurrent.futures.Executor` may be passed as ``executor`` instead (it is not
    shut down). ``progress(done, total)`` is called as chunks finish. ``duplicate`` needs a
    multiple of the number of players as ``games``.

    ``engine="ray"`` runs the chunks on a Ray cluster (``address``; by default a Ray
    instance started on this machine), ``engine="dask"`` on a Dask cluster (``scheduler``;
    by default a local cluster); ``workers`` then sizes the cluster started here. Their
    chunks default to :func:`~cassino.distributed.distributed_chunk_size` games. See
    :func:`cassino.distributed.connect` and docs/scaling.md.

    The work streams: at most :data:`IN_FLIGHT` tasks per worker are pending at a time,
    and the summary is totalled game by game (:class:`Tally`). ``on_game(record)`` is
    called for every game in index order as the games finish; with ``keep_games=False``
    the result's ``games`` is empty, and the run's memory does not grow with ``games``.

    Faults on ``ray`` and ``dask``: a run whose cluster has no worker for ``stall_timeout``
    seconds (``None``: no limit) raises :class:`SimulationError` naming the cluster and the
    chunks done; a task lost with its Ray worker runs again, up to :data:`RETRIES` times.
    ``on_event(line)`` hears of each of these (a worker or node that left or joined, a
    retry, a cluster with no worker), one line each.

    Built-in ``random`` and ``greedy`` players are played by the core
    (:meth:`Game.play_hand`); ``core_players=False`` plays them through their Python
    classes instead, move by move, with the same result (a benchmark of the two).
    ``draw_partners=False`` seats the players of a partnership game as listed (0 and 2
    against 1 and 3) instead of by the partner draw (:func:`play_game`).

    The result does not depend on ``workers``, ``chunk_size``, ``executor``, ``engine`` or
    ``core_players``.
    """
    if isinstance(players, str):
        raise SimulationError("players must be a sequence of player specs, not one string")
    specs = tuple(players)
    _check_int("games", games, 1)
    _check_int("seed", seed)
    if workers is not None:
        _check_int("workers", workers, 1)
    if chunk_size is not None:
        _check_int("chunk_size", chunk_size, 1)
    if stall_timeout is not None and (
        isinstance(stall_timeout, bool)
        or not isinstance(stall_timeout, (int, float))
        or not stall_timeout > 0
        or not math.isfinite(stall_timeout)
    ):
        raise SimulationError(
            f"stall_timeout must be a positive number of seconds or None, not {stall_timeout!r}"
        )
    _check_engine(engine, executor, address, scheduler)
    if not specs:
        raise SimulationError("no players given")
    r = _rules_for(system, len(specs), dict(options or {}))
    n = r.players
    if duplicate and games % n:
        raise SimulationError(
            f"duplicate games come in groups of {n} (one per seat rotation): "
            f"{games} games is not a multiple of {n}"
        )
    for spec in specs:  # fail here, not in a worker, on an unknown player
        make_player(spec, 0)

    base: dict[str, Any] = {
        "system": r.system,
        "options": r.options(),
        "players": list(specs),
        "seed": seed,
        "duplicate": duplicate,
        "core_players": bool(core_players),
        "draw_partners": bool(draw_partners),
    }
    tally = Tally(specs)
    kept: list[GameRecord] = []

    def take(chunks: Iterable[Sequence[Mapping[str, Any]]]) -> SimulationResult:
        for chunk in chunks:
            for data in chunk:
                record = GameRecord.from_dict(data)
                tally.add(record)
                if keep_games:
                    kept.append(record)
                if on_game is not None:
                    on_game(record)
        return SimulationResult(
            system=r.system,
            options=r.options(),
            seed=seed,
            duplicate=duplicate,
            players=specs,
            games=tuple(kept),
            summary=tally.summary(),
        )

    nworkers = workers if workers is not None else os.cpu_count() or 1
    if engine != "local":
        with connect(engine, workers=workers, address=address, scheduler=scheduler) as cluster:
            size = chunk_size or distributed_chunk_size(games, cluster.slots)
            try:
                known: dict[str, int] | None = cluster.workers()
            except Exception:  # the watcher will find out
                known = None
            watcher = _Watcher(cluster, stall_timeout, on_event, -(-games // size), known)
            return take(
                _run_on(cluster.executor, _tasks(base, games, size), games, progress,
                        cluster.slots, watcher)
            )
    if chunk_size is None:
        chunk_size = local_chunk_size(games, nworkers)
    tasks = _tasks(base, games, chunk_size)
    if executor is not None:
        return take(_run_on(executor, tasks, games, progress, nworkers))
    if nworkers == 1 or games <= chunk_size:
        return take(_run_here(tasks, games, progress))
    ntasks = -(-games // chunk_size)
    with ProcessPoolExecutor(max_workers=min(nworkers, ntasks)) as pool:
        return take(_run_on(pool, tasks, games, progress, min(nworkers, ntasks)))


def local_chunk_size(games: int, workers: int) -> int:
    """Games per task of a local process pool: at least eight tasks per worker and at most
    :data:`LOCAL_CHUNK` games each, so that the workers finish within a fraction of a second
    of each other (a chunk costs well under a millisecond to send and return).

    >>> local_chunk_size(2000, 2), local_chunk_size(40, 2), local_chunk_size(3, 4)
    (10, 3, 1)
    """
    return max(1, min(LOCAL_CHUNK, -(-games // (max(1, workers) * 8))))


def _check_engine(engine: Any, executor: Executor | None, address: Any, scheduler: Any) -> None:
    if not isinstance(engine, str) or engine not in ENGINES:
        raise SimulationError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    if executor is not None and engine != "local":
        raise SimulationError(f"give either an executor or engine={engine!r}, not both")
    for name, value, owner in (("address", address, "ray"), ("scheduler", scheduler, "dask")):
        if value is None:
            continue
        if not isinstance(value, str) or not value.strip():
            raise SimulationError(f"{name} must be a non-empty string, not {value!r}")
        if engine != owner:
            raise SimulationError(f"{name} is for engine={owner!r}, not engine={engine!r}")


def _tasks(base: Mapping[str, Any], games: int, chunk_size: int) -> Iterator[dict[str, Any]]:
    """The :func:`run_chunk` tasks of games ``0 .. games-1``, ``chunk_size`` games each,
    made as they are needed."""
    for start in range(0, games, chunk_size):
        yield {**base, "start": start, "stop": min(start + chunk_size, games)}


def _run_here(
    tasks: Iterable[Mapping[str, Any]], games: int, progress: ProgressFn | None
) -> Iterator[list[dict[str, Any]]]:
    """The chunks of ``tasks`` played one after the other in this process."""
    done = 0
    if progress is not None:
        progress(0, games)
    for task in tasks:
        chunk = run_chunk(task)
        done += task["stop"] - task["start"]
        if progress is not None:
            progress(done, games)
        yield chunk


def _run_on(
    executor: Executor,
    tasks: Iterator[Mapping[str, Any]],
    games: int,
    progress: ProgressFn | None,
    slots: int,
    watcher: _Watcher | None = None,
) -> Iterator[list[dict[str, Any]]]:
    """The chunks of ``tasks`` run on ``executor``, yielded in game order as they finish.

    At most ``IN_FLIGHT * slots`` tasks are submitted or finished and waiting for an
    earlier one, so that memory stays bounded however many games the run has; the first
    failure is raised at once and the pending tasks are cancelled. With a ``watcher`` (a
    Ray or Dask cluster), the cluster is asked for its workers every :data:`POLL_SECONDS`:
    tasks lost with their worker run again, and a cluster without workers for too long
    ends the run.
    """
    limit = IN_FLIGHT * max(1, slots)
    pending: dict[Future[list[dict[str, Any]]], Mapping[str, Any]] = {}
    ready: dict[int, list[dict[str, Any]]] = {}
    following = 0   # the first game not yet yielded
    done = 0
    chunks = 0

    def submit() -> None:
        while len(pending) + len(ready) < limit:
            task = next(tasks, None)
            if task is None:
                return
            pending[executor.submit(run_chunk, task)] = task

    try:
        # the first tasks are submitted before the first progress call, so that a caller's
        # progress display (which may start a thread) starts after the workers are forked
        submit()
        if progress is not None:
            progress(0, games)
        timeout = None if watcher is None else POLL_SECONDS
        while pending:
            finished, _ = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
            for f in finished:
                task = pending.pop(f)
                try:
                    chunk = f.result()
                except Exception as exc:
                    if watcher is None or not watcher.retry(task, exc):
                        raise  # the first failure, now
                    pending[executor.submit(run_chunk, task)] = task
                    continue
                ready[task["start"]] = chunk
                done += task["stop"] - task["start"]
                chunks += 1
                if progress is not None:
                    progress(done, games)
            if watcher is not None:
                watcher.check(chunks, done, games)
            while following in ready:
                chunk = ready.pop(following)
                following += len(chunk)
                yield chunk
            submit()
    finally:  # a failure, or a caller that stops early: nothing is left running
        for f in pending:
            f.cancel()


class _Watcher:
    """Watches a cluster while a run waits on it: reports workers that leave or join and
    tasks run again, and fails the run after ``stall_timeout`` seconds without a worker.

    The cluster is asked on a thread of its own, so that a cluster that does not answer
    cannot block the run: a question unanswered for ``10 * POLL_SECONDS`` counts as no
    worker, as does a cluster that cannot be reached.
    """

    def __init__(self, cluster: ClusterWatch, stall_timeout: float | None,
                 on_event: EventFn | None, chunks: int,
                 known: Mapping[str, int] | None = None) -> None:
        self._cluster = cluster
        self._timeout = stall_timeout
        self._on_event = on_event
        self._chunks = chunks
        self._tries: dict[int, int] = {}
        # the workers of the last answer
        self._known = None if known is None else {k: v for k, v in known.items() if v > 0}
        self._since: float | None = None            # since when no worker was seen
        self._answered = False
        self._answer: dict[str, int] | None = None  # None: the cluster did not answer
        self._asked = 0.0
        self._asking = False
        self._lock = threading.Lock()

    def _say(self, line: str) -> None:
        if self._on_event is not None:
            self._on_event(f"{self._cluster.engine}: {line}")

    def retry(self, task: Mapping[str, Any], exc: BaseException) -> bool:
        """Whether to run ``task`` again after ``exc`` (its worker was lost), said in one
        line; raises :class:`SimulationError` after :data:`RETRIES` retries."""
        if not self._cluster.lost(exc):
            return False
        start, stop = task["start"], task["stop"]
        tries = self._tries[start] = self._tries.get(start, 0) + 1
        what = f"games {start}-{stop - 1}" if stop - start > 1 else f"game {start}"
        their = "their" if stop - start > 1 else "its"
        if tries > RETRIES:
            raise SimulationError(
                f"{what} lost {their} worker {tries} times on {self._cluster.where} "
                f"({type(exc).__name__}); no retry left"
            ) from None
        self._say(f"{what} lost {their} worker ({type(exc).__name__}); retry {tries} of {RETRIES}")
        return True

    def _ask(self) -> None:
        try:
            answer: dict[str, int] | None = {
                name: slots for name, slots in self._cluster.workers().items() if slots > 0
            }
        except Exception:  # an unreachable cluster runs nothing
            answer = None
        with self._lock:
            self._answer, self._answered, self._asking = answer, True, False

    def _workers(self) -> tuple[bool, dict[str, int] | None]:
        """(whether there is an answer, the live workers or None if unreachable); asks again
        unless a question is pending."""
        now = time.monotonic()
        with self._lock:
            if self._asking and now - self._asked > 10 * POLL_SECONDS:
                return True, None  # the cluster does not answer
            if not self._asking:
                self._asking, self._asked = True, now
                threading.Thread(target=self._ask, name="cassino-cluster-watch",
                                 daemon=True).start()
            return self._answered, self._answer

    def check(self, chunks: int, done: int, games: int) -> None:
        """At every poll: report workers that left or joined; raise
        :class:`SimulationError` after ``stall_timeout`` seconds without one."""
        answered, workers = self._workers()
        if not answered:
            return
        if workers is not None:
            if self._known is not None:
                for name in sorted(self._known.keys() - workers.keys()):
                    self._say(f"{self._unit} {name} left, {self._count(workers)} remaining")
                for name in sorted(workers.keys() - self._known.keys()):
                    self._say(f"{self._unit} {name} joined, {self._count(workers)} now")
            self._known = workers
        now = time.monotonic()
        if workers:
            if self._since is not None:
                self._say(f"a worker is back after {now - self._since:.0f} s without one")
            self._since = None
            return
        if self._since is None:
            self._since = now
            reason = "no worker on" if workers is not None else "no answer from"
            limit = (
                "" if self._timeout is None
                else f"; the run fails in {self._timeout:g} s unless one joins"
            )
            self._say(f"{reason} {self._cluster.where}{limit}")
        elif self._timeout is not None and now - self._since >= self._timeout:
            raise SimulationError(
                f"no worker on {self._cluster.where} for {self._timeout:g} s: "
                f"{chunks} of {self._chunks} chunks done ({done:,} of {games:,} games)"
            )

    @property
    def _unit(self) -> str:
        return "node" if self._cluster.engine == "ray" else "worker"

    def _count(self, workers: Mapping[str, int]) -> str:
        if self._cluster.engine == "ray":
            cpus = sum(workers.values())
            return f"{cpus} CPU{'s' if cpus != 1 else ''}"
        return f"{len(workers)} worker{'s' if len(workers) != 1 else ''}"


# -- plotting ------------------------------------------------------------------------------
def plot_result(result: SimulationResult, path: str | os.PathLike[str]) -> None:
    """Write a PNG chart: final score distribution per player and win rates with 95% CIs.

    Needs matplotlib (``pip install 'cassino[plot]'``); draws with the Agg canvas, without
    pyplot.
    """
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise SimulationError(
            "plotting needs matplotlib: pip install 'cassino[plot]'"
        ) from None
    s = result.summary
    labels = display_names(result.players)
    fig = Figure(figsize=(10, 4), dpi=100)
    FigureCanvasAgg(fig)
    left, right = fig.subplots(1, 2)
    counts = s.score_counts
    top = max([0] + [max(c) for c in counts if c])
    bins = range(min([0] + [min(c) for c in counts if c]), top + 2)   # (scores can be < 0)
    for k, label in enumerate(labels):
        xs_k = list(counts[k]) if k < len(counts) else []
        left.hist(xs_k, bins=bins, weights=[counts[k][x] for x in xs_k], histtype="step",
                  linewidth=1.5, label=label)
    target = rules(result.system, **result.options).target
    left.axvline(target, color="grey", linestyle="--", linewidth=1)
    left.set_xlabel(f"final game score (target {target})")
    left.set_ylabel("games")
    left.set_title(f"Score distribution ({s.games} games)")
    left.legend()
    xs = range(len(labels))
    err = [
        [max(0.0, r - lo) for r, (lo, _) in zip(s.win_rate, s.ci95, strict=True)],
        [max(0.0, hi - r) for r, (_, hi) in zip(s.win_rate, s.ci95, strict=True)],
    ]
    right.bar(xs, s.win_rate, yerr=err, capsize=6, color="tab:blue")
    right.set_xticks(list(xs), labels)
    right.set_ylim(0, 1)
    right.set_ylabel("win rate (95% Wilson CI)")
    right.set_title(f"{result.system}, seed {result.seed}")
    fig.tight_layout()
    fig.savefig(os.fspath(path), format="png")


def display_names(players: Iterable[str]) -> list[str]:
    """Player specs made unique for display: ``random, random`` gives ``random#0, random#1``."""
    names = list(players)
    if len(set(names)) == len(names):
        return names
    return [f"{name}#{k}" for k, name in enumerate(names)]

