"""Turning the command line's model options into inspect models, checked before any work:
a bad model name, `-M` option or missing key is one clear line naming the option.

Roles (DAHL's splitter and checker, the builders' generator, discriminators, refiner and
converter) take their own base URL (`--role-base-url ROLE=URL`) and model arguments
(`--role-arg ROLE:NAME=VALUE`); a role without its own that names the same provider as the
model under test takes the model's `--model-base-url` and `-M`.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import click
from inspect_ai.model import BatchConfig, GenerateConfig, Model, get_model

from medhalbench._errors import MedhalbenchError
from medhalbench._hubmodels import offline_unless_reachable
from medhalbench._secrets import (
    REDACTED,
    guard_model,
    redact,
    register_secret,
    url_credentials,
    url_secret,
)
from medhalbench.commands._errors import plain_message
from medhalbench.commands._retries import SDK_RETRYING_PROVIDERS, retry_malformed_replies
from medhalbench.commands._saturation import is_local, server_slots
from medhalbench.models import writes_nothing
from medhalbench.settings import (
    UNSENDABLE,
    ConnectionSettings,
    ModelOptions,
    model_name_problem,
    named_problem,
    normalise_model_name,
    parse_model_args,
    provider_of,
    sendable_in_header,
)

HOLDS_CREDENTIALS = "holds a key or password"
"""What the refusal of a base URL with credentials says (a plan refuses it too)."""


def generate_config(settings: ConnectionSettings) -> GenerateConfig:
    """inspect's settings for calls made as connection settings say: our retry default where
    none is given, the attempt limit, and the batch mode (`--batch-delay` as its send delay
    and tick)."""
    batch: bool | BatchConfig | None = None
    if settings.batch:
        delay = settings.batch_delay
        batch = BatchConfig(send_delay=delay, tick=delay) if delay else True
    return GenerateConfig(
        max_connections=settings.max_connections,
        max_retries=settings.retries,
        timeout=settings.timeout,
        attempt_timeout=settings.attempt_limit,
        batch=batch,
    )


class OptionError(MedhalbenchError, ValueError):
    """A bad command-line value, named by its option."""


@dataclass(frozen=True)
class Connection:
    """How a model is reached and called: base URL, provider arguments, retry and timeout."""

    base_url: str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    config: GenerateConfig = field(default_factory=GenerateConfig)


BATCH_PROVIDERS = ("openai", "anthropic", "google", "grok", "together")
"""The providers whose batch API inspect uses (`--batch`)."""


def batchless(models: Sequence[str]) -> str | None:
    """The first model whose provider has no batch API (inspect would run it one call at a
    time under `--batch`, without a word), with what to do; None when all have one."""
    for model in models:
        if model.split("/", 1)[0] not in BATCH_PROVIDERS and not writes_nothing(model):
            return (
                f"{model} has no batch API (inspect batches {', '.join(BATCH_PROVIDERS)} "
                "models); leave batching out, or name a model of those providers"
            )
    return None


def checked_base_url(url: str | None, option: str) -> str | None:
    """A base URL as given, checked: http(s) with a host, and no credentials in it (a key
    belongs in the environment, where no log or message shows it).

    Raises:
        OptionError: Not such a URL, naming the option.
    """
    if url is None:
        return None
    held = url_credentials(url)
    # Without a scheme, `user:password@host` is no URL to parse: its credentials all the same.
    bare = re.match(r"^[^/@\s]*@", url.strip()) if "://" not in url else None
    if bare:
        user, _, password = bare.group(0)[:-1].partition(":")
        held += [v for v in [url_secret(user, password)] if v]
    for value in held:
        register_secret(value)  # never shown, whatever prints the URL later
    try:
        parts = urlsplit(url)
        scheme, hostname = parts.scheme, parts.hostname
    except ValueError:  # a malformed port or IPv6 address
        scheme, hostname = "", None
    if scheme not in ("http", "https") or not hostname:
        raise OptionError(
            f"{option}: expected an http:// or https:// URL with a host, got "
            f"{redact(re.sub(r'^[^/@]*@', REDACTED + '@', url.strip()))!r}"
        )
    if held:
        raise OptionError(
            f"{option}: the URL {HOLDS_CREDENTIALS}; give the key in the provider's "
            "environment variable (e.g. OPENAI_API_KEY, or SERVICE_API_KEY for "
            "openai-api/SERVICE/MODEL) instead, where no log or message shows it"
        )
    return url


def connection(options: ModelOptions) -> Connection:
    """The main model's connection from the shared options (our retry defaults applied)."""
    return Connection(
        base_url=checked_base_url(options.model_base_url, "--model-base-url"),
        args=parse_model_args(options.model_args),
        config=generate_config(options),
    )


