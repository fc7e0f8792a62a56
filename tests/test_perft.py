"""Perft counts of tests/data/perft.txt (computed by the reference, make_perft.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

import cassino
from cassino import _reference
from cassino.position import Position

DATA = Path(__file__).parent / "data" / "perft.txt"


def _records() -> list[tuple[int, str, int, int]]:
    out = []
    for lineno, line in enumerate(DATA.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        text, depth, count = (part.strip() for part in line.split(";"))
        out.append((lineno, text, int(depth), int(count)))
    return out


RECORDS = _records()


def test_perft_file_shape():
    positions = {text for _, text, _, _ in RECORDS}
    assert len(positions) >= 12
    assert max(d for _, _, d, _ in RECORDS) >= 4
    systems_and_options = {text.split()[0] for text in positions}
    for needle in ("sweeps=true", "obligation=v2", "obligation=v3", "capture_extent=maximal",
                   "face_capture=any", "face_capture=one}", "natural_build_combination=false"):
        assert any(needle in head for head in systems_and_options), needle
    assert any("cassino_standard_002" in head for head in systems_and_options)
    # some positions have stock left (deals inside perft), some are in the last deal
    stocks = [Position.from_text(t).stock for t in positions]
    assert any(stocks) and not all(stocks)
    # some have builds, multiple builds included
    builds = [b for t in positions for b in Position.from_text(t).builds]
    assert any(b.multiple for b in builds) and any(not b.multiple for b in builds)


@pytest.mark.parametrize(
    ("text", "depth", "count"),
    [r[1:] for r in RECORDS],
    ids=[f"line{r[0]}-d{r[2]}" for r in RECORDS],
)
def test_perft(text, depth, count):
    s = cassino.State.from_position(Position.from_text(text))
    before = s.to_position()
    assert s.perft(depth) == count
    assert s.to_position() == before and s.ply == 0  # perft leaves the state as it was
    if cassino.IMPLEMENTATION == "core":
        assert _reference.State.from_position(Position.from_text(text)).perft(depth) == count


def test_perft_one_is_the_move_count():
    for _, text, depth, count in RECORDS:
        if depth == 1:
            s = cassino.State.from_position(Position.from_text(text))
            assert s.count_moves() == len(s.legal_moves()) == count


@pytest.mark.parametrize("system", ["cassino_standard", "mulle"])
def test_ctrl_c_stops_a_deep_perft_and_leaves_the_state(system):
    """SIGINT (Ctrl-C) raises KeyboardInterrupt from inside a long perft, in the core too
    (it checks for signals every 65,536 nodes), and the position is the one before."""
    import os
    import signal
    import threading

    s = cassino.new_hand(cassino.rules(system), seed=3)
    before = s.to_position()
    legal = s.legal_moves()
    # standard seed 3 at depth 11 is 199,962,988 sequences, seconds for the core, and Mulle's
    # more: a perft that is not interrupted fails the test by returning. The signal is sent
    # again every 0.2 s until perft stops: CPython drops a KeyboardInterrupt raised while a
    # generator is being closed ("Exception ignored"), which the reference's generators may be
    done = threading.Event()

    def interrupt() -> None:
        while not done.wait(0.2):
            os.kill(os.getpid(), signal.SIGINT)

    sender = threading.Thread(target=interrupt, daemon=True)
    sender.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            s.perft(11)
    finally:
        done.set()
        sender.join()
    assert s.to_position() == before and s.ply == 0 and s.legal_moves() == legal
    assert s.perft(2) == cassino.State.from_position(before).perft(2)
