"""A fourth benchmark added from its own package plus one registry line appears in the
command line's eval group, runs there, and gets its table in the report; a setting added to
its settings model in one place (`operation`) is an option on the command line, a suite's run
argument and an `inspect eval -T` argument, validated the same way in all three."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import HEAVY_MODULES
from medhalbench.cli import cli
from medhalbench.registry import benchmark, benchmarks, register_benchmark, unregister_benchmark

TOY_PACKAGE = '''
"""A toy benchmark: two arithmetic questions, exact match. Its declaration and settings are
light (the command line reads them for --help); its implementation is named, not imported."""

from typing import Literal

from medhalbench.registry import Benchmark, KeyFigure
from medhalbench.settings import Count, Settings


class ToySettings(Settings):
    """Two arithmetic questions."""

    questions: Count = 2
    """How many questions."""
    operation: Literal["add", "multiply"] = "add"
    """Which operation the questions ask for."""


toy_benchmark = Benchmark(
    name="toy", title="Toy", paper="No paper", settings=ToySettings,
    implementation_path="toybench._implementation:toy_implementation",
    key_figure=KeyFigure("Accuracy", "accuracy", "accuracy"),
)
'''

TOY_IMPLEMENTATION = '''
"""The toy benchmark's task and tables."""

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import match
from inspect_ai.solver import generate

from medhalbench.registry import Implementation, benchmark_task
from medhalbench.results import Column, figure_rows, results_table, run_title
from toybench import ToySettings, toy_benchmark


@benchmark_task(ToySettings)
def toy(settings: ToySettings) -> Task:
    """Two arithmetic questions."""
    questions, operation = settings.questions, settings.operation
    sign = "+" if operation == "add" else "*"
    samples = [
        Sample(input=f"What is 2 {sign} 2?", target="4"),
        Sample(input=f"What is 3 {sign} 3?", target="6" if operation == "add" else "9"),
    ]
    return Task(
        dataset=MemoryDataset(samples[:questions]),
        solver=generate(),
        scorer=match(),
        config=GenerateConfig(max_tokens=8),
        version="0.1.0",
        metadata={"dataset": "toy questions"},
    )


def summary(run):
    table = figure_rows(run, [("Accuracy", "accuracy", None, "no sample")])
    table.title = run_title("Toy", run, [])
    return table


def tables(runs, published):
    return [
        results_table(
            "Toy arithmetic", "toy", [Column("Model"), Column("Accuracy")], runs,
            lambda run: [[run.model, run.figure("accuracy")]], published, lambda row: [],
        )
    ]


