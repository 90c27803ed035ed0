"""`crossridor bench`: fixed positions searched with fixed budgets, for every
game with a compiled core (Quoridor, Crosswise) and one card-game line (the
Qwatrobat exact solver). Each line has a determinism signature, as
Stockfish's bench node count: a change that alters a search changes it, a
change that only speeds it up does not.

Signatures (the `signature` of each row):
  quoridor alphabeta   nodes searched (fixed depth)
  quoridor mcts        random rollouts: plies played in playouts;
                       eval rollouts: visits of the chosen root move
  crosswise pimc       leaf moves played (ismcts: determinized search)
  qwatrobat solver     nodes of the exact solver
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

from crossridor.engine.errors import UnknownGameError
from crossridor.engine.protocol import Limits
from crossridor.engine.registry import game_key, load_game
from crossridor.engine.search_api import search


class Row(NamedTuple):
    position: str
    # nodes, simulations, evaluations or playouts (the name shadows tuple.count: rows are read by name)
    count: int          # type: ignore[assignment]
    seconds: float
    move: str           # the best move ('' for playouts)
    signature: int


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
MCTS_SIMS = 20000
MCTS_RANDOM_C = 1.4     # the exploration constant of the random-rollout row (eval rows: the default)


@dataclass(frozen=True)
class BenchDeal:
    """A Crosswise deal (seed) after `greedy_plies` greedy moves."""
    name: str
    players: int
    seed: int
    greedy_plies: int


DEALS = (
    BenchDeal("2p-deal", 2, 1, 0),
    BenchDeal("4p-deal", 4, 2, 0),
    BenchDeal("2p-midgame", 2, 3, 16),
)
PIMC_EVALS = 300

# Qwatrobat, cards face up: the exact solver from the start of play
SOLVER_POSITIONS = (
    BenchPosition("open-8-result", {"open": True}, "1234/4321 1122/3344 first:1", 0),
    BenchPosition("open-8-margin", {"open": True}, "1234/4321 1122/3344 first:1", 0),
)


def bench_alphabeta(depth: int | None = None) -> list[Row]:
    """Quoridor alpha-beta to fixed depths; signature: nodes."""
    rows = []
    for pos in POSITIONS:
        state = load_game("quoridor", **pos.params).new_state(pos.moves)
        result = search(state, "alphabeta", Limits(depth=depth or pos.depth), hash=16)
        rows.append(Row(pos.name, result.nodes, result.seconds, str(result.move), result.nodes))
    return rows


def bench_mcts(sims: int | None = None) -> list[Row]:
    """Quoridor MCTS, fixed simulations and seed; signature: playout plies
    (random rollouts) or visits of the chosen root move (eval leaves)."""
    rows = []
    for pos in MCTS_POSITIONS:
        state = load_game("quoridor", **pos.params).new_state(pos.moves)
        options = {"rollout": "random", "c": MCTS_RANDOM_C} if pos.name.endswith("random") else {"rollout": "eval"}
        result = search(state, "mcts", Limits(sims=sims or MCTS_SIMS), seed=1, **options)
        rollout = options["rollout"]
        signature = result.extra["playout_plies"] if rollout == "random" else result.extra["root_visits"]
        rows.append(Row(pos.name, result.nodes, result.seconds, str(result.move), signature))
    return rows


def bench_movegen(calls: int = 200000):
    """Nanoseconds per call of the C move generator (timed in C), best of 3."""
    from crossridor.engine._core import q_time_movegen
    rows = []
    for name, moves in (("start", ""), ("middlegame", POSITIONS[2].moves)):
        state: Any = load_game("quoridor").new_state(moves)     # a QuoridorState: its compiled core
        state.legal_moves()     # the cached paths, as during a search
        ns = min(q_time_movegen(state.core, calls) for _ in range(3)) * 1e9
        rows.append((name, len(state.legal_moves()), ns))
    return rows


def crosswise_state(deal: BenchDeal):
    state = load_game("crosswise", players=deal.players).new_state(seed=deal.seed)
    for _ in range(deal.greedy_plies):
        state.play(search(state, "greedy", Limits(depth=1)).move)
    return state


def bench_crosswise_pimc(evals: int | None = None) -> list[Row]:
    """Crosswise determinized search (ismcts); signature: leaf moves played."""
    rows = []
    for deal in DEALS:
        state = crosswise_state(deal)
        result = search(state, "ismcts", Limits(sims=evals or PIMC_EVALS), seed=1)
        rows.append(Row(deal.name, result.nodes, result.seconds, str(result.move), result.extra["leaf_moves"]))
    return rows


def bench_qwatrobat_solver() -> list[Row]:
    """The Qwatrobat exact solver (pure Python); signature: nodes."""
    rows = []
    for pos in SOLVER_POSITIONS:
        state = load_game("qwatrobat", **pos.params).new_state(pos.moves)
        objective = pos.name.rsplit("-", 1)[1]
        result = search(state, "alphabeta", Limits(depth=1), objective=objective)
        rows.append(Row(pos.name, result.nodes, result.seconds, str(result.move), result.nodes))
    return rows


@dataclass(frozen=True)
class Section:
    game: str
    name: str
    unit: str                       # what `count` counts
    run: Callable[..., list[Row]]
    budget: str | None              # which command-line option sets its budget


SECTIONS = (
    Section("quoridor", "alphabeta", "nodes", bench_alphabeta, "depth"),
    Section("quoridor", "mcts", "sims", bench_mcts, "sims"),
    Section("crosswise", "pimc", "evals", bench_crosswise_pimc, "sims"),
    Section("qwatrobat", "solver", "nodes", bench_qwatrobat_solver, None),
)
BENCH_GAMES = tuple(dict.fromkeys(s.game for s in SECTIONS))


def bench_game_name(name: str) -> str:
    """A game name (or alias) -> the benched game, or ValueError."""
    try:
        key = game_key(name)
    except UnknownGameError:
        raise ValueError(f"bench: unknown game {name!r} (benched: {', '.join(BENCH_GAMES)})") from None
    if key in BENCH_GAMES:
        return key
    raise ValueError(f"bench: no bench for {name!r}: it has no compiled core "
                     f"(benched: {', '.join(BENCH_GAMES)})")


def run_sections(game: str | None = None, depth: int | None = None,
                 sims: int | None = None) -> dict[tuple[str, str], list[Row]]:
    """{(game, section): rows} for one game or all."""
    out = {}
    for section in SECTIONS:
        if game is not None and section.game != game:
            continue
        if section.budget == "depth":
            out[(section.game, section.name)] = section.run(depth)
        elif section.budget == "sims":
            out[(section.game, section.name)] = section.run(sims)
        else:
            out[(section.game, section.name)] = section.run()
    return out
