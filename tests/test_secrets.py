"""The one redactor: keys from the environment and the command line, and credentials in
URLs, are found whole, split by terminal colour codes (raw or JSON-escaped), cut by line
wraps or quoted in part, in text, files, inspect logs, model replies and errors, logging
records and the process's output streams; what is not a secret is left alone."""

from __future__ import annotations

import asyncio
import base64
import io
import json
import logging
import os
import sys
import warnings
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import quote

import click
import httpx
import openai
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessageAssistant,
    Logprob,
    Logprobs,
    ModelCall,
    ModelOutput,
    TopLogprob,
)
from rich.console import Console
from rich.traceback import Traceback

from helpers import readings
from medhalbench import _secrets
from medhalbench._secrets import (
    FRAGMENT_LENGTH,
    REDACTED,
    RedactingStream,
    address_secrets,
    guard_model,
    help_output,
    redact,
    redact_bytes,
    redact_file,
    redact_object,
    redact_record,
    register_secret,
    secrets,
    short_secrets,
    url_credentials,
)

KEY = "sk-proj-Zq81vN0cKe3xWm7TbR4u-7741"
OTHER = "hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ012345"
MODEL_NAME = "openai-api/stub/stub"


@pytest.fixture(autouse=True)
def planted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLANTED_API_KEY", KEY)
    monkeypatch.setenv("HF_TOKEN", OTHER)
    monkeypatch.setattr(_secrets, "_given", set())


def grams(secret: str) -> set[str]:
    return {secret[i : i + FRAGMENT_LENGTH] for i in range(len(secret) - FRAGMENT_LENGTH + 1)}


def assert_clean(text: str) -> None:
    """No run of FRAGMENT_LENGTH characters of a planted key, colour codes taken out."""
    plain = _secrets._ANSI.sub("", text)
    for secret in (KEY, OTHER):
        found = [g for g in grams(secret) if g in plain]
        assert not found, (found, text)


# --- text -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        f"401: Incorrect API key provided: {KEY}.",
        f"key={KEY}&x=1",
        f"'{KEY[:20]}\x1b[1;36m{KEY[20:]}\x1b[0m'",  # rich highlights the digits in a key
        f"{KEY[:9]}\x1b[1;36m{KEY[9:12]}\x1b[0m\x1b[32m{KEY[12:]}",  # codes every few letters
        json.dumps(f"{KEY[:20]}\x1b[1;36m{KEY[20:]}\x1b[0m"),  # as traceback_ansi holds it
        repr(f"{KEY[:20]}\x1b[1;36m{KEY[20:]}"),  # as a repr shows it
        f"\x1b]8;;file:///x\x1b\\{KEY[:15]}\x1b]8;;\x1b\\{KEY[15:]}",  # a terminal hyperlink
        f"│ Authorization: Bearer {KEY[:17]}  │\n│ {KEY[17:]}                │",  # wrapped in a panel
        f"{KEY[:12]}",  # a prefix cut by a line wrap
        f"…{KEY[10:24]}…",  # a piece from the middle
        f"{OTHER} and {KEY}",
        f"Bearer {KEY}\nBearer {OTHER}",
        f"%s{KEY}%d",
    ],
)
def test_keys_are_found_whole_split_and_in_pieces(text: str) -> None:
    out = redact(text)
    assert REDACTED in out
    assert_clean(out)


def test_the_text_around_a_key_is_kept() -> None:
    assert redact(f"refused key {KEY}. Retry later.") == f"refused key {REDACTED}. Retry later."
    coloured = f"key \x1b[1m{KEY[:20]}\x1b[36m{KEY[20:]}\x1b[0m done"
    assert redact(coloured) == f"key \x1b[1m{REDACTED}\x1b[0m done"
    escaped = json.dumps(coloured)
    assert json.loads(redact(escaped)) == f"key \x1b[1m{REDACTED}\x1b[0m done"  # still JSON


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("http://user:pa55w0rd@host/v1", "http://[redacted]@host/v1"),
        ("https://host/v1?api_key=abc123&model=x", "https://host/v1?api_key=[redacted]&model=x"),
        ("https://host/v1?key=AIzaSyA-123&alt=json", "https://host/v1?key=[redacted]&alt=json"),
        ("https://host/v1?x=1&token=t0k3n#frag", "https://host/v1?x=1&token=[redacted]#frag"),
        ("https://h/o?sig=abc%2Fdef&se=2026", "https://h/o?sig=[redacted]&se=2026"),
        ("wss://u:p@h", "wss://[redacted]@h"),
        ("https://ghp_token0123@host/v1", "https://[redacted]@host/v1"),  # a token as user
        ("https://host/v1?Api-Key=zz", "https://host/v1?Api-Key=[redacted]"),
        (
            "https://host/cb#access_token=t0k&type=b",
            "https://host/cb#access_token=[redacted]&type=b",
        ),
    ],
)
def test_credentials_in_urls(url: str, shown: str) -> None:
    assert redact(f"calling {url} now") == f"calling {shown} now"
    assert url_credentials(url)


