"""The ``cassino`` command line: legal moves, perft, scoring and fresh deals (docs/format.md).

Every error prints one line ``error: <message>`` to stderr and exits with status 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

import click

from . import State, new_hand
from ._rng import Rng
from .cards import CardSet, card_code
from .errors import CassinoError, PositionError
from .game import Game
from .moves import Move, MoveKind
from .position import MAX_JSON_BYTES, Position, mask_sum
from .rules import SYSTEMS, parse_option, rules
from .scoring import CATEGORIES

__all__ = ["cli", "demo", "main", "move_record", "read_position"]

EXIT_ERROR = 2


def _fail(message: str) -> int:
    """Print the one-line error and return the exit status."""
    line = " ".join(message.split()) or "unknown error"
    click.echo(f"error: {line}", err=True)
    return EXIT_ERROR


class _OneLineErrors(click.Command):
    """Runs a command so that every failure is one ``error:`` line and status 2."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            code = rv if isinstance(rv, int) else 0
        except click.ClickException as exc:
            code = _fail(exc.format_message())
        except click.Abort:
            code = _fail("aborted")
        except OSError as exc:
            code = _fail(exc.strerror or str(exc))
        except (CassinoError, ValueError) as exc:
            code = _fail(str(exc))
        except Exception as exc:  # never a traceback on the command line
            code = _fail(f"internal error: {type(exc).__name__}: {exc}")
        if standalone_mode:
            sys.exit(code)
        return code


class _Group(_OneLineErrors, click.Group):
    pass


# -- input -------------------------------------------------------------------------------
def read_position(path: str) -> Position:
    """A position from a file (``-`` for stdin): position JSON, or the one-line text
    notation when the content does not start with ``{`` (or ``[``)."""
    name = "stdin" if path == "-" else path
    try:
        if path == "-":
            stdin = sys.stdin
            raw = getattr(stdin, "buffer", None)
            data = raw.read(MAX_JSON_BYTES + 1) if raw else stdin.read().encode("utf-8")
        else:
            with open(path, "rb") as f:
                data = f.read(MAX_JSON_BYTES + 1)
    except OSError as exc:
        raise PositionError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(data) > MAX_JSON_BYTES:
        raise PositionError(f"{name} is larger than {MAX_JSON_BYTES} bytes")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PositionError(f"{name} is not UTF-8 text: {exc}") from None
    text = text.strip()
    if not text:
        raise PositionError(f"{name} is empty")
    if text.startswith(("{", "[")):
        return Position.from_json(text)
    return Position.from_text(text)


def _state(path: str) -> Any:
    return State.from_position(read_position(path))


def move_record(move: Move) -> dict[str, Any]:
    """The JSON object ``cassino moves`` prints for ``move``."""
    kind = MoveKind(move.kind)
    result: dict[str, Any] | None = None
    if kind in (MoveKind.BUILD, MoveKind.AUGMENT, MoveKind.INCREASE):
        cards = move.takes | 1 << move.card
        if kind == MoveKind.BUILD:
            multiple = mask_sum(cards) >= 2 * move.value
        else:
            multiple = kind == MoveKind.AUGMENT
        result = {"cards": CardSet(cards).codes(), "value": move.value, "multiple": multiple}
    return {
        "move": str(move),
        "card": card_code(move.card),
        "kind": kind.label,
        "takes": CardSet(move.takes).codes(),
        "result": result,
    }


