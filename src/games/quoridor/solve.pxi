# The exact solver of two-player Quoridor on small boards: retrograde
# analysis, one wall configuration at a time, one level of placed walls at a
# time.
#
# Walls only ever increase, so the wall configurations (the placed walls and
# the walls each player has left) form a DAG: a "layer". A wall placement
# adds exactly one wall, so the layers with k placed walls (a "level") lead
# only to level k + 1: the levels are solved from the deepest up, each from
# the one below it alone, and the layers of a level are independent of each
# other (solved by chunks, on threads or cluster workers). This file holds
# the C parts, stateless over arrays the Python side owns
# (games/quoridor/solve.py): the layers a level leads to (`children`), and
# the values of a range of a level's layers (`solve_range`).
#
# Inside a layer only pawn moves (and passes) are played, over the nodes
# (pawn 1, pawn 2, side to move), and those form a graph with cycles. A layer
# is solved backwards from its terminal nodes (a pawn on its goal side) and
# from the values of the layers one wall up, in increasing order of plies,
# so each value is exact: a win in the fewest plies, a loss in the most.
# Nodes that no sequence of events resolves are draws: neither side can
# force a win, they can shuffle for ever. No pruning of any kind, and no ply
# cap (the game option max_plies is not part of the solved game).
#
# A layer's walls-left counts are capped at the free wall slots: no player can
# place more walls than there are slots, so the capped game is the same game
# and layers that differ only above the cap are one. The board has two
# symmetries: the mirror image (columns a <-> last), and the half turn with
# the players' roles swapped (pawns, walls left and the side to move); so a
# layer has four images with the same values, read through the transformed
# nodes, and only the smallest of the four is solved and stored.
#
# Values (int8, from the side to move's point of view): 0 a draw, d + 1 a
# win in d plies, -(d + 1) a loss in d plies (d = 0: the game is over). A
# value beyond 127 is an error (QS_TOO_DEEP), never a wrapped number. A
# solved level is stored small, each layer's values coded (solve_codes.pxi):
# a level is its sorted keys, where each layer's code starts (offsets, one
# more than the layers) and the codes one after the other.
#
# Keys: a layer is 4 uint64 (horizontal walls, vertical walls, walls left 1,
# walls left 2); a level's keys are sorted in that (unsigned) order.

from libc.stdint cimport int8_t, int16_t, int32_t

cdef enum:
    QS_OK = 0
    QS_STOPPED = 1
    QS_NO_MEMORY = 2
    QS_TOO_DEEP = 3          # a value beyond what an int8 holds
    QS_MISSING = 4           # a child layer not in the level below (a bug)
    QS_CORRUPT = 5           # a code of the level below that is not one (a corrupt table)
    QS_MAX_VALUE = 127
    QS_MAX_CHILDREN = 8      # pawn targets (at most 5) or one pass
    QS_MAX_UP = 2 * 2 * 64   # the layers one wall up a layer reads: [mover][horizontal][anchor]
    QC_FAR = 81              # a distance for no path (a square walled off from its goal side)
    QC_RUN = 128             # the longest run a code byte stands for

ctypedef struct QSolver:
    const QGeom* g
    int w, h, nsq, nodes
    int sq_of[81]            # compact square (row * w + col) -> bit index
    int idx_of[81]           # bit index -> compact square
    int xf_sq[4][81]         # compact square -> its image: identity, mirror, half turn, row flip
    int xf_anchor[4][64]     # anchor -> its image (the same four)
    unsigned char pred[(QC_FAR + 1) * (QC_FAR + 1)]     # qc_init_predictions


