"""The ray and dask engines of ``simulate`` (docs/scaling.md).

On local clusters (``ray.init(num_cpus=2)``, ``distributed.LocalCluster``) each engine must
give exactly the records and summary of a local run with the same seed, through the API and
through ``cassino simulate --engine``. Those tests need the extras (``pip install -e
'.[ray,dask]'``) and are skipped without them; the option checks and the missing-extra
errors run everywhere.
"""

from __future__ import annotations

import json
import logging
import os
import re
import socket
import subprocess
import sys
import time
import types
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from click.testing import CliRunner, Result

import cassino
from cassino.cli import cli
from cassino.distributed import DISTRIBUTED_CHUNK, distributed_chunk_size, open_engine
from cassino.errors import UnknownSystemError
from cassino.simulate import SimulationError, SimulationResult, run_chunk, simulate
from conftest import assert_one_line_error

REFERENCE = cassino.IMPLEMENTATION == "reference"
GAMES = 6 if REFERENCE else 30
SEED = 21

BAD_TASK = {
    "system": "nope",
    "options": {},
    "players": ["random", "random"],
    "seed": 1,
    "duplicate": False,
    "start": 0,
    "stop": 1,
}


def need(name: str) -> Any:
    """The module ``name``, or skip the test (a bare directory named so is not the package)."""
    module = pytest.importorskip(name)
    if getattr(module, "__file__", None) is None:
        pytest.skip(f"{name!r} is only a directory on sys.path, not the package")
    return module


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), prog_name="cassino")


def proc(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    return subprocess.run(
        [sys.executable, "-m", "cassino.cli", *args],
        capture_output=True, text=True, timeout=300, env=env,
    )


def assert_same(result: SimulationResult, local: SimulationResult) -> None:
    assert result.games == local.games
    assert result.summary == local.summary
    assert result.to_json() == local.to_json()


@pytest.fixture(scope="module")
def local() -> SimulationResult:
    return simulate(games=GAMES, seed=SEED, workers=1)


def cli_args(*extra: str) -> list[str]:
    return ["simulate", "--games", str(GAMES), "--seed", str(SEED), "--json", *extra]


# -- without ray or dask -------------------------------------------------------------------
def test_default_chunking_over_two_workers_matches_one(local: SimulationResult) -> None:
    assert_same(simulate(games=GAMES, seed=SEED, workers=2), local)


def test_distributed_chunk_size() -> None:
    assert distributed_chunk_size(2000, 2) == 250  # four tasks per CPU
    assert distributed_chunk_size(10**7, 100) == DISTRIBUTED_CHUNK
    assert distributed_chunk_size(5, 16) == 1
    assert distributed_chunk_size(5, 0) == 2


@pytest.mark.parametrize(("engine", "module"), [("ray", "ray"), ("dask", "distributed")])
def test_a_missing_extra_says_what_to_install(
    engine: str, module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # import fails as if not installed
    with pytest.raises(SimulationError, match=rf"pip install 'cassino\[{engine}\]'"):
        simulate(games=2, engine=engine)
    assert_one_line_error(
        run("simulate", "--games", "2", "--engine", engine),
        rf"^error: the {engine} engine needs .*: pip install 'cassino\[{engine}\]'",
    )


def test_a_directory_named_ray_is_not_ray(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # such as Ray's own /tmp/ray, imported as a namespace package when /tmp is the cwd
    bare = types.ModuleType("ray")
    bare.__file__ = None
    bare.__path__ = [str(tmp_path / "ray")]
    monkeypatch.setitem(sys.modules, "ray", bare)
    with pytest.raises(SimulationError, match=r"pip install 'cassino\[ray\]' \('ray' is only a directory: .*ray\)"):
        simulate(games=2, engine="ray")


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"engine": "spark"}, r"engine must be one of local, ray, dask, not 'spark'"),
        ({"engine": None}, r"engine must be one of"),
        ({"address": "auto"}, r"address is for engine='ray', not engine='local'"),
        ({"engine": "dask", "address": "auto"}, r"address is for engine='ray'"),
        ({"scheduler": "tcp://h:8786"}, r"scheduler is for engine='dask'"),
        ({"engine": "ray", "scheduler": "tcp://h:8786"}, r"scheduler is for engine='dask'"),
        ({"engine": "ray", "address": ""}, r"address must be a non-empty string"),
        ({"engine": "dask", "scheduler": 8786}, r"scheduler must be a non-empty string"),
        ({"engine": "ray", "address": "h:6379", "workers": 2}, r"workers .* leave it out"),
        ({"engine": "dask", "scheduler": "tcp://h:1", "workers": 2}, r"workers .* leave it out"),
    ],
)
def test_bad_engine_arguments(kwargs: dict[str, Any], pattern: str) -> None:
    with pytest.raises(SimulationError, match=pattern):
        simulate(**{"games": 2, **kwargs})


