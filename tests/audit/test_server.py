"""The audit page as a local web app should be: it serves only requests that carry its
token, name our host and (for a POST) come from its own page with the item's form token;
every stored text is rendered as text; oversize and malformed requests are refused with a
status, never a traceback or a hang; an answer that cannot be saved is said on the page and
on stderr. Driven with Starlette's TestClient and with raw sockets against real uvicorn."""

from __future__ import annotations

import html.parser
import json
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from helpers import start_audit
from medhalbench.audit import AuditSession, answers_path, audited_logs, read_answers
from medhalbench.audit import _server as server_module
from medhalbench.audit._server import MAX_BODY_BYTES, MAX_NOTE_CHARS, PageGuard, audit_app
from medhalbench.cli import cli

PORT = 8765
ORIGIN = f"http://127.0.0.1:{PORT}"
HOSTILE = [
    "<script>alert('statement')</script>",
    '"><img src=x onerror=alert(1)>',
    "</textarea><script>alert('reply')</script>",
    "<svg/onload=alert(1)>",
    "{{ 7*7 }} {% raw %}",
    "javascript:alert(1)",
    "\x1b]0;PWNED\x07 \x1b[31mred\x1b[0m",  # a terminal's window title and colour
    "abc\u202edcba",  # a bidi override: what follows is shown reversed
]
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture
def warnings() -> list[str]:
    return []


@pytest.fixture
def session(medhal_log: Path) -> AuditSession:
    return AuditSession(audited_logs([medhal_log]), "alice", 4, 0)


@pytest.fixture
def guard() -> PageGuard:
    return PageGuard(PORT)


@pytest.fixture
def client(session: AuditSession, guard: PageGuard, warnings: list[str]) -> Iterator[TestClient]:
    app = audit_app(session, guard, warn=warnings.append)
    with TestClient(app, base_url=ORIGIN, follow_redirects=False) as test_client:
        yield test_client


def form(client: TestClient, guard: PageGuard, index: int, **fields: str) -> dict[str, str]:
    """The fields of item `index`'s form as the page sends them (its form token read from
    the page), with `fields` on top."""
    page = client.get(f"{guard.base}/item/{index}")
    assert page.status_code == 200, page.text
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page.text)
    assert csrf is not None
    return {"csrf": csrf.group(1), "q:verdict": "factual", "note": "", **fields}


def post(
    client: TestClient, path: str, data: dict[str, str], origin: str | None = ORIGIN, **kw: Any
) -> Any:
    headers = {"origin": origin} if origin is not None else {}
    return client.post(path, data=data, headers={**headers, **kw.pop("headers", {})}, **kw)


def saved(session: AuditSession) -> list[Any]:
    return read_answers(session.logs[0].path)


# --- the token -------------------------------------------------------------------------


def test_every_page_needs_the_token(client: TestClient, guard: PageGuard) -> None:
    assert client.get(f"{guard.base}/").status_code == 303
    assert client.get(f"{guard.base}/").headers["location"] == f"{guard.base}/item/0"
    for path in (
        "/", "/item/0", "/done", f"/{guard.token[:-1]}/item/0", f"/{guard.token}x/item/0",
        f"/{guard.token.upper()}/item/0", f"/x/{guard.token}/item/0", "/favicon.ico",
        f"/%2F{guard.token}/item/0",
    ):  # fmt: skip
        response = client.get(path)
        assert response.status_code == 403, path
        assert "token" in response.text and "<" not in response.text


def test_tokens_differ_at_each_start_and_are_long() -> None:
    tokens = {PageGuard(PORT).token for _ in range(20)}
    assert len(tokens) == 20 and min(len(t) for t in tokens) >= 32


def test_a_post_without_the_token_saves_nothing(
    client: TestClient, guard: PageGuard, session: AuditSession
) -> None:
    data = form(client, guard, 0)
    assert post(client, "/item/0", data).status_code == 403
    assert saved(session) == []


# --- the host (DNS rebinding) ----------------------------------------------------------


