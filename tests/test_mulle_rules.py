"""Mulle (docs/rules.md §3.20; AMB-55, AMB-56).

Swedish Kassino with two 52-card decks shuffled together: ids 52-103 are the second copies
(written with a prime, ``AS'``). Royal values, value matching, no building, tabbe, sistan,
play to 16 as Swedish. A capture that takes exactly one table card, the other copy of the
card played, is a Mulle (1 point). No most-cards point; most spades 2 (ties: nobody); every
copy of 10D (2), 2S (1) and the aces (1) scores (AMB-56; option: once per team). The last
deal shares the last 4 cards evenly, one at a time, the odd card face up to the table
(AMB-55; option: dealt in rotation, unequal hands). The suite runs once on the core
(the wide copy of the core, _WideState) and once with CASSINO_PURE_PYTHON=1.
"""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest
from click.testing import CliRunner

import cassino
from cassino import Game, Move, MoveKind, rules
from cassino.cards import CardSet, card_code, parse_card
from cassino.errors import CardError, IllegalMoveError, NotationError, PositionError, RulesError
from cassino.position import Position
from cassino.scoring import score_hand, tally_winner, used_categories
from conftest import make_position, make_state, notations, position_dict

MU = "mulle"


def state(hands: list[str], table: str, **kw: Any) -> Any:
    return make_state(hands, table, system=MU, **kw)


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


# -- preset, options, the double deck ----------------------------------------------------------
def test_preset_follows_section_3_20():
    r = rules(MU)
    assert MU in cassino.implemented_systems()
    assert (r.deck, r.deck_size, r.num_ids) == ("double104", 104, 104)
    assert (r.card_values, r.match_mode, r.build_kinds, r.capture_extent) == ("royal", "value", "none", "free")
    assert [r.card_value(parse_card(c)) for c in ("AS'", "10D'", "JC'", "KS'")] == [1, 10, 11, 13]
    assert r.second_value(parse_card("AH'")) == 14 and r.second_value(parse_card("2H'")) == 0
    assert (r.sweeps, r.sistan_points, r.most_spades_points, r.most_cards_points) == (True, 1, 2, 0)
    assert (r.mulle_points, r.point_cards_once, r.deal_rest) == (1, False, "even")
    assert (r.target, r.end_check, r.tie_most_spades) == (16, "compare_totals", True)
    assert used_categories(r) == (
        "spades", "big_cassino", "little_cassino", "ace_spades", "ace_clubs", "ace_hearts",
        "ace_diamonds", "sistan", "sweeps", "mulle",
    )


def test_second_copies_parse_and_print_with_a_prime():
    assert parse_card("AS'") == 52 and parse_card("kc'") == 103 and parse_card("10D'") == 90
    assert card_code(52) == "AS'" and card_code(90) == "10D'" and card_code(38) == "10D"
    assert str(CardSet([0, 52, 103])) == "AS AS' KC'"
    assert CardSet.parse("AS' 2S") == CardSet([4, 52])
    assert str(Move.parse("AS'xAS")) == "AS'xAS" and Move.parse("AS'xAS").takes == 1
    with pytest.raises(CardError, match="no card with id 110"):
        card_code(110)   # (104-109 are the jokers X1-X6)
    with pytest.raises(CardError, match="unknown card code"):
        parse_card("AS''")


def test_a_second_copy_in_a_single_deck_system_is_a_card_error():
    data = position_dict(["AS' 2H", "3C 4D"], "5S", system="cassino_standard")
    with pytest.raises(CardError, match=r"card AS' \(hand 0\) is a second copy: only Mulle"):
        Position.from_dict(data)
    # the same cards are fine in Mulle
    p = make_position(["AS' 2H", "3C 4D"], "5S", system=MU)
    assert parse_card("AS'") in CardSet(p.hands[0])