def test_an_executor_and_an_engine_do_not_mix() -> None:
    with ThreadPoolExecutor(1) as ex, pytest.raises(SimulationError, match="not both"):
        simulate(games=2, executor=ex, engine="ray")


def test_open_engine_knows_only_clusters() -> None:
    with pytest.raises(SimulationError, match="engine must be one of ray, dask"):
        with open_engine("local"):
            pass


@pytest.mark.parametrize(
    ("args", "pattern"),
    [
        (["--engine", "spark"], r"Invalid value for '--engine': 'spark' is not one of"),
        (["--address", "auto"], r"--address is for --engine ray"),
        (["--engine", "dask", "--address", "auto"], r"--address is for --engine ray"),
        (["--scheduler", "tcp://h:8786"], r"--scheduler is for --engine dask"),
        (["--engine", "ray", "--scheduler", "tcp://h:8786"], r"--scheduler is for --engine dask"),
        (["--engine", "ray", "--address", "h:6379", "--workers", "2"], r"--workers sizes a cluster"),
        (["--engine", "dask", "--scheduler", "tcp://h:1", "--workers", "2"], r"--workers sizes"),
        (["--chunk-size", "0"], r"--chunk-size.*0 is not in the range x>=1"),
    ],
)
def test_cli_engine_options_are_checked(args: list[str], pattern: str) -> None:
    assert_one_line_error(run("simulate", "--games", "2", *args), pattern)


def test_cli_chunk_size_does_not_change_the_output(local: SimulationResult) -> None:
    result = run(*cli_args("--workers", "2", "--chunk-size", "7"))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == local.to_dict()


# -- ray -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[Any]:
    ray = need("ray")
    ray.init(
        address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
        logging_level=logging.WARNING,
    )
    yield ray
    ray.shutdown()


