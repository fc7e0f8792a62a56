"""Compound turns (African and Italian Cassino, docs/rules.md §3.22-§3.25, AMB-59 to AMB-66):
the reference's turn generator, written for clarity. Not wired into :class:`State` yet: this
is the oracle the core's plan generator (docs/architecture.md §9.4) will be checked against.

A turn is any number of free steps around exactly one hand-card step:

* F1 ``create``: a build from loose cards only, owned by the mover;
* F2 ``augment``: a group of the build's value added to a build of the mover's, from loose
  cards and the top cards of opponents' face-up piles (each pile consumed from the top, so a
  newly exposed card is usable in turn, AMB-61);
* F3 ``augment`` of an opponent's build, which the turn's hand-card capture must then take;

and the hand-card steps ``capture``, ``build`` (create with the hand card), ``increase`` (one
hand card on an opponent's simple build, AMB-60), ``augment`` with the hand card (own builds
only) and ``trail``. At the end of the turn: the holding invariant (each build the mover owns
has a card of its value in his hand), unique build values, no F3 build left, and with
``two_player`` no trail while owning a build and at most one build owned.

Two step sequences that reach the same :class:`Table` are one turn (:func:`turns` keys them
by the resulting table); each is listed with its least step sequence (:func:`step_key`).
The capturing card goes on top of the mover's pile; the order of the cards under it is part
of the turn (``pile_order="full"``, AMB-62's default: every order is a turn) or only which card
is second (``pile_order="second"``, the rest in ascending id order).

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
from itertools import combinations, permutations

from ..cards import card_code, card_rank

__all__ = ["Build", "CompoundRules", "Step", "Table", "Turn", "african_values", "turns"]


def african_values(card: int) -> tuple[int, ...]:
    """The values of a card in African Cassino: 2-10 pip, J 11, Q 12, K 13, A 1 or 14."""
    r = card_rank(card)
    return (1, 14) if r == 1 else (r,)


@dataclass(frozen=True)
class CompoundRules:
    """What the generator needs of a system's rules."""

    players: int = 3
    two_player: bool = False                 # African for two: no trail owning a build, one build
    pile_order: str = "full"                 # AMB-62: "full" (default) or "second"
    max_value: int = 14
    values: Callable[[int], tuple[int, ...]] = field(default=african_values)   # (the Ace two)

    def vals(self, card: int) -> tuple[int, ...]:
        return self.values(card)


@dataclass(frozen=True, order=True)
class Build:
    """A build: its cards, value, owner (a seat) and whether it is frozen (of several groups
    or augmented: its value never changes, AMB-60)."""

    cards: frozenset[int]
    value: int
    owner: int
    frozen: bool

    def __str__(self) -> str:
        return f"({' '.join(card_code(x) for x in sorted(self.cards))}={self.value}@{self.owner})"


@dataclass(frozen=True)
class Table:
    """What a turn changes: every hand, the loose cards, the builds and the face-up piles
    (a tuple a seat, bottom first)."""

    hands: tuple[frozenset[int], ...]
    loose: frozenset[int]
    builds: tuple[Build, ...]
    piles: tuple[tuple[int, ...], ...]

    def key(self) -> tuple[object, ...]:
        """Two tables with the same key are the same state (the builds as a set)."""
        return (self.hands, self.loose, frozenset(self.builds), self.piles)


@dataclass(frozen=True)
class Step:
    """One step of a turn. ``card`` is the hand card (None for a free step); ``loose`` the
    loose cards used, ``pile`` the pile cards used in the order taken (seat, card), ``build``
    the build the step adds to, increases or (for a capture) the builds taken, ``order`` the
    captured cards under the capturing card, bottom first."""

    kind: str                                # create, augment, capture, build, increase, trail
    card: int | None = None
    value: int = 0
    loose: tuple[int, ...] = ()
    pile: tuple[tuple[int, int], ...] = ()
    builds: tuple[Build, ...] = ()
    order: tuple[int, ...] = ()

    def __str__(self) -> str:
        cards = " ".join(card_code(x) for x in self.loose)
        pile = " ".join(card_code(x) for _, x in self.pile)
        taken = " ".join(
            "(" + " ".join(card_code(x) for x in sorted(b.cards)) + ")" for b in self.builds
        )
        hand = card_code(self.card) if self.card is not None else ""
        if self.kind == "trail":
            return f"trail {hand}"
        if self.kind == "capture":
            under = (", pile " + " ".join(card_code(x) for x in self.order) + f" {hand}"
                     if len(self.order) > 1 else "")
            return f"capture {hand} takes " + " ".join(x for x in (cards, taken) if x) + under
        if self.kind in ("create", "build"):
            return f"build {self.value} of " + " ".join(x for x in (hand, cards) if x)
        if self.kind == "increase":
            return f"increase {taken} with {hand} to {self.value}"
        parts = " ".join(x for x in (hand, cards) if x)
        return f"augment {self.value} with " + " + ".join(
            x for x in (parts, f"pile {pile}" if pile else "") if x
        )


