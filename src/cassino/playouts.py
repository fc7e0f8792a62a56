"""Batch playouts: many seeded hands played to their end, results as NumPy arrays.

Hand ``i`` of a run is dealt by seat ``i % players`` and shuffled from
:func:`hand_seed` ``(seed, i)`` alone, so a run gives the same arrays whatever its
``threads``, and any hand can be replayed on its own (with the random policy, hand ``i``
is exactly ``cassino.random_hand(rules, hand_seed(seed, i), i % players)``).

Policies, one per seat:

* ``"random"``: a uniformly random legal move (in the core, GIL released);
* ``"greedy"``: the core greedy policy, which takes the most card weight now (see
  :data:`GREEDY_WEIGHTS`; with ``michigan`` a default costs its 2 points), ties broken at
  random (in the core, GIL released);
* a callable ``policy(state) -> Move | str | int``, called with the :class:`cassino.State`
  of each decision (an ``int`` is an index into ``state.legal_moves()``), or a
  :class:`cassino.players.Player`. Hands with a Python policy run with the GIL held.

>>> import cassino
>>> run = cassino.playouts("cassino_standard", 4, seed=1)
>>> run.points.shape, run.totals.shape, run.moves.shape
((4, 2, 33), (4, 2), (4,))
>>> bool((run.totals.sum(axis=1) >= 8).all())      # 11 points a hand, minus ties
True
>>> list(run.totals[2]) == cassino.random_hand(run.rules, hand_seed(1, 2), 0)[0]
True
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._rng import Rng, shuffled_deck
from .errors import CassinoError, MoveLimitError
from .moves import Move, MoveKind
from .rules import Rules, rules
from .scoring import CATEGORIES, DEFAULT_PENALTY

if TYPE_CHECKING:  # numpy is imported where arrays are made, not with the package
    import numpy as np
    import numpy.typing as npt

__all__ = ["GREEDY_WEIGHTS", "PlayoutError", "Playouts", "hand_seed", "playouts"]

_M64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
POLICY_CODES = {"random": 0, "greedy": 1}
_PYTHON = 2


class PlayoutError(CassinoError):
    """Bad arguments of :func:`playouts` (count, seed, policies, threads)."""


def hand_seed(seed: int, index: int) -> int:
    """The shuffle seed of hand ``index`` of a run seeded ``seed``.

    >>> hand_seed(1, 0) == Rng(1).next_u64()
    True
    """
    return Rng((seed + index * _GOLDEN) & _M64).next_u64()


def _greedy_weight(card: int) -> int:
    card %= 52  # (Mulle's second copies weigh as the first)
    w = 2 + (2 if card % 4 == 0 else 0)  # a card, a spade
    if card == 38:  # 10D
        w += 20
    elif card <= 4:  # the aces and 2S
        w += 10
    return w


GREEDY_WEIGHTS: tuple[int, ...] = tuple(_greedy_weight(c) for c in range(104))
"""Weight of each card id for the core greedy policy, in tenths of a point: 2 for a card,
2 more for a spade, 20 more for 10D, 10 more for 2S and each ace."""


@dataclass(frozen=True)
class Playouts:
    """Results of :func:`playouts`, one row per hand (``n`` rows).

    ``points[i, t, k]`` is team ``t``'s points in category ``categories[k]``;
    ``cards`` and ``sweeps`` count cards captured and sweeps made per team; ``moves`` is
    the number of moves of each hand and ``dealer`` its dealer.
    """

    rules: Rules
    seed: int
    players: tuple[str, ...]
    categories: tuple[str, ...]
    points: npt.NDArray[np.int16]
    cards: npt.NDArray[np.int16]
    sweeps: npt.NDArray[np.int16]
    moves: npt.NDArray[np.int32]
    dealer: npt.NDArray[np.int8]

    @property
    def n(self) -> int:
        """Number of hands."""
        return int(self.moves.shape[0])

    @property
    def totals(self) -> npt.NDArray[np.int32]:
        """Points per hand and team, shape ``(n, teams)``."""
        import numpy as np

        totals: npt.NDArray[np.int32] = self.points.sum(axis=2, dtype=np.int32)
        return totals

    def mean_points(self) -> dict[str, list[float]]:
        """Mean points per category (and ``total``) for each team."""
        out = {
            cat: [float(x) for x in self.points[:, :, k].mean(axis=0)]
            for k, cat in enumerate(self.categories)
        }
        out["total"] = [float(x) for x in self.totals.mean(axis=0)]
        return out

    def to_structured(self) -> npt.NDArray[Any]:
        """One NumPy structured array: fields ``points``, ``cards``, ``sweeps``, ``moves``,
        ``dealer``."""
        import numpy as np

        teams = self.cards.shape[1]
        dtype = np.dtype(
            [
                ("points", np.int16, (teams, len(self.categories))),
                ("cards", np.int16, (teams,)),
                ("sweeps", np.int16, (teams,)),
                ("moves", np.int32),
                ("dealer", np.int8),
            ]
        )
        out = np.empty(self.n, dtype=dtype)
        out["points"] = self.points
        out["cards"] = self.cards
        out["sweeps"] = self.sweeps
        out["moves"] = self.moves
        out["dealer"] = self.dealer
        return out


Policy = str | Callable[[Any], Any]


def _hook(policy: Any) -> Callable[[Any], Any]:
    """A Player becomes a callable of the state; callables pass through."""
    choose = getattr(policy, "choose", None)
    if callable(choose):
        from .players import View

        def call(state: Any) -> Any:
            return choose(View.of(state, state.to_move), state.legal_moves())

        return call
    if callable(policy):
        return policy  # type: ignore[no-any-return]
    raise PlayoutError(
        f"a policy is 'random', 'greedy', a callable of the state or a Player, not {policy!r}"
    )


def playouts(
    system: str | Rules = "cassino_standard",
    n: int = 1000,
    seed: int = 0,
    players: Sequence[Policy] = ("random", "random"),
    *,
    threads: int = 1,
    **options: Any,
) -> Playouts:
    """Play ``n`` hands of ``system`` (a system id or :class:`Rules`, with ``options``).

    ``players`` gives one policy per seat (see the module docstring); ``threads`` runs
    the hands in that many threads, with the GIL released for the core policies and the
    same results as one thread. Under ``CASSINO_PURE_PYTHON=1`` the reference plays.
    """
    r = system if isinstance(system, Rules) else rules(system, **options)
    if isinstance(system, Rules) and options:
        raise PlayoutError("give options with a system id, not with a Rules object")
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise PlayoutError(f"n must be a non-negative integer, not {n!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise PlayoutError(f"seed must be an integer, not {seed!r}")
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise PlayoutError(f"threads must be a positive integer, not {threads!r}")
    if isinstance(players, str) or len(players) != r.players:
        raise PlayoutError(f"{r.system} here needs one policy per seat ({r.players}), not {players!r}")
    codes: list[int] = []
    hooks: list[Callable[[Any], Any] | None] = []
    names: list[str] = []
    for p in players:
        if isinstance(p, str):
            if p not in POLICY_CODES:
                raise PlayoutError(f"unknown policy {p!r}: 'random', 'greedy' or a callable")
            codes.append(POLICY_CODES[p])
            hooks.append(None)
            names.append(p)
        else:
            codes.append(_PYTHON)
            hooks.append(_hook(p))
            names.append(getattr(p, "name", None) or getattr(p, "__name__", None) or type(p).__name__)
    teams = r.num_teams
    import numpy as np

    points = np.zeros((n, teams, len(CATEGORIES)), dtype=np.int16)
    cards = np.zeros((n, teams), dtype=np.int16)
    sweeps = np.zeros((n, teams), dtype=np.int16)
    moves = np.zeros(n, dtype=np.int32)
    dealer = np.zeros(n, dtype=np.int8)
    fill = _fill_compound if r.compound else _filler()
    if threads == 1 or n < 2 or _PYTHON in codes:
        fill(r, seed, 0, codes, hooks, points, cards, sweeps, moves, dealer)
    else:
        step = -(-n // (threads * 4))
        with ThreadPoolExecutor(max_workers=threads) as pool:
            jobs = [
                pool.submit(
                    fill, r, seed, lo, codes, hooks, points[lo : lo + step], cards[lo : lo + step],
                    sweeps[lo : lo + step], moves[lo : lo + step], dealer[lo : lo + step],
                )
                for lo in range(0, n, step)
            ]
            for job in jobs:
                job.result()
    return Playouts(r, seed, tuple(names), CATEGORIES, points, cards, sweeps, moves, dealer)


def _filler() -> Callable[..., None]:
    if os.environ.get("CASSINO_PURE_PYTHON", "") not in ("", "0"):
        return _fill_reference
    try:
        from . import _core
    except ImportError:  # pragma: no cover - only without a compiled core
        return _fill_reference
    return _core._fill_playouts


# -- the reference -------------------------------------------------------------------------
def greedy_index(
    moves: Sequence[Move],
    table: int,
    sweep_bonus: int,
    rng: Rng,
    is_default: Callable[[Move], bool] | None = None,
) -> int:
    """The reference of the core greedy policy: index of the chosen move (``is_default``:
    opt_michigan, whether a move is a default, which costs its 2 points)."""
    best = None
    nbest = 0
    pick = 0
    for i, m in enumerate(moves):
        taken = m.takes | 1 << m.card if m.plays_card else m.takes
        if m.kind == MoveKind.PASS:
            g = 0
        elif m.kind == MoveKind.PLUCK:
            g = sum(GREEDY_WEIGHTS[c] for c in range(104) if taken >> c & 1)
        elif m.kind == MoveKind.TRAIL:
            g = -GREEDY_WEIGHTS[m.card]
        elif m.kind in (MoveKind.CAPTURE, MoveKind.TWO_CARD):
            g = sum(GREEDY_WEIGHTS[c] for c in range(104) if taken >> c & 1)
            if sweep_bonus and m.takes & table == table:
                g += 10 * sweep_bonus
        else:
            g = sum(GREEDY_WEIGHTS[c] for c in range(104) if taken >> c & 1) // 2
        if is_default is not None and is_default(m):
            g -= 10 * DEFAULT_PENALTY
        if best is None or g > best:
            best, nbest, pick = g, 1, i
        elif g == best:
            nbest += 1
            if rng.below(nbest) == 0:
                pick = i
    return pick


def _push_hook(state: Any, hook: Callable[[Any], Any]) -> None:
    """Push the move a Python policy returns for ``state``: a move or its index."""
    choice = hook(state)
    state.push(state.legal_moves()[choice] if isinstance(choice, int) else choice)


def _fill_compound(
    r: Rules, seed: int, start: int, codes: Sequence[int], hooks: Sequence[Any],
    points: npt.NDArray[np.int16], cards: npt.NDArray[np.int16], sweeps: npt.NDArray[np.int16],
    moves: npt.NDArray[np.int32], dealer: npt.NDArray[np.int8],
) -> None:
    """The hands of a compound system (African Cassino, the Italian house variant): the
    State of :func:`cassino.game._state_class` (the core's CompoundState, which picks the
    random turns with the core's generator, or the reference's), the deck reshuffled while
    the Italian layout is bad (as ``State.deal``); the random policy numbers turns in the
    canonical order of both implementations, the greedy one judges the turns with their
    captured cards in one order (``turns_one_order``)."""
    from .game import _state_class
    from .reference.deals import bad_italian_layout, initial_deal
    from .reference.decks import system_deck

    cls = _state_class(r)
    whole: Callable[..., Any] | None = None
    if all(c == POLICY_CODES["random"] for c in codes) and cls.__module__ == "cassino._core":
        # (whole hands in C; one it leaves to the reference starts again after the shuffle)
        from ._core import whole_hand as whole
    for k in range(moves.shape[0]):
        d = (start + k) % r.players
        rng = Rng(hand_seed(seed, start + k))
        deck = shuffled_deck(rng, r.num_ids)
        while r.redeal_layout == "italian" and bad_italian_layout(
                initial_deal(r, d, system_deck(r, deck))[1]):
            deck = shuffled_deck(rng, r.num_ids)
        hand = whole(r, rng.state, d, system_deck(r, deck)) if whole is not None else None
        if hand is None:
            state = cls.new_hand(r, d, deck)
            count = 0
            while not state.is_over:
                seat = state.to_move
                if codes[seat] == _PYTHON:
                    _push_hook(state, hooks[seat])
                elif codes[seat] == POLICY_CODES["greedy"]:
                    legal = state.turns_one_order()
                    state._push_unchecked(legal[greedy_index(legal, state.table_mask, 0, rng)])
                elif hasattr(state, "_random_turn"):
                    state._random_turn(rng)
                else:
                    state._push_random(rng)
                count += 1
            hand = (state.hand_score(), state.to_position().piles, count)
        score, piles, moves[k] = hand
        for t in range(r.num_teams):
            cats = score.categories(t)
            for j, cat in enumerate(CATEGORIES):
                points[k, t, j] = cats[cat]
            cards[k, t] = len(piles[t])
        dealer[k] = d


def _fill_reference(
    r: Rules, seed: int, start: int, codes: Sequence[int], hooks: Sequence[Any],
    points: npt.NDArray[np.int16], cards: npt.NDArray[np.int16], sweeps: npt.NDArray[np.int16],
    moves: npt.NDArray[np.int32], dealer: npt.NDArray[np.int8],
) -> None:
    from ._reference import State

    for k in range(moves.shape[0]):
        d = (start + k) % r.players
        rng = Rng(hand_seed(seed, start + k))
        state = State.new_hand(r, d, shuffled_deck(rng, r.num_ids))
        count = 0
        while not state.is_over:
            seat = state.to_move
            if codes[seat] == _PYTHON:
                _push_hook(state, hooks[seat])
            else:
                legal = state._legal_with_reasons()[0]
                if not legal:  # pragma: no cover - a hand always has a move
                    raise MoveLimitError("no legal move")
                if codes[seat] == POLICY_CODES["greedy"]:
                    # (Callabra: clearing the table wins, worth 100 points to the policy)
                    bonus = r.sweep_points if r.sweeps else 100 if r.two_card_capture else 0
                    fined = state.is_default if r.michigan else None
                    i = greedy_index(legal, state.table_mask, bonus, rng, fined)
                else:
                    i = rng.below(len(legal))
                state._push_unchecked(legal[i])
            count += 1
        score = state.hand_score()
        pile_sizes = [len(p) for p in state.to_position().piles]
        for t in range(r.num_teams):
            cats = score.categories(t)
            for j, cat in enumerate(CATEGORIES):
                points[k, t, j] = cats[cat]
            cards[k, t] = pile_sizes[t]
            sweeps[k, t] = sum(1 for x in state.to_position().sweep_order if x == t)
        moves[k] = count
        dealer[k] = d
