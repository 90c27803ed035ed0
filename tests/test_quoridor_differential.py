"""The compiled core against the reference rules on thousands of positions.

Seeded random playouts, biased so that the rules' corners come up often:
pawns walk toward the nearest other pawn (jumps, diagonals, pawns behind
pawns), walls go next to pawns (diagonals blocked by walls, walls behind
pawns), some games pour in walls until the path rule bites, and later in a
game pawns head for their goal so that games end (wins, no moves after a win).
After every move the core and the reference must agree on the legal move
set, pawns, walls left, player to move and winner; at the end the game is
undone move by move back to the start and compared again at every step.
"""

from __future__ import annotations

import random

import pytest

import crossridor
from quoridor_reference import PASS, RefQuoridor, parse_square

# (size, players, walls per player or None, games, seed)
CONFIGS = [
    (9, 2, None, 12, 101),
    (9, 2, 20, 6, 102),      # more walls than usual: long, crowded games
    (9, 4, None, 6, 103),
    (7, 2, None, 14, 104),
    (7, 4, None, 10, 105),
    (5, 2, None, 60, 106),
    (5, 4, None, 50, 107),
    (5, 4, 2, 60, 108),
    (3, 2, None, 150, 109),
    (3, 4, 1, 300, 110),     # 3x3 four players: boxed pawns and passes
    (3, 4, 2, 240, 111),
]
MAX_PLIES = 160


def core_snapshot(state) -> tuple:
    legal = frozenset(str(m) for m in state.legal_moves())
    terminal = state.is_terminal()
    return (legal, tuple(state.pawns), tuple(state.walls_left),
            None if terminal else state.current_player, terminal, state.winner)


def ref_snapshot(ref: RefQuoridor) -> tuple:
    terminal = ref.is_terminal()
    return (frozenset(ref.legal_moves()), tuple(ref.pawns), tuple(ref.walls_left),
            None if terminal else ref.current_player, terminal, ref.winner)


def near_pawn(ref: RefQuoridor, wall: str) -> bool:
    """A wall whose four touched squares are next to (or hold) some pawn."""
    c, r = parse_square(wall[:-1])
    return any(c - 1 <= pc <= c + 2 and r - 1 <= pr <= r + 2 for pc, pr in ref._pawns)


def choose(ref: RefQuoridor, legal: set[str], rng: random.Random, wall_mode: float) -> str:
    if legal == {PASS}:
        return PASS
    moves = sorted(legal)
    walls = [m for m in moves if m[-1] in "hv"]
    steps = [m for m in moves if m[-1] not in "hv"]
    me = ref.current_player
    if walls and rng.random() < wall_mode:
        close = [w for w in walls if near_pawn(ref, w)]
        return rng.choice(close if close and rng.random() < 0.85 else walls)
    if not steps:
        return rng.choice(moves)
    x = rng.random()
    goal_bias = min(0.85, ref.ply / 120)
    if x < goal_bias:
        # toward the goal: the landing square with the shortest path
        def dist(m):
            path = ref.shortest_path(me, start=parse_square(m))
            return len(path) if path is not None else 999
        best = min(dist(m) for m in steps)
        return rng.choice([m for m in steps if dist(m) == best])
    if x < goal_bias + 0.7 * (1 - goal_bias):
        # toward the nearest other pawn
        others = [sq for i, sq in enumerate(ref._pawns) if i != me]

        def near(m):
            c, r = parse_square(m)
            return min(abs(c - oc) + abs(r - orow) for oc, orow in others)
        best = min(near(m) for m in steps)
        return rng.choice([m for m in steps if near(m) == best])
    return rng.choice(moves)


def run_game(game, size, players, walls, rng, wall_mode) -> tuple[int, bool]:
    """One playout; returns the number of positions compared and whether the
    game ended in a win."""
    state = game.new_state()
    ref = RefQuoridor(size, players, walls)
    history = [ref_snapshot(ref)]
    keys = [ref.key()]
    assert core_snapshot(state) == history[0]
    played = []
    won = False
    while not ref.is_terminal() and ref.ply < MAX_PLIES:
        move = choose(ref, set(history[-1][0]), rng, wall_mode)
        ref.play(move)
        if rng.random() < 0.5:
            state.play(move)
        else:   # play the core's own Move object
            state.play(next(m for m in state.legal_moves() if str(m) == move))
        played.append(move)
        snap = ref_snapshot(ref)
        got = core_snapshot(state)
        assert got == snap, diff_message(size, players, walls, played, got, snap)
        history.append(snap)
        keys.append(ref.key())
        won = won or ref.is_terminal()
        if rng.random() < 0.05:
            clone = state.clone()
            assert core_snapshot(clone) == snap, "clone differs: " + " ".join(played)
            if not clone.is_terminal():
                clone.play(next(iter(clone.legal_moves())))
                assert core_snapshot(state) == snap, "playing on a clone changed the original"
    # back to the start, one move at a time
    for i in range(len(played) - 1, -1, -1):
        state.undo()
        ref.undo()
        assert ref.key() == keys[i]
        got = core_snapshot(state)
        assert got == history[i], "after undo: " + diff_message(size, players, walls, played[:i],
                                                                got, history[i])
    with pytest.raises(IndexError):
        state.undo()
    return len(history) * 2 - 1, won


def diff_message(size, players, walls, played, got, want) -> str:
    fields = ["legal", "pawns", "walls_left", "current_player", "terminal", "winner"]
    parts = [f"{size}x{size} {players}p walls={walls} after: {' '.join(played) or '(start)'}"]
    for name, g, w in zip(fields, got, want):
        if g != w:
            if name == "legal":
                parts.append(f"core-only={sorted(g - w)} reference-only={sorted(w - g)}")
            else:
                parts.append(f"{name}: core={g} reference={w}")
    return "; ".join(parts)


@pytest.mark.parametrize("size,players,walls,games,seed", CONFIGS,
                         ids=[f"{s}x{s}-{p}p-w{w}-s{seed}" for s, p, w, _, seed in CONFIGS])
def test_core_matches_reference(size, players, walls, games, seed):
    rng = random.Random(seed)
    game = crossridor.load_game("quoridor", size=size, players=players, walls=walls)
    compared = wins = 0
    for g in range(games):
        # every third game pours in walls (the path rule bites), the others
        # mix walls and pawn moves
        wall_mode = 0.85 if g % 3 == 2 else 0.3
        n, won = run_game(game, size, players, walls, rng, wall_mode)
        compared += n
        wins += won
    # the playouts must really exercise the rules: long games, most ending in a win
    assert compared > games * 10
    assert wins >= games // 2
