"""A picture of a report's summary, as Chromium shows it 1280 pixels wide (for the README).

    .venv/bin/medhalbench demo --display none
    .venv/bin/python scripts/report_picture.py report.html docs/report-summary.png

Needs Chromium (`scripts/install.sh --test` installs it) and Playwright (a test dependency).
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

WIDTH = 1280


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path, help="A report written by `medhalbench report`.")
    parser.add_argument("out", type=Path, help="The PNG to write.")
    parser.add_argument("--section", default="#section-summary", help="What to picture.")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--headless", "--no-sandbox"])
        page = browser.new_page(viewport={"width": WIDTH, "height": 900})
        page.goto(args.report.resolve().as_uri())
        wide = page.evaluate("document.documentElement.scrollWidth")
        if wide > WIDTH:
            raise SystemExit(f"the report is {wide} px wide: it does not fit {WIDTH} px")
        page.locator(args.section).screenshot(path=str(args.out))
        browser.close()
    print(f"Wrote {args.out}")


if __name__ == "__main__":
    main()
