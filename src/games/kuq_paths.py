"""Kreuz & Quer paths: "from here, with this pile, how far do I get, and which
cards would extend my path" (dynamic programming over the rooms).

A `Track` is a player's route as one grid: global row R = card * 6 + row,
room index `R * 3 + lane`. Moves go to any of the 8 neighbours inside one
card; across a card border only straight ahead or back (same lane). The pawn
starts at START (before the route; the first step enters row 0) and ends at
GOAL, entered from the last row with a card of the goal's terrain. START
cannot be re-entered.

`walk(track, pos, pile)` follows the pile in order with the set of rooms the
pawn can be in after each card (the player chooses among fitting rooms): the
goal is reached as soon as it is in that set; a path ends at the first card
that fits no neighbour of its room. Of all the ends, the player takes the
farthest row, then the middle lane, then the leftmost lane.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .kuq_deck import LANES, NT, ROOMS, ROWS, TERRAIN_COUNTS, TOTAL_TERRAIN

START = -1
GOAL = -2


class Track:
    __slots__ = ("route", "goal", "nrows", "nrooms", "terr", "nbt", "_cost")

    def __init__(self, routes_terrain: tuple, goal: int):
        """`routes_terrain`: the route cards' rooms (tuples of 18 terrains), in route order."""
        self.route = routes_terrain
        self.goal = goal
        self.nrows = ROWS * len(routes_terrain)
        self.nrooms = self.nrows * LANES
        terr = []
        for card in routes_terrain:
            terr.extend(card)
        self.terr = tuple(terr)
        # nbt[room][t]: neighbouring rooms of terrain t; index nrooms is START
        nbt = []
        for room in range(self.nrooms):
            r, l = divmod(room, LANES)
            lists = [[] for _ in range(NT)]
            for dr in (-1, 0, 1):
                for dl in (-1, 0, 1):
                    if dr == 0 and dl == 0:
                        continue
                    r2, l2 = r + dr, l + dl
                    if not (0 <= r2 < self.nrows and 0 <= l2 < LANES):
                        continue
                    if r2 // ROWS != r // ROWS and dl != 0:
                        continue          # no diagonal across a card border
                    lists[self.terr[r2 * LANES + l2]].append(r2 * LANES + l2)
            if r == self.nrows - 1:
                lists[goal].append(GOAL)
            nbt.append(tuple(tuple(x) for x in lists))
        lists = [[] for _ in range(NT)]
        if self.nrows == 0:
            lists[goal].append(GOAL)
        else:
            for l in range(LANES):
                lists[self.terr[l]].append(l)
        nbt.append(tuple(tuple(x) for x in lists))
        self.nbt = tuple(nbt)
        self._cost = None

    def cost_to_goal(self, pos: int) -> float:
        """-log likelihood of the likeliest straight way from `pos` to the goal
        (each room entered weighted by its terrain's share of the 48 cards):
        an estimate of how hard the rest of the route is. 0 on the goal."""
        if pos == GOAL:
            return 0.0
        if self._cost is None:
            cost = [0.0] * (self.nrooms + 1)
            for r in range(self.nrows - 1, -1, -1):
                for l in range(LANES):
                    if r == self.nrows - 1:
                        c = -_LOGF[self.goal]
                    else:
                        lanes = (l,) if (r + 1) % ROWS == 0 else (l - 1, l, l + 1)
                        c = min(cost[(r + 1) * LANES + l2] - _LOGF[self.terr[(r + 1) * LANES + l2]]
                                for l2 in lanes if 0 <= l2 < LANES)
                    cost[r * LANES + l] = c
            if self.nrows:
                cost[self.nrooms] = min(cost[l] - _LOGF[self.terr[l]] for l in range(LANES))
            else:
                cost[self.nrooms] = -_LOGF[self.goal]
            self._cost = cost
        return self._cost[self.nrooms if pos == START else pos]

    def neighbours(self, pos: int, terrain: int) -> tuple:
        return self.nbt[self.nrooms if pos == START else pos][terrain]

    def row(self, pos: int) -> int:
        if pos == GOAL:
            return self.nrows
        return -1 if pos == START else pos // LANES

    def remaining(self, pos: int) -> int:
        """Steps still needed at best: one per row, then the goal."""
        return self.nrows - self.row(pos)


