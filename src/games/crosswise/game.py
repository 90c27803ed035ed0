"""Crosswise (Cravotta, 2011): the game protocol and rendering over the
compiled core `crossridor.engine._core.CrosswiseCore`; the notation below is
read and written by `crosswise.notation`.

Rules: docs/rules/crosswise.md. Decisions this module adds, beyond
the rule file's own **[decision]** points:

- Replace with a symbol identical to the tile on the board is a no-op and not
  legal (like the rule file's Swap of two identical symbols).
- Once every seat has passed since the last move (nobody can move), the game ends and
  is scored as it stands. (Without it a board emptied by Removes and hands of
  action tiles only would loop forever.)
- Seats (1..n; player index = seat - 1, docs/notation.md): team Rows =
  seats 1 and 3, team Columns = seats 2 and 4; with three players seat 2 is
  the solo player (6 tiles) and the turn order is 1, 2, 3, 2, 1, ...; with
  two players seat 1 plays Rows, seat 2 Columns.
- A tile taken into a hand by Remove or Replace is seen by everybody, so it
  is *known* to be in that hand until a tile of the same kind is played from
  it. Information states and determinizations keep these known tiles.

Notation
--------
Cells `a1`..`f6`: file (column) letter a-f, rank (row) number 1-6. Row 1 is
team Rows' first line, column a team Columns' first line.
Tiles: symbols `1`..`6`; action tiles `M` Move, `R` Remove, `P` Replace
(rePlace), `S` Swap.
Moves: `3@c4` (put symbol 3 on c4), `move c4>d5`, `remove c4`,
`replace c4=2` (the 2 from the hand goes to c4, c4's tile to the hand),
`swap c4,d5` (written with the smaller cell first), `--` (pass, only when no
other move is legal). Keywords and cells are case-insensitive on input.
A move list in one string separates moves with `;`: "3@c4; move c4>d5".

Position string (six space-separated fields)
--------------------------------------------
    <board> <turn> <hands> <bag> <played> <passes>

- board: ranks 6 down to 1 separated by `/`, six characters each, `1`-`6`
  or `.` for an empty cell (file a first).
- turn: the seat to move (1..n); with three players when the solo seat 2 is
  to move, `2>1` or `2>3` names the partner who moves after it.
- hands: one field per seat, comma-separated, seat 1 first. A visible hand
  is its tiles in the order 123456MRPS (`-` if empty); a hidden hand is
  `?n` (n tiles). Either may end with `:tiles`, the tiles publicly known to
  be in that hand.
- bag: `?n` (n tiles, order hidden) or the tiles in draw order (`-` empty).
- played: the action tiles played so far, e.g. `MMS`, or `-`.
- passes: consecutive passes so far.

`state.position()` shows everything (a full position: every hand and the
bag order); `state.position(viewer=p)` shows what player index p (seat
p + 1) knows, which is also `state.information_state(p)`. `game.state_from_position(s, seed=0)`
reads either; hidden tiles are dealt at random from the unseen ones
(seeded), so `game.state_from_position(s).position(viewer=p) == s` for a
position seen by p, and `.position() == s` for a full position.

Example, the start of a two-player game (seat 2 to move):
    ....../....../....../....../....../...... 2 1556,124R ?46 - 0
"""

from __future__ import annotations

import math
import random
import time
from typing import Iterable

from crossridor.engine.errors import CrossridorError, IllegalMoveError, InvalidMoveError, InvalidPositionError
from crossridor.engine.options import C_INT
from crossridor.engine.protocol import TERMINAL, GameTraits, Line, SearchResult, play_moves
from crossridor.games.crosswise.notation import (
    ACTION_NAMES,
    KIND_MOVE,
    KIND_PASS,
    KIND_PLACE,
    KIND_REMOVE,
    KIND_REPLACE,
    KIND_SWAP,
    TEAM_NAMES,
    TILE_CHARS,
    CrosswiseMove,
    _move,
    _tiles_text,
    cell_name,
    parse_position,
    turn_texts,
)
from crossridor.games.crosswise.search_options import OPTIONS
from crossridor.games.learning import LearningGame, LearningState


def _core():
    from crossridor.engine import _core
    return _core


# ------------------------------------------------------------------ game

