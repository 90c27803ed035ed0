"""Qwatrobat for learning agents: action ids and tensors.

Action ids (S = number of setups, `len(game.setups())`: 126 with 8 cards,
1110 with 10; C = columns, 4 or 5):
    0 .. S-1        setup game.setups()[id] (sorted; any arrangement of the
                    same columns maps to the id of its canonical form)
    S .. S+C-1      push column id - S (c1 is S)
    S+C, S+C+1      chance: first:1, first:2
num_distinct_actions() = S + C + 2.

Observation (float32 vector), built from what `player` may see (hidden cards
come from `QState._layout_view`, the view behind `show --viewer`); seats are
relative: block 0 is the observer, block 1 the opponent. V = card values.
    per seat: laid out (1); per column, front then back card: one-hot over
        [value 1..V, hidden, gone]                  2 * C * (V + 2)
              cards left in the column, one-hot 0..2                 C * 3
              score / total points                                   1
    battlefield: cards per value, of seat 0 / seat 1 (0..2)          2 * V
    round one-hot (rounds + 1), slot one-hot (4)
    first player of the round: observer, opponent, not drawn yet     3
    to move: observer, opponent, chance, game over                   4

Information state (perfect recall): the observation, then the pushes so far
in order, one row each (pusher relative (2), column (C), value (V)), for all
2 * cards pushes, rows of zeros for those not made yet. Setups and the
first-player draw are in the observation already.
"""

from __future__ import annotations

import numpy as np

from crossridor.engine.errors import IllegalMoveError
from crossridor.engine.protocol import CHANCE, TERMINAL
from crossridor.games.learning import check_action
from crossridor.games.qwatrobat.rules import First, Push, Setup, parse_move_text


class Codec:
    def __init__(self, game):
        self.game = game
        self.setups = list(game.setups())
        self.setup_id = {s: i for i, s in enumerate(self.setups)}
        self.C, self.V, self.R = game.ncols, game.nvals, game.rounds
        self.S = len(self.setups)
        self.chance_base = self.S + self.C     # ids of chance outcomes start here
        self.seat_size = 1 + 2 * self.C * (self.V + 2) + 3 * self.C + 1
        self.obs_size = 2 * self.seat_size + 2 * self.V + (self.R + 1) + 4 + 3 + 4
        self.push_size = 2 + self.C + self.V
        self.pushes = 2 * len(game.hand)

    def num_distinct_actions(self) -> int:
        return self.S + self.C + 2

    def action_to_move(self, action):
        a = check_action(action, self.num_distinct_actions())
        if a < self.S:
            return self.setups[a]
        if a < self.S + self.C:
            return Push(a - self.S)
        return First(a - self.S - self.C)

    def move_to_action(self, move) -> int:
        mv = parse_move_text(move)
        if isinstance(mv, Setup):
            a = self.setup_id.get(mv.canonical())
            if a is None:
                raise IllegalMoveError(f"qwatrobat: {move!s} is not a setup of this game")
            return a
        if isinstance(mv, Push):
            if mv.col >= self.C:
                raise IllegalMoveError(f"qwatrobat: {move!s}: there are only {self.C} columns")
            return self.S + mv.col
        return self.S + self.C + mv.player

    def observation_tensor_shape(self) -> tuple:
        return (self.obs_size,)

    def observation_tensor(self, state, player: int) -> np.ndarray:
        g, C, V = self.game, self.C, self.V
        out = np.zeros(self.obs_size, dtype=np.float32)
        total = sum(g.points)
        for i, owner in enumerate((player, 1 - player)):
            base = i * self.seat_size
            view = state._layout_view(player, owner)      # the one filter: '?' = hidden
            if view != "-":
                out[base] = 1
                front, back = view.split("/")
                for row, cards in enumerate((front, back)):
                    for c, ch in enumerate(cards):
                        gone = state.rem[owner][c] < 2 - row
                        k = V + 1 if gone else (V if ch == "?" else int(ch) - 1)
                        out[base + 1 + (row * C + c) * (V + 2) + k] = 1
                for c in range(C):
                    out[base + 1 + 2 * C * (V + 2) + 3 * c + state.rem[owner][c]] = 1
            out[base + self.seat_size - 1] = state.scores[owner] / total
        k = 2 * self.seat_size
        for v, o in state.field:
            out[k + (0 if o == player else V) + v - 1] += 1
        k += 2 * V
        out[k + min(state.round, self.R)] = 1
        k += self.R + 1
        out[k + state.slot] = 1
        k += 4
        out[k + (2 if state.first is None else (0 if state.first == player else 1))] = 1
        k += 3
        p = state.current_player
        out[k + (3 if p == TERMINAL else 2 if p == CHANCE else (0 if p == player else 1))] = 1
        return out

    def information_state_tensor_shape(self) -> tuple:
        return (self.obs_size + self.pushes * self.push_size,)

    def information_state_tensor(self, state, player: int) -> np.ndarray:
        out = np.zeros(self.information_state_tensor_shape(), dtype=np.float32)
        out[:self.obs_size] = self.observation_tensor(state, player)
        # who pushed which card (pushes are public), from the undo snapshots
        k = self.obs_size
        for mv, snap in state._history:
            if isinstance(mv, Push):
                layout, rem, _, _, slot, first = snap[:6]
                p = first if slot % 2 == 0 else 1 - first
                lay = layout[p]
                value = lay.front[mv.col] if rem[p][mv.col] == 2 else lay.back[mv.col]
                out[k + (0 if p == player else 1)] = 1
                out[k + 2 + mv.col] = 1
                out[k + 2 + self.C + value - 1] = 1
                k += self.push_size
        return out
