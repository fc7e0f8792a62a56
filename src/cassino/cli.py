"""The ``cassino`` command line: simulations, benchmarks, the rules registry, legal moves,
perft, scoring and fresh deals (docs/format.md).

Every error prints one line ``error: <message>`` to stderr and exits with status 2.
"""

from __future__ import annotations

import csv
import json
import os
import sys
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from itertools import islice
from typing import IO, Any

import click

from . import new_hand
from ._rng import Rng
from .cards import CardSet, card_code
from .distributed import DISTRIBUTED_CHUNK
from .errors import CassinoError, MoveLimitError, PositionError, RulesError, UnknownSystemError
from .game import Game, _state_class
from .moves import Move, MoveKind
from .players import PlayerError
from .position import MAX_JSON_BYTES, Build, Position, card_values, face_build, mask_sum
from .rules import (
    CHOICES,
    OPTION_MODULES,
    OPTION_NAMES,
    PLANNED_FLAGS,
    SYSTEMS,
    Rules,
    parse_option,
    rules,
    system_rules_text,
)
from .scoring import used_categories
from .simulate import (
    ENGINES,
    LOCAL_CHUNK,
    MAX_HANDS,
    STALL_TIMEOUT,
    GameRecord,
    SimulationResult,
    csv_header,
    csv_row,
    display_names,
    plot_result,
)
from .simulate import simulate as run_simulation

__all__ = ["cli", "demo", "made_build", "main", "move_record", "read_position"]

EXIT_ERROR = 2
MOVES_CHUNK = 4096  # moves generated and printed at a time by ``cassino moves``


_DEBUG: list[bool] = [False]


def _debug() -> bool:
    """Whether ``--debug`` or ``CASSINO_DEBUG=1`` asked for tracebacks."""
    return _DEBUG[0] or os.environ.get("CASSINO_DEBUG", "") not in ("", "0")


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
        except Exception as exc:  # a traceback only with --debug (or CASSINO_DEBUG=1)
            if _debug():
                traceback.print_exception(exc, file=sys.stderr)
                code = _fail(f"internal error: {type(exc).__name__}: {exc}")
            else:
                code = _fail(
                    f"internal error: {type(exc).__name__}: {exc} (run with --debug, as "
                    "'cassino --debug COMMAND ...', for the traceback)"
                )
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
    pos = read_position(path)
    return _state_class(pos.rules).from_position(pos)


def rules_total(cards: int, r: Rules, fixed: tuple[tuple[int, int], ...]) -> int:
    """The total of ``cards`` under the card values of ``r``, multi-valued cards at the
    values ``fixed`` gives them."""
    return sum(card_values(cards, r, fixed).values())


def move_record(
    move: Move, rules: Rules | None = None, builds: Sequence[Build] = ()
) -> dict[str, Any]:
    """The JSON object ``cassino moves`` prints for ``move``.

    For a move that makes or changes a build, ``result`` describes the build the move leaves
    on the table: its cards, value and ``multiple``, read off that build (two or more groups,
    that is a value other than its card total, or a natural build of face cards). Given
    ``builds``, those on the table of the position the move is legal in, the multi-valued
    cards already in a build the move takes count at the values they were built at.
    """
    kind = MoveKind(move.kind)
    result: dict[str, Any] | None = None
    if kind in (MoveKind.BUILD, MoveKind.AUGMENT, MoveKind.INCREASE):
        cards = move.takes | 1 << move.card
        result = {
            "cards": CardSet(cards).codes(),
            "value": move.value,
            "multiple": result_multiple(move, rules, builds),
        }
        if move.fixed:
            result["fixed"] = {card_code(c): v for c, v in move.fixed}
    out: dict[str, Any] = {
        "move": str(move),
        "card": card_code(move.card) if move.plays_card else None,
        "kind": kind.label,
        "takes": CardSet(move.takes).codes(),
        "result": result,
    }
    if kind == MoveKind.CAPTURE and move.value:
        out["declared"] = move.value    # (a Zwickern joker played as this value)
    if kind == MoveKind.PAIR:
        out["second"] = card_code(move.value)   # (Laugh and Lie Down: the other hand card)
    return out


def result_multiple(move: Move, rules: Rules | None, builds: Sequence[Build] = ()) -> bool:
    """Whether the build that ``move`` leaves is multiple: its cards (the played card, the
    loose cards and builds it takes) total more than its value, or it is a natural build of
    face cards (opt_face_cards_all_four). ``builds``, the builds on the table before the
    move, give the values their multi-valued cards were built at (an augmented build is
    always multiple, so without them its fixed aces do not matter)."""
    cards = move.takes | 1 << move.card
    if face_build(cards, move.value):
        return True
    if move.kind == MoveKind.AUGMENT:
        return True       # a group of the value added to a build: two groups or more
    fixed = dict(move.fixed)
    for b in builds:
        if b.cards & move.takes:
            fixed.update(b.fixed)
    total = mask_sum(cards) if rules is None else rules_total(cards, rules, tuple(sorted(fixed.items())))
    return total != move.value


