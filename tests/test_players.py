"""Players: the information-set view hides what a seat may not see; the registry and
``module:Class`` loading; the random player."""

from __future__ import annotations

import dataclasses
import random
import sys
import textwrap
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import cassino
import conftest
from cassino import Game, Move, MoveKind, Position, Rng, rules, shuffled_deck
from cassino.players import (
    PLAYERS,
    Player,
    PlayerError,
    RandomPlayer,
    View,
    choose_move,
    make_player,
    register_player,
)

VIEW_FIELDS = {
    "rules",
    "centre",     # Laugh and Lie Down: the chips in the centre,
    "laid",       # the cards each seat laid down face up,
    "decision",   # and a pending decision (public, as the turn is)
    "claims",     # African partnership: the builds a partner may rebuild (AMB-64)
    "insist",     # the Italian house variant's insist decision (AMB-68)
    "aside_size",
    "esun_owed",
    "fixxa",
    "bonuses",
    "seat",
    "to_move",
    "dealer",
    "hand",
    "loose",
    "builds",
    "hand_sizes",
    "pile_sizes",
    "stock_size",
    "last_deal",
    "last_capturer",
    "sweeps",
    "scores",
    "played",
    "unseen",
    "plucked",
    "phase",
    "defaults",
    "mulles",
    "piles",
    "sweep_order",
    "discard",
    "trailed",
}


# -- the view hides the other hands and the stock ------------------------------------------
def _opponent_move(moves: Sequence[Move]) -> Move:
    """A trail or capture: legal whatever else the hand holds (no build to hold for)."""
    return next(m for m in moves if m.kind in (MoveKind.TRAIL, MoveKind.CAPTURE))


def _play_prefix(deck: list[int], observer: int, plies: int, seed: int) -> tuple[Any, list[Move]]:
    """A hand dealt from ``deck`` (dealer 0) and ``plies`` moves: the observer plays any
    legal move, the other seat only trails and captures."""
    state = cassino.State.new_hand(rules(), 0, deck)
    rng = Rng(seed)
    played = []
    for _ in range(plies):
        moves = state.legal_moves()
        m = moves[rng.below(len(moves))] if state.to_move == observer else _opponent_move(moves)
        played.append(state.push(m))
    return state, played


def _rearranged(deck: list[int], hidden: int) -> list[int]:
    """``deck`` with the cards of mask ``hidden`` reversed among their own places."""
    places = [i for i, c in enumerate(deck) if hidden >> c & 1]
    out = list(deck)
    for i, j in zip(places, reversed(places), strict=True):
        out[i] = deck[j]
    return out


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("observer", [0, 1])
def test_hidden_cards_arranged_differently_give_equal_views(seed: int, observer: int) -> None:
    """Two hands that differ only in where the unseen cards lie (which are in the other
    hand, the stock order) look the same to the observer at every ply, across deals."""
    deck = shuffled_deck(Rng(seed))
    plies = 21  # two deals and a half: the other hand is refilled twice
    a, moves = _play_prefix(deck, observer, plies, seed)
    other = 1 - observer
    pos_a = a.to_position()
    hidden = pos_a.hands[other] | sum(1 << c for c in pos_a.stock)
    b = cassino.State.new_hand(rules(), 0, _rearranged(deck, hidden))
    a_replay = cassino.State.new_hand(rules(), 0, deck)
    for m in moves:
        assert View.of(a_replay, observer) == View.of(b, observer)
        a_replay.push(m)
        b.push(m)  # the same moves are legal: they only use cards the observer has seen
    pos_b = b.to_position()
    assert pos_a.hands[other] != pos_b.hands[other] or pos_a.stock != pos_b.stock
    assert pos_a.hands[observer] == pos_b.hands[observer]
    va, vb = View.of(a, observer), View.of(b, observer)
    assert va == vb and hash(va) == hash(vb)
    assert View.of(a, other) != View.of(b, other)  # the other seat does see its own hand


def test_view_has_no_attribute_exposing_other_hands_or_the_stock() -> None:
    state = cassino.new_hand(seed=5)
    state.push(state.legal_moves()[0])
    view = View.of(state, state.to_move)
    assert {f.name for f in dataclasses.fields(View)} == VIEW_FIELDS
    for name in ("hands", "stock", "state", "position", "deck"):
        assert not hasattr(view, name)
    pos = state.to_position()
    other = pos.hands[1 - view.seat]
    # the piles are public (every capture is made in view), and hold no card of a hand
    assert view.piles == tuple(tuple(p) for p in pos.piles)
    for pile in view.piles:
        assert not any(other >> c & 1 for c in pile)
    for f in dataclasses.fields(View):
        value = getattr(view, f.name)
        assert not isinstance(value, cassino.State | Position)
        if f.name != "unseen" and isinstance(value, cassino.CardSet):
            assert not value.mask & other, f.name
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = cassino.CardSet(other)  # type: ignore[misc]


