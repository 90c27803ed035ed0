# Quoridor's evaluation: the one score every player of the engine uses.
# Alpha-beta (q_eval in quoridor/search.pxi) and greedy (alpha-beta to depth
# 1) use the score in centi-steps; the MCTS leaf (quoridor/mcts.pxi) and
# Python (QuoridorState.evaluate, through QuoridorCore.values) use the same
# score squashed into per-player values in (-1, 1).
#
# The score of a player is the difference of shortest-path lengths, the
# walls in hand, and the tempo; a pure race (no walls left, 2 players) is
# scored as decided. Four players: the player against the rest (paranoid),
# that is against the opponent nearest to the goal and a third of the
# others' walls.

from libc.math cimport tanh

cdef enum:
    S_STEP = 100            # one step of path length
    S_WALL = 100            # one wall in hand (measured: 100 beats 35 and 150)
    S_TEMPO = 40            # having the move
    S_LONE_WALL = 100       # extra per wall against a player with none (depth 4, 40 games: 26-14)
    S_RACE = 2500           # both out of walls: the race is (almost) decided
    S_VALUE_SCALE = 400     # values: tanh(score / 400), four steps ahead ~ 0.76

# the classic evaluation's weights that are search options, by option name:
# crossridor.games.quoridor.search_options declares them with these defaults
Q_CLASSIC_EVAL_WEIGHTS = {"wall_value": S_WALL, "tempo": S_TEMPO, "lone_wall_value": S_LONE_WALL}


cdef inline void q_distances(const QPos* p, int* dist) noexcept nogil:
    cdef int i
    for i in range(p.g.nplayers):
        dist[i] = q_distance(p, i)


cdef int q_score(const QPos* p, const int* dist, int me, int w_wall, int w_tempo,
                 int w_lone) noexcept nogil:
    """Static score of player `me` in centi-steps (dist: every player's
    shortest-path length). Weights: a wall in hand, the tempo, and the extra
    per wall when the other (2 players) has none left."""
    cdef int np = p.g.nplayers, i, d, best_other = 1000, v
    cdef int walls_other = 0
    if np == 2:
        v = S_STEP * (dist[1 - me] - dist[me]) + w_wall * (p.walls_left[me] - p.walls_left[1 - me])
        # walls against a player who has none left are worth more: no counter-walls
        if p.walls_left[me] == 0:
            v -= w_lone * p.walls_left[1 - me]
        elif p.walls_left[1 - me] == 0:
            v += w_lone * p.walls_left[me]
        if p.walls_left[0] == 0 and p.walls_left[1] == 0:
            # a pure race: whoever needs fewer moves, counting the tempo, wins
            d = dist[me] - dist[1 - me]
            if p.to_move != me:
                d -= 1
            v += S_RACE if d <= 0 else -S_RACE
    else:
        for i in range(np):
            if i != me:
                if dist[i] < best_other:
                    best_other = dist[i]
                walls_other += p.walls_left[i]
        v = S_STEP * (best_other - dist[me]) + w_wall * (3 * p.walls_left[me] - walls_other) // 3
    return v + w_tempo if p.to_move == me else v - w_tempo


cdef void q_values(const QPos* p, int w_wall, int w_tempo, int w_lone, double* out) noexcept nogil:
    """Per-player value in (-1, 1) of a non-terminal position: each player's
    q_score squashed, less the mean (zero-sum)."""
    cdef int np = p.g.nplayers, i
    cdef int dist[4]
    cdef double mean = 0.0
    q_distances(p, dist)
    if np == 2:
        out[0] = tanh(q_score(p, dist, 0, w_wall, w_tempo, w_lone) / <double>S_VALUE_SCALE)
        out[1] = -out[0]
        return
    for i in range(np):
        out[i] = tanh(q_score(p, dist, i, w_wall, w_tempo, w_lone) / <double>S_VALUE_SCALE)
        mean += out[i]
    mean /= np
    for i in range(np):
        out[i] -= mean
