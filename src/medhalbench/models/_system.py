"""The `system/NAME` provider: names outputs written elsewhere (`--responses`), so that the
log, the tables and the report say which system wrote them; it never generates."""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ModelOutput, modelapi

from medhalbench._errors import MedhalbenchError
from medhalbench.models._provider import ProviderAPI

SYSTEM_PROVIDER = "system"
"""The provider of every `system/NAME` model."""


def writes_nothing(model: str) -> bool:
    """Whether a model name stands for outputs given, not generated (`system/NAME`, or
    inspect's `none/none`)."""
    return model == "none/none" or model.startswith(f"{SYSTEM_PROVIDER}/")


@modelapi(name=SYSTEM_PROVIDER)
class SystemModelAPI(ProviderAPI):
    """The system that wrote outputs given to a benchmark: a name, never called (`-M` args,
    such as a key given for the whole run, are accepted and unused)."""

    async def generate(self, *args: Any, **kwargs: Any) -> ModelOutput:  # never called
        raise MedhalbenchError(
            f"{SYSTEM_PROVIDER}/{self.model_name} names outputs written elsewhere "
            "(--responses); it cannot generate"
        )
