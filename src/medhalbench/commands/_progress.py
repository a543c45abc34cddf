"""The command line's own progress display, fed by inspect's hooks: one bar per task with its
samples done, and the retries and waits of its model calls as they happen (so that a dead
or rate-limited server shows itself at once, instead of a silent bar)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.hooks import Hooks, ModelRetry, SampleEnd, TaskEnd, TaskStart, hooks
from inspect_ai.model import GenerateConfig
from rich.console import Console, RenderableType
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Column
from rich.text import Text

from medhalbench._secrets import guard_active_models
from medhalbench.commands._models import quiet_hooks
from medhalbench.commands._saturation import (
    local_endpoints,
    saturation_hint,
    server_slots,
    timeout_hint,
)
from medhalbench.registry import find_benchmark
from medhalbench.results import RunRecord, benchmark_name
from medhalbench.settings import SETTINGS_KEY, Generation


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
    progress: Progress | LineProgress | None = None
    console: Console | None = None
    tasks: dict[str, _TaskLine] = field(default_factory=dict)
    retries: dict[str, RetryRecord] = field(default_factory=dict)
    local: dict[str, list[str]] = field(default_factory=dict)
    """Each task's local servers (by eval id)."""
    warned: set[str] = field(default_factory=set)
    """Local servers already said to be saturated."""
    reused: dict[str, int] = field(default_factory=dict)
    """Samples a retry takes from its log as they are, by task id (inspect reports no end of
    them): a retried task's bar starts there."""


_state = _State()

BAR_WIDTH = 20
"""The bar's characters: with the count and the times it fits an 80-column terminal."""


class TaskProgress(Progress):
    """Progress bars with each task's name on a line of its own above its bar, count and
    times, so that a long name (benchmark, model, settings) never pushes the count or the
    time off a narrow terminal."""

    def get_renderables(self) -> Iterable[RenderableType]:
        for task in self.tasks:
            if task.visible:
                yield Text(task.description, style="bold", overflow="fold")
                yield self.make_tasks_table([task])


class LineProgress:
    """Progress as lines, for output that is not a terminal (a file, a pipe, CI): a line when
    a task starts, at each tenth of its samples, on each new retry note and when it ends, so
    that a long run shows it is alive where no bar can be redrawn."""

    STEPS = 10
    """Lines per task between its start and its end."""

    def __init__(self, console: Console) -> None:
        self._console = console
        self._lines: dict[TaskID, _LineState] = {}

    def add_task(
        self, description: str, total: float | None = None, completed: int = 0, **_: Any
    ) -> TaskID:
        bar = TaskID(len(self._lines))
        self._lines[bar] = _LineState(description, int(total) if total else None, completed)
        self._say(bar, "started")
        return bar

    def advance(self, bar: TaskID, advance: float = 1) -> None:
        line = self._lines[bar]
        before = line.done
        line.done += int(advance)
        if line.total and line.done * self.STEPS // line.total > before * self.STEPS // line.total:
            self._say(bar)

    def update(
        self, bar: TaskID, *, note: str | None = None, visible: bool | None = None, **_: Any
    ) -> None:
        line = self._lines[bar]
        if note is not None and note != line.note:
            line.note = note
            self._say(bar)
        if visible is not None:  # the task ended
            self._say(bar, "ended")

    def _say(self, bar: TaskID, event: str = "") -> None:
        line = self._lines[bar]
        count = f"{line.done}/{line.total}" if line.total else str(line.done)
        words = [line.description, count, event, line.note]
        self._console.print(" · ".join(w for w in words if w), soft_wrap=True, highlight=False)


@dataclass
class _LineState:
    description: str
    total: int | None
    done: int = 0
    note: str = ""


def _failure(data: ModelRetry) -> str:
    kind = data.exception_type or "error"
    return f"{kind} {data.status_code}" if data.status_code else kind