@pytest.mark.parametrize(
    ("system", "options", "pattern"),
    [
        (MU, {"players": 5}, "2 to 4 players"),
        (MU, {"deck": "standard52"}, "two 52-card decks"),
        (MU, {"build_kinds": "simple+multiple"}, "no building in Mulle"),
        (MU, {"deal_rest": "exact"}, "deal_rest=even"),
        (MU, {"mulle_points": 101}, "mulle_points must be between 0 and 100"),
        (MU, {"hand_size": 26, "players": 4}, "more than the 104 of the deck"),
        ("swedish_kassino", {"deck": "double104"}, "is the Mulle deck, not for swedish_kassino"),
        ("cassino_standard", {"mulle_points": 1}, "apply only to the double deck of Mulle"),
        ("swedish_kassino", {"point_cards_once": True}, "apply only to the double deck of Mulle"),
        ("swedish_kassino", {"deal_rest": "even"}, "is the Callabra deal"),
        ("callabra", {"deal_rest": "even"}, "is the Mulle deal"),
    ],
)
def test_bad_mulle_options_raise(system, options, pattern):
    with pytest.raises(RulesError, match=pattern):
        rules(system, **options)


# -- the deal (AMB-55) ---------------------------------------------------------------------------
def test_thirteen_nine_and_seven_deals_of_four():
    assert [rules(MU, players=n).deals_per_hand for n in (2, 3, 4)] == [13, 9, 7]
    for n in (2, 3, 4):
        p = cassino.State.deal(rules(MU, players=n), 0, 5).to_position()
        assert [h.bit_count() for h in p.hands] == [4] * n and p.loose.bit_count() == 4
        assert len(p.stock) == 100 - 4 * n and p.to_move == 1
        assert sorted(p.stock + tuple(c for h in p.hands for c in CardSet(h)) + tuple(CardSet(p.loose))) == list(range(104))


def _big(s: Any) -> Move:
    """The legal move that takes most cards (keeps the table small)."""
    return max(s.legal_moves(), key=lambda m: (m.takes.bit_count(), -m.card))


def _last_deal(n: int, **options: Any) -> tuple[Any, tuple[int, ...], int]:
    """A hand of ``n`` players played (the move taking most cards) through the last deal:
    the position just after it, the last 4 stock cards and the table before it."""
    s = cassino.State.deal(rules(MU, players=n, **options), 0, 11)
    while True:
        p = s.to_position()
        if len(p.stock) == 4 and sum(h.bit_count() for h in p.hands) == 1:
            last4, table = p.stock, p.table_mask
        if not p.stock:
            return p, last4, table
        s.push(_big(s))


@pytest.mark.parametrize(("n", "each", "to_table"), [(2, 2, 0), (3, 1, 1), (4, 1, 0)])
def test_the_last_four_cards_are_shared_evenly_the_odd_one_to_the_table(n, each, to_table):
    p, last4, _ = _last_deal(n)
    assert [h.bit_count() for h in p.hands] == [each] * n
    # one card at a time from the dealer's left (dealer 0: seat 1 first)
    for i in range(n):
        assert CardSet(p.hands[(1 + i) % n]) == CardSet(last4[i:each * n:n])
    assert all(p.loose >> c & 1 for c in last4[each * n:]) and len(last4) - each * n == to_table
    assert p.rules.deal_number(0) == rules(MU, players=n).deals_per_hand


def test_option_rotation_deals_the_last_cards_unequally_from_the_dealers_left():
    p, last4, _ = _last_deal(3, deal_rest="rotation")
    assert [h.bit_count() for h in p.hands] == [1, 2, 1]   # dealer 0: seat 1 gets two
    assert CardSet(p.hands[1]) == CardSet([last4[0], last4[3]])
    assert not any(p.loose >> c & 1 for c in last4)


# -- Mulle ---------------------------------------------------------------------------------------
def test_a_capture_of_exactly_the_identical_card_is_a_mulle():
    s = state(["7H 2C", "9C 3S"], "7H' 5D", stock="")
    s.push("7Hx7H'")
    p = s.to_position()
    assert p.mulles == (1, 0) and s.hand_score().categories(0)["mulle"] == 1
    assert json.loads(p.to_json())["mulles"] == [1, 0] and p.to_text().endswith("mulle:1,0")
    assert Position.from_text(p.to_text()) == p and Position.from_json(p.to_json()) == p
    s.pop()
    assert s.to_position().mulles == ()


@pytest.mark.parametrize(
    ("table", "move"),
    [
        ("7H' 7D 5D", "7Hx7D"),          # one card of the same rank, another suit
        ("7H' 5D 2S", "7Hx5D,2S"),       # a sum group
        ("7H' 5D 2S", "7Hx2S,5D,7H'"),   # the identical card and more
    ],
)
def test_other_captures_are_no_mulle(table, move):
    s = state(["7H 2C", "9C 3S"], table, stock="")
    s.push(move)
    assert s.to_position().mulles == () and s.hand_score().categories(0)["mulle"] == 0


