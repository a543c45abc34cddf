"""The docs folder builds with MkDocs, strictly (a broken link, a missing page or an anchor
that is not there fails), offline, and every page is reachable from its navigation."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).parents[2]


def _nav_pages(nav: list[object]) -> set[str]:
    pages: set[str] = set()
    for entry in nav:
        for value in entry.values() if isinstance(entry, dict) else [entry]:
            pages |= _nav_pages(value) if isinstance(value, list) else {str(value)}
    return pages


def test_the_docs_build_strictly_offline(tmp_path: Path) -> None:
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "NO_PROXY": "*", "HTTPS_PROXY": "http://127.0.0.1:9"},
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    assert "WARNING" not in built.stderr, built.stderr
    pages = list((tmp_path / "site").rglob("*.html"))
    # The pages load nothing from elsewhere: no CDN script, font or style sheet.
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert 'src="http' not in text and '<link href="http' not in text, page


def test_every_docs_page_and_package_readme_is_in_the_navigation() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    listed = _nav_pages(config["nav"])
    written = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").glob("*.md")}
    readmes = {
        f"reference/{p.parent.name}.md" for p in (ROOT / "src/medhalbench").glob("*/README.md")
    }
    assert written | readmes == listed


def test_the_readme_is_read_in_five_minutes() -> None:
    """README.md holds what a newcomer needs first, in at most 250 lines; the rest is in docs/."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250
    for page in (ROOT / "docs").glob("*.md"):
        if page.name != "index.md":
            assert f"(docs/{page.name})" in "\n".join(lines), (
                f"the README does not link {page.name}"
            )