# -- commands ----------------------------------------------------------------------------
@click.group(cls=_Group, invoke_without_command=True)
@click.version_option(package_name="cassino")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Rules engine for Cassino card games.

    POS.json is a position file (JSON, or the one-line text notation), or - for stdin.
    Formats: docs/format.md.
    """
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


@cli.command()
@click.argument("position", metavar="POS.json")
@click.option(
    "--limit",
    type=click.IntRange(min=0),
    default=None,
    help="Fail instead of listing more than N moves.",
    metavar="N",
)
@click.option("--count", is_flag=True, help="Print only the exact number of legal moves.")
def moves(position: str, limit: int | None, count: bool) -> None:
    """List the legal moves, one JSON object per line, in canonical order."""
    state = _state(position)
    if count:
        click.echo(str(state.count_moves()))
        return
    out = [json.dumps(move_record(m)) for m in state.legal_moves(limit=limit)]
    if out:
        click.echo("\n".join(out))


@cli.command()
@click.argument("position", metavar="POS.json")
@click.argument("depth", type=click.IntRange(min=0))
@click.option("--divide", is_flag=True, help="Print the count below each legal move first.")
def perft(position: str, depth: int, divide: bool) -> None:
    """Count the move sequences of length DEPTH (a finished hand is a leaf)."""
    state = _state(position)
    if not divide or depth == 0:
        click.echo(str(state.perft(depth)))
        return
    total = 0
    for m in state.legal_moves():
        state.push(m)
        n = state.perft(depth - 1)
        state.pop()
        total += n
        click.echo(f"{m}: {n}")
    click.echo(f"total: {total if not state.is_over else 1}")


@cli.command()
@click.argument("position", metavar="POS.json")
def score(position: str) -> None:
    """Score the captured piles and sweeps of a position."""
    click.echo(json.dumps(_state(position).hand_score().to_dict()))


@cli.command()
@click.option("--system", default="cassino_standard", show_default=True, help="System id.")
@click.option("--players", type=int, default=None, help="Number of players.")
@click.option("--seed", type=int, default=0, show_default=True, help="Shuffle seed.")
@click.option("--option", "options", multiple=True, metavar="K=V", help="Rules option (repeatable).")
@click.option("--text", is_flag=True, help="Print the one-line text notation instead of JSON.")
def new(system: str, players: int | None, seed: int, options: tuple[str, ...], text: bool) -> None:
    """Print a freshly dealt hand (dealer seat 0) shuffled from SEED."""
    opts = dict(parse_option(o) for o in options)
    if players is not None:
        opts["players"] = players
    state = new_hand(rules(system, **opts), seed=seed)
    pos = state.to_position()
    click.echo(pos.to_text() if text else pos.to_json())


# -- python -m cassino -------------------------------------------------------------------
def _table_text(pos: Position) -> str:
    items = CardSet(pos.loose).codes()
    for b in pos.builds:
        groups = "|".join("+".join(CardSet(g).codes()) for g in b.groups())
        items.append(f"[{groups}={b.value}]")
    return " ".join(items) or "-"


@click.command(cls=_OneLineErrors)
@click.option("--seed", type=int, default=1, show_default=True, help="Game seed.")
def demo(seed: int) -> None:
    """Play one seeded hand of standard Cassino between two random players.

    The game shuffles with Rng(SEED); the players choose uniformly with Rng(SEED + 1).
    """
    game = Game("cassino_standard", seed=seed)
    r = game.rules
    players = Rng(seed + 1)
    draw = game.log[1]
    shown = "; redraw: ".join(
        ", ".join(f"seat {s} {code}" for s, code in rnd) for rnd in draw["rounds"]
    )
    click.echo(f"{SYSTEMS[r.system].name}, seed {seed}")
    click.echo(f"draw for first dealer (high card deals, A low): {shown}: seat {game.dealer} deals")
    hand = game.state
    per_deal = r.players * r.hand_size
    deal_no = 0
    ply = 0
    while True:
        pos = hand.to_position()
        deal = r.deals_per_hand - len(pos.stock) // per_deal
        if deal != deal_no:
            deal_no = deal
            last = " (last)" if deal == r.deals_per_hand else ""
            click.echo(f"deal {deal} of {r.deals_per_hand}{last}: table {_table_text(pos)}")
        moves = game.legal_moves()
        ply += 1
        seat = hand.to_move
        m = game.push(moves[players.below(len(moves))])
        if hand.is_over:
            break
        click.echo(f"{ply:3d}. seat {seat}  {m!s:<18} table {_table_text(hand.to_position())}")
    end = hand.to_position()
    before = {c for p in pos.piles for c in p}
    if m.kind == MoveKind.CAPTURE:
        before |= set(CardSet(m.takes | 1 << m.card))
    leftovers = CardSet(c for p in end.piles for c in p if c not in before)
    click.echo(f"{ply:3d}. seat {seat}  {m}")
    if leftovers and end.last_capturer is not None:
        click.echo(f"leftovers to seat {end.last_capturer}: {leftovers}")
    hs = game.hand_scores[0]
    teams = range(r.num_teams)
    click.echo("")
    click.echo("category        " + "".join(f"  seat {t}" for t in teams))
    for cat in CATEGORIES:
        if cat == "sweeps" and not r.sweeps:
            continue
        pts = [hs.categories(t)[cat] for t in teams]
        click.echo(f"{cat:<16}" + "".join(f"{p:8d}" for p in pts))
    click.echo("total           " + "".join(f"{p:8d}" for p in hs.totals()))
    click.echo("game score      " + "".join(f"{p:8d}" for p in game.scores))


def main() -> None:
    """Console entry point of ``cassino``."""
    cli.main(prog_name="cassino")


if __name__ == "__main__":
    main()
