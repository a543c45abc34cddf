"""Shard sets: `shard.json` and `--shard i/n` share one range (a count of 1 to MAX_SHARDS, an
index below the count); a marker out of range is refused in one line naming the file and
the field, and missing shards are named without listing a huge range."""

from __future__ import annotations

import contextlib
import json
import signal
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from click.testing import CliRunner

from medhalbench import DataError
from medhalbench.cli import cli
from medhalbench.medhallu._settings import MAX_SHARDS, parse_shard
from medhalbench.medhallu.builder._build import SHARD_FILE, check_shard_set

OUT_OF_RANGE: list[tuple[dict[str, Any], str]] = [
    ({"index": 0, "count": 2**70}, "count"),
    ({"index": 0, "count": 100_000_000}, "count"),
    ({"index": 0, "count": MAX_SHARDS + 1}, "count"),
    ({"index": 0, "count": -3}, "count"),
    ({"index": 0, "count": 0}, "count"),
    ({"index": 7, "count": 2}, "index"),
    ({"index": -1, "count": 2}, "index"),
    ({"index": 0, "count": 2.0}, "count"),
    ({"index": True, "count": 2}, "index"),
    ({"index": 0, "count": "2"}, "count"),
]


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Fail, rather than hang, when the body runs longer than `seconds`."""

    def expire(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def shard(tmp_path: Path, name: str, marker: dict[str, Any]) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / SHARD_FILE).write_text(json.dumps(marker))
    return folder


class TestShardMarkerRange:
    @pytest.mark.parametrize(("marker", "field"), OUT_OF_RANGE)
    def test_out_of_range_is_refused_naming_file_and_field(
        self, tmp_path: Path, marker: dict[str, Any], field: str
    ) -> None:
        folder = shard(tmp_path, "s", marker)
        with deadline(5), pytest.raises(DataError) as info:
            check_shard_set([folder])
        message = str(info.value)
        assert info.value.path == str(folder / SHARD_FILE), message
        assert f"field '{field}'" in message and "\n" not in message and len(message) < 300

    @pytest.mark.parametrize(("marker", "field"), OUT_OF_RANGE)
    def test_merge_command_refuses_in_one_line_exit_2(
        self, tmp_path: Path, marker: dict[str, Any], field: str
    ) -> None:
        folder = shard(tmp_path, "s", marker)
        with deadline(20):
            result = CliRunner().invoke(cli, ["merge", "--out", str(tmp_path / "o"), str(folder)])
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert result.exit_code == 2, result.output
        assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
        assert str(folder / SHARD_FILE) in lines[0] and f"field '{field}'" in lines[0]


class TestMissingShards:
    @pytest.mark.parametrize(
        ("count", "given", "expected"),
        [
            (4, [0, 2, 3], "shard 1/4 missing from the 3 given"),
            (4, [0], "shards 1/4, 2/4, 3/4 missing from the 1 given"),
            (
                MAX_SHARDS,
                [0, 2],
                f"shards 1/{MAX_SHARDS}, 3/{MAX_SHARDS}, 4/{MAX_SHARDS}, 5/{MAX_SHARDS}, "
                f"6/{MAX_SHARDS} and {MAX_SHARDS - 7:,} more missing from the 2 given",
            ),
        ],
    )
    def test_the_first_missing_are_named_and_the_rest_counted(
        self, tmp_path: Path, count: int, given: list[int], expected: str
    ) -> None:
        folders = [shard(tmp_path, f"s{i}", {"index": i, "count": count}) for i in given]
        with pytest.raises(DataError) as info:
            check_shard_set(folders)
        assert expected in str(info.value)


class TestShardOption:
    @pytest.mark.parametrize(
        "value", [f"0/{MAX_SHARDS + 1}", f"0/{2**70}", "0/0", "-1/2", "2/2", "0/-3"]
    )
    def test_the_option_shares_the_range(self, value: str) -> None:
        with pytest.raises(ValueError, match="shard (count|index) must be in"):
            parse_shard(value)

    @pytest.mark.parametrize("value", ["0/1", f"{MAX_SHARDS - 1}/{MAX_SHARDS}"])
    def test_in_range_is_read(self, value: str) -> None:
        index, count = (int(x) for x in value.split("/"))
        assert parse_shard(value) == (index, count)
