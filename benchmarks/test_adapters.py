"""Random playouts through the adapters, in steps per second, beside the core's own figure.

A step is one call that advances a game: a sub-action (or a chance outcome, in OpenSpiel)
for the adapters, a whole move for the core. Each loop picks uniformly among the legal
actions with the same cheap generator, so the figures differ by the adapter's own work.
Issue targets: OpenSpiel at least 50,000 steps/s, PettingZoo at least 30,000 (observations
included, as ``env.last()`` returns them).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest

import cassino
from _bench import EXTRA
from cassino.env import HandEnv

SYSTEM = "cassino_standard"
HANDS = 200


def _rate(run: Callable[[random.Random], int]) -> float:
    """Best of three: steps a second of ``run`` (which returns its step count)."""
    best = 0.0
    for k in range(3):
        rng = random.Random(k)
        t0 = time.perf_counter()
        steps = run(rng)
        best = max(best, steps / (time.perf_counter() - t0))
    return best


def core_moves(rng: random.Random) -> int:
    steps = 0
    rules = cassino.rules(SYSTEM)
    for _h in range(HANDS):
        deck = list(range(52))
        rng.shuffle(deck)
        state = cassino.State.new_hand(rules, 0, deck)
        while not state.is_over:
            moves = state.legal_moves()
            state.push(moves[int(rng.random() * len(moves))])
            steps += 1
    return steps


def handenv_steps(rng: random.Random, system: str = SYSTEM, hands: int = HANDS) -> int:
    steps = 0
    rules = cassino.rules(system)
    for _h in range(hands):
        env = HandEnv(rules)
        deck = list(env.cards)
        rng.shuffle(deck)
        env.deal(deck)
        while not env.is_over:
            acts = env.legal_actions()
            env.apply(acts[int(rng.random() * len(acts))])
            steps += 1
    return steps


def openspiel_steps(rng: random.Random) -> int:
    import pyspiel

    import cassino.openspiel  # noqa: F401

    game = pyspiel.load_game("python_cassino", {"system": SYSTEM})
    steps = 0
    for _h in range(HANDS):
        state = game.new_initial_state()
        while not state.is_terminal():
            acts = state.legal_actions()
            state.apply_action(acts[int(rng.random() * len(acts))])
            steps += 1
    return steps


def pettingzoo_steps(rng: random.Random, raw: bool = False) -> int:
    from cassino.pettingzoo import env as make_env
    from cassino.pettingzoo import raw_env

    env = raw_env(system=SYSTEM) if raw else make_env(system=SYSTEM)
    steps = 0
    for h in range(HANDS):
        env.reset(seed=h)
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                action = None
            else:
                acts = obs["action_mask"].nonzero()[0]
                action = int(acts[int(rng.random() * len(acts))])
            env.step(action)
            steps += 1
    return steps


ADAPTERS: dict[str, tuple[Callable[[random.Random], int], str | None, float | None]] = {
    "core (whole moves, Python loop)": (core_moves, None, None),
    "HandEnv (sub-actions)": (handenv_steps, None, None),
    # compound turns made step by step (cassino.actions.TurnBuilder over the State's steps)
    "HandEnv african_cassino_3p (compound turns, sub-actions)": (
        lambda rng: handenv_steps(rng, "african_cassino_3p", 10), None, None),
    "HandEnv italian_house_cassino (compound turns, sub-actions)": (
        lambda rng: handenv_steps(rng, "italian_house_cassino", 10), None, None),
    "OpenSpiel python_cassino": (openspiel_steps, "pyspiel", 50_000.0),
    "PettingZoo env() (wrapped, with observations)": (pettingzoo_steps, "pettingzoo", 30_000.0),
    "PettingZoo raw_env (with observations)": (
        lambda rng: pettingzoo_steps(rng, raw=True), "pettingzoo", 30_000.0),
}


@pytest.mark.parametrize("name", list(ADAPTERS))
def test_adapter_steps_per_second(benchmark: Any, name: str) -> None:
    run, module, target = ADAPTERS[name]
    if module is not None:
        pytest.importorskip(module)
    rates: list[float] = []
    benchmark.pedantic(lambda: rates.append(_rate(run)), rounds=1, warmup_rounds=0)
    rate = max(rates)
    benchmark.extra_info["steps_per_second"] = round(rate)
    met = "" if target is None else (" (target met)" if rate >= target else
                                     f" (target {target:,.0f}: not met)")
    EXTRA[f"{name}, steps/s"] = (rate, f"{rate:,.0f} steps/s{met}")