def test_ray_gives_the_local_results(ray_cluster: Any, local: SimulationResult) -> None:
    calls: list[tuple[int, int]] = []
    result = simulate(
        games=GAMES, seed=SEED, engine="ray", chunk_size=4,
        progress=lambda done, total: calls.append((done, total)),
    )
    assert_same(result, local)
    assert calls[0] == (0, GAMES) and calls[-1] == (GAMES, GAMES)
    assert len(calls) == 1 + -(-GAMES // 4)
    assert_same(simulate(games=GAMES, seed=SEED, engine="ray"), local)  # default chunks
    assert ray_cluster.is_initialized()  # a connection made before is left open


def test_ray_task_errors_are_the_tasks_own(ray_cluster: Any) -> None:
    with open_engine("ray") as (executor, slots):
        assert slots == 2
        future = executor.submit(run_chunk, BAD_TASK)
        with pytest.raises(UnknownSystemError, match="unknown system 'nope'") as info:
            future.result(timeout=120)
        assert "Traceback" not in str(info.value)
        executor.shutdown()
        with pytest.raises(RuntimeError, match="after shutdown"):
            executor.submit(run_chunk, BAD_TASK)


def test_ray_workers_do_not_resize_a_connected_cluster(ray_cluster: Any) -> None:
    with pytest.raises(SimulationError, match="connected to has its own workers"):
        simulate(games=2, engine="ray", workers=2)


def test_cli_ray(ray_cluster: Any, local: SimulationResult) -> None:
    result = run(*cli_args("--engine", "ray"))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == local.to_dict()


def test_cli_ray_joins_a_cluster_by_address(ray_cluster: Any, local: SimulationResult) -> None:
    address = ray_cluster.get_runtime_context().gcs_address
    out = proc(*cli_args("--engine", "ray", "--address", address))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == local.to_dict()


def test_cli_ray_starts_and_stops_its_own_instance(local: SimulationResult) -> None:
    need("ray")
    out = proc(*cli_args("--engine", "ray", "--workers", "2"))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == local.to_dict()


# -- dask ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def dask_cluster() -> Iterator[Any]:
    distributed = need("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        yield cluster


def test_dask_gives_the_local_results(dask_cluster: Any, local: SimulationResult) -> None:
    calls: list[tuple[int, int]] = []
    result = simulate(
        games=GAMES, seed=SEED, engine="dask", scheduler=dask_cluster.scheduler_address,
        chunk_size=4, progress=lambda done, total: calls.append((done, total)),
    )
    assert_same(result, local)
    assert calls[0] == (0, GAMES) and calls[-1] == (GAMES, GAMES)
    assert len(calls) == 1 + -(-GAMES // 4)
    default = simulate(games=GAMES, seed=SEED, engine="dask", scheduler=dask_cluster.scheduler_address)
    assert_same(default, local)


def test_dask_uses_the_client_of_this_process(dask_cluster: Any, local: SimulationResult) -> None:
    distributed = need("distributed")
    with distributed.Client(dask_cluster) as client:
        assert_same(simulate(games=GAMES, seed=SEED, engine="dask"), local)
        assert client.status == "running"  # not closed: it is the caller's
        with pytest.raises(SimulationError, match="has its own workers"):
            simulate(games=2, engine="dask", workers=2)
        # any concurrent.futures executor works too, such as the client's
        assert_same(simulate(games=GAMES, seed=SEED, executor=client.get_executor()), local)


def test_dask_task_errors_are_the_tasks_own(dask_cluster: Any) -> None:
    with open_engine("dask", scheduler=dask_cluster.scheduler_address) as (executor, slots):
        assert slots == 2
        with pytest.raises(UnknownSystemError, match="unknown system 'nope'"):
            executor.submit(run_chunk, BAD_TASK).result(timeout=120)


@pytest.mark.filterwarnings("ignore:Port 8787 is already in use")  # the fixture's cluster has it
def test_dask_starts_and_stops_its_own_cluster(local: SimulationResult) -> None:
    need("distributed")
    assert_same(simulate(games=GAMES, seed=SEED, engine="dask", workers=2), local)


def test_dask_unreachable_scheduler() -> None:
    dask = need("dask")
    need("distributed")
    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        with pytest.raises(SimulationError, match=r"cannot start or reach the Dask scheduler at tcp://127\.0\.0\.1:9"):
            simulate(games=2, engine="dask", scheduler="tcp://127.0.0.1:9")


def test_cli_dask(dask_cluster: Any, local: SimulationResult) -> None:
    result = run(*cli_args("--engine", "dask", "--scheduler", dask_cluster.scheduler_address))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == local.to_dict()
    table = run("simulate", "--games", str(GAMES), "--seed", str(SEED), "--engine", "dask",
                "--scheduler", dask_cluster.scheduler_address)
    assert table.exit_code == 0 and table.stdout == run(
        "simulate", "--games", str(GAMES), "--seed", str(SEED), "--workers", "1"
    ).stdout


# -- faults on real local clusters ---------------------------------------------------------
# A player of tests/faulty_players.py kills its worker process (and, for the whole Dask
# worker, its nanny) once, in the middle of a run; the runs are subprocesses that find it on
# PYTHONPATH, as do the workers they start.
HERE = os.path.dirname(os.path.abspath(__file__))
KILLER = ("faulty_players:Killer", "random")
FAULT_GAMES = 40


def fault_env(marker: Any, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [HERE, env.get("PYTHONPATH")]))
    env["CASSINO_KILL_MARKER"] = str(marker)
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def killer_local() -> SimulationResult:
    """The run of the killer without a kill (no marker variable in this process)."""
    assert "CASSINO_KILL_MARKER" not in os.environ
    return simulate(players=KILLER, games=FAULT_GAMES, seed=SEED, workers=1)


def fault_run(env: dict[str, str], *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cassino.cli", "simulate", "--games", str(FAULT_GAMES),
         "--seed", str(SEED), "--players", ",".join(KILLER), "--chunk-size", "5", *args],
        capture_output=True, text=True, timeout=timeout, env=env,
    )


@pytest.mark.slow
def test_cli_ray_stdout_is_only_the_json_after_a_worker_dies(
    tmp_path: Any, killer_local: SimulationResult
) -> None:
    """Ray's driver prints '(raylet) A worker died ...' on stdout; --json must stay JSON,
    with the same records, and the death and its retry are one line on stderr."""
    need("ray")
    marker = tmp_path / "killed"
    out = fault_run(fault_env(marker), "--engine", "ray", "--workers", "2", "--json")
    assert marker.exists(), out.stderr  # a worker was killed
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == killer_local.to_dict()
    assert "(raylet)" not in out.stderr + out.stdout
    lines = [line for line in out.stderr.splitlines() if line.startswith("ray: ")]
    assert len(lines) == 1, out.stderr
    assert re.fullmatch(
        r"ray: games \d+-\d+ lost their worker \(WorkerCrashedError\); retry 1 of 3", lines[0]
    ), lines


@pytest.mark.slow
def test_cli_dask_stdout_is_only_the_json_after_a_worker_dies(
    tmp_path: Any, killer_local: SimulationResult
) -> None:
    """The nanny starts a new worker, the scheduler reruns the lost task: the same records,
    and the worker that left and the one that joined are one line each on stderr."""
    need("distributed")
    marker = tmp_path / "killed"
    out = fault_run(fault_env(marker, CASSINO_KILL_AFTER="150"), "--engine", "dask", "--workers", "2", "--json")
    assert marker.exists(), out.stderr
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == killer_local.to_dict()
    ours = [line for line in out.stderr.splitlines() if line.startswith("dask: ")]
    assert any(re.fullmatch(r"dask: worker tcp://\S+ left, 1 worker remaining", x) for x in ours), out.stderr


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def dask_processes(tmp_path: Any) -> Iterator[tuple[str, dict[str, str]]]:
    """A ``dask scheduler`` and a ``dask worker`` (nanny and one worker process), as on a
    real cluster; the worker's player kills its nanny and itself: the whole worker."""
    need("distributed")
    address = f"tcp://127.0.0.1:{free_port()}"
    env = fault_env(tmp_path / "killed", CASSINO_KILL="parent", CASSINO_KILL_AFTER="1500")
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
             "--port", address.rsplit(":", 1)[1], "--no-dashboard"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
    ]
    try:
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nworkers", "1",
             "--nthreads", "1", "--no-dashboard"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        ))
        distributed = need("distributed")
        with distributed.Client(address, timeout=60) as client:
            client.wait_for_workers(1, timeout=60)
        yield address, env
    finally:
        for p in procs:
            p.kill()
            p.wait(timeout=60)


