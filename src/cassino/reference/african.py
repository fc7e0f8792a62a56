"""African Cassino's compound turns in :class:`cassino.reference.State` (docs/rules.md
§3.22-§3.24, AMB-59 to AMB-64): a move is a whole turn (:class:`cassino.Move` of kind
``TURN``), listed by the turn generator of :mod:`cassino.reference.compound` from the state's
table, and pushed by taking over the table the turn leaves. Not in the core yet."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import combinations, permutations
from math import factorial

from ..cards import card_code, parse_card
from ..errors import CardError, IllegalMoveError, NotationError
from ..moves import NO_CARD, Move, MoveKind
from ..position import Build, card_values, value_partition
from ..rules import Rules
from ..scoring import HandScore
from .base import StateBase, bits
from .compound import Build as TurnBuild
from .compound import (
    CompoundRules,
    Step,
    Table,
    Turn,
    TurnBuilder,
    _canon,
    _step_trouble,
    _sums,
    african_values,
    hand_tally,
    italian_values,
    least_turn,
    parse_turn,
    turns,
)

__all__ = ["African", "canonical_key", "compound_rules", "insist_values", "turn_move"]

_RULES: dict[Rules, CompoundRules] = {}
# the listed turns a state remembers for their push (more are streamed, and read again)
_KEEP_TURNS = 1 << 16

# hand_tally's categories as the categories of cassino.scoring
_CATEGORY = {
    "most_cards": "cards", "most_spades": "spades", "spy_two": "spy_two", "big_ten": "big_ten",
    "ace_0": "ace_spades", "ace_1": "ace_clubs", "ace_2": "ace_hearts", "ace_3": "ace_diamonds",
}
# the Italian tally's (the aces in the order coins, swords, cups, batons)
_ITALIAN_CATEGORY = {
    "most_cards": "cards", "most_coins": "coins", "two_of_coins": "two_of_coins",
    "seven_of_swords": "seven_of_swords", "ace_0": "ace_coins", "ace_1": "ace_swords",
    "ace_2": "ace_cups", "ace_3": "ace_batons",
}


def compound_rules(r: Rules) -> CompoundRules:
    """What the turn generator needs of ``r`` (an African Cassino system)."""
    out = _RULES.get(r)
    if out is None:
        teams = tuple(r.team_of(s) for s in range(r.players)) if r.teams == "partnership" else ()
        italian = "italian" in r.mechanics
        out = _RULES[r] = CompoundRules(
            players=r.players, teams=teams, two_player=r.obligation == "african_2p",
            pile_order=r.pile_order, max_value=r.build_max_value,
            values=italian_values if italian else african_values,
            trail=r.trail, single_card_augment=italian,
            increase_partner=r.increase_who == "not_own",
            partner_claims=r.partner_builds,
            table_create_replaces_card=r.table_only_build == "turn",
            pile_cards_per_turn=r.pile_cards_per_turn,
            free_steps_per_turn=r.free_steps_per_turn,
            increase_creator=r.increase_who == "opponent_created",
        )
    return out


def _mask(cards: frozenset[int] | tuple[int, ...]) -> int:
    return sum(1 << c for c in cards)


def turn_move(turn: Turn) -> Move:
    """The :class:`Move` of a turn: its steps' notation, the hand card it plays (NO_CARD for
    a turn of table-only creates, AMB-59's option) and every table card its steps take or
    gather."""
    card = NO_CARD
    takes = 0
    for s in turn.steps:
        if s.card is not None:
            card = s.card
        takes |= _mask(tuple(s.loose)) | _mask(tuple(x for _, x in s.pile))
        for b in s.builds:
            takes |= _mask(b.cards)
    return Move(card, MoveKind.TURN, takes, 0, (), tuple(s.notation() for s in turn.steps))


def _captured(turn: Turn) -> tuple[int, ...]:
    """The cards a turn captures besides the capturing card (ascending), () for none."""
    return next((tuple(sorted(st.order)) for st in turn.steps if st.kind == "capture"), ())


def _orders(r: Rules, cards: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """The orders of the captured ``cards`` (ascending) under the capturing card, bottom
    first (AMB-62): every order (``pile_order=full``, lexicographic), or only which card is
    second, the rest ascending."""
    if len(cards) <= 1:
        yield cards
    elif r.pile_order == "full":
        yield from permutations(cards)
    else:
        for x in cards:
            yield (*(c for c in cards if c != x), x)


def _num_orders(r: Rules, k: int) -> int:
    """How many orders :func:`_orders` gives ``k`` captured cards."""
    return 1 if k <= 1 else factorial(k) if r.pile_order == "full" else k


def _order_at(r: Rules, cards: tuple[int, ...], index: int) -> tuple[int, ...]:
    """``list(_orders(r, cards))[index]`` without listing them."""
    if len(cards) <= 1:
        return cards
    if r.pile_order != "full":
        x = cards[index]
        return (*(c for c in cards if c != x), x)
    rest = list(cards)
    out = []
    for k in range(len(cards) - 1, -1, -1):
        i, index = divmod(index, factorial(k))
        out.append(rest.pop(i))
    return tuple(out)


def turn_build(b: Build) -> TurnBuild:
    """The turn generator's build of a position's build ``b`` (its owner a seat)."""
    return TurnBuild(frozenset(bits(b.cards)), b.value, b.owners.bit_length() - 1, b.multiple,
                     b.creator)


@lru_cache(maxsize=4096)
def position_build(b: TurnBuild, r: Rules) -> Build:
    """A build of a turn's table as a :class:`cassino.position.Build`: one owner, multiple
    when frozen (several groups), and its aces fixed at 14 where a grouping needs it (the
    fewest such aces). Remembered: a build stays on the table for many turns, and each
    push converts every build of the table it takes over."""
    cards = _mask(b.cards)
    aces = [c for c in sorted(b.cards) if r.second_value(c)]
    best: tuple[tuple[int, int], ...] | None = None
    for k in range(1 << len(aces)):
        fixed = tuple((a, r.second_value(a)) for i, a in enumerate(aces) if k >> i & 1)
        vals = card_values(cards, r, fixed)
        total = sum(vals.values())
        if total % b.value or (total >= 2 * b.value) != b.frozen:
            continue
        if value_partition(cards, b.value, vals) is None:
            continue
        if best is None or (len(fixed), fixed) < (len(best), best):
            best = fixed
    assert best is not None, f"no grouping of {b}"
    return Build(b.value, cards, 1 << b.owner, b.frozen, best, creator=b.creator)


# -- the house variant's insisting (docs/rules.md §3.25, AMB-68) ------------------------------

def capture_value(turn: Turn) -> int:
    """The value the turn's capture took (its least step sequence's), 0 for none."""
    return next((st.value for st in turn.steps if st.kind == "capture"), 0)


def insist_targets(turn: Turn, start: Table, mover_team: int, cr: CompoundRules
                   ) -> tuple[int, tuple[int, ...]]:
    """What insisting may extend after a turn from ``start``: the value its capture took (0
    for none) and the values of the augmented builds it left to the mover's team,
    ascending: the frozen builds (of two or more groups) the turn made or changed. (A turn
    is its end state, and a build of two groups made at once is the same state as one
    group made and then augmented.)"""
    return insist_values(capture_value(turn), turn.table, start, mover_team, cr)


def insist_values(v: int, end: Table, start: Table, mover_team: int, cr: CompoundRules
                  ) -> tuple[int, tuple[int, ...]]:
    """:func:`insist_targets` of a turn that leaves ``end`` and captures at value ``v``."""
    augmented = {b.value for b in end.builds
                 if b.frozen and cr.team(b.owner) == mover_team and b not in start.builds}
    return v, tuple(sorted(augmented - {v}))


def canonical_key(end: Table, start: Table, mover: int, capture: tuple[int, ...],
                  capturing: int) -> tuple[int, ...]:
    """The key of a turn's end table in the canonical order of turns, the order in which
    random hands (``State.playout``, ``random_hand``, ``playouts``) number them, the same
    in the core: the mover's hand, the loose cards, the captured cards (``capture``) and
    the capturing card (-1 for none), the claims, how many cards each pile lost, then the
    builds, how many and each by cards, value, owner, frozen, creator (as card masks)."""
    depths = [max(len(a) - len(b), 0) for a, b in zip(start.piles, end.piles, strict=True)]
    out = [_mask(end.hands[mover]), _mask(end.loose), _mask(capture), capturing,
           sum(1 << (seat * 16 + v) for seat, v in end.claims), *depths,
           *[0] * (4 - len(depths)), len(end.builds)]
    for b in sorted(end.builds, key=lambda b: _mask(b.cards)):
        out += [_mask(b.cards), b.value, b.owner, int(b.frozen), b.creator]
    return tuple(out)


def extensions(cr: CompoundRules, loose: frozenset[int], builds: tuple[TurnBuild, ...],
               v: int, augmented: tuple[int, ...]) -> list[dict[int, tuple[int, ...]]]:
    """The maximal extensions of a capture of value ``v`` (0: none) and of augments of the
    builds of values ``augmented``: each a map from target (0 for the capture, else the
    build's value) to the loose cards it adds, ascending, in disjoint groups totalling the
    target's value, such that no further group fits; every build of value ``v`` joins the
    capture. Empty when nothing can be added (the turn was maximal). The extensions differ
    in what goes where, listed in order of their cards."""
    targets = ([(0, v)] if v else []) + [(w, w) for w in augmented]
    cards = sorted(loose)
    groups: list[tuple[int, int]] = []      # (target, card mask)
    for k in range(1, len(cards) + 1):
        for sub in combinations(cards, k):
            total = _sums(cr, sub)
            for key, value in targets:
                if value in total:
                    groups.append((key, _mask(sub)))
    taken_builds = bool(v) and any(b.value == v for b in builds)
    if not groups and not taken_builds:
        return []
    found: dict[tuple[tuple[int, int], ...], dict[int, tuple[int, ...]]] = {}

    def grow(start: int, used: int, chosen: dict[int, int]) -> None:
        if not any(not used & g for _, g in groups):
            key = tuple(sorted(chosen.items()))
            found.setdefault(key, {t: tuple(bits(m)) for t, m in sorted(chosen.items())})
            return
        for i in range(start, len(groups)):
            target, g = groups[i]
            if not used & g:
                grow(i + 1, used | g, {**chosen, target: chosen.get(target, 0) | g})

    grow(0, 0, {})
    # (a family that stopped early, with a group still fitting, is not maximal: grow only
    # records families no group can join)
    out = list(found.values())
    if taken_builds and not out:
        out = [{}]
    return sorted(out, key=lambda e: sorted((t, c) for t, c in e.items()))


def compound_score(r: Rules, piles: Sequence[Sequence[int]]) -> HandScore:
    """The strict tally of §3.22 of a hand's ``piles``: most cards and most spades 2 (tied
    teams 1 each), the Spy Two 2S 1, the Big Ten 10S 2, each ace 1 (the house variant's
    categories in its deck, §3.25)."""
    italian = "italian" in r.mechanics
    names = _ITALIAN_CATEGORY if italian else _CATEGORY
    events = tuple(
        (names[name], t, points)
        for name, teams, points in hand_tally(tuple(tuple(p) for p in piles), italian)
        for t in teams
    )
    return HandScore(r.num_teams, events)


def table_fields(t: Table, r: Rules) -> tuple[list[int], int, list[Build], list[list[int]]]:
    """A turn's table as a position's hands, loose cards, builds and piles."""
    return ([_mask(h) for h in t.hands], _mask(t.loose),
            sorted(position_build(b, r) for b in t.builds), [list(p) for p in t.piles])


class African(StateBase):
    """The compound turns of :class:`cassino.reference.State`."""

    def _one_order_rules(self) -> CompoundRules:
        """The turn generator's rules with a capture's cards in one order (ascending under
        the capturing card): turns are searched so, the orders of AMB-62 applied after."""
        return replace(compound_rules(self.rules), pile_order="one")

    def _turn_table(self) -> Table:
        """The state as the turn generator's :class:`Table`."""
        return Table(
            hands=tuple(frozenset(bits(h)) for h in self.hands),
            loose=frozenset(bits(self.loose)),
            builds=tuple(sorted(turn_build(b) for b in self.builds)),
            piles=tuple(tuple(p) for p in self.piles),
            claims=frozenset(self.claims),
        )

    def _base_turns(self) -> list[tuple[Turn, int]]:
        """The seat to move's turns with the captured cards in one order (ascending under
        the capturing card), each with the number of orders the rules give it (AMB-62), in
        the generator's order; kept while the state is unchanged (the reference's generator
        is slow). A turn's later steps never read the mover's own pile, so the orders of
        the captured cards multiply the turns (docs/architecture.md §9.4)."""
        key = self._turn_key()
        cached: tuple[object, list[tuple[Turn, int]]] | None = getattr(self, "_turn_cache", None)
        if cached is not None and cached[0] == key:
            return cached[1]
        out: list[tuple[Turn, int]] = []
        if not self.is_over and not self.insist:
            r = self._one_order_rules()
            maximal = self.rules.capture_extent == "maximal"
            team = r.team(self.to_move)
            start = self._turn_table()
            for t in turns(r, start, self.to_move):
                if maximal and extensions(r, t.table.loose, t.table.builds,
                                          *insist_targets(t, start, team, r)):
                    continue         # (capture_extent=maximal: only maximal turns, AMB-68)
                out.append((t, _num_orders(self.rules, len(_captured(t)))))
        self._turn_cache = (key, out)
        return out

    def _turn_key(self) -> tuple[object, ...]:
        """What the seat to move's turns depend on (the position's turn part)."""
        return (self.to_move, tuple(self.hands), self.loose, tuple(self.builds),
                tuple(tuple(p) for p in self.piles), tuple(self.claims))

    def _listed_turns(self) -> list[tuple[Turn, int]] | None:
        """:meth:`_base_turns` if they are listed for the position as it is, else None."""
        cached: tuple[object, list[tuple[Turn, int]]] | None = self.__dict__.get("_turn_cache")
        return cached[1] if cached is not None and cached[0] == self._turn_key() else None

    @property
    def _made(self) -> dict[Move, Turn]:
        """The turns made into moves for the position as it is (listed or read), each
        move's turn for its push."""
        key = self._turn_key()
        made: tuple[object, dict[Move, Turn]] | None = self.__dict__.get("_made_for")
        if made is None or made[0] != key:
            made = (key, {})
            self.__dict__["_made_for"] = made
        return made[1]

    def _turn_count(self) -> int:
        if self.insist:
            return len(self._decisions())
        return sum(k for _, k in self._base_turns())

    # -- the insist decision (the house variant with Italian cards, AMB-68) ----------------
    def _decisions(self) -> list[Move]:
        """The moves of a pending insist decision: accept (pass) or insist, in phase insist;
        the maximal extensions, in phase extend."""
        if self.phase == "insist":
            return [Move.pass_turn(), Move.insist()]
        return list(self._extension_moves())

    def _extension_moves(self) -> dict[Move, dict[int, tuple[int, ...]]]:
        """Phase extend: each maximal extension as a move (kind TURN, no hand card: the
        cards added to the capture after ``x``, those added to each augmented build as
        ``+cards=value``) with what it adds where."""
        _, v, *augmented = self.insist
        builds = tuple(b for b in self.builds if v and b.value == v)
        out: dict[Move, dict[int, tuple[int, ...]]] = {}
        for ext in self._extensions():
            steps = []
            takes = 0
            taken = sorted([*ext.get(0, ()), *(c for b in builds for c in bits(b.cards))])
            if taken:
                steps.append("x" + ",".join(card_code(c) for c in taken))
                takes |= _mask(tuple(taken))
            for w in augmented:
                if ext.get(w):
                    steps.append("+" + ",".join(card_code(c) for c in ext[w]) + f"={w}")
                    takes |= _mask(ext[w])
            out[Move(NO_CARD, MoveKind.TURN, takes, 0, (), tuple(steps))] = ext
        return out

    def _extensions(self) -> list[dict[int, tuple[int, ...]]]:
        """The maximal extensions of the pending insist decision (:func:`extensions`)."""
        _, v, *augmented = self.insist
        table = self._turn_table()
        return extensions(compound_rules(self.rules), table.loose, table.builds, v,
                          tuple(augmented))

    def _push_decision(self, m: Move) -> None:
        """Push a move of the insist decision: accept, insist, or an extension."""
        mover, v, *augmented = self.insist
        if self.phase == "insist" and m.kind == MoveKind.INSIST:
            self.phase = "extend"
            self.to_move = mover
            return
        if self.phase == "extend":
            ext = self._extension_moves()[m]
            team = self.rules.team_of(mover)
            pile = self.piles[team]
            taken = [*ext.get(0, ())]
            if v:
                for b in [b for b in self.builds if b.value == v]:
                    taken += bits(b.cards)
                    self.builds.remove(b)
            if taken:
                # (the cards added go under the capturing card, which stays on top, ascending)
                pile[-1:] = [*sorted(taken), pile[-1]]
                self.last_capturer = mover
            r = self.rules
            for w in augmented:
                add = _mask(ext.get(w, ()))
                if add:
                    b = next(b for b in self.builds if b.value == w)
                    grown = TurnBuild(frozenset(bits(b.cards | add)), w, b.owners.bit_length() - 1,
                                      True, b.creator)
                    self.builds[self.builds.index(b)] = position_build(grown, r)
            self.loose &= ~_mask(ext.get(0, ()))
            self.loose &= ~sum(_mask(ext.get(w, ())) for w in augmented)
            self.builds.sort()
        self.phase = "start"
        self.insist = ()
        self.to_move = mover
        self._advance()
        if self.is_over:
            self.claims = []

    def _expand(self, base: Turn, order: tuple[int, ...], keep: bool = True) -> tuple[Move, Turn]:
        """The turn ``base`` with its captured cards in ``order`` (bottom first); with
        ``keep``, remembered for a push of its move (else a push reads the move again)."""
        turn = base
        if len(order) > 1:
            steps = tuple(replace(st, order=order) if st.kind == "capture" else st
                          for st in base.steps)
            team = self.rules.team_of(self.to_move)
            piles = list(base.table.piles)
            pile = piles[team]
            piles[team] = pile[: len(pile) - len(order) - 1] + order + pile[-1:]
            turn = Turn(steps, replace(base.table, piles=tuple(piles)), base.captured)
        m = turn_move(turn)
        if keep:
            self._made[m] = turn
        return m, turn

    def _iter_turns(self) -> Iterator[Move]:
        """Every legal turn, base turn by base turn, each in the orders of its captured
        cards (lexicographic by card id); in bounded memory past ``_KEEP_TURNS`` turns."""
        if self.insist:
            yield from self._decisions()
            return
        keep = self._turn_count() <= _KEEP_TURNS
        for base, _ in self._base_turns():
            for order in _orders(self.rules, _captured(base)):
                yield self._expand(base, order, keep)[0]

    def _turn_moves(self) -> list[Move]:
        return list(self._iter_turns())

    def turns_one_order(self) -> list[Move]:
        """Every legal turn with its captured cards in one order (ascending under the
        capturing card): the turns up to the order of AMB-62, for players that judge what a
        turn takes, not the order it leaves (the built-in greedy and expert players)."""
        if self.insist:
            return self._decisions()
        return [self._expand(base, _captured(base))[0] for base, _ in self._base_turns()]

    def _turn_at(self, index: int) -> Move:
        """The turn at ``index`` of :meth:`_iter_turns`, without listing the others."""
        if not 0 <= index < self._turn_count():
            raise IndexError(f"no move at index {index}: there are {self._turn_count()}")
        if self.insist:
            return self._decisions()[index]
        for base, k in self._base_turns():
            if index < k:
                return self._expand(base, _order_at(self.rules, _captured(base), index))[0]
            index -= k
        raise AssertionError("unreachable")

    def _canonical_at(self, index: int) -> Move:
        """The turn at ``index`` of the canonical order (:func:`canonical_key`), each base
        turn followed by the other orders of its captured cards: the numbering of random
        hands, which the core's generator numbers alike."""
        if self.insist:
            return self._decisions()[index]
        start = self._turn_table()
        keyed = sorted(
            (canonical_key(base.table, start, self.to_move, _captured(base),
                           next((st.card for st in base.steps
                                 if st.kind == "capture" and st.card is not None), -1)),
             i, base, k)
            for i, (base, k) in enumerate(self._base_turns()))
        for _, _, base, k in keyed:
            if index < k:
                return self._expand(base, _order_at(self.rules, _captured(base), index))[0]
            index -= k
        raise IndexError("no move at that index")

    @property
    def _deck(self) -> str | None:
        """The deck whose codes moves are read in (``"italian40"``, else None)."""
        return "italian40" if self.rules.deck == "italian40" else None

    def _parse_turn(self, text: str) -> Move:
        """The legal turn written ``text`` (its steps in any order a legal turn takes)."""
        deck = self._deck
        if self.insist:
            return self._parse_decision(text)
        # (read with the captured cards in one order, the order given after "|" applied
        # after: listing the steps of every order would take k! steps)
        parts = text.split(";")
        given: list[int] = []
        for i, part in enumerate(parts):
            part, bar, order_text = part.partition("|")
            head, x, listed = "".join(part.split()).upper().partition("X")
            try:
                if bar:
                    given = [parse_card(x.strip(), deck) for x in order_text.split(",")]
                if x and head:      # (a capture: its cards in the one order, ascending)
                    taken = sorted(parse_card(code, deck) for code in listed.split(",") if code)
                    if len(taken) > 1:
                        part += "|" + ",".join(card_code(t) for t in taken)
            except CardError as exc:
                raise NotationError(f"turn {text!r}: {exc}") from None
            parts[i] = part
        one = self._one_order_rules()
        builder = self._turn_builder(one)
        turn = parse_turn(one, self._turn_table(), self.to_move, ";".join(parts), deck, builder)
        cards = _captured(turn)
        order = tuple(given) if given else cards
        if not self._order_ok(cards, order):
            raise IllegalMoveError(
                f"illegal move {text}: the cards under the capturing card must be "
                + ("an order of " if self.rules.pile_order == "full" else
                   "ascending but the second (pile_order=second), of ")
                + ",".join(card_code(x) for x in cards) + ", given bottom first after |"
            )
        return self._listed_move(one, turn, builder, text, tuple(given))

    def _listed_move(self, one: CompoundRules, turn: Turn, builder: TurnBuilder, text: str,
                     given: tuple[int, ...]) -> Move:
        """The listed move of the turn ``turn`` (its captured cards ascending), which
        ``builder`` made and ``text`` writes, with its captured cards in the order
        ``given`` (bottom first; ascending when empty). Raises :class:`IllegalMoveError`
        when no legal turn leaves its table."""
        base = self._least_turn(one, turn, builder)
        if base is None:
            raise IllegalMoveError(f"illegal move {text}: no legal turn leaves that table"
                                   + (" (capture_extent=maximal: the turn can take more)"
                                      if self.rules.capture_extent == "maximal" else ""))
        cards = _captured(base)
        return self._expand(base, (given or cards) if len(cards) > 1 else ())[0]

    def _turn_builder(self, one: CompoundRules) -> TurnBuilder:
        """A step builder of the seat to move's turn (the core's State makes its own)."""
        return TurnBuilder(one, self._turn_table(), self.to_move)

    def _least_turn(self, one: CompoundRules, turn: Turn, builder: TurnBuilder) -> Turn | None:
        """The listed turn (its least step sequence, the captured cards ascending) that
        leaves ``turn``'s table, which ``builder`` made; None if it is not legal (with
        ``capture_extent=maximal``, a turn that can take more). The turns listed for the
        position are searched when there are; else only the states that may end there."""
        listed = self._listed_turns()
        if listed is not None:
            want = turn.table.key()
            return next((base for base, _ in listed if base.table.key() == want), None)
        base = self._least_of(one, turn, builder)
        if base is not None and self.rules.capture_extent == "maximal":
            start = self._turn_table()
            if extensions(one, base.table.loose, base.table.builds,
                          *insist_targets(base, start, one.team(self.to_move), one)):
                return None
        return base

    def _least_of(self, one: CompoundRules, turn: Turn, builder: TurnBuilder) -> Turn | None:
        return least_turn(one, self._turn_table(), self.to_move, turn.table)

    def _one_order(self, table: Table, order: tuple[int, ...]) -> tuple[object, ...]:
        """The key of ``table`` with the captured cards ``order`` put in ascending order."""
        if len(order) <= 1:
            return table.key()
        team = self.rules.team_of(self.to_move)
        piles = list(table.piles)
        pile = piles[team]
        piles[team] = pile[: len(pile) - len(order) - 1] + tuple(sorted(order)) + pile[-1:]
        return replace(table, piles=tuple(piles)).key()

    def _parse_decision(self, text: str) -> Move:
        """The move of the pending insist decision written ``text`` (``pass``, ``insist``,
        or an extension: its steps in any order, each step's cards in any order)."""
        deck = self._deck

        def key(t: str) -> frozenset[tuple[object, ...]]:
            try:
                return frozenset(_canon(part, deck) for part in t.split(";") if part.strip())
            except CardError as exc:
                raise NotationError(f"{text!r}: {exc}") from None

        wanted = key(text) if ";" in text or any(ch in text for ch in "xX+") else None
        for m in self._decisions():
            if wanted is None and str(m) == "".join(text.split()).lower():
                return m
            if wanted is not None and m.kind == MoveKind.TURN and key(str(m)) == wanted:
                return m
        listed = ", ".join(str(m) for m in self._decisions())
        raise IllegalMoveError(f"illegal move {text}: an insist decision is pending "
                               f"(phase {self.phase}): the moves are {listed}")

    def _resolve_turn(self, move: Move) -> Move:
        if self.insist:
            if move in self._decisions():
                return move
            if move.kind not in (MoveKind.PASS, MoveKind.INSIST, MoveKind.TURN):
                raise IllegalMoveError(f"illegal move {move}: an insist decision is pending "
                                       f"(phase {self.phase})")
            return self._parse_decision(str(move))
        if move in self._made:
            return move
        try:
            return self._parse_turn(str(move))
        except NotationError as exc:
            raise IllegalMoveError(f"illegal move {move}: {exc}") from None

    def _push_turn(self, m: Move, seat: int) -> None:
        if self.insist:
            self._push_decision(m)
            return
        # (the start table matters only to the insist decision)
        start = self._turn_table() if self.rules.capture_extent == "opponent_insist" else None
        turn = self._turn_of(m)
        v = capture_value(turn)
        self._take_table(turn.table, turn.captured, seat, v, start)

    def _turn_of(self, m: Move) -> Turn:
        """The :class:`Turn` of the legal turn ``m``: its steps and the table it leaves."""
        turn = self._made.get(m)
        if turn is None:
            turn = self._made[self._parse_turn(str(m))]
        return turn

    def turn_table(self, move: Move) -> Table:
        """The table (hands, loose cards, builds, piles, claims) the legal turn ``move``
        leaves, without playing it: what a player judges a turn by. Raises
        :class:`IllegalMoveError` for a move that is no legal turn here (an insist decision
        pending included)."""
        if self.insist or move.kind != MoveKind.TURN:
            raise IllegalMoveError(f"illegal move {move}: no turn of the seat to move")
        return self._turn_of(self._resolve_turn(move)).table

    def _take_table(self, t: Table, captured: bool, seat: int, v: int,
                    start: Table | None) -> None:
        """Take over the table ``t`` a turn of ``seat`` from ``start`` leaves (``v``: the
        value its capture took, 0 for none; ``start`` None but under the insist rules),
        then the insist decision or the next seat."""
        self.hands, self.loose, self.builds, self.piles = table_fields(t, self.rules)
        self.claims = sorted(t.claims)
        self._after_turn(captured, seat, v, start, t)

    def _after_turn(self, captured: bool, seat: int, v: int, start: Table | None,
                    t: Table | None = None) -> None:
        """After a turn of ``seat`` from ``start`` that left the state's table (``t``, read
        from the state when not given; ``start`` None but under the insist rules): the
        insist decision or the next seat."""
        r = self.rules
        if captured:
            self.last_capturer = seat
        if self.rules.capture_extent == "opponent_insist":
            assert start is not None, "the insist rules judge a turn from its start table"
            t = t if t is not None else self._turn_table()
            cr = compound_rules(self.rules)
            v, augmented = insist_values(v, t, start, r.team_of(seat), cr)
            if extensions(cr, t.loose, t.builds, v, augmented):
                # (a capture or augment short of maximal: the next seat may insist, AMB-68)
                self.phase = "insist"
                self.insist = (seat, v, *augmented)
                self.to_move = (seat + (1 if r.direction == "cw" else -1)) % r.players
                return
        self._advance()
        if self.is_over:
            self.claims = []

    # -- the step interface (docs/architecture.md §9.4) ------------------------------------
    def _step_builder(self) -> tuple[TurnBuilder, list[tuple[int, ...] | None]]:
        """The turn being made step by step, and the order given to each capture step;
        a new one once the state changed. An insist decision is no turn: its moves are
        pushed whole (IllegalMoveError)."""
        if self.insist:
            raise IllegalMoveError(
                f"an insist decision is pending (phase {self.phase}): push one of its moves, "
                + ", ".join(str(m) for m in self._decisions()) + "; steps build turns")
        key = (self._version, self.to_move, tuple(self.hands), self.loose, tuple(self.builds),
               tuple(tuple(p) for p in self.piles))     # (every push and pop: a new turn)
        made: tuple[object, TurnBuilder, list[tuple[int, ...] | None]] | None = getattr(
            self, "_step_turn", None)
        if made is None or made[0] != key:
            one = self._one_order_rules()
            made = (key, self._turn_builder(one), [])
            self._step_turn = made
        return made[1], made[2]

    def legal_steps(self) -> list[str]:
        """The steps that can continue the turn being made (:meth:`push_step`), each one
        that some legal turn continues: the interface has no dead ends. A capture of two or
        more cards is listed with them in ascending order under the capturing card (after
        ``|``); :meth:`push_step` takes any order the rules allow (AMB-62)."""
        if not self.rules.compound:
            raise IllegalMoveError(f"{self.rules.system} has no compound turns: push whole moves")
        return [st.notation() for st in self._step_builder()[0].legal_steps()]

    def push_step(self, text: str) -> str:
        """Make the step written ``text`` (docs/format.md §4, a free step or the hand-card
        step); returns it as listed. Raises :class:`IllegalMoveError` if no legal turn
        continues it; the turn is unchanged then."""
        builder, orders = self._step_builder()
        if not isinstance(text, str):
            raise NotationError(f"a step is written as text, not {type(text).__name__}")
        part, bar, order_text = text.partition("|")
        deck = self._deck
        try:
            given = tuple(parse_card(x.strip(), deck) for x in order_text.split(",")) if bar else None
            head, x, listed = "".join(part.split()).upper().partition("X")
            if x and head:
                taken = sorted(parse_card(code, deck) for code in listed.split(",") if code)
                if len(taken) > 1:
                    part += "|" + ",".join(card_code(t) for t in taken)
            wanted = _canon(part, deck)
        except CardError as exc:
            raise NotationError(f"step {text!r}: {exc}") from None
        done = "; ".join(st.notation() for st in builder.steps)
        step = builder.push_written(wanted, deck)
        if step is None:
            why = builder.stuck_reason(wanted, deck) or _step_trouble(
                builder.state, self.to_move, self.rules.team_of(self.to_move), wanted, deck)
            raise IllegalMoveError(f"step {text.strip()!r} is not a step of a legal turn here"
                                   + (f" after {done}" if done else "")
                                   + (f": {why}" if why else ""))
        cards = tuple(sorted(step.order)) if step.kind == "capture" else ()
        if given is not None and not self._order_ok(cards, given):
            builder.pop_step()
            raise IllegalMoveError(
                f"step {text.strip()!r}: the cards under the capturing card must be "
                + ("an order of " if self.rules.pile_order == "full" else
                   "ascending but the second (pile_order=second), of ")
                + ",".join(card_code(c) for c in cards)
            )
        orders.append(given if given is not None and len(cards) > 1 else None)
        return self._step_text(step, orders[-1])

    def _order_ok(self, cards: tuple[int, ...], order: tuple[int, ...]) -> bool:
        """Whether ``order`` (bottom first) is an order the rules give the cards ``cards``
        (ascending) a capture puts under its capturing card (AMB-62)."""
        if sorted(order) != list(cards):
            return False
        return self.rules.pile_order == "full" or list(order[:-1]) == sorted(order[:-1])

    @staticmethod
    def _step_text(step: Step, order: tuple[int, ...] | None) -> str:
        if order is None:
            return step.notation()
        return replace(step, order=order).notation()

    def pop_step(self) -> str:
        """Take back the last step of the turn being made and return it."""
        builder, orders = self._step_builder()
        if not builder.steps:
            raise IndexError("no step of this turn to take back")
        order = orders.pop()
        return self._step_text(builder.pop_step(), order)

    @property
    def turn_steps(self) -> list[str]:
        """The steps of the turn being made so far."""
        builder, orders = (self._step_builder() if self.rules.compound and not self.insist
                           else (None, []))
        if builder is None:
            return []
        return [self._step_text(st, o) for st, o in zip(builder.steps, orders, strict=True)]

    def can_end_turn(self) -> bool:
        """Whether the steps made are a legal turn (a hand card played, the turn's end
        rules kept)."""
        return bool(self.rules.compound) and not self.insist and self._step_builder()[0].can_end()

    def end_turn(self) -> Move:
        """Push the turn of the steps made; returns its move. Raises
        :class:`IllegalMoveError` while they are not a legal turn."""
        return self.push(self._steps_move())

    def _steps_move(self) -> Move:
        """The listed move of the turn of the steps made, as :meth:`parse_move` of their
        notation gives it, found from the step builder's state instead of reading the steps
        again. Raises :class:`IllegalMoveError` while they are not a legal turn."""
        builder, orders = self._step_builder()
        if not builder.can_end():
            raise IllegalMoveError("the turn is not finished: " + builder.why_not_end())
        one = self._one_order_rules()
        given = next((o for o in orders if o is not None), ())
        return self._listed_move(one, builder.end_turn(), builder, "; ".join(self.turn_steps),
                                 given)

    def _compound_score(self) -> HandScore:
        """The strict tally of §3.22 of the state's piles (:func:`compound_score`)."""
        return compound_score(self.rules, self.piles)
