"""cassino.gym: Gymnasium's environment checker on every system, and the behaviour of the
single-agent environment (opponents' turns, rewards, illegal actions, seeding, registration)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

# Random playouts of every system: under CASSINO_PURE_PYTHON the reference's move generator
# takes minutes on the large tables random play reaches, so the pure run (-m "not slow")
# leaves this module to the core run, which runs it whole.
pytestmark = pytest.mark.slow

from gymnasium.utils.env_checker import check_env  # noqa: E402

import cassino  # noqa: E402
from cassino.actions import PASS, PLUCK  # noqa: E402
from cassino.env import HandEnv, utility_bound  # noqa: E402
from cassino.errors import IllegalMoveError, RulesError  # noqa: E402
from cassino.gym import ENV_ID, CassinoEnv, register  # noqa: E402
from cassino.moves import Move, MoveKind  # noqa: E402
from cassino.players import (  # noqa: E402
    PLAYERS,
    PlayerError,
    View,
    make_player,
    register_player,
)
from cassino.rules import compound_systems  # noqa: E402

# every system, the compound ones (status reference, played by CompoundState) too
SYSTEMS = cassino.implemented_systems() + compound_systems()


@pytest.mark.parametrize("system", SYSTEMS)
def test_check_env(system: str) -> None:
    # check_env steps with unmasked samples of the action space, nearly all illegal: with
    # illegal_action="raise" (the default) its first step would raise, so it checks the
    # "terminate" mode. Made through gymnasium.make, the environment has a spec, with which
    # check_env also makes it in each render mode.
    made = gymnasium.make(ENV_ID, system=system, opponents="random", illegal_action="terminate")
    check_env(made.unwrapped)


def masked(obs: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def play(env: CassinoEnv, seed: int) -> dict[str, Any]:
    """A random masked hand of the learner, checked step by step."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    hand = env.hand_env
    deck = list(hand.deck)
    rewards: list[float] = []
    steps = 0
    terminated = False
    while not terminated:
        assert hand.to_move == env.seat
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        assert np.flatnonzero(obs["action_mask"]).tolist() == hand.legal_actions()
        assert np.array_equal(obs["observation"], hand.observation_tensor(env.seat))
        assert env.observation_space.contains(obs)
        obs, reward, terminated, truncated, info = env.step(masked(obs, rng))
        assert not truncated
        rewards.append(reward)
        steps += 1
    assert hand.is_over and not obs["action_mask"].any() and not info["action_mask"].any()
    assert all(r == 0 for r in rewards[:-1])
    assert rewards[-1] == hand.returns()[env.seat]
    return {"deck": deck, "reward": rewards[-1], "steps": steps,
            "moves": list(zip(hand.state.movers, hand.state.history, strict=True))}


class Recorder:
    """Greedy, recording every view it is asked to choose from."""

    name = "recorder"
    calls: ClassVar[list[tuple[int, int, Move]]] = []   # (view's seat, seat to move, move)

    def __init__(self, seed: int = 0) -> None:
        self.inner = make_player("greedy", seed=seed)

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        move = self.inner.choose(view, moves)
        Recorder.calls.append((view.seat, view.to_move, move))
        return move


@pytest.fixture
def recorder() -> Iterator[type[Recorder]]:
    Recorder.calls = []
    register_player("test-gym-recorder", Recorder)
    yield Recorder
    del PLAYERS["test-gym-recorder"]


@pytest.mark.parametrize(("system", "seat"), [
    ("cassino_standard", 0), ("cassino_standard", 1), ("cassino_three_four", 1),
    ("cassino_partnership", 2),
])
def test_the_opponents_move_and_only_the_learner_chooses_its_moves(
    recorder: type[Recorder], system: str, seat: int
) -> None:
    env = CassinoEnv(system, opponents="test-gym-recorder", seat=seat)
    out = play(env, seed=5)
    players = env.rules.players
    chosen = [(s, move) for s, to_move, move in recorder.calls]
    assert all(s == to_move for s, to_move, _ in recorder.calls)
    # every move of another seat is its player's choice, in order; none of the learner's is
    assert [(s, m) for s, m in out["moves"] if s != seat] == chosen
    assert {s for s, _ in chosen} == set(range(players)) - {seat}
    assert len([1 for s, _ in out["moves"] if s == seat]) == len(out["moves"]) // players


