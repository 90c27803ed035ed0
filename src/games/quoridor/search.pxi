# Alpha-beta search for Quoridor: negamax with iterative deepening, PVS,
# aspiration windows, a transposition table, killers and history, and
# selective wall generation below the root, late-move reductions and
# pruning (the branching factor is the walls: ~130 moves a node), null-move
# and reverse futility pruning.
#
# Four players are searched "paranoid": the root player against a coalition
# of the other three. Negamax works over *sides* (root vs the rest); a move
# that keeps the side to move (one opponent followed by another) does not
# negate the score.

from libc.stdint cimport uint8_t, uint16_t, int8_t, int16_t, int32_t

cdef enum:
    S_WIN = 100000          # a win at ply p scores S_WIN - p
    S_WIN_BOUND = 99000     # scores beyond this are wins/losses
    S_INF = 1000000
    S_MAX_PLY = 100
    RFP_DEPTH = 2           # reverse futility: at depth <= 2, a static score
    RFP_MARGIN = 100        # 100 centi-steps a ply above beta is a cutoff
    LMP_DEPTH = 3           # late-move pruning: at depth <= 3 ...
    LMP_BASE = 4            # ... a wall after the first 4 + 2 depth^2 moves
    LMP_PER_DEPTH2 = 2      # is not tried (measured: 4 + depth^2 from depth 4 is weaker)
    LMR_LATE = 16           # late-move reduction (9x9, 2 players): a wall at move index 16 (the 17th) or later ...
    LMR_LATE_DEPTH = 4      # ... at depth >= 4 is reduced a ply more
    TT_EXACT = 0
    TT_LOWER = 1
    TT_UPPER = 2

# A table entry is two 64-bit words: the data (score, move, depth, bound)
# and the key XOR the data. Threads share one table without locks (Lazy
# SMP); an entry torn by two threads writing at once fails the check and
# reads as a miss. A table move is only ever used to order the moves
# generated at the node, so a bad one is never played.
ctypedef struct TTEntry:
    uint64_t check          # key ^ data
    uint64_t data           # score: bits 0-31, move: 32-47, depth: 48-55, flag: 56-63


cdef inline uint64_t tt_pack(int score, int move, int depth, int flag) noexcept nogil:
    return (<uint64_t><uint32_t>score) | ((<uint64_t><uint16_t>move) << 32) \
        | ((<uint64_t><uint8_t>depth) << 48) | ((<uint64_t><uint8_t>flag) << 56)


cdef inline int tt_get_score(uint64_t d) noexcept nogil:
    return <int><int32_t><uint32_t>(d & 0xFFFFFFFFULL)


cdef inline int tt_get_move(uint64_t d) noexcept nogil:
    return <int><int16_t><uint16_t>((d >> 32) & 0xFFFF)


cdef inline int tt_get_depth(uint64_t d) noexcept nogil:
    return <int><int8_t><uint8_t>((d >> 48) & 0xFF)


cdef inline int tt_get_flag(uint64_t d) noexcept nogil:
    return <int>((d >> 56) & 0xFF)

ctypedef struct QCaches:
    # the learned evaluation's caches (quoridor/features.pxi): they hold
    # nothing of a search but the rules and the weights, so a game's next
    # search may start with them full (QuoridorSearchMemory)
    QPathSlot paths[Q_PATH_SLOTS]
    QEvalSlot evals[Q_EVAL_SLOTS]


ctypedef struct QSearch:
    QPos pos
    TTEntry* tt
    uint64_t tt_mask
    long long nodes
    long long node_limit        # 0 = none
    StopCheck check             # the stop flag (engine.stop) and the deadline; check.stopped: stop now
    volatile int* abort_flag    # set by the main thread when it is done (Lazy SMP helpers)
    int root_done               # root moves fully searched in the current iteration
    int root_restricted         # some root moves are left out (root_skip): MultiPV, searchmoves
    int root_first              # with root_restricted: the root move to search first (-1: the table's)
    uint64_t root_skip[8]       # the root moves left out, as a set of move codes
    int draw_ply                # plies from the root to the game's max_plies draw; 0 = none
    int root_player
    int prune_walls             # selective walls below the root ...
    int select_ply              # ... from this ply on
    int lmr                     # late-move reductions
    int nine_by_two             # late-move pruning, reverse futility pruning and late walls
                                # reduced a ply more: measured stronger on 9x9 with 2 players only
                                # (off in greedy, as are the reductions)
    int null_move               # null-move pruning (2 players)
    int wall_gain               # order walls by the steps they add; prune quiet ones late
    int w_wall                  # evaluation: one wall in hand
    int w_tempo                 # evaluation: having the move
    int w_lone                  # evaluation: extra per wall when the other has none
    const QLearned* learned     # the learned evaluation (quoridor/features.pxi), or NULL: classic
    int sel_depth
    int killers[S_MAX_PLY][2]
    int history[4][512]
    int pv[S_MAX_PLY][S_MAX_PLY]
    int pv_len[S_MAX_PLY]
    QUndo undo[S_MAX_PLY]
    QCaches* caches             # the learned evaluation's caches (a thread's own)


cdef inline int q_side(const QSearch* s, int player) noexcept nogil:
    """Side 0 is the root player's; everybody else is side 1 (2 players:
    simply the player)."""
    if s.pos.g.nplayers == 2:
        return player
    return 0 if player == s.root_player else 1


cdef int q_eval(QSearch* s, int cut) noexcept nogil:
    """Static score (quoridor/eval.pxi) from the point of view of the side
    to move; a score >= cut may be a lower bound of it (the learned
    evaluation stops early when the rest can only add), one below is exact."""
    cdef QEvalSlot* slot
    cdef bint exact
    if s.learned != NULL:
        # a search evaluates the same positions again (re-searches, pruning
        # tests, transpositions) and a learned score costs up to a microsecond:
        # keep it by hash (the hash covers pawns, walls, walls in hand, turn)
        slot = &s.caches.evals[s.pos.hash & (Q_EVAL_SLOTS - 1)]
        if slot.key == s.pos.hash and (slot.kind == 1 or (slot.kind == 2 and slot.score >= cut)):
            return slot.score
        slot.key = s.pos.hash
        slot.score = q_learned_score(&s.pos, s.learned, s.caches.paths, cut, &exact)   # 2 players: the side to move's
        slot.kind = 1 if exact else 2
        return slot.score
    cdef int dist[4]
    q_distances(&s.pos, dist)
    cdef int v = q_score(&s.pos, dist, s.root_player, s.w_wall, s.w_tempo, s.w_lone)
    return v if q_side(s, s.pos.to_move) == q_side(s, s.root_player) else -v


