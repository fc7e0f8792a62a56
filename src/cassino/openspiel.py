"""OpenSpiel game ``python_cassino``: every implemented system, one hand an episode.

Importing this module registers the game (extra ``[openspiel]``)::

    import pyspiel
    import cassino.openspiel  # noqa: F401  (registers python_cassino)

    game = pyspiel.load_game("python_cassino", {"system": "diloti"})

Parameters: ``system`` (a system id, default ``cassino_standard``), ``options`` (rules options
as space-separated ``name:value`` pairs, e.g. ``"sweeps:true target:11"``; ``name=value``
works too, but OpenSpiel's game strings, and so serialization, cannot hold the ``=``), ``players`` (0:
the system's own count), ``dealer`` (seat) and ``returns`` (``margin``, zero-sum, or
``points``; see :data:`cassino.env.RETURNS`).

The shuffle is chance nodes: each outcome is the next card of the deck, uniform over the cards
not dealt yet, and the hand is dealt from that deck by the system's rules. Players then choose
the sub-actions of :class:`cassino.actions.ActionSpace` (a move is a short sequence; the seat
to move keeps the turn until its move is complete). Observation and information-state
strings and tensors come from :class:`cassino.env.HandEnv`: the tensor is the seat's view
(hand, table, captured piles, counts, the move being built); the information-state string
adds the hand's public history, which with the seat's own hand is all it has seen.

>>> game = pyspiel.load_game("python_cassino", {"system": "kontsina"})
>>> game.num_distinct_actions(), game.num_players(), game.max_chance_outcomes()
(109, 2, 52)
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pyspiel

from ._rng import Rng
from .env import RETURNS, HandEnv, observation_size, utility_bound
from .errors import IllegalMoveError, RulesError
from .rules import Rules, parse_option
from .rules import rules as make_rules

__all__ = ["GAME_NAME", "CassinoGame", "CassinoState", "PlayerBot", "game_rules"]

GAME_NAME = "python_cassino"

_DEFAULTS: dict[str, Any] = {
    "system": "cassino_standard",
    "options": "",
    "players": 0,
    "dealer": 0,
    "returns": "margin",
}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Cassino family (cassino)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def game_rules(params: dict[str, Any]) -> Rules:
    """The rules named by game parameters (``system``, ``options``, ``players``)."""
    system = params.get("system", _DEFAULTS["system"])
    opts: dict[str, Any] = {}
    text = params.get("options", "")
    if not isinstance(text, str):
        raise RulesError(f"options must be a string of name=value pairs, not {text!r}")
    for item in text.split():
        name, value = parse_option(item.replace(":", "=", 1) if "=" not in item else item)
        opts[name] = value
    players = params.get("players", 0)
    if players:
        opts["players"] = players
    return make_rules(system, **opts)


class CassinoGame(pyspiel.Game):  # type: ignore[misc]
    """One hand of a Cassino-family system (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        unknown = set(params) - set(_DEFAULTS)
        if unknown:
            raise RulesError(f"unknown {GAME_NAME} parameters: {', '.join(sorted(unknown))}")
        if params["returns"] not in RETURNS:
            raise RulesError(f"returns must be one of {', '.join(RETURNS)}, "
                             f"not {params['returns']!r}")
        rules = game_rules(params)
        env = HandEnv(rules, int(params["dealer"]), str(params["returns"]))
        self.rules = rules
        self.params = params
        self._template = env
        bound = float(utility_bound(rules))
        deck = len(env.cards)
        zero_sum = params["returns"] == "margin"
        # a move: at most a head, a take per card on the table, 4 second values and a finish;
        # at most two moves per card (a card played, a pluck or a pass)
        length = deck + 2 * deck * (deck + 6)
        if rules.compound:
            # a compound turn: at most a step per table card and the hand card's, each a
            # head, takes, an owner, a finish and the order of its captured cards, then END;
            # after a turn an insist decision and an extension of as many steps
            turn = (deck + 1) * (2 * deck + 3) + 1
            length = deck + deck * (2 * turn + 1)
        info = pyspiel.GameInfo(
            num_distinct_actions=env.space.num_actions,
            max_chance_outcomes=rules.num_ids,
            num_players=rules.players,
            min_utility=-bound if zero_sum else (-2.0 * deck if rules.michigan else 0.0),
            max_utility=bound,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=length,
        )
        game_type = _GAME_TYPE
        if not zero_sum:
            game_type = pyspiel.GameType(
                **{k: getattr(_GAME_TYPE, k) for k in _TYPE_FIELDS},
                utility=pyspiel.GameType.Utility.GENERAL_SUM,
            )
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> CassinoState:
        """The start of a hand: the deck not dealt yet."""
        return CassinoState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> CassinoObserver:
        """Observer of :class:`CassinoState` (perfect recall adds the public history to the
        string; the tensor is the same view)."""
        if params:
            raise ValueError(f"observer parameters are not supported: {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return CassinoObserver(self.rules, recall)


_TYPE_FIELDS = (
    "short_name", "long_name", "dynamics", "chance_mode", "information", "reward_model",
    "max_num_players", "min_num_players", "provides_information_state_string",
    "provides_information_state_tensor", "provides_observation_string",
    "provides_observation_tensor", "parameter_specification",
)


class CassinoState(pyspiel.State):  # type: ignore[misc]
    """A hand in progress: chance deals the deck, then seats choose sub-actions."""

    def __init__(self, game: CassinoGame, env: HandEnv | None = None) -> None:
        super().__init__(game)
        self.env = env if env is not None else game._template.clone()

    def current_player(self) -> int:
        env = self.env
        if env.state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if env.builder is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(env.state.to_move)

    def _legal_actions(self, player: int) -> list[int]:
        return self.env.builder.legal_actions() if self.env.builder is not None else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        out = self.env.chance_outcomes()
        p = 1.0 / len(out)
        return [(c, p) for c in out]

    def _apply_action(self, action: int) -> None:
        env = self.env
        if env.state is None:
            env.deal_card(action)
        else:
            env.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            from .cards import card_code

            return f"deal {card_code(action)}"
        return self.env.space.describe(action)

    def is_terminal(self) -> bool:
        return self.env.is_over

    def returns(self) -> list[float]:
        return self.env.returns()

    def __str__(self) -> str:
        return str(self.env)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CassinoState:
        """A state of the same information state for ``player_id``: the cards it has not
        seen dealt again at random (:meth:`cassino.env.HandEnv.resample`), from a seed
        drawn from ``probability_sampler``. OpenSpiel's ISMCTS samples its worlds here;
        the new state has no action history of its own."""
        seed = int(probability_sampler() * 2**53)
        return CassinoState(self.get_game(), self.env.resample(player_id, Rng(seed)))

    def __deepcopy__(self, memo: dict[int, Any]) -> CassinoState:
        other = copy.copy(self)
        other.env = self.env.clone()
        return other


class PlayerBot(pyspiel.Bot):  # type: ignore[misc]
    """A cassino player (``greedy``, ``expert``, ``ismcts:iterations=200``, ``module:Class``;
    :func:`cassino.players.make_player`) as an OpenSpiel bot: it chooses a whole move from
    its view of the hand, then plays its sub-actions one a step.

    >>> game = pyspiel.load_game("python_cassino")
    >>> bots = [PlayerBot(game, 0, "greedy"), PlayerBot(game, 1, "random", seed=1)]
    >>> returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 7)
    >>> returns[0] + returns[1]
    0.0
    """

    def __init__(self, game: CassinoGame, player_id: int, spec: str = "greedy",
                 seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        from .players import make_player

        self.player_id = player_id
        self.player = make_player(spec, seed)
        self._plan: tuple[int, ...] = ()
        self._ply = -1   # the move (len of the hand's log) the plan is for

    def restart_at(self, state: CassinoState) -> None:
        self._plan = ()
        self._ply = -1

    def inform_action(self, state: CassinoState, player_id: int, action: int) -> None:
        pass

    def step(self, state: CassinoState) -> int:
        from .actions import TurnBuilder
        from .game import player_moves
        from .players import View, choose_move

        env = state.env
        if env.builder is None or env.to_move != self.player_id:
            raise IllegalMoveError(f"seat {self.player_id} is not to move")
        prefix = env.prefix
        ply = len(env.log)
        if ply != self._ply or self._plan[: len(prefix)] != prefix:
            self._ply = ply
            view = View.of(env.state, self.player_id)
            builder = env.builder
            if env.space.compound and prefix and isinstance(builder, TurnBuilder):
                # (a compound turn part made by another: the turns it can still become,
                # each with the sub-actions from here that make it)
                ways = builder.completions()
                move = choose_move(self.player, view, list(ways))
                self._plan = prefix + ways[move]
            else:
                # (a compound turn's start: the moves a game gives the player)
                moves = (player_moves(env.state, self.player) if env.space.compound
                         else builder.candidates())
                self._plan = env.space.encode(choose_move(self.player, view, moves))
        return self._plan[len(prefix)]


class CassinoObserver:
    """OpenSpiel's PyObserver: :meth:`HandEnv.observation_tensor` and the strings."""

    def __init__(self, rules: Rules, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(observation_size(rules), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CassinoState, player: int) -> None:
        self.tensor[:] = state.env.observation_tensor(player)

    def string_from(self, state: CassinoState, player: int) -> str:
        if self.perfect_recall:
            return state.env.information_state_string(player)
        return state.env.observation_string(player)


pyspiel.register_game(_GAME_TYPE, CassinoGame)
