"""DAHL end to end against a realistic model behind an OpenAI-compatible server, through the
`openai` SDK as installed and inspect's `openai/` provider (OPENAI_BASE_URL): the model
answers, the judges split and check in many families' styles, and the figures are those the
intended verdicts give; the paper column is the authors' pipeline on the same replies. A real
model under test without named judges is refused, never judged by the embedded model."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from inspect_ai.log import read_eval_log

import realistic_model as realistic
from authors_code import authors_dahl_score
from helpers import log_metrics, openai_served
from medhalbench.cli import cli
from medhalbench.examples import illustrative
from realistic_model import TRUTH_STYLES, RealisticModel

DATASET = illustrative("dahl_illustrative.csv")
ANSWERS = {
    "Explain how loop diuretics reduce fluid overload in heart failure.": [
        ("Loop diuretics inhibit the Na-K-2Cl cotransporter.", "true"),
        ("Loop diuretics act in the thick ascending limb of the loop of Henle.", "true"),
        ("Loop diuretics act mainly in the collecting duct.", "false"),
        ("Furosemide is a loop diuretic.", "true"),
    ],
    "What is the mechanism of action of metformin in type 2 diabetes?": [
        ("Metformin lowers hepatic glucose production.", "true"),
        ("Metformin activates AMP-activated protein kinase.", "true"),
        ("Metformin stimulates insulin release from beta cells.", "false"),
    ],
    "Describe how vaccines induce long-term immunological memory.": [
        ("Vaccines expose the immune system to antigens.", "true"),
        ("Memory B cells persist after vaccination.", "true"),
        ("Vaccines work by giving antibodies directly.", "false"),
        ("Some vaccines may need booster doses.", "unknown"),
    ],
    "What are the main risk factors for developing lung cancer?": [
        ("Tobacco smoking is the main risk factor for lung cancer.", "true"),
        ("Radon exposure raises the risk of lung cancer.", "true"),
        ("Asbestos exposure raises the risk of lung cancer.", "true"),
    ],
}


def realistic_model() -> RealisticModel:
    return RealisticModel(
        answers={q: [s for s, _ in facts] for q, facts in ANSWERS.items()},
        facts={s: truth for facts in ANSWERS.values() for s, truth in facts},
    )


def run_dahl(
    model: RealisticModel, log_dir: Path, monkeypatch: pytest.MonkeyPatch, *extra: str
) -> Result:
    """`eval dahl` through the openai SDK against the model on 127.0.0.1, judged by it too."""
    with openai_served(model, monkeypatch):
        result = CliRunner().invoke(
            cli,
            [
                "eval", "dahl", "--dataset", DATASET, "--model", "openai/gpt-4o",
                "--judge", "openai/gpt-4o-mini", "--log-dir", str(log_dir), "--bootstrap", "0",
                "--display", "none", "--no-cache", *extra,
            ],
        )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    return result


def test_dahl_through_the_openai_provider_with_named_judges(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = realistic_model()
    result = run_dahl(model, tmp_path, monkeypatch)
    assert "splitter openai/gpt-4o-mini" in result.stdout  # the table names every role
    [log] = [read_eval_log(str(p)) for p in tmp_path.glob("*.eval")]
    assert {k: v.model for k, v in (log.eval.model_roles or {}).items()} == {
        "splitter": "openai/gpt-4o-mini",
        "checker": "openai/gpt-4o-mini",
    }
    checks = {r.key: r for r in model.of("check")}
    assert len({r.style.kind for r in checks.values()}) >= 6
    precisions = []
    for facts in ANSWERS.values():
        read = [checks[s].intended if checks[s].style.readable else "unknown" for s, _ in facts]
        if all(v in ("true", "false") for v in read):
            precisions.append(read.count("true") / len(read))
    m = log_metrics(log)
    assert m["scored"] == len(precisions)
    assert m["dahl_score"] == pytest.approx(sum(precisions) / len(precisions))
    # The authors' score on the replies as the server sent them, reasoning blocks included, in
    # every layout: their units are the splitter's lines, each checked by the checker.
    splits = {r.key: r.text for r in model.of("split")}
    assert len(set(splits.values())) == len(ANSWERS)
    units = [splits[" ".join(s for s, _ in facts)] for facts in ANSWERS.values()]
    sent = [[checks[u.strip()].text for u in text.split("\n")] for text in units]
    assert any("<think>" in r for replies in sent for r in replies)
    theirs = authors_dahl_score(units, sent)
    assert m["paper_dahl_score"] == pytest.approx(theirs, nan_ok=True)
    samples = {s.metadata["question"]: s.scores["dahl_factuality"].metadata for s in log.samples}
    assert {samples[q]["paper_text"] for q in ANSWERS} == {"as sent"}


def test_a_real_model_without_named_judges_is_refused_in_one_line(tmp_path: Path) -> None:
    for extra in ([], ["--dry-run"], ["--splitter", "openai/gpt-4o-mini"]):
        result = CliRunner(env={"OPENAI_API_KEY": "sk-x"}).invoke(
            cli, ["eval", "dahl", "--dataset", DATASET, "--model", "openai/gpt-4o", *extra]
        )
        assert result.exit_code == 2, result.stdout
        [line] = result.stderr.strip().splitlines()
        assert "--checker MODEL" in line and "--judge MODEL" in line and "Traceback" not in line
        assert ("--splitter MODEL" in line) == ("--splitter" not in extra)
    # The embedded model judges the embedded model without being named.
    planned = CliRunner().invoke(cli, ["eval", "dahl", "--dataset", DATASET, "--dry-run"])
    assert planned.exit_code == 0 and "embedded/smollm2" in planned.stdout


def test_every_checker_style_is_read_as_a_careful_reader_reads_it() -> None:
    from medhalbench.dahl import read_truth_verdict

    for style in TRUTH_STYLES:
        for verdict in ("true", "false", "unknown"):
            read = read_truth_verdict(style.write(verdict)).verdict
            assert read == (verdict if style.readable else None), (style.kind, verdict, read)


def test_the_paper_column_reads_a_reasoning_block_as_the_server_sent_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Their checker script read the reply as the server sent it: a `<think>` block that
    names both "true" and "false" makes every unit bad, so no response is good and their
    score is undefined (pandas' mean of no row), where the completion alone reads."""
    [reasoning] = [s for s in TRUTH_STYLES if s.kind == "reasoning"]
    monkeypatch.setattr(realistic, "TRUTH_STYLES", [reasoning])
    # Splits without a block of their own: which question gets which split layout follows
    # the order the calls arrive in, and a block's lines are units of the authors' split.
    monkeypatch.setattr(realistic, "SPLIT_LAYOUTS", realistic.SPLIT_LAYOUTS[:1])
    model = realistic_model()
    run_dahl(model, tmp_path, monkeypatch)
    [log] = [read_eval_log(str(p)) for p in tmp_path.glob("*.eval")]
    checks = {r.key: r for r in model.of("check")}
    samples = {s.metadata["question"]: s.scores["dahl_factuality"].metadata for s in log.samples}
    units = ["\n".join(samples[q]["paper_units"]) for q in ANSWERS]
    sent = [[checks[u].text for u in samples[q]["paper_units"]] for q in ANSWERS]
    assert all(r.startswith("<think>") for replies in sent for r in replies)
    assert [samples[q]["paper_checker_replies"] for q in ANSWERS] == sent
    completions = [[r.split("</think>", 1)[1].strip() for r in replies] for replies in sent]
    assert not math.isnan(authors_dahl_score(units, completions))  # the block decides it
    assert math.isnan(authors_dahl_score(units, sent))
    m = log_metrics(log)
    assert math.isnan(m["paper_dahl_score"])
    assert m["dahl_score"] > 0  # ours reads the verdict after the block


