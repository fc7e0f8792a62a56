"""Standard Cassino (docs/rules.md §3.1) and its resolutions AMB-01 … AMB-15.

Every test states a rule and asserts exact legal-move sets, or specific moves present or
absent, so that it fails if the rule is broken. Positions name only the cards that matter
(see ``conftest.make_position``); seat 0 is to move and seat 1 deals unless stated.
"""

from __future__ import annotations

import pytest

import cassino
from cassino import IllegalMoveError, Move, MoveKind
from cassino.cards import CardSet, parse_card
from cassino.scoring import HandScore, score_hand, tally_winner
from conftest import build, canon, make_position, make_state, mask, moves_of, notations


def canon_set(*moves: str) -> set[str]:
    return {canon(m) for m in moves}


def builds_of(state):
    """(value, cards, owners, multiple) of every build, cards and owners as text."""
    return [
        (b.value, " ".join(CardSet(b.cards).codes()), b.owner_seats(), b.multiple)
        for b in state.to_position().builds
    ]


# -- 1. Trail ---------------------------------------------------------------------------------


def test_trail_puts_the_card_on_the_table():
    s = make_state(["7H KS", "2C 3C"], ["5C"])
    assert {"7H", "KS"} <= notations(s)
    before = s.to_position()
    assert s.push("7H") == Move.parse("7H")
    p = s.to_position()
    assert p.loose == mask("5C 7H")
    assert p.hands == (mask("KS"), mask("2C 3C"))
    assert p.to_move == 1
    assert p.last_capturer is None
    assert p.piles == before.piles


def test_trail_allowed_when_a_capture_exists():
    """AMB-03: trailing is always allowed unless an obligation forbids it."""
    s = make_state(["7H", "2C"], ["7C"])
    assert notations(s) == {"7H", "7Hx7C"}
    s.push("7H")
    assert s.to_position().loose == mask("7C 7H")


# -- 2. Capture -------------------------------------------------------------------------------


def test_numeric_capture_by_rank_and_by_sum():
    # 7H takes the 7C, the sum 3+4, or both; never the 8 or the king
    s = make_state(["7H", "2C"], ["7C 3D 4S KH 8S"])
    assert notations(s) == canon_set("7H", "7Hx7C", "7Hx3D,4S", "7Hx3D,4S,7C")


def test_capture_moves_cards_to_the_pile_and_sets_last_capturer():
    s = make_state(["7H KS", "2C 3C"], ["7C 3D 4S 8S"], piles=[[], []], rest_to=1)
    s.push("7Hx7C,3D,4S")
    p = s.to_position()
    assert p.loose == mask("8S")
    assert set(p.piles[0]) == {parse_card(c) for c in ("7C", "3D", "4S", "7H")}
    assert p.piles[0][-1] == parse_card("7H")  # the capturing card goes on top
    assert p.last_capturer == 0
    assert p.to_move == 1


def test_face_cards_capture_by_rank_only():
    s = make_state(["KS", "2C"], ["KH QH JH 10H 3S"])
    assert notations(s) == {"KS", "KSxKH"}


def test_numeric_cards_never_take_or_sum_with_faces():
    s = make_state(["10S", "2C"], ["JH 10H 9C AD"])
    assert notations(s) == canon_set("10S", "10Sx10H", "10SxAD,9C", "10SxAD,9C,10H")
    # a face card is no addend: a J and an A are not 10+1 or anything else
    s = make_state(["2S", "2C"], ["JH AD"])
    assert notations(s) == {"2S"}


def test_a_build_is_captured_whole_by_its_value():
    s = make_state(["7C", "2C"], ["7D", build("2S+5H", 7, 1)])
    assert notations(s) == canon_set("7C", "7Cx2S,5H", "7Cx7D", "7Cx2S,5H,7D")
    s.push("7Cx2S,5H")
    assert s.to_position().builds == ()
    assert s.to_position().loose == mask("7D")


def test_a_build_cannot_be_split():
    s = make_state(["2D 5C", "2C"], ["2H", build("2S+5H", 7, 1)])
    assert "2Dx2S" not in notations(s)
    assert "5Cx5H" not in notations(s)
    assert "2Dx2H" in notations(s)
    assert "taken or added to as a whole" in s.explain(Move.parse("2Dx2S"))
    with pytest.raises(IllegalMoveError, match="as a whole"):
        s.push("5Cx5H")


def test_amb01_multi_group_capture():
    """AMB-01: a 10 takes a 10, 5+5 and 6+4 together (and every non-empty union)."""
    s = make_state(["10D", "2C"], ["10C 5S 5H 6D 4C"])
    groups = ["10C", "5S,5H", "4C,6D"]
    expected = {"10D"}
    for m in range(1, 8):
        takes = ",".join(g for i, g in enumerate(groups) if m >> i & 1)
        expected.add(canon(f"10Dx{takes}"))
    assert notations(s) == expected
    assert canon("10Dx10C,5S,5H,6D,4C") in notations(s)
    # sum_groups=single: at most one sum group (a match may still join it)
    s = make_state(["10D", "2C"], ["10C 5S 5H 6D 4C"], options={"sum_groups": "single"})
    assert notations(s) == canon_set(
        "10D", "10Dx10C", "10Dx5S,5H", "10Dx6D,4C", "10Dx10C,5S,5H", "10Dx10C,6D,4C"
    )
    assert "groups totalling 10" in s.explain(Move.parse("10Dx5S,5H,6D,4C"))


