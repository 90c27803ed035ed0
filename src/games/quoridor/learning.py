"""Quoridor for learning agents: action ids and observation planes.

Action ids (N = size, M = N - 1; stable: they depend only on N):
    0 .. N*N-1                      pawn move to square (col c, row r): r*N + c
    N*N .. N*N+M*M-1                horizontal wall at anchor (c, r): N*N + r*M + c
    N*N+M*M .. N*N+2*M*M-1          vertical wall at anchor (c, r): N*N + M*M + r*M + c
    N*N+2*M*M                       the pass
so num_distinct_actions() = N*N + 2*M*M + 1 (210 on 9x9). Columns and rows
are 0-based from a1 (`e3h` on 9x9 is 81 + 2*8 + 4 = 101). Ids are absolute
(not turned with the observation); `canonical_action(id, player)` turns an
id into the player's frame of the observation, `absolute_action` back.

Observation: float32 planes [4P + 2, N, N] (P players), seen from the
observing player's side: the board is turned by player * 4 / P quarter
turns counterclockwise ((c, r) -> (N-1-r, c) per turn; a quarter turn swaps
horizontal and vertical walls), so that the observer always moves towards
the last row. Planes, seats counted from the observer (i = 0 is the
observer, i = 1 the next to move, ...):
    0 .. P-1        pawn of seat i, one-hot
    P, P+1          horizontal / vertical walls, 1 at the anchor [r, c]
    P+2 .. 2P+1     walls in hand of seat i / walls per player (constant plane)
    2P+2 .. 3P+1    1 on the plane of the seat to move
    3P+2 .. 4P+1    distance field of seat i: steps from each square to that
                    seat's goal side (walls only, pawns ignored) / N^2;
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


def _rot(n: int, t: int, c: int, r: int) -> tuple[int, int]:
    """(c, r) turned t quarter turns counterclockwise on an n x n grid."""
    for _ in range(t % 4):
        c, r = n - 1 - r, c
    return c, r


@lru_cache(maxsize=None)
def _tables(size: int) -> tuple:
    """(moves by id, id by core code, id by move) for one board size."""
    n, m = size, size - 1
    moves = [Move("", i % n, i // n) for i in range(n * n)]
    moves += [Move("h", i % m, i // m) for i in range(m * m)]
    moves += [Move("v", i % m, i // m) for i in range(m * m)]
    moves.append(PASS)
    to_code, _ = _code_table(size)
    by_code = {to_code[mv]: a for a, mv in enumerate(moves)}
    by_move = {mv: a for a, mv in enumerate(moves)}
    return tuple(moves), by_code, by_move


class Codec:
    def __init__(self, game):
        self.game = game
        self.n = game.size
        self.players = game.players
        self.moves, self.by_code, self.by_move = _tables(game.size)
        self.chance_base = len(self.moves)     # no chance outcomes

    def num_distinct_actions(self) -> int:
        return len(self.moves)

    def action_to_move(self, action) -> Move:
        return self.moves[check_action(action, len(self.moves))]

    def move_to_action(self, move) -> int:
        mv = Move.parse(move) if isinstance(move, str) else move
        a = self.by_move.get(mv)
        if a is None:
            raise IllegalMoveError(f"{move!s} is not a move on the {self.n}x{self.n} board")
        return a

    def legal_actions(self, state) -> list[int]:
        if state.is_terminal():
            return []
        by_code = self.by_code
        return sorted(by_code[c] for c in state.core.legal_codes())

    def observation_tensor_shape(self) -> tuple:
        return (4 * self.players + 2, self.n, self.n)

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
            c, r = _rot(self.n, t, mv.col, mv.row)
            return self.by_move[Move("", c, r)]
        c, r = _rot(self.n - 1, t, mv.col, mv.row)
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
    shape = (len(states), 4 * game.players + 2, game.size, game.size)
    if out is None:
        out = np.empty(shape, dtype=np.float32)
    elif not (isinstance(out, np.ndarray) and out.dtype == np.float32 and out.shape == shape
              and out.flags.c_contiguous):
        raise ValueError(f"observation_batch: out must be a C-contiguous float32 array of shape {shape}")
    if players is not None:
        players = [int(p) for p in players]
        if len(players) != len(states):
            raise ValueError("observation_batch: one player per state")
    # the core checks that every state has the game's size, players and walls
    q_observation_batch([s.core for s in states], players, out)
    return out
