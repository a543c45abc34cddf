"""How a command runs, as settings models: how it reaches its models (connection, base URLs,
provider arguments) and runs its tasks (logs, cache, seeds, plans, display). The command
line's shared options are derived from them, as a benchmark's are from its settings."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, Self

from annotated_types import Ge, Le
from pydantic import Field, model_validator

from medhalbench.settings._marks import (
    COMMA_SEPARATED,
    EVAL_LOG_SUFFIX,
    Count,
    InputFile,
    Internal,
    LocalPath,
    NonNegative,
    OutputFile,
    Positive,
    Qualifies,
    Spelling,
)
from medhalbench.settings._model import SettingProblem, Settings
from medhalbench.settings._options import Option, options_of
from medhalbench.settings._shared import (
    BOOTSTRAP_SEED,
    DEFAULT_RESAMPLES,
    MAX_RESAMPLES,
    Cache,
    ReplySeed,
    Resamples,
)

DEFAULT_MODEL = "embedded/smollm2"
"""SmolLM2-135M-Instruct, in-process: the model wherever a command needs one and none is
named. Weak: it proves pipelines run, not model quality."""
DEFAULT_REPLY_SEED = 0
"""The seed sent with every call unless `--reply-seed` names another."""
DEMO_ROWS = 8
"""Rows of each packaged example the demo uses unless --limit says otherwise: MedHallu's 12
rows make 48 samples (each row's two answers, without and with knowledge), a third of the
demo's time more than 8 rows, which still hold every difficulty. DAHL's (4) and MedHal's (8)
are used whole."""
LOG_SUFFIXES = (EVAL_LOG_SUFFIX, ".json")
"""The files inspect reads as logs in a folder."""
DEFAULT_LOG_DIR = "logs"
"""Where inspect writes a command's logs unless told."""
DEFAULT_MAX_RETRIES = 6
"""Retries of a failed call: inspect's backoff (3 s doubling, with jitter) then waits about
3 minutes in all before giving up on a dead server, and rides out rate limits of that order."""
DEFAULT_ATTEMPT_TIMEOUT = 300
"""Seconds one attempt may take before it is abandoned and retried (a server that accepts
and never answers)."""
Display = Literal["full", "conversation", "rich", "plain", "log", "none"]
"""inspect's displays."""


class CommandSettings(Settings):
    """Settings read from a command's values, where other options stand beside them."""

    @classmethod
    def among(cls, values: Mapping[str, Any]) -> Self:
        """The settings among a command's values (an option it does not take, or a value
        left None where None is not one, keeps the default)."""
        given = {k: v for k, v in values.items() if k in cls.model_fields}
        return cls.of({k: v for k, v in given.items() if v is not None or _admits_none(cls, k)})


class TableOptions(CommandSettings):
    """How a run's figures are shown in the terminal."""

    wide: bool = False
    """One wide table of every figure (default: one narrow table per run)."""
    published: Annotated[bool, Qualifies("wide")] = False
    """With --wide: add the paper's published figures as reference rows."""


def _admits_none(model: type[Settings], name: str) -> bool:
    return model.model_fields[name].default is None


class ConnectionSettings(CommandSettings):
    """How models are called: the options of every command that calls models, and a suite's
    `settings`."""

    max_connections: Count | None = None
    """Concurrent calls per model API (default: inspect's adaptive limit; an embedded
    model's slots)."""
    max_retries: NonNegative | None = None
    """Retries of a failed model call, with inspect's backoff (3 s doubling). Default 6: a
    dead server is given up after about 3 minutes; rate limits of that order are ridden
    out."""
    timeout: Count | None = None
    """Seconds a model call may take in all, retries included (default: no limit)."""
    attempt_timeout: Count | None = None
    """Seconds one attempt may take before it is abandoned and retried (default 300; none in
    batch mode)."""
    batch: bool = False
    """Send the calls through the provider's batch API (OpenAI, Anthropic, Google, Together,
    Grok: about half price, results within hours)."""
    batch_delay: Annotated[Positive | None, Qualifies("batch")] = None
    """With --batch: seconds before a partly filled batch is sent, and between status checks
    (inspect's default 15)."""

    @property
    def retries(self) -> int:
        """Retries of a failed call: `max_retries`, else `DEFAULT_MAX_RETRIES`."""
        return DEFAULT_MAX_RETRIES if self.max_retries is None else self.max_retries

    @property
    def attempt_limit(self) -> int | None:
        """Seconds one attempt may take: `attempt_timeout` (300 by default, none in batch
        mode), never more than `timeout`, so that a call that hangs ends when the whole call
        must."""
        limits = [
            self.attempt_timeout or (None if self.batch else DEFAULT_ATTEMPT_TIMEOUT),
            self.timeout,
        ]
        given = [limit for limit in limits if limit is not None]
        return min(given) if given else None


class ModelOptions(ConnectionSettings):
    """How a command reaches its models: the connection settings, and the base URL and
    provider arguments of the main model and of each role."""

    model_base_url: str | None = None
    """Base URL of the model's API (e.g. a local OpenAI-compatible server)."""
    model_args: Annotated[list[str], Spelling(flag="-M", metavar="NAME=VALUE")] = Field(
        default_factory=list
    )
    """Model argument NAME=VALUE, passed to the model's provider (repeat for several)."""
    role_base_urls: Annotated[dict[str, list[str]], Internal()] = Field(default_factory=dict)
    """Each role's own base URLs as given, the last one taken (`--role-base-url ROLE=URL`)."""
    role_args: Annotated[dict[str, list[str]], Internal()] = Field(default_factory=dict)
    """Each role's own provider arguments as given (`--role-arg ROLE:NAME=VALUE`)."""


class PlanSettings(CommandSettings):
    """Whether a command only plans, and the prices its plan is costed at."""

    dry_run: bool = False
    """Load and check the data, then print the model calls and tokens per role (and the cost
    with --prices) without calling any model."""
    prices: InputFile | None = None
    """YAML or TOML file of MODEL: {input: $, output: $} per million tokens, for the cost in
    plans."""


class RunOptions(ModelOptions, PlanSettings):
    """How a command runs its tasks: how its models are reached, where its logs go, the
    cache, the seed sent with calls, its plan and its display."""

    log_dir: Annotated[str, LocalPath(file_okay=False)] = DEFAULT_LOG_DIR
    """Where inspect writes its logs."""
    cache: Cache = True
    reply_seed: ReplySeed | None = None
    display: Display | None = None
    """inspect's own display (default: our progress bars with retry counts; 'none': no
    progress). Errors always go to stderr."""
    max_samples: Annotated[Count | None, Internal()] = None
    """Samples in flight at once (None: inspect's default)."""
    max_tasks: Annotated[Count | None, Internal()] = None
    """Tasks in flight at once (None: inspect's default)."""


class SuiteSettings(ConnectionSettings):
    """A suite's `settings`: the connection options, the models' base URL and the cache."""

    model_base_url: str | None = None
    """Base URL of the models' API."""
    cache: Cache = True


def task_options(model: type[Settings]) -> list[Option]:
    """The settings of a benchmark's task that `eval NAME` gives as options of its own: those
    a run option of the same name does not set (DAHL's `cache` takes `--cache`'s value)."""
    return [o for o in options_of(model) if o.name not in RunOptions.model_fields]


ReportFormat = Literal["html", "csv", "markdown", "parquet", "json", "latex"]
"""`html`: one page; `csv`: one file per table (`OUT_<table>.csv`) and every figure in one
long table (`OUT_figures.csv`); `markdown`: every table in one file; `parquet`: the long
table of every figure; `json`: one document of every table (the CSV's column names, null
where a figure is undefined) and every figure (the long table); `latex`: the summary's
headline figures with their 95% intervals, a LaTeX table per benchmark, for a paper."""

SUFFIXES: Mapping[ReportFormat, str] = {
    "html": ".html",
    "csv": ".csv",
    "markdown": ".md",
    "parquet": ".parquet",
    "json": ".json",
    "latex": ".tex",
}
ComparisonFormat = Literal["text", "csv", "markdown", "json"]
"""How `compare` writes a comparison: a table for the terminal, CSV (plain column names),
Markdown, or JSON (every field of `Comparison`; NaN as null)."""


class ReportRequest(Settings):
    """A summary of every model on every benchmark, then each benchmark's tables, charts
    and paired comparisons (runs on the same samples that differ in one thing), from inspect
    logs (files or folders) of our tasks, with 95% intervals and the papers' published
    figures beside ours. `--format json` writes every table and figure as one JSON
    document; `--format latex`, the summary's headline figures as LaTeX tables.

    Examples:
        medhalbench report logs/ --out report.html
        medhalbench report logs/ --format csv --out tables.csv
        medhalbench report logs/ --out report.json
        medhalbench report logs/ --format latex --out summary.tex
    """

    logs: Annotated[
        list[Annotated[str, LocalPath(must_exist=True, reads=LOG_SUFFIXES)]],
        Spelling(positional=True),
    ]
    """The logs, files or folders."""
    out: OutputFile | None = None
    """Output file (for csv: the stem of one file per table). Left out, `report` with the
    format's suffix (report.json, report.tex, ...)."""
    format: ReportFormat | None = None
    """What to write. Left out, the one --out's suffix names, else html."""
    published: bool = True
    """Add the papers' published figures as reference rows."""

    @model_validator(mode="after")
    def _format_of_out(self) -> Self:
        _refuse_another_suffix(self.out, self.format, SUFFIXES)
        return self

    @property
    def chosen(self) -> ReportFormat:
        """The format written: the one given, else the one --out's suffix names, else html."""
        return self.format or _format_named(self.out, SUFFIXES) or "html"

    @property
    def target(self) -> str:
        """The file written (or the stem of those written)."""
        return self.out or f"report{SUFFIXES[self.chosen]}"


class CompareRequest(Settings):
    """Compare two runs of one benchmark on the same samples (matched by sample id): each
    headline figure's difference A - B with its paired-bootstrap 95% interval, a paired
    permutation p-value and its Holm adjustment over the comparison's tests, and McNemar's
    exact test on per-sample correctness (MedHallu, MedHal). Unmatched samples are counted
    and left out.

    A run is given by its log file, or by name within --log-dir: its log's file stem
    (medhallu_openai-gpt-4o-mini_knowledge) or the name the report shows it by (MedHallu ·
    openai/gpt-4o-mini · knowledge yes; case and punctuation aside).

    Examples:
        medhalbench compare logs/a.eval logs/b.eval
        medhalbench compare logs/a.eval logs/b.eval --out a_vs_b.csv
        medhalbench compare medhallu_openai-gpt-4o-mini medhallu_openai-gpt-4o-mini_knowledge
    """

    log_a: Annotated[str, Spelling(positional=True), LocalPath(dir_okay=False)]
    """The first run: its log file, or its name in --log-dir."""
    log_b: Annotated[str, Spelling(positional=True), LocalPath(dir_okay=False)]
    """The second run: its log file, or its name in --log-dir."""
    log_dir: Annotated[str, LocalPath(file_okay=False)] = DEFAULT_LOG_DIR
    """Where a run given by name is looked for (its subfolders too)."""
    bootstrap: Annotated[int, Ge(1), Le(MAX_RESAMPLES)] = DEFAULT_RESAMPLES
    """Resamples of the paired bootstrap and of the permutation test."""
    seed: int = BOOTSTRAP_SEED
    """Seed of the resampling."""
    format: ComparisonFormat | None = None
    """text: a table for the terminal; csv, markdown, json: for analysis and papers. Left
    out, the one --out's suffix names, else text."""
    out: OutputFile | None = None
    """Write to this file instead of the terminal (csv, markdown, json)."""

    @model_validator(mode="after")
    def _format_of_out(self) -> Self:
        if self.out is not None and self.chosen == "text":
            raise SettingProblem("out", "needs --format csv, markdown or json")
        _refuse_another_suffix(self.out, self.format, _FILE_COMPARISONS)
        return self

    @property
    def chosen(self) -> ComparisonFormat:
        """The format written: the one given, else the one --out's suffix names, else text."""
        return self.format or _format_named(self.out, _FILE_COMPARISONS) or "text"


ReproductionFormat = Literal["text", "csv", "markdown", "json", "latex"]
"""How `reproduce` writes its view: the table for the terminal, CSV or Markdown (the same
table), JSON (every cell, not-run ones included, and the tally; null where undefined), or a
LaTeX table for a paper."""

_FILE_REPRODUCTIONS: Mapping[ReproductionFormat, str] = {
    f: SUFFIXES[f] for f in ("csv", "markdown", "json", "latex")
}


class ReproduceRequest(PlanSettings):
    """Reproduce a paper's table: its packaged suite (the paper's models, conditions and
    settings; a model that stands in for the paper's says why) run as `medhalbench run` runs
    a suite, resumed by running it again. Without a NAME, the packaged tables are listed.

    Examples:
        medhalbench reproduce --list
        medhalbench reproduce medhallu-table2 --dry-run --prices prices.yaml
        medhalbench reproduce medhallu-table2 --model openai/gpt-4o-mini-2024-07-18
        medhalbench reproduce medhallu-table2 --prices prices.yaml --max-cost 20
        medhalbench reproduce medhallu-table2 --view --out table2.tex
        medhalbench reproduce dahl-table2 -T paper_prompts=their_prompts/
    """

    table: Annotated[str | None, Spelling(positional=True, metavar="NAME")] = None
    """The packaged table (`medhalbench reproduce --list` lists them)."""
    list_tables: Annotated[bool, Spelling(flag="--list")] = False
    """List the packaged tables."""
    view: bool = False
    """Show the table's reproduction from the logs already in its folder, running nothing."""
    max_cost: Annotated[float | None, Ge(0)] = None
    """Dollars the runs still to do may cost at most, at --prices (their plan's upper
    bound): more, and nothing runs."""
    format: ReproductionFormat | None = None
    """How to write the view: text (the terminal's table), csv, markdown, json, latex. Left
    out, the one --out's suffix names, else text."""
    out: OutputFile | None = None
    """Write the view to this file (csv, markdown, json, latex)."""
    task_args: Annotated[list[str], Spelling(flag="-T", metavar="NAME=VALUE")] = Field(
        default_factory=list
    )
    """A setting for every run of the table, as `eval` takes it: the authors' prompt files
    make every call theirs (`-T prompt=FILE`, DAHL's `-T paper_prompts=DIR`). A setting the
    table sets itself is refused."""
    model: Annotated[list[str], COMMA_SEPARATED] = Field(default_factory=list)
    """Run only these of the table's models (comma-separated, as the table names them)."""
    display: Display | None = None
    """inspect's own display (default: our progress bars with retry counts; 'none': no
    progress)."""
    force: bool = False
    """Run again, on the files as they are now, the runs whose data or prompts changed since
    their logs were made. Default: refused."""

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.list_tables and self.table is not None:
            raise SettingProblem("list_tables", "lists every table: give no NAME with it")
        if self.table is None:
            for name in ("view", "dry_run", "max_cost", "format", "out", "model", "task_args"):
                if getattr(self, name) not in (None, False, []):
                    raise SettingProblem(name, "needs a table's NAME (see --list)")
        if self.max_cost is not None and self.prices is None:
            raise SettingProblem("max_cost", "needs --prices: the cost is the plan's at them")
        if self.out is not None and self.chosen == "text":
            raise SettingProblem("out", "needs --format csv, markdown, json or latex")
        _refuse_another_suffix(self.out, self.format, _FILE_REPRODUCTIONS)
        return self

    @property
    def chosen(self) -> ReproductionFormat:
        """The view's format: the one given, else the one --out's suffix names, else text."""
        return self.format or _format_named(self.out, _FILE_REPRODUCTIONS) or "text"


class RescoreRequest(Settings):
    """Read a finished run's stored replies again with the current verdict reader, calling no
    model: a copy of the log with every score and figure recomputed, and the figures that
    moved printed before and after. Replies an extractor model had read are read by the
    strict reader alone (the count is printed).

    Examples:
        medhalbench rescore logs/run.eval
        medhalbench rescore logs/run.eval --out logs/run-reread.eval
    """

    log: Annotated[str, Spelling(positional=True), LocalPath(dir_okay=False, must_exist=True)]
    """The run's log."""
    out: OutputFile | None = None
    """Where to write the rescored log (default: beside it, its name ending in -rescored)."""


class AuditRequest(Settings):
    """Check the judges of runs by hand, blind: a local page shows one judged item at a time
    and asks you what the judge was asked, before showing its answer and the dataset's label.
    Each role is audited: the reader of verdicts (which verdict does a reply state? unread
    replies included), the extractor, DAHL's splitter (is the unit stated in the answer? one
    fact? a repeat?) and checker (is the unit true?), and the model under test as a detector
    (is the answer hallucinated? is the statement factual?). Keys 1-9 answer, Enter sends,
    arrows move. Answers are saved as given, beside each log (run.audit.jsonl beside run.eval); starting
    again continues where you stopped; --summary prints each role's agreement.

    Examples:
        medhalbench audit logs/ --items 50
        medhalbench audit logs/run.eval --summary
    """

    logs: Annotated[list[str], Spelling(positional=True)]
    """The logs, files or folders."""
    items_per_log: Annotated[int, Ge(1), Spelling(flag="--items")] = 40
    """Items drawn from each log, stratified by the judge's verdict."""
    seed: int = 0
    """Seed of the draw (the same seed and logs draw the same items)."""
    port: Annotated[int, Ge(0), Le(65535)] = 8765
    """Port of the page on 127.0.0.1 (0: any free port)."""
    summary: Annotated[bool, Spelling(flag="--summary")] = False
    """Print the agreement of the answers given so far with the judge, and exit."""
    bootstrap: Resamples = DEFAULT_RESAMPLES
    """Bootstrap resamples (over items) of the summary's 95% intervals."""
    unblind: Annotated[bool, Spelling(flag="--unblind")] = False
    """Show the judge's reading beside each item before you answer (the answers are marked
    as not blind); by default it is shown only after."""


_FILE_COMPARISONS: Mapping[ComparisonFormat, str] = {
    f: SUFFIXES[f] for f in ("csv", "markdown", "json")
}


def _format_named(out: str | None, suffixes: Mapping[Any, str]) -> Any:
    """The format whose suffix an output file has (None: none, or no file)."""
    suffix = "" if out is None else Path(out).suffix.lower()
    return next((f for f, s in suffixes.items() if s == suffix), None)


def _refuse_another_suffix(out: str | None, given: str | None, suffixes: Mapping[Any, str]) -> None:
    """Refuse writing a format into a file whose suffix names another."""
    named = _format_named(out, suffixes)
    if given is not None and named is not None and named != given:
        raise SettingProblem("out", f"{out} names {named}, not --format {given}")
