"""Kreuz & Quer for learning agents: action ids and observation tensors.

Action ids (K = route cards in the deck, 28 by default; T = 8 terrains in
the order `bemfwcgs`; cards are numbered 1..K):
    0 .. K(K-1)/2-1         build `xa,b` (a < b): the index of the pair in the
                            order (1,2), (1,3), ..., (1,K), (2,3), ...
    then 4                  flip, keep, leave, stop
    then T                  take `take:t`
    then T                  chance: goal `goal:t`     (player actions first,
    then T                  chance: the flipped card `@t`   chance outcomes
    then K                  chance: penalty draw `draw:c`   last)
    then K                  chance: route card c dealt `deal:c` (chance=True)
num_distinct_actions() = K(K-1)/2 + 2K + 3T + 4 (462 for K = 28).

Observation (float32 vector): parsed from `information_state(player)`, the
one view of what a seat may see, so it holds only that: the observer's own
hand, box and terrain pile, the others' routes once built, their cards taken
face up, and public counts. Seats are relative (0 = the observer).
    phase one-hot (7: build goal collect flip decide penalty over), race /
    races, stage / max_stages, tick / 48, turn / players, stopper (relative
    seat, or none: players + 1), face-up cards per terrain / 10, face-down
    cards / 48, route pile / K, pending flipped card (none, hidden, T terrains)
    per seat: points / (races * K); goal (T + none); position (before the
    route, on the goal, room index / 3K); route hidden-building /
    hidden-built / known; hand, route, aside, box: one flag per card (K each;
    the box of another seat as a count / K in its first cell); terrain pile in
    order, 48 slots x (T + hidden); pile length / 48
Kreuz & Quer has no information-state tensor (its games are long and
unbounded in length: use `information_state(player)` or stack observations).
Goals, flips and penalty draws are chance nodes. The route-card deal comes
from the game's seed (`new_state(seed=...)`), or, in the game loaded with
chance=True, from chance nodes: card by card, seat 0's hand first, each
undealt card equally likely (the chance version: `chance`).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from crossridor.engine.errors import IllegalMoveError
from crossridor.games.kreuzundquer.chance import ChanceKState, Deal
from crossridor.games.kreuzundquer.deck import NT, TERRAINS
from crossridor.games.kreuzundquer.moves import Move
from crossridor.games.kreuzundquer.state import PHASES
from crossridor.games.learning import check_action

PILE = 48


class Codec:
    def __init__(self, game):
        self.game = game
        self.n, self.K = game.n, game.ncards
        moves = [Move("build", pair) for pair in combinations(range(1, self.K + 1), 2)]
        moves += [Move("flip"), Move("keep"), Move("leave"), Move("stop")]
        moves += [Move("take", t) for t in range(NT)]
        self.chance_base = len(moves)        # ids of chance outcomes start here
        moves += [Move("goal", t) for t in range(NT)]
        moves += [Move("reveal", t) for t in range(NT)]
        moves += [Move("draw", c) for c in range(1, self.K + 1)]
        moves += [Deal(c) for c in range(1, self.K + 1)]
        self.moves = moves
        self.ids = {m: i for i, m in enumerate(moves)}
        self.head = 7 + 4 + (self.n + 1) + NT + 2 + (NT + 2)
        self.seat = 1 + (NT + 1) + 3 + 3 + 4 * self.K + PILE * (NT + 1) + 1

    def num_distinct_actions(self) -> int:
        return len(self.moves)

    def action_to_move(self, action) -> Move:
        return self.moves[check_action(action, len(self.moves))]

    def move_to_action(self, move) -> int:
        mv = Deal.parse(move) or Move.parse(move)
        a = self.ids.get(mv)
        if a is None:
            raise IllegalMoveError(f"kreuzundquer: {move!s} is not a move of this deck (cards 1..{self.K})")
        return a

    def observation_tensor_shape(self) -> tuple:
        return (self.head + self.n * self.seat,)

    def observation_tensor(self, state, player: int) -> np.ndarray:
        g, n, K = self.game, self.n, self.K
        if isinstance(state, ChanceKState) and state.inner is None:
            state = state.dealing_view()
        parts = state.information_state(player).split("|")   # the one filter
        phase, race, stage, tick, turn, stopper, up, down, pile, pts, goal, pos = parts[1:13]
        seats = parts[13:]
        pending = None
        if phase == "decide":
            pending, seats = seats[0], seats[1:]
        out = np.zeros(self.observation_tensor_shape(), dtype=np.float32)
        out[PHASES.index(phase)] = 1
        out[7:11] = (int(race) / g.races, int(stage) / g.max_stages, int(tick) / 48, int(turn) / n)
        k = 11
        stopper = int(stopper)
        out[k + (n if stopper < 0 else (stopper - player) % n)] = 1
        k += n + 1
        ups = [int(ch) for ch in up] if len(up) == NT else list(state.up)   # counts of 10+ print 2 digits
        out[k:k + NT] = np.asarray(ups, dtype=np.float32) / 10
        k += NT
        out[k], out[k + 1] = int(down) / 48, int(pile) / K
        k += 2
        out[k + (0 if pending is None else 1 if pending == "?" else 2 + TERRAINS.index(pending))] = 1
        pts, goal, pos = pts.split(","), goal.split(","), pos.split(",")
        for q in range(n):
            base = self.head + ((q - player) % n) * self.seat
            hand, route, aside, box, tpile = seats[q].split("/")
            out[base] = int(pts[q]) / (g.races * K)
            gq = int(goal[q])
            out[base + 1 + (NT if gq < 0 else gq)] = 1
            b = base + 1 + NT + 1
            pq = int(pos[q])
            out[b:b + 3] = (pq == -1, pq == -2, max(pq, 0) / (3 * K))
            b += 3
            out[b + {"building": 0, "built": 1}.get(route, 2)] = 1
            b += 3
            for j, field in enumerate((hand, route, aside)):
                for c in _ids(field):
                    out[b + j * K + c - 1] = 1
            if q == player:
                for c in _ids(box):
                    out[b + 3 * K + c - 1] = 1
            else:
                out[b + 3 * K] = int(box) / K
            b += 4 * K
            for i, ch in enumerate(tpile[:PILE]):
                out[b + i * (NT + 1) + (NT if ch == "?" else TERRAINS.index(ch.lower()))] = 1
            out[b + PILE * (NT + 1)] = len(tpile) / PILE
        return out


def _ids(field: str) -> list[int]:
    if field in ("", "-", "built", "building"):
        return []
    return [int(x) for x in field.split(",")]
