"""Swedish Kassino (docs/rules.md §3.19; AMB-57, AMB-58).

Royal values (A 1 or 14, a loose ace too; J 11, Q 12, K 13), value matching, no building;
captures of any number of matching cards and sum groups, never compulsory, partial
captures allowed; tabbe (sweep) 1 point, also by the last card of the hand but never by
the leftovers; the last capturer takes the leftovers and scores sistan. Most cards 1, most
spades 2 (ties: nobody), 10D 2, 2S 1, each ace 1. After each hand a total of 16 or more
ends the game: the highest total wins, a tie goes to most spades in that hand, then
another hand (or a shared win with final_tie=shared). The suite runs once on the core and
once with CASSINO_PURE_PYTHON=1.
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

SW = "swedish_kassino"


def state(hands: list[str], table: str, **kw: Any) -> Any:
    return make_state(hands, table, system=SW, **kw)


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


# -- preset and options ----------------------------------------------------------------------
def test_preset_follows_section_3_19():
    r = rules(SW)
    assert SW in cassino.implemented_systems()
    assert (r.card_values, r.match_mode, r.build_kinds, r.capture_extent) == ("royal", "value", "none", "free")
    assert [r.card_value(parse_card(c)) for c in ("AS", "10D", "JC", "QH", "KS")] == [1, 10, 11, 12, 13]
    assert r.second_value(parse_card("AH")) == 14 and r.second_value(parse_card("AH"), on_table=True) == 14
    assert r.second_value(parse_card("10D")) == 0   # (no Buckeye ten)
    assert (r.sweeps, r.sweep_points, r.last_card_sweep) == (True, 1, True)
    assert (r.most_cards_points, r.most_spades_points, r.sistan_points) == (1, 2, 1)
    assert (r.target, r.end_check, r.tie_most_spades, r.final_tie) == (16, "compare_totals", True, "more_hands")
    assert used_categories(r) == (
        "cards", "spades", "big_cassino", "little_cassino", "ace_spades", "ace_clubs",
        "ace_hearts", "ace_diamonds", "sistan", "sweeps",
    )


def test_two_three_and_four_players_deal_as_standard_and_three_four():
    # AMB-58: 4 cards each a deal, 4 on the table; 6, 4 and 3 deals
    assert [rules(SW, players=n).deals_per_hand for n in (2, 3, 4)] == [6, 4, 3]
    for n in (2, 3, 4):
        p = cassino.State.deal(rules(SW, players=n), 0, 5).to_position()
        assert [h.bit_count() for h in p.hands] == [4] * n and p.loose.bit_count() == 4
        assert len(p.stock) == 48 - 4 * n and p.to_move == 1    # left of the dealer leads
        assert p.rules.teams == "individual" and p.rules.num_teams == n


@pytest.mark.parametrize(
    ("options", "pattern"),
    [
        ({"players": 5}, "2 to 4 players"),
        ({"build_kinds": "simple+multiple"}, "no building in Swedish Kassino"),
        ({"card_values": "standard", "match_mode": "rank", "build_max_value": 10}, "card_values=royal"),
        ({"sweeps": False}, "tabbe"),
        ({"teams": "partnership", "players": 4}, "each plays for himself"),
        ({"end_check": "ordered_tally"}, "highest total"),
        ({"game_end": "each_deals_twice"}, "needs game_end=target"),
        ({"most_spades_points": -1}, "most_spades_points must be between 0 and 100"),
        ({"sistan_points": 101}, "sistan_points must be between 0 and 100"),
        ({"tie_most_spades": "yes"}, "must be true or false"),
        ({"final_tie": "coin"}, "final_tie must be one of"),
    ],
)
def test_bad_swedish_options_raise(options, pattern):
    with pytest.raises(RulesError, match=pattern):
        rules(SW, **options)


def test_swedish_parameters_elsewhere():
    with pytest.raises(RulesError, match=r"tie_most_spades .* needs end_check=compare_totals"):
        rules("cassino_standard", tie_most_spades=True)
    with pytest.raises(RulesError, match="final_tie applies only"):
        rules("cassino_standard", final_tie="shared")
    with pytest.raises(RulesError, match=r"all_eleven .* is for systems of 11 points"):
        rules(SW, all_eleven="bonus")
    # sistan and most-spades points are ordinary scoring parameters elsewhere
    assert rules("cassino_standard", sistan_points=1).sistan_points == 1


def test_options_that_apply():
    r = rules(SW, players=3, final_tie="shared", most_spades_points=1, target=21)
    assert r.options() == {"players": 3, "final_tie": "shared", "most_spades_points": 1, "target": 21}


# -- captures ----------------------------------------------------------------------------------
def test_royal_values_and_free_multi_group_captures_exactly():
    s = state(["AS KD QC 5H", "2C 3C 4C 6C"], "AH 10C 4D 3S JD KS")
    assert notations(s) == {
        "AS", "ASxAH", "ASxAH,3S,10C", "ASx4D,10C", "ASxAH,4D,10C", "ASx3S,JD", "ASxAH,3S,JD",
        "ASx3S,4D,10C,JD", "ASxAH,3S,4D,10C,JD", "ASxAH,KS", "ASxAH,4D,10C,KS",
        "ASxAH,3S,JD,KS", "ASxAH,3S,4D,10C,JD,KS",
        "5H", "5HxAH,4D",
        "QC", "QCxAH,JD",
        "KD", "KDx3S,10C", "KDxKS", "KDx3S,10C,KS",
    }


def test_no_building_and_the_reason():
    s = state(["5H 9C", "2C 3C"], "4D 3S")
    assert all(m.kind in (MoveKind.TRAIL, MoveKind.CAPTURE) for m in s.legal_moves())
    m = Move.parse("5H+4D=9")
    assert not s.is_legal(m)
    assert s.explain(m) == "there is no building in swedish_kassino: capture or trail"
    with pytest.raises(IllegalMoveError):
        s.push(m)


def test_capture_is_never_compulsory_and_partial_captures_are_allowed():
    s = state(["7H", "2C"], "7D 7S 3C 4D")
    legal = notations(s)
    assert "7H" in legal                                   # trail beside captures
    assert {"7Hx7D", "7Hx7S", "7Hx3C,4D", "7Hx7S,7D", "7Hx3C,4D,7S,7D", "7Hx3C,4D,7D"} <= legal


# -- tabbe, leftovers, sistan ---------------------------------------------------------------------
def test_tabbe_for_a_capture_that_clears_the_table():
    s = state(["7H 2H", "2C 9C"], "3C 4D", stock="")
    s.push("7Hx3C,4D")
    p = s.to_position()
    assert p.sweep_order == (0,) and p.last_capturer == 0
    assert s.hand_score().categories(0)["sweeps"] == 1


def test_last_card_tabbe_counts_but_the_leftover_collection_does_not():
    # seat 1 plays the last card and clears the table: a tabbe
    s = state(["5H", "9C"], "4D", last_capturer=0)
    s.push("5H")
    s.push("9Cx4D,5H")
    assert s.is_over and s.to_position().sweep_order == (1,)
    hs = s.hand_score()
    assert hs.categories(1)["sweeps"] == 1 and hs.categories(1)["sistan"] == 1
    # the last card trails: the leftovers go to the last capturer, with no tabbe
    s = state(["3H", "9C"], "9D 3S", last_capturer=1)
    s.push("3Hx3S")     # leaves the 9D
    s.push("9C")        # (9Cx9D would be a tabbe; trailing is allowed)
    p = s.to_position()
    assert s.is_over and p.sweep_order == () and p.last_capturer == 0
    assert parse_card("9C") in p.piles[0] and parse_card("9D") in p.piles[0]
    hs = s.hand_score()
    assert hs.categories(0)["sistan"] == 1 and hs.categories(1)["sistan"] == 0
    assert hs.categories(0)["sweeps"] == 0


def test_sistan_only_at_the_end_of_the_hand_and_only_for_a_capture():
    s = state(["5H 6S", "9C 2D"], "3S 9D", last_capturer=1)
    assert s.hand_score().categories(1)["sistan"] == 0      # not while the hand goes on
    s.push("5H")
    s.push("9Cx9D")
    s.push("6S")
    s.push("2D")
    assert s.is_over and s.hand_score().categories(1)["sistan"] == 1
    # nobody captured in the hand: no sistan, the table is set aside
    s = state(["5H", "9C"], "3S 9D", rest_to=None)
    s.push("5H")
    s.push("9C")
    p = s.to_position()
    assert s.is_over and p.discard and sum(s.hand_score().categories(t)["sistan"] for t in (0, 1)) == 0


def test_sistan_in_three_players_goes_to_the_last_capturer():
    s = state(["5H", "9C", "2D"], "3S 9D", dealer=2, last_capturer=2, piles=["", "", ""], rest_to=0)
    s.push("5H")
    s.push("9Cx9D")
    s.push("2D")
    hs = s.hand_score()
    assert [hs.categories(t)["sistan"] for t in range(3)] == [0, 1, 0]


# -- scoring -------------------------------------------------------------------------------------
def _piles(*texts: str) -> list[list[int]]:
    return [cards(t) for t in texts]


def test_scoring_categories_values_and_tally_order():
    r = rules(SW)
    piles = _piles("10D 2S AS AH 3S 4S 5S", "AC AD 9H")
    hs = score_hand(r, piles, [1, 0, 1], last_team=0)
    assert hs.events == (
        ("cards", 0, 1), ("spades", 0, 2), ("big_cassino", 0, 2), ("little_cassino", 0, 1),
        ("ace_spades", 0, 1), ("ace_clubs", 1, 1), ("ace_hearts", 0, 1), ("ace_diamonds", 1, 1),
        ("sistan", 0, 1), ("sweeps", 1, 1), ("sweeps", 0, 1), ("sweeps", 1, 1),
    )
    assert hs.totals() == [10, 4]
    assert rules(SW, most_spades_points=1).most_spades_points == 1
    assert score_hand(rules(SW, most_spades_points=3), piles, [], None).categories(0)["spades"] == 3


def test_ties_for_most_cards_or_spades_score_nothing():
    r = rules(SW, players=3)
    # seats 0 and 1 lead with 3 cards (2 spades each): nobody scores cards or spades
    hs = score_hand(r, _piles("2S 3S 9H", "4S 5S 9D", "6H"), [], last_team=2)
    assert [hs.categories(t)["cards"] for t in range(3)] == [0, 0, 0]
    assert [hs.categories(t)["spades"] for t in range(3)] == [0, 0, 0]
    assert hs.totals() == [1, 0, 1]     # 2S to seat 0, sistan to seat 2


def test_a_whole_hand_gives_every_point():
    g = Game(SW, seed=4)
    while g.hands_played == 0:
        g.push(g.legal_moves()[-1])
    hs = g.hand_scores[0]
    # cards 1, spades 2 (13 spades never tie between two), 10D 2, 2S 1, four aces: 10, or 9
    # at 26-26 cards; plus one sistan and the tabbes
    base = sum(p for c, _, p in hs.events if c not in ("sistan", "sweeps"))
    tied = [len(p) for p in g.state.to_position().piles] == [26, 26]
    assert base == 10 - tied
    assert [c for c, _, _ in hs.events].count("sistan") == 1


# -- game end (AMB-57) ------------------------------------------------------------------------------
def _hand(events: list[tuple[str, int, int]], n: int = 2) -> HandScore:
    return HandScore(n, tuple(events))


def test_no_winner_below_sixteen_then_the_highest_total_wins():
    r = rules(SW)
    assert tally_winner(r, [10, 12], _hand([("cards", 0, 5)]), spades=[7, 6]) == ([15, 12], None)
    # both pass 16: the higher total wins, not the first to reach it
    assert tally_winner(r, [15, 14], _hand([("cards", 0, 1), ("spades", 1, 3)]), spades=[6, 7]) == (
        [16, 17], 1)


def test_a_tie_at_the_top_goes_to_most_spades_in_the_last_hand():
    r = rules(SW)
    assert tally_winner(r, [15, 15], _hand([("cards", 0, 1), ("aces", 1, 1)]), spades=[5, 8]) == (
        [16, 16], 1)
    # still tied: another hand (Default), no winners
    assert tally_winner(r, [15, 15], _hand([("cards", 0, 1), ("aces", 1, 1)]), spades=[6, 6])[1] is None
    assert final_winners(r, [16, 16], 3, spades=[6, 6]) == ()
    # the spade tie-break applies only among the leaders
    r3 = rules(SW, players=3)
    assert tally_winner(r3, [16, 16, 15], _hand([], 3), spades=[4, 5, 9])[1] == 1


def test_final_tie_shared_is_a_shared_win():
    r = rules(SW, final_tie="shared")
    assert final_winners(r, [16, 16], 3, spades=[6, 6]) == (0, 1)
    assert final_winners(r, [17, 16], 3, spades=[6, 7]) == (0,)
    assert final_winners(r, [15, 15], 3, spades=[6, 6]) == ()


def _last_hand(scores: list[int], **options: Any) -> Any:
    """A one-card last deal of a Swedish hand: seat 0 takes the 9D, then seat 1 trails."""
    return make_position(["9C", "KH"], "9D", system=SW, scores=scores, options=options,
                         rest_to=None, last_capturer=1)


def _hand_points(**options: Any) -> tuple[list[int], list[int]]:
    s = cassino.State.from_position(_last_hand([0, 0], **options))
    s.push("9Cx9D")
    s.push("KH")
    p = s.to_position()
    return s.hand_score().totals(), [sum(1 for c in x if c % 4 == 0) for x in p.piles]


def test_game_ends_at_sixteen_and_plays_on_below():
    pts, _ = _hand_points()
    g = Game.from_position(_last_hand([16 - pts[0], 0]))
    g.push("9Cx9D")
    g.push("KH")
    assert g.is_over and g.winner == 0 and g.scores[0] == 16
    g = Game.from_position(_last_hand([15 - pts[0], 0]))
    g.push("9Cx9D")
    g.push("KH")
    assert not g.is_over and g.hands_played == 1


def test_game_tie_broken_by_spades_in_a_game():
    pts, spades = _hand_points()
    assert spades[0] != spades[1]
    more = 0 if spades[0] > spades[1] else 1
    top = 20
    scores = [top - pts[0], top - pts[1]]
    g = Game.from_position(_last_hand(scores))
    g.push("9Cx9D")
    g.push("KH")
    assert g.scores == [top, top] and g.is_over and g.winner == more


def test_game_tie_without_spades_plays_again_or_is_shared():
    # three players; seats 0 and 1 took 6 spades each in the hand and tie at the top
    def pos(scores: list[int], tie: str) -> Any:
        return make_position(["9C", "KH", "2D"], "9D", system=SW, scores=scores, last_capturer=1,
                             piles=["AS 2S 3S 4S 5S 6S", "8S 9S 10S JS QS KS", "7S"], rest_to=2,
                             options={"final_tie": tie})

    s = cassino.State.from_position(pos([0, 0, 0], "more_hands"))
    for m in ("9Cx9D", "KH", "2D"):
        s.push(m)
    pts = s.hand_score().totals()
    for tie, over in (("more_hands", False), ("shared", True)):
        g = Game.from_position(pos([20 - pts[0], 20 - pts[1], 0], tie))
        for m in ("9Cx9D", "KH", "2D"):
            g.push(m)
        assert g.scores[:2] == [20, 20] and g.scores[2] < 20 and g.is_over == over
        if over:
            assert g.winner is None and g.winners == (0, 1)
        else:
            assert g.hands_played == 1 and g.state.to_position().loose.bit_count() == 4


# -- bots, CLI -------------------------------------------------------------------------------------
def test_cli_simulate_500_games():
    from cassino.cli import cli

    # (the reference's generator for multi-valued cards is slow: 10 games without the core)
    n = "500" if cassino.IMPLEMENTATION == "core" else "10"
    out = CliRunner().invoke(cli, ["simulate", "--system", SW, "--games", n, "--seed", "1",
                                   "--workers", "1"])  # fmt: skip
    assert out.exit_code == 0, out.output
    assert f"swedish_kassino: {n} games" in out.output and "sistan" in out.output


def test_cli_play_with_piped_input():
    from cassino.cli import cli

    out = CliRunner().invoke(cli, ["play", "--system", SW, "--seed", "3", "--opponent", "greedy"],
                             input="1\n" * 400)  # fmt: skip
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[0].startswith("Swedish Kassino, seed 3")
    assert "(target 16)" in out.output and "sistan (last capture)" in out.output
    assert "tabbe (sweeps)" in out.output and "wins the game" in out.output


def test_game_log_is_json_and_replays():
    g = Game(SW, seed=9, players=3, target=8)
    while not g.is_over:
        g.push(g.legal_moves()[-1])
    assert json.loads(json.dumps(g.log)) == g.log
    again = Game.replay(g.log)
    assert again.winners == g.winners and again.scores == g.scores and max(g.scores) >= 8
