import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from rich.progress import Progress

from medhalbench.data import ResumableJsonl, run_resumable


def build_all(items: list[str], done: ResumableJsonl, fail_on: str, started: list[str]) -> None:
    async def work(item: str) -> dict[str, Any]:
        started.append(item)
        await asyncio.sleep(0.01)
        if item == fail_on:
            raise RuntimeError(f"{item} failed for good")
        return {"id": item}

    async def main() -> None:
        with Progress(disable=True) as progress:
            await run_resumable(
                items, work, key=lambda i: i, done=done, progress=progress,
                description="items", concurrency=1,
            )  # fmt: skip

    asyncio.run(main())


def test_a_failure_stops_the_items_not_started_and_a_rerun_does_only_the_rest(
    tmp_path: Path,
) -> None:
    path = tmp_path / "done.jsonl"
    started: list[str] = []
    with pytest.raises(RuntimeError, match="c failed for good"):
        build_all(list("abcde"), ResumableJsonl(path, key="id"), "c", started)
    # Nothing starts after the failure: its result could never be recorded.
    assert started == ["a", "b", "c"]
    assert [json.loads(line)["id"] for line in path.read_text().splitlines()] == ["a", "b"]

    started.clear()
    build_all(list("abcde"), ResumableJsonl(path, key="id"), "none", started)
    assert started == ["c", "d", "e"]
    assert [json.loads(line)["id"] for line in path.read_text().splitlines()] == list("abcde")


def test_a_partial_last_line_is_redone(tmp_path: Path) -> None:
    path = tmp_path / "done.jsonl"
    path.write_text('{"id": "a"}\n{"id": "b"')
    done = ResumableJsonl(path, key="id")
    assert "a" in done and "b" not in done
    assert path.read_text() == '{"id": "a"}\n'
