"""cassino.playouts: batch hands in the core against the reference, policies, hooks, threads."""

from __future__ import annotations

import numpy as np
import pytest

import cassino
from cassino import _reference
from cassino._rng import Rng
from cassino.moves import MoveKind
from cassino.players import RandomPlayer
from cassino.playouts import (
    GREEDY_WEIGHTS,
    PlayoutError,
    _fill_reference,
    greedy_index,
    hand_seed,
    playouts,
)
from cassino.scoring import CATEGORIES

CORE = cassino.IMPLEMENTATION == "core"
needs_core = pytest.mark.skipif(not CORE, reason="compares the compiled core with the reference")


def reference_run(r: cassino.Rules, n: int, seed: int, codes: list[int]) -> list[np.ndarray]:
    t = r.num_teams
    arrays = [
        np.zeros((n, t, len(CATEGORIES)), np.int16), np.zeros((n, t), np.int16),
        np.zeros((n, t), np.int16), np.zeros(n, np.int32), np.zeros(n, np.int8),
    ]
    _fill_reference(r, seed, 0, codes, [None] * r.players, *arrays)
    return arrays


CASES = [
    ("cassino_standard", {}, ("random", "random")),
    ("cassino_standard", {}, ("greedy", "random")),
    ("cassino_standard", {"michigan": True}, ("greedy", "random")),
    ("cassino_standard", {"michigan_rounds_to_5": True, "obligation": "v2"}, ("random", "greedy")),
    ("cassino_standard", {"sweeps": True}, ("greedy", "greedy")),
    ("cassino_standard", {"obligation": "v2", "capture_extent": "maximal"}, ("random", "greedy")),
    ("cassino_standard", {"natural_build_combination": False, "face_capture": "any"}, ("random", "random")),
    ("cassino_standard_002", {"players": 3}, ("random", "greedy", "random")),
    ("cassino_spade", {}, ("greedy", "random")),
    ("cassino_spade", {"spade_points": "additive"}, ("random", "random")),
    ("cassino_california", {"players": 3}, ("random", "greedy", "random")),
    ("cassino_portuguese", {"players": 4}, ("greedy", "random", "random", "greedy")),
    ("cassino_diamond", {"players": 3, "aces_mode": "all_four_only"}, ("random", "random", "greedy")),
    ("cassino_diamond", {"seven_diamonds_points": 2}, ("greedy", "random")),
    ("cassino_standard", {"all_eleven": "bonus", "sweeps": True}, ("greedy", "random")),
    ("callabra", {}, ("greedy", "greedy")),
    ("callabra", {"players": 4}, ("greedy", "random", "greedy", "random")),
    ("swedish_kassino", {}, ("greedy", "random")),
    ("swedish_kassino", {"players": 3}, ("greedy", "greedy", "random")),
    ("finnish_kasino", {}, ("greedy", "random")),
    ("finnish_kasino", {"players": 4, "rank_pairing_always": True}, ("greedy", "random", "greedy", "random")),
    ("finnish_kasino", {"players": 3, "mokki_first": True, "sistan_points": 1}, ("random", "random", "greedy")),
    ("mulle", {}, ("greedy", "random")),
    ("mulle", {}, ("random", "random")),
    ("mulle", {"players": 4}, ("random",) * 4),
    ("swedish_kassino", {"players": 4}, ("random",) * 4),
    ("mulle", {"players": 3, "deal_rest": "rotation"}, ("greedy", "greedy", "greedy")),
    ("mulle", {"players": 4, "point_cards_once": True}, ("greedy",) * 4),
    ("kontsina", {}, ("greedy", "random")),
    ("kontsina", {"good_two_points": 1, "good_ten_points": 2, "combine_match_and_sum": True},
     ("random", "greedy")),
]


