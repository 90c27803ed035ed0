# MCTS for Quoridor: UCT over a node pool in C arrays, progressive widening
# over moves sorted by a prior (pawn moves along the shortest path first,
# then walls that cut an opponent's shortest path, then the other walls),
# n-player backups (each node keeps the mean return of the player who moved
# into it), and two rollout policies:
#   "random": uniform random legal moves to the end of the game (the
#             classical playout, for comparison with other engines);
#   "eval":   `rollout_depth` plies of a shortest-path-biased policy, then
#             the evaluation of quoridor/eval.pxi squashed into (-1, 1).

from libc.math cimport sqrt, log

ctypedef struct MNode:
    int move            # the move that led here (from the parent)
    int player          # who played it
    int parent
    int first_child     # children are created in prior order and chained
    int last_child
    int next_sibling
    int n_children      # created so far
    int moves_at        # offset of this node's sorted move list in the arena (-1: not expanded)
    int n_moves
    int visits
    double value        # sum of the returns of `player`

ctypedef struct MTree:
    MNode* nodes
    int n_nodes, cap_nodes
    short* arena
    long long n_arena, cap_arena


cdef int mt_new_node(MTree* t, int move, int player, int parent) noexcept nogil:
    cdef MNode* grown
    if t.n_nodes == t.cap_nodes:
        grown = <MNode*>realloc(t.nodes, 2 * t.cap_nodes * sizeof(MNode))
        if grown == NULL:
            return -1
        t.nodes = grown
        t.cap_nodes *= 2
    cdef MNode* n = &t.nodes[t.n_nodes]
    n.move = move
    n.player = player
    n.parent = parent
    n.first_child = -1
    n.last_child = -1
    n.next_sibling = -1
    n.n_children = 0
    n.moves_at = -1
    n.n_moves = 0
    n.visits = 0
    n.value = 0.0
    t.n_nodes += 1
    return t.n_nodes - 1


cdef int mt_expand(MTree* t, int node, QSearch* s) noexcept nogil:
    """Store the node's legal moves, best prior first. 0 on success."""
    cdef int moves[Q_MAX_MOVES]
    cdef int k = q_gen_moves(&s.pos, moves), i
    k = q_order_moves(s, moves, k, 0, -1, 0, NULL)
    cdef short* grown
    if t.n_arena + k > t.cap_arena:
        grown = <short*>realloc(t.arena, 2 * (t.cap_arena + k) * sizeof(short))
        if grown == NULL:
            return -1
        t.arena = grown
        t.cap_arena = 2 * (t.cap_arena + k)
    for i in range(k):
        t.arena[t.n_arena + i] = <short>q_pick(moves, i, k)
    t.nodes[node].moves_at = <int>t.n_arena
    t.nodes[node].n_moves = k
    t.n_arena += k
    return 0


cdef inline int mt_width(const MNode* n, double widening) noexcept nogil:
    """Progressive widening: how many of the sorted moves may be tried."""
    cdef int w = 2 + <int>(widening * sqrt(<double>n.visits))
    return w if w < n.n_moves else n.n_moves


cdef inline void q_terminal_values(const QPos* p, double* out) noexcept nogil:
    cdef int i, np = p.g.nplayers
    for i in range(np):
        if p.winner < 0:
            out[i] = 0.0
        elif i == p.winner:
            out[i] = 1.0
        else:
            out[i] = -1.0 / (np - 1)


cdef inline bint q_wall_legal_now(QPos* p, int mv) noexcept nogil:
    """Is one free wall slot (kind | anchor; no overlap, no crossing) legal?"""
    cdef uint64_t bit = (<uint64_t>1) << (mv & Q_INDEX), rh, rv
    if (mv & Q_KIND) == Q_HWALL:
        q_risky_walls(p.g, p.hw, p.vw, bit, 0, &rh, &rv)
        return rh == 0 or q_wall_keeps_paths(p, 1, mv & Q_INDEX)
    q_risky_walls(p.g, p.hw, p.vw, 0, bit, &rh, &rv)
    return rv == 0 or q_wall_keeps_paths(p, 0, mv & Q_INDEX)


