"""What Kreuz & Quer's scores mean (`crossridor.engine.outlook`): the ISMCTS
score is a mean return (a shared win splits the winners' part), read
through the constants fitted on self-play where there are some, else as a
mean return (the engine's baseline)."""

from __future__ import annotations

from crossridor.engine.outlook import Calibration


def _variants(game) -> tuple[str, ...]:
    return (f"{game.n}p",)


OUTLOOK = Calibration(
    # fitted by: python bench/calibrate_outlook.py kreuzundquer ... (docs/analysis.md gives each run)
    models={},
    variants=_variants,
)
