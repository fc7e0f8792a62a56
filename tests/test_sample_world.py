"""View.sample_world: determinizations consistent with the view, uniform over the hidden places."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pytest

import cassino
from cassino import Rng, rules
from cassino.players import PlayerError, View
from cassino.rules import implemented_systems


def positions(system: str, seeds: range, every: int = 5) -> Any:
    """Every ``every``-th state along seeded random hands of ``system``."""
    r = rules(system)
    for seed in seeds:
        state = cassino.State.deal(r, seed % r.players, seed)
        rng = Rng(seed)
        ply = 0
        while not state.is_over:
            if ply % every == 0:
                yield state
            moves = state.legal_moves()
            state.push(moves[rng.below(len(moves))])
            ply += 1


@pytest.mark.parametrize("system", implemented_systems())
def test_a_sampled_world_never_moves_a_card_the_seat_has_seen(system: str) -> None:
    rng = Rng(11)
    checked = 0
    for state in positions(system, range(2)):
        true = state.to_position()
        for seat in range(true.rules.players):
            view = View.of(state, seat)
            world = view.sample_world(rng).to_position()
            # what the seat has seen is where it was
            assert world.hands[seat] == true.hands[seat]
            assert (world.loose, world.builds) == (true.loose, tuple(sorted(true.builds)))
            # (Elewenjewe: the cards set aside, and without Isiwo the seat's own pile, are
            # hidden places too, AMB-79, AMB-81)
            aside = view.aside_size
            own = view.team if view._hidden_pile() else -1
            assert [p for t, p in enumerate(world.piles) if t != own] == [
                p for t, p in enumerate(true.piles) if t != own]
            assert (world.discard[aside:], world.sweep_order) == (true.discard[aside:], true.sweep_order)
            assert (world.to_move, world.dealer, world.last_capturer) == (
                true.to_move, true.dealer, true.last_capturer
            )
            assert (world.plucked, world.phase, world.trailed) == (
                true.plucked, true.phase, true.trailed
            )
            assert (world.defaults, world.mulles) == (true.defaults, true.mulles)
            # the unseen cards fill exactly the hidden places, each at its size
            hidden = 0
            for s in range(true.rules.players):
                if s != seat:
                    assert world.hands[s].bit_count() == true.hands[s].bit_count()
                    assert not world.hands[s] & hidden
                    hidden |= world.hands[s]
            assert len(world.stock) == len(true.stock)
            extra = list(world.discard[:aside]) + (list(world.piles[own]) if own >= 0 else [])
            assert len(extra) == aside + (len(true.piles[own]) if own >= 0 else 0)
            for c in [*world.stock, *extra]:
                assert not hidden >> c & 1
                hidden |= 1 << c
            assert hidden == view.unseen.mask
            checked += 1
    assert checked > 10


def test_sampled_worlds_play_on() -> None:
    """A sampled world is a legal position: its moves can be played to the end."""
    rng = Rng(2)
    for state in positions("cassino_standard", range(2), every=7):
        world = View.of(state, state.to_move).sample_world(rng)
        assert {str(m) for m in world.legal_moves()} == {str(m) for m in state.legal_moves()}
        while not world.is_over:
            moves = world.legal_moves()
            world.push(moves[rng.below(len(moves))])


def chi_square_critical(df: int, z: float = 3.09) -> float:
    """The upper 0.1% point of chi-square with ``df`` degrees of freedom (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.parametrize(("system", "players"), [("cassino_standard", 2), ("cassino_three_four", 3)])
def test_unseen_cards_are_spread_uniformly_over_the_hidden_places(system: str, players: int) -> None:
    r = rules(system, players=players)
    state = cassino.State.deal(r, 0, 8)
    state.push(state.legal_moves()[0])
    seat = state.to_move
    view = View.of(state, seat)
    places = [s for s in range(players) if s != seat]
    sizes = {s: view.hand_sizes[s] for s in places}
    sizes["stock"] = view.stock_size
    total = sum(sizes.values())
    assert total == len(view.unseen)
    n = 3000
    counts: Counter[tuple[int, Any]] = Counter()
    rng = Rng(99)
    for _ in range(n):
        world = view.sample_world(rng).to_position()
        for s in places:
            for c in cassino.CardSet(world.hands[s]):
                counts[c, s] += 1
        for c in world.stock:
            counts[c, "stock"] += 1

    def chi_square(got: Counter[tuple[int, Any]]) -> float:
        stat = 0.0
        for c in view.unseen:
            for place, size in sizes.items():
                expected = n * size / total
                stat += (got[c, place] - expected) ** 2 / expected
        return stat

    # each card's row sums to n, and each place's column to n * size
    df = (len(view.unseen) - 1) * (len(sizes) - 1)
    assert chi_square(counts) < chi_square_critical(df), (chi_square(counts), df)
    # the test can fail: a sampler that always deals the same cards to the same places
    fixed: Counter[tuple[int, Any]] = Counter()
    order = sorted(view.unseen)
    k = 0
    for place, size in sizes.items():
        for c in order[k : k + size]:
            fixed[c, place] = n
        k += size
    assert chi_square(fixed) > chi_square_critical(df)


def test_sample_world_needs_a_cassino_rng() -> None:
    view = View.of(cassino.new_hand(seed=1), 0)
    with pytest.raises(PlayerError, match=r"cassino\.Rng"):
        view.sample_world(7)  # type: ignore[arg-type]


def test_sample_world_refuses_an_inconsistent_view() -> None:
    import dataclasses

    view = View.of(cassino.new_hand(seed=1), 0)
    bad = dataclasses.replace(view, stock_size=view.stock_size + 1)
    with pytest.raises(PlayerError, match="inconsistent"):
        bad.sample_world(Rng(1))


# -- the worlds after the first: copies of one validated state, dealt again ---------------
needs_redeal = pytest.mark.skipif(
    not hasattr(cassino.State, "_redeal"), reason="a core method"
)


def _hidden(world: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    pos = world.to_position()
    return tuple(pos.hands), tuple(pos.stock)


def _extra(world: Any, view: View) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """The hidden places beyond hands and stock (Elewenjewe): the cards set aside, and
    without Isiwo the seat's own pile."""
    pos = world.to_position()
    own = pos.piles[view.team] if view._hidden_pile() else None
    return tuple(pos.discard[: view.aside_size]), own


@needs_redeal
@pytest.mark.parametrize("system", implemented_systems())
def test_redealt_worlds_are_the_validated_states_of_their_cards(system: str) -> None:
    rng = Rng(5)
    for state in positions(system, range(2), every=7):
        view = View.of(state, state.to_move)
        first = view.sample_world(rng)
        first.push(first.legal_moves()[0])          # the caller's world is its own
        for _ in range(3):
            world = view.sample_world(rng)
            built = View.of(state, state.to_move)._build(*_hidden(world), *_extra(world, view))
            assert type(world) is type(built)
            assert world.ply == 0
            assert world.to_position() == built.to_position()
            assert world.legal_moves() == built.legal_moves()
            if world.legal_moves():
                world.push(world.legal_moves()[-1])
                built.push(built.legal_moves()[-1])
                assert world.to_position() == built.to_position()


@needs_redeal
def test_redeal_refuses_other_cards_and_leaves_the_state_unchanged() -> None:
    state = cassino.State.deal(rules("cassino_standard"), 0, 4)
    before = state.to_position()
    hands, stock = _hidden(state)
    spare = next(iter(stock))
    swapped = (hands[0], hands[1] ^ (hands[1] & -hands[1]) | 1 << spare)
    table = state.to_position().loose
    bad: list[tuple[Any, Any, str]] = [
        (hands[:1], stock, "one hand per seat"),
        (hands, stock[1:], "the stock holds"),
        (hands, (*stock, 0), "the stock holds"),
        ((hands[0], hands[1] | 1 << spare), stock, "holds 4 cards"),
        ((hands[0], True), stock, "card mask"),
        ((hands[0], -1), stock, "card mask"),
        (hands, (stock[0], "2S", *stock[2:]), "card id"),
        (hands, (52, *stock[1:]), "card id"),
        (swapped, stock, "each once"),                # spare twice, a hand card nowhere
        (hands, (stock[1], *stock[1:]), "each once"),
        ((hands[0], hands[1] ^ (hands[1] & -hands[1]) | (table & -table)), stock, "each once"),
    ]
    for h, s, message in bad:
        with pytest.raises(ValueError, match=message):
            state._redeal(h, s)
        assert state.to_position() == before
    state._redeal((hands[1], hands[0]), tuple(reversed(stock)))
    pos = state.to_position()
    assert (pos.hands, pos.stock) == ((hands[1], hands[0]), tuple(reversed(stock)))
    state.push(state.legal_moves()[0])
    with pytest.raises(ValueError, match="ply 0"):
        state._redeal(hands, stock)


def test_a_view_pickles_and_copies_without_its_worlds() -> None:
    import copy
    import pickle

    state = cassino.new_hand(seed=3)
    view = View.of(state, 1)
    view.sample_world(Rng(1))
    view.sample_world(Rng(2))
    if hasattr(cassino.State, "_redeal"):
        assert "_base" in view.__dict__        # the core keeps the view's validated state
    for other in (pickle.loads(pickle.dumps(view)), copy.copy(view)):
        assert other == view
        assert "_base" not in other.__dict__
        assert other.sample_world(Rng(7)).to_position() == view.sample_world(Rng(7)).to_position()


@pytest.mark.skipif(cassino.IMPLEMENTATION != "core", reason="a core function")
@pytest.mark.parametrize("size", [0, 1, 2, 7, 40, 103])
def test_the_core_shuffle_of_the_unseen_cards_draws_as_the_rng(size: int) -> None:
    from cassino import _core

    for seed in range(25):
        rng = Rng(seed * 7919 + size)
        items = [f"c{i}" for i in range(size)]
        expected = list(items)
        state = _core._shuffle_list(items, rng.state)
        for i in range(size - 1, 0, -1):
            j = rng.below(i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert (items, state) == (expected, rng.state)
    for bad in (-1, 2**64, True, 1.5, "1"):
        with pytest.raises(ValueError, match="RNG state"):
            _core._shuffle_list([1, 2, 3], bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _core._shuffle_list((1, 2, 3), 0)  # type: ignore[arg-type]


def test_sampled_worlds_follow_the_rng_draws_of_the_reference_shuffle() -> None:
    # the unseen cards in ascending order, Fisher-Yates from the last, dealt in seat order
    state = cassino.new_hand(seed=8)
    view = View.of(state, 0)
    rng = Rng(21)
    world = view.sample_world(rng)
    cards = sorted(view.unseen)
    mirror = Rng(21)
    for i in range(len(cards) - 1, 0, -1):
        j = mirror.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    pos = world.to_position()
    n = view.hand_sizes[1]
    assert pos.hands[1] == sum(1 << c for c in cards[:n])
    assert tuple(pos.stock) == tuple(cards[n:])
    assert rng.state == mirror.state