def test_credentials_in_a_url_whose_slashes_a_path_clean_up_merged() -> None:
    # `Path("es:idx@http://u:pw@host")` prints `es:idx@http:/u:pw@host`.
    assert redact("es:idx@http:/u:pw0rd@host: no such file") == (
        "es:idx@http:/[redacted]@host: no such file"
    )
    assert redact("C:/Users/me@example/file.txt") == "C:/Users/me@example/file.txt"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("medhalbench retry LOG -M api_key=unregistered-1", "medhalbench retry LOG -M api_key=[redacted]"),
        ("--role-arg checker:api_key=abc --x", "--role-arg checker:api_key=[redacted] --x"),
        ("serve --api-key=abc", "serve --api-key=[redacted]"),
        ("OPENAI_API_KEY=sk-1 HF_TOKEN=hf-2", "OPENAI_API_KEY=[redacted] HF_TOKEN=[redacted]"),
        ("aws_secret_access_key=AK/x+y", "aws_secret_access_key=[redacted]"),
        ("max_tokens=256 key=1/1/0 monkey=3", "max_tokens=256 key=1/1/0 monkey=3"),
        ("AuditAnswer(key='1/1/0')", "AuditAnswer(key='1/1/0')"),
    ],
)  # fmt: skip
def test_secrets_given_as_name_value(text: str, shown: str) -> None:
    assert redact(text) == shown


@pytest.mark.parametrize(
    "url", ["https://host/v1", "http://127.0.0.1:8000/v1?model=x", "https://host/v1?monkey=1"]
)
def test_urls_without_credentials(url: str) -> None:
    assert redact(url) == url and url_credentials(url) == []


def test_given_secrets_and_base_urls_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    register_secret("  given-on-the-command-line-9  ")
    register_secret("xyz")  # three characters: no secret (it would blank ordinary words)
    monkeypatch.setenv("LOCAL_BASE_URL", "https://proxy.example/v1?token=tok-from-env-url-42")
    monkeypatch.setenv("NOT_A_URL", "see https://x.example/?token=not-a-base-url-77 here")
    assert "given-on-the-command-line-9" in secrets()
    assert "tok-from-env-url-42" in secrets() and "xyz" not in secrets() + short_secrets()
    assert "not-a-base-url-77" not in secrets()  # a URL inside a setting is no base URL
    assert redact("x given-on-the-command-line-9 tok-from-env-url-42") == (
        f"x {REDACTED} {REDACTED}"
    )


@pytest.mark.parametrize(
    ("value", "hidden"),
    [
        ("/k3y-not-a-file/Zq81xw", ["/k3y-not-a-file/Zq81xw"]),  # starts like a path, names none
        ("~/Xk2-no-such-key-file", ["~/Xk2-no-such-key-file"]),
        ("Bearer sk-Abc123Def456Ghi", ["Bearer sk-Abc123Def456Ghi", "sk-Abc123Def456Ghi"]),
        ("k3Y9q", ["k3Y9q"]),  # short: a word of its own
        ("a phrase with spaces", ["a phrase with spaces"]),
        ("12345678901", ["12345678901"]),
    ],
)
def test_a_credential_is_a_secret_whatever_its_shape(
    monkeypatch: pytest.MonkeyPatch, value: str, hidden: list[str]
) -> None:
    monkeypatch.setenv("SOME_PROVIDER_API_KEY", value)
    for part in hidden:
        assert REDACTED in redact(f"the server said: {part}!"), part
        assert part not in redact(f"the server said: {part}!")
    if len(value) < 8:
        assert redact(f"x{value}y and {value}s") == f"x{value}y and {value}s"  # inside words: kept


