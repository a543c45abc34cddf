"""The Python API: the docs' snippet runs on real logs and its frames hold what the logs
hold (figures with intervals, per-sample replies and verdicts, DAHL units)."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from inspect_ai.log import list_eval_logs, read_eval_log

import medhalbench
from medhalbench.cli import cli
from medhalbench.examples import illustrative
from medhalbench.results import log_metrics

PYTHON_API_PAGE = Path(__file__).parents[2] / "docs" / "python-api.md"


def readme_snippet() -> str:
    section = PYTHON_API_PAGE.read_text()
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match, "the docs' Python API page has no snippet"
    return match.group(1)


def eval_run(args: list[str]) -> None:
    result = CliRunner().invoke(cli, ["eval", *args])
    assert result.exit_code == 0, result.stderr


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A MedHallu and a MedHal run on outputs written elsewhere, and a DAHL run of given
    answers judged by the embedded model."""
    folder = tmp_path_factory.mktemp("api")
    rows = [json.loads(x) for x in Path(illustrative("medhallu_illustrative.jsonl")).open()]
    verdicts = folder / "verdicts.jsonl"
    verdicts.write_text(
        "".join(
            json.dumps({"id": f"{r['pubid']}-{kind}", "verdict": (i + len(kind)) % 2}) + "\n"
            for i, r in enumerate(rows)
            for kind in ("ground_truth", "hallucinated")
        )
    )
    medhal = [json.loads(x) for x in Path(illustrative("medhal_illustrative.jsonl")).open()]
    replies = folder / "replies.jsonl"
    replies.write_text(
        "".join(
            json.dumps({"id": r["id"], "reply": "Factual: NO" if i % 2 else "Factual: YES"}) + "\n"
            for i, r in enumerate(medhal)
        )
    )
    with open(illustrative("dahl_illustrative.csv"), newline="") as f:
        questions = [r["question"] for r in csv.DictReader(f)][:2]
    answers = folder / "answers.jsonl"
    answers.write_text(
        json.dumps({"question": questions[0], "response": "Metformin lowers hepatic glucose "
                    "output. It is a first-line drug for type 2 diabetes."}) + "\n"
        + json.dumps({"question": questions[1], "response": "Aspirin inhibits "
                      "cyclooxygenase irreversibly."}) + "\n"
    )  # fmt: skip
    out = str(folder / "logs")
    eval_run(["medhallu", "--dataset", illustrative("medhallu_illustrative.jsonl"),
              "--responses", str(verdicts), "--system", "acme", "--log-dir", out])  # fmt: skip
    eval_run(["medhal", "--dataset", illustrative("medhal_illustrative.jsonl"), "--responses", str(replies), "--embedder", "none", "--log-dir", out])  # fmt: skip
    eval_run(["dahl", "--dataset", illustrative("dahl_illustrative.csv"), "--responses",
              str(answers), "--judge", "embedded/smollm2", "--log-dir", out])  # fmt: skip
    return folder


