"""The extractor: a model that reads the replies a strict reader cannot, asked for a
constrained JSON answer. Off unless the `extractor` role names a model; what it reads is
counted apart, and every figure is also given without it."""

from __future__ import annotations

import json
from collections.abc import Mapping

from inspect_ai.model import CachePolicy, GenerateConfig, ResponseSchema, get_model, model_roles
from inspect_ai.model._generate_config import active_generate_config
from inspect_ai.util import JSONSchema

from medhalbench._prompts import check_placeholders, read_prompt

EXTRACTOR_ROLE = "extractor"
NO_VERDICT = "none"
EXTRACTOR_MAX_TOKENS = 32


def extractor_named() -> bool:
    """Whether the running task has an extractor model."""
    return EXTRACTOR_ROLE in model_roles()


def extractor_template(override: str | None = None) -> str:
    """The extractor's prompt template (packaged, or the user's file)."""
    template = read_prompt(__package__, "extract_user.txt", override)
    check_placeholders(
        template, {"question", "choices", "reply"}, source=override or "extract prompt"
    )
    return template


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
