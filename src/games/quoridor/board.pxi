# Quoridor rules on bitboards: the position, move generation, wall legality,
# make/unmake, Zobrist hashing and perft (the hot loops, no Python objects).
# The Python class QuoridorCore is in quoridor/api.pxi.
#
# Squares: bit s = row * 9 + col of a u128 (row 0 is row 1 of the notation,
# player 1's side), whatever the board size, so that every shift is a
# constant. Wall anchors (the groove intersections): bit a = row * 8 + col of
# a u64, for col, row < M = N - 1; anchor (col, row) is the
# intersection at the top-right corner of square (col, row), so `e3h`
# (col 4, row 2) lies between rows 3 and 4 over columns e and f.
#
# Pawn moves are kept as four "may step" masks, one per direction: bit s of
# can_n is set when the pawn on s may step north (on the board, no wall).
# Placing a wall clears two bits in two of the masks, unmaking sets them
# back (walls never share an edge, so no counts are needed).
#
# Move encoding (an int, 9 bits):
#   bits 0-6  square index (a pawn move: the landing square) or anchor index
#   bits 7-8  kind: 0 pawn move, 1 horizontal wall, 2 vertical wall, 3 pass

cdef enum:
    Q_STEP = 0
    Q_HWALL = 1 << 7
    Q_VWALL = 2 << 7
    Q_PASS = 3 << 7
    Q_KIND = 3 << 7
    Q_INDEX = 127
    Q_MAX_MOVES = 192      # 128 walls + at most 12 pawn targets, with room to spare
    Q_MAX_PLAYERS = 4
    Q_MAX_SQ = 81
    Q_MAX_ANCHORS = 64
    Q_WALL_KEYS = 128      # walls-left values with distinct Zobrist keys
    Q_NO_PATH = 1000       # goal distance of a pawn walled off from its goal side
    Q_FLOOD_LAYERS = 82    # layers a goal flood may fill: one more than the squares
    SQ = 9                 # square stride: bit = row * SQ + col
    AS = 8                 # anchor stride: bit = row * AS + col

ctypedef struct QGeom:
    int w, h               # columns and rows (2 players: any 2..9 x 3..9; 4 players: odd squares)
    int mw, mh             # anchor columns and rows (w - 1, h - 1)
    int nsq, nplayers
    u128 board
    u128 goal[4]
    int start[4]
    uint64_t anchors, acol0, acol_last, arow0, arow_last
    u128 h_n[64]           # squares whose north step a horizontal wall at anchor a blocks
    u128 h_s[64]
    u128 v_e[64]           # squares whose east step a vertical wall at anchor a blocks
    u128 v_w[64]
    u128 init_n, init_s, init_e, init_w

ctypedef struct QPos:
    u128 can_n, can_s, can_e, can_w
    uint64_t hw, vw        # anchors holding a horizontal / vertical wall
    uint64_t hash
    int pawn[4]
    int walls_left[4]
    int to_move
    int winner             # -1 while the game goes on
    int ply
    const QGeom* g
    # A cached path per player (the squares it leaves north/south/east/west),
    # valid when bit i of walk_ok is set. It may be longer than the shortest
    # path: it only has to exist. Walls that cut no edge of a player's walk
    # cannot take that player's path away.
    u128 walk[4][4]
    int walk_ok

ctypedef struct QUndo:
    int move
    int from_sq
    int winner
    int walk_ok
    uint64_t hash
    u128 walk[4]           # the mover's walk before a pawn move


# Geometries: two players on every board 2..9 wide and 3..9 high, four
# players on the odd squares.
cdef QGeom Q_GEOMS2[8][7]
cdef QGeom Q_GEOMS4[4]
cdef uint64_t Z_PAWN[4][81]
cdef uint64_t Z_HWALL[64]
cdef uint64_t Z_VWALL[64]
cdef uint64_t Z_TURN[4]
cdef uint64_t Z_WALLS[4][128]


