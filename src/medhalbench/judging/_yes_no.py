"""Parsing yes/no answers."""

from __future__ import annotations

import re

from medhalbench.judging._text import offers_alternatives

_YES_NO_LEAD = re.compile(
    r"^[\s*\"'`(\[]*(?:(?:answer|verdict)\s*[:=\-]?\s*)?[\s*\"'`(\[]*(yes|no)\b"
)
_YES = re.compile(r"\byes\b")
_NO = re.compile(r"\bno\b")


def parse_yes_no(reply: str) -> bool | None:
    """Read a yes/no reply: a leading yes/no wins, else exactly one kind must occur; None otherwise."""
    text = reply.strip().lower().replace("**", "")
    lead = _YES_NO_LEAD.match(text)
    if lead and not offers_alternatives(text[lead.end() :], "yes|no"):
        return lead.group(1) == "yes"
    has_yes, has_no = bool(_YES.search(text)), bool(_NO.search(text))
    if has_yes != has_no:
        return has_yes
    return None
