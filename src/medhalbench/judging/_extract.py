"""The extractor: a model that reads the replies a strict reader cannot, asked for a
constrained JSON answer. Off unless the `extractor` role names a model; what it reads is
counted apart, and every figure is also given without it."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TypeVar

from inspect_ai.model import CachePolicy, GenerateConfig, ResponseSchema, get_model, model_roles
from inspect_ai.model._generate_config import active_generate_config
from inspect_ai.util import JSONSchema

from medhalbench._prompts import read_template

EXTRACTOR_ROLE = "extractor"
NO_VERDICT = "none"
EXTRACTOR_MAX_TOKENS = 32
T = TypeVar("T")


def extractor_named() -> bool:
    """Whether the running task has an extractor model."""
    return EXTRACTOR_ROLE in model_roles()


def extractor_template(override: str | None = None) -> str:
    """The extractor's prompt template (packaged, or the user's file)."""
    return read_template(
        __package__, "extract_user.txt", override, {"question", "choices", "reply"}
    )


async def extract_verdict(
    reply: str,
    choices: Mapping[str, str],
    *,
    question: str,
    template: str,
    cache: bool | CachePolicy | None = None,
) -> str | None:
    """The verdict the extractor reads in a reply, or None (no extractor, or it reads none).

    Args:
        reply: The reply the strict reader could not read.
        choices: Each allowed verdict and what it means (`{"1": "hallucinated", ...}`).
        question: What the model was asked, in a line.
        template: The extractor's prompt template.
        cache: Cache the extractor's calls (None: as the run caches, `--cache/--no-cache`:
            inspect's effective config).
    """
    if not extractor_named() or not reply.strip():
        return None
    allowed = [*choices, NO_VERDICT]
    schema = ResponseSchema(
        name="extracted_verdict",
        json_schema=JSONSchema(
            type="object",
            properties={"verdict": JSONSchema(type="string", enum=allowed)},
            required=["verdict"],
        ),
        strict=True,
    )
    if cache is None:
        cache = active_generate_config().cache
    listed = "\n".join(f'- "{key}": {meaning}' for key, meaning in choices.items())
    output = await get_model(role=EXTRACTOR_ROLE).generate(
        template.format(question=question, choices=listed, reply=reply),
        config=GenerateConfig(
            temperature=0.0, max_tokens=EXTRACTOR_MAX_TOKENS, response_schema=schema, cache=cache
        ),
    )
    try:
        verdict = json.loads(output.completion.strip().removeprefix("```json").strip("`\n "))
    except ValueError:
        return None
    value = str(verdict.get("verdict", "")).strip().lower() if isinstance(verdict, dict) else ""
    by_lower = {key.lower(): key for key in choices}
    return by_lower.get(value)


async def read_then_extract(
    strict: T | None, reply: str, choices: Mapping[str, str], *, question: str, template: str,
    verdict: Callable[[str], T],
) -> tuple[T | None, str | None]:  # fmt: skip
    """A reply's verdict and who read it: the strict reader's verdict (`strict`; None where
    it read none), else the extractor's where `template` is its prompt (`extractor`: the
    `choices` it may read, each with its meaning, `verdict` turning the one read into a
    verdict), else None (no one)."""
    if strict is not None or not template:
        return strict, "strict" if strict is not None else None
    found = await extract_verdict(reply, choices, question=question, template=template)
    return (None, None) if found is None else (verdict(found), "extractor")