def rank(track: Track, pos: int) -> tuple:
    if pos == GOAL:
        return (track.nrows + 1, 0, 0)
    if pos == START:
        return (-1, 0, 0)
    r, l = divmod(pos, LANES)
    return (r, 1 if l == 1 else 0, -l)


@dataclass(frozen=True)
class Walk:
    goal_step: int | None    # number of cards used to reach the goal, or None
    end: int                 # where the pawn ends (GOAL if reached)
    used: int                # cards used (the rest are wasted)
    frontier: frozenset      # rooms reachable using every card of the pile (empty: a card was wasted)
    stuck_best: tuple | None  # (rank, pos, used) of the best path that ended early


def walk(track: Track, pos: int, pile) -> Walk:
    cur = {pos}
    stuck = None
    nbt = track.nbt
    nrooms = track.nrooms
    for k, t in enumerate(pile):
        nxt = set()
        for r in cur:
            nb = nbt[nrooms if r == START else r][t]
            if nb:
                nxt.update(nb)
            else:
                cand = (rank(track, r), r, k)
                if stuck is None or cand[0] > stuck[0]:
                    stuck = cand
        if GOAL in nxt:
            return Walk(k + 1, GOAL, k + 1, frozenset((GOAL,)), stuck)
        cur = nxt
        if not cur:
            break
    end, used = None, 0
    best = None
    if cur:
        for r in cur:
            rk = rank(track, r)
            if best is None or rk > best:
                best, end, used = rk, r, len(pile)
    if stuck is not None and (best is None or stuck[0] > best):
        best, end, used = stuck
    return Walk(None, end, used, frozenset(cur), stuck)


def step(track: Track, rooms, terrain: int) -> set:
    """The rooms (or GOAL) reachable from any of `rooms` with one card of `terrain`."""
    nbt = track.nbt
    nrooms = track.nrooms
    out = set()
    for r in rooms:
        if r != GOAL:
            out.update(nbt[nrooms if r == START else r][terrain])
    return out


def reach(track: Track, pos: int, pile) -> tuple:
    """How far the pile takes the pawn: (reaches goal, end position, cards used)."""
    w = walk(track, pos, pile)
    return w.goal_step is not None, w.end, w.used


def extensions(track: Track, pos: int, pile) -> dict:
    """Which cards would extend the path: {terrain: end position if that
    terrain were added on top of the pile}, for the terrains that let a path
    go on past the whole pile and take the pawn farther than now (GOAL when
    it would reach the goal)."""
    w = walk(track, pos, pile)
    if w.goal_step is not None or not w.frontier:
        return {}
    now = rank(track, w.end)
    out = {}
    nbt = track.nbt
    nrooms = track.nrooms
    for t in range(NT):
        nxt = set()
        for r in w.frontier:
            nxt.update(nbt[nrooms if r == START else r][t])
        if not nxt:
            continue
        if GOAL in nxt:
            out[t] = GOAL
            continue
        best = max(nxt, key=lambda r: rank(track, r))
        if rank(track, best)[0] > now[0]:
            out[t] = best
    return out


_LOGF = tuple(math.log(c / TOTAL_TERRAIN) for c in TERRAIN_COUNTS)


def route_ease(track: Track) -> float:
    """Log-likelihood of the likeliest straight path (one room per row, then
    the goal), weighting each room by its terrain's share of the 48 cards.
    Higher is easier."""
    if track.nrows == 0:
        return _LOGF[track.goal]
    best = [_LOGF[track.terr[l]] for l in range(LANES)]
    for r in range(1, track.nrows):
        border = r % ROWS == 0
        nb = []
        for l in range(LANES):
            if border:
                prev = best[l]
            else:
                prev = max(best[l2] for l2 in (l - 1, l, l + 1) if 0 <= l2 < LANES)
            nb.append(prev + _LOGF[track.terr[r * LANES + l]])
        best = nb
    return max(best) + _LOGF[track.goal]


def outlook_values(outlook, points) -> list:
    """Zero-sum per-player values in (-1, 1) from each player's outlook
    (steps still to go, lower is better) and points: the leaf evaluation
    shared by `KState.evaluate` and the stage rollout."""
    n = len(outlook)
    score = [-0.25 * outlook[p] + 0.5 * points[p] for p in range(n)]
    if n == 2:
        d = math.tanh(0.3 * (score[0] - score[1]))
        return [d, -d]
    mean = sum(score) / n
    v = [math.tanh(0.3 * (x - mean)) for x in score]
    m = sum(v) / n
    return [x - m for x in v]
