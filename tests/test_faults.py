"""Runs under faults, without a real cluster: the stall timeout, retries of tasks lost with
their worker and the one-line reports of :func:`cassino.simulate.simulate` (through its
``_run_on`` loop and a scripted cluster), and a standard output that carries only the
result whatever the players print. The same faults on real local Ray and Dask clusters:
tests/test_distributed.py.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest

from cassino.simulate import (
    RETRIES,
    SimulationError,
    _run_on,
    _tasks,
    _Watcher,
    run_chunk,
    simulate,
)

sim = importlib.import_module("cassino.simulate")  # the module (cassino.simulate is the function)
HERE = os.path.dirname(os.path.abspath(__file__))
BASE = {"system": "cassino_standard", "options": {}, "players": ["random", "random"],
        "seed": 5, "duplicate": False}


class Lost(Exception):
    """A task's worker died."""


class FakeCluster:
    """A cluster whose workers are scripted: ``answers`` are returned in turn (the last one
    for ever); an answer that is an exception is raised, ``"hang"`` blocks."""

    engine = "dask"
    where = "the Dask scheduler at tcp://test:1"

    def __init__(self, *answers: Any) -> None:
        self.answers = list(answers)
        self.release = threading.Event()

    def workers(self) -> dict[str, int]:
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if callable(answer):
            answer = answer()
        if answer == "hang":
            self.release.wait(30)
            return {}
        if isinstance(answer, BaseException):
            raise answer
        return dict(answer)

    def lost(self, exc: BaseException) -> bool:
        return isinstance(exc, Lost)


class GatedExecutor(ThreadPoolExecutor):
    """Runs ``run_chunk`` on threads; tasks starting at a game in ``blocked`` never finish,
    and each task starting at a game in ``fail`` raises ``Lost`` that many times first."""

    def __init__(self, blocked: set[int] = frozenset(), fail: Mapping[int, int] | None = None) -> None:  # type: ignore[assignment]
        super().__init__(max_workers=4)
        self.blocked = blocked
        self.fail = dict(fail or {})
        self.gate = threading.Event()
        self.finish_blocked = False  # a released task runs (True) or fails (False)
        self.submitted: list[int] = []
        self.finished: list[int] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:  # type: ignore[override]
        task = args[0]
        self.submitted.append(task["start"])

        def work() -> Any:
            if task["start"] in self.blocked:
                self.gate.wait(30)
                if not self.finish_blocked:
                    raise RuntimeError("released")
            if self.fail.get(task["start"], 0) > 0:
                self.fail[task["start"]] -= 1
                raise Lost("worker died")
            result = fn(*args, **kwargs)
            self.finished.append(task["start"])
            return result

        return super().submit(work)


@pytest.fixture
def fast_polls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim, "POLL_SECONDS", 0.02)


