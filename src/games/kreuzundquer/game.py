"""Kreuz & Quer (Kosmos 2006) as a turn-based game (rules: docs/rules/kreuz-und-quer.md).

Pure Python. Material and the deck file format: `games.kuq_deck`; the path
helper ("from here, with this pile, how far do I get, which cards would
extend my path"): `games.kuq_paths`.

Options (`load(**params)`)
    players=2        2..4
    races=None       races in a game (default: the number of players); each
                     race scores 1 point per route card set aside
    deck_seed=0      seed of the generated deck (28 route cards, 4 goals)
    deck_file=None   path of a deck file (overrides deck_seed)
    deck_text=None   the text of a deck file (overrides deck_seed)
    max_stages=20    a race with no winner after this many stages ends
                     (scored as usual) [decision: guarantees the game ends]

Course of a game (phases)
    build    each player in seat order returns 2 of the dealt route cards to
             the box (8 dealt with 2 players, 7 with 3-4); the kept cards are
             laid in the order of their numbers [decision]. Other players'
             hands and choices stay hidden until everyone has built.
    goal     chance: a goal card is drawn for each player in seat order.
    collect  ticks; in each tick every player, in seat order from player
             (race + stage + tick) mod n, plays one of:
               flip    turn a face-down card: a chance node (`@s`, the card
                       is sand), then the same player plays keep / leave
               take:s  take a face-up sand card onto their pile
               stop    end the collection
             Collection also ends once no face-down card is left.
    movement automatic: the stopper first (else seat order from player
             (race + stage) mod n), each pawn follows its pile as
             `kuq_paths.walk` describes (the player's choice is made for them:
             the farthest end). The first to reach the goal wins the race.
    penalty  chance (`draw:17`): a stopper who did not reach the goal adds
             a route card from the pile to the end of their route.
    Then crossed route cards are set aside, the 48 terrain cards go face
    down again, and a new stage begins; after a race routes and goals pass to
    the left (player p's to p+1) and pawns restart.

Move notation: `x3,17` (build: return cards 3 and 17), `goal:w` (chance),
`flip`, `@s` (chance), `keep`, `leave`, `take:s`, `stop`, `draw:17` (chance).
Terrain letters: b e m f w c g s (see `kuq_deck`).

Position string (`state.position()`, `game.state_from_position`): fields
separated by ";":
    phase;race;stage;tick;turn;pending;stopper;up;pile;P0;P1;...
    phase    build | goal | collect | flip | decide | penalty | over
    race, stage   1-based; tick, turn 0-based
    pending  terrain just flipped, awaiting keep/leave, or "-"
    stopper  the player who called stop, or "-"
    up       face-up terrain cards as letters ("ssg"), "-" if none
    pile     route cards in the draw pile, "3,9,12" or "-"
    Pn       hand/route/aside/box/goal/pos/tpile/points:
             hand, route (in order), aside (set aside this race), box
             (returned): card numbers "1,4" or "-"; goal a letter or "-";
             pos -1 before the route, -2 on the goal, else the room index
             row*3+lane counted from the first card of the current route;
             tpile the collected terrain cards in order, upper case for a
             card taken face up (public), "-" if empty; points so far.
Face-down cards are what the 48 less the others hold.

Search fast paths (`native_search`): "greedy" (also "heuristic"): the
heuristic player in `heuristic_move`. "ismcts" runs the generic ISMCTS with
game defaults for the options not given: prior = `kuq_policy.policy_move`
(progressive bias, weight `ISMCTS_PRIOR_WEIGHT`) and, unless rollout or
evaluator is given, evaluator = `kuq_rollout.stage_evaluator`; its own
options (none on by default: `PIMC_OPTIONS`) are stages (playout horizon),
mode=pimc and build=N (`games.kuq_pimc`), deny and take_deny (the prior's),
trees and anchor (`games.kuq_roots`). Every other
algorithm runs the generic module; `evaluate()` is a cheap heuristic (distance to the goal counting the
pile, points), and `games.kuq_rollout.stage_evaluator` a playout of the rest
of the stage with the heuristic rules, for `evaluator=` of mcts / ismcts.

Hidden information: face-down cards are unknown to all (a flip is a chance
node); a player knows their own pile and, of the others', the cards taken
face up; others' hands and returned cards, and the route pile, are hidden.
`sample_determinization` deals the unseen cards again, assuming [decision]
that the cards others kept extend their paths (see there).
"""

from __future__ import annotations

import random
import time as _time
from dataclasses import dataclass
from itertools import combinations

from crossridor.engine.errors import (IllegalMoveError, InvalidMoveError, InvalidPositionError,
                           UnknownGameError, UnsupportedGameError)
from crossridor.engine.files import read_regular_file
from crossridor.engine.options import check_options
from crossridor.engine.protocol import CHANCE, SPECTATOR, TERMINAL, GameTraits, SearchResult, applied, play_moves
from crossridor.games.learning import LearningGame, LearningState

from crossridor.games.kreuzundquer.deck import (LANES, NT, ROOMS, ROWS, TERRAIN_COUNTS, TERRAIN_NAMES, TERRAINS,
                       TOTAL_TERRAIN, Deck, generate_deck, parse_deck_text)
from crossridor.games.kreuzundquer.paths import (GOAL, START, Track, extensions, outlook_values, rank, route_ease, step,
                        walk)

__all__ = ["load", "KreuzUndQuer", "KState", "Move", "heuristic_move"]

# ----------------------------------------------------------------------------- moves

_KINDS = ("build", "goal", "flip", "reveal", "keep", "leave", "take", "stop", "draw")


