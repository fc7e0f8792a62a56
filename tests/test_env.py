"""cassino.env.HandEnv's observation tensor: the core writes it (``State._observe``) float
for float as the layout's Python definition (``HandEnv._base_reference``) does."""

from __future__ import annotations

import random

import numpy as np
import pytest

import cassino
from cassino.env import HandEnv, observation_size
from cassino.errors import IllegalMoveError

SYSTEMS = cassino.implemented_systems()


def core_state(env: HandEnv) -> None:
    if not hasattr(env.state, "_observe"):
        pytest.skip("the reference's states have no core observation (CASSINO_PURE_PYTHON)")


@pytest.mark.parametrize("system", SYSTEMS)
def test_core_observation_is_the_reference_layout(system: str) -> None:
    rules = cassino.rules(system)
    rng = random.Random(system)
    plies = 0
    for hand in range(2):
        env = HandEnv(rules, dealer=hand % rules.players)
        deck = list(env.cards)
        rng.shuffle(deck)
        env.deal(deck)
        core_state(env)
        while True:
            for seat in range(rules.players):
                env._obs_seats = {}
                core = env._base(seat).copy()
                ref = env._base_reference(seat)
                assert core.dtype == ref.dtype == np.float32
                bad = np.flatnonzero(core != ref)
                assert not bad.size, (system, env.state.ply, seat, bad[:8])
            if env.is_over:
                break
            plies += 1
            acts = env.legal_actions()
            env.apply(acts[rng.randrange(len(acts))])
    # the hands went to their ends: the last check saw a finished hand (no seat to move)
    assert plies > 10 and env.to_move == -1


def test_core_observation_checks_its_arguments() -> None:
    env = HandEnv(cassino.rules("cassino_partnership"))
    env.deal(list(range(52)))
    core_state(env)
    out = np.zeros(observation_size(env.rules), dtype=np.float32)
    with pytest.raises(IllegalMoveError, match="no seat 4"):
        env.state._observe(4, 0, out)
    with pytest.raises(ValueError, match=f"{out.size} entries, not {out.size - 1}"):
        env.state._observe(0, 0, out[:-1].copy())
    with pytest.raises(ValueError):   # a float64 buffer is refused, not misread
        env.state._observe(0, 0, np.zeros(out.size))
    assert not out.any()
    env.state._observe(1, env.to_move, out)
    assert out[:52].sum() == bin(env.state.hands[1]).count("1") == 4
    assert np.array_equal(out, env._base_reference(1))


def test_observation_marks_the_move_being_built() -> None:
    rules = cassino.rules("cassino_standard")
    env = HandEnv(rules)
    env.deal(list(range(52)))
    seat = env.to_move
    n, planes = rules.num_ids, 6 + rules.num_teams
    before = env.observation_tensor(seat)
    assert not before[planes * n : (planes + 3) * n].any()
    first = env.legal_actions()[0]
    env.apply(first)
    after = env.observation_tensor(seat)
    assert after[planes * n + first] == 1
    other = env.observation_tensor((seat + 1) % rules.players)
    assert not other[planes * n : (planes + 3) * n].any()   # the others do not see it
    unchanged = np.ones(after.size, dtype=bool)
    unchanged[planes * n + first] = False
    assert np.array_equal(after[unchanged], before[unchanged])
