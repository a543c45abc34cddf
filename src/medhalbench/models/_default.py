"""The default model used wherever a command needs one and none is named."""

from __future__ import annotations

from collections.abc import Iterable

EMBEDDED_PROVIDER = "embedded/"


def is_embedded(name: str) -> bool:
    """Whether an inspect model name names an embedded (in-process GGUF) model."""
    return name.startswith(EMBEDDED_PROVIDER)


def embedded_may_judge(involved: Iterable[str]) -> bool:
    """The judge rule, in one place: a judge role nobody named gets the embedded model only
    when no real model is involved (every model under test, or every model named, is
    embedded; inspect's `none/none` calls nothing); a real model, or outputs a real system
    wrote (`system/NAME`), is never judged by the embedded model without being asked."""
    return all(is_embedded(name) or name == "none/none" for name in involved)
