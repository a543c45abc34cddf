"""How a local path is shown everywhere: relative to the current folder under it, else its
last two parts after an ellipsis; what is no absolute path is shown as it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from medhalbench._paths import shown_model, shown_path


def test_a_path_under_the_folder_is_shown_relative_to_it(tmp_path: Path) -> None:
    assert shown_path(str(tmp_path / "indexes" / "pubmed"), base=tmp_path) == "indexes/pubmed"
    assert shown_path(str(tmp_path), base=tmp_path) == "."
    assert shown_path(str(tmp_path / "a" / ".." / "b.jsonl"), base=tmp_path) == "b.jsonl"


def test_a_path_under_the_current_folder_is_shown_relative_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert shown_path(str(tmp_path / "data" / "rows.jsonl")) == "data/rows.jsonl"


def test_a_path_elsewhere_keeps_its_last_two_parts(tmp_path: Path) -> None:
    elsewhere = "/srv/shared/corpora/pubmed-index"
    assert shown_path(elsewhere, base=tmp_path) == "…/corpora/pubmed-index"
    assert shown_path("/data/rows.jsonl", base=tmp_path) == "/data/rows.jsonl"  # nothing to cut


@pytest.mark.parametrize(
    "value",
    ["UTAustin-AIHealth/MedHallu", "es:http://host:9200/pubmed", "data/rows.jsonl", "idx", ""],
)
def test_what_is_no_absolute_path_is_shown_as_it_is(value: str, tmp_path: Path) -> None:
    assert shown_path(value, base=tmp_path) == value


def test_a_model_that_names_a_file_shows_it_as_paths_are_shown(tmp_path: Path) -> None:
    assert (
        shown_model("embedded//srv/models/gguf/tiny.gguf", base=tmp_path)
        == "embedded/…/gguf/tiny.gguf"
    )
    assert shown_model(f"hf/{tmp_path}/model", base=tmp_path) == "hf/model"
    assert shown_model("openai/gpt-4o-mini", base=tmp_path) == "openai/gpt-4o-mini"
    assert shown_model("mockllm/model") == "mockllm/model"
