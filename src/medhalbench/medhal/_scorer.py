"""The MedHal scorer: the verdict read from the judge's reply (our strict reader, the extractor
where named, the authors' reading beside it), its explanation, and P(non-factual) from the
verdict token; a predict-only run's verdicts counted."""

from __future__ import annotations

import anyio
from inspect_ai.model import (
    ResponseSchema,
)
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import JSONSchema

from medhalbench.embeddings import DEFAULT_EMBEDDER, Embedder
from medhalbench.judging import read_then_extract, verdict_probability
from medhalbench.medhal._dataset import MedHalSampleMetadata, MedHalStatementMetadata
from medhalbench.medhal._metrics import medhal_metrics, prediction_counts
from medhalbench.medhal._verdicts import (
    FactualVerdict,
    MedHalReadingMetadata,
    MedHalScoreMetadata,
    paper_explanation,
    paper_factual_reading,
    parse_factual_verdict,
)
from medhalbench.outputs import paper_text, reply_as_sent

FACTUAL_SCHEMA = ResponseSchema(
    name="factuality_verdict",
    json_schema=JSONSchema(
        type="object",
        properties={
            "factual": JSONSchema(type="string", enum=["YES", "NO"]),
            "explanation": JSONSchema(type="string"),
        },
        required=["factual", "explanation"],
    ),
    description="Whether the statement is factual, and if not, why.",
    strict=True,
)
_YES_NO = {"yes": "yes", "no": "no"}


UNREADABLE = "unreadable"
"""A predict-only score's value where the reply gave no verdict."""

_MEANINGS = {"YES": "the statement is factual", "NO": "the statement is not factual"}
QUESTION = "Is the statement factual, given its context (YES or NO)?"


@scorer(metrics=[medhal_metrics()])
def factuality_verdict(
    embedder: str | None = DEFAULT_EMBEDDER,
    extract_template: str = "",
    score_threshold: float | None = None,
) -> Scorer:
    """Score a "Factual: YES/NO" reply.

    The metadata keeps our reading and who read it (`read_by`: `strict`, `extractor`, or
    none), why the strict reader read none (`unread_reason`), the authors' reading (`paper_predicted`, the first yes/no word), both
    explanations, the source item, P(non-factual) when the provider returned
    log-probabilities, and, where both gold and prediction are non-factual with an
    explanation, the cosine similarity of the explanations' embeddings (`embedder`; None
    turns it off).

    Args:
        embedder: Sentence-transformers model for the explanation similarity.
        extract_template: The extractor's prompt, for replies the strict reader cannot read
            (used only when the `extractor` role names a model).
        score_threshold: Where the prompt asks for P(factual): the threshold a score is
            read against (None: a score is never a verdict).
    """

    async def score(state: TaskState, target: Target) -> Score:
        reply = state.output.completion if state.output else ""
        verdict, read_by, unread = await read_factuality(reply, extract_template, score_threshold)
        sample = state.metadata_as(MedHalSampleMetadata)
        label = bool(sample.label)
        gold = sample.explanation
        similarity = paper_similarity = None
        if embedder and not label and verdict.factual is False and verdict.explanation and gold:
            model = Embedder(embedder)
            similarity = await anyio.to_thread.run_sync(model.similarity, verdict.explanation, gold)
        as_sent = reply_as_sent(state.output)
        paper_predicted = paper_factual_reading(as_sent)
        # The authors compare explanations where they and the gold both say non-factual,
        # empty ones included (`MedHalParser.evaluate`).
        paper_pair = not label and paper_predicted is False
        if embedder and paper_pair:
            similarity_of = Embedder(embedder).similarity
            paper_similarity = await anyio.to_thread.run_sync(
                similarity_of, gold or "", paper_explanation(as_sent)
            )
        return Score(
            value=int(verdict.factual is not None and verdict.factual == label),
            answer=None if verdict.factual is None else ("YES" if verdict.factual else "NO"),
            explanation=verdict.explanation,
            reason=_score_reason(verdict, read_by),
            metadata=MedHalScoreMetadata(
                label=label,
                predicted=verdict.factual,
                read_by=read_by,
                paper_predicted=paper_predicted,
                paper_text=paper_text([state.output]),
                paper_pair=paper_pair,
                paper_explanation_similarity=paper_similarity,
                explanation=verdict.explanation,
                gold_explanation=gold,
                explanation_similarity=similarity,
                p_non_factual=verdict_probability(state.output, _YES_NO, "no", "yes"),
                source=sample.source,
                item=sample.item,
                unread_reason=unread,
            ).model_dump(),
        )

    return score


@scorer(metrics=[prediction_counts()])
def factuality_prediction(
    extract_template: str = "", score_threshold: float | None = None
) -> Scorer:
    """Read a "Factual: YES/NO" reply on an unlabelled statement (predict-only): the
    verdict (`answer` YES, NO, or None when it cannot be read) and the explanation, with
    nothing to compare them to.

    Args:
        extract_template: The extractor's prompt, for replies the strict reader cannot read
            (used only when the `extractor` role names a model).
        score_threshold: As `factuality_verdict`'s.
    """

    async def score(state: TaskState, target: Target) -> Score:
        reply = state.output.completion if state.output else ""
        verdict, read_by, unread = await read_factuality(reply, extract_template, score_threshold)
        answer = None if verdict.factual is None else ("YES" if verdict.factual else "NO")
        return Score(
            value=answer or UNREADABLE,
            answer=answer,
            explanation=verdict.explanation,
            reason=_score_reason(verdict, read_by),
            metadata=MedHalReadingMetadata(
                predicted=verdict.factual,
                read_by=read_by,
                explanation=verdict.explanation,
                p_non_factual=verdict_probability(state.output, _YES_NO, "no", "yes"),
                source=state.metadata_as(MedHalStatementMetadata).source,
                unread_reason=unread,
            ).model_dump(),
        )

    return score


async def read_factuality(
    reply: str, extract_template: str, score_threshold: float | None = None
) -> tuple[FactualVerdict, str | None, str | None]:
    """A reply's verdict, who read it (`strict`, `extractor`, or None when neither could),
    and why the strict reader read none (None where it read one)."""
    verdict = parse_factual_verdict(reply, score_threshold=score_threshold)
    factual, read_by = await read_then_extract(
        verdict.factual, reply, _MEANINGS, question=QUESTION, template=extract_template,
        verdict=lambda read: read == "YES",
    )  # fmt: skip
    unread = None if read_by == "strict" else verdict.reason
    if read_by == "extractor":
        verdict = FactualVerdict(factual, None, f"read by the extractor ({unread})")
    return verdict, read_by, unread


def _score_reason(verdict: FactualVerdict, read_by: str | None) -> str | None:
    """How a reply the strict reader could not read was read, or why it was not read."""
    if read_by == "strict":
        return None
    return verdict.reason if read_by == "extractor" else f"unparseable: {verdict.reason}"
