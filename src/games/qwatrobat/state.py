"""Qwatrobat's state: moves played and undone, what each player may see
(information states, determinizations, `view`), the position text and its
parser. Its searches are in `players` (`native_search`)."""

from __future__ import annotations

from crossridor.engine.errors import IllegalMoveError, InvalidMoveError, InvalidPositionError, UnsupportedGameError
from crossridor.engine.protocol import CHANCE, SPECTATOR, TERMINAL, applied
from crossridor.engine.views import seat
from crossridor.games.learning import LearningState
from crossridor.games.qwatrobat import players
from crossridor.games.qwatrobat.rules import First, Push, Setup, parse_move_text, resolve_field


class QState(LearningState):
    def __init__(self, game):                # a Qwatrobat: its rules and options
        self.game = game
        n = game.ncols
        self.layout = [None, None]           # Setup per player
        self.rem = [[2] * n, [2] * n]        # cards left per column
        self.field = ()                      # sorted tuple of (value, owner)
        self.round = 0                       # 0-based
        self.slot = 0                        # pushes made this round
        self.first = game.first if game.first is not None else None
        self.scores = [0, 0]
        self._history = []                   # (move, snapshot)
        self.last_round = None               # (winner, field before removal) of the last round

    # -- snapshots for undo
    def _snap(self):
        return (list(self.layout), [list(r) for r in self.rem], self.field, self.round, self.slot,
                self.first, list(self.scores), self.last_round)

    def _restore(self, s):
        (self.layout, self.rem, self.field, self.round, self.slot, self.first, self.scores,
         self.last_round) = s
        self.layout = list(self.layout)
        self.rem = [list(r) for r in self.rem]
        self.scores = list(self.scores)

    def clone(self) -> "QState":
        c = QState.__new__(QState)
        c.game = self.game
        c.layout = list(self.layout)
        c.rem = [list(self.rem[0]), list(self.rem[1])]
        c.field = self.field
        c.round = self.round
        c.slot = self.slot
        c.first = self.first
        c.scores = list(self.scores)
        c._history = list(self._history)
        c.last_round = self.last_round
        return c

    # -- phase
    def _slot_player(self):
        return self.first if self.slot % 2 == 0 else 1 - self.first

    @property
    def current_player(self) -> int:
        if self.layout[0] is None:
            return 0
        if self.layout[1] is None:
            return 1
        if self.first is None:
            return CHANCE
        if self.round >= self.game.rounds:
            return TERMINAL
        return self._slot_player()

    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player == CHANCE

    def returns(self) -> list:
        if not self.is_terminal():
            return [0.0, 0.0]
        d = self.scores[0] - self.scores[1]
        if d > 0:
            return [1.0, -1.0]
        if d < 0:
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def top_card(self, player: int, col: int):
        r = self.rem[player][col]
        lay = self.layout[player]
        if r == 2:
            return lay.front[col]
        if r == 1:
            return lay.back[col]
        return None

    def legal_moves(self) -> list:
        p = self.current_player
        if p == TERMINAL:
            return []
        if p == CHANCE:
            return [First(0), First(1)]
        if self.layout[p] is None:
            return list(self.game.setups())
        return [Push(c) for c in range(self.game.ncols) if self.rem[p][c] > 0]

    def chance_outcomes(self) -> list:
        if self.current_player != CHANCE:
            return []
        return [(First(0), 0.5), (First(1), 0.5)]

    def _check_setup(self, mv: Setup, text):
        n = self.game.ncols
        if len(mv.front) != n:
            raise IllegalMoveError(f"qwatrobat: setup {text!r} must have {n} columns")
        if tuple(sorted(mv.front + mv.back)) != self.game.hand:
            raise IllegalMoveError(f"qwatrobat: setup {text!r} must use exactly the cards "
                                   f"{' '.join(map(str, self.game.hand))}")

    def parse_move(self, text):
        mv = parse_move_text(text)
        self._check_legal(mv, text)
        return mv

    def _check_legal(self, mv, text):
        p = self.current_player
        if p == TERMINAL:
            raise IllegalMoveError(f"qwatrobat: {str(text)!r}: the game is over")
        if p == CHANCE:
            if not isinstance(mv, First):
                raise IllegalMoveError(f"qwatrobat: {str(text)!r}: the first player is being drawn "
                                       f"(expected first:1 or first:2)")
            return
        if self.layout[p] is None:
            if not isinstance(mv, Setup):
                raise IllegalMoveError(f"qwatrobat: {str(text)!r}: player {p + 1} must lay out a setup first")
            self._check_setup(mv, text)
            return
        if not isinstance(mv, Push):
            raise IllegalMoveError(f"qwatrobat: {str(text)!r}: player {p + 1} must push a column "
                                   f"(c1..c{self.game.ncols})")
        if mv.col >= self.game.ncols:
            raise IllegalMoveError(f"qwatrobat: {str(text)!r}: there are only {self.game.ncols} columns")
        if self.rem[p][mv.col] == 0:
            raise IllegalMoveError(f"qwatrobat: {str(text)!r}: column {mv.col + 1} of player {p + 1} is empty")

    def play(self, move) -> None:
        mv = parse_move_text(move)
        self._check_legal(mv, move)
        self._history.append((mv, self._snap()))
        p = self.current_player
        if p == CHANCE:
            assert isinstance(mv, First)        # _check_legal: the chance node draws the first player
            self.first = mv.player
            self._skip()
            return
        if isinstance(mv, Setup):
            self.layout[p] = mv
            if self.layout[0] is not None and self.layout[1] is not None and self.first is not None:
                self._skip()
            return
        assert isinstance(mv, Push)             # _check_legal: a laid-out player pushes
        card = self.top_card(p, mv.col)
        self.rem[p][mv.col] -= 1
        self.field = tuple(sorted(self.field + ((card, p),)))
        self.slot += 1
        self._skip()

    def _skip(self):
        """Skip push slots whose player cannot push; resolve a finished round."""
        g = self.game
        while self.round < g.rounds:
            if self.slot >= 4:
                before = self.field
                self.field, winner, _ = resolve_field(self.field, g.clear_four, g.nvals)
                if winner is not None:
                    self.scores[winner] += g.points[self.round]
                    self.first = winner
                self.last_round = (winner, before)
                self.round += 1
                self.slot = 0
                continue
            if any(self.rem[self._slot_player()]):
                return
            self.slot += 1

    def undo(self) -> None:
        if not self._history:
            raise IndexError("qwatrobat: no move to undo")
        _, snap = self._history.pop()
        self._restore(snap)

    def apply(self, move) -> "QState":
        return applied(self, move)

    @property
    def history(self) -> list:
        return [m for m, _ in self._history]

    # -- keys, evaluation
    def key(self):
        return (tuple(self.layout), tuple(self.rem[0]), tuple(self.rem[1]), self.field, self.round,
                self.slot, self.first, tuple(self.scores))

    def remaining_points(self) -> int:
        return sum(self.game.points[self.round:])

    def evaluate(self) -> list:
        """Score lead scaled by the points still to play, in [-1, 1]."""
        if self.is_terminal():
            return self.returns()
        d = self.scores[0] - self.scores[1]
        rem = self.remaining_points()
        if abs(d) > rem:
            v = 1.0 if d > 0 else -1.0
        else:
            v = 0.9 * d / (rem + 1)
        return [v, -v]

    # -- hidden information
    def _known_to(self, viewer, owner):
        """May `viewer` see the unpushed cards of `owner`?"""
        if viewer == owner:
            return True
        if self.game.open and self.layout[0] is not None and self.layout[1] is not None:
            return True
        return False

    def _layout_view(self, viewer, owner) -> str:
        lay = self.layout[owner]
        if lay is None:
            return "-"
        if self._known_to(viewer, owner):
            return str(lay)
        # only the cards already pushed are visible
        n = self.game.ncols
        f = "".join(str(lay.front[c]) if self.rem[owner][c] < 2 else "?" for c in range(n))
        b = "".join(str(lay.back[c]) if self.rem[owner][c] < 1 else "?" for c in range(n))
        return f"{f}/{b}"

    def information_state(self, player: int) -> str:
        """Everything `player` knows: their own layout, the opponent's pushed
        cards (by column), column fill levels, battlefield, scores, turn."""
        lays = ";".join(self._layout_view(player, o) for o in (0, 1))
        rem = ";".join("".join(map(str, self.rem[o])) if self.layout[o] is not None else "-" for o in (0, 1))
        return (f"P{player}|{lays}|{rem}|{self._field_str()}|{self.round}|{self.slot}|"
                f"{'?' if self.first is None else self.first}|{self.scores[0]},{self.scores[1]}")

    def sample_determinization(self, player: int, rng) -> "QState":
        """The opponent's unseen cards dealt at random over their unpushed slots."""
        s = self.clone()
        o = 1 - player
        lay = s.layout[o]
        if lay is None or self._known_to(player, o):
            return s
        n = self.game.ncols
        front, back = list(lay.front), list(lay.back)
        slots = [("f", c) for c in range(n) if s.rem[o][c] == 2] + [("b", c) for c in range(n) if s.rem[o][c] >= 1]
        # sorted first: the deal depends on what `player` knows, never on where the unseen cards
        # really are (the same seed, the same deal in states it cannot tell apart)
        cards = sorted(front[c] if k == "f" else back[c] for k, c in slots)
        rng.shuffle(cards)
        for (k, c), v in zip(slots, cards):
            (front if k == "f" else back)[c] = v
        s.layout[o] = Setup(tuple(front), tuple(back))
        # the history of the clone refers to hidden cards; a determinization has no past
        s._history = []
        return s

    # -- text
    def _field_str(self) -> str:
        return ",".join(f"{v}@{seat(o)}" for v, o in self.field) if self.field else "-"

    def position(self) -> str:
        lay = ["-" if v is None else str(v) for v in self.layout]
        rem = ["-" if self.layout[p] is None else "".join(map(str, self.rem[p])) for p in (0, 1)]
        rnd = self.round + 1
        return (f"{lay[0]};{lay[1]};{rem[0]};{rem[1]};{self._field_str()};{rnd};{self.slot};"
                f"{'?' if self.first is None else seat(self.first)};{self.scores[0]},{self.scores[1]}")

    @staticmethod
    def from_position(game, position: str) -> "QState":
        def bad(why):
            raise InvalidPositionError(f"qwatrobat: bad position {position!r}: {why}")
        if not isinstance(position, str):
            bad("not a string")
        parts = position.strip().split(";")
        if len(parts) != 9:
            bad(f"expected 9 fields separated by ';', got {len(parts)}")
        s = QState(game)
        n = game.ncols
        for p in (0, 1):
            if parts[p] == "-":
                if parts[2 + p] != "-":
                    bad(f"player {p + 1} has no layout but column counts {parts[2 + p]!r}")
                continue
            try:
                lay = Setup.parse(parts[p])
            except InvalidMoveError:
                bad(f"layout {parts[p]!r}")
            if len(lay.front) != n or tuple(sorted(lay.front + lay.back)) != game.hand:
                bad(f"layout {parts[p]!r} must use the cards {''.join(map(str, game.hand))} in {n} columns")
            r = parts[2 + p]
            if len(r) != n or any(ch not in "012" for ch in r):
                bad(f"column counts {r!r} must be {n} digits 0-2")
            s.layout[p] = lay
            s.rem[p] = [int(ch) for ch in r]
        if s.layout[0] is None and s.layout[1] is not None:
            bad("player 2 cannot lay out before player 1")
        field = []
        if parts[4] != "-":
            for tok in parts[4].split(","):
                try:
                    value, owner = tok.split("@")
                    v, o = int(value), int(owner)
                except ValueError:
                    bad(f"battlefield card {tok!r} (expected value@owner, the owner's seat 1 or 2)")
                if not (1 <= v <= game.nvals and o in (1, 2)):
                    bad(f"battlefield card {tok!r}")
                field.append((v, o - 1))
        s.field = tuple(sorted(field))
        try:
            rnd, slot = int(parts[5]), int(parts[6])
        except ValueError:
            bad("round and slot must be integers")
        if not (1 <= rnd <= game.rounds + 1) or not (0 <= slot <= 3) or (rnd == game.rounds + 1 and slot):
            bad(f"round {parts[5]} / slot {parts[6]} out of range")
        s.round, s.slot = rnd - 1, slot
        if parts[7] == "?":
            if game.first is not None:
                bad("first player must be given ('1' or '2') when the option first is set")
            s.first = None
        elif parts[7] in ("1", "2"):
            s.first = int(parts[7]) - 1
        else:
            bad(f"first player {parts[7]!r}")
        try:
            sc = [int(x) for x in parts[8].split(",")]
        except ValueError:
            bad(f"scores {parts[8]!r}")
        if len(sc) != 2 or min(sc) < 0 or sum(sc) > sum(game.points[: s.round]):
            bad(f"scores {parts[8]!r}")
        s.scores = sc
        # consistency: pushes made, battlefield made of pushed cards
        started = s.layout[1] is not None and s.first is not None
        if not started and (s.round or s.slot or s.field or any(sc)):
            bad("play cannot have started before both layouts and the first player")
        if not started:
            for p in (0, 1):
                if s.layout[p] is not None and s.rem[p] != [2] * n:
                    bad("no card can be pushed before play starts")
        else:
            for p in (0, 1):
                made = 2 * s.round
                if s.round < game.rounds:
                    made += sum(1 for k in range(s.slot) if (s.first if k % 2 == 0 else 1 - s.first) == p)
                if 2 * n - sum(s.rem[p]) != made:
                    bad(f"player {p + 1} has pushed {2 * n - sum(s.rem[p])} cards, expected {made} "
                        f"at round {rnd} slot {slot}")
                pushed = []
                for c in range(n):
                    if s.rem[p][c] <= 1:
                        pushed.append(s.layout[p].front[c])
                    if s.rem[p][c] == 0:
                        pushed.append(s.layout[p].back[c])
                for v in set(v for v, o in field if o == p):
                    if sum(1 for f in field if f == (v, p)) > pushed.count(v):
                        bad(f"battlefield card {v}@{seat(p)} was not pushed by player {seat(p)}")
            if slot == 0:
                vals = [v for v, _ in field]
                if len(vals) != len(set(vals)):
                    bad("between rounds the battlefield holds distinct values only")
                if game.clear_four and len(vals) >= 4:
                    bad("with clear_four a battlefield of 4 cards is cleared")
        return s

    def __str__(self) -> str:
        return self.render(None, full=True)

    def view(self, viewer=None) -> dict:
        """What `viewer` may see, as plain data: a seat 0/1, SPECTATOR (the
        public part) or None (everything). The one filter of hidden cards:
        `render`, `to_svg` and the web app use it. A card is a value, "?"
        (face down, unseen) or None (pushed already). Another player's setup
        move shows as "setup" while their cards are unseen."""
        g = self.game
        if viewer is not None and viewer not in (0, 1, SPECTATOR):
            raise UnsupportedGameError(f"qwatrobat: no player index {viewer!r} (0 or 1, seat - 1)")
        players = []
        for p in (0, 1):
            lay = self.layout[p]
            entry = {"laid": lay is not None, "score": self.scores[p], "front": [], "back": []}
            if lay is not None:
                sees = viewer is None or self._known_to(viewer, p)
                for c in range(g.ncols):
                    r = self.rem[p][c]
                    entry["front"].append((lay.front[c] if sees else "?") if r == 2 else None)
                    entry["back"].append((lay.back[c] if sees else "?") if r >= 1 else None)
            players.append(entry)
        history = []
        for mv, snap in self._history:
            if isinstance(mv, Setup) and viewer is not None and not self._known_to(viewer, snap[0].index(None)):
                history.append("setup")
            else:
                history.append(str(mv))
        p = self.current_player
        if p == TERMINAL:
            r = self.returns()
            res = "draw" if r[0] == 0 else f"player {1 if r[0] > 0 else 2} wins"
            status = f"game over: {self.scores[0]}-{self.scores[1]}, {res}"
        else:
            rnd = min(self.round + 1, g.rounds)
            who = "chance (first player draw)" if p == CHANCE else f"player {p + 1}"
            status = f"round {rnd}/{g.rounds} ({g.points[rnd - 1]} pts), push {self.slot + 1}/4, to move: {who}"
        return {"game": "qwatrobat", "players": 2, "viewer": viewer, "ncols": g.ncols, "seats": players,
                "field": [list(c) for c in self.field], "round": self.round, "rounds": g.rounds,
                "points": list(g.points), "slot": self.slot, "first": self.first,
                "to_move": p if p >= 0 else None, "over": p == TERMINAL, "scores": list(self.scores),
                "status": status, "history": history}

    def render(self, viewer=None, full: bool = False) -> str:
        """A table; cards `viewer` may not see are shown as '?'. viewer=None is
        a spectator (sees what is public), `full=True` shows everything:
        `view()` as text."""
        v = self.view(None if full else (SPECTATOR if viewer is None else viewer))
        n = v["ncols"]
        lines = []
        for p in (1, 0):
            seat = v["seats"][p]
            if not seat["laid"]:
                lines.append(f"player {p + 1}: (no layout yet)")
                continue
            back = " ".join("." if x is None else str(x) for x in seat["back"])
            front = " ".join("." if x is None else str(x) for x in seat["front"])
            lines.append(f"player {p + 1}: back  {back}   score {seat['score']}")
            lines.append(f"          front {front}")
        cols = " ".join(f"c{c + 1}"[-1] for c in range(n))
        lines.append(f"columns:        {cols}")
        lines.append("battlefield: " + (" ".join(f"{val}(player {o + 1})" for val, o in v["field"]) or "empty"))
        lines.append(v["status"])
        return "\n".join(lines)

    def to_svg(self, viewer=None, last_move: bool = True, arrows=()) -> str:
        """The table as `viewer` sees it, as SVG text (see games/qwatrobat/svg.py)."""
        from crossridor.games.qwatrobat.svg import qwatrobat_svg
        return qwatrobat_svg(self.view(viewer), last_move=last_move)

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def __repr__(self):
        return f"<qwatrobat {self.position()}>"

    def move_text(self, move, viewer: int) -> str:
        """How `viewer` sees `move` played now: another player's setup is secret."""
        if isinstance(move, Setup) and self.current_player != viewer:
            return "a secret setup"
        return str(move)

    # -- search fast paths
    def default_algorithm(self) -> str:
        """The exact solver (alphabeta) once an open game is in play, else ismcts."""
        in_play = self.current_player not in (CHANCE, TERMINAL) and self.layout[1] is not None
        return "alphabeta" if self.game.open and in_play else "ismcts"

    def native_search(self, algorithm, limits, seed, options, plan):
        """The game's own searches: see `players.native_search`."""
        return players.native_search(self, algorithm, limits, seed, options, plan)
