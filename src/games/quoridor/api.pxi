# The Python class over a Quoridor position (quoridor/board.pxi holds the
# position, move generation, wall legality, make/unmake, hashing and perft it
# calls), and the move generator's timing for `crossridor bench`.

cdef class QuoridorCore:
    """A Quoridor position with its history (make/unmake), over moves encoded
    as ints (see the encoding in quoridor/board.pxi). games.quoridor wraps it in notation;
    every method validates what Python hands it."""

    cdef QPos pos
    cdef QUndo* hist
    cdef int hist_cap
    cdef readonly int width
    cdef readonly int height
    cdef readonly int players
    cdef readonly int walls

    def __cinit__(self, int width=9, int height=9, int players=2, int walls=-1):
        error = q_board_error(width, height, players)
        if error is not None:
            raise ValueError(error)
        if walls == -1:
            walls = 10 if players == 2 else 5
        if walls < 0 or walls > 1000:
            raise ValueError(f"walls must be 0..1000, got {walls}")
        self.width = width
        self.height = height
        self.players = players
        self.walls = walls
        q_reset(&self.pos, q_geom(width, height, players), walls)
        self.hist_cap = 64
        self.hist = <QUndo*>malloc(self.hist_cap * sizeof(QUndo))
        if self.hist == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.hist)

    cdef QPos* raw(self):
        return &self.pos

    def clone(self):
        cdef QuoridorCore c = QuoridorCore(self.width, self.height, self.players, self.walls)
        c.pos = self.pos
        cdef QUndo* h = <QUndo*>realloc(c.hist, self.hist_cap * sizeof(QUndo))
        if h == NULL:
            raise MemoryError()
        c.hist = h
        c.hist_cap = self.hist_cap
        memcpy(c.hist, self.hist, self.pos.ply * sizeof(QUndo))
        return c

    def legal_codes(self):
        cdef int moves[Q_MAX_MOVES]
        cdef int k = q_gen_moves(&self.pos, moves)
        return [moves[i] for i in range(k)]

    def count_moves(self):
        return q_count_moves(&self.pos)

    def is_legal(self, int code):
        cdef int moves[Q_MAX_MOVES]
        cdef int k = q_gen_moves(&self.pos, moves), i
        for i in range(k):
            if moves[i] == code:
                return True
        return False

    def play(self, int code):
        """Play a legal move code; ValueError if it is not legal here."""
        if not self.is_legal(code):
            raise ValueError(f"illegal move code {code}")
        self.play_unchecked(code)

    cdef void play_unchecked(self, int code) except *:
        cdef QUndo* h
        if self.pos.ply >= self.hist_cap:
            h = <QUndo*>realloc(self.hist, 2 * self.hist_cap * sizeof(QUndo))
            if h == NULL:
                raise MemoryError()
            self.hist = h
            self.hist_cap *= 2
        q_make(&self.pos, code, &self.hist[self.pos.ply])

    def undo(self):
        if self.pos.ply == 0:
            raise IndexError("no move to undo")
        q_unmake(&self.pos, &self.hist[self.pos.ply - 1])
        return self.hist[self.pos.ply].move

    def history(self):
        return [self.hist[i].move for i in range(self.pos.ply)]

    @property
    def ply(self):
        return self.pos.ply

    @property
    def to_move(self):
        return self.pos.to_move

    @property
    def winner(self):
        return self.pos.winner

    @property
    def hash(self):
        return self.pos.hash

    @property
    def pawns(self):
        return tuple(self.pos.pawn[i] for i in range(self.players))

    @property
    def walls_left(self):
        return tuple(self.pos.walls_left[i] for i in range(self.players))

    @property
    def hwalls(self):
        return self.pos.hw

    @property
    def vwalls(self):
        return self.pos.vw

    def values(self):
        """Per-player values in (-1, 1) by the engine's evaluation
        (quoridor/eval.pxi, default weights)."""
        cdef double out[4]
        q_values(&self.pos, S_WALL, S_TEMPO, S_LONE_WALL, out)
        return [out[i] for i in range(self.pos.g.nplayers)]

    def distance(self, int player):
        if player < 0 or player >= self.players:
            raise ValueError(f"player must be 0..{self.players - 1}, got {player}")
        return q_distance(&self.pos, player)

    def set_position(self, pawns, walls_left, uint64_t hw, uint64_t vw, int to_move):
        """Set up a position directly (from a position string). Validates
        everything: squares, wall overlaps and crossings, paths, counts."""
        cdef const QGeom* g = self.pos.g
        cdef int i, a, np = self.players
        if len(pawns) != np or len(walls_left) != np:
            raise ValueError(f"need {np} pawns and {np} wall counts")
        if not 0 <= to_move < np:
            raise ValueError(f"player to move must be 1..{np}")
        if (hw & ~g.anchors) or (vw & ~g.anchors):
            raise ValueError("wall anchor off the board")
        if (hw & ((hw << 1) & ~g.acol0)) or (vw & (vw << AS)) or (hw & vw):
            raise ValueError("walls overlap or cross")
        seen = set()
        for i in range(np):
            if not 0 <= pawns[i] < 81 or not (g.board & bb_bit(pawns[i])):
                raise ValueError("pawn off the board")
            if pawns[i] in seen:
                raise ValueError("two pawns on one square")
            seen.add(pawns[i])
            if not 0 <= walls_left[i] <= 1000:
                raise ValueError("walls left must be 0..1000")
        cdef QPos p
        q_reset(&p, g, 0)
        p.hash = Z_TURN[to_move]
        p.to_move = to_move
        for i in range(np):
            p.pawn[i] = pawns[i]
            p.walls_left[i] = walls_left[i]
            p.hash ^= Z_PAWN[i][p.pawn[i]] ^ Z_WALLS[i][q_walls_key(p.walls_left[i])]
        for a in range(64):
            if (hw >> a) & 1:
                p.hw |= (<uint64_t>1) << a
                p.can_n &= ~g.h_n[a]
                p.can_s &= ~g.h_s[a]
                p.hash ^= Z_HWALL[a]
            if (vw >> a) & 1:
                p.vw |= (<uint64_t>1) << a
                p.can_e &= ~g.v_e[a]
                p.can_w &= ~g.v_w[a]
                p.hash ^= Z_VWALL[a]
        winners = [i for i in range(np) if g.goal[i] & bb_bit(p.pawn[i])]
        if len(winners) > 1:
            raise ValueError("more than one pawn on its goal side")
        for i in range(np):
            if q_distance(&p, i) >= Q_NO_PATH:
                raise ValueError(f"player {i + 1} has no path to the goal")
        if winners:
            p.winner = winners[0]
        self.pos = p

    def perft(self, int depth, int hash_mb=0):
        if depth < 0:
            raise ValueError(f"depth must be >= 0, got {depth}")
        if hash_mb < 0 or hash_mb > 65536:
            raise ValueError(f"hash must be 0..65536 MB, got {hash_mb}")
        cdef PerftTable tt
        cdef PerftTable* ttp = NULL
        cdef uint64_t entries = 1, total
        if hash_mb > 0 and depth >= 3:
            while entries * 2 * sizeof(PerftEntry) <= <uint64_t>hash_mb * 1024 * 1024:
                entries *= 2
            tt.slots = <PerftEntry*>calloc(entries, sizeof(PerftEntry))
            if tt.slots == NULL:
                raise MemoryError(f"cannot allocate {hash_mb} MB")
            tt.mask = entries - 1
            ttp = &tt
        cdef QPos work = self.pos
        cdef volatile int* stop = current_stop_flag()
        with nogil:
            total = q_perft(&work, depth, ttp, stop)
        if ttp != NULL:
            free(tt.slots)
        return total


def q_time_movegen(QuoridorCore core, long long calls):
    """Seconds per call of the C move generator on this position (timed in C
    over `calls` calls, so no Python overhead is counted)."""
    if calls < 1:
        raise ValueError("calls must be >= 1")
    cdef int moves[Q_MAX_MOVES]
    cdef QPos p = core.pos
    cdef long long i
    cdef long total = 0
    cdef double t0, t1
    with nogil:
        t0 = now_seconds()
        for i in range(calls):
            p.walk_ok = core.pos.walk_ok   # the cached walks as the position has them
            total += q_gen_moves(&p, moves)
        t1 = now_seconds()
    if total != calls * q_gen_moves(&p, moves):   # uses the results, so no call is optimised away
        raise RuntimeError("move generation is not deterministic")
    return (t1 - t0) / calls

