"""The core's bitset path for tables without builds and with few loose numeric cards
(gen_moves → small_gen): move lists equal to the reference, around its size limits."""

from __future__ import annotations

import dataclasses

import pytest

from cassino import Rng, _reference, rules, shuffled_deck
from cassino.cards import card_code
from cassino.position import Position
from conftest import random_options

core = pytest.importorskip("cassino._core", reason="the Cython core is not built")


def table_position(r, seed: int, nloose: int, hand: int) -> Position:
    deck = shuffled_deck(Rng(seed))
    rng = Rng(seed ^ 0x5EED)
    # bias the table toward small numeric cards (many sums), keep faces possible
    numeric = [c for c in deck if c < 40]
    loose = []
    for c in numeric + [c for c in deck if c >= 40]:
        if len(loose) < nloose and (c < 40 or rng.below(3) == 0):
            loose.append(c)
    rest = [c for c in deck if c not in loose]
    h0, h1, stock = rest[:hand], rest[hand : 2 * hand], rest[2 * hand :]
    extra = len(stock) % 8          # the stock holds whole deals: the rest is captured
    pile, stock = stock[:extra], stock[extra:]

    def codes(cs):
        return ",".join(card_code(c) for c in cs) if cs else "-"

    text = (f"cassino_standard 0 {seed % 2} {codes(h0)}/{codes(h1)} {codes(loose)} {codes(pile)}/- "
            f"{codes(stock)} - - 0,0")
    return dataclasses.replace(Position.from_text(text), rules=r)


@pytest.mark.parametrize("nloose", [0, 1, 5, 6, 7, 8, 9])
def test_small_tables_match_reference(nloose: int) -> None:
    base = rules("cassino_standard")
    variants = [base, rules("cassino_standard", capture_extent="maximal"),
                rules("cassino_standard", face_capture="any"),
                rules("cassino_standard", sum_groups="single")]
    for seed in range(60):
        r = variants[seed % len(variants)] if seed < 40 else rules(
            "cassino_standard", **random_options(Rng(seed)))
        pos = table_position(r, seed, nloose, 1 + seed % 4)
        ref = _reference.State.from_position(pos)
        st = core.State.from_position(pos)
        assert list(st.legal_moves()) == ref.legal_moves()
