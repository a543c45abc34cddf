"""Options and output shared by the commands that call models."""

from __future__ import annotations

import asyncio
import datetime
import os
import sys
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar, overload

import click
from inspect_ai import Task, eval
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log
from inspect_ai.model import Model
from rich.console import Console

from medhalbench._errors import MedhalbenchError
from medhalbench.commands._errors import INTERRUPTED, fail, interruptible, leaf
from medhalbench.commands._models import (
    DEFAULT_ATTEMPT_TIMEOUT,
    DEFAULT_MAX_RETRIES,
    connection,
    normalise_model_name,
    parse_role_values,
    resolve_model,
    role_connection,
)
from medhalbench.commands._plans import keep_plan, print_plans, task_plan_of
from medhalbench.commands._progress import progress_display, retry_record
from medhalbench.commands._types import COUNT, NON_NEGATIVE, POSITIVE
from medhalbench.models import DEFAULT_MODEL
from medhalbench.statistics import DEFAULT_RESAMPLES

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

DEFAULT_LOG_DIR = "logs"
PIPED_WIDTH = 160
BATCH_SAMPLE_RETRIES = 2
"""Times a sample whose provider batch failed is sent again within the run."""
REALTIME_LOG_SAMPLES = 1000
"""Above this many samples in a run, sample events are not streamed for inspect view's live
display: at 5,000 MedHallu samples on 2 cores that streaming took 30% of the run
(bench/scale.py); the log itself is written as before."""


def realtime_logging(tasks: Sequence[Task]) -> bool:
    """Whether a run is small enough to stream its sample events live."""
    return sum(len(t.dataset) * (t.epochs or 1) for t in tasks) <= REALTIME_LOG_SAMPLES


def _console() -> Console:
    # A terminal, or COLUMNS, sets the width; piped output gets room for the wide tables.
    piped = not sys.stdout.isatty() and "COLUMNS" not in os.environ
    return Console(width=PIPED_WIDTH if piped else None)


console = _console()


def _connection_options() -> list[Callable[[F], F]]:
    return [
        click.option(
            "--max-connections",
            type=COUNT,
            default=None,
            help="Concurrent calls per model API (default: inspect's adaptive limit; an embedded model's slots).",
        ),
        click.option(
            "--max-retries",
            type=NON_NEGATIVE,
            default=None,
            help=f"Retries of a failed model call, with inspect's backoff (3 s doubling). Default {DEFAULT_MAX_RETRIES}: a dead server is given up after about 3 minutes; rate limits of that order are ridden out.",
        ),
        click.option(
            "--timeout",
            type=COUNT,
            default=None,
            help="Seconds a model call may take in all, retries included (default: no limit).",
        ),
        click.option(
            "--attempt-timeout",
            type=COUNT,
            default=None,
            help=f"Seconds one attempt may take before it is abandoned and retried (default {DEFAULT_ATTEMPT_TIMEOUT}).",
        ),
        click.option(
            "--batch",
            is_flag=True,
            help="Send the calls through the provider's batch API (OpenAI, Anthropic, Google, Together, Grok: about half price, results within hours).",
        ),
        click.option(
            "--batch-delay",
            type=POSITIVE,
            default=None,
            help="With --batch: seconds before a partly filled batch is sent, and between status checks (inspect's default 15).",
        ),
    ]


def _plan_options() -> list[Callable[[F], F]]:
    return [
        click.option(
            "--dry-run",
            is_flag=True,
            help="Load and check the data, then print the model calls and tokens per role (and the cost with --prices) without calling any model.",
        ),
        click.option(
            "--prices",
            type=click.Path(exists=True, dir_okay=False),
            default=None,
            help="YAML or TOML file of MODEL: {input: $, output: $} per million tokens, for the cost in plans.",
        ),
    ]


def _role_options(roles: Sequence[str]) -> list[Callable[[F], F]]:
    names = ", ".join(roles)

    def by_role(
        option: str,
    ) -> Callable[[click.Context, click.Parameter, tuple[str, ...]], dict[str, list[str]]]:
        return lambda ctx, param, values: parse_role_values(values, roles, option)

    return [
        click.option(
            "--role-base-url",
            "role_base_urls",
            multiple=True,
            callback=by_role("--role-base-url"),
            help=f"ROLE=URL: base URL of one role's model ({names}); default: --model-base-url when the role names the same provider.",
        ),
        click.option(
            "--role-arg",
            "role_args",
            multiple=True,
            callback=by_role("--role-arg"),
            help=f"ROLE:NAME=VALUE: model argument of one role ({names}); default: -M when the role names the same provider.",
        ),
    ]


