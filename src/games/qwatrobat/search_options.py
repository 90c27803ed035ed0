"""The options of Qwatrobat's own searches (`players.native_search`: the exact
solver, the greedy player, the generic ISMCTS with the game's defaults),
declared once with their defaults. `search_api.search` checks them and
completes them. Light: imports no search."""

from __future__ import annotations

import dataclasses

from crossridor.engine.algorithms.common import MCTS_OPTIONS
from crossridor.engine.algorithms.ismcts import BIAS_OPTIONS
from crossridor.engine.options import ROOT_OPTIONS, Param

SOLVER = (
    Param("objective", ("result", "margin"), "result",
          "what the exact solver maximises: the result (win, draw, loss), or the point margin"),
    *ROOT_OPTIONS,
)
GREEDY = (
    Param("samples", (int, 1, 100_000), 24, "sampled deals per push (the time limit may end the sampling "
          "earlier)"),
    *ROOT_OPTIONS,
)
ISMCTS = (
    *(dataclasses.replace(p, doc=p.doc + "; auto with endgame > 0 and no evaluator: the endgame evaluator")
      if p.name == "rollout" else p for p in MCTS_OPTIONS),
    *BIAS_OPTIONS,
    Param("setup", ("table", "search"), "table",
          "the layout: from the table of setups (among the setup_top best), or chosen by the tree search"),
    Param("setup_top", (int, 1, 1110), 4, "setup=table: draw the layout among this many best of the table"),
    Param("endgame", (int, 0, 20), 10, "value the leaves exactly once this many pushes or fewer are left, "
          "sampling the rest (0: off)"),
    *ROOT_OPTIONS,
)

OPTIONS: dict[str, tuple[Param, ...]] = {"alphabeta": SOLVER, "greedy": GREEDY, "ismcts": ISMCTS}
