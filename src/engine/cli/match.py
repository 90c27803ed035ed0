"""Subcommands `match` and `play` (argument parsing and printing only; the
work is in crossridor.engine.match.runner and crossridor.engine.cli.play)."""

from __future__ import annotations

import sys

from crossridor.engine.cli.common import (
    UsageError,
    add_game_arguments,
    game_params,
    print_json,
    run_stoppable,
    state_from_args,
)
from crossridor.engine.match.stats import SprtSpec
from crossridor.engine.plugins import typed_game
from crossridor.engine.views import player_index

DEFAULT_GAMES = 100


def _engine(text: str):
    from crossridor.engine.match.specs import EngineSpec
    return EngineSpec.parse(text)


# --- a Dask scheduler (match, selfplay, solve) ----------------------------------------

def add_scheduler_arguments(parser, help: str) -> None:
    """--scheduler and the TLS files that reach a tls:// one."""
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT", help=help)
    parser.add_argument("--tls-ca-file", metavar="CA.pem",
                        help="with --scheduler tls://HOST:PORT: the CA certificate that signed the cluster's "
                             "certificates")
    parser.add_argument("--tls-cert", metavar="CERT.pem",
                        help="with --scheduler tls://HOST:PORT: this client's certificate, signed by that CA")
    parser.add_argument("--tls-key", metavar="KEY.pem",
                        help="with --scheduler tls://HOST:PORT: the certificate's private key (default: in "
                             "the --tls-cert file)")


def scheduler_from_args(args):
    """The Scheduler of --scheduler and --tls-*, checked (files included)
    before any work; None without --scheduler."""
    tls = (args.tls_ca_file, args.tls_cert, args.tls_key)
    if not args.scheduler:
        for option, value in zip(("--tls-ca-file", "--tls-cert", "--tls-key"), tls):
            if value is not None:
                raise UsageError(f"{option} needs --scheduler tls://HOST:PORT")
        return None
    from crossridor.engine.cluster import Scheduler
    scheduler = Scheduler(args.scheduler, *tls)
    if scheduler.open_to_network:
        sys.stderr.write(f"crossridor: warning: {args.scheduler} is plain TCP: anyone who reaches that "
                         f"scheduler runs code on its workers and on this machine (a private network, or "
                         f"tls:// with certificates: docs/matches.md)\n")
    return scheduler


# --- match -------------------------------------------------------------------------