def test_amb01_groups_must_be_disjoint_and_exact():
    # 9 takes 4+5 or 3+6, but 4+5+3 (=12) or 3+4+5+6 split wrongly are not captures
    s = make_state(["9H", "2C"], ["4S 5S 3D 6D"])
    assert moves_of(s, "9H") == canon_set("9H", "9Hx4S,5S", "9Hx3D,6D", "9Hx3D,4S,5S,6D")
    with pytest.raises(IllegalMoveError, match="groups totalling 9"):
        s.push("9Hx3D,4S,5S")
    assert s.ply == 0


def test_amb02_capture_extent_free_vs_maximal():
    """AMB-02: by default any non-empty set of groups; maximal: a largest set only."""
    s = make_state(["10D", "2C"], ["10C 5S 5H 6D 4C"])
    assert canon("10Dx10C") in notations(s)
    s = make_state(["10D", "2C"], ["10C 5S 5H 6D 4C"], options={"capture_extent": "maximal"})
    assert notations(s) == canon_set("10D", "10Dx10C,5S,5H,6D,4C")
    why = s.explain(Move.parse("10Dx10C"))
    assert why is not None and "capture_extent=maximal" in why
    # per played card: the 5 takes both 5s, the 10 everything
    s = make_state(["10D 5D", "2C"], ["10C 5S 5H 6D 4C"], options={"capture_extent": "maximal"})
    assert {m for m in notations(s) if "x" in m} == canon_set("10Dx10C,5S,5H,6D,4C", "5Dx5S,5H")


def test_amb02_maximal_keeps_builds_and_trails():
    s = make_state(["3D 8C", "2C"], ["5S 4H"], options={"capture_extent": "maximal"})
    assert notations(s) == canon_set("3D", "8C", "3D+5S=8")


def test_amb04_face_capture_one_or_three_default():
    """AMB-04: one, or exactly three when three lie on the table."""
    s = make_state(["KC", "2C"], ["KS KH KD"])
    assert notations(s) == {"KC", "KCxKS", "KCxKH", "KCxKD", "KCxKS,KH,KD"}
    with pytest.raises(IllegalMoveError, match="face_capture=one_or_three"):
        s.push("KCxKS,KH")
    # with two on the table only one may be taken
    s = make_state(["QC", "2C"], ["QS QH"])
    assert notations(s) == {"QC", "QCxQS", "QCxQH"}


def test_amb04_face_capture_one():
    s = make_state(["KC", "2C"], ["KS KH KD"], options={"face_capture": "one"})
    assert notations(s) == {"KC", "KCxKS", "KCxKH", "KCxKD"}
    assert "face_capture=one" in s.explain(Move.parse("KCxKS,KH,KD"))


def test_amb04_face_capture_any():
    s = make_state(["KC", "2C"], ["KS KH KD"], options={"face_capture": "any"})
    expected = {"KC"} | {
        "KCx" + ",".join(c for i, c in enumerate(["KS", "KH", "KD"]) if m >> i & 1)
        for m in range(1, 8)
    }
    assert notations(s) == expected
    s = make_state(["JC", "2C"], ["JS JH"], options={"face_capture": "any"})
    assert notations(s) == {"JC", "JCxJS", "JCxJH", "JCxJS,JH"}


def test_amb04_maximal_with_faces():
    s = make_state(["KC", "2C"], ["KS KH KD"], options={"capture_extent": "maximal"})
    assert notations(s) == {"KC", "KCxKS,KH,KD"}


def test_face_cards_cannot_be_built():
    s = make_state(["KC QD", "2C"], ["KS AH"])
    assert all(m.kind in (MoveKind.TRAIL, MoveKind.CAPTURE) for m in s.legal_moves())
    assert s.explain(Move.parse("KC+AH=1")) is not None


# -- 3. Create a build ------------------------------------------------------------------------


def test_create_simple_build_needs_a_card_of_its_value():
    s = make_state(["3H 8C", "2C"], ["5S"])
    assert notations(s) == canon_set("3H", "8C", "3H+5S=8")
    s.push("3H+5S=8")
    assert builds_of(s) == [(8, "3H 5S", [0], False)]
    assert s.to_position().loose == 0
    assert s.to_position().hands[0] == mask("8C")


def test_holding_requirement_message():
    s = make_state(["4C KD", "2C"], ["3S"])
    assert "4C+3S=7" not in notations(s)
    assert s.explain(Move.parse("4C+3S=7")) == "a build of 7 needs a 7 in your hand after this play"
    with pytest.raises(IllegalMoveError, match="a build of 7 needs a 7 in your hand after this play"):
        s.push("4C+3S=7")
    assert s.ply == 0 and s.to_position() == make_position(["4C KD", "2C"], ["3S"])


def test_holding_requirement_does_not_count_the_played_card():
    # the only 7 in hand is the card played: no build of 7 ("7C+7D=7" needs a second 7)
    s = make_state(["7C 2H", "2C"], ["7D"])
    assert "7C+7D=7" not in notations(s)
    s = make_state(["7C 7S", "2C"], ["7D"])
    assert canon("7C+7D=7") in notations(s)


def test_build_values_only_up_to_ten():
    s = make_state(["6C 5D", "2C"], ["6S"])  # 6+5 = 11 is no build
    assert not any(m.kind == MoveKind.BUILD for m in s.legal_moves())
    assert "builds go up to 10" in s.explain(Move.parse("5D+6S=11"))


