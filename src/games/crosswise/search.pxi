# Crosswise search: PIMC (determinized search with greedy rollouts), over
# the move policies of crosswise/playouts.pxi.

from libc.math cimport exp


# ---------------------------------------------------------------- root candidates

cdef int cw_root_gain(cw_State* d, int code, int team, int threat0) noexcept nogil:
    """A root move's rank key: its one-move gain (cw_move_gain; 1000 for an
    own six), +500 if it lowers the other team's threat of six (threat0:
    cw_threats of the other team now); >= 500 only for wins and six blocks."""
    cdef int g = cw_move_gain(d, code, team)
    cdef cw_Undo u
    if threat0 > 0:
        cw_make(d, code, &u)
        if cw_threats(d, 1 - team) < threat0:
            g += 500          # below an own six (1000), above any score gain
        cw_unmake(d, &u)
    return g

cdef int cw_root_candidates(cw_State* d, int viewer, int root_k, const int* only, int nonly,
                            int* rootmoves) noexcept nogil:
    """The viewer's moves (with nonly > 0: only those among only[0..nonly))
    ranked by one-move gain (+500 for lowering the other team's threat of
    six; generation order on ties); with root_k > 0 only the root_k best
    and every threat-lowering or winning move. Returns how many."""
    cdef int nroot = cw_gen_moves(d, rootmoves)
    cdef int rootgain[CW_MAXMOVES]
    cdef int team = cw_team(viewer), threat0, i, j, g, best, ch, nkeep
    if nonly > 0:
        # the searched moves, kept in generation order
        nkeep = 0
        for i in range(nroot):
            for j in range(nonly):
                if rootmoves[i] == only[j]:
                    rootmoves[nkeep] = rootmoves[i]
                    nkeep += 1
                    break
        nroot = nkeep
    threat0 = cw_threats(d, 1 - team)
    for i in range(nroot):
        rootgain[i] = cw_root_gain(d, rootmoves[i], team, threat0)
    nkeep = nroot
    if root_k > 0 and nroot > root_k:
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
    return nkeep


# ---------------------------------------------------------------- PIMC (determinized search)
#
# Perfect-information Monte Carlo: every pass redeals the hidden tiles from
# the searcher's view (cw_determinize), and in that deal each root candidate
# is scored by playing the deal out to the end with the greedy move
# (cw_greedy) for every seat; the refill draws are the deal's bag order.
# Values are the exact score difference (own team - other team) of the team
# to move, +-CW_TERMB more for a finished game, +-CW_SIXV for a six. Each
# root move's value in a deal is squashed to -1..1 (tanh(v / CW_SCALE): a
# won game is about +1) and averaged over deals; the best average is
# played. Measured against greedy (bench/bench_crosswise.py, 2 players,
# 0.2 s/move, 40 games): greedy rollouts scored 0.79, a depth-limited
# negamax in their place (depth 2 / 3) about 0.58.

cdef enum:
    CW_SIXV = 10000
    CW_TERMB = 20

cdef double CW_SCALE = 5.0      # score points per unit of squashed value (30 measured no better)

cdef inline int cw_term_value(const cw_State* s) noexcept nogil:
    """Value of a finished game for the team to move."""
    cdef int team = cw_team(cw_to_move(s)), d
    if s.six >= 0:
        return CW_SIXV if s.six == team else -CW_SIXV
    d = cw_team_score(s, team) - cw_team_score(s, 1 - team)
    if d > 0:
        return d + CW_TERMB
    if d < 0:
        return d - CW_TERMB
    return 0

cdef inline double cw_squash(int v) noexcept nogil:
    cdef double x
    if v >= CW_SIXV - 100:
        return 1.0
    if v <= -(CW_SIXV - 100):
        return -1.0
    x = v / CW_SCALE
    # tanh without libm's: (e^2x - 1) / (e^2x + 1), clipped
    if x > 20.0:
        return 1.0
    if x < -20.0:
        return -1.0
    x = exp(2.0 * x)
    return (x - 1.0) / (x + 1.0)

