"""What Qwatrobat's scores mean (`crossridor.engine.outlook`): the exact
solver's (algorithm alphabeta, extra `solved`) are proven results, +1 / 0 /
-1 or a final point margin whose sign is the result, reached when the last
card is pushed; the ISMCTS score (a mean return) is read through the
constants fitted on self-play."""

from __future__ import annotations

from crossridor.engine.outlook import Calibration, Proof


def _solved(state, score, extra) -> Proof | None:
    if not extra.get("solved"):
        return None         # stopped before a value: the score means nothing
    result = (score > 0) - (score < 0)
    # every card left is pushed, one a ply, and the last one ends the game
    plies = sum(state.rem[0]) + sum(state.rem[1])
    return Proof(result, plies if result else None)


OUTLOOK = Calibration(
    # fitted by: python bench/calibrate_outlook.py qwatrobat ... (docs/analysis.md gives each run)
    models={},
    proven={"alphabeta": _solved},
)
