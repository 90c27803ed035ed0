"""The engine's own search algorithms as registry entries: alphabeta, mcts,
ismcts, random and greedy, each searching any game through the protocol
(a game may add a fast path of its own, see `GameEntry.options`)."""

from __future__ import annotations

from crossridor.engine.algorithms import alphabeta, common, greedy, ismcts, mcts, random_player
from crossridor.engine.options import CALLABLE_OR_NONE
from crossridor.engine.registry import AlgorithmEntry, register_algorithm
from crossridor.engine.schema_params import params_from_schema

# The options of each algorithm, from the schemas its module checks.
_ISMCTS_BIAS = {"prior": CALLABLE_OR_NONE, "prior_weight": (float, 0.0, 1e6), "utility": CALLABLE_OR_NONE}
ALPHABETA_OPTIONS = params_from_schema(alphabeta.SCHEMA, alphabeta.DEFAULTS)
MCTS_OPTIONS = params_from_schema(common.MCTS_SCHEMA, common.MCTS_DEFAULTS)
ISMCTS_OPTIONS = MCTS_OPTIONS + params_from_schema(_ISMCTS_BIAS, {"prior_weight": 1.0})
GREEDY_OPTIONS = params_from_schema(greedy.SCHEMA, greedy.DEFAULTS)

ENTRIES = (
    AlgorithmEntry("alphabeta", alphabeta.search, ALPHABETA_OPTIONS,
                   "negamax alpha-beta with iterative deepening (expectimax at chance; paranoid with more "
                   "than two players); perfect information", alphabeta.check_game),
    AlgorithmEntry("mcts", mcts.search, MCTS_OPTIONS,
                   "Monte-Carlo tree search (UCT) over return vectors; perfect information", mcts.check_game),
    AlgorithmEntry("ismcts", ismcts.search, ISMCTS_OPTIONS,
                   "information-set MCTS: every game, hidden information included", ismcts.check_game),
    AlgorithmEntry("random", random_player.search, (), "a uniformly random legal move (seeded)",
                   random_player.check_game),
    AlgorithmEntry("greedy", greedy.search, GREEDY_OPTIONS,
                   "one ply: the move whose position evaluates best for the mover", greedy.check_game),
)

for _entry in ENTRIES:
    register_algorithm(_entry)
