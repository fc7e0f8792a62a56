"""State.iter_moves(): the legal moves streamed in canonical order, in bounded memory.

The core lists small positions at once and walks larger ones with resumable cursors
(cassino._core.MoveStream); ``small_limit=0`` forces the walk, so every comparison below
runs both ways. The 24-card table of test_core_counting (16,037,492 moves, far beyond the
listing limit) is the target case.
"""

from __future__ import annotations

import collections
import itertools
import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

import cassino
from cassino import Rng, _reference, rules, shuffled_deck
from cassino.cards import card_code, card_rank
from cassino.cli import cli, move_record
from cassino.errors import PositionError
from cassino.position import Position
from conftest import build, option_sets, position_dict, random_options

core = pytest.importorskip("cassino._core", reason="the Cython core is not built")
if not hasattr(core, "MoveStream"):
    pytest.skip("cassino._core has no MoveStream", allow_module_level=True)

CoreState = core.State
RefState = _reference.State
MoveStream = core.MoveStream
SEEDS = st.integers(0, 2**63 - 1)
CHUNKS = (1, 7, 4096)

SMALL = [f"{r}{s}" for r in ["A", "2", "3", "4", "5", "6"] for s in "SHDC"]
HARD_HAND = ["9S", "10S", "9H", "10H"]
HARD_COUNT = 16_037_492


def table_position(
    table: list[Any], hand: list[str], options: dict[str, Any] | None = None
) -> Position:
    return Position.from_dict(position_dict([hand, []], table, options=options))


def hard_state(ncards: int = 24, options: dict[str, Any] | None = None) -> Any:
    return CoreState.from_position(table_position(list(SMALL[:ncards]), HARD_HAND, options))


def key(m: Any) -> tuple[int, int, int, int]:
    return (m.card, int(m.kind), m.takes, m.value)


def assert_streams(state: Any, expected: list[Any] | None = None) -> list[Any]:
    """Every way of streaming ``state`` gives its listing, in order."""
    if expected is None:
        expected = state.legal_moves()
    for k in CHUNKS:
        assert list(state.iter_moves(chunk=k)) == expected, k
        assert list(MoveStream(state, k, small_limit=0)) == expected, k
    assert list(MoveStream(state, 3, small_limit=1)) == expected
    return expected


def rss_bytes() -> int | None:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return None


# -- random positions ----------------------------------------------------------------------
def play_and_check(r: Any, seed: int, choice: int) -> int:
    rng = Rng(choice)
    state = CoreState.new_hand(r, seed % 2, shuffled_deck(Rng(seed)))
    checked = 0
    while True:
        moves = assert_streams(state)
        checked += 1
        if state.is_over:
            return checked
        state.push(moves[rng.below(len(moves))])


@given(seed=SEEDS, choice=SEEDS, options=option_sets())
def test_random_play_streams_the_listing(seed: int, choice: int, options: dict[str, Any]) -> None:
    play_and_check(rules("cassino_standard", **options), seed, choice)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"capture_extent": "maximal"},
        {"obligation": "v1"},
        {"obligation": "v2", "holding_invariant": False},
        {"obligation": "v3", "own_increase": "keep_old"},
        {"unique_build_values": False, "obligation": "none", "own_increase": "forbidden"},
        {"natural_build_combination": False, "sum_groups": "single", "face_capture": "any"},
        {"capture_extent": "maximal", "unique_build_values": False, "face_capture": "one"},
    ],
)
def test_random_play_with_options(options: dict[str, Any]) -> None:
    r = rules("cassino_standard", **options)
    assert sum(play_and_check(r, seed, seed + 99) for seed in range(6)) >= 6 * 48


def test_random_play_002_and_three_players() -> None:
    for r in (rules("cassino_standard_002"), rules("cassino_standard_002", players=3)):
        for seed in range(3):
            play_and_check(r, seed, seed)


def _group(rng: Rng, pool: list[int], total: int, min_cards: int) -> list[int] | None:
    """Random cards of ``pool`` (numeric) totalling ``total``, taken out of the pool."""
    for _ in range(20):
        order = [c for c in pool if card_rank(c) <= 10]
        picked: list[int] = []
        left = total
        while order and left:
            c = order.pop(rng.below(len(order)))
            if card_rank(c) <= left:
                picked.append(c)
                left -= card_rank(c)
        if left == 0 and len(picked) >= min_cards:
            for c in picked:
                pool.remove(c)
            return picked
    return None


