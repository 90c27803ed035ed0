"""Kreuz & Quer's search fast paths (`KState.native_search`): "greedy" plays
`policy.heuristic_move`; "ismcts" runs the generic ISMCTS
with game defaults for the options not given: prior = `policy.policy_move`
(a progressive bias, weight `ISMCTS_PRIOR_WEIGHT`) and, unless rollout or
evaluator is given, evaluator = `rollout.stage_evaluator`. Every other
algorithm runs the generic module."""

from __future__ import annotations

import time
from functools import partial

from crossridor.engine.errors import UnsupportedGameError
from crossridor.engine.options import check_options
from crossridor.engine.protocol import SearchResult
from crossridor.games.kreuzundquer.policy import heuristic_move, policy_move
from crossridor.games.kreuzundquer.rollout import stage_evaluator

ISMCTS_PRIOR_WEIGHT = 5.0
# the game's own ismcts options: deny, take_deny replace the prior's
# `policy.DENY` (below its DEAD) and `TAKE_DENY`; 0 turns that denial off (the
# prior some measurements on docs/measurements.md were made with)
ISMCTS_OPTIONS = {"deny": (float, 0.0, 2.99), "take_deny": (float, 0.0, 2.99)}
ISMCTS_DEFAULTS = {"deny": None, "take_deny": None}


def native_search(state, algorithm, limits, seed, options):
    if algorithm in ("greedy", "heuristic"):
        check_options(f"kreuzundquer {algorithm}", options, {})
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
        own = check_options("kreuzundquer ismcts", {k: opts.pop(k) for k in ISMCTS_OPTIONS if k in opts},
                            ISMCTS_OPTIONS, ISMCTS_DEFAULTS)
        opts.setdefault("prior", partial(policy_move, deny=own["deny"], take_deny=own["take_deny"]))
        opts.setdefault("prior_weight", ISMCTS_PRIOR_WEIGHT)
        if "rollout" not in opts and "evaluator" not in opts:
            opts["evaluator"] = stage_evaluator
        return ismcts.search(state, limits, seed=seed, **opts)
    return NotImplemented
