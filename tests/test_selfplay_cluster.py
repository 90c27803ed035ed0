"""`crossridor selfplay --scheduler`: self-play games on a real Dask cluster
(a scheduler and two workers started here as subprocesses on 127.0.0.1)
give the records and the .npz of a local run with the same seed, byte for
byte, also when resumed and when a worker is killed mid-run."""

from __future__ import annotations

import json
import signal

import numpy as np
import pytest

distributed = pytest.importorskip(
    "distributed", reason="Dask distributed is not installed: pip install '.[cluster]' to test --scheduler")

from crossridor.engine.cluster import ClusterExecutor  # noqa: E402
from crossridor.engine.match.selfplay import selfplay_match  # noqa: E402
from crossridor.engine.match.specs import EngineSpec  # noqa: E402
from crossridor.games.quoridor.training import selfplay_arrays  # noqa: E402
from helpers import dask_cluster, interrupt, kill_a_busy_worker, run_cli, without_times  # noqa: E402

GAMES = 20          # 9x9 at depth 2: long enough to stop a run midway
SEED = 23


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with dask_cluster(tmp_path_factory.mktemp("dask")) as (address, workers):
        yield address, workers


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    """The local run (one process): its .npz and records."""
    folder = tmp_path_factory.mktemp("local")
    code, out, err = run_cli("selfplay", "quoridor", "--games", str(GAMES), "--seed", str(SEED),
                             "--concurrency", "1", "--records", str(folder / "r.jsonl"),
                             "--out", str(folder / "d.npz"))
    assert code == 0, err
    return folder / "d.npz", folder / "r.jsonl"


def records(path):
    return sorted((without_times(json.loads(line)) for line in open(path)), key=lambda r: r["index"])


def assert_same_data(a, b):
    """The same arrays, byte for byte (dtype, shape and contents)."""
    with np.load(a) as x, np.load(b) as y:
        assert x.files == y.files
        for name in x.files:
            assert (x[name].dtype, x[name].shape) == (y[name].dtype, y[name].shape), name
            assert x[name].tobytes() == y[name].tobytes(), name
        assert len(x["result"]) > 10 * GAMES and len(np.unique(x["game"])) == GAMES


def test_cluster_run_resumed_equals_the_local_run(cluster, local, tmp_path):
    address, workers = cluster
    assert all(w.poll() is None for w in workers)
    path = tmp_path / "r.jsonl"
    common = ("selfplay", "quoridor", "--seed", str(SEED), "--records", str(path), "--scheduler", address)
    code, out, err = run_cli(*common, "--games", "5", "--out", str(tmp_path / "part.npz"))
    assert code == 0, err
    assert len(records(path)) == 5
    # the rest of the run, the seed taken from the records
    code, out, err = run_cli("selfplay", "quoridor", "--records", str(path), "--resume", "--scheduler", address,
                             "--games", str(GAMES), "--out", str(tmp_path / "d.npz"))
    assert code == 0, err
    assert f"{GAMES} games" in out and f"seed {SEED}" in out
    assert_same_data(tmp_path / "d.npz", local[0])
    assert records(path) == records(local[1])


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=lambda s: s.name)
def test_cluster_run_stopped_and_resumed(cluster, local, tmp_path, sig):
    address, workers = cluster
    path = tmp_path / "r.jsonl"

    def two_games_done(proc):
        return path.exists() and path.read_text().count("\n") >= 2

    argv = ["selfplay", "quoridor", "--games", str(GAMES), "--seed", str(SEED), "--records", str(path),
            "--scheduler", address, "--out", str(tmp_path / "part.npz")]
    code, seconds, out, err = interrupt(argv, two_games_done, sig)
    assert code == (-signal.SIGKILL if sig == signal.SIGKILL else 130), err
    assert len(records(path)) < GAMES
    code, out, err = run_cli(*argv[:-2], "--resume", "--out", str(tmp_path / "d.npz"))
    assert code == 0, err
    assert_same_data(tmp_path / "d.npz", local[0])
    assert records(path) == records(local[1])


def test_a_worker_killed_mid_run_loses_no_game(cluster, local, tmp_path):
    address, workers = cluster
    executor = ClusterExecutor(address)
    killed = {}

    def on_record(record, tally):
        if not killed.get("worker"):      # none busy at this record: try again at the next
            killed["worker"] = kill_a_busy_worker(executor, workers)

    match = selfplay_match(EngineSpec.parse("alphabeta:depth=2"), GAMES, {}, concurrency=4, seed=SEED,
                           records=str(tmp_path / "r.jsonl"))
    try:
        assert executor.capacity() == 2
        result = match.run(executor=executor, on_record=on_record)
    finally:
        executor.shutdown()
    assert killed["worker"], "no worker was busy when any game finished"
    assert [r.index for r in result.records] == list(range(GAMES))
    got = records(tmp_path / "r.jsonl")
    assert [r["index"] for r in got] == list(range(GAMES))            # each game once, none lost
    assert got == records(local[1])
    np.savez_compressed(tmp_path / "d.npz", **selfplay_arrays(match.game, str(match.engine), result.records))
    assert_same_data(tmp_path / "d.npz", local[0])
