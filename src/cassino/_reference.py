"""The pure-Python reference implementation: clarity first, the oracle for the Cython core.

It has the same API as :mod:`cassino._core`. ``CASSINO_PURE_PYTHON=1`` makes
``cassino.State`` this class.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from ._rng import Rng, shuffled_deck
from .cards import FACES, CardSet, card_code, card_rank, rank_mask
from .errors import IllegalMoveError, MoveLimitError, NotationError, PositionError
from .moves import Move, MoveKind, same_notation
from .position import Build, Position, card_value, card_values, mask_sum
from .rules import Rules
from .scoring import HandScore, immediate_points, instant_against, score_hand

__all__ = ["State", "duty_reason", "initial_deal", "random_hand", "system_deck"]

TRAIL, CAPTURE, BUILD, AUGMENT, INCREASE, TWO_CARD = (
    MoveKind.TRAIL,
    MoveKind.CAPTURE,
    MoveKind.BUILD,
    MoveKind.AUGMENT,
    MoveKind.INCREASE,
    MoveKind.TWO_CARD,
)
BUILD_KINDS = (BUILD, AUGMENT, INCREASE)
PLUCK, PASS = MoveKind.PLUCK, MoveKind.PASS
DEFAULT_LIST_LIMIT = 1 << 20
FIVE_OF_SPADES = 16
# opt_pluck (docs/rules.md §3.37): the cards that may never be plucked: the aces, 10D and 2S
UNPLUCKABLE = 0xF | 1 << 4 | 1 << 38


def bits(mask: int) -> Iterator[int]:
    """Card ids of a mask, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def subsets(mask: int) -> Iterator[int]:
    """Every subset of ``mask``, the empty set first (carry-rippler)."""
    sub = 0
    while True:
        yield sub
        sub = (sub - mask) & mask
        if sub == 0:
            return


def _values(mask: int) -> tuple[int, ...]:
    return tuple(sorted(card_value(c) for c in bits(mask)))


@functools.lru_cache(maxsize=1 << 16)
def _partitionable(values: tuple[int, ...], v: int, max_sum_groups: int) -> bool:
    """Whether the multiset ``values`` splits into groups each totalling ``v``, where a group
    of two or more cards is a sum group and at most ``max_sum_groups`` of them are used."""
    if not values:
        return True
    first, rest = values[-1], values[:-1]  # the largest value: fewer branches
    if first > v:
        return False
    if first == v:
        return _partitionable(rest, v, max_sum_groups)
    if max_sum_groups == 0:
        return False
    need = v - first
    seen: set[tuple[int, ...]] = set()
    n = len(rest)
    for m in range(1, 1 << n):
        chosen = tuple(rest[i] for i in range(n) if m >> i & 1)
        if sum(chosen) != need or chosen in seen:
            continue
        seen.add(chosen)
        left = list(rest)
        for x in chosen:
            left.remove(x)
        if _partitionable(tuple(left), v, max_sum_groups - 1):
            return True
    return False


def groups_ok_values(values: tuple[int, ...], v: int, rules: Rules) -> bool:
    """Whether cards of the sorted ``values`` form disjoint capture groups of value ``v``."""
    if any(x > v for x in values):
        return False
    return _partitionable(values, v, 1 if rules.sum_groups == "single" else 64)


def groups_ok(mask: int, v: int, rules: Rules) -> bool:
    """Whether the loose cards of ``mask`` form disjoint capture groups of value ``v``."""
    max_sum = 1 if rules.sum_groups == "single" else 64
    return _partitionable(_values(mask), v, max_sum)


def initial_deal(rules: Rules, dealer: int, deck: list[int]) -> tuple[list[int], int, list[int]]:
    """Deal the first round from ``deck``: returns hands, table mask and the rest of the deck.

    Batches of two: every seat after the dealer in play order, then the table and the
    dealer in the order of ``rules.deal_order``, repeated until hands are full. An odd
    hand size (Diamond Cassino's 3) ends with a round of one card each.
    """
    n = rules.players
    hands = [0] * n
    table = 0
    pos = 0
    if rules.deal_order == "whole_hands_then_table":
        # Diloti (docs/rules.md §3.17): a whole hand to each seat from the dealer's next, the
        # dealer last, then the table cards
        for k in range(1, n + 1):
            seat = next_seat(rules, dealer, k)
            for c in deck[pos : pos + rules.hand_size]:
                hands[seat] |= 1 << c
            pos += rules.hand_size
        for c in deck[pos : pos + rules.table_cards]:
            table |= 1 << c
        pos += rules.table_cards
        return hands, table, deck[pos:]
    rounds = (rules.hand_size + 1) // 2
    per_round_table = rules.table_cards // rounds if rounds else 0
    table_left = rules.table_cards
    for r in range(rounds):
        batch = min(2, rules.hand_size - 2 * r)
        slots: list[int | None] = [next_seat(rules, dealer, k) for k in range(1, n)]
        if rules.deal_order == "opponent_table_dealer":
            slots += [None, dealer]
        else:
            slots += [dealer, None]
        if rules.deal_order == "hands_then_table":
            slots = [*slots[: n - 1], dealer]
        for slot in slots:
            if slot is None:
                k = min(per_round_table, table_left)
                for c in deck[pos : pos + k]:
                    table |= 1 << c
                pos += k
                table_left -= k
            else:
                for c in deck[pos : pos + batch]:
                    hands[slot] |= 1 << c
                pos += batch
    if rules.deal_order == "hands_then_table":
        # Tablanette: the table cards after every hand is full
        for c in deck[pos : pos + rules.table_cards]:
            table |= 1 << c
        pos += rules.table_cards
    return hands, table, deck[pos:]


def initial_pairs(rules: Rules, table: int) -> int:
    """The layout cards that opt_initial_pairs grants to the leader as part of the deal
    (docs/rules.md §3.37, AMB-20): every rank with exactly 2 or 4 cards on the table (also 3
    with ``initial_pairs_triples``). Not a capture: the last capturer stays unset."""
    granted = 0
    for r in range(1, 14):
        same = table & rank_mask(r)
        k = same.bit_count()
        if k in (2, 4) or (k == 3 and rules.initial_pairs_triples):
            granted |= same
    return granted


def _sweep_cards(rules: Rules) -> tuple[int, bool]:
    """The cards that capture every item when played on a table with prey, and whether
    that is then their only move."""
    if rules.five_of_spades_sweep:
        return 1 << FIVE_OF_SPADES, False
    if rules.jacks_take_all:
        return rank_mask(11), True
    return 0, False


def system_deck(rules: Rules, cards: Any) -> list[int]:
    """``cards`` checked to be a shuffle of the system's cards; a shuffle of all 52 cards is
    accepted too, and the cards the system sets aside (five-player: 2D 2H 2C) are dropped."""
    deck: list[int] = list(cards)
    if rules.num_ids != 52:
        if sorted(deck) == list(range(rules.num_ids)):
            return deck
        raise PositionError(
            f"deck must be a permutation of the {rules.num_ids} card ids of {rules.system}"
        )
    if sorted(deck) == list(range(52)):
        return rules.deck_cards(deck)
    if rules.deck_size != 52 and sorted(deck) == rules.deck_cards(list(range(52))):
        return deck
    if rules.deck_size == 52:
        raise PositionError("deck must be a permutation of the 52 card ids")
    raise PositionError(
        f"deck must be a permutation of the 52 card ids or of the {rules.deck_size} cards "
        f"of {rules.system}"
    )


def _with_builds(p: int, loose: int, bmask: list[int]) -> Iterator[Move]:
    """The captures by ``p`` of the ``loose`` cards together with each subset of the builds
    ``bmask`` (builds of the capturing value: each taken whole or not at all)."""
    for chosen in range(1 << len(bmask)):
        if not loose and not chosen:
            continue
        takes = loose
        for i, bm in enumerate(bmask):
            if chosen >> i & 1:
                takes |= bm
        yield Move(p, CAPTURE, takes)


def _unions(masks: list[int]) -> Iterator[int]:
    """The union of each subset of ``masks`` (disjoint card masks), the empty one first."""
    for chosen in range(1 << len(masks)):
        yield sum(m for i, m in enumerate(masks) if chosen >> i & 1)


def next_seat(rules: Rules, seat: int, steps: int = 1) -> int:
    """The seat ``steps`` places after ``seat`` in play order."""
    n = rules.players
    return (seat + steps) % n if rules.direction == "cw" else (seat - steps) % n


def first_player(rules: Rules, dealer: int) -> int:
    """Who leads each deal."""
    if rules.first_player == "right_of_dealer":
        return (dealer - 1) % rules.players if rules.direction == "cw" else (dealer + 1) % rules.players
    return next_seat(rules, dealer)



