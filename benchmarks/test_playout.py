"""Random full hands: batch playouts in the core (``cassino.playouts``) against the
reference, per system and per policy, and the one-hand ``random_hand`` entry point.

Target: at least 100,000 random ``cassino_standard`` hands per second on one core, at
least 100 times the reference.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cassino
from _bench import CORE, EXTRA, FIGURES, REFERENCE, Impl, measure
from cassino.bench import TIMED_ROUNDS, core_module, playout_call
from cassino.playouts import POLICY_CODES, _fill_reference
from cassino.scoring import CATEGORIES

HANDS = {"reference": 20, "core": 20_000}


def _arrays(n: int, teams: int) -> tuple[Any, ...]:
    return (
        np.zeros((n, teams, len(CATEGORIES)), np.int16), np.zeros((n, teams), np.int16),
        np.zeros((n, teams), np.int16), np.zeros(n, np.int32), np.zeros(n, np.int8),
    )


def _filler(impl: Impl) -> Any:
    if impl.name == "reference":
        return _fill_reference
    from cassino import _core

    return _core._fill_playouts


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_playouts(benchmark: Any, impl: Impl, policy: str) -> None:
    r = cassino.rules("cassino_standard")
    n = HANDS[impl.name]
    arrays = _arrays(n, r.num_teams)
    code = POLICY_CODES[policy]
    fill = _filler(impl)

    def run() -> int:
        fill(r, 1, 0, (code, code), (None, None), *arrays)
        return int(arrays[3].sum())

    name = f"playouts.{policy}"
    target = None
    rounds = 5
    if policy == "random" and impl.name == "core":
        # the target figure: the very call that `cassino bench` times, as many times
        target = (">=", 100_000.0)
        rounds = TIMED_ROUNDS
        run = playout_call(core_module(), "cassino_standard", n, arrays)
    plies = measure(benchmark, impl, name, run, units=n, unit="hand", target=target,
                    core_rounds=rounds)
    assert plies == 48 * n  # every card of a standard hand is played
    # the same hands as the other implementation: the first ones agree exactly
    other = REFERENCE if impl.name == "core" else CORE
    if other is not None:
        check = _arrays(3, r.num_teams)
        _filler(other)(r, 1, 0, (code, code), (None, None), *check)
        assert (check[0] == arrays[0][:3]).all()
    if impl.name == "core":
        ref = FIGURES.get((name, "reference"))
        core = FIGURES.get((name, "core"))
        if ref and core:
            EXTRA[f"{name} core/reference"] = (
                ref.per_unit / core.per_unit, f"{ref.per_unit / core.per_unit:,.0f}x (target >= 100x)"
            )


@pytest.mark.parametrize("system", cassino.implemented_systems())
def test_playouts_per_system(benchmark: Any, system: str) -> None:
    """The README's per-system playout figures (core, random players)."""
    if CORE is None:
        pytest.skip("cassino._core is not built")
    r = cassino.rules(system)
    n = 1_000 if r.deck == "double104" else 10_000   # (Mulle: 100 plies, tables of up to ~30)
    arrays = _arrays(n, r.num_teams)
    from cassino import _core

    def run() -> int:
        _core._fill_playouts(r, 1, 0, (0,) * r.players, (None,) * r.players, *arrays)
        return int(arrays[3].sum())

    plies = measure(benchmark, CORE, f"playouts.system.{system}", run, units=n, unit="hand",
                    core_rounds=5)
    assert plies > n


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_mulle_playouts(benchmark: Any, players: int, policy: str) -> None:
    """Mulle (docs/rules.md §3.20): the 104-card deck in the wide copy of the core (128-bit masks), hands/s
    for 2, 3 and 4 players, random or greedy players (docs/benchmarks.md)."""
    if CORE is None:
        pytest.skip("cassino._core is not built")
    r = cassino.rules("mulle", players=players)
    n = 1_000 if policy == "random" else 5_000
    arrays = _arrays(n, r.num_teams)
    from cassino import _core
    code = {"random": 0, "greedy": 1}[policy]

    def run() -> int:
        _core._fill_playouts(r, 1, 0, (code,) * players, (None,) * players, *arrays)
        return int(arrays[3].sum())

    plies = measure(benchmark, CORE, f"playouts.mulle.{players}p.{policy}", run, units=n,
                    unit="hand", core_rounds=3)
    assert plies >= n * (100 - 4 - (players == 3))   # every card dealt is played


def test_random_hand(benchmark: Any, impl: Impl) -> None:
    """One hand per call through ``random_hand(rules, seed)`` (a Python call per hand)."""
    rules = cassino.rules("cassino_standard")
    n = {"reference": 20, "core": 2000}[impl.name]

    def run() -> int:
        return sum(impl.random_hand(rules, seed)[1] for seed in range(n))

    plies = measure(benchmark, impl, "playout.random_hand", run, units=n, unit="hand")
    assert plies == 48 * n
    assert impl.random_hand(rules, 1) == REFERENCE.random_hand(rules, 1)


@pytest.mark.parametrize(
    ("label", "options"),
    [("2p", {}), ("3p", {"players": 3}), ("4p", {"players": 4}),
     ("pairs", {"rank_pairing_always": True})],
)
def test_playouts_finnish(benchmark: Any, impl: Impl, label: str, options: dict[str, Any]) -> None:
    """Finnish Kasino (docs/rules.md §3.21): random hands through the ordinary generator paths
    with a hand-value table (rank pairing, AMB-52: its own subset walk when a hand A, 2S or
    10D meets a loose card of its rank); the first hands agree with the other
    implementation."""
    r = cassino.rules("finnish_kasino", **options)
    n = {"reference": 10, "core": 5_000}[impl.name]
    arrays = _arrays(n, r.num_teams)
    fill = _filler(impl)
    policies = (POLICY_CODES["random"],) * r.players

    def run() -> int:
        fill(r, 1, 0, policies, (None,) * r.players, *arrays)
        return int(arrays[3].sum())

    name = f"playouts.finnish.{label}"
    plies = measure(benchmark, impl, name, run, units=n, unit="hand", core_rounds=5)
    assert plies > n
    other = REFERENCE if impl.name == "core" else CORE
    if other is not None:
        check = _arrays(3, r.num_teams)
        _filler(other)(r, 1, 0, policies, (None,) * r.players, *check)
        assert (check[0] == arrays[0][:3]).all()
