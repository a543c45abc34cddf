"""Transcriptions of the papers' own scoring code, for tests that pin the paper-protocol
column to what the authors' scripts print on the same replies. Each follows its source line
by line; only data loading and file writing are left out.

- MedHallu: `calculate_metrics` in `Detection/detection_vllm_notsurecase.py` (MedHallu's
  repository, the authors' only published scorer).
- DAHL: seemdog/DAHL `evaluate/evaluate_with_pplai.py` (reading, score, "good") and
  `evaluate/score.py` (the mean over good responses).
- MedHal: LAMA-WeST-Lab/MedHal `src/evaluation/medhal_parser.py`, `MedHalParser.evaluate`
  (add_prompt=False) and the per-task F1 of `plot_model_comparison_accuracy`.
"""

from __future__ import annotations

import math
import re

import numpy as np

from medhalbench.embeddings import Embedder


def authors_calculate_metrics(
    labels: list[int], replies: list[str], difficulties: list[str]
) -> dict[str, float | None]:
    """A transcription of `calculate_metrics` in MedHallu's
    `Detection/detection_vllm_notsurecase.py` (the authors' only published scorer), with
    scikit-learn as they call it."""
    from sklearn.metrics import accuracy_score, f1_score, precision_score, recall_score

    llm_answers_int = []
    for i in replies:
        i_lower = i.lower()
        if any(x in i_lower for x in ["1", "not", "non"]):
            llm_answers_int.append(1)
        elif any(x in i_lower for x in ["not sure", "pass", "skip", "2"]):
            llm_answers_int.append(2)
        else:
            llm_answers_int.append(0)
    metrics: dict[str, float | None] = {}
    for difficulty in ["easy", "medium", "hard"]:
        indices = [i for i, d in enumerate(difficulties) if d == difficulty]
        if not indices:
            for name in ("accuracy", "precision", "recall", "f1", "not_sure_rate"):
                metrics[f"{difficulty}_{name}"] = None
            continue
        diff_answers = [labels[i] for i in indices]
        diff_llm = [llm_answers_int[i] for i in indices]
        metrics[f"{difficulty}_not_sure_rate"] = sum(a == 2 for a in diff_llm) / len(diff_llm)
        valid = [j for j, pred in enumerate(diff_llm) if pred != 2]
        if valid:
            t, p = [diff_answers[j] for j in valid], [diff_llm[j] for j in valid]
            metrics[f"{difficulty}_accuracy"] = accuracy_score(t, p)
            metrics[f"{difficulty}_precision"] = precision_score(t, p, zero_division=0)
            metrics[f"{difficulty}_recall"] = recall_score(t, p, zero_division=0)
            metrics[f"{difficulty}_f1"] = f1_score(t, p, zero_division=0)
        else:
            for name in ("accuracy", "precision", "recall", "f1"):
                metrics[f"{difficulty}_{name}"] = None
    valid = [i for i, a in enumerate(llm_answers_int) if a != 2]
    if valid:
        t, p = [labels[i] for i in valid], [llm_answers_int[i] for i in valid]
        metrics["precision"] = precision_score(t, p, zero_division=0)
        metrics["recall"] = recall_score(t, p, zero_division=0)
        metrics["f1"] = f1_score(t, p, zero_division=0)
    else:
        metrics.update(precision=0, recall=0, f1=0)
    metrics["not_sure_rate"] = sum(a == 2 for a in llm_answers_int) / len(llm_answers_int)
    return metrics


def authors_dahl_score(atomic: list[str | None], checker_replies: list[list[str]]) -> float:
    """A transcription of seemdog/DAHL's `evaluate/evaluate_with_pplai.py` and `score.py`:
    units are `atomic.split("\\n")` (none when the cell is empty, read back as NaN), each
    reply read by substring tests, a response good when every unit read true or false, the
    score the mean of the good responses' scores."""
    scores, good = [], []
    for text, replies in zip(atomic, checker_replies, strict=True):
        atomic_list = text.split("\n") if text else []
        tfs = []
        for tf in replies:
            tf = tf.lower()
            if "true" in tf and "false" in tf:
                tf = "bad"
            elif "true" in tf:
                tf = "true"
            elif "false" in tf:
                tf = "false"
            else:
                tf = "bad"
            tfs.append(tf)
        scores.append(tfs.count("true") / len(tfs) if tfs else 0)
        good.append(
            len(tfs) == len(atomic_list) and tfs.count("true") + tfs.count("false") == len(tfs)
        )
    kept = [s for s, g in zip(scores, good, strict=True) if g]
    return sum(kept) / len(kept) if kept else math.nan  # pandas' mean of no row


DATA_TO_TASK = {
    "acm": "Information Extraction", "medmcqa": "Question-Answering",
    "medqa": "Question-Answering", "mednli": "NLI", "sumpubmed": "Summarization",
}  # fmt: skip


def authors_evaluate(rows: list[dict[str, object]], embed: Embedder) -> dict[str, float]:
    """A transcription of `MedHalParser.evaluate` (add_prompt=False) and of the per-task F1
    of `plot_model_comparison_accuracy`, with scikit-learn as they call it."""
    from sklearn.metrics import accuracy_score, f1_score, precision_score, recall_score

    parsed = []
    for row in rows:
        output = str(row["output"] or "")
        if not output:
            parsed.append({"valid": False, "prediction": False, "explanation_gen": ""})
            continue
        output = output.lower()
        match = re.search(r"\b(yes|no)\b", output, re.IGNORECASE)
        if match:
            parsed.append(
                {"valid": True, "prediction": match.group(0).lower() == "yes",
                 "explanation_gen": output[match.end() :].strip()}
            )  # fmt: skip
        else:
            parsed.append({"valid": False, "prediction": False, "explanation_gen": ""})
    valid = [(r, p) for r, p in zip(rows, parsed, strict=True) if p["valid"]]
    y_pred = [p["prediction"] for _, p in valid]
    y_test = [r["label"] for r, _ in valid]
    pairs = [(r, p) for r, p in valid if p["prediction"] == r["label"] and not r["label"]]
    refs = ["" if r["explanation"] is None else str(r["explanation"]) for r, _ in pairs]
    preds = [str(p["explanation_gen"]) for _, p in pairs]
    e_ref = embed.model.encode(refs, normalize_embeddings=True, show_progress_bar=False)
    e_pred = embed.model.encode(preds, normalize_embeddings=True, show_progress_bar=False)
    embsim = (e_ref * e_pred).sum(axis=1)
    figures = {
        "format_matching_accuracy": accuracy_score(y_test, y_pred),
        "format_matching_precision": precision_score(y_test, y_pred, zero_division=0),
        "format_matching_recall": recall_score(y_test, y_pred, zero_division=0),
        "format_matching_f1": f1_score(y_test, y_pred, zero_division=0),
        "paper_explanation_similarity": float(np.mean(embsim)),
        "format_matching_rate": len(valid) / len(rows),
    }
    for task in {DATA_TO_TASK[str(r["source"])] for r, _ in valid}:
        of = [(r, p) for r, p in valid if DATA_TO_TASK[str(r["source"])] == task]
        figures[f"format_matching_task/{task}/f1"] = f1_score(
            [r["label"] for r, _ in of], [p["prediction"] for _, p in of], zero_division=0
        )
    return figures
