"""The pure-Python reference implementation: clarity first, the oracle for the Cython core.

It has the same API as :mod:`cassino._core`; ``CASSINO_PURE_PYTHON=1`` makes
``cassino.State`` this package's :class:`State`. One module per mechanic, each the mirror
of the core include file of the same name (``src/cassino/core/<name>.pxi``); the map is in
docs/architecture.md §14:

========================  ====================================================
``captures``              groups and sums, sweeps, single-group and two-card captures
``builds``                builds and ownership, the build filters and obligations
``declarations``          Diloti declarations and raises
``multi``                 card values: multi-valued cards, hand values (Finnish)
``decks``                 each system's deck
``deals``                 deals, turn order, the end of a hand, plucks
``scoring``               the hand score of a state
``state``                 the state: positions, legal moves, push and pop, explain
========================  ====================================================
"""

from __future__ import annotations

from .base import bits, subsets
from .builds import duty_reason
from .captures import groups_ok, groups_ok_values
from .deals import first_player, initial_deal, initial_pairs, next_seat
from .decks import system_deck
from .multi import _matching as _matching
from .state import State, random_hand
from .state import _unpickle as _unpickle

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