def cmd_match(args) -> int:
    from crossridor.engine.match.openings import read_openings
    from crossridor.engine.match.runner import Match, MatchConfig

    if len(args.engine) < 2:
        raise UsageError("match: give at least two --engine options (e.g. --engine alphabeta:depth=3 "
                         "--engine random)")
    if args.resume and not args.records:
        raise UsageError("--resume needs --records FILE")
    for name, value, low in (("--first-to", args.first_to, 1), ("--sum-of", args.sum_of, 1),
                             ("--games", args.games, 1), ("--concurrency", args.concurrency, 1),
                             ("--max-plies", args.max_plies, 0), ("--random-openings", args.random_openings, 0)):
        if value is not None and value < low:
            raise UsageError(f"{name} must be >= {low}, got {value}")
    if args.sum_of is not None and args.games is not None and args.games != args.sum_of:
        raise UsageError(f"--games {args.games} and --sum-of {args.sum_of} differ (--sum-of X plays X games; "
                         f"give one of them)")
    if args.sprt is not None and (args.first_to is not None or args.sum_of is not None):
        raise UsageError(f"--sprt and {'--first-to' if args.first_to is not None else '--sum-of'} "
                         f"exclude each other")
    if args.tournament is not None and len(args.engine) < 3:
        raise UsageError(f"--tournament needs three or more engines, got {len(args.engine)}")
    if args.tournament is not None and (args.sprt or args.first_to is not None or args.sum_of is not None):
        raise UsageError("--tournament excludes --sprt, --first-to and --sum-of")
    if (args.first_to is not None or args.sum_of is not None) and len(args.engine) != 2:
        raise UsageError(f"{'--first-to' if args.first_to is not None else '--sum-of'} needs two engines, "
                         f"got {len(args.engine)} engines")
    engines = [_engine(text) for text in args.engine]
    tc = None
    if args.tc is not None:
        from crossridor.engine.clocks import TimeControl
        tc = TimeControl.parse(args.tc)
    if args.time_margin is not None and not 0 <= args.time_margin < 1e7:
        raise UsageError(f"--time-margin must be a number of seconds >= 0, got {args.time_margin}")
    sprt = SprtSpec.parse(args.sprt) if args.sprt is not None else None
    scheduler = scheduler_from_args(args)
    openings = read_openings(args.openings) if args.openings else None
    config = MatchConfig(game=typed_game(args.game), params=game_params(args), engines=engines, games=args.games,
                         concurrency=args.concurrency, openings=openings,
                         random_openings=args.random_openings or 0, seed=args.seed,
                         max_plies=args.max_plies, sprt=sprt, records=args.records, resume=args.resume,
                         first_to=args.first_to, sum_of=args.sum_of, tournament=args.tournament,
                         pgn=args.pgn, tc=tc, ponder=args.ponder,
                         **({} if args.time_margin is None else {"time_margin": args.time_margin}))
    match = Match(config)
    executor = None
    if scheduler is not None:
        from crossridor.engine.cluster import ClusterExecutor
        executor = ClusterExecutor(scheduler)
    bar = None
    if not args.json and sys.stderr.isatty():
        from tqdm import tqdm
        bar = tqdm(total=match.total_games, initial=len(match.done), desc="match", unit="game",
                   file=sys.stderr, dynamic_ncols=True)

    def on_record(record, tally):
        if bar is not None:
            bar.update(1)
            if config.tournament is None:
                bar.set_postfix_str(f"W {tally.wins} D {tally.draws} L {tally.losses} "
                                    f"({100 * (tally.score or 0):.1f}%)", refresh=False)

    try:
        result, interrupted = run_stoppable(match.run, executor, on_record)
    finally:
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        if bar is not None:
            bar.close()
    out = result.summary()
    if args.json:
        print_json(out)
        if out["max_plies_draws"]:
            warning = max_plies_warning(out["max_plies_draws"], out["games"], out["max_plies"])
            sys.stderr.write(f"crossridor: {warning}\n")
    else:
        print_report(out, result)
    return 130 if interrupted else 0


def _elo_text(out: dict) -> str:
    if out["games"] == 0:
        return "n/a"
    elo = out["elo"]
    if elo is None:
        elo_s = "+inf" if out["score"] >= 0.5 else "-inf"
    else:
        elo_s = f"{elo:+.1f}"
    err = out["elo_error"]
    return f"{elo_s} +/- {'inf' if err is None else f'{err:.1f}'} (95%)"


def max_plies_warning(cut: int, games: int, cap) -> str:
    """The loud line for games ended by the ply cap (scored as draws)."""
    return (f"WARNING: {cut} of {games} games were cut off at {cap} plies and scored as draws: "
            f"the score is distorted; raise --max-plies (0: no cap)")


def _print_warnings(out: dict, n: int) -> None:
    if out["max_plies_draws"]:
        print(max_plies_warning(out["max_plies_draws"], n, out["max_plies"]))
    if "engine_failures" in out:
        lost = out["engine_failures"]
        print(f"{sum(lost.values())} games lost by an engine's failure ("
              + ", ".join(f"{reason} {k}" for reason, k in lost.items()) + "): the records say which and why")


def _print_time_use(out: dict) -> None:
    for u in out.get("time_use", ()):
        if not u["moves"]:
            continue
        line = f"time engine {u['engine']}: {u['moves']} moves, {1000 * u['mean_seconds']:.1f} ms a move"
        if u["budget_used"] is not None:
            line += (f", {100 * u['budget_used']:.1f}% of its budget on average, largest overrun "
                     f"{1000 * u['max_overrun']:+.1f} ms")
        print(line)


