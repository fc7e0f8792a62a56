"""Shared helpers of the benchmarks: both implementations, the corpus, recorded figures."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cassino import _reference
from cassino.position import Position

CORPUS = Path(__file__).resolve().parent / "data" / "corpus.txt"


@dataclass(frozen=True)
class Impl:
    """One implementation of the State API."""

    name: str
    State: Any
    random_hand: Callable[..., Any]


def _core() -> Impl | None:
    try:
        from cassino import _core
    except ImportError:
        return None
    state = getattr(_core, "State", None)
    playout = getattr(_core, "random_hand", None)
    if state is None or playout is None:
        return None
    return Impl("core", state, playout)


REFERENCE = Impl("reference", _reference.State, _reference.random_hand)
CORE = _core()

# (benchmark, implementation) -> (seconds per unit, unit name)
FIGURES: dict[tuple[str, str], tuple[float, str]] = {}


def load_corpus() -> list[Position]:
    """The positions of ``benchmarks/data/corpus.txt`` (see make_corpus.py)."""
    lines = [ln.strip() for ln in CORPUS.read_text().splitlines()]
    return [Position.from_text(ln) for ln in lines if ln and not ln.startswith("#")]


def measure(
    benchmark: Any,
    impl: Impl,
    name: str,
    fn: Callable[[], Any],
    *,
    units: int,
    unit: str,
    reference_rounds: int = 3,
    core_rounds: int = 20,
) -> Any:
    """Time ``fn`` (``units`` units of work per call) and record seconds per unit."""
    rounds = reference_rounds if impl.name == "reference" else core_rounds
    result = benchmark.pedantic(fn, rounds=rounds, warmup_rounds=1, iterations=1)
    meta = getattr(benchmark, "stats", None)
    if meta is None:  # --benchmark-disable
        return result
    per_unit = meta.stats.median / units
    FIGURES[(name, impl.name)] = (per_unit, unit)
    benchmark.extra_info["implementation"] = impl.name
    benchmark.extra_info["units_per_call"] = units
    benchmark.extra_info[f"ns_per_{unit}"] = round(per_unit * 1e9, 1)
    benchmark.extra_info[f"{unit}s_per_second"] = round(1 / per_unit, 1)
    ref = FIGURES.get((name, "reference"))
    if impl.name == "core" and ref is not None:
        benchmark.extra_info["speedup_vs_reference"] = round(ref[0] / per_unit, 1)
    return result
