"""Game records as PGN-style text (`crossridor match --pgn FILE`), and
reading them back (`crossridor show GAME --pgn FILE --game K --ply N`).

One game:

    [Event "crossridor match"]
    [Date "2026.11.30"]
    [Round "3"]
    [Players "alphabeta:depth=2 | random"]
    [Result "1-0"]
    [Game "quoridor"]
    [Options "size=5"]
    [TimeControl "depth 2 | -"]
    [Index "4"]
    [Seed "..."]
    [Termination "terminal"]
    [PlyCount "17"]

    1. c2 c4 2. c3 c3h ... 1-0

Players and TimeControl list the seats in order, separated by ` | `
(TimeControl: an engine's limits per move: `movetime 0.2s`, `depth 2`,
`nodes N`, `sims N`; `-` for none). A move is numbered once per turn of
all the players. Moves written with spaces (Crosswise's `move c4>d5`) are
written with `_` instead. Dealt games (chance or hidden information) carry `DealSeed`, and a
game lost by an outside engine carries `Failure`.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from crossridor.engine.appendfile import AppendFile
from crossridor.engine.errors import CrossridorError
from crossridor.engine.files import MAX_GAMES_FILE_BYTES, read_text_file
from crossridor.engine.options import convert_value, format_value
from crossridor.engine.plugins import is_plugin_name
from crossridor.engine.registry import game_aliases, game_names, read_params

SEPARATOR = " | "
_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_RESULT = re.compile(r"^(1/2-1/2|draw|\*|[01](-[01])+)$")
_NUMBER = re.compile(r"^\d+\.+$")
_NAG = re.compile(r"^\$\d+$")             # an annotation ($2: a mistake), not a move


def _quote(value) -> str:
    return str(value).replace("\\", "\\\\").replace('"', '\\"')


def _limits_text(spec) -> str:
    limits = spec.limits
    parts = []
    if getattr(spec, "tc", None) is not None:
        parts.append(f"clock {spec.tc}")
    if limits.time is not None:
        parts.append(f"movetime {limits.time:g}s")
    for name in ("depth", "nodes", "sims"):
        value = getattr(limits, name)
        if value is not None:
            parts.append(f"{name} {value}")
    return " ".join(parts) if spec.explicit_limits or spec.algorithm not in ("random", "greedy") else "-"


def options_text(params: dict) -> str:
    return " ".join(f"{k}={format_value(v)}" for k, v in sorted(params.items()))


def game_text(record, round_number: int, engines: list, event: str = "crossridor match",
              date: datetime.date | None = None, chance: bool = False) -> str:
    """The record as one PGN-style game (ending with a blank line)."""
    date = date or datetime.date.today()
    seat_specs = [engines[e] for e in record.seats]
    tags = [("Event", event), ("Date", date.strftime("%Y.%m.%d")), ("Round", round_number),
            ("Players", SEPARATOR.join(str(s) for s in seat_specs)), ("Result", record.result),
            ("Game", record.game), ("Options", options_text(record.params)),
            ("TimeControl", SEPARATOR.join(_limits_text(s) for s in seat_specs)),
            ("Index", record.index), ("Seed", record.seed)]
    if chance and record.deal_seed is not None:
        tags.append(("DealSeed", record.deal_seed))
    tags += [("Termination", record.reason), ("PlyCount", record.plies)]
    if record.failure:
        f = record.failure
        tags.append(("Failure", f"seat {f['seat']} {f['engine']}: {f['detail']}"))
    return tagged_text(tags, record.moves, len(record.seats), record.result)


def tagged_text(tags: list, moves: list, per: int, result: str, notes: list | None = None) -> str:
    """One PGN-style game from its tags ((name, value) pairs, in order), its
    moves in notation, the number of moves in a turn (`per`, the players)
    and its result. `notes[i]`, when given and not empty, follows move i:
    NAGs (`$2`) and `{comments}` (without braces inside)."""
    lines = [f'[{key} "{_quote(value)}"]' for key, value in tags]
    tokens = []
    for i, move in enumerate(moves):
        if i % per == 0:
            tokens.append(f"{i // per + 1}.")
        tokens.append(move.replace(" ", "_"))
        if notes and notes[i]:
            tokens.append(notes[i])
    tokens.append(result)
    lines.append("")
    line = ""
    for token in tokens:                       # wrap the movetext at 80 columns
        if line and len(line) + 1 + len(token) > 80:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return "\n".join(lines) + "\n\n"


class PgnFile(AppendFile):
    """Appends each finished game (like the records file)."""

    def __init__(self, path: str, engines: list, event: str = "crossridor match", chance: bool = False):
        super().__init__(path, "pgn file")
        self.chance = chance
        self.engines = engines
        self.event = event

    def append(self, record, round_number: int) -> None:
        self.write(game_text(record, round_number, self.engines, self.event, chance=self.chance))


@dataclass
class PgnGame:
    tags: dict
    moves: list               # in notation (spaces restored)
    result: str | None

    @property
    def option_texts(self) -> dict:
        """The game options of the Options tag, as text."""
        out = {}
        for part in self.tags.get("Options", "").split():
            key, eq, value = part.partition("=")
            if not eq:
                raise CrossridorError(f"pgn: Options tag {self.tags['Options']!r}: {part!r} is not key=value")
            out[key] = value
        return out

    @property
    def params(self) -> dict:
        """The game options of the Options tag: a registered game's read by
        their declared kinds (the registry), a plug-in's as numbers, booleans
        or text."""
        texts = self.option_texts
        name = self.tags.get("Game", "")
        if is_plugin_name(name) or name.lower() not in game_names() + list(game_aliases()):
            return {key: convert_value(value) for key, value in texts.items()}
        return read_params(name, texts, f"pgn: Options tag of {name}")

    @property
    def deal_seed(self) -> int | None:
        value = self.tags.get("DealSeed")
        return None if value is None else int(value)


def read_games(text: str, source: str = "pgn") -> list[PgnGame]:
    """Every game of a PGN-style text."""
    games: list = []
    tags: dict = {}
    movetext: list = []

    def flush():
        if tags or movetext:
            text_moves = re.sub(r"\{[^}]*\}", " ", " ".join(movetext)).split()
            result = None
            moves = []
            for token in text_moves:
                if _NUMBER.match(token) or _NAG.match(token):
                    continue
                if _RESULT.match(token):
                    result = token
                    continue
                moves.append(token.replace("_", " "))
            games.append(PgnGame(dict(tags), moves, result))
        tags.clear()
        movetext.clear()

    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("["):
            if movetext:
                flush()
            m = _TAG.match(stripped)
            if not m:
                raise CrossridorError(f"{source}, line {number}: not a tag: {stripped!r}")
            tags[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
        elif stripped:
            movetext.append(stripped)
    flush()
    return games


def read_file(path: str) -> list[PgnGame]:
    return read_games(read_text_file(path, "pgn file", MAX_GAMES_FILE_BYTES), path)