def print_report(out: dict, result) -> None:
    engines = out["engines"]
    print(f"engine 1: {engines[0]}")
    for i, e in enumerate(engines[1:], 2):
        print(f"engine {i}: {e}")
    print(f"seed {out['seed']}")
    n = out["games"]
    if "tournament" in out:
        from crossridor.engine.match.tournament import cross_table_text
        per = result.config.games
        print(f"{out['tournament']}: {n} games ({per} per pairing)")
        for line in cross_table_text(out):
            print(line)
        _print_warnings(out, n)
        _print_time_use(out)
        if result.stopped:
            print(f"stopped early ({result.stopped}) after {n} games")
        return
    print(f"games {n}: W {out['wins']}  D {out['draws']}  L {out['losses']}"
          + (f"  ({out['max_plies_draws']} drawn by --max-plies)" if out["max_plies_draws"] else ""))
    _print_warnings(out, n)
    if "wins_by_engine" in out:
        print("wins by engine: " + "  ".join(f"{i}: {w}" for i, w in enumerate(out["wins_by_engine"], 1)))
    if n:
        print(f"score {100 * out['score']:.1f}%")
        print(f"elo {_elo_text(out)}")
        print(f"los {100 * out['los']:.1f}%")
    if "sprt" in out:
        s = out["sprt"]
        verdict = {"H0": "H0 accepted", "H1": "H1 accepted", "continue": "no decision yet"}[s["result"]]
        print(f"sprt ({result.config.sprt}): llr {s['llr']:.3f} in [{s['lower']:.3f}, {s['upper']:.3f}]: {verdict}")
    _print_time_use(out)
    if "points" in out:
        print("points: " + "  ".join(f"engine {i}: {p}" for i, p in enumerate(out["points"], 1)))
    if result.interrupted:
        print(f"interrupted after {n} game{'' if n == 1 else 's'}: the statistics cover those")
    if result.stopped:
        print(f"stopped early ({result.stopped}) after {n} game{'' if n == 1 else 's'}"
              + (f"; {result.uncounted} more finished and are in the records, not counted"
                 if result.uncounted else ""))
    if "first_to" in out:
        x, w = out["first_to"], out["match_winner"]
        if w:
            mine, theirs = (out["wins"], out["losses"]) if w == 1 else (out["losses"], out["wins"])
            print(f"match (first to {x} wins): engine {w} wins, {mine}-{theirs}")
        else:
            print(f"match (first to {x} wins): no winner after {n} game{'' if n == 1 else 's'}")
    if "sum_of" in out:
        w = out["match_winner"]
        print(f"match (sum of {out['sum_of']} games): "
              + (f"engine {w} wins on points" if w else "no winner, equal points"))


# --- play --------------------------------------------------------------------------

def cmd_play(args) -> int:
    from crossridor.engine.cli.play import PlaySession
    from crossridor.engine.match.game_loop import resolve_game

    engine = _engine(args.engine) if args.engine is not None else None
    game = resolve_game(typed_game(args.game), game_params(args))
    human = player_index(args.as_player, game.traits.num_players, "--as")
    state = state_from_args(game, args)
    return PlaySession(state, engine, human=human, seed=args.seed, ponder=not args.no_ponder).run()


# --- parsers -----------------------------------------------------------------------

