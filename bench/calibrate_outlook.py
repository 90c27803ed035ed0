"""Fit the constants of the expected score (`crossridor.engine.outlook`) on
seeded self-play, and measure how well they predict the results:

    python3 bench/calibrate_outlook.py quoridor --nodes 20000 --games 200 --workers 2
    python3 bench/calibrate_outlook.py quoridor -o players=4 --nodes 10000 --games 120
    python3 bench/calibrate_outlook.py crosswise --sims 300 --games 300

Plays `--games` games of the game's default algorithm against itself at a
fixed budget (nodes, sims or depth: the same work on any machine), every
game from its own seeded start (a seeded deal; `--random-plies` seeded
random moves first, so that a deterministic search does not play the same
game twice), and records at every searched ply the score of the side to move
and that side's final result: 1 a win, 1/2 a draw, 0 a loss (with more than
two sides, its share of the win: 1 / k when k sides share it). Plies the
search did not search (a table's layout), proven results (they are read
exactly) and games cut at `--max-plies` are left out, and counted.

It fits W = sigmoid((s - a) / b) by maximum likelihood: with two sides
L = sigmoid((-s - a) / b) and D = 1 - W - L (the win/draw/loss likelihood; a
= 0 when no game was drawn), with more sides L = 1 - W (the likelihood of
the shares); then prints the constants, a reliability table (the predicted
expected score by bucket against the observed mean result, with counts),
and the log-loss and Brier score of the expected score against the results
for the fitted model, the model the game declares now (if any), the
uncalibrated baseline (the score read as a mean return) and a constant (the
mean result: no score at all). `--save F.npz` keeps the samples, `--load
F.npz ...` fits saved samples again without playing.

A measurement for the developers (it rewrites no source and needs the
repository's bench/), hence a script here rather than a `crossridor`
command; the results and the command lines that made the shipped
constants are in docs/analysis.md."""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time

import numpy as np

import crossridor
from crossridor.engine.errors import CrossridorError
from crossridor.engine.match.game_loop import dealt, derive_seed, new_game_state
from crossridor.engine.outlook import Model, baseline, calibration, proof, sides
from crossridor.engine.protocol import CHANCE, Limits
from crossridor.engine.registry import game_key, read_params
from crossridor.engine.search_api import default_algorithm, search

CLIP = 1e-3          # predictions are clipped to [CLIP, 1 - CLIP] for the log-loss


# --- self-play ----------------------------------------------------------------------------------

def side_of(traits, player: int) -> int:
    for i, team in enumerate(traits.teams):
        if player in team:
            return i
    return player


def side_results(traits, returns) -> list[float]:
    """Each side's result: its share of the win (1 alone, 1 / k when k
    sides have the best return; two sides level: 1/2 each)."""
    n = sides(traits)
    by_side = [0.0] * n
    for player, r in enumerate(returns):
        by_side[side_of(traits, player)] = r
    top = max(by_side)
    k = sum(1 for r in by_side if r == top)
    return [1.0 / k if r == top else 0.0 for r in by_side]


def play_one(job: tuple) -> dict:
    """One self-play game: the scores of its searched plies and the final
    result of the side that was to move at each, or that it was cut."""
    name, params, index, seed, limits, algorithm, random_plies, max_plies = job
    game = crossridor.load_game(name, **params)
    traits = game.traits
    state = new_game_state(game, (), derive_seed(seed, "deal", index) if dealt(game) else None)
    rng = random.Random(derive_seed(seed, "game", index))
    samples: list[tuple[float, int]] = []      # (score, side to move)
    skipped = proven = plies = 0
    while not state.is_terminal():
        if plies >= max_plies:
            return {"index": index, "cut": True}
        player = state.current_player
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            state.play(rng.choices([m for m, _ in outcomes], weights=[p for _, p in outcomes])[0])
            continue
        if plies < random_plies:
            moves = list(state.legal_moves())
            rng.shuffle(moves)
            move = next((m for m in moves if not _ends(state, m)), moves[0])
        else:
            algo = algorithm or default_algorithm(state)
            result = search(state, algo, limits, seed=derive_seed(seed, "search", index, plies))
            move = result.move
            if result.nodes <= 1:
                skipped += 1          # nothing searched (a layout from Qwatrobat's table)
            elif proof(state, algo, result.score, result.extra) is not None:
                proven += 1
            else:
                samples.append((float(result.score), side_of(traits, player)))
        state.play(move)
        plies += 1
    results = side_results(traits, state.returns())
    return {"index": index, "cut": False, "plies": plies, "skipped": skipped, "proven": proven,
            "scores": [s for s, _ in samples], "y": [results[side] for _, side in samples]}


