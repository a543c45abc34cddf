"""The audit page: a local web app (Starlette on uvicorn, as inspect's own viewer) showing
one drawn item at a time; each answer is saved as it is given, so that a restart continues
where the person stopped. It serves only the person who started it, and only its own page
(the README's "The audit page serves only the person who started it": a token in every
address, Host and Origin checked, CSRF tokens, autoescaped templates, bounded requests)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sys
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

import anyio
from jinja2 import Environment, PackageLoader
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp

from medhalbench._errors import MedhalbenchError
from medhalbench._local_server import (
    HEAD_TIMEOUT,
    LocalGuard,
    LocalServer,
    Warn,
    listening_socket,
    local_hosts,
    origins,
    refusal,
)
from medhalbench._secrets import redact
from medhalbench.audit._session import MAX_NOTE_CHARS, AnswerNotSaved, AuditSession
from medhalbench.text import printable

MAX_BODY_BYTES = 64 * 1024
"""The largest request body read (an answer and a note fit many times over)."""
BODY_TIMEOUT = 10.0
"""Seconds a request's body may take to arrive."""
_environment = Environment(loader=PackageLoader("medhalbench.audit", "templates"), autoescape=True)


@dataclass(frozen=True)
class PageGuard:
    """What a request must show to be served: the address's token, our Host, our Origin
    (on a POST) and the item's form token."""

    port: int
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    form_key: bytes = field(default_factory=lambda: secrets.token_bytes(32))

    @property
    def base(self) -> str:
        """The path every page is under."""
        return f"/{self.token}"

    @property
    def url(self) -> str:
        """The page's address, token included (what the terminal prints)."""
        return f"http://127.0.0.1:{self.port}{self.base}/"

    def hosts(self) -> set[str]:
        """The Host headers served: our address by IP or by name, with our port."""
        return local_hosts(self.port)

    def origins(self) -> set[str]:
        """The Origin a POST from our own page carries."""
        return origins(self.hosts())

    def form_token(self, index: int) -> str:
        """The form token of an item's page (a POST must send back the one of its item)."""
        return hmac.new(self.form_key, f"item/{index}".encode(), hashlib.sha256).hexdigest()

    def refusal(self, request: Request) -> Response | None:
        """What a request of our own page must also show: the token in its path (403), our
        Origin on a POST (403), a body of a bounded size (413)."""
        if not self.has_token(request.url.path):
            return _refusal(403, "open the address printed in the terminal (it holds a token)")
        lengths = request.headers.getlist("content-length")
        if lengths and int(lengths[0]) > MAX_BODY_BYTES:
            return _refusal(413, f"request body over {MAX_BODY_BYTES:,} bytes")
        if request.method == "POST" and request.headers.get("origin") not in self.origins():
            return _refusal(403, "a form may be sent only from the audit page itself")
        return None

    def has_token(self, path: str) -> bool:
        """Whether a request path is under the page's tokenised prefix."""
        first = path.split("/", 2)[1] if path.startswith("/") else ""
        return hmac.compare_digest(first.encode(), self.token.encode())


def _refusal(status: int, reason: str) -> Response:
    return refusal(status, reason, _HEADERS)


_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # Not no-referrer: with it, browsers send `Origin: null` on the page's own form posts.
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


async def _read_body(request: Request) -> bytes:
    """The request's body, at most `MAX_BODY_BYTES` (a chunked body is counted as it
    comes), within `BODY_TIMEOUT` seconds.

    Raises:
        _BadRequest: Too large (413) or too slow (408).
    """
    body = bytearray()
    try:
        with anyio.fail_after(BODY_TIMEOUT):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY_BYTES:
                    raise _BadRequest(413, f"request body over {MAX_BODY_BYTES:,} bytes")
    except TimeoutError:
        raise _BadRequest(
            408, f"the request's body did not arrive in {BODY_TIMEOUT:.0f} s"
        ) from None
    return bytes(body)


