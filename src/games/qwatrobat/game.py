"""Qwatrobat: a minimalist two-player card battle (rules: docs/rules/qwatrobat.md).

Pure Python. Each player lays 8 cards (1 1 2 2 3 3 4 4) in 2 rows of 4 columns,
then over 4 rounds each player pushes 2 cards onto a shared battlefield.

Options (`load(**params)`)
    open=False            all cards face up once both layouts are down (perfect
                          information after the setup); the exact solver needs it
    clear_four=True       a round that leaves 4 (or, with 10 cards, 5) cards
                          resolves, then clears the battlefield
    last_round_points=6   points of the last round (5 is the seed's variant)
    cards=8               8 (values 1-4, 4 rounds) or 10 (values 1-5, 5 rounds,
                          points 2 3 4 5 then the last round's)
    first=None            first player 0 or 1; None = drawn at random (a chance
                          node after both layouts are down)

Notation (players are 0 and 1; columns 1..n from the left)
    setup  "1234/4321"   front row / back row, column 1 first.  The setup is
                         simultaneous and secret: player 0 then player 1 each
                         play one, and information_state() hides the other
                         layout, so a setup cannot depend on the other one.
                         legal_moves() lists one layout per strategically
                         distinct arrangement (columns sorted; column order does
                         not matter), parse_move()/play() accept any arrangement.
    push   "c2"          push the top card of column 2 (front first, then back)
    chance "first0"      the chance outcome "player 0 starts" (first=None only)

Position string (`state.position()`, `game.state_from_position(s)`), fields
separated by ";":
    layout0;layout1;rem0;rem1;field;round;slot;first;score0,score1
    layout   "1234/4321" or "-" (not laid yet)
    rem      cards left per column, e.g. "2210" ("-" before the layout)
    field    battlefield cards "value@owner" joined by ",", e.g. "3@0,1@1"; "-" empty
    round    1-based round about to be (or being) played; rounds+1 once over
    slot     pushes already made in this round (0..3)
    first    first player of the current round, or "?" before the draw
Example: "1234/4321;4321/1234;2221;2222;1@0;1;1;0;0,0".

Search fast paths (`native_search`)
    alphabeta   exact solver (alpha-beta + transposition table) for the open
                game after the setup; option objective="result" (default: value
                +1/0/-1 = win/draw/loss for the player to move) or "margin"
                (final point difference)
    greedy      a one-round-lookahead heuristic player (also "heuristic")
    ismcts      the generic ISMCTS with game defaults: the secret layout from
                the table of `games.qw_setups` (option setup=table, drawn among
                the setup_top=4 best; setup=search lets the tree choose, as it
                does for rules the table was not computed for), and option
                endgame=N: leaves valued by `endgame_evaluator` once N pushes
                or fewer are left (default 10, measured stronger than random
                playouts; 0: random playouts). The tree is one decision
                ply deep unless the limits set a depth (each push is valued
                by its leaves alone, measured stronger than a deeper tree)
Other algorithms run the generic modules. `evaluate()` is the score lead scaled by the points left;
`endgame_evaluator` (random pushes down to 10 left, then the exact solver on
the determinization) is a stronger leaf value for `evaluator=` of ismcts.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from dataclasses import dataclass
from functools import lru_cache

from crossridor.engine.errors import (IllegalMoveError, InvalidMoveError, InvalidPositionError,
                           UnknownGameError, UnsupportedGameError)
from crossridor.engine.options import CALLABLE_OR_NONE, check_options
from crossridor.engine.stop import stopped
from crossridor.engine.protocol import CHANCE, SPECTATOR, TERMINAL, GameTraits, SearchResult, applied, play_moves
from crossridor.games.learning import LearningGame, LearningState

import time as _time

# ----------------------------------------------------------------------------- moves


@dataclass(frozen=True, order=True)
class Setup:
    """A layout: `front[c]`, `back[c]` for columns c = 0..n-1."""
    front: tuple
    back: tuple

    def __str__(self):
        return "".join(map(str, self.front)) + "/" + "".join(map(str, self.back))

    def __repr__(self):
        return f"Setup.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> "Setup":
        t = str(text).strip()
        parts = t.split("/")
        if len(parts) != 2 or not parts[0] or len(parts[0]) != len(parts[1]) \
                or not (parts[0] + parts[1]).isdigit():
            raise InvalidMoveError(f"qwatrobat: {text!r} is not a setup (expected e.g. '1234/4321')")
        return Setup(tuple(int(ch) for ch in parts[0]), tuple(int(ch) for ch in parts[1]))

    def canonical(self) -> "Setup":
        cols = sorted(zip(self.front, self.back))
        return Setup(tuple(f for f, _ in cols), tuple(b for _, b in cols))


@dataclass(frozen=True, order=True)
class Push:
    """Push the top card of column `col` (0-based; notation is 1-based)."""
    col: int

    def __str__(self):
        return f"c{self.col + 1}"

    def __repr__(self):
        return f"Push({self.col})"


@dataclass(frozen=True, order=True)
class First:
    """Chance outcome: `player` is the first player of round 1."""
    player: int

    def __str__(self):
        return f"first{self.player}"

    def __repr__(self):
        return f"First({self.player})"


def parse_move_text(text) -> object:
    """Text -> a move object (syntax only; legality is the state's business)."""
    if isinstance(text, (Setup, Push, First)):
        return text
    if not isinstance(text, str):
        raise InvalidMoveError(f"qwatrobat: {text!r} is not a move")
    t = text.strip()
    if "/" in t:
        return Setup.parse(t)
    if len(t) >= 2 and t[0] in "cC" and t[1:].isdigit():
        c = int(t[1:])
        if c < 1:
            raise InvalidMoveError(f"qwatrobat: {text!r}: columns are numbered from 1")
        return Push(c - 1)
    if t in ("first0", "first1"):
        return First(int(t[-1]))
    raise InvalidMoveError(f"qwatrobat: {text!r} is not a move (expected a setup like "
                           f"'1234/4321', a push like 'c2', or 'first0'/'first1')")


# ----------------------------------------------------------------------------- game


_PARAMS = {"open": False, "clear_four": True, "last_round_points": 6, "cards": 8, "first": None}


def load(**params) -> "Qwatrobat":
    for k in params:
        if k not in _PARAMS:
            raise UnknownGameError(f"qwatrobat: unknown option {k!r} (known: {', '.join(_PARAMS)})")
    p = dict(_PARAMS)
    p.update(params)
    for k in ("open", "clear_four"):
        if not isinstance(p[k], bool):
            raise UnknownGameError(f"qwatrobat: option {k} must be True or False, got {p[k]!r}")
    if isinstance(p["last_round_points"], bool) or p["last_round_points"] not in (5, 6):
        raise UnknownGameError(f"qwatrobat: last_round_points must be 5 or 6, got {p['last_round_points']!r}")
    if isinstance(p["cards"], bool) or p["cards"] not in (8, 10):
        raise UnknownGameError(f"qwatrobat: cards must be 8 or 10, got {p['cards']!r}")
    if p["first"] is not None and (isinstance(p["first"], bool) or p["first"] not in (0, 1)):
        raise UnknownGameError(f"qwatrobat: first must be 0, 1 or None, got {p['first']!r}")
    return Qwatrobat(**p)


class Qwatrobat(LearningGame):
    name = "qwatrobat"

    def __init__(self, open=False, clear_four=True, last_round_points=6, cards=8, first=None):
        self.params = {"open": open, "clear_four": clear_four, "last_round_points": last_round_points,
                       "cards": cards, "first": first}
        self.open = open
        self.clear_four = clear_four
        self.ncols = cards // 2
        self.nvals = cards // 2
        self.rounds = self.ncols
        self.points = tuple([2, 3, 4, 5][: self.rounds - 1]) + (last_round_points,)
        self.hand = tuple(sorted(list(range(1, self.nvals + 1)) * 2))
        self.first = first
        # The setup is simultaneous and hidden even in the open game.
        self.traits = GameTraits(name="qwatrobat", num_players=2, chance=first is None,
                                 hidden_information=True, zero_sum=True,
                                 min_return=-1.0, max_return=1.0)
        self._setups = None

    def __repr__(self):
        return f"load_game('qwatrobat', {', '.join(f'{k}={v!r}' for k, v in self.params.items())})"

    def setups(self) -> list:
        """One layout per class of column permutations (columns sorted)."""
        if self._setups is None:
            out = set()
            for perm in set(itertools.permutations(self.hand)):
                s = Setup(perm[: self.ncols], perm[self.ncols:]).canonical()
                out.add(s)
            self._setups = sorted(out)
        return self._setups

    def new_state(self, moves=None, seed=None) -> "QState":
        return play_moves(QState(self), moves)

    def state_from_position(self, position: str) -> "QState":
        return QState.from_position(self, position)


# ----------------------------------------------------------------------------- round resolution


def resolve_field(field, clear_four: bool, nvals: int):
    """Field after a round: (new field, winner or None, cleared).

    `field` is a sorted tuple of (value, owner). Every card whose value appears
    two or more times goes; then by the number k of cards left: 4+ -> the
    highest wins, 3 -> the median, 2 -> the lowest, 1 -> its owner, 0 -> none.
    """
    counts = {}
    for v, _ in field:
        counts[v] = counts.get(v, 0) + 1
    left = tuple(sorted(c for c in field if counts[c[0]] == 1))
    k = len(left)
    if k == 0:
        winner = None
    elif k == 1:
        winner = left[0][1]
    elif k == 2:
        winner = left[0][1]
    elif k == 3:
        winner = left[1][1]
    else:
        winner = left[-1][1]
    cleared = clear_four and k >= 4
    return (() if cleared else left), winner, cleared


# ----------------------------------------------------------------------------- state


class QState(LearningState):
    def __init__(self, game: Qwatrobat):
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
                                       f"(expected first0 or first1)")
            return
        if self.layout[p] is None:
            if not isinstance(mv, Setup):
                raise IllegalMoveError(f"qwatrobat: {str(text)!r}: player {p + 1} must lay out a setup first")
            self._check_setup(mv, text)
            return
        if not isinstance(mv, Push):
            raise IllegalMoveError(f"qwatrobat: {str(text)!r}: player {p + 1} must push a column (c1..c{self.game.ncols})")
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
            self.first = mv.player
            self._skip()
            return
        if isinstance(mv, Setup):
            self.layout[p] = mv
            if self.layout[0] is not None and self.layout[1] is not None and self.first is not None:
                self._skip()
            return
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
        cards = [front[c] if k == "f" else back[c] for k, c in slots]
        rng.shuffle(cards)
        for (k, c), v in zip(slots, cards):
            (front if k == "f" else back)[c] = v
        s.layout[o] = Setup(tuple(front), tuple(back))
        # the history of the clone refers to hidden cards; a determinization has no past
        s._history = []
        return s

    # -- text
    def _field_str(self) -> str:
        return ",".join(f"{v}@{o}" for v, o in self.field) if self.field else "-"

    def position(self) -> str:
        lay = ["-" if l is None else str(l) for l in self.layout]
        rem = ["-" if self.layout[p] is None else "".join(map(str, self.rem[p])) for p in (0, 1)]
        rnd = self.round + 1
        return (f"{lay[0]};{lay[1]};{rem[0]};{rem[1]};{self._field_str()};{rnd};{self.slot};"
                f"{'?' if self.first is None else self.first};{self.scores[0]},{self.scores[1]}")

    @staticmethod
    def from_position(game: Qwatrobat, position: str) -> "QState":
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
            bad("player 1 cannot lay out before player 0")
        field = []
        if parts[4] != "-":
            for tok in parts[4].split(","):
                try:
                    v, o = tok.split("@")
                    v, o = int(v), int(o)
                except ValueError:
                    bad(f"battlefield card {tok!r} (expected value@owner)")
                if not (1 <= v <= game.nvals and o in (0, 1)):
                    bad(f"battlefield card {tok!r}")
                field.append((v, o))
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
                bad("first player must be given ('0' or '1') when the option first is set")
            s.first = None
        elif parts[7] in ("0", "1"):
            s.first = int(parts[7])
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
                        bad(f"battlefield card {v}@{p} was not pushed by player {p + 1} (@{p} in a position is 0-based)")
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
            raise UnsupportedGameError(f"qwatrobat: no seat {viewer!r} (seats are 0 and 1)")
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

    def native_search(self, algorithm, limits, seed, options):
        """alphabeta: the exact solver (open game in play; option objective:
        result or margin); greedy: one-round lookahead (option samples)."""
        if algorithm == "alphabeta":
            if not self.game.open:
                return NotImplemented
            if self.current_player in (CHANCE, TERMINAL) or self.layout[1] is None:
                raise UnsupportedGameError(
                    "qwatrobat: the exact solver works from the start of play (both layouts down, "
                    "first player known); the setup is a simultaneous secret choice")
            opts = check_options("qwatrobat alphabeta", options, SOLVER_OPTIONS, {"objective": "result"})
            return solve(self, objective=opts["objective"])
        if algorithm in ("greedy", "heuristic"):
            opts = check_options(f"qwatrobat {algorithm}", options, GREEDY_OPTIONS, {"samples": 24})
            return greedy_search(self, seed, opts)
        if algorithm == "ismcts":
            return self._ismcts(limits, seed, options)
        return NotImplemented

    def _ismcts(self, limits, seed, options):
        """The generic ISMCTS with the game's defaults: the layout from the
        table of `setups` (option setup=table, among the `setup_top` best)
        or by the tree (setup=search), and with endgame=N > 0 (default 10)
        leaves valued by `endgame_evaluator` once N pushes or fewer are left.
        The tree is TREE_DEPTH decision plies deep unless the limits set a
        depth (a deeper tree averages over its own exploratory replies below
        each push and undervalues the pushes that need a precise follow-up;
        `--depth` is the knob for a deeper one)."""
        from crossridor.engine.algorithms import ismcts
        opts = dict(options)
        own = check_options("qwatrobat ismcts", {k: opts.pop(k) for k in ISMCTS_OPTIONS if k in opts},
                            ISMCTS_OPTIONS, ISMCTS_DEFAULTS)
        p = self.current_player
        if own["setup"] == "table" and p >= 0 and self.layout[p] is None:
            from crossridor.games.qwatrobat.setups import table_setup
            t0 = _time.perf_counter()
            mv = table_setup(self.game, own["setup_top"], random.Random(seed))
            if mv is not None:
                dt = _time.perf_counter() - t0
                return SearchResult(move=mv, score=0.0, depth=0, nodes=1, seconds=dt,
                                    nps=1 / dt if dt > 0 else 0.0, pv=(mv,), extra={"setup": "table"})
        if own["endgame"] and "rollout" not in opts and "evaluator" not in opts:
            rng = random.Random(seed)
            n = own["endgame"]
            opts["evaluator"] = lambda st: endgame_evaluator(st, exact_pushes=n, rng=rng)
        if limits.depth is None:
            limits = dataclasses.replace(limits, depth=TREE_DEPTH)
        return ismcts.search(self, limits, seed=seed, **opts)