# ---------------------------------------------------------------- inference from the other team's moves
#
# A deal is a guess at the hidden tiles. The other team's recent moves tell
# which guesses are likely: a hand under which that player's move is not
# the greedy move (cw_greedy) would not have played it. cw_infer_deal
# redeals until the deal explains the last `infer` moves of the other team
# that way (or CW_INFER_TRIES deals were tried; then the one that explained
# the most recent moves). To check a move, the history is taken back to it
# in a copy of the deal: the tiles each hidden hand drew since are unknown,
# so they are drawn at random from the deal's unknown tiles of that hand.

cdef enum:
    CW_INFER_TRIES = 48

cdef int cw_explained(const cw_State* deal, const cw_Undo* hist, int nhist, int viewer,
                      int infer, uint64_t* rng) noexcept nogil:
    """How many of the other team's last `infer` moves (most recent first,
    stopping at the first that fails) are the greedy move in this deal.
    -1 if the history cannot be taken back in this deal."""
    cdef cw_State e
    cdef int buf[CW_MAXMOVES]
    cdef int h = nhist - 1, p, i, j, k, t, nunk, ok = 0, checked = 0
    cdef int unk[16]
    cdef int team = cw_team(viewer)
    memcpy(&e, deal, sizeof(cw_State))
    while h >= 0 and checked < infer:
        p = e.cycle[hist[h].slot]
        if p != viewer and hist[h].ndraw > 0:
            # the tiles p drew after this move: unknown ones of p's hand now
            nunk = 0
            for t in range(CW_NTILE):
                for i in range(e.hand[p][t] - e.known[p][t]):
                    if nunk < 16:
                        unk[nunk] = t
                        nunk += 1
            if nunk < hist[h].ndraw or e.bag_n + hist[h].ndraw > 54:
                return -1
            for i in range(hist[h].ndraw):
                j = i + cw_rand_below(rng, nunk - i)
                k = unk[i]; unk[i] = unk[j]; unk[j] = k
                e.bag[e.bag_n + i] = <uint8_t>unk[i]
        cw_unmake(&e, &hist[h])
        if cw_team(p) != team:
            checked += 1
            if e.over or cw_greedy(&e, buf) != hist[h].code:
                break
            ok += 1
        h -= 1
    return ok

cdef int cw_infer_deal(const cw_State* root, const cw_Undo* hist, int nhist, int viewer,
                       int infer, uint64_t* rng, cw_State* d) noexcept nogil:
    """Redeal the root into d (cw_determinize); with infer > 0 and history,
    prefer deals that explain the other team's recent moves (see above).
    Returns 0, or -1 if the state is inconsistent."""
    cdef cw_State best
    cdef int tr, n, bestn = -2
    for tr in range(CW_INFER_TRIES if infer > 0 and nhist > 0 else 1):
        memcpy(d, root, sizeof(cw_State))
        if cw_determinize(d, viewer, rng) < 0:
            return -1
        if infer <= 0 or nhist <= 0:
            return 0
        n = cw_explained(d, hist, nhist, viewer, infer, rng)
        if n >= infer:
            return 0
        if n > bestn:
            bestn = n
            memcpy(&best, d, sizeof(cw_State))
    memcpy(d, &best, sizeof(cw_State))
    return 0

cdef int cw_greedy_value(cw_State* e, int viewer, long long* leaves) noexcept nogil:
    """Play e out to the end with greedy moves for every seat; the final
    value (cw_term_value) for the viewer's team."""
    cdef int buf[CW_MAXMOVES]
    cdef cw_Undo u
    cdef int v
    while not e.over:
        cw_make(e, cw_greedy(e, buf), &u)
        leaves[0] += 1
    v = cw_term_value(e)
    return v if cw_team(cw_to_move(e)) == cw_team(viewer) else -v

