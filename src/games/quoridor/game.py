"""Quoridor: notation, rendering and the game protocol, over the compiled
core (`crossridor.engine._core.QuoridorCore`). Rules: docs/rules/quoridor.md.

    >>> import crossridor
    >>> state = crossridor.load_game("quoridor").new_state("e2 e8 e3h")
    >>> str(state.parse_move("E7"))
    'e7'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from crossridor.engine._core import QuoridorCore, QuoridorSearchMemory, q_board_error, q_native_search
from crossridor.engine.errors import (
    CrossridorError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
)
from crossridor.engine.options import board_shape
from crossridor.engine.protocol import TERMINAL, GameTraits, SearchMemory
from crossridor.games.learning import LearningGame, LearningState
from crossridor.games.quoridor import search_options
from crossridor.games.quoridor.bounds import MAX_WALLS
from crossridor.games.quoridor.search_options import CLASSIC_WEIGHT_OPTIONS, OPTIONS

# Move codes of the core (see quoridor/board.pxi): bits 0-6 index, bits 7-8 kind;
# square index = row * 9 + col, wall anchor index = row * 8 + col.
_STEP, _HWALL, _VWALL, _PASS = 0, 1 << 7, 2 << 7, 3 << 7
SQ, AS = 9, 8
_KINDS = {"": _STEP, "h": _HWALL, "v": _VWALL}
_MOVE_RE = re.compile(r"^([a-i])([1-9])([hv]?)$")
_NUMBER_RE = re.compile(r"^\d+\.+$")
COLUMNS = "abcdefghi"

# The compiled searches' options are declared in search_options.
CLASSIC_WEIGHT_DEFAULTS = {p.name: p.default for p in CLASSIC_WEIGHT_OPTIONS}
SearchMemory.register(QuoridorSearchMemory)     # the type of the option `memory`


@dataclass(frozen=True, order=True)
class Move:
    """A Quoridor move: a pawn move to (col, row), a wall anchored at
    (col, row) with orientation 'h' or 'v', or the pass. 0-based col/row."""

    kind: str   # "" pawn move, "h", "v", or "--" for the pass
    col: int = 0
    row: int = 0

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Move from notation ('e2', 'e3h', 'E3V', '--'); InvalidMoveError if malformed.
        Whether it fits the board is checked by the state (`parse_move`)."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move must be text, got {type(text).__name__}")
        t = text.strip().lower()
        if t == "--":
            return PASS
        m = _MOVE_RE.match(t)
        if not m:
            raise InvalidMoveError(f"invalid move {text!r}: expected a square like 'e2', "
                                   f"a wall like 'e3h' / 'e3v', or '--'")
        return cls(m.group(3), COLUMNS.index(m.group(1)), int(m.group(2)) - 1)

    @property
    def is_wall(self) -> bool:
        return self.kind in ("h", "v")

    def __str__(self) -> str:
        if self.kind == "--":
            return "--"
        return f"{COLUMNS[self.col]}{self.row + 1}{self.kind}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


PASS = Move("--")


@lru_cache(maxsize=None)
def _code_table(width: int, height: int) -> tuple[dict, dict]:
    """Move <-> core code, for one board."""
    to_code, from_code = {}, {}
    for row in range(height):
        for col in range(width):
            mv = Move("", col, row)
            to_code[mv] = _STEP | (row * SQ + col)
    for row in range(height - 1):
        for col in range(width - 1):
            to_code[Move("h", col, row)] = _HWALL | (row * AS + col)
            to_code[Move("v", col, row)] = _VWALL | (row * AS + col)
    to_code[PASS] = _PASS
    for mv, code in to_code.items():
        from_code[code] = mv
    return to_code, from_code


def square_name(index: int) -> str:
    return f"{COLUMNS[index % SQ]}{index // SQ + 1}"


def split_moves(moves) -> list:
    """A move list from text ('e2 e8', '1. e2 e8 2. e3') or an iterable."""
    if moves is None:
        return []
    if isinstance(moves, str):
        tokens = moves.replace(",", " ").split()
        return [t for t in tokens if not _NUMBER_RE.match(t)]
    return list(moves)


@dataclass(frozen=True)
class QuoridorGame(LearningGame):
    """Quoridor with its options: size (N for N x N, or 'WxH' text: W
    columns, H rows; two players on 2..9 x 3..9, four on the odd squares),
    players (2 or 4), walls per player (default 10 with 2 players, 5 with 4),
    max_plies (a draw after that many moves; None = no limit)."""

    size: int | str = 9
    players: int = 2
    walls: int = 10
    max_plies: int | None = None

    name = "quoridor"

    @property
    def width(self) -> int:
        """Columns (a, b, ... from player 1's left)."""
        return board_shape(self.size)[0]

    @property
    def height(self) -> int:
        """Rows (1, 2, ... from player 1's side); the pawns race along them."""
        return board_shape(self.size)[1]

    @property
    def board(self) -> str:
        """The board as text: '9x9', '4x7' (columns x rows)."""
        return f"{self.width}x{self.height}"

    @property
    def traits(self) -> GameTraits:
        if self.players == 2:
            return GameTraits("quoridor", 2)
        return GameTraits("quoridor", 4, min_return=-1 / 3, max_return=1.0)

    @property
    def params(self) -> dict:
        return {"size": self.size, "players": self.players, "walls": self.walls,
                "max_plies": self.max_plies}

    def new_state(self, moves=None, seed=None) -> "QuoridorState":
        """The start position, then `moves` (text or a list) played in order.
        `seed` is accepted for uniformity with the card games (unused)."""
        state = QuoridorState(self, QuoridorCore(self.width, self.height, self.players, self.walls))
        for i, mv in enumerate(split_moves(moves)):
            try:
                state.play(mv)
            except (InvalidMoveError, IllegalMoveError) as exc:
                raise type(exc)(f"move {i + 1}: {exc}") from None
        return state

    def state_from_position(self, position: str) -> "QuoridorState":
        """The inverse of `state.position()`:
        'SIZExPLAYERS:pawns:walls-left:walls:to-move', e.g.
        '9x2:e1,e9:10,10:e3h,d5v:1' ('-' for no walls; to-move is 1-based);
        on a board that is not square, 'WxHxPLAYERS:...' ('4x7x2:...')."""
        if not isinstance(position, str):
            raise InvalidPositionError("a position must be text")
        parts = position.strip().lower().split(":")
        if len(parts) != 5:
            raise InvalidPositionError(f"invalid position {position!r}: expected "
                                       "'SIZExPLAYERS:pawns:walls-left:walls:to-move'")
        head, pawns_s, left_s, walls_s, turn_s = parts
        try:
            numbers = [int(x) for x in head.split("x")]
            if len(numbers) not in (2, 3):
                raise ValueError
        except ValueError:
            raise InvalidPositionError(f"invalid position {position!r}: bad board/players {head!r} "
                                       f"(SIZExPLAYERS or WxHxPLAYERS)") from None
        width, height, players = (numbers[0], numbers[0], numbers[1]) if len(numbers) == 2 else numbers
        if (width, height, players) != (self.width, self.height, self.players):
            raise InvalidPositionError(f"position is for {width}x{height} with {players} players, "
                                       f"the game is {self.board} with {self.players}")
        try:
            last_sq = f"{COLUMNS[width - 1]}{height}"
            last_anchor = f"{COLUMNS[width - 2]}{height - 1}"
            pawns = []
            for name in pawns_s.split(","):
                mv = Move.parse(name)
                if mv.kind != "" or mv.col >= width or mv.row >= height:
                    raise ValueError(f"pawn {name!r} is not a square a1..{last_sq}")
                pawns.append(mv.row * SQ + mv.col)
            try:
                left = [int(x) for x in left_s.split(",")]
            except ValueError:
                raise ValueError(f"walls left {left_s!r} are not numbers") from None
            hw = vw = 0
            if walls_s not in ("-", ""):
                for name in walls_s.split(","):
                    mv = Move.parse(name)
                    if not mv.is_wall or mv.col >= width - 1 or mv.row >= height - 1:
                        raise ValueError(f"wall {name!r} is not a wall a1h..{last_anchor}v "
                                         f"(anchor square, then h or v)")
                    bit = 1 << (mv.row * AS + mv.col)
                    if (hw | vw) & bit:
                        raise ValueError(f"wall {name!r} is given twice, or crosses another wall at its centre")
                    if mv.kind == "h":
                        hw |= bit
                    else:
                        vw |= bit
            try:
                turn = int(turn_s) - 1
            except ValueError:
                raise ValueError(f"to-move {turn_s!r} is not a player number") from None
            # checked here, before the core's C ints
            if not 0 <= turn < players:
                raise ValueError(f"to-move must be 1..{players}, got {turn_s!r}")
            if any(not 0 <= x <= MAX_WALLS for x in left):
                raise ValueError(f"walls left {left_s!r} must each be 0..{MAX_WALLS}")
            core = QuoridorCore(width, height, players, self.walls)
            core.set_position(pawns, left, hw, vw, turn)
        except ValueError as exc:
            raise InvalidPositionError(f"invalid position {position!r}: {exc}") from None
        return QuoridorState(self, core)


class QuoridorState(LearningState):
    """A Quoridor position (mutable: play/undo), implementing the protocol."""

    __slots__ = ("game", "core", "_to_code", "_from_code")

    def __init__(self, game: QuoridorGame, core: QuoridorCore):
        self.game = game
        self.core = core
        self._to_code, self._from_code = _code_table(game.width, game.height)

    # --- protocol
    @property
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.core.to_move

    def legal_moves(self) -> list[Move]:
        if self._draw_by_length():
            return []
        fc = self._from_code
        return [fc[c] for c in self.core.legal_codes()]

    def play(self, move) -> None:
        if isinstance(move, str):
            move = self.parse_move(move)
        elif not isinstance(move, Move):
            raise InvalidMoveError(f"not a Quoridor move: {move!r}")
        code = self._to_code.get(move)
        if code is None or self._draw_by_length() or not self.core.is_legal(code):
            raise IllegalMoveError(f"illegal move {str(move)!r}{self._why_illegal(move)}")
        self.core.play(code)

    def undo(self) -> None:
        self.core.undo()

    def clone(self) -> "QuoridorState":
        return QuoridorState(self.game, self.core.clone())

    def is_terminal(self) -> bool:
        return self.core.winner >= 0 or self._draw_by_length()

    @property
    def winner(self) -> int | None:
        """The winner's player index (seat - 1), or None."""
        w = self.core.winner
        return None if w < 0 else w

    def returns(self) -> list[float]:
        w = self.core.winner
        n = self.game.players
        if w < 0:
            return [0.0] * n
        other = -1.0 / (n - 1)
        return [1.0 if i == w else other for i in range(n)]

    def parse_move(self, text: str) -> Move:
        move = Move.parse(text)
        if move not in self._to_code:
            raise InvalidMoveError(f"invalid move {text.strip()!r}: off the {self.game.board} board")
        if self.is_terminal():
            raise IllegalMoveError(f"illegal move {text.strip()!r}: the game is over")
        if not self.core.is_legal(self._to_code[move]):
            raise IllegalMoveError(f"illegal move {text.strip()!r}{self._why_illegal(move)}")
        return move

    def key(self):
        return (self.core.hash, self.core.ply if self.game.max_plies else 0)

    def evaluate(self) -> list[float]:
        """Value per player in (-1, 1): the engine's one evaluation (path
        lengths, walls in hand, tempo; src/games/quoridor/eval.pxi), as the
        MCTS leaf uses it."""
        return self.core.values()

    # --- fast paths (the contract: protocol.NativeSearch)
    native_clock_algorithms = ("alphabeta",)

    def new_search_memory(self, algorithm):
        """A memory for one game's alpha-beta searches (search_api.search_memory)."""
        return QuoridorSearchMemory() if algorithm == "alphabeta" else None

    def option_defaults(self) -> dict:
        """The variant's own defaults of declared options: 4 players' classic
        evaluation weights, on the boards they were measured on."""
        game = self.game
        if game.players == 4 and (game.size, game.walls) in search_options.FOUR_PLAYER_BOARDS:
            return dict(search_options.FOUR_PLAYER_CLASSIC_WEIGHTS)
        return {}

    def native_search(self, algorithm, limits, seed, options, plan):
        """alphabeta, greedy and mcts in C, with the options of
        search_options.OPTIONS (complete and checked); a solved `table`
        answers the positions it holds."""
        if algorithm not in OPTIONS:
            return NotImplemented
        if options["table"] is not None:
            from crossridor.games.quoridor.solve import table_search
            found = table_search(self, options["table"], options["multipv"], options["searchmoves"])
            if found is not None:
                return found
        learned = self._learned_weights(algorithm, options)
        if algorithm != "mcts" and limits.time is None and limits.depth is None \
                and limits.nodes is None and limits.clock is None:
            raise CrossridorError(f"{algorithm} needs a time, depth or nodes limit (sims is for mcts)")
        return q_native_search(self, algorithm, limits, seed, options, plan, learned)

    def _learned_weights(self, algorithm, options):
        """The learned evaluation's weights for the C search (eval, eval_file),
        or None for the classic evaluation."""
        path = options["eval_file"]
        evaluation = options["eval"]
        if evaluation == "auto":
            evaluation = self._auto_eval(algorithm, options)
        if evaluation == "classic":
            if path is not None:
                raise CrossridorError("eval_file needs eval=learned")
            return None
        if self.game.players != 2:
            raise CrossridorError("eval=learned is for 2-player Quoridor (4 players: eval=classic)")
        tuned = self._tuned_weights(options)
        if tuned:
            raise CrossridorError(f"{', '.join(tuned)} {'tunes' if len(tuned) == 1 else 'tune'} the classic "
                                  f"evaluation, not eval=learned")
        if algorithm == "mcts" and options["rollout"] == "random":
            raise CrossridorError("mcts with rollout=random evaluates no position: eval=learned needs rollout=eval")
        from crossridor.games.quoridor.weights import weights_for_search
        return weights_for_search(path, self.game.size)

    def _auto_eval(self, algorithm, options) -> str:
        """eval=auto: learned with eval_file, or for the algorithms of
        search_options.LEARNED_BY_DEFAULT on the 2-player boards of
        LEARNED_BOARDS unless a classic weight is changed from its default;
        classic elsewhere."""
        if options["eval_file"] is not None:
            return "learned"
        if algorithm in search_options.LEARNED_BY_DEFAULT and self.game.players == 2 \
                and (self.game.size, self.game.walls) in search_options.LEARNED_BOARDS \
                and not self._tuned_weights(options):
            return "learned"
        return "classic"

    def _tuned_weights(self, options) -> list[str]:
        """The classic evaluation's weights set to other than this variant's defaults."""
        defaults = {**CLASSIC_WEIGHT_DEFAULTS, **self.option_defaults()}
        return [name for name, default in defaults.items()
                if name in options and options[name] != default]

    def move_for_code(self, code: int) -> Move:
        """The Move of one of the core's move codes (the compiled search's answers)."""
        return self._from_code[code]

    def code_for_move(self, move: Move) -> int:
        """The core's code of a move of this board (the compiled search's searchmoves)."""
        return self._to_code[move]

    def native_perft(self, depth: int, divide: bool, hash_mb: int):
        if self.game.max_plies is not None and self.core.ply + depth > self.game.max_plies:
            return NotImplemented   # the move limit cuts the tree: count through the protocol
        if not divide:
            return self.core.perft(depth, hash_mb)
        out = []
        for code in self.core.legal_codes():
            self.core.play(code)
            out.append((self._from_code[code], self.core.perft(max(depth - 1, 0), hash_mb)))
            self.core.undo()
        return out

    # --- extras
    @property
    def ply(self) -> int:
        return self.core.ply

    @property
    def pawns(self) -> tuple[str, ...]:
        return tuple(square_name(s) for s in self.core.pawns)

    @property
    def walls_left(self) -> tuple[int, ...]:
        return self.core.walls_left

    @property
    def placed_walls(self) -> list[Move]:
        out = []
        for kind, bits in (("h", self.core.hwalls), ("v", self.core.vwalls)):
            for a in range(64):
                if bits >> a & 1:
                    out.append(Move(kind, a % AS, a // AS))
        return sorted(out, key=lambda mv: (mv.row, mv.col, mv.kind))

    @property
    def moves(self) -> list[Move]:
        """The moves played since the start (or since the position set up)."""
        return [self._from_code[c] for c in self.core.history()]

    def distances(self) -> tuple[int, ...]:
        return tuple(self.core.distance(i) for i in range(self.game.players))

    def position(self) -> str:
        g = self.game
        walls = ",".join(str(w) for w in self.placed_walls) or "-"
        head = f"{g.width}x{g.players}" if g.width == g.height else f"{g.board}x{g.players}"
        return (f"{head}:{','.join(self.pawns)}:"
                f"{','.join(str(w) for w in self.walls_left)}:{walls}:{self.core.to_move + 1}")

    def view(self, viewer: int | None = None) -> dict:
        """The position as plain data (the game protocol's `view`; Quoridor
        hides nothing, so every viewer sees the same)."""
        if viewer is not None and not (viewer == -1 or 0 <= viewer < self.game.players):
            raise CrossridorError(f"quoridor: no player index {viewer!r} in a {self.game.players}-player game "
                                  f"(0..{self.game.players - 1}, seat - 1)")
        history = [str(m) for m in self.moves]
        last = None
        if history:
            mover = (self.core.to_move - 1) % self.game.players
            before = self.clone()
            before.undo()
            last = {"move": history[-1], "player": mover, "from": before.pawns[mover]}
        over = self.is_terminal()
        return {"game": "quoridor", "viewer": viewer, "size": self.game.size, "width": self.game.width,
                "height": self.game.height, "players": self.game.players,
                "pawns": list(self.pawns), "walls": [str(w) for w in self.placed_walls],
                "walls_left": list(self.walls_left), "to_move": None if over else self.core.to_move,
                "over": over, "winner": self.winner, "history": history, "last": last,
                "position": self.position()}

    def to_svg(self, viewer: int | None = None, last_move: bool = True, arrows=()) -> str:
        """The board as SVG text (quoridor/svg.py). `arrows`: moves
        ('e4': from the pawn to move; 'e3h': a ghost wall) or (from, to)
        square pairs, e.g. the principal variation from `pv_arrows`; any of
        them as {"arrow": item, "faint": True} is drawn paler (another line's move)."""
        from crossridor.games.quoridor.svg import quoridor_svg
        return quoridor_svg(self.view(viewer), last_move=last_move, arrows=arrows)

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def pv_arrows(self, pv) -> list:
        """A principal variation as `to_svg` arrows: each pawn move from the
        square its pawn stands on then, each wall as a ghost wall."""
        st = self.clone()
        out = []
        for mv in pv:
            mv = st.parse_move(str(mv))
            out.append(str(mv) if mv.is_wall else (st.pawns[st.core.to_move], str(mv)))
            st.play(mv)
        return out

    def _draw_by_length(self) -> bool:
        mp = self.game.max_plies
        return mp is not None and self.core.ply >= mp and self.core.winner < 0

    def _why_illegal(self, move: Move) -> str:
        if self.core.winner >= 0:
            return ": the game is over"
        if self._draw_by_length():
            return ": the game is over (move limit)"
        if move.is_wall and self.core.walls_left[self.core.to_move] == 0:
            return ": no walls left"
        if move.is_wall:
            return ": the wall overlaps or crosses another, or blocks a pawn's last path"
        if move == PASS:
            return ": a pass is legal only with no other move"
        return ": the pawn cannot reach that square"

    def __str__(self) -> str:
        return render_board(self)

    def __repr__(self) -> str:
        return f"<QuoridorState {self.position()!r}>"


def render_board(state: QuoridorState) -> str:
    """The board as players draw it: row 1 at the bottom, walls as '=' and '#'."""
    w, h = state.game.width, state.game.height
    hw, vw = state.core.hwalls, state.core.vwalls
    pawn_at = {sq: str(i + 1) for i, sq in enumerate(state.core.pawns)}

    def hwall(col, row):  # wall segment below square (col, row+1), i.e. between rows row and row+1
        for c in (col - 1, col):
            if 0 <= c < w - 1 and 0 <= row < h - 1 and hw >> (row * AS + c) & 1:
                return True
        return False

    def vwall(col, row):  # between columns col and col+1 at row
        for r in (row - 1, row):
            if 0 <= r < h - 1 and 0 <= col < w - 1 and vw >> (r * AS + col) & 1:
                return True
        return False

    header = "    " + "   ".join(COLUMNS[:w])
    lines = [header]
    border = "  +" + "+".join("---" for _ in range(w)) + "+"
    lines.append(border)
    for row in range(h - 1, -1, -1):
        cells = []
        for col in range(w):
            cells.append(f" {pawn_at.get(row * SQ + col, '.')} ")
            if col < w - 1:
                cells.append("#" if vwall(col, row) else "|")
        lines.append(f"{row + 1:>2}|" + "".join(cells) + f"|{row + 1}")
        if row > 0:
            seg = []
            for col in range(w):
                seg.append("===" if hwall(col, row - 1) else "---")
                if col < w - 1:
                    a = (row - 1) * AS + col
                    if hw >> a & 1:
                        seg.append("=")
                    elif vw >> a & 1:
                        seg.append("#")
                    else:
                        seg.append("+")
            lines.append("  +" + "".join(seg) + "+")
    lines.append(border)
    lines.append(header)
    left = "  ".join(f"{i + 1}: {w}" for i, w in enumerate(state.walls_left))
    status = (f"player {state.winner + 1} wins" if state.winner is not None
              else "draw (move limit)" if state.is_terminal()
              else f"player {state.core.to_move + 1} to move")
    lines.append(f"walls left  {left}   {status}")
    return "\n".join(lines)


def load(size=9, players=2, walls=None, max_plies=None) -> QuoridorGame:
    """The game of `crossridor.load_game('quoridor', ...)`, whose parameters
    the registry has checked (`entry.PARAMS`). walls None: 10 each with 2
    players, 5 with 4."""
    width, height = board_shape(size)
    error = q_board_error(width, height, players)
    if error is not None:
        raise CrossridorError(f"quoridor: {error}")
    if walls is None:
        walls = 10 if players == 2 else 5
    return QuoridorGame(width if width == height else f"{width}x{height}", players, walls, max_plies)
