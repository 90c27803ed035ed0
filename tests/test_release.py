"""The release: `python -m build --sdist` makes a source distribution with
what a build needs and nothing of this machine, and pip installs it in a
new virtual environment (building the compiled core there, with the build
tools pyproject.toml names, fetched from the package index). The installed
command then answers as the checkout does, and finds the rules it ships."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import crossridor

ROOT = Path(__file__).resolve().parent.parent
NEEDED = ["pyproject.toml", "CMakeLists.txt", "README.md", "src/crossridor/__init__.py", "src/engine/_core.pyx",
          "src/engine/bitboard.pxi", "src/games/quoridor/search.pxi", "src/games/crosswise/board.pxi",
          "src/games/quoridor/data/quoridor_eval.bin", "src/engine/web/static/app.js",
          "docs/rules/quoridor.md", "docs/rules/kreuzundquer.md"]


def run(command: list, cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, \
        f"{' '.join(command)}: exit {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def test_the_sdist_installs_and_answers(tmp_path):
    run([sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp_path / "dist"), str(ROOT)], tmp_path)
    (sdist,) = (tmp_path / "dist").glob("crossridor-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {name.partition("/")[2] for name in tar.getnames()}
    assert not [n for n in NEEDED if n not in names]
    stray = [n for n in names if n.startswith((".ci/", "typecheck/", "build/", "dist/"))
             or "__pycache__" in n or n.endswith((".so", ".pyc", "_core.c"))]
    assert not stray

    # a venv without pip of its own: this pip installs into it (saves a copy of pip)
    run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "venv")], tmp_path)
    python = tmp_path / "venv" / "bin" / "python"
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", str(sdist)], tmp_path)

    where = run([str(python), "-c", "import crossridor, crossridor.engine._core as c; print(crossridor.__file__); "
                 "print(c.__file__)"], tmp_path).split()
    assert all(path.startswith(str(tmp_path / "venv")) for path in where), where
    crossridor_command = str(tmp_path / "venv" / "bin" / "crossridor")
    answer = json.loads(run([crossridor_command, "best", "quoridor", "--depth", "2", "--json"], tmp_path))
    here = crossridor.search(crossridor.load_game("quoridor").new_state(), limits=crossridor.Limits(depth=2))
    assert (answer["move"], answer["nodes"], answer["pv"]) == (str(here.move), here.nodes, [str(m) for m in here.pv])
    assert "Quoridor" in run([crossridor_command, "rules", "quoridor"], tmp_path)