cdef int cw_pimc(const cw_State* root, int sims, double seconds, uint64_t seed,
                 int root_k, int halving, const cw_Undo* hist, int nhist, int infer,
                 int multipv, const int* only, int nonly, int* rootmoves, double* acc, int* cnt,
                 int* alive, int* nroot_out, int* evals_out, long long* leaves_out, volatile int* stop) noexcept nogil:
    """PIMC search from the view of the player to move. One evaluation =
    one root move scored in one deal; the root moves are evaluated in turn,
    deal after deal, until `sims` evaluations or `seconds` (at least one
    evaluation of each root move). acc / cnt: per root move, summed squashed
    value for the mover's team and evaluations. Returns 0, or -1 on an
    inconsistent root. With halving (sequential halving), the budget is cut
    into phases; after each phase only the better half of the alive root
    moves (by mean value) stays alive, down to two (or multipv); alive[i]
    is 1 for those left. Wins and six blocks are never dropped: with few evaluations a
    phase is too short to tell them from moves that leave a six open.
    multipv: root_k and halving keep at least that many candidates (the
    lines asked for are all searched to the last phase); nonly > 0: only
    the root moves in only[0..nonly) are candidates."""
    cdef int viewer = cw_to_move(root)
    cdef uint64_t rng = seed
    cdef cw_State d, e
    cdef cw_Undo u
    cdef int nroot, i, j, ev = 0, v, nalive, nphase = 1, phase = 0, keep, better
    cdef int min_alive = multipv if multipv > 2 else 2     # halving stops at this many alive
    cdef double t0 = now_seconds(), frac, mi, mj
    cdef long long leaves = 0
    cdef StopCheck sc
    # the clock is armed after the first round: every root move is scored once
    stop_check_init(&sc, stop, 0.0, 256)
    memcpy(&d, root, sizeof(cw_State))
    cdef int forcing[CW_MAXMOVES]
    if 0 < root_k < multipv:
        root_k = multipv
    nroot = cw_root_candidates(&d, viewer, root_k, only, nonly, rootmoves)
    nroot_out[0] = nroot
    v = cw_threats(&d, 1 - cw_team(viewer))
    for i in range(nroot):
        acc[i] = 0.0
        cnt[i] = 0
        alive[i] = 1
        forcing[i] = halving and cw_root_gain(&d, rootmoves[i], cw_team(viewer), v) >= 500
    nalive = nroot
    if halving:
        i = nroot
        while i > min_alive:
            i = (i + 1) // 2
            if i < min_alive:
                i = min_alive
            nphase += 1
    while True:
        if cw_infer_deal(root, hist, nhist, viewer, infer, &rng, &d) < 0:
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
            # the deal played out to the end after the root move
            memcpy(&e, &d, sizeof(cw_State))
            v = cw_greedy_value(&e, viewer, &leaves)
            cw_unmake(&d, &u)
            if sc.stopped:
                break               # an evaluation cut short is not counted
            acc[i] += cw_squash(v)
            cnt[i] += 1
            ev += 1
        if sims > 0 and ev >= sims:
            break
        if seconds > 0 and now_seconds() - t0 >= seconds:
            break
        if sc.stopped:
            break
        if seconds > 0:
            sc.deadline = t0 + seconds
        if phase < nphase - 1 and nalive > min_alive:
            frac = 0.0
            if sims > 0:
                frac = ev / <double>sims
            if seconds > 0 and (now_seconds() - t0) / seconds > frac:
                frac = (now_seconds() - t0) / seconds
            if frac * nphase >= phase + 1:
                # keep the better half: a move stays if fewer than keep alive
                # moves beat it (mean value, then candidate order)
                keep = (nalive + 1) // 2
                if keep < min_alive:
                    keep = min_alive
                for i in range(nroot):
                    if not alive[i] or forcing[i]:
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