cdef inline uint64_t q_to_anchors(const QGeom* g, u128 squares) noexcept nogil:
    """Square set -> anchor set: anchor (c, r) for every square (c, r) with
    c, r below the anchor columns and rows."""
    cdef uint64_t out = 0, colmask = ((<uint64_t>1) << g.mw) - 1
    cdef int r
    for r in range(g.mh):
        out |= ((<uint64_t>(squares >> (r * SQ))) & colmask) << (r * AS)
    return out


cdef int q_shortest_edges(const QPos* p, int player, u128* e, u128* flood=NULL) noexcept nogil:
    """The steps (north/south/east/west, as source squares) that lie on some
    shortest path of player to its goal; returns the path length (q_distance).
    With `flood` (Q_FLOOD_LAYERS entries), the goal flood is left there."""
    cdef u128 own_flood[Q_FLOOD_LAYERS]
    cdef u128* from_goal = flood if flood != NULL else own_flood
    cdef u128 me = bb_bit(p.pawn[player]), on_path, nb
    cdef int d = q_goal_flood(p, player, me, from_goal), i
    e[0] = e[1] = e[2] = e[3] = 0
    if d == Q_NO_PATH:
        return d
    # walk forward from the pawn: squares at pawn-distance i on a shortest path
    on_path = me
    for i in range(d):
        # next layer: goal-distance d-i-1 exactly
        nb = from_goal[d - i - 1] & ~(from_goal[d - i - 2] if d - i - 2 >= 0 else <u128>0)
        e[0] |= on_path & p.can_n & (nb >> SQ)
        e[1] |= on_path & p.can_s & (nb << SQ)
        e[2] |= on_path & p.can_e & (nb >> 1)
        e[3] |= on_path & p.can_w & (nb << 1)
        on_path = q_step(p, on_path) & nb
    return d


cdef inline void q_walls_blocking(const QGeom* g, const u128* e, uint64_t* h, uint64_t* v) noexcept nogil:
    """Add to h / v the walls that block a step of the edge sets e (N/S/E/W)."""
    h[0] |= q_to_anchors(g, e[0]) | q_to_anchors(g, e[0] >> 1)
    h[0] |= q_to_anchors(g, e[1] >> SQ) | q_to_anchors(g, e[1] >> (SQ + 1))
    v[0] |= q_to_anchors(g, e[2]) | q_to_anchors(g, e[2] >> SQ)
    v[0] |= q_to_anchors(g, e[3] >> 1) | q_to_anchors(g, e[3] >> (SQ + 1))


cdef void q_relevant_walls(QSearch* s, uint64_t* rel_h, uint64_t* rel_v) noexcept nogil:
    """Walls that block a step of some shortest path of an opponent of the
    side to move: the walls worth trying below the root."""
    cdef QPos* p = &s.pos
    cdef u128 e[4]
    cdef int i, me = q_side(s, p.to_move)
    rel_h[0] = 0
    rel_v[0] = 0
    for i in range(p.g.nplayers):
        if q_side(s, i) != me:
            q_shortest_edges(p, i, e)
            q_walls_blocking(p.g, e, rel_h, rel_v)


cdef inline int q_score_to_tt(int score, int ply) noexcept nogil:
    if score > S_WIN_BOUND:
        return score + ply
    if score < -S_WIN_BOUND:
        return score - ply
    return score


cdef inline int q_score_from_tt(int score, int ply) noexcept nogil:
    if score > S_WIN_BOUND:
        return score - ply
    if score < -S_WIN_BOUND:
        return score + ply
    return score


cdef inline bint q_out_of_budget(QSearch* s) noexcept nogil:
    """The search's stop poll (the clock read every 512 nodes), plus the
    Lazy SMP abort and the node limit."""
    if s.abort_flag[0] or (s.node_limit and s.nodes >= s.node_limit):
        s.check.stopped = 1
    return stop_check(&s.check)


# What a node's move ordering keeps for scoring its walls later: a wall's
# gain (q_wall_gain) costs a path search or two, and a node that cuts off on
# its table move, a killer or a pawn step never needs it.
ctypedef struct QOrder:
    int dist[4]             # every player's path length
    u128 edges[4][4]        # their shortest-path steps (the mover's side: once the walls are scored)
    u128 floods[4][Q_FLOOD_LAYERS]  # the goal floods that found them (q_reflood starts from them)
    int pending             # walls still scored by their upper bound
    uint64_t pend[8]        # those walls, as a set of move codes


cdef int q_wall_gain(QSearch* s, int mv, QOrder* o) noexcept nogil:
    """How many steps a wall adds to the other side's shortest paths, minus
    what it adds to its own side's (o: every player's distance before the
    wall, shortest-path steps and goal flood, so that a player whose
    shortest paths the wall does not touch needs no new search, and one
    whose paths it touches is flooded again from where the wall starts to
    matter)."""
    cdef QPos* p = &s.pos
    cdef const QGeom* g = p.g
    cdef u128 cn = p.can_n, cs = p.can_s, ce = p.can_e, cw = p.can_w, ends
    cdef int a = mv & Q_INDEX, i, gain = 0, my_side = q_side(s, p.to_move), d
    cdef bint horizontal = (mv & Q_KIND) == Q_HWALL, touches
    if horizontal:
        p.can_n &= ~g.h_n[a]
        p.can_s &= ~g.h_s[a]
        ends = g.h_n[a] | g.h_s[a]
    else:
        p.can_e &= ~g.v_e[a]
        p.can_w &= ~g.v_w[a]
        ends = g.v_e[a] | g.v_w[a]
    for i in range(g.nplayers):
        if horizontal:
            touches = ((o.edges[i][0] & g.h_n[a]) | (o.edges[i][1] & g.h_s[a])) != 0
        else:
            touches = ((o.edges[i][2] & g.v_e[a]) | (o.edges[i][3] & g.v_w[a])) != 0
        if not touches:
            continue
        if o.dist[i] >= Q_FLOOD_LAYERS:     # walled in (no legal position): no flood to start from
            d = q_distance(p, i) - o.dist[i]
        else:
            d = q_reflood(p, o.floods[i], o.dist[i], ends, bb_bit(p.pawn[i])) - o.dist[i]
        gain += -d if q_side(s, i) == my_side else d
    p.can_n = cn
    p.can_s = cs
    p.can_e = ce
    p.can_w = cw
    return gain


