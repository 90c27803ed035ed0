"""Subcommands `selfplay` and `train` (argument parsing and printing only;
the work is in crossridor.engine.match.selfplay, which runs the games, and
in crossridor.games.quoridor.training and .weights, which make the data and
fit the evaluation)."""

from __future__ import annotations

import csv
import sys

from crossridor.engine.cli.common import (
    UsageError,
    add_game_arguments,
    check_writable,
    game_params,
    run_stoppable,
)
from crossridor.engine.cli.match import add_scheduler_arguments, scheduler_from_args
from crossridor.engine.files import open_for_writing

DEFAULT_SELFPLAY_ENGINE = "alphabeta:depth=2"
DEFAULT_HIDDEN = 0


def _only_quoridor(args) -> None:
    if args.game.lower() != "quoridor":
        raise UsageError(f"{args.cmd} works for quoridor only (its learned evaluation), not {args.game!r}")


def _progress(total: int, desc: str, unit: str, initial: int = 0):
    """A tqdm bar on stderr when it is a terminal, else None."""
    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm
    return tqdm(total=total, initial=initial, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True)


def _perfect_table(path: str, game):
    """The solved table of --perfect-table, checked to hold the game's start
    (and so every position after it)."""
    from crossridor.games.quoridor.solve import Solver

    solver = Solver.read(path)
    if not solver.knows(game.new_state()):
        raise UsageError(f"--perfect-table {path!r} is a table of the board {solver.size} that does not hold "
                         f"this game's start ({game.size}, {game.walls} walls each)")
    return solver


def cmd_selfplay(args) -> int:
    import numpy as np

    from crossridor.engine.match.selfplay import selfplay_match
    from crossridor.engine.match.specs import EngineSpec
    from crossridor.games.quoridor.training import selfplay_arrays

    _only_quoridor(args)
    for name, value, low in (("--games", args.games, 1), ("--concurrency", args.concurrency, 1),
                             ("--random-openings", args.random_openings, 0), ("--max-plies", args.max_plies, 0)):
        if value is not None and value < low:
            raise UsageError(f"{name} must be >= {low}, got {value}")
    if not args.out.endswith(".npz"):
        raise UsageError(f"--out must name a .npz file, got {args.out!r}")
    if args.resume and not args.records:
        raise UsageError("--resume needs --records FILE")
    check_writable(args.out, "--out")
    scheduler = scheduler_from_args(args)
    match = selfplay_match(EngineSpec.parse(args.engine), args.games, game_params(args), args.concurrency,
                           args.seed, args.random_openings, args.max_plies, args.records, args.resume)
    perfect = _perfect_table(args.perfect_table, match.game) if args.perfect_table else None
    executor = None
    if scheduler is not None:
        from crossridor.engine.cluster import ClusterExecutor
        executor = ClusterExecutor(scheduler)
    bar = _progress(match.total_games, "selfplay", "game", initial=len(match.done))
    searched = {"positions": sum(len(r.scores) for r in match.done.values())}

    def on_record(record, tally):
        if bar is not None:
            searched["positions"] += len(record.scores)
            bar.update(1)
            bar.set_postfix_str(f"{searched['positions']} positions", refresh=False)

    try:
        result, interrupted = run_stoppable(match.run, executor, on_record)
    finally:
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        if bar is not None:
            bar.close()
    arrays = selfplay_arrays(match.game, str(match.engine), result.records, perfect)
    with open_for_writing(args.out, "--out", binary=True) as out:
        np.savez_compressed(out, **arrays)
    results = arrays["result"]
    cut = sum(r.reason == "max_plies" for r in result.records)
    print(f"{len(result.records)} games ({cut} cut at the ply cap), {len(results)} positions -> {args.out}")
    print(f"engine {arrays['engine']}, seed {match.seed}"
          + (f", results: perfect play from {args.perfect_table}" if perfect is not None else ""))
    if interrupted:
        more = (f"; --records {args.records} --resume continues the run" if args.records
                else "; add --records FILE to make a run resumable")
        print(f"interrupted: the first {len(result.records)} of {match.total_games} games{more}")
    return 130 if interrupted else 0


