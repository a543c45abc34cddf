"""The authors' own DAHL pipeline, applied to the same answers with the same splitter and
checker models: their cleaning, units, prompts and settings, reading and score (seemdog/DAHL
`evaluate/`: `to_atomic_units.py`, `evaluate_with_pplai.py`, `score.py`), for the
paper-protocol column; each rule beside ours is in the DAHL README's table. Their prompts can
be given as files (`--paper-prompts DIR`, see `PAPER_PROMPT_FILES`); without them the paper
column uses our prompts with their settings."""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, GenerateConfig

from medhalbench._errors import DataError
from medhalbench._prompts import check_placeholders, read_prompt
from medhalbench.dahl._verdicts import PaperTruth

PAPER_PROMPT_FILES: dict[str, tuple[str, frozenset[str]]] = {
    "answer_instruction.txt": ("the answering instruction their cleaning removes", frozenset()),
    "split_system.txt": ("the splitter's system message", frozenset()),
    "split_user.txt": ("the splitter's prompt, with {text}", frozenset({"text"})),
    "check_system.txt": ("the checker's system message", frozenset()),
    "check_user.txt": ("the checker's prompt, with {statement}", frozenset({"statement"})),
}
"""The files `--paper-prompts DIR` may hold (each optional): what each is, and its
placeholders."""

PAPER_SYSTEM = "You are a helpful assistant."
"""The system message of their splitter (`to_atomic_units.py`) and of their OpenAI answering
script (`generate_response_gpt.py`): a setting of theirs, no prompt of substance (their
prompts themselves are supplied as files)."""
PAPER_SPLITTER_CONFIG = GenerateConfig(temperature=0.0)
"""`to_atomic_units.py`: `temperature=0` and no `max_tokens` (ours: 512)."""
PAPER_CHECKER_CONFIG = GenerateConfig()
"""`evaluate_with_pplai.py` sends neither temperature (the provider's default; ours: 0) nor
`max_tokens` (ours: 16, `--check-max-tokens`)."""


def read_paper_prompts(folder: str | Path | None) -> dict[str, str]:
    """The authors' prompts a folder holds, by file name (none without a folder).

    Raises:
        DataError: A folder holding none of `PAPER_PROMPT_FILES`, a file that is not a
            readable non-empty UTF-8 text, or a prompt without its placeholder.
    """
    if folder is None:
        return {}
    root = Path(folder)
    files = ", ".join(PAPER_PROMPT_FILES)
    # A file of no known name is refused, not left unread ("split_sytem.txt": a typo).
    for path in sorted(root.iterdir()) if root.is_dir() else ():
        if path.name not in PAPER_PROMPT_FILES and not path.name.startswith("."):
            raise DataError(
                f"{path.name} is none of the authors' prompt files ({files})", path=root
            )
    found = {}
    for name, (_, placeholders) in PAPER_PROMPT_FILES.items():
        path = root / name
        if path.exists():
            text = read_prompt(None, name, path)
            if placeholders:
                check_placeholders(text, set(placeholders), source=str(path))
            found[name] = text
    if not found:
        raise DataError(
            f"holds none of the authors' prompt files ({files})",
            path=root,
        )
    return found


@dataclass(frozen=True)
class PaperSettings:
    """How the paper column calls the splitter and the checker: the authors' settings, and
    their prompts where given (else ours).

    Attributes:
        instruction: The answering instruction their cleaning removes: their own
            (`answer_instruction.txt`), as their script removes only its own; empty when not
            given (an answer to another instruction holds none of theirs).
        split_system: The splitter's system message.
        split_template: The splitter's prompt (`{text}`).
        check_system: The checker's system message.
        check_template: The checker's prompt (`{statement}`; `{passages}` where grounded).
        supplied: The prompt files of theirs that were given.
    """

    instruction: str
    split_system: str
    split_template: str
    check_system: str
    check_template: str
    supplied: tuple[str, ...] = ()

    @classmethod
    def of(
        cls, prompts: Mapping[str, str], *, split: str, check_system: str, check: str
    ) -> PaperSettings:
        """Their prompts where given, ours (the run's) otherwise."""
        return cls(
            instruction=prompts.get("answer_instruction.txt", ""),
            split_system=prompts.get("split_system.txt", PAPER_SYSTEM),
            split_template=prompts.get("split_user.txt", split),
            check_system=prompts.get("check_system.txt", check_system),
            check_template=prompts.get("check_user.txt", check),
            supplied=tuple(sorted(prompts)),
        )

    def split_messages(self, text: str) -> list[ChatMessage]:
        """The splitter's messages for a cleaned answer (empty included, as theirs)."""
        return [
            ChatMessageSystem(content=self.split_system),
            ChatMessageUser(content=self.split_template.format(text=text)),
        ]

    def check_messages(self, unit: str, passages: str = "") -> list[ChatMessage]:
        """The checker's messages for one unit."""
        return [
            ChatMessageSystem(content=self.check_system),
            ChatMessageUser(content=self.check_template.format(statement=unit, passages=passages)),
        ]

    @staticmethod
    def split_config(cache: bool) -> GenerateConfig:
        """Their splitter call's settings."""
        return PAPER_SPLITTER_CONFIG.merge(GenerateConfig(cache=cache))

    @staticmethod
    def check_config(cache: bool) -> GenerateConfig:
        """Their checker call's settings."""
        return PAPER_CHECKER_CONFIG.merge(GenerateConfig(cache=cache))


def csv_cell(text: str) -> str | None:
    """A text as their scripts read it back from the CSV they wrote it to (pandas
    `to_csv`, then `read_csv`): None where pandas reads it as missing ("", "None", "NA",
    "nan", "null", "n/a", ...)."""
    import pandas as pd

    written = io.StringIO()
    # Beside another column, as in their CSV (alone, a blank cell would be a blank line).
    pd.DataFrame({"question": ["q"], "cell": [text]}).to_csv(written, index=False)
    written.seek(0)
    value = pd.read_csv(written, dtype=object)["cell"][0]
    return None if isinstance(value, float) and math.isnan(value) else str(value)


def paper_clean(response: str, question: str, instruction: str) -> str:
    """The answer as the authors cleaned it (`to_atomic_units.py`): read back from their
    CSV (`str(...)` of a missing cell is "nan"), instruction and question removed, stripped."""
    text = csv_cell(response)
    text = "nan" if text is None else text
    return text.replace(instruction.strip(), "").replace(question, "").strip()


def paper_units(splitter_reply: str) -> list[str]:
    """The units as the authors took them: every line, blank ones and list markers
    included; none where the reply is read back from their CSV as missing."""
    cell = csv_cell(splitter_reply)
    return cell.split("\n") if cell else []


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