cdef enum:
    ORDER_TT = 1 << 20
    ORDER_KILLER1 = 900000
    ORDER_KILLER2 = 800000
    ORDER_PAWN = 500000
    ORDER_WALL = 300000      # a wall that lengthens the other side's paths
    ORDER_QUIET = 100000     # a wall that does not (below ORDER_QUIET_END)
    ORDER_QUIET_END = 200000


cdef inline int q_pick(int* moves, int i, int n) noexcept nogil:
    """Selection sort step: bring the best-scored remaining move to i."""
    cdef int best = i, j, t
    for j in range(i + 1, n):
        if (moves[j] >> 10) > (moves[best] >> 10):
            best = j
    t = moves[i]
    moves[i] = moves[best]
    moves[best] = t
    return moves[i] & 1023


cdef enum:
    ORDER_WALL_TOP = ORDER_WALL + 9 * 10000     # the best score a wall's gain gives


cdef inline int q_flood_to_all(const QPos* p, int player, u128 targets, u128* within) noexcept nogil:
    """q_goal_flood until every square of `targets` is reached (or the flood
    stops): within[k] = the squares at most k steps from the goal side of
    player, walls only. Returns the last k filled. One flood gives the goal
    distance of the pawn and of every square it may step to."""
    cdef u128 reach = p.g.goal[player], nxt
    cdef int k = 0
    within[0] = reach
    while targets & ~reach:
        nxt = reach | q_step(p, reach)
        if nxt == reach:
            break
        k += 1
        within[k] = nxt
        reach = nxt
    return k


cdef inline int q_layer_of(const u128* within, int layers, int sq, int low) noexcept nogil:
    """The goal distance of square sq from q_flood_to_all's layers (first
    layer holding it, searched from `low` up): q_distance of a pawn there."""
    cdef u128 bit = bb_bit(sq)
    cdef int k = low if low > 0 else 0
    while k <= layers:
        if within[k] & bit:
            return k
        k += 1
    return Q_NO_PATH


cdef inline int q_first_selective_ply(const QGeom* g) noexcept nogil:
    """The first ply whose walls are selective (prune_walls), measured per
    board with 2 players: on 7x7 the reply to a root move sees every wall (a
    wall that blocks no path yet may start a trap the horizon hides), on 9x9
    the next two plies too; on boards of at most 16 wall points (5x5 and
    smaller) every ply does (the selective walls lose won positions there,
    and the tree is small)."""
    if g.nplayers != 2:
        return 1
    if (g.w - 1) * (g.h - 1) <= 16:
        return S_MAX_PLY
    if g.w == g.h and g.w == 9:
        return 4
    if g.w == g.h and g.w == 7:
        return 2
    return 1


cdef int q_order_moves(QSearch* s, int* moves, int k, int ply, int tt_move, int selective,
                       QOrder* lazy) noexcept nogil:
    """Score moves for ordering (in place: moves[i] | score << 10), drop the
    walls that fail the selective filter, return the new count. With `lazy`,
    a wall that needs its gain is scored by the upper bound of its score and
    marked pending (q_pick_lazy scores them all when one would be picked, so
    the order is the same as scoring them at once)."""
    cdef QPos* p = &s.pos
    cdef uint64_t rel_h = 0, rel_v = 0
    cdef int i, n = 0, mv, kind, score, me = p.to_move, gain, hist
    cdef u128 within[Q_FLOOD_LAYERS]
    cdef u128 targets = bb_bit(p.pawn[me])
    for i in range(k):
        if (moves[i] & Q_KIND) == Q_STEP:
            targets |= bb_bit(moves[i] & Q_INDEX)
    cdef int layers = q_flood_to_all(p, me, targets, within)
    cdef int d0 = q_layer_of(within, layers, p.pawn[me], 0), d1
    cdef QOrder own
    cdef QOrder* o = lazy if lazy != NULL else &own
    cdef int my_side = q_side(s, me)
    o.pending = 0
    if selective or s.wall_gain:
        for i in range(p.g.nplayers):
            if q_side(s, i) != my_side:
                o.dist[i] = q_shortest_edges(p, i, o.edges[i], o.floods[i])
                q_walls_blocking(p.g, o.edges[i], &rel_h, &rel_v)
            elif i == me:
                o.dist[i] = d0
            else:
                o.dist[i] = q_distance(p, i)
        if s.wall_gain and lazy == NULL:
            q_side_edges(s, o)
    if lazy != NULL:
        memset(o.pend, 0, sizeof(o.pend))
    for i in range(k):
        mv = moves[i]
        kind = mv & Q_KIND
        hist = s.history[me][mv] // 4
        if kind != Q_STEP and selective:
            if kind == Q_HWALL and not ((rel_h >> (mv & Q_INDEX)) & 1):
                continue
            if kind == Q_VWALL and not ((rel_v >> (mv & Q_INDEX)) & 1):
                continue
        if mv == tt_move:
            score = ORDER_TT
        elif mv == s.killers[ply][0]:
            score = ORDER_KILLER1
        elif mv == s.killers[ply][1]:
            score = ORDER_KILLER2
        elif kind == Q_STEP:
            d1 = q_layer_of(within, layers, mv & Q_INDEX, d0 - 2)
            score = ORDER_PAWN + (d0 - d1) * 100000 + hist
            if score < 0:
                score = 0
        elif s.wall_gain and lazy != NULL:
            score = ORDER_WALL_TOP + hist       # history is at most 25000: never past ORDER_TT
            o.pend[mv >> 6] |= (<uint64_t>1) << (mv & 63)
            o.pending += 1
        elif s.wall_gain:
            score = q_wall_score(s, mv, o, hist)
        else:
            score = ORDER_WALL + hist
        if score > ORDER_TT:
            score = ORDER_TT
        moves[n] = mv | (score << 10)
        n += 1
    return n


