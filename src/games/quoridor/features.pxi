# Quoridor's learned evaluation: a feature vector of a 2-player position and
# a linear model over it, evaluated in C at the search leaves.
#
# Training happens in Python with numpy (crossridor.games.quoridor.training);
# the weights come from a versioned file (crossridor.games.quoridor.weights)
# and reach the searches as a QLearned struct (option eval=learned).
#
# Feature vector (float32, Q_NF = 21 entries), from the point of view of the
# side to move ("me"; the other player is "op"). Steps are shortest-path
# lengths to the goal side, pawns ignored, as the classic evaluation uses.
#    0  bias            1
#    1  d_me            my shortest-path length
#    2  d_op            the opponent's
#    3  walls_me        walls in my hand
#    4  walls_op        walls in the opponent's hand
#    5  lone_me         walls_me when the opponent has none left, else 0
#    6  lone_op         walls_op when I have none left, else 0
#    7  race            both out of walls: +1 if d_me <= d_op (I move first:
#                       I win the race, jumps aside), -1 if not; else 0
#    8  squares_me      squares lying on some shortest path of mine (pawn
#                       square excluded): many means hard to block
#    9  squares_op      the opponent's
#   10  neck_me         the narrowest layer of my shortest paths (fewest
#                       squares at one distance from my pawn): 1 means one
#                       wall there may lengthen every shortest path
#   11  neck_op         the opponent's
#   12  adjacent        1 if the pawns stand side by side with no wall
#                       between them (a jump is possible), else 0
#   13  lead_x_walls    (d_op - d_me) * (walls_me + walls_op) / 10: how a
#                       path lead weighs with many walls still in hand
#   14  lead_share      (d_op - d_me) / (d_me + d_op + 1): a lead of one step
#                       weighs more near the goals than far from them
#   15  near_me         1 / (d_me + 1): closeness to the goal, steep at the end
#   16  near_op         1 / (d_op + 1)
#   17  few_walls_me    min(walls_me, 3): the first walls in hand are worth
#   18  few_walls_op    min(walls_op, 3)   more than the tenth
#   19  threat_op       the most steps one wall of mine can add to the
#                       opponent's shortest path, among the walls that block
#                       every shortest-path step across one layer of its paths
#                       (the chokepoints); 0 if I have no wall left. The side
#                       to move's threat only: it can be played at once, and
#                       the other side's cost as much again for less gain
#                       (docs/learning.md)
#   20  threat_near_op  threat_op * near_op: a chokepoint near the goal weighs more
# The learned score is the logit of the side to move winning, a linear part
# plus an optional hidden layer of ReLU units (H = 0: linear only):
#     z = w . f + sum_j v_j max(0, W_j . f)      (f[0] = 1 gives the biases);
# alpha-beta uses round(200 z) centi-steps (tanh(x/400) = 2 sigmoid(x/200) - 1,
# so the scale matches the classic score's), MCTS the value tanh(z / 2).

from libc.stdint cimport int16_t

cdef enum:
    Q_NF = 21                # features
    Q_PATH_SLOTS = 1 << 14   # a search's cache of path statistics (QPathSlot)
    Q_EVAL_SLOTS = 1 << 16   # a search's cache of learned scores (QEvalSlot)
    Q_FIRST_THREAT = 19      # features 19-20: the threat
    Q_LEARNED_SCALE = 200    # centi-steps per unit of logit
    Q_LEARNED_CLAMP = 90000  # |score| stays below the win scores (S_WIN_BOUND)
    Q_MAX_HIDDEN = 64        # hidden units at most

ctypedef struct QLearned:
    float w[Q_NF]                    # the linear part
    int hidden                       # hidden units in use
    float w1[Q_NF][Q_MAX_HIDDEN]     # w1[i][j]: input i's weight in unit j (this
                                     # way round the units accumulate side by side)
    float w2[Q_MAX_HIDDEN]           # unit j's output weight
    bint threats                     # some weight of features 19-20 is not 0


