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
from functools import lru_cache

from crossridor.games.kreuzundquer.deck import LANES, NT, ROWS, TERRAIN_COUNTS, TOTAL_TERRAIN

START = -1
GOAL = -2


class Track:
    __slots__ = ("route", "goal", "nrows", "nrooms", "terr", "_nbt", "_cost", "_masks")

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
        self._nbt: tuple | None = None
        self._cost: list[float] | None = None
        self._masks: Masks | None = None

    @property
    def nbt(self) -> tuple:
        """nbt[room][t]: the neighbouring rooms of terrain t (GOAL from the last
        row); index nrooms is START. Built on first use: the playouts only
        need the bitmasks of `masks`."""
        if self._nbt is None:
            self._nbt = self._build_nbt()
        return self._nbt

    def _build_nbt(self) -> tuple:
        goal = self.goal
        nbt = []
        for room in range(self.nrooms):
            r, lane = divmod(room, LANES)
            lists: list[list[int]] = [[] for _ in range(NT)]
            for dr in (-1, 0, 1):
                for dl in (-1, 0, 1):
                    if dr == 0 and dl == 0:
                        continue
                    r2, l2 = r + dr, lane + dl
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
            for lane in range(LANES):
                lists[self.terr[lane]].append(lane)
        nbt.append(tuple(tuple(x) for x in lists))
        return tuple(nbt)

    @property
    def masks(self) -> "Masks":
        """The track as bitmasks (see `Masks`), built on first use."""
        if self._masks is None:
            self._masks = Masks(self)
        return self._masks

    def cost_to_goal(self, pos: int) -> float:
        """-log likelihood of the likeliest straight way from `pos` to the goal
        (each room entered weighted by its terrain's share of the 48 cards):
        an estimate of how hard the rest of the route is. 0 on the goal."""
        if pos == GOAL:
            return 0.0
        if self._cost is None:
            cost = [0.0] * (self.nrooms + 1)
            for r in range(self.nrows - 1, -1, -1):
                for lane in range(LANES):
                    if r == self.nrows - 1:
                        c = -_LOGF[self.goal]
                    else:
                        lanes = (lane,) if (r + 1) % ROWS == 0 else (lane - 1, lane, lane + 1)
                        c = min(cost[(r + 1) * LANES + l2] - _LOGF[self.terr[(r + 1) * LANES + l2]]
                                for l2 in lanes if 0 <= l2 < LANES)
                    cost[r * LANES + lane] = c
            if self.nrows:
                cost[self.nrooms] = min(cost[lane] - _LOGF[self.terr[lane]] for lane in range(LANES))
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
    r, lane = divmod(pos, LANES)
    return (r, 1 if lane == 1 else 0, -lane)


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
    assert end is not None        # cur emptied only where a room had no way on: stuck is set
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
    best = [_LOGF[track.terr[lane]] for lane in range(LANES)]
    for r in range(1, track.nrows):
        border = r % ROWS == 0
        nb = []
        for lane in range(LANES):
            if border:
                prev = best[lane]
            else:
                prev = max(best[l2] for l2 in (lane - 1, lane, lane + 1) if 0 <= l2 < LANES)
            nb.append(prev + _LOGF[track.terr[r * LANES + lane]])
        best = nb
    return max(best) + _LOGF[track.goal]


# ----------------------------------------------------------------------------- bitmasks
# The playouts (`rollout`) follow sets of rooms as ints: bit i is room i
# (row * 3 + lane), bit nrooms is START, bit nrooms + 1 is GOAL. One step is a
# fixed number of shifts and ands, whatever the number of rooms in the set.


@lru_cache(maxsize=None)
def _grid(nrows: int) -> tuple:
    """(rooms, not lane 0, not lane 2, first rows of cards, last rows of cards,
    last row) as masks of a grid of `nrows` rows."""
    rooms = (1 << (nrows * LANES)) - 1
    lane0 = sum(1 << (r * LANES) for r in range(nrows))
    first = sum(0b111 << (r * LANES) for r in range(0, nrows, ROWS))
    last = sum(0b111 << (r * LANES) for r in range(ROWS - 1, nrows, ROWS))
    last_row = 0b111 << ((nrows - 1) * LANES) if nrows else 0
    return rooms, rooms & ~lane0, rooms & ~(lane0 << 2), first, last, last_row


