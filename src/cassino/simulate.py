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
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from ._rng import Rng
from .errors import CassinoError
from .game import Game
from .players import Player, View, choose_move, make_player
from .rules import Rules, rules
from .scoring import CATEGORIES

__all__ = [
    "ENGINES",
    "LOCAL_CHUNK",
    "MAX_HANDS",
    "GameRecord",
    "SimulationError",
    "SimulationResult",
    "Summary",
    "check_conservation",
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

ENGINES = ("local", "ray", "dask")
"""Where :func:`simulate` runs the games: a local process pool, a Ray or a Dask cluster
(:mod:`cassino.distributed`)."""


class SimulationError(CassinoError):
    """Bad arguments of a simulation (number of games, workers, players, seats)."""


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
    sweeps).
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
    final game score, ``mean_points`` the points per category and ``mean_sweeps`` the
    sweeps, all per game; ``mean_hands`` and ``mean_moves`` measure game length.
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
            "mean_points": [dict(p) for p in self.mean_points],
            "mean_sweeps": list(self.mean_sweeps),
            "mean_hands": self.mean_hands,
            "mean_moves": self.mean_moves,
        }


def summarize(players: Sequence[str], records: Sequence[GameRecord]) -> Summary:
    """The :class:`Summary` of ``records`` (summed in record order: deterministic)."""
    n = len(records)
    k = len(players)
    div = max(n, 1)
    wins = [0] * k
    draws = 0
    score = [0] * k
    sweeps = [0] * k
    points = [dict.fromkeys(CATEGORIES, 0) for _ in range(k)]
    hands = moves = 0
    for r in records:
        won = r.winners or (() if r.winner is None else (r.winner,))
        if not won:
            draws += 1
        # both partners win a partnership game; every leader a shared win (California)
        for w in won:
            wins[w] += 1
        for p in range(k):
            score[p] += r.scores[p]
            sweeps[p] += r.sweeps[p]
            for cat, pts in r.points[p].items():
                points[p][cat] += pts
        hands += r.hands
        moves += r.moves
    return Summary(
        players=tuple(players),
        games=n,
        wins=tuple(wins),
        draws=draws,
        win_rate=tuple(w / div for w in wins),
        ci95=tuple(wilson_interval(w, n) for w in wins),
        mean_score=tuple(s / div for s in score),
        mean_points=tuple({c: v / div for c, v in p.items()} for p in points),
        mean_sweeps=tuple(s / div for s in sweeps),
        mean_hands=hands / div,
        mean_moves=moves / div,
    )


@dataclass(frozen=True)
class SimulationResult:
    """The games of a simulation (in index order) and their :class:`Summary`."""

    system: str
    options: dict[str, Any]
    seed: int
    duplicate: bool
    players: tuple[str, ...]
    games: tuple[GameRecord, ...]
    summary: Summary

    def to_dict(self) -> dict[str, Any]:
        """``{"summary": {...}, "games": [...]}``: the ``cassino simulate --json`` object."""
        head = {
            "system": self.system,
            "options": dict(self.options),
            "seed": self.seed,
            "duplicate": self.duplicate,
        }
        return {
            "summary": {**head, **self.summary.to_dict()},
            "games": [g.to_dict() for g in self.games],
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as one line of JSON."""
        return json.dumps(self.to_dict())

    def csv_header(self) -> list[str]:
        """Column names of :meth:`csv_rows` (``p0_...`` for player 0, and so on): unique,
        so that ``csv.DictReader`` keeps every column (``pK_sweeps`` counts the sweeps made,
        ``pK_points_sweeps`` the points they scored)."""
        cols = ["index", "seed", "winner", "hands", "moves"]
        for k in range(len(self.players)):
            cols += [f"p{k}_{f}" for f in ("player", "seat", "seed", "score", "sweeps")]
            cols += [f"p{k}_points_{c}" for c in CATEGORIES]
        return cols

    def csv_rows(self) -> list[list[Any]]:
        """One row per game (an empty winner is a draw)."""
        rows = []
        for g in self.games:
            row: list[Any] = [g.index, g.seed, "" if g.winner is None else g.winner, g.hands, g.moves]
            for k, name in enumerate(self.players):
                row += [name, g.seats[k], g.player_seeds[k], g.scores[k], g.sweeps[k]]
                row += [g.points[k][c] for c in CATEGORIES]
            rows.append(row)
        return rows

    def to_csv(self) -> str:
        """The header and :meth:`csv_rows` as CSV text."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.csv_header())
        writer.writerows(self.csv_rows())
        return out.getvalue()


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
    r: Rules, players: Sequence[str], seed: int, index: int, duplicate: bool = False
) -> GameRecord:
    """Play game ``index`` of a simulation of ``players`` (specs) under rules ``r``."""
    n = r.players
    deal, pseeds, places = game_plan(seed, index, n, duplicate)
    game = Game(r, seed=deal)
    # player k takes place places[k] at the table; in a partnership game the partner draw
    # then seats each place (Game.seating), otherwise the place is the seat
    seats = tuple(game.seat_of(p) for p in places)
    by_seat: list[Player] = [None] * n  # type: ignore[list-item]
    for k, spec in enumerate(players):
        by_seat[seats[k]] = make_player(spec, pseeds[k])
    team_sweeps = [0] * r.num_teams
    moves = 0
    while not game.is_over and game.hands_played < MAX_HANDS:
        hand = game.state
        seat = hand.to_move
        view = View.of(hand, seat, game.scores)
        game.push(choose_move(by_seat[seat], view, game.legal_moves()))
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
    )


