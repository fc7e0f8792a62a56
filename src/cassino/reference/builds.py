"""Builds and ownership: creating, augmenting and increasing builds, face builds, and the
filters a build move passes (unique values, holding, obligation). The core side: ``core/builds.pxi``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..cards import card_rank, rank_mask
from ..moves import Move
from ..position import Build, card_value, card_values, mask_sum
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
    subsets,
)
from .captures import (
    _MULTI,
    groups_ok,
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


class Builds(StateBase):
    """The builds mechanic of :class:`cassino.reference.State`."""

    def _creates(self, p: int) -> Iterator[Move]:
        r = self.rules
        vp = card_value(p)
        cand = sum(1 << c for c in bits(self._pool()) if card_value(c))
        for s in self._subsets(cand):
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
            cand = sum(1 << c for c in bits(self._pool()) if 0 < card_value(c) <= w)
            for s in self._subsets(cand):
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
        cand = sum(1 << c for c in bits(self._pool()) if card_value(c))
        for b in self.builds:
            if b.multiple:
                continue
            for s in self._subsets(cand):
                w = b.value + vp + mask_sum(s)
                if w <= r.build_max_value:
                    yield Move(p, INCREASE, s | b.cards, w)

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

    def _frozen_build_reason(self, m: Move) -> str | None:
        """Why build move ``m`` is illegal if it changes the value of a multiple build."""
        for b in self.builds:
            if b.cards & m.takes and b.multiple and b.value != m.value:
                return (
                    f"the build of {b.value} is a multiple build: it cannot be increased "
                    f"to {m.value}, only taken or added to"
                )
        return None

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

    def _target_build(self, m: Move) -> Build | None:
        for b in self.builds:
            if b.cards & m.takes:
                return b
        return None

    def _build_total(self, cards: int, fixed: tuple[tuple[int, int], ...]) -> int:
        if not self.rules.multi_valued:
            return mask_sum(cards)
        return sum(card_values(cards, self.rules, fixed).values())

    def _violation(self, m: Move) -> str | None:
        """Why a structurally valid move is illegal here, or None."""
        r = self.rules
        if "zwickern" in r.mechanics:
            return None     # (Zwickern lists its legal moves alone; compulsion: _compelled)
        if r.declarations:
            return self._diloti_violation(m)
        if r.esun and m.kind == BUILD:
            return self._esun_reason(m)
        if r.capture_extent == "all_matches" and m.kind == CAPTURE:
            why = self._all_matches_reason(m)
            if why is not None:
                return why
        if r.match_one and m.kind == CAPTURE:
            why = self._match_one_reason(m)
            if why is not None:
                return why
        if r.yoruba and m.kind == CAPTURE:
            why = self._yoruba_reason(m)
            if why is not None:
                return why
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

    def _duty_reason(self, m: Move) -> str | None:
        return duty_reason(self.rules.obligation, self.to_move, self.builds, m)

    def is_default(self, move: Move) -> bool:
        """Whether playing ``move`` now defaults on the build duty of the obligation module
        (under michigan: legal, and fined 2 points when played; docs/rules.md §3.37, AMB-19)."""
        return self._duty_reason(move) is not None

