"""Zwickern (docs/rules.md §3.32, AMB-87 to AMB-91): captures with declared jokers, and the
ownerless stacks. The core side: ``core/zwickern.pxi``.

Values: 2-10 pip, A 11, J 12, Q 13, K 14. A card of value ``v`` takes any non-empty set of
items that splits into groups, each one of: a loose card of value ``v``; a stack of value
``v`` (whole); two or more loose cards totalling ``v``. A loose joker is a match of any value
alone, and in a group of two or more it counts any value 2-14 (``joker_values=any``,
AMB-87; ``match_only``: alone only). A played joker is played as a value from 2 to 14, which
is part of the move (``X1:9x4C,5D``). A stack is a hand card placed on one loose card or on
a stack; its value is the total, at most 14, and a joker in it counts the value that makes
the move's total (AMB-88: no owner, no holding rule unless ``holding_invariant``).
"""

from __future__ import annotations

from functools import lru_cache

from ..cards import card_code
from ..moves import Move, MoveKind
from .base import BUILD, CAPTURE, INCREASE, TRAIL, StateBase, bits

JOKER_VALUES = range(2, 15)   # the values a joker may be played or counted as
STACK_MAX = 14


@lru_cache(maxsize=65536)
def fewest_short_groups(values: tuple[int, ...], v: int) -> int | None:
    """The fewest "short" groups (total at most ``v - 2``, which a joker completes to ``v``)
    in a split of ``values`` (sorted, each below ``v``) into groups totalling exactly ``v``
    and short groups; None if there is no split (a value of ``v - 1`` alone, say, with no
    card of 1 to go with it).

    >>> fewest_short_groups((2, 3, 4), 9), fewest_short_groups((2, 3, 4, 5), 9)
    (0, 1)
    >>> fewest_short_groups((8,), 9) is None
    True
    """
    if not values:
        return 0
    *rest, a = values          # the largest value is in some group: try each group of it
    best: int | None = None

    def grow(pool: list[int], total: int, start: int) -> None:
        nonlocal best
        if total == v:
            sub = fewest_short_groups(tuple(pool), v)
            if sub is not None and (best is None or sub < best):
                best = sub
        elif total <= v - 2:
            sub = fewest_short_groups(tuple(pool), v)
            if sub is not None and (best is None or sub + 1 < best):
                best = sub + 1
        for i in range(start, len(pool)):
            if i > start and pool[i] == pool[i - 1]:
                continue   # (equal values: one choice)
            if total + pool[i] <= v:
                grow(pool[:i] + pool[i + 1:], total + pool[i], i)

    grow(list(rest), a, 0)
    return best


class Zwickern(StateBase):
    """The Zwickern mechanic of :class:`cassino.reference.State`."""

    def _zw_values(self, card: int) -> range | tuple[int]:
        """The values ``card`` may take: a joker's 2 to 14, another card's one."""
        return JOKER_VALUES if card >= 104 else (self.rules.card_value(card),)

    def _zw_capture_sets(self, v: int) -> list[int]:
        """Every set of table cards a card of value ``v`` may take (as masks)."""
        r = self.rules
        items: list[int] = []
        for c in bits(self.loose):
            if c >= 104 or r.card_value(c) <= v:
                items.append(1 << c)
        items.extend(b.cards for b in self.builds if b.value == v)
        any_value = r.joker_values == "any"
        out: list[int] = []
        for k in range(1, 1 << len(items)):
            takes = 0
            for i, item in enumerate(items):
                if k >> i & 1:
                    takes |= item
            loose = takes & self.loose
            jokers = sum(1 for c in bits(loose) if c >= 104)
            small = tuple(sorted(r.card_value(c) for c in bits(loose)
                                 if c < 104 and r.card_value(c) < v))
            short = fewest_short_groups(small, v)
            if short is not None and short <= (jokers if any_value else 0):
                out.append(takes)
        return out

    def _zw_holds(self, p: int, total: int) -> bool:
        """holding_invariant (AMB-88 option): another hand card takes a stack of ``total``."""
        others = self.hands[self.to_move] & ~(1 << p)
        return any(c >= 104 or self.rules.card_value(c) == total for c in bits(others))

    def _pseudo_zwickern(self, only: int | None = None,
                         kinds: tuple[MoveKind, ...] | None = None) -> list[Move]:
        """Every move of the player to act before compulsion=player (AMB-90): captures of
        each value a card may be played as, trails, new stacks and additions to stacks."""
        out: list[Move] = []
        r = self.rules
        for p in bits(self._playable(only)):
            joker = p >= 104
            for v in self._zw_values(p):
                for takes in self._zw_capture_sets(v):
                    out.append(Move(p, CAPTURE, takes, v if joker else 0))
            out.append(Move(p, TRAIL))
            totals: set[tuple[MoveKind, int, int]] = set()
            for c in bits(self.loose):
                for a in self._zw_values(p):
                    for b in self._zw_values(c):
                        if a + b <= STACK_MAX:
                            totals.add((BUILD, 1 << c, a + b))
            for st in self.builds:
                for a in self._zw_values(p):
                    if st.value + a <= STACK_MAX:
                        totals.add((INCREASE, st.cards, st.value + a))
            for kind, takes, total in totals:
                if not r.holding_invariant or self._zw_holds(p, total):
                    out.append(Move(p, kind, takes, total))
        if kinds is not None:
            out = [m for m in out if m.kind in kinds]
        return out

    def _zwickern_reason(self, m: Move) -> str:
        """Why ``m`` (its card in hand, its cards on the table, stacks whole) is not listed."""
        code = card_code(m.card)
        if m.kind == CAPTURE:
            if m.card >= 104 and not m.value:
                return f"a joker is played as a value from 2 to 14, written {code}:9x..."
            v = m.value or self.rules.card_value(m.card)
            for b in self.builds:
                if b.cards & m.takes and b.value != v:
                    return f"a stack of {b.value} is taken only by a card of {b.value}"
            return (f"the cards taken do not form groups of {v}: cards of {v}, and groups of two "
                    "or more totalling it" + (", a loose joker any value in one"
                                              if self.rules.joker_values == "any" else ""))
        if m.kind == TRAIL:
            return f"{code} cannot be trailed"
        stacks = [b for b in self.builds if b.cards & m.takes]
        loose = m.takes & self.loose
        if len(stacks) + loose.bit_count() != 1:
            return "a stack is one hand card placed on one loose card or on one stack (AMB-88)"
        if m.value > STACK_MAX:
            return f"a stack totals at most {STACK_MAX}, not {m.value} (AMB-88)"
        if self.rules.holding_invariant:
            return (f"holding_invariant: keep another card that takes a stack of {m.value} "
                    "(AMB-88 option)")
        return f"placing {code} there does not make a stack of {m.value}"

    def _zw_push(self, m: Move) -> None:
        """The stack move ``m``: a new stack (build) or a stack grown (increase), with no
        owner (AMB-88)."""
        from ..position import Build

        rest = [b for b in self.builds if not b.cards & m.takes]
        self.loose &= ~m.takes
        self.builds = sorted([*rest, Build(m.value, m.takes | 1 << m.card, 0, False)])

    def _zw_refill(self, seat: int) -> None:
        """A player whose hand ran out draws 4 from the stock, all that is left if fewer."""
        if not self.hands[seat] and self.stock:
            for _ in range(min(4, len(self.stock))):
                self.hands[seat] |= 1 << self.stock.pop(0)


__all__ = ["JOKER_VALUES", "STACK_MAX", "Zwickern", "fewest_short_groups"]
