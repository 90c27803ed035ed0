"""A griffe extension for the API reference (mkdocs.yml loads it).

The package `crossridor` is built from three source folders (pyproject.toml's
`wheel.packages`): src/crossridor, src/engine as `crossridor.engine` and
src/games as `crossridor.games`. In an installed wheel they sit below one
folder and griffe finds them; in an editable install they do not, so griffe
would miss `crossridor.engine`. This extension reads those subpackages from
the folders Python imports them from (`importlib.util.find_spec`), with
griffe's own static analysis."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import griffe

SUBPACKAGES = ("engine", "games")


class InstalledSubpackages(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if pkg.name != "crossridor":
            return
        for name in SUBPACKAGES:
            if name in pkg.members:      # a regular install: griffe found it on disk
                continue
            spec = importlib.util.find_spec(f"{pkg.name}.{name}")
            if spec is None or spec.origin is None:
                continue
            folder = Path(spec.origin).parent     # its __init__.py; compiled parts may be elsewhere
            pkg.set_member(name, _visit_package(name, folder, pkg, loader))


def _visit(name: str, path: Path, parent: griffe.Module, loader: griffe.GriffeLoader) -> griffe.Module:
    code = path.read_text(encoding="utf-8")
    loader.lines_collection[path] = code.splitlines()
    return griffe.visit(name, filepath=path, code=code, parent=parent, extensions=loader.extensions,
                        docstring_parser=loader.docstring_parser, docstring_options=loader.docstring_options,
                        lines_collection=loader.lines_collection, modules_collection=loader.modules_collection)


def _visit_package(name: str, folder: Path, parent: griffe.Module, loader: griffe.GriffeLoader) -> griffe.Module:
    package = _visit(name, folder / "__init__.py", parent, loader)
    for child in sorted(folder.iterdir()):
        if child.suffix == ".py" and child.stem != "__init__":
            package.set_member(child.stem, _visit(child.stem, child, package, loader))
        elif child.is_dir() and (child / "__init__.py").is_file():
            package.set_member(child.name, _visit_package(child.name, child, package, loader))
    return package
