"""MkDocs hook: each package's README (a benchmark's protocol, the evidence index, the
reader's contract, the reproductions) is a page of the docs under `reference/`, read from where
it lives beside its code, so that it has one copy."""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

PACKAGE = Path(__file__).parents[1] / "src" / "medhalbench"


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add `src/medhalbench/<name>/README.md` as the page `reference/<name>.md`."""
    for readme in sorted(PACKAGE.glob("*/README.md")):
        uri = f"reference/{readme.parent.name}.md"
        files.append(File.generated(config, uri, abs_src_path=str(readme)))
    return files
