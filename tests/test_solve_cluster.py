"""`crossridor solve --scheduler`: the levels solved on a real Dask cluster
(the scheduler and two workers of test_cluster.py, subprocesses on
127.0.0.1), reading the table folder: the same table as a local solve."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("distributed", reason="Dask distributed is not installed: pip install '.[cluster]'")

from crossridor.engine.cli.main import main  # noqa: E402
from helpers import one_line_error  # noqa: E402
from test_cluster import cluster  # noqa: E402,F401 - the fixture: a scheduler and two workers


def solve_json(capsys, *argv):
    assert main(["solve", "quoridor", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr()[0])


def test_a_cluster_solve_equals_a_local_one(cluster, capsys, tmp_path):  # noqa: F811
    address, _ = cluster
    there = solve_json(capsys, "--size", "5", "--walls", "1", "--scheduler", address,
                       "--write-table", str(tmp_path / "cluster"))
    here = solve_json(capsys, "--size", "5", "--walls", "1", "--threads", "1",
                      "--write-table", str(tmp_path / "local"))
    for key in ("winner", "plies", "moves", "move_plies", "nodes", "layers"):
        assert there[key] == here[key], key
    meta = json.loads((tmp_path / "local" / "table.json").read_text())
    for level in map(int, meta["levels"]):
        for kind in ("keys", "values"):
            a = np.load(tmp_path / "cluster" / f"{kind}-{level:02d}.npy")
            b = np.load(tmp_path / "local" / f"{kind}-{level:02d}.npy")
            assert (a == b).all(), (kind, level)


def test_an_unreachable_scheduler(tmp_path, monkeypatch):
    from crossridor.engine.cluster import ClusterExecutor
    # nothing listens on port 9: the connection is refused at once, so the connect timeout
    # (10 s, for a busy cluster) only sets how long Dask retries; half a second will do
    monkeypatch.setattr(ClusterExecutor.__init__, "__defaults__", ("0.5s",))
    err = one_line_error("solve", "quoridor", "--size", "3", "--walls", "1", "--scheduler", "tcp://127.0.0.1:9",
                         "--write-table", str(tmp_path / "t"))
    assert "cannot reach the Dask scheduler" in err
