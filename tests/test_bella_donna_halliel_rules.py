"""Bella Donna Halliel (docs/rules.md §3.34; AMB-93).

Bella Donna (§3.33), but each player keeps one face-up capture pile, the card he captured with
on top. A card of the rank of the top card of the opponent's pile may take that whole pile,
which goes face up onto the player's own pile with the card played on top: a pile capture.
It replaces the turn's table capture, is never compulsory, is no capture "from the board" for
the last-capture rule, and earns no Fixxa or Stoppa; the Fixxa and Stoppa points stay with
the player who earned them (AMB-93; option steal_bonuses=travel: they go with the pile). The
suite runs once on the core and once with CASSINO_PURE_PYTHON=1.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

import cassino
from cassino import Move, MoveKind, rules
from cassino.actions import ActionSpace
from cassino.cards import parse_card
from cassino.errors import IllegalMoveError, RulesError
from cassino.players import View
from cassino.position import Position, bundle_order
from cassino.scoring import used_categories
from conftest import assert_actions_round_trip, ids, notations, position_dict

BH = "bella_donna_halliel"


def state(hands: list[str], table: str, piles: list[str], **kw: Any) -> Any:
    """A state whose piles are ``piles`` (the last card named is the top); the cards not
    named go under the top of pile ``rest_to`` (default 0). ``bonuses`` per team."""
    kw.setdefault("rest_to", 0)
    bonuses = kw.pop("bonuses", None)
    d = position_dict(hands, table, system=BH, piles=[p.split() for p in piles], **kw)
    for t, p in enumerate(piles):
        if p:
            top = p.split()[-1]
            d["piles"][t].remove(top)
            d["piles"][t].append(top)
    if bonuses is not None:
        d["bonuses"] = bonuses
    return cassino.State.from_position(Position.from_dict(d))


def snapshot(s: Any) -> tuple[Any, list[str]]:
    return s.to_position(), sorted(str(m) for m in s.legal_moves())


# -- preset and options -----------------------------------------------------------------------
def test_preset_is_bella_donna_with_pile_steals():
    r = rules(BH)
    assert BH in cassino.implemented_systems()
    assert (r.players, r.match_mode, r.build_kinds, r.pile_access) == (2, "rank", "none", "steal_pile")
    assert (r.capture_extent, r.combine_match_and_sum, r.compulsion) == ("single_group", False, "none")
    assert (r.sweeps, r.target, r.final_tie, r.fixxa_stoppa) == (False, 150, "more_hands", "once")
    assert (r.steal_bonuses, r.leftovers_to, r.steal_and_capture) == ("stay", "last_capturer", False)
    assert used_categories(r) == ("red_cards", "fixxa_stoppa")
    p = cassino.State.deal(r, 0, 3).to_position()
    assert [h.bit_count() for h in p.hands] == [4, 4] and p.loose.bit_count() == 4
    assert len(p.stock) == 40 and r.deals_per_hand == 6 and p.to_move == 1


@pytest.mark.parametrize(
    ("system", "options", "pattern"),
    [
        (BH, {"players": 3}, "played by 2 players"),
        (BH, {"pile_access": "none"}, "takes his whole pile"),
        (BH, {"steal_and_capture": True}, "replaces the table capture"),
        (BH, {"deal_singles": True}, "Stealing Bundles rule"),
        (BH, {"capture_extent": "all_matches"}, "one sum group"),
        (BH, {"steal_bonuses": "keep"}, "must be one of"),
        ("bella_donna", {"steal_bonuses": "travel"}, "Halliel rule"),
        ("stealing_bundles", {"steal_bonuses": "travel"}, "Halliel rule"),
    ],
)
def test_bad_options_raise(system, options, pattern):
    with pytest.raises(RulesError, match=pattern):
        rules(system, **options)


# -- captures and pile captures --------------------------------------------------------------------
def test_a_capture_goes_on_top_of_the_one_face_up_pile():
    s = state(["8C KC", "2D 3D"], "3C 5H 8H", ["4S", "10S"])
    s.push("8Cx3C,5H")
    p = s.to_position()
    assert p.piles[0][-1] == parse_card("8C") and p.piles[0] == bundle_order(p.piles[0])
    assert set(ids("3C 5H 4S")) <= set(p.piles[0]) and p.last_capturer == 0


def test_the_top_card_s_rank_takes_the_whole_pile_and_nothing_is_compulsory():
    s = state(["9H 8C", "2D 3D"], "9S 5C 3C", ["4S", "2C 9C"])
    assert notations(s) == {"9H", "8C", "9Hx9S", "8Cx3C,5C", "9H>2C,9C"}
    before = snapshot(s)
    s.push("9H>2C,9C")
    p = s.to_position()
    assert p.piles[1] == () and p.piles[0][-1] == parse_card("9H")
    assert set(ids("2C 9C 4S")) <= set(p.piles[0]) and p.piles[0] == bundle_order(p.piles[0])
    assert p.loose == s.to_position().loose and p.last_capturer is None   # (no board capture)
    s.pop()
    assert snapshot(s) == before


def test_one_action_a_turn_and_only_the_opponent_s_top():
    s = state(["9H 4D", "2D 3D"], "9S 5C", ["4S", "2C 9C"])
    own = sum(1 << c for c in s.to_position().piles[0])
    before = snapshot(s)
    for m, why in (
        (Move.parse("9H>2C,9S,9C"), "one steal or one table capture"),
        (Move(parse_card("4D"), MoveKind.STEAL, own), "own"),
        (Move.parse("4D>2C,9C"), "a 4D cannot steal it"),
        (Move.parse("9H>9C"), "whole"),
    ):
        assert not s.is_legal(m) and why in s.explain(m)
        with pytest.raises(IllegalMoveError):
            s.push(m)
        assert snapshot(s) == before


def test_a_pile_capture_earns_no_fixxa_or_stoppa():
    # seat 1 trails the 7C; seat 0 takes seat 1's pile on an empty table: no Stoppa, and the
    # 7C is no Fixxa card any more (seat 0 played no trail)
    s = state(["9H KC", "7C 2D"], "", ["4S", "2C 9C"], to_move=1, stock="AS 2S 3S 4H 5S 6S 7S 8S")
    s.push("7C")
    assert s.to_position().fixxa == parse_card("7C")
    s.push("9H>2C,9C")
    p = s.to_position()
    assert p.bonuses == () and p.fixxa is None and p.loose == 1 << parse_card("7C")
    s = state(["9H KC", "2D 3D"], "", ["4S", "2C 9C"], stock="AS 2S 3S 4H 5S 6S 7S 8S")
    s.push("9H>2C,9C")
    assert s.to_position().bonuses == ()                  # the table stays empty: no Stoppa


@pytest.mark.parametrize(("option", "after"), [("stay", (2, 3)), ("travel", (5, 0))])
def test_bonuses_stay_or_travel_with_the_pile(option, after):
    s = state(["9H KC", "2D 3D"], "5C", ["4S", "2C 9C"], bonuses=[2, 3],
              options={"steal_bonuses": option}, stock="AS 2S 3S 4H 5S 6S 7S 8S")
    before = snapshot(s)
    s.push("9H>2C,9C")
    assert s.to_position().bonuses == after
    s.pop()
    assert snapshot(s) == before


def test_leftovers_go_to_the_last_board_capturer_not_the_thief():
    s = state(["9H", "QD"], "5D 2C", ["8S", "3C 9C"], last_capturer=1)
    s.push("9H>3C,9C")
    s.push("QD")
    p = s.to_position()
    assert s.is_over and set(p.piles[1]) == set(ids("5D 2C QD"))
    assert p.piles[0][-1] == parse_card("9H") and len(p.piles[0]) + len(p.piles[1]) == 52


# -- views, positions, actions --------------------------------------------------------------------
def test_pile_tops_are_public_and_positions_round_trip():
    s = state(["9H 4S", "2D 3D"], "KS", ["8S 9S", "2C 10C"], bonuses=[1, 0])
    view = View.of(s, 1)
    assert [pile[-1] for pile in view.piles] == ids("9S 10C") and view.bonuses == (1, 0)
    p = s.to_position()
    assert Position.from_text(p.to_text()) == p == Position.from_json(p.to_json())
    assert json.loads(p.to_json())["piles"][1][-1] == "10C"
    world = view.sample_world(cassino.Rng(2)).to_position()
    assert world.piles == p.piles and world.bonuses == p.bonuses


def test_steals_and_one_group_captures_in_the_action_space():
    s = state(["9H 8C", "2D 3D"], "9S 5C 3C", ["4S", "2C 9C"])
    space = ActionSpace(s.rules)
    assert space.num_actions == space.steal + 1
    assert_actions_round_trip(s)


# -- whole hands --------------------------------------------------------------------------------------
@pytest.mark.parametrize("option", ["stay", "travel"])
def test_random_hands_with_steals_conserve_cards_and_points(option):
    r = rules(BH, steal_bonuses=option)
    steals = 0
    for seed in range(8):
        s = cassino.State.deal(r, seed % 2, seed)
        rng = cassino.Rng(seed)
        while not s.is_over:
            moves = s.legal_moves()
            take = [m for m in moves if m.kind == MoveKind.STEAL]
            m = take[0] if take else moves[rng.below(len(moves))]
            steals += m.kind == MoveKind.STEAL
            s.push(m)
        p = s.to_position()
        assert sum(s.hand_score().totals()) == 36 + sum(p.bonuses)
        assert sum(len(x) for x in p.piles) == 52
    assert steals > 8


def test_cli_simulate():
    from cassino.cli import cli

    n = "300" if cassino.IMPLEMENTATION == "core" else "4"
    out = CliRunner().invoke(cli, ["simulate", "--system", BH, "--games", n, "--seed", "1",
                                   "--workers", "1"])  # fmt: skip
    assert out.exit_code == 0, out.output
    assert f"{n} games" in out.output and BH in out.output
