"""Taking a benchmark's outputs from a file instead of a model under test."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path

from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessageAssistant, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

from medhalbench._errors import DataError
from medhalbench.models import SYSTEM_PROVIDER
from medhalbench.outputs._sent import TEXT_AS_SENT

GIVEN_OUTPUT = "given_output"
"""The sample metadata key holding an output written elsewhere."""


@dataclass(frozen=True)
class GivenOutput:
    """One output read from a file.

    Attributes:
        keys: What it answers, most specific first (an id, then the text it judged); None
            where the file does not say.
        text: The output (a reply, or a verdict written as one).
        line: Where the file holds it, for messages.
    """

    keys: tuple[Hashable | None, ...]
    text: str
    line: int | str


def system_model(responses: str, system: str | None = None) -> str:
    """The model name that stands for the system that wrote `responses`: `system/NAME`
    (default NAME: the file's name without its suffix)."""
    return f"{SYSTEM_PROVIDER}/{system or Path(responses).stem}"


def text_key(text: str | None) -> str | None:
    """A text as outputs are matched by it: case and spacing ignored (None for no text)."""
    return " ".join(text.split()).lower() if text else None


@dataclass(frozen=True)
class Matched:
    """Outputs written elsewhere attached to the samples they answer.

    Attributes:
        samples: The samples with an output (its text in `GIVEN_OUTPUT`), in dataset order.
        not_in_dataset: How many outputs matched no sample (left out).
        without_output: The ids of the dataset's samples no output answers (left out),
            sorted.
    """

    samples: list[Sample]
    not_in_dataset: int
    without_output: list[str]


def match_outputs(
    samples: Sequence[Sample],
    outputs: Sequence[GivenOutput],
    sample_keys: Callable[[Sample], Sequence[Hashable | None]],
    *,
    path: str,
) -> Matched:
    """Attach each output to the sample it answers (its text in `GIVEN_OUTPUT`), keeping the
    samples that have one.

    An output is matched by the first of its keys (an id, then the text it judged) that a
    sample also has. Outputs that match no sample are counted, not guessed.

    Args:
        samples: The benchmark's samples.
        outputs: The outputs read from the file.
        sample_keys: A sample's keys, in the same kinds as an output's.
        path: The file, for messages.

    Returns:
        The samples with an output, the count of outputs that matched no sample, and the
        samples without an output.

    Raises:
        DataError: When no output matches any sample, two match the same one, or one matches
            two samples by their text (naming both).
    """
    by_key: dict[Hashable, list[Sample]] = {}
    for sample in samples:
        for key in sample_keys(sample):
            if key is not None:
                by_key.setdefault(key, []).append(sample)
    kept: dict[str | int | None, Sample] = {}
    unmatched = 0
    for output in outputs:
        matches = [by_key[k] for k in output.keys if k is not None and k in by_key]
        if not matches:
            unmatched += 1
            continue
        found = matches[0]
        if len(found) > 1:
            # A text two samples judge (a statement in two sources, an answer equal to the
            # truth): which one the output answers is not ours to guess.
            raise DataError(
                f"the output matches samples {found[0].id} and {found[1].id} by the text they "
                "judge: give each output its sample's id",
                path=path,
                line=output.line,
            )
        answered = found[0]
        other = next((m[0] for m in matches[1:] if answered not in m), None)
        if other is not None:  # its id names one sample, the text it judged another
            raise DataError(
                f"the output names sample {answered.id} and, by the text it judged, sample "
                f"{other.id}: give one, or make them agree",
                path=path,
                line=output.line,
            )
        if answered.id in kept:
            raise DataError(
                f"a second output for sample {answered.id} (one per sample)",
                path=path,
                line=output.line,
            )
        kept[answered.id] = answered.model_copy(
            update={"metadata": {**(answered.metadata or {}), GIVEN_OUTPUT: output.text}}
        )
    if not kept:
        raise DataError(
            f"none of its {len(outputs)} outputs matches a sample of the dataset (matched by "
            "id, else by the text judged)",
            path=path,
        )
    return Matched(
        [kept[s.id] for s in samples if s.id in kept],
        unmatched,
        sorted(str(s.id) for s in samples if s.id not in kept),
    )


LISTED_WITHOUT_OUTPUT = 5
"""How many of the samples without an output a run names (all are counted)."""


def left_out_facts(matched: Matched | None) -> dict[str, object]:
    """What outputs written elsewhere left out, as the run's facts keep it (`RunFacts`):
    outputs that matched no sample, and the samples no output answers (counted, the first
    few named); nothing for a run that generated its replies."""
    if matched is None:
        return {}
    return {
        "outputs_not_in_dataset": matched.not_in_dataset,
        "samples_without_output": len(matched.without_output),
        "samples_without_output_ids": matched.without_output[:LISTED_WITHOUT_OUTPUT],
    }


@solver
def given_output() -> Solver:
    """Take the output in the sample's metadata (`GIVEN_OUTPUT`) instead of generating one."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        text = str(state.metadata[GIVEN_OUTPUT])
        state.output = ModelOutput.from_content(model=str(state.model), content=text)
        state.output.metadata = {TEXT_AS_SENT: text}  # what the paper columns read: as given
        state.messages.append(ChatMessageAssistant(content=text, source="generate"))
        return state

    return solve