@pytest.mark.parametrize("value", ["true", "none", "123456", ""])
def test_settings_that_are_no_keys_are_left_alone(
    monkeypatch: pytest.MonkeyPatch, value: str, tmp_path: Path
) -> None:
    monkeypatch.setenv("SSL_KEY", value)
    assert value not in secrets() + short_secrets() or not value
    assert redact(f"reading {value}") == f"reading {value}"
    existing = tmp_path / "server.key"
    existing.write_text("x")
    monkeypatch.setenv("SSL_KEY", str(existing))  # the path of a file: a setting
    assert redact(f"reading {existing}") == f"reading {existing}"


def test_ordinary_text_is_untouched() -> None:
    for text in (
        "Metformin lowers hepatic glucose output.",
        "sk-proj is a prefix; sk- too",  # pieces shorter than a fragment
        "https://api.openai.com/v1/chat/completions",
        "\x1b[1;31merror\x1b[0m 401 unauthorized",
        json.dumps({"a": "b\\c", "d": "\\u001b"}),
    ):
        assert redact(text) == text


def test_words_a_dummy_key_holds_stay_in_other_text(monkeypatch: pytest.MonkeyPatch) -> None:
    # A key made of ordinary words: the whole key goes, the words in a path or a name stay
    # (they were redacted in paths, and in the working directory a log stores).
    monkeypatch.setenv("LOCAL_API_KEY", "local-medhalbench-test-key")
    for text in ("/tmp/medhalbench-data/logs/run.eval", "cd ~/medhalbench && make test-key"):
        assert redact(text) == text
    assert redact("sent local-medhalbench-test-key") == f"sent {REDACTED}"
    # A piece of a random key is still a piece: its runs hold digits and capitals.
    assert REDACTED in redact(f"…{KEY[8:20]}") and REDACTED in redact(f"{OTHER[:10]}")


def test_a_help_page_passes_as_it_is_and_nothing_else_does() -> None:
    shown, errors = io.StringIO(), io.StringIO()
    stdout = RedactingStream(shown, help_page=True)
    stderr = RedactingStream(errors)
    with help_output():
        stdout.write("-M api_key=... (e.g. checker:api_key=...)")
        stderr.write(f"error: api_key={KEY}")
    stdout.write(f"api_key={KEY}")
    assert shown.getvalue() == f"-M api_key=... (e.g. checker:api_key=...)api_key={REDACTED}"
    assert errors.getvalue() == f"error: api_key={REDACTED}"


def test_the_installed_command_prints_help_unredacted() -> None:
    import subprocess

    entry = str(Path(sys.executable).with_name("medhalbench"))
    env = {**os.environ, "PLANTED_API_KEY": KEY}
    page = subprocess.run([entry, "retry", "--help"], capture_output=True, text=True, env=env)
    assert page.returncode == 0 and "api_key=..." in page.stdout and REDACTED not in page.stdout


ansi = st.sampled_from(["\x1b[1;36m", "\x1b[0m", "\\u001b[32m", "\x1b]8;;x\x1b\\"])


@settings(max_examples=200, deadline=None)
@given(
    cuts=st.lists(st.integers(1, len(KEY) - 1), max_size=4, unique=True),
    codes=st.lists(ansi, min_size=4, max_size=4),
    before=st.text(max_size=20),
    after=st.text(max_size=20),
)
def test_a_key_cut_by_any_codes_anywhere_is_redacted(
    cuts: list[int], codes: list[str], before: str, after: str
) -> None:
    pieces, last = [], 0
    for cut, code in zip(sorted(cuts), codes, strict=False):
        pieces += [KEY[last:cut], code]
        last = cut
    pieces.append(KEY[last:])
    text = before + "".join(pieces) + after
    # What is left of the key is in runs shorter than a fragment.
    plain = _secrets._ANSI.sub("", redact(text))
    assert not [g for g in grams(KEY) if g in plain.replace("\n", "")], (text, plain)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters="\x1b"), max_size=200))
def test_text_sharing_no_fragment_with_a_key_is_unchanged(text: str) -> None:
    if not any(g in text for secret in secrets() for g in grams(secret)) and "://" not in text:
        if "=" not in text:
            assert redact(text) == text


# --- files ------------------------------------------------------------------------------


