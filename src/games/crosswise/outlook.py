"""What Crosswise's scores mean (`crossridor.engine.outlook`): the ISMCTS
score is a deal's squashed value averaged over the deals (-1..1, a won game
about +1), read through the constants fitted on self-play; a game can end
drawn, so the fit has a draw margin a. Two teams are two sides whatever the
number of players."""

from __future__ import annotations

from crossridor.engine.outlook import Calibration


def _variants(game) -> tuple[str, ...]:
    return (f"{game.players}p", "2p")   # the 2-player fit serves the team games until they have their own


OUTLOOK = Calibration(
    # fitted by: python bench/calibrate_outlook.py crosswise ... (docs/analysis.md gives each run)
    models={},
    variants=_variants,
)
