"""What a MedHallu build will call: per question at least one attempt that passes, at most
every attempt failing (generate, vote, equivalence check, refine)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from medhalbench.data import PubMedQARecord
from medhalbench.medhallu._dataset import types_text
from medhalbench.medhallu._settings import MedHalluBuild
from medhalbench.medhallu.builder._build import build_records
from medhalbench.medhallu.builder._paper import (
    PAPER_DISCRIMINATOR_CONFIGS,
    PAPER_GENERATOR,
    PAPER_REFINER,
    PAPER_TEXTGRAD_STEPS,
    TEXTGRAD_CALLS,
    PaperPrompts,
    generation_prompt,
    require_three,
)
from medhalbench.medhallu.builder._steps import (
    DISCRIMINATOR_MAX_TOKENS,
    REFINER_MAX_TOKENS,
    BuildPrompts,
    generator_max_tokens,
    word_count,
)
from medhalbench.nli import LLM_NLI_MAX_TOKENS, is_llm_judge, llm_judge, nli_prompt
from medhalbench.planning import Plan, RoleEstimate, count_tokens
from medhalbench.registry import RoleModels
from medhalbench.settings import resolved


def medhallu_build_plan(
    request: MedHalluBuild, models: Mapping[str, str], discriminators: Sequence[str]
) -> Plan:
    """The builder's calls and tokens per role, from the first attempt passing to every
    attempt failing; a candidate is counted as long as the true answer.

    Args:
        request: The build: its PubMedQA entries, settings (attempts, prompt files) and
            protocol (`paper`: per attempt two generator calls and two votes per
            discriminator, six refiner calls, their five attempts unless `--attempts` says
            otherwise; one NLI check per question).
        models: The generator, refiner and (an `llm:` judge's) NLI model by role.
        discriminators: The discriminator models.
    """
    protocol, records = request.protocol, build_records(request)
    if protocol == "paper":
        return _paper_plan(records, models, discriminators, resolved(request.attempts))
    prompts = BuildPrompts.load(request)
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
    n, tries = len(records), resolved(request.attempts)

    def per_attempt(
        role: str,
        prompts: list[str],
        tokens_out: int,
        model: str | None,
        *,
        least: int,
        each: int = 1,
    ) -> RoleEstimate:
        """A role's calls and tokens: `each` call per prompt (`tokens_out`: the output of one
        call per prompt) in an attempt; at least `least` attempts per question, at most `tries`."""
        calls, tokens_in, tokens_out = (
            n * each,
            sum(count_tokens(prompts)) * each,
            tokens_out * each,
        )
        return RoleEstimate(
            role, calls * least, tokens_in * least, tokens_out * least, calls_max=calls * tries,
            input_tokens_max=tokens_in * tries, output_tokens_max=tokens_out * tries, model=model,
        )  # fmt: skip

    judging = per_attempt("discriminator", vote, DISCRIMINATOR_MAX_TOKENS * n, None, least=1)
    roles = [
        per_attempt("generator", generate, out, models.get("generator"), least=1),
        *(replace(judging, model=name) for name in discriminators),
        per_attempt("refiner", refine, REFINER_MAX_TOKENS * n, models.get("refiner"), least=0),
    ]
    if models.get("nli"):  # entailment both ways
        judge = models["nli"]
        roles.append(per_attempt("nli", nli, LLM_NLI_MAX_TOKENS * n, judge, least=1, each=2))
    return Plan("MedHallu build", n, roles, unit="questions")


def plan_medhallu_build(request: MedHalluBuild, models: RoleModels) -> Plan:
    """The build's calls and tokens per role (with `paper`: their attempt of a fresh and a
    rewritten candidate, the refiner's three TextGrad steps between)."""
    if request.protocol == "paper":
        require_three(models.names.get("discriminator", []))
    judge = models.name_for("nli", llm_judge(request.nli)) if is_llm_judge(request.nli) else None
    names = {
        "generator": models.names["generator"][0],
        "refiner": models.names["refiner"][0],
        **({"nli": judge} if judge else {}),
    }
    return medhallu_build_plan(request, names, models.names["discriminator"])


def _paper_plan(
    records: Sequence[PubMedQARecord],
    models: Mapping[str, str],
    discriminators: Sequence[str],
    top: int,
) -> Plan:
    """At least one fresh candidate voted on per question; at most `top` attempts of a fresh
    and a rewritten candidate, each voted on, with three TextGrad steps (of three calls)
    between."""
    prompts = PaperPrompts.load()
    n = len(records)
    generate = [f"{prompts.generate_system}\n\n{generation_prompt(r)}" for r in records]
    votes = [
        prompts.discriminate_user.format(
            question=r.question, option_1=r.long_answer, option_2=r.long_answer,
            justification=r.long_answer,
        )
        for r in records
    ]  # fmt: skip
    # A TextGrad call's input, as its largest (the gradient's: instruction, text, evaluation).
    refine = [
        f"{prompts.critique_system}\n"
        + prompts.critique.format(
            instruction=prompts.evaluate.format(question=r.question), text=g, evaluation=g
        )
        for r, g in zip(records, generate, strict=True)
    ]
    gen_in, vote_in, refine_in = (sum(count_tokens(x)) for x in (generate, votes, refine))
    gen_out = PAPER_GENERATOR.max_tokens or 0
    roles = [
        RoleEstimate(
            "generator", n, gen_in, gen_out * n, calls_max=2 * top * n,
            input_tokens_max=2 * top * gen_in, output_tokens_max=2 * top * gen_out * n,
            model=models.get("generator"),
        )
    ]  # fmt: skip
    for name, config in zip(discriminators, PAPER_DISCRIMINATOR_CONFIGS, strict=True):
        out = config.max_tokens or 0
        roles.append(
            RoleEstimate(
                "discriminator", n, vote_in, out * n, calls_max=2 * top * n,
                input_tokens_max=2 * top * vote_in, output_tokens_max=2 * top * out * n,
                model=name,
            )
        )  # fmt: skip
    steps = TEXTGRAD_CALLS * PAPER_TEXTGRAD_STEPS * top
    refine_out = PAPER_REFINER.max_tokens or 0
    roles.append(
        RoleEstimate(
            "refiner", 0, 0, 0, calls_max=steps * n, input_tokens_max=steps * refine_in,
            output_tokens_max=steps * refine_out * n, model=models.get("refiner"),
        )
    )  # fmt: skip
    if models.get("nli"):
        nli = [nli_prompt(r.long_answer, r.long_answer) for r in records]
        tokens = sum(count_tokens(nli))
        roles.append(
            RoleEstimate("nli", 2 * n, 2 * tokens, 2 * LLM_NLI_MAX_TOKENS * n, model=models["nli"])
        )
    return Plan("MedHallu build (paper protocol)", n, roles, unit="questions")
