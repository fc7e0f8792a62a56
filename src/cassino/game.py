"""Whole games: the first dealer drawn, hands dealt from the game's own RNG, scoring, the
target check, dealer rotation, count-out and a JSON game log that replays exactly.

>>> game = Game("cassino_standard", seed=3)
>>> players = Rng(3)
>>> while not game.is_over:
...     moves = game.legal_moves()
...     _ = game.push(moves[players.below(len(moves))])
>>> game.winner in (0, 1), game.hands_played >= 2
(True, True)
>>> Game.replay(game.log).scores == game.scores
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ._rng import Rng, shuffled_deck
from .cards import ACES, SPADES, card_code, card_codes, card_rank, parse_card
from .errors import CassinoError, IllegalMoveError, RulesError
from .moves import Move
from .position import Position
from .reference.deals import bad_italian_layout, initial_deal, next_seat
from .rules import Rules, rules
from .scoring import (
    DEFAULT_PENALTY,
    HandScore,
    final_winners,
    hand_spades,
    immediate_points,
    tally_winner,
)

__all__ = ["CountOut", "Game", "ReplayError", "clinched_points"]

_BIG_CASSINO = parse_card("10D")
_LITTLE_CASSINO = parse_card("2S")


class ReplayError(CassinoError):
    """A game log that is malformed or does not match the game it replays."""


@dataclass(frozen=True)
class CountOut:
    """The outcome of a count-out claim (docs/rules.md §3.37 ``opt_count_out``, AMB-16)."""

    seat: int
    team: int
    clinched: int
    total: int
    won: bool
    winner: int


def _state_class(r: Rules | None = None) -> Any:
    """The selected implementation of State, looked up late (cassino/__init__.py imports
    this module). A compound system (African Cassino, the Italian house variant, docs/rules.md
    §3.22-§3.25) has the core's :class:`CompoundState`, the reference's State whose turns
    the core counts and picks, or under ``CASSINO_PURE_PYTHON=1`` the reference's."""
    from . import IMPLEMENTATION, State

    if r is not None and r.compound:
        if IMPLEMENTATION == "core":
            from ._core import CompoundState

            return CompoundState
        from ._reference import State as ReferenceState

        return ReferenceState
    return State


def clinched_points(r: Rules, position: Position, team: int) -> int:
    """Points ``team`` has surely won so far in the hand of ``position`` (AMB-16).

    Big cassino 2, little cassino 1, each ace 1, sweeps (with ``sweeps``), most cards 3
    once the team holds 27 cards, most spades 1 once it holds 7 spades; with ``michigan``,
    less 2 per default of the team (a fine is as sure as a sweep).
    """
    pile = position.piles[team]
    mask = 0
    for c in pile:
        mask |= 1 << c
    pts = 2 * (mask >> _BIG_CASSINO & 1) + (mask >> _LITTLE_CASSINO & 1)
    pts += (mask & ACES).bit_count()
    if r.sweeps:
        pts += r.sweep_points * position.sweeps[team]
    if position.defaults:
        pts -= DEFAULT_PENALTY * position.defaults[team]
    if len(pile) >= 27:
        pts += 3
    if (mask & SPADES).bit_count() >= 7:
        pts += 1
    return pts