def test_the_pages_later_snippets_run_on_a_log(logs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's other snippets (a run's settings, its figures) run as written, on a log of
    theirs."""
    monkeypatch.chdir(logs)
    [log] = (logs / "logs").glob("medhallu_*.eval")
    snippets = re.findall(r"```python\n(.*?)```", PYTHON_API_PAGE.read_text(), re.DOTALL)[1:]
    assert len(snippets) >= 2
    for snippet in snippets:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            code = snippet.replace("logs/medhallu_openai-gpt-4o-mini.eval", str(log))
            exec(code, {})  # noqa: S102 - the docs' own code
        assert printed.getvalue().strip(), snippet
    f1, low, high = (float(x) for x in printed.getvalue().split())
    assert low <= f1 <= high


@pytest.mark.slow
def test_the_readme_snippet_runs_and_its_frames_hold_the_logs(
    logs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(logs)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(readme_snippet(), {})  # noqa: S102 - the docs' own code
    assert "acme" in printed.getvalue() and "verdict" in printed.getvalue()

    runs = medhalbench.load_runs("logs")
    by_log = {Path(i.name.removeprefix("file://")).name: read_eval_log(i)
              for i in list_eval_logs(str(logs / "logs"))}  # fmt: skip
    assert sorted(runs["benchmark"]) == ["dahl", "medhal", "medhallu"]
    assert runs["created"].notna().all() and all(Path(x).is_file() for x in runs["log"])
    for run in runs.itertuples():
        log = by_log[Path(run.log).name]
        metrics = log_metrics(log)
        figure = "dahl_score" if run.benchmark == "dahl" else "f1"
        for column in (figure, f"{figure}_ci_low", f"{figure}_ci_high"):
            ours, theirs = getattr(run, column), metrics[column]
            assert (math.isnan(ours) and math.isnan(theirs)) or ours == pytest.approx(theirs)
    medhallu = runs[runs.benchmark == "medhallu"].iloc[0]
    assert medhallu.model == "system/acme" and not medhallu.knowledge
    dahl = runs[runs.benchmark == "dahl"].iloc[0]
    assert dahl.splitter_model == dahl.checker_model == "embedded/smollm2"

    samples = medhalbench.load_samples("logs")
    detected = samples[samples.benchmark == "medhallu"]
    assert len(detected) == 24 and set(detected.verdict) == {"factual", "hallucinated"}
    right = (detected.verdict == "hallucinated") == detected.is_hallucinated
    assert list(detected.score) == list(right.astype(float)) and list(detected.correct) == list(
        right
    )
    assert detected.answer.notna().all() and detected.question.notna().all()
    judged = samples[samples.benchmark == "medhal"]
    assert set(judged.reply) == {"Factual: YES", "Factual: NO"} and judged.statement.notna().all()

    units = medhalbench.load_units("logs")
    answers = samples[samples.benchmark == "dahl"]
    assert len(units) == answers.units.sum() > 0
    assert set(units.verdict.dropna()) <= {"true", "false", "unknown"}
    assert units.groupby("id").unit.max().to_dict() == answers.set_index("id").units.to_dict()


def test_a_missing_log_folder_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(medhalbench.DataError, match="no such log file or folder"):
        medhalbench.load_runs(tmp_path / "nowhere")


def test_every_figure_of_a_tiny_not_sure_run_is_a_float(tmp_path: Path) -> None:
    # Three rows, one difficulty left empty: figures undefined in the only run are still
    # floats (NaN), never text, so `df[col].mean()` works on the runs that need care most.
    from inspect_ai import eval

    from helpers import scripted_model
    from medhalbench.medhallu import medhallu

    [log] = eval(
        medhallu(dataset=illustrative("medhallu_illustrative.jsonl"), limit=3, not_sure=True),
        model=scripted_model(lambda prompt: "2"), log_dir=str(tmp_path), display="none",
    )  # fmt: skip
    assert log.status == "success"
    runs = medhalbench.load_runs(tmp_path)
    figures = [
        c for c in runs.columns
        if c.endswith(("_rate", "_f1", "precision", "recall")) or c in ("f1", "precision")
    ]  # fmt: skip
    assert any(runs[c].isna().all() for c in figures), "some figure should be undefined here"
    assert {str(runs[c].dtype) for c in figures} == {"float64"}, {
        c: str(runs[c].dtype) for c in figures
    }
    assert str(runs["samples"].dtype) == "Int64"
    runs[figures].mean()  # numbers, whatever is undefined


@pytest.mark.slow
def test_the_headline_columns_are_those_of_every_run_naming_it_and_its_headline_figures(
    logs: Path,
) -> None:
    full = medhalbench.load_runs(logs / "logs")
    headline = medhalbench.load_runs(logs / "logs", headline=True)
    assert set(headline.columns) < set(full.columns)
    assert len(headline.columns) < len(full.columns) / 4
    assert list(headline.columns[:5]) == ["benchmark", "model", "run", "log", "created"]
    for name in ("f1", "f1_ci_low", "f1_ci_high", "dahl_score", "paper_dahl_score", "samples"):
        assert name in headline.columns, name
    assert "splitter_model" in headline.columns  # the judges that made the figures
    assert "hard_f1_ci_low" in headline.columns and "difficulty" not in headline.columns
    # The same values as the whole frame holds.
    assert headline.equals(full[list(headline.columns)])