def test_an_inspect_log_is_rewritten_and_still_reads(tmp_path: Path) -> None:
    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.log import read_eval_log

    from helpers import scripted_model

    coloured = f"{KEY[:20]}\x1b[1;36m{KEY[20:]}\x1b[0m"
    task = Task(dataset=[Sample(input="q", target="a")])
    [log] = eval(
        task, model=scripted_model(lambda _: f"the key is {coloured}"),
        log_dir=str(tmp_path), display="none",
    )  # fmt: skip
    path = Path(log.location)
    with zipfile.ZipFile(path) as z:
        before = b"".join(z.read(n) for n in z.namelist())
    assert KEY[:20].encode() in before  # planted (JSON-escaped colour code inside)
    assert redact_file(path) and not redact_file(path)  # the second time: nothing left
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        after = b"".join(z.read(n) for n in names)
    assert_clean(after.decode())
    read = read_eval_log(str(path))
    assert read.samples and REDACTED in read.samples[0].output.completion
    assert read.status == "success"


def test_a_text_file_keeps_its_other_bytes(tmp_path: Path) -> None:
    path = tmp_path / "shard.jsonl"
    data = b'{"a": "\xff\xfe raw"}\n' + f'{{"b": "{KEY}"}}\n'.encode()
    path.write_bytes(data)
    path.chmod(0o640)
    assert redact_file(path)
    assert path.read_bytes() == b'{"a": "\xff\xfe raw"}\n{"b": "[redacted]"}\n'
    assert path.stat().st_mode & 0o777 == 0o640
    assert redact_bytes(b"\x00\x01 plain") == b"\x00\x01 plain"
    assert not redact_file(tmp_path / "missing.jsonl")


# --- objects: replies, calls, errors --------------------------------------------------------


def test_a_reply_and_its_call_record_are_redacted_in_place() -> None:
    output = ModelOutput.from_content("m", f"Used key {KEY} for you.")
    output.metadata = {"headers": {"x-key": KEY}}
    call = ModelCall.create(request={"messages": []}, response={"raw": f"{KEY}"})
    redacted_output, redacted_call = redact_object((output, call))
    assert redacted_output is output and redacted_call is call
    assert output.completion == f"Used key {REDACTED} for you."
    assert output.metadata == {"headers": {"x-key": REDACTED}}
    assert call.response == {"raw": REDACTED}
    assert_clean(output.model_dump_json() + call.model_dump_json())


def _openai_error(status: int, message: str) -> openai.APIStatusError:
    request = httpx.Request("POST", "http://127.0.0.1/v1/chat/completions")
    body = {"error": {"message": message}}
    response = httpx.Response(status, json=body, request=request)
    return openai.APIStatusError(f"Error code: {status} - {body}", response=response, body=body)


def test_an_error_its_body_notes_and_chain_are_redacted() -> None:
    cause = ValueError(f"inner {KEY}")
    error = _openai_error(401, f"Incorrect API key provided: {KEY}")
    error.add_note(f"note {OTHER}")
    error.__cause__ = cause
    group = ExceptionGroup("several", [error, RuntimeError(f"x {OTHER}")])
    redact_object(group)
    assert error.status_code == 401  # what decides a retry is kept
    shown = [str(error), str(error.body), str(error.message), *error.__notes__, str(cause)]
    shown += [str(e) for e in group.exceptions]
    assert all(REDACTED in s for s in shown)
    assert_clean(" ".join(shown))


class _Api:
    def __init__(self, reply: Any, raises: bool) -> None:
        self.reply, self.raises = reply, raises

    async def generate(self, **kwargs: Any) -> Any:
        if self.raises:
            raise self.reply
        return self.reply  # inspect's providers return some errors as the reply


class _Model:
    def __init__(self, reply: Any, raises: bool = False) -> None:
        self.api = _Api(reply, raises)


def test_a_guarded_model_hands_back_no_key() -> None:
    model = guard_model(_Model(ModelOutput.from_content("m", f"key {KEY}")))
    assert guard_model(model) is model  # once
    output = asyncio.run(model.api.generate(input=[]))
    assert output.completion == f"key {REDACTED}"
    raising = guard_model(_Model(_openai_error(401, f"bad key {KEY}"), raises=True))
    with pytest.raises(openai.APIStatusError) as caught:
        asyncio.run(raising.api.generate(input=[]))
    assert caught.value.status_code == 401
    assert_clean(str(caught.value) + str(caught.value.body))
    returned = guard_model(_Model(_openai_error(400, f"bad request for {KEY}")))
    assert_clean(str(asyncio.run(returned.api.generate(input=[]))))


