"""Synthetic workloads for the benchmarks: N samples of each task, written to a folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai.model import GenerateConfig, Model, get_model

from medhalbench.dahl import dahl
from medhalbench.medhal import medhal
from medhalbench.medhallu import medhallu

STUB = "openai-api/stub/stub"
# Model calls per sample against the stub server.
CALLS_PER_SAMPLE = {"medhallu": 1, "dahl": 5, "medhal": 1}


def write_workloads(folder: Path, samples: int) -> dict[str, Path]:
    """Data files giving `samples` samples for each task."""
    folder.mkdir(parents=True, exist_ok=True)
    medhallu_file = folder / "medhallu.jsonl"
    medhallu_file.write_text(
        "".join(
            json.dumps({
                "pubid": str(i), "Question": f"Does drug {i} lower blood pressure?", "Knowledge": [f"Trial {i} compared drug {i} with placebo."],
                "Ground Truth": f"Yes. Drug {i} lowered blood pressure.", "Difficulty Level": ("easy", "medium", "hard")[i % 3],
                "Hallucinated Answer": f"No. Drug {i} raised blood pressure.", "Category of Hallucination": "Incomplete Information",
            }) + "\n"
            for i in range(samples // 2)
        )
    )  # fmt: skip
    dahl_file = folder / "dahl_responses.jsonl"
    dahl_file.write_text(
        "".join(
            json.dumps(
                {
                    "question": f"What does drug {i} do?",
                    "category": "pharmacology",
                    "response": f"Drug {i} lowers blood pressure.",
                }
            )
            + "\n"
            for i in range(samples)
        )
    )
    medhal_file = folder / "medhal.jsonl"
    medhal_file.write_text(
        "".join(
            json.dumps(
                {
                    "id": f"s{i}",
                    "statement": f"Drug {i} lowers blood pressure.",
                    "label": i % 2 == 0,
                    "source": "medqa",
                }
            )
            + "\n"
            for i in range(samples)
        )
    )
    return {"medhallu": medhallu_file, "dahl": dahl_file, "medhal": medhal_file}


def task_for(system: str, files: dict[str, Path], cache: bool = False) -> Task:
    """The task of a system over its workload (DAHL scores given responses: 1 split + 4
    checks; `cache` is the DAHL scorer's own cache flag)."""
    if system == "medhallu":
        return medhallu(dataset=str(files["medhallu"]))
    if system == "dahl":
        # Our pipeline only: the paper protocol would split and check each answer again.
        return dahl(
            dataset="github", responses=str(files["dahl"]), cache=cache, paper_protocol=False
        )
    return medhal(dataset=str(files["medhal"]))


def stub_model(base_url: str, connections: int) -> Model:
    """A fresh model on the stub server, with its own connection limit."""
    return get_model(
        STUB,
        base_url=base_url,
        api_key="unused",
        config=GenerateConfig(max_connections=connections),
        memoize=False,
    )


def eval_kwargs(system: str, base_url: str, connections: int) -> dict[str, Any]:
    """inspect eval() arguments to run a system's task against the stub server."""

    def model() -> Model:
        return stub_model(base_url, connections)

    main = "none/none" if system == "dahl" else model()
    roles = {"splitter": model(), "checker": model()} if system == "dahl" else None
    return {"model": main, "model_roles": roles, "max_samples": 10_000, "display": "none"}
