"""The authors' own DAHL pipeline, applied to the same answers with the same splitter and
checker: their cleaning, units, reading and score (seemdog/DAHL, `evaluate/`), for the
paper-protocol column.

- `to_atomic_units.py`: the answer with the answering instruction and the question removed
  (`str.replace`, then `strip`): no repeat removal, no dropped truncated sentence, declines
  kept; the splitter's reply split on newlines (`atomic.split("\\n")`): blank lines and list
  markers are units; an empty reply (read back from CSV as NaN) has none.
- `evaluate_with_pplai.py`: each unit checked; a reply is read by substring tests
  (`paper_truth_reading`); a response's score is true units over units (0 with none); it is
  "good" when every unit was read true or false.
- `score.py`: the DAHL score is the mean score of the good responses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from medhalbench.dahl._verdicts import PaperTruth


def paper_clean(response: str, question: str, instruction: str) -> str:
    """The answer as the authors cleaned it: instruction and question removed, stripped."""
    return response.replace(instruction.strip(), "").replace(question, "").strip()


def paper_units(splitter_reply: str) -> list[str]:
    """The units as the authors took them: every line, blank ones and list markers included."""
    return splitter_reply.split("\n") if splitter_reply else []


@dataclass(frozen=True)
class PaperResponse:
    """A response as the authors' scripts judge it.

    Attributes:
        units: Units (lines of the splitter's reply).
        true: Units read true.
        false: Units read false.
        bad: Units read neither (both words, or none).
        good: Every unit read true or false: the response counts in the score.
        score: True units over units (0 with no unit).
    """

    units: int
    true: int
    false: int
    bad: int
    good: bool
    score: float

    def as_metadata(self) -> dict[str, Any]:
        """The judgement as score metadata."""
        return asdict(self)


def paper_judge(verdicts: Sequence[PaperTruth]) -> PaperResponse:
    """A response's score and whether it is good, from its units' readings."""
    true = sum(v == "true" for v in verdicts)
    false = sum(v == "false" for v in verdicts)
    units = len(verdicts)
    return PaperResponse(
        units=units,
        true=true,
        false=false,
        bad=units - true - false,
        good=true + false == units,
        score=true / units if units else 0.0,
    )
