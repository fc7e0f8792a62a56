"""Zwickern (docs/rules.md §3.32; AMB-87 to AMB-91).

Two to eight players, 52 cards and 6 jokers (none for five or more). Values 2-10 pip, A 11,
J 12, Q 13, K 14. 4 cards each and 4 to the table; a player whose hand runs out draws 4 (the
rest if fewer), and one out of cards with the stock gone drops out. A card of value v takes
any set of cards of v, stacks of v and groups of two or more loose cards totalling v; a
played joker is played as a value 2-14 (part of the move, ``X1:9x4C,5D``); a loose joker is
a match of any value, and any value 2-14 in a group (AMB-87; option joker_values=match_only).
Capturing is compulsory (AMB-90; option compulsion=none). Otherwise a player trails, or puts
his card on one loose card or one stack: an ownerless stack of the total, at most 14 (AMB-88;
option holding_invariant). A capture that clears the table is a Zwicker, 3 points; 10D 10,
each ace 2, 7D and 7S 1, most cards 1 (a tie: nobody). Leftovers are unclaimed (AMB-89);
the hand is the game and a tie is shared (AMB-91; option game_end=target). The suite runs
once on the core and once with CASSINO_PURE_PYTHON=1.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import cassino
from cassino import Game, Move, rules
from cassino.actions import ActionSpace
from cassino.cards import CardSet, parse_card
from cassino.errors import IllegalMoveError, PositionError, RulesError
from cassino.players import View
from cassino.position import Position
from cassino.scoring import used_categories
from conftest import assert_actions_round_trip, ids, notations, position_dict

ZW = "zwickern"


def state(hands: list[str], table: Any, **kw: Any) -> Any:
    kw.setdefault("piles", [""] * len(hands))
    return cassino.State.from_position(Position.from_dict(position_dict(hands, table, system=ZW, **kw)))


def stack(groups: str, value: int) -> dict[str, Any]:
    return {"groups": [groups.split("+")], "value": value, "owners": []}


def snapshot(s: Any) -> tuple[Any, list[str]]:
    return s.to_position(), [str(m) for m in s.legal_moves()]


# -- preset and options -----------------------------------------------------------------------
def test_preset_follows_section_3_32():
    r = rules(ZW)
    assert ZW in cassino.implemented_systems()
    assert [r.card_value(parse_card(c)) for c in ("AS", "2S", "10D", "JC", "QH", "KD", "X1")] == \
        [11, 2, 10, 12, 13, 14, 0]
    assert (r.jokers, r.deck_size, r.joker_values, r.compulsion) == (6, 58, "any", "player")
    assert (r.sweep_points, r.leftovers_to, r.game_end, r.final_tie) == (3, "nobody", "one_hand", "shared")
    assert used_categories(r) == ("cards", "ace_spades", "ace_clubs", "ace_hearts", "ace_diamonds",
                                  "good_ten", "seven_diamonds", "seven_spades", "sweeps")
    p = cassino.State.deal(r, 0, 3).to_position()
    assert [h.bit_count() for h in p.hands] == [4, 4] and p.loose.bit_count() == 4
    assert len(p.stock) == 46 and p.to_move == 1
    assert rules(ZW, players=5).jokers == 0 and rules(ZW, players=4).jokers == 6
    assert rules(ZW, players=8, jokers=2).deck_size == 54


@pytest.mark.parametrize(
    ("system", "options", "pattern"),
    [
        (ZW, {"players": 9}, "2 to 8 players"),
        (ZW, {"jokers": 3}, "0, 2, 4 or 6 jokers"),
        (ZW, {"jokers": 0, "joker_values": "match_only"}, "only with jokers"),
        (ZW, {"joker_values": "sometimes"}, "must be one of"),
        (ZW, {"compulsion": "lay_match_forced"}, "player .AMB-90. or none"),
        (ZW, {"leftovers_to": "last_to_play"}, "nobody .AMB-89. or the last capturer"),
        (ZW, {"card_values": "royal"}, "needs card_values=zwickern"),
        (ZW, {"pluck": True}, "cannot be combined with Zwickern"),
        (ZW, {"capture_extent": "maximal"}, "cannot be combined with Zwickern"),
        (ZW, {"unique_build_values": True}, "cannot be combined with Zwickern"),
        (ZW, {"build_max_value": 10}, "cannot be combined with Zwickern"),
        ("cassino_standard", {"seven_spades_points": 1}, "Zwickern rule"),
        ("cassino_standard", {"card_values": "zwickern", "match_mode": "value", "build_max_value": 14},
         "Zwickern rule"),
    ],
)
def test_bad_options_raise(system, options, pattern):
    with pytest.raises(RulesError, match=pattern):
        rules(system, **options)


# -- captures (AMB-87, AMB-90) ----------------------------------------------------------------------
def test_matches_and_any_groups_of_the_value_aces_11():
    s = state(["AS 8C", "2D 3D"], "5D 6C KH 2S 9S")
    assert notations(s) == {"ASx5D,6C", "ASx2S,9S", "ASx2S,5D,6C,9S", "8Cx2S,6C"}
    s = state(["JC 4H", "2D 3D"], "JS 5C 7D KS")
    assert notations(s) == {"JCxJS", "JCx5C,7D", "JCx5C,7D,JS"}


def test_a_loose_joker_is_a_match_and_any_addend():
    s = state(["9H 8C", "2D 3D"], "X1 4C")
    assert notations(s) == {"9HxX1", "9Hx4C,X1", "8CxX1", "8Cx4C,X1"}
    s = state(["9H 8C", "2D 3D"], "X1 4C", options={"joker_values": "match_only"})
    assert notations(s) == {"9HxX1", "8CxX1"}


def test_a_played_joker_declares_its_value():
    s = state(["X1 2C", "2D 3D"], "5D 9S")
    assert notations(s) == {"X1:5x5D", "X1:9x9S", "X1:14x5D,9S"}
    m = Move.parse("x1:14x9s,5d")
    assert m.value == 14 and str(m) == "X1:14x5D,9S" and m in s.legal_moves()
    assert "played as a value from 2 to 14" in s.explain(Move.parse("X1x5D"))
    assert "only a Zwickern joker" in s.explain(Move.parse("2C:5x5D"))
    before = snapshot(s)
    with pytest.raises(IllegalMoveError):
        s.push("X1:6x5D")
    assert snapshot(s) == before
    s.push("X1:14x5D,9S")
    p = s.to_position()
    assert set(ids("X1 5D 9S")) <= set(p.piles[0]) and p.sweep_order == (0,)


def test_capture_is_compulsory_unless_compulsion_none():
    s = state(["9H 3C", "2D 3D"], "9S 6C")
    assert notations(s) == {"9Hx9S"}
    assert "compulsion=player" in s.explain(Move.parse("3C"))
    s = state(["9H 3C", "2D 3D"], "9S 6C", options={"compulsion": "none"})
    assert notations(s) == {"9Hx9S", "9H", "3C", "3C+6C=9", "3C+9S=12"}


def _set_partitions(items: list[int]) -> Any:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _set_partitions(rest):
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1:]]
        yield [[first], *part]


@settings(max_examples=150, deadline=None)
@given(v=st.integers(4, 14), values=st.lists(st.integers(2, 13), max_size=7))
def test_the_split_search_agrees_with_every_set_partition(v, values):
    """reference.zwickern.fewest_short_groups (and so the core's zw_split, which the
    differential tests hold to it) against a brute force over the set partitions."""
    from cassino.reference.zwickern import fewest_short_groups

    small = sorted(x for x in values if x < v)
    best = None
    for part in _set_partitions(small):
        sums = [sum(b) for b in part]
        if all(t == v or t <= v - 2 for t in sums):
            short = sum(t != v for t in sums)
            best = short if best is None else min(best, short)
    assert fewest_short_groups(tuple(small), v) == best


# -- stacks (AMB-88) ------------------------------------------------------------------------------------
def test_stacks_belong_to_nobody_and_total_at_most_14():
    s = state(["3H 5C", "2D 4S"], "7D", stock="AH AD AC 2H")
    assert notations(s) == {"3H", "3H+7D=10", "5C", "5C+7D=12"}
    s.push("3H+7D=10")
    p = s.to_position()
    assert p.builds[0].owners == 0 and p.builds[0].value == 10 and "(3H+7D=10@)" in p.to_text()
    assert json.loads(p.to_json())["table"] == [stack("3H+7D", 10)]
    assert notations(s) == {"2D", "2D+3H,7D=12", "4S", "4S+3H,7D=14"}   # anyone adds to it
    s.push("4S+3H,7D=14")
    assert s.to_position().builds[0].value == 14
    assert notations(s) == {"5C"}
    assert "at most 14" in s.explain(Move.parse("5C+3H,4S,7D=19"))


def test_a_stack_is_taken_whole_by_its_value():
    s = state(["KC 2H", "2D 3D"], [stack("3H+7D+4S", 14), "5S 9D"])
    assert notations(s) == {"KCx3H,4S,7D", "KCx5S,9D", "KCx3H,4S,5S,7D,9D"}
    assert "as a whole" in s.explain(Move.parse("KCx3H,7D"))


def test_jokers_in_stacks_and_the_holding_option():
    s = state(["X1 2C", "2D 3D"], "9C", options={"compulsion": "none"})
    builds = {m for m in notations(s) if "+" in m}
    assert builds == {"X1+9C=11", "X1+9C=12", "X1+9C=13", "X1+9C=14", "2C+9C=11"}
    s.push("X1+9C=13")
    assert s.to_position().builds[0].value == 13
    s = state(["2H 5C", "2D 3D"], "X2", options={"compulsion": "none"})
    assert {m for m in notations(s) if m.startswith("2H+")} == {f"2H+X2={t}" for t in range(4, 15)}
    s.push("2h+x2=11")                       # (a joker after +: a build, not a capture)
    assert s.to_position().builds[0].cards == CardSet.parse("2H X2").mask
    s = state(["3H 5C 10S", "2D 3D"], "7D", options={"holding_invariant": True})
    assert notations(s) == {"3H", "5C", "10S", "3H+7D=10"}
    assert "holding_invariant" in s.explain(Move.parse("5C+7D=12"))


# -- refills, drop-outs, scoring ------------------------------------------------------------------
def test_a_hand_that_runs_out_draws_four_then_the_rest():
    s = state(["9H", "2D 3D"], "9S", stock="AS 2S 3S 4S 5S 6S")
    s.push("9Hx9S")
    p = s.to_position()
    assert p.hands[0] == CardSet.parse("AS 2S 3S 4S").mask and p.stock == tuple(ids("5S 6S"))
    s = state(["9H", "2D 3D", "4C"], "9S", stock="AS", dealer=2)
    s.push("9Hx9S")
    assert s.to_position().hands[0] == CardSet.parse("AS").mask and not s.to_position().stock


def test_a_player_out_of_cards_drops_out():
    s = state(["9H", "2D 3D", "4C 5C"], "KS", dealer=2)
    s.push("9H")
    p = s.to_position()
    assert p.to_move == 1 and p.hands[0] == 0
    s.push("2D")
    s.push("4C")
    assert s.to_position().to_move == 1        # seat 0 is out: seat 2 passes to seat 1


def test_a_zwicker_scores_3_and_the_card_points():
    s = state(["10D 8D", "2D 3D"], "4C 6H", piles=["AS AH 7S 7D", "AC"], stock="")
    s.push("10Dx4C,6H")                         # the table cleared: a Zwicker
    s.push("2D")
    s.push("8D")
    s.push("3D")
    hs = s.hand_score()
    got = {(e[0], e[1]) for e in hs.events}
    assert {("sweeps", 0), ("good_ten", 0), ("seven_diamonds", 0), ("seven_spades", 0),
            ("ace_spades", 0), ("ace_hearts", 0), ("ace_clubs", 1)} <= got
    assert dict(((n, t), pts) for n, t, pts in hs.events)[("sweeps", 0)] == 3
    assert s.to_position().discard == tuple(sorted(ids("2D 8D 3D")))   # unclaimed (AMB-89)


def test_leftovers_to_the_last_capturer_option():
    s = state(["9H 4C", "2D 3D"], "9S", options={"leftovers_to": "last_capturer"})
    for m in ("9Hx9S", "2D", "4C", "3D"):
        s.push(m)
    assert set(ids("2D 4C 3D")) <= set(s.to_position().piles[0])


def test_a_game_is_one_hand_a_tie_shared_or_to_a_target():
    g = Game(rules(ZW), seed=2)
    while not g.is_over:
        g.push(g.legal_moves()[0])
    assert len(g.hand_scores) == 1
    totals = g.scores
    best = max(totals)
    assert g.winners == tuple(t for t, x in enumerate(totals) if x == best)
    g = Game(rules(ZW, game_end="target", target=30), seed=2)   # (AMB-91 option)
    while not g.is_over:
        g.push(g.legal_moves()[0])
    assert max(g.scores) >= 30 and len(g.hand_scores) > 1
    best = max(g.scores)
    assert g.winners == tuple(t for t, x in enumerate(g.scores) if x == best)


# -- positions, views, actions ------------------------------------------------------------------
def test_positions_round_trip_and_bad_stacks_raise():
    s = state(["X1 2C", "2D 3D"], [stack("X2+9C", 13), "5D"], options={"compulsion": "none"})
    p = s.to_position()
    assert Position.from_text(p.to_text()) == p == Position.from_json(p.to_json())
    base = position_dict(["X1 2C", "2D 3D"], "5D", system=ZW)
    for item, pattern in (
        ({**stack("X2+9C", 13), "owners": [0]}, "belong to nobody"),
        (stack("X2+9C", 10), "worth 11 to 14"),
        (stack("4C+9C", 12), "worth 13"),
        (stack("4C+9C+5H", 18), "at most 14"),
        ({"groups": [["4C"], ["9C"]], "value": 13, "owners": []}, "one group"),
    ):
        d = position_dict(["X1 2C", "2D 3D"], [item, "5D"], system=ZW)
        with pytest.raises(PositionError, match=pattern):
            Position.from_dict(d)
    assert Position.from_dict(base).validate()


def test_views_hide_the_jokers_like_any_card():
    s = state(["X1 2C", "2D 3D"], "5D 9S", stock="X2 AS 2S 3S")
    view = View.of(s, 1)
    assert view.hand == CardSet.parse("2D 3D") and parse_card("X1") in view.unseen
    world = view.sample_world(cassino.Rng(3)).to_position()
    assert world.hands[1] == s.to_position().hands[1] and len(world.stock) == 4


def test_declared_captures_in_the_action_space():
    s = state(["X1 2C", "2D 3D"], "5D 9S X2")
    space = ActionSpace(s.rules)
    assert space.describe(space.declare + 7) == "capture as 9" and space.num_actions <= 300
    assert_actions_round_trip(s)
    assert ActionSpace(rules(ZW, players=5)).declare == -1


# -- whole hands ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("options", [{}, {"players": 3, "joker_values": "match_only"},
                                     {"players": 5}, {"compulsion": "none"}])
def test_random_hands_conserve_the_cards(options):
    r = rules(ZW, **options)
    for seed in range(4):
        s = cassino.State.deal(r, seed % r.players, seed)
        rng = cassino.Rng(seed)
        while not s.is_over:
            moves = s.legal_moves()
            s.push(moves[rng.below(len(moves))])
        p = s.to_position()
        assert sum(len(x) for x in p.piles) + len(p.discard) == r.deck_size
        hs = s.hand_score()
        assert sum(hs.totals()) == sum(pts for _, _, pts in hs.events)


@pytest.mark.skipif(cassino.IMPLEMENTATION != "core", reason="the core's multiset counter")
def test_counting_by_value_multisets_matches_the_listing():
    for options in ({}, {"compulsion": "none", "holding_invariant": True},
                    {"compulsion": "none", "joker_values": "match_only"}, {"players": 5}):
        r = rules(ZW, **options)
        for seed in range(4):
            s = cassino.State.deal(r, seed % r.players, seed)
            rng = cassino.Rng(seed)
            while not s.is_over and s._count_by_multisets() <= 5000:
                moves = s.legal_moves()
                assert s._count_by_multisets() == len(moves)
                trails = [m for m in moves if m.kind.name == "TRAIL"]
                s.push(trails[0] if trails and rng.below(4) else moves[rng.below(len(moves))])
    # a table of 26 cards: millions of captures, counted without listing them
    table = "2S 2H 2D 3S 3H 3D 4S 4H 4D 5S 5H 5D 6S 6H 6D 7H 7D 8S 8H 8D 9S 9H 9D 10S 10H X3"
    s = state(["KC X1", "2C 3C"], table, options={"compulsion": "none"})
    assert s.count_moves() == 69_915_845
    with pytest.raises(cassino.MoveLimitError, match="69915845 legal moves"):
        s.legal_moves(limit=1000)


def test_cli_moves_and_play_show_the_declared_value(tmp_path):
    from cassino.cli import cli

    s = state(["X1 2C", "2D 3D"], "5D 9S")
    path = tmp_path / "zw.txt"
    path.write_text(s.to_position().to_text())
    out = CliRunner().invoke(cli, ["moves", str(path)])
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(r["move"], r["declared"]) for r in records] == [
        ("X1:5x5D", 5), ("X1:9x9S", 9), ("X1:14x5D,9S", 14)]
    played = CliRunner().invoke(cli, ["play", "--system", ZW, "--seed", "3", "--no-color"],
                                input="X2:13xQD,QC\nquit\n")
    assert "You play X2:13xQD,QC: capture Q♦ Q♣ with X2 as 13" in played.stdout
    played = CliRunner().invoke(cli, ["play", "--system", ZW, "--seed", "3", "--no-color",
                                      "--option", "compulsion=none"], input="3S+8C=11\nquit\n")
    assert "[3♠+8♣ = 11, stack, anyone's]" in played.stdout
    assert "stack, owned by nobody" in state(["KC 2H", "2D 3D"], [stack("3H+7D+X2", 14)]).to_position().board()


def test_cli_simulate():
    from cassino.cli import cli

    n = "200" if cassino.IMPLEMENTATION == "core" else "4"
    out = CliRunner().invoke(cli, ["simulate", "--system", ZW, "--games", n, "--seed", "1",
                                   "--workers", "1"])  # fmt: skip
    assert out.exit_code == 0, out.output
    assert f"{n} games" in out.output and ZW in out.output