ctypedef struct QPathSlot:
    # one player's path statistics (q_path_stats) by walls and pawn: they
    # depend on nothing else, and a search meets the same walls and pawn
    # again and again (the other pawn moves, moves transpose)
    uint64_t hw, vw
    int key                          # pawn * 4 + player + 1; 0: empty
    int16_t dist, squares, neck
    int16_t threat                   # feature 19; -1: not computed yet


ctypedef struct QEvalSlot:
    uint64_t key                     # the position's hash
    int score
    int kind                         # 0: empty, 1: exact, 2: a lower bound


cdef inline uint64_t q_anchor_at(const QGeom* g, int sq, int dc, int dr) noexcept nogil:
    """The anchor bit of square sq moved by (dc, dr), 0 off the anchors."""
    cdef int c = sq % SQ + dc, r = sq // SQ + dr
    if c < 0 or r < 0 or c >= g.mw or r >= g.mh:
        return 0
    return (<uint64_t>1) << (r * AS + c)


cdef inline int q_reflood(const QPos* p, const u128* from_goal, int d, u128 ends, u128 target) noexcept nogil:
    """The goal flood of from_goal (q_goal_flood's `within`) again, after a
    wall has cut the steps between squares of `ends`, one of them reached
    on the way to target (d steps from the goal side): the flood up to the
    nearest of ends is as it was, so it resumes there."""
    cdef int m = 0
    while m < d and not (from_goal[m] & ends):
        m += 1
    return q_flood_on(p, from_goal[m], m, target)


cdef int q_cut_gain(QPos* p, int player, int d, const u128* from_goal, u128 n, u128 s, u128 e, u128 w,
                    uint64_t* seen_h, uint64_t* seen_v) noexcept nogil:
    """The most steps a free wall slot (no overlap, no crossing) adds to
    player's path of length d, among the slots not in seen that block every
    step of n, s, e, w (the steps northwards ... westwards, as source
    squares, of one layer boundary of player's shortest paths; from_goal:
    the flood that found them). A slot that walls player in is skipped. The
    slots tried are added to seen."""
    cdef const QGeom* g = p.g
    cdef uint64_t H, V
    cdef u128 b, cn = p.can_n, cs = p.can_s, ce = p.can_e, cw = p.can_w
    cdef int sq, a, nd, best = 0
    q_free_slots(g, p.hw, p.vw, &H, &V)
    H &= ~seen_h[0]
    V &= ~seen_v[0]
    if e | w:
        H = 0       # a horizontal wall blocks no sideways step
    if n | s:
        V = 0
    # each step: the two anchors of the walls across it (q_walls_blocking's)
    b = n
    while b:
        sq = bb_lsb(b)
        b &= b - 1
        H &= q_anchor_at(g, sq, 0, 0) | q_anchor_at(g, sq, -1, 0)
    b = s
    while b:
        sq = bb_lsb(b)
        b &= b - 1
        H &= q_anchor_at(g, sq, 0, -1) | q_anchor_at(g, sq, -1, -1)
    b = e
    while b:
        sq = bb_lsb(b)
        b &= b - 1
        V &= q_anchor_at(g, sq, 0, 0) | q_anchor_at(g, sq, 0, -1)
    b = w
    while b:
        sq = bb_lsb(b)
        b &= b - 1
        V &= q_anchor_at(g, sq, -1, 0) | q_anchor_at(g, sq, -1, -1)
    seen_h[0] |= H
    seen_v[0] |= V
    while H:
        a = u64_lsb(H)
        H &= H - 1
        p.can_n = cn & ~g.h_n[a]
        p.can_s = cs & ~g.h_s[a]
        nd = q_reflood(p, from_goal, d, g.h_n[a] | g.h_s[a], bb_bit(p.pawn[player]))
        if nd != Q_NO_PATH and nd - d > best:
            best = nd - d
    p.can_n = cn
    p.can_s = cs
    while V:
        a = u64_lsb(V)
        V &= V - 1
        p.can_e = ce & ~g.v_e[a]
        p.can_w = cw & ~g.v_w[a]
        nd = q_reflood(p, from_goal, d, g.v_e[a] | g.v_w[a], bb_bit(p.pawn[player]))
        if nd != Q_NO_PATH and nd - d > best:
            best = nd - d
    p.can_e = ce
    p.can_w = cw
    return best


