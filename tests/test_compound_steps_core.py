"""The step interface and turn parsing of the compound systems in the core (core/compound.pxi,
docs/architecture.md §9.4): the core's step builder lists, takes and ends exactly the
reference's steps; a turn is read by walking its written steps and finding its least step
sequence among the states that may end there, without listing the other turns; and an
illegal turn or step is refused with the rule or the card that forbids it."""

from __future__ import annotations

import os
import random
from dataclasses import replace

import pytest

import cassino
from cassino import Position, rules
from cassino._reference import State as RefState
from cassino.cards import parse_card
from cassino.errors import IllegalMoveError
from cassino.reference.african import compound_rules
from cassino.reference.compound import Build, CompoundRules, Table, least_turn, turns
from test_core_compound import OPTIONS, SYSTEMS, positions

core = pytest.importorskip("cassino._core", reason="the Cython core is not built")
if os.environ.get("CASSINO_PURE_PYTHON", "") not in ("", "0"):
    pytest.skip("the core's step builder is tested in the core pass of the suite",
                allow_module_level=True)

# a 3-player position with 12 loose cards and a hand of 14: 3,380,750 turns. Reading one
# turn or listing the first steps searched every state of the turn before (35 s, 540 MB).
BIG = ("african_cassino_3p{players=3} 0 0 2S,2H,2D,3D,3C,5D,7D,8C,9H,9D,10H,JS,JC,QD/"
       "AS,2C,3H,4D,5S,5C,6C,9S,10S,10D,QS,QH,KC/AD,AC,4S,4C,7S,7H,7C,8S,8D,9C,10C,QC,KS "
       "AH,3S,4H,5H,6S,6H,6D,8H,JH,JD,KH,KD -/-/- - - - 0,0,0")


def core_state(s: RefState) -> cassino.State:
    return cassino.State.from_position(s.to_position())


def walk(a: cassino.State, b: RefState, rng: random.Random) -> int:
    """Build a random turn step by step on both, checking that every listing agrees;
    returns the steps taken."""
    n = 0
    while True:
        steps = a.legal_steps()
        assert steps == b.legal_steps()
        assert a.can_end_turn() == b.can_end_turn()
        if not steps or (a.can_end_turn() and rng.random() < 0.3):
            break
        step = rng.choice(steps)
        assert a.push_step(step) == b.push_step(step) == step
        n += 1
    assert a.can_end_turn() and b.can_end_turn()     # (no dead ends)
    assert a.end_turn() == b.end_turn()
    return n


@pytest.mark.parametrize(("system", "options"), [(s, {}) for s in SYSTEMS] + OPTIONS)
def test_the_core_steps_are_the_references(system: str, options: dict[str, object]) -> None:
    r = rules(system, **options)
    rng = random.Random(5)
    states = [s for s in positions(r, range(1), 25) if not s.is_over]
    assert len(states) >= 20
    taken = 0
    for s in states:
        a, b = core_state(s), s.clone()
        assert type(a).__name__ == "CompoundState" and type(b) is RefState
        taken += walk(a, b, rng)
        assert a.to_position() == b.to_position()
    assert taken > len(states)                       # (free steps were taken too)


@pytest.mark.parametrize(("system", "options"), [(s, {}) for s in SYSTEMS] + OPTIONS[:6])
def test_a_turn_is_read_as_its_listed_move_without_listing(
        system: str, options: dict[str, object]) -> None:
    """Every listed turn, written with its steps, and written with its free steps after
    the hand-card step where that is a turn too, reads back as the listed move on a state
    that has listed nothing (the core's least-sequence search)."""
    r = rules(system, **options)
    states = [s for s in positions(r, range(1), 12) if not s.is_over]
    read = 0
    for s in states:
        listed = s.turns_one_order() if hasattr(s, "turns_one_order") else s.legal_moves()
        for m in listed[:40]:
            fresh = core_state(s)
            assert fresh.__dict__.get("_turn_cache") is None
            got = fresh.parse_move(str(m))
            assert got == m and fresh.__dict__.get("_turn_cache") is None
            other_fresh = core_state(s)
            assert other_fresh.is_legal(m) and other_fresh.turn_table(m) == fresh.turn_table(got)
            steps = str(m).split("; ")
            if len(steps) > 1:
                turned = "; ".join(steps[1:] + steps[:1])
                try:
                    other = fresh.parse_move(turned)
                except IllegalMoveError:
                    continue                 # (that order is no turn: F3 before its capture)
                assert other == m            # (the same table: the same move)
            read += 1
    assert read > 100


def test_the_least_turn_is_the_listed_turn_in_the_reference() -> None:
    """The reference's targeted search (least_turn) finds each turn turns() lists, with
    the same steps, on positions with free steps and pile tops."""
    c = parse_card
    r = CompoundRules(players=3, pile_order="one")
    t = Table(hands=(frozenset({c("9H"), c("2C"), c("7D")}), frozenset({c("5C")}), frozenset()),
              loose=frozenset({c("3S"), c("4S"), c("5H"), c("2D")}),
              builds=(Build(frozenset({c("4H"), c("5S")}), 9, 1, False),),
              piles=((), (c("3D"), c("2H")), ()))
    listed = turns(r, t, 0)
    assert len(listed) > 40 and any(len(x.steps) > 2 for x in listed)
    for x in listed:
        assert least_turn(r, t, 0, x.table) == x
    assert least_turn(r, t, 0, replace(t, loose=frozenset())) is None


