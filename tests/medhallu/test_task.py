from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval

from helpers import hallucinated_answers, log_metrics, scripted_model
from medhalbench import DataError
from medhalbench.medhallu import medhallu
from medhalbench.settings import SettingsError


def oracle(path: str, wrong_on: str = "", reply_wrong: str = "0"):
    fakes = hallucinated_answers(path)

    def reply(user: str) -> str:
        if wrong_on and wrong_on in user:
            return reply_wrong
        return "1" if any(f in user for f in fakes) else "0"

    return reply


def run(task, model, tmp_path: Path, **kwargs):
    [log] = eval(task, model=model, log_dir=str(tmp_path / "logs"), display="none", **kwargs)
    assert log.status == "success", log.error
    return log


def test_each_row_gives_both_answers_in_seeded_order(sample_path: str) -> None:
    a = medhallu(dataset=sample_path, seed=1)
    b = medhallu(dataset=sample_path, seed=1)
    c = medhallu(dataset=sample_path, seed=2)
    ids = [s.id for s in a.dataset]
    assert len(ids) == 24 and len(set(ids)) == 24
    assert ids == [s.id for s in b.dataset]
    assert ids != [s.id for s in c.dataset]
    assert sorted(ids) != ids  # shuffled, not file order
    labels = {(s.metadata["row_id"], s.metadata["label"]) for s in a.dataset}
    assert len(labels) == 24
    for s in a.dataset:
        assert s.metadata["difficulty"] in ("easy", "medium", "hard")
        assert s.metadata["category"]


def test_a_rows_answers_are_placed_for_prefix_reuse(sample_path: str) -> None:
    from medhalbench.medhallu._dataset import PREFIX_REUSE_DISTANCE

    ids = [s.metadata["row_id"] for s in medhallu(dataset=sample_path, seed=5).dataset]
    for position, row in enumerate(ids[:PREFIX_REUSE_DISTANCE]):  # a full block of 8 rows
        assert ids.index(row, position + 1) == position + PREFIX_REUSE_DISTANCE


def test_knowledge_is_given_only_when_asked(sample_path: str) -> None:
    without = medhallu(dataset=sample_path)
    with_k = medhallu(dataset=sample_path, knowledge=True)
    assert all("Knowledge" not in s.input[-1].text for s in without.dataset)
    assert all("Knowledge" in s.input[-1].text for s in with_k.dataset)


def test_filters_and_random_pairing(sample_path: str) -> None:
    hard = medhallu(dataset=sample_path, difficulty="hard")
    assert {s.metadata["difficulty"] for s in hard.dataset} == {"hard"}
    assert len(medhallu(dataset=sample_path, limit=3).dataset) == 6
    random_pairs = medhallu(dataset=sample_path, pairing="random", seed=3)
    assert len(random_pairs.dataset) == 12
    assert {s.metadata["label"] for s in random_pairs.dataset} == {0, 1}
    with pytest.raises(
        SettingsError, match="difficulty: input should be 'easy', 'medium' or 'hard'"
    ):
        medhallu(dataset=sample_path, difficulty="extreme")


def test_prompt_override_and_bad_template(sample_path: str, tmp_path: Path) -> None:
    prompt = tmp_path / "p.txt"
    prompt.write_text("CUSTOM JUDGE PROMPT")
    task = medhallu(dataset=sample_path, prompt=str(prompt))
    assert all(s.input[0].text == "CUSTOM JUDGE PROMPT" for s in task.dataset)
    template = tmp_path / "t.txt"
    template.write_text("Q: {question}")
    with pytest.raises(DataError, match=r"\{answer\}"):
        medhallu(dataset=sample_path, template=str(template))


def test_perfect_detector_scores_one(sample_path: str, tmp_path: Path) -> None:
    log = run(medhallu(dataset=sample_path), scripted_model(oracle(sample_path)), tmp_path)
    m = log_metrics(log)
    assert m["f1"] == 1.0 and m["precision"] == 1.0 and m["accuracy"] == 1.0
    assert m["easy_f1"] == m["medium_f1"] == m["hard_f1"] == 1.0
    assert m["unparseable"] == 0 and m["samples"] == 24
    assert len(log.samples) == 24


def test_unparseable_replies_are_counted_and_logged(sample_path: str, tmp_path: Path) -> None:
    # Row 1's hallucinated answer gets an unreadable reply; its true answer gets "0".
    reply = oracle(sample_path, wrong_on="renin", reply_wrong="I cannot decide between 0 and 1")
    log = run(medhallu(dataset=sample_path), scripted_model(reply), tmp_path)
    m = log_metrics(log)
    assert m["unparseable"] == 1
    assert m["recall"] == pytest.approx(11 / 12)
    assert m["precision"] == 1.0
    bad = [
        s
        for s in log.samples
        if s.scores["detection_verdict"].metadata["prediction"] == "unparseable"
    ]
    assert (
        len(bad) == 1
        and "offers a verdict between two" in bad[0].scores["detection_verdict"].explanation
    )


def test_not_sure_reports_response_rate(sample_path: str, tmp_path: Path) -> None:
    fakes = hallucinated_answers(sample_path)

    def reply(user: str) -> str:
        if "vitamin D" in user or "aspirin" in user:
            return "Not sure"
        return "1" if any(f in user for f in fakes) else "0"

    log = run(medhallu(dataset=sample_path, not_sure=True), scripted_model(reply), tmp_path)
    m = log_metrics(log)
    assert m["not_sure"] == 4  # two rows, both answers
    assert m["response_rate"] == pytest.approx(20 / 24)
    assert m["answered_f1"] == 1.0
    assert m["recall"] == pytest.approx(10 / 12)


def test_second_run_is_served_from_cache(sample_path: str, tmp_path: Path) -> None:
    calls: list[str] = []
    model = scripted_model(oracle(sample_path), calls)
    first = run(medhallu(dataset=sample_path, limit=4), model, tmp_path, cache=True)
    assert len(calls) == 8
    second = run(medhallu(dataset=sample_path, limit=4), model, tmp_path, cache=True)
    assert len(calls) == 8  # no new model calls
    assert log_metrics(first) == pytest.approx(log_metrics(second), nan_ok=True)
