"""`medhalbench serve`'s front: the engine's OpenAI-compatible server, answered as its peers
(vLLM, llama.cpp's server) answer.

The engine listens on a free port of its own, behind a key only the front knows; the front,
on the user's port, answers only under its own Host names (`_local_server.LocalGuard`),
asks for the user's key where one is set, sends CORS headers only to pages of its own
origin, and answers only the model it serves: a request naming another model is a 404 that
names the served one, as vLLM answers, never another model's reply under that name.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterable
from typing import Any

import httpx
from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.types import Receive, Scope, Send

from medhalbench._local_server import (
    LocalGuard,
    LocalServer,
    Warn,
    local_hosts,
    origins,
)

MAX_REQUEST_BYTES = 32 * 1024**2
"""The largest request body forwarded (a long context is a few MB of JSON)."""
_FORWARDED = (
    "/v1/chat/completions", "/v1/completions", "/v1/models", "/health", "/v1/health", "/props",
)  # fmt: skip
"""The paths the front forwards: the OpenAI-compatible API, the health check and the
server's properties (its slots: `commands.server_slots`)."""
_PREFLIGHT = {
    "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
    "Access-Control-Allow-Headers": "Authorization, Content-Type",
    "Access-Control-Max-Age": "600",
}


def _error(status: int, message: str, kind: str) -> JSONResponse:
    """An error in the OpenAI API's shape, as its clients read it."""
    return JSONResponse(
        {"error": {"message": message, "type": kind, "code": status}}, status_code=status
    )


class Front:
    """The front's ASGI app: checks a request, then forwards it to the engine.

    Args:
        engine: The engine's address (`http://127.0.0.1:PORT`).
        engine_key: The key the engine asks for (the front's own).
        alias: The name of the model served.
        api_key: The key a client must send (None: none).
        origins: The Origin headers of pages under the front's own names.
    """

    def __init__(
        self, engine: str, engine_key: str, alias: str, api_key: str | None, origins: set[str]
    ) -> None:
        self.alias = alias
        self.api_key = api_key
        self.origins = origins
        self.client = httpx.AsyncClient(
            base_url=engine,
            headers={"Authorization": f"Bearer {engine_key}"},
            timeout=httpx.Timeout(None, connect=10.0),
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        response = await self._answer(request)
        origin = request.headers.get("origin")
        if origin is not None and origin in self.origins:
            response.headers["Access-Control-Allow-Origin"] = origin
            response.headers["Vary"] = "Origin"
        await response(scope, receive, send)

    async def _answer(self, request: Request) -> Response:
        origin = request.headers.get("origin")
        if request.method == "OPTIONS":
            if origin not in self.origins:
                return _error(
                    403,
                    "cross-origin requests are answered only from this server's own pages",
                    "forbidden",
                )
            return Response(status_code=204, headers=_PREFLIGHT)
        if request.url.path not in _FORWARDED:
            return _error(404, f"no such endpoint: {request.url.path[:80]}", "not_found_error")
        if self.api_key is not None and request.headers.get("authorization") != (
            f"Bearer {self.api_key}"
        ):
            return _error(401, "invalid or missing API key", "authentication_error")
        body = b""
        if request.method == "POST":
            body = await request.body()
            if len(body) > MAX_REQUEST_BYTES:
                return _error(
                    413, f"request over {MAX_REQUEST_BYTES:,} bytes", "invalid_request_error"
                )
            refused = self._model_refusal(body)
            if refused is not None:
                return refused
        upstream = await self.client.send(
            self.client.build_request(
                request.method,
                request.url.path,
                params=request.query_params,
                content=body or None,
                headers={"Content-Type": request.headers.get("content-type", "application/json")},
            ),
            stream=True,
        )
        return StreamingResponse(
            upstream.aiter_raw(),
            status_code=upstream.status_code,
            headers={
                k: v
                for k, v in upstream.headers.items()
                if k.lower() in ("content-type", "cache-control")
            },
            background=BackgroundTask(upstream.aclose),
        )

    def _model_refusal(self, body: bytes) -> Response | None:
        """A request that names another model than the one served: 404, as vLLM answers."""
        try:
            asked: Any = json.loads(body)
        except ValueError:
            return _error(400, "the request body is not JSON", "invalid_request_error")
        model = asked.get("model") if isinstance(asked, dict) else None
        if model is not None and model != self.alias:
            return _error(
                404,
                f"The model `{str(model)[:200]}` does not exist; this server serves `{self.alias}`.",
                "NotFoundError",
            )
        return None


def serve_front(
    engine: str,
    engine_key: str,
    *,
    alias: str,
    api_key: str | None,
    listening: socket.socket,
    allowed_hosts: Iterable[str],
    warn: Warn,
) -> LocalServer:
    """The front on its listening socket (`listening_socket`: bound before the engine
    takes a free port of its own, so that it cannot take the user's), not yet started."""
    hosts = local_hosts(int(listening.getsockname()[1]), allowed_hosts)
    front = Front(engine, engine_key, alias, api_key, origins(hosts))
    return LocalServer(LocalGuard(front, hosts, warn=warn), listening, what="the server")
