"""The options of Quoridor's own searches (alpha-beta, greedy and MCTS in C:
src/games/quoridor/search.pxi, mcts.pxi), declared once with their
defaults. `search_api.search` checks them and completes them; the compiled
core reads them as given. Light: imports no compiled code."""

from __future__ import annotations

from crossridor.engine.options import CALLABLE_OR_NONE, ROOT_OPTIONS, Param
from crossridor.engine.protocol import SearchMemory

# The evaluation's weights and the walls per player are bounded so that no
# evaluation reaches the forced-win band (S_WIN_BOUND = 99000): at most
# 100 * 81 (paths) + 2 * MAX_WEIGHT * MAX_WALLS + 2500 (race) + MAX_WEIGHT (tempo).
MAX_WEIGHT = 400
WIN_BAND = 99000
MAX_THREADS = 256       # threads of a Lazy SMP search
MAX_HASH_MB = 65536

# Where eval=auto: the algorithms whose default is the learned evaluation,
# on the boards the shipped weights were measured stronger on ((size as the
# option spells it, 9 or '4x7'; walls per player), 2 players); an algorithm
# goes in here once the learned evaluation is measured stronger with it
# (docs/learning.md).
LEARNED_BY_DEFAULT = ("alphabeta",)
LEARNED_BOARDS = ((9, 10), (7, 10), (5, 10))

# the classic evaluation's weights (src/games/quoridor/eval.pxi: S_WALL,
# S_TEMPO, S_LONE_WALL, exported as _core.Q_CLASSIC_EVAL_WEIGHTS; a test holds
# them equal)
CLASSIC_WEIGHT_OPTIONS = (
    Param("wall_value", (int, 0, MAX_WEIGHT), 100,
          "classic evaluation: centi-steps per wall in hand (112 with 4 players on 9x9 with 5 walls each; a "
          "change from the default selects eval=classic under eval=auto)"),
    Param("tempo", (int, 0, MAX_WEIGHT), 40,
          "classic evaluation: centi-steps for having the move (15 with 4 players on 9x9 with 5 walls each)"),
    Param("lone_wall_value", (int, 0, MAX_WEIGHT), 100,
          "classic evaluation: extra centi-steps per wall in hand against a player with none"),
)
# 4 players' own defaults of those weights on the boards ((size, walls per
# player)) where they were fitted to 4-player results and measured stronger
# than the 2-player ones (docs/measurements.md); handed to the doors by
# QuoridorState.option_defaults
FOUR_PLAYER_CLASSIC_WEIGHTS = {"wall_value": 112, "tempo": 15}
FOUR_PLAYER_BOARDS = ((9, 5),)
EVAL = Param("eval", ("auto", "classic", "learned"), "auto",
             "the evaluation: classic (paths, walls, tempo) or learned (crossridor train's weights); auto: "
             "learned with eval_file, or for alphabeta on 2-player 9x9 and 7x7 boards with 10 walls each "
             "(where the shipped weights measured stronger) unless a classic weight is changed; classic elsewhere")
EVAL_FILE = Param("eval_file", str, None, "learned weights to read (crossridor train --out), for eval=learned",
                  file=True)
TABLE = Param("table", str, None, "a solved table (crossridor solve --write-table): a position it holds "
              "is answered with its perfect move", file=True)

ALPHABETA = (
    Param("hash", (int, 0, MAX_HASH_MB), 16, "transposition table size in MB (0: no table)", budget=True),
    Param("threads", (int, 1, MAX_THREADS), 1, "Lazy SMP threads (1: one thread, deterministic)", budget=True),
    Param("prune_walls", bool, True,
          "below the root (with 2 players: from the second ply on 7x7, the fourth on 9x9, never on 5x5 and "
          "smaller), try only the walls that block an opponent's shortest path; false tries every wall (slower, "
          "but finds defences by walls that block no path yet)"),
    EVAL, EVAL_FILE, *CLASSIC_WEIGHT_OPTIONS, TABLE,
    Param("on_iteration", CALLABLE_OR_NONE, None, "f(SearchResult) after every finished depth",
          python_only=True),
    Param("memory", SearchMemory, None, "the game's search memory (search_api.search_memory): the table "
          "kept from one move to the next", python_only=True),
    *ROOT_OPTIONS,
)
GREEDY = (EVAL, EVAL_FILE, *CLASSIC_WEIGHT_OPTIONS, TABLE, *ROOT_OPTIONS)
MCTS = (
    Param("rollout", ("eval", "random"), "eval",
          "leaf values: eval = rollout_depth random plies, then the evaluation; random = random play to the end"),
    Param("c", (float, 0.0, 100.0), 1.0, "UCB1 exploration constant"),
    Param("widening", (float, 0.01, 100.0), 1.5,
          "progressive widening: a node with n visits tries its first 2 + widening * sqrt(n) moves "
          "in move-ordering order"),
    Param("rollout_depth", (int, 0, 1000), 0, "rollout=eval: random plies before the evaluation"),
    EVAL, EVAL_FILE, TABLE, *ROOT_OPTIONS,
)

OPTIONS: dict[str, tuple[Param, ...]] = {"alphabeta": ALPHABETA, "greedy": GREEDY, "mcts": MCTS}
