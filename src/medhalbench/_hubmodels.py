"""Loading transformers / sentence-transformers models by local path or hub name, failing
fast with a clear message when the hub is needed but cannot be reached."""

from __future__ import annotations

from pathlib import Path

from medhalbench._errors import ResourceUnavailableError
from medhalbench.data import hub_reachable


def local_or_hub(name_or_path: str, *, what: str) -> tuple[str, bool]:
    """Decide how to load a model.

    Returns:
        The name or path, and whether to load from local files only (a local folder, or a
        hub name while offline, which then must be in the local Hugging Face cache).
    """
    if Path(name_or_path).expanduser().exists():
        return str(Path(name_or_path).expanduser()), True
    return name_or_path, not hub_reachable()


def offline_error(name: str, what: str, ex: Exception) -> ResourceUnavailableError:
    """The error for a hub model that could not be loaded."""
    return ResourceUnavailableError(
        f"{what} '{name}' could not be loaded ({type(ex).__name__}: {ex}). "
        + (
            "The Hugging Face hub cannot be reached from this machine: pass a local path to "
            "the model's folder instead."
            if not hub_reachable()
            else "Check the name, or pass a local path to the model's folder."
        )
    )


def offline_unless_reachable() -> bool:
    """Put the hub libraries in offline mode when the hub cannot be reached, so that a model
    loaded by name (inspect's `hf/` provider, transformers, sentence-transformers) looks only
    in the local cache and fails at once, instead of after a minute of retried downloads.

    Returns:
        Whether the hub can be reached.
    """
    if hub_reachable():
        return True
    import huggingface_hub.constants

    # huggingface_hub reads this at every request (transformers asks it too): the variable
    # HF_HUB_OFFLINE is read only once, at import.
    huggingface_hub.constants.HF_HUB_OFFLINE = True
    return False
