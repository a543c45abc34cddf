"""Every help page ends with examples, and every example is a command line that the command
it names takes: its words name commands that exist and its options are the command's."""

from __future__ import annotations

import shlex

import click
import pytest
from click.testing import CliRunner

from medhalbench.cli import cli


def _pages() -> list[tuple[list[str], click.Command]]:
    found: list[tuple[list[str], click.Command]] = []

    def walk(command: click.Command, path: list[str], ctx: click.Context) -> None:
        found.append((path, command))
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None, name
                walk(sub, [*path, name], click.Context(sub, parent=ctx, info_name=name))

    walk(cli, [], click.Context(cli, info_name="medhalbench"))
    return found


PAGES = _pages()


def _command_of(words: list[str]) -> tuple[click.Command, list[str]]:
    """The command an example's words name, and the words left for it."""
    command: click.Command = cli
    ctx = click.Context(cli, info_name="medhalbench")
    while isinstance(command, click.Group) and words and not words[0].startswith("-"):
        sub = command.get_command(ctx, words[0])
        assert sub is not None, f"no command {words[0]!r}"
        ctx = click.Context(sub, parent=ctx, info_name=words[0])
        command, words = sub, words[1:]
    return command, words


def test_there_are_as_many_pages_as_commands() -> None:
    assert len(PAGES) >= 27


@pytest.mark.parametrize("path", [p for p, _ in PAGES], ids=lambda p: " ".join(p) or "medhalbench")
def test_every_help_page_ends_with_examples_its_command_takes(path: list[str]) -> None:
    page = CliRunner().invoke(cli, [*path, "--help"])
    assert page.exit_code == 0, page.output
    head, _, examples = page.output.partition("\n  Examples:\n")
    assert examples, f"no examples on {' '.join(path)} --help"
    lines = [line.strip() for line in examples.splitlines() if line.strip()]
    assert lines
    for number, line in enumerate(lines):
        words = [w for w in shlex.split(line) if "=" not in w or w.startswith("-")]
        # An example may set an environment variable first (`LOCAL_API_KEY=any medhalbench`).
        words = words[words.index("medhalbench") + 1 :]
        # The first shows the page's own command; later ones may show what goes with it.
        assert number > 0 or words[: len(path)] == path, line
        command, rest = _command_of(words)
        taken = {opt for p in command.params for opt in (*p.opts, *p.secondary_opts)}
        for word in rest:
            if word.startswith("-") and word != "--help":
                assert word in taken, f"{line}: {word} is no option of {command.name}"
