"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012,
"Information Set Monte Carlo Tree Search"), over the game protocol (imports
no game).

Each iteration draws a determinization ``state.sample_determinization(P,
rng)`` for the searching player P (games without hidden information are
simply cloned) and walks one tree with it. Tree nodes are reached by move
sequences; at a node the player to move in the determinization chooses
among the moves legal *in that determinization* by UCB with availability
counts: ``mean + c * sqrt(ln(avail) / n)``, where ``avail`` counts the
iterations in which the move was legal there (means rescaled to [0, 1] with
the game's min/max return). Statistics are return vectors, so each player
maximises their own component (n players, teams, non-zero-sum).

Chance events inside a determinization are drawn by their probabilities and
are not tree moves. What follows a move is split by what P observes: if the
next decision is P's, the next node is keyed by ``information_state(P)``
(so P's own draws and revealed cards branch the tree, hidden events do not);
in games without hidden information it is keyed by the chance outcomes drawn.
Opponents' moves are tree edges as in SO-ISMCTS.

Limits, options, rollouts and result as in `mcts`: sims / nodes exactly
(one node = one iteration), time, depth (deepest tree level that may get
nodes, in decision plies); options c, rollout, rollout_depth, evaluator,
and a progressive bias (Chaslot et al. 2008): ``prior`` = callable(state)
giving a favoured move (or None) for the player to move in a
determinization; that move is expanded first and its UCB value gets
``prior_weight / (n + 1)`` (default weight 1.0 when a prior is given).
Option ``utility`` = callable(returns) -> returns maps each simulation's
return vector before it is backed up (e.g. a draw worth less than half a
win to the searching player); the result's score is then in its units.
Only moves legal in the real position can be returned; ``pv`` lists the
most visited decision moves (chance events in between are not shown);
``extra["root"]`` maps each visited root move (as text) to its (visits,
mean return of the searching player). ``lines`` (``multipv=N``): the N most
visited root moves legal in the real position, as in `mcts` (visits in
``extra["visits"]``, ordered by visits, not by score). ``searchmoves``: in
every determinization only those of the searching player's root moves are
expanded and selected (its own moves are what it knows). Everything comes
from the searching player's view: the determinizations are drawn from its
information state, so the hidden cards of the others change no line.
"""

from __future__ import annotations

import math
from typing import Any

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
from crossridor.engine.options import CALLABLE_OR_NONE, ROOT_OPTIONS, Param
from crossridor.engine.protocol import CHANCE, GameTraits, Limits, SearchResult
from crossridor.engine.stop import stopped

__all__ = ["search", "check_game", "OPTIONS", "BIAS_OPTIONS"]

BIAS_OPTIONS = (
    Param("prior", CALLABLE_OR_NONE, None, "f(state) -> a favoured move (or None) for the player to move "
          "in a determinization: expanded first, with a progressive bias", python_only=True),
    Param("prior_weight", (float, 0.0, 1e6), 1.0, "the prior's bias: prior_weight / (n + 1) added to "
          "its UCB value"),
    Param("utility", CALLABLE_OR_NONE, None, "f(returns) -> returns, applied to each simulation's "
          "return vector before it is backed up", python_only=True),
)
OPTIONS = (*MCTS_OPTIONS, *BIAS_OPTIONS, *ROOT_OPTIONS)


def check_game(traits: GameTraits) -> None:
    """ISMCTS handles every game the protocol can describe (hidden
    information, chance, n players); the state must offer
    `sample_determinization` when the game has hidden information."""
    if traits.num_players < 1:
        raise UnsupportedGameError(f"ismcts cannot search {traits.name!r}: no players")


class _Node:
    __slots__ = ("depth", "edges", "player")

    def __init__(self, depth: int):
        self.depth = depth
        self.player = 0           # who moved here when last visited
        self.edges: dict = {}     # move -> _Edge, in expansion order


class _Edge:
    __slots__ = ("n", "avail", "w", "children")

    def __init__(self, num_players: int):
        self.n = 0
        self.avail = 0
        self.w = [0.0] * num_players
        self.children: dict = {}  # observation -> _Node


def _best_edge(node: _Node, player: int, allowed=None):
    best = None
    for m, e in node.edges.items():
        if allowed is not None and m not in allowed:
            continue
        if best is None or e.n > best[1].n or (
                e.n == best[1].n and e.n and e.w[player] / e.n > best[1].w[player] / best[1].n):
            best = (m, e)
    return best


def _next_node(edge: _Edge) -> _Node | None:
    """The most visited node under an edge (its most frequent observation)."""
    return max(edge.children.values(), key=lambda nd: sum(e.n for e in nd.edges.values()), default=None)


def _principal_line(at: _Node | None) -> tuple:
    """The most visited edge from `at`, then the most visited node under it,
    and so on."""
    pv: list = []
    while at is not None:
        be = _best_edge(at, at.player)
        if be is None or be[1].n == 0:
            break
        pv.append(be[0])
        at = _next_node(be[1])
    return tuple(pv)


def search(state, limits: Limits, seed: int | None = None, **opts) -> SearchResult:
    """`opts`: every option of `OPTIONS`, checked."""
    evalf = rollout_evaluation("ismcts", opts, state)
    prior, pw, utility = opts["prior"], opts["prior_weight"], opts["utility"]
    traits = traits_of(state)
    check_game(traits)
    budget = sim_budget("ismcts", limits)
    me = check_root("ismcts", state)
    hidden = traits.hidden_information
    if hidden and not callable(getattr(state, "sample_determinization", None)):
        raise UnsupportedGameError(f"ismcts cannot search {traits.name!r}: "
                                   "the state has no sample_determinization(player, rng)")
    if hidden and not callable(getattr(state, "information_state", None)):
        raise UnsupportedGameError(f"ismcts cannot search {traits.name!r}: "
                                   "the state has no information_state(player)")
    n_players = traits.num_players
    c = opts["c"]
    rdepth = opts["rollout_depth"]
    root_moves = move_list(state)
    allowed = root_filter(opts)
    rng, lo, span, max_depth, start, deadline = tree_setup(traits, limits, seed)
    log, sqrt = math.log, math.sqrt
    shared: Any = None if hidden else state.clone()

    root = _Node(0)
    sims = 0
    while sims < budget:
        if deadline is not None and sims and now() >= deadline:
            break
        if stopped():
            break
        d = state.sample_determinization(me, rng) if hidden else shared
        node = root
        path = []
        played = 0
        while node.depth < max_depth:
            p = d.current_player
            if p < 0:             # TERMINAL (chance is resolved below)
                break
            node.player = p
            moves = move_list(d)
            if allowed is not None and node is root:
                moves = [m for m in moves if m in allowed]
            edges = node.edges
            untried = []
            avail = []
            for m in moves:
                e = edges.get(m)
                if e is None or e.n == 0:
                    untried.append(m)
                else:
                    avail.append(e)
            fav = prior(d) if prior is not None else None
            expanding = bool(untried)
            if expanding:
                m = fav if fav in untried else untried[rng.randrange(len(untried))]
                edge = edges.get(m)
                if edge is None:
                    edge = edges[m] = _Edge(n_players)
                avail.append(edge)
            else:
                best_v, m, edge = -math.inf, None, None
                for mv in moves:
                    e = edges[mv]
                    v = (e.w[p] / e.n - lo) / span + c * sqrt(log(e.avail) / e.n)
                    if mv == fav:
                        v += pw / (e.n + 1)
                    if v > best_v:
                        best_v, m, edge = v, mv, e
            assert edge is not None       # the root and every node reached have moves
            for e in avail:
                e.avail += 1
            d.play(m)
            played += 1
            outcomes = []
            while d.current_player == CHANCE:
                o = sample_chance(d, rng)
                d.play(o)
                played += 1
                outcomes.append(o)
            path.append(edge)
            if not hidden:
                obs = tuple(outcomes)
            elif d.current_player == me:
                obs = d.information_state(me)
            else:
                obs = None
            child = edge.children.get(obs)
            if child is None:
                child = edge.children[obs] = _Node(node.depth + 1)
                expanding = True
            node = child
            if expanding:
                break
        try:
            ret, extra = rollout(d, rng, evalf, rdepth, deadline)
        except Timeout:
            break
        if not hidden:
            for _ in range(played + extra):
                d.undo()
        backup(path, ret if utility is None else utility(ret))
        sims += 1

    seconds = now() - start
    real = set(root_moves) if allowed is None else allowed
    best = _best_edge(root, me, real)
    if best is None or best[1].n == 0:
        move, score = root_moves[0] if allowed is None else opts["searchmoves"][0], 0.0
    else:
        move, score = best[0], best[1].w[me] / best[1].n
    lines = ranked_lines([(m, e.n, e.w[me] / e.n if e.n else 0.0, (m, *_principal_line(_next_node(e))))
                          for m, e in root.edges.items() if m in real], opts["multipv"])
    count, deepest, stack = 0, 0, [root]
    while stack:
        nd = stack.pop()
        count += 1
        deepest = max(deepest, nd.depth)
        for e in nd.edges.values():
            stack.extend(e.children.values())
    result = tree_result(move, score, sims, seconds, _principal_line(root), count, deepest, lines)
    # the root's statistics, for callers that combine several trees (root parallelism)
    result.extra["root"] = {str(m): (e.n, e.w[me] / e.n) for m, e in root.edges.items() if e.n}
    return result

