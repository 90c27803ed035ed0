"""Helpers shared by the pure-Python search modules: root checks, game
traits, move lists, the MCTS options and the random-playout step (options
are checked by engine.options). Imports no game."""

from __future__ import annotations

import math
import random
import time

from crossridor.engine.errors import CrossridorError
from crossridor.engine.options import C_LLONG, CALLABLE_OR_NONE, Param
from crossridor.engine.protocol import CHANCE, TERMINAL, GameTraits, Limits, Line, SearchResult
from crossridor.engine.stop import stopped

__all__ = [
    "CHANCE", "TERMINAL", "now", "traits_of", "check_root", "move_list", "sample_chance",
    "evaluator_for", "deadline_of", "tree_setup", "backup", "tree_result", "ranked_lines", "EVALUATOR",
    "MCTS_OPTIONS", "root_filter",
]

now = time.perf_counter


def traits_of(state) -> GameTraits:
    """The traits of the game `state` belongs to."""
    game = getattr(state, "game", None)
    traits = getattr(game, "traits", None)
    if not isinstance(traits, GameTraits):
        raise CrossridorError("state has no game.traits; it does not implement the game protocol")
    return traits


# --- roots, moves, chance --------------------------------------------------------

def check_root(algorithm: str, state) -> int:
    """The player to move at the root; refuses finished games and chance roots."""
    player = state.current_player
    if player == TERMINAL or state.is_terminal():
        raise CrossridorError("cannot search a finished game")
    if player == CHANCE:
        raise CrossridorError(f"{algorithm}: cannot search at a chance node; "
                              "play a chance outcome first")
    return player


def move_list(state) -> list:
    """`legal_moves()` as a list (games may return a lazy view)."""
    moves = state.legal_moves()
    return moves if type(moves) is list else list(moves)


def sample_chance(state, rng):
    """A chance outcome drawn by its probability, using `rng`."""
    outcomes = state.chance_outcomes()
    x = rng.random()
    acc = 0.0
    for move, p in outcomes:
        acc += p
        if x < acc:
            return move
    return outcomes[-1][0]   # rounding: probabilities summing to 1 - eps


EVALUATOR = Param("evaluator", CALLABLE_OR_NONE, None,
                  "f(state) -> per-player estimates in return units, in place of state.evaluate()",
                  python_only=True)


def evaluator_for(state, evaluator):
    """The evaluation function to use: the `evaluator` option, else the
    state's own `evaluate()`, else None."""
    if evaluator is not None:
        return evaluator
    if callable(getattr(state, "evaluate", None)):
        return lambda s: s.evaluate()
    return None


def deadline_of(limits: Limits, start: float) -> float | None:
    return None if limits.time is None else start + limits.time


# --- MCTS pieces shared by mcts and ismcts ----------------------------------------

MCTS_OPTIONS = (
    Param("c", (float, 0.0, 100.0), math.sqrt(2), "UCB1 exploration constant (returns scaled to [0, 1])"),
    Param("rollout", ("auto", "random", "eval"), "auto",
          "leaf values: random = random play to the end; eval = rollout_depth random plies, then "
          "the evaluation; auto = eval with an evaluator, else random"),
    Param("rollout_depth", (int, 0, C_LLONG), 0, "rollout=eval: random plies before the evaluation"),
    EVALUATOR,
)


def root_filter(opts: dict):
    """The root moves a search may play (`searchmoves`) as a set, or None
    for all of them."""
    moves = opts["searchmoves"]
    return None if moves is None else set(moves)


def ranked_lines(stats, multipv: int) -> tuple[Line, ...]:
    """The `multipv` lines of a tree's root: `stats` lists (move, visits,
    mean return of the mover, line) per root move in expansion order; the
    most visited first, ties by the higher mean, then expansion order (the
    order the tree's own choice of a move follows). Moves never visited
    are left out."""
    ranked = sorted((s for s in stats if s[1] > 0), key=lambda s: (-s[1], -s[2]))
    return tuple(Line(move, float(mean), len(line), tuple(line), {"visits": n})
                 for move, n, mean, line in ranked[:multipv])


def rollout_evaluation(algorithm: str, opts: dict, state):
    """The function that values a rollout's cut-off (None: random play to
    the end), from the checked options rollout and evaluator."""
    rollout = opts["rollout"]
    if opts["evaluator"] is not None:
        if rollout == "random":
            raise CrossridorError(f"{algorithm}: option 'evaluator' needs rollout='eval', not 'random'")
        rollout = "eval"
    if rollout != "eval":
        return None
    evalf = evaluator_for(state, opts["evaluator"])
    if evalf is None:
        raise CrossridorError(f"{algorithm}: option rollout='eval' needs state.evaluate() "
                              "or an 'evaluator' option")
    return evalf


def sim_budget(algorithm: str, limits: Limits) -> int:
    """Simulations allowed: `sims` and `nodes` (= simulations) both cap it."""
    caps = [v for v in (limits.sims, limits.nodes) if v is not None]
    if not caps and limits.time is None:
        raise CrossridorError(f"{algorithm}: limits need sims, nodes or time "
                              "(depth alone only bounds the tree)")
    return min(caps) if caps else 1 << 62


class Timeout(Exception):
    """A rollout ran past the deadline."""


def rollout(st, rng, evalf, rollout_depth: int, deadline) -> tuple[list, int]:
    """Play from `st` to the end with uniformly random moves (chance by its
    probabilities), or, when `evalf` is given, for at most `rollout_depth`
    plies and then evaluate. Returns (returns vector, plies played); the
    caller undoes the plies. Raises Timeout (after undoing) past `deadline`."""
    played = 0
    limit = rollout_depth if evalf is not None else -1
    randrange = rng.randrange
    while True:
        p = st.current_player
        if p == TERMINAL:
            return list(st.returns()), played
        if played == limit:
            return list(evalf(st)), played
        if not (played & 31) and played and (stopped() or (deadline is not None and now() >= deadline)):
            for _ in range(played):
                st.undo()
            raise Timeout
        if p == CHANCE:
            st.play(sample_chance(st, rng))
        else:
            moves = st.legal_moves()
            st.play(moves[randrange(len(moves))])
        played += 1


def tree_setup(traits: GameTraits, limits: Limits, seed: int | None) -> tuple:
    """What MCTS and ISMCTS set up alike: (rng, lo, span, max_depth, start,
    deadline): the seeded generator, the return range UCB scales to [0, 1],
    the tree depth cap and the clock."""
    lo = traits.min_return
    span = (traits.max_return - lo) or 1.0
    max_depth = limits.depth if limits.depth is not None else 1 << 30
    start = now()
    return random.Random(seed), lo, span, max_depth, start, deadline_of(limits, start)


def backup(path, ret) -> None:
    """Add one simulation's return vector to the nodes (or edges) it went
    through: a visit and the returns summed per player."""
    for x in path:
        x.n += 1
        w = x.w
        for i in range(len(w)):
            w[i] += ret[i]


def tree_result(move, score: float, sims: int, seconds: float, pv: tuple, tree_nodes: int,
                tree_depth: int, lines: tuple[Line, ...] = ()) -> SearchResult:
    """The SearchResult of a tree search: nodes are simulations."""
    return SearchResult(
        move=move, score=score, depth=tree_depth, nodes=sims, seconds=seconds,
        nps=sims / seconds if seconds > 0 else 0.0, pv=pv, lines=lines,
        extra={"sims": sims, "tree_nodes": tree_nodes, "tree_depth": tree_depth})
