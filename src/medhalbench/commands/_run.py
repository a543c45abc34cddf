"""Running evaluations through inspect with our progress display, errors and output."""

from __future__ import annotations

import datetime
import os
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO, cast

from inspect_ai import Task, eval
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log
from inspect_ai.model import Model, get_model
from rich.console import Console
from rich.segment import Segment
from rich.text import Text

from medhalbench._errors import MedhalbenchError
from medhalbench._secrets import redact_file
from medhalbench.commands._errors import fail, interruptible, leaf, stop_code
from medhalbench.commands._failures import fail_on_unfinished, log_path
from medhalbench.commands._folders import writable_folder
from medhalbench.commands._log_names import named_logs
from medhalbench.commands._models import (
    check_model_name,
    connection,
    normalise_model_name,
    quiet_hooks,
    resolve_models,
    role_connection,
)
from medhalbench.commands._plans import keep_plan, print_plans, task_plan_of
from medhalbench.commands._prechecks import check_before_work
from medhalbench.commands._progress import progress_display
from medhalbench.models import repeatability, writes_nothing
from medhalbench.registry import benchmark_of
from medhalbench.results import FIGURES_KEY, keep_every_figure, log_headers
from medhalbench.settings import (
    DEFAULT_MODEL,
    DEFAULT_REPLY_SEED,
    RunOptions,
    Settings,
    kept_settings,
)
from medhalbench.text import printable

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


class _PrintableConsole(Console):
    """A console that shows the text it is given (names, file names, replies) with every
    character a terminal would act on escaped: the print boundary (`printable`). Text given
    as a string is escaped before it is laid out; any other (a `Text`, a table's title) as
    it is rendered, so that nothing reaches the terminal unescaped."""

    def render_str(self, text: str, **kwargs: Any) -> Text:
        return super().render_str(printable(text), **kwargs)

    def render(self, renderable: Any, options: Any = None) -> Iterator[Segment]:
        for segment in super().render(renderable, options):
            # The console's own controls (cursor moves of a live display) are its own.
            yield segment if segment.control else segment._replace(text=printable(segment.text))


def _console(stdout: TextIO) -> Console:
    # A terminal, or COLUMNS, sets the width; piped output gets room for the wide tables.
    piped = not stdout.isatty() and "COLUMNS" not in os.environ
    return _PrintableConsole(width=PIPED_WIDTH if piped else None)


class _CurrentConsole:
    """The console sized for where output goes now: rich fixes a console's width when it is
    made, so one is made again when stdout, its being a terminal, or COLUMNS has changed
    (a second command in one process, e.g. under the Python API or tests)."""

    def __init__(self) -> None:
        self._made: tuple[object, ...] | None = None
        self._console: Console = _PrintableConsole()

    def _current(self) -> Console:
        # rich's live display swaps sys.stdout for a proxy of itself while it runs: the proxied
        # file is where output goes (as rich's own Console.file reads it), so the console made
        # before the display is the one that stops it.
        stdout = getattr(sys.stdout, "rich_proxied_file", sys.stdout)
        now = (id(stdout), stdout.isatty(), os.environ.get("COLUMNS"))
        if now != self._made:
            self._console, self._made = _console(stdout), now
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self._current(), name)

    def __enter__(self) -> Console:
        return self._current().__enter__()

    def __exit__(self, *exc: Any) -> None:
        self._console.__exit__(*exc)


console = cast(Console, _CurrentConsole())


def split_models(models: Sequence[str]) -> list[str]:
    """Flatten repeated and comma-separated `--model` values; default to the embedded model."""
    names = [m.strip() for value in models for m in value.split(",") if m.strip()]
    return [normalise_model_name(n) for n in names] or [DEFAULT_MODEL]


