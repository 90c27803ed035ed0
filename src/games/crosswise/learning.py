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
their probabilities; the default game deals everything from its seed.

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

import random
from dataclasses import dataclass

import numpy as np

from crossridor.engine.errors import CrossridorError, IllegalMoveError, InvalidMoveError
from crossridor.engine.protocol import CHANCE, GameTraits, play_moves
from crossridor.engine.views import seat
from crossridor.games.crosswise import game as cw
from crossridor.games.crosswise import notation as nt
from crossridor.games.learning import LearningGame, LearningState, check_action

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


@dataclass(frozen=True, slots=True)
class Tile:
    """Chance outcome: a tile dealt or drawn (`tile:3`, `tile:M`)."""
    tile: int

    def __str__(self):
        return f"tile:{TILES[self.tile]}"

    __repr__ = __str__


@dataclass(frozen=True, slots=True)
class Start:
    """Chance outcome: who moves first, `player` an index; written as the
    seat (`start:1` for player index 0)."""
    player: int

    def __str__(self):
        return f"start:{seat(self.player)}"

    __repr__ = __str__


def parse_chance(text):
    t = text.strip().lower()
    if t.startswith("tile:") and len(t) == 6 and t[5].upper() in TILES:
        return Tile(TILES.index(t[5].upper()))
    if t.startswith("start:") and t[6:].isdigit() and 1 <= int(t[6:]) <= 4:
        return Start(int(t[6:]) - 1)
    return None


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


# ------------------------------------------------------------------ chance version

class ChanceCrosswise(LearningGame):
    """Crosswise whose deal and draws are chance nodes:
    `load_game("crosswise", players=n, chance=True)`. The deal comes first,
    tile by tile (seat 0's hand, then seat 1's, ...), then the starting seat;
    after each move that draws, a chance node draws the tile (probability:
    its count among the unseen tiles / the bag size)."""

    name = "crosswise"

    def __init__(self, players: int):
        self.players = players
        self.base = cw.CrosswiseGame(players)
        self.params = {"players": players, "chance": True}
        t = self.base.traits
        self.traits = GameTraits(t.name, t.num_players, chance=True, hidden_information=True,
                                 zero_sum=t.zero_sum, min_return=t.min_return,
                                 max_return=t.max_return, teams=t.teams)

    def __repr__(self) -> str:
        return f"load_game('crosswise', players={self.players}, chance=True)"

    def team_of(self, seat: int) -> int:
        return self.base.team_of(seat)

    def hand_size(self, seat: int) -> int:
        return 6 if (self.players == 3 and seat == 1) else 4

    def new_state(self, moves=None, seed=None) -> "ChanceCrosswiseState":
        """The start: the deal's first chance node. `moves` (chance outcomes
        included, e.g. "tile:3; tile:M; ...") are played in order; `seed` is
        unused (the chance nodes replace it)."""
        return play_moves(ChanceCrosswiseState(self), moves, sep=";")

    def state_from_position(self, position: str, seed: int = 0) -> "ChanceCrosswiseState":
        st = ChanceCrosswiseState(self)
        st.inner = self.base.state_from_position(position, seed)
        return st


