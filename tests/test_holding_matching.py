"""docs/rules.md §3.1 with multi-valued cards (issues 22 and 24): the holding requirement and the
holding invariant are one check, a distinct card in hand for each value of the builds one
owns; and one move per build, whichever of interchangeable cards (Royal aces) is labelled
at its second value."""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest

import cassino
from cassino import Move, MoveKind
from cassino import _reference as ref
from cassino.cards import card_rank
from cassino.cli import made_build
from conftest import build, make_state, notations

try:
    from cassino import _core
except ImportError:  # pragma: no cover - without a compiled core
    _core = None  # type: ignore[assignment]

IMPLS: list[Any] = [ref.State] + ([_core.State] if _core is not None else [])
BUILD_KINDS = (MoveKind.BUILD, MoveKind.AUGMENT, MoveKind.INCREASE)


def _ids(cls: Any) -> str:
    return "reference" if cls is ref.State else "core"


def _state(cls: Any, *args: Any, **kwargs: Any) -> Any:
    return cls.from_position(make_state(*args, **kwargs).to_position())


# -- issue 22: Buckeye's 10D ------------------------------------------------------------------
ISSUE_22 = {
    "system": "cassino_buckeye", "options": {}, "players": 2, "dealer": 0, "to_move": 0,
    "hands": [["10D"], []],
    "table": ["3D", "8H", {"groups": [["2C", "8C"], ["3C", "7S"], ["4D", "6D"]], "value": 10, "owners": [0]},
              {"groups": [["JD"], ["JC"]], "value": 11, "owners": [0]}],
    "piles": [["QH", "QC", "QS", "AH", "3H", "6S", "10C"], ["5C", "5H"]],
    "stock": ["6C", "4H", "8S", "4S", "7D", "7C", "5D", "AD", "QD", "4C", "JS", "6H", "10H", "2H",
              "3S", "AC", "7H", "10S", "9S", "9D", "5S", "9C", "KC", "KD", "2S", "2D", "JH", "KS",
              "KH", "8D", "AS", "9H"],
    "last_capturer": 1, "sweeps": [0, 0], "scores": [0, 0],
}  # fmt: skip


@pytest.mark.parametrize("cls", IMPLS, ids=_ids)
def test_the_move_that_led_to_issue_22_is_illegal(cls: Any) -> None:
    """One ply before the issue's position: seat 0 holds 10D JC, owns the build of 10, and
    JD lies loose. JC+JD=11 would leave the 10D as his only card for 10 and for 11."""
    s = _state(
        cls, ["10D JC", "5D"], ["3D 8H JD", build("2C+8C|3C+7S|4D+6D", 10, 0)],
        system="cassino_buckeye", stock="6C 4H 8S 4S 7D 7C 9D AD",
    )
    m = Move.parse("JC+JD=11")
    assert not s.is_legal(m)
    assert s.explain(m) == "your 10D cannot take both your build of 10 and your build of 11"
    legal = notations(s)
    assert "JC+JD=11" not in legal and "JCxJD" in legal
    assert "10Dx2C,3C,4D,6D,7S,8C" in legal
    before = s.to_position()
    with pytest.raises(cassino.IllegalMoveError, match="cannot take both"):
        s.push(m)
    assert s.to_position() == before


@pytest.mark.parametrize("cls", IMPLS, ids=_ids)
def test_issue_22_position_itself_still_has_its_fallback(cls: Any) -> None:
    """The position of the issue (reached before the fix) has no move that keeps the
    duties: every trail is allowed there, as for any hand-made position."""
    s = cls.from_json(json.dumps(ISSUE_22))
    assert [str(m) for m in s.legal_moves()] == ["10D"]


# -- issue 24: Royal ------------------------------------------------------------------------
@pytest.mark.parametrize("cls", IMPLS, ids=_ids)
def test_the_royal_ace_cannot_hold_a_build_of_1_and_one_of_14(cls: Any) -> None:
    s = _state(cls, ["AD 3D", "8S"], ["JH", build("AH|AC", 1, 0)], system="cassino_royal")
    assert [str(m) for m in s.legal_moves()] == ["ADxAH,AC"]
    assert s.explain(Move.parse("3D+JH=14")) == (
        "your AD cannot take both your build of 1 and your build of 14"
    )


@pytest.mark.parametrize("cls", IMPLS, ids=_ids)
def test_one_move_whichever_ace_counts_14(cls: Any) -> None:
    s = _state(cls, ["AD AC", "8S"], ["AH KH"], system="cassino_royal")
    legal = [str(m) for m in s.legal_moves()]
    assert "AD+AH:14,KH=14" in legal and "AD:14+AH,KH=14" not in legal
    assert "AC+AH:14,KH=14" in legal and "AC:14+AH,KH=14" not in legal
    # the other labelling is the same move: legal, and played as the canonical one
    other = Move.parse("AD:14+AH,KH=14")
    assert s.is_legal(other) and s.explain(other) is None
    played = s.push(other)
    assert str(played) == "AD+AH:14,KH=14"
    assert s.to_position().builds[0].fixed == ((1, 14),)      # AH, the lowest id, counts 14
    s.pop()
    # a labelling that is no valuing at all stays illegal
    assert not s.is_legal(Move.parse("AD+AH,KH=14"))


