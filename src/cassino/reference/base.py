"""What every mechanic shares: move kinds, masks and subsets, the attributes of a state."""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from ..cards import JOKERS
from ..moves import Move, MoveKind
from ..position import Build, Position
from ..rules import Rules
from ..scoring import HandScore

TRAIL, CAPTURE, BUILD, AUGMENT, INCREASE, TWO_CARD = (
    MoveKind.TRAIL,
    MoveKind.CAPTURE,
    MoveKind.BUILD,
    MoveKind.AUGMENT,
    MoveKind.INCREASE,
    MoveKind.TWO_CARD,
)


BUILD_KINDS = (BUILD, AUGMENT, INCREASE)


PLUCK, PASS = MoveKind.PLUCK, MoveKind.PASS
STEAL = MoveKind.STEAL


DEFAULT_LIST_LIMIT = 1 << 20


FIVE_OF_SPADES = 16


def bits(mask: int) -> Iterator[int]:
    """Card ids of a mask, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def subsets(mask: int) -> Iterator[int]:
    """Every subset of ``mask``, the empty set first (carry-rippler)."""
    sub = 0
    while True:
        yield sub
        sub = (sub - mask) & mask
        if sub == 0:
            return


def _vname(v: int) -> str:
    return "ace" if v == 1 else str(v)


def _a(v: int) -> str:
    """``v`` with its article: 'an ace', 'an 8', 'a 7'."""
    name = _vname(v)
    return f"an {name}" if name in ("ace", "8") else f"a {name}"


def _int_arg(x: object, name: str, lo: int, hi: int) -> int:
    """``x`` checked to be an integer from ``lo`` to ``hi`` (iter_moves' chunk)."""
    if isinstance(x, bool):
        raise TypeError(f"{name} must be an integer, not bool")
    try:
        n = operator.index(x)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} must be an integer, not {type(x).__name__}") from None
    if not lo <= n <= hi:
        raise ValueError(f"{name} must be between {lo} and {hi}, not {n}")
    return n


