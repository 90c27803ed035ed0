"""How well does the stage-end leaf value of Kreuz & Quer's ISMCTS
(`scoring.outlook_values`: tanh(0.3 * (-0.25 * outlook + 0.5 * points)),
the outlook being `Track.cost_to_goal(pos) / 2`) predict the race, and would
a fitted mapping do better? Replays 2-player one-race records of
`crossridor match kreuzundquer -o races=1 ... --records F` and, at the start
of every stage, takes player 1's differences of outlook and points against
the race's result; fits a logistic regression (numpy, Newton's method) and
prints the mean log-likelihood of the fitted and of the current mapping
(higher is better; a coin is -0.693), overall and by stage:

    python3 bench/kreuzundquer_leaf_fit.py ki_g.jsonl kpol.jsonl ...
"""

from __future__ import annotations

import math
import sys

import numpy as np
from kreuzundquer_replay import replay

from crossridor.games.kreuzundquer.rollout import stage_outlook, unplayed
from crossridor.games.kreuzundquer.scoring import outlook_values


def stage_starts(paths):
    """Rows (outlook diff, points diff, stage, player 1's result as 1 / 0.5 / 0,
    player 1's winning chance by the current leaf mapping `outlook_values`)."""
    rows = []
    last = seen = None
    for r, s, _ in replay(paths):
        if r.get("reason") != "terminal" or len(r["returns"]) != 2 or r.get("params", {}).get("races") != 1:
            continue
        if r is not last:
            last, seen = r, set()
        if s.stage_unstarted() and s.stage not in seen:
            seen.add(s.stage)
            end = unplayed(s)           # the stage-end leaf's inputs, as the search scores them
            o, pts = stage_outlook(s, end), end.points
            rows.append((o[0] - o[1], pts[0] - pts[1], s.stage, (r["returns"][0] + 1) / 2,
                         (outlook_values(o, pts)[0] + 1) / 2))
    return np.array(rows, float).reshape(-1, 5)


def fit(x, y, l2=1e-3):
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ w))
        h = (x.T * (p * (1 - p))) @ x + l2 * np.eye(len(w))
        w -= np.linalg.solve(h, x.T @ (p - y) + l2 * w)
    return w, loglik(1 / (1 + np.exp(-x @ w)), y)


def loglik(p, y):
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return float(np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main(paths):
    a = stage_starts(paths)
    if not len(a):
        sys.exit("kreuzundquer_leaf_fit: no finished 2-player one-race games in the records")
    do, dp, stage, y, current = a.T
    # tanh(z) = 2 * sigmoid(2 z) - 1: the current mapping is logistic too, with the
    # weights 2 atanh(value) of one unit of outlook and of points
    w_o = 2 * math.atanh(outlook_values([1, 0], [0, 0])[0])
    w_p = 2 * math.atanh(outlook_values([0, 0], [1, 0])[0])
    print(f"{len(a)} stage starts; current mapping: outlook {w_o:+.3f}, points {w_p:+.3f}, "
          f"log-likelihood {loglik(current, y):.4f}")
    for name, m in [("all", stage >= 0)] + [(f"stage {k + 1}", stage == k) for k in range(3)]:
        if m.sum() >= 30:
            w, ll = fit(np.c_[do[m], dp[m]], y[m])
            print(f"{name}: {int(m.sum())} positions, fitted outlook {w[0]:+.3f}, points {w[1]:+.3f}, "
                  f"log-likelihood {ll:.4f} (current {loglik(current[m], y[m]):.4f})")


if __name__ == "__main__":
    main(sys.argv[1:])
