"""One hand played in sub-actions: the engine behind the OpenSpiel, PettingZoo and Gymnasium
adapters (docs/adapters.md).

:class:`HandEnv` deals a deck card by card (the chance steps of OpenSpiel) or all at once,
then plays the hand in the sub-actions of :class:`cassino.actions.ActionSpace`: the seat to
move chooses one sub-action at a time, and the core pushes the move once its sequence is
complete. Observations are what the seat may know (its hand, the table, the captured piles,
the counts and the move being built), as strings and as a fixed-size float32 vector.

>>> import cassino
>>> env = HandEnv(cassino.rules("cassino_standard"))
>>> env.deal(list(range(52)))
>>> while not env.is_over:
...     _ = env.apply(env.legal_actions()[0])
>>> env.returns()[0] + env.returns()[1]
0.0
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._rng import Rng, shuffled_deck
from .actions import ActionSpace, MoveBuilder, TurnBuilder, builder_for
from .cards import CardSet, card_code
from .errors import IllegalMoveError, PositionError, RulesError
from .moves import Move
from .players import View, unseen_mask
from .rules import Rules
from .scoring import score_hand

__all__ = ["RETURNS", "HandEnv", "observation_size", "utility_bound"]

RETURNS = ("margin", "points")
"""``margin``: the seat's team's hand points less the mean of the other teams' (zero-sum);
``points``: the team's hand points."""

# the phase slots of the observation: opt_pluck's start, plucked, after; Laugh and Lie
# Down's decisions take the second and third (a Prial, a released pair), and so do the
# Italian house variant's (the next seat's insist decision, the mover's extension)
_PHASES = ("start", "plucked", "after")
_SLOT = {"prial": 1, "release": 2, "insist": 1, "extend": 2}


def _state_class() -> Any:
    import cassino

    return cassino.State


def utility_bound(rules: Rules) -> int:
    """A bound on a team's points in one hand: every card and a sweep with every card
    (Michigan's fines below zero are bounded by two points a card)."""
    cards = [c for c in range(rules.num_ids) if rules.deck_mask >> c & 1]
    t = rules.num_teams
    piles = [cards] + [[] for _ in range(t - 1)]
    if rules.compound:   # (the strict tally: every category to one team)
        from .reference.african import compound_score

        return max(compound_score(rules, piles).totals())
    sweeps = [0] * len(cards)   # (score_hand counts them only where the rules do)
    mulles = [len(cards)] + [0] * (t - 1) if rules.mulle_points else ()
    top = max(score_hand(rules, piles, sweeps, last_team=0, mulles=mulles).totals())
    return top + (2 * len(cards) if rules.michigan else 0)


def observation_size(rules: Rules) -> int:
    """Length of :meth:`HandEnv.observation_tensor` for ``rules``."""
    n, t, p = rules.num_ids, rules.num_teams, rules.players
    return (9 + t) * n + 2 * p + t + 5