# ----------------------------------------------------------------------------- exact solver


@lru_cache(maxsize=None)
def _resolve_cached(field, clear_four, nvals):
    return resolve_field(field, clear_four, nvals)


SOLVER_OPTIONS = {"objective": ("result", "margin"), "on_iteration": CALLABLE_OR_NONE}
ISMCTS_OPTIONS = {"setup": ("table", "search"), "setup_top": (int, 1, 1110), "endgame": (int, 0, 20)}
ISMCTS_DEFAULTS = {"setup": "table", "setup_top": 4, "endgame": 10}
TREE_DEPTH = 1      # the ISMCTS tree's depth unless the limits set one (see `_ismcts`)
GREEDY_OPTIONS = {"samples": (int, 1, 100_000)}


class _SolverStopped(Exception):
    """crossridor.stop() or Ctrl-C during the exact solver."""


class _Solver:
    """Alpha-beta with a transposition table over the open game.

    Position: (rem0, rem1) column counts as tuples, field sorted tuple,
    round, slot, first, diff = score0 - score1. Values are from player 0's
    point of view; player 0 maximises.
    """

    def __init__(self, game: Qwatrobat, layouts, objective: str):
        if objective not in ("result", "margin"):
            raise UnsupportedGameError(f"qwatrobat: objective must be 'result' or 'margin', got {objective!r}")
        self.g = game
        self.front = [layouts[0].front, layouts[1].front]
        self.back = [layouts[0].back, layouts[1].back]
        self.margin = objective == "margin"
        self.tt = {}
        self.nodes = 0
        self.rest = [sum(game.points[r:]) for r in range(game.rounds + 1)]

    def final(self, diff):
        if self.margin:
            return diff
        return (diff > 0) - (diff < 0)

    def children(self, rem0, rem1, field, rnd, slot, first, diff):
        """(move col, child position) for the player to move; the player to move."""
        g = self.g
        p = first if slot % 2 == 0 else 1 - first
        rem = rem0 if p == 0 else rem1
        out = []
        for c in range(g.ncols):
            r = rem[c]
            if r == 0:
                continue
            card = self.front[p][c] if r == 2 else self.back[p][c]
            nrem = rem[:c] + (r - 1,) + rem[c + 1:]
            nf = tuple(sorted(field + ((card, p),)))
            n0, n1 = (nrem, rem1) if p == 0 else (rem0, nrem)
            out.append((c, self.advance(n0, n1, nf, rnd, slot + 1, first, diff)))
        return p, out

    def advance(self, rem0, rem1, field, rnd, slot, first, diff):
        g = self.g
        while rnd < g.rounds:
            if slot >= 4:
                field, winner, _ = _resolve_cached(field, g.clear_four, g.nvals)
                if winner is not None:
                    diff += g.points[rnd] if winner == 0 else -g.points[rnd]
                    first = winner
                rnd += 1
                slot = 0
                continue
            p = first if slot % 2 == 0 else 1 - first
            if any(rem0 if p == 0 else rem1):
                break
            slot += 1
        return (rem0, rem1, field, rnd, slot, first, diff)

    def value(self, pos, alpha, beta):
        self.nodes += 1
        if not (self.nodes & 1023) and stopped():
            raise _SolverStopped
        rem0, rem1, field, rnd, slot, first, diff = pos
        if rnd >= self.g.rounds:
            return self.final(diff)
        if not self.margin and abs(diff) > self.rest[rnd]:
            return self.final(diff)
        entry = self.tt.get(pos)
        if entry is not None:
            lo, hi = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha = max(alpha, lo)
            beta = min(beta, hi)
        else:
            lo, hi = -10 ** 6, 10 ** 6
        a0, b0 = alpha, beta
        p, kids = self.children(*pos)
        if p == 0:
            best = -10 ** 6
            for _, child in kids:
                v = self.value(child, alpha, beta)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            best = 10 ** 6
            for _, child in kids:
                v = self.value(child, alpha, beta)
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.tt[pos] = (lo, hi)
        return best

    def exact(self, pos):
        return self.value(pos, -10 ** 6, 10 ** 6)

    def best(self, pos):
        """(value for player 0, best column or None, pv columns)."""
        v = self.exact(pos)
        pv = []
        cur = pos
        while cur[3] < self.g.rounds and (self.margin or abs(cur[6]) <= self.rest[cur[3]]):
            p, kids = self.children(*cur)
            for c, child in kids:
                if self.exact(child) == v:
                    pv.append(c)
                    cur = child
                    break
            else:  # pragma: no cover - cannot happen with exact values
                break
        if not pv and pos[3] < self.g.rounds:
            # decided before the end: every move keeps the value; take the first
            _, kids = self.children(*pos)
            pv = [kids[0][0]]
        return v, pv[0] if pv else None, pv


