"""The reference's compound-turn generator (cassino.reference.compound; docs/rules.md §3.22-§3.23,
AMB-59 to AMB-62): free steps around one hand-card step, one turn per resulting table."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cassino.cards import parse_card, parse_cards
from cassino.errors import IllegalMoveError, NotationError
from cassino.reference.compound import Build, CompoundRules, Table, Turn, _Search, _State, turns

THREE = CompoundRules(players=3)
TWO = CompoundRules(players=2, two_player=True)


def cards(text: str) -> frozenset[int]:
    return frozenset(parse_cards(text.split()))


def build(text: str, value: int, owner: int, frozen: bool = False) -> Build:
    return Build(cards(text), value, owner, frozen)


def table(hand: str, loose: str = "", builds: tuple[Build, ...] = (),
          piles: tuple[str, ...] = ("", "", ""), others: str = "") -> Table:
    n = len(piles)
    hands = (cards(hand), *(cards(others) if i == 1 else frozenset() for i in range(1, n)))
    return Table(hands, cards(loose), tuple(sorted(builds)),
                 tuple(tuple(parse_cards(p.split())) for p in piles))


def listed(r: CompoundRules, t: Table, mover: int = 0) -> list[str]:
    return [str(turn) for turn in turns(r, t, mover)]


def every_card(t: Table) -> Counter[int]:
    out: Counter[int] = Counter()
    for h in t.hands:
        out.update(h)
    out.update(t.loose)
    for b in t.builds:
        out.update(b.cards)
    for p in t.piles:
        out.update(p)
    return out


def dealt(deck: list[int], nhand: int, nloose: int, ndeep: int, seats: int = 3) -> Table:
    """Seat 0's hand of ``nhand``, ``nloose`` loose cards and a pile of ``ndeep`` for each
    other seat, from the top of ``deck``; the other hands empty."""
    hand, rest = deck[:nhand], deck[nhand:]
    loose, rest = rest[:nloose], rest[nloose:]
    piles = tuple(tuple(rest[i * ndeep:(i + 1) * ndeep]) if i else () for i in range(seats))
    return Table((frozenset(hand), *(frozenset() for _ in range(seats - 1))), frozenset(loose),
                 (), piles)


def test_the_seed_example_a_nine_build_augmented_with_a_two_from_hand_and_a_seven_from_a_pile():
    # "a player augments a build of nines using a two from their own hand and a seven from an
    # opponent's capture pile" (seed 000)
    t = table("9H 2C", builds=(build("4S 5S", 9, 0),), piles=("", "3D 7D", ""))
    got = {str(turn): turn for turn in turns(THREE, t, 0)}
    turn = got["augment 9 with 2C + pile 7D"]
    (b,) = turn.table.builds
    assert b.cards == cards("4S 5S 2C 7D") and b.value == 9 and b.frozen and b.owner == 0
    assert turn.table.piles[1] == (parse_card("3D"),)   # the 3D is exposed
    assert turn.table.hands[0] == cards("9H") and not turn.captured


def test_a_pile_is_used_from_the_top_down_each_exposed_card_in_turn():
    # pile 5D then 3D on top: 3D, then the exposed 5D, make a group of 8 (AMB-61)
    t = table("8H 4C", builds=(build("6S 2S", 8, 0),), piles=("", "5D 3D", ""))
    assert "augment 8 with pile 3D 5D; trail 4C" in listed(THREE, t)
    # a card under the top is out of reach until the cards above it are used
    t = table("5H 4C", builds=(build("3S 2S", 5, 0),), piles=("", "5D 9C", ""))
    assert not any(parse_card("5D") in b.cards for turn in turns(THREE, t, 0) for b in turn.table.builds)


def test_an_opponents_build_is_augmented_only_when_the_hand_card_then_takes_it():
    # F3: seat 1's build of 9 augmented with the pile top 4D and the loose 5H, then taken by 9C
    t = table("9C 2S", loose="5H", builds=(build("6S 3S", 9, 1),), piles=("", "", "4D"))
    turns_ = turns(THREE, t, 0)
    f3 = [turn for turn in turns_ if turn.steps[0].kind == "augment"]
    assert f3 and all(str(turn).startswith("augment 9 with 5H + pile 4D; capture 9C takes")
                      for turn in f3)
    for turn in f3:
        assert turn.captured and not turn.table.builds and turn.table.piles[2] == ()
        assert turn.steps[-1].kind == "capture" and turn.steps[-1].card == parse_card("9C")
    # never an augmented opponent's build left on the table
    for turn in turns_:
        assert all(not (b.owner == 1 and b.frozen) for b in turn.table.builds)


def test_the_holding_invariant_and_unique_build_values():
    # 5H onto the loose 4C makes 9 only with a 9 left in hand
    assert "build 9 of 5H 4C" in listed(THREE, table("5H 9S", loose="4C"))
    assert "build 9 of 5H 4C" not in listed(THREE, table("5H 8S", loose="4C"))
    # a second build of 9 while one is on the table: never at the end of a turn
    t = table("5H 9S", loose="4C", builds=(build("6D 3D", 9, 1),))
    assert all(len({b.value for b in turn.table.builds}) == len(turn.table.builds)
               for turn in turns(THREE, t, 0))
    assert "build 9 of 5H 4C" not in listed(THREE, t)


def test_increase_an_opponents_simple_build_only():
    t = table("2H JC", builds=(build("6D 3D", 9, 1),))
    assert "increase (3D 6D) with 2H to 11" in listed(THREE, t)
    frozen = table("2H JC", builds=(build("6D 3D 9C", 9, 1, frozen=True),))
    assert not any(s.kind == "increase" for turn in turns(THREE, frozen, 0) for s in turn.steps)
    own = table("2H JC", builds=(build("6D 3D", 9, 0),))
    assert not any(s.kind == "increase" for turn in turns(THREE, own, 0) for s in turn.steps)


def test_amb60s_option_tests_who_first_created_the_build():
    """AMB-60: by default the build's current owner must be an opponent; with the literal
    option (``increase_creator``) the seat that first created it must be, whoever owns it
    now: an increase keeps the creator, and a player may raise his own earlier increase."""
    from dataclasses import replace

    literal = replace(THREE, increase_creator=True)
    # (seat 0 created the 9; seat 1 increased it to 11 and owns it now)
    raised = build("6D 3D 2S", 11, 1)
    t = table("2H KC", builds=(replace(raised, creator=0),))
    incs = [x for x in turns(THREE, t, 0) if x.steps[0].kind == "increase"]
    assert incs and incs[0].table.builds[0].owner == 0          # (default: owner 1 is an opponent)
    assert not any(x.steps[0].kind == "increase" for x in turns(literal, t, 0))   # (0 created it)
    for_owner = replace(t, hands=(frozenset(), cards("2H KC"), frozenset()))
    assert not any(x.steps[0].kind == "increase" for x in turns(THREE, for_owner, 1))
    mine = [x for x in turns(literal, for_owner, 1) if x.steps[0].kind == "increase"]
    assert [b.creator for x in mine for b in x.table.builds] == [0]     # (the creator is kept)
    t3 = replace(t, hands=(frozenset(), frozenset(), cards("2H KC")))
    assert any(x.steps[0].kind == "increase" for x in turns(literal, t3, 2))
    made = turns(literal, table("7H 2C", loose="3S 4S"), 0)
    assert {b.creator for x in made for b in x.table.builds} == {0}     # (creates record the maker)
    assert {b.creator for x in turns(THREE, table("7H 2C", loose="3S 4S"), 0)
            for b in x.table.builds} == {-1}                            # (default: not recorded)


def test_table_only_creates_are_free_and_the_order_of_free_steps_is_one_turn():
    # two free builds from the table (7 and 10), then a trail: the two orders reach one table
    t = table("7H 10C 2D", loose="3S 4S 6H 4H")
    found = [turn for turn in turns(THREE, t, 0)
             if [s.kind for s in turn.steps] == ["create", "create", "trail"]]
    ends = [turn.table.key() for turn in turns(THREE, t, 0)]
    assert len(ends) == len(set(ends))
    assert any({b.value for b in turn.table.builds} == {7, 10} for turn in found)


def test_aces_are_one_or_fourteen():
    # the Ace takes a loose Ace, or 10 + 4 as fourteen
    got = listed(THREE, table("AH 5C", loose="AS 10D 4C"))
    assert "capture AH takes AS" in got
    assert any(x.startswith("capture AH takes 4C 10D") for x in got)


def test_two_player_no_trail_owning_a_build_and_one_build_at_most():
    t = table("9H 2C 8S", builds=(build("4S 5S", 9, 0),), piles=("", ""))
    got = listed(TWO, t)
    assert not any(x.startswith("trail") for x in got)
    assert listed(THREE, table("9H 2C 8S", builds=(build("4S 5S", 9, 0),)))[-1].startswith("trail")
    # a second own build (8 of 6D 2D) is never left at the end of a two-player turn
    t = table("9H 8S", loose="6D 2D", builds=(build("4S 5S", 9, 0),), piles=("", ""))
    assert all(sum(b.owner == 0 for b in turn.table.builds) <= 1 for turn in turns(TWO, t, 0))


def test_pile_order_full_lists_every_order_second_only_the_second_card():
    t = table("9H", loose="2S 7S 4C 5C")
    full = [x for x in turns(THREE, t, 0) if x.steps[-1].kind == "capture"
            and len(x.steps[-1].loose) == 4]
    second = [x for x in turns(CompoundRules(players=3, pile_order="second"), t, 0)
              if x.steps[-1].kind == "capture" and len(x.steps[-1].loose) == 4]
    assert len(full) == 24 and len(second) == 4
    assert {x.table.piles[0][-2] for x in second} == cards("2S 7S 4C 5C")
    assert all(x.table.piles[0][-1] == parse_card("9H") for x in full + second)


_DECK = list(range(52))


@settings(max_examples=40, deadline=None)
@given(st.permutations(_DECK), st.integers(1, 3), st.integers(0, 4), st.integers(0, 2),
       st.booleans())
def test_every_turn_conserves_cards_keeps_the_invariants_and_ends_apart(
        deck: list[int], nhand: int, nloose: int, ndeep: int, two: bool):
    r = TWO if two else THREE
    seats = 2 if two else 3
    t = dealt(deck, nhand, nloose, ndeep, seats)
    got: list[Turn] = turns(r, t, 0)
    assert got, "a hand card can always be played (trail or other)"
    assert len({turn.table.key() for turn in got}) == len(got)
    for turn in got:
        assert every_card(turn.table) == every_card(t)
        assert sum(s.card is not None for s in turn.steps) == 1
        assert len(turn.table.hands[0]) == nhand - 1
        held = {v for x in turn.table.hands[0] for v in r.vals(x)}
        own = [b for b in turn.table.builds if b.owner == 0]
        assert all(b.value in held for b in own)
        values = [b.value for b in turn.table.builds]
        assert len(values) == len(set(values))


@settings(max_examples=30, deadline=None)
@given(st.permutations(_DECK), st.integers(1, 4), st.integers(0, 5), st.integers(0, 2),
       st.booleans(), st.booleans())
def test_the_rules_named_for_a_turn_that_cannot_end_are_the_end_rules_checked(
        deck: list[int], nhand: int, nloose: int, ndeep: int, two: bool, theirs: bool):
    # why_not and why_stuck restate finished and dead in words: over every state of random
    # turns, a state that cannot end names a rule exactly when finished says it breaks one,
    # and a state dead for good names one (the fallback words are for neither)
    r = TWO if two else THREE
    t = dealt(deck, nhand, nloose, ndeep, 2 if two else 3)
    if theirs and len(t.loose) >= 2:       # (an opponent's simple build of two loose cards)
        a, b = sorted(t.loose)[:2]
        v = sum(min(x // 4 + 1, 14) for x in (a, b))
        if v <= 14:
            t = replace(t, loose=t.loose - {a, b}, builds=(Build(frozenset({a, b}), v, 1, False),))
    search = _Search(r, 0)
    seen: dict[tuple[object, ...], _State] = {}
    todo = [_State(t)]
    while todo and len(seen) < 300:
        s = todo.pop()
        if s.key() in seen:
            continue
        seen[s.key()] = s
        todo += [nxt for _, nxt in search.steps(s)]
    assert seen
    for s in seen.values():
        assert search.finished(s) == (search.why_not(s) == "an end-of-turn rule is broken"), s
        if search.dead(s):
            assert search.why_stuck(s) not in ("no legal turn continues it",
                                               "an end-of-turn rule is broken"), s


# -- partnerships (§3.24, AMB-64) ---------------------------------------------------------

FOUR = CompoundRules(players=4, teams=(0, 1, 0, 1))


def four(hands: tuple[str, str, str, str], loose: str = "", builds: tuple[Build, ...] = (),
         piles: tuple[str, str] = ("", ""), claims: frozenset[tuple[int, int]] = frozenset()) -> Table:
    return Table(tuple(cards(h) for h in hands), cards(loose), tuple(sorted(builds)),
                 tuple(tuple(parse_cards(p.split())) for p in piles), claims)


def test_a_partners_build_is_augmented_as_ones_own_by_a_player_who_can_take_it():
    t = four(("9H 2C", "", "9S", ""), loose="7C", builds=(build("4S 5S", 9, 2),))
    assert "augment 9 with 2C 7C" in [str(x) for x in turns(FOUR, t, 0)]
    # without a nine of his own he may not: he must be able to take what he adds to
    t = four(("8H 2C", "", "9S", ""), loose="7C", builds=(build("4S 5S", 9, 2),))
    assert not any(s.kind == "augment" for x in turns(FOUR, t, 0) for s in x.steps)


def test_only_the_opposing_teams_pile_top_is_material():
    t = four(("9H 4D", "", "", ""), builds=(build("4S 5S", 9, 0),), piles=("5C", "5H"))
    got = [str(x) for x in turns(FOUR, t, 0)]
    assert "augment 9 with 4D + pile 5H" in got
    assert not any("pile 5C" in x for x in got)


def test_an_increase_by_an_opponent_lets_the_partner_rebuild_the_old_value_for_him():
    # seat 1 increases seat 0's 9 to 11: seat 0 (team 0) may have it made again by seat 2
    t = four(("9H 9C", "2S JD", "", ""), builds=(build("4S 5S", 9, 0),))
    inc = next(x for x in turns(FOUR, t, 1) if x.steps[0].kind == "increase")
    assert (0, 9) in inc.table.claims
    # seat 2 holds no nine, but seat 0 does: seat 2 makes 9 of 6D 3D for him
    t2 = four(("9H 9C", "", "6D 8H", ""), loose="3D", claims=frozenset({(0, 9)}))
    got = {str(x): x for x in turns(FOUR, t2, 2)}
    made = got["build 9 of 6D 3D for seat 0"]
    (b,) = made.table.builds
    assert b.owner == 0 and b.value == 9 and made.table.claims == frozenset()
    # a build of 9 for himself would break the holding invariant; without the claim, none
    assert "build 9 of 6D 3D" not in got
    assert "build 9 of 6D 3D for seat 0" not in [str(x) for x in turns(FOUR, replace_claims(t2), 2)]
    # once seat 0 has played his nines, nobody may build for him
    gone = four(("2H 3C", "", "6D 8H", ""), loose="3D", claims=frozenset({(0, 9)}))
    assert not any("9 of 6D 3D" in str(x) for x in turns(FOUR, gone, 2))
    # the option: the maker owns it, so he must hold a nine himself
    maker = CompoundRules(players=4, teams=(0, 1, 0, 1), partner_claims="maker_owns")
    assert not any("9 of 6D 3D" in str(x) for x in turns(maker, t2, 2))


def replace_claims(t: Table) -> Table:
    return Table(t.hands, t.loose, t.builds, t.piles)


# -- the Italian house variant (§3.25, AMB-65, AMB-69, AMB-70) ------------------------------

def italian(codes: str) -> frozenset[int]:
    return frozenset(parse_cards(codes.split(), deck="italian40"))


def test_italian_aces_are_one_or_eleven_and_a_card_that_captures_is_never_trailed():
    from cassino.reference.compound import ITALIAN

    t = Table((italian("AD 4C"), frozenset()), italian("6S 5B 3D"), (), ((), ()))
    got = [str(x) for x in turns(ITALIAN, t, 0)]
    assert any(x.startswith("capture AD takes 5B 6S") for x in got)       # 11 = 5 + 6
    assert "trail AD" not in got and "trail 4C" in got                     # (4C takes nothing)
    anyway = CompoundRules(players=2, max_value=11, values=ITALIAN.values, trail="any")
    assert "trail AD" in [str(x) for x in turns(anyway, t, 0)]


def test_italian_a_single_loose_card_is_augmented_into_a_build():
    from cassino.reference.compound import ITALIAN

    t = Table((italian("7D 3C KS"), frozenset()), italian("7S 4B"), (), ((), ()))
    found = [x for x in turns(ITALIAN, t, 0) if str(x) == "augment 7 with 3C 7S 4B"]
    assert found
    (b,) = found[0].table.builds
    assert b.frozen and b.owner == 0 and b.cards == italian("7S 3C 4B")


def test_italian_a_partners_simple_build_may_be_increased():
    from dataclasses import replace

    from cassino.reference.compound import ITALIAN

    r4 = replace(ITALIAN, players=4, teams=(0, 1, 0, 1))
    six = Build(italian("2D 4D"), 6, 2, False)
    t = Table((italian("2C JB"), frozenset(), italian("6S"), frozenset()), frozenset(), (six,),
              ((), ()))
    assert any(s.kind == "increase" for x in turns(r4, t, 0) for s in x.steps)
    assert not any(s.kind == "increase" for x in turns(replace(r4, increase_partner=False), t, 0)
                   for s in x.steps)


# -- the options of AMB-59, AMB-61 and AMB-66 ----------------------------------------------

def test_one_pile_card_a_turn_and_one_free_step_a_turn():
    t = table("8H 4C", builds=(build("6S 2S", 8, 0),), piles=("", "5D 3D", ""))
    assert "augment 8 with pile 3D 5D; trail 4C" in listed(THREE, t)
    one = CompoundRules(players=3, pile_cards_per_turn=1)
    assert not any("pile 3D 5D" in x for x in listed(one, t))
    t = table("7H 10C 2D", loose="3S 4S 6H 4H")
    single = CompoundRules(players=3, free_steps_per_turn=1)
    assert all(sum(s.card is None for s in x.steps) <= 1 for x in turns(single, t, 0))
    assert any(sum(s.card is None for s in x.steps) == 2 for x in turns(THREE, t, 0))


def test_a_table_only_create_may_replace_the_hand_card():
    t = table("7H 2D", loose="3S 4S")
    assert "build 7 of 3S 4S" not in listed(THREE, t)
    alone = CompoundRules(players=3, table_create_replaces_card=True)
    only = [x for x in turns(alone, t, 0) if str(x) == "build 7 of 3S 4S"]
    assert only and only[0].table.hands[0] == cards("7H 2D")
    # an augment of the table alone is no create: it replaces no hand card
    t = table("9H 2D", loose="3S 6S", builds=(build("4S 5S", 9, 0),))
    assert not any(all(s.card is None for s in x.steps) for x in turns(alone, t, 0))


# -- the step interface ---------------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(st.permutations(_DECK), st.integers(1, 3), st.integers(0, 3), st.integers(0, 2))
def test_steps_have_no_dead_ends_and_reach_exactly_the_turns(deck, nhand, nloose, ndeep):
    # (every path of steps is walked: the pile order by its second card keeps that small)
    from cassino.reference.compound import TurnBuilder

    r = CompoundRules(players=3, pile_order="second")
    t = dealt(deck, nhand, nloose, ndeep)
    b = TurnBuilder(r, t, 0)
    ends: set[tuple[object, ...]] = set()

    def explore(depth: int) -> None:
        if b.can_end():
            ends.add(b.end_turn().table.key())
        steps = b.legal_steps()
        assert steps or b.can_end(), "a dead end: no step and no legal turn"
        for step in steps:
            b.push_step(step)
            explore(depth + 1)
            assert b.pop_step() == step

    explore(0)
    assert ends == {x.table.key() for x in turns(r, t, 0)}


@settings(max_examples=30, deadline=None)
@given(st.permutations(_DECK), st.integers(1, 3), st.integers(0, 5), st.integers(0, 2),
       st.sampled_from(["full", "second"]))
def test_counting_turns_by_the_orders_matches_the_listing(deck, nhand, nloose, ndeep, order):
    from cassino.reference.compound import count_turns

    r = CompoundRules(players=3, pile_order=order)
    t = dealt(deck, nhand, nloose, ndeep)
    assert count_turns(r, t, 0) == len(turns(r, t, 0))


def test_a_capture_of_many_cards_is_counted_without_listing_its_orders():
    from cassino.reference.compound import count_turns

    # a 10 taking six loose cards (2+8, 3+7, 4+6): 720 orders of the six, and the smaller
    # captures' orders: 3 x 2! + 3 x 4! + 6! = 798, and the trail
    t = table("10H", loose="2S 8S 3S 7S 4S 6S")
    assert count_turns(THREE, t, 0) == 3 * 2 + 3 * 24 + 720 + 1 == 799
    # by the second card only: 3 x 2 + 3 x 4 + 6, and the trail
    assert count_turns(CompoundRules(players=3, pile_order="second"), t, 0) == 25


# -- notation -------------------------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(st.permutations(_DECK), st.integers(1, 3), st.integers(0, 4), st.integers(0, 2))
def test_every_turn_reads_back_from_its_notation(deck, nhand, nloose, ndeep):
    from cassino.reference.compound import parse_turn

    r = CompoundRules(players=3, pile_order="second")
    t = dealt(deck, nhand, nloose, ndeep)
    listed = turns(r, t, 0)
    assert len({x.notation() for x in listed}) == len(listed)
    for x in listed:
        assert parse_turn(r, t, 0, x.notation().lower()).table.key() == x.table.key()


def test_the_notation_of_a_compound_turn():
    from cassino.reference.compound import parse_turn

    t = table("9C 2S", loose="5H", builds=(build("6S 3S", 9, 1),), piles=("", "", "4D"))
    turn = parse_turn(THREE, t, 0, "+3S,6S,5H,4D=9; 9Cx3S,6S,5H,4D|3S,4D,5H,6S")
    assert turn.captured and turn.table.piles[0] == tuple(parse_cards("3S 4D 5H 6S 9C".split()))
    assert turn.notation() == "+3S,4D,5H,6S=9; 9Cx3S,4D,5H,6S|3S,4D,5H,6S"
    t2 = four(("9H 9C", "", "6D 8H", ""), loose="3D", claims=frozenset({(0, 9)}))
    assert parse_turn(FOUR, t2, 2, "6D+3D=9@0").table.builds[0].owner == 0
    italian_t = Table((italian("7D 3C KS"), frozenset()), italian("7S 4B"), (), ((), ()))
    from cassino.reference.compound import ITALIAN
    assert str(parse_turn(ITALIAN, italian_t, 0, "3c+7s,4b=7", deck="italian40")) == (
        "augment 7 with 3C 7S 4B")


@pytest.mark.parametrize(("text", "error", "message"), [
    ("", NotationError, r"step 1 is empty"),
    ("+3S,6S,5H,4D=9;", NotationError, r"step 2 is empty"),
    ("9Cx3S,ZZ", NotationError, r"step 1: unknown card code 'ZZ'"),
    ("9Cx5H", IllegalMoveError, r"step 1 \(9Cx5H\) is not a step of a legal turn here"),
    ("+3S,6S,5H,4D=9", IllegalMoveError, r"not finished: a hand card must be played"),
    ("+3S,6S,5H,4D=9; 2S", IllegalMoveError,
     r"step 2 \(2S\) is not a step of a legal turn here after \+3S,4D,5H,6S=9"),
])
def test_bad_turns_are_refused_by_name(text, error, message):
    from cassino.reference.compound import parse_turn

    t = table("9C 2S", loose="5H", builds=(build("6S 3S", 9, 1),), piles=("", "", "4D"))
    with pytest.raises(error, match=message):
        parse_turn(THREE, t, 0, text)


@pytest.mark.parametrize(("r", "t", "text", "message"), [
    (THREE, table("9C 2S", loose="5H 4D"), "KSx5H", r"step 1 \(KSx5H\) .*: KS is not in the hand"),
    (THREE, table("9C 2S", loose="5H 4D"), "9Cx5H,4D,3S", r": 3S is not on the table"),
    (THREE, table("9C 2S", loose="5H 4D"), "2S; 9Cx5H,4D",
     r"step 2 .*: a hand card was already played this turn"),
    # (a build of 9 made, then the only 9 trailed: the holding rule)
    (THREE, table("9C 2S", loose="5H 4D"), "+5H,4D=9; 9C",
     r"step 2 \(9C\) .* after \+4D,5H=9: the holding rule: the mover must keep a card"),
    (TWO, table("9C 2S", loose="5H 4D", piles=("", "")), "+5H,4D=9; 2S",
     r"step 2 .*: two-player rule: no trail while owning a build"),
    (TWO, table("9C JC 2S", loose="5H 4D 3S 8H", piles=("", "")), "+5H,4D=9; +3S,8H=11; 2S",
     r"step 3 .*: two-player rule: a player may own one build at most"),
    (THREE, table("9C 2S", loose="5H 4D"), "+5H,4D=9",
     r"is not finished: a hand card must be played"),
])
def test_an_illegal_step_names_the_card_or_the_rule(r, t, text, message):
    from cassino.reference.compound import parse_turn

    with pytest.raises(IllegalMoveError, match=message):
        parse_turn(r, t, 0, text)


# -- whole hands of random turns ------------------------------------------------------------

def random_hand(r: CompoundRules, deck: list[int], seats: int, deals: list[int], seed: int) -> int:
    """Deal 4 to the table, then ``deals`` (cards each, a deal when the hands run out) and
    play random turns to the end; every position has a turn, every turn keeps every card
    and the invariants. Returns the turns played."""
    import random

    rng = random.Random(seed)
    cards_ = list(deck)
    rng.shuffle(cards_)
    teams = r.teams or tuple(range(seats))
    t = Table(tuple(frozenset() for _ in range(seats)), frozenset(cards_[:4]), (),
              tuple(() for _ in range(max(teams) + 1)))
    stock = cards_[4:]
    everything = Counter(cards_)
    played, mover = 0, 0
    for n in deals:
        dealt = tuple(frozenset(stock[i * n:(i + 1) * n]) for i in range(seats))
        stock = stock[seats * n:]
        t = Table(dealt, t.loose, t.builds, t.piles, t.claims)
        while any(t.hands):
            if t.hands[mover]:
                options = turns(r, t, mover)
                assert options, f"seat {mover} has no turn at {t}"
                t = rng.choice(options).table
                played += 1
                assert every_card(t) + Counter(stock) == everything
                held = {v for x in t.hands[mover] for v in r.vals(x)}
                assert all(b.value in held for b in t.builds if b.owner == mover)
            mover = (mover + 1) % seats
    assert not stock
    return played


def test_random_hands_of_each_system_always_have_a_turn_and_keep_every_card():
    from dataclasses import replace

    from cassino.cards import ITALIAN_FIRST
    from cassino.reference.compound import ITALIAN

    second = "second"   # (the pile order by its second card: fewer turns to list)
    standard = list(range(52))
    italian_deck = list(range(ITALIAN_FIRST, ITALIAN_FIRST + 40))
    assert random_hand(CompoundRules(players=3, pile_order=second), standard, 3, [16], 1) == 48
    assert random_hand(replace(TWO, pile_order=second), standard, 2, [12, 12], 2) == 48
    assert random_hand(replace(FOUR, pile_order=second), standard, 4, [12], 3) == 48
    assert random_hand(replace(ITALIAN, pile_order=second), italian_deck, 2, [18], 4) == 36
    four_it = replace(ITALIAN, players=4, teams=(0, 1, 0, 1), pile_order=second)
    assert random_hand(four_it, italian_deck, 4, [9], 5) == 36


@pytest.mark.parametrize("system", ["three", "two", "four", "italian", "italian_four"])
def test_the_pruned_search_lists_the_same_turns_as_the_full_one(system: str):
    """turns() skips states no legal turn continues (_Search.dead); over random hands, at
    every position of up to 5 loose cards, it lists exactly the turns of the search
    without that pruning, in the same order, with the same least step sequences."""
    import random
    from dataclasses import replace

    from cassino.cards import ITALIAN_FIRST
    from cassino.reference.compound import ITALIAN

    r, seats, deals = {
        "three": (CompoundRules(players=3, pile_order="second"), 3, [8, 8]),
        "two": (replace(TWO, pile_order="second"), 2, [12, 12]),
        "four": (replace(FOUR, pile_order="second"), 4, [6, 6]),
        "italian": (replace(ITALIAN, pile_order="second"), 2, [9, 9]),
        "italian_four": (replace(ITALIAN, players=4, teams=(0, 1, 0, 1), pile_order="second"),
                         4, [5, 4]),
    }[system]
    deck = list(range(ITALIAN_FIRST, ITALIAN_FIRST + 40)) if "italian" in system else list(range(52))
    compared = 0
    for seed in range(3):
        rng = random.Random(seed)
        rng.shuffle(deck)
        teams = r.teams or tuple(range(seats))
        t = Table(tuple(frozenset() for _ in range(seats)), frozenset(deck[:4]), (),
                  tuple(() for _ in range(max(teams) + 1)))
        stock, mover = deck[4:], 0
        for n in deals:
            t = replace(t, hands=tuple(frozenset(stock[i * n:(i + 1) * n]) for i in range(seats)))
            stock = stock[seats * n:]
            while any(t.hands):
                if t.hands[mover]:
                    got = turns(r, t, mover)
                    if len(t.loose) <= 5:
                        full = turns(r, t, mover, prune=False)
                        assert [x.steps for x in got] == [x.steps for x in full], t
                        assert [x.table for x in got] == [x.table for x in full]
                        compared += 1
                    t = rng.choice(got).table
                mover = (mover + 1) % seats
    assert compared >= 20


# -- scoring (AMB-63, AMB-71) ---------------------------------------------------------------

def test_the_african_tally_order_and_its_ties():
    from cassino.reference.compound import hand_tally

    a = tuple(parse_cards("2S 10S AS AC 3C 5H".split()))
    b = tuple(parse_cards("AH AD 4S 5S 6D 7D".split()))
    got = hand_tally((a, b))
    assert got[0] == ("most_cards", (0, 1), 1)          # 6 cards each: each tying player 1
    assert got[1] == ("most_spades", (0,), 2)          # AS 2S 10S against 4S 5S
    assert [name for name, _, _ in got[2:]] == ["spy_two", "big_ten", "ace_0", "ace_1",
                                                 "ace_2", "ace_3"]
    # the aces' strict order: spades, clubs, hearts, diamonds
    assert [teams for _, teams, _ in got[4:]] == [(0,), (0,), (1,), (1,)]


def test_the_italian_tally_counts_coins_and_its_own_cards():
    from cassino.reference.compound import hand_tally

    a = tuple(parse_cards("2D 7S AD AS KD".split(), deck="italian40"))
    b = tuple(parse_cards("AC AB 3C 4C 5D".split(), deck="italian40"))
    got = hand_tally((a, b), italian=True)
    assert got[:2] == [("most_cards", (0, 1), 1), ("most_coins", (0,), 2)]
    assert [(n, t, p) for n, t, p in got[2:4]] == [("two_of_coins", (0,), 1),
                                                   ("seven_of_swords", (0,), 2)]
    assert [teams for _, teams, _ in got[4:]] == [(0,), (0,), (1,), (1,)]   # D S C B
    assert sum(p * len(t) for _, t, p in got) == 11


def test_first_to_eleven_in_the_strict_order_and_the_simultaneous_eleven():
    from cassino.reference.compound import tally_to_target

    # seat 1 reaches 11 first (most cards), though seat 0 ends the hand higher
    tally = [("most_cards", (1,), 2), ("most_spades", (0,), 2), ("big_ten", (0,), 2)]
    assert tally_to_target((9, 9), tally) == ((13, 11), 1)
    # a split tie brings both to 11 at once: the higher total after the hand wins
    tie = [("most_cards", (0, 1), 1), ("big_ten", (1,), 2)]
    assert tally_to_target((10, 10), tie) == ((11, 13), 1)
    # ... and equal totals play another hand
    assert tally_to_target((10, 10), [("most_cards", (0, 1), 1)]) == ((11, 11), None)
    assert tally_to_target((0, 0), tally) == ((4, 2), None)
