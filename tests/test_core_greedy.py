"""The built-in players in the core (core/players.pxi) against the Python players.

``State.greedy_scores`` is ``GreedyPlayer.evaluate`` computed in C, ``State.play_hand``
plays a hand as ``RandomPlayer`` and ``GreedyPlayer`` would, RNG draw for RNG draw, and
``simulate`` plays games of built-in players through it with the same statistics.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest

import cassino
from cassino import Rng, greedy, rules
from cassino.expert import ExpertPlayer
from cassino.game import Game
from cassino.greedy import GreedyPlayer, card_weights
from cassino.players import RandomPlayer, View
from cassino.rules import implemented_systems
from conftest import make_state

core = pytest.importorskip("cassino._core")
needs_core = pytest.mark.skipif(cassino.IMPLEMENTATION != "core", reason="the core players")

SYSTEMS = implemented_systems()


def random_positions(system: str, seeds: range, **options: Any) -> Any:
    """States along seeded random hands of ``system``."""
    r = rules(system, **options)
    for seed in seeds:
        state = core.State.deal(r, seed % r.players, seed)
        rng = Rng(seed)
        while not state.is_over:
            yield state
            moves = state.legal_moves()
            state.push(moves[rng.below(len(moves))])


@needs_core
@pytest.mark.parametrize("system", SYSTEMS)
def test_core_greedy_scores_are_the_reference_scores(system: str) -> None:
    player = GreedyPlayer()
    checked = 0
    for state in random_positions(system, range(3)):
        moves = state.legal_moves()
        view = View.of(state, state.to_move)
        ref = [player.evaluate(view, m) for m in moves]
        got = state.greedy_scores()
        assert len(got) == len(moves)
        for m, a, b in zip(moves, ref, got, strict=True):
            assert b == pytest.approx(a, abs=1e-9), (system, str(m))
        checked += len(moves)
    assert checked > 100


# opt_esun (docs/rules.md §3.37): Esun piles are builds whose value is their total; the core
# greedy scores them as the reference does, with the AMB-75 options too
ESUN_SETUPS = [("elewenjewe_professional", {"esun": True}),
               ("elewenjewe_amateur", {"esun": True, "yoruba": True, "esun_penalty_card": "random",
                                       "esun_penalty": "unless_creator_took"})]


@needs_core
@pytest.mark.parametrize(("system", "options"), ESUN_SETUPS)
def test_core_greedy_scores_esun_as_the_reference(system: str, options: dict[str, Any]) -> None:
    player = GreedyPlayer()
    builds = 0
    for state in random_positions(system, range(3), **options):
        moves = state.legal_moves()
        view = View.of(state, state.to_move)
        ref = [player.evaluate(view, m) for m in moves]
        assert state.greedy_scores() == pytest.approx(ref, abs=1e-9)
        builds += sum(m.kind == cassino.MoveKind.BUILD for m in moves)
    assert builds > 10


def python_hand(state: Any, policies: list[str], seeds: list[int]) -> tuple[list[str], list[int]]:
    players: list[Any] = [
        GreedyPlayer(s) if p == "greedy" else RandomPlayer(s) if p == "random"
        else ExpertPlayer(s, worlds=0, nodes=0, infer=0)
        for p, s in zip(policies, seeds, strict=True)
    ]
    while not state.is_over:
        seat = state.to_move
        state.push(players[seat].choose(View.of(state, seat), state.legal_moves()))
    return [str(m) for m in state.history], [p._rng.state for p in players]


@needs_core
@pytest.mark.parametrize("system", SYSTEMS)
def test_play_hand_plays_as_the_python_players(system: str) -> None:
    r = rules(system)
    for seed in range(4):
        policies = ["greedy" if (s + seed) % 2 == 0 else "random" for s in range(r.players)]
        if seed == 3:
            policies = ["greedy"] * r.players
        seeds = [seed * 100 + s for s in range(r.players)]
        state = core.State.deal(r, seed % r.players, seed)
        played, states = state.play_hand(policies, seeds)
        moves, ref_states = python_hand(core.State.deal(r, seed % r.players, seed), policies, seeds)
        assert [str(m) for m in state.history] == moves
        assert played == len(moves) and states == ref_states
        assert state.is_over
        # every move was pushed: the hand takes back to its deal
        for _ in range(played):
            state.pop()
        assert state == core.State.deal(r, seed % r.players, seed)


@needs_core
@pytest.mark.parametrize("system", SYSTEMS)
def test_the_expert_policy_plays_as_the_expert_without_lookahead(system: str) -> None:
    # "expert": the greedy choice with the expert's weights, each majority's dropped once a
    # team has won it, recomputed move by move in C; beside greedy and random seats
    r = rules(system)
    mixes = [["expert"] * r.players, ["expert", "greedy"] * r.players,
             ["random", "expert"] * r.players]
    for seed, mix in enumerate(mixes * 2):
        policies = mix[: r.players]
        seeds = [seed * 100 + s for s in range(r.players)]
        state = core.State.deal(r, seed % r.players, seed)
        scores = state.greedy_scores()
        played, states = state.play_hand(policies, seeds)
        moves, ref_states = python_hand(core.State.deal(r, seed % r.players, seed), policies, seeds)
        assert [str(m) for m in state.history] == moves and states == ref_states
        for _ in range(played):
            state.pop()
        assert state.greedy_scores() == scores          # the state's weights are restored


@needs_core
def test_the_expert_policy_drops_a_won_majority() -> None:
    # the same hand with greedy seats and with expert seats parts once a majority is won
    r = rules("cassino_standard")
    parted = 0
    for seed in range(6):
        a = core.State.deal(r, 0, seed)
        b = core.State.deal(r, 0, seed)
        a.play_hand(["greedy", "greedy"], [seed, seed + 1])
        b.play_hand(["expert", "expert"], [seed, seed + 1])
        if [str(m) for m in a.history] != [str(m) for m in b.history]:
            k = next(i for i, (x, y) in enumerate(zip(a.history, b.history, strict=False))
                     if x != y)
            piles = b.clone()
            while piles.ply > k:
                piles.pop()
            # until then the weights were greedy's: a majority was won before the parting
            piles_then = piles.to_position().piles
            spades = [sum(1 for c in p if c % 4 == 0) for p in piles_then]
            assert max(len(p) for p in piles_then) > 26 or max(spades) > 6
            parted += 1
    assert parted >= 2


@needs_core
def test_custom_weights_survive_expert_seats() -> None:
    state = core.State.deal(rules("cassino_standard"), 1, 3)
    state._set_greedy_weights([0.5] * 52)
    scores = state.greedy_scores()
    played, _ = state.play_hand(["expert", "greedy"], [1, 2])
    for _ in range(played):
        state.pop()
    assert state.greedy_scores() == scores


@needs_core
@pytest.mark.parametrize("limit", [4096, 600, 300])
def test_scores_of_many_groups_are_the_reference_scores(limit: int) -> None:
    # 14 small loose cards and tens unseen: a ten's sum groups are 642 (nines: 484), so the
    # C packing keeps a memo, and past a lower limit the C greedy asks the reference
    table = "AS AH AD AC 2S 2H 2D 2C 3S 3H 3D 3C 4S 4H"
    state = make_state(["KS QS", "KH QH"], table, stock="10S 10H 10D 10C 9S 9H 9D 9C")
    view = View.of(state, state.to_move)
    ref = [GreedyPlayer().evaluate(view, m) for m in state.legal_moves()]
    assert state._greedy_group_limit(limit) == 4096
    assert state.greedy_scores() == pytest.approx(ref, abs=1e-9)


@needs_core
@pytest.mark.parametrize("system", ["cassino_standard", "cassino_royal", "kontsina", "mulle"])
def test_play_hand_hands_choices_past_the_group_limit_to_the_reference(system: str) -> None:
    # with the limit at 1 group, most greedy choices with a packing go through the
    # reference in the middle of play_hand's C loop; the hands are still the players'
    r = rules(system)
    for seed in range(3):
        policies = ["greedy"] * r.players if seed < 2 else ["expert"] * r.players
        seeds = [seed * 10 + s for s in range(r.players)]
        state = core.State.deal(r, seed % r.players, seed)
        state._greedy_group_limit(1)
        _, states = state.play_hand(policies, seeds)
        ref = python_hand(core.State.deal(r, seed % r.players, seed), policies, seeds)
        assert ([str(m) for m in state.history], states) == ref
    with pytest.raises(ValueError, match="group limit"):
        state._greedy_group_limit(10**6)


@needs_core
def test_greedy_constants_agree() -> None:
    assert core.GREEDY_CONSTANTS == {
        "BUILD_DISCOUNT": greedy.BUILD_DISCOUNT,
        "RISK_WEIGHT": greedy.RISK_WEIGHT,
        "CARD_WEIGHT": greedy.CARD_WEIGHT,
        "CLEAR_WIN": greedy.CLEAR_WIN,
        "_EPS": greedy._EPS,
        "DEFAULT_PENALTY": float(greedy.DEFAULT_PENALTY),
        "SPADE_WEIGHT": greedy.SPADE_WEIGHT,
    }


def weight(system: str, code: str, **options: Any) -> float:
    return card_weights(rules(system, **options))[cassino.parse_card(code)]


def test_card_weights_come_from_each_scoring_table() -> None:
    assert weight("cassino_standard", "10D") == pytest.approx(2.2)
    assert weight("cassino_standard", "2S") == pytest.approx(1.4)
    assert weight("cassino_standard", "7H") == pytest.approx(0.2)
    # Diloti: the aces score (ace_points), the 2S does not
    assert weight("diloti", "AH") > weight("diloti", "2S")
    # Kontsina: the 2C and the majority of clubs
    assert weight("kontsina", "2C") > weight("kontsina", "2H") > 0
    assert weight("kontsina", "7C") > weight("kontsina", "7H")
    # Spade Cassino: every spade scores, the JS twice
    assert weight("cassino_spade", "JS") > weight("cassino_spade", "9S") > weight(
        "cassino_spade", "9H"
    )
    # Mulle: a second copy weighs as the first
    assert weight("mulle", "10D'") == weight("mulle", "10D")
    assert len(card_weights(rules("mulle"))) == 104


BAD_PLAY_HAND = [
    (["greedy"], [1, 2], "one policy"),
    (["greedy", "clever"], [1, 2], "'clever'"),
    (["greedy", "random"], [1, -1], "RNG state"),
    (["greedy", "random"], [1, 2**64], "RNG state"),
    (["greedy", "random"], [1, True], "RNG state"),
]
"""Bad arguments of a two-player ``play_hand``, with what the error names."""


@needs_core
def test_play_hand_rejects_bad_input_and_keeps_the_state() -> None:
    state = core.State.deal(rules("cassino_standard"), 0, 1)
    before = state.to_position()
    for policies, seeds, match in BAD_PLAY_HAND:
        with pytest.raises(ValueError, match=match):
            state.play_hand(policies, seeds)
        assert state.to_position() == before and state.ply == 0


@needs_core
def test_core_shuffle_is_shuffled_deck() -> None:
    for seed in (0, 1, 2**63 + 5):
        for size in (40, 52, 104):
            rng = Rng(seed)
            deck = cassino.shuffled_deck(rng, size)
            assert core.State.shuffled_deck(seed, size) == (deck, rng.state)
    with pytest.raises(ValueError, match="deck size"):
        core.State.shuffled_deck(1, 0)


def test_game_play_hand_scores_the_hand_as_push_does() -> None:
    fast = Game(seed=4)
    slow = Game(seed=4)
    played, states = fast.play_hand(["greedy", "random"], [7, 8])
    players: list[Any] = [GreedyPlayer(7), RandomPlayer(8)]
    while slow.hands_played == 0:
        state = slow.state
        slow.push(players[state.to_move].choose(View.of(state, state.to_move), slow.legal_moves()))
    assert fast.log == slow.log and fast.scores == slow.scores
    assert states == [p._rng.state for p in players]
    assert played == sum(1 for rec in slow.log if rec["type"] == "move")


def test_game_play_hand_refuses_points_scored_during_a_hand() -> None:
    game = Game(seed=1, michigan=True)
    with pytest.raises(cassino.RulesError, match="move by move"):
        game.play_hand(["greedy", "random"], [1, 2])


@pytest.mark.parametrize(
    ("system", "players"),
    [
        ("cassino_standard", ["greedy", "random"]),
        ("diloti", ["random", "greedy"]),
        ("cassino_royal", ["greedy", "greedy"]),
        ("mulle", ["random", "greedy"]),
        ("cassino_three_four", ["greedy", "random", "greedy"]),
    ],
)
@needs_core
def test_simulate_with_builtin_players_equals_the_python_players(
    system: str, players: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    sm = importlib.import_module("cassino.simulate")  # (cassino.simulate is the function)
    fast = sm.simulate(system, players, games=12, seed=3, workers=1)
    slow = sm.simulate(system, players, games=12, seed=3, workers=1, core_players=False)
    assert fast.to_dict() == slow.to_dict()
    # the fast path was taken: without Game.play_hand the run is the Python one
    monkeypatch.setattr(sm.Game, "play_hand", None)
    with pytest.raises(TypeError):
        sm.simulate(system, players, games=2, seed=3, workers=1)
    assert sm.simulate(system, players, games=2, seed=3, workers=1, core_players=False)


@needs_core
@pytest.mark.parametrize("system", ["cassino_standard", "cassino_royal", "mulle"])
def test_reference_greedy_keeps_the_states_own_weights(system: str) -> None:
    # scores and choices past the C group limit come from the reference: with weights set
    # by _set_greedy_weights, the reference weighs the cards with those, as C does
    r = rules(system)
    weights = [0.1 + (c * 7 % 13) / 5.0 for c in range(r.num_ids)]
    for seed in range(3):
        policies = ["greedy"] * r.players
        seeds = [seed * 10 + s for s in range(r.players)]
        in_c = core.State.deal(r, seed % r.players, seed)
        in_c._set_greedy_weights(weights)
        past = core.State.deal(r, seed % r.players, seed)
        past._set_greedy_weights(weights)
        past._greedy_group_limit(0)
        while not in_c.is_over:
            scores = in_c.greedy_scores()
            assert past.greedy_scores() == pytest.approx(scores, abs=1e-9)
            move = in_c.legal_moves()[scores.index(max(scores))]
            in_c.push(move)
            past.push(move)
        for state in (in_c, past):
            while state.ply:
                state.pop()
        _, a = in_c.play_hand(policies, seeds)
        past._greedy_group_limit(1)
        _, b = past.play_hand(policies, seeds)
        assert ([str(m) for m in past.history], b) == ([str(m) for m in in_c.history], a)


def test_fixed_weights_greedy_refuses_weights_of_another_deck() -> None:
    state = make_state(["KS QS", "KH QH"], "AS 2H", stock="")
    view = View.of(state, state.to_move)
    with pytest.raises(ValueError, match="one weight per card id"):
        greedy.FixedWeightsGreedy([1.0] * 51).evaluate(view, state.legal_moves()[0])
