"""Compound turns (African and Italian Cassino, docs/rules.md §3.22-§3.25, AMB-59 to AMB-70):
the reference's turn generator, written for clarity. Not wired into :class:`State` yet: this
is the oracle the core's plan generator (docs/architecture.md §9.4) will be checked against.

A turn is any number of free steps around exactly one hand-card step:

* F1 ``create``: a build from loose cards only, owned by the mover;
* F2 ``augment``: a group of the build's value added to a build of the mover's team, from
  loose cards and the top cards of opponents' face-up piles (each pile consumed from the top,
  so a newly exposed card is usable in turn, AMB-61);
* F3 ``augment`` of an opponent's build, which the turn's hand-card capture must then take;

and the hand-card steps ``capture``, ``build`` (create with the hand card), ``increase`` (one
hand card on an opponent's simple build, AMB-60; the Italian steal), ``augment`` with the hand
card (own team's builds only) and ``trail``. At the end of the turn: the holding invariant
(each build the mover owns, and each he made, increased or augmented this turn, has a card of
its value in his hand), unique build values, no F3 build left, and with ``two_player`` no
trail while owning a build and at most one build owned.

Partnerships (``teams``): one pile a team, builds owned by a seat, a partner's builds augmented
as one's own; after an opponent increased a seat's build, his partner may make or increase a
build to the old value for him (``Table.claims``, AMB-64). The Italian house variant
(:data:`ITALIAN`): Aces 1 or 11, a card that captures is never trailed (AMB-65), a single loose
card augmented into a build (AMB-70), a partner's simple build increased (AMB-69).

Two step sequences that reach the same :class:`Table` are one turn (:func:`turns` keys them
by the resulting table); each is listed with its least step sequence (:func:`step_key`).
The capturing card goes on top of the mover's pile; the order of the cards under it is part
of the turn (``pile_order="full"``, AMB-62's default: every order is a turn) or only which card
is second (``pile_order="second"``, the rest in ascending id order). :class:`TurnBuilder` is
the step interface: it lists only steps that some legal turn continues.

>>> from cassino.cards import parse_card as c
>>> r = CompoundRules(players=3)
>>> t = Table(hands=(frozenset({c("9H"), c("2C")}), frozenset(), frozenset()),
...           loose=frozenset(), builds=(Build(frozenset({c("4S"), c("5S")}), 9, 0, False),),
...           piles=((), (c("3D"), c("7D")), ()))
>>> sorted(str(turn) for turn in turns(r, t, 0))[:3]
['augment 9 with 2C + pile 7D', 'capture 9H takes (4S 5S), pile 4S 5S 9H', 'capture 9H takes (4S 5S), pile 5S 4S 9H']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import combinations, permutations
from math import factorial

from ..cards import card_code, card_rank, parse_card
from ..errors import CardError, IllegalMoveError, NotationError
from ..scoring import tally_to_target
from .multi import _matching

__all__ = [
    "ITALIAN",
    "Build",
    "CompoundRules",
    "Step",
    "Table",
    "Turn",
    "TurnBuilder",
    "african_values",
    "count_turns",
    "hand_tally",
    "italian_values",
    "parse_turn",
    "tally_to_target",
    "turns",
]


def african_values(card: int) -> tuple[int, ...]:
    """The values of a card in African Cassino: 2-10 pip, J 11, Q 12, K 13, A 1 or 14."""
    r = card_rank(card)
    return (1, 14) if r == 1 else (r,)


def italian_values(card: int) -> tuple[int, ...]:
    """The values of an Italian card (ids 150-189): 2-7 pip, Knave 8, Knight 9, King 10 (a
    rank is its value), A 1 or 11 (AMB-72)."""
    r = card_rank(card)
    return (1, 11) if r == 1 else (r,)


@dataclass(frozen=True)
class CompoundRules:
    """What the generator needs of a system's rules (the defaults: African for three)."""

    players: int = 3
    teams: tuple[int, ...] = ()                # a team a seat (default: each seat its own)
    two_player: bool = False                   # African for two: no trail owning a build, one build
    pile_order: str = "full"                   # AMB-62: "full" (default) or "second"
    max_value: int = 14
    values: Callable[[int], tuple[int, ...]] = field(default=african_values)
    trail: str = "any"                         # AMB-65: "any" or "no_capture" (Italian)
    single_card_augment: bool = False          # AMB-70 (Italian): a loose card made a build
    increase_partner: bool = False             # AMB-69 (Italian): a partner's build increased
    partner_claims: str = "partner_owns"       # AMB-64: the rebuilt value's owner (maker_owns)
    table_create_replaces_card: bool = False   # AMB-59's option: a turn of table-only creates
    increase_creator: bool = False             # AMB-60's option: the creator must be an opponent
    pile_cards_per_turn: int = 0               # AMB-61's option: 1 (0: no limit)
    free_steps_per_turn: int = 0               # AMB-66's option: 1 (0: no limit)

    def vals(self, card: int) -> tuple[int, ...]:
        return self.values(card)

    def team(self, seat: int) -> int:
        return self.teams[seat] if self.teams else seat


ITALIAN = CompoundRules(
    players=2, max_value=11, values=italian_values, trail="no_capture",
    single_card_augment=True, increase_partner=True,
)
"""The Italian house variant for two (§3.25); ``replace(ITALIAN, players=4, teams=(0, 1, 0, 1))``
for four."""


@dataclass(frozen=True, order=True)
class Build:
    """A build: its cards, value, owner (a seat) and whether it is frozen (of several groups
    or augmented: its value never changes, AMB-60); with ``increase_creator`` (AMB-60's
    option) the seat that first created it, else -1."""

    cards: frozenset[int]
    value: int
    owner: int
    frozen: bool
    creator: int = -1

    def __str__(self) -> str:
        return f"({' '.join(card_code(x) for x in sorted(self.cards))}={self.value}@{self.owner})"


