"""Checking a solution (`crossridor solve --verify`): the solver's moves are
played as a strategy for one side, and the other side tries everything.

- A win: the winner's strategy (always a fastest winning move) against
  every reply (`exhaustive`), or against our players' moves from seeded
  games (`sampled`), must win in at most the claimed plies.
- A draw: each side's strategy (always a drawing move) must never lose:
  exhaustively, the positions it can reach form a closed set that holds no
  lost position; sampled, no game lost within `max_plies`.

The game's own move generator gives the replies; the check trusts the
solver for nothing but the strategy's moves.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from crossridor.engine import stop as _stop
from crossridor.engine.protocol import Limits
from crossridor.engine.search_api import search

# Boards of at most this many squares are checked exhaustively (every reply):
# well under a second on each of them (2x3 to 2x7, 3x3 to 3x5, 4x3, 5x3) at
# any wall count; the next, 4x4 and up, can take minutes.
EXHAUSTIVE_SQUARES = 15
# The players a sampled check plays against: (name, algorithm, limits).
OPPONENTS = (("alphabeta", "alphabeta", Limits(depth=4)),
             ("mcts", "mcts", Limits(sims=400)),
             ("random", "random", Limits(sims=1)))


@dataclass
class Verification:
    """What a check did: `ok` (no counter-example), `mode` exhaustive or
    sampled, `positions` visited (exhaustive) or `games` played (sampled),
    and the first failure, as the moves from the solved position."""

    ok: bool
    mode: str
    positions: int = 0
    games: int = 0
    failure: str | None = None

    def to_json(self) -> dict:
        return {"ok": self.ok, "mode": self.mode, "positions": self.positions, "games": self.games,
                "failure": self.failure}


def verify(solver, state, result, games: int = 20, seed: int = 0,
           stop: _stop.Stop | None = None) -> Verification:
    """Check a SolveResult of `state`: exhaustively on boards of at most
    EXHAUSTIVE_SQUARES squares, else `games` seeded games per opponent (and
    per side for a draw). Raises engine.stop.Interrupted when stopped: a
    partial check is no check."""
    winner = None if result.winner is None else result.winner - 1
    with _stop.scope(stop) as token:
        if state.game.width * state.game.height <= EXHAUSTIVE_SQUARES:
            out = exhaustive(solver, state, winner, result.plies)
        else:
            out = sampled(solver, state, winner, result.plies, games, seed)
        if token.is_set():
            raise _stop.Interrupted("verification stopped")
    return out


def exhaustive(solver, state, winner: int | None, plies: int | None) -> Verification:
    """Every reply of the other side; winner is a seat from 0 or None."""
    if winner is not None:
        assert plies is not None        # a win comes with its length
        return _prove_win(solver, state, winner, plies)
    out = Verification(True, "exhaustive")
    for side in (0, 1):
        part = _prove_hold(solver, state, side)
        out.positions += part.positions
        if not part.ok:
            return Verification(False, "exhaustive", out.positions, 0, part.failure)
    return out


def _prove_win(solver, state, winner: int, plies: int) -> Verification:
    proven: dict[int, int] = {}      # position hash -> fewest plies it was proven to win in
    line: list[str] = []

    def wins(st, budget: int) -> bool:
        core = st.core
        if core.winner >= 0:
            return core.winner == winner
        if budget <= 0 or _stop.stopped():
            return False
        if proven.get(core.hash, budget + 1) <= budget:
            return True
        moves = [solver.best_move(st)] if core.to_move == winner else st.legal_moves()
        for move in moves:
            line.append(str(move))
            st.play(move)
            ok = wins(st, budget - 1)
            st.undo()
            if not ok:
                return False
            line.pop()
        proven[core.hash] = budget
        return True

    ok = wins(state.clone(), plies)
    return Verification(ok, "exhaustive", len(proven), 0, None if ok else " ".join(line) or "-")


def _prove_hold(solver, state, side: int) -> Verification:
    """`side` playing drawing moves never reaches a lost position: a search
    of every position reachable with the other side's every reply."""
    seen: set = set()
    todo: list[tuple] = [(state.clone(), [])]
    while todo:
        st, line = todo.pop()
        core = st.core
        if core.winner >= 0:
            if core.winner != side:
                return Verification(False, "exhaustive", len(seen), 0, " ".join(line))
            continue
        if core.hash in seen or _stop.stopped():
            continue
        seen.add(core.hash)
        moves = [solver.best_move(st)] if core.to_move == side else st.legal_moves()
        for move in moves:
            child = st.clone()
            child.play(move)
            todo.append((child, line + [str(move)]))
    return Verification(True, "exhaustive", len(seen))


def sampled(solver, state, winner: int | None, plies: int | None, games: int, seed: int,
            max_plies: int = 200) -> Verification:
    """`games` seeded games against each of OPPONENTS (their first reply is
    a seeded random move, so a deterministic search still meets many
    lines). A draw is checked for both sides, each game up to max_plies."""
    rng = random.Random(seed)
    sides = [winner] if winner is not None else [0, 1]
    out = Verification(True, "sampled")
    for side in sides:
        for name, algorithm, limits in OPPONENTS:
            for _ in range(games):
                game_seed = rng.randrange(2 ** 31)
                failure = _play(solver, state, side, winner is not None, plies if winner is not None
                                else max_plies, algorithm, limits, game_seed)
                out.games += 1
                if failure is not None:
                    return Verification(False, "sampled", 0, out.games, f"against {name} "
                                        f"(seed {game_seed}): {failure}")
    return out


def _play(solver, state, side, must_win, budget, algorithm, limits, seed) -> str | None:
    """One game: None when the strategy held, else what went wrong."""
    st = state.clone()
    rng = random.Random(seed)
    line = []
    first_reply = True
    for _ in range(budget):
        core = st.core
        if core.winner >= 0 or _stop.stopped():
            break
        if core.to_move == side:
            move = solver.best_move(st)
        elif first_reply:
            move = rng.choice(st.legal_moves())
            first_reply = False
        else:
            move = search(st, algorithm, limits, seed=seed).move
        st.play(move)
        line.append(str(move))
    won = st.core.winner == side
    if must_win and not won:
        return f"not won in {budget} plies: {' '.join(line)}"
    if st.core.winner >= 0 and not won:
        return f"lost: {' '.join(line)}"
    return None
