"""`medhalbench demo`: the main job, offline on the embedded default model."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from medhalbench._lazy import by_name
from medhalbench.cli._options import eval_model_params, examples_epilog
from medhalbench.registry import benchmarks, demo_roles
from medhalbench.settings import DEMO_ROWS

F = Callable[..., Any]


def _data_options(f: F) -> F:
    """`--<benchmark> DATA` for each benchmark with a demo: the user's data instead of its
    packaged example."""
    for entry in reversed([b for b in benchmarks() if b.demo]):
        f = click.option(
            f"--{entry.name}",
            f"data_{entry.name}",
            default=None,
            help=f"{entry.title} data to use instead of the packaged illustrative example.",
        )(f)
    return f


@click.command(
    name="demo",
    params=eval_model_params(demo_roles()),
    epilog=examples_epilog(
        [
            "medhalbench demo",
            "medhalbench demo --limit 2 --report first.html",
            "medhalbench demo --medhallu pqa_labeled.jsonl --limit 20",
        ]
    ),
)
@_data_options
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=None,
    help=f"Use the first N rows of each dataset (default: all of the data you give, the first {DEMO_ROWS} of a packaged example).",
)
@click.option(
    "--free-text",
    is_flag=True,
    help="Let the judges answer in free text, as the papers did (default: constrained JSON verdicts with probabilities).",
)
@click.option(
    "--report",
    "report_path",
    default="report.html",
    show_default=True,
    help="Where to write the HTML report of this demo's logs.",
)
def demo_command(**values: Any) -> None:
    """Run every benchmark on small data, offline on the embedded model, and print one table
    per run. Without options it uses illustrative examples shipped in the package.

    The judges answer with constrained JSON verdicts and log-probabilities (so that a tiny
    model's replies can be read, and AUROC computed); --free-text runs the papers' protocol.
    """
    by_name("medhalbench.commands:demo_from_command_line")(**values)