def random_table(
    rng: Rng, options: dict[str, Any], loose_range: tuple[int, int]
) -> Position | None:
    """A position with a big random table: loose cards (mostly small) and builds; the hand
    often holds cards of the builds' values (augments, increases, obligations)."""
    pool = shuffled_deck(rng)
    pool.sort(key=lambda c: (card_rank(c) > 6, rng.below(1000)))  # small cards first
    table: list[Any] = []
    values: list[int] = []
    unique = options.get("unique_build_values", True)
    for _ in range(rng.below(5)):
        v = 2 + rng.below(9)
        if unique and v in values:
            continue
        multiple = rng.below(3) == 0
        groups = []
        for _ in range(2 if multiple else 1):
            g = _group(rng, pool, v, 1 if multiple else 2)
            if g is None:
                break
            groups.append("+".join(card_code(c) for c in g))
        if len(groups) != (2 if multiple else 1):
            continue
        owners = [rng.below(2)] if not multiple else [[0], [1], [0, 1]][rng.below(3)]
        table.append(build("|".join(groups), v, owners))
        values.append(v)
    size = 1 + rng.below(4)
    hand: list[int] = []
    if rng.below(2):
        for v in values[:2]:
            hand += [c for c in pool if card_rank(c) == v and c not in hand][:1]
    if rng.below(2):
        hand += [c for c in pool if card_rank(c) <= 4 and c not in hand][:1]
    high = rng.below(4) != 0
    hand += [c for c in reversed(pool) if c not in hand and (card_rank(c) >= 5 or not high)]
    hand = hand[:size]
    pool = [c for c in pool if c not in hand]
    lo, hi = loose_range
    n = lo + rng.below(hi - lo + 1)
    loose = pool[:n] if rng.below(3) else [pool.pop(rng.below(len(pool))) for _ in range(n)]
    table.extend(card_code(c) for c in loose)
    try:
        return table_position(table, [card_code(c) for c in hand], options)
    except PositionError:
        return None


def test_random_big_tables_stream_the_listing() -> None:
    """Tables of 8 to 16 loose cards with builds, random options: the cursors against the
    listing (unions of builds, merges of augments and increases, maximal, obligations)."""
    rng = Rng(20250101)
    checked = big = 0
    while checked < 400:
        pos = random_table(rng, random_options(rng), (8, 16))
        if pos is None:
            continue
        state = CoreState.from_position(pos)
        if state.count_moves() > 200_000:
            continue
        moves = assert_streams(state)
        big += len(moves) > 1000
        checked += 1
    assert big >= 20


@given(seed=SEEDS, options=option_sets())
def test_random_tables_match_the_reference(seed: int, options: dict[str, Any]) -> None:
    pos = random_table(Rng(seed), options, (4, 9))
    if pos is None:
        return
    state = CoreState.from_position(pos)
    ref = RefState(pos)
    expected = ref.legal_moves()
    assert_streams(state, expected)
    assert list(ref.iter_moves(chunk=7)) == expected


@pytest.mark.parametrize("ncards", [13, 17])
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"capture_extent": "maximal"},
        {"natural_build_combination": False},
        {"sum_groups": "single"},
    ],
)
def test_hard_tables_stream_the_listing(ncards: int, options: dict[str, Any]) -> None:
    state = hard_state(ncards, options)
    moves = state.legal_moves()
    assert len(moves) > 1000
    assert list(state.iter_moves()) == moves
    assert list(MoveStream(state, 7, small_limit=0)) == moves


def test_builds_of_one_value_beyond_eight() -> None:
    """Nine builds of 5 (unique_build_values=false): captures join any of 2**9 - 1 sets."""
    pairs = [f"A{s}+4{s}" for s in "SHDC"] + [f"2{s}+3{s}" for s in "SHDC"]
    table: list[Any] = [build(p, 5, i % 2) for i, p in enumerate(pairs)]
    table += [build("5S|5H", 5, [0, 1]), "6S", "7S", "8C", "9D", "10C", "KS"]
    for options in (
        {"unique_build_values": False, "obligation": "none"},
        {"unique_build_values": False, "obligation": "v2", "capture_extent": "maximal"},
        {"unique_build_values": False, "holding_invariant": False, "obligation": "v1"},
    ):
        pos = table_position(table, ["5D", "5C", "KH"], options)
        state = CoreState.from_position(pos)
        expected = RefState(pos).legal_moves()
        assert len(expected) >= 2 or options.get("capture_extent") == "maximal"
        assert_streams(state, expected)


