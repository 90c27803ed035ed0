"""The documentation: the site (mkdocs.yml, docs/) builds with `mkdocs build --strict`, and
the examples of the README and of the pages run.

An example is a fenced block marked ```sh or ```python; ```text blocks are not examples (the
commands of long measurements, install lines, a server that runs until stopped). Shell
examples run through `bash -c` with this interpreter's `crossridor` first on PATH, Python
examples with this interpreter, each in a fresh folder; each must exit 0."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import HANG

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```(sh|python)\n(.*?)^```", re.M | re.S)

# Examples that are not run, by a text only they contain, and why.
LEFT_OUT = {
    "pip install": "installs packages into the environment (the Quickstart; .ci/run runs the test command)",
    "dask scheduler": "needs a Dask cluster (tests/test_cluster.py starts one on 127.0.0.1)",
}
# Examples that need an optional part: run only where it is installed.
NEEDS = {"pyspiel": "pyspiel"}


def _examples():
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            name = f"{page.relative_to(ROOT)}:{line}"
            yield pytest.param(match.group(1), match.group(2), id=name)


EXAMPLES = list(_examples())


def test_there_are_examples_of_both_kinds():
    kinds = {p.values[0] for p in EXAMPLES}
    assert kinds == {"sh", "python"}
    assert len(EXAMPLES) >= 20


@pytest.mark.parametrize("kind, code", EXAMPLES)
def test_example_runs(kind, code, tmp_path):
    for text, reason in LEFT_OUT.items():
        if text in code:
            pytest.skip(f"left out: {reason}")
    for text, module in NEEDS.items():
        if text in code and not _installed(module):
            pytest.skip(f"needs {module}, not installed")
    bindir = Path(sys.executable).parent
    assert (bindir / "crossridor").exists(), f"no crossridor script next to {sys.executable}"
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"}
    command = ["bash", "-c", "set -eo pipefail\n" + code] if kind == "sh" else [sys.executable, "-c", code]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=HANG, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, \
        f"exit {done.returncode}\n--- stdout\n{done.stdout[-2000:]}\n--- stderr\n{done.stderr[-2000:]}"


def test_readme_is_a_short_introduction():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:      # a dotted name whose parent package is missing
        return False


def _missing(*modules: str) -> list[str]:
    return [m for m in modules if not _installed(m)]


def test_site_builds_strictly(tmp_path):
    missing = _missing("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python")
    if missing:
        pytest.skip(f"the docs build needs {', '.join(missing)} (pip install '.[docs]')")
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
                           "-d", str(site)], cwd=tmp_path, capture_output=True, text=True, timeout=HANG,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr[-4000:]
    # the API reference holds the docstrings of the facade and of the protocol
    api = (site / "api" / "index.html").read_text(encoding="utf-8")
    for text in ("How long a search may run", "A position. Mutable", "Search <code>state</code> and return"):
        assert text in api, text
    assert (site / "rules" / "kreuzundquer" / "index.html").is_file()
