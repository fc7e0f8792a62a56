#!/usr/bin/env python3
"""Fuzz harness of cassino's untrusted inputs: position JSON and text, move notation, move
application, rules options and game logs.

The first byte of an input picks a target; the rest is that target's payload. The only
outcomes allowed are a normal return and a :class:`cassino.CassinoError` (``CardError``,
``RulesError``/``UnknownSystemError``, ``PositionError``, ``NotationError``,
``IllegalMoveError``, ``MoveLimitError``, ``ReplayError``). Anything else -- another
exception, a failed consistency check, a crash of the C core or a hang -- is a finding.

With atheris (``pip install -e '.[fuzz]'``), under libFuzzer::

    python fuzz/fuzz_inputs.py -atheris_runs=20000 -timeout=10 NEW_CORPUS fuzz/corpus

(the first corpus folder receives the new inputs found; keep ``fuzz/corpus`` read-only by
putting a scratch folder first). Without atheris, the same target runs over random and
mutated inputs from a seeded generator::

    python fuzz/fuzz_inputs.py --fallback 5000 --seed 1 fuzz/corpus

and ``--replay PATH...`` runs saved inputs (files or folders) once each, e.g. the crash
regressions kept in ``tests/data/fuzz_regressions``.
"""

from __future__ import annotations

import functools
import json
import os
import random
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

if __name__ == "__main__" and "--fallback" not in sys.argv and "--replay" not in sys.argv:
    # under atheris: instrument the package's Python code for coverage feedback
    import atheris

    with atheris.instrument_imports(include=["cassino"]):
        import cassino
        from cassino import _reference
else:
    import cassino
    from cassino import _reference

from cassino.errors import CassinoError, IllegalMoveError
from cassino.game import Game
from cassino.moves import Move, MoveKind, same_notation
from cassino.position import Position
from cassino.rules import parse_option, rules

__all__ = ["ALLOWED", "TARGETS", "fallback_inputs", "run_fallback", "test_one_input"]

#: the exceptions a target may raise: the documented bad-input errors
ALLOWED: tuple[type[BaseException], ...] = (CassinoError,)

try:  # move generation on fuzzed positions runs in C (the reference is exponential there)
    from cassino import _core

    CoreState: Any = _core.State
except ImportError:  # pragma: no cover - without a compiled core
    CoreState = None

#: fuzzed positions whose moves are listed: at most this many loose cards on the table
MAX_LOOSE_FOR_MOVES = 12
#: and at most this many legal moves pushed and popped per position
MAX_PUSHES = 8

