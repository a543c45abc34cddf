"""DAHL's paper column on the authors' settings (seemdog/DAHL `evaluate/`): no token limit for
the splitter and the checker, no checker temperature, the splitter's system message, their
prompts from files (`--paper-prompts DIR`), an answer that repeats its instruction cleaned as
their `str.replace` does, and an empty answer (or one pandas reads as missing) split as the
text "nan", as their CSV round trip makes it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, ModelUsage, get_model

from medhalbench import DataError
from medhalbench._paths import shown_path
from medhalbench._prompts import read_prompt
from medhalbench.dahl import dahl
from medhalbench.dahl._paper import (
    PAPER_SYSTEM,
    csv_cell,
    paper_clean,
    paper_units,
    read_paper_prompts,
)
from medhalbench.dahl._scorer import CHECKER_MAX_TOKENS, SPLITTER_MAX_TOKENS
from medhalbench.results import prompt_files, run_record

# Stand-ins for the authors' prompts, in their form (their text is theirs to give).
THEIR_INSTRUCTION = "An examination question will be given. Answer it truthfully."
THEIR_SPLIT = "Split into one-fact sentences, one per line.\nTEXT: {text}\nSEPARATED SENTENCES:"
THEIR_CHECK = "Is this true or false? Answer in one word.\n{statement}"
QUESTIONS = {
    "What does aspirin inhibit?": f"{THEIR_INSTRUCTION}\n What does aspirin inhibit?\n"
    "Aspirin inhibits COX-1. Aspirin inhibits COX-1.",
    "What is metformin?": "",
    "What is warfarin?": "None",
    "What is heparin?": f"{THEIR_INSTRUCTION} What is heparin?",
    # Blanks as given: pandas reads neither as missing; their cleaning strips both after.
    "What is insulin?": " \n ",
    "What is digoxin?": " None",
}


def test_their_cleaning_and_units_as_their_csv_round_trip_makes_them() -> None:
    assert [csv_cell(t) for t in ("", "None", "NA", "nan", "null", " ", "none", "ok")] == [
        None, None, None, None, None, " ", "none", "ok",
    ]  # fmt: skip
    assert paper_clean("", "Q?", "I.") == "nan"
    assert (
        paper_clean("I. Q? Aspirin inhibits COX-1. Q?", "Q?", "I.\n") == "Aspirin inhibits COX-1."
    )
    assert paper_clean("I. Q?", "Q?", "I.") == ""  # empty after cleaning: still split
    assert paper_units("") == [] and paper_units("NA") == []
    assert paper_units("A.\n\n- B.\n") == ["A.", "", "- B.", ""]


def test_a_folder_of_their_prompts_is_checked(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="holds none of the authors' prompt files"):
        read_paper_prompts(tmp_path)
    (tmp_path / "split_user.txt").write_text("Split this.")  # no {text}
    with pytest.raises(DataError, match="split_user.txt"):
        read_paper_prompts(tmp_path)
    (tmp_path / "split_user.txt").write_text(THEIR_SPLIT)
    assert read_paper_prompts(tmp_path) == {"split_user.txt": THEIR_SPLIT}


class Recorder:
    """A model playing splitter and checker that records each call's prompt and settings."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, GenerateConfig]] = []

    def __call__(
        self, messages: list[ChatMessage], tools: object, choice: object, config: GenerateConfig
    ) -> ModelOutput:
        system = messages[0].text if len(messages) > 1 else ""
        user = messages[-1].text
        self.calls.append((system, user, config))
        if "TEXT:" in user:
            text = user.rsplit("TEXT:", 1)[1].rsplit("SENTENCES:", 1)[0].strip()
            text = text.removesuffix("SEPARATED").strip()  # their prompt's "SEPARATED SENTENCES:"
            reply = "\n".join(s.strip() + "." for s in text.split(".") if s.strip()) or "No text."
        else:
            reply = "True" if "COX-1" in user else "False"
        output = ModelOutput.from_content(model="mockllm", content=reply)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output


