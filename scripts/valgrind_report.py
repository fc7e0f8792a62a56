#!/usr/bin/env python3
"""Summarize a valgrind memcheck log, counting only the errors that involve cassino.

    python scripts/valgrind_report.py VALGRIND.log

The CPython interpreter itself shows valgrind noise (uninitialised values in its
optimized small-integer code, reached whenever Python code runs, also under a call from
the core), so an error counts when it happens in the package's own code: the innermost
frame that is not a libc or valgrind helper (memcpy, malloc, ...) is in the core's shared
object or a Cython function. A block definitely lost counts when its allocation stack goes
through the package at all. Kinds: invalid reads and writes, invalid or mismatched frees,
uses of uninitialised values, overlapping copies, bad system call arguments, definite
leaks. Exit status 1 if any such error is found.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ERROR_KINDS = (
    "Invalid read",
    "Invalid write",
    "Invalid free",
    "Mismatched free",
    "Conditional jump or move depends on uninitialised",
    "Use of uninitialised value",
    "Syscall param",
    "Source and destination overlap",
    "Argument 'size' of function",
    "definitely lost in loss record",
    "Invalid alignment",
)
OURS = re.compile(r"cassino|__pyx_")
FRAME = re.compile(r"^\s*(at|by) 0x[0-9A-Fa-f]+: (.*)$")
HELPER = re.compile(
    r"^(__)?(mem(cpy|move|set|cmp|chr)|str\w*|bcmp|malloc|calloc|realloc|free|"
    r"operator new|operator delete)\b|vgpreload|/libc\.so"
)


def ours(record: list[str]) -> bool:
    """Whether an error record is in cassino's code (see the module docstring)."""
    frames = [m.group(2) for line in record if (m := FRAME.match(line))]
    if "definitely lost" in record[0]:
        return any(OURS.search(f) for f in frames)
    for f in frames:
        if not HELPER.search(f):
            return bool(OURS.search(f))
    return False


def records(text: str) -> list[list[str]]:
    """The log's records: runs of ``==PID== `` lines separated by empty ones."""
    out: list[list[str]] = []
    cur: list[str] = []
    for line in text.splitlines():
        m = re.match(r"^==\d+== ?(.*)$", line)
        if not m:
            continue
        body = m.group(1)
        if body.strip():
            cur.append(body)
        elif cur:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    text = Path(argv[1]).read_text(errors="replace")
    errors = [r for r in records(text) if any(k in r[0] for k in ERROR_KINDS)]
    mine = [r for r in errors if ours(r)]
    summary = re.findall(r"ERROR SUMMARY: (\d+) errors from (\d+) contexts", text)
    lost = re.findall(r"definitely lost: ([\d,]+) bytes in ([\d,]+) blocks", text)
    print(
        f"valgrind: {len(errors)} error contexts in the log, {len(mine)} in cassino's code; "
        f"valgrind's own summary: {summary[-1][0] if summary else '?'} errors, "
        f"definitely lost {lost[-1][0] if lost else '0'} bytes (all code)"
    )
    for r in mine:
        print("\n".join(["---", *r[:30]]))
    return 1 if mine else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