def _solver_pos(state: QState):
    return (tuple(state.rem[0]), tuple(state.rem[1]), state.field, state.round, state.slot,
            state.first, state.scores[0] - state.scores[1])


def solve(state: QState, objective: str = "result") -> SearchResult:
    """Exact value and best move of an open position in play.

    `score` is from the point of view of the player to move: +1 win, 0 draw,
    -1 loss (objective "result"), or the final point difference under
    optimal play (objective "margin")."""
    if state.layout[0] is None or state.layout[1] is None or state.first is None:
        raise UnsupportedGameError("qwatrobat: solve() needs both layouts and the first player")
    if state.is_terminal():
        raise UnsupportedGameError("qwatrobat: the game is over")
    t0 = _time.perf_counter()
    sv = _Solver(state.game, state.layout, objective)
    pos = _solver_pos(state)
    try:
        v0, col, pv_cols = sv.best(pos)
    except _SolverStopped:
        # no value yet: the first legal push, marked unsolved
        dt = _time.perf_counter() - t0
        move = state.legal_moves()[0]
        return SearchResult(move=move, score=0.0, depth=0, nodes=sv.nodes, seconds=dt,
                            nps=sv.nodes / dt if dt > 0 else 0.0, pv=(move,),
                            extra={"solved": False, "objective": objective})
    p = state.current_player
    v = v0 if p == 0 else -v0
    # the pv as moves
    pv = []
    s = state.clone()
    for c in pv_cols:
        m = Push(c)
        pv.append(m)
        s.play(m)
    dt = _time.perf_counter() - t0
    extra = {"solved": True, "objective": objective}
    if objective == "result":
        extra["value"] = {1: "win", 0: "draw", -1: "loss"}[v]
    return SearchResult(move=Push(col) if col is not None else None, score=float(v), depth=len(pv),
                        nodes=sv.nodes, seconds=dt, nps=sv.nodes / dt if dt > 0 else 0.0,
                        pv=tuple(pv), extra=extra)


