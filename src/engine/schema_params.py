"""Declared options (`Param`s) from the option schemas the searches check
(`{name: kind}` and `{name: default}` dicts, engine/options.py), with one
line of documentation each, for the registry's entries. `LazyOptions`
builds a game's per-algorithm options on first use, so that a game's entry
stays light (Quoridor's schemas live beside its compiled core)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from crossridor.engine.options import CALLABLE_OR_NONE, FILE_OPTIONS, Param

# options that bound a search's memory or work (a server caps them)
BUDGET_OPTIONS = frozenset({"hash", "threads", "samples", "setup_top"})

DOCS = {
    # generic searches
    "hash": "transposition table entries at most (0: no table)",
    "tt": "keep a transposition table",
    "evaluator": "a function state -> estimated returns, in place of state.evaluate()",
    "on_iteration": "a function called with the SearchResult of each finished depth",
    "c": "the UCT exploration constant",
    "rollout": "leaves valued by random playouts to the end (random) or by the evaluation (eval)",
    "rollout_depth": "random plies before a leaf is evaluated (rollout=eval; 0: at once)",
    "prior": "a function state -> favoured move, a progressive bias of the tree",
    "prior_weight": "the weight of the prior's bias",
    "utility": "a function returns -> returns applied before each simulation is backed up",
    "random_ties": "break ties between equally good moves at random (seeded)",
    # Quoridor's compiled searches
    "threads": "Lazy SMP search threads (1: one thread, deterministic)",
    "prune_walls": "search only the walls near the pawns' paths",
    "lmr": "late-move reductions",
    "lmp": "late-move pruning",
    "rfp": "reverse futility pruning",
    "null_move": "null-move pruning",
    "wall_gain": "order walls by the path length they add to the opponent",
    "aspiration": "aspiration windows around the previous depth's score",
    "memory": "a search memory from search_memory(), handed from move to move of one game",
    "wall_value": "classic evaluation: the value of a wall in hand",
    "tempo": "classic evaluation: the value of being to move",
    "lone_wall_value": "classic evaluation: the value of the last wall in hand",
    "eval": "the evaluation: classic (hand-written) or learned (trained weights)",
    "eval_file": "a learned weights file in place of the shipped weights (eval=learned)",
    "widening": "progressive widening: how fast wall moves join the tree",
    "table": "a solved table's folder (solve --write-table): its perfect move where it holds the position",
    # Crosswise's determinized search
    "root_k": "root moves kept by the first pass (0: all)",
    "halving": "successive halving of the root moves between passes",
    "infer": "redeal hands that would not have played the opponents' recent moves, for this many moves",
    # Qwatrobat's searches
    "objective": "the exact solver's value: result (win/draw/loss) or margin (point difference)",
    "samples": "deals sampled per move by the one-round lookahead",
    "setup": "the secret layout: from the table of layout values (table) or chosen by the tree (search)",
    "setup_top": "the table's layout is drawn among this many best",
    "endgame": "leaves valued by the exact solver once this many pushes or fewer are left (0: playouts)",
    # Kreuz & Quer's prior
    "deny": "the prior's penalty on flips that may feed an opponent's path",
    "take_deny": "the prior's penalty on face-up takes that may feed an opponent's path",
}


def params_from_schema(schema: Mapping, defaults: Mapping | None = None,
                       docs: Mapping[str, str] | None = None) -> tuple[Param, ...]:
    """One Param per option of `schema`, with its default (None: not set)
    and its line of `docs` (else DOCS)."""
    defaults = defaults or {}
    out = []
    for name, kind in schema.items():
        doc = (docs or {}).get(name) or DOCS.get(name, "")
        python_only = kind is callable or kind == CALLABLE_OR_NONE or isinstance(kind, type) and kind not in (bool, str)
        out.append(Param(name, kind, defaults.get(name), doc, file=name in FILE_OPTIONS,
                         budget=name in BUDGET_OPTIONS, python_only=python_only))
    return tuple(out)


class LazyOptions(Mapping):
    """algorithm -> options, built by `build()` on first use."""

    def __init__(self, build: Callable[[], Mapping[str, tuple[Param, ...]]], algorithms: tuple[str, ...]):
        self._build = build
        self._keys = algorithms          # known without building
        self._built: Mapping[str, tuple[Param, ...]] | None = None

    def _options(self) -> Mapping[str, tuple[Param, ...]]:
        if self._built is None:
            self._built = self._build()
        return self._built

    def __getitem__(self, algorithm: str) -> tuple[Param, ...]:
        if algorithm not in self._keys:
            raise KeyError(algorithm)
        return self._options()[algorithm]

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, algorithm: object) -> bool:
        return algorithm in self._keys
