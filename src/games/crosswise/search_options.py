"""The options of Crosswise's own searches (src/games/crosswise/*.pxi,
behind `CrosswiseState.native_search`), declared once with their defaults.
`search_api.search` checks them and completes them; the compiled core
reads them as given. Light: imports no compiled code."""

from __future__ import annotations

from crossridor.engine.options import C_INT, FLAG, ROOT_OPTIONS, Param

# ismcts is a determinized search (PIMC): root_k 30 with halving and infer 2
# measured stronger than root_k 12 alone (docs/measurements.md, Crosswise);
# the bounds fit the C ints they go into.
ISMCTS = (
    Param("root_k", (int, 0, C_INT), 30, "root candidates: the best by one-move gain plus every win and "
          "six block (0: every move)"),
    Param("halving", FLAG, 1, "spend the budget in phases, keeping the better half of the root moves "
          "after each (sequential halving)"),
    Param("infer", (int, 0, 64), 2, "redeal the hidden tiles until the other team's last N moves are "
          "the greedy ones for the dealt hands (0: off)"),
    *ROOT_OPTIONS,
)

OPTIONS: dict[str, tuple[Param, ...]] = {"ismcts": ISMCTS, "greedy": ROOT_OPTIONS, "random": ()}
