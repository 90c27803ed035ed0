# A solved layer's values, stored small (the solver's levels, in memory and
# in table folders).
#
# Most nodes of a layer are worth what a race of two pawns that ignore each
# other gives: each pawn at its distance to its goal side through the walls,
# the side to move winning when it is no farther. A layer's values are
# stored as their differences from that prediction, mostly zeros, run-length
# coded: a byte t < 128 stands for t + 1 zero differences, a byte t >= 128
# is followed by t - 127 differences, one byte each. Differences are taken
# modulo 256, so every value decodes exactly whatever the prediction: the
# decoded layer is the solved one, byte for byte.
#
# The prediction is a function of the position alone, so it is the same in
# a layer and in each of its symmetric images: the solver reads a child
# layer's values in its own coordinates (the distances of the walls as
# placed) and the differences in the stored image's.

cdef void qc_init_predictions(unsigned char* pred) noexcept nogil:
    """pred[dm * (QC_FAR + 1) + do]: the value (mod 256) of a node whose
    side to move is dm from its goal side and the other pawn do from its."""
    cdef int dm, do, v
    for dm in range(QC_FAR + 1):
        for do in range(QC_FAR + 1):
            if dm == QC_FAR or do == QC_FAR:
                v = 0                       # a pawn that cannot arrive: no guess
            elif dm == 0:
                v = 0 if do == 0 else 1     # both home: no node; the mover home: it has won
            elif do == 0:
                v = -1                      # the other pawn is home: lost
            elif dm <= do:
                v = 2 * dm                  # the mover arrives first: a win in 2 dm - 1 plies
            else:
                v = -(2 * do + 1)           # the other pawn arrives first: a loss in 2 do plies
            pred[dm * (QC_FAR + 1) + do] = <unsigned char>(v & 255)


cdef void qc_distances(const QGeom* g, const int* idx_of, int nsq, uint64_t hw, uint64_t vw,
                       unsigned char* d0, unsigned char* d1) noexcept nogil:
    """Each compact square's distance to player 1's goal side (d0) and to
    player 2's (d1), through these walls (QC_FAR: none)."""
    cdef QPos p
    cdef u128 reach, front, t
    cdef unsigned char* d
    cdef int player, i, k
    qs_set_walls(&p, g, hw, vw)
    for player in range(2):
        d = d0 if player == 0 else d1
        for i in range(nsq):
            d[i] = QC_FAR
        reach = front = g.goal[player]
        k = 0
        while front:
            t = front
            while t:
                d[idx_of[bb_lsb(t)]] = k
                t &= t - 1
            front = q_step(&p, front) & g.board & ~reach
            reach |= front
            k += 1


cdef inline Py_ssize_t qc_bound(int nodes) noexcept nogil:
    """The most bytes a layer's code takes (every difference a literal)."""
    return nodes + nodes // QC_RUN + 1


cdef Py_ssize_t qc_encode(const QSolver* s, uint64_t hw, uint64_t vw, const int8_t* vals,
                          unsigned char* diff, unsigned char* out) noexcept nogil:
    """The code of a layer's values (its stored walls hw, vw) into out
    (qc_bound bytes at least), through diff (nodes bytes); its length."""
    cdef unsigned char d0[81]
    cdef unsigned char d1[81]
    cdef int a, b, i, j, nsq = s.nsq, nodes = s.nodes, run
    cdef const unsigned char* pred = s.pred
    cdef Py_ssize_t n = 0
    qc_distances(s.g, s.idx_of, nsq, hw, vw, d0, d1)
    for a in range(nsq):
        for b in range(nsq):
            i = (a * nsq + b) * 2
            if a == b:
                diff[i] = <unsigned char>vals[i]
                diff[i + 1] = <unsigned char>vals[i + 1]
            else:
                diff[i] = <unsigned char>(<unsigned char>vals[i] - pred[d0[a] * (QC_FAR + 1) + d1[b]])
                diff[i + 1] = <unsigned char>(<unsigned char>vals[i + 1] - pred[d1[b] * (QC_FAR + 1) + d0[a]])
    i = 0
    while i < nodes:
        if diff[i] == 0:
            run = 1
            while run < QC_RUN and i + run < nodes and diff[i + run] == 0:
                run += 1
            out[n] = <unsigned char>(run - 1)
            n += 1
        else:
            # a literal ends before two zeros in a row (one zero costs less inside it)
            run = 1
            while run < QC_RUN and i + run < nodes and not (
                    diff[i + run] == 0 and (i + run + 1 >= nodes or diff[i + run + 1] == 0)):
                run += 1
            out[n] = <unsigned char>(QC_RUN - 1 + run)
            n += 1
            for j in range(run):
                out[n + j] = diff[i + j]
            n += run
        i += run
    return n


cdef bint qc_unpack(const unsigned char* code, int64_t length, int nodes, unsigned char* diff) noexcept nogil:
    """A layer's differences from its code; False when the code is not one
    (a corrupt table), never reading or writing out of bounds."""
    cdef int64_t i = 0
    cdef int k = 0, t, run
    while i < length:
        t = code[i]
        i += 1
        if t < QC_RUN:
            run = t + 1
            if k + run > nodes:
                return False
            memset(&diff[k], 0, run)
        else:
            run = t - QC_RUN + 1
            if k + run > nodes or i + run > length:
                return False
            memcpy(&diff[k], &code[i], run)
            i += run
        k += run
    return k == nodes


cdef bint qc_decode(const QSolver* s, uint64_t hw, uint64_t vw, const unsigned char* code, int64_t length,
                    int8_t* vals) noexcept nogil:
    """A layer's values (its stored walls hw, vw) from its code; False when
    the code is not one."""
    cdef unsigned char d0[81]
    cdef unsigned char d1[81]
    cdef int a, b, i, nsq = s.nsq
    cdef const unsigned char* pred = s.pred
    cdef unsigned char* diff = <unsigned char*>vals
    if not qc_unpack(code, length, s.nodes, diff):
        return False
    qc_distances(s.g, s.idx_of, nsq, hw, vw, d0, d1)
    for a in range(nsq):
        for b in range(nsq):
            if a != b:
                i = (a * nsq + b) * 2
                diff[i] = <unsigned char>(diff[i] + pred[d0[a] * (QC_FAR + 1) + d1[b]])
                diff[i + 1] = <unsigned char>(diff[i + 1] + pred[d1[b] * (QC_FAR + 1) + d0[a]])
    return True