def test_faces_and_the_no_legal_move_fallback() -> None:
    # faces capture by rank only
    for fc in ("one", "one_or_three", "any"):
        for extent in ("free", "maximal"):
            pos = table_position(
                ["KS", "KH", "KD", "QS", "2S", "3H"],
                ["KC", "QH", "5S"],
                {"face_capture": fc, "capture_extent": extent},
            )
            assert_streams(CoreState.from_position(pos), RefState(pos).legal_moves())
    # seat 0 owns a build of 9 but holds no 9 (holding invariant broken): nothing is legal
    # under obligation v1, so every trail is
    pos = table_position([build("4S+5S", 9, 0), "2H"], ["3C", "JD"], {"obligation": "v1"})
    state = CoreState.from_position(pos)
    expected = RefState(pos).legal_moves()
    assert [m.kind for m in expected] == [cassino.MoveKind.TRAIL] * 2
    assert_streams(state, expected)


def test_finished_hand_streams_nothing() -> None:
    state = CoreState.new_hand(rules("cassino_standard"), 0, shuffled_deck(Rng(3)))
    while not state.is_over:
        state.push(state.legal_moves()[-1])
    assert list(state.iter_moves()) == [] == list(MoveStream(state, 1, small_limit=0))


# -- the hard position ---------------------------------------------------------------------
def test_hard_position_streams_in_order_in_bounded_memory() -> None:
    state = hard_state()
    assert state.count_moves() == HARD_COUNT
    it = state.iter_moves(chunk=4096)
    first = next(it)  # not a listing of 16 million moves: the first chunk only
    assert str(first) == "9S"
    prefix = [first, *itertools.islice(it, 99_999)]
    keys = [key(m) for m in prefix]
    assert all(a < b for a, b in itertools.pairwise(keys))
    assert {m.card for m in prefix} == {first.card}
    # Python allocations stay flat over 50,000 moves (traced: slow), and the process does
    # not grow over a million more (their list would take about 200 MB)
    tracemalloc.start()
    try:
        collections.deque(itertools.islice(it, 50_000), maxlen=0)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20
    before = rss_bytes()
    collections.deque(itertools.islice(it, 1_000_000), maxlen=0)
    after = rss_bytes()
    if before is not None and after is not None:
        assert after - before < 32 << 20
    # the stream goes on where it was
    m = next(it)
    assert key(m) > keys[-1]


@pytest.mark.parametrize(
    ("options", "count"),
    [({}, HARD_COUNT), ({"capture_extent": "maximal"}, None), ({"sum_groups": "single"}, None)],
)
def test_hard_position_whole_walk_in_order(options: dict[str, Any], count: int | None) -> None:
    """Every move of the cursors' walk (in C, without Move objects: about a second),
    strictly increasing, as many as the multiset counter finds."""
    state = hard_state(24, options)
    n = state.count_moves()
    assert n == (count or n) > 1 << 20
    assert core._stream_check(state, 4096) == (n, True)
    assert core._stream_check(hard_state(17, options), 1) == (
        len(hard_state(17, options).legal_moves()),
        True,
    )


@pytest.mark.slow
def test_hard_position_full_stream() -> None:
    """All 16,037,492 moves, strictly increasing, with memory flat (about 15 s)."""
    state = hard_state()
    before = rss_bytes()
    n = 0
    last = (-1, -1, -1, -1)
    per_card: collections.Counter[int] = collections.Counter()
    for m in state.iter_moves(chunk=65536):
        k = (m.card, int(m.kind), m.takes, m.value)
        assert k > last
        last = k
        n += 1
        per_card[m.card] += 1
    after = rss_bytes()
    assert n == HARD_COUNT == state.count_moves()
    assert len(per_card) == 4
    if before is not None and after is not None:
        assert after - before < 64 << 20


