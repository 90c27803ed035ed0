"""Crosswise benchmarks.

    python3 bench/bench_crosswise.py speed            # playout moves/s, one core (--eps 100: random)
    python3 bench/bench_crosswise.py match --games 200 --time 1.0 --players 2
    python3 bench/bench_crosswise.py match --games 100 --time 0.1 --players 4
    pytest bench/bench_crosswise.py                   # pytest-benchmark timings

    python3 bench/bench_crosswise.py match --games 40 --time 0.2 -e mode=mcts   # the MCTS mode
    python3 bench/bench_crosswise.py match --games 40 --time 0.2 -e mode=pimc -e roll=0 -e depth=3

`match` plays crossridor.search(state, "ismcts", ...) (the default Crosswise
mode, or the options given with -e KEY=VALUE) against greedy with deals
fixed by the game index; the searching side takes team Rows in even games
and Columns in odd ones (with 4 players, both seats of its team search). It
prints wins / draws / losses, the score with its 95% interval and the
number of games (`crossridor.engine.stats.result_text`).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


import crossridor
from crossridor.engine.stats import result_text


def speed(n: int = 20000, players: int = 2, eps: int = 20) -> tuple[int, float]:
    """Playouts from redeals of a fresh deal with ISMCTS's playout policy
    (eps = percent of random moves; 100 = uniformly random tile-first)."""
    st = crossridor.load_game("crosswise", players=players).new_state(seed=1)
    t = time.perf_counter()
    moves = st._c.bench_playouts(st.current_player, n, 12345, eps)
    return moves, time.perf_counter() - t


def play_game(players: int, index: int, secs: float, sims: int | None, c: float, margin: float,
              eps: int = 20, pbias: float = 0.0, hexp: int = 0, root_k: int = 12, act: int = 0,
              opts: dict | None = None) -> int:
    """+1 if ISMCTS's team won, -1 if greedy's, 0 draw."""
    game = crossridor.load_game("crosswise", players=players)
    st = game.new_state(seed=1000 + index // 2)
    ours = index % 2
    limits = crossridor.Limits(time=secs) if sims is None else crossridor.Limits(sims=sims)
    k = 0
    while not st.is_terminal():
        p = st.current_player
        if (p & 1) == ours:
            if opts is None:          # the default search
                r = crossridor.search(st, "ismcts", limits, seed=index * 1000 + k)
            elif opts.get("mode") == "mcts":   # the MCTS knobs from --c ... --act, unless given with -e
                o = dict(c=c, margin=margin, eps=eps, pbias=pbias, hexp=hexp, root_k=root_k, act=act)
                o.update(opts)
                r = crossridor.search(st, "ismcts", limits, seed=index * 1000 + k, **o)
            else:                     # -e options as they are (e.g. mode=pimc roll=2)
                r = crossridor.search(st, "ismcts", limits, seed=index * 1000 + k, **opts)
        else:
            r = crossridor.search(st, "greedy", limits)
        st.play(r.move)
        k += 1
    w = st.winner_team()
    return 0 if w == 2 else (1 if w == ours else -1)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["speed", "match"])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--time", type=float, default=1.0)
    ap.add_argument("--sims", type=int, default=None)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--c", type=float, default=0.7)
    ap.add_argument("--margin", type=float, default=0.0)
    ap.add_argument("--eps", type=int, default=20)
    ap.add_argument("--pbias", type=float, default=0.0)
    ap.add_argument("--hexp", type=int, default=0)
    ap.add_argument("--root-k", type=int, default=12)
    ap.add_argument("--act", type=int, default=0)
    ap.add_argument("-e", action="append", default=None, metavar="KEY=VALUE",
                    help="ismcts option, e.g. -e mode=pimc -e roll=2; without -e: the default search; "
                         "--c ... --act apply with -e mode=mcts")
    a = ap.parse_args(argv)
    if a.what == "speed":
        moves, dt = speed(players=a.players, eps=a.eps)
        print(f"{moves} playout moves in {dt:.3f} s: {moves / dt:,.0f} moves/s (one core, "
              f"{a.players} players, eps {a.eps}%)")
        return 0
    opts = None
    if a.e:
        opts = {}
        for kv in a.e:
            k, _, v = kv.partition("=")
            try:
                opts[k] = int(v)
            except ValueError:
                try:
                    opts[k] = float(v)
                except ValueError:
                    opts[k] = v
    w = d = l = 0
    t0 = time.time()
    for i in range(a.start, a.start + a.games):
        r = play_game(a.players, i, a.time, a.sims, a.c, a.margin, a.eps, a.pbias, a.hexp, a.root_k, a.act,
                      opts)
        w += r == 1
        d += r == 0
        l += r == -1
        print(f"game {i}: {'win' if r == 1 else 'draw' if r == 0 else 'loss'}  "
              f"(W {w} D {d} L {l}, {time.time() - t0:.0f} s)", flush=True)
    budget = f"{a.time} s" if a.sims is None else f"{a.sims} sims"
    print(f"ISMCTS {opts or ''} vs greedy, {a.players} players, {budget}/move: {result_text(w, d, l)}")
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