_KIND_ORDER = {"create": 0, "augment": 1, "capture": 2, "build": 3, "increase": 4, "trail": 5}


def step_key(steps: tuple[Step, ...]) -> tuple[object, ...]:
    """The order of step sequences: fewer steps first, then step by step (kind, hand card,
    value, cards). A turn is listed with its least sequence."""
    return (len(steps), [(
        _KIND_ORDER[s.kind], -1 if s.card is None else s.card, s.value, s.loose,
        s.pile, sorted(tuple(sorted(b.cards)) for b in s.builds), s.order,
    ) for s in steps])


@dataclass(frozen=True)
class Turn:
    """A whole turn: its steps and the table it leaves."""

    steps: tuple[Step, ...]
    table: Table
    captured: bool

    def __str__(self) -> str:
        return "; ".join(str(s) for s in self.steps)


# -- groups -------------------------------------------------------------------------------

def _sums(r: CompoundRules, cards: tuple[int, ...]) -> set[int]:
    """Every total of ``cards`` (an Ace 1 or 14 each)."""
    totals = {0}
    for x in cards:
        totals = {t + v for t in totals for v in r.vals(x)}
    return totals


def _partitions(r: CompoundRules, cards: tuple[int, ...], v: int) -> Iterator[int]:
    """The numbers of groups into which ``cards`` split, each group totalling ``v`` (a group
    may be one card of value v)."""
    if not cards:
        yield 0
        return
    first, rest = cards[0], cards[1:]
    for k in range(len(rest) + 1):
        for others in combinations(rest, k):
            if v in _sums(r, (first, *others)):
                left = tuple(x for x in rest if x not in others)
                for n in _partitions(r, left, v):
                    yield n + 1


def _subsets(cards: frozenset[int], least: int = 0) -> Iterator[tuple[int, ...]]:
    items = sorted(cards)
    for k in range(least, len(items) + 1):
        yield from combinations(items, k)


def _pile_prefixes(t: Table, mover: int) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every choice of top segments of the opponents' piles (each taken top down)."""
    choices: list[list[tuple[tuple[int, int], ...]]] = []
    for seat, pile in enumerate(t.piles):
        if seat == mover:
            continue
        choices.append([tuple((seat, pile[-1 - i]) for i in range(d)) for d in range(len(pile) + 1)])
    out: list[tuple[tuple[int, int], ...]] = [()]
    for options in choices:
        out = [a + b for a in out for b in options]
    yield from out


