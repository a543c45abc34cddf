"""Runs named outside the report: a log's file name, made of the run's benchmark, model and
condition (the condition as the report's summary reads it: `settings_of`), and a run found in
a folder of logs by the name the report shows or by its log's file stem."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from pathlib import Path

from medhalbench._errors import DataError
from medhalbench.report._collect import collect
from medhalbench.report._settings import declared, setting_as_text, settings_of
from medhalbench.report._summary import run_names
from medhalbench.results import RunResult, log_paths
from medhalbench.settings import REQUIRED

MAX_STEM = 100
"""The longest log file stem: a longer one keeps its start and ends with a digest of it."""
MAX_WORD = 32
"""The longest word of a condition or model in a log's name."""
LISTED_CHARS = 160
"""The most characters of runs listed when a name finds none or several (then a count)."""
_UNSAFE = re.compile(r"[^a-z0-9.]+")
_MODEL_FILES = (".gguf", ".bin", ".safetensors")


def _slug(text: str, limit: int = MAX_WORD) -> str:
    """Text as a word of a file name: lower case letters, digits, dots and single hyphens."""
    word = _UNSAFE.sub("-", text.lower()).strip("-.")
    return word[:limit].rstrip("-.")


def _model_word(model: str) -> str:
    """A model name as a word of a file name (`openai-gpt-4o-mini`); a model given as a file
    (`embedded//models/tiny.gguf`) by its provider and the file's stem (`embedded-tiny`)."""
    provider, _, name = model.partition("/")
    if name.startswith(("/", "~", ".")) or name.endswith(_MODEL_FILES):
        name = Path(name.rstrip("/")).stem
    return _slug(f"{provider}-{name}" if name else provider, 2 * MAX_WORD)


def condition_words(run: RunResult) -> list[str]:
    """The run's condition (the summary's column: `settings_of(run).condition`) as words of a
    file name: each setting whose value is not the benchmark's default, a flag by its name
    (`knowledge`, `no-paper-protocol`), any other by name and value (`evidence-k-10`, a path
    by its last part: `evidence-med-index`)."""
    options = declared(run.system)
    order = {name: i for i, name in enumerate(options)}
    condition = settings_of(run).condition
    words = []
    for name in sorted(condition, key=lambda n: order.get(n, len(order))):  # as declared
        value, option = condition[name], options.get(name)
        if option is not None and option.default is not REQUIRED:
            if value == setting_as_text(name, option.default):
                continue
        if option is not None and option.kind is bool and value in ("yes", "no"):
            word = name if value == "yes" else f"no_{name}"
        else:
            shown = Path(value.rstrip("/")).name if option and option.path else value
            word = f"{name}-{shown or value}"
        words.append(_slug(word))
    return [w for w in words if w]


def log_stem(run: RunResult) -> str:
    """The file stem of a run's log: benchmark, model and condition joined by `_`
    (`medhallu_openai-gpt-4o-mini_knowledge`, `dahl_embedded-smollm2_paper-prompts-theirs`),
    the same for every run of the same condition (a second one's file is numbered)."""
    stem = "_".join([_slug(run.system), _model_word(run.model), *condition_words(run)])
    if len(stem) <= MAX_STEM:
        return stem
    digest = hashlib.sha256(stem.encode("utf-8")).hexdigest()[:6]
    return f"{stem[: MAX_STEM - len(digest) - 1].rstrip('-._')}-{digest}"


def _key(name: str) -> tuple[str, ...]:
    """A name as it is matched: its words, case and punctuation aside ("MedHallu ·
    openai/gpt-4o-mini" and "medhallu openai gpt-4o-mini" alike)."""
    return tuple(re.findall(r"[a-z0-9]+", name.casefold()))


def find_run(name: str, folder: str | Path) -> str:
    """The log of a run in `folder` (its subfolders too) named by the report's name of it
    (with or without its benchmark: "MedHallu · openai/gpt-4o-mini · knowledge yes", case and
    punctuation aside), by part of that name that names it alone (a summary row's
    "openai/gpt-4o-mini", its condition being the column's), or by its log's file stem or
    name (`medhallu_openai-gpt-4o-mini`).

    Raises:
        DataError: No run or several runs go by that name (listing the runs there), or the
            folder holds no log.
    """
    if not Path(folder).is_dir():
        raise DataError(f"no log file or run named {name!r} (no folder {folder} to look in)")
    files = log_paths([folder]) if any(Path(folder).iterdir()) else []
    by_file = [p for p in files if name in (Path(p).name, Path(p).stem)]
    if by_file:
        return _one(name, folder, by_file)
    runs = collect([folder]).runs if files else []
    titled, plain = run_names(runs), run_names(runs, title=False)
    named = [
        run.log
        for run, *names in zip(runs, titled, plain, strict=True)
        if _key(name) in {_key(n) for n in names}
    ]
    if named:
        return _one(name, folder, named)
    # Part of a name, as the summary's row shows a run (its condition is the column's).
    words = set(_key(name))
    partly = [run.log for run, titled_name in zip(runs, titled, strict=True)
              if words and words <= set(_key(titled_name))]  # fmt: skip
    if partly:
        return _one(name, folder, partly)
    there = _listed(sorted(Path(p).stem for p in files)) if files else "none"
    raise DataError(f"no log file or run named {name!r}; the runs there: {there}", path=folder)


def _listed(names: Sequence[str]) -> str:
    """Names listed on one line of a message: those that fit in `LISTED_CHARS`, and how
    many more there are."""
    shown: list[str] = []
    for item in names:
        if shown and len(", ".join([*shown, item])) > LISTED_CHARS:
            break
        shown.append(item)
    more = len(names) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more else "")


def _one(name: str, folder: str | Path, found: Sequence[str]) -> str:
    """The one log found for a name; several: refused, listing them."""
    if len(found) == 1:
        return found[0]
    listed = _listed([os.path.relpath(p, folder) for p in found])
    raise DataError(f"{name!r} names {len(found)} runs: {listed}; give the log file", path=folder)
