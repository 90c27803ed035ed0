"""`crossridor options GAME [ALGORITHM] [--json]`: a game's declared
parameters and the algorithms that can search it, or one algorithm's
options on that game, from the registry's declarations. `crossridor options
--markdown` writes every table as the documentation page docs/options.md
(`options_page`, which a test compares with the page)."""

from __future__ import annotations

import textwrap

from crossridor.engine.cli.common import UsageError, print_json
from crossridor.engine.options import Param, format_value
from crossridor.engine.registry import (
    algorithm_entry,
    algorithm_options,
    algorithms_for,
    check_searchable,
    game_aliases,
    game_entry,
    game_names,
)

GAME_PARAMS_HOW = ("Given as `-o NAME=VALUE` on the command line (`--size`, `--players` and `--walls` "
                   "too), as keyword arguments of `crossridor.load_game`, in the web page's fields and as "
                   "keyword arguments of the environments.")
OPTIONS_HOW = ("Given as `-e NAME=VALUE` to `crossridor best`, in engine specs (`alphabeta:depth=3,hash=64`) "
               "and as keyword arguments of `crossridor.search`.")


def number_text(value) -> str:
    """A bound as people read it: 2^63 and 2^31-1 rather than their digits."""
    if isinstance(value, int) and value >= 2 ** 20:
        for k in range(20, 65):
            if value == 2 ** k:
                return f"2^{k}"
            if value == 2 ** k - 1:
                return f"2^{k}-1"
    return format_value(value)


def values_text(p: Param) -> str:
    """The values a parameter takes, in words."""
    d = p.describe()
    kind = d["type"]
    if kind == "bool":
        text = "true or false"
    elif kind in ("int", "float"):
        text = f"{'integer' if kind == 'int' else 'number'} {number_text(d['min'])}..{number_text(d['max'])}"
    elif kind == "choice":
        names = [format_value(c) for c in d["choices"]]
        text = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
    elif kind == "board":
        (w0, w1), (h0, h1) = d["widths"], d["heights"]
        text = f"N or WxH, {w0}..{w1} columns, {h0}..{h1} rows"
    elif kind == "text":
        text = "text"
    elif kind == "moves":
        text = "a list of moves"
    else:
        return "a function or object (Python only)"
    if p.file:
        text += " (a file to read: command line and Python only)"
    elif p.python_only:
        text += " (Python only)"
    return text


def default_text(p: Param) -> str:
    if p.default is None or callable(p.default):
        return "-"
    if p.describe()["type"] == "bool":         # FLAG options hold 1 or 0
        return format_value(bool(p.default))
    return format_value(p.default)


def _table(params: tuple[Param, ...], indent: str = "  ") -> list[str]:
    rows = [(p.name, values_text(p), default_text(p), p.doc) for p in params]
    if not rows:
        return [f"{indent}(none)"]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    return [f"{indent}{r[0]:<{widths[0]}}  {r[1]:<{widths[1]}}  {r[2]:<{widths[2]}}  {r[3]}".rstrip()
            for r in rows]


def game_text(name: str) -> str:
    entry = game_entry(name)
    aliases = sorted(a for a, key in game_aliases().items() if key == entry.name)
    lines = [f"{entry.name}: {entry.doc}"]
    if aliases:
        lines.append(f"also named: {', '.join(aliases)}")
    lines.append("parameters (-o NAME=VALUE; -: none, or as the doc says):")
    lines += _table(entry.params)
    lines.append(f"algorithms: {', '.join(algorithms_for(entry.name))} "
                 f"(crossridor options {entry.name} ALGORITHM: its options)")
    return "\n".join(lines)


def algorithm_text(game: str, algorithm: str) -> str:
    entry = game_entry(game)
    check_searchable(entry.name, algorithm)
    own = " (the game's own search)" if algorithm in entry.options else ""
    lines = [f"{algorithm} on {entry.name}{own}: {algorithm_entry(algorithm).doc}",
             "options (-e NAME=VALUE; -: none, or as the doc says):"]
    lines += _table(algorithm_options(entry.name, algorithm))
    return "\n".join(lines)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _paragraph(text: str) -> list[str]:
    return textwrap.wrap(text, 100, break_on_hyphens=False) + [""]


