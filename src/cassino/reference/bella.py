"""Bella Donna's bonuses (docs/rules.md §3.33, AMB-92): a capture that takes the card the
previous player trailed on his last turn (Fixxa) or clears the table (Stoppa) scores +1 a
card, the card played included; both at once +1 (fixxa_stoppa=once) or +2 (stack). The
core side: ``fixxa_stoppa`` in ``core/deals.pxi``."""

from __future__ import annotations

from ..moves import Move
from .base import CAPTURE, TRAIL, StateBase


class BellaDonna(StateBase):
    """The Fixxa and Stoppa of :class:`cassino.reference.State`."""

    def _fixxa_stoppa(self, m: Move, team: int) -> None:
        """After ``m`` (its cards moved, before the next deal): its bonus, and the card a
        capture must take next for a Fixxa (the card ``m`` trailed, or none)."""
        if m.kind == CAPTURE:
            fixxa = self.fixxa is not None and bool(m.takes >> self.fixxa & 1)
            stoppa = not self.table_mask
            k = fixxa + stoppa if self.rules.fixxa_stoppa == "stack" else int(fixxa or stoppa)
            if k:
                bonuses = list(self.bonuses)   # (a new list: snapshots and clones share the old)
                bonuses[team] = min(255, bonuses[team] + k * (m.takes.bit_count() + 1))
                self.bonuses = bonuses
        # (the hand's last card leaves no Fixxa: the leftovers go, and a new hand starts afresh)
        self.fixxa = m.card if m.kind == TRAIL and (any(self.hands) or self.stock) else None
