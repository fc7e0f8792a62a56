"""cassino.pettingzoo: PettingZoo's own conformance tests on every system, and the behaviour
of the AEC environment (turns, masks, rewards, illegal actions, seeding)."""

from __future__ import annotations

import itertools
import pickle
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.env_logger import EnvLogger

import cassino
from cassino.env import HandEnv, utility_bound
from cassino.errors import CassinoError, IllegalMoveError, RulesError
from cassino.moves import MoveKind
from cassino.pettingzoo import env, raw_env
from cassino.rules import compound_systems

# every system, the compound ones (status reference, played by CompoundState) too
SYSTEMS = cassino.implemented_systems() + compound_systems()

# The longest hands (Mulle) take about 260 sub-actions: 300 cycles of every agent play a
# whole hand to its end, where the loops of api_test and seed_test stop.
CYCLES = 300

# Expected of any environment outside PettingZoo's own lists, whose dict observations and
# Dict observation spaces it knows by name.
pytestmark = [
    # random playouts of every system: under CASSINO_PURE_PYTHON the reference's move
    # generator takes minutes on the large tables random play reaches, so the pure run
    # (-m "not slow") leaves this module to the core run, which runs it whole
    pytest.mark.slow,
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Action mask numpy array is all zeros"),
]

# max_cycles_test does not apply: it checks the `max_cycles` argument of environments that
# truncate after that many cycles (MPE, Butterfly); a classic game like this one ends with
# its hand and has no such argument.


@pytest.mark.parametrize("system", SYSTEMS)
def test_api_test(system: str) -> None:
    api_test(env(system=system), num_cycles=CYCLES)


@pytest.mark.parametrize("system", SYSTEMS)
def test_seed_test(system: str) -> None:
    seed_test(lambda: env(system=system), num_cycles=CYCLES)


def play(system: str, seed: int, **kwargs: Any) -> dict[str, Any]:
    """A random masked playout of ``env(system)``, checking every step against the raw
    environment's HandEnv and against an independent HandEnv replaying the same deck and
    actions."""
    game = env(system=system, **kwargs)
    game.reset(seed=seed)
    raw = game.unwrapped
    replay = HandEnv(raw.rules, 0, kwargs.get("returns", "margin"))
    replay.deal(list(raw.hand_env.deck))
    rng = np.random.default_rng(seed)
    final: dict[str, float] = {}
    top = 0.0   # the largest entry of any observation
    turns: list[tuple[str, bool]] = []   # (agent, whether its step completed a move)
    kinds: list[tuple[str, MoveKind, str]] = []   # (mover, kind, agent to move next)
    for agent in game.agent_iter():
        obs, reward, termination, truncation, _ = game.last()
        assert not truncation
        if termination:
            final[agent] = reward
            game.step(None)
            continue
        seat = int(agent.split("_")[1])
        assert seat == replay.to_move
        assert reward == 0
        assert game.observation_space(agent).contains(obs)
        top = max(top, float(obs["observation"].max()))
        mask = obs["action_mask"]
        assert mask.dtype == np.int8
        assert np.flatnonzero(mask).tolist() == replay.legal_actions()
        for other in raw.agents:
            if other != agent:
                assert not game.observe(other)["action_mask"].any()
            assert np.array_equal(game.observe(other)["observation"],
                                  replay.observation_tensor(int(other.split("_")[1])))
        action = int(rng.choice(np.flatnonzero(mask)))
        move = replay.apply(action)
        game.step(action)
        turns.append((agent, move is not None))
        if move is not None and not replay.is_over:
            kinds.append((agent, move.kind, game.agent_selection))
        if not replay.is_over:
            assert game.agent_selection == f"player_{replay.to_move}"
    assert replay.is_over and not game.agents
    return {"final": final, "returns": replay.returns(), "turns": turns, "kinds": kinds,
            "top": top,
            "deck": list(raw.hand_env.deck), "rules": raw.rules, "replay": replay}


@pytest.mark.parametrize("system", ["cassino_standard", "cassino_royal", "diloti", "mulle"])
def test_random_playout_ends_with_the_handenv_returns(system: str) -> None:
    out = play(system, seed=11)
    players = out["rules"].players
    assert out["final"] == {f"player_{s}": out["returns"][s] for s in range(players)}
    assert sum(out["final"].values()) == pytest.approx(0.0)
    assert any(out["final"].values()), "a hand with no points at all"


def test_points_returns_are_each_teams_points() -> None:
    out = play("cassino_standard", seed=4, returns="points")
    assert [out["final"]["player_0"], out["final"]["player_1"]] == \
        [float(p) for p in out["replay"].team_points()]
    assert min(out["final"].values()) >= 0 and sum(out["final"].values()) > 0


def test_the_agent_changes_only_when_a_move_completes() -> None:
    out = play("cassino_standard", seed=3)
    turns = out["turns"]
    changes = 0
    for (agent, completed), (next_agent, _) in itertools.pairwise(turns):
        if next_agent != agent:
            changes += 1
            assert completed, f"{agent} lost the turn in the middle of its move"
    assert changes >= 40   # 48 moves in a two-player hand
    assert sum(not completed for _, completed in turns) > 0   # moves of several sub-actions


