"""Crosswise benchmarks.

    python3 bench/bench_crosswise.py time --sims 2000 # CPU seconds per search (the default ismcts)
    python3 bench/bench_crosswise.py match --games 200 --time 1.0 --players 2
    python3 bench/bench_crosswise.py match --games 100 --time 0.1 --players 4
    pytest bench/bench_crosswise.py                   # pytest-benchmark timings

    python3 bench/bench_crosswise.py match --games 40 --time 0.2 -e root_k=12 -e halving=0
    python3 bench/bench_crosswise.py match --games 100 --sims 300 -e infer=2 --records i2.jsonl

`match` is a thin wrapper over the match runner (`crossridor match crosswise
--engine ismcts:... --engine greedy`): ismcts (the default options,
or the options given with -e KEY=VALUE) against greedy, rounds of two games
on one deal with the seats swapped (with 4 players the engines sit A B A B,
so both seats of a team search); game i depends only on (--seed, i).
`--concurrency`, `--records` and `--resume` work as in `crossridor match`.
It prints the running W/D/L, then the engines, the number of games, W/D/L
and the score with its 95% interval (`crossridor.engine.match.stats.result_text`).
"""

from __future__ import annotations

import argparse
import statistics
import time

import crossridor
from crossridor.engine.match.stats import result_text


def search_times(sims: int, players: int = 2, options: dict | None = None, deals: int = 4) -> list[float]:
    """CPU seconds of one ismcts search (sims evaluations, the default
    options, or `options`) at every sixth ply of `deals` seeded games
    played by greedy, so a figure such as "2000 sims fit 1 s/move" does not
    depend on the other processes on the machine (process time)."""
    game = crossridor.load_game("crosswise", players=players)
    times = []
    for deal in range(deals):
        state = game.new_state(seed=100 + deal)
        ply = 0
        while not state.is_terminal():
            if ply % 6 == 1:
                t = time.process_time()
                crossridor.search(state, "ismcts", crossridor.Limits(sims=sims), seed=ply, **(options or {}))
                times.append(time.process_time() - t)
            state.play(crossridor.search(state, "greedy").move)
            ply += 1
    return times


def engine_spec(a) -> str:
    """The searching engine as a match `--engine` spec: the default ismcts,
    with the options given with -e."""
    budget = f"time={a.time:g}" if a.sims is None else f"sims={a.sims}"
    opts = dict(kv.partition("=")[::2] for kv in a.e or ())
    return ",".join([f"ismcts:{budget}"] + [f"{k}={v}" for k, v in opts.items()])


def match(a) -> str:
    """ISMCTS against greedy through the match runner (engine.match): rounds
    of two games with one deal and the seats swapped; game i depends only
    on (seed, i). Returns the result line."""
    from crossridor.engine.match.runner import MatchConfig, run_match
    from crossridor.engine.match.specs import EngineSpec

    spec = engine_spec(a)
    cfg = MatchConfig("crosswise", {"players": a.players}, [EngineSpec.parse(spec), EngineSpec.parse("greedy")],
                      games=a.games, concurrency=a.concurrency, seed=a.seed, records=a.records,
                      resume=bool(a.records) and a.resume)

    def progress(record, tally):
        print(f"game {record.index}: W {tally.wins} D {tally.draws} L {tally.losses}", flush=True)

    r = run_match(cfg, on_record=progress).tally
    return f"{spec} vs greedy, {a.players} players, seed {a.seed}: {result_text(r.wins, r.draws, r.losses)}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["time", "match"])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1, help="match seed (game i depends on it and i only)")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--records", default=None, help="JSON-lines records file (see crossridor match)")
    ap.add_argument("--resume", action="store_true", help="continue the match in --records")
    ap.add_argument("--time", type=float, default=1.0)
    ap.add_argument("--sims", type=int, default=None)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("-e", action="append", default=None, metavar="KEY=VALUE",
                    help="ismcts option, e.g. -e infer=0; without -e: the default search")
    a = ap.parse_args(argv)
    if a.what == "time":
        opts = {k: (float(v) if "." in v else int(v) if v.isdigit() else v)
                for k, v in (kv.partition("=")[::2] for kv in a.e or ())}
        ts = sorted(search_times(a.sims or 2000, a.players, opts))
        print(f"ismcts sims={a.sims or 2000} {opts or '(defaults)'}, {a.players} players, {len(ts)} positions: "
              f"CPU s per search median {statistics.median(ts):.3f}, mean {statistics.mean(ts):.3f}, "
              f"max {ts[-1]:.3f}")
        return 0
    print(match(a))
    return 0

if __name__ == "__main__":
    raise SystemExit(main())


# -- pytest-benchmark ---------------------------------------------------------

def test_bench_ismcts_1000(benchmark):
    st = crossridor.load_game("crosswise").new_state(seed=1)
    benchmark(lambda: crossridor.search(st, "ismcts", crossridor.Limits(sims=1000), seed=1))
