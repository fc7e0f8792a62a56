"""Card ids and masks wider than a deck (issue 15): a second-copy card (``JH'``, Mulle's
double deck) on a 52-card state, and over-wide or negative masks reaching the core's
``mask_t`` casts, are clear errors or plain "illegal", never OverflowError, and leave the
state unchanged. Also: ``multiple`` in ``cassino moves`` is the resulting build's own."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import cassino
from cassino import Move, MoveKind
from cassino import _reference as ref
from cassino.cli import cli, made_build, move_record
from cassino.errors import CassinoError, IllegalMoveError, NotationError

try:
    from cassino import _core
except ImportError:  # pragma: no cover - without a compiled core
    _core = None  # type: ignore[assignment]

IMPLS: list[Any] = [ref.State] + ([_core.State] if _core is not None else [])


def _ids(cls: Any) -> str:
    return "core" if cls is not ref.State else "reference"


@pytest.mark.parametrize("cls", IMPLS, ids=_ids)
@pytest.mark.parametrize(("text", "card"), [("JSxJH'", "JH'"), ("5Sx5C'", "5C'"), ("JH'", "JH'")])
def test_second_copy_notation_on_a_52_card_state(cls: Any, text: str, card: str) -> None:
    s = cls.from_position(cassino.new_hand(seed=1).to_position())
    before = s.to_position()
    for action in (s.parse_move, s.push, lambda t: s.push(Move.parse(t))):
        with pytest.raises((NotationError, IllegalMoveError), match=re.escape(card)):
            action(text)
        assert s.to_position() == before and s.ply == 0
    m = Move.parse(text)
    assert not s.is_legal(m)
    assert s.explain(m) == f"{card} is not a card of the deck of cassino_standard"


def _forged(move: Move, **fields: Any) -> Move:
    """``move`` with fields a Move would refuse (a frozen dataclass, forced)."""
    out = Move(move.card, move.kind, move.takes, move.value, move.fixed)
    for k, v in fields.items():
        object.__setattr__(out, k, v)
    return out


WIDE = [1 << 52, 1 << 63, 1 << 64, 1 << 70, 1 << 104, 1 << 127, 1 << 128, 1 << 200, -1, -(1 << 70)]


@pytest.mark.parametrize("cls", IMPLS, ids=_ids)
@pytest.mark.parametrize("takes", WIDE, ids=hex)
def test_over_wide_takes_at_every_entry_point(cls: Any, takes: int) -> None:
    s = cls.from_position(cassino.new_hand(seed=1).to_position())
    before = s.to_position()
    legal = s.legal_moves()
    capture = next(m for m in legal if m.kind == MoveKind.CAPTURE) if any(
        m.kind == MoveKind.CAPTURE for m in legal
    ) else legal[0]
    m = _forged(capture, takes=takes | capture.takes if takes > 0 else takes)
    assert s.is_legal(m) is False
    assert s.is_default(m) is False
    why = s.explain(m)
    assert isinstance(why, str) and why
    with pytest.raises(CassinoError):
        s.push(m)
    assert s.to_position() == before and s.ply == 0
    assert s.legal_moves() == legal     # the move buffer is intact


@pytest.mark.parametrize("cls", IMPLS, ids=_ids)
@pytest.mark.parametrize(("field", "value"), [("card", 1 << 40), ("card", -3), ("card", 104),
                                              ("value", 1 << 40), ("value", -(1 << 40))])
def test_over_wide_card_and_value(cls: Any, field: str, value: int) -> None:
    s = cls.from_position(cassino.new_hand(seed=1).to_position())
    before = s.to_position()
    m = _forged(s.legal_moves()[0], **{field: value})
    assert s.is_legal(m) is False
    with pytest.raises(CassinoError):
        s.push(m)
    assert s.to_position() == before


def test_over_wide_fixed_card_on_the_core() -> None:
    core = pytest.importorskip("cassino._core")
    s = core.State.from_position(cassino.new_hand(seed=2, system="cassino_royal").to_position())
    build = next((m for m in s.legal_moves() if m.kind == MoveKind.BUILD), s.legal_moves()[0])
    before = s.to_position()
    for card in (1 << 70, -1, 300):
        m = _forged(build, fixed=((card, 14),))
        assert s.is_legal(m) is False
        with pytest.raises(CassinoError, match=str(card)):
            s.push(m)
        assert s.to_position() == before


def test_positions_with_over_wide_masks_are_refused() -> None:
    import dataclasses

    p = cassino.new_hand(seed=1).to_position()
    for h in (1 << 70, 1 << 200, -1):
        with pytest.raises(CassinoError):
            q = dataclasses.replace(p, hands=(h, *p.hands[1:]))
            cassino.State.from_position(q)


def test_mulle_states_refuse_takes_wider_than_104_cards() -> None:
    from conftest import make_position

    p = make_position(["KC' QC' 2S' AS", "KD' JH' 10D AH'"], "KS' AD'", system="mulle", stock="")
    s = cassino.State.from_position(p)
    m = Move(103, MoveKind.CAPTURE, 1 << 100)   # KC'xKS'
    assert s.is_legal(m)
    for takes in (1 << 104 | 1 << 100, 1 << 127, 1 << 128, 1 << 300, -1):
        f = _forged(m, takes=takes)
        assert s.is_legal(f) is False
        with pytest.raises(CassinoError):
            s.push(f)
        assert s.to_position() == p


# -- `multiple` in `cassino moves` ------------------------------------------------------------
DILOTI_RAISE = {
    "system": "diloti", "options": {}, "players": 2, "dealer": 1, "to_move": 0,
    "hands": [["JS", "2H", "9H", "AC", "KC"], ["7H", "3D", "5D", "7D", "9D"]],
    "table": ["2S", "9S", "JH", "KD", "6C", "8C", "10C",
              {"groups": [["3H", "4C"]], "value": 7, "owners": [1]}],
    "piles": [["10D", "AH", "9C", "KS", "KH", "8D", "8S", "6H", "8H", "2D", "3C", "5C", "10S",
               "10H", "6S", "3S", "AD", "6D", "2C", "QD", "QS", "7S", "7C"],
              ["5H", "AS", "5S", "4D", "QC", "QH", "JC", "JD", "4H", "4S"]],
    "stock": [], "last_capturer": 1, "sweeps": [0, 0], "scores": [0, 0],
}  # fmt: skip


def test_a_raise_extended_into_a_family_is_multiple_in_cassino_moves(tmp_path: Path) -> None:
    path = tmp_path / "diloti.json"
    path.write_text(json.dumps(DILOTI_RAISE))
    res = CliRunner().invoke(cli, ["moves", str(path)], prog_name="cassino")
    assert res.exit_code == 0, res.output
    records = {r["move"]: r for r in map(json.loads, res.stdout.splitlines())}
    extended = records["2H+3H,4C,9S=9"]
    assert extended["kind"] == "increase"
    assert extended["result"] == {"cards": ["2H", "3H", "4C", "9S"], "value": 9, "multiple": True}
    assert records["2H+3H,4C=9"]["result"]["multiple"] is False


def _is_multiple(build: Any, rules: Any) -> bool:
    from cassino.cli import rules_total

    return len(build.groups_for(rules)) >= 2 or build.value != rules_total(build.cards, rules, build.fixed)


def _random_positions(sid: str, n: int, seed: int) -> list[Any]:
    """Positions reached by capture- and build-biased random play of ``sid``."""
    r = cassino.rules(sid)
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        s = cassino.State.deal(r, rng.randrange(r.players), rng.randrange(1 << 30))
        while not s.is_over and len(out) < n:
            moves = s.legal_moves()
            out.append(s.to_position())
            builds = [m for m in moves if m.kind in (MoveKind.BUILD, MoveKind.AUGMENT, MoveKind.INCREASE)]
            s.push(rng.choice(builds) if builds and rng.random() < 0.7 else rng.choice(moves))
    return out


@pytest.mark.parametrize("sid", cassino.implemented_systems())
def test_multiple_is_the_resulting_builds_own(sid: str) -> None:
    """Over random positions of every system: ``multiple`` in the JSON record (with and
    without the state) equals "two or more groups, or a value other than the card total"
    of the build on the table after ``push``."""
    seen = 0
    for p in _random_positions(sid, 120 if cassino.IMPLEMENTATION == "core" else 40, 15):
        s = cassino.State.from_position(p)
        for m in s.legal_moves():
            if m.kind not in (MoveKind.BUILD, MoveKind.AUGMENT, MoveKind.INCREASE):
                continue
            b = made_build(s, m)
            assert s.to_position() == p
            want = _is_multiple(b, s.rules)
            assert b.multiple == want, (sid, str(m))
            assert move_record(m, s.rules, s.to_position().builds)["result"]["multiple"] == want, (sid, str(m))
            assert move_record(m, s.rules)["result"]["multiple"] == want, (sid, str(m))
            seen += 1
    builds_possible = cassino.rules(sid).build_kinds != "none"
    assert seen > 0 or not builds_possible, sid


# -- one State type for every deck: Mulle's states are of the wide copy of the core ---------
def test_mulle_states_are_states_of_every_constructor_and_copy() -> None:
    import copy
    import pickle

    core = pytest.importorskip("cassino._core")
    r = cassino.rules("mulle", players=3)
    s = core.State.deal(r, 1, 7)
    s.push(s.legal_moves()[-1])
    made = [s, s.clone(), copy.copy(s), copy.deepcopy(s), pickle.loads(pickle.dumps(s)),
            core.State.from_json(s.to_json()), core.State.from_position(s.to_position()),
            core.State(s.to_position()), core.State.new_hand(r, 0, list(range(104)))]
    for t in made:
        assert isinstance(t, core.State) and type(t) is core._WideState
    for t in made[1:5]:
        assert t == s and t.history == s.history and t.legal_moves() == s.legal_moves()
    t = made[1]
    t.pop()
    assert t.ply == 0 and s.ply == 1          # clones are independent


def test_core_entry_points_refuse_or_route_a_state_of_the_other_width() -> None:
    core = pytest.importorskip("cassino._core")
    wide = core.State.deal(cassino.rules("mulle"), 0, 3)
    narrow = core.State.deal(cassino.rules("cassino_standard"), 0, 3)
    # routed to the wide copy: the same counts as the state's own listing
    assert core.movegen_batch([wide, wide], 2) == 4 * wide.num_moves()
    assert core._stream_check(wide) == (wide.count_moves(), True)
    assert list(wide.iter_moves()) == wide.legal_moves()
    # mixed batches and a MoveStream over a wide state: TypeError, not a misread position
    for states in ([narrow, wide], [wide, narrow]):
        with pytest.raises(TypeError):
            core.movegen_batch(states)
    with pytest.raises(TypeError, match="iter_moves"):
        core.MoveStream(wide)


def test_the_wide_copy_is_generated_from_the_current_core_source() -> None:
    """core/_wide.pxi (scripts/gen_wide.py, run by setup.py) renames every top-level name of
    the core: a definition left unrenamed would clash with the 64-bit one."""
    import importlib.util

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("gen_wide", root / "scripts" / "gen_wide.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    text = gen.generate()
    defs = re.findall(r"^(?:cdef class|def|cdef struct|cdef enum) (\w+)", text, flags=re.M)
    defs += re.findall(r"^c?p?def [^\n(=]*?(\w+)\(", text, flags=re.M)     # C functions
    assert len(defs) > 200
    assert {d for d in defs if not d.startswith("_w_")} == {"_WideState"}
    assert "cdef class _WideState(State):" in text and "cdef _w_Core wc" in text
    built = root / "src" / "cassino" / "core" / "_wide.pxi"
    if built.exists():                        # (an editable install: the file setup.py wrote)
        assert built.read_text() == text, "core/_wide.pxi is stale: rebuild (pip install -e .)"