@dataclass(frozen=True)
class Table:
    """What a turn changes: every hand, the loose cards, the builds, the face-up piles (a
    tuple a team, bottom first) and the claims of AMB-64 (seat, value: an opponent increased
    that seat's build of that value; his partner may rebuild it for him)."""

    hands: tuple[frozenset[int], ...]
    loose: frozenset[int]
    builds: tuple[Build, ...]
    piles: tuple[tuple[int, ...], ...]
    claims: frozenset[tuple[int, int]] = frozenset()

    def key(self) -> tuple[object, ...]:
        """Two tables with the same key are the same state (the builds as a set)."""
        return (self.hands, self.loose, frozenset(self.builds), self.piles, self.claims)


@dataclass(frozen=True)
class Step:
    """One step of a turn. ``card`` is the hand card (None for a free step); ``loose`` the
    loose cards used, ``pile`` the pile cards used in the order taken (team, card),
    ``builds`` the build the step adds to or increases, or the builds a capture takes;
    ``order`` the captured cards under the capturing card, bottom first; ``owner`` the seat
    that owns the build made or increased (AMB-64: the partner)."""

    kind: str                                # create, augment, capture, build, increase, trail
    card: int | None = None
    value: int = 0
    loose: tuple[int, ...] = ()
    pile: tuple[tuple[int, int], ...] = ()
    builds: tuple[Build, ...] = ()
    order: tuple[int, ...] = ()
    owner: int | None = None

    def notation(self) -> str:
        """The step in move notation (docs/architecture.md §9.4): a hand-card step as a move
        of that kind (``9Cx3S,6S``, ``3H+AC,5S=9``, ``7H``), a free step without the card
        (``+3S,4S=7``); the cards listed are every table card the step takes or gathers, the
        target build's and the opponents' pile cards included; a capture's pile order follows
        ``|`` (the cards under the capturing card, bottom first; none for a single card), a
        build made for a partner its seat after ``@``."""
        hand = card_code(self.card) if self.card is not None else ""
        if self.kind == "trail":
            return hand
        taken = set(self.loose).union(*(b.cards for b in self.builds))
        taken |= {x for _, x in self.pile}
        cards = ",".join(card_code(x) for x in sorted(taken))
        if self.kind == "capture":
            order = "|" + ",".join(card_code(x) for x in self.order) if len(self.order) > 1 else ""
            return f"{hand}x{cards}{order}"
        owner = f"@{self.owner}" if self.owner is not None else ""
        return f"{hand}+{cards}={self.value}{owner}"

    def __str__(self) -> str:
        cards = " ".join(card_code(x) for x in self.loose)
        pile = " ".join(card_code(x) for _, x in self.pile)
        taken = " ".join(
            "(" + " ".join(card_code(x) for x in sorted(b.cards)) + ")" for b in self.builds
        )
        hand = card_code(self.card) if self.card is not None else ""
        mark = f" for seat {self.owner}" if self.owner is not None else ""
        if self.kind == "trail":
            return f"trail {hand}"
        if self.kind == "capture":
            under = (", pile " + " ".join(card_code(x) for x in self.order) + f" {hand}"
                     if len(self.order) > 1 else "")
            return f"capture {hand} takes " + " ".join(x for x in (cards, taken) if x) + under
        if self.kind in ("create", "build"):
            return f"build {self.value} of " + " ".join(x for x in (hand, cards) if x) + mark
        if self.kind == "increase":
            return f"increase {taken} with {hand} to {self.value}{mark}"
        parts = " ".join(x for x in (hand, cards) if x)
        return f"augment {self.value} with " + " + ".join(
            x for x in (parts, f"pile {pile}" if pile else "") if x
        )


_KIND_ORDER = {"create": 0, "augment": 1, "capture": 2, "build": 3, "increase": 4, "trail": 5}


def _step_key(s: Step) -> tuple[object, ...]:
    return (_KIND_ORDER[s.kind], -1 if s.card is None else s.card, s.value, s.loose, s.pile,
            tuple(sorted(tuple(sorted(b.cards)) for b in s.builds)), s.order,
            -1 if s.owner is None else s.owner)


def step_key(steps: tuple[Step, ...]) -> tuple[object, ...]:
    """The order of step sequences: fewer steps first, then step by step (kind, hand card,
    value, cards). A turn is listed with its least sequence."""
    return (len(steps), tuple(_step_key(s) for s in steps))


@dataclass(frozen=True)
class Turn:
    """A whole turn: its steps and the table it leaves."""

    steps: tuple[Step, ...]
    table: Table
    captured: bool

    def __str__(self) -> str:
        return "; ".join(str(s) for s in self.steps)

    def notation(self) -> str:
        """The turn's steps in move notation, joined by ``"; "``:
        ``+3S,4S=7; 10Cx4H,6H|6H,4H``."""
        return "; ".join(s.notation() for s in self.steps)


# -- groups -------------------------------------------------------------------------------

@lru_cache(maxsize=1 << 16)
def _sums_of(values: Callable[[int], tuple[int, ...]], cards: tuple[int, ...]) -> frozenset[int]:
    totals = {0}
    for x in cards:
        totals = {t + v for t in totals for v in values(x)}
    return frozenset(totals)


def _sums(r: CompoundRules, cards: tuple[int, ...]) -> frozenset[int]:
    """Every total of ``cards`` (an Ace at either value each)."""
    return _sums_of(r.values, tuple(sorted(cards)))


@lru_cache(maxsize=1 << 16)
def _splits(values: Callable[[int], tuple[int, ...]], cards: tuple[int, ...], v: int) -> frozenset[int]:
    """The numbers of groups into which ``cards`` (sorted) split, each group totalling ``v``
    (a group may be one card of value v)."""
    if not cards:
        return frozenset({0})
    if not any(t % v == 0 for t in _sums_of(values, cards)):
        return frozenset()                   # (no total is a multiple of v)
    first, rest = cards[0], cards[1:]
    out: set[int] = set()
    for k in range(len(rest) + 1):
        for others in combinations(rest, k):
            if v in _sums_of(values, (first, *others)):
                left = tuple(x for x in rest if x not in others)
                out |= {n + 1 for n in _splits(values, left, v)}
    return frozenset(out)


