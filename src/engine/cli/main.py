"""`crossridor`: the command-line tool. It parses arguments and prints;
the work is done by the library."""

from __future__ import annotations

import sys
import time

from crossridor.engine.cli import analyse as cli_analyse
from crossridor.engine.cli import learn as cli_learn
from crossridor.engine.cli import match as cli_match
from crossridor.engine.cli import options as cli_options
from crossridor.engine.cli import solve as cli_solve
from crossridor.engine.cli.common import (
    USER_ERRORS,
    ArgumentParser,
    UsageError,
    add_game_arguments,
    engine_options,
    fail,
    load_game_from_args,
    option_text,
    print_json,
    run_stoppable,
    state_from_args,
)
from crossridor.engine.cli.lines import format_score, info_lines, lines_table, moves_text
from crossridor.engine.extras import install_hint
from crossridor.engine.files import open_for_writing
from crossridor.engine.perft import perft
from crossridor.engine.protocol import Clock, Limits
from crossridor.engine.registry import algorithm_names, game_names
from crossridor.engine.search_api import default_algorithm, root_moves, search, search_options
from crossridor.engine.views import player_index, seat, seat_view


def cmd_legal(args) -> int:
    state = state_from_args(load_game_from_args(args), args)
    moves = [str(m) for m in state.legal_moves()]
    if args.json:
        print_json({"moves": moves, "to_move": seat(state.current_player)})
    else:
        print(" ".join(moves) if moves else "(no legal moves: the game is over)")
    return 0


def cmd_perft(args) -> int:
    if args.depth < 0:
        raise UsageError(f"--depth must be >= 0, got {args.depth}")
    if args.hash < 0:
        raise UsageError(f"--hash must be >= 0 MB, got {args.hash}")
    state = state_from_args(load_game_from_args(args), args)
    start = time.perf_counter()
    result, _ = run_stoppable(perft, state, args.depth, args.divide, args.hash)
    seconds = time.perf_counter() - start
    nodes = result if not args.divide else sum(n for _, n in result)
    nps = nodes / seconds if seconds > 0 else 0.0
    if args.json:
        out = {"depth": args.depth, "nodes": nodes, "seconds": round(seconds, 6), "nps": round(nps)}
        if args.divide:
            out["divide"] = {str(m): n for m, n in result}
        print_json(out)
    else:
        if args.divide:
            for move, n in result:
                print(f"{move}: {n}")
        print(f"perft {args.depth}: {nodes} nodes in {seconds:.3f} s ({nps / 1e6:.2f} M nodes/s)")
    return 0


def state_from_pgn(args):
    """The position of `show --pgn FILE --game K [--ply N]`."""
    from crossridor.engine.match.game_loop import new_game_state
    from crossridor.engine.match.pgn import read_file
    from crossridor.engine.registry import game_key
    if args.moves or args.position or args.size or args.players or args.walls or args.option:
        raise UsageError("--pgn takes the moves and the game options from the file: "
                         "give no --moves, --position or game options")
    games = read_file(args.pgn)
    if not games:
        raise UsageError(f"--pgn {args.pgn}: no game in the file")
    k = 1 if args.game_number is None else args.game_number
    if not 1 <= k <= len(games):
        raise UsageError(f"--game must be 1..{len(games)} (games in {args.pgn}), got {k}")
    record = games[k - 1]
    name = record.tags.get("Game", "")
    wanted = game_key(args.game)
    if name != wanted:
        raise UsageError(f"--pgn {args.pgn}: game {k} is {name or 'of no game'!r}, not {args.game!r}")
    ply = len(record.moves) if args.ply is None else args.ply
    if not 0 <= ply <= len(record.moves):
        raise UsageError(f"--ply must be 0..{len(record.moves)} (plies of game {k}), got {ply}")
    from crossridor.engine.options import refuse_file_options
    from crossridor.engine.registry import load_game
    refuse_file_options(record.option_texts, f"--pgn {args.pgn}: game {k}")
    return new_game_state(load_game(name, **record.params), record.moves[:ply], record.deal_seed)


