"""Threads and processes: playouts run concurrently with the GIL released and give the
serial results; seeded results depend on nothing global (Python's ``random``, NumPy's
global RNG, the thread, the process or the number of workers)."""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cassino
from cassino import Game, Rng

CORE = cassino.IMPLEMENTATION == "core"
ROOT = Path(__file__).resolve().parent.parent
#: hands per batch: the reference is ~1000 times slower
HANDS = 2000 if CORE else 4

RULES = [
    cassino.rules("cassino_standard"),
    cassino.rules("cassino_standard", sweeps=True, obligation="v3", face_capture="any"),
    cassino.rules("cassino_standard_002"),
    cassino.rules("cassino_standard_002", players=3, direction="ccw"),
]


def hands_batch(start: int, n: int = HANDS) -> list[tuple[list[int], int]]:
    """``n`` seeded random hands, cycling through the rules and dealers."""
    out = []
    for seed in range(start, start + n):
        r = RULES[seed % len(RULES)]
        out.append(cassino.random_hand(r, seed, seed % r.players))
    return out


def playouts_batch(start: int, n: int = HANDS // 10) -> list[list[int]]:
    """Seeded State.playout from seeded deals, on states owned by this call."""
    out = []
    for seed in range(start, start + n):
        s = cassino.new_hand(RULES[seed % len(RULES)], seed=seed, dealer=seed % 2)
        out.append(s.clone().playout(seed ^ 0x5EED).totals())
    return out


def game_record(seed: int) -> dict[str, Any]:
    """A whole game between two seeded random players: its final scores and a log digest."""
    g = Game("cassino_standard", seed=seed, target=11 if not CORE else 21)
    players = Rng(seed + 1)
    while not g.is_over:
        moves = g.legal_moves()
        g.push(moves[players.below(len(moves))])
    digest = hashlib.sha256(json.dumps(g.log).encode()).hexdigest()
    return {"scores": g.scores, "winner": g.winner, "log": digest}


def fingerprint() -> str:
    """A digest of seeded results of every kind, as computed in this process."""
    data = {
        "hands": hands_batch(7, 40 if CORE else 4),
        "playouts": playouts_batch(11, 8 if CORE else 2),
        "deal": cassino.new_hand("cassino_standard_002", seed=5, players=3).to_json(),
        "deck": cassino.shuffled_deck(Rng(99)),
        "game": game_record(3),
    }
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def test_threads_give_the_serial_results() -> None:
    starts = [k * HANDS for k in range(8)]
    t0 = time.perf_counter()
    serial = [hands_batch(s) for s in starts]
    t_serial = time.perf_counter() - t0
    for workers in (2, 4, 8):
        t0 = time.perf_counter()
        with ThreadPoolExecutor(workers) as pool:
            threaded = list(pool.map(hands_batch, starts))
        elapsed = time.perf_counter() - t0
        assert threaded == serial
        # information only (never asserted): the GIL is released while a hand is played
        print(
            f"\n{len(starts) * HANDS} random hands ({cassino.IMPLEMENTATION}): serial "
            f"{t_serial:.2f}s, {workers} threads {elapsed:.2f}s "
            f"(x{t_serial / elapsed:.2f} on {os.cpu_count()} cores)"
        )


def test_threaded_playouts_match() -> None:
    starts = [k * 1000 for k in range(6)]
    serial = [playouts_batch(s) for s in starts]
    with ThreadPoolExecutor(3) as pool:
        assert list(pool.map(playouts_batch, starts)) == serial


def test_threads_interleave_different_rules() -> None:
    """Threads on different systems at once: no shared parameter state between calls."""
    results: dict[int, Any] = {}
    barrier = threading.Barrier(len(RULES))

    def run(k: int) -> None:
        barrier.wait()
        r = RULES[k]
        results[k] = [cassino.random_hand(r, seed) for seed in range(HANDS // 2)]

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(RULES))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k, r in enumerate(RULES):
        assert results[k] == [cassino.random_hand(r, seed) for seed in range(HANDS // 2)]


def ticks_during(call: Any) -> tuple[Any, int]:
    """``call()``'s result and how many times another Python thread ticked while it ran:
    none when the call holds the GIL throughout."""
    ticks = 0
    running = threading.Event()
    done = threading.Event()

    def count() -> None:
        nonlocal ticks
        running.set()
        while not done.is_set():
            ticks += 1

    t = threading.Thread(target=count)
    t.start()
    running.wait()
    try:
        before = ticks
        got = call()
        during = ticks - before
    finally:
        done.set()
        t.join()
    return got, during


@pytest.mark.skipif(not CORE, reason="GIL release of the compiled core")
def test_the_core_releases_the_gil() -> None:
    """A Python thread keeps running during one long call into the core (a perft of a few
    hundred milliseconds runs without the GIL); with the GIL held it could not tick."""
    s = cassino.new_hand("cassino_standard", seed=1)
    nodes, during = ticks_during(lambda: s.perft(10))  # the whole search in C, about 0.8 s
    assert nodes == 3788976
    print(f"\nthe other thread ticked {during:,} times during one perft call")
    assert during > 0


# a 3-player African position with 12 loose cards and a hand of 14: 3,380,750 turns, about a
# second to count in C (benchmarks/test_compound.py's hard position)
BIG_AFRICAN = (
    "african_cassino_3p{players=3} 0 0 2S,2H,2D,3D,3C,5D,7D,8C,9H,9D,10H,JS,JC,QD/"
    "AS,2C,3H,4D,5S,5C,6C,9S,10S,10D,QS,QH,KC/AD,AC,4S,4C,7S,7H,7C,8S,8D,9C,10C,QC,KS "
    "AH,3S,4H,5H,6S,6H,6D,8H,JH,JD,KH,KD -/-/- - - - 0,0,0")


@pytest.mark.skipif(not CORE, reason="GIL release of the compiled core")
def test_the_compound_core_releases_the_gil() -> None:
    """A compound system's turn search runs without the GIL: a Python thread keeps ticking
    during one count of the hard position's turns."""
    from cassino.position import Position

    s = cassino.State.from_position(Position.from_text(BIG_AFRICAN))
    turns, during = ticks_during(s.count_moves)  # one call: the search in C
    assert turns == 3380750
    print(f"\nthe other thread ticked {during:,} times during one compound count")
    assert during > 0


@pytest.mark.skipif(not CORE, reason="the compound systems' hands in C")
@pytest.mark.parametrize("system", ["african_cassino_2p", "italian_house_cassino"])
def test_compound_hands_in_threads_are_the_serial_hands(system: str) -> None:
    """Random compound hands played wholly in C (``_core.whole_hand``, the GIL released)
    and greedy hands (``State.play_hand``, the search and scores without the GIL) in two
    threads at once give the serial results: each thread has its own turn generator."""
    from cassino._core import whole_hand

    r = cassino.rules(system)

    def work(k: int) -> list[Any]:
        out: list[Any] = [whole_hand(r, seed)[1] for seed in range(k, k + 20)]
        s = cassino.new_hand(r, seed=k)
        out.append(s.play_hand(["greedy"] * r.players, list(range(1, r.players + 1))))
        out.append([str(m) for m in s.history])
        return out

    serial = [work(k) for k in (0, 50)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        threaded = list(pool.map(work, (0, 50)))
    assert threaded == serial


def test_seeded_results_ignore_global_random_state() -> None:
    before = fingerprint()
    random.seed(12345)
    random.random()
    np.random.seed(54321)
    np.random.random(10)
    assert fingerprint() == before
    random.seed(1)
    np.random.seed(2)
    np.random.shuffle(np.arange(10))
    assert fingerprint() == before


def test_seeded_results_are_the_same_in_another_process() -> None:
    code = (
        "import random, numpy, sys; random.seed(7); numpy.random.seed(7); "
        f"sys.path.insert(0, {str(ROOT / 'tests')!r}); "
        "import test_threads; print(test_threads.fingerprint())"
    )
    env = dict(os.environ, PYTHONHASHSEED="123")
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300, check=True
    ).stdout
    assert re.fullmatch(r"[0-9a-f]{64}\n", out)
    assert out.strip() == fingerprint()


def test_results_do_not_depend_on_the_number_of_worker_processes() -> None:
    starts = [k * HANDS for k in range(4)]
    serial = [hands_batch(s) for s in starts]
    for workers in (1, 2, 3):
        with ProcessPoolExecutor(workers) as pool:
            assert list(pool.map(hands_batch, starts)) == serial


def core_globals(src: str) -> set[str]:
    """Names of the module-level C variables declared in the core's source."""
    names: set[str] = set()
    for line in src.splitlines():
        code = line.split("#")[0].rstrip()
        if not code.startswith("cdef ") or "(" in code or code.endswith(":"):
            continue  # functions, classes, structs, enums, extern blocks
        decl = code[len("cdef ") :].split("=")[0]
        first, *rest = decl.split(",")
        for part in [first.split()[-1], *rest]:
            names.add(re.sub(r"\[.*", "", part.strip()))
    return names


def test_no_module_level_mutable_state_in_the_core() -> None:
    """The core's module-level C variables are lookup tables filled at import time and
    the loop indices that fill them; no function assigns to any of them, so concurrent
    calls share nothing writable."""
    package = ROOT / "src" / "cassino"
    src = "\n".join(
        [(package / "_core.pyx").read_text()]
        + [p.read_text() for p in sorted((package / "core").glob("*.pxi"))]
    )
    names = core_globals(src)
    assert {"SPADES_MASK", "DIVS", "BINOM"} <= names
    tables = {n for n in names if n.isupper()}
    loop_vars = {n for n in names if n.startswith("_")}
    assert names == tables | loop_vars, f"unexpected globals: {names - tables - loop_vars}"
    inside_function = False
    for line in src.splitlines():
        if re.match(r"^(cdef|cpdef|def)\b.*\(", line) or line.startswith("cdef class"):
            inside_function = True
        elif line and not line[0].isspace() and not line.startswith("#"):
            inside_function = False
        if inside_function:
            for name in names:
                assert not re.match(rf"^\s+{name}(\[.*\])*\s*([|+\-*]?=)(?!=)", line), (
                    f"a function of the core writes the global {name}: {line.strip()}"
                )
    # the Python side: no module of the package imports the global random generators
    for path in (ROOT / "src" / "cassino").glob("*.py"):
        text = path.read_text()
        assert not re.search(r"^\s*(import random|from random import)", text, re.M), path.name
        assert "np.random" not in text and "numpy.random" not in text, path.name
