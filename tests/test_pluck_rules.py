"""Pluck Cassino (docs/rules.md §3.8) and the option module ``opt_pluck`` (§3.37, AMB-25,
AMB-27), rule by rule.

A turn of a player who has not plucked in this deal has up to two plies: ``^7H`` plucks the
loose 7H before his card (then he must play a card), or after his card he chooses between a
pluck and ``pass``. Each test pins one rule so that it fails if the rule breaks; they run on
the selected implementation (the core, or the reference under ``CASSINO_PURE_PYTHON=1``) and
on the reference.
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
from cassino.errors import IllegalMoveError, NotationError, PositionError
from cassino.moves import NO_CARD
from cassino.players import View
from cassino.rules import OPTION_MODULES
from conftest import build, position_dict

IMPLS = [cassino.State, _reference.State]
IMPL_IDS = ["selected", "reference"]


def mask(codes: str) -> int:
    return sum(1 << parse_card(c) for c in codes.split())


def legal(state: Any) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def plucks(state: Any) -> set[str]:
    return {str(m) for m in state.legal_moves() if not m.plays_card}


def pluck_pos(hands: list[str], table: Any, *, phase: str = "start", plucked: list[int] = (),
              trailed: str | None = None, system: str = "cassino_pluck", **kw: Any) -> Position:
    data = position_dict(hands, table, system=system, **kw)
    if phase != "start":
        data["phase"] = phase
    if plucked:
        data["plucked"] = list(plucked)
    if trailed:
        data["trailed"] = trailed
    return Position.from_dict(data)


# -- registry, options, notation ----------------------------------------------------------------
def test_preset_and_module_are_registered():
    assert "cassino_pluck" in cassino.implemented_systems()
    r = rules("cassino_pluck")
    assert (r.pluck, r.pluck_in_last_deal, r.pluck_last_loose, r.players, r.target) == (True, True, False, 2, 21)
    assert OPTION_MODULES["opt_pluck"] == ("pluck=true", True)
    assert rules("cassino_standard", pluck=True).pluck


@pytest.mark.parametrize(
    ("system", "options", "message"),
    [
        ("cassino_pluck", {"pluck": False}, r"cassino_pluck needs pluck=true"),
        ("cassino_standard", {"pluck_in_last_deal": False}, r"only with pluck=true"),
        ("cassino_standard", {"pluck_last_loose": True}, r"only with pluck=true"),
        ("cassino_pluck", {"players": 3}, r"played by 2 players, not 3"),
    ],
)
def test_impossible_options_are_rejected(system, options, message):
    with pytest.raises(RulesError, match=message):
        rules(system, **options)


def test_pluck_and_pass_notation_round_trips():
    m = Move.parse("^7h")
    assert (m.card, m.kind, m.takes, m.value) == (NO_CARD, MoveKind.PLUCK, mask("7H"), 0)
    assert str(m) == "^7H" and Move.parse(str(m)) == m and not m.plays_card
    p = Move.parse(" Pass ")
    assert (p.card, p.kind, p.takes) == (NO_CARD, MoveKind.PASS, 0) and str(p) == "pass"
    assert Move.pluck(parse_card("7H")) == m and Move.pass_turn() == p
    assert sorted([p, m, Move.parse("2C"), Move.parse("KSxKD")])[-2:] == [m, p]  # they sort last


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Move(NO_CARD, MoveKind.CAPTURE, 1), r"card"),
        (lambda: Move(3, MoveKind.PLUCK, 1 << 5), r"NO_CARD"),
        (lambda: Move(NO_CARD, MoveKind.PLUCK, mask("7H 8H")), r"exactly one card"),
        (lambda: Move(NO_CARD, MoveKind.PLUCK, 0), r"exactly one card"),
        (lambda: Move(NO_CARD, MoveKind.PASS, 1), r"takes no cards"),
        (lambda: Move(NO_CARD, MoveKind.PLUCK, 1 << 9, 4), r"no value"),
        (lambda: Move.parse("^XX"), r"bad move"),
        (lambda: Move.parse("^"), r"bad move"),
    ],
)
def test_malformed_plucks_are_refused(make, message):
    with pytest.raises(cassino.CassinoError, match=message):
        make()


# -- before the play -----------------------------------------------------------------------------
@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_pluck_before_the_play_then_a_card_must_follow(impl):
    s = impl.from_position(pluck_pos(["9D 3S", "KH 5C"], "4C 5D 8D", last_capturer=1, stock="2H 3H 4H 6H 6C 7C 8C 9C"))
    assert plucks(s) == {"^4C", "^5D", "^8D"}  # no pass before a card is played
    before = s.to_position()
    s.push("^5D")
    pos = s.to_position()
    assert s.to_move == 0 and pos.phase == "plucked" and pos.plucked == 1
    assert pos.piles[0][-1] == parse_card("5D") and pos.last_capturer == 1  # not a capture
    assert legal(s) == {"9D", "3S"}  # one pluck; now a card (the 9D's capture went with 5D)
    s.push("9D")
    assert s.to_move == 1 and s.to_position().phase == "start"  # no pluck after: used
    s.pop()
    s.pop()
    assert s.to_position() == before


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_pluck_after_the_play_or_pass(impl):
    s = impl.from_position(pluck_pos(["9D 3S", "KH 5C"], "4C 5D 8D", stock="2H 3H 4H 6H 6C 7C 8C 9C"))
    s.push("3S")  # trails the 3S
    pos = s.to_position()
    assert s.to_move == 0 and pos.phase == "after" and pos.trailed == parse_card("3S")
    assert legal(s) == {"^4C", "^5D", "^8D", "pass"}  # never the card just trailed
    assert "just played" in s.explain(Move.parse("^3S"))
    assert "pluck a loose card or pass" in s.explain(Move.parse("9D"))
    s.push("pass")
    assert s.to_move == 1 and s.to_position().phase == "start" and s.to_position().plucked == 0
    s.pop()
    s.push("^8D")
    pos = s.to_position()
    assert s.to_move == 1 and pos.plucked == 1 and pos.piles[0][-1] == parse_card("8D")
    assert plucks(s) == {"^3S", "^4C", "^5D"}  # the opponent has his own pluck


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_no_pass_when_nothing_can_be_plucked_after_the_play(impl):
    # after the capture only AS and 10D are left: no pluckable card, so no pass ply
    s = impl.from_position(pluck_pos(["9D 3S", "KH 5C"], "AS 10D 4C 5D", stock="2H 3H 4H 6H 6C 7C 8C 9C"))
    s.push("9Dx4C,5D")
    assert s.to_move == 1 and s.to_position().phase == "start"


# -- once per deal ---------------------------------------------------------------------------------
@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_one_pluck_per_player_per_deal(impl):
    s = impl.from_position(
        pluck_pos(["9D 3S", "KH 5C"], "4C 6D 8D 7S", plucked=[0], stock="2H 3H 4H 6H 6C 7C 8C 9C")
    )
    assert plucks(s) == set() and "one pluck a deal" in s.explain(Move.parse("^4C"))
    s.push("9D")
    assert s.to_move == 1 and plucks(s) == {"^4C", "^6D", "^7S", "^8D", "^9D"}


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_a_new_deal_gives_everyone_a_pluck_again(impl):
    s = impl.from_position(
        pluck_pos(["9D", "5C"], "4C 6D 8D 7S", plucked=[0, 1], to_move=0, stock="2H 3H 4H 6H 6C 7C 8C 9C")
    )
    s.push("9D")
    s.push("5C")  # the deal ends: the next one is dealt
    pos = s.to_position()
    assert pos.plucked == 0 and sum(h.bit_count() for h in pos.hands) == 8
    assert plucks(s)


# -- which cards ---------------------------------------------------------------------------------
@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_aces_ten_of_diamonds_two_of_spades_and_builds_are_never_plucked(impl):
    table = ["AS AH 10D 2S 2H QC", build("3C+4C", 7, 1)]
    s = impl.from_position(pluck_pos(["7D 3S", "KH 5C"], table, stock="2D 3H 4H 6H 6C 7C 8C 9C"))
    assert plucks(s) == {"^2H", "^QC"}
    assert "never can" in s.explain(Move.parse("^AS"))
    assert "never can" in s.explain(Move.parse("^10D"))
    assert "never can" in s.explain(Move.parse("^2S"))
    assert "in a build" in s.explain(Move.parse("^3C"))
    assert "not on the table" in s.explain(Move.parse("^9S"))
    before = s.to_position()
    with pytest.raises(IllegalMoveError, match="never can"):
        s.push("^AH")
    assert s.to_position() == before


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_the_last_card_on_the_table_is_never_plucked(impl):
    s = impl.from_position(pluck_pos(["7D 3S", "KH 5C"], "QC", stock="2D 3H 4H 6H 6C 7C 8C 9C"))
    assert plucks(s) == set()
    assert "without cards" in s.explain(Move.parse("^QC"))
    # a build stays on the table, so its neighbour may go (AMB-27) ...
    s = impl.from_position(pluck_pos(["7D 3S", "KH 5C"], ["QC", build("3C+4C", 7, 0)], stock="2D 3H 4H 6H 6C 7C 8C 9C"))
    assert plucks(s) == {"^QC"}
    # ... unless only loose cards count (pluck_last_loose=true)
    s = impl.from_position(pluck_pos(["7D 3S", "KH 5C"], ["QC", build("3C+4C", 7, 0)], stock="2D 3H 4H 6H 6C 7C 8C 9C",
                                     options={"pluck_last_loose": True}))
    assert plucks(s) == set() and "without a loose card" in s.explain(Move.parse("^QC"))


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_a_capture_after_a_pluck_that_clears_the_table_is_a_sweep(impl):
    s = impl.from_position(pluck_pos(["9D 3S", "KH 5C"], "4C 5D QH", stock="2H 3H 4H 6H 6C 7C 8C 9C",
                                     options={"sweeps": True}))
    s.push("^QH")
    s.push("9Dx4C,5D")
    assert s.to_position().sweeps == (1, 0)


# -- the last deal (AMB-25) ----------------------------------------------------------------------
@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_pluck_in_the_last_deal_never_makes_the_last_capturer(impl):
    # the last card of the hand is played; its player may still pluck before the leftovers go
    s = impl.from_position(pluck_pos(["9D", ""], "4C 6D QH", last_capturer=1))
    s.push("9D")
    assert not s.is_over and s.to_position().phase == "after"
    assert legal(s) == {"^4C", "^6D", "^QH", "^9D", "pass"} - {"^9D"}
    s.push("^QH")
    pos = s.to_position()
    assert s.is_over and pos.last_capturer == 1
    assert pos.piles[0][-1] == parse_card("QH")
    assert mask("4C 6D 9D") & ~sum(1 << c for c in pos.piles[1]) == 0  # leftovers to seat 1


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_no_pluck_in_the_last_deal_with_the_option(impl):
    pos = pluck_pos(["9D 3S", "KH 5C"], "4C 6D QH", options={"pluck_in_last_deal": False})
    s = impl.from_position(pos)
    assert plucks(s) == set() and "last deal" in s.explain(Move.parse("^QH"))
    s.push("3S")
    assert s.to_move == 1  # no pluck after either
    with_stock = pluck_pos(["9D 3S", "KH 5C"], "4C 6D QH", stock="2H 3H 4H 6H 6C 7C 8C 9C",
                           options={"pluck_in_last_deal": False})
    assert plucks(impl.from_position(with_stock)) == {"^4C", "^6D", "^QH"}


# -- positions, views, errors ----------------------------------------------------------------------
@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_pluck_state_round_trips_through_json_and_text(impl):
    s = impl.from_position(pluck_pos(["9D 3S", "KH 5C"], "4C 5D 8D", stock="2H 3H 4H 6H 6C 7C 8C 9C"))
    s.push("3S")
    pos = s.to_position()
    text = pos.to_text()
    assert text.endswith(" pluck:-:after:3S")
    assert Position.from_text(text) == pos and Position.from_json(pos.to_json()) == pos
    assert impl.from_position(pos).legal_moves() == s.legal_moves()
    s.push("^4C")
    s.push("KH")
    pos = s.to_position()
    assert pos.to_text().endswith(" pluck:0:after:KH") and pos.to_dict()["plucked"] == [0]
    assert Position.from_text(pos.to_text()) == pos
    v = View.of(s, 1)
    assert (v.plucked, v.phase) == (1, "after")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"phase": "after", "system": "cassino_standard"}, r"need pluck=true"),
        ({"phase": "later"}, r"phase must be one of"),
        ({"phase": "plucked"}, r"has not plucked"),
        ({"phase": "after", "plucked": [0]}, r"plucked in this deal already"),
        ({"trailed": "4C"}, r"belongs to phase after"),
        ({"phase": "after", "trailed": "9D"}, r"not loose"),
        ({"plucked": [2]}, r"seats go from 0 to 1"),
    ],
)
def test_bad_pluck_positions_are_refused(change, message):
    data = position_dict(["9D 3S", "KH 5C"], "4C 5D 8D", system=change.pop("system", "cassino_pluck"),
                         stock="2H 3H 4H 6H 6C 7C 8C 9C")
    data.update(change)
    with pytest.raises(PositionError, match=message):
        Position.from_dict(data)


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_plucks_are_refused_without_the_option(impl):
    s = impl.from_position(pluck_pos(["9D 3S", "KH 5C"], "4C 5D 8D", system="cassino_standard"))
    assert plucks(s) == set()
    assert "no plucking" in s.explain(Move.parse("^4C"))
    with pytest.raises(IllegalMoveError, match="no plucking"):
        s.push("pass")


def test_a_finished_hand_with_any_to_move_loads_as_in_standard_cassino():
    # (the pluck checks must not shift by a negative seat: that was a ValueError)
    for system in ("cassino_pluck", "cassino_standard"):
        data = position_dict(["", ""], "", system=system, rest_to=None)
        data["to_move"] = -1
        assert Position.from_dict(data).is_over


def test_bad_pluck_text_field_is_a_notation_error():
    pos = pluck_pos(["9D 3S", "KH 5C"], "4C 5D 8D", stock="2H 3H 4H 6H 6C 7C 8C 9C")
    for bad in ("pluck:x:start", "pluck:0:sometime", "pluck:0"):
        with pytest.raises(NotationError):
            Position.from_text(pos.to_text() + " " + bad)


# -- playouts, the command line --------------------------------------------------------------------
def test_playouts_agree_with_the_reference():
    r = rules("cassino_pluck")
    for seed in range(40):
        core = cassino.State.deal(r, seed % 2, seed)
        ref = _reference.State.from_position(core.to_position())
        assert core.playout(seed).totals() == ref.playout(seed).totals()
        assert core.to_position() == ref.to_position()
        assert any(m.kind == MoveKind.PLUCK for m in core.history)


def test_play_a_whole_game_with_piped_moves():
    r = CliRunner().invoke(cli, ["play", "--seed", "3", "--system", "cassino_pluck"], input="1\n" * 3000)
    out = r.stdout
    assert r.exit_code == 0, out[-1500:]
    assert "pluck " in out and "into your pile" in out
    assert re.search(r"(You win|Opponent wins) the game, \d+ to \d+\.\n$", out)


def test_simulate_checks_card_conservation():
    r = CliRunner().invoke(
        cli, ["simulate", "--system", "cassino_pluck", "--games", "30", "--seed", "1", "--workers", "1",
              "--players", "greedy,random"]
    )
    assert r.exit_code == 0, r.output
    assert "game length" in r.output


def test_moves_command_lists_plucks_as_json(tmp_path):
    pos = pluck_pos(["9D 3S", "KH 5C"], "4C 5D 8D", stock="2H 3H 4H 6H 6C 7C 8C 9C")
    f = tmp_path / "pos.json"
    f.write_text(pos.to_json())
    r = CliRunner().invoke(cli, ["moves", str(f)])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert '"move": "^4C"' in lines[-3] and '"kind": "pluck"' in lines[-3] and '"card": null' in lines[-3]


@pytest.mark.parametrize("impl", IMPLS, ids=IMPL_IDS)
def test_with_michigan_a_pluck_is_never_a_default(impl):
    # seat 0 owns a build of 9 under obligation v2: a pluck is no play, so no default
    pos = pluck_pos(["9D 5S", "KH 2C"], ["4C QH", build("4S+5H", 9, 0)],
                    stock="2H 3H 4H 6H 6C 7C 8C 9C", options={"michigan": True, "obligation": "v2"})
    s = impl.from_position(pos)
    assert "^QH" in plucks(s) and not s.is_default(Move.parse("^QH"))
    assert s.is_default(Move.parse("5S"))  # a trail leaving the build alone is one
    s.push("^QH")
    assert s.to_position().defaults == ()
