# Quoridor observation tensors for learning agents, filled in C.
#
# Layout (documented for users in src/games/quoridor/learning.py): float32
# planes [C, H, W] (H rows, W columns), C = 4 * P + 2, seen from `me`'s side
# of the board.
#   0 .. P-1        pawn of seat (me + i) % P, one-hot
#   P, P+1          horizontal / vertical walls, one-hot at their anchor
#                   (anchor (c, r) at plane cell [r, c]; row H-1 / column W-1 empty)
#   P+2 .. 2P+1     walls in hand of seat (me + i) % P / walls per player
#   2P+2 .. 3P+1    1 everywhere on the plane of the seat to move (relative)
#   3P+2 .. 4P+1    distance field of seat (me + i) % P: steps from each
#                   square to its goal side (walls only, pawns ignored) / (W * H);
#                   1 for a square walled off from the goal
# Canonical frame: the board is turned by t = me * 4 / P quarter turns
# counterclockwise, (c, r) -> (N-1-r, c) per turn, so that `me` always moves
# towards the last row; a quarter turn also swaps horizontal and vertical walls.
# Two players turn by 0 or 2 quarter turns (any board); odd t only happens
# with four players, whose boards are square.

cdef inline void q_rot(int w, int h, int t, int c, int r, int* oc, int* orow) noexcept nogil:
    """(c, r) on a grid of w columns and h rows, turned t quarter turns."""
    if t == 0:
        oc[0] = c; orow[0] = r
    elif t == 1:
        oc[0] = h - 1 - r; orow[0] = c
    elif t == 2:
        oc[0] = w - 1 - c; orow[0] = h - 1 - r
    else:
        oc[0] = r; orow[0] = w - 1 - c


cdef void q_fill_observation(const QPos* p, int me, int walls_total, float* out) noexcept nogil:
    """One observation of `me` into out[C * H * W] (layout above)."""
    cdef const QGeom* g = p.g
    cdef int w = g.w, h = g.h, P = g.nplayers, nn = w * h
    cdef int t = me * 4 // P
    cdef int i, j, q, c, r, oc, orow, a, d, plane
    cdef float wt = walls_total if walls_total > 0 else 1
    cdef u128 within[Q_FLOOD_LAYERS]
    cdef u128 bits
    cdef int is_v
    memset(out, 0, (4 * P + 2) * nn * sizeof(float))
    for i in range(P):
        q = (me + i) % P
        c = p.pawn[q] % SQ
        r = p.pawn[q] // SQ
        q_rot(w, h, t, c, r, &oc, &orow)
        out[i * nn + orow * w + oc] = 1
        for j in range(nn):
            out[(P + 2 + i) * nn + j] = p.walls_left[q] / wt
        # distance field: flood from the goal side, layer by layer
        plane = (3 * P + 2 + i) * nn
        for j in range(nn):
            out[plane + j] = 1
        q_goal_flood(p, q, 0, within)
        d = 0
        while d == 0 or within[d] != within[d - 1]:
            bits = within[d] & ~(within[d - 1] if d > 0 else <u128>0)
            while bits:
                a = bb_lsb(bits)
                bits &= bits - 1
                q_rot(w, h, t, a % SQ, a // SQ, &oc, &orow)
                out[plane + orow * w + oc] = d / <float>nn
            d += 1
    i = (p.to_move - me + P) % P
    for j in range(nn):
        out[(2 * P + 2 + i) * nn + j] = 1
    for r in range(g.mh):
        for c in range(g.mw):
            a = r * AS + c
            if not ((p.hw | p.vw) >> a) & 1:
                continue
            q_rot(g.mw, g.mh, t, c, r, &oc, &orow)
            # a quarter turn (odd t) turns a horizontal wall into a vertical one
            is_v = ((p.hw >> a) & 1) == 0
            plane = P + (is_v ^ (t & 1))
            out[plane * nn + orow * w + oc] = 1


def q_observation_batch(cores, players, float[:, :, :, ::1] out):
    """Fill out[k] with the observation of players[k] (None: the player to
    move) in cores[k]. All cores must share the board, players and walls."""
    cdef Py_ssize_t k, count = len(cores)
    cdef QuoridorCore core
    if count == 0:
        return
    core = cores[0]
    cdef int w = core.width, h = core.height, P = core.players, walls = core.walls
    if out.shape[0] < count or out.shape[1] != 4 * P + 2 or out.shape[2] != h or out.shape[3] != w:
        raise ValueError(f"out must have shape ({count}, {4 * P + 2}, {h}, {w}) or more rows, "
                         f"got ({out.shape[0]}, {out.shape[1]}, {out.shape[2]}, {out.shape[3]})")
    cdef const QPos** pos = <const QPos**>malloc(count * sizeof(QPos*))
    cdef int* me = <int*>malloc(count * sizeof(int))
    if pos == NULL or me == NULL:
        free(pos); free(me)
        raise MemoryError()
    try:
        for k in range(count):
            core = cores[k]
            if core.width != w or core.height != h or core.players != P or core.walls != walls:
                raise ValueError("all states of a batch must come from one game")
            pos[k] = &core.pos
            pl = core.pos.to_move if players is None else players[k]
            if not 0 <= pl < P:
                raise ValueError(f"player must be 0..{P - 1}, got {pl!r}")
            me[k] = pl
        with nogil:
            for k in range(count):
                q_fill_observation(pos[k], me[k], walls, &out[k, 0, 0, 0])
    finally:
        free(pos)
        free(me)