def _take_piles(t: Table, pile: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    piles = list(t.piles)
    for seat, _ in pile:
        piles[seat] = piles[seat][:-1]
    return tuple(piles)


# -- the turn state -----------------------------------------------------------------------

@dataclass(frozen=True)
class _State:
    table: Table
    played: bool = False                     # the hand-card step is made
    owed: frozenset[Build] = frozenset()     # F3 builds the hand card must capture
    captured: bool = False


def _replace_build(builds: tuple[Build, ...], old: Build, new: Build | None) -> tuple[Build, ...]:
    out = [b for b in builds if b != old]
    if new is not None:
        out.append(new)
    return tuple(sorted(out))


def _augments(r: CompoundRules, s: _State, mover: int, card: int | None) -> Iterator[tuple[Step, _State]]:
    """Augments of a build with one group of its value: of loose cards and pile tops, and
    the hand card when ``card`` is given (own builds only)."""
    t = s.table
    for b in t.builds:
        own = b.owner == mover
        if card is not None and not own:
            continue                         # (the hand card augments own builds only)
        if not own and s.played:
            continue                         # (F3 precedes the capture that takes the build)
        for loose in _subsets(t.loose):
            for pile in _pile_prefixes(t, mover):
                group = loose + tuple(x for _, x in pile) + (() if card is None else (card,))
                if not group or b.value not in _sums(r, group):
                    continue
                nb = Build(b.cards | frozenset(group), b.value, b.owner, True)
                hands = t.hands
                if card is not None:
                    hands = tuple(h - {card} if i == mover else h for i, h in enumerate(hands))
                table = Table(hands, t.loose - frozenset(loose), _replace_build(t.builds, b, nb),
                              _take_piles(t, pile))
                owed = s.owed - {b}
                if not own or b in s.owed:
                    owed = owed | {nb}
                step = Step("augment", card, b.value, loose, pile, (b,))
                yield step, replace(s, table=table, owed=owed, played=s.played or card is not None)


def _creates(r: CompoundRules, s: _State, mover: int, card: int | None) -> Iterator[tuple[Step, _State]]:
    """New builds: of two or more loose cards (F1), or of the hand card with loose cards."""
    t = s.table
    for loose in _subsets(t.loose, 1 if card is not None else 2):
        cards = loose + (() if card is None else (card,))
        for v in range(2, r.max_value + 1):
            groups = set(_partitions(r, cards, v))
            if not groups:
                continue
            nb = Build(frozenset(cards), v, mover, max(groups) > 1)
            hands = t.hands
            if card is not None:
                hands = tuple(h - {card} if i == mover else h for i, h in enumerate(hands))
            table = Table(hands, t.loose - frozenset(loose), tuple(sorted((*t.builds, nb))), t.piles)
            kind = "create" if card is None else "build"
            yield Step(kind, card, v, loose), replace(s, table=table, played=s.played or card is not None)


def _hand_steps(r: CompoundRules, s: _State, mover: int) -> Iterator[tuple[Step, _State]]:
    t = s.table
    for p in sorted(t.hands[mover]):
        hands = tuple(h - {p} if i == mover else h for i, h in enumerate(t.hands))
        # trail
        yield Step("trail", p), replace(
            s, table=Table(hands, t.loose | {p}, t.builds, t.piles), played=True
        )
        # captures: loose groups and builds of a value of p, the order under p chosen
        for v in sorted(set(r.vals(p))):
            prey = [b for b in t.builds if b.value == v]
            for loose in _subsets(t.loose):
                if loose and not set(_partitions(r, loose, v)):
                    continue
                for k in range(len(prey) + 1):
                    for taken in combinations(prey, k):
                        if not loose and not taken:
                            continue
                        if not s.owed <= set(taken):
                            continue         # (an F3 build must be taken)
                        cards = sorted(set(loose).union(*(b.cards for b in taken)))
                        builds = tuple(b for b in t.builds if b not in taken)
                        for order in _orders(r, cards):
                            piles = tuple(
                                pile + order + (p,) if i == mover else pile
                                for i, pile in enumerate(t.piles)
                            )
                            table = Table(hands, t.loose - frozenset(loose), builds, piles)
                            yield (Step("capture", p, v, loose, (), tuple(sorted(taken)), order),
                                   _State(table, True, frozenset(), True))
        # builds with the hand card, and augments of own builds with it
        yield from _creates(r, s, mover, p)
        yield from _augments(r, s, mover, p)
        # increases: one hand card on an opponent's simple build (AMB-60)
        for b in t.builds:
            if b.owner == mover or b.frozen:
                continue
            for v in sorted({b.value + x for x in r.vals(p)}):
                if v > r.max_value:
                    continue
                nb = Build(b.cards | {p}, v, mover, False)
                table = Table(hands, t.loose, _replace_build(t.builds, b, nb), t.piles)
                yield Step("increase", p, v, (), (), (b,)), replace(s, table=table, played=True)


def _orders(r: CompoundRules, cards: list[int]) -> Iterator[tuple[int, ...]]:
    """The orders of the captured cards under the capturing card, bottom first."""
    if r.pile_order == "full":
        yield from permutations(cards)
        return
    # "second": only which card lies just under the capturing card
    if not cards:
        yield ()
    for x in cards:
        yield (*sorted(c for c in cards if c != x), x)


def _finished(r: CompoundRules, s: _State, mover: int, trailed: bool) -> bool:
    """The end-of-turn invariants."""
    if not s.played or s.owed:
        return False
    t = s.table
    values = [b.value for b in t.builds]
    if len(values) != len(set(values)):
        return False                         # unique build values (AMB-06)
    held = {v for x in t.hands[mover] for v in r.vals(x)}
    own = [b for b in t.builds if b.owner == mover]
    if any(b.value not in held for b in own):
        return False                         # the holding invariant
    if r.two_player and (len(own) > 1 or (own and trailed)):
        return False
    return True


def turns(r: CompoundRules, table: Table, mover: int) -> list[Turn]:
    """Every distinct turn of ``mover`` from ``table``, each with its least step sequence,
    in the order of those sequences."""
    memo: dict[tuple[object, ...], dict[tuple[object, ...], tuple[tuple[Step, ...], _State, bool]]] = {}

    def walk(s: _State, trailed: bool) -> dict[tuple[object, ...], tuple[tuple[Step, ...], _State, bool]]:
        key = (s.table.key(), s.played, s.owed, trailed)
        if key in memo:
            return memo[key]
        out: dict[tuple[object, ...], tuple[tuple[Step, ...], _State, bool]] = {}
        if _finished(r, s, mover, trailed):
            out[s.table.key()] = ((), s, s.captured)
        succ: list[tuple[Step, _State]] = [*_creates(r, s, mover, None), *_augments(r, s, mover, None)]
        if not s.played:
            succ += list(_hand_steps(r, s, mover))
        for step, nxt in succ:
            if step.kind == "capture":
                nxt = replace(nxt, owed=frozenset())
            for end, (suffix, last, cap) in walk(nxt, trailed or step.kind == "trail").items():
                seq = (step, *suffix)
                if end not in out or step_key(seq) < step_key(out[end][0]):
                    out[end] = (seq, last, cap or step.kind == "capture")
        memo[key] = out
        return out

    found = walk(_State(table), False)
    listed = [Turn(seq, last.table, cap) for seq, last, cap in found.values()]
    return sorted(listed, key=lambda turn: step_key(turn.steps))