class CrosswiseGame(LearningGame):
    """`load_game("crosswise", players=2|3|4)`."""

    name = "crosswise"

    def __init__(self, players: int = 2):
        self.players = players
        self.params = {"players": players}
        teams = {2: ((0,), (1,)), 3: ((0, 2), (1,)), 4: ((0, 2), (1, 3))}[players]
        self.traits = GameTraits(name="crosswise", num_players=players, chance=False,
                                 hidden_information=True, zero_sum=(players != 3),
                                 min_return=-1.0, max_return=1.0, teams=teams)

    def __repr__(self) -> str:
        return f"load_game('crosswise', players={self.players})"

    def team_of(self, seat: int) -> int:
        """0 Rows, 1 Columns."""
        return seat & 1

    def new_state(self, moves: str | Iterable | None = None, seed: int | None = None) -> "CrosswiseState":
        """A new deal. `seed` fixes the bag order (and so every draw) and the
        starting seat; None draws a random seed. `moves`: moves to play, as a
        `;`-separated string or an iterable of moves / texts."""
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise CrossridorError(f"crosswise: seed must be an int, got {seed!r}")
        core = _core().CrosswiseCore()
        core.deal(self.players, seed % (1 << 64))
        st = CrosswiseState(self, core)
        st.seed = seed
        return play_moves(st, moves, sep=";")

    def state_from_position(self, position: str, seed: int = 0) -> "CrosswiseState":
        """Read a position string (format in the module docstring). Hidden
        hand tiles and a hidden bag order are dealt from the unseen tiles with
        `seed`."""
        n, board, hands, known, bag, played, slot, passes = parse_position(position, self.players, seed)
        core = _core().CrosswiseCore()
        try:
            core.setup(n, board, hands, known, bag, played, slot, passes)
        except (ValueError, OverflowError) as e:
            raise InvalidPositionError(f"{e} (position {position!r})") from None
        st = CrosswiseState(self, core)
        st.seed = None
        return st

    def state_from_core(self, core) -> "CrosswiseState":
        """A state over a compiled core already set up (the chance version,
        `chance`, sets up its deal and its draws itself)."""
        return CrosswiseState(self, core)

def load(players=2, chance=False) -> LearningGame:
    """The game of `crossridor.load_game('crosswise', ...)`, whose parameters
    the registry has checked (`entry.PARAMS`). chance: the deal and the
    draws as chance nodes (for learning agents)."""
    if chance:
        from crossridor.games.crosswise.chance import ChanceCrosswise
        return ChanceCrosswise(CrosswiseGame(players))
    return CrosswiseGame(players)


# ------------------------------------------------------------------ state

