"""What Quoridor's scores mean (`crossridor.engine.outlook`): the C
alpha-beta's and greedy's win scores (a win in n plies scores WIN_SCORE -
n), a solved table's answers (its `source`: a draw scores 0), and the
constants fitted on self-play for the rest (centi-steps for alpha-beta and
greedy, the mean return for MCTS)."""

from __future__ import annotations

from crossridor.engine._core import WIN_BOUND, WIN_SCORE
from crossridor.engine.outlook import Calibration, Model, Proof, win_scale

_searched = win_scale(WIN_SCORE, WIN_BOUND)


def _table(state, score, extra) -> Proof | None:
    """A solved table's answer (any algorithm with the option table)."""
    if extra.get("source") != "table":
        return None
    return _searched(state, score, extra) or Proof(0)


def _alphabeta(state, score, extra) -> Proof | None:
    return _table(state, score, extra) or _searched(state, score, extra)


def _variants(game) -> tuple[str, ...]:
    # the 9x9 fit serves the smaller boards of the same players too (their scores are centi-steps as well)
    return (f"{game.size}x{game.size} {game.players}p", f"{game.players}p")


OUTLOOK = Calibration(
    # fitted by: python bench/calibrate_outlook.py quoridor ... (docs/analysis.md gives each run)
    models={
        ("alphabeta", "9x9 2p"): Model(a=0.0, b=202.4),
        ("alphabeta", "2p"): Model(a=0.0, b=202.4),
    },
    families={"greedy": "alphabeta"},
    variants=_variants,
    proven={"alphabeta": _alphabeta, "greedy": _alphabeta, "mcts": _table},
)
