"""Property tests over random seeded hands: conservation, canonical move lists, push/pop,
clone, pickle, and rejection of illegal moves."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cassino
from cassino import IllegalMoveError, Move, MoveKind, Rng
from cassino.cards import ALL_CARDS, CardSet
from cassino.position import card_value
from conftest import option_sets

SEEDS = st.integers(0, 2**63 - 1)


def card_locations(p: cassino.Position) -> list[int]:
    """Masks of every place a card can be."""
    masks = [*p.hands, p.loose, *(b.cards for b in p.builds)]
    masks += [sum(1 << c for c in pile) for pile in p.piles]
    masks += [sum(1 << c for c in p.stock), sum(1 << c for c in p.discard)]
    return masks


def assert_all_cards_accounted(p: cassino.Position) -> None:
    masks = card_locations(p)
    assert sum(m.bit_count() for m in masks) == 52
    union = 0
    for m in masks:
        union |= m
    assert union == ALL_CARDS
    # piles, stock and discard hold no duplicates
    assert sum(len(x) for x in p.piles) + len(p.stock) + len(p.discard) == sum(
        len(set(x)) for x in p.piles
    ) + len(set(p.stock)) + len(set(p.discard))


def assert_canonical_moves(s: Any) -> list[Move]:
    moves = list(s.legal_moves())
    assert moves == sorted(set(moves))
    assert len(moves) == s.count_moves() == s.num_moves()
    assert [s.move_at(i) for i in range(len(moves))] == moves
    if not s.is_over:
        assert moves, "a live position always has a legal move"
    hand = s.to_position().hands[s.to_move] if not s.is_over else 0
    for m in moves:
        assert hand >> m.card & 1
    return moves


def walk(seed: int, choice_seed: int, options: dict[str, Any], check: Any) -> Any:
    """Deal from ``seed`` and play random legal moves, calling ``check(state, moves)`` first."""
    s = cassino.new_hand("cassino_standard", seed=seed, **options)
    rng = Rng(choice_seed)
    plies = 0
    while not s.is_over:
        moves = list(s.legal_moves())
        check(s, moves, rng)
        s.push(moves[rng.below(len(moves))])
        plies += 1
    assert plies == 48  # every dealt card is played exactly once
    return s


@given(seed=SEEDS, choice=SEEDS, options=option_sets())
def test_cards_conserved_and_moves_canonical(seed, choice, options):
    def check(s, moves, rng):
        assert_all_cards_accounted(s.to_position())
        assert assert_canonical_moves(s) == moves

    s = walk(seed, choice, options, check)
    p = s.to_position()
    assert_all_cards_accounted(p)
    assert p.table_mask == 0 and not any(p.hands) and not p.stock
    assert s.ply == 48 and len(s.history) == 48
    assert list(s.legal_moves()) == [] and s.count_moves() == 0


def expected_total(s: Any) -> int:
    p = s.to_position()
    piles = [len(x) for x in p.piles]
    total = 8 if piles[0] == piles[1] else 11
    return total + len(p.sweep_order) * (1 if p.rules.sweeps else 0)


@given(seed=SEEDS, choice=SEEDS, options=option_sets())
def test_hand_points_total_eleven(seed, choice, options):
    s = walk(seed, choice, options, lambda *a: None)
    p = s.to_position()
    hs = s.hand_score()
    if p.discard:  # nobody captured at all: nothing scores
        assert hs.totals() == [0, 0]
        return
    assert sum(hs.totals()) == expected_total(s)
    piles = [len(x) for x in p.piles]
    assert sum(piles) == 52
    assert (sum(hs.totals()) - (len(p.sweep_order) if p.rules.sweeps else 0)) == (
        8 if piles[0] == 26 else 11
    )


@given(seed=SEEDS, choice=SEEDS, options=option_sets())
def test_playout_and_random_hand_totals(seed, choice, options):
    r = cassino.rules("cassino_standard", **options)
    s = cassino.new_hand(r, seed=seed)
    twin = s.clone()
    hs = s.playout(choice)
    assert s.is_over and s.ply == 48
    assert twin.playout(choice) == hs  # seeded: the same hand again
    assert twin == s
    if not s.to_position().discard:
        assert sum(hs.totals()) == expected_total(s)
    # random_hand deals from Rng(seed) and keeps drawing move indices from the same Rng
    totals, n = cassino.random_hand(r, seed)
    rng = Rng(seed)
    again = cassino.State.new_hand(r, 0, cassino.shuffled_deck(rng))
    while not again.is_over:
        moves = again.legal_moves()
        again.push(moves[rng.below(len(moves))])
    assert (totals, n) == (again.hand_score().totals(), 48)


@given(seed=SEEDS, choice=SEEDS, options=option_sets())
def test_pop_restores_push(seed, choice, options):
    def check(s, moves, rng):
        before = s.to_position()
        text = s.to_json()
        ply = s.ply
        # every legal move is accepted by push (a sample of them on wide positions)
        sample = moves if len(moves) <= 3 else [moves[rng.below(len(moves))] for _ in range(3)]
        for m in sample:
            assert s.push(m) == m
            assert s.peek() == m and s.ply == ply + 1 and s.history[-1] == m
            assert s.to_position() != before
            assert s.pop() == m
            assert s.to_position() == before
            assert s.to_json() == text
            assert s.ply == ply
        # the index API pushes the same moves
        n = s.num_moves()
        i = rng.below(n)
        s.push_index(i)
        assert s.peek() == moves[i]
        s.pop()
        assert s.to_position() == before

    walk(seed, choice, options, check)


@given(seed=SEEDS, choice=SEEDS, options=option_sets(), cut=st.integers(0, 47))
def test_pop_all_the_way_back(seed, choice, options, cut):
    s = cassino.new_hand("cassino_standard", seed=seed, **options)
    root = s.to_position()
    positions = [root]
    rng = Rng(choice)
    while not s.is_over and s.ply < cut:
        moves = s.legal_moves()
        s.push(moves[rng.below(len(moves))])
        positions.append(s.to_position())
    history = s.history
    while s.ply:
        assert s.to_position() == positions[s.ply]
        assert s.pop() == history[s.ply]
    assert s.to_position() == root
    assert s == cassino.new_hand("cassino_standard", seed=seed, **options)
    with pytest.raises(IndexError):
        s.pop()
    with pytest.raises(IndexError):
        s.peek()


def _play(s: Any, rng: Rng, n: int) -> None:
    for _ in range(n):
        if s.is_over:
            return
        moves = s.legal_moves()
        s.push(moves[rng.below(len(moves))])


@given(seed=SEEDS, choice=SEEDS, options=option_sets(), cut=st.integers(0, 40))
def test_clone_is_independent(seed, choice, options, cut):
    s = cassino.new_hand("cassino_standard", seed=seed, **options)
    rng = Rng(choice)
    _play(s, rng, cut)
    c = s.clone()
    assert c == s and c is not s
    assert c.history == s.history and c.ply == s.ply
    assert c.to_position() == s.to_position()
    snap = s.to_position()
    _play(c, Rng(choice + 1), 5)
    assert s.to_position() == snap  # playing on the clone leaves the original alone
    c_snap = c.to_position()
    _play(s, Rng(choice + 2), 5)
    assert c.to_position() == c_snap
    # the clone carries the undo stack
    c2 = s.clone()
    while c2.ply:
        c2.pop()
    assert c2 == cassino.new_hand("cassino_standard", seed=seed, **options)


@given(seed=SEEDS, choice=SEEDS, options=option_sets(), cut=st.integers(0, 48))
def test_pickle_round_trip(seed, choice, options, cut):
    s = cassino.new_hand("cassino_standard", seed=seed, **options)
    _play(s, Rng(choice), cut)
    t = pickle.loads(pickle.dumps(s))
    assert type(t) is type(s)
    assert t == s
    assert t.to_position() == s.to_position()
    assert t.history == s.history and t.ply == s.ply
    assert list(t.legal_moves()) == list(s.legal_moves())
    while s.ply:
        assert t.pop() == s.pop()
        assert t == s
    assert t.ply == 0
    with pytest.raises(IndexError):
        t.pop()


def _illegal_candidates(s: Any, rng: Rng) -> list[Move]:
    """A few moves that must be rejected in ``s`` (the caller skips any that are legal)."""
    p = s.to_position()
    hand = list(CardSet(p.hands[s.to_move]))
    other = [c for c in range(52) if not p.hands[s.to_move] >> c & 1]
    out = [Move.trail(other[rng.below(len(other))])]  # a card not in hand
    card = hand[rng.below(len(hand))]
    v = card_value(card)
    # a capture of one loose card of another value: never a capture group
    wrong = [c for c in CardSet(p.loose) if card_value(c) != v or (v == 0 and c // 4 != card // 4)]
    if wrong:
        out.append(Move.capture(card, 1 << wrong[rng.below(len(wrong))]))
    # a capture of the whole table whose total is no multiple of the card's value
    total = sum(card_value(c) for c in CardSet(p.table_mask))
    if p.table_mask and v and total % v:
        out.append(Move.capture(card, p.table_mask))
    if v:
        out.append(Move(card, MoveKind.BUILD, 0, v))  # a build of nothing
        out.append(Move(card, MoveKind.BUILD, p.loose, 11))  # over the maximum
    return out


@given(seed=SEEDS, choice=SEEDS, options=option_sets())
def test_illegal_moves_are_rejected_and_leave_the_state_unchanged(seed, choice, options):
    def check(s, moves, rng):
        if rng.below(3):  # every third ply on average: explain() is not cheap
            return
        before = s.to_position()
        legal = set(moves)
        for m in _illegal_candidates(s, rng):
            if m in legal:
                continue
            assert not s.is_legal(m)
            why = s.explain(m)
            assert isinstance(why, str) and why
            with pytest.raises(IllegalMoveError):
                s.push(m)
            with pytest.raises(IllegalMoveError):
                s.push(str(m))
            assert s.to_position() == before
        # and legal moves are legal
        for m in moves[:3]:
            assert s.is_legal(m) and s.explain(m) is None

    walk(seed, choice, options, check)


@given(seed=SEEDS, choice=SEEDS, cut=st.integers(0, 44))
def test_perft_is_consistent(seed, choice, cut):
    s = cassino.new_hand("cassino_standard", seed=seed)
    _play(s, Rng(choice), cut)
    assert s.perft(0) == 1
    assert s.perft(1) == s.count_moves()
    total = 0
    for m in s.legal_moves():
        s.push(m)
        total += s.perft(1)
        s.pop()
    assert s.perft(2) == total


def test_finished_state_rejects_moves():
    s = cassino.new_hand("cassino_standard", seed=3)
    s.playout(5)
    assert s.is_over
    assert s.perft(3) == 1
    with pytest.raises(IllegalMoveError, match="the hand is over"):
        s.push(Move.trail(0))


def test_global_random_state_does_not_matter():
    import random

    random.seed(1)
    a = cassino.random_hand(cassino.rules("cassino_standard"), 99)
    random.seed(2)
    random.random()
    b = cassino.random_hand(cassino.rules("cassino_standard"), 99)
    assert a == b


@pytest.mark.parametrize(("system", "options"), [
    ("cassino_standard", {"michigan": True}), ("mulle", {}), ("cassino_draw", {}),
    ("elewenjewe_professional", {"esun": True, "esun_penalty": "unless_creator_took"})])
def test_a_clone_keeps_its_history_when_the_original_pops_and_pushes(system, options):
    # the clone shares no mutable part of its undo stack with the original: the original's
    # pops and pushes (Mulle captures, Michigan defaults, deals, Esun penalties) leave the
    # positions the clone pops back to unchanged
    r = cassino.rules(system, **options)
    for seed in range(6):
        s = cassino.State.deal(r, 0, seed)
        rng = Rng(seed)
        seen = [s.to_position()]
        while not s.is_over and s.ply < 30:
            moves = s.legal_moves()
            s.push(moves[rng.below(len(moves))])
            seen.append(s.to_position())
        c = s.clone()
        for _ in range(min(s.ply, 12)):
            s.pop()
        _play(s, Rng(seed + 1), 12)     # other moves over the same undo snapshots
        for _ in range(c.ply):
            assert c.to_position() == seen[c.ply]
            c.pop()
        assert c.to_position() == seen[0]