cdef void q_init_geom(QGeom* g, int w, int h, int nplayers) noexcept nogil:
    cdef int r, c, a, mw = w - 1, mh = h - 1
    memset(g, 0, sizeof(QGeom))
    g.w = w
    g.h = h
    g.mw = mw
    g.mh = mh
    g.nsq = w * h
    g.nplayers = nplayers
    cdef u128 row0 = 0, row_last = 0, col0 = 0, col_last = 0
    for r in range(h):
        for c in range(w):
            g.board |= bb_bit(r * SQ + c)
    for c in range(w):
        row0 |= bb_bit(c)
        row_last |= bb_bit((h - 1) * SQ + c)
    for r in range(h):
        col0 |= bb_bit(r * SQ)
        col_last |= bb_bit(r * SQ + w - 1)
    g.init_n = g.board & ~row_last
    g.init_s = g.board & ~row0
    g.init_e = g.board & ~col_last
    g.init_w = g.board & ~col0
    # the middle file; on even widths the right one of the two middle files
    # for both pawns (the same file: the convention the published table of
    # solved boards fixes, docs/rules/quoridor.md)
    cdef int mid = w // 2
    if nplayers == 2:
        g.start[0] = mid                   # e1
        g.start[1] = (h - 1) * SQ + mid    # e9
        g.goal[0] = row_last
        g.goal[1] = row0
    else:
        g.start[0] = mid                   # e1 -> row N
        g.start[1] = mid * SQ              # a5 -> column N
        g.start[2] = (h - 1) * SQ + mid    # e9 -> row 1
        g.start[3] = mid * SQ + w - 1      # i5 -> column a
        g.goal[0] = row_last
        g.goal[1] = col_last
        g.goal[2] = row0
        g.goal[3] = col0
    for r in range(mh):
        for c in range(mw):
            a = r * AS + c
            g.anchors |= (<uint64_t>1) << a
            if c == 0:
                g.acol0 |= (<uint64_t>1) << a
            if c == mw - 1:
                g.acol_last |= (<uint64_t>1) << a
            if r == 0:
                g.arow0 |= (<uint64_t>1) << a
            if r == mh - 1:
                g.arow_last |= (<uint64_t>1) << a
            g.h_n[a] = bb_bit(r * SQ + c) | bb_bit(r * SQ + c + 1)
            g.h_s[a] = bb_bit((r + 1) * SQ + c) | bb_bit((r + 1) * SQ + c + 1)
            g.v_e[a] = bb_bit(r * SQ + c) | bb_bit((r + 1) * SQ + c)
            g.v_w[a] = bb_bit(r * SQ + c + 1) | bb_bit((r + 1) * SQ + c + 1)


cdef void q_init_tables() noexcept nogil:
    cdef uint64_t seed = 0x51C0D0C0FFEEULL
    cdef int i, j
    for i in range(4):
        for j in range(81):
            Z_PAWN[i][j] = splitmix64(&seed)
        for j in range(128):
            Z_WALLS[i][j] = splitmix64(&seed)
        Z_TURN[i] = splitmix64(&seed)
    for j in range(64):
        Z_HWALL[j] = splitmix64(&seed)
        Z_VWALL[j] = splitmix64(&seed)
    for i in range(8):
        for j in range(7):
            q_init_geom(&Q_GEOMS2[i][j], i + 2, j + 3, 2)
    for i in range(4):
        q_init_geom(&Q_GEOMS4[i], 2 * i + 3, 2 * i + 3, 4)

q_init_tables()