class StateBase:
    """The attributes of a state (set by ``State._load``) and, for the type checker, the
    methods one mechanic's mixin calls on another's."""

    rules: Rules
    dealer: int
    to_move: int
    hands: list[int]
    loose: int
    builds: list[Build]
    piles: list[list[int]]
    stock: list[int]
    last_capturer: int | None
    sweep_order: list[int]
    scores: list[int]
    discard: list[int]
    plucked: int
    phase: str
    trailed: int | None
    defaults: list[int]
    mulles: list[int]
    esun_owed: list[int]
    chance: int | None
    fixxa: int | None
    bonuses: list[int]
    claims: list[tuple[int, int]]
    insist: tuple[int, ...]
    _root: Position
    _stack: list[tuple[Any, ...]]
    _history: list[Move]
    _version: int           # (counts pushes and pops)
    # explain's window (State._moves_for): the generators walk subsets of the loose cards
    # of ``_within`` only; -1 (every card) outside explain
    _within: int = -1

    def _pool(self) -> int:
        """The loose cards whose subsets the generators walk: every loose card, or those of
        explain's window (a move there matches only moves taking the same cards)."""
        return self.loose & self._within

    def _subsets(self, cand: int) -> Iterable[int]:
        """The loose parts of the moves a generator lists, subsets of ``cand``: every subset,
        or in explain's window the window's loose cards alone (the loose part of every
        move that can match the move explained), when they are in ``cand``."""
        if self._within < 0:
            return subsets(cand)
        part = self.loose & self._within & ~JOKERS   # (loose jokers join any capture)
        return (part,) if not part & ~cand else ()

    def _playable(self, only: int | None = None) -> int:
        """The hand cards whose moves are listed: the whole hand of the player to act, or
        only the card ``only`` (explain lists the moves of the card in question)."""
        hand = self.hands[self.to_move]
        return hand if only is None else hand & 1 << only

    if TYPE_CHECKING:
        def _advance(self) -> None: ...

        def _compound_score(self) -> HandScore: ...

        def _turn_moves(self) -> list[Move]: ...

        def _turn_count(self) -> int: ...

        def push(self, move: Move | str) -> Move: ...

        def _turn_at(self, index: int) -> Move: ...

        def _iter_turns(self) -> Iterator[Move]: ...

        def _parse_turn(self, text: str) -> Move: ...

        def _resolve_turn(self, move: Move) -> Move: ...

        def _push_turn(self, m: Move, seat: int) -> None: ...

        def _all_matches_reason(self, m: Move) -> str | None: ...

        def _augments(self, p: int) -> Iterator[Move]: ...

        def _build_total(self, cards: int, fixed: tuple[tuple[int, int], ...]) -> int: ...

        def _callabra_reason(self, m: Move) -> str: ...

        def _captures(self, p: int) -> Iterator[Move]: ...

        def _compelled(self, legal: list[Move], reasons: dict[Move, str]) -> list[Move]: ...

        def _pseudo_bundles(self, only: int | None = None) -> list[Move]: ...

        def _steals(self, p: int, same: int = 0) -> list[Move]: ...

        def _with_jokers(self, moves: list[Move]) -> list[Move]: ...

        def _match_one_reason(self, m: Move) -> str | None: ...

        def _yoruba_reason(self, m: Move) -> str | None: ...

        def _steal_reason(self, m: Move) -> str: ...

        def _bundle_add(self, team: int, cards: list[int], top: int | None) -> None: ...

        def _creates(self, p: int) -> Iterator[Move]: ...

        def _esun_creates(self, p: int) -> Iterator[Move]: ...

        def _esun_penalties(self) -> None: ...

        def _esun_prey(self, v: int) -> list[int]: ...

        def _esun_reason(self, m: Move) -> str | None: ...

        def _esun_taken(self, takes: int, seat: int) -> None: ...

        def _fixxa_stoppa(self, m: Move, team: int) -> None: ...

        def _esun_unlisted(self, m: Move) -> str | None: ...

        def _diloti_violation(self, m: Move) -> str | None: ...

        def _duty_reason(self, m: Move) -> str | None: ...

        def _end_early(self) -> None: ...

        def _face_builds(self, p: int) -> Iterator[Move]: ...

        def _finnish_reason(self, m: Move) -> str: ...

        def _first_play(self) -> bool: ...

        def _frozen_build_reason(self, m: Move) -> str | None: ...

        def _held(self, hand: int) -> set[int]: ...

        def _holding_conflict(self, m: Move, after: int, target: Build | None) -> str | None: ...

        def _increases(self, p: int) -> Iterator[Move]: ...

        def _mokki_counts(self) -> bool: ...

        def _multi_reason(self, m: Move) -> str: ...

        def _pluck_reason(self, m: Move) -> str: ...

        def _pluckable(self) -> int: ...

        def _pseudo_callabra(self, only: int | None = None) -> list[Move]: ...

        def _pseudo_diloti(
            self, only: int | None = None, kinds: tuple[MoveKind, ...] | None = None
        ) -> list[Move]: ...

        def _pseudo_finnish(self, only: int | None = None) -> list[Move]: ...

        def _pseudo_multi(
            self, only: int | None = None, kinds: tuple[MoveKind, ...] | None = None
        ) -> list[Move]: ...

        def _push_declaration(self, m: Move, seat: int) -> None: ...

        def _push_pluck(self, m: Move, seat: int, team: int) -> None: ...

        def _relabelled(self, move: Move, legal: list[Move]) -> Move | None: ...

        def _single_group_reason(self, m: Move) -> str: ...

        def _sweep_takes(self) -> int: ...

        def _sweep_moves(
            self, moves: Iterable[Move], only: int | None, captures: bool = True
        ) -> list[Move]: ...

        def _target_build(self, m: Move) -> Build | None: ...

        def _violation(self, m: Move) -> str | None: ...

        def hand_score(self) -> HandScore: ...

        @property
        def is_over(self) -> bool: ...

        @property
        def table_mask(self) -> int: ...

