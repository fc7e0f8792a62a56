"""Finnish Kasino (docs/rules.md §3.21; AMB-52, AMB-53, AMB-54, AMB-58).

Swedish play (no building, free multi-group captures, never compulsory) with two value
tables: on the table A 1, 2S 2, 10D 10, J 11, Q 12, K 13; from hand A 14, 2S 15, 10D 16, the
rest as on the table. A capture compares the hand value with table values, so a hand ace
takes K+A or 10+4 but never a lone ace (AMB-52; rank_pairing_always lets identical ranks
pair). 10D 2, 2S 1 and each ace 1 are scored when captured (also as leftovers), and
reaching 16 with them wins at once, mid-hand. Mokki (sweep) 1: cancelled at the end of the
hand, none in the last deal, none once a running score is 10 or more (AMB-54). No Sistan
(AMB-53). End of hand: most spades 2 (exactly two tied: 1 each), most cards 1, Mokki; the
first to reach 16 wins. The suite runs once on the core and once with CASSINO_PURE_PYTHON=1.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

import cassino
from cassino import Game, Move, MoveKind, Position, rules
from cassino.cards import parse_card
from cassino.errors import IllegalMoveError, RulesError
from cassino.scoring import HandScore, immediate_points, score_hand, tally_winner, used_categories
from conftest import make_position, make_state, moves_of, notations

FI = "finnish_kasino"
# a stock of one more deal for two players, holding every point card not named elsewhere
STOCK = "AD AC 2S 10D 5C 6C 7C 8C"


def state(hands: list[str], table: str, **kw: Any) -> Any:
    return make_state(hands, table, system=FI, **kw)


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def _piles(*texts: str) -> list[list[int]]:
    return [cards(t) for t in texts]


# -- preset and options ----------------------------------------------------------------------
def test_preset_follows_section_3_21():
    r = rules(FI)
    assert FI in cassino.implemented_systems()
    assert (r.card_values, r.match_mode, r.build_kinds, r.capture_extent) == ("finnish", "value", "none", "free")
    table = [r.card_value(parse_card(c)) for c in ("AS", "2S", "2H", "10D", "10C", "JC", "QH", "KS")]
    hand = [r.hand_value(parse_card(c)) for c in ("AS", "2S", "2H", "10D", "10C", "JC", "QH", "KS")]
    assert table == [1, 2, 2, 10, 10, 11, 12, 13]
    assert hand == [14, 15, 2, 16, 10, 11, 12, 13]
    assert not r.multi_valued and r.second_value(parse_card("AH")) == 0   # one value each
    assert (r.sweeps, r.sweep_points, r.mokki_cutoff, r.mokki_cutoff_check, r.mokki_first) == (
        True, 1, 10, "capture", False)
    assert (r.most_cards_points, r.most_spades_points, r.sistan_points, r.most_spades_tie) == (
        1, 2, 0, "split_two")
    assert (r.target, r.end_check, r.sudden_death, r.rank_pairing_always) == (
        16, "ordered_tally", "point_cards_instant", False)
    assert "sistan" not in used_categories(r) and "sweeps" in used_categories(r)
    # the other systems play a card at its table value
    assert rules("swedish_kassino").hand_value(parse_card("AS")) == 1


def test_two_three_and_four_players_deal_as_standard_and_three_four():
    # AMB-58: 4 cards each a deal, 4 on the table; 6, 4 and 3 deals, left of the dealer leads
    assert [rules(FI, players=n).deals_per_hand for n in (2, 3, 4)] == [6, 4, 3]
    for n in (2, 3, 4):
        p = cassino.State.deal(rules(FI, players=n), 0, 5).to_position()
        assert [h.bit_count() for h in p.hands] == [4] * n and p.loose.bit_count() == 4
        assert len(p.stock) == 48 - 4 * n and p.to_move == 1
        assert p.rules.num_teams == n


@pytest.mark.parametrize(
    ("options", "pattern"),
    [
        ({"players": 5}, "2 to 4 players"),
        ({"build_kinds": "simple+multiple"}, "no building in Finnish Kasino"),
        ({"card_values": "royal"}, "needs card_values=finnish"),
        ({"sweeps": False}, "Mokki"),
        ({"teams": "partnership", "players": 4}, "each plays for himself"),
        ({"end_check": "compare_totals"}, "first player to reach the target"),
        ({"sudden_death": "none"}, "score when captured"),
        ({"mokki_cutoff": -1}, "mokki_cutoff must be between 0 and 1000"),
        ({"mokki_cutoff_check": "sometimes"}, "mokki_cutoff_check must be one of"),
        ({"mokki_cutoff": 0, "mokki_cutoff_check": "hand_end"}, "applies only with a mokki_cutoff"),
        ({"most_spades_tie": "all"}, "most_spades_tie must be one of"),
        ({"rank_pairing_always": 1}, "must be true or false"),
        ({"count_out": True}, "count_out"),
    ],
)
def test_bad_finnish_options_raise(options, pattern):
    with pytest.raises(RulesError, match=pattern):
        rules(FI, **options)


@pytest.mark.parametrize(
    ("system", "options"),
    [
        ("swedish_kassino", {"rank_pairing_always": True}),
        ("swedish_kassino", {"mokki_cutoff": 10}),
        ("cassino_standard", {"mokki_first": True}),
        ("cassino_royal", {"card_values": "finnish"}),
    ],
)
def test_finnish_parameters_elsewhere_raise(system, options):
    with pytest.raises(RulesError, match="Finnish Kasino"):
        rules(system, **options)


def test_options_that_apply():
    r = rules(FI, players=3, rank_pairing_always=True, sistan_points=1,
              mokki_cutoff_check="hand_end", mokki_first=True)  # fmt: skip
    assert r.options() == {
        "players": 3, "rank_pairing_always": True, "sistan_points": 1,
        "mokki_cutoff_check": "hand_end", "mokki_first": True,
    }
    p = make_position(["5H", "9C"], "4D", system=FI, options=r.options() | {"players": 2})
    assert Position.from_text(p.to_text()) == p
    assert "rank_pairing_always=true" in p.to_text()


# -- captures (AMB-52) ---------------------------------------------------------------------------
def test_hand_values_take_groups_of_table_values_exactly():
    s = state(["AS 2S 10D KC", "2C 9C"], "AH KD 10C 4D 3S")
    assert moves_of(s, "AS") == {
        "AS", "ASxAH,KD", "ASx4D,10C", "ASxAH,3S,10C", "ASxAH,4D,10C,KD",
    }
    assert moves_of(s, "2S") == {"2S", "2SxAH,4D,10C"}        # 15
    assert moves_of(s, "10D") == {"10D", "10Dx3S,KD"}          # 16
    assert moves_of(s, "KC") == {"KC", "KCxKD", "KCx3S,10C", "KCx3S,10C,KD"}


def test_a_hand_ace_never_takes_a_lone_table_ace():
    s = state(["AS 7H", "2C 9C"], "AH 6D")
    assert moves_of(s, "AS") == {"AS"}
    m = Move.parse("ASxAH")
    assert not s.is_legal(m)
    assert "does not take a lone A (AMB-52" in s.explain(m)
    with pytest.raises(IllegalMoveError):
        s.push(m)
    # the table ace counts 1: 7H takes AH+6D
    assert "7HxAH,6D" in notations(s)


def test_table_two_of_spades_and_ten_of_diamonds_count_at_table_values():
    s = state(["2H 10H", "2C 9C"], "2S 10D")
    assert moves_of(s, "2H") == {"2H", "2Hx2S"}
    assert moves_of(s, "10H") == {"10H", "10Hx10D"}
    # from hand 2S is 15 and 10D 16: neither takes the other 2 or 10 alone
    s = state(["2S 10D", "2C 9C"], "2H 10C 5D 6H")
    assert moves_of(s, "2S") == {"2S", "2Sx5D,10C"}
    assert moves_of(s, "10D") == {"10D", "10Dx6H,10C"}


def test_rank_pairing_always_option():
    s = state(["AS 2S 10D 2D", "2C 9C"], "AH KD 10C 4D 2H", options={"rank_pairing_always": True})
    assert moves_of(s, "AS") == {"AS", "ASxAH", "ASx4D,10C", "ASxAH,KD", "ASxAH,4D,10C", "ASxAH,4D,10C,KD"}
    assert moves_of(s, "2S") == {"2S", "2Sx2H", "2Sx2H,KD", "2SxAH,4D,10C", "2SxAH,2H,4D,10C",
                                 "2SxAH,2H,4D,10C,KD"}  # fmt: skip
    assert moves_of(s, "10D") == {"10D", "10Dx10C", "10Dx2H,4D,10C", "10DxAH,2H,KD",
                                  "10DxAH,2H,10C,KD"}  # fmt: skip
    assert moves_of(s, "2D") == {"2D", "2Dx2H"}
    assert s.explain(Move.parse("ASxAH")) is None


def test_no_building_and_captures_are_optional_and_partial():
    s = state(["5H 9C", "2C 3C"], "4D 5S 5D")
    assert all(m.kind in (MoveKind.TRAIL, MoveKind.CAPTURE) for m in s.legal_moves())
    assert s.explain(Move.parse("5H+4D=9")) == "there is no building in finnish_kasino: capture or trail"
    assert {"5H", "5Hx5S", "5Hx5D", "5Hx5S,5D", "9C", "9Cx4D,5S", "9Cx4D,5D"} == notations(s)


# -- immediate points and the game (§3.21 scoring, game end) -------------------------------------
def test_point_cards_score_when_captured_and_count_in_the_game_score():
    p = make_position(["AS 7H", "2C 9C"], "AH 6D KD", system=FI, stock=STOCK, scores=[3, 4])
    s = cassino.State.from_position(p)
    assert immediate_points(p.rules, p.piles, p.sweep_order) == [0, 0]
    g = Game.from_position(p)
    assert g.scores == [3, 4]
    g.push("7HxAH,6D")                      # the table ace: 1 at once
    assert g.scores == [4, 4] and not g.is_over and g.hands_played == 0
    s.push("7HxAH,6D")
    assert s.hand_score().categories(0)["ace_hearts"] == 1


def test_reaching_sixteen_with_a_point_card_wins_at_once_mid_hand():
    p = make_position(["AS 7H", "2C 9C"], "AH 6D KD", system=FI, stock=STOCK, scores=[15, 12])
    g = Game.from_position(p)
    g.push("7HxAH,6D")
    assert g.is_over and g.winner == 0 and g.scores == [16, 12] and g.hands_played == 0
    assert [r["type"] for r in g.log[-3:]] == ["move", "sudden_death", "end"]
    assert g.legal_moves() == []
    again = Game.replay(json.loads(json.dumps(g.log)))
    assert again.winner == 0 and again.scores == [16, 12]
    # one point short: play goes on
    g = Game.from_position(make_position(["AS 7H", "2C 9C"], "AH 6D KD", system=FI, stock=STOCK,
                                         scores=[14, 12]))  # fmt: skip
    g.push("7HxAH,6D")
    assert not g.is_over and g.scores == [15, 12]
    # a position whose start score and point cards already make 16: the game ended before it
    done = make_position(["AS 7H", "2C 9C"], "6D KD", system=FI, stock=STOCK, scores=[15, 0],
                         piles=["AH", ""])  # fmt: skip
    with pytest.raises(IllegalMoveError, match="reach the target"):
        Game.from_position(done)


def _leftover_position(scores: list[int]) -> Position:
    """The last deal: seat 0 (the last capturer) and seat 1 trail, and the leftovers, the
    10D among them, go to seat 0; seat 1 holds every other point card but the 10D (5 points)
    and most spades and cards."""
    return make_position(["5H", "9C"], "10D 3C", system=FI, scores=scores, last_capturer=0,
                         piles=["4H", ""], rest_to=1)  # fmt: skip


def test_leftovers_score_their_point_cards_and_the_first_to_sixteen_wins():
    p = _leftover_position([14, 10])
    assert immediate_points(p.rules, p.piles, p.sweep_order) == [0, 5]
    g = Game.from_position(p)
    g.push("5H")
    g.push("9C")
    hs = g.hand_scores[0]
    # the tally: the point cards first (the leftover 10D: seat 0 reaches 16), then most
    # spades, most cards, Mokki
    assert [e for e in hs.events if e[1] == 0] == [("big_cassino", 0, 2)]
    assert [c for c, t, _ in hs.events if t == 1][-2:] == ["spades", "cards"]
    assert g.is_over and g.winner == 0
    assert g.scores == [16, 10 + 5 + 2 + 1]       # seat 1 passed 16 later in the tally


def test_ordered_tally_order_and_first_to_reach_the_target():
    r = rules(FI)
    piles = _piles("10D 2S AS AH 3S 4S 5S", "AC AD 9H")
    hs = score_hand(r, piles, [1, 0, 0])
    assert hs.events == (
        ("big_cassino", 0, 2), ("little_cassino", 0, 1), ("ace_spades", 0, 1),
        ("ace_clubs", 1, 1), ("ace_hearts", 0, 1), ("ace_diamonds", 1, 1),
        ("spades", 0, 2), ("cards", 0, 1), ("sweeps", 0, 1),
    )
    # spades come before cards: at 13-15, seat 1's spades win before seat 0's cards
    hand = HandScore(2, (("spades", 1, 2), ("cards", 0, 1)))
    assert tally_winner(r, [15, 14], hand) == ([16, 16], 1)
    hand = HandScore(2, (("big_cassino", 0, 2), ("spades", 1, 2)))
    assert tally_winner(r, [14, 14], hand) == ([16, 16], 0)


# -- Mokki (AMB-54) ----------------------------------------------------------------------------------
def _mokki(scores: list[int] | None = None, stock: str = STOCK, **options: Any) -> Any:
    """Seat 0 clears the table (3C, 4D) with its 7H; seat 1's pile holds AS and AH (2
    points), the stock the other point cards."""
    s = state(["7H 2H", "2C 9C"], "3C 4D", stock=stock, scores=scores, options=options)
    s.push("7Hx3C,4D")
    return s


def test_a_mokki_before_the_last_deal_counts():
    s = _mokki([9, 0])
    assert s.to_position().sweep_order == (0,)
    assert s.hand_score().categories(0)["sweeps"] == 1


def test_no_mokki_in_the_last_deal_not_even_by_the_last_card():
    s = _mokki(stock="")
    assert s.to_position().sweep_order == () and s.to_position().last_capturer == 0
    s = state(["5H", "9C"], "4D", last_capturer=0)
    s.push("5H")
    s.push("9Cx4D,5H")
    assert s.is_over and s.to_position().sweep_order == ()
    assert s.hand_score().categories(1)["sweeps"] == 0


@pytest.mark.parametrize(("scores", "counts"), [([9, 7], True), ([10, 0], False), ([0, 8], False)])
def test_no_mokki_once_a_running_score_reaches_ten(scores, counts):
    s = _mokki(scores)
    assert s.to_position().sweep_order == ((0,) if counts else ())


def test_the_cut_off_reads_the_running_score_with_this_capture_point_cards():
    # 9 at the start of the hand, and the ace taken by the Mokki itself makes 10
    s = state(["7H 2H", "2C 9C"], "AH 6D", stock=STOCK, scores=[9, 0])
    s.push("7HxAH,6D")
    assert s.to_position().sweep_order == ()
    # point cards taken earlier in the hand count too: 8 + 2 (the 10D) in seat 0's pile
    s = state(["7H 2H", "2C 9C"], "3C 4D", stock="AD AC 2S 5D 5C 6C 7C 8C", scores=[8, 0],
              piles=["10D", ""])  # fmt: skip
    s.push("7Hx3C,4D")
    assert s.to_position().sweep_order == ()


def test_cut_off_at_the_end_of_the_hand_option():
    r = rules(FI, mokki_cutoff_check="hand_end")
    s = _mokki([9, 0], mokki_cutoff_check="hand_end")
    assert s.to_position().sweep_order == (0,)
    s = _mokki([12, 0], mokki_cutoff_check="hand_end")
    assert s.to_position().sweep_order == (0,)           # logged; voided when scored
    assert s.hand_score().categories(0)["sweeps"] == 0
    piles = _piles("3S 4D 5H", "9C 9D")
    assert score_hand(r, piles, [0], scores=[9, 0]).categories(0)["sweeps"] == 1
    # an ace taken in the hand brings seat 0 to 10 by the end: no Mokki counts
    piles = _piles("AS 4D 5H", "9C 9D")
    assert score_hand(r, piles, [0, 1, 0], scores=[9, 0]).totals() == [1 + 2 + 1, 0]
    assert score_hand(rules(FI), piles, [0, 1, 0], scores=[9, 0]).categories(0)["sweeps"] == 1


def test_mokki_cancellation_at_the_end_of_the_hand():
    r = rules(FI)
    piles = _piles("3S 4D", "9C 9D")
    assert [e for e in score_hand(r, piles, [0, 1]).events if e[0] == "sweeps"] == []
    # two against one: seat 0 keeps its second Mokki
    assert [e for e in score_hand(r, piles, [0, 1, 0]).events if e[0] == "sweeps"] == [("sweeps", 0, 1)]
    r3 = rules(FI, players=3)
    piles3 = _piles("3S", "9C", "9D")
    hs = score_hand(r3, piles3, [0, 1, 0, 2, 1, 0])
    assert [hs.categories(t)["sweeps"] for t in range(3)] == [2, 1, 0]
    hs = score_hand(r3, piles3, [0, 0, 1])       # seat 2 has none: nothing cancels
    assert [hs.categories(t)["sweeps"] for t in range(3)] == [2, 1, 0]


def test_mokki_first_option_tallies_mokkis_before_most_spades():
    piles = _piles("3S 4S 9H", "9C")
    hs = score_hand(rules(FI, mokki_first=True), piles, [1])
    assert [c for c, _, _ in hs.events] == ["sweeps", "spades", "cards"]
    assert tally_winner(rules(FI, mokki_first=True), [15, 15], hs)[1] == 1
    hs = score_hand(rules(FI), piles, [1])
    assert [c for c, _, _ in hs.events] == ["spades", "cards", "sweeps"]
    assert tally_winner(rules(FI), [15, 15], hs)[1] == 0


# -- Sistan (AMB-53) and the other end-of-hand categories -----------------------------------------
def test_no_sistan_by_default_and_sistan_option():
    for options, sistan in (({}, 0), ({"sistan_points": 1}, 1)):
        s = state(["3H", "9C"], "9D 3S", last_capturer=1, rest_to=None, options=options)
        s.push("3Hx3S")
        s.push("9C")
        p = s.to_position()
        assert s.is_over and parse_card("9D") in p.piles[0]     # leftovers to the capturer
        assert s.hand_score().categories(0)["sistan"] == sistan


def test_most_spades_ties_two_split_three_nobody_and_cards_ties_nobody():
    r = rules(FI)
    hs = score_hand(r, _piles("2S 3S 9H", "4S 5S 9D"), [])
    assert [hs.categories(t)["spades"] for t in (0, 1)] == [1, 1]
    assert [hs.categories(t)["cards"] for t in (0, 1)] == [0, 0]
    r3 = rules(FI, players=3)
    hs = score_hand(r3, _piles("3S 9H", "4S 9D", "6H"), [])
    assert [hs.categories(t)["spades"] for t in range(3)] == [1, 1, 0]
    hs = score_hand(r3, _piles("3S 9H", "4S 9D", "5S"), [])
    assert [hs.categories(t)["spades"] for t in range(3)] == [0, 0, 0]
    hs = score_hand(r3, _piles("3S 4S 9H", "5S 9D", "6S"), [])
    assert [hs.categories(t)["spades"] for t in range(3)] == [2, 0, 0]


def test_a_whole_hand_gives_every_point():
    g = Game(FI, seed=4, target=200)
    while g.hands_played == 0:
        g.push(g.legal_moves()[-1])
    hs = g.hand_scores[0]
    point_cards = sum(p for c, _, p in hs.events if c.startswith(("ace_", "big_", "little_")))
    assert point_cards == 7
    spades = sum(p for c, _, p in hs.events if c == "spades")
    assert spades == 2    # one leader (2) or two tied (1 + 1)


# -- bots, CLI -------------------------------------------------------------------------------------
def test_cli_simulate():
    from cassino.cli import cli

    n = "500" if cassino.IMPLEMENTATION == "core" else "20"
    out = CliRunner().invoke(cli, ["simulate", "--system", FI, "--games", n, "--seed", "1",
                                   "--workers", "1"])  # fmt: skip
    assert out.exit_code == 0, out.output
    assert f"finnish_kasino: {n} games" in out.output and "big_cassino" in out.output


def test_cli_play_with_piped_input():
    from cassino.cli import cli

    out = CliRunner().invoke(cli, ["play", "--system", FI, "--seed", "3", "--opponent", "greedy"],
                             input="1\n" * 400)  # fmt: skip
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[0].startswith("Finnish Kasino, seed 3")
    assert "(target 16)" in out.output and "wins the game" in out.output
    assert "Mökki (sweeps, after cancellation)" in out.output     # the hand scoring table


def test_game_log_is_json_and_replays_for_three_and_four_players():
    for n in (3, 4):
        g = Game(FI, seed=9, players=n)
        while not g.is_over:
            g.push(g.legal_moves()[-1])
        assert json.loads(json.dumps(g.log)) == g.log
        again = Game.replay(g.log)
        assert again.winners == g.winners and again.scores == g.scores and max(g.scores) >= 16
