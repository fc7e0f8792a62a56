"""Players: an information-set :class:`View` of the game and the player interface.

A player sees only what its seat may know: its own hand, the table (builds with values
and owners), public counts (hand sizes, pile sizes, stock), scores, sweeps and every move
played this hand. The other hands and the stock order are never reachable from a view;
``View.unseen`` is the set of cards it has not seen, without saying where they are.

>>> import cassino
>>> state = cassino.new_hand(seed=5)
>>> view = View.of(state, state.to_move)
>>> len(view.hand), len(view.unseen), view.stock_size
(4, 44, 40)
>>> player = make_player("random", seed=1)
>>> player.choose(view, state.legal_moves()) in state.legal_moves()
True
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ._rng import Rng, deck_chance
from .cards import CardSet
from .errors import CassinoError
from .moves import Move
from .position import Build
from .rules import Rules

__all__ = [
    "PLAYERS",
    "Player",
    "PlayerError",
    "RandomPlayer",
    "View",
    "choose_move",
    "make_player",
    "register_player",
    "split_spec",
]


class PlayerError(CassinoError):
    """An unknown player name, a bad ``module:Class`` spec, or a player returning an illegal move."""


@dataclass(frozen=True)
class View:
    """What seat ``seat`` may know of the current hand; build one with :meth:`of`.

    ``hand`` is the seat's own hand; ``loose`` and ``builds`` are the table (builds with
    value, cards and owner seats); ``hand_sizes`` (per seat), ``pile_sizes`` (per team)
    and ``stock_size`` are public counts; ``sweeps`` are per team and ``scores`` are the
    game scores per team; ``played`` lists ``(seat, move)`` for every move of the hand;
    ``unseen`` is every card the seat has not seen (the other hands and the stock);
    with opt_pluck, ``plucked`` is the mask of the seats that have plucked in this deal and
    ``phase`` the phase of the turn (``Position.phase``, ``trailed``); ``defaults``
    (Michigan) and ``mulles`` (Mulle) are the public per-team counts of the position, empty
    elsewhere, as ``esun_owed`` (opt_esun's penalties owed, per seat) and Bella Donna's
    ``bonuses`` (Fixxa and Stoppa points per team) and ``fixxa`` (the card trailed last). ``piles`` (per team, in order), ``sweep_order`` and ``discard`` (the cards set
    aside) are public too: every capture is made in view. :meth:`sample_world` deals the
    unseen cards into a whole position consistent with all of it.

    Two exceptions hide cards a seat once saw or never saw (Elewenjewe, docs/rules.md
    §3.26, AMB-79, AMB-81): the cards set aside unseen from the stock (``aside_size`` of
    them, not in ``discard``), and, without ``isiwo``, the seat's own capture pile, which it
    may not look through: its team's entry of ``piles`` is empty (``pile_sizes`` keeps the
    count) and its cards are in ``unseen``.

    Laugh and Lie Down (docs/rules.md §3.35): ``scores`` are every seat's chips and
    ``centre`` the chips in the centre; ``laid`` the cards each seat laid down (face up);
    in phase "prial" or "release" ``to_move`` is the seat whose decision it is and
    ``decision`` the rank decided on and the seat after which play goes on.

    Compound turns (docs/rules.md §3.22-§3.25): ``claims`` (AMB-64) and, in phase
    "insist" or "extend", ``insist`` (AMB-68: the mover, his capture's value, the values
    of the builds he augmented) are public too, as every face-up pile is.
    """

    rules: Rules
    seat: int
    to_move: int
    dealer: int
    hand: CardSet
    loose: CardSet
    builds: tuple[Build, ...]
    hand_sizes: tuple[int, ...]
    pile_sizes: tuple[int, ...]
    stock_size: int
    last_deal: bool
    last_capturer: int | None
    sweeps: tuple[int, ...]
    scores: tuple[int, ...]
    played: tuple[tuple[int, Move], ...]
    unseen: CardSet
    plucked: int = 0
    phase: str = "start"
    defaults: tuple[int, ...] = ()
    mulles: tuple[int, ...] = ()
    esun_owed: tuple[int, ...] = ()
    fixxa: int | None = None
    bonuses: tuple[int, ...] = ()
    piles: tuple[tuple[int, ...], ...] = ()
    sweep_order: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()
    trailed: int | None = None
    aside_size: int = 0
    centre: int = 0
    laid: tuple[int, ...] = ()
    decision: tuple[int, int] | None = None
    claims: tuple[tuple[int, int], ...] = ()
    insist: tuple[int, ...] = ()

    @property
    def team(self) -> int:
        """This seat's team."""
        return self.rules.team_of(self.seat)

    @property
    def table(self) -> CardSet:
        """Every card on the table, loose or in builds."""
        m = self.loose.mask
        for b in self.builds:
            m |= b.cards
        return CardSet(m)

    @classmethod
    def of(cls, state: Any, seat: int, scores: Sequence[int] | None = None) -> View:
        """The view of ``seat`` of a hand ``state`` (core or reference ``State``).

        ``scores`` are the game scores (default: those of the state's position)."""
        pos = state.to_position()
        rules = pos.rules
        if not 0 <= seat < rules.players:
            raise PlayerError(f"seat {seat} does not exist ({rules.players} players)")
        played = tuple(zip(_movers(state), state.history, strict=True))
        unseen = unseen_mask(pos, seat)
        hand = pos.hands[seat]
        piles = tuple(tuple(p) for p in pos.piles)
        discard = tuple(pos.discard)
        aside = rules.set_aside
        if aside:   # the cards set aside unseen from the stock: the first of the discard
            unseen |= sum(1 << c for c in discard[:aside])
            discard = discard[aside:]
        if "elewenjewe" in rules.mechanics and not rules.isiwo:
            # AMB-81: without Isiwo the seat may not look through its own pile
            own = rules.team_of(seat)
            unseen |= sum(1 << c for c in piles[own])
            piles = tuple(() if t == own else p for t, p in enumerate(piles))
        return cls(
            rules=rules,
            seat=seat,
            to_move=pos.to_move,
            dealer=pos.dealer,
            hand=CardSet(hand),
            loose=CardSet(pos.loose),
            builds=tuple(sorted(pos.builds)),
            hand_sizes=tuple(h.bit_count() for h in pos.hands),
            pile_sizes=tuple(len(p) for p in pos.piles),
            stock_size=len(pos.stock),
            last_deal=not pos.stock and not rules.draw_refill,
            last_capturer=pos.last_capturer,
            sweeps=pos.sweeps,
            scores=tuple(scores) if scores is not None else pos.scores,
            played=played,
            unseen=CardSet(unseen),
            plucked=pos.plucked,
            phase=pos.phase,
            defaults=pos.defaults,
            mulles=pos.mulles,
            esun_owed=pos.esun_owed,
            fixxa=pos.fixxa,
            bonuses=pos.bonuses,
            piles=piles,
            sweep_order=tuple(pos.sweep_order),
            discard=discard,
            trailed=pos.trailed,
            aside_size=aside,
            centre=pos.centre,
            laid=pos.laid,
            decision=pos.decision,
            claims=pos.claims,
            insist=pos.insist,
        )

    def sample_world(self, rng: Rng) -> Any:
        """A whole state (``cassino.State``, at ply 0) consistent with everything this seat
        has seen: its own hand, the table, the piles, the cards set aside and every public
        count, with the unseen cards dealt uniformly at random (a Fisher-Yates shuffle from
        ``rng``) to the other hands, each its size, and to the stock, in a random order.
        A determinization for search (ISMCTS). Where the rules say more of a hidden hand
        (Laugh and Lie Down's decisions; in a compound system, that a build's owner holds a
        card of its value), a draw that does not fit is drawn again.

        >>> import cassino
        >>> state = cassino.new_hand(seed=5)
        >>> view = View.of(state, 1)
        >>> world = view.sample_world(Rng(3))
        >>> world.hand(1) == state.hand(1), world.table == state.table
        (True, True)
        >>> len(world.hand(0)) == len(state.hand(0)), world.hand(0) == state.hand(0)
        (True, False)
        """
        if not isinstance(rng, Rng):
            raise PlayerError(f"sample_world needs a cassino.Rng, not {type(rng).__name__}")
        return self._sample(rng, {})

    def _sample(self, rng: Rng, given: dict[int, int]) -> Any:
        """:meth:`sample_world` with the hands of ``given`` (seat: card mask) fixed: the other
        unseen cards, in ascending order, shuffled and dealt to the other hands in seat
        order, then to the stock (ISMCTS card reading gives the opponent's hand)."""
        fixed = 0
        for h in given.values():
            fixed |= h
        cards = list(CardSet(self.unseen.mask & ~fixed))     # ascending card ids
        hidden_pile = self._hidden_pile()
        need = self.stock_size + self.aside_size + hidden_pile + sum(
            n for s, n in enumerate(self.hand_sizes) if s != self.seat and s not in given
        )
        if len(cards) != need:
            raise PlayerError(
                f"the view is inconsistent: {len(cards)} unseen cards for {need} hidden places"
            )
        from . import IMPLEMENTATION

        for _ in range(_MAX_DRAWS):
            if IMPLEMENTATION == "core":
                from . import _core

                rng.state = _core._shuffle_list(cards, rng.state)     # the same draws, in C
            else:
                for i in range(len(cards) - 1, 0, -1):
                    j = rng.below(i + 1)
                    cards[i], cards[j] = cards[j], cards[i]
            if self.rules.laugh:
                if self._laugh_fits(cards, given):
                    break
            elif not self.rules.compound or self._builds_fit(cards, given):
                break
        else:
            raise PlayerError(f"no world fits this view in {_MAX_DRAWS} draws")
        hands = []
        k = 0
        for s, n in enumerate(self.hand_sizes):
            if s == self.seat or s in given:
                hands.append(self.hand.mask if s == self.seat else given[s])
                continue
            m = 0
            for c in cards[k : k + n]:
                m |= 1 << c
            hands.append(m)
            k += n
        if self.aside_size or hidden_pile:
            # (Elewenjewe: the cards set aside, then the seat's own pile, then the stock)
            aside = tuple(cards[k : k + self.aside_size])
            k += self.aside_size
            own = tuple(cards[k : k + hidden_pile])
            k += hidden_pile
            return self._build(tuple(hands), tuple(cards[k:]), aside, own)
        return self._world(tuple(hands), tuple(cards[k:]))

    def _laugh_fits(self, cards: list[int], given: dict[int, int]) -> bool:
        """Laugh and Lie Down: whether the hidden hands of this draw (dealt as in
        :meth:`_sample`) are a position of the game: no hand holds a Mournival (banked at the
        deal), and the seat deciding holds the Prial (three) or the released pair (two) of
        the rank decided on. (A draw that does not fit is drawn again: the worlds are
        uniform among those that fit.)"""
        k = 0
        for s, n in enumerate(self.hand_sizes):
            if s == self.seat or s in given:
                continue
            m = 0
            for c in cards[k : k + n]:
                m |= 1 << c
            k += n
            for rank in range(13):
                if (m >> 4 * rank & 0xF) == 0xF:
                    return False
            if self.decision is not None and s == self.to_move:
                want = 3 if self.phase == "prial" else 2
                if (m >> 4 * (self.decision[0] - 1) & 0xF).bit_count() != want:
                    return False
        return True

    def _builds_fit(self, cards: list[int], given: dict[int, int]) -> bool:
        """A compound system (African Cassino, the Italian house variant): whether the
        hidden hands of this draw (dealt as in :meth:`_sample`) hold a card of the value of
        every build their seat owns, as the rules make every owner do (the end-of-turn
        holding invariant; without it the owner would have no legal turn). A draw that does
        not fit is drawn again: the worlds are uniform among those that fit."""
        from .reference.african import compound_rules

        vals = compound_rules(self.rules).vals
        k = 0
        for s, n in enumerate(self.hand_sizes):
            if s == self.seat or s in given:
                continue
            hand = cards[k : k + n]
            k += n
            for b in self.builds:
                if b.owners >> s & 1 and not any(b.value in vals(c) for c in hand):
                    return False
        return True

    def _hidden_pile(self) -> int:
        """The number of cards of the seat's own pile the view hides (no Isiwo, AMB-81)."""
        t = self.team
        return self.pile_sizes[t] if self.piles and not self.piles[t] else 0

    def _world(self, hands: tuple[int, ...], stock: tuple[int, ...]) -> Any:
        """The state of this view with these ``hands`` (masks, the seat's own included) and
        ``stock`` (card ids, dealt from the front). The core builds the first world through
        ``Position``'s checks and keeps a copy; each later world is a copy of it with the
        hidden cards dealt again (``State._redeal``, which checks that they are the same
        cards)."""
        base = self.__dict__.get("_base")
        if self.rules.esun_penalty_card == "random":
            base = None     # (each world draws its own chance RNG: _build)
        if base is not None:
            world = base.clone()
            world._redeal(hands, stock)
            return world
        world = self._build(hands, stock)
        if hasattr(world, "_redeal"):
            object.__setattr__(self, "_base", world.clone())
        return world

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_base"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def _build(
        self,
        hands: tuple[int, ...],
        stock: tuple[int, ...],
        aside: tuple[int, ...] = (),
        own: tuple[int, ...] | None = None,
    ) -> Any:
        """The world of these hands and stock; ``aside`` (cards set aside unseen) come first
        in the discard, and ``own``, if given, is the seat's hidden pile."""
        from . import State
        from .position import Position

        piles = self.piles
        if own:
            piles = tuple(own if t == self.team else p for t, p in enumerate(piles))

        pos = Position(
            rules=self.rules,
            dealer=self.dealer,
            to_move=self.to_move,
            hands=hands,
            loose=self.loose.mask,
            builds=self.builds,
            piles=piles,
            stock=stock,
            last_capturer=self.last_capturer,
            sweep_order=self.sweep_order,
            scores=self.scores,
            discard=aside + self.discard,
            plucked=self.plucked,
            phase=self.phase,
            trailed=self.trailed,
            defaults=self.defaults,
            mulles=self.mulles,
            esun_owed=self.esun_owed,
            fixxa=self.fixxa,
            bonuses=self.bonuses,
            centre=self.centre,
            laid=self.laid,
            decision=self.decision,
            claims=self.claims,
            insist=self.insist,
            # the hidden chance RNG (esun_penalty_card=random): one of this world's, drawn
            # from its hidden cards
            chance=deck_chance([c for h in hands for c in CardSet(h)] + list(stock) + list(aside))
            if self.rules.esun_penalty_card == "random" else None,
        )
        return State.from_position(pos)   # (a compound system: the core's CompoundState)


