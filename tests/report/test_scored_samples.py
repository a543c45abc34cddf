"""Runs are set side by side by the samples they scored, whatever selected them: outputs
written elsewhere that answer a few of a dataset's rows are named by those samples and
compared with the model's run on the same rows."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval

from helpers import hallucinated_answers, medhallu_verdicts, read_jsonl, scripted_model
from medhalbench.examples import illustrative
from medhalbench.medhallu import medhallu
from medhalbench.registry import benchmark
from medhalbench.report import collect, contrasts, place, run_names, write_report

DATASET = illustrative("medhallu_illustrative.jsonl")
HALLUCINATED = hallucinated_answers(DATASET)


@pytest.fixture(scope="module")
def partial_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A model's run on the first 3 of the 12 rows; a detector's outputs written elsewhere
    for the same 3 rows, and another's for rows 4 to 6 (as many samples, other rows)."""
    folder = tmp_path_factory.mktemp("partial")
    rows = read_jsonl(DATASET)
    model = scripted_model(lambda prompt: "1" if any(a in prompt for a in HALLUCINATED) else "0")
    logs = eval(
        medhallu(dataset=DATASET, limit=3), model=model, log_dir=str(folder), display="none"
    )
    for name, part in (("first", rows[:3]), ("other", rows[3:6])):
        outputs = medhallu_verdicts(folder / f"{name}.jsonl", part)
        logs += eval(
            medhallu(dataset=DATASET, responses=str(outputs)),
            model=f"system/{name}-detector",
            log_dir=str(folder),
            display="none",
        )
    assert all(log.status == "success" for log in logs)
    return folder


def test_outputs_for_a_few_rows_are_named_by_the_samples_they_scored(partial_logs: Path) -> None:
    runs = collect([partial_logs]).of("medhallu")
    by_model = {r.model: r for r in runs}
    # The files answer 3 of 12 rows: 6 samples scored, whatever the dataset holds.
    assert by_model["system/first-detector"].record.facts.rows == 12
    placed = {p.run.model: p for p in place(benchmark("medhallu"), runs)}
    names = dict(zip((r.model for r in runs), run_names(runs, title=False), strict=True))
    assert not any("rows 12" in p.column or "rows 12" in n for p, n in
                   zip(placed.values(), names.values(), strict=True))  # fmt: skip
    # The model's run and the outputs for the same rows stand in one column; the outputs
    # for other rows (as many samples) in another, told apart by their samples' digest.
    assert placed["system/first-detector"].column == placed["mockllm/model"].column
    assert placed["system/other-detector"].column != placed["mockllm/model"].column
    assert "samples 6" in placed["system/other-detector"].column


def test_outputs_for_a_few_rows_are_compared_with_the_model_on_those_rows(
    partial_logs: Path, tmp_path: Path
) -> None:
    runs = collect([partial_logs]).of("medhallu")
    found = contrasts(runs)
    assert [(a.model, b.model, str(d)) for a, b, d in found.pairs] == [
        ("mockllm/model", "system/first-detector",
         "model: mockllm/model vs system/first-detector"),
    ]  # fmt: skip
    [page] = write_report([partial_logs], tmp_path / "report.html")
    html = page.read_text()
    assert "MedHallu, model: mockllm/model vs system/first-detector" in html
    assert 'id="comparisons_medhallu"' in html  # the comparisons at a glance