def _partitions(r: CompoundRules, cards: tuple[int, ...], v: int) -> frozenset[int]:
    """The numbers of groups into which ``cards`` split, each group totalling ``v``."""
    return _splits(r.values, tuple(sorted(cards)), v)


def _subsets(cards: frozenset[int], least: int = 0) -> Iterator[tuple[int, ...]]:
    items = sorted(cards)
    for k in range(least, len(items) + 1):
        yield from combinations(items, k)


@lru_cache(maxsize=1 << 14)
def _create_options(values: Callable[[int], tuple[int, ...]], loose: tuple[int, ...],
                    card: int | None, wanted: frozenset[int]
                    ) -> tuple[tuple[tuple[int, ...], int, bool], ...]:
    """The builds of a value in ``wanted`` that loose cards (two or more without a hand
    card, one or more with ``card``) make, with the hand card when given: (loose cards,
    value, frozen: of several groups), by subset, then value."""
    out = []
    mine = () if card is None else (card,)
    for k in range(1 if card is not None else 2, len(loose) + 1):
        for sub in combinations(loose, k):
            cards = tuple(sorted(sub + mine))
            totals = _sums_of(values, cards)
            for v in sorted(wanted):
                if not any(t % v == 0 for t in totals):
                    continue
                groups = _splits(values, cards, v)
                if groups:
                    out.append((sub, v, max(groups) > 1))
    return tuple(out)


# -- the turn state -----------------------------------------------------------------------

@dataclass(frozen=True)
class _State:
    table: Table
    played: bool = False                     # the hand-card step is made
    owed: frozenset[Build] = frozenset()     # F3 builds the hand card must capture
    captured: bool = False
    trailed: bool = False
    made: frozenset[Build] = frozenset()     # builds made, increased or augmented this turn
    pile_cards: int = 0                      # pile cards used this turn
    free_steps: int = 0
    created: bool = False                    # a table-only create made (AMB-59's option)

    def key(self) -> tuple[object, ...]:
        return (self.table.key(), self.played, self.owed, self.captured, self.trailed,
                self.made, self.pile_cards, self.free_steps, self.created)


def _swap(builds: tuple[Build, ...], old: Build | None, new: Build | None) -> tuple[Build, ...]:
    out = [b for b in builds if b != old]
    if new is not None:
        out.append(new)
    return tuple(sorted(out))


def _swap_made(made: frozenset[Build], old: Build | None, new: Build) -> frozenset[Build]:
    return (made - {old}) | {new} if old is not None else made | {new}


