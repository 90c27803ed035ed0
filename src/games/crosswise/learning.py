"""Crosswise for learning agents: action ids, tensors, and a version whose
deal and draws are chance nodes.

Action ids (stable; cells 0..35 = row * 6 + col from a1, symbols 0..5 = 1..6):
    0 .. 215        place: cell * 6 + symbol                      (`3@c4`)
    216 .. 1475     move a > b: 216 + a * 35 + (b - 1 if b > a else b)
    1476 .. 1511    remove: 1476 + cell
    1512 .. 1727    replace: 1512 + cell * 6 + symbol
    1728 .. 2357    swap a, b (a < b): 1728 + index of the pair (a, b) in
                    the order (0,1), (0,2), ..., (0,35), (1,2), ...
    2358            pass
    2359 .. 2368    chance: the tile dealt or drawn, 123456MRPS (`tile:M`)
    2369 .. 2372    chance: the seat that starts (`start:2`)
num_distinct_actions() = 2373. The chance ids occur only in the game loaded
with chance=True (`load_game("crosswise", players=2, chance=True)`): there the
deal (tile by tile, seat 1's hand first) and every draw are chance nodes with
their probabilities (the chance version: `chance`); the default game deals
everything from its seed.

Observation (float32, 330): a function of `position(viewer=player)` alone,
the one view of what a seat may see (the one behind `show --viewer`), so it
holds the board, the observer's own tiles, every seat's hand size and
publicly known tiles, and counts — never another hand or the bag order.
Seats are relative (0 = the observer, 1 = the next seat, ...).
    0 .. 251        board: cell * 7 + (0 empty, 1..6 symbol)
    252 .. 255      the observer's seat (absolute), one-hot (team, solo seat)
    256 .. 259      turn-cycle slot, one-hot (with 3 players the solo seat
                    moves at slots 1 and 3)
    260 .. 269      the observer's hand, count of each tile / 7
    270 .. 313      per relative seat: hand size / 6, then its publicly known
                    tiles (count of each / 7)
    314             tiles in the bag / 54
    315 .. 318      action tiles played (Move, Remove, Replace, Swap) / 3
    319 .. 322      consecutive passes, one-hot
    323 .. 326      seat to move, relative, one-hot (none while dealing)
    327 .. 329      dealing, a draw pending (chance), game over
Information state (perfect recall): the observation, the observer's first
hand (10 counts / 7), then one row of 92 per move made since the deal: kind
(6: place, move, remove, replace, swap, pass), cell a (36), cell b or symbol
(36), mover relative (4), the observer's hand after the move (10 counts / 7);
54 * players + players rows, rows of zeros for moves not made yet.
"""

from __future__ import annotations

import numpy as np

from crossridor.engine.errors import IllegalMoveError, InvalidMoveError
from crossridor.engine.views import seat
from crossridor.games.crosswise import notation as nt
from crossridor.games.crosswise.chance import ChanceCrosswiseState, Start, Tile, parse_chance
from crossridor.games.learning import check_action

TILES = nt.TILE_CHARS
DRAW0, START0, NUM_ACTIONS = 2359, 2369, 2373
OBS = 330
ROW = 92


def _all_codes() -> list[int]:
    P, M, RM, RP, SW = nt.KIND_PLACE, nt.KIND_MOVE, nt.KIND_REMOVE, nt.KIND_REPLACE, nt.KIND_SWAP
    codes = [a | (s << 6) | (P << 12) for a in range(36) for s in range(6)]
    codes += [a | (b << 6) | (M << 12) for a in range(36) for b in range(36) if b != a]
    codes += [a | (RM << 12) for a in range(36)]
    codes += [a | (s << 6) | (RP << 12) for a in range(36) for s in range(6)]
    codes += [a | (b << 6) | (SW << 12) for a in range(36) for b in range(a + 1, 36)]
    codes.append(nt.PASS_CODE)
    return codes


_CODES = _all_codes()
_ID = {c: i for i, c in enumerate(_CODES)}
assert len(_CODES) == DRAW0


