# Crosswise core: board, hands, bag, make/unmake, scoring, ISMCTS, PIMC
# (determinized search: greedy rollouts or alpha-beta), greedy.
#
# Included from _core.pyx (`include "crosswise.pxi"`). Self-contained: every
# C-level name starts with `cw_`, every Python-visible class with `Crosswise`.
# The rules are those of docs/rules/crosswise.md; the Python facade
# (src/games/crosswise.py) validates all input before it reaches this file,
# and the methods of CrosswiseCore validate again, so no call from Python can
# corrupt the core.
#
# Board: cell index = 6 * row + col, row 0..5 is the rank "1".."6", col 0..5
# is the file "a".."f". One 36-bit bitboard per symbol plus an occupancy mask;
# a line's score comes from the popcount of each symbol's bitboard in it.
#
# Tiles: 0..5 the six symbols (written 1..6), 6 Move, 7 Remove, 8 Replace,
# 9 Swap. Hands, the "known" part of hands and the played action tiles are
# counts per tile kind.
#
# Move code (an int, 15 bits):
#     bits 0-5   cell a   (placement / source / removed / replaced / first swapped cell)
#     bits 6-11  b        (symbol for place and replace, destination cell for move,
#                          second cell for swap with a < b, 0 otherwise)
#     bits 12-14 kind     0 place, 1 move, 2 remove, 3 replace, 4 swap, 5 pass
# Pass (kind 5, a = b = 0) is legal only when no other move is.

from libc.stdint cimport uint64_t, uint32_t, uint8_t, int8_t, int32_t
from libc.stdlib cimport malloc, free, realloc
from libc.string cimport memcpy, memset
from libc.math cimport sqrt, log, exp
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef extern from *:
    """
    static inline int cw_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int cw_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    """
    int cw_popcount(unsigned long long x) noexcept nogil
    int cw_ctz(unsigned long long x) noexcept nogil

cdef extern from *:
    """
    #define CW_FULL 0xFFFFFFFFFULL
    """
    const uint64_t CW_FULL          # 36 bits

cdef enum:
    CW_NSYM = 6
    CW_NTILE = 10
    CW_T_MOVE = 6
    CW_T_REMOVE = 7
    CW_T_REPLACE = 8
    CW_T_SWAP = 9
    CW_K_PLACE = 0
    CW_K_MOVE = 1
    CW_K_REMOVE = 2
    CW_K_REPLACE = 3
    CW_K_SWAP = 4
    CW_K_PASS = 5
    CW_PASS = 20480          # 5 << 12
    CW_CODE_SPACE = 24576    # every code is below this
    CW_MAXMOVES = 1600       # > 6*36 + 18*18 + 36 + 36*5 + C(36,2)
    CW_MAXHIST = 512         # 39 placements + 12 actions, < nplayers passes between moves

cdef int CW_PTS[7]
CW_PTS[:] = [0, 0, 1, 3, 5, 7, 0]
cdef int CW_TOTAL[CW_NTILE]
CW_TOTAL[:] = [7, 7, 7, 7, 7, 7, 3, 3, 3, 3]
cdef uint64_t CW_ROW[6]
cdef uint64_t CW_COL[6]
cdef int _cw_i
for _cw_i in range(6):
    CW_ROW[_cw_i] = (<uint64_t>0x3F) << (6 * _cw_i)
    CW_COL[_cw_i] = (<uint64_t>0x041041041) << _cw_i

ctypedef struct cw_State:
    uint64_t bb[CW_NSYM]
    uint64_t occ
    int8_t cell[36]
    uint8_t hand[4][CW_NTILE]
    uint8_t known[4][CW_NTILE]    # tiles publicly known to be in a hand (taken by Remove/Replace)
    int hand_n[4]
    int hand_size[4]
    uint8_t bag[54]               # draw order: bag[bag_n - 1] is drawn next
    int bag_n
    uint8_t played[4]             # action tiles played, per kind (Move, Remove, Replace, Swap)
    int nplayers
    int cycle_len
    int cycle[4]                  # seat to move at each turn slot
    int slot
    int passes                    # consecutive passes
    int over                      # 1 once the game has ended
    int winner                    # 0 Rows, 1 Columns, 2 draw, -1 not over
    int six                       # team that completed six identical, or -1

ctypedef struct cw_Undo:
    int32_t code
    int8_t slot
    int8_t passes
    int8_t ndraw
    int8_t aux                    # symbol taken off cell a (remove / replace)
    int8_t over
    int8_t winner
    int8_t six
    uint8_t known[CW_NTILE]       # the mover's known tiles before the move


# ---------------------------------------------------------------- helpers