class Game:
    """A whole game of one system, reproducible from its seed.

    ``Game("cassino_standard", seed=1, sweeps=True)`` or ``Game(rules, seed=1)``. The game
    draws the first dealer (A is low; ``first_dealer=high`` by default, ``low`` as an
    option; equal ranks redraw), deals every hand from a fresh shuffle of its own
    :class:`~cassino.Rng`, scores finished hands with the system's ``end_check``, and
    passes the deal to the next seat after every hand.

    In a partnership system the game first draws partners (docs/rules.md §3.2: the two highest
    cards against the two lowest, :meth:`_draw_partners`) and seats them opposite;
    :attr:`seating` maps each participant to his seat. ``dealer=`` and ``seating=`` start a
    game without those draws; :meth:`next_game` uses them so that the winner deals first.
    """

    def __init__(
        self,
        system: str | Rules = "cassino_standard",
        *,
        seed: int = 0,
        dealer: int | None = None,
        seating: Sequence[int] | None = None,
        **options: Any,
    ) -> None:
        self._setup(system, seed, options, dealer, seating)
        if seating is not None:
            self.seating: list[int] = self._check_seating(seating)
        elif self.rules.teams == "partnership":
            self.seating = self._draw_partners()
        else:
            self.seating = list(range(self.rules.players))
        if dealer is None:
            self.first_dealer: int = self._draw_dealer()
        else:
            self.first_dealer = dealer
        self._deal(self.first_dealer)

    def _setup(
        self,
        system: str | Rules,
        seed: int,
        options: Mapping[str, Any],
        dealer: int | None = None,
        seating: Sequence[int] | None = None,
    ) -> None:
        if isinstance(system, Rules):
            self.rules: Rules = system.replace(**options) if options else system
        else:
            self.rules = rules(system, **options)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RulesError(f"seed must be an integer, not {seed!r}")
        self.seed: int = seed
        self._rng = Rng(seed)
        self.log: list[dict[str, Any]] = []
        self._scores: list[int] = [0] * self.rules.num_teams
        # Laugh and Lie Down (docs/rules.md §3.35): the scores are chips, start_chips each,
        # and the chips of the centre carry over from hand to hand (AMB-97)
        self._centre = 0
        if self.rules.laugh:
            self._scores = [self.rules.start_chips] * self.rules.players
        self._target = self.rules.target
        self._winner: int | None = None
        self._winners: tuple[int, ...] = ()
        self._hands_played = 0
        self.hand_scores: list[HandScore] = []
        self._hand = 0
        head: dict[str, Any] = {
            "type": "game",
            "system": self.rules.system,
            "options": self.rules.options(),
            "seed": seed,
        }
        if dealer is not None:
            if isinstance(dealer, bool) or not isinstance(dealer, int) or not (
                0 <= dealer < self.rules.players
            ):
                raise RulesError(
                    f"dealer must be a seat from 0 to {self.rules.players - 1}, not {dealer!r}"
                )
            head["dealer"] = dealer
        if seating is not None:
            head["seating"] = list(seating)
        self.log.append(head)

    @classmethod
    def from_position(cls, position: Position, *, seed: int = 0, hand: int = 0) -> Game:
        """A game resumed at ``position`` (its rules, dealer and game ``scores``).

        ``hand`` numbers the hand in the log; later hands are dealt from ``Rng(seed)``.
        """
        if position.is_over:
            raise IllegalMoveError("cannot resume a game at a finished hand")
        game = cls.__new__(cls)
        game._setup(position.rules, seed, {})
        game.seating = list(range(position.rules.players))
        game.first_dealer = position.dealer
        game._scores = list(position.scores)
        game._centre = position.centre
        game._hands_played = game._hand = hand
        game.dealer = position.dealer
        game._state = _state_class(position.rules).from_position(position)
        if max(game.scores) >= game.rules.target and game._instant:
            raise IllegalMoveError(
                f"with {'michigan' if game.rules.michigan else 'sudden_death'} the points "
                "already scored in this hand reach the target: the game ended before this "
                "position"
            )
        game.log.append({"type": "position", "hand": hand, "position": position.to_dict()})
        return game

    # -- queries -------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        """The :class:`~cassino.State` of the current (or, once over, the last) hand."""
        return self._state

    @property
    def scores(self) -> list[int]:
        """Game scores per team (a copy). With ``sudden_death`` or ``michigan``, during a
        hand, they include the points already scored in it
        (:func:`~cassino.scoring.immediate_points`: Michigan sweeps and defaults)."""
        if not self._instant or self.is_over or self._state.is_over:
            return list(self._scores)
        pos = self._state.to_position()
        now = immediate_points(self.rules, pos.piles, pos.sweep_order, pos.defaults)
        return [s + p for s, p in zip(self._scores, now, strict=True)]

    @property
    def centre(self) -> int:
        """Laugh and Lie Down: the chips in the centre (0 in every other system). During a
        hand the antes are in it, and :attr:`scores` (each seat's chips) are without them."""
        return self._centre

    @property
    def target(self) -> int:
        """The score that wins: ``rules.target``, raised after a Royal Cassino tie
        (``tie_hand_target``)."""
        return self._target

    @property
    def winner(self) -> int | None:
        """The winning team, or None while the game goes on."""
        return self._winner

    @property
    def hands_played(self) -> int:
        """Number of hands finished and scored (a count-out ends a game mid-hand)."""
        return self._hands_played

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning team, or the teams that share the win (California Cassino with
        ``final_tie=shared``); empty while the game goes on."""
        return self._winners

    @property
    def is_over(self) -> bool:
        """Whether the game has a winner (or shared winners)."""
        return bool(self._winners)

    def legal_moves(self) -> list[Move]:
        """Legal moves of the player to act; empty once the game is over."""
        return [] if self.is_over else list(self._state.legal_moves())

    def __repr__(self) -> str:
        status = f"winner {self.winner}" if self.is_over else f"hand {self._hand}"
        return f"<Game {self.rules.system} seed={self.seed} scores={self.scores} {status}>"

    # -- actions -------------------------------------------------------------------------
    def push(self, move: Move | str) -> Move:
        """Play a legal move (a :class:`Move` or its notation); returns the move played.

        A move that ends the hand scores it, and deals the next hand unless the game is
        over. Raises :class:`IllegalMoveError` (the game unchanged) if the move is illegal.
        """
        if self.is_over:
            raise IllegalMoveError("the game is over")
        seat = self._state.to_move
        m: Move = self._state.push(move)
        self.log.append({"type": "move", "seat": seat, "move": str(m)})
        if self._state.is_over:
            self._finish_hand()
        elif self._instant:
            self._sudden_death_check()
        return m

    def play_hand(
        self, policies: Sequence[str], rng_states: Sequence[int], *, log: bool = True
    ) -> tuple[int, list[int]]:
        """Play the rest of the current hand with built-in players, then score it as
        :meth:`push` does (and deal the next hand unless the game is over).

        ``policies[seat]`` is ``"random"`` or ``"greedy"`` and ``rng_states[seat]`` the
        state of that player's :class:`~cassino.Rng`: the moves are those
        :class:`~cassino.players.RandomPlayer` and :class:`~cassino.greedy.GreedyPlayer`
        would choose from each seat's view. The core plays them in C
        (``State.play_hand``); the reference asks the players. ``log=False`` writes no
        move records (simulations). Returns ``(moves played, the new RNG states)``.

        >>> game = Game(seed=3)
        >>> played, states = game.play_hand(["greedy", "random"], [1, 2])
        >>> game.hands_played, played > 0
        (1, True)
        """
        if self.is_over:
            raise IllegalMoveError("the game is over")
        if self._instant:
            raise RulesError(
                "points scored during a hand (sudden_death, michigan) are checked move by "
                "move: play such a game with push"
            )
        state = self._state
        before = len(state.history)
        played, states = play_builtin_hand(state, policies, rng_states)
        if log:
            movers = state.movers[before:]
            for seat, m in zip(movers, state.history[before:], strict=True):
                self.log.append({"type": "move", "seat": seat, "move": str(m)})
        self._finish_hand()
        return played, states

    def pop(self) -> Move:
        """Take back the last move of the current hand and drop its log record; returns it.

        A finished hand stays scored: raises :class:`IllegalMoveError` once the game is
        over or when the hand in play has no move yet.
        """
        if self.is_over:
            raise IllegalMoveError("the game is over: no move can be taken back")
        if not self._state.history or self.log[-1].get("type") != "move":
            raise IllegalMoveError("no move of the current hand to take back")
        self.log.pop()
        m: Move = self._state.pop()
        return m

    def count_out(self) -> CountOut:
        """The player to act claims to have reached the target (``count_out=true``).

        Game score plus :func:`clinched_points` at or above the target wins at once;
        otherwise the opponent wins at once. Game scores are left as they were.
        """
        if not self.rules.count_out:
            raise RulesError("count-out is off: enable it with the option count_out=true")
        if self.is_over:
            raise IllegalMoveError("the game is over")
        pos = self._state.to_position()
        seat = pos.to_move
        team = self.rules.team_of(seat)
        clinched = clinched_points(self.rules, pos, team)
        total = self._scores[team] + clinched
        won = total >= self.rules.target
        winner = team if won else 1 - team
        self.log.append(
            {
                "type": "count_out",
                "hand": self._hand,
                "seat": seat,
                "clinched": clinched,
                "total": total,
                "won": won,
            }
        )
        self._end(winner)
        return CountOut(seat, team, clinched, total, won, winner)

    def next_game(self, seed: int) -> Game:
        """The next game of a match: same rules and seating; the winner deals its first hand
        (docs/rules.md §3.1 and §3.3: "The winner of a game begins the deal for the next game").

        In a partnership game the winning partnership's seat ``team`` (the lower of its two
        seats) deals: the seeds do not say which partner, and either is a correct reading."""
        if not self._winners:
            raise IllegalMoveError("the game is not over: it has no winner to deal the next one")
        if self._winner is None:
            # a shared win (California, final_tie=shared): the first dealer is drawn again
            return Game(self.rules, seed=seed, seating=self.seating)
        return Game(self.rules, seed=seed, dealer=self._winner, seating=self.seating)

    def seat_of(self, participant: int) -> int:
        """The seat taken by ``participant`` (the players in the order they were listed
        before the partner draw; the identity outside partnership games)."""
        return self.seating[participant]

    # -- flow ----------------------------------------------------------------------------
    def _check_seating(self, seating: Sequence[int]) -> list[int]:
        out = list(seating)
        n = self.rules.players
        if sorted(out) != list(range(n)) or any(isinstance(x, bool) for x in out):
            raise RulesError(f"seating must list the seats 0 to {n - 1} once each, not {out!r}")
        return out

    def _draw_partners(self) -> list[int]:
        """Partners by card draw (docs/rules.md §3.2): the two highest cards (A low) play
        together against the two lowest. Players tied across the cut redraw among
        themselves. Participant 0 keeps seat 0 and his partner sits opposite (seat 2); the
        others take seats 1 and 3 in participant order. Returns the seat of each participant."""
        n = self.rules.players
        half = n // 2
        rounds: list[list[list[Any]]] = []

        def top(contenders: list[int], k: int) -> list[int]:
            # the k highest drawers of ``contenders``, ties across the cut redrawn
            if k == 0:
                return []
            if k == len(contenders):
                return list(contenders)
            deck = self._shuffled(52)
            ranks = {s: card_rank(deck[i]) for i, s in enumerate(contenders)}
            rounds.append([[s, card_code(deck[i])] for i, s in enumerate(contenders)])
            order = sorted(contenders, key=lambda s: -ranks[s])
            cut = ranks[order[k - 1]]
            above = [s for s in order if ranks[s] > cut]
            tied = [s for s in contenders if ranks[s] == cut]
            return above + top(tied, k - len(above))

        high = set(top(list(range(n)), half))
        mine = [p for p in range(n) if (p in high) == (0 in high)]
        theirs = [p for p in range(n) if (p in high) != (0 in high)]
        seating = [0] * n
        for i, p in enumerate(mine):
            seating[p] = 2 * i
        for i, p in enumerate(theirs):
            seating[p] = 2 * i + 1
        self.log.append(
            {
                "type": "partners",
                "rounds": rounds,
                "high": sorted(high),
                "seating": seating,
            }
        )
        return seating

    def _draw_dealer(self) -> int:
        """Each contender draws from a fresh shuffle; ties for the best rank redraw."""
        low = self.rules.first_dealer == "low"
        contenders = list(range(self.rules.players))
        rounds: list[list[list[Any]]] = []
        while True:
            deck = self._shuffled(52)
            ranks = {s: card_rank(deck[i]) for i, s in enumerate(contenders)}
            rounds.append([[s, card_code(deck[i])] for i, s in enumerate(contenders)])
            best = min(ranks.values()) if low else max(ranks.values())
            contenders = [s for s in contenders if ranks[s] == best]
            if len(contenders) == 1:
                break
        self.log.append({"type": "draw", "rounds": rounds, "dealer": contenders[0]})
        return contenders[0]

    def _shuffled(self, size: int) -> list[int]:
        """``shuffled_deck(self._rng, size)``; in C with the core (the same deck and RNG
        state)."""
        state_class = _state_class(self.rules)
        if hasattr(state_class, "shuffled_deck"):
            deck: list[int]
            deck, self._rng.state = state_class.shuffled_deck(self._rng.state, size)
            return deck
        return shuffled_deck(self._rng, size)

    def _deal(self, dealer: int) -> None:
        state_class = _state_class(self.rules)
        deck = self.rules.deck_cards(self._shuffled(self.rules.num_ids))
        redeals: list[list[str]] = []
        if self.rules.redeal_layout == "italian":
            # the house variant with Italian cards (docs/rules.md §3.25, AMB-72): the whole
            # deck reshuffled while the layout holds the 2 of coins, the 7 of swords or three
            # face cards
            while bad_italian_layout(table := initial_deal(self.rules, dealer, deck)[1]):
                redeals.append(card_codes(c for c in range(self.rules.num_ids) if table >> c & 1))
                deck = self.rules.deck_cards(self._shuffled(self.rules.num_ids))
        elif self.rules.redeal_layout != "none":
            deck, redeals = layout_redeal(self.rules, deck, self._rng)
        self.dealer: int = dealer
        if self.rules.laugh:
            # the antes go into the centre (docs/rules.md §3.35)
            self._state: Any = state_class.new_hand(
                self.rules, dealer, deck, list(self._scores), centre=self._centre)
            pos = self._state.to_position()
            self._scores = list(pos.scores)
            self._centre = pos.centre
        else:
            self._state = state_class.new_hand(self.rules, dealer, deck, list(self._scores))
        record: dict[str, Any] = {
            "type": "deal",
            "hand": self._hand,
            "dealer": dealer,
            "deck": card_codes(deck),
        }
        if redeals:
            record["redeals"] = redeals
        self.log.append(record)

    def _finish_hand(self) -> None:
        hs: HandScore = self._state.hand_score()
        first = self._hands_played == 0
        # Swedish Kassino (AMB-57): a tie at the top goes to most spades in this hand
        spades = hand_spades(self._state.to_position().piles) if self.rules.tie_most_spades else None
        self._scores, winner = tally_winner(
            self.rules, self._scores, hs, self._target, first_hand=first, spades=spades
        )
        if self.rules.laugh:
            self._centre -= sum(hs.totals())    # (the chips taken from the centre, net)
        r = self.rules
        if (
            winner is None and r.end_check == "compare_totals" and r.tie_hand_target
            and max(self._scores) >= self._target
        ):
            # a tie at the target (Royal Cassino, AMB-29): another hand played for
            # tie_hand_target more points; the higher total at or above it wins
            self._target = max(self._scores) + r.tie_hand_target
        self.hand_scores.append(hs)
        self._hands_played += 1
        teams = hs.to_dict()["teams"]
        self.log.append(
            {"type": "score", "hand": self._hand, "teams": teams, "scores": list(self._scores)}
        )
        if winner is not None:
            self._end(winner)
            return
        winners = final_winners(
            self.rules, self._scores, self._hands_played, spades=spades, target=self._target
        )
        if winners:
            self._end(*winners)
            return
        self._hand += 1
        n = self.rules.players
        step = 1 if self.rules.direction == "cw" else -1
        self._deal((self.dealer + step) % n)

    @property
    def _instant(self) -> bool:
        """Whether points are scored during a hand (sudden_death, michigan)."""
        return self.rules.sudden_death != "none" or self.rules.michigan

    def _sudden_death_check(self) -> None:
        """``sudden_death`` or ``michigan``: the points scored by the move just played may
        reach the target, which ends the game at once, mid-hand (docs/rules.md §3.37, AMB-18,
        AMB-19). Only the mover's team gained points (a Michigan default only loses them),
        so at most one team reaches the target."""
        live = self.scores
        reached = [t for t, s in enumerate(live) if s >= self._target]
        if not reached:
            return
        self._scores = live
        self.log.append({"type": "sudden_death", "hand": self._hand, "scores": list(live)})
        self._end(reached[0])

    def _end(self, *winners: int) -> None:
        self._winners = winners
        if len(winners) == 1:
            self._winner = winners[0]
            self.log.append({"type": "end", "winner": winners[0]})
        else:
            self.log.append({"type": "end", "winner": None, "winners": list(winners)})

    # -- replay --------------------------------------------------------------------------
    @classmethod
    def replay(cls, log: Sequence[Mapping[str, Any]]) -> Game:
        """Rebuild a game from its :attr:`log`, checking every record.

        Raises :class:`ReplayError` naming the first record that is malformed, illegal or
        different from what the replayed game produces.
        """
        records = [_plain(r) for r in log]
        if not records or not isinstance(records[0], dict) or records[0].get("type") != "game":
            raise ReplayError("a game log must start with a 'game' record")
        head = records[0]
        try:
            options = head.get("options") or {}
            if not isinstance(options, dict):
                raise ReplayError("the 'game' record's options must be an object")
            r = rules(head["system"], **options)
            seed = head["seed"]
            second = records[1] if len(records) > 1 else {}
            if isinstance(second, dict) and second.get("type") == "position":
                pos = Position.from_dict(second["position"])
                if pos.rules != r:
                    raise ReplayError("record 1: the position's rules differ from the 'game' record")
                game = cls.from_position(pos, seed=seed, hand=second["hand"])
            else:
                game = cls(r, seed=seed, dealer=head.get("dealer"), seating=head.get("seating"))
        except KeyError as exc:
            raise ReplayError(f"record 0 or 1 is missing the field {exc}") from None
        except ReplayError:
            raise
        except CassinoError as exc:
            raise ReplayError(f"cannot start the game of the log: {exc}") from None
        for k, rec in enumerate(records):
            if k == len(game.log):
                game._replay_action(k, rec)
            if k >= len(game.log):
                raise ReplayError(f"record {k} ({_short(rec)}) was not produced by the game")
            if game.log[k] != rec:
                raise ReplayError(
                    f"record {k} does not match the replayed game: "
                    f"the log has {_short(rec)}, the game produced {_short(game.log[k])}"
                )
        return game

    def _replay_action(self, k: int, rec: Any) -> None:
        kind = rec.get("type") if isinstance(rec, dict) else None
        try:
            if kind == "move":
                if rec.get("seat") != self._state.to_move and not self.is_over:
                    raise ReplayError(
                        f"record {k}: seat {rec.get('seat')} moves, but seat "
                        f"{self._state.to_move} is to act"
                    )
                move = rec.get("move")
                if not isinstance(move, str):
                    raise ReplayError(f"record {k}: a move record needs the move's notation")
                self.push(move)
            elif kind == "count_out":
                self.count_out()
            else:
                raise ReplayError(
                    f"record {k} ({_short(rec)}) was not produced by the game; "
                    "only 'move' and 'count_out' records are actions"
                )
        except ReplayError:
            raise
        except CassinoError as exc:
            raise ReplayError(f"record {k}: {exc}") from None


def play_builtin_hand(
    state: Any, policies: Sequence[str], rng_states: Sequence[int]
) -> tuple[int, list[int]]:
    """Play the rest of ``state``'s hand with the built-in players (``State.play_hand`` in
    the core, the Python players on the reference); ``(moves played, new RNG states)``."""
    if hasattr(state, "play_hand"):
        got: tuple[int, list[int]] = state.play_hand(list(policies), list(rng_states))
        return got
    return _play_hand_reference(state, policies, rng_states)


def _play_hand_reference(
    state: Any, policies: Sequence[str], rng_states: Sequence[int]
) -> tuple[int, list[int]]:
    """State.play_hand of the reference: the Python players, seat by seat."""
    from .expert import ExpertPlayer
    from .greedy import GreedyPlayer
    from .players import RandomPlayer, View

    n = state.rules.players
    if len(policies) != n or len(rng_states) != n:
        raise ValueError(f"one policy and one RNG state per seat ({n}) are needed")
    players: list[Any] = []
    for pol, st in zip(policies, rng_states, strict=True):
        if pol not in ("random", "greedy", "expert"):
            raise ValueError(f"policy must be 'random', 'greedy' or 'expert', not {pol!r}")
        if isinstance(st, bool) or not isinstance(st, int) or not 0 <= st < 1 << 64:
            raise ValueError(f"an RNG state is an integer from 0 to 2**64 - 1, not {st!r}")
        p = (GreedyPlayer() if pol == "greedy" else RandomPlayer() if pol == "random"
             else ExpertPlayer(worlds=0, nodes=0, infer=0))
        p._rng.state = st
        players.append(p)
    played = 0
    while not state.is_over:
        seat = state.to_move
        state.push(players[seat].choose(View.of(state, seat), player_moves(state, players[seat])))
        played += 1
    return played, [p._rng.state for p in players]


def play_compound_hand(state: Any, policies: Sequence[str],
                       rng_states: Sequence[int]) -> tuple[int, list[int]]:
    """``State.play_hand`` of a compound system (a core CompoundState): the rest of the
    hand played by ``random`` and ``greedy`` players (``expert`` seats: the Python
    players'), the same moves as :class:`~cassino.players.RandomPlayer` and
    :class:`~cassino.greedy.GreedyPlayer` choosing from each seat's view, RNG draw for RNG
    draw, each pushed.

    A greedy choice is made from the core's scores of the turns
    (:func:`cassino.greedy.core_turn_scores`) without making the turns into moves, but for
    the chosen one: the scores of the state itself, which are those of the world the player
    samples from its view (a seat's turns and the tables they leave depend on its hand, the
    table and the piles; the view gives the rest). A random seat's turn is drawn as
    ``move_at`` makes it, from one listing. In a partnership a greedy player judges the
    turns in a world sampled from its view, whose partner's hand is not the true one; the
    turns depend on that hand only through a claim of the partner (AMB-64: a build for him
    needs a card of its value in his hand), so a position where the partner has a claim
    is asked of the Python player, as is an insist decision.
    """
    from ._core import turn_generator
    from .greedy import GreedyPlayer, _turn_odds, best_index, card_weights, core_turn_scores
    from .players import RandomPlayer, View
    from .reference.african import _captured, _order_at, compound_rules

    r = state.rules
    n = r.players
    if "expert" in policies:
        return _play_hand_reference(state, policies, rng_states)
    if len(policies) != n or len(rng_states) != n:
        raise ValueError(f"one policy and one RNG state per seat ({n}) are needed")
    players: list[Any] = []
    for pol, st in zip(policies, rng_states, strict=True):
        if pol not in ("random", "greedy"):
            raise ValueError(f"policy must be 'random', 'greedy' or 'expert', not {pol!r}")
        if isinstance(st, bool) or not isinstance(st, int) or not 0 <= st < 1 << 64:
            raise ValueError(f"an RNG state is an integer from 0 to 2**64 - 1, not {st!r}")
        p = GreedyPlayer() if pol == "greedy" else RandomPlayer()
        p._rng.state = st
        players.append(p)
    partnership = r.teams == "partnership"
    ws = card_weights(r)
    gen = turn_generator(r)
    vals = lru_cache(maxsize=None)(compound_rules(r).vals)
    played = 0
    while not state.is_over:
        seat = state.to_move
        p = players[seat]
        scores = view = None
        if state.insist:
            pass
        elif type(p) is RandomPlayer:
            # (RandomPlayer's draw among every turn, the orders of a capture's cards
            # included, as move_at makes it: one listing, read again for the turn drawn)
            base, at, end = gen.turn_at(state, p._rng.below(gen.listed_total(state)))
            state._ends_by_id()[id(base)] = (end, base)
            state.push(state._expand(base, _order_at(r, _captured(base), at))[0])
            played += 1
            continue
        elif not partnership or not any(
                s != seat and r.team_of(s) == r.team_of(seat) for s, _ in state.claims):
            view = View.of(state, seat)
            scores = core_turn_scores(state, view, ws,
                                      _turn_odds(view, next_seat(r, seat), vals))
        if scores is None:
            state.push(p.choose(view or View.of(state, seat), player_moves(state, p)))
        else:
            k = best_index(scores, p._rng) if len(scores) > 1 else 0
            base, end = gen.scored_turn(state, k)
            state._ends_by_id()[id(base)] = (end, base)
            state.push(state._expand(base, _captured(base))[0])
        played += 1
    return played, [p._rng.state for p in players]


def player_moves(state: Any, player: Any) -> Sequence[Move]:
    """The moves ``player`` chooses among: every legal move; in a compound system (African
    and Italian Cassino) the turns with the captured cards in one order
    (``turns_one_order``: what a turn takes, not the order it leaves), and for a random
    player every turn, made by index (the orders of a capture can be millions)."""
    from .players import RandomPlayer

    if not state.rules.compound:
        return state.legal_moves()   # type: ignore[no-any-return]
    if isinstance(player, RandomPlayer):
        return _IndexedMoves(state)
    return state.turns_one_order()   # type: ignore[no-any-return]


class _IndexedMoves(Sequence[Move]):
    """The legal moves of a state as a sequence made move by move (``num_moves`` and
    ``move_at``): African Cassino's orders of the captured cards can make millions of
    turns, which a random player draws one of without listing them."""

    def __init__(self, state: Any) -> None:
        self._state = state
        self._n: int = state.num_moves()
        self.size = self._n                 # (may pass sys.maxsize: len() cannot say it)

    def __len__(self) -> int:
        return self._n

    def __bool__(self) -> bool:
        return self._n > 0      # (len() cannot say it past sys.maxsize)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self._state.move_at(i) for i in range(*index.indices(self._n))]
        if not -self._n <= index < self._n:
            raise IndexError(index)
        return self._state.move_at(index % self._n)

    def __contains__(self, value: object) -> bool:
        """Whether ``value`` is a legal move of the state, asked of the state: listing to
        find it could take billions of turns."""
        return isinstance(value, Move) and self._state.is_legal(value)


def _royal_triple(table: Sequence[int]) -> int:
    """The rank (11-13) of which the layout holds three or four cards, or 0."""
    for rank in (11, 12, 13):
        if sum(1 for c in table if card_rank(c) == rank) >= 3:
            return rank
    return 0


def layout_redeal(rules: Rules, deck: list[int], rng: Rng) -> tuple[list[int], list[list[str]]]:
    """Diloti's layout redeal (docs/rules.md §3.17, AMB-50): while the table cards of ``deck``
    hold three or four royalty cards of one rank, they go back to the stock (all four with
    redeal_layout=full, only those of that rank with offending), the stock is shuffled with
    ``rng`` (Fisher-Yates from the end) and the missing table cards are dealt from its top.
    Returns the deck as finally dealt and the rejected layouts (card codes)."""
    nh = rules.players * rules.hand_size
    k = rules.table_cards
    hands, table, stock = deck[:nh], deck[nh : nh + k], deck[nh + k :]
    rejected: list[list[str]] = []
    while rank := _royal_triple(table):
        rejected.append([card_code(c) for c in table])
        if rules.redeal_layout == "full":
            back, table = table, []
        else:
            back = [c for c in table if card_rank(c) == rank]
            table = [c for c in table if card_rank(c) != rank]
        pool = back + stock
        for i in range(len(pool) - 1, 0, -1):
            j = rng.below(i + 1)
            pool[i], pool[j] = pool[j], pool[i]
        table += pool[: len(back)]
        stock = pool[len(back) :]
    return hands + table + stock, rejected


def _plain(x: Any) -> Any:
    """JSON-normalized copy (tuples become lists), so records compare as loaded JSON."""
    try:
        return json.loads(json.dumps(x))
    except (TypeError, ValueError) as exc:
        raise ReplayError(f"the game log is not JSON data: {exc}") from None


def _short(rec: Any, limit: int = 160) -> str:
    text = json.dumps(rec)
    return text if len(text) <= limit else text[: limit - 3] + "..."