def _spread(s: int, rooms: int, no_l0: int, no_l2: int, first: int, last: int) -> int:
    """The rooms next to any room of `s` (8 neighbours inside a card, straight
    ahead or back across a card border)."""
    a = s & no_l2               # rooms with a lane to their right
    b = s & no_l0               # rooms with a lane to their left
    out = (a << 1) | (b >> 1) | (s << LANES) | (s >> LANES)
    out |= ((a & ~last) << (LANES + 1)) | ((b & ~last) << (LANES - 1))
    out |= ((a & ~first) >> (LANES - 1)) | ((b & ~first) >> (LANES + 1))
    return out & rooms


class Masks:
    """A `Track` as bitmasks: `step` and `rank` of `walk` / `step` / `rank`
    on sets of rooms as ints (the same results, tested against them)."""
    __slots__ = ("rooms", "grid", "tmask", "row0", "start", "goal_bit", "goal", "last_row", "fits", "tgoal")

    def __init__(self, track: Track):
        nrows = track.nrows
        self.grid = _grid(nrows)
        self.rooms, _, _, _, _, self.last_row = self.grid
        self.start = 1 << track.nrooms
        self.goal_bit = self.start << 1
        self.goal = track.goal
        tmask = [0] * NT
        for i, t in enumerate(track.terr):
            tmask[t] |= 1 << i
        self.tmask = tuple(tmask)
        # tgoal[t]: terrain(t), precomputed for the playouts
        self.tgoal = tuple(tmask[t] | (self.goal_bit if t == track.goal else 0) for t in range(NT))
        self.row0 = tuple(m & 0b111 for m in tmask)
        # fits[t]: the rooms (and START) from which a card of terrain t leads somewhere
        fits = []
        for t in range(NT):
            f = _spread(tmask[t], *self.grid[:5])
            if t == track.goal:
                f |= self.last_row
            if self.row0[t] or (nrows == 0 and t == track.goal):
                f |= self.start
            fits.append(f)
        self.fits = tuple(fits)

    def of(self, pos: int) -> int:
        """The one-room set of `pos` (a room, START or GOAL)."""
        if pos == START:
            return self.start
        if pos == GOAL:
            return self.goal_bit
        return 1 << pos

    def members(self, s: int) -> list:
        """The rooms (START, GOAL) of a set, in index order."""
        out = []
        while s:
            low = s & -s
            out.append(low.bit_length() - 1)
            s ^= low
        nrooms = self.start.bit_length() - 1
        return [START if i == nrooms else GOAL if i == nrooms + 1 else i for i in out]

    def around(self, s: int) -> int:
        """The rooms next to the set `s` (row 0 from START), plus GOAL when a
        card of the goal's terrain would reach it: `step(s, t)` is
        `around(s) & terrain(t)`, so a playout spreads a pile once for all terrains."""
        out = _spread(s & self.rooms, *self.grid[:5])
        if s & self.start:
            out |= 0b111 & self.rooms
            if not self.rooms:
                out |= self.goal_bit
        if s & self.last_row:
            out |= self.goal_bit
        return out

    def terrain(self, t: int) -> int:
        """The rooms of terrain t, and GOAL if t is the goal's terrain."""
        return self.tgoal[t]

    def step(self, s: int, t: int) -> int:
        """`step` on a set: the rooms (and GOAL) reached from `s` with a card of terrain t."""
        return self.around(s) & self.terrain(t)

    def best(self, s: int) -> tuple:
        """(rank key, room) of the farthest room of a non-empty set, as `rank`
        orders rooms (farthest row, then the middle lane, then the leftmost);
        keys: START -2, room row * 3 + (2 middle, 1 left, 0 right), GOAL above all."""
        if s & self.goal_bit:
            return 1 << 30, GOAL
        r = s & self.rooms
        if not r:
            return -2, START
        row = (r.bit_length() - 1) // LANES
        bits = r >> (row * LANES)
        if bits & 2:
            return row * 3 + 2, row * LANES + 1
        if bits & 1:
            return row * 3 + 1, row * LANES
        return row * 3, row * LANES + 2

    def walk(self, pos: int, pile) -> tuple:
        """`walk` on sets: (goal reached, frontier set, end room)."""
        cur = self.of(pos)
        stuck = None                  # (key, room) of the best path that ended early
        fits = self.fits
        for t in pile:
            dead = cur & ~fits[t]
            if dead:
                cand = self.best(dead)
                if stuck is None or cand[0] > stuck[0]:
                    stuck = cand
            cur = self.step(cur, t)
            if cur & self.goal_bit:
                return True, self.goal_bit, GOAL
            if not cur:
                break
        best = self.best(cur) if cur else None
        if stuck is not None and (best is None or stuck[0] > best[0]):
            best = stuck
        assert best is not None       # cur emptied only where a room had no way on: stuck is set
        return False, cur, best[1]
