"""Fuzzing the web API (`crossridor serve`) through the real ASGI app, with
Starlette's test client: random and mutated HTTP bodies for every POST route
and random WebSocket messages (wrong types, huge and non-finite numbers,
deep nesting, file options, chance variants, engine specs beyond the caps).

After every input: HTTP answers are 200 or a JSON error (400, 403, 413 or
503), never a 500; a WebSocket answers every bad message with an error
message, never "internal error", and stays open (a sentinel message after
each input must still get its state).

Profiles as tests/test_fuzz.py: quick (default, a few hundred inputs) and

    CROSSRIDOR_FUZZ=long nice python -m pytest -q -s tests/test_fuzz_web.py

(CROSSRIDOR_FUZZ_WEB inputs, default 100,000; CROSSRIDOR_FUZZ_SEED=N other
inputs; the count is printed with -s.)
"""

from __future__ import annotations

import functools
import json
import os
import random
import warnings

import pytest

pytest.importorskip("starlette", reason='the web app needs the web extra: pip install ".[web]"')
pytest.importorskip("httpx", reason="Starlette's test client needs httpx (in the test extra)")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

import crossridor  # noqa: E402
from crossridor.engine.web.app import create_app  # noqa: E402
from crossridor.engine.web.searching import Caps  # noqa: E402

PROFILE = os.environ.get("CROSSRIDOR_FUZZ", "quick")
N = 300 if PROFILE == "quick" else int(os.environ.get("CROSSRIDOR_FUZZ_WEB", 100_000))
SEED = int(os.environ.get("CROSSRIDOR_FUZZ_SEED", 20261201))

GAMES = ["quoridor", "crosswise", "qwatrobat", "kreuzundquer", "kuq", "chess", "", 7, None]
OPTION_KEYS = ["size", "players", "walls", "max_plies", "open", "cards", "races", "deck_seed", "deck_file",
               "deck_text", "chance", "eval_file", "first", "clear_four", "x" * 300]
MOVES = ["e2", "e8", "e3h", "d4v", "a1", "flip", "keep", "take:1", "x3,17", "stop", "pass", "", "zz9"]
ENGINES = ["alphabeta:depth=1", "alphabeta:time=0.01", "mcts:sims=20", "ismcts:time=0.01", "greedy", "random",
           "alphabeta:depth=2147483647", "alphabeta:tc=9999999+0", "alphabeta:threads=256,time=0.01",
           "alphabeta:hash=65536,depth=1", "alphabeta:eval_file=/dev/zero,eval=learned,depth=1", "uci:/bin/sh",
           "mcts:sims=4611686018427387904", "nosuch", "alphabeta:time=nan", "alphabeta:time=1e309", ":", ""]
TYPES = ["new", "move", "undo", "hint", "analyse", "stop", "review", "show", "nosuch", None, 3, ["new"]]
SENTINEL = json.dumps({"type": "analyse", "game": "quoridor", "run": False})