@pytest.mark.parametrize("seed", range(6))
def test_unseen_is_the_other_hands_and_the_stock(seed: int) -> None:
    game = Game(seed=seed)
    play = Rng(seed)
    for _ in range(30):
        state = game.state
        pos = state.to_position()
        for seat in range(2):
            view = View.of(state, seat, game.scores)
            stock = sum(1 << c for c in pos.stock)
            assert view.unseen.mask == pos.hands[1 - seat] | stock
            assert view.hand.mask == pos.hands[seat]
            assert not view.unseen.mask & (view.hand.mask | view.table.mask)
            seen = view.hand.mask | view.table.mask | view.unseen.mask
            assert len(view.unseen) + len(view.hand) + len(view.table) + sum(view.pile_sizes) == 52
            assert seen | sum(1 << c for p in pos.piles for c in p) == cassino.cards.ALL_CARDS
            assert view.hand_sizes == tuple(h.bit_count() for h in pos.hands)
            assert view.stock_size == len(pos.stock) and view.last_deal == (not pos.stock)
            assert view.scores == tuple(game.scores)
        moves = game.legal_moves()
        game.push(moves[play.below(len(moves))])


def _record_hand(state: Any, seed: int) -> list[tuple[int, Move]]:
    rng = Rng(seed)
    record = []
    while not state.is_over:
        for seat in range(state.rules.players):
            assert View.of(state, seat).played == tuple(record)
        moves = state.legal_moves()
        seat = state.to_move
        record.append((seat, state.push(moves[rng.below(len(moves))])))
    return record


@pytest.mark.parametrize(
    ("system", "options"),
    [
        ("cassino_standard", {}),
        ("cassino_standard", {"sweeps": True}),
        ("cassino_standard_002", {"players": 3, "direction": "ccw"}),
    ],
)
def test_played_names_the_seat_of_every_move_across_deals(
    system: str, options: dict[str, Any]
) -> None:
    state = cassino.new_hand(system, seed=11, dealer=1, **options)
    record = _record_hand(state, 3)
    assert len(record) == 48
    view = View.of(state, 0)
    assert view.played == tuple(record)
    assert {s for s, _ in record} == set(range(state.rules.players))


def test_played_of_a_resumed_position_whose_first_deal_is_uneven() -> None:
    # seat 1 (the non-dealer) resumes with more cards than seat 0, so after this deal it
    # leads again: turn order alone would attribute the next deal's moves wrongly
    stock = "2C 3C 4C 5C 6C 7C 8C 9C"
    state = conftest.make_state(["AH 2H", "3H 4H 5H"], "JD", to_move=1, dealer=0, stock=stock)
    record = _record_hand(state, 1)
    seats = [s for s, _ in record]
    assert seats[:6] == [1, 0, 1, 0, 1, 1]


def test_view_shows_the_public_mulle_count() -> None:
    """A Mulle (docs/rules.md §3.20) is made in view of all: every seat's view counts it."""
    hands = ["7H 9C", "KS 3D"]
    pos = conftest.make_position(hands, "7H' 2D 5S", system="mulle", stock="")
    state = cassino.State.from_position(pos)
    assert View.of(state, 1).mulles == ()
    state.push(Move.parse("7Hx7H'"))
    assert state.to_position().mulles == (1, 0)
    assert View.of(state, 0).mulles == View.of(state, 1).mulles == (1, 0)


def test_view_seat_must_exist() -> None:
    with pytest.raises(PlayerError, match="seat 2 does not exist"):
        View.of(cassino.new_hand(seed=1), 2)


# -- registry and module:Class ---------------------------------------------------------------
class FirstMove:
    """A user's player: always the first legal move."""

    name = "first"

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        return moves[0]


class SeededLast:
    """A user's player that takes a seed."""

    name = "last"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        return moves[-1]


class Cheater:
    name = "cheater"

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        return Move.trail(cassino.parse_card("AS")) if Move.trail(0) not in moves else Move.trail(1)


@pytest.fixture
def user_module(monkeypatch: pytest.MonkeyPatch) -> str:
    module = types.ModuleType("my_bots")
    module.FirstMove = FirstMove  # type: ignore[attr-defined]
    module.SeededLast = SeededLast  # type: ignore[attr-defined]
    module.NotAPlayer = type("NotAPlayer", (), {})  # type: ignore[attr-defined]
    module.NUMBER = 3  # type: ignore[attr-defined]
    module.Broken = lambda seed=0: 1 / 0  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "my_bots", module)
    return "my_bots"


def test_builtin_players_are_registered() -> None:
    assert PLAYERS["random"] is RandomPlayer
    greedy = make_player("greedy", seed=3)
    from cassino.greedy import GreedyPlayer

    assert PLAYERS["greedy"] is GreedyPlayer and isinstance(greedy, GreedyPlayer)
    assert greedy.name == "greedy" and isinstance(greedy, Player)
    assert isinstance(make_player("random"), RandomPlayer)


