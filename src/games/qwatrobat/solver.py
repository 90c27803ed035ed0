"""Qwatrobat's exact solver: alpha-beta with a transposition table over the
open game (both layouts known, from the start of play on). `solve` gives the
value and best move of a position (with multipv or searchmoves, the exact
value of every push asked for), `solve_value` its value for player 0."""

from __future__ import annotations

import time as _time
from functools import lru_cache

from crossridor.engine.errors import UnsupportedGameError
from crossridor.engine.protocol import CHANCE, Line, SearchResult
from crossridor.engine.stop import stopped
from crossridor.games.qwatrobat.rules import Push, resolve_field

_RESULT = {1: "win", 0: "draw", -1: "loss"}


@lru_cache(maxsize=None)
def _resolve_cached(field, clear_four, nvals):
    return resolve_field(field, clear_four, nvals)


class SolverStopped(Exception):
    """crossridor.stop() or Ctrl-C during the exact solver."""


class _Solver:
    """Alpha-beta with a transposition table over the open game.

    Position: (rem0, rem1) column counts as tuples, field sorted tuple,
    round, slot, first, diff = score0 - score1. Values are from player 0's
    point of view; player 0 maximises.
    """

    def __init__(self, game, layouts, objective: str):
        if objective not in ("result", "margin"):
            raise UnsupportedGameError(f"qwatrobat: objective must be 'result' or 'margin', got {objective!r}")
        self.g = game
        self.front = [layouts[0].front, layouts[1].front]
        self.back = [layouts[0].back, layouts[1].back]
        self.margin = objective == "margin"
        self.tt: dict = {}
        self.nodes = 0
        self.rest = [sum(game.points[r:]) for r in range(game.rounds + 1)]

    def final(self, diff):
        if self.margin:
            return diff
        return (diff > 0) - (diff < 0)

    def children(self, rem0, rem1, field, rnd, slot, first, diff):
        """(move col, child position) for the player to move; the player to move."""
        g = self.g
        p = first if slot % 2 == 0 else 1 - first
        rem = rem0 if p == 0 else rem1
        out = []
        for c in range(g.ncols):
            r = rem[c]
            if r == 0:
                continue
            card = self.front[p][c] if r == 2 else self.back[p][c]
            nrem = rem[:c] + (r - 1,) + rem[c + 1:]
            nf = tuple(sorted(field + ((card, p),)))
            n0, n1 = (nrem, rem1) if p == 0 else (rem0, nrem)
            out.append((c, self.advance(n0, n1, nf, rnd, slot + 1, first, diff)))
        return p, out

    def advance(self, rem0, rem1, field, rnd, slot, first, diff):
        g = self.g
        while rnd < g.rounds:
            if slot >= 4:
                field, winner, _ = _resolve_cached(field, g.clear_four, g.nvals)
                if winner is not None:
                    diff += g.points[rnd] if winner == 0 else -g.points[rnd]
                    first = winner
                rnd += 1
                slot = 0
                continue
            p = first if slot % 2 == 0 else 1 - first
            if any(rem0 if p == 0 else rem1):
                break
            slot += 1
        return (rem0, rem1, field, rnd, slot, first, diff)

    def value(self, pos, alpha, beta):
        self.nodes += 1
        if not (self.nodes & 1023) and stopped():
            raise SolverStopped
        rem0, rem1, field, rnd, slot, first, diff = pos
        if rnd >= self.g.rounds:
            return self.final(diff)
        if not self.margin and abs(diff) > self.rest[rnd]:
            return self.final(diff)
        entry = self.tt.get(pos)
        if entry is not None:
            lo, hi = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha = max(alpha, lo)
            beta = min(beta, hi)
        else:
            lo, hi = -10 ** 6, 10 ** 6
        a0, b0 = alpha, beta
        p, kids = self.children(*pos)
        if p == 0:
            best = -10 ** 6
            for _, child in kids:
                v = self.value(child, alpha, beta)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            best = 10 ** 6
            for _, child in kids:
                v = self.value(child, alpha, beta)
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.tt[pos] = (lo, hi)
        return best

    def exact(self, pos):
        return self.value(pos, -10 ** 6, 10 ** 6)

    def line(self, pos, v):
        """The pv columns from `pos` of value `v`: at each position the first
        move that keeps the value, until the game is over or decided."""
        pv = []
        cur = pos
        while cur[3] < self.g.rounds and (self.margin or abs(cur[6]) <= self.rest[cur[3]]):
            p, kids = self.children(*cur)
            for c, child in kids:
                if self.exact(child) == v:
                    pv.append(c)
                    cur = child
                    break
            else:  # pragma: no cover - cannot happen with exact values
                break
        return pv

    def root_values(self, pos, cols):
        """(column, value for player 0, pv columns) of each root move whose
        column is in `cols` (None: every one), in column order: each valued
        exactly, with a full window."""
        _, kids = self.children(*pos)
        out = []
        for c, child in kids:
            if cols is None or c in cols:
                v = self.exact(child)
                out.append((c, v, [c, *self.line(child, v)]))
        return out

    def best(self, pos):
        """(value for player 0, best column or None, pv columns)."""
        v = self.exact(pos)
        pv = self.line(pos, v)
        if not pv and pos[3] < self.g.rounds:
            # decided before the end: every move keeps the value; take the first
            _, kids = self.children(*pos)
            pv = [kids[0][0]]
        return v, pv[0] if pv else None, pv


