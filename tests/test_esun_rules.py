"""opt_esun: Esun piles in Elewenjewenombajenomba (docs/rules.md §3.37, §5.13; AMB-74, AMB-75,
with mod_yoruba AMB-78).

A numeric hand card laid with loose numeric cards makes one pile of their total, which its
creator must be able to take with a card left in his hand. An Esun is never added to or
split. It is taken by a card of its total, or by a card whose value splits all its cards
into two or more groups of that value ({3, A, 4}: by an 8 or a 4). If it is still on the
table at the next deal or at the end of the hand, its creator loses the top card of his
pile to the table, once. With mod_yoruba an Esun holds no denomination twice and no card of
a denomination in it takes it. The suite runs once on the core and once with
CASSINO_PURE_PYTHON=1.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cassino
from cassino import Move, MoveKind, Position, rules
from cassino.cards import CardSet
from cassino.errors import IllegalMoveError, PositionError
from cassino.reference.esun import esun_takes
from conftest import build, ids, make_state, notations, position_dict

AM, PRO, FIVE = "elewenjewe_amateur", "elewenjewe_professional", "elewenjewe_five_player"
ESUN = {"esun": True}


def esun(groups: str, value: int, owner: int = 0, due: bool = False) -> dict[str, Any]:
    item = build(groups, value, owner)
    if due:
        item["due"] = True
    return item


def state(hands: list[str], table: Any, system: str = PRO, options: Any = None, **kw: Any) -> Any:
    return make_state(hands, table, system=system, options={**ESUN, **(options or {})}, **kw)


def builds_of(s: Any) -> list[tuple[str, int, int, bool]]:
    return [(str(CardSet(b.cards)), b.value, b.owners, b.due) for b in s.to_position().builds]


# -- creation ---------------------------------------------------------------------------------------
def test_esun_is_an_option_of_the_elewenjewe_systems_only():
    for sid in (AM, PRO, FIVE):
        assert rules(sid, esun=True).esun
    with pytest.raises(cassino.RulesError, match="Elewenjewe rule"):
        rules("cassino_standard", esun=True)
    with pytest.raises(cassino.RulesError, match="module opt_esun"):
        rules(PRO, build_kinds="esun")


def test_creation_needs_a_card_left_that_takes_it():
    # 3C + AS + 4H: 8 (an 8 takes it) and the 4 takes it by 3+A | 4
    s = state(["3C 8D 5S", "QH 9S 2D"], "AS 4H JD QD KD")
    creations = {str(m) for m in s.legal_moves() if m.kind == MoveKind.BUILD}
    # only 3C + AS + 4H = 8, which the 8D takes by its total: 3C + AS = 4 and 3C + 4H = 7
    # have no card left of their value, and 5S's totals (6, 9, 10) neither
    assert creations == {"3C+AS,4H=8"}
    why = s.explain(Move.parse("3C+4H=7"))
    assert why is not None and "needs a card left in your hand that takes it" in why
    with pytest.raises(IllegalMoveError):
        s.push("3C+4H=7")
    assert builds_of(s) == []              # (the state is unchanged)


def test_creation_by_partition_holding():
    # 4C with loose 4H: an Esun of 8 taken by a 4 left in hand (groups 4 | 4) or by an 8
    s = state(["4C 4D", "QH 9S"], "4H JD QD KD")
    assert "4C+4H=8" in notations(s)
    s = state(["4C 2D", "QH 9S"], "4H JD QD KD")
    assert "4C+4H=8" not in notations(s)


def test_a_created_esun_is_owned_and_due():
    s = state(["3C 8D", "QH 9S"], "AS 4H JD QD KD")
    s.push("3C+AS,4H=8")
    assert builds_of(s) == [("AS 3C 4H", 8, 1, True)]
    assert s.to_position().loose == CardSet.parse("JD QD KD").mask


def test_an_esun_is_never_added_to_or_split():
    s = state(["5S 8D", "QH 9S 2D"], ["JD", "QD", "KD", esun("3C+AS+4H", 8, 1)])
    legal = s.legal_moves()
    assert all(m.kind in (MoveKind.TRAIL, MoveKind.CAPTURE, MoveKind.BUILD) for m in legal)
    why = s.explain(Move(ids("5S")[0], MoveKind.INCREASE, CardSet.parse("3C AS 4H").mask, 13))
    assert why is not None and "never be added to or split" in why
    why = s.explain(Move.parse("8DxAS,3C"))
    assert why is not None and "whole" in why


def test_faces_and_jokers_make_no_esun():
    s = state(["QC 8D", "QH 9S"], "AS 4H JD QD KD")
    assert not [m for m in s.legal_moves() if m.kind == MoveKind.BUILD and m.card == ids("QC")[0]]
    s = state(["X1 8D 2S", "QH 9S"], "X2 6H JD QD KD", system=AM)
    creations = {str(m) for m in s.legal_moves() if m.kind == MoveKind.BUILD}
    assert creations == {"2S+6H=8"}        # (the loose joker is in no Esun)


# -- capture (AMB-74) ----------------------------------------------------------------------------------
def test_capture_by_total_or_by_partition():
    table = ["JD", "QD", "KD", esun("3C+AS+4H", 8, 1)]
    for card, ok in (("8D", True), ("4S", True), ("2S", False), ("7S", False)):
        s = state([f"{card} QC", "QH 9S"], table)
        takes = f"{card}xAS,3C,4H"
        assert (takes in notations(s)) is ok, card
    s = state(["2S QC", "QH 9S"], table)
    why = s.explain(Move.parse("2SxAS,3C,4H"))
    assert why is not None and "splits all its cards" in why


def test_esun_captured_with_loose_cards_and_other_esun():
    table = ["5D", "3H", "JD", "QD", "KD", esun("3C+AS+4H", 8, 1), esun("6S+2C", 8, 0)]
    s = state(["8D QC", "QH 9S"], table)
    legal = notations(s)
    assert {"8DxAS,3C,4H", "8Dx2C,6S", "8DxAS,2C,3C,4H,6S", "8Dx3H,5D",
            "8DxAS,2C,3H,3C,4H,5D,6S"} <= legal
    s.push("8DxAS,2C,3H,3C,4H,5D,6S")
    assert builds_of(s) == []


def test_a_joker_takes_the_esun_with_the_table():
    s = state(["X1 8D", "QH 9S"], ["JD", "QD", "KD", esun("3C+AS+4H", 8, 1)], system=AM)
    assert {str(m) for m in s.legal_moves() if m.card == ids("X1")[0]} == {
        "X1xAS,3C,4H,JD,QD,KD"}
    # a table holding only an Esun is not empty: Ipalemo still takes it
    s = state(["X1 8D", "QH 9S"], [esun("3C+AS+4H", 8, 1)], system=AM,
              piles=[["9D", "JD", "QD", "KD"], []])
    assert {str(m) for m in s.legal_moves() if m.card == ids("X1")[0]} == {"X1xAS,3C,4H"}


def test_esun_takes_reference():
    assert esun_takes((1, 3, 4), 8, False) and esun_takes((1, 3, 4), 4, False)
    assert not esun_takes((1, 3, 4), 2, False) and not esun_takes((1, 3, 4), 4, True)
    assert esun_takes((5, 5, 5), 5, False) and esun_takes((5, 5, 5), 15, False)
    assert not esun_takes((2, 6), 3, False) and esun_takes((2, 2, 4), 4, False)


# -- mod_yoruba (AMB-78) ------------------------------------------------------------------------------
def test_yoruba_esun_holds_no_denomination_twice_and_no_contained_card_takes_it():
    s = state(["4C 4D", "QH 9S"], "4H JD QD KD", options={"yoruba": True})
    assert "4C+4H=8" not in notations(s)
    why = s.explain(Move.parse("4C+4H=8"))
    assert why is not None and "denomination" in why
    table = ["JD", "QD", "KD", esun("3C+AS+4H", 8, 1)]
    s = state(["4S QC", "QH 9S"], table, options={"yoruba": True})
    assert "4SxAS,3C,4H" not in notations(s)
    s = state(["8S QC", "QH 9S"], table, options={"yoruba": True})
    assert "8SxAS,3C,4H" in notations(s)
    # the holding card must take it too: a 4 cannot hold {3, A, 4}
    s = state(["3C 4D", "QH 9S"], "AS 4H JD QD KD", options={"yoruba": True})
    assert "3C+AS,4H=8" not in notations(s)


def test_positions_refuse_bad_esun():
    def pos(item: dict[str, Any], **options: Any) -> Position:
        return Position.from_dict(position_dict(["8D QC", "QH 9S"], ["JD", "QD", "KD", item],
                                                system=PRO, options={**ESUN, **options}))
    assert pos(esun("3C+AS+4H", 8, 1, due=True)).builds[0].due
    with pytest.raises(PositionError, match="face cards cannot be built"):
        pos(esun("3C+QS", 3, 1))
    with pytest.raises(PositionError, match="one denomination"):
        pos(esun("4C+4H", 8, 1), yoruba=True)
    with pytest.raises(PositionError, match="due"):
        Position.from_dict(position_dict(["8D QC", "QH 9S"], ["5H", esun("3C+AS+4H", 8, 1, due=True)]))
    bad = position_dict(["8D QC", "QH 9S"], ["JD", esun("3C+AS+4H", 8, 1)], system=PRO, options=ESUN)
    bad["table"][-1]["due"] = "yes"
    with pytest.raises(PositionError, match="due must be true or false"):
        Position.from_dict(bad)


def test_due_round_trips_through_json_and_text():
    s = state(["3C 8D", "QH 9S"], "AS 4H JD QD KD")
    s.push("3C+AS,4H=8")
    p = s.to_position()
    assert "@0*)" in p.to_text()
    assert json.loads(p.to_json())["table"][-1]["due"] is True
    assert Position.from_text(p.to_text()) == p == Position.from_json(p.to_json())


# -- the penalty (AMB-75) -------------------------------------------------------------------------------
def test_penalty_at_the_next_deal_moves_the_top_card_once():
    # seat 0 makes an Esun with its last card but one; nobody takes it before the deal
    s = state(["3C 8D", "QH 9S"], "AS 4H JD QD KD", piles=[["2H", "7C"], []],
              stock="5C 5H 6C 6H 7H 7S 8C 8H", to_move=0, dealer=1)
    s.push("3C+AS,4H=8")
    s.push("QH")
    s.push("8D")      # seat 0 trails its 8: the Esun survives to the deal
    s.push("9S")
    p = s.to_position()
    assert p.piles[0] == tuple(ids("2H"))    # the top card 7C went back to the table
    assert CardSet.parse("7C 8D QH 9S").mask & ~p.loose == 0
    assert builds_of(s) == [("AS 3C 4H", 8, 1, False)]   # it stays, no longer due
    # undo restores the pile
    for _ in range(4):
        s.pop()
    assert s.to_position().piles[0] == tuple(ids("2H 7C"))


def test_penalty_with_an_empty_pile_does_nothing_and_a_taken_esun_none():
    s = state(["3C 8D", "QH 9S"], "AS 4H JD QD KD", piles=[[], []],
              stock="5C 5H 6C 6H 7H 7S 8C 8H")
    for m in ("3C+AS,4H=8", "QH", "8D", "9S"):
        s.push(m)
    assert s.to_position().piles[0] == ()
    s = state(["3C 8D", "QH 9S"], "AS 4H JD QD KD", piles=[["2H", "7C"], []],
              stock="5C 5H 6C 6H 7H 7S 8C 8H")
    for m in ("3C+AS,4H=8", "QH", "8DxAS,3C,4H", "9S"):
        s.push(m)
    assert s.to_position().piles[0][:2] == tuple(ids("2H 7C"))
    assert s.to_position().piles[0][-1] == ids("8D")[0]


def test_penalty_at_the_end_of_the_hand_precedes_the_leftovers():
    # the last deal: seat 1 plays the last card, the Esun survives; seat 0's top card goes
    # to the table first, and the leftovers (with it) go to seat 1, who played last
    s = state(["3C 8D", "QH 9S"], "AS 4H JD QD KD", piles=[["2H", "7C"], []], rest_to=1)
    for m in ("3C+AS,4H=8", "QH", "8D", "9S"):
        s.push(m)
    p = s.to_position()
    assert s.is_over
    assert p.piles[0] == tuple(ids("2H"))
    assert ids("7C")[0] in p.piles[1] and set(ids("AS 3C 4H 8D")) <= set(p.piles[1])
    assert s.hand_score().totals()[0] == 1


def test_two_due_esun_of_one_player_cost_two_cards():
    table = ["JD", "QD", "KD", esun("3C+AS+4H", 8, 0, due=True), esun("6S+2C", 8, 0, due=True)]
    s = state(["5D", "9S"], table, piles=[["2H", "7C", "10S"], []],
              stock="5C 5H 6C 6H 7H 7S 8C 8H")
    s.push("5D")
    s.push("9S")
    p = s.to_position()
    assert p.piles[0] == tuple(ids("2H")) and CardSet.parse("7C 10S").mask & ~p.loose == 0


# -- whole games ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("system, options", [
    (PRO, {}), (AM, {"players": 3}), (FIVE, {"jokers": 0}), (AM, {"yoruba": True})])
def test_random_games_conserve_cards_and_undo(system, options):
    r = rules(system, esun=True, **options)
    for seed in range(3):
        s = cassino.State.deal(r, 0, seed)
        start = s.to_position()
        rng = random.Random(seed)
        made = 0

        def count(p: Position) -> int:
            n = sum(len(x) for x in p.piles) + p.loose.bit_count() + len(p.stock)
            n += sum(h.bit_count() for h in p.hands) + len(p.discard)
            return n + sum(b.cards.bit_count() for b in p.builds)

        while not s.is_over:
            legal = s.legal_moves()
            assert s.count_moves() == len(legal)
            builds = [m for m in legal if m.kind == MoveKind.BUILD]
            caps = [m for m in legal if m.kind == MoveKind.CAPTURE]
            pool = builds if builds and rng.random() < 0.5 else caps or legal
            m = rng.choice(pool)
            made += m.kind == MoveKind.BUILD
            s.push(m)
            assert count(s.to_position()) == count(start)
        assert made > 0
        while s.ply:
            s.pop()
        assert s.to_position() == start


# -- the AMB-75 options ---------------------------------------------------------------------------------
STOCK = "5C 5H 6C 6H 7H 7S 8C 2D"


def test_penalty_options_need_esun():
    for name, value in (("esun_penalty", "unless_creator_took"), ("esun_penalty_card", "random")):
        with pytest.raises(cassino.RulesError, match="only with esun=true"):
            rules(PRO, **{name: value})
        assert getattr(rules(PRO, esun=True, **{name: value}), name) == value


def test_penalty_also_when_an_opponent_took_it():
    opts = {"esun_penalty": "unless_creator_took"}
    s = state(["3C 8D", "8H 9S"], "AS 4H JD QD KD", options=opts, piles=[["2H", "7C"], []],
              stock=STOCK)
    s.push("3C+AS,4H=8")
    s.push("8HxAS,3C,4H")            # seat 1 takes seat 0's due Esun
    p = s.to_position()
    assert p.esun_owed == (1, 0) and "esun:1,0" in p.to_text()
    assert json.loads(p.to_json())["esun_owed"] == [1, 0]
    assert Position.from_text(p.to_text()) == p == Position.from_json(p.to_json())
    s.push("8D")
    s.push("9S")                     # the deal: seat 0 still pays
    p = s.to_position()
    assert p.piles[0] == tuple(ids("2H")) and p.esun_owed == ()
    assert CardSet.parse("7C").mask & p.loose
    # by default the capture by an opponent ends the matter (AMB-75)
    s = state(["3C 8D", "8H 9S"], "AS 4H JD QD KD", piles=[["2H", "7C"], []], stock=STOCK)
    for m in ("3C+AS,4H=8", "8HxAS,3C,4H", "8D", "9S"):
        s.push(m)
    assert s.to_position().piles[0] == tuple(ids("2H 7C"))
    # the creator taking his own Esun owes nothing under the option either
    s = state(["3C 8D", "QH 9S"], "AS 4H JD QD KD", options=opts, piles=[["2H", "7C"], []],
              stock=STOCK)
    for m in ("3C+AS,4H=8", "QH", "8DxAS,3C,4H", "9S"):
        s.push(m)
    assert s.to_position().piles[0][:2] == tuple(ids("2H 7C"))


def test_random_penalty_card_comes_from_the_chance_rng():
    from cassino._rng import Rng

    opts = {"esun_penalty_card": "random"}
    table = ["JD", "QD", "KD", esun("3C+AS+4H", 8, 0, due=True)]
    data = position_dict(["5D", "9S"], table, system=PRO, options={**ESUN, **opts},
                         piles=[["2H", "7C", "10S", "6D"], []], stock=STOCK)
    with pytest.raises(PositionError, match="chance"):
        Position.from_dict(data)
    picks = set()
    for chance in range(12):
        s = cassino.State.from_position(Position.from_dict({**data, "chance": chance}))
        s.push("5D")
        s.push("9S")
        rng = Rng(chance)
        gone = ids("2H 7C 10S 6D")[rng.below(4)]
        p = s.to_position()
        assert p.loose >> gone & 1 and gone not in p.piles[0] and len(p.piles[0]) == 3
        assert p.chance == rng.state
        picks.add(gone)
        s.pop()
        s.pop()
        assert s.to_position().piles[0] == tuple(ids("2H 7C 10S 6D")) and s.to_position().chance == chance
    assert len(picks) > 1              # (not always the top card)
    with pytest.raises(PositionError, match="chance"):
        Position.from_dict({**position_dict(["5D", "9S"], table, system=PRO, options=ESUN,
                                            stock=STOCK), "chance": 3})


def test_views_show_what_is_owed_and_hide_the_chance():
    from cassino._rng import Rng
    from cassino.players import View

    r = rules(AM, esun=True, esun_penalty="unless_creator_took", esun_penalty_card="random")
    s = cassino.State.deal(r, 0, 7)
    assert s.to_position().chance is not None
    view = View.of(s, 1)
    assert not hasattr(view, "chance") and view.esun_owed == ()
    worlds = {view.sample_world(Rng(k)).to_position().chance for k in range(5)}
    assert None not in worlds and len(worlds) > 1


def test_esun_moves_have_actions():
    from cassino.actions import ActionSpace

    space = ActionSpace(rules(PRO, esun=True))
    assert space.max_value == 220          # (every numeric card of the deck in one Esun)
    s = state(["3C 8D", "QH 9S"], ["AS 4H JD QD KD", esun("6S+2C", 8, 1)])
    moves = s.legal_moves()
    assert any(m.kind == MoveKind.BUILD for m in moves)
    for m in moves:
        assert space.decode(space.encode(m)) == m