class _Curve:
    """The loss curve as CSV (phase, epoch, train_loss, validation_loss),
    a row written and flushed as each is printed, so a stopped run keeps it."""

    def __init__(self, path: str):
        self.file = open_for_writing(path, "--curve", newline="")
        self.writer = csv.writer(self.file)
        self.writer.writerow(["phase", "epoch", "train_loss", "validation_loss"])

    def add(self, phase, epoch, train_loss, val_loss) -> None:
        self.writer.writerow([phase, epoch, f"{train_loss:.6f}", "" if val_loss is None else f"{val_loss:.6f}"])
        self.file.flush()

    def close(self) -> None:
        self.file.close()


def cmd_train(args) -> int:
    from crossridor.games.quoridor import weights as quoridor_weights
    from crossridor.games.quoridor.training import FEATURE_NAMES, load_data, train

    _only_quoridor(args)
    for name, value, low in (("--epochs", args.epochs, 1), ("--hidden", args.hidden, 0), ("--passes", args.passes, 1)):
        if value < low:
            raise UsageError(f"{name} must be >= {low}, got {value}")
    check_writable(args.out, "--out")
    if args.curve is not None:
        check_writable(args.curve, "--curve")
    data = load_data(args.data)
    shown = {"phase": None, "bar": None}      # the progress bar of the phase running now
    curve = _Curve(args.curve) if args.curve is not None else None

    def on_epoch(phase, epoch, train_loss, val_loss):
        line = (f"{phase} {'epoch' if phase == 'linear' else 'pass'} {epoch}: train loss {train_loss:.4f}"
                + (f", validation loss {val_loss:.4f}" if val_loss is not None else ""))
        if shown["bar"] is not None:
            shown["bar"].write(line, file=sys.stdout)   # above the bar, not through it
        else:
            print(line, flush=True)
        if curve is not None:
            curve.add(phase, epoch, train_loss, val_loss)

    def progress(phase, epoch, total):
        if shown["phase"] != phase:
            if shown["bar"] is not None:
                shown["bar"].close()
            shown.update(phase=phase, bar=_progress(total, f"train {phase}",
                                                    "epoch" if phase == "linear" else "pass"))
        if shown["bar"] is not None:
            shown["bar"].update(1)

    try:
        report = train(data, epochs=args.epochs, lr=args.lr, lam=args.lam, validation=args.validation,
                       seed=args.seed, hidden=args.hidden, passes=args.passes, on_epoch=on_epoch,
                       progress=progress)
    finally:
        if shown["bar"] is not None:
            shown["bar"].close()
        if curve is not None:
            curve.close()
    print(f"{report.train_positions} training and {report.val_positions} validation positions")
    if report.val_loss is not None:
        line = f"validation loss {report.val_loss:.4f} (classic evaluation {report.val_loss_classic:.4f}"
        if report.val_loss_constant is not None:
            line += f", constant {report.val_loss_constant:.4f}"
        print(line + ")")
    else:
        print("no validation split (--validation 0 or a single game)")
    print("linear weights: " + ", ".join(f"{n} {w:+.4f}" for n, w in zip(FEATURE_NAMES, report.model.linear)))
    if report.model.hidden_units:
        print(f"and a hidden layer of {report.model.hidden_units} units")
    quoridor_weights.save(args.out, report.model, data["size"])
    print(f"-> {args.out}" + (f", loss curve -> {args.curve}" if args.curve is not None else ""))
    return 0