class Codec:
    def __init__(self, game):
        self.game = game
        self.n = game.players
        self.rows = 54 * self.n + self.n
        self.chance_base = DRAW0               # ids of chance outcomes start here

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def action_to_move(self, action):
        a = check_action(action, NUM_ACTIONS)
        if a < DRAW0:
            return nt._move(_CODES[a])
        if a < START0:
            return Tile(a - DRAW0)
        return Start(a - START0)

    def move_to_action(self, move) -> int:
        if isinstance(move, str):
            move = parse_chance(move) or nt.CrosswiseMove.parse(move)
        if isinstance(move, Tile):
            return DRAW0 + move.tile
        if isinstance(move, Start):
            if not 0 <= move.player < 4:
                raise IllegalMoveError(f"crosswise: no seat {seat(move.player)}")
            return START0 + move.player
        if not isinstance(move, nt.CrosswiseMove) or move.code not in _ID:
            raise InvalidMoveError(f"crosswise: not a move: {move!r}")
        return _ID[move.code]

    def legal_actions(self, state) -> list[int]:
        if isinstance(state, ChanceCrosswiseState):
            return sorted(self.move_to_action(m) for m in state.legal_moves())
        return sorted(_ID[c] for c in state._c.legal_codes()) if not state.is_terminal() else []

    # -- tensors
    def observation_tensor_shape(self) -> tuple:
        return (OBS,)

    def observation_tensor(self, state, player: int) -> np.ndarray:
        view = state.information_state(player).split(" | ")[0]   # without a pending move
        return encode_view(view, player, self.n, _phase(state))

    def information_state_tensor_shape(self) -> tuple:
        return (OBS + 10 + self.rows * ROW,)

    def information_state_tensor(self, state, player: int) -> np.ndarray:
        out = np.zeros(self.information_state_tensor_shape(), dtype=np.float32)
        out[:OBS] = self.observation_tensor(state, player)
        if isinstance(state, ChanceCrosswiseState):
            first, log = state.move_log(player)
        else:
            first, log = core_move_log(state._c, player)
        if first is not None:
            out[OBS:OBS + 10] = np.asarray(first, dtype=np.float32) / 7
        k = OBS + 10
        for code, mover, hand in log:
            kind, a, b = code >> 12, code & 63, (code >> 6) & 63
            out[k + kind] = 1
            if kind != nt.KIND_PASS:
                out[k + 6 + a] = 1
                if kind != nt.KIND_REMOVE:
                    out[k + 42 + b] = 1
            out[k + 78 + (mover - player) % self.n] = 1
            out[k + 82:k + 92] = np.asarray(hand, dtype=np.float32) / 7
            k += ROW
        return out


def _phase(state) -> int:
    """0 play, 1 dealing, 2 a draw pending, 3 over."""
    if state.is_terminal():
        return 3
    if isinstance(state, ChanceCrosswiseState):
        if state.inner is None:
            return 1
        if state.pending is not None:
            return 2
    return 0


def encode_view(view: str, player: int, n: int, phase: int) -> np.ndarray:
    """The observation from a seat's view string (the position format of
    games.crosswise, as `position(viewer=player)` writes it; while dealing the
    turn field is '-')."""
    out = np.zeros(OBS, dtype=np.float32)
    board, turn, hands, bag, played, passes = view.split()
    for r, rank in enumerate(board.split("/")):
        row = 5 - r
        for col, ch in enumerate(rank):
            out[(row * 6 + col) * 7 + (0 if ch == "." else int(ch))] = 1
    out[252 + player] = 1
    if turn != "-":
        slot = nt.turn_texts(n).index(turn)
        out[256 + slot] = 1
        mover = nt.turn_mover(n, slot)
        if phase in (0, 2):
            out[323 + (mover - player) % n] = 1
    for q, h in enumerate(hands.split(",")):
        body, _, known = h.partition(":")
        rel = (q - player) % n
        if body.startswith("?"):
            size = int(body[1:])
        else:
            counts = _counts(body)
            size = sum(counts)
            if q == player:
                out[260:270] = np.asarray(counts, dtype=np.float32) / 7
        out[270 + 11 * rel] = size / 6
        if known:
            out[271 + 11 * rel:281 + 11 * rel] = np.asarray(_counts(known), dtype=np.float32) / 7
    out[314] = int(bag[1:]) / 54 if bag.startswith("?") else (0 if bag == "-" else len(bag) / 54)
    for ch in played.replace("-", ""):
        out[315 + TILES.index(ch) - 6] += 1 / 3
    out[319 + min(int(passes), 3)] = 1
    if phase:
        out[326 + phase] = 1
    return out


def _counts(text: str) -> list[int]:
    c = [0] * 10
    for ch in text.replace("-", ""):
        c[TILES.index(ch.upper())] += 1
    return c


def core_move_log(core, player: int):
    """(first hand of player or None, [(code, mover, player's hand after)])
    for the moves in the core's history, by undoing them on a copy."""
    c = core.clone()
    log = []
    while c.nhist:
        hand = c.hand(player)
        code = c.history()[-1]
        c.undo()
        log.append((code, c.to_move, hand))
    log.reverse()
    return list(c.hand(player)), log