def test_a_big_position_reads_turns_and_lists_steps_without_searching_every_state() -> None:
    s = cassino.State.from_position(Position.from_text(BIG))
    direct = s.parse_move("9Hx4H,5H")
    assert s.parse_move("+4H,5H=9; 9Hx4H,5H") == direct   # (one table, one move)
    assert s.parse_move("9hX5h,4h|5H,4H") == replace(direct, steps=("9Hx4H,5H|5H,4H",))
    steps = s.legal_steps()
    assert len(steps) == len(set(steps)) > 1000 and "+4H,5H=9" in steps
    s.push("+3S,8H=11; 9Dx4H,5H")
    assert [b.value for b in s.builds] == [11] and len(s.piles[0]) == 3
    s.pop()
    s.push_step("+4H,5H=9")
    s.push_step("2S")
    with pytest.raises(IllegalMoveError, match="a hand card was already played"):
        s.push_step("3C")
    assert s.turn_steps == ["+4H,5H=9", "2S"] and s.can_end_turn()


def test_an_illegal_turn_names_the_rule_or_the_card() -> None:
    s = cassino.State.from_position(Position.from_text(BIG))
    cases = [
        ("+4H,5H=9; 9Hx9S", "9S is not on the table"),
        ("KSx KH", "KS is not in the hand"),
        ("2S; 3C", "a hand card was already played this turn"),
        ("+4H,5H=9", "is not finished: a hand card must be played"),
        ("+4H,5H=9; 9Hx4H,5H; +3S,KH=16", "step 3"),
    ]
    before = s.to_position()
    for text, why in cases:
        with pytest.raises(IllegalMoveError, match=why):
            s.parse_move(text)
        with pytest.raises(IllegalMoveError, match=why):
            s.push(text)
    assert s.to_position() == before
    # the holding rule: a build of 12 needs a queen in the hand after the turn
    with pytest.raises(IllegalMoveError, match="the holding rule"):
        s.parse_move("+6S,6H=12; QD")
    used = "9H 9D 2S JC AS 2C 4H 5H 3S 8H".split()
    rest = [x for x in (f"{r}{u}" for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()
                        for u in "SHDC") if x not in used]
    pile, stock = ",".join(rest[:18]), ",".join(rest[18:])       # (the pile: seat 0's own)
    two = cassino.State.from_position(Position.from_text(
        f"african_cassino_2p 0 0 9H,9D,2S,JC/AS,2C 4H,5H,3S,8H {pile}/- {stock} 0 - 0,0"))
    with pytest.raises(IllegalMoveError, match="two-player rule: no trail while owning a build"):
        two.parse_move("+4H,5H=9; 2S")
    with pytest.raises(IllegalMoveError, match="two-player rule: a player may own one build"):
        two.parse_move("+4H,5H=9; +3S,8H=11; 2S")
    assert two.parse_move("+4H,5H=9; +3S,8H=11; JCx3S,8H") == two.parse_move("+4H,5H=9; JCx3S,8H")


def test_compound_rules_of_a_big_position_are_the_references() -> None:
    """The builder's rules are the reference's with one pile order (the turn's steps list
    the captured cards ascending)."""
    s = cassino.State.from_position(Position.from_text(BIG))
    assert compound_rules(s.rules).players == 3
    b, _ = s._step_builder()
    assert type(b).__name__ == "_CoreTurnBuilder"
    assert b._search.r.pile_order == "one"


@pytest.mark.parametrize(("system", "options"), [(s, {}) for s in SYSTEMS] + [
    ("italian_house_cassino", {"capture_extent": "maximal"}), OPTIONS[0]])
def test_a_turn_by_index_is_the_references_without_listing(
        system: str, options: dict[str, object]) -> None:
    """move_at(i) of a state that has listed nothing makes that turn alone in C
    (_TurnGen.turn_at), the reference's move at i, and pushes as it does."""
    r = rules(system, **options)
    rng = random.Random(3)
    for s in [s for s in positions(r, range(1), 12) if not s.is_over][:12]:
        n = s.count_moves()
        for i in sorted({0, n - 1, *(rng.randrange(n) for _ in range(3))}):
            fresh = core_state(s)
            m = fresh.move_at(i)
            assert fresh.__dict__.get("_turn_cache") is None
            assert m == s.move_at(i)
            fresh.push(m)
            ref = s.clone()
            ref.push(m)
            assert fresh.to_position() == ref.to_position()
        with pytest.raises(IndexError, match="no move at index"):
            core_state(s).move_at(n)


def test_the_big_positions_first_turn_is_made_alone() -> None:
    s = cassino.State.from_position(Position.from_text(BIG))
    assert str(s.move_at(0)) == "3Dx3S" and s.__dict__.get("_turn_cache") is None
    assert s.count_moves() == 3380750
