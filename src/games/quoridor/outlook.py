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
    # the 9x9 fits serve the boards without their own (centi-steps on every board; not measured there)
    return (f"{game.board} {game.players}p", f"9x9 {game.players}p")


OUTLOOK = Calibration(
    # fitted by bench/calibrate_outlook.py (docs/analysis.md: each run's command, samples and reliability)
    models={
        # quoridor --nodes 20000 --games 150 --seed 1: 7272 samples of 140 games
        ("alphabeta", "9x9 2p"): Model(a=0.0, b=130.2),
        # quoridor -o size=7 --nodes 20000 --games 100 --seed 1: 2103 samples of 100 games
        ("alphabeta", "7x7 2p"): Model(a=0.0, b=180.6),
        # quoridor -o players=4 --nodes 10000 --games 100 --seed 1: 6961 samples of 98 games
        ("alphabeta", "9x9 4p"): Model(a=-37.63, b=280.5),
        # quoridor --algorithm mcts --sims 5000 --games 150 --seed 1: 7534 samples of 150 games (b = 1: the
        # mean return was calibrated already)
        ("mcts", "9x9 2p"): Model(a=0.0, b=1.008, reads="return"),
    },
    families={"greedy": "alphabeta"},
    variants=_variants,
    proven={"alphabeta": _alphabeta, "greedy": _alphabeta, "mcts": _table},
)
