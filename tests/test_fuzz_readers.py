"""Fuzzing every reader of data that names a game: records lines
(`GameRecord.from_dict`, `RecordsFile.load`, `POST /api/replay`), PGN texts
(`pgn.read_games` and what `show --pgn` does with a game) and openings
files (`parse_openings`, then the opening played on the match's game).

Half the inputs are real records (played here) with one field broken, often
by a `module:function` game name; the rest are broken at random (cut,
re-typed, nested, non-finite, lone surrogates, bytes flipped). After each
batch: no exception but the library's one-line errors (`ValueError`s), no
module imported that was not before (`canary_game` marks a file if it is),
and every line of a replayed file is either a game or an error.

Profiles as tests/test_fuzz.py: quick (default, 5,000 inputs, a few
seconds) and long, 100,000 inputs (about a minute on a 2-core machine; the
records go to /api/replay in batches of 500 lines):

    CROSSRIDOR_FUZZ=long nice python -m pytest -q -s tests/test_fuzz_readers.py

CROSSRIDOR_FUZZ_READERS=N runs N inputs, CROSSRIDOR_FUZZ_SEED=S other ones."""

from __future__ import annotations

import importlib
import json
import os
import random
import sys
import warnings

import pytest

import crossridor
from crossridor.engine.errors import CrossridorError
from crossridor.engine.match.game_loop import GameRecord, GameTask, new_game_state, play_game, resolve_game
from crossridor.engine.match.openings import parse_openings
from crossridor.engine.match.pgn import game_text, read_games
from crossridor.engine.match.records import RecordsFile
from crossridor.engine.match.specs import EngineSpec
from crossridor.engine.options import refuse_file_options

PROFILE = os.environ.get("CROSSRIDOR_FUZZ", "quick")
N = int(os.environ.get("CROSSRIDOR_FUZZ_READERS", 5_000 if PROFILE == "quick" else 100_000))
SEED = int(os.environ.get("CROSSRIDOR_FUZZ_SEED", 20261204))
BATCH = 500
KINDS = ("records", "pgn", "records", "openings", "records")     # the batches in turn: 60%, 20%, 20%

CODE_NAMES = ["os:system", "numpy:loadtxt", "canary_game:load", "builtins:exec", "subprocess:run",
              "crossridor.engine.plugins:PluginGame", "race_game:race", ":", "a:", ":b", "os.path:join",
              "importlib:import_module", "pickle:loads", "quoridor:x", "QUORIDOR", "kuq", "chess"]
NASTY = [None, True, False, 0, -1, 1.0, 1.5, 2 ** 63, -(2 ** 70), 10 ** 400, 1e308, "", "x" * 5000,
         "\ud800", "\x00", "é", [], {}, [[[[[]]]]], {"a": {"b": {}}}, ["e2", 3], {"size": 10 ** 9},
         {"deck_file": "/etc/passwd"}, {"eval_file": "/dev/zero"}, {"table": "/tmp"}, {"size": "9"},
         {"players": 4}, {"command": "touch /tmp/pwned"}, {"fname": "/etc/passwd"}, {1: 2}]
MOVES = ["e2", "e8", "e3h", "a1", "zz9", "", " ", "take:1", "flip", "stop", "x3,17", "\ud800"]
GAMES = [("quoridor", {"size": 5}), ("quoridor", {}), ("quoridor", {"size": 3, "walls": 1}),
         ("crosswise", {}), ("qwatrobat", {}), ("kreuzundquer", {})]


@pytest.fixture(scope="module")
def real_records():
    """A few finished games of every game, as records-file objects."""
    engines = (EngineSpec.parse("random"), EngineSpec.parse("random"))
    out = []
    for k, (name, params) in enumerate(GAMES):
        game = resolve_game(name, params)
        for i in range(3):
            task = GameTask(index=i, game=name, params=params, engines=engines, seats=(0, 1) if i % 2 else (1, 0),
                            seed=100 * k + i, deal_seed=(7 + i) if game.traits.chance or
                            game.traits.hidden_information else None, max_plies=24)
            record = play_game(task).as_dict()
            record.pop("think")                     # times vary run to run: the inputs must not
            out.append(dict(record, seconds=0.25))
    return out


def broken_value(rng: random.Random):
    r = rng.random()
    if r < 0.35:
        return rng.choice(CODE_NAMES)
    if r < 0.9:
        return rng.choice(NASTY)
    return [rng.choice(MOVES) for _ in range(rng.randrange(4))]


def broken_record(rng: random.Random, records: list) -> str:
    """A real record with one field broken (a third of them the game's name)."""
    rec = dict(rng.choice(records))
    field = "game" if rng.random() < 0.33 else rng.choice(sorted(rec) + ["extra"])
    rec[field] = broken_value(rng)
    if field == "game" and rng.random() < 0.5:
        rec["params"] = rng.choice(NASTY[21:])
    return json.dumps(rec)


def mangled_text(rng: random.Random, text: str) -> str:
    """Text broken at random: cut, bytes flipped, tokens swapped, nested."""
    r = rng.random()
    if r < 0.2:
        return text[:rng.randrange(len(text) + 1)]
    if r < 0.4:
        chars = list(text)
        for _ in range(rng.randrange(1, 6)):
            if chars:
                chars[rng.randrange(len(chars))] = chr(rng.choice([0, 34, 44, 58, 91, 93, 123, 125, 0xD800, 0x2028,
                                                                  rng.randrange(32, 0x3000)]))
        return "".join(chars)
    if r < 0.5:
        return text.replace("null", rng.choice(["NaN", "Infinity", "-1e999"]), 1)
    if r < 0.6:
        d = rng.choice([50, 5000, 100_000])
        return "[" * d + "]" * d
    if r < 0.7:
        return text.replace("0", "7" * rng.choice([30, 5000]), 1)
    if r < 0.8:
        return json.dumps(broken_value(rng))
    return text.replace('"quoridor"', json.dumps(rng.choice(CODE_NAMES)), 1)


