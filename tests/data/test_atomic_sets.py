"""A set of files (a report's CSV tables) is written whole or not at all: a failure while
writing any of them leaves none of the new files, no temporary and no empty target."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from medhalbench import DataError
from medhalbench.data import atomic_paths


def full_disk(path: Path) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


class TestAtomicPaths:
    @pytest.mark.parametrize("failing", [0, 1, 2])
    def test_a_failure_on_any_file_leaves_no_file_of_the_set(
        self, tmp_path: Path, failing: int
    ) -> None:
        targets = [tmp_path / f"t_{i}.csv" for i in range(3)]
        with pytest.raises(DataError) as info, atomic_paths(targets) as parts:
            for index, part in enumerate(parts):
                if index == failing:
                    full_disk(part)
                part.write_text("a,b\n1,2\n")
        assert list(tmp_path.iterdir()) == [], list(tmp_path.iterdir())
        message = str(info.value)
        assert "No space left on device" in message and "\n" not in message

    def test_old_files_stay_when_the_new_set_fails(self, tmp_path: Path) -> None:
        targets = [tmp_path / "a.csv", tmp_path / "b.csv"]
        for target in targets:
            target.write_text("old\n")
        with pytest.raises(DataError), atomic_paths(targets) as parts:
            parts[0].write_text("new\n")
            full_disk(parts[1])
        assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv", "b.csv"]
        assert all(t.read_text() == "old\n" for t in targets)

    @pytest.mark.parametrize("count", [1, 3])
    def test_a_whole_set_replaces_every_target(self, tmp_path: Path, count: int) -> None:
        targets = [tmp_path / "sub" / f"t_{i}.csv" for i in range(count)]
        with atomic_paths(targets) as parts:
            for index, part in enumerate(parts):
                part.write_text(f"{index}\n")
        assert [t.read_text() for t in targets] == [f"{i}\n" for i in range(count)]
        assert sorted(p.name for p in (tmp_path / "sub").iterdir()) == [t.name for t in targets]