class _Search:
    """The steps of one mover from a table, and the turns they reach."""

    def __init__(self, r: CompoundRules, mover: int, prune: bool = True) -> None:
        self.r = r
        self.mover = mover
        self.team = r.team(mover)
        self.prune = prune                   # (tests compare the search without dead())
        self.memo: dict[tuple[object, ...], bool] = {}

    # -- who is who
    def ours(self, seat: int) -> bool:
        return self.r.team(seat) == self.team

    def partner_claim(self, t: Table, value: int) -> int | None:
        """The partner for whom a build of ``value`` may be made (AMB-64): an opponent
        increased his build of that value, and he still holds a card of it; or None."""
        for seat, v in sorted(t.claims):
            if v == value and seat != self.mover and self.ours(seat) and self.holds(t, seat, v):
                return seat
        return None

    def hand_less(self, t: Table, card: int | None) -> tuple[frozenset[int], ...]:
        if card is None:
            return t.hands
        return tuple(h - {card} if i == self.mover else h for i, h in enumerate(t.hands))

    def creator(self) -> int:
        """The creator a new build records: the mover with ``increase_creator``, else -1."""
        return self.mover if self.r.increase_creator else -1

    def low(self, cards: tuple[int, ...]) -> int:
        return sum(min(self.r.vals(x)) for x in cards)

    def pile_prefixes(self, s: _State, bound: int) -> Iterator[tuple[tuple[int, int], ...]]:
        """Every choice of top segments of the opponents' piles (each taken top down) whose
        cards can total ``bound`` or less (a card counts at least 1)."""
        out: list[tuple[tuple[int, int], ...]] = [()]
        for team, pile in enumerate(s.table.piles):
            if team == self.team:
                continue
            grown = []
            for a in out:
                room = bound - self.low(tuple(x for _, x in a))
                seg: tuple[tuple[int, int], ...] = ()
                grown.append(a)
                for x in reversed(pile):
                    room -= min(self.r.vals(x))
                    if room < 0:
                        break
                    seg += ((team, x),)
                    grown.append(a + seg)
            out = grown
        limit = self.r.pile_cards_per_turn
        for choice in out:
            if not limit or s.pile_cards + len(choice) <= limit:
                yield choice

    def bounded_subsets(self, cards: frozenset[int], bound: int) -> Iterator[tuple[int, ...]]:
        """The subsets of ``cards`` (in id order) whose cards can total ``bound`` or less."""
        items = sorted(cards)

        def grow(start: int, chosen: tuple[int, ...], room: int) -> Iterator[tuple[int, ...]]:
            yield chosen
            for i in range(start, len(items)):
                least = min(self.r.vals(items[i]))
                if least <= room:
                    yield from grow(i + 1, (*chosen, items[i]), room - least)

        if bound >= 0:
            yield from grow(0, (), bound)

    # -- steps
    def augments(self, s: _State, card: int | None) -> Iterator[tuple[Step, _State]]:
        """Augments of a build with one group of its value, of loose cards and pile tops, and
        the hand card when ``card`` is given (own team's builds only); with
        ``single_card_augment`` also of a single loose card, which becomes a build."""
        t = s.table
        targets: list[tuple[Build | None, int, int]] = [(b, b.value, b.owner) for b in t.builds]
        if self.r.single_card_augment:
            targets += [(None, v, x) for x in sorted(t.loose) for v in set(self.r.vals(x))]
        for b, value, who in targets:
            single = b is None
            own = single or self.ours(who)
            if card is not None and not own:
                continue                     # (the hand card augments own builds only)
            if not own and s.played:
                continue                     # (F3 precedes the capture that takes the build)
            base = b.cards if b is not None else frozenset({who})   # (who: the loose card)
            pool = t.loose - base if single else t.loose
            target: tuple[Build, ...] = (b,) if b is not None else ()
            mine = () if card is None else (card,)
            for loose in self.bounded_subsets(pool, value - self.low(mine)):
                for pile in self.pile_prefixes(s, value - self.low(mine + loose)):
                    group = loose + tuple(x for _, x in pile) + mine
                    if not group or value not in _sums(self.r, group):
                        continue
                    owner = self.mover if single else who
                    creator = b.creator if b is not None else self.creator()
                    nb = Build(base | frozenset(group), value, owner, True, creator)
                    piles = list(t.piles)
                    for team, _ in pile:
                        piles[team] = piles[team][:-1]
                    gone = frozenset(loose) | (base if single else frozenset())
                    table = replace(t, hands=self.hand_less(t, card), loose=t.loose - gone,
                                    builds=_swap(t.builds, b, nb), piles=tuple(piles))
                    owed = s.owed - {b} if b is not None else s.owed
                    if not own or (b is not None and b in s.owed):
                        owed = owed | {nb}
                    made = _swap_made(s.made, b if b in s.made else None, nb) if own else s.made
                    step = Step("augment", card, value, (who, *loose) if single else loose, pile,
                                target)
                    yield step, replace(s, table=table, owed=owed, made=made,
                                        played=s.played or card is not None,
                                        pile_cards=s.pile_cards + len(pile))

    def creates(self, s: _State, card: int | None) -> Iterator[tuple[Step, _State]]:
        """New builds: of two or more loose cards (F1), or of the hand card with loose
        cards, owned by the mover, or by a partner whose claim it meets (AMB-64). Unique
        build values are a rule of the turn's end (:meth:`finished`)."""
        t = s.table
        # (the mover must hold the value of a build he owns at the turn's end, and a hand
        # only loses cards: the values he holds now bound the builds worth making)
        held = {v for x in self.hand_less(t, card)[self.mover] for v in self.r.vals(x)}
        claims = {v: self.partner_claim(t, v) for v in range(2, self.r.max_value + 1)}
        wanted = frozenset(v for v in range(2, self.r.max_value + 1)
                           if v in held or claims[v] is not None)
        options = _create_options(self.r.values, tuple(sorted(t.loose)), card, wanted)
        for loose, v, frozen in options:
            cards = loose + (() if card is None else (card,))
            for owner in (self.mover, claims[v]):
                if owner is None or (owner != self.mover and self.r.partner_claims != "partner_owns"):
                    continue
                nb = Build(frozenset(cards), v, owner, frozen, self.creator())
                table = replace(t, hands=self.hand_less(t, card), loose=t.loose - frozenset(loose),
                                builds=_swap(t.builds, None, nb),
                                claims=t.claims - {(owner, v)})
                step = Step("create" if card is None else "build", card, v, loose,
                            owner=None if owner == self.mover else owner)
                made = s.made | {nb} if owner == self.mover else s.made   # (his to hold)
                yield step, replace(s, table=table, made=made,
                                    played=s.played or card is not None,
                                    created=s.created or card is None)

    def increases(self, s: _State, p: int) -> Iterator[tuple[Step, _State]]:
        """One hand card on a simple build: an opponent's (AMB-60, the Italian steal), a
        partner's with ``increase_partner`` (AMB-69); to a partner's claim, for him (AMB-64).
        With ``increase_creator`` (AMB-60's option) the test is literal: any simple build
        an opponent first created, whoever owns it now."""
        t = s.table
        for b in t.builds:
            if b.frozen:
                continue
            partner = self.ours(b.owner)
            if self.r.increase_creator:
                if b.creator < 0 or self.ours(b.creator):
                    continue
            elif b.owner == self.mover or (partner and not self.r.increase_partner):
                continue
            for v in sorted({b.value + x for x in self.r.vals(p)}):
                if v > self.r.max_value:
                    continue
                claim = self.partner_claim(t, v) if not partner else None
                for owner in (self.mover, claim):
                    if owner is None or (owner != self.mover and self.r.partner_claims != "partner_owns"):
                        continue
                    nb = Build(b.cards | {p}, v, owner, False, b.creator)
                    claims = t.claims - {(owner, v)}
                    if not partner and self.r.teams:
                        claims = claims | {(b.owner, b.value)}   # (the victim's old value)
                    table = replace(t, hands=self.hand_less(t, p), builds=_swap(t.builds, b, nb),
                                    claims=claims)
                    step = Step("increase", p, v, (), (), (b,),
                                owner=None if owner == self.mover else owner)
                    made = s.made | {nb} if owner == self.mover else s.made
                    yield step, replace(s, table=table, made=made, played=True)

    def can_capture(self, t: Table, p: int) -> bool:
        """Whether ``p`` captures anything: a build of a value of it, or loose groups."""
        for v in set(self.r.vals(p)):
            if any(b.value == v for b in t.builds):
                return True
            if any(set(_partitions(self.r, loose, v)) for loose in _subsets(t.loose, 1)):
                return True
        return False

    def captures(self, s: _State, p: int) -> Iterator[tuple[Step, _State]]:
        """Loose groups and builds of a value of ``p``, the order under ``p`` chosen."""
        t = s.table
        for v in sorted(set(self.r.vals(p))):
            prey = [b for b in t.builds if b.value == v]
            for loose in _subsets(t.loose):
                if loose and not set(_partitions(self.r, loose, v)):
                    continue
                for k in range(len(prey) + 1):
                    for taken in combinations(prey, k):
                        if (not loose and not taken) or not s.owed <= set(taken):
                            continue         # (an F3 build must be taken)
                        cards = sorted(set(loose).union(*(b.cards for b in taken)))
                        left = tuple(b for b in t.builds if b not in taken)
                        for order in self.orders(cards):
                            piles = tuple(pile + order + (p,) if i == self.team else pile
                                          for i, pile in enumerate(t.piles))
                            table = replace(t, hands=self.hand_less(t, p),
                                            loose=t.loose - frozenset(loose), builds=left,
                                            piles=piles)
                            step = Step("capture", p, v, loose, (), tuple(sorted(taken)), order)
                            yield step, replace(s, table=table, played=True, owed=frozenset(),
                                                captured=True, made=s.made - set(taken))

    def orders(self, cards: list[int]) -> Iterator[tuple[int, ...]]:
        """The orders of the captured cards under the capturing card, bottom first."""
        if self.r.pile_order == "full":
            yield from permutations(cards)
            return
        if self.r.pile_order == "one":      # (count_turns: one order, counted by a factor)
            yield tuple(cards)
            return
        if not cards:
            yield ()
        for x in cards:                      # "second": which card lies under the capturing card
            yield (*sorted(c for c in cards if c != x), x)

    def steps(self, s: _State) -> list[tuple[Step, _State]]:
        """Every step from ``s`` (free steps, and hand-card steps until one is made)."""
        out = list(self.free_steps(s))
        if not s.played:
            for p in sorted(s.table.hands[self.mover]):
                out += self.hand_steps(s, p)
        return out

    def free_steps(self, s: _State) -> Iterator[tuple[Step, _State]]:
        """The free steps from ``s`` (F1, F2, F3), while the rules allow one more."""
        if not self.r.free_steps_per_turn or s.free_steps < self.r.free_steps_per_turn:
            for step, nxt in (*self.creates(s, None), *self.augments(s, None)):
                yield step, replace(nxt, free_steps=s.free_steps + 1)

    def hand_steps(self, s: _State, p: int) -> Iterator[tuple[Step, _State]]:
        """The hand-card steps of ``p`` from ``s``: trail, captures, builds, augments and
        increases."""
        t = s.table
        if self.r.trail == "any" or not self.can_capture(t, p):
            yield Step("trail", p), replace(
                s, table=replace(t, hands=self.hand_less(t, p), loose=t.loose | {p}),
                played=True, trailed=True)
        yield from self.captures(s, p)
        yield from self.creates(s, p)
        yield from self.augments(s, p)
        yield from self.increases(s, p)

    def finished(self, s: _State) -> bool:
        """The end-of-turn invariants."""
        if s.owed:
            return False
        if not s.played and not (self.r.table_create_replaces_card and s.created):
            return False                     # (a hand card, or a table-only create instead)
        t = s.table
        values = [b.value for b in t.builds]
        if len(values) != len(set(values)):
            return False                     # unique build values (AMB-06)
        mine = sorted({b.value for b in t.builds if b.owner == self.mover or b in s.made})
        if not self.each_held(t.hands[self.mover], mine):
            return False                     # the holding invariant
        own = [b for b in t.builds if b.owner == self.mover]
        if self.r.two_player and (len(own) > 1 or (own and s.trailed)):
            return False
        return True

    def why_not(self, s: _State) -> str:
        """The end-of-turn rule ``s`` breaks, in words (:meth:`finished` is False)."""
        t = s.table
        if not s.played and not (self.r.table_create_replaces_card and s.created):
            return "a hand card must be played"
        if s.owed:
            return ("an opponent's build augmented this turn must be captured by the turn's "
                    "hand card: " + " ".join(str(b) for b in sorted(s.owed)))
        values = [b.value for b in t.builds]
        twice = sorted({v for v in values if values.count(v) > 1})
        if twice:
            return (f"two builds of value {twice[0]} are on the table (build values are "
                    "unique)")
        mine = sorted({b.value for b in t.builds if b.owner == self.mover or b in s.made})
        if not self.each_held(t.hands[self.mover], mine):
            return ("the holding rule: the mover must keep a card to capture each build he "
                    "owns or made this turn, of " + ", ".join(str(v) for v in mine))
        own = [b for b in t.builds if b.owner == self.mover]
        if self.r.two_player and len(own) > 1:
            return "two-player rule: a player may own one build at most"
        if self.r.two_player and own and s.trailed:
            return "two-player rule: no trail while owning a build"
        return "an end-of-turn rule is broken"

    def why_stuck(self, s: _State) -> str:
        """Why no legal turn continues ``s``, in words: the end-of-turn rule it breaks
        for good (:meth:`dead`'s rules, or :meth:`why_not` once the hand card is played)."""
        if s.played:
            return self.why_not(s)
        t = s.table
        values = [b.value for b in t.builds]
        twice = sorted({v for v in values if values.count(v) > 1})
        if len(twice) > 1:
            return (f"builds of values {twice[0]} and {twice[1]} twice each: one hand card "
                    "cannot leave the build values unique")
        if len({b.value for b in s.owed}) > 1:
            return ("opponents' builds of two values augmented this turn: one capture must "
                    "take them all")
        held = {v for x in t.hands[self.mover] for v in self.r.vals(x)}
        lost = sorted({b.value for b in t.builds if (b.owner == self.mover or b in s.made)
                       and b.value not in held})
        if lost:
            return (f"the holding rule: no card of {lost[0]} is left in the hand for the "
                    f"build of {lost[0]}")
        if self.r.two_player and len([b for b in t.builds if b.owner == self.mover]) > 1:
            return "two-player rule: a player may own one build at most"
        return "no legal turn continues it"

    def each_held(self, hand: frozenset[int], values: list[int]) -> bool:
        """The holding invariant: a card of the hand for each of ``values``, a different card
        for each (a matching: one Italian ace, 1 or 11, cannot answer for builds of 1 and of
        11, for it takes only one of them)."""
        return _matching(values, {x: set(self.r.vals(x)) for x in hand})

    def holds(self, t: Table, seat: int, value: int) -> bool:
        return value in {v for x in t.hands[seat] for v in self.r.vals(x)}

    def dead(self, s: _State) -> bool:
        """Whether no legal turn continues ``s``, by rules that steps can only make worse:
        build values never drop out but by the one hand-card step (a capture takes the
        builds of one value, an increase changes one build's value), the mover's hand only
        loses cards, and his own builds leave the table only by that capture. Sound, not
        complete: :meth:`finished` is the judge at the end."""
        t = s.table
        values = [b.value for b in t.builds]
        twice = {v for v in values if values.count(v) > 1}
        if (s.played and (twice or s.owed)) or len(twice) > 1:
            return True
        if len({b.value for b in s.owed}) > 1:
            return True                      # (one capture takes every F3 build)
        held = {v for x in t.hands[self.mover] for v in self.r.vals(x)}
        if any(b.value not in held for b in t.builds if b.owner == self.mover or b in s.made):
            return True
        if self.r.two_player:
            own = [b.value for b in t.builds if b.owner == self.mover]
            if s.played:
                return len(own) > 1
            # (the capture may take every own build of one value: one at most may stay)
            return len(own) > 1 and all(sum(w != v for w in own) > 1 for v in set(own))
        return False

    def ends(self, start: _State) -> dict[tuple[object, ...], tuple[tuple[Step, ...], _State]]:
        """The turns from ``start``: each end table with its least step sequence
        (:func:`step_key`). A breadth-first search over the states of the turn, each state
        visited once, steps in step order: a state is first reached by its least sequence,
        so the first end state of a table found is its least turn."""
        seen = {start.key()}
        layer: list[tuple[tuple[Step, ...], _State]] = [((), start)]
        out: dict[tuple[object, ...], tuple[tuple[Step, ...], _State]] = {}
        while layer:
            grown = []
            for seq, s in layer:
                if self.finished(s):
                    out.setdefault(s.table.key(), (seq, s))
                for step, nxt in sorted(self.steps(s), key=lambda x: _step_key(x[0])):
                    key = nxt.key()
                    if key not in seen and (not self.prune or not self.dead(nxt)):
                        seen.add(key)
                        grown.append(((*seq, step), nxt))
            layer = grown
        return out

    def can_finish(self, s: _State) -> bool:
        """Whether some legal turn continues ``s`` (remembered state by state)."""
        key = s.key()
        known = self.memo.get(key)
        if known is None:
            known = self.memo[key] = self.finished(s) or any(
                not (self.prune and self.dead(nxt)) and self.can_finish(nxt)
                for _, nxt in self.lazy_steps(s))
        return known

    def lazy_steps(self, s: _State) -> Iterator[tuple[Step, _State]]:
        """The steps of :meth:`steps`, made as asked: each hand card's before the free
        steps (a turn usually ends with a hand card's step)."""
        if not s.played:
            for p in sorted(s.table.hands[self.mover]):
                yield from self.hand_steps(s, p)
        yield from self.free_steps(s)

    def compatible(self, s: _State, start: Table, end: Table) -> bool:
        """Whether ``s`` (a state of a turn from ``start``) may still end at ``end``: a
        sound test, for a hand only loses cards, loose cards leave but for the card
        trailed, opposing piles only lose their tops, the capture is made once, and a build
        only gains cards until captured (a build of an end build's cards is that build)."""
        t = s.table
        hand = t.hands[self.mover]
        if not end.hands[self.mover] <= hand or not end.loose <= t.loose | hand:
            return False
        mine = start.piles[self.team]
        captured = frozenset(end.piles[self.team][len(mine):])
        for team, pile in enumerate(t.piles):
            if team == self.team:
                if s.captured and pile != end.piles[team]:
                    return False
            elif len(pile) < len(end.piles[team]):
                return False
        for b in t.builds:
            if b.cards <= captured:
                continue
            home = next((e for e in end.builds if b.cards <= e.cards), None)
            if home is None or (home.cards == b.cards and home != b):
                return False
        return True

    def least(self, start: _State, end: Table) -> tuple[tuple[Step, ...], _State] | None:
        """The least step sequence from ``start`` to the end table ``end`` (:meth:`ends`
        over the states that may still end there), or None."""
        key = end.key()
        seen = {start.key()}
        layer: list[tuple[tuple[Step, ...], _State]] = [((), start)]
        while layer:
            grown = []
            for seq, s in layer:
                if self.finished(s) and s.table.key() == key:
                    return seq, s
                for step, nxt in sorted(self.steps(s), key=lambda x: _step_key(x[0])):
                    k = nxt.key()
                    if (k not in seen and not (self.prune and self.dead(nxt))
                            and self.compatible(nxt, start.table, end)):
                        seen.add(k)
                        grown.append(((*seq, step), nxt))
            layer = grown
        return None