def add_parsers(sub) -> None:
    """Register the `selfplay` and `train` subcommands on the CLI's subparsers."""
    p = sub.add_parser(
        "selfplay", help="play an engine against itself; write positions, scores and results (.npz)",
        description="Play an engine against itself with the match runner (worker processes, or a Dask "
                    "cluster with --scheduler), each game from its own seeded random opening, and write "
                    "every searched position's features, search score and game result to a numpy .npz file "
                    "(arrays documented in docs/learning.md). The arrays depend only on the seed and the "
                    "options; --records FILE keeps every finished game, --resume continues a stopped run.")
    add_game_arguments(p, moves=False)
    p.add_argument("--games", type=int, required=True, help="number of games")
    p.add_argument("--out", required=True, metavar="FILE.npz", help="the data file to write")
    p.add_argument("--engine", default=DEFAULT_SELFPLAY_ENGINE, metavar="SPEC",
                   help=f"the engine playing both sides (default {DEFAULT_SELFPLAY_ENGINE})")
    p.add_argument("--concurrency", type=int, default=None, metavar="K",
                   help="games played at once, in worker processes (default: the number of cores; "
                        "with --scheduler the cluster's worker threads)")
    add_scheduler_arguments(p, "play the games on the workers of this Dask scheduler (the cluster extra); "
                               "the same records and data as a local run; whoever reaches it runs code here: "
                               "docs/matches.md")
    p.add_argument("--records", metavar="FILE",
                   help="append every finished game to FILE (JSON lines, as crossridor match writes)")
    p.add_argument("--resume", action="store_true",
                   help="continue the run recorded in --records (its seed; only the missing games are played)")
    p.add_argument("--seed", type=int, default=None,
                   help="seed of the run (default: random, printed; with --resume the records' seed)")
    p.add_argument("--random-openings", type=int, default=4, metavar="PLIES",
                   help="plies of seeded random moves opening each game (default 4)")
    p.add_argument("--max-plies", type=int, default=None, metavar="N",
                   help="a game still running after N plies is a draw (0: no cap; default 200 per player)")
    p.add_argument("--perfect-table", metavar="DIR",
                   help="a solved table of the board (crossridor solve --write-table DIR): each position's "
                        "result is its value with perfect play, not the game's")
    p.set_defaults(func=cmd_selfplay, cmd="selfplay")

    p = sub.add_parser(
        "train", help="fit the learned evaluation to selfplay data (numpy); write a weights file",
        description="Fit the logit of the side to move winning, a linear model over the features, by "
                    "gradient descent on the cross-entropy against LAMBDA * result + (1 - LAMBDA) * "
                    "sigmoid(score / 200), then optionally a hidden layer of ReLU units added to it. Whole games "
                    "are held out for validation.")
    p.add_argument("game", help="quoridor")
    p.add_argument("data", nargs="+", metavar="DATA.npz", help="files written by crossridor selfplay")
    p.add_argument("--out", required=True, metavar="WEIGHTS", help="the weights file to write")
    p.add_argument("--epochs", type=int, default=1000, help="full-batch steps (default 1000)")
    p.add_argument("--lr", type=float, default=0.05, help="Adam step size (default 0.05)")
    p.add_argument("--lambda", dest="lam", type=float, default=0.5,
                   help="weight of the game result against the search score in the target (default 0.5)")
    p.add_argument("--validation", type=float, default=0.1,
                   help="share of the games held out (default 0.1)")
    p.add_argument("--hidden", type=int, default=DEFAULT_HIDDEN, metavar="H",
                   help=f"ReLU units of a hidden layer added to the linear model (0: linear; default {DEFAULT_HIDDEN})")
    p.add_argument("--passes", type=int, default=20,
                   help="minibatch passes over the data fitting the hidden layer (default 20)")
    p.add_argument("--seed", type=int, default=0, help="seed of the validation split and the hidden "
                                                        "layer's start (default 0)")
    p.add_argument("--curve", metavar="FILE.csv",
                   help="also write the losses printed (phase, epoch, train and validation loss) as CSV")
    p.set_defaults(func=cmd_train, cmd="train")
