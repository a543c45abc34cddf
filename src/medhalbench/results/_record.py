"""A run's settings read back typed, in one place: the settings record its task was made with,
the generation settings its calls were sent with, and what the task computed beside them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pydantic
from inspect_ai import Task
from inspect_ai.model import GenerateConfig

from medhalbench._provenance import INPUTS, InputsRead
from medhalbench.settings import SETTINGS_KEY, RunData, Settings, kept_settings

S = TypeVar("S", bound=Settings)
RETRIEVER_SETTING = "evidence_retriever"
"""The setting (`Grounding`'s) that names how the evidence was searched."""


@dataclass(frozen=True)
class Sent:
    """The generation settings a run's calls to the model under test were sent with:
    inspect's effective config, whichever route set them (a task default, `-T`, our options
    or inspect's `--temperature`). None where the replies were written elsewhere (nothing
    was generated) or where a setting was left to the provider.

    Attributes:
        temperature: Sampling temperature.
        max_tokens: Length limit of a reply, in tokens.
        top_p: Nucleus sampling share.
        reply_seed: The seed sent with calls (apart from a task's `seed`, which orders and
            draws its samples).
    """

    temperature: float | None = None
    max_tokens: int | None = None
    top_p: float | None = None
    reply_seed: int | None = None

    @classmethod
    def of(cls, config: GenerateConfig, *, generated: bool) -> Sent:
        """What a config sends (nothing when the replies were not generated)."""
        if not generated:
            return cls()
        return cls(config.temperature, config.max_tokens, config.top_p, config.seed)

    def by_name(self) -> dict[str, Any]:
        """The settings by name as tables show them (temperature and max tokens always,
        the others where set)."""
        values = {"temperature": self.temperature, "max_tokens": self.max_tokens}
        if self.top_p is not None:
            values["top_p"] = self.top_p
        if self.reply_seed is not None:
            values["reply_seed"] = self.reply_seed
        return values


class PlannedRole(pydantic.BaseModel, frozen=True, extra="ignore"):
    """One role's planned calls and tokens, as a run's log keeps its plan."""

    role: str
    calls: int
    input_tokens: int
    output_tokens: int


class TokenEstimate(pydantic.BaseModel, frozen=True, extra="ignore"):
    """A run's plan as its log keeps it, for the report to set the tokens used beside it."""

    items: int
    unit: str
    tokenizer: str
    roles: list[PlannedRole]


class EvidenceSearched(pydantic.BaseModel, frozen=True, extra="ignore"):
    """The evidence a run searched: the retriever, the content hash of its corpora, and the
    retrieval it did (bm25, dense, hybrid; None: a plug-in's own, or a log of before)."""

    retriever: str | None = None
    fingerprint: str | None = None
    retrieval: str | None = None


class RunFacts(pydantic.BaseModel):
    """What a task computed and keeps in its log's metadata beside its settings record: each
    benchmark sets the facts it has (the others keep their defaults).

    Attributes:
        dataset_fingerprint: The content hash of the dataset (or of the outputs scored, for
            a task that fingerprints them in its place).
        responses_fingerprint: The content hash of outputs written elsewhere.
        prompt_files: The files that replaced packaged prompts.
        prompts: The hash of each prompt the run sent, by its name.
        outputs_not_in_dataset: Outputs written elsewhere matching no sample (left out).
        samples_without_output: The dataset's samples no output written elsewhere answers
            (left out of the figures).
        samples_without_output_ids: The first of them (`LISTED_WITHOUT_OUTPUT`), by id.
        questions_not_in_dataset: DAHL answers to questions the dataset lacks (uncategorised).
        rows: The rows a task took (MedHallu), where it counts them.
        embedder: The model of an explanation similarity (MedHal; None: off).
        evidence_index: The evidence searched (None: closed-book).
        token_estimate: The run's plan, where it was kept.
        inputs: What the run read (folder, fingerprints), for a retry to tell what changed.
        reader_version: The verdict reader's version (`judging.reader_version`; None in a log
            written before it was kept).
        paper_reads: What the paper-protocol columns read of each reply (`PAPER_READS`;
            None in a log written before the text as sent was kept, whose paper columns
            read inspect's completion with a reasoning block put back in front).
    """

    dataset_fingerprint: str | None = None
    responses_fingerprint: str | None = None
    prompt_files: list[str] = pydantic.Field(default_factory=list)
    prompts: dict[str, str] = pydantic.Field(default_factory=dict)
    outputs_not_in_dataset: int = 0
    samples_without_output: int = 0
    samples_without_output_ids: list[str] = pydantic.Field(default_factory=list)
    questions_not_in_dataset: int = 0
    rows: int | None = None
    embedder: str | None = None
    evidence_index: EvidenceSearched | None = None
    token_estimate: TokenEstimate | None = None
    inputs: InputsRead | None = pydantic.Field(default=None, alias=INPUTS)
    paper_reads: str | None = None
    reader_version: str | None = None

    model_config = pydantic.ConfigDict(frozen=True, extra="ignore", populate_by_name=True)

    @classmethod
    def of(cls, metadata: Mapping[str, Any] | None) -> RunFacts:
        """The facts a task's metadata holds; a fact of an unexpected shape (a log of another
        version) is left at its default rather than stopping the reading of the log."""
        found = dict(metadata or {})
        try:
            return cls.model_validate(found)
        except pydantic.ValidationError as ex:
            bad = {str(error["loc"][0]) for error in ex.errors() if error["loc"]}
            return cls.model_validate({k: v for k, v in found.items() if k not in bad})

    def stored(self) -> dict[str, Any]:
        """The facts as a task's metadata keeps them (the facts a task set)."""
        return self.model_dump(mode="json", by_alias=True, exclude_defaults=True)


@dataclass(frozen=True)
class RunRecord:
    """A run's settings, typed: read from a log (`of`) or from a task about to run
    (`of_task`), the one place either is read.

    Attributes:
        stored: The settings record as the log keeps it (its values by setting name): for
            tables that list settings by name. Read a benchmark's own settings typed with
            `settings_as`.
        sent: The generation settings the calls were sent with.
        facts: What the task computed.
        record: The settings record itself, where the run's task is at hand (a plan):
            `settings_as` gives it as it is.
    """

    stored: dict[str, Any] = field(default_factory=dict)
    sent: Sent = field(default_factory=Sent)
    facts: RunFacts = field(default_factory=RunFacts)
    record: Settings | None = None

    @classmethod
    def of(
        cls,
        metadata: Mapping[str, Any] | None,
        config: GenerateConfig,
        record: Settings | None = None,
    ) -> RunRecord:
        """A run's settings from its task's metadata and the generation config sent."""
        stored = (metadata or {}).get(SETTINGS_KEY)
        stored = dict(stored) if isinstance(stored, Mapping) else {}
        data = RunData.read(stored)
        return cls(
            stored=stored,
            sent=Sent.of(config, generated=data.responses is None),
            facts=RunFacts.of(metadata),
            record=record,
        )

    @classmethod
    def of_task(cls, task: Task) -> RunRecord:
        """The settings of a task about to run, its record as the task holds it."""
        return cls.of(task.metadata, task.config, kept_settings(task))

    def settings_as(self, kind: type[S]) -> S:
        """The settings as a record of `kind`: a benchmark's settings record, or a view
        declaring some of them (`RunData`); settings a log lacks keep the record's defaults.

        Raises:
            DataError: A value does not fit its declared type.
        """
        if isinstance(self.record, kind):
            return self.record
        return kind.read(self.stored)

    @property
    def data(self) -> RunData:
        """The data the run judged: its dataset and outputs written elsewhere."""
        return self.settings_as(RunData)

    @property
    def generated(self) -> bool:
        """Whether the model under test made the replies (not written elsewhere)."""
        return self.data.responses is None

    @property
    def retrieval(self) -> str | None:
        """The retrieval a grounded run did (bm25, dense, hybrid), whether its settings
        named it or left it to the index (None: closed-book, or a plug-in's own way)."""
        searched = self.facts.evidence_index
        return searched.retrieval if searched is not None else None

    @property
    def shown(self) -> dict[str, Any]:
        """The settings by name as tables show them: the record's, with the generation
        settings as sent in place of the record's, and the retrieval done in place of one
        left to the index."""
        done = {RETRIEVER_SETTING: self.retrieval} if self.retrieval else {}
        return {**self.stored, **self.sent.by_name(), **done}
