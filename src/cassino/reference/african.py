"""African Cassino's compound turns in :class:`cassino.reference.State` (docs/rules.md
§3.22-§3.24, AMB-59 to AMB-64): a move is a whole turn (:class:`cassino.Move` of kind
``TURN``), listed by the turn generator of :mod:`cassino.reference.compound` from the state's
table, and pushed by taking over the table the turn leaves. Not in the core yet."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import permutations
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
    african_values,
    hand_tally,
    parse_turn,
    turns,
)

__all__ = ["African", "compound_rules", "turn_move"]

_RULES: dict[Rules, CompoundRules] = {}
# the listed turns a state remembers for their push (more are streamed, and read again)
_KEEP_TURNS = 1 << 16

# hand_tally's categories as the categories of cassino.scoring
_CATEGORY = {
    "most_cards": "cards", "most_spades": "spades", "spy_two": "spy_two", "big_ten": "big_ten",
    "ace_0": "ace_spades", "ace_1": "ace_clubs", "ace_2": "ace_hearts", "ace_3": "ace_diamonds",
}


def compound_rules(r: Rules) -> CompoundRules:
    """What the turn generator needs of ``r`` (an African Cassino system)."""
    out = _RULES.get(r)
    if out is None:
        teams = tuple(r.team_of(s) for s in range(r.players)) if r.teams == "partnership" else ()
        out = _RULES[r] = CompoundRules(
            players=r.players, teams=teams, two_player=r.obligation == "african_2p",
            pile_order=r.pile_order, max_value=r.build_max_value, values=african_values,
            partner_claims=r.partner_builds,
            table_create_replaces_card=r.table_only_build == "turn",
            pile_cards_per_turn=r.pile_cards_per_turn,
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


def position_build(b: TurnBuild, r: Rules) -> Build:
    """A build of a turn's table as a :class:`cassino.position.Build`: one owner, multiple
    when frozen (several groups), and its aces fixed at 14 where a grouping needs it (the
    fewest such aces)."""
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


class African(StateBase):
    """The compound turns of :class:`cassino.reference.State`."""

    def _turn_table(self) -> Table:
        """The state as the turn generator's :class:`Table`."""
        return Table(
            hands=tuple(frozenset(bits(h)) for h in self.hands),
            loose=frozenset(bits(self.loose)),
            builds=tuple(sorted(
                TurnBuild(frozenset(bits(b.cards)), b.value, b.owners.bit_length() - 1, b.multiple,
                          b.creator)
                for b in self.builds
            )),
            piles=tuple(tuple(p) for p in self.piles),
            claims=frozenset(self.claims),
        )

    def _base_turns(self) -> list[tuple[Turn, int]]:
        """The seat to move's turns with the captured cards in one order (ascending under
        the capturing card), each with the number of orders the rules give it (AMB-62), in
        the generator's order; kept while the state is unchanged (the reference's generator
        is slow). A turn's later steps never read the mover's own pile, so the orders of
        the captured cards multiply the turns (docs/architecture.md §9.4)."""
        key = (self.to_move, tuple(self.hands), self.loose, tuple(self.builds),
               tuple(tuple(p) for p in self.piles), tuple(self.claims))
        cached: tuple[object, list[tuple[Turn, int]]] | None = getattr(self, "_turn_cache", None)
        if cached is not None and cached[0] == key:
            return cached[1]
        out: list[tuple[Turn, int]] = []
        if not self.is_over:
            r = replace(compound_rules(self.rules), pile_order="one")
            for t in turns(r, self._turn_table(), self.to_move):
                out.append((t, _num_orders(self.rules, len(_captured(t)))))
        self._turn_cache = (key, out)
        self._made: dict[Move, Turn] = {}
        return out

    def _turn_count(self) -> int:
        return sum(k for _, k in self._base_turns())

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
        return [self._expand(base, _captured(base))[0] for base, _ in self._base_turns()]

    def _turn_at(self, index: int) -> Move:
        """The turn at ``index`` of :meth:`_iter_turns`, without listing the others."""
        if not 0 <= index < self._turn_count():
            raise IndexError(f"no move at index {index}: there are {self._turn_count()}")
        for base, k in self._base_turns():
            if index < k:
                return self._expand(base, _order_at(self.rules, _captured(base), index))[0]
            index -= k
        raise AssertionError("unreachable")

    def _parse_turn(self, text: str) -> Move:
        """The legal turn written ``text`` (its steps in any order a legal turn takes)."""
        # (read with the captured cards in one order, the order given after "|" applied
        # after: listing the steps of every order would take k! steps)
        parts = text.split(";")
        given: list[int] = []
        for i, part in enumerate(parts):
            part, bar, order_text = part.partition("|")
            head, x, listed = "".join(part.split()).upper().partition("X")
            try:
                if bar:
                    given = [parse_card(x.strip()) for x in order_text.split(",")]
                if x and head:      # (a capture: its cards in the one order, ascending)
                    taken = sorted(parse_card(code) for code in listed.split(",") if code)
                    if len(taken) > 1:
                        part += "|" + ",".join(card_code(t) for t in taken)
            except CardError as exc:
                raise NotationError(f"turn {text!r}: {exc}") from None
            parts[i] = part
        one = replace(compound_rules(self.rules), pile_order="one")
        turn = parse_turn(one, self._turn_table(), self.to_move, ";".join(parts))
        cards = _captured(turn)
        order = tuple(given) if given else cards
        if len(cards) > 1 and not self._order_ok(cards, order):
            raise IllegalMoveError(
                f"illegal move {text}: the cards under the capturing card must be "
                + ("an order of " if self.rules.pile_order == "full" else
                   "ascending but the second (pile_order=second), of ")
                + ",".join(card_code(x) for x in cards) + ", given bottom first after |"
            )
        want = turn.table.key()
        for base, _ in self._base_turns():
            if base.table.key() == want:
                return self._expand(base, order if len(cards) > 1 else ())[0]
        raise IllegalMoveError(f"illegal move {text}: no legal turn leaves that table")

    def _one_order(self, table: Table, order: tuple[int, ...]) -> tuple[object, ...]:
        """The key of ``table`` with the captured cards ``order`` put in ascending order."""
        if len(order) <= 1:
            return table.key()
        team = self.rules.team_of(self.to_move)
        piles = list(table.piles)
        pile = piles[team]
        piles[team] = pile[: len(pile) - len(order) - 1] + tuple(sorted(order)) + pile[-1:]
        return replace(table, piles=tuple(piles)).key()

    def _resolve_turn(self, move: Move) -> Move:
        self._base_turns()
        if move in self._made:
            return move
        try:
            return self._parse_turn(str(move))
        except NotationError as exc:
            raise IllegalMoveError(f"illegal move {move}: {exc}") from None

    def _push_turn(self, m: Move, seat: int) -> None:
        self._base_turns()
        turn = self._made.get(m)
        if turn is None:
            turn = self._made[self._parse_turn(str(m))]
        t = turn.table
        r = self.rules
        self.hands = [_mask(h) for h in t.hands]
        self.loose = _mask(t.loose)
        self.builds = sorted(position_build(b, r) for b in t.builds)
        self.piles = [list(p) for p in t.piles]
        self.claims = sorted(t.claims)
        if turn.captured:
            self.last_capturer = seat
        self._advance()
        if self.is_over:
            self.claims = []

    # -- the step interface (docs/architecture.md §9.4) ------------------------------------
    def _step_builder(self) -> tuple[TurnBuilder, list[tuple[int, ...] | None]]:
        """The turn being made step by step, and the order given to each capture step;
        a new one once the state changed."""
        key = (len(self._history), self.to_move, tuple(self.hands), self.loose)
        made: tuple[object, TurnBuilder, list[tuple[int, ...] | None]] | None = getattr(
            self, "_step_turn", None)
        if made is None or made[0] != key:
            one = replace(compound_rules(self.rules), pile_order="one")
            made = (key, TurnBuilder(one, self._turn_table(), self.to_move), [])
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
        try:
            given = tuple(parse_card(x.strip()) for x in order_text.split(",")) if bar else None
            head, x, listed = "".join(part.split()).upper().partition("X")
            if x and head:
                taken = sorted(parse_card(code) for code in listed.split(",") if code)
                if len(taken) > 1:
                    part += "|" + ",".join(card_code(t) for t in taken)
            wanted = _canon(part)
        except CardError as exc:
            raise NotationError(f"step {text!r}: {exc}") from None
        match = [st for st in builder.legal_steps() if _canon(st.notation()) == wanted]
        if not match:
            done = "; ".join(st.notation() for st in builder.steps)
            raise IllegalMoveError(f"step {text.strip()!r} is not a step of a legal turn here"
                                   + (f" after {done}" if done else ""))
        step = match[0]
        cards = tuple(sorted(step.order)) if step.kind == "capture" else ()
        if given is not None and len(cards) > 1 and not self._order_ok(cards, given):
            raise IllegalMoveError(
                f"step {text.strip()!r}: the cards under the capturing card must be "
                + ("an order of " if self.rules.pile_order == "full" else
                   "ascending but the second (pile_order=second), of ")
                + ",".join(card_code(c) for c in cards)
            )
        builder.push_step(step)
        orders.append(given if given is not None and len(cards) > 1 else None)
        return self._step_text(step, orders[-1])

    def _order_ok(self, cards: tuple[int, ...], order: tuple[int, ...]) -> bool:
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
        builder, orders = self._step_builder() if self.rules.compound else (None, [])
        if builder is None:
            return []
        return [self._step_text(st, o) for st, o in zip(builder.steps, orders, strict=True)]

    def can_end_turn(self) -> bool:
        """Whether the steps made are a legal turn (a hand card played, the turn's end
        rules kept)."""
        return bool(self.rules.compound) and self._step_builder()[0].can_end()

    def end_turn(self) -> Move:
        """Push the turn of the steps made; returns its move. Raises
        :class:`IllegalMoveError` while they are not a legal turn."""
        builder, _ = self._step_builder()
        if not builder.can_end():
            raise IllegalMoveError("the turn is not finished: " + (
                "a hand card must be played" if not builder.state.played
                else "an end-of-turn rule is broken"))
        return self.push("; ".join(self.turn_steps))

    def _compound_score(self) -> HandScore:
        """The strict tally of §3.22: most cards and most spades 2 (tied teams 1 each), the
        Spy Two 2S 1, the Big Ten 10S 2, each ace 1."""
        events = tuple(
            (_CATEGORY[name], t, points)
            for name, teams, points in hand_tally(tuple(tuple(p) for p in self.piles))
            for t in teams
        )
        return HandScore(self.rules.num_teams, events)