# --- screens and logging ------------------------------------------------------------------


def test_a_rich_traceback_printed_through_the_stream_holds_no_key() -> None:
    target = io.StringIO()
    stream = RedactingStream(target)  # type: ignore[arg-type]
    try:
        raise RuntimeError(f"Error code: 401 - Incorrect API key provided: {KEY} ({OTHER})")
    except RuntimeError:
        traceback = Traceback(show_locals=True, width=60)
    Console(file=stream, force_terminal=True, width=60, color_system="truecolor").print(traceback)
    shown = target.getvalue()
    assert "Incorrect API key" in shown and REDACTED in shown and "\x1b[" in shown
    assert_clean(shown)


def test_the_stream_behaves_as_the_stream_it_wraps(capfd: pytest.CaptureFixture[str]) -> None:
    stream = RedactingStream(sys.__stdout__)  # type: ignore[arg-type]
    assert stream.fileno() == sys.__stdout__.fileno()  # type: ignore[union-attr]
    assert stream.isatty() == sys.__stdout__.isatty()  # type: ignore[union-attr]
    assert stream.encoding == sys.__stdout__.encoding  # type: ignore[union-attr]
    click.echo(f"echoed {KEY}", file=stream)
    click.echo(f"bytes {KEY}".encode(), file=stream)  # through its buffer
    print(f"printed {KEY}", file=stream, flush=True)
    with pytest.raises(TypeError):
        stream.write(b"bytes")  # type: ignore[arg-type]
    out = capfd.readouterr().out
    assert out == f"echoed {REDACTED}\nbytes {REDACTED}\nprinted {REDACTED}\n"


def test_logging_records_are_redacted_with_their_traceback() -> None:
    target = io.StringIO()
    handler = logging.StreamHandler(target)
    handler.addFilter(redact_record)
    logger = logging.getLogger("medhalbench.test_secrets")
    logger.addHandler(handler)
    try:
        try:
            raise ValueError(f"inner {KEY}")
        except ValueError:
            logger.exception("calling with %s", OTHER)
    finally:
        logger.removeHandler(handler)
    shown = target.getvalue()
    assert "calling with" in shown and "ValueError" in shown
    assert_clean(shown)


# --- keys in base URLs: refused in one line, never shown ----------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["--model-base-url", f"http://127.0.0.1:9/v1?api_key={KEY}"],
        ["--model-base-url", f"http://user:{KEY}@127.0.0.1:9/v1"],
        ["--model-base-url", f"http://{KEY}@127.0.0.1:9/v1"],
        ["--model-base-url", f"http://127.0.0.1:9/v1?x=1&token={KEY}"],
        [
            "--model-base-url",
            f"ftp://127.0.0.1/v1?key={KEY}",
        ],  # refused for its scheme: no key shown
        ["--judge", MODEL_NAME, "--role-base-url", f"checker=http://127.0.0.1:9/v1?key={KEY}"],
    ],
)
def test_a_key_in_a_base_url_is_refused_in_one_line(args: list[str]) -> None:
    from click.testing import CliRunner

    from medhalbench.cli import cli

    benchmark = "dahl" if "--judge" in args else "medhallu"  # the checker's own base URL
    result = CliRunner().invoke(
        cli, ["eval", benchmark, "--dataset", "example", "--model", MODEL_NAME, *args, "--dry-run"]
    )
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert "environment variable" in lines[0] or "expected an http" in lines[0]
    assert_clean(result.output)


def test_a_key_in_a_base_url_from_the_environment_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from click.testing import CliRunner

    from medhalbench.cli import cli

    monkeypatch.setenv("STUB_BASE_URL", f"http://127.0.0.1:9/v1?api_key={KEY[::-1]}")
    monkeypatch.setenv("STUB_API_KEY", "sk-unused-here")
    for plan in ([], ["--dry-run"]):
        result = CliRunner().invoke(
            cli, ["eval", "medhallu", "--dataset", "example", "--model", MODEL_NAME,
                  "--log-dir", str(tmp_path), *plan],
        )  # fmt: skip
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert result.exit_code == 2 and len(lines) == 1, result.output
        assert "base URL set in STUB_BASE_URL" in lines[0]
        assert KEY[::-1][:12] not in result.output
        assert not list(tmp_path.glob("*.eval"))  # refused before any work