def turns(r: CompoundRules, table: Table, mover: int, prune: bool = True) -> list[Turn]:
    """Every distinct turn of ``mover`` from ``table``, each with its least step sequence,
    in the order of those sequences. ``prune=False`` searches without :meth:`_Search.dead`
    (slower; tests check the two agree)."""
    found = _Search(r, mover, prune).ends(_State(table))
    listed = [Turn(seq, last.table, last.captured) for seq, last in found.values()]
    return sorted(listed, key=lambda turn: step_key(turn.steps))


def least_turn(r: CompoundRules, table: Table, mover: int, end: Table) -> Turn | None:
    """The turn of ``mover`` from ``table`` that leaves ``end``, with its least step
    sequence (the one :func:`turns` lists), or None if no legal turn leaves it; without
    listing the other turns."""
    found = _Search(r, mover).least(_State(table), end)
    if found is None:
        return None
    seq, last = found
    return Turn(seq, last.table, last.captured)


def count_turns(r: CompoundRules, table: Table, mover: int) -> int:
    """``len(turns(r, table, mover))`` without listing the orders of the captured cards: the
    turns with the captured cards in one order, each counted as the orders the rules give it
    (k! for ``pile_order="full"``, k for ``"second"``, k the cards under the capturing card).
    Turns that capture different cards never meet, so the count is exact.

    >>> from cassino.cards import parse_cards
    >>> t = Table((frozenset(parse_cards(["9H"])), frozenset(), frozenset()),
    ...           frozenset(parse_cards("2S 7S 4C 5C 3H 6H".split())), (), ((), (), ()))
    >>> count_turns(CompoundRules(), t, 0), count_turns(CompoundRules(pile_order="second"), t, 0)
    (805, 28)
    """
    found = _Search(replace(r, pile_order="one"), mover).ends(_State(table))
    total = 0
    for seq, _ in found.values():
        k = next((len(step.order) for step in seq if step.kind == "capture"), 0)
        total += factorial(k) if r.pile_order == "full" else max(k, 1)
    return total


