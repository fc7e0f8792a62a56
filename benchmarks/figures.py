"""Write every performance figure of README.md and docs/ from one ``cassino bench`` run.

    python benchmarks/figures.py                # run `cassino bench --json --engines`, save it, write the docs
    python benchmarks/figures.py --from F.json  # write the docs from `cassino bench --json` output,
                                                # or from a saved run (benchmarks/results/bench.json)
    python benchmarks/figures.py --check        # exit 1 if the docs differ from the saved run

The run is saved to ``benchmarks/results/bench.json`` with its date, command, machine and
commit. In README.md and docs/*.md, the text between ``<!-- bench:NAME -->`` and
``<!-- /bench:NAME -->`` is generated from it (the blocks of :data:`BLOCKS`); nothing else
in those files states a measured figure. ``tests/test_figures.py`` checks that the committed
docs are exactly what the committed run gives.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import re
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "bench.json"
COMMAND = ["cassino", "bench", "--json", "--engines"]

Figures = Mapping[str, Any]


def sig(x: float, digits: int = 3) -> str:
    """``x`` rounded to ``digits`` significant digits, with thousands separators.

    >>> sig(148801.4), sig(65.78), sig(3.2856, 2), sig(0.5)
    ('149,000', '65.8', '3.3', '0.500')
    """
    if x == 0:
        return "0"
    places = digits - 1 - math.floor(math.log10(abs(x)))
    rounded = round(x, places)
    return f"{rounded:,.{max(0, places)}f}"


def met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def run_line(run: Mapping[str, Any]) -> str:
    return (
        f"Measured by `{run['command']}` on {run['date']} ({run['machine']}, Python "
        f"{run['python']}, commit {run['commit']}), saved in `benchmarks/results/bench.json` "
        "and written here by `python benchmarks/figures.py`."
    )


def readme_summary(f: Figures, run: Mapping[str, Any]) -> str:
    chess = f.get("chess_perft_nodes_per_second")
    rows = [
        "| figure | core | reference | ratio | target |",
        "|---|---|---|---|---|",
        f"| legal-move generation over the corpus (`movegen_batch`, {f['positions']:,} positions) "
        f"| {sig(f['movegen_ns_per_position'])} ns/position "
        f"| {sig(f['reference_movegen_ns_per_position'] / 1000)} µs "
        f"| {sig(f['movegen_ratio'], 2)}× "
        f"| ≤ 200 ns: {met(f['movegen_ns_per_position'] <= 200)} |",
        f"| random full hands, `cassino.playouts` | {sig(f['hands_per_second'])} hands/s "
        f"| {sig(f['reference_hands_per_second'])} hands/s | {sig(f['hands_ratio'], 2)}× "
        f"| ≥ 100,000, ≥ 100×: {met(f['hands_per_second'] >= 1e5 and f['hands_ratio'] >= 100)} |",
        f"| Python loop, `num_moves` + `push_index` | {sig(f['api_moves_per_second'] / 1e6)} M moves/s "
        f"| | | ≥ 1,500,000: {met(f['api_moves_per_second'] >= 1.5e6)} |",
        f"| Python loop, `push(move_at(i))` | {sig(f['api_object_moves_per_second'] / 1e6)} M moves/s "
        f"| | | ≥ 300,000: {met(f['api_object_moves_per_second'] >= 3e5)} |",
        f"| perft, depth {f['perft_depth']} (reference: depth {f['reference_perft_depth']}) "
        f"| {sig(f['perft_nodes_per_second'] / 1e6)} M nodes/s "
        f"| {sig(f['reference_perft_nodes_per_second'])} nodes/s | {sig(f['perft_ratio'], 2)}× | |",
    ]
    if chess is not None:
        rows.append(
            f"| python-chess perft, depth {f['chess_perft_depth']}, same run "
            f"| {sig(chess)} nodes/s | | ours {sig(f['perft_vs_chess'], 2)}× | |"
        )
    rows += [
        f"| exact count of 24 small cards ({f['hard_moves']:,} moves) | {sig(f['hard_count_ms'], 2)} ms "
        f"| | | ≤ 10 ms: {met(f['hard_count_ms'] <= 10)} |",
        f"| `simulate --workers 2` vs 1 ({f['simulate_games']:,} games) "
        f"| {f['simulate_speedup']:.2f}×, "
        f"{'identical results' if f['simulate_identical'] else 'RESULTS DIFFER'} "
        f"| | | ≥ 1.8×: {met(f['simulate_speedup'] >= 1.8)} |",
        f"| a dealt state, moves listed | {f['state_bytes']:,} bytes "
        f"(C position: {f['core_position_bytes']:,}) | | | |",
    ]
    return "\n".join([run_line(run), "", *rows, "", system_table(f, run)])


def system_table(f: Figures, run: Mapping[str, Any]) -> str:
    """Every implemented system: random hands per second, their ratio to the standard
    game's, and move generation over positions of its random games (bench's ``systems``)."""
    rows = [
        "Every implemented system, the same run: random full hands per second "
        "(`cassino.playouts`, random players, one core), their ratio to `cassino_standard`'s "
        "(timed in alternation with each system, so that both rates come from the same minutes), "
        "the moves of a hand and the same ratio per move played, "
        f"move generation over {f['system_positions']} positions of the system's random games "
        "(`movegen_batch`), and `explain()` of two illegal moves of each of those positions "
        "(`cassino.bench.explain_us`: median and 99th percentile; an illegal `push` costs the "
        "same, its message being that sentence); the last rows are the option modules that "
        "change move generation, on a system each (`cassino.bench.OPTION_SETS`, playouts only):",
        "",
        "| system | hands/s | ratio to standard | moves a hand | ratio per move "
        "| move generation | explain, median | explain, p99 "
        "| why it differs from the standard game |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for sid, row in f["systems"].items():
        explain = (
            f"{sig(row['explain_us'])} µs | {sig(row['explain_us_p99'])} µs"
            if "explain_us" in row
            else " | "
        )
        per_move = (
            f"{row['moves_per_hand']:.1f} | {row['move_ratio_to_standard']:.2f}"
            if "moves_per_hand" in row
            else " | "
        )
        rows.append(
            f"| `{sid}` | {sig(row['hands_per_second'])} | {row['ratio_to_standard']:.2f} "
            f"| {per_move} | {sig(row['movegen_ns'])} ns | {explain} "
            f"| {SYSTEM_NOTES.get(sid, '')} |"
        )
    for label, row in (f.get("option_sets") or {}).items():
        rows.append(
            f"| `{label}` | {sig(row['hands_per_second'])} | {row['ratio_to_standard']:.2f} "
            f"| {row['moves_per_hand']:.1f} | {row['move_ratio_to_standard']:.2f} | | | "
            f"| {SYSTEM_NOTES.get(label, '')} |"
        )
    ref = f.get("reference_systems") or {}
    if ref:
        rows += [
            "",
            "The compound systems (African Cassino, the Italian house variant): random hands "
            "per second of the pure-Python reference, next to the reference's own standard game timed in "
            "alternation with it, and of the core (hands wholly in C, "
            "`cassino._core.whole_hand`; seeds 1 to "
            f"{next(iter(ref.values())).get('core_hands', 60)}, the reference's hands among "
            "them: a hand's cost has a long tail), next to the core's standard playouts "
            "of this run "
            "(`cassino.bench.reference_rates`):",
            "",
            "| system | reference hands/s | reference, standard hands/s | ratio "
            "| core hands/s | core, standard hands/s | ratio |",
            "|---|---|---|---|---|---|---|",
        ]
        for sid, row in ref.items():
            core = (f"| {sig(row['core_hands_per_second'])} "
                    f"| {sig(row['core_standard_hands_per_second'])} "
                    f"| {row['core_ratio_to_standard']:.4f} |"
                    if "core_hands_per_second" in row else "| | | |")
            rows.append(
                f"| `{sid}` | {row['reference_hands_per_second']:.2f} "
                f"| {sig(row['reference_standard_hands_per_second'])} "
                f"| {row['ratio_to_reference_standard']:.2f} " + core
            )
    return "\n".join(rows)


SYSTEM_NOTES = {
    "elewenjewe_amateur esun=true": (
        "option module opt_esun: `gen_esun` lists the loose cards' moves, then the captures "
        "of Esun piles and every creation (unions of groups of a value held), and sorts again; "
        "random play builds often"
    ),
    "cassino_royal": (
        "two-valued aces: `gen_multi` runs the bitset and group paths once per valuing and "
        "played value, then drops repeats and relabellings"
    ),
    "cassino_buckeye": "two-valued aces and 10D: `gen_multi`",
    "swedish_kassino": (
        "capture-only: random playouts count and pick a move without listing (`pick_setup`); "
        "move generation lists, two-valued aces through `gen_multi`"
    ),
    "mulle": (
        "as Swedish Kassino, in the core's 128-bit wide copy; 104 cards, so a hand has twice "
        "the moves of a 52-card hand"
    ),
    "cassino_trailing_royals": "a table with a face build takes the generic path",
    "diloti": "`gen_diloti`: bitsets on small tables, a subset walk on larger ones, the declaration filter",
    "diloti_four_player": "`gen_diloti`; raises record the team",
    "callabra": "shorter hands, one small generator",
    "kontsina": "one small generator, `gen_single_group`",
    "bella_donna_halliel": "`gen_single_group` and the pile steals, through the list filter",
    "zwickern": (
        "the 128-bit wide copy (58 cards with the jokers); `gen_zwickern` tries a joker in hand "
        "at each of its 13 values and every subset of the loose cards for a split (`zw_split`)"
    ),
}
"""A word on each system whose playouts run at another speed (the README's table)."""


def readme_first_command(f: Figures, run: Mapping[str, Any]) -> str:
    return f"about {sig(f['simulate_greedy_seconds'], 2)} s on {f['simulate_greedy_workers']} cores"


def scaling_workers(f: Figures, run: Mapping[str, Any]) -> str:
    games = f["simulate_games"]
    rows = [
        run_line(run) + " Random players, seed 1, start-up of the pool included:",
        "",
        "| run | wall time | speed-up |",
        "|---|---|---|",
        f"| `simulate(games={games}, workers=1)` | {f['simulate_seconds_1_worker']:.1f} s | 1.00× |",
        f"| `simulate(games={games}, workers=2)` | {f['simulate_seconds_2_workers']:.1f} s "
        f"| {f['simulate_speedup']:.2f}× |",
    ]
    return "\n".join(rows)


def scaling_engines(f: Figures, run: Mapping[str, Any]) -> str:
    games = f["simulate_games"]
    rows = [
        f"The same run, {games:,} games of `random,random` with 2 workers, start-up and shut-down "
        "of the engine's private cluster included:",
        "",
        "| engine | wall time | same records as local |",
        "|---|---|---|",
        f"| `simulate(..., workers=2)` (local) | {f['simulate_seconds_2_workers']:.1f} s | — |",
    ]
    for engine in ("ray", "dask"):
        secs = f.get(f"simulate_seconds_{engine}")
        if secs is None:
            rows.append(f"| `simulate(..., workers=2, engine=\"{engine}\")` | not installed | |")
        else:
            same = "yes" if f.get(f"simulate_identical_{engine}") else "NO"
            rows.append(
                f"| `simulate(..., workers=2, engine=\"{engine}\")` | {secs:.1f} s | {same} |"
            )
    return "\n".join(rows)


def chunk_seconds(f: Figures, run: Mapping[str, Any]) -> str:
    per_game = f["simulate_seconds_1_worker"] / f["simulate_games"]
    return f"about {sig(1000 * per_game, 2)} s"


BLOCKS: dict[str, tuple[str, Callable[[Figures, Mapping[str, Any]], str]]] = {
    "summary": ("README.md", readme_summary),
    "systems": ("docs/benchmarks.md", lambda f, run: run_line(run) + "\n\n" + system_table(f, run)),
    "first-command": ("README.md", readme_first_command),
    "workers": ("docs/scaling.md", scaling_workers),
    "engines": ("docs/scaling.md", scaling_engines),
    "chunk-seconds": ("docs/scaling.md", chunk_seconds),
}
"""Each generated block: its file and what writes it."""


def block_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- bench:{re.escape(name)} -->)(.*?)(<!-- /bench:{re.escape(name)} -->)", re.S)


