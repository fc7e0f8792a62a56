"""Scoring: the hand score of a state (categories in cassino.scoring) and the Finnish Mokki
limits. The core side: ``core/scoring.pxi``."""

from __future__ import annotations

from ..scoring import HandScore, immediate_points, score_hand
from .base import (
    StateBase,
)


class Scoring(StateBase):
    """The scoring mechanic of :class:`cassino.reference.State`."""

    def hand_score(self) -> HandScore:
        """Scoring of the captured piles and sweeps so far."""
        if self.rules.compound:
            return self._compound_score()
        last = self.last_capturer
        # Sistan (Swedish Kassino): the last capturer of a finished hand
        team = self.rules.team_of(last) if last is not None and self.is_over else None
        return score_hand(
            self.rules, self.piles, self.sweep_order, self.defaults, last_team=team,
            scores=self.scores,
            mulles=self.mulles,
            bonuses=self.bonuses,
        )

    def hand_totals(self) -> list[int]:
        """Points per team of the piles and sweeps so far: ``hand_score().totals()``."""
        return self.hand_score().totals()

    def _mokki_counts(self) -> bool:
        """Whether a Mokki (sweep) made now counts (Finnish Kasino, docs/rules.md §3.21, AMB-54):
        never in the last deal of the hand; with ``mokki_cutoff_check=capture`` not once a
        player's running game score (at the start of the hand, plus the point cards
        captured in it so far, this capture's included) has reached ``mokki_cutoff``."""
        r = self.rules
        if not self.stock:
            return False
        if r.mokki_cutoff and r.mokki_cutoff_check == "capture":
            now = immediate_points(r, self.piles, self.sweep_order)
            if any(s + n >= r.mokki_cutoff for s, n in zip(self.scores, now, strict=True)):
                return False
        return True

