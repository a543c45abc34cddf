"""The DAHL scorer: clean, split into atomic units (splitter role), check each unit (checker role)."""

from __future__ import annotations

import asyncio
from dataclasses import asdict
from typing import Literal

from inspect_ai.model import ChatMessageSystem, ChatMessageUser, GenerateConfig, Model, get_model
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from medhalbench.dahl._metrics import dahl_metrics
from medhalbench.dahl._scoring import (
    ResponseScore,
    excluded_response,
    judge_response,
    parse_units,
)
from medhalbench.judging import TruthVerdict, parse_truth_verdict, parse_truth_verdicts
from medhalbench.models import DEFAULT_MODEL
from medhalbench.text import clean_response

CheckMode = Literal["unit", "batch"]
SPLITTER_MAX_TOKENS = 512
CHECKER_MAX_TOKENS = 16


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
) -> tuple[list[TruthVerdict], list[str]]:
    """Judge units: one concurrent call per unit, or all in one call (`batch`).

    Returns:
        The verdicts and the checker's raw replies.
    """
    config = GenerateConfig(temperature=0.0, cache=cache)
    if mode == "unit":
        outputs = await asyncio.gather(
            *(
                checker.generate(
                    [
                        ChatMessageSystem(content=system),
                        ChatMessageUser(content=unit_template.format(statement=u)),
                    ],
                    config=config.merge(GenerateConfig(max_tokens=CHECKER_MAX_TOKENS)),
                )
                for u in units
            )
        )
        replies = [o.completion for o in outputs]
        return [parse_truth_verdict(r) for r in replies], replies
    numbered = "\n".join(f"{i}. {u}" for i, u in enumerate(units, start=1))
    output = await checker.generate(
        [
            ChatMessageSystem(content=system),
            ChatMessageUser(content=batch_template.format(statements=numbered)),
        ],
        config=config.merge(GenerateConfig(max_tokens=CHECKER_MAX_TOKENS * len(units))),
    )
    return parse_truth_verdicts(output.completion), [output.completion]


@scorer(metrics=[dahl_metrics()])
def dahl_factuality(
    split_template: str,
    check_system: str,
    check_template: str,
    check_batch_template: str,
    check_mode: CheckMode = "unit",
    cache: bool = True,
) -> Scorer:
    """Score a long answer by the share of its atomic facts judged true.

    Uses the `splitter` and `checker` model roles (the embedded model when unset).
    Declining answers and answers with nothing left after cleaning are excluded before
    any call; the rest are split, each unit checked, and judged (see `judge_response`).
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
        units = parse_units(split.completion)
        verdicts, replies = (
            await check_units(
                checker,
                units,
                mode=check_mode,
                system=check_system,
                unit_template=check_template,
                batch_template=check_batch_template,
                cache=cache,
            )
            if units
            else ([], [])
        )
        result = judge_response(units, verdicts, length=len(cleaned.text), category=category)
        return _score(
            result, units_text=units, verdicts=list(verdicts), checker_replies=replies, **cleaning
        )

    return score