def value(rng: random.Random, depth: int = 0):
    """A random JSON-ish value, often one that breaks a naive reader."""
    k = rng.randrange(14 if depth < 3 else 9)
    if k == 0:
        return None
    if k == 1:
        return rng.choice([True, False])
    if k == 2:
        return rng.randint(-5, 40)
    if k == 3:
        return rng.choice([2 ** 31, 2 ** 63, 2 ** 64, -(2 ** 70), 10 ** 100])
    if k == 4:
        return rng.choice([0.5, -1.5, 1e308, 1e-300])
    if k == 5:
        return rng.choice(MOVES + ENGINES + ["/dev/zero", "/etc/passwd", "\x00", "é" * 5])
    if k == 6:
        return "".join(chr(rng.randrange(32, 0x2FF)) for _ in range(rng.randrange(30)))
    if k == 7:
        return rng.choice(GAMES)
    if k == 8:
        return rng.choice(MOVES)
    if k in (9, 10):
        return [value(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {rng.choice(OPTION_KEYS + ["type", "game", "moves"]): value(rng, depth + 1) for _ in range(rng.randrange(4))}


VALID = [("quoridor", {}), ("quoridor", {"size": 5}), ("crosswise", {}), ("crosswise", {"players": 3}),
         ("qwatrobat", {}), ("kreuzundquer", {})]


@functools.lru_cache(maxsize=None)
def legal_line(k: int, seed: int) -> tuple:
    """Moves of a random game of VALID[k] (seed 0 deal): inputs that get past
    the first checks and reach the searches and the pictures."""
    name, options = VALID[k]
    state = crossridor.load_game(name, **options).new_state(None, seed=0)
    rng, moves = random.Random(seed), []
    for _ in range(rng.randrange(12)):
        if state.is_terminal():
            break
        move = (rng.choice([m for m, _ in state.chance_outcomes()]) if state.current_player < 0
                else rng.choice(list(state.legal_moves())))
        moves.append(str(move))
        state.play(move)
    return tuple(moves)


def message(rng: random.Random) -> dict:
    """A page's message (or POST body): half a valid position with one field
    changed, half random fields."""
    if rng.random() < 0.5:
        k = rng.randrange(len(VALID))
        msg = {"type": rng.choice(["new", "analyse", "move", "hint", "undo", "review"]), "game": VALID[k][0],
               "options": dict(VALID[k][1]), "seed": 0, "moves": list(legal_line(k, rng.randrange(20))),
               "engine": rng.choice(ENGINES[:6]), "viewer": rng.choice([None, 1, 2, "spectator"]), "legal": True}
        key = rng.choice(["seed", "engine", "viewer", "moves", "options", "search_seed", "seats", "move", "run",
                          "multipv"])
        msg[key] = rng.choice(ENGINES) if key == "engine" else value(rng)
        return msg
    msg = {"type": rng.choice(TYPES), "game": rng.choice(GAMES)}
    if rng.random() < 0.6:
        msg["options"] = {rng.choice(OPTION_KEYS): value(rng) for _ in range(rng.randrange(3))}
    if rng.random() < 0.6:
        msg["moves"] = rng.choice([[rng.choice(MOVES) for _ in range(rng.randrange(8))], " ".join(MOVES[:4]),
                                   value(rng)])
    for key in ("seed", "search_seed", "engine", "seats", "position", "viewer", "legal", "run", "move", "multipv",
                "ply"):
        if rng.random() < 0.25:
            msg[key] = rng.choice(ENGINES) if key == "engine" and rng.random() < 0.7 else value(rng)
    return msg


def text_of(rng: random.Random, msg) -> str:
    """The JSON text, sometimes broken: cut, non-finite, deeply nested, huge numbers."""
    text = json.dumps(msg)
    r = rng.random()
    if r < 0.05:
        return text[: rng.randrange(len(text) + 1)]
    if r < 0.08:
        return text.replace("null", rng.choice(["NaN", "Infinity", "-Infinity"]), 1)
    if r < 0.10:
        d = rng.choice([100, 10_000, 60_000])
        return "[" * d + "]" * d
    if r < 0.12:
        return text.replace("1", "9" * rng.choice([50, 4301, 6000]), 1)
    return text


def record(rng: random.Random) -> str:
    """A line of a records file, often wrong."""
    rec = {"index": value(rng), "game": rng.choice(GAMES), "params": value(rng) if rng.random() < 0.5 else {},
           "engines": ["a", "b"], "seats": [0, 1], "seed": 1, "deal_seed": value(rng), "opening_plies": 0,
           "plies": 0, "moves": [rng.choice(MOVES) for _ in range(rng.randrange(6))], "result": "1-0",
           "reason": "end", "returns": [1, -1], "winner": 0, "winner_engine": "a", "seconds": [0, 0]}
    for key in rng.sample(sorted(rec), rng.randrange(3)):
        rec[key] = value(rng)
    return text_of(rng, rec)


def check_http(client, rng: random.Random) -> None:
    route = rng.choice(["/api/render", "/api/best", "/api/replay"])
    if route == "/api/replay":
        body = json.dumps({"records": "\n".join(record(rng) for _ in range(rng.randrange(1, 4)))})
    else:
        body = text_of(rng, message(rng))
    kind = rng.choice(["application/json"] * 8 + ["text/plain", "application/json; charset=utf-8"])
    r = client.post(route, content=body.encode("utf-8", "surrogatepass"), headers={"content-type": kind})
    assert r.status_code in (200, 400, 403, 413, 503), (route, body[:300], r.status_code, r.text[:300])
    data = r.json()                      # every answer is JSON
    if r.status_code != 200:
        assert isinstance(data.get("error"), str) and "internal error" not in data["error"], (body[:300], data)


def check_ws(ws, rng: random.Random) -> None:
    ws.send_text(text_of(rng, message(rng)))
    ws.send_text(SENTINEL)
    for _ in range(200):                 # the answers to the input, then the sentinel's state
        msg = ws.receive_json()
        assert "internal error" not in str(msg.get("message", "")), msg
        if msg.get("type") == "state" and msg.get("mode") == "analyse" and msg["view"]["game"] == "quoridor" \
                and not msg["view"]["history"]:
            return
    raise AssertionError("the tab stopped answering")


def test_web_api_fuzz(capsys):
    rng = random.Random(SEED)
    app = create_app(host="testserver", caps=Caps(time=0.02))   # every search short
    done = 0
    with TestClient(app) as client:
        ws_cm = client.websocket_connect("/ws")
        ws = ws_cm.__enter__()
        try:
            for done in range(1, N + 1):
                if rng.random() < 0.5:
                    check_http(client, rng)
                else:
                    check_ws(ws, rng)
                if done % 5000 == 0 and PROFILE == "long":
                    with capsys.disabled():
                        print(f"web fuzz: {done} inputs", flush=True)
        finally:
            ws_cm.__exit__(None, None, None)
    with capsys.disabled():
        print(f"\nweb fuzz: {done} inputs, no failure (seed {SEED})")
