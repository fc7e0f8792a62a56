"""The core's compound turns (core/compound.pxi, docs/architecture.md §9.4) against the
reference: the same end tables on every position of random hands of the four systems and
their options, the same counts and perft pins, the same canonical order, the same random
hands and playouts, and clear errors."""

from __future__ import annotations

import os
import random
import sys
from dataclasses import replace

import numpy as np
import pytest

import cassino
from cassino import Position, rules
from cassino._reference import State as RefState
from cassino._rng import Rng
from cassino.cards import parse_card
from cassino.errors import PositionError, RulesError
from cassino.reference import state as reference_state
from cassino.reference.african import canonical_key, compound_rules
from cassino.reference.compound import Build, Table, _Search, _State, count_turns
from test_african_state import PERFT as AFRICAN_PERFT
from test_italian_state import PERFT as ITALIAN_PERFT

core = pytest.importorskip("cassino._core", reason="the Cython core is not built")
if os.environ.get("CASSINO_PURE_PYTHON", "") not in ("", "0"):
    pytest.skip("the core's compound turns are tested in the core pass of the suite",
                allow_module_level=True)

SYSTEMS = ("african_cassino_3p", "african_cassino_2p", "african_cassino_partnership",
           "italian_house_cassino")

# the options of §4.4 that change which turns there are (each a rules option)
OPTIONS = [
    ("african_cassino_3p", {"pile_order": "second"}),
    ("african_cassino_3p", {"table_only_build": "turn"}),
    ("african_cassino_3p", {"pile_cards_per_turn": 1}),
    ("african_cassino_3p", {"increase_who": "opponent_created"}),
    ("african_cassino_partnership", {"partner_builds": "maker_owns"}),
    ("african_cassino_2p", {"pile_order": "second"}),
    ("italian_house_cassino", {"increase_who": "opponent_only"}),
    ("italian_house_cassino", {"capture_extent": "free"}),
    ("italian_house_cassino", {"trail": "any"}),
    ("italian_house_cassino", {"free_steps_per_turn": 1}),
    ("italian_house_cassino", {"players": 4}),
]


def positions(r: cassino.Rules, seeds: range, limit: int = 60) -> list[RefState]:
    """The states of random reference hands of ``r`` where a turn is to be made."""
    out = []
    for seed in seeds:
        s = RefState.deal(r, seed % r.players, seed)
        rng = random.Random(seed)
        while not s.is_over and len(out) < limit * (seed - seeds.start + 1):
            if not s.insist:
                out.append(s.clone())
            s.push(s.move_at(rng.randrange(s.count_moves())))
    return out


def reference_ends(r: cassino.Rules, s: RefState) -> set[tuple[object, ...]]:
    cr = replace(compound_rules(r), pile_order="one")
    return set(_Search(cr, s.to_move).ends(_State(s._turn_table())))


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_core_finds_the_reference_turns(system: str) -> None:
    r = rules(system)
    gen = core.turn_generator(r)
    states = positions(r, range(2))
    assert len(states) > 60
    sizes = []
    for s in states:
        table = s._turn_table()
        ends = gen.ends(table, s.to_move)
        assert len(ends) == len(set(ends))                 # (each end table once)
        assert set(ends) == reference_ends(r, s), s.to_position().to_text()
        assert gen.count(table, s.to_move) == count_turns(compound_rules(r), table, s.to_move)
        sizes.append(len(ends))
    assert max(sizes) > 20          # (positions with many turns, not only trails)


@pytest.mark.parametrize(("system", "options"), OPTIONS)
def test_the_core_agrees_under_every_option(system: str, options: dict[str, object]) -> None:
    r = rules(system, **options)
    gen = core.turn_generator(r)
    for s in positions(r, range(1), limit=40):
        table = s._turn_table()
        assert set(gen.ends(table, s.to_move)) == reference_ends(r, s), (
            options, s.to_position().to_text())
        assert gen.count(table, s.to_move) == s.count_moves() == count_turns(
            compound_rules(r), table, s.to_move)


def _listed(turns: list[tuple[object, int]]) -> list[tuple[object, ...]]:
    return [(t.notation(), t.table.key(), t.captured, t.steps, k)  # type: ignore[attr-defined]
            for t, k in turns]


