"""`crossridor match --scheduler`: games on a real Dask cluster (a scheduler
and two workers started here as subprocesses on 127.0.0.1). One worker is
killed during a match: its games are rerun on the other, each counted once,
and the records equal a local run's."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

distributed = pytest.importorskip(
    "distributed", reason="Dask distributed is not installed: pip install '.[cluster]' to test --scheduler")

from crossridor.engine.match.cluster import ClusterExecutor  # noqa: E402
from crossridor.engine.errors import CrossridorError  # noqa: E402
from crossridor.engine.match.runner import Match, MatchConfig  # noqa: E402
from crossridor.engine.match.workers import EngineSpec  # noqa: E402

from test_match import run_cli  # noqa: E402

ENGINES = ["alphabeta:depth=3", "alphabeta:depth=2"]


def start(module: str, *args, log):
    return subprocess.Popen([sys.executable, "-m", module, *args], stdout=log, stderr=subprocess.STDOUT,
                            env=dict(os.environ, DASK_DISTRIBUTED__WORKER__DAEMON="False"))


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("dask")
    info = tmp / "scheduler.json"
    log = open(tmp / "log.txt", "w")
    procs = [start("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                   "--scheduler-file", str(info), log=log)]
    try:
        deadline = time.monotonic() + 60
        while not info.exists() or not info.read_text().strip():
            assert time.monotonic() < deadline, "the Dask scheduler did not start"
            time.sleep(0.1)
        address = json.loads(info.read_text())["address"]
        workers = [start("distributed.cli.dask_worker", address, "--host", "127.0.0.1", "--nthreads", "1",
                         "--no-nanny", "--no-dashboard", log=log) for _ in range(2)]
        procs += workers
        with distributed.Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
        yield address, workers
    finally:
        for proc in procs:          # our own subprocesses; nothing of theirs needs a clean exit
            proc.kill()
            proc.wait()
        log.close()


def config(records, **kw):
    return MatchConfig("quoridor", {"size": 5}, [EngineSpec.parse(e) for e in ENGINES], games=12,
                       random_openings=2, seed=11, records=str(records), **kw)


def load(path):
    recs = [json.loads(line) for line in open(path)]
    for r in recs:
        r.pop("seconds")
        r.pop("think", None)
    return sorted(recs, key=lambda r: r["index"])


def test_a_worker_killed_mid_match_loses_no_game(cluster, tmp_path):
    address, workers = cluster
    executor = ClusterExecutor(address)
    by_pid = {proc.pid: proc for proc in workers}
    pids = executor.client.run(os.getpid)          # worker address -> its process id
    killed = {}

    def on_record(record, tally):
        if killed:
            return
        # kill a worker that is playing a game right now
        busy = {w for w, keys in executor.client.processing().items() if keys}
        for addr in sorted(busy):
            if pids.get(addr) in by_pid:
                by_pid[pids[addr]].send_signal(signal.SIGKILL)
                killed["worker"] = addr
                return

    try:
        assert executor.capacity() == 2
        result = Match(config(tmp_path / "cluster.jsonl", concurrency=4)).run(executor=executor, on_record=on_record)
    finally:
        executor.shutdown()
    assert killed, "no worker was busy when the first game finished"
    local = Match(config(tmp_path / "local.jsonl", concurrency=1)).run()
    cluster_records = load(tmp_path / "cluster.jsonl")
    assert [r["index"] for r in cluster_records] == list(range(12))      # each game once, none lost
    assert cluster_records == load(tmp_path / "local.jsonl")
    assert result.summary() == local.summary()


def test_cli_scheduler_with_sprt_and_resume(cluster, tmp_path):
    address, workers = cluster
    alive = [p for p in workers if p.poll() is None]
    assert alive, "no worker left"
    path = tmp_path / "r.jsonl"
    common = ("match", "quoridor", "--size", "5", "--engine", "alphabeta:depth=2", "--engine", "random",
              "--seed", "2", "--records", str(path), "--json", "--scheduler", address)
    code, out, err = run_cli(*common, "--games", "4")
    assert code == 0, err
    code, out, err = run_cli(*common, "--games", "40", "--resume", "--sprt", "elo0=0,elo1=300")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["sprt"]["result"] == "H1" and obj["stopped"] == "sprt H1" and obj["games"] < 40
    code, local, err = run_cli("match", "quoridor", "--size", "5", "--engine", "alphabeta:depth=2", "--engine",
                               "random", "--seed", "2", "--json", "--games", "40", "--concurrency", "1",
                               "--sprt", "elo0=0,elo1=300")
    assert json.loads(local) == obj


def test_scheduler_unreachable():
    with pytest.raises(CrossridorError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        ClusterExecutor("tcp://127.0.0.1:9", timeout="0.5s")
