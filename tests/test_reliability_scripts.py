"""The scripts of docs/reliability.md: shell syntax, and the valgrind log filter on
synthetic logs (the scripts themselves run in CI through scripts/reliability.sh)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"

NOISE = """\
==100== Conditional jump or move depends on uninitialised value(s)
==100==    at 0x49E04DA: maybe_small_long (longobject.c:71)
==100==    by 0x49E075F: int_from_bytes_impl (longobject.c:5946)
==100==    by 0x7EAEF5F: __pyx_pf_7cassino_5_core_5State_42explain (_core.c:23247)
==100==
"""
INVALID_WRITE = """\
==100== Invalid write of size 4
==100==    at 0x484A0F3: memcpy (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
==100==    by 0x7AAD5CB: __pyx_f_7cassino_5_core_apply_move (_core.c:26868)
==100==    by 0x49F9331: cfunction_vectorcall_FASTCALL_KEYWORDS (methodobject.c:443)
==100==
"""
LEAK = """\
==100== 16 bytes in 1 blocks are definitely lost in loss record 3 of 900
==100==    at 0x48407B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
==100==    by 0x49DB578: PyMem_RawMalloc (obmalloc.c:586)
==100==    by 0x7AAD5CB: __pyx_pf_7cassino_5_core_2random_hand (in /x/cassino/_core.cpython-311.so)
==100==
"""
PYTHON_LEAK = """\
==100== 64 bytes in 1 blocks are definitely lost in loss record 5 of 900
==100==    at 0x48407B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)
==100==    by 0x4B0AF3A: pymain_init (main.c:67)
==100==
"""
TAIL = "==100== ERROR SUMMARY: 4 errors from 4 contexts (suppressed: 0 from 0)\n"


def report(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    log = tmp_path / "vg.log"
    log.write_text(text)
    return subprocess.run(
        [sys.executable, str(SCRIPTS / "valgrind_report.py"), str(log)],
        capture_output=True, text=True, timeout=60,
    )


def test_valgrind_report_ignores_interpreter_noise(tmp_path: Path) -> None:
    proc = report(tmp_path, NOISE + PYTHON_LEAK + TAIL)
    assert proc.returncode == 0, proc.stdout
    assert "2 error contexts in the log, 0 in cassino's code" in proc.stdout


@pytest.mark.parametrize("record", [INVALID_WRITE, LEAK], ids=["invalid write", "leak"])
def test_valgrind_report_counts_errors_in_the_core(tmp_path: Path, record: str) -> None:
    proc = report(tmp_path, NOISE + record + TAIL)
    assert proc.returncode == 1
    assert "1 in cassino's code" in proc.stdout and "__pyx_" in proc.stdout


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("name", ["reliability.sh", "sanitize.sh", "valgrind.sh"])
def test_shell_scripts_parse_and_are_strict(name: str) -> None:
    path = SCRIPTS / name
    assert "set -euo pipefail" in path.read_text()
    subprocess.run(["bash", "-n", str(path)], check=True, timeout=60)