def role_connection(role: str, name: str, options: ModelOptions, main: str | None) -> Connection:
    """A role's connection: its own `--role-base-url` / `--role-arg`, else the main model's
    when it names the same provider, or when there is no main model to take them: a
    builder's, or outputs written elsewhere (`--responses`, where `--model-base-url` and
    `-M` can only be meant for the judges)."""
    shared = connection(options)
    inherit = (
        main is None
        or writes_nothing(main)
        or provider_of(normalise_model_name(name)) == provider_of(main)
    )
    urls = options.role_base_urls.get(role)
    own = checked_base_url(urls[-1] if urls else None, "--role-base-url")
    return Connection(
        base_url=own or (shared.base_url if inherit else None),
        args={
            **(shared.args if inherit else {}),
            **parse_model_args(options.role_args.get(role, ()), "--role-arg"),
        },
        config=shared.config,
    )


@functools.cache
def quiet_hooks() -> None:
    """Load inspect's hooks as it does before its first model, without its banner ("hooks
    enabled: 1", three lines before every command's output and errors) where the only hooks
    are ours; a banner that names another package's hooks is printed, on stderr."""
    from inspect_ai.hooks._startup import init_hooks

    with contextlib.redirect_stdout(io.StringIO()) as banner:
        init_hooks()
    named = re.findall(r"^\s+([\w.-]+)/", banner.getvalue(), re.M)
    if any(package != "medhalbench" for package in named):
        click.echo(banner.getvalue().rstrip(), err=True)


def resolve_model(name: str, via: Connection, *, option: str) -> Model:
    """An inspect model for a command-line name, checked now.

    Raises:
        OptionError: The name, a model argument or the provider's set-up (e.g. a missing API
            key) is wrong; the message names the option and the model.
    """
    quiet_hooks()
    problem = model_name_problem(name)
    if problem:
        raise OptionError(f"{option}{' ' if name.strip() else ': '}{named_problem(name, problem)}")
    model = normalise_model_name(name)
    if _loads_weights(model) and not Path(model.partition("/")[2]).exists():
        offline_unless_reachable()  # a hub name: from the local cache at once when offline
    config = via.config.model_copy()  # the embedded provider sets its connection limit in it
    args = dict(via.args)
    if provider_of(model).split("/")[0] in SDK_RETRYING_PROVIDERS:
        # One retry policy, inspect's with our settings: the SDK's own retries would
        # multiply every attempt (3 calls per attempt with the OpenAI SDK's default 2).
        args.setdefault("max_retries", 0)
    try:
        try:
            resolved = get_model(model, base_url=via.base_url, config=config, memoize=False, **args)
        except TypeError as ex:
            if "max_retries" not in str(ex) or "max_retries" in via.args:
                raise
            # A provider that takes no model arguments (inspect's Together): its SDK client
            # is told instead, once made.
            args.pop("max_retries")
            resolved = get_model(model, base_url=via.base_url, config=config, memoize=False, **args)
            _sdk_retries_off(resolved)
    except Exception as ex:  # the provider's own error, named after the option that caused it
        message = plain_message(ex)
        # A key not set: its variable alone (providers word it at length, and several
        # models' missing keys are named in one line).
        unset = _NO_KEY.search(message)
        reason = f"no API key: set {unset[1]}" if unset else message
        raise OptionError(f"{option} {name}: {reason}") from None
    if via.base_url is None and (found := _base_url(resolved)):
        # The provider or its SDK took its base URL from the environment (SERVICE_BASE_URL,
        # OPENAI_BASE_URL): it is checked as the option's would be.
        variable = next(
            (
                k
                for k, v in os.environ.items()
                if k.endswith("BASE_URL") and v.strip().rstrip("/") == found.rstrip("/")
            ),
            "the environment",
        )
        checked_base_url(found, f"{option} {name}: the base URL set in {variable}")
    key = getattr(resolved.api, "api_key", None)
    if isinstance(key, str) and not sendable_in_header(key):
        raise OptionError(
            f"{option} {name}: the API key (its environment variable, or -M api_key) "
            f"{UNSENDABLE}; the key is not shown"
        )
    _fill_local_slots(resolved, via.base_url or _base_url(resolved))
    retry_malformed_replies(resolved)
    return guard_model(resolved)


