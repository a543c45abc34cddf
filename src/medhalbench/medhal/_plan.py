"""What a MedHal build will call: the converter per source item (two statements per QA item
and per chosen key-value of a note, one rewrite per summary, none for NLI items), and with an
LLM NLI judge two entailment checks per QA item."""

from __future__ import annotations

from inspect_ai.model import ChatMessage

from medhalbench.medhal._settings import MedHalBuild
from medhalbench.medhal.builder._convert import CONVERTER_MAX_TOKENS, qa_question
from medhalbench.medhal.builder._converter_prompts import ConverterPrompts
from medhalbench.medhal.builder._rules import (
    PAPER_CONVERTER_MAX_TOKENS,
    remove_keywords,
    rewrite_candidates,
)
from medhalbench.medhal.builder._sources import (
    NoteItem,
    QAItem,
    ReadReport,
    SummaryItem,
    read_source,
)
from medhalbench.nli import LLM_NLI_MAX_TOKENS, is_llm_judge, llm_judge, nli_prompt
from medhalbench.planning import Plan, RoleEstimate, count_tokens
from medhalbench.registry import RoleModels
from medhalbench.text import split_sentences


def medhal_build_plan(request: MedHalBuild, converter: str, nli_judge: str | None = None) -> Plan:
    """The converter's (and an LLM NLI judge's) calls and tokens over the sources' items
    that pass the build's filters (the items it counts); an item the converter fails on
    still costs its calls, so these are what the build sends.

    Args:
        request: The build.
        converter: The converter's model name.
        nli_judge: The LLM NLI judge's model name (None: no LLM judge).
    """
    protocol = request.protocol
    converter_prompts = ConverterPrompts.load(protocol)
    prompts: list[str | list[ChatMessage]] = []  # a chat's tokens are its texts'
    checks: list[str] = []
    items = 0
    for name, path in request.sources:
        for item in read_source(name, path, ReadReport())[: request.limit]:
            if isinstance(item, QAItem):
                asked = qa_question(item, name, protocol)
                if isinstance(asked, str):
                    continue  # dropped before any call
                right = item.options.get(item.answer, "")
                prompts += [converter_prompts.qa_input(name, asked[1], right)] * 2
                if protocol == "ours":  # only ours checks that a statement states its option
                    checks += [nli_prompt(f"{asked[1]} Answer: {right}", right)] * 2
            elif isinstance(item, NoteItem):
                for key in sorted(item.facts)[: request.facts_per_note]:
                    prompts += [converter_prompts.kv_input(key, item.facts[key])] * 2
            elif isinstance(item, SummaryItem):
                for _, document, summary in item.pairings():
                    sentences = split_sentences(remove_keywords(summary))
                    chosen = rewrite_candidates(sentences, protocol)
                    if chosen:
                        prompts.append(
                            converter_prompts.rewrite_input(document, sentences[chosen[0]])
                        )
            items += 1
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
    return medhal_build_plan(request, models.names["converter"][0], judge)
