"""The trust boundary of `crossridor serve`, tried as an attacker would: the
real server (uvicorn on a free loopback port, in a subprocess) and real
clients (httpx, websockets) sending cross-site Origin and foreign Host
headers, file options, huge limits, huge bodies and malformed messages. No
wall-clock assertions: only bounded waits."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import warnings

import pytest

pytest.importorskip("uvicorn", reason='the web app needs the web extra: pip install ".[web]"')
httpx = pytest.importorskip("httpx")
websockets = pytest.importorskip("websockets")
from websockets.asyncio.client import connect  # noqa: E402

from helpers import HANG, serving, wait_for  # noqa: E402

TIMEOUT = HANG


@pytest.fixture(scope="module")
def server():
    with serving() as server:
        yield server


def post(server, path, body, **kw):
    return httpx.post(server["url"] + path, json=body, timeout=TIMEOUT, **kw)


def still_answers(server) -> bool:
    return httpx.get(server["url"] + "/api/health", timeout=TIMEOUT).status_code == 200


def ws_exchange(server, messages, origin=None, host=None, replies=1):
    """Send `messages` on one WebSocket; the replies to each (lists)."""
    async def run():
        headers = {"Host": host} if host else None
        async with connect(server["ws"], origin=origin, additional_headers=headers, open_timeout=TIMEOUT,
                           max_size=2 ** 24) as ws:
            out = []
            for m in messages:
                await ws.send(m if isinstance(m, str) else json.dumps(m))
                out.append([json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT)) for _ in range(replies)])
            return out
    return asyncio.run(run())


# --- other sites' pages, file options, FIFOs

def test_a_cross_site_websocket_is_refused(server):
    with pytest.raises(websockets.exceptions.InvalidStatus):
        ws_exchange(server, [{"type": "new", "game": "quoridor"}], origin="http://evil.example")
    # the page's own origin still works
    reply = ws_exchange(server, [{"type": "analyse", "game": "quoridor", "run": False}],
                        origin=server["url"])
    assert reply[0][0]["type"] == "state"


def test_a_foreign_host_is_refused_no_dns_rebinding(server):
    r = httpx.get(server["url"] + "/api/games", headers={"Host": f"rebound.example:{server['port']}"}, timeout=TIMEOUT)
    assert r.status_code == 403 and "not served here" in r.json()["error"]
    r = post(server, "/api/render", {"game": "quoridor"}, headers={"Host": f"rebound.example:{server['port']}"})
    assert r.status_code == 403
    with pytest.raises(websockets.exceptions.InvalidStatus):
        ws_exchange(server, [{"type": "new", "game": "quoridor"}], host=f"rebound.example:{server['port']}")
    assert httpx.get(server["url"] + "/api/games", headers={"Host": f"localhost:{server['port']}"},
                     timeout=TIMEOUT).status_code == 200


def test_posts_must_be_json_and_same_origin(server):
    body = json.dumps({"game": "quoridor"})
    r = httpx.post(server["url"] + "/api/render", content=body, headers={"Content-Type": "text/plain"}, timeout=TIMEOUT)
    assert r.status_code == 400 and "application/json" in r.json()["error"]
    r = post(server, "/api/render", {"game": "quoridor"}, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and "origin" in r.json()["error"]
    assert post(server, "/api/render", {"game": "quoridor"}, headers={"Origin": server["url"]}).status_code == 200


def test_no_page_can_name_a_file(server, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in (str(fifo), "/dev/zero", "/etc/passwd"):
        r = post(server, "/api/render", {"game": "kreuzundquer", "options": {"deck_file": path}})
        assert r.status_code == 400 and "option deck_file reads a file" in r.json()["error"]
        record = {"index": 0, "game": "kreuzundquer", "params": {"deck_file": path}, "engines": ["a", "b"],
                  "seats": [0, 1], "seed": 1, "deal_seed": 1, "opening_plies": 0, "plies": 0, "moves": [],
                  "result": "1-0", "reason": "end", "returns": [1, -1], "winner": 0, "winner_engine": 0,
                  "seconds": 0.0}
        r = post(server, "/api/replay", {"records": json.dumps(record)})
        assert "option deck_file reads a file" in r.text
        reply = ws_exchange(server, [{"type": "new", "game": "kreuzundquer", "options": {"deck_file": path}}])
        assert reply[0][0]["type"] == "error" and "deck_file" in reply[0][0]["message"]
    assert still_answers(server)


# --- eval_file in an engine spec

def test_no_page_can_name_a_weights_file(server):
    r = post(server, "/api/best", {"game": "quoridor", "engine": "alphabeta:depth=1,eval=learned,eval_file=/dev/zero"})
    assert r.status_code == 400 and "option eval_file reads a file" in r.json()["error"]
    r = post(server, "/api/best", {"game": "quoridor", "engine": "uci:/bin/sh"})
    assert r.status_code == 400 and "outside engines" in r.json()["error"]


# --- caps on every limit; a search ends with its client

@pytest.mark.parametrize("engine", ["alphabeta:depth=2147483647", "alphabeta:tc=9999999+0",
                                    "mcts:sims=4611686018427387904", "alphabeta:nodes=4611686018427387904",
                                    "alphabeta:time=1,threads=256",
                                    "alphabeta:time=1,hash=65536", "alphabeta:time=1000"])
def test_every_limit_is_capped(server, engine):
    r = post(server, "/api/best", {"game": "quoridor", "engine": engine})
    assert r.status_code == 400 and "at most" in r.json()["error"], r.text


def test_a_search_stops_when_its_client_goes(server):
    body = json.dumps({"game": "quoridor", "engine": "alphabeta:time=29"}).encode()
    request = (f"POST /api/best HTTP/1.1\r\nHost: 127.0.0.1:{server['port']}\r\nContent-Type: application/json\r\n"
               f"Content-Length: {len(body)}\r\n\r\n").encode() + body
    health = lambda: httpx.get(server["url"] + "/api/health", timeout=TIMEOUT).json()  # noqa: E731
    with socket.create_connection(("127.0.0.1", server["port"]), timeout=TIMEOUT) as client:
        client.sendall(request)
        assert wait_for(lambda: health()["searches"] == 1)
    # the client is gone: its search stops at once, long before its 29 s run out
    assert wait_for(lambda: health()["searches"] == 0, 20)


# --- body limit while reading, long move lists, open tabs

def test_the_body_limit_holds_while_reading(server):
    sent = []

    def chunks():
        for _ in range(400):
            sent.append(1)
            yield b" " * 2 ** 20
    try:
        r = httpx.post(server["url"] + "/api/replay", content=chunks(), headers={"Content-Type": "application/json"},
                       timeout=TIMEOUT)
        assert r.status_code == 413
    except httpx.TransportError:
        pass                        # the server answered and closed while we were still sending
    assert len(sent) < 100          # refused near 20 MB, not after 400 MB
    assert still_answers(server)


def test_long_move_lists_are_refused(server):
    r = post(server, "/api/render", {"game": "quoridor", "moves": ["e2", "e8", "e1", "e9"] * 2000})
    assert r.status_code == 400 and "at most" in r.json()["error"]


def test_open_tabs_are_capped(server):
    from crossridor.engine.web.app import MAX_TABS
    tabs = lambda: httpx.get(server["url"] + "/api/health", timeout=TIMEOUT).json()["tabs"]  # noqa: E731

    async def run():
        sockets = []
        try:
            for _ in range(MAX_TABS):
                sockets.append(await connect(server["ws"], open_timeout=TIMEOUT))
            assert await asyncio.to_thread(wait_for, lambda: tabs() == MAX_TABS), tabs()   # all let in
            async with connect(server["ws"], open_timeout=TIMEOUT) as one_more:
                return json.loads(await asyncio.wait_for(one_more.recv(), TIMEOUT))
        finally:
            for ws in sockets:
                await ws.close()
    refused = asyncio.run(run())
    assert refused["type"] == "error" and "too many open tabs" in refused["message"], refused
    assert wait_for(lambda: tabs() == 0)
    assert still_answers(server)


# --- malformed messages are answered, the tab goes on

@pytest.mark.parametrize("message", [
    '{"type": "new", "game": "quoridor", "seed": ' + "9" * 5000 + "}",
    '{"type": "new", "game": "crosswise", "seed": Infinity}',
    '{"type": "new", "game": "crosswise", "seed": NaN}',
    "[" * 100_000 + "]" * 100_000,
    '{"type": "new", "game": "crosswise", "options": {"chance": true}}',
    '{"type": "new", "game": "quoridor", "seed": 1e400}',
    '{"type": "new", "game": "quoridor", "seed": 18446744073709551616}',
    '{"type": "analyse", "game": "quoridor", "moves": {"a": 1}}',
    '{"type": "analyse", "game": 7, "options": [1]}',
    '{"type": ["new"]}',
    "not json",
])
def test_malformed_messages_get_an_error_and_the_tab_goes_on(server, message):
    replies = ws_exchange(server, [message, {"type": "analyse", "game": "quoridor", "run": False}])
    assert replies[0][0]["type"] == "error", replies[0]
    assert "internal error" not in replies[0][0]["message"]
    assert replies[1][0]["type"] == "state"


# --- the deal seed

def test_deal_seeds_have_64_secret_bits():
    """A 32-bit seed would let one's own hand narrow the Crosswise deal to a
    few seeds; eight deals all below 2^32 with 64 random bits: chance 2^-256."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from crossridor.engine.web.app import create_app
    app = create_app(host="testserver")
    seeds = []
    with TestClient(app) as client:
        for _ in range(8):
            with client.websocket_connect("/ws") as ws:
                ws.send_json({"type": "new", "game": "crosswise", "seats": [1, 2]})
                assert ws.receive_json()["type"] == "state"
                seeds += [tab.seed for tab in app.state.tabs]
    assert len(seeds) == 8 and max(seeds) >= 2 ** 32


