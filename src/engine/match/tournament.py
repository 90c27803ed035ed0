"""Tournaments: who plays whom, the cross table, and Elo ratings for every
engine from all the games at once.

Pairings (`pairings`): a round robin plays every pair of engines, a
gauntlet the first engine against each of the others. Each pairing is a
two-engine match of `games` games (seats swapped or rotated as in a match).

Ratings (`bradley_terry`): the maximum-likelihood fit of the Bradley-Terry
model with logistic Elo, P(i beats j) = 1 / (1 + 10^((R_j - R_i) / 400)),
a draw counting as half a win and half a loss (as Ordo and cutechess's
pairwise Elo do), anchored at R = 0 for the first engine. Newton's method on
the log-likelihood; the error bars are 1.96 standard errors from the inverse
of its Hessian (the observed information) with the anchor fixed. A finite
maximum exists only for engines that both won and lost points within a
connected group with the anchor (Zermelo's condition, checked as strong
connectivity of the "scored against" graph); an engine that only scores
against the anchor's group is +inf, one that never does -inf, and one never
connected to it has no rating (None).
"""

from __future__ import annotations

import math

from crossridor.engine.errors import CrossridorError
from crossridor.engine.match.stats import Z95

KINDS = ("round-robin", "gauntlet")
C = math.log(10.0) / 400.0     # d/dR of the logistic Elo curve's log-odds


def pairings(kind: str, num_engines: int) -> list[tuple[int, int]]:
    """The pairs of engine indices that play, in playing order."""
    if kind not in KINDS:
        raise CrossridorError(f"unknown tournament {kind!r} (known: {', '.join(KINDS)})")
    if num_engines < 3:
        raise CrossridorError(f"a tournament needs three or more engines, got {num_engines}")
    if kind == "gauntlet":
        return [(0, j) for j in range(1, num_engines)]
    return [(i, j) for i in range(num_engines) for j in range(i + 1, num_engines)]


def pair_scores(records, num_engines: int):
    """(score, games): score[i][j] = points of engine i against engine j
    (1 a win, 1/2 a draw), games[i][j] = games between them."""
    score = [[0.0] * num_engines for _ in range(num_engines)]
    games = [[0] * num_engines for _ in range(num_engines)]
    for rec in records:
        engines = sorted(set(rec.seats))
        if len(engines) != 2:
            continue
        i, j = engines
        games[i][j] += 1
        games[j][i] += 1
        if rec.winner_engine == i:
            score[i][j] += 1.0
        elif rec.winner_engine == j:
            score[j][i] += 1.0
        else:
            score[i][j] += 0.5
            score[j][i] += 0.5
    return score, games


def _reach(start: int, edges) -> set:
    seen, todo = {start}, [start]
    while todo:
        a = todo.pop()
        for b in edges[a]:
            if b not in seen:
                seen.add(b)
                todo.append(b)
    return seen


def _solve(matrix, vector):
    """x with matrix x = vector (Gauss-Jordan with partial pivoting); also
    returns the inverse."""
    n = len(vector)
    aug = [list(row) + [vector[k]] + [1.0 if c == k else 0.0 for c in range(n)] for k, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(aug[r][col]))
        if abs(aug[pivot][col]) < 1e-300:
            raise ZeroDivisionError("singular")
        aug[col], aug[pivot] = aug[pivot], aug[col]
        p = aug[col][col]
        aug[col] = [v / p for v in aug[col]]
        for r in range(n):
            if r != col and aug[r][col]:
                f = aug[r][col]
                aug[r] = [a - f * b for a, b in zip(aug[r], aug[col])]
    return [aug[r][n] for r in range(n)], [aug[r][n + 1:] for r in range(n)]


