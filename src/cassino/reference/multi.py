"""Card values: multi-valued cards (Royal and Buckeye aces, the Buckeye 10D; valuings, the
holding of distinct cards) and hand values that differ from table values (Finnish Kasino).
The core side: ``core/multi.pxi``."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

from ..cards import card_code, card_rank, rank_mask
from ..moves import Move, MoveKind
from ..position import Build
from .base import (
    AUGMENT,
    BUILD,
    BUILD_KINDS,
    CAPTURE,
    INCREASE,
    TRAIL,
    StateBase,
    bits,
    subsets,
)
from .captures import (
    _partitionable,
    _with_builds,
    groups_ok_values,
)


def _matching(values: list[int], cards: dict[int, set[int]]) -> bool:
    """Whether each of ``values`` can be given a distinct card of ``cards`` (card -> the
    values it can take): a bipartite matching, by augmenting paths."""
    owner: dict[int, int] = {}   # card -> the value it takes

    def place(v: int, seen: set[int]) -> bool:
        for c, vs in cards.items():
            if v in vs and c not in seen:
                seen.add(c)
                if c not in owner or place(owner[c], seen):
                    owner[c] = v
                    return True
        return False

    return all(place(v, set()) for v in values)


def _forms_build(group: tuple[int, ...], vp: int, v: int, natural: bool) -> bool:
    """Whether the values ``group`` (sorted: the played card's ``vp`` and the loose cards')
    form a new build of ``v`` (_pseudo_multi's creates): one group of v; with
    natural_build_combination several; without it, also two cards of v."""
    total = sum(group)
    if total % v or group[-1] > v:
        return False
    if total == v:
        return True
    if natural:
        return _partitionable(group, v, 64)
    return len(group) == 2 and vp == v


class MultiValued(StateBase):
    """The multi mechanic of :class:`cassino.reference.State`."""

    def _hand_values(self, p: int) -> list[int]:
        r = self.rules
        return [v for v in (r.card_value(p), r.second_value(p)) if v]

    def _valuings(self, sub: int, top: int) -> Iterator[dict[int, int]]:
        """Every way to value the loose cards of ``sub`` (no value above ``top``)."""
        table = self.rules.table_values
        base: dict[int, int] = {}
        cards: list[int] = []
        options: list[list[int]] = []
        for c in bits(sub):
            opts = [v for v in table[c] if v <= top]
            if not opts:
                return
            if len(opts) == 1:
                base[c] = opts[0]
            else:
                cards.append(c)
                options.append(opts)
        # (in card order, the first two-valued card's value changing slowest)
        for values in itertools.product(*options):
            yield base | dict(zip(cards, values, strict=True))

    def _fixed(self, vals: dict[int, int]) -> tuple[tuple[int, int], ...]:
        r = self.rules
        return tuple(sorted((c, v) for c, v in vals.items() if v != r.card_value(c)))

    def _pseudo_multi(
        self, only: int | None = None, kinds: tuple[MoveKind, ...] | None = None
    ) -> list[Move]:
        r = self.rules
        moves: set[Move] = set()
        top = max(r.build_max_value, 14)
        captures = kinds is None or CAPTURE in kinds
        creates = kinds is None or BUILD in kinds
        augments = kinds is None or AUGMENT in kinds
        increases = kinds is None or INCREASE in kinds
        # in explain's window (one loose part, valued again for each card, value and kind),
        # each valuing list once
        memo: dict[tuple[int, int], list[dict[int, int]]] = {}

        def valuings(sub: int, cap: int) -> Iterator[dict[int, int]]:
            if self._within < 0:
                return self._valuings(sub, cap)
            if (sub, cap) not in memo:
                memo[sub, cap] = list(self._valuings(sub, cap))
            return iter(memo[sub, cap])

        for p in bits(self._playable(only)):
            if kinds is None or TRAIL in kinds:
                moves.add(Move(p, TRAIL))
            for vp in self._hand_values(p):
                pv = {p: vp}
                # captures: groups of vp, with any builds of vp
                bmask = [b.cards for b in self.builds if b.value == vp]
                for loose in self._subsets(self._pool()) if captures else ():
                    if loose and not any(
                        groups_ok_values(tuple(sorted(vals.values())), vp, r)
                        for vals in valuings(loose, vp)
                    ):
                        continue
                    moves.update(_with_builds(p, loose, bmask))
                # creates (none without building: Swedish Kassino, docs/rules.md §3.19)
                building = r.build_kinds != "none"
                for sub in self._subsets(self._pool()) if creates and building else ():
                    if not sub:
                        continue
                    for vals in valuings(sub, top):
                        group = tuple(sorted([vp, *vals.values()]))
                        for v in range(group[-1], min(sum(group), r.build_max_value) + 1):
                            if _forms_build(group, vp, v, r.natural_build_combination):
                                moves.add(Move(p, BUILD, sub, v, self._fixed(vals | pv)))
                # augments
                for b in self.builds if augments else ():
                    w = b.value
                    if vp > w:
                        continue
                    for sub in self._subsets(self._pool()):
                        for vals in valuings(sub, w):
                            group = tuple(sorted([vp, *vals.values()]))
                            if r.natural_build_combination:
                                ok = _partitionable(group, w, 64)
                            else:
                                ok = sum(group) == w
                            if ok:
                                moves.add(Move(p, AUGMENT, sub | b.cards, w, self._fixed(vals | pv)))
                # increases
                for b in self.builds if increases else ():
                    if b.multiple:
                        continue
                    for sub in self._subsets(self._pool()):
                        for vals in valuings(sub, top):
                            w = b.value + vp + sum(vals.values())
                            if w <= r.build_max_value:
                                moves.add(Move(p, INCREASE, sub | b.cards, w, self._fixed(vals | pv)))
        return self._canonical(sorted(set(self._sweep_moves(moves, only, captures))))

    def _unlisted_multi_capture(self, p: int, takes: int) -> bool:
        """Whether :meth:`_pseudo_multi` lists no capture of ``takes`` by ``p`` at any of
        its hand values: none where the loose cards taken, at some valuing, split into
        groups of the value and every build taken has that value (explain's shortcut,
        ``State._malformed``)."""
        loose = takes & self.loose
        for vp in self._hand_values(p):
            if any(b.cards & takes and b.value != vp for b in self.builds):
                continue
            if not loose or any(groups_ok_values(tuple(sorted(vals.values())), vp, self.rules)
                                for vals in self._valuings(loose, vp)):
                return False
        return True

    def _unlisted_multi_create(self, p: int, takes: int, value: int) -> bool:
        """Whether :meth:`_pseudo_multi` lists no build of the loose cards ``takes`` and
        ``p`` at ``value``, at any hand value of ``p`` and valuing of the cards: none where
        the values total a multiple of ``value``, none above it, and split into groups of
        it (explain's shortcut, ``State._malformed``)."""
        r = self.rules
        if not takes or not 0 < value <= r.build_max_value:
            return True
        valuings = list(self._valuings(takes, max(r.build_max_value, 14)))
        return not any(
            _forms_build(tuple(sorted([vp, *vals.values()])), vp, value,
                         r.natural_build_combination)
            for vp in self._hand_values(p)
            for vals in valuings
        )

    def _kinds_raised(self, fixed: tuple[tuple[int, int], ...]) -> Counter[tuple[int, int]]:
        """How many cards of each kind (first value, second value) ``fixed`` raises."""
        r = self.rules
        return Counter((r.card_value(c), r.second_value(c)) for c, _ in fixed)

    def _canonical(self, moves: list[Move]) -> list[Move]:
        """One move per build (issue 24): build moves that differ only in which of
        interchangeable multi-valued cards (Royal aces) count their second value reach
        equal states; the first in move order (the lowest card ids) is kept."""
        out: list[Move] = []
        kept: dict[tuple[int, int, int, int], list[Counter[tuple[int, int]]]] = {}
        for m in moves:
            if m.kind in BUILD_KINDS and m.fixed:
                key = (m.card, m.kind, m.takes, m.value)
                raised = self._kinds_raised(m.fixed)
                if raised in kept.setdefault(key, []):
                    continue
                kept[key].append(raised)
            out.append(m)
        return out

    def _relabelled(self, move: Move, legal: list[Move]) -> Move | None:
        """The legal move that ``move`` writes with interchangeable cards labelled otherwise."""
        r = self.rules
        if move.kind not in BUILD_KINDS or not r.multi_valued:
            return None
        # each card written at a value must be a multi-valued card at its second value (as
        # the core's alt_of): "AS:13" is no labelling of an ace at all
        if any(v != r.second_value(c, on_table=c != move.card) for c, v in move.fixed):
            return None
        raised = self._kinds_raised(move.fixed)
        for m in legal:
            same = (m.card, m.takes, m.value) == (move.card, move.takes, move.value)
            if same and m.kind in BUILD_KINDS and self._kinds_raised(m.fixed) == raised:
                return m
        return None

    def _multi_reason(self, m: Move) -> str:
        """Why a move of a Royal or Buckeye game is not even structurally valid."""
        r = self.rules
        code = card_code(m.card)
        values = " or ".join(str(v) for v in self._hand_values(m.card))
        if m.kind == CAPTURE:
            for b in self.builds:
                if b.cards & m.takes and b.value not in self._hand_values(m.card):
                    return f"a build of {b.value} cannot be taken by the {code} ({values})"
            return f"the cards taken do not form groups totalling the {code}'s value ({values})"
        if m.value > r.build_max_value:
            return f"builds go up to {r.build_max_value}, not {m.value}"
        for c, v in m.fixed:
            if v != r.second_value(c, on_table=c != m.card):
                return f"{card_code(c)} cannot count {v} here"
        frozen = self._frozen_build_reason(m)
        if frozen:
            return frozen
        return f"the cards, at the values written, do not form groups totalling {m.value}"

    def _holding_conflict(self, m: Move, after: int, target: Build | None) -> str | None:
        """docs/rules.md §3.1 with multi-valued cards: after the play the player must hold a
        distinct card for each value of the builds he owns, the new build included (builds
        of one value count once). None if he does; else the conflict, named."""
        need = {m.value} if m.kind in BUILD_KINDS else set()
        if self.rules.holding_invariant:
            for b in self.builds:
                if b is target or not b.owners >> self.to_move & 1:
                    continue
                if m.kind == CAPTURE and b.cards & m.takes:
                    continue
                need.add(b.value)
        cards = {c: set(self._hand_values(c)) for c in bits(after)}
        if _matching(sorted(need), cards):
            return None
        # Hall's condition fails for some set of values: name the smallest
        for size in range(2, len(need) + 1):
            for vals in itertools.combinations(sorted(need), size):
                takers = [c for c, vs in cards.items() if vs & set(vals)]
                if len(takers) < size:
                    builds = " and ".join(f"your build of {v}" for v in vals)
                    if len(takers) == 1:
                        return f"your {card_code(takers[0])} cannot take both {builds}"
                    if not takers:
                        return f"you would hold no card to take {builds}"
                    held = ", ".join(card_code(c) for c in takers)
                    return f"your {held} cannot take all of {builds}"
        raise AssertionError("no Hall violator for an unmatched set")  # pragma: no cover

    def _pseudo_finnish(self, only: int | None = None) -> list[Move]:
        """Finnish Kasino (docs/rules.md §3.21, AMB-52): no building; a card takes any loose cards
        that form groups totalling its hand value (A 14, 2S 15, 10D 16, others as on the
        table), each group one card of that table value or a sum of table values (A 1, 2S
        2, 10D 10, J 11, Q 12, K 13). With ``rank_pairing_always`` a card may also take
        any loose cards of its own rank, each alone, beside such groups."""
        r = self.rules
        out: list[Move] = []
        for p in bits(self._playable(only)):
            out.append(Move(p, TRAIL))
            hv = r.hand_value(p)
            same = self.loose & rank_mask(card_rank(p)) if r.rank_pairing_always else 0
            cand = sum(1 << c for c in bits(self._pool()) if r.card_value(c) <= hv) | same
            for sub in self._subsets(cand):
                if sub and self._finnish_groups(sub, sub & same, hv):
                    out.append(Move(p, CAPTURE, sub))
        return self._sweep_moves(out, only)

    def _finnish_groups(self, sub: int, same: int, hv: int) -> bool:
        """Whether the loose cards ``sub``, but for some of ``same`` (cards of the played
        card's rank, each taken alone), split into groups of the hand value ``hv``."""
        r = self.rules
        return any(
            groups_ok_values(tuple(sorted(r.card_value(c) for c in bits(sub & ~pair))), hv, r)
            for pair in subsets(same)
        )

    def _unlisted_finnish(self, p: int, takes: int) -> bool:
        """Whether :meth:`_pseudo_finnish` lists no capture of ``takes`` by ``p``: none where
        the loose cards taken, but for some of p's rank taken alone (rank_pairing_always),
        split into groups of p's hand value (explain's shortcut, ``State._malformed``)."""
        r = self.rules
        if not takes or takes & ~self.loose:
            return True
        same = takes & rank_mask(card_rank(p)) if r.rank_pairing_always else 0
        return not self._finnish_groups(takes, same, r.hand_value(p))

    def _finnish_reason(self, m: Move) -> str:
        """Why a Finnish Kasino capture is not legal (docs/rules.md §3.21, AMB-52)."""
        r = self.rules
        code = card_code(m.card)
        hv = r.hand_value(m.card)
        why = f"the cards taken do not form groups totalling the {code}'s hand value ({hv})"
        if hv != r.card_value(m.card) and not r.rank_pairing_always:
            why += (
                f"; from hand the {code} counts {hv}, so it does not take a lone "
                f"{card_code(m.card)[:-1]} (AMB-52; rank_pairing_always=true allows it)"
            )
        return why