def _canon(text: str, deck: str | None = None) -> tuple[object, ...]:
    """A step's notation as a value to compare: the hand card, the shape, the set of cards
    listed, the value, the owner and the pile order (each card code checked)."""
    t = "".join(text.split()).upper()
    order: tuple[str, ...] = ()
    if "|" in t:
        t, _, o = t.partition("|")
        order = tuple(o.split(","))
    value = owner = ""
    if "X" in t:
        hand, _, rest = t.partition("X")
        shape = "x"
    elif "+" in t:
        hand, _, rest = t.partition("+")
        rest, _, value = rest.partition("=")
        value, _, owner = value.partition("@")
        shape = "+"
    else:
        hand, rest, shape = t, "", ""
    cards = [x for x in rest.split(",") if x]
    for code in ([hand] if hand else []) + cards + list(order):
        parse_card(code, deck)               # (CardError: an unknown code)
    return (hand, shape, frozenset(cards), value, owner, order)


def parse_turn(r: CompoundRules, table: Table, mover: int, text: str,
               deck: str | None = None, builder: TurnBuilder | None = None) -> Turn:
    """The turn written ``text`` (:meth:`Turn.notation`), read step by step against the
    position: each step must be one the position allows at that point and that a legal turn
    continues. Card codes are read in ``deck``'s context (``"italian40"``), case and blanks
    ignored. Raises :class:`NotationError` for an empty step or an unknown card code, and
    :class:`IllegalMoveError` naming the first step no legal turn continues (and why, where
    a card is not where the step needs it), or the end-of-turn rule a finished turn breaks.
    ``builder`` makes the steps (the core's, for its states); only the steps written as
    given are asked whether a legal turn continues them.

    >>> from cassino.cards import parse_card as c
    >>> t = Table(hands=(frozenset({c("7H"), c("3C")}), frozenset(), frozenset()),
    ...           loose=frozenset({c("3S"), c("4S")}), builds=(), piles=((), (), ()))
    >>> parse_turn(CompoundRules(), t, 0, "+3s,4s=7; 3c").notation()
    '+3S,4S=7; 3C'
    >>> parse_turn(CompoundRules(), t, 0, "+3s,4s=7; 7h+3c=10")
    Traceback (most recent call last):
    ...
    cassino.errors.IllegalMoveError: turn '+3s,4s=7; 7h+3c=10': step 2 (7h+3c=10) is not a step of a legal turn here after +3S,4S=7: 3C is not on the table
    """
    b = builder if builder is not None else TurnBuilder(r, table, mover)
    for k, part in enumerate(text.split(";")):
        if not part.strip():
            raise NotationError(f"turn {text!r}: step {k + 1} is empty")
        try:
            wanted = _canon(part, deck)
        except CardError as e:
            raise NotationError(f"turn {text!r}, step {k + 1}: {e}") from None
        done = "; ".join(st.notation() for st in b.steps)
        if b.push_written(wanted, deck) is None:
            after = f" after {done}" if done else ""
            why = (b.stuck_reason(wanted, deck)
                   or _step_trouble(b.state, mover, r.team(mover), wanted, deck))
            raise IllegalMoveError(f"turn {text!r}: step {k + 1} ({part.strip()}) is not a "
                                   f"step of a legal turn here{after}"
                                   + (f": {why}" if why else ""))
    if not b.can_end():
        raise IllegalMoveError(f"turn {text!r} is not finished: {b.why_not_end()}")
    return b.end_turn()


