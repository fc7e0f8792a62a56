"""``cassino.bench``: the figures of ``cassino bench --json`` measure what they claim.

No figure is compared with a wall-clock limit here (benchmarks/ holds the speed suites);
these tests check the work behind each figure: the corpus, the hard position, the loops,
the perft beside python-chess and the key set of the JSON object.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import cassino
from cassino import _reference
from cassino.bench import (
    HARD_HAND,
    HARD_TABLE,
    OPTION_SETS,
    api_loop,
    bench_corpus,
    chess_perft,
    core_module,
    hard_position,
    run_bench,
)
from cassino.cli import cli
from cassino.position import Position

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "corpus.txt"

TARGET_KEYS = (
    "movegen_ns_per_position",
    "hands_per_second",
    "reference_hands_per_second",
    "api_moves_per_second",
    "api_object_moves_per_second",
    "perft_nodes_per_second",
    "hard_count_ms",
)


def test_bench_corpus_is_the_committed_corpus() -> None:
    lines = [ln for ln in CORPUS.read_text().splitlines() if ln and not ln.startswith("#")]
    made = bench_corpus(60)
    assert [p.to_text() for p in made] == lines[:60]
    assert all(isinstance(p, Position) for p in made)


def test_hard_position_is_the_24_small_cards() -> None:
    pos = hard_position()
    assert bin(pos.loose).count("1") == len(HARD_TABLE) == 24
    assert pos.hands[0] == cassino.CardSet.parse(",".join(HARD_HAND)).mask
    core = core_module()
    if core is None:
        pytest.skip("the compiled core is not built")
    assert core.State.from_position(pos).count_moves() == 16_037_492


def test_api_loop_plays_whole_hands_through_both_apis() -> None:
    r = cassino.rules("cassino_standard")
    by_index = [cassino.State.deal(r, 0, seed) for seed in range(3)]
    by_object = [cassino.State.deal(r, 0, seed) for seed in range(3)]
    assert api_loop(by_index) == api_loop(by_object, objects=True) == 3 * 48
    for a, b in zip(by_index, by_object, strict=True):
        assert a.is_over and b.is_over
        assert a.history == b.history  # same picks, same moves, either way
        assert a.to_position() == b.to_position()


def test_api_loop_agrees_with_the_reference() -> None:
    r = cassino.rules("cassino_standard")
    core = core_module()
    if core is None:
        pytest.skip("the compiled core is not built")
    a = [core.State.deal(r, 1, 11)]
    b = [_reference.State.deal(r, 1, 11)]
    api_loop(a)
    api_loop(b)
    assert a[0].to_position() == b[0].to_position()


def test_chess_perft_counts_the_known_numbers() -> None:
    pytest.importorskip("chess")
    got = chess_perft(3)
    assert got is not None
    assert got[0] == 8902  # perft(3) of the initial chess position
    assert got[1] > 0


def test_state_size_counts_its_buffers() -> None:
    s = cassino.new_hand(seed=2)
    before = sys.getsizeof(s)
    assert before > 0
    if cassino.IMPLEMENTATION == "core":
        for _ in range(40):
            s.push_index(0 if s.num_moves() < 5 else 4)
        assert sys.getsizeof(s) > before  # undo stack and move buffer grew


def test_run_bench_quick_has_every_target_key() -> None:
    f = run_bench(quick=True, budget=0.01, systems=True)
    for key in TARGET_KEYS:
        assert key in f
    assert f["hard_moves"] == 16_037_492
    assert f["reference_hands_per_second"] > 0
    assert f["state_bytes"] > 0
    if f["core_built"]:
        for key in TARGET_KEYS:
            assert f[key] > 0, key
        assert f["api_moves_per_second"] > 0 and f["perft_ratio"] > 1
        assert set(f["system_hands_per_second"]) == set(cassino.implemented_systems())
        assert f["hands_ratio"] > 1
        assert list(f["systems"]) == list(f["system_hands_per_second"])
        for sid, row in f["systems"].items():
            assert row["hands_per_second"] == f["system_hands_per_second"][sid]
            assert row["movegen_ns"] > 0
            # (the standard game timed in alternation with the system: the same minutes)
            assert row["standard_hands_per_second"] > 0
            if sid != "cassino_standard":
                assert row["ratio_to_standard"] == pytest.approx(
                    row["hands_per_second"] / row["standard_hands_per_second"]
                )
            # per move: the hands' move counts (seeded hands, the same in every run)
            standard_moves = f["systems"]["cassino_standard"]["moves_per_hand"]
            assert row["move_ratio_to_standard"] == pytest.approx(
                row["ratio_to_standard"] * row["moves_per_hand"] / standard_moves
            )
        assert f["systems"]["cassino_standard"]["ratio_to_standard"] == 1.0
        # 52 cards less the 4 on the table, one move each; Mulle's 104 less 4
        assert f["systems"]["cassino_standard"]["moves_per_hand"] == 48.0
        assert f["systems"]["mulle"]["moves_per_hand"] == 100.0
        # the option modules that change move generation, on their systems
        assert list(f["option_sets"]) == list(OPTION_SETS)
        for label, row in f["option_sets"].items():
            assert row["ratio_to_standard"] == pytest.approx(
                row["hands_per_second"] / row["standard_hands_per_second"]
            )
            # (an Eléwénjewé hand: 48 cards dealt, one move each; 50 for five with jokers)
            assert row["moves_per_hand"] == (50.0 if "five" in label else 48.0), label


@pytest.mark.slow
def test_bench_json_with_workers() -> None:
    result = CliRunner().invoke(cli, ["bench", "--quick", "--json", "--workers"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for key in TARGET_KEYS:
        assert key in data
    assert data["simulate_identical"] is True
    assert data["simulate_games"] == 40
    assert data["simulate_speedup"] > 0
    # the core players against the Python players, one run
    assert data["players_games_per_second_core"] > data["players_games_per_second_python"] > 0
    assert data["players_core_ratio"] == pytest.approx(
        data["players_games_per_second_core"] / data["players_games_per_second_python"]
    )


@pytest.mark.slow
def test_benchmark_suite_runs_and_checks_its_results() -> None:
    """Every benchmark of benchmarks/ runs once (timing disabled) and its assertions hold;
    the two-worker scaling benchmark is left to real benchmark runs."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "benchmarks",
         "--benchmark-disable", "-k", "not two_workers"],
        cwd=root, capture_output=True, text=True, timeout=900,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout and "failed" not in proc.stdout


@pytest.mark.slow
def test_bench_json_with_engines() -> None:
    """--engines times the two-worker run on each installed engine; stdout stays JSON
    whatever the engines print."""
    import subprocess

    out = subprocess.run(
        [sys.executable, "-m", "cassino.cli", "bench", "--quick", "--json", "--engines"],
        capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["simulate_games"] == 40 and data["simulate_greedy_seconds"] > 0
    for engine, module in (("ray", "ray"), ("dask", "distributed")):
        try:
            __import__(module)
        except ImportError:
            assert data[f"simulate_seconds_{engine}"] is None
        else:
            assert data[f"simulate_seconds_{engine}"] > 0
            assert data[f"simulate_identical_{engine}"] is True
