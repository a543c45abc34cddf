"""The command line's own progress display, fed by inspect's hooks: one bar per task with its
samples done, and the retries and waits of its model calls as they happen (so that a dead
or rate-limited server shows itself at once, instead of a silent bar)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field

from inspect_ai.hooks import Hooks, ModelRetry, SampleEnd, TaskEnd, TaskStart, hooks
from inspect_ai.model import get_model
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

from medhalbench._secrets import redact_logging
from medhalbench.registry import find_benchmark
from medhalbench.results import benchmark_name


@dataclass
class _TaskLine:
    bar: TaskID
    name: str
    retries: int = 0
    waited: float = 0.0
    failed: int = 0
    note: str = ""


@dataclass
class RetryRecord:
    """What the retries of one model's calls looked like."""

    retries: int = 0
    waited: float = 0.0
    last_failure: str = ""


@dataclass
class _State:
    active: bool = False
    progress: Progress | None = None
    tasks: dict[str, _TaskLine] = field(default_factory=dict)
    retries: dict[str, RetryRecord] = field(default_factory=dict)


_state = _State()


def _failure(data: ModelRetry) -> str:
    kind = data.exception_type or "error"
    return f"{kind} {data.status_code}" if data.status_code else kind


class ProgressHooks(Hooks):
    """Feeds the progress display and keeps each model's retries (for the error summary)."""

    def enabled(self) -> bool:
        return _state.active

    async def on_task_start(self, data: TaskStart) -> None:
        redact_logging()  # inspect's handlers exist once a task starts
        progress = _state.progress
        if progress is None:
            return
        samples = (data.spec.dataset.samples or 0) * max(1, data.spec.config.epochs or 1)
        # Named by model and settings, so that two runs of one benchmark are told apart.
        entry = find_benchmark(benchmark_name(data.spec.task))
        settings = entry.describe(data.spec.metadata or {}) if entry else []
        name = " · ".join([data.spec.task.split("/")[-1], data.spec.model, *settings])
        _state.tasks[data.eval_id] = _TaskLine(
            progress.add_task(name, total=samples or None, note=""), name
        )

    async def on_sample_end(self, data: SampleEnd) -> None:
        line = _state.tasks.get(data.eval_id)
        if _state.progress is not None and line is not None:
            if data.sample.error is None:
                _state.progress.advance(line.bar)
            else:
                line.failed += 1
                _state.progress.update(
                    line.bar, note=f"[red]{line.failed} failed[/red] {line.note}"
                )

    async def on_model_retry(self, data: ModelRetry) -> None:
        record = _state.retries.setdefault(data.model_name, RetryRecord())
        record.retries += 1
        record.waited += data.wait_time
        record.last_failure = _failure(data)
        line = _state.tasks.get(data.eval_id or "")
        if _state.progress is not None and line is not None:
            line.retries += 1
            line.waited += data.wait_time
            line.note = f"[yellow]retries {line.retries} (last: {record.last_failure}; next in {data.wait_time:.0f} s)[/yellow]"
            failed = f"[red]{line.failed} failed[/red] " if line.failed else ""
            _state.progress.update(line.bar, note=failed + line.note)

    async def on_task_end(self, data: TaskEnd) -> None:
        line = _state.tasks.pop(data.eval_id, None)
        if _state.progress is not None and line is not None:
            _state.progress.update(line.bar, visible=True)


_registered = False


def _register() -> None:
    """Register the hooks, once. inspect prints a banner at its first model or eval when any
    hook is registered; letting it start first (a `none` model) keeps the banner away."""
    global _registered
    if not _registered:
        get_model("none/none")
        hooks(
            name="medhalbench_progress",
            description="medhalbench's progress display and retry record.",
        )(ProgressHooks)
        _registered = True


def retry_record(model: str) -> RetryRecord | None:
    """The retries seen for a model's calls in this process (None if none). inspect names
    the model without its provider (`local/x` for `openai-api/local/x`)."""
    for name, record in _state.retries.items():
        if model == name or model.endswith(f"/{name}"):
            return record
    return None


@contextlib.contextmanager
def progress_display(console: Console, *, enabled: bool = True) -> Iterator[None]:
    """Record retries, and show one progress bar per task (when enabled), while the block runs."""
    _register()
    _state.active = True
    if not enabled:
        try:
            yield
        finally:
            _state.active = False
        return
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[note]}"),
        console=console,
        transient=False,
    )
    _state.progress = progress
    try:
        with progress:
            yield
    finally:
        _state.active = False
        _state.progress = None
        _state.tasks.clear()
