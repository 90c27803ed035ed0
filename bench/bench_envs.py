"""Steps per second of the reinforcement-learning environments
(crossridor.envs), next to the raw speed of the game under them.

    python3 bench/bench_envs.py [--seconds 3]

For each game and player count, a random agent that picks uniformly among
the legal actions of its action mask:
    raw      state.legal_actions() + state.apply_action() on the bare state
             (chance drawn the same way), no observation at all
    aec      the PettingZoo env (`env()`, with its wrappers): env.last()
             (the observation tensor and the mask) + env.step()
    gym      the Gymnasium env against opponent="random": one step is the
             agent's move and the opponents' replies, counted as plies
    vector   VectorGames with 64 games: observe() (batched in C for
             Quoridor) + step(), plies over all games
Every figure is plies (moves by a seat) per second, chance outcomes not
counted, the best of three windows; episodes restart when they end (one
window spans several games, so that every phase counts). The output is a
Markdown table.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import crossridor
from crossridor import envs
from crossridor.engine.protocol import CHANCE

CASES = [
    ("quoridor", dict(size=9, players=2)), ("quoridor", dict(size=9, players=4)),
    ("quoridor", dict(size=5, players=2)),
    ("crosswise", dict(players=2)), ("crosswise", dict(players=4)),
    ("qwatrobat", {}),
    ("kreuzundquer", dict(players=2)), ("kreuzundquer", dict(players=4)),
]
MODULES = {"quoridor": envs.quoridor_v0, "crosswise": envs.crosswise_v0,
           "qwatrobat": envs.qwatrobat_v0, "kreuzundquer": envs.kreuzundquer_v0}
GYM_IDS = {"quoridor": "crossridor/Quoridor-v0", "crosswise": "crossridor/Crosswise-v0",
           "qwatrobat": "crossridor/Qwatrobat-v0", "kreuzundquer": "crossridor/KreuzUndQuer-v0"}


REPEATS = 3


def timed(step, seconds: float) -> float:
    """Plies per second of `step()` (which returns the plies it made): the
    best of REPEATS windows of `seconds` (as timeit does: the others lost
    time to other processes on the machine)."""
    step()
    best = 0.0
    for _ in range(REPEATS):
        plies, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            plies += step()
        best = max(best, plies / (time.perf_counter() - t0))
    return best


def raw_rate(game, params, seconds):
    g = crossridor.load_game(game, **params)
    rng = np.random.default_rng(0)
    cap = envs.quoridor_v0.declaration.max_plies(g.params) if game == "quoridor" else None
    box = {"state": g.new_state(seed=0), "plies": 0}

    def step():
        state = box["state"]
        if state.is_terminal() or (cap and box["plies"] >= cap):
            box["state"], box["plies"] = g.new_state(seed=int(rng.integers(2 ** 31))), 0
            return 0
        if state.current_player == CHANCE:
            outcomes = state.chance_action_outcomes()
            p = np.array([q for _, q in outcomes])
            state.apply_action(outcomes[rng.choice(len(outcomes), p=p / p.sum())][0])
            return 0
        actions = state.legal_actions()
        state.apply_action(actions[rng.integers(len(actions))])
        box["plies"] += 1
        return 1
    return timed(step, seconds)


def aec_rate(game, params, seconds):
    env = MODULES[game].env(**params)
    env.reset(seed=0)
    rng = np.random.default_rng(0)

    def step():
        if not env.agents:
            env.reset()
            return 0
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            return 0
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        return 1
    return timed(step, seconds)


def gym_rate(game, params, seconds):
    env = gym.make(GYM_IDS[game], opponent="random", **params)
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    box = {"info": info}

    def step():
        ep = env.unwrapped.episode
        before = ep.plies
        legal = np.flatnonzero(box["info"]["action_mask"])
        _, _, term, trunc, box["info"] = env.step(int(legal[rng.integers(len(legal))]))
        plies = ep.plies - before
        if term or trunc:
            _, box["info"] = env.reset()
        return plies
    return timed(step, seconds)


def vector_rate(game, params, seconds, num_envs=64):
    vg = envs.VectorGames(game, num_envs=num_envs, seed=0, **params)
    rng = np.random.default_rng(0)

    def step():
        _, mask, _ = vg.observe()
        # a uniform legal action per game: the argmax of random keys on the legal ones
        keys = rng.random(mask.shape) * mask
        vg.step(keys.argmax(axis=1))
        return num_envs
    return timed(step, seconds)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds per window (default 3)")
    args = ap.parse_args()
    print("| game | raw apply_action | PettingZoo AEC | Gymnasium vs random | VectorGames (64) |")
    print("|---|---:|---:|---:|---:|")
    for game, params in CASES:
        label = game + "".join(f" {k}={v}" for k, v in params.items())
        rates = [f(game, params, args.seconds) for f in (raw_rate, aec_rate, gym_rate, vector_rate)]
        print(f"| {label} | " + " | ".join(f"{r:,.0f}" for r in rates) + " |", flush=True)


if __name__ == "__main__":
    main()