def test_partnership_four_agents_partners_share_the_reward() -> None:
    out = play("cassino_partnership", seed=5)
    rules = out["rules"]
    assert rules.players == 4 and rules.num_teams == 2
    final = out["final"]
    assert {a for a, _ in out["turns"]} == {f"player_{s}" for s in range(4)}
    for s in range(4):
        partner = next(o for o in range(4) if o != s and rules.team_of(o) == rules.team_of(s))
        assert final[f"player_{s}"] == final[f"player_{partner}"]
    assert sum(final.values()) == pytest.approx(0.0) and any(final.values())


def test_pluck_and_pass_moves_and_the_turn_around_them() -> None:
    # A pluck before the play keeps the turn for the card move; after the play the same
    # agent chooses a pluck or pass, which ends its turn.
    out = play("cassino_pluck", seed=7)
    kinds = out["kinds"]
    extra = (MoveKind.PLUCK, MoveKind.PASS)
    plucks = [i for i, (_, kind, _) in enumerate(kinds) if kind == MoveKind.PLUCK]
    passes = [i for i, (_, kind, _) in enumerate(kinds) if kind == MoveKind.PASS]
    assert plucks and passes
    before_play = 0
    for i in plucks + passes:
        mover, kind, after = kinds[i]
        if kind == MoveKind.PLUCK and after == mover:
            before_play += 1
            assert kinds[i + 1][0] == mover and kinds[i + 1][1] not in extra
        else:
            assert after != mover
            assert kinds[i - 1][0] == kinds[i - 1][2] == mover
            assert kinds[i - 1][1] not in extra
    assert before_play > 0
    assert sum(out["final"].values()) == pytest.approx(0.0)


def first_illegal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask == 0)[0])


def test_an_illegal_action_ends_the_hand_through_the_wrapper() -> None:
    game = env(system="cassino_standard")
    game.reset(seed=1)
    agent = game.agent_selection
    obs, *_ = game.last()
    EnvLogger.mqueue.clear()
    game.step(first_illegal(obs["action_mask"]))
    assert any("Illegal move" in m for m in EnvLogger.mqueue)
    assert all(game.terminations.values())
    bound = utility_bound(cassino.rules("cassino_standard"))
    rewards = {}
    for a in game.agent_iter():
        _, reward, termination, _, _ = game.last()
        assert termination
        rewards[a] = reward
        game.step(None)
    assert rewards[agent] == -bound and bound > 0
    assert all(r == 0 for a, r in rewards.items() if a != agent)
    assert not game.agents


def test_illegal_reward_can_be_chosen() -> None:
    game = env(system="kontsina", illegal_reward=-1)
    game.reset(seed=1)
    agent = game.agent_selection
    game.step(first_illegal(game.last()[0]["action_mask"]))
    assert game.rewards[agent] == -1.0


def test_an_action_outside_the_space_fails_the_bounds_assertion() -> None:
    game = env(system="cassino_standard")
    game.reset(seed=1)
    with pytest.raises(AssertionError, match="action space"):
        game.step(123)


def test_the_raw_environment_raises_and_changes_nothing() -> None:
    game = raw_env(system="cassino_standard")
    game.reset(seed=1)
    agent = game.agent_selection
    before = game.observe(agent)
    with pytest.raises(IllegalMoveError):
        game.step(first_illegal(before["action_mask"]))
    with pytest.raises(IllegalMoveError):
        game.step(None)
    after = game.observe(agent)
    assert game.agent_selection == agent and not any(game.terminations.values())
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])
    game.step(np.int64(np.flatnonzero(after["action_mask"])[0]))   # NumPy ints are actions


def deck_after(game: Any, seed: int | None) -> list[int]:
    game.reset(seed=seed)
    return list(game.unwrapped.hand_env.deck)


def test_seeds_give_the_same_deals_and_the_generator_goes_on() -> None:
    a, b = raw_env(system="cassino_standard"), raw_env(system="cassino_standard")
    first = deck_after(a, 7)
    assert deck_after(b, 7) == first
    assert deck_after(a, 8) != first
    assert deck_after(a, 7) == first
    following = deck_after(a, None)
    assert following != first
    deck_after(b, None)
    assert deck_after(b, 7) == first and deck_after(b, None) == following
    unseeded = raw_env(system="cassino_standard")
    assert deck_after(unseeded, None) != deck_after(unseeded, None)


def test_same_seed_same_episode() -> None:
    one, two = play("cassino_three_four", seed=9), play("cassino_three_four", seed=9)
    assert one["deck"] == two["deck"] and one["turns"] == two["turns"]
    assert one["final"] == two["final"]
    assert play("cassino_three_four", seed=10)["deck"] != one["deck"]


