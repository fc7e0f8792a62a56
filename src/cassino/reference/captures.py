"""Captures and sums: groups of loose cards totalling a value, sweeps, single-group captures
(Kontsina) and two-card captures (Callabra). The core side: ``core/captures.pxi``."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator

from ..cards import FACES, JOKERS, card_code, card_rank, double_mask, is_joker, rank_mask
from ..moves import Move
from ..position import card_value, mask_sum
from ..rules import Rules
from .base import (
    BUILD_KINDS,
    CAPTURE,
    FIVE_OF_SPADES,
    STEAL,
    TRAIL,
    TWO_CARD,
    StateBase,
    bits,
    subsets,
)


def _values(mask: int) -> tuple[int, ...]:
    return tuple(sorted(card_value(c) for c in bits(mask)))


@functools.lru_cache(maxsize=1 << 16)
def _partitionable(values: tuple[int, ...], v: int, max_sum_groups: int) -> bool:
    """Whether the multiset ``values`` splits into groups each totalling ``v``, where a group
    of two or more cards is a sum group and at most ``max_sum_groups`` of them are used."""
    if not values:
        return True
    first, rest = values[-1], values[:-1]  # the largest value: fewer branches
    if first > v:
        return False
    if first == v:
        return _partitionable(rest, v, max_sum_groups)
    if max_sum_groups == 0:
        return False
    need = v - first
    seen: set[tuple[int, ...]] = set()
    n = len(rest)
    for m in range(1, 1 << n):
        chosen = tuple(rest[i] for i in range(n) if m >> i & 1)
        if sum(chosen) != need or chosen in seen:
            continue
        seen.add(chosen)
        left = list(rest)
        for x in chosen:
            left.remove(x)
        if _partitionable(tuple(left), v, max_sum_groups - 1):
            return True
    return False


def groups_ok_values(values: tuple[int, ...], v: int, rules: Rules) -> bool:
    """Whether cards of the sorted ``values`` form disjoint capture groups of value ``v``."""
    if any(x > v for x in values) or (v > 0 and sum(values) % v):
        return False
    return _partitionable(values, v, 1 if rules.sum_groups == "single" else 64)


def groups_ok(mask: int, v: int, rules: Rules) -> bool:
    """Whether the loose cards of ``mask`` form disjoint capture groups of value ``v``."""
    max_sum = 1 if rules.sum_groups == "single" else 64
    return _partitionable(_values(mask), v, max_sum)


@functools.lru_cache(maxsize=1 << 14)
def yoruba_ok(counts: tuple[int, ...], v: int, whole: bool) -> bool:
    """mod_yoruba (docs/rules.md §3.29, AMB-78): whether cards of values 1 to v - 1 (``counts[x]``
    of value x) split into sum groups of ``v`` none of which holds two cards of one value
    (``whole``: no value twice among them all). The group of the largest card is chosen
    first, its other cards by descending distinct values, as the core's ``yo_part``."""
    if whole and any(n > 1 for n in counts):
        return False
    cnt = list(counts)

    def part() -> bool:
        x = v - 1
        while x > 0 and cnt[x] == 0:
            x -= 1
        if x == 0:
            return True
        cnt[x] -= 1
        ok = choose(v - x, min(v - x, x - 1))
        cnt[x] += 1
        return ok

    def choose(need: int, top: int) -> bool:
        if need == 0:
            return part()
        for y in range(min(top, need), 0, -1):
            if cnt[y]:
                cnt[y] -= 1
                ok = choose(need - y, y - 1)
                cnt[y] += 1
                if ok:
                    return True
        return False

    return part()


def _sweep_cards(rules: Rules) -> tuple[int, int]:
    """The cards that capture every item when played on a table with prey (both copies
    of Mulle's double deck), and what then becomes of their other moves: 0 the trail goes
    (the five of spades), 1 every other move goes (Tablanette Jacks, Elewenjewe jokers),
    2 every other move but the trail goes (joker_trail, AMB-76)."""
    if rules.five_of_spades_sweep:
        cards, mode = 1 << FIVE_OF_SPADES, 0
    elif rules.jacks_take_all:
        cards, mode = rank_mask(11), 1
    elif rules.jokers and "elewenjewe" in rules.mechanics:
        return rules.deck_mask & JOKERS, 2 if rules.joker_trail else 1   # (Ipalemo)
    else:
        return 0, 0
    return (double_mask(cards) if rules.num_ids > 52 else cards), mode