def _matching(values: list[int], cards: dict[int, set[int]]) -> bool:
    """Whether each of ``values`` can be given a distinct card of ``cards`` (card -> the
    values it can take): a bipartite matching, by augmenting paths."""
    owner: dict[int, int] = {}   # card -> the value it takes

    def place(v: int, seen: set[int]) -> bool:
        for c, vs in cards.items():
            if v in vs and c not in seen:
                seen.add(c)
                if c not in owner or place(owner[c], seen):
                    owner[c] = v
                    return True
        return False

    return all(place(v, set()) for v in values)

class State:
    """A position of one hand with its legal moves, push/pop and scoring."""

    def __init__(self, position: Position) -> None:
        position.validate()
        self._root = position
        self._load(position)
        self._stack: list[tuple[Any, ...]] = []
        self._history: list[Move] = []

    def _load(self, p: Position) -> None:
        self.rules: Rules = p.rules
        self.dealer: int = p.dealer
        self.to_move: int = p.to_move
        self.hands: list[int] = list(p.hands)
        self.loose: int = p.loose
        self.builds: list[Build] = sorted(p.builds)
        self.piles: list[list[int]] = [list(x) for x in p.piles]
        self.stock: list[int] = list(p.stock)
        self.last_capturer: int | None = p.last_capturer
        self.sweep_order: list[int] = list(p.sweep_order)
        self.scores: list[int] = list(p.scores)
        self.discard: list[int] = list(p.discard)
        self.plucked: int = p.plucked
        self.phase: str = p.phase
        self.trailed: int | None = p.trailed
        self.defaults: list[int] = list(p.defaults) or [0] * p.rules.num_teams
        self.mulles: list[int] = list(p.mulles) or [0] * p.rules.num_teams

    # -- construction ----------------------------------------------------------------------
    @classmethod
    def from_position(cls, position: Position) -> State:
        """A state at ``position``."""
        return cls(position)

    @classmethod
    def from_json(cls, text: str | bytes) -> State:
        """A state from position JSON."""
        return cls(Position.from_json(text))

    @classmethod
    def new_hand(
        cls, rules: Rules, dealer: int, deck: list[int], scores: list[int] | None = None
    ) -> State:
        """A freshly dealt hand: ``deck`` is the shuffled deck, dealt from the front."""
        if not isinstance(dealer, int) or not 0 <= dealer < rules.players:
            raise PositionError(f"dealer must be a seat from 0 to {rules.players - 1}, not {dealer!r}")
        hands, table, stock = initial_deal(rules, dealer, system_deck(rules, deck))
        leader = first_player(rules, dealer)
        piles: list[tuple[int, ...]] = [() for _ in range(rules.num_teams)]
        sweeps: tuple[int, ...] = ()
        if rules.initial_pairs:
            granted = initial_pairs(rules, table)
            if granted:
                table &= ~granted
                piles[rules.team_of(leader)] = tuple(bits(granted))
                if rules.sweeps and not table:
                    sweeps = (rules.team_of(leader),)
        pos = Position(
            rules=rules,
            dealer=dealer,
            to_move=leader,
            hands=tuple(hands),
            loose=table,
            builds=(),
            piles=tuple(piles),
            stock=tuple(stock),
            last_capturer=None,
            sweep_order=sweeps,
            scores=tuple(scores or [0] * rules.num_teams),
        )
        return cls(pos)

    @classmethod
    def deal(cls, rules: Rules, dealer: int, seed: int) -> State:
        """A freshly dealt hand, the deck shuffled from ``seed``: the same deal as
        ``new_hand(rules, dealer, shuffled_deck(Rng(seed)))``."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an integer, not {seed!r}")
        if isinstance(dealer, bool) or not isinstance(dealer, int):
            raise PositionError(f"dealer must be a seat from 0 to {rules.players - 1}, not {dealer!r}")
        return cls.new_hand(rules, dealer, shuffled_deck(Rng(seed), rules.num_ids))

    def to_position(self) -> Position:
        """The current position."""
        return Position(
            rules=self.rules,
            dealer=self.dealer,
            to_move=self.to_move,
            hands=tuple(self.hands),
            loose=self.loose,
            builds=tuple(self.builds),
            piles=tuple(tuple(p) for p in self.piles),
            stock=tuple(self.stock),
            last_capturer=self.last_capturer,
            sweep_order=tuple(self.sweep_order),
            scores=tuple(self.scores),
            discard=tuple(self.discard),
            plucked=self.plucked,
            phase=self.phase,
            trailed=self.trailed,
            defaults=tuple(self.defaults) if any(self.defaults) else (),
            mulles=tuple(self.mulles) if any(self.mulles) else (),
        )

    def to_json(self, indent: int | None = None) -> str:
        """Position JSON of the current position."""
        return self.to_position().to_json(indent)

    def clone(self) -> State:
        """An independent copy, undo history included."""
        new = State.__new__(State)
        new._root = self._root
        new._load(self.to_position())
        new._stack = list(self._stack)
        new._history = list(self._history)
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        moves = [(m.card, int(m.kind), m.takes, m.value, m.fixed) for m in self._history]
        return (_unpickle, (self._root.to_dict(), moves))

    def __eq__(self, other: object) -> bool:
        if not hasattr(other, "to_position"):
            return NotImplemented
        return bool(self.to_position() == other.to_position())

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<State {self.to_position().to_text()}>"

    def __str__(self) -> str:
        """The board (:meth:`Position.board`): hands, table, builds, counts."""
        return self.to_position().board()

    # -- queries ---------------------------------------------------------------------------
    def hand(self, seat: int | None = None) -> CardSet:
        """The cards in the hand of ``seat`` (default: the seat to move), as a CardSet."""
        if seat is None:
            seat = self.to_move
        if not isinstance(seat, int) or not 0 <= seat < self.rules.players:
            raise ValueError(f"no seat {seat!r}: seats are 0 to {self.rules.players - 1}")
        return CardSet(self.hands[seat])

    @property
    def table(self) -> CardSet:
        """Every card on the table, loose or in builds, as a CardSet."""
        return CardSet(self.table_mask)

    @property
    def is_over(self) -> bool:
        """Whether the hand is finished (Callabra: also once a capture cleared the table)."""
        if self.sweep_order and self.rules.two_card_capture:
            return True
        return not any(self.hands) and self.phase != "after"

    @property
    def last_deal(self) -> bool:
        """Whether the current deal is the last of the hand (the dealer announced "Last";
        never in cassino_draw, which has one deal and no announcement)."""
        return not self.stock and not self.rules.draw_refill

    @property
    def history(self) -> list[Move]:
        """Moves pushed since the state was created."""
        return list(self._history)

    @property
    def movers(self) -> list[int]:
        """The seat that made each move of :attr:`history`."""
        return [snap[0] for snap in self._stack]

    @property
    def ply(self) -> int:
        """Number of moves pushed."""
        return len(self._history)

    @property
    def table_mask(self) -> int:
        """Every card on the table."""
        m = self.loose
        for b in self.builds:
            m |= b.cards
        return m

    def hand_score(self) -> HandScore:
        """Scoring of the captured piles and sweeps so far."""
        last = self.last_capturer
        # Sistan (Swedish Kassino): the last capturer of a finished hand
        team = self.rules.team_of(last) if last is not None and self.is_over else None
        return score_hand(
            self.rules, self.piles, self.sweep_order, self.defaults, last_team=team,
            scores=self.scores,
            mulles=self.mulles,
        )

    # -- move generation -------------------------------------------------------------------
    def _pluckable(self) -> int:
        """The loose cards the player to act may pluck now (opt_pluck, docs/rules.md §3.37,
        AMB-25, AMB-27): once per deal, before or after his play; never an ace, 10D or 2S,
        the card he has just trailed, nor the last card on the table (counting the cards
        of builds, or with pluck_last_loose only the loose cards); with
        pluck_in_last_deal=false, not once the stock is empty."""
        r = self.rules
        if not r.pluck or self.phase == "plucked" or self.plucked >> self.to_move & 1:
            return 0
        if not r.pluck_in_last_deal and not self.stock:
            return 0
        keep = self.loose if r.pluck_last_loose else self.table_mask
        if keep.bit_count() < 2:
            return 0
        cand = self.loose & ~UNPLUCKABLE
        if self.trailed is not None:
            cand &= ~(1 << self.trailed)
        return cand

    def _pseudo_moves(self) -> list[Move]:
        """Every structurally valid move of the player to act, before the filters."""
        out: list[Move] = []
        if self.is_over or self.phase == "after":
            return out
        if self.rules.multi_valued:
            return self._pseudo_multi()
        if self.rules.finnish:
            return self._pseudo_finnish()
        if self.rules.two_card_capture:
            return self._pseudo_callabra()
        if self.rules.declarations:
            return self._pseudo_diloti()
        sweep_cards, sweep_only = _sweep_cards(self.rules)
        prey = self._sweep_takes()
        for p in bits(self.hands[self.to_move]):
            if sweep_cards >> p & 1 and prey:
                # docs/rules.md §3.37 opt_five_of_spades_sweep / §3.15 Tablanette Jacks: played
                # on a table with prey, the card takes all of it instead of trailing
                out.append(Move(p, CAPTURE, prey))
                if sweep_only:
                    continue
                out.extend(m for m in self._captures(p) if m.takes != prey)
            else:
                out.append(Move(p, TRAIL))
                out.extend(self._captures(p))
            if card_value(p) and self.rules.build_kinds != "none":
                out.extend(self._creates(p))
                out.extend(self._augments(p))
                out.extend(self._increases(p))
            elif self.rules.face_cards_all_four:
                out.extend(self._face_builds(p))
        return out

    def _face_builds(self, p: int) -> Iterator[Move]:
        """opt_face_cards_all_four (docs/rules.md §3.11, §3.37, AMB-33): the face card ``p`` laid
        on loose cards of its rank makes a natural (multiple) build of the rank, J 11, Q 12,
        K 13; added with loose cards of its rank to such a build, it augments it. With
        natural_build_combination=false, one loose card, or none when augmenting."""
        rank = card_rank(p)
        same = self.loose & rank_mask(rank)
        natural = self.rules.natural_build_combination
        for s in subsets(same):
            if s and (natural or s.bit_count() == 1):
                yield Move(p, BUILD, s, rank)
        for b in self.builds:
            if b.value == rank:
                for s in subsets(same):
                    if natural or not s:
                        yield Move(p, AUGMENT, s | b.cards, rank)
    def _pseudo_finnish(self) -> list[Move]:
        """Finnish Kasino (docs/rules.md §3.21, AMB-52): no building; a card takes any loose cards
        that form groups totalling its hand value (A 14, 2S 15, 10D 16, others as on the
        table), each group one card of that table value or a sum of table values (A 1, 2S
        2, 10D 10, J 11, Q 12, K 13). With ``rank_pairing_always`` a card may also take
        any loose cards of its own rank, each alone, beside such groups."""
        r = self.rules
        out: list[Move] = []
        for p in bits(self.hands[self.to_move]):
            out.append(Move(p, TRAIL))
            hv = r.hand_value(p)
            same = self.loose & rank_mask(card_rank(p)) if r.rank_pairing_always else 0
            cand = sum(1 << c for c in bits(self.loose) if r.card_value(c) <= hv) | same
            for sub in subsets(cand):
                if sub and any(
                    groups_ok_values(tuple(sorted(r.card_value(c) for c in bits(sub & ~pair))), hv, r)
                    for pair in subsets(sub & same)
                ):
                    out.append(Move(p, CAPTURE, sub))
        return out

    def _mokki_counts(self) -> bool:
        """Whether a Mokki (sweep) made now counts (Finnish Kasino, docs/rules.md §3.21, AMB-54):
        never in the last deal of the hand; with ``mokki_cutoff_check=capture`` not once a
        player's running game score (at the start of the hand, plus the point cards
        captured in it so far, this capture's included) has reached ``mokki_cutoff``."""
        r = self.rules
        if not self.stock:
            return False
        if r.mokki_cutoff and r.mokki_cutoff_check == "capture":
            now = immediate_points(r, self.piles, self.sweep_order)
            if any(s + n >= r.mokki_cutoff for s, n in zip(self.scores, now, strict=True)):
                return False
        return True

    def _pseudo_callabra(self) -> list[Move]:
        """Callabra (docs/rules.md §3.14, AMB-36): every card trails; a card takes one loose card
        of its value; two hand cards take one loose card of their total. No building, no
        sums of table cards."""
        value = self.rules.card_value
        hand = list(bits(self.hands[self.to_move]))
        table = list(bits(self.loose))
        out: list[Move] = []
        for i, p in enumerate(hand):
            out.append(Move(p, TRAIL))
            out.extend(Move(p, CAPTURE, 1 << t) for t in table if value(t) == value(p))
            for q in hand[i + 1 :]:
                total = value(p) + value(q)
                out.extend(
                    Move(p, TWO_CARD, 1 << q | 1 << t, total) for t in table if value(t) == total
                )
        return sorted(out)

    def _callabra_reason(self, m: Move) -> str:
        """Why a move is not a Callabra play here."""
        value = self.rules.card_value
        code = card_code(m.card)
        if m.kind in BUILD_KINDS:
            return "there is no building in callabra: trail, match one table card or play two cards"
        if m.kind == CAPTURE:
            if m.takes.bit_count() != 1:
                return (
                    f"a capture in callabra takes exactly one table card, not {m.takes.bit_count()}"
                )
            t = m.takes.bit_length() - 1
            return (
                f"the {code} ({value(m.card)}) cannot take the {card_code(t)} ({value(t)}): "
                "a card takes only a table card of the same value"
            )
        if m.kind == TWO_CARD:
            second, t = m.second_card, m.table_card
            if not self.hands[self.to_move] >> second & 1:
                return f"{card_code(second)} is not in the hand of seat {self.to_move}"
            if not self.loose >> t & 1:
                return f"{card_code(t)} is not on the table"
            total = value(m.card) + value(second)
            return (
                f"{code} and {card_code(second)} add up to {total}, not the {card_code(t)}'s "
                f"{value(t)}"
            )
        return f"{m} is not a callabra move"

    def _frozen_build_reason(self, m: Move) -> str | None:
        """Why build move ``m`` is illegal if it changes the value of a multiple build."""
        for b in self.builds:
            if b.cards & m.takes and b.multiple and b.value != m.value:
                return (
                    f"the build of {b.value} is a multiple build: it cannot be increased "
                    f"to {m.value}, only taken or added to"
                )
        return None

    def _sweep_takes(self) -> int:
        """What a capture-all card takes: every table item, or every loose card only."""
        if self.rules.five_of_spades_sweep and not self.rules.five_of_spades_builds:
            return self.loose
        return self.table_mask

    def _single_group(self, p: int) -> Iterator[Move]:
        """capture_extent=single_group (Kontsina, docs/rules.md §3.16, AMB-38, AMB-39): one loose
        card of p's rank, or one sum group of two or more loose numeric cards totalling its
        value; with combine_match_and_sum one of each together. Faces match by rank only,
        and not at all with faces_capturable=false."""
        r = self.rules
        v = card_value(p)
        same = self.loose & rank_mask(card_rank(p)) if v or r.faces_capturable else 0
        matches = [1 << c for c in bits(same)]
        sums: list[int] = []
        if v:
            cand = sum(1 << c for c in bits(self.loose) if 0 < card_value(c) < v)
            sums = [s for s in subsets(cand) if s.bit_count() >= 2 and mask_sum(s) == v]
        for takes in matches + sums:
            yield Move(p, CAPTURE, takes)
        if r.combine_match_and_sum:
            for m in matches:
                for s in sums:
                    yield Move(p, CAPTURE, m | s)

    def _captures(self, p: int) -> Iterator[Move]:
        r = self.rules
        if r.capture_extent == "single_group":
            yield from self._single_group(p)
            return
        v = card_value(p)
        if v == 0:
            same = self.loose & rank_mask(card_rank(p))
            if r.face_cards_all_four:
                # any loose cards of the rank (face_capture=any), with the natural face
                # builds of the rank taken whole
                bmask = [b.cards for b in self.builds if b.value == card_rank(p)]
                for loose in subsets(same):
                    yield from _with_builds(p, loose, bmask)
                return
            k = same.bit_count()
            for sub in subsets(same):
                n = sub.bit_count()
                if n == 0:
                    continue
                if (
                    n == 1
                    or r.face_capture == "any"
                    or (r.face_capture == "one_or_three" and n == 3 and k == 3)
                ):
                    yield Move(p, CAPTURE, sub)
            return
        cand = sum(1 << c for c in bits(self.loose) if 0 < card_value(c) <= v)
        bmask = [b.cards for b in self.builds if b.value == v]
        for loose in subsets(cand):
            if not groups_ok(loose, v, r):
                continue
            yield from _with_builds(p, loose, bmask)

    def _creates(self, p: int) -> Iterator[Move]:
        r = self.rules
        vp = card_value(p)
        cand = sum(1 << c for c in bits(self.loose) if card_value(c))
        for s in subsets(cand):
            if not s:
                continue
            total = vp + mask_sum(s)
            top = max(vp, max(card_value(c) for c in bits(s)))
            for v in range(top, min(total, r.build_max_value) + 1):
                if total % v:
                    continue
                if total // v == 1:
                    yield Move(p, BUILD, s, v)
                elif r.natural_build_combination:
                    if groups_ok(s | 1 << p, v, _MULTI):
                        yield Move(p, BUILD, s, v)
                elif s.bit_count() == 1 and card_value(s.bit_length() - 1) == vp == v:
                    yield Move(p, BUILD, s, v)

    def _augments(self, p: int) -> Iterator[Move]:
        r = self.rules
        vp = card_value(p)
        for b in self.builds:
            w = b.value
            if vp > w or (r.face_cards_all_four and b.is_face_build):
                continue  # (a natural face build takes face cards of its rank only)
            cand = sum(1 << c for c in bits(self.loose) if 0 < card_value(c) <= w)
            for s in subsets(cand):
                grp = s | 1 << p
                if r.natural_build_combination:
                    ok = groups_ok(grp, w, _MULTI)
                else:
                    ok = mask_sum(grp) == w
                if ok:
                    yield Move(p, AUGMENT, s | b.cards, w)

    def _increases(self, p: int) -> Iterator[Move]:
        r = self.rules
        vp = card_value(p)
        cand = sum(1 << c for c in bits(self.loose) if card_value(c))
        for b in self.builds:
            if b.multiple:
                continue
            for s in subsets(cand):
                w = b.value + vp + mask_sum(s)
                if w <= r.build_max_value:
                    yield Move(p, INCREASE, s | b.cards, w)

    # -- Diloti declarations (docs/rules.md §3.17, §3.18, AMB-42..51) -------------------------
    #
    # Every build is a declaration: plain (one group) or family (two groups or more). The
    # kind of a declaring move follows from what it takes: AUGMENT adds to one existing
    # family declaration, INCREASE raises a plain declaration to a new value (a raise,
    # optionally extended into a family declaration of the new value), BUILD is every other
    # declaration (new, or grouping plain declarations of its value). Ownership always
    # passes to the player (AMB-46). The filters are in _diloti_violation.

    def _pseudo_diloti(self) -> list[Move]:
        out: list[Move] = []
        for p in bits(self.hands[self.to_move]):
            out.append(Move(p, TRAIL))
            out.extend(self._captures(p))
            if card_value(p):
                out.extend(self._declares(p))
                out.extend(self._family_adds(p))
                out.extend(self._raises(p))
        return out

    def _plain_of(self, v: int) -> list[int]:
        """The card masks of the plain declarations of value ``v``."""
        return [b.cards for b in self.builds if not b.multiple and b.value == v]

    def _declares(self, p: int) -> Iterator[Move]:
        """New declarations (BUILD): p with loose numeric cards, and any plain declarations
        of the value as whole groups; one group is plain, two or more a family."""
        vp = card_value(p)
        cand = sum(1 << c for c in bits(self.loose) if card_value(c))
        for s in subsets(cand):
            total = vp + mask_sum(s)
            top = max([vp, *(card_value(c) for c in bits(s))])
            for v in range(top, min(total, self.rules.build_max_value) + 1):
                if total % v or (total > v and not groups_ok(s | 1 << p, v, _MULTI)):
                    continue
                for extra in _unions(self._plain_of(v)):
                    if s or extra:
                        yield Move(p, BUILD, s | extra, v)

    def _family_adds(self, p: int) -> Iterator[Move]:
        """Additions to one family declaration of value w (AUGMENT): a new group holding p
        (with loose cards), further groups of loose cards, plain declarations of w."""
        vp = card_value(p)
        for b in self.builds:
            w = b.value
            if not b.multiple or vp > w:
                continue
            cand = sum(1 << c for c in bits(self.loose) if 0 < card_value(c) <= w)
            plains = self._plain_of(w)
            for s in subsets(cand):
                if groups_ok(s | 1 << p, w, _MULTI):
                    for extra in _unions(plains):
                        yield Move(p, AUGMENT, b.cards | s | extra, w)

    def _raises(self, p: int) -> Iterator[Move]:
        """Raises (INCREASE) of a plain declaration by p alone to w' = w + value(p), with
        optional extra groups of w' (loose cards, plain declarations of w')."""
        vp = card_value(p)
        for b in self.builds:
            w = b.value + vp
            if b.multiple or w > self.rules.build_max_value:
                continue
            cand = sum(1 << c for c in bits(self.loose) if 0 < card_value(c) <= w)
            plains = self._plain_of(w)
            for s in subsets(cand):
                if s and not groups_ok(s, w, _MULTI):
                    continue
                for extra in _unions(plains):
                    yield Move(p, INCREASE, b.cards | s | extra, w)

    def _diloti_violation(self, m: Move) -> str | None:
        """Why a structurally valid Diloti move is illegal here, or None."""
        r = self.rules
        seat = self.to_move
        me = 1 << seat
        team = r.team_of(seat)
        code = card_code(m.card)
        held = self._held(self.hands[seat] & ~(1 << m.card))
        same = self.loose & rank_mask(card_rank(m.card))
        taken = [b for b in self.builds if b.cards & m.takes]
        own = [b for b in self.builds if b.owners & me]
        if m.kind == TRAIL and same:
            return (
                f"the {code} matches {CardSet(same)} on the table: laid, it must capture "
                "(compulsion lay_match_forced, AMB-42)"
            )
        if m.kind == CAPTURE:
            got = m.takes & same
            if card_value(m.card) and r.capture_extent == "all_matches" and got and got != same:
                return (
                    f"the {code} takes every loose card of its rank ({CardSet(same)}) or none "
                    "of them (capture_extent=all_matches, AMB-43)"
                )
            if taken and not r.declarations_in_capture and (len(taken) > 1 or m.takes & self.loose):
                return (
                    "declarations_in_capture=false: a capture that takes a declaration takes "
                    "that declaration alone (AMB-44)"
                )
        if m.kind in BUILD_KINDS:
            if m.value not in held:
                return f"a declaration of {m.value} needs {_a(m.value)} in your hand after this play"
            if m.kind == BUILD and not taken and mask_sum(m.takes) + card_value(m.card) == m.value:
                if m.takes.bit_count() < r.declaration_min_cards:
                    return (
                        f"declaration_min_cards={r.declaration_min_cards}: a plain declaration "
                        f"needs at least {r.declaration_min_cards} table cards (AMB-51)"
                    )
            if m.kind == INCREASE:
                target = next(b for b in taken if b.value != m.value)
                if target.owners & me:
                    return "you cannot raise your own declaration (AMB-45)"
                owner_team = r.team_of(target.owner_seats()[0])
                if owner_team == team and not target.raised & ~(1 << team):
                    return (
                        f"the declaration of {target.value} is your partner's: you may raise it "
                        "only after an opponent has raised it (docs/rules.md §3.18)"
                    )
            if m.kind == AUGMENT and r.augment_who == "own_team":
                family = next(b for b in taken if b.multiple)
                if r.team_of(family.owner_seats()[0]) != team:
                    return (
                        f"augment_who=own_team: you may add only to your own or your partner's "
                        f"family declaration, not to the {family.value} of an opponent (AMB-46)"
                    )
        if own:
            names = " and ".join(str(b.value) for b in own)
            if m.kind == TRAIL:
                return f"you own a declaration of {names}, and may not lay a card (obligation diloti)"
            if m.kind == INCREASE:
                return f"you own a declaration of {names}, and may not raise one (obligation diloti)"
            if m.kind == BUILD and r.obligation_no_declare and not taken:
                return (
                    f"you own a declaration of {names}, and obligation_no_declare forbids a new "
                    "declaration (AMB-47)"
                )
        for b in own:
            if not b.cards & m.takes and b.value not in held:
                return (
                    f"you own a declaration of {b.value} and would have no {_vname(b.value)} "
                    "left in your hand to take it"
                )
        return None

    def _first_play(self) -> bool:
        """Whether no card of the hand has been played yet (Diloti's first play, AMB-48:
        with xeri_first_play=first_hand only in the first hand of the game, whose scores
        are all 0)."""
        r = self.rules
        if r.xeri_first_play == "first_hand" and any(self.scores):
            return False
        fresh = r.deck_size - r.table_cards - r.players * r.hand_size
        return len(self.stock) == fresh and all(h.bit_count() == r.hand_size for h in self.hands)

    def _push_declaration(self, m: Move, seat: int) -> None:
        """A declaring move: the cards taken and the builds they touch become one
        declaration of m.value owned by the player (AMB-46); a raise records the team in
        Four Player Diloti."""
        r = self.rules
        taken = [b for b in self.builds if b.cards & m.takes]
        cards = m.takes | 1 << m.card
        multiple = mask_sum(cards) >= 2 * m.value
        raised = 0
        if m.kind == INCREASE and not multiple and r.teams == "partnership":
            target = next(b for b in taken if b.value != m.value)
            raised = target.raised | 1 << r.team_of(seat)
        self.loose &= ~m.takes
        rest = [b for b in self.builds if not b.cards & m.takes]
        self.builds = sorted([*rest, Build(m.value, cards, 1 << seat, multiple, (), raised)])

    # -- multi-valued cards (Royal, Buckeye: docs/rules.md §3.9, §3.10) --------------------------
    #
    # Every card has a value (J 11, Q 12, K 13); a multi-valued card (the ace 1 or 14, the
    # Buckeye 10D 10 or 11) takes one value per use, in hand and loose on the table; inside a
    # build it keeps the value it was built at (Build.fixed). Each way of valuing the played
    # card and the loose cards is tried, and the moves are made unique: a capture is
    # (card, takes), whatever values made its groups; a build move is (card, takes, value,
    # fixed), whatever grouping of the other cards made it.

    def _held(self, hand: int) -> set[int]:
        """The values the cards of ``hand`` can capture with."""
        r = self.rules
        held = set()
        for c in bits(hand):
            held.add(card_value(c) if not r.multi_valued else r.card_value(c))
            if r.face_cards_all_four and not card_value(c):
                held.add(card_rank(c))  # a face card takes the natural builds of its rank
            if r.multi_valued and r.second_value(c):
                held.add(r.second_value(c))
        return held

    def _hand_values(self, p: int) -> list[int]:
        r = self.rules
        return [v for v in (r.card_value(p), r.second_value(p)) if v]

    def _valuings(self, sub: int, top: int) -> Iterator[dict[int, int]]:
        """Every way to value the loose cards of ``sub`` (no value above ``top``)."""
        r = self.rules
        choices: list[tuple[int, list[int]]] = []
        for c in bits(sub):
            opts = [v for v in (r.card_value(c), r.second_value(c, on_table=True)) if 0 < v <= top]
            if not opts:
                return
            choices.append((c, opts))
        vals: dict[int, int] = {}

        def rec(i: int) -> Iterator[dict[int, int]]:
            if i == len(choices):
                yield dict(vals)
                return
            c, opts = choices[i]
            for v in opts:
                vals[c] = v
                yield from rec(i + 1)

        yield from rec(0)

    def _fixed(self, vals: dict[int, int]) -> tuple[tuple[int, int], ...]:
        r = self.rules
        return tuple(sorted((c, v) for c, v in vals.items() if v != r.card_value(c)))

    def _pseudo_multi(self) -> list[Move]:
        r = self.rules
        moves: set[Move] = set()
        top = max(r.build_max_value, 14)
        for p in bits(self.hands[self.to_move]):
            moves.add(Move(p, TRAIL))
            for vp in self._hand_values(p):
                pv = {p: vp}
                # captures: groups of vp, with any builds of vp
                bmask = [b.cards for b in self.builds if b.value == vp]
                for loose in subsets(self.loose):
                    if loose and not any(
                        groups_ok_values(tuple(sorted(vals.values())), vp, r)
                        for vals in self._valuings(loose, vp)
                    ):
                        continue
                    moves.update(_with_builds(p, loose, bmask))
                # creates (none without building: Swedish Kassino, docs/rules.md §3.19)
                for sub in subsets(self.loose) if r.build_kinds != "none" else ():
                    if not sub:
                        continue
                    for vals in self._valuings(sub, top):
                        total = vp + sum(vals.values())
                        high = max(vp, max(vals.values()))
                        for v in range(high, min(total, r.build_max_value) + 1):
                            if total % v:
                                continue
                            ok = total == v
                            if not ok and r.natural_build_combination:
                                ok = _partitionable(tuple(sorted([vp, *vals.values()])), v, 64)
                            elif not ok:
                                ok = sub.bit_count() == 1 and vp == v and total == 2 * v
                            if ok:
                                moves.add(Move(p, BUILD, sub, v, self._fixed(vals | pv)))
                # augments
                for b in self.builds:
                    w = b.value
                    if vp > w:
                        continue
                    for sub in subsets(self.loose):
                        for vals in self._valuings(sub, w):
                            group = tuple(sorted([vp, *vals.values()]))
                            if r.natural_build_combination:
                                ok = _partitionable(group, w, 64)
                            else:
                                ok = sum(group) == w
                            if ok:
                                moves.add(Move(p, AUGMENT, sub | b.cards, w, self._fixed(vals | pv)))
                # increases
                for b in self.builds:
                    if b.multiple:
                        continue
                    for sub in subsets(self.loose):
                        for vals in self._valuings(sub, top):
                            w = b.value + vp + sum(vals.values())
                            if w <= r.build_max_value:
                                moves.add(Move(p, INCREASE, sub | b.cards, w, self._fixed(vals | pv)))
        return self._canonical(sorted(moves))

    def _kinds_raised(self, fixed: tuple[tuple[int, int], ...]) -> Counter[tuple[int, int]]:
        """How many cards of each kind (first value, second value) ``fixed`` raises."""
        r = self.rules
        return Counter((r.card_value(c), r.second_value(c)) for c, _ in fixed)

    def _canonical(self, moves: list[Move]) -> list[Move]:
        """One move per build (issue 24): build moves that differ only in which of
        interchangeable multi-valued cards (Royal aces) count their second value reach
        equal states; the first in move order (the lowest card ids) is kept."""
        out: list[Move] = []
        kept: dict[tuple[int, int, int, int], list[Counter[tuple[int, int]]]] = {}
        for m in moves:
            if m.kind in BUILD_KINDS and m.fixed:
                key = (m.card, m.kind, m.takes, m.value)
                raised = self._kinds_raised(m.fixed)
                if raised in kept.setdefault(key, []):
                    continue
                kept[key].append(raised)
            out.append(m)
        return out

    def _relabelled(self, move: Move, legal: list[Move]) -> Move | None:
        """The legal move that ``move`` writes with interchangeable cards labelled otherwise."""
        r = self.rules
        if move.kind not in BUILD_KINDS or not r.multi_valued:
            return None
        # each card written at a value must be a multi-valued card at its second value (as
        # the core's alt_of): "AS:13" is no labelling of an ace at all
        if any(v != r.second_value(c, on_table=c != move.card) for c, v in move.fixed):
            return None
        raised = self._kinds_raised(move.fixed)
        for m in legal:
            same = (m.card, m.takes, m.value) == (move.card, move.takes, move.value)
            if same and m.kind in BUILD_KINDS and self._kinds_raised(m.fixed) == raised:
                return m
        return None

    def _multi_reason(self, m: Move) -> str:
        """Why a move of a Royal or Buckeye game is not even structurally valid."""
        r = self.rules
        code = card_code(m.card)
        values = " or ".join(str(v) for v in self._hand_values(m.card))
        if m.kind == CAPTURE:
            for b in self.builds:
                if b.cards & m.takes and b.value not in self._hand_values(m.card):
                    return f"a build of {b.value} cannot be taken by the {code} ({values})"
            return f"the cards taken do not form groups totalling the {code}'s value ({values})"
        if m.value > r.build_max_value:
            return f"builds go up to {r.build_max_value}, not {m.value}"
        for c, v in m.fixed:
            if v != r.second_value(c, on_table=c != m.card):
                return f"{card_code(c)} cannot count {v} here"
        frozen = self._frozen_build_reason(m)
        if frozen:
            return frozen
        return f"the cards, at the values written, do not form groups totalling {m.value}"

    def _build_total(self, cards: int, fixed: tuple[tuple[int, int], ...]) -> int:
        if not self.rules.multi_valued:
            return mask_sum(cards)
        return sum(card_values(cards, self.rules, fixed).values())

    def _target_build(self, m: Move) -> Build | None:
        for b in self.builds:
            if b.cards & m.takes:
                return b
        return None

    def _violation(self, m: Move) -> str | None:
        """Why a structurally valid move is illegal here, or None."""
        r = self.rules
        if r.declarations:
            return self._diloti_violation(m)
        seat = self.to_move
        me = 1 << seat
        after = self.hands[seat] & ~(1 << m.card)
        held = self._held(after)
        target = self._target_build(m) if m.kind in (AUGMENT, INCREASE) else None
        # build moves: uniqueness, holding requirement, own-increase rules
        if m.kind in BUILD_KINDS:
            others = [b for b in self.builds if b is not target]
            if r.unique_build_values and any(b.value == m.value for b in others):
                if m.kind == BUILD:
                    return f"a build of {m.value} is already on the table: augment it instead of building another"
                return f"a build of {m.value} is already on the table, so you cannot make another"
            if m.value not in held:
                return f"a build of {m.value} needs {_a(m.value)} in your hand after this play"
            if m.kind == INCREASE and target is not None and target.owners & me:
                if r.own_increase == "forbidden":
                    return "you cannot increase your own build (own_increase=forbidden)"
                if r.own_increase == "keep_old" and target.value not in held:
                    return (
                        f"increasing your own build of {target.value} needs {_a(target.value)} "
                        "kept in your hand (own_increase=keep_old)"
                    )
        # obligation (with michigan a default is legal and fined when played)
        if not r.michigan:
            duty = self._duty_reason(m)
            if duty is not None:
                return duty
        # holding invariant
        if r.holding_invariant:
            for b in self.builds:
                if m.kind == CAPTURE and b.cards & m.takes:
                    continue
                if b is target:
                    continue  # checked by the holding requirement above
                if b.owners & me and b.value not in held:
                    return (
                        f"you own a build of {b.value} and would have no {_vname(b.value)} "
                        "left in your hand to take it"
                    )
        if r.multi_valued:
            return self._holding_conflict(m, after, target)
        return None

    def _holding_conflict(self, m: Move, after: int, target: Build | None) -> str | None:
        """docs/rules.md §3.1 with multi-valued cards: after the play the player must hold a
        distinct card for each value of the builds he owns, the new build included (builds
        of one value count once). None if he does; else the conflict, named."""
        need = {m.value} if m.kind in BUILD_KINDS else set()
        if self.rules.holding_invariant:
            for b in self.builds:
                if b is target or not b.owners >> self.to_move & 1:
                    continue
                if m.kind == CAPTURE and b.cards & m.takes:
                    continue
                need.add(b.value)
        cards = {c: set(self._hand_values(c)) for c in bits(after)}
        if _matching(sorted(need), cards):
            return None
        # Hall's condition fails for some set of values: name the smallest
        for size in range(2, len(need) + 1):
            for vals in itertools.combinations(sorted(need), size):
                takers = [c for c, vs in cards.items() if vs & set(vals)]
                if len(takers) < size:
                    builds = " and ".join(f"your build of {v}" for v in vals)
                    if len(takers) == 1:
                        return f"your {card_code(takers[0])} cannot take both {builds}"
                    if not takers:
                        return f"you would hold no card to take {builds}"
                    held = ", ".join(card_code(c) for c in takers)
                    return f"your {held} cannot take all of {builds}"
        raise AssertionError("no Hall violator for an unmatched set")  # pragma: no cover

    def _duty_reason(self, m: Move) -> str | None:
        return duty_reason(self.rules.obligation, self.to_move, self.builds, m)

    def is_default(self, move: Move) -> bool:
        """Whether playing ``move`` now defaults on the build duty of the obligation module
        (under michigan: legal, and fined 2 points when played; docs/rules.md §3.37, AMB-19)."""
        return self._duty_reason(move) is not None

    def _legal_with_reasons(self) -> tuple[list[Move], dict[Move, str]]:
        legal, reasons = self._card_moves()
        pluck = self._pluckable()
        legal.extend(Move.pluck(c) for c in bits(pluck))
        if self.phase == "after":
            legal.append(Move.pass_turn())
        return legal, reasons

    def _card_moves(self) -> tuple[list[Move], dict[Move, str]]:
        """The legal moves that play a hand card, and why the others are illegal."""
        pseudo = self._pseudo_moves()
        legal: list[Move] = []
        reasons: dict[Move, str] = {}
        for m in pseudo:
            why = self._violation(m)
            if why is None:
                legal.append(m)
            else:
                reasons[m] = why
        if self.rules.capture_extent == "maximal":
            best: dict[int, int] = {}
            for m in pseudo:
                if m.kind == CAPTURE:
                    best[m.card] = max(best.get(m.card, 0), m.takes.bit_count())
            kept = []
            for m in legal:
                if m.kind == CAPTURE and m.takes.bit_count() < best[m.card]:
                    reasons[m] = (
                        f"capture_extent=maximal: the {card_code(m.card)} can take "
                        f"{best[m.card]} cards, not {m.takes.bit_count()}"
                    )
                else:
                    kept.append(m)
            legal = kept
        if not legal and not self.is_over and self.phase != "after":
            # no move satisfies the duties (only in positions no legal play reaches):
            # every trail is allowed
            legal = self._fallback_trails()
            for m in legal:
                reasons.pop(m, None)
        legal.sort()
        return legal, reasons

    def _fallback_trails(self) -> list[Move]:
        """The moves of a position where no move satisfies the duties: every trail. Legal
        play never reaches one (the holding check keeps a distinct card for each owned
        build value); hand-made positions may. Tests patch this to prove it unreached."""
        return [Move(p, TRAIL) for p in bits(self.hands[self.to_move])]

    def legal_moves(self, limit: int | None = None) -> list[Move]:
        """Every distinct legal move, in canonical order ``(card, kind, takes, value)``.

        Raises :class:`MoveLimitError` if there are more than ``limit`` moves."""
        moves = self._legal_with_reasons()[0]
        cap = DEFAULT_LIST_LIMIT if limit is None else limit
        if len(moves) > cap:
            raise MoveLimitError(f"{len(moves)} legal moves exceed the listing limit of {cap}")
        return moves

    def iter_moves(self, chunk: int = 4096) -> Iterator[Move]:
        """The legal moves in the order of :meth:`legal_moves`, without the listing limit
        (the core generates them ``chunk`` at a time; the reference lists them first). The
        state must not change meanwhile: the iterator raises RuntimeError after a push or
        pop."""
        _int_arg(chunk, "chunk", 1, DEFAULT_LIST_LIMIT)
        return self._moves_while_unchanged(len(self._history), self.hands)

    def _moves_while_unchanged(self, depth: int, hands: list[int]) -> Iterator[Move]:
        # a push lengthens the history, a pop replaces self.hands
        message = (
            "the state changed (push, pop, perft or playout) while its moves were being iterated"
        )
        if len(self._history) != depth or self.hands is not hands:
            raise RuntimeError(message)
        for m in self._legal_with_reasons()[0]:
            yield m
            if len(self._history) != depth or self.hands is not hands:
                raise RuntimeError(message)

    def count_moves(self) -> int:
        """Exact number of legal moves."""
        return len(self._legal_with_reasons()[0])

    def num_moves(self) -> int:
        """Generate the legal moves into the move buffer and return their number."""
        self._buffer = self._legal_with_reasons()[0]
        return len(self._buffer)

    def move_at(self, index: int) -> Move:
        """The move at ``index`` of the last :meth:`num_moves`."""
        return self._buffer[index]

    def push_index(self, index: int) -> None:
        """Push the move at ``index`` of the last :meth:`num_moves`."""
        self._push_unchecked(self._buffer[index])

    def explain(self, move: Move) -> str | None:
        """None if ``move`` is legal, else a sentence naming the rule that forbids it."""
        legal, reasons = self._legal_with_reasons()
        if move in legal:
            return None
        if move.kind in BUILD_KINDS:
            for m in legal:
                if same_notation(m, move):
                    return None
            if self._relabelled(move, legal) is not None:
                return None
            for m, why in reasons.items():
                if same_notation(m, move):
                    return why
        if move in reasons:
            return reasons[move]
        why = self._structural_reason(move)
        if self.rules.declarations:
            # Diloti (docs/rules.md §3.17): every build is a declaration
            for old, new in _DILOTI_WORDS:
                why = why.replace(old, new)
        return why

    def _structural_reason(self, m: Move) -> str:
        if self.is_over:
            if self.rules.two_card_capture and self.sweep_order:
                return "the table was cleared: the game is over"
            return "the hand is over"
        if m.plays_card and not 0 <= m.card < 104:
            return f"no card has the id {m.card}"
        if m.takes < 0 or m.takes >> 104:
            return f"takes {m.takes:#x} is not a mask of the card ids 0-103"
        off_deck = ((0 if not m.plays_card else 1 << m.card) | m.takes) & ~self.rules.deck_mask
        if off_deck:
            return (
                f"{card_code(next(bits(off_deck)))} is not a card of the deck of "
                f"{self.rules.system}"
            )
        if not m.plays_card:
            return self._pluck_reason(m)
        if self.phase == "after":
            return "you have played your card: pluck a loose card or pass"
        code = card_code(m.card)
        if not self.hands[self.to_move] >> m.card & 1:
            return f"{code} is not in the hand of seat {self.to_move}"
        if m.kind == TWO_CARD and not self.rules.two_card_capture:
            return f"two-card captures are a callabra move, not one of {self.rules.system}"
        if self.rules.two_card_capture:
            if m.kind != TWO_CARD and m.takes & ~self.table_mask:
                return f"{card_code(next(bits(m.takes & ~self.table_mask)))} is not on the table"
            return self._callabra_reason(m)
        missing = m.takes & ~self.table_mask
        if missing:
            return f"{card_code(next(bits(missing)))} is not on the table"
        for b in self.builds:
            if b.cards & m.takes and b.cards & ~m.takes:
                return f"the build of {b.value} must be taken or added to as a whole"
        if m.kind in BUILD_KINDS and self.rules.build_kinds == "none":
            return f"there is no building in {self.rules.system}: capture or trail"
        if m.kind == CAPTURE and self.rules.capture_extent == "single_group":
            return self._single_group_reason(m)
        if self.rules.multi_valued:
            return self._multi_reason(m)
        if self.rules.finnish:
            return self._finnish_reason(m)
        v = card_value(m.card)
        if m.kind == CAPTURE:
            if v == 0:
                if m.takes & ~rank_mask(card_rank(m.card)):
                    return f"a face card takes only cards of its own rank ({code})"
                return (
                    f"face_capture={self.rules.face_capture}: a {code} takes one card of its rank"
                    + (", or three when three lie on the table" if self.rules.face_capture == "one_or_three" else "")
                )
            for b in self.builds:
                if b.cards & m.takes and b.value != v:
                    return f"a build of {b.value} can only be taken by {_a(b.value)}"
            return f"the cards taken do not form groups totalling {v}"
        if v == 0:
            if not self.rules.face_cards_all_four:
                return "face cards cannot be built"
            rank = card_rank(m.card)
            if m.value != rank or m.takes & ~rank_mask(rank):
                return f"a {code} builds only cards of its rank, into a build of {rank}"
            if not self.rules.natural_build_combination:
                return "natural_build_combination=false: a face card goes on one card of its rank"
            return f"a {code} needs a card of its rank on the table to build on"
        if m.value > self.rules.build_max_value:
            return f"builds go up to {self.rules.build_max_value}, not {m.value}"
        if m.value < v:
            return f"a {code} cannot go into a build of {m.value}"
        frozen = self._frozen_build_reason(m)
        if frozen:
            return frozen
        if not self.rules.natural_build_combination:
            return (
                f"the cards do not form one build of {m.value} "
                "(natural_build_combination=false allows a single group)"
            )
        return f"the cards do not form groups totalling {m.value}"

    def _finnish_reason(self, m: Move) -> str:
        """Why a Finnish Kasino capture is not legal (docs/rules.md §3.21, AMB-52)."""
        r = self.rules
        code = card_code(m.card)
        hv = r.hand_value(m.card)
        why = f"the cards taken do not form groups totalling the {code}'s hand value ({hv})"
        if hv != r.card_value(m.card) and not r.rank_pairing_always:
            why += (
                f"; from hand the {code} counts {hv}, so it does not take a lone "
                f"{card_code(m.card)[:-1]} (AMB-52; rank_pairing_always=true allows it)"
            )
        return why

    def _single_group_reason(self, m: Move) -> str:
        """Why a capture is not one group (capture_extent=single_group, Kontsina)."""
        r = self.rules
        code = card_code(m.card)
        faces = m.takes & FACES
        if faces and not r.faces_capturable:
            return (
                f"faces_capturable=false: the {card_code(next(bits(faces)))} cannot be taken; "
                "faces stay on the table until the leftovers (AMB-38)"
            )
        if not card_value(m.card) or faces:
            return f"a face card takes and is taken only by rank, one card at a time ({code})"
        one = "one card of its rank or one group of cards totalling its value"
        if r.combine_match_and_sum:
            one = "one card of its rank and/or one group of cards totalling its value"
        return (
            f"capture_extent=single_group: the {code} ({card_value(m.card)}) takes {one} "
            "(AMB-39)"
        )

    def _pluck_reason(self, m: Move) -> str:
        """Why the pluck or pass ``m`` is illegal here."""
        r = self.rules
        if not r.pluck:
            return f"{r.system} has no plucking (opt_pluck is off)"
        if m.kind == PASS:
            return "there is nothing to pass: a pass ends a turn after its card is played"
        code = card_code(m.takes.bit_length() - 1)
        if self.phase == "plucked" or self.plucked >> self.to_move & 1:
            return "you have plucked in this deal already (one pluck a deal)"
        if not r.pluck_in_last_deal and not self.stock:
            return "no plucking in the last deal (pluck_in_last_deal=false)"
        if not m.takes & self.loose:
            if m.takes & self.table_mask:
                return f"{code} is in a build: only loose cards can be plucked"
            return f"{code} is not on the table"
        if m.takes & UNPLUCKABLE:
            return f"{code} cannot be plucked: aces, 10D and 2S never can"
        if self.trailed is not None and m.takes >> self.trailed & 1:
            return f"{code} is the card you have just played: it cannot be plucked"
        return "a pluck may not leave the table without " + (
            "a loose card" if r.pluck_last_loose else "cards"
        )

    def parse_move(self, text: str) -> Move:
        """The legal move written ``text``; raises :class:`IllegalMoveError` if none."""
        move = Move.parse(text)
        return self._resolve(move)

    def _resolve(self, move: Move) -> Move:
        legal = self._legal_with_reasons()[0]
        if move in legal:
            return move
        if move.kind in BUILD_KINDS:
            for m in legal:
                if same_notation(m, move):
                    return m
            relabelled = self._relabelled(move, legal)
            if relabelled is not None:
                return relabelled
        raise IllegalMoveError(f"illegal move {move}: {self.explain(move)}")

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal (build kinds are matched by notation)."""
        return self.explain(move) is None

    # -- push / pop --------------------------------------------------------------------------
    def push(self, move: Move | str) -> Move:
        """Play a legal move; the state is unchanged if it is illegal. Returns the move."""
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except NotationError as exc:
                raise IllegalMoveError(str(exc)) from None
        m = self._resolve(move)
        self._push_unchecked(m)
        return m

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            self.to_move,
            list(self.hands),
            self.loose,
            list(self.builds),
            [len(p) for p in self.piles],
            list(self.stock),
            self.last_capturer,
            len(self.sweep_order),
            len(self.discard),
            self.plucked,
            self.phase,
            self.trailed,
            list(self.defaults),
            list(self.mulles),
        )

    def _push_unchecked(self, m: Move) -> None:
        self._stack.append(self._snapshot())
        self._history.append(m)
        r = self.rules
        seat = self.to_move
        team = r.team_of(seat)
        if not m.plays_card:
            self._push_pluck(m, seat, team)
            return
        bit = 1 << m.card
        first = r.declarations and m.kind == CAPTURE and self._first_play()
        if r.declarations and m.kind in BUILD_KINDS:
            self.hands[seat] &= ~bit
            self._push_declaration(m, seat)
            self._advance()
            return
        if r.michigan and self._duty_reason(m) is not None:
            self.defaults[team] += 1
        self.hands[seat] &= ~bit
        if m.kind == TWO_CARD:
            # Callabra: the second hand card goes with the first; the pile as for a capture
            self.hands[seat] &= ~m.takes
        if m.kind == TRAIL:
            self.loose |= bit
        elif m.kind in (CAPTURE, TWO_CARD):
            self.loose &= ~m.takes
            self.builds = [b for b in self.builds if not b.cards & m.takes]
            self.piles[team].extend(bits(m.takes))
            self.piles[team].append(m.card)
            self.last_capturer = seat
            if r.mulle_points and m.takes == 1 << (m.card + 52 if m.card < 52 else m.card - 52):
                # Mulle (docs/rules.md §3.20): the one card taken is the other copy of the card
                self.mulles[team] += 1
            last_card = not any(self.hands) and not self.stock
            # (Callabra logs the clear that ends the game, which scores no sweep points)
            logs = r.sweeps or r.two_card_capture
            # (Diloti, AMB-48: the first play of the hand clearing the layout is no Xeri)
            if logs and not self.table_mask and (r.last_card_sweep or not last_card) and not first:
                if not r.finnish or self._mokki_counts():
                    self.sweep_order.append(team)
        elif m.kind == BUILD:
            self.loose &= ~m.takes
            cards = m.takes | bit
            multiple = self._build_total(cards, m.fixed) // m.value >= 2 or (
                r.face_cards_all_four and not card_value(m.card)  # a natural face build
            )
            self.builds = sorted([*self.builds, Build(m.value, cards, 1 << seat, multiple, m.fixed)])
        else:
            target = self._target_build(m)
            assert target is not None
            self.loose &= ~m.takes
            rest = [b for b in self.builds if b is not target]
            cards = target.cards | m.takes | bit
            fixed = tuple(sorted(target.fixed + m.fixed))
            if m.kind == AUGMENT:
                nb = Build(target.value, cards, target.owners | 1 << seat, True, fixed)
            else:
                nb = Build(m.value, cards, 1 << seat, False, fixed)
            self.builds = sorted([*rest, nb])
        if r.draw_refill and self.stock:
            # cassino_draw: the top stock card, after the play (holding checked before it)
            self.hands[seat] |= 1 << self.stock.pop(0)
        if r.michigan_rounds_to_5 and max(instant_against(r, self.sweep_order, self.defaults)) >= 3:
            self._end_early()
        elif r.pluck and self.phase == "start":
            # opt_pluck: a player who has not plucked in this deal may pluck after his play
            self.phase = "after"
            self.trailed = m.card if m.kind == TRAIL else None
            if self._pluckable():
                return
        self.phase = "start"
        self.trailed = None
        self._advance()

    def _push_pluck(self, m: Move, seat: int, team: int) -> None:
        """A pluck (not a capture: no last capturer, never a sweep) or a pass."""
        if m.kind == PLUCK:
            self.loose &= ~m.takes
            self.piles[team].append(m.takes.bit_length() - 1)
            self.plucked |= 1 << seat
            if self.phase == "start":
                self.phase = "plucked"      # his card comes next
                return
        self.phase = "start"
        self.trailed = None
        self._advance()

    def _end_early(self) -> None:
        """michigan_rounds_to_5 (AMB-19): a team has suffered three instant scores, so the
        hand ends now. The cards still in hand (seat by seat, ascending) and the stock are
        set aside unscored; the table then goes to the last capturer as at any hand end."""
        for s, h in enumerate(self.hands):
            self.discard.extend(bits(h))
            self.hands[s] = 0
        self.discard.extend(self.stock)
        self.stock = []

    def _advance(self) -> None:
        r = self.rules
        if any(self.hands):
            self.to_move = self._holder(next_seat(r, self.to_move))
            return
        if self.stock and not (r.two_card_capture and self.sweep_order):
            # (Callabra: after the clear that ends the game, nothing more is dealt)
            self._deal_round()
            self.plucked = 0                # once per player per deal
            self.to_move = self._holder(first_player(r, self.dealer))
            return
        leftovers = list(bits(self.table_mask))
        if leftovers:
            if self.last_capturer is not None:
                self.piles[r.team_of(self.last_capturer)].extend(leftovers)
            else:
                self.discard.extend(leftovers)
        self.loose = 0
        self.builds = []
        self.to_move = next_seat(r, self.to_move)

    def _holder(self, seat: int) -> int:
        """``seat``, or the next seat in play order holding cards (a short last deal in
        rotation, deal_rest=rotation, leaves some hands empty before the others)."""
        while not self.hands[seat]:
            seat = next_seat(self.rules, seat)
        return seat

    def _deal_round(self) -> None:
        """A later deal: batches of two (the last batch one card when the deal gives an odd
        number, as five-player Cassino's 2-2-1), every seat from the dealer's left, the
        dealer last; never table cards."""
        r = self.rules
        size = r.deal_size(len(self.stock))
        if r.deal_rest == "even" and len(self.stock) < r.players * size:
            # Mulle (AMB-55): one card at a time from the dealer's left, the same number
            # each; the cards that cannot go round go face up to the table
            each = len(self.stock) // r.players * r.players
            for i, c in enumerate(self.stock[:each]):
                self.hands[next_seat(r, self.dealer, 1 + i % r.players)] |= 1 << c
            for c in self.stock[each:]:
                self.loose |= 1 << c
            self.stock = []
            return
        if r.deal_rest == "rotation" and len(self.stock) < r.players * size:
            # Callabra (docs/rules.md §3.14): one card at a time from the dealer's left
            for i, c in enumerate(self.stock):
                self.hands[next_seat(r, self.dealer, 1 + i % r.players)] |= 1 << c
            self.stock = []
            return
        pos = 0
        whole = r.deal_order == "whole_hands_then_table"   # Diloti: a whole hand each
        for start in range(0, size, size if whole else 2):
            batch = size if whole else min(2, size - start)
            for k in range(1, r.players + 1):
                seat = next_seat(r, self.dealer, k)
                for c in self.stock[pos : pos + batch]:
                    self.hands[seat] |= 1 << c
                pos += batch
        del self.stock[:pos]

    def pop(self) -> Move:
        """Undo the last move and return it."""
        if not self._stack:
            raise IndexError("pop from a state with no moves pushed")
        (
            self.to_move,
            self.hands,
            self.loose,
            self.builds,
            pile_lens,
            self.stock,
            self.last_capturer,
            nsweeps,
            ndiscard,
            self.plucked,
            self.phase,
            self.trailed,
            self.defaults,
            self.mulles,
        ) = self._stack.pop()
        for p, n in zip(self.piles, pile_lens, strict=True):
            del p[n:]
        del self.sweep_order[nsweeps:]
        del self.discard[ndiscard:]
        return self._history.pop()

    def peek(self) -> Move:
        """The last move pushed."""
        if not self._history:
            raise IndexError("no move has been pushed")
        return self._history[-1]

    # -- search ----------------------------------------------------------------------------
    def perft(self, depth: int) -> int:
        """Number of move sequences of length ``depth``; a finished hand is a leaf."""
        if depth <= 0 or self.is_over:
            return 1
        moves = self._legal_with_reasons()[0]
        if depth == 1:
            return len(moves)
        total = 0
        for m in moves:
            self._push_unchecked(m)
            try:
                total += self.perft(depth - 1)
            finally:  # Ctrl-C (KeyboardInterrupt) leaves the state as it was
                self.pop()
        return total

    def playout(self, seed: int) -> HandScore:
        """Play uniformly random legal moves to the end of the hand; return its scoring."""
        rng = Rng(seed)
        while not self.is_over:
            moves = self._legal_with_reasons()[0]
            self._push_unchecked(moves[rng.below(len(moves))])
        return self.hand_score()


_MULTI = Rules(sum_groups="multi")
_DILOTI_WORDS = (
    ("is a multiple build: it cannot be increased", "is a family declaration: it cannot be raised"),
    ("a build of", "a declaration of"),
    ("the build of", "the declaration of"),
    ("builds go up to", "declarations go up to"),
    ("into a build of", "into a declaration of"),
    ("face cards cannot be built", "J, Q and K have no value: they are never declared"),
    ("form one build of", "form one declaration of"),
)


def duty_reason(obligation: str, seat: int, builds: Iterable[Build], m: Move) -> str | None:
    """Why obligation module ``obligation`` forbids ``seat`` to play ``m`` with ``builds``
    on the table (under michigan: why ``m`` is a default, fined 2 points), or None. Only
    the obligation: the holding requirement and the holding invariant are not duties."""
    own = [b for b in builds if b.owners >> seat & 1]
    if not own or obligation == "none" or not m.plays_card:
        return None  # (a pluck or a pass is no play: the duty binds the card played)
    names = " and ".join(str(b.value) for b in own)
    what = f"you own a build of {names}"
    takes_own = any(b.cards & m.takes for b in own)
    if obligation in ("v1", "v3") and m.kind == TRAIL:
        return f"{what}, and obligation {obligation} forbids trailing"
    if obligation == "v2" and not (m.kind in (CAPTURE, AUGMENT, INCREASE) and takes_own):
        return f"{what}, and obligation v2 requires you to capture it or add to it"
    if obligation == "v3" and m.kind in (CAPTURE, AUGMENT) and not takes_own:
        return f"{what}, and obligation v3 requires you to take it in, add to it, or build elsewhere"
    return None


def _int_arg(x: object, name: str, lo: int, hi: int) -> int:
    """``x`` checked to be an integer from ``lo`` to ``hi`` (iter_moves' chunk)."""
    if isinstance(x, bool):
        raise TypeError(f"{name} must be an integer, not bool")
    try:
        n = operator.index(x)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} must be an integer, not {type(x).__name__}") from None
    if not lo <= n <= hi:
        raise ValueError(f"{name} must be between {lo} and {hi}, not {n}")
    return n


def _vname(v: int) -> str:
    return "ace" if v == 1 else str(v)


def _a(v: int) -> str:
    """``v`` with its article: 'an ace', 'an 8', 'a 7'."""
    name = _vname(v)
    return f"an {name}" if name in ("ace", "8") else f"a {name}"


def _unpickle(root: dict[str, Any], moves: list[tuple[Any, ...]]) -> State:
    state = State(Position.from_dict(root))
    for card, kind, takes, value, *fixed in moves:
        state._push_unchecked(Move(card, MoveKind(kind), takes, value, *fixed))
    return state


def random_hand(rules: Rules, seed: int, dealer: int = 0) -> tuple[list[int], int]:
    """Deal a hand from ``seed`` and play it out at random with the same RNG.

    Returns the points per team and the number of moves; identical in the core."""
    rng = Rng(seed)
    deck = rules.deck_cards(shuffled_deck(rng, rules.num_ids))
    state = State.new_hand(rules, dealer, deck)
    n = 0
    while not state.is_over:
        moves = state._legal_with_reasons()[0]
        state._push_unchecked(moves[rng.below(len(moves))])
        n += 1
    return state.hand_score().totals(), n
