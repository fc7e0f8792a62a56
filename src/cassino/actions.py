"""A fixed action space for learning agents: every move as a short sequence of sub-actions.

A move of the Cassino family is a hand card, a set of table cards and sometimes a declared
value, so whole moves are too many to number. :class:`ActionSpace` numbers *sub-actions*
instead, the same for every position of a system, and a move is the sequence

    head, TAKE(c) for each card of ``Move.takes`` in id order, ALT(c) ..., finish

=================  ==========  ======================================================
action id          name        meaning
=================  ==========  ======================================================
``c``              PLAY(c)     play hand card ``c`` (the move's ``card``); the head
``N + c``          TAKE(c)     the move's takes include card ``c``: a table card (or,
                               in a Callabra two-card capture, the second hand card);
                               a pluck is ``TAKE(c)`` with no head, then PLUCK
``2N + c``         ALT(c)      card ``c`` counts at its second value in the build (Royal
                               ace 14, Buckeye 10D 11); only where a system has builds
                               and multi-valued cards
``F + 0``          TRAIL       finish: trail the card played
``F + 1``          CAPTURE     finish: capture the takes with it
``F + 2``          TWO_CARD    finish: a Callabra two-card capture
``F + 3``          PLUCK       finish: pluck the one card taken (opt_pluck)
``F + 4``          PASS        the whole move ``pass`` (opt_pluck)
``F + 4 + v``      BUILD(v)    finish: build (or augment, or increase) to value ``v``,
                               ``v`` from 1 to ``max_value``
``F + 5 + max``    STEAL       finish: take the bundle (and loose cards) of the takes
                               (Stealing Bundles; only where a system has steals)
``D + v - 2``      DECLARE(v)  finish: capture the takes with a joker played as ``v``,
                               2 to 14 (Zwickern with jokers; ``D`` follows the rest)
``L + s``          PAIR(s)     finish: the card played and the hand card of its rank and
                               suit ``s`` (0-3, S H D C) take the two table cards of the
                               takes (Laugh and Lie Down; ``L`` follows the rest)
``L + 4``          LIE_DOWN    the whole move ``down``
``L + 5``          BANK        finish: bank the cards of the takes (no head, as a pluck)
=================  ==========  ======================================================

``N`` is ``Rules.num_ids`` (52, or 104 for Mulle's double deck) and ``F`` the first finish
id (``2N``, or ``3N`` with the ALT block). Takes come in increasing card id order, ALT cards
too, so every move has exactly one sequence, and the finish is last and only last, so no
sequence is the prefix of another. :class:`MoveBuilder` follows a sequence through the legal
moves of a position: its legal actions are exactly the next sub-actions of the legal moves
that extend the prefix, so every legal prefix completes to a legal move and every legal move
is reachable; the completed sequence gives the very ``Move`` of ``legal_moves()`` (augment
and increase included, which notation does not spell either).

The compound systems (African Cassino, the Italian house variant) have a layout of their own
(:class:`ActionSpace` with ``compound`` true, docs/adapters.md): a turn is made step by step
as the State's step interface makes it (``legal_steps``, ``push_step``), each step a sequence

    PLAY(i) or FREE, TAKE(i) for each table card the step takes or gathers, [OWNER(s)], finish

then UNDER(i) picks for the order of a capture's cards under the capturing card, and END
ends the turn; ``i`` is a card's index in the deck (0-51, or 0-39 for the Italian deck).
:class:`TurnBuilder` follows it through the State's steps; ``PASS`` and ``INSIST`` answer an
insist decision.

>>> import cassino
>>> space = ActionSpace(cassino.rules("cassino_standard"))
>>> space.num_actions, space.describe(7), space.describe(52 + 7), space.describe(104 + 1)
(123, 'play 2C', 'take 2C', 'capture')
>>> space.encode(Move.parse("9Dx4C,5D"))
(34, 67, 70, 105)
>>> state = cassino.new_hand("cassino_standard", seed=7)
>>> b = MoveBuilder(space, state.legal_moves())
>>> move = None
>>> while move is None:
...     move = b.apply(b.legal_actions()[0])
>>> move in state.legal_moves()
True
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable, Sequence
from typing import Any

from .cards import card_code, parse_card
from .errors import CardError, CassinoError, IllegalMoveError, NotationError
from .moves import NO_CARD, Move, MoveKind, _first_value
from .rules import Rules

__all__ = ["ActionSpace", "MoveBuilder", "TurnBuilder", "builder_for"]

# finish offsets from ActionSpace.finish
TRAIL, CAPTURE, TWO_CARD, PLUCK, PASS = range(5)
# the compound systems' offsets from ActionSpace.finish (then OWNER(s), BUILD(v), UNDER(i))
C_TRAIL, C_CAPTURE, C_PASS, C_INSIST, C_END, C_FREE, C_OWNER = range(7)
_FINISH_OF_KIND = {
    MoveKind.TRAIL: TRAIL,
    MoveKind.CAPTURE: CAPTURE,
    MoveKind.TWO_CARD: TWO_CARD,
    MoveKind.PLUCK: PLUCK,
}
_BUILD_KINDS = (MoveKind.BUILD, MoveKind.AUGMENT, MoveKind.INCREASE)


class ActionSpace:
    """The sub-action ids of a system (see the module docstring for the layout).

    ``num_actions`` is fixed by the rules: 123 for the 52-card systems without
    multi-valued builds, 175 with them (Royal, Buckeye), 213 for Mulle. With opt_esun an
    Esun's value is its cards' total, so ``max_value`` is the deck's numeric total (220).
    """

    __slots__ = ("alt", "cards", "compound", "declare", "finish", "index", "laugh",
                 "max_value", "num_actions", "num_ids", "owner", "rules", "steal", "take",
                 "under")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.compound = bool(rules.compound)
        self.cards = [c for c in range(rules.num_ids) if rules.deck_mask >> c & 1]
        self.index = {c: i for i, c in enumerate(self.cards)}
        self.owner = self.under = -1
        if self.compound:
            self._compound_layout()
            return
        n = rules.num_ids
        builds = rules.build_kinds != "none" or rules.esun
        self.num_ids = n
        self.take = n
        self.alt = 2 * n if builds and rules.multi_valued else -1
        self.finish = 3 * n if self.alt >= 0 else 2 * n
        self.max_value = max(14, rules.build_max_value) if builds else 0
        if rules.esun:
            # an Esun's value is its cards' total: up to every numeric card of the deck
            self.max_value = sum(min(c % 52 // 4 + 1, 10) for c in range(52) if c % 52 // 4 < 10)
        steals = rules.pile_access == "steal_pile"
        self.steal = self.finish + 5 + self.max_value if steals else -1
        self.num_actions = self.finish + 5 + self.max_value + (1 if steals else 0)
        # Zwickern's jokers are played as a value: their captures finish with DECLARE(v)
        self.declare = -1
        if rules.jokers and "zwickern" in rules.mechanics:
            self.declare = self.num_actions
            self.num_actions += 13
        # Laugh and Lie Down: pair captures, the lie-down and banks
        self.laugh = -1
        if rules.laugh:
            self.laugh = self.num_actions
            self.num_actions += 6

    def _compound_layout(self) -> None:
        """The compound systems' ids: PLAY(i), TAKE(i) over the deck's ``N`` cards (``i`` a
        card's index in ``cards``), then TRAIL, CAPTURE, PASS, INSIST, END, FREE, OWNER(s)
        for each seat, BUILD(v) for ``v`` from 1 to ``max_value``, and UNDER(i)."""
        r = self.rules
        n = len(self.cards)
        self.num_ids = n
        self.take = n
        self.finish = 2 * n
        self.alt = self.steal = self.declare = self.laugh = -1
        self.max_value = max(14, r.build_max_value)
        self.owner = self.finish + C_OWNER
        self.under = self.owner + r.players + self.max_value
        self.num_actions = self.under + n

    def __repr__(self) -> str:
        return f"ActionSpace({self.rules.system!r}, num_actions={self.num_actions})"

    def build_action(self, value: int) -> int:
        """BUILD(value): the finish of a build, augment or increase to ``value``."""
        if not 1 <= value <= self.max_value:
            raise CassinoError(f"no build value {value} in this action space (1 to "
                               f"{self.max_value})")
        if self.compound:
            return self.owner + self.rules.players + value - 1
        return self.finish + 4 + value

    # -- compound turns ---------------------------------------------------------------------
    def _card_of(self, code: str) -> int:
        deck = "italian40" if self.rules.deck == "italian40" else None
        c = parse_card(code, deck)
        if c not in self.index:
            raise CardError(f"{code} is no card of {self.rules.system}'s deck")
        return c

    def encode_step(self, text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """A compound turn's step, written as ``Step.notation`` writes it (``9Cx3S,6S|6S,3S``,
        ``+3D,6S=9``, ``3H+AC,5S=9@2``, ``7H``), as (its sequence up to the finish, its UNDER
        picks: the cards under the capturing card from the top down, all but the bottom
        one, or with ``pile_order=second`` only the top one; none below two cards)."""
        if not self.compound:
            raise CassinoError(f"{self.rules.system} has no compound turns")
        try:
            return self._encode_step(text)
        except (ValueError, CardError) as exc:     # (a hand-made Move's steps)
            raise NotationError(f"step {text!r}: {exc}") from None

    def _encode_step(self, text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
        t = "".join(text.split()).upper()
        t, bar, order_text = t.partition("|")
        seq: list[int] = []
        picks: list[int] = []
        if "+" in t:
            hand, _, rest = t.partition("+")
            rest, _, value = rest.partition("=")
            value, at, owner = value.partition("@")
        elif "X" in t:
            hand, _, rest = t.partition("X")
            value = at = owner = ""
        else:
            hand, rest, value, at, owner = t, "", "", "", ""
        seq.append(self.index[self._card_of(hand)] if hand else self.finish + C_FREE)
        for c in sorted(self._card_of(x) for x in rest.split(",") if x):
            seq.append(self.take + self.index[c])
        if value:
            if at:
                seq.append(self.owner + int(owner))
            seq.append(self.build_action(int(value)))
        elif "X" in t:
            seq.append(self.finish + C_CAPTURE)
            order = [self._card_of(x) for x in order_text.split(",")] if bar else []
            if len(order) > 1:
                top_down = order[::-1]
                picks = top_down[:1] if self.rules.pile_order == "second" else top_down[:-1]
        else:
            seq.append(self.finish + C_TRAIL)
        return tuple(seq), tuple(self.under + self.index[c] for c in picks)

    def _encode_compound(self, move: Move) -> tuple[int, ...]:
        if move.kind == MoveKind.PASS:
            return (self.finish + C_PASS,)
        if move.kind == MoveKind.INSIST:
            return (self.finish + C_INSIST,)
        if move.kind != MoveKind.TURN:
            raise CassinoError(f"{move} is no move of {self.rules.system}, whose moves are "
                               "whole turns")
        out: list[int] = []
        for text in move.steps:
            seq, picks = self.encode_step(text)
            out += seq
            out += picks
        out.append(self.finish + C_END)
        return tuple(out)

    def _decode_compound(self, actions: Sequence[int]) -> Move:
        """A turn (its steps' notation, ``takes`` 0 as when read without a position),
        ``pass`` or ``insist``."""
        if not actions:
            raise IllegalMoveError("an empty action sequence is no move")
        f = self.finish
        if tuple(actions) == (f + C_PASS,):
            return Move.pass_turn()
        if tuple(actions) == (f + C_INSIST,):
            return Move(NO_CARD, MoveKind.INSIST, 0, 0)
        if actions[-1] != f + C_END:
            raise IllegalMoveError("a turn's sequence ends with END")
        steps: list[str] = []
        card = NO_CARD
        i = 0
        body = list(actions[:-1])
        while i < len(body):
            a = body[i]
            if a < self.num_ids:
                if card != NO_CARD:
                    raise IllegalMoveError("a turn plays one hand card")
                card = hand = self.cards[a]
                head = card_code(hand)
            elif a == f + C_FREE:
                head = ""
            else:
                raise IllegalMoveError(f"action {a} ({self.describe(a)}) is out of place: "
                                       "a step starts with PLAY or FREE")
            i += 1
            taken: list[int] = []
            while i < len(body) and self.take <= body[i] < self.take + self.num_ids:
                taken.append(self.cards[body[i] - self.take])
                i += 1
            owner = ""
            if i < len(body) and self.owner <= body[i] < self.owner + self.rules.players:
                owner = f"@{body[i] - self.owner}"
                i += 1
            if i == len(body):
                raise IllegalMoveError("a step ends with TRAIL, CAPTURE or BUILD(v)")
            a = body[i]
            i += 1
            cards = ",".join(card_code(c) for c in sorted(taken))
            build = self.owner + self.rules.players
            if build <= a < build + self.max_value:
                steps.append(f"{head}+{cards}={a - build + 1}{owner}")
                continue
            if owner or a not in (f + C_TRAIL, f + C_CAPTURE) or not head:
                raise IllegalMoveError(f"action {a} ({self.describe(a)}) is out of place")
            if a == f + C_TRAIL:
                if taken:
                    raise IllegalMoveError("a trail takes no cards")
                steps.append(head)
                continue
            picks: list[int] = []
            while i < len(body) and self.under <= body[i] < self.under + self.num_ids:
                picks.append(self.cards[body[i] - self.under])
                i += 1
            order = _order(sorted(taken), picks, self.rules.pile_order)
            if order is None:
                raise IllegalMoveError(f"the picks {[card_code(c) for c in picks]} are no "
                                       f"order of the cards taken, {cards}")
            steps.append(f"{head}x{cards}" + ("|" + ",".join(map(card_code, order))
                                             if len(order) > 1 else ""))
        if not steps:
            raise IllegalMoveError("a turn has one or more steps")
        return Move(card, MoveKind.TURN, 0, 0, (), tuple(steps))

    def _describe_compound(self, action: int) -> str:
        n = self.num_ids
        if action < n:
            return f"play {card_code(self.cards[action])}"
        if action < 2 * n:
            return f"take {card_code(self.cards[action - n])}"
        if action >= self.under:
            return f"under {card_code(self.cards[action - self.under])}"
        build = self.owner + self.rules.players
        if action >= build:
            return f"build {action - build + 1}"
        if action >= self.owner:
            return f"for seat {action - self.owner}"
        return ("trail", "capture", "accept", "insist", "end turn", "free step")[action - self.finish]

    def encode(self, move: Move) -> tuple[int, ...]:
        """The sub-action sequence of ``move``."""
        if self.compound:
            return self._encode_compound(move)
        kind = move.kind
        if kind == MoveKind.PASS:
            return (self.finish + PASS,)
        if kind in (MoveKind.PAIR, MoveKind.LIE_DOWN, MoveKind.BANK) and self.laugh < 0:
            raise CassinoError(f"{move} is a Laugh and Lie Down move, which "
                               f"{self.rules.system} has no action for")
        if kind == MoveKind.LIE_DOWN:
            return (self.laugh + 4,)
        seq = [] if kind in (MoveKind.PLUCK, MoveKind.BANK) else [move.card]
        t = move.takes
        take = self.take
        while t:
            low = t & -t
            seq.append(take + low.bit_length() - 1)
            t ^= low
        if kind in _BUILD_KINDS:
            if move.value > self.max_value:
                raise CassinoError(f"{move} declares {move.value}, over this action space's "
                                   f"{self.max_value}")
            if move.fixed:
                if self.alt < 0:
                    raise CassinoError(f"{move} fixes card values, which {self.rules.system} "
                                       "has no actions for")
                for c, v in move.fixed:
                    if v != self.rules.second_value(c):
                        raise CassinoError(f"{move} gives {card_code(c)} the value {v}, not "
                                           "its second value")
                    seq.append(self.alt + c)
            seq.append(self.finish + 4 + move.value)
        elif kind == MoveKind.CAPTURE and move.value:
            if self.declare < 0 or not 2 <= move.value <= 14:
                raise CassinoError(f"{move} declares a joker's value, which "
                                   f"{self.rules.system} has no action for")
            seq.append(self.declare + move.value - 2)
        elif kind == MoveKind.PAIR:
            seq.append(self.laugh + move.value % 4)
        elif kind == MoveKind.BANK:
            seq.append(self.laugh + 5)
        elif kind == MoveKind.STEAL:
            if self.steal < 0:
                raise CassinoError(f"{move} steals a bundle, which {self.rules.system} has no "
                                   "action for")
            seq.append(self.steal)
        else:
            seq.append(self.finish + _FINISH_OF_KIND[kind])
        return tuple(seq)

    def decode(self, actions: Sequence[int]) -> Move:
        """The move of a completed sequence, without a position: build kinds come out as
        ``BUILD`` (:class:`MoveBuilder` gives the position's own move, augment or increase).

        >>> import cassino
        >>> ActionSpace(cassino.rules("cassino_standard")).decode((34, 67, 70, 105))
        Move('9Dx4C,5D')
        """
        if self.compound:
            return self._decode_compound(actions)
        if not actions:
            raise IllegalMoveError("an empty action sequence is no move")
        *body, last = actions
        f = last - self.finish
        declared = 0
        if 0 <= self.laugh <= last < self.laugh + 6:
            return self._decode_laugh(body, last - self.laugh)
        if last == self.steal >= 0:
            f = -1     # (STEAL: after the builds)
        elif 0 <= self.declare <= last < self.declare + 13:
            f, declared = CAPTURE, last - self.declare + 2    # (a joker played as a value)
        elif not 0 <= f < 5 + self.max_value:
            raise IllegalMoveError(f"a sequence must end with a finish action, not {last}")
        if f == PASS:
            if body:
                raise IllegalMoveError("pass is a whole move by itself")
            return Move.pass_turn()
        card = NO_CARD
        takes = 0
        fixed: list[tuple[int, int]] = []
        for i, a in enumerate(body):
            if 0 <= a < self.num_ids and i == 0 and f != PLUCK:
                card = a
            elif self.take <= a < self.take + self.num_ids:
                takes |= 1 << (a - self.take)
            elif self.alt >= 0 and self.alt <= a < self.alt + self.num_ids:
                c = a - self.alt
                fixed.append((c, self.rules.second_value(c)))
            else:
                raise IllegalMoveError(f"action {a} ({self.describe(a)}) is out of place")
        if f == PLUCK:
            return Move.pluck(takes.bit_length() - 1) if takes.bit_count() == 1 else \
                _bad("a pluck takes exactly one card")
        if card == NO_CARD:
            raise IllegalMoveError("a move that plays a card starts with PLAY")
        if f == -1:
            if not takes:
                raise IllegalMoveError("a steal takes a bundle")
            return Move(card, MoveKind.STEAL, takes, 0)
        if f >= 5:
            return Move(card, MoveKind.BUILD, takes, f - 4, tuple(sorted(fixed)))
        if f == TWO_CARD:
            ranks = [_first_value(c) for c in range(takes.bit_length()) if takes >> c & 1]
            return Move(card, MoveKind.TWO_CARD, takes, max(ranks) if ranks else 0)
        return Move(card, MoveKind.TRAIL if f == TRAIL else MoveKind.CAPTURE, takes, declared)

    def _decode_laugh(self, body: Sequence[int], f: int) -> Move:
        """A Laugh and Lie Down move: PAIR(s), LIE_DOWN or BANK (the finish ``L + f``)."""
        if f == 4:
            if body:
                raise IllegalMoveError("down is a whole move by itself")
            return Move.lie_down()
        takes = 0
        for a in body[0 if f == 5 else 1 :]:
            if not self.take <= a < self.take + self.num_ids:
                raise IllegalMoveError(f"action {a} ({self.describe(a)}) is out of place")
            takes |= 1 << (a - self.take)
        if f == 5:
            if not takes:
                raise IllegalMoveError("a bank takes cards")
            return Move.bank(takes)
        if not body or not 0 <= body[0] < self.num_ids:
            raise IllegalMoveError("a pair capture starts with PLAY")
        card = body[0]
        try:
            return Move(card, MoveKind.PAIR, takes, card - card % 4 + f)
        except CassinoError as exc:
            raise IllegalMoveError(str(exc)) from None

    def describe(self, action: int) -> str:
        """What ``action`` means: ``play 7H``, ``take 7H``, ``7H at 14``, ``trail``,
        ``capture``, ``two-card capture``, ``pluck``, ``pass``, ``build 9``, ``steal`` or
        ``capture as 9`` (a Zwickern joker)."""
        if not isinstance(action, int) or not 0 <= action < self.num_actions:
            raise IllegalMoveError(f"no action {action!r} (ids 0-{self.num_actions - 1})")
        if self.compound:
            return self._describe_compound(action)
        n = self.num_ids
        if action < n:
            return f"play {card_code(action)}"
        if action < 2 * n:
            return f"take {card_code(action - n)}"
        if action < self.finish:
            c = action - self.alt
            return f"{card_code(c)} at {self.rules.second_value(c) or 'its second value'}"
        if action == self.steal:
            return "steal"
        if self.laugh >= 0 and action >= self.laugh:
            f = action - self.laugh
            return ("pair with the spade", "pair with the heart", "pair with the diamond",
                    "pair with the club", "lie down", "bank")[f]
        if self.declare >= 0 and action >= self.declare:
            return f"capture as {action - self.declare + 2}"
        f = action - self.finish
        if f >= 5:
            return f"build {f - 4}"
        return ("trail", "capture", "two-card capture", "pluck", "pass")[f]

    def table(self) -> list[tuple[int, str]]:
        """Every action id with its meaning, in id order (docs/adapters.md)."""
        return [(a, self.describe(a)) for a in range(self.num_actions)]


def _mask(space: ActionSpace, legal: list[int]) -> list[bool]:
    """``legal`` as booleans over ``space``."""
    m = [False] * space.num_actions
    for a in legal:
        m[a] = True
    return m


def _action_id(action: object) -> int:
    """``action`` as an int (NumPy integers too); IllegalMoveError if it is no integer."""
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise IllegalMoveError(f"an action is an integer id, not {action!r}") from None


def _bad(msg: str) -> Move:
    raise IllegalMoveError(msg)


class MoveBuilder:
    """The sub-actions chosen so far toward a move of one position.

    Made from the position's legal moves; :meth:`legal_actions` lists the sub-actions that
    keep the prefix completable and :meth:`apply` adds one, returning the legal ``Move``
    once the sequence is complete (None before). :meth:`mask` is the same as a list of
    booleans over the whole action space.
    """

    __slots__ = ("_all", "_groups", "_hi", "_lo", "_moves", "_seqs", "prefix", "space")

    def __init__(self, space: ActionSpace, moves: Iterable[Move]) -> None:
        self.space = space
        self._all = list(moves)
        self._groups: dict[int, list[Move]] | None = None   # moves by head, sorted by head
        # the sequences are encoded once the head is chosen, for the moves of that head only
        self._seqs: list[tuple[int, ...]] = []
        self._moves: list[Move] = []
        self._lo = 0
        self._hi = 0
        self.prefix: tuple[int, ...] = ()

    def _head(self, m: Move) -> int:
        if m.kind == MoveKind.PASS:
            return self.space.finish + PASS
        if m.kind == MoveKind.LIE_DOWN:
            return self.space.laugh + 4
        if m.kind == MoveKind.PLUCK:
            return self.space.take + m.takes.bit_length() - 1
        if m.kind == MoveKind.BANK:
            return self.space.take + (m.takes & -m.takes).bit_length() - 1
        return m.card

    def legal_actions(self) -> list[int]:
        """The next sub-actions of the legal moves that extend the prefix, in id order."""
        if not self.prefix:
            return list(self._by_head())
        d = len(self.prefix)
        out: list[int] = []
        last = -1
        seqs = self._seqs
        for i in range(self._lo, self._hi):
            a = seqs[i][d]
            if a != last:
                out.append(a)
                last = a
        return out

    def mask(self) -> list[bool]:
        """:meth:`legal_actions` as booleans over the action space."""
        return _mask(self.space, self.legal_actions())

    def apply(self, action: int) -> Move | None:
        """Add ``action``; the completed legal move, or None while the move goes on.

        Raises :class:`IllegalMoveError` (and changes nothing) if no legal move continues
        the prefix with ``action``."""
        action = _action_id(action)
        if not self.prefix:
            self._choose_head(action)
        d = len(self.prefix)
        seqs = self._seqs
        lo = self._lo
        hi = self._hi
        while lo < hi and seqs[lo][d] < action:
            lo += 1
        end = lo
        while end < hi and seqs[end][d] == action:
            end += 1
        if lo == end:
            shown = self.space.describe(action) if 0 <= action < self.space.num_actions else "?"
            raise IllegalMoveError(
                f"action {action!r} ({shown}) is not legal after {list(self.prefix)}; "
                f"legal: {self.legal_actions()}")
        self._lo = lo
        self._hi = end
        self.prefix += (action,)
        if len(seqs[lo]) == d + 1:   # the finish: one move (sequences are prefix-free)
            return self._moves[lo]
        return None

    def _by_head(self) -> dict[int, list[Move]]:
        if self._groups is None:
            groups: dict[int, list[Move]] = {}
            for m in self._all:
                groups.setdefault(self._head(m), []).append(m)
            self._groups = dict(sorted(groups.items()))
        return self._groups

    def _choose_head(self, action: int) -> None:
        """Encode the moves of head ``action`` (none if it is no legal head)."""
        space = self.space
        pairs = sorted((space.encode(m), m) for m in self._by_head().get(action, ()))
        for i in range(1, len(pairs)):
            if pairs[i][0] == pairs[i - 1][0]:
                raise CassinoError(f"moves {pairs[i - 1][1]} and {pairs[i][1]} have the same "
                                   "action sequence")
        self._seqs = [p[0] for p in pairs]
        self._moves = [p[1] for p in pairs]
        self._lo = 0
        self._hi = len(pairs)

    def candidates(self) -> list[Move]:
        """The legal moves that extend the prefix."""
        if not self.prefix:
            return list(self._all)
        return self._moves[self._lo : self._hi]

    def reset(self) -> None:
        """Forget the prefix."""
        self._seqs = []
        self._moves = []
        self._lo = self._hi = 0
        self.prefix = ()

    def copy_to(self, state: Any) -> MoveBuilder:
        """A copy (for a clone of the State: the moves do not depend on which)."""
        other = MoveBuilder.__new__(MoveBuilder)
        for k in MoveBuilder.__slots__:
            setattr(other, k, getattr(self, k))
        return other


def _order(cards: list[int], picks: list[int], pile_order: str) -> list[int] | None:
    """The order, bottom first, that the UNDER ``picks`` (top down) give the captured
    ``cards`` under the capturing card; None if they are not such picks."""
    if len(cards) < 2:
        return [] if not picks else None
    want = 1 if pile_order == "second" else len(cards) - 1
    if len(picks) != want or len(set(picks)) != want or not set(picks) <= set(cards):
        return None
    rest = sorted(set(cards) - set(picks))
    return rest + picks[::-1]


class TurnBuilder:
    """The sub-actions of a compound turn made on a State of a compound system (African
    Cassino, the Italian house variant): the steps go to the State's step interface
    (``push_step``) as each is completed, so only steps that a legal turn continues are
    legal, and END is legal exactly when ``can_end_turn()``. In an insist decision the
    moves are whole (PASS, INSIST, or an extension's free steps then END).

    The interface is :class:`MoveBuilder`'s: :meth:`legal_actions`, :meth:`mask`,
    :meth:`apply` (the completed ``Move`` once END is applied), ``prefix``,
    :meth:`candidates` and :meth:`reset`.

    >>> import cassino
    >>> state = cassino.new_hand("african_cassino_3p", seed=7)
    >>> b = TurnBuilder(ActionSpace(state.rules), state)
    >>> move = None
    >>> while move is None:
    ...     move = b.apply(b.legal_actions()[0])
    >>> move in state.legal_moves()
    True
    """

    __slots__ = ("_cands", "_decision", "_part", "_picks", "_want", "prefix", "space", "state")

    def __init__(self, space: ActionSpace, state: Any) -> None:
        if not space.compound:
            raise CassinoError(f"{space.rules.system} has no compound turns: use MoveBuilder")
        self.space = space
        self.state: Any = state
        self.prefix: tuple[int, ...] = ()
        self._part: tuple[int, ...] = ()          # the step being chosen
        self._picks: list[int] | None = None      # UNDER picks of a capture (None: none due)
        self._want = 0                            # how many picks the capture takes
        self._cands: list[tuple[tuple[int, ...], str]] | None = None
        self._decision: list[tuple[tuple[int, ...], Move]] | None = None
        st = state
        if getattr(st, "insist", None):
            self._decision = sorted(((space.encode(m), m) for m in st.legal_moves()),
                                    key=lambda x: x[0])
        else:
            for text in st.turn_steps:
                seq, picks = space.encode_step(text)
                self.prefix += seq + picks

    @property
    def partial(self) -> tuple[int, ...]:
        """The sub-actions of the step being chosen (the whole prefix in a decision)."""
        return self.prefix if self._decision is not None else self._part

    def _steps(self) -> list[tuple[tuple[int, ...], str]]:
        """The legal steps from here, each as (its sequence up to the finish, its text)."""
        if self._cands is None:
            st = self.state
            self._cands = sorted((self.space.encode_step(t)[0], t)
                                 for t in st.legal_steps())
        return self._cands

    def _captured(self) -> list[int]:
        """The cards of the capture chosen in ``_part`` (its TAKE cards)."""
        sp = self.space
        return [sp.cards[a - sp.take] for a in self._part if sp.take <= a < sp.finish]

    def legal_actions(self) -> list[int]:
        """The sub-actions that keep the turn completable, in id order."""
        sp = self.space
        if self._decision is not None:
            d = len(self.prefix)
            return sorted({seq[d] for seq, _ in self._decision
                           if len(seq) > d and seq[:d] == self.prefix})
        if self._picks is not None:
            return sorted(sp.under + sp.index[c] for c in self._captured()
                          if c not in self._picks)
        d = len(self._part)
        out = {seq[d] for seq, _ in self._steps() if len(seq) > d and seq[:d] == self._part}
        st = self.state
        if not self._part and st.can_end_turn():
            out.add(sp.finish + C_END)
        return sorted(out)

    def mask(self) -> list[bool]:
        """:meth:`legal_actions` as booleans over the action space."""
        return _mask(self.space, self.legal_actions())

    def apply(self, action: int) -> Move | None:
        """Add ``action``; the turn's legal ``Move`` once END completes it (None before).

        Raises :class:`IllegalMoveError` (and changes nothing) if ``action`` is not legal."""
        action = _action_id(action)
        legal = self.legal_actions()
        if action not in legal:
            sp = self.space
            shown = sp.describe(action) if 0 <= action < sp.num_actions else "?"
            raise IllegalMoveError(f"action {action!r} ({shown}) is not legal after "
                                   f"{list(self.prefix)}; legal: {legal}")
        sp = self.space
        st = self.state
        if self._decision is not None:
            self.prefix += (action,)
            for seq, decided in self._decision:
                if seq == self.prefix:
                    return decided
            return None
        if action == sp.finish + C_END and not self._part:
            move: Move = st._steps_move()
            self.prefix += (action,)
            return move
        self.prefix += (action,)
        if self._picks is not None:
            self._picks.append(sp.cards[action - sp.under])
            if len(self._picks) == self._want:
                cards = sorted(self._captured())
                order = _order(cards, self._picks, sp.rules.pile_order)
                assert order is not None
                text = next(t for seq, t in self._steps() if seq == self._part)
                self._push(text.partition("|")[0] + "|" + ",".join(map(card_code, order)))
            return None
        self._part += (action,)
        for seq, text in self._steps():
            if seq == self._part:
                k = len(self._captured()) if action == sp.finish + C_CAPTURE else 0
                if k > 1:
                    self._picks = []
                    self._want = 1 if sp.rules.pile_order == "second" else k - 1
                else:
                    self._push(text)
                break
        return None

    def _push(self, text: str) -> None:
        st = self.state
        st.push_step(text)
        self._part = ()
        self._picks = None
        self._cands = None

    def candidates(self) -> list[Move]:
        """The legal moves that extend the prefix: at a turn's start (or in a decision)
        those of the state; after a step or part of one, the turns that complete it
        (:meth:`completions`)."""
        st = self.state
        if self._decision is not None:
            return [m for seq, m in self._decision if seq[: len(self.prefix)] == self.prefix]
        if not self.prefix:
            return list(st.legal_moves())
        return list(self.completions())

    def completions(self) -> dict[Move, tuple[int, ...]]:
        """Each turn the prefix continues to, with the sub-actions from here that make it
        (the first found): a search over the State's steps, each taken back after, every
        order of a capture's cards included. Meant for a turn taken over part made (an
        OpenSpiel bot after another chose its first sub-actions): it lists turns."""
        sp = self.space
        found: dict[Move, tuple[int, ...]] = {}
        if self._decision is not None:
            d = len(self.prefix)
            return {m: seq[d:] for seq, m in self._decision if seq[:d] == self.prefix}
        if self._picks is None and not self._part:
            self._complete(found, ())
            return found
        d = len(self._part)
        picked = tuple(sp.under + sp.index[c] for c in self._picks or ())
        for seq, text in self._steps():
            if (seq != self._part) if self._picks is not None else (seq[:d] != self._part):
                continue
            for picks, order in self._orders(seq, text):
                if picks[: len(picked)] != picked:
                    continue
                tail = seq[d:] + picks[len(picked):]
                self.state.push_step(order)
                try:
                    self._complete(found, tail)
                finally:
                    self.state.pop_step()
        return found

    def _orders(self, seq: tuple[int, ...], text: str) -> list[tuple[tuple[int, ...], str]]:
        """The UNDER picks and the text of each order of the step ``text`` (one for a
        step that is no capture of two cards or more)."""
        sp = self.space
        cards = sorted(sp.cards[a - sp.take] for a in seq if sp.take <= a < sp.finish)
        if seq[-1] != sp.finish + C_CAPTURE or len(cards) < 2:
            return [((), text)]
        want = 1 if sp.rules.pile_order == "second" else len(cards) - 1
        head = text.partition("|")[0]
        out = []
        for picks in itertools.permutations(cards, want):
            order = _order(cards, list(picks), sp.rules.pile_order)
            assert order is not None
            out.append((tuple(sp.under + sp.index[c] for c in picks),
                        head + "|" + ",".join(map(card_code, order))))
        return out

    def _complete(self, found: dict[Move, tuple[int, ...]], path: tuple[int, ...]) -> None:
        """Every turn the steps made continue to, into ``found`` with ``path`` and the
        sub-actions of the steps after it (depth first over the State's steps)."""
        st = self.state
        sp = self.space
        if st.can_end_turn():
            found.setdefault(st._steps_move(),
                             (*path, sp.finish + C_END))
        for text in st.legal_steps():
            seq = sp.encode_step(text)[0]
            for picks, order in self._orders(seq, text):
                st.push_step(order)
                try:
                    self._complete(found, path + seq + picks)
                finally:
                    st.pop_step()

    def reset(self) -> None:
        """Take back the steps made and forget the prefix."""
        st = self.state
        if self._decision is None:
            while st.turn_steps:
                st.pop_step()
        self.prefix = ()
        self._part = ()
        self._picks = None
        self._cands = None

    def copy_to(self, state: Any) -> TurnBuilder:
        """This builder on ``state``, a clone of its State (the steps made carried over)."""
        other = TurnBuilder.__new__(TurnBuilder)
        other.space = self.space
        other.state = state
        other.prefix = self.prefix
        other._part = self._part
        other._picks = None if self._picks is None else list(self._picks)
        other._want = self._want
        other._cands = self._cands
        other._decision = self._decision
        return other


def builder_for(space: ActionSpace, state: Any) -> MoveBuilder | TurnBuilder:
    """The builder of ``state``'s next move: a :class:`TurnBuilder` in a compound system,
    else a :class:`MoveBuilder` of its legal moves."""
    if space.compound:
        return TurnBuilder(space, state)
    return MoveBuilder(space, state.legal_moves())
