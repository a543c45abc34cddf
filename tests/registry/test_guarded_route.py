"""A task run by inspect's own route (the Python API here; `inspect eval medhalbench/...`
and `eval_set` make the same task) redacts what its models hand back before inspect logs or
caches it: a server that quotes the key in its replies leaves it in no log or cache."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval

from helpers import stub_at
from medhalbench.examples import illustrative
from medhalbench.medhallu import medhallu
from stub_server import StubHandler

KEY = "sk-route-PLANTEDz8Qx41vN0cKe3"


def quoting_the_key(messages: list[dict[str, object]]) -> str:
    return f"1 (your key {KEY} is about to expire)"


@pytest.mark.parametrize("shape", ["plain", "bearer"])
def test_a_quoted_key_reaches_no_log_or_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shape: str
) -> None:
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    # Known by its source, whatever its shape: a value with a scheme word in front too.
    monkeypatch.setenv("STUB_API_KEY", KEY if shape == "plain" else f"Bearer {KEY}")
    with stub_at(quoting_the_key) as base_url:
        [log] = inspect_eval(
            medhallu(dataset=illustrative("medhallu_illustrative.jsonl"), limit=1),
            model="openai-api/stub/model", model_base_url=base_url, cache=True,
            log_dir=str(tmp_path / "logs"), display="none",
        )  # fmt: skip
    assert log.status == "success", log.error
    replies = [s.output.completion for s in log.samples or []]
    assert replies and all("[redacted]" in r for r in replies)
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.suffix == ".eval" for p in written) and any("cache" in p.parts for p in written)
    for path in written:
        data = path.read_bytes()
        if path.suffix == ".eval":
            with zipfile.ZipFile(path) as z:
                data = b"".join(z.read(n) for n in z.namelist())
        assert KEY[5:20].encode() not in data, path


HEADER_KEY = "hk-route-HEADERq7Wm20pLx9"


@pytest.mark.parametrize("where", ["model", "role"])
def test_a_key_given_as_a_header_argument_reaches_no_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    # inspect writes model arguments into the log's header, leaving out only `api_key`.
    monkeypatch.setenv("STUB_API_KEY", "EMPTY")
    headers = {"default_headers": {"X-Api-Key": HEADER_KEY}}
    calls_before = len(StubHandler.headers_seen)
    with stub_at(lambda messages: "1") as base_url:
        task = medhallu(dataset=illustrative("medhallu_illustrative.jsonl"), limit=1)
        if where == "model":
            options: dict[str, object] = {"model_args": headers}
        else:
            from inspect_ai.model import get_model

            extractor = get_model("openai-api/stub/extractor", base_url=base_url, **headers)
            options = {"model_roles": {"extractor": extractor}}
        [log] = inspect_eval(
            task, model="openai-api/stub/model", model_base_url=base_url,
            log_dir=str(tmp_path / "logs"), display="none", **options,
        )  # fmt: skip
    assert log.status == "success", log.error
    [path] = (tmp_path / "logs").glob("*.eval")
    with zipfile.ZipFile(path) as z:
        data = b"".join(z.read(n) for n in z.namelist())
    assert HEADER_KEY[3:18].encode() not in data
    assert b"[redacted]" in data  # the argument is there, its value is not
    # ... and the calls carried the header as given: the log's copy is redacted, not the
    # client's (whose default headers are the very mapping the spec holds). The extractor
    # role is called only for a reply it must read, so its calls are not asked for.
    sent = [h.get("x-api-key") for h in StubHandler.headers_seen[calls_before:]]
    if where == "model":
        assert sent and set(sent) == {HEADER_KEY}
