"""Exports on a full disk: `compare --out` and `report --format csv` (a set of tables) write
whole or not at all; one line naming the path, exit code 2, and no empty or partial file."""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner
from inspect_ai import eval

from helpers import scripted_model
from medhalbench.cli import cli
from medhalbench.examples import illustrative
from medhalbench.medhallu import medhallu


@pytest.fixture(scope="module")
def two_logs(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    folder = tmp_path_factory.mktemp("two-logs")
    locations = []
    for name, verdict in (("a", "1"), ("b", "0")):
        [log] = eval(
            medhallu(dataset=illustrative("medhallu_illustrative.jsonl"), limit=4),
            model=scripted_model(lambda prompt, v=verdict: v),
            log_dir=str(folder / name),
            display="none",
        )
        locations.append(log.location)
    return locations[0], locations[1]


def one_line(result: Any) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert "No space left" in lines[0] and "unexpected" not in lines[0]
    return str(lines[0])


class TestCompareOnAFullDisk:
    def test_no_empty_file_is_left(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, two_logs: tuple[str, str]
    ) -> None:
        real = Path.open

        def open_(self: Path, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
            if "w" in mode:
                raise OSError(errno.ENOSPC, "No space left on device", str(self))
            return real(self, mode, *args, **kwargs)

        monkeypatch.setattr(Path, "open", open_)
        out = tmp_path / "cmp" / "cmp.csv"
        args = ["compare", *two_logs, "--format", "csv", "--out", str(out)]
        line = one_line(CliRunner().invoke(cli, args))
        assert str(out) in line
        assert not out.exists() and not any(out.parent.iterdir())


class TestReportCsvOnAFullDisk:
    @pytest.mark.parametrize("failing", ["first", "second", "figures"])
    def test_no_table_of_the_set_is_left(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str,
        report_logs: Path,
    ) -> None:  # fmt: skip
        real = pd.DataFrame.to_csv
        calls: list[str] = []

        def to_csv(self: pd.DataFrame, path: Any = None, *args: Any, **kwargs: Any) -> Any:
            calls.append(str(path))
            if {"first": len(calls) == 1, "second": len(calls) == 2}.get(
                failing, "figures" in str(path)
            ):
                raise OSError(errno.ENOSPC, "No space left on device")
            return real(self, path, *args, **kwargs)

        monkeypatch.setattr(pd.DataFrame, "to_csv", to_csv)
        folder = tmp_path / "rep"
        args = ["report", str(report_logs), "--format", "csv", "--out", str(folder / "t.csv")]
        one_line(CliRunner().invoke(cli, args))
        assert not folder.exists() or list(folder.iterdir()) == []