@pytest.mark.parametrize(("system", "options"), [(s, {}) for s in SYSTEMS] + OPTIONS[:6])
def test_the_core_lists_the_reference_turns_in_its_order(
        system: str, options: dict[str, object]) -> None:
    """Each turn with its least step sequence (the same Step objects), its end table and its
    number of orders, in the order of the least sequences: the reference's _base_turns."""
    r = rules(system, **options)
    gen = core.turn_generator(r)
    for s in positions(r, range(1), limit=40):
        assert _listed(gen.list_state(s)) == _listed(s._base_turns()), s.to_position().to_text()
        mine = core.CompoundState(s.to_position())
        if s.count_moves() <= 5000:
            assert mine.legal_moves() == s.legal_moves()
        index = s.count_moves() // 2
        assert mine.move_at(index) == s.move_at(index)


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_canonical_order_is_the_references(system: str) -> None:
    r = rules(system)
    gen = core.turn_generator(r)
    for s in positions(r, range(1), limit=25):
        start = s._turn_table()
        listed = gen.turns(start, s.to_move)
        keys = [canonical_key(t, start, s.to_move, _under(t, start, s), _top(t, start, s))
                for t, *_ in listed]
        assert keys == sorted(keys) and len(set(keys)) == len(keys)
        assert sum(k for _, k, _, _ in listed) == s.count_moves()
        # the turn at each index is the reference's canonical one
        total = s.count_moves()
        for index in random.Random(len(keys)).sample(range(total), min(3, total)):
            table, captured, value = gen.pick(start, s.to_move, index)
            ref = s.clone()
            ref._push_unchecked(ref._canonical_at(index))
            mine = core.CompoundState.from_position(s.to_position())
            mine._version += 1
            mine._take_table(table, captured, s.to_move, max(value, 0), start)
            if value != -2:
                assert mine.to_position() == ref.to_position()


def _under(t: Table, start: Table, s: RefState) -> tuple[int, ...]:
    team = s.rules.team_of(s.to_move)
    grown = len(t.piles[team]) - len(start.piles[team])
    return tuple(sorted(t.piles[team][len(start.piles[team]):-1])) if grown > 0 else ()


def _top(t: Table, start: Table, s: RefState) -> int:
    team = s.rules.team_of(s.to_move)
    return t.piles[team][-1] if len(t.piles[team]) > len(start.piles[team]) else -1


ITALIAN_ACE = ("italian_house_cassino 0 0 AD,5D/2S,6B AC,4C,7S 2D,2C,3D,3C,3S,3B,4D,4S,4B,5C,"
               "5S,5B,6D,6C,6S,7D,7C,7B,JD,JC,JS,JB,ND,NC,NS,NB,KD,KC,KS,KB,AS,AB,2B/- - 0 - 0,0")


def test_an_ace_that_captures_at_either_value_is_flagged_and_played_as_the_reference() -> None:
    # the Italian AD takes the loose AC as a 1 or as an 11: one turn, two step sequences,
    # whose capture values differ (what an insist may extend depends on it)
    r = rules("italian_house_cassino")
    text = ITALIAN_ACE
    s = core.CompoundState(Position.from_text(text))
    gen = core.turn_generator(r)
    listed = gen.turns(s._turn_table(), 0)
    flagged = [t for t, _, captured, value in listed if value == -2]
    assert len(flagged) == 1 and parse_card("AC", "italian40") in flagged[0].piles[0]
    for index in range(s.count_moves()):
        a, b = s.clone(), RefState(Position.from_text(text))
        a._random_turn(_FixedRng(index))
        b._push_random(_FixedRng(index))
        assert a.to_position() == b.to_position(), index


class _FixedRng(Rng):
    """An Rng whose next ``below`` answers ``index``."""

    def __init__(self, index: int) -> None:
        super().__init__(0)
        self.index = index

    def below(self, n: int) -> int:
        assert 0 <= self.index < n
        return self.index


@pytest.mark.parametrize("system", SYSTEMS)
def test_random_hands_are_the_references(system: str) -> None:
    r = rules(system)
    for seed in range(3):
        assert core.random_hand(r, seed, seed % r.players) == reference_state.random_hand(
            r, seed, seed % r.players)