# Fixed positions for fuzzed moves: a fresh deal, positions with builds, three players,
# Callabra with two-card captures, a pluck to choose, a natural build of kings.
FIXED_TEXTS = [
    "cassino_standard 0 1 AS,3D,5C,9H/10S,QH,QC,KD 2H,8D,10H,JD -/- 4C,9S,3C,10C,3H,2S,7C,"
    "2C,JC,7H,6D,7D,5H,4H,AH,3S,AC,4D,8C,AD,KC,QD,8S,QS,2D,JH,6S,5D,7S,5S,9D,4S,6C,JS,9C,KH,"
    "6H,KS,10D,8H - - 0,0",
    "cassino_standard_002{players=3} 0 1 AS,2S,4D,7H/3H,5S,6D,KD/AH,3S,JD,QH AD,4S,5D,QC "
    "-/-/- 9S,2C,10H,8C,JC,6C,KH,4C,9D,8S,7S,5H,9H,6S,10S,7D,QS,KC,KS,3C,JS,7C,4H,5C,JH,QD,"
    "10D,6H,10C,2D,8H,3D,AC,8D,9C,2H - - 0,0,0",
    "callabra 1 0 2C,5H,6S/4D,9C,KH 3H,5C,7D,JC AS,AD,2H,3D,4H,5D,6C,7H,8S,8D,9S,9D,10H,10C,"
    "JH,QS,QD,KS,KC/AH,AC,2D,3C,4C,6H,7S,7C,8H,8C,9H,10S,10D,JS,JD,QH,QC,KD 2S,3S,4S,5S,6D 1 - "
    "0,0",
    # opt_pluck: the 3S just trailed, a pluck or a pass to choose
    "cassino_pluck 0 1 5S,5C,6D,JH/2D,9D,KS 3S,4C,5D,8D,KD -/- 4H,AD,QS,JS,JD,10H,JC,2C,7D,6C,"
    "3H,9C,8H,AH,7C,7H,4S,3D,AC,10D,7S,KH,QD,8C,KC,9S,9H,10S,10C,2S,5H,2H,4D,QC,3C,6H,8S,QH,AS,"
    "6S - - 0,0 pluck:-:after:3S",
    # opt_face_cards_all_four: a natural build of kings, queens in hand and loose
    "cassino_trailing_royals 1 0 5S,QD,QC,KH/2C,3C,QH,KD 4D,5D,JS,QS,(KS|KC=13@1) AS,AD,2S,3S,"
    "4S,5H,6H,7H,7C,8D,9S,9C,10H,10C,JD/AH,AC,2D,3D,4C,5C,6D,7D,8H,8C,9H,10S,10D,JH,JC 2H,3H,4H,"
    "6S,6C,7S,8S,9D - - 0,0",
    # Diloti (docs/rules.md §3.17, §3.18): declarations, a family, a partner's raised declaration
    "diloti 1 0 2H,5C,6D,8C,9S,KC/AH,5D,7C,9H,10D,QH "
    "AS,2C,3D,4H,7S,KD,(2S+3H=5@1),(4S+4D=8@0),(3C+6H|9D=9@1) "
    "AD,2D,4C,5H,6C,7D,8H,9C,10H,JS,JD,QS,QC,KH/AC,3S,5S,6S,7H,8S,8D,10S,10C,JH,JC,QD,KS - 1 - "
    "0,0",
    "diloti_four_player{players=4} 1 0 2S,4S,8C/AH,6C,7H/2C,7S,9D/3S,6H,8D "
    "AD,3C,4D,5H,(2H+4H=6@2!1),(2D+5D=7@2),(3D+5C|8S=8@1) "
    "AS,3H,5S,6D,7C,9S,9C,10H,10C,JH,JC,QH,QC,KH,KC/AC,4C,6S,7D,8H,9H,10S,10D,JS,JD,QS,QD,KS,KD"
    " - 3 - 0,0",
    # Zwickern (docs/rules.md §3.32): a joker in hand (played as a value), a loose joker, a stack
    "zwickern 1 0 2C,9H,X1/2D,3D,KC 5D,9S,X2,(5H+7H=12@) AH,AC,3H,4H,4C,5C,6H,6C,7D,8S,8D,9D,"
    "10S,10D,JS,JD,QS,QD,KS,KD,X4,X6/AD,2H,3C,4D,5S,6S,6D,7S,7C,8H,8C,9C,10H,10C,JH,JC,QH,QC,"
    "KH,X3,X5 AS,2S,3S,4S - - 0,0",
    # Bella Donna Halliel (docs/rules.md §3.34): KD takes the pile under KC, a Fixxa card
    "bella_donna_halliel 1 0 7C,9H,KD/2D,4C,KS 2C,3H,5D,9S AH,AC,3D,4H,5H,6H,6C,7H,8H,8C,10S,"
    "10D,JS,JD,QS,QD,KH/AD,2H,3C,4D,5C,6D,7S,7D,8D,9C,10H,10C,JH,JC,QH,QC,KC 9D,AS,2S,3S,4S,5S,"
    "6S,8S 1 - 0,0 bella:-:9S",
    # Laugh and Lie Down (docs/rules.md §3.35): a Prial decision at the deal, chips, a centre
    "laugh_and_lie_down{players=5} 4 0 2S,3S,4S,5S,6S,7S,7H,7D/2H,3H,4H,5H/2D,3D,9S,9H,9D,QS,"
    "QH,QD/AS,AH,2C,3C,4C,5C,6H,6D/4D,5D,6C,8S,8H,8D,JS,JH AD,AC,7C,8C,9C,JD,JC,QC "
    "-/KS,KH,KD,KC/-/-/10S,10H,10D,10C - - - 23,23,23,23,22 lld:11:-:prial:7:4",
]


def _fixed_positions() -> list[Position]:
    out = [Position.from_text(t) for t in FIXED_TEXTS]
    # a position with a simple and a multiple build, and one a few plies into a hand
    for seed, plies in ((7, 9), (11, 17), (5, 30)):
        s = _reference.State.new_hand(rules(sweeps=True), 0, _deck(seed))
        rng = random.Random(seed)
        for _ in range(plies):
            moves = s.legal_moves()
            builds = [m for m in moves if m.kind >= MoveKind.BUILD]
            s.push(builds[0] if builds and rng.random() < 0.6 else rng.choice(moves))
        out.append(s.to_position())
    # Mulle's 104 cards (the core's wide copy, _WideState): a three-player deal, and one a few plies in
    mulle = rules("mulle", players=3)
    s = _reference.State.new_hand(mulle, 0, cassino.shuffled_deck(cassino.Rng(3), 104))
    out.append(s.to_position())
    rng = random.Random(3)
    for _ in range(14):
        moves = s.legal_moves()
        takes = [m for m in moves if m.kind == MoveKind.CAPTURE]
        s.push(rng.choice(takes if takes and rng.random() < 0.7 else moves))
    out.append(s.to_position())
    return out