def solve_value(state: QState, objective: str = "result") -> float:
    """Value for player 0 of a position in play (open information); at the
    first-player chance node, the average of both draws."""
    if state.current_player == CHANCE:
        vals = []
        for m, pr in state.chance_outcomes():
            s = state.clone()
            s.play(m)
            vals.append(pr * solve_value(s, objective))
        return sum(vals)
    if state.is_terminal():
        r = state.returns()[0]
        return float(state.scores[0] - state.scores[1]) if objective == "margin" else r
    sv = _Solver(state.game, state.layout, objective)
    return float(sv.exact(_solver_pos(state)))


# ----------------------------------------------------------------------------- greedy player


def greedy_search(state: QState, seed, options) -> SearchResult:
    """One-round lookahead: for each push, the average points won minus lost
    this round, over sampled hidden cards and random pushes for the rest of
    the round. Setup: a layout drawn at random among the distinct ones."""
    t0 = _time.perf_counter()
    rng = random.Random(seed)
    p = state.current_player
    moves = state.legal_moves()
    if p == CHANCE:
        raise UnsupportedGameError("qwatrobat: greedy does not play chance moves")
    if not isinstance(moves[0], Push):
        mv = rng.choice(moves)
        dt = _time.perf_counter() - t0
        return SearchResult(move=mv, score=0.0, depth=0, nodes=1, seconds=dt, nps=0.0, pv=(mv,))
    samples = options.get("samples", 24)
    nodes = 0
    best, best_v = None, None
    for mv in moves:
        total = 0.0
        for _ in range(samples):
            s = state.sample_determinization(p, rng)
            rnd, before = s.round, list(s.scores)
            s.play(mv)
            nodes += 1
            while not s.is_terminal() and s.round == rnd:
                s.play(rng.choice(s.legal_moves()))
                nodes += 1
            total += (s.scores[p] - before[p]) - (s.scores[1 - p] - before[1 - p])
        v = total / samples
        if best_v is None or v > best_v + 1e-12:
            best, best_v = mv, v
    dt = _time.perf_counter() - t0
    return SearchResult(move=best, score=float(best_v), depth=1, nodes=nodes, seconds=dt,
                        nps=nodes / dt if dt > 0 else 0.0, pv=(best,))


