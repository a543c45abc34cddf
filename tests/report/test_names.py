"""A log's file name: the run's benchmark, model and condition (the report's condition, each
setting that is not its default), in characters any file system takes, never too long."""

from __future__ import annotations

import re

from helpers import record_of
from medhalbench.report import condition_words, log_stem
from medhalbench.report._names import MAX_STEM
from medhalbench.results import RunResult

SAFE = re.compile(r"^[a-z0-9.\-_]+$")


def _run(system: str, model: str = "openai/gpt-4o-mini", **settings: object) -> RunResult:
    return RunResult(
        system=system, model=model, metrics={}, log=f"{system}.eval", status="success",
        record=record_of({"dataset": "/data/rows.jsonl", "dataset_fingerprint": "abc", **settings}),
    )  # fmt: skip


def test_a_run_is_named_by_benchmark_model_and_the_conditions_it_changed() -> None:
    assert log_stem(_run("medhallu")) == "medhallu_openai-gpt-4o-mini"
    assert log_stem(_run("medhallu", knowledge=False)) == "medhallu_openai-gpt-4o-mini"
    assert log_stem(_run("medhallu", knowledge=True)) == "medhallu_openai-gpt-4o-mini_knowledge"
    both = _run("medhallu", knowledge=True, not_sure=True)
    assert log_stem(both) == "medhallu_openai-gpt-4o-mini_knowledge_not-sure"
    # How replies were made and which samples were judged are not the condition.
    assert log_stem(_run("medhallu", temperature=0.7, limit=5)) == "medhallu_openai-gpt-4o-mini"
    assert log_stem(_run("medhal", predict=True)) == "medhal_openai-gpt-4o-mini_predict"


def test_dahl_flags_off_by_default_paths_and_values_read_as_words() -> None:
    # The authors' prompts qualify their protocol (on by default, as a log records it).
    theirs = _run(
        "dahl", "embedded/smollm2", paper_protocol=True, paper_prompts="/home/me/dahl/Theirs/"
    )
    assert log_stem(theirs) == "dahl_embedded-smollm2_paper-prompts-theirs"
    judged = _run("dahl", "embedded/smollm2", paper_protocol=False, check_mode="batch")
    assert condition_words(judged) == ["check-mode-batch", "no-paper-protocol"]
    grounded = _run("dahl", evidence="/corpora/Med Index", evidence_k=10)
    assert log_stem(grounded) == "dahl_openai-gpt-4o-mini_evidence-med-index_evidence-k-10"


def test_names_are_safe_and_short_whatever_the_model_or_values() -> None:
    tiny = _run("medhallu", "embedded//tmp/pytest-7/tiny-model0/tiny.gguf")
    assert log_stem(tiny) == "medhallu_embedded-tiny"
    hub = _run("medhallu", "hf/meta-llama/Llama-3.1-8B-Instruct")
    assert log_stem(hub) == "medhallu_hf-meta-llama-llama-3.1-8b-instruct"
    odd = _run("medhallu", "openai-api/x/ün:ï/co de", knowledge=True)
    long = _run("dahl", "vllm/" + "m" * 90, evidence="/" + "e" * 80, paper_prompts="p" * 60,
                paper_protocol=True)  # fmt: skip
    for run in (tiny, hub, odd, long):
        stem = log_stem(run)
        assert SAFE.match(stem) and len(stem) <= MAX_STEM, stem
    # A shortened name ends in a digest of the whole: two long names stay apart.
    other = _run("dahl", "vllm/" + "m" * 90, evidence="/" + "e" * 80, paper_prompts="q" * 60,
                 paper_protocol=True)  # fmt: skip
    assert log_stem(long) != log_stem(other) and len(log_stem(long)) == MAX_STEM
