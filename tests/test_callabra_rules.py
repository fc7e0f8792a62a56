"""Callabra (docs/rules.md §3.14, AMB-36).

3 cards each and 5 on the table; every card its rank as value (A 1, J 11, Q 12, K 13). A
card takes one table card of its value; two hand cards take one table card of their total
(MoveKind.TWO_CARD, ``5H&6SxJC``). No building, no sums of table cards. The capture that
clears the table ends the game and wins it; otherwise most cards (leftovers to the last
capturer) wins. The suite runs once on the core and once with CASSINO_PURE_PYTHON=1.
"""

from __future__ import annotations

import json
import pickle
import re
from typing import Any

import pytest
from click.testing import CliRunner

import cassino
from cassino import Game, Move, MoveKind, rules
from cassino.cards import parse_card
from cassino.errors import IllegalMoveError, NotationError, PositionError, RulesError
from cassino.greedy import GreedyPlayer
from cassino.players import View
from cassino.position import Position
from conftest import make_position, make_state, notations

CB = "callabra"
CLEARS_SEED_5 = 10   # tables cleared in 200 greedy games of seed 5 (both implementations)


def state(hands: list[str], table: str, **kw: Any) -> Any:
    return make_state(hands, table, system=CB, **kw)


def canon(*texts: str) -> set[str]:
    return {str(Move.parse(t)) for t in texts}


# -- preset and options ----------------------------------------------------------------------
def test_preset_follows_section_3_14():
    r = rules(CB)
    assert (r.hand_size, r.table_cards, r.players, r.build_kinds) == (3, 5, 2, "none")
    assert (r.game_end, r.final_tie, r.deal_rest, r.sweeps) == ("one_hand", "shared", "rotation", False)
    assert [r.card_value(parse_card(c)) for c in ("AS", "10D", "JC", "QH", "KS")] == [1, 10, 11, 12, 13]
    assert not r.multi_valued and r.second_value(0) == 0 and r.two_card_capture
    assert CB in cassino.implemented_systems()
    # 47 stock cards after the first deal: 7 deals of 6 and 5 cards in rotation (2 players)
    assert [rules(CB, players=n).deals_per_hand for n in range(2, 9)] == [8, 6, 4, 4, 3, 3, 2]
    r3 = rules(CB, players=3)
    assert [r3.deal_number(k) for k in (38, 29, 2, 0)] == [1, 2, 5, 6]
    assert r3.stock_ok(2) and not r3.stock_ok(3)


@pytest.mark.parametrize(
    ("options", "pattern"),
    [
        ({"players": 9}, "2 to 8 players"),
        ({"players": 1}, "2 to 8 players"),
        ({"table_cards": 0}, "at least one table card"),
        ({"build_kinds": "simple+multiple"}, "no building"),
        ({"sweeps": True}, "sweeps score nothing"),
        ({"card_values": "royal"}, "J 11, Q 12, K 13"),
        ({"game_end": "target"}, "one hand"),
        ({"deal_rest": "exact"}, "deal_rest=rotation"),
        ({"count_out": True}, "does not apply to callabra"),
        ({"capture_extent": "maximal"}, "does not apply to callabra"),
        ({"players": 8, "hand_size": 6}, "more than the 52"),
    ],
)
def test_bad_callabra_options_raise(options, pattern):
    with pytest.raises(RulesError, match=pattern):
        rules(CB, **options)


@pytest.mark.parametrize(
    ("options", "pattern"),
    [
        ({"deal_rest": "rotation"}, "Callabra deal"),
        ({"card_values": "ranked"}, "Callabra valuation"),
        ({"game_end": "one_hand"}, "Callabra ending"),
        ({"final_tie": "shared"}, "final_tie applies only"),
    ],
)
def test_callabra_parameters_are_refused_elsewhere(options, pattern):
    with pytest.raises(RulesError, match=pattern):
        rules("cassino_standard", **options)


