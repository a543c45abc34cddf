"""`medhalbench serve` run: the embedded model as an OpenAI-compatible server."""

from __future__ import annotations

import dataclasses
import os
import threading

import click

from medhalbench._local_server import listening_socket
from medhalbench._secrets import register_secret
from medhalbench.commands._errors import interruptible, stop_code
from medhalbench.commands._run import console
from medhalbench.models import Engine, embedded_settings, serve_front
from medhalbench.settings import parse_model_args


def serve_from_command_line(
    model: str,
    port: int,
    alias: str,
    api_key: str,
    model_args: tuple[str, ...],
    allow_hosts: tuple[str, ...],
) -> None:
    """`medhalbench serve` from its options' values: the engine on a port of its own, behind
    the front (`models.serve_front`) on the user's."""
    register_secret(api_key)  # given on the command line: shown nowhere
    if not model.startswith("embedded/"):
        raise click.BadParameter(
            f"'{model}' is no embedded model: serve runs embedded models only "
            "(embedded/NAME, embedded/PATH.gguf)",
            param_hint="--model",
        )
    args = parse_model_args(model_args)
    try:
        settings, _ = embedded_settings(model.removeprefix("embedded/"), args)
    except ValueError as ex:
        raise click.BadParameter(str(ex), param_hint="-M") from None
    if settings.parallel > 1 and "n_threads" not in args:
        # Slots batched together do not repeat exactly anyway: use every core.
        settings = dataclasses.replace(settings, n_threads=os.cpu_count() or 1)
    listening = listening_socket(port)
    engine = Engine(settings, slots=settings.parallel, port=0, alias=alias)
    front = serve_front(
        engine.address, engine.api_key, alias=alias, api_key=api_key or None, listening=listening,
        allowed_hosts=allow_hosts, warn=lambda line: console.print(f"[yellow]Note:[/yellow] {line}"),
    )  # fmt: skip
    front.start()
    try:
        # The stop is armed before the address is printed: a supervisor may stop the server
        # as soon as it reads it.
        with interruptible("stopped; the server did not close in time", samples=False):
            console.print(
                f"Serving {alias} ({settings.parallel} slots) at http://127.0.0.1:{front.port}/v1; Ctrl-C stops."
            )
            if settings.parallel > 1:
                console.print(
                    "Slots are decoded together, so a reply can change with what else is "
                    "decoded beside it; -M parallel=1 gives replies that repeat exactly."
                )
            threading.Event().wait()  # until Ctrl-C or SIGTERM
    except KeyboardInterrupt as ex:
        front.stop()
        engine.close()
        # 130 on Ctrl-C, 143 on SIGTERM: a supervisor tells a stop from a clean exit.
        raise SystemExit(stop_code(ex)) from None