def drive(executor: Any, cluster: FakeCluster, games: int, size: int, stall: float | None,
          events: list[str], known: dict[str, int] | None = None) -> list[list[dict[str, Any]]]:
    watcher = _Watcher(cluster, stall, events.append, -(-games // size), known)
    try:
        return list(_run_on(executor, _tasks(BASE, games, size), games, None, 1, watcher))
    finally:
        executor.gate.set()
        cluster.release.set()
        executor.shutdown(wait=True)


def expected(games: int) -> list[dict[str, Any]]:
    return run_chunk({**BASE, "start": 0, "stop": games})


def test_a_cluster_without_workers_fails_after_the_stall_timeout(fast_polls: None) -> None:
    events: list[str] = []
    executor = GatedExecutor(blocked={2, 3})
    # the worker leaves once games 0 and 1 are done (however slow the implementation)
    cluster = FakeCluster(lambda: {"tcp://w1": 1} if len(executor.finished) < 2 else {})
    started = time.monotonic()
    with pytest.raises(SimulationError) as info:
        drive(executor, cluster, games=4, size=1, stall=0.3, events=events,
              known={"tcp://w1": 1})  # as simulate() asks the cluster when it starts
    assert time.monotonic() - started >= 0.3
    assert str(info.value) == (
        "no worker on the Dask scheduler at tcp://test:1 for 0.3 s: "
        "2 of 4 chunks done (2 of 4 games)"
    )
    assert events == [
        "dask: worker tcp://w1 left, 0 workers remaining",
        "dask: no worker on the Dask scheduler at tcp://test:1; the run fails in 0.3 s "
        "unless one joins",
    ]


def test_without_a_stall_timeout_a_worker_that_comes_back_finishes_the_run(fast_polls: None) -> None:
    events: list[str] = []
    cluster = FakeCluster({"a": 1}, {}, {}, {}, {}, {}, {"b": 2})
    executor = GatedExecutor(blocked={1})
    executor.finish_blocked = True  # game 1 finishes after the workers came back
    timer = threading.Timer(0.5, executor.gate.set)
    timer.start()
    chunks = drive(executor, cluster, games=3, size=1, stall=None, events=events)
    assert [g for c in chunks for g in c] == expected(3)
    assert events[:2] == [
        "dask: worker a left, 0 workers remaining",
        "dask: no worker on the Dask scheduler at tcp://test:1",
    ]
    assert "dask: worker b joined, 1 worker now" in events


def test_a_worker_that_joins_in_time_resets_the_stall_clock(fast_polls: None) -> None:
    events: list[str] = []
    cluster = FakeCluster(*([{}] * 8), *([{"w2": 1}] * 100))
    executor = GatedExecutor(blocked={0})
    timer = threading.Timer(1.0, executor.gate.set)
    timer.start()
    with pytest.raises(RuntimeError, match="released"):  # the blocked task's own failure
        drive(executor, cluster, games=2, size=1, stall=0.5, events=events)
    timer.cancel()
    assert events[0].startswith("dask: no worker on")
    assert "dask: worker w2 joined, 1 worker now" in events
    assert any(e.startswith("dask: a worker is back after") for e in events)


@pytest.mark.parametrize("answer", [OSError("connection refused"), "hang"])
def test_an_unreachable_cluster_counts_as_one_without_workers(fast_polls: None, answer: Any) -> None:
    events: list[str] = []
    cluster = FakeCluster(answer)
    with pytest.raises(SimulationError, match=r"no worker on the Dask scheduler at tcp://test:1 for 0\.5 s: 0 of 2 chunks done \(0 of 2 games\)"):
        drive(GatedExecutor(blocked={0, 1}), cluster, games=2, size=1, stall=0.5, events=events)
    assert events == [
        "dask: no answer from the Dask scheduler at tcp://test:1; the run fails in 0.5 s "
        "unless one joins"
    ]


def test_tasks_lost_with_their_worker_run_again_and_say_so(fast_polls: None) -> None:
    events: list[str] = []
    executor = GatedExecutor(fail={2: 2, 4: 1})
    chunks = drive(executor, FakeCluster({"a": 1}), games=6, size=2, stall=5, events=events)
    assert [g for c in chunks for g in c] == expected(6)
    assert sorted(executor.submitted) == [0, 2, 2, 2, 4, 4]
    assert sorted(events) == [
        "dask: games 2-3 lost their worker (Lost); retry 1 of 3",
        "dask: games 2-3 lost their worker (Lost); retry 2 of 3",
        "dask: games 4-5 lost their worker (Lost); retry 1 of 3",
    ]


def test_a_task_lost_too_often_ends_the_run(fast_polls: None) -> None:
    events: list[str] = []
    with pytest.raises(SimulationError, match=(
        rf"game 1 lost its worker {RETRIES + 1} times on the Dask scheduler at "
        r"tcp://test:1 \(Lost\); no retry left"
    )):
        drive(GatedExecutor(fail={1: 99}), FakeCluster({"a": 1}), games=2, size=1, stall=5,
              events=events)
    assert len(events) == RETRIES


def test_other_failures_are_not_retried(fast_polls: None) -> None:
    bad = {**BASE, "system": "nope"}
    executor = GatedExecutor()
    watcher = _Watcher(FakeCluster({"a": 1}), 5, None, 1)
    tasks: Iterator[dict[str, Any]] = iter([{**bad, "start": 0, "stop": 1}])
    with pytest.raises(Exception, match="unknown system 'nope'"):
        list(_run_on(executor, tasks, 1, None, 1, watcher))
    executor.shutdown()
    assert executor.submitted == [0]


@pytest.mark.parametrize("value", [0, -1, float("nan"), float("inf"), "5", True])
def test_bad_stall_timeouts(value: Any) -> None:
    with pytest.raises(SimulationError, match="stall_timeout must be a positive number"):
        simulate(games=1, workers=1, stall_timeout=value)


def test_cli_stdout_carries_only_the_result_whatever_players_print() -> None:
    """Players that print (through sys.stdout and file descriptor 1) in worker processes and
    in this one: --json, --csv and the table stay clean; the noise goes to stderr."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [HERE, os.environ.get("PYTHONPATH")]))}
    args = ["simulate", "--games", "4", "--seed", "3", "--players", "faulty_players:Noisy,random"]
    outputs = {}
    for workers in ("1", "2"):
        for extra in (["--json"], ["--csv"], []):
            out = subprocess.run(
                [sys.executable, "-m", "cassino.cli", *args, "--workers", workers, *extra],
                capture_output=True, text=True, timeout=300, env=env,
            )
            assert out.returncode == 0, out.stderr
            assert "noise" not in out.stdout
            assert "noise from a player" in out.stderr and "noise on file descriptor 1" in out.stderr
            outputs[workers, tuple(extra)] = out.stdout
    assert json.loads(outputs["1", ("--json",)]) == json.loads(outputs["2", ("--json",)])
    assert json.loads(outputs["1", ("--json",)])["summary"]["games"] == 4
    assert outputs["1", ("--csv",)] == outputs["2", ("--csv",)]
    assert outputs["1", ()] == outputs["2", ()] and "Results" in outputs["1", ()]


class FakeTask:
    """A Dask future whose end is scripted: ``status`` and what ``result()`` does."""

    def __init__(self, status: str, result: Any = None, exc: BaseException | None = None) -> None:
        self.status, self._result, self._exc, self.key = status, result, exc, "run_chunk-1"
        self.callbacks: list[Callable[[Any], None]] = []
        self.cancelled_here = False

    def add_done_callback(self, fn: Callable[[Any], None]) -> None:
        self.callbacks.append(fn)

    def finish(self) -> None:
        for fn in self.callbacks:
            fn(self)

    def result(self) -> Any:
        if isinstance(self._result, BaseException):
            raise self._result
        return self._result

    def exception(self) -> BaseException | None:
        return self._exc

    def cancel(self) -> None:
        self.cancelled_here = True


class FakeClient:
    def __init__(self, task: FakeTask) -> None:
        self.task = task

    def submit(self, fn: Any, *args: Any, pure: bool = True) -> FakeTask:
        assert pure is False
        return self.task


@pytest.mark.parametrize(
    ("task", "outcome"),
    [
        (FakeTask("finished", [1, 2]), [1, 2]),
        # gathered after its worker left (Client.get_executor() raised ValueError here)
        (FakeTask("finished", KeyError("run_chunk-1")), "TaskLost: KeyError"),
        (FakeTask("cancelled"), "TaskLost: task run_chunk-1 was cancelled"),
        (FakeTask("error", exc=ZeroDivisionError("in the task")), "ZeroDivisionError: in the task"),
    ],
)
def test_dask_executor_outcomes(task: FakeTask, outcome: Any) -> None:
    from cassino.distributed import DaskExecutor, TaskLost

    future = DaskExecutor(FakeClient(task)).submit(run_chunk, {})
    assert not future.done()
    task.finish()
    if isinstance(outcome, list):
        assert future.result() == outcome
        return
    exc = future.exception()
    assert exc is not None and f"{type(exc).__name__}: {exc}".startswith(outcome)
    assert isinstance(exc, TaskLost) == outcome.startswith("TaskLost")


def test_dask_executor_cancels_the_task_of_a_cancelled_future() -> None:
    from cassino.distributed import DaskExecutor

    task = FakeTask("finished", [1])
    executor = DaskExecutor(FakeClient(task))
    future = executor.submit(run_chunk, {})
    assert future.cancel() and task.cancelled_here
    task.finish()  # the task's end is ignored
    assert future.cancelled()
    executor.shutdown(wait=False)
    with pytest.raises(RuntimeError, match="after shutdown"):
        executor.submit(run_chunk, {})
