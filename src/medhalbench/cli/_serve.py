"""`medhalbench serve`: the embedded model as an OpenAI-compatible server on this machine."""

from __future__ import annotations

import re
from typing import Any

import click

from medhalbench._lazy import by_name
from medhalbench.cli._options import NAME, examples_epilog
from medhalbench.settings import DEFAULT_MODEL

_HOST = re.compile(r"(\[[0-9A-Fa-f:.]+\]|\w(?:[\w.-]*\w)?)(?::(\d+))?", re.ASCII)


def _host(value: str) -> str:
    """A Host header's value (a name or an address, and a port), as given or refused."""
    found = _HOST.fullmatch(value)
    if found is None or (found[2] is not None and not 1 <= int(found[2]) <= 65535):
        raise click.BadParameter(f"{ascii(value)[1:-1]}: expected HOST or HOST:PORT (1-65535)")
    return value


@click.command(
    name="serve",
    epilog=examples_epilog(
        [
            "medhalbench serve --port 8080",
            "LOCAL_API_KEY=any medhalbench eval medhallu --dataset pqa_labeled.jsonl --model openai-api/local/smollm2 --model-base-url http://127.0.0.1:8080/v1",
        ]
    ),
)
@click.option(
    "--model",
    default=DEFAULT_MODEL,
    show_default=True,
    help="embedded/smollm2 or embedded/PATH.gguf.",
)
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=8080,
    show_default=True,
    help="Port on 127.0.0.1.",
)
@click.option(
    "--alias",
    default="smollm2",
    show_default=True,
    type=NAME,
    help="The name of the model served: a request naming another model is answered 404.",
)
@click.option(
    "--api-key",
    envvar="MEDHALBENCH_SERVE_API_KEY",
    default="",
    help="Key clients must send (default: none). Also read from MEDHALBENCH_SERVE_API_KEY.",
)
@click.option(
    "-M", "model_args", multiple=True, help="Engine option NAME=VALUE (n_ctx, parallel, ...)."
)
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="HOST[:PORT]",
    help="Also answer requests sent under this Host name (a container's, a forwarded "
    "port's); by default only 127.0.0.1:PORT and localhost:PORT are answered.",
    callback=lambda ctx, param, values: tuple(_host(value) for value in values),
)
def serve_command(**values: Any) -> None:
    """Serve a GGUF model (llama.cpp's own server, no compiler needed) at
    http://127.0.0.1:PORT/v1, for `--model openai-api/...` clients: only the model it serves
    (--alias), only under its own address (--allow-host for others), CORS only for its own
    pages. Stops on Ctrl-C."""
    by_name("medhalbench.commands:serve_from_command_line")(**values)
