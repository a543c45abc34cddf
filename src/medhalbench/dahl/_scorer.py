"""The DAHL scorer: clean each answer, split it into atomic units (splitter role), check each
unit (checker role), closed-book or grounded in passages a retriever finds for the unit."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, get_args

from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    Model,
    ModelOutput,
    ResponseSchema,
    get_model,
    model_roles,
)
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import JSONSchema

from medhalbench._errors import MedhalbenchError
from medhalbench._prompts import read_template
from medhalbench.dahl._dataset import DahlSampleMetadata
from medhalbench.dahl._metrics import (
    DahlScoreMetadata,
    ResponseScore,
    dahl_metrics,
    excluded_response,
    judge_response,
    normalise_units,
)
from medhalbench.dahl._paper import PaperSettings, paper_clean, paper_judge, paper_units
from medhalbench.dahl._settings import CHECKER_MAX_TOKENS, CheckMode
from medhalbench.dahl._verdicts import (
    TruthVerdict,
    paper_truth_reading,
    parse_truth_verdicts,
    read_truth_verdict,
    unread_reasons,
)
from medhalbench.evidence import (
    RetrievedPassage,
    example_passages,
    grounding_retriever,
    grounding_summary,
    passages_metadata,
    passages_text,
)
from medhalbench.judging import (
    TOP_LOGPROBS,
    read_then_extract,
    strip_reasoning,
    verdict_probability,
)
from medhalbench.models import embedded_may_judge
from medhalbench.outputs import paper_text, reply_as_sent, stop_reason
from medhalbench.planning import count_tokens
from medhalbench.settings import DEFAULT_MODEL, Grounding
from medhalbench.text import clean_response

GROUNDED_PROMPT = "check_user_evidence.txt"
ASSUMED_PASSAGE_TOKENS = 160
"""Tokens of one passage a plan assumes where the retriever is a plug-in it cannot sample
(a 100-word passage with its heading)."""


def grounded_template(grounding: Grounding, *, evidence_prompt: str | None) -> str | None:
    """The grounded checker's prompt when the run names evidence (None for a closed-book
    run), the retriever opened now so that a bad corpus stops the run before any call.

    Args:
        grounding: The run's evidence (none: closed-book).
        evidence_prompt: A file replacing the grounded checker prompt.

    Raises:
        DataError: An evidence source that cannot be opened, or a prompt without
            `{statement}` and `{passages}`.
    """
    if grounding.evidence is None:
        return None
    template = read_template(
        __package__, GROUNDED_PROMPT, evidence_prompt, {"statement", "passages"}
    )
    grounding_retriever(grounding, progress=True)
    return template


def evidence_record(grounding: Grounding) -> dict[str, Any] | None:
    """What a log keeps about the evidence a run searched (None for a closed-book run)."""
    found = grounding_summary(grounding)
    return dict(found) if found is not None else None


async def unit_evidence(
    grounding: Grounding, units: Sequence[str]
) -> tuple[list[str], list[list[dict[str, Any]]] | None]:
    """Each unit's passages as the checker reads them and as the log keeps them (blank
    texts and None without evidence). The search runs in a worker thread."""
    if grounding.evidence is None or not units:
        return [""] * len(units), None
    retriever = grounding_retriever(grounding)
    found: list[list[RetrievedPassage]] = await asyncio.to_thread(
        retriever.search, units, grounding.evidence_k
    )
    return [passages_text(f) for f in found], [passages_metadata(f) for f in found]


def passage_tokens(grounding: Grounding) -> int:
    """Tokens the passages add to one grounded checker prompt (0 for a closed-book run):
    k passages of the index, as the prompt shows them, averaged over evenly spread ones."""
    if not grounding.evidence:
        return 0
    k = grounding.evidence_k
    retriever = grounding_retriever(grounding)
    sample = example_passages(retriever, count=max(k, 40 * k))
    if not sample:
        return ASSUMED_PASSAGE_TOKENS * k
    groups = [
        [RetrievedPassage(p, 0.0, rank) for rank, p in enumerate(sample[i : i + k], start=1)]
        for i in range(0, len(sample) - k + 1, k)
    ] or [[RetrievedPassage(p, 0.0, rank) for rank, p in enumerate(sample, start=1)]]
    tokens = count_tokens([passages_text(g) for g in groups])
    return round(sum(tokens) / len(tokens))


SPLITTER_MAX_TOKENS = 512
STRUCTURED_CHECKER_MAX_TOKENS = 24
TRUTH_SCHEMA = ResponseSchema(
    name="truth_verdict",
    json_schema=JSONSchema(
        type="object",
        properties={"verdict": JSONSchema(type="string", enum=["true", "false", "unknown"])},
        required=["verdict"],
    ),
    description="Whether the statement is true, false, or unknown.",
    strict=True,
)
_TRUTH_TOKENS = {"true": "true", "false": "false"}


def _score(result: ResponseScore, **details: object) -> Score:
    precision = result.precision
    return Score(
        value=precision if precision is not None else 0.0,
        reason=None if result.status == "scored" else f"excluded: {result.status}",
        explanation=(
            f"{result.true}/{result.units} units true"
            if result.status == "scored"
            else f"left out of the DAHL score: {result.status}"
        ),
        metadata=DahlScoreMetadata.of(result, **details).stored(),
    )


def _unit_messages(system: str, template: str, unit: str, passages: str = "") -> list[ChatMessage]:
    # A closed-book template has no {passages}: format leaves the blank passages unused.
    return [
        ChatMessageSystem(content=system),
        ChatMessageUser(content=template.format(statement=unit, passages=passages)),
    ]


@dataclass(frozen=True)
class CheckOptions:
    """How the checker is asked about a response's units: the same for every response of
    a run (the task builds it once from its settings).

    Attributes:
        mode: One call per unit (`unit`, concurrent) or all of a response's units in one
            call (`batch`).
        system: The checker's system prompt.
        unit_template: Per-unit prompt (`{statement}`; `{passages}` when grounded).
        batch_template: Batch prompt (`{statements}`).
        structured: Ask for `{"verdict": "true|false|unknown"}` through the provider's
            constrained decoding (unit mode).
        probabilities: Ask for log-probabilities and compute P(false) per unit.
        max_tokens: Token limit of one unit's verdict.
        score_threshold: Where the prompt asks for P(true): the threshold a score is read
            against (None: a score is never a verdict).
    """

    mode: CheckMode
    system: str
    unit_template: str
    batch_template: str
    structured: bool = False
    probabilities: bool = False
    max_tokens: int = CHECKER_MAX_TOKENS
    score_threshold: float | None = None


async def check_units(
    checker: Model,
    units: list[str],
    options: CheckOptions,
    *,
    cache: bool,
    passages: Sequence[str] | None = None,
) -> tuple[list[TruthVerdict | None], list[str], list[float | None]]:
    """Judge units: one concurrent call per unit, or all in one call (`batch`).

    Args:
        checker: The checker model.
        units: The atomic units.
        options: How to ask (mode, prompts, structured verdicts, probabilities, tokens).
        cache: Cache the calls.
        passages: Each unit's evidence passages for the template's `{passages}` (unit
            mode; none for a closed-book check).

    Returns:
        The verdicts (None: a reply that cannot be read), the checker's raw replies, and
        P(false) per unit (None where the provider gave no log-probabilities).
    """
    max_tokens = options.max_tokens
    config = GenerateConfig(temperature=0.0, cache=cache)
    if options.probabilities:
        config = config.merge(GenerateConfig(logprobs=True, top_logprobs=TOP_LOGPROBS))
    if options.mode == "unit":
        unit_config = config.merge(
            GenerateConfig(
                max_tokens=max(max_tokens, STRUCTURED_CHECKER_MAX_TOKENS),
                response_schema=TRUTH_SCHEMA,
            )
            if options.structured
            else GenerateConfig(max_tokens=max_tokens)
        )
        outputs: list[ModelOutput] = await asyncio.gather(
            *(
                checker.generate(
                    _unit_messages(options.system, options.unit_template, u, p),
                    config=unit_config,
                )
                for u, p in zip(units, passages or [""] * len(units), strict=True)
            )
        )
        replies = [o.completion for o in outputs]
        p_false = [verdict_probability(o, _TRUTH_TOKENS, "false", "true") for o in outputs]
        read = [read_truth_verdict(r, options.score_threshold).verdict for r in replies]
        return read, replies, p_false
    numbered = "\n".join(f"{i}. {u}" for i, u in enumerate(units, start=1))
    output = await checker.generate(
        [
            ChatMessageSystem(content=options.system),
            ChatMessageUser(content=options.batch_template.format(statements=numbered)),
        ],
        config=config.merge(GenerateConfig(max_tokens=max_tokens * len(units))),
    )
    verdicts: list[TruthVerdict | None] = list(
        parse_truth_verdicts(output.completion, options.score_threshold)
    )
    return verdicts, [output.completion], [None] * len(verdicts)


def role_model(role: str) -> Model:
    """A judge role's model: the one the run names, else the embedded model, but only when
    the model under test is embedded too (a real model is never judged by it silently)."""
    if role in model_roles():
        return get_model(role=role)
    if embedded_may_judge([str(get_model())]):
        return get_model(DEFAULT_MODEL)
    raise MedhalbenchError(
        f"the DAHL task needs a {role} model for {get_model()}: give --{role} MODEL or "
        f"--judge MODEL (inspect eval: --model-role {role}=MODEL)"
    )


_TRUTH_MEANINGS = {
    "true": "the statement is true",
    "false": "the statement is false",
    "unknown": "the reply says it cannot tell, or that the statement is partly true",
}
_CHECK_QUESTION = "Is this statement true or false?"
TRUTH_VERDICTS: dict[str, TruthVerdict] = {v: v for v in get_args(TruthVerdict)}


@scorer(metrics=[dahl_metrics()])
def dahl_factuality(
    split_template: str,
    checks: CheckOptions,
    cache: bool = True,
    normalise: bool = True,
    answer_instruction: str = "",
    paper_protocol: bool = True,
    extract_template: str = "",
    grounding: Grounding | None = None,
    paper_prompts: dict[str, str] | None = None,
) -> Scorer:
    """Score a long answer by the share of its atomic facts judged true.

    Uses the `splitter` and `checker` model roles. The answer is cleaned (sentences that
    only decline are removed; an answer with nothing else left is excluded as declined),
    split, each unit normalised and checked, and the response judged (see
    `judge_response`); a checker's reply the strict reader cannot read goes to the
    extractor when one is named (who read each unit is kept: `unit_read_by`). With
    `paper_protocol`, the same answer also goes through the authors' pipeline (their
    cleaning, units, settings and reading, and their prompts where `paper_prompts` holds
    them; `dahl._paper`) with the same splitter and checker models, for the paper-protocol
    column. The metadata keeps the cleaned answer, the splitter's raw
    reply, the units, verdicts, the checker's replies, what was changed, and the paper
    pipeline's units, replies and judgement.

    Args:
        split_template: The splitter's prompt (`{text}`).
        checks: How the checker is asked about the units.
        cache: Cache splitter and checker calls.
        normalise: Normalise the splitter's units (markdown, sentences, list intros).
        answer_instruction: The instruction the answers were asked with: an echo of it is
            cleaned from an answer (ours; the paper column removes only the authors' own,
            `answer_instruction.txt` in `paper_prompts`).
        paper_protocol: Also score each answer by the authors' pipeline.
        extract_template: The extractor's prompt (empty: no extractor).
        grounding: Evidence for the checker (None: closed-book).
        paper_prompts: The authors' prompts for the paper pipeline, by file name.
    """
    evidence = grounding or Grounding()

    async def split(text: str) -> str:
        output = await role_model("splitter").generate(
            split_template.format(text=text),
            config=GenerateConfig(temperature=0.0, max_tokens=SPLITTER_MAX_TOKENS, cache=cache),
        )
        return output.completion

    async def read_with_extractor(
        verdicts: list[TruthVerdict | None], replies: list[str]
    ) -> tuple[list[TruthVerdict], list[str | None]]:
        """The verdicts, those the strict reader could not read given to the extractor
        (per-unit replies only), and who read each (`strict`, `extractor`, or None)."""
        # A batch's one reply is no unit's own: an empty one leaves the extractor nothing.
        own = replies if len(replies) == len(verdicts) else [""] * len(verdicts)
        read: list[tuple[TruthVerdict | None, str | None]] = [
            await read_then_extract(
                verdict, reply, _TRUTH_MEANINGS, question=_CHECK_QUESTION,
                template=extract_template, verdict=lambda found: TRUTH_VERDICTS[found],
            )
            for verdict, reply in zip(verdicts, own, strict=True)
        ]  # fmt: skip
        return [verdict or "unknown" for verdict, _ in read], [by for _, by in read]

    theirs = PaperSettings.of(
        paper_prompts or {}, split=split_template, check_system=checks.system,
        check=checks.unit_template,
    )  # fmt: skip

    async def paper(answer: ModelOutput | None, question: str) -> dict[str, object]:
        """The authors' pipeline on the answer as sent, with their settings (and their
        prompts where given): the splitter is called even on an answer empty after cleaning."""
        text = paper_clean(reply_as_sent(answer), question, theirs.instruction)
        split_output = await role_model("splitter").generate(
            theirs.split_messages(text), config=theirs.split_config(cache)
        )
        reply = reply_as_sent(split_output)
        units = paper_units(reply)
        passages, found = await unit_evidence(evidence, units)
        outputs = await asyncio.gather(
            *(
                role_model("checker").generate(
                    theirs.check_messages(u, p), config=theirs.check_config(cache)
                )
                for u, p in zip(units, passages, strict=True)
            )
        )
        replies = [reply_as_sent(o) for o in outputs]
        judged = paper_judge([paper_truth_reading(r) for r in replies])
        return {
            "paper": judged.as_metadata(),
            "paper_cleaned_response": text,
            "paper_splitter_reply": reply,
            "paper_units": units,
            "paper_checker_replies": replies,
            "paper_prompts": list(theirs.supplied),
            "paper_text": paper_text([answer, split_output, *outputs]),
            **({"paper_unit_passages": found} if found is not None else {}),
        }

    async def score(state: TaskState, target: Target) -> Score:
        asked = state.metadata_as(DahlSampleMetadata)
        question, category = asked.question, asked.category
        # Ours reads the answer after its reasoning (inspect parses a generated one's block
        # off; an answer given as written may still hold one).
        response = strip_reasoning(state.output.completion) if state.output else ""
        # Answers written elsewhere carry no stop reason: judge the last sentence by its punctuation.
        truncated = (
            None if asked.response is not None else stop_reason(state.output) == "max_tokens"
        )
        authors = await paper(state.output, question) if paper_protocol else {}
        cleaned = clean_response(
            question, response, truncated=truncated,
            instructions=(answer_instruction, theirs.instruction),
        )  # fmt: skip
        cleaning = {
            "cleaned_response": cleaned.text,
            "removed_instruction": cleaned.removed_instruction,
            "removed_question": cleaned.removed_question,
            "removed_repeats": cleaned.removed_repeats,
            "removed_truncated": cleaned.removed_truncated,
            "removed_declines": cleaned.removed_declines,
        }
        if cleaned.declined:
            return _score(
                excluded_response("declined", length=len(cleaned.text), category=category),
                **cleaning,
                **authors,
            )
        if not cleaned.text:
            return _score(
                excluded_response("no_units", length=0, category=category), **cleaning, **authors
            )
        splitter_reply = await split(cleaned.text)
        units = normalise_units(splitter_reply, normalise=normalise)
        passages, found = await unit_evidence(evidence, units.units)
        strict, replies, p_false = (
            await check_units(
                role_model("checker"), units.units, checks, cache=cache, passages=passages
            )
            if units.units
            else ([], [], [])
        )
        verdicts, read_by = await read_with_extractor(strict, replies)
        extracted = read_by.count("extractor")
        result = judge_response(units.units, verdicts, length=len(cleaned.text), category=category)
        details: dict[str, object] = {}
        if extracted:  # the judgement without the extractor's readings
            without = [v or "unknown" for v in strict]
            details["strict"] = judge_response(
                units.units, without, length=len(cleaned.text), category=category
            )
        return _score(
            result,
            units_text=units.units,
            verdicts=list(verdicts),
            read_by_extractor=extracted,
            unit_read_by=read_by,
            unit_unread_reasons=unread_reasons(replies, len(units.units), checks.score_threshold),
            p_false=p_false if checks.probabilities else None,
            checker_replies=replies,
            splitter_reply=splitter_reply,
            units_markdown_stripped=units.markdown_stripped,
            units_split=units.sentences_split,
            list_intros_dropped=units.list_intros_dropped,
            **cleaning,
            **details,
            # What the checker was shown with each unit, for a reader of the log.
            **({"unit_passages": found} if found is not None else {}),
            **authors,
        )

    return score
