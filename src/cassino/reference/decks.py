"""Decks: the cards of each system's deck. The core side: ``core/decks.pxi``."""

from __future__ import annotations

from typing import Any

from ..errors import PositionError
from ..rules import Rules


def system_deck(rules: Rules, cards: Any) -> list[int]:
    """``cards`` checked to be a shuffle of the system's cards; a shuffle of all 52 cards is
    accepted too, and the cards the system sets aside (five-player: 2D 2H 2C) are dropped."""
    deck: list[int] = list(cards)
    if rules.num_ids != 52 or rules.palette:
        ids = [c for c in range(rules.num_ids) if rules.dealt_mask >> c & 1]
        if sorted(deck) == ids:
            return deck
        if sorted(deck) == list(range(rules.num_ids)):
            return rules.deck_cards(deck)
        raise PositionError(
            f"deck must be a permutation of the {len(ids)} cards {rules.system} deals, or of "
            f"its {rules.num_ids} card ids"
        )
    if sorted(deck) == list(range(52)):
        return rules.deck_cards(deck)
    if rules.deck_size != 52 and sorted(deck) == rules.deck_cards(list(range(52))):
        return deck
    if rules.deck_size == 52:
        raise PositionError("deck must be a permutation of the 52 card ids")
    raise PositionError(
        f"deck must be a permutation of the 52 card ids or of the {rules.deck_size} cards "
        f"of {rules.system}"
    )