def test_spaces_and_observations() -> None:
    game = raw_env(system="mulle")
    game.reset(seed=0)
    rules = game.rules
    n = HandEnv(rules).space.num_actions
    assert game.possible_agents == ["player_0", "player_1"]
    for agent in game.possible_agents:
        assert game.action_space(agent) is game.action_space(agent)
        assert game.action_space(agent).n == n == 213
        space = game.observation_space(agent)
        assert space is game.observation_space(agent)
        assert space["action_mask"].shape == (n,) and space["action_mask"].dtype == np.int8
        obs = game.observe(agent)
        assert obs["observation"].dtype == np.float32 and space.contains(obs)
    assert game.observation_space("player_0") is not game.observation_space("player_1")
    with pytest.raises(CassinoError, match="no agent 'player_2'"):
        game.observe("player_2")
    with pytest.raises(CassinoError):
        game.action_space("dealer")


def test_five_player_hand_sizes_above_one_stay_in_the_space() -> None:
    out = play("cassino_five_player", seed=1)
    assert out["rules"].players == 5
    assert out["top"] == 1.25   # a hand of 5 cards over a hand size of 4, in the space


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    game = raw_env(system="cassino_standard", render_mode="ansi")
    game.reset(seed=1)
    text = game.render()
    assert text == str(game.hand_env) and text.startswith("cassino_standard; to move")
    human = raw_env(system="cassino_standard", render_mode="human")
    human.reset(seed=1)
    assert human.render() is None
    assert capsys.readouterr().out.splitlines()[-1] == text
    human.step(int(np.flatnonzero(human.observe(human.agent_selection)["action_mask"])[0]))
    assert "cassino_standard; to move" in capsys.readouterr().out


def test_bad_arguments() -> None:
    with pytest.raises(RulesError, match="render_mode"):
        raw_env(render_mode="rgb_array")
    with pytest.raises(RulesError, match="returns"):
        raw_env(returns="winner")
    with pytest.raises(cassino.UnknownSystemError):
        raw_env(system="gin_rummy")
    with pytest.raises(RulesError):
        raw_env(options={"no_such_option": 1})
    with pytest.raises(RulesError):
        raw_env(options="sweeps")


def test_options_as_mapping_or_text() -> None:
    assert raw_env(options={"sweeps": True}).rules.sweeps
    assert raw_env(options="sweeps=true target=11").rules.sweeps
    assert not raw_env().rules.sweeps


def test_pickles_through_its_constructor_arguments() -> None:
    game = raw_env(system="kontsina", returns="points")
    copy = pickle.loads(pickle.dumps(game))
    assert copy.rules.system == "kontsina" and copy.hand_env.return_kind == "points"
    assert raw_env.metadata["name"] == "cassino_v0" and str(env()) == "cassino_v0"


def pettingzoo_stack(**kwargs: Any) -> Any:
    """raw_env in PettingZoo's own wrappers, as env() stood before it took over the first two."""
    from pettingzoo.utils import wrappers

    game = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(game, illegal_reward=-float(utility_bound(game.rules)))
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(wrapped))


def episode(game: Any, seed: int, illegal_at: int) -> list[Any]:
    """Every step's (agent, observation, mask, reward, done) of a random masked playout,
    with an illegal action at step ``illegal_at`` (if the hand gets there)."""
    rng = np.random.default_rng(seed)
    game.reset(seed=seed)
    out = []
    for i, agent in enumerate(game.agent_iter()):
        obs, reward, termination, truncation, _ = game.last()
        out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward,
                    termination or truncation))
        if termination or truncation:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(first_illegal(obs["action_mask"]) if i == illegal_at else
                         rng.choice(legal))
        game.step(action)
    return out


@pytest.mark.parametrize("system", ["cassino_standard", "cassino_pluck", "mulle"])
def test_env_ends_illegal_hands_as_pettingzoos_wrappers_do(system: str) -> None:
    for seed, illegal_at in [(1, 0), (2, 7), (3, 40), (4, 10**6)]:
        ours = episode(env(system=system), seed, illegal_at)
        theirs = episode(pettingzoo_stack(system=system), seed, illegal_at)
        assert ours == theirs
        assert len(ours) > (illegal_at if illegal_at < 10**6 else 20)


def test_env_enforces_the_order_of_calls() -> None:
    game = env()
    for name in ("agent_selection", "rewards", "terminations", "truncations", "infos", "agents"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(game, name)
    with pytest.raises(AttributeError, match="before reset"):
        game.last()
    game.reset(seed=3)
    assert game.num_agents == 2 and game.agents == ["player_0", "player_1"]
    assert game.last()[1:] == (0.0, False, False, {})
    iterator = iter(game.agent_iter())
    next(iterator)
    with pytest.raises(AssertionError, match="need to call step"):
        next(iterator)
    assert isinstance(game, __import__("pettingzoo").utils.wrappers.OrderEnforcingWrapper)


def test_terminate_illegal_raw_env_pickles_and_bounds() -> None:
    game = pickle.loads(pickle.dumps(raw_env(terminate_illegal=True, illegal_reward=-2)))
    assert game.terminate_illegal and game.illegal_reward == -2.0
    game.reset(seed=1)
    for bad in (None, -1, game.action_space(game.agent_selection).n, 1.5, "3"):
        with pytest.raises(AssertionError, match="not in action space"):
            game.step(bad)
    assert not any(game.terminations.values())
