"""``cassino bench``: speed of the compiled core and the pure-Python reference, side by side.

The corpus is built in-process, deterministically, from seeded random hands (the committed
``benchmarks/data/corpus.txt`` is not installed). Every figure takes the best of several
timed rounds; the reference, about 500 times slower, is measured on less work.

>>> figures = run_bench(quick=True, budget=0.01)
>>> figures["reference_hands_per_second"] > 0
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from . import _reference
from ._rng import Rng, shuffled_deck
from .position import Position
from .rules import rules

__all__ = ["PERFT_SEED", "bench_corpus", "core_module", "run_bench"]

PERFT_SEED = 7
"""The perft position is the standard deal of ``new_hand(seed=7)`` (as in benchmarks/)."""


def core_module() -> Any:
    """``cassino._core`` when it is built, else None (whatever ``CASSINO_PURE_PYTHON`` says)."""
    try:
        from . import _core
    except ImportError:  # pragma: no cover - only without a compiled core
        return None
    return _core


def bench_corpus(count: int, seed: int = 1) -> list[Position]:
    """``count`` positions of ``cassino_standard``, each taken before a move with
    probability 1/4 from hands played at random with seeds ``seed``, ``seed + 1``, ..."""
    core = core_module()
    state_class = core.State if core is not None else _reference.State
    r = rules("cassino_standard")
    out: list[Position] = []
    hand_seed = seed
    while len(out) < count:
        state = state_class.new_hand(r, 0, shuffled_deck(Rng(hand_seed)))
        rng = Rng(hand_seed + 1_000_003)
        while not state.is_over and len(out) < count:
            if rng.below(4) == 0:
                out.append(state.to_position())
            moves = state.legal_moves()
            state.push(moves[rng.below(len(moves))])
        hand_seed += 1
    return out


def _best(fn: Callable[[], Any], budget: float, rounds: int = 5) -> float:
    """Fastest of ``rounds`` calls of ``fn`` (at least two: the first one warms up),
    stopping early once ``budget`` seconds are spent."""
    best = float("inf")
    spent = 0.0
    for k in range(max(rounds, 2)):
        t0 = time.perf_counter()
        fn()
        dt = time.perf_counter() - t0
        best = min(best, dt)
        spent += dt
        if k >= 1 and spent >= budget:
            break
    return best


def _ratio(ref: float | None, core: float | None) -> float | None:
    return None if ref is None or core is None or core == 0 else ref / core


def run_bench(quick: bool = False, budget: float = 1.0) -> dict[str, Any]:
    """Measure both implementations; returns the figures ``cassino bench --json`` prints.

    ``budget`` is the time in seconds each core figure may spend (a fifth of it with
    ``quick``). Core figures are None when ``cassino._core`` is not built.
    """
    if quick:
        budget /= 5
    core = core_module()
    r = rules("cassino_standard")
    npos, nref_pos = (100, 20) if quick else (500, 100)
    corpus = bench_corpus(npos)
    out: dict[str, Any] = {
        "core_built": core is not None,
        "positions": npos,
        "reference_positions": nref_pos,
    }

    # legal-move generation: num_moves() per position (moves listed in a C buffer)
    def movegen(states: list[Any]) -> Callable[[], Any]:
        return lambda: [s.num_moves() for s in states]

    ref_states = [_reference.State.from_position(p) for p in corpus[:nref_pos]]
    ref_ns = _best(movegen(ref_states), budget, 2) / nref_pos * 1e9
    core_ns = None
    if core is not None:
        states = [core.State.from_position(p) for p in corpus]
        core_ns = _best(movegen(states), budget, 20) / npos * 1e9
    out["movegen_ns_per_position"] = core_ns
    out["reference_movegen_ns_per_position"] = ref_ns
    out["movegen_ratio"] = _ratio(ref_ns, core_ns)

    # random full hands on one core
    nref_hands = 4 if quick else 20
    ref_t = _best(lambda: [_reference.random_hand(r, s) for s in range(nref_hands)], budget, 2)
    ref_hps = nref_hands / ref_t
    core_hps = None
    if core is not None:
        nhands = 400 if quick else 2000
        core_t = _best(lambda: [core.random_hand(r, s) for s in range(nhands)], budget, 10)
        core_hps = nhands / core_t
    out["hands"] = 400 if quick else 2000
    out["reference_hands"] = nref_hands
    out["hands_per_second"] = core_hps
    out["reference_hands_per_second"] = ref_hps
    out["hands_ratio"] = _ratio(core_hps, ref_hps)

    # perft from a fixed position
    pos = _reference.State.new_hand(r, 0, shuffled_deck(Rng(PERFT_SEED))).to_position()
    ref_depth = 3 if quick else 4
    ref_state = _reference.State.from_position(pos)
    ref_nodes = ref_state.perft(ref_depth)
    ref_nps = ref_nodes / _best(lambda: ref_state.perft(ref_depth), budget, 3)
    core_nps = None
    depth = 5 if quick else 6
    if core is not None:
        state = core.State.from_position(pos)
        nodes = state.perft(depth)
        core_nps = nodes / _best(lambda: state.perft(depth), budget, 20)
    out["perft_position"] = pos.to_text()
    out["perft_depth"] = depth
    out["reference_perft_depth"] = ref_depth
    out["perft_nodes_per_second"] = core_nps
    out["reference_perft_nodes_per_second"] = ref_nps
    out["perft_ratio"] = _ratio(core_nps, ref_nps)
    return out