def test_an_ace_played_as_14_on_its_twin_and_a_mulle_that_sweeps():
    s = state(["AD' 2C", "9C 3S"], "AD", stock="")
    assert "AD'xAD" in notations(s)
    s.push("AD'xAD")
    p = s.to_position()
    assert p.mulles == (1, 0) and p.sweep_order == (0,)
    hs = s.hand_score()
    assert hs.categories(0)["mulle"] == 1 and hs.categories(0)["sweeps"] == 1


def test_mulles_in_three_players_count_per_player_and_reload():
    s = state(["5S 9H", "9C 2C", "KD 2H"], "5S' KD'", dealer=2, piles=["", "", ""], rest_to=0,
              stock="")
    s.push("5Sx5S'")
    s.push("9C")
    s.push("KDxKD'")
    p = s.to_position()
    assert p.mulles == (1, 0, 1)
    again = cassino.State.from_position(p)
    assert again.to_position() == p and pickle.loads(pickle.dumps(s)).to_position() == p
    assert [s.hand_score().categories(t)["mulle"] for t in range(3)] == [1, 0, 1]


def test_bad_mulle_counts_in_a_position():
    with pytest.raises(PositionError, match="they need mulle_points"):
        Position.from_dict({**position_dict(["7H", "9C"], "5D", system="swedish_kassino"), "mulles": [1, 0]})
    with pytest.raises(PositionError, match="one per team"):
        Position.from_dict({**position_dict(["7H", "9C"], "5D", system=MU), "mulles": [1]})
    with pytest.raises(PositionError, match="Mulle captures, but the piles hold only"):
        Position.from_dict({
            **position_dict(["7H", "9C"], "5D", system=MU, stock="", rest_to=1, piles=["", ""]),
            "mulles": [60, 0],
        })
    with pytest.raises(NotationError, match="bad mulle field"):
        Position.from_text(make_position(["7H", "9C"], "5D", system=MU).to_text() + " mulle:x")


# -- scoring (AMB-56) ----------------------------------------------------------------------------
def _piles(*texts: str) -> list[list[int]]:
    return [cards(t) for t in texts]


def test_every_copy_of_a_point_card_scores_and_no_most_cards():
    r = rules(MU)
    piles = _piles("10D 10D' 2S 2S' AS AS' AH 3C 4C 5C 6C 7C", "AD' 2H 3S")
    hs = score_hand(r, piles, [], last_team=1, mulles=[0, 2])
    a, b = hs.categories(0), hs.categories(1)
    assert (a["big_cassino"], a["little_cassino"], a["ace_spades"], a["ace_hearts"]) == (4, 2, 2, 1)
    assert a["cards"] == 0 and b["cards"] == 0
    assert (b["ace_diamonds"], b["sistan"], b["mulle"], b["spades"]) == (1, 1, 2, 0)
    assert a["spades"] == 2     # 4 spades against 1
    assert hs.totals() == [4 + 2 + 2 + 1 + 2, 1 + 1 + 2]
    once = score_hand(rules(MU, point_cards_once=True), piles, [], last_team=1, mulles=[0, 2])
    assert (once.categories(0)["big_cassino"], once.categories(0)["ace_spades"]) == (2, 1)
    assert once.totals() == [2 + 1 + 1 + 1 + 2, 4]


def test_most_spades_counts_both_copies_and_a_tie_scores_nothing():
    r = rules(MU)
    hs = score_hand(r, _piles("3S 3S' 4H", "4S 9C 9C'"), [])
    assert hs.categories(0)["spades"] == 2 and hs.categories(1)["spades"] == 0
    hs = score_hand(r, _piles("3S 3S'", "4S 4S'"), [])
    assert hs.categories(0)["spades"] == hs.categories(1)["spades"] == 0


