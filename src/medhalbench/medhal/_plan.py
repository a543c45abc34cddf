"""What a MedHal build will call: the converter per source item (two statements per QA item
and per chosen key-value of a note, one rewrite per summary, none for NLI items), and with an
LLM NLI judge two entailment checks per QA item."""

from __future__ import annotations

from collections.abc import Sequence

from medhalbench._prompts import read_prompt
from medhalbench.arguments import BuildProtocol
from medhalbench.medhal.build._build import MedHalBuild
from medhalbench.medhal.build._convert import CONVERTER_MAX_TOKENS
from medhalbench.medhal.build._rules import (
    PAPER_CONVERTER_MAX_TOKENS,
    remove_keywords,
    rewrite_candidates,
)
from medhalbench.medhal.build._sources import NoteItem, QAItem, ReadReport, SummaryItem, read_source
from medhalbench.nli import LLM_NLI_MAX_TOKENS, is_llm_judge, llm_judge, nli_prompt
from medhalbench.planning import Plan, RoleEstimate, count_tokens
from medhalbench.registry import RoleModels
from medhalbench.text import split_sentences


def medhal_build_plan(
    sources: Sequence[tuple[str, str]],
    converter: str,
    *,
    limit: int | None = None,
    facts_per_note: int = 2,
    nli_judge: str | None = None,
    protocol: BuildProtocol = "ours",
) -> Plan:
    """The converter's (and an LLM NLI judge's) calls and tokens over the sources' items; an
    item the converter fails on still costs its calls, so these are what the build sends."""
    qa = read_prompt(__package__, "qa_statement.txt")
    kv = read_prompt(__package__, "kv_statement.txt")
    contradict = read_prompt(__package__, "contradict_sentence.txt")
    prompts: list[str] = []
    checks: list[str] = []
    items = 0
    for name, path in sources:
        for item in read_source(name, path, ReadReport())[:limit]:
            items += 1
            if isinstance(item, QAItem):
                right = item.options.get(item.answer, "")
                prompts += [qa.format(question=item.question, option=right)] * 2
                checks += [nli_prompt(f"{item.question} Answer: {right}", right)] * 2
            elif isinstance(item, NoteItem):
                for key in sorted(item.facts)[:facts_per_note]:
                    prompts += [kv.format(key=key, value=item.facts[key])] * 2
            elif isinstance(item, SummaryItem):
                for _, _, summary in item.pairings():
                    sentences = split_sentences(remove_keywords(summary))
                    chosen = rewrite_candidates(sentences, protocol)
                    prompts += [contradict.format(sentence=sentences[chosen[0]])] if chosen else []
    calls = len(prompts)
    most = PAPER_CONVERTER_MAX_TOKENS if protocol == "paper" else CONVERTER_MAX_TOKENS
    roles = [
        RoleEstimate(
            "converter", calls, sum(count_tokens(prompts)), most * calls, model=converter,
        )
    ]  # fmt: skip
    if nli_judge:
        roles.append(
            RoleEstimate(
                "nli", len(checks), sum(count_tokens(checks)), LLM_NLI_MAX_TOKENS * len(checks),
                model=nli_judge,
            )
        )  # fmt: skip
    return Plan("MedHal build", items, roles, unit="source items")


def plan_medhal_build(request: MedHalBuild, models: RoleModels) -> Plan:
    """`build medhal --dry-run`: the converter's (and an LLM NLI judge's) calls and tokens."""
    judge = (
        models.name_for("nli", llm_judge(request.nli))
        if request.nli and is_llm_judge(request.nli)
        else None
    )
    return medhal_build_plan(
        request.sources, models.names["converter"][0], limit=request.limit,
        facts_per_note=request.facts_per_note, nli_judge=judge, protocol=request.protocol,
    )  # fmt: skip