cdef inline void q_side_edges(QSearch* s, QOrder* o) noexcept nogil:
    """The shortest-path steps of the mover's side (q_wall_gain needs them)."""
    cdef int i, my_side = q_side(s, s.pos.to_move)
    for i in range(s.pos.g.nplayers):
        if q_side(s, i) == my_side:
            q_shortest_edges(&s.pos, i, o.edges[i], o.floods[i])


cdef inline int q_wall_score(QSearch* s, int mv, QOrder* o, int hist) noexcept nogil:
    cdef int gain = q_wall_gain(s, mv, o)
    if gain > 0:
        return ORDER_WALL + (gain if gain < 9 else 9) * 10000 + hist
    return ORDER_QUIET + hist


cdef inline int q_pick_lazy(QSearch* s, int* moves, int i, int n, QOrder* o) noexcept nogil:
    """q_pick, scoring the pending walls first if the best-scored move is one
    of them (a pending wall's score is an upper bound, so a move that beats
    every bound is the one q_pick would take with all walls scored)."""
    cdef int best = i, j, mv
    if o.pending:
        for j in range(i + 1, n):
            if (moves[j] >> 10) > (moves[best] >> 10):
                best = j
        mv = moves[best] & 1023
        if (o.pend[mv >> 6] >> (mv & 63)) & 1:
            q_side_edges(s, o)
            for j in range(i, n):
                mv = moves[j] & 1023
                if (o.pend[mv >> 6] >> (mv & 63)) & 1:
                    moves[j] = mv | (q_wall_score(s, mv, o, (moves[j] >> 10) - ORDER_WALL_TOP) << 10)
            o.pending = 0
    return q_pick(moves, i, n)


cdef inline bint q_in_set(const uint64_t* codes, int mv) noexcept nogil:
    return (codes[mv >> 6] >> (mv & 63)) & 1


cdef int q_drop_skipped(QSearch* s, int* moves, int k) noexcept nogil:
    """The root's moves without those left out (root_skip), in order; the
    moves searched are then counted (late-move reductions) as if the others
    were not there."""
    cdef int i, n = 0
    for i in range(k):
        if not q_in_set(s.root_skip, moves[i]):
            moves[n] = moves[i]
            n += 1
    return n


