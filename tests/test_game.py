"""Whole games: dealer draw and rotation, scoring and the target, count-out, the log."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

import cassino
import conftest
from cassino import Game, IllegalMoveError, Position, Rng, RulesError
from cassino.cards import card_code, card_rank
from cassino.game import ReplayError

ALL_CODES = [card_code(c) for c in range(52)]
SPADES = [f"{r}S" for r in ("A", *map(str, range(2, 11)), "J", "Q", "K")]
POINT_CARDS = {"10D", "2S", "AS", "AC", "AH", "AD"}
PLAIN = [c for c in ALL_CODES if c not in POINT_CARDS and not c.endswith("S")]


def play_random(game: Game, seed: int, max_plies: int = 10_000) -> None:
    """Both players choose uniformly among the legal moves with one seeded Rng."""
    rng = Rng(seed)
    for _ in range(max_plies):
        if game.is_over:
            return
        moves = game.state.legal_moves()
        game.push(moves[rng.below(len(moves))])
    raise AssertionError("the game did not end")


def make_position(
    pile0: list[str],
    *,
    hands: tuple[list[str], list[str]] = (["3H"], ["4H"]),
    table: tuple[str, ...] = (),
    scores: tuple[int, int] = (0, 0),
    to_move: int = 0,
    dealer: int = 1,
    last_capturer: int | None = 0,
    sweep_order: tuple[int, ...] = (),
    **options: Any,
) -> Position:
    """A 2-player standard position with an empty stock; team 1's pile holds the rest."""
    return conftest.make_position(
        list(hands), list(table), to_move=to_move, dealer=dealer, options=options,
        piles=[pile0, []], last_capturer=last_capturer, sweep_order=sweep_order,
        scores=scores, rest_to=1,
    )


# -- a whole game ----------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2, 12345])
def test_seeded_random_game_runs_to_the_end(seed: int) -> None:
    game = Game("cassino_standard", seed=seed)
    play_random(game, seed)
    assert game.is_over and game.winner in (0, 1)
    assert game.scores[game.winner] >= 21
    score_records = [r for r in game.log if r["type"] == "score"]
    assert len(score_records) == game.hands_played == len(game.hand_scores) >= 2
    assert score_records[-1]["scores"] == game.scores
    assert game.log[-1] == {"type": "end", "winner": game.winner}
    assert game.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.push("AS")
    json.dumps(game.log)  # JSON-ready


def test_same_seed_same_game_whatever_the_global_rng() -> None:
    random.seed(1)
    a = Game(seed=42)
    play_random(a, 7)
    random.seed(2)
    random.random()
    b = Game(seed=42)
    play_random(b, 7)
    assert a.log == b.log and a.scores == b.scores
    c = Game(seed=43)
    play_random(c, 7)
    assert c.log != a.log


def test_game_from_rules_and_options() -> None:
    r = cassino.rules("cassino_standard", sweeps=True)
    game = Game(r, seed=5, end_check="compare_totals")
    assert game.rules.sweeps and game.rules.end_check == "compare_totals"
    assert game.log[0] == {
        "type": "game",
        "system": "cassino_standard",
        "options": {"sweeps": True, "end_check": "compare_totals"},
        "seed": 5,
    }
    with pytest.raises(RulesError):
        Game(seed=1, sweeps="yes")


def test_illegal_push_leaves_the_game_unchanged() -> None:
    game = Game(seed=3)
    before = list(game.log)
    hand = game.state.to_position().hands[game.state.to_move]
    not_held = next(c for c in range(52) if not hand >> c & 1)
    with pytest.raises(IllegalMoveError):
        game.push(card_code(not_held))
    assert game.log == before


def test_three_player_preset_game() -> None:
    game = Game("cassino_standard_002", seed=9, players=3)
    assert len(game.log[1]["rounds"][0]) == 3
    play_random(game, 9)
    dealers = [r["dealer"] for r in game.log if r["type"] == "deal"]
    assert dealers == [(dealers[0] + i) % 3 for i in range(len(dealers))]


# -- replay ----------------------------------------------------------------------------
def test_replay_reproduces_the_game_exactly() -> None:
    game = Game(seed=11, sweeps=True)
    play_random(game, 11)
    log = json.loads(json.dumps(game.log))
    again = Game.replay(log)
    assert again.log == game.log
    assert again.state == game.state
    assert again.scores == game.scores and again.winner == game.winner
    assert again.hands_played == game.hands_played


def test_replay_of_an_unfinished_game_can_continue() -> None:
    game = Game(seed=4)
    rng = Rng(4)
    for _ in range(60):
        moves = game.legal_moves()
        game.push(moves[rng.below(len(moves))])
    again = Game.replay(game.log)
    assert again.state == game.state and not again.is_over
    again.push(again.legal_moves()[0])