def _apply(f: F, options: list[Callable[[F], F]]) -> F:
    for option in reversed(options):
        f = option(f)
    return f


DISPLAYS = ["full", "conversation", "rich", "plain", "log", "none"]


def model_options(roles: Sequence[str] = ()) -> Callable[[F], F]:
    """Options naming the model under test, its roles' models, and how inspect calls them."""

    def decorate(f: F) -> F:
        return _apply(
            f,
            [
                click.option(
                    "--model",
                    "models",
                    multiple=True,
                    help=f"Model(s) under test, inspect names (e.g. openai/gpt-4o, openai-api/NAME, embedded/smollm2, embedded:/abs/model.gguf). Repeat or comma-separate for several. Default: {DEFAULT_MODEL}.",
                ),
                click.option(
                    "--model-base-url",
                    default=None,
                    help="Base URL of the model's API (e.g. a local OpenAI-compatible server).",
                ),
                click.option(
                    "-M",
                    "model_args",
                    multiple=True,
                    help="Model argument NAME=VALUE, passed to the provider.",
                ),
                *(_role_options(roles) if roles else []),
                click.option(
                    "--log-dir",
                    default=DEFAULT_LOG_DIR,
                    show_default=True,
                    help="Where inspect writes its logs.",
                ),
                *_connection_options(),
                *_plan_options(),
                click.option(
                    "--cache/--no-cache",
                    default=True,
                    show_default=True,
                    help="Use inspect's response cache, so a rerun makes no repeated calls.",
                ),
                click.option(
                    "--display",
                    default=None,
                    type=click.Choice(DISPLAYS),
                    help="inspect's own display (default: our progress bars with retry counts; 'none': no progress). Errors always go to stderr.",
                ),
            ],
        )

    return decorate


def prompt_options(template_placeholders: str) -> Callable[[F], F]:
    """`--prompt` (system prompt file) and `--template` (user template file) options."""

    def decorate(f: F) -> F:
        return _apply(
            f,
            [
                click.option(
                    "--prompt",
                    type=click.Path(dir_okay=False),
                    default=None,
                    help="File replacing the system prompt.",
                ),
                click.option(
                    "--template",
                    type=click.Path(dir_okay=False),
                    default=None,
                    help=f"File replacing the user template ({template_placeholders}).",
                ),
            ],
        )

    return decorate


@overload
def absolute(path: str) -> str: ...


@overload
def absolute(path: None) -> None: ...


def absolute(path: str | None) -> str | None:
    """A local file's absolute path (so that a log resumed from another folder finds it);
    anything that is not a local path (a hub id, `github`) unchanged."""
    if path is None or not Path(path).expanduser().exists():
        return path
    return str(Path(path).expanduser().resolve())


def split_models(models: Sequence[str]) -> list[str]:
    """Flatten repeated and comma-separated `--model` values; default to the embedded model."""
    names = [m.strip() for value in models for m in value.split(",") if m.strip()]
    return [normalise_model_name(n) for n in names] or [DEFAULT_MODEL]


