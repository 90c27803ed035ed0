"""Tiny games implementing the full game protocol (crossridor.engine.protocol), with
known values, for testing the search algorithms:

* Nim          2 players; normal play; the first player wins iff xor != 0.
               No evaluate(). Moves are NimMove values ("h:t").
* TicTacToe    2 players; a draw under perfect play; int moves 0..8; evaluate().
* ChanceToy    2 players, chance; expectimax value 0.4 for player 0 (move "B").
* Race         2 players, chance; race to the end of a track, "step" or
               "roll" (0/2/3 squares); transpositions; evaluate().
* Peek         2 players, hidden information: a card 0..2 dealt face down;
               player 0 may play "safe" (0), guess at once ("g0".."g2": +1 if
               right, else -1) or "peek" then guess (+0.5 if right). With
               the card hidden "peek" is best (0.5); a player who could see
               the card would guess it (+1). `open=True`: the card is public.
* Sticks       n players (default 3) take 1 or 2 sticks in turn; who takes
               the last one gets +1, the player who moved just before them -1,
               the others 0.
* RandomTree   2 players, pseudo-random values with transpositions, for
               property tests of alpha-beta against plain minimax.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from crossridor.engine.errors import IllegalMoveError, InvalidMoveError, InvalidPositionError
from crossridor.engine.protocol import CHANCE, TERMINAL, GameTraits

__all__ = ["Nim", "NimMove", "TicTacToe", "ChanceToy", "Race", "Peek", "Sticks", "RandomTree", "ALL_GAMES"]


class ToyGame:
    state_class: type = None

    def __init__(self, traits: GameTraits, **params):
        self.name = traits.name
        self.traits = traits
        self.params = params

    def new_state(self, moves=None, seed=None):
        state = self.state_class(self)
        if moves is not None:
            if isinstance(moves, str):
                moves = moves.split()
            for m in moves:
                state.play(m)
        return state

    def state_from_position(self, position: str):
        """A position is the move list from the start, space separated."""
        try:
            return self.new_state(position)
        except (InvalidMoveError, IllegalMoveError) as e:
            raise InvalidPositionError(f"{self.name}: bad position {position!r}: {e}") from None


class ToyState:
    """Shared machinery: a history stack for undo and text parsing."""

    def __init__(self, game):
        self.game = game
        self._history = []

    def clone(self):
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._history = list(self._history)
        other._copy_fields()
        return other

    def _copy_fields(self):
        pass

    def is_terminal(self):
        return self.current_player == TERMINAL

    def _moves_here(self):
        if self.current_player == CHANCE:
            return [m for m, _ in self.chance_outcomes()]
        return self.legal_moves()

    def _text_to_move(self, text: str):
        raise NotImplementedError

    def parse_move(self, text: str):
        move = self._text_to_move(text)
        if move not in self._moves_here():
            raise IllegalMoveError(f"{self.game.name}: illegal move {text!r}")
        return move

    def play(self, move):
        if isinstance(move, str) and not isinstance(self._sample_move(), str):
            move = self.parse_move(move)
        elif move not in self._moves_here():
            raise IllegalMoveError(f"{self.game.name}: illegal move {move!r}")
        self._history.append(self._apply(move))

    def _sample_move(self):
        moves = self._moves_here()
        return moves[0] if moves else None

    def undo(self):
        if not self._history:
            raise IndexError("undo at the root")
        self._revert(self._history.pop())

    def chance_outcomes(self):
        raise NotImplementedError

    def __str__(self):
        return f"{self.game.name}:{self.key()}"


# --- Nim ---------------------------------------------------------------------------

@dataclass(frozen=True, order=True)
class NimMove:
    heap: int
    take: int

    def __str__(self):
        return f"{self.heap}:{self.take}"

    @classmethod
    def parse(cls, text: str) -> "NimMove":
        try:
            h, t = text.split(":")
            return cls(int(h), int(t))
        except ValueError:
            raise InvalidMoveError(f"nim: not a move: {text!r}") from None


class NimState(ToyState):
    def __init__(self, game):
        super().__init__(game)
        self.heaps = list(game.params["heaps"])
        self.player = 0

    def _copy_fields(self):
        self.heaps = list(self.heaps)

    @property
    def current_player(self):
        return TERMINAL if not any(self.heaps) else self.player

    def legal_moves(self):
        if not any(self.heaps):
            return []
        return [NimMove(h, t) for h, n in enumerate(self.heaps) for t in range(1, n + 1)]

    def _text_to_move(self, text):
        return NimMove.parse(text)

    def _apply(self, m):
        self.heaps[m.heap] -= m.take
        self.player = 1 - self.player
        return m

    def _revert(self, m):
        self.player = 1 - self.player
        self.heaps[m.heap] += m.take

    def returns(self):
        if any(self.heaps):
            return [0.0, 0.0]
        winner = 1 - self.player          # took the last object
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]

    def key(self):
        return (tuple(self.heaps), self.player)


class Nim(ToyGame):
    state_class = NimState

    def __init__(self, heaps=(1, 2, 3)):
        super().__init__(GameTraits("nim", 2), heaps=tuple(heaps))


# --- Tic-tac-toe -----------------------------------------------------------------------

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToeState(ToyState):
    def __init__(self, game):
        super().__init__(game)
        self.board = [0] * 9          # 0 empty, 1 = player 0 (X), 2 = player 1 (O)
        self.player = 0
        self.winner = None

    def _copy_fields(self):
        self.board = list(self.board)

    @property
    def current_player(self):
        if self.winner is not None or 0 not in self.board:
            return TERMINAL
        return self.player

    def legal_moves(self):
        if self.current_player == TERMINAL:
            return []
        return [i for i in range(9) if self.board[i] == 0]

    def _text_to_move(self, text):
        if not (isinstance(text, str) and text.isdigit() and len(text) == 1):
            raise InvalidMoveError(f"tictactoe: not a move: {text!r}")
        return int(text)

    def _apply(self, m):
        prev = self.winner
        self.board[m] = self.player + 1
        if any(all(self.board[i] == self.player + 1 for i in line) for line in LINES if m in line):
            self.winner = self.player
        self.player = 1 - self.player
        return (m, prev)

    def _revert(self, rec):
        m, prev = rec
        self.player = 1 - self.player
        self.board[m] = 0
        self.winner = prev

    def returns(self):
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def evaluate(self):
        """Lines still open for X minus lines open for O, in [-0.5, 0.5]."""
        ox = sum(1 for line in LINES if all(self.board[i] != 2 for i in line))
        oo = sum(1 for line in LINES if all(self.board[i] != 1 for i in line))
        e = (ox - oo) / 16
        return [e, -e]

    def key(self):
        return (tuple(self.board), self.player)


class TicTacToe(ToyGame):
    state_class = TicTacToeState

    def __init__(self):
        super().__init__(GameTraits("tictactoe", 2))


# --- ChanceToy ----------------------------------------------------------------------
# () P0: A | B
# A -> chance heads 1/2: +1 ; tails 1/2: P1 picks x (-1) or y (+0.5)    EV(A) = 0
# B -> chance one 1/3: P1 picks x (+0.6) or y (+0.9); rest 2/3: +0.3     EV(B) = 0.4

_CT_NODES = {
    (): ("P", 0, ["A", "B"]),
    ("A",): ("C", [("heads", 0.5), ("tails", 0.5)]),
    ("A", "heads"): ("T", 1.0),
    ("A", "tails"): ("P", 1, ["x", "y"]),
    ("A", "tails", "x"): ("T", -1.0),
    ("A", "tails", "y"): ("T", 0.5),
    ("B",): ("C", [("one", 1 / 3), ("rest", 2 / 3)]),
    ("B", "one"): ("P", 1, ["x", "y"]),
    ("B", "one", "x"): ("T", 0.6),
    ("B", "one", "y"): ("T", 0.9),
    ("B", "rest"): ("T", 0.3),
}


class ChanceToyState(ToyState):
    @property
    def _node(self):
        return _CT_NODES[tuple(self._history)]

    @property
    def current_player(self):
        kind = self._node
        return {"P": lambda: kind[1], "C": lambda: CHANCE, "T": lambda: TERMINAL}[kind[0]]()

    def legal_moves(self):
        kind = self._node
        if kind[0] == "P":
            return list(kind[2])
        if kind[0] == "C":
            return [m for m, _ in kind[1]]
        return []

    def chance_outcomes(self):
        kind = self._node
        return list(kind[1]) if kind[0] == "C" else []

    def _text_to_move(self, text):
        if text not in ("A", "B", "heads", "tails", "one", "rest", "x", "y"):
            raise InvalidMoveError(f"chancetoy: not a move: {text!r}")
        return text

    def play(self, move):
        self.parse_move(move)
        self._history.append(move)

    def _revert(self, rec):
        pass

    def returns(self):
        kind = self._node
        return [kind[1], -kind[1]] if kind[0] == "T" else [0.0, 0.0]

    def evaluate(self):
        return [0.0, 0.0]

    def key(self):
        return tuple(self._history)


class ChanceToy(ToyGame):
    state_class = ChanceToyState

    def __init__(self):
        super().__init__(GameTraits("chancetoy", 2, chance=True))


# --- Race ----------------------------------------------------------------------------

RACE_ROLL = [("d0", 0.25), ("d2", 0.5), ("d3", 0.25)]


class RaceState(ToyState):
    def __init__(self, game):
        super().__init__(game)
        self.pos = [0, 0]
        self.player = 0
        self.rolling = False

    def _copy_fields(self):
        self.pos = list(self.pos)

    @property
    def current_player(self):
        if max(self.pos) >= self.game.params["length"]:
            return TERMINAL
        return CHANCE if self.rolling else self.player

    def legal_moves(self):
        p = self.current_player
        if p == TERMINAL:
            return []
        if p == CHANCE:
            return [m for m, _ in RACE_ROLL]
        return ["step", "roll"]

    def chance_outcomes(self):
        return list(RACE_ROLL) if self.current_player == CHANCE else []

    def _text_to_move(self, text):
        if text not in ("step", "roll", "d0", "d2", "d3"):
            raise InvalidMoveError(f"race: not a move: {text!r}")
        return text

    def _apply(self, m):
        rec = (list(self.pos), self.player, self.rolling)
        if m == "roll":
            self.rolling = True
            return rec
        self.pos[self.player] += 1 if m == "step" else int(m[1])
        self.rolling = False
        self.player = 1 - self.player
        return rec

    def _revert(self, rec):
        self.pos, self.player, self.rolling = list(rec[0]), rec[1], rec[2]

    def returns(self):
        n = self.game.params["length"]
        if self.pos[0] >= n:
            return [1.0, -1.0]
        if self.pos[1] >= n:
            return [-1.0, 1.0]
        return [0.0, 0.0]

    def evaluate(self):
        e = (self.pos[0] - self.pos[1]) / (2 * self.game.params["length"])
        return [e, -e]

    def key(self):
        return (tuple(self.pos), self.player, self.rolling)


class Race(ToyGame):
    state_class = RaceState

    def __init__(self, length=6):
        super().__init__(GameTraits("race", 2, chance=True), length=length)


# --- Peek (hidden information) ---------------------------------------------------------

class PeekState(ToyState):
    def __init__(self, game):
        super().__init__(game)
        self.card = None        # dealt by the opening chance move "c0".."c2"

    @property
    def _moves(self):
        return [m for m in self._history if not m.startswith("c")]

    @property
    def current_player(self):
        if self.card is None:
            return CHANCE
        ms = self._moves
        if not ms or ms == ["peek"]:
            return 0
        return TERMINAL

    def legal_moves(self):
        p = self.current_player
        if p == CHANCE:
            return ["c0", "c1", "c2"]
        if p == TERMINAL:
            return []
        guesses = ["g0", "g1", "g2"]
        return guesses if self._moves else ["safe", "peek"] + guesses

    def chance_outcomes(self):
        return [("c0", 1 / 3), ("c1", 1 / 3), ("c2", 1 / 3)] if self.card is None else []

    def _text_to_move(self, text):
        if text not in ("c0", "c1", "c2", "safe", "peek", "g0", "g1", "g2"):
            raise InvalidMoveError(f"peek: not a move: {text!r}")
        return text

    def _apply(self, m):
        if m.startswith("c"):
            self.card = int(m[1])
        return m

    def _revert(self, m):
        if m.startswith("c"):
            self.card = None

    def returns(self):
        if self.current_player != TERMINAL:
            return [0.0, 0.0]
        ms = self._moves
        if ms == ["safe"]:
            return [0.0, 0.0]
        right = int(ms[-1][1]) == self.card
        v = (0.5 if ms[0] == "peek" else 1.0) if right else -1.0
        return [v, -v]

    def information_state(self, player):
        ms = self._moves
        sees = player == 1 or self.game.params["open"] or ms[:1] == ["peek"]
        card = "?" if self.card is None else (str(self.card) if sees else "x")
        return f"p{player} card={card} moves={' '.join(ms)}"

    def sample_determinization(self, player, rng):
        s = self.clone()
        ms = self._moves
        if player == 0 and self.card is not None and not self.game.params["open"] and ms[:1] != ["peek"]:
            c = rng.randrange(3)
            s.card = c
            s._history = [f"c{c}"] + ms
        return s

    def key(self):
        return (self.card, tuple(self._moves))


class Peek(ToyGame):
    state_class = PeekState

    def __init__(self, open=False):
        super().__init__(GameTraits("peek-open" if open else "peek", 2, chance=True,
                                    hidden_information=not open), open=open)


# --- Sticks (n players) ------------------------------------------------------------------

class SticksState(ToyState):
    def __init__(self, game):
        super().__init__(game)
        self.sticks = game.params["sticks"]
        self.player = 0

    @property
    def current_player(self):
        return TERMINAL if self.sticks == 0 else self.player

    def legal_moves(self):
        return [t for t in (1, 2) if t <= self.sticks]

    def _text_to_move(self, text):
        if text not in ("1", "2"):
            raise InvalidMoveError(f"sticks: not a move: {text!r}")
        return int(text)

    def _apply(self, m):
        self.sticks -= m
        self.player = (self.player + 1) % self.game.params["players"]
        return m

    def _revert(self, m):
        n = self.game.params["players"]
        self.player = (self.player - 1) % n
        self.sticks += m

    def returns(self):
        n = self.game.params["players"]
        r = [0.0] * n
        if self.sticks == 0:
            winner = (self.player - 1) % n
            r[winner] = 1.0
            r[(winner - 1) % n] -= 1.0
        return r

    def key(self):
        return (self.sticks, self.player)


class Sticks(ToyGame):
    state_class = SticksState

    def __init__(self, sticks=7, players=3):
        super().__init__(GameTraits(f"sticks{players}", players), sticks=sticks, players=players)


# --- RandomTree ---------------------------------------------------------------------------

class RandomTreeState(ToyState):
    """Two players alternately pick one of `branching` moves; after `length`
    plies the game ends in a pseudo-random win, loss or draw. The position is
    what each player has picked (order does not matter), so move orders
    transpose; evaluate() is a pseudo-random value of the position."""

    def __init__(self, game):
        super().__init__(game)
        b = game.params["branching"]
        self.picks = [[0] * b, [0] * b]
        self.player = 0
        self.plies = 0

    def _copy_fields(self):
        self.picks = [list(self.picks[0]), list(self.picks[1])]

    def _hash(self, salt):
        return zlib.crc32(repr((self.game.params["seed"], salt, self.key())).encode())

    @property
    def current_player(self):
        return TERMINAL if self.plies >= self.game.params["length"] else self.player

    def legal_moves(self):
        if self.plies >= self.game.params["length"]:
            return []
        return list(range(self.game.params["branching"]))

    def _text_to_move(self, text):
        if not (isinstance(text, str) and text.isdigit()):
            raise InvalidMoveError(f"randomtree: not a move: {text!r}")
        return int(text)

    def _apply(self, m):
        self.picks[self.player][m] += 1
        self.player = 1 - self.player
        self.plies += 1
        return m

    def _revert(self, m):
        self.plies -= 1
        self.player = 1 - self.player
        self.picks[self.player][m] -= 1

    def returns(self):
        if self.plies < self.game.params["length"]:
            return [0.0, 0.0]
        v = (self._hash("end") % 3) - 1.0
        return [v, -v]

    def evaluate(self):
        e = (self._hash("eval") % 10007) / 10007 - 0.5
        return [e, -e]

    def key(self):
        return (tuple(self.picks[0]), tuple(self.picks[1]), self.player)


class RandomTree(ToyGame):
    state_class = RandomTreeState

    def __init__(self, seed=0, branching=3, length=7):
        super().__init__(GameTraits("randomtree", 2), seed=seed, branching=branching, length=length)


ALL_GAMES = [Nim, TicTacToe, ChanceToy, Race, Peek, Sticks, RandomTree]