def test_greedy_opponents_play_a_whole_hand() -> None:
    env = CassinoEnv("cassino_standard", opponents="greedy")
    out = play(env, seed=2)
    seats = [s for s, _ in out["moves"]]
    assert seats.count(1) == seats.count(0) == 24
    assert out["steps"] > 24   # the learner's moves take several sub-actions each
    # the moves replay from the deck in a fresh state to the same end
    state = cassino.State.new_hand(env.rules, 0, out["deck"])
    for seat, move in out["moves"]:
        assert state.to_move == seat and move in state.legal_moves()
        state.push(move)
    assert state.is_over and list(state.hand_totals()) == env.hand_env.team_points()


def test_reward_is_the_learners_return() -> None:
    margin = play(CassinoEnv("cassino_standard", opponents="random"), seed=8)
    points = play(CassinoEnv("cassino_standard", opponents="random", returns="points"), seed=8)
    assert margin["deck"] == points["deck"] and margin["moves"] == points["moves"]
    hand = HandEnv(cassino.rules("cassino_standard"))
    hand.deal(margin["deck"])
    for _, move in margin["moves"]:
        for a in hand.space.encode(move):
            hand.apply(a)
    assert margin["reward"] == hand.returns()[0] and points["reward"] == hand.team_points()[0]
    assert margin["reward"] == 2 * points["reward"] - sum(hand.team_points())


def test_partnership_seat_gets_its_teams_margin() -> None:
    env = CassinoEnv("cassino_partnership", opponents="greedy", seat=3)
    out = play(env, seed=1)
    pts = env.hand_env.team_points()
    team = env.rules.team_of(3)
    assert out["reward"] == pts[team] - pts[1 - team]


def test_pluck_and_pass_are_the_learners_actions() -> None:
    env = CassinoEnv("cassino_pluck", opponents="greedy")
    obs, _ = env.reset(seed=4)
    space = env.hand_env.space
    pluck_or_pass = {space.finish + PLUCK, space.finish + PASS}
    seen: set[MoveKind] = set()
    terminated = False
    while not terminated:
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        # pluck before playing whenever a card can be plucked; then pass
        takes = [a for a in legal if space.take <= a < space.take + space.num_ids]
        finish = [a for a in legal if a in pluck_or_pass]
        if finish:
            action = finish[0]
        elif takes and not env.hand_env.prefix:
            action = takes[0]
        else:
            action = legal[0]
        before = len(env.hand_env.state.history)
        obs, _, terminated, _, _ = env.step(action)
        history = env.hand_env.state.history
        movers = env.hand_env.state.movers
        seen.update(m.kind for s, m in zip(movers[before:], history[before:], strict=True)
                    if s == 0)
    assert {MoveKind.PASS, MoveKind.PLUCK} <= seen


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = CassinoEnv("cassino_standard", opponents="random")
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    for action in (illegal, -1, 999, None, 1.5):
        with pytest.raises(IllegalMoveError):
            env.step(action)  # type: ignore[arg-type]
    again = env._observation()
    assert np.array_equal(obs["observation"], again["observation"])
    assert np.array_equal(obs["action_mask"], again["action_mask"])
    env.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))   # NumPy ints are actions


def test_terminate_mode_ends_the_episode_with_the_illegal_reward() -> None:
    env = CassinoEnv("cassino_standard", opponents="random", illegal_action="terminate")
    obs, _ = env.reset(seed=3)
    obs, reward, terminated, truncated, info = env.step(
        int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert terminated and not truncated
    assert reward == -utility_bound(env.rules) < 0
    assert not obs["action_mask"].any() and not info["action_mask"].any()
    with pytest.raises(IllegalMoveError, match="over"):
        env.step(0)
    env.reset(seed=3)
    assert env.action_masks().any()
    chosen = CassinoEnv("kontsina", opponents="random", illegal_action="terminate",
                        illegal_reward=-1)
    obs, _ = chosen.reset(seed=0)
    assert chosen.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))[1] == -1.0


