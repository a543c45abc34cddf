"""One retry policy for model calls: inspect's retries with our settings, counted once. The
provider SDKs' own retries are switched off where the SDK takes `max_retries`, a reply that
is not what the API promises (a cut-off or non-JSON body, JSON that is no completion) is
retried like a dropped connection, then reported as what it is, and a server that redirects
again and again is not retried (each attempt follows at most `MAX_REDIRECTS`)."""

from __future__ import annotations

import json
from typing import Any

from inspect_ai.model import Model

from medhalbench.data import MAX_REDIRECTS

SDK_RETRYING_PROVIDERS = frozenset(
    {
        "openai", "openai-api", "anthropic", "together", "fireworks", "deepseek", "openrouter",
        "perplexity", "ollama", "llama-cpp-python", "moonshot", "meta", "litellm-proxy",
        "sambanova", "groq", "hf-inference-providers",
    }
)  # fmt: skip
"""Providers whose client is an SDK that retries on its own unless told `max_retries=0`."""

# Exceptions that mean the reply was not what the API promises: a body that is not JSON, or
# JSON that the provider cannot turn into a completion (fields missing or of the wrong type).
_MALFORMED = ("OpenAIResponseError", "APIResponseValidationError", "JSONDecodeError",
              "ValidationError", "RemoteProtocolError", "UnicodeDecodeError")  # fmt: skip


def malformed_reply(ex: BaseException) -> bool:
    """Whether an error means the server sent a reply that is not what its API promises."""
    if type(ex).__name__ in _MALFORMED or isinstance(ex, json.JSONDecodeError):
        return True
    # The provider's conversion of a reply with missing or mistyped fields.
    return isinstance(ex, TypeError | KeyError | AttributeError) and _raised_in_provider(ex)


def _raised_in_provider(ex: BaseException) -> bool:
    frame = ex.__traceback__
    while frame is not None and frame.tb_next is not None:
        frame = frame.tb_next
    module = str(frame.tb_frame.f_globals.get("__name__", "")) if frame is not None else ""
    return module.startswith(("inspect_ai.model", "openai", "anthropic"))


def retry_malformed_replies(model: Model) -> None:
    """Make a model's calls retry a malformed reply as they retry a dropped connection (the
    provider's own decision stands for every other error)."""
    provider_decision = model.api.should_retry
    # The SDK's own HTTP client (httpx's, or the fork the openai SDK ships: by its attribute).
    client: Any = getattr(getattr(model.api, "client", None), "_client", None)
    if hasattr(client, "max_redirects"):
        client.max_redirects = MAX_REDIRECTS

    def should_retry(ex: BaseException) -> Any:
        if type(ex.__cause__ or ex).__name__ == "TooManyRedirects":
            return False  # the server's redirects: the next attempt would follow the same
        return True if malformed_reply(ex) else provider_decision(ex)  # type: ignore[arg-type]

    model.api.should_retry = should_retry  # type: ignore[method-assign]
