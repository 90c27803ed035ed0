"""Kreuz & Quer's search fast paths (`KState.native_search`): "greedy" plays
`policy.heuristic_move`; "ismcts" runs the generic ISMCTS with the game's
defaults (search_options.ISMCTS): prior = `policy.policy_move` (a
progressive bias, weight 5) with the options deny and take_deny, and with
rollout=auto and no evaluator, evaluator = `rollout.stage_evaluator` playing
from its own generator seeded with the search's seed (the same seed, the
same search). Every other algorithm runs the generic module."""

from __future__ import annotations

import random
import time
from functools import partial

from crossridor.engine.errors import UnsupportedGameError
from crossridor.engine.protocol import SearchResult
from crossridor.games.kreuzundquer.policy import heuristic_move, policy_move
from crossridor.games.kreuzundquer.rollout import stage_evaluator


def native_search(state, algorithm, limits, seed, options, plan):
    """greedy and ismcts with the options of search_options.OPTIONS
    (complete and checked); NotImplemented for the others."""
    if algorithm == "greedy":
        if state.current_player < 0:
            raise UnsupportedGameError("kreuzundquer: the heuristic player does not play chance moves")
        t0 = time.perf_counter()
        mv = heuristic_move(state)
        dt = time.perf_counter() - t0
        return SearchResult(move=mv, score=state.evaluate()[state.current_player], depth=1, nodes=1,
                            seconds=dt, nps=1 / dt if dt > 0 else 0.0, pv=(mv,))
    if algorithm == "ismcts":
        from crossridor.engine.algorithms import ismcts
        opts = dict(options)
        deny, take_deny = opts.pop("deny"), opts.pop("take_deny")
        if opts["prior"] is policy_move:
            opts["prior"] = partial(policy_move, deny=deny, take_deny=take_deny)
        if opts["rollout"] == "auto" and opts["evaluator"] is None:
            opts["evaluator"] = partial(stage_evaluator, rng=random.Random(seed))
        return ismcts.search(state, limits, seed=seed, **opts)
    return NotImplemented
