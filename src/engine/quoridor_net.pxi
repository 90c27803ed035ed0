# Quoridor's network evaluation (eval=net): a first layer over one-hot
# inputs, quantised to integers, added to the learned linear model of
# quoridor_features.pxi:
#
#     z = w . f + sum_j v_j crelu(b_j + sum_{i active} S_ij)
#
# crelu(x) = min(max(x, 0), 1). Every input is 0 or 1 (NNUE-style), so the
# first layer is a sum of the weight rows of the active inputs: 14 to 40
# rows of QN_UNITS int32 adds, no multiplies. It is recomputed at each call
# from the position and its features (the shortest-path floods of the
# features cost more), so the search needs no make/unmake hooks.
#
# Inputs of a board of size n (m = n - 1), seen from the side to move
# ("me"), rows turned for player 1 so that "me" always moves up (row r ->
# n - 1 - r, wall anchor row r -> m - 1 - r), in blocks of:
#     n^2   my pawn, square r * n + c        n^2  the opponent's pawn
#     m^2   a horizontal wall, anchor r * m + c   m^2  a vertical wall
#     11    walls in my hand, min(w, 10)     11   the opponent's
#     32    my shortest-path length, min(d, 31)   32  the opponent's
#     32    squares on my shortest paths, min(s, 31)  32  the opponent's
#     8     my narrowest layer, min(k, 7)    8    the opponent's
#     3     race (feature 7: -1, 0, +1)      2    adjacent pawns (0, 1)
# (461 on 9x9; the features of quoridor_features.pxi). Integers: first-layer
# weights and biases in units of 1/QN_W1_SCALE (int16 in the file, int32
# here so that a row adds without widening), int32 accumulators, the
# activation crelu as 0..QN_ACT_MAX, output weights in units of
# 1/QN_W2_SCALE; units beyond a file's are zero.
# crossridor.games.quoridor.training.net_share is the numpy reference of
# exactly this arithmetic.

from libc.stdint cimport int16_t, int32_t

cdef enum:
    QN_FEATURES = 14          # Q_NF of quoridor_features.pxi
    QN_UNITS = 32             # units at most (a file's are padded with zeros; qn_sum_rows is written for 32)
    QN_HAND = 11              # walls in hand, one-hot 0..10 (10 or more)
    QN_DIST = 32
    QN_SQUARES = 32
    QN_NECK = 8
    QN_FEATURE_INPUTS = 2 * QN_HAND + 2 * QN_DIST + 2 * QN_SQUARES + 2 * QN_NECK + 3 + 2
    QN_MAX_SPARSE = 2 * 81 + 2 * 64 + QN_FEATURE_INPUTS
    QN_MAX_ACTIVE = 2 + 128 + 10
    QN_W1_SCALE = 1024        # first layer: 1.0 = 1024
    QN_ACT_SHIFT = 3          # crelu 0..1024 -> 0..128
    QN_ACT_MAX = 128
    QN_W2_SCALE = 256         # output layer: 1.0 = 256
    QN_MAX_BIAS = 1 << 24

cdef extern from *:
    """
    /* The first layer's row sums in SSE2 vectors (GCC/Clang vector types:
       left to itself the compiler unrolled the row loop with a scalar
       inner loop). Rows of 32 int32; unaligned loads. */
    typedef int32_t qn_v4 __attribute__((vector_size(16), aligned(4)));
    static inline void qn_sum_rows(int32_t* acc, const int32_t* rows, const int* idx, int k) {
        qn_v4 a0, a1, a2, a3, a4, a5, a6, a7;
        const qn_v4* r;
        int i;
        r = (const qn_v4*)acc;
        a0 = r[0]; a1 = r[1]; a2 = r[2]; a3 = r[3]; a4 = r[4]; a5 = r[5]; a6 = r[6]; a7 = r[7];
        for (i = 0; i < k; i++) {
            r = (const qn_v4*)(rows + 32 * idx[i]);
            a0 += r[0]; a1 += r[1]; a2 += r[2]; a3 += r[3]; a4 += r[4]; a5 += r[5]; a6 += r[6]; a7 += r[7];
        }
        qn_v4* out = (qn_v4*)acc;
        out[0] = a0; out[1] = a1; out[2] = a2; out[3] = a3; out[4] = a4; out[5] = a5; out[6] = a6; out[7] = a7;
    }
    """
    void qn_sum_rows(int32_t* acc, const int32_t* rows, const int* idx, int k) noexcept nogil


ctypedef struct QNet:
    int units                 # 0: no network
    int n                     # the board size it was trained on
    int sparse                # inputs on that board
    int32_t b1[QN_UNITS]
    int32_t ws[QN_MAX_SPARSE][QN_UNITS]   # input by input: the units accumulate side by side
    int32_t w2[QN_UNITS]


