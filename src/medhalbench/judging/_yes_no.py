"""Yes/no replies (an LLM's entailment judgement), read by the strict reader."""

from __future__ import annotations

from medhalbench.judging._reader import read_stance
from medhalbench.judging._reply import read_reply
from medhalbench.judging._schema import VerdictSchema

YES_NO_SCHEMA = VerdictSchema(yes="holds", alone=frozenset({"truth", "correctness"}))
"""A yes/no question ("Does the premise entail the hypothesis?"): yes holds."""


def parse_yes_no(reply: str) -> bool | None:
    """Read a yes/no reply: True for yes, False for no, None where the strict reader reads
    no single answer (`judging/README.md`)."""
    read = read_reply(reply, lambda text: read_stance(text, YES_NO_SCHEMA))
    return None if read.verdict not in ("holds", "fails") else read.verdict == "holds"