def run_eval(
    tasks: Task | list[Task],
    *,
    models: list[str],
    options: RunOptions,
    roles: dict[str, str] | None = None,
    announce: bool = True,
    plan_settings: Settings | None = None,
) -> list[EvalLog]:
    """Run tasks through inspect with the shared options, announcing the models used.

    Models and roles are resolved first, so that a bad name, model argument or missing key
    stops the command with one line before any work. The display is our progress bars
    (with retry counts) unless `--display` names one of inspect's.

    Args:
        tasks: The tasks.
        models: Models under test.
        options: How the command runs them.
        roles: Model roles (e.g. `splitter`, `checker`) by name.
        announce: Print the models and roles first.
        plan_settings: What the plans assume (e.g. DAHL's `units_per_answer`).

    Returns:
        The logs; none with `--dry-run`, which prints each task's plan instead.
    """
    tasks = tasks if isinstance(tasks, list) else [tasks]
    roles = roles or {}
    quiet_hooks()
    plans = [task_plan_of(t, models, roles, plan_settings) for t in tasks]
    # How each model is reached, worked out once: checked, planned and resolved alike.
    main = connection(options)
    reached = {
        role: role_connection(role, name, options, models[0]) for role, name in roles.items()
    }
    check_before_work(
        tasks,
        plans,
        dict.fromkeys(models, main),
        {role: (name, reached[role]) for role, name in roles.items()},
    )
    if options.dry_run:
        for name in (m for m in models if not writes_nothing(m)):
            check_model_name(name, main, option="--model")
        for role, name in roles.items():
            check_model_name(name, reached[role], option=f"--{role}")
        print_plans(console, plans, options.prices)
        return []
    writable_folder(options.log_dir, "--log-dir")
    for task, plan in zip(tasks, plans, strict=True):
        keep_plan(task, plan)
    found = iter(
        resolve_models(
            [(name, main, "--model") for name in models if not writes_nothing(name)]
            + [(name, reached[role], f"--{role}") for role, name in roles.items()]
        )
    )
    resolved = [get_model(name) if writes_nothing(name) else next(found) for name in models]
    role_models: dict[str, Model] = {role: next(found) for role in roles}
    if announce:
        console.print(f"[bold]Model(s) under test:[/bold] {', '.join(models)}")
        for role, name in roles.items():
            console.print(f"[bold]{role.capitalize()} model:[/bold] {name}")
    display, seed = options.display, options.reply_seed
    if seed is None and not any(map(_authors_call, tasks)):
        seed = DEFAULT_REPLY_SEED  # the authors' call sends none: unless asked, nor does its run
    started = time.time()
    try:
        with interruptible(), progress_display(console, enabled=display is None):
            return settled_logs(
                eval(
                    tasks,
                    model=resolved or "none/none",
                    model_roles=role_models or None,
                    seed=seed,
                    metadata={"repeatability": _repeatability(resolved, role_models, seed)},
                    log_dir=options.log_dir,
                    # Samples and tasks in flight: inspect's defaults (one sample per
                    # connection, one task) unless given.
                    max_samples=options.max_samples,
                    max_tasks=options.max_tasks,
                    display=display or "none",
                    cache=options.cache,
                    log_realtime=realtime_logging(tasks),
                    # inspect fails a whole provider batch when one of its lines failed: send
                    # those samples again rather than ending the run.
                    retry_on_error=BATCH_SAMPLE_RETRIES if options.batch else None,
                    # Running figures (with their intervals) only where inspect's display shows them.
                    score_display=display not in (None, "none"),
                )
            )
    except MedhalbenchError:
        raise
    except KeyboardInterrupt as ex:
        headers = log_headers(options.log_dir)
        # A log the interrupt left before inspect could mark it cancelled still says
        # "started" (and keeps inspect's name): it was stopped all the same, and retry
        # finishes it.
        stopped = [
            log.model_copy(update={"status": "cancelled"})
            for log in settled_logs(
                [
                    read_eval_log(log.location)
                    for log in headers
                    if log.status in ("cancelled", "started") and _created_after(log, started)
                ]
            )
        ]
        fail_on_unfinished(stopped, stopped_code=stop_code(ex))
        fail("stopped by the user", stop_code(ex))
        raise
    except Exception as ex:  # inspect wraps task-construction errors; surface ours cleanly
        cause = leaf(ex)
        cause = cause.__cause__ or cause.__context__ or cause
        if isinstance(cause, MedhalbenchError):
            raise cause from None
        raise


def _authors_call(task: Task) -> bool:
    """Whether a task makes the call under test as its authors did (`--paper-call`)."""
    return getattr(kept_settings(task), "paper_call", None) is not None


def _repeatability(
    models: Sequence[Model], roles: Mapping[str, Model], seed: int | None
) -> dict[str, str]:
    """What each model of the run promises about repeating its replies (the log's record)."""
    found = {str(m): repeatability(m, seed) for m in models if not writes_nothing(str(m))}
    return found | {f"{role} {m}": repeatability(m, seed) for role, m in roles.items()}


def redacted_logs(logs: list[EvalLog]) -> list[EvalLog]:
    """The logs, their files rewritten without known secrets (a server may echo a key in an
    error; inspect records errors and model calls as they are)."""
    for log in logs:
        redact_file(log_path(log))
    return logs


def _every_figure_kept(logs: list[EvalLog]) -> list[EvalLog]:
    """The logs, each that stopped with some samples scored (cancelled, failed) given every
    figure of those samples: inspect calls the hook that keeps them (`EveryFigureKept`) only
    when a task succeeds, and leaves a stopped run its headline figures alone."""
    for log in logs:
        if log.results is None or not log.location or FIGURES_KEY in (log.results.metadata or {}):
            continue
        scored = log if log.samples is not None else read_eval_log(log.location)
        if keep_every_figure(log, scored):
            write_eval_log(log, log.location, header_only=True)
    return logs


def settled_logs(logs: list[EvalLog]) -> list[EvalLog]:
    """The logs as a command leaves them: every figure kept (`_every_figure_kept`),
    rewritten without known secrets (`redacted_logs`), then named by their runs
    (`named_logs`: benchmark, model and condition)."""
    return named_logs(redacted_logs(_every_figure_kept(logs)))


def _created_after(log: EvalLog, moment: float) -> bool:
    created = datetime.datetime.fromisoformat(str(log.eval.created))
    return created.timestamp() >= moment - 1


def write_outputs(logs: Sequence[EvalLog]) -> None:
    """Write the files each finished log's benchmark writes beside it (MedHal's predictions),
    and say where: after an eval, a retry or a suite alike."""
    for log in logs:
        entry = benchmark_of(log) if log.status == "success" else None
        for path in entry.implementation.outputs(log) if entry else []:
            console.print(f"Written: {path}")


def print_log_locations(logs: Sequence[EvalLog], log_dir: str) -> None:
    """Say where the logs are and how to open them (nothing when there are none)."""
    if not logs:
        return
    for log in logs:
        console.print(f"Log ({log.status}): {log_path(log)}")
    console.print(
        f"Open the per-sample logs with: [bold]inspect view --log-dir {Path(log_dir)}[/bold]"
    )