ctypedef struct QChokes:
    # the chokepoints of one player's shortest paths, as q_path_stats found
    # them, for the threat to be computed later only if it is needed
    u128 from_goal[Q_FLOOD_LAYERS]
    int d
    int count                        # boundaries; -1: the threat is known (`known`)
    int known
    QPathSlot* slot                  # where to keep it, NULL: nowhere
    u128 steps[Q_FLOOD_LAYERS][4]    # each boundary's steps: north, south, east, west


cdef inline QPathSlot* q_path_slot(const QPos* p, int player, QPathSlot* cache) noexcept nogil:
    """The cache slot of player's path statistics in this position (NULL
    without a cache); it holds them if its key, walls and pawn match."""
    cdef int key = p.pawn[player] * 4 + player + 1
    cdef uint64_t h
    if cache == NULL:
        return NULL
    h = (p.hw * <uint64_t>0x9E3779B97F4A7C15ULL) ^ (p.vw * <uint64_t>0xC2B2AE3D27D4EB4FULL) \
        ^ (<uint64_t>key * <uint64_t>0x165667B19E3779F9ULL)
    return &cache[(h >> 40) & (Q_PATH_SLOTS - 1)]


cdef inline bint q_slot_holds(const QPos* p, int player, const QPathSlot* slot) noexcept nogil:
    return slot != NULL and slot.key == p.pawn[player] * 4 + player + 1 and slot.hw == p.hw \
        and slot.vw == p.vw


cdef inline void q_keep_path(const QPos* p, int player, QPathSlot* slot, int dist, int squares, int neck,
                             int threat) noexcept nogil:
    if slot != NULL:
        slot.hw = p.hw
        slot.vw = p.vw
        slot.key = p.pawn[player] * 4 + player + 1
        slot.dist = dist
        slot.squares = squares
        slot.neck = neck
        slot.threat = threat


cdef int q_chokes_threat(QPos* p, int player, QChokes* c) noexcept nogil:
    """The threat (feature 19) of the chokepoints q_path_stats recorded in
    c: the same walls tried in the same order as q_path_stats would."""
    cdef uint64_t seen_h = 0, seen_v = 0
    cdef int i, gain, best = 0
    if c.count < 0:
        return c.known
    for i in range(c.count):
        gain = q_cut_gain(p, player, c.d, c.from_goal, c.steps[i][0], c.steps[i][1], c.steps[i][2],
                          c.steps[i][3], &seen_h, &seen_v)
        if gain > best:
            best = gain
    if q_slot_holds(p, player, c.slot):
        c.slot.threat = best
    return best


