"""Positions: the normalized interchange form shared by the core and the reference.

A :class:`Position` is plain immutable data (card masks and tuples). It is read from and
written to the position JSON of docs/format.md and to a compact one-line text notation.
Parsing validates everything and raises :class:`~cassino.errors.PositionError` (or
:class:`~cassino.errors.CardError`, :class:`~cassino.errors.RulesError`) naming the problem.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from .cards import (
    ALL_CARDS,
    RANK_PLURALS,
    CardSet,
    card_code,
    card_rank,
    check_deck,
    parse_card,
    rank_mask,
)
from .errors import CassinoError, NotationError, PositionError
from .rules import Rules, parse_option, rules
from .scoring import instant_against

__all__ = [
    "MAX_JSON_BYTES",
    "Build",
    "Position",
    "bundle_order",
    "card_value",
    "card_values",
    "partition_groups",
    "value_partition",
]

MAX_JSON_BYTES = 1 << 20
MAX_JSON_DEPTH = 16


def bundle_order(pile: Sequence[int]) -> tuple[int, ...]:
    """A face-up bundle of pile_access=steal_pile (Stealing Bundles) as positions write it:
    the cards under the top card in id order, the top card last. Nothing in the rules reads
    the order under the top, so the engine keeps the set and the top only.

    >>> bundle_order([30, 4, 17, 9])
    (4, 17, 30, 9)
    """
    if len(pile) < 2:
        return tuple(pile)
    return (*sorted(pile[:-1]), pile[-1])


def card_value(card: int) -> int:
    """Numeric value of a card in the standard systems: A=1, 2-10 pip, faces 0 (none)."""
    r = card_rank(card)
    return r if r <= 10 else 0


def mask_sum(mask: int) -> int:
    """Sum of the values of the cards in ``mask``."""
    total = 0
    while mask:
        low = mask & -mask
        total += card_value(low.bit_length() - 1)
        mask ^= low
    return total


def _bits(mask: int) -> list[int]:
    return list(CardSet(mask))


def face_build(cards: int, value: int) -> bool:
    """Whether ``cards`` at ``value`` is a natural build of face cards: every card of the
    rank ``value`` (J 11, Q 12, K 13; opt_face_cards_all_four)."""
    return 11 <= value <= 13 and cards & ~rank_mask(value) == 0


def partition_groups(cards: int, value: int) -> list[int] | None:
    """A canonical partition of ``cards`` into groups each totalling ``value``, or None.

    Groups are found greedily: the lowest card first, with the first (by card ids)
    subset that lets the rest be partitioned too. Whether the rest can be partitioned
    depends only on its multiset of values, which is memoized, so even a build of all
    40 numeric cards is grouped in milliseconds.

    >>> from cassino.cards import CardSet
    >>> [str(CardSet(g)) for g in partition_groups(int(CardSet.parse("AS 3S 5H 9C")), 9)]
    ['AS 3S 5H', '9C']
    """
    ids = _bits(cards)
    if any(card_value(c) == 0 for c in ids) or not 1 <= value <= 10 * 52:
        return None if ids else []
    memo: dict[tuple[int, ...], bool] = {}
    if not _can_partition(_value_counts(cards), value, memo):
        return None
    groups: list[int] = []
    rest = cards
    while rest:
        ids = _bits(rest)
        first = ids[0]
        need = value - card_value(first)
        for sub in _subsets_with_sum(ids[1:], need):
            tail = rest & ~sub & ~(1 << first)
            if _can_partition(_value_counts(tail), value, memo):
                groups.append(sub | (1 << first))
                rest = tail
                break
        else:  # pragma: no cover - the multiset check above guarantees a completion
            return None
    return groups


def _value_counts(cards: int) -> tuple[int, ...]:
    """Number of cards of each value 0..10 in ``cards``."""
    counts = [0] * 11
    for c in _bits(cards):
        counts[card_value(c)] += 1
    return tuple(counts)


def _can_partition(counts: tuple[int, ...], value: int, memo: dict[tuple[int, ...], bool]) -> bool:
    """Whether cards with these value ``counts`` split into groups each totalling ``value``."""
    if counts in memo:
        return memo[counts]
    top = max((v for v in range(1, len(counts)) if counts[v]), default=0)
    if top == 0:
        ok = True
    elif top > value:
        ok = False
    else:
        cnt = list(counts)
        cnt[top] -= 1
        ok = _complete(cnt, value - top, top, value, memo)
    memo[counts] = ok
    return ok


def _complete(
    cnt: list[int], need: int, most: int, value: int, memo: dict[tuple[int, ...], bool]
) -> bool:
    """Whether cards of values at most ``most`` totalling ``need`` can join the group being
    formed so that the remaining cards can be partitioned too (each multiset once)."""
    if need == 0:
        return _can_partition(tuple(cnt), value, memo)
    for x in range(min(most, need), 0, -1):
        if cnt[x]:
            cnt[x] -= 1
            ok = _complete(cnt, need - x, x, value, memo)
            cnt[x] += 1
            if ok:
                return True
    return False


def _subsets_with_sum(ids: Sequence[int], need: int) -> Iterable[int]:
    if need == 0:
        yield 0
        return
    for i, c in enumerate(ids):
        v = card_value(c)
        if v <= need:
            for sub in _subsets_with_sum(ids[i + 1 :], need - v):
                yield sub | (1 << c)


def card_values(cards: int, r: Rules, fixed: Iterable[tuple[int, int]] = ()) -> dict[int, int]:
    """The value of each card of ``cards`` under rules ``r``: its first value, or the value
    ``fixed`` gives it (a multi-valued card inside a build)."""
    vals = {c: r.card_value(c) for c in _bits(cards)}
    for c, v in fixed:
        if c in vals:
            vals[c] = v
    return vals


def value_partition(cards: int, value: int, vals: dict[int, int]) -> list[int] | None:
    """As :func:`partition_groups`, with each card's value given by ``vals`` (Royal and
    Buckeye builds, whose multi-valued cards have the values fixed when they were built)."""
    ids = _bits(cards)
    if any(vals[c] <= 0 for c in ids) or not 1 <= value <= 31 * 52:
        return None if ids else []

    def counts(m: int) -> tuple[int, ...]:
        cnt = [0] * 32
        for c in _bits(m):
            cnt[min(vals[c], 31)] += 1
        return tuple(cnt)

    def with_sum(xs: Sequence[int], need: int) -> Iterable[int]:
        if need == 0:
            yield 0
            return
        for i, c in enumerate(xs):
            if vals[c] <= need:
                for sub in with_sum(xs[i + 1 :], need - vals[c]):
                    yield sub | (1 << c)

    memo: dict[tuple[int, ...], bool] = {}
    if any(vals[c] > value for c in ids) or not _can_partition(counts(cards), value, memo):
        return None
    groups: list[int] = []
    rest = cards
    while rest:
        ids = _bits(rest)
        first = ids[0]
        for sub in with_sum(ids[1:], value - vals[first]):
            tail = rest & ~sub & ~(1 << first)
            if _can_partition(counts(tail), value, memo):
                groups.append(sub | (1 << first))
                rest = tail
                break
        else:  # pragma: no cover - the multiset check above guarantees a completion
            return None
    return groups


@dataclass(frozen=True, order=True)
class Build:
    """A build on the table: its cards, declared value, owners (a seat mask) and kind.

    ``fixed`` lists the multi-valued cards of the build (Royal ace, Buckeye 10D) that count at
    a value other than their first, as ``(card, value)`` pairs in card order."""

    value: int
    cards: int
    owners: int
    multiple: bool
    fixed: tuple[tuple[int, int], ...] = ()
    # Four Player Diloti (docs/rules.md §3.18): the teams that have raised this plain declaration
    # (a team mask); a partner's declaration may be raised only after an opponent raised it
    raised: int = 0
    # opt_esun (docs/rules.md §3.37, AMB-75): an Esun made since the last deal, whose creator
    # loses the top card of his pile if it is still on the table at the next deal or the
    # end of the hand
    due: bool = False
    # African Cassino with increase_who=opponent_created (AMB-60's option): the seat that
    # first created the build (-1: not recorded, every other system)
    creator: int = -1

    @property
    def is_face_build(self) -> bool:
        """Whether this is a natural build of face cards (opt_face_cards_all_four: Q on Q),
        whose value is the rank (J 11, Q 12, K 13) and whose groups are single cards."""
        return face_build(self.cards, self.value)

    def groups(self) -> list[int]:
        """A canonical grouping of the build's cards."""
        if self.is_face_build:
            return [1 << c for c in _bits(self.cards)]
        groups = partition_groups(self.cards, self.value)
        assert groups is not None
        return groups

    def groups_for(self, r: Rules) -> list[int]:
        """A canonical grouping of the build's cards under the card values of ``r``."""
        if r.build_kinds == "zwickern_stack":
            return [self.cards]   # (a Zwickern stack: one pile of its total, AMB-88)
        if not r.multi_valued:
            return self.groups()
        groups = value_partition(self.cards, self.value, card_values(self.cards, r, self.fixed))
        assert groups is not None
        return groups

    def card_text(self, card: int, r: Rules) -> str:
        """The card's code, with ``:value`` when it is multi-valued under ``r``."""
        code = card_code(card)
        if r.second_value(card):
            return f"{code}:{dict(self.fixed).get(card, r.card_value(card))}"
        return code

    def owner_seats(self) -> list[int]:
        """Owners as a sorted list of seats."""
        return [s for s in range(self.owners.bit_length()) if self.owners >> s & 1]