@pytest.mark.slow
def test_cli_dask_run_that_loses_every_worker_fails_after_the_stall_timeout(
    tmp_path: Any, dask_processes: tuple[str, dict[str, str]]
) -> None:
    """The issue's hang: the whole dask worker is killed mid-run; the run waited for ever."""
    address, env = dask_processes
    started = time.monotonic()
    out = subprocess.run(
        [sys.executable, "-m", "cassino.cli", "simulate", "--games", "400", "--seed", "1",
         "--players", ",".join(KILLER), "--chunk-size", "5", "--engine", "dask",
         "--scheduler", address, "--stall-timeout", "3", "--json"],
        capture_output=True, text=True, timeout=240, env=env,
    )
    assert (tmp_path / "killed").exists(), out.stderr
    assert out.returncode == 2, out.stderr
    errors = [line for line in out.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, out.stderr
    match = re.fullmatch(
        rf"error: no worker on the Dask scheduler at {re.escape(address)} for 3 s: "
        r"(\d+) of 80 chunks done \(([\d,]+) of 400 games\)",
        errors[0],
    )
    assert match, errors
    assert 0 < int(match[1]) < 80 and int(match[2].replace(",", "")) == 5 * int(match[1])
    assert re.search(rf"dask: no worker on the Dask scheduler at {re.escape(address)}; the run "
                     r"fails in 3 s unless one joins", out.stderr)
    assert time.monotonic() - started < 200


@pytest.mark.slow
def test_dask_cluster_whose_workers_are_closed_mid_run(local: SimulationResult) -> None:
    distributed = need("distributed")
    events: list[str] = []
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        closed: list[int] = []

        def progress(done: int, total: int) -> None:
            if done and not closed:
                closed.append(done)
                cluster.scale(0)

        with pytest.raises(SimulationError) as info:
            simulate(games=200, seed=SEED, chunk_size=2, engine="dask",
                     scheduler=cluster.scheduler_address, progress=progress, stall_timeout=2,
                     on_event=events.append)
    message = str(info.value)
    assert message.startswith(f"no worker on the Dask scheduler at {cluster.scheduler_address} for 2 s: ")
    assert re.search(r": \d+ of 100 chunks done \([\d,]+ of 200 games\)$", message)
    assert any(e.startswith("dask: no worker on the Dask scheduler") for e in events), events


@pytest.mark.slow
def test_ray_cluster_that_loses_its_only_node_fails_after_the_stall_timeout() -> None:
    """A cluster that stops accepting tasks: its only node with CPUs leaves mid-run."""
    ray = need("ray")
    from ray.cluster_utils import Cluster

    if ray.is_initialized():
        ray.shutdown()
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False})
    events: list[str] = []
    try:
        node = cluster.add_node(num_cpus=1)
        ray.init(address=cluster.address, log_to_driver=False, logging_level=logging.WARNING)
        cluster.wait_for_nodes()
        removed: list[int] = []

        def progress(done: int, total: int) -> None:
            if done and not removed:
                removed.append(done)
                cluster.remove_node(node)

        with pytest.raises(SimulationError) as info:
            simulate(games=200, seed=SEED, chunk_size=5, engine="ray", progress=progress,
                     stall_timeout=2, on_event=events.append)
    finally:
        ray.shutdown()
        cluster.shutdown()
    assert re.fullmatch(
        r"no worker on the Ray cluster at \S+ for 2 s: \d+ of 40 chunks done \([\d,]+ of 200 games\)",
        str(info.value),
    ), info.value
    assert any(e.startswith("ray: no worker on the Ray cluster at ") for e in events), events
