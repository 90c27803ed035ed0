# Crosswise move policies, one move each, cheap enough for playouts: random,
# greedy (the playout policy of crosswise/search.pxi) and the one-move gain
# the search ranks root moves by; over the position of crosswise/board.pxi.

# ---------------------------------------------------------------- random

cdef int cw_random_move(const cw_State* s, uint64_t* rng) noexcept nogil:
    """A random legal move, tile first: a random tile of the hand (weighted
    by count), then a random target for it; tiles without a target are
    skipped. Pass if no tile has a target."""
    cdef int p = cw_to_move(s)
    cdef int tiles[16]
    cdef int n = 0, t, i, k, a
    cdef uint64_t empty = CW_FULL & ~s.occ
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
        else:
            a = cw_random_action(s, t, rng)
            if a >= 0:
                return a
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

# ---------------------------------------------------------------- greedy

cdef inline int cw_line_threat(const cw_State* s, uint64_t m) noexcept nogil:
    """Threats of six in one line: 2 per symbol with five in it and the sixth
    cell empty, 1 if the sixth cell is taken."""
    cdef int sym, n = 0
    for sym in range(CW_NSYM):
        if u64_popcount(s.bb[sym] & m) == 5:
            n += 2 if (s.occ & m) != m else 1
    return n

cdef int cw_threats(const cw_State* s, int team) noexcept nogil:
    """How close `team` is to six identical: cw_line_threat over its lines
    (2 per line and symbol with five in it and the sixth cell empty: one
    placement wins; 1 if the sixth cell is taken)."""
    cdef int i, n = 0
    for i in range(6):
        n += cw_line_threat(s, CW_ROW[i] if team == 0 else CW_COL[i])
    return n

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
    move is put on the board (cw_board_try) and taken back; hands are not
    touched."""
    cdef int kind = code >> 12, a = code & 63, b = (code >> 6) & 63, c2, before, gain, six, sa
    if kind == CW_K_PASS:
        return 0
    c2 = b if (kind == CW_K_MOVE or kind == CW_K_SWAP) else -1
    before = cw_lines_value(s, a, c2, team)
    sa = s.cell[a]
    six = cw_board_try(s, kind, a, b)
    gain = cw_lines_value(s, a, c2, team) - before
    cw_board_untry(s, kind, a, b, sa)
    if six >= 0:
        return 1000 if six == team else -1000
    return gain


ctypedef struct cw_GreedyBase:
    int team                      # the mover's team
    int rs[6]                     # row and column scores before the move
    int cs[6]
    int th[6]                     # threats of six in each line of the other team
    int t0                        # their sum
    const uint64_t* other         # the other team's lines

cdef inline void cw_greedy_base(const cw_State* s, cw_GreedyBase* g) noexcept nogil:
    """What cw_greedy_key compares every move against, taken once."""
    cdef int i
    g.team = cw_team(cw_to_move(s))
    # the other team's lines: their threats of six are the first key
    g.other = CW_ROW
    if g.team == 0:
        g.other = CW_COL
    g.t0 = 0
    for i in range(6):
        g.rs[i] = cw_line_score(s, CW_ROW[i])
        g.cs[i] = cw_line_score(s, CW_COL[i])
        g.th[i] = cw_line_threat(s, g.other[i])
        g.t0 += g.th[i]

cdef inline int cw_greedy_key(cw_State* s, const cw_GreedyBase* g, int code,
                              int* key_t, int* key_d) noexcept nogil:
    """One move's keys for cw_greedy: key_t the other team's threats of six
    after it, key_d its gain in own team - other team. The move is put on
    the bitboards, only the lines through its cells are rescored, and it is
    taken back. Returns 1 if it makes a six of the mover's team."""
    cdef int kind = code >> 12, a, b, c2, sa, six, ra, ca, v, la, lb
    if kind == CW_K_PASS:
        key_t[0] = g.t0
        key_d[0] = 0
        return 0
    a = code & 63
    b = (code >> 6) & 63
    c2 = b if (kind == CW_K_MOVE or kind == CW_K_SWAP) else -1
    sa = s.cell[a]
    six = cw_board_try(s, kind, a, b)
    if six == g.team:
        cw_board_untry(s, kind, a, b, sa)
        key_t[0] = 0
        key_d[0] = 0
        return 1
    ra = a // 6
    ca = a % 6
    v = (cw_line_score(s, CW_ROW[ra]) - g.rs[ra]) - (cw_line_score(s, CW_COL[ca]) - g.cs[ca])
    if c2 >= 0:
        if c2 // 6 != ra:
            v += cw_line_score(s, CW_ROW[c2 // 6]) - g.rs[c2 // 6]
        if c2 % 6 != ca:
            v -= cw_line_score(s, CW_COL[c2 % 6]) - g.cs[c2 % 6]
    key_d[0] = v if g.team == 0 else -v
    la = ca if g.team == 0 else ra
    key_t[0] = g.t0 - g.th[la] + cw_line_threat(s, g.other[la])
    if c2 >= 0:
        lb = c2 % 6 if g.team == 0 else c2 // 6
        if lb != la:
            key_t[0] += cw_line_threat(s, g.other[lb]) - g.th[lb]
    cw_board_untry(s, kind, a, b, sa)
    return 0

cdef int cw_greedy(cw_State* s, int* buf) noexcept nogil:
    """The greedy player's move: an instant win (a six of its own team),
    else the fewest threats of six of the other team (cw_threats: block a
    six), else the best score difference own team - other team; ties go to
    the first move in generation order. Computed on the board alone
    (cw_greedy_key). tests/crosswise_reference.py states the same rule in
    plain Python over the reference rules (its oracle)."""
    cdef int n = cw_gen_moves(s, buf)
    cdef int i, key_t, key_d
    cdef int best = buf[0], best_t = 1 << 30, best_d = -(1 << 30)
    cdef cw_GreedyBase g
    cw_greedy_base(s, &g)
    for i in range(n):
        if cw_greedy_key(s, &g, buf[i], &key_t, &key_d):
            return buf[i]
        if key_t < best_t or (key_t == best_t and key_d > best_d):
            best_t = key_t
            best_d = key_d
            best = buf[i]
    return best
