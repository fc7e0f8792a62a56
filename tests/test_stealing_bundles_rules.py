"""Stealing Bundles (docs/rules.md §3.31; AMB-85, AMB-86).

Two to four players, ranks only: no sums, no building. 4 cards each and 4 to the table; when
every hand is empty each draws one card at a time from the dealer's left back to 4. A card
takes every loose card of its rank (capture), or another player's whole face-up bundle whose
top card has its rank (steal), one of the two a turn; a player trails only when no card of
his can do either. The card played goes on top of the player's bundle. Leftovers are
unclaimed; each hand is a game won by the most cards, a tie shared. The suite runs once on
the core and once with CASSINO_PURE_PYTHON=1.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

import cassino
from cassino import Game, Move, MoveKind, rules
from cassino.actions import ActionSpace
from cassino.cards import parse_card
from cassino.errors import IllegalMoveError, NotationError, PositionError, RulesError
from cassino.players import View
from cassino.position import Position, bundle_order
from cassino.scoring import score_hand, used_categories
from conftest import assert_actions_round_trip, ids, notations, position_dict

SB = "stealing_bundles"


def state(hands: list[str], table: str, piles: list[str], **kw: Any) -> Any:
    """A state whose bundles are ``piles`` (the last card named is the top); the cards not
    named go under the top of bundle ``rest_to`` (default 0)."""
    kw.setdefault("rest_to", 0)
    d = position_dict(hands, table, system=SB, piles=[p.split() for p in piles], **kw)
    for t, p in enumerate(piles):
        if p:
            top = p.split()[-1]
            d["piles"][t].remove(top)
            d["piles"][t].append(top)
    return cassino.State.from_position(Position.from_dict(d))


# -- preset and options ----------------------------------------------------------------------
@pytest.mark.parametrize(("players", "deals"), [(2, 6), (3, 4), (4, 3)])
def test_preset_follows_section_3_31(players, deals):
    r = rules(SB, players=players)
    assert SB in cassino.implemented_systems()
    assert (r.match_mode, r.sum_groups, r.build_kinds, r.pile_access) == ("rank", "none", "none", "steal_pile")
    assert (r.capture_extent, r.compulsion, r.leftovers_to) == ("all_matches", "player", "nobody")
    assert (r.game_end, r.final_tie, r.cards_scoring, r.deal_singles) == ("one_hand", "shared", "each", True)
    assert used_categories(r) == ("cards",) and r.deals_per_hand == deals
    p = cassino.State.deal(r, 0, 5).to_position()
    assert [h.bit_count() for h in p.hands] == [4] * players and p.loose.bit_count() == 4
    assert p.to_move == 1 and all(pile == () for pile in p.piles)


@pytest.mark.parametrize(
    ("options", "pattern"),
    [
        ({"players": 5}, "played by 2 to 4 players"),
        ({"build_kinds": "simple+multiple"}, "build_kinds=simple.multiple cannot be combined with pile_access"),
        ({"sum_groups": "multi"}, "sum_groups=multi cannot be combined with pile_access"),
        ({"pile_access": "none"}, "sum_groups=none .ranks only. is the Stealing Bundles capture"),
        ({"capture_extent": "free"}, "every loose card of its rank"),
        ({"game_end": "target"}, "complete game"),
        ({"pluck": True}, "cannot be combined with pile_access=steal_pile"),
    ],
)
def test_bad_options_raise(options, pattern):
    with pytest.raises(RulesError, match=pattern):
        rules(SB, **options)


def test_its_parameters_are_refused_elsewhere():
    with pytest.raises(RulesError, match="sum_groups=none"):
        rules("cassino_standard", sum_groups="none")
    with pytest.raises(RulesError, match="steal_and_capture applies only"):
        rules("shaniss", steal_and_capture=True)
    with pytest.raises(RulesError, match="Callabra ending, and Stealing Bundles"):
        rules("cassino_standard", game_end="one_hand")


def test_the_amb_options():
    r = rules(SB, steal_and_capture=True, compulsion="none", leftovers_to="last_capturer",
              deal_singles=False)  # fmt: skip
    assert r.options() == {"steal_and_capture": True, "compulsion": "none",
                           "leftovers_to": "last_capturer", "deal_singles": False}


# -- notation ----------------------------------------------------------------------------------
def test_steal_notation_round_trips():
    m = Move.parse("9h>9c,2c")
    assert m.kind == MoveKind.STEAL and str(m) == "9H>2C,9C" and Move.parse(str(m)) == m
    with pytest.raises(NotationError):
        Move(parse_card("9H"), MoveKind.STEAL, 0)
    with pytest.raises(NotationError):
        Move(parse_card("9H"), MoveKind.STEAL, 1, 3)


# -- captures and steals (AMB-85) ----------------------------------------------------------------
def test_a_capture_takes_every_loose_card_of_the_rank():
    s = state(["7H QC", "2D 3D"], "7S 7D QS 5C", ["", "4C"])
    assert notations(s) == {"7Hx7S,7D", "QCxQS"}


def test_a_matching_card_steals_the_whole_bundle():
    s = state(["9H 4S", "2D 3D"], "5C 6C", ["", "2C 8D 9C"])
    bundle = "2C,8D,9C"
    assert notations(s) == {f"9H>{bundle}"}          # (trails are forbidden: 9H can steal)
    s.push(f"9H>{bundle}")
    p = s.to_position()
    assert p.piles[1] == () and p.piles[0][-1] == parse_card("9H")
    assert set(ids("2C 8D 9C 9H")) <= set(p.piles[0]) and p.piles[0] == bundle_order(p.piles[0])
    assert p.last_capturer is None    # (a steal takes no table card)
    s.pop()
    assert s.to_position().piles[1] == tuple(ids("2C 8D 9C"))


def test_one_of_capture_or_steal_and_the_option_for_both():
    s = state(["9H 4S", "2D 3D"], "9S 5C", ["", "2C 9C"])
    assert notations(s) == {"9Hx9S", "9H>2C,9C"}
    s = state(["9H 4S", "2D 3D"], "9S 5C", ["", "2C 9C"], options={"steal_and_capture": True})
    assert notations(s) == {"9Hx9S", "9H>2C,9C", "9H>2C,9S,9C"}
    s.push("9H>2C,9S,9C")
    p = s.to_position()
    assert p.loose == 1 << parse_card("5C") and p.last_capturer == 0 and p.piles[1] == ()


def test_the_player_chooses_among_matching_bundles():
    s = state(["9H 4S", "2D 3D", "5D 6D"], "KS", ["", "2C 9C", "3C 9D"])
    assert notations(s) == {"9H>2C,9C", "9H>3C,9D"}


def test_own_bundle_and_other_tops_cannot_be_stolen():
    s = state(["9H 4S", "2D 3D"], "KS", ["8S 9S", "2C 10C"])
    assert notations(s) == {"9H", "4S"}           # nothing to take: trail
    own = sum(1 << c for c in s.to_position().piles[0])
    for m, why in ((Move(parse_card("9H"), MoveKind.STEAL, own), "own bundle"),
                   (Move.parse("4S>2C,10C"), "a 4S cannot steal it"),
                   (Move.parse("9H>10C"), "whole bundle"), (Move.parse("9Hx9S"), "not on the table")):
        assert not s.is_legal(m) and why in s.explain(m)
        with pytest.raises(IllegalMoveError):
            s.push(m)


def test_trail_only_when_no_card_can_capture_or_steal():
    s = state(["9H 4S", "2D 3D"], "4C", ["", "2C 10C"])
    assert notations(s) == {"4Sx4C"}
    assert "compulsion=player" in s.explain(Move.parse("9H"))
    s = state(["9H 4S", "2D 3D"], "4C", ["", "2C 10C"], options={"compulsion": "none"})
    assert notations(s) == {"9H", "4S", "4Sx4C"}


def test_bundle_tops_are_public_in_the_view():
    s = state(["9H 4S", "2D 3D"], "KS", ["8S 9S", "2C 10C"])
    view = View.of(s, 1)
    assert [p[-1] for p in view.piles] == ids("9S 10C")


def test_positions_keep_bundles_in_bundle_order():
    d = position_dict(["9H 4S", "2D 3D"], "KS", system=SB, piles=[["8S", "2S", "9S"], []])
    p = Position.from_dict(d)
    assert p.piles[0] == tuple(ids("2S 8S 9S"))     # the top last, the cards under it sorted
    with pytest.raises(PositionError, match="bundle_order"):
        Position(**{**p.__dict__, "piles": (tuple(reversed(p.piles[0])), p.piles[1])}).validate()


# -- deals, leftovers, the result (AMB-86) ---------------------------------------------------------
def test_refills_one_card_at_a_time_from_the_dealers_left():
    s = state(["5H", "6H"], "KS", ["", ""], stock="AS AH AD AC 2S 2H 2D 2C", dealer=1,
              to_move=0, rest_to=0)
    s.push("5H")
    s.push("6H")
    p = s.to_position()
    # the dealer is seat 1: seat 0 draws first, one card at a time
    assert p.hands[0] == sum(1 << c for c in ids("AS AD 2S 2D"))
    assert p.hands[1] == sum(1 << c for c in ids("AH AC 2H 2C"))


def test_leftovers_are_unclaimed_or_go_to_the_last_capturer():
    s = state(["5C 9H", "QC 4D"], "5S 3H 6D", ["", "2C"], last_capturer=None)
    for m in ("5Cx5S", "QC", "9H", "4D"):
        s.push(m)
    p = s.to_position()
    assert s.is_over and set(ids("3H 6D 9H 4D QC")) <= set(p.discard)
    s = state(["5C 9H", "QC 4D"], "5S 3H 6D", ["", "2C"], options={"leftovers_to": "last_capturer"})
    for m in ("5Cx5S", "QC", "9H", "4D"):
        s.push(m)
    p = s.to_position()
    assert set(ids("3H 6D 9H 4D QC")) <= set(p.piles[0]) and p.piles[0][-1] == parse_card("5C")


def test_most_cards_win_and_a_tie_is_shared():
    r = rules(SB, players=3)
    hs = score_hand(r, [ids("2C 3C 4C"), ids("5C"), []], [])
    assert hs.events == (("cards", 0, 3), ("cards", 1, 1))
    p = Position.from_dict(position_dict(["5C", "QC"], "5S", system=SB, piles=[[], []], rest_to=None))
    g = Game.from_position(p)
    g.push("5Cx5S")
    g.push("QC")
    assert g.is_over and g.hands_played == 1
    counts = [len(pile) for pile in g.state.to_position().piles]
    assert g.scores == counts
    assert g.winners == tuple(t for t, n in enumerate(counts) if n == max(counts))


def test_a_game_is_one_hand_and_conserves_the_cards():
    for players in (2, 3, 4):
        g = Game(rules(SB, players=players), seed=players)
        while not g.is_over:
            g.push(g.legal_moves()[-1])
        assert g.hands_played == 1 and g.winners
        p = g.state.to_position()
        assert sorted([c for pile in p.piles for c in pile] + list(p.discard)) == list(range(52))
        assert json.loads(json.dumps(g.log)) == g.log and Game.replay(g.log).scores == g.scores


# -- players and adapters ------------------------------------------------------------------------
def test_steals_in_the_action_space():
    s = state(["9H 4S", "2D 3D"], "9S 5C", ["", "2C 9C"], options={"steal_and_capture": True})
    space = ActionSpace(s.rules)
    assert space.describe(space.steal) == "steal" and space.num_actions == space.steal + 1
    assert_actions_round_trip(s)


def test_greedy_prefers_a_big_steal():
    from cassino.greedy import GreedyPlayer

    s = state(["9H 4S", "2D 3D"], "4C 5C", ["", "2C 3H 8H 8D 9C"])
    view = View.of(s, 0)
    bot = GreedyPlayer(seed=1)
    assert str(bot.choose(view, s.legal_moves())) == "9H>2C,3H,8H,8D,9C"


# -- CLI -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 4])
def test_cli_simulate_500_games(players):
    from cassino.cli import cli

    n = "500" if cassino.IMPLEMENTATION == "core" else "20"
    out = CliRunner().invoke(cli, ["simulate", "--system", SB, "--option", f"players={players}",
                                   "--games", n, "--seed", "1", "--workers", "1"])  # fmt: skip
    assert out.exit_code == 0, out.output
    assert f"{n} games" in out.output and "stealing_bundles" in out.output
