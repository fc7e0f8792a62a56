"""``explain`` lists only the moves of the card in question, and answers exactly as the
listing of every move of the position does (the reference's ``_legal_with_reasons``).

Every implemented system: random positions, and for each the legal moves, the moves the
filters refuse, and random moves of hand cards, table cards and other cards.
"""

from __future__ import annotations

import random

import pytest

import cassino
from cassino import Move, MoveKind, _reference
from cassino.cards import card_rank
from cassino.moves import same_notation
from cassino.reference.declarations import _DILOTI_WORDS
from cassino.rules import implemented_systems

BUILD_KINDS = (MoveKind.BUILD, MoveKind.AUGMENT, MoveKind.INCREASE)


def explain_by_listing(
    s: _reference.State, move: Move, legal: list[Move], reasons: dict[Move, str]
) -> str | None:
    """explain() as it was before it looked at one card: from every move of the position
    (``legal, reasons = s._legal_with_reasons()``)."""
    if move in legal:
        return None
    if move.kind in BUILD_KINDS:
        if any(same_notation(m, move) for m in legal) or s._relabelled(move, legal) is not None:
            return None
        for m, why in reasons.items():
            if same_notation(m, move):
                return why
    if move in reasons:
        return reasons[move]
    why = s._structural_reason(move)
    if s.rules.declarations:
        for old, new in _DILOTI_WORDS:
            why = why.replace(old, new)
    return why


def candidates(
    s: _reference.State, rng: random.Random, legal: list[Move], reasons: dict[Move, str]
) -> list[Move]:
    out = list(legal) + list(reasons)
    hand = list(s.hand(s.to_move)) or [0]
    table = list(s.table)
    others = [c for c in range(s.rules.num_ids) if c not in hand]
    # a bot's probe (cassino.bench.illegal_moves): the lowest card taking every loose card
    if s.loose:
        out.append(Move(min(hand), MoveKind.CAPTURE, s.loose))
        out.append(Move(min(hand), MoveKind.BUILD, s.loose, 13))
    for _ in range(12):
        card = rng.choice(hand if rng.random() < 0.8 else others)
        takes = 0
        for c in table:
            if rng.random() < 0.4:
                takes |= 1 << c
        kind = rng.choice([MoveKind.TRAIL, MoveKind.CAPTURE, *BUILD_KINDS])
        if kind is MoveKind.TRAIL:
            out.append(Move(card, kind))
        elif kind is MoveKind.CAPTURE:
            if takes:
                out.append(Move(card, kind, takes))
        elif takes:
            out.append(Move(card, kind, takes, rng.randint(1, 14)))
    # shapes no generator lists (State._malformed): a card taken from off the table, a
    # two-card capture, a build of 15
    if table and others:
        off = 1 << rng.choice(others)
        out.append(Move(hand[0], MoveKind.CAPTURE, off | 1 << table[0]))
        out.append(Move(hand[0], MoveKind.BUILD, 1 << table[-1], 15))
        if len(hand) > 1 and 0 < card_rank(hand[1]) != card_rank(table[0]) > 0:   # (no joker)
            out.append(Move(hand[0], MoveKind.TWO_CARD, 1 << hand[1] | 1 << table[0],
                            card_rank(table[0])))
    return out


# options that change what the generators list: the window of explain (the loose cards of
# the move in question) must not change the answer under them either
OPTIONS = [
    ("cassino_standard", {"capture_extent": "maximal"}),
    ("cassino_standard", {"natural_build_combination": False}),
    ("finnish_kasino", {"rank_pairing_always": True}),
    ("kontsina", {"combine_match_and_sum": True}),
    ("diloti", {"capture_extent": "free", "declaration_min_cards": 2}),
    ("cassino_royal", {"natural_build_combination": False}),
]
CASES = [(s, {}) for s in implemented_systems()] + OPTIONS


@pytest.mark.parametrize(
    ("system", "options"), CASES,
    ids=[s + "".join(f"-{k}={v}" for k, v in o.items()) for s, o in CASES],
)
def test_explain_of_one_card_is_the_explain_of_every_move(
    system: str, options: dict[str, object]
) -> None:
    rules = cassino.rules(system, **options)
    rng = random.Random(system + str(sorted(options.items())))
    checked = refused = shortcut = 0
    # (the reference lists multi-valued positions slowly: fewer hands there)
    for seed in range(1 if rules.multi_valued else 4):
        s = _reference.State.deal(rules, seed % rules.players, seed)
        while not s.is_over:
            legal, reasons = s._legal_with_reasons()
            for move in candidates(s, rng, legal, reasons):
                expected = explain_by_listing(s, move, legal, reasons)
                assert s.explain(move) == expected, (s.to_json(), str(move))
                assert s._explain(move, False) == expected, (s.to_json(), str(move))
                checked += 1
                refused += expected is not None
                if s._malformed(move):
                    # no listed move has the shape of a malformed move
                    assert expected is not None and move not in reasons
                    shortcut += 1
            s._push_unchecked(rng.choice(s.legal_moves()))
    assert checked > 300 and refused > 100
    # (Callabra's two-card captures keep the listing; its other moves have the shortcut)
    assert shortcut > 50


@pytest.mark.parametrize(
    ("system", "options"), CASES,
    ids=[s + "".join(f"-{k}={v}" for k, v in o.items()) for s, o in CASES],
)
def test_core_explain_is_the_reference_explain(system: str, options: dict[str, object]) -> None:
    """The core hands explain to a reference state made part by part from its C position
    (``_reference_state``), not through a Position: the answers are those of a reference
    state loaded from the same position, on the moves of random games (pluck phases,
    Michigan defaults and Mulle counts included where the system has them)."""
    if cassino.IMPLEMENTATION != "core":
        pytest.skip("no compiled core")
    rules = cassino.rules(system, **options)
    rng = random.Random("core-" + system + str(sorted(options.items())))
    checked = refused = 0
    for seed in range(2):
        s = cassino.State.deal(rules, seed % rules.players, seed)
        while not s.is_over:
            ref = _reference.State.from_position(s.to_position())
            legal, reasons = ref._legal_with_reasons()
            for move in candidates(ref, rng, legal, reasons):
                want = ref.explain(move)
                assert s.explain(move) == want, (s.to_json(), str(move))
                checked += 1
                refused += want is not None
            s.push(rng.choice(s.legal_moves()))
    assert checked > 100 and refused > 50