def test_replay_rejects_a_log_that_does_not_match() -> None:
    game = Game(seed=11)
    play_random(game, 11)
    log = json.loads(json.dumps(game.log))
    moves = [i for i, r in enumerate(log) if r["type"] == "move"]

    bad = json.loads(json.dumps(log))
    bad[2]["deck"][0], bad[2]["deck"][1] = bad[2]["deck"][1], bad[2]["deck"][0]
    with pytest.raises(ReplayError, match="record 2 does not match"):
        Game.replay(bad)

    bad = json.loads(json.dumps(log))
    del bad[moves[3]]
    with pytest.raises(ReplayError, match=f"record {moves[3]}"):
        Game.replay(bad)

    bad = json.loads(json.dumps(log))
    bad[moves[0]]["move"] = "ZZ"
    with pytest.raises(ReplayError, match=f"record {moves[0]}"):
        Game.replay(bad)

    bad = json.loads(json.dumps(log))
    score = next(i for i, r in enumerate(log) if r["type"] == "score")
    bad[score]["scores"] = [99, 0]
    with pytest.raises(ReplayError, match=f"record {score} does not match"):
        Game.replay(bad)

    with pytest.raises(ReplayError, match="start with a 'game' record"):
        Game.replay(log[1:])
    with pytest.raises(ReplayError, match="cannot start"):
        Game.replay([{"type": "game", "system": "nope", "options": {}, "seed": 1}])


# -- dealer ----------------------------------------------------------------------------
def test_dealer_alternates_every_hand() -> None:
    game = Game(seed=21)
    play_random(game, 21)
    deals = [r for r in game.log if r["type"] == "deal"]
    assert len(deals) >= 2
    assert [d["hand"] for d in deals] == list(range(len(deals)))
    assert deals[0]["dealer"] == game.first_dealer == game.log[1]["dealer"]
    for a, b in itertools.pairwise(deals):
        assert b["dealer"] == 1 - a["dealer"]


@pytest.mark.parametrize("first_dealer", ["high", "low"])
def test_first_dealer_by_draw(first_dealer: str) -> None:
    redraws = 0
    for seed in range(40):
        game = Game(seed=seed, first_dealer=first_dealer)
        draw = game.log[1]
        assert draw["type"] == "draw" and draw["dealer"] == game.first_dealer
        for rnd in draw["rounds"][:-1]:  # every earlier round was a tie for the best rank
            ranks = [card_rank(cassino.parse_card(code)) for _, code in rnd]
            best = max(ranks) if first_dealer == "high" else min(ranks)
            assert ranks.count(best) >= 2
        last = {seat: card_rank(cassino.parse_card(code)) for seat, code in draw["rounds"][-1]}
        pick = max if first_dealer == "high" else min
        assert last[game.first_dealer] == pick(last.values())
        assert list(last.values()).count(last[game.first_dealer]) == 1
        redraws += len(draw["rounds"]) > 1
        deal = game.log[2]
        assert deal["type"] == "deal" and deal["dealer"] == game.first_dealer
        assert game.state.to_position().dealer == game.first_dealer
    assert redraws > 0


def test_ace_is_low_in_the_draw_and_high_and_low_differ() -> None:
    differ = 0
    for seed in range(20):
        high, low = Game(seed=seed), Game(seed=seed, first_dealer="low")
        if len(high.log[1]["rounds"]) == 1:  # same cards drawn, opposite choice
            assert high.first_dealer != low.first_dealer
            differ += 1
    assert differ > 0


# -- end of hand -----------------------------------------------------------------------
def _last_trick(scores: tuple[int, int], **options: Any) -> Game:
    """Seat 0 trails the last card; team 0 has every spade, 10D and the other aces
    (8 points), team 1 most cards (3 points)."""
    pile0 = [*SPADES, "10D", "AH", "AD", "AC"]
    pos = make_position(
        pile0, hands=(["3H"], []), table=("4H",), scores=scores, dealer=0, **options
    )
    return Game.from_position(pos, seed=5)


def test_ordered_tally_first_to_reach_the_target_mid_tally_wins() -> None:
    game = _last_trick((20, 18))
    game.push("3H")
    assert game.is_over and game.winner == 1  # most cards (tallied first) takes team 1 to 21
    assert game.scores == [28, 21]
    assert game.log[-2]["type"] == "score" and game.log[-2]["scores"] == [28, 21]


def test_compare_totals_higher_total_wins() -> None:
    game = _last_trick((20, 18), end_check="compare_totals")
    game.push("3H")
    assert game.is_over and game.winner == 0 and game.scores == [28, 21]


def test_compare_totals_tie_plays_another_hand() -> None:
    game = _last_trick((13, 18), end_check="compare_totals")
    game.push("3H")
    assert not game.is_over and game.winner is None
    assert game.scores == [21, 21] and game.hands_played == 1
    assert game.log[-1]["type"] == "deal" and game.log[-1]["hand"] == 1
    assert game.dealer == 1 and game.state.to_position().scores == (21, 21)
    assert Game.replay(game.log).state == game.state


