"""Reading which of two numbered answers a discriminator picks (the builder's difficulty vote)."""

from __future__ import annotations

import re

from medhalbench.judging import offers_alternatives


def parse_choice(reply: str, options: int = 2) -> int | None:
    """Read which numbered option (1..options) a reply picks; None when absent or ambiguous.

    A leading number ("2", "Answer 2", "Answer: 1.") wins; otherwise exactly one option
    number must be mentioned ("Answer 1 is more accurate").
    """
    text = reply.strip().lower().replace("**", "")
    numbers = "|".join(str(i) for i in range(1, options + 1))
    lead = re.match(
        rf"^[\s*\"'`(\[]*(?:(?:answer|option|choice)\s*[:#=\-]?\s*)?({numbers})(?!\d)(?!\.\d)", text
    )
    if lead and not offers_alternatives(text[lead.end() :], numbers):
        return int(lead.group(1))
    found = {int(m) for m in re.findall(rf"(?<![\w.])({numbers})(?![\w])(?!\.\d)", text)}
    return found.pop() if len(found) == 1 else None
