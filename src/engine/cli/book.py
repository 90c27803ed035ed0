"""Subcommand `book`: `book build` searches the positions of Quoridor's
opening book and writes the file, `book show` prints a book (argument
parsing and printing only; the work is in crossridor.games.quoridor.book)."""

from __future__ import annotations

import os
import sys

from crossridor.engine.cli.common import UsageError, print_json


def cmd_book_build(args) -> int:
    from crossridor.games.quoridor.book import build, write
    if not 0 <= args.plies <= 8:
        raise UsageError(f"--plies must be 0..8, got {args.plies}")
    if not 1 <= args.nodes <= 10 ** 10:
        raise UsageError(f"--nodes must be 1..10^10, got {args.nodes}")
    if not 0 <= args.hash <= 65536:
        raise UsageError(f"--hash must be 0..65536 MB, got {args.hash}")
    folder = os.path.dirname(os.path.abspath(args.out))
    if not os.path.isdir(folder) or os.path.isdir(args.out):
        raise UsageError(f"--out {args.out!r}: cannot write a file there")

    def on_entry(entry, done):
        if not args.json:
            print(f"{done:4d}  {entry.position}  {entry.move}  score {entry.score:+d}  depth {entry.depth}",
                  flush=True)

    entries = build(args.plies, args.nodes, args.hash, on_entry)
    write(args.out, entries)
    if args.json:
        print_json({"out": args.out, "entries": len(entries), "plies": args.plies, "nodes": args.nodes})
    else:
        print(f"wrote {len(entries)} positions to {args.out}")
    return 0


def cmd_book_show(args) -> int:
    from crossridor.games.quoridor.book import SHIPPED, book_for
    book = book_for(args.file)
    rows = sorted(book.values(), key=lambda e: (e.position.count(" "), e.position))
    if args.json:
        print_json({"file": args.file or SHIPPED,
                    "entries": [{"position": e.position, "move": e.move, "score": e.score, "depth": e.depth}
                                for e in rows]})
    else:
        for e in rows:
            print(f"{e.position}  {e.move}  score {e.score:+d}  depth {e.depth}")
        print(f"{len(rows)} positions in {args.file or 'the shipped book'}", file=sys.stderr)
    return 0


def add_parsers(sub) -> None:
    """Register `book build` and `book show` on the CLI's subparsers."""
    p = sub.add_parser("book", help="Quoridor's opening book: build one, or print one",
                       description="The opening book of 2-player 9x9 Quoridor (10 walls each): positions "
                                   "and the move a long search of the engine chose. Timed alpha-beta "
                                   "searches play its moves (best, uci, match); -e book=false switches it off.")
    books = p.add_subparsers(dest="book_cmd", metavar="{build,show}")
    books.required = True
    b = books.add_parser("build", help="search the book's positions and write the file",
                         description="From the start position, search each position to --nodes nodes "
                                     "(one thread, no book, seed 0: the same file on any machine); a "
                                     "position's children are the searched move and every pawn step, down "
                                     "to --plies plies.")
    b.add_argument("--out", required=True, metavar="FILE", help="the book file to write")
    b.add_argument("--plies", type=int, default=3, help="depth of the book's tree in plies (default 3)")
    b.add_argument("--nodes", type=int, default=2_000_000, help="nodes of search per position (default 2000000)")
    b.add_argument("--hash", type=int, default=64, metavar="MB", help="table size per search (default 64)")
    b.add_argument("--json", action="store_true", help="print one JSON object at the end")
    b.set_defaults(func=cmd_book_build)
    s = books.add_parser("show", help="print a book's positions and moves")
    s.add_argument("file", nargs="?", default=None, help="a book file (default: the shipped book)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_book_show)