def test_create_multiple_build_001_example():
    """§3.1 rule 3.6 / AMB-11 (001): hold 9 and 3, table 5, A, 9: 3 on 5+A plus the 9."""
    s = make_state(["9S 3H", "2C"], ["5C AD 9H"])
    assert notations(s) == canon_set("3H", "9S", "9Sx9H", "3H+AD,5C=9", "3H+AD,5C,9H=9")
    s.push("3H+AD,5C,9H=9")
    assert builds_of(s) == [(9, "AD 3H 5C 9H", [0], True)]
    groups = s.to_position().builds[0].groups()
    assert {tuple(CardSet(g).codes()) for g in groups} == {("AD", "3H", "5C"), ("9H",)}


def test_natural_build_of_equal_cards():
    """Rule 3.2: p alone with a table card of its value ('building sevens')."""
    s = make_state(["7C 7S", "2C"], ["7D"])
    assert canon("7C+7D=7") in notations(s)
    s.push("7C+7D=7")
    assert builds_of(s) == [(7, "7D 7C", [0], True)]


def test_amb11_003_example():
    """AMB-11 (003): table 2 K 6 5 8, hold 3 and 8: 3 on 5, plus 8, plus 6+2 -> build of 8s."""
    s = make_state(["3H 8C", "2C"], ["2D KD 6S 5D 8D"])
    full = canon("3H+2D,5D,6S,8D=8")
    assert full in notations(s)
    assert canon("3H+5D=8") in notations(s)
    assert canon("3H+5D,8D=8") in notations(s)
    assert canon("3H+2D,5D,6S=8") in notations(s)
    s.push(full)
    assert builds_of(s) == [(8, "2D 3H 5D 6S 8D", [0], True)]
    assert s.to_position().loose == mask("KD")


def test_amb11_natural_build_combination_off():
    off = {"natural_build_combination": False}
    s = make_state(["3H 8C", "2C"], ["2D KD 6S 5D 8D"], options=off)
    builds = {m for m in notations(s) if "+" in m}
    assert builds == canon_set("3H+5D=8")
    assert "natural_build_combination=false" in s.explain(Move.parse("3H+2D,5D,6S,8D=8"))
    s = make_state(["9S 3H", "2C"], ["5C AD 9H"], options=off)
    assert notations(s) == canon_set("3H", "9S", "9Sx9H", "3H+AD,5C=9")
    # the basic natural build (p alone with an equal table card) stays legal
    s = make_state(["7C 7S", "2C"], ["7D"], options=off)
    assert canon("7C+7D=7") in notations(s)


def test_amb11_augment_with_extra_groups():
    b8 = build("2S+6H", 8, 1)
    s = make_state(["3H 8C", "2C"], ["5D 4C 4H", b8])
    assert canon("3H+2S,6H,5D=8") in notations(s)
    assert canon("3H+2S,6H,5D,4C,4H=8") in notations(s)
    s = make_state(["3H 8C", "2C"], ["5D 4C 4H", b8], options={"natural_build_combination": False})
    assert canon("3H+2S,6H,5D=8") in notations(s)
    assert canon("3H+2S,6H,5D,4C,4H=8") not in notations(s)


def test_amb05_no_table_only_builds():
    """AMB-05: every move plays exactly one hand card; 3+5 on the table is no build."""
    s = make_state(["8D KC", "2C"], ["3S 5H AD"])
    assert notations(s) == canon_set("8D", "KC", "8Dx3S,5H")
    for m in s.legal_moves():
        assert m.card in (parse_card("8D"), parse_card("KC"))
        s.push(m)
        assert s.to_position().hands[0].bit_count() == 1
        s.pop()


def test_amb06_unique_build_values():
    """AMB-06: creating a build of an existing value is illegal; augmenting it is legal."""
    s = make_state(["4C 9S", "KD KH"], ["5D", build("3S+6H", 9, 1)])
    assert "4C+5D=9" not in notations(s)
    assert canon("4C+5D,3S,6H=9") in notations(s)
    assert "a build of 9 is already on the table" in s.explain(Move.parse("4C+5D=9"))
    with pytest.raises(IllegalMoveError, match="already on the table"):
        s.push("4C+5D=9")
    m = s.push("4C+5D,3S,6H=9")
    assert m.kind == MoveKind.AUGMENT
    assert builds_of(s) == [(9, "3S 4C 5D 6H", [0, 1], True)]


def test_amb06_unique_build_values_off():
    s = make_state(["4C 9S", "KD KH"], ["5D", build("3S+6H", 9, 1)], options={"unique_build_values": False})
    assert "4C+5D=9" in notations(s)
    s.push("4C+5D=9")
    assert sorted(builds_of(s)) == [(9, "3S 6H", [1], False), (9, "4C 5D", [0], False)]


def test_amb06_increase_cannot_duplicate_a_value():
    s = make_state(["2D 7H", "KD"], [build("2S+3H", 5, 1), build("3S+4H", 7, 1)])
    assert canon("2D+2S,3H=7") not in notations(s)
    assert "already on the table" in s.explain(Move.parse("2D+2S,3H=7"))


