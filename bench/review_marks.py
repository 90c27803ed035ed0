"""How a game review's marks fall: seeded games between a strong and a weak
engine (the library's match runner, seats alternating), each reviewed by
`crossridor.engine.analysis.review`; per engine its moves, mean expected
score lost and the count of each mark (docs/analysis.md, "How the marks
fall"):

    python3 bench/review_marks.py --games 6 --strong alphabeta:depth=6 \\
        --weak alphabeta:depth=1 --depth 10 --seed 1 --concurrency 2

Game options as `-o key=value` (default: 9x9 two-player Quoridor)."""

from __future__ import annotations

import argparse
import time

from crossridor.engine.analysis import MARK_NAMES, review
from crossridor.engine.match.game_loop import resolve_game
from crossridor.engine.match.runner import MatchConfig, run_match
from crossridor.engine.match.specs import EngineSpec
from crossridor.engine.options import convert_value
from crossridor.engine.protocol import Limits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="quoridor")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--strong", default="alphabeta:depth=6")
    parser.add_argument("--weak", default="alphabeta:depth=1")
    parser.add_argument("--algorithm", default=None, help="the review's (default: each position's)")
    parser.add_argument("--depth", type=int, default=None)
    parser.add_argument("--sims", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=1)
    args = parser.parse_args()
    params = {k: convert_value(v) for k, v in (o.split("=", 1) for o in args.option)}
    engines = [EngineSpec.parse(args.strong), EngineSpec.parse(args.weak)]
    limits = Limits(depth=args.depth, sims=args.sims) if args.depth or args.sims else Limits(depth=10)
    result = run_match(MatchConfig(args.game, params, engines, games=args.games, concurrency=args.concurrency,
                                   seed=args.seed))
    game = resolve_game(args.game, params)
    totals = {name: {"moves": 0, "loss": 0.0, **{m: 0 for m in MARK_NAMES}} for name in ("strong", "weak")}
    seconds = plies = 0.0
    for record in result.records:
        began = time.perf_counter()
        rev = review(game, record.moves, algorithm=args.algorithm, limits=limits, seed=args.seed,
                     deal_seed=record.deal_seed, concurrency=args.concurrency)
        seconds += time.perf_counter() - began
        plies += len(record.moves)
        marks = []
        for s in rev.summary:
            name = "strong" if record.seats[s.seat - 1] == 0 else "weak"
            t = totals[name]
            t["moves"] += s.moves
            t["loss"] += (s.mean_loss or 0.0) * s.moves
            for m in MARK_NAMES:
                t[m] += s.marks[m]
            marks.append(f"{name} " + "/".join(str(s.marks[m]) for m in MARK_NAMES))
        print(f"game {record.index}: {record.plies} plies, winner {record.winner_engine}: " + ", ".join(marks))
    shown = ", ".join(f"{k} {getattr(limits, k)}" for k in ("depth", "sims") if getattr(limits, k) is not None)
    print(f"review: {args.algorithm or 'default'} {shown}, seed {args.seed}; {seconds:.1f} s for {int(plies)} plies")
    print("| engine | moves | mean expected score lost | inaccuracies | mistakes | blunders |")
    print("|---|---|---|---|---|---|")
    for name, spec in (("strong", args.strong), ("weak", args.weak)):
        t = totals[name]
        mean = t["loss"] / t["moves"] if t["moves"] else 0.0
        print(f"| {spec} | {t['moves']} | {mean:.3f} | {t['inaccuracy']} | {t['mistake']} | {t['blunder']} |")


if __name__ == "__main__":
    main()