def test_a_full_search_queue_answers_busy(monkeypatch):
    from crossridor.engine.web import searching
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from crossridor.engine.web.app import create_app
    monkeypatch.setattr(searching, "SEARCH_QUEUE", -searching.SEARCH_THREADS)   # no room at all
    with TestClient(create_app(host="testserver")) as client:
        r = client.post("/api/best", json={"game": "quoridor", "engine": "alphabeta:depth=1"})
        assert r.status_code == 503 and r.json()["error"].startswith("busy")


def test_memory_errors_are_json(monkeypatch):
    """A MemoryError is answered in JSON (503, out of memory), not as a plain-text 500."""
    from crossridor.engine.web import app as web_app
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    def no_memory(data):
        raise MemoryError
    monkeypatch.setattr(web_app, "make_state", no_memory)
    with TestClient(web_app.create_app(host="testserver"), raise_server_exceptions=False) as client:
        r = client.post("/api/render", json={"game": "quoridor"})
        assert r.status_code == 503 and r.json() == {"error": "out of memory"}


@pytest.mark.parametrize("args", [["--max-time", "0"], ["--max-time", "nan"], ["--max-tabs", "0"],
                                  ["--allow-origin", "evil.example"], ["--allow-origin", "http://a/b"]])
def test_serve_flags_are_checked(args, capsys):
    from crossridor.engine.cli.main import main
    assert main(["serve", "--port", "0", *args]) == 2
    assert "serve" not in capsys.readouterr().out
