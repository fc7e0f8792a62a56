"""The core's multiset counter agrees with its listing, on random play and on hard tables."""

from __future__ import annotations

import pytest

from cassino import Position, Rng, rules, shuffled_deck
from cassino.errors import MoveLimitError

_core = pytest.importorskip("cassino._core")

OPTION_SETS = [
    {},
    {"capture_extent": "maximal"},
    {"sum_groups": "single", "face_capture": "any"},
    {"natural_build_combination": False, "obligation": "v2"},
    {"unique_build_values": False, "obligation": "none", "own_increase": "forbidden"},
    {"obligation": "v3", "own_increase": "keep_old", "face_capture": "one"},
]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_multiset_count_equals_listing_over_random_play(options: dict[str, object]) -> None:
    r = rules("cassino_standard", **options)
    checked = 0
    for seed in range(25):
        rng = Rng(seed)
        state = _core.State.new_hand(r, seed % 2, shuffled_deck(rng))
        while not state.is_over:
            n = state.num_moves()
            assert state._count_by_multisets() == n, state.to_position().to_text()
            assert state.count_moves() == n
            checked += 1
            state.push_index(rng.below(n))
    assert checked == 25 * 48


def _small_table_position(table: list[str], hand: list[str]) -> Position:
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    every = [f"{r}{s}" for r in ranks for s in "SHDC"]
    rest = [c for c in every if c not in table and c not in hand]
    return Position.from_dict(
        {
            "system": "cassino_standard",
            "dealer": 1,
            "to_move": 0,
            "hands": [hand, []],
            "table": table,
            "piles": [[], rest],
            "stock": [],
            "last_capturer": None,
            "sweeps": [0, 0],
            "scores": [0, 0],
        }
    )


SMALL = [f"{r}{s}" for r in ["A", "2", "3", "4", "5", "6"] for s in "SHDC"]


@pytest.mark.parametrize("ncards", [13, 14, 16])
def test_multiset_count_equals_listing_on_hard_tables(ncards: int) -> None:
    state = _core.State.from_position(_small_table_position(SMALL[:ncards], ["9S", "10S", "9H", "10H"]))
    listed = len(state.legal_moves())
    assert state.count_moves() == listed == state._count_by_multisets()
    assert listed > 1000


def test_huge_table_is_counted_and_listing_is_refused() -> None:
    state = _core.State.from_position(_small_table_position(SMALL, ["9S", "10S", "9H", "10H"]))
    assert state.count_moves() == 16_037_492
    with pytest.raises(MoveLimitError, match="16037492 legal moves exceed the listing limit"):
        state.legal_moves()
    with pytest.raises(MoveLimitError):
        state.legal_moves(limit=1000)
    before = state.to_position()
    assert state.to_position() == before


def test_perft_counts_its_last_ply_without_listing() -> None:
    state = _core.State.from_position(_small_table_position(SMALL, ["9S", "10S", "9H", "10H"]))
    assert state.perft(1) == state.count_moves() == 16_037_492


def test_last_deal_flag_follows_the_stock() -> None:
    import cassino

    state = cassino.new_hand("cassino_standard", seed=3)
    rng = Rng(3)
    flags = [state.last_deal]
    while not state.is_over:
        before = len(state.to_position().stock)
        state.push_index(rng.below(state.num_moves()))
        if len(state.to_position().stock) < before:
            flags.append(state.last_deal)
    assert flags == [False] * 5 + [True]