class CrosswiseState(LearningState):
    """A full Crosswise state (every hand and the bag order are inside; the
    protocol's hidden-information methods give each player only their view)."""

    def __init__(self, game: CrosswiseGame, core):
        self.game = game
        self._c = core
        self.seed: int | None = None

    # -- protocol ----------------------------------------------------------

    @property
    def current_player(self) -> int:
        return TERMINAL if self._c.over else self._c.to_move

    def legal_moves(self) -> list[CrosswiseMove]:
        if self._c.over:
            return []
        return [_move(c) for c in self._c.legal_codes()]

    def parse_move(self, text: str) -> CrosswiseMove:
        m = CrosswiseMove.parse(text)
        if not self._c.is_legal(m.code):
            raise IllegalMoveError(f"crosswise: {text!r} is not legal here ({self._why_illegal(m)})")
        return _move(m.code)

    def _why_illegal(self, m: CrosswiseMove) -> str:
        if self._c.over:
            return "the game is over"
        p = self._c.to_move
        hand = self._c.hand(p)
        board = self._c.board()
        k, a, b = m.kind, m.a, m.b
        need = {KIND_MOVE: 6, KIND_REMOVE: 7, KIND_REPLACE: 8, KIND_SWAP: 9}.get(k)
        if need is not None and not hand[need]:
            return f"seat {p + 1} holds no {ACTION_NAMES[need - 6]} tile"
        if k == KIND_PLACE:
            if not hand[b]:
                return f"seat {p + 1} holds no {b + 1}"
            return f"{cell_name(a)} is occupied"
        if k == KIND_PASS:
            return "a pass is legal only without any other move"
        if board[a] < 0:
            return f"{cell_name(a)} is empty"
        if k == KIND_MOVE:
            return f"{cell_name(b)} is occupied"
        if k == KIND_REPLACE:
            if not hand[b]:
                return f"seat {p + 1} holds no {b + 1}"
            return f"{cell_name(a)} already holds a {b + 1}"
        if k == KIND_SWAP:
            if board[b] < 0:
                return f"{cell_name(b)} is empty"
            return "both tiles are the same symbol"
        return "illegal"

    def play(self, move) -> None:
        if isinstance(move, str):
            move = self.parse_move(move)
        if not isinstance(move, CrosswiseMove):
            raise InvalidMoveError(f"crosswise: not a move: {move!r}")
        if self._c.over:
            raise IllegalMoveError(f"crosswise: {str(move)!r} is not legal here (the game is over)")
        if not self._c.is_legal(move.code):
            raise IllegalMoveError(f"crosswise: {str(move)!r} is not legal here ({self._why_illegal(move)})")
        self._c.play(move.code)

    def undo(self) -> None:
        self._c.undo()

    def clone(self) -> "CrosswiseState":
        st = CrosswiseState(self.game, self._c.clone())
        st.seed = self.seed
        return st

    def is_terminal(self) -> bool:
        return self._c.over

    def winner_team(self) -> int | None:
        """0 Rows, 1 Columns, 2 draw, None while the game goes on."""
        w = self._c.winner
        return None if w < 0 else w

    def returns(self) -> list[float]:
        w = self._c.winner
        n = self.game.players
        if w < 0 or w == 2:
            return [0.0] * n
        return [1.0 if (p & 1) == w else -1.0 for p in range(n)]

    def evaluate(self) -> list[float]:
        if self._c.over:
            return self.returns()
        r, c = self._c.scores()
        v = math.tanh((r - c) / 20.0)
        return [v if (p & 1) == 0 else -v for p in range(self.game.players)]

    def information_state(self, player: int) -> str:
        self._check_seat(player)
        return self.position(viewer=player)

    def sample_determinization(self, player: int, rng: random.Random) -> "CrosswiseState":
        """A full state consistent with what `player` knows: the other hands
        (beyond their known tiles) and the bag redealt from the unseen tiles.
        The copy has no move history."""
        self._check_seat(player)
        st = CrosswiseState(self.game, self._c.determinize(player, rng.getrandbits(64)))
        st.seed = None
        return st

    def _check_seat(self, player) -> None:
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.game.players:
            raise CrossridorError(f"crosswise: no player index {player!r} in a {self.game.players}-player game "
                                  f"(0..{self.game.players - 1}, seat - 1)")

    # -- queries -------------------------------------------------------------

    def scores(self) -> tuple[int, int]:
        """(Rows, Columns) points of the board as it stands."""
        return tuple(self._c.scores())

    def line_scores(self):
        return self._c.line_scores()

    def board(self) -> list[int]:
        """36 cells (a1, b1, ..., f6): symbol 1-6, or 0 for empty."""
        return [c + 1 for c in self._c.board()]

    def hand(self, seat: int) -> str:
        self._check_seat(seat)
        return _tiles_text(self._c.hand(seat))

    def history(self) -> list[CrosswiseMove]:
        return [_move(c) for c in self._c.history()]

    # -- text ----------------------------------------------------------------

    def position(self, viewer: int | None = None) -> str:
        """The position string; with `viewer`, only what that seat sees."""
        if viewer is not None:
            self._check_seat(viewer)
        c = self._c
        board = c.board()
        ranks = []
        for row in range(5, -1, -1):
            ranks.append("".join("." if board[row * 6 + col] < 0 else str(board[row * 6 + col] + 1)
                                 for col in range(6)))
        n = self.game.players
        turn = turn_texts(n)[c.slot]
        hands = []
        for p in range(n):
            h, k = c.hand(p), c.known(p)
            body = _tiles_text(h) if viewer is None or viewer == p else f"?{sum(h)}"
            if sum(k):
                body += ":" + _tiles_text(k)
            hands.append(body)
        if viewer is None:
            bag = _tiles_text([0] * 10) if c.bag_count == 0 else "".join(TILE_CHARS[t] for t in c.bag())
        else:
            bag = f"?{c.bag_count}"
        played = "".join(TILE_CHARS[6 + i] * k for i, k in enumerate(c.played())) or "-"
        return f"{'/'.join(ranks)} {turn} {','.join(hands)} {bag} {played} {c.passes}"

    def view(self, viewer: int | None = None) -> dict:
        """What seat `viewer` may see, as plain data (None: everything). The
        one filter of hidden tiles: `render`, `to_svg` and the web app use it.
        Other seats' hands are a count and the tiles publicly known to be in
        them; the bag is a count. Moves are public, so the history is whole."""
        if viewer is not None:
            self._check_seat(viewer)
        c = self._c
        rows, cols = c.line_scores()
        hands = []
        for p in range(self.game.players):
            h, k = c.hand(p), c.known(p)
            hand = {"seat": p, "team": TEAM_NAMES[p & 1], "count": sum(h),
                    "known": _tiles_text(k) if sum(k) else ""}
            if viewer is None or viewer == p:
                hand["tiles"] = _tiles_text(h) if sum(h) else ""
            hands.append(hand)
        over = bool(c.over)
        return {
            "game": "crosswise", "players": self.game.players, "viewer": viewer,
            "board": self.board(), "row_scores": list(rows), "col_scores": list(cols),
            "scores": list(self.scores()), "hands": hands, "bag": c.bag_count,
            "played": list(c.played()), "to_move": None if over else c.to_move,
            "over": over, "winner_team": self.winner_team(), "six": c.six >= 0,
            "status": self._status(), "history": [str(m) for m in self.history()],
            "position": self.position(viewer),
        }

    @staticmethod
    def _board_lines(v: dict) -> list[str]:
        board, rows, cols = v["board"], v["row_scores"], v["col_scores"]
        lines = ["    a b c d e f   Rows"]
        for row in range(5, -1, -1):
            cells = " ".join("." if board[row * 6 + col] == 0 else str(board[row * 6 + col])
                             for col in range(6))
            lines.append(f" {row + 1}  {cells}   {rows[row]:2d}")
        lines.append("    " + " ".join(str(v) for v in cols) + "   Columns")  # a line scores at most 7
        r, c = v["scores"]
        lines.append(f"Rows {r}  Columns {c}")
        return lines

    def _status(self) -> str:
        c = self._c
        if c.over:
            w = c.winner
            how = " (six identical)" if c.six >= 0 else ""
            return "game over: draw" if w == 2 else f"game over: {TEAM_NAMES[w]} win{how}"
        p = c.to_move
        return f"to move: seat {p + 1} ({TEAM_NAMES[p & 1]})"

    def __str__(self) -> str:
        v = self.view()
        return "\n".join(self._board_lines(v) + [v["status"]])

    def render(self, viewer: int | None = None) -> str:
        """The board, scores, and the hands as `viewer` may see them (all of
        them when viewer is None): `view(viewer)` as text."""
        v = self.view(viewer)
        out = self._board_lines(v)
        for hand in v["hands"]:
            who = f"seat {hand['seat'] + 1} ({hand['team']})"
            if "tiles" in hand:
                txt = hand["tiles"] or "-"
            else:
                txt = f"{hand['count']} hidden tiles"
                if hand["known"]:
                    txt += f", known to include {hand['known']}"
            out.append(f"{who}: {txt}")
        out.append(f"bag: {v['bag']} tiles")
        out.append("played: " + ", ".join(f"{ACTION_NAMES[i]} {k}" for i, k in enumerate(v["played"])))
        out.append(v["status"])
        return "\n".join(out)

    def to_svg(self, viewer: int | None = None, last_move: bool = True, arrows=()) -> str:
        """The table as `viewer` sees it, as SVG text (see crosswise/svg.py)."""
        from crossridor.games.crosswise.svg import crosswise_svg
        return crosswise_svg(self.view(viewer), last_move=last_move, arrows=arrows)

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def __repr__(self) -> str:
        return f"<CrosswiseState {self.position()!r}>"

    # -- search ----------------------------------------------------------------

    def native_search(self, algorithm, limits, seed, options, plan):
        """ISMCTS, greedy and random in the compiled core, with the options of
        search_options.OPTIONS (complete and checked).

        ismcts: a determinized search (Perfect-Information Monte Carlo) from
        the view of the player to move; it never reads the hidden tiles
        (every deal redeals them from what the mover has seen). Limits: time
        and/or sims (nodes is read as sims). Deal after deal, every root
        candidate (root_k, 30: the best by one-move gain plus every win /
        six block; 0: every move) is scored in the deal by playing it out to
        the end with greedy moves for every seat (the bag order of the deal
        gives the draws). A deal's value is squashed to -1..1 (a won game is
        about +1) and averaged; the best average is played. halving=1
        (default; 0 = off) spends the budget in phases, keeping the better
        half of the root moves after each (sequential halving). infer=N
        (0..64, default 2; 0 = off) reads the other team's last N moves: a
        deal is redealt (up to 48 times) until, taken back to each of those
        moves, the mover's dealt hand makes that move the greedy one; hands
        that would have played otherwise are unlikely. Against greedy at 300
        sims (100 games, the same deals) infer=2 scored 70.5%, infer=0
        64.5%, root_k=30 with halving 70.5%, the three together (the
        defaults) 74.5%. sims counts evaluations (one root move in one
        deal); nodes = them.
        greedy: instant win, else block a six, else best score difference
        (own team - other team); ties: first in generation order. Its score:
        the squashed score difference after the move (1 for a six).

        multipv=N (ismcts, greedy): the N best root moves as result.lines,
        each with the move alone as its line (the mover cannot know how the
        hidden tiles continue it). ismcts: halving and root_k keep at least
        N candidates; lines rank the moves alive after halving first, then
        the ones dropped earlier, each by its average over the deals it was
        scored in (extra: deals, mean). greedy: the moves in greedy's order
        (extra: threats, the other team's threats of six after the move;
        gain, its score difference gain). A line's score is capped by the
        one above it, so that scores never increase down the lines.
        searchmoves: only those root moves are candidates (ismcts: root_k
        and the wins and six blocks are chosen among them)."""
        if algorithm not in OPTIONS:
            return NotImplemented
        if self._c.over:
            raise CrossridorError("crosswise: cannot search a finished game")
        if algorithm == "ismcts":
            sims = limits.sims if limits.sims is not None else limits.nodes
            secs = limits.time
            if sims is None and secs is None:
                raise CrossridorError("crosswise ismcts: limits need time, sims or nodes")
            # the core counts simulations in a C int: 2^31 of them take days, i.e. no bound
            sims = min(sims or 0, C_INT)
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        seed = int(seed) % (1 << 64)
        multipv = options.get("multipv", 1)
        only = options.get("searchmoves")
        codes = None if only is None else [m.code for m in only]
        t0 = time.perf_counter()
        extra = {}
        ranked: list[tuple[int, float, dict]] = []     # (code, score, extra) of the lines, best first
        if algorithm == "greedy":
            rows = self._c.greedy_lines(codes)
            code, score, nodes = rows[0][0], rows[0][4], len(rows)
            ranked = [(m, value, {"threats": threats, "gain": gain})
                      for m, _, threats, gain, value in rows[:multipv]]
        elif algorithm == "random":
            code, score, nodes = self._c.random_move(seed), 0.0, 1
        if algorithm == "ismcts":
            try:
                code, score, nodes, leaves, stats = self._c.pimc(
                    sims, secs or 0.0, seed, options["root_k"], options["halving"], options["infer"],
                    multipv, codes)
            except ValueError as e:
                raise CrossridorError(str(e)) from None
            extra = {"evals": nodes, "leaf_moves": leaves,
                     "top": [(str(_move(m)), v, round(q, 4)) for m, v, q in stats[:5]]}
            ranked = [(m, q, {"deals": n, "mean": q}) for m, n, q in stats[:multipv]]
        dt = time.perf_counter() - t0
        move = _move(code)
        score = max(-1.0, min(1.0, score))
        return SearchResult(move=move, score=score, depth=1, nodes=nodes, seconds=dt,
                            nps=nodes / dt if dt > 0 else 0.0, pv=(move,), extra=extra,
                            lines=_lines(ranked))


def _lines(ranked: list[tuple[int, float, dict]]) -> tuple[Line, ...]:
    """Lines of one root move each from (code, score, extra), best first;
    each score in -1..1 and no higher than the one above (the searches rank
    by more than the score: greedy by threats of six first, PIMC by the
    moves halving kept)."""
    lines: list[Line] = []
    cap = 1.0
    for code, score, extra in ranked:
        move = _move(code)
        cap = max(-1.0, min(cap, score))
        lines.append(Line(move, cap, 1, (move,), extra))
    return tuple(lines)