cdef int q_alphabeta(QSearch* s, int depth, int ply, int alpha, int beta) noexcept nogil:
    """Score of the position for the side to move, within (alpha, beta)."""
    cdef QPos* p = &s.pos
    s.pv_len[ply] = 0
    if ply == 0:
        s.root_done = 0
    if q_out_of_budget(s):   # every node counts, the last ply too: the node limit is exact
        return 0
    if p.winner >= 0:
        return (S_WIN - ply) if q_side(s, p.winner) == q_side(s, p.to_move) else -(S_WIN - ply)
    if s.draw_ply and ply >= s.draw_ply:
        return 0                # the game's move limit: a draw
    s.nodes += 1
    if depth <= 0 or ply >= S_MAX_PLY - 1:
        return q_eval(s, beta)      # fail-soft: a lower bound >= beta does as well
    if ply > s.sel_depth:
        s.sel_depth = ply
    # transposition table
    cdef TTEntry* te = NULL
    cdef int tt_mv = -1, tt_sc, tt_fl, v
    cdef uint64_t tt_data
    if s.tt != NULL:
        te = &s.tt[p.hash & s.tt_mask]
        tt_data = te.data
        if (te.check ^ tt_data) == p.hash:
            tt_mv = tt_get_move(tt_data)
            tt_fl = tt_get_flag(tt_data)
            if ply > 0 and tt_get_depth(tt_data) >= depth:
                tt_sc = q_score_from_tt(tt_get_score(tt_data), ply)
                if tt_fl == TT_EXACT or (tt_fl == TT_LOWER and tt_sc >= beta) \
                        or (tt_fl == TT_UPPER and tt_sc <= alpha):
                    return tt_sc
    if s.nine_by_two and ply > 0 and depth <= RFP_DEPTH and beta - alpha == 1 and abs(beta) < S_WIN_BOUND:
        # reverse futility (static null move): so far above beta near the
        # horizon that one move by each side is not expected to bring it back
        v = q_eval(s, beta + RFP_MARGIN * depth)
        if v - RFP_MARGIN * depth >= beta:
            return v
    # Null move: if passing still holds beta at reduced depth, so will a move.
    # Zugzwang is real in Quoridor when a pawn must move (no walls left) and
    # on tiny boards, so only with walls in hand, on boards of 7x7 and up, 2 players;
    # a null-move cutoff never claims a forced win.
    cdef QUndo nu
    if s.null_move and ply > 0 and depth >= 3 and beta - alpha == 1 and p.g.nplayers == 2 \
            and p.g.w >= 7 and p.g.h >= 7 and p.walls_left[p.to_move] > 0 and abs(beta) < S_WIN_BOUND \
            and q_eval(s, beta) >= beta:
        q_make(p, Q_PASS, &nu)
        v = -q_alphabeta(s, depth - 3, ply + 1, -beta, -beta + 1)
        q_unmake(p, &nu)
        if s.check.stopped:
            return 0
        if v >= beta:
            return beta
    cdef int moves[Q_MAX_MOVES]
    cdef int k = q_gen_moves(p, moves)
    cdef QOrder order
    if ply == 0 and s.root_restricted:
        k = q_drop_skipped(s, moves, k)
        if s.root_first >= 0:
            tt_mv = s.root_first
    k = q_order_moves(s, moves, k, ply, tt_mv, s.prune_walls and ply >= s.select_ply, &order)
    cdef int i, mv, best = -S_INF, best_move = -1, a0 = alpha, my_side = q_side(s, p.to_move)
    cdef int flip, j, r, quiet
    for i in range(k):
        mv = q_pick_lazy(s, moves, i, k, &order)
        quiet = s.wall_gain and (mv & Q_KIND) != Q_STEP and (moves[i] >> 10) < ORDER_QUIET_END
        if s.nine_by_two and ply > 0 and depth <= LMP_DEPTH and beta - alpha == 1 and (mv & Q_KIND) != Q_STEP \
                and i >= LMP_BASE + LMP_PER_DEPTH2 * depth * depth and best > -S_WIN_BOUND:
            # late-move pruning: near the horizon, in a null window, the walls
            # ordered late are not tried once a move that does not lose is
            # found (the pawn steps come first; walls are ~130 of a node's moves)
            break
        if quiet and ply > 0 and depth <= 2 and i > 0:
            # a wall that lengthens nobody's path, near the horizon: not tried;
            # the moves come best-scored first, so every move left is one too
            break
        q_make(p, mv, &s.undo[ply])
        flip = q_side(s, p.to_move) != my_side
        if i == 0:
            v = -q_alphabeta(s, depth - 1, ply + 1, -beta, -alpha) if flip \
                else q_alphabeta(s, depth - 1, ply + 1, alpha, beta)
        else:
            # late-move reduction: a late wall is first searched shallower
            r = 1 if (s.lmr and depth >= 3 and i >= 4 and (mv & Q_KIND) != Q_STEP) else 0
            if r and quiet and depth >= 5:
                r = 2
            if r and s.nine_by_two and i >= LMR_LATE and depth >= LMR_LATE_DEPTH:
                r += 1      # so late a wall seldom refutes, and one that does is searched again
            v = -q_alphabeta(s, depth - 1 - r, ply + 1, -alpha - 1, -alpha) if flip \
                else q_alphabeta(s, depth - 1 - r, ply + 1, alpha, alpha + 1)
            if r and v > alpha and not s.check.stopped:
                v = -q_alphabeta(s, depth - 1, ply + 1, -alpha - 1, -alpha) if flip \
                    else q_alphabeta(s, depth - 1, ply + 1, alpha, alpha + 1)
            if v > alpha and v < beta and not s.check.stopped:
                v = -q_alphabeta(s, depth - 1, ply + 1, -beta, -alpha) if flip \
                    else q_alphabeta(s, depth - 1, ply + 1, alpha, beta)
        q_unmake(p, &s.undo[ply])
        if s.check.stopped:
            return best if best > -S_INF else 0
        if ply == 0:
            s.root_done += 1
        if v > best:
            best = v
            best_move = mv
            if v > alpha:
                alpha = v
                s.pv[ply][0] = mv
                for j in range(s.pv_len[ply + 1]):
                    s.pv[ply][j + 1] = s.pv[ply + 1][j]
                s.pv_len[ply] = s.pv_len[ply + 1] + 1
                if v >= beta:
                    if (mv & Q_KIND) != Q_STEP and mv != s.killers[ply][0]:
                        s.killers[ply][1] = s.killers[ply][0]
                        s.killers[ply][0] = mv
                    s.history[p.to_move][mv] += depth * depth
                    if s.history[p.to_move][mv] > 100000:
                        for j in range(512):
                            s.history[p.to_move][j] //= 2
                    break
    # a restricted root's value is not the position's: it is not stored
    if te != NULL and not (ply == 0 and s.root_restricted):
        tt_data = tt_pack(q_score_to_tt(best, ply), best_move, depth,
                          TT_LOWER if best >= beta else (TT_EXACT if best > a0 else TT_UPPER))
        te.data = tt_data
        te.check = p.hash ^ tt_data
    return best


# ---------------------------------------------------------------- Python boundary

cdef int q_draw_ply(state):
    """Plies from this position to the draw of the game's max_plies, if a
    search can reach it (else 0)."""
    max_plies = state.game.max_plies
    if max_plies is None or max_plies - state.core.ply >= S_MAX_PLY:
        return 0
    return max(1, max_plies - state.core.ply)


cdef object q_code_to_move(object state, int code):
    return state.move_for_code(code)


# Alpha-beta scores, for readers of SearchResult.score (the UCI loop's
# "score win N"): a win in n plies scores WIN_SCORE - n.
WIN_SCORE = S_WIN
WIN_BOUND = S_WIN_BOUND


def q_native_search(state, algorithm, limits, seed, dict options, plan, learned):
    """crossridor.search for Quoridor states: alpha-beta, greedy and MCTS in C.
    `options`: the algorithm's options of crossridor.games.quoridor.search_options,
    complete and checked (search_api.search); `plan`: the clock's TimePlan
    (alpha-beta) or None; `learned`: the learned evaluation's weights, or
    None for the classic evaluation."""
    if algorithm == "mcts":
        return q_mcts_search(state, limits, seed, options, learned)
    return q_alphabeta_search(state, limits, plan, options, learned, algorithm == "greedy")


# Lazy SMP (Stockfish's skip blocks): helper thread i leaves out some depths,
# so that the threads spread over several depths and fill the shared table
# with results the main thread's next iteration finds.
cdef int SKIP_SIZE[20]
cdef int SKIP_PHASE[20]
SKIP_SIZE[:] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4]
SKIP_PHASE[:] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7]
cdef extern from *:
    """
    static inline int q_atomic_add(int* p, int v) { return __atomic_add_fetch(p, v, __ATOMIC_ACQ_REL); }
    """
    int q_atomic_add(int* p, int v) noexcept nogil


ctypedef struct QGroup:
    QSearch* s              # s[0]: the main thread's search, s[1..]: the helpers'
    QCaches* caches         # the threads' caches, and the table, that this
    TTEntry* tt             # search allocated (not those of a QuoridorSearchMemory)
    int refs                # threads still using s and the table: the last one frees them
    volatile int abort      # the main thread is done: the helpers stop


