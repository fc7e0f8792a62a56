"""PettingZoo AEC environment ``cassino_v0``: one hand of any implemented system, every seat
an agent (extra ``[pettingzoo]``), written like PettingZoo's classic games::

    from cassino.pettingzoo import env

    game = env(system="cassino_partnership")
    game.reset(seed=42)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        mask = observation["action_mask"]
        action = None if termination else game.action_space(agent).sample(mask)
        game.step(action)

Agents ``player_0`` ... ``player_{n-1}`` are the seats; seat 0 deals. Actions are the
sub-actions of :class:`cassino.actions.ActionSpace` (``Discrete``): a move is a short sequence
of them and ``agent_selection``, the seat to move, keeps the turn until its move is complete
(and may keep it for the next move: a pluck of ``cassino_pluck``). Observations are those of
:mod:`cassino.gym` (:func:`cassino.gym.observation_space`): the seat's
:meth:`~cassino.env.HandEnv.observation_tensor` and an int8 ``action_mask``, all zeros but
for the agent to move. Rewards come once, at the end of the hand: each seat's return
(``returns``: ``margin``, zero-sum, or ``points``), and every agent terminates then; nothing
is truncated. In :func:`env`, as in PettingZoo's classic games, an illegal action ends the
hand with ``illegal_reward`` for its agent (by default minus
:func:`cassino.env.utility_bound`, worse than any hand) and 0 for the others; the raw
environment raises :class:`cassino.IllegalMoveError` instead and changes nothing.

>>> game = env(system="kontsina")
>>> game.reset(seed=1)
>>> game.agents, game.action_space("player_0")
(['player_0', 'player_1'], Discrete(109))
>>> for agent in game.agent_iter():
...     observation, reward, termination, truncation, info = game.last()
...     game.step(None if termination else int(observation["action_mask"].argmax()))
>>> hand = game.unwrapped.hand_env
>>> hand.is_over, hand.returns()[0] + hand.returns()[1]
(True, 0.0)
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from .env import HandEnv, utility_bound
from .errors import CassinoError, IllegalMoveError, RulesError
from .gym import (
    RENDER_MODES,
    Action,
    Options,
    action_id,
    game_rules,
    observation_space,
    render,
)
from .rules import Rules

__all__ = ["env", "raw_env"]


def env(illegal_reward: float | None = None, **kwargs: Any) -> AECEnv:
    """:class:`raw_env` (``kwargs``) as PettingZoo's classic games wrap theirs: an illegal
    action ends the hand with ``illegal_reward`` for its agent (default: minus
    :func:`cassino.env.utility_bound`), an action outside the action space fails an
    assertion, and the calls must come in order (``OrderEnforcingWrapper``). The first two
    are ``raw_env(terminate_illegal=True)`` itself, for speed: PettingZoo's
    ``TerminateIllegalWrapper`` and ``AssertOutOfBoundsWrapper`` do the same at three
    times the cost of a step."""
    return _OrderEnforcing(
        raw_env(terminate_illegal=True, illegal_reward=illegal_reward, **kwargs))


def _forward(name: str) -> property:
    def get(self: _OrderEnforcing) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)
    return property(get, doc=f"The environment's ``{name}`` (after a reset).")


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper``, the same checks, with the attributes read
    at every step (by ``last()`` and ``agent_iter()``) as properties: its generic
    ``__getattr__`` forwarding cost more than the rest of a step."""

    agents = _forward("agents")
    agent_selection = _forward("agent_selection")
    rewards = _forward("rewards")
    terminations = _forward("terminations")
    truncations = _forward("truncations")
    infos = _forward("infos")
    _cumulative_rewards = _forward("_cumulative_rewards")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def __str__(self) -> str:
        return str(self.env)


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]
    """One hand of ``system`` (with rules ``options``, see :func:`cassino.gym.game_rules`);
    see the module docstring. An illegal action raises :class:`cassino.IllegalMoveError`
    and changes nothing; with ``terminate_illegal``, it ends the hand instead, as in
    :func:`env`. Bad arguments raise :class:`cassino.RulesError`."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "cassino_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        system: str | Rules = "cassino_standard",
        options: Options = None,
        render_mode: str | None = None,
        returns: str = "margin",
        terminate_illegal: bool = False,
        illegal_reward: float | None = None,
    ) -> None:
        EzPickle.__init__(self, system, options, render_mode, returns, terminate_illegal,
                          illegal_reward)
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise RulesError(f"render_mode must be None or one of {', '.join(RENDER_MODES)}, "
                             f"not {render_mode!r}")
        self.rules = game_rules(system, options)
        self.render_mode = render_mode
        self.hand_env = HandEnv(self.rules, 0, returns)
        self.terminate_illegal = bool(terminate_illegal)
        self.illegal_reward = (-float(utility_bound(self.rules)) if illegal_reward is None
                               else float(illegal_reward))
        self.possible_agents = [f"player_{s}" for s in range(self.rules.players)]
        self.agents = self.possible_agents[:]
        self._seats = {a: s for s, a in enumerate(self.possible_agents)}
        n = self._n = self.hand_env.space.num_actions
        self.observation_spaces = {a: observation_space(self.rules) for a in self.agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.agents}
        self._np_random: Any = None
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    def _seat(self, agent: str) -> int:
        try:
            return self._seats[agent]
        except (KeyError, TypeError):
            raise CassinoError(f"no agent {agent!r} (agents {', '.join(self.possible_agents)})"
                               ) from None

    def observation_space(self, agent: str) -> spaces.Dict:
        self._seat(agent)
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        self._seat(agent)
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation tensor and its action mask (zeros unless it is to move)."""
        seat = self._seat(agent)
        hand = self.hand_env
        if hand.to_move == seat:
            mask = hand.action_mask()
        else:
            mask = np.zeros(hand.space.num_actions, dtype=np.int8)
        return {"observation": hand.observation_tensor(seat), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand shuffled by a NumPy generator, seeded anew from ``seed``; without
        one, the generator of the last reset goes on (a random one the first time), so
        hands differ. ``options`` is unused."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        hand = HandEnv(self.rules, 0, self.hand_env.return_kind)
        hand.deal([int(c) for c in self._np_random.permutation(hand.cards)])
        self.hand_env = hand
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[hand.to_move]
        if self.render_mode == "human":
            self.render()

    def step(self, action: Action | None) -> None:
        """Apply the sub-action ``action`` of ``agent_selection`` (None for an agent that
        is done). Raises :class:`cassino.IllegalMoveError` for an illegal action."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        hand = self.hand_env
        if hand.state is None:
            raise IllegalMoveError("no hand is dealt: call reset() first")
        if self.terminate_illegal:
            if not (isinstance(action, (int, np.integer)) and 0 <= action < self._n):
                raise AssertionError(f"action {action!r} is not in action space "
                                     f"Discrete({self._n})")
            try:
                hand.apply(int(action))
            except IllegalMoveError:
                self._end_illegally(agent)
                return
        else:
            if action is None:
                raise IllegalMoveError(f"{agent} is to move: None is the action of an agent "
                                       "that is done")
            hand.apply(action_id(action))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if hand.is_over:
            returns = hand.returns()
            self.rewards = {a: returns[self._seats[a]] for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[hand.to_move]
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _end_illegally(self, agent: str) -> None:
        """End the hand after ``agent``'s illegal action: ``illegal_reward`` to it, 0 to
        the others, and PettingZoo's warning."""
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self.illegal_reward
        self._accumulate_rewards()
        self._deads_step_first()

    def render(self) -> str | None:
        """The table as text (``ansi``), or printed (``human``)."""
        return render(self.render_mode, self.hand_env)

    def close(self) -> None:
        """Nothing to release."""
