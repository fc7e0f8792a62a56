"""Players that misbehave on purpose, for the fault tests of tests/test_distributed.py and
tests/test_simulate.py (loaded as ``faulty_players:Killer`` with this folder on PYTHONPATH).

``Killer`` plays as ``random`` does with the same seed, so a run that recovers from the kill
gives exactly the records of a run without it. At its ``CASSINO_KILL_AFTER``-th move (default
40) in a process, it kills that process with SIGKILL, and with ``CASSINO_KILL=parent`` the
parent first (a Dask worker's nanny, a Ray worker's raylet): once per run, as it first creates
the file ``CASSINO_KILL_MARKER`` (no kill without that variable).

``Noisy`` plays as ``random`` and writes to standard output at every move, through
``print`` and through file descriptor 1.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Sequence
from typing import Any

from cassino.players import RandomPlayer

_moves = [0]


class Killer(RandomPlayer):
    def choose(self, view: Any, moves: Sequence[Any]) -> Any:
        _moves[0] += 1
        marker = os.environ.get("CASSINO_KILL_MARKER")
        if marker and _moves[0] >= int(os.environ.get("CASSINO_KILL_AFTER", "40")):
            try:
                fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                pass
            else:
                os.write(fd, f"{os.getpid()} {os.getppid()}\n".encode())
                os.close(fd)
                if os.environ.get("CASSINO_KILL") == "parent":
                    os.kill(os.getppid(), signal.SIGKILL)
                os.kill(os.getpid(), signal.SIGKILL)
        return super().choose(view, moves)


class Noisy(RandomPlayer):
    def choose(self, view: Any, moves: Sequence[Any]) -> Any:
        print("noise from a player")
        os.write(1, b"noise on file descriptor 1\n")
        return super().choose(view, moves)
