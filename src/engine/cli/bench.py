"""Subcommand `bench` (argument checks and printing only; the fixed searches
are in crossridor.engine.bench)."""

from __future__ import annotations

import time

from crossridor.engine.bench import SECTIONS, bench_game_name, bench_movegen, run_sections
from crossridor.engine.cli.common import print_json


def run_bench(args) -> int:
    if args.depth is not None and not 1 <= args.depth <= 20:
        raise ValueError(f"--depth must be 1..20, got {args.depth}")
    if args.sims is not None and args.sims < 1:
        raise ValueError(f"--sims must be >= 1, got {args.sims}")
    game = bench_game_name(args.game) if args.game is not None else None
    start = time.perf_counter()
    results = run_sections(game, args.depth, args.sims)
    movegen = bench_movegen() if game in (None, "quoridor") else []
    units = {(s.game, s.name): s.unit for s in SECTIONS}
    if args.json:
        data: dict = {}
        for (g, name), rows in results.items():
            unit = units[(g, name)]
            data.setdefault(g, {})[name] = [
                {"position": r.position, unit: r.count, "signature": r.signature,
                 "seconds": round(r.seconds, 4), f"{unit}_per_second": round(r.count / max(r.seconds, 1e-9)),
                 "move": r.move} for r in rows]
        if movegen:
            data["quoridor"]["movegen"] = [{"position": n, "moves": k, "ns_per_call": round(ns, 1)}
                                           for n, k, ns in movegen]
        data["signature"] = {f"{g} {name}": sum(r.signature for r in rows)
                             for (g, name), rows in results.items()}
        data["seconds"] = round(time.perf_counter() - start, 3)
        print_json(data)
        return 0
    for (g, name), rows in results.items():
        unit = units[(g, name)]
        title = f"{g} {name}"
        print(f"{title:<24}{unit:>10}{'seconds':>9}{unit + '/s':>13}{'signature':>12}  best")
        for r in rows:
            print(f"  {r.position:<22}{r.count:>10}{r.seconds:>9.3f}{r.count / max(r.seconds, 1e-9):>13.0f}"
                  f"{r.signature:>12}  {r.move}")
        count, seconds = sum(r.count for r in rows), sum(r.seconds for r in rows)
        print(f"  {'total':<22}{count:>10}{seconds:>9.3f}{count / max(seconds, 1e-9):>13.0f}"
              f"{sum(r.signature for r in rows):>12}")
        print()
    for name, k, ns in movegen:
        print(f"quoridor movegen {name:<11}{k:>5} moves {ns:>10.0f} ns/call")
    if movegen:
        print()
    if ("quoridor", "alphabeta") in results:
        print(f"Nodes searched: {sum(r.count for r in results[('quoridor', 'alphabeta')])}")
    return 0
