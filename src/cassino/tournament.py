"""Round-robin tournaments between players, for benchmarking strategies.

Every pair of players meets on the same seeded deals (:func:`cassino.simulate`, so the
local, process-pool, Ray and Dask engines give the same result for a seed). With
``duplicate`` every deal is replayed with the seats rotated, so the luck of the cards
cancels out. For each pair: games won with Wilson 95% intervals and the mean point margin
with its interval; for each player a Bradley-Terry rating on the Elo scale with a
bootstrap interval, and the mean milliseconds per move of its ``choose``.

>>> t = tournament(["greedy", "random"], games=8, seed=1, workers=1, bootstrap=50)
>>> t.pairs[0].players, sum(t.pairs[0].wins) + t.pairs[0].draws
(('greedy', 'random'), 8)
>>> t.ratings["greedy"][0] > t.ratings["random"][0]
True
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ._rng import Rng
from .errors import SimulationError
from .game import player_moves
from .players import View, make_player
from .rules import Rules, rules
from .simulate import Z95, GameRecord, wilson_interval
from .simulate import simulate as run_simulation

__all__ = ["PairResult", "TournamentResult", "bradley_terry", "tournament"]

ProgressFn = Callable[[int, int], None]

ELO = 400 / math.log(10)
"""Elo points per unit of the Bradley-Terry log-strength."""


@dataclass(frozen=True)
class PairResult:
    """The games of one pair: ``wins[i]`` of ``players[i]``, ``draws``, and ``margins``,
    the point margin of ``players[0]`` over ``players[1]`` in each game (final game
    scores, the mean over each side's seats)."""

    players: tuple[str, str]
    wins: tuple[int, int]
    draws: int
    margins: tuple[float, ...]

    @property
    def games(self) -> int:
        """Games played."""
        return len(self.margins)

    @property
    def win_rate(self) -> tuple[float, float]:
        """Share of the games each player won."""
        n = self.games or 1
        return (self.wins[0] / n, self.wins[1] / n)

    @property
    def ci95(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """Wilson 95% intervals of the two win rates."""
        return (wilson_interval(self.wins[0], self.games), wilson_interval(self.wins[1], self.games))

    @property
    def margin(self) -> tuple[float, tuple[float, float]]:
        """The mean margin of ``players[0]`` and its 95% interval (normal approximation).

        >>> PairResult(("a", "b"), (1, 1), 0, (4.0, -2.0)).margin
        (1.0, (-4.88, 6.88))
        """
        n = self.games
        if n == 0:
            return (0.0, (0.0, 0.0))
        mean = sum(self.margins) / n
        if n == 1:
            return (mean, (mean, mean))
        var = sum((x - mean) ** 2 for x in self.margins) / (n - 1)
        half = Z95 * math.sqrt(var / n)
        return (mean, (round(mean - half, 2), round(mean + half, 2)))

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` form of the pair."""
        mean, (lo, hi) = self.margin
        return {
            "players": list(self.players),
            "games": self.games,
            "wins": list(self.wins),
            "draws": self.draws,
            "win_rate": list(self.win_rate),
            "ci95": [list(c) for c in self.ci95],
            "margin": mean,
            "margin_ci95": [lo, hi],
        }


@dataclass(frozen=True)
class TournamentResult:
    """A round robin: the pairs in order, each player's rating and its 95% interval, and
    each player's mean milliseconds per move."""

    system: str
    options: dict[str, Any]
    seed: int
    duplicate: bool
    players: tuple[str, ...]
    pairs: tuple[PairResult, ...]
    ratings: dict[str, tuple[float, tuple[float, float]]]
    ms_per_move: dict[str, float]

    @property
    def games(self) -> int:
        """Games played in all."""
        return sum(p.games for p in self.pairs)

    def to_dict(self) -> dict[str, Any]:
        """The ``cassino tournament --json`` object."""
        return {
            "system": self.system,
            "options": self.options,
            "seed": self.seed,
            "duplicate": self.duplicate,
            "games": self.games,
            "players": list(self.players),
            "pairs": [p.to_dict() for p in self.pairs],
            "ratings": {
                name: {"rating": r, "ci95": list(ci)} for name, (r, ci) in self.ratings.items()
            },
            "ms_per_move": dict(self.ms_per_move),
        }

    def csv_rows(self) -> list[list[Any]]:
        """One row per pair, after :data:`CSV_HEADER`."""
        rows = []
        for p in self.pairs:
            mean, (lo, hi) = p.margin
            (a_lo, a_hi), _ = p.ci95
            rows.append([
                p.players[0], p.players[1], p.games, p.wins[0], p.wins[1], p.draws,
                round(p.win_rate[0], 4), round(a_lo, 4), round(a_hi, 4),
                round(mean, 3), lo, hi,
            ])
        return rows


CSV_HEADER = [
    "player_a", "player_b", "games", "wins_a", "wins_b", "draws", "win_rate_a",
    "win_rate_a_lo", "win_rate_a_hi", "margin_a", "margin_lo", "margin_hi",
]


def bradley_terry(
    names: Sequence[str], wins: Mapping[tuple[str, str], float], prior: float = 0.5
) -> dict[str, float]:
    """Bradley-Terry ratings on the Elo scale (mean 0) from ``wins[a, b]``, the games ``a``
    won against ``b`` (a draw counts half to each); ``prior`` virtual wins each way per
    pair that met keep a player who won nothing finite (the MM algorithm of Hunter, 2004).

    >>> r = bradley_terry(["a", "b"], {("a", "b"): 3.0, ("b", "a"): 1.0}, prior=0.0)
    >>> round(r["a"] - r["b"])      # 400 * log10(3)
    191
    """
    w = {k: v for k, v in wins.items()}
    met = {frozenset(k) for k, v in wins.items()}
    for pair in met:
        if len(pair) == 2:
            a, b = tuple(pair)
            w[a, b] = w.get((a, b), 0.0) + prior
            w[b, a] = w.get((b, a), 0.0) + prior
    p = dict.fromkeys(names, 1.0)
    for _ in range(1000):
        new = {}
        for i in names:
            won = sum(w.get((i, j), 0.0) for j in names if j != i)
            denom = sum(
                (w.get((i, j), 0.0) + w.get((j, i), 0.0)) / (p[i] + p[j])
                for j in names if j != i
            )
            new[i] = won / denom if denom > 0 and won > 0 else 1e-12
        # normalize: geometric mean 1
        g = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        new = {k: v / g for k, v in new.items()}
        done = max(abs(math.log(new[k] / p[k])) for k in names) < 1e-10
        p = new
        if done:
            break
    return {k: ELO * math.log(v) for k, v in p.items()}


def _sides(n: int, first: int) -> list[int]:
    """Side 0 or 1 of each of ``n`` seats' players, alternating from ``first``."""
    return [(first + k) % 2 for k in range(n)]


def _outcome(g: GameRecord, sides: Sequence[int]) -> tuple[int | None, float]:
    """The side that won ``g`` (None: a draw) and side 0's margin."""
    won = {sides[k] for k in g.winners} if g.winners else (
        {sides[g.winner]} if g.winner is not None else set()
    )
    side = next(iter(won)) if len(won) == 1 else None
    mean = [0.0, 0.0]
    for s in (0, 1):
        got = [g.scores[k] for k in range(len(sides)) if sides[k] == s]
        mean[s] = sum(got) / len(got)
    return side, mean[0] - mean[1]


def ms_per_move(spec: str, r: Rules, moves: int = 60, seed: int = 0) -> float:
    """Mean milliseconds of ``choose`` by player ``spec`` over ``moves`` decisions from
    random positions of ``r`` (its Python entry point: the built-in players also run in C
    inside simulations, faster)."""
    from . import State

    player = make_player(spec, seed)
    rng = Rng(seed)
    spent = 0.0
    done = 0
    hand = 0
    while done < moves:
        state = State.deal(r, hand % r.players, seed + hand)
        hand += 1
        while not state.is_over and done < moves:
            legal = player_moves(state, player)     # (compound turns: as in a game)
            view = View.of(state, state.to_move)
            t0 = time.perf_counter()
            player.choose(view, legal)
            spent += time.perf_counter() - t0
            done += 1
            if r.compound:          # (every turn, its orders included, by index)
                state.push(state.move_at(rng.below(state.num_moves())))
            else:
                state.push(legal[rng.below(len(legal))])
    return spent / moves * 1e3


def tournament(
    players: Sequence[str],
    system: str | Rules = "cassino_standard",
    games: int = 100,
    seed: int = 0,
    duplicate: bool = True,
    workers: int | None = None,
    options: Mapping[str, Any] | None = None,
    engine: str = "local",
    address: str | None = None,
    scheduler: str | None = None,
    progress: ProgressFn | None = None,
    bootstrap: int = 1000,
    timing_moves: int = 60,
) -> TournamentResult:
    """A round robin of ``players`` (specs for :func:`~cassino.players.make_player`,
    ``name:key=value`` parameters included), ``games`` games per pair on the same seeded
    deals.

    A pair takes alternate seats (``a, b, a, b``: partners in a partnership game); with an
    odd number of seats, half of its games start with each, so neither holds the extra
    seat more often. ``duplicate`` replays each deal once per seat rotation (``games``
    must then be a multiple of the seats, of twice the seats when they are odd).
    ``bootstrap`` resamplings of each pair's games give the ratings' intervals;
    ``timing_moves`` decisions time each player (:func:`ms_per_move`; 0: not timed).
    """
    specs = [p.strip() for p in players] if not isinstance(players, str) else []
    if len(specs) < 2:
        raise SimulationError("a tournament needs at least two players")
    if len(set(specs)) != len(specs):
        raise SimulationError("each player of a tournament is named once")
    for spec in specs:
        make_player(spec, 0)
    r = system.replace(**options) if isinstance(system, Rules) and options else (
        system if isinstance(system, Rules) else rules(system, **dict(options or {}))
    )
    n = r.players
    starts = (0, 1) if n % 2 else (0,)
    unit = n * len(starts) if duplicate else len(starts)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1 or games % unit:
        raise SimulationError(
            f"games per pair must be a positive multiple of {unit} here, not {games!r}"
        )
    pairs_list = [(a, b) for i, a in enumerate(specs) for b in specs[i + 1 :]]
    total = games * len(pairs_list)
    done = 0
    pairs: list[PairResult] = []
    outcomes: dict[tuple[str, str], list[tuple[int | None, float]]] = {}
    for a, b in pairs_list:
        got: list[tuple[int | None, float]] = []
        for first in starts:
            sides = _sides(n, first)
            seat_specs = [a if s == 0 else b for s in sides]
            base = done

            def tick(d: int, _t: int, base: int = base) -> None:
                if progress is not None:
                    progress(base + d, total)

            result = run_simulation(
                r, seat_specs, games=games // len(starts), seed=seed, workers=workers,
                duplicate=duplicate, engine=engine, address=address, scheduler=scheduler,
                progress=tick, draw_partners=False,
            )
            got += [_outcome(g, sides) for g in result.games]
            done += games // len(starts)
        outcomes[a, b] = got
        wins = (sum(1 for s, _ in got if s == 0), sum(1 for s, _ in got if s == 1))
        pairs.append(PairResult((a, b), wins, len(got) - sum(wins), tuple(m for _, m in got)))
    ratings = _ratings(specs, outcomes, bootstrap, seed)
    timing = {s: ms_per_move(s, r, timing_moves, seed) if timing_moves else 0.0 for s in specs}
    return TournamentResult(
        system=r.system, options=r.options(), seed=seed, duplicate=duplicate,
        players=tuple(specs), pairs=tuple(pairs), ratings=ratings, ms_per_move=timing,
    )


def _win_counts(
    outcomes: Mapping[tuple[str, str], Sequence[tuple[int | None, float]]]
) -> dict[tuple[str, str], float]:
    w: dict[tuple[str, str], float] = {}
    for (a, b), got in outcomes.items():
        for side, _ in got:
            if side is None:
                w[a, b] = w.get((a, b), 0.0) + 0.5
                w[b, a] = w.get((b, a), 0.0) + 0.5
            elif side == 0:
                w[a, b] = w.get((a, b), 0.0) + 1.0
            else:
                w[b, a] = w.get((b, a), 0.0) + 1.0
    return w


def _ratings(
    names: Sequence[str],
    outcomes: Mapping[tuple[str, str], Sequence[tuple[int | None, float]]],
    bootstrap: int,
    seed: int,
) -> dict[str, tuple[float, tuple[float, float]]]:
    """Bradley-Terry ratings and percentile intervals over ``bootstrap`` resamplings of
    each pair's games (seeded: the same run gives the same intervals)."""
    point = bradley_terry(names, _win_counts(outcomes))
    draws: dict[str, list[float]] = {k: [] for k in names}
    rng = Rng(seed)
    for _ in range(bootstrap):
        sample = {
            pair: [got[rng.below(len(got))] for _ in got] for pair, got in outcomes.items()
        }
        for k, v in bradley_terry(names, _win_counts(sample)).items():
            draws[k].append(v)
    out = {}
    for k in names:
        xs = sorted(draws[k])
        if xs:
            lo = xs[int(0.025 * (len(xs) - 1))]
            hi = xs[math.ceil(0.975 * (len(xs) - 1))]
        else:
            lo = hi = point[k]
        out[k] = (point[k], (lo, hi))
    return out


def plot_tournament(result: TournamentResult, path: str | os.PathLike[str]) -> None:
    """Ratings with their 95% intervals, and the matrix of win rates, to a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(result.players)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.5))
    vals = [result.ratings[k][0] for k in names]
    los = [result.ratings[k][0] - result.ratings[k][1][0] for k in names]
    his = [result.ratings[k][1][1] - result.ratings[k][0] for k in names]
    ax1.errorbar(range(len(names)), vals, yerr=[los, his], fmt="o", capsize=4)
    ax1.set_xticks(range(len(names)), names, rotation=30)
    ax1.set_ylabel("Bradley-Terry rating (Elo scale)")
    ax1.set_title(f"{result.system}: ratings, 95% bootstrap intervals")
    grid = [[float("nan")] * len(names) for _ in names]
    for p in result.pairs:
        i, j = names.index(p.players[0]), names.index(p.players[1])
        grid[i][j], grid[j][i] = p.win_rate
    im = ax2.imshow(grid, vmin=0, vmax=1, cmap="RdYlGn")
    ax2.set_xticks(range(len(names)), names, rotation=30)
    ax2.set_yticks(range(len(names)), names)
    ax2.set_title("share of games the row player won")
    for i in range(len(names)):
        for j in range(len(names)):
            if not math.isnan(grid[i][j]):
                ax2.text(j, i, f"{grid[i][j]:.2f}", ha="center", va="center")
    fig.colorbar(im, ax=ax2)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
