"""A full disk, a quota, a read-only file system or no right to write, met while writing
our outputs or inspect's logs: one line naming the path (the error's file, else the folder
given) and the reason, exit code 2, never "unexpected" with a traceback file."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.scorer import Score, Target, mean, scorer
from inspect_ai.solver import TaskState

from helpers import scripted_model
from medhalbench.commands._failures import classify_exception, fail_on_unfinished

ERRNOS = [errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM]


@scorer(metrics=[mean()])
def writes_to_a_bad_disk(number: int, filename: str | None):  # type: ignore[no-untyped-def]
    async def score(state: TaskState, target: Target) -> Score:
        if filename is None:  # as shutil's copy of a log raises it: no file named
            raise OSError(number, f"disk fault {number}")
        raise OSError(number, f"disk fault {number}", filename)

    return score


class TestDiskErrorsInARun:
    @pytest.mark.parametrize("number", ERRNOS)
    @pytest.mark.parametrize("named", [False, True])
    def test_one_line_naming_the_path_exit_2(
        self,
        tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch,
        number: int,
        named: bool,
    ) -> None:
        # Run where the logs are, as a user does: the retry command then names the log
        # relative to it, and the line has room for the path and the reason whole.
        monkeypatch.chdir(tmp_path)
        filename = str(tmp_path / "out" / "x.json") if named else None
        failing = writes_to_a_bad_disk(number, filename)
        task = Task(dataset=[Sample(input="q", target="a")], scorer=failing)
        model = scripted_model(lambda prompt: "a")
        [log] = eval(task, model=model, log_dir=str(tmp_path), display="none")
        with pytest.raises(SystemExit) as exited:
            fail_on_unfinished([log])
        lines = capsys.readouterr().err.strip().splitlines()
        assert exited.value.code == 2 and len(lines) == 1, lines
        assert (filename or str(tmp_path)) in lines[0] and f"disk fault {number}" in lines[0]
        assert "unexpected" not in lines[0] and "traceback" not in lines[0]


class TestDiskErrorsInABuild:
    @pytest.mark.parametrize("number", ERRNOS)
    def test_the_folder_is_named_when_the_error_names_no_file(self, number: int) -> None:
        try:
            raise OSError(number, "disk fault")
        except OSError as ex:
            kind, reason = classify_exception(ex, "/data/out")
        assert kind == "disk" and reason.startswith("/data/out: cannot write there (disk fault")

    def test_other_os_errors_stay_bugs(self) -> None:
        try:
            raise OSError(errno.EBADF, "bad descriptor")
        except OSError as ex:
            kind, _ = classify_exception(ex, "/data/out")
        assert kind == "bug"