def _fill_local_slots(model: Model, base_url: str | None) -> None:
    """Send a local server that says how many calls it decodes at once (`medhalbench serve`,
    llama.cpp's server) that many, where no connection limit is given: more would wait in its
    queue past the attempt timeout and be retried."""
    if model.config.max_connections is None and is_local(base_url):
        if slots := server_slots(str(base_url)):
            model.config = model.config.merge(GenerateConfig(max_connections=slots))


_NO_KEY = re.compile(r"\bNo ([A-Z][A-Z0-9_]*_API_KEY)\b")
"""inspect's words for a provider's key that is not set ("No OPENAI_API_KEY, ... defined")."""


def resolve_models(wanted: Sequence[tuple[str, Connection, str]]) -> list[Model]:
    """Each model (name, how it is reached, the option that names it) resolved as
    `resolve_model` does, in order.

    Raises:
        OptionError: Every model that cannot be resolved, in one line (a key missing for the
            model under test and for a judge are named together, not one per attempt).
    """
    resolved, problems = [], []
    for name, via, option in wanted:
        try:
            resolved.append(resolve_model(name, via, option=option))
        except OptionError as ex:
            problems.append(str(ex))
    if problems:
        raise OptionError("; ".join(problems))
    return resolved


def _base_url(model: Model) -> str | None:
    """The base URL a model calls: inspect's, else its SDK client's."""
    client = getattr(model.api, "client", None)
    found = model.api.base_url or getattr(client, "base_url", None)
    return None if found is None else str(found)


WEIGHT_LOADING_PROVIDERS = frozenset({"hf", "vllm", "sglang", "transformer_lens", "nnterp"})
"""inspect's providers that load a model's weights in this process, or start a server for
them, when the model is made."""


def _loads_weights(model: str) -> bool:
    return model.split("/")[0] in WEIGHT_LOADING_PROVIDERS


# Errors a plan may ignore: a key or endpoint the provider needs only to call the model.
PLAN_KEY = "medhalbench-plan-stand-in"
PLAN_BASE_URL = "http://127.0.0.1:9/v1"
"""What stands in for a key and an endpoint a plan does not need (nothing is called)."""
_NOT_NEEDED_TO_PLAN = re.compile(
    r"api[_ ]?key|_KEY\b|credential|environment|base[_ ]url|token", re.I
)


def _sdk_retries_off(model: Model) -> None:
    """Switch off the SDK's own retries of a provider made without model arguments, where
    its client is made from a `model_args` mapping (inspect's OpenAI-compatible providers)."""
    model_args = getattr(model.api, "model_args", None)
    if isinstance(model_args, dict) and hasattr(model.api, "initialize"):
        model_args["max_retries"] = 0
        model.api.initialize()


def check_model_name(name: str, via: Connection, *, option: str) -> None:
    """Check a model name as a run would (provider known, name well formed, arguments
    taken), without needing its key or endpoint: what a plan (`--dry-run`) checks.

    Raises:
        OptionError: The name, provider or a model argument is wrong.
    """
    if _loads_weights(normalise_model_name(name)):
        # Made, such a provider loads the weights (or starts a server): a plan checks the name.
        problem = model_name_problem(name)
        if problem:
            raise OptionError(f"{option} {named_problem(name, problem)}")
        return
    try:
        resolve_model(name, via, option=option)
    except OptionError as ex:
        # A key in a base URL is refused in a plan too: it would be stored with the run.
        if not _NOT_NEEDED_TO_PLAN.search(str(ex)) or HOLDS_CREDENTIALS in str(ex):
            raise
        # What a plan does not need stands in (a key, an endpoint), so that the model's
        # arguments are still checked as a run would check them.
        stand_in = replace(
            via, base_url=via.base_url or PLAN_BASE_URL, args={"api_key": PLAN_KEY, **via.args}
        )
        try:
            resolve_model(name, stand_in, option=option)
        except OptionError as again:
            if not _NOT_NEEDED_TO_PLAN.search(str(again)):
                raise