def add_parsers(sub) -> None:
    """Register the `match` and `play` subcommands on the CLI's subparsers."""
    p = sub.add_parser(
        "match", help="play engines against each other; W/D/L, Elo, LOS, SPRT",
        description="Play engines against each other. SPEC is ALGORITHM[:key=value,...]; time, depth, "
                    "nodes and sims are limits, tc=BASE+INC a game clock, ponder=true thinking on the "
                    "opponent's time, other keys algorithm options (e.g. "
                    "alphabeta:depth=3, alphabeta:tc=10+0.1,threads=2, mcts:sims=2000,rollout=random, random). "
                    "Without a limit: alphabeta depth=2, mcts/ismcts sims=1000.")
    add_game_arguments(p, moves=False)
    p.add_argument("--engine", action="append", default=[], metavar="SPEC",
                   help="an engine (2, or one per seat; repeat the option)")
    p.add_argument("--games", type=int, default=None,
                   help=f"number of games (default {DEFAULT_GAMES}; a multiple of a round (2 for two engines, "
                        "4 for four) keeps seats balanced; with --first-to X the cap, default 10 X)")
    m = p.add_mutually_exclusive_group()
    m.add_argument("--first-to", type=int, default=None, metavar="X",
                   help="two engines play until one has X wins (draws count for nobody; counted in game "
                        "order, so independent of --concurrency); games capped by --games")
    m.add_argument("--sum-of", type=int, default=None, metavar="X",
                   help="two engines play X games; the higher total of points wins (games with points "
                        "only, e.g. crosswise)")
    p.add_argument("--tournament", choices=("round-robin", "gauntlet"), default=None,
                   help="three or more engines: every pair plays (round-robin) or engine 1 plays each "
                        "other (gauntlet), --games games per pairing; cross table and Elo for all")
    p.add_argument("--concurrency", type=int, default=None, metavar="K",
                   help="games played at once, in worker processes (default: the number of cores; "
                        "with --scheduler the cluster's worker threads)")
    add_scheduler_arguments(p, "play the games on a running Dask cluster (the cluster extra); "
                               "whoever reaches it runs code here: docs/matches.md")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--openings", metavar="FILE", help="one opening (move list) a line; # comments")
    g.add_argument("--random-openings", type=int, default=None, metavar="PLIES",
                   help="openings of PLIES seeded random legal moves")
    p.add_argument("--seed", type=int, default=None, help="match seed (default: random, printed)")
    p.add_argument("--max-plies", type=int, default=None, metavar="N",
                   help="a game still running after N plies is a draw (0: no cap; default: Quoridor "
                        "200 per player, none for the games that always end)")
    p.add_argument("--sprt", metavar="elo0=0,elo1=10,alpha=0.05,beta=0.05",
                   help="run a sequential test; stop when it decides")
    p.add_argument("--tc", metavar="BASE+INC",
                   help="a game clock for every engine without its own tc=: BASE seconds plus INC a move "
                        "(e.g. 60+0.5), or MOVES/BASE+INC (BASE again every MOVES moves); out of time "
                        "loses the game")
    p.add_argument("--time-margin", type=float, default=None, metavar="S",
                   help="seconds a move may run past its clock before it loses on time (default 0.05)")
    p.add_argument("--ponder", action="store_true",
                   help="every engine thinks on its opponent's time (one without ponder= in its spec; "
                        "an outside engine if it offers the UCI option Ponder); each pondering engine "
                        "wants a core of its own")
    p.add_argument("--records", metavar="FILE", help="append every finished game to FILE (JSON lines)")
    p.add_argument("--pgn", metavar="FILE", help="append every finished game to FILE as PGN-style text")
    p.add_argument("--resume", action="store_true", help="continue the match recorded in --records")
    p.add_argument("--json", action="store_true", help="print one JSON object; no progress bar")
    p.set_defaults(func=cmd_match)

    p = sub.add_parser("play", help="play against the engine in the terminal",
                       description="Play against the engine. At the prompt: a move, undo, hint, moves, "
                                   "board, help, quit (end of input quits).")
    add_game_arguments(p)
    p.add_argument("--engine", default=None, metavar="SPEC",
                   help="the engine (default: the algorithm `best` picks for each position, 1 s a move: "
                        "alphabeta, or ismcts for hidden information)")
    p.add_argument("--as", dest="as_player", type=int, default=1, metavar="N",
                   help="your seat: 1 moves first (default 1)")
    p.add_argument("--no-ponder", action="store_true",
                   help="the engine does not think while you do (by default it does, in a two-player game "
                        "with alpha-beta, on the move it expects)")
    p.set_defaults(func=cmd_play)
