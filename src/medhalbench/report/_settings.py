"""What a run's settings mean when runs are set side by side: which samples it judged (the
ids its log lists, whatever selected them), what the benchmark asked (its condition:
knowledge, not-sure, retrieved evidence, ...), how the replies were made (generation
settings; none for outputs written elsewhere) and who judged them. The summary puts runs of
one condition in one column whatever made their replies; comparisons pair runs on the same
samples.

Every reader of a run's settings in the report goes through `settings_of`; what each setting
means is declared once, on the benchmark's settings model (`settings.Means`, `Qualifies`).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medhalbench._paths import shown_model, shown_path
from medhalbench._provenance import dataset_fingerprint
from medhalbench.data import looks_like_hub_name
from medhalbench.registry import benchmark
from medhalbench.results import RunRecord, RunResult, setting_text
from medhalbench.settings import Meaning, Option, options_of

ROWS = "rows"
"""The rows a task took, where it counts them (`RunFacts.rows`): they stand for its samples
in a log that lists no sample ids."""
COUNTS = frozenset({ROWS, "limit"})
"""Selection settings that say only how many samples a run took. A run is named by the number
of samples it scored instead: a file of outputs written elsewhere that answers 10 of a
dataset's 400 rows scored 20 samples, whatever the dataset holds."""

LIST_DEFAULTS = {"difficulty": "all", "categories": "all", "sources": "all"}
"""How a selection setting left empty reads ("difficulty all", not "difficulty none")."""

FINGERPRINT = "dataset_fingerprint"
"""What a run computed of its data: the data is compared by it, not by its path."""


def declared(system: str) -> dict[str, Option]:
    """A benchmark's settings by name, with what each means (its settings model)."""
    return {o.name: o for o in options_of(benchmark(system).settings)}


def meaning(system: str, name: str) -> Meaning:
    """What a benchmark's setting means (an unmarked one is a condition)."""
    found = declared(system).get(name)
    return (found.means if found else None) or "condition"


def qualified(system: str, name: str) -> str | None:
    """The setting a benchmark's setting qualifies, where it means nothing without it."""
    found = declared(system).get(name)
    return found.qualifies.setting if found and found.qualifies else None


def _one_file(source: object) -> bool:
    """Whether a source setting's value names one local file (which has no parts: no hub
    config, split or revision), not a hub id or a folder. A file that is gone since the run
    is told from a folder by its suffix (data files have one)."""
    if not isinstance(source, str) or not source or looks_like_hub_name(source):
        return False
    path = Path(source)
    try:
        return path.is_file() if path.exists() else bool(path.suffix)
    except OSError:  # an unreadable or over-long name: no file this process can tell
        return False


def applied(system: str, record: RunRecord, roles: Collection[str] | None = None) -> dict[str, Any]:
    """The settings that applied to a run, by name, as tables show them (`RunRecord.shown`:
    the generation settings as sent, the retrieval done). Left out, by what each setting
    declares: one that qualifies a setting the run left unset (`Qualifies`: `evidence_k`
    of a closed-book run), one that picks a part of a source that has none (`PartOf`: a hub
    config or split of one local file), one of how replies were made where they were
    written elsewhere (`Means("replies")`), and one of a role no model played (`ForRole`).

    Args:
        system: The benchmark.
        record: The run's settings.
        roles: The roles the run named a model for (None: not known, and no setting left
            out for its role).
    """
    options = declared(system)
    shown = record.shown
    found = {}
    for name, value in shown.items():
        option = options.get(name)
        if option is not None:
            whole = option.qualifies
            if whole is not None and (
                shown.get(whole.setting) in (None, False, [], "")
                or whole.value not in (None, shown.get(whole.setting))
            ):
                continue
            if option.part_of is not None and _one_file(shown.get(option.part_of)):
                continue
            if option.means == "replies" and not record.generated:
                continue
            if option.role is not None and roles is not None and option.role not in roles:
                continue
        found[name] = value
    return found


def shown_setting(system: str, name: str, text: str) -> str:
    """A setting's value as the report writes it: a local path (a setting declared to take
    one) as `shown_path` shows it, any other value as it is."""
    option = declared(system).get(name)
    return shown_path(text) if option is not None and option.path is not None else text


def reply_settings(system: str) -> frozenset[str]:
    """The settings of how a benchmark's model under test made its replies."""
    return frozenset(n for n in declared(system) if meaning(system, n) == "replies")


def selection_settings(system: str) -> list[str]:
    """The settings that select a benchmark's samples, the data by its fingerprint."""
    names = [n for n in declared(system) if meaning(system, n) == "samples" and n != "dataset"]
    return [FINGERPRINT, *names]


@dataclass(frozen=True)
class RunSettings:
    """A run's settings, sorted by what they mean for comparing runs.

    Attributes:
        samples: Which samples it judged (two runs with equal values judged the same
            samples): the data's fingerprint and a digest of the ids of the samples it
            scored, or, where the log lists no ids, the settings that selected them.
        selection: How the report names its samples: the settings that selected them (the
            data's fingerprint, difficulty, seed, ...) and, for the settings that only count
            them (`COUNTS`), the number it scored (`samples`).
        condition: What the benchmark asked of the replies (the summary's column; runs on
            outputs written elsewhere share it with the runs of models).
        replies: How the model under test made its replies (empty for outputs written
            elsewhere: nothing was generated).
        judges: Each role's model (splitter, checker, extractor, ...).
        written_elsewhere: The file of outputs written elsewhere (`--responses`), or None.
    """

    samples: dict[str, str] = field(default_factory=dict)
    selection: dict[str, str] = field(default_factory=dict)
    condition: dict[str, str] = field(default_factory=dict)
    replies: dict[str, str] = field(default_factory=dict)
    judges: dict[str, str] = field(default_factory=dict)
    written_elsewhere: str | None = None


