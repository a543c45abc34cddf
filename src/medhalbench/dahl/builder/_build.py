"""The DAHL question builder: exam questions written from full-text papers."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai.model import GenerateConfig, Model, ResponseSchema
from inspect_ai.util import JSONSchema

from medhalbench._progress import progress_bar
from medhalbench._prompts import read_template
from medhalbench.dahl._dataset import DAHL_CATEGORIES
from medhalbench.dahl._settings import DahlBuild
from medhalbench.dahl.builder import PROMPTS
from medhalbench.dahl.builder._filters import check_question
from medhalbench.dahl.builder._papers import Paper, load_papers
from medhalbench.data import ResumableJsonl, ResumedCounts, run_resumable, write_csv
from medhalbench.registry import RoleModels
from medhalbench.settings import BuildProtocol

PROGRESS_FILE = "papers.jsonl"
QUESTIONS_FILE = "questions.csv"
DROPPED_FILE = "dropped.csv"
REVIEW_FILE = "review.csv"
AUTHORS_GENERATOR = "gpt-4-1106-preview"
"""The model DAHL's authors wrote their questions with (their README)."""
OTHER = "other"

_CATEGORY = re.compile(r"^\s*\**category\**\s*:\s*\**(.+?)\**\s*$", re.IGNORECASE | re.MULTILINE)
_NUMBERED = re.compile(r"^\s*(?:\d+[.)]|[-*•]|q\d*[:.)])\s*(.+?)\s*$", re.IGNORECASE)
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")

BUILD_MAX_TOKENS = 768


def build_prompt(prompt_file: str | None = None) -> str:
    """The builder's prompt (packaged, or the user's file), checked for its placeholders.

    Raises:
        DataError: A placeholder missing or unknown, or literal braces not doubled.
    """
    return read_template(
        PROMPTS, "build_questions.txt", prompt_file, {"count", "categories", "paper"}
    )


def question_schema() -> ResponseSchema:
    """The JSON shape asked of the generator (enforced where the provider supports it).

    inspect's JSONSchema has no `maxItems`, so the question count is capped when parsing.
    """
    return ResponseSchema(
        name="exam_questions",
        json_schema=JSONSchema(
            type="object",
            properties={
                "category": JSONSchema(type="string", enum=[*DAHL_CATEGORIES, OTHER]),
                "questions": JSONSchema(
                    type="array",
                    items=JSONSchema(type="string", maxLength=400),
                ),
            },
            required=["category", "questions"],
        ),
    )


_LEADING_NUMBER = re.compile(r"^\s*(?:\d+[.)]|q\d+[:.)])\s*", re.IGNORECASE)
_QUESTIONS_ARRAY = re.compile(r'"questions"\s*:\s*\[(.*)', re.DOTALL)
_JSON_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_PLACEHOLDER = re.compile(r"^<[^<>]*>$")  # the prompt's "<question>" echoed back
_JSON_CATEGORY = re.compile(r'"category"\s*:\s*"([^"]*)"')


@dataclass(frozen=True)
class ParsedQuestions:
    """The generator's reply read back: the raw category and the questions."""

    category: str | None
    questions: list[str]


def _clean_questions(items: list[object]) -> list[str]:
    # Every item is kept here: which are questions is the checks' call, and is counted.
    questions = [_LEADING_NUMBER.sub("", q).strip() for q in items if isinstance(q, str)]
    return list(dict.fromkeys(q for q in questions if q and not _PLACEHOLDER.match(q)))


def _parse_json(text: str) -> ParsedQuestions | None:
    body = _FENCE.sub("", text.strip())
    try:
        value = json.loads(body)
    except json.JSONDecodeError:
        # A reply cut off by the token limit: keep the array items that were completed.
        array = _QUESTIONS_ARRAY.search(body)
        if array is None:
            return None
        items: list[object] = [json.loads(f'"{m}"') for m in _JSON_STRING.findall(array.group(1))]
        category = _JSON_CATEGORY.search(body)
        return ParsedQuestions(category.group(1) if category else None, _clean_questions(items))
    if not isinstance(value, dict) or not isinstance(value.get("questions"), list):
        return None
    category = value.get("category")
    return ParsedQuestions(
        category if isinstance(category, str) else None, _clean_questions(value["questions"])
    )


