"""Counting and picking a move without listing (core/captures.pxi: pick_setup, pick_at).

Under capture-only rules (Swedish Kassino, Mulle) on tables of at most 10 loose cards, the
core counts the legal moves and builds the move of a given index from families of subsets,
without listing them; random playouts and ``count_moves()`` use it. Here it must give the
listing's count and the listing's move at every index, and the listing must be the
reference's.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cassino
from cassino import Rng, rules
from cassino.cards import CardSet
from cassino.reference import State as RefState
from conftest import make_position

_core = pytest.importorskip("cassino._core")

SYSTEMS = [
    ("swedish_kassino", {}),
    ("cassino_royal", {"build_kinds": "none"}),      # (its obligation v1 binds no one)
    ("mulle", {"card_points": False}),
    ("swedish_kassino", {"players": 3}),
    ("swedish_kassino", {"players": 4, "most_spades_tie": "split_two"}),
    ("mulle", {}),
    ("mulle", {"players": 3, "deal_rest": "rotation"}),
    ("mulle", {"players": 4, "point_cards_once": True}),
]


def _check(state: Any) -> bool:
    """Compare the picked moves with the listed ones; whether the pick path served."""
    n = state.num_moves()
    assert state.count_moves() == n
    if state._picked(0) is None:
        return False
    assert [state._picked(i) for i in range(n)] == [state.move_at(i) for i in range(n)]
    for bad in (n, -1):
        with pytest.raises(IndexError):
            state._picked(bad)
    return True


@pytest.mark.parametrize(("system", "options"), SYSTEMS)
def test_picking_equals_listing_over_random_play(system: str, options: dict[str, Any]) -> None:
    r = rules(system, **options)
    served = Counter[str]()
    for seed in range(12):
        rng = Rng(seed)
        state = _core.State.deal(r, seed % r.players, seed)
        while not state.is_over:
            pos = state.to_position()
            loose = CardSet(pos.loose).codes()
            if _check(state):
                served["positions"] += 1
                served[f"loose {len(loose)}"] += 1
                if any(c[0] == "A" for c in loose):
                    served["loose ace"] += 1
                if any(c[0] == "A" for c in CardSet(pos.hands[pos.to_move]).codes()):
                    served["ace in hand"] += 1
            else:
                assert len(loose) > 12
            state.push_index(rng.below(state.num_moves()))
    # every family width and both kinds of multi-valued card were on the tables
    assert served["positions"] > 200
    for key in ("loose 0", "loose 3", "loose 6", "loose 7", "loose 8", "loose 9", "loose 10",
                "loose ace", "ace in hand"):
        assert served[key] > 0, (key, served)


def _codes(ids: list[int]) -> list[str]:
    return [CardSet(1 << i).codes()[0] for i in ids]


@st.composite
def _tables(draw: Any) -> tuple[str, list[str], list[str]]:
    system = draw(st.sampled_from(["swedish_kassino", "mulle"]))
    ids = rules(system).num_ids
    # aces (ids 0-3 and their copies) often, to exercise the two values
    aces = [i for i in range(ids) if i % 52 < 4]
    pool = st.one_of(st.sampled_from(aces), st.integers(0, ids - 1))
    cards = draw(st.lists(pool, min_size=1, max_size=14, unique=True))
    k = draw(st.integers(0, min(10, len(cards) - 1)))
    return system, _codes(cards[:k]), _codes(cards[k:k + 4])


@settings(max_examples=300, deadline=None)
@given(_tables())
def test_picking_equals_the_reference_on_drawn_tables(case: tuple[str, list[str], list[str]]) -> None:
    system, table, hand = case
    pos = make_position(table=table, hands=[hand, []], system=system)
    state = _core.State.from_position(pos)
    assert _check(state)
    n = state.num_moves()
    assert [state._picked(i) for i in range(n)] == RefState.from_position(pos).legal_moves()


def test_eight_loose_cards_and_four_aces() -> None:
    """The widest family (256 subsets, four words), with every ace of the table at 1 or 14."""
    pos = make_position(table=["AS", "AH", "AD", "AC", "2S", "3H", "6D", "KC"],
                        hands=[["AS'", "KS", "7H", "QD"], []], system="mulle")
    state = _core.State.from_position(pos)
    assert _check(state)
    assert [state._picked(i) for i in range(state.num_moves())] == (
        RefState.from_position(pos).legal_moves())
    # the ace in hand takes each loose ace alone (at 1 or at 14), and K+A as 14
    notes = {str(state._picked(i)) for i in range(state.num_moves())}
    assert {"AS'xAS", "AS'xAC", "AS'xAS,AH,AD,AC", "AS'xAH,KC"} <= notes
    # and one group of 14 with three aces at 1: 1 + 1 + 1 + 2 + 3 + 6
    assert "AS'xAS,AH,AD,2S,3H,6D" in notes


def test_the_pick_path_declines_what_it_does_not_serve() -> None:
    # rules with builds
    state = _core.State.deal(rules("cassino_standard"), 0, 1)
    assert state._picked(0) is None
    assert state.count_moves() == state.num_moves()
    # rules that restrict the capture, or add a move: every position is listed
    for options in ({"capture_extent": "maximal"}, {"sum_groups": "single"},
                    {"five_of_spades_sweep": True}):
        r = rules("swedish_kassino", **options)
        for seed in range(3):
            state = _core.State.deal(r, 0, seed)
            rng = Rng(seed)
            while not state.is_over:
                assert state._picked(0) is None
                assert state.count_moves() == state.num_moves()
                state.push_index(rng.below(state.num_moves()))
    # standard values: the faces have none
    r = rules("cassino_standard", build_kinds="none")
    assert _core.State.deal(r, 0, 1)._picked(0) is None
    # a king against thirteen loose cards: every one of them might be in its groups
    spades = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]
    pos = make_position(table=spades, hands=[["KH", "2H"], []], system="swedish_kassino")
    state = _core.State.from_position(pos)
    assert state._picked(0) is None
    assert state.count_moves() == state.num_moves()
    # the general paths, which the path tests compare
    state = _core.State.deal(rules("swedish_kassino"), 0, 1)
    assert state._picked(0) is not None
    state._general_paths(True)
    assert state._picked(0) is None


@pytest.mark.parametrize("seed", range(4))
def test_random_rule_deviations_count_and_pick_as_they_list(seed: int) -> None:
    """Random options on random systems (the differential tests' deviations): wherever the
    path serves, it is the listing; elsewhere the count is the listing's."""
    from test_differential import _deviation

    rng = Rng(5000 + seed)
    played = 0
    while played < 10:
        system, opts = _deviation(rng)
        try:
            r = rules(system, **opts)
        except cassino.CassinoError:
            continue              # (a combination the rules refuse)
        state = _core.State.deal(r, played % r.players, rng.below(1 << 30))
        while not state.is_over:
            _check(state)
            state.push_index(rng.below(state.num_moves()))
        played += 1
