"""Each sample's call ceiling: the model calls (every attempt, every role) one sample may
make before it stops with a reason, so that no reply can make a run spend without bound (a
splitter's reply of a thousand units, a reply that makes a solver call again and again).

The ceiling is derived from the benchmark's own plan: `CEILING_MARGIN` times its calls per
sample, times the tries each call may take (`--max-retries` + 1); a task's
`max_calls_per_sample` sets it instead. Calls answered from inspect's cache are not counted.
"""

from __future__ import annotations

import math
from typing import Any

from inspect_ai.model._generate_config import active_generate_config
from inspect_ai.util import LimitExceededError, store

CEILING_MARGIN = 4
"""How many times its plan's calls a sample may make, on each try: a DAHL answer split into
four times the units the plan assumes stays under it."""
DEFAULT_TRIES = 7
"""The tries of a call whose model sets no `max_retries` (medhalbench's default, 6, plus 1)."""
_CEILING = "medhalbench:call_ceiling"
_CALLS = "medhalbench:calls"


class CallCeilingReached(LimitExceededError):
    """A sample's next model call would pass its ceiling."""


def call_ceiling(planned_per_sample: float, given: int | None = None) -> int:
    """The ceiling of the active sample: `given`, else its plan's calls per sample times
    `CEILING_MARGIN` times the tries of a call in the run's config."""
    if given is not None:
        return given
    retries = active_generate_config().max_retries
    tries = DEFAULT_TRIES if retries is None else retries + 1
    return math.ceil(max(planned_per_sample, 1) * CEILING_MARGIN) * tries


def limit_sample_calls(ceiling: int, sample: str | int) -> None:
    """Start counting the active sample's model calls against `ceiling` (at its start)."""
    store().set(_CEILING, (ceiling, sample))
    store().set(_CALLS, 0)


def count_calls(api: Any) -> None:
    """Count each call of a model's API (each attempt) against its sample's ceiling, and
    never retry a call refused for it."""
    generate = api.generate

    async def counted(*args: Any, **kwargs: Any) -> Any:
        count_call()
        return await generate(*args, **kwargs)

    api.generate = counted
    if (decide := getattr(api, "should_retry", None)) is not None:
        api.should_retry = lambda ex: not isinstance(ex, CallCeilingReached) and decide(ex)


def count_call() -> None:
    """Count one model call of the active sample (none outside a sample).

    Raises:
        CallCeilingReached: The call would pass the sample's ceiling: the sample stops with
            the reason (inspect ends a sample's solver at a limit; a scorer's error ends the
            run, which names it).
    """
    limit = store().get(_CEILING)
    if limit is None:
        return
    ceiling, sample = limit
    calls = store().get(_CALLS, 0) + 1
    if calls > ceiling:
        raise CallCeilingReached(
            "custom",
            value=calls,
            limit=ceiling,
            message=f"sample {sample} reached its ceiling of {ceiling} model calls "
            f"(its plan's calls per sample x {CEILING_MARGIN} x the tries of a call; "
            "--max-calls-per-sample sets another)",
        )
    store().set(_CALLS, calls)