def test_the_paper_column_calls_the_judges_on_their_settings_and_prompts(tmp_path: Path) -> None:
    prompts = tmp_path / "theirs"
    prompts.mkdir()
    (prompts / "answer_instruction.txt").write_text(THEIR_INSTRUCTION + "\n")
    (prompts / "split_system.txt").write_text(PAPER_SYSTEM)
    (prompts / "split_user.txt").write_text(THEIR_SPLIT)
    (prompts / "check_system.txt").write_text("Be precise and concise.")
    (prompts / "check_user.txt").write_text(THEIR_CHECK)
    responses = tmp_path / "responses.jsonl"
    responses.write_text(
        "".join(json.dumps({"question": q, "response": a}) + "\n" for q, a in QUESTIONS.items())
    )
    recorder = Recorder()
    model = get_model("mockllm/model", custom_outputs=recorder)
    [log] = inspect_eval(
        dahl(dataset="github", responses=str(responses), paper_prompts=str(prompts), cache=False),
        model=model, model_roles={"splitter": model, "checker": model},
        log_dir=str(tmp_path / "logs"), display="none",
    )  # fmt: skip
    assert log.status == "success", log.error
    paper_splits = [c for c in recorder.calls if c[1].startswith("Split into one-fact")]
    paper_checks = [c for c in recorder.calls if c[1].startswith("Is this true or false?")]
    ours = [c for c in recorder.calls if c not in paper_splits and c not in paper_checks]
    # Their settings: no token limit for either, no checker temperature, splitter at 0.
    assert paper_splits and all(
        s == PAPER_SYSTEM and c.max_tokens is None and c.temperature == 0.0
        for s, _, c in paper_splits
    )
    assert paper_checks and all(
        s == "Be precise and concise." and c.max_tokens is None and c.temperature is None
        for s, _, c in paper_checks
    )
    our_checks = [c for _, u, c in ours if "Statement:" in u]
    assert our_checks and all(c.max_tokens == CHECKER_MAX_TOKENS for c in our_checks)
    our_splits = [c for s, u, c in ours if not s and "TEXT:" in u]
    assert our_splits and all(c.max_tokens == SPLITTER_MAX_TOKENS for c in our_splits)
    # Every answer was split the authors' way, the empty ones too.
    texts = sorted(
        u.split("TEXT:", 1)[1].split("\nSEPARATED", 1)[0].strip() for _, u, _ in paper_splits
    )
    assert texts == sorted(
        ["", "", "Aspirin inhibits COX-1. Aspirin inhibits COX-1.", "nan", "nan", "None"]
    )
    scores: dict[str, Any] = {
        s.metadata["question"]: next(iter(s.scores.values())).metadata  # type: ignore[union-attr]
        for s in log.samples or []
    }
    aspirin = scores["What does aspirin inhibit?"]
    assert aspirin["paper_cleaned_response"] == "Aspirin inhibits COX-1. Aspirin inhibits COX-1."
    assert aspirin["paper_units"] == ["Aspirin inhibits COX-1.", "Aspirin inhibits COX-1."]
    assert aspirin["paper"]["good"] and aspirin["paper"]["score"] == 1.0
    assert aspirin["paper_prompts"] == sorted(p.name for p in prompts.iterdir())
    assert scores["What is metformin?"]["paper_cleaned_response"] == "nan"
    assert scores["What is warfarin?"]["paper_cleaned_response"] == "nan"
    assert scores["What is insulin?"]["paper_cleaned_response"] == ""
    assert scores["What is digoxin?"]["paper_cleaned_response"] == "None"
    heparin = scores["What is heparin?"]
    assert heparin["paper_cleaned_response"] == "" and heparin["paper_units"] == ["No text."]
    # The run's header names their prompts (a path as the report shows paths).
    assert prompt_files(run_record(log)) == shown_path(str(prompts))
    # Ours removes their instruction too, when it is given.
    assert aspirin["removed_instruction"] and heparin["removed_instruction"]
    # Ours leaves the empty answer out; theirs scores what the splitter made of nothing.
    assert scores["What is metformin?"]["status"] == "no_units"
    assert scores["What is metformin?"]["paper"]["units"] == 1


def test_the_paper_column_removes_only_their_instruction_and_ours_the_one_given(
    tmp_path: Path,
) -> None:
    """Their script removes its own instruction (`previous_prompt`), which an answer to our
    instruction does not hold; ours removes the instruction the model was given."""
    ours = read_prompt("medhalbench.dahl", "answer_system.txt")
    echo = " ".join(ours.split())  # a model re-flows the prompt file's lines
    responses = tmp_path / "responses.jsonl"
    responses.write_text(
        json.dumps(
            {
                "question": "What does aspirin inhibit?",
                "response": f"{echo} Aspirin inhibits COX-1.",
            }
        )
        + "\n"
    )
    model = get_model("mockllm/model", custom_outputs=Recorder())
    [log] = inspect_eval(
        dahl(dataset="github", responses=str(responses), cache=False),
        model=model, model_roles={"splitter": model, "checker": model},
        log_dir=str(tmp_path / "logs"), display="none",
    )  # fmt: skip
    assert log.status == "success", log.error
    [sample] = log.samples or []
    scored: Any = next(iter(sample.scores.values())).metadata  # type: ignore[union-attr]
    assert scored["removed_instruction"] and scored["cleaned_response"] == "Aspirin inhibits COX-1."
    assert scored["paper_cleaned_response"] == f"{echo} Aspirin inhibits COX-1."
