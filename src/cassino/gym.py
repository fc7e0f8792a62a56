"""Gymnasium environment ``cassino/Cassino-v0``: one hand of any implemented system, the
learner at one seat and built-in players at the others (extra ``[gymnasium]``).

Importing this module registers the id; ``gymnasium.make("cassino.gym:cassino/Cassino-v0")``
imports it on the way::

    import gymnasium
    import cassino.gym  # noqa: F401  (registers cassino/Cassino-v0)

    env = gymnasium.make("cassino/Cassino-v0", system="diloti", opponents="expert")

Actions are the sub-actions of :class:`cassino.actions.ActionSpace` (``Discrete``): a move is
a short sequence of them, chosen one per step. Once the learner's move is complete, the
other seats play whole moves, each its player's choice from its :class:`~cassino.players.View`
(``opponents``: one :func:`~cassino.players.make_player` spec for all, or one per other
seat, in seat order; reseeded from the environment's generator at every reset), until the
learner is to move again or the hand is over.

The observation is a dict: ``observation``, :meth:`cassino.env.HandEnv.observation_tensor`
of the learner's seat (float32), and ``action_mask`` (int8, the legal sub-actions; all zeros
once the hand is over), which ``info["action_mask"]`` and :meth:`CassinoEnv.action_masks`
give too. The reward is 0 until the hand ends, then the learner's return (``returns``:
``margin``, zero-sum, or ``points``); the hand's end terminates the episode, which is never
truncated. An illegal action raises :class:`cassino.IllegalMoveError` and changes nothing
(``illegal_action="raise"``), or ends the episode with reward ``illegal_reward`` (by default
minus :func:`cassino.env.utility_bound`, worse than any hand) with
``illegal_action="terminate"``, which unmasked learners need.

>>> env = CassinoEnv("kontsina", opponents="random")
>>> obs, info = env.reset(seed=3)
>>> env.action_space, obs["observation"].shape, bool(obs["action_mask"].any())
(Discrete(109), (583,), True)
>>> terminated = False
>>> while not terminated:
...     action = int(obs["action_mask"].nonzero()[0][0])
...     obs, reward, terminated, truncated, info = env.step(action)
>>> reward == env.hand_env.returns()[0]
True
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from .actions import ActionSpace
from .env import HandEnv, observation_size, utility_bound
from .errors import IllegalMoveError, RulesError
from .game import player_moves
from .players import Player, PlayerError, View, choose_move, make_player
from .rules import Rules, parse_option
from .rules import rules as make_rules

__all__ = [
    "ENV_ID",
    "ILLEGAL_ACTIONS",
    "RENDER_MODES",
    "CassinoEnv",
    "action_id",
    "game_rules",
    "observation_space",
    "register",
    "render",
]

ENV_ID = "cassino/Cassino-v0"
RENDER_MODES = ("human", "ansi")
ILLEGAL_ACTIONS = ("raise", "terminate")
"""``raise``: :class:`cassino.IllegalMoveError`; ``terminate``: the episode ends with
``illegal_reward``."""

Options = Mapping[str, Any] | str | None
Action = int | np.integer[Any]


def game_rules(system: str | Rules = "cassino_standard", options: Options = None) -> Rules:
    """The rules of ``system`` with ``options``: a mapping of option names to values, or a
    string of space-separated ``name=value`` pairs (:func:`cassino.parse_option`).

    >>> game_rules("cassino_standard", "sweeps=true target=11").sweeps
    True
    """
    if isinstance(system, Rules):
        if options:
            raise RulesError("options go with a system id, not with a Rules object")
        return system
    if options is None:
        opts: dict[str, Any] = {}
    elif isinstance(options, str):
        opts = dict(parse_option(item) for item in options.split())
    elif isinstance(options, Mapping):
        opts = dict(options)
    else:
        raise RulesError(f"options must be a mapping or a string of name=value pairs, "
                         f"not {options!r}")
    return make_rules(system, **opts)


def action_id(action: object) -> int:
    """``action`` as an int (NumPy integers too); :class:`cassino.IllegalMoveError` if it is
    no integer."""
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise IllegalMoveError(f"an action is an integer id, not {action!r}") from None


def observation_space(rules: Rules) -> spaces.Dict:
    """The observation space of a seat: ``observation``, a float32 ``Box`` of
    :func:`cassino.env.observation_size` from 0 to a bound no entry reaches (hand sizes,
    sweeps and build values may exceed 1), and ``action_mask``, an int8 ``Box`` of 0s and 1s."""
    cards = bin(rules.deck_mask).count("1")
    space = ActionSpace(rules)
    top = max(1.0, cards / max(rules.hand_size, 1), cards / 10, space.max_value / 14)
    n = space.num_actions
    return spaces.Dict({
        "observation": spaces.Box(0.0, float(np.ceil(top)), (observation_size(rules),),
                                  np.float32),
        "action_mask": spaces.Box(0, 1, (n,), np.int8),
    })


class CassinoEnv(gymnasium.Env[dict[str, Any], Action]):
    """One hand of ``system``: the learner plays seat ``seat`` against ``opponents`` (see
    the module docstring). Bad arguments raise :class:`cassino.RulesError` (system,
    options, seat, returns, render mode, illegal_action) or
    :class:`cassino.players.PlayerError` (opponents)."""

    # (gymnasium.Env declares metadata an instance attribute: no ClassVar)
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        system: str | Rules = "cassino_standard",
        opponents: str | Sequence[str] = "greedy",
        seat: int = 0,
        options: Options = None,
        returns: str = "margin",
        render_mode: str | None = None,
        illegal_action: str = "raise",
        illegal_reward: float | None = None,
    ) -> None:
        rules = game_rules(system, options)
        players = rules.players
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise RulesError(f"seat must be from 0 to {players - 1}, not {seat!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise RulesError(f"render_mode must be None or one of {', '.join(RENDER_MODES)}, "
                             f"not {render_mode!r}")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise RulesError(f"illegal_action must be one of {', '.join(ILLEGAL_ACTIONS)}, "
                             f"not {illegal_action!r}")
        others = [s for s in range(players) if s != seat]
        if isinstance(opponents, str):
            specs = [opponents] * len(others)
        elif isinstance(opponents, Sequence) and all(isinstance(o, str) for o in opponents):
            specs = list(opponents)
            if len(specs) != len(others):
                raise PlayerError(f"{rules.system} has {len(others)} other seats, so "
                                  f"{len(others)} opponents, not {len(specs)}")
        else:
            raise PlayerError(f"opponents must be a player spec or a list of them, "
                              f"not {opponents!r}")
        self.rules = rules
        self.seat = seat
        self.hand_env = HandEnv(rules, 0, returns)
        self.specs = dict(zip(others, specs, strict=True))
        self.players: dict[int, Player] = {s: make_player(spec) for s, spec in self.specs.items()}
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = (-float(utility_bound(rules)) if illegal_reward is None
                               else float(illegal_reward))
        self.observation_space: spaces.Dict = observation_space(rules)
        self.action_space: spaces.Discrete = spaces.Discrete(self.hand_env.space.num_actions)
        self._ended = False   # by an illegal action (illegal_action="terminate")

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal a new hand (dealer seat 0) shuffled by the environment's generator, reseed
        the opponents from it and let them play up to the learner's turn. ``options`` is
        unused."""
        super().reset(seed=seed)
        rng = self.np_random
        env = HandEnv(self.rules, 0, self.hand_env.return_kind)
        deck = [int(c) for c in rng.permutation(env.cards)]
        self.players = {s: make_player(spec, seed=int(rng.integers(2**63)))
                        for s, spec in self.specs.items()}
        env.deal(deck)
        self.hand_env = env
        self._ended = False
        self._play_opponents()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(
        self, action: Action
    ) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Apply the learner's sub-action; once its move is complete the opponents play."""
        env = self.hand_env
        if env.state is None:
            raise IllegalMoveError("no hand is dealt: call reset() first")
        if env.is_over or self._ended:
            raise IllegalMoveError("the hand is over: call reset()")
        try:
            move = env.apply(action_id(action))
        except IllegalMoveError:
            if self.illegal_action == "raise":
                raise
            self._ended = True
            return self._observation(), self.illegal_reward, True, False, self._info()
        if move is not None:
            self._play_opponents()
        terminated = env.is_over
        reward = env.returns()[self.seat] if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, False, self._info()

    def _play_opponents(self) -> None:
        env = self.hand_env
        while not env.is_over and env.to_move != self.seat:
            seat = env.to_move
            state = env.state
            player = self.players[seat]
            move = choose_move(player, View.of(state, seat), player_moves(state, player))
            for a in env.space.encode(move):
                env.apply(a)

    def action_masks(self) -> np.ndarray:
        """The legal sub-actions of the learner as an int8 mask (all zeros once over)."""
        if self._ended or self.hand_env.to_move != self.seat:
            return np.zeros(self.hand_env.space.num_actions, dtype=np.int8)
        return self.hand_env.action_mask()

    def _observation(self) -> dict[str, np.ndarray]:
        return {"observation": self.hand_env.observation_tensor(self.seat),
                "action_mask": self.action_masks()}

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def render(self) -> str | None:
        """The table as text (``ansi``), or printed (``human``)."""
        return render(self.render_mode, self.hand_env)


def render(mode: str | None, hand: HandEnv) -> str | None:
    """``str(hand)`` for ``ansi``, printed for ``human``; a warning without a mode."""
    if mode is None:
        gymnasium.logger.warn("render() needs a render_mode: 'human' or 'ansi'")
        return None
    text = str(hand)
    if mode == "human":
        print(text)
        return None
    return text


def register() -> None:
    """Register :data:`ENV_ID` with Gymnasium (done on import; repeating it is harmless)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="cassino.gym:CassinoEnv")


register()