cdef void qs_init(QSolver* s, int w, int h) noexcept nogil:
    cdef int i, r, c
    memset(s, 0, sizeof(QSolver))
    s.g = q_geom(w, h, 2)
    s.w = w
    s.h = h
    s.nsq = w * h
    s.nodes = s.nsq * s.nsq * 2
    qc_init_predictions(s.pred)
    for i in range(81):
        s.idx_of[i] = -1
    for i in range(s.nsq):
        s.sq_of[i] = (i // w) * SQ + i % w
        s.idx_of[s.sq_of[i]] = i
        s.xf_sq[0][i] = i
        s.xf_sq[1][i] = (i // w) * w + w - 1 - i % w
        s.xf_sq[2][i] = s.nsq - 1 - i
        s.xf_sq[3][i] = (h - 1 - i // w) * w + i % w
    for i in range(64):
        r = i // AS
        c = i % AS
        if r < h - 1 and c < w - 1:
            s.xf_anchor[0][i] = i
            s.xf_anchor[1][i] = r * AS + w - 2 - c
            s.xf_anchor[2][i] = (h - 2 - r) * AS + w - 2 - c
            s.xf_anchor[3][i] = (h - 2 - r) * AS + c
        else:
            s.xf_anchor[0][i] = s.xf_anchor[1][i] = s.xf_anchor[2][i] = s.xf_anchor[3][i] = i


cdef inline int qs_cap_walls(const QGeom* g, uint64_t hw, uint64_t vw, int w) noexcept nogil:
    cdef uint64_t av_h, av_v
    q_free_slots(g, hw, vw, &av_h, &av_v)
    cdef int f = u64_popcount(av_h) + u64_popcount(av_v)
    return w if w < f else f


cdef inline uint64_t qs_transform(const QSolver* s, int xf, uint64_t walls) noexcept nogil:
    cdef uint64_t out = 0
    while walls:
        out |= (<uint64_t>1) << s.xf_anchor[xf][u64_lsb(walls)]
        walls &= walls - 1
    return out


cdef inline int qs_node(const QSolver* s, int a, int b, int tm, int xf) noexcept nogil:
    """A node's index in the values of its layer's image xf (qs_canonical):
    images 2 and 3 swap the players."""
    if xf >= 2:
        return (s.xf_sq[xf][b] * s.nsq + s.xf_sq[xf][a]) * 2 + 1 - tm
    return (s.xf_sq[xf][a] * s.nsq + s.xf_sq[xf][b]) * 2 + tm


cdef inline int qs_canonical(const QSolver* s, uint64_t* hw, uint64_t* vw, int* w0, int* w1) noexcept nogil:
    """Cap the walls left, then turn the layer into the stored one of its
    four images, the smallest (horizontal walls, vertical walls, walls
    left 1, walls left 2); return which image it is (0: itself)."""
    w0[0] = qs_cap_walls(s.g, hw[0], vw[0], w0[0])
    w1[0] = qs_cap_walls(s.g, hw[0], vw[0], w1[0])
    cdef uint64_t bh = hw[0], bv = vw[0], th, tv
    cdef int b0 = w0[0], b1 = w1[0], t0, t1, xf, best = 0
    for xf in range(1, 4):
        th = qs_transform(s, xf, hw[0])
        tv = qs_transform(s, xf, vw[0])
        t0 = w1[0] if xf >= 2 else w0[0]
        t1 = w0[0] if xf >= 2 else w1[0]
        if th < bh or (th == bh and (tv < bv or (tv == bv and (t0 < b0 or (t0 == b0 and t1 < b1))))):
            bh, bv, b0, b1, best = th, tv, t0, t1, xf
    hw[0] = bh
    vw[0] = bv
    w0[0] = b0
    w1[0] = b1
    return best


cdef inline int qs_key_cmp(const uint64_t* k, uint64_t hw, uint64_t vw, uint64_t w0, uint64_t w1) noexcept nogil:
    if k[0] != hw:
        return -1 if k[0] < hw else 1
    if k[1] != vw:
        return -1 if k[1] < vw else 1
    if k[2] != w0:
        return -1 if k[2] < w0 else 1
    if k[3] != w1:
        return -1 if k[3] < w1 else 1
    return 0


cdef int64_t qs_search(const uint64_t* keys, int64_t n, uint64_t hw, uint64_t vw, int w0, int w1) noexcept nogil:
    """The index of a layer in a level's sorted keys, -1 when absent."""
    cdef int64_t lo = 0, hi = n, mid
    cdef int c
    while lo < hi:
        mid = (lo + hi) // 2
        c = qs_key_cmp(&keys[mid * 4], hw, vw, <uint64_t>w0, <uint64_t>w1)
        if c == 0:
            return mid
        if c < 0:
            lo = mid + 1
        else:
            hi = mid
    return -1


cdef void qs_set_walls(QPos* p, const QGeom* g, uint64_t hw, uint64_t vw) noexcept nogil:
    """A position of this geometry with exactly these walls (pawns, counts
    and hash left to the caller: the solver does not use the hash)."""
    cdef int a
    q_reset(p, g, 0)
    p.hw = hw
    p.vw = vw
    for a in range(64):
        if (hw >> a) & 1:
            p.can_n &= ~g.h_n[a]
            p.can_s &= ~g.h_s[a]
        if (vw >> a) & 1:
            p.can_e &= ~g.v_e[a]
            p.can_w &= ~g.v_w[a]


cdef inline u128 qs_region(const QPos* p, int player) noexcept nogil:
    """The squares from which player's goal side can be reached (walls only)."""
    cdef u128 reach = p.g.goal[player], nxt
    while True:
        nxt = reach | q_step(p, reach)
        if nxt == reach:
            return reach
        reach = nxt


include "quoridor/solve_codes.pxi"


# ---------------------------------------------------------------- the levels

ctypedef struct QSKeySet:
    uint64_t* k              # cap * 4; k[i * 4 + 2] == QS_EMPTY: a free slot
    uint64_t cap, count

cdef uint64_t QS_EMPTY = 0xFFFFFFFFFFFFFFFFULL


cdef inline uint64_t qs_hash(uint64_t hw, uint64_t vw, uint64_t w0, uint64_t w1) noexcept nogil:
    cdef uint64_t s = hw * 0x9E3779B97F4A7C15ULL ^ (vw + 0x632BE59BD9B4E019ULL) * 0xBF58476D1CE4E5B9ULL
    s ^= (w0 << 32 | w1) * 0x94D049BB133111EBULL
    return s ^ (s >> 31)


cdef bint qs_set_alloc(QSKeySet* h, uint64_t cap) noexcept nogil:
    cdef uint64_t i
    h.k = <uint64_t*>malloc(cap * 4 * sizeof(uint64_t))
    if h.k == NULL:
        return False
    for i in range(cap):
        h.k[i * 4 + 2] = QS_EMPTY
    h.cap = cap
    h.count = 0
    return True


cdef bint qs_set_add(QSKeySet* h, uint64_t hw, uint64_t vw, uint64_t w0, uint64_t w1) noexcept nogil:
    """Add a key (once); False when out of memory."""
    cdef QSKeySet bigger
    cdef uint64_t i, j
    if 2 * (h.count + 1) > h.cap:
        if not qs_set_alloc(&bigger, 2 * h.cap):
            return False
        for i in range(h.cap):
            if h.k[i * 4 + 2] != QS_EMPTY:
                j = qs_hash(h.k[i * 4], h.k[i * 4 + 1], h.k[i * 4 + 2], h.k[i * 4 + 3]) & (bigger.cap - 1)
                while bigger.k[j * 4 + 2] != QS_EMPTY:
                    j = (j + 1) & (bigger.cap - 1)
                memcpy(&bigger.k[j * 4], &h.k[i * 4], 4 * sizeof(uint64_t))
        bigger.count = h.count
        free(h.k)
        h[0] = bigger
    i = qs_hash(hw, vw, w0, w1) & (h.cap - 1)
    while h.k[i * 4 + 2] != QS_EMPTY:
        if h.k[i * 4] == hw and h.k[i * 4 + 1] == vw and h.k[i * 4 + 2] == w0 and h.k[i * 4 + 3] == w1:
            return True
        i = (i + 1) & (h.cap - 1)
    h.k[i * 4] = hw
    h.k[i * 4 + 1] = vw
    h.k[i * 4 + 2] = w0
    h.k[i * 4 + 3] = w1
    h.count += 1
    return True


cdef inline void qs_keep_sets(const QPos* p, u128 r0, u128 r1, int horizontal, int a,
                              u128* k0, u128* k1) noexcept nogil:
    """The squares of pawn 1 (k0) and of pawn 2 (k1) for which
    q_wall_keeps_paths allows this loop-closing free slot: a pawn that has
    no path before the wall (outside its region r_i), or that still reaches
    its goal after it. The wall is legal in a node when both pawns are in
    their sets (q_legal_walls, without a flood fill per node)."""
    cdef QPos q = p[0]
    cdef const QGeom* g = p.g
    if horizontal:
        q.can_n &= ~g.h_n[a]
        q.can_s &= ~g.h_s[a]
    else:
        q.can_e &= ~g.v_e[a]
        q.can_w &= ~g.v_w[a]
    k0[0] = g.board & (~r0 | qs_region(&q, 0))
    k1[0] = g.board & (~r1 | qs_region(&q, 1))


cdef inline bint qs_wall_leads(const QPos* p, u128 r0, u128 r1, int horizontal, int a) noexcept nogil:
    """Is this loop-closing free slot a legal wall in some node of the layer
    (two distinct squares, neither pawn at home, both in their keep sets)?"""
    cdef const QGeom* g = p.g
    cdef u128 s0, s1
    qs_keep_sets(p, r0, r1, horizontal, a, &s0, &s1)
    s0 &= ~g.goal[0]
    s1 &= ~g.goal[1]
    if s0 == 0 or s1 == 0:
        return False
    # distinct squares exist unless both sets are the same single square
    return not (s0 == s1 and (s0 & (s0 - 1)) == 0)


cdef int qs_children_of(const QSolver* s, uint64_t hw, uint64_t vw, int w0, int w1, QSKeySet* out) noexcept nogil:
    """Add to out the (canonical) layers the walls of a layer lead to: the
    same walls as the forward pass of qs_solve_one plays, for some node."""
    cdef const QGeom* g = s.g
    cdef uint64_t av_h, av_v, risky_h = 0, risky_v = 0, bits, chw, cvw
    cdef u128 r0 = 0, r1 = 0
    cdef QPos p
    cdef int tm, i, c, c0, c1, wl[2]
    wl[0] = w0
    wl[1] = w1
    if w0 <= 0 and w1 <= 0:
        return QS_OK
    q_free_slots(g, hw, vw, &av_h, &av_v)
    if q_may_cut(g, hw, vw):
        q_risky_walls(g, hw, vw, av_h, av_v, &risky_h, &risky_v)
        qs_set_walls(&p, g, hw, vw)
        r0 = qs_region(&p, 0)
        r1 = qs_region(&p, 1)
    for i in range(2):
        bits = av_h if i == 0 else av_v
        while bits:
            c = u64_lsb(bits)
            bits &= bits - 1
            if ((risky_h if i == 0 else risky_v) >> c) & 1 and not qs_wall_leads(&p, r0, r1, i == 0, c):
                continue
            for tm in range(2):
                if wl[tm] <= 0:
                    continue
                chw = hw | ((<uint64_t>1) << c) if i == 0 else hw
                cvw = vw | ((<uint64_t>1) << c) if i == 1 else vw
                c0 = w0 - 1 if tm == 0 else w0
                c1 = w1 - 1 if tm == 1 else w1
                qs_canonical(s, &chw, &cvw, &c0, &c1)
                if not qs_set_add(out, chw, cvw, <uint64_t>c0, <uint64_t>c1):
                    return QS_NO_MEMORY
    return QS_OK


# ---------------------------------------------------------------- one layer

# Events of the backward pass, in buckets by ply count: a node resolved
# (its predecessors learn of it), a win for the mover, or children lost to
# the opponent (kind QS_EV_CHILD_LOST + k - 1: k children). A node's walls
# give at most two events: its fastest win, and all its lost wall children
# at the ply of the slowest (the node cannot be lost before; a win comes
# first anyway).
cdef enum:
    QS_EV_RESOLVED = 0
    QS_EV_WIN = 1
    QS_EV_CHILD_LOST = 2

ctypedef struct QSEvents:
    int32_t* node
    int32_t* kind
    int32_t* next
    int32_t* head            # per level, -1 when empty
    int size, cap, levels


cdef bint qs_events_push(QSEvents* q, int level, int node, int kind) noexcept nogil:
    cdef int32_t* p
    cdef int i, old = q.levels
    if level >= q.levels:
        while level >= q.levels:
            q.levels *= 2
        p = <int32_t*>realloc(q.head, q.levels * sizeof(int32_t))
        if p == NULL:
            return False
        q.head = p
        for i in range(old, q.levels):
            q.head[i] = -1
    if q.size == q.cap:
        q.cap *= 2
        p = <int32_t*>realloc(q.node, q.cap * sizeof(int32_t))
        if p == NULL:
            return False
        q.node = p
        p = <int32_t*>realloc(q.kind, q.cap * sizeof(int32_t))
        if p == NULL:
            return False
        q.kind = p
        p = <int32_t*>realloc(q.next, q.cap * sizeof(int32_t))
        if p == NULL:
            return False
        q.next = p
    q.node[q.size] = node
    q.kind[q.size] = kind
    q.next[q.size] = q.head[level]
    q.head[level] = q.size
    q.size += 1
    return True


ctypedef struct QSLevel:
    # a solved level: sorted keys (n * 4), where each layer's code starts
    # (n + 1 offsets) and the codes (length bytes)
    const uint64_t* keys
    int64_t n
    const uint64_t* offsets
    const unsigned char* codes
    uint64_t length


ctypedef struct QSScratch:
    # the working arrays of one layer's solve, reused from layer to layer
    int16_t* val
    int32_t* nchild          # children not yet lost
    int32_t* child
    int32_t* npawn           # in-layer children
    int32_t* pred_start
    int32_t* preds
    unsigned char* done
    unsigned char* up_diff   # QS_MAX_UP * nodes: the differences of the layers one wall up (solve_codes)
    unsigned char* up_dist   # QS_MAX_UP * 162: their distances to player 1's and player 2's goal sides
    int8_t* row              # nodes: the layer's values
    int32_t* fifo            # nodes: a race layer's nodes in the order they are resolved
    unsigned char* diff      # nodes: the layer's differences, coding it
    QSEvents q


cdef bint qs_scratch_alloc(QSScratch* w, int nodes) noexcept nogil:
    memset(w, 0, sizeof(QSScratch))
    w.val = <int16_t*>malloc(nodes * sizeof(int16_t))
    w.nchild = <int32_t*>malloc(nodes * sizeof(int32_t))
    w.child = <int32_t*>malloc(nodes * QS_MAX_CHILDREN * sizeof(int32_t))
    w.npawn = <int32_t*>malloc(nodes * sizeof(int32_t))
    w.pred_start = <int32_t*>malloc((nodes + 1) * sizeof(int32_t))
    w.preds = <int32_t*>malloc((nodes * QS_MAX_CHILDREN + 1) * sizeof(int32_t))
    w.done = <unsigned char*>malloc(nodes)
    w.up_diff = <unsigned char*>malloc(QS_MAX_UP * <size_t>nodes)
    w.up_dist = <unsigned char*>malloc(QS_MAX_UP * 162)
    w.row = <int8_t*>malloc(nodes)
    w.fifo = <int32_t*>malloc(nodes * sizeof(int32_t))
    w.diff = <unsigned char*>malloc(nodes)
    w.q.cap = 4096
    w.q.levels = 256
    w.q.node = <int32_t*>malloc(w.q.cap * sizeof(int32_t))
    w.q.kind = <int32_t*>malloc(w.q.cap * sizeof(int32_t))
    w.q.next = <int32_t*>malloc(w.q.cap * sizeof(int32_t))
    w.q.head = <int32_t*>malloc(w.q.levels * sizeof(int32_t))
    return (w.val != NULL and w.nchild != NULL and w.child != NULL and w.npawn != NULL
            and w.pred_start != NULL and w.preds != NULL and w.done != NULL and w.up_diff != NULL
            and w.up_dist != NULL and w.row != NULL and w.fifo != NULL and w.diff != NULL and w.q.node != NULL
            and w.q.kind != NULL and w.q.next != NULL and w.q.head != NULL)


cdef void qs_scratch_free(QSScratch* w) noexcept nogil:
    free(w.val)
    free(w.nchild)
    free(w.child)
    free(w.npawn)
    free(w.pred_start)
    free(w.preds)
    free(w.done)
    free(w.up_diff)
    free(w.up_dist)
    free(w.row)
    free(w.fifo)
    free(w.diff)
    free(w.q.node)
    free(w.q.kind)
    free(w.q.next)
    free(w.q.head)


cdef int qs_solve_race(int16_t* val, int32_t* nchild, const int32_t* pred_start, const int32_t* preds,
                       unsigned char* done, int32_t* fifo, int nresolved) noexcept nogil:
    """The backward pass of a layer with no wall left: every event comes
    from inside the layer, from the terminal nodes (resolved, in fifo), so
    resolving nodes first in first out takes them by increasing plies (a
    breadth-first search from the ends of the game) and needs no buckets."""
    cdef int head = 0, node, k, c
    cdef int16_t d, v
    while head < nresolved:
        node = fifo[head]
        head += 1
        d = val[node]
        for k in range(pred_start[node], pred_start[node + 1]):
            c = preds[k]
            if done[c]:
                continue
            if d < 0:                   # the child is lost in -d - 1 plies: a win in -d
                v = -d + 1
            else:                       # the child is won in d - 1 plies: lost once the last one is
                nchild[c] -= 1
                if nchild[c] > 0:
                    continue
                v = -(d + 1)
            if v > QS_MAX_VALUE or v < -QS_MAX_VALUE:
                return QS_TOO_DEEP
            val[c] = v
            done[c] = 1
            fifo[nresolved] = c
            nresolved += 1
    return QS_OK


cdef int qs_solve_one(const QSolver* s, QSScratch* w, const uint64_t* key, const QSLevel* up,
                      int8_t* out, uint64_t* positions, StopCheck* stop) noexcept nogil:
    """Solve one layer (its canonical key) into out (nodes int8, index
    ((pawn 1 * nsq) + pawn 2) * 2 + side to move, compact squares), reading
    the layers its walls lead to from the solved level below. Returns QS_OK
    or an error."""
    cdef const QGeom* g = s.g
    cdef uint64_t hw = key[0], vw = key[1]
    cdef int w0 = <int>key[2], w1 = <int>key[3]
    cdef int nodes = s.nodes, nsq = s.nsq
    cdef int16_t* val = w.val
    cdef int32_t* nchild = w.nchild
    cdef int32_t* child = w.child
    cdef int32_t* npawn = w.npawn
    cdef int32_t* pred_start = w.pred_start
    cdef int32_t* preds = w.preds
    cdef unsigned char* done = w.done
    cdef QSEvents* q = &w.q
    cdef int slot[2][2][64]          # [mover][horizontal][anchor]: the layer a wall leads to, read (-1: not yet)
    cdef int up_xf[2][2][64]
    cdef int nslots = 0, sl
    cdef int nbr[81][4]
    cdef int nnbr[81]
    cdef int mover, other
    cdef bint adjacent
    cdef int nidx[4]
    cdef const unsigned char* dd
    cdef const unsigned char* pred = s.pred
    cdef uint64_t first, last
    cdef int i, a, b, tm, node, c, k, level, ev, wl[2], cx, c0, c1
    cdef int16_t cv, d
    cdef u128 t
    cdef uint64_t lh, lv, bits, chw, cvw
    cdef int64_t idx
    cdef QPos p
    cdef bint ok = True
    cdef bint race = w0 <= 0 and w1 <= 0      # no wall left: pawn moves only (qs_solve_race)
    cdef int32_t* fifo = w.fifo
    cdef int nresolved = 0
    cdef int err = QS_OK
    # the legal walls of a node: the free slots that close no loop, and the
    # loop-closing ones whose keep sets hold both pawns
    cdef uint64_t av_h, av_v, risky_h = 0, risky_v = 0, ab_h, ab_v
    cdef u128 r0, r1, pa, pb
    cdef u128 keep0[128]
    cdef u128 keep1[128]
    cdef int rk_anchor[128]
    cdef int rk_horizontal[128]
    cdef int nrisky = 0, j, wmin, lcount, lmax
    memset(val, 0, nodes * sizeof(int16_t))
    memset(nchild, 0, nodes * sizeof(int32_t))
    memset(npawn, 0, nodes * sizeof(int32_t))
    memset(pred_start, 0, (nodes + 1) * sizeof(int32_t))
    memset(done, 0, nodes)
    for i in range(2 * 2 * 64):
        (&slot[0][0][0])[i] = -1
    q.size = 0
    for i in range(q.levels):
        q.head[i] = -1
    wl[0] = w0
    wl[1] = w1
    qs_set_walls(&p, g, hw, vw)
    q_free_slots(g, hw, vw, &av_h, &av_v)
    if (w0 > 0 or w1 > 0) and q_may_cut(g, hw, vw):
        q_risky_walls(g, hw, vw, av_h, av_v, &risky_h, &risky_v)
        r0 = qs_region(&p, 0)
        r1 = qs_region(&p, 1)
        for i in range(2):
            bits = risky_h if i == 0 else risky_v
            while bits:
                c = u64_lsb(bits)
                bits &= bits - 1
                qs_keep_sets(&p, r0, r1, i == 0, c, &keep0[nrisky], &keep1[nrisky])
                rk_anchor[nrisky] = c
                rk_horizontal[nrisky] = i == 0
                nrisky += 1
    # the squares one step from each square through the walls: a pawn's moves
    # when the other pawn is not one of them (no jump); else q_pawn_targets
    for i in range(nsq):
        nnbr[i] = 0
        t = q_step(&p, bb_bit(s.sq_of[i]))
        while t:
            nbr[i][nnbr[i]] = s.idx_of[bb_lsb(t)]
            nnbr[i] += 1
            t &= t - 1
    # forward pass: every node's children, the values of the layers above
    for a in range(nsq):
        if not ok:
            break
        if stop_check(stop):
            return QS_STOPPED
        for b in range(nsq):
            if a == b or not ok:
                continue
            p.pawn[0] = s.sq_of[a]
            p.pawn[1] = s.sq_of[b]
            p.walk_ok = 0
            pa = bb_bit(p.pawn[0])
            pb = bb_bit(p.pawn[1])
            if (g.goal[0] & pa) and (g.goal[1] & pb):
                continue       # both pawns home: no game leads here
            ab_h = av_h & ~risky_h
            ab_v = av_v & ~risky_v
            for j in range(nrisky):
                if (keep0[j] & pa) and (keep1[j] & pb):
                    if rk_horizontal[j]:
                        ab_h |= (<uint64_t>1) << rk_anchor[j]
                    else:
                        ab_v |= (<uint64_t>1) << rk_anchor[j]
            for tm in range(2):
                if not ok:
                    break
                node = (a * nsq + b) * 2 + tm
                positions[0] += 1
                if (g.goal[0] & pa) or (g.goal[1] & pb):
                    # over: the pawn at home has won (0 plies)
                    if race:
                        val[node] = 1 if g.goal[tm] & (pa if tm == 0 else pb) else -1
                        done[node] = 1
                        fifo[nresolved] = node
                        nresolved += 1
                    elif g.goal[tm] & (pa if tm == 0 else pb):
                        ok = ok and qs_events_push(q, 0, node, QS_EV_WIN)
                    else:
                        nchild[node] = 1
                        ok = ok and qs_events_push(q, 0, node, QS_EV_CHILD_LOST)
                    continue
                p.to_move = tm
                mover = a if tm == 0 else b
                other = b if tm == 0 else a
                adjacent = False
                for j in range(nnbr[mover]):
                    if nbr[mover][j] == other:
                        adjacent = True
                if not adjacent:    # no jump: the steps
                    for j in range(nnbr[mover]):
                        c = nbr[mover][j]
                        child[node * QS_MAX_CHILDREN + j] = ((c * nsq + b) if tm == 0 else (a * nsq + c)) * 2 + 1 - tm
                    k = nnbr[mover]
                else:
                    t = q_pawn_targets(&p, tm)
                    k = 0
                    while t:
                        c = s.idx_of[bb_lsb(t)]
                        t &= t - 1
                        child[node * QS_MAX_CHILDREN + k] = ((c * nsq + b) if tm == 0 else (a * nsq + c)) * 2 + 1 - tm
                        k += 1
                lh = lv = 0
                if wl[tm] > 0:     # q_legal_walls, from the keep sets
                    lh = ab_h
                    lv = ab_v
                if k == 0 and lh == 0 and lv == 0:
                    child[node * QS_MAX_CHILDREN] = (a * nsq + b) * 2 + 1 - tm    # the pass
                    k = 1
                npawn[node] = k
                nchild[node] = k + u64_popcount(lh) + u64_popcount(lv)
                wmin = lcount = lmax = 0
                if lh or lv:        # the node after a wall, in each of the four images
                    for i in range(4):
                        nidx[i] = qs_node(s, a, b, 1 - tm, i)
                for i in range(2):
                    bits = lh if i == 0 else lv
                    while bits and ok:
                        c = u64_lsb(bits)
                        bits &= bits - 1
                        sl = slot[tm][i][c]
                        if sl < 0:
                            # read the layer: its differences, and the distances of its walls as placed
                            # here (the prediction is the same in every image)
                            sl = slot[tm][i][c] = nslots
                            nslots += 1
                            chw = hw | ((<uint64_t>1) << c) if i == 0 else hw
                            cvw = vw | ((<uint64_t>1) << c) if i == 1 else vw
                            qc_distances(g, s.idx_of, nsq, chw, cvw, &w.up_dist[sl * 162], &w.up_dist[sl * 162 + 81])
                            c0 = w0 - 1 if tm == 0 else w0
                            c1 = w1 - 1 if tm == 1 else w1
                            up_xf[tm][i][c] = qs_canonical(s, &chw, &cvw, &c0, &c1)
                            idx = qs_search(up.keys, up.n, chw, cvw, c0, c1)
                            if idx < 0:
                                return QS_MISSING
                            first = up.offsets[idx]
                            last = up.offsets[idx + 1]
                            if first > last or last > up.length or not qc_unpack(
                                    &up.codes[first], <int64_t>(last - first), nodes, &w.up_diff[sl * <size_t>nodes]):
                                return QS_CORRUPT
                        dd = &w.up_dist[sl * 162]
                        # the child's side to move is the other player: its distance first
                        cv = <int8_t>(<unsigned char>(w.up_diff[sl * <size_t>nodes + nidx[up_xf[tm][i][c]]]
                                                      + (pred[dd[81 + b] * (QC_FAR + 1) + dd[a]] if tm == 0
                                                         else pred[dd[a] * (QC_FAR + 1) + dd[81 + b]])))
                        if cv < 0:       # the opponent loses in -cv - 1 plies: a win in -cv
                            if wmin == 0 or -cv < wmin:
                                wmin = -cv
                        elif cv > 0:     # the opponent wins in cv - 1 plies: a child lost at cv
                            lcount += 1
                            if cv > lmax:
                                lmax = cv
                if wmin:
                    ok = ok and qs_events_push(q, wmin, node, QS_EV_WIN)
                if lcount:
                    ok = ok and qs_events_push(q, lmax, node, QS_EV_CHILD_LOST + lcount - 1)
    if not ok:
        return QS_NO_MEMORY
    # predecessors inside the layer (CSR)
    for node in range(nodes):
        for k in range(npawn[node]):
            pred_start[child[node * QS_MAX_CHILDREN + k] + 1] += 1
    for node in range(nodes):
        pred_start[node + 1] += pred_start[node]
    for node in range(nodes):
        for k in range(npawn[node]):
            c = child[node * QS_MAX_CHILDREN + k]
            preds[pred_start[c]] = node
            pred_start[c] += 1
    for node in range(nodes, 0, -1):
        pred_start[node] = pred_start[node - 1]
    pred_start[0] = 0
    if race:
        err = qs_solve_race(val, nchild, pred_start, preds, done, fifo, nresolved)
        if err != QS_OK:
            return err
        for node in range(nodes):
            out[node] = <int8_t>val[node]
        return QS_OK
    # backward pass, by increasing plies: the first lost child makes a win,
    # the last child lost makes a loss, so each value is the best play's
    level = 0
    while ok and level < q.levels:
        while ok and q.head[level] >= 0:
            ev = q.head[level]
            q.head[level] = q.next[ev]
            node = q.node[ev]
            if q.kind[ev] == QS_EV_RESOLVED:
                d = val[node]
                for k in range(pred_start[node], pred_start[node + 1]):
                    c = preds[k]
                    if done[c]:
                        continue
                    if d < 0:
                        ok = qs_events_push(q, level + 1, c, QS_EV_WIN)
                    else:
                        ok = qs_events_push(q, level + 1, c, QS_EV_CHILD_LOST)
                    if not ok:
                        break
                continue
            if done[node]:
                continue
            if level >= QS_MAX_VALUE:
                return QS_TOO_DEEP
            if q.kind[ev] == QS_EV_WIN:
                val[node] = level + 1
            else:
                nchild[node] -= q.kind[ev] - QS_EV_CHILD_LOST + 1
                if nchild[node] > 0:
                    continue
                val[node] = -(level + 1)
            done[node] = 1
            ok = qs_events_push(q, level, node, QS_EV_RESOLVED)
        level += 1
    if not ok:
        return QS_NO_MEMORY
    for node in range(nodes):
        out[node] = <int8_t>val[node]
    return QS_OK


cdef class QuoridorSolver:
    """The compiled parts of the level-by-level solver of one board
    (2 players, width x height), stateless over the arrays games/quoridor/solve.py owns:
    `locate` a position's layer and node, `find` a layer in a level's keys,
    the `children` layers of a level, and `solve_range` (the values of a
    range of a level's layers, without the GIL: threads solve chunks of one
    level at once). Values: 0 draw, d + 1 the side to move wins in d plies,
    -(d + 1) it loses in d."""

    cdef QSolver s
    cdef readonly int width
    cdef readonly int height

    def __cinit__(self, int width, int height):
        error = q_board_error(width, height, 2)
        if error is not None:
            raise ValueError(error)
        self.width = width
        self.height = height
        qs_init(&self.s, width, height)

    @property
    def nodes(self):
        """Nodes (values) per layer: squares x squares x side to move."""
        return self.s.nodes

    def canonical(self, uint64_t hw, uint64_t vw, int w0, int w1):
        """The stored form of a layer: (hw, vw, w0, w1) capped and the
        smallest of its images (ValueError off the board)."""
        if (hw & ~self.s.g.anchors) or (vw & ~self.s.g.anchors) or w0 < 0 or w1 < 0:
            raise ValueError(f"not a wall configuration of {self.width}x{self.height}")
        qs_canonical(&self.s, &hw, &vw, &w0, &w1)
        return hw, vw, w0, w1

    def locate(self, QuoridorCore core):
        """(key, level, node) of a position: its layer's stored form (4 ints),
        the level (walls placed) and the node's index in that layer's values."""
        if core.players != 2 or core.width != self.width or core.height != self.height:
            raise ValueError(f"the solver is for {self.width}x{self.height} with 2 players")
        cdef QPos* p = &core.pos
        cdef uint64_t hw = p.hw, vw = p.vw
        cdef int w0 = p.walls_left[0], w1 = p.walls_left[1]
        cdef int xf = qs_canonical(&self.s, &hw, &vw, &w0, &w1)
        node = qs_node(&self.s, self.s.idx_of[p.pawn[0]], self.s.idx_of[p.pawn[1]], p.to_move, xf)
        return (hw, vw, w0, w1), u64_popcount(p.hw) + u64_popcount(p.vw), node

    def find(self, const uint64_t[:, ::1] keys, key):
        """The index of a layer (a stored form) in a level's sorted keys, -1
        when it is not there."""
        if keys.shape[0] == 0:
            return -1
        if keys.shape[1] != 4:
            raise ValueError("keys must have 4 columns")
        return qs_search(&keys[0, 0], keys.shape[0], key[0], key[1], key[2], key[3])

    def check_keys(self, const uint64_t[:, ::1] keys, int level):
        """ValueError unless keys are sorted stored forms of layers with
        `level` walls (what a table file must hold)."""
        cdef Py_ssize_t i
        cdef uint64_t hw, vw
        cdef int w0, w1
        if keys.shape[1] != 4:
            raise ValueError("keys must have 4 columns")
        for i in range(keys.shape[0]):
            hw, vw = keys[i, 0], keys[i, 1]
            if (hw & ~self.s.g.anchors) or (vw & ~self.s.g.anchors) or keys[i, 2] > 1000 or keys[i, 3] > 1000 \
                    or u64_popcount(hw) + u64_popcount(vw) != level:
                raise ValueError(f"layer {i} of level {level} is not a wall configuration of {self.width}x{self.height}")
            w0, w1 = <int>keys[i, 2], <int>keys[i, 3]
            if qs_canonical(&self.s, &hw, &vw, &w0, &w1) != 0 or w0 != <int>keys[i, 2] or w1 != <int>keys[i, 3]:
                raise ValueError(f"layer {i} of level {level} is not in the solver's canonical form")
            if i and qs_key_cmp(&keys[i - 1, 0], keys[i, 0], keys[i, 1], keys[i, 2], keys[i, 3]) >= 0:
                raise ValueError(f"the layers of level {level} are not sorted")

    def children(self, const uint64_t[:, ::1] keys):
        """The keys of the layers the walls of these layers lead to (the
        next level), once each, unsorted: m * 4 native uint64 in a bytearray. Raises
        engine.stop.Interrupted when stopped, MemoryError."""
        cdef QSKeySet h
        cdef Py_ssize_t i, n = keys.shape[0]
        cdef int err = QS_OK
        cdef StopCheck stop
        stop_check_init(&stop, current_stop_flag(), 0, 1)
        if not qs_set_alloc(&h, 1024):
            raise MemoryError("cannot allocate the layers of a level")
        with nogil:
            for i in range(n):
                if (i & 1023) == 0 and stop_check(&stop):
                    err = QS_STOPPED
                    break
                err = qs_children_of(&self.s, keys[i, 0], keys[i, 1], <int>keys[i, 2], <int>keys[i, 3], &h)
                if err != QS_OK:
                    break
        try:
            if err == QS_STOPPED:
                from crossridor.engine.stop import Interrupted
                raise Interrupted("solve stopped")
            if err != QS_OK:
                raise MemoryError("cannot hold the layers of a level")
            return _copy_keys(&h)
        finally:
            free(h.k)

    def solve_range(self, const uint64_t[:, ::1] keys, Py_ssize_t start, Py_ssize_t end,
                    const uint64_t[:, ::1] up_keys, const uint64_t[::1] up_offsets, const unsigned char[::1] up_codes,
                    uint64_t[::1] lengths):
        """Solve the layers keys[start:end] from the solved level below
        (its sorted keys, offsets and codes): (positions valued, their codes
        one after the other (bytes)), the length of each layer's code in
        lengths (end - start). Without the GIL; the stop flag is this thread's
        (engine.stop.scope). Raises engine.stop.Interrupted, OverflowError
        (a value beyond int8), ValueError (a code of the level below that is
        not one), MemoryError."""
        cdef int nodes = self.s.nodes
        if keys.shape[1] != 4 or not 0 <= start <= end <= keys.shape[0]:
            raise ValueError("bad range of layers")
        if up_keys.shape[0] and up_keys.shape[1] != 4:
            raise ValueError("the level below: keys must have 4 columns")
        if up_offsets.shape[0] != up_keys.shape[0] + 1:
            raise ValueError("the level below: one offset more than its layers")
        cdef QSLevel up
        up.keys = &up_keys[0, 0] if up_keys.shape[0] else NULL
        up.n = up_keys.shape[0]
        up.offsets = &up_offsets[0]
        up.codes = &up_codes[0] if up_codes.shape[0] else NULL
        up.length = up_codes.shape[0]
        if lengths.shape[0] != end - start:
            raise ValueError(f"lengths must hold {end - start}")
        cdef uint64_t[::1] lens = lengths
        cdef uint64_t positions = 0
        cdef QSScratch w
        cdef StopCheck stop
        cdef Py_ssize_t i, n = 0
        cdef int err = QS_OK
        cdef unsigned char* out = NULL
        stop_check_init(&stop, current_stop_flag(), 0, 1)
        if end == start:
            return 0, b""
        if not qs_scratch_alloc(&w, nodes):
            qs_scratch_free(&w)
            raise MemoryError("cannot allocate a layer's working arrays")
        out = <unsigned char*>malloc((end - start) * qc_bound(nodes))
        if out == NULL:
            qs_scratch_free(&w)
            raise MemoryError("cannot allocate the codes of a range of layers")
        try:
            with nogil:
                for i in range(start, end):
                    err = qs_solve_one(&self.s, &w, &keys[i, 0], &up, w.row, &positions, &stop)
                    if err != QS_OK:
                        break
                    lens[i - start] = qc_encode(&self.s, keys[i, 0], keys[i, 1], w.row, w.diff, &out[n])
                    n += lens[i - start]
            if err == QS_STOPPED:
                from crossridor.engine.stop import Interrupted
                raise Interrupted("solve stopped")
            if err == QS_TOO_DEEP:
                raise OverflowError(f"a position lasts more than {QS_MAX_VALUE - 1} plies: beyond the "
                                    f"table's one-byte values")
            if err == QS_MISSING:
                raise RuntimeError("a layer leads to a layer missing from the level below")
            if err == QS_CORRUPT:
                raise ValueError("a layer of the level below holds no values (a corrupt code)")
            if err != QS_OK:
                raise MemoryError("cannot allocate a layer's working arrays")
            return positions, (<char*>out)[:n]
        finally:
            qs_scratch_free(&w)
            free(out)

    def decode(self, key, const unsigned char[::1] code, int8_t[::1] values):
        """Decode the values of a stored layer (its key) from its code into
        values (`nodes` int8); ValueError when the code is not one."""
        cdef uint64_t hw = key[0], vw = key[1]
        if (hw & ~self.s.g.anchors) or (vw & ~self.s.g.anchors):
            raise ValueError(f"not a wall configuration of {self.width}x{self.height}")
        if values.shape[0] != self.s.nodes:
            raise ValueError(f"a layer has {self.s.nodes} values")
        cdef const unsigned char* c = &code[0] if code.shape[0] else NULL
        if c == NULL or not qc_decode(&self.s, hw, vw, c, code.shape[0], &values[0]):
            raise ValueError("a layer's code holds no values (a corrupt table)")

    def encode(self, key, const int8_t[::1] values):
        """The code (bytes) of a stored layer's values (its key)."""
        cdef uint64_t hw = key[0], vw = key[1]
        cdef int nodes = self.s.nodes
        if (hw & ~self.s.g.anchors) or (vw & ~self.s.g.anchors):
            raise ValueError(f"not a wall configuration of {self.width}x{self.height}")
        if values.shape[0] != nodes:
            raise ValueError(f"a layer has {nodes} values")
        out = bytearray(qc_bound(nodes))
        diff = bytearray(nodes)
        cdef unsigned char[::1] o = out
        cdef unsigned char[::1] d = diff
        cdef Py_ssize_t n = qc_encode(&self.s, hw, vw, &values[0], &d[0], &o[0])
        return bytes(out[:n])


cdef bytearray _copy_keys(QSKeySet* h):
    """The keys of a set, unsorted, as count * 4 native uint64."""
    out = bytearray(h.count * 4 * sizeof(uint64_t))
    cdef unsigned char[:] o = out
    cdef uint64_t i, k = 0
    for i in range(h.cap):
        if h.k[i * 4 + 2] != QS_EMPTY:
            memcpy(&o[k * 4 * sizeof(uint64_t)], &h.k[i * 4], 4 * sizeof(uint64_t))
            k += 1
    return out
