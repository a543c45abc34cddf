"""`medhalbench serve`: the embedded model as an OpenAI-compatible server on this machine."""

from __future__ import annotations

from typing import Any

import click

from medhalbench._lazy import by_name
from medhalbench.cli._options import examples_epilog
from medhalbench.settings import DEFAULT_MODEL


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
    "--alias", default="smollm2", show_default=True, help="Model name the server reports."
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
def serve_command(**values: Any) -> None:
    """Serve a GGUF model (llama.cpp's own server, no compiler needed) at
    http://127.0.0.1:PORT/v1, for `--model openai-api/...` clients. Stops on Ctrl-C."""
    by_name("medhalbench.commands:serve_from_command_line")(**values)