class ChanceCrosswiseState(LearningState):
    def __init__(self, game: ChanceCrosswise):
        self.game = game
        self.inner = None                        # a CrosswiseState once dealt
        self.dealt = [[0] * 10 for _ in range(game.players)]
        self.pending = None                      # a move waiting for its draw
        self.log = []                            # (code, mover, hands after)
        self.first_hands = None
        self._undo = []

    # -- dealing
    def _dealing_seat(self) -> int | None:
        for p in range(self.game.players):
            if sum(self.dealt[p]) < self.game.hand_size(p):
                return p
        return None

    def _unseen(self) -> list[int]:
        """Tiles not on the board, in no hand, not played: the bag's contents."""
        left = list(nt.TOTAL)
        if self.inner is None:
            hands = self.dealt
            board, played = [], [0] * 4
        else:
            c = self.inner._c
            hands = [c.hand(p) for p in range(self.game.players)]
            board, played = [x for x in c.board() if x >= 0], c.played()
        for h in hands:
            for t in range(10):
                left[t] -= h[t]
        for x in board:
            left[x] -= 1
        for i in range(4):
            left[6 + i] -= played[i]
        return left

    # -- protocol
    @property
    def current_player(self) -> int:
        if self.inner is None or self.pending is not None:
            return CHANCE
        return self.inner.current_player

    def is_terminal(self) -> bool:
        return self.inner is not None and self.pending is None and self.inner.is_terminal()

    def returns(self) -> list[float]:
        return self.inner.returns() if self.is_terminal() else [0.0] * self.game.players

    def chance_outcomes(self) -> list:
        if self.inner is None and self._dealing_seat() is None:
            n = self.game.players
            return [(Start(s), 1.0 / n) for s in range(n)]
        if self.inner is None or self.pending is not None:
            left = self._unseen()
            total = sum(left)
            return [(Tile(t), left[t] / total) for t in range(10) if left[t]]
        return []

    def legal_moves(self) -> list:
        if self.is_chance_node():
            return [m for m, _ in self.chance_outcomes()]
        return self.inner.legal_moves()

    def parse_move(self, text):
        if self.is_chance_node():
            mv = parse_chance(text) if isinstance(text, str) else text
            if mv not in [m for m, _ in self.chance_outcomes()]:
                raise IllegalMoveError(f"crosswise: {text!s} is not a chance outcome here "
                                       f"(expected one of {', '.join(str(m) for m, _ in self.chance_outcomes())})")
            return mv
        if self.inner is None or self.is_terminal():
            raise IllegalMoveError(f"crosswise: {text!s} is not legal here (the game is over)")
        return self.inner.parse_move(text)

    def play(self, move) -> None:
        mv = self.parse_move(move) if isinstance(move, str) or self.is_chance_node() else move
        self._undo.append(self._snapshot())
        if self.inner is None:
            if isinstance(mv, Start):
                self._start(mv.player)
            else:
                self.dealt[self._dealing_seat()][mv.tile] += 1
            return
        if self.pending is not None:
            self._draw(mv.tile)
            return
        if isinstance(mv, str) or not isinstance(mv, nt.CrosswiseMove):
            mv = self.inner.parse_move(str(mv))
        probe = self.inner.clone()
        probe.play(mv)
        if probe._c.bag_count < self.inner._c.bag_count:
            self.pending = mv                    # the draw is the next (chance) node
        else:
            self._commit(mv)

    def _start(self, seat: int) -> None:
        n = self.game.players
        core = cw._core().CrosswiseCore()
        bag = [t for t in range(10) for _ in range(self._unseen()[t])]
        core.setup(n, [-1] * 36, self.dealt, [[0] * 10 for _ in range(n)], bag, [0] * 4,
                   core._cycle(n).index(seat), 0)
        self.inner = cw.CrosswiseState(self.game.base, core)
        self.first_hands = [list(h) for h in self.dealt]

    def _draw(self, tile: int) -> None:
        """Play the pending move with `tile` on top of the bag."""
        c = self.inner._c
        n = self.game.players
        bag = c.bag()
        bag.remove(tile)
        core = cw._core().CrosswiseCore()
        core.setup(n, c.board(), [c.hand(p) for p in range(n)], [c.known(p) for p in range(n)],
                   [tile] + bag, c.played(), c.slot, c.passes)
        self.inner = cw.CrosswiseState(self.game.base, core)
        mv, self.pending = self.pending, None
        self._commit(mv)

    def _commit(self, mv) -> None:
        mover = self.inner.current_player
        self.inner.play(mv)
        c = self.inner._c
        self.log.append((mv.code, mover, [c.hand(p) for p in range(self.game.players)]))

    def _snapshot(self):
        return (None if self.inner is None else self.inner.clone(), [list(h) for h in self.dealt],
                self.pending, len(self.log), self.first_hands)

    def undo(self) -> None:
        if not self._undo:
            raise IndexError("crosswise: no move to undo")
        inner, self.dealt, self.pending, k, self.first_hands = self._undo.pop()
        self.inner = inner
        del self.log[k:]

    def clone(self) -> "ChanceCrosswiseState":
        st = ChanceCrosswiseState(self.game)
        st.inner = None if self.inner is None else self.inner.clone()
        st.dealt = [list(h) for h in self.dealt]
        st.pending = self.pending
        st.log = list(self.log)
        st.first_hands = self.first_hands
        st._undo = list(self._undo)
        return st

    def evaluate(self) -> list[float]:
        return self.inner.evaluate() if self.inner is not None else [0.0] * self.game.players

    # -- hidden information
    def information_state(self, player: int) -> str:
        """The seat's view (`position(viewer=player)` of the game) while
        dealing / playing, plus the pending move (public) before a draw."""
        self._check(player)
        if self.inner is None:
            hands = ",".join(nt._tiles_text(h) if p == player else f"?{sum(h)}"
                             for p, h in enumerate(self.dealt))
            return f"{'/'.join(['......'] * 6)} - {hands} ?{sum(self._unseen())} - 0"
        view = self.inner.information_state(player)
        return view if self.pending is None else f"{view} | {self.pending}"

    def _check(self, player):
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.game.players:
            raise CrossridorError(f"crosswise: no player index {player!r} in a {self.game.players}-player game "
                                  f"(0..{self.game.players - 1}, seat - 1)")
        return True

    def sample_determinization(self, player: int, rng: random.Random):
        if self.inner is None or self.pending is not None:
            raise CrossridorError("crosswise: determinize at a player's turn, not at a chance node")
        return self.inner.sample_determinization(player, rng)

    def move_log(self, player: int):
        first = None if self.first_hands is None else self.first_hands[player]
        return first, [(code, mover, hands[player]) for code, mover, hands in self.log]

    def position(self, viewer: int | None = None) -> str:
        """The game's position string, once the deal is complete and no draw
        is pending (a position string cannot hold a half-made move)."""
        if self.inner is None or self.pending is not None:
            what = "dealing" if self.inner is None else f"drawing after {self.pending}"
            raise CrossridorError(f"crosswise: no position string while {what}; play the chance "
                                  f"outcomes ({', '.join(str(m) for m in self.legal_moves())}) first")
        return self.inner.position(viewer)

    def render(self, viewer: int | None = None) -> str:
        if viewer is not None:
            self._check(viewer)
        if self.inner is None:
            hands = "; ".join(f"seat {seat(p)}: " + (nt._tiles_text(h) if viewer in (None, p) else f"{sum(h)} hidden tiles")
                              for p, h in enumerate(self.dealt))
            return f"dealing (chance): {hands}"
        text = self.inner.render(viewer)
        return text + (f"\npending: {self.pending}, then a draw (chance)" if self.pending else "")

    def __str__(self) -> str:
        return self.render()