def _markdown_table(params: tuple[Param, ...], what: str) -> list[str]:
    if not params:
        return ["None."]
    lines = [f"| {what} | values | default | what it does |", "|---|---|---|---|"]
    for p in params:
        cells = (f"`{p.name}`", values_text(p), default_text(p), p.doc)
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return lines


def options_page() -> str:
    """docs/options.md: every registered game's parameters, and the options
    of every algorithm that can search it, from the declarations."""
    lines = ["# Game parameters and search options", ""]
    lines += _paragraph("Every table on this page is generated from the declarations in the registry "
                        "(`crossridor options --markdown`), and a test checks that the page and the "
                        "declarations agree. `crossridor options GAME [ALGORITHM] [--json]` prints the same "
                        "for one game.")
    lines += _paragraph("**Game parameters.** " + GAME_PARAMS_HOW + " On the command line, in the web "
                        "page and in records every boolean may be written `true`/`false`, `yes`/`no`, "
                        "`on`/`off` or `1`/`0`; a bad value is refused in one line that names the "
                        "parameter and its values. The web page, records and PGN files refuse the "
                        "parameters that read a file.")
    lines += _paragraph("**Search options.** " + OPTIONS_HOW + " Options marked Python only are functions "
                        "or objects that only a Python call can pass. A default of `-` means that the "
                        "option is not set and the search decides (its line says how).")
    for name in game_names():
        entry = game_entry(name)
        aliases = sorted(a for a, key in game_aliases().items() if key == entry.name)
        lines += [f"## {entry.name}", ""] + _paragraph(_sentence(entry.doc))
        if aliases:
            lines += ["Also named " + ", ".join(f"`{a}`" for a in aliases) + ".", ""]
        lines += _markdown_table(entry.params, "parameter") + [""]
        for algorithm in algorithms_for(entry.name):
            own = " The game's own search, with options of its own." if algorithm in entry.options else ""
            lines += [f"### {entry.name}: {algorithm}", ""]
            lines += _paragraph(_sentence(algorithm_entry(algorithm).doc) + own)
            lines += _markdown_table(algorithm_options(entry.name, algorithm), "option") + [""]
    return "\n".join(lines).rstrip() + "\n"


def cmd_options(args) -> int:
    if args.markdown:
        if args.game is not None or args.json:
            raise UsageError("options --markdown writes every game's page: give no GAME and no --json")
        print(options_page(), end="")
        return 0
    if args.game is None:
        raise UsageError(f"options: give a GAME (one of {', '.join(game_names())})")
    if args.algorithm is None:
        params = game_entry(args.game).params
        if args.json:
            print_json([p.describe() for p in params])
        else:
            print(game_text(args.game))
        return 0
    if args.json:
        check_searchable(args.game, args.algorithm)
        print_json([p.describe() for p in algorithm_options(args.game, args.algorithm)])
    else:
        print(algorithm_text(args.game, args.algorithm))
    return 0


def add_parsers(sub) -> None:
    p = sub.add_parser("options", help="a game's parameters, or an algorithm's options on a game",
                       description="A game's parameters and the algorithms that can search it, or with "
                                   "ALGORITHM that algorithm's options on the game.")
    p.add_argument("game", nargs="?", metavar="GAME", help=f"one of {', '.join(game_names())}")
    p.add_argument("algorithm", nargs="?", metavar="ALGORITHM", help="an algorithm that can search GAME")
    p.add_argument("--json", action="store_true", help="the declarations as a JSON list")
    p.add_argument("--markdown", action="store_true",
                   help="every game's parameters and options as the page docs/options.md (no GAME)")
    p.set_defaults(func=cmd_options)
