"""Diloti and Four Player Diloti (docs/rules.md §3.17, §3.18; AMB-42 to AMB-51).

Two players (or four in two partnerships, counter-clockwise), six cards each, four table
cards, four deals (two for four players). A 1, 2-10 pip, J Q K by rank only. A numeric card
takes all loose cards of its rank (AMB-43), sum groups, and declarations of its value (all
combinable, AMB-44); royalty takes one card of its rank. Plain declarations (one hand card
onto loose cards, at most 10, holding the value), family declarations (two or more groups,
with plain declarations and one family declaration of the value; adding passes ownership,
AMB-46), raises of an opponent's plain declaration by one card (AMB-45), optionally extended
into a family declaration. An owner may not lay or raise (AMB-47). A laid matching card must
capture (AMB-42). Xeri 10, not for the first play of a hand clearing the layout (AMB-48), but
for the last card (AMB-49). Layout redeal (AMB-50). Most cards 4, aces 1, 10D 2, 2C 1; 61.
The suite runs once on the core and once with CASSINO_PURE_PYTHON=1.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

import cassino
from cassino import Game, Move, MoveKind, Position, rules
from cassino.cards import parse_card
from cassino.errors import IllegalMoveError, PositionError, RulesError
from cassino.game import layout_redeal
from cassino.scoring import score_hand, tally_winner, used_categories
from conftest import make_position, make_state, moves_of, notations

DI = "diloti"
DI4 = "diloti_four_player"


def state(hands: list[str], table: Any, **kw: Any) -> Any:
    return make_state(hands, table, system=kw.pop("system", DI), **kw)


def decl(groups: str, value: int, owner: int, raised: list[int] | None = None) -> dict[str, Any]:
    """A declaration table item: groups separated by '|', cards by spaces."""
    item: dict[str, Any] = {
        "groups": [g.split() for g in groups.split("|")], "value": value, "owners": [owner],
    }
    if raised:
        item["raised"] = raised
    return item


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def why(s: Any, text: str) -> str:
    reason = s.explain(Move.parse(text))
    assert isinstance(reason, str), f"{text} is legal"
    with pytest.raises(IllegalMoveError):
        s.push(text)
    return reason


# -- preset, deal, options -----------------------------------------------------------------
def test_preset_follows_section_3_17():
    r = rules(DI)
    assert DI in cassino.implemented_systems() and DI4 in cassino.implemented_systems()
    assert (r.players, r.build_kinds, r.obligation, r.compulsion) == (
        2, "declarations", "diloti", "lay_match_forced")
    assert (r.capture_extent, r.increase_who, r.holding_invariant, r.unique_build_values) == (
        "all_matches", "opponent_only", True, False)
    assert (r.sweeps, r.sweep_points, r.target, r.end_check) == (True, 10, 61, "compare_totals")
    assert [r.card_value(parse_card(c)) for c in ("AS", "10D", "JC", "QH", "KS")] == [1, 10, 0, 0, 0]
    assert used_categories(r) == (
        "cards", "ace_spades", "ace_clubs", "ace_hearts", "ace_diamonds", "good_two",
        "good_ten", "sweeps")


def test_deal_six_to_the_opponent_six_to_the_dealer_then_four_to_the_table():
    r = rules(DI)
    deck = list(range(52))
    s = cassino.State.new_hand(r, 0, deck)
    p = s.to_position()
    assert p.hands[1] == sum(1 << c for c in deck[0:6])      # the opponent first
    assert p.hands[0] == sum(1 << c for c in deck[6:12])     # then the dealer
    assert p.loose == sum(1 << c for c in deck[12:16])       # then the table
    assert p.stock == tuple(deck[16:]) and r.deals_per_hand == 4 and p.to_move == 1
    # later deals: six each, the opponent first, no table cards
    while s.to_position().stock == tuple(deck[16:]):
        s.push(s.legal_moves()[0])
    p = s.to_position()
    assert p.hands[1] == sum(1 << c for c in deck[16:22]) and p.hands[0] == sum(1 << c for c in deck[22:28])


def test_four_players_deal_counter_clockwise_from_the_dealers_right_who_leads():
    r = rules(DI4)
    assert (r.players, r.teams, r.direction, r.deals_per_hand) == (4, "partnership", "ccw", 2)
    deck = list(range(52))
    p = cassino.State.new_hand(r, 2, deck).to_position()
    # seat 1 is on the dealer's right (counter-clockwise play), then 0, 3, the dealer 2
    assert [p.hands[s] for s in (1, 0, 3, 2)] == [sum(1 << c for c in deck[6 * k : 6 * k + 6]) for k in range(4)]
    assert p.loose == sum(1 << c for c in deck[24:28]) and p.to_move == 1 and len(p.stock) == 24
    assert (r.team_of(0), r.team_of(2), r.team_of(1), r.team_of(3)) == (0, 0, 1, 1)


@pytest.mark.parametrize(
    ("options", "pattern"),
    [
        ({"players": 4}, "diloti is played by 2 players, not 4"),
        ({"capture_extent": "maximal"}, "all matching cards .* or any of them"),
        ({"obligation": "v1"}, "needs obligation=diloti"),
        ({"build_kinds": "simple+multiple"}, "needs build_kinds=declarations"),
        ({"declaration_min_cards": 3}, "must be 1 or 2"),
        ({"xeri_first_play": "counts"}, "never a Xeri"),
        ({"redeal_layout": "none"}, "redeal_layout must be full or offending"),
        ({"redeal_layout": "some"}, "option redeal_layout must be one of"),
        ({"pluck": True}, "cannot be combined with Diloti"),
        ({"compulsion": "none"}, "needs compulsion=lay_match_forced"),
    ],
)
def test_bad_diloti_options_raise(options, pattern):
    with pytest.raises(RulesError, match=pattern):
        rules(DI, **options)


@pytest.mark.parametrize(
    ("options", "pattern"),
    [
        ({"obligation": "diloti"}, "obligation=diloti is a Diloti rule"),
        ({"capture_extent": "all_matches"}, "capture_extent=all_matches is a Diloti rule"),
        ({"build_kinds": "declarations"}, "is a Diloti rule"),
        ({"compulsion": "lay_match_forced"}, "is a Diloti rule"),
        ({"declaration_min_cards": 2}, "is a Diloti rule"),
        ({"ace_points": 1}, "is a Diloti rule"),
        ({"redeal_layout": "full"}, "is a Diloti rule"),
    ],
)
def test_diloti_parameters_are_refused_elsewhere(options, pattern):
    with pytest.raises(RulesError, match=pattern):
        rules("cassino_standard", **options)


# -- captures (AMB-43, AMB-44) --------------------------------------------------------------
def test_numeric_match_takes_all_of_its_rank_and_royalty_one():
    s = state(["7H 7C 3S KC", "2D 9H"], "7S 7D 4H 3D KH KD")
    caps = {m for m in moves_of(s, "7H") if "x" in m}
    assert caps == {"7Hx7S,7D", "7Hx3D,4H", "7Hx3D,4H,7S,7D"}   # never one 7 of the two
    assert "every loose card of its rank" in why(s, "7Hx7S")
    assert "AMB-43" in why(s, "7Hx7S,3D,4H")
    assert {m for m in moves_of(s, "KC")} == {"KCxKD", "KCxKH"}  # royalty: exactly one
    assert "face_capture=one" in why(s, "KCxKH,KD")


def test_free_option_takes_any_of_the_matching_cards():
    s = state(["7H 7C 3S KC", "2D 9H"], "7S 7D 4H 3D KH KD", options={"capture_extent": "free"})
    assert {"7Hx7S", "7Hx7D", "7Hx7S,7D", "7Hx3D,4H,7S"} <= moves_of(s, "7H")
    assert {m for m in moves_of(s, "KC")} == {"KCxKD", "KCxKH"}


def test_captures_combine_matches_sums_and_declarations_of_the_value():
    table = ["8S", "5C", "3H", decl("4D 4S", 8, 1), decl("6H 2H|8D", 8, 1), decl("AC 2C", 3, 1)]
    s = state(["8C 9S", "2D 9H"], table, to_move=0)
    caps = {m for m in moves_of(s, "8C") if "x" in m}
    # the loose 8, the sum 5+3 and both declarations of 8, in any combination (AMB-44)
    assert "8Cx2H,3H,4S,4D,5C,6H,8S,8D" in caps and "8Cx4S,4D" in caps and "8Cx2H,6H,8D" in caps
    assert len(caps) == 2 * 2 * 2 * 2 - 1
    assert "8CxAC,2C" not in caps
    assert why(s, "8CxAC,2C,3H") == "a declaration of 3 can only be taken by a 3"
    # a declaration is taken whole
    assert why(s, "8Cx4S") == "the declaration of 8 must be taken or added to as a whole"


def test_declarations_in_capture_false_takes_a_declaration_alone():
    table = ["8S", decl("4D 4S", 8, 1), decl("6H 2H|8D", 8, 1)]
    s = state(["8C 9S", "2D 9H"], table, options={"declarations_in_capture": False})
    caps = {m for m in moves_of(s, "8C") if "x" in m}
    assert caps == {"8Cx8S", "8Cx4S,4D", "8Cx2H,6H,8D"}
    assert "AMB-44" in why(s, "8Cx4S,4D,8S") and "AMB-44" in why(s, "8Cx2H,4S,4D,6H,8D")


# -- the forced capture of a laid matching card (AMB-42) --------------------------------------
def test_a_laid_matching_card_must_capture():
    s = state(["7H 2C", "2D 9H"], "7S 4H")
    assert "7H" not in notations(s) and "7Hx7S" in notations(s) and "2C" in notations(s)
    assert "AMB-42" in why(s, "7H")
    s = state(["KC QH", "2D 9H"], "KS QD QS")
    assert notations(s) == {"KCxKS", "QHxQD", "QHxQS"}


# -- declarations ------------------------------------------------------------------------------
def test_plain_declaration_needs_the_value_in_hand_and_at_most_10():
    s = state(["3S 7C 10H", "2D 9H"], "4H AS 6D")
    assert {"3S+4H=7", "3S+AS,6D=10", "3S+6D=9"} & notations(s) == {"3S+4H=7", "3S+AS,6D=10"}
    assert "needs a 9 in your hand" in why(s, "3S+6D=9")
    assert "declarations go up to 10" in why(s, "7C+4H=11")
    # one table card is enough (AMB-51)
    assert "3S+4H=7" in notations(s)


def test_declaration_min_cards_two_needs_two_table_cards():
    s = state(["3S 7C 10H", "2D 9H"], "4H AS 6D", options={"declaration_min_cards": 2})
    assert "3S+4H=7" not in notations(s) and "3S+AS,6D=10" in notations(s)
    assert "AMB-51" in why(s, "3S+4H=7")


def test_family_declarations_partition_without_duplicates():
    s = state(["7H 7C 3S", "2D 9H"], "7S 7D 4H 3D")
    fam = {m for m in moves_of(s, "7H") if "+" in m}
    assert fam == {"7H+7S=7", "7H+7D=7", "7H+7S,7D=7", "7H+3D,4H=7", "7H+3D,4H,7S=7",
                   "7H+3D,4H,7D=7", "7H+3D,4H,7S,7D=7"}
    s.push("7H+3D,4H,7S=7")
    b = s.to_position().builds[0]
    assert b.value == 7 and b.multiple and b.owners == 1 and len(b.groups()) == 3


def test_family_declaration_groups_plain_declarations_and_adds_to_a_family_one():
    table = ["AS", "2C", decl("4D 4S", 8, 1), decl("6H 2H|8D", 8, 1)]
    s = state(["5H 8C 3S", "2D 9H"], table)
    assert moves_of(s, "5H") == {
        "5H", "5H+AS,2C=8", "5H+AS,2C,4S,4D=8", "5H+AS,2H,2C,6H,8D=8",
        "5H+AS,2H,2C,4S,4D,6H,8D=8"}
    m = s.push("5H+AS,2C,4S,4D=8")             # a new family of the plain 8 and 5+A+2
    assert m.kind == MoveKind.BUILD
    p = s.to_position()
    assert len(p.builds) == 2 and all(b.value == 8 and b.multiple for b in p.builds)
    assert {b.owners for b in p.builds} == {1, 2}


def test_adding_to_any_family_declaration_passes_ownership():
    table = ["AS", "2C", decl("6H 2H|8D", 8, 1)]
    s = state(["5H 8C 3S", "2D 9H"], table)
    m = s.push("5H+AS,2H,2C,6H,8D=8")          # the opponent's family of 8 (AMB-46)
    assert m.kind == MoveKind.AUGMENT
    b = s.to_position().builds[0]
    assert b.owners == 1 << 0 and b.multiple and len(b.groups()) == 3


def test_augment_who_own_team_keeps_off_an_opponents_family():
    table = ["AS", "2C", decl("6H 2H|8D", 8, 1)]
    s = state(["5H 8C 3S", "2D 9H"], table, options={"augment_who": "own_team"})
    assert "5H+AS,2H,2C,6H,8D=8" not in notations(s)
    assert "AMB-46" in why(s, "5H+AS,2H,2C,6H,8D=8")
    s = state(["5H 8C 3S", "2D 9H"], ["AS", "2C", decl("6H 2H|8D", 8, 0)],
              options={"augment_who": "own_team"})
    assert "5H+AS,2H,2C,6H,8D=8" in notations(s)


# -- raises (AMB-45) -----------------------------------------------------------------------------
def test_raise_an_opponents_plain_declaration_by_one_card():
    s = state(["2S 8C 6C", "2D 9H"], ["6D", decl("4D 2H", 6, 1), decl("5H AH|6H", 6, 1)])
    assert moves_of(s, "2S") >= {"2S+2H,4D=8"}
    m = s.push("2S+2H,4D=8")
    assert m.kind == MoveKind.INCREASE
    b = s.to_position().builds[1]
    assert (b.value, b.owners, b.multiple) == (8, 1, False)


def test_a_raise_may_be_extended_into_a_family_declaration():
    s = state(["2S 8C", "2D 9H"], ["8D", "5S", "3C", decl("4D 2H", 6, 1)])
    assert {"2S+2H,4D,8D=8", "2S+2H,3C,4D,5S=8", "2S+2H,3C,4D,5S,8D=8"} <= moves_of(s, "2S")
    s.push("2S+2H,3C,4D,5S,8D=8")
    b = s.to_position().builds[0]
    assert b.value == 8 and b.multiple and b.owners == 1


def test_own_declarations_are_never_raised_nor_families():
    s = state(["2S 8C", "2D 9H"], [decl("4D 2H", 6, 0), decl("5H AH|6H", 6, 1)])
    assert not any(m.endswith("=8") for m in moves_of(s, "2S"))
    assert "raise your own declaration (AMB-45)" in why(s, "2S+2H,4D=8")
    assert why(s, "2S+AH,5H,6H=8") == (
        "the declaration of 6 is a family declaration: it cannot be raised to 8, only taken or "
        "added to")


def test_a_raise_needs_the_new_value_in_hand_and_at_most_10():
    s = state(["2S 9C", "2D 9H"], [decl("4D 2H", 6, 1)])
    assert "needs an 8 in your hand" in why(s, "2S+2H,4D=8")
    s = state(["6S 10C", "2D 9H"], [decl("4D 2H", 6, 1)])
    assert "declarations go up to 10" in why(s, "6S+2H,4D=12")


# -- obligation diloti (AMB-47) and the holding invariant -----------------------------------------
def test_an_owner_may_not_lay_or_raise_but_may_capture_and_declare():
    table = ["AS", "3H", decl("4D 2H", 6, 0), decl("2S 3D", 5, 1)]
    s = state(["6C 9C 4S 8D", "2D 9H"], table)
    legal = notations(s)
    assert not any("+" not in m and "x" not in m for m in legal)           # no lay
    assert "may not lay a card (obligation diloti)" in why(s, "9C")
    assert "may not raise one (obligation diloti)" in why(s, "4S+2S,3D=9")
    assert {"6Cx2H,4D", "4S+AS,3H=8"} <= legal        # a capture, a new declaration


def test_obligation_no_declare_forbids_new_declarations_too():
    table = ["AS", "3H", decl("4D 2H", 6, 0)]
    s = state(["6C 9C 4S 8D", "2D 9H"], table, options={"obligation_no_declare": True})
    assert "4S+AS,3H=8" not in notations(s) and "AMB-47" in why(s, "4S+AS,3H=8")
    assert "6Cx2H,4D" in notations(s)


def test_the_holding_invariant_keeps_a_card_for_each_own_declaration():
    s = state(["6C 9C 3S", "2D 9H"], ["3H", "5D", decl("4D 2H", 6, 0)])
    assert "would have no 6 left" in why(s, "6C+3H=9")
    assert "6Cx2H,4D" in notations(s)


# -- Xeri (AMB-48, AMB-49) ---------------------------------------------------------------------
def _layout_deck(table: str, leader: str, dealer: str) -> list[int]:
    """A deck dealing ``leader`` to the non-dealer, ``dealer`` to the dealer, then ``table``."""
    first = cards(leader) + cards(dealer) + cards(table)
    return first + [c for c in range(52) if c not in first]


DECK = _layout_deck("2S 3S 4S AS", "10C 2C 3C 4C 5C 6C", "QD 6D 7D 8D 9D JD")


def test_the_first_play_clearing_the_layout_is_no_xeri_in_any_hand():
    for scores in (None, [20, 13]):
        s = cassino.State.new_hand(rules(DI), 0, DECK, scores)
        assert s.to_move == 1
        s.push("10CxAS,2S,3S,4S")
        p = s.to_position()
        assert p.loose == 0 and p.last_capturer == 1 and p.sweep_order == ()
        assert s.hand_score().categories(1)["sweeps"] == 0


def test_xeri_first_play_first_hand_only_excepts_the_first_hand_of_the_game():
    r = rules(DI, xeri_first_play="first_hand")
    s = cassino.State.new_hand(r, 0, DECK)
    s.push("10CxAS,2S,3S,4S")
    assert s.to_position().sweep_order == ()
    s = cassino.State.new_hand(r, 0, DECK, [20, 13])           # a later hand: a Xeri
    s.push("10CxAS,2S,3S,4S")
    assert s.to_position().sweep_order == (1,)
    assert s.hand_score().categories(1)["sweeps"] == 10


def test_a_later_clear_is_a_xeri_worth_10():
    s = state(["9C 2C", "2D 9H"], "4H 5S", stock="", last_capturer=1)
    s.push("9Cx4H,5S")
    assert s.to_position().sweep_order == (0,) and s.hand_score().categories(0)["sweeps"] == 10


def test_the_last_card_clearing_the_table_is_a_xeri_the_leftovers_never():
    s = state(["KD", "9C"], "4H 5S", to_move=0, last_capturer=1)
    s.push("KD")
    s.push("9Cx4H,5S")
    p = s.to_position()     # KD was left: the leftovers go to seat 1, no Xeri for them
    assert s.is_over and p.sweep_order == () and parse_card("KD") in p.piles[1]
    s = state(["KC", "9C"], "4H 5S KD", to_move=0, last_capturer=1)
    s.push("KCxKD")
    s.push("9Cx4H,5S")           # the last card clears the table: a Xeri (AMB-49)
    assert s.is_over and s.to_position().sweep_order == (1,)


def test_last_card_sweep_false_gives_no_xeri_on_the_final_turn():
    s = state(["KC", "9C"], "4H 5S KD", to_move=0, last_capturer=1, options={"last_card_sweep": False})
    s.push("KCxKD")
    s.push("9Cx4H,5S")
    assert s.is_over and s.to_position().sweep_order == ()


# -- the layout redeal (AMB-50) -------------------------------------------------------------------
def test_layout_redeal_returns_all_four_cards_and_reshuffles():
    r = rules(DI)
    deck = _layout_deck("KS KH KD 2C", "QD 6D 7D 8D 9D JD", "10C 3C 4C 5C 6C 7C")
    out, rejected = layout_redeal(r, deck, cassino.Rng(5))
    assert rejected[0] == ["KS", "KH", "KD", "2C"]
    assert out[:12] == deck[:12] and sorted(out) == list(range(52))
    table = out[12:16]
    assert sum(1 for c in table if c // 4 + 1 >= 11 and [d // 4 for d in table].count(c // 4) >= 3) == 0
    fine = _layout_deck("KS KH 2D 2C", "QD 6D 7D 8D 9D JD", "10C 3C 4C 5C 6C 7C")
    assert layout_redeal(r, fine, cassino.Rng(5)) == (fine, [])   # two kings: no redeal


def test_layout_redeal_offending_replaces_only_the_royalty_triple():
    r = rules(DI, redeal_layout="offending")
    deck = _layout_deck("KS KH KD 2C", "QD 6D 7D 8D 9D JD", "10C 3C 4C 5C 6C 7C")
    out, rejected = layout_redeal(r, deck, cassino.Rng(5))
    assert len(rejected) >= 1 and out[12] == parse_card("2C")


@pytest.mark.parametrize(("seed", "rejected"), [(684, ["KD", "JS", "KS", "KC"]),
                                              (1899, ["QD", "QH", "QS", "8D"])])
def test_games_redeal_and_replay(seed, rejected):
    g = Game(DI, seed=seed)
    rec = next(x for x in g.log if x.get("type") == "deal")
    assert rec["redeals"] == [rejected]
    layout = [c // 4 for c in cassino.CardSet(g.state.to_position().loose)]
    assert len(layout) == 4 and all(layout.count(k) < 3 for k in (10, 11, 12))
    for _ in range(20):
        g.push(g.legal_moves()[0])
    assert json.loads(json.dumps(g.log)) == g.log
    assert Game.replay(g.log).state.to_position() == g.state.to_position()
    assert "redeals" not in next(x for x in Game(DI, seed=1).log if x.get("type") == "deal")


# -- scoring and the game --------------------------------------------------------------------------
def test_scoring_values():
    r = rules(DI)
    piles = [cards("AS AH 10D 2C 3C 4C"), cards("AC 5C")]
    hs = score_hand(r, piles, [0, 1, 0])
    assert hs.categories(0)["good_ten"] == 2 and hs.categories(0)["good_two"] == 1
    assert hs.categories(1)["ace_clubs"] == 1 and hs.categories(0)["sweeps"] == 20
    t = hs.totals()
    assert t == [4 + 2 + 2 + 1 + 20, 1 + 10]
    deck = list(range(52))
    tie = score_hand(r, [deck[:26], deck[26:]], [])
    assert tie.categories(0)["cards"] == tie.categories(1)["cards"] == 0


def test_play_to_61_higher_wins_equal_plays_on():
    r = rules(DI)
    from cassino.scoring import HandScore
    assert tally_winner(r, [50, 40], HandScore(2, (("cards", 0, 11),))) == ([61, 40], 0)
    assert tally_winner(r, [60, 58], HandScore(2, (("cards", 0, 4), ("sweeps", 1, 10)))) == ([64, 68], 1)
    assert tally_winner(r, [60, 58], HandScore(2, (("cards", 0, 4), ("good_two", 1, 6)))) == ([64, 64], None)


def test_a_whole_game_ends_and_replays():
    g = Game(DI, seed=3)
    while not g.is_over:
        g.push(g.legal_moves()[0])
    assert max(g.scores) >= 61 and g.winner is not None
    assert Game.replay(g.log).scores == g.scores


# -- four players (docs/rules.md §3.18) ---------------------------------------------------------------
def four(hands: list[str], table: Any, **kw: Any) -> Any:
    return make_state(hands, table, system=DI4, **kw)


H4 = ["2S 8C", "2C 9H", "3H 9S", "KD QD"]


def test_partners_declaration_is_raised_only_after_an_opponent_raised_it():
    s = four(H4, [decl("4D 2H", 6, 2)], to_move=0)       # seat 2 is seat 0's partner
    assert "2S+2H,4D=8" not in notations(s)
    assert "only after an opponent has raised it" in why(s, "2S+2H,4D=8")
    s = four(H4, [decl("4D 2H", 6, 2, raised=[1])], to_move=0)
    assert "2S+2H,4D=8" in notations(s)
    s = four(H4, [decl("4D 2H", 6, 2, raised=[0])], to_move=0)   # (only own team raised it)
    assert "2S+2H,4D=8" not in notations(s)


def test_a_raise_records_the_raising_team():
    s = four(["2S 8C", "2D 9H", "3H 9S", "KD QD"], [decl("4D 2H", 6, 1)], to_move=0)
    s.push("2S+2H,4D=8")
    b = s.to_position().builds[0]
    assert (b.value, b.owners, b.raised) == (8, 1, 1)
    p = s.to_position()
    assert Position.from_json(p.to_json()) == p and Position.from_text(p.to_text()) == p
    assert '"raised": [0]' in p.to_json() and "@0!0)" in p.to_text()


def test_adding_to_a_partners_declaration_passes_ownership():
    s = four(["4S 8C", "2D 9H", "3H 9S", "KD QD"], ["4C", decl("5D 3D", 8, 2)], to_move=0)
    s.push("4S+3D,4C,5D=8")
    b = s.to_position().builds[0]
    assert b.owners == 1 and b.multiple


def test_a_player_need_not_capture_his_partners_declaration():
    s = four(["8S 3C", "2D 9H", "3H 9S", "KD QD"], [decl("5D 3D", 8, 2)], to_move=0)
    assert {"8S", "3C", "8Sx3D,5D"} <= notations(s)


def test_partners_captures_are_pooled():
    s = four(["8S 3C", "2D 9H", "3H 9S", "KD QD"], ["8D"], to_move=0)
    s.push("8Sx8D")
    assert len(s.to_position().piles) == 2
    assert set(s.to_position().piles[0]) == {parse_card("8S"), parse_card("8D")}


def test_raised_is_validated():
    base = {"to_move": 0, "system": DI4}
    with pytest.raises(PositionError, match="family declaration, which is never raised"):
        make_position(H4, [decl("5H AH|6H", 6, 1, raised=[0])], **base)
    with pytest.raises(PositionError, match="not a team"):
        make_position(H4, [decl("4D 2H", 6, 1, raised=[2])], **base)
    with pytest.raises(PositionError, match="only a Four Player Diloti declaration"):
        make_position(["2S 8C", "2D 9H"], [decl("4D 2H", 6, 1, raised=[0])], system=DI)
    with pytest.raises(PositionError, match="exactly one owner"):
        make_position(["2S 8C", "2D 9H"], [{"groups": [["5H", "AH"], ["6H"]], "value": 6,
                                             "owners": [0, 1]}], system=DI)


# -- notation and the CLI ------------------------------------------------------------------------
def test_notation_round_trips_and_kinds_resolve():
    s = state(["5H 8C 3S 2S", "KD 9H"], ["AS", "2C", decl("4D 2D", 6, 1), decl("6H 2H|8D", 8, 1)])
    kinds = set()
    for m in s.legal_moves():
        parsed = Move.parse(str(m))
        assert str(parsed) == str(m) and s.parse_move(str(m)) == m
        kinds.add(m.kind)
    assert kinds == set(MoveKind) - {MoveKind.PLUCK, MoveKind.PASS, MoveKind.TWO_CARD, MoveKind.STEAL,
                                     MoveKind.PAIR, MoveKind.LIE_DOWN, MoveKind.BANK, MoveKind.TURN,
                                     MoveKind.INSIST}


def test_cli_simulate_500_games():
    from cassino.cli import cli

    for sid in (DI, DI4):
        n = "500" if cassino.IMPLEMENTATION == "core" else "10"
        out = CliRunner().invoke(cli, ["simulate", "--system", sid, "--games", n, "--seed", "1",
                                       "--workers", "1"])  # fmt: skip
        assert out.exit_code == 0, out.output
        assert f"{sid}: {n} games" in out.output and "sweeps" in out.output


def test_cli_play_with_piped_input():
    from cassino.cli import cli

    out = CliRunner().invoke(cli, ["play", "--system", DI, "--seed", "3", "--opponent", "greedy"],
                             input="1\n" * 3000)  # fmt: skip
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[0] == "Diloti, seed 3"
    assert "declare 7 (a plain declaration): 3♣ on 4♠" in out.output
    assert "= 7, plain, opponent]" in out.output and "Xeri (sweeps)" in out.output
    assert "wins the game" in out.output


def test_cli_play_four_players_with_piped_input():
    from cassino.cli import cli

    out = CliRunner().invoke(cli, ["play", "--system", DI4, "--seed", "4", "--opponent", "greedy"],
                             input="1\n" * 3000)  # fmt: skip
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[0] == "Four Player Diloti, seed 4"
    assert "Your partner (seat 2) plays 5D+AH=6: declare 6 (a plain declaration)" in out.output
    assert "Seat 1 plays 6DxAH,5D: capture the declaration of 6 with 6♦" in out.output
    assert "Seats 1 & 3 win the game" in out.output


def test_counting_streaming_and_perft_agree_with_the_listing():
    table = ["7S 3D AS 2C 4H AD 3C 2D".split(), decl("2S 3H", 5, 1), decl("4S 4D", 8, 0),
             decl("9D|6H 3S", 9, 1), decl("AC 5S", 6, 0)]
    s = state(["8C 5C 9S 2H 6D 4C", "5D 9H AH 7C QH 10D"], [*table[0], *table[1:]], last_capturer=1)
    moves = s.legal_moves()
    assert len(moves) == 740 and s.count_moves() == 740 == s.num_moves()
    assert list(s.iter_moves(chunk=7)) == moves and s.perft(1) == 740
    total = 0
    for m in moves[::37]:
        s.push(m)
        total += s.count_moves()
        s.pop()
    assert total > 0 and s.legal_moves() == moves


# -- an independent oracle: every candidate move judged from the rules' text ----------------
def _splits(cards_: list[int], v: int) -> bool:
    """Whether the numeric cards split into groups each totalling v (brute force)."""
    if not cards_:
        return True
    first, rest = cards_[0], cards_[1:]
    for k in range(1 << len(rest)):
        group = [first] + [c for i, c in enumerate(rest) if k >> i & 1]
        if sum(c // 4 + 1 for c in group) == v:
            if _splits([c for i, c in enumerate(rest) if not k >> i & 1], v):
                return True
    return False


def _oracle(p: Position) -> set[tuple[int, int, int, int]]:
    """The legal (card, kind, takes, value) of a Diloti position, by trying every hand card
    against every subset of table items and every value, judged directly from docs/rules.md
    §3.17/§3.18 and the options (no code shared with the engines)."""
    r = p.rules
    seat = p.to_move
    team = r.team_of(seat)
    hand = list(cassino.CardSet(p.hands[seat]))
    loose = list(cassino.CardSet(p.loose))
    items = [1 << c for c in loose] + [b.cards for b in p.builds]
    decl_of = {b.cards: b for b in p.builds}
    own = [b for b in p.builds if b.owners >> seat & 1]
    out: set[tuple[int, int, int, int]] = set()
    for card in hand:
        rank = card // 4 + 1
        vp = rank if rank <= 10 else 0
        after = [c // 4 + 1 for c in hand if c != card]
        same = [c for c in loose if c // 4 + 1 == rank]

        def keeps(taken: list[Any], new_value: int = 0, after: list[int] = after) -> bool:
            # the holding invariant: a card for each own declaration left on the table
            return all(b in taken or b.value in after for b in own) and (
                not new_value or new_value in after)

        if not same and not own:
            out.add((card, 0, 0, 0))
        for k in range(1, 1 << len(items)):
            chosen = [items[i] for i in range(len(items)) if k >> i & 1]
            takes = sum(chosen)
            ls = [m.bit_length() - 1 for m in chosen if m not in decl_of]
            ds = [decl_of[m] for m in chosen if m in decl_of]
            # captures
            if vp == 0:
                ok = not ds and len(ls) == 1 and ls[0] // 4 + 1 == rank
            else:
                matched = [c for c in ls if c // 4 + 1 == rank]
                ok = (all(b.value == vp for b in ds) and _splits(ls, vp)
                      and (r.capture_extent == "free" or len(matched) in (0, len(same)))
                      and (r.declarations_in_capture or not ds or (len(ds) == 1 and not ls)))
            if ok and keeps(ds):
                out.add((card, 1, takes, 0))
            if vp == 0:
                continue
            fams = [b for b in ds if b.multiple]
            plains = [b for b in ds if not b.multiple]
            for v in range(1, 11):
                if v not in after or not keeps(ds, v):
                    continue
                # declare (build): p and loose cards in groups of v, plain declarations of v
                if not fams and all(b.value == v for b in plains):
                    for g in range(1 << len(ls)):
                        mine = [c for i, c in enumerate(ls) if g >> i & 1]
                        rest = [c for i, c in enumerate(ls) if not g >> i & 1]
                        if vp + sum(c // 4 + 1 for c in mine) == v and _splits(rest, v):
                            groups = 1 + len(plains) + (1 if rest else 0)
                            if groups == 1 and len(ls) < r.declaration_min_cards:
                                continue
                            if not plains and not ls:
                                continue
                            if r.obligation_no_declare and own and not ds:
                                continue
                            out.add((card, 2, takes, v))
                            break
                # add to one family declaration of v (augment)
                if (len(fams) == 1 and fams[0].value == v and all(b.value == v for b in plains)
                        and (r.augment_who == "any" or r.team_of(fams[0].owner_seats()[0]) == team)):
                    for g in range(1 << len(ls)):
                        mine = [c for i, c in enumerate(ls) if g >> i & 1]
                        rest = [c for i, c in enumerate(ls) if not g >> i & 1]
                        if vp + sum(c // 4 + 1 for c in mine) == v and _splits(rest, v):
                            out.add((card, 3, takes, v))
                            break
                # raise one plain declaration to v, extra groups of v
                low = [b for b in plains if b.value != v]
                if (not fams and len(low) == 1 and low[0].value + vp == v and not own
                        and all(b.value == v for b in plains if b is not low[0])
                        and _splits(ls, v)):
                    target = low[0]
                    owner = target.owner_seats()[0]
                    partner = r.team_of(owner) == team
                    if owner != seat and (not partner or target.raised & ~(1 << team)):
                        out.add((card, 4, takes, v))
    if not out:
        out = {(c, 0, 0, 0) for c in hand}
    return out


@pytest.mark.parametrize(("system", "options"), [
    (DI, {}),
    (DI, {"capture_extent": "free", "declarations_in_capture": False, "augment_who": "own_team",
          "obligation_no_declare": True, "declaration_min_cards": 2}),
    (DI4, {}),
])
def test_every_legal_move_matches_an_independent_oracle(system, options):
    r = rules(system, **options)
    rng = cassino.Rng(97)
    compared = kinds = 0
    seen: set[int] = set()
    while compared < 250:
        s = cassino.State.deal(r, rng.below(r.players), rng.next_u64() >> 1)
        while not s.is_over and compared < 250:
            p = s.to_position()
            items = p.loose.bit_count() + len(p.builds)
            if items <= 9:
                got = {(m.card, int(m.kind), m.takes, m.value) for m in s.legal_moves()}
                assert got == _oracle(p), p.to_text()
                compared += 1
                seen |= {k for _, k, _, _ in got}
            moves = s.legal_moves()
            decl = [m for m in moves if m.kind >= MoveKind.BUILD]
            pick = decl if decl and rng.below(3) else moves
            s.push(pick[rng.below(len(pick))])
        kinds = len(seen)
    assert kinds == 5, seen