@dataclass(frozen=True, order=True)
class Move:
    """kind: one of build (arg: sorted pair of card numbers), goal (terrain),
    flip, reveal (terrain), keep, leave, take (terrain), stop, draw (card)."""
    kind: str
    arg: object = None

    def __str__(self):
        k, a = self.kind, self.arg
        if k == "build":
            return f"x{a[0]},{a[1]}"
        if k == "goal":
            return f"goal:{TERRAINS[a]}"
        if k == "reveal":
            return f"@{TERRAINS[a]}"
        if k == "take":
            return f"take:{TERRAINS[a]}"
        if k == "draw":
            return f"draw:{a}"
        return k

    def __repr__(self):
        return f"Move.parse({str(self)!r})"

    @staticmethod
    def parse(text) -> "Move":
        if isinstance(text, Move):
            return text
        if not isinstance(text, str):
            raise InvalidMoveError(f"kreuzundquer: {text!r} is not a move")
        t = text.strip().lower()

        def terrain(s):
            if len(s) != 1 or s not in TERRAINS:
                raise InvalidMoveError(f"kreuzundquer: {text!r}: unknown terrain {s!r} (known: {TERRAINS})")
            return TERRAINS.index(s)
        if t in ("flip", "keep", "leave", "stop"):
            return Move(t)
        if t.startswith("x"):
            parts = t[1:].split(",")
            if len(parts) != 2 or not all(p.isdigit() for p in parts):
                raise InvalidMoveError(f"kreuzundquer: {text!r}: a build is 'x<card>,<card>', e.g. 'x3,17'")
            a, b = int(parts[0]), int(parts[1])
            if a == b:
                raise InvalidMoveError(f"kreuzundquer: {text!r}: two different cards must go back to the box")
            return Move("build", (min(a, b), max(a, b)))
        if t.startswith("goal:"):
            return Move("goal", terrain(t[5:]))
        if t.startswith("@"):
            return Move("reveal", terrain(t[1:]))
        if t.startswith("take:"):
            return Move("take", terrain(t[5:]))
        if t.startswith("draw:"):
            if not t[5:].isdigit():
                raise InvalidMoveError(f"kreuzundquer: {text!r}: expected 'draw:<card number>'")
            return Move("draw", int(t[5:]))
        raise InvalidMoveError(f"kreuzundquer: {text!r} is not a move (expected x3,17 / flip / keep / "
                               f"leave / take:s / stop, or a chance outcome @s / goal:s / draw:17)")


FLIP, KEEP, LEAVE, STOP = Move("flip"), Move("keep"), Move("leave"), Move("stop")

# ----------------------------------------------------------------------------- game

MAX_DECK_BYTES = 2 ** 20      # a deck is a few kB
_PARAMS = {"players": 2, "races": None, "deck_seed": 0, "deck_file": None, "deck_text": None, "max_stages": 20}


def _int_param(p, k, lo, hi):
    v = p[k]
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise UnknownGameError(f"kreuzundquer: option {k} must be an integer in [{lo}, {hi}], got {v!r}")


def load(**params) -> "KreuzUndQuer":
    chance = params.pop("chance", False)
    if chance not in (True, False, "true", "false"):
        raise UnknownGameError(f"kreuzundquer: chance must be true or false, got {chance!r}")
    if chance in (True, "true"):   # the route-card deal as chance nodes (for learning agents)
        from crossridor.games.kreuzundquer.learning import ChanceKreuzUndQuer
        return ChanceKreuzUndQuer(**params)
    for k in params:
        if k not in _PARAMS:
            raise UnknownGameError(f"kreuzundquer: unknown option {k!r} (known: {', '.join(_PARAMS)})")
    p = dict(_PARAMS)
    p.update(params)
    _int_param(p, "players", 2, 4)
    if p["races"] is None:
        p["races"] = p["players"]
    _int_param(p, "races", 1, 12)
    _int_param(p, "deck_seed", 0, 2 ** 63)
    _int_param(p, "max_stages", 1, 200)
    if p["deck_file"] is not None and p["deck_text"] is not None:
        raise UnknownGameError("kreuzundquer: give deck_file or deck_text, not both")
    if p["deck_file"] is not None:
        if not isinstance(p["deck_file"], str):
            raise UnknownGameError(f"kreuzundquer: deck_file must be a path, got {p['deck_file']!r}")
        data = read_regular_file(p["deck_file"], "kreuzundquer: deck_file", MAX_DECK_BYTES, UnknownGameError)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise UnknownGameError(f"kreuzundquer: deck_file {p['deck_file']!r} is not UTF-8 text") from None
        deck = parse_deck_text(text, where=p["deck_file"])
    elif p["deck_text"] is not None:
        if not isinstance(p["deck_text"], str):
            raise UnknownGameError("kreuzundquer: deck_text must be a string")
        deck = parse_deck_text(p["deck_text"], where="deck_text")
    else:
        deck = generate_deck(p["deck_seed"])
    deal = 8 if p["players"] == 2 else 7
    if len(deck.routes) < deal * p["players"]:
        raise UnknownGameError(f"kreuzundquer: the deck has {len(deck.routes)} route cards, "
                               f"{deal * p['players']} are dealt to {p['players']} players")
    return KreuzUndQuer(deck, p)


class KreuzUndQuer(LearningGame):
    name = "kreuzundquer"

    def __init__(self, deck: Deck, params: dict):
        self.deck = deck
        self.params = dict(params)
        self.n = params["players"]
        self.races = params["races"]
        self.max_stages = params["max_stages"]
        self.deal = 8 if self.n == 2 else 7
        self.ncards = len(deck.routes)
        self.traits = GameTraits(name="kreuzundquer", num_players=self.n, chance=True,
                                 hidden_information=True, zero_sum=True, min_return=-1.0, max_return=1.0)
        self._tracks = {}

    def __repr__(self):
        shown = {k: v for k, v in self.params.items() if v is not None}
        return f"load_game('kreuzundquer', {', '.join(f'{k}={v!r}' for k, v in shown.items())})"

    def track(self, route: tuple, goal: int) -> Track:
        key = (route, goal)
        tr = self._tracks.get(key)
        if tr is None:
            if len(self._tracks) > 20000:
                self._tracks.clear()
            tr = Track(tuple(self.deck.routes[c - 1] for c in route), goal)
            self._tracks[key] = tr
        return tr

    def new_state(self, moves=None, seed=None) -> "KState":
        """A new game; the route cards are dealt from `random.Random(seed)`
        (seed None = 0, so a move list replays)."""
        s = KState(self)
        rng = random.Random(0 if seed is None else seed)
        ids = list(range(1, self.ncards + 1))
        rng.shuffle(ids)
        for p in range(self.n):
            s.hands[p] = tuple(sorted(ids[p * self.deal:(p + 1) * self.deal]))
        s.pile = sorted(ids[self.n * self.deal:])
        return play_moves(s, moves)

    def state_from_position(self, position: str) -> "KState":
        return KState.from_position(self, position)


# ----------------------------------------------------------------------------- state

PHASES = ("build", "goal", "collect", "flip", "decide", "penalty", "over")


