"""Quoridor for learning agents: action ids and observation planes.

Action ids on a board of W columns and H rows (N x N: W = H = N), with
A = (W-1) * (H-1) wall anchors; stable: they depend only on W and H:
    0 .. W*H-1                      pawn move to square (col c, row r): r*W + c
    W*H .. W*H+A-1                  horizontal wall at anchor (c, r): W*H + r*(W-1) + c
    W*H+A .. W*H+2*A-1              vertical wall at anchor (c, r): W*H + A + r*(W-1) + c
    W*H+2*A                         the pass
so num_distinct_actions() = W*H + 2*A + 1 (210 on 9x9, 65 on 4x7). Columns
and rows are 0-based from a1 (`e3h` on 9x9 is 81 + 2*8 + 4 = 101; `b3h` on
4x7 is 28 + 2*3 + 1 = 35). Ids are absolute (not turned with the
observation); `canonical_action(id, player)` turns an id into the player's
frame of the observation, `absolute_action` back.

Observation: float32 planes [4P + 2, H, W] (P players; plane cell [r, c]
is column c of row r), seen from the observing player's side: the board is
turned by player * 4 / P quarter turns counterclockwise ((c, r) ->
(N-1-r, c) per turn on N x N; a quarter turn swaps horizontal and vertical
walls; with two players, on any board, player 2's half turn is (c, r) ->
(W-1-c, H-1-r)), so that the observer always moves towards the last row.
Planes, seats counted from the observer (i = 0 is the observer, i = 1 the
next to move, ...):
    0 .. P-1        pawn of seat i, one-hot
    P, P+1          horizontal / vertical walls, 1 at the anchor [r, c]
    P+2 .. 2P+1     walls in hand of seat i / walls per player (constant plane)
    2P+2 .. 3P+1    1 on the plane of the seat to move
    3P+2 .. 4P+1    distance field of seat i: steps from each square to that
                    seat's goal side (walls only, pawns ignored) / (W*H);
                    1 on squares walled off from the goal
Quoridor has no hidden information, so there is no separate information
state tensor. Filled in C (src/games/quoridor/tensors.pxi); `observation_batch`
fills a batch in one call without the GIL.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from crossridor.engine._core import q_observation_batch
from crossridor.engine.errors import IllegalMoveError
from crossridor.games.learning import check_action
from crossridor.games.quoridor.game import PASS, Move, _code_table


def _rot(w: int, h: int, t: int, c: int, r: int) -> tuple[int, int]:
    """(c, r) turned t quarter turns counterclockwise on a grid of w columns
    and h rows (odd t: square grids only, where four players play)."""
    for _ in range(t % 4):
        c, r, w, h = h - 1 - r, c, h, w
    return c, r


@lru_cache(maxsize=None)
def _tables(width: int, height: int) -> tuple:
    """(moves by id, id by core code, id by move) for one board."""
    w, m = width, width - 1
    anchors = m * (height - 1)
    moves = [Move("", i % w, i // w) for i in range(w * height)]
    moves += [Move("h", i % m, i // m) for i in range(anchors)]
    moves += [Move("v", i % m, i // m) for i in range(anchors)]
    moves.append(PASS)
    to_code, _ = _code_table(width, height)
    by_code = {to_code[mv]: a for a, mv in enumerate(moves)}
    by_move = {mv: a for a, mv in enumerate(moves)}
    return tuple(moves), by_code, by_move


class Codec:
    def __init__(self, game):
        self.game = game
        self.width, self.height = game.width, game.height
        self.players = game.players
        self.moves, self.by_code, self.by_move = _tables(game.width, game.height)
        self.chance_base = len(self.moves)     # no chance outcomes

    def num_distinct_actions(self) -> int:
        return len(self.moves)

    def action_to_move(self, action) -> Move:
        return self.moves[check_action(action, len(self.moves))]

    def move_to_action(self, move) -> int:
        mv = Move.parse(move) if isinstance(move, str) else move
        a = self.by_move.get(mv)
        if a is None:
            raise IllegalMoveError(f"{move!s} is not a move on the {self.game.board} board")
        return a

    def legal_actions(self, state) -> list[int]:
        if state.is_terminal():
            return []
        by_code = self.by_code
        return sorted(by_code[c] for c in state.core.legal_codes())

    def observation_tensor_shape(self) -> tuple:
        return (4 * self.players + 2, self.height, self.width)

    def observation_tensor(self, state, player: int) -> np.ndarray:
        out = np.empty((1,) + self.observation_tensor_shape(), dtype=np.float32)
        q_observation_batch([state.core], [player], out)
        return out[0]

    # -- the canonical frame of the observation
    def turns(self, player: int) -> int:
        return player * 4 // self.players

    def canonical_action(self, action: int, player: int) -> int:
        return self._turn(check_action(action, len(self.moves)), self.turns(player))

    def absolute_action(self, action: int, player: int) -> int:
        return self._turn(check_action(action, len(self.moves)), -self.turns(player))

    def _turn(self, action: int, t: int) -> int:
        mv = self.moves[action]
        t %= 4
        if mv == PASS or t == 0:
            return action
        if mv.kind == "":
            c, r = _rot(self.width, self.height, t, mv.col, mv.row)
            return self.by_move[Move("", c, r)]
        c, r = _rot(self.width - 1, self.height - 1, t, mv.col, mv.row)
        kind = mv.kind if t % 2 == 0 else ("v" if mv.kind == "h" else "h")
        return self.by_move[Move(kind, c, r)]


def observation_batch(states, players=None, out=None) -> np.ndarray:
    """Observations of many states of one Quoridor game, filled by the core
    in one call: out[k] is the observation of players[k] (default: the
    player to move) in states[k]. `out` (float32, C-contiguous, shape
    (len(states),) + observation_tensor_shape()) is reused when given."""
    states = list(states)
    if not states:
        raise ValueError("observation_batch: no states")
    game = states[0].game
    shape = (len(states), 4 * game.players + 2, game.height, game.width)
    if out is None:
        out = np.empty(shape, dtype=np.float32)
    elif not (isinstance(out, np.ndarray) and out.dtype == np.float32 and out.shape == shape
              and out.flags.c_contiguous):
        raise ValueError(f"observation_batch: out must be a C-contiguous float32 array of shape {shape}")
    if players is not None:
        players = [int(p) for p in players]
        if len(players) != len(states):
            raise ValueError("observation_batch: one player per state")
    # the core checks that every state has the game's board, players and walls
    q_observation_batch([s.core for s in states], players, out)
    return out