def run_chunk(task: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Play games ``task["start"]`` to ``task["stop"] - 1``; plain data in and out.

    ``task`` holds ``system``, ``options`` (a dict of plain values), ``players`` (specs),
    ``seed``, ``duplicate``, ``start`` and ``stop``. Top-level and picklable, so that any
    executor can run it; returns one :meth:`GameRecord.to_dict` per game.
    """
    r = rules(task["system"], **task["options"])
    players = list(task["players"])
    return [
        play_game(r, players, task["seed"], i, task["duplicate"]).to_dict()
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
    :func:`cassino.distributed.open_engine` and docs/scaling.md.

    The result does not depend on ``workers``, ``chunk_size``, ``executor`` or ``engine``.
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
    }
    nworkers = workers if workers is not None else os.cpu_count() or 1
    if engine != "local":
        from .distributed import distributed_chunk_size, open_engine

        with open_engine(engine, workers=workers, address=address, scheduler=scheduler) as (
            pool,
            slots,
        ):
            size = chunk_size or distributed_chunk_size(games, slots)
            chunks = _run_on(pool, _tasks(base, games, size), games, progress)
        return _result(r, seed, duplicate, specs, chunks)
    if chunk_size is None:
        chunk_size = local_chunk_size(games, nworkers)
    tasks = _tasks(base, games, chunk_size)
    if executor is not None:
        chunks = _run_on(executor, tasks, games, progress)
    elif nworkers == 1 or len(tasks) == 1:
        chunks = []
        done = 0
        if progress is not None:
            progress(0, games)
        for task in tasks:
            chunks.append(run_chunk(task))
            done += task["stop"] - task["start"]
            if progress is not None:
                progress(done, games)
    else:
        with ProcessPoolExecutor(max_workers=min(nworkers, len(tasks))) as pool:
            chunks = _run_on(pool, tasks, games, progress)
    return _result(r, seed, duplicate, specs, chunks)


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


def _tasks(base: Mapping[str, Any], games: int, chunk_size: int) -> list[dict[str, Any]]:
    """The :func:`run_chunk` tasks of games ``0 .. games-1``, ``chunk_size`` games each."""
    return [
        {**base, "start": start, "stop": min(start + chunk_size, games)}
        for start in range(0, games, chunk_size)
    ]


def _result(
    r: Rules,
    seed: int,
    duplicate: bool,
    specs: tuple[str, ...],
    chunks: Iterable[Sequence[Mapping[str, Any]]],
) -> SimulationResult:
    records = tuple(GameRecord.from_dict(d) for chunk in chunks for d in chunk)
    return SimulationResult(
        system=r.system,
        options=r.options(),
        seed=seed,
        duplicate=duplicate,
        players=specs,
        games=records,
        summary=summarize(specs, records),
    )


def _run_on(
    executor: Executor,
    tasks: Sequence[Mapping[str, Any]],
    games: int,
    progress: ProgressFn | None,
) -> list[list[dict[str, Any]]]:
    # Everything is submitted before the first progress call, so that a caller's progress
    # display (which may start a thread) starts after the worker processes are forked.
    futures: list[Future[list[dict[str, Any]]]] = [executor.submit(run_chunk, t) for t in tasks]
    sizes = {f: t["stop"] - t["start"] for f, t in zip(futures, tasks, strict=True)}
    try:
        if progress is not None:
            progress(0, games)
        done = 0
        for f in as_completed(futures):
            f.result()  # raise the first failure now
            done += sizes[f]
            if progress is not None:
                progress(done, games)
    except BaseException:
        for f in futures:
            f.cancel()
        raise
    return [f.result() for f in futures]


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
    scores = [[g.scores[k] for g in result.games] for k in range(len(labels))]
    top = max((max(col) for col in scores if col), default=0)
    bins = range(0, top + 2)
    for k, label in enumerate(labels):
        left.hist(scores[k], bins=bins, histtype="step", linewidth=1.5, label=label)
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

