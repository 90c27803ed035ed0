"""Argument helpers shared by every subcommand: game options, move lists,
and the one-line error exit (status 2, no traceback)."""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import threading

from crossridor.engine import stop
from crossridor.engine.errors import CrossridorError
from crossridor.engine.options import Param, convert_value
from crossridor.engine.plugins import is_plugin_name
from crossridor.engine.registry import game_names, load_game, read_params


class UsageError(Exception):
    """Bad command-line input: printed as one line, exit status 2."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse that raises UsageError instead of printing usage and exiting,
    so every bad input leaves by the same one-line path."""

    def error(self, message):
        # fail() adds "crossridor: error: "; a subcommand names itself
        command = self.prog.partition(" ")[2]
        raise UsageError(f"{command}: {message}" if command else message)


def parse_option(text: str) -> tuple[str, object]:
    """`key=value` -> (key, value) with ints, floats and booleans converted."""
    key, raw = option_text(text)
    return key, convert_value(raw)


def engine_options(texts, params: tuple[Param, ...], where: str) -> dict:
    """`-e key=value` texts, each read by its declared option (`Param.parse`:
    by the option's kind, checked); UsageError names an unknown or bad one."""
    declared = {p.name: p for p in params}
    options: dict = {}
    for text in texts:
        key, raw = option_text(text)
        if key not in declared:
            known = ", ".join(sorted(p.name for p in params if not p.python_only)) or "none"
            raise UsageError(f"{where}: unknown option {key} (known: {known})")
        options[key] = declared[key].parse(raw, where, UsageError)
    return options


def add_game_arguments(parser: argparse.ArgumentParser, moves: bool = True,
                       default_game: str | None = None) -> None:
    """The game name and its options, common to legal/perft/show/best/play/match/uci."""
    games = ", ".join(game_names())
    if default_game is None:
        parser.add_argument("game", help=f"one of {games}")
    else:
        parser.add_argument("game", nargs="?", default=default_game, help=f"one of {games} (default {default_game})")
    parser.add_argument("--size", help="the board (Quoridor: N for N x N, or WxH like 4x7)")
    parser.add_argument("--players", type=int, help="number of players")
    parser.add_argument("--walls", type=int, help="walls per player (Quoridor)")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                        help="any other game parameter, e.g. -o open=true (repeatable; "
                             "crossridor options GAME lists them)")
    if moves:
        parser.add_argument("--moves", default="", help='moves from the start, e.g. "e2 e8 e3h"')
        parser.add_argument("--position", help="a position string (instead of --moves)")
        parser.add_argument("--seed", type=int, default=None, help="seed for deals and random choices")


def option_text(text: str) -> tuple[str, str]:
    """`key=value` -> (key, value), the value as text."""
    if "=" not in text:
        raise UsageError(f"option {text!r} is not of the form key=value")
    key, _, raw = text.partition("=")
    key = key.strip()
    if not key:
        raise UsageError(f"option {text!r} has no key")
    return key, raw.strip()


def game_params(args) -> dict:
    """The game parameters of --size, --players, --walls and -o key=value:
    a registered game's read by their declared kinds (the registry), a
    plug-in's (`module:function`) as numbers, booleans or text."""
    params: dict = {}
    for name in ("size", "players", "walls"):
        value = getattr(args, name, None)
        if value is not None:
            params[name] = value
    for text in getattr(args, "option", []) or []:
        key, value = option_text(text)
        if key in params:
            given = f"--{key}" if key in ("size", "players", "walls") and getattr(args, key, None) is not None \
                else f"-o {key}"
            raise UsageError(f"game option {key} is given twice ({given} and -o {text})")
        params[key] = value
    if is_plugin_name(args.game):
        return {key: convert_value(value) if isinstance(value, str) else value for key, value in params.items()}
    return read_params(args.game, params)


def load_game_from_args(args):
    return load_game(args.game, **game_params(args))


def state_from_args(game, args):
    """The position the user asked for: --position, else --moves from the start."""
    if getattr(args, "position", None):
        if args.moves:
            raise UsageError("give --moves or --position, not both")
        return game.state_from_position(args.position)
    seed = getattr(args, "seed", None)
    if seed is None and (game.traits.chance or game.traits.hidden_information):
        # a random deal: say which, so that it can be played again
        seed = random.SystemRandom().randrange(2 ** 32)
        sys.stderr.write(f"crossridor: note: deal seed {seed} (--seed {seed} deals it again)\n")
    if seed is not None:
        return game.new_state(args.moves or None, seed=seed)
    return game.new_state(args.moves or None)


def check_writable(path: str, option: str) -> None:
    """Refuse an output path whose folder does not exist before the work, not after it."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise UsageError(f"{option} {path!r}: cannot write in {folder!r}")
    if os.path.isdir(path):
        raise UsageError(f"{option} {path!r} is a folder")
    if os.path.exists(path) and not os.path.isfile(path):
        raise UsageError(f"{option} {path!r} is not a regular file")


def print_json(obj) -> None:
    json.dump(obj, sys.stdout)
    sys.stdout.write("\n")


def fail(message: str) -> int:
    """Print one line on stderr and return exit status 2."""
    sys.stderr.write(f"crossridor: error: {message}\n")
    return 2


USER_ERRORS = (UsageError, CrossridorError, ValueError)


def run_stoppable(fn, *args):
    """Run fn(*args) in a worker thread while this (main) thread waits, so
    that SIGINT/SIGTERM are handled at once even while the worker is in a C
    loop: the handler stops every search (engine.stop.interrupt), and the
    work returns what it has. Returns (fn's value, whether interrupted);
    fn's exception is raised here."""
    box: dict = {}

    def target():
        try:
            box["value"] = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the main thread
            box["error"] = exc

    def on_signal(signum, frame):
        stop.interrupt()

    worker = threading.Thread(target=target, name="crossridor-work", daemon=True)
    main = threading.current_thread() is threading.main_thread()
    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)} if main else {}
    try:
        worker.start()
        # Wait in short joins: the kernel may hand SIGINT to the worker thread
        # (busy in C), and a long join would then sleep on, the handler never
        # run (seen: 2 runs in 25 of `best --depth 40` hung after Ctrl-C).
        while worker.is_alive():
            worker.join(0.05)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if "error" in box:
        raise box["error"]
    return box.get("value"), stop.interrupted()
