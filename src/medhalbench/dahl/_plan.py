"""What a DAHL run will call: the answers, one split per answer, and the checks of an
assumed number of atomic units per answer (the paper's responses averaged about 11)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from string import Formatter

from inspect_ai import Task

from medhalbench._prompts import read_prompt
from medhalbench.dahl._dataset import DahlSampleMetadata
from medhalbench.dahl._scorer import (
    GROUNDED_PROMPT,
    SPLITTER_MAX_TOKENS,
    STRUCTURED_CHECKER_MAX_TOKENS,
    passage_tokens,
)
from medhalbench.dahl._settings import DahlBuild, DahlPlanSettings, DahlSettings
from medhalbench.dahl.builder._build import BUILD_MAX_TOKENS, generator_prompter
from medhalbench.dahl.builder._papers import load_papers
from medhalbench.planning import MESSAGE_OVERHEAD, Plan, RoleEstimate, count_tokens, task_plan
from medhalbench.registry import RoleModels
from medhalbench.results import RunRecord
from medhalbench.settings import Settings

PAPER_COLUMN = "paper column"
"""The part of the splitter's and the checker's calls made for the paper-protocol column."""
SKIPS_PAPER_COLUMN = "--no-paper-protocol"
"""The option (`DahlSettings.paper_protocol` off) that skips the paper column's calls."""


def _template_tokens(name: str, path: str | None) -> int:
    """Tokens of a prompt template without its placeholders."""
    template = read_prompt(__package__, name, path)
    try:  # the literal text around the placeholders
        text = "".join(literal for literal, _, _, _ in Formatter().parse(template))
    except ValueError:  # free text (a system prompt) whose braces are its own
        text = template
    return count_tokens([text])[0]


def dahl_plan(
    task: Task, roles: Mapping[str, str], planning: Settings | None
) -> list[RoleEstimate]:
    """Calls and tokens of the model under test (unless the answers are given), the splitter
    and the checker, assuming what the planning settings given say (`DahlPlanSettings`). With
    the paper protocol the authors' pipeline splits and checks each answer again: the plan
    counts those calls in full, an upper bound (calls identical to ours cost nothing, from
    inspect's cache)."""
    assumed = planning if isinstance(planning, DahlPlanSettings) else DahlPlanSettings()
    units = assumed.units_per_answer
    samples = list(task.dataset)
    epochs = task.epochs or 1
    answers = len(samples) * epochs
    record = RunRecord.of_task(task)
    settings = record.settings_as(DahlSettings)
    if not record.generated:
        records = [DahlSampleMetadata.model_validate(s.metadata or {}) for s in samples]
        responses = [r.response or "" for r in records]
        answer_tokens = sum(count_tokens(responses)) * epochs
    else:
        # A call sent no limit (their OpenAI route) is planned at DAHL's 256 tokens.
        answer_tokens = (task.config.max_tokens or settings.max_tokens) * answers
    split_in = _template_tokens("split_user.txt", settings.split_prompt) * answers + answer_tokens
    system = _template_tokens("check_system.txt", None)
    verdict_tokens = settings.check_max_tokens
    unit_template = _template_tokens("check_user.txt", settings.check_prompt)
    if settings.evidence:  # the grounded prompt, with each unit's passages in it
        unit_template = _template_tokens(
            GROUNDED_PROMPT, settings.evidence_prompt
        ) + passage_tokens(settings.grounding)
    if settings.check_mode == "batch":
        check_calls = answers
        template = _template_tokens("check_batch_user.txt", settings.check_batch_prompt)
        check_out = round(verdict_tokens * units) * answers
    else:
        check_calls = round(answers * units)
        template = unit_template
        per_check = (
            max(verdict_tokens, STRUCTURED_CHECKER_MAX_TOKENS)
            if settings.structured
            else verdict_tokens
        )
        check_out = per_check * check_calls
    # The units of an answer together are about as long as the answer.
    check_in = (template + system) * check_calls + answer_tokens
    split_calls, split_out = answers, SPLITTER_MAX_TOKENS * answers
    paper_checks = round(answers * units)
    # The authors' pipeline, for the paper column: one split and per-unit checks more.
    paper_column = [
        RoleEstimate("splitter", split_calls, split_in, split_out, model=roles.get("splitter"),
                     part=PAPER_COLUMN, skipped_by=SKIPS_PAPER_COLUMN),
        RoleEstimate("checker", paper_checks, (unit_template + system) * paper_checks + answer_tokens,
                     verdict_tokens * paper_checks, model=roles.get("checker"),
                     part=PAPER_COLUMN, skipped_by=SKIPS_PAPER_COLUMN),
    ] if settings.paper_protocol else []  # fmt: skip
    answering = task_plan(task)
    # The answer's system prompt is added by the solver, not held by the samples.
    system_in = (
        _template_tokens("answer_system.txt", settings.answer_prompt) + MESSAGE_OVERHEAD
    ) * answers
    answering = replace(
        answering, input_tokens=answering.input_tokens + system_in, output_tokens=answer_tokens
    )
    return [
        *([answering] if record.generated else []),
        RoleEstimate("splitter", split_calls, split_in, split_out, model=roles.get("splitter")),
        RoleEstimate("checker", check_calls, check_in, check_out, model=roles.get("checker")),
        *paper_column,
    ]  # fmt: skip


def plan_dahl_build(request: DahlBuild, models: RoleModels) -> Plan:
    """`build dahl --dry-run`: the generator's calls and tokens, one call per paper."""
    papers = load_papers(request.papers, limit=request.limit)
    prompter = generator_prompter(request)
    calls = len(papers)
    tokens = sum(count_tokens([prompter(p) for p in papers]))
    generator = models.names["generator"][0]
    role = RoleEstimate("generator", calls, tokens, BUILD_MAX_TOKENS * calls, model=generator)
    return Plan("DAHL question build", calls, [role], unit="papers")