def run_eval(
    tasks: Task | list[Task],
    *,
    models: list[str],
    options: dict[str, Any],
    roles: dict[str, str] | None = None,
    announce: bool = True,
    plan_settings: Mapping[str, Any] | None = None,
) -> list[EvalLog]:
    """Run tasks through inspect with the shared options, announcing the models used.

    Models and roles are resolved first, so that a bad name, model argument or missing key
    stops the command with one line before any work. The display is our progress bars
    (with retry counts) unless `--display` names one of inspect's.

    Args:
        tasks: The tasks.
        models: Models under test.
        options: The values of `model_options`.
        roles: Model roles (e.g. `splitter`, `checker`) by name.
        announce: Print the models and roles first.
        plan_settings: Benchmark settings of the plans (e.g. DAHL's `units_per_answer`).

    Returns:
        The logs; none with `--dry-run`, which prints each task's plan instead.
    """
    tasks = tasks if isinstance(tasks, list) else [tasks]
    plans = [task_plan_of(t, models, roles or {}, plan_settings or {}) for t in tasks]
    if options.get("dry_run"):
        print_plans(console, plans, options)
        return []
    for task, plan in zip(tasks, plans, strict=True):
        keep_plan(task, plan)
    main = connection(options)
    resolved = [
        resolve_model(name, main, option="--model") for name in models if name != "none/none"
    ]
    role_models: dict[str, Model] = {
        role: resolve_model(
            name, role_connection(role, name, options, models[0]), option=f"--{role}"
        )
        for role, name in (roles or {}).items()
    }
    if announce:
        console.print(f"[bold]Model(s) under test:[/bold] {', '.join(models)}")
        for role, name in (roles or {}).items():
            console.print(f"[bold]{role.capitalize()} model:[/bold] {name}")
    display = options.get("display")
    started = time.time()
    try:
        with interruptible(), progress_display(console, enabled=display is None):
            return eval(
                tasks,
                model=resolved or "none/none",
                model_roles=role_models or None,
                log_dir=options["log_dir"],
                display=display or "none",
                cache=options["cache"],
                log_realtime=realtime_logging(tasks),
                # inspect fails a whole provider batch when one of its lines failed: send
                # those samples again rather than ending the run.
                retry_on_error=BATCH_SAMPLE_RETRIES if options.get("batch") else None,
                # Running figures (with their intervals) only where inspect's display shows them.
                score_display=display not in (None, "none"),
            )
    except MedhalbenchError:
        raise
    except KeyboardInterrupt:
        headers = [
            read_eval_log(info, header_only=True) for info in list_eval_logs(options["log_dir"])
        ]
        stopped = [
            read_eval_log(log.location)
            for log in headers
            if log.status == "cancelled" and _created_after(log, started)
        ]
        fail_on_unfinished(stopped)
        fail("stopped by the user", INTERRUPTED)
        raise
    except Exception as ex:  # inspect wraps task-construction errors; surface ours cleanly
        cause = leaf(ex)
        cause = cause.__cause__ or cause.__context__ or cause
        if isinstance(cause, MedhalbenchError):
            raise cause from None
        raise


def log_path(log: EvalLog) -> str:
    """A log's file path (inspect names logs it lists by `file://` URI)."""
    return log.location.removeprefix("file://")


def _created_after(log: EvalLog, moment: float) -> bool:
    created = datetime.datetime.fromisoformat(str(log.eval.created))
    return created.timestamp() >= moment - 1


def print_log_locations(logs: Sequence[EvalLog], log_dir: str) -> None:
    """Say where the logs are and how to open them (nothing when there are none)."""
    if not logs:
        return
    for log in logs:
        console.print(f"Log ({log.status}): {log_path(log)}")
    console.print(
        f"Open the per-sample logs with: [bold]inspect view --log-dir {Path(log_dir)}[/bold]"
    )


_FAILURES = [
    ("Connection refused", "connection refused"),
    ("All connection attempts failed", "connection refused (nothing answers there)"),
    ("Name or service not known", "unknown host"),
    ("AuthenticationError", "401 unauthorized (check the API key)"),
    ("PermissionDeniedError", "403 forbidden"),
    ("RateLimitError", "429 rate limited"),
    ("APITimeoutError", "timed out"),
    ("TimeoutError", "timed out"),
    ("RemoteProtocolError", "the server closed the connection"),
    ("InternalServerError", "server error (5xx)"),
    ("APIConnectionError", "cannot connect"),
    ("ConnectError", "cannot connect"),
]


def failure_reason(log: EvalLog) -> str:
    """What stopped a run, in a few words: the underlying error, not inspect's wrapper."""
    if log.error is None:
        return log.status
    text = f"{log.error.message}\n{log.error.traceback}"
    for needle, reason in _FAILURES:
        if needle in text:
            return reason
    return " ".join(log.error.message.split())[:300]


