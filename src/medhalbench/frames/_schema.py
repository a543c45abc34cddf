"""The columns of the frames `load_runs`, `load_samples` and `load_units` return: one meaning
per name across benchmarks, and a pandas dtype per column (nullable `Int64` and `boolean`
where a value can be missing, `string` with <NA> rather than strings mixed with NaN).

The README's Python API section lists these; `tests/frames` checks every frame against them.
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy

from medhalbench.settings import Option

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class FrameColumn:
    """One column of a frame.

    Attributes:
        name: Its name.
        dtype: Its pandas dtype.
        meaning: What it holds (and in which benchmarks).
    """

    name: str
    dtype: str
    meaning: str


def _columns(table: str) -> list[FrameColumn]:
    """Columns from a text table, one a line: name, dtype and meaning, set apart by two or
    more spaces (a name or a dtype may hold single ones: `datetime64[ns, UTC]`)."""
    rows = (re.split(r" {2,}", line.strip(), maxsplit=2) for line in table.strip().splitlines())
    return [FrameColumn(name, dtype, meaning) for name, dtype, meaning in rows]


# Text tables rather than a constructor call a column: they read as the README's tables do.
RUN = _columns("""
    benchmark  string               the benchmark (`medhallu`, `dahl`, `medhal`)
    model      string               the model under test (`system/NAME`: outputs written elsewhere)
    run        string               the run's name in the report (benchmark, model, how its replies were made, judges, condition)
    log        string               the log file
    created    datetime64[ns, UTC]  when the run started
""")
"""The columns every frame starts with (`load_runs`; the others leave out `created`)."""

RUNS = RUN + _columns("""
    <role>_model                       string                              each judge role's model (`splitter_model`, `checker_model`, `extractor_model`, ...)
    <setting>                          boolean | Int64 | float64 | string  each task setting by its argument's name, as sent (generation settings: inspect's effective config); lists comma-joined; <NA>: not set
    <figure>                           float64                             each figure by its metric name (`f1`, `hard_f1`, `paper_f1`, `dahl_score`, `category/<name>`, `source/<name>/f1`, ...); NaN: undefined
    <figure>_ci_low, <figure>_ci_high  float64                             its 95% bootstrap interval; NaN: none or undefined
    <count>                            Int64                               counts (`samples`, `unparseable`, `scored`, `excluded_*`, `*_samples`, `not_sure_replies`, ...)
""")

SAMPLES = RUN[:4] + _columns("""
    id                      string                              the sample's id
    epoch                   Int64                               the epoch (1 unless `--epochs`)
    question                string                              the question (MedHallu, DAHL)
    answer                  string                              the answer judged (MedHallu)
    answer_kind             string                              `ground_truth` or `hallucinated` (MedHallu)
    statement               string                              the statement judged (MedHal)
    context                 string                              its context, where one is given (MedHal)
    difficulty              string                              `easy`, `medium` or `hard` (MedHallu)
    hallucination_category  string                              the kind of hallucination of the answer (MedHallu)
    category                string                              the question's category (DAHL)
    source                  string                              the statement's source dataset or task (MedHal)
    is_hallucinated         boolean                             the gold label: the answer is hallucinated (MedHallu) or the statement is not factual (MedHal); <NA> for DAHL
    is_factual              boolean                             the opposite of `is_hallucinated`
    reply                   string                              the reply (or output written elsewhere) as written
    verdict                 string                              the verdict read from it in the benchmark's words (MedHallu `factual`, `hallucinated`, `not sure`; MedHal `factual`, `non-factual`); <NA>: unreadable, and for DAHL (see `load_units`)
    predicted_factual       boolean                             the verdict as factual or not; <NA>: unreadable or not sure
    correct                 boolean                             the verdict matches the gold label (an unreadable reply is not correct); <NA> for DAHL
    paper_verdict           string                              the verdict by the paper's own reading of the reply, in the same words; <NA>: it reads none
    read_by                 string                              who read the verdict: `strict` (our reader) or `extractor`; <NA>: unread
    score                   float64                             1 right, 0 wrong (DAHL: the answer's factual precision, NaN when excluded)
    p_hallucinated          float64                             P(hallucinated) from the verdict token (MedHallu, `--probabilities`)
    p_non_factual           float64                             P(non-factual) from the verdict token (MedHal, `--probabilities`)
    explanation             string                              the explanation read from the reply (MedHal)
    gold_explanation        string                              the dataset's explanation (MedHal)
    status                  string                              `scored` or why the answer was left out (DAHL)
    units                   Int64                               atomic units of the answer (DAHL)
    true_units              Int64                               units judged true (DAHL)
    false_units             Int64                               units judged false (DAHL)
    unknown_units           Int64                               units judged neither (DAHL)
    given_output            string                              the output written elsewhere (`--responses`)
    <field>                 Int64 | float64 | boolean | string  the scorer's other per-sample fields by name (cleaning counts, similarities, ...)
""")

UNITS = RUN[:4] + _columns("""
    id        string   the DAHL sample's id
    epoch     Int64    the epoch
    question  string   the question
    category  string   the question's category
    unit      Int64    the unit's position in the answer (from 1)
    text      string   the unit as judged
    verdict   string   `true`, `false` or `unknown`; <NA>: the checker's reply could not be read
    is_true   boolean  the verdict as true or false; <NA>: unknown or unreadable
    p_false   float64  P(false) where the checker gave log-probabilities
    unread_reason  string  why the strict reader read no verdict from the checker's reply (kept where the extractor then read one); <NA>: it read one
""")

RENAMED = {
    "medhallu": {"category": "hallucination_category"},
    "dahl": {"true": "true_units", "false": "false_units", "unknown": "unknown_units"},
}
"""Per benchmark, sample fields renamed so that a name has one meaning in every benchmark."""

FIGURES_RENAMED = {"not_sure": "not_sure_replies"}
"""Figures renamed where the name is also a setting's (MedHallu's count of not-sure replies
beside its `not_sure` setting)."""

VERDICT_WORDS: Mapping[str, Mapping[str, str]] = {
    "medhallu": {"0": "factual", "1": "hallucinated", "2": "not sure"},
    "medhal": {"YES": "factual", "NO": "non-factual", "True": "factual", "False": "non-factual"},
}
"""Per benchmark, the scorer's verdict codes in the benchmark's words."""

COUNT = re.compile(
    r"^(samples|unparseable|read_by_extractor|not_sure_replies|responses|scored|excluded.*"
    r"|paper_good|removed_declines|units_.*|list_intros_dropped|statements|factual"
    r"|non_factual|explanations|probability_samples|rows|outputs_not_in_dataset|samples_without_output"
    r"|questions_not_in_dataset|.*_samples|.*/samples|.*/unparseable|.*/scored"
    r"|calibration/\d+/count)$"
)
"""Names of the figures that are counts, kept as `Int64` (settings given as whole numbers
are `Int64` too)."""


def _words(benchmark: str, code: Any) -> Any:
    if code is None or (isinstance(code, float) and code != code):
        return None
    return VERDICT_WORDS.get(benchmark, {}).get(str(code), str(code))


def verdict_words(benchmark: str, codes: pd.Series) -> pd.Series:
    """Verdict codes as the benchmark's words (<NA> where none was read)."""
    return codes.map(lambda c: _words(benchmark, c)).astype("string")


