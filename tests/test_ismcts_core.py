"""The ismcts search in C (``State._ismcts``) against the Python search it replaces: the same
move, the same root visit counts and the same Rng draws, iteration for iteration, on random
positions of every implemented system, with each judgement (``eval`` and the random and
greedy rollouts); its bad input; and the fall back to the reference."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cassino
from cassino import Rng, rules
from cassino.greedy import card_weights
from cassino.ismcts import EVAL_SCALE, ISMCTSPlayer
from cassino.players import PlayerError, View, make_player
from cassino.rules import implemented_systems

pytestmark = pytest.mark.skipif(
    not hasattr(cassino.State, "_ismcts"), reason="the reference has no C search"
)


def _positions(system: str, hands: int, share: float, seed: int) -> list[cassino.State]:
    """Positions with a choice, from random hands of ``system``."""
    rnd = random.Random(seed)
    out = []
    for h in range(hands):
        state = cassino.State.deal(rules(system), h % 2, seed + h)
        while not state.is_over:
            moves = state.legal_moves()
            if len(moves) > 1 and rnd.random() < share:
                out.append(state.clone())
            state.push(moves[rnd.randrange(len(moves))])
    return out


def _same_search(state: cassino.State, seed: int, **options: Any) -> ISMCTSPlayer:
    """The C and Python searches from ``state`` with one seed and ``options``: the same
    move, root visit counts and Rng state after (the same determinizations). The C player."""
    view = View.of(state, state.to_move)
    moves = state.legal_moves()
    core = ISMCTSPlayer(seed=seed, exact=False, **options)
    ref = ISMCTSPlayer(seed=seed, exact=False, core=False, **options)
    assert core.choose(view, moves) == ref.choose(view, moves)
    assert core.last_visits == ref.last_visits
    assert sum(core.last_visits) == core.last_iterations == options["iterations"]
    assert core._rng.state == ref._rng.state
    return core


@pytest.mark.parametrize("policy", ["eval", "random", "greedy", "expert"])
@pytest.mark.parametrize("system", implemented_systems())
def test_the_c_search_is_the_python_search(system: str, policy: str) -> None:
    checked = 0
    for k, state in enumerate(_positions(system, 2, 0.25 if policy == "eval" else 0.1, 11)):
        _same_search(state, k, iterations=40, policy=policy)
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("system", implemented_systems())
def test_the_tree_opponent_model_is_the_python_one(system: str) -> None:
    # (the default models the opponents as greedy: test_the_c_search_is_the_python_search)
    checked = 0
    for k, state in enumerate(_positions(system, 2, 0.2, 17)):
        _same_search(state, k, iterations=60, opponent="tree")
        checked += 1
    assert checked >= 3


def test_the_race_weights_are_the_python_ones() -> None:
    # race=true: the expert's weights, with a majority dropped once won, in both searches
    from cassino.expert import ExpertPlayer

    static = card_weights(rules("cassino_standard"))
    won = [
        s for s in _positions("cassino_standard", 30, 0.5, 23)
        if ExpertPlayer()._weights(View.of(s, s.to_move)) != static
    ]
    assert len(won) >= 3
    for k, state in enumerate(won[:6]):
        assert _same_search(state, k, iterations=60, race=True)._ws != static


def test_greedy_weights_are_checked_and_used() -> None:
    base, _ = _base()
    scores = base.greedy_scores()
    with pytest.raises(ValueError, match="one weight per card id"):
        base._set_greedy_weights([1.0] * 5)
    assert base.greedy_scores() == scores
    base._set_greedy_weights([0.0] * 52)
    assert base.greedy_scores() != scores


def test_a_longer_search_agrees_too() -> None:
    # enough iterations for deep trees, UCB ties and nodes legal in some worlds only
    for k, state in enumerate(_positions("cassino_standard", 2, 0.15, 3)[:8]):
        _same_search(state, k, iterations=400)


def test_a_time_budget_runs_in_c() -> None:
    state = cassino.new_hand(seed=6)
    bot = make_player("ismcts:ms=5", seed=1)
    move = bot.choose(View.of(state, state.to_move), state.legal_moves())
    assert move in state.legal_moves()
    assert bot.last_iterations >= 1 and sum(bot.last_visits) == bot.last_iterations


def _base(seed: int = 4) -> tuple[cassino.State, View]:
    state = cassino.new_hand(seed=seed)
    view = View.of(state, state.to_move)
    return view.sample_world(Rng(0)), view


def test_bad_input_is_refused_and_leaves_the_state() -> None:
    base, view = _base()
    before = base.to_position()
    unseen = view.unseen.mask
    with pytest.raises(ValueError, match="not the seat to move"):
        base._ismcts(1 - view.seat, unseen, 10, None, 0.7, EVAL_SCALE, 1)
    with pytest.raises(ValueError, match="not the seat to move"):
        base._ismcts(9, unseen, 10, None, 0.7, EVAL_SCALE, 1)
    with pytest.raises(ValueError, match="do not fill"):
        base._ismcts(view.seat, unseen & (unseen - 1), 10, None, 0.7, EVAL_SCALE, 1)
    for budget in (0, -3, None):
        with pytest.raises(ValueError, match="budget"):
            base._ismcts(view.seat, unseen, budget, None, 0.7, EVAL_SCALE, 1)
    with pytest.raises(ValueError, match="policy"):
        base._ismcts(view.seat, unseen, 10, None, 0.7, EVAL_SCALE, 1, "clever")
    got = base._ismcts(view.seat, unseen, 30, None, 0.7, EVAL_SCALE, 1)
    assert got is not None and sum(got[0]) == got[1] == 30
    assert base.to_position() == before and base.ply == 0


def test_past_the_c_group_limit_the_reference_searches() -> None:
    base, view = _base(7)
    base._greedy_group_limit(0)            # every greedy score with a sum group: the reference
    assert base._ismcts(view.seat, view.unseen.mask, 200, None, 0.7, EVAL_SCALE, 1) is None
    # the player then runs the Python search, with the same result as core=False
    state = cassino.new_hand(seed=7)
    view = View.of(state, state.to_move)
    a = ISMCTSPlayer(seed=2, iterations=25, exact=False)
    b = ISMCTSPlayer(seed=2, iterations=25, exact=False, core=False)
    assert a.choose(view, state.legal_moves()) == b.choose(view, state.legal_moves())


def test_core_must_be_a_bool() -> None:
    with pytest.raises(PlayerError, match="core"):
        make_player("ismcts:core=2")
    assert make_player("ismcts:core=false").core is False
