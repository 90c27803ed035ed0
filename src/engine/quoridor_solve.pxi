# The exact solver of two-player Quoridor on small boards: retrograde
# analysis, one wall configuration at a time.
#
# Walls only ever increase, so the wall configurations (the placed walls and
# the walls each player has left) form a DAG: a "layer". Inside a layer only
# pawn moves (and passes) are played, over the nodes (pawn 1, pawn 2, side to
# move), and those form a graph with cycles. A layer is solved backwards from
# its terminal nodes (a pawn on its goal side) and from the values of the
# layers one wall up (solved first, recursively, memoised), in increasing
# order of plies, so each value is exact: a win in the fewest plies, a loss
# in the most. Nodes that no sequence of events resolves are draws: neither
# side can force a win, they can shuffle for ever. No pruning of any kind,
# and no ply cap (the game option max_plies is not part of the solved game).
#
# A layer's walls-left counts are capped at the free wall slots: no player can
# place more walls than there are slots, so the capped game is the same game
# and layers that differ only above the cap are one. The board has two
# symmetries: the mirror image (columns a <-> last), and the half turn with
# the players' roles swapped (pawns, walls left and the side to move); so a
# layer has four images with the same values, read through the transformed
# nodes, and only the smallest of the four is solved and stored.
#
# Values (int16, from the side to move's point of view): 0 a draw, d + 1 a
# win in d plies, -(d + 1) a loss in d plies (d = 0: the game is over).

from libc.stdint cimport int16_t, int32_t

cdef enum:
    QS_OK = 0
    QS_STOPPED = 1
    QS_NO_MEMORY = 2
    QS_TOO_DEEP = 3          # plies beyond what an int16 value holds
    QS_MAX_LEVEL = 32766
    QS_MAX_CHILDREN = 8      # pawn targets (at most 5) or one pass

ctypedef struct QSEntry:
    uint64_t hw, vw
    int32_t w0, w1
    int16_t* val             # NULL: empty slot

ctypedef struct QSolver:
    const QGeom* g
    int n, nsq, nodes
    int sq_of[81]            # compact square (row * n + col) -> bit index
    int idx_of[81]           # bit index -> compact square
    int xf_sq[4][81]         # compact square -> its image: identity, mirror, half turn, row flip
    int xf_anchor[4][64]     # anchor -> its image (the same four)
    QSEntry* table
    uint64_t cap, count      # table slots (a power of two), layers stored
    uint64_t bytes, max_bytes
    uint64_t positions       # nodes of the layers solved (valid positions)
    StopCheck stop
    int error


cdef inline uint64_t qs_hash(uint64_t hw, uint64_t vw, int w0, int w1) noexcept nogil:
    cdef uint64_t s = hw * 0x9E3779B97F4A7C15ULL ^ (vw + 0x632BE59BD9B4E019ULL) * 0xBF58476D1CE4E5B9ULL
    s ^= (<uint64_t>w0 << 32 | <uint64_t>w1) * 0x94D049BB133111EBULL
    return s ^ (s >> 31)


cdef inline void qs_free_slots(const QGeom* g, uint64_t hw, uint64_t vw, uint64_t* av_h, uint64_t* av_v) noexcept nogil:
    """Wall slots neither overlapping nor crossing a placed wall (the same
    test as q_legal_walls, before the path rule)."""
    av_h[0] = g.anchors & ~(hw | ((hw << 1) & ~g.acol0) | ((hw >> 1) & ~g.acol_last) | vw)
    av_v[0] = g.anchors & ~(vw | (vw << AS) | (vw >> AS) | hw)


cdef inline int qs_cap_walls(const QGeom* g, uint64_t hw, uint64_t vw, int w) noexcept nogil:
    cdef uint64_t av_h, av_v
    qs_free_slots(g, hw, vw, &av_h, &av_v)
    cdef int f = u64_popcount(av_h) + u64_popcount(av_v)
    return w if w < f else f


