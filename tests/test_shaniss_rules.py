"""Shaniss (docs/rules.md §3.30; AMB-82, AMB-83, AMB-84).

Two players, A 1, 2-10 pip (10 = 10), J Q K by rank only; no building, no sweeps. 4 cards
each then 4 face up to the table, six deals; the dealer's opponent leads. A capture takes
all loose cards of the played card's rank (faces too) or none of them, with any number of
disjoint sum groups (an 8 takes an 8 and 5+3). A player who can capture with any hand card
must capture; he trails only when no card can. Leftovers go to nobody. The player with more
cards scores the difference; the first to 100 wins. The suite runs once on the core and once
with CASSINO_PURE_PYTHON=1.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

import cassino
from cassino import Game, Move, rules
from cassino.cards import parse_card
from cassino.errors import IllegalMoveError, RulesError
from cassino.greedy import card_weights
from cassino.scoring import HandScore, score_hand, tally_winner, used_categories
from conftest import ids, make_position, make_state, notations

SH = "shaniss"


def state(hands: list[str], table: str, **kw: Any) -> Any:
    return make_state(hands, table, system=SH, **kw)


# -- preset and options ----------------------------------------------------------------------
def test_preset_follows_section_3_30():
    r = rules(SH)
    assert SH in cassino.implemented_systems()
    assert (r.players, r.card_values, r.match_mode, r.build_kinds) == (2, "standard", "rank", "none")
    # AMB-82: the 10 counts 10; faces have no value
    assert [r.card_value(parse_card(c)) for c in ("AS", "10D", "JC", "QH", "KS")] == [1, 10, 0, 0, 0]
    assert (r.capture_extent, r.compulsion, r.face_capture) == ("all_matches", "player", "any")
    assert (r.leftovers_to, r.cards_scoring, r.target, r.sweeps) == ("nobody", "difference", 100, False)
    assert used_categories(r) == ("cards",)
    # 4 each, 4 to the table, six deals; the dealer's opponent leads
    p = cassino.State.deal(r, 0, 3).to_position()
    assert [h.bit_count() for h in p.hands] == [4, 4] and p.loose.bit_count() == 4
    assert len(p.stock) == 40 and r.deals_per_hand == 6 and p.to_move == 1


@pytest.mark.parametrize(
    ("options", "pattern"),
    [
        ({"players": 3}, "played by 2 players"),
        ({"build_kinds": "simple+multiple"}, "no building in Shaniss"),
        ({"sweeps": True}, "no sweeps"),
        ({"card_values": "royal", "match_mode": "value"}, "J Q K by rank only"),
        ({"cards_scoring": "most"}, "scores the difference"),
        ({"most_cards_points": 3}, "replaces most_cards_points"),
        ({"compulsion": "lay_match_forced"}, "Diloti rule"),
        ({"compulsion": "sometimes"}, "must be one of"),
    ],
)
def test_bad_shaniss_options_raise(options, pattern):
    with pytest.raises(RulesError, match=pattern):
        rules(SH, **options)


def test_shaniss_parameters_elsewhere():
    with pytest.raises(RulesError, match="two teams"):
        rules("cassino_three_four", cards_scoring="difference", most_cards_points=0)
    with pytest.raises(RulesError, match=r"all_matches.* Diloti rule"):
        rules("cassino_standard", capture_extent="all_matches")   # (with building: Diloti's)
    with pytest.raises(RulesError, match="needs compulsion=lay_match_forced,"):
        rules("diloti", compulsion="player")
    # compulsion, the all-or-none match and leftovers to nobody combine with other systems
    r = rules("kontsina", compulsion="player", leftovers_to="nobody")
    assert (r.compulsion, r.leftovers_to) == ("player", "nobody")


def test_options_of_amb_83():
    r = rules(SH, compulsion="none", capture_extent="free")
    assert r.options() == {"compulsion": "none", "capture_extent": "free"}


# -- captures (AMB-83) -------------------------------------------------------------------------
TABLE = "8H 8S 5D 3C KH KS 6H 2C"


def test_an_eight_takes_all_eights_with_sum_groups():
    s = state(["8C KC 4D", "QH 9S 2D"], TABLE)
    assert notations(s) == {
        # every loose 8 or none, with any disjoint groups of 8 (5+3, 6+2)
        "8Cx8S,8H", "8Cx3C,5D", "8Cx2C,6H", "8Cx2C,3C,5D,6H",
        "8Cx3C,5D,8S,8H", "8Cx2C,6H,8S,8H", "8Cx2C,3C,5D,6H,8S,8H",
        "KCxKS,KH",                         # a face card takes every face card of its rank
    }                                       # (and no trail: a card can capture)


def test_all_or_none_and_compulsion():
    s = state(["8C KC 4D", "QH 9S 2D"], TABLE)
    legal = notations(s)
    assert "8Cx8S,8H" in legal and "KCxKS,KH" in legal
    # never part of the matches
    for text in ("8Cx8H", "8Cx8S,3C,5D", "KCxKH"):
        assert text not in legal
    # the 4D cannot capture: no loose 4, no loose cards totalling 4
    assert not any(t.startswith("4D") for t in legal)
    # trailing is forbidden while any card can capture
    assert not any("x" not in t for t in legal)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("8Cx8H", "every loose card of its rank"),
        ("8Cx8S,3C,5D", "every loose card of its rank"),
        ("KCxKS", "every loose card of its rank"),
        ("4D", "compulsion=player"),
        ("8C", "compulsion=player"),
        ("8C+2C,6H=8", "there is no building in shaniss"),
    ],
)
def test_illegal_moves_are_rejected_with_a_reason(text, why):
    s = state(["8C KC 4D", "QH 9S 2D"], TABLE)
    m = Move.parse(text)
    assert not s.is_legal(m) and why in s.explain(m)
    before = s.to_position()
    with pytest.raises(IllegalMoveError):
        s.push(m)
    assert s.to_position() == before


def test_trail_only_when_no_card_can_capture():
    s = state(["4D 9S", "QH 2D"], "8H KS 6C")
    assert notations(s) == {"4D", "9S"}
    s = state(["4D 9S", "QH 2D"], "8H KS 6C 3D")
    assert notations(s) == {"9Sx3D,6C"}


def test_amb_83_options_optional_capture_and_free_matches():
    s = state(["8C KC 4D", "QH 9S 2D"], TABLE, options={"compulsion": "none", "capture_extent": "free"})
    legal = notations(s)
    assert {"8C", "4D", "KC", "8Cx8H", "8Cx3C,5D,8S", "KCxKH", "KCxKS,KH"} <= legal
    s = state(["8C KC 4D", "QH 9S 2D"], TABLE, options={"compulsion": "none"})
    legal = notations(s)
    assert "4D" in legal and "8Cx8H" not in legal


def test_leftovers_go_to_nobody():
    s = state(["5C 9H", "QC 4D"], "2S 3H 4S 6D QD", last_capturer=1, rest_to=None)
    for m in ("5Cx2S,3H", "QCxQD", "9H", "4Dx4S"):
        s.push(m)
    p = s.to_position()
    assert s.is_over and p.last_capturer == 1
    left = {parse_card("9H"), parse_card("6D")}
    assert not left & set(p.piles[0]) and not left & set(p.piles[1])
    assert left <= set(p.discard)


# -- scoring (AMB-84) ----------------------------------------------------------------------------
def test_the_winner_scores_the_difference():
    r = rules(SH)
    assert score_hand(r, [ids("2C 3C 4C 5C 6C"), ids("10D AC")], []).events == (("cards", 0, 3),)
    assert score_hand(r, [ids("AC"), ids("10D 9D 8D KS")], []).totals() == [0, 3]
    assert score_hand(r, [ids("AC 2D"), ids("10D 9D")], []).totals() == [0, 0]


def test_first_to_100():
    r = rules(SH)
    assert tally_winner(r, [96, 40], HandScore(2, (("cards", 0, 4),))) == ([100, 40], 0)
    assert tally_winner(r, [95, 40], HandScore(2, (("cards", 0, 4),))) == ([99, 40], None)


def test_greedy_weighs_every_card_one_point():
    w = card_weights(rules(SH))
    assert {w[c] for c in range(52)} == {1.0}


def test_a_hand_played_out_conserves_the_cards():
    s = cassino.State.deal(rules(SH), 0, 11)
    while not s.is_over:
        s.push(s.legal_moves()[-1])
    p = s.to_position()
    held = [c for pile in p.piles for c in pile] + list(p.discard)
    assert sorted(held) == list(range(52))
    hs = s.hand_score()
    n0, n1 = len(p.piles[0]), len(p.piles[1])
    assert hs.totals() == [max(n0 - n1, 0), max(n1 - n0, 0)]


def test_a_game_to_100():
    g = Game(SH, seed=5)
    while not g.is_over:
        g.push(g.legal_moves()[0])
    assert max(g.scores) >= 100 and g.winner == g.scores.index(max(g.scores))
    for hs in g.hand_scores:   # only one player scores a hand
        assert min(hs.totals()) == 0
    assert json.loads(json.dumps(g.log)) == g.log and Game.replay(g.log).scores == g.scores


def test_position_scores_carry_into_the_game():
    p = make_position(["9C", "KH"], "9D", system=SH, scores=[99, 0], last_capturer=1, rest_to=0)
    g = Game.from_position(p, hand=3)
    g.push("9Cx9D")
    g.push("KH")
    assert g.is_over and g.winner == 0


# -- CLI -------------------------------------------------------------------------------------------
def test_cli_simulate_500_games():
    from cassino.cli import cli

    n = "500" if cassino.IMPLEMENTATION == "core" else "20"
    out = CliRunner().invoke(cli, ["simulate", "--system", SH, "--games", n, "--seed", "1",
                                   "--workers", "1"])  # fmt: skip
    assert out.exit_code == 0, out.output
    assert f"shaniss: {n} games" in out.output
