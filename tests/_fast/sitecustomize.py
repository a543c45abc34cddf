"""Test runs only: inspect's retry back-off (3 s doubling, with up to 3 s of jitter) is
shortened to milliseconds, so that the tests of failing servers and batches wait for
nothing. tests/conftest.py imports this module and puts its folder on PYTHONPATH, so every
process the tests start imports it too (Python imports `sitecustomize` at start-up).

inspect builds every back-off with tenacity's `wait_exponential_jitter` (model calls,
batch admin operations, log writes); replacing that one name keeps the retry logic itself
(what is retried, how often, when it stops) exactly as users run it."""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from typing import Any

import tenacity

_real_wait = tenacity.wait_exponential_jitter


def _short_wait(*args: Any, **kwargs: Any) -> Any:
    return _real_wait(initial=0.01, max=0.05, jitter=0.01)


tenacity.wait_exponential_jitter = _short_wait  # type: ignore[misc,assignment]


# inspect renders each failed sample's traceback twice, as text and as a rich ANSI render with
# every frame's source tokenised (about 0.3 s of CPU each), and each failed task's again in its
# results panel: a test of a failing server fails dozens of samples. Here the ANSI render is the text itself, unless a test asks for the
# render with local variables (INSPECT_TRACEBACK_LOCALS=1: what a key could hide in). The
# text, which every command reads, is inspect's own. Patched as inspect loads the function's
# module (before the modules that import it by name), so that a process that never imports
# inspect does not load it here.
_TRACEBACKS = "inspect_ai._util.rich"


def _plain_tracebacks(module: Any) -> None:
    import os

    rendered = module.format_traceback

    def plain(exc_type: Any, exc_value: Any, exc_traceback: Any) -> tuple[str, str]:
        if os.environ.get("INSPECT_TRACEBACK_LOCALS") == "1":
            return rendered(exc_type, exc_value, exc_traceback)  # type: ignore[no-any-return]
        text, _ = module.truncate_traceback(exc_type, exc_value, exc_traceback)
        return text, text

    module.format_traceback = plain
    # The panel inspect renders for a task that failed: its traceback without highlighting
    # (lexing each frame's whole source file), as inspect renders one it does not show.
    highlighted = module.rich_traceback
    module.rich_traceback = lambda *args, **kwargs: highlighted(
        *args, **{**kwargs, "highlight_code": False}
    )


class _PatchOnLoad(importlib.abc.MetaPathFinder):
    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        if name != _TRACEBACKS:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None:
            execute = spec.loader.exec_module

            def exec_module(module: Any) -> None:
                execute(module)
                _plain_tracebacks(module)

            spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


sys.meta_path.insert(0, _PatchOnLoad())
