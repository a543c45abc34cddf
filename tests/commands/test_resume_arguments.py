"""A retry rebuilds its models from the log, which keeps no credential: a key falls back on
its variable, but an argument with nothing to fall back on (headers) must be given again,
never sent as the placeholder the log holds."""

from __future__ import annotations

import pytest

from medhalbench._secrets import REDACTED
from medhalbench.commands._models import OptionError
from medhalbench.commands._resume import _secret_args

LOGGED = {"api_key": REDACTED, "default_headers": {"X-Api-Key": REDACTED}, "timeout": 30}


@pytest.mark.parametrize("option", ["-M", "--role-arg checker:"])
def test_a_redacted_argument_without_a_variable_must_be_given_again(option: str) -> None:
    with pytest.raises(OptionError, match=f"the log keeps default_headers redacted.*{option}"):
        _secret_args(LOGGED, {}, option)


def test_arguments_given_again_take_the_place_of_the_redacted_ones() -> None:
    given = {"default_headers": {"X-Api-Key": "k-given-again"}}
    args = _secret_args(LOGGED, given, "-M")
    # The key is left out: the provider reads its variable (or the key given again).
    assert args == {"default_headers": {"X-Api-Key": "k-given-again"}, "timeout": 30}