def test_royal_seed_3_perft_counts_each_build_once() -> None:
    s = cassino.new_hand(system="cassino_royal", seed=3)
    assert s.perft(4) == 9820     # 9,988 before issues 22 and 24


# -- properties over random play ---------------------------------------------------------------
def _covers(state: Any, seat: int) -> bool:
    """Whether ``seat`` holds a distinct card for each value of the builds he owns."""
    r = state.rules
    need = sorted({b.value for b in state.to_position().builds if b.owners >> seat & 1})
    hand = state.to_position().hands[seat]
    cards = {c: {v for v in (r.card_value(c), r.second_value(c)) if v} for c in cassino.CardSet(hand)}
    if r.face_cards_all_four:   # a face card takes the natural builds of its rank
        for c in cards:
            if not r.card_value(c):
                cards[c].add(card_rank(c))
    return ref._matching(need, cards)


SYSTEMS_WITH_BUILDS = [
    sid for sid in cassino.implemented_systems()
    if cassino.rules(sid).build_kinds != "none" and cassino.rules(sid).holding_invariant
]


@pytest.mark.parametrize("sid", SYSTEMS_WITH_BUILDS)
def test_the_mover_always_covers_his_builds(sid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Random, build-biased play: after every move, the mover holds a distinct card for each
    value of the builds he owns, and no reached position needs the every-trail fallback."""

    def no_fallback(self: Any) -> Any:
        raise AssertionError(f"the fallback was used from a reached position: {self!r}")

    monkeypatch.setattr(ref.State, "_fallback_trails", no_fallback)
    r = cassino.rules(sid)
    rng = random.Random(22)
    hands = 12 if cassino.IMPLEMENTATION == "core" else 3
    multi = r.multi_valued
    for h in range(hands * (4 if multi else 1)):
        s = cassino.State.deal(r, h % r.players, rng.randrange(1 << 30))
        while not s.is_over:
            if cassino.IMPLEMENTATION == "core" and (multi or h < 3):
                ref.State.from_position(s.to_position()).legal_moves()   # fallback check
            moves = s.legal_moves()
            keep = [m for m in moves if m.kind in BUILD_KINDS]
            m = rng.choice(keep) if keep and rng.random() < 0.7 else rng.choice(moves)
            seat = s.to_move
            s.push(m)
            if not s.is_over:
                assert _covers(s, seat), (sid, str(m), s.to_position().to_text())


@pytest.mark.parametrize("sid", [s for s in SYSTEMS_WITH_BUILDS if cassino.rules(s).multi_valued])
def test_no_two_listed_moves_reach_equal_states(sid: str) -> None:
    """Royal, Buckeye and the other multi-valued systems: every listed build move leaves a
    distinct state once ``fixed`` is canonical."""
    r = cassino.rules(sid)
    rng = random.Random(24)
    checked = 0
    for h in range(25 if cassino.IMPLEMENTATION == "core" else 4):
        s = cassino.State.deal(r, h % r.players, rng.randrange(1 << 30))
        while not s.is_over:
            moves = s.legal_moves()
            builds = [m for m in moves if m.kind in BUILD_KINDS]
            seen: dict[Any, str] = {}
            for m in builds:
                s.push(m)
                key = s.to_position()
                s.pop()
                assert key not in seen, (sid, str(m), seen.get(key))
                seen[key] = str(m)
                checked += 1
            s.push(rng.choice(builds) if builds and rng.random() < 0.5 else rng.choice(moves))
    assert checked > 50


def test_made_build_is_the_canonical_labelling() -> None:
    s = make_state(["AD AC", "8S"], ["AH KH"], system="cassino_royal")
    m = next(m for m in s.legal_moves() if str(m) == "AD+AH:14,KH=14")
    b = made_build(s, m)
    assert b.multiple and b.fixed == ((1, 14),)


BUCKEYE_HANDS = int(os.environ.get("CASSINO_BUCKEYE_HANDS", "0")) or (
    2_000 if cassino.IMPLEMENTATION == "core" else 40
)


@pytest.mark.slow
def test_random_buckeye_hands_never_reach_an_uncovered_position(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22's done-when: uniform random Buckeye play (CASSINO_BUCKEYE_HANDS hands, 2,000
    by default; 10,000 for the issue's figure) never leaves the mover owning builds he
    cannot cover with distinct cards, and never needs the every-trail fallback; the
    reference lists the same moves as the core at every position of every 10th hand."""

    def no_fallback(self: Any) -> Any:
        raise AssertionError(f"the fallback was used from a reached position: {self!r}")

    monkeypatch.setattr(ref.State, "_fallback_trails", no_fallback)
    r = cassino.rules("cassino_buckeye")
    rng = random.Random(2222)
    positions = compared = 0
    for h in range(BUCKEYE_HANDS):
        s = cassino.State.deal(r, h % r.players, rng.randrange(1 << 30))
        while not s.is_over:
            moves = s.legal_moves()
            if h % 10 == 0:
                expected = notations(ref.State.from_position(s.to_position()))
                assert {str(m) for m in moves} == expected, s.to_position().to_text()
                compared += 1
            seat = s.to_move
            s.push(moves[rng.randrange(len(moves))])
            positions += 1
            if not s.is_over:
                assert _covers(s, seat), s.to_position().to_text()
    assert positions > 20 * BUCKEYE_HANDS and compared > 0