cdef int q_random_move(QPos* p, Rng* rng) noexcept nogil:
    """A uniformly random legal move: pawn targets and free wall slots are
    drawn together and an illegal wall is drawn again (so the draw stays
    uniform over the legal moves)."""
    cdef u128 t = q_pawn_targets(p, p.to_move)
    cdef int np_ = bb_popcount(t), nw = 0, r, i, total
    cdef uint64_t av_h = 0, av_v = 0, hw = p.hw, vw = p.vw, bits
    cdef const QGeom* g = p.g
    cdef uint64_t legal_h, legal_v
    if p.walls_left[p.to_move] > 0:
        q_free_slots(g, hw, vw, &av_h, &av_v)
        nw = u64_popcount(av_h) + u64_popcount(av_v)
    total = np_ + nw
    if total == 0:
        return Q_PASS
    cdef int tries = 0
    while True:
        r = <int>rng_below(rng, <uint32_t>total)
        if r < np_:
            for i in range(r):
                t &= t - 1
            return Q_STEP | bb_lsb(t)
        r -= np_
        if r < u64_popcount(av_h):
            bits = av_h
            for i in range(r):
                bits &= bits - 1
            mv = Q_HWALL | u64_lsb(bits)
        else:
            bits = av_v
            for i in range(r - u64_popcount(av_h)):
                bits &= bits - 1
            mv = Q_VWALL | u64_lsb(bits)
        tries += 1
        if tries > 8:
            # many illegal draws in a row: draw from the exact legal set
            q_legal_walls(p, &legal_h, &legal_v)
            total = np_ + u64_popcount(legal_h) + u64_popcount(legal_v)
            av_h = legal_h
            av_v = legal_v
            if total == np_:
                if np_ == 0:
                    return Q_PASS
                continue
            tries = -1000000
            continue
        if tries < 0 or q_wall_legal_now(p, mv):
            return mv


cdef int q_policy_move(QSearch* s, Rng* rng) noexcept nogil:
    """Shortest-path-biased rollout move: mostly a pawn step that shortens
    the path, sometimes a wall that cuts an opponent's shortest path."""
    cdef QPos* p = &s.pos
    cdef int me = p.to_move, d0, sq, best = -1, old
    cdef u128 t
    cdef uint64_t rel_h, rel_v, h, v, bits
    cdef int n, i
    if p.walls_left[me] > 0 and rng_below(rng, 100) < 30:
        q_relevant_walls(s, &rel_h, &rel_v)
        q_legal_walls(p, &h, &v)
        h &= rel_h
        v &= rel_v
        n = u64_popcount(h) + u64_popcount(v)
        if n > 0:
            i = <int>rng_below(rng, <uint32_t>n)
            if i < u64_popcount(h):
                bits = h
                while i > 0:
                    bits &= bits - 1
                    i -= 1
                return Q_HWALL | u64_lsb(bits)
            i -= u64_popcount(h)
            bits = v
            while i > 0:
                bits &= bits - 1
                i -= 1
            return Q_VWALL | u64_lsb(bits)
    t = q_pawn_targets(p, me)
    if t == 0:
        return q_random_move(p, rng)
    d0 = q_distance(p, me)
    old = p.pawn[me]
    while t:
        sq = bb_lsb(t)
        t &= t - 1
        p.pawn[me] = sq
        if q_distance(p, me) < d0:
            best = sq
            if rng_below(rng, 2) == 0:
                break
    p.pawn[me] = old
    if best >= 0 and rng_below(rng, 100) < 90:
        return Q_STEP | best
    return q_random_move(p, rng)


cdef void q_rollout(QSearch* s, Rng* rng, int mode, int depth, double* out) noexcept nogil:
    """Play from s.pos to the end (random) or `depth` plies (eval); values in out.
    s.pos is restored afterwards."""
    cdef QPos saved = s.pos
    cdef QUndo u
    cdef int plies = 0
    cdef QPos* p = &s.pos
    cdef u128 t
    cdef int me, k, sq
    if mode == 0:
        while p.winner < 0 and plies < 4000:
            me = p.to_move
            if p.walls_left[me] > 0:
                q_make(p, q_random_move(p, rng), &u)
            else:
                # out of walls: a bare pawn step (no hash, no undo: the
                # position is thrown away after the playout)
                t = q_pawn_targets(p, me)
                if t:
                    k = <int>rng_below(rng, <uint32_t>bb_popcount(t))
                    while k > 0:
                        t &= t - 1
                        k -= 1
                    sq = bb_lsb(t)
                    p.pawn[me] = sq
                    p.walk_ok &= ~(1 << me)
                    if p.g.goal[me] & bb_bit(sq):
                        p.winner = me
                p.to_move = me + 1 if me + 1 < p.g.nplayers else 0
            plies += 1
        q_terminal_values(p, out)
    else:
        while s.pos.winner < 0 and plies < depth:
            q_make(&s.pos, q_policy_move(s, rng), &u)
            plies += 1
        if s.pos.winner >= 0:
            q_terminal_values(&s.pos, out)
        elif s.learned != NULL:
            q_learned_values(&s.pos, s.learned, out, s.caches.paths)
        else:
            q_values(&s.pos, s.w_wall, s.w_tempo, s.w_lone, out)
    s.nodes += plies
    s.pos = saved


