"""Plans before spending: `--dry-run` loads and checks the data, calls no model, writes no
log, and counts calls and tokens per role; prices turn tokens into dollars; after a run the
report sets the tokens used beside the plan."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from inspect_ai import eval

from helpers import scripted_model
from medhalbench.cli import cli
from medhalbench.dahl import DahlPlanSettings, dahl
from medhalbench.examples import illustrative
from medhalbench.medhallu import load_medhallu
from medhalbench.planning import Plan, Price, RoleEstimate, count_tokens, plan_table, read_prices
from medhalbench.results import run_result, token_table

MEDHALLU = illustrative("medhallu_illustrative.jsonl")
DAHL = illustrative("dahl_illustrative.csv")


def run(args: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, args)
    return result.exit_code, result.stdout, result.stderr


def cells(out: str, role: str) -> list[str]:
    """The cells of a plan table's row for a role."""
    line = next(row for row in out.splitlines() if re.match(rf"^│ {re.escape(role)}\s+│", row))
    return [c.strip() for c in line.strip("│").split("│")]


def test_eval_dry_run_counts_calls_and_writes_no_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["eval", "medhallu", "--dataset", MEDHALLU, "--knowledge", "--dry-run"])
    assert code == 0, err
    rows = len(load_medhallu(MEDHALLU))
    role, model, calls, tokens_in, tokens_out = cells(out, "model")
    assert (model, int(calls)) == ("embedded/smollm2", 2 * rows)
    assert int(tokens_out.replace(",", "")) == 128 * 2 * rows  # at the max-token setting
    knowledge = sum(count_tokens([r.knowledge_text for r in load_medhallu(MEDHALLU)]))
    assert int(tokens_in.replace(",", "")) > 2 * knowledge  # each row's abstract, twice
    assert not (tmp_path / "logs").exists()


def test_dahl_dry_run_scales_checks_with_units_per_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(
        ["eval", "dahl", "--dataset", DAHL, "--dry-run", "--units-per-answer", "5",
         "--no-paper-protocol"]
    )  # fmt: skip
    assert code == 0, err
    answers = int(cells(out, "model")[2])
    assert int(cells(out, "splitter")[2]) == answers == 4
    assert int(cells(out, "checker")[2]) == 5 * answers
    code, out, _ = run(
        ["eval", "dahl", "--dataset", DAHL, "--dry-run", "--check-mode", "batch",
         "--no-paper-protocol"]
    )  # fmt: skip
    assert int(cells(out, "checker")[2]) == answers
    # The authors' pipeline splits each answer again and checks every unit on its own: the
    # paper column's calls are rows of their own, priced, and the option that skips them said.
    code, out, _ = run(["eval", "dahl", "--dataset", DAHL, "--dry-run", "--units-per-answer", "5"])
    assert int(cells(out, "splitter")[2]) == answers
    assert int(cells(out, "splitter (paper column)")[2]) == answers
    assert int(cells(out, "checker (paper column)")[2]) == 5 * answers
    assert "Rows (paper column): --no-paper-protocol skips their calls." in " ".join(out.split())


def test_a_role_planned_in_parts_is_kept_as_one_and_each_part_is_priced() -> None:
    price = {"openai/gpt-4o-mini": Price(input=1.0, output=2.0)}
    plan = Plan("t", 2, [
        RoleEstimate("checker", 10, 1_000_000, 0, model="openai/gpt-4o-mini"),
        RoleEstimate("checker", 10, 1_000_000, 500_000, model="openai/gpt-4o-mini",
                     part="paper column", skipped_by="--no-paper-protocol"),
    ])  # fmt: skip
    table = plan_table(plan, price)
    assert [r[0] for r in table.rows] == ["checker", "checker (paper column)"]
    assert [r[-1] for r in table.rows] == [pytest.approx(1.0), pytest.approx(2.0)]
    assert table.notes == ["Rows (paper column): --no-paper-protocol skips their calls."]
    (kept,) = plan.kept().roles  # the usage of the role's calls is counted as one
    assert (kept.role, kept.calls, kept.input_tokens, kept.output_tokens) == (
        "checker", 20, 2_000_000, 500_000,
    )  # fmt: skip


