"""The Starlette application of `crossridor serve`.

Routes: `/` the page; `/static/*` its files; `GET /api/games` the games,
their options and the algorithms; `POST /api/best` one search; `POST
/api/render` a position's picture (positions the page sets up itself, e.g.
for replay); `POST /api/replay` the games of a match records file (JSONL);
`GET /api/health`; and `/ws`, one WebSocket per tab for play and analysis
(`sessions.Tab`). Searches run in worker threads (`searching`), so the
event loop keeps serving other tabs while the engine thinks.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from crossridor.engine.errors import CrossridorError
from crossridor.engine.registry import game_names
from crossridor.engine.search_api import algorithm_names
from crossridor.engine.stop import Stop
from crossridor.engine.match.workers import GameRecord, new_game_state, resolve_game
from crossridor.engine.web import searching
from crossridor.engine.web.sessions import Tab, legal_list, make_state, state_message

STATIC = Path(__file__).with_name("static")
MAX_BODY = 20 * 1024 * 1024          # a records file of a few thousand games

# What the page offers for each game (`crossridor.load_game` validates).
GAMES = {
    "quoridor": {"options": {"size": [9, 7, 5, 3], "players": [2, 4], "walls": None, "max_plies": None},
                 "engine": "alphabeta:time=1"},
    "crosswise": {"options": {"players": [2, 3, 4]}, "engine": "ismcts:time=1"},
    "qwatrobat": {"options": {"open": [False, True], "cards": [8, 10], "last_round_points": [6, 5],
                              "clear_four": [True, False]}, "engine": "ismcts:time=1"},
    "kreuzundquer": {"options": {"players": [2, 3, 4], "races": None, "deck_seed": None},
                     "engine": "greedy"},
}
USER_ERRORS = (CrossridorError, ValueError, KeyError, TypeError)


def error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def json_body(request: Request) -> dict:
    body = await request.body()
    if len(body) > MAX_BODY:
        raise CrossridorError(f"request too large (at most {MAX_BODY // 2 ** 20} MB)")
    try:
        data = json.loads(body or b"{}")
    except json.JSONDecodeError as exc:
        raise CrossridorError(f"the request is not JSON: {exc.msg} at line {exc.lineno}") from None
    if not isinstance(data, dict):
        raise CrossridorError("the request must be a JSON object")
    return data


def api(handler):
    """Bad input -> 400 with one line of JSON, never a traceback."""
    async def wrapped(request: Request):
        try:
            return await handler(request)
        except USER_ERRORS as exc:
            return error(str(exc))
    return wrapped


async def index(request: Request):
    return FileResponse(STATIC / "index.html")


async def favicon(request: Request):
    return Response(status_code=204)


async def games(request: Request):
    return JSONResponse({"games": {name: GAMES[name] for name in game_names() if name in GAMES},
                         "algorithms": algorithm_names()})


async def health(request: Request):
    return JSONResponse({"ok": True, "searches": searching.running(), "tabs": len(request.app.state.tabs)})


@api
async def best(request: Request):
    """{game, options, moves|position, seed, engine} -> the engine's move."""
    data = await json_body(request)
    state = make_state(data)
    if state.is_terminal():
        raise CrossridorError("the game is over: there is no move to search")
    spec = searching.check_spec(str(data.get("engine") or "alphabeta:time=1"))
    stop = request.app.state.new_stop()
    try:
        result = await searching.in_thread(searching.stoppable_search, state.clone(), spec,
                                           data.get("search_seed"), stop)
    finally:
        stop.set()
    return JSONResponse(result.as_dict() if result else {"move": None})


@api
async def render(request: Request):
    """{game, options, moves|position, seed, viewer} -> {svg, view, legal}.
    The page gave the whole position, so it may see all of it."""
    data = await json_body(request)
    state = make_state(data)
    viewer = data.get("viewer")
    return JSONResponse(state_message(state, viewer, legal=bool(data.get("legal"))))


@api
async def replay(request: Request):
    """A match records file (one JSON object a line) -> its games, each
    checked by replaying its moves."""
    body = (await request.body()).decode("utf-8", errors="replace")
    if len(body) > MAX_BODY:
        raise CrossridorError(f"records file too large (at most {MAX_BODY // 2 ** 20} MB)")
    out, errors = [], []
    for lineno, line in enumerate(body.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = GameRecord.from_dict(json.loads(line))
            game = resolve_game(rec.game, rec.params)
            dealt = rec.deal_seed is not None and (game.traits.chance or game.traits.hidden_information)
            state = game.new_state(None, seed=rec.deal_seed) if dealt else new_game_state(game)
            for ply, move in enumerate(rec.moves):
                try:
                    state.play(move)
                except ValueError as exc:
                    raise CrossridorError(f"move {ply + 1} ({move}): {exc}") from None
        except (json.JSONDecodeError, TypeError) as exc:
            errors.append(f"line {lineno}: not a game record ({exc})")
            continue
        except USER_ERRORS as exc:
            errors.append(f"line {lineno}: {exc}")
            continue
        seed = rec.deal_seed if dealt else None
        out.append({"index": rec.index, "game": rec.game, "options": rec.params, "seed": seed,
                    "engines": rec.engines, "result": rec.result, "reason": rec.reason, "moves": rec.moves})
    if not out and not errors:
        raise CrossridorError("the file holds no game records")
    return JSONResponse({"games": out, "errors": errors[:20]})


async def websocket(ws: WebSocket):
    await ws.accept()

    async def send(msg: dict) -> None:
        try:
            await ws.send_json(msg)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass                      # the tab has gone; its search is being stopped

    tab = Tab(send)
    ws.app.state.tabs.add(tab)
    try:
        while True:
            try:
                msg = await ws.receive_json()
            except (json.JSONDecodeError, UnicodeDecodeError, KeyError):
                await send({"type": "error", "message": "messages are JSON objects"})
                continue
            try:
                if not isinstance(msg, dict):
                    raise CrossridorError("messages are JSON objects")
                await tab.handle(msg)
            except USER_ERRORS as exc:
                await send({"type": "error", "message": str(exc)})
    except WebSocketDisconnect:
        pass
    finally:
        await tab.close()            # the tab went away: stop its search
        ws.app.state.tabs.discard(tab)


def create_app() -> Starlette:
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
    ])
    app.state.tabs = set()
    app.state.new_stop = Stop
    return app


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so that a port in use is one clear
    error (OSError) before the server starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def serve(host: str = "127.0.0.1", port: int = 8000, on_ready=None) -> None:
    import uvicorn
    sock = bind(host, port)
    if on_ready is not None:
        on_ready(sock.getsockname()[1])
    # open WebSockets (idle tabs) must not hold up Ctrl-C or SIGTERM for long
    server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning", timeout_graceful_shutdown=2))
    server.run(sockets=[sock])


__all__ = ["create_app", "serve", "legal_list"]
