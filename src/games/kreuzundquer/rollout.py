"""Kreuz & Quer: a fast leaf evaluator for MCTS / ISMCTS.

`stage_evaluator(state)` plays the rest of the current stage with every
player following the heuristic player's rules (`policy.heuristic_move`:
stop once the pile reaches the goal, take the face-up card that goes
farthest, else flip; keep a flipped card only if it goes farther), on a
light copy of the position (no undo records), resolving the movement,
penalty and set-aside (`play_stage`, tested against the real game), and
scores the result: the game's result when the last race ends
(`scoring.game_returns`), else the distance left to each goal
(`Track.cost_to_goal`) and the route cards set aside, by
`scoring.outlook_values` as `KState.evaluate` does. Use it with
`crossridor.search(state, algorithm="ismcts", evaluator=stage_evaluator, ...)`.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from crossridor.games.kreuzundquer.deck import NT, ROOMS
from crossridor.games.kreuzundquer.paths import GOAL
from crossridor.games.kreuzundquer.scoring import game_returns, outlook_values

_RNG = random.Random(97)


class _Runner:
    """One player's pile during a playout, as bitmasks (`paths.Masks`):
    `around` the rooms (and GOAL) next to those the pile can leave the pawn
    in (0 once it reached the goal or wasted a card), `best` the (rank key,
    room) of the farthest room reached so far."""
    __slots__ = ("m", "pos", "around", "tgoal", "best", "goal")

    def __init__(self, tr, pos, pile):
        self.m = m = tr.masks
        self.tgoal = m.tgoal
        self.pos = pos
        goal, front, end = m.walk(pos, pile)
        self.goal = goal
        self.around = 0 if goal or not front else m.around(front)
        self.best = m.best(m.of(end))

    def fits(self, t):
        """The rank key after adding t, or None if t does not take the pawn farther."""
        nxt = self.around & self.tgoal[t]
        if not nxt:
            return None
        k = self.m.best(nxt)[0]
        return k if k // 3 > self.best[0] // 3 else None

    def add(self, t):
        m = self.m
        nxt = self.around & self.tgoal[t]
        if nxt & m.goal_bit:
            self.goal = True
            self.around = 0
            return
        if not nxt:
            self.around = 0
            return
        self.around = m.around(nxt)
        b = m.best(nxt)
        if b[0] > self.best[0]:
            self.best = b

    def end(self):
        """End position: the farthest room reachable (the pile's best end)."""
        if self.goal:
            return GOAL
        if self.best[0] < 0:
            return self.pos
        return self.best[1]


def _collect(runners, down, up, tick, turn, base, pending, n, rng):
    """Play a collection to its end with the heuristic rules: the stopper or -1."""
    while True:
        p = (base + tick + turn) % n
        ru = runners[p]
        if pending >= 0:
            if ru.fits(pending) is not None:
                ru.add(pending)
            else:
                up[pending] += 1
            pending = -1
        elif ru.goal:
            return p
        else:
            best_t, best_r = -1, None
            for t in range(NT):
                if up[t]:
                    r = ru.fits(t)
                    if r is not None and (best_r is None or r > best_r):
                        best_t, best_r = t, r
            if best_t >= 0:
                up[best_t] -= 1
                ru.add(best_t)
            elif any(down):
                pending = _draw(down, rng)
                continue          # the same player decides
            else:
                return p
        if not any(down):
            return -1
        turn += 1
        if turn == n:
            turn = 0
            tick += 1


def _draw(down, rng):
    x = rng.random() * sum(down)
    for t in range(NT):
        x -= down[t]
        if x < 0:
            down[t] -= 1
            return t
    for t in range(NT - 1, -1, -1):
        if down[t]:
            down[t] -= 1
            return t


class StageEnd(NamedTuple):
    """Where the rest of a stage led (`play_stage`): the race's `winner` (or
    None), whether the race `ended` (a winner, or the stage limit), each
    player's `routes` (card numbers), `pos` and number of cards set `aside`
    this race, after the movement, the penalty and the set-aside (on a
    winning stage: after the movement only), and `points`: each player's
    points if the race were scored now (the winner's whole route counts)."""
    winner: int | None
    ended: bool
    routes: list
    pos: list
    aside: list
    points: list


def play_stage(state, rng) -> StageEnd:
    """Play the rest of the current stage of `state` (a collection phase) with
    the heuristic rules, on light copies, drawing face-down cards and the
    penalty card with `rng`."""
    g = state.game
    n = g.n
    routes = [list(r) for r in state.route]
    aside = [len(a) for a in state.aside]
    pos = list(state.pos)
    pile = list(state.pile)
    runners = [_Runner(state.track(p), pos[p], state.tp[p]) for p in range(n)]
    down = list(state.down)
    up = list(state.up)
    pending = state.pending
    if state.phase == "flip":
        pending = _draw(down, rng)
    base = state.race + state.stage
    stopper = _collect(runners, down, up, state.tick, state.turn, base, pending, n, rng)
    first = stopper if stopper >= 0 else base % n
    winner = None
    for i in range(n):
        p = (first + i) % n
        if runners[p].goal:
            winner = p
            break
        e = runners[p].end()
        pos[p] = e if e != GOAL else pos[p]
    if winner is None:
        # the rules' penalty; the heuristic rules stop only with a pile that reaches the goal
        # (and the stopper moves first), so these playouts never meet it
        if stopper >= 0 and pile:
            c = pile.pop(rng.randrange(len(pile)))
            routes[stopper].append(c)
        for p in range(n):
            if pos[p] >= 0 and pos[p] // ROOMS:
                j = pos[p] // ROOMS
                aside[p] += j
                del routes[p][:j]
                pos[p] -= j * ROOMS
    ended = winner is not None or state.stage + 1 >= g.max_stages
    return _stage_end(state, winner, ended, routes, pos, aside)


def _stage_end(state, winner, ended, routes, pos, aside) -> StageEnd:
    points = [state.pts[p] + aside[p] + (len(routes[p]) if p == winner else
                                          pos[p] // ROOMS if pos[p] >= 0 else 0)
              for p in range(state.game.n)]
    return StageEnd(winner, ended, routes, pos, aside, points)


def stage_evaluator(state, rng=None) -> list:
    """Play on with the heuristic rules to the end of the current stage
    (`play_stage`), then score as described in the module doc. A stage that
    has not started (nothing collected yet) is not played: it is scored as
    it stands (so every move is judged at the end of the stage it is played
    in)."""
    ph = state.phase
    if ph == "over":
        return state.returns()
    if ph not in ("collect", "flip", "decide"):
        return state.evaluate()
    end = unplayed(state) if state.stage_unstarted() else play_stage(state, rng or _RNG)
    if end.ended and state.race + 1 >= state.game.races:
        return game_returns(end.points)
    return outlook_values(stage_outlook(state, end), end.points)


def unplayed(state) -> StageEnd:
    """The `StageEnd` of a stage that stops where it stands (no movement)."""
    return _stage_end(state, None, False, [list(r) for r in state.route], list(state.pos),
                      [len(a) for a in state.aside])


def stage_outlook(state, end: StageEnd) -> list:
    """Each player's outlook at the stage's end (`outlook_values`' first
    argument): the winner -2, the others half the cost of the likeliest way
    on to their goal (`Track.cost_to_goal`)."""
    g = state.game
    return [-2.0 if p == end.winner else
            g.track(tuple(end.routes[p]), state.goal[p]).cost_to_goal(end.pos[p]) / 2.0
            for p in range(g.n)]