def test_options_that_apply():
    r = rules(CB, players=4, hand_size=4, table_cards=4, first_player="right_of_dealer")
    assert r.deals_per_hand == 3 and r.options()["hand_size"] == 4
    assert rules(CB, final_tie="more_hands").final_tie == "more_hands"


# -- notation --------------------------------------------------------------------------------
def test_two_card_notation_round_trips():
    m = Move.parse("6s&5hxjc")
    assert (m.kind, int(m.kind), m.kind.label) == (MoveKind.TWO_CARD, 7, "two_card")
    assert m.card == parse_card("5H") and m.takes == 1 << parse_card("6S") | 1 << parse_card("JC")
    assert (m.value, m.second_card, m.table_card) == (11, parse_card("6S"), parse_card("JC"))
    assert str(m) == "5H&6SxJC" and repr(m) == "Move('5H&6SxJC')"
    assert Move.parse(str(m)) == m == Move.parse("5H & 6S x JC")
    # a table card of a lower id than the second hand card
    assert str(Move.parse("AS&KDx2C")) == "AS&KDx2C"


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        ("5H&6S", "one table card after x"),
        ("5H&6SxJC,QC", "one table card after x"),
        ("5H&xJC", "two hand cards"),
        ("5H&6S&7DxJC", "two hand cards"),
        ("5H&5HxJC", "names a card twice"),
        ("5H&6Sx6S", "names a card twice"),
        ("5H&JDxJC", "rank is its value"),
        ("5H&6SxZZ", "bad move"),
    ],
)
def test_bad_two_card_notation(text, pattern):
    with pytest.raises(NotationError, match=pattern):
        Move.parse(text)


def test_two_card_move_values_are_checked():
    five, six, jack = (parse_card(c) for c in ("5H", "6S", "JC"))
    with pytest.raises(NotationError, match="lower of the two hand cards"):
        Move(six, MoveKind.TWO_CARD, 1 << five | 1 << jack, 11)
    with pytest.raises(NotationError, match="rank is its value"):
        Move(five, MoveKind.TWO_CARD, 1 << six | 1 << jack, 12)
    with pytest.raises(NotationError, match="no move kind 99"):
        Move(five, 99)


# -- legal moves ---------------------------------------------------------------------------
def test_matches_and_two_card_captures_exactly():
    s = state(["5H 6S 2C", "4D 9C KH"], "JC 7D 5C 8S 3H")
    assert notations(s) == canon(
        "5H", "5Hx5C", "5H&6SxJC", "2C&5Hx7D",
        "6S", "2C&6Sx8S",
        "2C",
    )


def test_no_sums_of_table_cards_and_every_match_separately():
    # 9C may not take 4D+5D; it takes either 9 alone; KH takes a K by value 13
    s = state(["9C KH 3S", "AD 2D 3D"], "4D 5D 9S 9H KS")
    assert notations(s) == canon("3S", "9C", "9Cx9S", "9Cx9H", "KH", "KHxKS")
    # 3 + 9 = 12 takes a queen on the table
    s = state(["9C KH 3S", "AD 2D 3D"], "4D 5D 9S QH KS")
    assert "3S&9CxQH" in notations(s)


def test_two_card_capture_in_both_orders_is_one_move():
    s = state(["AS 4H 5C", "2D 3D 4D"], "5H")
    assert notations(s) == canon("AS", "4H", "5C", "5Cx5H", "AS&4Hx5H")


def test_order_is_canonical():
    s = state(["5H 6S 2C", "4D 9C KH"], "JC 7D 5C 8S 3H")
    moves = s.legal_moves()
    assert moves == sorted(moves) and [m.kind for m in moves if m.card == parse_card("2C")] == [
        MoveKind.TRAIL, MoveKind.TWO_CARD, MoveKind.TWO_CARD,
    ]  # fmt: skip
    assert s.count_moves() == len(moves) == len(list(s.iter_moves(chunk=2)))


