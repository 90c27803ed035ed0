"""Kreuz & Quer: points to values. `game_returns` is the game's result (the
rule of `KState.returns`, also scored by the stage playouts when they end
the last race); `outlook_values` the leaf estimate of a position that is not
over (`KState.evaluate`, the stage playouts)."""

from __future__ import annotations

import math


def game_returns(points) -> list:
    """The returns of a finished game from each player's points: the players
    with the most points share the win (n / k - 1) / (n - 1) each, the others
    get -1 / (n - 1); all level: 0 each. Zero-sum."""
    n = len(points)
    top = max(points)
    k = sum(1 for x in points if x == top)
    if k == n:
        return [0.0] * n
    win = (n / k - 1) / (n - 1)
    lose = -1.0 / (n - 1)
    return [win if x == top else lose for x in points]


def outlook_values(outlook, points) -> list:
    """Zero-sum per-player values in (-1, 1) from each player's outlook
    (steps still to go, lower is better) and points."""
    n = len(outlook)
    score = [-0.25 * outlook[p] + 0.5 * points[p] for p in range(n)]
    if n == 2:
        d = math.tanh(0.3 * (score[0] - score[1]))
        return [d, -d]
    mean = sum(score) / n
    v = [math.tanh(0.3 * (x - mean)) for x in score]
    m = sum(v) / n
    return [x - m for x in v]
