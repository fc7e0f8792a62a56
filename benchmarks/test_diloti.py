"""Diloti move generation (docs/rules.md §3.17, §3.18) on tables rich in declarations.

Positions: two hand-made tables (several plain declarations, a family declaration, many
loose numeric cards, 6-card hands; two and four players) and mid-hand positions of
declaration-biased random play holding at least two declarations. Both implementations list
every legal move (the core: ``gen_diloti``; counting and streaming list too).
"""

from __future__ import annotations

from typing import Any

import pytest

from _bench import Impl, measure
from cassino import Rng, _reference, rules
from cassino.cards import CardSet, parse_card
from cassino.moves import MoveKind
from cassino.position import Position


def _item(groups: str, value: int, owner: int, **extra: Any) -> dict[str, Any]:
    return {"groups": [g.split() for g in groups.split("|")], "value": value, "owners": [owner], **extra}


def _position(system: str, hands: list[str], loose: str, builds: list[Any], last: int) -> Position:
    used = [c for h in hands for c in h.split()] + loose.split()
    used += [c for it in builds for g in it["groups"] for c in g]
    r = rules(system)
    rest = CardSet(r.deck_mask & ~sum(1 << parse_card(c) for c in used)).codes()
    n = r.num_teams
    return Position.from_dict({
        "system": system, "options": {}, "players": r.players, "dealer": 1, "to_move": 0,
        "hands": [h.split() for h in hands], "table": [*loose.split(), *builds],
        "piles": [rest[t::n] for t in range(n)], "stock": [], "last_capturer": last,
        "sweeps": [0] * n,
    })


def _played(system: str, seed: int, count: int = 20) -> list[Position]:
    """Positions with two declarations or more from declaration-biased random play."""
    r = rules(system)
    rng = Rng(seed)
    out: list[Position] = []
    while len(out) < count:
        s = _reference.State.deal(r, rng.below(r.players), rng.next_u64() >> 1)
        while not s.is_over and len(out) < count:
            moves = s.legal_moves()
            decl = [m for m in moves if m.kind >= MoveKind.BUILD]
            pick = decl if decl and rng.below(4) else moves
            s.push(pick[rng.below(len(pick))])
            p = s.to_position()
            if not s.is_over and len(p.builds) >= 2:
                out.append(p)
    return out


def diloti_corpus() -> list[Position]:
    rich2 = _position(
        "diloti", ["8C 5C 9S 2H 6D 4C", "5D 9H AH 7C QH 10D"], "7S 3D AS 2C 4H AD 3C 2D",
        [_item("2S 3H", 5, 1), _item("4S 4D", 8, 0), _item("9D|6H 3S", 9, 1), _item("AC 5S", 6, 0)], 1,
    )
    rich4 = _position(
        "diloti_four_player",
        ["2S 8C 4S 6D 3C 9C", "AH 6C 7H 9H 5C KC", "7S 9D 10H 4C 6H KD", "8D 6S QD JS AC 10S"],
        "AD 2D 3D 3H 4D 5H",
        [_item("4H 2H", 6, 2, raised=[1]), _item("5D AS", 6, 1), _item("8S|5S 3S", 8, 3),
         _item("7D 2C", 9, 0)], 3,
    )
    return [rich2, rich4, *_played("diloti", 5), *_played("diloti_four_player", 6)]


@pytest.fixture(scope="module")
def diloti_positions() -> list[Position]:
    return diloti_corpus()


def test_diloti_legal_moves(benchmark: Any, impl: Impl, diloti_positions: list[Position]) -> None:
    states = [impl.State.from_position(p) for p in diloti_positions]

    def run() -> int:
        return sum(len(s.legal_moves()) for s in states)

    total = measure(benchmark, impl, "diloti.legal_moves", run, units=len(states), unit="position")
    assert total == sum(len(_reference.State.from_position(p).legal_moves()) for p in diloti_positions)


def test_diloti_perft_2(benchmark: Any, impl: Impl, diloti_positions: list[Position]) -> None:
    states = [impl.State.from_position(p) for p in diloti_positions[:2]]

    def run() -> int:
        return sum(s.perft(2) for s in states)

    total = measure(benchmark, impl, "diloti.perft2", run, units=len(states), unit="position")
    assert total > len(states)
