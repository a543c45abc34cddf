"""The constructor of our inspect providers, written once: inspect builds a provider by name
with the same arguments whichever it is."""

from __future__ import annotations

from typing import Any

from inspect_ai.model import GenerateConfig, ModelAPI


class ProviderAPI(ModelAPI):
    """A provider inspect constructs by name (`@modelapi`): with the model's name, its base
    URL and key, the run's generate config, and each `-M NAME=VALUE` as a keyword, which
    `take_model_args` reads."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        **model_args: Any,
    ) -> None:
        config = config if config is not None else GenerateConfig()
        super().__init__(model_name=model_name, base_url=base_url, api_key=api_key, config=config)
        self.take_model_args(config, model_args)

    def take_model_args(self, config: GenerateConfig, model_args: dict[str, Any]) -> None:
        """Read the `-M` model args (by default none is read: a key given for the run is
        accepted and unused).

        Args:
            config: The run's generate config, the object inspect keeps: a provider may set
                what its args imply (its connection limit).
            model_args: The `-M` args by name.
        """