@needs_core
@pytest.mark.parametrize(("system", "options", "players"), CASES)
def test_core_matches_the_reference(system: str, options: dict, players: tuple[str, ...]) -> None:
    r = cassino.rules(system, **options)
    run = playouts(r, 30, seed=11, players=players)
    codes = [{"random": 0, "greedy": 1}[p] for p in players]
    points, cards, sweeps, moves, dealer = reference_run(r, 30, 11, codes)
    assert (run.points == points).all()
    assert (run.cards == cards).all()
    assert (run.sweeps == sweeps).all()
    assert (run.moves == moves).all()
    assert (run.dealer == dealer).all()


@needs_core
def test_c_scoring_of_the_26_26_rule() -> None:
    """Portuguese (docs/rules.md §3.12): in the hands that end 26-26 in cards, the C scoring gives
    the 3 points to the side with most spades exactly as score_hand does."""
    r = cassino.rules("cassino_portuguese")
    run = playouts(r, 400, seed=5)
    tied = [k for k in range(400) if list(run.cards[k]) == [26, 26]]
    assert len(tied) >= 3
    cards = CATEGORIES.index("cards")
    for k in tied[:4]:
        arrays = [
            np.zeros((1, 2, len(CATEGORIES)), np.int16), np.zeros((1, 2), np.int16),
            np.zeros((1, 2), np.int16), np.zeros(1, np.int32), np.zeros(1, np.int8),
        ]
        _fill_reference(r, 5, k, [0, 0], [None, None], *arrays)
        assert (arrays[0][0] == run.points[k]).all()
        assert sorted(run.points[k][:, cards]) == [0, 3]


def test_random_policy_is_random_hand_of_the_derived_seed() -> None:
    r = cassino.rules("cassino_standard")
    run = playouts(r, 12, seed=3)
    for i in range(12):
        totals, n = cassino.random_hand(r, hand_seed(3, i), i % 2)
        assert list(run.totals[i]) == totals
        assert run.moves[i] == n
    assert list(run.dealer) == [i % 2 for i in range(12)]


def test_hand_seed_is_the_first_output_of_the_shifted_generator() -> None:
    assert hand_seed(5, 0) == Rng(5).next_u64()
    assert hand_seed(5, 2) == Rng(5 + 2 * 0x9E3779B97F4A7C15).next_u64()
    assert hand_seed(-1, 1) == Rng((-1 + 0x9E3779B97F4A7C15) % 2**64).next_u64()
    if CORE:
        from cassino import _core

        for seed, i in [(0, 0), (7, 123), (2**64 - 1, 5), (-3, 9)]:
            assert _core.hand_seed(seed, i) == hand_seed(seed, i)


def test_results_are_consistent_hands() -> None:
    run = playouts("cassino_standard", 200, seed=8, players=("greedy", "random"))
    assert run.points.shape == (200, 2, len(CATEGORIES))
    assert run.points.dtype == np.int16 and run.moves.dtype == np.int32
    assert (run.cards.sum(axis=1) == 52).all()  # every card ends in a pile
    assert (run.moves == 48).all()  # six deals of four cards for each of two players
    # most cards 3 (unless tied at 26), most spades 1, 10D 2, 2S 1, four aces: 11 points
    tied = (run.cards[:, 0] == 26).astype(int)
    assert (run.totals.sum(axis=1) == 11 - 3 * tied).all()
    assert (run.points[:, :, CATEGORIES.index("sweeps")] == 0).all()  # sweeps off
    # the greedy seat (player 0) wins on average against random play
    assert run.totals[:, 0].mean() > run.totals[:, 1].mean() + 2
    means = run.mean_points()
    assert set(means) == {*CATEGORIES, "total"}
    assert means["total"][0] == pytest.approx(float(run.totals[:, 0].mean()))
    rec = run.to_structured()
    assert rec.shape == (200,) and (rec["points"] == run.points).all() and (rec["moves"] == 48).all()


def test_sweeps_are_counted_and_scored() -> None:
    run = playouts("cassino_standard", 300, seed=2, players=("greedy", "greedy"), sweeps=True)
    k = CATEGORIES.index("sweeps")
    assert (run.points[:, :, k] == run.sweeps).all()  # one point per sweep
    assert run.sweeps.sum() > 0