def parse_generator_output(text: str) -> ParsedQuestions:
    """Read the generator's reply: the JSON asked for, else a `CATEGORY:` line and numbered
    items. Every item is returned; the checks (`check_question`) decide which are questions."""
    parsed = _parse_json(text)
    if parsed is not None:
        return parsed
    category_match = _CATEGORY.search(text)
    category = category_match.group(1).strip().strip(".") if category_match else None
    body = re.split(
        r"^\s*\**questions\**\s*:\s*\**\s*$", text, maxsplit=1, flags=re.IGNORECASE | re.MULTILINE
    )
    lines = (body[1] if len(body) == 2 else text).splitlines()
    questions = []
    for line in lines:
        match = _NUMBERED.match(line)
        question = match.group(1).replace("**", "").strip() if match else ""
        if question:
            questions.append(question)
    return ParsedQuestions(category, list(dict.fromkeys(questions)))


def normalise_category(raw: str | None) -> str:
    """One of DAHL's category names, else `other`."""
    if not raw:
        return OTHER
    name = re.sub(r"\s+", " ", raw.strip().lower().replace("&", "and"))
    return name if name in DAHL_CATEGORIES else OTHER


@dataclass
class DahlBuildSummary(ResumedCounts):
    """What a build did, for the command's report (papers built now and already done:
    `ResumedCounts`)."""

    papers: int = 0
    unparseable: int = 0
    kept: int = 0
    dropped: int = 0
    dropped_by_rule: Counter[str] = field(default_factory=Counter)
    flagged: int = 0
    flagged_by_rule: Counter[str] = field(default_factory=Counter)
    categories: Counter[str] = field(default_factory=Counter)
    out: str = ""
    protocol: BuildProtocol = "ours"
    generator: str = ""
    unreadable: list[str] = field(default_factory=list)

    def summary(self) -> list[str]:
        """What the build produced, as lines."""
        out = Path(self.out)
        left_out = (
            [f"Left out (not UTF-8 text): {len(self.unreadable)} ({', '.join(self.unreadable[:5])}"
             f"{', ...' if len(self.unreadable) > 5 else ''})"]
            if self.unreadable
            else []
        )  # fmt: skip
        lines = left_out + [
            f"Papers: {self.papers} ({self.skipped_done} already done, {self.processed_now} now; "
            f"{self.unparseable} with unparseable output, see {out / PROGRESS_FILE})",
            f"Questions kept: {self.kept} -> {out / QUESTIONS_FILE}",
        ]
        if self.protocol == "paper":
            rules = _by_rule(self.flagged_by_rule)
            lines.append(
                f"Questions flagged for your review: {self.flagged} ({rules}) -> "
                f"{out / REVIEW_FILE}; the authors filtered their questions by hand: none is "
                "dropped under --protocol paper"
            )
            if self.generator and AUTHORS_GENERATOR not in self.generator:
                lines.append(
                    f"The authors' generator was {AUTHORS_GENERATOR}; this build used {self.generator}"
                )
        else:
            rules = _by_rule(self.dropped_by_rule)
            lines.append(f"Questions dropped: {self.dropped} ({rules}) -> {out / DROPPED_FILE}")
        return lines + [
            "Categories: " + ", ".join(f"{c}: {n}" for c, n in self.categories.most_common())
        ]


def _by_rule(counts: Counter[str]) -> str:
    return ", ".join(f"{r}: {n}" for r, n in sorted(counts.items())) or "none"


def generator_prompter(request: DahlBuild) -> Callable[[Paper], str]:
    """The generator's prompt for a paper under this build (its prompt file read once)."""
    template = build_prompt(request.prompt)
    categories = ", ".join(DAHL_CATEGORIES)
    return lambda paper: template.format(
        count=request.questions, categories=categories, paper=paper.text[: request.max_paper_chars]
    )


async def run_dahl_build(request: DahlBuild, models: RoleModels) -> DahlBuildSummary:
    """`medhalbench build dahl`: the build with the command's generator."""
    return await build_dahl_questions(request, models.model("generator"))