@pytest.mark.parametrize("system", SYSTEMS)
def test_playouts_of_the_core_and_the_reference_agree_and_keep_every_card(
        system: str, monkeypatch: pytest.MonkeyPatch) -> None:
    r = rules(system)
    players = ("random",) * (r.players - 1) + ("greedy",)
    mine = cassino.playouts(system, 4, seed=7, players=players)
    monkeypatch.setattr("cassino.game._state_class", lambda r=None: RefState)
    ref = cassino.playouts(system, 4, seed=7, players=players)
    for name in ("points", "cards", "moves", "dealer"):
        assert np.array_equal(getattr(mine, name), getattr(ref, name)), name
    assert set(mine.cards.sum(axis=1)) == {r.deck_size}
    assert mine.points.sum() > 0


def test_the_core_state_of_a_compound_system() -> None:
    r = rules("african_cassino_3p")
    s = cassino.State.deal(r, 0, 1)
    assert isinstance(s, core.CompoundState) and isinstance(s, RefState)
    assert isinstance(cassino.new_hand("african_cassino_3p", seed=1), core.CompoundState)
    assert isinstance(cassino.State(s.to_position()), core.CompoundState)
    assert isinstance(cassino.State.from_position(s.to_position()), core.CompoundState)
    ref = RefState.deal(r, 0, 1)
    assert s.count_moves() == ref.count_moves() == 617
    assert s.perft(2) == 73277      # (the reference's perft(2), 500 times slower: the same)
    m = s.legal_moves()[5]
    s.push(m)
    ref.push(m)
    assert s.to_position() == ref.to_position() and s.count_moves() == ref.count_moves()
    s.pop()
    assert s.count_moves() == 617


@pytest.mark.parametrize(("text", "counts"), AFRICAN_PERFT + ITALIAN_PERFT)
def test_perft_pins_of_the_core_state(text: str, counts: tuple[int, ...]) -> None:
    s = cassino.State(Position.from_text(text))
    assert isinstance(s, core.CompoundState)
    assert tuple(s.perft(d) for d in range(1, len(counts) + 1)) == counts
    if not s.insist:
        assert core.turn_generator(s.rules).count(s._turn_table(), s.to_move) == counts[0]


def test_bad_input_to_the_generator_is_named() -> None:
    with pytest.raises(RulesError, match="no compound turns"):
        core.turn_generator(rules("cassino_standard"))
    gen = core.turn_generator(rules("african_cassino_2p"))
    c = parse_card
    table = Table((frozenset({c("9H")}), frozenset()), frozenset({c("4S"), c("5S")}), (),
                  ((), ()))
    assert gen.count(table, 0) == 3           # 9H takes 4S 5S (2 orders), or trails
    with pytest.raises(PositionError, match="mover"):
        gen.count(table, 2)
    with pytest.raises(PositionError, match="piles"):
        gen.count(replace(table, piles=((),)), 0)
    with pytest.raises(PositionError, match="not of this deck"):
        gen.count(replace(table, loose=frozenset({150})), 0)
    italian = core.turn_generator(rules("italian_house_cassino"))
    with pytest.raises(PositionError, match="not of this deck"):
        italian.count(table, 0)
    built = replace(table, builds=(Build(frozenset({c("2S"), c("7S")}), 9, 1, False),))
    # 9H takes 4S 5S (2 orders), the build (2), both (4! orders), or trails
    assert gen.count(built, 0) == 2 + 2 + 24 + 1 == count_turns(compound_rules(gen.rules), built, 0)
    with pytest.raises(RulesError, match="wholly in C"):
        core.turn_generator(rules("african_cassino_3p", leftovers_to="nobody")).random_hand(
            1, 0, 1, 1)
    with pytest.raises(PositionError, match="40 cards"):
        italian.random_hand(1, 0, 1, 1, [150, 151])
    with pytest.raises(PositionError, match="once"):
        italian.random_hand(1, 0, 1, 1, [150] * 40)
    with pytest.raises(PositionError, match="not of this deck"):
        italian.random_hand(1, 0, 1, 1, list(range(40)))
    for dealer, leader, step in ((2, 1, 1), (0, -1, 1), (0, 1, 0), (0, 1, 3)):
        with pytest.raises(ValueError, match="seats from 0 to 1"):
            gen.random_hand(1, dealer, leader, step)
    assert core.whole_hand(rules("african_cassino_3p", leftovers_to="nobody"), 1) is None
    with pytest.raises(ValueError, match="dealer"):
        core.whole_hand(gen.rules, 1, 2)


