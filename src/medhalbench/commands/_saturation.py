"""A local model server that serves fewer calls at once than we send: it queues the rest,
and a queued call can wait past the attempt timeout and be retried, which queues it again.
Where the server says how many calls it serves at once (llama.cpp's `total_slots`, as
`medhalbench serve` and `llama-server` report it), the run says so before it starts, and a
timeout against a local server names the likely cause."""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import urlparse

from inspect_ai.log import EvalSpec

from medhalbench.data import read_url
from medhalbench.results import role_configs

LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "0.0.0.0"})
"""Hosts of a server on this machine."""
DEFAULT_CONNECTIONS = 10
"""inspect's default connections per model API where none is given."""
PROBE_SECONDS = 2.0


@dataclass(frozen=True)
class Endpoint:
    """A model server a task calls.

    Attributes:
        base_url: Its base URL.
        connections: The calls we send it at once (None: inspect's adaptive default).
        roles: The roles it plays (`model` for the model under test).
    """

    base_url: str
    connections: int | None
    roles: tuple[str, ...]


def is_local(base_url: str | None) -> bool:
    """Whether a base URL names a server on this machine."""
    return bool(base_url) and urlparse(str(base_url)).hostname in LOCAL_HOSTS


def local_endpoints(spec: EvalSpec) -> list[Endpoint]:
    """The servers on this machine a task calls: the model under test's and each role's."""
    found: dict[str, Endpoint] = {}
    main = spec.model_generate_config.max_connections
    calls = [("model", spec.model_base_url, main)]
    for role, configs in role_configs(spec).items():
        for config in configs:
            connections = config.config.max_connections if config.config else None
            calls.append((role, config.base_url, connections or main))
    for role, url, connections in calls:
        if url and is_local(url):
            seen = found.get(url)
            roles = (*seen.roles, role) if seen else (role,)
            most = max(
                filter(None, [connections, seen.connections if seen else None]), default=None
            )
            found[url] = Endpoint(url, most, roles)
    return list(found.values())


def server_slots(base_url: str) -> int | None:
    """The calls a local server decodes at once, where it says (`total_slots` of a
    llama.cpp server's `/props`); None where it does not answer or say."""
    root = base_url.rstrip("/").removesuffix("/v1")
    try:
        props = read_url(f"{root}/props", seconds=PROBE_SECONDS, max_bytes=1024**2)
        slots = json.loads(props).get("total_slots")
    except (OSError, ValueError, AttributeError):
        return None
    return slots if isinstance(slots, int) and slots > 0 else None


def saturation_hint(endpoint: Endpoint, slots: int | None) -> str | None:
    """A line for a local server that serves fewer calls at once than we send; None where
    it serves as many (or does not say how many)."""
    if slots is None:
        return None
    sent = endpoint.connections or DEFAULT_CONNECTIONS
    if sent <= slots:
        return None
    what = (
        f"up to {sent} calls at once (--max-connections)"
        if endpoint.connections
        else f"{sent} or more calls at once (inspect's adaptive default)"
    )
    return (
        f"note: the server at {endpoint.base_url} ({', '.join(endpoint.roles)}) decodes "
        f"{slots} call(s) at once and we send {what}: the rest wait in its queue, and a call "
        f"that waits past --attempt-timeout is retried. Give --max-connections {slots}, or "
        "start the server with more slots."
    )


def timeout_hint(base_url: str) -> str:
    """A line for calls to a local server that time out."""
    return (
        f"calls to the local server {base_url} time out: a server with fewer slots than "
        "--max-connections queues calls past --attempt-timeout (give --max-connections "
        "its slots)"
    )