def _step_trouble(s: _State, mover: int, team: int, wanted: tuple[object, ...],
                  deck: str | None) -> str:
    """Why the step read as ``wanted`` (:func:`_canon`) cannot be made from ``s``, where a
    card is not where the step needs it; else ``""``."""
    hand_code, shape, codes, *_ = wanted
    t = s.table
    if hand_code:
        card = parse_card(str(hand_code), deck)
        if s.played:
            return "a hand card was already played this turn (one a turn)"
        if card not in t.hands[mover]:
            return f"{card_code(card)} is not in the hand"
    elif shape != "+":
        return "a step is a hand card's or a free build's (+cards=value)"
    on_table = set(t.loose).union(*(b.cards for b in t.builds))
    for k, pile in enumerate(t.piles):
        if k != team:
            on_table |= set(pile)
    assert isinstance(codes, frozenset)
    for code in sorted(codes):
        x = parse_card(code, deck)
        if x not in on_table:
            return f"{card_code(x)} is not on the table"
    return ""


# -- scoring (§3.22 and §3.25, AMB-63, AMB-71) ----------------------------------------------

def hand_tally(piles: tuple[tuple[int, ...], ...], italian: bool = False
               ) -> list[tuple[str, tuple[int, ...], int]]:
    """A hand's points in the strict tally order, as ``(category, teams, points each)``:
    most cards 2, most spades (Italian: coins) 2, where tying teams each score 1 (Italian:
    the 2 split evenly, which two tying teams make 1 each); then the Spy Two 2S 1 and the Big
    Ten 10S 2 (Italian: the 2 of coins 1, the 7 of swords 2); then the aces, 1 each, in the
    order AS AC AH AD (Italian: coins, swords, cups, batons).

    >>> from cassino.cards import parse_cards
    >>> hand_tally((tuple(parse_cards("2S 10S AS AH 3C".split())), tuple(parse_cards(["4S"]))))[:3]
    [('most_cards', (0,), 2), ('most_spades', (0,), 2), ('spy_two', (0,), 1)]
    """
    from ..cards import ITALIAN_FIRST, card_suit, make_card

    def italian_card(rank: int, suit: int) -> int:
        return ITALIAN_FIRST + (rank - 1) * 4 + suit

    if italian:     # suits D coins 0, C cups 1, S swords 2, B batons 3
        suit, singles = 0, [("two_of_coins", italian_card(2, 0), 1),
                             ("seven_of_swords", italian_card(7, 2), 2)]
        aces = [italian_card(1, k) for k in (0, 2, 1, 3)]
    else:           # suits S 0, H 1, D 2, C 3
        suit, singles = 0, [("spy_two", make_card(2, 0), 1), ("big_ten", make_card(10, 0), 2)]
        aces = [make_card(1, k) for k in (0, 3, 1, 2)]
    out: list[tuple[str, tuple[int, ...], int]] = []
    suited = "most_coins" if italian else "most_spades"
    for name, counts in (("most_cards", [len(p) for p in piles]),
                         (suited, [sum(card_suit(x) == suit for x in p) for p in piles])):
        best = max(counts)
        top = tuple(t for t, n in enumerate(counts) if n == best)
        out.append((name, top, 2 if len(top) == 1 else (2 // len(top) if italian else 1)))
    for name, card, points in singles + [(f"ace_{k}", a, 1) for k, a in enumerate(aces)]:
        owner = tuple(t for t, p in enumerate(piles) if card in p)
        if owner:
            out.append((name, owner, points))
    return out


class TurnBuilder:
    """A turn made step by step: :meth:`legal_steps` lists only the steps after which some
    legal turn can still be finished (no dead ends), :meth:`can_end` says whether the steps
    so far are a legal turn, :meth:`end_turn` returns it.

    >>> from cassino.cards import parse_card as c
    >>> t = Table(hands=(frozenset({c("7H"), c("3C")}), frozenset(), frozenset()),
    ...           loose=frozenset({c("3S"), c("4S")}), builds=(), piles=((), (), ()))
    >>> b = TurnBuilder(CompoundRules(), t, 0)
    >>> [str(s) for s in b.legal_steps()][:2]
    ['build 7 of 3S 4S', 'capture 3C takes 3S']
    >>> b.push_step(b.legal_steps()[0]); b.can_end()
    False
    >>> b.push_step(next(s for s in b.legal_steps() if s.kind == "trail")); str(b.end_turn())
    'build 7 of 3S 4S; trail 3C'
    """

    def __init__(self, r: CompoundRules, table: Table, mover: int) -> None:
        self._search = _Search(r, mover)
        self._stack: list[tuple[Step, object]] = []
        self._start: object = _State(table)

    # -- what a builder is made of (the core's builder answers these in C) ----------------
    def _top(self) -> object:
        return self._stack[-1][1] if self._stack else self._start

    def _successors(self, at: object) -> list[tuple[Step, object]]:
        """The steps from the turn state ``at``, with the state each leads to."""
        assert isinstance(at, _State)
        return list(self._search.steps(at))

    def _live(self, states: list[object]) -> list[bool]:
        """Whether some legal turn continues each of ``states``."""
        return [isinstance(x, _State) and self._search.can_finish(x) for x in states]

    def _finished(self, at: object) -> bool:
        assert isinstance(at, _State)
        return self._search.finished(at)

    def _as_state(self, at: object) -> _State:
        assert isinstance(at, _State)
        return at

    # -- the interface ---------------------------------------------------------------------
    @property
    def state(self) -> _State:
        return self._as_state(self._top())

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(step for step, _ in self._stack)

    def legal_steps(self) -> list[Step]:
        """The steps that some legal turn continues, in step order (each once)."""
        found = self._successors(self._top())
        live = self._live([nxt for _, nxt in found])
        return sorted({step for (step, _), ok in zip(found, live, strict=True) if ok},
                      key=_step_key)

    def push_step(self, step: Step) -> None:
        """Make ``step``; ValueError if no legal turn continues it."""
        for cand, nxt in self._successors(self._top()):
            if cand == step and self._live([nxt])[0]:
                self._stack.append((cand, nxt))
                return
        raise ValueError(f"illegal step {step}: no legal turn continues it")

    def push_written(self, wanted: tuple[object, ...], deck: str | None = None) -> Step | None:
        """Make the first step, in step order, whose notation reads as ``wanted``
        (:func:`_canon`) and that a legal turn continues; None (nothing made) if none.
        Only the steps written so are asked whether a turn continues them."""
        for st, nxt in self._written(wanted, deck):
            if self._live([nxt])[0]:
                self._stack.append((st, nxt))
                return st
        return None

    def _written(self, wanted: tuple[object, ...], deck: str | None
                 ) -> list[tuple[Step, object]]:
        """The steps from the current state written as ``wanted``, in step order."""
        hand = str(wanted[0])
        card = parse_card(hand, deck) if hand else None
        if card is not None:
            now = self.state        # (the core's builder makes it anew on each call)
            if now.played or card not in now.table.hands[self._search.mover]:
                return []
        return sorted(((st, nxt) for st, nxt in self._successors_of(self._top(), card)
                       if _canon(st.notation(), deck) == wanted),
                      key=lambda x: _step_key(x[0]))

    def _successors_of(self, at: object, card: int | None) -> list[tuple[Step, object]]:
        """The steps from ``at`` of the hand card ``card`` (None: the free steps)."""
        return [(st, nxt) for st, nxt in self._successors(at) if st.card == card]

    def stuck_reason(self, wanted: tuple[object, ...], deck: str | None = None) -> str:
        """Why the step written as ``wanted`` is no step of a legal turn (after
        :meth:`push_written` found none): the rule the first step so written breaks,
        else ``""`` (no step is so written)."""
        match = self._written(wanted, deck)
        if not match:
            return ""
        return self._search.why_stuck(self._as_state(match[0][1]))

    def pop_step(self) -> Step:
        """Take back the last step."""
        if not self._stack:
            raise ValueError("no step to take back")
        return self._stack.pop()[0]

    def can_end(self) -> bool:
        return self._finished(self._top())

    def why_not_end(self) -> str:
        """The end-of-turn rule the steps made break, in words."""
        return self._search.why_not(self.state)

    def end_turn(self) -> Turn:
        """The turn of the steps made; ValueError while it is not a legal turn."""
        if not self.can_end():
            raise ValueError("the turn is not finished: " + self.why_not_end())
        s = self.state
        return Turn(self.steps, s.table, s.captured)
