"""Trailing-royals Cassino (docs/rules.md §3.11, AMB-33) and the option module
``opt_face_cards_all_four`` (§3.37), rule by rule.

A face card takes any number of loose cards of its rank, and it may be laid on loose cards of
its rank to make a natural build of the rank (J 11, Q 12, K 13), written ``QH+QS=12``, which is
a multiple build: it can be added to (``QD+QH,QS=12``) and taken whole by a card of its rank,
never increased. Each test pins one rule so that it fails if the rule breaks; they run on the
selected implementation and on the reference.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from click.testing import CliRunner

import cassino
from cassino import Move, MoveKind, Position, RulesError, _reference, rules
from cassino.cards import parse_card
from cassino.cli import cli
from cassino.errors import IllegalMoveError, PositionError
from cassino.rules import OPTION_MODULES
from conftest import build, make_position, position_dict

IMPLS = [cassino.State, _reference.State]
IMPL_IDS = ["selected", "reference"]


def mask(codes: str) -> int:
    return sum(1 << parse_card(c) for c in codes.split())


def of_card(state: Any, card: str) -> set[str]:
    c = parse_card(card)
    return {str(m) for m in state.legal_moves() if m.card == c}


def canon(text: str) -> str:
    return str(Move.parse(text))


def tr(hands: list[str], table: Any, system: str = "cassino_trailing_royals", **kw: Any) -> Position:
    return make_position(hands, table, system=system, **kw)


# -- registry and options ---------------------------------------------------------------------
def test_preset_and_module_are_registered():
    assert "cassino_trailing_royals" in cassino.implemented_systems()
    r = rules("cassino_trailing_royals")
    assert (r.face_cards_all_four, r.face_capture, r.players, r.sweeps, r.target) == (True, "any", 2, False, 21)
    assert OPTION_MODULES["opt_face_cards_all_four"] == ("face_cards_all_four=true", True)
    # the module on another system takes every face card of a rank: face_capture follows
    assert rules("cassino_standard", face_cards_all_four=True).face_capture == "any"
    assert rules("cassino_trailing_royals", sweeps=True).sweeps  # allowed, if discouraged


@pytest.mark.parametrize(
    ("system", "options", "message"),
    [
        ("cassino_trailing_royals", {"face_cards_all_four": False}, r"needs face_cards_all_four=true"),
        ("cassino_standard", {"face_cards_all_four": True, "face_capture": "one"}, r"needs face_capture=any"),
        ("cassino_royal", {"face_cards_all_four": True}, r"card_values=standard"),
        ("tablanette", {"face_cards_all_four": True}, r"needs building"),
    ],
)
def test_impossible_options_are_rejected(system, options, message):
    with pytest.raises(RulesError, match=message):
        rules(system, **options)


# -- captures of any number -------------------------------------------------------------------
@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_a_face_card_takes_any_number_of_its_rank(impl):
    s = impl.from_position(tr(["QD 5S", "KH 2C"], "QS QH QC JS"))
    caps = {m for m in of_card(s, "QD") if "x" in m}
    assert caps == {canon(x) for x in (
        "QDxQS", "QDxQH", "QDxQC", "QDxQS,QH", "QDxQS,QC", "QDxQH,QC", "QDxQS,QH,QC")}
    # standard Cassino's one-or-three rule would allow only single queens or all three
    std = impl.from_position(tr(["QD 5S", "KH 2C"], "QS QH QC JS", system="cassino_standard"))
    assert canon("QDxQS,QH") not in of_card(std, "QD")


# -- natural face builds --------------------------------------------------------------------------
@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_laying_a_queen_on_a_queen_builds_queens_with_another_queen_kept(impl):
    s = impl.from_position(tr(["QD QC 5S", "KH 2C 3C"], "QS QH JS"))
    builds = {m for m in of_card(s, "QD") if "=" in m}
    assert builds == {canon("QD+QS=12"), canon("QD+QH=12"), canon("QD+QS,QH=12")}
    m = s.push("QD+QS=12")
    assert m.kind == MoveKind.BUILD and m.value == 12
    (b,) = s.to_position().builds
    assert (b.value, b.cards, b.owners, b.multiple) == (12, mask("QD QS"), 1, True)
    assert b.groups() == [1 << parse_card("QS"), 1 << parse_card("QD")]
    assert "(QS|QD=12@0)" in s.to_position().to_text()
    # without another queen in hand: no face build (the holding requirement)
    t = impl.from_position(tr(["QD 5S", "KH 2C"], "QS QH JS"))
    assert not {m for m in of_card(t, "QD") if "=" in m}
    assert "needs a 12 in your hand" in t.explain(Move.parse("QD+QS=12"))


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_a_face_build_is_taken_whole_by_its_rank_and_never_increased(impl):
    table = ["QH JS 3D", build("QS|QC", 12, 1)]
    s = impl.from_position(tr(["QD KS 5S", "KH 2C 3C"], table))
    moves = of_card(s, "QD")
    # taken whole, with or without the loose queen
    assert {canon("QDxQS,QC"), canon("QDxQS,QH,QC"), canon("QDxQH")} <= moves
    assert {m for m in moves if "=" in m} == set()  # no queen kept: no build, no augment
    # no other card touches it: a face card of another rank, or a number
    assert not any(m.takes & mask("QS QC") for m in s.legal_moves() if m.card != parse_card("QD"))
    assert "builds go up to 10" in s.explain(Move.parse("5S+QS,QC=17"))
    assert "a QD cannot take" not in (s.explain(Move.parse("QDxQS")) or "")
    assert "must be taken or added to as a whole" in s.explain(Move.parse("QDxQS"))


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_augmenting_a_face_build_makes_the_player_an_owner(impl):
    u = impl.from_position(tr(["QD QH 5S", "KH 2C 3C"], ["JS 4C", build("QS|QC", 12, 1)]))
    assert {m for m in of_card(u, "QD") if "=" in m} == {canon("QD+QS,QC=12")}
    m = u.push("QD+QS,QC=12")
    assert m.kind == MoveKind.AUGMENT
    (b,) = u.to_position().builds
    assert (b.cards, b.owners, b.multiple) == (mask("QS QC QD"), 0b11, True)
    u.pop()
    assert u.to_position().builds[0].owners == 0b10


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_builds_of_two_ranks_stand_side_by_side(impl):
    u = impl.from_position(tr(["QD QH 5S", "KH 2C 3C"], ["QC JS 4C", build("KS|KD", 13, 1)]))
    assert canon("QD+QC=12") in of_card(u, "QD")
    u.push("QD+QC=12")
    assert sorted(b.value for b in u.to_position().builds) == [12, 13]


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_the_owner_of_a_face_build_keeps_a_card_of_its_rank(impl):
    # seat 0 owns the build of kings and holds one king: obligation v1 forbids his trails,
    # and the holding invariant forbids building with the king
    s = impl.from_position(tr(["KD 5S 3C", "QH 2C 4H"], ["5H 8C", build("KS|KC", 13, 0)]))
    moves = {str(m) for m in s.legal_moves()}
    assert "5S" not in moves and "KD" not in moves
    assert canon("KDxKS,KC") in moves and canon("5Sx5H") in moves
    assert "forbids trailing" in s.explain(Move.parse("3C"))
    t = impl.from_position(tr(["KD 5S 3C", "QH 2C 4H"], ["5H 8C", build("KS|KC", 13, 0)],
                              options={"obligation": "none"}))
    assert "3C" in {str(m) for m in t.legal_moves()}


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_natural_build_combination_off_lays_a_face_card_on_one_card(impl):
    s = impl.from_position(tr(["QD QC 5S", "KH 2C 3C"], ["QS QH JS"],
                              options={"natural_build_combination": False}))
    assert {m for m in of_card(s, "QD") if "=" in m} == {canon("QD+QS=12"), canon("QD+QH=12")}
    assert "natural_build_combination=false" in s.explain(Move.parse("QD+QS,QH=12"))


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_capture_extent_maximal_counts_the_face_build(impl):
    s = impl.from_position(tr(["QD 5S", "KH 2C"], ["QH JS", build("QS|QC", 12, 1)],
                              options={"capture_extent": "maximal"}))
    assert {m for m in of_card(s, "QD") if "x" in m} == {canon("QDxQS,QH,QC")}


# -- orphans and the end of the hand ---------------------------------------------------------------
@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_orphans_and_face_builds_go_with_the_leftovers(impl):
    s = impl.from_position(tr(["5S", "2C"], ["JH", build("KS|KC", 13, 0)], last_capturer=1))
    s.push("5S")
    s.push("2C")
    pos = s.to_position()
    assert s.is_over and mask("JH KS KC 5S 2C") & ~sum(1 << c for c in pos.piles[1]) == 0


# -- positions ------------------------------------------------------------------------------------
def test_face_build_positions_round_trip_and_are_checked():
    p = tr(["QD 5S", "KH 2C"], ["QH JS", build("QS|QC", 12, [0, 1])])
    assert Position.from_text(p.to_text()) == p and Position.from_json(p.to_json()) == p
    data = position_dict(["QD 5S", "KH 2C"], ["QH JS", build("QS|QC", 12, 0)], system="cassino_standard")
    with pytest.raises(PositionError, match="face cards cannot be built"):
        Position.from_dict(data)
    for bad, message in (
        (build("QS|KC", 12, 0), "face cards cannot be built except alone"),
        (build("QS+QC", 12, 0), "face cards cannot be built except alone"),
        (build("QS|QC", 13, 0), "face cards cannot be built except alone"),
    ):
        data = position_dict(["QD 5S", "KH 2C"], ["QH JS", bad], system="cassino_trailing_royals")
        with pytest.raises(PositionError, match=message):
            Position.from_dict(data)


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_illegal_face_builds_leave_the_state_unchanged(impl):
    s = impl.from_position(tr(["QD QC 5S", "KH 2C 3C"], "QS QH JS"))
    before = s.to_position()
    with pytest.raises(IllegalMoveError, match="builds only cards of its rank"):
        s.push("QD+JS=12")
    with pytest.raises(IllegalMoveError, match="builds only cards of its rank"):
        s.push("QD+QS=11")
    assert s.to_position() == before


# -- the command line -------------------------------------------------------------------------------
def test_play_a_whole_game_with_piped_moves():
    r = CliRunner().invoke(cli, ["play", "--seed", "5", "--system", "cassino_trailing_royals"],
                           input="1\n" * 3000)
    out = r.stdout
    assert r.exit_code == 0, out[-1500:]
    assert re.search(r"(You win|Opponent wins) the game, \d+ to \d+\.\n$", out)


def test_simulate_checks_card_conservation():
    r = CliRunner().invoke(
        cli, ["simulate", "--system", "cassino_trailing_royals", "--games", "30", "--seed", "1",
              "--workers", "1", "--players", "greedy,random"]
    )
    assert r.exit_code == 0, r.output
    assert "game length" in r.output


def test_playouts_agree_with_the_reference_and_build_faces():
    r = rules("cassino_trailing_royals")
    faces = 0
    for seed in range(60):
        core = cassino.State.deal(r, seed % 2, seed)
        ref = _reference.State.from_position(core.to_position())
        assert core.playout(seed).totals() == ref.playout(seed).totals()
        assert core.to_position() == ref.to_position()
        faces += sum(1 for m in core.history if m.kind != MoveKind.CAPTURE and m.value > 10)
    assert faces > 0


def test_moves_command_reports_face_builds_as_multiple(tmp_path):
    f = tmp_path / "pos.json"
    f.write_text(tr(["QD QC 5S", "KH 2C 3C"], "QS QH JS").to_json())
    r = CliRunner().invoke(cli, ["moves", str(f)])
    assert r.exit_code == 0, r.output
    (line,) = [x for x in r.output.splitlines() if '"move": "QD+QS=12"' in x]
    assert '"kind": "build"' in line and '"value": 12' in line and '"multiple": true' in line


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_numbers_never_join_a_face_build(impl):
    # 5 + 7 = 12, and a queen is held: still no augment of the build of queens by numbers
    s = impl.from_position(tr(["5S QH 2H", "KH 2C 3C"], ["7D JS", build("QS|QC", 12, 1)]))
    assert not any(m.takes & mask("QS QC") for m in s.legal_moves() if m.card == parse_card("5S"))
    assert "builds go up to 10" in s.explain(Move.parse("5S+7D,QS,QC=12"))
    assert s.count_moves() == len(s.legal_moves())