def test_resuming_a_finished_hand_is_refused() -> None:
    pos = make_position(ALL_CODES, hands=([], []), last_capturer=None)
    with pytest.raises(IllegalMoveError):
        Game.from_position(pos)


# -- count-out -------------------------------------------------------------------------
def _claim(pile0: list[str], scores: tuple[int, int], **kw: Any) -> Game:
    options = {"count_out": True, **kw.pop("options", {})}
    return Game.from_position(make_position(pile0, scores=scores, **kw, **options), seed=3)


def test_count_out_wins_with_clinched_points() -> None:
    game = _claim(["10D", "2S", "AS", "AC", "5H"], (16, 20))
    out = game.count_out()
    assert (out.seat, out.team, out.clinched, out.total, out.won, out.winner) == (0, 0, 5, 21, True, 0)
    assert game.is_over and game.winner == 0 and game.scores == [16, 20]
    assert game.log[-2] == {
        "type": "count_out", "hand": 0, "seat": 0, "clinched": 5, "total": 21, "won": True,
    }
    assert game.log[-1] == {"type": "end", "winner": 0}
    assert Game.replay(game.log).winner == 0
    with pytest.raises(IllegalMoveError):
        game.count_out()


def test_count_out_short_of_the_target_loses() -> None:
    game = _claim(["10D", "2S", "AS", "AC", "5H"], (15, 0))
    out = game.count_out()
    assert out.total == 20 and not out.won and out.winner == 1
    assert game.winner == 1


def test_count_out_by_the_second_seat() -> None:
    # team 1 holds all but seat 0's pile and the hand cards: 48 cards, every point card
    game = _claim(["5H", "6H"], (0, 10), to_move=1)
    out = game.count_out()
    assert out.team == 1 and out.clinched == 2 + 1 + 4 + 3 + 1 and out.won


@pytest.mark.parametrize(("ncards", "won"), [(27, True), (26, False)])
def test_count_out_most_cards_clinched_at_27(ncards: int, won: bool) -> None:
    game = _claim(PLAIN[:ncards], (18, 0), hands=(["QS"], ["KS"]))
    out = game.count_out()
    assert out.clinched == (3 if won else 0) and out.won is won


@pytest.mark.parametrize(("nspades", "won"), [(7, True), (6, False)])
def test_count_out_most_spades_clinched_at_7(nspades: int, won: bool) -> None:
    game = _claim(SPADES[2 : 2 + nspades], (20, 0), hands=(["3H"], ["4H"]))
    assert game.count_out().won is won


def test_count_out_counts_sweeps_when_used() -> None:
    game = _claim(["5H"], (19, 0), sweep_order=(0, 0), options={"sweeps": True})
    assert game.count_out().clinched == 2


def test_count_out_needs_the_option() -> None:
    game = Game(seed=1)
    with pytest.raises(RulesError, match="count_out=true"):
        game.count_out()
    with pytest.raises(RulesError, match="two-player"):
        cassino.rules("cassino_standard_002", players=3, count_out=True)


def test_count_out_in_a_played_game_replays() -> None:
    game = Game(seed=8, count_out=True)
    rng = Rng(8)
    for _ in range(10):
        moves = game.legal_moves()
        game.push(moves[rng.below(len(moves))])
    seat = game.state.to_move
    out = game.count_out()
    assert out.seat == seat and not out.won and game.winner == 1 - seat
    again = Game.replay(json.loads(json.dumps(game.log)))
    assert again.log == game.log and again.winner == game.winner


# -- taking moves back ----------------------------------------------------------------------
def test_pop_takes_back_moves_of_the_current_hand_and_their_log_records() -> None:
    game = Game(seed=4)
    start_log = list(game.log)
    start = game.state.to_position()
    rng = Rng(4)
    pushed = []
    for _ in range(11):  # across a deal: the second deal is taken back too
        moves = game.legal_moves()
        pushed.append(game.push(moves[rng.below(len(moves))]))
    after = game.state.to_position()
    assert game.pop() == pushed[-1]
    game.push(pushed[-1])
    assert game.state.to_position() == after
    assert [game.pop() for _ in pushed] == pushed[::-1]
    assert game.state.to_position() == start and game.log == start_log
    with pytest.raises(IllegalMoveError, match="no move of the current hand"):
        game.pop()


def test_pop_does_not_reach_into_a_finished_hand() -> None:
    game = Game(seed=2)
    rng = Rng(2)
    while game.hands_played == 0:
        moves = game.legal_moves()
        game.push(moves[rng.below(len(moves))])
    scores = game.scores
    while game.state.history:
        game.pop()
    with pytest.raises(IllegalMoveError, match="no move of the current hand"):
        game.pop()
    assert game.scores == scores and game.hands_played == 1
    assert Game.replay(game.log).state.to_position() == game.state.to_position()
    play_random(game, 3)
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.pop()
