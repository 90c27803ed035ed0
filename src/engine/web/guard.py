"""The web app's trust boundary at the door (see SECURITY.md): an ASGI
middleware in front of every route, and the HTTP protocol uvicorn serves it
with.

* Host must be exactly a host and an optional port (a hostname, an IPv4
  address or a bracketed IPv6 address; the port digits without a leading
  zero): the bound host, localhost, 127.0.0.1 or [::1] (or the host of an
  `--allow-origin` origin), with the bound port. A page of another site
  cannot reach the server through a DNS name rebound to 127.0.0.1.
* Origin, when a browser sends one, must be the server's own origin or one
  of `--allow-origin`: checked on the WebSocket and on every POST, so that
  another site's page can neither hijack a WebSocket nor post a form. A
  request with two Host or two Origin headers is refused: which one counts
  would be a guess.
* Every response forbids framing and MIME sniffing and carries a
  Content-Security-Policy that lets the page load only its own files.
* Slow clients cannot hold the server: a request's headers must arrive
  within `header_timeout` seconds and its body within `body_timeout`
  (`ClientLimits`); requests still sending their bodies are counted apart
  (at most `bodies` per client address), so they never make other requests
  busy; at most `connections` HTTP connections per client address.
* At most `max_requests` HTTP requests at work at a time; beyond, a JSON 503.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import re
from collections import Counter
from dataclasses import dataclass
from urllib.parse import urlsplit

LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")

# host [":" port]: a DNS name or IPv4 address, or an IPv6 address in brackets
HOST_RE = re.compile(r"(?:\[(?P<ip6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?))"
                     r"(?::(?P<port>[1-9][0-9]{0,4}))?")


@dataclass(frozen=True)
class ClientLimits:
    """How long and how much one client may hold the server."""
    header_timeout: float = 10.0       # seconds for a request's headers (from the connection or the last answer)
    body_timeout: float = 10.0         # seconds for a request's whole body (from its headers)
    keep_alive: int = 5                # seconds an idle connection stays open between requests
    connections: int = 32              # open HTTP connections per client address (WebSockets: --max-tabs)
    bodies: int = 8                    # requests still sending their bodies, per client address
    header_bytes: int = 16 * 1024      # a request line and its headers


def split_host(value: str) -> tuple[str, int | None] | None:
    """A Host header (or an origin's netloc) -> (hostname, port); None
    unless it is exactly a host and an optional port."""
    match = HOST_RE.fullmatch(value)
    if match is None:
        return None
    host = match["ip6"] or match["name"]
    if match["ip6"] is not None:
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return None
    port = match["port"]
    return host.lower(), None if port is None else int(port)


def security_headers(host: str | None) -> list[tuple[bytes, bytes]]:
    """No framing, no MIME sniffing, and a policy under which the page loads
    only its own script, style sheet and API (its WebSocket on `host`, the
    checked Host header; its SVG boards carry style attributes)."""
    # 'self' covers the WebSocket in current browsers; naming it helps older
    # ones (not for an IPv6 literal, which a CSP source cannot name)
    sockets = f" ws://{host} wss://{host}" if host and not host.startswith("[") else ""
    policy = (f"default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
              f"img-src 'self'; connect-src 'self'{sockets}; object-src 'none'; base-uri 'none'; "
              f"form-action 'self'; frame-ancestors 'none'")
    return [(b"x-frame-options", b"DENY"), (b"x-content-type-options", b"nosniff"),
            (b"content-security-policy", policy.encode("ascii"))]


def with_headers(send, extra: list[tuple[bytes, bytes]]):
    """`send` adding `extra` to the response's headers."""
    async def send_with(message):
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", ()), *extra]}
        await send(message)
    return send_with


def ascii_text(text: str) -> str:
    """`text` with every non-ASCII character escaped: always encodable."""
    return text.encode("ascii", "backslashreplace").decode("ascii")


class BodyLate(Exception):
    """A request's body did not arrive in time (answered 408 by the Guard)."""


class Guard:
    def __init__(self, app, host: str = "127.0.0.1", port: int | None = None,
                 allow_origins=(), max_requests: int = 64, limits: ClientLimits = ClientLimits()):
        self.app = app
        self.port = port
        self.allow_origins = {o.rstrip("/").lower() for o in allow_origins}
        self.hosts = {host.strip("[]").lower(), *LOCAL_HOSTS}
        for origin in self.allow_origins:
            named = split_host(urlsplit(origin).netloc)
            if named:
                self.hosts.add(named[0])
        self.max_requests = max_requests
        self.limits = limits
        self.requests = 0               # requests at work (their bodies, if any, received)
        self.reading: Counter = Counter()   # client address -> requests still sending their bodies

    def refusal(self, scope) -> tuple[int, str] | None:
        """(status, why) if the request is refused at the door."""
        headers: dict[str, list[str]] = {}
        for key, value in scope.get("headers", ()):
            headers.setdefault(key.decode("latin-1").lower(), []).append(value.decode("latin-1"))
        for name in ("host", "origin"):
            if len(headers.get(name, ())) > 1:
                return 400, f"a request has at most one {name.capitalize()} header"
        host = headers.get("host", [""])[0]
        named = split_host(host)
        if named is None or named[0] not in self.hosts or (
                self.port is not None and (named[1] or 80) != self.port):
            return 403, f"host {host!r} is not served here"
        origin = headers.get("origin", [None])[0]
        needs_origin_check = scope["type"] == "websocket" or scope.get("method", "GET") not in ("GET", "HEAD")
        if origin is not None and needs_origin_check:
            same = {f"http://{host}".lower(), f"https://{host}".lower()}
            if origin.rstrip("/").lower() not in same | self.allow_origins:
                return 403, f"origin {origin!r} is not allowed (serve --allow-origin adds one)"
        return None

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        refused = self.refusal(scope)
        if refused is not None:
            status, why = refused
            if scope["type"] == "websocket":     # refuse the handshake (HTTP 403)
                await receive()
                return await send({"type": "websocket.close", "code": 1008, "reason": ascii_text(why)[:120]})
            return await json_response(with_headers(send, security_headers(None)), status, why, close=True)
        if scope["type"] == "websocket":
            return await self.app(scope, receive, send)
        return await self.serve_http(scope, receive, send)

    async def serve_http(self, scope, receive, send):
        headers = {key.lower(): value for key, value in scope.get("headers", ())}
        host = headers[b"host"].decode("latin-1")      # checked by refusal(): one, well formed
        send_headed = with_headers(send, security_headers(host))
        started = False

        async def send_guarded(message):
            nonlocal started
            started = True
            await send_headed(message)

        client = (scope.get("client") or ("",))[0]
        reading = headers.get(b"content-length", b"0") != b"0" or b"transfer-encoding" in headers
        if self.requests >= self.max_requests:
            return await json_response(send_guarded, 503, f"busy: {self.requests} requests are open; "
                                                          f"try again shortly", close=reading)
        if reading and (self.reading[client] >= self.limits.bodies or
                        sum(self.reading.values()) >= self.max_requests):
            return await json_response(send_guarded, 503, f"busy: {self.reading[client]} requests from "
                                                          f"{client} are still sending their bodies; "
                                                          f"try again shortly", close=True)
        deadline = asyncio.get_running_loop().time() + self.limits.body_timeout

        def body_received() -> None:
            nonlocal reading
            reading = False
            self.forget_reader(client)
            self.requests += 1

        async def receive_in_time():
            if not reading:
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), deadline - asyncio.get_running_loop().time())
            except TimeoutError:
                raise BodyLate from None
            if message["type"] != "http.request" or not message.get("more_body", False):
                body_received()
            return message

        if reading:
            self.reading[client] += 1
        else:
            self.requests += 1
        try:
            await self.app(scope, receive_in_time, send_guarded)
        except BodyLate:
            if started:
                raise
            await json_response(send_guarded, 408, f"the request's body did not arrive within "
                                                   f"{self.limits.body_timeout:g} s", close=True)
        finally:
            if reading:
                self.forget_reader(client)
            else:
                self.requests -= 1

    def forget_reader(self, client: str) -> None:
        self.reading[client] -= 1
        if self.reading[client] <= 0:
            del self.reading[client]


