"""`crossridor analyse GAME FILE|--moves ...`: a game review, ply by ply
(the work is crossridor.engine.analysis; the SVG graph and the annotated
PGN crossridor.engine.review_files). This module parses and prints."""

from __future__ import annotations

import random
import sys

from crossridor.engine.cli.common import (
    UsageError,
    add_game_arguments,
    check_writable,
    engine_options,
    load_game_from_args,
    print_json,
    run_stoppable,
)
from crossridor.engine.files import open_for_writing
from crossridor.engine.protocol import CHANCE, Limits
from crossridor.engine.registry import algorithm_names

# Limits per search when none is given: a 9x9 Quoridor game (about 60 plies, up to two
# searches each) is reviewed in under a minute on one core (docs/analysis.md); the node
# cap bounds the deeper trees of four players.
DEFAULT_DEPTH = 12
DEFAULT_NODES = 1_000_000
DEFAULT_SIMS = 2000


class _Source:
    """What to review: the game, its start (a deal seed or a position), the
    moves, and where they come from."""

    def __init__(self, game, moves, position=None, deal_seed=None, result=None, origin=None):
        self.game, self.moves, self.position, self.deal_seed = game, moves, position, deal_seed
        self.result = result            # the result its file gives, if any
        self.origin = origin or {}      # file, game_index, record_index: for --json


def _file_kind(path: str) -> str:
    lower = path.lower()
    if lower.endswith((".jsonl", ".json")):
        return "records"
    if lower.endswith(".pgn"):
        return "pgn"
    from crossridor.engine.files import MAX_GAMES_FILE_BYTES, read_regular_file
    head = read_regular_file(path, "game file", MAX_GAMES_FILE_BYTES, UsageError).lstrip()[:1]
    if head == b"{":
        return "records"
    if head == b"[":
        return "pgn"
    raise UsageError(f"{path!r}: neither a records file (JSON lines, .jsonl) nor a PGN file (.pgn)")


def _from_file(args) -> _Source:
    from crossridor.engine.match.game_loop import resolve_game
    from crossridor.engine.options import refuse_file_options
    from crossridor.engine.registry import game_key

    if args.moves or args.position or args.size or args.players or args.walls or args.option:
        raise UsageError("a game file gives the moves and the game options: give no --moves, --position "
                         "or game options with it")
    kind = _file_kind(args.file)
    games: list
    if kind == "records":
        from crossridor.engine.match.records import read_records
        games = read_records(args.file)
    else:
        from crossridor.engine.match.pgn import read_file
        games = read_file(args.file)
    if not games:
        raise UsageError(f"{args.file}: no game in the file")
    k = args.game_index
    if not 1 <= k <= len(games):
        raise UsageError(f"--game-index must be 1..{len(games)} (games in {args.file}), got {k}")
    record = games[k - 1]
    where = f"{args.file}: game {k}"
    if kind == "records":
        name, params, deal_seed, index = record.game, record.params, record.deal_seed, record.index
        refuse_file_options(params, where)
    else:
        name, deal_seed, index = record.tags.get("Game", ""), record.deal_seed, record.tags.get("Index")
        refuse_file_options(record.option_texts, where)
        params = record.params
    if not name or game_key(name) != game_key(args.game):
        raise UsageError(f"{where} is {name or 'of no game'!r}, not {args.game!r}")
    game = resolve_game(name, params, where)
    origin = {"file": args.file, "game_index": k, "record_index": index}
    return _Source(game, list(record.moves), deal_seed=deal_seed, result=record.result, origin=origin)


def _from_args(args) -> _Source:
    game = load_game_from_args(args)
    moves = args.moves.split()
    if args.position:
        return _Source(game, moves, position=args.position)
    if not (game.traits.chance or game.traits.hidden_information):
        return _Source(game, moves)
    seed = args.seed
    if seed is None:
        # a random deal: say which, so that it can be reviewed again
        seed = random.SystemRandom().randrange(2 ** 32)
        sys.stderr.write(f"crossridor: note: deal seed {seed} (--seed {seed} deals it again)\n")
    return _Source(game, moves, deal_seed=seed)


def _limits(args, algorithm: str | None) -> Limits:
    fields = {k: getattr(args, k) for k in ("time", "depth", "nodes", "sims") if getattr(args, k) is not None}
    if not fields:
        # a tree search reads depth as its tree's depth: give it simulations only
        fields = {"sims": DEFAULT_SIMS} if algorithm is not None and "mcts" in algorithm else \
            {"depth": DEFAULT_DEPTH, "nodes": DEFAULT_NODES}
    try:
        return Limits(**fields)
    except ValueError as exc:
        raise UsageError(str(exc).replace("limits: ", "--")) from None


def _first_decision(source: _Source):
    """The first position of the review where someone chooses (the options
    are read against its algorithm), or None if every ply is a deal."""
    from crossridor.engine.analysis import start_state
    state = start_state(source.game, source.position, source.deal_seed)
    for text in source.moves:
        if state.is_terminal():
            return None
        if state.current_player != CHANCE:
            return state
        state.play(text)
    return None


def _bar(args, total: int):
    if args.quiet or args.json or not sys.stderr.isatty():
        return None
    from tqdm import tqdm
    return tqdm(total=total, desc="analyse", unit="ply", file=sys.stderr, dynamic_ncols=True)