def test_amb06_a_player_may_own_several_builds():
    s = make_state(["9D 4C 7D", "KD KH"], ["3C", build("4S+5H", 9, 0)])
    assert canon("4C+3C=7") in notations(s)
    s.push("4C+3C=7")
    assert sorted(builds_of(s)) == [(7, "3C 4C", [0], False), (9, "4S 5H", [0], False)]


# -- 4. Augment, 5. Increase, ownership ----------------------------------------------------


def test_amb07_owner_after_create():
    s = make_state(["3H 8C", "2C"], ["5S"])
    s.push("3H+5S=8")
    assert s.to_position().builds[0].owner_seats() == [0]


def test_amb07_owners_after_augment():
    s = make_state(["9C 9D", "KD KH"], [build("3S+6H", 9, 1)])
    m = s.push("9C+3S,6H=9")
    assert m.kind == MoveKind.AUGMENT
    b = s.to_position().builds[0]
    assert b.owner_seats() == [0, 1]
    assert b.multiple
    # a further augment by the first owner keeps both
    s2 = make_state(["KS", "9H 9S"], [build("3S+6H|9C", 9, [0, 1])], to_move=1, dealer=0)
    s2.push("9H+3S,6H,9C=9")
    assert s2.to_position().builds[0].owner_seats() == [0, 1]


def test_amb07_increase_makes_the_increaser_sole_owner():
    s = make_state(["5C KS", "4C 9D"], [build("2S+3H", 5, 0)], to_move=1, dealer=0)
    m = s.push("4C+2S,3H=9")
    assert m.kind == MoveKind.INCREASE
    assert builds_of(s) == [(9, "2S 3H 4C", [1], False)]
    # seat 0 no longer owns a build: obligation v1 lets him trail again
    assert {"5C", "KS"} <= notations(s)
    before = make_state(["5C KS", "4C 9D"], [build("2S+3H", 5, 0)])
    assert "KS" not in notations(before)


def test_increase_with_loose_cards():
    s = make_state(["2C 10D", "KD"], ["AS", build("3S+4H", 7, 1)])
    assert canon("2C+AS,3S,4H=10") in notations(s)
    assert canon("2C+3S,4H=9") not in notations(s)  # no 9 held
    s.push("2C+AS,3S,4H=10")
    assert builds_of(s) == [(10, "AS 2C 3S 4H", [0], False)]


def test_increase_max_ten():
    s = make_state(["2C AH 10D", "KD"], [build("4S+5H", 9, 1)])
    incs = {str(m) for m in s.legal_moves() if m.kind == MoveKind.INCREASE}
    assert incs == canon_set("AH+4S,5H=10")
    assert "builds go up to 10, not 11" in s.explain(Move.parse("2C+4S,5H=11"))


def test_augment_freezes_a_build():
    """Rule 4.3: once augmented a build can never be increased."""
    seat1 = "4C 9S"
    table = [build("2S+3H", 5, 1)]
    s = make_state(["5C 5D", seat1], table, to_move=1, dealer=0)
    assert canon("4C+2S,3H=9") in notations(s)  # simple: increasable
    s = make_state(["5C 5D", seat1], table)
    s.push("5C+2S,3H=5")
    assert s.to_move == 1
    assert builds_of(s) == [(5, "2S 3H 5C", [0, 1], True)]
    assert not any(m.kind == MoveKind.INCREASE for m in s.legal_moves())
    assert s.explain(Move.parse("4C+2S,3H,5C=9")) is not None
    assert s.explain(Move.parse("4C+2S,3H=9")) is not None


def test_build_with_a_single_card_of_its_value_cannot_be_increased():
    """Rule 5.1: a multiple build (e.g. 5 | 2+3, or 7 on 7) is never increased."""
    s = make_state(["AH 6D", "KD"], [build("2S+3H|5C", 5, 1)])
    assert not any(m.kind == MoveKind.INCREASE for m in s.legal_moves())
    s = make_state(["7C 7S", "AH 8D"], ["7D"])
    s.push("7C+7D=7")
    assert not any(m.kind == MoveKind.INCREASE for m in s.legal_moves())
    assert canon("AH+7C,7D=8") not in notations(s)


def test_amb09_own_increase_allowed_by_default():
    pos = dict(hands=["5C 4D 9S", "KD KH"], table=[build("2S+3H", 5, 0)])
    s = make_state(**pos)
    assert canon("4D+2S,3H=9") in notations(s)
    s.push("4D+2S,3H=9")
    assert builds_of(s) == [(9, "2S 3H 4D", [0], False)]


def test_amb09_own_increase_keep_old():
    opts = {"own_increase": "keep_old"}
    s = make_state(["5C 4D 9S", "KD KH"], [build("2S+3H", 5, 0)], options=opts)
    assert canon("4D+2S,3H=9") in notations(s)  # keeps the 5C
    s = make_state(["4D 9S KC", "KD KH"], [build("2S+3H", 5, 0)], options=opts)
    assert canon("4D+2S,3H=9") not in notations(s)
    assert "own_increase=keep_old" in s.explain(Move.parse("4D+2S,3H=9"))
    s = make_state(["4D 9S KC", "KD KH"], [build("2S+3H", 5, 0)])
    assert canon("4D+2S,3H=9") in notations(s)  # default: only the new value is needed