def test_playouts_take_a_python_policy_in_a_compound_system(monkeypatch: pytest.MonkeyPatch) -> None:
    def first(state: object) -> int:      # the first legal turn (an index)
        return 0

    mine = cassino.playouts("african_cassino_2p", 2, seed=3, players=(first, "random"))
    monkeypatch.setattr("cassino.game._state_class", lambda r=None: RefState)
    ref = cassino.playouts("african_cassino_2p", 2, seed=3, players=(first, "random"))
    assert np.array_equal(mine.points, ref.points) and np.array_equal(mine.moves, ref.moves)
    assert set(mine.cards.sum(axis=1)) == {52} and mine.players[0] == "first"


def test_threads_play_compound_hands_with_a_generator_each() -> None:
    """A generator serves one search at a time and runs Python code between its C parts:
    each thread has its own, and threaded playouts are the single thread's."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    r = rules("african_cassino_2p")
    gens: list[object] = []
    threads = [threading.Thread(target=lambda: gens.append(core.turn_generator(r)))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with ThreadPoolExecutor(2) as pool:
        hands = list(pool.map(lambda seed: core.random_hand(r, seed), range(8)))
    assert core.turn_generator(r) is core.turn_generator(r)
    assert hands == [core.random_hand(r, seed) for seed in range(8)]
    one = cassino.playouts("african_cassino_2p", 8, seed=2, players=("random", "random"))
    two = cassino.playouts("african_cassino_2p", 8, seed=2, players=("random", "random"),
                           threads=2)
    assert np.array_equal(one.points, two.points) and np.array_equal(one.moves, two.moves)
    assert len(gens) == 2 and gens[0] is not gens[1] and core.turn_generator(r) not in gens


def _step_random_hand(r: cassino.Rules, seed: int, dealer: int) -> tuple[list[int], int]:
    """A random hand played turn by turn on the core's CompoundState (its own path)."""
    rng = Rng(seed)
    from cassino._rng import shuffled_deck
    state = core.CompoundState.new_hand(r, dealer, r.deck_cards(shuffled_deck(rng, r.num_ids)))
    n = 0
    while not state.is_over:
        state._random_turn(rng)
        n += 1
    return state.hand_score().totals(), n


C_OPTIONS = [(s, {}) for s in SYSTEMS] + [
    (s, o) for s, o in OPTIONS if core._c_hands(rules(s, **o))]


def test_whole_hands_in_c_take_every_system_and_option() -> None:
    assert len(C_OPTIONS) == len(SYSTEMS) + len(OPTIONS)
    assert core._c_hands(rules("italian_house_cassino", capture_extent="maximal"))
    assert not core._c_hands(rules("african_cassino_3p", leftovers_to="nobody"))
    assert not core._c_hands(rules("cassino_standard"))


MAXIMAL = [("italian_house_cassino", {"capture_extent": "maximal"}),
           ("italian_house_cassino", {"capture_extent": "maximal", "players": 4}),
           ("italian_house_cassino", {"capture_extent": "maximal", "players": 3}),
           ("italian_house_cassino", {"capture_extent": "maximal", "trail": "any"})]