cdef int q_mcts_run(QSearch* s, MTree* t, Rng* rng, long long max_sims, int max_depth,
                    double c, double widening, int mode, int rollout_depth) noexcept nogil:
    """Run simulations from the root (node 0, position s.pos); return how many."""
    cdef QPos root = s.pos
    cdef long long sims = 0
    cdef int node, child, i, w, best, depth
    cdef double best_ucb, ucb, logn, vals[4]
    cdef MNode* n
    cdef QUndo u
    while sims < max_sims:
        if sims > 0 and stop_check(&s.check):    # the clock every 16 simulations; one always runs
            break
        s.pos = root
        node = 0
        depth = 0
        # selection / expansion
        while True:
            n = &t.nodes[node]
            if s.pos.winner >= 0 or (s.draw_ply and depth >= s.draw_ply):
                break
            if n.moves_at < 0:
                if n.visits == 0 and node != 0:
                    break           # evaluate a new leaf before expanding it
                if depth >= max_depth or mt_expand(t, node, s) != 0:
                    break
                n = &t.nodes[node]
            w = mt_width(n, widening)
            if n.n_children < w:
                # create the next child in prior order and go there
                child = mt_new_node(t, t.arena[n.moves_at + n.n_children], s.pos.to_move, node)
                if child < 0:
                    break
                n = &t.nodes[node]
                if n.n_children == 0:
                    n.first_child = child
                else:
                    t.nodes[n.last_child].next_sibling = child
                n.last_child = child
                n.n_children += 1
                q_make(&s.pos, t.nodes[child].move, &u)
                node = child
                depth += 1
                continue
            logn = log(<double>n.visits + 1.0)
            best = -1
            best_ucb = -1e300
            child = n.first_child
            while child >= 0:
                ucb = t.nodes[child].value / t.nodes[child].visits \
                    + c * sqrt(logn / t.nodes[child].visits)
                if ucb > best_ucb:
                    best_ucb = ucb
                    best = child
                child = t.nodes[child].next_sibling
            q_make(&s.pos, t.nodes[best].move, &u)
            node = best
            depth += 1
        # evaluation
        if s.pos.winner >= 0:
            q_terminal_values(&s.pos, vals)
        elif s.draw_ply and depth >= s.draw_ply:
            vals[0] = vals[1] = vals[2] = vals[3] = 0.0     # the move limit: a draw
        else:
            q_rollout(s, rng, mode, rollout_depth, vals)
        # backup
        while node >= 0:
            n = &t.nodes[node]
            n.visits += 1
            if node != 0:
                n.value += vals[n.player]
            node = n.parent
        sims += 1
    s.pos = root
    return <int>sims


cdef int mt_keep_root_moves(MTree* t, const uint64_t* allowed) noexcept nogil:
    """Leave only the `allowed` moves (a set of move codes) in the expanded
    root's move list, in their order; how many are left."""
    cdef MNode* root = &t.nodes[0]
    cdef int i, n = 0, mv
    for i in range(root.n_moves):
        mv = t.arena[root.moves_at + i]
        if (allowed[mv >> 6] >> (mv & 63)) & 1:
            t.arena[root.moves_at + n] = <short>mv
            n += 1
    root.n_moves = n
    return n


cdef object mt_line(MTree* t, int node):
    """The most visited path from `node` (a root child) down: its move
    first (ties: the child tried first, the better prior)."""
    cdef int best, child
    pv = [t.nodes[node].move]
    while t.nodes[node].n_children > 0:
        best = child = t.nodes[node].first_child
        while child >= 0:
            if t.nodes[child].visits > t.nodes[best].visits:
                best = child
            child = t.nodes[child].next_sibling
        if t.nodes[best].visits == 0:
            break
        pv.append(t.nodes[best].move)
        node = best
    return pv


cdef object q_mcts_lines(state, MTree* t, int multipv):
    """The `multipv` most visited root children (ties: the child tried
    first), each as a Line: its mean return (the result's score), the most
    visited path below it, its visits."""
    from crossridor.engine.protocol import Line
    children = []
    cdef int child = t.nodes[0].first_child
    while child >= 0:
        if t.nodes[child].visits > 0:
            children.append((-t.nodes[child].visits, len(children), child))
        child = t.nodes[child].next_sibling
    children.sort()     # ties keep the order tried
    lines = []
    for _, _, child in children[:multipv]:
        pv = mt_line(t, child)
        lines.append(Line(q_code_to_move(state, pv[0]), float(t.nodes[child].value / t.nodes[child].visits),
                          len(pv), tuple(q_code_to_move(state, m) for m in pv),
                          {"visits": t.nodes[child].visits}))
    return tuple(lines)