def test_step_before_reset_and_after_the_end() -> None:
    env = CassinoEnv("kontsina", opponents="random")
    with pytest.raises(IllegalMoveError, match="reset"):
        env.step(0)
    play(env, seed=0)
    with pytest.raises(IllegalMoveError, match="over"):
        env.step(0)


def test_same_seed_same_episode() -> None:
    one = play(CassinoEnv("cassino_three_four", opponents="random"), seed=6)
    env = CassinoEnv("cassino_three_four", opponents="random")
    two = play(env, seed=6)
    assert one == two
    assert play(env, seed=7)["deck"] != one["deck"]
    # unseeded resets go on with the generator: new deals, the same after the same seed
    env.reset(seed=6)
    decks = [list(env.hand_env.deck)]
    for _ in range(2):
        env.reset()
        decks.append(list(env.hand_env.deck))
    assert decks[0] == one["deck"] and len({tuple(d) for d in decks}) == 3
    other = CassinoEnv("cassino_three_four", opponents="random")
    other.reset(seed=6)
    other.reset()
    assert list(other.hand_env.deck) == decks[1]


def test_random_opponents_are_reseeded_from_the_seed() -> None:
    env = CassinoEnv("cassino_standard", opponents="random")
    env.reset(seed=1)
    first = list(env.hand_env.state.history)
    env.reset(seed=1)
    assert list(env.hand_env.state.history) == first
    # the dealer is seat 0: the opponent has already made the first move
    assert len(first) == 1 and env.hand_env.state.movers[0] == 1


def test_registration_and_make() -> None:
    register()   # again: no duplicate, no warning
    env = gymnasium.make(ENV_ID, system="kontsina", opponents=["random"], seat=1)
    assert isinstance(env.unwrapped, CassinoEnv) and env.unwrapped.seat == 1
    obs, _ = env.reset(seed=2)
    assert env.observation_space["observation"].shape == (583,) and env.observation_space.contains(obs)
    prefixed = gymnasium.make("cassino.gym:" + ENV_ID, system="diloti", render_mode="ansi")
    prefixed.reset(seed=0)
    assert prefixed.render().startswith("diloti; to move 0")


def test_spaces() -> None:
    for system, n in [("cassino_standard", 123), ("cassino_royal", 175), ("mulle", 213)]:
        env = CassinoEnv(system, opponents="random")
        assert env.action_space == gymnasium.spaces.Discrete(n)
        space = env.observation_space
        assert space["action_mask"] == gymnasium.spaces.Box(0, 1, (n,), np.int8)
        assert space["observation"].dtype == np.float32
    five = CassinoEnv("cassino_five_player", opponents="random").observation_space["observation"]
    assert isinstance(five, gymnasium.spaces.Box)
    assert (five.high > 1).all()   # hand sizes of 5 over a hand size of 4


def test_render(capsys: pytest.CaptureFixture[str]) -> None:
    env = CassinoEnv("cassino_standard", opponents="random", render_mode="human")
    env.reset(seed=1)
    assert env.render() is None
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == out[-2] == str(env.hand_env)
    with pytest.warns(UserWarning, match="render_mode"):
        assert CassinoEnv("kontsina", render_mode=None).render() is None


def test_bad_arguments() -> None:
    with pytest.raises(RulesError, match="seat"):
        CassinoEnv("cassino_standard", seat=2)
    with pytest.raises(PlayerError, match="2 opponents, not 1"):
        CassinoEnv("cassino_three_four", opponents=["greedy"])
    with pytest.raises(PlayerError, match="unknown player"):
        CassinoEnv("cassino_standard", opponents="grandmaster")
    with pytest.raises(PlayerError):
        CassinoEnv("cassino_standard", opponents=3)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="illegal_action"):
        CassinoEnv(illegal_action="ignore")
    with pytest.raises(RulesError, match="render_mode"):
        CassinoEnv(render_mode="rgb_array")
    with pytest.raises(RulesError, match="returns"):
        CassinoEnv(returns="wins")
    with pytest.raises(RulesError):
        CassinoEnv(cassino.rules("cassino_standard"), options={"sweeps": True})
    assert CassinoEnv(cassino.rules("kontsina")).rules.system == "kontsina"
    assert CassinoEnv(options="sweeps=true").rules.sweeps