def test_19_card_table_streamed_whole() -> None:
    """The 19-card table (538,132 moves) walked by the cursors against its listing."""
    state = hard_state(19)
    moves = state.legal_moves()
    assert len(moves) == 538_132
    assert list(MoveStream(state, 4096, small_limit=0)) == moves


# -- mutation, arguments -------------------------------------------------------------------
@pytest.mark.parametrize("small_limit", [0, 1 << 20])  # walked, listed at once
def test_changing_the_state_while_streaming_raises(small_limit: int) -> None:
    state = hard_state(17)
    moves = state.legal_moves()
    it = MoveStream(state, 7, small_limit=small_limit)
    assert next(it) == moves[0]
    state.push(moves[0])
    with pytest.raises(RuntimeError, match="changed"):
        next(it)
    with pytest.raises(RuntimeError, match="changed"):
        next(it)
    state.pop()  # back to the same position: still a different version
    with pytest.raises(RuntimeError, match="changed"):
        next(it)
    # a fresh iterator works; changed before its first move, it raises at once
    it = state.iter_moves()
    assert next(it) == moves[0]
    it2 = state.iter_moves()
    state.perft(1)
    with pytest.raises(RuntimeError):
        next(it)
    with pytest.raises(RuntimeError):
        next(it2)
    assert state.legal_moves() == moves


@pytest.mark.parametrize("impl", [CoreState, RefState])
def test_reference_and_core_raise_alike(impl: Any) -> None:
    pos = table_position(["2S", "3H", "4D", "5C", "7H"], ["9S", "10S", "KD"])
    state = impl(pos)
    it = state.iter_moves(chunk=2)
    first = next(it)
    state.push(first)
    with pytest.raises(RuntimeError, match="changed"):
        next(it)
    state.pop()  # the same position again, but the iterator has seen a change
    it = state.iter_moves()
    state.push(first)
    state.pop()
    with pytest.raises(RuntimeError, match="changed"):
        next(it)
    assert list(state.iter_moves()) == state.legal_moves()


@pytest.mark.parametrize("impl", [CoreState, RefState])
@pytest.mark.parametrize(
    ("chunk", "error", "pattern"),
    [
        (0, ValueError, "chunk must be between 1 and 1048576, not 0"),
        (-5, ValueError, "not -5"),
        (1 << 21, ValueError, "between 1 and"),
        (2.0, TypeError, "chunk must be an integer, not float"),
        ("7", TypeError, "not str"),
        (None, TypeError, "not NoneType"),
        (True, TypeError, "not bool"),
    ],
)
def test_chunk_is_checked_at_once(impl: Any, chunk: Any, error: type, pattern: str) -> None:
    state = impl(table_position(["2S", "3H"], ["5S"]))
    with pytest.raises(error, match=pattern):
        state.iter_moves(chunk)


def test_chunk_accepts_integer_likes() -> None:
    np = pytest.importorskip("numpy")
    state = CoreState(table_position(["2S", "3H", "4C"], ["5S", "7D"]))
    assert list(state.iter_moves(np.int64(2))) == state.legal_moves()
    assert list(state.iter_moves(chunk=1 << 20)) == state.legal_moves()
    with pytest.raises(ValueError, match="small_limit"):
        MoveStream(state, 5, small_limit=-1)
    with pytest.raises(TypeError):
        MoveStream(None, 5)  # type: ignore[arg-type]


def test_stream_is_its_own_iterator_and_stays_exhausted() -> None:
    state = CoreState(table_position(["2S", "3H", "4C"], ["5S", "7D"]))
    for small in (0, 100):
        it = MoveStream(state, 2, small_limit=small)
        assert iter(it) is it
        assert list(it) == state.legal_moves()
        with pytest.raises(StopIteration):
            next(it)
        with pytest.raises(StopIteration):
            next(it)


@given(seed=SEEDS, choice=SEEDS, options=option_sets(), chunk=st.integers(1, 50))
def test_reference_and_core_stream_alike(
    seed: int, choice: int, options: dict[str, Any], chunk: int
) -> None:
    r = rules("cassino_standard", **options)
    deck = shuffled_deck(Rng(seed))
    cs = CoreState.new_hand(r, seed % 2, deck)
    rs = RefState.new_hand(r, seed % 2, deck)
    rng = Rng(choice)
    while not cs.is_over:
        moves = list(rs.iter_moves(chunk))
        assert list(cs.iter_moves(chunk)) == moves
        assert list(MoveStream(cs, chunk, small_limit=0)) == moves
        m = moves[rng.below(len(moves))]
        cs.push(m)
        rs.push(m)
    assert list(rs.iter_moves()) == list(cs.iter_moves()) == []


