"""How a command's connection options become inspect's settings: one record
(`ConnectionSettings`) for eval, build, suite and retry."""

from __future__ import annotations

import pytest
from inspect_ai.model import BatchConfig, GenerateConfig

from helpers import LocalServer, stub_at
from medhalbench.commands import generate_config
from medhalbench.commands._models import Connection, resolve_model
from medhalbench.commands._saturation import server_slots
from medhalbench.settings import DEFAULT_ATTEMPT_TIMEOUT, DEFAULT_MAX_RETRIES, ConnectionSettings


def test_options_not_given_take_our_defaults() -> None:
    config = generate_config(
        ConnectionSettings.among({"max_connections": None, "model": "openai/x"})
    )
    assert config.max_retries == DEFAULT_MAX_RETRIES
    assert config.attempt_timeout == DEFAULT_ATTEMPT_TIMEOUT
    assert (config.max_connections, config.timeout, config.batch) == (None, None, None)


@pytest.mark.parametrize(
    ("given", "attempt"),
    [
        ({"timeout": 60}, 60),  # an attempt never outlasts the whole call
        ({"timeout": 900}, DEFAULT_ATTEMPT_TIMEOUT),
        ({"attempt_timeout": 20, "timeout": 60}, 20),
        ({"batch": True}, None),  # a batch waits for hours: no attempt limit
        ({"batch": True, "timeout": 7200}, 7200),
    ],
)
def test_the_attempt_limit(given: dict[str, int], attempt: int | None) -> None:
    assert generate_config(ConnectionSettings.of(given)).attempt_timeout == attempt


def test_given_values_pass_through_and_zero_retries_stays_zero() -> None:
    config = generate_config(
        ConnectionSettings.of(max_connections=3, max_retries=0, batch=True, batch_delay=5)
    )
    assert (config.max_connections, config.max_retries) == (3, 0)
    assert config.batch == BatchConfig(send_delay=5, tick=5)
    assert generate_config(ConnectionSettings.of(batch=True)).batch is True


@pytest.mark.slow
def test_a_local_server_is_sent_as_many_calls_at_once_as_it_decodes(
    llama_server: LocalServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`medhalbench serve` says how many calls it decodes at once; a model on it is sent that
    many unless `--max-connections` says otherwise (more would queue past the attempt
    timeout and be retried: the README's serve recipe runs as written)."""
    monkeypatch.setenv("LOCAL_API_KEY", "any")
    slots = server_slots(llama_server.base_url)
    assert isinstance(slots, int) and slots >= 1
    name = f"openai-api/local/{llama_server.model}"
    via = Connection(base_url=llama_server.base_url)
    assert resolve_model(name, via, option="--model").config.max_connections == slots
    given = Connection(base_url=llama_server.base_url, config=GenerateConfig(max_connections=7))
    assert resolve_model(name, given, option="--model").config.max_connections == 7
    # A server that does not say (vLLM, Ollama, a remote API): inspect's own limit stands.
    with stub_at(lambda messages: "1") as stub:
        assert (
            resolve_model(
                "openai-api/local/m", Connection(base_url=stub), option="--model"
            ).config.max_connections
            is None
        )