# -- applying and rejecting ----------------------------------------------------------------
def test_two_card_capture_takes_three_cards_and_pops():
    s = state(["5H 6S 2C", "4D 9C KH"], "JC 7D 3H", rest_to=1)
    before = s.to_position()
    pile0 = len(before.piles[0])
    m = s.push("5H&6SxJC")
    assert m == Move.parse("5H&6SxJC")
    p = s.to_position()
    assert p.hands[0] == 1 << parse_card("2C") and p.to_move == 1
    assert p.loose == 1 << parse_card("7D") | 1 << parse_card("3H")
    assert p.piles[0][pile0:] == tuple(parse_card(c) for c in ("6S", "JC", "5H"))
    assert p.last_capturer == 0 and not s.is_over
    assert Position.from_json(s.to_json()) == p == Position.from_text(p.to_text())
    t = pickle.loads(pickle.dumps(s))
    assert t == s and t.history == [m]
    assert s.pop() == m and s.to_position() == before


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("5H&6Sx8S", "5H and 6S add up to 11, not the 8S's 8"),
        ("5H&6SxKC", "KC is not on the table"),
        ("5H&3Dx8S", "3D is not in the hand of seat 0"),
        ("5Hx8S", "the 5H (5) cannot take the 8S (8): a card takes only a table card of the same value"),
        ("2Cx5C,8S", "a capture in callabra takes exactly one table card, not 2"),
        ("5H+3H=8", "there is no building in callabra: trail, match one table card or play two cards"),
        ("4D", "4D is not in the hand of seat 0"),
    ],
)
def test_illegal_moves_are_rejected_with_a_reason(text, why):
    s = state(["5H 6S 2C", "4D 9C KH"], "JC 7D 5C 8S 3H")
    before, ply = s.to_position(), s.ply
    m = Move.parse(text)
    assert s.explain(m) == why and not s.is_legal(m)
    with pytest.raises(IllegalMoveError, match=re.escape(why)):
        s.push(text)
    with pytest.raises(IllegalMoveError):
        s.push(m)
    assert s.to_position() == before and s.ply == ply


def test_two_card_capture_is_not_a_move_elsewhere():
    s = make_state(["5H 6S", "2D 3D"], "JC 9C")
    m = Move.parse("5H&6SxJC")
    assert s.explain(m) == "two-card captures are a callabra move, not one of cassino_standard"
    with pytest.raises(IllegalMoveError):
        s.push(m)


# -- the clear ends the game -----------------------------------------------------------------
@pytest.mark.parametrize("move", ["5H&6SxJC", "JHxJC"])
def test_clearing_the_table_ends_the_game(move):
    s = state(["5H 6S JH", "4D 9C KH"], "JC", stock="2S 3S 4S 5S 6D")
    s.push(move)
    assert s.is_over and s.legal_moves() == [] and s.count_moves() == 0
    assert list(s.iter_moves()) == [] and s.num_moves() == 0 and s.perft(3) == 1
    p = s.to_position()
    assert p.is_over and p.sweep_order == (0,) and p.hands[1] and len(p.stock) == 5
    assert s.hand_score().events == (("sweeps", 0, 1),) and s.hand_score().totals() == [1, 0]
    assert s.explain(Move.parse("9C")) == "the table was cleared: the game is over"
    with pytest.raises(IllegalMoveError, match="the table was cleared"):
        s.push("9C")
    again = cassino.State.from_json(s.to_json())
    assert again.is_over and again.legal_moves() == []
    s.pop()
    assert not s.is_over and s.to_position().sweep_order == ()


def test_a_clear_with_the_last_card_of_a_deal_deals_no_more():
    s = state(["5H", "4D"], "5C 3H", to_move=1, stock="2S 3S 4S 5S 6D", last_capturer=1)
    s.push("4D")
    s.push("5Hx5C")       # the deal's last card, but 3H and 4D stay: the next deal comes
    assert not s.is_over and s.to_position().stock == ()
    t = state(["5H", ""], "5C", stock="2S 3S 4S 5S 6D", last_capturer=1)
    t.push("5Hx5C")       # the clear with the deal's last card: the game is over, no deal
    p = t.to_position()
    assert t.is_over and p.is_over and not any(p.hands) and len(p.stock) == 5
    assert p.sweep_order == (0,) and t.legal_moves() == []
    assert cassino.State.from_position(Position.from_text(p.to_text())) == t
    t.pop()
    assert t.to_position().stock and not t.is_over


