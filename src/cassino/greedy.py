"""The ``greedy`` player: every legal move scored one ply deep, from the player's view only.

>>> import cassino
>>> from cassino.players import View
>>> state = cassino.new_hand(seed=5)
>>> player = GreedyPlayer(seed=1)
>>> player.choose(View.of(state, state.to_move), state.legal_moves()) in state.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any

from ._reference import duty_reason
from ._rng import Rng
from .cards import CLUBS, ITALIAN_FIRST, SPADES, card_rank, double_mask, parse_card, rank_mask
from .errors import IllegalMoveError
from .moves import Move, MoveKind
from .players import PLAYERS, PlayerError, View
from .position import Build
from .reference.base import bits
from .reference.deals import next_seat
from .rules import Rules
from .scoring import DEFAULT_PENALTY, red_card_points

__all__ = [
    "BUILD_DISCOUNT",
    "CARD_WEIGHT",
    "COMPOUND_BUILD_DISCOUNT",
    "RISK_WEIGHT",
    "SPADE_WEIGHT",
    "FixedWeightsGreedy",
    "GreedyPlayer",
    "card_weight",
    "card_weights",
]

CARD_WEIGHT = 0.2
"""Points per card captured, for the race for most cards (3 points)."""
SPADE_WEIGHT = 0.2
"""Points per spade captured, for the race for most spades (1 point)."""
BUILD_DISCOUNT = 0.7
"""Share of a build's cards counted now for the owner, who means to take it next turn."""
COMPOUND_BUILD_DISCOUNT = 1.0
"""Share of a build's cards counted for its owner's team in a compound system (African
Cassino, the house variant): the whole, since the owner holds its capturing card (the
holding invariant) and the risk already charges the next seat's taking it; the standard
share played weaker in every compound system (docs/bots.md)."""
RISK_WEIGHT = 1.0
"""Weight of the expected value the next opponent can capture from the table left."""
CLEAR_WIN = 1000.0
"""Callabra: a capture that clears the table wins the game at once."""

_BIG = parse_card("10D")
_LITTLE = parse_card("2S")
_SEVEN_DIAMONDS = parse_card("7D")
_GOOD_TWO = parse_card("2C")
_JACK_SPADES = parse_card("JS")
_ACES = rank_mask(1)
_PICTURES = rank_mask(11) | rank_mask(12) | rank_mask(13)
_EPS = 1e-9


def card_weight(card: int) -> float:
    """Points a captured card is worth in Standard Cassino: 10D 2, 2S 1, each ace 1, plus
    the card and spade weights (Mulle's second copies, ids 52-103, as the first)."""
    return _standard_weights()[card % 52]


@lru_cache(maxsize=1)
def _standard_weights() -> tuple[float, ...]:
    from .rules import rules

    return card_weights(rules("cassino_standard"))


