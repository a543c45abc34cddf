"""The `system/NAME` provider: names outputs written elsewhere (`--responses`), so that the
log, the tables and the report say which system wrote them; it never generates."""

from __future__ import annotations

from typing import Any

from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from medhalbench._errors import MedhalbenchError

SYSTEM_PROVIDER = "system"
"""The provider of every `system/NAME` model."""


def writes_nothing(model: str) -> bool:
    """Whether a model name stands for outputs given, not generated (`system/NAME`, or
    inspect's `none/none`)."""
    return model == "none/none" or model.startswith(f"{SYSTEM_PROVIDER}/")


@modelapi(name=SYSTEM_PROVIDER)
class SystemModelAPI(ModelAPI):
    """The system that wrote outputs given to a benchmark: a name, never called."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        **model_args: Any,
    ) -> None:
        super().__init__(
            model_name=model_name,
            base_url=base_url,
            api_key=api_key,
            config=config or GenerateConfig(),
        )

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        raise MedhalbenchError(
            f"{SYSTEM_PROVIDER}/{self.model_name} names outputs written elsewhere "
            "(--responses); it cannot generate"
        )
