"""The options of Kreuz & Quer's own searches (`search.native_search`: the
heuristic player, the generic ISMCTS with the game's prior and leaf
evaluator), declared once with their defaults. `search_api.search` checks
them and completes them. Light: no search is imported."""

from __future__ import annotations

import dataclasses

from crossridor.engine.algorithms.common import MCTS_OPTIONS
from crossridor.engine.algorithms.ismcts import BIAS_OPTIONS
from crossridor.engine.options import ROOT_OPTIONS, Param
from crossridor.games.kreuzundquer.policy import DENY, TAKE_DENY, policy_move


def _game_default(param: Param) -> Param:
    """The generic ISMCTS option with this game's default."""
    if param.name == "rollout":
        return dataclasses.replace(param, doc=param.doc + "; auto without an evaluator: the stage evaluator "
                                   "(rollout.stage_evaluator)")
    if param.name == "prior":
        return dataclasses.replace(param, default=policy_move,
                                   doc=param.doc + " (default: policy.policy_move with deny, take_deny; None: none)")
    if param.name == "prior_weight":
        return dataclasses.replace(param, default=5.0)
    return param


ISMCTS = (
    *(_game_default(p) for p in (*MCTS_OPTIONS, *BIAS_OPTIONS)),
    # below policy.DEAD (3), or the policy keeps cards that fit nowhere in its own pile
    Param("deny", (float, 0.0, 2.99), DENY, "the prior keeps a card another player could use if "
          "that costs at most this much (0: no such denial)"),
    Param("take_deny", (float, 0.0, 2.99), TAKE_DENY, "the prior takes such a face-up card (when "
          "none helps) if that costs at most this much (0: no such denial)"),
    *ROOT_OPTIONS,
)

# greedy is a heuristic policy that picks one move and ranks none: no multipv, no searchmoves
OPTIONS: dict[str, tuple[Param, ...]] = {"ismcts": ISMCTS, "greedy": ()}