cdef void q_group_release(QGroup* g) noexcept nogil:
    """One thread is done with the group; the last one frees the searches,
    the caches and the table (so the main thread returns without waiting for
    helpers the OS has not scheduled yet)."""
    if q_atomic_add(&g.refs, -1) == 0:
        free(g.tt)
        free(g.caches)
        free(g.s)
        free(g)


cdef uint64_t q_tt_entries(int hash_mb) noexcept nogil:
    """Entries of a table of at most hash_mb MB (a power of two)."""
    cdef uint64_t entries = 1
    while entries * 2 * sizeof(TTEntry) <= <uint64_t>hash_mb * 1024 * 1024:
        entries *= 2
    return entries


cdef class QuoridorSearchMemory:
    """What one game's alpha-beta searches hand on to the next, as an engine
    keeps its table between the moves of a game: the transposition table
    and the learned evaluation's caches (`search(..., memory=m)`; the match
    runner, `play` and the UCI loop keep one per game and engine).

    Entries are keyed by the whole position, so any position may be searched
    with it. A search with other settings (board, evaluation, table size;
    with 4 players, another player to move at the root, since the paranoid
    search scores for the root player's side) empties it first. A memory
    serves one search at a time."""
    cdef TTEntry* tt
    cdef uint64_t tt_mask
    cdef int hash_mb
    cdef QCaches* caches
    cdef object settings
    cdef bint busy

    def __cinit__(self):
        self.hash_mb = -1

    def __dealloc__(self):
        free(self.tt)
        free(self.caches)

    cdef int take(self, object settings, int hash_mb) except -1:
        """Ready for a search with these settings and table size; marks
        the memory busy (`give_back` frees it)."""
        if self.busy:
            from crossridor.engine.errors import CrossridorError
            raise CrossridorError("this search memory is in use by another search")
        if self.caches == NULL:
            self.caches = <QCaches*>calloc(1, sizeof(QCaches))
            if self.caches == NULL:
                raise MemoryError()
        cdef uint64_t entries
        cdef bint changed = hash_mb != self.hash_mb or settings != self.settings
        if changed:
            memset(self.caches, 0, sizeof(QCaches))
        if hash_mb != self.hash_mb:
            free(self.tt)
            self.tt = NULL
            self.tt_mask = 0
            self.hash_mb = -1
            if hash_mb > 0:
                entries = q_tt_entries(hash_mb)
                self.tt = <TTEntry*>calloc(entries, sizeof(TTEntry))
                if self.tt == NULL:
                    raise MemoryError(f"cannot allocate a {hash_mb} MB table")
                self.tt_mask = entries - 1
            self.hash_mb = hash_mb
        elif changed and self.tt != NULL:
            memset(self.tt, 0, (self.tt_mask + 1) * sizeof(TTEntry))
        self.settings = settings
        self.busy = True
        return 0

    cdef void give_back(self):
        self.busy = False