class ProgressHooks(Hooks):
    """Feeds the progress display and keeps each model's retries (for the error summary)."""

    def enabled(self) -> bool:
        return _state.active

    async def on_task_start(self, data: TaskStart) -> None:
        guard_active_models()  # a retried task's models are made by inspect from its log
        await _check_local_servers(data)
        progress = _state.progress
        if progress is None:
            return
        samples = (data.spec.dataset.samples or 0) * max(1, data.spec.config.epochs or 1)
        # Named by model and settings, so that two runs of one benchmark are told apart.
        entry = find_benchmark(benchmark_name(data.spec.task))
        settings = entry.implementation.describe(_task_record(data)) if entry else []
        name = " · ".join([data.spec.task.split("/")[-1], data.spec.model, *settings])
        _state.tasks[data.eval_id] = _TaskLine(
            progress.add_task(
                name,
                total=samples or None,
                completed=_state.reused.get(data.spec.task_id, 0),
                note="",
            ),
            name,
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
            local = _state.local.get(data.eval_id or "")
            if local and "timeout" in record.last_failure.lower():
                line.note += f" [yellow]({timeout_hint(local[0])})[/yellow]"
            failed = f"[red]{line.failed} failed[/red] " if line.failed else ""
            _state.progress.update(line.bar, note=failed + line.note)

    async def on_task_end(self, data: TaskEnd) -> None:
        line = _state.tasks.pop(data.eval_id, None)
        if _state.progress is not None and line is not None:
            _state.progress.update(line.bar, visible=True)


def _task_record(data: TaskStart) -> RunRecord:
    """A starting task's settings, with the generation settings its record says it sends,
    as inspect's own options override them (its effective config is not known yet)."""
    metadata = data.spec.metadata or {}
    given = Generation.read(metadata.get(SETTINGS_KEY) or {})
    config = GenerateConfig(temperature=given.temperature, max_tokens=given.max_tokens)
    return RunRecord.of(metadata, config.merge(data.spec.model_generate_config))


async def _check_local_servers(data: TaskStart) -> None:
    """Say, once per server, where a local server decodes fewer calls at once than we send."""
    endpoints = local_endpoints(data.spec)
    _state.local[data.eval_id] = [e.base_url for e in endpoints]
    for endpoint in endpoints:
        if endpoint.base_url in _state.warned:
            continue
        _state.warned.add(endpoint.base_url)
        hint = saturation_hint(endpoint, await asyncio.to_thread(server_slots, endpoint.base_url))
        if hint and _state.console is not None:
            _state.console.print(Text(hint, style="yellow"))


_registered = False


def _register() -> None:
    """Register the hooks, once. inspect prints a banner at its first model or eval when any
    hook is registered; loading its hooks first, quietly, keeps the banner away."""
    global _registered
    if not _registered:
        quiet_hooks()
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
def progress_display(
    console: Console, *, enabled: bool = True, reused: Mapping[str, int] | None = None
) -> Iterator[None]:
    """Record retries, and show one progress bar per task (when enabled), while the block runs.

    Args:
        console: Where the bars (in a terminal) or progress lines (elsewhere) go.
        enabled: Show progress at all (retries are recorded either way).
        reused: Samples a retry takes from its log, by task id: its bar starts there.
    """
    _register()
    _state.reused = dict(reused or {})
    _state.active = True
    _state.console = console
    if not enabled:
        try:
            yield
        finally:
            _state.active = False
        return
    # Bars are redrawn in a terminal; elsewhere (a file, a pipe, CI) progress comes as lines.
    progress: Progress | LineProgress = (
        TaskProgress(
            BarColumn(bar_width=BAR_WIDTH),
            MofNCompleteColumn(table_column=Column(no_wrap=True)),
            TimeElapsedColumn(table_column=Column(no_wrap=True)),
            TimeRemainingColumn(table_column=Column(no_wrap=True)),
            TextColumn("{task.fields[note]}", table_column=Column(overflow="fold")),
            console=console,
            transient=False,
        )
        if console.is_terminal
        else LineProgress(console)
    )
    _state.progress = progress
    try:
        with progress if isinstance(progress, Progress) else contextlib.nullcontext():
            yield
    finally:
        _state.active = False
        _state.progress = None
        _state.tasks.clear()
        _state.warned.clear()
        _state.reused.clear()
