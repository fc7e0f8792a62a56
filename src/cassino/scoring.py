"""End-of-hand scoring and the game-end check (RULES.md §3.1).

Categories are scored in the ordered-tally order: most cards 3, most spades 1,
big cassino (10D) 2, little cassino (2S) 1, the aces of spades, clubs, hearts and
diamonds 1 each, then sweeps in the order they were made.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import SPADES, parse_card, rank_mask
from .rules import Rules

__all__ = ["CATEGORIES", "HandScore", "score_hand", "tally_winner"]

CATEGORIES = (
    "cards",
    "spades",
    "big_cassino",
    "little_cassino",
    "ace_spades",
    "ace_clubs",
    "ace_hearts",
    "ace_diamonds",
    "sweeps",
    "pictures",
)

_SINGLES = (
    ("big_cassino", parse_card("10D"), 2),
    ("little_cassino", parse_card("2S"), 1),
    ("ace_spades", parse_card("AS"), 1),
    ("ace_clubs", parse_card("AC"), 1),
    ("ace_hearts", parse_card("AH"), 1),
    ("ace_diamonds", parse_card("AD"), 1),
)


_PICTURES = rank_mask(11) | rank_mask(12) | rank_mask(13)


@dataclass(frozen=True)
class HandScore:
    """Points of one hand: ``events`` lists ``(category, team, points)`` in tally order."""

    num_teams: int
    events: tuple[tuple[str, int, int], ...]

    def totals(self) -> list[int]:
        """Points per team."""
        out = [0] * self.num_teams
        for _, team, pts in self.events:
            out[team] += pts
        return out

    def categories(self, team: int) -> dict[str, int]:
        """Points per category for one team (every category listed, zeros included)."""
        out = dict.fromkeys(CATEGORIES, 0)
        for cat, t, pts in self.events:
            if t == team:
                out[cat] += pts
        return out

    def to_dict(self) -> dict[str, object]:
        """The ``cassino score`` JSON form."""
        return {
            "teams": [
                {"total": self.totals()[t], "categories": self.categories(t)}
                for t in range(self.num_teams)
            ]
        }


def _unique_max(counts: Sequence[int]) -> int | None:
    best = max(counts)
    winners = [t for t, c in enumerate(counts) if c == best]
    return winners[0] if len(winners) == 1 else None


def score_hand(rules: Rules, piles: Sequence[Sequence[int]], sweep_order: Sequence[int]) -> HandScore:
    """Score captured piles (per team) and the sweeps made, in ordered-tally order."""
    events: list[tuple[str, int, int]] = []
    masks = [sum(1 << c for c in p) for p in piles]
    most = _unique_max([len(p) for p in piles])
    if most is not None and rules.most_cards_points:
        events.append(("cards", most, rules.most_cards_points))
    if rules.card_points:
        most = _unique_max([(m & SPADES).bit_count() for m in masks])
        if most is not None:
            events.append(("spades", most, 1))
        for name, card, pts in _SINGLES:
            for t, m in enumerate(masks):
                if m >> card & 1:
                    events.append((name, t, pts))
    if rules.picture_points:
        # Tablanette (RULES.md §3.15): points for every J, Q and K taken
        for t, m in enumerate(masks):
            n = (m & _PICTURES).bit_count()
            if n:
                events.append(("pictures", t, n * rules.picture_points))
    if rules.sweeps:
        for t in sweep_order:
            events.append(("sweeps", t, rules.sweep_points))
    return HandScore(rules.num_teams, tuple(events))


def tally_winner(rules: Rules, scores: Sequence[int], hand: HandScore) -> tuple[list[int], int | None]:
    """Apply a hand's points to game ``scores``; return the new scores and the winner (or None).

    ``ordered_tally``: points are added category by category and the first team to reach
    the target wins at once. ``compare_totals``: after the full tally, the higher total at
    or above the target wins; equal totals play another hand.
    """
    new = list(scores)
    if rules.end_check == "ordered_tally":
        winner = None
        for _, team, pts in hand.events:
            new[team] += pts
            if winner is None and new[team] >= rules.target:
                winner = team
        return new, winner
    for t, pts in enumerate(hand.totals()):
        new[t] += pts
    best = max(new)
    if best < rules.target:
        return new, None
    leaders = [t for t, s in enumerate(new) if s == best]
    return new, leaders[0] if len(leaders) == 1 else None