cdef void q_path_stats(QPos* p, int player, int* dist, int* squares, int* neck, int* threat,
                       QPathSlot* cache, QChokes* chokes=NULL) noexcept nogil:
    """Shortest-path length of player, the number of squares on some
    shortest path (pawn excluded) and the narrowest layer of them; with
    `threat`, also the most steps one wall across a layer boundary of those
    paths adds (feature 19); with `chokes` instead, those boundaries are
    recorded for q_chokes_threat. All are looked up in / stored to `cache`
    (NULL: none). The position's walls are changed while a wall is tried,
    then restored."""
    cdef QPathSlot* slot = q_path_slot(p, player, cache)
    if q_slot_holds(p, player, slot):
        dist[0] = slot.dist
        squares[0] = slot.squares
        neck[0] = slot.neck
        if threat == NULL and chokes == NULL:
            return
        if slot.threat >= 0:
            if threat != NULL:
                threat[0] = slot.threat
            else:
                chokes.count = -1
                chokes.known = slot.threat
            return
    cdef u128 own_flood[Q_FLOOD_LAYERS]
    cdef u128* from_goal = own_flood
    if chokes != NULL:
        from_goal = &chokes.from_goal[0]
    cdef u128 me = bb_bit(p.pawn[player]), on_path, layer, n, s, e, w
    cdef int d = q_goal_flood(p, player, me, from_goal), i, width, gain
    cdef uint64_t seen_h = 0, seen_v = 0
    if threat != NULL:
        threat[0] = 0
    if chokes != NULL:
        chokes.d = d
        chokes.slot = slot
        chokes.count = 0
    if d == Q_NO_PATH:
        dist[0] = Q_NO_PATH
        squares[0] = 0
        neck[0] = 0
        q_keep_path(p, player, slot, Q_NO_PATH, 0, 0, 0 if threat != NULL else -1)
        return
    dist[0] = d
    squares[0] = 0
    neck[0] = 0 if d == 0 else 1000
    # walk forward from the pawn: the squares at pawn-distance i + 1 on a shortest path
    on_path = me
    for i in range(d):
        layer = from_goal[d - i - 1] & ~(from_goal[d - i - 2] if d - i - 2 >= 0 else <u128>0)
        if threat != NULL or chokes != NULL:
            # the shortest-path steps across this boundary; one wall can
            # block them all only if there are at most 2
            n = on_path & p.can_n & (layer >> SQ)
            s = on_path & p.can_s & (layer << SQ)
            e = on_path & p.can_e & (layer >> 1)
            w = on_path & p.can_w & (layer << 1)
            if bb_popcount(n) + bb_popcount(s) + bb_popcount(e) + bb_popcount(w) > 2:
                pass
            elif threat != NULL:
                gain = q_cut_gain(p, player, d, from_goal, n, s, e, w, &seen_h, &seen_v)
                if gain > threat[0]:
                    threat[0] = gain
            else:
                chokes.steps[chokes.count][0] = n
                chokes.steps[chokes.count][1] = s
                chokes.steps[chokes.count][2] = e
                chokes.steps[chokes.count][3] = w
                chokes.count += 1
        on_path = q_step(p, on_path) & layer
        width = bb_popcount(on_path)
        squares[0] += width
        if width < neck[0]:
            neck[0] = width
    q_keep_path(p, player, slot, dist[0], squares[0], neck[0], threat[0] if threat != NULL else -1)


cdef void q_features(QPos* p, float* f, QPathSlot* cache, bint threats, QChokes* chokes=NULL) noexcept nogil:
    """Fill f[0..Q_NF) for a 2-player position (layout above); cache: the
    search's path statistics (NULL: none). Without `threats`, features 19-20 are 0
    (weights that do not use them need not pay for them); with `chokes`
    (and no `threats`), the other side's chokepoints are recorded there for
    q_chokes_threat."""
    cdef int me = p.to_move, op = 1 - p.to_move
    cdef int d_me, d_op, sq_me, sq_op, neck_me, neck_op
    cdef int w_me = p.walls_left[me], w_op = p.walls_left[op]
    cdef int a = p.pawn[me], b = p.pawn[op]
    cdef u128 ba = bb_bit(a)
    cdef int threat = 0
    q_path_stats(p, me, &d_me, &sq_me, &neck_me, NULL, cache)
    q_path_stats(p, op, &d_op, &sq_op, &neck_op, &threat if threats and w_me > 0 else NULL, cache,
                 chokes if not threats else NULL)
    f[0] = 1.0
    f[1] = d_me
    f[2] = d_op
    f[3] = w_me
    f[4] = w_op
    f[5] = w_me if w_op == 0 else 0
    f[6] = w_op if w_me == 0 else 0
    if w_me == 0 and w_op == 0:
        f[7] = 1.0 if d_me <= d_op else -1.0
    else:
        f[7] = 0.0
    f[8] = sq_me
    f[9] = sq_op
    f[10] = neck_me
    f[11] = neck_op
    f[12] = 1.0 if (q_step(p, ba) & bb_bit(b)) else 0.0
    f[13] = (d_op - d_me) * (w_me + w_op) / 10.0
    f[14] = <float>(d_op - d_me) / (d_me + d_op + 1)
    f[15] = 1.0 / (d_me + 1)
    f[16] = 1.0 / (d_op + 1)
    f[17] = w_me if w_me < 3 else 3
    f[18] = w_op if w_op < 3 else 3
    f[19] = threat
    f[20] = threat * f[16]