def test_prices_give_the_cost_and_a_model_without_one_is_undefined(tmp_path: Path) -> None:
    prices = tmp_path / "prices.toml"
    prices.write_text('["openai/gpt-4o-mini"]\ninput = 0.15\noutput = 0.60\n')
    plan = Plan("t", 10, [
        RoleEstimate("model", 10, 2_000_000, 1_000_000, model="openai/gpt-4o-mini"),
        RoleEstimate("checker", 10, 100, 10, model="other/model"),
    ])  # fmt: skip
    table = plan_table(plan, read_prices(prices))
    assert table.rows[0][-1] == pytest.approx(2 * 0.15 + 1 * 0.60)
    assert table.rows[1][-1] != table.rows[1][-1]  # NaN: shown as undefined, not 0
    assert read_prices(prices) == {"openai/gpt-4o-mini": Price(input=0.15, output=0.60)}


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        ("prices.yaml", "openai/gpt-4o-mini:\n  input: cheap\n", 2),
        ("prices.toml", '["openai/gpt-4o-mini"]\ninput = "cheap"\noutput = 1\n', 2),
        # A key missing: the table that should hold it.
        ("prices.toml", '[a]\ninput = 1\noutput = 1\n["openai/gpt-4o-mini"]\ninput = 1\n', 4),
        ("prices.toml", '["openai/gpt-4o-mini"]\ninput = 1\noutput = 1\ncached = 0.1\n', 4),
    ],
)
def test_a_bad_prices_file_is_one_line_naming_its_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str, line: int
) -> None:
    monkeypatch.chdir(tmp_path)
    bad = tmp_path / name
    bad.write_text(text)
    code, _, err = run(
        ["eval", "medhallu", "--dataset", MEDHALLU, "--dry-run", "--prices", str(bad)]
    )
    assert code == 2 and name in err and "openai/gpt-4o-mini" in err
    assert len(err.strip().splitlines()) == 1 and f"line {line}" in err, err


def test_builder_dry_run_gives_the_range_of_calls(tmp_path: Path) -> None:
    pubmedqa = tmp_path / "ori_pqal.json"
    pubmedqa.write_text(json.dumps({
        str(i): {"QUESTION": f"Does drug {i} help?", "CONTEXTS": ["It was tested."], "LABELS": [],
                 "MESHES": [], "final_decision": "yes", "LONG_ANSWER": "Yes, drug helps a lot."}
        for i in range(3)
    }))  # fmt: skip
    code, out, err = run([
        "build", "medhallu", "--pubmedqa", str(pubmedqa), "--out", str(tmp_path / "out"),
        "--attempts", "4", "--discriminator", "openai/gpt-a", "--discriminator", "anthropic/claude-b", "--dry-run",
        "--model", "openai/gpt-c",
    ])  # fmt: skip
    assert code == 0, err
    assert cells(out, "generator")[2] == "3–12" and cells(out, "refiner")[2] == "0–12"
    assert (
        cells(out, "generator")[1] == "openai/gpt-c" and cells(out, "refiner")[1] == "openai/gpt-c"
    )
    assert cells(out, "discriminator")[1] == "openai/gpt-a" and "anthropic/claude-b" in out
    assert cells(out, "nli")[2] == "6–24"  # the LLM judge: both directions per attempt
    assert cells(out, "nli")[1] == "openai/gpt-c"  # `llm`: the builder's --model
    assert not (tmp_path / "out").exists()
    # Without --model, a role left unnamed beside real models is refused, not embedded.
    code, _, err = run([
        "build", "medhallu", "--pubmedqa", str(pubmedqa), "--out", str(tmp_path / "out"),
        "--discriminator", "openai/gpt-a", "--dry-run",
    ])  # fmt: skip
    assert code == 2 and "--generator MODEL" in err and "--model MODEL" in err


def test_the_report_sets_tokens_used_beside_the_plan(tmp_path: Path) -> None:
    from medhalbench.commands import keep_plan, task_plan_of

    model = scripted_model(lambda prompt: "Aspirin inhibits platelets.\nAspirin is an NSAID.")
    task = dahl(dataset=DAHL, limit=2, cache=False, paper_protocol=False)
    plan = task_plan_of(task, ["mockllm/model"], {}, DahlPlanSettings(units_per_answer=2))
    keep_plan(task, plan)
    [log] = eval(task, model=model, model_roles={"splitter": model, "checker": model},
                 log_dir=str(tmp_path), display="none")  # fmt: skip
    result = run_result(log)
    assert set(result.usage) == {"model", "splitter", "checker"}
    table = token_table([result], {result.log: "DAHL run"})
    assert table is not None
    by_role = {row[1]: row for row in table.rows}
    assert by_role["splitter"][2] == 2 and by_role["checker"][2] == 4  # planned calls
    assert by_role["model"][4] == result.usage["model"][0] > 0  # input used
