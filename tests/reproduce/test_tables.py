"""The packaged tables: each suite reads as a suite, stands for the published rows of its
table model by model, and is listed and planned by `medhalbench reproduce`."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from medhalbench.cli import cli
from medhalbench.commands._suite import read_suite
from medhalbench.registry import benchmark
from medhalbench.reproduce import PAPER_TABLES, paper_table

TABLES = [t.name for t in PAPER_TABLES]


@pytest.mark.parametrize("args", [["--list"], []])
def test_the_list_names_every_packaged_table(args: list[str]) -> None:
    result = CliRunner().invoke(cli, ["reproduce", *args])
    assert result.exit_code == 0, result.stderr
    for table in PAPER_TABLES:
        assert f"│ {table.name} " in result.stdout


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["medhallu-table2", "--list"], "--list: lists every table"),
        (["--view"], "--view: needs a table's NAME"),
        (["medhallu-table2", "--max-cost", "5"], "--max-cost: needs --prices"),
        (["medhallu-table2", "--view", "--out", "x.txt"], "--out: needs --format csv"),
        (["medhallu-table2", "--view", "--format", "csv", "--out", "x.json"], "--out"),
    ],
)
def test_options_that_do_not_go_together_are_refused_in_one_line(
    args: list[str], named: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["reproduce", *args])
    assert result.exit_code == 2 and named in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not list(tmp_path.iterdir())


@pytest.mark.parametrize("name", TABLES)
def test_each_model_of_a_table_stands_for_one_of_its_published_rows(name: str) -> None:
    table = paper_table(name)
    suite = read_suite(table.suite)
    rows = [
        r for r in benchmark(table.benchmark).implementation.published()
        if r.source.endswith(table.table)
    ]  # fmt: skip
    published = {r.model for r in rows}
    named = [m.paper_model for m in suite.models]
    assert set(named) <= published, set(named) - published
    assert len(set(named)) == len(named)  # one model per published row
    left_out = published - set(named)
    assert all(model.split()[0] in table.unpublished for model in left_out), left_out
    for figure in table.figures:  # every published figure of the table is one it shows
        assert any(figure in r.metrics for r in rows), figure


def test_an_unknown_table_or_model_is_refused_in_one_line() -> None:
    result = CliRunner().invoke(cli, ["reproduce", "medhallu-table9"])
    assert result.exit_code == 2 and "medhallu-table2" in result.stderr
    result = CliRunner().invoke(cli, ["reproduce", "medhallu-table2", "--model", "openai/gpt-5"])
    assert result.exit_code == 2
    assert "openai/gpt-5: not a model of this table" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("name", TABLES)
def test_the_whole_table_is_planned_with_its_calls_and_cost(
    name: str, paper_data: None, tmp_path: Path
) -> None:
    table = paper_table(name)
    suite = read_suite(table.suite)
    prices = tmp_path / "prices.yaml"
    prices.write_text("openai/gpt-4o-mini-2024-07-18: {input: 0.15, output: 0.60}\n")
    result = CliRunner().invoke(cli, ["reproduce", name, "--dry-run", "--prices", str(prices)])
    assert result.exit_code == 0, result.stderr
    # A plan per run of each model, its calls and cost (undefined without a price).
    assert result.stdout.count("┃ Role ") == len(suite.models) * len(suite.runs)
    assert result.stdout.count("Cost $ ┃") == len(suite.models) * len(suite.runs)
    assert ("no price for this model" in result.stdout) == any(
        "gpt-4o-mini" not in m.name for m in suite.models
    )


def test_a_models_run_args_go_to_each_of_its_runs_and_may_not_overlap_a_runs(
    tmp_path: Path,
) -> None:
    from medhalbench._errors import DataError
    from medhalbench.commands._suite import suite_tasks

    suite = tmp_path / "suite.yaml"
    body = (
        "models:\n  - name: openai/gpt-4o-mini\n    run_args: {paper_call: openai}\n"
        "runs:\n  - benchmark: medhallu\n    args: {dataset: example, limit: 1%s}\n"
    )
    suite.write_text(body % "")
    [task] = suite_tasks(read_suite(suite), resolve=False)
    assert task.args["paper_call"] == "openai"
    suite.write_text(body % ", paper_call: open")
    with pytest.raises(DataError, match="paper_call: given by the model's run_args") as raised:
        read_suite(suite)
    assert raised.value.field == "models[1].run_args"