cdef double q_learned_logit(QPos* p, const QLearned* L, QPathSlot* cache, double cut, bint* exact) noexcept nogil:
    """The learned logit of the side to move winning (2 players). With
    `exact` (linear weights only), a logit >= cut may stop before the
    threat (features 19-20) and be a lower bound of the true one: exact[0]
    says which. The threat can only raise the logit while
    w[19] + w[20] * near_op >= 0, which is checked here every time."""
    cdef float f[Q_NF]
    cdef float h[Q_MAX_HIDDEN]
    cdef double z = 0.0
    cdef float x
    cdef int i, j, nh = L.hidden, threat
    cdef QChokes chokes
    if exact != NULL and nh == 0 and L.threats and p.walls_left[p.to_move] > 0:
        exact[0] = 1
        q_features(p, f, cache, False, &chokes)
        for i in range(Q_FIRST_THREAT):
            z += L.w[i] * f[i]
        if z >= cut and L.w[19] + L.w[20] * f[16] >= 0.0:
            exact[0] = 0
            return z
        # the rest as q_features and the sum below would give it, to the bit
        threat = q_chokes_threat(p, 1 - p.to_move, &chokes)
        f[19] = threat
        f[20] = threat * f[16]
        z += L.w[19] * f[19]
        z += L.w[20] * f[20]
        return z
    if exact != NULL:
        exact[0] = 1
    q_features(p, f, cache, L.threats)
    for i in range(Q_NF):
        z += L.w[i] * f[i]
    if nh == 0:
        return z
    for j in range(nh):
        h[j] = 0.0
    for i in range(Q_NF):
        x = f[i]
        for j in range(nh):
            h[j] += L.w1[i][j] * x
    for j in range(nh):
        if h[j] > 0.0:
            z += L.w2[j] * h[j]
    return z


cdef int q_learned_score(QPos* p, const QLearned* L, QPathSlot* cache, int cut=Q_LEARNED_CLAMP + 1,
                         bint* exact=NULL) noexcept nogil:
    """The learned score in centi-steps, from the side to move's point of
    view; with `exact`, a score >= cut may be a lower bound (q_learned_logit)."""
    cdef double x = Q_LEARNED_SCALE * q_learned_logit(p, L, cache, cut / <double>Q_LEARNED_SCALE, exact)
    if x > Q_LEARNED_CLAMP:
        return Q_LEARNED_CLAMP
    if x < -Q_LEARNED_CLAMP:
        return -Q_LEARNED_CLAMP
    return <int>(x + 0.5) if x >= 0 else -<int>(0.5 - x)


cdef void q_learned_values(QPos* p, const QLearned* L, double* out, QPathSlot* cache) noexcept nogil:
    """Per-player values in (-1, 1) of a 2-player position, for the MCTS leaf."""
    cdef double v = tanh(q_learned_logit(p, L, cache, 0.0, NULL) / 2.0)
    out[p.to_move] = v
    out[1 - p.to_move] = -v