cdef object q_mcts_search(state, limits, seed, dict options, learned):
    """MCTS with the complete, checked options of search_options.MCTS;
    `learned`: the learned evaluation's weights, or None (classic).
    multipv: the most visited root children; searchmoves: the root's only
    children."""
    from crossridor.engine.protocol import SearchResult
    from crossridor.engine.errors import CrossridorError
    cdef QuoridorCore core = state.core
    rollout = options["rollout"]
    cdef double c = options["c"]
    cdef double widening = options["widening"]
    cdef int rollout_depth = options["rollout_depth"]
    if limits.time is None and limits.sims is None and limits.nodes is None:
        raise CrossridorError("mcts needs a time, sims or nodes limit")
    cdef long long max_sims = 1 << 62
    if limits.sims is not None:
        max_sims = limits.sims
    if limits.nodes is not None:
        max_sims = min(max_sims, limits.nodes)
    cdef int max_depth = limits.depth if limits.depth is not None else 1000
    cdef double start = now_seconds()
    cdef double deadline = start + limits.time if limits.time is not None else 0.0
    cdef int mode = 0 if rollout == "random" else 1
    cdef Rng rng
    rng_seed(&rng, <uint64_t>(seed if seed is not None else 0) & 0xFFFFFFFFFFFFFFFFULL)
    cdef QSearch* s = <QSearch*>calloc(1, sizeof(QSearch))
    if s == NULL:
        raise MemoryError()
    s.caches = <QCaches*>calloc(1, sizeof(QCaches))
    if s.caches == NULL:
        free(s)
        raise MemoryError()
    cdef MTree t
    t.cap_nodes = 1 << 14
    t.nodes = <MNode*>malloc(t.cap_nodes * sizeof(MNode))
    t.cap_arena = 1 << 16
    t.arena = <short*>malloc(t.cap_arena * sizeof(short))
    t.n_nodes = 0
    t.n_arena = 0
    cdef int sims = 0, node, best, child
    cdef uint64_t allowed[8]
    searchmoves = options["searchmoves"]
    try:
        if s == NULL or t.nodes == NULL or t.arena == NULL:
            raise MemoryError()
        stop_check_init(&s.check, current_stop_flag(), deadline, 16)
        s.draw_ply = q_draw_ply(state)
        s.pos = core.pos
        s.root_player = core.pos.to_move
        s.w_wall = S_WALL
        s.w_tempo = S_TEMPO
        s.w_lone = S_LONE_WALL
        s.learned = learned_pointer(learned)
        mt_new_node(&t, -1, -1, -1)
        if searchmoves is not None:
            # the root expanded at once, with only these moves
            memset(allowed, 0, sizeof(allowed))
            for move in searchmoves:
                code = state.code_for_move(move)
                allowed[code >> 6] |= (<uint64_t>1) << (code & 63)
            if mt_expand(&t, 0, s) != 0:
                raise MemoryError()
            mt_keep_root_moves(&t, allowed)
        with nogil:
            sims = q_mcts_run(s, &t, &rng, max_sims, max_depth, c, widening, mode, rollout_depth)
        elapsed = now_seconds() - start
        # the most visited line
        pv = []
        node = 0
        score = 0.0
        root_visits = 0
        while t.nodes[node].n_children > 0:
            best = child = t.nodes[node].first_child
            while child >= 0:
                if t.nodes[child].visits > t.nodes[best].visits:
                    best = child
                child = t.nodes[child].next_sibling
            if t.nodes[best].visits == 0:
                break
            if node == 0:
                score = t.nodes[best].value / t.nodes[best].visits
                root_visits = t.nodes[best].visits
            pv.append(t.nodes[best].move)
            node = best
        if pv:
            move_code = pv[0]
        else:
            move_code = state.code_for_move(searchmoves[0]) if searchmoves is not None else core.legal_codes()[0]
            pv = [move_code]
        return SearchResult(q_code_to_move(state, move_code), float(score), len(pv), sims, elapsed,
                            sims / elapsed if elapsed > 0 else 0.0,
                            tuple(q_code_to_move(state, m) for m in pv),
                            {"sims": sims, "tree_nodes": t.n_nodes, "playout_plies": s.nodes,
                             "root_visits": root_visits},
                            lines=q_mcts_lines(state, &t, options["multipv"]))
    finally:
        free(t.nodes)
        free(t.arena)
        free(s.caches)
        free(s)


def q_random_playout(QuoridorCore core, uint64_t seed, int max_plies=4000):
    """Uniformly random moves from the position (a copy) to the end:
    (moves played, winner or -1). For tests and benchmarks."""
    cdef QPos p = core.pos
    cdef QUndo u
    cdef Rng rng
    cdef int mv
    rng_seed(&rng, seed)
    moves = []
    while p.winner < 0 and len(moves) < max_plies:
        mv = q_random_move(&p, &rng)
        moves.append(mv)
        q_make(&p, mv, &u)
    return moves, p.winner
