"""Reports: the papers' tables and figures from inspect logs of any of our tasks, with the
published figures as reference rows and paired comparisons of runs on the same samples."""

from medhalbench.report._collect import CollectedResults, collect
from medhalbench.report._compare import Comparison, compare_logs, comparison_table
from medhalbench.report._render import render_html, render_markdown, tables, write_report

__all__ = [
    "CollectedResults",
    "Comparison",
    "collect",
    "compare_logs",
    "comparison_table",
    "render_html",
    "render_markdown",
    "tables",
    "write_report",
]