# -- cassino moves -------------------------------------------------------------------------
@pytest.mark.skipif(
    cassino.IMPLEMENTATION == "reference",
    reason="the reference lists (and counts) the 16 million moves before printing one: minutes",
)
def test_cli_moves_prints_the_first_line_of_the_hard_position_at_once(tmp_path: Path) -> None:
    path = tmp_path / "hard.json"
    path.write_text(table_position(list(SMALL), HARD_HAND).to_json())
    proc = subprocess.Popen(
        [sys.executable, "-m", "cassino.cli", "moves", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        second = proc.stdout.readline()
    finally:
        proc.kill()
        proc.communicate()
    state = hard_state()
    moves = list(itertools.islice(state.iter_moves(), 2))
    assert json.loads(first) == move_record(moves[0])
    assert json.loads(second) == move_record(moves[1])


@pytest.mark.skipif(
    cassino.IMPLEMENTATION == "reference",
    reason="the reference lists (and counts) the 16 million moves before printing one: minutes",
)
def test_cli_moves_limit_and_count_on_the_hard_position(tmp_path: Path) -> None:
    path = tmp_path / "hard.json"
    path.write_text(table_position(list(SMALL), HARD_HAND).to_json())
    runner = CliRunner()
    res = runner.invoke(cli, ["moves", str(path), "--count"], prog_name="cassino")
    assert res.exit_code == 0 and res.stdout == f"{HARD_COUNT}\n"
    res = runner.invoke(cli, ["moves", str(path), "--limit", "1000"], prog_name="cassino")
    assert res.exit_code == 2 and res.stdout == ""
    assert res.stderr == f"error: {HARD_COUNT} legal moves exceed the listing limit of 1000\n"


def _listing_output(state: Any) -> str:
    lines = [json.dumps(move_record(m)) for m in state.legal_moves()]
    return "\n".join(lines) + "\n" if lines else ""


def test_cli_moves_output_is_the_listing(tmp_path: Path) -> None:
    runner = CliRunner()
    rng = Rng(11)
    positions = [table_position(list(SMALL[:n]), HARD_HAND).to_json() for n in (9, 14)]
    for _ in range(4):
        r = rules("cassino_standard", **random_options(rng))
        state = CoreState.new_hand(r, 0, shuffled_deck(rng))
        while not state.is_over:
            positions.append(state.to_position().to_json())
            moves = state.legal_moves()
            state.push(moves[rng.below(len(moves))])
        positions.append(state.to_position().to_json())
    path = tmp_path / "pos.json"
    for text in positions:
        path.write_text(text)
        state = cassino.State.from_position(Position.from_json(text))
        expected = _listing_output(state)
        res = runner.invoke(cli, ["moves", str(path)], prog_name="cassino")
        assert res.exit_code == 0 and res.stdout == expected
        n = state.count_moves()
        res = runner.invoke(cli, ["moves", str(path), "--limit", str(n)], prog_name="cassino")
        assert res.exit_code == 0 and res.stdout == expected
        if n:
            res = runner.invoke(
                cli, ["moves", str(path), "--limit", str(n - 1)], prog_name="cassino"
            )
            assert res.exit_code == 2 and res.stdout == ""
            assert f"{n} legal moves exceed the listing limit of {n - 1}" in res.stderr


def test_cli_moves_output_spans_chunks(tmp_path: Path) -> None:
    """16,824 moves: five chunks of 4096 lines, joined exactly as one listing."""
    path = tmp_path / "pos.json"
    path.write_text(table_position(list(SMALL[:14]), HARD_HAND).to_json())
    res = CliRunner().invoke(cli, ["moves", str(path)], prog_name="cassino")
    state = hard_state(14)
    assert res.exit_code == 0
    assert res.stdout == _listing_output(state)
    assert res.stdout.count("\n") == state.count_moves() > 4 * 4096