cdef inline const QGeom* q_geom(int w, int h, int nplayers) noexcept nogil:
    """The geometry of a board the caller has checked (q_board_error)."""
    if nplayers == 2:
        return &Q_GEOMS2[w - 2][h - 3]
    return &Q_GEOMS4[(w - 3) // 2]


def q_board_error(int w, int h, int nplayers):
    """Why a board cannot be played, or None: two players on any board 2
    to 9 columns wide and 3 to 9 rows high, four on the odd squares 3 to 9."""
    if nplayers == 2:
        if not (2 <= w <= 9 and 3 <= h <= 9):
            return f"a two-player board is 2 to 9 columns wide and 3 to 9 rows high, got {w}x{h}"
    elif nplayers == 4:
        if not (w == h and w in (3, 5, 7, 9)):
            return f"a four-player board is square and odd (3, 5, 7 or 9), got {w}x{h}"
    else:
        return f"players must be 2 or 4, got {nplayers}"
    return None


cdef inline int q_walls_key(int w) noexcept nogil:
    return w if w < Q_WALL_KEYS else Q_WALL_KEYS - 1


cdef void q_reset(QPos* p, const QGeom* g, int walls) noexcept nogil:
    cdef int i
    memset(p, 0, sizeof(QPos))
    p.g = g
    p.can_n = g.init_n
    p.can_s = g.init_s
    p.can_e = g.init_e
    p.can_w = g.init_w
    p.winner = -1
    p.hash = Z_TURN[0]
    for i in range(g.nplayers):
        p.pawn[i] = g.start[i]
        p.walls_left[i] = walls
        p.hash ^= Z_PAWN[i][g.start[i]] ^ Z_WALLS[i][q_walls_key(walls)]


cdef inline u128 q_step(const QPos* p, u128 x) noexcept nogil:
    """Every square one legal pawn step from a square of x (walls only)."""
    return ((x & p.can_n) << SQ) | ((x & p.can_s) >> SQ) | ((x & p.can_e) << 1) | ((x & p.can_w) >> 1)


cdef inline u128 q_occupied(const QPos* p) noexcept nogil:
    cdef u128 occ = 0
    cdef int i
    for i in range(p.g.nplayers):
        occ |= bb_bit(p.pawn[i])
    return occ


cdef u128 q_pawn_targets(const QPos* p, int player) noexcept nogil:
    """The squares the pawn of `player` may move to: steps, straight jumps,
    and diagonal jumps when the straight one is blocked (wall, edge or pawn)."""
    cdef u128 me = bb_bit(p.pawn[player])
    cdef u128 occ = q_occupied(p)
    cdef u128 empty = p.g.board & ~occ
    cdef u128 out = 0, q, behind
    # north
    if me & p.can_n:
        q = me << SQ
        if q & empty:
            out |= q
        else:
            behind = (q & p.can_n) << SQ
            if behind & empty:
                out |= behind
            else:   # a wall, the edge or a pawn behind: the diagonals
                out |= (((q & p.can_e) << 1) | ((q & p.can_w) >> 1)) & empty
    if me & p.can_s:
        q = me >> SQ
        if q & empty:
            out |= q
        else:
            behind = (q & p.can_s) >> SQ
            if behind & empty:
                out |= behind
            else:
                out |= (((q & p.can_e) << 1) | ((q & p.can_w) >> 1)) & empty
    if me & p.can_e:
        q = me << 1
        if q & empty:
            out |= q
        else:
            behind = (q & p.can_e) << 1
            if behind & empty:
                out |= behind
            else:
                out |= (((q & p.can_n) << SQ) | ((q & p.can_s) >> SQ)) & empty
    if me & p.can_w:
        q = me >> 1
        if q & empty:
            out |= q
        else:
            behind = (q & p.can_w) >> 1
            if behind & empty:
                out |= behind
            else:
                out |= (((q & p.can_n) << SQ) | ((q & p.can_s) >> SQ)) & empty
    return out


cdef inline bint q_reaches(const QPos* p, u128 can_n, u128 can_s, u128 can_e, u128 can_w,
                           int sq, u128 goal) noexcept nogil:
    """Flood fill from sq with the given step masks: does it reach goal?"""
    cdef u128 reach = bb_bit(sq), nxt
    while True:
        if reach & goal:
            return True
        nxt = reach | ((reach & can_n) << SQ) | ((reach & can_s) >> SQ) \
                    | ((reach & can_e) << 1) | ((reach & can_w) >> 1)
        if nxt == reach:
            return False
        reach = nxt


cdef inline int q_flood_on(const QPos* p, u128 reach, int d, u128 target) noexcept nogil:
    """A goal flood grown on from `reach` (the squares at most d steps from
    the goal side) until it meets target: its distance, or Q_NO_PATH."""
    cdef u128 nxt
    while not (reach & target):
        nxt = reach | q_step(p, reach)
        d += 1
        if nxt == reach:
            return Q_NO_PATH
        reach = nxt
    return d


cdef inline int q_goal_flood(const QPos* p, int player, u128 target, u128* within) noexcept nogil:
    """The one breadth-first search of a player's goal distances: a flood
    from the goal side of `player` over the open steps (walls only, pawns
    ignored). Returns the steps from the goal side to the nearest square of
    `target`, or Q_NO_PATH when the flood stops growing first (target 0:
    flood the whole region). With `within` (Q_FLOOD_LAYERS entries; NULL for
    the distance alone), within[k] = the squares at most k steps from the
    goal side, for k up to the returned distance; without a path, up to the
    first k with within[k] == within[k - 1] (the end of the region). Each
    step adds a square, so k stays below Q_FLOOD_LAYERS."""
    cdef u128 reach = p.g.goal[player], nxt
    cdef int d = 0
    if within == NULL:
        return q_flood_on(p, reach, 0, target)
    within[0] = reach
    while not (reach & target):
        nxt = reach | q_step(p, reach)
        d += 1
        within[d] = nxt
        if nxt == reach:
            return Q_NO_PATH
        reach = nxt
    return d


cdef int q_distance(const QPos* p, int player) noexcept nogil:
    """Shortest path length (pawns ignored) from the pawn of player to its
    goal side; Q_NO_PATH when there is none (cannot happen in a legal position)."""
    return q_goal_flood(p, player, bb_bit(p.pawn[player]), NULL)


cdef void q_path_edges(const QPos* p, int player, u128* path) noexcept nogil:
    """One shortest path of player, as the squares it leaves northwards,
    southwards, eastwards and westwards (path[0..3])."""
    cdef u128 layers[Q_FLOOD_LAYERS]
    cdef u128 cur = bb_bit(p.pawn[player]), nb
    cdef int d = q_goal_flood(p, player, cur, layers), k
    path[0] = path[1] = path[2] = path[3] = 0
    if d == Q_NO_PATH:
        return
    # walk down the layers: from a square at distance k, step to one at k-1
    for k in range(d, 0, -1):
        nb = layers[k - 1]
        if (cur & p.can_n) and ((cur << SQ) & nb):
            path[0] |= cur
            cur = cur << SQ
        elif (cur & p.can_s) and ((cur >> SQ) & nb):
            path[1] |= cur
            cur = cur >> SQ
        elif (cur & p.can_e) and ((cur << 1) & nb):
            path[2] |= cur
            cur = cur << 1
        else:
            path[3] |= cur
            cur = cur >> 1


cdef inline uint64_t q_wall_points(const QGeom* g, uint64_t hw, uint64_t vw) noexcept nogil:
    """Interior groove points touched by a wall (each wall touches 3)."""
    return (hw | ((hw << 1) & ~g.acol0) | ((hw >> 1) & ~g.acol_last)
            | vw | (vw << AS) | (vw >> AS)) & g.anchors


cdef inline uint64_t q_two_of_three(uint64_t a, uint64_t b, uint64_t c) noexcept nogil:
    return (a & b) | (a & c) | (b & c)


cdef inline uint64_t q_point_flood(uint64_t seed, uint64_t hseg, uint64_t vseg) noexcept nogil:
    """The groove points linked to seed by walls (hseg: p -- p+1, vseg: p -- p+AS)."""
    cdef uint64_t reach = seed, nxt
    while True:
        nxt = reach | ((reach & hseg) << 1) | ((reach >> 1) & hseg) \
                    | ((reach & vseg) << AS) | ((reach >> AS) & vseg)
        if nxt == reach:
            return reach
        reach = nxt


cdef void q_risky_walls(const QGeom* g, uint64_t hw, uint64_t vw, uint64_t av_h, uint64_t av_v,
                        uint64_t* risky_h, uint64_t* risky_v) noexcept nogil:
    """The free wall slots that close a loop of barriers: two of their three
    points touch one connected barrier (the board edge with the walls linked
    to it, or one floating cluster of walls). Only these can take a path
    away (Euler: a wall touching at most one point of each barrier adds no
    face to the plane graph of barriers, so no region is split)."""
    cdef uint64_t hseg = ((hw & ~g.acol0) >> 1) | (hw & ~g.acol_last)
    cdef uint64_t vseg = ((vw & ~g.arow0) >> AS) | (vw & ~g.arow_last)
    cdef uint64_t pts = q_wall_points(g, hw, vw)
    cdef uint64_t comp = q_point_flood((hw & (g.acol0 | g.acol_last)) | (vw & (g.arow0 | g.arow_last)),
                                       hseg, vseg)
    # the edge component: the board's border counts as touched
    cdef uint64_t rh = q_two_of_three(((comp << 1) & ~g.acol0) | g.acol0, comp,
                                      ((comp >> 1) & ~g.acol_last) | g.acol_last)
    cdef uint64_t rv = q_two_of_three(((comp << AS) & g.anchors) | g.arow0, comp,
                                      (comp >> AS) | g.arow_last)
    cdef uint64_t rest = pts & ~comp
    while rest:
        comp = q_point_flood(rest & (~rest + 1), hseg, vseg)
        rest &= ~comp
        rh |= q_two_of_three((comp << 1) & ~g.acol0, comp, (comp >> 1) & ~g.acol_last)
        rv |= q_two_of_three((comp << AS) & g.anchors, comp, comp >> AS)
    risky_h[0] = av_h & rh
    risky_v[0] = av_v & rv


cdef bint q_wall_keeps_paths(QPos* p, int horizontal, int a) noexcept nogil:
    """Does a loop-closing free wall slot leave every pawn a path? A player
    whose cached walk the wall does not cut keeps one; for the others, one
    flood fill from the pawn with the wall in place."""
    cdef const QGeom* g = p.g
    cdef u128 cn = p.can_n, cs = p.can_s, ce = p.can_e, cw = p.can_w, cut
    cdef int i
    if horizontal:
        cn &= ~g.h_n[a]
        cs &= ~g.h_s[a]
    else:
        ce &= ~g.v_e[a]
        cw &= ~g.v_w[a]
    for i in range(g.nplayers):
        if not (p.walk_ok >> i) & 1:
            q_path_edges(p, i, p.walk[i])
            p.walk_ok |= 1 << i
        if horizontal:
            cut = (p.walk[i][0] & g.h_n[a]) | (p.walk[i][1] & g.h_s[a])
        else:
            cut = (p.walk[i][2] & g.v_e[a]) | (p.walk[i][3] & g.v_w[a])
        if cut and not q_reaches(p, cn, cs, ce, cw, p.pawn[i], g.goal[i]):
            return False
    return True


cdef inline bint q_may_cut(const QGeom* g, uint64_t hw, uint64_t vw) noexcept nogil:
    """May a free wall slot take a path away? Not on an empty board at least
    3 wide: one wall, two squares long, cannot cut it (on a board 2 wide a
    horizontal wall spans the whole width)."""
    return hw != 0 or vw != 0 or g.w < 3


cdef inline void q_free_slots(const QGeom* g, uint64_t hw, uint64_t vw, uint64_t* av_h, uint64_t* av_v) noexcept nogil:
    """Wall slots, as anchor sets, neither overlapping nor crossing a placed
    wall (the legal walls before the path rule)."""
    av_h[0] = g.anchors & ~(hw | ((hw << 1) & ~g.acol0) | ((hw >> 1) & ~g.acol_last) | vw)
    av_v[0] = g.anchors & ~(vw | (vw << AS) | (vw >> AS) | hw)


cdef void q_legal_walls(QPos* p, uint64_t* out_h, uint64_t* out_v) noexcept nogil:
    """The legal walls of the player to move, as anchor sets: free slots (no
    overlap, no crossing) minus the loop-closing ones that take a pawn's
    last path away."""
    cdef const QGeom* g = p.g
    cdef uint64_t hw = p.hw, vw = p.vw
    if p.walls_left[p.to_move] <= 0:
        out_h[0] = 0
        out_v[0] = 0
        return
    cdef uint64_t av_h, av_v
    q_free_slots(g, hw, vw, &av_h, &av_v)
    out_h[0] = av_h
    out_v[0] = av_v
    if not q_may_cut(g, hw, vw):
        return
    cdef uint64_t risky_h, risky_v, bits
    cdef int a
    q_risky_walls(g, hw, vw, av_h, av_v, &risky_h, &risky_v)
    bits = risky_h
    while bits:
        a = u64_lsb(bits)
        bits &= bits - 1
        if not q_wall_keeps_paths(p, 1, a):
            out_h[0] &= ~((<uint64_t>1) << a)
    bits = risky_v
    while bits:
        a = u64_lsb(bits)
        bits &= bits - 1
        if not q_wall_keeps_paths(p, 0, a):
            out_v[0] &= ~((<uint64_t>1) << a)


cdef int q_gen_moves(QPos* p, int* out) noexcept nogil:
    """Fill out (Q_MAX_MOVES ints) with the legal moves; return their count.
    Pawn moves first, then horizontal, then vertical walls; a lone pass when
    nothing else is legal; none once the game is won."""
    if p.winner >= 0:
        return 0
    cdef int k = 0, s, i
    # Children reuse the walks (make keeps them up to date), so make sure
    # every walk is there before the moves are tried.
    for i in range(p.g.nplayers):
        if not (p.walk_ok >> i) & 1:
            q_path_edges(p, i, p.walk[i])
            p.walk_ok |= 1 << i
    cdef u128 t = q_pawn_targets(p, p.to_move)
    while t:
        s = bb_lsb(t)
        t &= t - 1
        out[k] = Q_STEP | s
        k += 1
    cdef uint64_t h, v
    q_legal_walls(p, &h, &v)
    while h:
        out[k] = Q_HWALL | u64_lsb(h)
        h &= h - 1
        k += 1
    while v:
        out[k] = Q_VWALL | u64_lsb(v)
        v &= v - 1
        k += 1
    if k == 0:
        out[0] = Q_PASS
        k = 1
    return k


cdef int q_count_moves(QPos* p) noexcept nogil:
    """len(legal moves), without generating them (perft's last ply)."""
    if p.winner >= 0:
        return 0
    cdef uint64_t h, v
    q_legal_walls(p, &h, &v)
    cdef int k = bb_popcount(q_pawn_targets(p, p.to_move)) + u64_popcount(h) + u64_popcount(v)
    return k if k else 1


cdef inline void q_walk_add(u128* walk, int a, int b) noexcept nogil:
    """Add the step from square a to the adjacent square b to a walk."""
    if b == a + SQ:
        walk[0] |= bb_bit(a)
    elif b == a - SQ:
        walk[1] |= bb_bit(a)
    elif b == a + 1:
        walk[2] |= bb_bit(a)
    else:
        walk[3] |= bb_bit(a)


cdef inline void q_walk_extend(QPos* p, int me, int sq) noexcept nogil:
    """The pawn of `me` moves to sq: its walk becomes sq -> old square ->
    old walk. A jump goes back through the jumped square (both steps are
    open, or the jump would not have been legal)."""
    cdef int old = p.pawn[me], d = sq - old, mid
    if d == SQ or d == -SQ or d == 1 or d == -1:
        q_walk_add(p.walk[me], sq, old)
    elif d == 2 * SQ or d == -2 * SQ or d == 2 or d == -2:
        mid = old + d // 2
        q_walk_add(p.walk[me], sq, mid)
        q_walk_add(p.walk[me], mid, old)
    else:
        # diagonal: the jumped pawn is beside old and beside sq
        mid = q_diag_mid(p, old, sq)
        q_walk_add(p.walk[me], sq, mid)
        q_walk_add(p.walk[me], mid, old)


cdef inline bint q_open(const QPos* p, int a, int b) noexcept nogil:
    """Is the step between adjacent squares a and b free of walls?"""
    cdef int d = b - a
    if d == SQ:
        return (p.can_n & bb_bit(a)) != 0
    if d == -SQ:
        return (p.can_s & bb_bit(a)) != 0
    if d == 1:
        return (p.can_e & bb_bit(a)) != 0
    return (p.can_w & bb_bit(a)) != 0


cdef inline int q_diag_mid(const QPos* p, int old, int sq) noexcept nogil:
    """The jumped square of a diagonal jump old -> sq: one of the two squares
    beside both, holding a pawn, with both steps open."""
    cdef int a = (old // SQ) * SQ + sq % SQ    # same row as old, column of sq
    cdef int b = (sq // SQ) * SQ + old % SQ    # same column as old, row of sq
    cdef int i
    for i in range(p.g.nplayers):
        if p.pawn[i] == a and q_open(p, old, a) and q_open(p, a, sq):
            return a
    return b


cdef void q_make(QPos* p, int mv, QUndo* u) noexcept nogil:
    cdef int me = p.to_move, a, sq, wl
    cdef const QGeom* g = p.g
    u.move = mv
    u.from_sq = p.pawn[me]
    u.winner = p.winner
    u.hash = p.hash
    u.walk_ok = p.walk_ok
    cdef int kind = mv & Q_KIND, i
    if kind == Q_STEP:
        sq = mv & Q_INDEX
        if (p.walk_ok >> me) & 1:
            memcpy(u.walk, p.walk[me], sizeof(u.walk))
            q_walk_extend(p, me, sq)
        p.hash ^= Z_PAWN[me][p.pawn[me]] ^ Z_PAWN[me][sq]
        p.pawn[me] = sq
        if g.goal[me] & bb_bit(sq):
            p.winner = me
    elif kind != Q_PASS:
        a = mv & Q_INDEX
        wl = p.walls_left[me]
        p.hash ^= Z_WALLS[me][q_walls_key(wl)] ^ Z_WALLS[me][q_walls_key(wl - 1)]
        p.walls_left[me] = wl - 1
        if kind == Q_HWALL:
            p.hw |= (<uint64_t>1) << a
            p.can_n &= ~g.h_n[a]
            p.can_s &= ~g.h_s[a]
            p.hash ^= Z_HWALL[a]
            for i in range(g.nplayers):
                if (p.walk[i][0] & g.h_n[a]) or (p.walk[i][1] & g.h_s[a]):
                    p.walk_ok &= ~(1 << i)
        else:
            p.vw |= (<uint64_t>1) << a
            p.can_e &= ~g.v_e[a]
            p.can_w &= ~g.v_w[a]
            p.hash ^= Z_VWALL[a]
            for i in range(g.nplayers):
                if (p.walk[i][2] & g.v_e[a]) or (p.walk[i][3] & g.v_w[a]):
                    p.walk_ok &= ~(1 << i)
    cdef int nxt = me + 1
    if nxt == g.nplayers:
        nxt = 0
    p.hash ^= Z_TURN[me] ^ Z_TURN[nxt]
    p.to_move = nxt
    p.ply += 1


cdef void q_unmake(QPos* p, const QUndo* u) noexcept nogil:
    cdef const QGeom* g = p.g
    cdef int me = p.to_move - 1, a
    if me < 0:
        me = g.nplayers - 1
    p.to_move = me
    p.ply -= 1
    p.hash = u.hash
    p.winner = u.winner
    p.walk_ok = u.walk_ok
    cdef int kind = u.move & Q_KIND
    if kind == Q_STEP:
        p.pawn[me] = u.from_sq
        if (u.walk_ok >> me) & 1:
            memcpy(p.walk[me], u.walk, sizeof(u.walk))
    elif kind != Q_PASS:
        a = u.move & Q_INDEX
        p.walls_left[me] += 1
        if kind == Q_HWALL:
            p.hw &= ~((<uint64_t>1) << a)
            p.can_n |= g.h_n[a]
            p.can_s |= g.h_s[a]
        else:
            p.vw &= ~((<uint64_t>1) << a)
            p.can_e |= g.v_e[a]
            p.can_w |= g.v_w[a]


# ---------------------------------------------------------------- perft

ctypedef struct PerftEntry:
    uint64_t key
    uint64_t count

ctypedef struct PerftTable:
    PerftEntry* slots
    uint64_t mask

cdef uint64_t Z_DEPTH[64]
cdef uint64_t _zd_seed = 0xD1B54A32D192ED03ULL
for _i in range(64):
    Z_DEPTH[_i] = splitmix64(&_zd_seed)


cdef uint64_t q_perft(QPos* p, int depth, PerftTable* tt, volatile int* stop) noexcept nogil:
    """Leaves at depth; the last ply is counted in bulk, without making it.
    With a table, subtree counts are cached by (position, depth). Returns 0
    (a wrong count: the caller checks the flag) once `stop` is set."""
    if depth == 0:
        return 1
    if depth == 1:
        return q_count_moves(p)
    if stop[0]:
        return 0
    cdef uint64_t key = 0
    cdef PerftEntry* e = NULL
    if tt != NULL:
        key = p.hash ^ Z_DEPTH[depth & 63]
        e = &tt.slots[key & tt.mask]
        if e.key == key:
            return e.count
    cdef int moves[Q_MAX_MOVES]
    cdef int k = q_gen_moves(p, moves), i
    cdef uint64_t total = 0
    cdef QUndo u
    if p.winner >= 0:
        return 0
    for i in range(k):
        q_make(p, moves[i], &u)
        total += q_perft(p, depth - 1, tt, stop)
        q_unmake(p, &u)
    if e != NULL and not stop[0]:
        e.key = key
        e.count = total
    return total