# the draws View.sample_world makes before it gives up on a view no world fits
_MAX_DRAWS = 100_000


def unseen_mask(pos: Any, seat: int) -> int:
    """The cards ``seat`` has not seen in position ``pos``: the other hands and the stock.
    Every other card has been public (dealt face up, played, or captured in view) or is in
    its own hand."""
    unseen = 0
    for s, h in enumerate(pos.hands):
        if s != seat:
            unseen |= h
    for c in pos.stock:
        unseen |= 1 << c
    return unseen


def _movers(state: Any) -> list[int]:
    """The seat that made each move of ``state.history`` (turn order alone cannot tell
    across deals of a resumed position)."""
    return list(state.movers)


@runtime_checkable
class Player(Protocol):
    """A player: ``choose`` returns one of ``moves``, the legal moves of ``view``."""

    name: str

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        """Pick a move."""
        ...


class RandomPlayer:
    """Uniformly random legal moves from its own seeded RNG."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed)

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        """A uniformly random move. A sequence with a ``size`` attribute (the turns of a
        compound system made by index, whose number may pass ``sys.maxsize``, which ``len``
        cannot give) is drawn from by that size."""
        size = getattr(moves, "size", None)
        return moves[self._rng.below(len(moves) if size is None else size)]


PlayerFactory = Callable[..., Player]
PLAYERS: dict[str, PlayerFactory] = {"random": RandomPlayer}

# Built-in players that live in their own modules, imported on first use.
_BUILTIN_MODULES = {
    "greedy": "cassino.greedy",
    "expert": "cassino.expert",
    "ismcts": "cassino.ismcts",
}


def register_player(name: str, factory: PlayerFactory) -> None:
    """Register a player class (called with ``seed=``) under ``name``."""
    if not name or ":" in name:
        raise PlayerError(f"a player name must be non-empty and have no ':', not {name!r}")
    PLAYERS[name] = factory


def split_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """A player spec's name (or ``module:Class``) and its ``key=value`` parameters, each
    after a colon: values are read as int, float, ``true``/``false`` or else text.

    >>> split_spec("ismcts:iterations=2000:policy=greedy")
    ('ismcts', {'iterations': 2000, 'policy': 'greedy'})
    >>> split_spec("mybots:Bot:depth=3:fast=true")
    ('mybots:Bot', {'depth': 3, 'fast': True})
    """
    base: list[str] = []
    params: dict[str, Any] = {}
    for part in spec.split(":"):
        if "=" in part:
            key, _, text = part.partition("=")
            key = key.strip()
            if not key.isidentifier():
                raise PlayerError(f"player spec {spec!r}: {key!r} is not a parameter name")
            if key in params:
                raise PlayerError(f"player spec {spec!r} sets {key!r} twice")
            params[key] = _param_value(text.strip())
        elif params:
            raise PlayerError(f"player spec {spec!r}: parameters (key=value) come last")
        else:
            base.append(part)
    if not "".join(base).strip():
        raise PlayerError(f"player spec {spec!r} names no player")
    return ":".join(p.strip() for p in base), params


def _param_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def make_player(spec: str, seed: int = 0) -> Player:
    """A player from a registered name or a ``module:Class`` spec, seeded with ``seed``.

    Parameters follow the name, each after a colon (``ismcts:ms=50``,
    ``mybots:Bot:depth=3``, :func:`split_spec`) and are passed as keyword arguments. The
    factory is called with ``seed=seed`` when its signature accepts it. Raises
    :class:`PlayerError` for an unknown name, an unusable spec or a parameter the factory
    does not take.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise PlayerError(f"a player spec must be a name or module:Class, not {spec!r}")
    spec = spec.strip()
    name, params = split_spec(spec)
    factory = _load_spec(name) if ":" in name else _registered(name)
    if not callable(factory):
        raise PlayerError(f"player {spec!r} is not a class or factory")
    try:
        takes_seed = _accepts_seed(factory)
        player = factory(seed=seed, **params) if takes_seed else factory(**params)
    except CassinoError:
        raise
    except Exception as exc:
        raise PlayerError(f"cannot create player {spec!r}: {type(exc).__name__}: {exc}") from None
    if not callable(getattr(player, "choose", None)):
        raise PlayerError(f"player {spec!r} has no choose(view, moves) method")
    return player  # type: ignore[no-any-return]


