"""A suite file as models: its models, its runs and their shared settings, each refused
field named by its place in the file (`models[2].args`). The JSON Schema of a suite is
derived from them."""

from __future__ import annotations

from typing import Annotated, Any

import pydantic
from pydantic import BeforeValidator, ConfigDict, Field, ValidationError

from medhalbench.settings._commands import SuiteSettings
from medhalbench.settings._marks import LocalPath
from medhalbench.settings._model import Problem, SettingProblem, problems_of

_NONE_IS_EMPTY = BeforeValidator(lambda value: {} if value is None else value)
"""An empty YAML entry (`args:`) stands for an empty mapping."""


class _Entry(pydantic.BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)


class SuiteModel(_Entry):
    """A model of a suite, with its provider arguments and its role models."""

    name: Annotated[str, Field(min_length=1)]
    """The model, as inspect names it."""
    args: Annotated[dict[str, Any], _NONE_IS_EMPTY] = {}
    """Provider arguments (as -M gives them)."""
    roles: Annotated[dict[str, str], _NONE_IS_EMPTY] = {}
    """A model per role (judge: every judge role not named)."""
    run_args: Annotated[dict[str, Any], _NONE_IS_EMPTY] = {}
    """Settings every run takes with this model (e.g. `paper_call: openai`), besides the
    run's own; a setting both give is refused."""
    paper_model: str | None = None
    """The model as its paper names it, where the suite reproduces a published table."""
    substitute: str | None = None
    """Why this model stands in for the paper's (a snapshot the paper does not name, a
    checkpoint it names by family and size only)."""


ModelEntry = Annotated[
    SuiteModel,
    BeforeValidator(
        lambda data: {"name": data} if isinstance(data, str) else data,
        json_schema_input_type=str | SuiteModel,
    ),
]
"""A suite's model, or only its name."""


class SuiteRun(_Entry):
    """A benchmark run of a suite: the benchmark and its settings."""

    benchmark: str
    """A registered benchmark."""
    args: Annotated[dict[str, Any], _NONE_IS_EMPTY] = {}
    """Its settings, as `eval NAME` takes them (`dataset: example` is its example)."""


class SuiteFile(_Entry):
    """A suite file: every run on every model, with one log folder."""

    log_dir: Annotated[str, Field(min_length=1), LocalPath(file_okay=False)] | None = None
    """The suite's log folder (default: logs/<file name>)."""
    settings: Annotated[SuiteSettings, _NONE_IS_EMPTY] = SuiteSettings()
    """Connection options of every model (as on the command line)."""
    models: Annotated[list[ModelEntry], Field(min_length=1)]
    """The models under test."""
    runs: Annotated[list[SuiteRun], Field(min_length=1)]
    """The benchmark runs, each on every model."""


def place(loc: tuple[int | str, ...]) -> str:
    """A place in a suite file as a user finds it (`models[2].args`: items counted from 1)."""
    found = "" if loc else "the top level"
    for part in loc:
        found += f"[{part + 1}]" if isinstance(part, int) else f".{part}" if found else part
    return found


_MODELS: dict[str, type[pydantic.BaseModel]] = {
    "": SuiteFile,
    "settings": SuiteSettings,
    "models": SuiteModel,
    "runs": SuiteRun,
}


def suite_problems(error: ValidationError) -> list[Problem]:
    """What is wrong with a suite file, each problem's setting its place in the file."""
    found = []
    for e in error.errors(include_url=False):
        loc = tuple(e["loc"])
        model = _MODELS[str(loc[0]) if len(loc) > 1 else ""]
        for problem in problems_of(e, model):
            raised = isinstance((e.get("ctx") or {}).get("error"), SettingProblem)
            at = (*loc, problem.setting) if raised else loc
            found.append(Problem(place(at), problem.reason))
    return found
