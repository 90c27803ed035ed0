"""`crossridor solve quoridor --sweep SPEC...`: many boards and wall counts
solved from their start in one run (games/quoridor/sweep.py), resumable
from a results file; the outcomes printed as the published table, then a
row per entry. This module parses and prints."""

from __future__ import annotations

import sys

from crossridor.engine.cli.common import UsageError, print_json, run_stoppable
from crossridor.engine.stop import Interrupted


def cmd_sweep(args, scheduler) -> int:
    from crossridor.games.quoridor import sweep
    for option, given in (("--size", args.size is not None), ("--players", args.players is not None),
                          ("--walls", args.walls is not None), ("-o", bool(args.option)), ("--moves", bool(args.moves)),
                          ("--position", args.position is not None), ("--table", args.table is not None),
                          ("--count", args.count)):
        if given:
            raise UsageError(f"--sweep solves each entry from the start of its board: give no {option}")
    options = sweep.SweepOptions(threads=args.threads, memory_gb=args.memory, scheduler=scheduler,
                                 tables=args.write_table, verify=args.verify, games=args.games, seed=args.seed or 0)
    run = sweep.Sweep(sweep.entries(args.sweep), options, args.results)
    if run.torn:
        _say(f"note: the last line of {args.results} was cut short (a sweep stopped while writing it): "
             f"it is left out and cut from the file")
    bar = None
    if not args.json and sys.stderr.isatty():
        from tqdm import tqdm
        bar = tqdm(total=len(run.entries), initial=len(run.entries) - run.pending(), desc="sweep", unit="entry",
                   file=sys.stderr, dynamic_ncols=True)

    def progress(line: str) -> None:
        if bar is not None:
            bar.write(f"crossridor: {line}", file=sys.stderr)
        else:
            _say(line)

    def on_entry(record: dict) -> None:
        if bar is not None:
            bar.update(1)
        else:               # no bar (not a terminal): a line per entry, for a log
            _say(f"{record['board']}:{record['walls']}: {_summary(record)}")

    def on_start(entry) -> None:
        if bar is not None:
            bar.set_postfix_str(str(entry))

    try:
        records, _ = run_stoppable(run.run, progress if args.progress else None, on_entry, None, on_start)
    except Interrupted:
        if args.results:
            _say(f"the entries finished so far are in {args.results} (the same command goes on from them)")
        raise
    finally:
        if bar is not None:
            bar.close()
    columns, rows = sweep.grid(records)
    comparison = sweep.compare(records)
    if args.json:
        print_json({"columns": columns, "table": rows, "published": comparison.to_json(), "entries": records})
    else:
        print_table(columns, rows)
        print()
        if comparison.compared or comparison.opened:      # not for boards the table leaves out
            print(agreement(comparison))
            print()
        print_entries(records)
    return 1 if any(not r.get("verify", {"ok": True})["ok"] for r in records) else 0


def _say(line: str) -> None:
    sys.stderr.write(f"crossridor: {line}\n")
    sys.stderr.flush()


def _board(text: str) -> str:
    return text.replace("x", "×")


def print_table(columns: list[int], rows: dict[str, list[str]]) -> None:
    """The outcomes in the published table's layout: a row per board, a
    column per wall count."""
    print("| board | " + " | ".join(map(str, columns)) + " |")
    print("|---" * (len(columns) + 1) + "|")
    for board, cells in rows.items():
        print(f"| {_board(board)} | " + " | ".join(cells) + " |")
    print()
    print("Columns: walls per player. 1: the first player wins, 2: the second, D: a draw, ?: not solved; "
          "a value marked ! differs from the published table, one marked * is open in it.")


def agreement(comparison) -> str:
    """One paragraph: how the outcomes compare with the published table."""
    text = f"Published table: {comparison.agree} of {comparison.known} known entries agree"
    missing = comparison.known - len(comparison.compared)
    text += f" ({missing} not solved here)." if missing else "."
    if comparison.differ:
        text += " Differ: " + ", ".join(f"{_board(e.board)} with {e.walls} walls (here {here}, published "
                                        f"{published})" for e, here, published in comparison.differ) + "."
    if comparison.opened:
        text += " Open there, solved here: " + ", ".join(f"{_board(e.board)} with {e.walls} walls: {here}"
                                                         for e, here in comparison.opened) + "."
    return text


def print_entries(records: list[dict]) -> None:
    print("| board | walls | winner | plies | winning first moves | positions | seconds | memory | verify |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in records:
        board = _board(r["board"])
        if "skipped" in r:
            why = r["skipped"] if r["cause"] == "not tried" else f"skipped: {r['skipped']}"
            print(f"| {board} | {r['walls']} | {why} | | | | | | |")
            continue
        print(f"| {board} | {r['walls']} | {_winner(r)} | {'—' if r['plies'] is None else r['plies']} | "
              f"{_moves(r)} | {r['nodes']:,} | {r['seconds']:.2f} | {r['memory'] / 1e6:,.1f} MB | {_verdict(r)} |")


def _winner(r: dict) -> str:
    return "draw" if r["winner"] is None else f"player {r['winner']}"


def _moves(r: dict) -> str:
    moves = " ".join(r["moves"])
    if r["winner"] is None:
        return f"none (drawing moves: {moves})"
    return moves if r["winner"] == r["to_move"] else f"none (slowest losses: {moves})"


def _verdict(r: dict) -> str:
    check = r.get("verify")
    if check is None:
        return "—"
    if not check["ok"]:
        return f"FAILED: {check['failure']}"
    what = f"{check['positions']:,} positions" if check["mode"] == "exhaustive" else f"{check['games']} games"
    return f"ok ({what}, {r['verify_seconds']:.1f} s)"


def _summary(r: dict) -> str:
    """A finished entry in a few words (the line per entry on stderr)."""
    if "skipped" in r:
        return r["skipped"] if r["cause"] == "not tried" else f"skipped: {r['skipped']}"
    value = "a draw" if r["winner"] is None else f"player {r['winner']} wins in {r['plies']} plies"
    check = "" if "verify" not in r else f", verify {_verdict(r)}"
    return f"{value} ({r['nodes']:,} positions, {r['seconds']:.1f} s, {r['memory'] / 1e6:,.1f} MB{check})"
