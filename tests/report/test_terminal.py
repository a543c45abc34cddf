"""What the terminal shows: tables that fit 80 columns without cutting a number, progress
bars that keep their count and time, and a word when a local server is saturated."""

from __future__ import annotations

import http.server
import io
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from helpers import stub_at
from medhalbench.cli import cli
from medhalbench.commands import print_table
from medhalbench.commands._progress import TaskProgress, progress_display
from medhalbench.commands._saturation import Endpoint, saturation_hint, server_slots
from medhalbench.examples import illustrative
from medhalbench.registry import benchmark
from medhalbench.report import collect
from medhalbench.results import Estimate, format_cell


def _printed(table, width: int, *, wide: bool = True) -> str:
    console = Console(width=width, file=io.StringIO(), record=True, force_terminal=True)
    print_table(console, table, wide=wide)
    return console.export_text()


@pytest.mark.parametrize("width", [60, 80, 120])
def test_every_table_fits_the_terminal_and_shows_every_number_whole(
    report_logs: Path, width: int
) -> None:
    results = collect([report_logs])
    for name in ("medhallu", "dahl", "medhal"):
        entry = benchmark(name)
        parts = entry.implementation
        for table in parts.tables(results.of(name), parts.published()[:4]):
            text = _printed(table, width)
            assert max(len(line) for line in text.splitlines()) <= width
            flat = text.replace("\n", " ")
            for row in table.rows:
                for value, column in zip(row, table.columns, strict=True):
                    if isinstance(value, float | Estimate):
                        # Whole, with its interval: never cut, never wrapped inside.
                        assert format_cell(
                            value, column.digits, interval=column.interval
                        ) in text or (format_cell(value, column.digits) in flat), (
                            table.slug,
                            column.name,
                        )
            # The first column stays readable: no run is reduced to a sliver.
            assert any("mockllm/model" in line for line in text.splitlines())


def test_a_narrow_run_table_keeps_model_names_and_figures(report_logs: Path) -> None:
    results = collect([report_logs])
    [medhal] = results.of("medhal")
    text = _printed(benchmark("medhal").implementation.summary(medhal), 80)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert f"{medhal.metrics['f1']:.3f} [{medhal.metrics['f1_ci_low']:.3f}, " in text


@pytest.mark.parametrize("width", [80, 100, 120])
def test_the_progress_bar_keeps_its_count_and_time_whatever_the_name(width: int) -> None:
    # Bars are drawn in a terminal; what they draw is recorded apart from the live display.
    terminal = Console(width=width, file=io.StringIO(), force_terminal=True)
    console = Console(width=width, file=io.StringIO(), record=True)
    with progress_display(terminal):
        from medhalbench.commands._progress import _state

        progress = _state.progress
        assert isinstance(progress, TaskProgress)
        name = "medhallu · openai-api/local/qwen2.5-7b-instruct · difficulty all · knowledge yes · not sure no · structured no"
        task = progress.add_task(
            name, total=2000, note="retries 4 (last: APITimeoutError; next in 12 s)"
        )
        progress.advance(task, 123)
        console.print(progress.get_renderable())
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= width
    assert "123/2000" in text and "0:00:" in text  # the count and the elapsed time
    assert "structured no" in text  # the whole name, on lines of its own
    assert "next in 12 s" in text.replace("\n", " ").replace("  ", " ") or "next in" in text


def test_piped_output_reports_progress_as_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No bar can be redrawn in a file or a pipe: a line at the start, each tenth and the end.
    monkeypatch.setenv("LOCAL_API_KEY", "test-key")
    with stub_at(lambda messages: "1") as base_url:
        result = CliRunner().invoke(
            cli,
            ["eval", "medhallu", "--dataset", illustrative("medhallu_illustrative.jsonl"),
             "--limit", "5", "--model", "openai-api/local/m", "--model-base-url", base_url,
             "--log-dir", str(tmp_path)],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("medhallu · ")]
    assert lines[0].endswith(" · 0/10 · started") and lines[-1].endswith(" · 10/10 · ended")
    counts = [int(line.split(" · ")[-1].split("/")[0]) for line in lines[1:-1]]
    assert counts == list(range(1, 11)), lines  # ten samples: a line each


class _Props(http.server.BaseHTTPRequestHandler):
    slots: int | None = 2

    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        if self.path == "/props" and self.slots is not None:
            body = json.dumps({"total_slots": self.slots}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            self.send_error(404)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def props_server() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Props)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def test_a_local_server_with_fewer_slots_than_connections_is_named(props_server: str) -> None:
    assert server_slots(props_server) == 2
    hint = saturation_hint(Endpoint(props_server, 8, ("model",)), 2)
    assert hint and "decodes 2 call(s) at once" in hint and "up to 8 calls" in hint
    assert "--max-connections 2" in hint
    assert saturation_hint(Endpoint(props_server, 2, ("model",)), 2) is None
    assert saturation_hint(Endpoint(props_server, None, ("model",)), 2) is not None  # adaptive
    _Props.slots = None  # a server that does not say (vLLM, Ollama): nothing said
    try:
        assert server_slots(props_server) is None
    finally:
        _Props.slots = 2
    assert server_slots("http://127.0.0.1:9/v1") is None  # nothing listening


def test_an_eval_against_a_saturated_local_server_says_so_before_it_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import medhalbench.commands._progress as progress

    with stub_at(lambda messages: "1") as base_url:
        # The stub speaks the OpenAI API only; its slots are those a llama.cpp server reports.
        monkeypatch.setattr(progress, "server_slots", lambda url: 1 if url == base_url else None)
        monkeypatch.setenv("LOCAL_API_KEY", "test-key")
        result = CliRunner().invoke(
            cli,
            ["eval", "medhallu", "--dataset", illustrative("medhallu_illustrative.jsonl"),
             "--limit", "1", "--model", "openai-api/local/m", "--model-base-url", base_url,
             "--max-connections", "4", "--log-dir", str(tmp_path)],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert f"the server at {base_url} (model) decodes 1 call(s) at once" in flat
    assert "up to 4 calls at once" in flat and "--max-connections 1" in flat


@pytest.mark.slow
def test_the_real_local_server_reports_its_slots(llama_server) -> None:
    # `medhalbench serve` (llama.cpp's server engine) says how many calls it decodes at once.
    slots = server_slots(llama_server.base_url)
    assert isinstance(slots, int) and slots >= 1


def test_retry_prints_the_result_table_as_eval_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOCAL_API_KEY", "test-key")
    with stub_at(lambda messages: "1") as base_url:
        args = ["eval", "medhallu", "--dataset", illustrative("medhallu_illustrative.jsonl"),
                "--limit", "2", "--model", "openai-api/local/m", "--model-base-url", base_url,
                "--log-dir", str(tmp_path), "--display", "none"]  # fmt: skip
        first = CliRunner().invoke(cli, args)
        assert first.exit_code == 0, first.output
        [log] = tmp_path.glob("*.eval")
        again = CliRunner().invoke(cli, ["retry", str(log), "--force", "--display", "none"])
    assert again.exit_code == 0, again.output
    flat = " ".join(again.output.split())
    assert "MedHallu: openai-api/local/m" in flat and "│ F1" in again.output
    assert "Log (success)" in flat