def _with_builds(p: int, loose: int, bmask: list[int]) -> Iterator[Move]:
    """The captures by ``p`` of the ``loose`` cards together with each subset of the builds
    ``bmask`` (builds of the capturing value: each taken whole or not at all)."""
    for chosen in range(1 << len(bmask)):
        if not loose and not chosen:
            continue
        takes = loose
        for i, bm in enumerate(bmask):
            if chosen >> i & 1:
                takes |= bm
        yield Move(p, CAPTURE, takes)


def _unions(masks: list[int]) -> Iterator[int]:
    """The union of each subset of ``masks`` (disjoint card masks), the empty one first."""
    for chosen in range(1 << len(masks)):
        yield sum(m for i, m in enumerate(masks) if chosen >> i & 1)


_MULTI = Rules(sum_groups="multi")


class Captures(StateBase):
    """The captures mechanic of :class:`cassino.reference.State`."""

    def _captures(self, p: int) -> Iterator[Move]:
        r = self.rules
        if is_joker(p):
            return   # (a joker has no value and no rank: Ipalemo, _sweep_moves)
        if r.capture_extent == "single_group":
            yield from self._single_group(p)
            return
        v = card_value(p)
        if v == 0:
            same = self.loose & rank_mask(card_rank(p))
            if r.face_cards_all_four:
                # any loose cards of the rank (face_capture=any), with the natural face
                # builds of the rank taken whole
                bmask = [b.cards for b in self.builds if b.value == card_rank(p)]
                for loose in subsets(same):
                    yield from _with_builds(p, loose, bmask)
                return
            k = same.bit_count()
            for sub in subsets(same):
                n = sub.bit_count()
                if n == 0:
                    continue
                if (
                    n == 1
                    or r.face_capture == "any"
                    or (r.face_capture == "one_or_three" and n == 3 and k == 3)
                ):
                    yield Move(p, CAPTURE, sub)
            return
        cand = sum(1 << c for c in bits(self._pool()) if 0 < card_value(c) <= v)
        bmask = self._esun_prey(v) if r.esun else [b.cards for b in self.builds if b.value == v]
        for loose in self._subsets(cand):
            if not groups_ok(loose, v, r):
                continue
            yield from _with_builds(p, loose, bmask)

    def _single_group(self, p: int) -> Iterator[Move]:
        """capture_extent=single_group (Kontsina, docs/rules.md §3.16, AMB-38, AMB-39): one loose
        card of p's rank, or one sum group of two or more loose numeric cards totalling its
        value; with combine_match_and_sum one of each together. Faces match by rank only,
        and not at all with faces_capturable=false."""
        r = self.rules
        v = card_value(p)
        same = self.loose & rank_mask(card_rank(p)) if v or r.faces_capturable else 0
        matches = [1 << c for c in bits(same)]
        sums: list[int] = []
        if v:
            cand = sum(1 << c for c in bits(self._pool()) if 0 < card_value(c) < v)
            sums = [s for s in subsets(cand) if s.bit_count() >= 2 and mask_sum(s) == v]
        for takes in matches + sums:
            yield Move(p, CAPTURE, takes)
        if r.combine_match_and_sum:
            for m in matches:
                for s in sums:
                    yield Move(p, CAPTURE, m | s)

    def _all_matches_reason(self, m: Move) -> str | None:
        """capture_extent=all_matches outside Diloti (Shaniss, AMB-83): a capture that takes
        a loose card of the played card's rank takes every one of them; face cards only with
        face_capture=any (otherwise the face rules limit them)."""
        p = m.card
        if is_joker(p) or (not card_value(p) and self.rules.face_capture != "any"):
            return None
        same = self.loose & double_mask(rank_mask(card_rank(p)))
        got = m.takes & same
        if got and got != same:
            names = " ".join(card_code(c) for c in bits(same))
            return (
                f"capture_extent=all_matches: a match takes every loose card of its rank, "
                f"here {names}, or none of them"
            )
        return None

    def _with_jokers(self, moves: list[Move]) -> list[Move]:
        """Elewenjewe (AMB-76): a capture also takes every loose joker (a joker played on an
        empty table stays there for the next capture)."""
        jk = self.loose & JOKERS
        if not jk:
            return moves
        return [Move(m.card, m.kind, m.takes | jk) if m.kind == CAPTURE and not is_joker(m.card)
                else m for m in moves]

    def _yoruba_reason(self, m: Move) -> str | None:
        """mod_yoruba (AMB-78): the capture's sum groups hold no denomination twice (per group,
        or with yoruba_scope=capture in all of them); its cards of the played value are
        matches."""
        v = card_value(m.card)
        if not v or is_joker(m.card):
            return None
        counts = [0] * v
        for c in bits(m.takes & self.loose):
            x = card_value(c)
            if 0 < x < v:
                counts[x] += 1
        whole = self.rules.yoruba_scope == "capture"
        if yoruba_ok(tuple(counts), v, whole):
            return None
        where = "the sums of one capture" if whole else "a sum group"
        return f"mod_yoruba: {where} may not hold two cards of one denomination (AMB-78)"

    def _match_one_reason(self, m: Move) -> str | None:
        """match_one (AMB-73 option): a capture takes at most one loose card of its rank."""
        if is_joker(m.card):
            return None   # (Ipalemo takes everything)
        same = self.loose & m.takes & double_mask(rank_mask(card_rank(m.card)))
        if same.bit_count() > 1:
            return "match_one: a capture takes one loose card of its rank at most (AMB-73)"
        return None

    def _compelled(self, legal: list[Move], reasons: dict[Move, str]) -> list[Move]:
        """compulsion=player (Shaniss, AMB-83; Stealing Bundles, AMB-85): when some capture
        or bundle steal is legal, only those are."""
        takes = [m for m in legal if m.kind in (CAPTURE, STEAL)]
        if not takes:
            return legal
        for m in legal:
            if m.kind not in (CAPTURE, STEAL):
                reasons[m] = (
                    f"compulsion=player: you can capture (e.g. {takes[0]}), so you must"
                )
        return takes

    # -- Stealing Bundles (pile_access=steal_pile, docs/rules.md §3.31, AMB-85) ----------------
    def _pseudo_bundles(self, only: int | None = None) -> list[Move]:
        """Per hand card: the trail, the capture of every loose card of its rank, and the steal
        of each other team's bundle whose top card has its rank (steal_and_capture: also
        with those loose cards)."""
        out: list[Move] = []
        for p in bits(self._playable(only)):
            same = self.loose & rank_mask(card_rank(p))
            out.append(Move(p, TRAIL))
            if same:
                out.append(Move(p, CAPTURE, same))
            out.extend(self._steals(p, same))
        return out

    def _steals(self, p: int, same: int = 0) -> list[Move]:
        """The steals by hand card ``p`` of each other team's whole pile whose top card has
        its rank (steal_and_capture: also with the loose cards ``same`` of its rank); Stealing
        Bundles and Bella Donna Halliel (docs/rules.md §3.34)."""
        out: list[Move] = []
        me = self.rules.team_of(self.to_move)
        for t, pile in enumerate(self.piles):
            if t != me and pile and card_rank(pile[-1]) == card_rank(p):
                bundle = sum(1 << c for c in pile)
                out.append(Move(p, STEAL, bundle))
                if self.rules.steal_and_capture and same:
                    out.append(Move(p, STEAL, bundle | same))
        return out

    def _steal_reason(self, m: Move) -> str:
        """Why the steal ``m`` is not legal here (its card is in the hand)."""
        code = card_code(m.card)
        if self.rules.pile_access != "steal_pile":
            return f"{self.rules.system} has no bundle steals"
        me = self.rules.team_of(self.to_move)
        loose = m.takes & self.loose
        bundle = m.takes & ~self.loose
        for t, pile in enumerate(self.piles):
            if t == me or not pile or sum(1 << c for c in pile) != bundle:
                continue
            if card_rank(pile[-1]) != card_rank(m.card):
                return f"the top card of bundle {t} is {card_code(pile[-1])}: a {code} cannot steal it"
            if loose and not self.rules.steal_and_capture:
                return "one steal or one table capture a turn, not both (AMB-85)"
            return f"a steal with table cards takes every loose card of the {code}'s rank"
        if bundle and sum(1 << c for c in self.piles[me]) == bundle:
            return "you cannot steal your own bundle"
        return "a steal takes one other player's whole bundle"

    def _sweep_takes(self) -> int:
        """What a capture-all card takes: every table item, or every loose card only."""
        if self.rules.five_of_spades_sweep and not self.rules.five_of_spades_builds:
            return self.loose
        return self.table_mask

    def _sweep_moves(self, moves: Iterable[Move], only: int | None, captures: bool = True) -> list[Move]:
        """``moves`` (pseudo moves) with the capture-all plays (docs/rules.md §3.37
        opt_five_of_spades_sweep, §3.15 Tablanette Jacks): a sweep card played on a table with
        prey takes all of it (:meth:`_sweep_takes`). That capture replaces the card's trail and
        its ordinary capture of the same cards, and with ``sweep_only`` every move of the card.
        ``captures=False`` (a listing without captures) drops those moves and adds none. As the
        core's ``sweep_pass``."""
        sweep_cards, mode = _sweep_cards(self.rules)
        prey = self._sweep_takes()
        cards = self._playable(only) & sweep_cards if prey else 0
        if not cards:
            return list(moves)
        out = [m for m in moves if not (cards >> m.card & 1 and (
            (mode == 1) or (mode == 2 and m.kind != TRAIL)
            or (mode == 0 and (m.kind == TRAIL or (m.kind == CAPTURE and m.takes == prey)))))]
        if captures:
            out.extend(Move(p, CAPTURE, prey) for p in bits(cards))
        return out

    def _unlisted_single_group(self, p: int, takes: int) -> bool:
        """Whether :meth:`_single_group` lists no capture of ``takes`` by ``p``: one loose
        card of p's rank, or two or more loose numeric cards below p's value totalling it,
        or (combine_match_and_sum) one of each together (explain's shortcut,
        ``State._malformed``)."""
        r = self.rules
        v = card_value(p)
        if takes & ~self.loose:
            return True
        same = takes & rank_mask(card_rank(p)) if v or r.faces_capturable else 0
        group = takes & ~same
        if same.bit_count() > 1:
            return True
        if not group:
            return not same
        if not v or (same and not r.combine_match_and_sum) or group.bit_count() < 2:
            return True
        return not (all(0 < card_value(c) < v for c in bits(group)) and mask_sum(group) == v)

    def _unlisted_callabra(self, m: Move) -> bool:
        """Whether :meth:`_pseudo_callabra` lists no move of ``m``'s shape: it lists no build,
        and captures of one loose card of the card's value only (explain's shortcut; the
        two-card captures keep the listing)."""
        if m.kind in BUILD_KINDS:
            return True
        if m.kind != CAPTURE:
            return False
        value = self.rules.card_value
        t = m.takes.bit_length() - 1
        return not (
            m.takes.bit_count() == 1 and self.loose >> t & 1 and value(t) == value(m.card)
        )

    def _single_group_reason(self, m: Move) -> str:
        """Why a capture is not one group (capture_extent=single_group, Kontsina)."""
        r = self.rules
        code = card_code(m.card)
        faces = m.takes & FACES
        if faces and not r.faces_capturable:
            return (
                f"faces_capturable=false: the {card_code(next(bits(faces)))} cannot be taken; "
                "faces stay on the table until the leftovers (AMB-38)"
            )
        if not card_value(m.card) or faces:
            return f"a face card takes and is taken only by rank, one card at a time ({code})"
        one = "one card of its rank or one group of cards totalling its value"
        if r.combine_match_and_sum:
            one = "one card of its rank and/or one group of cards totalling its value"
        return (
            f"capture_extent=single_group: the {code} ({card_value(m.card)}) takes {one} "
            "(AMB-39)"
        )

    def _pseudo_callabra(self, only: int | None = None) -> list[Move]:
        """Callabra (docs/rules.md §3.14, AMB-36): every card trails; a card takes one loose card
        of its value; two hand cards take one loose card of their total. No building, no
        sums of table cards."""
        value = self.rules.card_value
        hand = list(bits(self.hands[self.to_move]))
        table = list(bits(self.loose))
        out: list[Move] = []
        for i, p in enumerate(hand):
            if only is not None and p != only:
                continue   # (a two-card capture is written with its lower card)
            out.append(Move(p, TRAIL))
            out.extend(Move(p, CAPTURE, 1 << t) for t in table if value(t) == value(p))
            for q in hand[i + 1 :]:
                total = value(p) + value(q)
                out.extend(
                    Move(p, TWO_CARD, 1 << q | 1 << t, total) for t in table if value(t) == total
                )
        return sorted(out)

    def _callabra_reason(self, m: Move) -> str:
        """Why a move is not a Callabra play here."""
        value = self.rules.card_value
        code = card_code(m.card)
        if m.kind in BUILD_KINDS:
            return "there is no building in callabra: trail, match one table card or play two cards"
        if m.kind == CAPTURE:
            if m.takes.bit_count() != 1:
                return (
                    f"a capture in callabra takes exactly one table card, not {m.takes.bit_count()}"
                )
            t = m.takes.bit_length() - 1
            return (
                f"the {code} ({value(m.card)}) cannot take the {card_code(t)} ({value(t)}): "
                "a card takes only a table card of the same value"
            )
        if m.kind == TWO_CARD:
            second, t = m.second_card, m.table_card
            if not self.hands[self.to_move] >> second & 1:
                return f"{card_code(second)} is not in the hand of seat {self.to_move}"
            if not self.loose >> t & 1:
                return f"{card_code(t)} is not on the table"
            total = value(m.card) + value(second)
            return (
                f"{code} and {card_code(second)} add up to {total}, not the {card_code(t)}'s "
                f"{value(t)}"
            )
        return f"{m} is not a callabra move"

