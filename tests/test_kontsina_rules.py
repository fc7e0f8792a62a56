"""Kontsina (docs/rules.md §3.16; AMB-38, AMB-39, AMB-40, AMB-41).

Two players, A 1, 2-10 pip, J Q K by rank only; no building, no sweeps. A play takes
exactly one group: one loose card of its rank (even if several lie there) or one sum group
of two or more numeric cards totalling its value (capture_extent=single_group; option
combine_match_and_sum: one of each together); capturing is never compulsory. Leftovers to
the last capturer. Most cards 2 (26-26: nobody), most clubs 2, 2C 2, 10D 1 (option: the
2C and 10D values swapped). The player with more points wins the hand; after 6 hands
(option match_hands, even) more hands won wins; equal -> two more hands. The suite runs
once on the core and once with CASSINO_PURE_PYTHON=1.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

import cassino
from cassino import Game, Move, MoveKind, rules
from cassino.cards import parse_card
from cassino.errors import IllegalMoveError, RulesError
from cassino.scoring import HandScore, final_winners, score_hand, tally_winner, used_categories
from conftest import make_position, make_state, notations

KO = "kontsina"


def state(hands: list[str], table: str, **kw: Any) -> Any:
    return make_state(hands, table, system=KO, **kw)


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


# -- preset and options ----------------------------------------------------------------------
def test_preset_follows_section_3_16():
    r = rules(KO)
    assert KO in cassino.implemented_systems()
    assert (r.players, r.card_values, r.match_mode, r.build_kinds) == (2, "standard", "rank", "none")
    assert [r.card_value(parse_card(c)) for c in ("AS", "10D", "JC", "QH", "KS")] == [1, 10, 0, 0, 0]
    assert (r.capture_extent, r.combine_match_and_sum, r.faces_capturable) == ("single_group", False, True)
    assert (r.sweeps, r.game_end, r.match_hands, r.final_tie) == (False, "hands_won", 6, "more_hands")
    assert (r.most_cards_points, r.most_clubs_points, r.good_two_points, r.good_ten_points) == (2, 2, 2, 1)
    assert used_categories(r) == ("cards", "clubs", "good_two", "good_ten")
    # 4 each and 4 to the table, six deals; the non-dealer leads
    p = cassino.State.deal(r, 0, 3).to_position()
    assert [h.bit_count() for h in p.hands] == [4, 4] and p.loose.bit_count() == 4
    assert len(p.stock) == 40 and r.deals_per_hand == 6 and p.to_move == 1


@pytest.mark.parametrize(
    ("options", "pattern"),
    [
        ({"players": 3}, "played by 2 players"),
        ({"build_kinds": "simple+multiple"}, "no building in Kontsina"),
        ({"capture_extent": "free"}, "one group"),
        ({"sweeps": True}, "no sweeps"),
        ({"card_values": "royal", "match_mode": "value"}, "J Q K by rank only"),
        ({"game_end": "target"}, "hands won"),
        ({"match_hands": 5}, "even number"),
        ({"match_hands": 0}, "even number"),
        ({"good_two_points": -2}, "good_two_points must be between 0 and 100"),
        ({"most_clubs_points": 200}, "most_clubs_points must be between 0 and 100"),
        ({"count_out": True}, "counts hands won"),
        ({"pluck": True}, "single_group .* cannot be combined with pluck"),
        ({"faces_capturable": "no"}, "must be true or false"),
    ],
)
def test_bad_kontsina_options_raise(options, pattern):
    with pytest.raises(RulesError, match=pattern):
        rules(KO, **options)


@pytest.mark.parametrize(
    ("options", "pattern"),
    [
        ({"game_end": "hands_won"}, "Kontsina match"),
        ({"match_hands": 8}, "only to game_end=hands_won"),
        ({"faces_capturable": False}, "only with capture_extent=single_group"),
        ({"capture_extent": "single_group"}, "cannot be combined with build_kinds"),
        ({"capture_extent": "single_group", "build_kinds": "none", "obligation": "none",
          "card_values": "royal", "match_mode": "value", "build_max_value": 10}, "card_values=royal"),
    ],
)
def test_kontsina_parameters_are_refused_elsewhere(options, pattern):
    with pytest.raises(RulesError, match=pattern):
        rules("cassino_standard", **options)


def test_options_that_apply():
    r = rules(KO, match_hands=8, combine_match_and_sum=True, faces_capturable=False,
              good_two_points=1, good_ten_points=2, final_tie="shared")  # fmt: skip
    assert r.options() == {
        "match_hands": 8, "combine_match_and_sum": True, "faces_capturable": False,
        "good_two_points": 1, "good_ten_points": 2, "final_tie": "shared",
    }


# -- captures (AMB-38, AMB-39) ------------------------------------------------------------------
TABLE = "KH KD 2S 3H 4S AC JD 5D"


def test_one_matching_card_or_one_sum_group_exactly():
    s = state(["KC 5H 7C 10D", "KS 9C 3D JH"], TABLE)
    assert notations(s) == {
        "KC", "KCxKH", "KCxKD",                       # one king, even with two on the table
        "5H", "5Hx5D", "5Hx2S,3H", "5HxAC,4S",        # the match, or one group of 5
        "7C", "7Cx3H,4S", "7CxAC,2S,4S", "7Cx2S,5D",  # one group of 7
        "10D", "10DxAC,2S,3H,4S", "10Dx2S,3H,5D", "10DxAC,4S,5D",
    }


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("5Hx5D,2S,3H", "takes one card of its rank or one group of cards totalling its value"),
        ("KCxKH,KD", "one card at a time"),
        ("10Dx2S,3H,AC,4S,5D", "capture_extent=single_group"),   # two groups of 5 (5D alone)
        ("7Cx3H,4S,AC,2S,5D", "capture_extent=single_group"),    # nothing adds to 7 that way
        ("KCxJD", "only by rank"),
        ("5H+2S=7", "there is no building in kontsina"),
    ],
)
def test_illegal_captures_are_rejected_with_a_reason(text, why):
    s = state(["KC 5H 7C 10D", "KS 9C 3D JH"], TABLE)
    m = Move.parse(text)
    assert not s.is_legal(m) and why in s.explain(m)
    before = s.to_position()
    with pytest.raises(IllegalMoveError):
        s.push(m)
    assert s.to_position() == before


def test_combine_match_and_sum_allows_one_of_each():
    s = state(["KC 5H 7C 10D", "KS 9C 3D JH"], TABLE, options={"combine_match_and_sum": True})
    legal = notations(s)
    assert {"5Hx5D", "5Hx2S,3H", "5HxAC,4S", "5Hx2S,3H,5D", "5HxAC,4S,5D"} <= legal
    assert "5HxAC,2S,3H,4S,5D" not in legal     # never two sum groups
    assert "KCxKH,KD" not in legal              # never two matching cards
    assert "7CxAC,2S,3H,4S" not in legal


def test_faces_capturable_false_leaves_faces_until_the_leftovers():
    s = state(["KC 5H", "9C 3D"], "KH 2S 3H", options={"faces_capturable": False},
              last_capturer=1)
    assert notations(s) == {"KC", "5H", "5Hx2S,3H"}
    s = state(["KC", "9C"], "KH 2S 7D", options={"faces_capturable": False}, last_capturer=1)
    s.push("KC")
    s.push("9Cx2S,7D")
    p = s.to_position()
    assert s.is_over and {parse_card("KC"), parse_card("KH")} <= set(p.piles[1])


def test_capture_is_never_compulsory_and_there_are_no_sweeps():
    s = state(["5H 9S", "9C 3D"], "5D", last_capturer=None)
    assert {"5H", "5Hx5D"} <= notations(s)
    s.push("5Hx5D")                     # clears the table
    p = s.to_position()
    assert p.loose == 0 and p.sweep_order == () and p.last_capturer == 0
    assert s.hand_score().categories(0)["sweeps"] == 0


def test_leftovers_to_the_last_capturer():
    s = state(["5C 9H", "QC 4D"], "2S 3H 4S 6D QD", last_capturer=1, rest_to=None)
    for m in ("5Cx2S,3H", "QCxQD", "9H", "4Dx4S"):
        s.push(m)
    p = s.to_position()
    assert s.is_over and p.last_capturer == 1
    assert {parse_card("9H"), parse_card("6D")} <= set(p.piles[1])


# -- scoring (AMB-40) ------------------------------------------------------------------------------
def test_scoring_values_and_order():
    r = rules(KO)
    piles = [cards("2C 3C 4C 5C 6C 7C 8C 9S 9H 9D"), cards("10D AC")]
    hs = score_hand(r, piles, [], last_team=0)
    assert hs.events == (("cards", 0, 2), ("clubs", 0, 2), ("good_two", 0, 2), ("good_ten", 1, 1))
    assert hs.totals() == [6, 1]
    # AMB-40 option: the Good 2 and the Good 10 swapped
    swapped = score_hand(rules(KO, good_two_points=1, good_ten_points=2), piles, [], last_team=0)
    assert swapped.totals() == [5, 2]
    # no sistan, spades, aces or sweeps in Kontsina
    assert score_hand(r, [cards("AS 2S 10S"), cards("3C")], [0], last_team=0).totals() == [2, 2]


def test_cards_tie_at_26_scores_nothing():
    r = rules(KO)
    deck = list(range(52))
    hs = score_hand(r, [deck[:26], deck[26:]], [], last_team=0)
    assert hs.categories(0)["cards"] == hs.categories(1)["cards"] == 0
    assert sum(hs.totals()) == 5


# -- the match (AMB-41) ----------------------------------------------------------------------------
def _hand(a: int, b: int) -> HandScore:
    return HandScore(2, (("cards", 0, a), ("clubs", 1, b)))


def test_the_hand_winner_gains_one_hand_won():
    r = rules(KO)
    assert tally_winner(r, [2, 1], _hand(5, 2)) == ([3, 1], None)
    assert tally_winner(r, [2, 1], _hand(2, 5)) == ([2, 2], None)
    assert tally_winner(r, [2, 1], _hand(2, 2)) == ([2, 1], None)   # (a tie wins nothing)


def test_six_hands_then_more_hands_won_else_two_more():
    r = rules(KO)
    assert final_winners(r, [5, 0], 5) == ()           # not before six hands
    assert final_winners(r, [4, 2], 6) == (0,)
    assert final_winners(r, [3, 3], 6) == ()           # equal: two more hands
    assert final_winners(r, [4, 3], 7) == ()           # (decided after the pair only)
    assert final_winners(r, [3, 5], 8) == (1,)
    assert final_winners(r, [4, 4], 8) == ()
    assert final_winners(rules(KO, match_hands=2), [2, 0], 2) == (0,)
    assert final_winners(rules(KO, final_tie="shared"), [3, 3], 6) == (0, 1)


def test_a_match_in_a_game():
    g = Game(KO, seed=7, match_hands=2)
    while not g.is_over:    # (a hand where nobody captures is won by nobody)
        moves = g.legal_moves()
        caps = [m for m in moves if m.kind == MoveKind.CAPTURE]
        g.push(caps[0] if caps else moves[0])
    assert g.hands_played >= 2 and g.hands_played % 2 == 0
    won = [0, 0]
    for hs in g.hand_scores:
        t = hs.totals()
        won[t.index(max(t))] += t[0] != t[1]
    assert g.scores == won and g.winner == won.index(max(won)) and won[0] != won[1]
    assert json.loads(json.dumps(g.log)) == g.log and Game.replay(g.log).scores == g.scores


def test_the_last_hand_of_a_game_decides():
    p = make_position(["9C", "KH"], "9D", system=KO, scores=[1, 0], last_capturer=1,
                      options={"match_hands": 2}, rest_to=0)  # fmt: skip
    g = Game.from_position(p, hand=1)
    g.push("9Cx9D")
    g.push("KH")
    assert g.is_over and g.scores == [2, 0] and g.winner == 0
    p = make_position(["9C", "KH"], "9D", system=KO, scores=[0, 1], last_capturer=1,
                      options={"match_hands": 2}, rest_to=0)  # fmt: skip
    g = Game.from_position(p, hand=1)
    g.push("9Cx9D")
    g.push("KH")
    assert not g.is_over and g.scores == [1, 1] and g.hands_played == 2


# -- CLI -------------------------------------------------------------------------------------------
def test_cli_simulate_500_games():
    from cassino.cli import cli

    n = "500" if cassino.IMPLEMENTATION == "core" else "30"
    out = CliRunner().invoke(cli, ["simulate", "--system", KO, "--games", n, "--seed", "1",
                                   "--workers", "1"])  # fmt: skip
    assert out.exit_code == 0, out.output
    assert f"kontsina: {n} games" in out.output and "good_two" in out.output


def test_cli_play_with_piped_input():
    from cassino.cli import cli

    out = CliRunner().invoke(cli, ["play", "--system", KO, "--seed", "3", "--opponent", "greedy"],
                             input="1\n" * 1500)  # fmt: skip
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[0] == "Kontsina, seed 3"
    assert "(hands won, match of 6 hands)" in out.output
    assert "the Good 2 (2♣)" in out.output and "hands won" in out.output
    assert "wins the game" in out.output


def test_move_kinds_are_trails_and_captures_only():
    g = Game(KO, seed=2)
    for _ in range(30):
        moves = g.legal_moves()
        assert all(m.kind in (MoveKind.TRAIL, MoveKind.CAPTURE) for m in moves)
        caps = [m for m in moves if m.kind == MoveKind.CAPTURE]
        g.push(caps[0] if caps else moves[0])
