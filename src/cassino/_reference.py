"""The pure-Python reference implementation, :mod:`cassino.reference` (one module per
mechanic), under the name the rest of the project and its users import: the oracle for the
Cython core, with the same API as :mod:`cassino._core`."""

from __future__ import annotations

from .reference import (
    State,
    bits,
    duty_reason,
    first_player,
    groups_ok,
    groups_ok_values,
    initial_deal,
    initial_pairs,
    next_seat,
    random_hand,
    subsets,
    system_deck,
)
from .reference import _matching as _matching
from .reference import _unpickle as _unpickle

__all__ = [
    "State",
    "bits",
    "duty_reason",
    "first_player",
    "groups_ok",
    "groups_ok_values",
    "initial_deal",
    "initial_pairs",
    "next_seat",
    "random_hand",
    "subsets",
    "system_deck",
]