cdef class QuoridorWeights:
    """The weights of the learned evaluation, held as a C struct for the
    searches. Built by crossridor.games.quoridor.weights from a checked file."""

    cdef QLearned learned

    def __cinit__(self, weights, hidden=(), output=()):
        """weights: Q_NF linear weights; hidden: H rows of Q_NF input
        weights; output: H output weights (H <= Q_MAX_HIDDEN)."""
        rows = [_finite_floats(row, Q_NF, f"hidden unit {j}") for j, row in enumerate(hidden)]
        if len(rows) > Q_MAX_HIDDEN:
            raise ValueError(f"the learned evaluation has at most {Q_MAX_HIDDEN} hidden units, got {len(rows)}")
        out = _finite_floats(output, len(rows), "the output weights")
        for i, x in enumerate(_finite_floats(weights, Q_NF, "the linear weights")):
            self.learned.w[i] = x
        self.learned.hidden = len(rows)
        for j, row in enumerate(rows):
            self.learned.w2[j] = out[j]
            for i, x in enumerate(row):
                self.learned.w1[i][j] = x
        self.learned.threats = any(x != 0 for row in [self.weights, *self.hidden] for x in row[Q_FIRST_THREAT:])

    @property
    def weights(self):
        return [self.learned.w[i] for i in range(Q_NF)]

    @property
    def hidden(self):
        return [[self.learned.w1[i][j] for i in range(Q_NF)] for j in range(self.learned.hidden)]

    @property
    def output(self):
        return [self.learned.w2[j] for j in range(self.learned.hidden)]


def _finite_floats(values, n, what):
    values = [float(x) for x in values]
    if len(values) != n:
        raise ValueError(f"{what}: {n} weights expected, got {len(values)}")
    for i, x in enumerate(values):
        if x != x or x in (float("inf"), float("-inf")):
            raise ValueError(f"{what}: weight {i} is not a finite number: {x!r}")
    return values


Q_NUM_FEATURES = Q_NF
Q_MAX_HIDDEN_UNITS = Q_MAX_HIDDEN


cdef inline const QLearned* learned_pointer(object weights) except? NULL:
    """The struct behind the search option `learned` (NULL: the classic evaluation)."""
    if weights is None:
        return NULL
    return &(<QuoridorWeights?>weights).learned


def q_fill_features(QuoridorCore core, float[::1] out):
    """Fill out (float32, length Q_NUM_FEATURES) with the features of the
    core's position (2 players; see quoridor/features.pxi for the layout)."""
    if core.pos.g.nplayers != 2:
        raise ValueError("features exist for 2-player Quoridor only")
    if out.shape[0] != Q_NF:
        raise ValueError(f"the feature buffer needs {Q_NF} floats, got {out.shape[0]}")
    q_features(&core.pos, &out[0], NULL, True)


def q_learned_eval(QuoridorCore core, QuoridorWeights weights, cut=None):
    """The learned score (centi-steps, side to move) of the core's position.
    With an int `cut`: (score, exact) as the search's leaves get it, where a
    score >= cut may be a lower bound (exact False)."""
    cdef bint exact
    cdef int c, v
    if core.pos.g.nplayers != 2:
        raise ValueError("the learned evaluation is for 2-player Quoridor only")
    if cut is None:
        return q_learned_score(&core.pos, &weights.learned, NULL)
    c = max(-Q_LEARNED_CLAMP - 1, min(Q_LEARNED_CLAMP + 1, int(cut)))   # scores lie within the clamp
    v = q_learned_score(&core.pos, &weights.learned, NULL, c, &exact)
    return v, bool(exact)


def q_time_eval(QuoridorCore core, long long calls, QuoridorWeights weights=None):
    """Seconds for `calls` evaluations of the core's position: the learned
    one with weights, else the classic one (bench/)."""
    cdef long long i
    cdef long long acc = 0
    cdef int dist[4]
    cdef const QLearned* L = &weights.learned if weights is not None else NULL
    cdef double start = now_seconds()
    with nogil:
        for i in range(calls):
            if L != NULL:
                acc += q_learned_score(&core.pos, L, NULL)   # no cache: an evaluation's full cost
            else:
                q_distances(&core.pos, dist)
                acc += q_score(&core.pos, dist, core.pos.to_move, S_WALL, S_TEMPO, S_LONE_WALL)
    return now_seconds() - start, acc