class KState(LearningState):
    def __init__(self, game: KreuzUndQuer):
        self.game = game
        n = game.n
        self.phase = "build"
        self.race = 0
        self.stage = 0
        self.tick = 0
        self.turn = 0
        self.hands = [None] * n        # tuple of card numbers while building
        self.route = [[] for _ in range(n)]
        self.aside = [[] for _ in range(n)]
        self.box = [[] for _ in range(n)]
        self.goal = [-1] * n
        self.pos = [START] * n
        self.pile = []                 # route draw pile (sorted)
        self.up = [0] * NT             # face-up terrain cards
        self.down = list(TERRAIN_COUNTS)
        self.tp = [[] for _ in range(n)]     # collected terrain piles, in order
        self.tk = [[] for _ in range(n)]     # per pile card: taken face up (public)
        self.pending = -1
        self.stopper = -1
        self.pts = [0] * n
        self.log = []                  # what happened at the last movement (text)
        self._hist = []

    # -- copying / undo
    def _snap(self):
        return (self.phase, self.race, self.stage, self.tick, self.turn, list(self.hands),
                [list(x) for x in self.route], [list(x) for x in self.aside], [list(x) for x in self.box],
                list(self.goal), list(self.pos), list(self.pile), list(self.up), list(self.down),
                [list(x) for x in self.tp], [list(x) for x in self.tk], self.pending, self.stopper,
                list(self.pts), self.log)

    def _restore(self, s):
        (self.phase, self.race, self.stage, self.tick, self.turn, self.hands, self.route, self.aside,
         self.box, self.goal, self.pos, self.pile, self.up, self.down, self.tp, self.tk, self.pending,
         self.stopper, self.pts, self.log) = s

    def clone(self) -> "KState":
        c = KState.__new__(KState)
        c.game = self.game
        c._restore(self._snap())
        c._hist = list(self._hist)
        return c

    def undo(self) -> None:
        if not self._hist:
            raise IndexError("kreuzundquer: no move to undo")
        _, snap = self._hist.pop()
        self._restore(snap)

    @property
    def history(self) -> list:
        return [m for m, _ in self._hist]

    # -- whose turn
    def collector(self) -> int:
        return (self.race + self.stage + self.tick + self.turn) % self.game.n

    @property
    def current_player(self) -> int:
        ph = self.phase
        if ph in ("collect", "decide"):
            return self.collector()
        if ph in ("flip", "goal", "penalty"):
            return CHANCE
        if ph == "build":
            for p in range(self.game.n):
                if self.hands[p] is not None:
                    return p
        return TERMINAL

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance_node(self) -> bool:
        return self.phase in ("flip", "goal", "penalty")

    def returns(self) -> list:
        n = self.game.n
        if self.phase != "over":
            return [0.0] * n
        top = max(self.pts)
        k = sum(1 for x in self.pts if x == top)
        if k == n:
            return [0.0] * n
        win = (n / k - 1) / (n - 1)
        lose = -1.0 / (n - 1)
        return [win if x == top else lose for x in self.pts]

    def track(self, p: int) -> Track:
        return self.game.track(tuple(self.route[p]), self.goal[p])

    # -- moves
    def legal_moves(self) -> list:
        ph = self.phase
        if ph == "build":
            p = self.current_player
            return [Move("build", pair) for pair in combinations(self.hands[p], 2)]
        if ph == "collect":
            out = []
            if any(self.down):
                out.append(FLIP)
            out.extend(Move("take", t) for t in range(NT) if self.up[t])
            out.append(STOP)
            return out
        if ph == "decide":
            return [KEEP, LEAVE]
        if ph in ("flip", "goal", "penalty"):
            return [m for m, _ in self.chance_outcomes()]
        return []

    def chance_outcomes(self) -> list:
        ph = self.phase
        if ph == "flip":
            tot = sum(self.down)
            return [(Move("reveal", t), self.down[t] / tot) for t in range(NT) if self.down[t]]
        if ph == "goal":
            used = set(g for g in self.goal if g >= 0)
            left = [g for g in self.game.deck.goals if g not in used]
            return [(Move("goal", g), 1.0 / len(left)) for g in sorted(left)]
        if ph == "penalty":
            return [(Move("draw", c), 1.0 / len(self.pile)) for c in self.pile]
        return []

    def move_text(self, move: Move, viewer: int) -> str:
        """How `viewer` sees `move` played now: the route cards another player
        returns and the card flipped for another collector are secret."""
        if move.kind == "build" and self.current_player != viewer:
            return "returns 2 route cards"
        if move.kind == "reveal" and self.collector() != viewer:
            return "a card is flipped (hidden)"
        return str(move)

    def parse_move(self, text) -> Move:
        mv = Move.parse(text)
        self._check(mv, text)
        return mv

    def _check(self, mv: Move, text):
        ph = self.phase
        name = str(text) if not isinstance(text, Move) else str(mv)
        if ph == "over":
            raise IllegalMoveError(f"kreuzundquer: {name!r}: the game is over")
        if ph == "build":
            if mv.kind != "build":
                raise IllegalMoveError(f"kreuzundquer: {name!r}: player {self.current_player + 1} must "
                                       f"return 2 route cards first (e.g. 'x3,17')")
            hand = self.hands[self.current_player]
            for c in mv.arg:
                if c not in hand:
                    raise IllegalMoveError(f"kreuzundquer: {name!r}: card {c} is not in player "
                                           f"{self.current_player}'s hand {','.join(map(str, hand))}")
            return
        if ph in ("flip", "goal", "penalty"):
            if mv not in self.legal_moves():
                want = {"flip": "@<terrain> for the flipped card", "goal": "goal:<terrain>",
                        "penalty": "draw:<card>"}[ph]
                raise IllegalMoveError(f"kreuzundquer: {name!r}: a chance outcome {want} is expected "
                                       f"(legal: {' '.join(map(str, self.legal_moves()))})")
            return
        if ph == "decide":
            if mv.kind not in ("keep", "leave"):
                raise IllegalMoveError(f"kreuzundquer: {name!r}: player {self.current_player + 1} must keep or "
                                       f"leave the card just flipped")
            return
        # collect
        if mv.kind == "flip":
            if not any(self.down):
                raise IllegalMoveError(f"kreuzundquer: {name!r}: no face-down card is left")
            return
        if mv.kind == "take":
            if not self.up[mv.arg]:
                raise IllegalMoveError(f"kreuzundquer: {name!r}: no face-up {TERRAIN_NAMES[mv.arg]} card")
            return
        if mv.kind == "stop":
            return
        raise IllegalMoveError(f"kreuzundquer: {name!r}: player {self.current_player + 1} collects: "
                               f"flip, take:<terrain> or stop")

    def play(self, move) -> None:
        mv = Move.parse(move)
        self._check(mv, move)
        self._hist.append((mv, self._snap()))
        k = mv.kind
        p = self.current_player
        if k == "build":
            hand = self.hands[p]
            self.box[p] = list(mv.arg)
            self.route[p] = [c for c in hand if c not in mv.arg]
            self.hands[p] = None
            if all(h is None for h in self.hands):
                self.phase = "goal"
        elif k == "goal":
            q = self.goal.index(-1)
            self.goal[q] = mv.arg
            if -1 not in self.goal:
                self._start_stage()
        elif k == "flip":
            self.phase = "flip"
        elif k == "reveal":
            self.down[mv.arg] -= 1
            self.pending = mv.arg
            self.phase = "decide"
        elif k == "keep":
            self.tp[p].append(self.pending)
            self.tk[p].append(False)
            self.pending = -1
            self._after_action()
        elif k == "leave":
            self.up[self.pending] += 1
            self.pending = -1
            self._after_action()
        elif k == "take":
            self.up[mv.arg] -= 1
            self.tp[p].append(mv.arg)
            self.tk[p].append(True)
            self._after_action()
        elif k == "stop":
            self.stopper = p
            self._end_collection()
        elif k == "draw":
            self.pile.remove(mv.arg)
            self.route[self.stopper].append(mv.arg)
            self.log = self.log + [f"player {self.stopper + 1} adds route card {mv.arg} (penalty)"]
            self._finish_stage()

    def apply(self, move) -> "KState":
        return applied(self, move)

    # -- stage / race flow
    def _start_stage(self):
        self.phase = "collect"
        self.tick = self.turn = 0
        self.stopper = -1
        self.pending = -1
        self.up = [0] * NT
        self.down = list(TERRAIN_COUNTS)
        n = self.game.n
        self.tp = [[] for _ in range(n)]
        self.tk = [[] for _ in range(n)]

    def _after_action(self):
        self.phase = "collect"
        if not any(self.down):
            self._end_collection()
            return
        self.turn += 1
        if self.turn == self.game.n:
            self.turn = 0
            self.tick += 1

    def movement_order(self) -> list:
        n = self.game.n
        first = self.stopper if self.stopper >= 0 else (self.race + self.stage) % n
        return [(first + i) % n for i in range(n)]

    def _end_collection(self):
        winner = None
        log = []
        for p in self.movement_order():
            tr = self.track(p)
            w = walk(tr, self.pos[p], self.tp[p])
            self.pos[p] = w.end
            log.append(f"player {p + 1} uses {w.used} of {len(self.tp[p])} cards"
                       + (", reaches the goal" if w.goal_step is not None else ""))
            if w.goal_step is not None:
                winner = p
                break
        self.log = log
        self.pending = -1
        # the terrain cards go back to the centre
        n = self.game.n
        self.up = [0] * NT
        self.down = list(TERRAIN_COUNTS)
        self.tp = [[] for _ in range(n)]
        self.tk = [[] for _ in range(n)]
        if winner is not None:
            self._end_race(winner)
        elif self.stopper >= 0 and self.pile:
            self.phase = "penalty"
        else:
            self._finish_stage()

    def _set_aside(self):
        for p in range(self.game.n):
            if self.pos[p] >= 0:
                k = self.pos[p] // ROOMS
                if k:
                    self.aside[p].extend(self.route[p][:k])
                    self.route[p] = self.route[p][k:]
                    self.pos[p] -= k * ROOMS

    def _finish_stage(self):
        self._set_aside()
        self.stage += 1
        if self.stage >= self.game.max_stages:
            self.log = self.log + ["stage limit: the race ends without a winner"]
            self._end_race(None)
        else:
            self._start_stage()

    def _end_race(self, winner):
        n = self.game.n
        if winner is not None:
            self.aside[winner].extend(self.route[winner])
            self.route[winner] = []
        self._set_aside()
        for p in range(n):
            self.pts[p] += len(self.aside[p])
        self.race += 1
        if self.race >= self.game.races:
            self.phase = "over"
            self.stopper = -1
            self.up = [0] * NT
            self.down = list(TERRAIN_COUNTS)
            self.tp = [[] for _ in range(n)]
            self.tk = [[] for _ in range(n)]
            return
        full = [self.aside[p] + self.route[p] for p in range(n)]
        goals = list(self.goal)
        for p in range(n):
            self.route[(p + 1) % n] = full[p]
            self.goal[(p + 1) % n] = goals[p]
        self.aside = [[] for _ in range(n)]
        self.pos = [START] * n
        self.stage = 0
        self._start_stage()

    # -- keys, evaluation
    def key(self):
        return (self.phase, self.race, self.stage, self.tick, self.turn, tuple(self.hands),
                tuple(map(tuple, self.route)), tuple(map(tuple, self.aside)), tuple(map(tuple, self.box)),
                tuple(self.goal), tuple(self.pos), tuple(self.pile), tuple(self.up),
                tuple(map(tuple, self.tp)), tuple(map(tuple, self.tk)), self.pending, self.stopper,
                tuple(self.pts))

    def progress(self, p: int) -> tuple:
        """(rows still to go after moving with the current pile, goal reached
        with the pile). Before the goals are drawn: the route length."""
        if self.goal[p] < 0:
            return ROWS * len(self.route[p]) + 1, False
        tr = self.track(p)
        if self.phase in ("collect", "flip", "decide") and self.tp[p]:
            w = walk(tr, self.pos[p], self.tp[p])
            if w.goal_step is not None:
                return 0, True
            return tr.remaining(w.end), False
        return tr.remaining(self.pos[p]), self.pos[p] == GOAL

    def _outlook(self, p: int) -> float:
        """How far player p is from the goal, in rows of average difficulty
        (`Track.cost_to_goal` / 2), counting the pile collected so far, less
        what the rest of the stage may bring: each card this player may still
        flip (face-down / players) is worth 0.25 row plus 0.15 times the chance
        that a face-down card extends the path now, and face-up cards that
        extend it count half. A pile with a wasted card brings nothing more.
        At a stage start this is the same for everyone but the route."""
        if self.phase in ("build", "goal") or self.goal[p] < 0:
            route = tuple(self.route[p]) if self.hands[p] is None else None
            if route is None:
                hand = self.hands[p]
                best = None
                for pair in combinations(hand, 2):
                    kept = tuple(c for c in hand if c not in pair)
                    c = self.game.track(kept, 0).cost_to_goal(START)
                    best = c if best is None or c < best else best
                return best / 2.0
            return self.game.track(route, 0).cost_to_goal(START) / 2.0
        tr = self.track(p)
        pos = self.pos[p]
        pile = self.tp[p] if self.phase in ("collect", "flip", "decide") else []
        down = self.down if self.phase in ("collect", "flip", "decide") else TERRAIN_COUNTS
        up = self.up if self.phase in ("collect", "flip", "decide") else (0,) * NT
        w = walk(tr, pos, pile)
        if w.goal_step is not None:
            return -2.0
        left = tr.cost_to_goal(w.end) / 2.0
        if not w.frontier:
            return left
        ext = extensions(tr, pos, pile)
        nd = sum(down)
        if not nd:
            return left
        q = sum(down[t] for t in ext) / nd
        gain = (0.25 + 0.15 * q) * nd / self.game.n + 0.5 * sum(up[t] for t in ext)
        return left - min(left, gain)

    def evaluate(self) -> list:
        """Per-player estimate in [-1, 1] from `_outlook` (distance to the
        goal, counting the pile and what it may still collect) and points."""
        n = self.game.n
        if self.phase == "over":
            return self.returns()
        return outlook_values([self._outlook(p) for p in range(n)],
                              [self.pts[p] + len(self.aside[p]) for p in range(n)])

    # -- hidden information
    def _visible_routes(self) -> bool:
        return self.phase != "build"

    def information_state(self, player: int) -> str:
        g = self.game
        parts = [f"P{player}", self.phase, str(self.race), str(self.stage), str(self.tick), str(self.turn),
                 str(self.stopper), "".join(map(str, self.up)), str(sum(self.down)), str(len(self.pile)),
                 ",".join(map(str, self.pts)), ",".join(map(str, self.goal)), ",".join(map(str, self.pos))]
        if self.phase == "decide":
            parts.append(TERRAINS[self.pending] if self.collector() == player else "?")
        for q in range(g.n):
            mine = q == player
            if mine or self._visible_routes():
                r = ",".join(map(str, self.route[q]))
            else:
                r = "built" if self.hands[q] is None else "building"
            hand = ",".join(map(str, self.hands[q])) if (mine and self.hands[q] is not None) else "-"
            box = ",".join(map(str, self.box[q])) if mine else str(len(self.box[q]))
            # own pile in full; of the others' only the cards taken face up
            pile = "".join(TERRAINS[t].upper() if pub else (TERRAINS[t] if mine else "?")
                           for t, pub in zip(self.tp[q], self.tk[q]))
            parts.append(f"{hand}/{r}/{','.join(map(str, self.aside[q]))}/{box}/{pile}")
        return "|".join(parts)

    def sample_determinization(self, player: int, rng) -> "KState":
        g = self.game
        s = self.clone()
        s._hist = []
        n = g.n
        # terrain cards: others' hidden pile cards, another player's pending card, face-down cards.
        # [decision] Players keep cards that fit: a hidden pile card is drawn among the unseen
        # terrains that extend that pile's path, weighted by how many are unseen (any unseen
        # terrain when none fits); a pending card and the face-down cards are drawn uniformly.
        pool = list(TERRAIN_COUNTS)
        for t in range(NT):
            pool[t] -= self.up[t]
        for q in range(n):
            for t, pub in zip(self.tp[q], self.tk[q]):
                if q == player or pub:
                    pool[t] -= 1
        own_pending = self.phase == "decide" and self.collector() == player
        if self.pending >= 0 and own_pending:
            pool[self.pending] -= 1
        for q in range(n):
            if q == player or all(self.tk[q]):
                continue
            tr = self.track(q) if self.goal[q] >= 0 else None
            cur = {self.pos[q]}
            for i, (t, pub) in enumerate(zip(self.tp[q], self.tk[q])):
                if not pub:
                    fits = []
                    if tr is not None and cur:
                        fits = [u for u in range(NT) if pool[u] and step(tr, cur, u)]
                    cand = fits or [u for u in range(NT) if pool[u]]
                    t = rng.choices(cand, [pool[u] for u in cand])[0]
                    pool[t] -= 1
                    s.tp[q][i] = t
                if tr is not None and cur:
                    cur = step(tr, cur, t)
                    if GOAL in cur:
                        cur = set()
        if self.pending >= 0 and not own_pending:
            cand = [u for u in range(NT) if pool[u]]
            t = rng.choices(cand, [pool[u] for u in cand])[0]
            pool[t] -= 1
            s.pending = t
        s.down = pool
        # route cards: the draw pile, others' returned cards and (while building) others' hands/routes
        hidden_routes = self.phase == "build"
        rpool = list(self.pile)
        shapes = []
        for q in range(n):
            if q == player:
                continue
            rpool.extend(self.box[q])
            shapes.append(("box", q, len(self.box[q])))
            if hidden_routes:
                if self.hands[q] is not None:
                    rpool.extend(self.hands[q])
                    shapes.append(("hand", q, len(self.hands[q])))
                else:
                    rpool.extend(self.route[q])
                    shapes.append(("route", q, len(self.route[q])))
        rng.shuffle(rpool)
        i = 0
        for kind, q, k in shapes:
            chunk = rpool[i:i + k]
            i += k
            if kind == "box":
                s.box[q] = sorted(chunk)
            elif kind == "hand":
                s.hands[q] = tuple(sorted(chunk))
            else:
                s.route[q] = sorted(chunk)
        s.pile = sorted(rpool[i:])
        return s

    # -- text
    def position(self) -> str:
        def ids(xs):
            return ",".join(map(str, xs)) if xs else "-"
        up = "".join(TERRAINS[t] * self.up[t] for t in range(NT)) or "-"
        fields = [self.phase, str(self.race + 1), str(self.stage + 1), str(self.tick), str(self.turn),
                  TERRAINS[self.pending] if self.pending >= 0 else "-",
                  str(self.stopper) if self.stopper >= 0 else "-", up, ids(self.pile)]
        for p in range(self.game.n):
            hand = ids(self.hands[p]) if self.hands[p] is not None else "-"
            tp = "".join(TERRAINS[t].upper() if pub else TERRAINS[t] for t, pub in zip(self.tp[p], self.tk[p])) or "-"
            goal = TERRAINS[self.goal[p]] if self.goal[p] >= 0 else "-"
            fields.append(f"{hand}/{ids(self.route[p])}/{ids(self.aside[p])}/{ids(self.box[p])}/{goal}/"
                          f"{self.pos[p]}/{tp}/{self.pts[p]}")
        return ";".join(fields)

    @staticmethod
    def from_position(game: KreuzUndQuer, position: str) -> "KState":
        def bad(why):
            raise InvalidPositionError(f"kreuzundquer: bad position {position!r}: {why}")
        if not isinstance(position, str):
            bad("not a string")
        n = game.n
        f = position.strip().split(";")
        if len(f) != 9 + n:
            bad(f"expected {9 + n} fields separated by ';' for {n} players, got {len(f)}")

        def ids(text, what):
            if text == "-":
                return []
            try:
                out = [int(x) for x in text.split(",")]
            except ValueError:
                bad(f"{what} {text!r}: expected card numbers like 3,17 or '-'")
            for c in out:
                if not 1 <= c <= game.ncards:
                    bad(f"{what}: no route card {c}")
            return out

        def terr(ch, what):
            if ch.lower() not in TERRAINS or len(ch) != 1:
                bad(f"{what}: unknown terrain {ch!r}")
            return TERRAINS.index(ch.lower())

        def num(text, what, lo, hi):
            try:
                v = int(text)
            except ValueError:
                bad(f"{what} {text!r} is not a number")
            if not lo <= v <= hi:
                bad(f"{what} {v} out of range {lo}..{hi}")
            return v
        s = KState(game)
        if f[0] not in PHASES:
            bad(f"phase {f[0]!r} (known: {', '.join(PHASES)})")
        s.phase = f[0]
        s.race = num(f[1], "race", 1, game.races + (1 if s.phase == "over" else 0)) - 1
        s.stage = num(f[2], "stage", 1, game.max_stages) - 1
        s.tick = num(f[3], "tick", 0, 10 ** 4)
        s.turn = num(f[4], "turn", 0, n - 1)
        s.pending = -1 if f[5] == "-" else terr(f[5], "pending")
        s.stopper = -1 if f[6] == "-" else num(f[6], "stopper", 0, n - 1)
        s.up = [0] * NT
        if f[7] != "-":
            for ch in f[7]:
                s.up[terr(ch, "face-up cards")] += 1
        s.pile = sorted(ids(f[8], "pile"))
        for p in range(n):
            sub = f[9 + p].split("/")
            if len(sub) != 8:
                bad(f"player {p + 1}: expected hand/route/aside/box/goal/pos/tpile/points, got {f[9 + p]!r}")
            s.hands[p] = tuple(sorted(ids(sub[0], f"player {p + 1} hand"))) if sub[0] != "-" else None
            s.route[p] = ids(sub[1], f"player {p + 1} route")
            s.aside[p] = ids(sub[2], f"player {p + 1} aside")
            s.box[p] = sorted(ids(sub[3], f"player {p + 1} box"))
            s.goal[p] = -1 if sub[4] == "-" else terr(sub[4], f"player {p + 1} goal")
            s.pos[p] = num(sub[5], f"player {p + 1} pos", -2, ROOMS * max(1, len(s.route[p])) - 1)
            if sub[6] != "-":
                for ch in sub[6]:
                    s.tp[p].append(terr(ch, f"player {p + 1} pile"))
                    s.tk[p].append(ch.isupper())
            s.pts[p] = num(sub[7], f"player {p + 1} points", 0, 10 ** 4)
        # route cards: each exactly once
        seen = list(s.pile)
        for p in range(n):
            seen += list(s.hands[p] or ()) + s.route[p] + s.aside[p] + s.box[p]
        if sorted(seen) != list(range(1, game.ncards + 1)):
            dup = sorted(set(c for c in seen if seen.count(c) > 1))
            miss = sorted(set(range(1, game.ncards + 1)) - set(seen))
            bad(f"route cards must each appear once (repeated: {dup}, missing: {miss})")
        # terrain cards
        down = list(TERRAIN_COUNTS)
        for t in range(NT):
            down[t] -= s.up[t] + sum(pl.count(t) for pl in s.tp) + (s.pending == t)
            if down[t] < 0:
                bad(f"more than {TERRAIN_COUNTS[t]} {TERRAIN_NAMES[t]} cards")
        s.down = down
        # phase consistency
        building = s.phase == "build"
        if building != any(h is not None for h in s.hands):
            bad("hands are held exactly during the build phase")
        for p in range(n):
            if s.hands[p] is not None and (s.route[p] or s.box[p]):
                bad(f"player {p + 1} holds a hand and a route")
            if s.hands[p] is not None and len(s.hands[p]) != game.deal:
                bad(f"player {p + 1} must hold {game.deal} cards while building")
            if s.hands[p] is None and building and len(s.box[p]) != 2:
                bad(f"player {p + 1} has built but returned {len(s.box[p])} cards")
            if s.phase in ("build", "goal") and (s.tp[p] or s.pos[p] != START):
                bad("no play before the goals are drawn")
            if s.phase not in ("build", "goal") and s.goal[p] < 0:
                bad(f"player {p + 1} has no goal")
            if s.phase not in ("build", "over") and not s.route[p]:
                bad(f"player {p + 1} has an empty route")
        goals = [g for g in s.goal if g >= 0]
        if len(set(goals)) != len(goals) or any(g not in game.deck.goals for g in goals):
            bad("goals must be distinct goal cards of the deck")
        if s.phase == "goal" and -1 not in s.goal:
            bad("every goal is drawn already")
        if s.phase != "goal" and s.phase != "build" and -1 in s.goal:
            bad("a goal is missing")
        if (s.pending >= 0) != (s.phase == "decide"):
            bad("a pending card is there exactly while its player decides")
        if (s.stopper >= 0) != (s.phase == "penalty"):
            bad("a stopper is kept only while the penalty is drawn")
        if s.phase == "penalty" and not s.pile:
            bad("no route card left to draw")
        if s.phase in ("collect", "flip", "decide") and not any(s.down) and s.phase != "decide":
            bad("collection is over once no face-down card is left")
        if s.phase not in ("collect", "flip", "decide") and (any(s.up) or any(s.tp)):
            bad("terrain cards are on the table only during collection")
        return s

    def view(self, viewer=None) -> dict:
        """What `viewer` may see, as plain data: a seat, SPECTATOR (the public
        part) or None (everything). The one filter of hidden cards: `render`,
        `to_svg` and the web app use it. Hidden: other players' hands, routes
        while building and returned cards, their pile cards not taken face
        up, a flipped card before its player decides, the route pile."""
        g = self.game
        if viewer is not None and (isinstance(viewer, bool) or not isinstance(viewer, int)
                                   or not (viewer == SPECTATOR or 0 <= viewer < g.n)):
            raise UnsupportedGameError(f"kreuzundquer: no seat {viewer!r} in a {g.n}-player game")
        seats = []
        for p in range(g.n):
            sees = viewer is None or viewer == p
            entry = {"points": self.pts[p], "aside": len(self.aside[p]),
                     "goal": TERRAINS[self.goal[p]] if self.goal[p] >= 0 else None,
                     "pos": self.pos[p], "box": list(self.box[p]) if sees else len(self.box[p]),
                     "hand": None, "route": None,
                     "pile": "".join(TERRAINS[t].upper() if pub else (TERRAINS[t] if sees else "?")
                                     for t, pub in zip(self.tp[p], self.tk[p]))}
            if self.hands[p] is not None:
                entry["hand"] = ([{"card": c, "rooms": "".join(TERRAINS[t] for t in g.deck.routes[c - 1])}
                                  for c in self.hands[p]] if sees else len(self.hands[p]))
            elif not (self.phase == "build" and not sees):
                entry["route"] = [{"card": c, "rooms": "".join(TERRAINS[t] for t in g.deck.routes[c - 1])}
                                  for c in self.route[p]]
            seats.append(entry)
        pending = None
        if self.phase == "decide":
            pending = TERRAINS[self.pending] if viewer is None or viewer == self.collector() else "?"
        history = []
        moves = self._hist
        for i, (mv, snap) in enumerate(moves):
            text = str(mv)
            if viewer is not None:
                # the player who moved (or, for a flip, who decides next)
                race, stage, tick, turn = snap[1:5]
                mover = (race + stage + tick + turn) % g.n
                if mv.kind == "build":
                    mover = next(q for q in range(g.n) if snap[5][q] is not None)
                    if mover != viewer:
                        text = "x?,?"
                elif mv.kind == "reveal" and mover != viewer and not (
                        i + 1 < len(moves) and moves[i + 1][0].kind == "leave"):
                    text = "@?"
            history.append(text)
        p = self.current_player
        return {"game": "kreuzundquer", "players": g.n, "viewer": viewer, "phase": self.phase,
                "race": self.race, "races": g.races, "stage": self.stage, "seats": seats,
                "up": "".join(TERRAINS[t] * self.up[t] for t in range(NT)),
                "down": sum(self.down), "pending": pending, "route_pile": len(self.pile),
                "log": list(self.log), "to_move": p if p >= 0 else None,
                "chance": p == CHANCE, "over": p == TERMINAL, "history": history}

    @staticmethod
    def _route_text(seat: dict) -> list:
        lines = []
        for i, card in enumerate(seat["route"]):
            rows = []
            for r in range(ROWS):
                cells = ""
                for l in range(LANES):
                    ch = card["rooms"][r * LANES + l]
                    if seat["pos"] == (i * ROWS + r) * LANES + l:
                        ch = ch.upper()
                    cells += ch
                rows.append(cells)
            lines.append(f"    #{card['card']:<3} " + " ".join(rows))
        return lines

    def render(self, viewer=None, full: bool = False) -> str:
        """A readable table. Cards `viewer` may not see are '?'; viewer=None
        is a spectator, full=True shows everything (`view()` as text). The
        pawn is the upper-case room; route cards are listed first card first,
        rows from the start."""
        v = self.view(None if full else (SPECTATOR if viewer is None else viewer))
        out = [f"Kreuz & Quer, race {min(v['race'] + 1, v['races'])}/{v['races']}, stage {v['stage'] + 1}, "
               f"phase {v['phase']}"]
        for p, seat in enumerate(v["seats"]):
            goal = TERRAIN_NAMES[TERRAINS.index(seat["goal"])] if seat["goal"] else "not drawn"
            where = {START: "before the route", GOAL: "on the goal"}.get(seat["pos"], "")
            out.append(f"player {p + 1}: {seat['points']} points, {seat['aside']} cards set aside, "
                       f"goal {goal}" + (f", pawn {where}" if where else ""))
            if seat["hand"] is not None:
                hand = seat["hand"]
                out.append("  hand: " + (",".join(str(c["card"]) for c in hand) if isinstance(hand, list)
                                         else "? " * hand))
            elif seat["route"] is None:
                out.append("  route: (hidden until everyone has built)")
            else:
                out.append("  route:")
                out.extend(self._route_text(seat))
            if seat["pile"]:
                out.append(f"  collected (first first, upper case = taken face up): {seat['pile']}")
        if v["phase"] in ("collect", "flip", "decide"):
            up = " ".join(f"{t}x{v['up'].count(t)}" for t in TERRAINS if t in v["up"]) or "none"
            out.append(f"face up: {up}; face down: {v['down']}")
            if v["phase"] == "decide":
                out.append(f"flipped: {v['pending']}")
        out.append(f"route cards in the pile: {v['route_pile']}")
        if v["log"]:
            out.append("last movement: " + "; ".join(v["log"]))
        if v["over"]:
            out.append("game over: points " + ", ".join(str(s["points"]) for s in v["seats"]))
        else:
            out.append("to move: " + ("chance" if v["chance"] else f"player {v['to_move'] + 1}"))
        return "\n".join(out)

    def to_svg(self, viewer=None, last_move: bool = True, arrows=()) -> str:
        """The table as `viewer` sees it, as SVG text (see games/svg_cards.py)."""
        from crossridor.games.svg_cards import kreuzundquer_svg
        return kreuzundquer_svg(self.view(viewer), last_move=last_move)

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def __str__(self):
        return self.render(None, full=True)

    def __repr__(self):
        return f"<kreuzundquer {self.position()}>"

    # -- search fast path
    def native_search(self, algorithm, limits, seed, options):
        if algorithm in ("greedy", "heuristic"):
            check_options(f"kreuzundquer {algorithm}", options, {})
            if self.current_player < 0:
                raise UnsupportedGameError("kreuzundquer: the heuristic player does not play chance moves")
            t0 = _time.perf_counter()
            mv = heuristic_move(self)
            dt = _time.perf_counter() - t0
            return SearchResult(move=mv, score=self.evaluate()[self.current_player], depth=1, nodes=1,
                                seconds=dt, nps=1 / dt if dt > 0 else 0.0, pv=(mv,))
        if algorithm == "ismcts":
            # game defaults for options not given: the policy of `kuq_policy` as a
            # progressive bias, leaves scored by a heuristic playout of the stage
            from crossridor.engine.algorithms import ismcts
            from crossridor.engine.algorithms.common import sim_budget
            from crossridor.games.kreuzundquer.rollout import stage_evaluator
            opts = dict(options)
            own = check_options("kreuzundquer ismcts", {k: opts.pop(k) for k in PIMC_OPTIONS if k in opts},
                                PIMC_OPTIONS, PIMC_DEFAULTS)
            stages = own["stages"]
            mine = self.current_player >= 0
            if own["build"] and self.phase == "build" and mine:
                return self._pimc(limits, seed, own["build"], 0.0, self.game.max_stages, opts, "build")
            if own["mode"] == "pimc" and self.phase in ("collect", "decide") and mine:
                samples = max(1, sim_budget("ismcts", limits) // len(self.legal_moves()))
                return self._pimc(limits, seed, samples, own["bias"], stages, opts, "mode=pimc")
            deny, take_deny = own["deny"], own["take_deny"]
            opts.setdefault("prior", _policy_prior if deny is None and take_deny is None else
                            (lambda st: _policy_prior(st, deny, take_deny)))
            opts.setdefault("prior_weight", ISMCTS_PRIOR_WEIGHT)
            if "rollout" not in opts and "evaluator" not in opts:
                opts["evaluator"] = stage_evaluator if stages == 1 else \
                    (lambda st: stage_evaluator(st, max_stages=stages))
            if (own["trees"] > 1 or own["anchor"] > 0) and mine:
                from crossridor.games.kreuzundquer.roots import ensemble_search
                prior = opts["prior"]
                return ensemble_search(self, limits, seed, own["trees"], own["anchor"],
                                       prior(self) if prior is not None else None, opts)
            return ismcts.search(self, limits, seed=seed, **opts)
        return NotImplemented

    def _pimc(self, limits, seed, samples, bias, stages, rest, why):
        """`kuq_pimc.pimc_move` with `samples` determinizations (fewer if the
        time limit or a stop comes first)."""
        from crossridor.engine.algorithms.common import deadline_of, now
        from crossridor.engine.stop import stopped
        from crossridor.games.kreuzundquer.pimc import pimc_move
        if rest:
            raise UnsupportedGameError(f"kreuzundquer ismcts: {why} takes the options sims, nodes, "
                                       f"time, bias, stages and build, not {', '.join(sorted(rest))}")
        deadline = deadline_of(limits, now())

        def stop():
            return stopped() or (deadline is not None and now() >= deadline)
        return pimc_move(self, samples, bias, stages, seed, now, stop)


# ----------------------------------------------------------------------------- heuristic player

ISMCTS_PRIOR_WEIGHT = 5.0
# ismcts mode: "tree" (ISMCTS with the policy prior and stage leaves) or
# "pimc" (collection moves by `kuq_pimc`, the rest by the tree); stages: how
# many stages each playout plays (1: to the end of the current stage, scored
# by the outlook; a race rarely lasts more than 3, so 20 plays it out); build:
# N > 0 judges each build by N playouts of the whole race (`kuq_pimc`); deny,
# take_deny: the prior's `kuq_policy.DENY` (below its DEAD), `TAKE_DENY`; trees: K independent trees
# share the budget, root visits summed; anchor: the policy's move stays unless
# the chosen one's mean beats it by more than this (`games.kuq_roots`)
PIMC_OPTIONS = {"mode": ("tree", "pimc"), "bias": (float, 0.0, 10.0), "stages": (int, 1, 200),
                "build": (int, 0, 100_000), "deny": (float, 0.0, 2.99), "take_deny": (float, 0.0, 2.99),
                "trees": (int, 1, 64), "anchor": (float, 0.0, 2.0)}
PIMC_DEFAULTS = {"mode": "tree", "bias": 0.0, "stages": 1, "build": 0, "deny": None, "take_deny": None,
                 "trees": 1, "anchor": 0.0}


def _policy_prior(state, deny=None, take_deny=None):
    from crossridor.games.kreuzundquer.policy import policy_move
    return policy_move(state, deny, take_deny)       # the heuristic player's build


def heuristic_move(state: KState) -> Move:
    """A sensible player using only what it may see:
    build: keep the route whose likeliest straight path is likeliest
    (`kuq_paths.route_ease`); collect: stop once the pile reaches the goal,
    else take the face-up card that takes the pawn farthest, else flip;
    decide: keep a flipped card only if it takes the pawn farther."""
    p = state.current_player
    g = state.game
    if state.phase == "build":
        best, best_v = None, None
        for mv in state.legal_moves():
            kept = tuple(c for c in state.hands[p] if c not in mv.arg)
            v = route_ease(g.track(kept, 0)) - route_ease(g.track((), 0))
            if best_v is None or v > best_v:
                best, best_v = mv, v
        return best
    tr = state.track(p)
    pile = state.tp[p]
    if state.phase == "decide":
        ext = extensions(tr, state.pos[p], pile)
        return KEEP if state.pending in ext else LEAVE
    w = walk(tr, state.pos[p], pile)
    if w.goal_step is not None:
        return STOP
    ext = extensions(tr, state.pos[p], pile)
    cands = [t for t in ext if state.up[t]]
    if cands:
        t = max(cands, key=lambda t: (rank(tr, ext[t]), -TERRAIN_COUNTS[t]))
        return Move("take", t)
    if any(state.down):
        return FLIP
    return STOP