def made_build(state: Any, move: Move) -> Build:
    """The build that ``move``, a legal build-kind move of ``state``, leaves on the table
    (``state`` is unchanged: the move is played and taken back)."""
    state.push(move)
    try:
        pos: Position = state.to_position()
        return next(b for b in pos.builds if b.cards >> move.card & 1)
    finally:
        state.pop()


# -- commands ----------------------------------------------------------------------------
@click.group(cls=_Group, invoke_without_command=True)
@click.version_option(package_name="cassino")
@click.option(
    "--debug", is_flag=True,
    help="Print the traceback of an internal error (a bot that raises, say).",
)
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Rules engine for Cassino card games.

    POS.json is a position file (JSON, or the one-line text notation), or - for stdin.
    Formats: docs/format.md. Player specs module:Class import from the working directory
    too, as 'python -m' does.
    """
    _DEBUG[0] = debug
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
    if limit is not None and (n := state.count_moves()) > limit:
        raise MoveLimitError(f"{n} legal moves exceed the listing limit of {limit}")
    # streamed: the first lines appear at once even when there are millions of moves
    stream = state.iter_moves(MOVES_CHUNK)
    builds = state.to_position().builds
    while chunk := list(islice(stream, MOVES_CHUNK)):
        click.echo("\n".join(json.dumps(move_record(m, state.rules, builds)) for m in chunk))


def _depth(ctx: click.Context, param: click.Parameter, value: str) -> int:
    try:
        depth = int(value)
    except ValueError:
        raise click.BadParameter(f"the depth must be a whole number ≥ 0, not {value!r}") from None
    if depth < 0:
        raise click.BadParameter(f"the depth must be ≥ 0, not {depth}")
    return depth


@cli.command(context_settings={"ignore_unknown_options": True})
@click.argument("position", metavar="POS.json")
@click.argument("depth", callback=_depth)
@click.option("--divide", is_flag=True, help="Print the count below each legal move first.")
def perft(position: str, depth: int, divide: bool) -> None:
    """Count the move sequences of length DEPTH (a finished hand is a leaf)."""
    state = _state(position)
    # on a terminal, a deep count shows its progress over the first moves (on stderr);
    # Ctrl-C stops it (KeyboardInterrupt from the core's signal checks)
    bar = _ProgressBar("perft, first moves") if _stderr_tty() and depth >= 2 else None
    if (not divide and bar is None) or depth == 0:
        click.echo(str(state.perft(depth)))
        return
    if state.is_over:   # a finished hand is one leaf
        click.echo("total: 1" if divide else "1")
        return
    total = 0
    moves = state.legal_moves()
    try:
        if bar is not None:
            bar(0, len(moves))
        for i, m in enumerate(moves, 1):
            state.push(m)
            try:
                n = state.perft(depth - 1)
            finally:
                state.pop()
            total += n
            if divide:
                click.echo(f"{m}: {n}")
            if bar is not None:
                bar(i, len(moves))
    finally:
        if bar is not None:
            bar.close()
    click.echo(f"total: {total}" if divide else str(total))


@cli.command()
@click.argument("position", metavar="POS.json")
@click.argument("move_texts", metavar="MOVE...", nargs=-1, required=True)
@click.option("--text", is_flag=True, help="Print the one-line text notation instead of JSON.")
def apply(position: str, move_texts: tuple[str, ...], text: bool) -> None:
    """Play MOVEs (notation such as 9Dx4H,5S or 3H+AC,5S=9) in order; print the position.

    An illegal move is an error naming the rule it breaks; nothing is printed then.
    """
    state = _state(position)
    for i, move_text in enumerate(move_texts, 1):
        try:
            state.push(state.parse_move(move_text))
        except CassinoError as exc:
            raise type(exc)(f"move {i} ({move_text}): {exc}") from None
    pos = state.to_position()
    click.echo(pos.to_text() if text else pos.to_json())


@cli.command()
@click.argument("position", metavar="POS.json")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def score(position: str, as_json: bool) -> None:
    """Score the captured piles and sweeps of a position: points per team in each category
    the system scores (the piles as they stand, as at the end of the hand)."""
    state = _state(position)
    r = state.rules
    hs = state.hand_score()
    cats = used_categories(r)
    data = hs.to_dict(only=cats)
    if as_json:
        click.echo(json.dumps(data))
        return
    teams = data["teams"]
    assert isinstance(teams, list)
    names = [
        "team " + " & ".join(f"seat {s}" for s in range(r.players) if r.team_of(s) == t)
        if r.num_teams != r.players else f"seat {t}"
        for t in range(r.num_teams)
    ]
    table = _table([("category", "left")] + [(n, "right") for n in names])
    listed = list(cats) + [c for c in teams[0]["categories"] if c not in cats]
    for cat in listed:
        table.add_row(cat, *(str(t["categories"][cat]) for t in teams))
    table.add_row("total", *(str(t["total"]) for t in teams))
    console = _console()
    console.print(f"{r.system}: points of the piles as they stand")
    console.print(table)


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


# -- simulate, bench, variants, rules -----------------------------------------------------
def _console(stderr: bool = False, file: IO[str] | None = None) -> Any:
    """A rich console on stdout (or stderr, or ``file``): colours on a terminal, plain text
    otherwise."""
    from rich.console import Console

    stream = file if file is not None else sys.stderr if stderr else sys.stdout
    tty = stream.isatty()
    return Console(
        file=stream,
        highlight=False,
        force_terminal=tty,
        no_color=not tty,
        # not a terminal: tables as wide as their content, unless COLUMNS sets a width
        width=None if tty or os.environ.get("COLUMNS", "").isdigit() else 250,
    )


def _table(columns: Sequence[tuple[str, str]], keep: Sequence[str] = ()) -> Any:
    """A rich table; each column is (header, justify). The columns named in ``keep`` (ids,
    which users type) are never wrapped or cut: the other columns wrap instead."""
    from rich.table import Table

    table = Table()
    for header, justify in columns:
        if header in keep:
            table.add_column(header, justify=justify, no_wrap=True)  # type: ignore[arg-type]
        else:
            table.add_column(header, justify=justify, overflow="fold")  # type: ignore[arg-type]
    return table


def _num(x: float | None, digits: int = 0) -> str:
    return "-" if x is None else f"{x:,.{digits}f}"


def _stderr_tty() -> bool:
    """Whether stderr is a terminal (progress bars are drawn only there)."""
    return sys.stderr.isatty()


def _stdout_tty() -> bool:
    """Whether stdout is a terminal."""
    return sys.stdout.isatty()


class _ProgressBar:
    """A rich progress bar on stderr, started at the first report (after the workers start).

    The elapsed time keeps moving while no chunk finishes, so that a stalled run shows.
    """

    def __init__(self, label: str = "simulating") -> None:
        self._label = label
        self._progress: Any = None
        self._task: Any = None

    def say(self, line: str) -> None:
        """Print one line on stderr, above the bar if it is drawn."""
        if self._progress is not None:
            self._progress.console.print(line, markup=False, highlight=False)
        else:
            click.echo(line, err=True)

    def __call__(self, done: int, total: int) -> None:
        if self._progress is None:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._progress = Progress(
                TextColumn(self._label),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=_console(stderr=True),
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task("games", total=total)
        self._progress.update(self._task, completed=done)

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()


def _parse_players(spec: str) -> list[str]:
    names = [p.strip() for p in spec.split(",")]
    if not spec.strip() or any(not p for p in names):
        raise PlayerError(f"--players must be comma-separated player names, not {spec!r}")
    return names


def _check_plot_target(path: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise click.ClickException(f"cannot write {path}: no such directory {folder}")
    if os.path.isdir(path):
        raise click.ClickException(f"cannot write {path}: it is a directory")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise click.ClickException(
            "--plot needs matplotlib: pip install 'cassino[plot]'"
        ) from None


@contextmanager
def _kept_stdout() -> Iterator[IO[str]]:
    """The real standard output, for the command's result; meanwhile whatever else writes
    to stdout (``sys.stdout``, or file descriptor 1 as a cluster's processes inherit it)
    goes to stderr, so that ``--json`` and ``--csv`` stay clean whatever an engine prints."""
    real = sys.stdout
    real.flush()
    try:
        fd = real.fileno()
        err_fd = sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (click's test runner)
        fd = err_fd = -1
    if fd < 0:
        sys.stdout = sys.stderr
        try:
            yield real
        finally:
            sys.stdout = real
        return
    sys.stderr.flush()
    kept = os.fdopen(os.dup(fd), "w", encoding=real.encoding, errors=real.errors)
    os.dup2(err_fd, fd)
    sys.stdout = sys.stderr
    try:
        yield kept
    finally:
        kept.flush()
        sys.stderr.flush()
        os.dup2(kept.fileno(), fd)
        sys.stdout = real
        kept.close()


def _print_summary(result: SimulationResult, out: IO[str] | None = None) -> None:
    s = result.summary
    r = rules(result.system, **result.options)
    names = display_names(s.players)
    console = _console(file=out)
    opts = " ".join(f"{k}={_value_text(v)}" for k, v in sorted(result.options.items()))
    seating = "duplicate deals, seats rotated" if result.duplicate else "seats rotated game by game"
    if r.teams == "partnership":
        seating += "; partners drawn by card every game"
    console.print(
        f"{result.system}{' ' + opts if opts else ''}: {s.games} games, seed {result.seed}, "
        f"{' vs '.join(names)} ({seating})"
    )
    console.print("Results")
    columns = [
        ("player", "left"),
        ("wins", "right"),
        ("win rate", "right"),
        ("95% CI", "right"),
        ("mean score", "right"),
    ]
    if r.sweeps:
        columns.append(("mean sweeps", "right"))
    results = _table(columns)
    for k, name in enumerate(names):
        lo, hi = s.ci95[k]
        cells = [
            name,
            str(s.wins[k]),
            f"{100 * s.win_rate[k]:.1f}%",
            f"{100 * lo:.1f}-{100 * hi:.1f}%",
            f"{s.mean_score[k]:.2f}",
        ]
        if r.sweeps:
            cells.append(f"{s.mean_sweeps[k]:.2f}")
        results.add_row(*cells)
    console.print(results)
    console.print("Mean points per game")
    points = _table([("category", "left")] + [(n, "right") for n in names])
    for cat in used_categories(r):
        points.add_row(cat, *(f"{p[cat]:.3f}" for p in s.mean_points))
    points.add_row("total", *(f"{sum(p.values()):.3f}" for p in s.mean_points))
    console.print(points)
    console.print(f"game length: {s.mean_hands:.2f} hands, {s.mean_moves:.1f} moves on average")
    lo, hi = s.first_ci95
    by_seat = ", ".join(f"seat {k} {w}" for k, w in enumerate(s.seat_wins))
    console.print(
        f"first mover won {100 * s.first_win_rate:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%); "
        f"wins by seat: {by_seat}"
    )
    if s.draws:
        console.print(f"draws (undecided after {MAX_HANDS} hands): {s.draws}")


@cli.command("simulate")
@click.option("--system", default="cassino_standard", show_default=True, help="System id.")
@click.option("--option", "options", multiple=True, metavar="K=V", help="Rules option (repeatable).")
@click.option(
    "--players",
    "players_spec",
    default=None,
    metavar="A,B",
    help="Players, one per seat: names (random, greedy, expert, ismcts) or module:Class, each with "
    "key=value parameters after a colon (ismcts:ms=50)  [default: one "
    "random player per seat of the system].",
)
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True, help="Number of games.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the whole run.")
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes  [default: the local cores]; 1 runs in this process. With "
    "--engine ray or dask: the size of the cluster started on this machine.",
)
@click.option(
    "--engine",
    type=click.Choice(ENGINES),
    default="local",
    show_default=True,
    help="Run on local processes, a Ray cluster or a Dask cluster (pip install "
    "'cassino[ray]' or 'cassino[dask]'). Same seed, same results on each.",
)
@click.option(
    "--address",
    default=None,
    metavar="ADDR",
    help="With --engine ray: the cluster to join (host:6379, ray://host:10001, auto)  "
    "[default: $RAY_ADDRESS, else a Ray instance started on this machine].",
)
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDR",
    help="With --engine dask: the scheduler to connect to (tcp://host:8786)  "
    "[default: a Dask cluster started on this machine].",
)
@click.option(
    "--chunk-size",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help=f"Games per task  [default: up to {LOCAL_CHUNK} locally, up to {DISTRIBUTED_CHUNK} "
    "on ray or dask].",
)
@click.option(
    "--stall-timeout",
    type=click.FloatRange(min=0),
    default=STALL_TIMEOUT,
    show_default=True,
    metavar="SECONDS",
    help="With --engine ray or dask: fail when the cluster has had no worker this long "
    "(0: wait for ever).",
)
@click.option(
    "--duplicate",
    is_flag=True,
    help="Play each deal once per seat rotation (pairs of games with seats swapped).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object: summary and games.")
@click.option("--csv", "as_csv", is_flag=True, help="Print one CSV row per game.")
@click.option(
    "--plot",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE.png",
    help="Also chart scores and win rates to a PNG (needs cassino[plot]).",
)
def simulate_command(
    system: str,
    options: tuple[str, ...],
    players_spec: str | None,
    games: int,
    seed: int,
    workers: int | None,
    engine: str,
    address: str | None,
    scheduler: str | None,
    chunk_size: int | None,
    stall_timeout: float,
    duplicate: bool,
    as_json: bool,
    as_csv: bool,
    plot: str | None,
) -> None:
    """Play many seeded games between players and summarize them.

    Game i is seeded from (SEED, i) alone, so the output is the same whatever the number
    of workers, the chunk size or the engine. Player k sits in seat (k + i) mod n in game
    i; with --duplicate each deal is played once per rotation. Clusters: docs/scaling.md.

    Standard output carries only the result. Workers of a cluster that leave or join, tasks
    run again and a cluster without workers are reported on standard error, one line each.
    """
    if as_json and as_csv:
        raise click.UsageError("--json and --csv cannot be combined")
    if address is not None and engine != "ray":
        raise click.UsageError("--address is for --engine ray (the address of a Ray cluster)")
    if scheduler is not None and engine != "dask":
        raise click.UsageError(
            "--scheduler is for --engine dask (the address of a Dask scheduler)"
        )
    if workers is not None and (address or scheduler):
        flag = "--address" if address else "--scheduler"
        raise click.UsageError(
            f"--workers sizes a cluster started on this machine; the cluster at {flag} has "
            "its own workers"
        )
    opts = dict(parse_option(o) for o in options)
    if players_spec is None:
        players_spec = ",".join(["random"] * rules(system, **opts).players)
    players = _parse_players(players_spec)
    if plot is not None:
        _check_plot_target(plot)
    # the bar goes to stderr; not when the streamed rows would share its terminal
    machine = as_json or as_csv
    bar = _ProgressBar() if _stderr_tty() and not (machine and _stdout_tty()) else None
    say = bar.say if bar is not None else (lambda line: click.echo(line, err=True))
    with _kept_stdout() as out:
        # --json and --csv stream each game as it comes, in game order; the summary table
        # keeps only the online totals: memory does not grow with --games
        on_game: Callable[[GameRecord], None] | None = None
        if as_csv:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(csv_header(len(players)))

            def csv_game(g: GameRecord) -> None:
                writer.writerow(csv_row(g, players))

            on_game = csv_game
        elif as_json:
            out.write('{"games": [')
            sep = ""

            def json_game(g: GameRecord) -> None:
                nonlocal sep
                out.write(sep + json.dumps(g.to_dict()))
                sep = ", "

            on_game = json_game
        try:
            result = run_simulation(
                system,
                players,
                games=games,
                seed=seed,
                workers=workers,
                options=opts,
                duplicate=duplicate,
                progress=bar,
                chunk_size=chunk_size,
                engine=engine,
                address=address,
                scheduler=scheduler,
                keep_games=False,
                on_game=on_game,
                stall_timeout=stall_timeout or None,
                on_event=say,
            )
        finally:
            if bar is not None:
                bar.close()
        # the results before the plot: a plot that fails must not lose them
        if as_json:
            out.write(
                '], "summary": '
                + json.dumps({**result.head(), **result.summary.to_dict()})
                + "}\n"
            )
        elif not as_csv:
            _print_summary(result, out)
    if plot is not None:
        plot_result(result, plot)


@cli.command("tournament")
@click.option("--system", default="cassino_standard", show_default=True, help="System id.")
@click.option("--option", "options", multiple=True, metavar="K=V", help="Rules option (repeatable).")
@click.option(
    "--players",
    "players_spec",
    required=True,
    metavar="A,B,...",
    help="Two players or more: names (random, greedy, expert, ismcts), module:Class, each with key=value "
    "parameters after a colon (mybots:Bot:depth=3).",
)
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True,
              help="Games per pair.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the whole run.")
@click.option("--duplicate/--no-duplicate", default=True, show_default=True,
              help="Replay every deal once per seat rotation.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes  [default: the local cores].")
@click.option("--engine", type=click.Choice(ENGINES), default="local", show_default=True,
              help="Local processes, a Ray cluster or a Dask cluster: the same results.")
@click.option("--bootstrap", type=click.IntRange(min=0), default=1000, show_default=True,
              help="Resamplings for the ratings' intervals.")
@click.option("--timing-moves", type=click.IntRange(min=0), default=60, show_default=True,
              help="Decisions that time each player (0: none).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--csv", "as_csv", is_flag=True, help="Print one CSV row per pair.")
@click.option("--plot", type=click.Path(dir_okay=False), default=None, metavar="FILE.png",
              help="Also draw the ratings and the win matrix to a PNG (needs cassino[plot]).")
def tournament_command(
    system: str, options: tuple[str, ...], players_spec: str, games: int, seed: int,
    duplicate: bool, workers: int | None, engine: str, bootstrap: int, timing_moves: int,
    as_json: bool, as_csv: bool, plot: str | None,
) -> None:
    """A round robin of players on the same seeded deals: wins with Wilson intervals and
    point margins per pair, Bradley-Terry ratings with bootstrap intervals, ms per move."""
    from .tournament import CSV_HEADER, plot_tournament, tournament

    if as_json and as_csv:
        raise click.UsageError("--json and --csv cannot be combined")
    if plot is not None:
        _check_plot_target(plot)
    players = _parse_players(players_spec)
    opts = dict(parse_option(o) for o in options)
    bar = _ProgressBar("tournament") if _stderr_tty() else None
    with _kept_stdout() as out:
        try:
            result = tournament(
                players, system, games=games, seed=seed, duplicate=duplicate,
                workers=workers, options=opts, engine=engine, progress=bar,
                bootstrap=bootstrap, timing_moves=timing_moves,
            )
        finally:
            if bar is not None:
                bar.close()
        if as_json:
            out.write(json.dumps(result.to_dict()) + "\n")
        elif as_csv:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(CSV_HEADER)
            writer.writerows(result.csv_rows())
        else:
            console = _console(file=out)
            console.print(
                f"{result.system}: {games} games a pair, seed {seed}"
                f"{', duplicate deals' if duplicate else ''}"
            )
            pairs = _table([("pair", "left"), ("games", "right"), ("wins-losses-draws", "right"),
                            ("win rate (95% CI)", "right"), ("margin (95% CI)", "right")])
            for p in result.pairs:
                (lo, hi), _ = p.ci95
                mean, (mlo, mhi) = p.margin
                pairs.add_row(
                    f"{p.players[0]} vs {p.players[1]}", str(p.games),
                    f"{p.wins[0]}-{p.wins[1]}-{p.draws}",
                    f"{100 * p.win_rate[0]:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)",
                    f"{mean:+.2f} ({mlo:+.2f} to {mhi:+.2f})",
                )
            console.print(pairs)
            ratings = _table([("player", "left"), ("rating", "right"), ("95% CI", "right"),
                              ("ms/move", "right")])
            for name, (rating, (rlo, rhi)) in sorted(result.ratings.items(),
                                                       key=lambda kv: -kv[1][0]):
                ratings.add_row(name, f"{rating:+.0f}", f"{rlo:+.0f} to {rhi:+.0f}",
                                f"{result.ms_per_move[name]:.3f}")
            console.print(ratings)
    if plot is not None:
        plot_tournament(result, plot)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--quick", is_flag=True, help="A shorter, rougher run.")
@click.option(
    "--workers",
    "with_workers",
    is_flag=True,
    help="Also time simulate with one and two worker processes and greedy against random "
    "(2000 games each, about a minute; 40 with --quick).",
)
@click.option(
    "--engines",
    "with_engines",
    is_flag=True,
    help="Also time the two-worker run on the Ray and Dask engines that are installed, "
    "start-up included (implies --workers).",
)
def bench(as_json: bool, quick: bool, with_workers: bool, with_engines: bool) -> None:
    """Measure the performance targets on one core, the reference beside the core.

    Legal-move generation over positions of seeded random hands, random full hands per
    second, the Python-level move loop, perft beside python-chess (when installed), the
    exact count of a hard position and the size of a state. Keys: docs/benchmarks.md.
    """
    from .bench import run_bench

    with _kept_stdout():  # whatever an engine prints goes to stderr
        f = run_bench(quick=quick, workers=with_workers, engines=with_engines)
    if as_json:
        click.echo(json.dumps(f))
        return
    console = _console()
    core = "core" if f["core_built"] else "core (not built)"
    console.print("cassino bench (one core; figures vary from run to run)")
    table = _table(
        [("figure", "left"), (core, "right"), ("reference", "right"), ("ratio", "right")],
    )

    def ratio(x: float | None) -> str:
        return "-" if x is None else f"{x:,.0f}x"

    table.add_row(
        f"legal-move generation, ns/position ({f['positions']} / {f['reference_positions']} positions)",
        _num(f["movegen_ns_per_position"]),
        _num(f["reference_movegen_ns_per_position"]),
        ratio(f["movegen_ratio"]),
    )
    table.add_row(
        "random full hands per second",
        _num(f["hands_per_second"]),
        _num(f["reference_hands_per_second"], 1),
        ratio(f["hands_ratio"]),
    )
    table.add_row(
        f"perft nodes per second (depth {f['perft_depth']} / {f['reference_perft_depth']})",
        _num(f["perft_nodes_per_second"]),
        _num(f["reference_perft_nodes_per_second"]),
        ratio(f["perft_ratio"]),
    )
    table.add_row("Python loop, moves/s: num_moves + push_index", _num(f["api_moves_per_second"]), "", "")
    table.add_row(
        "Python loop, moves/s: push(move_at(i))", _num(f["api_object_moves_per_second"]), "", ""
    )
    chess = f["chess_perft_nodes_per_second"]
    table.add_row(
        f"python-chess perft nodes/s, depth {f['chess_perft_depth']} (ratio: core perft / it)",
        "not installed" if chess is None else _num(chess),
        "",
        ratio(f["perft_vs_chess"]),
    )
    table.add_row(
        f"exact count of the hard position ({f['hard_moves']:,} moves), ms",
        _num(f["hard_count_ms"], 2),
        "",
        "",
    )
    table.add_row("bytes of a dealt state", _num(f["state_bytes"]), "", "")
    for sid, row in (f.get("systems") or {}).items():
        table.add_row(
            f"{sid}: random hands/s (ratio to standard; per move); move generation, "
            "ns/position",
            f"{_num(row['hands_per_second'])} ({row['ratio_to_standard']:.2f}; "
            f"{row['move_ratio_to_standard']:.2f}); {_num(row['movegen_ns'])}",
            "",
            "",
        )
    for label, row in (f.get("option_sets") or {}).items():
        table.add_row(
            f"{label}: random hands/s (ratio to standard; per move)",
            f"{_num(row['hands_per_second'])} ({row['ratio_to_standard']:.2f}; "
            f"{row['move_ratio_to_standard']:.2f})",
            "",
            "",
        )
    for sid, row in (f.get("reference_systems") or {}).items():
        table.add_row(
            f"{sid}, reference: random hands/s (reference standard; ratio)",
            f"{_num(row['reference_hands_per_second'], 2)} "
            f"({_num(row['reference_standard_hands_per_second'])}; "
            f"{row['ratio_to_reference_standard']:.3f})",
            "",
            "",
        )
        if "core_hands_per_second" in row:
            table.add_row(
                f"{sid}, core: random hands/s (core standard; ratio)",
                f"{_num(row['core_hands_per_second'])} "
                f"({_num(row['core_standard_hands_per_second'])}; "
                f"{row['core_ratio_to_standard']:.4f})",
                "",
                "",
            )
    if "simulate_speedup" in f:
        table.add_row(
            f"simulate {f['simulate_games']} games: 1 worker / 2 workers, s",
            f"{f['simulate_seconds_1_worker']:.2f} / {f['simulate_seconds_2_workers']:.2f}",
            "",
            f"{f['simulate_speedup']:.2f}x",
        )
        table.add_row(
            f"simulate {f['simulate_games']} games greedy vs random, "
            f"{f['simulate_greedy_workers']} workers, s",
            f"{f['simulate_greedy_seconds']:.2f}", "", "",
        )
    if "players_core_ratio" in f:
        table.add_row(
            "greedy vs random games/s, one process: core players / Python players",
            f"{_num(f['players_games_per_second_core'])} / "
            f"{_num(f['players_games_per_second_python'])}",
            "",
            f"{f['players_core_ratio']:.0f}x",
        )
    for engine in ("ray", "dask"):
        if f"simulate_seconds_{engine}" in f:
            secs = f[f"simulate_seconds_{engine}"]
            table.add_row(
                f"simulate {f['simulate_games']} games, 2 workers on {engine} (with start-up), s",
                "not installed" if secs is None else f"{secs:.2f}", "", "",
            )
    console.print(table)


def _value_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


# Allowed values of the integer options (the string options list theirs in CHOICES).
_INT_RANGES = {
    "target": "integer >= 1",
    "sweep_points": "integer >= 1",
    "build_max_value": "1-10",
    "hand_size": "even, 2-26 (any with deck=short40)",
    "last_hand_size": "0 (= hand_size) or 1-26",
    "table_cards": "even, 0-12",
    "seven_diamonds_points": "integer >= 0 (cassino_diamond)",
    "most_spades_points": "0-100",
    "sistan_points": "0-100 (swedish_kassino: 1)",
    "most_clubs_points": "0-100 (kontsina: 2)",
    "good_two_points": "0-100 (kontsina: 2)",
    "good_ten_points": "0-100 (kontsina: 1)",
    "match_hands": "even, >= 2 (kontsina)",
    "mokki_cutoff": "0-1000, 0 = never (finnish_kasino: 10)",
    "mulle_points": "0-100 (mulle: 1)",
}


# Systems whose player counts are not a range (docs/rules.md §3.7, §3.12).
_PLAYER_COUNTS = {"cassino_california": "2 | 3 | 4 | 6", "cassino_portuguese": "2 | 4 (2x2)"}


def _allowed(r: Rules, name: str) -> str:
    if name == "players":
        if r.system in _PLAYER_COUNTS:
            return _PLAYER_COUNTS[r.system]
        lo, hi = r.player_range
        return str(lo) if lo == hi else f"{lo}-{hi}"
    if name in CHOICES:
        return " | ".join(CHOICES[name])
    if name in PLANNED_FLAGS:
        return "false (true is planned)"
    value = getattr(r, name)
    if isinstance(value, bool):
        return "true | false"
    if name == "build_max_value" and r.card_values == "royal":
        return "1-14"   # (an ace played as 14 takes a build of 14)
    return _INT_RANGES.get(name, "integer")


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def variants(as_json: bool) -> None:
    """List every game system and option module, marking those implemented."""
    systems = [
        {
            "id": s.id,
            "name": s.name,
            "players": s.players,
            "implemented": s.status == "done",
            "status": s.status,
            "section": s.section,
            "summary": s.summary,
        }
        for s in SYSTEMS.values()
    ]
    modules = [
        {"id": mid, "option": opt or None, "implemented": done}
        for mid, (opt, done) in OPTION_MODULES.items()
    ]
    if as_json:
        click.echo(json.dumps({"systems": systems, "option_modules": modules}))
        return
    console = _console()
    console.print("Game systems (details: cassino rules ID)")
    # ids are what users type: never cut; a narrow terminal drops the summaries instead
    wide = console.width >= 120
    cols = [("id", "left"), ("name", "left"), ("players", "left"), ("status", "left")]
    table = _table([*cols, ("summary", "left")] if wide else cols, keep=("id", "status"))
    for s in systems:
        row = [s["id"], s["name"], s["players"], s["status"]]
        table.add_row(*row, *([s["summary"]] if wide else []))
    console.print(table)
    console.print("Option modules")
    opts = _table([("id", "left"), ("rules option", "left"), ("status", "left")], keep=("id",))
    for m in modules:
        opts.add_row(m["id"], m["option"] or "-", "done" if m["implemented"] else "planned")
    console.print(opts)


@cli.command("rules")
@click.argument("system", metavar="SYSTEM")
@click.option("--option", "options", multiple=True, metavar="K=V", help="Rules option (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def rules_command(system: str, options: tuple[str, ...], as_json: bool) -> None:
    """Print the rules of SYSTEM: summary, status and every rules option with its value."""
    info = SYSTEMS.get(system)
    if info is None:
        raise UnknownSystemError(f"unknown system {system!r} (cassino variants lists them)")
    opts = dict(parse_option(o) for o in options)
    r = rules(system, **opts) if info.status != "planned" else None
    data: dict[str, Any] = {
        "id": info.id,
        "name": info.name,
        "section": info.section,
        "players": info.players,
        "implemented": info.status == "done",
        "status": info.status,
        "summary": info.summary,
        "rules": system_rules_text(info.id),
        "options": None,
    }
    if r is not None:
        data["options"] = {
            name: {"value": getattr(r, name), "allowed": _allowed(r, name)} for name in OPTION_NAMES
        }
    elif opts:
        raise RulesError(f"system {system!r} is not implemented yet: it takes no options")
    if as_json:
        click.echo(json.dumps(data))
        return
    console = _console()
    console.print(f"{info.name} ({info.id}), docs/rules.md §{info.section}")
    console.print(f"players: {info.players}")
    console.print("status: " + {
        "done": "implemented" + (
            " (compound turns: cassino._core.CompoundState, the reference's fields and API "
            "over the core's turns, push, pop and game flow)" if info.compound else ""),
        "planned": "planned, not implemented yet",
    }[info.status])
    console.print(info.summary)
    console.print()
    # the rules reference's own text, as it is in docs/rules.md
    click.echo(data["rules"])
    if r is None:
        return
    changed = r.options()
    console.print("Rules options (* differs from the preset)")
    table = _table(
        [("option", "left"), ("value", "left"), ("allowed", "left")],
    )
    for name in OPTION_NAMES:
        mark = "*" if name in changed else ""
        table.add_row(name + mark, _value_text(getattr(r, name)), _allowed(r, name))
    console.print(table)


# -- python -m cassino -------------------------------------------------------------------
def _table_text(pos: Position) -> str:
    items = CardSet(pos.loose).codes()
    for b in pos.builds:
        groups = "|".join(
            "+".join(b.card_text(c, pos.rules) for c in CardSet(g)) for g in b.groups_for(pos.rules)
        )
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
    deal_no = 0
    ply = 0
    while True:
        pos = hand.to_position()
        deal = r.deal_number(len(pos.stock))
        if deal != deal_no:
            deal_no = deal
            last = " (last)" if deal == r.deals_per_hand and not r.draw_refill else ""
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
    if m.kind in (MoveKind.CAPTURE, MoveKind.STEAL):
        before |= set(CardSet(m.takes | 1 << m.card))
    elif m.kind == MoveKind.PLUCK:
        before |= set(CardSet(m.takes))
    leftovers = CardSet(c for p in end.piles for c in p if c not in before)
    click.echo(f"{ply:3d}. seat {seat}  {m}")
    if leftovers and end.last_capturer is not None:
        click.echo(f"leftovers to seat {end.last_capturer}: {leftovers}")
    hs = game.hand_scores[0]
    teams = range(r.num_teams)
    click.echo("")
    click.echo("category        " + "".join(f"  seat {t}" for t in teams))
    for cat in used_categories(r):
        pts = [hs.categories(t)[cat] for t in teams]
        click.echo(f"{cat:<16}" + "".join(f"{p:8d}" for p in pts))
    click.echo("total           " + "".join(f"{p:8d}" for p in hs.totals()))
    click.echo("game score      " + "".join(f"{p:8d}" for p in game.scores))


from .play import play as _play  # noqa: E402  (the play command lives in its own module)

cli.add_command(_play)


def main() -> None:
    """Console entry point of ``cassino``."""
    cli.main(prog_name="cassino")


if __name__ == "__main__":
    main()
