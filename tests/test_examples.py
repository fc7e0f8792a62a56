"""The examples/ scripts run, and the learning example learns."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_openspiel_ismcts_example_plays_hands():
    pytest.importorskip("pyspiel")
    out = load("openspiel_ismcts").main(
        ["--hands", "2", "--simulations", "5", "--opponent", "greedy", "--system", "kontsina"])
    assert out["openspiel_won"] + out["openspiel_lost"] + out["drawn"] == 2
    out2 = load("openspiel_ismcts").main(
        ["--hands", "2", "--simulations", "5", "--opponent", "greedy", "--system", "kontsina"])
    assert out2["openspiel_mean_margin"] == out["openspiel_mean_margin"]   # seeded


@pytest.mark.slow
def test_masked_policy_learns_against_random():
    pytest.importorskip("gymnasium")
    out = load("train_masked_policy").main(["--hands", "400", "--eval", "200", "--seed", "1"])
    before, after = out["untrained"], out["trained"]
    assert before["hands"] == after["hands"] == 200
    # the intervals do not even overlap
    assert after["ci95"][0] > before["ci95"][1], out


def test_masked_policy_runs_small():
    pytest.importorskip("gymnasium")
    out = load("train_masked_policy").main(["--hands", "16", "--eval", "4", "--system",
                                            "kontsina"])
    assert out["training_hands"] == 16 and out["trained"]["hands"] == 4
    assert 0 <= out["trained"]["win_rate"] <= 1
