"""`medhalbench serve`: the embedded model as an OpenAI-compatible server on this machine."""

from __future__ import annotations

import dataclasses
import os
import signal
import threading

import click

from medhalbench._secrets import register_secret
from medhalbench.commands import console, examples_epilog, parse_model_args
from medhalbench.models import Engine, embedded_settings
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
def serve_command(
    model: str, port: int, alias: str, api_key: str, model_args: tuple[str, ...]
) -> None:
    """Serve a GGUF model (llama.cpp's own server, no compiler needed) at
    http://127.0.0.1:PORT/v1, for `--model openai-api/...` clients. Stops on Ctrl-C."""
    register_secret(api_key)  # given on the command line: shown nowhere
    if not model.startswith("embedded/"):
        raise click.BadParameter("serve runs embedded models only", param_hint="--model")
    args = parse_model_args(model_args)
    settings, _ = embedded_settings(model.removeprefix("embedded/"), args)
    if settings.parallel > 1 and "n_threads" not in args:
        # Slots batched together do not repeat exactly anyway: use every core.
        settings = dataclasses.replace(settings, n_threads=os.cpu_count() or 1)
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    server = Engine(settings, slots=settings.parallel, port=port, alias=alias, api_key=api_key)
    console.print(
        f"Serving {alias} ({settings.parallel} slots) at {server.address}/v1; Ctrl-C stops."
    )
    if settings.parallel > 1:
        console.print(
            "Slots are decoded together, so a reply can change with what else is decoded "
            "beside it; -M parallel=1 gives replies that repeat exactly."
        )
    stop.wait()
    server.close()