@pytest.mark.parametrize(
    "host",
    [
        "evil.example", f"evil.example:{PORT}", f"127.0.0.1:{PORT + 1}", "127.0.0.1",
        f"localhost.evil.example:{PORT}", f"127.0.0.1:{PORT}.evil.example", f"[::1]:{PORT}",
        f"0.0.0.0:{PORT}", f"127.0.0.2:{PORT}", f"127.0.0.1:{PORT}@evil.example", "",
        f"2130706433:{PORT}",
    ],
)  # fmt: skip
def test_a_foreign_host_is_refused(client: TestClient, guard: PageGuard, host: str) -> None:
    response = client.get(f"{guard.base}/item/0", headers={"host": host})
    assert response.status_code in (400, 403), host
    assert "Item" not in response.text


@pytest.mark.parametrize("host", [f"127.0.0.1:{PORT}", f"localhost:{PORT}", f"LocalHost:{PORT}"])
def test_our_host_by_ip_or_name_is_served(client: TestClient, guard: PageGuard, host: str) -> None:
    assert client.get(f"{guard.base}/item/0", headers={"host": host}).status_code == 200


# --- cross-site posts --------------------------------------------------------------------


@pytest.mark.parametrize(
    "origin",
    [
        None, "null", "http://evil.example", f"http://127.0.0.1:{PORT + 1}",
        f"https://127.0.0.1:{PORT}", f"http://localhost:{PORT}.evil.example",
        f"http://127.0.0.1:{PORT}/", "", f"http://evil.example, {ORIGIN}",
    ],
)  # fmt: skip
def test_a_post_from_elsewhere_is_refused(
    client: TestClient, guard: PageGuard, session: AuditSession, origin: str | None
) -> None:
    response = post(client, f"{guard.base}/item/0", form(client, guard, 0), origin=origin)
    assert response.status_code == 403
    assert saved(session) == []


def test_a_post_needs_the_form_token_of_its_own_item(
    client: TestClient, guard: PageGuard, session: AuditSession
) -> None:
    other = form(client, guard, 1)  # the token of item 2, sent to item 1
    for data in (
        {**form(client, guard, 0), "csrf": ""},
        {k: v for k, v in form(client, guard, 0).items() if k != "csrf"},
        {**form(client, guard, 0), "csrf": "0" * 64},
        other,
        {**form(client, guard, 0), "csrf": PageGuard(PORT).form_token(0)},  # another start's
    ):
        assert post(client, f"{guard.base}/item/0", data).status_code == 403
    assert saved(session) == []
    good = post(client, f"{guard.base}/item/0", form(client, guard, 0))
    # Answered: the item again, its judge's reading now beside the person's answer.
    assert good.status_code == 303 and good.headers["location"] == f"{guard.base}/item/0"
    assert [a.answers["verdict"] for a in saved(session)] == ["factual"]


# --- everything stored is shown as text ----------------------------------------------------


