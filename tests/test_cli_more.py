"""``cassino simulate``, ``bench``, ``variants`` and ``rules`` (CliRunner and real processes)."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import cassino
from cassino.cli import _ProgressBar, cli
from cassino.rules import OPTION_MODULES, OPTION_NAMES, SYSTEMS
from cassino.simulate import simulate
from conftest import assert_one_line_error

REFERENCE = cassino.IMPLEMENTATION == "reference"
GAMES = "4" if REFERENCE else "20"


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin, prog_name="cassino")


def proc(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cassino.cli", *args],
        capture_output=True, text=True, timeout=120, env={**os.environ, **(env or {})},
    )


# -- simulate ------------------------------------------------------------------------------
def test_simulate_prints_a_summary_table() -> None:
    result = run("simulate", "--games", GAMES, "--seed", "3", "--workers", "1")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith(f"cassino_standard: {GAMES} games, seed 3, random#0 vs random#1")
    for word in ("Results", "win rate", "95% CI", "mean score", "Mean points per game",
                 "big_cassino", "ace_diamonds", "total", "game length:"):
        assert word in out
    assert "sweeps" not in out  # neither counted nor scored without the option
    assert result.stderr == ""  # no progress bar when stderr is not a terminal
    s = simulate(games=int(GAMES), seed=3, workers=1).summary
    row = next(ln for ln in out.splitlines() if "random#0" in ln and "%" in ln)
    assert f" {s.wins[0]} " in row and f"{100 * s.win_rate[0]:.1f}%" in row
    lo, hi = s.ci95[0]
    assert f"{100 * lo:.1f}-{100 * hi:.1f}%" in row


def test_simulate_output_does_not_depend_on_workers() -> None:
    a = run("simulate", "--games", GAMES, "--seed", "2", "--workers", "1")
    b = run("simulate", "--games", GAMES, "--seed", "2", "--workers", "2")
    assert a.exit_code == b.exit_code == 0
    assert a.stdout == b.stdout
    ja = run("simulate", "--games", GAMES, "--seed", "2", "--workers", "1", "--json")
    jb = run("simulate", "--games", GAMES, "--seed", "2", "--workers", "2", "--json")
    assert ja.stdout == jb.stdout


def test_simulate_json() -> None:
    result = run("simulate", "--games", "4", "--seed", "1", "--workers", "1", "--json",
                 "--option", "sweeps=true", "--duplicate")
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 1
    data = json.loads(result.stdout)
    api = simulate(games=4, seed=1, workers=1, options={"sweeps": True}, duplicate=True)
    assert data == api.to_dict()
    assert result.stdout == api.to_json() + "\n"   # streamed game by game, the same bytes
    s = data["summary"]
    assert s["players"] == ["random", "random"] and s["games"] == 4
    assert s["options"] == {"sweeps": True} and s["duplicate"] is True
    assert len(s["wins"]) == len(s["win_rate"]) == len(s["ci95"]) == 2
    assert [g["index"] for g in data["games"]] == [0, 1, 2, 3]
    assert data["games"][0]["seed"] == data["games"][1]["seed"]


def test_simulate_csv() -> None:
    result = run("simulate", "--games", "3", "--seed", "1", "--workers", "1", "--csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0][:6] == ["index", "seed", "winner", "hands", "moves", "first"]
    assert result.stdout == simulate(games=3, seed=1, workers=1).to_csv()   # streamed rows
    assert [r[0] for r in rows[1:]] == ["0", "1", "2"]
    assert all(len(r) == len(rows[0]) for r in rows)


def test_simulate_three_players() -> None:
    result = run("simulate", "--system", "cassino_standard_002", "--players", "random,random,random",
                 "--games", "3", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "random#2" in result.stdout and "players=3" in result.stdout
    assert "mean sweeps" in result.stdout  # the 002 preset scores sweeps


def test_simulate_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "chart.png"
    result = run("simulate", "--games", "4", "--workers", "1", "--plot", str(png), "--json")
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert json.loads(result.stdout)["summary"]["games"] == 4


@pytest.mark.parametrize("players", ["greedy,random", "random,greedy"])
def test_simulate_plot_at_0_and_100_percent_wins(players: str, tmp_path: Path) -> None:
    """Issue 23: the Wilson bounds at 0 wins and at all wins rounded past the win rate,
    and matplotlib refused the negative error bar (the issue's own command, both seatings)."""
    pytest.importorskip("matplotlib")
    png = tmp_path / "chart.png"
    result = run("simulate", "--games", "50", "--players", players, "--seed", "1",
                 "--plot", str(png), "--json")
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    summary = json.loads(result.stdout)["summary"]
    for lo, hi in summary["ci95"]:
        assert 0.0 <= lo <= hi <= 1.0


def test_wilson_bounds_are_exact_at_the_ends() -> None:
    from cassino.simulate import wilson_interval

    for n in (1, 7, 50, 1000, 10**6):
        assert wilson_interval(0, n)[0] == 0.0 and wilson_interval(n, n)[1] == 1.0
        lo, hi = wilson_interval(n // 3, n)
        assert 0.0 <= lo <= n // 3 / n <= hi <= 1.0


def test_a_failing_plot_keeps_the_results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib")
    import cassino.cli as cli_module

    def broken(result: object, path: str) -> None:
        raise ValueError("the plot broke")

    monkeypatch.setattr(cli_module, "plot_result", broken)
    result = run("simulate", "--games", "4", "--workers", "1", "--plot", str(tmp_path / "p.png"))
    assert result.exit_code != 0
    assert "win rate" in result.stdout       # the table came out before the plot failed


def test_simulate_plot_without_matplotlib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    result = run("simulate", "--games", "2", "--plot", str(tmp_path / "x.png"))
    assert_one_line_error(result, r"pip install 'cassino\[plot\]'")
    assert not (tmp_path / "x.png").exists()


def test_progress_bar_draws_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    bar = _ProgressBar()
    bar(0, 10)
    bar(10, 10)
    bar.close()
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    ("args", "pattern"),
    [
        (["--system", "nope"], r"unknown system 'nope'"),
        (["--option", "colour=red"], r"unknown option 'colour'"),
        (["--option", "sweeps=maybe"], r"option sweeps must be true or false, not 'maybe'"),
        (["--option", "obligation=v9"], r"obligation must be one of"),
        (["--option", "sweeps"], r"must look like name=value"),
        (["--players", "random,nobody"], r"unknown player 'nobody'"),
        (["--players", "random,nomodule_xyz:P"], r"cannot import player module 'nomodule_xyz'"),
        (["--players", "random"], r"played by 2 players, not 1"),
        (["--players", "random,random,random"], r"played by 2 players, not 3"),
        (["--players", "random,,random"], r"--players must be comma-separated"),
        (["--games", "0"], r"--games.*0 is not in the range x>=1"),
        (["--games", "-3"], r"--games"),
        (["--games", "many"], r"--games.*not a valid integer"),
        (["--workers", "0"], r"--workers.*0 is not in the range x>=1"),
        (["--workers", "-1"], r"--workers"),
        (["--workers", "two"], r"--workers"),
        (["--seed", "x"], r"--seed"),
        (["--duplicate", "--games", "3"], r"not a multiple of 2"),
        (["--json", "--csv"], r"--json and --csv cannot be combined"),
        (["--plot", "/nonexistent-dir/x.png"], r"no such directory"),
        (["--bogus"], r"No such option"),
    ],
)
def test_simulate_bad_input(args: list[str], pattern: str) -> None:
    assert_one_line_error(run("simulate", "--games", "2", "--workers", "1", *args), pattern)


def test_simulate_subprocess_is_deterministic() -> None:
    args = ["simulate", "--games", GAMES, "--seed", "9", "--workers", "2"]
    first, second = proc(*args), proc(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout and first.stderr == ""
    assert first.stdout == run(*args).stdout
    bad = proc("simulate", "--players", "random,nobody")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("error: unknown player") and len(bad.stderr.splitlines()) == 1


def test_simulate_core_and_reference_agree() -> None:
    args = ["simulate", "--games", "2", "--seed", "4", "--workers", "1", "--json"]
    ref = proc(*args, env={"CASSINO_PURE_PYTHON": "1"})
    assert ref.returncode == 0, ref.stderr
    assert json.loads(ref.stdout) == json.loads(proc(*args, env={"CASSINO_PURE_PYTHON": "0"}).stdout)


# -- bench ---------------------------------------------------------------------------------
BENCH_KEYS = (
    "movegen_ns_per_position", "reference_movegen_ns_per_position", "movegen_ratio",
    "hands_per_second", "reference_hands_per_second", "hands_ratio",
    "perft_nodes_per_second", "reference_perft_nodes_per_second", "perft_ratio",
    "api_moves_per_second", "api_object_moves_per_second", "hard_count_ms", "state_bytes",
)


def test_bench_json_quick() -> None:
    result = run("bench", "--quick", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for key in BENCH_KEYS:
        assert key in data
        assert data[key] is None or data[key] > 0
    assert data["reference_hands_per_second"] > 0
    if data["core_built"]:
        assert data["hands_per_second"] > data["reference_hands_per_second"]
        assert data["movegen_ratio"] > 1


def test_bench_table_subprocess() -> None:
    result = proc("bench", "--quick")
    assert result.returncode == 0, result.stderr
    for word in ("legal-move generation", "random full hands per second", "perft nodes per second",
                 "reference", "ratio"):
        assert word in result.stdout
    assert proc("bench", "--fast").returncode == 2


# -- variants ------------------------------------------------------------------------------
def test_variants_lists_every_system() -> None:
    result = run("variants")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for sid, info in SYSTEMS.items():
        line = next(ln for ln in out.splitlines() if re.search(rf"\b{sid}\b", ln))
        assert info.status in line
        assert info.players in line
    for mid in OPTION_MODULES:
        assert mid in out


@pytest.mark.parametrize("columns", ["80", "60", "200"])
def test_variants_never_cuts_an_id(columns: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23: at COLUMNS=80 the ids came out as ``cassino_standa…``; ids are typed."""
    monkeypatch.setenv("COLUMNS", columns)
    out = run("variants").stdout
    lines = out.splitlines()
    assert "…" not in out
    for sid, info in SYSTEMS.items():
        line = next(ln for ln in lines if re.search(rf"(^|[│ ]){sid}($|[│ ])", ln))
        assert info.status in line
    for mid in OPTION_MODULES:
        assert re.search(rf"(^|[│ ]){mid}($|[│ ])", out), mid
    if int(columns) >= 80:
        assert max(len(ln) for ln in lines) <= int(columns)


def test_variants_json_and_subprocess() -> None:
    data = json.loads(run("variants", "--json").stdout)
    assert [s["id"] for s in data["systems"]] == list(SYSTEMS)
    assert len(data["systems"]) == 36
    std = data["systems"][0]
    assert std == {
        "id": "cassino_standard", "name": "Standard Cassino", "players": "2", "implemented": True,
        "status": "done", "section": "3.1", "summary": SYSTEMS["cassino_standard"].summary,
    }
    assert [s["status"] for s in data["systems"]] == [s.status for s in SYSTEMS.values()]
    assert {m["id"] for m in data["option_modules"]} == set(OPTION_MODULES)
    sub = proc("variants")
    assert sub.returncode == 0 and sub.stdout == run("variants").stdout
    assert proc("variants", "extra").returncode == 2


# -- rules ---------------------------------------------------------------------------------
def test_rules_of_an_implemented_system() -> None:
    result = run("rules", "cassino_standard_002")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("Standard Cassino (rules of seed 002) (cassino_standard_002), docs/rules.md §3.1")
    assert "status: implemented" in out
    for name in OPTION_NAMES:
        assert re.search(rf"\b{name}\b", out), name
    line = next(ln for ln in out.splitlines() if ln.startswith("│ obligation "))
    assert "v3" in line and "none | v1 | v2 | v3" in line
    line = next(ln for ln in out.splitlines() if ln.startswith("│ players "))
    assert "2-3" in line


def test_rules_with_options_and_json() -> None:
    data = json.loads(run("rules", "cassino_standard", "--option", "sweeps=true", "--json").stdout)
    assert data["implemented"] and data["section"] == "3.1"
    assert set(data["options"]) == set(OPTION_NAMES)
    assert data["options"]["sweeps"] == {"value": True, "allowed": "true | false"}
    assert data["options"]["face_capture"]["value"] == "one_or_three"
    assert data["options"]["pluck"] == {"value": False, "allowed": "true | false"}
    assert data["options"]["michigan"]["allowed"] == "true | false"  # (every module is implemented)
    assert data["options"]["michigan"]["allowed"] == "true | false"
    assert data["options"]["all_eleven"]["allowed"] == "none | bonus | skunk | auto_win"
    assert data["options"]["sudden_death"]["allowed"] == "none | sweep_instant | point_cards_instant"
    out = run("rules", "cassino_standard", "--option", "target=11").stdout
    assert re.search(r"target\*\s.*\b11\b", out)


def test_rules_of_a_planned_system(monkeypatch: pytest.MonkeyPatch) -> None:
    # (every system of docs/rules.md plays now: a registry entry without a preset is planned)
    from cassino.rules import SystemInfo

    monkeypatch.setitem(SYSTEMS, "planned_example", SystemInfo(
        "planned_example", "Example", "2", "A planned system.", False, "3.25", {}))
    result = run("rules", "planned_example")
    assert result.exit_code == 0, result.output
    assert "(planned_example), docs/rules.md §3.25" in result.stdout
    assert "not implemented yet" in result.stdout
    assert "A planned system." in result.stdout
    data = json.loads(run("rules", "planned_example", "--json").stdout)
    assert data["implemented"] is False and data["options"] is None and data["status"] == "planned"


def test_rules_of_a_compound_system() -> None:
    result = run("rules", "african_cassino_3p")
    assert result.exit_code == 0, result.output
    assert "African (Swazi) Cassino (african_cassino_3p), docs/rules.md §3.22" in result.stdout
    assert "status: implemented (compound turns" in result.stdout
    assert "CompoundState" in result.stdout
    data = json.loads(run("rules", "african_cassino_3p", "--json").stdout)
    assert data["status"] == "done" and data["options"]["pile_order"]["value"] == "full"


@pytest.mark.parametrize(
    ("args", "pattern"),
    [
        (["nope"], r"unknown system 'nope'"),
        (["cassino_standard", "--option", "colour=red"], r"unknown option 'colour'"),
        (["cassino_standard", "--option", "target=high"], r"target must be an integer"),
        (["italian_house_cassino", "--option", "sweeps=true"], r"sweeps=true cannot be combined"),
        ([], r"Missing argument 'SYSTEM'"),
    ],
)
def test_rules_bad_input(args: list[str], pattern: str) -> None:
    assert_one_line_error(run("rules", *args), pattern)


def test_rules_subprocess() -> None:
    ok = proc("rules", "cassino_standard")
    assert ok.returncode == 0 and "natural_build_combination" in ok.stdout
    bad = proc("rules", "nope")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == "error: unknown system 'nope' (cassino variants lists them)\n"


def test_help_lists_the_new_commands() -> None:
    out = run("--help").stdout
    for name in ("simulate", "bench", "variants", "rules", "moves", "perft", "score", "new"):
        assert re.search(rf"^\s+{name}\b", out, re.M), name


def test_perft_depth_below_zero_is_named(tmp_path: Path) -> None:
    """Issue 23: ``cassino perft pos.json -1`` said "No such option '-1'"."""
    path = tmp_path / "p.json"
    path.write_text(cassino.new_hand(seed=1).to_position().to_json())
    assert_one_line_error(run("perft", str(path), "-1"), r"the depth must be ≥ 0, not -1")
    assert_one_line_error(run("perft", str(path), "two"), r"the depth must be a whole number ≥ 0")
    ok = run("perft", str(path), "2")
    assert ok.exit_code == 0 and ok.stdout == "43\n"


def test_an_unknown_option_lists_the_valid_ones() -> None:
    from cassino.rules import OPTION_NAMES

    result = run("simulate", "--games", "1", "--option", "sweep=true")
    assert_one_line_error(result, r"unknown option 'sweep' \(did you mean 'sweeps'\?\)")
    for name in OPTION_NAMES:
        assert name in result.stderr
    with pytest.raises(cassino.RulesError, match=r"valid options: .*target"):
        cassino.rules("cassino_standard", colour="red")


BOT_MODULE = '''
class Bot:
    """Plays the first legal move."""

    def choose(self, view, moves):
        return moves[0]


class Broken:
    def choose(self, view, moves):
        raise RuntimeError("boom")
'''


def _in(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``cassino ARGS`` as a user runs it, in ``tmp``, with no PYTHONPATH."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CASSINO_DEBUG")}
    script = Path(sys.executable).with_name("cassino")
    cmd = [str(script)] if script.exists() else [sys.executable, "-c",
                                                 "from cassino.cli import main; main()"]
    return subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=120, cwd=tmp, env=env)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_bot_from_the_working_directory(tmp_path: Path, workers: str) -> None:
    """Issue 23: ``--players mybot:Bot`` with mybot.py in the working directory."""
    (tmp_path / "mybot_wd.py").write_text(BOT_MODULE)
    res = _in(tmp_path, "simulate", "--games", "2", "--players", "mybot_wd:Bot,random",
              "--workers", workers, "--json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["summary"]["games"] == 2


def test_a_bot_that_raises_shows_its_traceback_with_debug(tmp_path: Path) -> None:
    (tmp_path / "mybot_wd.py").write_text(BOT_MODULE)
    args = ("simulate", "--games", "1", "--players", "mybot_wd:Broken,random", "--workers", "1")
    plain = _in(tmp_path, *args)
    assert plain.returncode == 2
    assert plain.stderr.splitlines() == [
        "error: internal error: RuntimeError: boom (run with --debug, as "
        "'cassino --debug COMMAND ...', for the traceback)"
    ]
    debug = _in(tmp_path, "--debug", *args)
    assert debug.returncode == 2
    assert "Traceback (most recent call last)" in debug.stderr
    assert 'mybot_wd.py", line 11, in choose' in debug.stderr
    assert debug.stderr.splitlines()[-1] == "error: internal error: RuntimeError: boom"


def test_perft_on_a_terminal_shows_progress_over_the_first_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23: a deep perft on a TTY reports each first move done (on stderr), and prints
    the same count; with --divide the same lines as without a terminal."""
    import cassino.cli as cli_module

    reports: list[tuple[str, int, int]] = []

    class Bar:
        def __init__(self, label: str = "") -> None:
            self.label = label

        def __call__(self, done: int, total: int) -> None:
            reports.append((self.label, done, total))

        def close(self) -> None:
            reports.append((self.label, -1, -1))

    text = cassino.new_hand(seed=3).to_position().to_text()
    plain = run("perft", "-", "3", stdin=text).stdout
    divided = run("perft", "-", "3", "--divide", stdin=text).stdout
    monkeypatch.setattr(cli_module, "_stderr_tty", lambda: True)
    monkeypatch.setattr(cli_module, "_ProgressBar", Bar)
    assert run("perft", "-", "3", stdin=text).stdout == plain
    n = cassino.new_hand(seed=3).count_moves()
    assert reports == [("perft, first moves", i, n) for i in range(n + 1)] + [("perft, first moves", -1, -1)]
    assert run("perft", "-", "3", "--divide", stdin=text).stdout == divided


@pytest.mark.parametrize("system", ["cassino_royal", "diloti_four_player", "zwickern"])
def test_rules_prints_the_rules_reference_text(system: str) -> None:
    """cassino rules ID prints the system's part of docs/rules.md, word for word (issue 23)."""
    from cassino.rules import system_rules_text

    text = system_rules_text(system)
    out = run("rules", system)
    assert out.exit_code == 0, out.output
    assert text in out.stdout
    assert json.loads(run("rules", system, "--json").stdout)["rules"] == text
    doc = (Path(__file__).resolve().parent.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    assert text.split("\n\nAmbiguities cited above")[0].split("\n\n### 5.")[0] in doc


def test_simulate_help_gives_the_chunk_defaults_of_the_code() -> None:
    from cassino.distributed import DISTRIBUTED_CHUNK
    from cassino.simulate import LOCAL_CHUNK

    text = " ".join(run("simulate", "--help").stdout.split())
    assert f"up to {LOCAL_CHUNK} locally, up to {DISTRIBUTED_CHUNK} on ray or dask" in text
    from cassino.simulate import STALL_TIMEOUT

    assert "--stall-timeout SECONDS" in text
    assert f"[default: {STALL_TIMEOUT}; x>=0]" in text


@pytest.mark.parametrize(
    ("extra", "stdout_tty", "drawn"),
    [([], True, True), (["--json"], False, True), (["--csv"], False, True),
     (["--json"], True, False), (["--csv"], True, False)],
)
def test_progress_bar_unless_the_rows_share_its_terminal(
    monkeypatch: pytest.MonkeyPatch, extra: list[str], stdout_tty: bool, drawn: bool
) -> None:
    import cassino.cli as cli_module

    calls: list[tuple[int, int]] = []

    class Recorder(_ProgressBar):
        def __call__(self, done: int, total: int) -> None:
            calls.append((done, total))

    monkeypatch.setattr(cli_module, "_ProgressBar", Recorder)
    monkeypatch.setattr(cli_module, "_stderr_tty", lambda: True)
    monkeypatch.setattr(cli_module, "_stdout_tty", lambda: stdout_tty)
    result = run("simulate", "--games", "3", "--workers", "1", *extra)
    assert result.exit_code == 0, result.output
    assert (calls[-1] == (3, 3)) if drawn else not calls


def test_progress_bar_prints_event_lines_above_itself(capsys: pytest.CaptureFixture[str]) -> None:
    bar = _ProgressBar()
    bar.say("dask: worker tcp://a:1 left, 0 workers remaining")  # before the bar: plain stderr
    bar(0, 10)
    bar.say("dask: a worker is back after 3 s without one")
    bar.close()
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "dask: worker tcp://a:1 left, 0 workers remaining\n" in captured.err
    assert "dask: a worker is back after 3 s without one" in captured.err
