"""Card reading in the ismcts search (``infer``): the pool of opponent hands, its weights, the
C search drawing from it as the Python search does, and ``State._set_hidden_hand``, which
lets card reading build each position of its evidence once."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

import cassino
from cassino import Rng, rules
from cassino.expert import ExpertPlayer
from cassino.greedy import GreedyPlayer
from cassino.ismcts import EVAL_SCALE, INFER_POOL, ISMCTSPlayer
from cassino.players import PlayerError, View, make_player
from cassino.rules import implemented_systems

core_only = pytest.mark.skipif(
    not hasattr(cassino.State, "_ismcts"), reason="the reference has no C search"
)
needs_swap = pytest.mark.skipif(
    not hasattr(cassino.State, "_set_hidden_hand"), reason="a core method"
)

TWO_PLAYER = [s for s in implemented_systems() if rules(s).players == 2]
# (Elewenjewe hides the cards set aside and, without Isiwo, the seat's own pile: its views
# are searched and read in Python, which deals those hidden places too)
OPEN_TWO_PLAYER = [s for s in TWO_PLAYER if "elewenjewe" not in rules(s).mechanics]


def _against_greedy(system: str, seed: int, seen: Any, *bots: ISMCTSPlayer) -> int:
    """One hand of ``system``, ``bots[0]`` (and each other bot, which must agree with it) at
    seat 0 against greedy; ``seen(state, view, bots)`` before seat 0's moves that have a
    reply to read. Returns how many such moves there were."""
    state = cassino.State.deal(rules(system), seed % 2, seed)
    greedy = GreedyPlayer(seed=seed)
    read = 0
    while not state.is_over:
        view = View.of(state, state.to_move)
        moves = state.legal_moves()
        if state.to_move == 0:
            solver = bots[0]._solver
            if solver._leads_to(view) and solver._evidence(view) and len(moves) > 1:
                seen(state, view, bots)
                read += 1
            move = bots[0].choose(view, moves)
            for other in bots[1:]:
                assert other.choose(view, moves) == move
                assert other.last_visits == bots[0].last_visits
                assert other._rng.state == bots[0]._rng.state
        else:
            move = greedy.choose(view, moves)
        state.push(move)
    return read


@core_only
@pytest.mark.parametrize("system", OPEN_TWO_PLAYER)
def test_the_c_search_reads_cards_as_the_python_search(system: str) -> None:
    # the same pool, the same weighted draws and deals, the same visits and Rng state, move
    # for move (moves with a reply to read draw from a pool: the next test)
    checked = 0
    for seed in range(2):
        core = ISMCTSPlayer(seed=seed, iterations=40, exact=False)
        ref = ISMCTSPlayer(seed=seed, iterations=40, exact=False, core=False)
        checked += _against_greedy(system, seed, lambda *_: None, core, ref)
    assert checked >= 3


@core_only
def test_a_given_pool_is_drawn_alike_in_c_and_in_python() -> None:
    # small integer weights, where drawing the first hand whose cumulative weight passes
    # the draw (and not the first that reaches it) matters in half the draws
    state = cassino.new_hand(seed=12)
    view = View.of(state, state.to_move)
    other = 1 - view.seat
    rng = Rng(5)
    hands = [view.sample_world(rng).hand(other).mask for _ in range(3)]
    pool = (other, [(hands[0], 1), (hands[1], 1), (hands[2], 2)])
    bots = [ISMCTSPlayer(seed=4, iterations=80, exact=False, core=core) for core in (True, False)]
    for bot in bots:
        bot._pool = lambda view: pool  # type: ignore[method-assign]
    moves = state.legal_moves()
    assert bots[0].choose(view, moves) == bots[1].choose(view, moves)
    assert bots[0].last_visits == bots[1].last_visits
    assert bots[0]._rng.state == bots[1]._rng.state
    # and the hand of weight 0 is never dealt: a pool of one hand with weight
    dealt = {bots[1]._deal(view, Rng(k), (other, [(hands[0], 0), (hands[1], 3)])).hand(other)
             for k in range(20)}
    assert {h.mask for h in dealt} == {hands[1]}


@pytest.mark.slow   # (the Python search without the core)
def test_the_pool_is_hands_of_the_opponent_with_rising_weights() -> None:
    pools = []

    def look(state: Any, view: View, bots: Any) -> None:
        got = bots[0]._pool(view)
        assert got is not None
        seat, pool = got
        assert seat == 1 and len(pool) == INFER_POOL
        acc = 0
        for hand, cum in pool:
            assert hand & ~view.unseen.mask == 0
            assert hand.bit_count() == view.hand_sizes[1]
            assert cum >= acc
            acc = cum
        pools.append(pool)

    for seed in range(3):
        _against_greedy("cassino_standard", seed, look, ISMCTSPlayer(seed=seed, iterations=20))
    assert len(pools) >= 10
    # the weights are not all alike: the replies seen make some hands unlikely
    assert any(len({b - a for (_, a), (_, b) in pairwise(p)}) > 1 for p in pools)


@pytest.mark.slow   # (the Python search without the core)
def test_the_pool_finds_the_opponents_cards() -> None:
    # the pool's weighted hands hold the opponent's true cards more often than its
    # hands do uniformly (the weights' work)
    found = {"weighted": 0.0, "uniform": 0.0}

    def look(state: Any, view: View, bots: Any) -> None:
        got = bots[0]._pool(view)
        assert got is not None
        true = state.hand(1).mask
        _, pool = got
        total = pool[-1][1]
        prev = 0
        for hand, cum in pool:
            common = (hand & true).bit_count()
            found["weighted"] += common * (cum - prev) / total
            found["uniform"] += common / len(pool)
            prev = cum

    for seed in range(12):
        _against_greedy("cassino_standard", seed, look, ISMCTSPlayer(seed=seed, iterations=20))
    assert found["weighted"] > 1.05 * found["uniform"]


def test_nothing_to_read_leaves_the_search_as_without_reading() -> None:
    # the first move of a hand has no reply to read: the same search, the same draws
    state = cassino.new_hand(seed=9)
    view = View.of(state, state.to_move)
    on = ISMCTSPlayer(seed=3, iterations=60, exact=False)
    off = ISMCTSPlayer(seed=3, iterations=60, exact=False, infer=0)
    assert on._pool(view) is None and off._pool(view) is None
    assert on.choose(view, state.legal_moves()) == off.choose(view, state.legal_moves())
    assert on.last_visits == off.last_visits and on._rng.state == off._rng.state


@core_only
def test_reading_changes_the_search_within_a_hand() -> None:
    differ = []

    def look(state: Any, view: View, bots: Any) -> None:
        pool = bots[0]._pool(view)
        assert pool is not None
        base = view.sample_world(Rng(0))
        args = (view.seat, view.unseen.mask, 200, None, 0.7, EVAL_SCALE, 7, "eval", False)
        a = base._ismcts(*args, *pool)
        b = base._ismcts(*args)
        assert a is not None and b is not None
        differ.append(a[0] != b[0])

    for seed in range(2):
        _against_greedy("cassino_standard", seed, look, ISMCTSPlayer(seed=seed, iterations=20))
    assert sum(differ) >= 3


def test_infer_is_checked() -> None:
    for bad in (-1, "x", True, float("inf"), float("nan")):
        with pytest.raises(PlayerError, match="ismcts: infer"):
            ISMCTSPlayer(infer=bad)  # type: ignore[arg-type]
    for spec, value in (("ismcts:infer=0", 0.0), ("ismcts:infer=2.5", 2.5)):
        bot = make_player(spec)
        assert isinstance(bot, ISMCTSPlayer) and bot.infer == value


@needs_swap
def test_the_likelihoods_are_the_same_with_hands_set_in_place() -> None:
    # State._set_hidden_hand (one position, its hand set for each world) against one
    # position built for each world: the same floats
    bot = ExpertPlayer(seed=1)
    compared = 0
    for seed in range(4):
        state = cassino.new_hand(seed=seed)
        greedy = GreedyPlayer(seed=seed)
        while not state.is_over:
            view = View.of(state, state.to_move)
            if state.to_move == 0:
                evidence = bot._evidence(view) if bot._leads_to(view) else []
                if evidence:
                    rng = Rng(seed)
                    hands = [view.sample_world(rng).hand(1).mask for _ in range(20)]
                    hands.append(state.hand(1).mask)
                    assert bot._likelihoods(hands, evidence) == bot._likelihoods(
                        hands, evidence, swap=False
                    )
                    compared += 1
                move = bot.choose(view, state.legal_moves())
            else:
                move = greedy.choose(view, state.legal_moves())
            state.push(move)
    assert compared >= 10


# -- State._set_hidden_hand ----------------------------------------------------------------


@needs_swap
@pytest.mark.parametrize("system", ["cassino_standard", "mulle"])
def test_a_hidden_hand_set_is_the_state_built_with_it(system: str) -> None:
    state = cassino.State.deal(rules(system), 0, 5)
    pos = state.to_position()
    hand = state.hand(1).mask
    stock = pos.stock
    new = hand & (hand - 1) | 1 << stock[3]   # its lowest card for the stock's fourth
    state._set_hidden_hand(1, new)
    got = state.to_position()
    assert got.hands[1] == new and got.hands[0] == pos.hands[0]
    assert sorted(got.stock) == sorted(set(stock) - {stock[3]} | {(hand & -hand).bit_length() - 1})
    assert got.stock[3] == (hand & -hand).bit_length() - 1   # in the freed place
    built = cassino.State(got)
    assert state.legal_moves() == built.legal_moves()
    assert state.greedy_scores() == built.greedy_scores()
    # the root follows: copies, pickles and the position at ply 0 are the new state's
    import pickle

    assert pickle.loads(pickle.dumps(state)).to_position() == got
    state.push(state.legal_moves()[0])          # (a pickle replays its moves from ply 0)
    assert pickle.loads(pickle.dumps(state)).to_position() == state.to_position()
    state.pop()
    assert state.to_position() == got


@needs_swap
def test_a_bad_hidden_hand_is_refused_and_leaves_the_state() -> None:
    state = cassino.new_hand(seed=2)
    before = state.to_position()
    mine = state.hand(0).mask
    theirs = state.hand(1).mask
    cases: list[tuple[Any, Any, str]] = [
        (1, theirs & (theirs - 1), "cards"),          # one card short
        (1, theirs | mine, "cards"),                  # too many
        (1, theirs & (theirs - 1) | (mine & -mine), "neither in the seat's hand nor the stock"),
        (1, -1, "card mask"),
        (1, 1 << 80, "card mask"),
        (1, "AS", "card mask"),
        (2, theirs, "seat"),
        (-1, theirs, "seat"),
    ]
    for seat, hand, message in cases:
        with pytest.raises(ValueError, match=message):
            state._set_hidden_hand(seat, hand)
        assert state.to_position() == before
    state.push(state.legal_moves()[0])
    with pytest.raises(ValueError, match="ply 0"):
        state._set_hidden_hand(1, theirs)
    state.pop()
    assert state.to_position() == before


@core_only
def test_a_bad_pool_is_refused() -> None:
    state = cassino.new_hand(seed=4)
    view = View.of(state, state.to_move)
    base = view.sample_world(Rng(0))
    other = 1 - view.seat
    unseen = view.unseen.mask
    hand = base.hand(other).mask
    args = (view.seat, unseen, 10, None, 0.7, EVAL_SCALE, 1, "eval", False)
    for seat, pool, message in [
        (view.seat, [(hand, 1)], "not another seat"),
        (5, [(hand, 1)], "not another seat"),
        (other, [(hand | state.hand(view.seat).mask, 1)], "pool hand 0"),
        (other, [(hand & (hand - 1), 1)], "pool hand 0"),
        (other, [(hand, 3), (hand, 2)], "must not decrease"),
        (other, [(hand, 0)], "total weight"),
        (other, [(hand, 1 << 32)], "total weight"),
    ]:
        with pytest.raises(ValueError, match=message):
            base._ismcts(*args, seat, pool)
    got = base._ismcts(*args, other, [(hand, 0), (hand, 5)])
    assert got is not None and sum(got[0]) == got[1] == 10
    for bad_state in (-1, 1 << 64):      # refused before the pool is allocated
        with pytest.raises(OverflowError):
            base._ismcts(view.seat, unseen, 10, None, 0.7, EVAL_SCALE, bad_state, "eval",
                         False, other, [(hand, 1)])


@pytest.mark.slow   # (the Python search without the core)
@pytest.mark.parametrize("spec", ["expert", "ismcts:iterations=20"])
def test_one_player_on_every_seat_reads_each_seat_apart(spec: str) -> None:
    # as cassino.tournament.ms_per_move asks it: one player for every seat, with random
    # moves pushed as often as its own; each seat's memory holds its own views only
    bot: Any = make_player(spec, 1)
    solver = bot if isinstance(bot, ExpertPlayer) else bot._solver
    rng = Rng(2)
    read = 0
    for seed in range(4):
        state = cassino.new_hand(seed=seed)
        while not state.is_over:
            legal = state.legal_moves()
            view = View.of(state, state.to_move)
            read += bool(solver._evidence(view))
            move = bot.choose(view, legal)
            assert all(v.seat == view.seat for v, _ in solver._traces[view.seat])
            state.push(move if rng.below(3) else legal[rng.below(len(legal))])
    assert read >= 10