async def json_response(send, status: int, message: str, close: bool = False) -> None:
    """A one-line JSON error; `close`: the connection too (its body is not read)."""
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def http_protocol(limits: ClientLimits):
    """uvicorn's h11 protocol with what it lacks: a deadline for each
    request's headers, counted from the connection or from the last answer
    (uvicorn's keep-alive timeout ends only idle connections, not slow
    ones), and at most `limits.connections` connections per client address."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    per_client: Counter = Counter()

    class DoorProtocol(H11Protocol):
        counted_as: str | None = None
        headers_due: asyncio.TimerHandle | None = None

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            address = self.client[0] if self.client else ""
            if per_client[address] >= limits.connections:
                body = json.dumps({"error": f"busy: {limits.connections} connections from {address} "
                                            f"are open; close some"}).encode()
                transport.write(b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
                                b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(body), body))
                transport.close()
                return
            per_client[address] += 1
            self.counted_as = address
            self.expect_request()

        def expect_request(self) -> None:
            """Close the connection unless a request starts within the header timeout."""
            self.cancel_timer()
            if self.transport.is_closing():
                return
            waiting_after = self.cycle

            def late() -> None:
                if self.cycle is waiting_after and not self.transport.is_closing():
                    self.transport.close()
            self.headers_due = self.loop.call_later(limits.header_timeout, late)

        def cancel_timer(self) -> None:
            if self.headers_due is not None:
                self.headers_due.cancel()
                self.headers_due = None

        def forget(self) -> None:
            self.cancel_timer()
            if self.counted_as is not None:
                per_client[self.counted_as] -= 1
                if per_client[self.counted_as] <= 0:
                    del per_client[self.counted_as]
                self.counted_as = None

        def connection_lost(self, exc) -> None:
            self.forget()
            super().connection_lost(exc)

        def handle_websocket_upgrade(self, event) -> None:
            self.forget()              # a WebSocket is a tab: capped by --max-tabs, pinged by uvicorn
            super().handle_websocket_upgrade(event)

        def on_response_complete(self) -> None:
            self.expect_request()      # first: a pipelined request may start in there
            super().on_response_complete()

    return DoorProtocol