def bradley_terry(score, games, anchor: int = 0) -> tuple[list, list]:
    """(elo, error): maximum-likelihood Elo per engine (anchor = 0) and the
    half-width of its 95% interval; math.inf / -math.inf for engines beyond
    a finite maximum, None for an engine with no rating (see the module
    docstring)."""
    n = len(score)
    beat = [[j for j in range(n) if score[i][j] > 0] for i in range(n)]       # i scored against j
    beaten = [[j for j in range(n) if score[j][i] > 0] for i in range(n)]
    down, up = _reach(anchor, beat), _reach(anchor, beaten)
    group = sorted(down & up)                    # the anchor's strongly connected group
    elo: list = [None] * n
    err: list = [None] * n
    for k in range(n):
        if k in up and k not in down:
            elo[k] = math.inf                    # scores against the group, never loses a point to it
        elif k in down and k not in up:
            elo[k] = -math.inf
    free = [k for k in group if k != anchor]
    r = {k: 0.0 for k in group}
    hess = [[0.0] * len(free) for _ in free]
    for _ in range(200):
        grad = [0.0] * len(free)
        hess = [[0.0] * len(free) for _ in free]
        for a, i in enumerate(free):
            for j in group:
                if j == i or not games[i][j]:
                    continue
                p = 1.0 / (1.0 + 10.0 ** ((r[j] - r[i]) / 400.0))
                grad[a] += C * (score[i][j] - games[i][j] * p)
                w = C * C * games[i][j] * p * (1.0 - p)
                hess[a][a] += w
                if j != anchor:
                    hess[a][free.index(j)] -= w
        if not free:
            break
        step, _ = _solve(hess, grad)             # Newton: (-H) step = gradient
        step = [max(-400.0, min(400.0, s)) for s in step]
        for a, i in enumerate(free):
            r[i] += step[a]
        if max(abs(s) for s in step) < 1e-7:
            break
    if free:
        _, cov = _solve(hess, [0.0] * len(free))
        for a, i in enumerate(free):
            err[i] = Z95 * math.sqrt(max(cov[a][a], 0.0))
    for k in group:
        elo[k] = r[k]
    elo[anchor], err[anchor] = 0.0, 0.0
    return elo, err


def tournament_summary(kind: str, engines: list, records) -> dict:
    """The `--json` part of a tournament: per-engine score, games, Elo and
    error, and the cross table (points of row against column, games)."""
    n = len(engines)
    score, games = pair_scores(records, n)
    elo, err = bradley_terry(score, games)

    def number(x, digits=2):
        return None if x is None or not math.isfinite(x) else round(x, digits)

    return {
        "tournament": kind,
        "standings": [{"engine": str(engines[i]), "points": sum(score[i]), "games": sum(games[i]),
                       "elo": number(elo[i]), "elo_error": number(err[i]),
                       "elo_infinite": None if elo[i] is None or math.isfinite(elo[i])
                       else ("+" if elo[i] > 0 else "-")}
                      for i in range(n)],
        "cross_table": [[None if i == j or not games[i][j] else {"points": score[i][j], "games": games[i][j]}
                         for j in range(n)] for i in range(n)],
    }


def cross_table_text(summary: dict) -> list[str]:
    """The cross table and the ratings as printable lines."""
    rows = summary["standings"]
    n = len(rows)
    name_w = max(len(r["engine"]) for r in rows)

    def cell(c):
        return "-" if c is None else f"{_pts(c['points'])}/{c['games']}"

    cells = [[cell(c) for c in row] for row in summary["cross_table"]]
    col_w = max(6, max(len(c) for row in cells for c in row))
    lines = ["  #  " + "engine".ljust(name_w) + "".join(f"{j + 1:>{col_w + 2}}" for j in range(n))
             + f"{'points':>{col_w + 4}}   elo (95%)"]
    for i, r in enumerate(rows):
        if i == 0:
            elo = "0 (anchor)"
        elif r["elo_infinite"]:
            elo = f"{r['elo_infinite']}inf"
        elif r["elo"] is None:
            elo = "n/a (no games linking it to engine 1)"
        else:
            elo = f"{r['elo']:+.1f} +/- {r['elo_error']:.1f}"
        lines.append(f"{i + 1:>3}  " + r["engine"].ljust(name_w) + "".join(f"{c:>{col_w + 2}}" for c in cells[i])
                     + f"{_pts(r['points']) + '/' + str(r['games']):>{col_w + 4}}   {elo}")
    return lines


def _pts(x: float) -> str:
    return f"{x:g}"
