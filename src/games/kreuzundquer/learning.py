"""Kreuz & Quer for learning agents: action ids and observation tensors.

Action ids (K = route cards in the deck, 28 by default; T = 8 terrains in
the order `bemfwcgs`; cards are numbered 1..K):
    0 .. K(K-1)/2-1         build `xa,b` (a < b): the index of the pair in the
                            order (1,2), (1,3), ..., (1,K), (2,3), ...
    then 4                  flip, keep, leave, stop
    then T                  take `take:t`
    then T                  chance: goal `goal:t`     (player actions first,
    then T                  chance: the flipped card `@t`   chance outcomes
    then K                  chance: penalty draw `draw:c`   last)
    then K                  chance: route card c dealt `deal:c` (chance=True)
num_distinct_actions() = K(K-1)/2 + 2K + 3T + 4 (462 for K = 28).

Observation (float32 vector): parsed from `information_state(player)`, the
one view of what a seat may see, so it holds only that: the observer's own
hand, box and terrain pile, the others' routes once built, their cards taken
face up, and public counts. Seats are relative (0 = the observer).
    phase one-hot (7: build goal collect flip decide penalty over), race /
    races, stage / max_stages, tick / 48, turn / players, stopper (relative
    seat, or none: players + 1), face-up cards per terrain / 10, face-down
    cards / 48, route pile / K, pending flipped card (none, hidden, T terrains)
    per seat: points / (races * K); goal (T + none); position (before the
    route, on the goal, room index / 3K); route hidden-building /
    hidden-built / known; hand, route, aside, box: one flag per card (K each;
    the box of another seat as a count / K in its first cell); terrain pile in
    order, 48 slots x (T + hidden); pile length / 48
Kreuz & Quer has no information-state tensor (its games are long and
unbounded in length: use `information_state(player)` or stack observations).
Goals, flips and penalty draws are chance nodes. The route-card deal comes
from the game's seed (`new_state(seed=...)`), or, in the game loaded with
chance=True, from chance nodes: card by card, seat 0's hand first, each
undealt card equally likely.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from crossridor.engine.errors import CrossridorError, IllegalMoveError
from crossridor.engine.protocol import CHANCE
from crossridor.games.kreuzundquer.game import load
from crossridor.games.kreuzundquer.moves import Move
from crossridor.games.kreuzundquer.state import PHASES, KState
from crossridor.games.kreuzundquer.deck import NT, TERRAINS
from crossridor.games.learning import LearningGame, LearningState, check_action

PILE = 48


class Codec:
    def __init__(self, game):
        self.game = game
        self.n, self.K = game.n, game.ncards
        moves = [Move("build", pair) for pair in combinations(range(1, self.K + 1), 2)]
        moves += [Move("flip"), Move("keep"), Move("leave"), Move("stop")]
        moves += [Move("take", t) for t in range(NT)]
        self.chance_base = len(moves)        # ids of chance outcomes start here
        moves += [Move("goal", t) for t in range(NT)]
        moves += [Move("reveal", t) for t in range(NT)]
        moves += [Move("draw", c) for c in range(1, self.K + 1)]
        moves += [Deal(c) for c in range(1, self.K + 1)]
        self.moves = moves
        self.ids = {m: i for i, m in enumerate(moves)}
        self.head = 7 + 4 + (self.n + 1) + NT + 2 + (NT + 2)
        self.seat = 1 + (NT + 1) + 3 + 3 + 4 * self.K + PILE * (NT + 1) + 1

    def num_distinct_actions(self) -> int:
        return len(self.moves)

    def action_to_move(self, action) -> Move:
        return self.moves[check_action(action, len(self.moves))]

    def move_to_action(self, move) -> int:
        mv = Deal.parse(move) or Move.parse(move)
        a = self.ids.get(mv)
        if a is None:
            raise IllegalMoveError(f"kreuzundquer: {move!s} is not a move of this deck (cards 1..{self.K})")
        return a

    def observation_tensor_shape(self) -> tuple:
        return (self.head + self.n * self.seat,)

    def observation_tensor(self, state, player: int) -> np.ndarray:
        g, n, K = self.game, self.n, self.K
        if isinstance(state, ChanceKState) and state.inner is None:
            state = state.dealing_view()
        parts = state.information_state(player).split("|")   # the one filter
        phase, race, stage, tick, turn, stopper, up, down, pile, pts, goal, pos = parts[1:13]
        seats = parts[13:]
        pending = None
        if phase == "decide":
            pending, seats = seats[0], seats[1:]
        out = np.zeros(self.observation_tensor_shape(), dtype=np.float32)
        out[PHASES.index(phase)] = 1
        out[7:11] = (int(race) / g.races, int(stage) / g.max_stages, int(tick) / 48, int(turn) / n)
        k = 11
        stopper = int(stopper)
        out[k + (n if stopper < 0 else (stopper - player) % n)] = 1
        k += n + 1
        ups = [int(ch) for ch in up] if len(up) == NT else list(state.up)   # counts of 10+ print 2 digits
        out[k:k + NT] = np.asarray(ups, dtype=np.float32) / 10
        k += NT
        out[k], out[k + 1] = int(down) / 48, int(pile) / K
        k += 2
        out[k + (0 if pending is None else 1 if pending == "?" else 2 + TERRAINS.index(pending))] = 1
        pts, goal, pos = pts.split(","), goal.split(","), pos.split(",")
        for q in range(n):
            base = self.head + ((q - player) % n) * self.seat
            hand, route, aside, box, tpile = seats[q].split("/")
            out[base] = int(pts[q]) / (g.races * K)
            gq = int(goal[q])
            out[base + 1 + (NT if gq < 0 else gq)] = 1
            b = base + 1 + NT + 1
            pq = int(pos[q])
            out[b:b + 3] = (pq == -1, pq == -2, max(pq, 0) / (3 * K))
            b += 3
            out[b + {"building": 0, "built": 1}.get(route, 2)] = 1
            b += 3
            for j, field in enumerate((hand, route, aside)):
                for c in _ids(field):
                    out[b + j * K + c - 1] = 1
            if q == player:
                for c in _ids(box):
                    out[b + 3 * K + c - 1] = 1
            else:
                out[b + 3 * K] = int(box) / K
            b += 4 * K
            for i, ch in enumerate(tpile[:PILE]):
                out[b + i * (NT + 1) + (NT if ch == "?" else TERRAINS.index(ch.lower()))] = 1
            out[b + PILE * (NT + 1)] = len(tpile) / PILE
        return out


def _ids(field: str) -> list[int]:
    if field in ("", "-", "built", "building"):
        return []
    return [int(x) for x in field.split(",")]


# ------------------------------------------------------------------ chance deal

@dataclass(frozen=True, slots=True)
class Deal:
    """Chance outcome: route card `card` is dealt (`deal:17`)."""
    card: int

    @staticmethod
    def parse(text):
        if isinstance(text, Deal):
            return text
        if isinstance(text, str) and text.strip().lower().startswith("deal:") and text.strip()[5:].isdigit():
            return Deal(int(text.strip()[5:]))
        return None

    def __str__(self):
        return f"deal:{self.card}"

    __repr__ = __str__


class ChanceKreuzUndQuer(LearningGame):
    """Kreuz & Quer whose route-card deal is made of chance nodes:
    `load_game("kreuzundquer", chance=True, ...)`."""

    name = "kreuzundquer"

    def __init__(self, **params):
        self.base = load(**params)
        self.params = dict(self.base.params, chance=True)
        self.traits = self.base.traits
        self.n, self.deal, self.ncards = self.base.n, self.base.deal, self.base.ncards

    def __getattr__(self, name):        # races, max_stages, deck, track, ...
        return getattr(self.__dict__["base"], name)

    def __repr__(self) -> str:
        return repr(self.base)[:-1] + ", chance=True)"

    def new_state(self, moves=None, seed=None) -> "ChanceKState":
        """The start, a chance node dealing the first card (`seed` unused)."""
        st = ChanceKState(self)
        if moves:
            for m in (moves.split() if isinstance(moves, str) else moves):
                st.play(m)
        return st

    def state_from_position(self, position: str) -> "ChanceKState":
        st = ChanceKState(self)
        st.inner = self.base.state_from_position(position)
        return st


class ChanceKState(LearningState):
    """While dealing: the cards dealt so far; then the game's own state
    (`inner`), to which everything is delegated."""

    def __init__(self, game: ChanceKreuzUndQuer):
        self.game = game
        self.dealt = [[] for _ in range(game.n)]
        self.inner = None

    def __getattr__(self, name):
        inner = self.__dict__.get("inner")
        if inner is None:
            raise AttributeError(f"{name!r}: the route cards are being dealt")
        return getattr(inner, name)

    @property
    def current_player(self) -> int:
        return CHANCE if self.inner is None else self.inner.current_player

    def is_terminal(self) -> bool:
        return self.inner is not None and self.inner.is_terminal()

    def returns(self) -> list:
        return [0.0] * self.game.n if self.inner is None else self.inner.returns()

    def chance_outcomes(self) -> list:
        if self.inner is not None:
            return self.inner.chance_outcomes()
        used = {c for h in self.dealt for c in h}
        left = [c for c in range(1, self.game.ncards + 1) if c not in used]
        return [(Deal(c), 1.0 / len(left)) for c in left]

    def legal_moves(self) -> list:
        if self.inner is not None:
            return self.inner.legal_moves()
        return [m for m, _ in self.chance_outcomes()]

    def parse_move(self, text):
        if self.inner is not None:
            return self.inner.parse_move(text)
        mv = Deal.parse(text)
        if mv is None or mv not in self.legal_moves():
            raise IllegalMoveError(f"kreuzundquer: {text!s}: the route cards are being dealt "
                                   f"(expected deal:<an undealt card number>)")
        return mv

    def play(self, move) -> None:
        if self.inner is not None:
            self.inner.play(move)
            return
        mv = self.parse_move(move)
        seat = next(p for p in range(self.game.n) if len(self.dealt[p]) < self.game.deal)
        self.dealt[seat].append(mv.card)
        if len(self.dealt[-1]) == self.game.deal:
            self.inner = self._build(self.dealt)

    def _build(self, hands) -> KState:
        st = KState(self.game.base)
        used = {c for h in hands for c in h}
        st.hands = [tuple(sorted(h)) for h in hands]
        st.pile = [c for c in range(1, self.game.ncards + 1) if c not in used]
        return st

    def dealing_view(self) -> KState:
        """A state in the build phase holding the cards dealt so far, whose
        information_state(player) is that player's view of the deal."""
        return self._build(self.dealt)

    def undo(self) -> None:
        if self.inner is not None and self.inner.history:
            self.inner.undo()
            return
        if self.inner is not None:
            self.inner = None
        seat = max((p for p in range(self.game.n) if self.dealt[p]), default=None)
        if seat is None:
            raise IndexError("kreuzundquer: no move to undo")
        self.dealt[seat].pop()

    def clone(self) -> "ChanceKState":
        st = ChanceKState(self.game)
        st.dealt = [list(h) for h in self.dealt]
        st.inner = None if self.inner is None else self.inner.clone()
        return st

    def information_state(self, player: int) -> str:
        return (self.dealing_view() if self.inner is None else self.inner).information_state(player)

    def sample_determinization(self, player: int, rng):
        if self.inner is None:
            raise CrossridorError("kreuzundquer: determinize after the deal")
        return self.inner.sample_determinization(player, rng)

    def position(self) -> str:
        if self.inner is None:
            raise CrossridorError("kreuzundquer: no position string while the route cards are dealt")
        return self.inner.position()

    def render(self, viewer=None, full: bool = False) -> str:
        if self.inner is not None:
            return self.inner.render(viewer, full)
        lines = self.dealing_view().render(viewer, full).splitlines()[:-1]
        return "\n".join(lines + ["to move: chance (the route-card deal)"])

    def __str__(self) -> str:
        return self.render(None, full=True)