def test_a_cleared_position_must_have_an_empty_table():
    with pytest.raises(PositionError, match="records a clear, but cards are on the table"):
        make_position(["5H", "4D"], "JC", system=CB, sweep_order=[0])


def test_clear_in_a_game_scores_one_point_and_ends():
    p = make_position(["5H 6S 2C", "4D 9C KH"], "JC", system=CB, stock="2S 3S 4S 5S 6D")
    g = Game.from_position(p)
    g.push("5H&6SxJC")
    assert g.is_over and g.winner == 0 and g.winners == (0,) and g.scores == [1, 0]
    assert g.log[-2]["type"] == "score" and g.log[-1] == {"type": "end", "winner": 0}
    assert g.legal_moves() == []
    assert Game.replay(g.log).scores == [1, 0]


# -- the end by exhaustion -----------------------------------------------------------------
def test_most_cards_wins_with_leftovers_to_the_last_capturer():
    s = state(["9C", "AD"], "4D 9S 5S", piles=["2H 3H", "4H"], last_capturer=1, rest_to=None)
    sizes = [len(x) for x in s.to_position().piles]
    s.push("9Cx9S")       # seat 0 takes 2 cards and is last capturer
    s.push("AD")          # the hand ends: AD, 4D, 5S go to seat 0
    assert s.is_over
    p = s.to_position()
    assert [len(x) for x in p.piles] == [sizes[0] + 5, sizes[1]] and p.sweep_order == ()
    best = max(len(x) for x in p.piles)
    assert s.hand_score().totals() == [int(len(x) == best) for x in p.piles]


def test_a_tie_for_most_cards_is_a_shared_win():
    p = make_position(["9C", "AD"], "4D 5S", system=CB, rest_to=None, last_capturer=1)
    sizes = [len(x) for x in p.piles]
    assert sizes[0] == sizes[1]
    g = Game.from_position(p)
    g.push("9C")
    g.push("AD")      # leftovers 4D 5S 9C AD to seat 1: seat 1 wins
    assert g.winners == (1,)
    # the same with nobody capturing afterwards and even piles: both win
    q = make_position(["9C", "AD"], "4D 5S", system=CB, rest_to=None)
    s = cassino.State.from_position(q)
    s.push("9C")
    s.push("AD")
    assert s.to_position().discard and s.hand_score().totals() == [1, 1]
    g = Game.from_position(q)
    g.push("9C")
    g.push("AD")
    assert g.is_over and g.winner is None and g.winners == (0, 1)
    assert g.log[-1] == {"type": "end", "winner": None, "winners": [0, 1]}


def test_a_tie_plays_another_hand_with_final_tie_more_hands():
    q = make_position(["9C", "AD"], "4D 5S", system=CB, options={"final_tie": "more_hands"},
                      rest_to=None)  # fmt: skip
    g = Game.from_position(q)
    g.push("9C")
    g.push("AD")
    assert not g.is_over and g.hands_played == 1 and g.scores == [1, 1]
    p = g.state.to_position()   # a fresh hand: 3 cards each, 5 on the table
    assert p.loose.bit_count() == 5 and [h.bit_count() for h in p.hands] == [3, 3]


# -- the deal ----------------------------------------------------------------------------
def test_first_deal_three_each_and_five_on_the_table():
    for n in range(2, 9):
        s = cassino.State.deal(rules(CB, players=n), 0, 11)
        p = s.to_position()
        assert [h.bit_count() for h in p.hands] == [3] * n and p.loose.bit_count() == 5
        assert len(p.stock) == 52 - 3 * n - 5


