"""The run's `--cache/--no-cache` reaches the extractor's calls (inspect's effective config),
as it reaches the model under test's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, ModelUsage, get_model

from medhalbench.examples import illustrative
from medhalbench.medhallu import medhallu


@pytest.mark.parametrize("cache", [True, False])
def test_the_extractor_caches_as_the_run_does(
    tmp_path: Path, cache: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A cache of its own: a reply cached by an earlier run would not reach the model.
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    extractor_calls: list[GenerateConfig] = []

    def reply(
        messages: list[ChatMessage], tools: object, choice: object, config: GenerateConfig
    ) -> ModelOutput:
        extracting = "THE MODEL'S REPLY" in messages[-1].text
        if extracting:
            extractor_calls.append(config)
        text = json.dumps({"verdict": "1"}) if extracting else "Nah, I don't buy it."  # unreadable
        output = ModelOutput.from_content("mockllm", text)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tokenizer
        return output

    model = get_model("mockllm/model", custom_outputs=reply)
    [log] = inspect_eval(
        medhallu(dataset=illustrative("medhallu_illustrative.jsonl"), limit=1),
        model=model, model_roles={"extractor": model}, cache=cache,
        log_dir=str(tmp_path), display="none",
    )  # fmt: skip
    assert log.status == "success", log.error
    assert extractor_calls and all(bool(c.cache) is cache for c in extractor_calls)
