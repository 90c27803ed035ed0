"""The web server under hostile clients: replays are searches
(queued, capped, stopped with their client), slow clients cannot hold the
server, Host is parsed strictly, duplicate Host/Origin headers are refused,
every answer forbids framing and sniffing, and any string a client sends
(a lone surrogate included) comes back in an encodable error.

Work is bounded by counts, not seconds; the real server runs with short
timeouts (hidden serve flags) and every wait is a generous bound."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
import warnings

import pytest

pytest.importorskip("uvicorn", reason='the web app needs the web extra: pip install ".[web]"')
httpx = pytest.importorskip("httpx")
websockets = pytest.importorskip("websockets")
from websockets.asyncio.client import connect  # noqa: E402

from crossridor.engine.match.game_loop import GameRecord  # noqa: E402
from crossridor.engine.stop import Stop  # noqa: E402
from crossridor.engine.web import app as web_app  # noqa: E402
from crossridor.engine.web import searching  # noqa: E402
from crossridor.engine.web.guard import Guard  # noqa: E402
from helpers import HANG, serving, wait_for  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

TIMEOUT = HANG
SHUTTLE = ["e2", "e8", "e1", "e9"]      # Quoridor pawns stepping back and forth: always legal


def records(games: int, moves: int) -> str:
    """A records file of `games` Quoridor games of `moves` moves each."""
    lines = []
    for index in range(games):
        rec = GameRecord(index=index, seed=1, deal_seed=None, seats=[0, 1], engines=["random", "random"],
                         result="1/2-1/2", returns=[0.0, 0.0], winner=None, winner_engine=None,
                         reason="max_plies", moves=(SHUTTLE * moves)[:moves], opening_plies=0, plies=moves,
                         seconds=0.1, game="quoridor", params={})
        lines.append(json.dumps(rec.as_dict()))
    return "\n".join(lines) + "\n"


def client(**kw) -> TestClient:
    return TestClient(web_app.create_app(host="testserver", **kw), raise_server_exceptions=False)


# --- a replay is a search like any other

def test_a_replay_is_capped_by_its_moves_in_all():
    with client(caps=searching.Caps(plies=50)) as c:
        r = c.post("/api/replay", json={"records": records(games=5, moves=20)})
    assert r.status_code == 200
    data = r.json()
    assert len(data["games"]) == 2                     # 40 moves; the third would make 60
    assert data["errors"][0] == ("line 3: the replay stopped here: at most 50 moves are replayed in all "
                                 "(records x moves)")


def test_a_replay_is_capped_by_the_servers_max_time():
    # a microsecond: far less than replaying 200 moves takes
    with client(caps=searching.Caps(time=1e-6)) as c:
        r = c.post("/api/replay", json={"records": records(games=10, moves=20)})
    data = r.json()
    assert len(data["games"]) < 10
    assert data["errors"][0].endswith("the replay stopped here, at its 1e-06 s limit (serve --max-time)")


def test_a_replay_waits_in_the_search_queue(monkeypatch):
    monkeypatch.setattr(searching, "SEARCH_QUEUE", -searching.SEARCH_THREADS)   # no room at all
    with client() as c:
        r = c.post("/api/replay", json={"records": records(games=1, moves=4)})
    assert r.status_code == 503 and r.json()["error"].startswith("busy")


class FirstPollWaits(Stop):
    """A Stop whose first poll waits until it is set (a bound for a hang):
    the replay cannot finish before its client has gone. Counts polls."""

    def __init__(self):
        super().__init__()
        self.polls = 0
        self.was_set = threading.Event()

    def set(self):
        super().set()
        self.was_set.set()

    def is_set(self):
        self.polls += 1
        if self.polls == 1:
            self.was_set.wait(TIMEOUT)
        return super().is_set()


def test_a_replay_stops_when_its_client_goes():
    app = web_app.create_app(host="testserver")
    stops = []
    app.state.new_stop = lambda: stops.append(FirstPollWaits()) or stops[-1]
    body = json.dumps({"records": records(games=50, moves=40)}).encode()
    scope = {"type": "http", "method": "POST", "path": "/api/replay", "raw_path": b"/api/replay",
             "query_string": b"", "root_path": "", "scheme": "http", "http_version": "1.1",
             "client": ("127.0.0.1", 1), "server": ("testserver", 80),
             "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"),
                         (b"content-length", str(len(body)).encode())]}
    messages = iter([{"type": "http.request", "body": body, "more_body": False}])
    sent = []

    async def receive():
        return next(messages, {"type": "http.disconnect"})    # then the client has gone

    async def send(message):
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    assert len(stops) == 1 and stops[0].was_set.is_set()
    assert stops[0].polls <= 2            # stopped at its first check, not after 2,000 moves
    assert searching.running() == 0


# --- requests still sending their bodies do not make others busy

def test_requests_sending_their_bodies_do_not_make_others_busy():
    """Guard at the ASGI level, no timing: bodies that never arrive hold no
    place of the requests at work; beyond their own cap, they are refused."""
    async def app(scope, receive, send):
        if scope["method"] == "POST":
            await receive()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    guard = Guard(app, host="testserver", max_requests=2)

    def scope(method, length):
        return {"type": "http", "method": method, "path": "/", "client": ("127.0.0.1", 1),
                "headers": [(b"host", b"testserver"), (b"content-length", str(length).encode())]}

    async def run():
        never = asyncio.Event()

        async def slow_receive():
            await never.wait()

        async def no_body():
            return {"type": "http.request", "body": b"", "more_body": False}

        answers = []

        def collect(into):
            async def send(message):
                if message["type"] == "http.response.start":
                    into.append(message["status"])
            return send

        slow = [asyncio.create_task(guard(scope("POST", 100000), slow_receive, collect(answers))) for _ in range(4)]
        await asyncio.sleep(0)
        index = []
        await guard(scope("GET", 0), no_body, collect(index))
        for task in slow:
            task.cancel()
        await asyncio.gather(*slow, return_exceptions=True)
        return answers, index

    answers, index = asyncio.run(run())
    assert index == [200]
    assert answers == [503, 503]          # the two beyond the readers' cap (max_requests), at once


@pytest.fixture(scope="module")
def server():
    """`crossridor serve` with 1-second header and body timeouts."""
    with serving("--header-timeout", "1", "--body-timeout", "1") as server:
        yield server


def index_answers(server) -> bool:
    try:
        return httpx.get(server["url"] + "/", timeout=TIMEOUT).status_code == 200
    except httpx.TransportError:
        return False


def open_socket(server, data: bytes = b"") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server["port"]), timeout=TIMEOUT)
    if data:
        sock.sendall(data)
    return sock


def read_until_closed(sock: socket.socket, deadline: float | None = None) -> bytes | None:
    """What the server sends until it closes the connection; None if it
    has not closed it by `deadline` (time.monotonic(); default TIMEOUT from now)."""
    deadline = time.monotonic() + TIMEOUT if deadline is None else deadline
    out = b""
    try:
        while True:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = sock.recv(65536)
            if not chunk:
                break
            out += chunk
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass
    finally:
        sock.close()
    return out


def slow_post(server) -> bytes:
    return (f"POST /api/render HTTP/1.1\r\nHost: 127.0.0.1:{server['port']}\r\n"
            f"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{{").encode()


def test_slow_bodies_do_not_deny_service(server):
    slow = [open_socket(server, slow_post(server)) for _ in range(64)]
    try:
        assert wait_for(lambda: index_answers(server), TIMEOUT)
        deadline = time.monotonic() + TIMEOUT
        answers = [read_until_closed(sock, deadline) for sock in slow]
    finally:
        for sock in slow:
            sock.close()
    assert None not in answers                          # every slow client was closed by the server
    statuses = [a.split(b" ", 2)[1] for a in answers if a.startswith(b"HTTP/1.1 ")]
    assert b"408" in statuses                           # its body did not arrive in time
    assert set(statuses) <= {b"408", b"503"}
    assert b"did not arrive within 1 s" in b"".join(answers)
    assert index_answers(server)


def test_slow_headers_and_idle_connections_are_closed(server):
    partial = open_socket(server, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server['port']}\r\n".encode())
    silent = open_socket(server)
    deadline = time.monotonic() + TIMEOUT
    assert read_until_closed(partial, deadline) == b""
    assert read_until_closed(silent, deadline) == b""
    # after an answer, the next request's headers have the same deadline
    kept = open_socket(server, f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{server['port']}\r\n\r\nGET / HTTP/1.1\r\n"
                       .encode())
    answer = read_until_closed(kept)
    assert answer is not None and answer.count(b"HTTP/1.1 200") == 1


def test_connections_per_client_are_capped(server):
    sockets = [open_socket(server) for _ in range(40)]
    deadline = time.monotonic() + TIMEOUT
    answers = [read_until_closed(sock, deadline) for sock in sockets]
    assert None not in answers
    refused = [a for a in answers if a.startswith(b"HTTP/1.1 503")]
    assert len(refused) >= 8 and b"connections from 127.0.0.1 are open" in refused[0]
    assert index_answers(server)


# --- Host, duplicate headers, framing, encodable errors

@pytest.mark.parametrize("host", ["evil@127.0.0.1:8000", "127.0.0.1:8000/path", "127.0.0.1:8000?q=1",
                                  "127.0.0.1:8000#x", "127.0.0.1:08000", "127.0.0.1:+8000", "127.0.0.1:8000:8000",
                                  "127.0.0.1:", " 127.0.0.1:8000", "127.0.0.1 :8000", "[::1", "[zz]:8000",
                                  "127.0.0.1:8000\\", "user:pw@localhost:8000", ""])
def test_host_is_a_host_and_a_port_only(host):
    with TestClient(web_app.create_app(host="127.0.0.1", port=8000), raise_server_exceptions=False) as c:
        r = c.get("/api/games", headers={"Host": host})
    assert r.status_code == 403 and "is not served here" in r.json()["error"], (host, r.text)


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "LocalHost:8000", "[::1]:8000"])
def test_a_well_formed_local_host_is_served(host):
    with TestClient(web_app.create_app(host="127.0.0.1", port=8000)) as c:
        assert c.get("/api/games", headers={"Host": host}).status_code == 200


def test_a_userinfo_host_is_refused_by_the_real_server(server):
    r = httpx.get(server["url"] + "/api/games", headers={"Host": f"evil@127.0.0.1:{server['port']}"},
                  timeout=TIMEOUT)
    assert r.status_code == 403


def test_duplicate_origin_and_host_headers_are_refused():
    good, evil = "http://testserver", "http://evil.example"
    with client() as c:
        r = c.post("/api/render", json={"game": "quoridor"}, headers=[("origin", evil), ("origin", good)])
        assert r.status_code == 400 and "at most one Origin header" in r.json()["error"]
        r = c.get("/api/games", headers=[("host", "evil.example"), ("host", "testserver")])
        assert r.status_code == 400 and "at most one Host header" in r.json()["error"]
        assert c.post("/api/render", json={"game": "quoridor"}, headers={"origin": good}).status_code == 200


def test_a_websocket_with_two_origins_is_refused():
    from starlette.websockets import WebSocketDisconnect
    two = httpx.Headers([("origin", "http://evil.example"), ("origin", "http://testserver")])
    with client() as c, pytest.raises(WebSocketDisconnect) as refused, c.websocket_connect("/ws", headers=two):
        pass
    assert refused.value.code == 1008 and "at most one Origin header" in refused.value.reason


def test_the_real_server_refuses_a_websocket_with_two_origins(server):
    async def run():
        async with connect(server["ws"], additional_headers=[("Origin", "http://evil.example"),
                                                             ("Origin", server["url"])], open_timeout=TIMEOUT):
            pass
    with pytest.raises(websockets.exceptions.InvalidStatus):
        asyncio.run(run())


@pytest.mark.parametrize("path", ["/", "/static/app.js", "/api/games", "/api/nothing", "/api/health"])
def test_every_answer_forbids_framing_and_sniffing(server, path):
    r = httpx.get(server["url"] + path, timeout=TIMEOUT)
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["x-content-type-options"] == "nosniff"
    policy = r.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "'unsafe-eval'" not in policy and "script-src 'self';" in policy


def test_refusals_forbid_framing_too(server):
    r = httpx.get(server["url"] + "/", headers={"Host": "rebound.example"}, timeout=TIMEOUT)
    assert r.status_code == 403 and r.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]


LONE = '"\\ud800"'          # a JSON string holding a lone surrogate


@pytest.mark.parametrize("body", ['{"game": "quoridor", "seed": ' + LONE + "}",
                                  '{"game": "quoridor", "options": {' + LONE + ": 1}}",
                                  '{"game": ' + LONE + "}"])
def test_an_error_quoting_a_lone_surrogate_is_json(body):
    with client() as c:
        for path in ("/api/render", "/api/best"):
            r = c.post(path, content=body, headers={"content-type": "application/json"})
            assert r.status_code == 400, r.text
            assert r.content.isascii() and "ud800" in ascii(r.json()["error"])


def test_a_replayed_game_holding_a_lone_surrogate_is_json():
    text = records(games=1, moves=4).replace('"max_plies"', LONE)
    with client() as c:
        r = c.post("/api/replay", json={"records": text})
    assert r.status_code == 200 and r.json()["games"][0]["reason"] == "\ud800"


def test_a_websocket_error_quoting_a_lone_surrogate_keeps_the_tab(server):
    async def run():
        async with connect(server["ws"], open_timeout=TIMEOUT) as ws:
            await ws.send('{"type": "new", "game": "quoridor", "seed": ' + LONE + "}")
            error = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            await ws.send(json.dumps({"type": "analyse", "game": "quoridor", "run": False}))
            state = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            return error, state
    error, state = asyncio.run(run())
    assert error["type"] == "error" and "ud800" in ascii(error["message"])
    assert state["type"] == "state"


@pytest.mark.parametrize("args", [["--header-timeout", "0"], ["--body-timeout", "nan"], ["--body-timeout", "-1"]])
def test_timeout_flags_are_checked(args, capsys):
    from crossridor.engine.cli.main import main
    assert main(["serve", "--port", "0", *args]) == 2
    assert "serving" not in capsys.readouterr().out