@dataclass(frozen=True)
class Position:
    """A fully specified position of one hand."""

    rules: Rules
    dealer: int
    to_move: int
    hands: tuple[int, ...]
    loose: int
    builds: tuple[Build, ...]
    piles: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    last_capturer: int | None
    sweep_order: tuple[int, ...]
    scores: tuple[int, ...]
    discard: tuple[int, ...] = field(default=())
    # opt_pluck (docs/rules.md §3.37): the seats that have plucked in this deal (a mask), the
    # phase of the turn of ``to_move`` ("start"; "plucked": he plucked and must now play a
    # card; "after": he played a card and may pluck or pass) and, in "after", the card he
    # trailed (it cannot be plucked)
    plucked: int = 0
    phase: str = "start"
    trailed: int | None = None
    # opt_michigan: defaults on the build duty per team in this hand (-2 each); empty when
    # there are none (the canonical form of all zeros)
    defaults: tuple[int, ...] = field(default=())
    # Mulle (docs/rules.md §3.20): Mulle captures per team in this hand (a capture of exactly one
    # table card, the other copy of the played card); empty when there are none
    mulles: tuple[int, ...] = field(default=())
    # opt_esun's penalty options (docs/rules.md §3.37, AMB-75): the penalties each seat owes
    # for due Esun piles an opponent took (esun_penalty=unless_creator_took), empty when none;
    # and the state of the hand's chance RNG (splitmix64, cassino.Rng), which draws the card
    # of a penalty with esun_penalty_card=random (None otherwise). Players never see it.
    esun_owed: tuple[int, ...] = field(default=())
    chance: int | None = None
    # Bella Donna (docs/rules.md §3.33, AMB-92): the card the previous player trailed on his
    # last turn, if it was a trail (a capture that takes it is a Fixxa), and the Fixxa and
    # Stoppa points per team in this hand, empty when there are none
    fixxa: int | None = None
    bonuses: tuple[int, ...] = field(default=())
    # Laugh and Lie Down (docs/rules.md §3.35, §3.36): ``scores`` are the chips each seat
    # holds (after this hand's antes) and ``centre`` the chips in the centre (once the hand
    # is over, ``last_capturer`` is the last holder, AMB-96); ``laid`` the
    # cards each seat laid down (a mask per seat, empty when nobody has); in phase "prial"
    # or "release" a decision is pending: ``to_move`` decides whether to bank two cards of
    # rank ``decision[0]`` (1-13) from his hand, and then the turn passes to the next seat
    # holding cards after seat ``decision[1]``
    centre: int = 0
    laid: tuple[int, ...] = field(default=())
    decision: tuple[int, int] | None = None
    # Partnership African Cassino (docs/rules.md §3.24, AMB-64): ``(seat, value)`` pairs, sorted:
    # an opponent increased that seat's build of that value, so his partner may make or
    # increase a build to the value for him
    claims: tuple[tuple[int, int], ...] = field(default=())
    # the house variant with Italian cards (docs/rules.md §3.25, AMB-68): in phase "insist"
    # the seat after the mover accepts (pass) or insists on a maximal capture or augment, in
    # phase "extend" the mover extends it; ``insist`` is (mover, the value his capture took,
    # 0 for none, then the values of the builds his turn augmented, ascending)
    insist: tuple[int, ...] = field(default=())

    # -- derived -------------------------------------------------------------------------
    @property
    def sweeps(self) -> tuple[int, ...]:
        """Sweeps per team."""
        return tuple(self.sweep_order.count(t) for t in range(self.rules.num_teams))

    @property
    def table_mask(self) -> int:
        """All cards on the table, loose or in builds."""
        m = self.loose
        for b in self.builds:
            m |= b.cards
        return m

    @property
    def is_over(self) -> bool:
        """Whether the hand is finished (no cards in hands or stock and no pluck pending; in
        Callabra also once a capture has cleared the table, which the sweep log records)."""
        if self.rules.two_card_capture and self.sweep_order:
            return True
        return (not any(self.hands) and not self.stock
                and self.phase not in ("after", "insist", "extend"))

    def board(self) -> str:
        """A readable picture of the position, the ``str`` of a ``State``: each seat's hand
        and pile, the loose cards, the builds with their groups, values and owners, and the
        counts (stock, sweeps, scores). ``>`` marks the seat to move.

        >>> import cassino
        >>> state = cassino.new_hand(seed=7)
        >>> _ = state.push("3S"); _ = state.push("5S+5D=5")
        >>> print(state)     # State.__str__ is this board
        cassino_standard, 2 players: dealer seat 0, seat 1 to move
          seat 0  hand 5C 6D JH                  pile 0
        > seat 1  hand 2D 9D KS                  pile 0
          table   3S 4C 8D KD
          build   5: 5S | 5D, multiple, owned by seat 0
          stock 40; sweeps 0-0; scores 0-0; no capture yet
        """
        r = self.rules
        opts = " ".join(f"{k}={v}" for k, v in sorted(r.options().items()) if k != "players")
        if self.is_over:
            turn = "the hand is over"
        elif self.decision is not None:
            turn = (f"seat {self.to_move} decides whether to bank the "
                    f"{'Prial' if self.phase == 'prial' else 'released pair'} of "
                    f"{RANK_PLURALS[self.decision[0]]}")
        else:
            turn = f"seat {self.to_move} to move" + (
                f" ({self.phase} a pluck)" if self.phase != "start" else "")
        deal = ", the last deal" if not self.stock and not r.draw_refill else ""
        lines = [f"{r.system}{' ' + opts if opts else ''}, {r.players} players: "
                 f"dealer seat {self.dealer}, {turn}{deal}"]
        for seat, hand in enumerate(self.hands):
            mark = ">" if seat == self.to_move and not self.is_over else " "
            cards = " ".join(card_code(c) for c in _bits(hand)) or "-"
            lines.append(f"{mark} seat {seat}  hand {cards:<24}  pile {len(self.piles[r.team_of(seat)])}"
                         if r.num_teams == r.players else
                         f"{mark} seat {seat}  hand {cards:<24}  team {r.team_of(seat)}")
        if r.num_teams != r.players:
            lines += [f"  team {t}  pile {len(p)}" for t, p in enumerate(self.piles)]
        lines.append("  table   " + (" ".join(card_code(c) for c in _bits(self.loose)) or "-"))
        for b in self.builds:
            groups = " | ".join(
                "+".join(b.card_text(c, r) for c in _bits(g)) for g in b.groups_for(r))
            owners = ", ".join(f"seat {s}" for s in b.owner_seats()) or "nobody"
            kind = "stack" if r.build_kinds == "zwickern_stack" else "multiple" if b.multiple else "simple"
            lines.append(f"  build   {b.value}: {groups}, {kind}, owned by {owners}")
        for seat, laid in enumerate(self.laid):
            if laid:
                lines.append(f"  laid    seat {seat}: {' '.join(card_code(c) for c in _bits(laid))}")
        if r.laugh:
            lines.append(f"  chips   {'-'.join(map(str, self.scores))}; centre {self.centre}")
        last = "no capture yet" if self.last_capturer is None else (
            f"last capture by seat {self.last_capturer}")
        lines.append(
            f"  stock {len(self.stock)}; sweeps {'-'.join(map(str, self.sweeps))}; "
            f"scores {'-'.join(map(str, self.scores))}; {last}"
        )
        return "\n".join(lines)

    # -- validation ----------------------------------------------------------------------
    def validate(self) -> Position:
        """Check consistency; return self or raise :class:`PositionError`."""
        r = self.rules
        n = r.players
        if len(self.hands) != n:
            raise PositionError(f"hands must have one entry per player ({n}), not {len(self.hands)}")
        for name in ("dealer", "to_move", "last_capturer"):
            x = getattr(self, name)
            if (x is not None or name != "last_capturer") and (
                not isinstance(x, int) or isinstance(x, bool)
            ):
                raise PositionError(f"{name} must be a seat number, not {x!r}")
        if not 0 <= self.dealer < n:
            raise PositionError(f"dealer must be a seat from 0 to {n - 1}, not {self.dealer}")
        if len(self.piles) != r.num_teams:
            raise PositionError(f"piles must have one entry per team ({r.num_teams}), not {len(self.piles)}")
        if len(self.scores) != r.num_teams:
            raise PositionError(f"scores must have one entry per team ({r.num_teams}), not {len(self.scores)}")
        if self.last_capturer is not None and not 0 <= self.last_capturer < n:
            raise PositionError(f"last_capturer must be null or a seat from 0 to {n - 1}, not {self.last_capturer}")
        if any(not 0 <= t < r.num_teams for t in self.sweep_order):
            raise PositionError("sweep_order names a team that does not exist")
        if self.defaults:
            if not r.michigan:
                raise PositionError("defaults are the fines of opt_michigan: they need michigan=true")
            _check_counts("defaults", self.defaults, r.num_teams, "team")
        if self.mulles:
            if not r.mulle_points:
                raise PositionError("mulles count the Mulle captures of Mulle: they need mulle_points")
            _check_counts("mulles", self.mulles, r.num_teams, "team")
        if self.esun_owed:
            if r.esun_penalty != "unless_creator_took":
                raise PositionError(
                    "esun_owed counts the penalties of Esun piles an opponent took: it needs "
                    "esun_penalty=unless_creator_took"
                )
            _check_counts("esun_owed", self.esun_owed, n, "seat", 255)
        if self.bonuses:
            if r.fixxa_stoppa == "none":
                raise PositionError("bonuses are Bella Donna's Fixxa and Stoppa points: they need fixxa_stoppa")
            _check_counts("bonuses", self.bonuses, r.num_teams, "team", 255)
        if self.fixxa is not None:
            if r.fixxa_stoppa == "none":
                raise PositionError("fixxa is Bella Donna's card trailed last (fixxa_stoppa)")
            if not isinstance(self.fixxa, int) or isinstance(self.fixxa, bool) or not (
                    self.loose >> self.fixxa & 1):
                raise PositionError("fixxa must be a loose card: the card the previous player trailed")
        if (self.chance is not None) != (r.esun_penalty_card == "random"):
            raise PositionError(
                "chance (the RNG state that draws an Esun penalty's card) is given exactly when "
                "esun_penalty_card=random"
            )
        if self.chance is not None and (
                not isinstance(self.chance, int) or isinstance(self.chance, bool)
                or not 0 <= self.chance < 1 << 64):
            raise PositionError("chance must be an integer from 0 to 2**64 - 1")
        seen: dict[int, str] = {}

        in_play = r.deck_mask

        def claim(card: int, where: str) -> None:
            card_code(card)  # a card id: an int from 0 to 109, else CardError
            check_deck(1 << card, in_play, f" ({where})")  # AS' outside Mulle: CardError
            if not in_play >> card & 1:
                aside = CardSet(ALL_CARDS & ~in_play)
                raise PositionError(
                    f"card {card_code(card)} ({where}) is not in the deck of {r.system}: "
                    f"{aside} are removed ({r.deck_size} cards)"
                )
            if card in seen:
                raise PositionError(f"card {card_code(card)} appears twice ({seen[card]} and {where})")
            seen[card] = where

        for s, h in enumerate(self.hands):
            for c in _bits(h):
                claim(c, f"hand {s}")
            most = r.hand_size if self.stock else max(r.hand_size, r.last_size)
            if h.bit_count() > most:
                raise PositionError(f"hand {s} holds {h.bit_count()} cards; a deal gives {most}")
        for c in _bits(self.loose):
            claim(c, "table")
        values = set()
        if self.builds and r.build_kinds == "none" and not r.esun:
            raise PositionError(f"{r.system} has no building (build_kinds=none), but the table holds a build")
        for b in self.builds:
            for c in _bits(b.cards):
                claim(c, f"build of {b.value}")
            _check_build(b, n, r)
            if r.unique_build_values and not r.esun and b.value in values:
                raise PositionError(f"two builds of {b.value} on the table, but build values are unique")
            values.add(b.value)
        for t, pile in enumerate(self.piles):
            for c in pile:
                claim(c, f"pile {t}")
            if r.pile_access == "steal_pile" and tuple(pile) != bundle_order(pile):
                raise PositionError(
                    f"bundle {t} must list the cards under its top card in card order "
                    "(bundle_order): nothing reads their order"
                )
        for c in self.stock:
            claim(c, "stock")
        for c in self.discard:
            claim(c, "discard")
        if len(seen) != r.deck_size:
            missing = CardSet(in_play & ~sum(1 << c for c in seen))
            raise PositionError(
                f"the position holds {len(seen)} cards, not {r.deck_size} (missing: {missing})"
            )
        per_deal = n * r.hand_size
        played = (r.deck_size - r.table_cards - r.set_aside - len(self.stock)
                  - sum(h.bit_count() for h in self.hands))
        # (opt_initial_pairs: a sweep can be scored at the deal, before any card is played)
        if len(self.sweep_order) > max(played, 0) + (1 if r.initial_pairs else 0):
            raise PositionError(
                f"the position records {len(self.sweep_order)} sweeps, but only "
                f"{max(played, 0)} cards have been played in this hand"
            )
        if self.mulles and sum(self.mulles) * 2 > sum(len(p) for p in self.piles):
            raise PositionError(
                f"the position records {sum(self.mulles)} Mulle captures, but the piles hold "
                f"only {sum(len(p) for p in self.piles)} cards"
            )
        if sum(self.defaults) > max(played, 0):
            raise PositionError(
                f"the position records {sum(self.defaults)} defaults, but only "
                f"{max(played, 0)} cards have been played in this hand"
            )
        if r.michigan_rounds_to_5 and any(self.hands):
            against = instant_against(r, self.sweep_order, self.defaults)
            if max(against) >= 3:
                raise PositionError(
                    "michigan_rounds_to_5: a team has suffered three instant scores, so the "
                    "hand is over, but cards are still in hand"
                )
        if (
            r.last_size == r.hand_size and len(self.stock) % per_deal and not r.draw_refill
            and r.deal_rest == "exact" and "zwickern" not in r.mechanics
        ):
            raise PositionError(
                f"the stock holds {len(self.stock)} cards, not a multiple of one deal ({per_deal})"
            )
        if not r.stock_ok(len(self.stock)):
            raise PositionError(
                f"the stock holds {len(self.stock)} cards, which no point of the deals of "
                f"{r.system} ({n * r.hand_size} cards a deal, {n * r.last_size} on the last) leaves"
            )
        if r.two_card_capture and len(self.sweep_order) > 1:
            raise PositionError("callabra ends when a capture clears the table: one clear at most")
        if r.two_card_capture and self.sweep_order and self.table_mask:
            raise PositionError("the sweep log records a clear, but cards are on the table")
        self._validate_pluck()
        self._validate_laugh()
        self._validate_compound()
        if self.phase in ("after", "insist", "extend"):
            pass  # the player who has just played may pluck, even with an empty hand (and
            # an insist decision of the house variant follows the hand's last turn too)
        elif not any(self.hands):
            if self.stock and not (r.two_card_capture and self.sweep_order):
                raise PositionError("every hand is empty but the stock is not: deal the next round first")
            if self.table_mask:
                raise PositionError("the hand is over but cards are still on the table")
        elif not 0 <= self.to_move < n:
            raise PositionError(f"to_move must be a seat from 0 to {n - 1}, not {self.to_move}")
        elif not self.hands[self.to_move]:
            raise PositionError(f"to_move is seat {self.to_move}, whose hand is empty")
        return self

    def _validate_compound(self) -> None:
        """African Cassino (docs/rules.md §3.22-§3.24): a build has one owner, and claims
        (AMB-64) name a seat and a build value, in a partnership."""
        r = self.rules
        if self.claims:
            if not (r.compound and r.teams == "partnership"):
                raise PositionError("claims are Partnership African Cassino's (AMB-64)")
            if tuple(sorted(set(self.claims))) != tuple(self.claims):
                raise PositionError("claims must be sorted, each once")
            for seat, value in self.claims:
                if not 0 <= seat < r.players or not 2 <= value <= r.build_max_value:
                    raise PositionError(
                        f"claim ({seat}, {value}) must name a seat (0 to {r.players - 1}) and a "
                        f"build value (2 to {r.build_max_value})"
                    )
        self._validate_insist()
        if not r.compound:
            return
        for b in self.builds:
            if b.owners.bit_count() != 1:
                raise PositionError(f"the build of {b.value} must have exactly one owner (docs/rules.md §3.22)")

    def _validate_laugh(self) -> None:
        """The Laugh and Lie Down fields: chips, laid cards and a pending decision."""
        r = self.rules
        n = r.players
        if not r.laugh:
            if self.centre or self.laid or self.decision is not None:
                raise PositionError(
                    "centre, laid and decision are Laugh and Lie Down fields (docs/rules.md §3.35)")
            return
        if not isinstance(self.centre, int) or isinstance(self.centre, bool):
            raise PositionError(f"centre must be a number of chips, not {self.centre!r}")
        if self.laid:
            if len(self.laid) != n or any(
                    not isinstance(m, int) or isinstance(m, bool) or not 0 <= m < 1 << 52
                    for m in self.laid):
                raise PositionError(f"laid must hold one card mask per seat ({n})")
            for s, m in enumerate(self.laid):
                if m and self.hands[s]:
                    raise PositionError(f"seat {s} has laid down his hand, but holds cards")
                for t in range(s + 1, n):
                    if m & self.laid[t]:
                        raise PositionError("laid lists a card for two seats")
        for rank in range(1, 14):
            mask = rank_mask(rank)
            if (self.loose & mask) == mask:
                raise PositionError(
                    f"a Mournival of {RANK_PLURALS[rank]} lies on the table: it is claimed at once")
            for s, h in enumerate(self.hands):
                if (h & mask) == mask:
                    raise PositionError(
                        f"seat {s} holds a Mournival of {RANK_PLURALS[rank]}: it is banked at the deal")
        decision = self.phase in ("prial", "release")
        if decision != (self.decision is not None):
            raise PositionError("a decision (rank, after) is pending exactly in phase prial or release")
        if self.decision is not None:
            d = self.decision
            if (not isinstance(d, tuple) or len(d) != 2
                    or any(not isinstance(x, int) or isinstance(x, bool) for x in d)
                    or not 1 <= d[0] <= 13 or not 0 <= d[1] < n):
                raise PositionError(f"decision must be (rank 1-13, seat 0-{n - 1}), not {d!r}")
            if not 0 <= self.to_move < n:
                raise PositionError(f"to_move must be a seat from 0 to {n - 1}, not {self.to_move}")
            held = (self.hands[self.to_move] >> 4 * (d[0] - 1) & 0xF).bit_count()
            want = 3 if self.phase == "prial" else 2
            if held != want:
                raise PositionError(
                    f"seat {self.to_move} decides on a {'Prial' if want == 3 else 'pair'} of "
                    f"{RANK_PLURALS[d[0]]}, but holds {held} of them")
        elif any(self.hands) and sum(1 for h in self.hands if h) < 2:
            raise PositionError(
                "one seat alone holds cards: the hand is over (the last holder takes the rest)")

    def _validate_insist(self) -> None:
        """The house variant's insist decision (docs/rules.md §3.25, AMB-68): pending
        exactly in phase insist (the seat after the mover decides) or extend (the mover)."""
        r = self.rules
        pending = self.phase in ("insist", "extend")
        if pending != bool(self.insist):
            raise PositionError("insist (mover, capture value, augmented values) is pending "
                                "exactly in phase insist or extend")
        if not pending:
            return
        if r.capture_extent != "opponent_insist":
            raise PositionError(f"phase {self.phase} is the insist decision of "
                                "capture_extent=opponent_insist (AMB-68)")
        if len(self.insist) < 2 or not all(isinstance(x, int) for x in self.insist):
            raise PositionError("insist must be (mover, capture value, augmented values...)")
        mover, value, *augmented = self.insist
        n = r.players
        if not 0 <= mover < n:
            raise PositionError(f"insist: the mover must be a seat from 0 to {n - 1}, not {mover}")
        if not 0 <= value <= r.build_max_value:
            raise PositionError(f"insist: the capture value must be 0 (none) to {r.build_max_value}")
        values = {b.value for b in self.builds}
        if augmented != sorted(set(augmented)) or not set(augmented) <= values:
            raise PositionError("insist: the augmented values must be builds on the table, ascending")
        if not value and not augmented:
            raise PositionError("insist: nothing to insist on (no capture value, no augmented build)")
        from .reference.african import compound_rules, extensions, turn_build
        from .reference.base import bits

        builds = tuple(sorted(turn_build(b) for b in self.builds))
        if not extensions(compound_rules(r), frozenset(bits(self.loose)), builds, value,
                          tuple(augmented)):
            raise PositionError("insist: no maximal extension of that capture or augment exists "
                                "on this table: there is nothing to insist on")
        step = 1 if r.direction == "cw" else -1
        want = (mover + step) % n if self.phase == "insist" else mover
        if self.to_move != want:
            raise PositionError(f"in phase {self.phase} seat {want} is to move, not {self.to_move}")

    def _validate_pluck(self) -> None:
        r = self.rules
        n = r.players
        if self.phase not in PHASES:
            raise PositionError(f"phase must be one of {', '.join(PHASES)}, not {self.phase!r}")
        if self.phase in ("prial", "release"):
            if not r.laugh:
                raise PositionError(f"phase {self.phase} is a Laugh and Lie Down decision")
            return
        if self.phase in ("insist", "extend"):
            return   # (the house variant's decision: _validate_compound)
        if not r.pluck:
            if self.plucked or self.phase != "start" or self.trailed is not None:
                raise PositionError(f"plucked, phase and trailed need pluck=true (opt_pluck), not {r.system}")
            return
        if not isinstance(self.plucked, int) or not 0 <= self.plucked < 1 << n:
            raise PositionError(f"plucked must name seats from 0 to {n - 1}")
        if self.phase != "start" and not 0 <= self.to_move < n:
            raise PositionError(f"to_move must be a seat from 0 to {n - 1}, not {self.to_move}")
        me = 1 << self.to_move if 0 <= self.to_move < n else 0
        if self.phase == "plucked" and not self.plucked & me:
            raise PositionError(f"phase is plucked, but seat {self.to_move} has not plucked in this deal")
        if self.phase == "after" and self.plucked & me:
            raise PositionError(f"phase is after, but seat {self.to_move} has plucked in this deal already")
        if self.trailed is not None:
            if self.phase != "after":
                raise PositionError("trailed (the card just trailed) belongs to phase after")
            if not self.loose >> self.trailed & 1:
                raise PositionError(f"trailed card {card_code(self.trailed)} is not loose on the table")

    # -- JSON ----------------------------------------------------------------------------
    @classmethod
    def from_json(cls, text: str | bytes) -> Position:
        """Parse and validate position JSON (see docs/format.md)."""
        if isinstance(text, bytes | bytearray):
            if len(text) > MAX_JSON_BYTES:
                raise PositionError(f"position JSON is larger than {MAX_JSON_BYTES} bytes")
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise PositionError(f"position JSON is not UTF-8: {exc}") from None
        if not isinstance(text, str):
            raise PositionError(f"position JSON must be text, not {type(text).__name__}")
        if len(text) > MAX_JSON_BYTES:
            raise PositionError(f"position JSON is larger than {MAX_JSON_BYTES} bytes")
        depth = 0
        for ch in text:
            if ch in "[{":
                depth += 1
                if depth > MAX_JSON_DEPTH:
                    raise PositionError(f"position JSON is nested deeper than {MAX_JSON_DEPTH} levels")
            elif ch in "]}":
                depth -= 1
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            # ValueError covers json.JSONDecodeError and integers longer than Python's
            # int_max_str_digits (4300 digits), which json.loads refuses with a ValueError
            raise PositionError(f"malformed position JSON: {exc}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> Position:
        """Build and validate a position from decoded JSON."""
        if not isinstance(data, dict):
            raise PositionError("position JSON must be an object")
        for key in ("system", "hands", "table", "piles", "stock", "dealer", "to_move"):
            if key not in data:
                raise PositionError(f"position JSON is missing the field {key!r}")
        known = {
            "system", "options", "players", "dealer", "to_move", "hands", "table", "piles",
            "stock", "last_capturer", "sweeps", "sweep_order", "scores", "discard",
            "plucked", "phase", "trailed", "defaults", "mulles", "esun_owed", "chance",
            "fixxa", "bonuses", "centre", "laid", "decision", "claims", "insist",
        }
        extra = sorted(set(data) - known)
        if extra:
            raise PositionError(f"unknown field {extra[0]!r} in position JSON")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise PositionError("options must be an object of option overrides")
        hands_raw = _list(data["hands"], "hands")
        players = data.get("players", len(hands_raw))
        if isinstance(players, list):
            players = len(players)
        if not isinstance(players, int) or isinstance(players, bool):
            raise PositionError("players must be a number of players or a list of names")
        if len(hands_raw) != players:
            raise PositionError(f"hands has {len(hands_raw)} entries but there are {players} players")
        opts = dict(options)
        if "players" not in opts:
            opts["players"] = players
        system = data["system"]
        if not isinstance(system, str):
            raise PositionError("system must be a string")
        r = rules(system, **opts)
        token = _DECK_CONTEXT.set("italian40" if r.deck == "italian40" else None)
        try:
            return cls._from_dict_cards(data, r, players, hands_raw)
        finally:
            _DECK_CONTEXT.reset(token)

    @classmethod
    def _from_dict_cards(cls, data: dict[str, Any], r: Rules, players: int,
                         hands_raw: list[Any]) -> Position:
        """:meth:`from_dict` past the rules: the cards, read in the deck's context."""
        hands = tuple(_mask(_list(h, f"hands[{i}]"), f"hands[{i}]") for i, h in enumerate(hands_raw))
        loose = 0
        builds = []
        for i, item in enumerate(_list(data["table"], "table")):
            if isinstance(item, str):
                c = _card(item)
                if loose >> c & 1:
                    raise PositionError(f"card {card_code(c)} appears twice (table and table)")
                loose |= 1 << c
            elif isinstance(item, dict):
                builds.append(_build_from_dict(item, i, players, r))
            else:
                raise PositionError(f"table[{i}] must be a card code or a build object")
        piles = tuple(
            tuple(_card(c) for c in _list(p, f"piles[{i}]"))
            for i, p in enumerate(_list(data["piles"], "piles"))
        )
        if r.pile_access == "steal_pile":
            piles = tuple(bundle_order(p) for p in piles)
        stock = tuple(_card(c) for c in _list(data["stock"], "stock"))
        discard = tuple(_card(c) for c in _list(data.get("discard", []), "discard"))
        lc = data.get("last_capturer")
        if lc is not None and (not isinstance(lc, int) or isinstance(lc, bool)):
            raise PositionError("last_capturer must be a seat number or null")
        nteams = r.num_teams
        sweeps = _ints(data.get("sweeps", [0] * nteams), "sweeps")
        if len(sweeps) != nteams or any(s < 0 for s in sweeps):
            raise PositionError(f"sweeps must be {nteams} non-negative counts, one per team")
        if "sweep_order" in data:
            order = tuple(_ints(data["sweep_order"], "sweep_order"))
            if any(not 0 <= t < nteams for t in order):
                raise PositionError("sweep_order names a team that does not exist")
            if [order.count(t) for t in range(nteams)] != sweeps:
                raise PositionError("sweep_order does not agree with sweeps")
        else:
            order = tuple(t for t in range(nteams) for _ in range(sweeps[t]))
        scores = tuple(_ints(data.get("scores", [0] * nteams), "scores"))
        defaults = _counts(data, "defaults")
        mulles = _counts(data, "mulles")
        esun_owed = _counts(data, "esun_owed")
        chance = data.get("chance")
        bonuses = _counts(data, "bonuses")
        fixxa = None if data.get("fixxa") is None else _card(data["fixxa"])
        for key in ("dealer", "to_move"):
            if not isinstance(data[key], int) or isinstance(data[key], bool):
                raise PositionError(f"{key} must be a seat number")
        plucked = 0
        for s in _ints(data.get("plucked", []), "plucked"):
            if not 0 <= s < players:
                raise PositionError(f"plucked names seat {s}, but seats go from 0 to {players - 1}")
            plucked |= 1 << s
        phase = data.get("phase", "start")
        if not isinstance(phase, str):
            raise PositionError("phase must be a string")
        trailed_raw = data.get("trailed")
        trailed = None if trailed_raw is None else _card(trailed_raw)
        centre = data.get("centre", 0)
        if not isinstance(centre, int) or isinstance(centre, bool):
            raise PositionError("centre must be a number of chips")
        laid_raw = _list(data.get("laid", []), "laid")
        laid = tuple(_mask(_list(h, f"laid[{i}]"), f"laid[{i}]") for i, h in enumerate(laid_raw))
        if not any(laid):
            laid = ()
        decision = None
        if data.get("decision") is not None:
            d = data["decision"]
            if not isinstance(d, dict) or set(d) != {"rank", "after"}:
                raise PositionError('decision must be an object {"rank": 1-13, "after": seat}')
            decision = (d["rank"], d["after"])
        claims = []
        for i, item in enumerate(_list(data.get("claims", []), "claims")):
            pair = _ints(item, f"claims[{i}]")
            if len(pair) != 2:
                raise PositionError(f"claims[{i}] must be [seat, value]")
            claims.append((pair[0], pair[1]))
        pos = cls(
            rules=r,
            dealer=data["dealer"],
            to_move=data["to_move"],
            hands=hands,
            loose=loose,
            builds=tuple(sorted(builds)),
            piles=piles,
            stock=stock,
            last_capturer=lc,
            sweep_order=order,
            scores=scores,
            discard=discard,
            plucked=plucked,
            phase=phase,
            trailed=trailed,
            defaults=defaults,
            mulles=mulles,
            esun_owed=esun_owed,
            chance=chance,
            fixxa=fixxa,
            bonuses=bonuses,
            centre=centre,
            laid=laid,
            decision=decision,
            claims=tuple(sorted(claims)),
            insist=tuple(_ints(data.get("insist", []), "insist")),
        )
        return pos.validate()

    def to_dict(self) -> dict[str, Any]:
        """The position as JSON-ready data."""
        table: list[Any] = CardSet(self.loose).codes()
        for b in self.builds:
            item: dict[str, Any] = {
                "groups": [[b.card_text(c, self.rules) for c in CardSet(g)] for g in b.groups_for(self.rules)],
                "value": b.value,
                "owners": b.owner_seats(),
            }
            if b.raised:
                item["raised"] = [t for t in range(b.raised.bit_length()) if b.raised >> t & 1]
            if b.due:
                item["due"] = True
            if b.creator >= 0:
                item["creator"] = b.creator
            table.append(item)
        d: dict[str, Any] = {
            "system": self.rules.system,
            "options": self.rules.options() | {},
            "players": self.rules.players,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "hands": [CardSet(h).codes() for h in self.hands],
            "table": table,
            "piles": [[card_code(c) for c in p] for p in self.piles],
            "stock": [card_code(c) for c in self.stock],
            "last_capturer": self.last_capturer,
            "sweeps": list(self.sweeps),
            "scores": list(self.scores),
        }
        d["options"].pop("players", None)
        if len(set(self.sweep_order)) > 1:
            d["sweep_order"] = list(self.sweep_order)
        if self.discard:
            d["discard"] = [card_code(c) for c in self.discard]
        if self.plucked:
            d["plucked"] = [s for s in range(self.rules.players) if self.plucked >> s & 1]
        if self.phase != "start":
            d["phase"] = self.phase
        if self.trailed is not None:
            d["trailed"] = card_code(self.trailed)
        if self.defaults:
            d["defaults"] = list(self.defaults)
        if self.mulles:
            d["mulles"] = list(self.mulles)
        if self.esun_owed:
            d["esun_owed"] = list(self.esun_owed)
        if self.chance is not None:
            d["chance"] = self.chance
        if self.fixxa is not None:
            d["fixxa"] = card_code(self.fixxa)
        if self.bonuses:
            d["bonuses"] = list(self.bonuses)
        if self.centre:
            d["centre"] = self.centre
        if self.laid:
            d["laid"] = [CardSet(m).codes() for m in self.laid]
        if self.decision is not None:
            d["decision"] = {"rank": self.decision[0], "after": self.decision[1]}
        if self.claims:
            d["claims"] = [list(c) for c in self.claims]
        if self.insist:
            d["insist"] = list(self.insist)
        return d

    def to_json(self, indent: int | None = None) -> str:
        """Position JSON text."""
        return json.dumps(self.to_dict(), indent=indent)

    # -- text notation -------------------------------------------------------------------
    def to_text(self) -> str:
        """One-line text notation (docs/format.md), e.g.

        ``cassino_standard{sweeps=true} 0 1 AS,2H/3D,4C 5S,(AC+3C|4H=4@1) -/6C,7C 8S,... 1 1 0,0``
        """
        opts = self.rules.options()
        opts.pop("players", None)
        head = self.rules.system
        items = [f"players={self.rules.players}"] if self.rules.players != 2 else []
        items += [f"{k}={_opt_text(v)}" for k, v in sorted(opts.items())]
        if items:
            head += "{" + ",".join(items) + "}"
        table = CardSet(self.loose).codes()
        for b in self.builds:
            groups = "|".join(
                "+".join(b.card_text(c, self.rules) for c in CardSet(g)) for g in b.groups_for(self.rules)
            )
            owners = ".".join(str(s) for s in b.owner_seats())
            if b.raised:
                owners += "!" + ".".join(str(t) for t in range(b.raised.bit_length()) if b.raised >> t & 1)
            if b.due:
                owners += "*"
            if b.creator >= 0:
                owners += f"^{b.creator}"
            table.append(f"({groups}={b.value}@{owners})")
        fields = [
            head,
            str(self.dealer),
            str(self.to_move),
            "/".join(_codes_text(CardSet(h).codes()) for h in self.hands),
            _codes_text(table),
            "/".join(_codes_text([card_code(c) for c in p]) for p in self.piles),
            _codes_text([card_code(c) for c in self.stock]),
            "-" if self.last_capturer is None else str(self.last_capturer),
            "".join(str(t) for t in self.sweep_order) or "-",
            ",".join(str(s) for s in self.scores),
        ]
        if self.discard or self.defaults:
            fields.append(_codes_text([card_code(c) for c in self.discard]))
        if self.defaults:
            fields.append(",".join(str(d) for d in self.defaults))
        if self.plucked or self.phase in ("plucked", "after"):
            seats = "".join(str(s) for s in range(self.rules.players) if self.plucked >> s & 1)
            extra = f"pluck:{seats or '-'}:{self.phase}"
            if self.trailed is not None:
                extra += ":" + card_code(self.trailed)
            fields.append(extra)
        if self.mulles:
            fields.append("mulle:" + ",".join(str(m) for m in self.mulles))
        if self.esun_owed or self.chance is not None:
            # opt_esun's penalty options: esun:<owed per seat, or ->[:<chance>]
            owed = ",".join(str(m) for m in self.esun_owed) or "-"
            fields.append("esun:" + owed + ("" if self.chance is None else f":{self.chance}"))
        if self.bonuses or self.fixxa is not None:
            # Bella Donna: bella:<bonuses per team, or ->[:<the card trailed last>]
            bonuses = ",".join(str(m) for m in self.bonuses) or "-"
            fields.append("bella:" + bonuses + ("" if self.fixxa is None else ":" + card_code(self.fixxa)))
        if self.rules.laugh:
            # Laugh and Lie Down: lld:<centre>:<laid per seat>[:<phase>:<rank>:<after>]
            laid = "/".join(_codes_text(CardSet(m).codes()) for m in self.laid) or "-"
            extra = f"lld:{self.centre}:{laid}"
            if self.decision is not None:
                extra += f":{self.phase}:{self.decision[0]}:{self.decision[1]}"
            fields.append(extra)
        if self.claims:
            # Partnership African Cassino (AMB-64): claims:<seat>=<value>,...
            fields.append("claims:" + ",".join(f"{s}={v}" for s, v in self.claims))
        if self.insist:
            # the house variant's insist decision (AMB-68), its phase then
            # <mover>,<value>,<augmented>: insist:0,7 or extend:0,7,9
            fields.append(f"{self.phase}:" + ",".join(str(x) for x in self.insist))
        return " ".join(fields)

    @classmethod
    def from_text(cls, text: str) -> Position:
        """Parse the one-line text notation written by :meth:`to_text`."""
        if not isinstance(text, str):
            raise NotationError("position text must be a string")
        if len(text) > MAX_JSON_BYTES:
            raise NotationError(f"position text is longer than {MAX_JSON_BYTES} characters")
        parts = text.split()
        pluck: dict[str, Any] = {}
        if len(parts) >= 11 and parts[-1].startswith(("insist:", "extend:")):
            phase, _, rest = parts.pop().partition(":")
            try:
                pluck["insist"] = [int(x) for x in rest.split(",")]
            except ValueError:
                raise NotationError(f"bad {phase} field ({phase}:<mover>,<value>,...)") from None
            pluck["phase"] = phase
        if len(parts) >= 11 and parts[-1].startswith("claims:"):
            try:
                pluck["claims"] = [
                    [int(x) for x in item.split("=")] for item in parts.pop()[7:].split(",")
                ]
            except ValueError:
                raise NotationError("bad claims field (claims:<seat>=<value>,...)") from None
        if len(parts) >= 11 and parts[-1].startswith("lld:"):
            pluck |= _lld_field(parts.pop())
        if len(parts) in (11, 12, 13, 14, 15, 16) and parts[-1].startswith("bella:"):
            bonuses, _, card = parts.pop()[6:].partition(":")
            try:
                if bonuses != "-":
                    pluck["bonuses"] = [int(m) for m in bonuses.split(",")]
            except ValueError:
                raise NotationError("bad bella field (bella:<points>,<points>[:<card>])") from None
            if card:
                pluck["fixxa"] = card
        if len(parts) in (11, 12, 13, 14, 15) and parts[-1].startswith("esun:"):
            owed, _, chance = parts.pop()[5:].partition(":")
            try:
                if owed != "-":
                    pluck["esun_owed"] = [int(m) for m in owed.split(",")]
                if chance:
                    pluck["chance"] = int(chance)
            except ValueError:
                raise NotationError("bad esun field (esun:<owed>,<owed>,...[:<chance>])") from None
        if len(parts) in (11, 12, 13, 14) and parts[-1].startswith("mulle:"):
            try:
                pluck["mulles"] = [int(m) for m in parts.pop()[6:].split(",")]
            except ValueError:
                raise NotationError("bad mulle field (mulle:<count>,<count>,...)") from None
        if len(parts) in (11, 12, 13) and parts[-1].startswith("pluck:"):
            pluck |= _pluck_field(parts.pop())
        if len(parts) not in (10, 11, 12):
            raise NotationError(f"position text needs 10 to 12 fields, not {len(parts)}")
        head = parts[0]
        options: dict[str, Any] = {}
        if "{" in head:
            if not head.endswith("}"):
                raise NotationError(f"bad system field {head!r}")
            head, _, body = head[:-1].partition("{")
            for item in filter(None, body.split(",")):
                k, v = parse_option(item)
                options[k] = v
        players = options.pop("players", 2)
        try:
            hands = [_text_codes(h) for h in parts[3].split("/")]
            table: list[Any] = []
            for item in _split_items(parts[4]):
                if item.startswith("("):
                    if not item.endswith(")") or "=" not in item or "@" not in item:
                        raise NotationError(f"bad build {item!r}")
                    body, _, rest = item[1:-1].rpartition("=")
                    val, _, owners = rest.partition("@")
                    owners, hat, creator = owners.partition("^")
                    due = owners.endswith("*")
                    owners, bang, raised = owners.removesuffix("*").partition("!")
                    build: dict[str, Any] = {
                        "groups": [g.split("+") for g in body.split("|")],
                        "value": int(val),
                        "owners": [int(o) for o in owners.split(".") if o],
                    }
                    if bang:
                        build["raised"] = [int(t) for t in raised.split(".")]
                    if due:
                        build["due"] = True
                    if hat:
                        build["creator"] = int(creator)
                    table.append(build)
                else:
                    table.append(item)
            data = {
                "system": head,
                "options": options,
                "players": players,
                "dealer": int(parts[1]),
                "to_move": int(parts[2]),
                "hands": hands,
                "table": table,
                "piles": [_text_codes(p) for p in parts[5].split("/")],
                "stock": _text_codes(parts[6]),
                "last_capturer": None if parts[7] == "-" else int(parts[7]),
                "scores": [int(s) for s in parts[9].split(",")],
                "discard": _text_codes(parts[10]) if len(parts) >= 11 else [],
                "defaults": [int(d) for d in parts[11].split(",")] if len(parts) == 12 else [],
                **pluck,
            }
            order = [] if parts[8] == "-" else [int(ch) for ch in parts[8]]
            nteams = len(data["scores"])
            data["sweep_order"] = order
            data["sweeps"] = [order.count(t) for t in range(nteams)]
        except ValueError as exc:
            raise NotationError(f"bad position text: {exc}") from None
        try:
            return cls.from_dict(data)
        except CassinoError as exc:
            raise NotationError(f"bad position text: {exc}") from None


PHASES = ("start", "plucked", "after", "prial", "release", "insist", "extend")


def _lld_field(text: str) -> dict[str, Any]:
    """The optional last field ``lld:<centre>:<laid>[:<phase>:<rank>:<after>]`` of position
    text (Laugh and Lie Down)."""
    parts = text.split(":")
    bad = f"bad lld field {text!r} (lld:<centre>:<laid>[:<phase>:<rank>:<after>])"
    if len(parts) not in (3, 6):
        raise NotationError(bad)
    try:
        out: dict[str, Any] = {"centre": int(parts[1])}
        if parts[2] != "-":
            out["laid"] = [_text_codes(h) for h in parts[2].split("/")]
        if len(parts) == 6:
            out["phase"] = parts[3]
            out["decision"] = {"rank": int(parts[4]), "after": int(parts[5])}
    except ValueError:
        raise NotationError(bad) from None
    return out


def _pluck_field(text: str) -> dict[str, Any]:
    """The optional last field ``pluck:<seats>:<phase>[:<trailed>]`` of position text."""
    parts = text.split(":")
    if len(parts) not in (3, 4) or parts[2] not in PHASES[:3]:
        raise NotationError(f"bad pluck field {text!r} (pluck:<seats>:<phase>[:<card>])")
    seats = parts[1]
    if seats != "-" and not (seats.isascii() and seats.isdigit()):
        raise NotationError(f"bad seats {seats!r} in the pluck field {text!r}")
    out: dict[str, Any] = {
        "plucked": [] if seats == "-" else [int(ch) for ch in seats],
        "phase": parts[2],
    }
    if len(parts) == 4:
        out["trailed"] = parts[3]
    return out


def _opt_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _codes_text(codes: list[str]) -> str:
    return ",".join(codes) if codes else "-"


def _text_codes(field_: str) -> list[str]:
    return [] if field_ == "-" else field_.split(",")


def _split_items(field_: str) -> list[str]:
    if field_ == "-":
        return []
    items, depth, cur = [], 0, ""
    for ch in field_:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += ch
    items.append(cur)
    return items


def _list(x: Any, name: str) -> list[Any]:
    if not isinstance(x, list):
        raise PositionError(f"{name} must be a list")
    return x


def _ints(x: Any, name: str) -> list[int]:
    xs = _list(x, name)
    if any(not isinstance(v, int) or isinstance(v, bool) for v in xs):
        raise PositionError(f"{name} must be a list of integers")
    return xs


# the deck whose codes a position's cards are read in: "italian40" while the position of
# a system with Italian cards is read (Position.from_dict), else None (the standard codes)
_DECK_CONTEXT: ContextVar[str | None] = ContextVar("cassino_position_deck", default=None)


def _card(code: Any) -> int:
    """The card id of a code of the position being read, in its deck's context."""
    return parse_card(code, _DECK_CONTEXT.get())


def _mask(codes: list[Any], name: str) -> int:
    m = 0
    for code in codes:
        c = _card(code)
        if m >> c & 1:
            raise PositionError(f"card {card_code(c)} appears twice ({name} and {name})")
        m |= 1 << c
    return m


def _counts(data: dict[str, Any], key: str) -> tuple[int, ...]:
    """An optional count field of position JSON (defaults, mulles, esun_owed, bonuses): all
    zeros and an absent field are the same, the empty tuple."""
    counts = tuple(_ints(data.get(key, []), key))
    return counts if any(counts) else ()


def _check_counts(name: str, values: tuple[int, ...], size: int, per: str, most: int | None = None) -> None:
    """A count field of a position: ``size`` integers (one per ``per``) from 0 (to ``most``),
    not all zeros (written as an absent field)."""
    if len(values) != size or any(
        not isinstance(d, int) or isinstance(d, bool) or d < 0 or (most is not None and d > most)
        for d in values
    ):
        bound = "non-negative counts" if most is None else f"counts from 0 to {most}"
        raise PositionError(f"{name} must be {size} {bound}, one per {per}")
    if not any(values):
        raise PositionError(f"{name} of all zeros must be left out")


def _stack_from_dict(item: dict[str, Any], i: int, r: Rules) -> Build:
    """A Zwickern stack (docs/rules.md §3.32, AMB-88): one group, no owner; _check_stack
    checks its value."""
    extra = sorted(set(item) - {"groups", "value", "owners"})
    if extra:
        raise PositionError(f"unknown field {extra[0]!r} in stack table[{i}] (Zwickern stacks "
                            "have groups, value and owners [])")
    value = item.get("value")
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError(f"stack table[{i}] value must be an integer")
    groups = _list(item.get("groups"), f"table[{i}].groups")
    if len(groups) != 1:
        raise PositionError(f"stack table[{i}] is one pile: one group of its cards, not {len(groups)}")
    cards = _mask(_list(groups[0], f"table[{i}].groups"), f"table[{i}]")
    if _ints(item.get("owners", []), f"table[{i}].owners"):
        raise PositionError(f"stack table[{i}] has owners, but Zwickern stacks belong to nobody (AMB-88)")
    return Build(value=value, cards=cards, owners=0, multiple=False)


def _check_stack(b: Build, r: Rules) -> None:
    """A Zwickern stack: two or more cards, no owner, a value of at most 14 that is the total
    of its cards with each joker worth 2 to 14 (docs/rules.md §3.32, AMB-87, AMB-88)."""
    ids = _bits(b.cards) if isinstance(b.cards, int) and b.cards > 0 else []
    if len(ids) < 2:
        raise PositionError(f"a stack of {b.value} holds two or more cards")
    if b.owners or b.multiple or b.fixed or b.raised:
        raise PositionError(f"the stack of {b.value} belongs to nobody: no owners, multiple, fixed or raised")
    jokers = sum(1 for c in ids if c >= 104)
    total = sum(r.card_value(c) for c in ids if c < 104)
    low, high = total + 2 * jokers, total + 14 * jokers
    if not isinstance(b.value, int) or not low <= b.value <= min(high, r.build_max_value):
        shown = str(total) if not jokers else f"{low} to {min(high, r.build_max_value)}"
        raise PositionError(f"a stack of these cards is worth {shown}, not {b.value} "
                            f"(a stack totals at most {r.build_max_value})")


def _build_from_dict(item: dict[str, Any], i: int, players: int, r: Rules) -> Build:
    if r.build_kinds == "zwickern_stack":
        return _stack_from_dict(item, i, r)
    for key in ("groups", "value", "owners"):
        if key not in item:
            raise PositionError(f"build table[{i}] is missing the field {key!r}")
    extra = sorted(set(item) - {"groups", "value", "owners", "raised", "due", "creator"})
    if extra:
        raise PositionError(f"unknown field {extra[0]!r} in build table[{i}]")
    value = item["value"]
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError(f"build table[{i}] value must be an integer")
    groups = _list(item["groups"], f"table[{i}].groups")
    if not groups:
        raise PositionError(f"build table[{i}] has no groups")
    cards = 0
    fixed: dict[int, int] = {}
    for g in groups:
        gm = _mask(
            [_valued_code(x, r, fixed, f"table[{i}]") for x in _list(g, f"table[{i}].groups")],
            f"table[{i}]",
        )
        if cards & gm:
            raise PositionError(f"build table[{i}] uses a card twice")
        cards |= gm
        if not gm:
            raise PositionError(f"build table[{i}] has an empty group")
        faces = [card_code(c) for c in _bits(gm) if r.card_value(c) == 0]
        if faces and r.face_cards_all_four and gm.bit_count() == 1 and card_rank(gm.bit_length() - 1) == value:
            continue  # a natural face build (opt_face_cards_all_four): one card a group
        if faces:
            raise PositionError(
                f"build table[{i}] contains {faces[0]}, and face cards cannot be built"
                + (" except alone in a build of their rank" if r.face_cards_all_four else "")
            )
        total = sum(card_values(gm, r, fixed.items()).values())
        if total != value:
            codes = "+".join(CardSet(gm).codes())
            raise PositionError(f"build table[{i}]: group {codes} totals {total}, not the build value {value}")
    if len(groups) == 1 and cards.bit_count() < 2:
        raise PositionError(f"build table[{i}] is a single card, which is a loose card, not a build")
    owners = _ints(item["owners"], f"table[{i}].owners")
    if not owners:
        raise PositionError(f"build table[{i}] has no owner")
    omask = 0
    for o in owners:
        if not 0 <= o < players:
            raise PositionError(f"build table[{i}] owner {o} is not a seat (0 to {players - 1})")
        omask |= 1 << o
    multiple = len(groups) >= 2
    if not multiple and omask.bit_count() > 1:
        raise PositionError(f"build table[{i}] is a simple build, so it must have exactly one owner")
    raised = 0
    if "raised" in item:
        for t in _ints(item["raised"], f"table[{i}].raised"):
            if not 0 <= t < r.num_teams:
                raise PositionError(f"build table[{i}] raised by {t}, which is not a team (0 to {r.num_teams - 1})")
            raised |= 1 << t
    due = item.get("due", False)
    if not isinstance(due, bool):
        raise PositionError(f"build table[{i}] due must be true or false")
    creator = item.get("creator", -1)
    if not isinstance(creator, int) or isinstance(creator, bool):
        raise PositionError(f"build table[{i}] creator must be a seat number")
    return Build(
        value=value, cards=cards, owners=omask, multiple=multiple, fixed=tuple(sorted(fixed.items())),
        raised=raised, due=due, creator=creator,
    )


def _check_esun(b: Build, players: int, r: Rules) -> None:
    """An Esun (opt_esun, docs/rules.md §3.37): two or more numeric cards (no joker) in one
    group of their total, one owner (its creator); with mod_yoruba no denomination twice."""
    ids = _bits(b.cards) if isinstance(b.cards, int) and b.cards > 0 else []
    if len(ids) < 2 or any(card_value(c) == 0 for c in ids):
        raise PositionError(f"an Esun of {b.value} holds two or more numeric cards (no face card, no joker)")
    total = sum(card_value(c) for c in ids)
    if b.value != total:
        raise PositionError(f"an Esun's value is the total of its cards, {total}, not {b.value}")
    if b.multiple or b.fixed or b.raised:
        raise PositionError(f"the Esun of {b.value} is one pile of one group: no multiple, fixed or raised")
    if not isinstance(b.owners, int) or not 0 < b.owners < 1 << players or b.owners.bit_count() != 1:
        raise PositionError(f"the Esun of {b.value} has one owner, its creator (a seat from 0 to {players - 1})")
    if r.yoruba and len({card_value(c) for c in ids}) < len(ids):
        raise PositionError(f"mod_yoruba: the Esun of {b.value} holds two cards of one denomination (AMB-78)")


def _valued_code(x: Any, r: Rules, fixed: dict[int, int], where: str) -> Any:
    """A card code of a build group; ``AS:14`` gives a multi-valued card its value there
    (recorded in ``fixed`` when it is not the card's first value)."""
    if not isinstance(x, str) or ":" not in x:
        return x
    code, _, raw = x.partition(":")
    c = _card(code)
    allowed = {r.card_value(c), r.second_value(c)} - {0}
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 3) or int(raw) not in allowed:
        shown = " or ".join(str(v) for v in sorted(allowed))
        raise PositionError(f"build {where}: {code} is worth {shown} in {r.system}, not {raw!r}")
    if int(raw) != r.card_value(c):
        fixed[c] = int(raw)
    return code


