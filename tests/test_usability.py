"""What printing and inspecting things shows a user (issue 23, item 9)."""

from __future__ import annotations

from typing import Any

import pytest

import cassino
from cassino import CardSet, Move, _reference
from cassino.cards import parse_card
from conftest import make_state

try:
    from cassino import _core
except ImportError:  # pragma: no cover - without a compiled core
    _core = None  # type: ignore[assignment]

IMPLS: list[Any] = [_reference.State] + ([_core.State] if _core is not None else [])


def _seed7(cls: Any) -> Any:
    state = cls.from_position(cassino.new_hand(seed=7).to_position())
    state.push("3S")
    state.push("5S+5D=5")
    return state


@pytest.mark.parametrize("cls", IMPLS, ids=lambda c: c.__module__)
def test_print_state_shows_a_board_and_repr_keeps_the_notation(cls: Any) -> None:
    state = _seed7(cls)
    assert str(state).splitlines() == [
        "cassino_standard, 2 players: dealer seat 0, seat 1 to move",
        "  seat 0  hand 5C 6D JH                  pile 0",
        "> seat 1  hand 2D 9D KS                  pile 0",
        "  table   3S 4C 8D KD",
        "  build   5: 5S | 5D, multiple, owned by seat 0",
        "  stock 40; sweeps 0-0; scores 0-0; no capture yet",
    ]
    assert repr(state) == f"<State {state.to_position().to_text()}>"


@pytest.mark.parametrize("cls", IMPLS, ids=lambda c: c.__module__)
def test_the_board_of_a_partnership_a_royal_build_and_a_finished_hand(cls: Any) -> None:
    part = cls.from_position(cassino.new_hand("cassino_partnership", seed=3).to_position())
    lines = str(part).splitlines()
    assert lines[1].endswith("team 0") and lines[2].startswith("> seat 1") and lines[2].endswith("team 1")
    assert "  team 0  pile 0" in lines and "  team 1  pile 0" in lines
    royal = cls.from_position(make_state(["AD AC", "8S"], ["AH KH"], system="cassino_royal").to_position())
    royal.push("AD+AH:14,KH=14")
    build = next(ln for ln in str(royal).splitlines() if ln.startswith("  build"))
    # each ace shows the value it counts in the build
    assert build == "  build   14: AH:14 | AD:1+KH, multiple, owned by seat 0", build
    done = cls.from_position(cassino.new_hand(seed=7).to_position())
    while not done.is_over:   # capture when possible: the table stays small
        moves = done.legal_moves()
        done.push(next((m for m in moves if m.takes), moves[0]))
    text = str(done)
    assert "the hand is over" in text.splitlines()[0] and ">" not in text
    assert "last capture by seat" in text


@pytest.mark.parametrize("cls", IMPLS, ids=lambda c: c.__module__)
def test_hands_and_table_as_card_sets(cls: Any) -> None:
    state = _seed7(cls)
    assert state.hand() == CardSet(state.hands[1]) and str(state.hand()) == "2D 9D KS"
    assert str(state.hand(0)) == "5C 6D JH"
    assert str(state.table) == "3S 4C 5S 5D 8D KD" and state.table.mask == state.table_mask
    for bad in (2, -1, "0"):
        with pytest.raises(ValueError, match="no seat"):
            state.hand(bad)


def test_moves_show_their_cards() -> None:
    m = Move.parse("9Dx4C,5D")
    assert m.card_code == "9D" and m.card == parse_card("9D")
    assert m.taken == CardSet([parse_card("4C"), parse_card("5D")]) and str(m.taken) == "4C 5D"
    assert Move.pass_turn().card_code == ""
    assert "find_move" not in (Move.parse.__doc__ or "")
    assert "parse_move" in (Move.parse.__doc__ or "")


def test_dir_cassino_shows_the_api_only() -> None:
    names = set(dir(cassino))
    assert not names & {"os", "Any", "annotations"}
    for name in cassino.__all__:
        assert hasattr(cassino, name), name