@pytest.mark.parametrize(
    "given",
    [
        "api_key:sk-Colon9Given8Key7", "sk-Colon9Given8Key7", "api key sk-Colon9Given8Key7",
        "default_headers=sk-Colon9Given8Key7", 'extra_headers={"X-Api-Key": 7}',
    ],
)  # fmt: skip
def test_a_refused_model_argument_never_shows_its_value(given: str) -> None:
    import click

    from medhalbench.settings import parse_model_args

    with pytest.raises(click.BadParameter) as refused:
        parse_model_args([given])
    assert "Colon9" not in refused.value.message and "-M" == refused.value.param_hint


def test_header_arguments_are_mappings_whose_values_are_secrets() -> None:
    from medhalbench.settings import parse_model_args

    parsed = parse_model_args(['default_headers={"X-Api-Key": "hdr-Given5Key4Value3"}'])
    assert parsed == {"default_headers": {"X-Api-Key": "hdr-Given5Key4Value3"}}
    assert redact("sent hdr-Given5Key4Value3") == f"sent {REDACTED}"
    literal = parse_model_args(["extra_headers={'Authorization': 'Bearer tok-Lit9Value8Key'}"])
    assert literal["extra_headers"]["Authorization"].startswith("Bearer ")
    assert redact("tok-Lit9Value8Key") == REDACTED


def test_a_base_url_without_a_scheme_keeps_its_password_out_of_the_refusal() -> None:
    from medhalbench.commands._models import OptionError, checked_base_url

    with pytest.raises(OptionError) as refused:
        checked_base_url("user:pw-Bare7Url6Secret5@localhost:8000/v1", "--model-base-url")
    assert "Bare7" not in str(refused.value) and "localhost:8000" in str(refused.value)
    assert redact("pw-Bare7Url6Secret5") == REDACTED


def test_a_key_like_a_home_of_no_user_is_a_secret_not_a_crash(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OTHER_TOKEN", "~nosuchuser-Zq81")
    assert "~nosuchuser-Zq81" in secrets()
    assert redact("got ~nosuchuser-Zq81 back") == f"got {REDACTED} back"


def test_a_key_holding_a_quote_leaves_json_that_still_parses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PROBE_API_KEY", "sk-PL\"ANT'quote9Wv7Q")
    for text in (
        json.dumps({"h": "sk-PL\"ANT'quote9Wv7Q", "x": "ok"}),
        repr("sk-PL\"ANT'quote9Wv7Q"),
    ):
        cleaned = redact(text)
        assert "quote9Wv7Q" not in cleaned and REDACTED in cleaned
    assert json.loads(redact(json.dumps({"h": "sk-PL\"ANT'quote9Wv7Q"})))["h"].endswith(REDACTED)


def test_a_placeholder_key_is_no_secret() -> None:
    # Local servers take "none" or a small number for no key: it is no secret, and
    # redacting the word would break inspect's own records ("tool_choice": "none").
    for placeholder in ("none", "None", "null", "1234"):
        register_secret(placeholder)
    assert redact('{"tool_choice": "none", "n": 1234}') == '{"tool_choice": "none", "n": 1234}'


def test_a_secret_spelt_like_a_word_logs_are_built_of_leaves_their_structure_whole() -> None:
    # A URL's user beside a password is a name, not a secret; the password is one.
    assert url_credentials("http://user:pw0rd-x@host/v1") == ["pw0rd-x"]
    assert url_credentials("https://ghp_tokenABC@host/v1") == ["ghp_tokenABC"]
    register_secret("user")  # a password no one should choose, and a message role
    message = '{"role": "user", "content": "hi"}'
    assert redact(message) == message


@pytest.mark.parametrize("word", ["samples", "success", "scorer", "messages", "started"])
def test_a_secret_spelt_like_a_word_of_the_log_schema_leaves_logs_whole(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, word: str
) -> None:
    """A field name or fixed value of inspect's log schema, given as a credential, would be
    replaced in every log's structure: it is no secret (and the log still reads)."""
    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.log import read_eval_log

    from helpers import scripted_model

    monkeypatch.setenv("SORT_KEY", word)
    register_secret(word)
    assert word not in secrets() + short_secrets()
    [log] = eval(
        Task(dataset=[Sample(input="q", target="a")]), model=scripted_model(lambda _: "a"),
        log_dir=str(tmp_path), display="none",
    )  # fmt: skip
    assert not redact_file(log.location)
    assert read_eval_log(log.location).status == "success"


