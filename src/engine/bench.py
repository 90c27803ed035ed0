"""`crossridor bench`: fixed positions searched to fixed depths (alpha-beta)
and for a fixed number of simulations (MCTS). The total node count is a
determinism signature (as Stockfish's bench): a change that alters the
search changes it, a change that only speeds it up does not."""

from __future__ import annotations

import time
from dataclasses import dataclass

from .cli_common import print_json
from .protocol import Limits
from .registry import load_game
from .search_api import search


@dataclass(frozen=True)
class BenchPosition:
    name: str
    params: dict
    moves: str
    depth: int


POSITIONS = (
    BenchPosition("opening", {}, "e2 e8", 13),
    BenchPosition("opening-walls", {}, "h4h f2h c5h h2h e2 e8 e3 e7 d2h e3h b2h e6 a1h e5 c1h d5", 10),
    BenchPosition("middlegame", {},
                  "d2h a2h h1h c7h f1 e8 f2 e7 f3 e6 f4 e5 f5 e4 f6 e3 f7 e7h g7 g7h f7 h8h e1h "
                  "a7h g7 g6v g6 f5h f6 d5h", 12),
    BenchPosition("7x7", {"size": 7}, "d5h e6v b3h f4h d2 c7 d3 c6 d4 c5 d5 c4", 11),
    BenchPosition("4-players", {"players": 4},
                  "b8h d5h c2h e5v f1 b5 e8 h5 f2 c5 e7 g5 f3 f4h c1h h3v", 6),
)
MCTS_POSITIONS = (
    BenchPosition("start-random", {}, "", 0),
    BenchPosition("start-eval", {}, "", 0),
)


def bench_alphabeta(depth: int | None = None):
    """Per position: (name, nodes, seconds). Deterministic node counts."""
    rows = []
    for pos in POSITIONS:
        state = load_game("quoridor", **pos.params).new_state(pos.moves)
        result = search(state, "alphabeta", Limits(depth=depth or pos.depth), hash=16)
        rows.append((pos.name, result.nodes, result.seconds, str(result.move)))
    return rows


def bench_mcts(sims: int | None = None):
    rows = []
    for pos in MCTS_POSITIONS:
        state = load_game("quoridor", **pos.params).new_state(pos.moves)
        rollout = "random" if pos.name.endswith("random") else "eval"
        result = search(state, "mcts", Limits(sims=sims or 20000), seed=1, rollout=rollout)
        rows.append((pos.name, result.nodes, result.seconds, str(result.move)))
    return rows


def bench_movegen(calls: int = 200000):
    """Nanoseconds per call of the C move generator (timed in C), best of 3."""
    from crossridor.engine._core import q_time_movegen
    rows = []
    for name, moves in (("start", ""), ("middlegame", POSITIONS[2].moves)):
        state = load_game("quoridor").new_state(moves)
        state.legal_moves()     # the cached paths, as during a search
        ns = min(q_time_movegen(state.core, calls) for _ in range(3)) * 1e9
        rows.append((name, len(state.legal_moves()), ns))
    return rows


def run_bench(args) -> int:
    if args.depth is not None and not 1 <= args.depth <= 20:
        raise ValueError(f"--depth must be 1..20, got {args.depth}")
    if args.sims is not None and args.sims < 1:
        raise ValueError(f"--sims must be >= 1, got {args.sims}")
    start = time.perf_counter()
    ab = bench_alphabeta(args.depth)
    mc = bench_mcts(args.sims)
    mg = bench_movegen()
    total_nodes = sum(r[1] for r in ab)
    ab_seconds = sum(r[2] for r in ab)
    if args.json:
        print_json({
            "alphabeta": [{"position": n, "nodes": k, "seconds": round(s, 4), "move": m}
                          for n, k, s, m in ab],
            "mcts": [{"position": n, "sims": k, "seconds": round(s, 4), "sims_per_second": round(k / s)}
                     for n, k, s, m in mc],
            "movegen": [{"position": n, "moves": k, "ns_per_call": round(ns, 1)} for n, k, ns in mg],
            "nodes": total_nodes,
            "nps": round(total_nodes / ab_seconds) if ab_seconds else 0,
            "seconds": round(time.perf_counter() - start, 3),
        })
        return 0
    print(f"{'position':<16}{'nodes':>12}{'seconds':>10}{'nodes/s':>12}  best")
    for name, nodes, seconds, move in ab:
        print(f"{name:<16}{nodes:>12}{seconds:>10.3f}{nodes / max(seconds, 1e-9):>12.0f}  {move}")
    print(f"{'alpha-beta total':<16}{total_nodes:>12}{ab_seconds:>10.3f}"
          f"{total_nodes / max(ab_seconds, 1e-9):>12.0f}")
    print()
    print(f"{'mcts':<16}{'sims':>12}{'seconds':>10}{'sims/s':>12}  best")
    for name, sims, seconds, move in mc:
        print(f"{name:<16}{sims:>12}{seconds:>10.3f}{sims / max(seconds, 1e-9):>12.0f}  {move}")
    print()
    for name, k, ns in mg:
        print(f"movegen {name:<11}{k:>5} moves {ns:>10.0f} ns/call")
    print()
    print(f"Nodes searched: {total_nodes}")
    return 0
