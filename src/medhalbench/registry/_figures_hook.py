"""Every figure of a run kept in its log when its task ends, on every route into our tasks
(our command line, `inspect eval medhalbench/...`, `eval_set`, the Python API, `retry`):
a task's metric returns only its headline figures, which inspect shows (see
`results.keep_every_figure`)."""

from __future__ import annotations

from inspect_ai.hooks import Hooks, TaskEnd
from inspect_ai.log import read_eval_log_async, write_eval_log_async

from medhalbench.results import keep_every_figure


class EveryFigureKept(Hooks):
    """Adds every figure of a finished run to its log's header."""

    async def on_task_end(self, data: TaskEnd) -> None:
        """Compute every figure of the run's scored samples by its task's own metric, keep
        them in the log inspect hands back (`eval()` returns it) and write its header again
        with them."""
        log, location = data.log, data.log.location
        if not location or log.results is None:
            return
        scored = log if log.samples is not None else await read_eval_log_async(location)
        if keep_every_figure(log, scored):
            await write_eval_log_async(log, location, header_only=True)