def predicted_factual(benchmark: str, codes: pd.Series) -> pd.Series:
    """Verdict codes as factual (True) or not (False); <NA> for not sure or none."""
    words = {"factual": True, "hallucinated": False, "non-factual": False}
    return codes.map(lambda c: words.get(_words(benchmark, c) or "")).astype("boolean")


def typed(
    frame: pd.DataFrame,
    declared: list[FrameColumn],
    *,
    drop_empty: bool = False,
    settings: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """The frame with each declared column in its dtype and every other column in a
    nullable dtype (counts `Int64`, numbers `float64`, flags `boolean`, text `string`);
    `drop_empty`: leave out undeclared columns no row has a value in; `settings`: the dtypes
    of task settings, from their declared types."""
    import pandas as pd

    dtypes = {c.name: c.dtype for c in declared if not c.name.startswith("<")}
    dtypes |= dict(settings or {})
    out = {}
    for name in frame.columns:
        column = frame[name]
        if drop_empty and name not in dtypes and all(_missing(v) for v in column):
            continue  # a field no sample has (e.g. a list the frame does not hold)
        out[name] = _as(column, dtypes.get(name) or _inferred(str(name), column))
    return pd.DataFrame(out, index=frame.index)


def _inferred(name: str, column: pd.Series) -> str:
    values = [v for v in column if not _missing(v)]
    if not values:
        return "float64" if column.dtype.kind == "f" else "string"
    if all(isinstance(v, bool | numpy.bool_) for v in values):
        return "boolean"
    if all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in values):
        whole = all(float(v).is_integer() for v in values)
        integers = all(isinstance(v, numbers.Integral) for v in values)
        return "Int64" if whole and (integers or COUNT.match(name)) else "float64"
    return "string"


def _as(column: pd.Series, dtype: str) -> pd.Series:
    import pandas as pd

    if dtype.startswith("datetime"):
        return pd.to_datetime(column, utc=True)
    if dtype == "string":
        return column.map(_text).astype("string")
    if dtype == "boolean":
        return column.map(_flag).astype("boolean")
    if dtype == "Int64":
        return pd.to_numeric(column.map(_number), errors="coerce").round().astype("Int64")
    if dtype == "float64":
        return pd.to_numeric(column.map(_number), errors="coerce").astype("float64")
    return column.astype(dtype)


def _missing(value: Any) -> bool:
    return value is None or value is pd_NA() or (isinstance(value, float) and value != value)


def pd_NA() -> Any:  # noqa: N802 - pandas' own name
    import pandas as pd

    return pd.NA


def _text(value: Any) -> Any:
    if _missing(value):
        return None
    if isinstance(value, list | tuple):
        return ",".join(map(str, value)) or None
    return str(value)


def _flag(value: Any) -> Any:
    if _missing(value):
        return None
    if isinstance(value, str):
        return {"true": True, "false": False}.get(value.lower())
    return bool(value)  # a Python or numpy flag


def _number(value: Any) -> Any:
    if _missing(value) or isinstance(value, bool):
        return None if _missing(value) else float(value)
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def setting_dtype(option: Option) -> str:
    """The dtype of a task setting from its declared type: a flag `boolean`, a whole number
    `Int64` (nullable), a number `float64`, anything else (text, a choice, a list) `string`."""
    if option.many or option.choices is not None:
        return "string"
    return {bool: "boolean", int: "Int64", float: "float64"}.get(option.kind, "string")