@pytest.mark.parametrize("key", ['a.b*c+(d)"e9Zq8', "pw with space/and+plus7Q", "clé-ünï-7Xq2zz"])
def test_a_key_is_found_as_urls_and_json_encode_it(key: str) -> None:
    from urllib.parse import quote, quote_plus

    register_secret(key)
    for shown in (quote(key, safe=""), quote_plus(key), json.dumps(key)[1:-1]):
        assert shown not in redact(f"echo: {shown} ."), shown


@pytest.mark.parametrize(
    ("address", "found"),
    [
        ("es:pubmed@http://elastic:EsPw5ecret44@127.0.0.1:9200", ["EsPw5ecret44"]),
        ("es:pubmed@http:/elastic:EsPw5ecret44@127.0.0.1:9200", ["EsPw5ecret44"]),
        ("solr:med@https://host/solr?token=Tk9secret88&q=1", ["Tk9secret88"]),
        ("es:pubmed@http://127.0.0.1:9200", []),
        ("pubmed-index", []),
    ],
)
def test_the_credentials_of_urls_inside_an_address(address: str, found: list[str]) -> None:
    assert address_secrets(address) == found


# --- every form a server may give a key back in (the class, generated) ------------------


def _b64(key: str, offset: int, safe: bool) -> str:
    encoded = base64.b64encode(b"xyz"[:offset] + key.encode() + b"!").decode()
    return encoded.translate(str.maketrans("+/", "-_")) if safe else encoded