cdef void q_helper_loop(QSearch* s, int max_depth, int index) noexcept nogil:
    """A helper thread: iterative deepening with full windows on its own
    QSearch until the main thread is done (abort_flag) or the deadline."""
    cdef int depth, i = (index - 1) % 20
    for depth in range(1, max_depth + 1):
        if ((depth + SKIP_PHASE[i]) // SKIP_SIZE[i]) % 2:
            continue
        q_alphabeta(s, depth, 0, -S_INF, S_INF)
        if s.check.stopped:
            break


cdef class _Helper:
    """One Lazy SMP helper: `run` (in a Python thread) searches without the
    GIL. It holds the state and the options, so that the geometry and the
    weights it reads outlive it even if the caller's search has returned."""
    cdef QGroup* group
    cdef int index
    cdef int max_depth
    cdef object keep

    def run(self):
        with nogil:
            q_helper_loop(&self.group.s[self.index], self.max_depth, self.index)
            q_group_release(self.group)


cdef object q_time_plan(limits, plan):
    """(soft, hard) seconds for this search, 0 for none. A per-move time is
    a hard limit only (the whole budget is used: a partly searched iteration
    still gives its move); a clock's plan (search_api.clock_plan) gives both."""
    if plan is not None:
        return plan.soft, plan.hard
    return 0.0, (limits.time if limits.time is not None else 0.0)


cdef int q_search_window(QSearch* s, int depth, int center, int window) noexcept nogil:
    """One root search at `depth` with an aspiration window of `window`
    around `center`, widened on the side it fails (S_INF: a full window)."""
    cdef int alpha = max(center - window, -S_INF), beta = min(center + window, S_INF), score
    while True:
        score = q_alphabeta(s, depth, 0, alpha, beta)
        if s.check.stopped:
            return score
        if score <= alpha and alpha > -S_INF:
            alpha = -S_INF
        elif score >= beta and beta < S_INF:
            beta = S_INF
        else:
            return score


cdef object q_root_line(QSearch* s, int score, int depth):
    """The root search's line: (move code, score, depth, pv codes)."""
    return (s.pv[0][0], score, depth, [s.pv[0][i] for i in range(s.pv_len[0])])


cdef object q_interrupted_lines(list found, object partial, list previous, int wanted):
    """The lines of a depth that a stop cut short: those it finished, best
    first, then the line it was searching (its best move so far, which beat
    the move searched first), then the last complete depth's lines for the
    other moves. The deeper search found none of the later lines better than
    the lines before them, so a later line's score is capped at the one
    before it (the lines stay best first)."""
    out = sorted(found, key=q_line_rank)
    chosen = {found_line[0] for found_line in out}
    for kept in ([partial] if partial is not None else []) + previous:
        if len(out) >= wanted:
            break
        if kept[0] in chosen:
            continue
        if out and kept[1] > out[len(out) - 1][1]:     # (no negative indices: wraparound=False)
            kept = (kept[0], out[len(out) - 1][1], kept[2], kept[3])
        out.append(kept)
        chosen.add(kept[0])
    return out


def q_line_rank(line):
    """Sort key of lines (code, score, depth, pv), best first."""
    return -line[1]


cdef object q_lines_result(state, lines):
    from crossridor.engine.protocol import Line
    return tuple(Line(q_code_to_move(state, code), score, depth, tuple(q_code_to_move(state, c) for c in pv))
                 for code, score, depth, pv in lines)


cdef object q_alphabeta_search(state, limits, plan, dict options, learned, bint greedy):
    """Alpha-beta with the complete options of search_options.ALPHABETA; greedy:
    the same search to depth 1, full width, without a table (the options of
    search_options.GREEDY: the evaluation's).

    MultiPV as Stockfish's: at each depth, the line of pv index k is a search
    of the root without the moves of lines 0..k-1, with its own aspiration
    window around the score of pv index k at the previous depth; the lines
    are then sorted. `searchmoves` leaves the other root moves out of every
    search. Lazy SMP helpers search the root of `searchmoves` (all moves
    without it) with one line; the main thread searches the lines."""
    from crossridor.engine.protocol import SearchResult
    import threading
    cdef QuoridorCore core = state.core
    cdef QuoridorSearchMemory memory = None
    cdef int threads = 1
    hash_mb = 0
    prune = False
    callback = None
    if not greedy:
        hash_mb = options["hash"]
        memory = options["memory"]
        threads = options["threads"]
        prune = options["prune_walls"]
        callback = options["on_iteration"]
    cdef int multipv = options["multipv"]
    searchmoves = options["searchmoves"]
    table_mb = hash_mb
    if q_draw_ply(state) > 0:
        hash_mb = 0     # with a move limit in reach, a position's value depends on its ply
    cdef QGroup* group = <QGroup*>calloc(1, sizeof(QGroup))
    if group == NULL:
        raise MemoryError()
    group.refs = 1
    group.s = <QSearch*>calloc(threads, sizeof(QSearch))
    cdef QSearch* s = group.s       # the main thread's
    if s == NULL:
        free(group)
        raise MemoryError()
    # every thread's own caches; the main thread's are the memory's, if any
    cdef int own_caches = threads if memory is None else threads - 1
    if own_caches > 0:
        group.caches = <QCaches*>calloc(own_caches, sizeof(QCaches))
        if group.caches == NULL:
            q_group_release(group)
            raise MemoryError()
    cdef uint64_t entries = 1
    cdef double start = now_seconds(), soft, hard, deadline, now, iter_start, iter_time = 0, last_iter_time = 0
    cdef double changes = 0, ebf, elapsed
    cdef int depth, max_depth, score = 0, window, center, line_window, i, k, n_root, n_searched, wanted
    cdef int best_code = -1, previous_best = -1, static_restricted = 0
    cdef int root_moves[Q_MAX_MOVES]
    cdef uint64_t static_skip[8]
    cdef int saved_history[4][512]
    cdef int saved_killers[S_MAX_PLY][2]
    cdef _Helper helper
    helpers = []
    taken = False
    try:
        if memory is not None:
            memory.take((core.pos.g.w, core.pos.g.h, core.pos.g.nplayers, learned, options["wall_value"],
                         options["tempo"], options["lone_wall_value"],
                         core.pos.to_move if core.pos.g.nplayers > 2 else -1), table_mb)
            taken = True
            s.caches = memory.caches
        else:
            s.caches = group.caches
        soft, hard = q_time_plan(limits, plan)
        s.abort_flag = &_never_stop
        s.draw_ply = q_draw_ply(state)
        s.pos = core.pos
        s.root_player = core.pos.to_move
        s.prune_walls = 1 if prune else 0
        s.lmr = 0 if greedy else 1
        # (7x7 measured weaker with the prunings, level with the late walls' extra ply)
        s.nine_by_two = 1 if core.pos.g.w == 9 and core.pos.g.h == 9 and core.pos.g.nplayers == 2 \
            and not greedy else 0
        s.select_ply = q_first_selective_ply(core.pos.g)
        s.null_move = 1
        s.wall_gain = 1
        s.w_wall = options["wall_value"]
        s.w_tempo = options["tempo"]
        s.w_lone = options["lone_wall_value"]
        s.learned = learned_pointer(learned)
        if hash_mb > 0 and memory is not None:
            s.tt = memory.tt
            s.tt_mask = memory.tt_mask
        elif hash_mb > 0:
            entries = q_tt_entries(hash_mb)
            group.tt = s.tt = <TTEntry*>calloc(entries, sizeof(TTEntry))
            if s.tt == NULL:
                raise MemoryError(f"cannot allocate a {hash_mb} MB table")
            s.tt_mask = entries - 1
        if limits.nodes is not None:
            s.node_limit = limits.nodes
        # depth 1 finishes whatever the clock says (a process starved past its
        # time still plays a searched move, not the first one generated)
        deadline = start + hard if hard > 0 else 0.0
        stop_check_init(&s.check, current_stop_flag(), 0.0, 512)
        max_depth = S_MAX_PLY - 2
        if limits.depth is not None:
            max_depth = min(limits.depth, S_MAX_PLY - 2)
        if greedy:
            max_depth = 1
        # a legal move to fall back on, whatever happens
        n_root = q_gen_moves(&s.pos, root_moves)
        n_searched = n_root
        s.root_first = -1
        if searchmoves is not None:
            allowed = {state.code_for_move(m) for m in searchmoves}
            for i in range(n_root):
                if root_moves[i] not in allowed:
                    s.root_skip[root_moves[i] >> 6] |= (<uint64_t>1) << (root_moves[i] & 63)
                    s.root_restricted = 1
            n_searched = len(allowed)
            best_code = state.code_for_move(searchmoves[0])
        elif n_root > 0:
            best_code = root_moves[0]
        static_restricted = s.root_restricted
        memcpy(static_skip, s.root_skip, sizeof(static_skip))
        wanted = min(multipv, n_searched)
        # helpers: a copy of the main search (position, options, shared table,
        # searchmoves' root), no node limit, stopped by the main thread when
        # it is done (which the stop token stops)
        for i in range(1, threads):
            memcpy(&s[i], &s[0], sizeof(QSearch))
            s[i].node_limit = 0
            s[i].check.flag = &_never_stop
            s[i].abort_flag = &group.abort
            s[i].caches = &group.caches[i if memory is None else i - 1]
            helper = _Helper()
            helper.group = group
            helper.index = i
            helper.max_depth = max_depth
            helper.keep = (state, options, learned)
            q_atomic_add(&group.refs, 1)
            thread = threading.Thread(target=helper.run, name=f"crossridor-helper-{i}", daemon=True)
            try:
                thread.start()
            except BaseException:
                q_atomic_add(&group.refs, -1)
                raise
            helpers.append(thread)
        lines = []          # the last complete depth's: (code, score, depth, pv codes), best first
        open_lines = None   # the lines of the last depth whose best is not a proven loss
        centers = [0]       # the score of each pv index at the last complete depth
        done_depth = 0
        for depth in range(1, max_depth + 1):
            iter_start = now_seconds()
            window = 60 if depth >= 4 else S_INF
            found = []          # this depth's lines, by pv index
            partial = None
            for k in range(wanted):
                if k > 0:
                    # the move of the line before is left out; the lines after
                    # the first leave the move-ordering heuristics as the first
                    # left them, so that it is the one-line search whatever N
                    code = found[k - 1][0]
                    s.root_skip[code >> 6] |= (<uint64_t>1) << (code & 63)
                    s.root_restricted = 1
                    s.root_first = -1
                    for line in lines:
                        if not q_in_set(s.root_skip, line[0]):
                            s.root_first = line[0]
                            break
                    if k == 1:
                        memcpy(saved_history, s.history, sizeof(saved_history))
                        memcpy(saved_killers, s.killers, sizeof(saved_killers))
                center, line_window = (centers[k], window) if k < len(centers) else (0, S_INF)
                with nogil:
                    score = q_search_window(s, depth, center, line_window)
                if k > 0:
                    memcpy(s.history, saved_history, sizeof(saved_history))
                    memcpy(s.killers, saved_killers, sizeof(saved_killers))
                if s.check.stopped:
                    # A partly searched line: its first root move (the last
                    # best, ordered first) was searched fully, so a move that
                    # beat it is the better move at this depth.
                    if s.root_done > 0 and s.pv_len[0] > 0:
                        partial = q_root_line(s, score, done_depth)
                    break
                if s.pv_len[0] > 0:
                    found.append(q_root_line(s, score, depth))
                elif k == 0:
                    found.append((best_code, score, depth, lines[0][3] if lines else []))
                else:
                    break
            memcpy(s.root_skip, static_skip, sizeof(static_skip))
            s.root_restricted = static_restricted
            s.root_first = -1
            if s.check.stopped:
                lines = q_interrupted_lines(found, partial, lines, wanted)
                break
            centers = [line[1] for line in found]
            lines = sorted(found, key=q_line_rank)
            best_code = lines[0][0]
            done_depth = depth
            if lines[0][1] >= -S_WIN_BOUND:
                open_lines = lines
            s.check.deadline = deadline
            now = now_seconds()
            elapsed = now - start
            last_iter_time, iter_time = iter_time, now - iter_start
            if callback is not None:
                callback(SearchResult(q_code_to_move(state, best_code), lines[0][1], depth,
                                      q_total_nodes(s, threads), elapsed,
                                      q_total_nodes(s, threads) / elapsed if elapsed > 0 else 0.0,
                                      tuple(q_code_to_move(state, c) for c in lines[0][3]),
                                      lines=q_lines_result(state, lines)))
            if all(abs(line[1]) > S_WIN_BOUND and depth >= S_WIN - abs(line[1]) for line in lines):
                break   # a forced win or loss for every line (of the selective tree: a wall it never tries may undo it)
            if hard > 0 and n_root == 1:
                break   # one legal move: nothing to think about on the clock
            # the instability of the best move: more time while it changes
            changes = changes / 2 + (1 if best_code != previous_best and depth > 1 else 0)
            previous_best = best_code
            if soft > 0:
                if elapsed > soft * min(2.0, 0.7 + changes):
                    break   # the soft limit
                ebf = iter_time / last_iter_time if last_iter_time > 0.001 else 3.0
                ebf = min(max(ebf, 1.5), 8.0)
                if elapsed + ebf * iter_time > hard:
                    break   # the next depth would not finish by the hard limit
        elapsed = now_seconds() - start
        if s.pos.g.nplayers > 2 and lines and lines[0][1] < -S_WIN_BOUND and open_lines:
            # The tree is paranoid: a proven loss is every other player playing
            # against the root player together, which they do not do. The last
            # depth that proved no loss chose its move by the evaluation, and
            # keeps the chances the others leave.
            lines = open_lines
            done_depth = lines[0][2]
        if not lines:
            lines = [(best_code, 0, 0, [best_code])]
        elif not lines[0][3]:
            lines[0] = (lines[0][0], lines[0][1], lines[0][2], [lines[0][0]])
        group.abort = 1
        nodes = q_total_nodes(s, threads)   # the helpers' counts: as far as they have got
        extra = {"seldepth": s.sel_depth}
        if threads > 1:
            extra["threads"] = threads
            extra["main_nodes"] = s.nodes   # the main thread's share of `nodes`
        found_lines = q_lines_result(state, lines)
        return SearchResult(found_lines[0].move, lines[0][1], done_depth, nodes,
                            elapsed, nodes / elapsed if elapsed > 0 else 0.0, found_lines[0].pv, extra,
                            lines=found_lines)
    finally:
        group.abort = 1
        if taken:
            # the memory's table outlives this search: no helper may write
            # to it once the next search (which may empty it) starts
            for thread in helpers:
                thread.join()
            memory.give_back()
        q_group_release(group)


cdef long long q_total_nodes(const QSearch* s, int threads):
    cdef long long n = 0
    cdef int i
    for i in range(threads):
        n += s[i].nodes
    return n