def _solver_pos(state):
    return (tuple(state.rem[0]), tuple(state.rem[1]), state.field, state.round, state.slot,
            state.first, state.scores[0] - state.scores[1])


def solve(state, objective: str = "result", multipv: int = 1, searchmoves=None) -> SearchResult:
    """Exact value and best move of an open position in play.

    `score` is from the point of view of the player to move: +1 win, 0 draw,
    -1 loss (objective "result"), or the final point difference under
    optimal play (objective "margin"). `multipv` > 1 or `searchmoves` (the
    pushes to consider): every such push is valued exactly (a full-window
    solve of each, sharing one table), and `lines` holds the `multipv` best,
    ties in column order (as the single best move's own choice)."""
    if state.layout[0] is None or state.layout[1] is None or state.first is None:
        raise UnsupportedGameError("qwatrobat: solve() needs both layouts and the first player")
    if state.is_terminal():
        raise UnsupportedGameError("qwatrobat: the game is over")
    t0 = _time.perf_counter()
    sv = _Solver(state.game, state.layout, objective)
    pos = _solver_pos(state)
    try:
        if multipv == 1 and searchmoves is None:
            v0, col, pv_cols = sv.best(pos)
        else:
            return _solve_lines(state, sv, pos, multipv, searchmoves, t0)
    except SolverStopped:
        # no value yet: the first legal push (or the first one asked for), marked unsolved
        dt = _time.perf_counter() - t0
        move = state.legal_moves()[0] if searchmoves is None else searchmoves[0]
        return SearchResult(move=move, score=0.0, depth=0, nodes=sv.nodes, seconds=dt,
                            nps=sv.nodes / dt if dt > 0 else 0.0, pv=(move,),
                            extra={"solved": False, "objective": objective})
    p = state.current_player
    v = v0 if p == 0 else -v0
    # the pv as moves
    pv = []
    s = state.clone()
    for c in pv_cols:
        m = Push(c)
        pv.append(m)
        s.play(m)
    dt = _time.perf_counter() - t0
    extra = {"solved": True, "objective": objective}
    if objective == "result":
        extra["value"] = _RESULT[v]
    return SearchResult(move=Push(col) if col is not None else None, score=float(v), depth=len(pv),
                        nodes=sv.nodes, seconds=dt, nps=sv.nodes / dt if dt > 0 else 0.0,
                        pv=tuple(pv), extra=extra)


def _solve_lines(state, sv, pos, multipv, searchmoves, t0) -> SearchResult:
    """`solve` with its root moves valued one by one: the MultiPV lines."""
    sign = 1 if state.current_player == 0 else -1
    cols = None if searchmoves is None else {m.col for m in searchmoves}
    ranked = sorted(sv.root_values(pos, cols), key=lambda r: -sign * r[1])   # stable: column order
    objective = "margin" if sv.margin else "result"
    lines = tuple(Line(Push(c), float(sign * v), len(cols_pv), tuple(Push(x) for x in cols_pv),
                       {"value": _RESULT[sign * v]} if objective == "result" else {})
                  for c, v, cols_pv in ranked[:multipv])
    best = lines[0]
    extra = {"solved": True, "objective": objective, **best.extra}
    dt = _time.perf_counter() - t0
    return SearchResult(move=best.move, score=best.score, depth=best.depth, nodes=sv.nodes, seconds=dt,
                        nps=sv.nodes / dt if dt > 0 else 0.0, pv=best.pv, lines=lines, extra=extra)


def solve_value(state, objective: str = "result") -> float:
    """Value for player 0 of a position in play (open information); at the
    first-player chance node, the average of both draws."""
    if state.current_player == CHANCE:
        vals = []
        for m, pr in state.chance_outcomes():
            s = state.clone()
            s.play(m)
            vals.append(pr * solve_value(s, objective))
        return sum(vals)
    if state.is_terminal():
        r = state.returns()[0]
        return float(state.scores[0] - state.scores[1]) if objective == "margin" else r
    sv = _Solver(state.game, state.layout, objective)
    return float(sv.exact(_solver_pos(state)))