ENCODINGS: dict[str, Any] = {
    "as given": lambda k: k,
    "upper case": str.upper,
    "lower case": str.lower,
    "URL-quoted": lambda k: quote(k, safe=""),
    "every byte percent-encoded": lambda k: "".join(f"%{b:02X}" for b in k.encode()),
    "\\uXXXX escapes": lambda k: "".join(f"\\u{ord(c):04x}" for c in k),
    "HTML decimal references": lambda k: "".join(f"&#{ord(c)};" for c in k),
    "HTML hex references": lambda k: "".join(f"&#x{ord(c):X};" for c in k),
    "every other character percent-encoded": lambda k: "".join(
        f"%{ord(c):02x}" if i % 2 else c for i, c in enumerate(k)
    ),
    "escapes of every kind, mixed": lambda k: "".join(
        [
            c,
            f"%{ord(c):02X}",
            f"\\u{ord(c):04x}",
            f"&#{ord(c)};",
            f"&#x{ord(c):x};",
            f"\\x{ord(c):02x}",
        ][i % 6]
        for i, c in enumerate(k)
    ),
    "\\uXXXX in JSON arguments in a JSON log": lambda k: json.dumps(
        json.dumps({"credential": "".join(f"\\u{ord(c):04x}" for c in k)})
    )[1:-1],
    "hex": lambda k: k.encode().hex(),
    "HEX": lambda k: k.encode().hex().upper(),
    **{f"hex bytes apart by {s!r}": (lambda k, s=s: k.encode().hex(s)) for s in " :-"},
    **{f"base64 at {o}": (lambda k, o=o: _b64(k, o, False)) for o in range(3)},
    **{f"url-safe base64 at {o}": (lambda k, o=o: _b64(k, o, True)) for o in range(3)},
}
PLACES: dict[str, Any] = {
    "whole": lambda e: e,
    "cut by a line break": lambda e: f"{e[: len(e) // 2]}\n{e[len(e) // 2 :]}",
    "cut by an escaped line break": lambda e: f"{e[: len(e) // 3]}\\r\\n{e[len(e) // 3 :]}",
    "its middle": lambda e: e[len(e) // 4 : 3 * len(e) // 4],
}


@pytest.mark.parametrize("place", list(PLACES))
@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_a_key_is_found_in_every_form_and_place(encoding: str, place: str) -> None:
    given = PLACES[place](ENCODINGS[encoding](KEY))
    out = redact(f"upstream said: {given} (request 12)")
    assert out.startswith("upstream said: ") and out.endswith(" (request 12)"), out
    for reading in readings(out):
        for gram in grams(KEY):
            assert gram.lower() not in reading.lower(), (gram, reading, out)


@pytest.mark.parametrize("cut", [5, 11, 16])
def test_a_passphrase_of_words_is_found_cut_or_by_its_middle_and_prose_stays(
    cut: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    phrase = "correct horse battery staple lantern"
    monkeypatch.setenv("SERVICE_API_KEY", phrase)
    assert redact(f"key: {phrase[:cut]}\n{phrase[cut:]}.") == f"key: {REDACTED}."
    assert REDACTED in redact(f"…{phrase[cut : cut + _secrets.WORDS_FRAGMENT_LENGTH]}…")
    prose = "a correct horse and a battery staple: the lantern stays lit"
    assert redact(prose) == prose


def test_log_probability_tokens_and_bytes_that_spell_a_key_are_replaced() -> None:
    tokens = ["The", " key", " is", " ", KEY[:3], KEY[3:9], KEY[9:14], KEY[14:], " ok"]
    output = ModelOutput(
        model="m",
        choices=[
            ChatCompletionChoice(
                message=ChatMessageAssistant(content="The key is hidden ok"),
                logprobs=Logprobs(
                    content=[
                        Logprob(token=t, logprob=-0.1, bytes=list(t.encode()),
                                top_logprobs=[TopLogprob(token=t, logprob=-0.2)])
                        for t in tokens
                    ]
                ),
            )
        ],
    )  # fmt: skip
    raw = {"logprobs": {"content": [{"token": t, "bytes": list(t.encode())} for t in tokens]}}
    redact_object(output)
    redact_object(raw)
    for listed in (output.model_dump(), raw):
        spelled = json.dumps(listed)
        assert "The" in spelled and " ok" in spelled
        content = (
            listed["choices"][0]["logprobs"]["content"] if "choices" in listed
            else listed["logprobs"]["content"]
        )  # fmt: skip
        text = "".join(c["token"] for c in content)
        raw_bytes = b"".join(bytes(c["bytes"] or []) for c in content)
        assert_clean(text)
        assert_clean(raw_bytes.decode())


def test_a_log_written_with_a_member_twice_keeps_it_once(tmp_path: Path) -> None:
    """inspect's seeded retry of a killed run can write a recovered sample twice: the log we
    leave holds each member once (the last one written)."""
    log = tmp_path / "run.eval"
    with zipfile.ZipFile(log, "w") as out, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate name it writes
        out.writestr("samples/a_epoch_1.json", b'{"v": 1}')
        out.writestr("header.json", b"{}")
        out.writestr("samples/a_epoch_1.json", b'{"v": 2}')
    assert redact_file(log)
    with zipfile.ZipFile(log) as read:
        assert read.namelist() == ["samples/a_epoch_1.json", "header.json"]
        assert read.read("samples/a_epoch_1.json") == b'{"v": 2}'
    assert not redact_file(log)  # once is once


def test_every_log_record_is_redacted_whatever_handler_writes_it() -> None:
    """A handler added after the redactor is set up (inspect's trace file), on a logger of
    its own that does not propagate, still writes no secret, nor in a field the logger adds
    (`extra`): records are redacted as made."""
    import io
    import logging

    from medhalbench._secrets import redact_logging

    register_secret(KEY)
    redact_logging()
    written = io.StringIO()
    logger = logging.getLogger("a.library.of.its.own")
    logger.propagate = False
    handler = logging.StreamHandler(written)
    # A field the logger adds after the record is made (inspect's trace: action, detail).
    handler.setFormatter(logging.Formatter("%(message)s %(detail)s"))
    logger.addHandler(handler)
    try:
        logger.warning(
            "calling %s for %s", f"https://x/?k={KEY}", KEY.upper(), extra={"detail": KEY}
        )
        try:
            raise ValueError(f"bad key {KEY}")
        except ValueError:
            logger.exception("failed", extra={"detail": f"file out-{KEY}.jsonl"})
    finally:
        logger.removeHandler(handler)
    text = written.getvalue()
    assert (
        "calling" in text
        and "out-[redacted].jsonl" in text
        and "failed" in text
        and "ValueError" in text
    )
    assert KEY not in text and KEY.upper() not in text
