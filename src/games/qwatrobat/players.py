"""Qwatrobat's own searches, behind `state.native_search`: the exact solver
(`solver`) for the open game in play, the greedy player, and the generic
ISMCTS with the game's defaults (the layout from the table of `setups`, leaves
valued by `endgame_evaluator`, a one-ply tree)."""

from __future__ import annotations

import dataclasses
import random
import time as _time

from crossridor.engine.errors import UnsupportedGameError
from crossridor.engine.protocol import CHANCE, TERMINAL, Line, SearchResult
from crossridor.engine.stop import stopped
from crossridor.games.qwatrobat.rules import First, Push, Setup
from crossridor.games.qwatrobat.setups import SETUP_VALUES, ranked_setups, table_setup
from crossridor.games.qwatrobat.solver import SolverStopped, solve, solve_value

TREE_DEPTH = 1      # the ISMCTS tree's depth unless the limits set one (see `ismcts_search`)


def native_search(state, algorithm, limits, seed, options, plan):
    """alphabeta: the exact solver (open game in play); greedy: one-round
    lookahead; ismcts: `ismcts_search`; with the options of
    search_options.OPTIONS (complete and checked). NotImplemented: the
    generic module plays it."""
    if algorithm == "alphabeta":
        if not state.game.open:
            from crossridor.engine.algorithms.alphabeta import check_game
            check_game(state.game.traits)     # hidden cards: refused, as the generic alpha-beta does
        if state.current_player in (CHANCE, TERMINAL) or state.layout[1] is None:
            raise UnsupportedGameError(
                "qwatrobat: the exact solver works from the start of play (both layouts down, "
                "first player known); the setup is a simultaneous secret choice")
        return solve(state, objective=options["objective"], multipv=options["multipv"],
                     searchmoves=options["searchmoves"])
    if algorithm == "greedy":
        return greedy_search(state, seed, options["samples"], limits.time, options["multipv"],
                             options["searchmoves"])
    if algorithm == "ismcts":
        return ismcts_search(state, limits, seed, options)
    return NotImplemented


def ismcts_search(state, limits, seed, options):
    """The generic ISMCTS with the game's defaults: the layout from the
    table of `setups` (option setup=table, among the `setup_top` best)
    or by the tree (setup=search), and with endgame=N > 0 (default 10)
    leaves valued by `endgame_evaluator` once N pushes or fewer are left
    (unless rollout or evaluator say otherwise).
    The tree is TREE_DEPTH decision plies deep unless the limits set a
    depth (a deeper tree averages over its own exploratory replies below
    each push and undervalues the pushes that need a precise follow-up;
    `--depth` is the knob for a deeper one).
    multipv > 1 or searchmoves with setup=table: the layouts (among
    searchmoves) best by the table's value, the best one played (no draw:
    the lines rank what the table knows)."""
    from crossridor.engine.algorithms import ismcts
    opts = dict(options)
    own = {k: opts.pop(k) for k in ("setup", "setup_top", "endgame")}
    p = state.current_player
    if own["setup"] == "table" and p >= 0 and state.layout[p] is None:
        t0 = _time.perf_counter()
        if opts["multipv"] == 1 and opts["searchmoves"] is None:
            mv = table_setup(state.game, own["setup_top"], random.Random(seed))
            lines = ()
        else:
            lines = table_lines(state.game, opts["multipv"], opts["searchmoves"])
            mv = lines[0].move if lines else None
        if mv is not None:
            dt = _time.perf_counter() - t0
            return SearchResult(move=mv, score=lines[0].score if lines else 0.0, depth=0, nodes=1, seconds=dt,
                                nps=1 / dt if dt > 0 else 0.0, pv=(mv,), extra={"setup": "table"}, lines=lines)
    if own["endgame"] and opts["rollout"] == "auto" and opts["evaluator"] is None:
        rng = random.Random(seed)
        n = own["endgame"]
        opts["evaluator"] = lambda st: endgame_evaluator(st, exact_pushes=n, rng=rng)
    if limits.depth is None:
        limits = dataclasses.replace(limits, depth=TREE_DEPTH)
    return ismcts.search(state, limits, seed=seed, **opts)


