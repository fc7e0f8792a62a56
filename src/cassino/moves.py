"""Moves as small immutable values with a compact text notation.

A move is identified by the state it leads to: the card played, its kind, the set of table
cards it takes (captured, or gathered into the resulting build) and the declared value.

Notation (documented in docs/format.md):

=========  ==========================  ===========================================
kind       notation                    meaning
=========  ==========================  ===========================================
trail      ``7H``                      lay the 7 of hearts on the table
capture    ``9Dx9C,5S,4H``             play 9D and take 9C, 5S and 4H
build      ``3H+5S,AC=9``              play 3H with 5S and AC into a new build of 9
augment    ``6C+4D,5S,5H=10``          as build; the takes include an existing build of 10
increase   ``2S+3C,4H=9``              as build; the takes include a simple build of 7
pluck      ``^7H``                     move the loose 7H to one's pile (opt_pluck)
pass       ``pass``                    end the turn without the pluck it allows
two_card   ``5H&6SxJC``                Callabra: play 5H and 6S together, take JC (11)
steal      ``7H>2C,7D,9S``             Stealing Bundles: play 7H, take the whole bundle
                                       2C 7D 9S (whose top card is a 7)
pair       ``7S&7Hx7D,7C``             Laugh and Lie Down: the pair 7S 7H from hand takes
                                       the pair 7D 7C from the table
lie_down   ``down``                    Laugh and Lie Down: lay the whole hand face up on
                                       the table and drop out of the hand
bank       ``bank:7S,7H``              Laugh and Lie Down: a decision, bank two cards of a
                                       Prial or the released pair (``pass``: decline)
turn       ``+3S,4D=7; 7Cx3S,4D|3S,4D`` African Cassino: a whole compound turn, its
                                       steps joined by ``;``
=========  ==========================  ===========================================

A compound turn (kind ``TURN``, African Cassino, docs/format.md) keeps its steps' notation in
``steps``: ``card`` is the hand card the turn plays and ``takes`` every table card its
steps take or gather (pile cards included). ``State.parse_move`` reads a turn against its
position; ``Move.parse`` reads the text alone, with ``takes`` left 0.

Augment and increase are written like a build: the takes name every table card that ends up
in the resulting pile, which identifies the move in its position.

A multi-valued card (the Royal ace 1 or 14, the Buckeye 10D 10 or 11) that a build move puts
into the pile at a value other than its first value is written with that value after a colon,
``AH:14+AS,KS=14`` (the ace of hearts counts 14, the ace of spades 1): ``Move.fixed`` holds
these ``(card, value)`` pairs, and the value stays fixed while the pile is on the table.
Captures never write values: the cards taken identify the move.

A Laugh and Lie Down pair capture (kind ``PAIR``, 9) plays two hand cards of a rank and
takes the other two, which lie on the table: ``card`` is the lower hand card, ``value`` the
other hand card's id and ``takes`` the two table cards; ``7S&7Hx7D,7C``. Lying down
(``LIE_DOWN``, ``down``) and a decision to bank cards (``BANK``, ``bank:7H,7S``, which may be
declined with ``pass``) play no hand card: ``card`` is ``NO_CARD``; a bank's ``takes`` are the
cards banked from the decider's hand (``bank:7S,7H``).

>>> m = Move.parse("7s&7hx7d,7c")
>>> m.kind, str(m)
(<MoveKind.PAIR: 9>, '7S&7Hx7D,7C')
>>> Move.parse("bank:7h,7s"), Move.parse("DOWN")
(Move('bank:7S,7H'), Move('down'))

A Callabra two-card capture (kind ``TWO_CARD``, 7) plays two hand cards whose values add up
to one table card's value. ``card`` is the lower of the two hand cards, ``takes`` holds the
other hand card and the table card, and ``value`` is the table card's value (their sum), which
tells the table card (the take whose rank is ``value``) from the hand card (a lower rank).
The notation writes the two hand cards joined by ``&`` in id order, then ``x`` and the table
card: ``5H&6SxJC``; the hand cards may be given in either order.

>>> m = Move.parse("6s&5hxjc")
>>> m.kind, str(m), m.value
(<MoveKind.TWO_CARD: 7>, '5H&6SxJC', 11)

>>> m = Move.parse("9Dx9C,5S,4H")
>>> m.kind, str(m)
(<MoveKind.CAPTURE: 1>, '9Dx4H,5S,9C')
>>> Move.parse("3h+5s,ac=9")
Move('3H+AC,5S=9')
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .cards import CardSet, card_code, parse_card
from .errors import CardError, NotationError

__all__ = ["NO_CARD", "Move", "MoveKind"]

NO_CARD = 255
"""``Move.card`` of the moves that play no hand card (pluck, pass)."""


class MoveKind(enum.IntEnum):
    """Kinds of moves; later systems add kinds after these."""

    TRAIL = 0
    CAPTURE = 1
    BUILD = 2
    AUGMENT = 3
    INCREASE = 4
    PLUCK = 5
    PASS = 6
    TWO_CARD = 7   # Callabra: two hand cards adding up to one table card (docs/rules.md §3.14)
    STEAL = 8      # Stealing Bundles: take another player's whole bundle (docs/rules.md §3.31)
    PAIR = 9       # Laugh and Lie Down: a pair from hand takes the table pair (docs/rules.md §3.35)
    LIE_DOWN = 10  # ... the whole hand goes face up to the table (AMB-96)
    BANK = 11      # ... a decision: two cards of the decider's hand go to his pile
    TURN = 12      # African Cassino: a whole compound turn, its steps (docs/rules.md §3.22)
    INSIST = 13    # the Italian house variant: insist on a maximal capture or augment (AMB-68)

    @property
    def label(self) -> str:
        """Lower-case name used in JSON output."""
        return self.name.lower()


_BUILD_KINDS = (MoveKind.BUILD, MoveKind.AUGMENT, MoveKind.INCREASE)
_ALL_CARDS = (1 << 110) - 1   # Mulle's double deck and the jokers (the rules check the deck)
_TURN_CARDS = _ALL_CARDS | ((1 << 40) - 1) << 150   # and the Italian deck (compound turns)
# The largest declared value a Move may carry: far above any legal build (at most 10 in the
# standard systems), and small enough for the core's C fields.
MAX_MOVE_VALUE = 255


@dataclass(frozen=True, order=True)
class Move:
    """A move: ``card`` played, ``kind``, ``takes`` (mask of table cards), ``value``.

    ``value`` is the declared value of the resulting build, or 0 for trails and captures
    (a Zwickern joker's capture: the value it is played as, written ``X1:9x4C,5D``).
    ``fixed`` (build kinds only) lists, by card, the multi-valued cards the move places in
    the pile at a value other than their first (Royal ace 14, Buckeye 10D 11).
    Moves order by ``(card, kind, takes, value, fixed)``, the order of ``legal_moves()``.
    """

    card: int
    kind: MoveKind
    takes: int = 0
    value: int = 0
    fixed: tuple[tuple[int, int], ...] = ()
    steps: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.kind, MoveKind):
            try:
                object.__setattr__(self, "kind", MoveKind(self.kind))
            except ValueError:
                raise NotationError(f"no move kind {self.kind!r}") from None
        if self.steps or self.kind == MoveKind.TURN:
            _check_turn(self)
            return
        if self.kind in _NO_CARD_KINDS:
            _check_no_card(self)
            return
        card_code(self.card)
        # the fast path first: Moves are made by the thousand while listing legal moves
        if type(self.takes) is not int or not 0 <= self.takes <= _ALL_CARDS:
            if not _int_in(self.takes, _ALL_CARDS):
                raise CardError(f"takes must be a mask of the card ids 0-109, not {self.takes!r}")
        if type(self.value) is not int or not 0 <= self.value <= MAX_MOVE_VALUE:
            if not _int_in(self.value, MAX_MOVE_VALUE):
                raise NotationError(
                    f"a move's value must be an integer from 0 to {MAX_MOVE_VALUE}, "
                    f"not {self.value!r}"
                )
        if self.fixed:
            _check_fixed(self)
        if self.kind == MoveKind.TWO_CARD:
            _check_two_card(self)
        elif self.kind == MoveKind.PAIR:
            _check_pair(self)
        elif self.kind == MoveKind.STEAL and (not self.takes or self.value or self.fixed):
            raise NotationError("a steal takes a whole bundle (at least one card) and has no value")


    @classmethod
    def trail(cls, card: int) -> Move:
        """Trail ``card``."""
        return cls(card, MoveKind.TRAIL, 0, 0)

    @classmethod
    def capture(cls, card: int, takes: int) -> Move:
        """Play ``card`` and capture the cards of mask ``takes``."""
        return cls(card, MoveKind.CAPTURE, takes, 0)

    @property
    def table_card(self) -> int:
        """A two-card capture's table card: the take whose rank is the move's value."""
        if self.kind != MoveKind.TWO_CARD:
            raise NotationError(f"{self} is not a two-card capture")
        return next(c for c in CardSet(self.takes) if _first_value(c) == self.value)

    @property
    def second_card(self) -> int:
        """A two-card capture's or a pair capture's second (higher) hand card."""
        if self.kind == MoveKind.PAIR:
            return self.value
        return (self.takes & ~(1 << self.table_card)).bit_length() - 1

    @classmethod
    def lie_down(cls) -> Move:
        """Lay the whole hand face up on the table (Laugh and Lie Down, AMB-96)."""
        return cls(NO_CARD, MoveKind.LIE_DOWN, 0, 0)

    @classmethod
    def bank(cls, takes: int) -> Move:
        """Bank the cards of mask ``takes`` from the decider's hand (Laugh and Lie Down: two
        cards of a Prial before play, or the pair released by another player's capture)."""
        return cls(NO_CARD, MoveKind.BANK, takes, 0)

    @property
    def taken(self) -> CardSet:
        """Table cards the move takes, as a :class:`CardSet`.

        >>> Move.parse("9Dx4C,5D").taken
        CardSet('4C 5D')
        """
        return CardSet(self.takes)

    @property
    def card_code(self) -> str:
        """The code of the hand card played (``card``), "" for a pluck or a pass.

        >>> Move.parse("9Dx4C,5D").card_code
        '9D'
        """
        return card_code(self.card) if self.plays_card else ""

    @classmethod
    def pluck(cls, card: int) -> Move:
        """Pluck the loose ``card`` (opt_pluck, docs/rules.md §3.37)."""
        return cls(NO_CARD, MoveKind.PLUCK, 1 << card, 0)

    @classmethod
    def insist(cls) -> Move:
        """Insist that the mover extend his capture or augment to a maximal one (the house
        variant with Italian cards, AMB-68); :meth:`pass_turn` lets it stand."""
        return cls(NO_CARD, MoveKind.INSIST, 0, 0)

    @classmethod
    def pass_turn(cls) -> Move:
        """End the turn without plucking (opt_pluck: the choice after a card is played)."""
        return cls(NO_CARD, MoveKind.PASS, 0, 0)

    @property
    def plays_card(self) -> bool:
        """Whether the move plays a hand card (every kind but pluck, pass, lie down and bank)."""
        return self.kind not in _NO_CARD_KINDS

    def notation(self) -> str:
        """Compact text form; see the module docstring."""
        if self.kind == MoveKind.PLUCK:
            return "^" + card_code(self.takes.bit_length() - 1)
        if self.kind == MoveKind.PASS:
            return "pass"
        if self.kind == MoveKind.INSIST:
            return "insist"
        if self.kind == MoveKind.LIE_DOWN:
            return "down"
        if self.kind == MoveKind.BANK:
            return "bank:" + ",".join(CardSet(self.takes).codes())
        if self.kind == MoveKind.TURN:
            return "; ".join(self.steps)
        code = card_code(self.card)
        takes = ",".join(CardSet(self.takes).codes())
        if self.kind == MoveKind.TRAIL:
            return code
        if self.kind == MoveKind.CAPTURE:
            return f"{code}:{self.value}x{takes}" if self.value else f"{code}x{takes}"
        if self.kind == MoveKind.TWO_CARD:
            return f"{code}&{card_code(self.second_card)}x{card_code(self.table_card)}"
        if self.kind == MoveKind.PAIR:
            return f"{code}&{card_code(self.value)}x{takes}"
        if self.kind == MoveKind.STEAL:
            return f"{code}>{takes}"
        if self.fixed:
            vals = dict(self.fixed)
            code = _with_value(self.card, vals)
            takes = ",".join(_with_value(c, vals) for c in CardSet(self.takes))
        return f"{code}+{takes}={self.value}"

    __str__ = notation

    def __repr__(self) -> str:
        return f"Move({self.notation()!r})"

    @classmethod
    def parse(cls, text: str, kind: MoveKind | None = None) -> Move:
        """Parse notation, without a position.

        Build-like moves parse as ``BUILD``: ``State.parse_move(text)`` gives the legal move
        of a position, with its kind (augment or increase) resolved, and ``State.push``
        takes the notation as well.

        >>> Move.parse("9Dx4C,5D").takes == (1 << 15) | (1 << 18)   # 4C is card 15, 5D 18
        True
        """
        if not isinstance(text, str):
            raise NotationError(f"move notation must be a string, not {type(text).__name__}")
        s = text.strip().upper().replace(" ", "")
        if not s:
            raise NotationError("empty move notation")
        if s == "PASS":
            return cls.pass_turn()
        if s == "INSIST":
            return cls.insist()
        if s == "DOWN":
            return cls.lie_down()
        if ";" in s or s.startswith("+") or "@" in s or "|" in s:
            return _parse_turn(text)     # (a compound turn: several steps, a free step, a
        try:                             # build for a partner or a capture's pile order)
            if s.startswith("BANK:"):
                takes = _parse_takes(s[5:], text)
                return cls.bank(takes)
            if s.startswith("^"):
                return cls.pluck(parse_card(s[1:]))
            if "&" in s:
                return _parse_two_card(s, text)
            if ">" in s:
                head, _, rest = s.partition(">")
                takes = _parse_takes(rest, text)
                return cls(parse_card(head), MoveKind.STEAL, takes, 0)
            split = _capture_split(s)
            if split is not None:
                head, rest = s[:split], s[split + 1 :]
                takes = _parse_takes(rest, text)
                if not takes:
                    raise NotationError(f"capture {text!r} takes no cards")
                head, colon, declared = head.partition(":")
                if colon and not (declared.isascii() and declared.isdigit() and len(declared) <= 3):
                    raise NotationError(f"bad declared value {declared!r} in {text!r}")
                return cls(parse_card(head), MoveKind.CAPTURE, takes, int(declared) if colon else 0)
            if "+" in s:
                head, _, rest = s.partition("+")
                body, eq, val = rest.partition("=")
                if not eq or not (val.isascii() and val.isdigit()):
                    raise NotationError(f"build {text!r} needs a declared value, as in 3H+5S=8")
                if len(val) > 3 or int(val) > MAX_MOVE_VALUE:
                    raise NotationError(f"build {text!r} declares a value over {MAX_MOVE_VALUE}")
                fixed: dict[int, int] = {}
                takes = _parse_takes(body, text, fixed)
                card = _parse_valued(head, text, fixed)
                return cls(
                    card, kind or MoveKind.BUILD, takes, int(val), tuple(sorted(fixed.items()))
                )
            return cls(parse_card(s), MoveKind.TRAIL, 0, 0)
        except CardError as exc:
            raise NotationError(f"bad move {text!r}: {exc}") from None


_NO_CARD_KINDS = (MoveKind.PLUCK, MoveKind.PASS, MoveKind.LIE_DOWN, MoveKind.BANK, MoveKind.INSIST)


def _check_turn(m: Move) -> None:
    """A compound turn: kind TURN, a hand card or NO_CARD, and one or more steps."""
    if m.kind != MoveKind.TURN:
        raise NotationError(f"only a compound turn has steps, not a {m.kind.label}")
    if m.card != NO_CARD:
        card_code(m.card)
    if not _int_in(m.takes, 1 << 190) or m.takes & ~_TURN_CARDS:
        raise CardError(f"takes must be a mask of the card ids 0-109 and 150-189, not {m.takes!r}")
    if m.value or m.fixed:
        raise NotationError("a compound turn carries no value: its steps do")
    if (not isinstance(m.steps, tuple) or not m.steps
            or not all(isinstance(x, str) and x.strip() for x in m.steps)):
        raise NotationError("a compound turn needs one or more steps, each a non-empty string")


def _parse_turn(text: str) -> Move:
    """A compound turn read without its position (``takes`` 0): each step in the form
    ``Step.notation`` writes, the hand card that of the step that plays one (a step not
    starting with ``+``)."""
    steps = []
    card = NO_CARD
    for k, part in enumerate(text.split(";")):
        try:
            hand, step = _turn_step(part)
        except CardError as e:
            raise NotationError(f"turn {text!r}, step {k + 1}: {e}") from None
        except NotationError as e:
            raise NotationError(f"turn {text!r}, step {k + 1}: {e}") from None
        if hand != NO_CARD:
            if card != NO_CARD:
                raise NotationError(f"turn {text!r} plays two hand cards")
            card = hand
        steps.append(step)
    return Move(card, MoveKind.TURN, 0, 0, (), tuple(steps))


def _turn_step(part: str) -> tuple[int, str]:
    """One step of a turn: its hand card (NO_CARD for a free step) and its canonical text
    (the cards listed in id order, ``x`` for a capture)."""
    t = "".join(part.split()).upper()
    if not t:
        raise NotationError("the step is empty")
    t, bar, order_text = t.partition("|")
    order = [parse_card(x) for x in order_text.split(",")] if bar else []
    value = owner = ""
    if "+" in t:
        hand, _, rest = t.partition("+")
        rest, eq, value = rest.partition("=")
        value, at, owner = value.partition("@")
        if (not eq or not (value.isascii() and value.isdigit() and len(value) <= 3)
                or (at and not (owner.isascii() and owner.isdigit() and len(owner) <= 2))):
            raise NotationError(f"bad build step {part.strip()!r} (cards=value[@seat])")
        mark = "+"
    elif "X" in t:
        hand, _, rest = t.partition("X")
        mark = "x"
    else:
        hand, rest, mark = t, "", ""
    if not hand and mark != "+":
        raise NotationError(f"step {part.strip()!r} plays no card and builds nothing")
    card = parse_card(hand) if hand else NO_CARD
    cards = sorted(parse_card(x) for x in rest.split(",") if x)
    text = (card_code(card) if hand else "") + mark + ",".join(card_code(c) for c in cards)
    if mark == "+":
        text += f"={int(value)}" + (f"@{int(owner)}" if at else "")
    if order:
        text += "|" + ",".join(card_code(c) for c in order)
    return card, text


def _check_no_card(m: Move) -> None:
    """Pluck and pass play no hand card: ``card`` is NO_CARD; a pluck takes one card."""
    if m.card != NO_CARD:
        raise NotationError(f"a {m.kind.label} plays no hand card: its card must be NO_CARD (255)")
    if m.value != 0 or m.fixed:
        raise NotationError(f"a {m.kind.label} has no value")
    if m.kind in (MoveKind.PASS, MoveKind.LIE_DOWN, MoveKind.INSIST):
        if m.takes != 0:
            raise NotationError(f"a {m.kind.label} takes no cards")
        return
    if m.kind == MoveKind.BANK:
        if not _int_in(m.takes, _ALL_CARDS) or not m.takes:
            raise NotationError(f"a bank takes cards from the hand, not {m.takes!r}")
        return
    if not _int_in(m.takes, _ALL_CARDS) or m.takes.bit_count() != 1:
        raise NotationError(f"a pluck takes exactly one card, not {m.takes!r}")
def _capture_split(s: str) -> int | None:
    """The index of the ``x`` of a capture in upper-case notation ``s``, or None: the first
    ``X`` after a whole card code, so that a joker's code (``X1``) is never taken for it
    (``X1X3C``: X1 takes 3C; ``9DXX1``: 9D takes X1)."""
    i = s.find("X", 1)
    while i > 0:
        try:
            parse_card(s[:i])
            return i
        except CardError:
            i = s.find("X", i + 1)
    i = s.find("X", 1)
    if i > 0 and ("+" in s[:i] or "=" in s[:i]):
        return None   # (a build with a joker, 2H+X2=11)
    return i if i > 0 else None   # (no card before any x: the head's error is reported)


def _parse_two_card(s: str, text: str) -> Move:
    """``5H&6SxJC``: two hand cards and the one table card their values add up to; with two
    table cards, ``7S&7Hx7D,7C``, a pair capture (Laugh and Lie Down)."""
    head, x, table = s.partition("X")
    first, _, second = head.partition("&")
    if x and "," in table and "&" not in table and first and second and "&" not in second:
        a, b = sorted((parse_card(first), parse_card(second)))
        if a != b and a < 52 and b < 52 and a // 4 == b // 4:
            # (two hand cards of one rank and two table cards: a pair capture)
            return Move(a, MoveKind.PAIR, _parse_takes(table, text), b)
    if not x or not table or "," in table or "&" in table:
        raise NotationError(
            f"two-card capture {text!r} must name one table card after x, as in 5H&6SxJC"
        )
    if not first or not second or "&" in second:
        raise NotationError(f"two-card capture {text!r} must name two hand cards, as in 5H&6S")
    a, b = sorted((parse_card(first), parse_card(second)))
    t = parse_card(table)
    if a == b or t in (a, b):
        raise NotationError(f"two-card capture {text!r} names a card twice")
    return Move(a, MoveKind.TWO_CARD, 1 << b | 1 << t, _first_value(t))


def _check_two_card(m: Move) -> None:
    """A two-card capture takes the second hand card and one table card of rank ``value``,
    above the rank of both hand cards (whose values, at least 1 each, add up to it)."""
    takes = [c for c in CardSet(m.takes)]
    ranks = [_first_value(c) for c in takes]
    if len(takes) != 2 or m.card in takes or ranks.count(m.value) != 1:
        raise NotationError(
            "a two-card capture takes the second hand card and the one table card whose "
            f"rank is its value, not {CardSet(m.takes)} with value {m.value}"
        )
    second = takes[1 - ranks.index(m.value)]
    if second < m.card:
        raise NotationError("a two-card capture's card is the lower of the two hand cards")


def _check_pair(m: Move) -> None:
    """A pair capture: ``card`` and ``value`` (the second hand card, above ``card``) and the
    two table cards of ``takes`` are four cards of one rank."""
    if not _int_in(m.value, 51) or m.value <= m.card or m.card > 51:
        raise NotationError(
            "a pair capture's value is its second hand card, a card id above its card, "
            f"not {m.value!r}"
        )
    takes = list(CardSet(m.takes))
    ranks = {c // 4 for c in [m.card, m.value, *takes]}
    if len(takes) != 2 or len(ranks) != 1 or m.card in takes or m.value in takes:
        raise NotationError(
            "a pair capture takes the other two cards of its rank from the table, not "
            f"{CardSet(m.takes)} with {card_code(m.card)} and {card_code(m.value)}"
        )


def _int_in(x: object, top: int) -> bool:
    """Whether ``x`` is an integer (not a bool) from 0 to ``top``."""
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= top


def _with_value(card: int, vals: dict[int, int]) -> str:
    code = card_code(card)
    return f"{code}:{vals[card]}" if card in vals else code


def _parse_valued(code: str, text: str, fixed: dict[int, int] | None) -> int:
    """A card code, with ``:value`` recorded in ``fixed`` when given (build moves only)."""
    if ":" not in code:
        return parse_card(code)
    head, _, val = code.partition(":")
    if fixed is None or not (val.isascii() and val.isdigit()) or len(val) > 3:
        raise NotationError(f"bad card value {code!r} in {text!r}")
    c = parse_card(head)
    v = int(val)
    if v != _first_value(c):
        fixed[c] = v
    return c


def _first_value(card: int) -> int:
    """A card's first value, the one ``Move.fixed`` never lists: its rank (A 1, J 11, ...)."""
    return card % 52 // 4 + 1


def _check_fixed(m: Move) -> None:
    fixed = m.fixed
    if m.kind not in _BUILD_KINDS:
        raise NotationError("only build moves fix the values of cards")
    ok = isinstance(fixed, tuple) and all(
        isinstance(p, tuple) and len(p) == 2 and _int_in(p[0], 51) and _int_in(p[1], MAX_MOVE_VALUE)
        for p in fixed
    )
    if not ok:
        raise NotationError(f"fixed must be a tuple of (card, value) pairs, not {fixed!r}")
    cards = [c for c, _ in fixed]
    if cards != sorted(set(cards)):
        raise NotationError(f"fixed must list each card once, in card order: {fixed!r}")
    placed = m.takes | 1 << m.card
    for c, v in fixed:
        if not placed >> c & 1:
            raise NotationError(f"fixed gives a value to {card_code(c)}, which the move does not use")
        if v == _first_value(c):
            raise NotationError(f"fixed lists {card_code(c)} at its first value {v}")


def _parse_takes(body: str, text: str, fixed: dict[int, int] | None = None) -> int:
    mask = 0
    for code in body.split(","):
        if not code:
            raise NotationError(f"empty card in {text!r}")
        c = _parse_valued(code, text, fixed)
        if mask >> c & 1:
            raise NotationError(f"card {code} appears twice in {text!r}")
        mask |= 1 << c
    return mask


def same_notation(a: Move, b: Move) -> bool:
    """Whether two moves are equal up to the build kind (which notation does not spell)."""
    if a.kind in _BUILD_KINDS and b.kind in _BUILD_KINDS:
        return (a.card, a.takes, a.value, a.fixed) == (b.card, b.takes, b.value, b.fixed)
    return a == b