def _check_build(b: Build, players: int, r: Rules) -> None:
    if b.due and not r.esun:
        raise PositionError(f"only an Esun (opt_esun) is due a penalty, not the build of {b.value}")
    if r.esun:
        _check_esun(b, players, r)
        return
    if r.build_kinds == "zwickern_stack":
        _check_stack(b, r)
        return
    if r.face_cards_all_four and isinstance(b.value, int) and b.is_face_build:
        # a natural face build (opt_face_cards_all_four): two or more cards of its rank
        if b.cards.bit_count() < 2 or not b.multiple or b.fixed:
            raise PositionError(
                f"a build of face cards (value {b.value}) holds two or more cards of its rank "
                "and is a multiple build"
            )
        if not isinstance(b.owners, int) or not 0 < b.owners < 1 << players:
            raise PositionError(f"the owners of the build of {b.value} must be a mask of seats 0 to {players - 1}")
        return
    if not isinstance(b.value, int) or not 1 <= b.value <= r.build_max_value:
        raise PositionError(f"a build of {b.value} is impossible: build values run from 1 to {r.build_max_value}")
    # the rest holds for every build read from JSON or text; it guards positions made in code
    ids = _bits(b.cards)
    if r.multi_valued:
        vals = card_values(b.cards, r, b.fixed)
        for c, v in b.fixed:
            if not b.cards >> c & 1 or v != r.second_value(c) or v == r.card_value(c):
                raise PositionError(f"the build of {b.value} fixes {card_code(c)} at {v}, which is not its other value")
        total = sum(vals.values())
        if len(ids) < 2 or (total % b.value or value_partition(b.cards, b.value, vals) is None):
            raise PositionError(f"the cards of the build of {b.value} do not form groups totalling {b.value}")
    else:
        total = sum(card_value(c) for c in ids)
        if b.fixed:
            raise PositionError(f"{r.system} has no multi-valued cards to fix in a build")
        if len(ids) < 2 or any(card_value(c) == 0 for c in ids):
            raise PositionError(f"a build of {b.value} needs two or more cards and no face card")
        if total % b.value or not _can_partition(_value_counts(b.cards), b.value, {}):
            raise PositionError(f"the cards of the build of {b.value} do not form groups totalling {b.value}")
    if b.multiple != (total >= 2 * b.value):
        kind = "multiple" if total >= 2 * b.value else "simple"
        raise PositionError(f"the build of {b.value} is a {kind} build, but its multiple flag is {b.multiple}")
    if not isinstance(b.owners, int) or not 0 < b.owners < 1 << players:
        raise PositionError(f"the owners of the build of {b.value} must be a mask of seats 0 to {players - 1}")
    if not b.multiple and b.owners.bit_count() != 1:
        raise PositionError(f"the build of {b.value} is a simple build, so it must have exactly one owner")
    if r.declarations and b.owners.bit_count() != 1:
        raise PositionError(f"the declaration of {b.value} must have exactly one owner (docs/rules.md §3.17)")
    recorded = r.increase_who == "opponent_created"
    if not isinstance(b.creator, int) or isinstance(b.creator, bool):
        raise PositionError(f"the creator of the build of {b.value} must be a seat number")
    if recorded and not 0 <= b.creator < players:
        raise PositionError(
            f"the build of {b.value} must record its creator, a seat 0 to {players - 1} "
            "(increase_who=opponent_created, AMB-60's option)"
        )
    if not recorded and b.creator != -1:
        raise PositionError(
            "only African Cassino with increase_who=opponent_created records a build's "
            f"creator (the build of {b.value})"
        )
    if b.raised:
        if not isinstance(b.raised, int) or not 0 < b.raised < 1 << r.num_teams:
            raise PositionError(f"the raised teams of the build of {b.value} must be a mask of teams")
        if not (r.declarations and r.teams == "partnership"):
            raise PositionError(
                "only a Four Player Diloti declaration records the teams that raised it (raised)"
            )
        if b.multiple:
            raise PositionError(
                f"the declaration of {b.value} is a family declaration, which is never raised"
            )
