"""The ``cassino`` command line and ``python -m cassino`` (CliRunner and real processes)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import cassino
from cassino.cli import cli, demo
from cassino.position import MAX_JSON_BYTES, Position
from cassino.scoring import CATEGORIES, used_categories
from conftest import assert_one_line_error

# seat 0 holds 2H 5C 7D 9S; the table has 2D 3S 4D 5D and seat 1's simple build 3C+4H=7
BUILD_POS = (
    "cassino_standard 1 0 2H,5C,7D,9S/QC 2D,3S,4D,5D,(3C+4H=7@1) "
    "-/AS,AH,AD,AC,2S,2C,3H,3D,4S,4C,5S,5H,6S,6H,6D,6C,7S,7H,7C,8S,8H,8D,8C,9H,9D,9C,"
    "10S,10H,10D,10C,JS,JH,JD,JC,QS,QH,QD,KS,KH,KD,KC - - - 0,0"
)


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin, prog_name="cassino")


@pytest.fixture
def pos_json(tmp_path: Path) -> Path:
    path = tmp_path / "pos.json"
    path.write_text(Position.from_text(BUILD_POS).to_json(indent=2))
    return path


@pytest.fixture
def pos_text(tmp_path: Path) -> Path:
    path = tmp_path / "pos.txt"
    path.write_text(BUILD_POS + "\n")
    return path


def build_state() -> Any:
    return cassino.State.from_position(Position.from_text(BUILD_POS))


# -- cassino moves -----------------------------------------------------------------------
def test_moves_lists_every_legal_move_in_order(pos_json: Path) -> None:
    result = run("moves", str(pos_json))
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["move"] for r in records] == [str(m) for m in build_state().legal_moves()]
    assert {r["kind"] for r in records} == {"trail", "capture", "build", "augment", "increase"}
    for r in records:
        assert set(r) == {"move", "card", "kind", "takes", "result"}
        assert r["move"].startswith(r["card"])
        ids = [cassino.parse_card(c) for c in r["takes"]]
        assert ids == sorted(ids)
        if r["kind"] in ("trail", "capture"):
            assert r["result"] is None
    by_move = {r["move"]: r for r in records}
    assert by_move["2H"] == {"move": "2H", "card": "2H", "kind": "trail", "takes": [], "result": None}
    assert by_move["7Dx2D,5D"]["takes"] == ["2D", "5D"]
    assert by_move["2H+3S=5"]["result"] == {"cards": ["2H", "3S"], "value": 5, "multiple": False}
    assert by_move["2H+3S,5D=5"]["result"] == {"cards": ["2H", "3S", "5D"], "value": 5, "multiple": True}
    augment = by_move["5C+2D,3C,4H=7"]
    assert augment["kind"] == "augment" and augment["takes"] == ["2D", "3C", "4H"]
    assert augment["result"] == {"cards": ["2D", "3C", "4H", "5C"], "value": 7, "multiple": True}
    increase = by_move["2H+3C,4H=9"]
    assert increase["kind"] == "increase"
    assert increase["result"] == {"cards": ["2H", "3C", "4H"], "value": 9, "multiple": False}


def test_moves_reads_text_notation_and_stdin(pos_json: Path, pos_text: Path) -> None:
    expected = run("moves", str(pos_json)).stdout
    assert run("moves", str(pos_text)).stdout == expected
    assert run("moves", "-", stdin=BUILD_POS).stdout == expected
    assert run("moves", "-", stdin=pos_json.read_text()).stdout == expected


def test_moves_count_and_limit(pos_json: Path) -> None:
    n = build_state().count_moves()
    result = run("moves", str(pos_json), "--count")
    assert result.exit_code == 0 and result.stdout == f"{n}\n"
    assert len(run("moves", str(pos_json), "--limit", str(n)).stdout.splitlines()) == n
    assert_one_line_error(run("moves", str(pos_json), "--limit", str(n - 1)), "limit")


# -- cassino perft -----------------------------------------------------------------------
def test_perft_and_divide(pos_text: Path) -> None:
    state = build_state()
    for depth in (0, 1, 2, 3):
        result = run("perft", str(pos_text), str(depth))
        assert result.exit_code == 0 and result.stdout == f"{state.perft(depth)}\n"
    result = run("perft", str(pos_text), "2", "--divide")
    lines = result.stdout.splitlines()
    moves = state.legal_moves()
    assert len(lines) == len(moves) + 1
    total = 0
    for line, m in zip(lines, moves, strict=False):
        notation, count = line.split(": ")
        assert notation == str(m)
        state.push(m)
        assert int(count) == state.perft(1)
        state.pop()
        total += int(count)
    assert lines[-1] == f"total: {total}" and total == state.perft(2)


def test_perft_of_a_fresh_deal_matches_the_library() -> None:
    text = cassino.new_hand(seed=3).to_position().to_text()
    result = run("perft", "-", "3", stdin=text)
    assert result.stdout == f"{cassino.new_hand(seed=3).perft(3)}\n"


# -- cassino score -----------------------------------------------------------------------
def test_score_table(pos_json: Path) -> None:
    result = run("score", str(pos_json))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "cassino_standard: points of the piles as they stand"
    rows = {ln.split()[1]: ln.split()[3:-1:2] for ln in lines if ln.startswith("│")}
    assert rows["cards"] == ["0", "3"] and rows["ace_spades"] == ["0", "1"]
    assert rows["total"] == ["0", str(3 + 1 + 2 + 1 + 4)]
    assert "sweeps" not in rows and "mulle" not in rows and "good_ten" not in rows
    assert list(rows) == [*CATEGORIES[:8], "total"]


def test_score(pos_json: Path) -> None:
    result = run("score", str(pos_json), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data == build_state().hand_score().to_dict(only=used_categories(build_state().rules))
    # the standard system's eight categories only: no Diloti, Mulle or sweep rows
    assert list(data["teams"][0]["categories"]) == list(CATEGORIES[:8])
    team1 = data["teams"][1]
    # seat 1's pile: 33 cards, 12 spades, 10D, 2S and the four aces
    assert team1["total"] == 3 + 1 + 2 + 1 + 4
    assert team1["categories"]["cards"] == 3 and team1["categories"]["ace_spades"] == 1
    assert data["teams"][0] == {"total": 0, "categories": dict.fromkeys(team1["categories"], 0)}


# -- cassino apply -----------------------------------------------------------------------
def test_apply_plays_moves_in_order(pos_json: Path, pos_text: Path) -> None:
    s = build_state()
    first = s.parse_move("7Dx3C,4H")  # seat 0 takes seat 1's build of 7
    s.push(first)
    second = s.legal_moves()[0]
    s.push(second)
    result = run("apply", str(pos_json), "7Dx3C,4H", str(second))
    assert result.exit_code == 0, result.output
    assert Position.from_json(result.stdout) == s.to_position()
    result = run("apply", "--text", str(pos_text), "7Dx3C,4H", str(second))
    assert result.exit_code == 0, result.output
    assert result.stdout == s.to_position().to_text() + "\n"


def test_apply_refuses_an_illegal_move_and_names_it(pos_json: Path) -> None:
    # the second move is played by seat 1, who does not hold 2H
    result = run("apply", str(pos_json), "7Dx3C,4H", "2H")
    assert_one_line_error(result, r"^error: move 2 \(2H\): .*2H is not in the hand of seat 1")
    assert_one_line_error(run("apply", str(pos_json)), r"Missing argument 'MOVE...'")


# -- cassino new -------------------------------------------------------------------------
def test_new_prints_a_fresh_deal() -> None:
    result = run("new", "--seed", "7")
    assert result.exit_code == 0
    expected = cassino.new_hand("cassino_standard", seed=7).to_position()
    assert Position.from_json(result.stdout) == expected
    assert run("new", "--seed", "7", "--text").stdout == expected.to_text() + "\n"
    assert run("new").stdout == cassino.new_hand(seed=0).to_position().to_json() + "\n"


def test_new_with_options_and_players() -> None:
    result = run("new", "--system", "cassino_standard_002", "--players", "3", "--seed", "2",
                 "--option", "target=11", "--option", "obligation=v1")
    assert result.exit_code == 0, result.output
    pos = Position.from_json(result.stdout)
    assert pos.rules == cassino.rules("cassino_standard_002", players=3, target=11, obligation="v1")
    assert len(pos.hands) == 3
    text = run("new", "--option", "sweeps=true", "--text").stdout
    assert text.startswith("cassino_standard{sweeps=true} ")


# -- bad input ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "stdin", "pattern"),
    [
        (["moves", "no/such/file.json"], None, "cannot read no/such/file.json"),
        (["moves", "-"], "", "empty"),
        (["moves", "-"], "{", "malformed position JSON"),
        (["moves", "-"], '{"system": "cassino_standard"}', "missing the field"),
        (["moves", "-"], "[1, 2]", "malformed|must be"),
        (["moves", "-"], "cassino_standard 0 1 AS", "position text"),
        (["moves", "-"], BUILD_POS.replace("QC", "2H"), "twice|52"),
        (["moves", "-"], "\xff\xfe", ""),
        (["score", "-"], "{" + '"a":' * 20 + "1" + "}" * 20, "nested|malformed"),
        (["perft", "-", "2"], BUILD_POS.replace("cassino_standard", "italian_house_cassino"), "Italian card code"),
        (["perft", "-", "x"], BUILD_POS, "DEPTH"),
        (["perft", "-"], BUILD_POS, "Missing argument"),
        (["moves"], None, "Missing argument"),
        (["moves", "-", "--limit", "-1"], BUILD_POS, "limit"),
        (["new", "--option", "sweeps"], None, "name=value"),
        (["new", "--option", "colour=red"], None, "unknown option 'colour'"),
        (["new", "--option", "sweeps=maybe"], None, "true or false"),
        (["new", "--system", "nope"], None, "unknown system"),
        (["new", "--players", "5"], None, "players"),
        (["new", "--option", "count_out=true", "--system", "cassino_standard_002",
          "--players", "3"], None, "two-player"),
        (["bogus"], None, "No such command"),
    ],
)
def test_bad_input_is_one_error_line_and_status_2(
    args: list[str], stdin: str | None, pattern: str
) -> None:
    assert_one_line_error(run(*args, stdin=stdin), pattern)


def test_bad_files(tmp_path: Path) -> None:
    assert_one_line_error(run("moves", str(tmp_path)), "cannot read")
    big = tmp_path / "big.json"
    big.write_text("{" + " " * MAX_JSON_BYTES + "}")
    assert_one_line_error(run("score", str(big)), "larger than")
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"{\xff}")
    assert_one_line_error(run("score", str(binary)), "UTF-8")


def test_help_and_version() -> None:
    result = run()
    assert result.exit_code == 0 and "moves" in result.stdout and "perft" in result.stdout
    assert run("--version").exit_code == 0
    assert run("moves", "--help").exit_code == 0


# -- real processes ----------------------------------------------------------------------
def _proc(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], input=stdin, capture_output=True, text=True, timeout=120,
        env=os.environ.copy(),
    )


def test_subprocess_every_subcommand(pos_json: Path) -> None:
    moves = _proc("-m", "cassino.cli", "moves", str(pos_json))
    assert moves.returncode == 0 and moves.stdout == run("moves", str(pos_json)).stdout
    count = _proc("-m", "cassino.cli", "moves", "-", "--count", stdin=BUILD_POS)
    assert count.stdout.strip() == str(build_state().count_moves())
    perft = _proc("-m", "cassino.cli", "perft", str(pos_json), "2", "--divide")
    assert perft.returncode == 0 and perft.stdout == run("perft", str(pos_json), "2", "--divide").stdout
    score = _proc("-m", "cassino.cli", "score", str(pos_json), "--json")
    assert json.loads(score.stdout) == json.loads(run("score", str(pos_json), "--json").stdout)
    new = _proc("-m", "cassino.cli", "new", "--seed", "5", "--text")
    assert new.stdout == cassino.new_hand(seed=5).to_position().to_text() + "\n"


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (["moves", "/no/such/pos.json"], None),
        (["moves", "-"], "{not json"),
        (["new", "--option", "nope=1"], None),
        (["perft"], None),
    ],
)
def test_subprocess_bad_input(args: list[str], stdin: str | None) -> None:
    proc = _proc("-m", "cassino.cli", *args, stdin=stdin)
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith("error: ")


# -- python -m cassino -------------------------------------------------------------------
def test_demo_hand_is_deterministic_and_scored() -> None:
    first = _proc("-m", "cassino")
    assert first.returncode == 0, first.stderr
    assert _proc("-m", "cassino", "--seed", "1").stdout == first.stdout
    assert CliRunner().invoke(demo, []).stdout == first.stdout
    out = first.stdout
    assert out.startswith("Standard Cassino, seed 1\n")
    assert "deal 6 of 6 (last)" in out
    assert re.search(r"^ +48\. seat \d ", out, re.M)  # 52 - 4 table cards = 48 plays
    assert re.search(r"^total +\d+ +\d+$", out, re.M)
    assert re.search(r"^big_cassino +\d +\d$", out, re.M)
    totals = [int(x) for x in re.search(r"^total +(\d+) +(\d+)$", out, re.M).groups()]  # type: ignore[union-attr]
    assert sum(totals) == 11
    other = CliRunner().invoke(demo, ["--seed", "2"])
    assert other.exit_code == 0 and other.stdout != out
    assert_one_line_error(CliRunner().invoke(demo, ["--seed", "x"]), "seed")
