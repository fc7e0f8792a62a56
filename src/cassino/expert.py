"""The ``expert`` player: the greedy player's card counting, tuned to the race for the
majorities, a sampled lookahead over the next reply, and exact play of the end of a hand
where nothing is hidden.

* **Card counting.** Like :class:`~cassino.greedy.GreedyPlayer`, it scores each move by
  what it gains, the builds it owns, and the expected value the next opponent can
  capture from the table left (including a sweep), from the cards it has not seen.
* **The majorities.** A card counts toward most cards, and a spade toward most spades,
  only while that race is open: once a team has captured more than half of the deck's
  cards (or spades), those weights drop to zero and the point cards decide.
* **The lookahead** (two teams). The ``width`` moves of best score are compared over
  ``worlds`` determinizations of the unseen cards (:meth:`View.sample_world
  <cassino.players.View.sample_world>`): what the move captures, less what the next
  player's best greedy reply captures, plus the greedy score of the best move after it
  (each counted against an opponent, for a partner). The best mean is played.
* **The end of the hand.** Once the stock is empty and every hidden card lies in one
  opponent's hand (two players, or the last cards of a partnership hand), the position
  is known exactly: the player searches it to the end (alpha-beta over the hand's point
  margin, moves ordered by the greedy score, within ``nodes`` positions) and plays the
  best move; a tie goes to the better greedy score. Past the budget it plays as above.

>>> import cassino
>>> from cassino.players import View
>>> state = cassino.new_hand(seed=5)
>>> player = ExpertPlayer(seed=1)
>>> player.choose(View.of(state, state.to_move), state.legal_moves()) in state.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import SPADES
from .greedy import CARD_WEIGHT, SPADE_WEIGHT, GreedyPlayer, _weight, card_weights
from .moves import Move, MoveKind
from .players import PLAYERS, PlayerError, View

__all__ = ["ENDGAME_CARDS", "ENDGAME_NODES", "LOOKAHEAD_WIDTH", "LOOKAHEAD_WORLDS", "ExpertPlayer"]

ENDGAME_CARDS = 12
"""The exact search starts when the hands hold this many cards or fewer in all."""
ENDGAME_NODES = 40_000
"""Positions the exact search may visit for one move before it gives up."""

LOOKAHEAD_WORLDS = 12
"""Determinizations the lookahead samples for one move (0 turns it off)."""
LOOKAHEAD_WIDTH = 6
"""Moves of best score the lookahead compares."""


class _OutOfNodes(Exception):
    pass


class ExpertPlayer(GreedyPlayer):
    """Card counting with open-race weights, a sampled lookahead and an exact search of
    the known end of a hand (see the module docstring). ``nodes`` bounds the exact search
    per move (0 turns it off); ``worlds`` (0 turns it off) and ``width`` size the
    lookahead; ``seed`` draws the worlds and breaks ties."""

    name = "expert"

    def __init__(
        self,
        seed: int = 0,
        nodes: int = ENDGAME_NODES,
        worlds: int = LOOKAHEAD_WORLDS,
        width: int = LOOKAHEAD_WIDTH,
    ) -> None:
        for key, value, low in (("nodes", nodes, 0), ("worlds", worlds, 0), ("width", width, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise PlayerError(f"expert: {key} must be an integer >= {low}, not {value!r}")
        super().__init__(seed)
        self.nodes = nodes
        self.worlds = worlds
        self.width = width
        self._scorer = GreedyPlayer()
        self.searched = 0
        """Moves chosen by the exact search so far (a counter for tests and studies)."""

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        """The exactly best move when the position is known; else the best of the
        lookahead; else (``worlds=0``, three teams or more) the best-scoring move."""
        if len(moves) == 1:
            return moves[0]
        if self.nodes and _known(view):
            got = self._solve(view, moves)
            if got is not None:
                self.searched += 1
                return got
        if not self.worlds or len(view.pile_sizes) != 2:
            return super().choose(view, moves)
        scores = [self.evaluate(view, m) for m in moves]
        order = sorted(range(len(moves)), key=lambda i: -scores[i])[: self.width]
        if len(order) == 1:
            return moves[order[0]]
        return moves[order[self._lookahead(view, [moves[i] for i in order])]]

    # -- the sampled lookahead ---------------------------------------------------------------
    def _lookahead(self, view: View, moves: list[Move]) -> int:
        """The index in ``moves`` of the best mean over ``worlds`` determinizations of: what
        the move captures, less what the next player's greedy reply captures (for an
        opponent; plus for a partner), plus the greedy score of the best move after that
        (minus when an opponent's)."""
        r = view.rules
        ws = card_weights(r)
        team = r.team_of(view.seat)
        totals = [0.0] * len(moves)
        for _ in range(self.worlds):
            try:
                world: Any = view.sample_world(self._rng)
            except PlayerError:
                return 0
            for j, move in enumerate(moves):
                world.push(move)
                v = _taken(r, ws, world, move)
                if not world.is_over:
                    sign = 1.0 if r.team_of(world.to_move) == team else -1.0
                    legal = world.legal_moves()
                    scores = _scores(world, legal, self._scorer)
                    reply = legal[max(range(len(legal)), key=scores.__getitem__)]
                    world.push(reply)
                    v += sign * _taken(r, ws, world, reply)
                    if not world.is_over:
                        sign = 1.0 if r.team_of(world.to_move) == team else -1.0
                        v += sign * max(_scores(world, world.legal_moves(), self._scorer))
                    world.pop()
                world.pop()
                totals[j] += v
        return max(range(len(moves)), key=totals.__getitem__)

    # -- the majorities ----------------------------------------------------------------------
    def _weights(self, view: View) -> tuple[float, ...]:
        r = view.rules
        ws = card_weights(r)
        if len(view.pile_sizes) != 2:
            return ws           # three or more teams: the races are not two-sided
        cards_won = view.pile_sizes
        cards_open = (r.most_cards_points or r.two_card_capture) and all(
            2 * n <= r.num_ids for n in cards_won
        )
        spades_open = True
        spade_race = bool(r.card_points and r.most_spades_points)
        if spade_race:
            won = [0] * len(cards_won)
            for seat, move in view.played:
                if move.kind == MoveKind.CAPTURE or move.kind == MoveKind.TWO_CARD:
                    got = move.takes | (1 << move.card if move.plays_card else 0)
                    won[r.team_of(seat)] += _spades(got)
            spades_open = all(2 * n <= _spades((1 << r.num_ids) - 1) for n in won)
        if cards_open and (spades_open or not spade_race):
            return ws
        out = list(ws)
        for c in range(len(out)):
            if not cards_open and (r.most_cards_points or r.two_card_capture):
                out[c] -= CARD_WEIGHT
            if spade_race and not spades_open and SPADES >> (c % 52) & 1:
                out[c] -= SPADE_WEIGHT
        return tuple(out)

    # -- the known end of a hand -------------------------------------------------------------
    def _solve(self, view: View, moves: Sequence[Move]) -> Move | None:
        try:
            world: Any = view.sample_world(self._rng)
        except PlayerError:
            return None
        legal = world.legal_moves()
        if legal != list(moves):
            return None
        r = view.rules
        team = r.team_of(view.seat)
        budget = [self.nodes]
        chosen: Move | None = None
        best = -(1 << 30)
        try:
            for move in _ordered(world, legal, self._scorer):
                world.push(move)
                v = _minimax(world, r, team, best, 1 << 30, budget, self._scorer)
                world.pop()
                if v > best or chosen is None:
                    best, chosen = v, move
        except _OutOfNodes:
            return None
        return chosen


def _spades(mask: int) -> int:
    return (mask & SPADES).bit_count() + (mask >> 52 & SPADES).bit_count()


def _known(view: View) -> bool:
    """Whether the view leaves one world: the stock is empty, the hands are small, and
    every hidden card is in one other seat's hand, under two teams."""
    r = view.rules
    if view.stock_size or len(view.pile_sizes) != 2 or view.phase != "start":
        return False
    if sum(view.hand_sizes) > ENDGAME_CARDS:
        return False
    hidden = [n for s, n in enumerate(view.hand_sizes) if s != view.seat and n]
    return len(hidden) <= 1 and not r.two_card_capture


def _scores(state: Any, moves: list[Move], scorer: GreedyPlayer) -> list[float]:
    """The greedy score of each of ``moves`` (``state``'s legal moves) for the seat to move."""
    if hasattr(state, "greedy_scores"):
        got: list[float] = state.greedy_scores()
        return got
    view = View.of(state, state.to_move)    # the reference: the same scores, in Python
    return [scorer.evaluate(view, m) for m in moves]


def _taken(r: Any, ws: tuple[float, ...], state: Any, move: Move) -> float:
    """The weight of what ``move`` (just pushed on ``state``) captured, with a sweep."""
    if move.kind != MoveKind.CAPTURE and move.kind != MoveKind.TWO_CARD:
        return 0.0
    v = _weight(ws, move.takes | (1 << move.card))
    if r.sweeps and not state.table_mask and not state.is_over:
        v += r.sweep_points
    return v


def _ordered(state: Any, moves: list[Move], scorer: GreedyPlayer) -> list[Move]:
    """``moves`` (``state``'s legal moves), best greedy score first (ties in list order)."""
    scores = _scores(state, moves, scorer)
    order = sorted(range(len(moves)), key=lambda i: -scores[i])
    return [moves[i] for i in order]


def _minimax(
    state: Any, r: Any, team: int, alpha: int, beta: int, budget: list[int], scorer: GreedyPlayer
) -> int:
    """The hand's final point margin of ``team`` under best play by both teams."""
    if state.is_over:
        totals = state.hand_totals()
        return int(totals[team] - totals[1 - team])
    budget[0] -= 1
    if budget[0] < 0:
        raise _OutOfNodes
    moves = state.legal_moves()
    if len(moves) > 1:
        moves = _ordered(state, moves, scorer)
    maximize = r.team_of(state.to_move) == team
    v = -(1 << 30) if maximize else 1 << 30
    for move in moves:
        state.push(move)
        w = _minimax(state, r, team, alpha, beta, budget, scorer)
        state.pop()
        if maximize:
            v = max(v, w)
            alpha = max(alpha, v)
        else:
            v = min(v, w)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return v


PLAYERS["expert"] = ExpertPlayer
