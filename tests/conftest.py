"""Shared helpers and fixtures of the cassino test suite.

Rule tests build positions with :func:`make_position`, which only needs the cards that
matter: every card not mentioned goes to a capture pile, so the position always holds the
52 cards exactly once. Tests use ``cassino.State`` (the compiled core when it exists, else
the reference) so that the same suite runs against both implementations.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from typing import Any

import pytest
from click.testing import Result
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import cassino
from cassino.cards import ALL_CARDS, CardSet, card_code, parse_card
from cassino.position import Position

# pytest-xdist sets COLUMNS and LINES in its workers (80 by 24), which would make the CLI's
# tables wrap at 80 columns where a serial run prints them as wide as their content
if "PYTEST_XDIST_WORKER" in os.environ:
    for _name in ("COLUMNS", "LINES"):
        os.environ.pop(_name, None)

settings.register_profile(
    "ci",
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "long",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# scripts/sanitize.sh: the debug core under ASan runs several times slower, and it looks for
# memory errors, which the paths of a few examples reach as well as the paths of many
settings.register_profile(
    "sanitize",
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


OPTION_CHOICES: dict[str, list[Any]] = {
    "face_capture": ["one", "one_or_three", "any"],
    "obligation": ["none", "v1", "v2", "v3"],
    "capture_extent": ["free", "maximal"],
    "sum_groups": ["single", "multi"],
    "natural_build_combination": [False, True],
    "unique_build_values": [False, True],
    "own_increase": ["allowed", "keep_old", "forbidden"],
    "sweeps": [False, True],
    "holding_invariant": [False, True],
}


def valid_options(opts: dict[str, Any]) -> dict[str, Any]:
    """``opts`` made a valid combination (obligation v3 needs unique build values)."""
    if opts.get("obligation") == "v3":
        opts["unique_build_values"] = True
    return opts


@st.composite
def option_sets(draw: Any) -> dict[str, Any]:
    """Random standard-Cassino options (always a valid combination)."""
    optional = {name: st.sampled_from(values) for name, values in OPTION_CHOICES.items()}
    return valid_options(draw(st.fixed_dictionaries({}, optional=optional)))


def random_options(rng: cassino.Rng) -> dict[str, Any]:
    """Random options from a seeded :class:`cassino.Rng` (each option set half the time)."""
    opts = {}
    for name, values in OPTION_CHOICES.items():
        if rng.below(2):
            opts[name] = values[rng.below(len(values))]
    return valid_options(opts)


def cards(text: str | Iterable[str]) -> list[str]:
    """Normalized card codes of ``"AS 2H"`` / ``"AS,2H"`` or a list of codes."""
    if isinstance(text, str):
        text = text.replace(",", " ").split()
    return [card_code(parse_card(c)) for c in text]


def ids(text: str) -> list[int]:
    """Card ids of codes separated by spaces, in order."""
    return [parse_card(c) for c in text.split()]


def mask(text: str | Iterable[str]) -> int:
    """Card mask of codes."""
    return int(CardSet(parse_card(c) for c in cards(text)))


def build(groups: str, value: int, owners: Sequence[int] | int = 0) -> dict[str, Any]:
    """A build object of the position JSON: ``build("3S+5H|8C", 8, [0, 1])``."""
    if isinstance(owners, int):
        owners = [owners]
    return {
        "groups": [cards(g.replace("+", " ")) for g in groups.split("|")],
        "value": value,
        "owners": list(owners),
    }


def _table_items(table: str | Iterable[Any]) -> list[Any]:
    if isinstance(table, str):
        table = table.split()
    items: list[Any] = []
    for item in table:
        if isinstance(item, dict):
            items.append(item)
        else:
            items.extend(cards(item))  # one code or several separated by spaces
    return items


def _item_codes(item: Any) -> list[str]:
    if isinstance(item, dict):
        return [c.split(":")[0] for g in item["groups"] for c in g]  # "AS:14": a fixed value
    return [item]


def position_dict(
    hands: Sequence[str | Iterable[str]],
    table: str | Iterable[Any] = (),
    *,
    to_move: int = 0,
    dealer: int = 1,
    system: str = "cassino_standard",
    options: dict[str, Any] | None = None,
    piles: Sequence[str | Iterable[str]] | None = None,
    stock: str | Iterable[str] = (),
    last_capturer: int | None = None,
    sweep_order: Sequence[int] = (),
    scores: Sequence[int] | None = None,
    rest_to: int | None = 1,
) -> dict[str, Any]:
    """Position JSON data; cards not named anywhere go to ``piles[rest_to]``.

    ``rest_to=None`` splits the rest alternately between the two piles.
    """
    hand_codes = [cards(h) for h in hands]
    items = _table_items(table)
    pile_codes = [cards(p) for p in piles] if piles is not None else [[] for _ in range(2)]
    stock_codes = cards(stock)
    used = [c for h in hand_codes for c in h]
    used += [c for it in items for c in _item_codes(it)]
    used += [c for p in pile_codes for c in p] + stock_codes
    try:  # the cards the system plays with (five players: 49)
        deck = cassino.rules(system, **{**(options or {}), "players": len(hand_codes)}).deck_mask
    except cassino.CassinoError:
        deck = ALL_CARDS
    rest_mask = deck & ~int(CardSet(parse_card(c) for c in used))
    rest = CardSet(rest_mask).codes()
    if rest_to is None:
        for i, c in enumerate(rest):
            pile_codes[i % len(pile_codes)].append(c)
    else:
        pile_codes[rest_to].extend(rest)
    nteams = len(pile_codes)
    return {
        "system": system,
        "options": dict(options or {}),
        "players": len(hand_codes),
        "dealer": dealer,
        "to_move": to_move,
        "hands": hand_codes,
        "table": items,
        "piles": pile_codes,
        "stock": stock_codes,
        "last_capturer": last_capturer,
        "sweeps": [list(sweep_order).count(t) for t in range(nteams)],
        "sweep_order": list(sweep_order),
        "scores": list(scores) if scores is not None else [0] * nteams,
    }


def make_position(*args: Any, **kwargs: Any) -> Position:
    """A validated :class:`Position`; see :func:`position_dict` for the arguments."""
    return Position.from_dict(position_dict(*args, **kwargs))


def make_state(*args: Any, **kwargs: Any) -> Any:
    """A ``cassino.State`` at :func:`make_position` (the selected implementation)."""
    return cassino.State.from_position(make_position(*args, **kwargs))


def assert_actions_round_trip(state: Any) -> None:
    """Every legal move of ``state`` encodes to one action sequence of the system's
    :class:`ActionSpace`, decodes back, and :class:`MoveBuilder` reaches it action by action."""
    from cassino.actions import ActionSpace, MoveBuilder

    space = ActionSpace(state.rules)
    legal = state.legal_moves()
    for m in legal:
        seq = space.encode(m)
        assert space.decode(seq) == m
        b = MoveBuilder(space, legal)
        got = None
        for a in seq:
            got = b.apply(a)
        assert got == m


def notations(state: Any) -> set[str]:
    """The notation of every legal move."""
    return {str(m) for m in state.legal_moves()}


def moves_of(state: Any, card: str) -> set[str]:
    """The notation of every legal move that plays ``card``."""
    c = parse_card(card)
    return {str(m) for m in state.legal_moves() if m.card == c}


def canon(move: str) -> str:
    """Canonical notation of ``move`` (takes sorted by card id)."""
    return str(cassino.Move.parse(move))


def play_hand_with(system: str, bot: Any, seed: int) -> list[str]:
    """One hand of ``system``: ``bot`` at seat 0, random players elsewhere; the moves."""
    from cassino.players import View, choose_move

    r = cassino.rules(system)
    state = cassino.State.deal(r, seed % r.players, seed)
    rng = cassino.Rng(seed)
    while not state.is_over:
        seat = state.to_move
        moves = state.legal_moves()
        if seat == 0:
            move = choose_move(bot, View.of(state, seat), moves)   # raises if illegal
        else:
            move = moves[rng.below(len(moves))]
        state.push(move)
    return [str(m) for m in state.history]


# -- counts for the terminal summary ---------------------------------------------------------
#: named counters that tests add to (states explored, fuzz executions, bad inputs ...);
#: the non-zero ones are printed at the end of the pytest run
RELIABILITY_COUNTS: dict[str, int] = {}


def pytest_sessionfinish(session: Any) -> None:
    # a pytest-xdist worker hands its counts to the controller (pytest_testnodedown)
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["reliability_counts"] = dict(RELIABILITY_COUNTS)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """The controller of a pytest-xdist run adds up its workers' counts (each key is set by
    one test or added to by several, so the sum over workers is the run's count)."""
    for name, value in getattr(node, "workeroutput", {}).get("reliability_counts", {}).items():
        RELIABILITY_COUNTS[name] = RELIABILITY_COUNTS.get(name, 0) + value


def pytest_terminal_summary(terminalreporter: Any) -> None:
    counts = {k: v for k, v in RELIABILITY_COUNTS.items() if v}
    if counts:
        terminalreporter.section("cassino reliability counts")
        for name, value in counts.items():
            terminalreporter.write_line(f"{name}: {value:,}")


def assert_one_line_error(result: Result, pattern: str = "") -> None:
    """A CLI failure: exit status 2, nothing on stdout, one ``error:`` line matching ``pattern``."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stderr
    assert re.search(pattern, lines[0]), lines[0]
