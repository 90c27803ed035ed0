"""Crosswise benchmarks.

    python3 bench/bench_crosswise.py speed            # playout moves/s, one core (--eps 100: random)
    python3 bench/bench_crosswise.py time --sims 2000 # CPU seconds per search (the default ismcts)
    python3 bench/bench_crosswise.py match --games 200 --time 1.0 --players 2
    python3 bench/bench_crosswise.py match --games 100 --time 0.1 --players 4
    pytest bench/bench_crosswise.py                   # pytest-benchmark timings

    python3 bench/bench_crosswise.py match --games 40 --time 0.2 -e mode=mcts   # the MCTS mode
    python3 bench/bench_crosswise.py match --games 40 --time 0.2 -e root_k=12 -e halving=0
    python3 bench/bench_crosswise.py match --games 100 --sims 300 -e infer=2 --records i2.jsonl

`match` is a thin wrapper over the match runner (`crossridor match crosswise
--engine ismcts:... --engine greedy`): ismcts (the default Crosswise mode,
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


def speed(n: int = 20000, players: int = 2, eps: int = 20) -> tuple[int, float]:
    """Playouts from redeals of a fresh deal with ISMCTS's playout policy
    (eps = percent of random moves; 100 = uniformly random tile-first)."""
    st = crossridor.load_game("crosswise", players=players).new_state(seed=1)
    t = time.perf_counter()
    moves = st._c.bench_playouts(st.current_player, n, 12345, eps)
    return moves, time.perf_counter() - t


def search_times(sims: int, players: int = 2, options: dict | None = None, deals: int = 4) -> list[float]:
    """CPU seconds of one ismcts search (sims simulations, the default mode
    and options, or `options`) at every sixth ply of `deals` seeded games
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
    the options given with -e, or with -e mode=mcts the --c, --eps and
    --root-k knobs (overridden by -e)."""
    budget = f"time={a.time:g}" if a.sims is None else f"sims={a.sims}"
    opts = dict(kv.partition("=")[::2] for kv in a.e or ())
    if opts.get("mode") == "mcts":
        knobs = dict(c=a.c, eps=a.eps, root_k=a.root_k)
        opts = {**{k: f"{v:g}" for k, v in knobs.items()}, **opts}
    return ",".join([f"ismcts:{budget}"] + [f"{k}={v}" for k, v in opts.items()])


def match(a) -> str:
    """ISMCTS against greedy through the match runner (engine.match): rounds
    of two games with one deal and the seats swapped; game i depends only
    on (seed, i). Returns the result line."""
    from crossridor.engine.match.runner import MatchConfig, run_match
    from crossridor.engine.match.workers import EngineSpec

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
    ap.add_argument("what", choices=["speed", "time", "match"])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1, help="match seed (game i depends on it and i only)")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--records", default=None, help="JSON-lines records file (see crossridor match)")
    ap.add_argument("--resume", action="store_true", help="continue the match in --records")
    ap.add_argument("--time", type=float, default=1.0)
    ap.add_argument("--sims", type=int, default=None)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--c", type=float, default=0.7)
    ap.add_argument("--eps", type=int, default=20)
    ap.add_argument("--root-k", type=int, default=12)
    ap.add_argument("-e", action="append", default=None, metavar="KEY=VALUE",
                    help="ismcts option, e.g. -e mode=pimc -e infer=0; without -e: the default search; "
                         "--c, --eps and --root-k apply with -e mode=mcts")
    a = ap.parse_args(argv)
    if a.what == "speed":
        moves, dt = speed(players=a.players, eps=a.eps)
        print(f"{moves} playout moves in {dt:.3f} s: {moves / dt:,.0f} moves/s (one core, "
              f"{a.players} players, eps {a.eps}%)")
        return 0
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

def test_bench_playouts(benchmark):
    st = crossridor.load_game("crosswise").new_state(seed=1)
    benchmark(st._c.bench_playouts, 0, 200, 7)


def test_bench_ismcts_1000(benchmark):
    st = crossridor.load_game("crosswise").new_state(seed=1)
    benchmark(lambda: crossridor.search(st, "ismcts", crossridor.Limits(sims=1000), seed=1))
