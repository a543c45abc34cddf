"""Reports: the papers' tables and figures from inspect logs of any of our tasks."""

from medhalbench.report._collect import CollectedResults, collect
from medhalbench.report._render import render_html, render_markdown, tables, write_report
from medhalbench.report._tables import ResultTable

__all__ = [
    "CollectedResults",
    "ResultTable",
    "collect",
    "render_html",
    "render_markdown",
    "tables",
    "write_report",
]