class _Elements(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def elements(page: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Elements()
    parser.feed(page)
    return parser.tags


def assert_inert(page: str, nonce: str) -> None:
    """No element the page did not write itself: one script and one style, ours (nonce);
    no event handler, no image, no svg; no control character (each shown escaped)."""
    assert not _CONTROL.search(page), _CONTROL.search(page)
    tags = elements(page)
    assert [t for t, a in tags if t in ("script", "style")] == ["style", "script"] or [
        t for t, a in tags if t in ("script", "style")
    ] == ["style"]
    for tag, attributes in tags:
        assert tag not in ("img", "svg", "iframe", "object", "embed"), tag
        assert not any(name.startswith("on") for name in attributes), (tag, attributes)
        if tag in ("script", "style"):
            assert attributes.get("nonce") == nonce
        for name in ("href", "action"):
            assert not str(attributes.get(name) or "").startswith("javascript:")


def nonce_of(response: Any) -> str:
    policy = response.headers["content-security-policy"]
    found = re.search(r"script-src 'nonce-([^']+)'", policy)
    assert found is not None and "default-src 'none'" in policy
    assert "frame-ancestors 'none'" in policy and "form-action 'self'" in policy
    return found.group(1)


@pytest.fixture
def hostile_log(tmp_path: Path) -> Path:
    """A MedHal log whose statements, context, explanations, replies, file name and folder
    hold markup."""
    folder = tmp_path / "<b>logs"
    rows = [
        {"id": f"x{i}", "context": text, "statement": f"{text} statement {i}", "label": i % 2 == 0,
         "explanation": text, "source": f"qa{text}", "synthetic": False}
        for i, text in enumerate(HOSTILE)
    ]  # fmt: skip
    dataset = tmp_path / "hostile.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in rows))
    replies = tmp_path / "replies.jsonl"
    replies.write_text(
        "".join(
            json.dumps({"id": r["id"], "reply": f"Factual: NO\nExplanation: {HOSTILE[i]}"}) + "\n"
            for i, r in enumerate(rows)
        )
    )
    result = CliRunner().invoke(
        cli,
        ["eval", "medhal", "--dataset", str(dataset), "--responses",
         str(replies), "--embedder", "none", "--log-dir", str(folder)],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    [log] = folder.glob("*.eval")
    return log.rename(log.with_name("<img src=x onerror=alert(1)>.eval"))


def test_markup_in_every_field_is_shown_as_text(hostile_log: Path, guard: PageGuard) -> None:
    annotator = "<script>alert('annotator')</script>"
    session = AuditSession(audited_logs([hostile_log]), annotator, 2 * len(HOSTILE), 0)
    assert len(session.drawn) == 2 * len(HOSTILE)  # a reader and a detector item per row
    with TestClient(audit_app(session, guard), base_url=ORIGIN, follow_redirects=False) as client:
        for index in range(len(session.drawn)):
            note = (
                f"{HOSTILE[index % len(HOSTILE)]} note </textarea><script>alert({index})</script>"
            )
            data = form(client, guard, index, note=note, **{"q:verdict": "not factual"})
            assert post(client, f"{guard.base}/item/{index}", data).status_code == 303
            page = client.get(f"{guard.base}/item/{index}")
            assert_inert(page.text, nonce_of(page))
            # What was stored comes back, as text.
            assert "&lt;/textarea&gt;&lt;script&gt;" in page.text
            assert "&lt;script&gt;alert(&#39;annotator&#39;)" in page.text
        done = client.get(f"{guard.base}/done")
        assert f"All {len(session.drawn)} items answered" in done.text
        assert_inert(done.text, nonce_of(done))
        assert "&lt;b&gt;logs" in done.text  # the answers' file is named, as text
    shown = " ".join(t for d in session.drawn for _, t in d.item.shown)
    assert all(h in shown for h in HOSTILE[:2])  # the hostile texts did reach the page


def test_pages_are_sent_with_protective_headers(client: TestClient, guard: PageGuard) -> None:
    for path in (f"{guard.base}/item/0", f"{guard.base}/done", "/", f"{guard.base}/"):
        headers = client.get(path).headers
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["cache-control"] == "no-store"
        assert headers["referrer-policy"] == "same-origin"
    first, second = (client.get(f"{guard.base}/item/0") for _ in range(2))
    assert nonce_of(first) != nonce_of(second)  # a nonce per response


# --- bounded and malformed requests -----------------------------------------------------


def test_a_note_over_the_limit_is_refused_and_nothing_saved(
    client: TestClient, guard: PageGuard, session: AuditSession
) -> None:
    data = form(client, guard, 0, note="n" * (MAX_NOTE_CHARS + 1))
    response = post(client, f"{guard.base}/item/0", data)
    assert response.status_code == 413 and f"{MAX_NOTE_CHARS:,}" in response.text
    assert saved(session) == []
    data = form(client, guard, 0, note="é" * MAX_NOTE_CHARS)  # the limit itself is kept
    assert post(client, f"{guard.base}/item/0", data).status_code == 303
    assert saved(session)[0].note == "é" * MAX_NOTE_CHARS


def test_a_body_over_the_limit_is_refused_before_it_is_read(
    client: TestClient, guard: PageGuard, session: AuditSession
) -> None:
    data = form(client, guard, 0, note="n" * (2 * MAX_BODY_BYTES))
    response = post(client, f"{guard.base}/item/0", data)
    assert response.status_code == 413 and saved(session) == []


@pytest.mark.parametrize(
    ("body", "content_type", "status"),
    [
        (b"answer=agree&note=%FF%FE", "application/x-www-form-urlencoded", 400),  # not UTF-8
        (b"\xff\xfe", "application/x-www-form-urlencoded", 400),
        (b'{"answer": "agree"}', "application/json", 415),
        (b"answer=agree", "multipart/form-data; boundary=x", 415),
        (b"answer=agree", "", 415),
        (b"&".join(b"f%d=1" % i for i in range(5000)), "application/x-www-form-urlencoded", 400),
    ],
)
def test_malformed_forms_are_400s(
    client: TestClient,
    guard: PageGuard,
    session: AuditSession,
    body: bytes,
    content_type: str,
    status: int,
) -> None:
    headers = {"origin": ORIGIN, "content-type": content_type}
    response = client.post(f"{guard.base}/item/0", content=body, headers=headers)
    assert response.status_code == status, response.text
    assert saved(session) == []


@pytest.mark.parametrize(
    "fields",
    [
        {"q:verdict": "maybe"},
        {"q:verdict": ""},
        {"q:verdict": "FACTUAL"},
        {"q:verdict": "factual\n"},
        {"q:verdict": "agree"},
    ],  # fmt: skip
)
def test_an_answer_not_offered_is_a_400(
    client: TestClient, guard: PageGuard, session: AuditSession, fields: dict[str, str]
) -> None:
    response = post(client, f"{guard.base}/item/0", form(client, guard, 0, **fields))
    assert response.status_code == 400 and saved(session) == []


def test_items_that_do_not_exist_are_404s(
    client: TestClient, guard: PageGuard, session: AuditSession
) -> None:
    for path in ("/item/4", "/item/99999999999999999999", "/item/-1", "/item/a", "/nope"):
        assert client.get(guard.base + path).status_code == 404, path
    data = form(client, guard, 0)
    assert post(client, f"{guard.base}/item/4", data).status_code in (403, 404)
    assert saved(session) == []


# --- answers that cannot be saved or read ----------------------------------------------------


def test_an_answer_that_cannot_be_saved_is_said_on_the_page_and_on_stderr(
    client: TestClient, guard: PageGuard, session: AuditSession, warnings: list[str]
) -> None:
    data = form(client, guard, 0, note="kept?", **{"q:verdict": "not factual"})
    answers = answers_path(session.logs[0].path)
    answers.mkdir()  # a folder in the file's place: appending fails
    response = post(client, f"{guard.base}/item/0", data)
    assert response.status_code == 500
    assert "was not saved" in response.text and str(answers) in response.text
    assert warnings and "was not saved" in warnings[0] and str(answers) in warnings[0]
    answers.rmdir()
    assert post(client, f"{guard.base}/item/0", data).status_code == 303  # answered again
    assert [(a.answers["verdict"], a.note) for a in saved(session)] == [("not factual", "kept?")]


def test_an_answer_file_broken_while_the_page_runs_is_named(
    client: TestClient, guard: PageGuard, session: AuditSession, warnings: list[str]
) -> None:
    answers = answers_path(session.logs[0].path)
    answers.write_text('{"benchmark": "medhal", "log": \n')
    response = client.get(f"{guard.base}/item/0")
    assert response.status_code == 500 and "line 1" in response.text
    assert warnings and str(answers) in warnings[0] and "line 1" in warnings[0]


@pytest.mark.parametrize(
    ("content", "named"),
    [
        ("{broken\n", "line 1"),
        ("\n" + json.dumps({"key": "1", "note": "n" * 1_500_000}) + "\n", "line 2, field 'note'"),
        ('{"benchmark": "medhal", "answer": "yes"}\n', "line 1"),
    ],
)
def test_a_broken_answer_file_is_one_line_at_start(
    medhal_log: Path, content: str, named: str
) -> None:
    answers_path(medhal_log).write_text(content)
    result = CliRunner().invoke(cli, ["audit", str(medhal_log), "--port", "0"])
    lines = [x for x in result.stderr.splitlines() if x.strip()]
    assert result.exit_code == 2 and len(lines) == 1, result.stderr
    assert named in lines[0] and "fix or remove that line" in lines[0]
    assert answers_path(medhal_log).read_text() == content  # left as it was


def test_answers_that_could_not_be_saved_at_all_are_refused_at_start(medhal_log: Path) -> None:
    answers_path(medhal_log).mkdir()
    result = CliRunner().invoke(cli, ["audit", str(medhal_log), "--port", "0"])
    lines = [x for x in result.stderr.splitlines() if x.strip()]
    assert result.exit_code == 2 and len(lines) == 1, result.stderr
    assert str(answers_path(medhal_log)) in lines[0]


# --- a real server: raw requests ---------------------------------------------------------


@pytest.fixture
def live(session: AuditSession, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setattr(server_module, "BODY_TIMEOUT", 0.5)
    server = server_module.audit_server(session, 0)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def raw(port: int, request: bytes, *, wait: float = 5.0) -> bytes:
    """Send bytes as they are and read the reply until the server closes or `wait` passes."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as connection:
        connection.sendall(request)
        reply = b""
        try:
            while chunk := connection.recv(65536):
                reply += chunk
                if b"\r\n\r\n" in reply and _complete(reply):
                    break
        except TimeoutError:
            pass
    return reply


def _complete(reply: bytes) -> bool:
    head, _, body = reply.partition(b"\r\n\r\n")
    found = re.search(rb"content-length: *(\d+)", head, re.IGNORECASE)
    return found is None or len(body) >= int(found.group(1))


def status(reply: bytes) -> int:
    assert reply.startswith(b"HTTP/1.1 "), reply[:200]
    return int(reply.split()[1])


def request(server: Any, method: str, path: str, *headers: str, body: bytes = b"") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{server.port}", *headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


@pytest.mark.parametrize(
    "length",
    [
        "abc",
        "-1",
        "1, 2",
        "0x10",
        "1e3",
        " ",
        "99999999999999999999999999",
        "5\r\nContent-Length: 7",
    ],
)
def test_a_malformed_content_length_is_a_400_not_a_hang(live: Any, length: str) -> None:
    # A hang would end in the body's time-out (408) or in no reply before raw() gives up.
    reply = raw(
        live.port,
        request(live, "POST", f"{live.guard.base}/item/0", f"Origin: {ORIGIN}",
                f"Content-Length: {length}", body=b"answer=agree"),
    )  # fmt: skip
    assert status(reply) in (400, 413)
    assert b"Traceback" not in reply
    assert status(raw(live.port, request(live, "GET", f"{live.guard.base}/done"))) == 200


def test_a_body_that_never_comes_is_a_408(live: Any, session: AuditSession) -> None:
    origin = f"http://127.0.0.1:{live.port}"
    head = request(live, "POST", f"{live.guard.base}/item/0", f"Origin: {origin}",
                   "Content-Type: application/x-www-form-urlencoded", "Content-Length: 500")  # fmt: skip
    # The server's own time-out (BODY_TIMEOUT, 0.5 s here) answers, before the client's 5 s.
    reply = raw(live.port, head + b"answer=agree", wait=5)
    assert status(reply) == 408
    assert saved(session) == []


def test_oversized_headers_and_a_foreign_host_on_the_wire(live: Any) -> None:
    huge = request(live, "GET", f"{live.guard.base}/done", "X-Filler: " + "a" * 100_000)
    assert status(raw(live.port, huge)) in (400, 413, 431)
    foreign = request(live, "GET", f"{live.guard.base}/done").replace(
        f"Host: 127.0.0.1:{live.port}".encode(), b"Host: rebound.evil.example"
    )
    assert status(raw(live.port, foreign)) == 403
    no_host = f"GET {live.guard.base}/done HTTP/1.1\r\n\r\n".encode()
    assert status(raw(live.port, no_host)) == 400
    chunked = request(
        live, "POST", f"{live.guard.base}/item/0", f"Origin: http://127.0.0.1:{live.port}",
        "Content-Type: application/x-www-form-urlencoded", "Transfer-Encoding: chunked",
        body=b"".join(b"8000\r\n" + b"a" * 0x8000 + b"\r\n" for _ in range(4)) + b"0\r\n\r\n",
    )  # fmt: skip
    assert status(raw(live.port, chunked)) == 413  # counted as it comes, without a length
    assert status(raw(live.port, request(live, "GET", f"{live.guard.base}/done"))) == 200


def test_the_address_answers_as_soon_as_it_is_printed(medhal_log: Path) -> None:
    process, line = start_audit(medhal_log, "--port", "0", "--annotator", "bob")
    try:
        assert line and (url := re.search(r"http://127\.0\.0\.1:(\d+)(/[\w-]+/)", line)), line
        port, base = int(url.group(1)), url.group(2)
        # At once, no waiting: the line is printed only once the server listens.
        with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
            connection.sendall(f"GET {base} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            assert connection.recv(200).startswith(b"HTTP/1.1 303")
        plain = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
        assert status(raw(port, plain)) == 403  # no token, no page
    finally:
        process.send_signal(2)
        out, err = process.communicate(timeout=30)
    assert process.returncode == 130 and "Stopped: 0 of" in out, err  # a stop (Ctrl-C)
    assert "Traceback" not in err


# --- a real browser ---------------------------------------------------------------------

PAYLOADS = [
    "<script>window.pwned = 'note'</script>",
    "<img src=x onerror=\"window.pwned = 'img'\">",
    "</textarea><script>window.pwned = 'textarea'</script>",
    "<svg onload=\"window.pwned = 'svg'\"></svg>",
]


def test_stored_markup_runs_nothing_in_a_browser(hostile_log: Path, browser_page: Any) -> None:
    page = browser_page
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Security Policy" in m.text else None)
    session = AuditSession(audited_logs([hostile_log]), "<script>window.pwned='who'</script>", 4, 0)
    server = server_module.audit_server(session, 0)
    server.start()
    try:
        for index, payload in enumerate(PAYLOADS):
            page.goto(f"{server.url}item/{index}")
            page.fill("#note", payload)
            page.click("button[value='not factual']")
            page.wait_for_selector("#reveal")  # answered: the judge's reading is revealed
            page.goto(f"{server.url}item/{index}")  # the stored note shown again
            assert page.input_value("#note") == payload  # as text, exactly
            assert page.evaluate("window.pwned") is None
            assert page.locator("img, svg, iframe").count() == 0
            assert page.locator("script").count() == 1  # ours
        page.keyboard.press("ArrowLeft")  # our own script still runs
        page.wait_for_url(f"{server.url}item/2")
    finally:
        server.stop()
    assert [a.note for a in read_answers(hostile_log)] == PAYLOADS
    # The statements hold markup too; the policy had nothing to block: none of it ran as code.
    assert refused == []


@pytest.mark.parametrize("kept_alive", [False, True], ids=["first head", "next head"])
def test_a_head_that_does_not_arrive_in_time_is_dropped(
    session: AuditSession, kept_alive: bool
) -> None:
    server = server_module.audit_server(session, 0, head_timeout=0.5)
    server.start()
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as slow:
            if kept_alive:  # a request answered first, on a connection kept alive
                slow.sendall(request(server, "GET", f"{server.guard.base}/done"))
                first = slow.recv(65536)
                while not _complete(first):
                    first += slow.recv(65536)
                assert status(first) == 200
            started = time.monotonic()
            slow.sendall(b"GET / HTTP/1.1\r\nHost: 127")  # the head never ends
            # The server's own time-out closes it, long before the client's 5 s.
            assert slow.recv(1024) == b"" and time.monotonic() - started < 3
        assert status(raw(server.port, request(server, "GET", f"{server.guard.base}/done"))) == 200
    finally:
        server.stop()


def test_a_known_secret_in_a_log_is_never_served(
    session: AuditSession, guard: PageGuard, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Words of a statement the log holds play a key a server once quoted into it.
    shown = next(text for d in session.drawn for _, text in d.item.shown if text.isascii())
    words = " ".join(shown.split()[:3])
    monkeypatch.setenv("AUDITED_API_KEY", words)
    with TestClient(audit_app(session, guard), base_url=ORIGIN, follow_redirects=False) as client:
        pages = [client.get(f"{guard.base}/item/{i}").text for i in range(len(session.drawn))]
    assert any("[redacted]" in page for page in pages)
    assert not any(words in page for page in pages)


def test_a_client_that_leaves_mid_body_is_one_line(
    session: AuditSession, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    told: list[str] = []
    server = server_module.audit_server(session, 0, warn=told.append)
    server.start()
    try:
        head = request(
            server, "POST", f"{server.guard.base}/item/0",
            f"Origin: http://127.0.0.1:{server.port}",
            "Content-Type: application/x-www-form-urlencoded", "Content-Length: 5000",
        )  # fmt: skip
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as leaving:
            leaving.sendall(head + b"verdict=")
        deadline = time.monotonic() + 5
        while not told and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        server.stop()
    assert len(told) == 1 and "left" in told[0], told
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.parametrize("size", [20_000, 100_000])
def test_an_oversized_path_is_refused_as_such(live: Any, size: int) -> None:
    reply = raw(live.port, request(live, "GET", f"{live.guard.base}/{'a' * size}"))
    assert status(reply) in (400, 414, 431)