def record_line(rng: random.Random, records: list) -> str:
    if rng.random() < 0.5:
        return broken_record(rng, records)
    return mangled_text(rng, json.dumps(rng.choice(records)))


def check_record(line: str) -> None:
    """What every reader does first with a line: JSON, then a record."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        return
    try:
        rec = GameRecord.from_dict(data)
    except ValueError:
        return
    try:
        refuse_file_options(rec.params, "record")
        resolve_game(rec.game, rec.params, "record")
    except CrossridorError:
        pass


def check_pgn(text: str) -> None:
    """`show --pgn`'s reading of one file: its games, their options, the
    registered game they name, their moves."""
    try:
        games = read_games(text, "fuzz.pgn")
        for game in games[:3]:
            params = game.params
            refuse_file_options(params, "pgn")
            state = new_game_state(crossridor.load_game(game.tags.get("Game", ""), **params),
                                   game.moves[:40], game.deal_seed)
            state.is_terminal()
    except (CrossridorError, ValueError, RecursionError, OverflowError):
        pass


def check_opening(text: str, game) -> None:
    try:
        for opening in parse_openings(text, "fuzz openings")[:5]:
            new_game_state(game, opening[:40])
    except (CrossridorError, ValueError):
        pass


class ImportWatch:
    """Every import_module call from `start()` on, and the modules that
    appeared since; `canary_game` marks a file if it is imported."""

    def __init__(self, tmp_path, monkeypatch):
        self.mark = tmp_path / "canary.txt"
        monkeypatch.setenv("CROSSRIDOR_CANARY", str(self.mark))
        self.names: list = []
        real = importlib.import_module

        def spy(name, package=None):
            self.names.append(name)
            return real(name, package)
        monkeypatch.setattr(importlib, "import_module", spy)
        self.before: set = set()

    def start(self) -> None:
        self.before = set(sys.modules)
        self.names.clear()

    def check(self) -> None:
        assert not self.mark.exists(), self.mark.read_text()
        new = set(sys.modules) - self.before
        assert not new, sorted(new)[:10]
        assert all(name.startswith("crossridor.") for name in self.names), sorted(set(self.names))


@pytest.fixture
def imports(tmp_path, monkeypatch):
    return ImportWatch(tmp_path, monkeypatch)


def test_readers_and_replay_fuzz(real_records, imports, tmp_path, capsys):
    pytest.importorskip("starlette", reason='the web app needs the web extra: pip install ".[web]"')
    pytest.importorskip("httpx", reason="Starlette's test client needs httpx (in the test extra)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from crossridor.engine.web.app import create_app

    rng = random.Random(SEED)
    pgns = [game_text(GameRecord.from_dict(r), 1, [EngineSpec.parse("random")] * 2) for r in real_records]
    opening_games = [resolve_game(name, params) for name, params in GAMES]
    counts = {"records": 0, "pgn": 0, "openings": 0}
    with TestClient(create_app(host="testserver")) as client:
        # warm-up: every honest record replays (and loads its game's modules before the check)
        reply = client.post("/api/replay", json={"records": "\n".join(json.dumps(r) for r in real_records)})
        assert reply.status_code == 200 and not reply.json()["errors"], reply.text[:500]
        assert len(reply.json()["games"]) == len(real_records)
        for name in CODE_NAMES:                         # the error paths' own imports, once
            check_record(json.dumps(dict(real_records[0], game=name)))
        imports.start()
        done = batch = 0
        while done < N:
            kind = KINDS[batch % len(KINDS)]
            batch += 1
            if kind == "records":                       # a records file: each reader, then /api/replay
                lines = [record_line(rng, real_records) for _ in range(min(BATCH, N - done))]
                for line in lines:
                    check_record(line)
                text = "\n".join(lines)
                body = json.dumps({"records": text}).encode("utf-8", "surrogatepass")
                reply = client.post("/api/replay", content=body, headers={"content-type": "application/json"})
                assert reply.status_code in (200, 400, 413, 503), (reply.status_code, reply.text[:300])
                data = reply.json()
                if reply.status_code == 200:
                    assert not any("internal error" in e for e in data["errors"]), data["errors"][:3]
                else:
                    assert "internal error" not in data["error"], data
                path = tmp_path / "games.jsonl"
                path.write_bytes(text.encode("utf-8", "surrogatepass") + b"\n")
                try:
                    RecordsFile(str(path)).load()
                except CrossridorError:
                    pass
                counts["records"] += len(lines)
                done += len(lines)
            elif kind == "pgn":
                for _ in range(min(BATCH, N - done)):
                    check_pgn(mangled_text(rng, rng.choice(pgns)).replace("quoridor", rng.choice(CODE_NAMES), 1)
                              if rng.random() < 0.3 else mangled_text(rng, rng.choice(pgns)))
                    counts["pgn"] += 1
                    done += 1
            else:
                for _ in range(min(BATCH, N - done)):
                    moves = " ".join(rng.choice(real_records)["moves"][:rng.randrange(8)])
                    text = mangled_text(rng, rng.choice([moves, moves + "\n# comment\n" + moves, "\n".join(MOVES)]))
                    check_opening(text, rng.choice(opening_games))
                    counts["openings"] += 1
                    done += 1
    assert done >= N and all(counts.values()), counts      # every reader had its share
    imports.check()
    with capsys.disabled():
        print(f"\nreaders fuzz: {done} inputs {counts}, no import, no traceback (seed {SEED})")