async def _build_one(
    paper: Paper,
    generator: Model,
    prompt: str,
    config: GenerateConfig,
    count: int,
    protocol: BuildProtocol,
    cases: bool,
) -> dict[str, Any]:
    output = await generator.generate(prompt, config=config)
    parsed = parse_generator_output(output.completion)
    kept: list[str] = []
    dropped: list[dict[str, str]] = []
    flagged: list[dict[str, str]] = []
    for question in parsed.questions[:count]:
        match = check_question(question, protocol, cases=cases)
        if match is None or protocol == "paper":
            kept.append(question)
        if match is not None:
            found = {"question": question, "rule": match.rule, "matched": match.matched}
            (flagged if protocol == "paper" else dropped).append(found)
    return {
        "paper_id": paper.id,
        "title": paper.title,
        "status": "ok" if parsed.questions else "unparseable",
        "category": normalise_category(parsed.category),
        "raw_category": parsed.category,
        "questions": kept,
        "dropped": dropped,
        "flagged": flagged,
        "protocol": protocol,
        "generator": str(generator),
        "raw_output": output.completion,
        "error": output.error,
    }


def write_outputs(records: list[dict[str, Any]], out_dir: Path) -> None:
    """Rewrite the CSVs from the finished records (paper order of the progress file):
    `questions.csv`, `dropped.csv` (ours) and `review.csv` (what the paper's families flag)."""
    columns = ["question", "category", "paper_id"]
    papers = [(r, {"category": r["category"], "paper_id": r["paper_id"]}) for r in records]
    questions = ({"question": q, **paper} for r, paper in papers for q in r["questions"])
    write_csv(out_dir / QUESTIONS_FILE, columns, questions)
    for name, key in ((DROPPED_FILE, "dropped"), (REVIEW_FILE, "flagged")):
        matches = ({**match, **paper} for r, paper in papers for match in r.get(key, []))
        write_csv(out_dir / name, [*columns, "rule", "matched"], matches)


async def build_dahl_questions(
    request: DahlBuild, generator: Model, *, show_progress: bool = True
) -> DahlBuildSummary:
    """Write exam questions from papers, dropping those that need the paper's context
    (papers that are not UTF-8 text are left out and counted).

    Each finished paper is recorded in `papers.jsonl` at once, so an interrupted build
    resumes where it stopped; `questions.csv` (`question, category, paper_id`) and
    `dropped.csv` (with the rule that dropped each question) are rewritten at the end.

    Args:
        request: The build's settings (`medhalbench build dahl`'s options).
        generator: The `generator` model (its own connection limit applies besides the
            request's concurrency).
        show_progress: Show a progress bar.
    """
    unreadable: list[str] = []
    papers = load_papers(request.papers, limit=request.limit, unreadable=unreadable)
    out = Path(request.out)
    prompter = generator_prompter(request)
    done = ResumableJsonl(out / PROGRESS_FILE, key="paper_id")
    summary = DahlBuildSummary(
        papers=len(papers), out=str(request.out), protocol=request.protocol,
        generator=str(generator), unreadable=unreadable,
    )  # fmt: skip
    config = GenerateConfig(
        temperature=request.temperature,
        top_p=0.95,
        seed=request.seed,
        max_tokens=BUILD_MAX_TOKENS,
        cache=request.cache,
        response_schema=question_schema(),
    )
    count, cases = request.questions, bool(request.cases)

    async def build(paper: Paper) -> dict[str, Any]:
        prompt = prompter(paper)
        return await _build_one(paper, generator, prompt, config, count, request.protocol, cases)

    with progress_bar(disable=not show_progress) as progress:
        run = await run_resumable(
            papers, build, key=lambda p: p.id, done=done, progress=progress,
            description="DAHL questions", concurrency=request.concurrency,
        )  # fmt: skip
    summary.count(run)
    wanted = {p.id for p in papers}
    records = [r for r in done.records() if r["paper_id"] in wanted]
    write_outputs(records, out)
    for r in records:
        summary.unparseable += r["status"] == "unparseable"
        summary.kept += len(r["questions"])
        summary.dropped += len(r["dropped"])
        summary.dropped_by_rule.update(d["rule"] for d in r["dropped"])
        summary.flagged += len(r.get("flagged", []))
        summary.flagged_by_rule.update(d["rule"] for d in r.get("flagged", []))
        summary.categories[r["category"]] += 1
    return summary
