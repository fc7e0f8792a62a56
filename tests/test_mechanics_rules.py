"""Draw Cassino (docs/rules.md §3.5), Tablanette (§3.15, AMB-37) and the option modules
``opt_five_of_spades_sweep`` (§3.37, AMB-21) and ``opt_initial_pairs`` (§3.37, AMB-20),
rule by rule.

Each test pins one rule so that it fails if the rule breaks; they run on both the selected
implementation (the core, or the reference under ``CASSINO_PURE_PYTHON=1``) and the
reference.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from click.testing import CliRunner

import cassino
from cassino import Position, RulesError, _reference, rules
from cassino.cards import parse_card
from cassino.cli import cli
from cassino.errors import PositionError
from cassino.players import View
from cassino.scoring import score_hand, tally_winner
from conftest import build, make_position

IMPLS = [cassino.State, _reference.State]
IMPL_IDS = ["selected", "reference"]
SWEEP5 = {"sweeps": True, "five_of_spades_sweep": True}


def ids(codes: str) -> list[int]:
    return [parse_card(c) for c in codes.split()]


def mask(codes: str) -> int:
    return sum(1 << c for c in ids(codes))


def legal(state: Any) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def of_card(state: Any, card: str) -> set[str]:
    c = parse_card(card)
    return {str(m) for m in state.legal_moves() if m.card == c}


def canon(text: str) -> str:
    return str(cassino.Move.parse(text))


def deck_with(slots: dict[int, str]) -> list[int]:
    """A 52-card deck with the given cards at the given positions, the rest in id order."""
    fixed = {i: parse_card(c) for i, c in slots.items()}
    rest = iter(c for c in range(52) if c not in fixed.values())
    return [fixed[i] if i in fixed else next(rest) for i in range(52)]


# -- presets and bad options ----------------------------------------------------------------
def test_presets_are_registered():
    for sid in ("cassino_draw", "tablanette"):
        assert sid in cassino.implemented_systems()
    d = rules("cassino_draw")
    assert (d.draw_refill, d.players, d.hand_size, d.table_cards, d.deals_per_hand) == (True, 2, 4, 4, 1)
    assert d.deal_number(40) == 1 and d.stock_ok(37)  # one deal; any stock between turns
    t = rules("tablanette")
    assert (t.hand_size, t.table_cards, t.deals_per_hand, t.build_kinds) == (6, 4, 4, "none")
    assert (t.jacks_take_all, t.most_cards_points, t.picture_points, t.card_points) == (True, 3, 1, False)
    assert (t.target, t.end_check) == (21, "compare_totals")
    assert rules("tablanette", players=4).deals_per_hand == 2


@pytest.mark.parametrize(
    ("system", "options", "message"),
    [
        ("cassino_standard", {"draw_refill": True}, r"draw_refill .* is the rule of cassino_draw"),
        ("cassino_draw", {"draw_refill": False}, r"cassino_draw needs draw_refill=true"),
        ("cassino_draw", {"players": 3}, r"played by 2 players, not 3"),
        ("cassino_draw", {"last_hand_size": 6}, r"no later deals"),
        ("cassino_standard", {"five_of_spades_sweep": True}, r"needs sweeps=true"),
        ("cassino_standard", {"five_of_spades_builds": False}, r"only with five_of_spades_sweep"),
        ("cassino_standard", {"initial_pairs_triples": True}, r"only with initial_pairs=true"),
        ("tablanette", {"players": 3}, r"48 cards cannot be dealt in rounds of 6 to 3 players"),
        ("tablanette", {"players": 5}, r"played by 2 to 4 players, not 5"),
        ("tablanette", {"sweeps": True, "five_of_spades_sweep": True}, r"cannot be combined"),
        ("tablanette", {"picture_points": -1}, r"between 0 and 100"),
        ("cassino_standard", {"build_kinds": "esun"}, r"module opt_esun: esun=true"),
        ("cassino_standard", {"build_kinds": "zwickern_stack"}, r"Zwickern rule"),
    ],
)
def test_impossible_options_are_rejected(system, options, message):
    with pytest.raises(RulesError, match=message):
        rules(system, **options)


def test_option_modules_are_marked_implemented():
    from cassino.rules import OPTION_MODULES

    assert OPTION_MODULES["opt_five_of_spades_sweep"][1] and OPTION_MODULES["opt_initial_pairs"][1]


# -- §3.5 Draw Cassino ------------------------------------------------------------------------
def draw_position(**kw: Any) -> Position:
    kw.setdefault("system", "cassino_draw")
    return make_position(**kw)


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_draw_the_mover_draws_the_top_stock_card_and_pop_undoes_it(impl):
    p = draw_position(hands=["3H 2C KD QD", "7S 8S 9S 10S"], table=["6D"], stock="9C 4H 5H")
    s = impl.from_position(p)
    s.push("KD")
    after = s.to_position()
    assert after.hands[0] == mask("3H 2C QD 9C")  # back to four with the top card
    assert after.hands[1] == p.hands[1] and after.stock == tuple(ids("4H 5H"))
    assert after.to_move == 1 and not s.last_deal  # no further deal, no "Last"
    s.push("7S")
    assert s.to_position().hands[1] == mask("8S 9S 10S 4H")
    s.pop()
    s.pop()
    assert s.to_position() == p


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_draw_holding_requirement_is_checked_before_the_draw(impl):
    # the top stock card is a 9, but after playing 3H the hand holds no 9: no build of 9
    s = impl.from_position(draw_position(hands=["3H 2C KD QD", "7S 8S 4S 10S"], table=["6D"], stock="9C"))
    assert of_card(s, "3H") == {"3H"}
    assert legal(s) == {"3H", "2C", "KD", "QD"}
    # holding a 9 in hand, the build is legal
    s = impl.from_position(draw_position(hands=["3H 9D KD QD", "7S 8S 4S 10S"], table=["6D"], stock="9C"))
    assert of_card(s, "3H") == {"3H", canon("3H+6D=9")}


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_draw_play_goes_on_until_every_hand_is_empty(impl):
    # stock empty: no draw, no deal; the hand ends when the last card is played
    p = draw_position(hands=["4C", "5D 6D"], table=["AS"], to_move=1, last_capturer=0)
    s = impl.from_position(p)
    s.push("5D")
    assert s.to_position().hands == (mask("4C"), mask("6D")) and not s.is_over
    s.push("4C")
    s.push("6D")
    assert s.is_over and s.to_position().table_mask == 0


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_draw_a_whole_hand_is_one_deal_of_48_plays(impl):
    s = impl.deal(rules("cassino_draw"), 1, 5)
    sizes = []
    while not s.is_over:
        moves = s.legal_moves()
        stock = len(s.to_position().stock)
        seat = s.to_move
        s.push(moves[len(moves) // 2])
        pos = s.to_position()
        assert len(pos.stock) == max(stock - 1, 0)
        sizes.append(pos.hands[seat].bit_count())
        assert not s.last_deal
    assert s.ply == 48  # every card of the stock was drawn and played, no deal in between
    assert sizes[:40] == [4] * 40 and sizes[40:] == [3, 3, 2, 2, 1, 1, 0, 0]


def test_draw_view_hides_the_drawn_card_and_shows_the_stock_count():
    s = cassino.State.from_position(
        draw_position(hands=["3H 2C KD QD", "7S 8S 9S 10S"], table=["6D"], stock="9C 4H 5H")
    )
    s.push("KD")
    mine, theirs = View.of(s, 0), View.of(s, 1)
    c9 = parse_card("9C")
    assert c9 in mine.hand and c9 not in theirs.hand and theirs.unseen.mask >> c9 & 1
    assert mine.stock_size == theirs.stock_size == 2 and theirs.hand_sizes == (4, 4)
    assert not mine.last_deal


def test_draw_positions_may_hold_any_stock():
    p = draw_position(hands=["3H 2C KD QD", "7S 8S 9S"], table=["6D"], stock="9C 4H 5H")
    assert p.validate() is p
    with pytest.raises(PositionError, match="not a multiple of one deal"):
        make_position(hands=["3H 2C KD QD", "7S 8S 9S"], table=["6D"], stock="9C 4H 5H")


# -- §3.37 opt_five_of_spades_sweep, AMB-21 -------------------------------------------------
FIVE_TABLE = ["3D 7C", build("4S+5H", 9, 1)]


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_five_of_spades_trailed_takes_every_item_and_sweeps(impl):
    s = impl.from_position(make_position(["5S KD", "9C 2H"], FIVE_TABLE, options=SWEEP5))
    everything = canon("5Sx3D,7C,4S,5H")
    assert of_card(s, "5S") == {everything}  # the trail became the capture of the table
    s.push(everything)
    pos = s.to_position()
    assert pos.table_mask == 0 and pos.sweep_order == (0,) and pos.last_capturer == 0
    assert mask("5S 3D 7C 4S 5H") & ~sum(1 << c for c in pos.piles[0]) == 0


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_five_of_spades_without_builds_leaves_the_builds_and_is_no_sweep(impl):
    opts = {**SWEEP5, "five_of_spades_builds": False}
    s = impl.from_position(make_position(["5S KD", "9C 2H"], FIVE_TABLE, options=opts))
    assert of_card(s, "5S") == {canon("5Sx3D,7C")}
    s.push("5Sx3D,7C")
    pos = s.to_position()
    assert pos.loose == 0 and len(pos.builds) == 1 and pos.sweep_order == ()
    assert pos.last_capturer == 0
    # only builds on the table: nothing loose to take, so 5S trails
    s = impl.from_position(make_position(["5S KD", "9C 2H"], [build("4S+5H", 9, 1)], options=opts))
    assert of_card(s, "5S") == {"5S"}


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_five_of_spades_keeps_its_ordinary_captures_and_lists_a_duplicate_once(impl):
    s = impl.from_position(make_position(["5S KD", "9C 2H"], ["5D 2S 3C 9H"], options=SWEEP5))
    assert of_card(s, "5S") == {canon(x) for x in ("5Sx5D", "5Sx2S,3C", "5Sx2S,3C,5D", "5Sx2S,3C,5D,9H")}
    s = impl.from_position(make_position(["5S KD", "9C 2H"], ["5D 2S 3C"], options=SWEEP5))
    moves = [m for m in s.legal_moves() if m.card == parse_card("5S")]
    assert sorted(map(str, moves)) == sorted({canon("5Sx5D"), canon("5Sx2S,3C"), canon("5Sx2S,3C,5D")})


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_five_of_spades_on_an_empty_table_trails_and_the_option_off_trails(impl):
    s = impl.from_position(make_position(["5S KD", "9C 2H"], [], options=SWEEP5))
    assert of_card(s, "5S") == {"5S"}
    s = impl.from_position(make_position(["5S KD", "9C 2H"], FIVE_TABLE, options={"sweeps": True}))
    assert "5S" in of_card(s, "5S") and canon("5Sx3D,7C,4S,5H") not in of_card(s, "5S")


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_five_of_spades_counts_for_the_last_capture(impl):
    # the last card of the hand: 5S takes the table; leftovers rule has nothing left, and
    # the table trailed later goes to the 5S player
    p = make_position(["5S KD", "9C"], ["3D 7C"], options=SWEEP5, last_capturer=1)
    s = impl.from_position(p)
    s.push("5Sx3D,7C")
    s.push("9C")
    s.push("KD")
    pos = s.to_position()
    assert s.is_over and mask("9C KD") & ~sum(1 << c for c in pos.piles[0]) == 0


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_five_of_spades_capture_obeys_the_obligation(impl):
    # V3 with an own build: a capture must take it; with builds excluded 5S cannot play
    p = make_position(
        ["5S 9D KD", "9C 2H"], ["3D 7C", build("4S+5H", 9, 0)],
        options={**SWEEP5, "obligation": "v3", "five_of_spades_builds": False},
    )
    s = impl.from_position(p)
    assert of_card(s, "5S") == set()
    s = impl.from_position(make_position(
        ["5S 9D KD", "9C 2H"], ["3D 7C", build("4S+5H", 9, 0)], options={**SWEEP5, "obligation": "v3"}))
    assert of_card(s, "5S") == {canon("5Sx3D,7C,4S,5H")}


# Every system whose cards have other values takes the option too: Royal and Buckeye (aces
# 1 or 14: the multi-valued generator), Swedish Kassino, Finnish Kasino (hand values), and
# Mulle, where both copies of 5S sweep. An ace loose on the table puts the Royal-valued
# systems on their multi-valued path.
VALUED_SWEEPS = [
    ("cassino_royal", ["5S AS 9C 4D", "KD KH 8H 3S"], ["AH 3C 2D 5D", build("4C+AC", 5, 1)],
     "5SxAH,AC,2D,3C,4C,5D"),
    ("cassino_buckeye", ["5S AS 9C 4D", "KD KH 8H 3S"], ["AH 3C 2D 5D", build("4C+AC", 5, 1)],
     "5SxAH,AC,2D,3C,4C,5D"),
    ("swedish_kassino", ["5S 9C 4D", "KD KH 8H"], ["AH 3C 2D"], "5SxAH,2D,3C"),
    ("finnish_kasino", ["5S 9C 4D", "KD KH 8H"], ["4H 3C 2D"], "5Sx2D,3C,4H"),
    ("mulle", ["5S' 9C 4D", "KD KH 8H"], ["AH 3C 2D 5S"], "5S'xAH,2D,3C,5S"),
]


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
@pytest.mark.parametrize(("system", "hands", "table", "sweep"), VALUED_SWEEPS,
                         ids=[v[0] for v in VALUED_SWEEPS])
def test_five_of_spades_sweeps_under_every_card_valuation(impl, system, hands, table, sweep):
    s = impl.from_position(make_position(hands, table, options=SWEEP5, system=system))
    five = hands[0].split()[0]
    moves = of_card(s, five)
    assert canon(sweep) in moves and five not in moves   # the capture-all, no trail
    assert s.count_moves() == len(s.legal_moves())
    off = impl.from_position(make_position(hands, table, options={"sweeps": True}, system=system))
    assert five in of_card(off, five) and canon(sweep) not in of_card(off, five)
    s.push(sweep)
    pos = s.to_position()
    # (a Finnish Mokki never scores in the last deal, docs/rules.md §3.21: the stock is empty)
    swept = () if system == "finnish_kasino" else (0,)
    assert pos.table_mask == 0 and pos.sweep_order == swept and pos.last_capturer == 0


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_five_of_spades_with_royal_values_leaves_builds_and_obeys_maximal(impl):
    hands, table = ["5S AS 9C 4D", "KD KH 8H 3S"], ["AH 3C 2D 5D", build("4C+AC", 5, 1)]
    opts = {**SWEEP5, "five_of_spades_builds": False}
    s = impl.from_position(make_position(hands, table, options=opts, system="cassino_royal"))
    assert canon("5SxAH,2D,3C,5D") in of_card(s, "5S") and "5S" not in of_card(s, "5S")
    # maximal: the build of 5 with the loose cards (5 cards) beats the capture-all (4)
    s = impl.from_position(make_position(
        hands, table, options={**opts, "capture_extent": "maximal"}, system="cassino_royal"))
    assert of_card(s, "5S") == {canon("5SxAC,2D,3C,4C,5D"), canon("5S+AH,3C=9"),
                                canon("5S+AH,3C,5D=14"), canon("5S+AH,AC,3C,4C=14")}


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_jacks_take_all_with_face_builds_leave_the_jack_that_move_only(impl):
    # cassino_trailing_royals (face cards build naturally, §3.11): a Jack that takes the
    # whole table has no face-build moves and no trail; on an empty table it trails
    p = make_position(["JH 2D 7H", "3H 3C 7S"], ["AS 2H 3D QS QH"], system="cassino_trailing_royals",
                      options={"jacks_take_all": True})
    s = impl.from_position(p)
    assert of_card(s, "JH") == {canon("JHxAS,2H,3D,QS,QH")}
    assert s.count_moves() == len(s.legal_moves())
    s = impl.from_position(make_position(["JH 2D 7H", "3H 3C 7S"], [], system="cassino_trailing_royals",
                                         options={"jacks_take_all": True}))
    assert of_card(s, "JH") == {"JH"}


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
@pytest.mark.parametrize("system", ["cassino_royal", "finnish_kasino", "mulle"])
def test_jacks_take_all_under_other_card_valuations(impl, system):
    jack = "JS'" if system == "mulle" else "JS"
    s = impl.from_position(make_position(
        [f"{jack} 9C 4D", "KD KH 8H"], ["AH 3C 2D"], options={"jacks_take_all": True}, system=system))
    assert of_card(s, jack) == {canon(f"{jack}xAH,2D,3C")}   # the jack's only move


# -- §3.37 opt_initial_pairs, AMB-20 --------------------------------------------------------
# deal order (standard): opponent 2, table 2, dealer 2, twice: the table is deck[2, 3, 8, 9]
def layout(codes: str) -> dict[int, str]:
    return dict(zip((2, 3, 8, 9), codes.split(), strict=True))


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
@pytest.mark.parametrize(
    ("table", "granted", "kept", "triples"),
    [
        ("KS KH 7D 3C", "KS KH", "7D 3C", False),  # a face pair counts
        ("9S 9H 9D 9C", "9S 9H 9D 9C", "", False),  # four of a rank: two pairs
        ("QS QH QD 2C", "", "QS QH QD 2C", False),  # three of a rank: nothing
        ("QS QH QD 2C", "QS QH QD", "2C", True),  # option: all three
        ("5S 5H 8D 8C", "5S 5H 8D 8C", "", False),  # two pairs of two ranks
        ("AS 2H 3D 4C", "", "AS 2H 3D 4C", False),
    ],
)
def test_initial_pairs_go_to_the_leader_at_the_deal(impl, table, granted, kept, triples):
    r = rules("cassino_standard", initial_pairs=True, initial_pairs_triples=triples, sweeps=True)
    s = impl.new_hand(r, 1, deck_with(layout(table)))
    pos = s.to_position()
    assert pos.to_move == 0 and pos.loose == mask(kept)
    assert pos.piles == (tuple(ids(granted)) if granted else (), ())
    assert pos.last_capturer is None and s.ply == 0  # part of the deal: no move, no capture
    assert pos.sweep_order == ((0,) if granted and not kept else ())


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_initial_pairs_sweep_needs_sweeps_and_goes_to_the_leader_of_either_seat(impl):
    r = rules("cassino_standard", initial_pairs=True)
    pos = impl.new_hand(r, 0, deck_with(layout("9S 9H 9D 9C"))).to_position()
    assert pos.to_move == 1 and pos.piles == ((), tuple(ids("9S 9H 9D 9C"))) and pos.sweep_order == ()
    assert Position.from_json(pos.to_json()) == pos  # a sweep-free empty layout is valid
    r = rules("cassino_standard", initial_pairs=True, sweeps=True)
    pos = impl.new_hand(r, 0, deck_with(layout("9S 9H 9D 9C"))).to_position()
    assert pos.sweep_order == (1,) and Position.from_json(pos.to_json()) == pos
    assert score_hand(r, pos.piles, pos.sweep_order).categories(1)["sweeps"] == 1


def test_initial_pairs_off_grants_nothing():
    pos = cassino.State.new_hand(rules("cassino_standard"), 1, deck_with(layout("KS KH 7D 3C"))).to_position()
    assert pos.loose == mask("KS KH 7D 3C") and pos.piles == ((), ())


# -- §3.15 Tablanette, AMB-37 ---------------------------------------------------------------
def tab(hands: list[str], table: Any, **kw: Any) -> Position:
    return make_position(hands, table, system="tablanette", **kw)


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_tablanette_deal_six_each_then_four_to_the_table(impl):
    deck = list(range(52))
    s = impl.new_hand(rules("tablanette"), 1, deck)
    pos = s.to_position()
    # batches of two: opponent (seat 0), dealer (seat 1), three times; then the table
    assert pos.hands == (mask("AS AH 2S 2H 3S 3H"), mask("AD AC 2D 2C 3D 3C"))
    assert pos.loose == mask("4S 4H 4D 4C") and len(pos.stock) == 36
    while not s.is_over and len(s.to_position().stock) == 36:
        s.push(s.legal_moves()[0])
    assert [h.bit_count() for h in s.to_position().hands] == [6, 6]  # the second deal: six each


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_tablanette_has_no_building(impl):
    s = impl.from_position(tab(["3H 9S KD QD 4C 2C", "7S 8S 4S 10S"], ["6D"], stock=""))
    assert of_card(s, "3H") == {"3H"} and of_card(s, "2C") == {"2C"}


def test_tablanette_positions_hold_no_builds():
    with pytest.raises(PositionError, match=r"tablanette has no building"):
        tab(["9S QC", "7S 8S"], ["4D", build("5C+4H", 9, 1)])


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_tablanette_captures_by_rank_and_sums_faces_by_rank(impl):
    s = impl.from_position(tab(["9S QC", "7S 8S"], ["4D 5C 9H QS QH"]))
    assert of_card(s, "9S") == {"9S"} | {canon(x) for x in ("9Sx9H", "9Sx4D,5C", "9Sx4D,5C,9H")}
    assert of_card(s, "QC") == {"QC", "QCxQS", "QCxQH"}  # two queens on the table: one


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_tablanette_a_jack_takes_the_whole_table(impl):
    s = impl.from_position(tab(["JD 2C", "7S 8S"], ["3S QH KD JS"]))
    assert of_card(s, "JD") == {canon("JDx3S,JS,QH,KD")}  # no trail, no jack-for-jack
    s.push("JDx3S,JS,QH,KD")
    pos = s.to_position()
    assert pos.table_mask == 0 and pos.last_capturer == 0 and pos.sweep_order == ()
    s = impl.from_position(tab(["JD 2C", "7S 8S"], []))
    assert of_card(s, "JD") == {"JD"}  # an empty table: the Jack trails


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_tablanette_jacks_take_all_off_is_a_plain_rank_match(impl):
    s = impl.from_position(tab(["JD 2C", "7S 8S"], ["3S QH KD JS"], options={"jacks_take_all": False}))
    assert of_card(s, "JD") == {"JD", "JDxJS"}


def test_tablanette_scoring_most_cards_and_pictures():
    r = rules("tablanette")
    piles = (ids("JS QS KS 2H 3H 4H 10D AS"), ids("JH QD 5C 6C 2S"))
    hs = score_hand(r, piles, ())
    assert hs.events == (("cards", 0, 3), ("pictures", 0, 3), ("pictures", 1, 2))
    assert hs.totals() == [6, 2]  # no spades, 10D, 2S or aces in Tablanette
    tie = score_hand(r, (ids("JS 2H"), ids("3H 4H")), ())
    assert tie.totals() == [1, 0]  # most cards tied: nobody
    other = score_hand(rules("tablanette", most_cards_points=2, picture_points=2), piles, ())
    assert other.totals() == [2 + 6, 4]


def test_tablanette_game_to_21_compares_totals():
    r = rules("tablanette")
    hs = score_hand(r, (ids("JS QS KS 2H 3H"), ids("JH 5C")), ())  # 6 and 1
    assert tally_winner(r, [14, 19], hs) == ([20, 20], None)
    assert tally_winner(r, [16, 20], hs) == ([22, 21], 0)  # both past 21: the higher wins
    assert tally_winner(r, [15, 21], hs) == ([21, 22], 1)
    assert tally_winner(r, [15, 20], hs) == ([21, 21], None)  # equal: another hand


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_tablanette_leftovers_to_the_last_capturer(impl):
    s = impl.from_position(tab(["9C", "2D"], ["4S 5D 3C"], last_capturer=None))
    s.push("9Cx4S,5D")
    s.push("2D")
    pos = s.to_position()
    assert s.is_over and mask("3C 2D") & ~sum(1 << c for c in pos.piles[0]) == 0


# -- the command line -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("system", "rows"),
    [("tablanette", ("most cards", "J, Q, K taken")), ("cassino_draw", ("most cards", "big cassino 10♦"))],
)
def test_play_a_whole_game_with_piped_moves(system, rows):
    r = CliRunner().invoke(cli, ["play", "--seed", "3", "--system", system], input="1\n" * 3000)
    out = r.stdout
    assert r.exit_code == 0, out[-1500:]
    if system == "cassino_draw":  # one deal, refilled by draws: never a "Last" deal
        assert "deal 1 of 1 ·" in out and "(last)" not in out
    else:
        assert "deal 2 of 4 ·" in out and "deal 4 of 4 (last)" in out
    for row in rows:
        assert row in out
    if system == "tablanette":
        assert "ace of spades" not in out
    assert re.search(r"(You win|Opponent wins) the game, \d+ to \d+\.\n$", out)


@pytest.mark.parametrize(
    ("system", "options"),
    [("cassino_draw", []), ("tablanette", []), ("cassino_standard",
     ["--option", "sweeps=true", "--option", "five_of_spades_sweep=true", "--option", "initial_pairs=true"])],
)
def test_simulate_completes(system, options):
    r = CliRunner().invoke(
        cli, ["simulate", "--system", system, *options, "--games", "20", "--seed", "1", "--workers", "1"]
    )
    assert r.exit_code == 0, r.output
    assert "game length" in r.output
