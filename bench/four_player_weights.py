"""The classic evaluation's weights for 4-player Quoridor, fitted to the
results of a match's games (src/games/quoridor/eval.pxi: a player's score is
100 x (the nearest other's path - its own) + wall_value x (its walls - the
others' / 3) +- tempo). Every position after the opening gives four rows,
one per player, labelled 1 if that player won; a logistic regression of
the label on those three terms gives wall_value = 100 b_walls / b_path and
tempo = 100 b_tempo / b_path. Then the cross-entropy, 10-fold by games, of
the free fit and of fixed weights (only the scale fitted):

    crossridor match quoridor --players 4 --engine alphabeta:time=0.05 \\
        --engine alphabeta:time=0.05 --random-openings 4 --seed 6101 --games 300 \\
        --concurrency 2 --records fit4.jsonl
    python3 bench/four_player_weights.py fit4.jsonl"""

from __future__ import annotations

import argparse

import numpy as np

import crossridor
from crossridor.engine.errors import CrossridorError
from crossridor.engine.match.records import read_records
from crossridor.games.quoridor.training import cross_entropy

FOLDS = 10
GRID = [(w, t) for w in (50, 75, 100, 125, 150, 200) for t in (0, 20, 40)]


def rows(path: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(terms, labels, game index) of every player in every position after the opening."""
    terms, labels, games = [], [], []
    for record in read_records(path):
        if record.game != "quoridor" or record.params.get("players") != 4:
            raise CrossridorError(f"{path}: game {record.index} is not 4-player Quoridor")
        game = crossridor.load_game("quoridor", **record.params)
        state = game.new_state(" ".join(record.moves[:record.opening_plies]))
        for move in record.moves[record.opening_plies:]:
            dist, walls = list(state.distances()), list(state.walls_left)
            for p in range(4):
                others = [q for q in range(4) if q != p]
                terms.append((min(dist[q] for q in others) - dist[p],
                              walls[p] - sum(walls[q] for q in others) / 3,
                              1 if state.current_player == p else -1))
                labels.append(1.0 if record.returns[p] > 0 else 0.0)
                games.append(record.index)
            state.play(move)
    return np.array(terms, float), np.array(labels), np.array(games)


def fit(x: np.ndarray, y: np.ndarray, iterations: int = 30) -> np.ndarray:
    """Logistic regression by Newton's method: (intercept, coefficients)."""
    a = np.hstack([np.ones((len(x), 1)), x])
    beta = np.zeros(a.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-a @ beta))
        hessian = a.T @ (a * (p * (1 - p))[:, None]) + 1e-9 * np.eye(a.shape[1])
        beta += np.linalg.solve(hessian, a.T @ (y - p))
    return beta


def cross_validated(x: np.ndarray, y: np.ndarray, games: np.ndarray) -> float:
    total = 0.0
    for k in range(FOLDS):
        held = games % FOLDS == k
        beta = fit(x[~held], y[~held])
        total += cross_entropy(beta[0] + x[held] @ beta[1:], y[held]) * held.sum()
    return total / len(y)


def score(x: np.ndarray, wall_value: float, tempo: float) -> np.ndarray:
    return ((100 * x[:, 0] + wall_value * x[:, 1] + tempo * x[:, 2]) / 100)[:, None]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", help="a 4-player match's --records file")
    args = parser.parse_args()
    x, y, games = rows(args.records)
    beta = fit(x, y)
    print(f"{len(set(games.tolist()))} games, {len(y) // 4} positions")
    print(f"fitted: wall_value {100 * beta[2] / beta[1]:.0f}, tempo {100 * beta[3] / beta[1]:.0f} "
          f"(coefficients {', '.join(f'{b:.4f}' for b in beta)})")
    print(f"cross-entropy, {FOLDS}-fold by games: the free fit {cross_validated(x, y, games):.4f}")
    for wall_value, tempo in GRID:
        fixed = cross_validated(score(x, wall_value, tempo), y, games)
        print(f"  wall_value {wall_value:3}, tempo {tempo:2}: {fixed:.4f}")


if __name__ == "__main__":
    main()