class _BadRequest(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def _stderr(message: str) -> None:
    print(f"audit page: {message}", file=sys.stderr, flush=True)


def audit_app(session: AuditSession, guard: PageGuard, warn: Warn = _stderr) -> ASGIApp:
    """The audit page as an ASGI app behind its guard.

    Args:
        session: The person's audit.
        guard: The token, host and origin the requests must show.
        warn: Told of each answer that could not be saved and each answer file that cannot
            be read (the page shows it too).
    """

    def html(body: str, status: int = 200, nonce: str = "") -> HTMLResponse:
        policy = (
            f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; "
            "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
        )
        # A log may hold a key a server quoted before redaction was ours: never served. Its
        # text may hold controls (a bidi override turns what is shown): shown escaped.
        return HTMLResponse(
            printable(redact(body)),
            status_code=status,
            headers={**_HEADERS, "Content-Security-Policy": policy},
        )

    def render(index: int | None, status: int = 200) -> HTMLResponse:
        nonce = secrets.token_urlsafe(16)
        csrf = guard.form_token(index) if index is not None else ""
        return html(
            session.page(index, base=guard.base, csrf=csrf, nonce=nonce), status, nonce=nonce
        )

    def trouble(status: int, message: str) -> HTMLResponse:
        warn(message)
        nonce = secrets.token_urlsafe(16)
        page = _environment.from_string(_TROUBLE).render(
            message=message, base=guard.base, nonce=nonce
        )
        return html(page, status, nonce=nonce)

    def item_index(request: Request) -> int | None:
        index = int(request.path_params["index"])
        return index if index < len(session.drawn) else None

    async def first_unanswered(request: Request) -> Response:
        index = session.next_unanswered()
        target = f"{guard.base}/done" if index is None else f"{guard.base}/item/{index}"
        return RedirectResponse(target, status_code=303, headers=_HEADERS)

    async def done(request: Request) -> Response:
        return render(None)

    async def show(request: Request) -> Response:
        index = item_index(request)
        return _refusal(404, "no such item") if index is None else render(index)

    async def answer(request: Request) -> Response:
        index = item_index(request)
        if index is None:
            return _refusal(404, "no such item")
        if request.headers.get("content-type", "").split(";")[0].strip() != (
            "application/x-www-form-urlencoded"
        ):
            return _refusal(415, "expected a form (application/x-www-form-urlencoded)")
        try:
            form = parse_qs(
                (await _read_body(request)).decode("utf-8"), max_num_fields=8, errors="strict"
            )
        except _BadRequest as ex:
            return _refusal(ex.status, ex.reason)
        except (UnicodeDecodeError, ValueError):
            return _refusal(400, "malformed form")
        if not hmac.compare_digest(
            (form.get("csrf") or [""])[0].encode(), guard.form_token(index).encode()
        ):
            return _refusal(403, "the form's token does not match this page: reload the page")
        try:
            given = session.given(index, form)
        except ValueError as ex:
            return _refusal(400, str(ex))
        note = (form.get("note") or [""])[0]
        if len(note) > MAX_NOTE_CHARS:
            return _refusal(
                413, f"the note is over {MAX_NOTE_CHARS:,} characters; shorten it and answer again"
            )
        try:
            session.save(index, given, note)
        except AnswerNotSaved as ex:
            return trouble(500, str(ex))
        # The item again: the person's answer beside the judge's, now revealed.
        return RedirectResponse(f"{guard.base}/item/{index}", status_code=303, headers=_HEADERS)

    app = Starlette(
        routes=[
            Route(f"{guard.base}/", first_unanswered, methods=["GET"]),
            Route(f"{guard.base}/done", done, methods=["GET"]),
            Route(f"{guard.base}/item/{{index:int}}", show, methods=["GET"]),
            Route(f"{guard.base}/item/{{index:int}}", answer, methods=["POST"]),
        ],
        exception_handlers={MedhalbenchError: lambda r, ex: trouble(500, str(ex))},
    )
    return LocalGuard(app, guard.hosts(), warn=warn, headers=_HEADERS, check=guard.refusal)


_TROUBLE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>medhalbench audit: not saved</title>
<style nonce="{{ nonce }}">body { font: 16px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 1.5rem auto; padding: 0 1rem; }
.error { color: #a40e26; font-weight: 600; }</style></head>
<body><p class="error" id="error">{{ message }}</p>
<p>Nothing else was lost. Fix the cause, then <a href="{{ base }}/">go back to the audit</a> and answer again.</p>
</body></html>
"""


def audit_server(
    session: AuditSession, port: int, warn: Warn = _stderr, head_timeout: float = HEAD_TIMEOUT
) -> AuditServer:
    """The audit page's server on 127.0.0.1:`port` (0: any free port), not yet started.

    Raises:
        MedhalbenchError: The port is in use (or cannot be had).
    """
    socket = listening_socket(port)
    guard = PageGuard(int(socket.getsockname()[1]))
    app = audit_app(session, guard, warn)
    return AuditServer(app, socket, what="the audit page", head_timeout=head_timeout, guard=guard)


class AuditServer(LocalServer):
    """The audit page served on 127.0.0.1 (`LocalServer`), with the guard of its page."""

    def __init__(self, *args: Any, guard: PageGuard, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.guard = guard

    @property
    def url(self) -> str:
        """The page's address, token included."""
        return self.guard.url
