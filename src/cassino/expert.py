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
  (each counted against an opponent, for a partner). The best mean is played. In a
  compound system (African Cassino, the Italian house variant) the turns are compared
  by what the face-up piles gain and lose, over the replies of every other seat up to
  the player's next move.
* **Card reading** (two players). The worlds of the lookahead are drawn from
  ``INFER_CANDIDATES`` times as many samples, each weighed by how likely the opponent's
  moves of this deal would have been, from the hand that world gives it, for a greedy
  player (a softmax of its greedy scores, ``infer`` sharp; 0 turns it off). The player
  remembers its own views and moves of the hand for this.
* **The end of the hand.** Once the stock is empty and every hidden card lies in one
  opponent's hand (two players, or the last cards of a partnership hand), the position
  is known exactly: the player searches it to the end (alpha-beta over the hand's point
  margin, moves ordered by the greedy score, within ``nodes`` positions) and plays the
  best move. Among moves of the same best margin it plays the one that does best against
  a greedy opponent (the greedy player's moves in that position, its ties averaged), then
  the better greedy score. Past the budget it plays as above.

>>> import cassino
>>> from cassino.players import View
>>> state = cassino.new_hand(seed=5)
>>> player = ExpertPlayer(seed=1)
>>> player.choose(View.of(state, state.to_move), state.legal_moves()) in state.legal_moves()
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ._rng import Rng
from .cards import SPADES
from .errors import IllegalMoveError
from .greedy import (
    _EPS,
    CARD_WEIGHT,
    SPADE_WEIGHT,
    GreedyPlayer,
    _pile_gain,
    _weight,
    card_weights,
)
from .moves import Move, MoveKind
from .players import PLAYERS, PlayerError, View

__all__ = [
    "ENDGAME_CARDS",
    "ENDGAME_NODES",
    "INFER_CANDIDATES",
    "INFER_MAX_MOVES",
    "INFER_SHARPNESS",
    "LOOKAHEAD_WIDTH",
    "LOOKAHEAD_WORLDS",
    "ExpertPlayer",
]

ENDGAME_CARDS = 12
"""The exact search starts when the hands hold this many cards or fewer in all."""
ENDGAME_NODES = 40_000
"""Positions the exact search may visit for one move before it gives up."""

LOOKAHEAD_WORLDS = 12
"""Determinizations the lookahead samples for one move (0 turns it off)."""
LOOKAHEAD_WIDTH = 6
"""Moves of best score the lookahead compares."""

INFER_SHARPNESS = 5.0
"""How sharply card reading weighs a world by the opponent's moves: the likelihood of a move
is ``exp(infer * score)`` over the sum of that for every legal move, greedy scores (0: off)."""
INFER_CANDIDATES = 4
"""Samples drawn for each world the lookahead keeps, when card reading has moves to read."""
INFER_MAX_MOVES = 1_000
"""Card reading passes over an opponent's move chosen among more legal moves than this (in
the first hand it weighs): each hand weighed would list and score them all, and a choice
among so many says little of the hand. Standard play never comes near it."""


_REPLIES = 8
"""Greedy replies the compound lookahead plays after a turn, at most (the other seats, up
to the seat's next move: three in a partnership, more with the Italian insist decisions)."""


class _OutOfNodes(Exception):
    pass


class ExpertPlayer(GreedyPlayer):
    """Card counting with open-race weights, a sampled lookahead and an exact search of
    the known end of a hand (see the module docstring). ``nodes`` bounds the exact search
    per move (0 turns it off); ``worlds`` (0 turns it off) and ``width`` size the
    lookahead; ``infer`` is card reading's sharpness (0 turns it off); ``seed`` draws the
    worlds and breaks ties."""

    name = "expert"

    def __init__(
        self,
        seed: int = 0,
        nodes: int = ENDGAME_NODES,
        worlds: int = LOOKAHEAD_WORLDS,
        width: int = LOOKAHEAD_WIDTH,
        infer: float = INFER_SHARPNESS,
    ) -> None:
        for key, value, low in (("nodes", nodes, 0), ("worlds", worlds, 0), ("width", width, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise PlayerError(f"expert: {key} must be an integer >= {low}, not {value!r}")
        if (isinstance(infer, bool) or not isinstance(infer, int | float)
                or not 0 <= infer < math.inf):
            raise PlayerError(f"expert: infer must be a number >= 0, not {infer!r}")
        super().__init__(seed)
        self.nodes = nodes
        self.worlds = worlds
        self.width = width
        self.infer = float(infer)
        self._scorer = GreedyPlayer()
        self._traces: dict[int, list[tuple[View, Move]]] = {}
        self.searched = 0
        """Moves chosen by the exact search so far (a counter for tests and studies)."""

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        """The exactly best move when the position is known; else the best of the
        lookahead (in a compound system, African and Italian Cassino, the lookahead of its
        turns, :meth:`_turn_lookahead`: no exact search and no card reading there); else
        (``worlds=0``, three teams or more) the best-scoring move."""
        move = self._choose(view, moves)
        self._remember(view, move)
        return move

    def _choose(self, view: View, moves: Sequence[Move]) -> Move:
        if len(moves) == 1:
            return moves[0]
        if view.rules.compound:
            if not self.worlds or len(view.pile_sizes) != 2:
                return super().choose(view, moves)
            return self._turn_lookahead(view, moves)
        if self.nodes and _known(view):
            got = self._solve(view, moves)
            if got is not None:
                self.searched += 1
                return got
        if not self.worlds or len(view.pile_sizes) != 2:
            return super().choose(view, moves)
        scores = self._root_scores(view, moves)
        order = sorted(range(len(moves)), key=lambda i: -scores[i])[: self.width]
        if len(order) == 1:
            return moves[order[0]]
        return moves[order[self._lookahead(view, [moves[i] for i in order])]]

    def _root_scores(self, view: View, moves: Sequence[Move]) -> list[float]:
        """:meth:`evaluate` of each of ``moves``: in the core, the greedy scores of a world of
        the view with this player's weights (the same doubles, ``tests/test_core_greedy.py``;
        the world's hidden cards do not enter them), else in Python. The world comes from its
        own ``Rng(0)``, so the player's draws are those of the Python path."""
        try:
            world: Any = view.sample_world(Rng(0))
        except PlayerError:
            world = None
        if hasattr(world, "greedy_scores") and world.to_move == view.seat:
            world._set_greedy_weights(self._weights(view))
            got: list[float] = world.greedy_scores()
            # (the scores' listing, read without listing again: is it ``moves``?)
            if len(got) == len(moves) and all(
                    world.move_at(i) == m for i, m in enumerate(moves)):
                return got
        return [self.evaluate(view, m) for m in moves]

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
        try:
            worlds = self._sample(view)
        except PlayerError:
            return 0
        for world in worlds:
            for j, move in enumerate(moves):
                world.push(move)
                v = _taken(r, ws, world, move)
                if not world.is_over:
                    sign = 1.0 if r.team_of(world.to_move) == team else -1.0
                    reply = _greedy_best(world, self._scorer)[0]
                    world.push(reply)
                    v += sign * _taken(r, ws, world, reply)
                    if not world.is_over:
                        sign = 1.0 if r.team_of(world.to_move) == team else -1.0
                        v += sign * _greedy_best(world, self._scorer)[1]
                    world.pop()
                world.pop()
                totals[j] += v
        return max(range(len(moves)), key=totals.__getitem__)

    def _turn_lookahead(self, view: View, moves: Sequence[Move]) -> Move:
        """The lookahead of a compound system (African Cassino, the Italian house variant;
        two teams): the ``width`` turns of best score compared over ``worlds`` worlds of
        the view, each by what the face-up piles gain and lose in the turn and in the other
        seats' best greedy replies up to the seat's next move (a partner's and an insist
        decision's included; at most ``_REPLIES``), the team's for and the others' against,
        plus the seat's best greedy score then. A turn a world does not allow (a build for
        a partner who holds no card of its value there, AMB-64) counts 0 in that world. No
        card reading: uniform worlds."""
        scores = [self.evaluate(view, m) for m in moves]
        order = sorted(range(len(moves)), key=lambda i: -scores[i])[: self.width]
        if len(order) == 1:
            return moves[order[0]]
        turns = [moves[i] for i in order]
        r = view.rules
        ws = card_weights(r)
        team = r.team_of(view.seat)
        totals = [0.0] * len(turns)
        for _ in range(self.worlds):
            try:
                world: Any = view.sample_world(self._rng)
            except PlayerError:
                return turns[0]
            for j, move in enumerate(turns):
                before = [tuple(p) for p in world.piles]
                try:
                    world.push(move)
                except IllegalMoveError:
                    continue
                v = _pile_gain(ws, before, world.piles, team)
                # the other seats' greedy replies, up to the seat's next move
                replies = 0
                while not world.is_over and world.to_move != view.seat and replies < _REPLIES:
                    legal = world.turns_one_order()
                    got = self._scorer.scores_on(world, legal)
                    before = [tuple(p) for p in world.piles]
                    world.push(legal[max(range(len(got)), key=got.__getitem__)])
                    replies += 1
                    v += _pile_gain(ws, before, world.piles, team)
                if not world.is_over:
                    sign = 1.0 if r.team_of(world.to_move) == team else -1.0
                    v += sign * max(self._scorer.scores_on(world, world.turns_one_order()))
                for _ in range(replies):
                    world.pop()
                world.pop()
                totals[j] += v
        return turns[max(range(len(turns)), key=totals.__getitem__)]

    # -- card reading ------------------------------------------------------------------------
    def _remember(self, view: View, move: Move) -> None:
        """Remember ``view`` and the ``move`` chosen from it, with the earlier ones of its
        seat in its hand; forget those of another hand, or of views out of sequence. Each
        seat has its own memory, so that one player may play several seats."""
        trace = self._traces.setdefault(view.seat, [])
        if not self._leads_to(view):
            trace.clear()
        trace.append((view, move))

    def _leads_to(self, view: View) -> bool:
        """Whether the remembered views and moves of ``view``'s seat are earlier ones of its
        hand. Each entry's moves begin the next one's, so the last entry tells for all."""
        trace = self._traces.get(view.seat)
        if not trace:
            return True
        last = trace[-1][0].played
        return len(last) < len(view.played) and view.played[: len(last)] == last

    def _sample(self, view: View) -> list[Any]:
        """``worlds`` determinizations of ``view``: uniform, or with card reading the
        systematic resampling of ``INFER_CANDIDATES`` times as many by their weights."""
        evidence = self._evidence(view) if self.infer else []
        if not evidence:
            return [view.sample_world(self._rng) for _ in range(self.worlds)]
        candidates = [
            view.sample_world(self._rng) for _ in range(INFER_CANDIDATES * self.worlds)
        ]
        seat = evidence[0][2]
        weights = self._likelihoods([w.hand(seat).mask for w in candidates], evidence)
        total = math.fsum(weights)
        if not total > 0.0:
            return candidates[: self.worlds]
        step = total / self.worlds
        u = self._rng.below(1 << 32) / (1 << 32) * step
        out: list[Any] = []
        acc = 0.0
        for w, world in zip(weights, candidates, strict=True):
            acc += w
            while u < acc and len(out) < self.worlds:
                out.append(world)
                u += step
        out.extend(candidates[-1:] * (self.worlds - len(out)))   # rounding at the end
        return out

    def _evidence(self, view: View) -> list[tuple[View, Move, int, Move, int]]:
        """The opponent's moves of this deal that followed one of this player's: (its view
        then, its move, the opponent's seat, the opponent's move, the cards the opponent
        has played since, that move's included). Two players only."""
        if view.rules.players != 2 or not self._leads_to(view):
            return []
        if view.aside_size or view._hidden_pile():
            return []   # (the evidence's worlds deal the unseen cards to hands and stock only)
        out = []
        n = len(view.played)
        for then, mine in self._traces.get(view.seat, []):
            i = len(then.played)
            if then.stock_size != view.stock_size or i + 1 >= n:
                continue                    # another deal, or no reply yet
            if view.played[i] != (then.seat, mine):
                continue                    # another move was played
            seat, reply = view.played[i + 1]
            if seat == then.seat:
                continue
            since = 0
            for s, m in view.played[i + 1 :]:
                if s == seat and m.plays_card:
                    since |= 1 << m.card
            out.append((then, mine, seat, reply, since))
        return out

    def _likelihood(self, hidden: int, evidence: list[tuple[View, Move, int, Move, int]]) -> float:
        """How likely a greedy opponent, holding the hand ``hidden`` (a mask) now, made the
        moves of ``evidence``: the product of each move's softmax share of the greedy scores."""
        return self._likelihoods([hidden], evidence)[0]

    def _likelihoods(
        self,
        hiddens: list[int],
        evidence: list[tuple[View, Move, int, Move, int]],
        swap: bool = True,
    ) -> list[float]:
        """:meth:`_likelihood` of each of ``hiddens``. Each position of the evidence is built
        once and the opponent's hand set in it (``State._set_hidden_hand``) where the core
        can (``swap``); else built for each hand. A move chosen among more than
        ``INFER_MAX_MOVES`` (in the first hand weighed) weighs no hand."""
        logs = [0.0] * len(hiddens)
        for then, mine, seat, reply, since in evidence:
            base: Any = None
            unseen = then.unseen.mask
            first = True
            for k, hidden in enumerate(hiddens):
                if logs[k] == -math.inf:
                    continue
                held = hidden | since
                if held.bit_count() != then.hand_sizes[seat] or held & ~unseen:
                    logs[k] = -math.inf
                    continue
                if base is not None:
                    base._set_hidden_hand(seat, held)
                    before = base
                else:
                    hands = [then.hand.mask] * 2
                    hands[seat] = held
                    rest = unseen & ~held
                    stock = tuple(c for c in range(then.rules.num_ids) if rest >> c & 1)
                    before = then._world(tuple(hands), stock)
                    if swap and hasattr(before, "_set_hidden_hand"):
                        base = before
                before.push(mine)
                if first and before.to_move == seat and before.count_moves() > INFER_MAX_MOVES:
                    before.pop()
                    break                   # (no hand weighed yet for this move)
                first = False
                legal = before.legal_moves() if before.to_move == seat else []
                if reply not in legal:
                    logs[k] = -math.inf
                else:
                    scores = _scores(before, legal, self._scorer)
                    top = max(scores)
                    z = math.fsum(math.exp(self.infer * (x - top)) for x in scores)
                    logs[k] += self.infer * (scores[legal.index(reply)] - top) - math.log(z)
                before.pop()
        return [math.exp(x) for x in logs]

    # -- the majorities ----------------------------------------------------------------------
    def _weights(self, view: View) -> tuple[float, ...]:
        r = view.rules
        ws = card_weights(r)
        if len(view.pile_sizes) != 2 or r.compound:
            # three or more teams: the races are not two-sided; a compound system's tally
            # splits a tied majority (the weights stay the system's)
            return ws
        cards_won = view.pile_sizes
        cards_open = (r.most_cards_points or r.two_card_capture) and all(
            2 * n <= r.deck_size for n in cards_won
        )
        spades_open = True
        spade_race = bool(r.card_points and r.most_spades_points)
        if spade_race:              # the spades in each team's pile
            won = [_spades(sum(1 << c for c in pile)) for pile in view.piles]
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
        """The known position's best move: the best margin under best play by both teams,
        a tie broken by the margin against a greedy opponent, then by the greedy score.
        None where no world can be built or the best play's search runs out of nodes; if
        the tie-break does, the first of the tied moves in greedy order."""
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
        ordered = _ordered(world, legal, self._scorer)
        values = []
        best = -(1 << 30)
        try:
            for move in ordered:
                world.push(move)
                # (alpha at best - 1: a move as good as the best so far gets its exact margin)
                v = _minimax(world, r, team, best - 1, 1 << 30, budget, self._scorer)
                world.pop()
                values.append(v)
                best = max(best, v)
        except _OutOfNodes:
            return None
        tied = [m for m, v in zip(ordered, values, strict=True) if v == best]
        chosen, top = tied[0], -math.inf
        if len(tied) > 1:
            try:
                for move in tied:
                    world.push(move)
                    margin = _against_greedy(world, r, team, budget, self._scorer)
                    world.pop()
                    if margin > top + _EPS:
                        chosen, top = move, margin
            except _OutOfNodes:
                return tied[0]
        return chosen


def _spades(mask: int) -> int:
    return (mask & SPADES).bit_count() + (mask >> 52 & SPADES).bit_count()


def _known(view: View) -> bool:
    """Whether the view leaves one world: the stock is empty, the hands are small, and
    every hidden card is in one other seat's hand, under two teams."""
    r = view.rules
    if view.stock_size or len(view.pile_sizes) != 2 or view.phase != "start":
        return False
    if view.aside_size or view._hidden_pile():
        return False    # (Elewenjewe: cards set aside, or the seat's own pile, are hidden too)
    if sum(view.hand_sizes) > ENDGAME_CARDS:
        return False
    hidden = [n for s, n in enumerate(view.hand_sizes) if s != view.seat and n]
    return len(hidden) <= 1 and not r.two_card_capture


def _scores(state: Any, moves: list[Move], scorer: GreedyPlayer) -> list[float]:
    """The greedy score of each of ``moves`` (``state``'s legal moves) for the seat to move."""
    if hasattr(state, "greedy_scores"):
        got: list[float] = state.greedy_scores()
        return got
    return scorer.scores_on(state, moves)   # the reference: the same scores, in Python


def _greedy_best(state: Any, scorer: GreedyPlayer) -> tuple[Move, float]:
    """The first legal move of best greedy score for the seat to move, and that score. The
    core lists the moves once, for its scores, and makes one ``Move`` of them."""
    if hasattr(state, "greedy_scores"):
        scores: list[float] = state.greedy_scores()
        i = max(range(len(scores)), key=scores.__getitem__)
        return state.move_at(i), scores[i]
    legal = state.legal_moves()
    scores = _scores(state, legal, scorer)
    i = max(range(len(scores)), key=scores.__getitem__)
    return legal[i], scores[i]


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


def _end_or_spend(state: Any, team: int, budget: list[int]) -> int | None:
    """The hand's final point margin of ``team`` when it is over; else None, and one node of
    ``budget`` spent (:class:`_OutOfNodes` when none is left)."""
    if state.is_over:
        totals = state.hand_totals()
        return int(totals[team] - totals[1 - team])
    budget[0] -= 1
    if budget[0] < 0:
        raise _OutOfNodes
    return None


def _minimax(
    state: Any, r: Any, team: int, alpha: int, beta: int, budget: list[int], scorer: GreedyPlayer
) -> int:
    """The hand's final point margin of ``team`` under best play by both teams."""
    end = _end_or_spend(state, team, budget)
    if end is not None:
        return end
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


def _against_greedy(state: Any, r: Any, team: int, budget: list[int], scorer: GreedyPlayer) -> float:
    """The hand's final point margin of ``team`` when it plays best and the other teams play
    as the greedy player would from their seats (its moves of best score, ties averaged)."""
    end = _end_or_spend(state, team, budget)
    if end is not None:
        return float(end)
    moves = state.legal_moves()
    if r.team_of(state.to_move) == team:
        v = -math.inf
        for move in moves:
            state.push(move)
            v = max(v, _against_greedy(state, r, team, budget, scorer))
            state.pop()
        return v
    scores = _scores(state, moves, scorer)
    top = max(scores)
    replies = [m for m, x in zip(moves, scores, strict=True) if x >= top - _EPS]
    total = 0.0
    for move in replies:
        state.push(move)
        total += _against_greedy(state, r, team, budget, scorer)
        state.pop()
    return total / len(replies)


PLAYERS["expert"] = ExpertPlayer
