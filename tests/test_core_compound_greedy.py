"""The greedy player in the compound systems (African Cassino, the Italian house variant)
with its scores computed in the core.

``_TurnGen.greedy_turn_scores`` is ``GreedyPlayer._turn_score`` in C, double for double;
``CompoundState.play_hand`` plays a hand as ``RandomPlayer`` and ``GreedyPlayer`` would,
RNG draw for RNG draw, choosing greedy turns from those scores; ``simulate`` plays games of
built-in players through it with the same records as the Python players.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import cassino
from cassino import compound_systems, rules
from cassino.game import _play_hand_reference, player_moves
from cassino.greedy import GreedyPlayer
from cassino.players import RandomPlayer, View
from cassino.simulate import simulate

core = pytest.importorskip("cassino._core")
pytestmark = pytest.mark.skipif(cassino.IMPLEMENTATION != "core", reason="the core's scores")

SYSTEMS = compound_systems()


def base_order(r: Any, base: Any, at: int) -> tuple[int, ...]:
    """The order ``at`` of the cards ``base`` captures (AMB-62)."""
    from cassino.reference.african import _captured, _order_at

    return _order_at(r, _captured(base), at)


def python_greedy(seed: int = 0) -> GreedyPlayer:
    """The reference: the greedy player scoring turns in Python."""
    p = GreedyPlayer(seed)
    p._core_turns = False
    return p


def greedy_positions(system: str, hands: int) -> Iterator[Any]:
    """The positions of greedy and random players' hands of ``system`` where a turn is to be
    made (no insist decision pending)."""
    r = rules(system)
    for seed in range(hands):
        state = cassino.new_hand(system, seed=seed)
        players: list[Any] = [GreedyPlayer(seed * 10 + s) if (s + seed) % 3 else
                              RandomPlayer(seed * 10 + s) for s in range(r.players)]
        while not state.is_over:
            if not state.insist:
                yield state
            p = players[state.to_move]
            state.push(p.choose(View.of(state, state.to_move), player_moves(state, p)))


@pytest.mark.parametrize("system", SYSTEMS)
def test_core_turn_scores_are_the_reference_scores(system: str) -> None:
    r = rules(system)
    gen = core.turn_generator(r)
    # (another seat's position listed before each scoring: the scores must not read the
    # generator's last mover)
    other = cassino.new_hand(system, seed=99)
    checked = used = 0
    for state in greedy_positions(system, 3):
        moves = state.turns_one_order()
        if other.to_move == state.to_move:
            other.push(other.move_at(0))
            if other.is_over or other.insist:
                other = cassino.new_hand(system, seed=98)
        gen.count_state(other)
        fast = GreedyPlayer()
        got = fast.scores_on(state, moves)
        ref = python_greedy().scores_on(state, moves)
        assert got == ref, (system, state.to_position())
        used += fast._turns is not None and bool(fast._turns.core)
        checked += len(moves)
    assert checked > 300 and used > 50


@pytest.mark.parametrize("system", SYSTEMS)
def test_greedy_choices_from_a_view_are_the_reference_choices(system: str) -> None:
    """Through ``choose``: the scores of the turns in a world sampled from the view (a
    partner's hand among the hidden ones, whose builds for him a world may not allow)."""
    checked = 0
    for state in greedy_positions(system, 2):
        view = View.of(state, state.to_move)
        moves = player_moves(state, GreedyPlayer())
        fast, ref = GreedyPlayer(5), python_greedy(5)
        assert [fast.evaluate(view, m) for m in moves] == [ref.evaluate(view, m) for m in moves]
        assert fast.choose(view, moves) == ref.choose(view, moves)
        assert fast._rng.state == ref._rng.state
        checked += 1
    assert checked > 40


def test_a_subclass_that_judges_risk_otherwise_is_not_scored_by_the_core() -> None:
    class NoRisk(GreedyPlayer):
        def _turn_risk(self, j: Any, end: Any) -> float:
            return 0.0

    differ = 0
    for state in greedy_positions("african_cassino_3p", 1):
        moves = state.turns_one_order()
        plain = GreedyPlayer().scores_on(state, moves)
        differ += NoRisk().scores_on(state, moves) != plain
    assert differ > 5


@pytest.mark.parametrize("system", SYSTEMS)
def test_scored_turn_is_the_listed_turn(system: str) -> None:
    """The turn at an index of the scores is the listing's, whether the generator reads its
    last listing or searches again (another position listed in between)."""
    r = rules(system)
    gen = core.turn_generator(r)
    other = cassino.new_hand(system, seed=42)
    for n, state in enumerate(greedy_positions(system, 1)):
        listed = gen.list_state(state, True)
        view = View.of(state, state.to_move)
        scores = gen.greedy_turn_scores(state, [0.0] * 52, [], view.stock_size == 0, 0,
                                        0.2, 1.0, 1.0)
        assert scores is not None and len(scores) == len(listed)
        for k in range(0, len(listed), max(1, len(listed) // 5)):
            if n % 2:
                gen.count_state(other)
            base, end = gen.scored_turn(state, k)
            assert base.steps == listed[k][0].steps and end == listed[k][2]
        with pytest.raises(IndexError):
            gen.scored_turn(state, len(listed))
        # (the draw of a random turn: the count and the turn at an index, every order of a
        # capture's cards counted, from the same listing)
        if n % 3 == 0:
            gen.count_state(other)
        total = gen.listed_total(state)
        assert total == state.num_moves()
        for i in (0, total // 2, total - 1):
            if n % 2:
                gen.count_state(other)
            base, at, _ = gen.turn_at(state, i)
            assert state._expand(base, base_order(r, base, at))[0] == state.move_at(i)


@pytest.mark.parametrize("system", SYSTEMS)
def test_compound_play_hand_plays_as_the_python_players(system: str, monkeypatch: Any) -> None:
    r = rules(system)
    for seed in range(3):
        policies = ["greedy" if (s + seed) % 2 == 0 else "random" for s in range(r.players)]
        if seed == 2:
            policies = ["greedy"] * r.players
        seeds = [seed * 100 + s + 1 for s in range(r.players)]
        state = cassino.new_hand(system, seed=seed)
        start = state.to_position()
        played, states = state.play_hand(policies, seeds)
        with monkeypatch.context() as m:
            m.setattr(GreedyPlayer, "_core_turns", False)
            ref = cassino.new_hand(system, seed=seed)
            ref_played, ref_states = _play_hand_reference(ref, policies, seeds)
        assert [str(x) for x in state.history] == [str(x) for x in ref.history]
        assert (played, states) == (ref_played, ref_states)
        assert state.is_over and state.hand_score().totals() == ref.hand_score().totals()
        # every move was pushed: the hand takes back to its deal
        for _ in range(played):
            state.pop()
        assert state.to_position() == start


@pytest.mark.parametrize("seed", [6, 36, 37])
def test_a_partnerships_greedy_seat_with_a_partners_claim_is_the_python_players(
        seed: int, monkeypatch: Any) -> None:
    """In the partnership a greedy player judges the turns in a world of its view, whose
    partner's hand is not the true one. Without a claim of the partner (AMB-64) the turns
    do not depend on it, and play_hand scores the state itself in the core; with one it
    asks the Python player. In these hands the two differ where the partner claims (the
    core's scores of the state itself give other moves), and play_hand plays them as the
    Python players."""
    import cassino.greedy as greedy

    r = rules("african_cassino_partnership")
    policies, seeds = ["greedy"] * r.players, [seed * 100 + s + 1 for s in range(r.players)]
    scored: list[tuple[bool, bool]] = []    # (the state itself scored, a partner's claim)
    core_scores = greedy.core_turn_scores

    def counted(world: Any, view: View, *args: Any) -> Any:
        scored.append((world is state, any(
            s != view.seat and r.team_of(s) == r.team_of(view.seat) for s, _ in world.claims)))
        return core_scores(world, view, *args)

    state = cassino.new_hand(r, seed=seed)
    with monkeypatch.context() as m:
        m.setattr(greedy, "core_turn_scores", counted)
        got = state.play_hand(policies, seeds)
    assert scored.count((True, False)) > 20 and (True, True) not in scored
    assert (False, True) in scored       # (the Python player's world, where the partner claims)
    with monkeypatch.context() as m:
        m.setattr(GreedyPlayer, "_core_turns", False)
        ref = cassino.new_hand(r, seed=seed)
        assert got == _play_hand_reference(ref, policies, seeds)
    assert [str(x) for x in state.history] == [str(x) for x in ref.history]


def test_compound_play_hand_rejects_bad_input_and_keeps_the_state() -> None:
    from test_core_greedy import BAD_PLAY_HAND

    state = cassino.new_hand("african_cassino_2p", seed=1)
    before = state.to_position()
    for policies, seeds, match in BAD_PLAY_HAND:
        with pytest.raises(ValueError, match=match):
            state.play_hand(policies, seeds)
        assert state.to_position() == before and not state.history


def test_compound_play_hand_takes_expert_seats_to_the_python_players() -> None:
    state = cassino.new_hand("african_cassino_2p", seed=4)
    ref = cassino.new_hand("african_cassino_2p", seed=4)
    got = state.play_hand(["expert", "greedy"], [3, 4])
    assert got == _play_hand_reference(ref, ["expert", "greedy"], [3, 4])
    assert [str(x) for x in state.history] == [str(x) for x in ref.history]


@pytest.mark.parametrize("system", ["african_cassino_2p", "italian_house_cassino",
                                    "african_cassino_partnership"])
def test_simulate_compound_builtin_players_equals_the_python_players(
        system: str, monkeypatch: Any) -> None:
    n = rules(system).players
    players = [("greedy", "random")[s % 2] for s in range(n)]
    fast = simulate(system, players, games=4, seed=7, workers=1)
    monkeypatch.setattr(GreedyPlayer, "_core_turns", False)
    slow = simulate(system, players, games=4, seed=7, workers=1, core_players=False)
    assert [g.to_dict() for g in fast.games] == [g.to_dict() for g in slow.games]
    assert fast.games and all(g.to_dict()["hands"] for g in fast.games)


def test_core_scores_leave_the_state_alone() -> None:
    state = cassino.new_hand("italian_house_cassino", seed=3)
    before = state.to_position()
    moves = state.turns_one_order()
    GreedyPlayer().scores_on(state, moves)
    assert state.to_position() == before and state.turns_one_order() == moves


@pytest.mark.parametrize("limit", [0, 2])
def test_scores_past_the_group_limit_are_the_reference_scores(limit: int) -> None:
    """A packing of more groups of a value than the core's buffers hold leaves the scores
    to the reference: the same scores, the core's unused."""
    r = rules("african_cassino_3p")
    gen = core.turn_generator(r)
    gen._limits(score_groups=limit)
    try:
        left = 0
        for state in greedy_positions("african_cassino_3p", 2):
            moves = state.turns_one_order()
            fast = GreedyPlayer()
            assert fast.scores_on(state, moves) == python_greedy().scores_on(state, moves)
            left += fast._turns is not None and not fast._turns.core
    finally:
        gen._limits()
    assert left > (10 if limit == 0 else 0)


@pytest.mark.parametrize(("system", "options"), [
    ("african_cassino_3p", {"table_only_build": "turn", "pile_order": "second"}),
    ("african_cassino_2p", {"increase_who": "opponent_created", "pile_cards_per_turn": 1}),
    ("african_cassino_partnership", {"partner_builds": "maker_owns"}),
    ("italian_house_cassino", {"players": 3}),
    ("italian_house_cassino", {"players": 4}),
    ("italian_house_cassino", {"capture_extent": "maximal"}),
    ("italian_house_cassino", {"capture_extent": "free", "trail": "any"}),
    ("italian_house_cassino", {"increase_who": "opponent_only", "free_steps_per_turn": 1}),
])
def test_compound_play_hand_follows_the_options(system: str, options: dict[str, Any],
                                                monkeypatch: Any) -> None:
    """The rules options (docs/rules.md §4.4) change the turns; the core's scores and
    choices follow them as the Python players do."""
    r = rules(system, **options)
    for seed in range(2):
        policies = [("greedy", "random", "greedy")[(s + seed) % 3] for s in range(r.players)]
        seeds = [seed * 10 + s + 1 for s in range(r.players)]
        state = cassino.new_hand(r, seed=seed)
        got = state.play_hand(policies, seeds)
        with monkeypatch.context() as m:
            m.setattr(GreedyPlayer, "_core_turns", False)
            ref = cassino.new_hand(r, seed=seed)
            assert got == _play_hand_reference(ref, policies, seeds)
        assert [str(x) for x in state.history] == [str(x) for x in ref.history]
