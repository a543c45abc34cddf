"""NLI judged by any inspect model through a yes/no prompt."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from inspect_ai.model import GenerateConfig, Model, get_model

from medhalbench._prompts import read_template
from medhalbench.judging import parse_yes_no

LLM_NLI_MAX_TOKENS = 8


def _template(prompt: str | None) -> str:
    return read_template(
        "medhalbench.nli", "entailment_user.txt", prompt, {"premise", "hypothesis"}
    )


def nli_prompt(premise: str, hypothesis: str, prompt: str | None = None) -> str:
    """The LLM judge's prompt for one pair (`prompt`: a file replacing the packaged one)."""
    return _template(prompt).format(premise=premise, hypothesis=hypothesis)


class LLMNLI:
    """Entailment judged by a language model: yes is 1.0, no is 0.0, anything else None.

    The model gives a verdict, not a calibrated probability, so bidirectional entailment
    against a threshold amounts to "both directions judged entailed".

    Args:
        model: An inspect model or model name (the offline default is the embedded model).
        prompt: File replacing the prompt (`{premise}`, `{hypothesis}`).
        cache: Cache the calls.
    """

    def __init__(
        self, model: str | Model, *, prompt: str | None = None, cache: bool = True
    ) -> None:
        self.model = get_model(model) if isinstance(model, str) else model
        self.name = f"llm:{self.model}"
        self.template = _template(prompt)
        self.config = GenerateConfig(temperature=0.0, max_tokens=LLM_NLI_MAX_TOKENS, cache=cache)
        self.unreadable = 0

    async def _one(self, premise: str, hypothesis: str) -> float | None:
        output = await self.model.generate(
            self.template.format(premise=premise, hypothesis=hypothesis), config=self.config
        )
        verdict = parse_yes_no(output.completion)
        if verdict is None:
            self.unreadable += 1
            return None
        return 1.0 if verdict else 0.0

    async def entailment_batch(self, pairs: Sequence[tuple[str, str]]) -> list[float | None]:
        """Judge the pairs concurrently."""
        return list(await asyncio.gather(*(self._one(p, h) for p, h in pairs)))
