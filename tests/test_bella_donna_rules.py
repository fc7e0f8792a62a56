"""Bella Donna (docs/rules.md §3.33; AMB-92, AMB-94).

Two players, A 1, 2-10 pip, J Q K by rank only; no building, no sweeps. 4 cards to the
opponent, 4 to the dealer, 4 face up to the table; six deals; the opponent of the dealer
leads. A play takes one loose card of its rank (even if several lie there) or one sum group
of two or more numeric cards totalling its value; capturing is never compulsory. Leftovers
to the last capturer, with no bonus. Red honours (A K Q J 10 of hearts and diamonds) score
2, red 2-9 1, black cards 0. A capture that takes the card the previous player trailed on
his last turn (a Fixxa, also across a deal) or clears the table (a Stoppa) scores +1 a card,
the card played included; both at once +1 (AMB-92; option fixxa_stoppa=stack: +2). The
game is played to 150; equal totals play another hand (AMB-94). The suite runs once on the
core and once with CASSINO_PURE_PYTHON=1.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

import cassino
from cassino import Game, Move, Position, rules
from cassino.cards import CardSet, parse_card
from cassino.errors import IllegalMoveError, PositionError, RulesError
from cassino.players import View
from cassino.scoring import red_card_points, used_categories
from conftest import ids, make_state, notations, position_dict

BD = "bella_donna"


def state(hands: list[str], table: str, **kw: Any) -> Any:
    return make_state(hands, table, system=BD, **kw)


# -- preset and options -----------------------------------------------------------------------
def test_preset_follows_section_3_33():
    r = rules(BD)
    assert BD in cassino.implemented_systems()
    assert (r.players, r.card_values, r.match_mode, r.build_kinds) == (2, "standard", "rank", "none")
    assert (r.capture_extent, r.combine_match_and_sum, r.compulsion) == ("single_group", False, "none")
    assert (r.sweeps, r.target, r.final_tie, r.fixxa_stoppa) == (False, 150, "more_hands", "once")
    assert used_categories(r) == ("red_cards", "fixxa_stoppa")
    p = cassino.State.deal(r, 0, 3).to_position()
    assert [h.bit_count() for h in p.hands] == [4, 4] and p.loose.bit_count() == 4
    assert len(p.stock) == 40 and r.deals_per_hand == 6 and p.to_move == 1


@pytest.mark.parametrize(
    ("system", "options", "pattern"),
    [
        (BD, {"players": 3}, "played by 2 players"),
        (BD, {"build_kinds": "simple+multiple"}, "no building in Bella Donna"),
        (BD, {"sweeps": True}, "Stoppa"),
        (BD, {"fixxa_stoppa": "none"}, "Fixxa and the Stoppa"),
        (BD, {"fixxa_stoppa": "twice"}, "must be one of"),
        ("cassino_standard", {"fixxa_stoppa": "once"}, "Bella Donna rule"),
        ("cassino_standard", {"red_card_points": True}, "Bella Donna rule"),
    ],
)
def test_bad_options_raise(system, options, pattern):
    with pytest.raises(RulesError, match=pattern):
        rules(system, **options)


def test_red_card_points():
    assert [red_card_points(c) for c in ids("AH AD 10H JD QH KD")] == [2] * 6
    assert [red_card_points(c) for c in ids("2H 5D 9H")] == [1] * 3
    assert [red_card_points(c) for c in ids("AS 10C KS 7C")] == [0] * 4
    assert sum(red_card_points(c) for c in range(52)) == 36


# -- captures ---------------------------------------------------------------------------------------
def test_one_matching_card_or_one_sum_group():
    s = state(["8C KC", "QH 9S"], "8H 8S 5D 3C 6H 2D KH KS")
    legal = notations(s)
    assert {"8Cx8H", "8Cx8S", "8Cx3C,5D", "8Cx2D,6H", "KCxKH", "KCxKS", "8C", "KC"} == legal
    why = s.explain(Move.parse("8Cx8S,8H"))
    assert why is not None
    with pytest.raises(IllegalMoveError):
        s.push("8Cx3C,5D,8S")


# -- Fixxa and Stoppa (AMB-92) ------------------------------------------------------------------------
def test_fixxa_takes_the_card_just_trailed():
    s = state(["7C 9S", "7H QD"], "5D 2C KH", stock="AS 2S 3S 4S 5S 6S 7S 8S", to_move=0)
    s.push("7C")                              # seat 0 trails the 7C
    assert s.to_position().fixxa == parse_card("7C")
    s.push("7Hx7C")                           # seat 1 takes it: a Fixxa, 2 cards +1 each
    p = s.to_position()
    assert p.bonuses == (0, 2) and p.fixxa is None
    assert ("fixxa_stoppa", 1, 2) in s.hand_score().events


def test_no_fixxa_without_the_trailed_card_or_after_another_turn():
    s = state(["7C 9S", "7H QD"], "5D 2C KH 7S", stock="AS 2S 3S 4S 5S 6S 8S 8C", to_move=0)
    s.push("7C")
    s.push("7Hx7S")                           # another seven: no Fixxa
    assert s.to_position().bonuses == ()
    s = state(["7C 9S", "QD 7H"], "5D 2C KH", stock="AS 2S 3S 4S 5S 6S 7S 8S", to_move=0)
    s.push("7C")
    s.push("QD")                              # seat 1 trails: the 7C is no Fixxa card now
    assert s.to_position().fixxa == parse_card("QD")
    s.push("9S")
    s.push("7Hx7C")
    assert s.to_position().bonuses == ()


def test_fixxa_across_a_new_deal():
    # the dealer (seat 0) trails the last card of the deal; the non-dealer leads the next
    # deal and takes it: a Fixxa
    s = state(["9S", "7H"], "5D 2C KH", stock="9H AS 2S 3S 4S 5S 6S 8S", to_move=1, dealer=0)
    s.push("7H")
    s.push("9S")                              # the last play of the deal: a trail
    p = s.to_position()
    assert p.fixxa == parse_card("9S") and p.to_move == 1
    assert p.hands[1] == CardSet.parse("9H AS 2S 3S").mask
    s.push("9Hx9S")
    assert s.to_position().bonuses == (0, 2)


def test_stoppa_clears_the_table():
    s = state(["8C 9S", "QD KC"], "5D 3H", stock="AS 2S 3S 4S 5S 6S 7S 8S", to_move=0)
    s.push("8Cx3H,5D")                        # the table is empty: a Stoppa, 3 cards +1
    assert s.to_position().bonuses == (3, 0)


def test_fixxa_and_stoppa_once_or_stacked():
    for option, bonus in (("once", 2), ("stack", 4)):
        s = state(["7C 9S", "7H QD"], "", stock="AS 2S 3S 4S 5S 6S 7S 8S", to_move=0,
                  options={"fixxa_stoppa": option}, piles=[["5D", "2C", "KH"], []])
        s.push("7C")
        s.push("7Hx7C")                       # the trailed card, and the table is clear
        assert s.to_position().bonuses == (0, bonus), option


def test_the_leftovers_earn_no_bonus():
    s = state(["9S", "QD"], "5D 2C", piles=[[], ["AH"]], last_capturer=1, to_move=0)
    s.push("9S")
    s.push("QD")
    p = s.to_position()
    assert s.is_over and p.bonuses == () and p.fixxa is None
    assert set(ids("5D 2C 9S QD")) <= set(p.piles[1])


# -- positions and views ----------------------------------------------------------------------------
def test_fixxa_and_bonuses_round_trip():
    s = state(["7C 9S", "7H QD"], "5D 2C KH", stock="AS 2S 3S 4S 5S 6S 7S 8S", to_move=0)
    s.push("7C")
    p = s.to_position()
    assert p.to_text().endswith("bella:-:7C") and json.loads(p.to_json())["fixxa"] == "7C"
    assert Position.from_text(p.to_text()) == p == Position.from_json(p.to_json())
    s.push("7Hx7C")
    p = s.to_position()
    assert p.to_text().endswith("bella:0,2") and json.loads(p.to_json())["bonuses"] == [0, 2]
    assert Position.from_text(p.to_text()) == p
    view = View.of(s, 0)
    assert view.bonuses == (0, 2) and view.fixxa is None
    world = view.sample_world(cassino.Rng(1))
    assert world.to_position().bonuses == (0, 2)


def test_bad_positions_raise():
    base = position_dict(["7C 9S", "7H QD"], "5D 2C KH", system=BD, stock="AS 2S 3S 4S 5S 6S 7S 8S")
    with pytest.raises(PositionError, match="fixxa must be a loose card"):
        Position.from_dict({**base, "fixxa": "AH"})
    with pytest.raises(PositionError, match="bonuses must be 2 counts"):
        Position.from_dict({**base, "bonuses": [1, 2, 3]})
    with pytest.raises(PositionError, match="all zeros"):
        dataclasses.replace(Position.from_dict(base), bonuses=(0, 0)).validate()
    std = position_dict(["7C 9S", "7H QD"], "5D 2C KH", stock="AS 2S 3S 4S 5S 6S 7S 8S")
    with pytest.raises(PositionError, match="Bella Donna"):
        Position.from_dict({**std, "bonuses": [1, 0]})


# -- whole games ----------------------------------------------------------------------------------------
def test_random_hands_score_36_red_points_plus_the_bonuses():
    r = rules(BD)
    for seed in range(6):
        s = cassino.State.deal(r, seed % 2, seed)
        rng = cassino.Rng(seed)
        while not s.is_over:
            moves = s.legal_moves()
            s.push(moves[rng.below(len(moves))])
        p = s.to_position()
        assert sum(s.hand_score().totals()) == 36 + sum(p.bonuses)
        assert sum(len(x) for x in p.piles) == 52


def test_a_game_to_150_and_another_hand_on_equal_totals():
    g = Game(rules(BD, target=30), seed=4)
    while not g.is_over:
        moves = g.legal_moves()      # (the largest capture: trails alone would score nothing)
        g.push(max(moves, key=lambda m: (m.takes.bit_count(), -moves.index(m))))
    totals = g.scores
    assert max(totals) >= 30 and totals[0] != totals[1]
    assert g.winners == (totals.index(max(totals)),)
