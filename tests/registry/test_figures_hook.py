"""A run's every figure kept in its log at its task's end, while its metrics (what inspect
shows) are its headline figures alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.log import read_eval_log

from helpers import hallucinated_answers, scripted_model
from medhalbench.medhal import medhal
from medhalbench.medhallu import detection_metrics, medhallu, medhallu_benchmark
from medhalbench.results import FIGURES_KEY, every_figure, log_metrics, metric_scores


def _answers(path: str):
    fakes = hallucinated_answers(path)
    return lambda user: "1" if any(f in user for f in fakes) else "I cannot tell."


def test_the_log_keeps_every_figure_and_the_metrics_only_the_headline(
    sample_path: str, tmp_path: Path
) -> None:
    task = medhallu(dataset=sample_path, limit=6, bootstrap=200)
    [log] = eval(task, model=scripted_model(_answers(sample_path)), log_dir=str(tmp_path),
                 display="none", epochs=2)  # fmt: skip
    assert log.results is not None and log.location
    shown = list(log.results.scores[0].metrics)
    assert shown == [f for f in medhallu_benchmark.headline if f in shown] and "f1" in shown
    # What eval() hands back and what the file holds are the same figures.
    on_file = read_eval_log(log.location, header_only=True)
    assert log_metrics(on_file) == pytest.approx(log_metrics(log), nan_ok=True)
    every = log_metrics(on_file)
    assert every["unparseable"] == 6 and "f1_ci_low" in every and "hard_f1" in every
    # Every figure is the task's metric asked for all, on the scores its epochs reduced to.
    scores = metric_scores(read_eval_log(log.location), "detection_verdict")
    assert len(scores) == 12  # 6 rows x 2 answers, each reduced over its 2 epochs
    direct = detection_metrics(resamples=200)(scores)
    assert every == pytest.approx(direct, nan_ok=True)
    for name in shown:  # the headline values shown are the kept ones
        assert log.results.scores[0].metrics[name].value == pytest.approx(every[name], nan_ok=True)


def test_a_log_from_before_reads_its_metrics(sample_path: str, tmp_path: Path) -> None:
    [log] = eval(medhallu(dataset=sample_path, limit=2), model=scripted_model(_answers(sample_path)),
                 log_dir=str(tmp_path), display="none")  # fmt: skip
    assert log.results is not None and FIGURES_KEY in (log.results.metadata or {})
    log.results.metadata = None
    assert set(log_metrics(log)) == set(log.results.scores[0].metrics)


def test_metrics_that_are_all_the_figures_keep_nothing_apart(tmp_path: Path) -> None:
    from medhalbench.examples import illustrative

    task = medhal(dataset=illustrative("medhal_illustrative.jsonl"), limit=2, predict=True)
    [log] = eval(task, model=scripted_model(lambda user: "factual"), log_dir=str(tmp_path),
                 display="none")  # fmt: skip
    assert log.results is not None and FIGURES_KEY not in (log.results.metadata or {})
    assert every_figure(log, []) is None
    assert set(log_metrics(log)) == {"statements", "factual", "non_factual", "unparseable"}
