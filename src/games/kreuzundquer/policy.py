"""Kreuz & Quer's playing policies. `heuristic_move`: the heuristic player
("greedy"; its rules also drive the stage playouts of `rollout`).
`policy_move`: a policy that judges a pile by how easy the rest of the
route is from where it leads (used as the prior, a progressive bias, of the
game's ISMCTS; see `search`).

`pile_cost(track, pos, pile)`: the soft minimum, over the rooms the pile can
leave the pawn in (its frontier), of `Track.cost_to_goal` (the -log
likelihood of the likeliest straight way on to the goal): lower is better;
-inf once the pile reaches the goal; a pile with a card that fits nowhere
(it can bring nothing more this stage) costs its end room's cost plus
`DEAD`. `policy_move(state)` plays like `heuristic_move` but
keeps / takes a card when it lowers this cost (so it also steps sideways
towards an easier lane, and takes the face-up card with the easiest
continuation), and keeps rather than leaves face up a flipped card that
would take another player farther if keeping it costs at most `DENY`
(others' unseen pile cards are assumed to fit: no peeking); when no face-up
card lowers the cost, it takes, rather than flips, a face-up card that would
take another player farther if that costs at most `TAKE_DENY` (the heuristic
player would take it next).
Measured against `heuristic_move` (one race per game, races seeded 0..199,
seats alternating, policies called directly): the cost rule alone won
109 of 200, with the denial (DENY=1.0) 121 of 200. The take denial
(TAKE_DENY=1.0), over other deals (seeds 1000..1199 and 5000..5499, 1,400
races, the same way): 899 won against 858 without; as ISMCTS with one
simulation (`bench/bench_cards.py kreuzundquer ismcts:sims=1 greedy 400`, 400 races)
253 against 249 (`take_deny=0`).
"""

from __future__ import annotations

import math

from crossridor.games.kreuzundquer.deck import TERRAIN_COUNTS
from crossridor.games.kreuzundquer.moves import FLIP, KEEP, LEAVE, STOP, Move
from crossridor.games.kreuzundquer.paths import GOAL, extensions, rank, route_ease, step, walk

DEAD = 3.0     # cost of a pile with a card that fits nowhere, beyond its end room's
DENY = 1.0     # keep a card another player could use if it costs at most this much
TAKE_DENY = 1.0   # take such a face-up card (when none helps) if it costs at most this much


def pile_cost(tr, pos, pile) -> float:
    m = tr.masks                  # `walk` on bitmasks: the same result, faster
    goal, front, end = m.walk(pos, pile)
    if goal:
        return -math.inf
    if not front:
        return tr.cost_to_goal(end) + DEAD
    costs = [tr.cost_to_goal(r) for r in m.members(front)]
    lo = min(costs)
    return lo - math.log(sum(math.exp(lo - c) for c in costs))


def policy_move(state, deny: float | None = None, take_deny: float | None = None):
    """The policy's move for the player to move (collect / decide / build);
    `deny` replaces `DENY` (it must stay below `DEAD`, or the policy keeps
    cards that fit nowhere in its own pile), `take_deny` `TAKE_DENY`."""
    deny = DENY if deny is None else deny
    take_deny = TAKE_DENY if take_deny is None else take_deny
    ph = state.phase
    if ph not in ("collect", "decide"):
        return heuristic_move(state)
    p = state.current_player
    tr = state.track(p)
    pos = state.pos[p]
    pile = state.tp[p]
    now = pile_cost(tr, pos, pile)
    if ph == "decide":
        if now == -math.inf:
            return LEAVE
        c = pile_cost(tr, pos, pile + [state.pending])
        if c < now - 1e-9:
            return KEEP
        if deny and c <= now + deny and _helps_others(state, p, state.pending):
            return KEEP
        return LEAVE
    if now == -math.inf:
        return STOP
    # each face-up card's cost is needed by both rules below: compute it once
    costs = [(pile_cost(tr, pos, pile + [t]), t) for t in range(len(state.up)) if state.up[t]]
    best_c, best_t = min(costs, default=(math.inf, -1))
    if best_c < now - 1e-9:
        return Move("take", best_t)
    if any(state.down):
        # no face-up card helps: take one that would help another player, if it costs
        # this pile at most `take_deny` (else the heuristic player takes it next);
        # the cheapest such card, the first among equals
        if take_deny:
            for c, t in sorted(costs):
                if c > now + take_deny:
                    break
                if _helps_others(state, p, t):
                    return Move("take", t)
        return FLIP
    return STOP


def _helps_others(state, p, t):
    """Would card t take another player's pile farther, as far as p can see?
    Cards p has not seen are assumed to fit (any terrain that fits)."""
    for q in range(state.game.n):
        if q == p or state.goal[q] < 0:
            continue
        tr = state.track(q)
        cur = {state.pos[q]}
        for u, pub in zip(state.tp[q], state.tk[q]):
            if pub:
                nxt = step(tr, cur, u)
            else:
                nxt = set()
                for v in range(len(state.up)):
                    nxt |= step(tr, cur, v)
            if not nxt or GOAL in nxt:
                cur = set()
                break
            cur = nxt
        if not cur:
            continue
        far = max(rank(tr, r)[0] for r in cur)
        nxt = step(tr, cur, t)
        if GOAL in nxt or (nxt and max(rank(tr, r)[0] for r in nxt) > far):
            return True
    return False


def heuristic_move(state) -> Move:
    """A sensible player using only what it may see:
    build: keep the route whose likeliest straight path is likeliest
    (`paths.route_ease`); collect: stop once the pile reaches the goal,
    else take the face-up card that takes the pawn farthest, else flip;
    decide: keep a flipped card only if it takes the pawn farther."""
    p = state.current_player
    g = state.game
    if state.phase == "build":
        best, best_v = None, None
        for mv in state.legal_moves():
            kept = tuple(c for c in state.hands[p] if c not in mv.arg)
            v = route_ease(g.track(kept, 0)) - route_ease(g.track((), 0))
            if best_v is None or v > best_v:
                best, best_v = mv, v
        assert best is not None       # a hand always has a pair to build
        return best
    tr = state.track(p)
    pile = state.tp[p]
    if state.phase == "decide":
        ext = extensions(tr, state.pos[p], pile)
        return KEEP if state.pending in ext else LEAVE
    w = walk(tr, state.pos[p], pile)
    if w.goal_step is not None:
        return STOP
    ext = extensions(tr, state.pos[p], pile)
    cands = [t for t in ext if state.up[t]]
    if cands:
        t = max(cands, key=lambda t: (rank(tr, ext[t]), -TERRAIN_COUNTS[t]))
        return Move("take", t)
    if any(state.down):
        return FLIP
    return STOP