def test_amb09_own_increase_forbidden():
    opts = {"own_increase": "forbidden"}
    s = make_state(["5C 4D 9S", "KD KH"], [build("2S+3H", 5, 0)], options=opts)
    assert canon("4D+2S,3H=9") not in notations(s)
    assert "own_increase=forbidden" in s.explain(Move.parse("4D+2S,3H=9"))
    # an opponent's build may still be increased
    s = make_state(["5C 4D 9S", "KD KH"], [build("2S+3H", 5, 1)], options=opts)
    assert canon("4D+2S,3H=9") in notations(s)


def test_amb10_builds_are_not_sum_addends():
    s = make_state(["9D", "KD"], ["4C", build("2S+3H", 5, 1)])
    assert moves_of(s, "9D") == {"9D"}
    why = s.explain(Move.parse("9Dx2S,3H,4C"))
    assert why is not None and "build of 5 can only be taken by a 5" in why
    # while a 5 takes the build (and a 4 would take the 4)
    s = make_state(["5D 4D", "KD"], ["4C", build("2S+3H", 5, 1)])
    assert canon("5Dx2S,3H") in notations(s)


# -- obligation (AMB-08) ---------------------------------------------------------------------

OWN9 = build("4S+5H", 9, 0)
OPP7 = build("2S+5C", 7, 1)
OWN9B = build("3D+6D", 9, 0)

# (description, hands, table, move, {obligation: legal})
OBLIGATION_CASES = [
    ("trail", ["9D 2C", "KC KD"], ["7D", OWN9], "2C", {"none": True, "v1": False, "v2": False, "v3": False}),
    ("capture own build", ["9D 2C", "KC KD"], ["7D", OWN9], "9Dx4S,5H", {"none": True, "v1": True, "v2": True, "v3": True}),
    ("capture elsewhere", ["9D 7C", "KC KD"], ["7D", OWN9], "7Cx7D", {"none": True, "v1": True, "v2": False, "v3": False}),
    ("create elsewhere", ["9D AH 8C", "KC KD"], ["7D", OWN9], "AH+7D=8", {"none": True, "v1": True, "v2": False, "v3": True}),
    ("augment own", ["9D 6S", "KC KD"], ["3C", OWN9], "6S+3C,4S,5H=9", {"none": True, "v1": True, "v2": True, "v3": True}),
    ("increase own", ["9D AH 10C", "KC KD"], [OWN9], "AH+4S,5H=10", {"none": True, "v1": True, "v2": True, "v3": True}),
    ("augment opponent's", ["9C 7C 7S", "KC KD"], [OWN9B, OPP7], "7C+2S,5C=7", {"none": True, "v1": True, "v2": False, "v3": False}),
    ("increase opponent's", ["9C 3H 10H", "KC KD"], [OWN9B, OPP7], "3H+2S,5C=10", {"none": True, "v1": True, "v2": False, "v3": True}),
    ("capture opponent's", ["9C 7C", "KC KD"], [OWN9B, OPP7], "7Cx2S,5C", {"none": True, "v1": True, "v2": False, "v3": False}),
]  # fmt: skip


@pytest.mark.parametrize("obligation", ["none", "v1", "v2", "v3"])
@pytest.mark.parametrize(
    ("hands", "table", "move", "legal"),
    [case[1:] for case in OBLIGATION_CASES],
    ids=[case[0] for case in OBLIGATION_CASES],
)
def test_amb08_obligations(obligation, hands, table, move, legal):
    s = make_state(hands, table, options={"obligation": obligation})
    assert (canon(move) in notations(s)) == legal[obligation]
    why = s.explain(Move.parse(move))
    if legal[obligation]:
        assert why is None
    else:
        assert why is not None and f"obligation {obligation}" in why
        with pytest.raises(IllegalMoveError, match=f"obligation {obligation}"):
            s.push(move)
        assert s.ply == 0


def test_amb08_v1_is_the_default_and_names_the_rule():
    s = make_state(["9D 2C", "KC KD"], ["7D", OWN9])
    assert s.rules.obligation == "v1"
    assert "2C" not in notations(s)
    assert s.explain(Move.parse("2C")) == "you own a build of 9, and obligation v1 forbids trailing"
    with pytest.raises(IllegalMoveError, match="obligation v1 forbids trailing"):
        s.push("2C")


def test_obligation_only_binds_owners():
    # the opponent's build does not stop seat 0 from trailing
    s = make_state(["9C 3H", "KC KD"], [OPP7], options={"obligation": "v3"})
    assert {"9C", "3H"} <= notations(s)
    s = make_state(["9C 3H", "KC KD"], [OPP7], options={"obligation": "v2"})
    assert {"9C", "3H"} <= notations(s)


def test_obligation_ends_when_the_build_is_captured():
    s = make_state(["9D 2C", "KC KD"], ["7D", OWN9], options={"obligation": "v2"})
    assert notations(s) == canon_set("9Dx4S,5H", "2C+4S,5H,7D=9")
    s.push("9Dx4S,5H")
    s.push("KC")
    assert notations(s) == {"2C"}


def test_holding_invariant():
    """An owner may not give up his last card of the build's value."""
    s = make_state(["9D 2C", "KC KD"], ["9H", OWN9], options={"obligation": "none"})
    legal = notations(s)
    assert "9D" not in legal  # trailing the 9 leaves the build uncapturable
    assert "9Dx9H" not in legal  # so does capturing something else with it
    assert canon("9Dx4S,5H,9H") in legal
    assert canon("9Dx4S,5H") in legal
    assert "2C" in legal
    why = s.explain(Move.parse("9D"))
    assert why is not None and "you own a build of 9 and would have no 9 left" in why
    # with two 9s the first may go
    s = make_state(["9D 9C", "KC KD"], ["9H", OWN9], options={"obligation": "none"})
    assert {"9D", "9C", "9Dx9H"} <= notations(s)