class HandEnv:
    """A hand of ``rules`` dealt from a deck and played in sub-actions.

    ``returns`` is ``"margin"`` (zero-sum) or ``"points"``; see :data:`RETURNS`.
    """

    def __init__(self, rules: Rules, dealer: int = 0, returns: str = "margin") -> None:
        if returns not in RETURNS:
            raise RulesError(f"returns must be one of {', '.join(RETURNS)}, not {returns!r}")
        if not isinstance(dealer, int) or not 0 <= dealer < rules.players:
            raise RulesError(f"dealer must be a seat from 0 to {rules.players - 1}, "
                             f"not {dealer!r}")
        self.rules = rules
        self.dealer = dealer
        self.return_kind = returns
        self.space = ActionSpace(rules)
        self.cards = [c for c in range(rules.num_ids) if rules.dealt_mask >> c & 1]   # (no palette)
        self.deck: list[int] = []
        self.state: Any = None
        self.builder: MoveBuilder | TurnBuilder | None = None
        self.log: list[tuple[int, Move]] = []   # (seat, move) of every move of the hand
        self._obs_ply: object = -1   # the ply (and steps made) of the cached observations
        self._obs_cache: Any = None
        self._obs_seats: dict[int, np.ndarray] = {}

    # -- dealing -------------------------------------------------------------------------

    @property
    def dealing(self) -> bool:
        """Whether cards remain to be dealt (chance steps)."""
        return self.state is None

    def chance_outcomes(self) -> list[int]:
        """The cards the next chance step may deal, each equally likely."""
        dealt = set(self.deck)
        return [c for c in self.cards if c not in dealt]

    def deal_card(self, card: int) -> None:
        """Deal the next card of the deck; the hand starts after the last one."""
        if not self.dealing:
            raise IllegalMoveError("the deck is dealt already")
        if card not in self.cards or card in self.deck:
            raise IllegalMoveError(f"card {card!r} is not left in the deck")
        self.deck.append(card)
        if len(self.deck) == len(self.cards):
            self._start()

    def deal(self, deck: list[int]) -> None:
        """Deal a whole shuffled deck (the cards of ``rules.dealt_mask``, in any order)."""
        if sorted(deck) != self.cards:
            raise PositionError(f"a deck of {self.rules.system} holds its "
                                f"{len(self.cards)} cards once each")
        self.deck = list(deck)
        self._start()

    def _start(self) -> None:
        self.state = _state_class().new_hand(self.rules, self.dealer, self.deck)
        self._new_builder()

    def _new_builder(self) -> None:
        self.builder = None if self.state.is_over else builder_for(self.space, self.state)

    # -- play ------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.state is not None and self.state.is_over

    @property
    def to_move(self) -> int:
        """The seat choosing the next sub-action (-1 while dealing or once over)."""
        if self.state is None or self.builder is None:
            return -1
        return int(self.state.to_move)

    def legal_actions(self) -> list[int]:
        """The legal sub-actions of the seat to move (empty while dealing or once over)."""
        return [] if self.builder is None else self.builder.legal_actions()

    def action_mask(self) -> np.ndarray:
        """:meth:`legal_actions` as an int8 mask over the action space."""
        m = bytearray(self.space.num_actions)
        if self.builder is not None:
            for a in self.builder.legal_actions():
                m[a] = 1
        return np.frombuffer(m, dtype=np.int8)

    def apply(self, action: int) -> Move | None:
        """Apply a sub-action of the seat to move; the move pushed, once complete."""
        if self.builder is None:
            raise IllegalMoveError("the hand is over" if self.is_over else
                                   "the deck is still being dealt")
        move = self.builder.apply(action)
        if move is not None:
            self.log.append((int(self.state.to_move), move))
            self.state.push(move)
            self._new_builder()
        return move

    @property
    def prefix(self) -> tuple[int, ...]:
        """The sub-actions of the move being built."""
        return () if self.builder is None else self.builder.prefix

    def team_points(self) -> list[int]:
        """Hand points per team so far (the hand's score once over)."""
        if self.state is None:
            return [0] * self.rules.num_teams
        return list(self.state.hand_totals())

    def returns(self) -> list[float]:
        """Per seat: the team's points (``points``) or points less the mean of the other
        teams' (``margin``); zeros until the hand is over."""
        p = self.rules.players
        if not self.is_over:
            return [0.0] * p
        pts = self.team_points()
        t = len(pts)
        total = sum(pts)
        team = self.rules.team_of
        if self.return_kind == "points":
            return [float(pts[team(s)]) for s in range(p)]
        return [pts[team(s)] - (total - pts[team(s)]) / (t - 1) for s in range(p)]

    def clone(self) -> HandEnv:
        """An independent copy."""
        other = HandEnv.__new__(HandEnv)
        other.__dict__.update(self.__dict__)
        other.deck = list(self.deck)
        other.log = list(self.log)
        if self.state is not None:
            other.state = self.state.clone()   # (a compound turn's steps made carried over)
            if self.builder is not None:
                other.builder = self.builder.copy_to(other.state)
        other._obs_ply = -1
        other._obs_cache = None
        other._obs_seats = {}
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> HandEnv:
        """:meth:`clone` (OpenSpiel deep-copies a state's attributes to clone it: a compound
        system's State would otherwise be copied by replaying its moves)."""
        return self.clone()

    def resample(self, seat: int, rng: Rng) -> HandEnv:
        """A copy with the cards ``seat`` has not seen dealt again at random
        (:meth:`cassino.players.View.sample_world`): the same information state for
        ``seat``, for determinizing search (OpenSpiel's ``resample_from_infostate``).
        The move ``seat`` is building carries over; another seat's, which ``seat`` does
        not see, starts again."""
        self._check_seat(seat)
        other = self.clone()
        if self.state is None:   # mid-deal: the seat has seen none of the cards
            order = shuffled_deck(rng, len(self.cards))
            other.deck = [self.cards[i] for i in order[: len(self.deck)]]
            return other
        if self.builder is None:
            return other
        other.state = View.of(self.state, seat).sample_world(rng)
        other._new_builder()
        if self.to_move == seat and other.builder is not None:
            for a in self.prefix:
                other.builder.apply(a)
        return other

    def __getstate__(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["_obs_ply"] = -1
        d["_obs_cache"] = None
        d["_obs_seats"] = {}
        return d

    # -- observations ---------------------------------------------------------------------

    def _steps_made(self) -> int:
        """How many steps of a compound turn the seat to move has made (0 elsewhere)."""
        b = self.builder
        return len(self.state.turn_steps) if isinstance(b, TurnBuilder) else 0

    def _seat_cache(self) -> dict[int, np.ndarray]:
        """The observations cached for this ply and the steps made of a compound turn
        (emptied, with the position, on a new ply or step)."""
        ply = (self.state.ply, self._steps_made())
        if self._obs_ply != ply:
            self._obs_cache = None
            self._obs_seats = {}
            self._obs_ply = ply
        return self._obs_seats

    def _position(self) -> Any:
        self._seat_cache()
        if self._obs_cache is None:
            self._obs_cache = self.state.to_position()
        return self._obs_cache

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, (int, np.integer)) or not 0 <= seat < self.rules.players:
            raise IllegalMoveError(f"no seat {seat!r} (seats 0-{self.rules.players - 1})")

    def observation_tensor(self, seat: int) -> np.ndarray:
        """What ``seat`` may know, as float32 (docs/adapters.md lists the layout):
        card planes for its hand, the loose table cards, the cards in builds, those of its
        team's builds, the build values / 14, the unseen cards, each team's captured
        cards (its own team first), then the move being built (card played, takes,
        second values); then hand sizes (from the seat on), the stock, sweeps per team,
        the phase, the last deal and who is to move. A new array each call."""
        self._check_seat(seat)
        if self.state is None:
            return np.zeros(observation_size(self.rules), dtype=np.float32)
        out = self._base(seat).copy()
        builder = self.builder
        if builder is not None and builder.prefix and self.state.to_move == seat:
            sp = self.space
            n = self.rules.num_ids
            start = (6 + self.rules.num_teams) * n   # the card played, takes, second values
            if isinstance(builder, TurnBuilder):     # (the step being chosen, by card id)
                for a in builder.partial:
                    if a < sp.finish:
                        out[start + (a // sp.take) * n + sp.cards[a % sp.take]] = 1
            else:
                for a in builder.prefix:
                    if a < sp.finish:
                        out[start + a] = 1
        return out

    def _base(self, seat: int) -> np.ndarray:
        """The observation of ``seat`` without the move being built, cached for the ply:
        written by the core (``State._observe``), or by :meth:`_base_reference` on the
        reference's states."""
        cache = self._seat_cache()
        out = cache.get(seat)
        if out is None:
            observe = getattr(self.state, "_observe", None)
            if observe is None or self._steps_made():
                out = self._base_reference(seat)
            else:
                out = np.empty(observation_size(self.rules), dtype=np.float32)
                observe(seat, self.to_move, out)
            cache[seat] = out
        return out

    def _base_reference(self, seat: int) -> np.ndarray:
        """:meth:`_base` in Python, from the position: the layout's definition, which the
        core's ``State._observe`` must match float for float. The seat making a compound
        turn sees the table its steps made so far; the others the table at the turn's start."""
        pos = self._seen_position(seat)
        r = self.rules
        n, t, p = r.num_ids, r.num_teams, r.players
        out = np.zeros(observation_size(r), dtype=np.float32)
        team = r.team_of(seat)
        in_builds = mine = 0
        for b in pos.builds:
            in_builds |= b.cards
            if any(b.owners >> s & 1 and r.team_of(s) == team for s in range(p)):
                mine |= b.cards
        # the binary planes 0-3, 5 and the piles, unpacked at once (plane 4 is filled below)
        bits = pos.hands[seat] | pos.loose << n | in_builds << 2 * n | mine << 3 * n
        unseen = unseen_mask(pos, seat)
        unseen |= sum(1 << c for c in pos.discard[: r.set_aside])   # (Elewenjewe: set aside)
        hide_own = "elewenjewe" in r.mechanics and not r.isiwo       # (no Isiwo, AMB-81)
        if hide_own:
            unseen |= sum(1 << c for c in pos.piles[team])
        bits |= unseen << 5 * n
        for k in range(t):
            if k == 0 and hide_own:
                continue
            for c in pos.piles[(team + k) % t]:
                bits |= 1 << c + (6 + k) * n
        out[: (6 + t) * n] = _unpack(bits, (6 + t) * n)
        if pos.builds:
            plane = out[4 * n : 5 * n]
            for b in pos.builds:
                plane[_unpack(b.cards, n).astype(bool)] = b.value / 14.0
        i = (9 + t) * n
        for k in range(p):
            out[i + k] = pos.hands[(seat + k) % p].bit_count() / max(r.hand_size, 1)
        i += p
        out[i] = len(pos.stock) / n
        i += 1
        sw = pos.sweeps
        for k in range(t):
            out[i + k] = sw[(team + k) % t] / 10.0
        i += t
        if pos.phase in _PHASES:
            out[i + _PHASES.index(pos.phase)] = 1
        elif pos.phase in _SLOT:
            out[i + _SLOT[pos.phase]] = 1
        i += 3
        out[i] = float(self.state.last_deal)
        i += 1
        if self.to_move >= 0:
            out[i + (self.to_move - seat) % p] = 1
        return out

    def _seen_position(self, seat: int) -> Any:
        """The position ``seat`` sees: the seat making a compound turn sees the hands, table
        and piles its steps made so far; the others the position at the turn's start."""
        pos = self._position()
        if seat != self.to_move or not self._steps_made():
            return pos
        import dataclasses

        from .reference.african import table_fields

        hands, loose, builds, piles = table_fields(
            self.state._step_builder()[0].state.table, self.rules)
        return dataclasses.replace(pos, hands=tuple(hands), loose=loose, builds=tuple(builds),
                                   piles=tuple(tuple(p) for p in piles))

    def observation_string(self, seat: int) -> str:
        """What ``seat`` sees now, as text."""
        self._check_seat(seat)
        if self.state is None:
            return f"seat {seat}; dealing: {len(self.deck)} of {len(self.cards)} cards dealt"
        pos = self._seen_position(seat)
        parts = [f"seat {seat}", self._turn(), f"hand {_codes(pos.hands[seat])}",
                 *self._public(pos)]
        if self.to_move == seat and self.prefix:
            parts.append("building " + ", ".join(self.space.describe(a) for a in self.prefix))
        return "; ".join(parts)

    def _turn(self) -> str:
        return "over" if self.is_over else f"to move {self.to_move}"

    def _public(self, pos: Any) -> list[str]:
        builds = " ".join(f"[{_codes(b.cards)}={b.value}]" for b in pos.builds)
        table = _codes(pos.loose) + (f" {builds}" if builds else "")
        parts = [
            f"table {table}",
            "piles " + " ".join(f"team{k}:{len(pl)}" + (
                f" top {card_code(pl[-1])}" if pl and self.space.compound else "")
                for k, pl in enumerate(pos.piles)),
            f"sweeps {','.join(map(str, pos.sweeps))}",
            "hands " + ",".join(str(bin(h).count("1")) for h in pos.hands),
            f"stock {len(pos.stock)}",
        ]
        if pos.phase != "start":
            parts.append(f"phase {pos.phase}")
        return parts

    def information_state_string(self, seat: int) -> str:
        """:meth:`observation_string` and the whole public history of the hand: with the
        seat's own hand, everything it has seen (perfect recall)."""
        text = self.observation_string(seat)
        if self.state is None:
            return text
        moves = " ".join(f"{s}:{mv}" for s, mv in self.log)
        return f"{text}; history {moves or '-'}"

    def __str__(self) -> str:
        if self.state is None:
            return f"dealing: {' '.join(card_code(c) for c in self.deck)}"
        pos = self._position()
        hands = " | ".join(_codes(h) for h in pos.hands)
        return "; ".join([self.rules.system, self._turn(), f"hands {hands}", *self._public(pos)])


def _codes(mask: int) -> str:
    return " ".join(CardSet(mask).codes()) or "-"


def _unpack(mask: int, n: int) -> np.ndarray:
    """The bits 0..n-1 of ``mask`` as a uint8 array."""
    raw = np.frombuffer(mask.to_bytes(n // 8 + 1, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:n]
