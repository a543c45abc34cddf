"""Epochs sample: each epoch of a prompt is sent its own seed, derived from the run's, so that
a temperature above 0 gives each epoch its own draw and the same command repeats them."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from inspect_ai.event import ModelEvent
from inspect_ai.log import read_eval_log

from medhalbench.cli import cli
from medhalbench.examples import illustrative
from medhalbench.outputs import epoch_seed


def test_the_first_epoch_sends_the_run_seed_and_later_ones_their_own() -> None:
    assert epoch_seed(7, 1, "q1") == 7  # what --reply-seed says is sent
    later = {epoch_seed(7, e, "q1") for e in range(2, 12)}
    assert len(later) == 10 and 7 not in later
    assert epoch_seed(7, 2, "q1") == epoch_seed(7, 2, "q1")  # runs repeat
    assert epoch_seed(7, 2, "q1") != epoch_seed(7, 2, "q2") != epoch_seed(8, 2, "q2")
    assert all(0 <= epoch_seed(s, 3, "q") < 2**31 for s in (0, 2**62, -5))


def _answer_calls(log_dir: Path) -> list[tuple[int, str | int, int | None, str]]:
    [path] = log_dir.glob("*.eval")
    log = read_eval_log(str(path))
    assert log.status == "success"
    return sorted(
        (sample.epoch, sample.id, event.config.seed, event.output.completion)
        for sample in log.samples or []
        for event in sample.events
        if isinstance(event, ModelEvent) and event.role is None  # the model under test
    )


@pytest.mark.slow
def test_a_dahl_run_with_epochs_sends_each_epoch_its_seed_and_repeats(tmp_path: Path) -> None:
    args = ["eval", "dahl", "--dataset", illustrative("dahl_illustrative.csv"), "--limit", "1",
            "--epochs", "2", "--temperature", "0.6", "--max-tokens", "24", "--no-cache",
            "--display", "none"]  # fmt: skip
    runs = []
    for name in ("first", "again"):
        result = CliRunner().invoke(cli, [*args, "--log-dir", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
        runs.append(_answer_calls(tmp_path / name))
    [(epoch_1, sample, seed_1, answer_1), (epoch_2, _, seed_2, answer_2)] = runs[0]
    assert (epoch_1, epoch_2) == (1, 2)
    assert seed_1 == 0 and seed_2 == epoch_seed(0, 2, sample)
    assert answer_1 != answer_2  # each epoch its own draw
    assert runs[1] == runs[0]  # and the same command gives the same draws