def _ends(state, move) -> bool:
    copy = state.clone()
    copy.play(move)
    return copy.is_terminal()


def self_play(name, params, games, seed, limits, algorithm, random_plies, max_plies, workers, progress=True):
    jobs = [(name, params, i, seed, limits, algorithm, random_plies, max_plies) for i in range(games)]
    start = time.perf_counter()
    out = []
    with multiprocessing.get_context("spawn").Pool(workers) if workers > 1 else _Serial() as pool:
        for done in pool.imap(play_one, jobs):
            out.append(done)
            if progress:
                print(f"\rgame {len(out)}/{games}  {time.perf_counter() - start:.0f} s", end="",
                      file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    return out


class _Serial:
    """A pool of one: the games in this process."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    @staticmethod
    def imap(fn, jobs):
        return map(fn, jobs)


# --- the fit ------------------------------------------------------------------------------------

def _sig(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def fit_share(s, y, intercept: bool) -> Model:
    """W = sigmoid((s - a) / b) by maximum likelihood of results y in
    [0, 1] (a win, a loss, or a share of the win), Newton's method on the
    logistic regression y ~ u s - v (a = v / u, b = 1 / u); a = 0 without
    `intercept`."""
    s, y = np.asarray(s, float), np.asarray(y, float)
    x = np.column_stack([s, -np.ones_like(s)]) if intercept else s[:, None]
    scale = max(float(np.std(s)), 1e-9)
    w = np.zeros(x.shape[1])
    w[0] = 1.0 / scale
    ridge = 1e-9 * np.eye(len(w))
    for _ in range(100):
        p = _sig(x @ w)
        grad = x.T @ (y - p)
        hess = (x.T * (p * (1 - p))) @ x + ridge
        step = np.linalg.solve(hess, grad)
        w += step
        if np.max(np.abs(step) / np.maximum(np.abs(w), 1e-12)) < 1e-10:
            break
    if w[0] <= 0:
        raise CrossridorError("the scores do not predict the results (the fitted slope is not positive)")
    return Model(a=float(w[1] / w[0]) if intercept else 0.0, b=float(1.0 / w[0]))


def wdl_loglik(theta, s, win, draw, loss) -> float:
    """Mean log-likelihood of the results under u = exp(theta[0]) = 1 / b,
    v = exp(theta[1]) = a / b."""
    u, v = math.exp(theta[0]), math.exp(theta[1])
    pw, pl = _sig(u * s - v), _sig(-u * s - v)
    pd = np.clip(1.0 - pw - pl, 1e-300, 1.0)
    return float(np.mean(win * np.log(np.clip(pw, 1e-300, 1)) + draw * np.log(pd)
                         + loss * np.log(np.clip(pl, 1e-300, 1))))


def fit_wdl(s, y) -> Model:
    """W = sigmoid((s - a) / b), L = sigmoid((-s - a) / b), D = 1 - W - L
    by maximum likelihood of the results y (1 win, 1/2 draw, 0 loss):
    Newton's method over (log 1/b, log a/b) with a numerical Hessian and a
    backtracking step (a, b > 0)."""
    s, y = np.asarray(s, float), np.asarray(y, float)
    win, draw, loss = (y == 1.0).astype(float), (y == 0.5).astype(float), (y == 0.0).astype(float)
    if not draw.any():
        return fit_share(s, y, intercept=False)
    start = fit_share(s, y, intercept=False)
    theta = np.array([-math.log(start.b), math.log(0.5)])
    f = lambda t: wdl_loglik(t, s, win, draw, loss)    # noqa: E731
    h = 1e-4
    for _ in range(200):
        grad = np.array([(f(theta + e) - f(theta - e)) / (2 * h) for e in np.eye(2) * h])
        hess = np.array([[(f(theta + ei + ej) - f(theta + ei - ej) - f(theta - ei + ej) + f(theta - ei - ej))
                          / (4 * h * h) for ej in np.eye(2) * h] for ei in np.eye(2) * h])
        try:
            step = -np.linalg.solve(hess, grad)
        except np.linalg.LinAlgError:
            step = grad
        if grad @ step <= 0:            # not an ascent direction: a gradient step
            step = grad
        base, t = f(theta), 1.0
        while t > 1e-8 and f(theta + t * step) < base:
            t /= 2
        theta = theta + t * step
        if np.max(np.abs(t * step)) < 1e-9:
            break
    u, v = math.exp(theta[0]), math.exp(theta[1])
    return Model(a=v / u, b=1.0 / u)


def fit(s, y, n_sides: int) -> Model:
    """The model of a game of `n_sides` sides (see the module docstring)."""
    if n_sides > 2:
        return fit_share(s, y, intercept=True)
    return fit_wdl(s, y)


# --- the measures -------------------------------------------------------------------------------

def expected_of(model: Model, s, n_sides: int) -> np.ndarray:
    out = []
    for score in s:
        w, d, _ = model.chances(abs(score) if n_sides == 2 else score, n_sides)
        e = w + d / 2
        out.append(e if n_sides > 2 or score >= 0 else 1 - e)
    return np.array(out)


def log_loss(p, y) -> float:
    p = np.clip(p, CLIP, 1 - CLIP)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def brier(p, y) -> float:
    return float(np.mean((p - y) ** 2))


def reliability(p, y, buckets: int = 10) -> list[tuple[str, int, float, float]]:
    """(bucket, count, mean predicted, mean observed) per tenth of the predictions."""
    rows = []
    edges = np.linspace(0, 1, buckets + 1)
    for i in range(buckets):
        hi = edges[i + 1] if i < buckets - 1 else 1.0 + 1e-12
        mask = (p >= edges[i]) & (p < hi)
        if mask.any():
            rows.append((f"{edges[i]:.1f}-{edges[i + 1]:.1f}", int(mask.sum()), float(p[mask].mean()),
                         float(y[mask].mean())))
    return rows


def report(name, params, algorithm, samples, games_info, command: str) -> Model:
    game = crossridor.load_game(name, **params)
    traits = game.traits
    n = sides(traits)
    s, y = np.asarray(samples["score"], float), np.asarray(samples["y"], float)
    if len(s) < 2:
        raise CrossridorError("too few samples to fit (play more games)")
    model = fit(s, y, n)
    state = game.new_state()
    declared = calibration(state).model(game, algorithm)
    units_of = calibration(state).units.get(algorithm, 100.0 if algorithm == "alphabeta" else 1.0)
    predictions = {"fitted": expected_of(model, s, n)}
    if declared is not None:
        predictions["declared"] = expected_of(declared, s, n)
    predictions["baseline"] = np.array([baseline(traits, v, units_of).expected for v in s])
    predictions["constant"] = np.full_like(y, y.mean())
    variant = calibration(state).variants(game)[0]
    print(f"# {command}")
    print(f"game {name} {params or ''} ({n} sides), algorithm {algorithm}, variant {variant!r}")
    print(f"games {games_info['games']} played, {games_info['cut']} cut at the ply cap; "
          f"mean length {games_info['mean_plies']:.1f} plies; samples {len(s)} "
          f"({games_info['proven']} proven and {games_info['skipped']} unsearched plies left out)")
    wins, draws = float(np.mean(y == 1.0)), float(np.mean(y == 0.5))
    print(f"results of the samples: win {wins:.3f} draw {draws:.3f} mean {y.mean():.3f}; "
          f"score mean {s.mean():.3f} sd {s.std():.3f}")
    print(f"fitted: Model(a={model.a:.6g}, b={model.b:.6g})")
    if declared is not None:
        print(f"declared now: Model(a={declared.a:.6g}, b={declared.b:.6g})")
    print("\nreliability of the fitted model (predicted expected score by bucket):")
    print(f"{'bucket':>9} {'count':>7} {'predicted':>10} {'observed':>9}")
    for bucket, count, pred, obs in reliability(predictions["fitted"], y):
        print(f"{bucket:>9} {count:>7} {pred:>10.3f} {obs:>9.3f}")
    print(f"\n{'prediction':>10} {'log-loss':>9} {'Brier':>7}")
    for label, p in predictions.items():
        print(f"{label:>10} {log_loss(p, y):>9.4f} {brier(p, y):>7.4f}")
    print(f"\nfor src/games/{game_key(name)}/outlook.py:")
    print(f'    ("{algorithm}", "{variant}"): Model(a={model.a:.4g}, b={model.b:.4g}),  '
          f"# {len(s)} samples, {games_info['games']} games")
    return model


# --- the command --------------------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(prog="calibrate_outlook.py", description=__doc__.split("\n\n")[0])
    p.add_argument("game")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE", help="a game parameter")
    p.add_argument("--algorithm", default=None, help="default: the game's default algorithm at each ply")
    p.add_argument("--nodes", type=int)
    p.add_argument("--sims", type=int)
    p.add_argument("--depth", type=int)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1, help="processes playing games (default 1)")
    p.add_argument("--random-plies", type=int, default=None,
                   help="seeded random moves at the start of each game (default: 4 where nothing is dealt, else 0)")
    p.add_argument("--max-plies", type=int, default=400, help="games longer than this are left out")
    p.add_argument("--save", metavar="FILE.npz", help="keep the samples")
    p.add_argument("--load", metavar="FILE.npz", nargs="+", help="fit saved samples instead of playing")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    command = "python3 bench/calibrate_outlook.py " + " ".join(sys.argv[1:] if argv is None else argv)
    try:
        name = game_key(args.game)
        params = read_params(name, dict(o.split("=", 1) for o in args.option if "=" in o))
        if any("=" not in o for o in args.option):
            raise CrossridorError("-o takes KEY=VALUE")
        game = crossridor.load_game(name, **params)
        algorithm = args.algorithm or default_algorithm(game.new_state(seed=0) if dealt(game) else game.new_state())
        if args.load:
            data = [np.load(f) for f in args.load]
            samples = {k: np.concatenate([d[k] for d in data]) for k in ("score", "y")}
            info = {k: int(sum(int(d[k]) for d in data)) for k in ("games", "cut", "proven", "skipped")}
            info["mean_plies"] = float(np.mean([float(d["mean_plies"]) for d in data]))
        else:
            fields = {k: getattr(args, k) for k in ("nodes", "sims", "depth") if getattr(args, k) is not None}
            if not fields:
                raise CrossridorError("give the budget of a search: --nodes, --sims or --depth")
            limits = Limits(**fields)
            random_plies = args.random_plies if args.random_plies is not None else (0 if dealt(game) else 4)
            played = self_play(name, params, args.games, args.seed, limits, args.algorithm, random_plies,
                               args.max_plies, args.workers)
            kept = [g for g in played if not g["cut"]]
            samples = {"score": np.array([v for g in kept for v in g["scores"]], float),
                       "y": np.array([v for g in kept for v in g["y"]], float)}
            info = {"games": len(kept), "cut": len(played) - len(kept),
                    "proven": sum(g["proven"] for g in kept), "skipped": sum(g["skipped"] for g in kept),
                    "mean_plies": float(np.mean([g["plies"] for g in kept])) if kept else 0.0}
            if args.save:
                np.savez(args.save, **samples, **info)
        report(name, params, algorithm, samples, info, command)
    except (CrossridorError, ValueError, OSError) as exc:
        print(f"calibrate_outlook.py: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