def test_threads_give_the_same_arrays() -> None:
    one = playouts("cassino_standard", 301, seed=4, players=("greedy", "random"))
    many = playouts("cassino_standard", 301, seed=4, players=("greedy", "random"), threads=3)
    for name in ("points", "cards", "sweeps", "moves", "dealer"):
        assert (getattr(one, name) == getattr(many, name)).all(), name


def test_python_hooks() -> None:
    calls: list[int] = []

    def first_move(state: object) -> int:
        calls.append(state.to_move)  # type: ignore[attr-defined]
        return 0

    run = playouts("cassino_standard", 3, seed=1, players=(first_move, "random"))
    assert run.players == ("first_move", "random")
    assert (run.moves == 48).all() and (run.cards.sum(axis=1) == 52).all()
    assert len(calls) == 3 * 24 and set(calls) == {0}

    def trail_notation(state: object) -> str:
        moves = state.legal_moves()  # type: ignore[attr-defined]
        trails = [m for m in moves if m.kind == MoveKind.TRAIL]
        return str(trails[0] if trails else moves[-1])

    run2 = playouts("cassino_standard", 2, seed=1, players=("random", trail_notation))
    assert (run2.moves == 48).all()
    run3 = playouts("cassino_standard", 2, seed=1, players=(RandomPlayer(seed=2), "greedy"))
    assert run3.players[1] == "greedy" and (run3.cards.sum(axis=1) == 52).all()


def test_a_hook_returning_an_illegal_move_raises() -> None:
    with pytest.raises((cassino.IllegalMoveError, IndexError)):
        playouts("cassino_standard", 1, seed=1, players=(lambda s: 999, "random"))
    with pytest.raises(cassino.CassinoError):
        playouts("cassino_standard", 1, seed=1, players=(lambda s: "ZZ", "random"))


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"n": -1}, r"n must be a non-negative integer"),
        ({"n": 2.5}, r"n must be a non-negative integer"),
        ({"seed": "x"}, r"seed must be an integer"),
        ({"threads": 0}, r"threads must be a positive integer"),
        ({"players": ("random",)}, r"one policy per seat \(2\)"),
        ({"players": ("random", "smart")}, r"unknown policy 'smart'"),
        ({"players": ("random", 3)}, r"a policy is 'random', 'greedy', a callable"),
    ],
)
def test_bad_arguments(kwargs: dict, pattern: str) -> None:
    with pytest.raises(PlayoutError, match=pattern):
        playouts("cassino_standard", **{"n": 2, **kwargs})


def test_unknown_system_and_options() -> None:
    with pytest.raises(cassino.UnknownSystemError):
        playouts("cassino_royale", 2)
    with pytest.raises(cassino.RulesError, match="unknown option 'speed'"):
        playouts("cassino_standard", 2, speed=3)
    with pytest.raises(PlayoutError, match="not with a Rules object"):
        playouts(cassino.rules("cassino_standard"), 2, sweeps=True)


def test_zero_hands() -> None:
    run = playouts("cassino_standard", 0)
    assert run.n == 0 and run.points.shape == (0, 2, len(CATEGORIES))


def test_greedy_reference_policy_prefers_the_biggest_capture() -> None:
    checked = 0
    for seed in range(40):
        state = _reference.State.from_position(cassino.new_hand(seed=seed).to_position())
        moves = state.legal_moves()
        i = greedy_index(moves, state.table_mask, 0, Rng(seed))
        gains = []
        for m in moves:
            w = sum(GREEDY_WEIGHTS[c] for c in range(52) if (m.takes | 1 << m.card) >> c & 1)
            if m.kind == MoveKind.TRAIL:
                w = -GREEDY_WEIGHTS[m.card]
            elif m.kind != MoveKind.CAPTURE:
                w //= 2
            gains.append(w)
        assert gains[i] == max(gains)
        checked += any(m.kind == MoveKind.CAPTURE for m in moves)
    assert checked > 10  # positions with a capture to prefer
