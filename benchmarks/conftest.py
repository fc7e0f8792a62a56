"""Benchmark fixtures and the summary of figures.

Run with ``python -m pytest benchmarks/ --benchmark-only``. The core benchmarks are
skipped when ``cassino._core`` is not built (or has no ``State`` yet). Each test records a
per-unit time; the core test of a pair also reports its speed-up over the reference in
``extra_info``, and the session ends with a short table of the figures.
"""

from __future__ import annotations

from typing import Any

import pytest

from _bench import CORE, FIGURES, REFERENCE, Impl, load_corpus
from cassino.position import Position


@pytest.fixture(params=["reference", "core"])
def impl(request: pytest.FixtureRequest) -> Impl:
    """Each implementation in turn, the reference first (so the core can report a ratio)."""
    if request.param == "reference":
        return REFERENCE
    if CORE is None:
        pytest.skip("cassino._core is not built (no State): core benchmark skipped")
    return CORE


@pytest.fixture(scope="session")
def corpus() -> list[Position]:
    """The positions of ``benchmarks/data/corpus.txt``."""
    return load_corpus()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print the figures: per-unit time, throughput and core/reference speed-up."""
    if not FIGURES:
        return
    tr = terminalreporter
    tr.section("cassino benchmark figures")
    tr.write_line(f"{'benchmark':<24}{'impl':<11}{'ns/unit':>14}{'units/s':>16}{'speed-up':>10}")
    for (name, impl_name), (per_unit, unit) in sorted(FIGURES.items()):
        ref = FIGURES.get((name, "reference"))
        ratio = f"{ref[0] / per_unit:.1f}x" if impl_name == "core" and ref else ""
        tr.write_line(
            f"{name:<24}{impl_name:<11}{per_unit * 1e9:>14,.0f}{1 / per_unit:>16,.0f}{ratio:>10}"
            f"   ({unit})"
        )
