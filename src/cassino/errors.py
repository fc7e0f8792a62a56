"""Exception hierarchy: every bad input raises a specific subclass of :class:`CassinoError`."""

from __future__ import annotations

__all__ = [
    "CardError",
    "CassinoError",
    "IllegalMoveError",
    "MoveLimitError",
    "NotationError",
    "PositionError",
    "RulesError",
    "SimulationError",
    "UnknownSystemError",
]


class CassinoError(ValueError):
    """Base class of all errors raised for bad input."""


class CardError(CassinoError):
    """An unknown or malformed card code."""


class RulesError(CassinoError):
    """An unknown option, a bad option value or an impossible combination of options."""


class UnknownSystemError(RulesError):
    """A system id that is not in the registry, or one that is not implemented yet."""


class PositionError(CassinoError):
    """A malformed or inconsistent position (JSON or text)."""


class NotationError(CassinoError):
    """A move or position in text notation that cannot be parsed."""


class IllegalMoveError(CassinoError):
    """A move that the rules forbid in the current position; the message names the rule."""


class MoveLimitError(CassinoError):
    """Listing the legal moves would exceed the requested limit; use ``count_moves``."""


class SimulationError(CassinoError):
    """Bad arguments of a simulation (number of games, workers, players, seats, engine), or a
    run that cannot go on (a cluster without workers past the stall timeout)."""