cdef inline uint64_t cw_rng_next(uint64_t* s) noexcept nogil:
    # splitmix64
    s[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = s[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)

cdef inline int cw_rand_below(uint64_t* s, int n) noexcept nogil:
    return <int>(((cw_rng_next(s) >> 32) * <uint64_t>n) >> 32)

cdef inline int cw_nth_bit(uint64_t x, int k) noexcept nogil:
    cdef int i
    for i in range(k):
        x &= x - 1
    return cw_ctz(x)

cdef inline int cw_random_bit(uint64_t x, uint64_t* rng) noexcept nogil:
    return cw_nth_bit(x, cw_rand_below(rng, cw_popcount(x)))

cdef inline int cw_team(int seat) noexcept nogil:
    return seat & 1

cdef inline int cw_to_move(const cw_State* s) noexcept nogil:
    return s.cycle[s.slot]

cdef int cw_line_score(const cw_State* s, uint64_t mask) noexcept nogil:
    cdef int total = 0, sym, c, allone = 1
    for sym in range(CW_NSYM):
        c = cw_popcount(s.bb[sym] & mask)
        total += CW_PTS[c]
        if c > 1:
            allone = 0
    if allone and (s.occ & mask) == mask:
        return 6
    return total

cdef inline int cw_team_score(const cw_State* s, int team) noexcept nogil:
    cdef int i, total = 0
    if team == 0:
        for i in range(6):
            total += cw_line_score(s, CW_ROW[i])
    else:
        for i in range(6):
            total += cw_line_score(s, CW_COL[i])
    return total

cdef inline int cw_six_at(const cw_State* s, int c) noexcept nogil:
    """Team that has six identical through cell c, or -1."""
    cdef int sym = s.cell[c]
    if sym < 0:
        return -1
    cdef uint64_t m = CW_ROW[c // 6]
    if (s.bb[sym] & m) == m:
        return 0
    m = CW_COL[c % 6]
    if (s.bb[sym] & m) == m:
        return 1
    return -1

cdef int cw_find_six(const cw_State* s) noexcept nogil:
    """0 / 1 if Rows / Columns have a six anywhere, 2 if both (invalid), else -1."""
    cdef int i, sym, found = -1
    for sym in range(CW_NSYM):
        for i in range(6):
            if (s.bb[sym] & CW_ROW[i]) == CW_ROW[i]:
                found = 0 if found < 0 or found == 0 else 2
            if (s.bb[sym] & CW_COL[i]) == CW_COL[i]:
                found = 1 if found < 0 or found == 1 else 2
    return found

cdef inline void cw_set_cell(cw_State* s, int c, int sym) noexcept nogil:
    cdef uint64_t bit = (<uint64_t>1) << c
    cdef int old = s.cell[c]
    if old >= 0:
        s.bb[old] &= ~bit
    if sym >= 0:
        s.bb[sym] |= bit
        s.occ |= bit
    else:
        s.occ &= ~bit
    s.cell[c] = <int8_t>sym

cdef void cw_finish(cw_State* s) noexcept nogil:
    """Set over/winner after a move (six, full board, or everyone passed)."""
    cdef int r, c
    if s.six >= 0:
        s.over = 1
        s.winner = s.six
    elif s.occ == CW_FULL or s.passes >= s.nplayers:
        s.over = 1
        r = cw_team_score(s, 0)
        c = cw_team_score(s, 1)
        s.winner = 0 if r > c else (1 if c > r else 2)
    else:
        s.over = 0
        s.winner = -1

cdef inline int cw_nsyms_on_board(const cw_State* s) noexcept nogil:
    cdef int sym, n = 0
    for sym in range(CW_NSYM):
        if s.bb[sym]:
            n += 1
    return n


# ---------------------------------------------------------------- move generation

cdef int cw_gen_moves(const cw_State* s, int* out) noexcept nogil:
    """All legal moves of the player to move into out; pass if nothing else."""
    cdef int n = 0, p, sym, a, b
    cdef uint64_t empty, occ, x, y
    if s.over:
        return 0
    p = cw_to_move(s)
    occ = s.occ
    empty = CW_FULL & ~occ
    for sym in range(CW_NSYM):
        if s.hand[p][sym]:
            x = empty
            while x:
                a = cw_ctz(x)
                x &= x - 1
                out[n] = a | (sym << 6)
                n += 1
    if s.hand[p][CW_T_MOVE] and occ and empty:
        x = occ
        while x:
            a = cw_ctz(x)
            x &= x - 1
            y = empty
            while y:
                b = cw_ctz(y)
                y &= y - 1
                out[n] = a | (b << 6) | (CW_K_MOVE << 12)
                n += 1
    if s.hand[p][CW_T_REMOVE]:
        x = occ
        while x:
            a = cw_ctz(x)
            x &= x - 1
            out[n] = a | (CW_K_REMOVE << 12)
            n += 1
    if s.hand[p][CW_T_REPLACE]:
        x = occ
        while x:
            a = cw_ctz(x)
            x &= x - 1
            for sym in range(CW_NSYM):
                if s.hand[p][sym] and sym != s.cell[a]:
                    out[n] = a | (sym << 6) | (CW_K_REPLACE << 12)
                    n += 1
    if s.hand[p][CW_T_SWAP]:
        x = occ
        while x:
            a = cw_ctz(x)
            x &= x - 1
            y = x & ~s.bb[s.cell[a]]
            while y:
                b = cw_ctz(y)
                y &= y - 1
                out[n] = a | (b << 6) | (CW_K_SWAP << 12)
                n += 1
    if n == 0:
        out[0] = CW_PASS
        n = 1
    return n

cdef int cw_is_legal(const cw_State* s, int code) noexcept nogil:
    cdef int kind, a, b, p
    cdef int buf[CW_MAXMOVES]
    if s.over or code < 0 or code >= CW_CODE_SPACE:
        return 0
    kind = code >> 12
    a = code & 63
    b = (code >> 6) & 63
    p = cw_to_move(s)
    if kind == CW_K_PASS:
        if code != CW_PASS:
            return 0
        return cw_gen_moves(s, buf) == 1 and buf[0] == CW_PASS
    if a >= 36:
        return 0
    if kind == CW_K_PLACE:
        return b < CW_NSYM and s.hand[p][b] > 0 and s.cell[a] < 0
    if kind == CW_K_MOVE:
        return b < 36 and s.hand[p][CW_T_MOVE] > 0 and s.cell[a] >= 0 and s.cell[b] < 0
    if kind == CW_K_REMOVE:
        return b == 0 and s.hand[p][CW_T_REMOVE] > 0 and s.cell[a] >= 0
    if kind == CW_K_REPLACE:
        return (b < CW_NSYM and s.hand[p][CW_T_REPLACE] > 0 and s.hand[p][b] > 0
                and s.cell[a] >= 0 and s.cell[a] != b)
    if kind == CW_K_SWAP:
        return (a < b and b < 36 and s.hand[p][CW_T_SWAP] > 0 and s.cell[a] >= 0
                and s.cell[b] >= 0 and s.cell[a] != s.cell[b])
    return 0


# ---------------------------------------------------------------- make / unmake

cdef inline void cw_take(cw_State* s, int p, int t) noexcept nogil:
    s.hand[p][t] -= 1
    s.hand_n[p] -= 1
    if s.known[p][t]:
        s.known[p][t] -= 1

cdef inline void cw_give(cw_State* s, int p, int t) noexcept nogil:
    """A board tile goes into p's hand, in view of everybody."""
    s.hand[p][t] += 1
    s.hand_n[p] += 1
    s.known[p][t] += 1

cdef void cw_make(cw_State* s, int code, cw_Undo* u) noexcept nogil:
    """Play a legal move (the caller checked legality)."""
    cdef int p = cw_to_move(s)
    cdef int kind = code >> 12, a = code & 63, b = (code >> 6) & 63, t, sa, sb, six = -1
    u.code = code
    u.slot = <int8_t>s.slot
    u.passes = <int8_t>s.passes
    u.over = <int8_t>s.over
    u.winner = <int8_t>s.winner
    u.six = <int8_t>s.six
    u.aux = -1
    u.ndraw = 0
    memcpy(u.known, s.known[p], CW_NTILE)
    if kind == CW_K_PASS:
        s.passes += 1
    else:
        s.passes = 0
        if kind == CW_K_PLACE:
            cw_take(s, p, b)
            cw_set_cell(s, a, b)
            six = cw_six_at(s, a)
        elif kind == CW_K_MOVE:
            cw_take(s, p, CW_T_MOVE)
            sa = s.cell[a]
            cw_set_cell(s, a, -1)
            cw_set_cell(s, b, sa)
            six = cw_six_at(s, b)
        elif kind == CW_K_REMOVE:
            cw_take(s, p, CW_T_REMOVE)
            sa = s.cell[a]
            u.aux = <int8_t>sa
            cw_set_cell(s, a, -1)
            cw_give(s, p, sa)
        elif kind == CW_K_REPLACE:
            cw_take(s, p, CW_T_REPLACE)
            cw_take(s, p, b)
            sa = s.cell[a]
            u.aux = <int8_t>sa
            cw_set_cell(s, a, b)
            cw_give(s, p, sa)
            six = cw_six_at(s, a)
        else:  # swap
            cw_take(s, p, CW_T_SWAP)
            sa = s.cell[a]
            sb = s.cell[b]
            cw_set_cell(s, a, sb)
            cw_set_cell(s, b, sa)
            six = cw_six_at(s, a)
            if six < 0:
                six = cw_six_at(s, b)
        if kind >= CW_K_MOVE:
            s.played[kind - 1] += 1
        while s.hand_n[p] < s.hand_size[p] and s.bag_n > 0:
            s.bag_n -= 1
            t = s.bag[s.bag_n]
            s.hand[p][t] += 1
            s.hand_n[p] += 1
            u.ndraw += 1
    if six >= 0:
        s.six = six
    s.slot += 1
    if s.slot == s.cycle_len:
        s.slot = 0
    cw_finish(s)

cdef void cw_unmake(cw_State* s, const cw_Undo* u) noexcept nogil:
    cdef int code = u.code
    cdef int kind = code >> 12, a = code & 63, b = (code >> 6) & 63, t, i, sa, sb
    s.slot = u.slot
    cdef int p = cw_to_move(s)
    for i in range(u.ndraw):
        t = s.bag[s.bag_n]
        s.bag_n += 1
        s.hand[p][t] -= 1
        s.hand_n[p] -= 1
    if kind == CW_K_PLACE:
        cw_set_cell(s, a, -1)
        s.hand[p][b] += 1
        s.hand_n[p] += 1
    elif kind == CW_K_MOVE:
        sb = s.cell[b]
        cw_set_cell(s, b, -1)
        cw_set_cell(s, a, sb)
        s.hand[p][CW_T_MOVE] += 1
        s.hand_n[p] += 1
    elif kind == CW_K_REMOVE:
        cw_set_cell(s, a, u.aux)
        s.hand[p][u.aux] -= 1
        s.hand[p][CW_T_REMOVE] += 1
    elif kind == CW_K_REPLACE:
        cw_set_cell(s, a, u.aux)
        s.hand[p][u.aux] -= 1
        s.hand[p][b] += 1
        s.hand[p][CW_T_REPLACE] += 1
        s.hand_n[p] += 1
    elif kind == CW_K_SWAP:
        sa = s.cell[a]
        sb = s.cell[b]
        cw_set_cell(s, a, sb)
        cw_set_cell(s, b, sa)
        s.hand[p][CW_T_SWAP] += 1
        s.hand_n[p] += 1
    if CW_K_MOVE <= kind <= CW_K_SWAP:
        s.played[kind - 1] -= 1
    memcpy(s.known[p], u.known, CW_NTILE)
    s.passes = u.passes
    s.over = u.over
    s.winner = u.winner
    s.six = u.six


# ---------------------------------------------------------------- determinization

cdef int cw_unseen(const cw_State* s, int viewer, int* pool) noexcept nogil:
    """Tiles the viewer cannot locate: all tiles less the board, the played
    action tiles, the viewer's hand and the tiles known to be in other hands.
    Writes them into pool (one entry per tile); returns how many, or -1 if
    the counts are inconsistent."""
    cdef int cnt[CW_NTILE]
    cdef int t, p, n = 0, i
    for t in range(CW_NTILE):
        cnt[t] = CW_TOTAL[t] - s.hand[viewer][t]
    for t in range(CW_NSYM):
        cnt[t] -= cw_popcount(s.bb[t])
    for t in range(4):
        cnt[CW_T_MOVE + t] -= s.played[t]
    for p in range(s.nplayers):
        if p != viewer:
            for t in range(CW_NTILE):
                cnt[t] -= s.known[p][t]
    for t in range(CW_NTILE):
        if cnt[t] < 0:
            return -1
        for i in range(cnt[t]):
            pool[n] = t
            n += 1
    return n

cdef int cw_determinize(cw_State* s, int viewer, uint64_t* rng) noexcept nogil:
    """Redeal, in place, everything the viewer cannot see: the other hands
    (less their known tiles) and the bag order. Returns 0, or -1 if the
    state is inconsistent."""
    cdef int pool[54]
    cdef int n = cw_unseen(s, viewer, pool)
    cdef int i, j, tmp, p, t, k = 0, need
    if n < 0:
        return -1
    for i in range(n - 1, 0, -1):
        j = cw_rand_below(rng, i + 1)
        tmp = pool[i]
        pool[i] = pool[j]
        pool[j] = tmp
    need = s.bag_n
    for p in range(s.nplayers):
        if p != viewer:
            need += s.hand_n[p]
            for t in range(CW_NTILE):
                need -= s.known[p][t]
    if need != n:
        return -1
    for p in range(s.nplayers):
        if p == viewer:
            continue
        for t in range(CW_NTILE):
            s.hand[p][t] = s.known[p][t]
        i = s.hand_n[p]
        for t in range(CW_NTILE):
            i -= s.known[p][t]
        for j in range(i):
            s.hand[p][pool[k]] += 1
            k += 1
    for j in range(s.bag_n):
        s.bag[j] = <uint8_t>pool[k]
        k += 1
    return 0


# ---------------------------------------------------------------- playout policy

cdef int cw_random_move(const cw_State* s, uint64_t* rng) noexcept nogil:
    """A random legal move, tile first: a random tile of the hand (weighted
    by count), then a random target for it; tiles without a target are
    skipped. Pass if no tile has a target."""
    cdef int p = cw_to_move(s)
    cdef int tiles[16]
    cdef int n = 0, t, i, k, a, b, sym
    cdef uint64_t occ = s.occ, empty = CW_FULL & ~s.occ, x
    for t in range(CW_NTILE):
        for i in range(s.hand[p][t]):
            tiles[n] = t
            n += 1
    while n > 0:
        k = cw_rand_below(rng, n)
        t = tiles[k]
        if t < CW_NSYM:
            if empty:
                return cw_random_bit(empty, rng) | (t << 6)
        elif t == CW_T_MOVE:
            if occ and empty:
                return (cw_random_bit(occ, rng) | (cw_random_bit(empty, rng) << 6)
                        | (CW_K_MOVE << 12))
        elif t == CW_T_REMOVE:
            if occ:
                return cw_random_bit(occ, rng) | (CW_K_REMOVE << 12)
        elif t == CW_T_REPLACE:
            # a random symbol of the hand with a differing tile on the board
            i = cw_rand_below(rng, CW_NSYM)
            for sym in range(CW_NSYM):
                b = (i + sym) % CW_NSYM
                if s.hand[p][b]:
                    x = occ & ~s.bb[b]
                    if x:
                        return cw_random_bit(x, rng) | (b << 6) | (CW_K_REPLACE << 12)
        else:
            if cw_nsyms_on_board(s) >= 2:
                a = cw_random_bit(occ, rng)
                b = cw_random_bit(occ & ~s.bb[s.cell[a]], rng)
                if a > b:
                    a, b = b, a
                return a | (b << 6) | (CW_K_SWAP << 12)
        # no target for this tile: drop every copy of it and retry
        i = 0
        for k in range(n):
            if tiles[k] != t:
                tiles[i] = tiles[k]
                i += 1
        n = i
    return CW_PASS

cdef int cw_random_action(const cw_State* s, int t, uint64_t* rng) noexcept nogil:
    """A random target for action tile t held by the player to move, as a
    move code, or -1 if it has none."""
    cdef int p = cw_to_move(s), i, sym, a, b
    cdef uint64_t occ = s.occ, empty = CW_FULL & ~s.occ, x
    if t == CW_T_MOVE:
        if occ and empty:
            return (cw_random_bit(occ, rng) | (cw_random_bit(empty, rng) << 6)
                    | (CW_K_MOVE << 12))
    elif t == CW_T_REMOVE:
        if occ:
            return cw_random_bit(occ, rng) | (CW_K_REMOVE << 12)
    elif t == CW_T_REPLACE:
        i = cw_rand_below(rng, CW_NSYM)
        for sym in range(CW_NSYM):
            b = (i + sym) % CW_NSYM
            if s.hand[p][b]:
                x = occ & ~s.bb[b]
                if x:
                    return cw_random_bit(x, rng) | (b << 6) | (CW_K_REPLACE << 12)
    elif t == CW_T_SWAP:
        if cw_nsyms_on_board(s) >= 2:
            a = cw_random_bit(occ, rng)
            b = cw_random_bit(occ & ~s.bb[s.cell[a]], rng)
            if a > b:
                a, b = b, a
            return a | (b << 6) | (CW_K_SWAP << 12)
    return -1

cdef inline int cw_place_gain(const int* cnt, int occn, int distinct, int sym) noexcept nogil:
    """Change of a line's score when `sym` is put on one of its empty cells;
    1000 for six identical. cnt: the line's count per symbol; occn: tiles in
    it; distinct: 1 if no symbol appears twice in it."""
    cdef int c = cnt[sym]
    if c == 5:
        return 1000
    if occn == 5 and c == 0 and distinct:
        return 6
    return CW_PTS[c + 1] - CW_PTS[c]

cdef int cw_policy_move(cw_State* s, uint64_t* rng, int eps_pct, int act) noexcept nogil:
    """Playout policy: with probability eps_pct/100, or when no symbol can be
    placed, a random move (cw_random_move); otherwise the placement of a hand
    symbol with the best one-move gain own team - other team, computed from
    the per-line symbol counts (ties broken at random)."""
    cdef int p = cw_to_move(s), team = p & 1
    cdef uint64_t empty = CW_FULL & ~s.occ, x
    cdef int rc[6][6]
    cdef int cc[6][6]
    cdef int rn[6]
    cdef int cn[6]
    cdef int rd[6]
    cdef int cd[6]
    cdef int i, sym, c, r, col, v, best = -1, bestv = -1000000, nbest = 0, any_sym = 0
    for sym in range(CW_NSYM):
        if s.hand[p][sym]:
            any_sym = 1
    if not any_sym or not empty or cw_rand_below(rng, 100) < eps_pct:
        return cw_random_move(s, rng)
    for i in range(6):
        rn[i] = cw_popcount(s.occ & CW_ROW[i])
        cn[i] = cw_popcount(s.occ & CW_COL[i])
        rd[i] = 1
        cd[i] = 1
        for sym in range(CW_NSYM):
            rc[i][sym] = cw_popcount(s.bb[sym] & CW_ROW[i])
            cc[i][sym] = cw_popcount(s.bb[sym] & CW_COL[i])
            if rc[i][sym] > 1:
                rd[i] = 0
            if cc[i][sym] > 1:
                cd[i] = 0
    for sym in range(CW_NSYM):
        if not s.hand[p][sym]:
            continue
        x = empty
        while x:
            c = cw_ctz(x)
            x &= x - 1
            r = c // 6
            col = c % 6
            v = cw_place_gain(rc[r], rn[r], rd[r], sym) - cw_place_gain(cc[col], cn[col], cd[col], sym)
            if team:
                v = -v
            if v > bestv:
                bestv = v
                best = c | (sym << 6)
                nbest = 1
            elif v == bestv:
                nbest += 1
                if cw_rand_below(rng, nbest) == 0:
                    best = c | (sym << 6)
    # action tiles: `act` random targets per action tile held, taken if one
    # gains more than the best placement
    if act > 0:
        for sym in range(CW_T_MOVE, CW_NTILE):
            if not s.hand[p][sym]:
                continue
            for i in range(act):
                c = cw_random_action(s, sym, rng)
                if c < 0:
                    break
                v = cw_move_gain(s, c, team)
                if v > bestv:
                    bestv = v
                    best = c
    return best

cdef int cw_playout(cw_State* s, uint64_t* rng, int eps_pct, int act) noexcept nogil:
    """Policy moves to the end (eps_pct >= 100: uniformly random tile-first
    moves); returns the number of moves played."""
    cdef cw_Undo u
    cdef int n = 0
    while not s.over:
        if eps_pct >= 100:
            cw_make(s, cw_random_move(s, rng), &u)
        else:
            cw_make(s, cw_policy_move(s, rng, eps_pct, act), &u)
        n += 1
    return n


# ---------------------------------------------------------------- greedy

cdef int cw_threats(const cw_State* s, int team) noexcept nogil:
    """How close `team` is to six identical: per line holding five of one
    symbol, 2 if its sixth cell is empty (one placement wins), else 1."""
    cdef int i, sym, n = 0
    cdef uint64_t m
    for i in range(6):
        m = CW_ROW[i] if team == 0 else CW_COL[i]
        for sym in range(CW_NSYM):
            if cw_popcount(s.bb[sym] & m) == 5:
                n += 2 if (s.occ & m) != m else 1
    return n

cdef int cw_greedy_move(cw_State* s, int* buf) noexcept nogil:
    """Instant win, else the smallest opponent threat of six (cw_threats:
    block a six), else the best score difference own team - other team;
    ties go to the first move in generation order."""
    cdef int n = cw_gen_moves(s, buf)
    cdef int team = cw_team(cw_to_move(s))
    cdef int i, best = buf[0], key_t, key_d, best_t = 1 << 30, best_d = -(1 << 30)
    cdef cw_Undo u
    for i in range(n):
        cw_make(s, buf[i], &u)
        if s.six == team:
            cw_unmake(s, &u)
            return buf[i]
        key_t = cw_threats(s, 1 - team)
        key_d = cw_team_score(s, team) - cw_team_score(s, 1 - team)
        cw_unmake(s, &u)
        if key_t < best_t or (key_t == best_t and key_d > best_d):
            best_t = key_t
            best_d = key_d
            best = buf[i]
    return best


cdef inline int cw_lines_value(const cw_State* s, int a, int b, int team) noexcept nogil:
    """Score of `team` minus the other team's over the lines through cells a
    and b (b < 0: only a), each line counted once."""
    cdef int v = 0, ra = a // 6, ca = a % 6
    v += cw_line_score(s, CW_ROW[ra]) - cw_line_score(s, CW_COL[ca])
    if b >= 0:
        if b // 6 != ra:
            v += cw_line_score(s, CW_ROW[b // 6])
        if b % 6 != ca:
            v -= cw_line_score(s, CW_COL[b % 6])
    return v if team == 0 else -v

cdef int cw_move_gain(cw_State* s, int code, int team) noexcept nogil:
    """How much a move raises `team`'s score minus the other team's (only
    the lines it touches are scored); +-1000 for a six of either team. The
    board is changed and restored; hands are not touched."""
    cdef int kind = code >> 12, a = code & 63, b = (code >> 6) & 63
    cdef int sa, sb, before, after, six = -1, c2 = -1
    if kind == CW_K_PASS:
        return 0
    if kind == CW_K_MOVE or kind == CW_K_SWAP:
        c2 = b
    before = cw_lines_value(s, a, c2, team)
    sa = s.cell[a]
    if kind == CW_K_PLACE or kind == CW_K_REPLACE:
        cw_set_cell(s, a, b)
        six = cw_six_at(s, a)
    elif kind == CW_K_REMOVE:
        cw_set_cell(s, a, -1)
    elif kind == CW_K_MOVE:
        cw_set_cell(s, a, -1)
        cw_set_cell(s, b, sa)
        six = cw_six_at(s, b)
    else:
        sb = s.cell[b]
        cw_set_cell(s, a, sb)
        cw_set_cell(s, b, sa)
        six = cw_six_at(s, a)
        if six < 0:
            six = cw_six_at(s, b)
    after = cw_lines_value(s, a, c2, team)
    # restore
    if kind == CW_K_MOVE:
        cw_set_cell(s, b, -1)
        cw_set_cell(s, a, sa)
    elif kind == CW_K_SWAP:
        cw_set_cell(s, b, s.cell[a])
        cw_set_cell(s, a, sa)
    else:
        cw_set_cell(s, a, sa)
    if six >= 0:
        return 1000 if six == team else -1000
    return after - before


cdef int cw_greedy_fast(cw_State* s, int* buf) noexcept nogil:
    """The move cw_greedy_move picks (same keys, same tie order), computed on
    the board alone: each move is applied to the bitboards, the touched lines
    rescored and the move taken back (no make / unmake, no full rescoring)."""
    cdef int n = cw_gen_moves(s, buf)
    cdef int team = cw_team(cw_to_move(s))
    cdef int i, code, kind, a, b, sa, sb, six, c2, before, after
    cdef int best = buf[0], key_t, key_d, best_t = 1 << 30, best_d = -(1 << 30)
    for i in range(n):
        code = buf[i]
        kind = code >> 12
        if kind == CW_K_PASS:
            key_t = cw_threats(s, 1 - team)
            key_d = 0
        else:
            a = code & 63
            b = (code >> 6) & 63
            c2 = b if (kind == CW_K_MOVE or kind == CW_K_SWAP) else -1
            before = cw_lines_value(s, a, c2, team)
            sa = s.cell[a]
            six = -1
            if kind == CW_K_PLACE or kind == CW_K_REPLACE:
                cw_set_cell(s, a, b)
                six = cw_six_at(s, a)
            elif kind == CW_K_REMOVE:
                cw_set_cell(s, a, -1)
            elif kind == CW_K_MOVE:
                cw_set_cell(s, a, -1)
                cw_set_cell(s, b, sa)
                six = cw_six_at(s, b)
            else:
                sb = s.cell[b]
                cw_set_cell(s, a, sb)
                cw_set_cell(s, b, sa)
                six = cw_six_at(s, a)
                if six < 0:
                    six = cw_six_at(s, b)
            after = cw_lines_value(s, a, c2, team)
            key_t = cw_threats(s, 1 - team)
            key_d = after - before
            if kind == CW_K_MOVE:
                cw_set_cell(s, b, -1)
                cw_set_cell(s, a, sa)
            elif kind == CW_K_SWAP:
                cw_set_cell(s, b, s.cell[a])
                cw_set_cell(s, a, sa)
            else:
                cw_set_cell(s, a, sa)
            if six == team:
                return code
        if key_t < best_t or (key_t == best_t and key_d > best_d):
            best_t = key_t
            best_d = key_d
            best = code
    return best


# ---------------------------------------------------------------- ISMCTS

ctypedef struct cw_Node:
    int32_t parent
    int32_t child        # first child, -1 if none
    int32_t sibling      # next sibling, -1 if none
    int32_t move
    int32_t visits
    int32_t avail
    double value         # summed reward, for the team of the player who made `move`
    double h             # heuristic: one-move score gain of the mover's team (cw_move_gain) / 8
    int8_t team

ctypedef struct cw_Tree:
    cw_Node* nodes
    int n
    int cap

cdef inline double cw_now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9

cdef int cw_tree_add(cw_Tree* tr, int parent, int move, int team) noexcept nogil:
    cdef cw_Node* nn
    if tr.n == tr.cap:
        if tr.cap >= (1 << 21):    # 2M nodes, about 100 MB: stop expanding
            return -1
        nn = <cw_Node*>realloc(tr.nodes, 2 * tr.cap * sizeof(cw_Node))
        if nn == NULL:
            return -1
        tr.nodes = nn
        tr.cap *= 2
    cdef int i = tr.n
    tr.n += 1
    cdef cw_Node* x = &tr.nodes[i]
    x.parent = parent
    x.child = -1
    x.sibling = -1
    x.move = move
    x.visits = 0
    x.avail = 0
    x.value = 0.0
    x.h = 0.0
    x.team = <int8_t>team
    if parent >= 0:
        x.sibling = tr.nodes[parent].child
        tr.nodes[parent].child = i
    return i

cdef inline double cw_reward(const cw_State* s, int team, double margin) noexcept nogil:
    """Terminal value for `team`: +1 / -1 / 0, plus `margin` times a squashed
    score difference (0 by default: pure win / loss)."""
    cdef double v
    if s.winner == 2:
        v = 0.0
    elif s.winner == team:
        v = 1.0
    else:
        v = -1.0
    if margin != 0.0 and s.six < 0:
        v += margin * (cw_team_score(s, team) - cw_team_score(s, 1 - team)) / 40.0
    return v

cdef int cw_ismcts(const cw_State* root, int sims, double seconds, uint64_t seed,
                   double c_uct, double margin, int eps_pct, double pbias, int hexp,
                   int root_k, int act, cw_Tree* tr,
                   int* iters_out,
                   long long* moves_out, volatile int* stop) noexcept nogil:
    """Single-observer information-set MCTS (Cowling, Powley & Whitehouse
    2012) from the view of the player to move at the root: every iteration
    redeals the hidden tiles, descends the one tree using only the children
    legal in that deal (UCB with availability counts), expands one node,
    plays a playout (cw_playout: greedy placements, eps_pct% random moves)
    and backs up the team result (+1 / -1 / 0 for both partners alike).
    Options, measured against greedy (bench/bench_crosswise.py): root_k > 0
    searches only the root_k root moves with the best one-move gain, plus
    winning and six-blocking moves (on by default: stronger); hexp expands
    untried moves best-gain first and pbias adds a progressive bias of that
    gain (both off by default: measured weaker or no better). Returns 0, or
    -1 on an inconsistent root / out of memory."""
    cdef int viewer = cw_to_move(root)
    cdef uint64_t rng = seed
    cdef cw_State d
    cdef cw_Undo u
    cdef int* buf = <int*>malloc(CW_MAXMOVES * sizeof(int))
    cdef int* stamp = <int*>malloc(CW_CODE_SPACE * sizeof(int))
    cdef int* where = <int*>malloc(CW_CODE_SPACE * sizeof(int))
    cdef int* untried = <int*>malloc(CW_MAXMOVES * sizeof(int))
    cdef int gen = 0, it = 0, node, ch, nm, nun, i, j, best, team, rc = 0, g, bestg, ng
    cdef int nroot, nkeep, threat0
    cdef int rootmoves[CW_MAXMOVES]
    cdef int rootgain[CW_MAXMOVES]
    cdef double t0 = cw_now(), bestv, v, lg
    cdef long long moves = 0
    cdef cw_Node* x
    if buf == NULL or stamp == NULL or where == NULL or untried == NULL:
        free(buf); free(stamp); free(where); free(untried)
        return -1
    memset(stamp, 0, CW_CODE_SPACE * sizeof(int))
    tr.n = 0
    cw_tree_add(tr, -1, -1, 1 - cw_team(viewer))
    # root candidates: the viewer's moves are the same in every deal, so
    # they are ranked once; with root_k > 0 only the root_k best by
    # one-move gain (and every move that lowers the opponent's threat of six)
    # are searched.
    memcpy(&d, root, sizeof(cw_State))
    nroot = cw_gen_moves(&d, rootmoves)
    if root_k > 0 and nroot > root_k:
        team = cw_team(viewer)
        threat0 = cw_threats(&d, 1 - team)
        for i in range(nroot):
            g = cw_move_gain(&d, rootmoves[i], team)
            if threat0 > 0:
                cw_make(&d, rootmoves[i], &u)
                if cw_threats(&d, 1 - team) < threat0:
                    g += 500          # below an own six (1000), above any score gain
                cw_unmake(&d, &u)
            rootgain[i] = g
        # keep the root_k best, and every threat-lowering or winning move (gain >= 500)
        nkeep = 0
        for i in range(nroot):
            if rootgain[i] >= 500:
                nkeep += 1
        if nkeep < root_k:
            nkeep = root_k
        # partial selection sort of the nkeep best (generation order on ties)
        for i in range(nkeep):
            best = i
            for j in range(i + 1, nroot):
                if rootgain[j] > rootgain[best]:
                    best = j
            g = rootgain[best]
            ch = rootmoves[best]
            for j in range(best, i, -1):
                rootgain[j] = rootgain[j - 1]
                rootmoves[j] = rootmoves[j - 1]
            rootgain[i] = g
            rootmoves[i] = ch
        nroot = nkeep
    while True:
        if sims > 0 and it >= sims:
            break
        if seconds > 0 and (it & 15) == 0 and it > 0 and cw_now() - t0 >= seconds:
            break
        if stop[0]:
            break
        memcpy(&d, root, sizeof(cw_State))
        if cw_determinize(&d, viewer, &rng) < 0:
            rc = -1
            break
        node = 0
        # selection / expansion
        while not d.over:
            if node == 0:
                nm = nroot
                memcpy(buf, rootmoves, nroot * sizeof(int))
            else:
                nm = cw_gen_moves(&d, buf)
            gen += 1
            for i in range(nm):
                stamp[buf[i]] = gen
            # children legal in this deal: count availability, find best UCB
            best = -1
            bestv = -1e300
            ch = tr.nodes[node].child
            while ch >= 0:
                x = &tr.nodes[ch]
                if stamp[x.move] == gen:
                    stamp[x.move] = -gen      # legal and has a child
                    x.avail += 1
                    where[x.move] = ch
                ch = x.sibling
            nun = 0
            for i in range(nm):
                if stamp[buf[i]] == gen:
                    untried[nun] = buf[i]
                    nun += 1
            if nun > 0:
                # expand the untried move with the best one-move gain (ties at random)
                team = cw_team(cw_to_move(&d))
                best = -1
                bestg = -1 << 30
                ng = 0
                for i in range(nun):
                    g = cw_move_gain(&d, untried[i], team) if hexp else 0
                    if g > bestg:
                        bestg = g
                        best = untried[i]
                        ng = 1
                    elif g == bestg:
                        ng += 1
                        if cw_rand_below(&rng, ng) == 0:
                            best = untried[i]
                ch = cw_tree_add(tr, node, best, team)
                if ch < 0:
                    # tree full: no more expansion, play out from here
                    break
                tr.nodes[ch].avail = 1
                if not hexp and pbias != 0.0:
                    bestg = cw_move_gain(&d, best, team)
                tr.nodes[ch].h = (bestg if -100 < bestg < 100 else (20 if bestg > 0 else -20)) / 8.0
                cw_make(&d, tr.nodes[ch].move, &u)
                moves += 1
                node = ch
                break
            best = -1
            for i in range(nm):
                x = &tr.nodes[where[buf[i]]]
                lg = log(<double>x.avail)
                v = x.value / x.visits + c_uct * sqrt(lg / x.visits) + pbias * x.h / (x.visits + 1)
                if v > bestv:
                    bestv = v
                    best = where[buf[i]]
            cw_make(&d, tr.nodes[best].move, &u)
            moves += 1
            node = best
        moves += cw_playout(&d, &rng, eps_pct, act)
        # backpropagation
        while node > 0:
            x = &tr.nodes[node]
            x.visits += 1
            x.value += cw_reward(&d, x.team, margin)
            node = x.parent
        tr.nodes[0].visits += 1
        it += 1
    free(buf); free(stamp); free(where); free(untried)
    iters_out[0] = it
    moves_out[0] = moves
    return rc


# ---------------------------------------------------------------- PIMC (determinized search)
#
# Perfect-information Monte Carlo: every pass redeals the hidden tiles from
# the searcher's view (cw_determinize), and in that deal each root candidate
# is scored either (roll = 2) by playing the deal out to the end with the
# greedy move (cw_greedy_fast) for every seat, (roll = 1) with the ISMCTS
# playout policy, or (roll = 0) by a depth-limited negamax over the
# alternating teams' moves (inner nodes: the `width` moves with the best
# one-move gain, plus moves that block a live six of the other team). The
# refill draws are the deal's bag order. Values are the exact score
# difference (own team - other team) of the team to move, +-CW_TERMB more
# for a finished game, +-CW_SIXV for a six. Each root move's value in a
# deal is squashed to -1..1 (tanh(v / scale)) and averaged over deals; the
# best average is played. Measured against greedy (bench/bench_crosswise.py,
# 2 players, 0.2 s/move, 40 games): negamax depth 2 / 3 score about 0.58,
# greedy rollouts 0.79 (the MCTS mode 0.79).

cdef enum:
    CW_SIXV = 10000
    CW_TERMB = 20
    CW_INF = 1000000

cdef inline int cw_open_six(const cw_State* s, int team, const uint8_t* hand) noexcept nogil:
    """1 if a line of `team` holds five of a symbol in `hand` and its sixth
    cell is empty (the holder of `hand` completes it with one placement)."""
    cdef int i, sym
    cdef uint64_t m, e
    for i in range(6):
        m = CW_ROW[i] if team == 0 else CW_COL[i]
        e = m & ~s.occ
        if e == 0 or (e & (e - 1)) != 0:
            continue
        for sym in range(CW_NSYM):
            if hand[sym] and cw_popcount(s.bb[sym] & m) == 5:
                return 1
    return 0

cdef inline int cw_term_value(const cw_State* s, int depth) noexcept nogil:
    """Value of a finished game for the team to move (depth: plies left,
    so that sooner sixes count more)."""
    cdef int team = cw_team(cw_to_move(s)), d
    if s.six >= 0:
        return (CW_SIXV + depth) if s.six == team else -(CW_SIXV + depth)
    d = cw_team_score(s, team) - cw_team_score(s, 1 - team)
    if d > 0:
        return d + CW_TERMB
    if d < 0:
        return d - CW_TERMB
    return 0

cdef int cw_leaf_best(cw_State* s, const int* buf, int n, int team, int base) noexcept nogil:
    """Best value over the moves in buf for `team` (to move) after one ply:
    base + the move's gain; a six it makes wins, a six it leaves open for
    the next player (who holds the symbol in this deal) loses, filling the
    board ends the game."""
    cdef int i, code, kind, a, b, sa, sb, six, c2, before, after, v, best = -CW_INF
    cdef int nxt = s.cycle[(s.slot + 1) % s.cycle_len]
    cdef int last = cw_popcount(s.occ) == 35
    for i in range(n):
        code = buf[i]
        kind = code >> 12
        if kind == CW_K_PASS:
            v = base
            if v > best:
                best = v
            continue
        a = code & 63
        b = (code >> 6) & 63
        c2 = b if (kind == CW_K_MOVE or kind == CW_K_SWAP) else -1
        before = cw_lines_value(s, a, c2, team)
        sa = s.cell[a]
        six = -1
        if kind == CW_K_PLACE or kind == CW_K_REPLACE:
            cw_set_cell(s, a, b)
            six = cw_six_at(s, a)
        elif kind == CW_K_REMOVE:
            cw_set_cell(s, a, -1)
        elif kind == CW_K_MOVE:
            cw_set_cell(s, a, -1)
            cw_set_cell(s, b, sa)
            six = cw_six_at(s, b)
        else:
            sb = s.cell[b]
            cw_set_cell(s, a, sb)
            cw_set_cell(s, b, sa)
            six = cw_six_at(s, a)
            if six < 0:
                six = cw_six_at(s, b)
        after = cw_lines_value(s, a, c2, team)
        if six >= 0:
            v = CW_SIXV if six == team else -CW_SIXV
        elif last and kind == CW_K_PLACE:
            v = base + after - before
            if v > 0:
                v += CW_TERMB
            elif v < 0:
                v -= CW_TERMB
        elif cw_open_six(s, 1 - team, s.hand[nxt]):
            v = -(CW_SIXV - 1)
        else:
            v = base + after - before
        if kind == CW_K_MOVE:
            cw_set_cell(s, b, -1)
            cw_set_cell(s, a, sa)
        elif kind == CW_K_SWAP:
            cw_set_cell(s, b, s.cell[a])
            cw_set_cell(s, a, sa)
        else:
            cw_set_cell(s, a, sa)
        if v > best:
            best = v
            if v >= CW_SIXV:
                break
    return best

cdef int cw_negamax(cw_State* s, int depth, int alpha, int beta, int width,
                    long long* leaves, StopCheck* sc) noexcept nogil:
    """Value for the team to move, searching `depth` plies (depth 1: the
    best move by cw_leaf_best)."""
    cdef int buf[CW_MAXMOVES]
    cdef int gain[CW_MAXMOVES]
    cdef int n, i, j, k, g, team, base, best, v, code, kind, a, b
    cdef uint64_t block = 0, m, e
    cdef cw_Undo u
    if s.over:
        return cw_term_value(s, depth)
    team = cw_team(cw_to_move(s))
    base = cw_team_score(s, team) - cw_team_score(s, 1 - team)
    n = cw_gen_moves(s, buf)
    leaves[0] += n
    if depth <= 1:
        return cw_leaf_best(s, buf, n, team, base)
    if stop_check(sc):
        return 0            # the caller drops this evaluation
    # cells that block a live six of the other team (its line holds five of a
    # symbol and one empty cell)
    for i in range(6):
        m = CW_ROW[i] if team == 1 else CW_COL[i]
        e = m & ~s.occ
        if e == 0 or (e & (e - 1)) != 0:
            continue
        for k in range(CW_NSYM):
            if cw_popcount(s.bb[k] & m) == 5:
                block |= e | (s.bb[k] & m)
    for i in range(n):
        code = buf[i]
        g = cw_move_gain(s, code, team)
        if g >= 1000:
            return CW_SIXV + depth - 1
        if block:
            kind = code >> 12
            a = code & 63
            if (kind == CW_K_PLACE or kind == CW_K_REMOVE or kind == CW_K_REPLACE) and (block >> a) & 1:
                g += 500
        gain[i] = g
    k = n if n < width else width
    best = -CW_INF
    for i in range(k):
        # selection of the i-th best by gain (generation order on ties)
        j = i
        for b in range(i + 1, n):
            if gain[b] > gain[j]:
                j = b
        g = gain[j]; gain[j] = gain[i]; gain[i] = g
        code = buf[j]; buf[j] = buf[i]; buf[i] = code
        cw_make(s, code, &u)
        v = -cw_negamax(s, depth - 1, -beta, -alpha, width, leaves, sc)
        cw_unmake(s, &u)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best

cdef inline double cw_squash(int v, double scale) noexcept nogil:
    cdef double x
    if v >= CW_SIXV - 100:
        return 1.0
    if v <= -(CW_SIXV - 100):
        return -1.0
    x = v / scale
    # tanh without libm's: (e^2x - 1) / (e^2x + 1), clipped
    if x > 20.0:
        return 1.0
    if x < -20.0:
        return -1.0
    x = exp(2.0 * x)
    return (x - 1.0) / (x + 1.0)

cdef int cw_root_candidates(cw_State* d, int viewer, int root_k, int* rootmoves) noexcept nogil:
    """The viewer's moves ranked by one-move gain (+500 for lowering the
    other team's threat of six); with root_k > 0 only the root_k best and
    every threat-lowering or winning move. Returns how many."""
    cdef int nroot = cw_gen_moves(d, rootmoves)
    cdef int rootgain[CW_MAXMOVES]
    cdef int team = cw_team(viewer), threat0, i, j, g, best, ch, nkeep
    cdef cw_Undo u
    threat0 = cw_threats(d, 1 - team)
    for i in range(nroot):
        g = cw_move_gain(d, rootmoves[i], team)
        if threat0 > 0:
            cw_make(d, rootmoves[i], &u)
            if cw_threats(d, 1 - team) < threat0:
                g += 500
            cw_unmake(d, &u)
        rootgain[i] = g
    nkeep = nroot
    if root_k > 0 and nroot > root_k:
        nkeep = 0
        for i in range(nroot):
            if rootgain[i] >= 500:
                nkeep += 1
        if nkeep < root_k:
            nkeep = root_k
    for i in range(nkeep):
        best = i
        for j in range(i + 1, nroot):
            if rootgain[j] > rootgain[best]:
                best = j
        g = rootgain[best]
        ch = rootmoves[best]
        for j in range(best, i, -1):
            rootgain[j] = rootgain[j - 1]
            rootmoves[j] = rootmoves[j - 1]
        rootgain[i] = g
        rootmoves[i] = ch
    return nkeep

cdef int cw_pimc(const cw_State* root, int sims, double seconds, uint64_t seed,
                 int depth, int width, int root_k, double scale, int roll, int eps_pct,
                 int halving, int* rootmoves, double* acc, int* cnt, int* alive, int* nroot_out,
                 int* evals_out, long long* leaves_out, volatile int* stop) noexcept nogil:
    """PIMC search from the view of the player to move. One evaluation =
    one root move scored in one deal; the root moves are evaluated in turn,
    deal after deal, until `sims` evaluations or `seconds` (at least one
    evaluation of each root move). acc / cnt: per root move, summed squashed
    value for the mover's team and evaluations. Returns 0, or -1 on an
    inconsistent root. With halving (sequential halving), the budget is cut
    into phases; after each phase only the better half of the alive root
    moves (by mean value) stays alive, down to two; alive[i] is 1 for those
    left."""
    cdef int viewer = cw_to_move(root)
    cdef uint64_t rng = seed
    cdef cw_State d, e
    cdef cw_Undo u, u2
    cdef int buf[CW_MAXMOVES]
    cdef int nroot, i, j, ev = 0, v, nalive, nphase = 1, phase = 0, keep, better
    cdef double t0 = cw_now(), frac, mi, mj
    cdef long long leaves = 0
    cdef StopCheck sc
    stop_check_init(&sc, stop, seconds)
    memcpy(&d, root, sizeof(cw_State))
    nroot = cw_root_candidates(&d, viewer, root_k, rootmoves)
    nroot_out[0] = nroot
    for i in range(nroot):
        acc[i] = 0.0
        cnt[i] = 0
        alive[i] = 1
    nalive = nroot
    if halving:
        i = nroot
        while i > 2:
            i = (i + 1) // 2
            nphase += 1
    while True:
        memcpy(&d, root, sizeof(cw_State))
        if cw_determinize(&d, viewer, &rng) < 0:
            return -1
        for i in range(nroot):
            if sims > 0 and ev >= sims:
                break
            if not alive[i]:
                continue
            sc.countdown = 0        # read the clock before every evaluation, not once a round
            if stop_check(&sc):
                break
            cw_make(&d, rootmoves[i], &u)
            if roll > 0:
                # the deal played out to the end after the root move
                memcpy(&e, &d, sizeof(cw_State))
                while not e.over:
                    if roll == 2:
                        cw_make(&e, cw_greedy_fast(&e, buf), &u2)
                    else:
                        cw_make(&e, cw_policy_move(&e, &rng, eps_pct, 0), &u2)
                    leaves += 1
                v = cw_term_value(&e, 0)
                if cw_team(cw_to_move(&e)) != cw_team(viewer):
                    v = -v
            elif depth > 1:
                v = -cw_negamax(&d, depth - 1, -CW_INF, CW_INF, width, &leaves, &sc)
            elif d.over:
                v = -cw_term_value(&d, 0)
            else:
                v = cw_team_score(&d, cw_team(viewer)) - cw_team_score(&d, 1 - cw_team(viewer))
            cw_unmake(&d, &u)
            if sc.stopped:
                break               # an evaluation cut short is not counted
            acc[i] += cw_squash(v, scale)
            cnt[i] += 1
            ev += 1
        if sims > 0 and ev >= sims:
            break
        if seconds > 0 and cw_now() - t0 >= seconds:
            break
        if sc.stopped:
            break
        if phase < nphase - 1 and nalive > 2:
            frac = 0.0
            if sims > 0:
                frac = ev / <double>sims
            if seconds > 0 and (cw_now() - t0) / seconds > frac:
                frac = (cw_now() - t0) / seconds
            if frac * nphase >= phase + 1:
                # keep the better half: a move stays if fewer than keep alive
                # moves beat it (mean value, then candidate order)
                keep = (nalive + 1) // 2
                for i in range(nroot):
                    if not alive[i]:
                        continue
                    mi = acc[i] / cnt[i]
                    better = 0
                    for j in range(nroot):
                        if j != i and alive[j] > 0:
                            mj = acc[j] / cnt[j]
                            if mj > mi or (mj == mi and j < i):
                                better += 1
                    if better >= keep:
                        alive[i] = -1      # marked; cleared below
                nalive = 0
                for i in range(nroot):
                    if alive[i] < 0:
                        alive[i] = 0
                    nalive += alive[i]
                phase += 1
    evals_out[0] = ev
    leaves_out[0] = leaves
    return 0


# ---------------------------------------------------------------- Python class

cdef class CrosswiseCore:
    """The full state of a Crosswise game (every hand and the bag order).
    Private to games.crosswise, which wraps it in the game protocol."""

    cdef cw_State s
    cdef cw_Undo* hist
    cdef int nhist

    def __cinit__(self):
        self.hist = <cw_Undo*>malloc(CW_MAXHIST * sizeof(cw_Undo))
        if self.hist == NULL:
            raise MemoryError()
        self.nhist = 0
        memset(&self.s, 0, sizeof(cw_State))
        # not set up yet: a finished game with no players, so nothing can be played
        self.s.over = 1
        self.s.winner = -1
        self.s.six = -1

    def __dealloc__(self):
        free(self.hist)

    # -- construction ---------------------------------------------------

    @staticmethod
    def _cycle(int nplayers):
        if nplayers == 2:
            return [0, 1]
        if nplayers == 3:
            return [0, 1, 2, 1]
        if nplayers == 4:
            return [0, 1, 2, 3]
        raise ValueError(f"crosswise: players must be 2, 3 or 4, got {nplayers!r}")

    def setup(self, int nplayers, board, hands, known, bag, played, int slot, int passes):
        """Set the whole state from Python values, validating everything.
        board: 36 ints in -1..5; hands / known: per seat, 10 counts; bag: tiles
        in draw order (first drawn first); played: 4 counts; slot: index in
        the turn cycle; passes: consecutive passes so far."""
        cdef cw_State s
        cdef int i, t, p, c
        memset(&s, 0, sizeof(cw_State))
        cycle = CrosswiseCore._cycle(nplayers)
        s.nplayers = nplayers
        s.cycle_len = len(cycle)
        for i in range(len(cycle)):
            s.cycle[i] = cycle[i]
        if not (0 <= slot < s.cycle_len):
            raise ValueError(f"crosswise: turn slot {slot} out of range")
        s.slot = slot
        if not (0 <= passes < nplayers):
            raise ValueError(f"crosswise: passes must be in 0..{nplayers - 1}, got {passes}")
        s.passes = passes
        for p in range(4):
            s.hand_size[p] = 0
        for p in range(nplayers):
            s.hand_size[p] = 6 if (nplayers == 3 and p == 1) else 4
        board = list(board)
        if len(board) != 36:
            raise ValueError("crosswise: board must have 36 cells")
        for i in range(36):
            s.cell[i] = -1
        count = [0] * CW_NTILE
        for i in range(36):
            c = board[i]
            if not (-1 <= c < CW_NSYM):
                raise ValueError(f"crosswise: bad cell value {c!r}")
            if c >= 0:
                cw_set_cell(&s, i, c)
                count[c] += 1
        hands = [list(h) for h in hands]
        known = [list(k) for k in known]
        if len(hands) != nplayers or len(known) != nplayers:
            raise ValueError("crosswise: one hand per player")
        for p in range(nplayers):
            if len(hands[p]) != CW_NTILE or len(known[p]) != CW_NTILE:
                raise ValueError("crosswise: hands are 10 counts")
            n = 0
            for t in range(CW_NTILE):
                if not (0 <= known[p][t] <= hands[p][t]):
                    raise ValueError("crosswise: known tiles must be in the hand")
                s.hand[p][t] = hands[p][t]
                s.known[p][t] = known[p][t]
                n += hands[p][t]
                count[t] += hands[p][t]
            if n > s.hand_size[p]:
                raise ValueError(f"crosswise: seat {p} holds {n} tiles, more than {s.hand_size[p]}")
            s.hand_n[p] = n
        bag = list(bag)
        if len(bag) > 54:
            raise ValueError("crosswise: bag too large")
        s.bag_n = len(bag)
        for i in range(s.bag_n):
            t = bag[s.bag_n - 1 - i]
            if not (0 <= t < CW_NTILE):
                raise ValueError(f"crosswise: bad tile {t!r} in bag")
            s.bag[i] = t
            count[t] += 1
        played = list(played)
        if len(played) != 4:
            raise ValueError("crosswise: played is 4 counts")
        for i in range(4):
            if played[i] < 0:
                raise ValueError("crosswise: negative played count")
            s.played[i] = played[i]
            count[CW_T_MOVE + i] += played[i]
        if count != [CW_TOTAL[t] for t in range(CW_NTILE)]:
            raise ValueError(f"crosswise: tile counts {count} do not match the set "
                             f"(7 of each symbol, 3 of each action)")
        if s.bag_n > 0:
            for p in range(nplayers):
                if s.hand_n[p] != s.hand_size[p]:
                    raise ValueError("crosswise: a hand is short while the bag is not empty")
        s.six = cw_find_six(&s)
        if s.six == 2:
            raise ValueError("crosswise: both teams have six identical")
        cw_finish(&s)
        self.s = s
        self.nhist = 0

    def deal(self, int nplayers, uint64_t seed):
        """A new game: shuffle the bag with `seed`, deal, draw the starting seat."""
        cdef uint64_t rng = seed
        cdef int i, j, p, k
        tiles = [t for t in range(CW_NTILE) for _ in range(CW_TOTAL[t])]
        for i in range(len(tiles) - 1, 0, -1):
            j = cw_rand_below(&rng, i + 1)
            tiles[i], tiles[j] = tiles[j], tiles[i]
        cycle = CrosswiseCore._cycle(nplayers)
        hands = []
        k = 0
        for p in range(nplayers):
            size = 6 if (nplayers == 3 and p == 1) else 4
            h = [0] * CW_NTILE
            for i in range(size):
                h[tiles[k]] += 1
                k += 1
            hands.append(h)
        start = cw_rand_below(&rng, nplayers)
        self.setup(nplayers, [-1] * 36, hands, [[0] * CW_NTILE for _ in range(nplayers)],
                   tiles[k:], [0, 0, 0, 0], cycle.index(start), 0)

    cpdef CrosswiseCore clone(self):
        cdef CrosswiseCore c = CrosswiseCore.__new__(CrosswiseCore)
        c.s = self.s
        memcpy(c.hist, self.hist, self.nhist * sizeof(cw_Undo))
        c.nhist = self.nhist
        return c

    # -- queries ----------------------------------------------------------

    @property
    def nplayers(self):
        return self.s.nplayers

    @property
    def to_move(self):
        return cw_to_move(&self.s)

    @property
    def slot(self):
        return self.s.slot

    @property
    def cycle(self):
        return [self.s.cycle[i] for i in range(self.s.cycle_len)]

    @property
    def over(self):
        return bool(self.s.over)

    @property
    def winner(self):
        return self.s.winner

    @property
    def six(self):
        return self.s.six

    @property
    def passes(self):
        return self.s.passes

    @property
    def nhist(self):
        return self.nhist

    def board(self):
        return [self.s.cell[i] for i in range(36)]

    def hand(self, int p):
        if not (0 <= p < self.s.nplayers):
            raise ValueError(f"crosswise: no seat {p}")
        return [self.s.hand[p][t] for t in range(CW_NTILE)]

    def known(self, int p):
        if not (0 <= p < self.s.nplayers):
            raise ValueError(f"crosswise: no seat {p}")
        return [self.s.known[p][t] for t in range(CW_NTILE)]

    def hand_size(self, int p):
        if not (0 <= p < self.s.nplayers):
            raise ValueError(f"crosswise: no seat {p}")
        return self.s.hand_size[p]

    def bag(self):
        """Bag tiles in draw order (first drawn first)."""
        return [self.s.bag[self.s.bag_n - 1 - i] for i in range(self.s.bag_n)]

    @property
    def bag_count(self):
        return self.s.bag_n

    def played(self):
        return [self.s.played[i] for i in range(4)]

    def scores(self):
        """(Rows, Columns) points on the board now."""
        return (cw_team_score(&self.s, 0), cw_team_score(&self.s, 1))

    def line_scores(self):
        """([6 row scores, row 1 first], [6 column scores, column a first])."""
        return ([cw_line_score(&self.s, CW_ROW[i]) for i in range(6)],
                [cw_line_score(&self.s, CW_COL[i]) for i in range(6)])

    def legal_codes(self):
        cdef int buf[CW_MAXMOVES]
        cdef int n = cw_gen_moves(&self.s, buf)
        return [buf[i] for i in range(n)]

    def is_legal(self, code):
        if not isinstance(code, int) or isinstance(code, bool):
            return False
        if code < 0 or code >= CW_CODE_SPACE:
            return False
        return bool(cw_is_legal(&self.s, code))

    # -- play -------------------------------------------------------------

    def play(self, code):
        if not self.is_legal(code):
            raise ValueError(f"crosswise: illegal move code {code!r}")
        if self.nhist >= CW_MAXHIST:
            raise ValueError("crosswise: history full")
        cw_make(&self.s, code, &self.hist[self.nhist])
        self.nhist += 1

    def undo(self):
        if self.nhist == 0:
            raise IndexError("crosswise: nothing to undo")
        self.nhist -= 1
        cw_unmake(&self.s, &self.hist[self.nhist])

    def history(self):
        return [self.hist[i].code for i in range(self.nhist)]

    def determinize(self, int viewer, uint64_t seed):
        """A copy (without history) with the viewer's unseen tiles redealt."""
        if not (0 <= viewer < self.s.nplayers):
            raise ValueError(f"crosswise: no seat {viewer}")
        cdef CrosswiseCore c = CrosswiseCore.__new__(CrosswiseCore)
        cdef uint64_t rng = seed
        c.s = self.s
        c.nhist = 0
        if cw_determinize(&c.s, viewer, &rng) < 0:
            raise ValueError("crosswise: inconsistent state, cannot determinize")
        return c

    # -- search -----------------------------------------------------------

    def greedy(self):
        if self.s.over or self.s.nplayers == 0:
            raise ValueError("crosswise: game over")
        cdef int buf[CW_MAXMOVES]
        cdef cw_State s = self.s
        return cw_greedy_move(&s, buf)

    def greedy_fast(self):
        """cw_greedy_fast (for tests: the same move as greedy())."""
        if self.s.over or self.s.nplayers == 0:
            raise ValueError("crosswise: game over")
        cdef int buf[CW_MAXMOVES]
        cdef cw_State s = self.s
        return cw_greedy_fast(&s, buf)

    def random_move(self, uint64_t seed):
        cdef uint64_t rng = seed
        if self.s.over:
            raise ValueError("crosswise: game over")
        return cw_random_move(&self.s, &rng)

    def ismcts(self, int sims, double seconds, uint64_t seed, double c_uct=0.7,
               double margin=0.0, int eps_pct=20, double pbias=0.0, int hexp=0,
               int root_k=12, int act=0):
        """Search from the view of the player to move. Returns (best code,
        mean value of it for the mover's team, iterations, playout moves,
        [(code, visits, mean value)] of the root children)."""
        if self.s.over:
            raise ValueError("crosswise: game over")
        if sims <= 0 and seconds <= 0:
            raise ValueError("crosswise: set sims or seconds")
        cdef cw_Tree tr
        cdef int iters = 0, rc, ch, best = -1, bestn = -1
        cdef long long moves = 0
        cdef cw_State root = self.s
        cdef cw_Node x
        tr.cap = 1 << 16
        tr.n = 0
        tr.nodes = <cw_Node*>malloc(tr.cap * sizeof(cw_Node))
        if tr.nodes == NULL:
            raise MemoryError()
        cdef volatile int* stop = current_stop_flag()
        with nogil:
            rc = cw_ismcts(&root, sims, seconds, seed, c_uct, margin, eps_pct, pbias, hexp, root_k, act, &tr,
                           &iters, &moves, stop)
        try:
            if rc < 0:
                raise ValueError("crosswise: search failed (inconsistent state or out of memory)")
            stats = []
            ch = tr.nodes[0].child
            while ch >= 0:
                x = tr.nodes[ch]
                stats.append((x.move, x.visits, x.value / x.visits if x.visits else 0.0))
                ch = x.sibling
            stats.sort(key=lambda e: (-e[1], -e[2], e[0]))
            if not stats:
                return (self.legal_codes()[0], 0.0, iters, moves, [])
            return (stats[0][0], stats[0][2], iters, moves, stats)
        finally:
            free(tr.nodes)

    def pimc(self, int sims, double seconds, uint64_t seed, int depth=3, int width=10,
             int root_k=12, double scale=5.0, int roll=0, int eps_pct=0, int halving=0):
        """Determinized alpha-beta (cw_pimc) from the view of the player to
        move. Returns (best code, its mean value for the mover's team,
        evaluations, leaf moves scored, [(code, evaluations, mean value)] of
        the root candidates, best first)."""
        if self.s.over:
            raise ValueError("crosswise: game over")
        if sims <= 0 and seconds <= 0:
            raise ValueError("crosswise: set sims or seconds")
        if not (1 <= depth <= 8) or width < 1:
            raise ValueError("crosswise: pimc depth must be 1..8 and width >= 1")
        if scale <= 0:
            raise ValueError("crosswise: pimc scale must be > 0")
        cdef int* rootmoves = <int*>malloc(CW_MAXMOVES * sizeof(int))
        cdef double* acc = <double*>malloc(CW_MAXMOVES * sizeof(double))
        cdef int* cnt = <int*>malloc(CW_MAXMOVES * sizeof(int))
        cdef int* alive = <int*>malloc(CW_MAXMOVES * sizeof(int))
        cdef int nroot = 0, evals = 0, rc, i
        cdef long long leaves = 0
        cdef cw_State root = self.s
        cdef volatile int* stop = current_stop_flag()
        if rootmoves == NULL or acc == NULL or cnt == NULL or alive == NULL:
            free(rootmoves); free(acc); free(cnt); free(alive)
            raise MemoryError()
        try:
            with nogil:
                rc = cw_pimc(&root, sims, seconds, seed, depth, width, root_k, scale, roll, eps_pct,
                             halving, rootmoves, acc, cnt, alive, &nroot, &evals, &leaves, stop)
            if rc < 0:
                raise ValueError("crosswise: search failed (inconsistent state)")
            stats = [(rootmoves[i], cnt[i], acc[i] / cnt[i], i, alive[i]) for i in range(nroot)
                     if cnt[i] > 0]
            # alive moves first, best mean value; ties: the better one-move gain (candidate order)
            stats.sort(key=lambda e: (-e[4], -e[2], e[3]))
            stats = [(m, n, q) for m, n, q, _, _ in stats]
            if not stats:   # stopped before the first evaluation: the best one-move gain
                return (rootmoves[0] if nroot else self.legal_codes()[0], 0.0, evals, leaves, [])
            return (stats[0][0], stats[0][2], evals, leaves, stats)
        finally:
            free(rootmoves); free(acc); free(cnt); free(alive)

    def bench_playouts(self, int viewer, int n, uint64_t seed, int eps_pct=20, int act=0):
        """n random playouts from redeals of this state; returns total moves."""
        if not (0 <= viewer < self.s.nplayers):
            raise ValueError(f"crosswise: no seat {viewer}")
        cdef uint64_t rng = seed
        cdef cw_State d
        cdef long long total = 0
        cdef int i
        with nogil:
            for i in range(n):
                d = self.s
                cw_determinize(&d, viewer, &rng)
                total += cw_playout(&d, &rng, eps_pct, act)
        return total
