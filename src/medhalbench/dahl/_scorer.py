"""The DAHL scorer: clean, split into atomic units (splitter role), check each unit (checker role)."""

from __future__ import annotations

import asyncio
from dataclasses import asdict
from typing import Literal

from inspect_ai.model import (
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    Model,
    ModelOutput,
    ResponseSchema,
    get_model,
)
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import JSONSchema

from medhalbench.dahl._metrics import dahl_metrics
from medhalbench.dahl._scoring import (
    ResponseScore,
    excluded_response,
    judge_response,
    normalise_units,
)
from medhalbench.dahl._verdicts import TruthVerdict, parse_truth_verdict, parse_truth_verdicts
from medhalbench.judging import TOP_LOGPROBS, verdict_probability
from medhalbench.models import DEFAULT_MODEL
from medhalbench.text import clean_response

CheckMode = Literal["unit", "batch"]
SPLITTER_MAX_TOKENS = 512
CHECKER_MAX_TOKENS = 16
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
        metadata={**asdict(result), "precision": precision, **details},
    )


async def check_units(
    checker: Model,
    units: list[str],
    *,
    mode: CheckMode,
    system: str,
    unit_template: str,
    batch_template: str,
    cache: bool,
    structured: bool = False,
    probabilities: bool = False,
) -> tuple[list[TruthVerdict], list[str], list[float | None]]:
    """Judge units: one concurrent call per unit, or all in one call (`batch`).

    Args:
        checker: The checker model.
        units: The atomic units.
        mode: `unit` or `batch`.
        system: The checker's system prompt.
        unit_template: Per-unit prompt (`{statement}`).
        batch_template: Batch prompt (`{statements}`).
        cache: Cache the calls.
        structured: Ask for `{"verdict": "true|false|unknown"}` through the provider's
            constrained decoding (unit mode).
        probabilities: Ask for log-probabilities and compute P(false) per unit.

    Returns:
        The verdicts, the checker's raw replies, and P(false) per unit (None where the
        provider gave no log-probabilities).
    """
    config = GenerateConfig(temperature=0.0, cache=cache)
    if probabilities:
        config = config.merge(GenerateConfig(logprobs=True, top_logprobs=TOP_LOGPROBS))
    if mode == "unit":
        unit_config = config.merge(
            GenerateConfig(max_tokens=STRUCTURED_CHECKER_MAX_TOKENS, response_schema=TRUTH_SCHEMA)
            if structured
            else GenerateConfig(max_tokens=CHECKER_MAX_TOKENS)
        )
        outputs: list[ModelOutput] = await asyncio.gather(
            *(
                checker.generate(
                    [
                        ChatMessageSystem(content=system),
                        ChatMessageUser(content=unit_template.format(statement=u)),
                    ],
                    config=unit_config,
                )
                for u in units
            )
        )
        replies = [o.completion for o in outputs]
        p_false = [
            verdict_probability(
                o.choices[0].logprobs if o.choices else None, _TRUTH_TOKENS, "false", "true"
            )
            for o in outputs
        ]
        return [parse_truth_verdict(r) for r in replies], replies, p_false
    numbered = "\n".join(f"{i}. {u}" for i, u in enumerate(units, start=1))
    output = await checker.generate(
        [
            ChatMessageSystem(content=system),
            ChatMessageUser(content=batch_template.format(statements=numbered)),
        ],
        config=config.merge(GenerateConfig(max_tokens=CHECKER_MAX_TOKENS * len(units))),
    )
    verdicts = parse_truth_verdicts(output.completion)
    return verdicts, [output.completion], [None] * len(verdicts)


@scorer(metrics=[dahl_metrics()])
def dahl_factuality(
    split_template: str,
    check_system: str,
    check_template: str,
    check_batch_template: str,
    check_mode: CheckMode = "unit",
    cache: bool = True,
    structured: bool = False,
    probabilities: bool = False,
    normalise: bool = True,
) -> Scorer:
    """Score a long answer by the share of its atomic facts judged true.

    Uses the `splitter` and `checker` model roles (the embedded model when unset). The
    answer is cleaned (sentences that only decline are removed; an answer with nothing
    else left is excluded as declined), split, each unit normalised and checked, and the
    response judged (see `judge_response`). The metadata keeps the cleaned answer, the
    splitter's raw reply, the units, verdicts, the checker's replies and what was changed.
    """

    async def score(state: TaskState, target: Target) -> Score:
        question = str(state.metadata["question"])
        category = str(state.metadata["category"])
        response = state.output.completion if state.output else ""
        stop_reason = state.output.stop_reason if state.output else None
        # Answers written elsewhere carry no stop reason: judge the last sentence by its punctuation.
        truncated = (
            None if state.metadata.get("response") is not None else stop_reason == "max_tokens"
        )
        cleaned = clean_response(question, response, truncated=truncated)
        cleaning = {
            "cleaned_response": cleaned.text,
            "removed_question": cleaned.removed_question,
            "removed_repeats": cleaned.removed_repeats,
            "removed_truncated": cleaned.removed_truncated,
            "removed_declines": cleaned.removed_declines,
        }
        if cleaned.declined:
            return _score(
                excluded_response("declined", length=len(cleaned.text), category=category),
                **cleaning,
            )
        if not cleaned.text:
            return _score(excluded_response("no_units", length=0, category=category), **cleaning)
        splitter = get_model(role="splitter", default=DEFAULT_MODEL)
        checker = get_model(role="checker", default=DEFAULT_MODEL)
        split = await splitter.generate(
            split_template.format(text=cleaned.text),
            config=GenerateConfig(temperature=0.0, max_tokens=SPLITTER_MAX_TOKENS, cache=cache),
        )
        units = normalise_units(split.completion, normalise=normalise)
        verdicts, replies, p_false = (
            await check_units(
                checker,
                units.units,
                mode=check_mode,
                system=check_system,
                unit_template=check_template,
                batch_template=check_batch_template,
                cache=cache,
                structured=structured,
                probabilities=probabilities,
            )
            if units.units
            else ([], [], [])
        )
        result = judge_response(units.units, verdicts, length=len(cleaned.text), category=category)
        return _score(
            result,
            units_text=units.units,
            verdicts=list(verdicts),
            p_false=p_false if probabilities else None,
            checker_replies=replies,
            splitter_reply=split.completion,
            units_markdown_stripped=units.markdown_stripped,
            units_split=units.sentences_split,
            list_intros_dropped=units.list_intros_dropped,
            **cleaning,
        )

    return score
