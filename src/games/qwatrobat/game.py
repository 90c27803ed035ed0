"""Qwatrobat: a minimalist two-player card battle (rules: docs/rules/qwatrobat.md).

Pure Python. Each player lays 8 cards (1 1 2 2 3 3 4 4) in 2 rows of 4 columns,
then over 4 rounds each player pushes 2 cards onto a shared battlefield.

Parameters: declared once, in `entry.PARAMS` (`crossridor options
qwatrobat` lists them: open, clear_four, last_round_points, cards, and
first, the seat that starts, 1 or 2); `load` takes them checked.

Notation (seats 1 and 2, player indices 0 and 1; columns 1..n from the left)
    setup  "1234/4321"   front row / back row, column 1 first.  The setup is
                         simultaneous and secret: seat 1 then seat 2 each
                         play one, and information_state() hides the other
                         layout, so a setup cannot depend on the other one.
                         legal_moves() lists one layout per strategically
                         distinct arrangement (columns sorted; column order does
                         not matter), parse_move()/play() accept any arrangement.
    push   "c2"          push the top card of column 2 (front first, then back)
    chance "first:1"     the chance outcome "seat 1 starts" (first=None only)

Position string (`state.position()`, `game.state_from_position(s)`), fields
separated by ";":
    layout1;layout2;rem1;rem2;field;round;slot;first;score1,score2
    layout   "1234/4321" or "-" (not laid yet)
    rem      cards left per column, e.g. "2210" ("-" before the layout)
    field    battlefield cards "value@owner" (the owner's seat) joined by ",",
             e.g. "3@1,1@2"; "-" empty
    round    1-based round about to be (or being) played; rounds+1 once over
    slot     pushes already made in this round (0..3)
    first    the seat that starts the current round, or "?" before the draw
Example: "1234/4321;4321/1234;2221;2222;1@1;1;1;1;0,0".

Search fast paths (`native_search`, in `players`)
    alphabeta   exact solver (alpha-beta + transposition table) for the open
                game after the setup; option objective="result" (default: value
                +1/0/-1 = win/draw/loss for the player to move) or "margin"
                (final point difference)
    greedy      a one-round-lookahead heuristic player (option samples)
    ismcts      the generic ISMCTS with game defaults: the secret layout from
                the table of `setups` (option setup=table, drawn among
                the setup_top=4 best; setup=search lets the tree choose, as it
                does for rules the table was not computed for), and option
                endgame=N: leaves valued by `endgame_evaluator` once N pushes
                or fewer are left (default 10, measured stronger than random
                playouts; 0: random playouts). The tree is one decision
                ply deep unless the limits set a depth (each push is valued
                by its leaves alone, measured stronger than a deeper tree)
Other algorithms run the generic modules. `evaluate()` is the score lead scaled by the points left;
`players.endgame_evaluator` (random pushes down to 10 left, then the exact
solver on the determinization) is a stronger leaf value for `evaluator=` of ismcts.
"""

from __future__ import annotations

import itertools

from crossridor.engine.protocol import GameTraits, play_moves
from crossridor.games.learning import LearningGame
from crossridor.games.qwatrobat.rules import Setup
from crossridor.games.qwatrobat.state import QState


def load(open=False, clear_four=True, last_round_points=6, cards=8, first=None) -> "Qwatrobat":
    """The game of `crossridor.load_game('qwatrobat', ...)`, whose parameters
    the registry has checked (`entry.PARAMS`); `first` is the starting seat,
    1 or 2 (None: drawn)."""
    return Qwatrobat(open=open, clear_four=clear_four, last_round_points=last_round_points, cards=cards,
                     first=None if first is None else first - 1)


class Qwatrobat(LearningGame):
    name = "qwatrobat"

    def __init__(self, open=False, clear_four=True, last_round_points=6, cards=8, first=None):
        """`first`: the player index (0 or 1) who starts, None: drawn; the
        parameter `first` is the seat (1 or 2), as the user names it."""
        self.params = {"open": open, "clear_four": clear_four, "last_round_points": last_round_points,
                       "cards": cards, "first": None if first is None else first + 1}
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

    def __repr__(self):
        return f"load_game('qwatrobat', {', '.join(f'{k}={v!r}' for k, v in self.params.items())})"

    def setups(self) -> tuple:
        """One layout per class of column permutations (columns sorted)."""
        key = (self.hand, self.ncols)
        if key not in _SETUPS:
            _SETUPS[key] = _setups(*key)
        return _SETUPS[key]

    def new_state(self, moves=None, seed=None) -> "QState":
        return play_moves(QState(self), moves)

    def state_from_position(self, position: str) -> "QState":
        return QState.from_position(self, position)


_SETUPS: dict = {}          # (hand, columns) -> its setups: made once a process, for every game of those cards


def _setups(hand: tuple, ncols: int) -> tuple:
    """The setups of `hand` in two rows of `ncols`, sorted: each is a sorted choice of
    `ncols` columns (front, back) that uses the hand's cards exactly."""
    pairs = sorted({(f, b) for f in hand for b in hand})
    cards = sorted(hand)
    return tuple(sorted(Setup(tuple(f for f, _ in cols), tuple(b for _, b in cols))
                        for cols in itertools.combinations_with_replacement(pairs, ncols)
                        if sorted(v for col in cols for v in col) == cards))