def test_holding_invariant_off():
    s = make_state(["9D 2C", "KC KD"], ["9H", OWN9], options={"obligation": "none", "holding_invariant": False})
    assert {"9D", "9Dx9H"} <= notations(s)


# -- scoring: AMB-12, categories, ties ----------------------------------------------------


def _hand(*events):
    return HandScore(2, tuple(events))


def test_amb12_ordered_tally_vs_compare_totals():
    hand = _hand(("cards", 0, 3), ("spades", 1, 1), ("big_cassino", 1, 2), ("little_cassino", 1, 1))
    ordered = cassino.rules("cassino_standard")
    compare = cassino.rules("cassino_standard", end_check="compare_totals")
    # ordered tally: team 0 reaches 21 with "most cards", before team 1's later points
    assert tally_winner(ordered, [18, 19], hand) == ([21, 23], 0)
    # compare totals: the higher final total wins
    assert tally_winner(compare, [18, 19], hand) == ([21, 23], 1)
    # nobody at the target
    assert tally_winner(ordered, [0, 0], hand) == ([3, 4], None)
    assert tally_winner(compare, [0, 0], hand) == ([3, 4], None)
    # equal totals at or above the target: another hand (compare), first to reach (ordered)
    even = _hand(("cards", 0, 3), ("big_cassino", 1, 2), ("ace_spades", 1, 1))
    assert tally_winner(compare, [20, 20], even) == ([23, 23], None)
    assert tally_winner(ordered, [20, 20], even) == ([23, 23], 0)
    assert tally_winner(ordered, [17, 20], even) == ([20, 23], 1)
    # the 002 preset compares totals
    assert tally_winner(cassino.rules("cassino_standard_002"), [18, 19], hand) == ([21, 23], 1)


SPADES_7 = "AS 3S 4S 5S 6S 7S 8S"
NON_POINT = [
    c for c in CardSet((1 << 52) - 1).codes()
    if not c.endswith("S") and c not in ("AH", "AD", "AC", "10D")
]


def test_scoring_categories():
    team0 = [*SPADES_7.split(), "AC", "10D", *NON_POINT[:18]]  # 27 cards, 7 spades
    assert len(team0) == 27
    s = make_state([[], []], [], piles=[team0, []], rest_to=1)
    assert s.is_over
    hs = s.hand_score()
    assert list(hs.events) == [
        ("cards", 0, 3),
        ("spades", 0, 1),
        ("big_cassino", 0, 2),
        ("little_cassino", 1, 1),
        ("ace_spades", 0, 1),
        ("ace_clubs", 0, 1),
        ("ace_hearts", 1, 1),
        ("ace_diamonds", 1, 1),
    ]
    assert hs.totals() == [8, 3]
    assert sum(hs.totals()) == 11
    assert hs.categories(1) == {
        "cards": 0, "spades": 0, "big_cassino": 0, "little_cassino": 1, "ace_spades": 0,
        "ace_clubs": 0, "ace_hearts": 1, "ace_diamonds": 1, "sweeps": 0, "pictures": 0,
        "spade_points": 0, "seven_diamonds": 0, "all_eleven": 0, "defaults": 0, "sistan": 0,
        "clubs": 0, "good_two": 0, "good_ten": 0, "mulle": 0, "red_cards": 0, "fixxa_stoppa": 0, "seven_spades": 0,
        "chip_cards": 0, "last_holder": 0, "spy_two": 0, "big_ten": 0, "coins": 0, "two_of_coins": 0,
        "seven_of_swords": 0, "ace_coins": 0, "ace_swords": 0, "ace_cups": 0, "ace_batons": 0,
    }  # fmt: skip
    assert hs.to_dict()["teams"][0]["total"] == 8


def test_scoring_cards_tie_gives_nobody_the_three_points():
    team0 = [*SPADES_7.split(), "AC", "10D", *NON_POINT[:17]]  # 26 cards
    s = make_state([[], []], [], piles=[team0, []], rest_to=1)
    hs = s.hand_score()
    assert "cards" not in [e[0] for e in hs.events]
    assert sum(hs.totals()) == 8
    assert hs.totals() == [5, 3]


def test_scoring_spades_tie_gives_nobody_the_point():
    r = cassino.rules("cassino_standard")
    team0 = [parse_card(c) for c in ["AS", "3S", "4S", "5S", "6S", "7S", "2H"]]
    team1 = [parse_card(c) for c in ["8S", "9S", "10S", "JS", "QS", "KS", "3H", "4H"]]
    hs = score_hand(r, [team0, team1], [])
    assert [e[0] for e in hs.events] == ["cards", "ace_spades"]
    assert hs.totals() == [1, 3]


def test_scoring_when_nobody_captured():
    # leftovers are discarded unscored when nobody captured during the hand (AMB-67)
    s = make_state([[], ["KC"]], ["2S 3H"], piles=[[], []], rest_to=None, to_move=1)
    s.push("KC")
    assert s.is_over
    p = s.to_position()
    assert p.loose == 0 and p.builds == ()
    assert set(p.discard) == {parse_card(c) for c in ("2S", "3H", "KC")}
    assert len(p.piles[0]) + len(p.piles[1]) == 49


