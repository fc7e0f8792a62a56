"""Esun piles (opt_esun, docs/rules.md §3.37, AMB-74, AMB-75; with mod_yoruba, §3.29): a
numeric hand card laid with loose numeric cards makes one pile of their total, never
added to or split, taken by a card of its total or by one whose value splits all its cards
into two or more groups of that value; its creator holds such a card, and loses the top
card of his pile to the table if the Esun is still there at the next deal or the end of
the hand. The core side: ``esun_*`` in ``core/captures.pxi`` and ``core/deals.pxi``."""

from __future__ import annotations

from collections.abc import Iterator

from .._rng import Rng
from ..cards import JOKERS, card_code
from ..moves import Move
from ..position import Build, card_value, mask_sum
from .base import BUILD, StateBase, bits
from .captures import _partitionable


def esun_values(cards: int) -> tuple[int, ...]:
    """The sorted values of an Esun's cards."""
    return tuple(sorted(card_value(c) for c in bits(cards)))


def esun_takes(values: tuple[int, ...], w: int, yoruba: bool) -> bool:
    """Whether a card of value ``w`` takes an Esun of the sorted ``values``: ``w`` is their
    total, or they split into two or more groups each totalling ``w`` (a group may be one
    card of ``w``, AMB-74); with mod_yoruba never a card of a denomination in it."""
    total = sum(values)
    if w <= 0 or (yoruba and w in values):
        return False
    if w == total:
        return True
    return w < total and total % w == 0 and values[-1] <= w and _partitionable(values, w, 64)


class Esun(StateBase):
    """The Esun mechanic of :class:`cassino.reference.State`."""

    def _esun_prey(self, v: int) -> list[int]:
        """The Esun piles a card of value ``v`` takes (each whole or not at all)."""
        yoruba = self.rules.yoruba
        return [b.cards for b in self.builds if esun_takes(esun_values(b.cards), v, yoruba)]

    def _esun_creates(self, p: int) -> Iterator[Move]:
        """The Esun piles of the numeric card ``p`` and loose numeric cards whose total some
        other hand card could take: a total it equals, or a multiple of it with no card
        above it (:meth:`_esun_reason` checks the rest)."""
        vp = card_value(p)
        if not vp or p >= 104:
            return
        held = {card_value(c) for c in bits(self.hands[self.to_move] & ~(1 << p))} - {0}
        if not held:
            return
        cand = sum(1 << c for c in bits(self._pool() & ~JOKERS) if 0 < card_value(c) <= max(held))
        for s in self._subsets(cand):
            if not s:
                continue
            total = vp + mask_sum(s)
            top = max(vp, *(card_value(c) for c in bits(s)))
            if any(total == w or (total % w == 0 and top <= w) for w in held):
                yield Move(p, BUILD, s, total)

    def _esun_reason(self, m: Move) -> str | None:
        """Why the Esun creation ``m`` (a listed one) is illegal here, or None."""
        values = esun_values(m.takes | 1 << m.card)
        yoruba = self.rules.yoruba
        if yoruba and len(set(values)) < len(values):
            return "mod_yoruba: an Esun may not hold two cards of one denomination (AMB-78)"
        after = self.hands[self.to_move] & ~(1 << m.card)
        if not any(esun_takes(values, card_value(c), yoruba) for c in bits(after)):
            return (
                f"an Esun of {m.value} needs a card left in your hand that takes it: one of "
                f"{m.value}, or one whose value splits all its cards into groups"
                + (" (mod_yoruba: of no denomination in it)" if yoruba else "")
            )
        return None

    def _esun_unlisted(self, m: Move) -> str | None:
        """The structural reason of an Esun creation no generator lists, or None."""
        cards = m.takes | 1 << m.card
        if m.takes & ~self.loose:
            return "an Esun can never be added to or split: make a new one of loose cards"
        faces = [c for c in bits(cards) if not card_value(c)]
        if faces:
            return f"an Esun holds numeric cards only, not {card_code(faces[0])}"
        if m.value != mask_sum(cards):
            return f"an Esun's value is the total of its cards, {mask_sum(cards)}, not {m.value}"
        return (
            f"an Esun of {m.value} needs a card left in your hand that takes it: one of "
            f"{m.value}, or one whose value splits all its cards into groups"
        )

    def _esun_taken(self, takes: int, seat: int) -> None:
        """esun_penalty=unless_creator_took (AMB-75 option): ``seat`` takes ``takes``; each
        due Esun among them made by another seat still costs its creator a card at the
        deadline (``esun_owed``)."""
        owed = list(self.esun_owed)   # (a new list: snapshots and clones share the old)
        for b in self.builds:
            if b.due and b.cards & takes and not b.owners >> seat & 1:
                owed[b.owners.bit_length() - 1] = min(owed[b.owners.bit_length() - 1] + 1, 255)
        self.esun_owed = owed

    def _esun_penalties(self) -> None:
        """The deadline of the Esun piles made since the last deal (the next deal, or the
        end of the hand before the leftovers, AMB-75): the creator of each one still on
        the table (and with esun_penalty=unless_creator_took of each one an opponent took)
        loses a card of his pile, face up to the table (nothing when his pile is empty):
        the top one, or with esun_penalty_card=random one the hand's chance RNG draws; seat
        by seat, a seat's penalties in a row. The Esun piles stay, no longer due."""
        due = [0] * self.rules.players
        for b in self.builds:
            if b.due:
                due[b.owners.bit_length() - 1] += 1
        owed = [d + o for d, o in zip(due, self.esun_owed, strict=True)]
        if not any(owed):
            return
        for seat, n in enumerate(owed):
            pile = self.piles[self.rules.team_of(seat)]
            for _ in range(n):
                if not pile:
                    break
                if self.chance is None:
                    self.loose |= 1 << pile.pop()
                else:
                    rng = Rng(self.chance)
                    self.loose |= 1 << pile.pop(rng.below(len(pile)))
                    self.chance = rng.state
        self.builds = [Build(b.value, b.cards, b.owners, b.multiple, b.fixed, b.raised)
                       for b in self.builds]
        self.esun_owed = [0] * self.rules.players
