"""How a command's connection options become inspect's settings: one record
(`ConnectionSettings`) for eval, build, suite and retry."""

from __future__ import annotations

import pytest
from inspect_ai.model import BatchConfig

from medhalbench.commands import generate_config
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
