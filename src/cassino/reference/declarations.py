"""Diloti declarations: plain and family declarations, raises, and their filters.
The core side: ``core/declarations.pxi``."""

from __future__ import annotations

from collections.abc import Iterator

from ..cards import CardSet, card_code, card_rank, rank_mask
from ..moves import Move, MoveKind
from ..position import Build, card_value, mask_sum
from .base import (
    AUGMENT,
    BUILD,
    BUILD_KINDS,
    CAPTURE,
    INCREASE,
    TRAIL,
    StateBase,
    _a,
    _vname,
    bits,
)
from .captures import (
    _MULTI,
    _unions,
    groups_ok,
)

_DILOTI_WORDS = (
    ("is a multiple build: it cannot be increased", "is a family declaration: it cannot be raised"),
    ("a build of", "a declaration of"),
    ("the build of", "the declaration of"),
    ("builds go up to", "declarations go up to"),
    ("into a build of", "into a declaration of"),
    ("face cards cannot be built", "J, Q and K have no value: they are never declared"),
    ("form one build of", "form one declaration of"),
)


class Declarations(StateBase):
    """The declarations mechanic of :class:`cassino.reference.State`."""

    def _pseudo_diloti(
        self, only: int | None = None, kinds: tuple[MoveKind, ...] | None = None
    ) -> list[Move]:
        out: list[Move] = []
        for p in bits(self._playable(only)):
            if kinds is None or TRAIL in kinds:
                out.append(Move(p, TRAIL))
            if kinds is None or CAPTURE in kinds:
                out.extend(self._captures(p))
            if card_value(p) and (kinds is None or BUILD in kinds):
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
        cand = sum(1 << c for c in bits(self._pool()) if card_value(c))
        for s in self._subsets(cand):
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
            cand = sum(1 << c for c in bits(self._pool()) if 0 < card_value(c) <= w)
            plains = self._plain_of(w)
            for s in self._subsets(cand):
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
            cand = sum(1 << c for c in bits(self._pool()) if 0 < card_value(c) <= w)
            plains = self._plain_of(w)
            for s in self._subsets(cand):
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