cdef int qs_init(QSolver* s, int n, uint64_t max_bytes, volatile int* flag) noexcept nogil:
    cdef int i, r, c
    memset(s, 0, sizeof(QSolver))
    s.g = q_geom(n, 2)
    s.n = n
    s.nsq = n * n
    s.nodes = s.nsq * s.nsq * 2
    for i in range(81):
        s.idx_of[i] = -1
    for i in range(s.nsq):
        s.sq_of[i] = (i // n) * SQ + i % n
        s.idx_of[s.sq_of[i]] = i
        s.xf_sq[0][i] = i
        s.xf_sq[1][i] = (i // n) * n + n - 1 - i % n
        s.xf_sq[2][i] = s.nsq - 1 - i
        s.xf_sq[3][i] = (n - 1 - i // n) * n + i % n
    for i in range(64):
        r = i // AS
        c = i % AS
        if r < n - 1 and c < n - 1:
            s.xf_anchor[0][i] = i
            s.xf_anchor[1][i] = r * AS + n - 2 - c
            s.xf_anchor[2][i] = (n - 2 - r) * AS + n - 2 - c
            s.xf_anchor[3][i] = (n - 2 - r) * AS + c
        else:
            s.xf_anchor[0][i] = s.xf_anchor[1][i] = s.xf_anchor[2][i] = s.xf_anchor[3][i] = i
    s.max_bytes = max_bytes
    s.cap = 1024
    s.bytes = s.cap * sizeof(QSEntry)
    s.table = <QSEntry*>calloc(s.cap, sizeof(QSEntry))
    stop_check_init(&s.stop, flag, 0, 1)
    return QS_OK if s.table != NULL else QS_NO_MEMORY


cdef void qs_free(QSolver* s) noexcept nogil:
    cdef uint64_t i
    if s.table == NULL:
        return
    for i in range(s.cap):
        free(s.table[i].val)
    free(s.table)
    s.table = NULL


cdef inline bint qs_charge(QSolver* s, uint64_t more) noexcept nogil:
    """Count `more` bytes against the bound; False (and the error set) when
    they do not fit."""
    if s.max_bytes and s.bytes + more > s.max_bytes:
        s.error = QS_NO_MEMORY
        return False
    s.bytes += more
    return True


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


cdef QSEntry* qs_find(QSolver* s, uint64_t hw, uint64_t vw, int w0, int w1) noexcept nogil:
    """The table slot of a layer: its entry, or the empty slot it would take."""
    cdef uint64_t i = qs_hash(hw, vw, w0, w1) & (s.cap - 1)
    cdef QSEntry* e
    while True:
        e = &s.table[i]
        if e.val == NULL or (e.hw == hw and e.vw == vw and e.w0 == w0 and e.w1 == w1):
            return e
        i = (i + 1) & (s.cap - 1)


cdef bint qs_store(QSolver* s, uint64_t hw, uint64_t vw, int w0, int w1, int16_t* val) noexcept nogil:
    cdef uint64_t i, old_cap = s.cap
    cdef QSEntry* old = s.table
    cdef QSEntry* e
    if 2 * (s.count + 1) > s.cap:
        if not qs_charge(s, old_cap * sizeof(QSEntry)):
            return False
        s.table = <QSEntry*>calloc(2 * old_cap, sizeof(QSEntry))
        if s.table == NULL:
            s.table = old
            s.error = QS_NO_MEMORY
            return False
        s.cap = 2 * old_cap
        for i in range(old_cap):
            if old[i].val != NULL:
                e = qs_find(s, old[i].hw, old[i].vw, old[i].w0, old[i].w1)
                e[0] = old[i]
        free(old)
    e = qs_find(s, hw, vw, w0, w1)
    e.hw = hw
    e.vw = vw
    e.w0 = w0
    e.w1 = w1
    e.val = val
    s.count += 1
    return True


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


# Events of the backward pass, in buckets by ply count: a node resolved
# (its predecessors learn of it), or a value coming from a layer one wall
# up (a win for the mover, or one more child lost to the opponent).
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


cdef inline int qs_canonical(const QSolver* s, uint64_t* hw, uint64_t* vw, int* w0, int* w1) noexcept nogil:
    """Turn a layer (walls left already capped) into the stored one of its
    four images, the smallest (horizontal walls, vertical walls, walls
    left 1, walls left 2); return which image it is (0: itself)."""
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


cdef int16_t* qs_layer(QSolver* s, uint64_t hw, uint64_t vw, int w0, int w1, int* xf) noexcept nogil:
    """The solved values of a layer's stored image (xf[0]: which image,
    read them with qs_node), solving it and the layers it leads to first.
    NULL with s.error set when stopped or out of memory."""
    w0 = qs_cap_walls(s.g, hw, vw, w0)
    w1 = qs_cap_walls(s.g, hw, vw, w1)
    xf[0] = qs_canonical(s, &hw, &vw, &w0, &w1)
    return qs_solve_layer(s, hw, vw, w0, w1)


cdef QSEntry* qs_lookup(QSolver* s, uint64_t hw, uint64_t vw, int w0, int w1, int* xf) noexcept nogil:
    """The stored image of a layer (xf[0]: which image), or NULL when it
    is not solved."""
    w0 = qs_cap_walls(s.g, hw, vw, w0)
    w1 = qs_cap_walls(s.g, hw, vw, w1)
    xf[0] = qs_canonical(s, &hw, &vw, &w0, &w1)
    cdef QSEntry* e = qs_find(s, hw, vw, w0, w1)
    return e if e.val != NULL else NULL


cdef int16_t* qs_solve_layer(QSolver* s, uint64_t hw, uint64_t vw, int w0, int w1) noexcept nogil:
    """The solved values of a layer (nodes entries, index
    ((pawn 1 * nsq) + pawn 2) * 2 + side to move, compact squares), solving
    it first."""
    cdef const QGeom* g = s.g
    w0 = qs_cap_walls(g, hw, vw, w0)
    w1 = qs_cap_walls(g, hw, vw, w1)
    cdef QSEntry* e = qs_find(s, hw, vw, w0, w1)
    if e.val != NULL:
        return e.val
    cdef int nodes = s.nodes, nsq = s.nsq
    if not qs_charge(s, nodes * sizeof(int16_t)):
        return NULL
    cdef int16_t* val = <int16_t*>calloc(nodes, sizeof(int16_t))
    cdef int32_t* nchild = <int32_t*>calloc(nodes, sizeof(int32_t))      # children not yet lost
    cdef int32_t* child = <int32_t*>malloc(nodes * QS_MAX_CHILDREN * sizeof(int32_t))
    cdef int32_t* npawn = <int32_t*>calloc(nodes, sizeof(int32_t))       # in-layer children
    cdef int32_t* pred_start = <int32_t*>calloc(nodes + 1, sizeof(int32_t))
    cdef int32_t* preds = NULL
    cdef unsigned char* done = <unsigned char*>calloc(nodes, sizeof(unsigned char))
    cdef int16_t* up[2][2][64]       # [mover][horizontal][anchor]: the layer a wall leads to
    cdef int up_xf[2][2][64]
    cdef QSEvents q
    memset(up, 0, sizeof(up))
    q.size = 0
    q.cap = 4096
    q.levels = 256
    q.node = <int32_t*>malloc(q.cap * sizeof(int32_t))
    q.kind = <int32_t*>malloc(q.cap * sizeof(int32_t))
    q.next = <int32_t*>malloc(q.cap * sizeof(int32_t))
    q.head = <int32_t*>malloc(q.levels * sizeof(int32_t))
    cdef int i, a, b, tm, node, c, k, level, ev, wl[2]
    cdef int16_t cv, d
    cdef int16_t* uv
    cdef u128 t
    cdef uint64_t lh, lv, bits
    cdef QPos p
    cdef bint ok = (val != NULL and nchild != NULL and child != NULL and npawn != NULL
                    and pred_start != NULL and done != NULL and q.node != NULL
                    and q.kind != NULL and q.next != NULL and q.head != NULL)
    if not ok:
        s.error = QS_NO_MEMORY
    else:
        for i in range(q.levels):
            q.head[i] = -1
    wl[0] = w0
    wl[1] = w1
    qs_set_walls(&p, g, hw, vw)
    # forward pass: every node's children, the values of the layers above
    for a in range(nsq):
        if not ok:
            break
        if stop_check(&s.stop):
            s.error = QS_STOPPED
            ok = False
            break
        for b in range(nsq):
            if a == b or not ok:
                continue
            p.pawn[0] = s.sq_of[a]
            p.pawn[1] = s.sq_of[b]
            p.walk_ok = 0
            if (g.goal[0] & bb_bit(p.pawn[0])) and (g.goal[1] & bb_bit(p.pawn[1])):
                continue       # both pawns home: no game leads here
            for tm in range(2):
                if not ok:
                    break
                node = (a * nsq + b) * 2 + tm
                s.positions += 1
                if (g.goal[0] & bb_bit(p.pawn[0])) or (g.goal[1] & bb_bit(p.pawn[1])):
                    # over: the pawn at home has won (0 plies)
                    if g.goal[tm] & bb_bit(p.pawn[tm]):
                        ok = ok and qs_events_push(&q, 0, node, QS_EV_WIN)
                    else:
                        nchild[node] = 1
                        ok = ok and qs_events_push(&q, 0, node, QS_EV_CHILD_LOST)
                    continue
                p.to_move = tm
                t = q_pawn_targets(&p, tm)
                k = 0
                while t:
                    c = s.idx_of[bb_lsb(t)]
                    t &= t - 1
                    child[node * QS_MAX_CHILDREN + k] = ((c * nsq + b) if tm == 0 else (a * nsq + c)) * 2 + 1 - tm
                    k += 1
                lh = lv = 0
                if wl[tm] > 0:
                    p.walls_left[tm] = wl[tm]
                    q_legal_walls(&p, &lh, &lv)
                if k == 0 and lh == 0 and lv == 0:
                    child[node * QS_MAX_CHILDREN] = (a * nsq + b) * 2 + 1 - tm    # the pass
                    k = 1
                npawn[node] = k
                nchild[node] = k + u64_popcount(lh) + u64_popcount(lv)
                for i in range(2):
                    bits = lh if i == 0 else lv
                    while bits and ok:
                        c = u64_lsb(bits)
                        bits &= bits - 1
                        uv = up[tm][i][c]
                        if uv == NULL:
                            if i == 0:
                                uv = qs_layer(s, hw | ((<uint64_t>1) << c), vw,
                                              w0 - 1 if tm == 0 else w0, w1 - 1 if tm == 1 else w1,
                                              &up_xf[tm][i][c])
                            else:
                                uv = qs_layer(s, hw, vw | ((<uint64_t>1) << c),
                                              w0 - 1 if tm == 0 else w0, w1 - 1 if tm == 1 else w1,
                                              &up_xf[tm][i][c])
                            if uv == NULL:
                                ok = False
                                break
                            up[tm][i][c] = uv
                        cv = uv[qs_node(s, a, b, 1 - tm, up_xf[tm][i][c])]
                        if cv < 0:       # the opponent loses in -cv - 1 plies
                            ok = qs_events_push(&q, -cv, node, QS_EV_WIN)
                        elif cv > 0:     # the opponent wins in cv - 1 plies
                            ok = qs_events_push(&q, cv, node, QS_EV_CHILD_LOST)
    if ok:
        # predecessors inside the layer (CSR)
        for node in range(nodes):
            for k in range(npawn[node]):
                pred_start[child[node * QS_MAX_CHILDREN + k] + 1] += 1
        for node in range(nodes):
            pred_start[node + 1] += pred_start[node]
        preds = <int32_t*>malloc((pred_start[nodes] + 1) * sizeof(int32_t))
        ok = preds != NULL
        if ok:
            for node in range(nodes):
                for k in range(npawn[node]):
                    c = child[node * QS_MAX_CHILDREN + k]
                    preds[pred_start[c]] = node
                    pred_start[c] += 1
            for node in range(nodes, 0, -1):
                pred_start[node] = pred_start[node - 1]
            pred_start[0] = 0
        else:
            s.error = QS_NO_MEMORY
    # backward pass, by increasing plies: the first lost child makes a win,
    # the last child lost makes a loss, so each value is the best play's
    level = 0
    while ok and level < q.levels:
        if level >= QS_MAX_LEVEL:
            s.error = QS_TOO_DEEP
            ok = False
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
                        ok = qs_events_push(&q, level + 1, c, QS_EV_WIN)
                    else:
                        ok = qs_events_push(&q, level + 1, c, QS_EV_CHILD_LOST)
                    if not ok:
                        break
                continue
            if done[node]:
                continue
            if q.kind[ev] == QS_EV_WIN:
                val[node] = level + 1
            else:
                nchild[node] -= 1
                if nchild[node] > 0:
                    continue
                val[node] = -(level + 1)
            done[node] = 1
            ok = qs_events_push(&q, level, node, QS_EV_RESOLVED)
        level += 1
    if not ok and s.error == QS_OK:
        s.error = QS_NO_MEMORY
    free(nchild)
    free(child)
    free(npawn)
    free(pred_start)
    free(preds)
    free(done)
    free(q.node)
    free(q.kind)
    free(q.next)
    free(q.head)
    if ok and not qs_store(s, hw, vw, w0, w1, val):
        ok = False
    if not ok:
        free(val)
        s.bytes -= nodes * sizeof(int16_t)
        return NULL
    return val


cdef class QuoridorSolver:
    """Solved layers of one board size (2 players), kept between queries:
    `value(core)` solves what the position needs and returns its value
    (0 draw, d + 1 the side to move wins in d plies, -(d + 1) it loses in d).
    max_bytes bounds the memory of the table (0: no bound)."""

    cdef QSolver s
    cdef readonly int size

    def __cinit__(self, int size, uint64_t max_bytes=0):
        if size not in (3, 5, 7, 9):
            raise ValueError(f"size must be 3, 5, 7 or 9, got {size}")
        self.size = size
        if qs_init(&self.s, size, max_bytes, &_never_stop) != QS_OK:
            raise MemoryError("cannot allocate the solver's table")

    def __dealloc__(self):
        qs_free(&self.s)

    def value(self, QuoridorCore core):
        """The value of core's position for the side to move; raises
        engine.stop.Interrupted when stopped (the layers solved so far are
        kept) and MemoryError past max_bytes."""
        if core.players != 2 or core.size != self.size:
            raise ValueError(f"the solver is for {self.size}x{self.size} with 2 players")
        cdef QPos* p = &core.pos
        cdef int16_t* val
        cdef int xf
        if p.winner >= 0:
            return 1 if p.winner == p.to_move else -1
        self.s.error = QS_OK
        self.s.stop.flag = current_stop_flag()
        self.s.stop.stopped = 0
        with nogil:
            val = qs_layer(&self.s, p.hw, p.vw, p.walls_left[0], p.walls_left[1], &xf)
        self.s.stop.flag = &_never_stop
        if val == NULL:
            if self.s.error == QS_STOPPED:
                from crossridor.engine.stop import Interrupted
                raise Interrupted("solve stopped")
            if self.s.error == QS_TOO_DEEP:
                raise OverflowError(f"a position lasts more than {QS_MAX_LEVEL} plies: beyond the table's values")
            raise MemoryError(f"the solved positions need more than {self.s.max_bytes} bytes")
        return val[qs_node(&self.s, self.s.idx_of[p.pawn[0]], self.s.idx_of[p.pawn[1]], p.to_move, xf)]

    def knows(self, QuoridorCore core):
        """Is the position's layer solved (in the table)? Its value and those
        of every move from it are then read, not solved: a layer is stored
        only after every layer it leads to."""
        cdef int xf
        cdef QPos* p = &core.pos
        if core.players != 2 or core.size != self.size:
            return False
        return qs_lookup(&self.s, p.hw, p.vw, p.walls_left[0], p.walls_left[1], &xf) != NULL

    def export(self):
        """The table as (keys, values): keys 4 int64 per layer (horizontal
        walls, vertical walls, walls left 1, walls left 2), values the
        layer's nodes as int16, layers in the same order (native byte order)."""
        cdef uint64_t i, k = 0
        cdef int nodes = self.s.nodes
        keys = bytearray(self.s.count * 4 * sizeof(int64_t))
        values = bytearray(self.s.count * nodes * sizeof(int16_t))
        cdef unsigned char[:] kv = keys
        cdef unsigned char[:] vv = values
        cdef int64_t key[4]
        for i in range(self.s.cap):
            if self.s.table[i].val == NULL:
                continue
            key[0] = <int64_t>self.s.table[i].hw
            key[1] = <int64_t>self.s.table[i].vw
            key[2] = self.s.table[i].w0
            key[3] = self.s.table[i].w1
            memcpy(&kv[k * 4 * sizeof(int64_t)], key, 4 * sizeof(int64_t))
            memcpy(&vv[k * nodes * sizeof(int16_t)], self.s.table[i].val, nodes * sizeof(int16_t))
            k += 1
        return bytes(keys), bytes(values)

    def load(self, const unsigned char[:] keys, const unsigned char[:] values):
        """Add the layers of an exported table (ValueError when the data do
        not describe layers of this board; MemoryError past max_bytes)."""
        cdef int nodes = self.s.nodes
        cdef uint64_t n = keys.shape[0] // (4 * sizeof(int64_t)), i
        cdef int64_t key[4]
        cdef int16_t* val
        cdef int xf
        if keys.shape[0] != n * 4 * sizeof(int64_t) or values.shape[0] != n * nodes * sizeof(int16_t):
            raise ValueError(f"a table of {n} layers needs {n * nodes * 2} bytes of values for size {self.size}")
        for i in range(n):
            memcpy(key, &keys[i * 4 * sizeof(int64_t)], 4 * sizeof(int64_t))
            if ((<uint64_t>key[0]) & ~self.s.g.anchors) or ((<uint64_t>key[1]) & ~self.s.g.anchors) \
                    or not 0 <= key[2] <= 1000 or not 0 <= key[3] <= 1000:
                raise ValueError(f"layer {i} is not a wall configuration of size {self.size}")
            if qs_lookup(&self.s, key[0], key[1], key[2], key[3], &xf) != NULL:
                continue
            if xf != 0 or qs_cap_walls(self.s.g, key[0], key[1], key[2]) != key[2] \
                    or qs_cap_walls(self.s.g, key[0], key[1], key[3]) != key[3]:
                raise ValueError(f"layer {i} is not in the solver's canonical form")
            if not qs_charge(&self.s, nodes * sizeof(int16_t)):
                raise MemoryError(f"the table needs more than {self.s.max_bytes} bytes")
            val = <int16_t*>malloc(nodes * sizeof(int16_t))
            if val == NULL:
                raise MemoryError("cannot allocate a layer")
            memcpy(val, &values[i * nodes * sizeof(int16_t)], nodes * sizeof(int16_t))
            if not qs_store(&self.s, key[0], key[1], key[2], key[3], val):
                free(val)
                raise MemoryError(f"the table needs more than {self.s.max_bytes} bytes")

    @property
    def layers(self):
        """Wall configurations solved (with their walls-left counts)."""
        return self.s.count

    @property
    def positions(self):
        """Positions (nodes of the solved layers) valued so far."""
        return self.s.positions

    @property
    def bytes(self):
        """Memory held by the table: the layers' values and the slots."""
        return self.s.bytes
