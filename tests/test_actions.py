"""The fixed sub-action space (cassino.actions): exact masks, every move reachable, decoding."""

from __future__ import annotations

import random

import pytest

import cassino
from cassino.actions import ActionSpace, MoveBuilder
from cassino.moves import Move, MoveKind, same_notation

SYSTEMS = cassino.implemented_systems()


def positions(system: str, hands: int, seed: int):
    """Positions of random playouts of ``system``, every ply."""
    rng = random.Random(seed)
    for h in range(hands):
        state = cassino.new_hand(system, seed=seed * 1000 + h)
        while not state.is_over:
            yield state
            state.push(rng.choice(state.legal_moves()))


def walk(b: MoveBuilder, rng: random.Random) -> tuple[Move, tuple[int, ...]]:
    """Complete a move with random legal sub-actions; every prefix must have one."""
    while True:
        acts = b.legal_actions()
        assert acts, f"prefix {b.prefix} has no legal continuation"
        assert acts == sorted(set(acts))
        mask = b.mask()
        assert [a for a, ok in enumerate(mask) if ok] == acts
        move = b.apply(rng.choice(acts))
        if move is not None:
            return move, b.prefix


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_move_reachable_and_decodes(system):
    space = ActionSpace(cassino.rules(system))
    assert space.num_actions <= 300
    rng = random.Random(5)
    kinds = set()
    for state in positions(system, 3, 1):
        moves = state.legal_moves()
        seqs = {space.encode(m) for m in moves}
        assert len(seqs) == len(moves)   # one sequence a move
        for m in moves:
            kinds.add(m.kind)
            seq = space.encode(m)
            assert all(0 <= a < space.num_actions for a in seq)
            b = MoveBuilder(space, moves)
            for a in seq[:-1]:
                assert a in b.legal_actions()
                assert b.apply(a) is None
            assert b.apply(seq[-1]) == m   # the position's own move, build kind and all
            d = space.decode(seq)
            assert d == m if m.kind not in (MoveKind.AUGMENT, MoveKind.INCREASE) \
                else same_notation(d, m)
        # random completions land on legal moves, and the builder resets
        b = MoveBuilder(space, moves)
        for _ in range(3):
            move, seq = walk(b, rng)
            assert move in moves and space.encode(move) == seq
            b.reset()
    # (Laugh and Lie Down has no trailing: a player who cannot capture lies down)
    no_trail = cassino.rules(system).compulsion == "must_or_lie_down"
    assert (MoveKind.LIE_DOWN if no_trail else MoveKind.TRAIL) in kinds and MoveKind.CAPTURE in kinds


def test_special_kinds_are_covered():
    """Plucks and passes (cassino_pluck), two-card captures (callabra) and values fixed at
    the second value (cassino_royal) all go through the builder."""
    seen = {}
    for system, kinds in [("cassino_pluck", {MoveKind.PLUCK, MoveKind.PASS}),
                          ("callabra", {MoveKind.TWO_CARD}),
                          ("cassino_royal", {MoveKind.AUGMENT, MoveKind.INCREASE})]:
        space = ActionSpace(cassino.rules(system))
        for state in positions(system, 6, 2):
            moves = state.legal_moves()
            for m in moves:
                if m.kind in kinds or m.fixed:
                    seen.setdefault(system, set()).add("fixed" if m.fixed else m.kind)
                    b = MoveBuilder(space, moves)
                    out = None
                    for a in space.encode(m):
                        out = b.apply(a)
                    assert out == m
    assert seen["cassino_pluck"] == {MoveKind.PLUCK, MoveKind.PASS}
    assert seen["callabra"] == {MoveKind.TWO_CARD}
    assert seen["cassino_royal"] >= {"fixed", MoveKind.AUGMENT}


def test_layout_and_sizes():
    std = ActionSpace(cassino.rules("cassino_standard"))
    assert std.num_actions == 2 * 52 + 5 + 14
    assert ActionSpace(cassino.rules("cassino_royal")).num_actions == 3 * 52 + 5 + 14
    assert ActionSpace(cassino.rules("mulle")).num_actions == 2 * 104 + 5
    assert ActionSpace(cassino.rules("tablanette")).num_actions == 2 * 52 + 5
    names = [d for _, d in std.table()]
    assert names[0] == "play AS" and names[52] == "take AS"
    assert names[104:109] == ["trail", "capture", "two-card capture", "pluck", "pass"]
    assert names[109] == "build 1" and names[-1] == "build 14"
    royal = ActionSpace(cassino.rules("cassino_royal"))
    assert royal.describe(royal.alt + 0) == "AS at 14"
    assert royal.encode(Move.parse("AH:14+AS,KS=14"))[-2] == royal.alt + Move.parse("AH").card


def test_illegal_actions_raise_and_change_nothing():
    state = cassino.new_hand("cassino_standard", seed=3)
    space = ActionSpace(state.rules)
    b = MoveBuilder(space, state.legal_moves())
    legal = b.legal_actions()
    bad = next(a for a in range(space.num_actions) if a not in legal)
    for action in (bad, -1, space.num_actions, 10**30):
        with pytest.raises(cassino.IllegalMoveError, match="not legal"):
            b.apply(action)
        assert b.prefix == () and b.legal_actions() == legal
    for action in ("7H", 1.5, None):
        with pytest.raises(cassino.IllegalMoveError, match="integer id"):
            b.apply(action)
    with pytest.raises(cassino.IllegalMoveError, match="no action"):
        space.describe(space.num_actions)
    with pytest.raises(cassino.IllegalMoveError):
        space.decode(())
    with pytest.raises(cassino.IllegalMoveError, match="finish"):
        space.decode((3,))
    with pytest.raises(cassino.IllegalMoveError, match="pass"):
        space.decode((3, space.finish + 4))


def test_numpy_integers_are_actions():
    np = pytest.importorskip("numpy")
    state = cassino.new_hand("diloti", seed=4)
    space = ActionSpace(state.rules)
    b = MoveBuilder(space, state.legal_moves())
    move = None
    while move is None:
        move = b.apply(np.int64(b.legal_actions()[-1]))
    assert move in state.legal_moves()
