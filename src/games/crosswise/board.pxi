# Crosswise core, rules and position: board, hands, bag, move generation,
# make/unmake, scoring, determinization (redealing what a seat cannot see).
# The move policies are in crosswise/playouts.pxi, the searches in
# crosswise/search.pxi, the Python class CrosswiseCore in crosswise/api.pxi; shared C helpers (splitmix64, popcounts, the clock) are
# in src/engine/bitboard.pxi.
#
# Included from _core.pyx. Every C-level name starts with `cw_`, every
# Python-visible class with `Crosswise`. The rules are those of
# docs/rules/crosswise.md; the Python facade (src/games/crosswise/game.py)
# validates all input before it reaches the core, and the methods of
# CrosswiseCore validate again, so no call from Python can corrupt it.
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
    CW_MAXHIST = 512         # 39 placements + 12 actions, <= 4 passes between moves

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

cdef inline int cw_rand_below(uint64_t* s, int n) noexcept nogil:
    """Uniform in [0, n) (n > 0) from the splitmix64 stream s (bitboard.pxi)."""
    return <int>lemire_below(splitmix64(s), <uint32_t>n)

cdef inline int cw_nth_bit(uint64_t x, int k) noexcept nogil:
    cdef int i
    for i in range(k):
        x &= x - 1
    return u64_lsb(x)

cdef inline int cw_random_bit(uint64_t x, uint64_t* rng) noexcept nogil:
    return cw_nth_bit(x, cw_rand_below(rng, u64_popcount(x)))

cdef inline int cw_team(int seat) noexcept nogil:
    return seat & 1

cdef inline int cw_to_move(const cw_State* s) noexcept nogil:
    return s.cycle[s.slot]

cdef int cw_line_score(const cw_State* s, uint64_t mask) noexcept nogil:
    cdef int total = 0, sym, c, allone = 1
    for sym in range(CW_NSYM):
        c = u64_popcount(s.bb[sym] & mask)
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

cdef bint cw_everyone_passed(const cw_State* s) noexcept nogil:
    """Has every seat passed since the last move? The last `passes` plies
    were passes, made by the seats at the slots just before this one. (With
    three players the cycle 0,1,2,1 repeats seat 1, so counting passes
    against the number of players is not enough.)"""
    cdef int i, sl = s.slot, seats = 0
    for i in range(min(s.passes, s.cycle_len)):
        sl = sl - 1 if sl > 0 else s.cycle_len - 1
        seats |= 1 << s.cycle[sl]
    return seats == (1 << s.nplayers) - 1

cdef void cw_finish(cw_State* s) noexcept nogil:
    """Set over/winner after a move (six, full board, or everyone passed)."""
    cdef int r, c
    if s.six >= 0:
        s.over = 1
        s.winner = s.six
    elif s.occ == CW_FULL or cw_everyone_passed(s):
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
                a = u64_lsb(x)
                x &= x - 1
                out[n] = a | (sym << 6)
                n += 1
    if s.hand[p][CW_T_MOVE] and occ and empty:
        x = occ
        while x:
            a = u64_lsb(x)
            x &= x - 1
            y = empty
            while y:
                b = u64_lsb(y)
                y &= y - 1
                out[n] = a | (b << 6) | (CW_K_MOVE << 12)
                n += 1
    if s.hand[p][CW_T_REMOVE]:
        x = occ
        while x:
            a = u64_lsb(x)
            x &= x - 1
            out[n] = a | (CW_K_REMOVE << 12)
            n += 1
    if s.hand[p][CW_T_REPLACE]:
        x = occ
        while x:
            a = u64_lsb(x)
            x &= x - 1
            for sym in range(CW_NSYM):
                if s.hand[p][sym] and sym != s.cell[a]:
                    out[n] = a | (sym << 6) | (CW_K_REPLACE << 12)
                    n += 1
    if s.hand[p][CW_T_SWAP]:
        x = occ
        while x:
            a = u64_lsb(x)
            x &= x - 1
            y = x & ~s.bb[s.cell[a]]
            while y:
                b = u64_lsb(y)
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

cdef inline int cw_board_try(cw_State* s, int kind, int a, int b) noexcept nogil:
    """Put a move (not a pass) on the board alone (hands, bag and turn stay)
    and return the team that now has six identical through a changed cell,
    or -1. cw_board_untry takes it back."""
    cdef int sa = s.cell[a], sb, six = -1
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
    return six

cdef inline void cw_board_untry(cw_State* s, int kind, int a, int b, int sa) noexcept nogil:
    """Undo cw_board_try (sa: what cell a held before, -1 for empty)."""
    if kind == CW_K_MOVE:
        cw_set_cell(s, b, -1)
        cw_set_cell(s, a, sa)
    elif kind == CW_K_SWAP:
        cw_set_cell(s, b, s.cell[a])
        cw_set_cell(s, a, sa)
    else:
        cw_set_cell(s, a, sa)

cdef void cw_make(cw_State* s, int code, cw_Undo* u) noexcept nogil:
    """Play a legal move (the caller checked legality)."""
    cdef int p = cw_to_move(s)
    cdef int kind = code >> 12, a = code & 63, b = (code >> 6) & 63, t, six = -1
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
        # the hand: the tile played (a symbol, an action tile, or Replace and
        # its symbol), and the symbol Remove / Replace take off the board
        if kind == CW_K_PLACE:
            cw_take(s, p, b)
        else:
            cw_take(s, p, CW_T_MOVE + kind - 1)
            if kind == CW_K_REPLACE:
                cw_take(s, p, b)
        if kind == CW_K_REMOVE or kind == CW_K_REPLACE:
            u.aux = <int8_t>s.cell[a]
            cw_give(s, p, s.cell[a])
        six = cw_board_try(s, kind, a, b)
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
        cnt[t] -= u64_popcount(s.bb[t])
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
