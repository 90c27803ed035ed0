"""The engine's own search algorithms as registry entries: alphabeta, mcts,
ismcts, random and greedy, each searching any game through the protocol
(a game may add a fast path of its own, see `GameEntry.options`)."""

from __future__ import annotations

from crossridor.engine.algorithms import alphabeta, greedy, ismcts, mcts, random_player
from crossridor.engine.registry import AlgorithmEntry, register_algorithm

ENTRIES = (
    AlgorithmEntry("alphabeta", alphabeta.search, alphabeta.OPTIONS,
                   "negamax alpha-beta with iterative deepening (expectimax at chance; paranoid with more "
                   "than two players); perfect information", alphabeta.check_game),
    AlgorithmEntry("mcts", mcts.search, mcts.OPTIONS,
                   "Monte-Carlo tree search (UCT) over return vectors; perfect information", mcts.check_game),
    AlgorithmEntry("ismcts", ismcts.search, ismcts.OPTIONS,
                   "information-set MCTS: every game, hidden information included", ismcts.check_game),
    AlgorithmEntry("random", random_player.search, random_player.OPTIONS, "a uniformly random legal move (seeded)",
                   random_player.check_game),
    AlgorithmEntry("greedy", greedy.search, greedy.OPTIONS,
                   "one ply: the move whose position evaluates best for the mover", greedy.check_game),
)

for _entry in ENTRIES:
    register_algorithm(_entry)
