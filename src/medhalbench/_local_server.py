"""What every local server we start has in common (the audit page, `medhalbench serve`):
uvicorn on 127.0.0.1 in a thread of its own, answering only under its own Host names,
bounding each request's head in size and in time (the first on a connection and every one
after it on a kept-alive connection), and saying a client's disconnect in one line.

A page on another site that points its own name at 127.0.0.1 (DNS rebinding) sends its own
Host: a request whose Host is not ours is refused before anything else reads it.
"""

from __future__ import annotations

import asyncio
import errno
import socket
import threading
import time
from collections.abc import Callable, Iterable

import uvicorn
from starlette.requests import ClientDisconnect, Request
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol, RequestResponseCycle

from medhalbench._errors import MedhalbenchError

MAX_HEAD_BYTES = 16 * 1024
"""The largest request head (its request line and headers) served."""
HEAD_TIMEOUT = 10.0
"""Seconds a request head may take to arrive, on a new connection or a kept-alive one (a slow
or silent one is dropped, not held open)."""
START_TIMEOUT = 30.0
"""Seconds a server may take to start listening."""

Warn = Callable[[str], None]
"""Where a server says what went wrong with a request (one line each)."""


class _HeadTimeout(H11Protocol):
    """uvicorn's h11 protocol, dropping a connection whose next request head has not
    arrived within `head_timeout` seconds (uvicorn waits for it without end: its keep-alive
    limit stops once a first byte comes)."""

    head_timeout = HEAD_TIMEOUT

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_head()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._await_head()

    def _await_head(self) -> None:
        self.loop.call_later(self.head_timeout, self._head_expired, self.cycle)

    def _head_expired(self, waiting: RequestResponseCycle | None) -> None:
        # No new request since the wait began: the cycle is the one of the last response.
        if self.cycle is waiting and not self.transport.is_closing():
            self.transport.close()


def local_hosts(port: int, allowed: Iterable[str] = ()) -> set[str]:
    """The Host headers a server on 127.0.0.1:`port` answers: its address by IP or by name,
    with its port (alone on port 80), and those a user allows (a container's name, a
    forwarded port's)."""
    names = ("127.0.0.1", "localhost")
    own = {f"{n}:{port}" for n in names} | (set(names) if port == 80 else set())
    return own | {h.strip().lower() for h in allowed}


def origins(hosts: Iterable[str]) -> set[str]:
    """The Origin headers of pages served under these Host names."""
    return {f"http://{host}" for host in hosts}


def refusal(status: int, reason: str, headers: dict[str, str] | None = None) -> Response:
    """A request refused, with its reason as text."""
    return PlainTextResponse(reason + "\n", status_code=status, headers=headers)


class LocalGuard:
    """The Host names a server answers under (`local_hosts`) and the head it accepts (and
    what else its own `check` asks): every other request is refused before the app sees
    it, and a client that leaves mid-request is said in one line.

    Args:
        app: The server's app.
        hosts: The Host headers answered.
        warn: Told of each client that left mid-request.
        headers: Headers every refusal carries.
        check: The server's own refusal of a request (None where it takes it).
    """

    def __init__(
        self,
        app: ASGIApp,
        hosts: set[str],
        *,
        warn: Warn,
        headers: dict[str, str] | None = None,
        check: Callable[[Request], Response | None] = lambda request: None,
    ) -> None:
        self.app = app
        self.hosts = hosts
        self.warn = warn
        self.headers = headers
        self.check = check

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        refused = self._refusal(request)
        try:
            await (refused or self.app)(scope, receive, send)
        except ClientDisconnect:
            self.warn(f"a client left before its request to {request.url.path[:80]} arrived")

    def _refusal(self, request: Request) -> Response | None:
        target = len(request.scope.get("raw_path") or b"") + len(request.scope["query_string"])
        if target > MAX_HEAD_BYTES:
            return refusal(414, f"request path over {MAX_HEAD_BYTES:,} bytes", self.headers)
        if sum(len(k) + len(v) for k, v in request.scope["headers"]) > MAX_HEAD_BYTES:
            return refusal(431, f"request headers over {MAX_HEAD_BYTES:,} bytes", self.headers)
        host = request.headers.getlist("host")
        if len(host) != 1:
            return refusal(400, "expected one Host header", self.headers)
        if host[0].lower() not in self.hosts:
            return refusal(
                403, f"this server answers only at {', '.join(sorted(self.hosts))}", self.headers
            )
        lengths = request.headers.getlist("content-length")
        if len(lengths) > 1 or (lengths and not lengths[0].strip().isdigit()):
            return refusal(400, "malformed Content-Length", self.headers)
        return self.check(request)


class LocalServer:
    """An app served by uvicorn on 127.0.0.1, in a thread of its own.

    Args:
        app: The app (behind its `LocalGuard`).
        socket: The listening socket (`listening_socket`).
        head_timeout: Seconds a request head may take.
        what: What it is, for messages (`the audit page`).

    Raises:
        MedhalbenchError: The port is in use (or cannot be had).
    """

    def __init__(
        self, app: ASGIApp, socket: socket.socket, *, what: str, head_timeout: float = HEAD_TIMEOUT
    ) -> None:
        self.socket = socket
        self.port = int(socket.getsockname()[1])
        self.what = what
        self.server = uvicorn.Server(
            uvicorn.Config(
                app,
                # h11 bounds a request's head (h11_max_incomplete_event_size); a head that
                # does not arrive in time drops the connection.
                http=type("HeadTimeout", (_HeadTimeout,), {"head_timeout": head_timeout}),
                log_level="error",  # a malformed request is answered 400, not logged
                log_config=None,
                access_log=False,
                lifespan="off",
                server_header=False,
                date_header=False,
                timeout_keep_alive=5,
                timeout_graceful_shutdown=2,
                limit_concurrency=64,
                h11_max_incomplete_event_size=MAX_HEAD_BYTES,
            )
        )
        self._thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [socket]}, daemon=True
        )

    def start(self) -> None:
        """Serve, returning once the server listens.

        Raises:
            MedhalbenchError: It did not start.
        """
        self._thread.start()
        deadline = time.monotonic() + START_TIMEOUT
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise MedhalbenchError(f"--port {self.port}: {self.what} did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        """Stop serving (requests in flight finish first) and release the port."""
        self.server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(timeout=10)
        self.socket.close()


def listening_socket(port: int) -> socket.socket:
    """A socket listening on 127.0.0.1:`port` (0: any free port).

    Raises:
        MedhalbenchError: The port is in use, or cannot be had.
    """
    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(("127.0.0.1", port))
        listening.listen(64)
    except OSError as ex:
        listening.close()
        if ex.errno == errno.EADDRINUSE:
            raise MedhalbenchError(f"--port {port}: in use; choose another with --port") from None
        raise MedhalbenchError(f"--port {port}: cannot serve on it ({ex.strerror})") from None
    return listening