def test_scoring_sweeps_in_chronological_order():
    r = cassino.rules("cassino_standard_002")
    hs = score_hand(r, [[], []], [1, 0, 1])
    assert list(hs.events) == [("sweeps", 1, 1), ("sweeps", 0, 1), ("sweeps", 1, 1)]
    assert hs.totals() == [1, 2]
    # without opt_sweeps sweeps score nothing
    assert score_hand(cassino.rules("cassino_standard"), [[], []], [1, 0]).events == ()


# -- end of hand: leftovers, AMB-14, AMB-15 ----------------------------------------------------


def test_leftovers_go_to_the_last_capturer():
    s = make_state([[], ["KC"]], ["3S 4H"], to_move=1, last_capturer=0, piles=[[], []], rest_to=0)
    pile0 = len(s.to_position().piles[0])
    s.push("KC")
    p = s.to_position()
    assert s.is_over and p.is_over
    assert p.loose == 0 and p.builds == ()
    assert len(p.piles[0]) == pile0 + 3
    assert set(p.piles[0][-3:]) == {parse_card(c) for c in ("3S", "4H", "KC")}
    assert p.sweep_order == ()
    assert list(s.legal_moves()) == []
    assert s.count_moves() == 0


def test_leftovers_after_a_final_capture_go_to_that_capturer():
    s = make_state([[], ["4C"]], ["4H 3S 5D", build("2S+AH", 3, 0)], to_move=1, last_capturer=0,
                   piles=[[], []], rest_to=0)
    s.push("4Cx4H")
    p = s.to_position()
    assert p.last_capturer == 1
    assert set(p.piles[1]) == {parse_card(c) for c in ("4H", "4C", "3S", "5D", "2S", "AH")}


def test_amb14_sweeps_off_by_default():
    s = make_state(["5C 9H", "KC KD"], ["2S 3H"])
    s.push("5Cx2S,3H")
    assert s.to_position().table_mask == 0
    assert s.to_position().sweep_order == ()
    assert "sweeps" not in [e[0] for e in s.hand_score().events]


def test_amb14_sweeps_on_in_cassino_standard_002():
    s = make_state(["5C 9H", "KC KD"], ["2S 3H"], system="cassino_standard_002")
    s.push("5Cx2S,3H")
    assert s.to_position().sweep_order == (0,)
    assert s.to_position().sweeps == (1, 0)
    assert ("sweeps", 0, 1) in s.hand_score().events
    s.pop()
    assert s.to_position().sweep_order == ()


def test_amb14_sweeps_option_and_builds_left_on_the_table():
    on = {"sweeps": True}
    s = make_state(["5C 9H", "KC KD"], ["2S 3H"], options=on)
    s.push("5Cx2S,3H")
    assert s.to_position().sweeps == (1, 0)
    # a build left behind means the table is not empty: no sweep
    s = make_state(["5C 9H", "KC KD"], ["2S 3H", build("4S+4H", 8, 1)], options=on)
    s.push("5Cx2S,3H")
    assert s.to_position().sweeps == (0, 0)
    # a trail never sweeps
    s = make_state(["5C 9H", "KC KD"], [], options=on)
    s.push("5C")
    assert s.to_position().sweeps == (0, 0)


def test_amb15_sweep_with_the_last_card_of_the_hand_counts():
    on = {"sweeps": True}
    s = make_state([[], ["5C"]], ["2S 3H"], to_move=1, options=on, last_capturer=0)
    s.push("5Cx2S,3H")
    assert s.is_over
    assert s.to_position().sweep_order == (1,)
    assert ("sweeps", 1, 1) in s.hand_score().events
    off = {"sweeps": True, "last_card_sweep": False}
    s = make_state([[], ["5C"]], ["2S 3H"], to_move=1, options=off, last_capturer=0)
    s.push("5Cx2S,3H")
    assert s.to_position().sweep_order == ()


def test_amb15_leftover_collection_is_never_a_sweep():
    s = make_state([[], ["KC"]], ["2S 3H"], to_move=1, options={"sweeps": True}, last_capturer=1)
    s.push("KC")
    p = s.to_position()
    assert p.table_mask == 0
    assert p.sweep_order == ()
    assert "sweeps" not in [e[0] for e in s.hand_score().events]


# -- dealing: AMB-13 and later deals ---------------------------------------------------------

DECK = list(range(52))


def _codes(m):
    return CardSet(m).codes()


def test_amb13_standard_deal_order():
    """2 to the opponent, 2 to the table, 2 to the dealer, twice; non-dealer leads."""
    s = cassino.State.new_hand(cassino.rules("cassino_standard"), 0, DECK)
    p = s.to_position()
    assert _codes(p.hands[1]) == ["AS", "AH", "2D", "2C"]
    assert _codes(p.loose) == ["AD", "AC", "3S", "3H"]
    assert _codes(p.hands[0]) == ["2S", "2H", "3D", "3C"]
    assert list(p.stock) == DECK[12:]
    assert p.to_move == 1 and p.dealer == 0
    assert p.builds == () and p.piles == ((), ()) and p.last_capturer is None
    s = cassino.State.new_hand(cassino.rules("cassino_standard"), 1, DECK)
    p = s.to_position()
    assert _codes(p.hands[0]) == ["AS", "AH", "2D", "2C"]
    assert _codes(p.hands[1]) == ["2S", "2H", "3D", "3C"]
    assert p.to_move == 0


