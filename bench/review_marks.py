"""How a game review's marks fall: seeded games between a strong and a weak
engine (the library's match runner, seats alternating), each reviewed by
`crossridor.engine.analysis.review`; per engine its moves, mean expected
score lost and the count of each mark (docs/analysis.md, "How the marks
fall"):

    python3 bench/review_marks.py --games 6 --strong alphabeta:depth=6 \\
        --weak alphabeta:depth=1 --seed 1 --concurrency 2

Game options as `-o key=value` (default: 9x9 two-player Quoridor)."""

from __future__ import annotations

import argparse
import time

from crossridor.engine.analysis import MARK_NAMES, review
from crossridor.engine.cli.analyse import DEFAULT_DEPTH, DEFAULT_NODES
from crossridor.engine.match.game_loop import resolve_game
from crossridor.engine.match.runner import MatchConfig, run_match
from crossridor.engine.match.specs import EngineSpec
from crossridor.engine.options import convert_value
from crossridor.engine.protocol import Limits

CUTS = (0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.40)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="quoridor")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--random-openings", type=int, default=4, metavar="PLIES",
                        help="each pair of games (seats swapped) from its own random opening of PLIES plies")
    parser.add_argument("--strong", default="alphabeta:depth=6")
    parser.add_argument("--weak", default="alphabeta:depth=1")
    parser.add_argument("--algorithm", default=None, help="the review's (default: each position's)")
    parser.add_argument("--depth", type=int, default=None)
    parser.add_argument("--nodes", type=int, default=None)
    parser.add_argument("--sims", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=1)
    args = parser.parse_args()
    params = {k: convert_value(v) for k, v in (o.split("=", 1) for o in args.option)}
    engines = [EngineSpec.parse(args.strong), EngineSpec.parse(args.weak)]
    given = {k: getattr(args, k) for k in ("depth", "nodes", "sims") if getattr(args, k) is not None}
    # without a limit, those of `crossridor analyse`
    limits = Limits(**given) if given else Limits(depth=DEFAULT_DEPTH, nodes=DEFAULT_NODES)
    result = run_match(MatchConfig(args.game, params, engines, games=args.games, concurrency=args.concurrency,
                                   seed=args.seed, random_openings=args.random_openings))
    game = resolve_game(args.game, params)
    totals = {name: {"moves": 0, "loss": 0.0, **{m: 0 for m in MARK_NAMES}} for name in ("strong", "weak")}
    losses: dict[str, list[float]] = {"strong": [], "weak": []}
    seconds = plies = 0.0
    for record in result.records:
        began = time.perf_counter()
        rev = review(game, record.moves, algorithm=args.algorithm, limits=limits, seed=args.seed,
                     deal_seed=record.deal_seed, concurrency=args.concurrency)
        seconds += time.perf_counter() - began
        plies += len(record.moves)
        counts = {name: {m: 0 for m in MARK_NAMES} for name in totals}
        # the opening's random moves are the match's, not the engines'
        for p in rev.plies[record.opening_plies:]:
            if p.seat is None:
                continue
            name = "strong" if record.seats[p.seat - 1] == 0 else "weak"
            t = totals[name]
            t["moves"] += 1
            t["loss"] += p.loss or 0.0
            losses[name].append(p.loss or 0.0)
            if p.mark:
                t[p.mark] += 1
                counts[name][p.mark] += 1
        print(f"game {record.index}: {record.plies} plies, winner engine {record.winner_engine}: "
              + ", ".join(f"{name} " + "/".join(str(c[m]) for m in MARK_NAMES) for name, c in counts.items()))
    shown = ", ".join(f"{k} {getattr(limits, k)}" for k in ("depth", "nodes", "sims") if getattr(limits, k) is not None)
    print(f"review: {args.algorithm or 'default'} {shown}, seed {args.seed}; {seconds:.1f} s for {int(plies)} plies")
    print("| engine | moves | mean expected score lost | inaccuracies | mistakes | blunders |")
    print("|---|---|---|---|---|---|")
    for name, spec in (("strong", args.strong), ("weak", args.weak)):
        t = totals[name]
        mean = t["loss"] / t["moves"] if t["moves"] else 0.0
        print(f"| {spec} | {t['moves']} | {mean:.3f} | {t['inaccuracy']} | {t['mistake']} | {t['blunder']} |")
    print("moves that lost at least (expected score): "
          + "; ".join(f"{name} " + " ".join(f"{x:g}:{sum(v >= x for v in values)}" for x in CUTS)
                      for name, values in losses.items()))


if __name__ == "__main__":
    main()
