"""Push, pop and the game flow of the core's CompoundState (core/compound.pxi) against the
reference State: a push makes the end table the core found for the turn, then the core's
flow (the next seat, a later deal, the leftovers, the insist decision a turn leaves); a
pop restores the core's snapshot. Whole random games of the four systems and the options
that change the flow, every position compared, pops checked on the way."""

from __future__ import annotations

import os
import random

import pytest

import cassino
from cassino._reference import State as RefState

core = pytest.importorskip("cassino._core", reason="the Cython core is not built")
if os.environ.get("CASSINO_PURE_PYTHON", "") not in ("", "0"):
    pytest.skip("the core's CompoundState is tested in the core pass of the suite",
                allow_module_level=True)

CASES = [
    ("african_cassino_3p", {}),
    ("african_cassino_2p", {}),
    ("african_cassino_partnership", {}),
    ("italian_house_cassino", {}),
    ("italian_house_cassino", {"players": 3}),
    ("italian_house_cassino", {"players": 4}),
    ("african_cassino_3p", {"pile_order": "second"}),
    ("italian_house_cassino", {"capture_extent": "maximal"}),
    ("italian_house_cassino", {"capture_extent": "free", "players": 3}),
    ("african_cassino_2p", {"pile_order": "second"}),
    ("african_cassino_partnership", {"partner_builds": "maker_owns"}),
]


def _same(a: object, b: object) -> None:
    assert a.to_position() == b.to_position()        # type: ignore[attr-defined]
    assert a.is_over == b.is_over                      # type: ignore[attr-defined]
    assert a.last_capturer == b.last_capturer          # type: ignore[attr-defined]


def _pick(s: object, rng: random.Random, how: int) -> object:
    """A legal move of ``s``: listed, by index, or read from its text."""
    n = s.count_moves()                               # type: ignore[attr-defined]
    i = rng.randrange(n)
    if how == 0 and n <= 2000:
        return s.legal_moves()[i]                     # type: ignore[attr-defined]
    m = s.move_at(i)                                  # type: ignore[attr-defined]
    return s.parse_move(str(m)) if how == 2 else m    # type: ignore[attr-defined]


@pytest.mark.parametrize(("system", "options"), CASES)
def test_push_and_pop_make_the_references_positions(system: str, options: dict[str, object]
                                                     ) -> None:
    r = cassino.rules(system, **options)
    for seed in range(3):
        got = core.CompoundState.deal(r, seed % r.players, seed)
        ref = RefState.deal(r, seed % r.players, seed)
        rng = random.Random(seed)
        before = [got.to_position()]
        while not got.is_over:
            if got.insist:      # (the decision's moves: the extensions are the core's)
                assert got.legal_moves() == ref.legal_moves()
            m = _pick(got, rng, rng.randrange(3))
            got.push(m)
            ref.push(str(m))
            _same(got, ref)
            before.append(got.to_position())
            if rng.random() < 0.25:                   # (pop, check, push again)
                got.pop()
                ref.pop()
                assert got.to_position() == before[-2]
                _same(got, ref)
                got.push(m)
                ref.push(str(m))
                _same(got, ref)
        assert ref.is_over
        assert got.hand_score() == ref.hand_score()
        while len(before) > 1:                        # (every pop back to the deal)
            got.pop()
            before.pop()
            assert got.to_position() == before[-1]
        assert got.slow_pushes == 0, "a turn was pushed from the reference's Turn table"


def test_the_extensions_of_an_insist_are_the_references() -> None:
    """The maximal extensions the core lists (_TurnGen.extensions) against the
    reference's ``african.extensions``, on every insist decision of random hands."""
    seen = 0
    for players in (2, 3, 4):
        r = cassino.rules("italian_house_cassino", players=players)
        for seed in range(40):
            s = core.CompoundState.deal(r, seed % players, seed)
            rng = cassino._rng.Rng(seed)
            while not s.is_over:
                if s.insist:
                    got = s._extensions()
                    assert got == RefState._extensions(s)
                    seen += 1 + len(got)
                s._random_turn(rng)
    assert seen > 50


