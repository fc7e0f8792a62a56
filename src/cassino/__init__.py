"""cassino: rules engine and legal-move generator for the Cassino family of fishing games.

>>> import cassino
>>> state = cassino.new_hand("cassino_standard", seed=7)
>>> moves = state.legal_moves()
>>> len(moves) == state.count_moves() > 0
True
>>> _ = state.push(moves[0]); _ = state.pop()
"""

import os as _os
from typing import Any as _Any

from . import _reference
from ._rng import Rng, shuffled_deck
from .cards import CardSet, card_code, parse_card
from .errors import (
    CardError,
    CassinoError,
    IllegalMoveError,
    MoveLimitError,
    NotationError,
    PositionError,
    RulesError,
    UnknownSystemError,
)
from .game import Game
from .moves import Move, MoveKind
from .playouts import Playouts, hand_seed, playouts
from .position import Build, Position
from .rules import SYSTEMS, Rules, compound_systems, implemented_systems, parse_option, rules
from .scoring import HandScore, score_hand
from .simulate import simulate

__all__ = [
    "IMPLEMENTATION",
    "SYSTEMS",
    "Build",
    "CardError",
    "CardSet",
    "CassinoError",
    "Game",
    "HandScore",
    "IllegalMoveError",
    "Move",
    "MoveKind",
    "MoveLimitError",
    "NotationError",
    "Playouts",
    "Position",
    "PositionError",
    "Rng",
    "Rules",
    "RulesError",
    "State",
    "UnknownSystemError",
    "card_code",
    "compound_systems",
    "hand_seed",
    "implemented_systems",
    "new_hand",
    "parse_card",
    "parse_option",
    "playouts",
    "random_hand",
    "rules",
    "score_hand",
    "shuffled_deck",
    "simulate",
]

__version__ = "0.1.0"

State: _Any
random_hand: _Any
if _os.environ.get("CASSINO_PURE_PYTHON", "") not in ("", "0"):
    State = _reference.State
    random_hand = _reference.random_hand
    IMPLEMENTATION = "reference"
else:
    try:
        from . import _core
    except ImportError:  # pragma: no cover - only without a compiled core
        State = _reference.State
        random_hand = _reference.random_hand
        IMPLEMENTATION = "reference"
    else:
        State = _core.State
        random_hand = _core.random_hand
        IMPLEMENTATION = "core"


def new_hand(
    system: str | Rules = "cassino_standard",
    *,
    seed: int = 0,
    dealer: int = 0,
    **options: _Any,
) -> _Any:
    """A freshly dealt hand of ``system`` shuffled from ``seed``."""
    r = system if isinstance(system, Rules) else rules(system, **options)
    return State.deal(r, dealer, seed)   # (a compound system: the core's CompoundState)
