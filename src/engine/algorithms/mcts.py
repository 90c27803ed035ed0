"""Monte-Carlo tree search (UCT) over the game protocol (imports no game).

Every tree node keeps the visit count and the sum of the *return vector*
(one component per player) of the simulations through it; at a node where
player p moves, p picks the child maximising their own mean return plus the
UCB1 bonus, so n-player and non-zero-sum games need nothing special. Means
are rescaled to [0, 1] with the game's min/max return before the bonus
``c * sqrt(ln N / n)`` is added. Chance nodes are tree nodes whose outcome
is drawn by its probability. One node is added per simulation; untried moves
are tried in a seeded random order.

Leaves are valued by a random rollout to the end of the game (default), or,
with ``rollout="eval"``, by random play for ``rollout_depth`` plies followed
by ``evaluate()`` (or the ``evaluator`` option, a callable(state) ->
list[float] per-player estimate in return units).

Limits: ``sims`` and ``nodes`` (one node = one simulation) exactly, ``time``
(checked between simulations and every 32 rollout plies; a simulation cut
by the clock is discarded), ``depth`` = the deepest tree level (in decision
plies; chance events do not count) that may get nodes. At least one of sims,
nodes, time is needed.

Result: the most visited root move (ties: higher mean, then first expanded);
``score`` is its mean return for the player to move; ``pv`` the most visited
line (stopping at a chance node); ``extra`` holds ``sims``, ``tree_nodes``,
``tree_depth``. Deterministic for a given ``seed`` (``random.Random(seed)``).
``lines`` (``multipv=N``): the N most visited root moves in that order, each
with its mean return for the player to move, its visits
(``extra["visits"]``) and its most visited line; a less visited move may
have the higher mean (fewer simulations, less trusted), so the scores need
not decrease. ``searchmoves``: the root expands and selects only those moves.

Options: `OPTIONS` (c, rollout, rollout_depth, evaluator, multipv,
searchmoves; an evaluator implies rollout="eval").
"""

from __future__ import annotations

import math

from crossridor.engine.algorithms.common import (
    MCTS_OPTIONS,
    Timeout,
    backup,
    check_root,
    move_list,
    now,
    ranked_lines,
    rollout,
    rollout_evaluation,
    root_filter,
    sample_chance,
    sim_budget,
    traits_of,
    tree_result,
    tree_setup,
)
from crossridor.engine.errors import UnsupportedGameError
from crossridor.engine.options import ROOT_OPTIONS
from crossridor.engine.protocol import CHANCE, TERMINAL, GameTraits, Limits, SearchResult
from crossridor.engine.stop import stopped

__all__ = ["search", "check_game", "Node", "OPTIONS"]

OPTIONS = (*MCTS_OPTIONS, *ROOT_OPTIONS)


def check_game(traits: GameTraits) -> None:
    if traits.hidden_information:
        raise UnsupportedGameError(
            f"mcts cannot search {traits.name!r}: it has hidden information (use ismcts)")


class Node:
    __slots__ = ("player", "depth", "children", "untried", "n", "w")

    def __init__(self, player: int, depth: int, num_players: int):
        self.player = player          # who moves here (or CHANCE / TERMINAL)
        self.depth = depth            # decision plies from the root
        self.children: dict = {}      # move -> Node, in expansion order
        self.untried: list | None = None
        self.n = 0
        self.w = [0.0] * num_players  # sum of return vectors

    def mean(self, player: int) -> float:
        return self.w[player] / self.n if self.n else 0.0


def best_child(node: Node):
    """(move, child) most visited; ties by higher mean for the mover, then
    expansion order."""
    p = node.player
    best = None
    for item in node.children.items():
        c = item[1]
        if best is None or c.n > best[1].n or (c.n == best[1].n and c.mean(p) > best[1].mean(p)):
            best = item
    return best


def principal_line(root: Node) -> tuple:
    line = []
    node = root
    while node.player >= 0 and node.children:
        move, child = best_child(node)
        if child.n == 0:
            break
        line.append(move)
        node = child
    return tuple(line)


def tree_stats(root: Node) -> tuple[int, int]:
    """(number of nodes, deepest decision depth)."""
    count, deepest = 0, 0
    stack = [root]
    while stack:
        node = stack.pop()
        count += 1
        deepest = max(deepest, node.depth)
        stack.extend(node.children.values())
    return count, deepest


def search(state, limits: Limits, seed: int | None = None, **opts) -> SearchResult:
    """`opts`: every option of `OPTIONS`, checked."""
    evalf = rollout_evaluation("mcts", opts, state)
    traits = traits_of(state)
    check_game(traits)
    budget = sim_budget("mcts", limits)
    check_root("mcts", state)
    st = state.clone()
    n_players = traits.num_players
    c = opts["c"]
    rdepth = opts["rollout_depth"]
    allowed = root_filter(opts)
    rng, lo, span, max_depth, start, deadline = tree_setup(traits, limits, seed)
    log = math.log
    sqrt = math.sqrt

    root = Node(st.current_player, 0, n_players)
    sims = 0
    while sims < budget:
        if deadline is not None and sims and now() >= deadline:
            break
        if stopped():
            break
        node = root
        path = [root]
        played = 0
        # selection and expansion
        while True:
            p = node.player
            if p == TERMINAL or node.depth >= max_depth:
                break
            if p == CHANCE:
                m = sample_chance(st, rng)
                st.play(m)
                played += 1
                child = node.children.get(m)
                if child is None:
                    child = node.children[m] = Node(st.current_player, node.depth, n_players)
                    path.append(child)
                    break
                node = child
                path.append(child)
                continue
            if node.untried is None:
                node.untried = move_list(st)[:]
                if allowed is not None and node is root:
                    node.untried = [m for m in node.untried if m in allowed]
                rng.shuffle(node.untried)
            if node.untried:
                m = node.untried.pop()
                st.play(m)
                played += 1
                child = node.children[m] = Node(st.current_player, node.depth + 1, n_players)
                path.append(child)
                break
            # UCB1 over the children, on the mover's own mean return
            k = c * sqrt(log(node.n)) if node.n > 1 else 0.0
            best_m, best_v, best_c = None, -math.inf, None
            for m, ch in node.children.items():
                v = (ch.w[p] / ch.n - lo) / span + k / sqrt(ch.n)
                if v > best_v:
                    best_m, best_v, best_c = m, v, ch
            st.play(best_m)
            played += 1
            assert best_c is not None         # a node with children has a best one
            node = best_c
            path.append(node)
        # evaluation
        try:
            ret, extra = rollout(st, rng, evalf, rdepth, deadline)
        except Timeout:
            for _ in range(played):
                st.undo()
            break
        for _ in range(played + extra):
            st.undo()
        backup(path, ret)
        sims += 1

    mover = root.player
    seconds = now() - start
    count, deepest = tree_stats(root)
    best = best_child(root)
    if best is None or best[1].n == 0:
        move, score = move_list(st)[0] if allowed is None else opts["searchmoves"][0], 0.0
    else:
        move, score = best[0], best[1].mean(mover)
    lines = ranked_lines([(m, ch.n, ch.mean(mover), (m, *principal_line(ch))) for m, ch in root.children.items()],
                         opts["multipv"])
    return tree_result(move, score, sims, seconds, principal_line(root), count, deepest, lines)
