"""Elewenjewenombajenomba (docs/rules.md §3.26-§3.28; AMB-73, AMB-76, AMB-77, AMB-79, AMB-80,
AMB-81).

54 cards with two jokers (X1 X2). 9D JD QD KD start every hand face up (the palette); each
player gets a packet of 4, and 2 unseen cards leave the bottom of the stock. A card takes any
loose cards of its rank (faces too) and sum groups of its value. A joker played on a table
with cards takes them all (Ipalemo); on an empty table it stays and joins the next capture.
The leftovers go to the player of the last card. A point a card; four hands, a tie shared.
The professional game: two players, no jokers, nothing set aside, three hands. Five players:
deals of 4, 4, 2 (without jokers: 3 set aside and a last deal of 1). The suite runs once on
the core and once with CASSINO_PURE_PYTHON=1.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

import cassino
from cassino import Game, Move, MoveKind, rules
from cassino.cards import JOKERS, CardSet, card_code, parse_card
from cassino.errors import CardError, IllegalMoveError, RulesError
from cassino.players import View
from cassino.scoring import final_winners, used_categories
from conftest import ids, make_state, notations

AM, PRO, FIVE = "elewenjewe_amateur", "elewenjewe_professional", "elewenjewe_five_player"
PALETTE = CardSet.parse("9D JD QD KD").mask


def state(hands: list[str], table: str, system: str = AM, **kw: Any) -> Any:
    return make_state(hands, table, system=system, **kw)


# -- cards, presets and options ----------------------------------------------------------------
def test_jokers_are_cards_x1_and_x2():
    assert ids("X1 X2 jk1") == [104, 105, 104] and card_code(105) == "X2"
    assert JOKERS >> 104 & 3 == 3 and CardSet.parse("X1 AS") == CardSet([0, 104])
    with pytest.raises(CardError):
        parse_card("X7")


@pytest.mark.parametrize(("players", "deals"), [(2, 6), (3, 4), (4, 3), (6, 2)])
def test_amateur_deal(players, deals):
    r = rules(AM, players=players)
    assert (r.jokers, r.palette, r.set_aside, r.deck_size, r.deals_per_hand) == (2, True, 2, 54, deals)
    assert (r.leftovers_to, r.cards_scoring, r.game_end, r.match_hands, r.final_tie) == (
        "last_to_play", "each", "fixed_hands", 4, "shared")
    assert used_categories(r) == ("cards",)
    p = cassino.State.deal(r, 0, 7).to_position()
    assert p.loose == PALETTE and [h.bit_count() for h in p.hands] == [4] * players
    assert len(p.discard) == 2 and len(p.stock) == 48 - 4 * players
    assert p.to_move == 1 % players   # the dealer's left leads


def test_professional_and_five_player_deals():
    r = rules(PRO)
    assert (r.players, r.jokers, r.set_aside, r.deck_size, r.deals_per_hand, r.match_hands) == (2, 0, 0, 52, 6, 3)
    r = rules(FIVE)
    assert (r.jokers, r.set_aside, r.deals_per_hand, r.last_size) == (2, 0, 3, 2)
    # AMB-79: without jokers, 3 cards set aside and a last deal of 1 each
    r = rules(FIVE, jokers=0)
    assert (r.set_aside, r.last_size, r.deals_per_hand, r.deck_size) == (3, 1, 3, 52)
    p = cassino.State.deal(r, 0, 2).to_position()
    assert len(p.discard) == 3 and len(p.stock) == 25
    # the amateur game without jokers sets nothing aside
    assert rules(AM, jokers=0).set_aside == 0


@pytest.mark.parametrize(
    ("system", "options", "pattern"),
    [
        (AM, {"players": 5}, "cannot be dealt"),
        (AM, {"jokers": 4}, "2 jokers or none"),
        (AM, {"palette": False}, "9D JD QD KD"),
        (AM, {"build_kinds": "simple+multiple"}, "Esun"),
        (AM, {"joker_trail": True, "jokers": 0}, "joker_trail applies only"),
        (PRO, {"jokers": 2}, "no jokers"),
        (PRO, {"players": 3}, "played by 2 players"),
        (AM, {"yoruba_scope": "capture"}, "only with yoruba=true"),
        ("cassino_standard", {"yoruba": True}, "Elewenjewe rule"),
        ("cassino_standard", {"jokers": 2}, "Elewenjewe rule"),
        ("cassino_standard", {"leftovers_to": "last_to_play"}, "Elewenjewe rule"),
        ("cassino_standard", {"isiwo": True}, "Elewenjewe rule"),
    ],
)
def test_bad_options_raise(system, options, pattern):
    with pytest.raises(RulesError, match=pattern):
        rules(system, **options)


def test_the_amb_options():
    r = rules(AM, match_one=True, joker_trail=True, leftovers_to="last_capturer", isiwo=True,
              final_tie="more_hands")  # fmt: skip
    assert r.options() == {"match_one": True, "joker_trail": True, "leftovers_to": "last_capturer",
                           "isiwo": True, "final_tie": "more_hands"}


# -- captures (AMB-73) -------------------------------------------------------------------------------
def test_matches_of_any_number_with_sums():
    s = state(["8C KC 2S", "QH 9S 2D"], "8H 8S 5D 3C KH KS 9D JD QD KD")
    legal = notations(s)
    # any number of eights, with the sum group 5+3
    assert {"8Cx8S", "8Cx8H", "8Cx8S,8H", "8Cx3C,5D", "8Cx3C,5D,8S,8H"} <= legal
    # a king takes any of the three loose kings
    assert {"KCxKS", "KCxKD", "KCxKS,KH,KD"} <= legal
    assert "KCxQD" not in legal and "8C" in legal   # (trailing is always allowed)


def test_match_one_option():
    s = state(["8C KC 2S", "QH 9S 2D"], "8H 8S 5D 3C KH KS 9D JD QD KD", options={"match_one": True})
    legal = notations(s)
    assert "8Cx8S" in legal and "8Cx8S,8H" not in legal and "KCxKS,KH" not in legal
    assert "match_one" in s.explain(Move.parse("8Cx8S,8H"))


# -- mod_yoruba (AMB-78) ---------------------------------------------------------------------------
def test_yoruba_no_denomination_twice_in_a_sum_group():
    table = "4H 4D 3C 5D 9D JD QD KD"
    legal = notations(state(["8C 2S", "QH 9S"], table))
    assert {"8Cx4H,4D", "8Cx3C,5D", "8Cx3C,4H,4D,5D"} <= legal
    s = state(["8C 2S", "QH 9S"], table, options={"yoruba": True})
    assert notations(s) == {"8C", "2S", "8Cx3C,5D"}
    assert "denomination" in s.explain(Move.parse("8Cx4H,4D"))
    # per group (AMB-78): 3+5 and a separate 8 may share a capture, and two groups may each
    # hold a 4 (4+3+1 and 4+... ): the values repeat across groups, not within one
    s = state(["8C 2S", "QH 9S"], "4H 3C AD 4D 3S AS 8D JD QD KD", options={"yoruba": True})
    legal = notations(s)
    assert "8CxAS,AD,3S,3C,4H,4D,8D" in legal
    s = state(["8C 2S", "QH 9S"], "4H 3C AD 4D 3S AS 8D JD QD KD",
              options={"yoruba": True, "yoruba_scope": "capture"})
    legal = notations(s)
    assert "8CxAS,AD,3S,3C,4H,4D,8D" not in legal and "8CxAD,3C,4H,8D" in legal


def test_yoruba_ok_reference():
    from cassino.reference.captures import yoruba_ok

    counts = [0] * 8
    counts[4] = 2
    assert not yoruba_ok(tuple(counts), 8, False)            # 4 + 4
    counts[4], counts[3], counts[1] = 2, 2, 2
    assert yoruba_ok(tuple(counts), 8, False)                # (4 3 1) twice
    assert not yoruba_ok(tuple(counts), 8, True)             # ... but not in one capture


# -- jokers (AMB-76) ---------------------------------------------------------------------------------
def test_a_joker_takes_the_whole_table():
    s = state(["X1 8C", "QH 9S"], "5D 3C 9D JD QD KD")
    moves = [m for m in s.legal_moves() if m.card == parse_card("X1")]
    assert [str(m) for m in moves] == ["X1x3C,5D,9D,JD,QD,KD"]     # (no trail: Ipalemo)
    s.push(moves[0])
    assert s.to_position().loose == 0


def test_a_joker_on_an_empty_table_stays_and_joins_the_next_capture():
    s = state(["X1 8C", "8H 9S"], "", piles=[["9D", "JD", "QD", "KD"], []], rest_to=1)
    assert notations(s) == {"X1", "8C"}
    s.push("X1")
    s.push("9S")                                    # a trail: the joker stays
    assert s.to_position().loose == CardSet.parse("X1 9S").mask
    s.push("8C")
    legal = notations(s)
    assert "8Hx8C,X1" in legal and "8Hx8C" not in legal  # any capture also takes the joker
    assert "every loose joker" in s.explain(Move.parse("8Hx8C"))


def test_joker_trail_option():
    s = state(["X1 8C", "QH 9S"], "5D 3C 9D JD QD KD", options={"joker_trail": True})
    assert {str(m) for m in s.legal_moves() if m.card == parse_card("X1")} == {
        "X1", "X1x3C,5D,9D,JD,QD,KD"}


# -- leftovers (AMB-77), scoring and the game (AMB-80) ------------------------------------------------
def test_leftovers_go_to_the_player_of_the_last_card():
    s = state(["5C 9H", "QC 4D"], "5S 3H 6D", last_capturer=None, rest_to=None)
    for m in ("5Cx5S", "QC", "9H", "4D"):    # seat 1 plays the last card, capturing nothing
        s.push(m)
    p = s.to_position()
    assert s.is_over and p.last_capturer == 0
    assert set(ids("3H 6D 9H 4D QC")) <= set(p.piles[1])
    # the AMB-77 option: the last capturer
    s = state(["5C 9H", "QC 4D"], "5S 3H 6D", last_capturer=None, rest_to=None,
              options={"leftovers_to": "last_capturer"})  # fmt: skip
    for m in ("5Cx5S", "QC", "9H", "4D"):
        s.push(m)
    assert set(ids("3H 6D 9H 4D QC")) <= set(s.to_position().piles[0])


def test_a_game_is_four_hands_a_point_a_card_a_tie_shared():
    r = rules(AM)
    assert final_winners(r, [40, 30], 3) == ()
    assert final_winners(r, [40, 30], 4) == (0,)
    assert final_winners(r, [35, 35], 4) == (0, 1)
    assert final_winners(rules(AM, final_tie="more_hands"), [35, 35], 4) == ()
    assert final_winners(rules(AM, final_tie="more_hands"), [36, 35], 5) == (0,)
    g = Game(AM, seed=3)
    while not g.is_over:   # (a capture when there is one: trails alone grow tables whose
        moves = g.legal_moves()   # subsets the pure-Python reference walks for minutes)
        caps = [m for m in moves if m.kind == MoveKind.CAPTURE]
        g.push(caps[0] if caps else moves[0])
    assert g.hands_played == 4 and g.winners
    totals = [0, 0]
    for hs in g.hand_scores:
        assert sum(hs.totals()) == 52   # (54 cards less the 2 set aside, every one scores)
        totals = [a + b for a, b in zip(totals, hs.totals(), strict=True)]
    assert g.scores == totals
    assert json.loads(json.dumps(g.log)) == g.log and Game.replay(g.log).scores == g.scores
    g = Game(PRO, seed=3)
    while not g.is_over:
        g.push(g.legal_moves()[-1])
    assert g.hands_played == 3


def test_every_card_is_conserved():
    for system, n in ((AM, 3), (FIVE, 5), (PRO, 2)):
        s = cassino.State.deal(rules(system, players=n), 0, 9)
        while not s.is_over:
            s.push(s.legal_moves()[-1])
        p = s.to_position()
        held = sorted([c for pile in p.piles for c in pile] + list(p.discard))
        assert held == sorted(CardSet(rules(system, players=n).deck_mask))


# -- what a seat may know (AMB-79, AMB-81) --------------------------------------------------------------
def test_the_view_hides_the_cards_set_aside_and_the_own_pile():
    s = cassino.State.deal(rules(AM), 0, 4)
    while not any(s.to_position().piles):
        s.push(s.legal_moves()[-1])
    p = s.to_position()
    taker = next(t for t, pile in enumerate(p.piles) if pile)
    view = View.of(s, taker)
    aside = sum(1 << c for c in p.discard[:2])
    own = sum(1 << c for c in p.piles[taker])
    assert view.aside_size == 2 and view.discard == () and view.unseen.mask & aside == aside
    assert view.piles[taker] == () and view.pile_sizes[taker] == len(p.piles[taker])
    assert view.unseen.mask & own == own
    other = View.of(s, 1 - taker)        # the other seat sees that pile (captured in view)
    assert other.piles[taker] == p.piles[taker] and not other.unseen.mask & own
    # opt_isiwo: a player may look through his own pile
    t = cassino.State.from_position(p.__class__.from_dict({**p.to_dict(), "options": {"isiwo": True}}))
    assert View.of(t, taker).piles[taker] == p.piles[taker]
    # a sampled world puts the hidden cards back into the hidden places only
    world = view.sample_world(cassino.Rng(1)).to_position()
    assert len(world.piles[taker]) == len(p.piles[taker]) and world.piles[1 - taker] == p.piles[1 - taker]
    assert world.loose == p.loose and len(world.discard) == len(p.discard)


# -- CLI ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("system", "option"), [(AM, "players=3"), (PRO, "players=2"), (FIVE, "players=5")])
def test_cli_simulate_500_games(system, option):
    from cassino.cli import cli

    n = "500" if cassino.IMPLEMENTATION == "core" else "10"
    out = CliRunner().invoke(cli, ["simulate", "--system", system, "--option", option,
                                   "--games", n, "--seed", "1", "--workers", "1"])  # fmt: skip
    assert out.exit_code == 0, out.output
    assert f"{n} games" in out.output and system in out.output


def test_illegal_moves_leave_the_state_unchanged():
    s = state(["X1 8C", "QH 9S"], "5D 3C 9D JD QD KD")
    before = s.to_position()
    for text, why in (("X1", "Ipalemo"), ("X1x5D", "Ipalemo"), ("8Cx5D", "groups totalling 8"),
                      ("QHxQD", "not in the hand")):
        m = Move.parse(text)
        assert not s.is_legal(m) and why in s.explain(m)
        with pytest.raises(IllegalMoveError):
            s.push(m)
        assert s.to_position() == before