def cmd_show(args) -> int:
    if args.pgn is not None:
        state = state_from_pgn(args)
    elif args.game_number is not None or args.ply is not None:
        raise UsageError("--game and --ply need --pgn FILE")
    else:
        state = state_from_args(load_game_from_args(args), args)
    viewer = None
    if args.viewer is not None:
        # a hidden-information game seen by one player: only what they may see
        if not state.game.traits.hidden_information:
            raise UsageError(f"--viewer: {args.game} has no hidden information to hide")
        viewer = player_index(args.viewer, state.game.traits.num_players, "--viewer")
        board = seat_view(state, viewer)
    else:
        board = str(state)
    if args.svg or args.png:
        write_pictures(state.to_svg(viewer=viewer), args.svg, args.png)
    if args.json:
        out = {"to_move": seat(state.current_player), "terminal": state.is_terminal(), "board": board}
        if state.is_terminal():
            from crossridor.engine.match.game_loop import winner_index
            returns = [float(r) for r in state.returns()]
            out.update(winner=seat(winner_index(returns)), returns=returns)
        if args.viewer is None:
            out["position"] = state.position()
        print_json(out)
    else:
        print(board)
        if args.viewer is None:
            print(f"position: {state.position()}")
    return 0


def write_pictures(svg: str, svg_path: str | None, png_path: str | None) -> None:
    """`show --svg FILE` / `--png FILE` (PNG needs the optional cairosvg)."""
    png = None
    if png_path:
        try:
            import cairosvg
        except ImportError:
            raise UsageError(f"--png needs cairosvg, {install_hint('png')}") from None
        png = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    for path, data, mode in ((svg_path, svg, "w"), (png_path, png, "wb")):
        if path:
            try:
                with open_for_writing(path, "picture", binary=mode == "wb", error=UsageError) as f:
                    f.write(data)
            except OSError as exc:
                raise UsageError(f"cannot write {path}: {exc.strerror}") from None


def limits_from_args(args, default_time: float = 1.0, state=None) -> Limits:
    fields = {k: getattr(args, k) for k in ("time", "depth", "nodes", "sims")
              if getattr(args, k) is not None}
    clock = clock_from_args(args, state) if state is not None else None
    if clock is not None:
        fields["clock"] = clock
    if not fields:
        fields = {"time": default_time}
    return Limits(**fields)


def clock_from_args(args, state) -> Clock | None:
    """`--wtime/--btime/--inc/--movestogo`: the clock of the player to move
    (players 1 and 3 take --wtime, players 2 and 4 --btime, as in UCI)."""
    wtime, btime = getattr(args, "wtime", None), getattr(args, "btime", None)
    if wtime is None and btime is None:
        for name in ("inc", "movestogo"):
            if getattr(args, name, None) is not None:
                raise UsageError(f"--{name} needs a clock: --wtime and/or --btime")
        return None
    mover = state.current_player
    name, left = ("--wtime", wtime) if mover % 2 == 0 else ("--btime", btime)
    if left is None:
        raise UsageError(f"{name}: player {seat(mover)} is to move and uses the {name} clock; give {name}")
    try:
        return Clock(left, args.inc if args.inc is not None else 0.0, args.movestogo)
    except ValueError as exc:
        raise UsageError(str(exc).replace("clock: time left", name).replace("clock: increment", "--inc")
                         .replace("clock: moves to go", "--movestogo")) from None


# options `best` takes as flags of its own, not as -e KEY=VALUE
OWN_FLAGS = {"threads": "the threads as --threads N", "multipv": "the lines as --multipv N",
             "searchmoves": "the root moves as --searchmoves MOVE [MOVE ...]"}


def cmd_best(args) -> int:
    state = state_from_args(load_game_from_args(args), args)
    if state.is_terminal():
        raise UsageError("the game is over: there is no move to search")
    algorithm = args.algorithm
    if algorithm is None:
        algorithm = default_algorithm(state)
    declared = search_options(state, algorithm)
    where = f"{state.game.traits.name} {algorithm}"
    for text in args.engine_option:
        key = option_text(text)[0]
        if key in OWN_FLAGS:
            raise UsageError(f"give {OWN_FLAGS[key]}, not -e {key}=...")
    options = engine_options(args.engine_option, declared, where)
    if args.threads != 1:
        if "threads" not in {p.name for p in declared}:
            raise UsageError(f"--threads: {where} searches with one thread")
        options["threads"] = args.threads
    if args.multipv is not None:
        options["multipv"] = declared_option(declared, "multipv", where).check(args.multipv, where, UsageError)
    if args.searchmoves is not None:
        declared_option(declared, "searchmoves", where)
        options["searchmoves"] = root_moves(state, args.searchmoves)
    if args.table:
        options["table"] = args.table
    multipv = options.get("multipv", 1)
    if args.verbose:
        def report(info):
            print("\n".join(info_lines(info, multipv)), flush=True)
        options["on_iteration"] = report
    limits = limits_from_args(args, state=state)
    result, interrupted = run_stoppable(
        lambda: search(state, algorithm=algorithm, limits=limits, seed=args.seed, **options))
    if args.json:
        # to_move: the seat the score is for
        print_json(dict(result.as_dict(), to_move=seat(state.current_player), interrupted=interrupted))
    else:
        print(f"bestmove {result.move}")
        seen = f"  {result.outlook.text()}" if result.outlook is not None else ""
        print(f"score {format_score(result.score)}{seen}  depth {result.depth}  nodes {result.nodes}  "
              f"nps {result.nps:.0f}  time {result.seconds:.3f}s")
        if multipv > 1:
            print("\n".join(lines_table(result.lines)))
        else:
            print(f"pv {moves_text(result.pv)}")
        if "source" in result.extra:
            print(f"source {result.extra['source']}: perfect play (winner {result.extra['winner'] or 'none'})")
        if interrupted:
            print("interrupted: the best move found before the stop")
    return 130 if interrupted else 0


