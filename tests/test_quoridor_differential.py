"""The compiled core against the reference rules on thousands of positions.

Seeded random playouts, biased so that the rules' corners come up often:
pawns walk toward the nearest other pawn (jumps, diagonals, pawns behind
pawns), walls go next to pawns (diagonals blocked by walls, walls behind
pawns), some games pour in walls until the path rule bites, and later in a
game pawns head for their goal so that games end (wins, no moves after a win).
After every move the core and the reference must agree on the legal move
set, pawns, walls left, player to move, winner and position string, and the
core set up from the reference's position string must agree too; at the end
the game is undone move by move back to the start and compared again at
every step.

Besides the square boards of CONFIGS, every two-player board of 2..9 columns
by 3..9 rows (BOARDS) plays a few shorter games with two wall counts taken in
turn from 0, 1, 3 and 10 (on a board two columns wide a horizontal wall spans
it, so even one wall can cut a path on an empty board).
"""

from __future__ import annotations

import random

import pytest

import crossridor
from quoridor_reference import PASS, RefQuoridor, board_name, parse_square

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

# every two-player board (width, height), twice: walls per player taken in turn from
# BOARD_WALLS, so that each board gets one of 1 and 3 and one of 0 and 10; 3 games of
# at most 60 plies each
BOARD_WALLS = (0, 1, 3, 10)
BOARDS = [(w, h, BOARD_WALLS[(i + k) % len(BOARD_WALLS)])
          for i, (w, h) in enumerate((w, h) for w in range(2, 10) for h in range(3, 10))
          for k in (0, 2)]
BOARD_GAMES, BOARD_MAX_PLIES = 3, 60


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


def choose(ref: RefQuoridor, legal: set[str], rng: random.Random, wall_mode: float,
           max_plies: int = MAX_PLIES) -> str:
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
    goal_bias = min(0.85, ref.ply / (0.75 * max_plies))     # pawns race home as the limit nears
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


def check_position(game, state, ref: RefQuoridor, snap: tuple, played: list[str]) -> None:
    """The core writes the reference's position string, and reads it back
    into the same position."""
    text = ref.position()
    assert state.position() == text, " ".join(played)
    again = game.state_from_position(text)
    assert core_snapshot(again) == snap, "read back from " + text
    assert again.position() == text


def run_game(game, size, players, walls, rng, wall_mode, max_plies=MAX_PLIES) -> tuple[int, bool, int]:
    """One playout; returns the number of positions compared, whether the
    game ended in a win and the number of walls placed."""
    state = game.new_state()
    ref = RefQuoridor(size, players, walls)
    history = [ref_snapshot(ref)]
    keys = [ref.key()]
    assert core_snapshot(state) == history[0]
    check_position(game, state, ref, history[0], [])
    played = []
    won = False
    while not ref.is_terminal() and ref.ply < max_plies:
        move = choose(ref, set(history[-1][0]), rng, wall_mode, max_plies)
        ref.play(move)
        if rng.random() < 0.5:
            state.play(move)
        else:   # play the core's own Move object
            state.play(next(m for m in state.legal_moves() if str(m) == move))
        played.append(move)
        snap = ref_snapshot(ref)
        got = core_snapshot(state)
        assert got == snap, diff_message(ref, walls, played, got, snap)
        check_position(game, state, ref, snap, played)
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
        assert got == history[i], "after undo: " + diff_message(ref, walls, played[:i], got, history[i])
    with pytest.raises(IndexError):
        state.undo()
    return len(history) * 2 - 1, won, sum(m[-1] in "hv" for m in played)


def diff_message(ref: RefQuoridor, walls, played, got, want) -> str:
    fields = ["legal", "pawns", "walls_left", "current_player", "terminal", "winner"]
    parts = [f"{ref.width}x{ref.height} {ref.players}p walls={walls} after: {' '.join(played) or '(start)'}"]
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
        n, won, _ = run_game(game, size, players, walls, rng, wall_mode)
        compared += n
        wins += won
    # the playouts must really exercise the rules: long games, most ending in a win
    assert compared > games * 10
    assert wins >= games // 2


@pytest.mark.parametrize("width,height,walls", BOARDS, ids=[f"{w}x{h}-w{n}" for w, h, n in BOARDS])
def test_every_board_matches_reference(width, height, walls):
    size = board_name(width, height)
    rng = random.Random(1000 + 100 * width + 10 * height + walls)
    game = crossridor.load_game("quoridor", size=size, walls=walls)
    assert (game.width, game.height) == (width, height)
    placed = wins = 0
    for g in range(BOARD_GAMES):
        # the last game pours in walls
        wall_mode = 0.85 if g == BOARD_GAMES - 1 else 0.3
        _, won, n = run_game(game, size, 2, walls, rng, wall_mode, BOARD_MAX_PLIES)
        wins += won
        placed += n
    # the games end, and walls in hand are played
    assert wins >= 1
    assert placed > 0 or walls == 0
