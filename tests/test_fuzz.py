"""The fuzz harness fuzz/fuzz_inputs.py: its seed corpus, the regressions it found, a run of
its pure-Python driver, and (with atheris installed) a short libFuzzer run."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import cassino
from conftest import RELIABILITY_COUNTS

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "fuzz" / "fuzz_inputs.py"
CORPUS = ROOT / "fuzz" / "corpus"
REGRESSIONS = Path(__file__).resolve().parent / "data" / "fuzz_regressions"
CORE = cassino.IMPLEMENTATION == "core"

#: inputs the pure-Python driver runs in the default pass (about a second per thousand)
FALLBACK_RUNS = int(os.environ.get("CASSINO_FUZZ_RUNS", "0")) or (20_000 if CORE else 3_000)
#: executions of the short atheris run
ATHERIS_RUNS = 20_000


def _load_harness() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzz_inputs", HARNESS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("fuzz_inputs", module)
    spec.loader.exec_module(module)
    return module


fuzz = _load_harness()


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))


def test_seed_corpus_is_present_and_clean() -> None:
    files = _files(CORPUS)
    assert len(files) >= 8
    targets = {f.read_bytes()[0] % len(fuzz.TARGETS) for f in files}
    assert targets == set(range(len(fuzz.TARGETS))), "every target has a seed"
    for f in files:
        fuzz.test_one_input(f.read_bytes())


@pytest.mark.parametrize("path", _files(REGRESSIONS), ids=lambda p: p.name)
def test_fuzz_regression(path: Path) -> None:
    """Inputs that once crashed, hung or escaped with an undocumented exception."""
    fuzz.test_one_input(path.read_bytes())


def test_only_documented_exceptions_are_allowed() -> None:
    assert fuzz.ALLOWED == (cassino.CassinoError,)
    with pytest.raises(fuzz.Finding):
        fuzz._check(False, "a failed check is a finding")
    # an input that the harness accepts without error still goes through the checks
    fuzz.test_one_input(b"\x02" + b"9Dx9C,5S,4H")


def test_fallback_driver_finds_nothing() -> None:
    corpus = [p.read_bytes() for p in _files(CORPUS)]
    runs = fuzz.run_fallback(FALLBACK_RUNS, seed=20240601, corpus=corpus)
    assert runs == FALLBACK_RUNS
    RELIABILITY_COUNTS["fuzz: executions (pure-Python driver)"] = (
        RELIABILITY_COUNTS.get("fuzz: executions (pure-Python driver)", 0) + runs
    )


def test_fallback_inputs_are_reproducible() -> None:
    a = list(fuzz.fallback_inputs(300, seed=5))
    b = list(fuzz.fallback_inputs(300, seed=5))
    assert a == b and len(set(a)) > 250


@pytest.mark.skipif(importlib.util.find_spec("atheris") is None, reason="atheris is not installed")
@pytest.mark.skipif(not CORE, reason="the atheris run uses the compiled core")
def test_short_atheris_run(tmp_path: Path) -> None:
    work = tmp_path / "corpus"
    work.mkdir()
    cmd = [
        sys.executable,
        str(HARNESS),
        f"-atheris_runs={ATHERIS_RUNS}",
        # a slow input is a finding past 60 s (with -timeout=0, atheris's own watchdog
        # flags any input still running at its first 1 s tick); libFuzzer's alarm timer
        # may then end the process with SIGALRM (-14) after 'Done', which is no finding
        "-timeout=60",
        "-max_len=8192",
        "-seed=1",
        f"-artifact_prefix={tmp_path}/",
        str(work),
        str(CORPUS),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT)
    tail = (proc.stdout + proc.stderr)[-3000:]
    done = re.search(r"Done (\d+) in", proc.stderr)
    assert proc.returncode == 0 or (proc.returncode == -14 and done), (
        f"atheris found something:\n{tail}"
    )
    assert done, tail
    RELIABILITY_COUNTS["fuzz: executions (atheris)"] = (
        RELIABILITY_COUNTS.get("fuzz: executions (atheris)", 0) + int(done.group(1))
    )
