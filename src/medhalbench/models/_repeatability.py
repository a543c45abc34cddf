"""What a run can promise about repeating its replies, per model: recorded in every log, so
that a reader knows whether the same command would give the same replies."""

from __future__ import annotations

from inspect_ai.model import Model

from medhalbench.models._engine import EngineSettings

SEEDLESS_PROVIDERS = frozenset({"anthropic", "google", "vertex", "bedrock"})
"""Providers whose APIs take no seed (inspect sends none to them)."""


def repeatability(model: Model, seed: int | None) -> str:
    """How far a model's replies repeat when the same command runs again."""
    # The embedded provider's class is wrapped by inspect's registry: known by its settings.
    settings = getattr(model.api, "settings", None)
    if isinstance(settings, EngineSettings):
        if settings.repeatable:
            used = seed if seed is not None else getattr(model.api, "default_seed", None)
            return (
                "exact: the same replies whatever runs beside them (single-sequence "
                f"engine replicas, seed {used})"
            )
        return "not exact: with n_threads above 1 a reply can change with the prompt cache"
    if seed is None:
        return "no seed sent: replies may differ between runs"
    if str(model).split("/")[0] in SEEDLESS_PROVIDERS:
        return "no seed accepted by the provider: replies may differ between runs"
    return f"seed {seed} sent; the provider does not promise identical replies"
