"""A game of your own, searched by crossridor's generic alpha-beta, MCTS and
greedy: Nim with one pile. Players take 1, 2 or 3 sticks in turn; who takes
the last stick wins (so leaving a multiple of 4 wins). Run it:

    python examples/add_a_game.py
"""

from crossridor import TERMINAL, GameTraits, IllegalMoveError, InvalidMoveError, Limits, search


class Nim:
    def __init__(self, sticks=10):
        self.name, self.params = "nim", {"sticks": sticks}
        self.traits = GameTraits("nim", num_players=2)      # no chance, zero-sum, returns in [-1, 1]

    def new_state(self, moves=None, seed=None):
        state = NimState(self, self.params["sticks"], [])
        for move in (moves or "").split():
            state.play(move)
        return state


class NimState:
    def __init__(self, game, sticks, taken):
        self.game, self.sticks, self.taken = game, sticks, taken

    @property
    def current_player(self):
        return TERMINAL if self.sticks == 0 else len(self.taken) % 2

    def legal_moves(self):
        return [k for k in (1, 2, 3) if k <= self.sticks]

    def play(self, move):
        move = self.parse_move(str(move))
        self.sticks -= move
        self.taken.append(move)

    def undo(self):
        self.sticks += self.taken.pop()

    def clone(self):
        return NimState(self.game, self.sticks, list(self.taken))

    def is_terminal(self):
        return self.sticks == 0

    def returns(self):
        if self.sticks:
            return [0.0, 0.0]
        last = (len(self.taken) - 1) % 2                     # who took the last stick wins
        return [1.0 if p == last else -1.0 for p in (0, 1)]

    def parse_move(self, text):
        if text not in ("1", "2", "3"):
            raise InvalidMoveError(f"{text!r} is not a move (take 1, 2 or 3)")
        if int(text) > self.sticks:
            raise IllegalMoveError(f"cannot take {text}: {self.sticks} left")
        return int(text)

    def key(self):                  # optional: the position, for alpha-beta's transposition table
        return self.sticks, len(self.taken) % 2

    def evaluate(self):             # optional: a guess at returns(), for greedy and cut-off searches
        mover = len(self.taken) % 2
        good = 1.0 if self.sticks % 4 else -1.0              # exact for Nim; a real game guesses
        return [good, -good] if mover == 0 else [-good, good]


if __name__ == "__main__":
    state = Nim(10).new_state()
    for algorithm, limits in [("alphabeta", Limits(depth=10)), ("mcts", Limits(sims=2000)),
                              ("greedy", Limits(depth=1))]:
        result = search(state, algorithm, limits, seed=1)
        print(f"{algorithm:9}  take {result.move}  score {result.score:+g}")
