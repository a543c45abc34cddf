"""What a MedHallu build will call: per question at least one attempt that passes, at most
every attempt failing (generate, vote, equivalence check, refine)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from medhalbench.data import PubMedQARecord
from medhalbench.medhallu._steps import (
    DISCRIMINATOR_MAX_TOKENS,
    REFINER_MAX_TOKENS,
    BuildPrompts,
    BuildSettings,
    generator_max_tokens,
    word_count,
)
from medhalbench.medhallu._types import types_text
from medhalbench.nli import LLM_NLI_MAX_TOKENS, nli_prompt
from medhalbench.planning import Plan, RoleEstimate, count_tokens


def medhallu_build_plan(
    records: Sequence[PubMedQARecord],
    settings: BuildSettings,
    models: Mapping[str, str],
    discriminators: Sequence[str],
) -> Plan:
    """The builder's calls and tokens per role, from the first attempt passing to every
    attempt failing; a candidate is counted as long as the true answer.

    Args:
        records: The PubMedQA entries to build from.
        settings: The build settings (attempts, prompt files).
        models: The generator, refiner and (an `llm:` judge's) NLI model by role.
        discriminators: The discriminator models.
    """
    prompts = BuildPrompts.load(settings)
    generate, vote, refine, nli = [], [], [], []
    out = 0
    for r in records:
        truth = r.long_answer
        generate.append(
            prompts.generate.format(
                types=types_text(), words=word_count(truth), feedback="", question=r.question,
                knowledge=r.context_text, ground_truth=truth,
            )
        )  # fmt: skip
        vote.append(
            prompts.discriminate.format(question=r.question, answer_1=truth, answer_2=truth)
        )
        refine.append(
            prompts.refine.format(
                question=r.question, ground_truth=truth, candidate=truth, reasons=""
            )
        )
        nli.append(nli_prompt(truth, truth))
        out += generator_max_tokens(truth)
    n, tries = len(records), settings.attempts
    tokens = {
        k: sum(count_tokens(v))
        for k, v in [("g", generate), ("v", vote), ("r", refine), ("n", nli)]
    }
    roles = [
        RoleEstimate(
            "generator", n, tokens["g"], out, calls_max=n * tries,
            input_tokens_max=tokens["g"] * tries, output_tokens_max=out * tries,
            model=models.get("generator"),
        ),
        *(
            RoleEstimate(
                "discriminator", n, tokens["v"], DISCRIMINATOR_MAX_TOKENS * n, calls_max=n * tries,
                input_tokens_max=tokens["v"] * tries,
                output_tokens_max=DISCRIMINATOR_MAX_TOKENS * n * tries, model=name,
            )
            for name in discriminators
        ),
        RoleEstimate(
            "refiner", 0, 0, 0, calls_max=n * tries, input_tokens_max=tokens["r"] * tries,
            output_tokens_max=REFINER_MAX_TOKENS * n * tries, model=models.get("refiner"),
        ),
    ]  # fmt: skip
    if models.get("nli"):
        roles.append(
            RoleEstimate(
                "nli", 2 * n, 2 * tokens["n"], 2 * LLM_NLI_MAX_TOKENS * n, calls_max=2 * n * tries,
                input_tokens_max=2 * tokens["n"] * tries,
                output_tokens_max=2 * LLM_NLI_MAX_TOKENS * n * tries, model=models["nli"],
            )
        )  # fmt: skip
    return Plan("MedHallu build", n, roles, unit="questions")