def declared_option(declared, name: str, where: str):
    """The declared option `name` of a flag; UsageError as for `-e` when
    the algorithm has none."""
    for param in declared:
        if param.name == name:
            return param
    known = ", ".join(sorted(p.name for p in declared if not p.python_only)) or "none"
    raise UsageError(f"{where}: unknown option {name} (known: {known})")


def cmd_rules(args) -> int:
    from crossridor.engine.registry import rules_text
    text = rules_text(args.game)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def cmd_serve(args) -> int:
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0..65535, got {args.port}")
    if not (0 < args.max_time <= 3600):
        raise UsageError(f"--max-time must be in (0, 3600] seconds, got {args.max_time:g}")
    if not 1 <= args.max_tabs <= 10000:
        raise UsageError(f"--max-tabs must be 1..10000, got {args.max_tabs}")
    for flag, seconds in (("--header-timeout", args.header_timeout), ("--body-timeout", args.body_timeout)):
        if not (0 < seconds <= 3600):
            raise UsageError(f"{flag} must be in (0, 3600] seconds, got {seconds:g}")
    for origin in args.allow_origin:
        if not origin.startswith(("http://", "https://")) or origin.count("/") != 2:
            raise UsageError(f"--allow-origin takes an origin like https://example.org or "
                             f"http://host:8000, got {origin!r}")
    try:
        from crossridor.engine.web.app import serve
        from crossridor.engine.web.guard import ClientLimits
        from crossridor.engine.web.searching import Caps
    except ImportError as exc:
        raise UsageError(f"serve needs {install_hint('web')}: {exc}") from None
    def ready(port):
        print(f"crossridor: serving on http://{args.host}:{port}/ (Ctrl-C stops)", flush=True)
    try:
        serve(args.host, args.port, on_ready=ready, allow_origins=args.allow_origin,
              caps=Caps(time=args.max_time), max_tabs=args.max_tabs,
              limits=ClientLimits(header_timeout=args.header_timeout, body_timeout=args.body_timeout))
    except OSError as exc:
        raise UsageError(f"cannot serve on {args.host}:{args.port}: {exc.strerror or exc}") from None
    return 0


def cmd_bench(args) -> int:
    from crossridor.engine.cli.bench import run_bench
    return run_bench(args)


def cmd_uci(args) -> int:
    from crossridor.engine.uci.engine import run
    return run(load_game_from_args(args))