ANSWER_LAYOUTS = [
    lambda a: f"<think>\nRecall the physiology.\n</think>\n\n{a}",
    lambda a: f"<think>Recall it.</think>\n{a}",
    lambda a: f"{a}\n<think>\nChecked.\n</think>",
    lambda a: f"  {a}\n",
]


def test_answers_given_in_every_reasoning_layout_score_as_the_authors_pipeline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Answers written elsewhere (`--responses`), reasoning blocks in each layout: the paper
    column splits and checks each answer as given, and reads the splitter's and the
    checker's replies as the server sent them, as the authors' pipeline does."""
    model = realistic_model()
    given = {
        q: layout(" ".join(s for s, _ in facts))
        for (q, facts), layout in zip(ANSWERS.items(), ANSWER_LAYOUTS, strict=True)
    }
    responses = tmp_path / "answers.jsonl"
    responses.write_text(
        "".join(json.dumps({"question": q, "response": r}) + "\n" for q, r in given.items())
    )
    with openai_served(model, monkeypatch):
        result = CliRunner().invoke(
            cli,
            ["eval", "dahl", "--dataset", DATASET, "--responses", str(responses),
             "--system", "scribe", "--judge", "openai/gpt-4o-mini", "--log-dir",
             str(tmp_path / "logs"), "--bootstrap", "0", "--display", "none", "--no-cache"],
        )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    [log] = [read_eval_log(str(p)) for p in (tmp_path / "logs").glob("*.eval")]
    checks = {r.key: r for r in model.of("check")}
    splits = {r.key: r.text for r in model.of("split")}
    # Their cleaning strips the answer (no instruction of theirs given, no question in it).
    units = [splits[given[q].strip()] for q in ANSWERS]
    assert any("<think>" in u for u in units)
    sent = [[checks[u.strip()].text for u in text.split("\n")] for text in units]
    theirs = authors_dahl_score(units, sent)
    m = log_metrics(log)
    assert m["paper_dahl_score"] == pytest.approx(theirs, nan_ok=True)
    samples = [s.scores["dahl_factuality"].metadata for s in log.samples or []]
    assert {s["paper_text"] for s in samples} == {"as sent"}
    # Ours splits and checks the answer after its reasoning: every unit one of its facts.
    facts = {s for facts in ANSWERS.values() for s, _ in facts}
    assert all(set(s["units_text"]) <= facts for s in samples)
