"""Collect bench/bench_*.py files that hold pytest-benchmark tests:

    python3 -m pytest bench/ --benchmark-only

The default `pytest` run (testpaths = ["tests"]) never comes here. Scripts
meant to be run by hand (bench_cards.py) are not collected."""

from __future__ import annotations

import pytest

COLLECTED = {"bench_quoridor.py", "bench_learning.py", "bench_quoridor_eval.py"}


def pytest_collect_file(file_path, parent):
    if file_path.name in COLLECTED:
        return pytest.Module.from_parent(parent, path=file_path)
    return None
