"""The Starlette application of `crossridor serve`.

Routes: `/` the page; `/static/*` its files; `GET /api/games` the games
(from the registry), their parameters and the algorithms; `POST /api/best` one search; `POST
/api/render` a position's picture (positions the page sets up itself, e.g.
for replay); `POST /api/replay` the games of a match records file ({"records": its JSONL
text});
`GET /api/health`; and `/ws`, one WebSocket per tab for play and analysis
(`sessions.Tab`). Searches and replays run in worker threads (`searching`),
so the event loop keeps serving other tabs while the engine thinks. The
trust boundary (Host/Origin checks, caps, timeouts, no file options) is in
SECURITY.md.

Every JSON answer, on HTTP and on the WebSocket, is ASCII (other characters
are JSON escapes): a request may hold any string, a lone surrogate included,
and an answer quoting it must still be encodable.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from crossridor.engine.errors import CrossridorError
from crossridor.engine.match.game_loop import GameRecord, new_game_state, resolve_game
from crossridor.engine.options import refuse_file_options
from crossridor.engine.protocol import SPECTATOR
from crossridor.engine.registry import algorithm_names, game_entry, game_names, load_game
from crossridor.engine.stop import Stop
from crossridor.engine.views import player_index, seat
from crossridor.engine.web import searching
from crossridor.engine.web.guard import ClientLimits, Guard, http_protocol
from crossridor.engine.web.sessions import (
    MAX_MOVES,
    PAGE_REFUSED_OPTIONS,
    Tab,
    default_engine_for,
    legal_list,
    make_state,
    seed_value,
    state_message,
)

STATIC = Path(__file__).with_name("static")
MAX_BODY = 20 * 1024 * 1024          # a records file of a few thousand games
MAX_MESSAGE = 256 * 1024             # one WebSocket message (a position and its moves)
MAX_TABS = 32                        # open WebSockets
MAX_RECORDS = 20_000                 # games in one records file
CAPS = searching.Caps()              # the caps of a server with the default flags
LIMITS = ClientLimits()

USER_ERRORS = (CrossridorError, ValueError, KeyError, TypeError, OverflowError, RecursionError)


class AsciiJSON(JSONResponse):
    """JSON in ASCII: encodable whatever strings it quotes (see above)."""

    def render(self, content) -> bytes:
        return json.dumps(content, allow_nan=False, separators=(",", ":")).encode("ascii")


def error(message: str, status: int = 400) -> JSONResponse:
    return AsciiJSON({"error": message}, status_code=status)


def _no_constant(name: str):
    raise CrossridorError(f"{name} is not a JSON number")


def parse_json(text: str | bytes):
    """A JSON value from a page: NaN/Infinity, numbers of more than 4300
    digits and nesting too deep to parse are one clear error."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise CrossridorError(f"not JSON: {exc.msg} at line {exc.lineno}") from None
    except RecursionError:
        raise CrossridorError("not JSON this server reads: nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise CrossridorError(f"not JSON this server reads: {str(exc)[:80]}") from None


async def read_body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The body, read chunk by chunk and refused as soon as it passes `limit`."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise CrossridorError("requests are JSON: send Content-Type: application/json")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise TooLarge(f"request too large (at most {limit // 2 ** 20} MB)")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooLarge(f"request too large (at most {limit // 2 ** 20} MB)")
        chunks.append(chunk)
    return b"".join(chunks)


class TooLarge(CrossridorError):
    pass


async def json_body(request: Request) -> dict:
    body = await read_body(request)
    data = parse_json(body or b"{}")
    if not isinstance(data, dict):
        raise CrossridorError("the request must be a JSON object")
    return data


def api(handler):
    """Bad input -> 400 with one line of JSON, never a traceback; a busy
    server 503, a body too large 413, memory running out 503."""
    async def wrapped(request: Request):
        try:
            return await handler(request)
        except searching.Busy as exc:
            return error(str(exc), 503)
        except TooLarge as exc:        # and close: the rest of the body is not read
            response = error(str(exc), 413)
            response.headers["connection"] = "close"
            return response
        except USER_ERRORS as exc:
            return error(str(exc))
        except MemoryError:
            return error("out of memory", 503)
    return wrapped


async def index(request: Request):
    return FileResponse(STATIC / "index.html")


async def favicon(request: Request):
    return Response(status_code=204)


def page_games() -> dict:
    """What the page offers for each registered game: its parameters as
    declared (`Param.describe()`; not those that read a file, are refused
    here, or take free text, which a one-line field cannot hold), its doc
    line, and the engine it plays by default."""
    out = {}
    for name in game_names():
        entry = game_entry(name)
        params = [p.describe() for p in entry.params
                  if not p.file and p.name not in PAGE_REFUSED_OPTIONS and p.kind is not str]
        traits = load_game(name).traits
        out[name] = {"doc": entry.doc, "params": params, "engine": default_engine_for(traits)}
    return out


async def games(request: Request):
    return AsciiJSON({"games": page_games(), "algorithms": algorithm_names()})


async def health(request: Request):
    return AsciiJSON({"ok": True, "searches": searching.running(), "tabs": len(request.app.state.tabs)})


async def stop_on_disconnect(request: Request, stop: Stop) -> None:
    """Set `stop` when the client goes away (the body is read: the next
    message is the disconnect)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            stop.set()
            return


@api
async def best(request: Request):
    """{game, options, moves|position, seed, engine} -> the engine's move."""
    data = await json_body(request)
    state = make_state(data)
    if state.is_terminal():
        raise CrossridorError("the game is over: there is no move to search")
    spec = request.app.state.caps.check(str(data.get("engine") or "alphabeta:time=1"))
    seed = seed_value(data.get("search_seed"), "search_seed")
    stop = request.app.state.new_stop()
    watch = asyncio.ensure_future(stop_on_disconnect(request, stop))
    try:
        result = await searching.in_thread(searching.stoppable_search, state.clone(), spec, seed, stop)
    finally:
        stop.set()
        watch.cancel()
    out = result.as_dict() if result else {"move": None}
    return AsciiJSON(dict(out, to_move=seat(state.current_player)))      # the seat the score is for


@api
async def render(request: Request):
    """{game, options, moves|position, seed, viewer} -> {svg, view, legal}.
    The page gave the whole position, so it may see all of it; `viewer` (a
    seat 1..n, or "spectator") shows it as that seat would see it."""
    data = await json_body(request)
    state = make_state(data)
    viewer = data.get("viewer")
    if viewer == "spectator":
        viewer = SPECTATOR
    elif viewer is not None:
        viewer = player_index(viewer, state.game.traits.num_players, "viewer")
    return AsciiJSON(state_message(state, viewer, legal=bool(data.get("legal"))))


@api
async def replay(request: Request):
    """{"records": a match records file (one JSON object a line)} -> its
    games, each checked by replaying its moves. A replay is a search like
    any other: in the search pool (busy when it is full), within the caps,
    and stopped when its client goes."""
    records = (await json_body(request)).get("records")
    if not isinstance(records, str):
        raise CrossridorError('give {"records": the text of a records file}')
    stop = request.app.state.new_stop()
    watch = asyncio.ensure_future(stop_on_disconnect(request, stop))
    try:
        result = await searching.in_thread(replay_records, records, request.app.state.caps, stop)
    finally:
        stop.set()
        watch.cancel()
    return AsciiJSON(result)


def replay_records(text: str, caps: searching.Caps = CAPS, stop: Stop | None = None) -> dict:
    """The games of a records file, each replayed; what is not a game is an
    error line. The replay ends early, saying where, at `caps.time` seconds
    or `caps.plies` moves in all; when `stop` is set, it just ends."""
    with searching.counted():
        return _replay(text, caps, stop or Stop())


class CutShort(Exception):
    """The rest of a records file is not replayed; the message says where and why."""


def _replay(text: str, caps: searching.Caps, stop: Stop) -> dict:
    out: list = []
    errors: list[str] = []
    cut, plies = None, 0
    deadline = time.monotonic() + caps.time

    def go_on(lineno: int) -> None:
        if stop.is_set():
            raise CutShort(f"line {lineno}: the replay was stopped")
        if time.monotonic() >= deadline:
            raise CutShort(f"line {lineno}: the replay stopped here, at its {caps.time:g} s limit (serve --max-time)")

    try:
        for lineno, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            if len(out) + len(errors) >= MAX_RECORDS:
                raise CutShort(f"line {lineno}: only the first {MAX_RECORDS} records are read")
            go_on(lineno)
            try:
                raw = parse_json(line)
                if not isinstance(raw, dict):
                    raise TypeError("not an object")
                rec = GameRecord.from_dict(raw)
                if not isinstance(rec.params, dict):
                    raise TypeError("params is not an object")
                refuse_file_options(rec.params, "record")
                if not isinstance(rec.moves, list) or len(rec.moves) > MAX_MOVES:
                    raise CrossridorError(f"moves must be a list of at most {MAX_MOVES}")
                plies += len(rec.moves)
                if plies > caps.plies:
                    raise CutShort(f"line {lineno}: the replay stopped here: at most {caps.plies} moves "
                                   f"are replayed in all (records x moves)")
                deal_seed = seed_value(rec.deal_seed, "deal_seed")
                game = resolve_game(rec.game, rec.params, "record")
                dealt = deal_seed is not None and (game.traits.chance or game.traits.hidden_information)
                state = game.new_state(None, seed=deal_seed) if dealt else new_game_state(game)
                for ply, move in enumerate(rec.moves):
                    go_on(lineno)
                    try:
                        state.play(str(move))
                    except ValueError as exc:
                        raise CrossridorError(f"move {ply + 1} ({str(move)[:20]}): {exc}") from None
            except (TypeError, AttributeError) as exc:
                errors.append(f"line {lineno}: not a game record ({str(exc)[:80]})")
                continue
            except USER_ERRORS as exc:
                errors.append(f"line {lineno}: {str(exc)[:200]}")
                continue
            seed = deal_seed if dealt else None
            out.append({"index": rec.index, "game": rec.game, "options": rec.params, "seed": seed,
                        "engines": rec.engines, "result": rec.result, "winner": rec.winner, "reason": rec.reason,
                        "moves": rec.moves})
    except CutShort as exc:
        cut = str(exc)
    if not out and not errors and cut is None:
        raise CrossridorError("the file holds no game records")
    # why the file was cut short comes first: the page shows the first error
    return {"games": out, "errors": ([cut] if cut else []) + errors[:20 - bool(cut)]}


async def websocket(ws: WebSocket):
    tabs = ws.app.state.tabs
    await ws.accept()
    if len(tabs) >= ws.app.state.max_tabs:
        await ws.send_text(json.dumps({"type": "error", "message": f"too many open tabs (at most "
                                                                   f"{ws.app.state.max_tabs}): close one and reload"}))
        await ws.close(code=1013)
        return

    async def send(msg: dict) -> None:
        try:
            await ws.send_text(json.dumps(msg, separators=(",", ":")))   # ASCII: always encodable
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass                      # the tab has gone; its search is being stopped

    tab = Tab(send, ws.app.state.caps)
    tabs.add(tab)
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            try:
                text = message.get("text")
                if text is None or len(text) > MAX_MESSAGE:
                    raise CrossridorError(f"messages are JSON objects in text frames of at most {MAX_MESSAGE} bytes")
                msg = parse_json(text)
                if not isinstance(msg, dict):
                    raise CrossridorError("messages are JSON objects")
                await tab.handle(msg)
            except USER_ERRORS as exc:
                await send({"type": "error", "message": str(exc)[:300]})
            except MemoryError:
                await send({"type": "error", "message": "out of memory"})
            except Exception as exc:  # noqa: BLE001 - one bad message must not end the tab
                await send({"type": "error", "message": f"internal error: {type(exc).__name__}"})
    except WebSocketDisconnect:
        pass
    finally:
        tabs.discard(tab)
        await tab.close()            # the tab went away: stop its search (set at once, even if cancelled)


async def internal_error(request: Request, exc: Exception) -> JSONResponse:
    """Whatever escaped a route: JSON, like every other answer."""
    return error("out of memory" if isinstance(exc, MemoryError) else "internal error", 500)


def create_app(host: str = "127.0.0.1", port: int | None = None, allow_origins=(),
               caps: searching.Caps = CAPS, max_tabs: int = MAX_TABS,
               max_requests: int = 64, limits: ClientLimits = LIMITS) -> Starlette:
    """The app behind its Guard (Host and Origin checks, timeouts, see
    guard.py); `port` None accepts any port (the test client)."""
    app = Starlette(routes=[
        Route("/", index),
        Route("/favicon.ico", favicon),
        Route("/api/games", games),
        Route("/api/health", health),
        Route("/api/best", best, methods=["POST"]),
        Route("/api/render", render, methods=["POST"]),
        Route("/api/replay", replay, methods=["POST"]),
        WebSocketRoute("/ws", websocket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], exception_handlers={Exception: internal_error})
    app.state.tabs = set()
    app.state.new_stop = Stop
    app.state.caps = caps
    app.state.max_tabs = max_tabs
    app.add_middleware(Guard, host=host, port=port, allow_origins=tuple(allow_origins), max_requests=max_requests,
                       limits=limits)
    return app


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so that a port in use is one clear
    error (OSError) before the server starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)             # connections made once "serving on" is printed wait, not fail
    except OSError:
        sock.close()
        raise
    return sock


def serve(host: str = "127.0.0.1", port: int = 8000, on_ready=None, allow_origins=(),
          caps: searching.Caps = CAPS, max_tabs: int = MAX_TABS,
          limits: ClientLimits = LIMITS) -> None:
    import uvicorn
    sock = bind(host, port)
    bound = sock.getsockname()[1]
    if on_ready is not None:
        on_ready(bound)
    app = create_app(host, bound, allow_origins, caps, max_tabs, limits=limits)
    # open WebSockets (idle tabs) must not hold up Ctrl-C or SIGTERM for long;
    # limit_concurrency is a backstop far above the app's own JSON caps; the
    # h11 protocol (also with httptools installed) adds the header deadline
    # and the per-client connection limit (guard.http_protocol)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2,
                                           ws_max_size=MAX_MESSAGE, limit_concurrency=4 * (max_tabs + 64),
                                           http=http_protocol(limits), timeout_keep_alive=limits.keep_alive,
                                           h11_max_incomplete_event_size=limits.header_bytes))
    server.run(sockets=[sock])


__all__ = ["create_app", "legal_list", "serve"]