@pytest.mark.parametrize(("system", "options"), MAXIMAL)
def test_maximal_captures_are_counted_listed_and_played_as_the_reference(
        system: str, options: dict[str, object]) -> None:
    """capture_extent=maximal (AMB-68's option) in C: the core drops the turns that could
    take more (a build of the capture's value left, or loose cards making the capture's
    value or that of a build the turn augmented) and counts, lists and picks the rest as
    the reference does; a position where a capture value is ambiguous (an Ace taking
    Aces) is left to the reference."""
    r = rules(system, **options)
    states = positions(r, range(2), 20)
    assert len(states) > 30
    dropped = 0
    for s in states:
        mine = core.CompoundState.from_position(s.to_position())
        assert mine._core_counts()
        assert mine.count_moves() == s.count_moves()
        assert mine.legal_moves() == s.legal_moves() if s.count_moves() < 5000 else True
        free = core.CompoundState.from_position(replace(
            s.to_position(), rules=rules(system, **{**options, "capture_extent": "free"})))
        dropped += free.count_moves() > mine.count_moves()
        for i in range(0, s.count_moves(), max(1, s.count_moves() // 7)):
            assert mine.move_at(i) == s.move_at(i)
    assert dropped > 0                               # (short captures were there to drop)
    for seed in range(4):
        dealer = seed % r.players
        assert core.random_hand(r, seed, dealer) == reference_state.random_hand(r, seed, dealer)


def test_an_ambiguous_capture_value_under_maximal_is_the_least_sequences() -> None:
    """Italian: the A of coins takes the loose A of clubs at 1 or at 11 (two step
    sequences of one turn); whether the turn could take more is judged at the value of its
    least sequence, as the reference lists it."""
    r = rules("italian_house_cassino", capture_extent="maximal")
    pos = replace(Position.from_text(ITALIAN_ACE), rules=r)
    mine, ref = core.CompoundState.from_position(pos), RefState.from_position(pos)
    gen = core.turn_generator(r)
    assert any(v == -2 for *_, v in gen.turns(mine._turn_table(), 0))
    assert gen.count_state(mine) == mine.count_moves() == ref.count_moves() > 0
    assert mine.legal_moves() == ref.legal_moves()
    for index in range(ref.count_moves()):
        a, b = mine.clone(), ref.clone()
        a._random_turn(_FixedRng(index))
        b._push_random(_FixedRng(index))
        assert a.to_position() == b.to_position(), index
    assert core.whole_hand(r, 1) is not None


@pytest.mark.parametrize(("system", "options"), C_OPTIONS)
def test_whole_hands_in_c_are_the_turn_by_turn_hands(
        system: str, options: dict[str, object]) -> None:
    """_TurnGen.random_hand (the deal, the turns, the insist decisions, the piles and the
    leftovers in C) plays the hands the CompoundState plays turn by turn, whichever seat
    deals: the same points and moves (the decisions counted)."""
    r = rules(system, **options)
    for seed in range(12):
        dealer = seed % r.players
        assert core.compound_random_hand(r, seed, dealer) == _step_random_hand(r, seed, dealer)


def test_the_reference_plays_the_italian_hands_whole_hands_in_c_leave() -> None:
    """An Italian hand whose insist search passes its limit is left to the reference:
    whole_hand says None, and compound_random_hand plays it on the CompoundState. A turn
    that captures at an ambiguous value (an Ace taking Aces) is played in C at its least
    step sequence's value, which decides what an insist may extend."""
    r = rules("italian_house_cassino")
    assert [seed for seed in range(60) if core.whole_hand(r, seed) is None] == []
    for seed in (39, 51):       # (hands that draw such a turn: the reference's hands in C)
        assert core.whole_hand(r, seed) is not None
        assert core.random_hand(r, seed, 0) == reference_state.random_hand(r, seed, 0)
    played = list(range(20))
    gen = core.turn_generator(r)
    gen._limits(insist_steps=0)
    try:
        searched = [seed for seed in played if core.whole_hand(r, seed) is None]
        assert searched
        assert core.compound_random_hand(r, searched[0]) == _step_random_hand(r, searched[0], 0)
    finally:
        gen._limits()
    assert core.whole_hand(r, searched[0]) is not None


def test_whole_hands_in_c_draw_past_64_bits_as_python() -> None:
    """The draw a turn makes when its turns (the orders counted) pass 64 bits, taken on
    every turn: Python's Rng, the canonical order and _order_at give the same hands."""
    r = rules("african_cassino_3p")
    expected = [core.compound_random_hand(r, seed) for seed in range(6)]
    gen = core.turn_generator(r)
    gen._limits(wide_draws=True)
    try:
        assert [core.compound_random_hand(r, seed) for seed in range(6)] == expected
    finally:
        gen._limits()


@pytest.mark.parametrize("system", SYSTEMS)
def test_builds_from_every_subset_agree_with_builds_from_groups(system: str) -> None:
    """The new builds of a value come from its groups and their unions, or, past the limits
    of those, from every subset of the loose cards: both find the same turns."""
    r = rules(system)
    gen = core.turn_generator(r)
    states = positions(r, range(1), limit=40)
    expected = [(gen.count(s._turn_table(), s.to_move), set(gen.ends(s._turn_table(), s.to_move)))
                for s in states]
    for groups, unions in ((0, 0), (2, 3), (256, 1)):
        gen._limits(groups, unions)
        try:
            got = [(gen.count(s._turn_table(), s.to_move),
                    set(gen.ends(s._turn_table(), s.to_move))) for s in states]
        finally:
            gen._limits()
        assert got == expected, (groups, unions)
    with pytest.raises(ValueError, match="limits"):
        gen._limits(-1, 0)


@pytest.mark.parametrize("system", SYSTEMS)
def test_random_playouts_of_whole_hands_in_c_are_the_references(
        system: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Random players at every seat: cassino.playouts plays the hands wholly in C
    (whole_hand; the Italian layouts redealt first), with the reference's points per
    category, cards and moves."""
    calls: list[int] = []
    real = core.whole_hand

    def counted(*args: object) -> object:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(core, "whole_hand", counted)
    players = ("random",) * rules(system).players
    mine = cassino.playouts(system, 6, seed=11, players=players)
    assert len(calls) == 6
    monkeypatch.setattr("cassino.game._state_class", lambda r=None: RefState)
    ref = cassino.playouts(system, 6, seed=11, players=players)
    for name in ("points", "cards", "moves", "dealer"):
        assert np.array_equal(getattr(mine, name), getattr(ref, name)), name
    assert set(mine.cards.sum(axis=1)) == {rules(system).deck_size}


# 12 captured cards under the capture: 12! orders of a turn, and more turns besides
_ORDERS_TEXT = (
    "african_cassino_2p 0 0 AH,3C,4D,6D,8H,9H,9D,9C,10S,JC/2D,3H,4S,5S,5H,8C,10H,10D,QD JH,KS,"
    "(AS:14|AD:1+KD|2S+5D+7S|2C+QS|6S+8S|6C+8D=14@0) 5C,4C,4H,KC,7C,2H,6H,JD,7D,KH,QH,3D,9S,"
    "QC/AC,3S,10C,7H,JS - 0 - 0,0")


def test_a_random_players_turn_is_checked_without_listing_the_turns() -> None:
    """A random player among others draws from every turn by index (game.player_moves);
    checking its answer (players.choose_move) asks the state, where walking 479 million
    turns to find it ran out of memory."""
    from cassino.game import player_moves
    from cassino.players import RandomPlayer, View, choose_move

    state = cassino.State(Position.from_text(_ORDERS_TEXT))
    made = []

    class Counted:
        """The state, counting the turns made by index."""

        def __getattr__(self, name: str) -> object:
            return getattr(state, name)

        def move_at(self, i: int) -> object:
            made.append(i)
            assert len(made) < 10, "the turns were walked"
            return state.move_at(i)

    moves = player_moves(Counted(), RandomPlayer())
    assert len(moves) == state.num_moves() == 479_001_603
    move = choose_move(RandomPlayer(seed=2), View.of(state, 0), moves)
    assert len(made) == 1 and move == state.move_at(made[0])
    other = cassino.State(Position.from_text(AFRICAN_PERFT[0][0]))
    assert other.move_at(0) not in moves and "AH" not in moves    # type: ignore[comparison-overlap]
    assert len(made) == 1
    # past sys.maxsize turns (21 captured cards: 21! orders) len() cannot say how many;
    # choose_move's emptiness test asks bool() instead
    state = cassino.State(Position.from_text(_HUGE_TEXT))
    moves = player_moves(state, RandomPlayer())
    assert state.num_moves() > sys.maxsize and moves
    with pytest.raises(OverflowError):
        len(moves)
    assert state.is_legal(choose_move(RandomPlayer(seed=2), View.of(state, 0), moves))


# a frozen build of 20 cards and a loose ace, both taken by AS (an ace of 14)
_HUGE_TEXT = (
    "african_cassino_2p 0 0 AS,5S,6S/5H,6H,7D AH,(2S+QS|2H+QH|2D+QD|2C+QC|3S+JS|3H+JH|3D+JD|"
    "3C+JC|4S+10S|4H+10H=14@0) AD,AC,4D,4C,5D,5C,6D,6C,7S,7H/7C,8S,8H,8D,8C,9S,9H,9D,9C,10D,"
    "10C,KS,KH,KD,KC - 1 - 0,0")


# -- the players judge a compound turn by the table it leaves ------------------------------------
@pytest.mark.parametrize("system", SYSTEMS)
def test_turn_table_is_the_table_a_turn_leaves(system: str) -> None:
    """State.turn_table(move), which the greedy player judges a turn by, is the table the
    state has after the push, for every turn of positions of a random hand."""
    r = rules(system)
    checked = 0
    for s in positions(r, range(1, 2), limit=12):
        state = cassino.State(s.to_position())
        for m in state.turns_one_order():
            end = state.turn_table(m)
            state.push(m)
            if not state.is_over:
                assert end.key() == state._turn_table().key(), m
                checked += 1
            state.pop()
    assert checked > 100
    with pytest.raises(cassino.IllegalMoveError):
        state.turn_table(cassino.Move.parse("2C"))      # (not in the hand)


# the mover holds 10D and 3C, the next seat 3H and 5H; 10S lies on the table
_CLEAR_TEXT = (
    "african_cassino_2p 0 0 3C,10D/3H,5H 10S AS,AH,AD,AC,2S,2H,2D,2C,3S,3D,4S,4H,4D,4C,5S,5D,"
    "5C,6S,6H,6D/6C,7S,7H,7D,7C,8S,8H,8D,8C,9S,9H,9D,9C,10H,10C,JS,JH,JD,JC,QS,QH,QD,QC,KS,KH,"
    "KD,KC - 1 - 0,0")


def test_greedy_judges_a_compound_turn_by_what_it_takes_and_leaves() -> None:
    """A capture gains the weight of its cards (10D 2 + 0.2, 10S 0.2 + 0.2 a spade); a trail
    of 3C loses what the next seat, which surely holds a 3 (both unseen cards are in its
    hand), takes with it (3C's weight and a card); a trail of 10D leaves nothing it can
    take. (A compound turn was scored as a build of value 0 before.)"""
    from cassino.greedy import CARD_WEIGHT, GreedyPlayer, card_weights
    from cassino.players import View

    state = cassino.State(Position.from_text(_CLEAR_TEXT))
    ws = card_weights(state.rules)
    view = View.of(state, 0)
    g = GreedyPlayer(seed=1)
    got = {str(m): g.evaluate(view, m) for m in state.turns_one_order()}
    assert got == {
        "10Dx10S": pytest.approx(ws[parse_card("10D")] + ws[parse_card("10S")]),
        "3C": pytest.approx(-(ws[parse_card("3C")] + CARD_WEIGHT)),
        "10D": 0.0,
    }
    assert str(g.choose(view, state.turns_one_order())) == "10Dx10S"
    # with KD in the hand instead of the pile, 3C and 10S build 13: the build counts whole
    # for its owner (COMPOUND_BUILD_DISCOUNT), and the next seat can take nothing of it
    text = _CLEAR_TEXT.replace("3C,10D/", "3C,10D,KD/").replace("KS,KH,KD,KC", "KS,KH,KC")
    state = cassino.State(Position.from_text(text))
    got = {str(m): g.evaluate(View.of(state, 0), m) for m in state.turns_one_order()}
    assert got["3C+10S=13"] == pytest.approx(ws[parse_card("3C")] + ws[parse_card("10S")])
    # an opponent's pile top built in: his pile loses KC and the build gains it
    assert got["3C+10S=13; +3C,10S,KC=13"] == pytest.approx(
        got["3C+10S=13"] + 2 * ws[parse_card("KC")])


def test_greedy_judges_the_insist_decision_one_ply_deep() -> None:
    """Insisting gives the mover his best extension (2C and a 5: 0.4), accepting nothing;
    the mover's extensions gain the weight of what they add."""
    from cassino.greedy import GreedyPlayer
    from cassino.players import View

    state = cassino.State(Position.from_text(ITALIAN_PERFT[-1][0]))
    got = {str(m): GreedyPlayer().evaluate(View.of(state, state.to_move), m)
           for m in state.turns_one_order()}
    assert got == {"pass": 0.0, "insist": pytest.approx(-0.4)}
    state.push(cassino.Move.insist())
    got = {str(m): GreedyPlayer().evaluate(View.of(state, state.to_move), m)
           for m in state.turns_one_order()}
    assert got == {"x2C,5S": pytest.approx(0.4), "x2C,5B": pytest.approx(0.4)}


@pytest.mark.parametrize("system", SYSTEMS)
def test_ismcts_plays_compound_turns(system: str) -> None:
    """ismcts searches compound turns (in Python: the turns with their captured cards in
    one order, greedy scores from the table a turn leaves): a legal turn, the same for
    the same seed, at the first positions of a random hand; in the house variant the
    insist decision and the extension too."""
    from cassino.ismcts import ISMCTSPlayer
    from cassino.players import View

    def check(state: cassino.State) -> cassino.Move:
        moves = state.turns_one_order()
        view = View.of(state, state.to_move)
        a = ISMCTSPlayer(seed=3, iterations=6)
        move = a.choose(view, moves)
        assert state.is_legal(move) and move in moves
        assert ISMCTSPlayer(seed=3, iterations=6).choose(view, moves) == move
        assert a.last_iterations == 6 or len(moves) == 1
        return move

    state = cassino.State.deal(rules(system), 0, 7)
    for _ in range(6):
        state.push(check(state))
    if system == "italian_house_cassino":
        state = cassino.State(Position.from_text(ITALIAN_PERFT[-1][0]))
        assert state.phase == "insist"
        check(state)
        state.push(cassino.Move.insist())
        assert state.phase == "extend" and len(state.turns_one_order()) > 1
        check(state)


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_sampled_world_gives_every_build_owner_a_card_of_its_value(system: str) -> None:
    """View.sample_world of a compound system deals the hidden hands so that the owner of
    every build holds a card of its value, as the rules make him: a world without it
    leaves the owner no legal turn (about a quarter of the worlds did before)."""
    from cassino.players import View

    r = rules(system)
    vals = compound_rules(r).vals
    worlds = owned = 0
    for s in positions(r, range(2, 3), limit=40):
        state = cassino.State(s.to_position())
        for seat in range(r.players):
            w = View.of(state, seat).sample_world(Rng(seat + 1))
            worlds += 1
            for b in w.to_position().builds:
                owner = b.owners.bit_length() - 1
                owned += owner != seat
                assert any(b.value in vals(c) for c in w.hand(owner)), (w, b)
            assert w.is_over or w.count_moves() > 0
    assert worlds >= 40 and owned > 10


@pytest.mark.parametrize(("system", "options"), [(s, {}) for s in SYSTEMS] + OPTIONS)
def test_a_random_walk_of_live_steps_ends_in_a_listed_turn(
        system: str, options: dict[str, object]) -> None:
    """``_walk_cost`` (scripts/compound_turn_cost.py's cheapest random turn) walks only
    steps some legal turn continues: every walk ends in a turn the generator lists, each
    walk takes a step at least, and different seeds reach different turns."""
    r = rules(system, **options)
    gen = core.turn_generator(r)
    reached = 0
    for s in positions(r, range(1, 3), 25):
        ends = {e for _, _, e in gen.list_state(s, True)}
        got = set()
        for seed in range(12):
            steps, end = gen._walk_cost(s, 1 + seed % 3, seed)
            assert end in ends
            assert steps >= 1 + seed % 3 or r.table_only_build == "turn"
            got.add(end)
        reached += len(got) > 1
        assert len(got) <= len(ends)
    assert reached > 10
    with pytest.raises(ValueError, match="at least 1"):
        gen._walk_cost(s, 0, 1)