def test_every_move_of_an_insist_decision_is_pushed_and_popped_as_the_references() -> None:
    """Accept, insist and every maximal extension, pushed and popped on the core's State
    and the reference's, on the insist decisions of random hands (AMB-68)."""
    extended = 0
    for players in (2, 3):
        r = cassino.rules("italian_house_cassino", players=players)
        for seed in range(16):
            got = core.CompoundState.deal(r, seed % players, seed)
            ref = RefState.deal(r, seed % players, seed)
            rng = random.Random(seed)
            while not got.is_over:
                if got.insist:
                    for d in got.legal_moves():           # (pass, insist)
                        got.push(d)
                        ref.push(str(d))
                        _same(got, ref)
                        if got.phase == "extend":
                            exts = got.legal_moves()
                            assert exts == ref.legal_moves()
                            for e in exts:
                                got.push(e)
                                ref.push(str(e))
                                _same(got, ref)
                                got.pop()
                                ref.pop()
                                _same(got, ref)
                                extended += 1
                        got.pop()
                        ref.pop()
                        _same(got, ref)
                m = got.move_at(rng.randrange(got.count_moves()))
                got.push(m)
                ref.push(str(m))
                _same(got, ref)
    assert extended >= 5


def test_push_end_refuses_a_table_the_state_cannot_reach_and_changes_nothing() -> None:
    r = cassino.rules("african_cassino_3p")
    gen = core.turn_generator(r)
    s = core.CompoundState.deal(r, 0, 1)
    before = s.to_position()
    with pytest.raises(ValueError, match="not a turn state"):
        gen.push_end(s, b"junk", (), 0)
    assert s.to_position() == before
    # an end table that takes an opposing pile's top, pushed on a state whose pile is empty
    rng = random.Random(2)
    for _ in range(400):
        if s.is_over:
            break
        for _base, _k, end in gen.list_state(s, True):
            depth = end[33:37]             # (TState.depth: cards taken from each pile)
            if any(depth):
                t = next(i for i, d in enumerate(depth) if d)
                bare = s.clone()
                bare.piles[t] = []
                kept = bare.to_position()
                with pytest.raises(cassino.PositionError, match="more cards than a pile"):
                    gen.push_end(bare, end, (), 0)
                assert bare.to_position() == kept
                return
        s.push(s.move_at(rng.randrange(s.count_moves())))
    raise AssertionError("no turn took a pile's top card")


def test_a_clone_shares_snapshots_that_neither_changes() -> None:
    r = cassino.rules("african_cassino_2p")
    s = core.CompoundState.deal(r, 0, 4)
    rng = random.Random(4)
    start = s.to_position()
    for _ in range(30):          # (past the second deal of the two-player game)
        if s.is_over:
            break
        s.push(_pick(s, rng, 1))
    c = s.clone()
    mid = s.to_position()
    while not c.is_over:
        c.push(_pick(c, rng, 1))
    while c._stack:
        c.pop()
    assert c.to_position() == start
    assert s.to_position() == mid
    while s._stack:
        s.pop()
    assert s.to_position() == start


def test_a_random_hand_of_the_core_state_is_the_references() -> None:
    """``_random_turn`` (the core's pick and flow) against the reference's ``_push_random``."""
    for system in ("african_cassino_2p", "italian_house_cassino"):
        r = cassino.rules(system)
        got = core.CompoundState.deal(r, 1, 9)
        ref = RefState.deal(r, 1, 9)
        rg, rr = cassino._rng.Rng(5), cassino._rng.Rng(5)
        while not ref.is_over:
            got._random_turn(rg)
            ref._push_random(rr)
            assert got.to_position() == ref.to_position()
            assert got.last_capturer == ref.last_capturer
        assert got.is_over


def test_extensions_past_the_limits_of_the_c_search_are_the_references() -> None:
    """An extension search past its limits (lowered here) gives None in C, and the State
    lists the reference's extensions instead."""
    r = cassino.rules("italian_house_cassino")
    gen = core.turn_generator(r)
    fallbacks = 0
    gen._limits(insist_steps=0)
    try:
        for seed in range(40):
            s = core.CompoundState.deal(r, seed % 2, seed)
            rng = cassino._rng.Rng(seed)
            while not s.is_over:
                if s.insist:
                    if gen.extensions(s) is None:
                        fallbacks += 1
                    assert s._extensions() == RefState._extensions(s)
                s._random_turn(rng)
    finally:
        gen._limits()
    assert fallbacks
