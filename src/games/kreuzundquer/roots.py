"""Kreuz & Quer: the move choice of the game's ISMCTS over several trees
(`ismcts:trees=K`) and anchored to the policy (`ismcts:anchor=A`).

Root parallelism (Chaslot, Winands & van den Herik 2008, "Parallel
Monte-Carlo Tree Search"; here run one after the other): K independent
ISMCTS trees, each with its own seed and so its own determinizations, share
the move's budget (sims, nodes and time divided by K); their root visit
counts are summed and the most visited move is played (ties: the larger
mean over all trees, then the policy's move). A small tree mostly follows
the prior and corrects it on the hidden cards it happened to draw; summing
several such trees judges the correction on more deals without growing one
tree deeper, where its stage-end leaves pull it away from the policy.

Anchor: the policy's move (`kuq_policy.policy_move`) is kept unless the
chosen move's mean return (over all trees) beats the policy move's by more
than A (returns in [-1, 1]); with A = 0 the choice is the plain one.
"""

from __future__ import annotations

import dataclasses
import random

from crossridor.engine.protocol import Limits, SearchResult

__all__ = ["ensemble_search"]


def _share(limits: Limits, k: int, left: float | None) -> Limits:
    """One tree's part of the move's limits: sims and nodes divided by k
    (at least 1), and `left` seconds if the move has a time limit."""
    return Limits(time=left, depth=limits.depth,
                  nodes=None if limits.nodes is None else max(1, limits.nodes // k),
                  sims=None if limits.sims is None else max(1, limits.sims // k))


def ensemble_search(state, limits: Limits, seed, trees: int, anchor: float, fav, opts: dict) -> SearchResult:
    """The move of `trees` ISMCTS trees (see the module doc); `fav` is the
    policy's move (or None), `opts` the ISMCTS options of every tree."""
    from crossridor.engine.algorithms import ismcts
    from crossridor.engine.algorithms.common import now
    from crossridor.engine.stop import stopped
    t0 = now()
    rng = random.Random(seed)
    legal = {str(m): m for m in state.legal_moves()}
    visits: dict = {}
    wsum: dict = {}
    sims = nodes = 0
    last = None
    for i in range(trees):
        left = None
        if limits.time is not None:
            left = (limits.time - (now() - t0)) / (trees - i)
            if left <= 0 and i:
                break
            left = max(left, 1e-3)
        tree_seed = seed if i == 0 else rng.getrandbits(63)    # one tree: the plain search's
        r = ismcts.search(state, _share(limits, trees, left), seed=tree_seed, **opts)
        last = r
        sims += r.extra["sims"]
        nodes += r.nodes
        for m, (n, mean) in r.extra["root"].items():
            if m in legal:
                visits[m] = visits.get(m, 0) + n
                wsum[m] = wsum.get(m, 0.0) + n * mean
        if stopped():
            break
    if not visits:
        return last
    key_fav = None if fav is None else str(fav)
    best = max(visits, key=lambda m: (visits[m], wsum[m] / visits[m], m == key_fav))
    mean = {m: wsum[m] / visits[m] for m in visits}
    if anchor > 0 and key_fav in visits and best != key_fav and mean[best] - mean[key_fav] <= anchor:
        best = key_fav
    dt = now() - t0
    extra = {**last.extra, "sims": sims, "trees": trees,
             "root": {m: (visits[m], mean[m]) for m in visits}}
    return dataclasses.replace(last, move=legal[best], score=mean[best], nodes=nodes, seconds=dt,
                               nps=nodes / dt if dt > 0 else 0.0,
                               pv=(legal[best],) if last.pv[:1] != (legal[best],) else last.pv,
                               extra=extra)
