"""The engines of :func:`cassino.simulate.simulate`: where the chunks of games run.

``local`` is a process pool on this machine (:mod:`cassino.simulate` runs it itself);
``ray`` runs the chunks as Ray tasks (``pip install 'cassino[ray]'``) and ``dask`` on a Dask
cluster (``pip install 'cassino[dask]'``). :func:`connect` connects to the cluster, or
starts one on this machine, and yields a :class:`Cluster`: a
:class:`concurrent.futures.Executor`, the number of task slots (CPUs), and what a run asks
while it waits (the live workers; whether a failure lost its worker). On leaving, whatever
it started is shut down. :func:`open_engine` yields only ``(executor, slots)``.

This module imports nothing of :mod:`cassino.simulate`, which runs its engines.

The chunks are the same :func:`~cassino.simulate.run_chunk` tasks whatever the engine, and
game ``i`` is seeded from ``(seed, i)`` alone, so a cluster gives the records of a local run.
Every node of a cluster needs ``cassino`` installed (the same version), as the tasks name
:func:`~cassino.simulate.run_chunk` by reference.
"""

from __future__ import annotations

import importlib
import logging
import os
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError, Executor, Future
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from .errors import SimulationError

__all__ = [
    "DISTRIBUTED_CHUNK",
    "ENGINES",
    "Cluster",
    "DaskExecutor",
    "RayExecutor",
    "TaskLost",
    "connect",
    "distributed_chunk_size",
    "open_engine",
]

ENGINES = ("local", "ray", "dask")
"""Where :func:`cassino.simulate.simulate` runs the games: a local process pool (which
:mod:`cassino.simulate` runs itself), a Ray or a Dask cluster."""

DISTRIBUTED_CHUNK = 1000
"""The most games of one Ray or Dask task by default: some 2,800 hands of two random
players, about ten seconds of work, so that scheduling and transfer costs stay negligible."""

_EXTRAS = {"ray": ("ray", "Ray"), "dask": ("distributed", "Dask distributed")}

_P = ParamSpec("_P")
_T = TypeVar("_T")