def cmd_analyse(args) -> int:
    from crossridor.engine.analysis import review
    from crossridor.engine.search_api import default_algorithm, search_options

    if args.concurrency < 1:
        raise UsageError(f"--concurrency must be >= 1, got {args.concurrency}")
    if args.game_index < 1:
        raise UsageError(f"--game-index must be >= 1, got {args.game_index}")
    if args.file is None and not args.moves:
        raise UsageError("give a game file (a match's --records .jsonl or --pgn file) or --moves")
    if args.file is None and args.game_index != 1:
        raise UsageError("--game-index needs a game file")
    for path, option in ((args.pgn_out, "--pgn-out"), (args.svg, "--svg")):
        if path:
            check_writable(path, option)
    source = _from_file(args) if args.file is not None else _from_args(args)
    first = _first_decision(source)
    algorithm = args.algorithm
    options: dict = {}
    if first is not None:
        name = algorithm or default_algorithm(first)
        declared = search_options(first, name)
        options = engine_options(args.engine_option, declared, f"{source.game.traits.name} {name}")
    elif args.engine_option:
        raise UsageError("-e: the moves hold no decision to search")
    limits = _limits(args, algorithm or (default_algorithm(first) if first is not None else None))
    bar = _bar(args, len(source.moves))

    def progress(ply):
        if bar is not None:
            bar.update(1)

    try:
        rev, interrupted = run_stoppable(
            lambda: review(source.game, source.moves, algorithm=algorithm, limits=limits, seed=args.seed,
                           options=options, concurrency=args.concurrency, position=source.position,
                           deal_seed=source.deal_seed, progress=progress))
    finally:
        if bar is not None:
            bar.close()
    interrupted = interrupted or rev.interrupted
    _write_files(args, rev, source)
    if args.json:
        out = rev.as_dict()
        out["source"] = source.origin or {"moves": "--moves"}
        print_json(out)
    else:
        _print_review(rev)
        if interrupted:
            print(f"interrupted: {len(rev.plies)} of {len(rev.moves)} plies reviewed")
    return 130 if interrupted else 0


def _write_files(args, rev, source: _Source) -> None:
    from crossridor.engine.review_files import review_pgn, review_svg
    for path, option, text in ((args.pgn_out, "--pgn-out", lambda: review_pgn(rev, source.result)),
                               (args.svg, "--svg", lambda: review_svg(rev))):
        if path:
            with open_for_writing(path, option, error=UsageError) as f:
                f.write(text())


def _print_review(rev) -> None:
    width = max([len("played")] + [len(p.played) for p in rev.plies] + [len(p.best or "") for p in rev.plies])
    print(f"{'ply':>4} {'seat':>4}  {'played':<{width}}  {'best':<{width}}  {'expected':<12}  {'loss':>5}  mark")
    for p in rev.plies:
        if p.seat is None:
            print(f"{p.ply:>4} {'-':>4}  {p.played:<{width}}  (chance)")
            continue
        swing = f"{p.expected_before:.2f} -> {p.expected_after:.2f}"
        print(f"{p.ply:>4} {p.seat:>4}  {p.played:<{width}}  {p.best:<{width}}  {swing:<12}  "
              f"{p.loss:5.3f}  {p.mark or ''}".rstrip())
    for s in rev.summary:
        counts = ", ".join(_counted(s.marks[name], name) for name in s.marks)
        mean = "-" if s.mean_loss is None else f"{s.mean_loss:.3f}"
        print(f"seat {s.seat}: {s.moves} moves, mean expected score lost {mean}, {counts}")


def _counted(count: int, name: str) -> str:
    if count == 1:
        return f"1 {name}"
    return f"{count} {name[:-1]}ies" if name.endswith("y") else f"{count} {name}s"


def add_parsers(sub) -> None:
    """Register `analyse` on the CLI's subparsers."""
    p = sub.add_parser(
        "analyse", help="review a played game ply by ply: best moves, expected score lost, marks",
        description="Review a game: every move searched again; the best move, the expected score before "
                    "and after the move played, the expected score lost, and a mark (inaccuracy, mistake, "
                    "blunder; docs/analysis.md). The game comes from a match's records (.jsonl) or PGN "
                    "file, or as --moves.")
    add_game_arguments(p)
    p.add_argument("file", nargs="?", default=None, metavar="FILE",
                   help="a records file (match --records, .jsonl) or a PGN file (match --pgn)")
    p.add_argument("--game-index", type=int, default=1, metavar="N",
                   help="with FILE: the N-th game in the file, from 1 (default 1)")
    p.add_argument("-a", "--algorithm", default=None, choices=algorithm_names(),
                   help="default: each position's, as best picks it (alphabeta, or ismcts for hidden information)")
    p.add_argument("-e", "--engine-option", action="append", default=[], metavar="KEY=VALUE",
                   help="an option of the algorithm on this game, e.g. -e hash=64 (repeatable)")
    p.add_argument("--time", type=float, help="seconds per search")
    p.add_argument("--depth", type=int, help=f"search depth in plies (without any limit: {DEFAULT_DEPTH}, "
                                             f"and at most {DEFAULT_NODES} nodes)")
    p.add_argument("--nodes", type=int, help="node budget per search")
    p.add_argument("--sims", type=int, help=f"MCTS simulations per search (default {DEFAULT_SIMS} without any limit)")
    p.add_argument("--concurrency", type=int, default=1, metavar="N",
                   help="positions reviewed at once, in worker processes (the same review; default 1)")
    p.add_argument("--json", action="store_true", help="one JSON object: game, settings, plies, summary")
    p.add_argument("--pgn-out", metavar="FILE", help="write the game annotated: NAGs and comments")
    p.add_argument("--svg", metavar="FILE", help="write the graph of the expected score over the game")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_analyse)
