"""``cassino bench``: the figures of the performance targets, measured in one run.

Each figure is the best of several timed rounds on one core (the reference, hundreds of
times slower, is measured on less work). The move-generation corpus is built in-process,
deterministically, exactly as ``benchmarks/make_corpus.py`` builds the committed
``benchmarks/data/corpus.txt`` (which is not installed).

============================== =========================================================
key                            what is measured
============================== =========================================================
movegen_ns_per_position        every legal move of each corpus position, listed in C
                               (:func:`cassino._core.movegen_batch`), ns per position
hands_per_second               :func:`cassino.playouts` of random full hands, one thread
reference_hands_per_second     the same hands played by the pure-Python reference
api_moves_per_second           a Python loop: ``num_moves()``, pick an index,
                               ``push_index(i)``, until the hand is over
api_object_moves_per_second    the same loop building a :class:`Move` for the chosen move:
                               ``push(move_at(i))``
perft_nodes_per_second         ``State.perft(depth)`` from a fixed deal
chess_perft_nodes_per_second   python-chess perft from the initial position, in the same
                               run (None when ``chess`` is not installed)
hard_count_ms                  exact count of the 16,037,492 moves of a table of 24 small
                               cards (aces to sixes)
state_bytes                    ``sys.getsizeof`` of a dealt :class:`State` (C position,
                               undo stack and move buffer included)
============================== =========================================================

>>> figures = run_bench(quick=True, budget=0.01, systems=False)
>>> figures["reference_hands_per_second"] > 0 and figures["hard_moves"] == 16_037_492
True
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from . import _reference
from ._rng import Rng
from .playouts import _fill_reference
from .position import Position
from .rules import Rules, rules
from .scoring import CATEGORIES

__all__ = [
    "HARD_HAND",
    "HARD_TABLE",
    "MOVEGEN_REPEAT",
    "PERFT_SEED",
    "PLAYOUT_HANDS",
    "TIMED_ROUNDS",
    "api_loop",
    "bench_corpus",
    "chess_perft",
    "core_module",
    "explain_us",
    "hard_position",
    "illegal_moves",
    "movegen_call",
    "playout_call",
    "run_bench",
]

PERFT_SEED = 7
"""The perft position is the standard deal of ``new_hand(seed=7)`` (as in benchmarks/)."""

HARD_TABLE = tuple(f"{r}{s}" for r in "A23456" for s in "SHDC")
"""The 24 small cards on the table of the hard position."""

HARD_HAND = ("9S", "10S", "9H", "10H")
"""The hand of the player to move in the hard position."""


def core_module() -> Any:
    """``cassino._core`` when it is built, else None (whatever ``CASSINO_PURE_PYTHON`` says)."""
    try:
        from . import _core
    except ImportError:  # pragma: no cover - only without a compiled core
        return None
    return _core


def bench_corpus(count: int, system: str = "cassino_standard") -> list[Position]:
    """Positions of ``system`` games between random players (seeds 1, 2, ...), each taken
    before a move with probability 1/4; for ``cassino_standard``, the first ``count``
    positions of ``benchmarks/data/corpus.txt``."""
    from .game import Game

    out: list[Position] = []
    seed = 0
    while len(out) < count:
        seed += 1
        game = Game(system, seed=seed)
        players = Rng(seed)
        sampler = Rng(seed + 1_000_003)
        while not game.is_over and len(out) < count:
            if sampler.below(4) == 0:
                out.append(game.state.to_position())
            moves = game.legal_moves()
            game.push(moves[players.below(len(moves))])
    return out


def hard_position() -> Position:
    """Seat 0 to move with 9♠ 10♠ 9♥ 10♥ against a table of every ace, two, ..., six (the
    other cards captured by seat 1): an exact count of 16,037,492 legal moves.

    >>> bin(hard_position().loose).count("1")
    24
    """
    from .cards import card_code

    every = [card_code(c) for c in range(52)]
    return Position.from_dict(
        {
            "system": "cassino_standard",
            "dealer": 1,
            "to_move": 0,
            "hands": [list(HARD_HAND), []],
            "table": list(HARD_TABLE),
            "piles": [[], [c for c in every if c not in HARD_TABLE and c not in HARD_HAND]],
            "stock": [],
            "last_capturer": None,
            "sweeps": [0, 0],
            "scores": [0, 0],
        }
    )


def illegal_moves(state: Any) -> list[Any]:
    """Two illegal moves of the player to act, as a bot's probe might be: his lowest card
    taking every loose card, and building them all into a build of 13 (none if legal).

    >>> from cassino import State, rules
    >>> [str(m) for m in illegal_moves(State.deal(rules("cassino_standard"), 0, 1))]
    ['10Sx2H,8D,10H,JD', '10S+2H,8D,10H,JD=13']
    """
    from .moves import Move, MoveKind

    if state.is_over or not state.loose:
        return []
    card = min(state.hand(state.to_move))
    out = [Move(card, MoveKind.CAPTURE, state.loose), Move(card, MoveKind.BUILD, state.loose, 13)]
    return [m for m in out if not state.is_legal(m)]


def explain_us(states: Sequence[Any]) -> tuple[float, float]:
    """The median and the 99th percentile, in microseconds, of ``explain()`` of
    :func:`illegal_moves` of each state (an illegal ``push`` costs the same: its error
    message is that sentence). Each move's time is the fastest of :data:`EXPLAIN_REPEAT`
    calls, so that the percentile ranks the moves, not the machine's interruptions."""
    times = []
    for state in states:
        for move in illegal_moves(state):
            state.explain(move)  # (warm: the state's move buffer is filled)
            best = float("inf")
            for _ in range(EXPLAIN_REPEAT):
                t0 = time.perf_counter()
                state.explain(move)
                best = min(best, time.perf_counter() - t0)
            times.append(best)
    if not times:
        return 0.0, 0.0
    times.sort()
    return times[len(times) // 2] * 1e6, times[min(len(times) - 1, len(times) * 99 // 100)] * 1e6


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


def _ratio(num: float | None, den: float | None) -> float | None:
    return None if num is None or den is None or den == 0 else num / den


def api_loop(states: Sequence[Any], objects: bool = False) -> int:
    """Play every state of ``states`` to the end of its hand through the index API
    (``num_moves``/``push_index``), or with ``objects`` through ``push(move_at(i))``;
    the index is drawn by a small linear congruential generator. Returns the moves played.

    >>> import cassino
    >>> api_loop([cassino.new_hand(seed=1)])
    48
    """
    x = 12345
    played = 0
    for s in states:
        num_moves = s.num_moves
        push_index = s.push_index
        if objects:
            move_at = s.move_at
            push = s.push
            while not s.is_over:
                x = (x * 1103515245 + 12345) & 0x7FFFFFFF
                push(move_at(x % num_moves()))
                played += 1
        else:
            while not s.is_over:
                x = (x * 1103515245 + 12345) & 0x7FFFFFFF
                push_index(x % num_moves())
                played += 1
    return played


def chess_perft(depth: int) -> tuple[int, float] | None:
    """``(nodes, seconds)`` of a python-chess perft of ``depth`` from the initial position
    (leaves counted with ``legal_moves.count()``), or None without python-chess."""
    try:
        import chess
    except ImportError:
        return None

    def perft(board: Any, d: int) -> int:
        if d == 1:
            return int(board.legal_moves.count())
        n = 0
        for move in board.legal_moves:
            board.push(move)
            n += perft(board, d - 1)
            board.pop()
        return n

    board = chess.Board()
    t0 = time.perf_counter()
    nodes = perft(board, depth)
    return nodes, time.perf_counter() - t0


def _playout_arrays(n: int, teams: int) -> tuple[Any, ...]:
    import numpy as np

    return (
        np.zeros((n, teams, len(CATEGORIES)), np.int16), np.zeros((n, teams), np.int16),
        np.zeros((n, teams), np.int16), np.zeros(n, np.int32), np.zeros(n, np.int8),
    )


PLAYOUT_HANDS = 20_000
"""Hands per timed call of the ``hands_per_second`` figure (seed 1, hands 0, 1, ...)."""

MOVEGEN_REPEAT = 20
"""Passes over the corpus per timed call of the ``movegen_ns_per_position`` figure."""

SYSTEM_POSITIONS = 500
"""Positions of random games of each system in its ``movegen_ns`` figure (``systems``)."""

SYSTEM_MOVEGEN_REPEAT = 10
"""Passes over those positions per timed call."""

SETTLE_SECONDS = 3.0
"""A pause after the python-chess perft: on the 2-core machines of docs/benchmarks.md the
core ran about 30% slower for two to three seconds after it (its memory freed), which the
next figures (the hard count, the systems' rates) then showed."""

EXPLAIN_REPEAT = 3
"""Calls of ``explain()`` per move in :func:`explain_us`; the fastest counts."""

TIMED_ROUNDS = 10
"""Timed calls of the two target figures; each figure is the fastest call. benchmarks/
times the same calls, as many times."""


OPTION_SETS: dict[str, tuple[str, dict[str, Any]]] = {
    "elewenjewe_amateur esun=true": ("elewenjewe_amateur", {"esun": True}),
    "elewenjewe_professional esun=true yoruba=true": (
        "elewenjewe_professional", {"esun": True, "yoruba": True}
    ),
    "elewenjewe_five_player esun=true": ("elewenjewe_five_player", {"esun": True}),
}
"""The option modules that change move generation, each timed on a system as the systems are
(bench's ``option_sets``): Esun piles are build moves where the plain Eléwénjewé systems
have none."""


def playout_call(core: Any, system: str | Rules = "cassino_standard",
                 hands: int = PLAYOUT_HANDS,
                 arrays: tuple[Any, ...] | None = None) -> Callable[[], int]:
    """The timed call of the playout figures: ``hands`` random hands of ``system`` (seed 1,
    from hand 0) played, scored and written to NumPy arrays in C by ``_fill_playouts`` (as
    :func:`cassino.playouts` runs them, whatever ``CASSINO_PURE_PYTHON`` says), one thread.
    The call returns the number of moves played; the arrays (``points``, ``cards``,
    ``sweeps``, ``moves``, ``dealers`` of :func:`cassino.playouts`) are made beforehand,
    or passed in ``arrays``.

    >>> core = core_module()
    >>> core is None or playout_call(core, hands=3)() == 3 * 48
    True
    """
    r = system if isinstance(system, Rules) else rules(system)
    if arrays is None:
        arrays = _playout_arrays(hands, r.num_teams)
    random = (0,) * r.players
    nobody = (None,) * r.players

    def call() -> int:
        core._fill_playouts(r, 1, 0, random, nobody, *arrays)
        return int(arrays[3].sum())

    return call


def movegen_call(core: Any, positions: Sequence[Position],
                 repeat: int = MOVEGEN_REPEAT) -> Callable[[], int]:
    """The timed call of the move-generation figure: every legal move of each position
    listed ``repeat`` times in C (:func:`cassino._core.movegen_batch`, GIL released); the
    states are made beforehand (of the core's wide copy for a 104-card deck, which
    ``movegen_batch`` hands them to). The call returns the number of moves listed."""
    states = [core.State.from_position(p) for p in positions]
    kinds = {type(s) for s in states}
    if len(kinds) > 1:
        raise ValueError("movegen_call: positions of one card width (one deck size) at a time")
    batch = core.movegen_batch
    return lambda: int(batch(states, repeat))


def _playout_rate(core: Any, system: str, hands: int, budget: float) -> float:
    """Random hands per second of :func:`playout_call`, the fastest of ``TIMED_ROUNDS``."""
    return hands / _best(playout_call(core, system, hands), budget, TIMED_ROUNDS)


def _paired_rates(
    core: Any, system: str | Rules, hands: int, budget: float
) -> tuple[float, float, float, float]:
    """Random hands per second of ``system`` and of ``cassino_standard``, timed in
    alternation (a round of each, up to ``TIMED_ROUNDS`` rounds or ``budget`` seconds),
    the fastest round of each: a machine whose speed drifts during the run moves both.
    Then the moves a hand of each (the same seeded hands in every round)."""
    calls = [playout_call(core, "cassino_standard", hands), playout_call(core, system, hands)]
    moves = [call() / hands for call in calls]   # (warm-up)
    best = [float("inf"), float("inf")]
    spent = 0.0
    for k in range(TIMED_ROUNDS):
        for i, call in enumerate(calls):
            t0 = time.perf_counter()
            call()
            dt = time.perf_counter() - t0
            best[i] = min(best[i], dt)
            spent += dt
        if k >= 1 and spent >= budget:
            break
    return hands / best[1], hands / best[0], moves[1], moves[0]


# random hands a round of each compound system in the reference (reference_rates), and in
# the core (hands wholly in C; a hand's cost has a long tail, a few hands of large tables
# taking a sixth of a thousand hands' time in African 2p, so the core's sample is large)
REFERENCE_HANDS = 6
CORE_COMPOUND_HANDS = 400


def reference_rates(hands: int, core_hands: int = 0) -> dict[str, dict[str, float]]:
    """Random hands per second of the pure-Python reference in each compound system
    (African Cassino, the Italian house variant), next to the reference's own rate for
    ``cassino_standard`` timed in alternation with it: the same hands (seeds 1 to ``hands``)
    in two rounds, the faster round of each. With ``core_hands`` and the core built, also
    the core's rate for random hands (``cassino._core.random_hand``: hands wholly in C,
    ``whole_hand``; seeds 1 to ``core_hands``, the faster of two rounds) as
    ``core_hands_per_second``, and ``core_hands``."""
    from .rules import compound_systems

    try:
        from . import _core
    except ImportError:  # pragma: no cover - only without a compiled core
        _core = None     # type: ignore[assignment]

    def call(sid: str, play: Callable[[Rules, int], object], n: int) -> Callable[[], None]:
        r = rules(sid)

        def run() -> None:
            for seed in range(1, n + 1):
                play(r, seed)
        return run

    out: dict[str, dict[str, float]] = {}
    for sid in compound_systems():
        best = [float("inf"), float("inf")]
        for _ in range(2):
            for i, f in enumerate((call("cassino_standard", _reference.random_hand, hands),
                                   call(sid, _reference.random_hand, hands))):
                t0 = time.perf_counter()
                f()
                best[i] = min(best[i], time.perf_counter() - t0)
        out[sid] = {
            "reference_hands_per_second": hands / best[1],
            "reference_standard_hands_per_second": hands / best[0],
            "ratio_to_reference_standard": best[0] / best[1],
        }
        if core_hands and _core is not None:
            fast = float("inf")
            for _ in range(2):
                t0 = time.perf_counter()
                call(sid, _core.random_hand, core_hands)()
                fast = min(fast, time.perf_counter() - t0)
            out[sid]["core_hands_per_second"] = core_hands / fast
            out[sid]["core_hands"] = core_hands
    return out


def run_bench(
    quick: bool = False,
    budget: float = 1.0,
    *,
    systems: bool = True,
    workers: bool = False,
    engines: bool = False,
) -> dict[str, Any]:
    """Measure the figures; returns the object ``cassino bench --json`` prints.

    ``budget`` is the time in seconds each core figure may spend (a fifth of it with
    ``quick``), but for the two target figures, which take their ``TIMED_ROUNDS`` calls of
    :func:`movegen_call` and :func:`playout_call` unless ``quick``. ``systems`` adds the
    playout speed of every implemented system (``system_hands_per_second``) and the table
    ``systems``: ``{id: {hands_per_second, movegen_ns, ratio_to_standard,
    standard_hands_per_second, moves_per_hand, move_ratio_to_standard, explain_us,
    explain_us_p99}}`` and ``option_sets``, the same playout figures for each of
    :data:`OPTION_SETS`: ``{label: {hands_per_second, ratio_to_standard,
    standard_hands_per_second, moves_per_hand, move_ratio_to_standard}}``, where
    ``movegen_ns`` lists the
    moves of :data:`SYSTEM_POSITIONS` positions of the system's random games
    (:func:`bench_corpus`), ``ratio_to_standard`` divides the system's playout rate by
    ``cassino_standard``'s timed in alternation with it (``standard_hands_per_second``,
    :func:`_paired_rates`), ``move_ratio_to_standard`` compares the rates of moves played
    instead (a Mulle hand has about twice the moves of a standard one), and ``explain_us`` is
    :func:`explain_us` over the same positions; ``workers`` times ``simulate`` with one and two worker
    processes (``simulate_speedup``) and the README's first simulation (greedy against
    random); ``engines`` times the same run of two workers on the Ray and Dask engines that
    are installed, start-up included. Core figures are None when ``cassino._core`` is not
    built.
    """
    if quick:
        budget /= 5
    # the two target figures take all their rounds (as benchmarks/ does), unless quick
    target_budget = 2 * budget if quick else float("inf")
    core = core_module()
    r = rules("cassino_standard")
    npos, nref_pos = (200, 20) if quick else (2000, 100)
    corpus = bench_corpus(npos)
    out: dict[str, Any] = {
        "core_built": core is not None,
        "python": sys.version.split()[0],
        "positions": npos,
        "reference_positions": nref_pos,
    }

    # legal-move generation over the corpus
    ref_states = [_reference.State.from_position(p) for p in corpus[:nref_pos]]
    ref_ns = _best(lambda: [s.num_moves() for s in ref_states], budget, 2) / nref_pos * 1e9
    core_ns = None
    if core is not None:
        repeat = 5 if quick else MOVEGEN_REPEAT
        t = _best(movegen_call(core, corpus, repeat), target_budget, TIMED_ROUNDS)
        core_ns = t / (npos * repeat) * 1e9
    out["movegen_ns_per_position"] = core_ns
    out["reference_movegen_ns_per_position"] = ref_ns
    out["movegen_ratio"] = _ratio(ref_ns, core_ns)

    # random full hands, one core: the core playouts and the reference
    nref = 4 if quick else 20
    ref_arrays = _playout_arrays(nref, r.num_teams)
    ref_hps = nref / _best(lambda: _fill_reference(r, 1, 0, (0, 0), (None, None), *ref_arrays), budget, 2)
    core_hps = None
    nhands = 2000 if quick else PLAYOUT_HANDS
    if core is not None:
        core_hps = _playout_rate(core, "cassino_standard", nhands, target_budget)
    out["hands"] = nhands
    out["reference_hands"] = nref
    out["hands_per_second"] = core_hps
    out["reference_hands_per_second"] = ref_hps
    out["hands_ratio"] = _ratio(core_hps, ref_hps)

    # the Python-level loop: index API, and a Move object per chosen move
    api = api_obj = None
    if core is not None:
        nloop = 100 if quick else 1000

        def loop(objects: bool) -> float:
            best = float("inf")
            for _ in range(3 if quick else 5):
                fresh = [core.State.deal(r, i % 2, i) for i in range(nloop)]
                t0 = time.perf_counter()
                played = api_loop(fresh, objects)
                best = min(best, (time.perf_counter() - t0) / played)
            return 1 / best

        api = loop(False)
        api_obj = loop(True)
    out["api_moves_per_second"] = api
    out["api_object_moves_per_second"] = api_obj

    # perft from a fixed deal, beside python-chess
    pos = _reference.State.new_hand(r, 0, _deck(PERFT_SEED)).to_position()
    ref_depth = 3 if quick else 4
    ref_state = _reference.State.from_position(pos)
    ref_nodes = ref_state.perft(ref_depth)
    ref_nps = ref_nodes / _best(lambda: ref_state.perft(ref_depth), budget, 2)
    core_nps = None
    depth = 5 if quick else 6
    if core is not None:
        state = core.State.from_position(pos)
        nodes = state.perft(depth)
        core_nps = nodes / _best(lambda: state.perft(depth), budget, 10)
    out["perft_position"] = pos.to_text()
    out["perft_depth"] = depth
    out["reference_perft_depth"] = ref_depth
    out["perft_nodes_per_second"] = core_nps
    out["reference_perft_nodes_per_second"] = ref_nps
    out["perft_ratio"] = _ratio(core_nps, ref_nps)
    chess_depth = 3 if quick else 4
    chess = chess_perft(chess_depth)
    out["chess_perft_depth"] = chess_depth
    out["chess_perft_nodes_per_second"] = None if chess is None else chess[0] / chess[1]
    out["perft_vs_chess"] = _ratio(core_nps, out["chess_perft_nodes_per_second"])
    if chess is not None and not quick:
        time.sleep(SETTLE_SECONDS)

    # the hard position: an exact count without listing
    hard = hard_position()
    hard_state = (core.State if core is not None else _reference.State).from_position(hard)
    out["hard_moves"] = hard_state.count_moves()
    out["hard_count_ms"] = _best(hard_state.count_moves, budget, 5) * 1e3

    # the size of a state
    dealt = (core.State if core is not None else _reference.State).new_hand(r, 0, _deck(1))
    dealt.num_moves()
    out["state_bytes"] = sys.getsizeof(dealt)
    out["core_position_bytes"] = getattr(core, "CORE_BYTES", None)

    if systems and core is not None:
        from .rules import implemented_systems

        # each system timed in alternation with the standard game: its ratio compares rates
        # of the same minutes
        paired = {
            sid: _paired_rates(core, sid, nhands // 5, budget) for sid in implemented_systems()
        }
        out["system_hands_per_second"] = {sid: got[0] for sid, got in paired.items()}
        nsys = 100 if quick else SYSTEM_POSITIONS
        table: dict[str, dict[str, float]] = {}
        for sid, hps in out["system_hands_per_second"].items():
            positions = bench_corpus(nsys, sid)
            reps = 2 if quick else SYSTEM_MOVEGEN_REPEAT
            t = _best(movegen_call(core, positions, reps), budget / 2, 5)
            median, p99 = explain_us([core.State.from_position(q) for q in positions])
            ratio = 1.0 if sid == "cassino_standard" else hps / paired[sid][1]
            table[sid] = {
                "hands_per_second": hps,
                "movegen_ns": t / (nsys * reps) * 1e9,
                "ratio_to_standard": ratio,
                "standard_hands_per_second": paired[sid][1],
                "moves_per_hand": paired[sid][2],
                "move_ratio_to_standard": ratio * paired[sid][2] / paired[sid][3],
                "explain_us": median,
                "explain_us_p99": p99,
            }
        out["system_positions"] = nsys
        out["systems"] = table
        sets: dict[str, dict[str, float]] = {}
        for label, (sid, options) in OPTION_SETS.items():
            hps, std, moves, std_moves = _paired_rates(
                core, rules(sid, **options), nhands // 5, budget
            )
            sets[label] = {
                "hands_per_second": hps,
                "ratio_to_standard": hps / std,
                "standard_hands_per_second": std,
                "moves_per_hand": moves,
                "move_ratio_to_standard": hps / std * moves / std_moves,
            }
        out["option_sets"] = sets
        out["reference_systems"] = ref_systems = reference_rates(
            2 if quick else REFERENCE_HANDS, 16 if quick else CORE_COMPOUND_HANDS)
        for row in ref_systems.values():
            if "core_hands_per_second" in row:     # (next to the core's standard playouts)
                row["core_standard_hands_per_second"] = out["hands_per_second"]
                row["core_ratio_to_standard"] = (row["core_hands_per_second"]
                                                 / out["hands_per_second"])
    if workers or engines:
        out.update(_workers(quick))
    if engines:
        out.update(_engines(quick))
    return out


def _deck(seed: int) -> list[int]:
    from ._rng import shuffled_deck

    return shuffled_deck(Rng(seed))


def _workers(quick: bool) -> dict[str, Any]:
    """Wall time of ``simulate`` with one and with two worker processes, same seed."""
    from .simulate import simulate

    games = 40 if quick else 2000
    times = {}
    results = {}
    for w in (1, 2):
        t0 = time.perf_counter()
        results[w] = simulate(games=games, seed=1, workers=w)
        times[w] = time.perf_counter() - t0
    t0 = time.perf_counter()
    simulate(players=("greedy", "random"), games=games, seed=1)
    greedy = time.perf_counter() - t0
    # the built-in players in the core against the same players in Python, one process
    rates = {}
    for core_players, n in ((True, 40 if quick else 400), (False, 8 if quick else 40)):
        t0 = time.perf_counter()
        simulate(players=("greedy", "random"), games=n, seed=2, workers=1,
                 core_players=core_players)
        rates[core_players] = n / (time.perf_counter() - t0)
    return {
        "players_games_per_second_core": rates[True],
        "players_games_per_second_python": rates[False],
        "players_core_ratio": rates[True] / rates[False],
        "simulate_games": games,
        "simulate_seconds_1_worker": times[1],
        "simulate_seconds_2_workers": times[2],
        "simulate_speedup": times[1] / times[2],
        "simulate_identical": results[1].to_json() == results[2].to_json(),
        "simulate_greedy_seconds": greedy,
        "simulate_greedy_workers": os.cpu_count() or 1,
    }


def _engines(quick: bool) -> dict[str, Any]:
    """Wall time of the two-worker run of :func:`_workers` on each installed engine, start-up
    and shut-down of its private cluster included, and whether it gave the local records."""
    from .distributed import import_engine
    from .simulate import SimulationError, simulate

    games = 40 if quick else 2000
    local = simulate(games=games, seed=1, workers=2).to_json()
    out: dict[str, Any] = {}
    for engine in ("ray", "dask"):
        try:
            import_engine(engine)
        except SimulationError:
            out[f"simulate_seconds_{engine}"] = None
            continue
        t0 = time.perf_counter()
        result = simulate(games=games, seed=1, workers=2, engine=engine)
        out[f"simulate_seconds_{engine}"] = time.perf_counter() - t0
        out[f"simulate_identical_{engine}"] = result.to_json() == local
    return out
