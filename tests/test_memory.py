"""Resident memory stays flat: a million random hands in the core, and many cycles of the
State API (push, pop, clone, pickle, legal moves, errors). A leak of even a few bytes a
hand would show as megabytes here. Core only: the reference is far too slow for this."""

from __future__ import annotations

import os
import pickle
import resource
from concurrent.futures import ThreadPoolExecutor

import pytest

import cassino
from cassino import IllegalMoveError, Move, Rng
from conftest import RELIABILITY_COUNTS

pytestmark = pytest.mark.skipif(
    cassino.IMPLEMENTATION != "core", reason="memory checks of the compiled core"
)

HANDS = int(os.environ.get("CASSINO_MEMORY_HANDS", "1000000"))
#: allowed growth of the resident set after warm-up
TOLERANCE = 8 << 20


def rss() -> int:
    """Current resident set size in bytes (Linux /proc, else the peak from getrusage)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        scale = 1 if os.uname().sysname == "Darwin" else 1024
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale


RULES = [
    cassino.rules("cassino_standard"),
    cassino.rules("cassino_standard", sweeps=True, obligation="v2", capture_extent="maximal"),
    cassino.rules("cassino_standard_002", players=3),
]


def batch(start: int, n: int) -> int:
    """Play ``n`` random hands from seed ``start``; returns the number of moves played."""
    from cassino import _core

    moves = 0
    for seed in range(start, start + n):
        r = RULES[seed % len(RULES)]
        _totals, played = _core.random_hand(r, seed, seed % r.players)
        moves += played
    return moves


def test_rss_flat_over_a_million_hands() -> None:
    chunk = 10_000
    with ThreadPoolExecutor(2) as pool:  # random_hand releases the GIL: two cores
        # warm-up: both threads' malloc arenas, Python's free lists, rules caches
        list(pool.map(batch, range(0, 40_000, chunk), [chunk] * 4))
        base = rss()
        peak = base
        done = 0
        seeds = range(1 << 32, (1 << 32) + HANDS, chunk)
        for moves in pool.map(batch, seeds, [chunk] * len(seeds)):
            assert moves == 48 * chunk  # every hand plays its 48 dealt cards
            done += chunk
            peak = max(peak, rss())
        end = rss()
    RELIABILITY_COUNTS["memory: random hands"] = done
    growth = max(end, peak) - base
    print(f"RSS {base / 2**20:.1f} MiB after warm-up, {end / 2**20:.1f} MiB after {done:,} hands")
    assert growth < TOLERANCE, f"resident memory grew by {growth / 2**20:.1f} MiB over {done:,} hands"


FIXED = [cassino.new_hand("cassino_standard", seed=k) for k in range(4)]


def api_cycle(seed: int) -> None:
    """One hand's worth of State API use: every allocation path of the core."""
    s = cassino.new_hand("cassino_standard", seed=seed, sweeps=bool(seed & 1))
    rng = Rng(seed)
    while not s.is_over:
        moves = s.legal_moves()
        s.push(moves[rng.below(len(moves))])
        if s.ply % 7 == 0:
            c = s.clone()
            c.pop()
            t = pickle.loads(pickle.dumps(s))
            assert t == s
            s.pop()
            s.push(moves[0])
        if s.ply % 11 == 0 and not s.is_over:
            absent = next(c for c in range(52) if not s.hands[s.to_move] >> c & 1)
            assert not s.is_legal(Move.trail(absent))
            s.num_moves()
            s.move_at(0)
            s.count_moves()
    # the error path (explaining a rejection goes through the reference, whose memo of
    # value partitions grows with new positions: keep to a few fixed ones)
    fixed = FIXED[seed % len(FIXED)]
    with pytest.raises(IllegalMoveError):
        fixed.push(Move.trail(next(c for c in range(52) if not fixed.hands[fixed.to_move] >> c & 1)))
    with pytest.raises(IllegalMoveError):
        fixed.push("KSxQS")
    s.perft(1)
    s.hand_score()
    s.to_json()
    while s.ply:
        s.pop()


def test_rss_flat_over_state_api_cycles() -> None:
    # warm-up: Python's allocator settles after some hundreds of hands (a few MiB of
    # arenas and free lists), then stays flat
    for seed in range(1000):
        api_cycle(seed)
    base = rss()
    n = int(os.environ.get("CASSINO_MEMORY_CYCLES", "2000"))
    for seed in range(10_000, 10_000 + n):
        api_cycle(seed)
    end = rss()
    RELIABILITY_COUNTS["memory: State API hands"] = n
    print(f"RSS {base / 2**20:.1f} MiB -> {end / 2**20:.1f} MiB over {n:,} API cycles")
    assert end - base < TOLERANCE, f"resident memory grew by {(end - base) / 2**20:.1f} MiB"


PLAYOUT_HANDS = int(os.environ.get("CASSINO_PLAYOUT_HANDS", "1000000"))


def test_rss_flat_over_batch_playouts() -> None:
    """cassino.playouts over PLAYOUT_HANDS hands (10,000,000 with
    CASSINO_PLAYOUT_HANDS=10000000) in batches of 100,000, on two threads."""
    chunk = 100_000
    for seed in range(3):  # warm-up
        cassino.playouts("cassino_standard", chunk, seed=seed, threads=2)
    base = rss()
    peak = base
    done = 0
    while done < PLAYOUT_HANDS:
        n = min(chunk, PLAYOUT_HANDS - done)
        run = cassino.playouts("cassino_standard", n, seed=1000 + done, threads=2,
                               players=("random", "greedy") if (done // chunk) % 2 else ("random", "random"))
        assert (run.cards.sum(axis=1) == 52).all()
        done += n
        peak = max(peak, rss())
        del run
    end = rss()
    RELIABILITY_COUNTS["memory: batch playout hands"] = done
    growth = max(end, peak) - base
    print(f"RSS {base / 2**20:.1f} MiB -> {end / 2**20:.1f} MiB over {done:,} playout hands")
    assert growth < TOLERANCE, f"resident memory grew by {growth / 2**20:.1f} MiB over {done:,} hands"