@lru_cache(maxsize=64)
def card_weights(r: Rules) -> tuple[float, ...]:
    """Points a captured card is worth under ``r``'s scoring table, per card id: the points
    of the cards that score one by one (10D, 2S and the aces, Diloti's aces, Kontsina's 2C
    and 10D, Diamond's 7D, Tablanette's pictures, Spade Cassino's spades and JS), plus
    ``CARD_WEIGHT`` a card when most cards score and ``SPADE_WEIGHT`` a card of the suit
    whose majority scores (spades, Kontsina's clubs). Mulle's second copies weigh as the
    first. Each weight is summed in this order, so that the core adds the same doubles.

    >>> from cassino.rules import rules
    >>> w = card_weights(rules("cassino_standard"))
    >>> [round(w[parse_card(c)], 1) for c in ("10D", "2S", "AH", "7S", "7H")]
    [2.2, 1.4, 1.2, 0.4, 0.2]
    >>> round(card_weights(rules("diloti"))[parse_card("10D")], 1)
    2.2

    The compound systems' tally (African Cassino, §3.22; the house variant, §3.25) is
    :func:`_compound_weights`'.
    """
    if r.compound:
        return _compound_weights(r)
    out = []
    for card in range(r.num_ids):
        c = card % 52
        bit = 1 << c
        w = 0.0
        if r.laugh:
            w += 0.5    # (Laugh and Lie Down: a chip per two cards)
        elif r.most_cards_points or r.two_card_capture:
            w += CARD_WEIGHT
        elif r.cards_scoring != "most":
            w += 1.0    # (every card scores 1, or moves Shaniss's difference by 1)
        if r.card_points and r.most_spades_points and SPADES & bit:
            w += SPADE_WEIGHT
        if r.most_clubs_points and CLUBS & bit:
            w += SPADE_WEIGHT
        if r.card_points:
            if c == _BIG:
                w += 2.0
            elif c == _LITTLE or _ACES & bit:
                w += 1.0
        elif r.ace_points and _ACES & bit:
            w += float(r.ace_points)
        if r.good_two_points and c == _GOOD_TWO:
            w += float(r.good_two_points)
        if r.good_ten_points and c == _BIG:
            w += float(r.good_ten_points)
        if r.seven_diamonds_points and c == _SEVEN_DIAMONDS:
            w += float(r.seven_diamonds_points)
        if r.red_card_points:
            w += float(red_card_points(c))     # Bella Donna's red cards
        if r.picture_points and _PICTURES & bit:
            w += float(r.picture_points)
        if r.spade_points != "none":
            if SPADES & bit:
                w += 1.0
            if c == _JACK_SPADES:
                w += 1.0
            if r.spade_points == "additive" and (c == _LITTLE or c == 0):
                w += 1.0
        out.append(w)
    return tuple(out)


def _compound_weights(r: Rules) -> tuple[float, ...]:
    """The card weights of the compound systems' tally: ``CARD_WEIGHT`` a card (most
    cards, 2) and ``SPADE_WEIGHT`` a card of the suit whose majority scores (spades;
    the house variant's coins), the Spy Two 2S 1 and the Big Ten 10S 2 (the house variant:
    the 2 of coins 1, the 7 of swords 2), each ace 1. The ids of the other deck weigh 0.

    >>> from cassino.rules import rules
    >>> w = card_weights(rules("african_cassino_3p"))
    >>> [round(w[parse_card(c)], 1) for c in ("10S", "2S", "AH", "10D", "7S")]
    [2.4, 1.4, 1.2, 0.2, 0.4]
    >>> w = card_weights(rules("italian_house_cassino"))
    >>> [round(w[parse_card(c, "italian40")], 1) for c in ("7S", "2D", "AB", "5D", "KS")]
    [2.2, 1.4, 1.2, 0.4, 0.2]
    """
    from .cards import ITALIAN_FIRST, card_suit

    italian = "italian" in r.mechanics
    singles = ({parse_card("2D", "italian40"): 1.0, parse_card("7S", "italian40"): 2.0}
               if italian else {_LITTLE: 1.0, parse_card("10S"): 2.0})
    out = []
    for card in range(r.num_ids):
        if (card >= ITALIAN_FIRST) != italian:
            out.append(0.0)
            continue
        w = CARD_WEIGHT
        if card_suit(card) == 0:            # spades; the house variant's coins
            w += SPADE_WEIGHT
        w += singles.get(card, 0.0)
        if card_rank(card) == 1:
            w += 1.0
        out.append(w)
    return tuple(out)


def laugh_gain(weights: Sequence[float], move: Move) -> float:
    """Laugh and Lie Down's greedy score: the weight of the cards a capture, a pair capture
    or a bank gains; a trail, a lie-down or a pass gains nothing."""
    if move.kind == MoveKind.BANK:
        return _weight(weights, move.takes)
    if move.kind == MoveKind.CAPTURE:
        return _weight(weights, move.takes | 1 << move.card)
    if move.kind == MoveKind.PAIR:
        return _weight(weights, move.takes | 1 << move.card | 1 << move.value)
    return 0.0


def _weight(weights: Sequence[float], mask: int) -> float:
    w = 0.0
    while mask:
        low = mask & -mask
        w += weights[low.bit_length() - 1]
        mask ^= low
    return w