def test_register_player_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("cassino.players.PLAYERS", dict(PLAYERS))
    register_player("last", SeededLast)
    p = make_player("last", seed=9)
    assert isinstance(p, SeededLast) and p.seed == 9
    with pytest.raises(PlayerError, match="no ':'"):
        register_player("a:b", SeededLast)


def test_module_class_from_a_module(user_module: str) -> None:
    p = make_player(f"{user_module}:FirstMove", seed=5)  # no seed parameter: called bare
    assert isinstance(p, FirstMove)
    q = make_player(f"{user_module}:SeededLast", seed=5)
    assert isinstance(q, SeededLast) and q.seed == 5
    state = cassino.new_hand(seed=2)
    moves = state.legal_moves()
    assert choose_move(p, View.of(state, state.to_move), moves) == moves[0]


def test_module_class_from_a_file_on_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "file_bot.py").write_text(
        textwrap.dedent(
            """
            class Bot:
                name = "file-bot"

                def __init__(self, seed=0):
                    self.seed = seed

                def choose(self, view, moves):
                    return moves[-1]
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    bot = make_player("file_bot:Bot", seed=4)
    assert bot.name == "file-bot" and bot.seed == 4  # type: ignore[attr-defined]
    assert make_player("cassino.players:RandomPlayer").name == "random"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nobody", r"unknown player 'nobody' \(known: expert, greedy, ismcts, random; or module:Class\)"),
        ("", "must be a name or module:Class"),
        (":FirstMove", "must look like module:Class"),
        ("my_bots:", "must look like module:Class"),
        ("no_such_module_xyz:Bot", "cannot import player module 'no_such_module_xyz'"),
        ("my_bots:Missing", "module 'my_bots' has no player 'Missing'"),
        ("my_bots:NUMBER", "is not a class or factory"),
        ("my_bots:NotAPlayer", r"has no choose\(view, moves\) method"),
        ("my_bots:Broken", "cannot create player 'my_bots:Broken': ZeroDivisionError"),
    ],
)
def test_bad_specs_raise_player_error(user_module: str, spec: str, message: str) -> None:
    with pytest.raises(PlayerError, match=message):
        make_player(spec)


def test_a_module_failing_at_import_is_a_player_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "bad_bot.py").write_text("raise RuntimeError('boom')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(
        PlayerError, match="importing player module 'bad_bot' failed: RuntimeError: boom"
    ):
        make_player("bad_bot:Bot")


def test_choose_move_rejects_an_illegal_answer() -> None:
    state = cassino.new_hand(seed=2)
    moves = state.legal_moves()
    with pytest.raises(PlayerError, match="not a legal move"):
        choose_move(Cheater(), View.of(state, state.to_move), moves)
    with pytest.raises(PlayerError, match="no legal move"):
        choose_move(FirstMove(), View.of(state, state.to_move), [])


# -- the random player --------------------------------------------------------------------
def test_random_player_is_seeded_and_ignores_the_global_rng() -> None:
    def picks(seed: int) -> list[Move]:
        game = Game(seed=1)
        player = RandomPlayer(seed)
        out = []
        for _ in range(40):
            random.random()
            m = player.choose(View.of(game.state, game.state.to_move), game.legal_moves())
            out.append(game.push(m))
        return out

    random.seed(1)
    a = picks(7)
    random.seed(2)
    assert picks(7) == a
    assert picks(8) != a


def test_movers_follow_every_push_and_pop() -> None:
    state = cassino.new_hand(seed=12)
    seats = []
    k = 0
    while not state.is_over:
        seats.append(state.to_move)
        moves = state.legal_moves()
        k += 5
        state.push(moves[k % len(moves)])
        assert state.movers == seats
    for _ in range(10):
        state.pop()
        seats.pop()
        assert state.movers == seats
    assert state.clone().movers == seats


def test_the_random_player_draws_from_more_moves_than_len_can_count() -> None:
    """African Cassino's orders of the captured cards can make more turns than
    ``sys.maxsize``: a sequence with ``size`` is drawn from by it, uniformly (Rng.below
    takes any size; below 2**64 it draws as before)."""
    import sys
    from collections.abc import Sequence

    from cassino._rng import Rng
    from cassino.players import RandomPlayer

    class Huge(Sequence[int]):
        size = 10**30

        def __len__(self) -> int:
            raise OverflowError("cannot fit 'int' into an index-sized integer")

        def __getitem__(self, i):  # type: ignore[no-untyped-def]
            return i

    picks = [RandomPlayer(seed).choose(None, Huge()) for seed in range(20)]  # type: ignore[arg-type]
    assert all(0 <= p < 10**30 for p in picks) and max(picks) > sys.maxsize
    r = Rng(9)
    assert [r.below(1000) for _ in range(3)] == [682, 750, 265]   # (as before: Lemire below 2**64)