toy_implementation = Implementation(
    benchmark=toy_benchmark, task=toy, scorer=match,
    headline=lambda scores, settings: [], summary=summary, tables=tables,
)
'''


@pytest.fixture
def toy_registered(tmp_path: Path) -> Iterator[None]:
    package = tmp_path / "toybench"
    package.mkdir()
    (package / "__init__.py").write_text(textwrap.dedent(TOY_PACKAGE))
    (package / "_implementation.py").write_text(textwrap.dedent(TOY_IMPLEMENTATION))
    sys.path.insert(0, str(tmp_path))
    try:
        import toybench

        register_benchmark(toybench.toy_benchmark)  # the registry line
        yield
    finally:
        unregister_benchmark("toy")
        sys.path.remove(str(tmp_path))
        sys.modules.pop("toybench", None)
        sys.modules.pop("toybench._implementation", None)


def test_the_toy_benchmark_runs_from_the_eval_group_and_reaches_the_report(
    toy_registered: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert benchmark("toy").title == "Toy"
    listed = CliRunner().invoke(cli, ["eval", "--help"])
    assert "toy" in listed.stdout.split("Commands:")[1]

    ran = CliRunner().invoke(
        cli, ["eval", "toy", "-T", "questions=2", "--no-cache"]
    )  # on the embedded model
    assert ran.exit_code == 0, ran.stderr
    assert "Toy: embedded/smollm2" in ran.stdout and "Accuracy" in ran.stdout
    [log] = list((tmp_path / "logs").glob("*.eval"))

    reported = CliRunner().invoke(cli, ["report", str(log), "--out", "report.html"])
    assert reported.exit_code == 0, reported.stderr
    html = (tmp_path / "report.html").read_text()
    assert 'id="toy"' in html and "Toy arithmetic" in html and "embedded/smollm2" in html


def test_a_task_argument_the_toy_does_not_take_is_one_clear_line(
    toy_registered: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    ran = CliRunner().invoke(cli, ["eval", "toy", "--model", "mockllm/model", "-T", "colour=red"])
    assert ran.exit_code == 2 and "colour" in ran.stderr and "Traceback" not in ran.stderr


def test_unregistered_the_toy_is_gone() -> None:
    assert "toy" not in {b.name for b in benchmarks()}
    assert {"medhallu", "dahl", "medhal"} <= {b.name for b in benchmarks()}
    listed = CliRunner().invoke(cli, ["eval", "--help"])
    assert "toy" not in listed.stdout


def test_an_argument_added_to_the_task_is_an_option_a_suite_argument_and_a_task_argument(
    toy_registered: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    shown = CliRunner().invoke(cli, ["eval", "toy", "--help"])
    assert "--operation [add|multiply]" in shown.stdout
    assert "Which operation the questions ask for." in " ".join(shown.stdout.split())
    planned = CliRunner().invoke(cli, ["eval", "toy", "--operation", "multiply", "--dry-run"])
    assert planned.exit_code == 0, planned.stderr
    refused = CliRunner().invoke(cli, ["eval", "toy", "--operation", "divide", "--dry-run"])
    assert refused.exit_code == 2 and "--operation" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    suite = tmp_path / "suite.yaml"
    suite.write_text(
        "models: [embedded/smollm2]\nruns:\n  - {benchmark: toy, args: {operation: divide}}\n"
    )
    planned = CliRunner().invoke(cli, ["plan", str(suite)])
    assert planned.exit_code == 2 and "runs[1].args.operation" in planned.stderr
    assert "input should be 'add' or 'multiply' (got 'divide')" in planned.stderr
    # `inspect eval toy -T operation=divide` creates the task through inspect's registry.
    from inspect_ai import eval as inspect_eval

    with pytest.raises(Exception, match="input should be 'add' or 'multiply'"):
        inspect_eval("toy", task_args={"operation": "divide"}, model="mockllm/model",
                     log_dir=str(tmp_path / "logs"), display="none")  # fmt: skip
    [log] = inspect_eval("toy", task_args={"operation": "multiply", "questions": "1"},
                         model="mockllm/model", log_dir=str(tmp_path / "logs"), display="none",
                         limit=0)  # fmt: skip
    assert log.eval.task_args["operation"] == "multiply"


_PLUGIN_HELP = """
import json, sys
sys.path.insert(0, sys.argv[1])
import toybench
from click.testing import CliRunner
from medhalbench.cli import cli
from medhalbench.registry import register_benchmark
register_benchmark(toybench.toy_benchmark)
result = CliRunner().invoke(cli, ["eval", "toy", "--help"])
print(json.dumps({"code": result.exit_code, "output": result.output,
                  "modules": sorted({m.split('.')[0] for m in sys.modules})}))
"""


def test_a_plug_in_benchmark_gets_the_same_light_help(toy_registered: None, tmp_path: Path) -> None:
    import json
    import subprocess

    done = subprocess.run(
        [sys.executable, "-c", _PLUGIN_HELP, str(tmp_path)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    probe = json.loads(done.stdout)
    assert probe["code"] == 0 and "--operation [add|multiply]" in probe["output"]
    assert not set(HEAVY_MODULES) & set(probe["modules"])
