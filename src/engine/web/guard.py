"""The web app's trust boundary at the door (see SECURITY.md): an ASGI
middleware in front of every route.

* Host must be the bound host, localhost, 127.0.0.1 or [::1] (or the host of
  an `--allow-origin` origin), with the bound port: a page of another site
  cannot reach the server through a DNS name rebound to 127.0.0.1.
* Origin, when a browser sends one, must be the server's own origin or one
  of `--allow-origin`: checked on the WebSocket and on every POST, so that
  another site's page can neither hijack a WebSocket nor post a form.
* At most `max_requests` HTTP requests at a time; beyond, a JSON 503.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")


def split_host(value: str) -> tuple[str, int | None] | None:
    """A Host header (or an origin's netloc) -> (hostname, port); None if malformed."""
    try:
        parts = urlsplit("//" + value)
        return (parts.hostname or "").lower(), parts.port
    except ValueError:
        return None


class Guard:
    def __init__(self, app, host: str = "127.0.0.1", port: int | None = None,
                 allow_origins=(), max_requests: int = 64):
        self.app = app
        self.port = port
        self.allow_origins = {o.rstrip("/").lower() for o in allow_origins}
        self.hosts = {host.strip("[]").lower(), *LOCAL_HOSTS}
        for origin in self.allow_origins:
            named = split_host(urlsplit(origin).netloc)
            if named:
                self.hosts.add(named[0])
        self.max_requests = max_requests
        self.requests = 0

    def refusal(self, scope) -> str | None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        host = headers.get("host", "")
        named = split_host(host)
        if named is None or named[0] not in self.hosts or (
                self.port is not None and (named[1] or 80) != self.port):
            return f"host {host!r} is not served here"
        origin = headers.get("origin")
        needs_origin_check = scope["type"] == "websocket" or scope.get("method", "GET") not in ("GET", "HEAD")
        if origin is not None and needs_origin_check:
            same = {f"http://{host}".lower(), f"https://{host}".lower()}
            if origin.rstrip("/").lower() not in same | self.allow_origins:
                return f"origin {origin!r} is not allowed (serve --allow-origin adds one)"
        return None

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        why = self.refusal(scope)
        if why is not None:
            if scope["type"] == "websocket":     # refuse the handshake (HTTP 403)
                await receive()
                return await send({"type": "websocket.close", "code": 1008, "reason": why[:120]})
            return await json_response(send, 403, why)
        if scope["type"] == "websocket":
            return await self.app(scope, receive, send)
        if self.requests >= self.max_requests:
            return await json_response(send, 503, f"busy: {self.max_requests} requests are open; try again shortly")
        self.requests += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.requests -= 1


async def json_response(send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