def _mask_sum(mask: int) -> int:
    return sum(_value(c) for c in range(104) if mask >> c & 1)


def _miss(total: int, k: int, h: int) -> float:
    """C(total - k, h) / C(total, h), the chance that ``h`` cards drawn from ``total`` miss
    all ``k`` of a rank: a product of ``h`` factors, in the core's order (``h <= total - k``)."""
    q = 1.0
    for i in range(h):
        q *= (total - k - i) / (total - i)
    return q


def _value(card: int) -> int:
    r = card_rank(card)
    return r if r <= 10 else 0


def _ranks(r: Rules, rank: int) -> int:
    """The cards of ``rank`` in ``r``'s deck (both copies of Mulle's)."""
    m = rank_mask(rank)
    return double_mask(m) if r.num_ids > 52 else m


class GreedyPlayer:
    """Plays the legal move of highest score; ties broken by its own seeded :class:`Rng`.

    A move's score, in points (weights are module constants)::

        score = gain + BUILD_DISCOUNT * own_builds - RISK_WEIGHT * risk

    * ``gain``: for a capture, the weight of the cards taken and of the card played
      (:func:`card_weights`, from the system's scoring table: in Standard Cassino 10D 2,
      2S 1, each ace 1, plus ``CARD_WEIGHT`` 0.2 a card and ``SPADE_WEIGHT`` 0.2 a spade),
      plus the sweep points when sweeps count and the capture clears the table.
    * ``own_builds``: the weight of the cards in the builds the player owns on the table
      left (``BUILD_DISCOUNT`` 0.7: it means to take them next turn).
    * ``risk``: what the next opponent can expect to capture from the table left. For each
      rank, the best capture a card of that rank makes (matches, builds of its value,
      disjoint sum groups; faces one, or three; plus the card itself and a sweep) is
      weighted by the chance the opponent holds that rank: ``1 - C(U-k, h) / C(U, h)``
      (:func:`_miss`)
      with ``U`` unseen cards, ``k`` of them of that rank, ``h`` cards in the opponent's
      hand; certain for the value of a build the opponent owns (he must hold its card).
      The opponent takes the best capture he holds, so ranks are taken best first and
      each counts only when no better one is held.
    * The last move of a hand instead counts the leftovers, plus for the last capturer and
      minus for another team.

    The player never looks at the position behind its :class:`~cassino.players.View`.
    The core plays the same heuristic (``cassino._core.State.greedy_scores``,
    ``State.play_hand``), double for double.
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed)
        self._packs: dict[tuple[int, int, bool, tuple[float, ...]], float] = {}
        self._turns: _Turns | None = None       # (judging a compound view's turns)

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        """The best-scoring move; a tie is broken at random."""
        if len(moves) == 1:
            return moves[0]
        return moves[best_index([self.evaluate(view, m) for m in moves], self._rng)]

    def evaluate(self, view: View, move: Move) -> float:
        """The score of ``move`` (see the class docstring)."""
        r = view.rules
        if r.laugh:
            return laugh_gain(self._weights(view), move)
        if r.compound:
            return self._turn_score(view, move)
        return self._move_score(view, move)

    def _move_score(self, view: View, move: Move) -> float:
        """The score of a move of a system of single moves."""
        r = view.rules
        ws = self._weights(view)
        seat = view.seat
        if not move.plays_card:
            # opt_pluck: a pluck gains its card and changes nothing else of note; a pass
            # gains nothing
            return _weight(ws, move.takes)
        bit = 1 << move.card
        loose = view.loose.mask
        builds = list(view.builds)
        gain = 0.0
        captured = False
        if move.kind == MoveKind.TRAIL:
            loose |= bit
        elif move.kind == MoveKind.TWO_CARD:
            # Callabra: the second hand card and the table card are taken with the card
            loose &= ~move.takes
            gain = _weight(ws, move.takes | bit)
            captured = True
            bit |= move.takes & view.hand.mask
        elif move.kind in (MoveKind.CAPTURE, MoveKind.STEAL):
            # (a steal gains the bundle taken, and its loose cards with steal_and_capture)
            loose &= ~move.takes
            builds = [b for b in builds if not b.cards & move.takes]
            gain = _weight(ws, move.takes | bit)
            captured = True
        else:
            targets = [b for b in builds if b.cards & move.takes]
            builds = [b for b in builds if not b.cards & move.takes]
            loose &= ~move.takes
            owners = 1 << seat
            if move.kind == MoveKind.AUGMENT:
                for b in targets:
                    owners |= b.owners
            cards = move.takes | bit
            if move.kind == MoveKind.BUILD:
                multiple = _mask_sum(cards) >= 2 * move.value
            else:
                multiple = move.kind == MoveKind.AUGMENT
            builds.append(Build(move.value, cards, owners, multiple))
        table = loose
        for b in builds:
            table |= b.cards
        hand_left = view.hand.mask & ~bit
        if r.michigan and duty_reason(r.obligation, seat, view.builds, move) is not None:
            gain -= DEFAULT_PENALTY  # opt_michigan: a default costs 2 points at once
        others_empty = all(n == 0 for s, n in enumerate(view.hand_sizes) if s != seat)
        hand_ends = not hand_left and others_empty and view.stock_size == 0
        if captured and r.sweeps and not table and (r.last_card_sweep or not hand_ends):
            gain += r.sweep_points
        if captured and r.two_card_capture and not table:
            return gain + CLEAR_WIN   # Callabra: clearing the table wins the game
        if hand_ends:
            # the hand ends: the leftovers go to the last capturer
            last = seat if captured else view.last_capturer
            if last is None or r.leftovers_to == "nobody":
                return gain
            sign = 1.0 if r.team_of(last) == r.team_of(seat) else -1.0
            return gain + sign * _weight(ws, table)
        own = 0.0
        for b in builds:
            if b.owners >> seat & 1:
                own += _weight(ws, b.cards)
        return (
            gain + BUILD_DISCOUNT * own - RISK_WEIGHT * self._risk(view, loose, builds, hand_left)
        )

    def _weights(self, view: View) -> tuple[float, ...]:
        """The points of each captured card (:func:`card_weights`; a subclass may adjust
        them to the position)."""
        return card_weights(view.rules)

    # -- compound turns (African Cassino, the Italian house variant) -------------------------
    def _turn_world(self, view: View, world: Any = None) -> _Turns:
        """What judging the turns of the compound ``view`` needs, kept while the player
        judges them: a world (``world``, else one sampled from the view; the turns and the
        tables they leave are the mover's and the table's, whatever the hidden hands; None
        where the view has none)."""
        got = self._turns
        if got is not None and got.view is view and (world is None or got.world is world):
            return got
        if world is None:
            try:
                world = view.sample_world(Rng(0))
            except PlayerError:
                world = None
        self._turns = _Turns(view, world)
        if world is not None and not world.insist:
            # (each turn's table made once: the players' moves)
            self._turns.moves = world.turns_one_order()
        return self._turns

    def scores_on(self, state: Any, moves: Sequence[Move]) -> list[float]:
        """:meth:`evaluate` of each of ``moves`` (legal moves of ``state``) for the seat to
        move, in a compound system with ``state`` itself as the world of its view: what a
        search that holds a whole state (ISMCTS) asks, without sampling another."""
        view = View.of(state, state.to_move)
        if view.rules.compound:
            self._turn_world(view, state)
        return [self.evaluate(view, m) for m in moves]

    def _turn_score(self, view: View, move: Move) -> float:
        """The score of a compound turn, from the table it leaves: ``gain`` is what each
        pile gained or lost (the seat's team's for, the others' against: the captured cards,
        an opponent's pile top taken into a build), ``own_builds`` the builds of the seat's
        team, ``risk`` what the next seat can take of that table (:meth:`_turn_risk`); the
        last turn of a hand counts the leftovers instead. A decision on an insist (the
        house variant) is :meth:`_decision_score`'s. A turn the world sampled from the view
        does not allow (a build for a partner, whose hand the seat does not see) scores 0."""
        j = self._turn_world(view)
        world = j.world
        if world is not None and world.insist:
            return self._decision_score(view, world, move)
        if world is None or move.kind != MoveKind.TURN:
            return 0.0
        got = self._core_turn_scores(j).get(move)
        if got is not None:
            return got
        try:
            end = world.turn_table(move)
        except IllegalMoveError:
            # a build for a partner is legal only while the partner holds its value
            # (AMB-64), which the world's hidden hands need not do: no judgement
            return 0.0
        r = view.rules
        ws = self._weights(view)
        team = r.team_of(view.seat)
        start = j.start
        gain = _pile_gain(ws, start.piles, end.piles, team)
        table = _bits(end.loose)
        own = 0.0
        for b in end.builds:
            table |= _bits(b.cards)
            if r.team_of(b.owner) == team:
                own += _weight(ws, _bits(b.cards))
        if not any(end.hands) and view.stock_size == 0:
            # the hand ends: the leftovers go to the last capturer
            captured = len(end.piles[team]) > len(start.piles[team])
            last = view.seat if captured else view.last_capturer
            if last is None or not table:
                return gain
            return gain + (1.0 if r.team_of(last) == team else -1.0) * _weight(ws, table)
        return gain + COMPOUND_BUILD_DISCOUNT * own - RISK_WEIGHT * self._turn_risk(j, end)

    _core_turns = True
    """Whether compound turns are scored in the core where it is built
    (``_TurnGen.greedy_turn_scores``, the same doubles as :meth:`_turn_score`'s Python,
    the reference: tests turn this off to compare)."""

    def _core_turn_scores(self, j: _Turns) -> dict[Move, float]:
        """The scores of the turns of ``j``'s world (``turns_one_order``) computed in the
        core, by move; empty where the core is not built or cannot score them (a packing
        past its buffers), and for a subclass that scores turns otherwise."""
        if j.core is not None:
            return j.core
        j.core = {}
        world = j.world
        if (not self._core_turns or world is None or world.insist
                or type(self)._turn_risk is not GreedyPlayer._turn_risk):
            return j.core
        from . import IMPLEMENTATION

        if IMPLEMENTATION != "core":
            return j.core
        from ._core import CompoundState

        if not isinstance(world, CompoundState):
            return j.core
        scores = core_turn_scores(world, j.view, self._weights(j.view), j.odds)
        moves = j.moves     # (listed by _turn_world for every world of a turn)
        if scores is not None and moves is not None and len(scores) == len(moves):
            j.core = dict(zip(moves, scores, strict=True))
        return j.core

    def _decision_score(self, view: View, world: Any, move: Move) -> float:
        """The house variant's insist decision (AMB-68), one ply deep: an extension gains
        the weight of the cards it adds; accepting gains nothing, and insisting loses what
        the mover's best extension would gain him."""
        ws = self._weights(view)
        if move.kind == MoveKind.PASS:
            return 0.0
        if move.kind == MoveKind.INSIST:
            return -max((_weight(ws, m.takes) for m in world._extension_moves()), default=0.0)
        return _weight(ws, move.takes)

    def _turn_risk(self, j: _Turns, end: Any) -> float:
        """What the next seat can expect to capture from the table ``end``: as
        :meth:`_risk`, by value instead of rank (a card of several values, the Ace, counts
        for each), with the loose cards of that value, the builds of that value and the best
        disjoint groups of smaller loose cards summing to it."""
        view = j.view
        key = (end.loose, end.builds)
        got = j.risks.get(key)
        if got is not None:
            return got
        risk = 0.0
        if j.odds and (end.loose or end.builds):
            ws = self._weights(view)
            vals = j.vals
            sure = {b.value for b in end.builds if b.owner == j.next}
            # (each loose card's values and least value, read once for the 14 values below)
            loose = [(c, vals(c), min(vals(c))) for c in sorted(end.loose)]
            options: list[tuple[float, float]] = []
            for v in range(1, len(j.odds)):
                p = 1.0 if v in sure else j.odds[v]
                if p == 0.0:
                    continue
                same = 0
                smaller = []
                for c, cv, least in loose:
                    if v in cv:
                        same |= 1 << c
                    elif least < v:
                        smaller.append(c)
                taken = _weight(ws, same)
                for b in end.builds:
                    if b.value == v:
                        taken += _weight(ws, _bits(b.cards))
                if len(smaller) >= 2:
                    got = j.packs.get((v, *smaller))
                    if got is None:
                        groups = _turn_groups(smaller, v, vals)
                        got = j.packs[(v, *smaller)] = _best_packing(
                            ws, _bits(smaller), groups, {})
                    taken += got
                if taken > 0.0:
                    options.append((taken + CARD_WEIGHT, p))
            options.sort(reverse=True)
            none_better = 1.0
            for value, p in options:
                risk += value * p * none_better
                none_better *= 1.0 - p
        j.risks[key] = risk
        return risk

    # -- the opponent's best reply -----------------------------------------------------------
    def _risk(self, view: View, loose: int, builds: list[Build], hand_left: int) -> float:
        r = view.rules
        opp = next_seat(r, view.seat)
        h = view.hand_sizes[opp]
        if h == 0:
            if hand_left or view.stock_size == 0:
                return 0.0
            h = r.deal_size(view.stock_size)  # the next deal: the opponent leads with a full hand
        unseen = view.unseen.mask
        total = unseen.bit_count()
        if total == 0:
            return 0.0
        table = loose
        for b in builds:
            table |= b.cards
        if not table:
            return 0.0
        sure = {b.value for b in builds if b.owners >> opp & 1}
        ws = self._weights(view)
        options: list[tuple[float, float]] = []
        for rank in range(1, 14):
            k = (unseen & _ranks(r, rank)).bit_count()
            if rank in sure:
                p = 1.0
            elif k == 0:
                continue
            else:
                p = 1.0 - _miss(total, k, h) if total - k >= h else 1.0
            taken, take_all = self._best_take(ws, r, loose, builds, rank, table)
            if taken <= 0.0:
                continue
            value = taken + CARD_WEIGHT
            if take_all and r.sweeps:
                value += r.sweep_points
            options.append((value, p))
        options.sort(reverse=True)
        risk = 0.0
        none_better = 1.0
        for value, p in options:
            risk += value * p * none_better
            none_better *= 1.0 - p
        return risk

    def _best_take(
        self,
        ws: tuple[float, ...],
        r: Rules,
        loose: int,
        builds: Iterable[Build],
        rank: int,
        table: int,
    ) -> tuple[float, bool]:
        """Weight of the best capture a card of ``rank`` makes, and whether it clears the table."""
        same = loose & _ranks(r, rank)
        if rank > 10:  # a face card takes faces of its rank only
            n = same.bit_count()
            if n == 0:
                return 0.0, False
            if r.face_capture == "any" or (r.face_capture == "one_or_three" and n == 3):
                return _weight(ws, same), same == table
            best = max(ws[c] for c in range(r.num_ids) if same >> c & 1)
            return best, n == 1 and same == table
        taken = same
        for b in builds:
            if b.value == rank:
                taken |= b.cards
        w = _weight(ws, taken)
        smaller = 0
        rest = loose & ~same
        while rest:
            low = rest & -rest
            c = low.bit_length() - 1
            if 0 < _value(c) < rank:
                smaller |= low
            rest ^= low
        single = r.sum_groups == "single"
        if smaller.bit_count() >= 2:
            w += self._pack(ws, smaller, rank, single)
        clears = taken == table and not smaller
        if not clears and smaller and taken | smaller == table:
            clears = _mask_sum(smaller) == rank if single else _partition_all(smaller, rank)
        return w, clears

    def _pack(self, ws: tuple[float, ...], mask: int, value: int, single: bool) -> float:
        """Best weight of disjoint groups of ``mask`` each summing to ``value``."""
        key = (mask, value, single, ws)
        got = self._packs.get(key)
        if got is not None:
            return got
        groups = _groups(mask, value)
        if single:
            best = max((_weight(ws, g) for g in groups), default=0.0)
        else:
            best = _best_packing(ws, mask, groups, {})
        if len(self._packs) > 200_000:
            self._packs.clear()
        self._packs[key] = best
        return best


class FixedWeightsGreedy(GreedyPlayer):
    """The greedy player with given card weights, one per card id, in place of the
    system's: the reference side of the core's ``State._set_greedy_weights`` (an ISMCTS
    search's race weights).

    >>> import cassino
    >>> state = cassino.new_hand(seed=5)
    >>> view = View.of(state, state.to_move)
    >>> move = state.legal_moves()[0]
    >>> same = FixedWeightsGreedy(card_weights(state.rules)).evaluate(view, move)
    >>> same == GreedyPlayer().evaluate(view, move)
    True
    >>> FixedWeightsGreedy([0.0] * 52).evaluate(view, move) <= 0.0
    True
    """

    name = "greedy"

    def __init__(self, weights: Sequence[float], seed: int = 0) -> None:
        super().__init__(seed)
        self._fixed = tuple(float(w) for w in weights)

    def _weights(self, view: View) -> tuple[float, ...]:
        if len(self._fixed) != view.rules.num_ids:
            raise ValueError(
                f"one weight per card id ({view.rules.num_ids}) is needed, "
                f"not {len(self._fixed)}")
        return self._fixed


class _Turns:
    """What judging the turns of one compound view needs: the view, a world of it, the
    table at the start of the turn, each card's values, the next seat, the chance that it
    holds a card of each value (``odds``; empty when it holds no card or nothing is
    unseen), and the risk of each table left (by loose cards and builds) and the best
    packing of loose cards into groups of a value."""

    __slots__ = ("core", "moves", "next", "odds", "packs", "risks", "start", "vals", "view",
                 "world")

    def __init__(self, view: View, world: Any) -> None:
        from .reference.african import compound_rules

        self.view = view
        self.world = world
        self.start: Any = world._turn_table() if world is not None else None
        self.vals = lru_cache(maxsize=None)(compound_rules(view.rules).vals)
        self.next = next_seat(view.rules, view.seat)
        self.odds = _turn_odds(view, self.next, self.vals)
        self.risks: dict[tuple[object, object], float] = {}
        self.packs: dict[tuple[int, ...], float] = {}
        self.moves: list[Move] | None = None    # (the world's turns_one_order, once listed)
        self.core: dict[Move, float] | None = None  # (their scores in the core, once asked)


def _turn_odds(view: View, nxt: int, vals: Callable[[int], tuple[int, ...]]) -> list[float]:
    """The chance that seat ``nxt`` holds a card of each value (a compound system's values,
    ``vals``), from what ``view`` has not seen; empty when it holds no card or nothing is
    unseen."""
    from .reference.african import compound_rules

    h = view.hand_sizes[nxt]
    total = view.unseen.mask.bit_count()
    if not h or not total:
        return []
    counts = [0] * (compound_rules(view.rules).max_value + 1)
    for c in bits(view.unseen.mask):
        for v in set(vals(c)):
            counts[v] += 1
    return [0.0 if not k else 1.0 - _miss(total, k, h) if total - k >= h else 1.0
            for k in counts]


def core_turn_scores(world: Any, view: View, ws: Sequence[float],
                     odds: Sequence[float]) -> list[float] | None:
    """:meth:`GreedyPlayer._turn_score` of each turn of ``world.turns_one_order()``, for
    ``view``'s seat, computed in the core (``_TurnGen.greedy_turn_scores``, the same
    doubles): ``world`` a core CompoundState, a world of ``view`` with no insist decision
    pending, ``ws`` the weight of each card id, ``odds`` those of :func:`_turn_odds`. None
    where the core cannot score them (a packing past its buffers)."""
    from ._core import turn_generator

    r = view.rules
    offset = ITALIAN_FIRST if "italian" in r.mechanics else 0
    last = view.last_capturer
    sign = 0 if last is None else 1 if r.team_of(last) == r.team_of(view.seat) else -1
    return turn_generator(r).greedy_turn_scores(
        world, ws[offset:offset + (40 if offset else 52)], odds, view.stock_size == 0, sign,
        CARD_WEIGHT, COMPOUND_BUILD_DISCOUNT, RISK_WEIGHT)


def best_index(scores: Sequence[float], rng: Rng) -> int:
    """The index of the best of ``scores`` as :meth:`GreedyPlayer.choose` picks it: a tie
    (within 1e-9) broken by ``rng.below(number of tied scores)``.

    >>> best_index([1.0, 3.0, 2.0], Rng(0))
    1
    """
    best = max(scores)
    top = [i for i, x in enumerate(scores) if x >= best - _EPS]
    return top[rng.below(len(top))] if len(top) > 1 else top[0]


def _pile_gain(ws: Sequence[float], before: Sequence[Sequence[int]],
              after: Sequence[Sequence[int]], team: int) -> float:
    """What the face-up piles (a team each) gained or lost from ``before`` to ``after``,
    by the weights ``ws``: ``team``'s change for it, every other team's against it (a
    compound turn's captures, an opponent's pile top built into a build)."""
    gain = 0.0
    for t, (b, a) in enumerate(zip(before, after, strict=True)):
        if b != a:
            diff = _weight(ws, _bits(a)) - _weight(ws, _bits(b))
            gain += diff if t == team else -diff
    return gain


def _bits(cards: Iterable[int]) -> int:
    return sum(1 << c for c in cards)


def _turn_groups(cards: list[int], value: int, vals: Callable[[int], tuple[int, ...]]) -> list[int]:
    """Every subset (a mask) of ``cards`` whose values sum to ``value``, a card of several
    values (``vals``) counted at any one of them."""
    out: set[int] = set()

    def walk(i: int, need: int, acc: int) -> None:
        if need == 0:
            out.add(acc)
            return
        for j in range(i, len(cards)):
            for v in vals(cards[j]):
                if v <= need:
                    walk(j + 1, need - v, acc | 1 << cards[j])

    walk(0, value, 0)
    return sorted(out)


def _groups(mask: int, value: int) -> list[int]:
    """Every subset of ``mask`` whose values sum to ``value``."""
    cards = [c for c in range(104) if mask >> c & 1]
    out: list[int] = []

    def walk(i: int, need: int, acc: int) -> None:
        if need == 0:
            out.append(acc)
            return
        for j in range(i, len(cards)):
            v = _value(cards[j])
            if v <= need:
                walk(j + 1, need - v, acc | 1 << cards[j])

    walk(0, value, 0)
    return out


def _best_packing(
    ws: Sequence[float], mask: int, groups: list[int], memo: dict[int, float]
) -> float:
    if not mask or not groups:
        return 0.0
    got = memo.get(mask)
    if got is not None:
        return got
    low = mask & -mask
    best = _best_packing(ws, mask ^ low, [g for g in groups if not g & low], memo)
    for g in groups:
        if g & low:
            rest = mask & ~g
            best = max(
                best,
                _weight(ws, g) + _best_packing(ws, rest, [h for h in groups if not h & g], memo),
            )
    memo[mask] = best
    return best


@lru_cache(maxsize=65536)
def _partition_all(mask: int, value: int) -> bool:
    """Whether ``mask`` splits entirely into groups summing to ``value``: its lowest card
    goes with a group of the rest that completes it to ``value`` (memoized by mask)."""
    if not mask:
        return True
    low = mask & -mask
    rest = mask ^ low
    v = _value(low.bit_length() - 1)
    if v == value:
        return _partition_all(rest, value)
    if not 0 < v < value:
        return False
    return any(_partition_all(rest & ~g, value) for g in _groups(rest, value - v))


PLAYERS["greedy"] = GreedyPlayer
