"""Kreuz & Quer: the state of a game and its rules (moves, chance, the
stage and race flow as docs/rules/kreuzundquer.md and `game` describe),
evaluation and hidden information (`sample_determinization`)."""

from __future__ import annotations

from itertools import combinations

from crossridor.engine.errors import IllegalMoveError
from crossridor.engine.protocol import CHANCE, TERMINAL, applied
from crossridor.games.kreuzundquer.deck import NT, ROOMS, ROWS, TERRAIN_COUNTS, TERRAIN_NAMES, TERRAINS
from crossridor.games.kreuzundquer.moves import FLIP, KEEP, LEAVE, STOP, Move
from crossridor.games.kreuzundquer.paths import GOAL, START, Track, extensions, step, walk
from crossridor.games.kreuzundquer.position import PHASES, PositionText
from crossridor.games.kreuzundquer.scoring import game_returns, outlook_values
from crossridor.games.kreuzundquer.search import native_search
from crossridor.games.kreuzundquer.table import TableView
from crossridor.games.learning import LearningState

__all__ = ["KState", "PHASES"]


class KState(PositionText, TableView, LearningState):
    """A position of a game (`game.KreuzUndQuer`): the rules (moves, chance,
    the stage and race flow), evaluation and hidden information; the position
    string is `position.PositionText`'s, the table `table.TableView`'s."""

    def __init__(self, game):
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
        if self.phase != "over":
            return [0.0] * self.game.n
        return game_returns(self.pts)

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

    def chance_round(self) -> tuple:
        """Which shuffle the draw at this chance node comes from, for a
        player that deals each once (the web app): the terrain cards go back
        face down at every stage, a flip draws from the stage's shuffle; the
        goal cards and the route pile are never refilled."""
        return (self.race, self.stage) if self.phase == "flip" else ()

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
                best: float | None = None
                for pair in combinations(hand, 2):
                    kept = tuple(c for c in hand if c not in pair)
                    c = self.game.track(kept, 0).cost_to_goal(START)
                    best = c if best is None or c < best else best
                assert best is not None     # a hand holds at least two cards
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

    def pile_text(self, p: int, seen: bool = True) -> str:
        """Player p's collected terrain cards in order, upper case for a card
        taken face up (public); unless `seen`, the others are "?"."""
        return "".join(TERRAINS[t].upper() if pub else (TERRAINS[t] if seen else "?")
                       for t, pub in zip(self.tp[p], self.tk[p]))

    def stage_unstarted(self) -> bool:
        """A collection nobody has played in yet (a stage's first position)."""
        return (self.phase == "collect" and self.tick == 0 and self.turn == 0
                and not any(self.up) and not any(self.tp))

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
            pile = self.pile_text(q, mine)
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
        # from a canonical order: the deal depends on what `player` knows, never on where the
        # unseen cards really are (the same seed, the same deal in states it cannot tell apart)
        rpool.sort()
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

    def __str__(self):
        return self.render(None, full=True)

    def __repr__(self):
        return f"<kreuzundquer {self.position()}>"

    def native_search(self, algorithm, limits, seed, options, plan):
        return native_search(self, algorithm, limits, seed, options, plan)