def add_limit_arguments(parser) -> None:
    parser.add_argument("--time", type=float, help="seconds to think (default 1)")
    parser.add_argument("--depth", type=int, help="search depth in plies")
    parser.add_argument("--nodes", type=int, help="node budget")
    parser.add_argument("--sims", type=int, help="MCTS simulations")


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="crossridor",
                            description="Game-AI engine for Quoridor, Crosswise, Qwatrobat and Kreuz & Quer.")
    from crossridor import __version__
    parser.add_argument("--version", action="version", version=f"crossridor {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=ArgumentParser)

    p = sub.add_parser("legal", help="list the legal moves of a position")
    add_game_arguments(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_legal)

    p = sub.add_parser("perft", help="count the leaves of the move tree to a depth")
    add_game_arguments(p)
    p.add_argument("--depth", type=int, required=True)
    p.add_argument("--divide", action="store_true", help="the count under each first move")
    p.add_argument("--hash", type=int, default=0, metavar="MB", help="cache subtree counts (MB)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("show", help="print the board of a position")
    add_game_arguments(p)
    p.add_argument("--viewer", type=int, metavar="N",
                   help="show only what player N sees (hidden-information games)")
    p.add_argument("--pgn", metavar="FILE", help="a position of a game in a PGN-style file (match --pgn)")
    p.add_argument("--game", dest="game_number", type=int, metavar="K", help="with --pgn: the K-th game (default 1)")
    p.add_argument("--ply", type=int, metavar="N", help="with --pgn: after N plies (default: the end)")

    p.add_argument("--svg", metavar="FILE", help="also write the picture as SVG")
    p.add_argument("--png", metavar="FILE", help="also write the picture as PNG (needs cairosvg)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("best", help="search the best move of a position")
    add_game_arguments(p)
    add_limit_arguments(p)
    p.add_argument("--algorithm", default=None, choices=algorithm_names(),
                   help="default: alphabeta, or ismcts for games with hidden information")
    p.add_argument("--threads", type=int, default=1,
                   help="Lazy SMP search threads (Quoridor alphabeta; default 1, deterministic)")
    p.add_argument("--wtime", type=float, metavar="S",
                   help="clock: seconds left for players 1 and 3 (the search allots itself a share)")
    p.add_argument("--btime", type=float, metavar="S", help="clock: seconds left for players 2 and 4")
    p.add_argument("--inc", type=float, metavar="S", help="clock: increment per move in seconds")
    p.add_argument("--movestogo", type=int, metavar="N",
                   help="clock: moves until the next time control (default: sudden death)")
    p.add_argument("-e", "--engine-option", action="append", default=[], metavar="KEY=VALUE",
                   help="an option of the algorithm on this game, read by its declared kind, "
                        "e.g. -e hash=64 or -e rollout=random (repeatable)")
    p.add_argument("--multipv", type=int, metavar="N",
                   help="the N best moves, each with its score, depth and line (the option multipv; default 1)")
    p.add_argument("--searchmoves", nargs="+", metavar="MOVE",
                   help="search only these moves (each one argument, as `legal` prints it; the option "
                        "searchmoves)")
    p.add_argument("--verbose", action="store_true", help="one line per finished depth (and per line)")
    p.add_argument("--table", metavar="DIR",
                   help="a solved Quoridor table (solve --write-table): its perfect move when the position is in it "
                        "(the option table=DIR of alphabeta, mcts and greedy, also in match engine specs)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_best)

    p = sub.add_parser("bench", help="search fixed positions; print nodes, speed and signatures")
    p.add_argument("--game", default=None, metavar="GAME",
                   help="only this game (quoridor, crosswise, qwatrobat); default: all")
    p.add_argument("--depth", type=int, default=None, help="override the Quoridor alpha-beta depths")
    p.add_argument("--sims", type=int, default=None,
                   help="simulations per position (Quoridor MCTS, Crosswise playouts, ISMCTS and PIMC)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("rules", help="print the rules of a game as this engine implements them")
    p.add_argument("game", metavar="GAME", help=f"one of {', '.join(game_names())}")
    p.set_defaults(func=cmd_rules)

    cli_options.add_parsers(sub)

    p = sub.add_parser("uci", help="run as a UCI-style engine on stdin/stdout",
                       description="A UCI-style text engine: uci, isready, ucinewgame, setoption, "
                                   "position startpos|pos STRING [moves ...], go, stop, quit.")
    add_game_arguments(p, moves=False, default_game="quoridor")
    p.set_defaults(func=cmd_uci)

    p = sub.add_parser("serve", help="a local web app: play, analyse and replay in a browser")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help="another origin whose pages may use the server, e.g. https://example.org "
                        "(repeatable; see SECURITY.md)")
    p.add_argument("--max-time", type=float, default=30.0, metavar="SECONDS",
                   help="longest search a page may ask for (default 30); depth, nodes, sims, threads, "
                        "hash and clocks are capped to match, a game review to 10 x this in all")
    p.add_argument("--max-tabs", type=int, default=32, metavar="N",
                   help="open WebSockets (browser tabs) at most (default 32)")
    p.add_argument("--header-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="a client's time for a request's headers, from the connection or the last answer "
                        "(default 10)")
    p.add_argument("--body-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="a client's time for a request's body, from its headers (default 10; then 408)")
    p.set_defaults(func=cmd_serve)

    cli_match.add_parsers(sub)
    cli_learn.add_parsers(sub)
    cli_solve.add_parsers(sub)
    cli_analyse.add_parsers(sub)
    return parser


def main(argv=None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except USER_ERRORS as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        sys.stderr.write("crossridor: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
