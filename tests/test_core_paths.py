"""The core's bitset paths agree with its general paths: multi-valued cards, Diloti.

``gen_multi`` (``core/multi.pxi``) lists a position with a multi-valued card in play through
bitsets of subsets (``multi_small``, small tables), through the output-sensitive group search
once per valuing (``multi_fast``), or through its general path, which tries every valuing of
every subset of the loose cards (``multi_card``). ``State._general_paths(True)`` forces the
general path; these tests compare the three on random games, with trail-heavy play so that tables
of ten loose cards and more come up, and the core with the reference on the same games. A loose ace
with none in the hand takes the ordinary paths (``multi_position``: it counts 1 there, as 14 exceeds
every other card), which the same comparison checks.
``gen_diloti`` (``core/declarations.pxi``) lists small tables by the same bitsets (``dil_card_small``)
and others by a walk over every subset of the loose cards (``dil_card``), which
``_general_paths(True)`` forces too.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import cassino
from cassino import MoveKind

core = pytest.importorskip("cassino._core")

SYSTEMS = ["cassino_royal", "cassino_buckeye", "swedish_kassino", "mulle"]


MAX_LOOSE = 11   # the general path walks every subset of the loose cards


def _positions(system: str, games: int, trail_bias: float) -> Iterator[cassino.State]:
    """The positions of random games with at most MAX_LOOSE loose cards (a game ends
    when its table grows past that)."""
    rules = cassino.rules(system)
    rng = random.Random(f"{system}-{trail_bias}")
    for seed in range(games):
        s = core.State.deal(rules, seed % rules.players, seed)
        while not s.is_over and bin(s.loose).count("1") <= MAX_LOOSE:
            yield s
            moves = s.legal_moves()
            trails = [m for m in moves if m.kind is MoveKind.TRAIL]
            s.push(rng.choice(trails if trails and rng.random() < trail_bias else moves))


@pytest.mark.parametrize("system", [*SYSTEMS, "diloti", "diloti_four_player"])
@pytest.mark.parametrize("trail_bias", [0.0, 0.8])
def test_fast_paths_agree_with_general_path(system: str, trail_bias: float) -> None:
    seen_big = 0
    inert = 0    # a loose ace and none in the hand (the ordinary paths)
    aces = sum(15 << (52 * k) for k in range(2))
    for s in _positions(system, 40, trail_bias):
        inert += bool(s.loose & aces) and not int(s.hand()) & aces
        fast = s.legal_moves()
        fast_count = s.count_moves()
        s._general_paths(True)
        try:
            general = s.legal_moves()
            assert s.count_moves() == len(general)
        finally:
            s._general_paths(False)
        assert fast == general, s.to_json()
        assert fast_count == len(general)
        seen_big += bin(s.loose).count("1") >= 10
    if trail_bias:
        assert seen_big > 0   # the games reach the tables multi_fast serves
    if system != "diloti" and system != "diloti_four_player":
        assert inert > 0


@pytest.mark.parametrize("system", [*SYSTEMS, "diloti", "diloti_four_player"])
def test_big_tables_agree_with_reference(system: str) -> None:
    from cassino import _reference

    checked = 0
    for s in _positions(system, 10, 0.8):
        if bin(s.loose).count("1") < 8:
            continue
        ref = _reference.State.from_position(s.to_position())
        assert s.legal_moves() == ref.legal_moves(), s.to_json()
        checked += 1
    assert checked > 0


def _big_table(system: str, rng: random.Random, nloose: int) -> cassino.Position:
    """A two-player position with ``nloose`` loose cards, four cards in each hand, no build."""
    rules = cassino.rules(system)
    deck = list(range(52))
    rng.shuffle(deck)
    loose, hand0, hand1 = deck[:nloose], deck[nloose : nloose + 4], deck[nloose + 4 : nloose + 8]
    rest = deck[nloose + 8 :]
    stock = rest[: len(rest) // 8 * 8]
    return cassino.Position(
        rules=rules, dealer=1, to_move=0,
        hands=(sum(1 << c for c in hand0), sum(1 << c for c in hand1)),
        loose=sum(1 << c for c in loose), builds=(), piles=(tuple(rest[len(stock) :]), ()),
        stock=tuple(stock), last_capturer=None, sweep_order=(), scores=(0, 0),
    )


@pytest.mark.parametrize("system", ["cassino_royal", "cassino_buckeye", "swedish_kassino"])
def test_tables_past_sixteen_loose_cards_multi(system: str) -> None:
    """Up to FAST_MAX_CARDS (24) loose numeric cards, multi_fast lists a multi-valued position
    (it used to hand 17 and more to the general walk over every subset)."""
    rng = random.Random(system)
    listed = 0
    for k in range(6):
        s = core.State.from_position(_big_table(system, rng, 17 + k % 2))
        fast = s.legal_moves()
        s._general_paths(True)
        try:
            general = s.legal_moves()
        finally:
            s._general_paths(False)
        assert fast == general, s.to_json()
        listed += len(fast)
    assert listed > 1000


def test_tables_past_sixteen_loose_cards_plain() -> None:
    """The plain output-sensitive path (fast_card) on 17 and 18 loose cards, against the
    reference."""
    rng = random.Random("plain")
    for k in range(3):
        pos = _big_table("cassino_standard", rng, 17 + k % 2)
        fast = core.State.from_position(pos).legal_moves()
        assert fast == cassino._reference.State.from_position(pos).legal_moves(), pos.to_json()