def choose_move(player: Player, view: View, moves: Sequence[Move]) -> Move:
    """``player.choose(view, moves)``, checked: raises :class:`PlayerError` unless the
    answer is one of ``moves``."""
    if not moves:
        raise PlayerError("there is no legal move to choose from")
    move = player.choose(view, moves)
    if move not in moves:
        name = getattr(player, "name", type(player).__name__)
        raise PlayerError(f"player {name!r} chose {move!r}, which is not a legal move")
    return move


def _registered(name: str) -> Any:
    if name not in PLAYERS and name in _BUILTIN_MODULES:
        importlib.import_module(_BUILTIN_MODULES[name])
    factory = PLAYERS.get(name)
    if factory is None:
        known = ", ".join(sorted(set(PLAYERS) | set(_BUILTIN_MODULES)))
        raise PlayerError(f"unknown player {name!r} (known: {known}; or module:Class)")
    return factory


def _working_directory_on_path() -> None:
    """Player modules import from the working directory too, as under ``python -m`` (the
    ``cassino`` script's own folder is on ``sys.path`` instead). Process-pool workers
    inherit the path."""
    cwd = os.getcwd()
    if "" not in sys.path and cwd not in sys.path:
        sys.path.append(cwd)


def _load_spec(spec: str) -> Any:
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise PlayerError(f"player spec {spec!r} must look like module:Class")
    _working_directory_on_path()
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise PlayerError(f"cannot import player module {module_name!r}: {exc}") from None
    except Exception as exc:  # a broken user module: report it, never a traceback
        raise PlayerError(
            f"importing player module {module_name!r} failed: {type(exc).__name__}: {exc}"
        ) from None
    obj: Any = module
    for part in attr.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            raise PlayerError(f"module {module_name!r} has no player {attr!r}")
    return obj


_SEEDED: dict[Any, bool] = {}


def _accepts_seed(factory: Any) -> bool:
    try:
        return _SEEDED[factory]
    except (KeyError, TypeError):   # (TypeError: an unhashable factory)
        pass
    got = _signature_takes_seed(factory)
    try:
        _SEEDED[factory] = got
    except TypeError:
        pass
    return got


def _signature_takes_seed(factory: Any) -> bool:
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):  # no signature (some builtins): try without a seed
        return False
    return any(
        (p.name == "seed" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))
        or p.kind == p.VAR_KEYWORD
        for p in params
    )
