"""Alpha-beta search over the game protocol (imports no game).

Negamax with iterative deepening, principal-variation search, a
transposition table and move ordering (TT move, two killers per ply, history
heuristic). Chance nodes are searched by expectimax.

Scores are from the point of view of the player to move at the root:

* a position at the horizon scores ``100 * evaluate()[root]`` (centi-units of
  the game's return; 0 if the state has no ``evaluate``),
* a finished game scores ``100 * returns()[root]``, except that in a game
  without chance a win (the game's ``max_return``) scores ``WIN - ply`` and a
  loss (``min_return``) ``-(WIN - ply)``, so faster wins and slower losses are
  preferred ("win in n"). In games with chance, terminal scores stay plain
  centi-returns so that expectations over outcomes stay meaningful.

More than two players (or teams): *paranoid* search. The root player (and
their team mates) maximise the root player's return; every other player is
assumed to minimise it. In a two-player zero-sum game this is ordinary
negamax. Non-zero-sum two-player games are searched the same way (max-min of
the root player's return).

Depth counts decision plies; a chance event does not use up depth (a chance
node at the horizon is still expanded, so the horizon is always at a
decision node). Nodes counts every position visited (root, inner, chance,
leaves); the limit is never exceeded. When a limit stops an iteration, the
result is that of the last finished iteration (or the first legal move with
score 0 and depth 0 when none finished). Time is checked every 32 nodes.

The transposition table is a dict keyed by ``state.key()`` (a hashable of
the full position); states without ``key`` are searched without one. Its
entries are used for a cut-off only when they were searched to exactly the
remaining depth, or when their subtree was solved (no horizon inside) to at
most that depth; so a fixed-depth search returns the same value with or
without the table, and a search stops early once the whole tree is solved.

MultiPV (``multipv=N``): every depth searches the root N times, each time
with a full window and without the root moves already found, so each line's
score is the exact value of its move at that depth (what the single best
move's search gives it). A restricted root (a line after the first, or
``searchmoves``) is not stored in the table: the root position may recur
deeper in the tree, where it must stand for all its moves. The lines are
those of the last depth whose N searches all finished. ``searchmoves``
restricts the root moves of every search; with multipv=1 and no searchmoves
the search is the plain one.

Options: `OPTIONS` (hash in MB, evaluator, on_iteration, multipv,
searchmoves). The table holds ``hash`` MB at ``ENTRY_BYTES`` a position;
when it is full new positions are not stored (existing entries are still
updated).
"""

from __future__ import annotations

from crossridor.engine.algorithms.common import EVALUATOR, check_root, evaluator_for, move_list, now, traits_of
from crossridor.engine.errors import CrossridorError, UnsupportedGameError
from crossridor.engine.options import CALLABLE_OR_NONE, ROOT_OPTIONS, Param
from crossridor.engine.protocol import CHANCE, TERMINAL, GameTraits, Limits, Line, SearchResult
from crossridor.engine.stop import stopped

__all__ = ["search", "check_game", "OPTIONS", "WIN", "MAX_DEPTH"]

WIN = 1_000_000.0
MAX_PLY = 10_000
MATE_BAND = WIN - MAX_PLY        # |score| >= MATE_BAND: a win/loss in n plies
MAX_DEPTH = 100                  # iterative deepening stops here without a depth limit
INF = float("inf")
EPS = 1e-6                       # null-window width (scores are floats)
CHECK_MASK = 31                  # check the clock every 32 nodes

EXACT, LOWER, UPPER = 0, 1, 2

ENTRY_BYTES = 256                # one table entry in CPython (a dict slot, its key and value: ~200-250 B)
MAX_HASH_MB = 65536

OPTIONS = (
    Param("hash", (int, 0, MAX_HASH_MB), 256, "transposition table size in MB (0: no table)", budget=True),
    EVALUATOR,
    Param("on_iteration", CALLABLE_OR_NONE, None, "f(SearchResult) after every finished depth",
          python_only=True),
    *ROOT_OPTIONS,
)


class _Abort(Exception):
    pass


def check_game(traits: GameTraits) -> None:
    if traits.hidden_information:
        raise UnsupportedGameError(
            f"alphabeta cannot search {traits.name!r}: it has hidden information (use ismcts)")
    if traits.num_players < 1:
        raise UnsupportedGameError(f"alphabeta cannot search {traits.name!r}: no players")


def search(state, limits: Limits, seed: int | None = None, **opts) -> SearchResult:
    """Best move for the player to move; `seed` is accepted and unused
    (alpha-beta is deterministic). `opts`: every option of `OPTIONS`,
    checked (`search_api.search` completes them with their defaults)."""
    traits = traits_of(state)
    check_game(traits)
    if limits.depth is None and limits.nodes is None and limits.time is None:
        raise CrossridorError("alphabeta: limits need depth, nodes or time (sims is for MCTS)")
    root = check_root("alphabeta", state)
    return _Searcher(state.clone(), root, traits, limits, opts).run()