def test_a_whole_hand_scores_as_its_categories_in_both_engines():
    r = rules(MU, players=3)
    for seed in range(3):
        s = cassino.State.deal(r, seed % 3, seed)
        while not s.is_over:
            s.push(_big(s))
        p = s.to_position()
        assert sum(len(x) for x in p.piles) + len(p.discard) == 104
        hs = s.hand_score()
        ref = cassino._reference.State.from_position(p).hand_score()
        assert hs == ref
        # spades 2 (or a tie), 2 x 2 big cassino, 2 x 1 little cassino, 8 aces, sistan
        assert sum(hs.totals()) - sum(p.sweeps) - sum(p.mulles or (0,)) in (15, 17)


def test_the_game_goes_to_sixteen_with_the_swedish_spade_tie_break():
    r = rules(MU)
    hand = score_hand(r, _piles("3S 3S' 10D", "AH"), [])
    new, winner = tally_winner(r, [14, 10], hand, spades=[2, 0])
    assert new == [18, 11] and winner == 0
    g = Game(MU, seed=2, target=6)
    while not g.is_over:
        g.push(max(g.legal_moves(), key=lambda m: m.takes.bit_count()))
    assert max(g.scores) >= 6 and len(g.winners) == 1
    assert Game.replay(json.loads(json.dumps(g.log))).scores == g.scores


# -- the core: 128-bit masks -----------------------------------------------------------------
def test_104_bit_masks_round_trip_through_the_state():
    high = "KC' KD' QC' AS"
    s = state([high, "2S' 3S' 4S' 5S'"], "KS' JH'", stock="")
    p = s.to_position()
    assert p.hands[0] == int(CardSet.parse(high)) and p.hands[0] >> 103 & 1
    assert {str(m) for m in s.legal_moves()} >= {"KC'", "KD'xKS'"}
    assert s.count_moves() == len(s.legal_moves()) == len(list(s.iter_moves()))
    assert isinstance(s, cassino.State)
    if cassino.IMPLEMENTATION == "core":
        assert type(s).__name__ == "_WideState"      # the wide copy of the core
    m = Move(parse_card("KC'"), MoveKind.CAPTURE, 1 << parse_card("KS'"))
    s.push(m)
    assert s.to_position().piles[0][-2:] == (parse_card("KS'"), parse_card("KC'"))
    with pytest.raises(IllegalMoveError):
        s.push(Move(parse_card("2S'"), MoveKind.CAPTURE, 1 << parse_card("JH'")))


def test_state_of_a_mulle_position_is_made_by_the_wide_copy():
    """cassino._core.State(position) allocates a _WideState (the subclass of the core's wide
    copy) for 104 ids; a 64-bit state never loads one: a clear error, not an overflow."""
    core = pytest.importorskip("cassino._core")
    p = make_position(["KC' AS", "2S' 5S'"], "KS' JH'", system="mulle", stock="")
    for s in (core.State(p), core.State(position=p), core.State.from_position(p)):
        assert isinstance(s, core.State) and type(s) is core._WideState
        assert s.to_position() == p and "KC'xKS'" in [str(m) for m in s.legal_moves()]
    narrow = core.State(make_position(["KC AS", "2S 5S"], "KS JH", stock=""))
    before = narrow.to_position()
    with pytest.raises(ValueError, match=r"mulle has 104 card ids.*State\(position\)"):
        narrow.__init__(p)
    assert type(narrow) is core.State and narrow.to_position() == before

    class Mine(core.State):   # a Python subclass keeps its own (64-bit) layout
        pass

    with pytest.raises(ValueError, match="104 card ids"):
        Mine(p)
    assert type(Mine(before)) is Mine


# -- command line ----------------------------------------------------------------------------
def test_cli_simulate_games():
    from cassino.cli import cli

    n = "100" if cassino.IMPLEMENTATION == "core" else "3"
    out = CliRunner().invoke(cli, ["simulate", "--system", MU, "--games", n, "--seed", "1",
                                   "--workers", "1"])  # fmt: skip
    assert out.exit_code == 0, out.output
    assert f"mulle: {n} games" in out.output and "mulle" in out.output


def test_cli_play_with_piped_input():
    from cassino.cli import cli

    out = CliRunner().invoke(cli, ["play", "--system", MU, "--seed", "3", "--opponent", "greedy"],
                             input="1\n" * 2000)  # fmt: skip
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[0].startswith("Mulle, seed 3")
    assert "(target 16)" in out.output and "wins the game" in out.output
