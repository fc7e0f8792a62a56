"""The OpenSpiel game python_cassino (cassino.openspiel): conformance, parameters, search."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import cassino  # noqa: E402
import cassino.openspiel  # noqa: E402  (registers the game)
from cassino.actions import ActionSpace  # noqa: E402
from cassino.env import observation_size  # noqa: E402
from cassino.rules import compound_systems  # noqa: E402

# every system, the compound ones (status reference, played by CompoundState) too
SYSTEMS = cassino.implemented_systems() + compound_systems()


def dealt(game, seed=0):
    """A state just after the deal, the deck shuffled by ``seed``."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=False)
        assert abs(sum(probs) - 1) < 1e-9 and len(set(probs)) == 1
        state.apply_action(int(rng.choice(actions)))
    return state


@pytest.mark.slow
@pytest.mark.parametrize("system", SYSTEMS)
def test_random_sim_test_every_system(system):
    game = pyspiel.load_game("python_cassino", {"system": system})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_random_sim_test_options_and_players():
    for params in ({"system": "cassino_three_four", "players": 4},
                   {"system": "cassino_standard", "options": "sweeps:true target:11"},
                   {"system": "cassino_pluck", "returns": "points", "dealer": 1}):
        game = pyspiel.load_game("python_cassino", params)
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    assert pyspiel.load_game("python_cassino", {"system": "cassino_three_four",
                                                "players": 4}).num_players() == 4
    assert pyspiel.load_game("python_cassino", {"system": "cassino_standard",
                                                "options": "sweeps=true"}).rules.sweeps


def test_game_info():
    game = pyspiel.load_game("python_cassino", {"system": "cassino_royal"})
    rules = cassino.rules("cassino_royal")
    assert game.num_distinct_actions() == ActionSpace(rules).num_actions == 175
    assert game.max_chance_outcomes() == 52 and game.num_players() == 2
    assert game.observation_tensor_size() == observation_size(rules)
    assert game.information_state_tensor_size() == observation_size(rules)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.max_utility() == -game.min_utility() == 11
    pts = pyspiel.load_game("python_cassino", {"returns": "points"})
    assert pts.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert pts.min_utility() == 0
    mulle = pyspiel.load_game("python_cassino", {"system": "mulle"})
    assert mulle.max_chance_outcomes() == 104 and mulle.num_distinct_actions() == 213


def test_bad_parameters_raise():
    for params, match in (({"system": "nope"}, "unknown system"),
                          ({"options": "bogus=1"}, "bogus"),
                          ({"returns": "wins"}, "returns"),
                          ({"system": "cassino_standard", "players": 7}, "players")):
        with pytest.raises(Exception, match=match):
            pyspiel.load_game("python_cassino", params)


def test_play_to_the_end_matches_the_core():
    """The moves the sub-actions make are the core's legal moves, and the returns are the
    hand's score."""
    game = pyspiel.load_game("python_cassino", {"system": "diloti"})
    state = dealt(game, 3)
    rng = np.random.RandomState(4)
    moves = 0
    while not state.is_terminal():
        core = state.env.state
        legal = core.legal_moves()
        player = state.current_player()
        assert player == core.to_move
        move = None
        while move is None:
            before = len(state.env.log)
            state.apply_action(int(rng.choice(state.legal_actions())))
            move = state.env.log[-1][1] if len(state.env.log) > before else None
        assert move in legal
        moves += 1
    pts = state.env.state.hand_totals()
    assert state.returns() == [pts[0] - pts[1], pts[1] - pts[0]]
    assert moves == len(state.env.state.history)


def test_observations_hide_other_hands():
    game = pyspiel.load_game("python_cassino")
    state = dealt(game, 1)
    hands = [state.env.state.hand(s) for s in range(2)]
    for seat in range(2):
        text = state.observation_string(seat)
        assert " ".join(hands[seat].codes()) in text
        assert " ".join(hands[1 - seat].codes()) not in text
        t = np.array(state.observation_tensor(seat))
        assert t[:52].sum() == len(hands[seat]) and t.shape == (game.observation_tensor_size(),)
    # the move being built shows to its maker only
    mover = state.current_player()
    before = [state.information_state_string(s) for s in range(2)]
    state.apply_action(state.legal_actions()[0])
    if state.current_player() == mover:   # mid-move
        assert "building" in state.information_state_string(mover)
        assert state.information_state_string(1 - mover) == before[1 - mover]


def test_information_state_keeps_the_history():
    game = pyspiel.load_game("python_cassino")
    state = dealt(game, 2)
    while len(state.env.log) < 3:
        state.apply_action(state.legal_actions()[0])
    text = state.information_state_string(0)
    for seat, move in state.env.log:
        assert f"{seat}:{move}" in text


def test_serialization_round_trip():
    game = pyspiel.load_game("python_cassino", {"system": "cassino_royal"})
    state = dealt(game, 5)
    for _ in range(7):
        state.apply_action(state.legal_actions()[-1])
    text = pyspiel.serialize_game_and_state(game, state)
    _game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state) and state2.history() == state.history()
    assert state2.legal_actions() == state.legal_actions()


def test_clone_is_independent():
    game = pyspiel.load_game("python_cassino")
    state = dealt(game, 6)
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert len(copy.history()) == len(state.history()) + 1
    assert copy.env.prefix != state.env.prefix or copy.env.log != state.env.log


def test_resample_from_infostate():
    game = pyspiel.load_game("python_cassino", {"system": "cassino_standard"})
    state = dealt(game, 7)
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    key = state.information_state_string(player)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    other_hands = set()
    for _ in range(20):
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == key
        assert world.legal_actions() == state.legal_actions()
        assert world.env.state.hand(player) == state.env.state.hand(player)
        other_hands.add(world.env.state.hand(1 - player).mask)
    assert len(other_hands) > 1   # the hidden hand really is dealt again


def test_openspiel_ismcts_plays_a_legal_hand():
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_cassino", {"system": "kontsina"})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(2))
    state = dealt(game, 8)
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
        else:
            action = state.legal_actions()[0]
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sum(state.returns()) == 0
