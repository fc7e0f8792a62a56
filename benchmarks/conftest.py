"""Benchmark fixtures and the summary of figures.

Run with ``python -m pytest benchmarks/ --benchmark-only``. The core benchmarks are
skipped when ``cassino._core`` is not built. Each test records a per-unit time (the best
round); the core test of a pair also reports its speed-up over the reference in
``extra_info``, and the session ends with a table of the figures, the ratios and whether
each target of the performance issue is met on this machine. No benchmark asserts a time.
"""

from __future__ import annotations

from typing import Any

import pytest

from _bench import CORE, EXTRA, FIGURES, REFERENCE, Impl, load_corpus
from cassino.position import Position


@pytest.fixture(params=["reference", "core"])
def impl(request: pytest.FixtureRequest) -> Impl:
    """Each implementation in turn, the reference first (so the core can report a ratio)."""
    if request.param == "reference":
        return REFERENCE
    if CORE is None:
        pytest.skip("cassino._core is not built: core benchmark skipped")
    return CORE


@pytest.fixture(scope="session")
def corpus() -> list[Position]:
    """The positions of ``benchmarks/data/corpus.txt``."""
    return load_corpus()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print the figures: per-unit time, throughput, core/reference speed-up, targets."""
    if not FIGURES and not EXTRA:
        return
    tr = terminalreporter
    tr.section("cassino benchmark figures")
    tr.write_line(
        f"{'benchmark':<30}{'impl':<11}{'ns/unit':>14}{'units/s':>16}{'speed-up':>10}  target"
    )
    for (name, impl_name), fig in sorted(FIGURES.items()):
        ref = FIGURES.get((fig.reference_name or name, "reference"))
        ratio = f"{ref.per_unit / fig.per_unit:,.0f}x" if impl_name == "core" and ref else ""
        target = ""
        if fig.target is not None:
            op, bound = fig.target
            want = f"{op} {bound * 1e9:,.0f} ns" if op == "<=" else f"{op} {bound:,.0f}/s"
            target = f"{want}: {'met' if fig.meets() else 'NOT met'}"
        tr.write_line(
            f"{name:<30}{impl_name:<11}{fig.per_unit * 1e9:>14,.0f}{1 / fig.per_unit:>16,.0f}"
            f"{ratio:>10}  {target}   ({fig.unit})"
        )
    for name, (_, text) in sorted(EXTRA.items()):
        tr.write_line(f"{name:<30}{text}")
