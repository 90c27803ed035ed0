"""Kreuz & Quer: a one-ply determinized search of the collection moves
(`ismcts:mode=pimc`) and of the build (`ismcts:build=N`), alternatives to the
game's default ISMCTS tree.

In the collection (flip / take / stop, keep / leave) the player to move has
two to six moves; in the build, 28. `pimc_move` judges each by `samples` determinizations
(`KState.sample_determinization`): every move is played on a copy of the same
determinization and the rest of the stage (or `stages` stages) is played
out by `kuq_rollout.stage_evaluator` with a generator seeded alike for every move
(common random numbers), so the moves are compared on the same hidden cards
and, as far as the playouts run alike, the same flips. Before a playout, chance is drawn and the other players' builds are made by
the heuristic rules (`heuristic_move`). The move with the best
mean value for the player wins; the policy's move (`kuq_policy.policy_move`)
gets `bias` added to its mean, so another move must beat it by that much (and
wins ties).
This is a rollout algorithm (Tesauro & Galperin 1996) over the heuristic
playout: the other players are modelled by the heuristic rules.
"""

from __future__ import annotations

import random

from crossridor.engine.algorithms.common import sample_chance
from crossridor.engine.protocol import CHANCE, SearchResult

from crossridor.games.kreuzundquer.rollout import stage_evaluator

__all__ = ["pimc_move"]


def pimc_move(state, samples: int, bias: float, stages: int, seed, now, stop) -> SearchResult:
    """The move of the player to move in a collection phase or the build
    (see the module doc). `now` is the clock and `stop()` says when to give up: the moves
    are then judged on the determinizations done so far (at least one)."""
    from crossridor.games.kreuzundquer.policy import policy_move
    t0 = now()
    me = state.current_player
    moves = state.legal_moves()
    fav = policy_move(state)
    rng = random.Random(seed)
    total = [0.0] * len(moves)
    done = 0
    nodes = 0
    while done < samples and not (done and stop()):
        k = rng.getrandbits(48)
        det = state.sample_determinization(me, random.Random(k))
        for i, m in enumerate(moves):
            s = det.clone()
            crn = random.Random(k)
            s.play(m)
            _to_collection(s, crn)
            total[i] += stage_evaluator(s, rng=crn, max_stages=stages)[me]
            nodes += 1
        done += 1
    means = [t / done for t in total]
    best = max(range(len(moves)),       # ties go to the policy's move
               key=lambda i: (means[i] + (bias if moves[i] == fav else 0.0), moves[i] == fav))
    dt = now() - t0
    return SearchResult(move=moves[best], score=means[best], depth=1, nodes=nodes, seconds=dt,
                        nps=nodes / dt if dt > 0 else 0.0, pv=(moves[best],),
                        extra={"mode": "pimc", "samples": done,
                               "means": {str(m): round(v, 4) for m, v in zip(moves, means)}})


def _to_collection(s, rng) -> None:
    """Resolve chance (by its probabilities) and play the others' builds by
    the heuristic rules until a collection move or the end."""
    from crossridor.games.kreuzundquer.game import heuristic_move
    while True:
        p = s.current_player
        if p == CHANCE:
            s.play(sample_chance(s, rng))
        elif p >= 0 and s.phase == "build":
            s.play(heuristic_move(s))
        else:
            return