def table_lines(game, multipv: int, searchmoves) -> tuple[Line, ...]:
    """The `multipv` best layouts of the setup table (only those of
    `searchmoves` when given), each scored by its table value (the mean
    result against a random layout); () when the rules are not the table's."""
    ranked = ranked_setups(game)
    if ranked is None:
        return ()
    if searchmoves is not None:
        asked = {str(m) for m in searchmoves}
        ranked = [t for t in ranked if t in asked]
    return tuple(Line(Setup.parse(t), SETUP_VALUES[t], 0, (Setup.parse(t),), {"setup": "table"})
                 for t in ranked[:multipv])


# ----------------------------------------------------------------------------- greedy player


def greedy_search(state, seed, samples: int, time_limit: float | None = None, multipv: int = 1,
                  searchmoves=None) -> SearchResult:
    """One-round lookahead: for each push, the average points won minus lost
    this round, over `samples` sampled hidden cards and random pushes for
    the rest of the round. Setup: a layout drawn at random among the distinct ones
    (one line: a draw ranks nothing).
    crossridor.stop() or time_limit seconds end the sampling early: the
    pushes are then ranked by the samples they had (a push with none is
    not chosen), so `samples` cannot make a search outlast its limit.
    `lines`: the `multipv` best pushes by that estimate (the chosen one,
    then the others by value, ties in column order); `searchmoves`: only
    those moves are considered."""
    t0 = _time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    rng = random.Random(seed)
    p = state.current_player
    moves = state.legal_moves() if searchmoves is None else list(searchmoves)
    if p == CHANCE:
        raise UnsupportedGameError("qwatrobat: greedy does not play chance moves")
    if not isinstance(moves[0], Push):
        mv = rng.choice(moves)
        dt = _time.perf_counter() - t0
        return SearchResult(move=mv, score=0.0, depth=0, nodes=1, seconds=dt, nps=0.0, pv=(mv,))
    nodes = 0
    best, best_v = None, None
    valued = []
    cut = False
    for mv in moves:
        total, done = 0.0, 0
        for _ in range(samples):
            if stopped() or (deadline is not None and _time.perf_counter() >= deadline):
                cut = True
                break
            s = state.sample_determinization(p, rng)
            rnd, before = s.round, list(s.scores)
            s.play(mv)
            nodes += 1
            while not s.is_terminal() and s.round == rnd:
                s.play(rng.choice(s.legal_moves()))
                nodes += 1
            total += (s.scores[p] - before[p]) - (s.scores[1 - p] - before[1 - p])
            done += 1
        if done:
            valued.append((mv, total / done))
        if done and (best_v is None or total / done > best_v + 1e-12):
            best, best_v = mv, total / done
        if cut:
            break
    if best is None:          # stopped before the first sample: any push
        best, best_v = moves[0], 0.0
    dt = _time.perf_counter() - t0
    assert best_v is not None
    rest = sorted(((m, v) for m, v in valued if m != best), key=lambda mv: -mv[1])   # stable: column order
    lines = tuple(Line(m, float(v), 1, (m,)) for m, v in [(best, best_v), *rest][:multipv])
    return SearchResult(move=best, score=float(best_v), depth=1, nodes=nodes, seconds=dt,
                        nps=nodes / dt if dt > 0 else 0.0, pv=(best,), lines=lines)


# ----------------------------------------------------------------------------- rollout evaluator


_EVAL_RNG = random.Random(20061)


def endgame_evaluator(state, exact_pushes: int = 10, rng=None) -> list:
    """A leaf value for MCTS/ISMCTS on a full (determinized) state: missing
    layouts and the first player are drawn at random, pushes are played at
    random until `exact_pushes` remain, then the exact solver gives the
    result with both sides playing perfectly (open information from there).
    Use as `crossridor.search(..., algorithm="ismcts", evaluator=endgame_evaluator)`."""
    rng = rng or _EVAL_RNG
    if state.is_terminal():
        return state.returns()
    s = state.clone()
    g = s.game
    while s.current_player != TERMINAL:
        p = s.current_player
        if p == CHANCE:
            s.play(First(rng.randrange(2)))
        elif s.layout[p] is None:
            s.play(rng.choice(g.setups()))
        else:
            left = sum(s.rem[0]) + sum(s.rem[1])
            if left <= exact_pushes:
                break
            moves = s.legal_moves()
            s.play(moves[rng.randrange(len(moves))])
    if s.is_terminal():
        return s.returns()
    try:
        v = solve_value(s)
    except SolverStopped:        # crossridor.stop(): the search ends at its next check
        return s.evaluate()
    return [v, -v]
