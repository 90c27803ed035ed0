"""What Crosswise's scores mean (`crossridor.engine.outlook`): the ISMCTS
score is a deal's squashed value averaged over the deals (-1..1, a won game
about +1), a mean return read through the constants fitted on self-play; a
game can end drawn, so the fit has a draw margin a. Two teams are two sides
whatever the number of players."""

from __future__ import annotations

from crossridor.engine.outlook import Calibration, Model


def _variants(game) -> tuple[str, ...]:
    return (f"{game.players}p", "2p")   # the 2-player fit serves 3 players (not measured there)


OUTLOOK = Calibration(
    # fitted by bench/calibrate_outlook.py (docs/analysis.md: the command, samples and reliability)
    models={
        # crosswise --sims 200 --games 150 --seed 1: 7479 samples of 150 games
        ("ismcts", "2p"): Model(a=0.2266, b=1.715, reads="return"),
        # crosswise -o players=4 --sims 200 --games 100 --seed 1: 5032 samples of 100 games
        ("ismcts", "4p"): Model(a=0.1069, b=2.102, reads="return"),
    },
    variants=_variants,
)
