"""The print boundary: every character a terminal acts on is shown as its escape, and
everything else is left as it is."""

from __future__ import annotations

import io
import unicodedata

from rich.console import Console

from medhalbench.commands._run import _PrintableConsole
from medhalbench.text import printable

# Every character a terminal acts on: C0 but tab and line feed, DEL, C1, the bidirectional
# marks, overrides and isolates.
ACTING = [
    c
    for c in map(chr, range(0x2070))
    if (unicodedata.category(c) == "Cc" and c not in "\t\n")
    or unicodedata.bidirectional(c)
    in ("LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI")
    or c in "\u200e\u200f"
]


def test_every_acting_character_is_escaped_and_nothing_else() -> None:
    assert len(ACTING) == 30 + 1 + 32 + 2 + 5 + 4
    for c in ACTING:
        shown = printable(f"a{c}b")
        assert c not in shown and shown.startswith("a\\") and shown.endswith("b"), repr(c)
    plain = "Résumé 中文 — tab\tand\nline ✅"
    assert printable(plain) == plain


def test_the_console_shows_a_name_it_is_given_escaped() -> None:
    out = io.StringIO()
    console: Console = _PrintableConsole(file=out, force_terminal=True, width=80)
    console.print(f"[yellow]Note:[/yellow] model {'x' + ''.join(ACTING) + 'y'}")
    text = out.getvalue()
    assert "\\x1b" in text and "\\u202e" in text
    # Only the console's own styling remains: one colour on, one off.
    assert text.count("\x1b") == 2 and not any(c in text for c in ACTING if c != "\x1b")


def test_text_given_as_rich_text_is_escaped_too() -> None:
    from rich.table import Table
    from rich.text import Text

    out = io.StringIO()
    console: Console = _PrintableConsole(file=out, force_terminal=True, width=80)
    table = Table(title=Text("title \x1b]0;pwn\x07"))
    table.add_column(Text("head \u202e"))
    table.add_row(Text("cell \x9b31m"))
    console.print(table)
    console.print(Text("note \r\x1b[2J", style="dim"))
    text = out.getvalue()
    assert not any(c in text for c in ACTING if c != "\x1b")
    # Shown escaped (the layout, made before, may cut what the escape made longer).
    assert "\\x1b]0;pwn" in text and "\\u2" in text and "\\x9" in text
    # Only the console's own styling sequences: each starts a colour or ends one.
    assert all(
        text[i + 1] == "[" and text[i + 2 : i + 3] in "0123456789m"
        for i in range(len(text))
        if text[i] == "\x1b"
    )


def test_a_stream_escapes_content_controls_and_keeps_its_display_own() -> None:
    """Whatever writes to stdout (inspect's conversation view among them): the display's own
    styles, cursor moves and links pass; every other acting character (a cleared screen, a
    title, a C1 CSI, reordered text) planted in content is shown as its escape; a carriage
    return passes (progress bars redraw their line with it)."""
    from medhalbench._secrets import RedactingStream

    own = "\x1b[1;31mred\x1b[0m\r\x1b[2K\x1b[1A\x1b[?25l\x1b]8;id=1;https://x.org\x1b\\link\x1b]8;;\x1b\\"
    sink = io.StringIO()
    stream = RedactingStream(sink)
    for c in [c for c in ACTING if c != "\r"]:
        sink.seek(0), sink.truncate()
        stream.write(f"{own}a{c}[2J{c}]0;title\x07b")
        written = sink.getvalue()
        assert written.startswith(own) and c not in written[len(own) :], repr(c)
    sink.seek(0), sink.truncate()
    stream.write("Q: \x1b[2J\x1b[Hwhy\x1b]0;pwned\x07")
    assert sink.getvalue() == "Q: \\x1b[2J\\x1b[Hwhy\\x1b]0;pwned\\x07"