def _failing_model(log: EvalLog) -> tuple[str, str | None]:
    """The model whose calls failed (the role with retries, else the model under test) and
    its base URL."""
    candidates = [(log.eval.model, log.eval.model_base_url)]
    for role in (log.eval.model_roles or {}).values():
        for config in role if isinstance(role, list) else [role]:
            candidates.append((config.model, config.base_url))
    retried = [c for c in candidates if retry_record(c[0])]
    return retried[0] if retried else candidates[0]


def fail_on_unfinished(logs: Sequence[EvalLog]) -> None:
    """For each run that did not finish, one line on stderr: the model, its base URL, the
    underlying error, the retries made, the samples done, and how to finish it; then exit."""
    failed = [log for log in logs if log.status != "success"]
    if not failed:
        return
    for log in failed:
        model, base_url = _failing_model(log)
        where = f" at {base_url}" if base_url else ""
        record = retry_record(model)
        retries = (
            f" after {record.retries} retries ({record.waited:.0f} s of waits)" if record else ""
        )
        done = sum(s.error is None for s in log.samples or [])
        total = (log.eval.dataset.samples or 0) * max(1, log.eval.config.epochs or 1)
        what = (
            "stopped by the user"
            if log.status == "cancelled"
            else f"{failure_reason(log)}{retries}"
        )
        click.secho(
            f"error: {model}{where}: {what}; {done} of {total} samples done. "
            f"Finish it with: medhalbench retry {log_path(log)}",
            fg="red",
            err=True,
        )
    sys.exit(INTERRUPTED if all(log.status == "cancelled" for log in failed) else 1)


def builder_model_options(roles: Sequence[str], *, plans: bool = True) -> Callable[[F], F]:
    """Options controlling how a builder's models are called (`plans`: with `--dry-run` and
    `--prices`, for commands that can plan)."""

    def decorate(f: F) -> F:
        return _apply(
            f,
            [
                click.option(
                    "--model-base-url",
                    default=None,
                    help="Base URL for the builder's models (e.g. a local OpenAI-compatible server).",
                ),
                click.option(
                    "-M",
                    "model_args",
                    multiple=True,
                    help="Model argument NAME=VALUE, passed to the provider of the builder's models.",
                ),
                *_role_options(roles),
                *_connection_options(),
                *(_plan_options() if plans else []),
            ],
        )

    return decorate


def role_model(role: str, name: str, options: dict[str, Any]) -> Model:
    """A builder role's model, with the builder's connection options (checked now)."""
    return resolve_model(name, role_connection(role, name, options, None), option=f"--{role}")


def run_build(build: Awaitable[T], out_dir: str) -> T:
    """Run a builder; when a model call fails for good or the user stops it, say so in one
    line (the work finished so far is already on disk, and a rerun does only the rest)."""
    try:
        with interruptible():
            return asyncio.run(build)  # type: ignore[arg-type]
    except MedhalbenchError:
        raise
    except KeyboardInterrupt:
        fail(
            f"stopped by the user; finished work is saved in {out_dir}; rerun the same command to finish the rest",
            INTERRUPTED,
        )
        raise
    except Exception as ex:
        cause = leaf(ex)
        fail(
            f"the build stopped: {type(cause).__name__}: {' '.join(str(cause).split())[:300]}. "
            f"Finished work is saved in {out_dir}; rerun the same command to finish the rest",
            1,
        )
        raise


def figure_options(f: F) -> F:
    """Options shared by the eval commands: verdict shape and probabilities, intervals, tables."""
    for option in reversed(
        [
            click.option(
                "--structured",
                is_flag=True,
                help="Ask for the verdict as JSON through the provider's constrained decoding (JSON schema); off: the paper's free-text protocol.",
            ),
            click.option(
                "--probabilities",
                is_flag=True,
                help="Ask for log-probabilities (embedded engine, vLLM, OpenAI) and report AUROC, average precision and calibration.",
            ),
            click.option(
                "--bootstrap",
                type=click.IntRange(min=0),
                default=DEFAULT_RESAMPLES,
                show_default=True,
                help="Bootstrap resamples for the 95% intervals (0: none).",
            ),
            click.option(
                "--wide",
                is_flag=True,
                help="One wide table of every figure (default: one narrow table per run).",
            ),
            click.option(
                "--published",
                is_flag=True,
                help="With --wide: add the paper's published figures as reference rows.",
            ),
        ]
    ):
        f = option(f)
    return f