def distributed_chunk_size(games: int, slots: int) -> int:
    """Games per task on a cluster of ``slots`` CPUs: about four tasks per CPU (so that
    faster nodes take more of them), at most :data:`DISTRIBUTED_CHUNK` games each.

    >>> distributed_chunk_size(2000, 2), distributed_chunk_size(10**6, 64), distributed_chunk_size(3, 8)
    (250, 1000, 1)
    """
    return max(1, min(DISTRIBUTED_CHUNK, -(-games // (max(1, slots) * 4))))


def import_engine(engine: str) -> Any:
    """The module an engine needs (``ray``, or ``distributed`` for dask), or a
    :class:`~cassino.simulate.SimulationError` saying which extra to install."""
    name, label = _EXTRAS[engine]
    try:
        module = importlib.import_module(name)
    except ImportError as exc:
        reason = str(exc)
    else:
        if getattr(module, "__file__", None) is not None:
            return module
        # a namespace package: a directory named like the package (such as Ray's
        # /tmp/ray) found on sys.path, not the package itself
        where = ", ".join(getattr(module, "__path__", []))
        reason = f"{name!r} is only a directory: {where}"
    raise SimulationError(
        f"the {engine} engine needs {label}: pip install 'cassino[{engine}]' ({reason})"
    )


def _cause(exc: BaseException) -> BaseException:
    """The exception a Ray task raised, without Ray's wrapper (whose text is a traceback)."""
    cause = getattr(exc, "cause", None)
    if type(exc).__module__.startswith("ray.") or "RayTaskError" in type(exc).__name__:
        if isinstance(cause, BaseException):
            return cause
    return exc


class RayExecutor(Executor):
    """A :class:`concurrent.futures.Executor` running each call as a Ray task (one CPU) on
    the cluster this process is connected to (``ray.init`` must have been called).

    A failed task raises the task's own exception, not Ray's wrapper. Ray runs a task
    again ``max_retries`` times when its worker dies (Ray's own default, 3); :func:`connect`
    sets 0, as :func:`~cassino.simulate.simulate` retries and reports those itself.
    ``shutdown`` does not disconnect from Ray; ``shutdown(cancel_futures=True)`` cancels
    the tasks still running.
    """

    def __init__(self, max_retries: int = 3) -> None:
        self._ray = import_engine("ray")
        self._max_retries = max_retries
        self._remote: dict[Callable[..., Any], Any] = {}
        self._running: dict[int, Any] = {}
        self._lock = threading.Lock()
        self._shutdown = False

    def submit(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> Future[_T]:
        with self._lock:
            if self._shutdown:
                raise RuntimeError("cannot schedule new futures after shutdown")
            remote = self._remote.get(fn)
            if remote is None:
                remote = self._remote[fn] = self._ray.remote(max_retries=self._max_retries)(fn)
            ref = remote.remote(*args, **kwargs)
            self._running[id(ref)] = ref
        outer: Future[_T] = Future()
        outer.set_running_or_notify_cancel()
        inner = ref.future()

        def done(f: Future[Any]) -> None:
            with self._lock:
                self._running.pop(id(ref), None)
            if f.cancelled():  # outer is running: it can only fail
                outer.set_exception(CancelledError())
                return
            exc = f.exception()
            if exc is not None:
                outer.set_exception(_cause(exc))
            else:
                outer.set_result(f.result())

        inner.add_done_callback(done)
        return outer

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._shutdown = True
            refs = list(self._running.values())
        if cancel_futures:
            for ref in refs:
                try:
                    self._ray.cancel(ref)
                except Exception:  # already finished, or the cluster is gone
                    pass
        elif wait and refs:
            self._ray.wait(refs, num_returns=len(refs))


class TaskLost(Exception):
    """A Dask task whose result was lost with its worker after it finished, or that the
    scheduler cancelled: the run runs it again (:class:`DaskExecutor`)."""


class DaskExecutor(Executor):
    """A :class:`concurrent.futures.Executor` on a ``distributed.Client``, each call one
    task (``pure=False``).

    Unlike ``Client.get_executor()``, a result that was gathered is never lost: that
    executor reads the task's status again after gathering, and when the worker left in
    between it raises a ``ValueError`` (unpacking the result as a traceback). Here a
    result that cannot be gathered, or a task the scheduler cancelled, raises
    :class:`TaskLost`; a task's own error is raised as it is. Cancelling the returned
    future cancels the task; the client is not closed by ``shutdown``.
    """

    def __init__(self, client: Any) -> None:
        self._client = client
        self._running: set[Any] = set()
        self._lock = threading.Lock()
        self._shutdown = False

    def submit(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> Future[_T]:
        with self._lock:
            if self._shutdown:
                raise RuntimeError("cannot schedule new futures after shutdown")
            task = self._client.submit(fn, *args, pure=False, **kwargs)
            self._running.add(task)
        outer: Future[_T] = Future()

        def cancelled(f: Future[Any]) -> None:
            if f.cancelled():
                task.cancel()

        def done(t: Any) -> None:
            with self._lock:
                self._running.discard(t)
            if not outer.set_running_or_notify_cancel():
                return  # cancelled by the caller
            try:
                if t.status == "error":
                    exc = t.exception()
                    outer.set_exception(exc if exc is not None else TaskLost(t.key))
                    return
                if t.status != "finished":
                    raise TaskLost(f"task {t.key} was {t.status}")
                outer.set_result(t.result())
            except TaskLost as exc:
                outer.set_exception(exc)
            except Exception as exc:  # the result went with its worker
                outer.set_exception(TaskLost(f"{type(exc).__name__}: {exc}"))

        outer.add_done_callback(cancelled)
        task.add_done_callback(done)
        return outer

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._shutdown = True
            tasks = list(self._running)
        if cancel_futures and tasks:
            try:
                self._client.cancel(tasks)
            except Exception:  # the cluster is gone
                pass
        elif wait and tasks:
            import_engine("dask").wait(tasks)


@dataclass(frozen=True)
class Cluster:
    """An engine opened by :func:`connect`: where the chunks of a run go, and what the run
    asks of the cluster while it waits (:class:`cassino.simulate.ClusterWatch`)."""

    engine: str
    """``"ray"`` or ``"dask"``."""
    executor: Executor
    slots: int
    """The task slots (CPUs, or Dask worker threads) when the cluster was opened."""
    where: str
    """The cluster, for messages: ``"the Dask scheduler at tcp://10.0.0.1:8786"``."""
    probe: Callable[[], dict[str, int]]
    lost_errors: tuple[type[BaseException], ...] = ()

    def workers(self) -> dict[str, int]:
        """The live Dask workers (address: threads) or Ray nodes (id: CPUs) now; raises
        when the cluster cannot be reached."""
        return self.probe()

    def lost(self, exc: BaseException) -> bool:
        """Whether a task failed because its worker or node was lost: a Ray worker or node
        that died, a Dask result gone with its worker (Dask's scheduler reruns the tasks of
        a worker that dies while running them itself)."""
        return bool(self.lost_errors) and isinstance(exc, self.lost_errors)


@contextmanager
def open_engine(
    engine: str,
    *,
    workers: int | None = None,
    address: str | None = None,
    scheduler: str | None = None,
) -> Iterator[tuple[Executor, int]]:
    """``(executor, slots)`` of a ``ray`` or ``dask`` engine, for the ``with`` block: the
    first two fields of :func:`connect`'s :class:`Cluster`, whose arguments it takes."""
    with connect(engine, workers=workers, address=address, scheduler=scheduler) as cluster:
        yield cluster.executor, cluster.slots


@contextmanager
def connect(
    engine: str,
    *,
    workers: int | None = None,
    address: str | None = None,
    scheduler: str | None = None,
) -> Iterator[Cluster]:
    """The :class:`Cluster` of a ``ray`` or ``dask`` engine, for the ``with`` block.

    ray: joins the cluster at ``address`` (``host:port``, ``ray://host:10001``, ``auto``),
    or the one named by ``RAY_ADDRESS``; without either, starts a Ray instance on this
    machine with ``workers`` CPUs (default: all). A process already connected to Ray
    (``ray.init`` called before) uses that connection.

    dask: connects to the scheduler at ``scheduler`` (``tcp://host:8786``); without it, uses
    the Dask client made before in this process, if any, else starts a
    ``LocalCluster`` of ``workers`` single-threaded worker processes (default: one per core).

    ``workers`` sizes only a cluster started here: with a cluster that exists already, it is
    an error. What was started or connected here is shut down or closed on leaving.
    """
    if workers is not None and (address or scheduler):
        raise _no_workers(f"the cluster at {address or scheduler}")
    if engine == "ray":
        with _ray_engine(workers, address) as opened:
            yield opened
    elif engine == "dask":
        with _dask_engine(workers, scheduler) as opened:
            yield opened
    else:
        raise SimulationError(f"engine must be one of {', '.join(ENGINES[1:])} here, not {engine!r}")


def _no_workers(where: str) -> SimulationError:
    return SimulationError(
        f"workers (--workers) sizes a cluster started on this machine, but {where} has its "
        "own workers: leave it out"
    )


@contextmanager
def _ray_engine(workers: int | None, address: str | None) -> Iterator[Cluster]:
    ray = import_engine("ray")
    started = False
    if ray.is_initialized():
        if workers is not None:
            raise _no_workers("the Ray cluster this process is connected to")
    else:
        target = address or os.environ.get("RAY_ADDRESS") or None
        kwargs: dict[str, Any] = {
            "log_to_driver": False,  # workers' output would mix with --json or --csv
            "logging_level": logging.WARNING,
        }
        if target is None:
            kwargs.update(address="local", include_dashboard=False)
            if workers is not None:
                kwargs["num_cpus"] = workers
        elif workers is not None:  # RAY_ADDRESS names the cluster
            raise _no_workers(f"the Ray cluster at {target}")
        else:
            kwargs["address"] = target
        try:
            ray.init(**kwargs)
        except Exception as exc:
            where = f"the Ray cluster at {target}" if target else "a local Ray instance"
            raise SimulationError(f"cannot start or reach {where}: {exc}") from None
        started = True
    try:  # the address the connection resolved (``auto``, ``RAY_ADDRESS``, ray://...)
        gcs = str(ray.get_runtime_context().gcs_address)
    except Exception:
        gcs = str(target)
    if started and target is None:
        where = f"the Ray instance started here ({gcs})"
    else:
        where = f"the Ray cluster at {gcs}"
    # Ray's driver prints the errors its raylets publish ("A worker died or was killed ...",
    # "Task failed ... retries remaining") on this process's stdout, many lines each, even
    # with log_to_driver=False; the run reports those events itself, one line each, so a
    # connection made here keeps them quiet (the same switch as ray.util.rpdb's)
    quiet = sys.modules.get("ray._private.worker") if started else None
    was_loud = getattr(quiet, "_worker_logs_enabled", None)
    if was_loud is not None:
        quiet._worker_logs_enabled = False  # type: ignore[union-attr]
    executor = RayExecutor(max_retries=0)  # simulate retries, and says so
    lost = tuple(
        getattr(ray.exceptions, name)
        for name in ("WorkerCrashedError", "NodeDiedError", "LocalRayletDiedError",
                     "ObjectLostError", "OutOfMemoryError")
        if isinstance(getattr(ray.exceptions, name, None), type)
    )

    def nodes() -> dict[str, int]:
        return {
            str(node["NodeID"])[:8]: int(node.get("Resources", {}).get("CPU", 0))
            for node in ray.nodes()
            if node.get("Alive")
        }

    try:
        slots = int(ray.cluster_resources().get("CPU", 1))
        yield Cluster("ray", executor, max(1, slots), where, nodes, lost)
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
        if started:
            ray.shutdown()
        if was_loud is not None:
            quiet._worker_logs_enabled = was_loud  # type: ignore[union-attr]


@contextmanager
def _dask_engine(workers: int | None, scheduler: str | None) -> Iterator[Cluster]:
    distributed = import_engine("dask")
    cluster: Any = None
    client: Any = None
    own_client = False
    if scheduler is None:
        try:
            client = distributed.default_client()
        except ValueError:  # no client made in this process
            client = None
        if client is not None and workers is not None:
            raise _no_workers("the Dask cluster of this process's client")
    try:
        if client is None:
            own_client = True
            try:
                if scheduler is None:
                    cluster = distributed.LocalCluster(
                        n_workers=workers or os.cpu_count() or 1,
                        threads_per_worker=1,  # the games hold the GIL: processes, not threads
                        processes=True,
                        dashboard_address=None,
                    )
                    client = distributed.Client(cluster, set_as_default=False)
                else:
                    client = distributed.Client(scheduler, set_as_default=False)
            except Exception as exc:
                where = f"the Dask scheduler at {scheduler}" if scheduler else "a local Dask cluster"
                raise SimulationError(f"cannot start or reach {where}: {exc}") from None
        executor = DaskExecutor(client)
        if scheduler is not None:
            where = f"the Dask scheduler at {scheduler}"
        elif cluster is not None:
            where = f"the local Dask cluster at {client.scheduler.address}"
        else:
            where = f"the Dask scheduler at {client.scheduler.address}"
        try:
            slots = sum(client.nthreads().values())
            yield Cluster("dask", executor, max(1, slots), where, client.nthreads, (TaskLost,))
        finally:
            executor.shutdown(wait=False, cancel_futures=True)
    finally:
        if own_client and client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