def render(saved: Mapping[str, Any], root: Path = ROOT) -> dict[str, str]:
    """The new text of every file with a block, from a saved run."""
    f, run = saved["figures"], saved["run"]
    texts: dict[str, str] = {}
    for name, (path, write) in BLOCKS.items():
        text = texts.get(path) or (root / path).read_text(encoding="utf-8")
        pattern = block_pattern(name)
        found = pattern.findall(text)
        if not found:
            raise SystemExit(f"{path}: no <!-- bench:{name} --> block")
        body = write(f, run)
        inline = "\n" not in body
        new = body if inline else f"\n{body}\n"
        texts[path] = pattern.sub(lambda m, new=new: m.group(1) + new + m.group(3), text)
    return texts


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()}"


def commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                             capture_output=True, text=True, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def measure() -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "cassino.cli", *COMMAND[1:]],
        capture_output=True, text=True, check=True,
    )
    return dict(json.loads(out.stdout))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--from", dest="source", help="a saved `cassino bench --json` output")
    parser.add_argument("--date", help="the date of that run (default: today)")
    parser.add_argument("--check", action="store_true", help="only compare the docs with the saved run")
    args = parser.parse_args(argv)
    if args.check:
        saved = json.loads(RESULTS.read_text(encoding="utf-8"))
        stale = [p for p, t in render(saved).items() if (ROOT / p).read_text(encoding="utf-8") != t]
        for path in stale:
            print(f"{path}: figures differ from benchmarks/results/bench.json "
                  "(python benchmarks/figures.py --from ... to rewrite)", file=sys.stderr)
        return 1 if stale else 0
    figures = json.loads(Path(args.source).read_text(encoding="utf-8")) if args.source else measure()
    if set(figures) == {"run", "figures"}:
        saved = figures     # a saved run (benchmarks/results/bench.json): its own record
    else:
        saved = {
            "run": {
                "command": " ".join(COMMAND),
                "date": args.date or datetime.date.today().isoformat(),
                "machine": machine(),
                "python": figures.get("python", platform.python_version()),
                "commit": commit(),
            },
            "figures": figures,
        }
    texts = render(saved)   # (before anything is written: a bad file changes nothing)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(saved, indent=2) + "\n", encoding="utf-8")
    for path, text in texts.items():
        (ROOT / path).write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