# ----------------------------------------------------------------------------- rollout evaluator


_EVAL_RNG = random.Random(20061)


def endgame_evaluator(state: QState, exact_pushes: int = 10, rng=None) -> list:
    """A leaf value for MCTS/ISMCTS on a full (determinized) state: missing
    layouts and the first player are drawn at random, pushes are played at
    random until `exact_pushes` remain, then the exact solver gives the
    result with both sides playing perfectly (open information from there).
    Use as `crossridor.search(..., algorithm="ismcts", evaluator=endgame_evaluator)`."""
    rng = rng or _EVAL_RNG
    if state.is_terminal():
        return state.returns()
    s = state.clone()
    g = s.game
    while s.current_player != TERMINAL:
        p = s.current_player
        if p == CHANCE:
            s.play(First(rng.randrange(2)))
        elif s.layout[p] is None:
            s.play(rng.choice(g.setups()))
        else:
            left = sum(s.rem[0]) + sum(s.rem[1])
            if left <= exact_pushes:
                break
            moves = s.legal_moves()
            s.play(moves[rng.randrange(len(moves))])
    if s.is_terminal():
        return s.returns()
    solver = _Solver(g, s.layout, "result")
    try:
        v = float(solver.exact(_solver_pos(s)))
    except _SolverStopped:        # crossridor.stop(): the search ends at its next check
        return s.evaluate()
    return [v, -v]