class _Searcher:
    def __init__(self, state, root, traits, limits, opts):
        self.state = state
        self.root = root
        self.limits = limits
        n = traits.num_players
        team = {root}
        for t in traits.teams:
            if root in t:
                team.update(t)
        self.sign = [1 if p in team else -1 for p in range(n)]
        self.mate_scoring = not traits.chance
        self.maxr = traits.max_return
        self.minr = traits.min_return
        self.evalf = evaluator_for(state, opts["evaluator"])
        self.on_iteration = opts["on_iteration"]
        self.tt_size = opts["hash"] * 1024 * 1024 // ENTRY_BYTES
        use_tt = self.tt_size > 0 and callable(getattr(state, "key", None))
        self.tt = {} if use_tt else None
        self.killers: dict[int, list] = {}
        self.history: dict = {}
        self.pv: dict[int, tuple] = {}
        self.nodes = 0
        self.horizon = 0
        self.node_limit = limits.nodes if limits.nodes is not None else 1 << 62
        self.deadline = None
        self.root_best = None
        self.multipv = opts["multipv"]
        self.searchmoves = opts["searchmoves"]
        self.root_allowed = None      # the root moves of the current search (None: all)

    # --- values (root player's point of view unless said otherwise) ---------

    def _terminal(self, ply):
        r = self.state.returns()[self.root]
        if self.mate_scoring:
            if r >= self.maxr:
                return WIN - ply
            if r <= self.minr:
                return ply - WIN
        return 100.0 * r

    def _evaluate(self):
        if self.evalf is None:
            return 0.0
        v = self.evalf(self.state)[self.root]
        if not self.minr <= v <= self.maxr:   # NaN too: an evaluation never claims a forced win
            if v != v:
                raise CrossridorError("alphabeta: the evaluation returned NaN")
            v = self.maxr if v > self.maxr else self.minr
        return 100.0 * v

    # --- the search -------------------------------------------------------------

    def _node(self, depth, alpha, beta, ply):
        """Value of the current state from the point of view of the side to
        move there (+1 root side, -1 the others; terminal and chance nodes are
        valued from the root side's point of view)."""
        if self.nodes >= self.node_limit:
            raise _Abort
        self.nodes += 1
        if not (self.nodes & CHECK_MASK) and (stopped() or (self.deadline is not None and now() >= self.deadline)):
            raise _Abort
        pv = self.pv
        pv[ply] = ()
        st = self.state
        p = st.current_player
        if p == TERMINAL:
            return self._terminal(ply)
        if p != CHANCE and depth <= 0:
            self.horizon += 1
            return self.sign[p] * self._evaluate()

        tt = self.tt
        key = entry = tt_move = None
        if tt is not None:
            key = st.key()
            entry = tt.get(key)
            if entry is not None:
                edepth, flag, v, tt_move, solved = entry
                if ply and (edepth == depth or (solved and edepth <= depth)):
                    if v >= MATE_BAND:
                        v -= ply
                    elif v <= -MATE_BAND:
                        v += ply
                    if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
                        if not solved:
                            self.horizon += 1
                        if flag == EXACT and tt_move is not None:
                            pv[ply] = (tt_move,)
                        return v
        h0 = self.horizon
        sign_of = self.sign

        if p == CHANCE:
            total = 0.0
            for move, prob in st.chance_outcomes():
                st.play(move)
                cp = st.current_player
                v = self._node(depth, -INF, INF, ply + 1)
                st.undo()
                if cp >= 0 and sign_of[cp] < 0:
                    v = -v
                total += prob * v
            pv[ply] = ()
            if tt is not None:
                self._store(key, entry, depth, EXACT, total, None, ply, h0)
            return total

        sign = sign_of[p]
        moves = move_list(st)
        restricted = ply == 0 and self.root_allowed is not None
        if restricted:
            moves = [m for m in moves if m in self.root_allowed]
            tt_move = self.root_best
        elif ply == 0 and tt_move is None:
            tt_move = self.root_best
        moves = self._order(moves, tt_move, ply)
        alpha0 = alpha
        best = -INF
        best_move = None
        first = True
        node = self._node
        for m in moves:
            st.play(m)
            cp = st.current_player
            same = (sign_of[cp] == sign) if cp >= 0 else (sign == 1)
            d1 = depth - 1
            if first:
                v = node(d1, alpha, beta, ply + 1) if same else -node(d1, -beta, -alpha, ply + 1)
                first = False
            else:
                v = node(d1, alpha, alpha + EPS, ply + 1) if same else -node(d1, -alpha - EPS, -alpha, ply + 1)
                if alpha < v < beta and cp >= 0 and d1 > 0:
                    # leaves and chance nodes (searched with a full window)
                    # return exact values: no re-search
                    v = node(d1, alpha, beta, ply + 1) if same else -node(d1, -beta, -alpha, ply + 1)
            st.undo()
            if v > best:
                best = v
                best_move = m
                if v > alpha:
                    alpha = v
                    pv[ply] = (m,) + pv.get(ply + 1, ())
                    if v >= beta:
                        self._cutoff(m, depth, ply)
                        break
        if tt is not None and not restricted:
            flag = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
            self._store(key, entry, depth, flag, best, best_move, ply, h0)
        return best

    def _store(self, key, entry, depth, flag, v, move, ply, h0):
        if entry is None and len(self.tt) >= self.tt_size:
            return
        if v >= MATE_BAND:
            v += ply
        elif v <= -MATE_BAND:
            v -= ply
        self.tt[key] = (depth, flag, v, move, self.horizon == h0)

    def _cutoff(self, move, depth, ply):
        k = self.killers.get(ply)
        if k is None:
            self.killers[ply] = [move, None]
        elif k[0] != move:
            k[1] = k[0]
            k[0] = move
        self.history[move] = self.history.get(move, 0) + depth * depth

    def _order(self, moves, tt_move, ply):
        if len(moves) < 2:
            return moves
        hist = self.history
        if hist:
            moves = sorted(moves, key=lambda m: -hist.get(m, 0))
        front = []
        killers = self.killers.get(ply, ())
        for m in (tt_move, *killers):
            if m is not None and m not in front and m in moves:
                front.append(m)
        if front:
            moves = front + [m for m in moves if m not in front]
        return moves

    def _pv_line(self, line, depth):
        """The PV of an iteration, extended from the TT where a TT cut-off
        truncated it."""
        line = list(line)
        if self.tt is None or len(line) >= depth:
            return tuple(line)
        st = self.state
        played = 0
        try:
            for m in line:
                st.play(m)
                played += 1
            seen = set()
            while len(line) < depth and st.current_player >= 0:
                key = st.key()
                entry = self.tt.get(key)
                if entry is None or entry[3] is None or key in seen or entry[3] not in move_list(st):
                    break
                seen.add(key)
                line.append(entry[3])
                st.play(entry[3])
                played += 1
        finally:
            for _ in range(played):
                st.undo()
        return tuple(line)

    def _iteration(self, depth: int, root_moves: list, n_lines: int,
                   prev: tuple[Line, ...]) -> tuple[Line, ...]:
        """The lines of one depth: `n_lines` root searches, each without the
        moves found before it (the first one unrestricted unless
        searchmoves is given), best first."""
        lines: list[Line] = []
        found: list = []
        for k in range(n_lines):
            if k == 0 and self.searchmoves is None:
                self.root_allowed = None
            else:
                self.root_allowed = [m for m in root_moves if m not in found]
            # the previous depth's order first
            self.root_best = next((line.move for line in prev if line.move not in found), None)
            v = self._node(depth, -INF, INF, 0)
            line = self.pv.get(0, ())
            found.append(line[0])
            lines.append(Line(line[0], float(v), depth, self._pv_line(line, depth)))
        self.root_allowed = None
        if len(lines) > 1:
            lines.sort(key=lambda line: -line.score)   # stable; guards the order against rounding
        return tuple(lines)

    def run(self) -> SearchResult:
        limits = self.limits
        start = now()
        if limits.time is not None:
            self.deadline = start + limits.time
        max_depth = limits.depth if limits.depth is not None else MAX_DEPTH
        root_moves = move_list(self.state) if self.searchmoves is None else list(self.searchmoves)
        n_lines = min(self.multipv, len(root_moves))
        lines: tuple[Line, ...] = ()
        done, solved = 0, False
        for d in range(1, max_depth + 1):
            self.horizon = 0
            try:
                lines = self._iteration(d, root_moves, n_lines, lines)
            except _Abort:
                break
            done = d
            self.root_best = lines[0].move
            if self.on_iteration is not None:
                seconds = now() - start
                best = lines[0]
                self.on_iteration(SearchResult(best.move, best.score, d, self.nodes, seconds,
                                               self.nodes / seconds if seconds > 0 else 0.0, best.pv,
                                               lines=lines))
            if self.horizon == 0:
                solved = True
                break
            if self.deadline is not None and now() - start > 0.5 * limits.time:
                break   # the next iteration would not finish
        if done:
            best_move, score, pv = lines[0].move, lines[0].score, lines[0].pv
        else:
            best_move, score, pv = root_moves[0], 0.0, ()   # no iteration finished
        seconds = now() - start
        return SearchResult(
            move=best_move, score=float(score), depth=done, nodes=self.nodes, seconds=seconds,
            nps=self.nodes / seconds if seconds > 0 else 0.0, pv=pv, lines=lines if done else (),
            extra={"solved": solved, "tt_entries": 0 if self.tt is None else len(self.tt)})