def setting_as_text(name: str, value: Any) -> str:
    """A setting's value as the report compares and writes it ("difficulty all" for an
    empty selection)."""
    if value in (None, [], ()) and name in LIST_DEFAULTS:
        return LIST_DEFAULTS[name]
    return setting_text(value)


@functools.lru_cache(maxsize=256)
def _fingerprint(dataset: str) -> str | None:
    return dataset_fingerprint(dataset)


def ids_digest(ids: Sequence[str]) -> str:
    """A short digest of a set of sample ids (the same for the same ids in any order)."""
    return hashlib.sha256("\n".join(sorted(set(ids))).encode("utf-8")).hexdigest()[:12]


def settings_of(run: RunResult) -> RunSettings:
    """A run's settings as text, sorted by what they mean (see `RunSettings`)."""
    entry = benchmark(run.system)
    # The sample selection as the task was given it (a generation seed is not the seed that
    # orders or draws the samples), and the data by its fingerprint.
    # The rows a task took, where it counts them, stand for its samples in a log that lists
    # no sample ids.
    record = run.record
    # Only the settings that applied to the run: a local file's run has no hub config (one
    # a log does not record reads as unset). A role's setting stays: the judges tell runs
    # apart by the role, and a comparison names that one difference.
    shown = {**applied(run.system, record), FINGERPRINT: record.facts.dataset_fingerprint}
    if record.facts.rows is not None:
        shown[ROWS] = record.facts.rows
    left_out = record.shown.keys() - shown.keys()
    names = [n for n in selection_settings(run.system) if n not in left_out]
    names += [ROWS] if ROWS in shown else []
    selection = {k: setting_as_text(k, shown.get(k)) for k in names}
    written = record.data.responses
    if written and record.facts.responses_fingerprint is None:
        # A task that fingerprints the outputs in the dataset's place: the dataset's own.
        selection[FINGERPRINT] = str(_fingerprint(str(record.data.dataset)))
    samples = dict(selection)
    if run.sample_ids:
        # The samples it scored decide, not the settings that selected them.
        samples = {FINGERPRINT: selection[FINGERPRINT], "sample_ids": ids_digest(run.sample_ids)}
        selection = {k: v for k, v in selection.items() if k not in COUNTS}
        selection["samples"] = str(len(set(run.sample_ids)))
    condition, replies = {}, {}
    for name in record.stored:
        kind = meaning(run.system, name)
        if kind not in ("condition", "judging", "replies") or name not in shown:
            continue  # the samples, outputs written elsewhere, how a run ran, or not applied
        # What was sent (the run's effective settings) where the run records it; a local
        # path as the report shows paths.
        value = shown_setting(run.system, name, setting_as_text(name, shown[name]))
        if kind == "replies":
            replies[name] = value
        else:
            condition[name] = value
    # The judges of the roles the benchmark has (a log may name others its task never used).
    roles = {role.name for role in entry.roles}
    judges = {role: model for role, model in run.roles.items() if role in roles}
    return RunSettings(samples, selection, condition, replies, judges, written)


def phrase(name: str, value: str) -> str:
    """A setting as the report writes it ("not sure yes")."""
    return f"{name.replace('_', ' ')} {value}"


def differing(items: Sequence[Mapping[str, str]]) -> list[str]:
    """The names of the settings whose value is not the same in every run that has them
    (in the order the runs list them)."""
    names = list(dict.fromkeys(k for listed in items for k in listed))
    return [n for n in names if len({listed[n] for listed in items if n in listed}) > 1]


def varying(items: Sequence[Mapping[str, str]]) -> list[list[str]]:
    """For each of several runs' settings, the phrases of those whose value is not the same
    in every run that has them (in the order the runs list them)."""
    differ = differing(items)
    return [[phrase(n, listed[n]) for n in differ if n in listed] for listed in items]


def judges_text(judges: Mapping[str, str]) -> str:
    """Judges as the report names them: each model once, with the roles it played
    ("openai/gpt-4o (splitter, checker)"), or "checker openai/gpt-4o" for one role."""
    by_model: dict[str, list[str]] = {}
    for role, model in judges.items():
        by_model.setdefault(model, []).append(role)
    return " · ".join(
        f"{shown_model(model)} ({', '.join(roles)})"
        if len(roles) > 1
        else f"{roles[0]} {shown_model(model)}"
        for model, roles in by_model.items()
    )


def varying_judges(items: Sequence[Mapping[str, str]]) -> list[str]:
    """For each of several runs' judges, those that are not the same in every run, as
    `judges_text` names them ("" where none differ)."""
    roles = list(dict.fromkeys(k for listed in items for k in listed))
    differ = [r for r in roles if len({listed.get(r) for listed in items}) > 1]
    return [judges_text({r: listed[r] for r in differ if r in listed}) for listed in items]
