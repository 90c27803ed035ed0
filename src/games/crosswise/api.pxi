# Crosswise's Python boundary: CrosswiseCore holds a full game (every hand
# and the bag order), validates every value from Python and runs the searches
# of crosswise/search.pxi without the GIL.


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
        if not (0 <= passes < s.cycle_len):
            raise ValueError(f"crosswise: passes must be in 0..{s.cycle_len - 1}, got {passes}")
        s.passes = passes
        if cw_everyone_passed(&s):
            raise ValueError(f"crosswise: {passes} passes in a row mean every seat has passed "
                             f"(the game would be over)")
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
                raise ValueError(f"crosswise: seat {p + 1} holds {n} tiles, more than {s.hand_size[p]}")
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
            raise ValueError(f"crosswise: no player index {p}")
        return [self.s.hand[p][t] for t in range(CW_NTILE)]

    def known(self, int p):
        if not (0 <= p < self.s.nplayers):
            raise ValueError(f"crosswise: no player index {p}")
        return [self.s.known[p][t] for t in range(CW_NTILE)]

    def hand_size(self, int p):
        if not (0 <= p < self.s.nplayers):
            raise ValueError(f"crosswise: no player index {p}")
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

    def determinize(self, int viewer, uint64_t seed, int infer=0):
        """A copy (without history) with the viewer's unseen tiles redealt;
        infer > 0: a deal that explains the other team's last `infer` moves
        as greedy moves if one is found (cw_infer_deal)."""
        if not (0 <= viewer < self.s.nplayers):
            raise ValueError(f"crosswise: no player index {viewer}")
        cdef CrosswiseCore c = CrosswiseCore.__new__(CrosswiseCore)
        cdef uint64_t rng = seed
        c.nhist = 0
        if cw_infer_deal(&self.s, self.hist, self.nhist, viewer, infer, &rng, &c.s) < 0:
            raise ValueError("crosswise: inconsistent state, cannot determinize")
        return c

    # -- search -----------------------------------------------------------

    def greedy(self):
        """The greedy player's move (cw_greedy)."""
        if self.s.over or self.s.nplayers == 0:
            raise ValueError("crosswise: game over")
        cdef int buf[CW_MAXMOVES]
        cdef cw_State s = self.s
        return cw_greedy(&s, buf)

    def greedy_lines(self, only=None):
        """The moves (every legal move, or those of the codes `only`) in the
        greedy player's order (cw_greedy: its move first) as [(code, win,
        threats, gain, value)]: win 1 for a six of the mover's team;
        threats: the other team's threats of six after the move (fewer is
        better); gain: what the move adds to own team - other team; value:
        the squashed score difference after it (cw_squash, the search's
        scale), 1.0 for a win."""
        if self.s.over or self.s.nplayers == 0:
            raise ValueError("crosswise: game over")
        cdef int buf[CW_MAXMOVES]
        cdef cw_State s = self.s
        cdef cw_GreedyBase g
        cdef int n = cw_gen_moves(&s, buf), i, win, key_t, key_d
        cdef int diff = cw_team_score(&s, cw_team(cw_to_move(&s))) - cw_team_score(&s, 1 - cw_team(cw_to_move(&s)))
        wanted = None if only is None else set(only)
        cw_greedy_base(&s, &g)
        rows = []
        for i in range(n):
            if wanted is not None and buf[i] not in wanted:
                continue
            win = cw_greedy_key(&s, &g, buf[i], &key_t, &key_d)
            rows.append((buf[i], win, key_t, key_d, 1.0 if win else cw_squash(diff + key_d), i))
        # cw_greedy's order: a win, then fewer threats, then more gain, then generation order
        rows.sort(key=lambda r: (-r[1], r[2], -r[3], r[5]))
        return [r[:5] for r in rows]

    def random_move(self, uint64_t seed):
        cdef uint64_t rng = seed
        if self.s.over:
            raise ValueError("crosswise: game over")
        return cw_random_move(&self.s, &rng)

    def pimc(self, int sims, double seconds, uint64_t seed, int root_k, int halving, int infer,
             int multipv=1, only=None):
        """Determinized search with greedy rollouts (cw_pimc) from the view
        of the player to move; root_k, halving and infer as the declared
        ismcts options (crossridor.games.crosswise.search_options); multipv:
        candidates kept to the end; only: the codes of the root moves to
        search (None: every move). Returns (best code, its mean value for
        the mover's team, evaluations, leaf moves scored, [(code,
        evaluations, mean value)] of the root candidates evaluated, best
        first: those alive after halving, then the others, each by mean)."""
        cdef int nroot = 0, evals = 0, rc, i, nonly = 0
        cdef int onlycodes[CW_MAXMOVES]
        if self.s.over:
            raise ValueError("crosswise: game over")
        if sims <= 0 and seconds <= 0:
            raise ValueError("crosswise: set sims or seconds")
        if not (1 <= multipv <= CW_MAXMOVES):
            raise ValueError(f"crosswise: multipv must be in 1..{CW_MAXMOVES}, got {multipv}")
        if only is not None:
            only = list(only)
            if not only or len(only) > CW_MAXMOVES or not all(self.is_legal(c) for c in only):
                raise ValueError("crosswise: the root moves to search must be legal moves, at least one")
            for i in range(len(only)):
                onlycodes[i] = only[i]
            nonly = len(only)
        cdef int* rootmoves = <int*>malloc(CW_MAXMOVES * sizeof(int))
        cdef double* acc = <double*>malloc(CW_MAXMOVES * sizeof(double))
        cdef int* cnt = <int*>malloc(CW_MAXMOVES * sizeof(int))
        cdef int* alive = <int*>malloc(CW_MAXMOVES * sizeof(int))
        cdef long long leaves = 0
        cdef cw_State root = self.s
        cdef volatile int* stop = current_stop_flag()
        if rootmoves == NULL or acc == NULL or cnt == NULL or alive == NULL:
            free(rootmoves); free(acc); free(cnt); free(alive)
            raise MemoryError()
        try:
            with nogil:
                rc = cw_pimc(&root, sims, seconds, seed, root_k, halving, self.hist, self.nhist, infer,
                             multipv, onlycodes, nonly, rootmoves, acc, cnt, alive, &nroot, &evals, &leaves, stop)
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
