"""What an opening book could win under the acceptance protocol (9x9, two
players, seeded random 2-ply openings as `crossridor match --random-openings
2 --seed SEED` deals them): at each engine's first move after the opening
(the first player's at ply 3; the second player's at ply 4, after the
first player's FAST-second move), a SLOW search stands in for a book built
by deep searches. Where its move differs from the FAST search's, the FAST
move is searched again for SLOW seconds alone (`searchmoves`), and the gain
is the difference of the two scores as expected scores (the calibrated
outlook, docs/analysis.md). Prints the moves that differ, the mean gain per
position with a bootstrap 95% interval, and that gain as Elo for one book
move per game:

    python3 bench/book_bound.py --rounds 120 --seed 4101 --concurrency 2 --out bound.jsonl

Resumable: positions already in --out are not searched again."""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import random

import crossridor
from crossridor.engine.match.game_loop import derive_seed
from crossridor.engine.match.openings import random_opening
from crossridor.engine.match.stats import elo_from_score
from crossridor.engine.outlook import outlook

KINDS = ("first", "second")


def opening(game, round_index: int, seed: int) -> tuple:
    """The random 2-ply opening of a round, as the match runner deals it."""
    return random_opening(game, 2, derive_seed(seed, "opening", round_index))


def searched(round_index: int, seed: int, fast: float, slow: float) -> list[dict]:
    """The two positions of one round, each searched FAST and SLOW."""
    game = crossridor.load_game("quoridor", size=9, players=2)
    moves = " ".join(opening(game, round_index, seed))
    rows = []
    for kind in KINDS:
        state = game.new_state(moves)
        if kind == "second":
            state.play(crossridor.search(state, "alphabeta", crossridor.Limits(time=fast)).move)
        quick = crossridor.search(state, "alphabeta", crossridor.Limits(time=fast))
        deep = crossridor.search(state, "alphabeta", crossridor.Limits(time=slow))
        row = {"round": round_index, "kind": kind, "moves": " ".join(str(m) for m in state.moves),
               "fast": str(quick.move), "fast_depth": quick.depth,
               "slow": str(deep.move), "slow_score": deep.score, "slow_depth": deep.depth}
        if row["fast"] != row["slow"]:
            alone = crossridor.search(state, "alphabeta", crossridor.Limits(time=slow), searchmoves=[quick.move])
            row.update(fast_at_slow=alone.score, fast_at_slow_depth=alone.depth)
        rows.append(row)
    return rows


def gain(game, row: dict) -> float:
    """The SLOW search's expected score of its move minus that of the FAST move."""
    if row["fast"] == row["slow"]:
        return 0.0
    state = game.new_state(row["moves"])
    return (outlook(state, "alphabeta", row["slow_score"]).expected
            - outlook(state, "alphabeta", row["fast_at_slow"]).expected)


def elo(gain: float) -> float:
    """The Elo of scoring 0.5 + gain (0.0 +: no "-0.0" for no gain)."""
    return 0.0 + elo_from_score(0.5 + gain)


def report(rows: list[dict], seed: int) -> None:
    game = crossridor.load_game("quoridor", size=9, players=2)
    gains = [gain(game, row) for row in rows]
    for row, g in zip(rows, gains):
        if row["fast"] != row["slow"]:
            print(f"{row['kind']:6} after {row['moves']:14} fast {row['fast']:4} slow {row['slow']:4} "
                  f"(depth {row['slow_depth']}, score {row['slow_score']}; the fast move {row['fast_at_slow']} "
                  f"at depth {row['fast_at_slow_depth']}): gain {g:+.3f}")
    for kind in KINDS:
        some = [row for row in rows if row["kind"] == kind]
        print(f"as {kind} player: {len(some)} positions, another move in {sum(r['fast'] != r['slow'] for r in some)}")
    mean = sum(gains) / len(gains)
    rng = random.Random(seed)
    means = sorted(sum(rng.choice(gains) for _ in gains) / len(gains) for _ in range(10_000))
    low, high = means[250], means[9_749]
    depths = sorted(row["fast_depth"] for row in rows), sorted(row["slow_depth"] for row in rows)
    print(f"median depth: fast {depths[0][len(rows) // 2]}, slow {depths[1][len(rows) // 2]}")
    print(f"mean gain per position {mean:.4f} (bootstrap 95%: {low:.4f} to {high:.4f}); "
          f"one such move per game: {elo(mean):+.1f} Elo ({elo(low):+.1f} to {elo(high):+.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=120, help="openings (two positions each)")
    parser.add_argument("--seed", type=int, default=4101, help="the match's --seed the openings come from")
    parser.add_argument("--fast", type=float, default=0.5, help="seconds: the engine's move time")
    parser.add_argument("--slow", type=float, default=10.0, help="seconds: the book's search")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--out", required=True, help="JSON lines, one per position (appended to)")
    args = parser.parse_args()
    rows = []
    if os.path.exists(args.out):
        with open(args.out) as f:
            rows = [json.loads(line) for line in f if line.strip()]
    done = {row["round"] for row in rows}
    todo = [i for i in range(args.rounds) if i not in done]
    with open(args.out, "a") as out, concurrent.futures.ProcessPoolExecutor(args.concurrency) as pool:
        futures = [pool.submit(searched, i, args.seed, args.fast, args.slow) for i in todo]
        for future in concurrent.futures.as_completed(futures):
            for row in future.result():
                out.write(json.dumps(row) + "\n")
                rows.append(row)
            out.flush()
    report(sorted(rows, key=lambda r: (r["round"], KINDS.index(r["kind"]))), args.seed)


if __name__ == "__main__":
    main()
