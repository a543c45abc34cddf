"""The audit page: a local web server (127.0.0.1) showing one drawn item at a time; each
answer is saved as it is given, so that a restart continues where the person stopped."""

from __future__ import annotations

import errno
import re
import sys
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, get_args
from urllib.parse import parse_qs

from jinja2 import Environment, PackageLoader, select_autoescape

from medhalbench._errors import MedhalbenchError
from medhalbench.audit._answers import Answer, AuditAnswer, answers_path, read_answers, save_answer
from medhalbench.audit._items import AuditedLog, draw
from medhalbench.registry import AuditItem

ANSWERS: tuple[Answer, ...] = get_args(Answer)
_ITEM_PATH = re.compile(r"^/item/(\d+)$")
_environment = Environment(
    loader=PackageLoader("medhalbench.audit", "templates"), autoescape=select_autoescape()
)


@dataclass(frozen=True)
class Drawn:
    """A drawn item and the log it is of."""

    log: AuditedLog
    item: AuditItem


@dataclass
class AuditSession:
    """One person's audit of some logs: the drawn items, in the order shown."""

    logs: list[AuditedLog]
    annotator: str
    items_per_log: int
    seed: int

    def __post_init__(self) -> None:
        self.drawn = [
            Drawn(log, item)
            for log in self.logs
            for item in draw(log.items, self.items_per_log, self.seed)
        ]

    def answers(self) -> dict[tuple[str, str], AuditAnswer]:
        """This person's answers on the drawn items, by (log, item key), read from disk."""
        found = {}
        for log in self.logs:
            for answer in read_answers(log.path):
                if answer.annotator == self.annotator:
                    found[(log.name, answer.key)] = answer
        return found

    def next_unanswered(self) -> int | None:
        """The first drawn item this person has not answered (None: all are)."""
        answers = self.answers()
        return next(
            (i for i, d in enumerate(self.drawn) if (d.log.name, d.item.key) not in answers), None
        )

    def save(self, index: int, answer: Answer, note: str) -> None:
        """Save this person's answer on a drawn item."""
        drawn = self.drawn[index]
        save_answer(
            drawn.log.path,
            AuditAnswer(
                benchmark=drawn.log.entry.name, log=drawn.log.name, key=drawn.item.key,
                verdict=drawn.item.verdict, answer=answer, note=note.strip() or None,
                annotator=self.annotator, seed=self.seed,
            ),
        )  # fmt: skip

    def page(self, index: int | None) -> str:
        """The page of a drawn item, or the closing page (`index` None)."""
        answers = self.answers()
        context: dict[str, Any] = {
            "annotator": self.annotator,
            "total": len(self.drawn),
            "answered": sum((d.log.name, d.item.key) in answers for d in self.drawn),
            "files": sorted({str(answers_path(log.path)) for log in self.logs}),
        }
        if index is not None:
            drawn = self.drawn[index]
            audit = drawn.log.audit
            context.update(
                index=index,
                drawn=drawn,
                question=audit.question.format(verdict=drawn.item.verdict),
                judge=audit.judge,
                focus=audit.focus,
                given=answers.get((drawn.log.name, drawn.item.key)),
                choices=ANSWERS,
            )
        return _environment.get_template("audit.html.j2").render(context)


def _handler(session: AuditSession) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return  # the terminal shows the progress, not each request

        def _send(self, status: HTTPStatus, body: str = "", location: str | None = None) -> None:
            data = body.encode("utf-8")
            self.send_response(status)
            if location:
                self.send_header("Location", location)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def _index(self) -> int | None:
            match = _ITEM_PATH.match(self.path)
            if match and int(match.group(1)) < len(session.drawn):
                return int(match.group(1))
            return None

        def do_GET(self) -> None:
            if self.path == "/":
                index = session.next_unanswered()
                self._send(
                    HTTPStatus.SEE_OTHER, location="/done" if index is None else f"/item/{index}"
                )
            elif self.path == "/done":
                self._send(HTTPStatus.OK, session.page(None))
            elif (index := self._index()) is not None:
                self._send(HTTPStatus.OK, session.page(index))
            else:
                self._send(HTTPStatus.NOT_FOUND, "no such page")

        def do_POST(self) -> None:
            index = self._index()
            length = int(self.headers.get("Content-Length") or 0)
            form = parse_qs(self.rfile.read(length).decode("utf-8"))
            answer = (form.get("answer") or [""])[0]
            if index is None or answer not in ANSWERS:
                self._send(HTTPStatus.BAD_REQUEST, "expected an answer on an item")
                return
            session.save(index, answer, (form.get("note") or [""])[0])
            self._send(HTTPStatus.SEE_OTHER, location="/")

    return Handler


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A page closed mid-request is no error of ours; anything else is reported.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def audit_server(session: AuditSession, port: int) -> ThreadingHTTPServer:
    """The audit page's server on 127.0.0.1:`port` (0: any free port).

    Raises:
        MedhalbenchError: The port is in use (or cannot be had).
    """
    try:
        return _Server(("127.0.0.1", port), _handler(session))
    except OSError as ex:
        if ex.errno == errno.EADDRINUSE:
            raise MedhalbenchError(f"--port {port}: in use; choose another with --port") from None
        raise MedhalbenchError(f"--port {port}: cannot serve on it ({ex.strerror})") from None
