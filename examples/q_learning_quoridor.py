"""Linear Q-learning with action masks on 5x5 Quoridor, against a fixed
opponent, with numpy only: the agent's win rate rises as it learns.

    python3 examples/q_learning_quoridor.py [--episodes 3000] [--png docs/img/rl-learning-curve.png]

The agent holds seat 0 of `crossridor/Quoridor-v0` (size=5) against
opponent="random" (change it with --opponent, e.g. "greedy"). Q(s, a) =
W[a] . phi(s), phi the game's observation planes flattened (pawns, walls,
walls in hand, the seat to move, each seat's distance field to its goal)
and a constant; epsilon-greedy over the legal actions only (the mask), the
Q-learning target r + gamma * max over the next state's legal actions. Every
--every episodes the greedy policy plays --eval games on fixed seeds; the
win rates go to the terminal and, with matplotlib, to a PNG.
"""

from __future__ import annotations

import argparse
import sys

import gymnasium as gym
import numpy as np

import crossridor.envs  # noqa: F401  (registers the crossridor/... ids)


def features(obs: dict) -> np.ndarray:
    return np.append(obs["observation"].ravel(), 1.0)


def masked_argmax(q: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[np.argmax(q[mask.astype(bool)])])


def evaluate(w: np.ndarray | None, opponent: str, games: int, size: int) -> float:
    """The greedy policy's win rate over `games` fixed seeds (w None: a
    uniformly random policy, the baseline)."""
    env = gym.make("crossridor/Quoridor-v0", size=size, opponent=opponent)
    rng = np.random.default_rng(1)
    wins = 0
    for g in range(games):
        obs, info = env.reset(seed=100_000 + g)
        while True:
            mask = obs["action_mask"]
            action = int(rng.choice(np.flatnonzero(mask))) if w is None else masked_argmax(w @ features(obs), mask)
            obs, reward, term, trunc, info = env.step(action)
            if term or trunc:
                wins += reward > 0
                break
    return wins / games


def train(episodes: int, every: int, eval_games: int, opponent: str, size: int, seed: int,
          lr: float = 0.005, gamma: float = 0.97) -> list[tuple[int, float]]:
    env = gym.make("crossridor/Quoridor-v0", size=size, opponent=opponent)
    rng = np.random.default_rng(seed)
    nfeat = int(np.prod(env.observation_space["observation"].shape)) + 1
    w = np.zeros((env.action_space.n, nfeat))
    curve = [(0, evaluate(w, opponent, eval_games, size))]
    print(f"episode {0:5d}  win rate {curve[-1][1]:.2f}", flush=True)
    obs, _ = env.reset(seed=seed)
    for episode in range(1, episodes + 1):
        epsilon = max(0.05, 1.0 - episode / (0.5 * episodes))
        x = features(obs)
        while True:
            mask = obs["action_mask"]
            if rng.random() < epsilon:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = masked_argmax(w @ x, mask)
            obs, reward, term, trunc, _ = env.step(action)
            x_next = features(obs)
            target = reward
            if not (term or trunc):
                target += gamma * float(np.max((w @ x_next)[obs["action_mask"].astype(bool)]))
            w[action] += lr * (target - w[action] @ x) * x
            x = x_next
            if term or trunc:
                break
        obs, _ = env.reset()
        if episode % every == 0:
            curve.append((episode, evaluate(w, opponent, eval_games, size)))
            print(f"episode {episode:5d}  win rate {curve[-1][1]:.2f}", flush=True)
    return curve


def plot(curve, baseline: float, png: str, opponent: str, size: int) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no matplotlib: the curve is printed above, not plotted (pip install matplotlib)", file=sys.stderr)
        return
    x, y = zip(*curve)
    fig, ax = plt.subplots(figsize=(6, 3.5), dpi=100)
    ax.plot(x, y, marker="o", label="Q-learning agent")
    ax.axhline(baseline, color="grey", linestyle="--", label="random agent")
    ax.legend(loc="lower right")
    ax.set_xlabel("training episodes")
    ax.set_ylabel("win rate (greedy policy)")
    ax.set_ylim(0, 1)
    ax.set_title(f"Linear Q-learning, {size}x{size} Quoridor vs {opponent}")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(png)
    print(f"wrote {png}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=3000)
    ap.add_argument("--every", type=int, default=250, help="evaluate every N episodes")
    ap.add_argument("--eval", type=int, default=200, help="evaluation games")
    ap.add_argument("--opponent", default="random", help="engine spec of the fixed opponent")
    ap.add_argument("--size", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--png", default="rl-learning-curve.png")
    args = ap.parse_args()
    baseline = evaluate(None, args.opponent, args.eval, args.size)
    print(f"a random agent wins {baseline:.2f}")
    curve = train(args.episodes, args.every, args.eval, args.opponent, args.size, args.seed)
    plot(curve, baseline, args.png, args.opponent, args.size)


if __name__ == "__main__":
    main()
