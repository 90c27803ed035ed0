"""ruff and mypy, as pyproject.toml configures them, find nothing: the
style and import order of the whole tree, and the types of the package
(strict for the public modules). Both come with the `test` extra."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
VIEW = ROOT / "typecheck" / "crossridor"


def run(tool: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", tool, *args], cwd=ROOT, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)


def test_ruff_finds_nothing():
    done = run("ruff", "check", "--no-fix")
    assert done.returncode == 0, f"ruff check (`ruff check --fix` mends some):\n{done.stdout}{done.stderr}"


def test_mypy_finds_nothing():
    done = run("mypy")
    assert done.returncode == 0, f"mypy:\n{done.stdout}{done.stderr}"


def test_mypy_reads_every_module_of_the_package():
    # typecheck/crossridor is the import package as links into src/ (pyproject.toml says why):
    # every file of src/crossridor, and src/engine and src/games whole
    wanted = {entry.name: entry for entry in (SRC / "crossridor").iterdir() if entry.name != "__pycache__"}
    wanted.update(engine=SRC / "engine", games=SRC / "games")
    links = {entry.name: entry for entry in VIEW.iterdir()}
    assert sorted(links) == sorted(wanted)
    for name, link in links.items():
        assert link.is_symlink() and not os.path.isabs(os.readlink(link)), f"{link} is not a relative link"
        assert link.resolve() == wanted[name].resolve(), f"{link} leads to {link.resolve()}"
