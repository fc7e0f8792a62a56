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
    return Impl("core", _core.State, _core.random_hand)


REFERENCE = Impl("reference", _reference.State, _reference.random_hand)
CORE = _core()


@dataclass
class Figure:
    """One measured figure: seconds per unit, the unit, and the target if the issue sets one."""

    per_unit: float
    unit: str
    target: tuple[str, float] | None = None  # ("<=", seconds per unit) or (">=", units/s)
    reference_name: str | None = None

    def meets(self) -> bool | None:
        if self.target is None:
            return None
        op, bound = self.target
        return self.per_unit <= bound if op == "<=" else 1 / self.per_unit >= bound


# (benchmark, implementation) -> figure
FIGURES: dict[tuple[str, str], Figure] = {}
# name -> (value, text): figures that are not times (ratios, sizes)
EXTRA: dict[str, tuple[float, str]] = {}


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
    reference_name: str | None = None,
    target: tuple[str, float] | None = None,
    setup: Callable[[], tuple[tuple[Any, ...], dict[str, Any]]] | None = None,
) -> Any:
    """Time ``fn`` (``units`` units of work per call) and record seconds per unit;
    ``setup`` (untimed) makes the arguments of each call.

    The core figure of a pair reports its speed-up over the reference figure of the same
    name (or of ``reference_name``); ``target`` is reported as met or not, never asserted.
    """
    rounds = reference_rounds if impl.name == "reference" else core_rounds
    if setup is None:
        result = benchmark.pedantic(fn, rounds=rounds, warmup_rounds=1, iterations=1)
    else:  # fresh arguments for every round (untimed)
        result = benchmark.pedantic(fn, setup=setup, rounds=rounds, warmup_rounds=0)
    meta = getattr(benchmark, "stats", None)
    if meta is None:  # --benchmark-disable
        return result
    per_unit = meta.stats.min / units
    fig = Figure(per_unit, unit, target, reference_name)
    FIGURES[(name, impl.name)] = fig
    benchmark.extra_info["implementation"] = impl.name
    benchmark.extra_info["units_per_call"] = units
    benchmark.extra_info[f"ns_per_{unit}"] = round(per_unit * 1e9, 1)
    benchmark.extra_info[f"{unit}s_per_second"] = round(1 / per_unit, 1)
    ref = FIGURES.get((reference_name or name, "reference"))
    if impl.name == "core" and ref is not None:
        benchmark.extra_info["speedup_vs_reference"] = round(ref.per_unit / per_unit, 1)
    if target is not None:
        benchmark.extra_info["target"] = f"{target[0]} {target[1]:g}"
        benchmark.extra_info["target_met"] = fig.meets()
    return result