def test_short_last_deal_in_rotation():
    stock = "2S 3S 4S 5S 6S"
    s = state(["4H", ""], "JC 7D 9H", dealer=1, to_move=0, stock=stock)
    s.push("4H")
    p = s.to_position()
    codes = [parse_card(c) for c in stock.split()]
    # one at a time from the dealer's left (seat 0): 2S, 4S, 6S to seat 0; 3S, 5S to seat 1
    assert p.hands[0] == sum(1 << c for c in codes[0::2])
    assert p.hands[1] == sum(1 << c for c in codes[1::2])
    assert p.stock == () and p.to_move == 0 and s.last_deal


def test_a_seat_with_an_empty_hand_is_skipped():
    # three players, leader right of the dealer: the 2 stock cards go to seats 1 and 2
    # (dealer 0); seat 2 leads, seat 0 has nothing, so seat 1 plays next
    r_opts = {"first_player": "right_of_dealer"}
    s = state(["", "", "KD"], "JC 7D", dealer=0, to_move=2, stock="2S 3S", options=r_opts,
              piles=["", "", ""], rest_to=0)  # fmt: skip
    s.push("KD")
    p = s.to_position()
    assert [h.bit_count() for h in p.hands] == [0, 1, 1] and p.to_move == 2
    s.push(s.legal_moves()[0])
    assert s.to_move == 1 and not s.is_over
    s.push(s.legal_moves()[0])
    assert s.is_over


# -- bots, CLI -----------------------------------------------------------------------------
def test_greedy_player_takes_the_clearing_capture():
    s = state(["5H 6S QC", "4D 9C KH"], "JC")
    view = View.of(s, 0, [0, 0])
    assert str(GreedyPlayer(1).choose(view, s.legal_moves())) == "5H&6SxJC"


def test_greedy_policy_clears_tables():
    p = cassino.playouts(CB, n=200, seed=5, players=("greedy", "greedy"))
    assert p.totals.shape == (200, 2) and (p.totals.sum(axis=1) >= 1).all()
    assert p.sweeps.sum() == CLEARS_SEED_5


def test_cli_simulate_500_games():
    from cassino.cli import cli

    out = CliRunner().invoke(cli, ["simulate", "--system", CB, "--games", "500", "--seed", "1",
                                   "--workers", "1"])  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "callabra: 500 games" in out.output and "1.00 hands" in out.output


def test_cli_simulate_greedy_players_clear_tables():
    from cassino.cli import cli

    out = CliRunner().invoke(cli, ["simulate", "--system", CB, "--games", "100", "--seed", "2",
                                   "--players", "greedy,greedy", "--workers", "1"])  # fmt: skip
    assert out.exit_code == 0, out.output
    (row,) = [line for line in out.output.splitlines() if line.startswith("│ sweeps")]
    assert any(float(x) > 0 for x in row.strip("│ ").split("│")[1:])  # tables were cleared


def test_cli_play_with_piped_input():
    from cassino.cli import cli

    out = CliRunner().invoke(cli, ["play", "--system", CB, "--seed", "3", "--opponent", "greedy"],
                             input="1\n" * 200)  # fmt: skip
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert "Callabra, seed 3" in lines[0]
    assert "Opponent plays AC&6Dx7S: capture 7♠ with A♣ and 6♦ (7)" in lines
    assert "(target" not in out.output and "the game" in lines[-1]


def test_cli_moves_lists_two_card_captures():
    from cassino.cli import cli

    p = make_position(["5H 6S 2C", "4D 9C KH"], "JC 7D", system=CB)
    out = CliRunner().invoke(cli, ["moves", "-"], input=p.to_json())
    assert out.exit_code == 0, out.output
    records = [json.loads(line) for line in out.output.splitlines()]
    assert {"move": "5H&6SxJC", "card": "5H", "kind": "two_card", "takes": ["6S", "JC"],
            "result": None} in records  # fmt: skip
    assert [r["move"] for r in records] == [str(m) for m in cassino.State.from_position(p).legal_moves()]


def test_game_log_is_json_and_replays():
    g = Game(CB, seed=9, players=3)
    while not g.is_over:
        moves = g.legal_moves()
        g.push(moves[-1])
    assert json.loads(json.dumps(g.log)) == g.log
    assert Game.replay(g.log).winners == g.winners and g.hands_played >= 1