def test_amb13_002_deal_order():
    """002: opponent 2, dealer 2, table 2, twice."""
    r = cassino.rules("cassino_standard_002")
    p = cassino.State.new_hand(r, 0, DECK).to_position()
    assert _codes(p.hands[1]) == ["AS", "AH", "2D", "2C"]
    assert _codes(p.hands[0]) == ["AD", "AC", "3S", "3H"]
    assert _codes(p.loose) == ["2S", "2H", "3D", "3C"]
    p = cassino.State.new_hand(cassino.rules("cassino_standard", deal_order="opponent_dealer_table"), 0, DECK).to_position()
    assert _codes(p.loose) == ["2S", "2H", "3D", "3C"]


def test_amb13_002_three_players():
    r = cassino.rules("cassino_standard_002", players=3)
    p = cassino.State.new_hand(r, 0, DECK).to_position()
    assert _codes(p.hands[1]) == ["AS", "AH", "3S", "3H"]
    assert _codes(p.hands[2]) == ["AD", "AC", "3D", "3C"]
    assert _codes(p.hands[0]) == ["2S", "2H", "4S", "4H"]
    assert _codes(p.loose) == ["2D", "2C", "4D", "4C"]
    assert len(p.stock) == 36 and p.to_move == 1


def test_amb13_first_dealer_option():
    assert cassino.rules("cassino_standard").first_dealer == "high"
    assert cassino.rules("cassino_standard_002").first_dealer == "low"


def test_new_hand_uses_the_seeded_shuffle():
    deck = cassino.shuffled_deck(cassino.Rng(42))
    a = cassino.new_hand("cassino_standard", seed=42).to_position()
    b = cassino.State.new_hand(cassino.rules("cassino_standard"), 0, deck).to_position()
    assert a == b
    assert list(a.stock) == deck[12:]
    assert a.hands[1] == sum(1 << c for c in deck[0:2] + deck[6:8])
    with pytest.raises(ValueError):
        cassino.State.new_hand(cassino.rules("cassino_standard"), 0, DECK[:51])
    with pytest.raises(ValueError):
        cassino.State.new_hand(cassino.rules("cassino_standard"), 0, [0, *DECK[:51]])


STOCK8 = "JS JH QH QD JD JC KS KH"


def test_later_deals_non_dealer_first_two_at_a_time():
    s = make_state(["KC", "KD"], ["QS"], stock=STOCK8)
    s.push("KC")
    assert s.to_position().stock == tuple(parse_card(c) for c in STOCK8.split())
    s.push("KD")
    p = s.to_position()
    assert _codes(p.hands[0]) == ["JS", "JH", "JD", "JC"]
    assert _codes(p.hands[1]) == ["QH", "QD", "KS", "KH"]
    assert p.stock == ()
    assert p.to_move == 0  # the non-dealer leads every deal
    assert p.loose == mask("QS KC KD")  # no new table cards
    s.pop()
    assert s.to_position().hands == (0, mask("KD"))
    assert len(s.to_position().stock) == 8


def test_later_deals_when_seat_0_deals():
    s = make_state(["KC", "KD"], ["QS"], stock=STOCK8, dealer=0, to_move=1)
    s.push("KD")
    s.push("KC")
    p = s.to_position()
    assert _codes(p.hands[1]) == ["JS", "JH", "JD", "JC"]
    assert _codes(p.hands[0]) == ["QH", "QD", "KS", "KH"]
    assert p.to_move == 1


def test_perft_crosses_a_deal():
    s = make_state(["KC", "KD"], ["QS"], stock=STOCK8)
    # KC: trail only; KD: trail or take the KC; then the deal gives seat 0 four jacks
    # (4 trails) and seat 1 QH QD KS KH: 4 trails, a Q takes the QS, a K takes one king
    # (KC or KD, when they lie on the table): 10 replies after KD trailed, 6 after KDxKC.
    assert [s.perft(d) for d in (1, 2, 3, 4)] == [1, 2, 8, 4 * 10 + 4 * 6]
    no_stock = make_state(["KC", "KD"], ["QS"])
    assert [no_stock.perft(d) for d in (1, 2, 3)] == [1, 2, 2]


def test_listing_limit_counts_moves_after_the_maximal_filter() -> None:
    # 7 moves under free capture, 5 once captures must be maximal: a limit of 5 lists them
    text = (
        "cassino_standard{capture_extent=maximal} 0 1 AS,AC,10S,KD/4D,6C,8H,JH "
        "3S,5D,7H,8S,9C,KH -/KS,KC,AD,3C,4H,4S 2S,8D,10D,QS,9H,JC,QD,7S,3H,JD,10C,9S,7C,"
        "2D,10H,5H,5C,7D,6H,6S,8C,5S,JS,3D,9D,2C,4C,2H,QC,AH,6D,QH 1 - 0,0"
    )
    state = cassino.State.from_position(cassino.Position.from_text(text))
    moves = state.legal_moves()
    assert len(moves) == state.count_moves() == 5
    assert state.legal_moves(limit=5) == moves
    with pytest.raises(cassino.MoveLimitError, match="5 legal moves exceed the listing limit of 4"):
        state.legal_moves(limit=4)
    assert state.legal_moves() == moves  # the failed listing left nothing behind
