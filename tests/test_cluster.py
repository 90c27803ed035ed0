"""`crossridor match --scheduler`: games on a real Dask cluster (a scheduler
and two workers started here as subprocesses on 127.0.0.1). One worker is
killed during a match: its games are rerun on the other, each counted once,
and the records equal a local run's."""

from __future__ import annotations

import json

import pytest

distributed = pytest.importorskip(
    "distributed", reason="Dask distributed is not installed: pip install '.[cluster]' to test --scheduler")

from crossridor.engine.cluster import ClusterExecutor  # noqa: E402
from crossridor.engine.errors import CrossridorError  # noqa: E402
from crossridor.engine.match.runner import Match, MatchConfig  # noqa: E402
from crossridor.engine.match.specs import EngineSpec  # noqa: E402
from helpers import dask_cluster, kill_a_busy_worker, run_cli, without_times  # noqa: E402

ENGINES = ["alphabeta:depth=3", "alphabeta:depth=2"]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with dask_cluster(tmp_path_factory.mktemp("dask")) as (address, workers):
        yield address, workers


def config(records, **kw):
    return MatchConfig("quoridor", {"size": 5}, [EngineSpec.parse(e) for e in ENGINES], games=12,
                       random_openings=2, seed=11, records=str(records), **kw)


def load(path):
    recs = [without_times(json.loads(line)) for line in open(path)]
    return sorted(recs, key=lambda r: r["index"])


def test_a_worker_killed_mid_match_loses_no_game(cluster, tmp_path):
    address, workers = cluster
    executor = ClusterExecutor(address)
    killed = {}

    def on_record(record, tally):
        if not killed.get("worker"):      # none busy at this record: try again at the next
            killed["worker"] = kill_a_busy_worker(executor, workers)   # one playing a game right now

    try:
        assert executor.capacity() == 2
        result = Match(config(tmp_path / "cluster.jsonl", concurrency=4)).run(executor=executor, on_record=on_record)
    finally:
        executor.shutdown()
    assert killed["worker"], "no worker was busy when any game finished"
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