cdef inline int qn_sparse_count(int n) noexcept nogil:
    return 2 * n * n + 2 * (n - 1) * (n - 1) + QN_FEATURE_INPUTS


cdef inline int qn_cap(float x, int top) noexcept nogil:
    """A non-negative count as a bucket 0..top - 1 (the last: top - 1 or more)."""
    cdef int v = <int>x
    return 0 if v < 0 else (v if v < top else top - 1)


cdef int qn_active(const QPos* p, const float* f, int* idx) noexcept nogil:
    """The active inputs of a 2-player position with features f (layout
    above); returns their number."""
    cdef int n = p.g.n, m = n - 1, me = p.to_move, op = 1 - p.to_move, k = 0, a, r, c, sq, w
    cdef bint flip = me == 1
    cdef uint64_t walls
    for w in range(2):
        sq = p.pawn[me if w == 0 else op]
        r = sq // SQ
        c = sq % SQ
        if flip:
            r = n - 1 - r
        idx[k] = w * n * n + r * n + c
        k += 1
    for w in range(2):
        walls = p.hw if w == 0 else p.vw
        while walls:
            a = u64_lsb(walls)
            walls &= walls - 1
            r = a // AS
            c = a % AS
            if flip:
                r = m - 1 - r
            idx[k] = 2 * n * n + w * m * m + r * m + c
            k += 1
    a = 2 * n * n + 2 * m * m
    idx[k] = a + qn_cap(p.walls_left[me], QN_HAND)
    a += QN_HAND
    idx[k + 1] = a + qn_cap(p.walls_left[op], QN_HAND)
    a += QN_HAND
    idx[k + 2] = a + qn_cap(f[1], QN_DIST)
    a += QN_DIST
    idx[k + 3] = a + qn_cap(f[2], QN_DIST)
    a += QN_DIST
    idx[k + 4] = a + qn_cap(f[8], QN_SQUARES)
    a += QN_SQUARES
    idx[k + 5] = a + qn_cap(f[9], QN_SQUARES)
    a += QN_SQUARES
    idx[k + 6] = a + qn_cap(f[10], QN_NECK)
    a += QN_NECK
    idx[k + 7] = a + qn_cap(f[11], QN_NECK)
    a += QN_NECK
    idx[k + 8] = a + qn_cap(f[7] + 1, 3)
    a += 3
    idx[k + 9] = a + qn_cap(f[12], 2)
    return k + 10


cdef double qn_logit(const QPos* p, const QNet* N, const float* f) noexcept nogil:
    """The network's share of the logit (f: the features of p)."""
    cdef int32_t acc[QN_UNITS]
    cdef int idx[QN_MAX_ACTIVE]
    cdef int k = qn_active(p, f, idx), j
    cdef int32_t out = 0, h
    memcpy(acc, N.b1, sizeof(acc))
    qn_sum_rows(acc, &N.ws[0][0], idx, k)     # acc[j] += ws[idx[i]][j] for every active input i
    for j in range(QN_UNITS):
        h = acc[j]
        h = 0 if h < 0 else (QN_W1_SCALE if h > QN_W1_SCALE else h)
        out += (h >> QN_ACT_SHIFT) * N.w2[j]
    return out / <double>(QN_ACT_MAX * QN_W2_SCALE)


def q_fill_net_inputs(QuoridorCore core, unsigned char[::1] out):
    """Fill out (uint8, length qn_sparse_inputs(n)) with the 0/1 network
    inputs of the core's 2-player position (layout in quoridor_net.pxi)."""
    cdef int idx[QN_MAX_ACTIVE]
    cdef float f[QN_FEATURES]
    cdef int k, i, s
    if core.pos.g.nplayers != 2:
        raise ValueError("network inputs exist for 2-player Quoridor only")
    s = qn_sparse_count(core.pos.g.n)
    if out.shape[0] != s:
        raise ValueError(f"the network input buffer needs {s} bytes on this board, got {out.shape[0]}")
    memset(&out[0], 0, s)
    q_features(&core.pos, f)
    k = qn_active(&core.pos, f, idx)
    for i in range(k):
        out[idx[i]] = 1


QN_NET_SCALES = {"w1": QN_W1_SCALE, "act_shift": QN_ACT_SHIFT, "act_max": QN_ACT_MAX,
                 "w2": QN_W2_SCALE, "max_bias": QN_MAX_BIAS, "max_units": QN_UNITS,
                 "feature_inputs": QN_FEATURE_INPUTS}


def qn_sparse_inputs(int n):
    """The number of network inputs on an n x n board."""
    return qn_sparse_count(n)
