"""The performance figures of README.md and docs/ come from one saved ``cassino bench`` run
(benchmarks/results/bench.json), written by benchmarks/figures.py: the committed docs are what
that run gives, the run has every figure today's bench measures, and no other measured figure
is stated outside the generated blocks."""

from __future__ import annotations

import copy
import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest

import cassino
from cassino.bench import run_bench

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("figures", ROOT / "benchmarks" / "figures.py")
assert spec is not None and spec.loader is not None
figures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(figures)


@pytest.fixture(scope="module")
def saved() -> dict[str, Any]:
    return dict(json.loads(figures.RESULTS.read_text(encoding="utf-8")))


def test_the_docs_are_what_the_saved_run_gives(saved: dict[str, Any]) -> None:
    rendered = figures.render(saved)
    assert set(rendered) == {"README.md", "docs/scaling.md", "docs/benchmarks.md"}
    for path, text in rendered.items():
        assert (ROOT / path).read_text(encoding="utf-8") == text, (
            f"{path}: run python benchmarks/figures.py --from <a cassino bench --json run>"
        )
    assert figures.main(["--check"]) == 0


def test_the_saved_run_is_named(saved: dict[str, Any]) -> None:
    run = saved["run"]
    assert run["command"] == "cassino bench --json --engines"
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", run["date"])
    assert run["machine"] and run["python"] and re.fullmatch(r"[0-9a-f]{7,}", run["commit"])
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"Measured by `{run['command']}` on {run['date']}" in readme


def test_the_saved_run_has_every_figure_bench_measures(saved: dict[str, Any]) -> None:
    f = saved["figures"]
    today = run_bench(quick=True, budget=0.01, systems=True)
    assert set(today) <= set(f), set(today) - set(f)
    for key in ("simulate_speedup", "simulate_greedy_seconds", "simulate_seconds_ray",
                "simulate_seconds_dask"):
        assert f[key] is not None and f[key] > 0, key
    assert f["simulate_identical"] and f["simulate_identical_ray"] and f["simulate_identical_dask"]
    # a new system needs a new run
    assert list(f["system_hands_per_second"]) == list(cassino.implemented_systems())
    assert list(f["systems"]) == list(cassino.implemented_systems())


def test_a_figure_changed_in_the_run_changes_the_docs(saved: dict[str, Any]) -> None:
    changed = copy.deepcopy(saved)
    changed["figures"]["hands_per_second"] = 12_345.0
    changed["figures"]["simulate_seconds_dask"] = 99.0
    rendered = figures.render(changed)
    assert "| 12,300 hands/s |" in rendered["README.md"]
    assert "≥ 100,000, ≥ 100×: NOT met" in rendered["README.md"]
    assert '| `simulate(..., workers=2, engine="dask")` | 99.0 s | yes |' in rendered["docs/scaling.md"]


def test_sig_rounds_to_significant_digits() -> None:
    assert [figures.sig(x) for x in (148801.4, 65.78, 0.5, 0)] == ["149,000", "65.8", "0.500", "0"]
    assert figures.sig(3.2856, 2) == "3.3"


FIGURE = re.compile(  # a measured figure; not a target (after ≥ or ≤)
    r"(?<![≥≤] )(?<![\d,.])\d[\d,.]*\s*(?:M |k )?(?:hands/s|nodes/s|moves/s|ns/position|ns each|µs|ms\b|hands per second)"
    r"|\d[\d,.]*\s*(?:s|seconds) (?:on|of) (?:two|\d) cores"
)


@pytest.mark.parametrize(
    "path", ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))]
)
def test_no_measured_figure_outside_the_generated_blocks(path: str) -> None:
    text = (ROOT / path).read_text(encoding="utf-8")
    outside = re.sub(r"<!-- bench:([\w-]+) -->.*?<!-- /bench:\1 -->", "", text, flags=re.S)
    # code blocks show commands and outputs, not measurements
    outside = re.sub(r"```.*?```", "", outside, flags=re.S)
    assert FIGURE.findall(outside) == []