def _deck(seed: int) -> list[int]:
    return cassino.shuffled_deck(cassino.Rng(seed))


FIXED = _fixed_positions()


# -- consistency checks (a failure is a finding) -----------------------------------------
class Finding(AssertionError):
    """A consistency check failed on an input the parsers accepted."""


def _check(cond: bool, what: str) -> None:
    if not cond:
        raise Finding(what)


def _check_position(p: Position) -> None:
    """Round trips of an accepted position, and a few moves pushed and popped in C."""
    _check(Position.from_json(p.to_json()) == p, "JSON round trip changed the position")
    _check(Position.from_text(p.to_text()) == p, "text round trip changed the position")
    state = (CoreState or _reference.State).from_position(p)
    _check(state.to_position() == p, "State.from_position changed the position")
    if CoreState is None or p.loose.bit_count() > MAX_LOOSE_FOR_MOVES or p.rules.compound:
        return      # (a compound system's turns are listed by the reference's search)
    moves = state.legal_moves(limit=20_000)
    _check(moves == sorted(set(moves)), "legal moves not unique and sorted")
    _check(state.count_moves() == len(moves), "count_moves differs from the listing")
    step = max(1, len(moves) // MAX_PUSHES)
    for m in moves[::step]:
        _check(state.push(m) == m, f"push of the legal move {m} returned another move")
        after = state.to_position()
        after.validate()
        _check(state.pop() == m and state.to_position() == p, f"pop after {m} did not restore")
    _check(state.clone() == state, "clone differs")


def _text(payload: bytes) -> str:
    return payload.decode("utf-8", "replace")


# -- targets -----------------------------------------------------------------------------
def target_position_json(payload: bytes) -> None:
    """Position JSON as raw bytes (size, UTF-8, nesting and JSON checks included)."""
    _check_position(Position.from_json(payload))


def target_position_text(payload: bytes) -> None:
    """The one-line text notation."""
    _check_position(Position.from_text(_text(payload)))


def target_move_parse(payload: bytes) -> None:
    """Move notation alone: what parses re-parses to the same move."""
    m = Move.parse(_text(payload))
    _check(same_notation(Move.parse(str(m)), m), f"notation of {m!r} does not round-trip")


def _apply(state: Any, before: Position, action: Callable[[], object]) -> None:
    """Run ``action``; on an error check that ``state`` is unchanged, then re-raise."""
    try:
        action()
    except CassinoError:
        _check(state.to_position() == before, "a rejected move changed the state")
        raise


def _implementations(*extra: Any) -> list[Any]:
    """The State classes to run a target on: the reference and the core (if built)."""
    out: list[Any] = []
    for cls in (*extra, _reference.State, CoreState):
        if cls is not None and cls not in out:
            out.append(cls)
    return out


def target_move_text(payload: bytes) -> None:
    """Fuzzed notation parsed and pushed on a fixed position, in both implementations."""
    if not payload:
        return
    p = FIXED[payload[0] % len(FIXED)]
    text = _text(payload[1:])
    results = []
    for cls in _implementations(cassino.State):
        state = cls.from_position(p)
        try:
            _apply(state, p, functools.partial(state.parse_move, text))
            m = state.push(text)
            _check(state.ply == 1 and state.peek() == m, "push did not record the move")
            _check(state.pop() == m and state.to_position() == p, "pop did not restore")
            results.append(str(m))
        except CassinoError as exc:
            _check(state.to_position() == p and state.ply == 0, "a rejected move changed the state")
            results.append(type(exc).__name__)
    _check(len(set(results)) == 1, f"the implementations disagree on {text!r}: {results}")


def target_move_object(payload: bytes) -> None:
    """A Move built from raw integers (card, kind, takes, value) pushed on a fixed position."""
    if len(payload) < 3:
        return
    p = FIXED[payload[0] % len(FIXED)]
    card = payload[1] % 64  # (52..63: second copies, in the deck of Mulle only)
    kind = payload[2] % 8  # 5 pluck and 6 pass (no card played), 7 is TWO_CARD
    if kind in (5, 6) and payload[1] & 0x80:
        card = 255  # NO_CARD, as a pluck or a pass must have (other cards: NotationError)
    takes = int.from_bytes(payload[3:11], "little") & ((1 << 56) - 1)
    flags = payload[11] if len(payload) > 11 else 0
    if flags & 1:  # mostly cards of the table, as real moves take
        takes &= p.table_mask
    elif flags & 2:  # any cards
        takes &= (1 << 52) - 1
    value = payload[12] if len(payload) > 12 else 0
    move = Move(card, MoveKind(kind) if kind in set(MoveKind) else kind, takes, value)  # type: ignore[arg-type]
    verdicts = []
    for cls in _implementations():
        state = cls.from_position(p)
        legal = state.is_legal(move)
        why = state.explain(move)
        _check(legal == (why is None), "is_legal and explain disagree")
        try:
            _apply(state, p, functools.partial(state.push, move))
        except IllegalMoveError:
            _check(not legal, f"push rejected {move}, which is_legal accepts")
            verdicts.append(False)
            continue
        _check(legal, f"push accepted {move}, which is_legal rejects")
        state.pop()
        _check(state.to_position() == p, "pop did not restore")
        verdicts.append(True)
    _check(len(set(verdicts)) <= 1, f"the implementations disagree on {move}")


def target_options(payload: bytes) -> None:
    """``SYSTEM k=v k=v ...``: the registry, parse_option and rules(); then a random hand."""
    words = _text(payload).split()
    if not words:
        return
    system, items = words[0], words[1:9]
    opts = dict(parse_option(w) for w in items)
    r = rules(system, **opts)
    _check(rules(r.system, **r.options()) == r, "options() does not rebuild the rules")
    if CoreState is not None:
        totals, n = _core.random_hand(r, int.from_bytes(payload[:8].ljust(8, b"\0"), "little"))
        rest = r.deck_size - r.table_cards
        # (Mulle, deal_rest=even: the odd cards of the last deal go to the table unplayed)
        odd = rest % (r.players * r.hand_size) % r.players if r.deal_rest == "even" else 0
        if r.compound:
            # (compound turns: a turn of table-only creates plays no hand card, AMB-59, and
            # the Italian insist decisions are moves too)
            _check(n >= rest and len(totals) == r.num_teams, "random hand out of shape")
        else:
            _check(n == rest - odd and len(totals) == r.num_teams, "random hand out of shape")


def target_game_log(payload: bytes) -> None:
    """A game log (JSON list of records) replayed with Game.replay."""
    try:
        log = json.loads(_text(payload))
    except (ValueError, RecursionError):
        return  # not JSON: the log's own parser is json.loads
    if not isinstance(log, list) or len(log) > 400:
        return
    game = Game.replay(log)
    _check(game.log == json.loads(json.dumps(log)), "replayed log differs")


def target_state_json(payload: bytes) -> None:
    """State.from_json of the selected implementation, then its JSON again."""
    s = cassino.State.from_json(payload)
    _check(Position.from_json(s.to_json()) == s.to_position(), "State JSON round trip")


TARGETS: list[Callable[[bytes], None]] = [
    target_position_json,
    target_position_text,
    target_move_parse,
    target_move_text,
    target_move_object,
    target_options,
    target_game_log,
    target_state_json,
]


def test_one_input(data: bytes) -> None:
    """The fuzz entry point: byte 0 picks the target, the rest is its payload."""
    if not data:
        return
    target = TARGETS[data[0] % len(TARGETS)]
    try:
        target(data[1:])
    except ALLOWED:
        pass


# -- inputs without atheris ---------------------------------------------------------------
TOKENS = [
    b"{", b"}", b"[", b"]", b'"', b",", b":", b"null", b"true", b"-1", b"1e999", b"9" * 40,
    b"x", b"+", b"=", b"|", b"@", b"/", b"(", b")", b"-", b" ", b"\x00", b"\xff", b"\\u0000",
    b"AS", b"10D", b"TD", b"KC", b"XS", b"11H", b"cassino_standard", b"cassino_standard_002",
    b"diloti", b"players=3", b"sweeps=true", b"obligation=v3", b"target=0",
    b"hand_size=26", b"table_cards=0", b'"groups"', b'"owners"', b'"value"', b"[" * 20,
]


def seed_inputs() -> list[bytes]:
    """Valid inputs of every target, built from the fixed positions."""
    out: list[bytes] = []
    for k, p in enumerate(FIXED):
        out.append(bytes([0]) + p.to_json().encode())
        out.append(bytes([1]) + p.to_text().encode())
        out.append(bytes([7]) + p.to_json().encode())
        moves = _reference.State.from_position(p).legal_moves()
        for m in moves[:: max(1, len(moves) // 2)][:2]:
            out.append(bytes([2]) + str(m).encode())
            out.append(bytes([3, k]) + str(m).encode())
            if m.takes < 1 << 64 and m.card < 256:   # (target 4 reads 8 bytes of takes)
                out.append(bytes([4, k, m.card, int(m.kind)]) + m.takes.to_bytes(8, "little")
                           + bytes([1, m.value]))
    out += [
        bytes([5]) + b"cassino_standard sweeps=true obligation=v2",
        bytes([5]) + b"cassino_standard_002 players=3 direction=ccw",
        bytes([5]) + b"cassino_standard hand_size=2 table_cards=2 capture_extent=maximal",
    ]
    game = Game("cassino_standard", seed=3)
    rng = random.Random(3)
    for _ in range(30):
        game.push(rng.choice(game.legal_moves()))
    out.append(bytes([6]) + json.dumps(game.log).encode())
    return out


def read_inputs(paths: Iterable[str | Path]) -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of every file under ``paths`` (files or folders), sorted by name."""
    for path in paths:
        path = Path(path)
        files = sorted(f for f in path.rglob("*") if f.is_file()) if path.is_dir() else [path]
        for f in files:
            if not f.name.startswith("."):
                yield str(f), f.read_bytes()


def mutate(rng: random.Random, data: bytes, pool: list[bytes]) -> bytes:
    """A libFuzzer-like random mutation of ``data``."""
    buf = bytearray(data)
    for _ in range(rng.choice((1, 1, 2, 3, 5))):
        op = rng.randrange(8)
        i = rng.randrange(len(buf) + 1)
        if op == 0 and buf:  # flip a bit
            j = rng.randrange(len(buf))
            buf[j] ^= 1 << rng.randrange(8)
        elif op == 1 and buf:  # random byte
            buf[rng.randrange(len(buf))] = rng.randrange(256)
        elif op == 2:  # insert a token
            buf[i:i] = rng.choice(TOKENS)
        elif op == 3 and buf:  # delete a range
            j = min(len(buf), i + rng.randrange(1, 16))
            del buf[i:j]
        elif op == 4:  # truncate
            del buf[i:]
        elif op == 5 and pool:  # splice with another input
            other = rng.choice(pool)
            k = rng.randrange(len(other) + 1)
            buf[i:] = other[k:]
        elif op == 6 and buf:  # duplicate a range
            j = min(len(buf), i + rng.randrange(1, 32))
            buf[i:i] = buf[i:j]
        elif op == 7 and buf:  # change the target byte
            buf[0] = rng.randrange(len(TARGETS))
    return bytes(buf)


def fallback_inputs(n: int, seed: int = 0, corpus: Iterable[bytes] = ()) -> Iterator[bytes]:
    """``n`` inputs: the seeds and corpus first, then random bytes and mutations of them."""
    rng = random.Random(seed)
    pool = seed_inputs() + list(corpus)
    count = 0
    for data in pool:
        if count >= n:
            return
        yield data
        count += 1
    while count < n:
        if rng.random() < 0.1:
            size = rng.randrange(64)
            data = bytes([rng.randrange(len(TARGETS))]) + rng.randbytes(size)
        else:
            data = mutate(rng, rng.choice(pool), pool)
        if rng.random() < 0.02:
            pool.append(data)
        yield data
        count += 1


def run_fallback(n: int, seed: int = 0, corpus: Iterable[bytes] = ()) -> int:
    """Feed ``n`` inputs to :func:`test_one_input`; raises on the first finding.

    Returns the number of inputs run."""
    runs = 0
    for data in fallback_inputs(n, seed, corpus):
        try:
            test_one_input(data)
        except BaseException as exc:
            raise AssertionError(f"fuzz finding on input {data!r}: {type(exc).__name__}: {exc}") from exc
        runs += 1
    return runs


def _main(argv: list[str]) -> int:
    if "--replay" in argv:
        paths = [a for a in argv[argv.index("--replay") + 1 :] if not a.startswith("-")]
        n = 0
        for _name, data in read_inputs(paths):
            test_one_input(data)
            n += 1
        print(f"replayed {n} inputs: no finding")
        return 0
    if "--fallback" in argv:
        i = argv.index("--fallback")
        n = int(argv[i + 1])
        seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 0
        dirs = [a for a in argv[i + 2 :] if not a.startswith("-") and os.path.exists(a)]
        corpus = [data for _, data in read_inputs(dirs)]
        runs = run_fallback(n, seed, corpus)
        print(f"fallback fuzzing: {runs} executions, no finding")
        return 0
    atheris.Setup(argv, test_one_input)
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv))
