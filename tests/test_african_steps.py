"""The step interface of African Cassino's turns on the reference State (docs/architecture.md
§9.4): ``legal_steps``, ``push_step``, ``pop_step``, ``can_end_turn`` and ``end_turn``, with
no dead ends and exactly the listed turns at the end of every path."""

from __future__ import annotations

import pytest

from cassino import Position, rules
from cassino._reference import State
from cassino.cards import parse_card
from cassino.errors import IllegalMoveError
from cassino.moves import Move


def c(code: str) -> int:
    return parse_card(code)


def small_state(pile_order: str = "full", loose_cards: tuple[str, ...] = ("4S", "5S", "3C")) -> State:
    """Seat 0 to move with 9H 4D 5C; loose 4S 5S 3C; seat 1's face-up pile has 5D on top."""
    r = rules("african_cassino_3p", pile_order=pile_order)
    hands = (sum(1 << c(x) for x in ("9H", "4D", "5C")), 1 << c("2D"), 1 << c("2H"))
    loose = sum(1 << c(x) for x in loose_cards)
    piles = ((), (c("KD"), c("5D")), ())
    used = {c(x) for x in ("9H", "4D", "5C", "2D", "2H", "KD", "5D", *loose_cards)}
    pos = Position(rules=r, dealer=1, to_move=0, hands=hands, loose=loose, builds=(), piles=piles,
                   stock=(), last_capturer=1, sweep_order=(), scores=(0, 0, 0),
                   discard=tuple(sorted(set(range(52)) - used)))
    return State(pos)


def walk(s: State, found: set[str], depth: int = 0) -> None:
    """Every path of steps: each listed step leads on (no dead end); each end a listed turn."""
    steps = s.legal_steps()
    assert steps or s.can_end_turn(), f"dead end after {s.turn_steps}"
    if s.can_end_turn():
        found.add("; ".join(s.turn_steps))
    assert depth < 8
    for step in steps:
        s.push_step(step)
        walk(s, found, depth + 1)
        assert s.pop_step() == step


def _one_order(m: Move) -> str:
    """The turn written with the captured cards ascending under the capturing card."""
    out = []
    for step in m.steps:
        head, bar, order = step.partition("|")
        if bar:
            cards = sorted(order.split(","), key=parse_card)
            head += "|" + ",".join(cards)
        out.append(head)
    return "; ".join(out)


def test_every_path_of_steps_ends_in_a_listed_turn_and_reaches_them_all() -> None:
    s = small_state()
    found: set[str] = set()
    walk(s, found)
    ends = {str(s.parse_move(t)) for t in found}
    listed = {_one_order(m) for m in s.legal_moves()}
    assert {_one_order(s.parse_move(e)) for e in ends} == listed
    assert any(";" in t for t in found)        # (free steps with a hand card)


def test_end_turn_pushes_the_turn_of_the_steps() -> None:
    s = small_state()
    s.push_step("+4S,5S=9")                      # F1: a build of 9 from loose cards
    assert not s.can_end_turn()                  # (a hand card must be played)
    with pytest.raises(IllegalMoveError, match="hand card"):
        s.end_turn()
    s.push_step("4D")                            # trail: 9H still holds the build
    assert s.can_end_turn() and s.turn_steps == ["+4S,5S=9", "4D"]
    m = s.end_turn()
    assert str(m) == "+4S,5S=9; 4D" and s.history == [m] and s.to_move == 2
    assert s.turn_steps == []


def test_a_capture_step_takes_the_order_of_the_cards_under_it() -> None:
    s = small_state()
    listed = s.legal_steps()
    assert "9Hx4S,5S|4S,5S" in listed and "9Hx4S,5S|5S,4S" not in listed
    assert s.push_step("9hx5s,4s|5s,4s") == "9Hx4S,5S|5S,4S"
    m = s.end_turn()
    assert s.piles[0] == [c("5S"), c("4S"), c("9H")] and m in State(s._root).legal_moves()


def test_pile_order_second_allows_only_the_second_card_to_be_chosen() -> None:
    loose = ("4S", "5S", "2C", "7C")
    for order, rest_free in (("full", True), ("second", False)):
        s = small_state(order, loose)
        s.push_step("9Hx2C,4S,5S,7C|2C,4S,7C,5S")      # (5S under the 9H, the rest ascending)
        s.pop_step()
        if rest_free:
            s.push_step("9Hx2C,4S,5S,7C|4S,2C,7C,5S")
        else:
            with pytest.raises(IllegalMoveError, match="pile_order=second"):
                s.push_step("9Hx2C,4S,5S,7C|4S,2C,7C,5S")
        four = sum(1 << c(x) for x in loose)
        whole = [m for m in State(s._root).legal_moves() if m.card == c("9H") and m.takes == four]
        assert len(whole) == (24 if order == "full" else 4)


def test_an_illegal_step_names_itself_and_changes_nothing() -> None:
    s = small_state()
    s.push_step("+4S,5S=9")
    with pytest.raises(IllegalMoveError, match=r"'5C\+4S' is not a step"):
        s.push_step("5C+4S")
    assert s.turn_steps == ["+4S,5S=9"]
    with pytest.raises(IllegalMoveError, match="no compound turns"):
        State.deal(rules("cassino_standard"), 0, 1).legal_steps()


def test_pop_step_without_steps_is_an_index_error() -> None:
    s = small_state()
    with pytest.raises(IndexError):
        s.pop_step()


def test_cassino_play_builds_a_turn_step_by_step_to_the_hand_end() -> None:
    from click.testing import CliRunner

    from cassino.cli import cli

    r = CliRunner().invoke(cli, ["play", "--seed", "3", "--system", "african_cassino_2p",
                                 "--opponent", "random"], input="1\nend\n" * 120, prog_name="cassino")
    assert "Traceback" not in r.output and r.exit_code in (0, 1), r.output[-1500:]
    assert "Piles" in r.stdout and "Step: " in r.stdout and "You play " in r.stdout
    assert "Hand 1 scoring" in r.stdout, r.output[-1500:]


def test_cassino_play_takes_back_a_step_and_refuses_an_unfinished_turn() -> None:
    from click.testing import CliRunner

    from cassino.cli import cli

    r = CliRunner().invoke(cli, ["play", "--seed", "2", "--system", "african_cassino_3p",
                                 "--opponent", "random"], input="end\n1\nback\nquit\n",
                           prog_name="cassino")
    assert "The turn is not finished: play a card from your hand." in r.stdout
    assert "Taken back: " in r.stdout and "Game abandoned." in r.stdout
