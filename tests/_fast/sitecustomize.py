"""Test runs only: inspect's retry back-off (3 s doubling, with up to 3 s of jitter) is
shortened to milliseconds, so that the tests of failing servers and batches wait for
nothing. tests/conftest.py imports this module and puts its folder on PYTHONPATH, so every
process the tests start imports it too (Python imports `sitecustomize` at start-up).

inspect builds every back-off with tenacity's `wait_exponential_jitter` (model calls,
batch admin operations, log writes); replacing that one name keeps the retry logic itself
(what is retried, how often, when it stops) exactly as users run it."""

from __future__ import annotations

from typing import Any

import tenacity

_real_wait = tenacity.wait_exponential_jitter


def _short_wait(*args: Any, **kwargs: Any) -> Any:
    return _real_wait(initial=0.01, max=0.05, jitter=0.01)


tenacity.wait_exponential_jitter = _short_wait  # type: ignore[misc,assignment]
